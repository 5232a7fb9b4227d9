"""Watchers the service runs for as long as it serves: the data directory (deleted or
replaced), the embedding model's files (reloaded once fixed, reported once damaged), the
models' residence (dropped from memory once unused for their ``idle_s``), and the heap, handed
back to the system when the daemon is quiet."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import structlog

from omegad.app import heap
from omegad.errors import error_text
from omegad.models.files import damaged_files, embedding_dir, files_signature

if TYPE_CHECKING:
    from omegad.app.service import Service

__all__ = [
    "RELEASE_CHECK_S",
    "RELOAD_S",
    "TRIM_BUSY_S",
    "TRIM_QUIET_S",
    "WATCH_S",
    "release_idle_models",
    "trim_heap_when_quiet",
    "watch_data_dir",
    "watch_embedder",
]

log = structlog.get_logger("omegad")

#: How often the data directory is checked for having been deleted or replaced.
WATCH_S = 5.0
#: How often, without an embedding model, its files are checked for a change (then reloaded).
RELOAD_S = 2.0
#: How often, at most, models that may have become idle are looked at (`release_idle_models`).
RELEASE_CHECK_S = 5.0
#: Freed heap goes back to the system after this long without a request (`trim_heap_when_quiet`)…
TRIM_QUIET_S = 1.0
#: …or this often under a steady load (less often left the daemon bigger at the same latency:
#: docs/storage.md, "At scale").
TRIM_BUSY_S = 5.0


async def watch_data_dir(svc: Service) -> None:
    """Notice a deleted or replaced data directory even while nothing is written."""
    while not svc.faults.active("data_dir_missing"):
        await anyio.sleep(WATCH_S)
        await anyio.to_thread.run_sync(svc.faults.data_dir_ok, limiter=svc.read_limiter)


async def watch_embedder(svc: Service) -> None:
    """Watch the embedding model's files: reload the model once they change while it is
    unavailable; report them damaged once they change under a loaded model (it keeps
    serving from memory, but the next start would fail)."""
    assert svc.load_embedder is not None
    directory = embedding_dir(svc.config.embedding_model_dir, svc.config.model_cache_dir)
    seen = await anyio.to_thread.run_sync(files_signature, directory)
    while True:
        await anyio.sleep(RELOAD_S)
        now = await anyio.to_thread.run_sync(files_signature, directory)
        if now == seen:
            continue
        seen = now
        if svc.embedder.loaded:
            await _check_embedding_files(svc, directory)
        else:
            await _reload_embedder(svc, directory)


async def _check_embedding_files(svc: Service, directory: Path) -> None:
    """The loaded model's files changed: do they still load as the same model?"""
    assert svc.load_embedder is not None
    damaged = await anyio.to_thread.run_sync(damaged_files, directory)
    problem = f"{', '.join(damaged)} in {directory} fail their hash check" if damaged else None
    if problem is None:
        try:  # (no hashes recorded for a model dir of the user's own: loading is the check)
            probe = await anyio.to_thread.run_sync(svc.load_embedder, limiter=svc.embed_limiter)
        except Exception as exc:
            problem = error_text(exc)
        else:
            if (probe.model_id, probe.dim) != (svc.embedder.model_id, svc.embedder.dim):
                problem = f"{directory} now holds {probe.model_id} (dim {probe.dim}), not {svc.embedder.model_id}"
            del probe
    if problem is None:
        svc.faults.clear("model_damaged")
    else:
        svc.faults.report("model_damaged", problem)


async def _reload_embedder(svc: Service, directory: Path) -> None:
    """Degraded without an embedding model: its files changed (``omegad models fetch``, a
    fixed ``embedding.model_dir``), so try loading it again."""
    assert svc.load_embedder is not None
    try:
        embedder = await anyio.to_thread.run_sync(svc.load_embedder, limiter=svc.embed_limiter)
    except Exception as exc:
        svc.faults.report("embedder", error_text(exc))
        return
    if (embedder.model_id, embedder.dim) != (svc.embedder.model_id, svc.embedder.dim):
        svc.faults.report(
            "embedder",
            f"{directory} holds {embedder.model_id} (dim {embedder.dim}), but the store was built "
            f"with {svc.embedder.model_id} (dim {svc.embedder.dim})",
        )
        return
    svc.embedder = embedder
    svc.faults.clear("embedder", "model_damaged")
    log.info("embedder_ready", model=embedder.model_id, variant=embedder.files.variant)


async def trim_heap_when_quiet(svc: Service) -> None:
    """Hand the heap that requests freed back to the system (`heap.trim`) once the daemon
    has been quiet for `TRIM_QUIET_S` after answering some, and at least every
    `TRIM_BUSY_S` under a steady load. Queries and stores allocate and free result batches,
    tokens and activations in many threads; glibc keeps what they free unless asked
    (docs/storage.md, "At scale"). A trim takes a few milliseconds and holds malloc's locks
    meanwhile, so it runs when nothing waits for them."""
    trimmed_at = seen = svc.calls
    last = time.monotonic()
    await anyio.to_thread.run_sync(heap.trim)  # what loading the models and opening the store freed
    while True:
        await anyio.sleep(TRIM_QUIET_S)
        calls, quiet = svc.calls, svc.calls == seen
        seen = calls
        if calls != trimmed_at and (quiet or time.monotonic() - last >= TRIM_BUSY_S):
            await anyio.to_thread.run_sync(heap.trim)
            trimmed_at, last = calls, time.monotonic()
            svc.heap_trims += 1


async def release_idle_models(svc: Service) -> None:
    """Drop the embedding model and the reranker from memory once each has been unused for
    its ``idle_s`` (`Embedder.release`, `Reranker.release`), and hand the freed heap back: a
    daemon left alone between sessions holds the libraries and the store, not the weights.
    The next call that needs a model loads it again in its worker thread (~0.1–0.2 s)."""

    def embedder_due() -> float:
        # a model whose files no longer load keeps serving from memory: never released
        return math.inf if svc.faults.active("model_damaged") else svc.embedder.release_due_in()

    while True:
        await anyio.sleep(min(embedder_due(), svc.reranker.release_due_in(), RELEASE_CHECK_S))
        released = []
        if embedder_due() == 0 and await anyio.to_thread.run_sync(svc.embedder.release):
            released.append("embedding")
        if await svc.reranker.release():
            released.append("reranker")
        if released:
            await anyio.to_thread.run_sync(heap.trim)
            rss = heap.rss_bytes()
            log.info("models_released", models=released, rss_mib=round(rss / 2**20, 1) if rss else None)
