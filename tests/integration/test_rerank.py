"""The rerank stage in a real daemon with the committed tiny cross-encoder
(tests/data/tiny_reranker): scores, explain, cache, states, off switches and fallbacks."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from omegad.config import load_config
from omegad.models.fetch import RERANKER_HUB_REPO, RERANKER_VARIANTS
from omegad.models.files import read_reranker_dir
from omegad.recall.crossencoder import CrossEncoder, sigmoid

from ..helpers import REPO, Daemon

TINY = REPO / "tests" / "data" / "tiny_reranker"

MEMORIES = [
    ("decision", "Access tokens are JWTs that expire after 15 minutes; refresh tokens rotate on every use."),
    ("lesson", "The login page broke because the session cookie lacked SameSite=None on the staging domain."),
    ("preference", "The user prefers short commit messages in the imperative mood."),
    ("error", "psql FATAL: too many connections for role app; the worker pool never released connections."),
    ("fact", "The billing service runs on port 8443 behind the internal load balancer."),
    ("todo", "Rotate the signing key for session tokens before the end of the quarter."),
    ("note", "Token refresh happens in the axios interceptor, which retries the original request once."),
    ("fact", "Staging uses Postgres 15 while production still runs Postgres 14."),
]


def wait_state(d: Daemon, state: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    with d.client() as c:
        while True:
            r: dict[str, Any] = c.hello()["reranker"]
            if r["state"] == state:
                return r
            if time.monotonic() > deadline:
                raise AssertionError(f"reranker never reached {state!r}: {r}\n{d.log()}")
            time.sleep(0.05)


def rerank_stage(reply: dict[str, Any]) -> dict[str, Any]:
    (stage,) = [s for s in reply["trace"] if s["stage"] == "rerank"]
    return stage


@pytest.fixture(scope="module")
def tiny_daemon(tmp_path_factory: pytest.TempPathFactory) -> Any:
    base = tmp_path_factory.mktemp("rerank")
    d = Daemon(base, env={"OMEGAD_RERANKER_MODEL_DIR": str(TINY)}).start()
    wait_state(d, "ready")
    yield d
    code = d.stop()
    d.cleanup()
    assert code == 0, d.log()


def test_ready_state_in_hello_stats_and_status(tiny_daemon: Daemon) -> None:
    with tiny_daemon.client() as c:
        r = c.hello()["reranker"]
        assert r["state"] == "ready"
        assert r["model"] == "omegad/tiny-test-cross-encoder"
        assert r["quantization"] == "none (fp32)" and r["threads"] == 2 and r["top_k"] == 20 and r["weight"] == 0.3
        assert r["graph"] == "as shipped (fusing is off)", r["graph"]  # reranker.fused is off by default
        s = c.stats()["models"]["reranker"]
        assert s["state"] == "ready" and s["errors"] == 0 and s["load_ms"] > 0
    out = subprocess.run(
        [sys.executable, "-m", "omegad", "status", "--socket", str(tiny_daemon.socket)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "reranker: ok · omegad/tiny-test-cross-encoder" in out.stdout, out.stdout


def test_scores_follow_the_boost_formula_and_the_model(tiny_daemon: Daemon, ns: str) -> None:
    query = "how long do access tokens last before refresh?"
    with tiny_daemon.client() as c:
        c.store_batch([{"text": t, "type": ty, "namespace": ns} for ty, t in MEMORIES])
        c.flush()  # full-text index built: both queries see the same candidates
        on = c.query(query, namespace=ns, limit=8, explain=True)
        off = c.query(query, namespace=ns, limit=8, explain=True, rerank=False)
    stage = rerank_stage(on)
    assert stage["pairs"] == len(MEMORIES) and stage["scored"] == len(MEMORIES) and stage["cached"] == 0
    assert stage["tokens"] > len(MEMORIES) * 10 and stage["weight"] == 0.3
    assert rerank_stage(off)["skipped"] == "turned off by the request (rerank=false)"
    base = {r["id"]: r for r in off["results"]}
    assert set(base) == {r["id"] for r in on["results"]}

    # The daemon's logits are the model's: compare with the parity-tested local path.
    local = CrossEncoder(read_reranker_dir(TINY))
    logits, _ = local.score([(query, r["text"]) for r in on["results"]])
    for r, expected in zip(on["results"], logits.tolist(), strict=True):
        sig = r["signals"]
        assert sig["rerank_logit"] == pytest.approx(expected, abs=2e-4)
        assert sig["rerank"] == pytest.approx(sigmoid(sig["rerank_logit"]), abs=2e-4)
        # score = heuristic score × (1 + 0.3 × sigmoid(logit)); the other signals unchanged,
        # except the access factor: the first query's results were counted as accessed
        b = base[r["id"]]
        heuristic = b["score"] / b["signals"].get("access", 1.0) * sig.get("access", 1.0)
        assert b["signals"].get("access", 1.0) > sig.get("access", 1.0)
        assert r["score"] == pytest.approx(heuristic * (1 + 0.3 * sig["rerank"]), rel=1e-3)
        assert sig["type_weight"] == base[r["id"]]["signals"]["type_weight"]
    scores = [r["score"] for r in on["results"]]
    assert scores == sorted(scores, reverse=True)
    assert len({round(x, 3) for x in logits.tolist()}) > 3  # the model really discriminates


def test_repeated_query_costs_no_model_time(tiny_daemon: Daemon, ns: str) -> None:
    with tiny_daemon.client() as c:
        c.store_batch([{"text": t, "type": ty, "namespace": ns} for ty, t in MEMORIES[:5]])
        c.flush()  # full-text index built: both queries see the same candidates
        first = c.query("postgres version in staging", namespace=ns, explain=True)
        before = c.stats()["models"]["reranker"]
        second = c.query("postgres version in staging", namespace=ns, explain=True)
        after = c.stats()["models"]["reranker"]
        assert rerank_stage(first)["scored"] == 5
        s2 = rerank_stage(second)
        assert s2["scored"] == 0 and s2["cached"] == 5 and s2["tokens"] == 0
        assert after["batches"] == before["batches"] and after["cache"]["hits"] == before["cache"]["hits"] + 5
        assert [r["id"] for r in first["results"]] == [r["id"] for r in second["results"]]
        # a new text version is a new cache key: the updated memory is scored again
        target = first["results"][0]["id"]
        c.update(target, text="Staging and production both run Postgres 16 since the upgrade.")
        third = c.query("postgres version in staging", namespace=ns, explain=True)
        assert rerank_stage(third)["scored"] == 1 and rerank_stage(third)["cached"] == 4
        # deleted and stored again under the same id with other text: version 1 again, but
        # not the old score
        c.delete(target)
        c.store("Production moved to Postgres 17 last week.", id=target, namespace=ns)
        c.flush()
        fourth = c.query("postgres version in staging", namespace=ns, explain=True)
        assert rerank_stage(fourth)["scored"] == 1 and rerank_stage(fourth)["cached"] == 4


def test_cli_explain_shows_the_stage(tiny_daemon: Daemon, ns: str) -> None:
    with tiny_daemon.client() as c:
        c.store_batch([{"text": t, "type": ty, "namespace": ns} for ty, t in MEMORIES[:3]])
        c.flush()  # full-text index built: both queries see the same candidates
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "omegad",
            "query",
            "session cookie",
            "--namespace",
            ns,
            "--explain",
            "--socket",
            str(tiny_daemon.socket),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "[rerank] 3 pairs (3 scored, 0 cached)" in out.stdout and "tokens" in out.stdout
    assert "rerank=" in out.stdout and "rerank_logit=" in out.stdout


def test_off_switch_of_the_seed_product(tmp_path: Path) -> None:
    d = Daemon(tmp_path, env={"OMEGAD_RERANKER_MODEL_DIR": str(TINY), "OMEGA_CROSS_ENCODER": "0"}).start()
    try:
        with d.client() as c:
            assert c.hello()["reranker"]["state"] == "disabled"
            c.store("a note about tokens", namespace="x")
            reply = c.query("tokens", namespace="x", explain=True)
            assert reply["results"] and "disabled" in rerank_stage(reply)["skipped"]
    finally:
        assert d.stop() == 0
        d.cleanup()


def test_missing_model_then_installed_without_restart(tmp_path: Path) -> None:
    model_dir = tmp_path / "reranker"
    d = Daemon(tmp_path, env={"OMEGAD_RERANKER_MODEL_DIR": str(model_dir)}).start()
    try:
        r = wait_state(d, "missing")
        assert "reranker.model_dir" in r["fix"] and "omegad models fetch reranker" in r["fix"]
        assert str(model_dir) in r["detail"]
        with d.client() as c:
            c.store_batch(["tokens expire after 15 minutes", "the cafeteria closes at three"])
            reply = c.query("token expiry", explain=True)
            assert len(reply["results"]) == 2
            assert (
                "missing" in rerank_stage(reply)["skipped"]
                and "omegad models fetch reranker" in rerank_stage(reply)["skipped"]
            )
            shutil.copytree(TINY, model_dir)
            time.sleep(5.2)  # load attempts on demand are spaced 5 s apart
            c.query("token expiry")  # asks for a background load, does not wait for it
        wait_state(d, "ready")
        with d.client() as c:
            reply = c.query("token expiry", explain=True)
            assert rerank_stage(reply)["pairs"] == 2
    finally:
        assert d.stop() == 0
        d.cleanup()


def test_truncated_model_fails_then_breaker_reports_until(tmp_path: Path) -> None:
    model_dir = tmp_path / "reranker"
    model_dir.mkdir()
    data = (TINY / "model.onnx").read_bytes()
    (model_dir / "model.onnx").write_bytes(data[: len(data) // 2])
    shutil.copy(TINY / "tokenizer.json", model_dir / "tokenizer.json")
    d = Daemon(
        tmp_path,
        env={"OMEGAD_RERANKER_MODEL_DIR": str(model_dir)},
        config="[reranker]\nmax_failures = 1\ncooldown_s = 600\n",
    ).start()
    try:
        r = wait_state(d, "failed")
        assert "load failed" in r["last_error"] and r["failures"] == 1 and r["until"]
        with d.client() as c:
            c.store("the daemon keeps serving with a broken reranker", namespace="x")
            reply = c.query("broken reranker", namespace="x", explain=True)
            assert reply["results"] and "failed" in rerank_stage(reply)["skipped"]
            assert c.stats()["models"]["reranker"]["load_attempts"] == 1  # breaker open: no retry
        out = subprocess.run(
            [sys.executable, "-m", "omegad", "status", "--socket", str(d.socket)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "reranker: error · failed until" in out.stdout, out.stdout
    finally:
        assert d.stop() == 0
        d.cleanup()


def test_inference_error_falls_back_logs_once_and_counts(tmp_path: Path) -> None:
    """A tokenizer with a word the model's vocabulary does not have makes ONNX Runtime fail
    on exactly the pairs containing it: a real inference error, no mock."""
    from tokenizers import Tokenizer

    model_dir = tmp_path / "reranker"
    shutil.copytree(TINY, model_dir)
    tok = Tokenizer.from_file(str(TINY / "tokenizer.json"))
    tok.add_tokens(["zzzboom"])
    tok.save(str(model_dir / "tokenizer.json"))
    d = Daemon(tmp_path, env={"OMEGAD_RERANKER_MODEL_DIR": str(model_dir)}).start()
    try:
        wait_state(d, "ready")
        with d.client() as c:
            c.store_batch([{"text": "the zzzboom incident took the API down", "namespace": "bad"}])
            c.store_batch([{"text": "the deploy incident took the API down", "namespace": "good"}])
            for _ in range(2):
                reply = c.query("zzzboom", namespace="bad", explain=True)
                assert len(reply["results"]) == 1
                assert rerank_stage(reply)["skipped"].startswith("inference error:")
            good = c.query("deploy incident", namespace="good", explain=True)
            assert rerank_stage(good)["pairs"] == 1  # other queries still reranked
            s = c.stats()["models"]["reranker"]
            assert s["errors"] == 2 and s["state"] == "ready" and "out of" in s["last_inference_error"]
            # three failures in a row drop the session (the breaker counts it)
            for _ in range(3):
                c.query("zzzboom", namespace="bad")
            assert c.hello()["reranker"]["state"] == "failed"
            assert c.query("deploy incident", namespace="good")  # still served
        lines = [json.loads(x) for x in d.log().splitlines() if x.startswith("{")]
        assert sum(1 for x in lines if x.get("event") == "rerank_inference_failed") == 1
    finally:
        assert d.stop() == 0
        d.cleanup()


def test_timeout_falls_back(tmp_path: Path) -> None:
    d = Daemon(tmp_path, env={"OMEGAD_RERANKER_MODEL_DIR": str(TINY)}, config="[reranker]\ntimeout_s = 0.0\n").start()
    try:
        wait_state(d, "ready")
        with d.client() as c:
            c.store("a memory", namespace="x")
            reply = c.query("memory", namespace="x", explain=True)
            assert reply["results"] and rerank_stage(reply)["skipped"].startswith("timeout")
            assert c.stats()["models"]["reranker"]["timeouts"] == 1
            assert c.ping() == {}
    finally:
        assert d.stop() == 0
        d.cleanup()


def test_background_download_never_stalls_a_query(tmp_path: Path) -> None:
    """With reranker.auto_download, a daemon without the model fetches it from the (local)
    hub in the background; queries meanwhile answer at once, unreranked, and say why."""
    from ..hub import blob_id, start_hub

    model = (TINY / "model.onnx").read_bytes()
    with start_hub() as hub:
        hub.files = {path: model for path, _ in RERANKER_VARIANTS.values()}
        hub.files["tokenizer.json"] = (TINY / "tokenizer.json").read_bytes()
        hub.lfs = {path for path, _ in RERANKER_VARIANTS.values()}
        hub.delay = 8.0  # a slow download
        cache = tmp_path / "cache"
        d = Daemon(
            tmp_path,
            env={
                "OMEGAD_MODEL_CACHE": str(cache),
                "OMEGAD_HUB_ENDPOINT": hub.endpoint,  # type: ignore[attr-defined]
                "OMEGAD_RERANKER_MODEL_DIR": "",  # the cache, where the download goes
            },
            config="[reranker]\nauto_download = true\n",
        )
        # the daemon still needs the embedding model: give it the one already fetched
        d.env["OMEGAD_EMBEDDING_MODEL_DIR"] = str(load_config().model_cache_dir / "all-MiniLM-L6-v2")
        d.start()
        try:
            wait_state(d, "downloading")
            with d.client() as c:
                c.store("a memory stored during the download", namespace="x")
                reply = c.query("memory", namespace="x", explain=True)
                assert reply["results"] and "downloading" in rerank_stage(reply)["skipped"]
                # the query came back while the download was still running
                assert c.hello()["reranker"]["state"] == "downloading"
            r = wait_state(d, "ready")
            assert r["model"] == RERANKER_HUB_REPO
            target = cache / "ms-marco-MiniLM-L-6-v2"
            manifest = json.loads((target / "manifest.json").read_text())
            assert manifest["files"]["tokenizer.json"] == blob_id((TINY / "tokenizer.json").read_bytes())
            with d.client() as c:
                assert rerank_stage(c.query("memory", namespace="x", explain=True))["pairs"] == 1
        finally:
            assert d.stop() == 0
            d.cleanup()


def test_stopping_during_a_download_does_not_wait_for_it(tmp_path: Path) -> None:
    from ..hub import start_hub

    with start_hub() as hub:
        hub.files = {path: b"x" * 1000 for path, _ in RERANKER_VARIANTS.values()}
        hub.files["tokenizer.json"] = b"{}"
        hub.lfs = {path for path, _ in RERANKER_VARIANTS.values()}
        hub.delay = 120.0  # a download that would take minutes
        d = Daemon(
            tmp_path,
            env={
                "OMEGAD_MODEL_CACHE": str(tmp_path / "cache"),
                "OMEGAD_HUB_ENDPOINT": hub.endpoint,  # type: ignore[attr-defined]
                "OMEGAD_RERANKER_AUTO_DOWNLOAD": "1",
                "OMEGAD_RERANKER_MODEL_DIR": "",
                "OMEGAD_EMBEDDING_MODEL_DIR": str(load_config().model_cache_dir / "all-MiniLM-L6-v2"),
            },
        ).start()
        try:
            wait_state(d, "downloading")
            time.sleep(0.5)
            assert d.stop(timeout=30) == 0  # not held up by the download thread
            assert "stopped" in d.log()
        finally:
            d.cleanup()


def test_a_float_reranker_runs_fused_when_configured(tmp_path: Path) -> None:
    """reranker.fused = true: the daemon loads the fused form of a float file (built and
    checked against the original when first loaded) and reranks with it."""
    d = Daemon(tmp_path, config="[reranker]\nfused = true\n", env={"OMEGAD_RERANKER_MODEL_DIR": str(TINY)}).start()
    try:
        wait_state(d, "ready")
        with d.client() as c:
            assert c.hello()["reranker"]["graph"].startswith("fused ("), c.hello()["reranker"]
            c.store("the staging database runs Postgres 16", namespace="fz")
            reply = c.query("which database does staging use", namespace="fz", explain=True)
            (stage,) = [t for t in reply["trace"] if t["stage"] == "rerank"]
            assert stage.get("scored") == 1, stage
    finally:
        code = d.stop()
        d.cleanup()
    assert code == 0, d.log()
