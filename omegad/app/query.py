"""The ``query`` handler: recall, heuristic scoring, rerank and dedup (`omegad.recall.pipeline`),
with an explain trace."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
import numpy as np
import numpy.typing as npt

from omegad.app.history import EDGE, Past, graph_at, in_force
from omegad.contradictions.edges import EdgeIndex
from omegad.recall.pipeline import Candidate, Trace, dedup, fuse, heuristic, recall_size, result_dict, supersede
from omegad.recall.when import Period, period
from omegad.requests import QueryParams
from omegad.storage.rows import Filter, Row
from omegad.timeutil import iso, now_us, to_micros

if TYPE_CHECKING:
    from omegad.app.service import Service


#: A newer near twin supersedes only when written at least this much later (a day: two notes of
#: one session are two facts, not an update).
SUPERSEDE_GAP_US = 86_400_000_000


async def query(svc: Service, p: QueryParams) -> dict[str, Any]:
    trace = Trace()
    flt = svc.filter_for(p)
    net = recall_size(p.limit)
    at = to_micros(p.as_of) if p.as_of is not None else None
    past: list[Row] = []  # ``as_of``: versions of then that are not current now
    graph: EdgeIndex | None = None
    if at is not None:
        await svc.pending.wait_namespace(flt.namespace)
        flt, past, graph = await _as_of(svc, flt, at)
    vector_hits: list[tuple[Row, float]] = []
    text_hits: list[tuple[Row, float]] = []
    vector: npt.NDArray[np.float32] | None = None

    def nearest() -> list[tuple[Row, float]]:
        assert vector is not None
        hits = _nearest(svc, flt, vector, net)
        if past:  # scored exactly: the past of one namespace after one time is small
            sims = np.stack([r.vector for r in past]) @ vector
            hits = hits + [(r, float(s)) for r, s in zip(past, sims, strict=True)]
            hits = sorted(hits, key=lambda h: (-h[1], h[0].id))[:net]
        return hits

    took: dict[str, float] = {}

    def timed(name: str, fn: Callable[[], list[tuple[Row, float]]]) -> list[tuple[Row, float]]:
        t0 = time.perf_counter()
        try:
            return fn()
        finally:
            took[name] = round((time.perf_counter() - t0) * 1000, 3)

    def text_matches() -> list[tuple[Row, float]]:
        return _matching(svc, flt, p.text, net)

    async def vector_recall() -> None:
        vector_hits.extend(await anyio.to_thread.run_sync(timed, "vector_ms", nearest, limiter=svc.read_limiter))

    # Stores acknowledged at the log before this query and not committed yet are scored
    # exactly beside what the searches find, once embedded (`_pending_hits`); where the
    # full-text search would not be answered in memory, the query waits for their commit.
    pending = svc.pending.of_namespace(flt.namespace) if at is None else []

    async def text_recall() -> None:
        text_hits.extend(await anyio.to_thread.run_sync(timed, "fts_ms", text_matches, limiter=svc.read_limiter))

    # The full-text search needs no embedding: it runs while the question is embedded, on
    # another core (docs/storage.md, "At scale").
    if p.rerank and svc.reranker.ready and not svc.reranker.resident:
        # out of memory after reranker.idle_s: loaded beside the question's embedding, not after it
        svc.tasks.start_soon(svc.reranker.preload)
    async with task_group() as tg:
        tg.start_soon(text_recall)
        waited: dict[str, float] = {}
        (vector,) = await svc.embed([p.text], urgent=True, timing=waited)
        trace.mark("embed", 1, **waited)
        await vector_recall()
    if pending:
        added = await _pending_hits(svc, p.text, vector, flt, pending, vector_hits, text_hits)
        if added is None:  # (the cache cannot score them: searched again once they are committed)
            await svc.pending.wait_namespace(flt.namespace)
            vector_hits.clear()
            text_hits.clear()
            async with task_group() as tg:
                tg.start_soon(text_recall)
                await vector_recall()
            added = 0
        took["pending_scored"] = added
    boost = svc.config.period_boost
    named = period(p.text, at or now_us()) if boost != 1.0 and p.since is None and p.until is None else None
    window = _within(flt, named) if named is not None else None
    if window is not None:  # the searches again, inside the period: its memories all compete
        assert vector is not None
        found = await anyio.to_thread.run_sync(_in_period, svc, window, vector, p.text, net, limiter=svc.read_limiter)
        took["period_vector"], took["period_fts"] = _merge(vector_hits, found[0]), _merge(text_hits, found[1])
    candidates = fuse(vector_hits, text_hits, svc.config)
    extra = {"as_of": iso(at), "past_versions": len(past)} if at is not None else {}
    trace.mark(
        "recall",
        len(candidates),
        vector=len(vector_hits),
        fts=len(text_hits),
        net=net,
        filter=flt.sql(),
        **extra,
        **took,
    )
    # as of a time, recency and the contradiction graph are those of then
    candidates = heuristic(candidates, svc.config, at or now_us(), svc.signals.factors, p.context)
    if named is not None:  # "incidents in Q3 2025": what was written then comes first
        since, until, words = named
        inside = [c for c in candidates if since <= c.row.created_at <= until]
        for c in inside:
            c.score *= boost
            c.period = boost
        candidates.sort(key=lambda c: (-c.score, c.row.id))
        trace.mark("period", len(inside), since=iso(since), until=iso(until), words=words, boost=boost)
    demote = svc.config.contradiction_demote_older
    edges = graph if graph is not None else svc.graph
    if demote != 1.0 and edges.edges:
        for c in candidates:
            if edges.demoted(c.row.id):
                c.score *= demote
                c.demoted = demote
        candidates.sort(key=lambda c: (-c.score, c.row.id))
    if svc.config.supersede_cosine > 0:
        n = supersede(candidates, svc.config.supersede_cosine, svc.config.supersede_factor, SUPERSEDE_GAP_US, 20)
        if n:
            trace.mark("supersede", n)
    trace.mark("heuristic", len(candidates), fusion=svc.config.fusion)
    top_k = svc.config.reranker_top_k
    top = candidates[:top_k]
    if not p.rerank:
        detail: dict[str, Any] = {"skipped": "turned off by the request (rerank=false)"}
    elif not top:
        detail = {"skipped": "no candidates"}
    elif svc.reranker.ready:
        detail = await svc.reranker.rerank(p.text, top)
        if "skipped" not in detail:
            candidates = sorted(top, key=lambda c: (-c.score, c.row.id)) + candidates[top_k:]
    else:
        svc.reranker.request()
        detail = {"skipped": f"reranker {svc.reranker.state}: {svc.reranker.detail}"}
    trace.mark("rerank", len(top), **detail)
    if p.include_duplicates:  # every copy, as stored
        results, dropped = candidates[: p.limit], 0
    else:
        candidates, folded = fold_duplicates(candidates, edges)
        if folded:
            trace.mark("duplicates", len(candidates), folded=folded)
        results, dropped = dedup(candidates, svc.config.dedup_cosine, p.limit)
    trace.mark("dedup", len(results), dropped=dropped)
    floor = p.min_score if p.min_score is not None else svc.config.min_score
    below = 0
    if floor > 0:  # results too weak to be an answer: none rather than noise
        kept = [c for c in results if c.score >= floor]
        below, results = len(results) - len(kept), kept
    trace.mark("floor", len(results), min_score=floor, dropped=below)
    budget: dict[str, Any] | None = None
    if p.max_tokens is not None and results:
        results, budget = await _fit(svc, results, p.max_tokens)
        trace.mark("budget", len(results), **{k: v for k, v in budget.items() if k != "left_out"})
    svc.signals.accessed(((c.row.id, c.row.namespace) for c in results), now_us())
    reply: dict[str, Any] = {"results": [svc.annotated(result_dict(c, p.explain), graph) for c in results]}
    if at is not None:
        reply["as_of"] = iso(at)
    if below:
        reply["dropped"] = {"below_min_score": below, "min_score": floor}
    if p.max_tokens is not None:
        reply["budget"] = budget or {"max_tokens": p.max_tokens, "used": 0, "left_out": []}
    if p.explain:
        reply["trace"] = trace.stages
    return reply


def _within(flt: Filter, named: Period) -> Filter | None:
    """*flt* narrowed to the period *named*; None when nothing can be in both."""
    since = named[0] if flt.since_us is None else max(flt.since_us, named[0])
    until = named[1] if flt.until_us is None else min(flt.until_us, named[1])
    return replace(flt, since_us=since, until_us=until) if since <= until else None


def _nearest(svc: Service, flt: Filter, vector: npt.NDArray[np.float32], net: int) -> list[tuple[Row, float]]:
    """The *net* memories nearest *vector* within *flt*: from the neighbour cache for a small
    namespace, else from the store (worker thread)."""
    cached = svc.neighbours.search(flt.namespace, [vector], net, flt)
    return cached[0] if cached is not None else svc.store.vector_search(vector, flt, net)


def _matching(svc: Service, flt: Filter, text: str, net: int) -> list[tuple[Row, float]]:
    """The *net* best full-text matches of *text* within *flt*: in memory for a small store,
    else from the store's index (worker thread)."""
    cached = svc.neighbours.text_search(flt.namespace, text, net, flt)
    return cached if cached is not None else svc.store.text_search(text, flt, net)


def _in_period(
    svc: Service, window: Filter, vector: npt.NDArray[np.float32], text: str, net: int
) -> tuple[list[tuple[Row, float]], list[tuple[Row, float]]]:
    """The vector and full-text searches of a question within *window* (worker thread)."""
    return _nearest(svc, window, vector, net), _matching(svc, window, text, net)


def _merge(hits: list[tuple[Row, float]], more: list[tuple[Row, float]]) -> int:
    """Add to *hits* those of *more* it lacks, keeping it sorted by score; how many were."""
    have = {r.id for r, _ in hits}
    new = [h for h in more if h[0].id not in have]
    if new:
        hits.extend(new)
        hits.sort(key=lambda h: (-h[1], h[0].id))
    return len(new)


async def _fit(svc: Service, results: list[Candidate], max_tokens: int) -> tuple[list[Candidate], dict[str, Any]]:
    """The results, in rank order, whose texts fit *max_tokens* (the embedding model's tokens):
    one that does not fit is left out, and smaller ones after it still go in."""
    counts = await anyio.to_thread.run_sync(
        svc.embedder.text_tokens, [c.row.text for c in results], limiter=svc.read_limiter
    )
    kept: list[Candidate] = []
    left_out: list[dict[str, Any]] = []
    used = 0
    for c, n in zip(results, counts, strict=True):
        if used + n <= max_tokens:
            kept.append(c)
            used += n
        else:
            left_out.append({"id": c.row.id, "tokens": n})
    return kept, {"max_tokens": max_tokens, "used": used, "left_out": left_out}


async def _pending_hits(
    svc: Service,
    text: str,
    vector: npt.NDArray[np.float32],
    flt: Filter,
    pending: list[Row],
    vector_hits: list[tuple[Row, float]],
    text_hits: list[tuple[Row, float]],
) -> int | None:
    """Add the stores *pending* when the query began (acknowledged, not committed) that the
    searches did not find, scored exactly: cosine to the question once they are embedded,
    and BM25 with the table's statistics. Returns how many were added; None when the
    neighbour cache cannot score their text (the caller waits for their commit instead)."""
    if not await svc.pending.wait_embedded(pending):
        await svc.pending.wait_namespace(flt.namespace)  # (then the typed error, or committed)
    # Each side on its own: a store committed between the two searches (the full-text one
    # runs first, beside the embedding) is found by the vector search only.
    by_vector = {r.id for r, _ in vector_hits}
    by_text = {r.id for r, _ in text_hits}
    rows = [
        replace(r)
        for r in pending
        if (r.id not in by_vector or r.id not in by_text) and len(r.vector) and flt.admits(r)
    ]
    if not rows:
        return 0
    scores = await anyio.to_thread.run_sync(
        svc.neighbours.text_scores, flt.namespace, text, rows, limiter=svc.read_limiter
    )
    if scores is None:
        return None
    unit = vector / (np.linalg.norm(vector) or 1.0)
    for row, bm in zip(rows, scores, strict=True):
        if row.id not in by_vector:
            v = np.asarray(row.vector, dtype=np.float32)
            vector_hits.append((row, float(v @ unit / (np.linalg.norm(v) or 1.0))))
        if bm > 0 and row.id not in by_text:
            text_hits.append((row, bm))
    vector_hits.sort(key=lambda h: (-h[1], h[0].id))
    text_hits.sort(key=lambda h: (-h[1], h[0].id))
    return len(rows)


async def _as_of(svc: Service, flt: Filter, at: int) -> tuple[Filter, list[Row], EdgeIndex]:
    """What a query as of *at* searches: the current rows that were already current then (a
    filter), the versions of then that are not current now (rows, scored exactly), and the
    contradiction graph of then."""

    def read() -> tuple[dict[str, Past], list[Past]]:
        history = svc.writer.history
        force = in_force(history.ending_after(flt.namespace, at), at)
        return force, history.edges_of(force) if force else []

    force, removed = await anyio.to_thread.run_sync(read, limiter=svc.read_limiter)
    until = at if flt.until_us is None else min(flt.until_us, at)
    # a memory with a record ending after *at* was, then, that record's version
    narrowed = replace(flt, until_us=until, exclude_ids=tuple(sorted({*flt.exclude_ids, *force})))
    hidden = set(flt.exclude_ids)
    past = [r for r in (p.row() for p in force.values()) if r.id not in hidden and _passes(r, narrowed)]
    live = [e for e in svc.graph.edges.values() if e.namespace == flt.namespace]
    return narrowed, past, graph_at(live, [p for p in removed if p.kind == EDGE], at)


def fold_duplicates(candidates: list[Candidate], graph: EdgeIndex) -> tuple[list[Candidate], int]:
    """Each group of near duplicates (``duplicates`` edges) among *candidates* shown once: by
    its newest member, at the rank of the group's best. Returns the list and how many were
    folded away. Looks up the candidates' own edges only (queries are a hot path; the graph is
    not scanned)."""
    by_id = {c.row.id: c for c in candidates}
    shown: set[str] = set()
    out: list[Candidate] = []
    for c in candidates:
        if c.row.id in shown:
            continue
        group = _group(c.row.id, graph, by_id)
        shown |= group
        newest = max((by_id[m] for m in group), key=lambda x: (x.row.created_at, x.row.id))
        if newest is not c:
            newest.score = max(newest.score, c.score)
        out.append(newest)
    return out, len(candidates) - len(out)


def _group(start: str, graph: EdgeIndex, among: dict[str, Candidate]) -> set[str]:
    """The candidates linked to *start* by ``duplicates`` edges, through candidates only."""
    group, todo = {start}, [start]
    while todo:
        for other in graph.duplicates_of(todo.pop()):
            if other in among and other not in group:
                group.add(other)
                todo.append(other)
    return group


def _passes(row: Row, flt: Filter) -> bool:
    """`Filter.sql` on a row of the history (its namespace aside; exclusions are the caller's)."""
    if flt.types and row.type not in flt.types:
        return False
    if flt.tags and not set(flt.tags).intersection(row.tags):
        return False
    if flt.since_us is not None and row.created_at < flt.since_us:
        return False
    return flt.until_us is None or row.created_at <= flt.until_us


@asynccontextmanager
async def task_group() -> AsyncIterator[anyio.abc.TaskGroup]:
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
