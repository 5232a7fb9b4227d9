"""The ``stats`` handler: every component's figures, composed into one reply."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import anyio

from omegad.app import heap

if TYPE_CHECKING:
    from omegad.app.service import Service


def plain(record: Any) -> Any:
    """A component's typed figures (`NamedTuple`s, nested) as the reply's maps."""
    if isinstance(record, tuple) and hasattr(record, "_fields"):
        return {k: plain(v) for k, v in cast(NamedTuple, record)._asdict().items()}
    return record


async def stats(svc: Service, _: Any) -> dict[str, Any]:
    def collect() -> dict[str, Any]:
        out = {
            "counts": svc.store.counts(),
            "disk_bytes": svc.store.disk_bytes(),
            "index": svc.store.index_state(),
            "health": svc.store.health(),
        }
        heap.trim()  # the counts scan every row, and glibc would keep what that freed
        return out

    def memory() -> dict[str, Any]:
        import pyarrow as pa

        return {
            "rss_bytes": heap.rss_bytes(),
            "lance_cache_bytes": svc.store.cache_bytes(),
            "arrow_bytes": int(pa.total_allocated_bytes()),
            "malloc": heap.usage(),
            "trims": svc.heap_trims,
        }

    health = await svc.health()
    # the counts include stores acknowledged at the log (their commits are one group away),
    # unless writes are failing: those wait in the log then, and `store.pending` counts them
    await svc.pending.settle(svc.config.pending_wait_s, give_up=svc.writes_failing)
    try:
        data = await anyio.to_thread.run_sync(collect, limiter=svc.read_limiter)
    except Exception as exc:  # degraded: say what is known
        typed = svc.faults.storage_error(exc, "stats")
        if typed is None:
            raise
        data = {"counts": {}, "disk_bytes": None, "index": {}, "health": {"error": typed.message}}
    mem = await anyio.to_thread.run_sync(memory, limiter=svc.read_limiter)
    counts: dict[str, dict[str, int]] = data["counts"]
    return {
        **health,
        "memories": sum(sum(t.values()) for t in counts.values()),
        "namespaces": {ns: {"total": sum(t.values()), "types": t} for ns, t in sorted(counts.items())},
        "disk_bytes": data["disk_bytes"],
        "index": data["index"],
        "queues": {
            "embedder": {
                "depth": svc.embedder_batcher.depth,
                "batches": svc.embedder_batcher.batches,
                "ran_beside": svc.embedder_batcher.ran_beside,
            },
            "writer": {
                "depth": svc.write_queue.depth,
                "commits": svc.write_queue.batches,
                "rows": svc.write_queue.items,
                "errors": svc.write_errors,
            },
            "background": {
                "depth": svc.jobs.depth,
                "dropped": svc.jobs.dropped,
                "failed": svc.jobs.failed,
                "last_error": svc.jobs.last_error,
            },
        },
        "contradictions": plain(svc.checker.stats()),
        "events": plain(svc.events.stats()),
        "store": {
            **data["health"],
            "disk_bytes": data["disk_bytes"],
            "wal": plain(svc.writer.wal.stats()),
            "pending": svc.pending.figures(),
            "cache": plain(svc.neighbours.stats()),
            "text_keys": svc.text_keys.figures(),
            "lance_cache_bytes": svc.store.cache_bytes(),
            "index_cache": {
                "bound_mb": svc.store.cache_mb[0],
                "need_mb": svc.store.index_cache_need_mb,
                "auto": svc.store.cache_auto,
            },
            "recovery_at_start": svc.recovery,
            "mode": "local" if svc.team is None else "team",
        },
        "team": svc.team.describe() if svc.team is not None else None,
        "lifecycle": {
            "signals": len(svc.signals.by_id),
            "hidden": svc.signals.hidden_count,
            "unsaved_access_counts": len(svc.signals.dirty),
        },
        "maintenance": plain(svc.scheduler.stats()),
        "models": {
            "embedding": {
                # ready; unavailable (not loaded: stores and queries refused); damaged
                # (serving from memory, but its files on disk no longer load)
                "state": (
                    "unavailable"
                    if not svc.embedder.loaded
                    else "damaged"
                    if svc.faults.active("model_damaged")
                    else "ready"
                ),
                "error": svc.faults.detail("embedder") or svc.faults.detail("model_damaged"),
                "model": svc.embedder.model_id,
                "variant": svc.embedder.files.variant,
                "graph": svc.embedder.graph,
                "dim": svc.embedder.dim,
                "threads": svc.embedder.threads,
                # False: released after embedding.idle_s unused; the next embedding loads it again
                "resident": svc.embedder.resident,
                "loads": svc.embedder.loads,
                "releases": svc.embedder.releases,
                "load_ms": round(svc.embedder.load_ms, 1),
            },
            "reranker": {**svc.reranker.describe(), **svc.reranker.counters()},
        },
        "memory": mem,
        "uptime_s": round(time.monotonic() - svc.started, 3),
    }
