"""The ``query`` handler: recall, heuristic scoring, rerank and dedup (`omegad.recall.pipeline`),
with an explain trace."""

from __future__ import annotations

import functools
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
import numpy as np
import numpy.typing as npt

from omegad.recall.pipeline import Trace, dedup, fuse, heuristic, recall_size, result_dict
from omegad.requests import QueryParams
from omegad.storage.rows import Row
from omegad.timeutil import now_us

if TYPE_CHECKING:
    from omegad.app.service import Service


async def query(svc: Service, p: QueryParams) -> dict[str, Any]:
    trace = Trace()
    flt = svc.filter_for(p)
    net = recall_size(p.limit)
    vector_hits: list[tuple[Row, float]] = []
    text_hits: list[tuple[Row, float]] = []
    vector: npt.NDArray[np.float32] | None = None

    def nearest() -> list[tuple[Row, float]]:
        assert vector is not None
        cached = svc.neighbours.search(flt.namespace, [vector], net, flt)  # a small namespace
        return cached[0] if cached is not None else svc.store.vector_search(vector, flt, net)

    took: dict[str, float] = {}

    def timed(name: str, fn: Callable[[], list[tuple[Row, float]]]) -> list[tuple[Row, float]]:
        t0 = time.perf_counter()
        try:
            return fn()
        finally:
            took[name] = round((time.perf_counter() - t0) * 1000, 3)

    async def vector_recall() -> None:
        vector_hits.extend(await anyio.to_thread.run_sync(timed, "vector_ms", nearest, limiter=svc.read_limiter))

    async def text_recall() -> None:
        search = functools.partial(svc.store.text_search, p.text, flt, net)
        text_hits.extend(await anyio.to_thread.run_sync(timed, "fts_ms", search, limiter=svc.read_limiter))

    # The full-text search needs no embedding: it runs while the question is embedded, on
    # another core (docs/storage.md, "At scale").
    async with task_group() as tg:
        tg.start_soon(text_recall)
        (vector,) = await svc.embed([p.text])
        trace.mark("embed", 1)
        await vector_recall()
    candidates = fuse(vector_hits, text_hits, svc.config)
    trace.mark(
        "recall", len(candidates), vector=len(vector_hits), fts=len(text_hits), net=net, filter=flt.sql(), **took
    )
    candidates = heuristic(candidates, svc.config, now_us(), svc.signals.factors, p.context)
    demote = svc.config.contradiction_demote_older
    if demote != 1.0 and svc.graph.edges:
        for c in candidates:
            if svc.graph.demoted(c.row.id):
                c.score *= demote
                c.demoted = demote
        candidates.sort(key=lambda c: (-c.score, c.row.id))
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
    results, dropped = dedup(candidates, svc.config.dedup_cosine, p.limit)
    trace.mark("dedup", len(results), dropped=dropped)
    svc.signals.accessed(((c.row.id, c.row.namespace) for c in results), now_us())
    reply: dict[str, Any] = {"results": [svc.annotated(result_dict(c, p.explain)) for c in results]}
    if p.explain:
        reply["trace"] = trace.stages
    return reply


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
