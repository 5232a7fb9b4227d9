"""Lifecycle signals through the daemon: feedback (bounded, durable, hides a memory rated down)
and access frequency (counted when returned, saved by maintenance and at shutdown)."""

from __future__ import annotations

import math

import pytest

from omegad_client import InvalidParams, NotFound

from ..fault.killing import drop_unsynced_manifests
from ..helpers import Daemon

A = "The deploy job pushes the image to the registry before the rollout starts."
B = "Rollouts start only after the deploy job has uploaded the image to our registry."


def ids_of(results: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [r["id"] for r in results]


def test_feedback_is_bounded_validated_and_moves_ranking(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        a = c.store(A, namespace=ns)
        b = c.store(B, namespace=ns)
        base = c.query("deploy job registry rollout", namespace=ns, explain=True)
        first, second = ids_of(base["results"])[:2]
        # rate the second one up: it overtakes the first
        r = c.feedback(second, 1)
        assert r == {"id": second, "feedback": 1.0, "ratings": 1, "accesses": 1, "hidden": False}
        up = c.query("deploy job registry rollout", namespace=ns, explain=True)
        assert ids_of(up["results"])[:2] == [second, first]
        assert up["results"][0]["signals"]["feedback"] == pytest.approx(1.1)
        # bounded: ten more +1 ratings stop at +5
        for _ in range(10):
            r = c.feedback(second, 1)
        assert r["feedback"] == 5.0 and r["ratings"] == 11
        assert c.get(second)["feedback"] == 5.0
        for bad in (2, -1.5, math.nan, math.inf, "1", None, True):
            with pytest.raises(InvalidParams):
                c.call("feedback", {"id": a, "score": bad})
        with pytest.raises(InvalidParams):
            c.call("feedback", {"id": a, "score": 1, "extra": 1})
        with pytest.raises(NotFound):
            c.feedback("no-such-memory", 1)
        assert {a, b} == {first, second}


def test_rated_down_memory_is_hidden_unless_asked_for(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        bad = c.store("Use the legacy deploy script for rollouts.", namespace=ns)
        good = c.store("Use the pipeline deploy job for rollouts.", namespace=ns)
        for _ in range(2):
            assert c.feedback(bad, -1)["hidden"] is False
        assert bad in ids_of(c.query("deploy rollouts", namespace=ns))
        assert c.feedback(bad, -1)["hidden"] is True  # -3: the threshold
        assert ids_of(c.query("deploy rollouts", namespace=ns)) == [good]
        shown = c.query("deploy rollouts", namespace=ns, include_hidden=True)
        assert set(ids_of(shown)) == {bad, good}
        assert next(r for r in shown if r["id"] == bad)["hidden"] is True
        assert c.get(bad)["hidden"] is True and c.get(bad)["feedback"] == -3.0
        assert c.stats()["lifecycle"]["hidden"] >= 1
        c.feedback(bad, 1)  # rated back up: visible again
        assert bad in ids_of(c.query("deploy rollouts", namespace=ns))


def test_access_counts_persist_and_feedback_survives_a_crash_and_power_loss(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory(config="[maintenance]\ninterval_s = 3600\n").start()
    with d.client() as c:
        mid = c.store("The nightly backup runs at two in the morning.", namespace="s")
        other = c.store("Backups are encrypted with the team key.", namespace="s")
        for _ in range(3):
            c.query("when does the nightly backup run?", namespace="s", limit=1)
        assert c.get(mid)["accesses"] == 3
        assert "accesses" not in c.get(other)  # never returned
    assert d.stop() == 0  # saved at shutdown
    d.start()
    with d.client() as c:
        assert c.get(mid)["accesses"] == 3
        c.maintain()  # everything so far durable; the log empties
        c.feedback(mid, 1)
        c.feedback(mid, 0.5)
    d.kill()
    assert drop_unsynced_manifests(d.data_dir) >= 1  # the feedback's table versions are gone
    d.start()
    with d.client() as c:
        got = c.get(mid)
        assert got["feedback"] == 1.5 and got["ratings"] == 2 and got["accesses"] == 3
        assert c.stats()["store"]["recovery_at_start"]["signals_restored"] == 1
        c.delete(mid)
        assert c.stats()["lifecycle"]["signals"] == 0


def test_a_signals_table_from_before_shares_is_migrated(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    """Signals tables written before each host kept its own share have no ``host`` column:
    the daemon adds it at start (every row the local host's), and ratings go on adding up."""
    import lancedb

    d: Daemon = daemon_factory().start()
    with d.client() as c:
        mid = c.store("The staging database is refreshed from production every Monday.", namespace="s")
        c.feedback(mid, 1)
        c.maintain()
    assert d.stop() == 0
    table = lancedb.connect(d.data_dir / "lance").open_table("signals")
    table.drop_columns(["host"])  # as it was written before
    assert "host" not in table.schema.names and table.count_rows() == 1
    d.start()
    with d.client() as c:
        assert c.get(mid)["feedback"] == 1.0
        assert c.feedback(mid, 0.5)["feedback"] == 1.5
    assert d.stop() == 0
    table = lancedb.connect(d.data_dir / "lance").open_table("signals")
    assert table.to_arrow().select(["id", "host", "feedback", "ratings"]).to_pylist() == [
        {"id": mid, "host": "", "feedback": 1.5, "ratings": 2}
    ]
