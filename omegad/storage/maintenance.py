"""Maintenance passes over the memories table and its side tables: index creation and folds,
compaction, durability, version cleanup, and the index cache's renewal. Lance's own calls run
through `omegad.storage.lanceops` (in a child process in the daemon)."""

from __future__ import annotations

import contextlib
import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import structlog

from omegad.config import Config
from omegad.storage.commits import commit_files, connect, delete_in, fsync_commits
from omegad.storage.indexes import (
    DROP_FIRST_BYTES,
    VECTOR_INDEX_NAME,
    auto_index_cache_mb,
    build_vector_index,
    index_cache_need_mb,
    on_disk,
    replaced_indexes,
    vector_index_grown,
)
from omegad.storage.lanceops import CompactionBounds, LanceOpsTimeout, preempted
from omegad.storage.repair import repair_duplicates
from omegad.storage.rows import TABLE, TOMBSTONES
from omegad.storage.tombstones import BURYING, RETIRING

if TYPE_CHECKING:
    from omegad.storage.store import MemoryStore

log = structlog.get_logger("omegad")

__all__ = ["MaintainPolicy", "Maintenance", "Pass"]


@dataclass
class MaintainPolicy:
    """When and how far maintenance compacts (see `Maintenance.maintain`). The settings a user
    can change default to the configuration's defaults (`omegad.config.Config`)."""

    target_rows_per_fragment: int = Config.maintenance_target_rows_per_fragment
    max_fragments: int = Config.maintenance_max_fragments  # compact past this many fragments
    unindexed_rows: int = Config.maintenance_unindexed_rows  # fold new rows into the indexes past this many
    vector_index_rows: int = Config.vector_index_rows  # build the vector index at this many rows
    reader_wait_s: float = 5.0  # longest wait for old reads before cleaning up versions
    max_compact_rows: int = 262_144  # most rows one pass rewrites per table (bounds its time)
    max_index_deltas: int = 16  # most pieces of an index (see lanceops.segments_to_merge)
    #: fragments under an index segment of more rows are never compacted, and fragments that
    #: would lose their deleted rows not under one of more than ``max_rebuild_rows``
    #: (`remap_excluded`: the commit rewrites the segment, every store waiting)
    max_remap_rows: int = 16_384
    max_rebuild_rows: int = 4_096
    renew_cache_bytes: int = 64 << 20  # a replaced index this big renews the caches (see finish)
    #: the caches are renewed, too, when they hold more than this many times the indexes on
    #: disk plus ``renew_cache_bytes``: stale entries of segments replaced pass after pass
    stale_cache_ratio: float = 2.0


#: The most times a compaction's bounds are halved after commits that took too long
#: (`childops.COMMIT_TIMEOUT_S`): 262,144 rows rewritten become 4,096.
MAX_COMPACT_SHRINK = 6


@dataclass
class Pass:
    """A maintenance pass between its steps (`Maintenance.reorganize`, `finish`, `after_pass`).
    *report* is what clients and the log see (the ``maintain`` reply); the other fields are
    what one step hands the next, and are never sent."""

    report: dict[str, Any] = field(default_factory=dict)
    #: the memories' index segments when the pass began: `finish` compares the ones after
    segments_before: dict[str, dict[str, int]] = field(default_factory=dict)
    #: why the caches are renewed after the pass (`renew_cache_if_replaced`): indexes whose
    #: segments a merge replaced, or "stale entries"
    renew_for: list[str] = field(default_factory=list)
    #: the automatic index cache bound the indexes need now, when above the current one
    cache_bound_mb: int | None = None


class Maintenance:
    """The maintenance of one store: passes (`maintain`, or `reorganize` then `finish`),
    folds of new rows between them, and the renewal of LanceDB's caches.

    Over 400 lines because the steps of a pass share the policy, the compaction bounds and
    the pass's hand-offs (`Pass`); Lance's own calls are in `omegad.storage.lanceops`."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        #: halvings of the compaction bounds after commits that ran out of time (`_compact`)
        self.compact_shrink = 0
        self.cleaned_at = -math.inf  # (monotonic) the last removal of old versions

    def _create_missing_indexes(self, report: dict[str, Any]) -> None:
        """`create_missing_indexes` in a pass. Each index commits beside the writer; one that
        keeps losing the race for the next version to a stream of stores (Lance gives up
        after 20 rebases) is left to the next pass (``preempted``), and the pass goes on."""
        try:
            report.update(self.create_missing_indexes())  # (refreshes the index state itself)
        except OSError as exc:
            if not preempted(exc):
                raise
            report["preempted"] = True
            report["indexes_deferred"] = str(exc)[:200]
            self.store.table.checkout_latest()  # (the indexes created before the one that lost)
            self.store.refresh_index_state()

    def create_missing_indexes(self) -> dict[str, Any]:
        """Full text on ``text``, btree on ``id``, bitmap on ``namespace``, once there are rows."""
        from lancedb.index import FTS, Bitmap, BTree

        done: dict[str, Any] = {}
        if self.store.count() == 0:
            return done
        names = {tuple(idx.columns) for idx in self.store.table.list_indices()}
        if not self.store.indexes.fts:
            self.store.table.create_index("text", config=FTS(with_position=False), replace=True)
            done["fts_created"] = True
        if not self.store.indexes.id:
            self.store.table.create_index("id", config=BTree(), replace=True)
            done["id_index_created"] = True
        if ("namespace",) not in names:
            self.store.table.create_index("namespace", config=Bitmap(), replace=True)
            done["namespace_index_created"] = True
        if done:
            self.store.refresh_index_state()
        return done

    def fold_new_rows(self, policy: MaintainPolicy) -> dict[str, Any] | None:
        """Index the rows the indexes do not cover yet — a delta of each index, merged
        size-tiered (`lanceops.segments_to_merge`) — and nothing else; None when they cover
        every row (or before the vector index exists: a small store's unindexed rows cost
        little). Beside the writer, between maintenance passes.

        Every search pays for the rows its index does not cover: vector search through the
        index then builds a mask over all indexed rows, and full-text search scans them, while
        their deltas are quick to build (docs/storage.md, "New rows go into every index within
        a quarter of a second"). A pass folds only past ``unindexed_rows``, so the daemon calls
        this shortly after each burst of writes (``index.fold_delay_ms``)."""
        if not self.store.indexes.vector or self.store.indexes.build_running:
            return None
        t0 = time.perf_counter()
        try:
            report = self.store.ops.fold_new(TABLE, policy.max_index_deltas)
        finally:
            self.store.table.checkout_latest()
        if report is not None and not report.get("preempted"):
            report["ms"] = round((time.perf_counter() - t0) * 1000, 1)
        return report

    def _fold(
        self, report: dict[str, Any], unindexed: int, force: bool, policy: MaintainPolicy, into_base: bool = True
    ) -> None:
        """Step 2 of `maintain`: index the unindexed rows. *force* folds everything: into the
        indexes proper (*into_base*), or else with every delta merged into one."""
        t0 = time.perf_counter()
        try:
            # with *force* and *into_base* every delta merged (-1); else new deltas, merged
            # size-tiered (`lanceops.segments_to_merge`)
            merged = self.store.ops.fold(TABLE, policy.max_index_deltas, into_base=force and into_base)
        except OSError as exc:
            if not preempted(exc):
                raise
            report["preempted"] = True
            merged = -2
        finally:
            self.store.table.checkout_latest()
        report["indexed"] = {
            "rows": unindexed,
            "deltas_merged": merged,
            "ms": round((time.perf_counter() - t0) * 1000, 1),
        }

    def maintain(
        self,
        policy: MaintainPolicy,
        *,
        force: bool = False,
        durable: Callable[[], dict[str, Any]] | None = None,
        extra_tables: Sequence[Any] = (),
    ) -> dict[str, Any]:
        """One maintenance pass, bounded in cost as the store grows (its report returned):

        1. create missing indexes (after step 3 in a table without any index yet);
        2. fold unindexed rows into the indexes (only the new rows are indexed), past
           ``unindexed_rows`` (or *force*) — first, because Lance never merges indexed with
           unindexed fragments;
        3. compact: merge fragments smaller than ``target_rows_per_fragment`` (bigger ones are
           never rewritten, so a pass costs what was written since the last one), when there
           are more than ``max_fragments`` (or *force*);
        4. *durable*: make everything committed so far durable (the caller fsyncs and truncates
           its write-ahead log) — before any old version's files are removed;
        5. clean up old versions, once every read that may be using one has finished.

        *extra_tables* (LanceDB tables, e.g. the edges) get steps 2, 3 and 5 too. Steps 1–3
        (`reorganize`) may run while other threads write: Lance commits appends beside them,
        and a compaction that a concurrent delete or update pre-empts is given up (reported
        ``preempted``; nothing is lost). Steps 4–5 (`finish`) must not.
        """
        done = self.finish(
            policy,
            self.reorganize(policy, force=force, extra_tables=extra_tables),
            durable=durable,
            extra_tables=extra_tables,
        )
        self.after_pass(done)
        return done.report

    def reorganize(self, policy: MaintainPolicy, *, force: bool = False, extra_tables: Sequence[Any] = ()) -> Pass:
        """Steps 1–3 of `maintain` (safe beside concurrent writes)."""
        started = time.perf_counter()
        done = Pass()
        report = done.report
        self.store.table.checkout_latest()  # a vector index built on another handle meanwhile
        self.store.refresh_index_state()
        if self.store.repair_pending:
            with self.store.commit_lock:
                report["duplicates_retired"] = repair_duplicates(self.store)
                (self.store.directory / RETIRING).unlink(missing_ok=True)
                self.store.repair_pending = False
        # a table without any index yet (a bulk load) is compacted first: indexes created over
        # its fragments would keep them as they are (`remap_excluded`)
        unindexed_table = not self.store.table.list_indices()
        if not unindexed_table:
            self._create_missing_indexes(report)
        done.segments_before = self.store.index_segments()
        before = self.store.health()
        report["before"] = before
        compact_rows = policy.target_rows_per_fragment
        tables = [
            ("memories", self.store.table),
            (TOMBSTONES, self.store.tombstones),
            *((getattr(t, "name", "edges"), t) for t in extra_tables),
        ]
        unindexed = before["unindexed_rows"]
        # With a vector index (a big store) the base index segments are never rewritten by a
        # pass: folding new rows into them rewrites them, seconds at 1M (docs/storage.md,
        # Maintenance, step 2). So small unindexed fragments are compacted among themselves
        # first (Lance never merges fragments of different index coverage), then indexed as a
        # delta, merged size-tiered with the newest segments (`lanceops.segments_to_merge`).
        # Compactions stay off the fragments under big segments (`remap_excluded`).
        incremental = self.store.indexes.vector
        fold = bool(unindexed) and (force or unindexed >= policy.unindexed_rows)
        if not incremental:
            if fold:
                self._fold(report, unindexed, force, policy)
        for name, table in tables:
            if table is self.store.table and self.store.indexes.build_running:
                report["compaction_deferred"] = "vector_index_build"
                continue
            frags = int(table.stats()["fragment_stats"]["num_fragments"])
            if frags and (force or frags > policy.max_fragments):  # (one fragment: its deleted rows)
                t0 = time.perf_counter()
                try:
                    # (without indexes nothing is remapped: a bulk load is compacted whole)
                    whole = unindexed_table and table is self.store.table
                    pol = dataclasses.replace(policy, max_compact_rows=1 << 62) if whole else policy
                    metrics, commit_ms, excluded = self._compact(table, compact_rows, pol)
                    if metrics is None:
                        continue  # nothing to rewrite
                    table_report: dict[str, Any] = {
                        "fragments_removed": metrics["fragments_removed"],
                        "fragments_added": metrics["fragments_added"],
                        "commit_ms": commit_ms,  # (the memories' commits wait this long)
                    }
                    if excluded:
                        table_report["fragments_kept"] = excluded  # (under big index segments: `remap_excluded`)
                except OSError as exc:  # a delete or update committed on those fragments first
                    if not preempted(exc):
                        raise
                    report["preempted"] = True
                    table_report = {"preempted": True}
                finally:
                    table.checkout_latest()
                table_report["ms"] = round((time.perf_counter() - t0) * 1000, 1)
                report.setdefault("compacted", {})[name] = table_report
        if unindexed_table:
            self._create_missing_indexes(report)
        if incremental and fold:
            self._fold(report, unindexed, force, policy, into_base=False)
        report["reorganize_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return done

    def _compact(
        self, table: Any, target_rows: int, policy: MaintainPolicy
    ) -> tuple[dict[str, int] | None, float, int]:
        """Compact *table* (through `ops`): the rewrite beside the writer, the commit while the
        memories' commits are held off. (Lance's own `compact_files` commits beside them, and
        loses the race for the next version to a stream of stores: docs/storage.md,
        Maintenance.) A delete or update committed on the rewritten fragments meanwhile still
        pre-empts it (reported by the caller). Fragments under big index segments are left
        alone (`lanceops.remap_excluded`; their number is returned). No metrics: nothing to
        rewrite."""
        memories = table is self.store.table
        try:
            half = self.compact_shrink
            bounds = CompactionBounds(
                target_rows,
                policy.max_compact_rows >> half,
                policy.max_remap_rows >> half,
                policy.max_rebuild_rows >> half,
            )
            plan = self.store.ops.compact_plan(table.name, bounds, self.store.dead.per_fragment if memories else {})
            # dead rows in the fragments it rewrites, and in those where Lance would drop
            # deleted rows (over DELETED_SHARE of them), are deleted for good first, then
            # dropped by it
            purged = self._purge_dead_rows(set(plan["bury"])) if plan["bury"] else 0
            rewritten = self.store.ops.compact_execute(replan=purged > 0)
            if rewritten is None:
                return None, 0.0, int(plan["excluded"])
            t0 = time.perf_counter()
            with self.store.commit_lock if memories else contextlib.nullcontext():
                if memories and self.store.dead.fragments() & set(rewritten):  # (their addresses would change)
                    raise OSError("preempted: rows of the rewritten fragments were deleted meanwhile")
                try:
                    metrics = self.store.ops.compact_commit()
                except LanceOpsTimeout:
                    # the writer waited all that time: the next passes rewrite and remap less
                    # (each bound halved, up to MAX_COMPACT_SHRINK times), back up one step
                    # per commit in time
                    self.compact_shrink = min(half + 1, MAX_COMPACT_SHRINK)
                    log.warning("compact_commit_timeout", table=table.name, shrink=self.compact_shrink)
                    raise
                finally:
                    # before the writer's next commit: a delete reads the rows' new places. Also
                    # when the commit failed: the child may have died after Lance committed.
                    if memories:
                        self.store.table.checkout_latest()
            self.compact_shrink = max(half - 1, 0)
            return metrics, round((time.perf_counter() - t0) * 1000, 1), int(plan["excluded"])
        finally:
            with contextlib.suppress(Exception):  # (the error that got here matters more)
                self.store.ops.compact_abort()  # (nothing, once committed)

    def _purge_dead_rows(self, fragments: set[int]) -> int:
        """Delete the dead rows of *fragments* from the table for good (durably), then from the
        tombstones: the compaction that follows drops them. Returns how many."""
        marker = self.store.directory / BURYING
        with self.store.commit_lock:
            dead = self.store.dead
            rowids = [r for r in dead.rows if r >> 32 in fragments]
            if not rowids:
                return 0
            marker.touch()
            before = commit_files(self.store.table_dir)
            delete_in(self.store.table, "_rowid", rowids)
            fsync_commits(self.store.table_dir, before)  # (else a power loss could undo it alone)
            delete_in(self.store.tombstones, "rowid", rowids)
            self.store.dead = dead.without_rows(rowids)
            marker.unlink()
        return len(rowids)

    def cleanup_versions(self, policy: MaintainPolicy, tables: Sequence[Any] = ()) -> dict[str, Any]:
        """Remove the old versions of the memories table, its tombstones and *tables*:
        serialised with writes, and only once the newest versions are durable. It writes
        nothing, so it also runs on a full disk (and frees what old versions held)."""
        # The handles move to the newest version first (a commit made on another handle — a
        # compaction, the index build — leaves them behind): reads that start after the wait
        # then read a version that cleanup keeps, never a removed manifest.
        # A team store keeps an hour of versions for other hosts' reads, and Lance's cleanup
        # reads every kept manifest: cleaning at every pass made most of a store's requests
        # to the bucket (docs/team.md, "Figures"), so there it runs every half of that.
        every = self.store.location.keep_versions_s / 2
        if every and time.monotonic() - self.cleaned_at < every:
            return {"skipped": f"a team store's old versions are removed every {every:.0f} s"}
        tables = [self.store.table, self.store.tombstones, *tables]
        for table in tables:
            table.checkout_latest()
        started = time.perf_counter()
        if not self.store.readers.wait_before(policy.reader_wait_s):
            return {"skipped": "reads in flight"}
        out: dict[str, Any] = {"versions_removed": 0, "bytes_freed": 0}
        for table in tables:
            if table is self.store.table and self.store.indexes.build_running:
                out["deferred"] = "vector_index_build"
                continue
            st = self.store.ops.cleanup(table.name)
            out["versions_removed"] += st["old_versions"]
            out["bytes_freed"] += st["bytes_removed"]
        out["ms"] = round((time.perf_counter() - started) * 1000, 1)  # (with the wait for reads)
        self.cleaned_at = time.monotonic()
        return out

    def finish(
        self,
        policy: MaintainPolicy,
        done: Pass,
        *,
        durable: Callable[[], dict[str, Any]] | None = None,
        extra_tables: Sequence[Any] = (),
    ) -> Pass:
        """Steps 4–5 of `maintain`, serialised with writes; adds to the pass and returns it."""
        started = time.perf_counter()
        report = done.report
        if durable is not None:
            report["durable"] = durable()
            report["durable_ms"] = round((time.perf_counter() - started) * 1000, 1)
        # old versions: only after the new ones are durable, and never under a running read
        report["cleanup"] = self.cleanup_versions(policy, extra_tables)
        segments = self.store.index_segments()
        done.cache_bound_mb = self._cache_bound(segments)
        # (renewed by the caller, after the writer: `after_pass`)
        done.renew_for = replaced_indexes(done.segments_before, segments, policy.renew_cache_bytes)
        if not done.renew_for and self._stale_cache(segments, policy):
            done.renew_for = ["stale entries"]
        report["after"] = self.store.health()
        rows = int(report["after"].get("rows", 0))
        # (an index of 1 partition is the first due: when it would not be, none is)
        if (
            self.store.indexes.vector
            and not self.store.indexes.vector_outdated
            and vector_index_grown(self.store.indexes.vector_kind, 1, rows)
        ):
            try:
                parts = self.store.ops.vector_partitions(TABLE, VECTOR_INDEX_NAME)
            except Exception as exc:  # (a hint for a rebuild: the pass itself went through)
                log.warning("vector_index_partitions_unreadable", error=str(exc)[:300])
                parts = None
            report["vector_index_partitions"] = parts
            if vector_index_grown(self.store.indexes.vector_kind, parts, rows):
                report["vector_index_grown"] = True  # (the daemon rebuilds it: `Service`)
        report["finish_ms"] = round((time.perf_counter() - started) * 1000, 1)
        report["ms"] = round(report.get("reorganize_ms", 0.0) + report["finish_ms"], 1)
        return done

    def _cache_bound(self, segments: dict[str, dict[str, int]]) -> int | None:
        """After a pass: note what the indexes need; with the automatic bound, the bigger one
        the caches must be renewed with once they need more than the bound (else None)."""
        need = index_cache_need_mb(segments)
        grew = need > self.store.index_cache_need_mb
        self.store.index_cache_need_mb = need
        if self.store.cache_auto and need > self.store.cache_mb[0]:
            return auto_index_cache_mb(need)
        if grew:
            self.store.warn_small_cache()
        return None

    def _stale_cache(self, segments: dict[str, dict[str, int]], policy: MaintainPolicy) -> bool:
        """The caches hold mostly stale entries. Each pass's fold, merge or compaction replaces
        index segments, and entries of the old ones stay until the caches' bound pushes them
        out — at any store size, since the bound is set for 1M memories (docs/storage.md,
        "Stale cache entries are dropped")."""
        cached = self.store.cache_bytes()
        if cached is None:
            return False
        return cached > policy.stale_cache_ratio * on_disk(segments) + policy.renew_cache_bytes

    def after_pass(self, done: Pass) -> bool:
        """After `finish`, beside the writer: recount the rows per namespace (a scan of the
        namespace column, seconds at 1M memories, too long to hold stores up for; rows written
        meanwhile may be missed until the next pass, which only affects the choice of search
        path), then `renew_cache_if_replaced`."""
        self.store.refresh_namespace_rows()
        return self.renew_cache_if_replaced(done)

    def renew_cache_if_replaced(self, done: Pass) -> bool:
        """After `finish`: renew the caches when it found a big index rewritten or stale
        entries (*renew_for*) or a bigger bound needed, recording ``cache_renewed`` in the
        report. Beside the writer."""
        replaced, bound = done.renew_for, done.cache_bound_mb
        # A bound raised for indexes that merely grew: the old caches hold what the new ones
        # will, so a big one is dropped before the load rather than held twice.
        drop_first = bound is not None and not replaced and (self.store.cache_bytes() or 0) > DROP_FIRST_BYTES
        if bound is not None:
            replaced = [*replaced, f"index cache bound {self.store.cache_mb[0]} MB → {bound} MB"]
        if not replaced:
            return False
        done.report["cache_renewed"] = {"indexes": replaced, **self.renew_cache(bound, drop_first=drop_first)}
        return True

    def renew_cache(self, index_cache_mb: int | None = None, *, drop_first: bool = False) -> dict[str, Any]:
        """Open the memories table again with empty caches and drop the old ones. After an
        index is replaced (a full merge), the old index stays cached next to the new one —
        hundreds of MB at 1M memories — until the bound pushes it out. The new index is loaded
        by a probe search before the swap, so queries never wait for it. *index_cache_mb*: the
        new caches' bound (the indexes outgrew the old one).

        *drop_first*: swap first and load after, with reads held at `_reader`'s gate until the
        index is in (seconds at 1M) — for a renewal that only raises the bound, where loading
        first would hold the same index twice (docs/storage.md, "The index cache is sized by the
        indexes")."""
        t0 = time.perf_counter()
        cache_mb = (index_cache_mb or self.store.cache_mb[0], self.store.cache_mb[1])
        db, session = connect(self.store.location, *cache_mb)
        table = db.open_table(TABLE)

        def swap() -> None:
            with self.store.commit_lock:  # no commit on the old handle between this and the swap
                table.checkout_latest()
                self.store.db, self.store.table, self.store.session, self.store.cache_mb = db, table, session, cache_mb

        before = self.store.cache_bytes() or 0
        with self.store.loading if drop_first else contextlib.nullcontext():
            if drop_first:
                swap()
            if self.store.indexes.vector:
                probe = np.zeros(self.store.dim, dtype=np.float32)
                probe[0] = 1.0
                query = table.search(probe, vector_column_name="vector").distance_type("cosine")
                query.select(["id", "_distance"]).limit(1).to_arrow()  # (without _distance Lance warns)
        if not drop_first:
            before = self.store.cache_bytes() or 0  # (what the old caches hold at the swap)
            swap()
        return {
            "cache_bytes_dropped": before,
            "index_cache_mb": cache_mb[0],
            "loaded": "after the swap" if drop_first else "before the swap",
            "ms": round((time.perf_counter() - t0) * 1000, 1),
        }

    def build_vector_index(self) -> dict[str, Any]:
        """Build (or rebuild) the vector index (`vector_index_kind`), in this process, on its
        own table handle: writes go on meanwhile (Lance commits an index next to concurrent
        appends); rows written during the build are folded in by a later maintenance pass."""
        return build_vector_index(self.store.db.open_table(TABLE), self.store.indexes.vector_kind)
