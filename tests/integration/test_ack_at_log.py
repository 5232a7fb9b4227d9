"""Stores acknowledged at the log (``store.ack = "log"``, docs/storage.md): the answer comes
once the row is in the write-ahead log, the LanceDB commit follows. Every promise of a
committed store must hold while the commit is still to come; these tests hold the real
writer's commits of such stores at a gate to look at that moment, and a real daemon serves
many clients that read what another just stored."""

from __future__ import annotations

import random
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from omegad.app import admin, memories, query, stats
from omegad.app.ops import InsertOp, WriteOp
from omegad.app.service import Service
from omegad.config import load_config
from omegad.errors import Unavailable
from omegad.models.files import resolve_embedding
from omegad.recall.embed import Embedder
from omegad.requests import (
    DeleteParams,
    FlushParams,
    GetParams,
    ListParams,
    QueryParams,
    StoreBatchParams,
    StoreParams,
)
from omegad.storage.store import MemoryStore
from omegad.storage.wal import WriteAheadLog
from omegad_client import Client

from ..helpers import Daemon


def run_gated(tmp_path: Path, body: Callable[[Service, threading.Event], Awaitable[None]], **overrides: Any) -> None:
    """Run *body* against a real service whose writer holds every commit of a store
    acknowledged at the log until the gate is set (other writes pass)."""
    config = load_config(env={"HOME": str(tmp_path), "OMEGAD_RERANKER_MODEL_DIR": str(tmp_path / "none")})
    config = config.with_overrides(
        data_dir=tmp_path / "data", model_cache_dir=load_config().model_cache_dir, **overrides
    )
    gate = threading.Event()

    async def main() -> None:
        files = resolve_embedding(config.embedding_model_dir, config.model_cache_dir)
        embedder = await anyio.to_thread.run_sync(lambda: Embedder(files, threads=2))
        store = await anyio.to_thread.run_sync(MemoryStore.open, config.data_dir, embedder.model_id, embedder.dim)
        service = Service(config, embedder, store)
        apply = service.writer.apply

        def gated(ops: list[WriteOp]) -> list[Any]:
            if any(isinstance(op, InsertOp) and op.logged for op in ops):
                gate.wait(60)
            return apply(ops)

        service.writer.apply = gated  # type: ignore[method-assign]
        service.write_queue._fn = gated
        async with anyio.create_task_group() as tg:
            await tg.start(service.run)
            try:
                with anyio.fail_after(120):
                    await body(service, gate)
            finally:
                gate.set()
                service.close()
                tg.cancel_scope.cancel()

    anyio.run(main)


def test_an_acknowledged_store_is_read_before_its_commit(tmp_path: Path) -> None:
    text = "The staging database is restored from the nightly snapshot every Monday"

    async def body(svc: Service, gate: threading.Event) -> None:
        reply = await memories.store_one(svc, StoreParams(text=text, namespace="a", tags=("db",)))
        assert reply["created"] is True
        mid = reply["id"]
        assert svc.store.get_many([mid]) == {}, "committed at once: the gate did not hold the commit"
        # `get` answers from the pending set; stats shows it waiting
        got = await memories.get(svc, GetParams(id=mid))
        assert (got["text"], got["namespace"], got["tags"]) == (text, "a", ["db"])
        assert svc.pending.figures()["rows"] == 1
        # a query finds it before its commit (scored exactly: the same score it gets after)
        before = await query.query(svc, QueryParams(text="when is staging restored", namespace="a", explain=True))
        assert [r["id"] for r in before["results"]] == [mid]
        recall = next(t for t in before["trace"] if t["stage"] == "recall")
        assert recall["pending_scored"] == 1
        filtered = await query.query(svc, QueryParams(text="staging restored", namespace="a", types=("todo",)))
        assert filtered["results"] == []  # (its filter applies to pending stores too)
        assert svc.store.get_many([mid]) == {}
        # a listing and a delete of that namespace wait for the commit, then see it
        results: dict[str, Any] = {}

        async def listing() -> None:
            results["list"] = await memories.list_memories(svc, ListParams(namespace="a"))

        async with anyio.create_task_group() as tg:
            tg.start_soon(listing)
            await anyio.sleep(0.3)
            assert not results, "a listing answered before the pending store was committed"
            # another namespace does not wait
            other = await query.query(svc, QueryParams(text="when is staging restored", namespace="b"))
            assert other["results"] == []
            gate.set()
        assert [m["id"] for m in results["list"]["memories"]] == [mid]
        after = await query.query(svc, QueryParams(text="when is staging restored", namespace="a", explain=True))
        assert [r["id"] for r in after["results"]] == [mid]
        for key in ("cosine", "bm25", "fused"):
            assert abs(after["results"][0]["signals"][key] - before["results"][0]["signals"][key]) < 1e-4, key
        assert svc.pending.figures()["rows"] == 0
        assert (await memories.delete(svc, DeleteParams(id=mid)))["deleted"] is True

    run_gated(tmp_path, body)


def test_a_store_committed_between_the_two_searches_keeps_both_scores(tmp_path: Path) -> None:
    """A store pending when a query begins and committed after its full-text search but
    before its vector search is found by the vector search only: its BM25 score still
    counts (it was lost once, and a ranking that hung on it flipped)."""
    texts = ["The queue worker retries failed jobs with exponential backoff", "Payroll runs on the last Friday"]

    async def body(svc: Service, gate: threading.Event) -> None:
        for text in texts[1:]:  # (committed: the gate holds only what is stored while it is shut)
            gate.set()
            await memories.store_one(svc, StoreParams(text=text, namespace="a"))
            await svc.pending.wait_namespace("a")
            gate.clear()
        mid = (await memories.store_one(svc, StoreParams(text=texts[0], namespace="a")))["id"]
        assert svc.pending.figures()["rows"] == 1
        searched = threading.Event()
        text_search, embed = svc.neighbours.text_search, svc.embed

        def spied(*args: Any, **kwargs: Any) -> Any:
            try:
                return text_search(*args, **kwargs)
            finally:
                searched.set()

        async def late(texts: list[str], **kwargs: Any) -> Any:
            if not kwargs.get("urgent"):  # (the writer's own embedding of the store)
                return await embed(texts, **kwargs)
            # the full-text search has run; the commit lands before the question's vector
            await anyio.to_thread.run_sync(searched.wait, 30)
            gate.set()
            await svc.pending.wait_namespace("a")
            return await embed(texts, **kwargs)

        svc.neighbours.text_search = spied  # type: ignore[method-assign]
        svc.embed = late  # type: ignore[method-assign]
        q = QueryParams(text="retries with exponential backoff", namespace="a", explain=True)
        raced = await query.query(svc, q)
        svc.neighbours.text_search, svc.embed = text_search, embed  # type: ignore[method-assign]
        assert searched.is_set() and svc.pending.figures()["rows"] == 0
        recall = next(t for t in raced["trace"] if t["stage"] == "recall")
        assert recall["pending_scored"] == 1
        calm = await query.query(svc, q)
        assert [r["id"] for r in raced["results"]] == [r["id"] for r in calm["results"]]
        got, want = raced["results"][0], calm["results"][0]
        assert got["id"] == mid
        for key in ("cosine", "bm25", "fused"):
            assert got["signals"].get(key) == pytest.approx(want["signals"][key], abs=1e-4), key

    run_gated(tmp_path, body)


def test_same_id_and_same_text_while_pending(tmp_path: Path) -> None:
    """An idempotent retry of a pending id answers ``created: false``, and the same text
    again answers ``duplicate_of`` the pending memory: both once it is committed, never a
    second row."""
    text = "Release notes are drafted in the wiki before the tag is pushed"

    async def body(svc: Service, gate: threading.Event) -> None:
        first = await memories.store_one(svc, StoreParams(text=text, namespace="a", id="fixed-1"))
        assert first == {"id": "fixed-1", "created": True}
        replies: list[dict[str, Any]] = []

        async def again(p: StoreParams) -> None:
            replies.append(await memories.store_one(svc, p))

        async with anyio.create_task_group() as tg:
            tg.start_soon(again, StoreParams(text="something else entirely", namespace="a", id="fixed-1"))
            tg.start_soon(again, StoreParams(text=text.upper() + "!", namespace="a"))
            await anyio.sleep(0.3)
            assert not replies, "answered before the pending memory they depend on was committed"
            gate.set()
        by_kind = sorted(replies, key=lambda r: "duplicate_of" in r)
        assert by_kind[0] == {"id": "fixed-1", "created": False}
        assert by_kind[1]["duplicate_of"] == "fixed-1" and by_kind[1]["created"] is False
        await admin.flush(svc, FlushParams())
        assert svc.store.counts() == {"a": {"memory": 1}}
        assert svc.store.get_many(["fixed-1"])["fixed-1"].text == text

    run_gated(tmp_path, body)


def test_the_pending_set_is_bounded_with_a_typed_error(tmp_path: Path) -> None:
    async def body(svc: Service, gate: threading.Event) -> None:
        await memories.store_batch(
            svc, StoreBatchParams(items=tuple(StoreParams(text=f"bulk fact {k}", namespace="a") for k in range(3)))
        )  # a batch larger than the bound fits an empty set
        with pytest.raises(Unavailable) as err:
            await memories.store_one(svc, StoreParams(text="one more fact", namespace="a", id="refused"))
        assert err.value.data["reason"] == "busy" and err.value.data["pending"] == 3
        assert svc.pending.figures()["refused"] == 1
        gate.set()
        await admin.flush(svc, FlushParams())
        assert svc.store.get_many(["refused"]) == {}, "a refused store left a memory"
        assert sum(svc.store.counts()["a"].values()) == 3
        # room again
        assert (await memories.store_one(svc, StoreParams(text="one more fact", namespace="a")))["created"]

    run_gated(tmp_path, body, pending_max_rows=2, pending_wait_s=0.2)


def test_a_checkpoint_keeps_pending_stores_in_the_log(tmp_path: Path) -> None:
    """A checkpoint deletes the log segments it made durable; stores acknowledged there but
    not committed are logged again in the new segment first."""

    async def body(svc: Service, gate: threading.Event) -> None:
        reply = await memories.store_one(svc, StoreParams(text="The cache TTL is five minutes", namespace="a"))
        await svc.checkpoint()  # (a maintenance op: it passes the gate)
        records = WriteAheadLog(svc.writer.wal.directory, sync=False).read().records
        assert [r["id"] for r in records if r.get("t") == "row"] == [reply["id"]]
        assert svc.writer.wal.segments() == [svc.writer.wal.seq], "the old segments were not dropped"
        gate.set()
        await admin.flush(svc, FlushParams())
        assert reply["id"] in svc.store.get_many([reply["id"]])
        out = await stats.stats(svc, None)
        assert out["store"]["pending"]["acknowledged"] == 1

    run_gated(tmp_path, body)


def test_store_ack_commit_still_acknowledges_after_the_commit(tmp_path: Path) -> None:
    async def body(svc: Service, gate: threading.Event) -> None:
        reply = await memories.store_one(svc, StoreParams(text="Builds run on two cores", namespace="a"))
        assert svc.store.get_many([reply["id"]]) != {} and svc.pending.acknowledged == 0

    run_gated(tmp_path, body, store_ack="commit")


WORDS = [
    "billing",
    "invoice",
    "kafka",
    "redis",
    "deploy",
    "canary",
    "tokens",
    "oauth",
    "mobile",
    "android",
    "docker",
    "helm",
    "terraform",
    "grafana",
    "alerts",
    "pager",
    "backup",
    "restore",
    "snapshot",
    "latency",
    "cache",
    "queue",
    "schema",
    "migration",
    "index",
    "vacuum",
    "replica",
    "shard",
    "locale",
    "fonts",
    "printer",
    "budget",
    "hiring",
    "roadmap",
    "lunch",
    "parking",
    "coffee",
    "laptop",
]


def _store_and_read(socket: str, worker: int, seen: list[str], errors: list[str]) -> None:
    rng = random.Random(worker)
    with Client(socket, timeout=60) as writer, Client(socket, timeout=60) as reader:
        for k in range(12):
            # unlike texts: near twins would be merged or outranked by design (docs/scoring.md)
            text = " ".join(rng.sample(WORDS, 6)) + f" (note {worker}.{k})"
            mid = writer.store(text, namespace="vis")
            if reader.get(mid)["text"] != text:
                errors.append(f"get {mid}")
            if k % 3 == 0:
                hits = [h["id"] for h in reader.query(text, namespace="vis", limit=3)]
                if mid not in hits:
                    errors.append(f"query {mid}")
            seen.append(mid)


def test_every_client_sees_a_store_once_acknowledged(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory().start()
    seen: list[str] = []
    errors: list[str] = []
    threads = [threading.Thread(target=_store_and_read, args=(str(d.socket), w, seen, errors)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    with d.client() as c:
        assert c.stats()["namespaces"]["vis"]["total"] == len(seen) == 48
        assert c.stats()["store"]["pending"]["acknowledged"] >= 48
        listed = c.list(namespace="vis", limit=100)["memories"]
        assert sorted(m["id"] for m in listed) == sorted(seen)
    assert d.stop() == 0
