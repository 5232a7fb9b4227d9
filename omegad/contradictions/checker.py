"""Contradiction checking after each commit, and the graph of flagged pairs.

Flow: the writer stamps every committed row with a strictly increasing ``updated_at`` (commit
order). After a commit the service hands the committed ids to `Checker.notify`; the checker
works through them in order in the background (writers never wait), and for each memory:

1. takes its ~10 nearest memories *in the same namespace* (vector search with the namespace
   filter inside the storage query);
2. keeps real neighbours: cosine ≥ ``contradiction.gate_cosine`` (calibrated on
   bench/data/contradictions/dev), or, when the reranker is ready, the cross-encoder's
   sigmoid ≥ ``contradiction.gate`` (``gate_model = cross_encoder`` uses only the latter);
3. runs the deterministic detectors (`omegad.contradictions.detect.detect`, newer text against
   older); the pairs they do not flag that the pair classifier
   (`omegad.contradictions.classifier`) is to be asked about go to its *backlog*;
4. writes an edge ``newer --contradicts--> older`` for each flagged pair, through the writer,
   together with the new *cursor*: the commit stamp up to which every memory is checked;
5. in a second stage, of lower priority (while no check is due), asks the classifier about
   the backlog pairs, oldest first, and writes the edges its signal flags (joined with the
   detectors') the same way. The model's time is thus kept out of the checks' lag.

The saved cursor and `Checker.safe_cursor` stay below the oldest backlog pair, so ``flush``
waits for the classifier too and a restart asks it again. A full backlog (`MAX_BACKLOG`) makes
the checks ask the classifier inline: slower, same edges. A backlog pair whose memory has been
deleted since gets no edge (the writer's ``seen`` check), nor one whose memory's newer text has
been checked since (that check decided instead, as it would have after an inline decision).

Edges live in their own LanceDB table (``edges``), so vector rows are never rewritten; the
annotations a query shows (``contradicts`` / ``contradicted_by``) are read from an in-memory
index of that small table. The cursor is a small file written atomically after the edges it
covers, so a memory committed but not yet checked when the daemon stops is checked after the
restart. Edge ids are a hash of (kind, source, target, detector version): re-checking is
idempotent and never duplicates an edge.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, NamedTuple

import anyio
import structlog

from omegad.config import Config
from omegad.contradictions.backlog import Asked, Backlog, Pair
from omegad.contradictions.classifier import Classifier, ClassifierStats
from omegad.contradictions.detect import detect
from omegad.contradictions.duplicates import is_near_duplicate
from omegad.contradictions.edges import DUPLICATES, KIND, Edge, EdgeIndex, EdgeOp, EdgeStore, edge_id
from omegad.contradictions.model import Detection
from omegad.errors import error_text
from omegad.recall.neighbours import NeighbourCache
from omegad.storage.rows import Filter, Row
from omegad.storage.store import MemoryStore
from omegad.timeutil import iso, now_us

__all__ = ["Checker", "CheckerStats"]

log = structlog.get_logger("omegad")


NEIGHBOURS = 10
#: The pair classifier is asked about a memory's nearest gated neighbours only (~17 ms a pair
#: under load, against ~0.05 ms for the detectors, which see all of them): the queue must keep
#: up with 50 stores/s (docs/contradictions.md, Cost).
CLASSIFIED_NEIGHBOURS = 3
#: Longest a queued check is put off while the daemon is busy with stores and queries.
MAX_DEFER_S = 1.0
#: Longest the classifier's oldest backlog pair is put off while the daemon is busy: its model
#: time would slow the stores and checks that keep arriving (a burst of stores is classified
#: after the burst).
CLASSIFIER_DEFER_S = 10.0
#: Queued checks kept in memory; beyond that they are found again from the cursor.
MAX_QUEUE = 50_000
#: Memories whose checked version `Checker.recent` remembers (a team store's sweep skips them).
RECENT_CHECKED = 200_000
#: The saved cursor trails the checks by at most this long (see `Checker._save_cursor`).
CURSOR_SAVE_INTERVAL_S = 1.0
#: Pairs waiting for the classifier (a few minutes of model time): beyond that the checks ask
#: it inline, so a sustained overload slows them down instead of growing memory.
MAX_BACKLOG = 5_000
#: Backlog pairs the classifier takes in one turn (fewer when a check falls due meanwhile).
CLASSIFY_BATCH = 32


def _stated_at(row: Row) -> int:
    """When the memory's current text was stated: ``created_at`` for the first text (it may be
    back-dated), the commit of the text update for a later one (an update is checked when its
    text commits; a later metadata-only update can move this forward — a known approximation,
    the store keeps no separate text time)."""
    return row.updated_at if row.version > 1 else row.created_at


def _newer(a: Row, b: Row) -> bool:
    """Which memory is the newer statement (ties broken by id, so a re-check never flips an
    edge)."""
    return (_stated_at(a), a.id) > (_stated_at(b), b.id)


class CheckerStats(NamedTuple):
    """The checker's figures (``stats`` → ``contradictions``)."""

    enabled: bool
    depth: int  # memories waiting to be checked
    checked: int  # memories checked since start
    pairs: int  # (memory, neighbour) pairs the detectors judged
    flagged: int  # pairs flagged as contradictions
    edges: int  # contradiction edges in the graph
    detect_ms_per_pair: float | None
    classifier: ClassifierStats
    lag_ms_p50: float | None  # from commit to checked, over the last 1,000 memories
    lag_ms_p95: float | None
    classifier_backlog: int  # pairs waiting for the classifier (the second stage)
    classifier_lag_ms_p50: float | None  # from commit to the classifier's decision, last 1,000 pairs
    classifier_lag_ms_p95: float | None
    cursor: str | None  # the newest memory checked
    checked_through: str | None  # every memory up to this time is checked
    recovered_at_start: int  # unchecked memories found at start and queued
    overflowed: int  # memories that did not fit the queue (found again from the store)
    errors: int
    last_error: str | None


class Checker:
    """The background contradiction checker (see the module docstring)."""

    def __init__(
        self,
        config: Config,
        store: MemoryStore,
        edges: EdgeStore,
        index: EdgeIndex,
        write: Callable[[list[Any]], Awaitable[list[Any]]],
        read_limiter: anyio.CapacityLimiter,
        cross_scores: Callable[[list[tuple[str, str]]], Awaitable[list[float] | None]] | None = None,
        busy: Callable[[], bool] | None = None,
        cache: NeighbourCache | None = None,
        trim: Callable[[], object] | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.edges = edges
        self.index = index
        self._write = write
        self._read_limiter = read_limiter
        self._cross_scores = cross_scores
        self._busy = busy
        self._trim = trim  # hands freed heap back to the system (after the model is unloaded)
        self.cache = cache if cache is not None else NeighbourCache(store, 0)
        self.classifier = Classifier(
            config.contradiction_classifier,
            config.contradiction_classifier_dir,
            config.contradiction_classifier_weight,
            config.contradiction_classifier_threads,
            config.contradiction_classifier_min_cosine,
            config.contradiction_classifier_idle_s,
        )
        self._queue: deque[tuple[str, int]] = deque()  # (id, commit stamp), in stamp order
        # rows handed over by the writer (saves re-reading them); absent after a restart
        self._rows: dict[str, Row] = {}
        self._wake = anyio.Event()
        self.cursor = 0
        self.newest = 0  # the newest commit stamp seen at start (recovery) or since
        self.checked = 0
        self.pairs = 0
        self.flagged = 0
        self.detect_ms = 0.0
        self.lag_ms: deque[float] = deque(maxlen=1000)
        self.errors = 0
        self.last_error: str | None = None
        self.recovered = 0
        self.overflowed = 0
        self.max_queue = MAX_QUEUE
        self._rescan = False
        self._hold: int | None = None
        self._dropped = 0  # dropped since the last rescan
        self._advanced = anyio.Event()
        self._rescan_from: int | None = None
        self.notified_through = 0
        self._saved_cursor = 0
        self._saved_at = 0.0
        self.backlog = Backlog(MAX_BACKLOG)
        self.classifier_lag_ms: deque[float] = deque(maxlen=1000)
        #: the version (commit stamp) of each memory checked lately, so that a team store's
        #: sweep (`sweep`) passes over what this daemon checked already
        self.recent: OrderedDict[str, int] = OrderedDict()

    @property
    def depth(self) -> int:
        """Memories waiting for their check."""
        return len(self._queue) + self._dropped

    def notify(self, committed: Iterable[tuple[str, int]], rows: Iterable[Row] = ()) -> None:
        """Queue committed (id, commit stamp) pairs, in commit order, optionally with the
        committed rows themselves. Never blocks. The queue is bounded (`max_queue`): what does
        not fit is found again from the store (everything committed after the oldest dropped
        stamp), and the saved cursor stays below it until then, so nothing is lost even across
        a restart."""
        if not self.config.contradiction_enabled:
            return
        for mid, stamp in committed:
            self.notified_through = max(self.notified_through, stamp)
            if len(self._queue) < self.max_queue:
                self._queue.append((mid, stamp))
            else:
                self._drop(stamp)
        if len(self._rows) < 10_000:
            for row in rows:
                self._rows[row.id] = row
        if self._queue or self._rescan:
            self._wake.set()

    def sweep(self, committed: Iterable[tuple[str, int]]) -> int:
        """Queue those of *committed* (id, commit stamp: every host's, in a team store) that
        this daemon has neither checked nor queued at that version; how many. The queue stays
        in stamp order."""
        if not self.config.contradiction_enabled:
            return 0
        queued = set(self._queue)
        fresh = [(m, s) for m, s in committed if self.recent.get(m) != s and (m, s) not in queued]
        if not fresh:
            return 0
        merged = sorted([*self._queue, *fresh], key=lambda p: p[1])
        self._queue = deque(merged[: self.max_queue])
        for _, stamp in merged[self.max_queue :]:
            self._drop(stamp)
        self._wake.set()
        return len(fresh)

    def _drop(self, stamp: int) -> None:
        self.overflowed += 1
        self._dropped += 1
        self._hold = stamp - 1 if self._hold is None else min(self._hold, stamp - 1)
        if self._rescan_from is not None:
            self._rescan_from = min(self._rescan_from, stamp - 1)
        self._rescan = True

    async def run(self, *, task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        if not self.config.contradiction_enabled:
            task_status.started()
            return
        self.cursor = await anyio.to_thread.run_sync(self.edges.read_cursor)
        self._saved_cursor = self.cursor
        pending = await anyio.to_thread.run_sync(self.store.updated_after, self.cursor, limiter=self._read_limiter)
        self.newest = max([self.cursor] + [stamp for _, stamp in pending])
        if pending:
            self.recovered = len(pending)
            log.info("contradiction_recovery", unchecked=len(pending), cursor=self.cursor)
            self.notify(pending)
        task_status.started()
        try:
            await self._loop()
        finally:  # shutdown: keep what was checked
            with anyio.CancelScope(shield=True):
                try:
                    await self._save_cursor(force=True)
                except Exception as exc:
                    log.warning("contradiction_cursor_not_saved", error=error_text(exc))

    async def _loop(self) -> None:
        backoff, failures = 0.5, 0
        while True:
            try:
                if not self._queue and self._rescan:
                    await self._refill()
                    continue
                if not self._queue and self._hold is not None:  # a rescan pass is complete
                    self._hold = None
                    self._advance()
                if self._queue and (not self.backlog or self._due()):  # checks go first
                    await self._yield_to_foreground()
                    batch = [self._queue.popleft() for _ in range(min(32, len(self._queue)))]
                    try:
                        await self._check(batch)
                    except Exception:
                        # not checked: back to the front of the queue, in order, so the cursor
                        # cannot pass them; retried after a pause
                        self._queue.extendleft(reversed(batch))
                        raise
                elif self.backlog and self._classify_due():
                    await self._classify()
                elif self.backlog:  # both stages wait for a quiet moment
                    await anyio.sleep(0.005)
                    continue
                else:
                    await self._save_cursor()
                    if self._queue or self._rescan:  # arrived while saving
                        continue
                    if self.classifier.release_due_in() == 0:  # (the loop's thread rule holds here)
                        if await anyio.to_thread.run_sync(self.classifier.release) and self._trim:
                            await anyio.to_thread.run_sync(self._trim)
                    self._wake = anyio.Event()
                    # idle: sleep until woken, the unsaved cursor is due or the model unused
                    with anyio.move_on_after(min(self._save_due_in(), self.classifier.release_due_in())):
                        await self._wake.wait()
                    continue
                self._advance()
                if failures:
                    log.info("contradiction_check_resumed", failures=failures)
                failures, backoff = 0, 0.5
            except Exception as exc:  # keep the worker alive (a store error, a full disk...)
                self.errors += 1
                failures += 1
                self.last_error = error_text(exc)
                if failures == 1:  # (one line per streak: a full disk fails every retry)
                    log.error("contradiction_check_failed", error=self.last_error, retry_in_s=backoff)
                await anyio.sleep(backoff)
                backoff = min(backoff * 2, 30.0)

    def _advance(self) -> None:
        self._advanced.set()
        self._advanced = anyio.Event()

    def safe_cursor(self) -> int:
        """Every memory committed at or before this stamp is checked, the classifier's pairs
        included."""
        safe = self.cursor
        if self._hold is not None:
            safe = min(safe, self._hold)
        if self._queue:
            safe = min(safe, self._queue[0][1] - 1)  # the queue is in stamp order
        floor = self.backlog.floor()
        if floor is not None:
            safe = min(safe, floor - 1)
        return safe

    async def wait_checked(self, stamp: int) -> None:
        """Wait until every memory committed at or before *stamp* is checked."""
        while self.config.contradiction_enabled and self.safe_cursor() < stamp:
            await self._advanced.wait()

    async def _refill(self) -> None:
        """After an overflow: queue again everything committed after the oldest dropped stamp
        (some of it was checked already: checks are idempotent). Runs only on an empty queue,
        so the queue stays in stamp order."""
        assert self._hold is not None
        start = self._hold if self._rescan_from is None else self._rescan_from
        again = await anyio.to_thread.run_sync(self.store.updated_after, start, limiter=self._read_limiter)
        self._rescan = False
        self._dropped = 0
        log.warning("contradiction_queue_rescan", memories=len(again))
        for mid, stamp in again[: self.max_queue]:
            self._queue.append((mid, stamp))
        if len(again) > self.max_queue:
            # the rest in the next pass; `_hold` keeps the saved cursor below all of it
            self._rescan = True
            self._rescan_from = again[self.max_queue - 1][1]
        else:
            self._rescan_from = None

    async def _check(self, batch: list[tuple[str, int]]) -> None:
        """The first stage: the detectors on a batch of queued memories and their neighbours."""
        rows: dict[str, Row] = {}
        missing = []
        stamps: dict[str, int] = {}
        for mid, stamp in batch:
            stamps.setdefault(mid, stamp)  # the oldest, when an insert and an update share a batch
            handed = self._rows.pop(mid, None)
            if handed is not None and handed.updated_at == stamp:
                rows[mid] = handed
            else:
                missing.append(mid)
        if missing:
            rows.update(await anyio.to_thread.run_sync(self.store.get_many, missing, limiter=self._read_limiter))
        # once per memory (an insert and an update of it may share a batch); deleted ones are gone
        present = [rows[mid] for mid in dict.fromkeys(mid for mid, _ in batch) if mid in rows]
        by_ns: dict[str, list[Row]] = {}
        for row in present:
            by_ns.setdefault(row.namespace, []).append(row)
        candidates: list[tuple[Row, list[tuple[Row, float]]]] = []
        for namespace, group in by_ns.items():
            hits = await anyio.to_thread.run_sync(
                self._neighbours, namespace, [r.vector for r in group], limiter=self._read_limiter
            )
            for row, found in zip(group, hits, strict=True):
                candidates.append((row, [(n, cos) for n, cos in found if n.id != row.id]))
        gate = await self._gate(candidates)
        # the edges these memories already have, copied on the event loop (the index changes there)
        known = {e.id: e for row, _ in candidates for e in self.index.of(row.id)}
        # the classifier's pairs wait in the backlog while it has room for all of them
        room = self.backlog.room
        upserts, deletes, asked, deferred = await anyio.to_thread.run_sync(self._detect, candidates, gate, known, room)
        cursor = max(stamp for _, stamp in batch)
        if upserts or deletes:  # most batches flag nothing and never touch the writer
            seen = {r.id: r.updated_at for row, found in candidates for r in (row, *(n for n, _ in found))}
            (written,) = await self._write([EdgeOp(upserts, deletes, seen)])
            for eid in deletes:
                self.index.remove(eid)
            for e in written:
                self.index.add(e)
        self.backlog.supersede([row for row, _ in candidates])
        now, queued_at = now_us(), time.monotonic()
        for p, stale in asked:
            if deferred:
                self.backlog.push(Asked(p, stamps[p.newer.id], stale, queued_at))
            else:
                self.classifier_lag_ms.append((now - stamps[p.newer.id]) / 1000)
        self.cursor = max(self.cursor, cursor)
        await self._save_cursor()
        for mid, stamp in batch:
            self.lag_ms.append((now - stamp) / 1000)
            self.recent[mid] = stamp
            self.recent.move_to_end(mid)
        while len(self.recent) > RECENT_CHECKED:
            self.recent.popitem(last=False)
        self.checked += len(candidates)

    def _classify_due(self) -> bool:
        """The second stage may run: the daemon is quiet, or the oldest backlog pair has waited
        ``CLASSIFIER_DEFER_S`` (background priority, as `_yield_to_foreground`)."""
        if self._busy is None or not self._busy():
            return True
        return time.monotonic() - self.backlog.first().queued_at >= CLASSIFIER_DEFER_S

    async def _classify(self) -> None:
        """The second stage: the classifier on the oldest backlog pairs, and the edges it flags
        written as a check writes them (``seen``: none to a memory deleted meanwhile)."""
        while self.backlog and self.backlog.first().superseded:
            self.backlog.pop()
        chunk = [a for a in itertools.islice(self.backlog, CLASSIFY_BATCH) if not a.superseded]
        if not chunk:
            return
        # their edges as the graph has them now, copied on the event loop (see `_check`)
        # (and their near-duplicate links, which a contradiction found now replaces)
        ids = (edge_id(k, a.pair.newer.id, a.pair.older.id) for a in chunk for k in (KIND, DUPLICATES))
        known = {eid: self.index.edges[eid] for eid in ids if eid in self.index.edges}
        # (not under the read limiter: like the detectors, the model reads no storage)
        upserts, deletes, done = await anyio.to_thread.run_sync(self._ask, chunk, known)
        if upserts or deletes:
            seen: dict[str, int] = {}
            for a in chunk[:done]:
                for r in (a.pair.newer, a.pair.older):  # the earliest read: a delete since counts
                    seen[r.id] = min(seen.get(r.id, r.updated_at), r.updated_at)
            (written,) = await self._write([EdgeOp(upserts, deletes, seen)])
            for eid in deletes:
                self.index.remove(eid)
            for e in written:
                self.index.add(e)
        now = now_us()
        while done:  # the decided pairs, and the superseded ones among them
            a = self.backlog.pop()
            if not a.superseded:
                done -= 1
                self.classifier_lag_ms.append((now - a.stamp) / 1000)
        await self._save_cursor()

    def _neighbours(self, namespace: str, vectors: list[Any]) -> list[list[tuple[Row, float]]]:
        """The nearest memories of *namespace* to each vector, the memory itself included
        (worker thread): from the in-memory copy of a small namespace, else the store."""
        hits = self.cache.search(namespace, vectors, NEIGHBOURS + 1)
        if hits is None:
            hits = self.store.vector_search_many(vectors, Filter(namespace=namespace), NEIGHBOURS + 1, near=True)
        return hits

    async def _yield_to_foreground(self) -> None:
        """Background priority: while stores or queries are being embedded or written, wait
        (and let more memories queue up, so one neighbour search serves several) — but never
        let the oldest queued memory wait more than ``MAX_DEFER_S``."""
        while self._queue and not self._due():
            await anyio.sleep(0.005)

    def _due(self) -> bool:
        """A check may run now (see `_yield_to_foreground`)."""
        if self._busy is None or not self._busy():
            return True
        age_s = (now_us() - self._queue[0][1]) / 1e6
        return age_s >= MAX_DEFER_S or len(self._queue) >= 32

    def _save_due_in(self) -> float:
        """Seconds until an unsaved cursor is due to be saved (infinite when all is saved)."""
        if self.safe_cursor() <= self._saved_cursor:
            return math.inf
        return max(0.0, self._saved_at + CURSOR_SAVE_INTERVAL_S - time.monotonic())

    async def _save_cursor(self, force: bool = False) -> None:
        """Persist the cursor (after the edges it covers are committed) at most once per
        ``CURSOR_SAVE_INTERVAL_S`` (a crash re-checks at most that much, which is idempotent),
        and on shutdown (*force*). Saving after every check cost stores ~10% latency (the
        fsync of a tiny file flushes the whole journal); the file is replaced atomically and
        not fsynced: after a power loss it may be older, never garbled."""
        now = time.monotonic()
        cursor = self.safe_cursor()
        if cursor <= self._saved_cursor:
            return
        if not force and now - self._saved_at < CURSOR_SAVE_INTERVAL_S:
            return
        await anyio.to_thread.run_sync(self.edges.write_cursor, cursor)
        self._saved_cursor, self._saved_at = cursor, now

    async def _gate(self, candidates: list[tuple[Row, list[tuple[Row, float]]]]) -> dict[tuple[str, str], float]:
        """Neighbour pairs that pass the similarity gate, with the score that passed them."""
        out: dict[tuple[str, str], float] = {}
        pairs = [(row, n, cos) for row, ns in candidates for n, cos in ns]
        use_cross = self.config.contradiction_gate_model in ("auto", "cross_encoder") and self._cross_scores is not None
        scores = None
        if use_cross and pairs:
            assert self._cross_scores is not None
            scores = await self._cross_scores([(row.text, n.text) for row, n, _ in pairs])
        only_cross = self.config.contradiction_gate_model == "cross_encoder" and scores is not None
        for k, (row, n, cos) in enumerate(pairs):
            if scores is not None and scores[k] >= self.config.contradiction_gate:
                out[(row.id, n.id)] = scores[k]
            elif not only_cross and cos >= self.config.contradiction_gate_cosine:
                # auto: the calibrated cosine gate stays a floor (the cross-encoder threshold
                # could not be calibrated without the real weights)
                out[(row.id, n.id)] = cos
        return out

    def _detect(
        self,
        candidates: list[tuple[Row, list[tuple[Row, float]]]],
        gate: dict[tuple[str, str], float],
        known: dict[str, Edge],
        room: int,
    ) -> tuple[list[Edge], list[str], list[tuple[Pair, str | None]], bool]:
        """Run the detectors (worker thread), and the classifier too unless its pairs fit in
        *room* backlog places. Returns edges to write, edge ids to delete, the pairs the
        classifier is asked about (each with its stale edge, left for the second stage to
        remove), and whether they are left to the second stage."""
        deletes: list[str] = []
        threshold = self.config.contradiction_threshold
        now = now_us()
        pairs: dict[tuple[str, str], Pair] = {}  # by (newer, older) ids
        for row, neighbours in candidates:
            # edges computed on an older text of this memory are stale
            for e in known.values():
                if row.id not in (e.source, e.target):
                    continue
                version = e.source_version if e.source == row.id else e.target_version
                if version != row.version:
                    deletes.append(e.id)
            gated = sorted(((n, cos) for n, cos in neighbours if (row.id, n.id) in gate), key=lambda h: -h[1])
            for rank, (n, cos) in enumerate(gated):
                newer, older = (row, n) if _newer(row, n) else (n, row)
                ask = rank < CLASSIFIED_NEIGHBOURS and newer is row  # ranked among the newer one's neighbours
                if (newer.id, older.id) in pairs:  # both memories of the pair are in this batch
                    pairs[(newer.id, older.id)].asked |= ask
                    continue
                # background work: let a store or query thread waiting for the interpreter
                # run now, not after the switch interval (5 ms) of pure-Python detectors
                time.sleep(0)
                t0 = time.perf_counter()
                pairs[(newer.id, older.id)] = Pair(newer, older, detect(newer.text, older.text), cos, ask)
                self.detect_ms += (time.perf_counter() - t0) * 1000
        self.pairs += len(pairs)
        found = list(pairs.values())
        asked: list[Pair] = []  # the pairs `Classifier.apply` asks about
        if self.classifier.mode != "off":
            asked = [p for p in found if p.asked and self.classifier.may_speak(p.detection, p.cosine, threshold)]
        deferred = bool(asked) and len(asked) <= room
        if deferred:
            detections = [p.detection for p in found]
        else:
            detections = self.classifier.apply(
                [(p.older.text, p.newer.text) for p in found],
                [p.detection for p in found],
                [p.cosine for p in found],
                threshold,
                [p.asked for p in found],
            )
        upserts, planned, dropped = self._edges(found, detections, known, now)
        stale = (set(deletes) - planned) | dropped
        later = [(p, edge_id(KIND, p.newer.id, p.older.id)) for p in asked]
        held = {eid for _, eid in later if eid in stale} if deferred else set()
        return upserts, sorted(stale - held), [(p, eid if eid in held else None) for p, eid in later], deferred

    def _ask(self, chunk: list[Asked], known: dict[str, Edge]) -> tuple[list[Edge], list[str], int]:
        """The second stage's model time (worker thread): the classifier on *chunk* in order,
        one pair at a time, until a check is due (a turn decides at least one pair). Returns
        edges to write, stale edge ids to delete, and how many pairs were decided."""
        threshold = self.config.contradiction_threshold
        found: list[Pair] = []
        detections: list[Detection] = []
        for a in chunk:
            # checks go first (`_due` only reads counters; only the event loop pops the queue,
            # and it is waiting for this thread)
            if found and self._queue and self._due():
                break
            p = a.pair
            (d,) = self.classifier.apply([(p.older.text, p.newer.text)], [p.detection], [p.cosine], threshold)
            found.append(p)
            detections.append(d)
        upserts, planned, dropped = self._edges(found, detections, known, now_us())
        deletes = set(dropped)
        for a, d in zip(chunk, detections, strict=False):  # (the decided ones)
            e = known.get(a.stale) if a.stale is not None else None
            if e is not None and not d.flagged(threshold):
                if (e.source_version, e.target_version) != (a.pair.newer.version, a.pair.older.version):
                    deletes.add(e.id)  # still the stale edge the check left here
        return upserts, sorted(deletes - planned), len(found)

    def _edges(
        self, found: list[Pair], detections: list[Detection], known: dict[str, Edge], now: int
    ) -> tuple[list[Edge], set[str], set[str]]:
        """Edges for the flagged pairs and the near duplicates (`dedup.on_store = link`), the
        ids of all of them, and the duplicates edges a flagged pair replaces: an edge already
        known with the same versions is kept as it is (with its resolution, if any)."""
        threshold = self.config.contradiction_threshold
        link = self.config.dedup_on_store == "link"
        upserts: list[Edge] = []
        planned: set[str] = set()
        dropped: set[str] = set()
        for p, d in zip(found, detections, strict=True):
            newer, older = p.newer, p.older
            flagged = d.flagged(threshold)
            if flagged:
                kind = KIND
                dup = edge_id(DUPLICATES, newer.id, older.id)
                if dup in known:  # in conflict after all (the classifier's second look)
                    dropped.add(dup)
            elif link and is_near_duplicate(newer.text, older.text, p.cosine, self.config.dedup_link_cosine, False):
                kind = DUPLICATES
            else:
                continue
            eid = edge_id(kind, newer.id, older.id)
            planned.add(eid)
            existing = known.get(eid)
            if (
                existing is not None
                and existing.source_version == newer.version
                and existing.target_version == older.version
            ):
                continue
            if flagged:
                self.flagged += 1
            edge = Edge(
                id=eid,
                kind=kind,
                source=newer.id,
                target=older.id,
                namespace=newer.namespace,
                confidence=d.confidence if flagged else round(p.cosine, 4),
                signals=tuple(s.as_dict() for s in d.signals),
                source_version=newer.version,
                target_version=older.version,
                created_at=now,
            )
            known[eid] = edge  # a pair the backlog holds twice gets one edge
            upserts.append(edge)
        return upserts, planned, dropped - planned

    def stats(self) -> CheckerStats:
        lag_p50, lag_p95 = _percentiles(self.lag_ms)
        classifier_p50, classifier_p95 = _percentiles(self.classifier_lag_ms)
        return CheckerStats(
            enabled=self.config.contradiction_enabled,
            depth=self.depth,
            checked=self.checked,
            pairs=self.pairs,
            flagged=self.flagged,
            edges=len(self.index.edges),
            detect_ms_per_pair=round(self.detect_ms / self.pairs, 4) if self.pairs else None,
            classifier=self.classifier.stats(),
            lag_ms_p50=lag_p50,
            lag_ms_p95=lag_p95,
            classifier_backlog=len(self.backlog),
            classifier_lag_ms_p50=classifier_p50,
            classifier_lag_ms_p95=classifier_p95,
            cursor=iso(self.cursor) if self.cursor else None,
            checked_through=iso(self.safe_cursor()) if self.safe_cursor() > 0 else None,
            recovered_at_start=self.recovered,
            overflowed=self.overflowed,
            errors=self.errors,
            last_error=self.last_error,
        )


def _percentiles(values: Iterable[float]) -> tuple[float | None, float | None]:
    """p50 and p95 of *values*, in ms to 0.1 (None without any)."""
    ordered = sorted(values)
    if not ordered:
        return None, None
    return round(ordered[len(ordered) // 2], 1), round(ordered[int(len(ordered) * 0.95)], 1)
