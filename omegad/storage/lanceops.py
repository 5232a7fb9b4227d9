"""Lance's own maintenance API — compaction, index folds, version cleanup, index and fragment
descriptions — run by the daemon in a child process.

The daemon reads and writes through ``lancedb``, which carries one copy of Lance; these calls
are ``pylance``'s, a second copy. Made in the daemon, a maintenance pass at 1M memories left
its RSS 90–190 MB higher for good: ~45 MB of pages of the second library's code, and what the
pass allocated and freed (glibc keeps it). In a child the daemon never loads that library, and
the child's memory goes back to the system when it exits (`omegad.storage.childops.ChildOps` ends it when idle).

`LocalOps` does the work in the calling process (tests, benchmarks, `omegad maintain` on a
stopped store); `omegad.storage.childops.ChildOps` forwards the same calls to ``python -m omegad.storage.lanceops LANCE_DIR``,
one JSON object a line each way:

    daemon → {"op": NAME, "args": {...}}
    child  → {"ok": RESULT} | {"error": "Type: message", "os_error": BOOL}

A compaction is three calls, so that its commit can be made while the daemon holds its own
commits off (`Maintenance._compact`): ``compact_plan`` (which fragments' dead rows to delete
for good first), ``compact_execute`` (the rewrite, beside the writer), ``compact_commit`` (or
``compact_abort``). The child keeps the rewrite in memory between the calls.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

from omegad.errors import error_text
from omegad.storage.location import Location

__all__ = [
    "DATASET_CACHE_BYTES",
    "DELETED_SHARE",
    "CompactionBounds",
    "LanceOps",
    "LanceOpsFailed",
    "LanceOpsTimeout",
    "LocalOps",
    "exit_with_parent",
    "main",
    "preempted",
    "say",
]

#: A compaction drops a fragment's deleted rows from its files once they are this share of it.
DELETED_SHARE = 0.1
#: Caches of the Lance datasets opened here (Lance's defaults: 6 GB of indexes, 1 GB of metadata).
DATASET_CACHE_BYTES = {"index_cache_size_bytes": 64 << 20, "metadata_cache_size_bytes": 32 << 20}


@dataclass(frozen=True)
class CompactionBounds:
    """How far a compaction goes (from `omegad.storage.store.MaintainPolicy`): fragments smaller than
    *target_rows* merge into ones of about that size, at most *max_source_rows* rows are
    rewritten, fragments under index segments of more than *max_remap_rows* rows are left
    alone, and so are those that would lose their deleted rows under one of more than
    *max_rebuild_rows* (`remap_excluded`)."""

    target_rows: int
    max_source_rows: int
    max_remap_rows: int
    max_rebuild_rows: int


class LanceOpsFailed(RuntimeError):
    """A call failed in a way that is not Lance's I/O error (which is raised as `OSError`, so
    that a commit pre-empted by a concurrent one is told apart: `preempted`)."""


class LanceOpsTimeout(LanceOpsFailed):
    """The child gave no answer in time (and was killed)."""


class LanceOps(Protocol):
    def fragments(self, table: str) -> dict[int, int]: ...
    def segments(self, table: str) -> dict[str, dict[str, int]]: ...
    def vector_partitions(self, table: str, index: str) -> int | None: ...
    def fold(self, table: str, max_deltas: int, into_base: bool) -> int: ...
    def fold_new(self, table: str, max_deltas: int) -> dict[str, Any] | None: ...
    def compact_plan(self, table: str, bounds: CompactionBounds, dead: dict[int, int]) -> dict[str, Any]: ...
    def compact_execute(self, replan: bool) -> list[int] | None: ...
    def compact_commit(self) -> dict[str, int]: ...
    def compact_abort(self) -> None: ...
    def cleanup(self, table: str) -> dict[str, int]: ...
    def close(self) -> None: ...
    def stop(self) -> None: ...
    def describe(self) -> dict[str, Any]: ...


# -- what a pass decides from Lance's descriptions (pure; tested in test_store.py) -----------


def covered_rows(segment: Any, frags: dict[int, Any]) -> int:
    """The rows of the fragments (id → Lance fragment metadata) an index *segment* covers."""
    return sum(int(frags[i].physical_rows) for i in segment.fragment_ids if i in frags)


def segments_to_merge(rows: list[int], new_rows: int, max_segments: int) -> int:
    """How many of an index's newest segments to merge with its *new_rows* (Lance merges "the
    latest N"; 0 makes a new delta). *rows*: each segment's rows, oldest first.

    Size-tiered, as in a log-structured merge: the newest segment joins when it holds at most
    twice the new rows, each older one while it holds at most twice all that joined before it.
    A merge is at least a third new material, so a row is rewritten a logarithmic number of
    times in all, and the base — the big first segment — only once the deltas have grown to
    half its size. (Merging every delta on each idle pass rebuilds every row indexed since the
    base, in passes that grow with the store: docs/storage.md, Maintenance.)
    At *max_segments* pieces the newest two join anyway, so queries search a bounded number
    (the tiers alone stay under 16 pieces for 300k rows folded one at a time onto a base of 1M;
    `test_index_segments_merge_size_tiered`)."""
    total, k = new_rows, 0
    for size in reversed(rows):
        if size > 2 * total:
            break
        total += size
        k += 1
    if len(rows) >= max_segments:
        k = max(k, min(2, len(rows)))  # fewer pieces (joining only the newest keeps as many)
    return k


def newest_to_merge(index: Any, frags: dict[int, Any], new_rows: int, max_segments: int) -> int:
    """`segments_to_merge` for a Lance *index* description (its segments, oldest first, by
    the rows they cover: fragment id → metadata in *frags*) and *new_rows* to fold in."""
    segments = sorted(index.segments, key=lambda seg: seg.created_at)
    return segments_to_merge([covered_rows(seg, frags) for seg in segments], new_rows, max_segments)


def remap_excluded(
    dataset: Any, max_rows: int, max_rebuild_rows: int, deleted_share: float, dead: set[int] | None = None
) -> list[int]:
    """Fragments a compaction must leave alone. Lance's indexes refer to rows by their place
    in the files, so compacting a fragment rewrites ("remaps") every index segment over it
    inside the commit, and every store waits for that commit. Measured on 2 cores: 73 ms for a
    4,096-row HNSW segment and 175 ms for 16,384 rows; when the rewrite drops deleted rows, the
    HNSW graph is rebuilt without them: 0.58 s for 4,096 rows, 3.4 s for 16,384 and 70 s for
    the 100k-row index (measured with the HNSW index; RaBitQ's codes, ``index.vector_index =
    "rabitq"``, need no graph, so these bounds are cautious for it, not re-measured). So fragments
    under a segment of more than *max_rows* rows are never
    compacted, and those that would lose their deleted rows (at least *deleted_share* of them)
    not under one of more than *max_rebuild_rows*; their deleted rows stay marked deleted.
    Fragments in *dead* hold dead rows (`omegad.storage.store.DeadRows`), which a compaction would drop too."""
    frags = {f.fragment_id: f.metadata for f in dataset.get_fragments()}

    def losing_rows(i: int) -> bool:
        if dead and i in dead:
            return True
        deletion = frags[i].deletion_file
        return deletion is not None and int(deletion.num_deleted_rows) >= deleted_share * max(frags[i].physical_rows, 1)

    excluded: set[int] = set()
    for idx in dataset.describe_indices():
        for seg in idx.segments:
            covered = covered_rows(seg, frags)
            if covered > max_rows:
                excluded.update(i for i in seg.fragment_ids if i in frags)
            elif covered > max_rebuild_rows:
                excluded.update(i for i in seg.fragment_ids if i in frags and losing_rows(i))
    return sorted(excluded)


def preempted(exc: BaseException) -> bool:
    """A Lance commit that lost to a concurrent one and may simply be tried again later (also
    when it kept losing the race for the next version until Lance gave up)."""
    text = str(exc)
    return any(
        needle in text
        for needle in (
            "preempted",
            "Retryable commit conflict",
            "Too many concurrent writers",
            # (Lance's own retries, each a rebase on the newest version, all lost to new ones)
            "Failed to commit the transaction after",
        )
    )


# -- the calls, made here --------------------------------------------------------------------


class LocalOps:
    """Lance's maintenance calls on the tables at *where* (a directory, or a team store's
    `Location`), made in this process. Each call opens the table's newest version."""

    def __init__(self, where: Location | Path) -> None:
        self.location = where if isinstance(where, Location) else Location(where)
        self._compaction: dict[str, Any] | None = None

    def _open(self, table: str) -> Any:
        import lance

        return lance.dataset(
            self.location.table(table),
            **self.location.dataset_args(),
            index_cache_size_bytes=DATASET_CACHE_BYTES["index_cache_size_bytes"],
            metadata_cache_size_bytes=DATASET_CACHE_BYTES["metadata_cache_size_bytes"],
        )

    def fragments(self, table: str) -> dict[int, int]:
        """Fragment id → rows in its files (deleted ones too)."""
        return {f.fragment_id: int(f.metadata.physical_rows) for f in self._open(table).get_fragments()}

    def segments(self, table: str) -> dict[str, dict[str, int]]:
        """Each index: its segments (uuid → bytes)."""
        return {
            d.name: {str(seg.uuid): int(seg.size_bytes or 0) for seg in d.segments}
            for d in self._open(table).describe_indices()
        }

    def vector_partitions(self, table: str, index: str) -> int | None:
        """The IVF partitions of the vector index *index* (the most of its segments: deltas
        folded in keep the partitions of the build); None when there is no such index."""
        dataset = self._open(table)
        if index not in {d.name for d in dataset.describe_indices()}:
            return None
        parts = [int(seg.get("num_partitions") or 0) for seg in dataset.stats.index_stats(index).get("indices", [])]
        return max(parts, default=0) or None

    def fold(self, table: str, max_deltas: int, into_base: bool) -> int:
        """Index the new rows. *into_base*: into the indexes proper, every delta merged (-1).
        Else as a new small delta of each index (cost ∝ new rows; merging them into a big index
        rewrites it: 7 s for 23 rows into a 1M-row HNSW), or merged with the index's newest
        segments when those are small next to them (`segments_to_merge`); returns how many
        indexes had segments merged."""
        if into_base:
            self._open(table).optimize.optimize_indices()
            return -1
        merged = 0
        for name, unindexed, to_merge in self._pending(table, max_deltas):
            if not unindexed and not to_merge:
                continue
            merged += bool(to_merge)
            self._merge(table, name, to_merge)
        return merged

    def fold_new(self, table: str, max_deltas: int) -> dict[str, Any] | None:
        """Index the rows the indexes do not cover yet — a delta of each index, merged with
        its newest segments size-tiered (`segments_to_merge`) — and nothing else (see
        `omegad.storage.maintenance.Maintenance.fold_new_rows`). None when every index covers every row."""
        rows = 0
        folded: dict[str, int] = {}
        for name, unindexed, to_merge in self._pending(table, max_deltas):
            if not unindexed:
                continue
            rows = max(rows, unindexed)
            try:
                self._merge(table, name, to_merge)
            except OSError as exc:  # a delete or update committed on those fragments first
                if not preempted(exc):
                    raise
                return {"rows": rows, "indexes": folded, "preempted": True}
            folded[name] = to_merge
        return {"rows": rows, "indexes": folded} if folded else None

    def _pending(self, table: str, max_deltas: int) -> list[tuple[str, int, int]]:
        """Each index of *table*: its name, its unindexed rows, and how many of its newest
        segments to merge with them (`newest_to_merge`)."""
        dataset = self._open(table)
        frags = {f.fragment_id: f.metadata for f in dataset.get_fragments()}
        out = []
        for idx in dataset.describe_indices():
            unindexed = int(dataset.stats.index_stats(idx.name).get("num_unindexed_rows", 0))
            out.append((idx.name, unindexed, newest_to_merge(idx, frags, unindexed, max_deltas)))
        return out

    def _merge(self, table: str, index: str, to_merge: int) -> None:
        """Index *index*'s new rows as a delta, merged with its *to_merge* newest segments (on
        the newest version: the previous index's commit made one)."""
        self._open(table).optimize.optimize_indices(index_names=[index], num_indices_to_merge=to_merge)

    def compact_plan(self, table: str, bounds: CompactionBounds, dead: dict[int, int]) -> dict[str, Any]:
        """Plan a compaction of *table* within *bounds* (see
        `omegad.storage.maintenance.Maintenance._compact`). *dead*: fragment → its dead rows. Returns the fragments
        whose dead rows must be deleted for good before the rewrite (``bury``: those it
        rewrites, and those where Lance would drop deleted rows) and how many are left alone."""
        from lance.optimize import Compaction, CompactionOptions

        dataset = self._open(table)
        dead_frags = set(dead)
        excluded = remap_excluded(dataset, bounds.max_remap_rows, bounds.max_rebuild_rows, DELETED_SHARE, dead_frags)
        options = CompactionOptions(
            target_rows_per_fragment=bounds.target_rows,
            num_threads=1,
            materialize_deletions_threshold=DELETED_SHARE,
            max_source_rows=bounds.max_source_rows,  # the rest in later passes
        )
        if excluded:
            options["excluded_fragment_ids"] = excluded
        plan = Compaction.plan(dataset, options)
        bury = dead_frags & {int(f.id) for task in plan.tasks for f in task.fragments}
        if dead_frags - set(excluded) - bury:
            for f in dataset.get_fragments():
                i = f.fragment_id
                if i in dead_frags and i not in excluded and dead[i] > DELETED_SHARE * f.metadata.physical_rows:
                    bury.add(i)
        self._compaction = {"table": table, "options": options, "dataset": dataset, "plan": plan}
        return {"bury": sorted(bury), "excluded": len(excluded)}

    def compact_execute(self, replan: bool) -> list[int] | None:
        """Rewrite what `compact_plan` planned (planned again on the newest version when
        *replan*: dead rows were deleted since). Returns the fragments rewritten, or None when
        there is nothing to rewrite. Nothing is committed."""
        from lance.optimize import Compaction

        state = self._compaction
        if state is None:
            raise LanceOpsFailed("compact_execute without compact_plan")
        if replan:
            state["dataset"] = self._open(state["table"])
            state["plan"] = Compaction.plan(state["dataset"], state["options"])
        plan = state["plan"]
        if not plan.tasks:
            self._compaction = None
            return None
        state["rewrites"] = [task.execute(state["dataset"]) for task in plan.tasks]
        return sorted({int(f.id) for task in plan.tasks for f in task.fragments})

    def compact_commit(self) -> dict[str, int]:
        """Commit the rewrite of `compact_execute` (pre-empted by a delete on its fragments
        committed since: `OSError`)."""
        from lance.optimize import Compaction

        state, self._compaction = self._compaction, None
        if state is None or "rewrites" not in state:
            raise LanceOpsFailed("compact_commit without compact_execute")
        metrics = Compaction.commit(state["dataset"], state["rewrites"], state["options"])
        return {"fragments_removed": int(metrics.fragments_removed), "fragments_added": int(metrics.fragments_added)}

    def compact_abort(self) -> None:
        """Drop a planned or rewritten compaction (its files go with the next cleanup)."""
        self._compaction = None

    def cleanup(self, table: str) -> dict[str, int]:
        """Remove every version of *table* but the newest, and the files only they used."""
        keep = timedelta(seconds=self.location.keep_versions_s)  # (a team store's other hosts read them)
        st = self._open(table).cleanup_old_versions(older_than=keep)
        return {"old_versions": int(st.old_versions), "bytes_removed": int(st.bytes_removed)}

    def close(self) -> None:
        self._compaction = None

    def stop(self) -> None:
        self._compaction = None

    def describe(self) -> dict[str, Any]:
        return {"pid": None, "in_process": True}


# -- the child -------------------------------------------------------------------------------


def exit_with_parent(poll_s: float = 1.0) -> None:
    """End this process when the daemon that started it is gone (killed with SIGKILL, it
    cannot end its children): work of minutes must not go on for nobody beside the next
    daemon's."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent:
                os._exit(4)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def say(obj: dict[str, Any]) -> None:
    """One JSON line to the daemon on standard output (the index build's child)."""
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="omegad.storage.lanceops", description="Lance maintenance calls for omegad")
    parser.add_argument("location", help="the tables' directory, or a team store's URI")
    args = parser.parse_args(argv)
    # a Ctrl-C or systemd's SIGTERM to the whole group is meant for the daemon, which ends us:
    # the end of our input, or its death (parent watch), after the current call
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.environ.setdefault("LANCE_INCLUDE_VECTOR_CENTROIDS", "false")
    exit_with_parent()
    # the answers on a descriptor of their own: whatever else writes to standard output (a
    # library's print) goes to standard error instead of into the protocol
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    ops = LocalOps(Location.from_child_arg(args.location))
    calls = {
        name: getattr(ops, name)
        for name in (
            "fragments",
            "segments",
            "vector_partitions",
            "fold",
            "fold_new",
            "compact_plan",
            "compact_execute",
            "compact_commit",
            "compact_abort",
            "cleanup",
        )
    }
    for raw in sys.stdin:
        seq = None
        try:
            request = json.loads(raw)
            seq = request.get("seq")
            fn = calls[request["op"]]
            kwargs = dict(request.get("args") or {})
            if request["op"] == "compact_plan":
                kwargs["bounds"] = CompactionBounds(**kwargs["bounds"])
                kwargs["dead"] = {int(k): int(v) for k, v in kwargs.get("dead", {}).items()}
            answer = json.dumps({"ok": fn(**kwargs), "seq": seq})
        except Exception as exc:
            answer = json.dumps({"error": error_text(exc), "os_error": isinstance(exc, OSError), "seq": seq})
        answers.write(answer + "\n")
        answers.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
