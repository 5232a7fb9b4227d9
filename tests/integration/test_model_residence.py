"""Models leave memory once unused (``embedding.idle_s``, ``reranker.idle_s``) and come back
with the next call that needs them, giving the same answers: a real daemon with the real
embedding model and the committed tiny cross-encoder (tests/data/tiny_reranker)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from omegad.models.files import read_reranker_dir
from omegad.recall.crossencoder import CrossEncoder

from ..helpers import REPO, Daemon

TINY = REPO / "tests" / "data" / "tiny_reranker"

IDLE = "[embedding]\nidle_s = 0.5\n[reranker]\nidle_s = 0.5\n"

MEMORIES = [
    "Access tokens are JWTs that expire after 15 minutes; refresh tokens rotate on every use.",
    "The login page broke because the session cookie lacked SameSite=None on the staging domain.",
    "The billing service runs on port 8443 behind the internal load balancer.",
    "Rotate the signing key for session tokens before the end of the quarter.",
    "Staging uses Postgres 15 while production still runs Postgres 14.",
]


def _models(c: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    m = c.stats()["models"]
    return m["embedding"], m["reranker"]


def _wait_released(c: Any, timeout: float = 60.0) -> tuple[dict[str, Any], dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        embedding, reranker = _models(c)
        if not embedding["resident"] and not reranker["resident"]:
            return embedding, reranker
        assert time.monotonic() < deadline, f"the unused models stayed in memory: {embedding} {reranker}"
        time.sleep(0.1)


def _ranked(reply: dict[str, Any]) -> list[tuple[str, float, float]]:
    # (scores move with access counts between two queries; the model's signals do not)
    return [(r["id"], r["signals"]["cosine"], r["signals"]["rerank_logit"]) for r in reply["results"]]


def _rerank(reply: dict[str, Any]) -> dict[str, Any]:
    (stage,) = [s for s in reply["trace"] if s["stage"] == "rerank"]
    return stage  # type: ignore[no-any-return]


def test_unused_models_leave_memory_and_come_back_with_the_same_answers(tmp_path: Path) -> None:
    d = Daemon(tmp_path, env={"OMEGAD_RERANKER_MODEL_DIR": str(TINY)}, config=IDLE).start()
    try:
        with d.client() as c:
            for text in MEMORIES:
                c.store(text, namespace="n")
            c.flush()
            question = "when do session tokens expire"
            first = c.query(question, namespace="n", limit=5, explain=True)
            assert _rerank(first)["scored"] == len(first["results"]) > 0, _rerank(first)

            embedding, reranker = _wait_released(c)
            assert embedding["state"] == "ready" and reranker["state"] == "ready"
            assert embedding["releases"] >= 1 and reranker["releases"] >= 1
            assert c.hello()["status"] == "ok"
            assert c.hello()["reranker"]["resident"] is False
            status = subprocess.run(
                [sys.executable, "-m", "omegad", "status", "--socket", str(d.socket)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert status.returncode == 0 and "out of memory until the next query" in status.stdout, status.stdout

            # the question embeds again (the embedder loads again); its pairs are cached
            again = c.query(question, namespace="n", limit=5, explain=True)
            assert _ranked(again) == _ranked(first)
            embedding, _ = _models(c)
            assert embedding["resident"] and embedding["loads"] >= 2

            # a new question needs the reranker's model: it loads again and scores as the file does
            _wait_released(c)
            other = "which port does the billing service listen on"
            reply = c.query(other, namespace="n", limit=5, explain=True)
            stage = _rerank(reply)
            assert stage["scored"] == len(reply["results"]) > 0 and "skipped" not in stage, stage
            _, reranker = _models(c)
            assert reranker["reloads"] >= 1 and reranker["errors"] == 0, reranker
            encoder = CrossEncoder(read_reranker_dir(TINY))
            texts = {m["id"]: m["text"] for m in reply["results"]}
            logits, _ = encoder.score([(other, texts[r["id"]]) for r in reply["results"]])
            for r, logit in zip(reply["results"], logits.tolist(), strict=True):
                assert abs(r["signals"]["rerank_logit"] - logit) < 2e-4, (r, logit)

            # a store made while the model is out of memory is embedded and found
            _wait_released(c)
            new = c.store("The deploy pipeline pushes images to the registry at registry.internal:5000.", namespace="n")
            c.flush()
            found = c.query("where are container images pushed", namespace="n", limit=3)
            assert new in [r["id"] for r in found]
        assert '"event": "models_released"' in d.log()
    finally:
        code = d.stop()
        d.cleanup()
        assert code == 0, d.log()


def test_idle_zero_keeps_the_models(tmp_path: Path) -> None:
    config = "[embedding]\nidle_s = 0\n[reranker]\nidle_s = 0\n"
    d = Daemon(tmp_path, env={"OMEGAD_RERANKER_MODEL_DIR": str(TINY)}, config=config).start()
    try:
        with d.client() as c:
            c.store(MEMORIES[0], namespace="n")
            c.query("token expiry", namespace="n")
            time.sleep(7)  # past RELEASE_CHECK_S, which a release of an idle_s of 0 would wait at most
            embedding, reranker = _models(c)
            assert embedding["resident"] and embedding["releases"] == 0, embedding
            assert reranker["resident"] and reranker["releases"] == 0, reranker
    finally:
        code = d.stop()
        d.cleanup()
        assert code == 0, d.log()
