"""Contradiction detection through a real daemon: annotations, edges, resolve, restarts,
namespaces."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from omegad_client import InvalidParams, NotFound

from ..helpers import Daemon

DARK = "The user prefers dark mode in every editor"
LIGHT = "The user switched to light mode in every editor"


def by_id(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in results}


def test_dark_light_flags_both_sides_and_an_edge(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        old = c.store(DARK, namespace=ns, type="preference")
        new = c.store(LIGHT, namespace=ns, type="preference")
        c.flush()
        (edge,) = c.contradictions(namespace=ns)
        assert edge["source"] == new and edge["target"] == old and edge["kind"] == "contradicts"
        assert edge["confidence"] >= 0.4 and edge["resolution"] is None
        assert {s["kind"] for s in edge["signals"]} >= {"antonym"}
        assert edge["new"]["text"] == LIGHT and edge["old"]["text"] == DARK
        results = by_id(c.query("editor colour theme", namespace=ns))
        assert results[new]["contradicts"][0]["id"] == old
        assert results[old]["contradicted_by"][0]["id"] == new
        assert "contradicts" not in results[old] and "contradicted_by" not in results[new]
        # nothing deleted or rewritten
        assert c.get(old)["text"] == DARK and c.get(old)["version"] == 1
        assert c.contradictions(id=old) == c.contradictions(id=new)
        graph = c.traverse(old)
        assert {n["id"]: n["depth"] for n in graph["nodes"]} == {old: 0, new: 1}
        assert [e["id"] for e in graph["edges"]] == [edge["id"]]


def test_hard_negatives_are_not_flagged(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store("Staging uses Postgres 15", namespace=ns)
        c.store("Production uses Postgres 16", namespace=ns)
        c.store("We use Redis for caching", namespace=ns)
        c.store("We don't use Redis for sessions", namespace=ns)
        c.store("The user uses vim", namespace=ns)
        c.store("The user uses vim with the LSP plugin", namespace=ns)
        c.flush()
        assert c.contradictions(namespace=ns) == []
        assert c.stats()["contradictions"]["pairs"] > 0  # they were compared


def test_other_namespaces_are_never_compared(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store(DARK, namespace=ns + "-a")
        c.store(LIGHT, namespace=ns + "-b")
        c.flush()
        assert c.contradictions(namespace=ns + "-a") == [] and c.contradictions(namespace=ns + "-b") == []


def test_resolve_and_unresolve(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        old = c.store("Our package manager is npm", namespace=ns)
        new = c.store("Our package manager is pnpm", namespace=ns)
        c.flush()
        assert c.contradictions(namespace=ns)
        with pytest.raises(NotFound):
            c.resolve(old, new, "keep_new")  # source must be the newer memory
        with pytest.raises(InvalidParams):
            c.resolve(new, old, "maybe")
        with pytest.raises(InvalidParams):
            c.unresolve(new, old)  # not resolved yet
        edge = c.resolve(new, old, "both_valid")
        assert edge["resolution"] == "both_valid" and edge["resolved_at"]
        results = by_id(c.query("package manager", namespace=ns))
        assert "contradicted_by" not in results[old] and "contradicts" not in results[new]
        assert c.contradictions(namespace=ns)[0]["resolution"] == "both_valid"  # still listed
        edge = c.unresolve(new, old)
        assert edge["resolution"] is None
        results = by_id(c.query("package manager", namespace=ns))
        assert results[old]["contradicted_by"][0]["id"] == new


def test_edges_and_resolutions_survive_a_restart(tmp_path: Path) -> None:
    d = Daemon(tmp_path).start()
    with d.client() as c:
        old = c.store(DARK, namespace="x")
        new = c.store(LIGHT, namespace="x")
        c.flush()
        c.resolve(new, old, "keep_new")
        # checked within a second of the last cursor save: only the save at shutdown covers it
        c.store("The staging database runs on a nightly snapshot.", namespace="x")
        c.flush()
    assert d.stop() == 0
    d.start()
    try:
        with d.client() as c:
            (edge,) = c.contradictions(namespace="x")
            assert edge["source"] == new and edge["resolution"] == "keep_new"
            assert c.stats()["contradictions"]["recovered_at_start"] == 0  # nothing left unchecked
    finally:
        assert d.stop() == 0
        d.cleanup()


def test_unchecked_memories_are_checked_after_a_restart(tmp_path: Path) -> None:
    """Stored while checking was off (as if the daemon died before the checks ran): the
    persisted cursor makes the next start check them."""
    d = Daemon(tmp_path, env={"OMEGAD_CONTRADICTIONS": "0"}).start()
    with d.client() as c:
        old = c.store(DARK, namespace="x")
        new = c.store(LIGHT, namespace="x")
        c.flush()
        assert c.contradictions(namespace="x") == []
    assert d.stop() == 0
    d.env["OMEGAD_CONTRADICTIONS"] = "1"
    d.start()
    try:
        with d.client() as c:
            c.flush()
            (edge,) = c.contradictions(namespace="x")
            assert edge["source"] == new and edge["target"] == old
            assert c.stats()["contradictions"]["recovered_at_start"] == 2
    finally:
        assert d.stop() == 0
        d.cleanup()


def test_updates_and_deletes_keep_the_graph_true(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        old = c.store("The API timeout is 30 s", namespace=ns)
        new = c.store("The API timeout is 60 s", namespace=ns)
        c.flush()
        assert len(c.contradictions(namespace=ns)) == 1
        c.update(new, text="The API timeout is 30 s for reads and 60 s for uploads")
        c.flush()
        assert c.contradictions(namespace=ns) == []  # the edge of the old text is gone
        third = c.store("The API timeout is 45 s", namespace=ns)
        c.flush()
        assert any(e["source"] == third for e in c.contradictions(namespace=ns))
        c.delete(third)
        c.flush()
        assert all(third not in (e["source"], e["target"]) for e in c.contradictions(namespace=ns))
        assert c.get(old)["text"] == "The API timeout is 30 s"


def test_same_inputs_give_the_same_flags_and_confidences(shared_daemon: Daemon, ns: str) -> None:
    pairs = [
        (DARK, LIGHT),
        ("The API timeout is 30 s", "The API timeout is 60 s"),
        ("We use Jenkins for CI", "We no longer use Jenkins"),
        ("Staging uses Postgres 15", "Production uses Postgres 16"),
    ]
    seen: list[list[tuple[float, list[str]]]] = []
    with shared_daemon.client() as c:
        for run in range(2):
            space = f"{ns}-{run}"
            for old, new in pairs:
                c.store(old, namespace=space, created_at="2026-01-01T00:00:00Z")
                c.store(new, namespace=space, created_at="2026-02-01T00:00:00Z")
            c.flush()
            edges = sorted(c.contradictions(namespace=space), key=lambda e: e["new"]["text"])
            seen.append([(e["confidence"], [s["kind"] for s in e["signals"]]) for e in edges])
    assert seen[0] == seen[1] and len(seen[0]) == 3


def test_a_pair_stored_together_gives_one_stable_edge(shared_daemon: Daemon, ns: str) -> None:
    """Both memories in one batch (same created_at): one edge, whose direction a re-check
    (an update with the same text) does not flip."""
    with shared_daemon.client() as c:
        a, b = c.store_batch([{"text": DARK, "namespace": ns}, {"text": LIGHT, "namespace": ns}])
        c.flush()
        (edge,) = c.contradictions(namespace=ns)
        c.update(edge["target"], text=edge["old"]["text"], tags=["touched"])
        c.update(edge["source"], text=edge["new"]["text"], tags=["touched"])
        c.flush()
        (again,) = c.contradictions(namespace=ns)
        assert (again["id"], again["source"], again["target"]) == (edge["id"], edge["source"], edge["target"])
        assert {edge["source"], edge["target"]} == {a, b}
        assert c.stats()["contradictions"]["errors"] == 0


def test_a_text_update_makes_the_updated_memory_the_newer_side(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        first = c.store("The API timeout is 30 s", namespace=ns, created_at="2026-01-01T00:00:00Z")
        second = c.store("The API timeout is 60 s", namespace=ns, created_at="2026-02-01T00:00:00Z")
        c.flush()
        (edge,) = c.contradictions(namespace=ns)
        assert (edge["source"], edge["target"]) == (second, first)
        c.update(first, text="The API timeout is 90 s")  # stated now: newer than "60 s"
        c.flush()
        (edge,) = c.contradictions(namespace=ns)
        assert (edge["source"], edge["target"]) == (first, second)
        assert c.query("API timeout", namespace=ns)[0]["id"] == first  # the older side is demoted
