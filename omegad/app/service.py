"""The memory service: the composition root of the daemon's parts and the state its handlers
share (`Service`). The handlers live by topic beside it (`memories`, `query`, `graph`,
`exports`, `admin`, `stats`); the writer thread's work is `writer`, maintenance scheduling
`maintenance`, the watchers `watch`.

Nothing here blocks the event loop: ONNX and LanceDB calls go through `Batcher`s or
`anyio.to_thread.run_sync` behind capacity limiters. Writes all pass through one writer
(`Writer.apply`, a group commit); a plainly new memory is acknowledged once its row is in
the write-ahead log, its commit following (`Service.accept`, `omegad.app.pending`).
"""

from __future__ import annotations

import functools
import time
import uuid
from collections.abc import Callable
from typing import Any

import anyio
import anyio.abc
import numpy as np
import numpy.typing as npt
import structlog

from omegad.app import heap
from omegad.app.backup import ExportLease
from omegad.app.events import EventHub
from omegad.app.faults import STORAGE, Faults, classify
from omegad.app.history import HistoryStore
from omegad.app.maintenance import Scheduler
from omegad.app.ops import DeleteOp, ImportOp, ImportResult, InsertOp, MaintainOp, Merged, UpdateOp, WriteOp
from omegad.app.pending import Pending, row_bytes
from omegad.app.recovery import replay, row_record
from omegad.app.team import Team
from omegad.app.textkeys import Stopped, TextKeys
from omegad.app.watch import release_idle_models, trim_heap_when_quiet, watch_data_dir, watch_embedder
from omegad.app.writer import Writer
from omegad.config import Config
from omegad.contradictions.checker import Checker
from omegad.contradictions.duplicates import normalise, text_key
from omegad.contradictions.edges import KIND, Edge, EdgeIndex, EdgeOp, EdgeStore
from omegad.errors import ServiceError, StartupError, Unavailable, error_text
from omegad.models.files import ModelMissing
from omegad.recall.embed import Embedder, UnloadedEmbedder, memory_text
from omegad.recall.neighbours import NeighbourCache
from omegad.recall.rerank import Reranker
from omegad.requests import ListParams, QueryParams, StoreParams
from omegad.storage.fsutil import fsync_tree
from omegad.storage.rows import Filter, Row
from omegad.storage.signals import Signals, SignalStore
from omegad.storage.store import MemoryStore
from omegad.storage.wal import WriteAheadLog
from omegad.timeutil import iso, now_us, to_micros
from omegad.worker import Batcher, JobQueue, wait_until

#: How long after the last store or query the daemon counts as quiet (background checks wait).
QUIET_S = 0.05

#: a pause after each batch of `TextKeys`' start-up scan: its hashing is Python holding the
#: GIL, and requests arriving meanwhile go first
TEXT_KEYS_PAUSE_S = 0.01

__all__ = ["Service", "memory_ref"]

log = structlog.get_logger("omegad")


def memory_ref(row: Row) -> dict[str, Any]:
    """A memory as a contradiction names it in replies and events: id, text, type, creation time."""
    return {"id": row.id, "text": row.text, "type": row.type, "created_at": iso(row.created_at)}


#: Neighbours searched for an exact duplicate of a new memory, and the cosine they need: the
#: same words embed within a few hundredths whatever the punctuation and case.
SAME_TEXT_NEIGHBOURS = 3
SAME_TEXT_COSINE = 0.8


#: A row not embedded yet (a store acknowledged at the log before its embedding).
_NOT_EMBEDDED = np.zeros(0, dtype=np.float32)
#: `Service._cached_twins`: the neighbour cache does not hold the namespace.
_UNKNOWN = object()


class Service:
    """The daemon's parts, composed: the embedder and its batcher, the store, the write queue
    and its `Writer`, the maintenance `Scheduler`, the contradiction `Checker`, the reranker,
    signals, events and degraded mode. Handlers (``omegad.app.memories`` …) take it first."""

    def __init__(
        self,
        config: Config,
        embedder: Embedder | UnloadedEmbedder,
        store: MemoryStore,
        edges: EdgeStore | None = None,
        *,
        load_embedder: Callable[[], Embedder] | None = None,
        team: Team | None = None,
    ) -> None:
        self.config = config
        self.team = team  # a team store's lease and follower (omegad.app.team), else None
        self.embedder = embedder
        self.store = store
        # (blocking when not given: the server opens it in a worker thread)
        self.edges = edges if edges is not None else EdgeStore.open(store, config.data_dir)
        self.graph = EdgeIndex()
        self.reranker = Reranker(config, fetch=self._fetch_reranker if config.reranker_model_dir is None else None)
        self.started = time.monotonic()
        self.read_limiter = anyio.CapacityLimiter(config.db_read_threads)
        self.embed_limiter = anyio.CapacityLimiter(1)
        self.write_limiter = anyio.CapacityLimiter(1)
        self.embedder_batcher: Batcher[str, npt.NDArray[np.float32]] = Batcher(
            "embedder",
            self._embed_sync,
            # one inference run per call: a question queued behind a bulk load waits for one
            # run of `embedding.batch_size` texts, not four
            max_items=config.embed_batch_size,
            limiter=self.embed_limiter,
            shield_wait=False,
            inline_when_idle=True,
            urgent_beside=True,
        )
        self.faults = Faults(config.data_dir, int(config.disk_reserve_mb * 2**20))
        self.signals = Signals(config)
        # (the writer answers a maintenance op with the scheduler, built over the writer below)
        self.writer = Writer(
            config,
            store,
            self.edges,
            self.signals,
            WriteAheadLog(config.data_dir / "wal"),
            self.faults,
            maintain=lambda op: self.scheduler.apply(op),
        )
        self.pending = Pending(config.pending_max_rows, int(config.pending_max_mb * 2**20), config.pending_wait_s)
        self.writer.pending_rows = self.pending.snapshot
        # the log appends of stores acknowledged at the log: one fdatasync per call, shared by
        # every store queued meanwhile (group commit)
        self.log_queue: Batcher[dict[str, Any], None] = Batcher(
            "log", self.writer.log_new_rows, max_items=config.write_batch_rows, limiter=anyio.CapacityLimiter(1)
        )
        self.write_queue: Batcher[WriteOp, Any] = Batcher(
            "writer",
            self.writer.apply,
            max_items=config.write_batch_rows,
            limiter=self.write_limiter,
            after=self._after_commit,
            # (a team host leaves gaps between its commits while another host waits to commit)
            pace=team.turns.pace if team is not None else None,
        )
        self.jobs = JobQueue("background")
        self.jobs.on_error = lambda name, exc: log.error("job_failed", queue=name, error=error_text(exc))
        self.scheduler = Scheduler(
            config, store, self.edges, self.writer, self.write_queue, self.write, self.jobs, self.faults
        )
        if team is not None:  # only the lease holder maintains a team store
            self.scheduler.allowed = lambda: team.maintains
            self.scheduler.share_counts = True
            self.writer.shared_signals = True
            store.on_commit = team.turns.committed
        self.exports: dict[str, ExportLease] = {}
        self.calls = 0  # requests answered (the dispatcher counts them): see `trim_heap_when_quiet`
        self.heap_trims = 0
        self.recovery: dict[str, Any] = {}
        self.write_errors = 0
        self.events = EventHub()
        # the last store, update or delete per namespace (µs), as this daemon saw them
        self.namespace_writes: dict[str, int] = {}
        self.load_embedder = load_embedder
        if not embedder.loaded:
            assert isinstance(embedder, UnloadedEmbedder)
            self.faults.report("embedder", embedder.error)
        self.neighbours = NeighbourCache(
            store,
            config.cache_rows,
            fulltext=config.cache_fulltext,
            text_key=text_key,
            fresh=store.cache_fresh if store.shared else None,  # (another host may commit)
        )
        self.text_keys = TextKeys()
        if self._text_keys_wanted():  # (from the first write on: the start-up scan comes later)
            self.writer.text_keys = self.text_keys
            self.text_keys.enabled = True
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
            trim=heap.trim,
        )

    def _busy(self) -> bool:
        """Stores or queries are being embedded or written, or were less than `QUIET_S` ago
        (the contradiction checker waits for a quiet moment; see `Checker`)."""
        if self.embedder_batcher.depth > 0 or self.write_queue.depth > 0:
            return True
        return time.monotonic() - max(self.embedder_batcher.last_done, self.write_queue.last_done) < QUIET_S

    def _fetch_reranker(self) -> Any:
        from omegad.models.fetch import fetch_reranker

        return fetch_reranker(self.config.model_cache_dir, endpoint=self.config.hub_endpoint)

    # -- lifecycle ---------------------------------------------------------------------------

    async def run(self, *, task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Run the queues until they are closed (see `close`)."""
        async with anyio.create_task_group() as tg:
            self.scheduler.tasks = self.tasks = tg
            # acknowledged writes that a crash kept out of the tables go back in first
            self.recovery = await anyio.to_thread.run_sync(self._recover)
            await tg.start(self.embedder_batcher.run)
            await tg.start(self.write_queue.run)
            await tg.start(self.log_queue.run)
            if self.pending.rows:  # recovered from the log
                again = self.pending.snapshot()
                tg.start_soon(self._commit_logged, again, [True] * len(again))
            await tg.start(self.jobs.run)
            await tg.start(self.reranker.run)
            edges = await anyio.to_thread.run_sync(self.edges.load, limiter=self.read_limiter)
            ends = {m for e in edges for m in (e.source, e.target)}
            alive = await anyio.to_thread.run_sync(self.store.existing_ids, ends, limiter=self.read_limiter)
            for edge in edges:  # an edge to a memory deleted before a crash finished is ignored
                if edge.source in alive and edge.target in alive:
                    self.graph.add(edge)
            await tg.start(self.checker.run)
            if self._text_keys_wanted():
                tg.start_soon(self._build_text_keys)
            # commit stamps continue above every stored row (the checker's recovery scan has
            # found the newest; without the checker, ask the store)
            newest = self.checker.newest
            if not self.config.contradiction_enabled:
                newest = await anyio.to_thread.run_sync(self.store.max_updated_at, limiter=self.read_limiter)
            self.writer.last_stamp = max(self.writer.last_stamp, newest)
            tg.start_soon(self.scheduler.timer)
            if self.team is not None:
                tg.start_soon(self.team.run, self)
            if self.config.index_fold_delay_ms > 0:
                tg.start_soon(self.scheduler.fold_after_writes)
            tg.start_soon(watch_data_dir, self)
            tg.start_soon(self.scheduler.end_idle_process)
            tg.start_soon(trim_heap_when_quiet, self)
            tg.start_soon(release_idle_models, self)
            if self.load_embedder is not None:
                tg.start_soon(watch_embedder, self)
            if self.store.indexes.vector_outdated:  # (``index.vector_index`` changed)
                self.scheduler.maybe_build_vector_index({})
            task_status.started()

    def _recover(self) -> dict[str, Any]:
        """Replay the write-ahead log (start, before serving), then checkpoint it away."""
        started = time.perf_counter()
        host = self.team.host if self.team is not None else ""
        self.writer.signal_store = signals = SignalStore.open(self.store, host, self.config.feedback_bound)
        self.writer.history_store = history = HistoryStore.open(self.store.side_db, self.store.location)
        found = self.writer.wal.read()
        report: dict[str, Any] = {"records": len(found.records), "segments": found.segments}
        if found.torn:
            report["torn_tails"] = found.torn
        if found.corrupt:
            report["corrupt"] = found.corrupt
        unembedded: list[Row] = []  # stores acknowledged before their embedding, never committed
        if found.records:
            try:
                report.update(replay(found.records, self.store, self.edges, signals, history, unembedded))
            except Exception as exc:
                if classify(exc) is None:
                    raise
                # the log stays as it is: the next start that can write replays it
                raise StartupError(
                    f"acknowledged writes in {self.writer.wal.directory} must be replayed into the store, "
                    f"but writing under {self.config.data_dir} fails ({exc}); make it writable and start again"
                ) from None
        try:
            # Always, not only after a replay: a write whose log append failed may have
            # committed before the kill, and dropping the log declares the tables durable.
            report["files_synced"] = fsync_tree(self.store.directory)
            old = self.writer.wal.seq
            self.writer.wal.open_segment()
            # those stores stay in the log (the new segment) until they are committed
            self.writer.wal.append([row_record(r) for r in unembedded])
            self.writer.wal.drop_through(old)
        except OSError as exc:
            # a read-only data directory (everything in the log is in the tables): serve
            # reads; the first write that succeeds opens a new segment
            problem = classify(exc)
            if problem is None:
                raise
            self.faults.report(problem, f"starting: {exc.strerror}")
        for row in unembedded:  # embedded and committed once the queues run (`run`)
            self.pending.add(row, self.config.dedup_on_store != "off")
        self.signals.load(*signals.shares())
        self.scheduler.fragments_estimate = self.store.health()["fragments"]
        self.store.refresh_namespace_rows()
        report["ms"] = round((time.perf_counter() - started) * 1000, 1)
        if found.segments:
            log.info("wal_recovered", **report)
        return report

    async def checkpoint(self) -> None:
        """At a clean shutdown: everything durable in the tables, the log empty (a fast start)."""
        await self.write([MaintainOp(reason="shutdown", checkpoint_only=True)])

    def _text_keys_wanted(self) -> bool:
        """`TextKeys` serve stores acknowledged at the log that look for exact duplicates."""
        return self.config.store_ack == "log" and self.config.dedup_on_store != "off"

    def close(self) -> None:
        self.text_keys.stop.set()
        self.store.ops.stop()
        self.reranker.close()
        self.embedder_batcher.close()
        self.log_queue.close()
        self.jobs.close()
        self.write_queue.close()

    async def drain(self, timeout: float) -> bool:
        """Wait for every queued write and background job (used on shutdown); stores
        acknowledged at the log are committed first (what is left is replayed at the next start)."""
        await self.pending.settle(timeout)
        ok = await wait_until(self.write_queue.progress, self.write_queue.progress.submitted, timeout)
        return ok and await wait_until(self.jobs.progress, self.jobs.progress.submitted, timeout)

    # -- what the handlers share ---------------------------------------------------------------

    def _embed_sync(self, texts: list[str]) -> list[npt.NDArray[np.float32]]:
        return list(self.embedder.embed(texts))

    async def embed(
        self,
        texts: list[str],
        urgent: bool = False,
        wanted: Callable[[], bool] | None = None,
        timing: dict[str, float] | None = None,
    ) -> list[npt.NDArray[np.float32]]:
        """Embed through the shared batcher. Large inputs go in chunks, one after the other,
        so a query arriving meanwhile waits for one chunk, not for a whole big batch.
        *urgent*: a client waits for this one text (a question, an update), so it runs in the
        next call, in a call of its own kind (`Batcher`), ahead of background embeddings;
        *wanted*: these become urgent once it returns True (a client came to wait for them);
        *timing*: where the last chunk's time went (`Batcher.submit`)."""
        embedder = self.embedder
        if not embedder.loaded:
            raise self.faults.error("embedder")
        chunk = self.config.embed_batch_size
        order = list(range(len(texts)))
        if len(texts) > chunk:
            # chunks of texts of about one length: each run is padded to its longest text, so
            # chunks in arrival order took ~1.45x as long (docs/models.md, "Bulk loads")
            tokens = await anyio.to_thread.run_sync(self.embedder.text_tokens, texts)
            order.sort(key=tokens.__getitem__)
        out: list[npt.NDArray[np.float32]] = [np.empty(0, dtype=np.float32)] * len(texts)
        try:
            for start in range(0, len(texts), chunk):
                part = order[start : start + chunk]
                vectors = await self.embedder_batcher.submit(
                    [texts[i] for i in part], urgent=urgent and len(texts) == 1, wanted=wanted, timing=timing
                )
                for i, vector in zip(part, vectors, strict=True):
                    out[i] = vector
        except RuntimeError as exc:
            raise Unavailable(f"embedder unavailable: {exc}") from None
        except ModelMissing as exc:  # loading it again after `Embedder.release` failed
            self._embedder_lost(embedder, exc)
            raise self.faults.error("embedder", error_text(exc)) from None
        return out

    def _embedder_lost(self, lost: Embedder | UnloadedEmbedder, exc: Exception) -> None:
        """A released model could not be loaded again: its file went, or changed (a session
        never switches weights under the store's vectors, and a changed file may be a damaged
        one). Serve degraded, as a start without the model does, until `watch_embedder` sees
        the files change again (``omegad models fetch`` repairs them) or the daemon restarts."""
        if self.embedder is lost and lost.loaded:
            error = error_text(exc)
            self.embedder = UnloadedEmbedder(lost.model_id, lost.dim, error, lost.threads, lost.batch_size)
            self.faults.report("embedder", error)
            log.error("embedder_lost", model=lost.model_id, error=error)

    # -- stores acknowledged at the log ----------------------------------------------------------

    async def insert(self, rows: list[Row], client_ids: list[bool]) -> list[bool | Merged]:
        """Store new rows (not embedded yet): each is ``True`` (a new memory), ``False`` (its
        client-chosen id exists) or `Merged` (answered by a memory with the same text).

        A plainly new row is acknowledged once logged (`accept`), before its embedding when
        the neighbour cache can tell an exact duplicate by its text alone (its namespace is
        held there), else after it. The others go through the writer, after the pending
        rows that could answer them are committed."""
        if not self.embedder.loaded:  # (nothing could be embedded: refused before it is logged)
            raise self.faults.error("embedder")
        logged = await self.accept(rows, client_ids)
        rest = [k for k, ok in enumerate(logged) if not ok]
        out: list[bool | Merged] = [True] * len(rows)
        if not rest:
            return out
        # (the client waits for these: one text goes ahead of background embeddings)
        vectors = await self.embed([memory_text(rows[k].text, rows[k].tags) for k in rest], urgent=True)
        for k, vector in zip(rest, vectors, strict=True):
            rows[k].vector = vector
        texts_mark = self.writer.texts.added
        same = await self.same_texts([rows[k] for k in rest])
        again = await self.accept([rows[k] for k in rest], [client_ids[k] for k in rest], same, texts_mark)
        rest, same = (
            [k for k, ok in zip(rest, again, strict=True) if not ok],
            [s for s, ok in zip(same, again, strict=True) if not ok],
        )
        if rest:
            waits = [rows[k].id for k in rest if client_ids[k]]
            waits += [m for k in rest if (m := self.pending.same_text(rows[k])) is not None]
            await self.pending.wait_ids(waits)
            ops = self.insert_ops([rows[k] for k in rest], [client_ids[k] for k in rest], same)
            for k, result in zip(rest, await self.write(ops), strict=True):
                out[k] = result
        return out

    async def accept(
        self,
        rows: list[Row],
        client_ids: list[bool],
        same: list[str | None] | None = None,
        texts_mark: int | None = None,
    ) -> list[bool]:
        """Acknowledge at the log (``store.ack = "log"``) the rows that are plainly new: a
        daemon-made id, or a client's id that neither the store nor the pending set holds,
        and no memory or pending store of the namespace with the same normalised text —
        known from *same* (found by the rows' vectors), or, without it, from the neighbour
        cache's texts (rows of a namespace it does not hold are then left undecided). Their
        rows are logged (one fdatasync per group), then embedded if they are not yet and
        committed (`_commit_logged`). Returns, per row, whether it was acknowledged so; the
        others are the caller's to embed or the writer's to decide. *texts_mark*: the writer's
        `RecentTexts.added` before *same* was searched."""
        if self.config.store_ack != "log" or not rows:
            return [False] * len(rows)
        dedup = self.config.dedup_on_store != "off"
        if texts_mark is None:
            texts_mark = self.writer.texts.added
        if same is None and dedup:
            twins = await anyio.to_thread.run_sync(self._cached_twins, rows, limiter=self.read_limiter)
        else:
            twins = same if same is not None else [None] * len(rows)
        if all(t is _UNKNOWN for t in twins):
            return [False] * len(rows)
        await self.pending.room(len(rows), sum(row_bytes(r) for r in rows))
        mark = self.pending.left
        asked = [r.id for r, cid in zip(rows, client_ids, strict=True) if cid]
        exists = set()
        if asked:
            exists = await anyio.to_thread.run_sync(self.store.existing_ids, asked, limiter=self.read_limiter)
        if dedup and self.writer.texts.lost_since(texts_mark):
            # so many stores committed since the twins were looked for (a long wait for room)
            # that a twin among them may be forgotten: the writer decides, with a search
            return [False] * len(rows)
        # from here to the log append nothing awaits: the decisions and the pending set agree
        fast: list[Row] = []
        chosen: list[bool] = []  # (whether the client chose the id: the commit checks those)
        flags = [False] * len(rows)
        for k, row in enumerate(rows):
            if twins[k] is _UNKNOWN:
                continue
            if client_ids[k] and (
                row.id in exists or self.pending.holds(row.id) or self.pending.left_since(row.id, mark)
            ):
                continue
            if dedup and (
                twins[k] is not None
                or self.pending.same_text(row) is not None
                or self.writer.texts.get(row.namespace, text_key(row.text)) is not None
            ):
                continue
            row.updated_at = self.writer.stamp()
            self.pending.add(row, dedup)
            fast.append(row)
            chosen.append(client_ids[k])
            flags[k] = True
        if not fast:
            return flags
        try:
            await self.log_queue.submit([row_record(r) for r in fast])
        except BaseException as exc:
            self.pending.discard(r.id for r in fast)
            self._free_space_for_writes()
            if isinstance(exc, RuntimeError):
                raise Unavailable(f"writer unavailable: {exc}") from None
            if isinstance(exc, Exception) and not isinstance(exc, ServiceError):
                raise self._write_error(exc) from None
            raise
        self.pending.acknowledged += len(fast)
        self.tasks.start_soon(self._commit_logged, fast, chosen)
        return flags

    def _cached_twins(self, rows: list[Row]) -> list[Any]:
        """Per row, the id of a memory of its namespace with the same normalised text, None,
        or `_UNKNOWN` where that is not known without a search: the neighbour cache does not
        hold the namespace and `TextKeys` cannot rule a twin out (worker thread)."""
        out: list[Any] = [_UNKNOWN] * len(rows)
        groups: dict[str, list[int]] = {}
        for k, row in enumerate(rows):
            groups.setdefault(row.namespace, []).append(k)
        for namespace, idx in groups.items():
            keys = [text_key(rows[k].text) for k in idx]
            found: list[Any] | None = self.neighbours.same_texts(namespace, keys, self.signals.hidden_in(namespace))
            if found is None:
                absent = self.text_keys.absent(namespace, [rows[k].text for k in idx])
                found = [None if a else _UNKNOWN for a in absent] if absent is not None else None
            if found is not None:
                for k, twin in zip(idx, found, strict=True):
                    out[k] = twin
        return out

    async def _build_text_keys(self) -> None:
        """Scan the table's texts into `TextKeys` (start, in the background: until it is done,
        stores into namespaces the neighbour cache does not hold are searched as before)."""
        try:
            rows = await anyio.to_thread.run_sync(
                functools.partial(self.text_keys.build, self.store.scan_texts, pause_s=TEXT_KEYS_PAUSE_S),
                limiter=anyio.CapacityLimiter(1),
            )
        except Stopped:
            return
        except Exception as exc:  # (then every such store is searched, as before)
            self.text_keys.fail(error_text(exc))
            log.warning("text_keys_failed", error=error_text(exc))
            return
        log.info(
            "text_keys_ready",
            rows=rows,
            digests=self.text_keys.figures()["digests"],
            seconds=round(self.text_keys.build_s, 2),
        )

    async def _commit_logged(self, rows: list[Row], client_ids: list[bool]) -> None:
        """Embed (where not yet) and commit rows acknowledged at the log; a failed embedding
        or commit is tried again, backing off (they are safe in the log meanwhile, and
        readers wait). Never raises: this task runs in the service's task group."""
        delay = 0.05
        while rows:
            committing = False
            try:
                todo = [r for r in rows if not len(r.vector)]
                if todo:
                    vectors = await self.embed(
                        [memory_text(r.text, r.tags) for r in todo], wanted=functools.partial(self.pending.wanted, todo)
                    )
                    for row, vector in zip(todo, vectors, strict=True):
                        row.vector = vector
                    self.pending.embedded()
                ops = [InsertOp(r, client_id=c, logged=True) for r, c in zip(rows, client_ids, strict=True)]
                committing = True
                results = await self.write_queue.submit(list[WriteOp](ops))
            except RuntimeError:  # the writer is shut down: the next start replays them
                return
            except Exception as exc:  # the embedder is unavailable (it may come back), or failed
                if not committing and self.embedder_batcher.closed:
                    return  # shutting down: the next start embeds them from the log
                results = [exc] * len(rows)
            failed = [k for k, out in enumerate(results) if isinstance(out, Exception)]
            self.pending.discard(r.id for r, out in zip(rows, results, strict=True) if not isinstance(out, Exception))
            if failed:
                if committing:  # (a commit that failed, not an embedding)
                    self.write_errors += 1
                error = results[failed[0]]
                log.warning("logged_store_commit_failed", rows=len(failed), error=error_text(error), retry_s=delay)
                await anyio.sleep(delay)
                delay = min(delay * 2, 5.0)
            rows, client_ids = [rows[k] for k in failed], [client_ids[k] for k in failed]

    async def write(self, ops: list[WriteOp]) -> list[Any]:
        try:
            results = await self.write_queue.submit(ops)
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

    async def _after_commit(self, ops: list[WriteOp], results: list[Any]) -> None:
        """Queue background work for committed writes (never blocks the writer)."""
        committed: list[tuple[str, int]] = []
        rows: list[Row] = []
        changed: list[Row] = []  # metadata-only updates
        deleted: list[str] = []
        events = self.events
        found: list[Edge] = []  # contradictions new to the graph
        for op, result in zip(ops, results, strict=True):
            if isinstance(op, InsertOp) and isinstance(result, Merged):
                # stored again: counted as a use of the memory it repeats
                self.signals.accessed([(result.row.id, result.row.namespace)], now_us())
                if result.changed:
                    changed.append(result.row)
                    self.namespace_writes[result.row.namespace] = result.row.updated_at
                    events.publish("updated", result.row.namespace, result.row.public())
            elif isinstance(op, InsertOp) and result is True:
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
                found.extend(
                    e for e in result if e.kind == KIND and e.resolution is None and e.id not in self.graph.edges
                )
            elif isinstance(op, ImportOp) and isinstance(result, ImportResult):
                committed.extend((r.id, r.updated_at) for r in result.written)
                rows.extend(result.written)
                for edge in result.edges:
                    self.graph.add(edge)
        if found and events.wants("contradiction"):
            self.jobs.submit_nowait(lambda: self.publish_contradictions(found))
        self.neighbours.upserted([*rows, *changed])
        self.neighbours.deleted(deleted)
        self.checker.notify(committed, rows)
        if committed and self.store.indexes.vector:
            self.scheduler.fold_wanted.set()
        if not any(isinstance(op, (InsertOp, UpdateOp, DeleteOp, EdgeOp, ImportOp)) for op in ops):
            return
        reason = self.scheduler.due()
        if reason is not None:
            self.jobs.submit_nowait(lambda: self.scheduler.job(False, reason), key="maintenance")
        else:
            self._free_space_for_writes()

    def _free_space_for_writes(self) -> None:
        """On a full disk, a pass that removes old versions (what it frees may be what the
        refused writes need)."""
        if self.faults.active("disk_full"):
            self.jobs.submit_nowait(lambda: self.scheduler.job(False, "disk_full", when_due=False), key="maintenance")

    async def publish_contradictions(self, edges: list[Edge]) -> None:
        ids = {m for e in edges for m in (e.source, e.target)}
        rows = await anyio.to_thread.run_sync(self.store.get_many, ids, limiter=self.read_limiter)
        for e in edges:
            new, old = rows.get(e.source), rows.get(e.target)
            if new is not None and old is not None:
                self.events.publish(
                    "contradiction", e.namespace, {**e.public(), "new": memory_ref(new), "old": memory_ref(old)}
                )

    def new_row(self, p: StoreParams, vector: npt.NDArray[np.float32] | None, now: int) -> Row:
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
            vector=vector if vector is not None else _NOT_EMBEDDED,
        )

    def filter_for(self, p: QueryParams | ListParams) -> Filter:
        """What a query or a listing may see, evaluated inside the storage query."""
        return Filter(
            namespace=p.namespace,
            types=p.types,
            tags=p.tags,
            since_us=to_micros(p.since) if p.since else None,
            until_us=to_micros(p.until) if p.until else None,
            exclude_ids=() if p.include_hidden else self.signals.hidden_in(p.namespace),
        )

    def reload_graph(self, edges: list[Edge]) -> None:
        """Replace the graph's edges with *edges* (a team store: another host wrote some), in
        place: the checker holds the same index."""
        self.graph.edges.clear()
        self.graph.by_memory.clear()
        for edge in edges:
            self.graph.add(edge)

    def annotated(self, memory: dict[str, Any], graph: EdgeIndex | None = None) -> dict[str, Any]:
        """Add ``contradicts`` / ``contradicted_by`` (unresolved edges; of *graph*, the graph
        of another time, when given) to a memory dict."""
        memory.update((graph or self.graph).annotations(memory["id"]))
        s = self.signals.by_id.get(memory["id"])
        if s is not None:
            memory.update(s.public())
            if self.signals.hidden(memory["id"]):
                memory["hidden"] = True
        return memory

    async def same_texts(self, rows: list[Row]) -> list[str | None]:
        """For each new row, a memory of its namespace with the same normalised text (an exact
        duplicate, `dedup.on_store`), found among its nearest neighbours; None where there is
        none or dedup is off."""
        out: list[str | None] = [None] * len(rows)
        if self.config.dedup_on_store == "off" or not rows:
            return out
        groups: dict[str, list[int]] = {}
        for k, row in enumerate(rows):
            groups.setdefault(row.namespace, []).append(k)

        def find() -> None:
            for namespace, idx in groups.items():
                flt = Filter(namespace, exclude_ids=self.signals.hidden_in(namespace))
                vectors = [rows[k].vector for k in idx]
                hits = self.neighbours.search(namespace, vectors, SAME_TEXT_NEIGHBOURS, flt)
                if hits is None:
                    hits = self.store.vector_search_many(vectors, flt, SAME_TEXT_NEIGHBOURS, near=True)
                for k, found in zip(idx, hits, strict=True):
                    key = normalise(rows[k].text)
                    out[k] = next(
                        (r.id for r, cos in found if cos >= SAME_TEXT_COSINE and normalise(r.text) == key), None
                    )

        await anyio.to_thread.run_sync(find, limiter=self.read_limiter)
        return out

    def insert_ops(self, rows: list[Row], client_ids: list[bool], same: list[str | None]) -> list[WriteOp]:
        merge = self.config.dedup_on_store != "off"
        return [
            InsertOp(row, client_id=cid, same_as=s, merge=merge)
            for row, cid, s in zip(rows, client_ids, same, strict=True)
        ]

    async def namespaces_of(self, ids: list[str]) -> dict[str, str]:
        """The namespace of each of *ids* that exists or has a history (a deleted memory's
        tombstone keeps it: namespaces never change)."""

        def find() -> dict[str, str]:
            found = {mid: row.namespace for mid, row in self.store.get_many(ids).items()}
            missing = [i for i in ids if i not in found]
            return {**self.writer.history.namespaces_of(missing), **found} if missing else found

        return await anyio.to_thread.run_sync(find, limiter=self.read_limiter)

    def writes_failing(self) -> bool:
        """A storage problem (full disk, read-only, I/O error) is active: commits fail for now."""
        return any(self.faults.active(code) for code in STORAGE)

    async def health(self) -> dict[str, Any]:
        """``status`` ok/degraded and the active problems (see `omegad.app.faults`)."""
        await anyio.to_thread.run_sync(self.faults.data_dir_ok, limiter=self.read_limiter)
        return self.faults.describe()
