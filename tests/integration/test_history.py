"""History and point in time through the real daemon and client: versions kept by updates,
tombstones left by deletes, ``forget``, ``get`` / ``query`` with ``as_of`` (contradiction
edges as they stood), the history in an export and back, and bad input refused."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from omegad_client import OmegadError as ServiceError

from ..helpers import Daemon
from .test_contradiction_classifier import NEWER, OLDER


def _moment() -> datetime:
    """A time strictly between the writes before and after it (stamps are in µs)."""
    time.sleep(0.01)
    at = datetime.now(UTC)
    time.sleep(0.01)
    return at


def test_updates_keep_versions_oldest_first(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        mid = c.store("The API is deployed to us-east-1.", namespace=ns, type="fact", tags=["deploy"])
        c.update(mid, text="The API is deployed to eu-west-1.")
        c.update(mid, tags=["deploy", "region"])
        c.update(mid, tags=["deploy", "region"])  # no change: no version
        h = c.history(mid)
    assert h["id"] == mid and h["deleted"] is False
    texts = [(v["text"], v["tags"], v["ended_by"]) for v in h["versions"]]
    assert texts == [
        ("The API is deployed to us-east-1.", ["deploy"], "update"),
        ("The API is deployed to eu-west-1.", ["deploy"], "update"),
        ("The API is deployed to eu-west-1.", ["deploy", "region"], None),
    ]
    assert [v["version"] for v in h["versions"]] == [1, 2, 2]
    assert h["versions"][0]["valid_to"] == h["versions"][1]["updated_at"]
    assert h["versions"][-1]["valid_to"] is None


def test_delete_leaves_a_tombstone_and_forget_erases_it(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        mid = c.store("The staging password rotates monthly.", namespace=ns)
        c.update(mid, text="The staging password rotates weekly.")
        assert c.delete(mid) is True
        with pytest.raises(ServiceError) as err:
            c.get(mid)
        assert err.value.code == "not_found"
        h = c.history(mid)
        assert h["deleted"] is True
        assert [(v["text"], v["ended_by"]) for v in h["versions"]] == [
            ("The staging password rotates monthly.", "update"),
            ("The staging password rotates weekly.", "delete"),
        ]
        assert c.delete(mid, forget=True) is True  # a tombstone can be forgotten later
        with pytest.raises(ServiceError) as err:
            c.history(mid)
        assert err.value.code == "not_found"
        assert c.delete(mid, forget=True) is False  # nothing left
        other = c.store("A note pasted by mistake.", namespace=ns)
        c.update(other, text="A note pasted by mistake, edited.")
        wal = shared_daemon.data_dir / "wal"
        assert b"pasted by mistake" in b"".join(f.read_bytes() for f in wal.glob("*"))
        assert c.call("delete", {"id": other, "forget": True}) == {"deleted": True, "forgotten": True}
        logged = b"".join(f.read_bytes() for f in wal.glob("*"))
        assert b"pasted by mistake" not in logged  # checkpointed away with the forget
        with pytest.raises(ServiceError):
            c.history(other)
        assert c.query("pasted by mistake", namespace=ns, as_of=datetime.now(UTC)) == []


def test_as_of_reads_the_store_as_it_stood(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        changed = c.store("Billing runs on Postgres 14 in the primary region.", namespace=ns, type="decision")
        removed = c.store("Billing invoices are emailed from noreply@billing.example.", namespace=ns)
        kept = c.store("Billing exports are written to the finance bucket nightly.", namespace=ns)
        before = _moment()
        c.update(changed, text="Billing moved to CockroachDB after the migration.")
        c.delete(removed)
        later = c.store("Billing retries failed charges three times.", namespace=ns)
        after = _moment()

        then = c.get(changed, as_of=before)
        assert then["text"] == "Billing runs on Postgres 14 in the primary region." and then["version"] == 1
        assert then["as_of"].startswith(before.isoformat()[:19])
        assert c.get(removed, as_of=before)["text"].startswith("Billing invoices are emailed")
        assert c.get(kept, as_of=before)["text"].startswith("Billing exports")
        for mid in (later,):
            with pytest.raises(ServiceError) as err:
                c.get(mid, as_of=before)
            assert err.value.code == "not_found"
        with pytest.raises(ServiceError):
            c.get(removed, as_of=after)
        assert c.get(changed, as_of=after)["text"].startswith("Billing moved to CockroachDB")

        old = {
            r["id"]: r["text"] for r in c.query("what database does billing use?", namespace=ns, limit=10, as_of=before)
        }
        assert set(old) == {changed, removed, kept}
        assert old[changed].startswith("Billing runs on Postgres 14")
        now = {r["id"]: r["text"] for r in c.query("what database does billing use?", namespace=ns, limit=10)}
        assert set(now) == {changed, kept, later} and now[changed].startswith("Billing moved")
        reply = c.query("billing database", namespace=ns, limit=10, as_of=before, explain=True)
        recall = next(s for s in reply["trace"] if s["stage"] == "recall")
        assert recall["past_versions"] == 2 and "as_of" in recall
        # filters apply to the versions of then too
        assert [r["id"] for r in c.query("billing", namespace=ns, types=["decision"], as_of=before)] == [changed]
        assert c.query("billing", namespace=ns, as_of=datetime(2001, 1, 1, tzinfo=UTC)) == []


def test_as_of_sees_the_contradiction_edges_of_then(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        old = c.store(OLDER, namespace=ns)
        new = c.store(NEWER, namespace=ns)
        c.flush(timeout=60)
        assert c.get(old)["contradicted_by"][0]["id"] == new
        flagged = _moment()
        c.resolve(new, old, "both_valid")
        resolved = _moment()
        c.delete(new)
        assert "contradicted_by" not in c.get(old)
        assert c.get(old, as_of=flagged)["contradicted_by"][0]["id"] == new
        assert c.get(new, as_of=flagged)["contradicts"][0]["id"] == old
        assert "contradicted_by" not in c.get(old, as_of=resolved)  # resolved by then
        hits = c.query("where is the invoice PDF rendered?", namespace=ns, limit=5, as_of=flagged)
        by_id = {r["id"]: r for r in hits}
        assert set(by_id) == {old, new} and by_id[old]["contradicted_by"][0]["id"] == new


def test_export_carries_history_into_another_daemon(daemon_factory: Any, tmp_path: Path) -> None:
    a: Daemon = daemon_factory(name="a").start()
    b: Daemon = daemon_factory(name="b").start()
    with a.client() as c:
        mid = c.store("Releases are cut on Tuesdays.", namespace="h")
        c.update(mid, text="Releases are cut on Thursdays.")
        gone = c.store("The release channel is #ship-it.", namespace="h")
        c.delete(gone)
        records = list(c.export_records())
        before = c.history(mid)
    kinds = [r["record"] for r in records]
    assert kinds.count("history") == 2 and kinds.index("history") > kinds.index("memory")
    with b.client() as c:
        reply = c.import_records(records[1:])
        assert reply["history"] == 2
        got = c.history(mid)
        # an import is a new commit: the current version's updated_at is the import's
        assert got["versions"][:-1] == before["versions"][:-1]
        assert {**got["versions"][-1], "updated_at": None} == {**before["versions"][-1], "updated_at": None}
        assert c.history(gone)["deleted"] is True
        again = c.import_records(records[1:])  # idempotent
        assert again["history"] == 2 and len(c.history(mid)["versions"]) == 2


def test_history_survives_a_kill(daemon_factory: Any) -> None:
    d: Daemon = daemon_factory(config="[maintenance]\ninterval_s = 3600\n").start()
    with d.client() as c:
        mid = c.store("The cache TTL is 60 seconds.", namespace="k")
        c.update(mid, text="The cache TTL is 300 seconds.")
    d.kill()
    d.start()
    with d.client() as c:
        assert [v["text"] for v in c.history(mid)["versions"]] == [
            "The cache TTL is 60 seconds.",
            "The cache TTL is 300 seconds.",
        ]


def test_bad_history_input_is_refused_and_changes_nothing(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        mid = c.store("The on-call rota is in the wiki.", namespace=ns)
        bad: list[tuple[str, dict[str, Any]]] = [
            ("get", {"id": mid, "as_of": "last tuesday"}),
            ("get", {"id": mid, "as_of": 12}),
            ("query", {"text": "rota", "namespace": ns, "as_of": "2026-13-01T00:00:00Z"}),
            ("delete", {"id": mid, "forget": "yes"}),
            ("history", {"id": mid, "extra": 1}),
            ("history", {"id": "bad id with spaces"}),
            ("history", {}),
        ]
        for method, params in bad:
            with pytest.raises(ServiceError) as err:
                c.call(method, params)
            assert err.value.code == "invalid_params", (method, params)
        record = {
            "record": "history",
            "kind": "version",
            "memory_id": "imported-x",
            "namespace": ns,
            "valid_to_us": 5,
            "data": {"text": "x", "type": "fact", "tags": [], "metadata": {}, "created_at": 1, "version": 1},
        }
        for broken in (
            {**record, "kind": "snapshot"},
            {**record, "valid_to_us": -1},
            record,  # data without updated_at
            {**record, "data": {**record["data"], "updated_at": 2, "surprise": True}},
        ):
            with pytest.raises(ServiceError) as err:
                c.import_records([broken])
            assert err.value.code == "invalid_params"
        with pytest.raises(ServiceError):
            c.history("imported-x")
        assert c.get(mid)["text"] == "The on-call rota is in the wiki."
        assert len(c.history(mid)["versions"]) == 1
