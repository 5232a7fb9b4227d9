"""Duplicates through the real daemon and client (`dedup.on_store`): an exact duplicate after
normalisation is answered by the memory it repeats (tags merged, a use counted), a near
duplicate is stored and linked by a ``duplicates`` edge, and queries show the newest of a
linked group unless ``include_duplicates``."""

from __future__ import annotations

from typing import Any

from ..helpers import Daemon

OLD = "Gunicorn runs with 4 workers per container in production."
NEW = "Gunicorn runs 4 workers per container in production."
OTHER = "Gunicorn runs 2 workers per container in staging."  # related: another number


def test_exact_duplicate_answers_with_the_existing_memory(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        first = c.store_result("The API listens on port 8080.", namespace=ns, tags=["api"])
        again = c.call("store", {"text": "  the api listens on PORT 8080 ", "namespace": ns, "tags": ["ports"]})
        assert again == {"id": first["id"], "created": False, "duplicate_of": first["id"]}
        memory = c.get(first["id"])
        assert memory["tags"] == ["api", "ports"] and memory["accesses"] == 1
        assert c.history(first["id"])["versions"][0]["tags"] == ["api"]  # the merge is an update
        same = c.call("store", {"text": "The API listens on port 8080!", "namespace": ns, "tags": ["api"]})
        assert same["duplicate_of"] == first["id"] and c.get(first["id"])["version"] == 1
        elsewhere = c.store_result("The API listens on port 8080.", namespace=ns + "-b")
        assert elsewhere["created"] is True and elsewhere["id"] != first["id"]  # per namespace
        batch = c.call(
            "store_batch",
            {
                "items": [
                    {"text": "Deploy windows are Tuesday and Thursday.", "namespace": ns},
                    {"text": "deploy windows are tuesday and thursday", "namespace": ns, "tags": ["deploy"]},
                    {"text": "the API listens on port 8080", "namespace": ns},
                ]
            },
        )
        assert batch["created"] == [True, False, False]
        assert batch["duplicate_of"] == [None, batch["ids"][0], first["id"]]
        assert batch["ids"][1] == batch["ids"][0]
        assert c.get(batch["ids"][0])["tags"] == ["deploy"]
        assert len(c.list(namespace=ns)["memories"]) == 2


def test_near_duplicates_are_linked_and_folded_in_queries(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        old = c.store(OLD, namespace=ns)
        other = c.store(OTHER, namespace=ns)
        new = c.store(NEW, namespace=ns)
        c.flush(timeout=60)
        assert c.get(old)["duplicates"][0]["id"] == new
        assert c.get(new)["duplicates"][0]["id"] == old
        assert "duplicates" not in c.get(other)  # another number: another fact
        graph = c.traverse(new, kinds=["duplicates"])
        assert [(e["kind"], e["source"], e["target"]) for e in graph["edges"]] == [("duplicates", new, old)]
        assert c.contradictions(namespace=ns) == []
        folded = [r["id"] for r in c.query("how many gunicorn workers?", namespace=ns, limit=5)]
        assert new in folded and old not in folded and other in folded
        every = [r["id"] for r in c.query("how many gunicorn workers?", namespace=ns, limit=5, include_duplicates=True)]
        assert {old, new, other} <= set(every)
        reply = c.query("how many gunicorn workers?", namespace=ns, limit=5, explain=True)
        assert next(s for s in reply["trace"] if s["stage"] == "duplicates")["folded"] == 1
        c.delete(new)  # the link goes with it; the older one is shown again
        assert old in [r["id"] for r in c.query("how many gunicorn workers?", namespace=ns, limit=5)]


def test_dedup_modes(daemon_factory: Any) -> None:
    off: Daemon = daemon_factory(name="off", config='[dedup]\non_store = "off"\n').start()
    exact: Daemon = daemon_factory(name="exact", config='[dedup]\non_store = "merge-exact"\n').start()
    with off.client() as c:
        a = c.store_result("The API listens on port 8080.", namespace="m")
        b = c.store_result("the api listens on port 8080", namespace="m")
        assert b["created"] is True and b["id"] != a["id"] and "duplicate_of" not in b
    with exact.client() as c:
        a = c.store_result("The API listens on port 8080.", namespace="m")
        assert c.call("store", {"text": "the api listens on port 8080", "namespace": "m"})["duplicate_of"] == a["id"]
        old = c.store(OLD, namespace="m")
        new = c.store(NEW, namespace="m")
        c.flush(timeout=60)
        assert "duplicates" not in c.get(old) and "duplicates" not in c.get(new)  # no links in this mode


def test_a_pair_in_conflict_is_never_also_a_duplicate(shared_daemon: Daemon, ns: str) -> None:
    """The detectors pass this pair (one word changed, no number, no name), the pair classifier
    flags it in its second stage: the contradiction replaces the near-duplicate link."""
    with shared_daemon.client() as c:
        old = c.store("We deploy the API from the release branch.", namespace=ns)
        new = c.store("We deploy the API from the main branch now.", namespace=ns)
        c.flush(timeout=60)
        edges = c.traverse(new)["edges"]
    assert [(e["kind"], e["target"]) for e in edges] == [("contradicts", old)], edges
