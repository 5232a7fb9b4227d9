"""Handlers of the service itself: hello, ping, maintain, flush."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import anyio

from omegad import __version__
from omegad.errors import ServiceError
from omegad.requests import FlushParams
from omegad.worker import wait_until
from omegad_client.protocol import PROTOCOL_VERSION

if TYPE_CHECKING:
    from omegad.app.service import Service


async def hello(svc: Service, _: Any) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL_VERSION,
        "daemon_version": __version__,
        "embedding": {
            "model": svc.embedder.model_id,
            "variant": svc.embedder.files.variant,
            "dim": svc.embedder.dim,
        },
        "reranker": svc.reranker.describe(),
        **await svc.health(),
    }


async def ping(svc: Service, _: Any) -> dict[str, Any]:
    return {}


async def maintain(svc: Service, _: Any) -> dict[str, Any]:
    """Run a maintenance pass now (`omegad maintain`) and return its report; it covers the
    stores acknowledged before it (those still pending are committed first, unless writes
    are failing: a pass on a full disk is what frees the space they need)."""
    await svc.pending.settle(svc.config.pending_wait_s, give_up=svc.writes_failing)
    report = await svc.scheduler.run_pass(True, "requested")
    if not report.get("cleanup_only"):
        svc.scheduler.pass_worked()
        svc.scheduler.maybe_build_vector_index(report)
    return report


async def flush(svc: Service, p: FlushParams) -> dict[str, Any]:
    """Wait for the writes queued before this call, then for the background jobs queued
    before it or by those writes' commits."""
    started = time.perf_counter()
    deadline = None if p.timeout is None else time.monotonic() + p.timeout

    def left() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    # stores acknowledged at the log first: their commits are what the rest waits for
    ok = await svc.pending.settle(left())
    ok = ok and await wait_until(svc.write_queue.progress, svc.write_queue.progress.submitted, left())
    ok = ok and await wait_until(svc.jobs.progress, svc.jobs.progress.submitted, left())
    ok = ok and await _finishes_within(svc.checker.wait_checked(svc.checker.notified_through), left())
    # the checker's own edge writes are queued behind it
    ok = ok and await wait_until(svc.write_queue.progress, svc.write_queue.progress.submitted, left())
    if not ok:
        raise ServiceError(
            f"background work still pending after {p.timeout} s",
            {
                "pending": len(svc.pending),
                "writer": svc.write_queue.depth,
                "background": svc.jobs.depth,
                "contradictions": svc.checker.depth,
                "classifier_backlog": len(svc.checker.backlog),
            },
            code="timeout",
        )
    return {"waited_ms": round((time.perf_counter() - started) * 1000, 3)}


async def _finishes_within(waiting: Any, timeout: float | None) -> bool:
    """Await the coroutine *waiting*: True once it finished, False (it is closed) after *timeout* s."""
    with anyio.move_on_after(float("inf") if timeout is None else timeout):
        await waiting
        return True
    waiting.close()
    return False
