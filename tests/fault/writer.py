"""A client process for the kill tests: stores memories with chosen ids until the daemon dies,
appending each acknowledged id to a file (flushed per ack). Text is derived from the id, so a
reader can tell a whole row from a half-written one.

    python -m tests.fault.writer SOCKET TAG ACKED_FILE [--retry]

With ``--retry`` it behaves like a careful client on a degraded daemon: a store refused with
``unavailable`` (a full disk) is sent again, with the same ids, until it is acknowledged.
"""

from __future__ import annotations

import os
import sys
import time

from omegad_client import Client, OmegadError, Unavailable


def text_of(mid: str) -> str:
    return f"memory {mid} about the deployment pipeline"


def main() -> int:
    sock, tag, acked_path = sys.argv[1:4]
    retry = "--retry" in sys.argv[4:]
    fd = os.open(acked_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    i = 0
    try:
        with Client(sock, timeout=30) as c:
            while True:
                ids = [f"{tag}-{i}-b{j}" for j in range(4)] if i % 4 == 0 else [f"{tag}-{i}"]
                while True:
                    try:
                        if len(ids) > 1:
                            c.store_batch([{"text": text_of(m), "id": m, "namespace": "kill"} for m in ids])
                        else:
                            c.store(text_of(ids[0]), id=ids[0], namespace="kill")
                        break
                    except Unavailable:
                        if not retry:
                            raise
                        time.sleep(0.02)
                os.write(fd, "".join(m + "\n" for m in ids).encode())
                i += 1
    except (OmegadError, OSError):
        return 0  # the daemon died mid-call: that call was not acknowledged
    finally:
        os.close(fd)


if __name__ == "__main__":
    raise SystemExit(main())
