"""The rerank stage inside a real `Service` (real embedder, real LanceDB store, real tiny
cross-encoder), where the test can see exactly which pairs reached the model."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from omegad.app import admin, memories
from omegad.app import query as query_handler
from omegad.app.service import Service
from omegad.config import load_config
from omegad.models.files import resolve_embedding
from omegad.recall.embed import Embedder
from omegad.recall.pipeline import Candidate
from omegad.requests import FlushParams, QueryParams, StoreBatchParams, StoreParams
from omegad.storage.store import MemoryStore

from ..helpers import REPO

TINY = REPO / "tests" / "data" / "tiny_reranker"


def run_service(tmp_path: Path, body: Callable[[Service], Awaitable[None]], model_dir: Path = TINY) -> None:
    config = load_config(env={"HOME": str(tmp_path), "OMEGAD_RERANKER_MODEL_DIR": str(model_dir)})
    config = config.with_overrides(data_dir=tmp_path / "data", model_cache_dir=load_config().model_cache_dir)

    async def main() -> None:
        files = resolve_embedding(config.embedding_model_dir, config.model_cache_dir)
        embedder = await anyio.to_thread.run_sync(lambda: Embedder(files, threads=2))
        store = await anyio.to_thread.run_sync(MemoryStore.open, config.data_dir, embedder.model_id, embedder.dim)
        service = Service(config, embedder, store)
        async with anyio.create_task_group() as tg:
            await tg.start(service.run)
            with anyio.fail_after(60):
                while not service.reranker.ready:
                    assert service.reranker.state in ("loading", "ready"), service.reranker.describe()
                    await anyio.sleep(0.02)
            try:
                await body(service)
            finally:
                service.close()
                tg.cancel_scope.cancel()

    anyio.run(main)


def _item(text: str, namespace: str) -> StoreParams:
    return StoreParams(text=text, type="fact", namespace=namespace)


def test_reranker_only_sees_the_callers_namespace(tmp_path: Path) -> None:
    mine = [f"our deploy pipeline step {i} pushes the image to the registry" for i in range(6)]
    # The other namespace holds texts closer to the query than any of ours.
    theirs = [f"how do we deploy: step {i} deploys the image to the registry" for i in range(30)]
    received: list[tuple[str, str]] = []

    async def body(service: Service) -> None:
        await memories.store_batch(service, StoreBatchParams(items=tuple(_item(t, "mine") for t in mine)))
        await memories.store_batch(service, StoreBatchParams(items=tuple(_item(t, "theirs") for t in theirs)))
        # background work first (the contradiction checker scores neighbour pairs with the
        # same model): from here on the spy sees only what the queries send
        await admin.flush(service, FlushParams())
        encoder = service.reranker.encoder
        assert encoder is not None
        real = encoder.score

        def spy(pairs: Any) -> Any:
            received.extend(pairs)
            return real(pairs)

        encoder.score = spy  # type: ignore[method-assign]
        reply = await query_handler.query(service, _query("how do we deploy the image?", "mine"))
        (stage,) = [s for s in reply["trace"] if s["stage"] == "rerank"]
        assert stage["pairs"] == len(mine) and stage["scored"] == len(mine)
        assert {r["namespace"] for r in reply["results"]} == {"mine"}
        # and the other way round: their query sees only theirs
        received_before = len(received)
        reply = await query_handler.query(service, _query("how do we deploy the image?", "theirs", limit=10))
        assert {r["namespace"] for r in reply["results"]} == {"theirs"}
        assert {p for _, p in received[received_before:]} <= set(theirs)
        assert len(received) - received_before == 20  # top_k of the 30 candidates

    run_service(tmp_path, body)
    assert received, "the reranker received nothing"
    first = received[: len(mine)]
    assert {p for _, p in first} == set(mine)
    assert not {p for _, p in first} & set(theirs)


def _query(text: str, namespace: str, limit: int = 5) -> QueryParams:
    return QueryParams(text=text, limit=limit, namespace=namespace, explain=True)


def test_concurrent_queries_share_onnx_runs(tmp_path: Path) -> None:
    """Eight rerank calls arriving together go through one or two ONNX runs, not eight, and
    each gets exactly the scores it would get alone."""

    async def body(service: Service) -> None:
        store_reply = await memories.store_batch(
            service,
            StoreBatchParams(items=tuple(_item(f"memory number {i} about topic {i % 3}", "n") for i in range(20))),
        )
        await admin.flush(service, FlushParams())  # the contradiction checker's model calls are done
        rows = await anyio.to_thread.run_sync(service.store.get_many, store_reply["ids"])
        queries = [f"question {q} about topic {q % 3}" for q in range(8)]

        def candidates() -> list[Candidate]:
            return [Candidate(row=rows[i], score=1.0) for i in store_reply["ids"]]

        alone: dict[str, list[float]] = {}
        for q in queries:
            cs = candidates()
            await service.reranker.rerank(q, cs)
            alone[q] = [c.rerank_logit or 0.0 for c in cs]
        service.reranker.cache.clear()
        runs_before = service.reranker.batcher.batches
        together: dict[str, list[float]] = {}

        async def one(q: str) -> None:
            cs = candidates()
            detail = await service.reranker.rerank(q, cs)
            assert detail["scored"] == 20
            together[q] = [c.rerank_logit or 0.0 for c in cs]

        async with anyio.create_task_group() as tg:
            for q in queries:
                tg.start_soon(one, q)
        runs = service.reranker.batcher.batches - runs_before
        assert 1 <= runs <= 2, runs
        for q in queries:
            assert together[q] == pytest.approx(alone[q], abs=1e-4)

    run_service(tmp_path, body)


def test_a_bad_pair_fails_only_its_own_query_in_a_shared_batch(tmp_path: Path) -> None:
    """An inference error in a batch shared by several queries: the batch is retried pair by
    pair, the queries without the bad pair are reranked, the model stays loaded."""
    import shutil

    from tokenizers import Tokenizer

    model_dir = tmp_path / "reranker"
    shutil.copytree(TINY, model_dir)
    tok = Tokenizer.from_file(str(TINY / "tokenizer.json"))
    tok.add_tokens(["zzzboom"])  # an id past the model's vocabulary: ONNX Runtime fails on it
    tok.save(str(model_dir / "tokenizer.json"))

    async def body(service: Service) -> None:
        store_reply = await memories.store_batch(
            service, StoreBatchParams(items=tuple(_item(f"note {i} on the deploy", "n") for i in range(5)))
        )
        await admin.flush(service, FlushParams())  # the contradiction checker's model calls are done
        rows = await anyio.to_thread.run_sync(service.store.get_many, store_reply["ids"])
        details: dict[str, dict[str, Any]] = {}
        batches_before = service.reranker.batcher.batches

        async def one(q: str) -> None:
            cs = [Candidate(row=rows[i], score=1.0) for i in store_reply["ids"]]
            details[q] = await service.reranker.rerank(q, cs)

        async with anyio.create_task_group() as tg:
            for q in ["first deploy question", "zzzboom deploy", "second", "third", "fourth"]:
                tg.start_soon(one, q)
        assert service.reranker.batcher.batches - batches_before <= 2  # the bad query shared a batch
        assert details["zzzboom deploy"]["skipped"].startswith("inference error:")
        for q in ["first deploy question", "second", "third", "fourth"]:
            assert details[q]["scored"] == 5, details[q]
        assert service.reranker.errors == 1 and service.reranker.ready

    run_service(tmp_path, body, model_dir)
