"""The daemon's side of the maintenance process: `ChildOps` makes `LanceOps` calls in
``python -m omegad.storage.lanceops`` (which runs `LocalOps`), one JSON line each way, and
ends the process when it has been idle (see `omegad.storage.lanceops` for why a child)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from omegad.storage.lanceops import CompactionBounds, LanceOpsFailed, LanceOpsTimeout
from omegad.storage.location import Location

__all__ = ["CALL_TIMEOUT_S", "COMMIT_TIMEOUT_S", "EXIT_WAIT_S", "ChildOps"]

#: The longest `ChildOps` waits for a compaction's commit, which the daemon's commits wait for.
COMMIT_TIMEOUT_S = 60.0
#: The longest it waits for any other call (a watchdog: a pass that hangs holds up every later
#: pass and fold, and the version cleanup runs in the writer).
CALL_TIMEOUT_S = 1_800.0
#: How long `ChildOps.close` waits for the child to exit before it kills it.
EXIT_WAIT_S = 5.0


class ChildOps:
    """`LocalOps` in a child process, started at the first call and ended by `close` (or
    `close_if_idle`). Thread-safe: one call at a time. A child that dies or hangs in a commit
    fails the call (`LanceOpsFailed`) and the next call starts another."""

    def __init__(self, where: Location | Path) -> None:
        self.location = where if isinstance(where, Location) else Location(where)
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._buf = bytearray()
        self.last_used = time.monotonic()
        self.starts = 0
        self.calls = 0
        self._stopped = False
        #: a compaction is planned or rewritten in the child (`close_if_idle` leaves it be)
        self.compacting = False

    @property
    def running(self) -> bool:
        proc = self._proc  # (once: other threads set it to None)
        return proc is not None and proc.poll() is None

    def _start(self) -> subprocess.Popen[bytes]:
        package_root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
        env.setdefault("LANCE_INCLUDE_VECTOR_CENTROIDS", "false")  # (see omegad.storage.store)
        env.update(self.location.child_env())
        self._buf.clear()
        proc = subprocess.Popen(
            # -P: not the daemon's working directory first on the path (a json.py there)
            [sys.executable, "-P", "-m", "omegad.storage.lanceops", self.location.child_arg()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,  # (stderr: the daemon's, for Lance's own warnings)
        )
        self._proc = proc
        self.starts += 1
        return proc

    def _readline(self, proc: subprocess.Popen[bytes], timeout: float | None) -> bytes | None:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buf:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not poller.poll(None if wait is None else int(wait * 1000) + 1):
                return None  # timed out
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None  # the child exited
            self._buf.extend(chunk)
        end = self._buf.index(b"\n")
        line = bytes(self._buf[:end])
        del self._buf[: end + 1]
        return line

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None:
            proc.kill()
            proc.wait()
            for f in (proc.stdin, proc.stdout):
                if f is not None:
                    with contextlib.suppress(OSError):  # (EPIPE again, flushing)
                        f.close()
        self._proc = None
        self.compacting = False

    def call(self, op: str, timeout: float = CALL_TIMEOUT_S, **args: Any) -> Any:
        with self._lock:
            if self._stopped:
                raise LanceOpsFailed(f"{op}: the daemon is stopping")
            if not self.running:
                self._kill()  # (reaps one that died)
                self._start()
            proc = self._proc
            assert proc is not None and proc.stdin is not None
            self.calls += 1
            seq = self.calls
            try:
                proc.stdin.write(json.dumps({"op": op, "args": args, "seq": seq}).encode() + b"\n")
                proc.stdin.flush()
                line = self._readline(proc, timeout)
            except (OSError, ValueError):  # it died since it was last asked (or `stop` closed its input)
                self._kill()
                raise LanceOpsFailed(f"{op}: the maintenance process is gone") from None
            self.last_used = time.monotonic()
            if line is None:
                code = proc.poll()
                self._kill()
                if code is None:
                    raise LanceOpsTimeout(f"{op}: the maintenance process gave no answer in {timeout} s")
                raise LanceOpsFailed(f"{op}: the maintenance process exited ({code})")
            try:
                reply = json.loads(line)
                if not isinstance(reply, dict) or reply.get("seq") != seq:
                    raise ValueError("not the answer to this call")
            except ValueError:  # out of step: whatever it says next cannot be trusted either
                self._kill()
                raise LanceOpsFailed(f"{op}: unreadable answer {line[:200]!r}") from None
            if op == "compact_plan":
                self.compacting = "error" not in reply
            elif op in ("compact_commit", "compact_abort") or (op == "compact_execute" and reply.get("ok") is None):
                self.compacting = False
        if "error" in reply:
            raise (OSError if reply.get("os_error") else LanceOpsFailed)(reply["error"])
        return reply.get("ok")

    def fragments(self, table: str) -> dict[int, int]:
        return {int(k): int(v) for k, v in self.call("fragments", table=table).items()}

    def segments(self, table: str) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = self.call("segments", table=table)
        return out

    def vector_partitions(self, table: str, index: str) -> int | None:
        out = self.call("vector_partitions", table=table, index=index)
        return None if out is None else int(out)

    def fold(self, table: str, max_deltas: int, into_base: bool) -> int:
        return int(self.call("fold", table=table, max_deltas=max_deltas, into_base=into_base))

    def fold_new(self, table: str, max_deltas: int) -> dict[str, Any] | None:
        out: dict[str, Any] | None = self.call("fold_new", table=table, max_deltas=max_deltas)
        return out

    def compact_plan(self, table: str, bounds: CompactionBounds, dead: dict[int, int]) -> dict[str, Any]:
        out: dict[str, Any] = self.call(
            "compact_plan", table=table, bounds=asdict(bounds), dead={str(k): v for k, v in dead.items()}
        )
        return out

    def compact_execute(self, replan: bool) -> list[int] | None:
        out: list[int] | None = self.call("compact_execute", replan=replan)
        return out

    def compact_commit(self) -> dict[str, int]:
        out: dict[str, int] = self.call("compact_commit", timeout=COMMIT_TIMEOUT_S)
        return out

    def compact_abort(self) -> None:
        if self.compacting and self.running:
            self.call("compact_abort")
        self.compacting = False

    def cleanup(self, table: str) -> dict[str, int]:
        out: dict[str, int] = self.call("cleanup", table=table)
        return out

    def close(self) -> None:
        """End the child (it exits at the end of its input; killed if it does not)."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(EXIT_WAIT_S)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        self._proc = None  # (after it is gone: `describe` shows it until then)

    def stop(self) -> None:
        """At the daemon's shutdown, without waiting (a call may be running): end the child's
        input, so it exits after its current call (its parent watch ends it at the latest a
        second after the daemon is gone), and start no other. Whatever it had not committed is
        left unpublished."""
        self._stopped = True
        proc = self._proc
        if proc is not None and proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass

    def describe(self) -> dict[str, Any]:
        """For `stats`: whether the child runs (its pid), how often it was started, calls made."""
        proc = self._proc
        return {
            "pid": proc.pid if proc is not None and proc.poll() is None else None,
            "starts": self.starts,
            "calls": self.calls,
        }

    def close_if_idle(self, idle_s: float) -> bool:
        """`close` when no call came for *idle_s* seconds and none is running now."""
        if not self.running or self.compacting or time.monotonic() - self.last_used < idle_s:
            return False
        if not self._lock.acquire(blocking=False):
            return False  # (a call is running)
        try:
            idle = not self.compacting and time.monotonic() - self.last_used >= idle_s
            if idle:
                self._close()
        finally:
            self._lock.release()
        return idle
