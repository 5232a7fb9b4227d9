"""The memory service: one handler per RPC method, over the embedder, the store and the queues.

Nothing here blocks the event loop: ONNX and LanceDB calls go through `Batcher`s or
`anyio.to_thread.run_sync` behind capacity limiters. Writes all pass through one writer
(`_apply_writes`, a group commit) so a store is acknowledged only after its commit.
"""

from __future__ import annotations

import errno
import functools
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import anyio
import numpy as np
import numpy.typing as npt
import structlog

from omegad import __version__
from omegad.app import heap
from omegad.app.backup import EXPORT_IDLE_S, MAX_EXPORTS, ExportLease, edge_line, header, memory_line, vector_from
from omegad.app.events import EventHub
from omegad.app.faults import STORAGE, Backoff, Faults, classify
from omegad.app.recovery import delete_record, edge_delete_record, edge_record, replay, row_record, signal_record
from omegad.config import Config
from omegad.contradictions.checker import Checker
from omegad.contradictions.edges import EDGES_TABLE, KIND, Edge, EdgeIndex, EdgeOp, EdgeStore, edge_id, resolved
from omegad.errors import InvalidParams, NotFound, ServiceError, StartupError, Unavailable, error_text
from omegad.models.files import damaged_files, embedding_dir, files_signature
from omegad.recall.embed import Embedder, UnloadedEmbedder
from omegad.recall.neighbours import NeighbourCache
from omegad.recall.pipeline import Trace, dedup, fuse, heuristic, recall_size, result_dict
from omegad.recall.rerank import Reranker
from omegad.requests import (
    ContradictionsParams,
    ExportParams,
    FeedbackParams,
    FlushParams,
    IdParams,
    ImportEdge,
    ImportParams,
    ListParams,
    QueryParams,
    ResolveParams,
    StoreBatchParams,
    StoreParams,
    TraverseParams,
    UpdateParams,
    encode_cursor,
)
from omegad.storage.fsutil import fsync_tree
from omegad.storage.indexer import build_in_subprocess
from omegad.storage.lanceops import ChildOps
from omegad.storage.maintenance import MaintainPolicy
from omegad.storage.rows import TABLE as MEMORIES_TABLE
from omegad.storage.rows import Filter, Row
from omegad.storage.signals import TABLE as SIGNALS_TABLE
from omegad.storage.signals import MemorySignals, Signals, SignalStore
from omegad.storage.store import MemoryStore
from omegad.storage.wal import WriteAheadLog
from omegad.timeutil import iso, now_us, to_micros
from omegad.worker import Batcher, JobQueue, wait_until
from omegad_client.protocol import PROTOCOL_VERSION

#: Deletes the writer remembers, so that an edge to a memory deleted while it was being
#: checked is refused without a storage query (`MemoryService._alive`).
DELETES_REMEMBERED = 10_000
#: How long after the last store or query the daemon counts as quiet (background checks wait).
QUIET_S = 0.05
#: How often the data directory is checked for having been deleted or replaced.
WATCH_S = 5.0
#: How often, without an embedding model, its files are checked for a change (then reloaded).
RELOAD_S = 2.0
#: Freed heap goes back to the system after this long without a request (`_trim_heap_when_quiet`)…
TRIM_QUIET_S = 1.0
#: …or this often under a steady load (less often left the daemon bigger at the same latency:
#: docs/storage.md, "At scale").
TRIM_BUSY_S = 5.0

__all__ = ["Service"]

log = structlog.get_logger("omegad")


# -- writer operations ------------------------------------------------------------------------


@dataclass
class InsertOp:
    row: Row
    client_id: bool  # the client chose the id: check whether it exists (idempotent retry)


@dataclass
class UpdateOp:
    params: UpdateParams
    vector: npt.NDArray[np.float32] | None


@dataclass
class DeleteOp:
    id: str
    has_edges: bool = True
    namespace: str | None = None  # when known (for the `deleted` event)


@dataclass
class FeedbackOp:
    params: FeedbackParams


@dataclass
class SnapshotOp:
    """Pin the tables' versions between two group commits (an export's consistent view)."""


@dataclass
class ImportOp:
    rows: list[Row]
    signals: dict[str, MemorySignals]
    edges: list[ImportEdge]


@dataclass
class ImportResult:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    written: list[Row] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    edges_skipped: int = 0


@dataclass
class MaintainOp:
    force: bool = False
    reason: str = "due"
    checkpoint_only: bool = False
    cleanup_only: bool = False  # only make the tables durable and remove old versions
    prepared: dict[str, Any] | None = None  # `MemoryStore.reorganize` done beside the writer
    counted: tuple[int, int] | None = None  # rows and commits since the last pass, at its start


WriteOp = InsertOp | UpdateOp | DeleteOp | MaintainOp | EdgeOp | FeedbackOp | SnapshotOp | ImportOp


async def _finishes_within(waiting: Any, timeout: float | None) -> bool:
    """Await the coroutine *waiting*: True once it finished, False (it is closed) after *timeout* s."""
    with anyio.move_on_after(float("inf") if timeout is None else timeout):
        await waiting
        return True
    waiting.close()
    return False


def _memory_ref(row: Row) -> dict[str, Any]:
    """A memory as a contradiction names it in replies and events: id, text, type, creation time."""
    return {"id": row.id, "text": row.text, "type": row.type, "created_at": iso(row.created_at)}


@asynccontextmanager
async def _task_group() -> AsyncIterator[anyio.abc.TaskGroup]:
    """A task group that raises the first error of its tasks (or of its body) as it is, not
    wrapped in an ExceptionGroup: a typed `ServiceError` or a storage error keeps its reply."""
    try:
        async with anyio.create_task_group() as tg:
            yield tg
    except BaseExceptionGroup as group:
        cancelled = anyio.get_cancelled_exc_class()
        errors = [e for e in _leaves(group) if not isinstance(e, cancelled)]
        if not errors:
            raise
        raise errors[0] from None


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    out: list[BaseException] = []
    for e in group.exceptions:
        out.extend(_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])
    return out


class Service:
    def __init__(
        self,
        config: Config,
        embedder: Embedder | UnloadedEmbedder,
        store: MemoryStore,
        edges: EdgeStore | None = None,
        *,
        load_embedder: Callable[[], Embedder] | None = None,
    ) -> None:
        # recent deletes (id → commit stamp), oldest first, and the newest one forgotten
        self._deleted_at: OrderedDict[str, int] = OrderedDict()
        self._deleted_horizon = 0
        # memories given an edge by this writer (writer thread): the event loop's graph learns of
        # an edge only after its write returns, so a delete decided before that must still
        # remove it (else the edge outlives its memory, and an export carries it)
        self._edge_ends: set[str] = set()
        self.config = config
        self.embedder = embedder
        self.store = store
        store.use_vector_index(  # (the server opens it so)
            config.vector_index, config.rabitq_from_rows, min_namespace_rows=config.index_min_namespace_rows
        )
        # (blocking when not given: the server opens it in a worker thread)
        self.edges = edges if edges is not None else EdgeStore.open(store, config.data_dir)
        self.graph = EdgeIndex()
        self._last_stamp = 0
        self.reranker = Reranker(config, fetch=self._fetch_reranker if config.reranker_model_dir is None else None)
        self.started = time.monotonic()
        self.read_limiter = anyio.CapacityLimiter(config.db_read_threads)
        self.embed_limiter = anyio.CapacityLimiter(1)
        self.write_limiter = anyio.CapacityLimiter(1)
        self.embedder_batcher: Batcher[str, npt.NDArray[np.float32]] = Batcher(
            "embedder",
            self._embed_sync,
            max_items=config.embed_batch_size * 4,
            limiter=self.embed_limiter,
            shield_wait=False,
        )
        self.writer: Batcher[WriteOp, Any] = Batcher(
            "writer",
            self._apply_writes,
            max_items=config.write_batch_rows,
            limiter=self.write_limiter,
            after=self._after_commit,
        )
        self.jobs = JobQueue("background")
        self.jobs.on_error = lambda name, exc: log.error("job_failed", queue=name, error=error_text(exc))
        self.wal = WriteAheadLog(config.data_dir / "wal")
        # Log records of writes that committed to the tables but whose log append failed
        # (writer thread). Nothing that depends on them is acknowledged until they are in the
        # log or a checkpoint has fsynced the tables; no other write commits meanwhile.
        self._unlogged: list[dict[str, Any]] = []
        self._wal_records: list[dict[str, Any]] = []  # this batch's records (writer thread)
        self._wal_ops: list[int] = []  # the ops that wrote them
        self.signals = Signals(config)
        self._exports: dict[str, ExportLease] = {}
        self._signal_store: SignalStore | None = None  # opened (blocking) by `_recover`
        self.policy = MaintainPolicy(
            target_rows_per_fragment=config.maintenance_target_rows_per_fragment,
            max_fragments=config.maintenance_max_fragments,
            unindexed_rows=config.maintenance_unindexed_rows,
            vector_index_rows=config.vector_index_rows,
        )
        self.rows_since_maintenance = 0
        self.commits_since_maintenance = 0
        self.fragments_estimate = 0  # after the last maintenance, plus one per commit since
        self._commits_at_estimate = 0  # commits_since_maintenance when it was measured
        self._tasks: anyio.abc.TaskGroup | None = None  # (`run`'s)
        self.maintenance_runs = 0
        self._maintaining = anyio.Lock()  # one pass at a time
        self.maintain_limiter = anyio.CapacityLimiter(1)
        self._serialize_next_pass = False
        self.last_vector_index: dict[str, Any] = {}
        self._fold_wanted = anyio.Event()  # rows committed that the indexes may not cover
        self.folds = 0
        self.last_fold: dict[str, Any] = {}
        self.calls = 0  # requests answered (the dispatcher counts them): see `_trim_heap_when_quiet`
        self.heap_trims = 0
        self.last_maintenance_us: int | None = None
        self.last_maintenance: dict[str, Any] = {}
        self.recovery: dict[str, Any] = {}
        self.write_errors = 0
        self.faults = Faults(config.data_dir, int(config.disk_reserve_mb * 2**20))
        self.backoff = Backoff()  # automatic maintenance passes after failures
        self.events = EventHub()
        # the last store, update or delete per namespace (µs), as this daemon saw them
        self.namespace_writes: dict[str, int] = {}
        self._load_embedder = load_embedder
        if not embedder.loaded:
            assert isinstance(embedder, UnloadedEmbedder)
            self.faults.report("embedder", embedder.error)
        self.neighbours = NeighbourCache(store, config.cache_rows)
        self.checker = Checker(
            config,
            store,
            self.edges,
            self.graph,
            self.write,
            self.read_limiter,
            cross_scores=self.reranker.scores,
            busy=self._busy,
            cache=self.neighbours,
        )

    def _busy(self) -> bool:
        """Stores or queries are being embedded or written, or were less than `QUIET_S` ago
        (the contradiction checker waits for a quiet moment; see `Checker`)."""
        if self.embedder_batcher.depth > 0 or self.writer.depth > 0:
            return True
        return time.monotonic() - max(self.embedder_batcher.last_done, self.writer.last_done) < QUIET_S

    def _fetch_reranker(self) -> Any:
        from omegad.models.fetch import fetch_reranker

        return fetch_reranker(self.config.model_cache_dir, endpoint=self.config.hub_endpoint)

    # -- workers ---------------------------------------------------------------------------

    async def run(self, *, task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Run the queues until they are closed (see `close`)."""
        async with anyio.create_task_group() as tg:
            self._tasks = tg
            # acknowledged writes that a crash kept out of the tables go back in first
            self.recovery = await anyio.to_thread.run_sync(self._recover)
            await tg.start(self.embedder_batcher.run)
            await tg.start(self.writer.run)
            await tg.start(self.jobs.run)
            await tg.start(self.reranker.run)
            edges = await anyio.to_thread.run_sync(self.edges.load, limiter=self.read_limiter)
            ends = {m for e in edges for m in (e.source, e.target)}
            alive = await anyio.to_thread.run_sync(self.store.existing_ids, ends, limiter=self.read_limiter)
            for edge in edges:  # an edge to a memory deleted before a crash finished is ignored
                if edge.source in alive and edge.target in alive:
                    self.graph.add(edge)
            await tg.start(self.checker.run)
            # commit stamps continue above every stored row (the checker's recovery scan has
            # found the newest; without the checker, ask the store)
            newest = self.checker.newest
            if not self.config.contradiction_enabled:
                newest = await anyio.to_thread.run_sync(self.store.max_updated_at, limiter=self.read_limiter)
            self._last_stamp = max(self._last_stamp, newest)
            tg.start_soon(self._maintenance_timer)
            if self.config.index_fold_delay_ms > 0:
                tg.start_soon(self._fold_new_rows)
            tg.start_soon(self._watch_data_dir)
            tg.start_soon(self._end_idle_maintenance_process)
            tg.start_soon(self._trim_heap_when_quiet)
            if self._load_embedder is not None:
                tg.start_soon(self._watch_embedder)
            if self.store.indexes.vector_outdated:  # (``index.vector_index`` changed)
                self._maybe_build_vector_index({})
            task_status.started()

    def _recover(self) -> dict[str, Any]:
        """Replay the write-ahead log (start, before serving), then checkpoint it away."""
        started = time.perf_counter()
        self._signal_store = SignalStore.open(self.store)
        found = self.wal.read()
        report: dict[str, Any] = {"records": len(found.records), "segments": found.segments}
        if found.torn:
            report["torn_tails"] = found.torn
        if found.corrupt:
            report["corrupt"] = found.corrupt
        if found.records:
            try:
                report.update(replay(found.records, self.store, self.edges, self._signal_store))
            except Exception as exc:
                if classify(exc) is None:
                    raise
                # the log stays as it is: the next start that can write replays it
                raise StartupError(
                    f"acknowledged writes in {self.wal.directory} must be replayed into the store, "
                    f"but writing under {self.config.data_dir} fails ({exc}); make it writable and start again"
                ) from None
        try:
            # Always, not only after a replay: a write whose log append failed may have
            # committed before the kill, and dropping the log declares the tables durable.
            report["files_synced"] = fsync_tree(self.store.directory)
            self.wal.drop_through(self.wal.seq)
            self.wal.open_segment()
        except OSError as exc:
            # a read-only data directory (everything in the log is in the tables): serve
            # reads; the first write that succeeds opens a new segment
            problem = classify(exc)
            if problem is None:
                raise
            self.faults.report(problem, f"starting: {exc.strerror}")
        self.signals.load(self.signal_store.load())
        self.fragments_estimate = self.store.health()["fragments"]
        self.store.refresh_namespace_rows()
        report["ms"] = round((time.perf_counter() - started) * 1000, 1)
        if found.segments:
            log.info("wal_recovered", **report)
        return report

    @property
    def signal_store(self) -> SignalStore:
        assert self._signal_store is not None, "Service.run has not started"
        return self._signal_store

    def _checkpoint(self, rotate: bool = True) -> dict[str, Any]:
        """Make everything committed so far durable in the tables, then drop the log segments
        that held it (writer thread: nothing commits meanwhile). Without *rotate* the segment
        being appended to stays (a new one needs space a full disk may not have)."""
        started = now_us()
        closed = self.wal.rotate() if rotate else self.wal.newest_closed()
        files = fsync_tree(self.store.directory)
        self._unlogged = []  # durable in the tables now
        dropped = self.wal.drop_through(closed)
        if not rotate:
            # the live segment's header must say so before old versions may go (else the
            # log claims less is durable than the versions left on disk can show)
            self.wal.mark_durable_through(started)
        return {"files_synced": files, "wal_segments_dropped": dropped}

    async def checkpoint(self) -> None:
        """At a clean shutdown: everything durable in the tables, the log empty (a fast start)."""
        await self.write([MaintainOp(reason="shutdown", checkpoint_only=True)])

    def close(self) -> None:
        self.store.ops.stop()
        self.reranker.close()
        self.embedder_batcher.close()
        self.jobs.close()
        self.writer.close()

    async def drain(self, timeout: float) -> bool:
        """Wait for every queued write and background job (used on shutdown)."""
        ok = await wait_until(self.writer.progress, self.writer.progress.submitted, timeout)
        return ok and await wait_until(self.jobs.progress, self.jobs.progress.submitted, timeout)

    def _embed_sync(self, texts: list[str]) -> list[npt.NDArray[np.float32]]:
        return list(self.embedder.embed(texts))

    async def embed(self, texts: list[str]) -> list[npt.NDArray[np.float32]]:
        """Embed through the shared batcher. Large inputs go in chunks, one after the other,
        so a query arriving meanwhile waits for one chunk, not for a whole big batch."""
        if not self.embedder.loaded:
            raise self.faults.error("embedder")
        chunk = self.config.embed_batch_size
        out: list[npt.NDArray[np.float32]] = []
        try:
            for start in range(0, len(texts), chunk):
                out.extend(await self.embedder_batcher.submit(texts[start : start + chunk]))
        except RuntimeError as exc:
            raise Unavailable(f"embedder unavailable: {exc}") from None
        return out

    async def write(self, ops: list[WriteOp]) -> list[Any]:
        try:
            results = await self.writer.submit(ops)
        except RuntimeError as exc:
            raise Unavailable(f"writer unavailable: {exc}") from None
        except ServiceError:
            raise
        except Exception as exc:
            raise self._write_error(exc) from None
        for r in results:
            if isinstance(r, ServiceError):
                raise r
            if isinstance(r, Exception):
                raise self._write_error(r) from None
        return results

    def _write_error(self, exc: Exception) -> ServiceError:
        self.write_errors += 1
        typed = self.faults.storage_error(exc, "a write failed")
        if typed is not None:
            return typed
        log.error("write_failed", error=error_text(exc))
        return Unavailable(f"the store could not commit: {error_text(exc)}")

    def _apply_writes(self, ops: list[WriteOp]) -> list[Any]:
        """Apply a batch of writes in order, in as few commits as possible, then log what
        committed to the write-ahead log (one fdatasync) before anyone is told (writer thread)."""
        if not self.faults.data_dir_ok():  # a commit now would land nowhere durable
            return [self.faults.error("data_dir_missing")] * len(ops)
        blocked = self.faults.space_for_writes() or self._log_unlogged()
        if blocked is not None:
            # Below the disk reserve, or an earlier batch committed but is not durable yet (no
            # write may commit, or answer "already stored" for it, until it is). Passes and
            # snapshots change no memory: they still run.
            results: list[Any] = [blocked] * len(ops)
            free = [k for k, op in enumerate(ops) if isinstance(op, MaintainOp | SnapshotOp)]
            if free:
                sub: list[Any] = [None] * len(free)
                self._wal_records, self._wal_ops = [], []
                self._apply_ops([ops[k] for k in free], sub)
                for k, r in zip(free, sub, strict=True):
                    results[k] = r
            return results
        results = [None] * len(ops)
        self._wal_records, self._wal_ops = [], []
        self._apply_ops(ops, results)
        if self._wal_records:
            try:
                self._append_durably(self._wal_records)
            except Exception as exc:
                # committed but not durable: not acknowledged, and kept to be logged before any
                # later write (a retry of the same id must not answer "already stored" before)
                self._unlogged.extend(self._wal_records)
                err = self._log_error(exc)
                for k in self._wal_ops:
                    if not isinstance(results[k], Exception):
                        results[k] = err
        return results

    def _append_durably(self, records: list[dict[str, Any]]) -> None:
        self.wal.append(records)
        if not self.faults.data_dir_ok():  # deleted meanwhile: the log went with it
            raise FileNotFoundError(errno.ENOENT, "the data directory was deleted", str(self.config.data_dir))
        self.faults.clear(*STORAGE)  # a durable write: the file system takes writes again

    def _log_error(self, exc: Exception) -> ServiceError:
        log.error("wal_append_failed", error=error_text(exc), unlogged=len(self._unlogged))
        return self.faults.storage_error(exc, "the write-ahead log append failed") or Unavailable(
            f"the write could not be made durable: {error_text(exc)}"
        )

    def _log_unlogged(self) -> ServiceError | None:
        """Append what committed without reaching the log (writer thread); the error if that
        still fails."""
        if not self._unlogged:
            return None
        try:
            self._append_durably(self._unlogged)
        except Exception as exc:
            return self._log_error(exc)
        log.info("wal_caught_up", records=len(self._unlogged))
        self._unlogged = []
        return None

    def _log(self, index: int, *records: dict[str, Any]) -> None:
        self._wal_records.extend(records)
        self._wal_ops.append(index)

    def _apply_ops(self, ops: list[WriteOp], results: list[Any]) -> None:
        i = 0
        while i < len(ops):
            op = ops[i]
            if isinstance(op, InsertOp):
                j = i
                while j < len(ops) and isinstance(ops[j], InsertOp):
                    j += 1
                self._apply_inserts(ops, i, j, results)
                i = j
                continue
            try:
                if isinstance(op, UpdateOp):
                    results[i] = row = self._apply_update(op)
                    self._log(i, row_record(row))
                elif isinstance(op, DeleteOp):
                    existed = bool(self.store.existing_ids([op.id]))
                    if existed:
                        self.store.delete([op.id])
                        if op.has_edges or op.id in self._edge_ends:
                            self.edges.delete_touching(op.id)
                        self._edge_ends.discard(op.id)
                        # edges written earlier in this batch are gone too: their writers (the
                        # checker, `resolve`) add what the write reports to the graph
                        for k in range(i):
                            if isinstance(ops[k], EdgeOp) and isinstance(results[k], list):
                                results[k][:] = [e for e in results[k] if op.id not in (e.source, e.target)]
                        if self.signals.forget(op.id):
                            self.signal_store.delete([op.id])
                        self.commits_since_maintenance += 1
                        stamp = self._stamp()
                        self._log(i, delete_record(op.id, stamp))
                        self._deleted_at[op.id] = stamp
                        if len(self._deleted_at) > DELETES_REMEMBERED:
                            _, self._deleted_horizon = self._deleted_at.popitem(last=False)
                    results[i] = existed
                elif isinstance(op, EdgeOp):
                    # serialised with deletes: never (re)write an edge to a deleted memory
                    alive = self._alive({m for e in op.upsert for m in (e.source, e.target)}, op.seen)
                    kept = [e for e in op.upsert if e.source in alive and e.target in alive]
                    self.edges.upsert(kept)
                    self._edge_ends.update(m for e in kept for m in (e.source, e.target))
                    self.edges.delete(op.delete)
                    results[i] = kept
                    self._log(i, *(edge_record(e) for e in kept), *(edge_delete_record(d) for d in op.delete))
                elif isinstance(op, FeedbackOp):
                    results[i] = self._apply_feedback(i, op.params)
                elif isinstance(op, SnapshotOp):
                    self._save_access_counts()  # so the export has them
                    version, dead = self.store.pin()
                    versions = {
                        MEMORIES_TABLE: version,
                        EDGES_TABLE: int(self.edges.table.version),
                        SIGNALS_TABLE: int(self.signal_store.table.version),
                    }
                    results[i] = (versions, dead)
                elif isinstance(op, ImportOp):
                    results[i] = self._apply_import(i, op)
                else:
                    results[i] = self._apply_maintain(op)
            except Exception as exc:
                results[i] = exc
            i += 1

    def _alive(self, ids: set[str], seen: dict[str, int]) -> set[str]:
        """Which of *ids* still exist, for memories the caller read at the commit stamps in
        *seen* (writer thread): deleted since is known from the deletes the writer remembers;
        only an id read before the oldest of them, or not in *seen*, costs a storage query."""
        unsure = {m for m in ids if seen.get(m, 0) <= self._deleted_horizon}
        alive = {m for m in ids - unsure if self._deleted_at.get(m, 0) <= seen[m]}
        return alive | (self.store.existing_ids(unsure) if unsure else set())

    def _stamp(self) -> int:
        """A commit stamp: now in µs, strictly increasing (writer thread only). Rows carry it
        as ``updated_at``, so commit order can be recovered from the table."""
        self._last_stamp = max(now_us(), self._last_stamp + 1)
        return self._last_stamp

    def _apply_inserts(self, ops: list[WriteOp], start: int, end: int, results: list[Any]) -> None:
        batch = [op for op in ops[start:end] if isinstance(op, InsertOp)]
        try:
            # Daemon-generated ids are fresh UUIDs: only client-chosen ids need the lookup.
            seen = self.store.existing_ids(op.row.id for op in batch if op.client_id)
            new_rows: list[Row] = []
            flags: list[bool] = []
            for op in batch:
                created = op.row.id not in seen
                if created:
                    seen.add(op.row.id)
                    op.row.updated_at = self._stamp()
                    new_rows.append(op.row)
                flags.append(created)
            self.store.insert(new_rows)
            self.rows_since_maintenance += len(new_rows)
            if new_rows:
                self.commits_since_maintenance += 1
            for k, flag in enumerate(flags):
                results[start + k] = flag
                if flag:
                    self._log(start + k, row_record(batch[k].row))
        except Exception as exc:
            for k in range(start, end):
                results[k] = exc

    def _apply_update(self, op: UpdateOp) -> Row:
        p = op.params
        current = self.store.get_many([p.id]).get(p.id)
        if current is None:
            raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
        text_changed = p.text is not None and p.text != current.text
        row = Row(
            id=current.id,
            text=p.text if p.text is not None else current.text,
            type=p.type or current.type,
            tags=list(p.tags) if p.tags is not None else current.tags,
            namespace=current.namespace,
            metadata=dict(p.metadata) if p.metadata is not None else current.metadata,
            created_at=current.created_at,
            updated_at=self._stamp(),
            version=current.version + 1 if text_changed else current.version,
            vector=op.vector if (text_changed and op.vector is not None) else current.vector,
        )
        self.store.replace(row)
        self.rows_since_maintenance += 1
        self.commits_since_maintenance += 1
        return row

    def _apply_feedback(self, index: int, p: FeedbackParams) -> dict[str, Any]:
        current = self.store.get_many([p.id]).get(p.id)
        if current is None:
            raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
        state = self.signals.rated(p.id, current.namespace, p.score)
        self.signal_store.upsert({p.id: state})
        self.signals.set(p.id, state)
        self._log(index, signal_record(p.id, state))
        return {"id": p.id, **state.public(), "hidden": self.signals.hidden(p.id)}

    def _apply_import(self, index: int, op: ImportOp) -> ImportResult:
        """Write imported memories (new, or changed: replaced), their signals and edges."""
        out = ImportResult()
        existing = self.store.get_many(r.id for r in op.rows)
        new_rows: list[Row] = []
        changed: list[Row] = []
        for row in op.rows:
            cur = existing.get(row.id)
            if cur is not None and (cur.text, cur.type, cur.tags, cur.namespace, cur.metadata, cur.created_at) == (
                row.text,
                row.type,
                row.tags,
                row.namespace,
                row.metadata,
                row.created_at,
            ):
                out.unchanged += 1
                continue
            row.updated_at = self._stamp()
            if cur is None:
                new_rows.append(row)
            else:
                row.version = cur.version + 1 if cur.text != row.text else cur.version
                changed.append(row)
        self.store.insert(new_rows)
        self.store.upsert(changed)
        out.created, out.updated, out.written = len(new_rows), len(changed), new_rows + changed
        if out.written:
            self.rows_since_maintenance += len(out.written)
            self.commits_since_maintenance += 1
            self._log(index, *(row_record(r) for r in out.written))
        if op.signals:
            self.signal_store.upsert(op.signals)
            for mid, sig in op.signals.items():
                self.signals.set(mid, sig)
            self._log(index, *(signal_record(mid, sig) for mid, sig in op.signals.items()))
        if op.edges:
            ends = self.store.get_many({m for e in op.edges for m in (e.source, e.target)})
            edges = []
            for e in op.edges:
                src, dst = ends.get(e.source), ends.get(e.target)
                if src is None or dst is None or src.namespace != dst.namespace:
                    out.edges_skipped += 1
                    continue
                edges.append(
                    Edge(
                        id=edge_id(KIND, e.source, e.target),
                        kind=e.kind,
                        source=e.source,
                        target=e.target,
                        namespace=src.namespace,
                        confidence=e.confidence,
                        signals=e.signals,
                        source_version=src.version,
                        target_version=dst.version,
                        created_at=to_micros(e.created_at) if e.created_at else now_us(),
                        resolution=e.resolution,
                        resolved_at=to_micros(e.resolved_at) if e.resolved_at else None,
                    )
                )
            self.edges.upsert(edges)
            self._edge_ends.update(m for e in edges for m in (e.source, e.target))
            out.edges = edges
            self._log(index, *(edge_record(e) for e in edges))
        return out

    def _save_access_counts(self) -> int:
        dirty = self.signals.take_dirty()
        try:
            self.signal_store.upsert(dirty)
        except Exception:
            self.signals.dirty |= set(dirty)  # next time
            raise
        return len(dirty)

    def _apply_maintain(self, op: MaintainOp) -> dict[str, Any]:
        """The part of a maintenance pass serialised with writes (writer thread; see
        `run_maintenance`), or only a checkpoint."""
        if op.checkpoint_only:
            saved = self._save_access_counts()
            return self._checkpoint() if (self.wal.bytes or saved) else {}
        if op.cleanup_only:
            return self._cleanup_only(op.reason)
        saved = self._save_access_counts()
        extra = [self.edges.table, self.signal_store.table]
        if op.prepared is not None:
            report = op.prepared
        else:  # the whole pass here (a pass beside the writer was pre-empted last time)
            report = self.store.maintenance.reorganize(self.policy, force=op.force, extra_tables=extra)
            report["serialized"] = True
        report = self.store.maintenance.finish(self.policy, report, durable=self._checkpoint, extra_tables=extra)
        report["access_counts_saved"] = saved
        report["reason"] = op.reason
        rows, commits = op.counted or (self.rows_since_maintenance, self.commits_since_maintenance)
        self.rows_since_maintenance = max(0, self.rows_since_maintenance - rows)
        self.commits_since_maintenance = max(0, self.commits_since_maintenance - commits)
        self.fragments_estimate = report["after"]["fragments"]  # (counts the commits made beside the pass)
        self._commits_at_estimate = self.commits_since_maintenance
        self.maintenance_runs += 1
        self.last_maintenance_us = now_us()
        self.last_maintenance = report
        log.info("maintenance", **report)
        return report

    def _cleanup_only(self, reason: str) -> dict[str, Any]:
        """The pass a full disk allows (writer thread): it writes nothing new, only makes the
        tables durable and removes their old versions, which frees what those held."""
        free = self.faults.free_bytes()
        report: dict[str, Any] = {"cleanup_only": True, "reason": reason, "free_bytes_before": free}
        report["durable"] = self._checkpoint(rotate=False)
        report["cleanup"] = self.store.maintenance.cleanup_versions(
            self.policy, [self.edges.table, self.signal_store.table]
        )
        report["free_bytes_after"] = self.faults.free_bytes()
        self.last_maintenance_us = now_us()
        self.last_maintenance = report
        log.info("maintenance", **report)
        return report

    async def run_maintenance(self, force: bool, reason: str) -> dict[str, Any]:
        """A maintenance pass (see `full_pass`); on a full disk, or when a full pass fails
        for lack of space, the pass that needs none (`_cleanup_only`) instead."""
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
        async with self._maintaining:
            (report,) = await self.write([MaintainOp(reason=reason, cleanup_only=True)])
            result: dict[str, Any] = report
            return result

    async def full_pass(self, force: bool, reason: str) -> dict[str, Any]:
        """One maintenance pass. Its long part — index folding and compaction, seconds at 1M
        memories — runs in a thread of its own while stores go on (Lance commits appends
        beside a compaction); only the checkpoint and the version cleanup wait for the writer.
        A compaction that a concurrent delete or update pre-empted is redone serialised with
        the writes in the next pass, so progress is certain."""
        async with self._maintaining:
            counted = (self.rows_since_maintenance, self.commits_since_maintenance)
            extra = [self.edges.table, self.signal_store.table]
            if self._serialize_next_pass:
                (report,) = await self.write([MaintainOp(force=force, reason=reason, counted=counted)])
            else:

                def reorganize() -> dict[str, Any]:
                    if not self.faults.data_dir_ok():  # Lance would recreate its directories
                        raise self.faults.error("data_dir_missing")
                    out = self.store.maintenance.reorganize(self.policy, force=force, extra_tables=extra)
                    fsync_tree(self.store.directory)  # so the checkpoint in the writer is quick
                    return out

                commits = self.writer.batches
                prepared = await anyio.to_thread.run_sync(reorganize, limiter=self.maintain_limiter)
                prepared["commits_beside"] = self.writer.batches - commits  # writes that went on
                (report,) = await self.write(
                    [MaintainOp(force=force, reason=reason, prepared=prepared, counted=counted)]
                )
            self._serialize_next_pass = bool(report.get("preempted")) and not report.get("serialized")
            # beside the writer: namespace counts, and fresh caches when the old ones hold stale entries
            renewed = await anyio.to_thread.run_sync(
                self.store.maintenance.after_pass, report, limiter=self.maintain_limiter
            )
            # what the pass and the recount (a scan of every row) freed, back to the system
            await anyio.to_thread.run_sync(heap.trim, limiter=self.maintain_limiter)
            if renewed:
                log.info("cache_renewed", **report["cache_renewed"])
            result: dict[str, Any] = report
            return result

    def fragment_limit(self) -> int:
        """The fragment count that makes a pass due: ``max_fragments``, or half as many again
        as the last pass left, when it could not get below that (a store whose compaction is
        bounded by ``max_compact_rows``, deferred during a vector-index build, or whose base
        fragments are many) — else every commit would start another pass."""
        return max(self.policy.max_fragments, self.fragments_estimate + self.policy.max_fragments // 2)

    def maintenance_due(self) -> str | None:
        """Why a maintenance pass is due now, if it is: indexes missing, too many fragments
        (each commit adds one; a pile of them slows every query), too many unindexed rows, or
        a long write-ahead log."""
        if not self.store.indexes.ready and self.commits_since_maintenance:
            return "indexes"
        fragments = self.fragments_estimate + self.commits_since_maintenance - self._commits_at_estimate
        if fragments > self.fragment_limit() and not self.store.indexes.build_running:  # (no compaction then)
            return "fragments"
        if self.rows_since_maintenance >= self.policy.unindexed_rows:
            return "unindexed_rows"
        if self.wal.bytes >= self.config.wal_checkpoint_mb * (1 << 20):
            return "wal"
        return None

    async def _after_commit(self, ops: list[WriteOp], results: list[Any]) -> None:
        """Queue background work for committed writes (never blocks the writer)."""
        committed: list[tuple[str, int]] = []
        rows: list[Row] = []
        changed: list[Row] = []  # metadata-only updates
        deleted: list[str] = []
        events = self.events
        found: list[Edge] = []  # contradictions new to the graph
        for op, result in zip(ops, results, strict=True):
            if isinstance(op, InsertOp) and result is True:
                committed.append((op.row.id, op.row.updated_at))
                rows.append(op.row)
                self.namespace_writes[op.row.namespace] = op.row.updated_at
                events.publish("stored", op.row.namespace, op.row.public())
            elif isinstance(op, UpdateOp) and isinstance(result, Row):
                if op.vector is not None:  # a new text: checked again
                    committed.append((result.id, result.updated_at))
                    rows.append(result)
                else:
                    changed.append(result)
                self.namespace_writes[result.namespace] = result.updated_at
                events.publish("updated", result.namespace, result.public())
            elif isinstance(op, DeleteOp) and result is True:
                deleted.append(op.id)
                for edge in self.graph.of(op.id):
                    self.graph.remove(edge.id)
                if op.namespace is not None:
                    self.namespace_writes[op.namespace] = now_us()
                    events.publish("deleted", op.namespace, {"id": op.id, "namespace": op.namespace})
            elif isinstance(op, EdgeOp) and isinstance(result, list):
                found.extend(e for e in result if e.resolution is None and e.id not in self.graph.edges)
            elif isinstance(op, ImportOp) and isinstance(result, ImportResult):
                committed.extend((r.id, r.updated_at) for r in result.written)
                rows.extend(result.written)
                for edge in result.edges:
                    self.graph.add(edge)
        if found and events.wants("contradiction"):
            self.jobs.submit_nowait(lambda: self._publish_contradictions(found))
        self.neighbours.upserted([*rows, *changed])
        self.neighbours.deleted(deleted)
        self.checker.notify(committed, rows)
        if committed and self.store.indexes.vector:
            self._fold_wanted.set()
        if not any(isinstance(op, (InsertOp, UpdateOp, DeleteOp, EdgeOp, ImportOp)) for op in ops):
            return
        reason = self.maintenance_due()
        if reason is not None:
            self.jobs.submit_nowait(lambda: self._maintenance_job(False, reason), key="maintenance")
        elif self.faults.active("disk_full"):  # what a pass frees may be what writes need
            self.jobs.submit_nowait(
                lambda: self._maintenance_job(False, "disk_full", when_due=False), key="maintenance"
            )

    async def _maintenance_job(self, force: bool, reason: str, when_due: bool = True) -> None:
        """An automatic pass. After a failure the next ones wait, longer each time (one log
        line when passes stop and one when they work again); a full disk that clears, or a
        requested pass that works, ends the wait at once."""
        if when_due and not force and self.maintenance_due() is None:  # a pass since it was queued did it
            return
        if not self.backoff.ready(time.monotonic(), self.faults.active("disk_full")):
            return
        try:
            report = await self.run_maintenance(force, reason)
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
        self._pass_worked()
        self._maybe_build_vector_index(report)

    def _pass_worked(self) -> None:
        paused = self.backoff.succeeded()
        if paused is not None:
            log.info("maintenance_resumed", failures=paused[0], paused_s=round(paused[1], 1))

    def _maybe_build_vector_index(self, report: dict[str, Any]) -> None:
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
            assert self._tasks is not None
            self._tasks.start_soon(self._build_vector_index)

    @asynccontextmanager
    async def _commits_held(self) -> AsyncIterator[None]:
        """No maintenance pass and no commit to the memories table meanwhile (for the index
        build's commit, which would otherwise race the writer's)."""
        lock = self.store.commit_lock
        async with self._maintaining:
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
                    self.store.directory, self._commits_held, kind=self.store.indexes.vector_kind
                )
            self.last_vector_index = info
            log.info("vector_index_built", **info)
        except Exception as exc:  # e.g. a conflict with a compaction: the next pass retries
            log.warning("vector_index_failed", error=error_text(exc))
            self.last_vector_index = {"error": error_text(exc)}
        # a pass picks the index up (and what compaction was deferred meanwhile)
        self.jobs.submit_nowait(lambda: self._maintenance_job(False, "vector_index", when_due=False))

    async def _watch_data_dir(self) -> None:
        """Notice a deleted or replaced data directory even while nothing is written."""
        while not self.faults.active("data_dir_missing"):
            await anyio.sleep(WATCH_S)
            await anyio.to_thread.run_sync(self.faults.data_dir_ok, limiter=self.read_limiter)

    async def _watch_embedder(self) -> None:
        """Watch the embedding model's files: reload the model once they change while it is
        unavailable; report them damaged once they change under a loaded model (it keeps
        serving from memory, but the next start would fail)."""
        assert self._load_embedder is not None
        directory = embedding_dir(self.config.embedding_model_dir, self.config.model_cache_dir)
        seen = await anyio.to_thread.run_sync(files_signature, directory)
        while True:
            await anyio.sleep(RELOAD_S)
            now = await anyio.to_thread.run_sync(files_signature, directory)
            if now == seen:
                continue
            seen = now
            if self.embedder.loaded:
                await self._check_embedding_files(directory)
            else:
                await self._reload_embedder(directory)

    async def _check_embedding_files(self, directory: Path) -> None:
        """The loaded model's files changed: do they still load as the same model?"""
        assert self._load_embedder is not None
        damaged = await anyio.to_thread.run_sync(damaged_files, directory)
        problem = f"{', '.join(damaged)} in {directory} fail their hash check" if damaged else None
        if problem is None:
            try:  # (no hashes recorded for a model dir of the user's own: loading is the check)
                probe = await anyio.to_thread.run_sync(self._load_embedder, limiter=self.embed_limiter)
            except Exception as exc:
                problem = error_text(exc)
            else:
                if (probe.model_id, probe.dim) != (self.embedder.model_id, self.embedder.dim):
                    problem = f"{directory} now holds {probe.model_id} (dim {probe.dim}), not {self.embedder.model_id}"
                del probe
        if problem is None:
            self.faults.clear("model_damaged")
        else:
            self.faults.report("model_damaged", problem)

    async def _reload_embedder(self, directory: Path) -> None:
        """Degraded without an embedding model: its files changed (``omegad models fetch``, a
        fixed ``embedding.model_dir``), so try loading it again."""
        assert self._load_embedder is not None
        try:
            embedder = await anyio.to_thread.run_sync(self._load_embedder, limiter=self.embed_limiter)
        except Exception as exc:
            self.faults.report("embedder", error_text(exc))
            return
        if (embedder.model_id, embedder.dim) != (self.embedder.model_id, self.embedder.dim):
            self.faults.report(
                "embedder",
                f"{directory} holds {embedder.model_id} (dim {embedder.dim}), but the store was built "
                f"with {self.embedder.model_id} (dim {self.embedder.dim})",
            )
            return
        self.embedder = embedder
        self.faults.clear("embedder", "model_damaged")
        log.info("embedder_ready", model=embedder.model_id, variant=embedder.files.variant)

    async def _maintenance_timer(self) -> None:
        """After a quiet ``maintenance.interval_s`` with writes since the last pass: compact
        what is left, fold it into the indexes, checkpoint the log, clean up versions."""
        while True:
            await anyio.sleep(self.config.maintenance_interval_s)
            if self.faults.active("data_dir_missing"):
                continue
            wanted = self.commits_since_maintenance or self.wal.bytes or self.backoff.failures
            if (wanted or self.faults.active("disk_full")) and self.writer.depth == 0:
                self.jobs.submit_nowait(lambda: self._maintenance_job(True, "idle"), key="maintenance")

    async def _end_idle_maintenance_process(self) -> None:
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
            if ops.running and time.monotonic() - ops.last_used >= idle and not self._maintaining.locked():
                await anyio.to_thread.run_sync(ops.close_if_idle, idle, limiter=self.maintain_limiter)

    async def _trim_heap_when_quiet(self) -> None:
        """Hand the heap that requests freed back to the system (`heap.trim`) once the daemon
        has been quiet for `TRIM_QUIET_S` after answering some, and at least every
        `TRIM_BUSY_S` under a steady load. Queries and stores allocate and free result batches,
        tokens and activations in many threads; glibc keeps what they free unless asked
        (docs/storage.md, "At scale"). A trim takes a few milliseconds and holds malloc's locks
        meanwhile, so it runs when nothing waits for them."""
        trimmed_at = seen = self.calls
        last = time.monotonic()
        await anyio.to_thread.run_sync(heap.trim)  # what loading the models and opening the store freed
        while True:
            await anyio.sleep(TRIM_QUIET_S)
            calls, quiet = self.calls, self.calls == seen
            seen = calls
            if calls != trimmed_at and (quiet or time.monotonic() - last >= TRIM_BUSY_S):
                await anyio.to_thread.run_sync(heap.trim)
                trimmed_at, last = calls, time.monotonic()
                self.heap_trims += 1

    async def _fold_new_rows(self) -> None:
        """``index.fold_delay_ms`` after rows are committed, fold them into the indexes
        (`MemoryStore.fold_new_rows`: every search is slower while some rows are outside
        them). Serialised with maintenance passes, beside the writer."""
        delay = self.config.index_fold_delay_ms / 1000
        while True:
            await self._fold_wanted.wait()
            self._fold_wanted = anyio.Event()
            await anyio.sleep(delay)  # one fold for a burst of writes
            if self.faults.active("data_dir_missing"):
                continue
            async with self._maintaining:
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

    # -- handlers ----------------------------------------------------------------------------

    async def hello(self, _: Any) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL_VERSION,
            "daemon_version": __version__,
            "embedding": {
                "model": self.embedder.model_id,
                "variant": self.embedder.files.variant,
                "dim": self.embedder.dim,
            },
            "reranker": self.reranker.describe(),
            **await self.health(),
        }

    async def health(self) -> dict[str, Any]:
        """``status`` ok/degraded and the active problems (see `omegad.faults`)."""
        await anyio.to_thread.run_sync(self.faults.data_dir_ok, limiter=self.read_limiter)
        return self.faults.describe()

    async def ping(self, _: Any) -> dict[str, Any]:
        return {}

    def _new_row(self, p: StoreParams, vector: npt.NDArray[np.float32], now: int) -> Row:
        return Row(
            id=p.id or uuid.uuid4().hex,
            text=p.text,
            type=p.type,
            tags=list(p.tags),
            namespace=p.namespace,
            metadata=dict(p.metadata or {}),
            created_at=to_micros(p.created_at) if p.created_at else now,
            updated_at=now,
            version=1,
            vector=vector,
        )

    async def store_one(self, p: StoreParams) -> dict[str, Any]:
        (vector,) = await self.embed([p.text])
        row = self._new_row(p, vector, now_us())
        (created,) = await self.write([InsertOp(row, client_id=p.id is not None)])
        return {"id": row.id, "created": bool(created)}

    async def store_batch(self, p: StoreBatchParams) -> dict[str, Any]:
        vectors = await self.embed([item.text for item in p.items])
        now = now_us()
        rows = [self._new_row(item, vec, now) for item, vec in zip(p.items, vectors, strict=True)]
        ops: list[WriteOp] = [InsertOp(r, client_id=item.id is not None) for r, item in zip(rows, p.items, strict=True)]
        created = await self.write(ops)
        return {"ids": [r.id for r in rows], "created": [bool(c) for c in created]}

    async def namespaces_of(self, ids: list[str]) -> dict[str, str]:
        """The namespace of each of *ids* that exists (namespaces never change)."""
        rows = await anyio.to_thread.run_sync(self.store.get_many, ids, limiter=self.read_limiter)
        return {mid: row.namespace for mid, row in rows.items()}

    async def get(self, p: IdParams) -> dict[str, Any]:
        rows = await anyio.to_thread.run_sync(self.store.get_many, [p.id], limiter=self.read_limiter)
        row = rows.get(p.id)
        if row is None:
            raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
        return self._annotated(row.public())

    async def update(self, p: UpdateParams) -> dict[str, Any]:
        vector = None
        if p.text is not None:
            (vector,) = await self.embed([p.text])
        (row,) = await self.write([UpdateOp(p, vector)])
        public: dict[str, Any] = row.public()
        return public

    async def delete(self, p: IdParams) -> dict[str, Any]:
        namespace = (await self.namespaces_of([p.id])).get(p.id)  # (for the event and `namespaces`)
        (deleted,) = await self.write([DeleteOp(p.id, has_edges=bool(self.graph.of(p.id)), namespace=namespace)])
        return {"deleted": bool(deleted)}

    def _filter(self, p: QueryParams | ListParams) -> Filter:
        """What a query or a listing may see, evaluated inside the storage query."""
        return Filter(
            namespace=p.namespace,
            types=p.types,
            tags=p.tags,
            since_us=to_micros(p.since) if p.since else None,
            until_us=to_micros(p.until) if p.until else None,
            exclude_ids=() if p.include_hidden else self.signals.hidden_in(p.namespace),
        )

    async def list_memories(self, p: ListParams) -> dict[str, Any]:
        """A page of one namespace in ``created_at`` order (docs/protocol.md, "list")."""
        flt = self._filter(p)
        rows = await anyio.to_thread.run_sync(
            self.store.list_page, flt, p.newest_first, p.after, p.limit + 1, limiter=self.read_limiter
        )
        more = len(rows) > p.limit
        rows = rows[: p.limit]
        last = rows[-1] if rows and more else None
        return {
            "memories": [self._annotated(r.public()) for r in rows],
            "next": encode_cursor(last.created_at, last.id, p.newest_first) if last is not None else None,
        }

    async def namespaces(self, _: Any) -> dict[str, Any]:
        """Every namespace with memories: how many, and when it was last written."""
        summary = await anyio.to_thread.run_sync(self.store.namespace_summary, limiter=self.read_limiter)
        out = []
        for name in sorted(summary):
            count, newest = summary[name]
            last = max(newest, self.namespace_writes.get(name, 0))
            out.append({"name": name, "memories": count, "last_write": iso(last) if last else None})
        return {"namespaces": out}

    async def _publish_contradictions(self, edges: list[Edge]) -> None:
        ids = {m for e in edges for m in (e.source, e.target)}
        rows = await anyio.to_thread.run_sync(self.store.get_many, ids, limiter=self.read_limiter)
        for e in edges:
            new, old = rows.get(e.source), rows.get(e.target)
            if new is not None and old is not None:
                self.events.publish(
                    "contradiction", e.namespace, {**e.public(), "new": _memory_ref(new), "old": _memory_ref(old)}
                )

    async def query(self, p: QueryParams) -> dict[str, Any]:
        trace = Trace()
        flt = self._filter(p)
        net = recall_size(p.limit)
        vector_hits: list[tuple[Row, float]] = []
        text_hits: list[tuple[Row, float]] = []
        vector: npt.NDArray[np.float32] | None = None

        def nearest() -> list[tuple[Row, float]]:
            assert vector is not None
            cached = self.neighbours.search(flt.namespace, [vector], net, flt)  # a small namespace
            return cached[0] if cached is not None else self.store.vector_search(vector, flt, net)

        took: dict[str, float] = {}

        def timed(name: str, fn: Callable[[], list[tuple[Row, float]]]) -> list[tuple[Row, float]]:
            t0 = time.perf_counter()
            try:
                return fn()
            finally:
                took[name] = round((time.perf_counter() - t0) * 1000, 3)

        async def vector_recall() -> None:
            vector_hits.extend(await anyio.to_thread.run_sync(timed, "vector_ms", nearest, limiter=self.read_limiter))

        async def text_recall() -> None:
            search = functools.partial(self.store.text_search, p.text, flt, net)
            text_hits.extend(await anyio.to_thread.run_sync(timed, "fts_ms", search, limiter=self.read_limiter))

        # The full-text search needs no embedding: it runs while the question is embedded, on
        # another core (docs/storage.md, "At scale").
        async with _task_group() as tg:
            tg.start_soon(text_recall)
            (vector,) = await self.embed([p.text])
            trace.mark("embed", 1)
            await vector_recall()
        candidates = fuse(vector_hits, text_hits, self.config)
        trace.mark(
            "recall", len(candidates), vector=len(vector_hits), fts=len(text_hits), net=net, filter=flt.sql(), **took
        )
        candidates = heuristic(candidates, self.config, now_us(), self.signals.factors, p.context)
        demote = self.config.contradiction_demote_older
        if demote != 1.0 and self.graph.edges:
            for c in candidates:
                if self.graph.demoted(c.row.id):
                    c.score *= demote
                    c.demoted = demote
            candidates.sort(key=lambda c: (-c.score, c.row.id))
        trace.mark("heuristic", len(candidates), fusion=self.config.fusion)
        top_k = self.config.reranker_top_k
        top = candidates[:top_k]
        if not p.rerank:
            detail: dict[str, Any] = {"skipped": "turned off by the request (rerank=false)"}
        elif not top:
            detail = {"skipped": "no candidates"}
        elif self.reranker.ready:
            detail = await self.reranker.rerank(p.text, top)
            if "skipped" not in detail:
                candidates = sorted(top, key=lambda c: (-c.score, c.row.id)) + candidates[top_k:]
        else:
            self.reranker.request()
            detail = {"skipped": f"reranker {self.reranker.state}: {self.reranker.detail}"}
        trace.mark("rerank", len(top), **detail)
        results, dropped = dedup(candidates, self.config.dedup_cosine, p.limit)
        trace.mark("dedup", len(results), dropped=dropped)
        self.signals.accessed(((c.row.id, c.row.namespace) for c in results), now_us())
        reply: dict[str, Any] = {"results": [self._annotated(result_dict(c, p.explain)) for c in results]}
        if p.explain:
            reply["trace"] = trace.stages
        return reply

    def _annotated(self, memory: dict[str, Any]) -> dict[str, Any]:
        """Add ``contradicts`` / ``contradicted_by`` (unresolved edges) to a memory dict."""
        memory.update(self.graph.annotations(memory["id"]))
        s = self.signals.by_id.get(memory["id"])
        if s is not None:
            memory.update(s.public())
            if self.signals.hidden(memory["id"]):
                memory["hidden"] = True
        return memory

    async def contradictions(self, p: ContradictionsParams) -> dict[str, Any]:
        if p.id is not None:
            edges = self.graph.of(p.id)
        else:
            namespace = p.namespace or "default"
            edges = [e for e in self.graph.edges.values() if e.namespace == namespace]
        edges = sorted(edges, key=lambda e: (-e.created_at, e.id))[: p.limit]
        ids = {i for e in edges for i in (e.source, e.target)}
        rows = await anyio.to_thread.run_sync(self.store.get_many, ids, limiter=self.read_limiter)
        out = []
        for e in edges:
            new, old = rows.get(e.source), rows.get(e.target)
            if new is None or old is None:
                continue  # one side was deleted meanwhile
            out.append({**e.public(), "new": _memory_ref(new), "old": _memory_ref(old)})
        return {"contradictions": out}

    async def traverse(self, p: TraverseParams) -> dict[str, Any]:
        kinds = set(p.kinds) if p.kinds else None
        depth_of = {p.id: 0}
        seen_edges: dict[str, Any] = {}
        frontier = [p.id]
        for depth in range(1, p.depth + 1):
            nxt = []
            for mid in frontier:
                for e in self.graph.of(mid):
                    if kinds is not None and e.kind not in kinds:
                        continue
                    seen_edges[e.id] = e
                    other = e.target if e.source == mid else e.source
                    if other not in depth_of:
                        depth_of[other] = depth
                        nxt.append(other)
            frontier = nxt
        rows = await anyio.to_thread.run_sync(self.store.get_many, list(depth_of), limiter=self.read_limiter)
        if p.id not in rows:
            raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
        nodes = [
            {**rows[m].public(), "depth": d}
            for m, d in sorted(depth_of.items(), key=lambda x: (x[1], x[0]))
            if m in rows
        ]
        edges = [
            e.public() for e in sorted(seen_edges.values(), key=lambda e: e.id) if e.source in rows and e.target in rows
        ]
        return {"nodes": nodes, "edges": edges}

    async def resolve(self, p: ResolveParams) -> dict[str, Any]:
        edge = self.graph.between(p.source, p.target)
        if edge is None or edge.source != p.source:
            raise NotFound(
                f"no contradiction {p.source!r} → {p.target!r} (source is the newer memory)",
                {"source": p.source, "target": p.target},
            )
        if p.resolution is None and edge.resolution is None:
            raise InvalidParams("this contradiction is not resolved", {"source": p.source, "target": p.target})
        updated = resolved(edge, p.resolution)
        (written,) = await self.write([EdgeOp([updated], [])])
        if not written:
            raise NotFound("one side of this contradiction was deleted", {"source": p.source, "target": p.target})
        current = self.graph.edges.get(edge.id)
        if current is not None and (current.source_version, current.target_version) != (
            edge.source_version,
            edge.target_version,
        ):
            # re-checked meanwhile: keep the new versions, with the resolution
            updated = replace(current, resolution=updated.resolution, resolved_at=updated.resolved_at)
            await self.write([EdgeOp([updated], [])])
        self.graph.add(updated)
        log.info("contradiction_resolved", source=p.source, target=p.target, resolution=p.resolution)
        return updated.public()

    async def stats(self, _: Any) -> dict[str, Any]:
        def collect() -> dict[str, Any]:
            out = {
                "counts": self.store.counts(),
                "disk_bytes": self.store.disk_bytes(),
                "index": self.store.index_state(),
                "health": self.store.health(),
            }
            heap.trim()  # the counts scan every row, and glibc would keep what that freed
            return out

        def memory() -> dict[str, Any]:
            import pyarrow as pa

            return {
                "rss_bytes": heap.rss_bytes(),
                "lance_cache_bytes": self.store.cache_bytes(),
                "arrow_bytes": int(pa.total_allocated_bytes()),
                "malloc": heap.usage(),
                "trims": self.heap_trims,
            }

        health = await self.health()
        try:
            data = await anyio.to_thread.run_sync(collect, limiter=self.read_limiter)
        except Exception as exc:  # degraded: say what is known
            typed = self.faults.storage_error(exc, "stats")
            if typed is None:
                raise
            data = {"counts": {}, "disk_bytes": None, "index": {}, "health": {"error": typed.message}}
        mem = await anyio.to_thread.run_sync(memory, limiter=self.read_limiter)
        counts: dict[str, dict[str, int]] = data["counts"]
        return {
            **health,
            "memories": sum(sum(t.values()) for t in counts.values()),
            "namespaces": {ns: {"total": sum(t.values()), "types": t} for ns, t in sorted(counts.items())},
            "disk_bytes": data["disk_bytes"],
            "index": data["index"],
            "queues": {
                "embedder": {"depth": self.embedder_batcher.depth, "batches": self.embedder_batcher.batches},
                "writer": {
                    "depth": self.writer.depth,
                    "commits": self.writer.batches,
                    "rows": self.writer.items,
                    "errors": self.write_errors,
                },
                "background": {
                    "depth": self.jobs.depth,
                    "dropped": self.jobs.dropped,
                    "failed": self.jobs.failed,
                    "last_error": self.jobs.last_error,
                },
            },
            "contradictions": self.checker.stats(),
            "events": self.events.stats()._asdict(),
            "store": {
                **data["health"],
                "disk_bytes": data["disk_bytes"],
                "wal": self.wal.stats(),
                "cache": self.neighbours.stats(),
                "lance_cache_bytes": self.store.cache_bytes(),
                "index_cache": {
                    "bound_mb": self.store.cache_mb[0],
                    "need_mb": self.store.index_cache_need_mb,
                    "auto": self.store.cache_auto,
                },
                "recovery_at_start": self.recovery,
            },
            "lifecycle": {
                "signals": len(self.signals.by_id),
                "hidden": self.signals.hidden_count,
                "unsaved_access_counts": len(self.signals.dirty),
            },
            "maintenance": {
                "runs": self.maintenance_runs,
                "rows_since": self.rows_since_maintenance,
                "commits_since": self.commits_since_maintenance,
                "due": self.maintenance_due(),
                "vector_index_building": self.store.indexes.build_running,
                "last_vector_index": self.last_vector_index,
                "folds": self.folds,
                "last_fold": self.last_fold,
                "process": self.store.ops.describe(),
                "compact_shrink": self.store.maintenance.compact_shrink,
                "last_at": iso(self.last_maintenance_us) if self.last_maintenance_us else None,
                "backoff": self.backoff.describe(),
                "last": self.last_maintenance,
            },
            "models": {
                "embedding": {
                    # ready; unavailable (not loaded: stores and queries refused); damaged
                    # (serving from memory, but its files on disk no longer load)
                    "state": (
                        "unavailable"
                        if not self.embedder.loaded
                        else "damaged"
                        if self.faults.active("model_damaged")
                        else "ready"
                    ),
                    "error": self.faults.detail("embedder") or self.faults.detail("model_damaged"),
                    "model": self.embedder.model_id,
                    "variant": self.embedder.files.variant,
                    "dim": self.embedder.dim,
                    "threads": self.embedder.threads,
                },
                "reranker": {**self.reranker.describe(), **self.reranker.counters()},
            },
            "memory": mem,
            "uptime_s": round(time.monotonic() - self.started, 3),
        }

    # -- export / import ---------------------------------------------------------------------

    def _close_export(self, lease: ExportLease) -> None:
        if self._exports.pop(lease.snapshot, None) is not None:
            self.store.readers.release(lease.epoch, long=True)

    def _expire_exports(self) -> None:
        now = time.monotonic()
        for lease in list(self._exports.values()):
            if now - lease.used > EXPORT_IDLE_S:
                self._close_export(lease)

    async def _open_export(self, namespace: str | None) -> ExportLease:
        self._expire_exports()
        if len(self._exports) >= MAX_EXPORTS:
            raise Unavailable(f"{MAX_EXPORTS} exports are open; finish one (or wait {EXPORT_IDLE_S:.0f} s)")
        epoch = self.store.readers.acquire(long=True)  # before pinning: cleanup keeps what we pin
        try:
            ((versions, dead),) = await self.write([SnapshotOp()])

            def pin() -> tuple[Any, list[Edge], dict[str, MemorySignals]]:
                table = self.store.snapshot(MEMORIES_TABLE, versions[MEMORIES_TABLE])
                edges = self.edges.load(self.store.snapshot(EDGES_TABLE, versions[EDGES_TABLE]))
                signals = self.signal_store.load(self.store.snapshot(SIGNALS_TABLE, versions[SIGNALS_TABLE]))
                return table, edges, signals

            table, edges, signals = await anyio.to_thread.run_sync(pin, limiter=self.read_limiter)
        except BaseException:
            self.store.readers.release(epoch, long=True)
            raise
        if namespace is not None:
            edges = [e for e in edges if e.namespace == namespace]
            signals = {m: s for m, s in signals.items() if s.namespace == namespace}
        snapshot = ExportLease.new_id()
        lease = ExportLease(
            snapshot=snapshot,
            namespace=namespace,
            table=table,
            edges=sorted(edges, key=lambda e: (e.created_at, e.id)),
            signals=signals,
            epoch=epoch,
            header=header(self.embedder.model_id, self.embedder.dim, namespace, versions),
            dead=dead,
        )
        self._exports[snapshot] = lease
        return lease

    async def export(self, p: ExportParams) -> dict[str, Any]:
        """One page of an export (see `omegad.backup`)."""
        if p.snapshot is None:
            if p.offset:
                raise InvalidParams(
                    "params.offset needs params.snapshot (from the first page)", {"param": "params.offset"}
                )
            lease = await self._open_export(p.namespace)
        else:
            found = self._exports.get(p.snapshot)
            if found is None or found.namespace != p.namespace:
                raise InvalidParams(
                    f"unknown or expired export snapshot {p.snapshot!r}: start again without a snapshot",
                    {"param": "params.snapshot"},
                )
            lease = found
        lease.used = time.monotonic()
        try:
            rows, spanned = await anyio.to_thread.run_sync(
                self.store.export_page,
                lease.table,
                lease.dead,
                lease.namespace,
                p.offset,
                p.limit,
                limiter=self.read_limiter,
            )
            records = [memory_line(row, lease.signals.get(row.id)) for row in rows]
        except Exception:  # never leave a failed export holding its snapshot (and a slot)
            self._close_export(lease)
            raise
        done = spanned < p.limit
        if done:
            records += [edge_line(e) for e in lease.edges]
            self._close_export(lease)
        return {
            "header": lease.header,
            "snapshot": lease.snapshot,
            "records": records,
            "next": None if done else p.offset + spanned,
        }

    async def import_(self, p: ImportParams) -> dict[str, Any]:
        """Import records (memories, then edges); idempotent by id."""
        same_model = p.model == self.embedder.model_id
        vectors: list[Any] = [vector_from(m.vector, self.embedder.dim) if same_model else None for m in p.memories]
        todo = [k for k, v in enumerate(vectors) if v is None]
        if todo:
            for k, v in zip(todo, await self.embed([p.memories[k].memory.text for k in todo]), strict=True):
                vectors[k] = v
        now = now_us()
        rows: list[Row] = []
        signals: dict[str, MemorySignals] = {}
        for m, vec in zip(p.memories, vectors, strict=True):
            row = self._new_row(m.memory, vec, now)
            row.version = m.version
            rows.append(row)
            if m.feedback is not None or m.ratings or m.accesses:
                signals[row.id] = MemorySignals(row.namespace, m.feedback or 0.0, m.ratings, m.accesses, 0)
        (result,) = await self.write([ImportOp(rows, signals, list(p.edges))])
        return {
            "memories": {"created": result.created, "updated": result.updated, "unchanged": result.unchanged},
            "reembedded": len(todo),
            "signals": len(signals),
            "edges": {"imported": len(result.edges), "skipped": result.edges_skipped},
        }

    async def feedback(self, p: FeedbackParams) -> dict[str, Any]:
        """Rate a memory; acknowledged once durable, like a store."""
        (result,) = await self.write([FeedbackOp(p)])
        out: dict[str, Any] = result
        return out

    async def maintain(self, _: Any) -> dict[str, Any]:
        """Run a maintenance pass now (`omegad maintain`) and return its report."""
        report = await self.run_maintenance(True, "requested")
        if not report.get("cleanup_only"):
            self._pass_worked()
            self._maybe_build_vector_index(report)
        return report

    async def flush(self, p: FlushParams) -> dict[str, Any]:
        """Wait for the writes queued before this call, then for the background jobs queued
        before it or by those writes' commits."""
        started = time.perf_counter()
        deadline = None if p.timeout is None else time.monotonic() + p.timeout

        def left() -> float | None:
            return None if deadline is None else max(0.0, deadline - time.monotonic())

        ok = await wait_until(self.writer.progress, self.writer.progress.submitted, left())
        ok = ok and await wait_until(self.jobs.progress, self.jobs.progress.submitted, left())
        ok = ok and await _finishes_within(self.checker.wait_checked(self.checker.notified_through), left())
        # the checker's own edge writes are queued behind it
        ok = ok and await wait_until(self.writer.progress, self.writer.progress.submitted, left())
        if not ok:
            raise ServiceError(
                f"background work still pending after {p.timeout} s",
                {"writer": self.writer.depth, "background": self.jobs.depth, "contradictions": self.checker.depth},
                code="timeout",
            )
        return {"waited_ms": round((time.perf_counter() - started) * 1000, 3)}
