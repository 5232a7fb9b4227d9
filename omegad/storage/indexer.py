"""The vector-index build, run by the daemon as a low-priority subprocess.

Building the HNSW index takes minutes on a big store (about a minute per 100k memories on two
cores; the RaBitQ index, ``index.vector_index = "rabitq"``, ~25 s at 1M, still too long to hold
the writer). Run in a thread of the daemon, the HNSW build stalled every
commit: LanceDB's sync API runs each call on one shared async runtime, and the build kept it
busy, so a store that arrived during a 27 s build at 20k memories waited 27 s (gets and pings,
which do not commit, went on). In a
process of its own, at a lower CPU priority (``nice``), the build shares nothing with the daemon
but the files, and the memory it takes is returned to the system when it exits.

The build and its commit are two steps. Lance commits an index next to concurrent appends, but a
commit that keeps losing the race to the next version number gives up after 30 s ("too many
concurrent writers": it did so in a test at ~55 appends/s, and a busy daemon commits that often).
So the child builds the index segment without publishing it (``create_index_uncommitted``),
fsyncs its files, and says so; the daemon then holds off its own commits, tells the child to
commit (milliseconds: a manifest), and lets its writer go on. Protocol, one JSON object a line:

    child  → {"built": ROWS, "ms": BUILD_MS}
    daemon → commit
    child  → {"rows": ROWS, "ms": TOTAL_MS, "commit_ms": COMMIT_MS}

Anything but ``commit`` (or end of input) makes the child exit without committing; a cancelled
build (the daemon stopping) is killed. An unpublished segment is never read, and goes with the
next version cleanup.

    python -m omegad.storage.indexer LANCE_DIR [--nice N] [--kind hnsw|rabitq]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio
from anyio.streams.buffered import BufferedByteReceiveStream

from omegad.errors import error_text
from omegad.storage.fsutil import fsync_dir, fsync_file, fsync_tree
from omegad.storage.lanceops import exit_with_parent, say
from omegad.storage.location import Location

__all__ = ["COMMIT_TIMEOUT_S", "NICE", "IndexBuildFailed", "build_in_subprocess", "main"]

#: How much lower the build's CPU priority is than the daemon's (``nice`` increment).
NICE = 10
#: The longest the daemon holds its commits off for the child's commit.
COMMIT_TIMEOUT_S = 60.0
_MAX_LINE = 1 << 16


class IndexBuildFailed(RuntimeError):
    pass


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="omegad.storage.indexer", description="build the memories' vector index")
    parser.add_argument("location", help="the tables' directory, or a team store's URI")
    parser.add_argument("--nice", type=int, default=NICE)
    parser.add_argument("--kind", default="hnsw", help="hnsw or rabitq (index.vector_index)")
    args = parser.parse_args(argv)
    exit_with_parent()
    if args.nice > 0:
        try:
            os.nice(args.nice)
        except OSError:
            pass  # (not allowed: build at the daemon's priority)
    import lance

    from omegad.storage.indexes import VECTOR_INDEX_KINDS, VECTOR_INDEX_NAME, vector_index_params
    from omegad.storage.rows import TABLE

    t0 = time.perf_counter()
    try:
        location = Location.from_child_arg(args.location)
        path = Path(location.table(TABLE))
        if not location.shared and not path.is_dir():
            raise FileNotFoundError(f"no table at {path}")
        ds = lance.dataset(location.table(TABLE), **location.dataset_args())
        fragments = [f.fragment_id for f in ds.get_fragments()]
        rows = int(ds.count_rows())
        index = ds.create_index_uncommitted(
            "vector",
            VECTOR_INDEX_KINDS[args.kind][0],
            name=VECTOR_INDEX_NAME,
            metric="cosine",
            fragment_ids=fragments,
            replace=True,  # (an index of another kind: `IndexState.vector_outdated`)
            **vector_index_params(args.kind, rows),
        )
        # durable before it is published: a manifest must never name missing index files
        # (an object store's PUT is durable once answered)
        if not location.shared:
            fsync_tree(path / "_indices" / str(index.uuid))
            fsync_dir(path / "_indices")
    except Exception as exc:
        print(error_text(exc), file=sys.stderr)
        return 1
    built_ms = round((time.perf_counter() - t0) * 1000, 1)
    say({"built": rows, "ms": built_ms})
    if sys.stdin.readline().strip() != "commit":
        return 3  # abandoned: the segment stays unpublished
    t1 = time.perf_counter()
    started_at = time.time() - 2.0  # (file times are coarse)
    try:
        ds.commit_existing_index_segments(VECTOR_INDEX_NAME, "vector", [index])
        t2 = time.perf_counter()
        for sub in ("_versions", "_transactions") if not location.shared else ():
            _fsync_written_since(path / sub, started_at)
    except Exception as exc:
        print(error_text(exc), file=sys.stderr)
        return 1
    now = time.perf_counter()
    say(
        {
            "rows": rows,
            "ms": round((now - t0) * 1000, 1),
            "commit_ms": round((now - t1) * 1000, 1),
            "sync_ms": round((now - t2) * 1000, 1),
        }
    )
    return 0


def _fsync_written_since(directory: Path, since: float) -> None:
    """fsync the files of *directory* written since *since* (the commit's manifest and
    transaction; the rest are many and durable already), and the directory."""
    if not directory.is_dir():
        return
    with os.scandir(directory) as entries:
        for entry in entries:
            try:
                if entry.is_file() and entry.stat().st_mtime >= since:
                    fsync_file(entry.path)
            except FileNotFoundError:
                continue
    fsync_dir(directory)


async def build_in_subprocess(
    where: Location | Path,
    hold_commits: Callable[[], AbstractAsyncContextManager[None]] | None = None,
    nice: int = NICE,
    kind: str = "hnsw",
) -> dict[str, Any]:
    """Build the vector index in a child process (`main`) and commit it while
    *hold_commits()* is entered (the daemon's writes held off). Returns the child's report
    (rows, ms, commit_ms, build_ms); cancelling kills the child."""
    package_root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    location = where if isinstance(where, Location) else Location(where)
    env.update(location.child_env())
    # -P: not the daemon's working directory first on the path (a json.py there)
    command = [
        sys.executable,
        "-P",
        "-m",
        "omegad.storage.indexer",
        location.child_arg(),
        "--nice",
        str(nice),
        "--kind",
        kind,
    ]
    errors = bytearray()

    async def drain(stream: AsyncIterator[bytes]) -> None:
        async for chunk in stream:
            errors.extend(chunk)
            del errors[: max(0, len(errors) - _MAX_LINE)]  # the tail is enough

    def failed(what: str) -> IndexBuildFailed:
        tail = errors.decode("utf-8", "replace").strip().splitlines()[-3:]
        return IndexBuildFailed(f"{what}: " + " | ".join(tail) if tail else what)

    async with await anyio.open_process(command, env=env) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        lines = BufferedByteReceiveStream(proc.stdout)

        async def line() -> dict[str, Any] | None:
            try:
                raw = await lines.receive_until(b"\n", _MAX_LINE)
            except (anyio.EndOfStream, anyio.IncompleteRead, anyio.DelimiterNotFound):
                return None
            try:
                out = json.loads(raw)
            except ValueError:
                return None
            return out if isinstance(out, dict) else None

        done: dict[str, Any] | None = None
        async with anyio.create_task_group() as tg:
            tg.start_soon(drain, proc.stderr)  # (ends when the child exits)
            built = await line()
            ready = built is not None and "built" in built
            if ready:
                async with hold_commits() if hold_commits is not None else contextlib.nullcontext():
                    await proc.stdin.send(b"commit\n")
                    with anyio.move_on_after(COMMIT_TIMEOUT_S):
                        done = await line()
                    if done is None:
                        proc.kill()  # (a commit that hangs must not hold the writer)
            code = await proc.wait()
        if not ready:
            raise failed(f"exit {code}")
        if done is None or code != 0:
            raise failed(f"commit failed, exit {code}")
        assert built is not None
        done["build_ms"] = built.get("ms")
        return done


if __name__ == "__main__":
    sys.exit(main())
