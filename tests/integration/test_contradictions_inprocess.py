"""The contradiction checker inside a real `Service`, where its queue bound can be lowered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from omegad.app import admin, graph, memories
from omegad.app import writer as writer_module
from omegad.app.service import Service
from omegad.app.writer import DELETES_REMEMBERED
from omegad.requests import ContradictionsParams, DeleteParams, FlushParams, StoreBatchParams, StoreParams

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
            await memories.store_batch(service, StoreBatchParams(items=(item,)))
        gate.set()
        await admin.flush(service, FlushParams())
        stats = service.checker.stats()
        assert stats.overflowed > 0 and stats.depth == 0
        edges = (await graph.contradictions(service, ContradictionsParams(namespace="q")))["contradictions"]
        assert [(e["old"]["text"], e["new"]["text"]) for e in edges] == [
            ("The user prefers dark mode in every editor", "The user switched to light mode in every editor")
        ]
        assert service.checker._hold is None  # the saved cursor may move on again

    run_service(tmp_path, body)


@pytest.mark.parametrize("remembered", [DELETES_REMEMBERED, 0])
def test_an_edge_to_a_memory_deleted_during_its_check_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, remembered: int
) -> None:
    """The old side of a flagged pair is deleted after the checker read it and before its
    edge reaches the writer: the writer refuses the edge — from the deletes it remembers, or
    (*remembered* = 0: every delete forgotten at once) by asking the store."""
    monkeypatch.setattr(writer_module, "DELETES_REMEMBERED", remembered)
    old_text = "The user prefers dark mode in every editor"
    new_text = "The user switched to light mode in every editor"

    async def body(service: Service) -> None:
        # control: without the delete the pair is flagged
        await memories.store_one(service, StoreParams(text=old_text, namespace="control"))
        await memories.store_one(service, StoreParams(text=new_text, namespace="control"))
        await admin.flush(service, FlushParams())
        control = (await graph.contradictions(service, ContradictionsParams(namespace="control")))["contradictions"]
        assert len(control) == 1

        write = service.checker._write
        held, release = anyio.Event(), anyio.Event()

        async def gated(ops: list[Any]) -> list[Any]:
            held.set()
            await release.wait()
            return await write(ops)

        service.checker._write = gated
        old = await memories.store_one(service, StoreParams(text=old_text, namespace="d"))
        await memories.store_one(service, StoreParams(text=new_text, namespace="d"))
        with anyio.fail_after(60):
            await held.wait()  # the edge is computed, not yet written
        await memories.delete(service, DeleteParams(id=old["id"]))
        release.set()
        await admin.flush(service, FlushParams())
        assert (await graph.contradictions(service, ContradictionsParams(namespace="d")))["contradictions"] == []
        assert service.graph.of(old["id"]) == []

    run_service(tmp_path, body)


async def _two_memories_and_their_edge(service: Service) -> tuple[str, Any, dict[str, int]]:
    """An older and a newer memory, checked, and an edge from the newer to the older (not yet
    written); returns the older one's id, the edge and the commit stamps it was decided on."""
    from omegad.contradictions.edges import KIND, Edge, edge_id

    old = await memories.store_one(service, StoreParams(text="The deploy runs from main", namespace="d"))
    new = await memories.store_one(service, StoreParams(text="The deploy no longer runs from main", namespace="d"))
    await admin.flush(service, FlushParams())
    rows = service.store.get_many([old["id"], new["id"]])
    edge = Edge(
        id=edge_id(KIND, new["id"], old["id"]),
        kind=KIND,
        source=new["id"],
        target=old["id"],
        namespace="d",
        confidence=0.9,
        signals=(),
        source_version=rows[new["id"]].version,
        target_version=rows[old["id"]].version,
        created_at=1,
    )
    return old["id"], edge, {m: r.updated_at for m, r in rows.items()}


def test_a_delete_decided_before_the_graph_knew_of_an_edge_still_removes_it(tmp_path: Path) -> None:
    """An edge is committed, then a delete of one of its memories reaches the writer, decided
    on the event loop before the graph learned of the edge (`has_edges` False): the writer
    removes the edge anyway, so no edge to a deleted memory is kept or exported (seen once in
    a soak: 'export: edge … has a side that is not live')."""
    from omegad.app.ops import DeleteOp
    from omegad.contradictions.edges import EdgeOp

    async def body(service: Service) -> None:
        old, edge, seen = await _two_memories_and_their_edge(service)
        (written,) = await service.write([EdgeOp([edge], [], seen)])
        assert [e.id for e in written] == [edge.id]
        (deleted,) = await service.write([DeleteOp(old, has_edges=False)])
        assert deleted is True
        left = await anyio.to_thread.run_sync(service.edges.load)
        assert [e for e in left if old in (e.source, e.target)] == []

    run_service(tmp_path, body)


def test_an_edge_written_in_the_batch_that_deletes_its_memory_is_not_reported_written(tmp_path: Path) -> None:
    """One writer batch: an edge, then a delete of one of its memories. The edge's writer
    (the checker, `resolve`) adds what the write reports to the in-memory graph, so the report
    must leave the edge out; otherwise a query annotated a live memory as contradicting a
    deleted one until the daemon restarted."""
    from omegad.app.ops import DeleteOp
    from omegad.contradictions.edges import EdgeOp

    async def body(service: Service) -> None:
        old, edge, seen = await _two_memories_and_their_edge(service)
        written, deleted = await service.write([EdgeOp([edge], [], seen), DeleteOp(old, has_edges=False)])
        assert deleted is True and written == []
        left = await anyio.to_thread.run_sync(service.edges.load)
        assert [e for e in left if old in (e.source, e.target)] == []

    run_service(tmp_path, body)
