"""The pair classifier as the checker's second stage: its pairs wait in a backlog after the
detectors' check, ``flush`` and the saved cursor wait for them, a memory deleted or given a new
text meanwhile gets no stale edge, and a full backlog sends them back inline with the same
edges. In the real daemon, and inside a real `Service` where the second stage can be held."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from omegad.app import admin, graph, memories
from omegad.app.service import Service
from omegad.contradictions.checker import Checker, CheckerStats
from omegad.requests import ContradictionsParams, DeleteParams, FlushParams, StoreParams, UpdateParams

from ..helpers import Daemon
from .test_contradiction_classifier import NEWER, OLDER
from .test_rerank_inprocess import run_service

UNRELATED = "The office plants are watered every Friday morning."


def test_a_pair_only_the_classifier_flags_is_listed_after_flush(shared_daemon: Daemon, ns: str) -> None:
    """Through the real client, every time: store, flush, and the classifier's edge is there."""
    with shared_daemon.client() as c:
        for k in range(3):
            old = c.store(OLDER, namespace=f"{ns}-{k}", created_at="2026-01-01T00:00:00Z")
            new = c.store(NEWER, namespace=f"{ns}-{k}", created_at="2026-03-01T00:00:00Z")
            c.flush()
            (edge,) = c.contradictions(namespace=f"{ns}-{k}")
            assert (edge["source"], edge["target"]) == (new, old)
            assert [s["kind"] for s in edge["signals"]] == ["classifier"]


def test_stats_show_the_classifier_stage(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store(OLDER, namespace=ns, created_at="2026-01-01T00:00:00Z")
        c.store(NEWER, namespace=ns, created_at="2026-03-01T00:00:00Z")
        c.flush()
        stats = c.stats()["contradictions"]
    assert set(stats) == set(CheckerStats._fields)
    assert {"classifier_backlog", "classifier_lag_ms_p50", "classifier_lag_ms_p95"} <= set(stats)
    assert stats["classifier_backlog"] == 0  # flush waited for it
    assert stats["classifier_lag_ms_p50"] is not None and stats["classifier_lag_ms_p95"] is not None


def _hold_second_stage(checker: Checker) -> anyio.Event:
    """Keep the classifier stage from running until the returned event is set (the checks
    still run)."""
    release = anyio.Event()
    due = checker._classify_due
    checker._classify_due = lambda: release.is_set() and due()  # type: ignore[method-assign]
    return release


async def _checked(service: Service) -> None:
    """Wait until the checks have covered every commit so far (the classifier stage aside)."""
    with anyio.fail_after(60):
        while service.checker.cursor < service.writer.last_stamp or service.checker.depth:
            await anyio.sleep(0.01)


async def _store_pair(service: Service, ns: str) -> tuple[str, str]:
    old = await memories.store_one(service, StoreParams(text=OLDER, namespace=ns))
    new = await memories.store_one(service, StoreParams(text=NEWER, namespace=ns))
    return old["id"], new["id"]


async def _edges(service: Service, ns: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = (await graph.contradictions(service, ContradictionsParams(namespace=ns)))[
        "contradictions"
    ]
    return found


def test_flush_and_the_saved_cursor_wait_for_the_classifier(tmp_path: Path) -> None:
    """The detectors' check is done and the classifier's pair is held: ``flush`` does not
    return, and the cursor saved at shutdown stays below the pair, so the daemon started again
    asks the classifier and writes the edge."""
    stamps: dict[str, int] = {}

    async def first(service: Service) -> None:
        release = _hold_second_stage(service.checker)
        old, new = await _store_pair(service, "f")
        await _checked(service)
        assert service.checker.stats().classifier_backlog == 1
        assert await _edges(service, "f") == []  # the detectors alone do not flag it
        flushed = anyio.Event()

        async def flush() -> None:
            await admin.flush(service, FlushParams())
            flushed.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(flush)
            for _ in range(20):
                await anyio.sleep(0.01)
            assert not flushed.is_set()
            release.set()
        (edge,) = await _edges(service, "f")
        assert (edge["source"], edge["target"]) == (new, old)
        assert service.checker.stats().classifier_backlog == 0

        # a second pair, held through shutdown
        _hold_second_stage(service.checker)
        await _store_pair(service, "r")
        await _checked(service)
        assert service.checker.stats().classifier_backlog == 1
        stamps["newest"] = service.writer.last_stamp

    async def second(service: Service) -> None:
        assert service.checker.recovered >= 1
        await admin.flush(service, FlushParams())
        (edge,) = await _edges(service, "r")
        assert [s["kind"] for s in edge["signals"]] == ["classifier"]

    run_service(tmp_path, first)
    saved = json.loads((tmp_path / "data" / "contradictions.json").read_text())["checked_through_us"]
    assert saved < stamps["newest"]
    run_service(tmp_path, second)


@pytest.mark.parametrize("change", ["delete the older", "update the newer", "update the older"])
def test_no_stale_classifier_edge_after_a_change_between_the_stages(tmp_path: Path, change: str) -> None:
    """A memory of a held classifier pair is deleted, or given a new text (and checked),
    before the classifier is asked: no edge is written for the old pair."""

    async def body(service: Service) -> None:
        release = _hold_second_stage(service.checker)
        old, new = await _store_pair(service, "c")
        await _checked(service)
        assert service.checker.stats().classifier_backlog == 1
        if change == "delete the older":
            await memories.delete(service, DeleteParams(id=old))
        else:
            target = new if change == "update the newer" else old
            await memories.update(service, UpdateParams(id=target, text=UNRELATED))
            await _checked(service)
        release.set()
        await admin.flush(service, FlushParams())
        assert await _edges(service, "c") == []
        assert service.graph.of(old) == service.graph.of(new) == []
        assert await anyio.to_thread.run_sync(service.edges.load) == []
        assert service.checker.stats().classifier_backlog == 0

    run_service(tmp_path, body)


def test_a_full_backlog_asks_the_classifier_inline_with_the_same_edges(tmp_path: Path) -> None:
    """With room for one pair: the first pair waits in the held backlog, the second is asked
    inline (its edge is there before the stage is released), and both edges are the same."""

    async def body(service: Service) -> None:
        checker = service.checker
        checker.backlog.limit = 1
        pushed: list[str] = []
        push = checker.backlog.push

        def spy(asked: Any) -> None:
            pushed.append(asked.pair.newer.namespace)
            push(asked)

        checker.backlog.push = spy  # type: ignore[method-assign]
        release = _hold_second_stage(checker)
        await _store_pair(service, "staged")
        await _checked(service)
        await _store_pair(service, "inline")
        await _checked(service)
        assert pushed == ["staged"]
        (inline,) = await _edges(service, "inline")  # written while the stage is held
        assert await _edges(service, "staged") == []
        release.set()
        await admin.flush(service, FlushParams())
        (staged,) = await _edges(service, "staged")
        assert [s["kind"] for s in staged["signals"]] == ["classifier"]
        assert (staged["confidence"], staged["signals"]) == (inline["confidence"], inline["signals"])
        stats = checker.stats()
        assert stats.classifier_backlog == 0 and stats.classifier_lag_ms_p50 is not None

    run_service(tmp_path, body)


def test_an_edge_on_an_older_text_is_replaced_or_removed_by_the_classifier_stage(tmp_path: Path) -> None:
    """The newer memory of a flagged pair gets a new text the classifier is asked about: the
    check leaves the old edge in place (no gap, no second "new contradiction") for the
    classifier stage, which replaces it when it flags the new text and removes it when not."""
    still = "The invoice PDF is rendered in the browser now."  # flagged by the classifier alone
    not_any_more = "Invoice PDFs can also be previewed in the browser."  # asked, not flagged

    async def body(service: Service) -> None:
        _, new = await _store_pair(service, "s")
        await admin.flush(service, FlushParams())
        (edge,) = service.graph.of(new)
        assert edge.source_version == 1
        for text, flagged in ((still, True), (not_any_more, False)):
            release = _hold_second_stage(service.checker)
            (version,) = {e.source_version for e in service.graph.of(new)}
            await memories.update(service, UpdateParams(id=new, text=text))
            await _checked(service)
            assert service.checker.stats().classifier_backlog == 1
            assert [(e.id, e.source_version) for e in service.graph.of(new)] == [(edge.id, version)]
            release.set()
            await admin.flush(service, FlushParams())
            kept = [(e.id, e.source_version, e.target_version) for e in service.graph.of(new)]
            assert kept == ([(edge.id, version + 1, 1)] if flagged else [])
            assert [e.id for e in await anyio.to_thread.run_sync(service.edges.load)] == [e[0] for e in kept]

    run_service(tmp_path, body)
