"""Maintenance scheduling: when a pass is due, running it beside the writer and finishing it
in the writer thread, automatic passes with back-off after failures, the folds of new rows
between passes, the vector index build in a subprocess, and the maintenance process's end
once idle. The passes themselves are `omegad.storage.maintenance`."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, NamedTuple

import anyio
import anyio.abc
import structlog

from omegad.app import heap
from omegad.app.faults import Backoff, Faults, classify
from omegad.app.ops import MaintainOp, WriteOp
from omegad.app.writer import Writer
from omegad.config import Config
from omegad.contradictions.edges import EdgeStore
from omegad.errors import Unavailable, error_text
from omegad.storage.childops import ChildOps
from omegad.storage.fsutil import fsync_tree
from omegad.storage.indexer import build_in_subprocess
from omegad.storage.maintenance import MaintainPolicy, Pass
from omegad.storage.store import MemoryStore
from omegad.timeutil import iso, now_us
from omegad.worker import Batcher, JobQueue

__all__ = ["MaintenanceStats", "Scheduler"]

log = structlog.get_logger("omegad")


class MaintenanceStats(NamedTuple):
    """Maintenance's figures (``stats`` → ``maintenance``)."""

    runs: int  # passes since start
    rows_since: int  # rows written since the last pass
    commits_since: int  # commits since the last pass
    due: str | None  # why a pass is due now, if one is
    vector_index_building: bool
    last_vector_index: dict[str, Any]  # the last vector index build's report
    folds: int  # index folds of new rows since start
    last_fold: dict[str, Any]
    process: dict[str, Any]  # the maintenance child process (`ChildOps.describe`)
    compact_shrink: int  # halvings of the compaction batch after a compaction commit timed out
    last_at: str | None
    backoff: dict[str, Any]  # automatic passes after failures
    last: dict[str, Any]  # the last pass's report


class Scheduler:
    """Maintenance of one service's store. *write* submits ops to the write queue (*queue*);
    *jobs* runs automatic passes in the background."""

    def __init__(
        self,
        config: Config,
        store: MemoryStore,
        edges: EdgeStore,
        writer: Writer,
        queue: Batcher[WriteOp, Any],
        write: Callable[[list[WriteOp]], Awaitable[list[Any]]],
        jobs: JobQueue,
        faults: Faults,
    ) -> None:
        self.config, self.store, self.edges, self.writer = config, store, edges, writer
        self.queue, self.write, self.jobs, self.faults = queue, write, jobs, faults
        self.policy = MaintainPolicy(
            target_rows_per_fragment=config.maintenance_target_rows_per_fragment,
            max_fragments=config.maintenance_max_fragments,
            unindexed_rows=config.maintenance_unindexed_rows,
            vector_index_rows=config.vector_index_rows,
        )
        self.fragments_estimate = 0  # after the last maintenance, plus one per commit since
        self._commits_at_estimate = 0  # commits_since_maintenance when it was measured
        self.tasks: anyio.abc.TaskGroup | None = None  # (the service's, for the index build)
        self.maintenance_runs = 0
        self.running = anyio.Lock()  # one pass (or fold, or index commit) at a time
        self.maintain_limiter = anyio.CapacityLimiter(1)
        self._serialize_next_pass = False
        self.last_vector_index: dict[str, Any] = {}
        self.fold_wanted = anyio.Event()  # rows committed that the indexes may not cover
        self.folds = 0
        self.last_fold: dict[str, Any] = {}
        self.last_maintenance_us: int | None = None
        self.last_maintenance: dict[str, Any] = {}
        self.backoff = Backoff()  # automatic passes after failures
        #: whether this daemon may maintain the store now (a team store: its lease holder only)
        self.allowed: Callable[[], bool] = lambda: True
        #: save access counts every quiet interval, not only in passes (a team store: the other
        #: hosts read them, and most hosts never run a pass)
        self.share_counts = False

    def stats(self) -> MaintenanceStats:
        return MaintenanceStats(
            runs=self.maintenance_runs,
            rows_since=self.writer.rows_since_maintenance,
            commits_since=self.writer.commits_since_maintenance,
            due=self.due(),
            vector_index_building=self.store.indexes.build_running,
            last_vector_index=self.last_vector_index,
            folds=self.folds,
            last_fold=self.last_fold,
            process=self.store.ops.describe(),
            compact_shrink=self.store.maintenance.compact_shrink,
            last_at=iso(self.last_maintenance_us) if self.last_maintenance_us else None,
            backoff=self.backoff.describe(),
            last=self.last_maintenance,
        )

    def apply(self, op: MaintainOp) -> Pass | dict[str, Any]:
        """The part of a maintenance pass serialised with writes (writer thread; see
        `run_pass`), or only a checkpoint (its report) or a cleanup (its report)."""
        if op.checkpoint_only:
            saved = self.writer.save_access_counts()
            return self.writer.checkpoint() if (self.writer.wal.bytes or saved) else {}
        if op.cleanup_only:
            return self._cleanup_only(op.reason)
        saved = self.writer.save_access_counts()
        extra = self.writer.side_tables()
        if op.prepared is not None:
            done = op.prepared
        else:  # the whole pass here (a pass beside the writer was pre-empted last time)
            done = self.store.maintenance.reorganize(self.policy, force=op.force, extra_tables=extra)
            done.report["serialized"] = True
        done = self.store.maintenance.finish(self.policy, done, durable=self.writer.checkpoint, extra_tables=extra)
        report = done.report
        report["access_counts_saved"] = saved
        report["reason"] = op.reason
        rows, commits = op.counted or (self.writer.rows_since_maintenance, self.writer.commits_since_maintenance)
        self.writer.rows_since_maintenance = max(0, self.writer.rows_since_maintenance - rows)
        self.writer.commits_since_maintenance = max(0, self.writer.commits_since_maintenance - commits)
        self.fragments_estimate = report["after"]["fragments"]  # (counts the commits made beside the pass)
        self._commits_at_estimate = self.writer.commits_since_maintenance
        self.maintenance_runs += 1
        self.last_maintenance_us = now_us()
        self.last_maintenance = report
        log.info("maintenance", **report)
        return done

    def _cleanup_only(self, reason: str) -> dict[str, Any]:
        """The pass a full disk allows (writer thread): it writes nothing new, only makes the
        tables durable and removes their old versions, which frees what those held."""
        free = self.faults.free_bytes()
        report: dict[str, Any] = {"cleanup_only": True, "reason": reason, "free_bytes_before": free}
        report["durable"] = self.writer.checkpoint(rotate=False)
        report["cleanup"] = self.store.maintenance.cleanup_versions(self.policy, self.writer.side_tables())
        report["free_bytes_after"] = self.faults.free_bytes()
        self.last_maintenance_us = now_us()
        self.last_maintenance = report
        log.info("maintenance", **report)
        return report

    async def run_pass(self, force: bool, reason: str) -> dict[str, Any]:
        """A maintenance pass (see `full_pass`); on a full disk, or when a full pass fails
        for lack of space, the pass that needs none (`_cleanup_only`) instead."""
        if not self.allowed():
            raise Unavailable(
                "another host holds the team store's maintenance lease: only it maintains the store "
                "(omegad doctor names it)",
                {"reason": "not_leader"},
            )
        if self.faults.active("disk_full"):
            return await self._cleanup_pass(reason)
        try:
            return await self.full_pass(force, reason)
        except Exception as exc:
            if classify(exc) != "disk_full" or not self.faults.data_dir_ok():
                raise
            self.faults.report("disk_full", f"a maintenance pass failed: {error_text(exc)}")
            report = await self._cleanup_pass(reason)
            report["full_pass_error"] = error_text(exc)
            return report

    async def _cleanup_pass(self, reason: str) -> dict[str, Any]:
        async with self.running:
            (report,) = await self.write([MaintainOp(reason=reason, cleanup_only=True)])
            result: dict[str, Any] = report
            return result

    async def full_pass(self, force: bool, reason: str) -> dict[str, Any]:
        """One maintenance pass. Its long part — index folding and compaction, seconds at 1M
        memories — runs in a thread of its own while stores go on (Lance commits appends
        beside a compaction); only the checkpoint and the version cleanup wait for the writer.
        A compaction that a concurrent delete or update pre-empted is redone serialised with
        the writes in the next pass, so progress is certain."""
        async with self.running:
            counted = (self.writer.rows_since_maintenance, self.writer.commits_since_maintenance)
            extra = self.writer.side_tables()
            if self._serialize_next_pass:
                (done,) = await self.write([MaintainOp(force=force, reason=reason, counted=counted)])
            else:

                def reorganize() -> Pass:
                    if not self.faults.data_dir_ok():  # Lance would recreate its directories
                        raise self.faults.error("data_dir_missing")
                    out = self.store.maintenance.reorganize(self.policy, force=force, extra_tables=extra)
                    fsync_tree(self.store.directory)  # so the checkpoint in the writer is quick
                    return out

                commits = self.queue.batches
                prepared = await anyio.to_thread.run_sync(reorganize, limiter=self.maintain_limiter)
                prepared.report["commits_beside"] = self.queue.batches - commits  # writes that went on
                (done,) = await self.write([MaintainOp(force=force, reason=reason, prepared=prepared, counted=counted)])
            assert isinstance(done, Pass)
            report = done.report
            self._serialize_next_pass = bool(report.get("preempted")) and not report.get("serialized")
            # beside the writer: namespace counts, and fresh caches when the old ones hold stale entries
            renewed = await anyio.to_thread.run_sync(
                self.store.maintenance.after_pass, done, limiter=self.maintain_limiter
            )
            # what the pass and the recount (a scan of every row) freed, back to the system
            await anyio.to_thread.run_sync(heap.trim, limiter=self.maintain_limiter)
            if renewed:
                log.info("cache_renewed", **report["cache_renewed"])
            return report

    def fragment_limit(self) -> int:
        """The fragment count that makes a pass due: ``max_fragments``, or half as many again
        as the last pass left, when it could not get below that (a store whose compaction is
        bounded by ``max_compact_rows``, deferred during a vector-index build, or whose base
        fragments are many) — else every commit would start another pass."""
        return max(self.policy.max_fragments, self.fragments_estimate + self.policy.max_fragments // 2)

    def due(self) -> str | None:
        """Why a maintenance pass is due now, if it is: indexes missing, too many fragments
        (each commit adds one; a pile of them slows every query), too many unindexed rows, or
        a long write-ahead log."""
        if not self.store.indexes.ready and self.writer.commits_since_maintenance:
            return "indexes"
        fragments = self.fragments_estimate + self.writer.commits_since_maintenance - self._commits_at_estimate
        if fragments > self.fragment_limit() and not self.store.indexes.build_running:  # (no compaction then)
            return "fragments"
        if self.writer.rows_since_maintenance >= self.policy.unindexed_rows:
            return "unindexed_rows"
        if self.writer.wal.bytes >= self.config.wal_checkpoint_mb * (1 << 20):
            return "wal"
        return None

    async def job(self, force: bool, reason: str, when_due: bool = True) -> None:
        """An automatic pass. After a failure the next ones wait, longer each time (one log
        line when passes stop and one when they work again); a full disk that clears, or a
        requested pass that works, ends the wait at once."""
        if when_due and not force and self.due() is None:  # a pass since it was queued did it
            return
        if not self.allowed():
            return
        if not self.backoff.ready(time.monotonic(), self.faults.active("disk_full")):
            return
        try:
            report = await self.run_pass(force, reason)
        except Exception as exc:
            if self.backoff.failed(time.monotonic(), self.faults.active("disk_full")):
                log.error(
                    "maintenance_paused",
                    error=error_text(exc),
                    problem=classify(exc),
                    retry_in_s=self.backoff.delay,
                )
            return
        if report.get("cleanup_only"):
            # a full disk: retried later (sooner once writes resume), a line only when it starts
            if self.backoff.failed(time.monotonic(), True):
                log.warning(
                    "maintenance_paused",
                    error="the disk is full: only old versions were removed",
                    problem="disk_full",
                    freed_bytes=report["cleanup"].get("bytes_freed"),
                    retry_in_s=self.backoff.delay,
                )
            return
        self.pass_worked()
        self.maybe_build_vector_index(report)

    def pass_worked(self) -> None:
        paused = self.backoff.succeeded()
        if paused is not None:
            log.info("maintenance_resumed", failures=paused[0], paused_s=round(paused[1], 1))

    def maybe_build_vector_index(self, report: dict[str, Any]) -> None:
        if not self.allowed():
            return
        rows = int(report.get("after", {}).get("rows", 0))
        wanted = not self.store.indexes.vector and rows >= self.policy.vector_index_rows
        rebuild = None
        if self.store.indexes.vector_outdated:
            # ``auto``: the store has grown past ``index.rabitq_from_rows``; else the setting
            # changed (or the index is of no kind it knows)
            grown_out = self.store.indexes.setting == "auto" and self.store.indexes.vector_built == "hnsw"
            rebuild = "size" if grown_out else "kind"
        elif report.get("vector_index_grown"):
            rebuild = "grown"  # (RaBitQ: `omegad.storage.store.VECTOR_INDEX_REBUILD_GROWTH`)
        if (wanted or rebuild) and not self.store.indexes.build_running:
            if rebuild:
                log.info(
                    "vector_index_rebuilding",
                    kind=self.store.indexes.vector_kind,
                    reason=rebuild,
                    rows=rows or None,
                    partitions=report.get("vector_index_partitions"),
                )
            # a task of its own, not a background job: maintenance passes (the log's
            # checkpoints) go on during a build of minutes, and stopping the daemon kills it
            assert self.tasks is not None
            self.tasks.start_soon(self._build_vector_index)

    @asynccontextmanager
    async def _commits_held(self) -> AsyncIterator[None]:
        """No maintenance pass and no commit to the memories table meanwhile (for the index
        build's commit, which would otherwise race the writer's)."""
        lock = self.store.commit_lock
        async with self.running:
            with anyio.CancelScope(shield=True):  # acquired means released
                await anyio.to_thread.run_sync(lock.acquire, limiter=self.maintain_limiter)
            try:
                yield
            finally:
                lock.release()

    async def _build_vector_index(self) -> None:
        """Build the vector index in a low-priority subprocess (minutes on a big store; writes
        and queries go on: see `omegad.indexer`), then a maintenance pass picks it up and folds
        in what came meanwhile."""
        if self.store.indexes.build_running:  # (another pass asked for it before this one started)
            return
        try:
            with self.store.indexes.building():
                info = await build_in_subprocess(
                    self.store.location, self._commits_held, kind=self.store.indexes.vector_kind
                )
            self.last_vector_index = info
            log.info("vector_index_built", **info)
        except Exception as exc:  # e.g. a conflict with a compaction: the next pass retries
            log.warning("vector_index_failed", error=error_text(exc))
            self.last_vector_index = {"error": error_text(exc)}
        # a pass picks the index up (and what compaction was deferred meanwhile)
        self.jobs.submit_nowait(lambda: self.job(False, "vector_index", when_due=False))

    async def timer(self) -> None:
        """After a quiet ``maintenance.interval_s`` with writes since the last pass: compact
        what is left, fold it into the indexes, checkpoint the log, clean up versions."""
        while True:
            await anyio.sleep(self.config.maintenance_interval_s)
            if self.faults.active("data_dir_missing"):
                continue
            wanted = self.writer.commits_since_maintenance or self.writer.wal.bytes or self.backoff.failures
            if self.queue.depth:
                continue
            passing = (wanted or self.faults.active("disk_full")) and self.allowed()
            if passing:
                self.jobs.submit_nowait(lambda: self.job(True, "idle"), key="maintenance")
            # (a pass saves them, unless passes are failing)
            if self.share_counts and self.writer.signals.dirty and (not passing or self.backoff.failures):
                self.jobs.submit_nowait(self.save_access_counts, key="access_counts")

    async def save_access_counts(self) -> None:
        """Write this host's unsaved access counts to the signals table (in the writer)."""
        await self.write([MaintainOp(reason="access_counts", checkpoint_only=True)])

    async def end_idle_process(self) -> None:
        """End the maintenance process (`omegad.lanceops`) once no pass or fold used it for
        ``maintenance.process_idle_s``: what it holds goes back to the system. (It stays that
        long because under steady writes the vector index is folded every few hundred ms, and
        starting a process costs ~0.2 s of CPU.)"""
        ops = self.store.ops
        idle = self.config.maintenance_process_idle_s
        if not isinstance(ops, ChildOps):
            return
        while True:
            await anyio.sleep(max(idle / 4, 0.05))
            if ops.running and time.monotonic() - ops.last_used >= idle and not self.running.locked():
                await anyio.to_thread.run_sync(ops.close_if_idle, idle, limiter=self.maintain_limiter)

    async def fold_after_writes(self) -> None:
        """``index.fold_delay_ms`` after rows are committed, fold them into the indexes
        (`MemoryStore.fold_new_rows`: every search is slower while some rows are outside
        them). Serialised with maintenance passes, beside the writer."""
        delay = self.config.index_fold_delay_ms / 1000
        while True:
            await self.fold_wanted.wait()
            self.fold_wanted = anyio.Event()
            await anyio.sleep(delay)  # one fold for a burst of writes
            if self.faults.active("data_dir_missing") or not self.allowed():
                continue
            async with self.running:
                try:
                    report = await anyio.to_thread.run_sync(
                        self.store.maintenance.fold_new_rows, self.policy, limiter=self.maintain_limiter
                    )
                except Exception as exc:  # the next pass folds them instead
                    log.warning("fold_failed", error=error_text(exc))
                    continue
            if report is not None:
                self.folds += 1
                self.last_fold = report
