"""A question that names a period ("incidents in Q3 2025") favours what was written then,
through a real daemon (`omegad.recall.when`, docs/scoring.md "Periods")."""

from __future__ import annotations

from datetime import UTC, datetime

from ..helpers import Daemon

INCIDENTS = [  # (alike but for their date: the period decides)
    ("2024-08-14T10:00:00Z", "Incident: checkout was down for an hour after a database failover (INC-101)"),
    ("2025-08-12T10:00:00Z", "Incident: checkout was down for an hour after a database failover (INC-202)"),
    ("2026-02-03T10:00:00Z", "Incident: checkout was down for an hour after a database failover (INC-303)"),
]


def test_a_period_in_the_question_brings_its_memories_first(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        ids = {when[:4]: c.store(text, namespace=ns, type="error", created_at=when) for when, text in INCIDENTS}
        c.flush()
        for question, year in [
            ("checkout incidents in Q3 2025", "2025"),
            ("checkout incidents we had in 2024", "2024"),
        ]:
            reply = c.query(question, namespace=ns, explain=True, rerank=False)
            assert reply["results"][0]["id"] == ids[year], question
            stage = next(t for t in reply["trace"] if t["stage"] == "period")
            assert stage["candidates"] == 1 and stage["since"].startswith(year)
            assert reply["results"][0]["signals"]["period"] == 3.0
        # the caller's own since/until are the period then: the words are not read again
        bounded = c.query(
            "checkout incidents in Q3 2025", namespace=ns, explain=True, rerank=False, since="2026-01-01T00:00:00Z"
        )
        assert [r["id"] for r in bounded["results"]] == [ids["2026"]]
        assert not any(t["stage"] == "period" for t in bounded["trace"])
        # no period named: no stage
        plain = c.query("checkout incidents", namespace=ns, explain=True, rerank=False)
        assert not any(t["stage"] == "period" for t in plain["trace"])


def test_a_period_counted_back_from_now(shared_daemon: Daemon, ns: str) -> None:
    """ "Last year" is read against the daemon's clock: last year's memory comes first, ahead
    of a newer one that recency alone would put there."""
    year = datetime.now(UTC).year
    notes = {
        "now": None,  # (stored now: always this year)
        "last": f"{year - 1}-06-15T10:00:00Z",
        "before": f"{year - 2}-06-15T10:00:00Z",
    }
    with shared_daemon.client() as c:
        ids = {
            k: c.store(
                f"Incident: checkout was down for an hour after a database failover (INC-{n})",
                namespace=ns,
                created_at=when,
            )
            for n, (k, when) in zip((404, 505, 606), notes.items(), strict=True)
        }
        c.flush()
        reply = c.query("checkout incidents last year", namespace=ns, explain=True, rerank=False)
        assert reply["results"][0]["id"] == ids["last"]
        stage = next(t for t in reply["trace"] if t["stage"] == "period")
        assert stage["words"] == "last year" and stage["since"].startswith(str(year - 1))
        plain = c.query("checkout incidents", namespace=ns, explain=True, rerank=False)
        assert plain["results"][0]["id"] == ids["now"]  # (without the period, the newest)
