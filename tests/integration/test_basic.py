"""Store, recall, get/update/delete, batches, idempotency, namespaces — through the real client
against a real daemon."""

from __future__ import annotations

import json
import random
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from omegad_client import InvalidParams, NotFound, TooLarge, UnknownMethod
from omegad_client.protocol import PROTOCOL_VERSION

from ..helpers import Daemon


def test_hello_and_ping(shared_daemon: Daemon) -> None:
    with shared_daemon.client() as c:
        hello = c.hello()
        assert c.ping() == {}
    assert hello["protocol"] == PROTOCOL_VERSION
    assert hello["embedding"]["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert hello["embedding"]["dim"] == 384
    assert hello["reranker"]["state"] in {"not_installed", "ready", "disabled", "missing", "failed"}
    assert isinstance(hello["daemon_version"], str)


def test_store_then_query_finds_it(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        target = c.store(
            "Access tokens are JWTs that expire after 15 minutes; refresh tokens sit in an httpOnly cookie.",
            type="decision",
            tags=["auth"],
            namespace=ns,
        )
        c.store("The CI pipeline caches pip wheels between runs.", namespace=ns)
        c.store("Alice prefers tabs over spaces in Go code.", type="preference", namespace=ns)
        results = c.query("how long until a login token expires?", namespace=ns)
    assert results[0]["id"] == target
    top = results[0]
    assert top["type"] == "decision" and top["tags"] == ["auth"] and top["namespace"] == ns
    assert top["score"] > results[-1]["score"]
    datetime.fromisoformat(top["created_at"].replace("Z", "+00:00"))


def test_exact_identifier_is_found_by_full_text(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store_batch(
            [
                {"text": f"Note {i}: the nightly job finished without errors on node {i}.", "namespace": ns}
                for i in range(20)
            ]
        )
        target = c.store("Oracle threw ORA-01555 snapshot too old during the long export.", type="error", namespace=ns)
        c.flush()
        reply = c.query("ORA-01555", namespace=ns, explain=True)
    assert reply["results"][0]["id"] == target
    assert reply["results"][0]["signals"]["fts_rank"] == 1


def test_get_update_delete(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        mid = c.store(
            "We deploy on Tuesdays.",
            type="decision",
            tags=["deploy"],
            namespace=ns,
            metadata={"source": "standup", "n": 1},
        )
        got = c.get(mid)
        assert got["text"] == "We deploy on Tuesdays." and got["metadata"] == {"source": "standup", "n": 1}
        assert got["version"] == 1
        updated = c.update(mid, text="Deploys moved to Thursdays after the freeze.", tags=["deploy", "freeze"])
        assert updated["version"] == 2 and updated["tags"] == ["deploy", "freeze"]
        assert updated["created_at"] == got["created_at"]
        # The new text was re-embedded: a query about it now finds the memory first.
        assert c.query("which weekday do releases ship after the code freeze?", namespace=ns)[0]["id"] == mid
        same = c.update(mid, type="fact")
        assert same["version"] == 2 and same["type"] == "fact"
        assert c.delete(mid) is True
        assert c.delete(mid) is False
        with pytest.raises(NotFound):
            c.get(mid)
        with pytest.raises(NotFound):
            c.update(mid, text="gone")
        assert c.query("deploy weekday", namespace=ns) == []


def test_a_get_from_the_cached_namespace_sees_every_acknowledged_change(shared_daemon: Daemon, ns: str) -> None:
    """A small namespace's rows are kept in memory once it is searched, and gets are answered
    from them: each get after an update, a store with the same text (tags merged) or a delete
    sees it."""
    with shared_daemon.client() as c:
        mid = c.store("The staging database is Postgres 15.", tags=["db"], namespace=ns)
        other = c.store("Staging runs in eu-west-1.", namespace=ns)
        c.flush()
        c.query("staging database", namespace=ns)  # (the namespace is now kept in memory)
        before = c.stats()["store"]["cache"]["gets"]
        assert c.get(mid)["text"] == "The staging database is Postgres 15."
        assert c.stats()["store"]["cache"]["gets"] == before + 1  # (answered from the cache)
        c.update(mid, text="The staging database is Postgres 16.", type="fact")
        got = c.get(mid)
        assert (got["text"], got["type"], got["version"]) == ("The staging database is Postgres 16.", "fact", 2)
        again = c.store_result("the staging database is postgres 16", tags=["pg"], namespace=ns)
        assert again["duplicate_of"] == mid
        assert sorted(c.get(mid)["tags"]) == ["db", "pg"]
        assert c.delete(mid) is True
        with pytest.raises(NotFound):
            c.get(mid)
        assert c.get(other)["text"] == "Staging runs in eu-west-1."
        assert c.stats()["store"]["cache"]["gets"] >= before + 4


def test_idempotent_ids(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        first = c.store_result("Use ruff for linting.", id=f"{ns}-lint", namespace=ns)
        second = c.store_result("Use ruff for linting.", id=f"{ns}-lint", namespace=ns)
        assert first == {"id": f"{ns}-lint", "created": True}
        assert second == {"id": f"{ns}-lint", "created": False}
        batch = c.call(
            "store_batch",
            {
                "items": [
                    {"text": "a one", "id": f"{ns}-a", "namespace": ns},
                    {"text": "a again", "id": f"{ns}-a", "namespace": ns},
                    {"text": "lint again", "id": f"{ns}-lint", "namespace": ns},
                ]
            },
        )
        assert batch["ids"] == [f"{ns}-a", f"{ns}-a", f"{ns}-lint"]
        assert batch["created"] == [True, False, False]
        stats = c.stats()
        assert stats["namespaces"][ns]["total"] == 2
        assert c.get(f"{ns}-a")["text"] == "a one"


def test_store_batch(shared_daemon: Daemon, ns: str) -> None:
    items = [
        {"text": f"Fact number {i} about the billing service.", "type": "fact", "namespace": ns, "tags": [f"t{i % 3}"]}
        for i in range(50)
    ]
    with shared_daemon.client() as c:
        ids = c.store_batch(items)
        assert len(ids) == 50 and len(set(ids)) == 50
        for i in (0, 17, 49):
            assert c.get(ids[i])["text"] == items[i]["text"]
        assert c.stats()["namespaces"][ns]["types"] == {"fact": 50}


def test_namespaces_never_leak(shared_daemon: Daemon, ns: str) -> None:
    other = ns + "-other"
    with shared_daemon.client() as c:
        mine = c.store("The staging database password rotates every 30 days.", namespace=ns)
        # Many near-identical memories elsewhere: they must never appear, however many.
        c.store_batch(
            [
                {"text": f"The staging database password rotates every {30 + i} days.", "namespace": other}
                for i in range(60)
            ]
        )
        c.flush()
        reply = c.query("staging database password rotation", namespace=ns, limit=100, explain=True)
        default = c.query("staging database password rotation", limit=100)
    assert [r["id"] for r in reply["results"]] == [mine]
    assert all(r["namespace"] == ns for r in reply["results"])
    recall = next(s for s in reply["trace"] if s["stage"] == "recall")
    assert f"namespace = '{ns}'" in recall["filter"]
    assert recall["vector"] == 1  # the storage query itself returned only this namespace
    assert recall["vector_ms"] > 0 and recall["fts_ms"] > 0  # each search, timed in its thread
    embed = next(s for s in reply["trace"] if s["stage"] == "embed")
    # the full-text search starts with the embedding, the vector search after it: both awaited
    assert recall["ms"] >= recall["vector_ms"] - 0.01
    assert embed["ms"] + recall["ms"] >= recall["fts_ms"] - 0.01
    assert all(r["namespace"] == "default" for r in default)


def test_query_filters(shared_daemon: Daemon, ns: str) -> None:
    old = (datetime.now(UTC) - timedelta(days=400)).isoformat()
    with shared_daemon.client() as c:
        a = c.store("Redis is the session cache.", type="fact", tags=["cache"], namespace=ns, created_at=old)
        b = c.store("Decided to keep Redis as the session cache.", type="decision", tags=["cache", "adr"], namespace=ns)
        cc = c.store("Redis eviction policy is allkeys-lru.", type="fact", tags=["ops"], namespace=ns)
        q = "redis session cache"
        assert {r["id"] for r in c.query(q, namespace=ns, types=["decision"])} == {b}
        assert {r["id"] for r in c.query(q, namespace=ns, tags=["adr", "ops"])} == {b, cc}
        since = (datetime.now(UTC) - timedelta(days=30)).isoformat()
        assert a not in {r["id"] for r in c.query(q, namespace=ns, since=since)}
        assert {r["id"] for r in c.query(q, namespace=ns, until=since)} == {a}
        assert c.get(a)["created_at"].startswith(old[:10])


def test_recency_breaks_ties_for_superseded_facts(shared_daemon: Daemon, ns: str) -> None:
    old = (datetime.now(UTC) - timedelta(days=500)).isoformat()
    with shared_daemon.client() as c:
        c.store("The main cluster runs Postgres 13.", type="fact", namespace=ns, created_at=old)
        new = c.store("The main cluster runs Postgres 16.", type="fact", namespace=ns)
        assert c.query("which Postgres version does the main cluster run?", namespace=ns)[0]["id"] == new


def test_explain_trace(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store_batch([{"text": f"Service {i} listens on port {8000 + i}.", "namespace": ns} for i in range(10)])
        reply = c.query("which port does service 3 use", namespace=ns, limit=3, explain=True)
    stages = [s["stage"] for s in reply["trace"]]
    assert stages == ["embed", "recall", "heuristic", "rerank", "dedup", "floor"]
    for s in reply["trace"]:
        assert s["ms"] >= 0 and isinstance(s["candidates"], int)
    assert reply["trace"][1]["net"] == 15 and reply["trace"][1]["candidates"] == 10
    assert len(reply["results"]) == 3


def test_min_score_drops_weak_results_and_says_so(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store("The billing service retries failed charges three times.", namespace=ns)
        c.store("Our office plants are watered on Fridays.", namespace=ns)
        every = c.query("how often are failed charges retried?", namespace=ns, limit=5, explain=True)
        scores = sorted(r["score"] for r in every["results"])
        assert len(scores) == 2 and scores[0] < scores[1]
        floor = (scores[0] + scores[1]) / 2
        reply = c.query("how often are failed charges retried?", namespace=ns, limit=5, min_score=floor, explain=True)
        assert [r["text"] for r in reply["results"]] == ["The billing service retries failed charges three times."]
        assert reply["dropped"] == {"below_min_score": 1, "min_score": floor}
        stage = next(s for s in reply["trace"] if s["stage"] == "floor")
        assert stage["min_score"] == floor and stage["dropped"] == 1
        nothing = c.call("query", {"text": "retries", "namespace": ns, "min_score": 9.9})
        assert nothing["results"] == [] and nothing["dropped"]["below_min_score"] == 2
        for bad in (-0.1, 11, "high", True):
            with pytest.raises(InvalidParams):
                c.call("query", {"text": "retries", "namespace": ns, "min_score": bad})
    for r in reply["results"]:
        assert set(r["signals"]) >= {"vector_rank", "cosine", "fused", "type_weight", "recency"}


def test_dedup_drops_near_duplicates(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        first = c.store("Run the migrations before deploying.", namespace=ns)
        # the same words again: merged at the store (dedup.on_store), never a second memory
        assert c.store("Run the migrations before deploying. ", namespace=ns) == first
        assert c.store("run the   migrations before deploying.", namespace=ns) == first
        c.store("Run the migrations before deploying!!", namespace=ns + "-x")  # another namespace
        reply = c.query("migrations before deploy", namespace=ns, explain=True)
    assert [r["id"] for r in reply["results"]] == [first]
    assert next(s for s in reply["trace"] if s["stage"] == "dedup")["dropped"] == 0


def test_query_dedup_folds_copies_stored_without_merging(daemon_factory: Any) -> None:
    d: Daemon = daemon_factory(config='[dedup]\non_store = "off"\n').start()
    with d.client() as c:
        c.store("Run the migrations before deploying.", namespace="q")
        c.store("Run the migrations before deploying. ", namespace="q")
        c.store("run the   migrations before deploying.", namespace="q")
        reply = c.query("migrations before deploy", namespace="q", explain=True)
        assert len(reply["results"]) == 1 and next(s for s in reply["trace"] if s["stage"] == "dedup")["dropped"] == 2
        every = c.query("migrations before deploy", namespace="q", include_duplicates=True)
        assert len(every) == 3


def test_invalid_params_are_typed_errors(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        before = c.stats()["memories"]
        cases = [
            ("store", {}),
            ("store", {"text": 5}),
            ("store", {"text": "   "}),
            ("store", {"text": "x", "type": "bogus"}),
            ("store", {"text": "x", "tags": "notalist"}),
            ("store", {"text": "x", "namespace": "bad ns!"}),
            ("store", {"text": "x", "created_at": "yesterday"}),
            ("store", {"text": "x", "id": "with space"}),
            ("store", {"text": "x", "metadata": {"f": float("nan")}}),
            ("store", {"text": "x", "colour": "red"}),
            ("store", {"text": b"bytes are not text"}),
            ("store_batch", {"items": []}),
            ("store_batch", {"items": [{"text": "ok"}, {"text": 1}]}),
            ("query", {"text": "x", "limit": 0}),
            ("query", {"text": "x", "limit": 101}),
            ("query", {"text": "x", "limit": "5"}),
            ("query", {"text": "x", "types": ["nope"]}),
            ("query", {"text": "x", "since": "2026-02-01", "until": "2026-01-01"}),
            ("get", {"id": 12}),
            ("flush", {"timeout": -1}),
            ("hello", {"extra": 1}),
        ]
        for method, params in cases:
            with pytest.raises(InvalidParams) as info:
                c.call(method, params)
            assert info.value.message, (method, params)
        with pytest.raises(TooLarge):
            c.store("x" * 20_000, namespace=ns)
        with pytest.raises(UnknownMethod):
            c.call("nope", {})
        assert c.stats()["memories"] == before  # nothing was stored by any of them
        assert c.ping() == {}


def test_request_log_lines(shared_daemon: Daemon) -> None:
    with shared_daemon.client() as c:
        c.ping()
    lines = [json.loads(line) for line in shared_daemon.log().splitlines() if line.startswith("{")]
    requests = [r for r in lines if r.get("event") == "request" and r.get("method") == "ping"]
    assert requests and {"method", "ms", "outcome"} <= set(requests[-1])


def test_stats_and_flush(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store_batch([{"text": f"memory {i}", "namespace": ns, "type": "todo" if i % 2 else "fact"} for i in range(6)])
        assert c.flush(timeout=30)["waited_ms"] >= 0
        stats = c.stats()
    assert stats["namespaces"][ns] == {"total": 6, "types": {"fact": 3, "todo": 3}}
    assert stats["disk_bytes"] > 0 and stats["uptime_s"] > 0
    assert {"embedder", "writer", "background"} <= set(stats["queues"])
    assert stats["models"]["embedding"]["state"] == "ready"
    assert stats["models"]["embedding"]["graph"].startswith("fused ("), stats["models"]["embedding"]
    assert stats["index"]["fts"] is not None
    mem = stats["memory"]
    assert mem["rss_bytes"] > 100 << 20  # the model and the libraries alone
    assert 0 <= mem["lance_cache_bytes"] < mem["rss_bytes"] and mem["arrow_bytes"] >= 0
    assert mem["malloc"]["in_use"] > 0 and mem["malloc"]["free_held"] >= 0
    cache = stats["store"]["index_cache"]  # auto: a small store's indexes need less than the floor
    assert cache["auto"] is True and cache["bound_mb"] == 128 and 0 < cache["need_mb"] < 128


def test_freed_heap_goes_back_once_the_daemon_is_quiet_and_not_while_idle(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store_batch([{"text": f"heap note {i}", "namespace": ns} for i in range(8)])
        for i in range(5):
            c.query(f"heap note {i}", namespace=ns, rerank=False)
        before = c.stats()["memory"]["trims"]
        time.sleep(4)  # quiet for more than TRIM_QUIET_S after those requests
        first = c.stats()["memory"]["trims"]
        assert first > before
        time.sleep(4)  # one request (that stats) in between: one trim, not one per second
        second = c.stats()["memory"]["trims"]
        assert second == first + 1
        time.sleep(4)
        assert c.stats()["memory"]["trims"] == second + 1


def test_a_memory_dated_at_the_end_of_the_calendar_reads_back(shared_daemon: Daemon, ns: str) -> None:
    """(found by bench/fuzz.py: the read side rounded it into year 10000 and every read of it
    failed with internal, and each failed export held its snapshot open)"""
    last = "9999-12-31T23:59:59.999999Z"
    with shared_daemon.client() as c:
        mid = c.store("a memory from the far future", namespace=ns, created_at=last)
        assert c.get(mid)["created_at"] == last
        assert [r["created_at"] for r in c.query("far future memory", namespace=ns)] == [last]
        for _ in range(10):  # more than the 8 export slots: none is left open
            records = list(c.export_records(namespace=ns))
            assert [r["created_at"] for r in records if r.get("record") == "memory"] == [last]


def _exported_vectors(c: Any, namespace: str) -> dict[str, Any]:
    import base64

    import numpy as np

    return {
        r["id"]: np.frombuffer(base64.b64decode(r["vector"]), dtype="<f4")
        for r in c.export_records(namespace=namespace)
        if r.get("record") == "memory"
    }


def test_vector_holds_text_and_tags(shared_daemon: Daemon, ns: str) -> None:
    """A memory's vector is computed from its text and its tags (docs/scoring.md): the same
    text with other tags has another vector, and an update of either embeds the new pair."""
    text = "Kafka runs through Strimzi in the data namespace with three brokers."
    with shared_daemon.client() as c:
        a = c.store(text, tags=["kafka", "strimzi"], namespace=ns)
        b = c.store(text, namespace=ns + "-b")
        va, vb = _exported_vectors(c, ns)[a], _exported_vectors(c, ns + "-b")[b]
        assert float(va @ vb) < 0.99

        c.update(b, tags=["kafka", "strimzi"])
        assert float(_exported_vectors(c, ns + "-b")[b] @ va) > 0.9999
        c.update(b, metadata={"source": "runbook"})  # neither text nor tags: the vector stays
        assert float(_exported_vectors(c, ns + "-b")[b] @ va) > 0.9999

        new_text = "Kafka moved to MSK; the Strimzi operator is gone."
        c.update(a, text=new_text)  # the tags stay, and stay in the vector
        fresh = c.store(new_text, tags=["kafka", "strimzi"], namespace=ns + "-c")
        assert float(_exported_vectors(c, ns)[a] @ _exported_vectors(c, ns + "-c")[fresh]) > 0.9999
        assert float(_exported_vectors(c, ns)[a] @ va) < 0.99


def test_batch_embedded_by_length_keeps_each_vector_with_its_memory(shared_daemon: Daemon, ns: str) -> None:
    """A big batch is embedded in chunks of texts of about one length, not in arrival order
    (`Service.embed`): every memory must still get its own text's vector — the same as the
    text stored alone."""
    rng = random.Random(7)
    words = [
        "queue",
        "broker",
        "lease",
        "retry",
        "shard",
        "index",
        "vector",
        "token",
        "budget",
        "commit",
        "replay",
        "namespace",
    ]
    texts = [
        f"note {i}: " + " ".join(rng.choice(words) for _ in range(rng.choice((2, 30, 6, 60, 12)))) for i in range(45)
    ]
    with shared_daemon.client() as c:
        ids = c.store_batch([{"text": t, "namespace": ns} for t in texts])
        alone = {t: c.store(t, namespace=ns + "-alone") for t in texts[::7]}
        batch, single = _exported_vectors(c, ns), _exported_vectors(c, ns + "-alone")
    for k in range(0, len(texts), 7):
        assert float(batch[ids[k]] @ single[alone[texts[k]]]) > 0.9999, texts[k]
    assert min(float(batch[ids[k]] @ batch[ids[k + 1]]) for k in range(len(texts) - 1)) < 0.99
