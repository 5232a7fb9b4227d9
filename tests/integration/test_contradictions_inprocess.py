"""The contradiction checker inside a real `Service`, where its queue bound can be lowered."""

from __future__ import annotations

from pathlib import Path

import anyio

from omegad.schema import ContradictionsParams, FlushParams, StoreBatchParams, StoreParams
from omegad.service import Service

from .test_rerank_inprocess import run_service


def test_a_full_queue_loses_no_check(tmp_path: Path) -> None:
    """More commits than the queue holds: the overflow is found again from the store, flush
    waits for it, and the contradiction among the dropped memories is still flagged."""

    async def body(service: Service) -> None:
        service.checker.max_queue = 2
        # hold the checker until every commit is in, so the queue overflows for certain
        gate = anyio.Event()
        check = service.checker._check

        async def gated(batch: list[tuple[str, int]]) -> None:
            await gate.wait()
            await check(batch)

        service.checker._check = gated  # type: ignore[method-assign]
        fillers = [
            "The billing service keeps invoices in S3",
            "Deploys happen from the release branch",
            "The search page caches results for anonymous users",
            "Alerts for the queue go to the on-call channel",
            "Mobile builds are signed on the CI runner",
            "Translations live in the locales folder",
            "The admin panel requires two-factor login",
            "Backups are encrypted with the ops key",
            "Feature flags are read at startup",
            "The docs site is generated from Markdown",
        ]
        items = [StoreParams(text=t, namespace="q") for t in fillers] + [
            StoreParams(text="The user prefers dark mode in every editor", namespace="q"),
            StoreParams(text="The user switched to light mode in every editor", namespace="q"),
        ]
        for item in items:  # one commit each
            await service.store_batch(StoreBatchParams(items=(item,)))
        gate.set()
        await service.flush(FlushParams())
        stats = service.checker.stats()
        assert stats["overflowed"] > 0 and stats["depth"] == 0
        edges = (await service.contradictions(ContradictionsParams(namespace="q")))["contradictions"]
        assert [(e["old"]["text"], e["new"]["text"]) for e in edges] == [
            ("The user prefers dark mode in every editor", "The user switched to light mode in every editor")
        ]
        assert service.checker._hold is None  # the saved cursor may move on again

    run_service(tmp_path, body)
