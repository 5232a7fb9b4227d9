"""The rerank stage's pure parts: the boost formula, the circuit breaker (injected clock), the
off switches, the model-directory rules and the state machine of the background loader."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import anyio
import pytest

from omegad.config import ConfigError, load_config
from omegad.models.files import read_reranker_dir
from omegad.recall.crossencoder import sigmoid
from omegad.recall.rerank import Breaker, Reranker, boost


def test_sigmoid_is_absolute_and_stable() -> None:
    assert sigmoid(0.0) == 0.5
    assert sigmoid(40.0) == pytest.approx(1.0) and sigmoid(-40.0) == pytest.approx(0.0, abs=1e-15)
    assert sigmoid(-1000.0) == 0.0 and sigmoid(1000.0) == 1.0  # no overflow
    assert sigmoid(2.0) == pytest.approx(1 / (1 + math.exp(-2.0)))
    assert sigmoid(-2.0) + sigmoid(2.0) == pytest.approx(1.0)


def test_boost_formula() -> None:
    score, norm = boost(0.8, 0.0, 0.3)
    assert norm == 0.5 and score == pytest.approx(0.8 * 1.15)
    score, norm = boost(0.5, 3.0, 0.3)
    assert score == pytest.approx(0.5 * (1 + 0.3 * sigmoid(3.0)))
    # A lone candidate is not pushed to the top of the scale: its norm is its own sigmoid,
    # not 1.0 as min-max normalisation within the batch would make it.
    assert boost(1.0, -4.0, 0.3)[1] == pytest.approx(sigmoid(-4.0)) and boost(1.0, -4.0, 0.3)[1] < 0.02
    # weight 0 leaves the score alone; the boost is bounded by 1 + w
    assert boost(0.7, 9.0, 0.0)[0] == 0.7
    assert boost(0.7, 50.0, 0.3)[0] <= 0.7 * 1.3 + 1e-12


def test_boost_refines_without_overriding() -> None:
    # heuristic 1.0 with the worst logit still beats heuristic 0.7 with the best: the boost
    # is at most ×1.3, so a type/recency advantage of more than 30% survives the reranker.
    strong, _ = boost(1.0, -20.0, 0.3)
    weak, _ = boost(0.7, 20.0, 0.3)
    assert strong > weak
    # ... while between close heuristic scores the cross-encoder decides.
    a, _ = boost(0.80, -2.0, 0.3)
    b, _ = boost(0.78, 2.0, 0.3)
    assert b > a


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_breaker_opens_after_max_failures_and_half_opens_after_cooldown() -> None:
    clock = Clock()
    b = Breaker(3, 300.0, clock)
    assert b.allow()
    b.failure("one")
    b.failure("two")
    assert b.allow() and not b.is_open  # two failures: still trying
    b.failure("three")
    assert not b.allow() and b.open_until == 1300.0 and b.last_error == "three"
    clock.t += 299.9
    assert not b.allow()
    clock.t += 0.1
    assert b.allow()  # cooldown over: one attempt goes through
    b.failure("four")  # ...and failing again re-opens at once
    assert not b.allow() and b.open_until == pytest.approx(1600.0)
    clock.t += 300
    b.success()
    assert b.allow() and b.failures == 0 and b.open_until is None and b.last_error is None


def _config(tmp_path: Path, **env: str) -> object:
    return load_config(env={"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), **env})


def test_off_switches(tmp_path: Path) -> None:
    assert load_config(env={"HOME": str(tmp_path)}).reranker_enabled
    assert not load_config(env={"HOME": str(tmp_path), "OMEGAD_CROSS_ENCODER": "0"}).reranker_enabled
    # the seed product's switch is honoured too, and the new name wins when both are set
    assert not load_config(env={"HOME": str(tmp_path), "OMEGA_CROSS_ENCODER": "0"}).reranker_enabled
    both = {"HOME": str(tmp_path), "OMEGA_CROSS_ENCODER": "0", "OMEGAD_CROSS_ENCODER": "1"}
    assert load_config(env=both).reranker_enabled
    f = tmp_path / "c.toml"
    f.write_text("[reranker]\nenabled = false\nweight = 0.5\nmax_tokens = 128\n")
    cfg = load_config(f, env={"HOME": str(tmp_path)})
    assert not cfg.reranker_enabled and cfg.reranker_weight == 0.5 and cfg.reranker_max_tokens == 128
    with pytest.raises(ConfigError, match="16 to 512"):
        f.write_text("[reranker]\nmax_tokens = 4\n")
        load_config(f, env={"HOME": str(tmp_path)})
    with pytest.raises(ConfigError, match="OMEGA_CROSS_ENCODER"):
        load_config(env={"HOME": str(tmp_path), "OMEGA_CROSS_ENCODER": "maybe"})

    async def main() -> None:
        r = Reranker(load_config(env={"HOME": str(tmp_path), "OMEGAD_CROSS_ENCODER": "0"}))
        assert r.state == "disabled" and not r.ready
        async with anyio.create_task_group() as tg:
            await tg.start(r.run)
            r.request()
            assert not r._attempt_due()
            await anyio.sleep(0.1)
            r.close()
            tg.cancel_scope.cancel()
        assert r.attempts == 0  # never loads
        assert r.describe()["state"] == "disabled" and "OMEGAD_CROSS_ENCODER" in r.describe()["detail"]
        # and the same loader with the stage on does attempt at start-up
        on = Reranker(load_config(env={"HOME": str(tmp_path)}))
        async with anyio.create_task_group() as tg:
            await tg.start(on.run)
            with anyio.fail_after(10):
                while on.attempts == 0 or on.attempting:
                    await anyio.sleep(0.01)
            on.close()
            tg.cancel_scope.cancel()
        assert on.attempts == 1 and on.state == "missing"

    anyio.run(main)


def test_model_dir_rules(tmp_path: Path) -> None:
    from omegad.models.files import ModelMissing

    d = tmp_path / "m"
    d.mkdir()
    with pytest.raises(ModelMissing, match=r"lacks model\.onnx and tokenizer\.json"):
        read_reranker_dir(d)
    (d / "tokenizer.json").write_text("{}")
    (d / "model.onnx").write_bytes(b"x")
    files = read_reranker_dir(d)
    assert files.onnx.name == "model.onnx" and files.quantization == "none (fp32)"
    (d / "model_int8.onnx").write_bytes(b"y")
    files = read_reranker_dir(d)
    assert files.onnx.name == "model_int8.onnx" and "int8" in files.quantization  # preferred when present
    (d / "manifest.json").write_text(
        '{"model_id": "x/y", "quantization": {"model_int8.onnx": "int8 per-channel (local)"}}'
    )
    files = read_reranker_dir(d)
    assert files.model_id == "x/y" and files.quantization == "int8 per-channel (local)"
    (d / "manifest.json").write_text("{not json")
    with pytest.raises(ModelMissing, match="unreadable"):
        read_reranker_dir(d)


def test_loader_states_and_breaker_with_injected_clock(tmp_path: Path) -> None:
    """missing → (files appear, but corrupt) failed ×3 → breaker open until a wall time →
    cooldown passes → an attempt is allowed again. Attempts happen only when a query asks,
    at most every 5 s. Uses the real loader on real files."""
    model_dir = tmp_path / "rr"
    f = tmp_path / "c.toml"
    f.write_text(f'[reranker]\nmodel_dir = "{model_dir}"\nmax_failures = 3\ncooldown_s = 300\n')
    config = load_config(f, env={"HOME": str(tmp_path)})
    clock = Clock()

    async def main() -> None:
        r = Reranker(config, clock=clock, wall=lambda: 1_700_000_000.0)
        await r.attempt()
        d = r.describe()
        assert r.state == "missing" and d["directory"] == str(model_dir)
        assert str(model_dir) in d["fix"] and "omegad models fetch reranker" in d["fix"]
        assert r.breaker.failures == 0  # absent files are not a failed load
        model_dir.mkdir()
        (model_dir / "model.onnx").write_bytes(b"\x08\x07 this is not an onnx graph")
        (model_dir / "tokenizer.json").write_text("{}")
        clock.t += 10
        assert not r._attempt_due()  # no query asked: no new attempt, however long ago the last
        for n in (1, 2, 3):
            r.request()  # a query asks
            clock.t += 10  # attempts are spaced on demand
            assert r._attempt_due()
            await r.attempt()
            assert r.state == "failed" and r.breaker.failures == n
            assert "load failed" in r.describe()["last_error"]
        d = r.describe()
        assert d["until"] == "2023-11-14T22:18:20Z"  # wall 1_700_000_000 + 300 s
        clock.t += 299
        r.request()
        assert not r._attempt_due() and r.attempts == 4
        clock.t += 1
        assert r._attempt_due()  # the request made while the breaker was open still counts
        await r.attempt()  # still corrupt: re-opens at once
        assert r.breaker.is_open and r.attempts == 5

    anyio.run(main)


def test_unreadable_model_directory_is_missing_not_a_crash(tmp_path: Path) -> None:
    """A directory the daemon may not search: reported, and the loader keeps running."""
    import os

    if os.geteuid() == 0:
        # root searches any directory; a file where the directory should be fails the same way
        (tmp_path / "rr").write_text("not a directory")
        model_dir = tmp_path / "rr" / "inner"
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0)
        model_dir = locked / "rr"
    f = tmp_path / "c.toml"
    f.write_text(f'[reranker]\nmodel_dir = "{model_dir}"\n')

    async def main() -> None:
        r = Reranker(load_config(f, env={"HOME": str(tmp_path)}))
        await r.attempt()
        assert r.state == "missing" and str(model_dir) in r.describe()["directory"]
        assert "reranker.model_dir" in r.describe()["fix"]  # the fetch command would not fill it

    anyio.run(main)


def test_an_unused_model_is_released_and_loaded_again_by_the_next_batch(tmp_path: Path) -> None:
    """After ``reranker.idle_s`` unused the model leaves memory but the stage stays ready: the
    next batch loads the same files again and scores as before; files that went meanwhile
    fail the stage (the heuristic order is kept) instead of being retried forever."""
    tiny = Path(__file__).resolve().parents[1] / "data" / "tiny_reranker"
    model_dir = tmp_path / "rr"
    shutil.copytree(tiny, model_dir)
    f = tmp_path / "c.toml"
    f.write_text(f'[reranker]\nmodel_dir = "{model_dir}"\nidle_s = 60\n')
    clock = Clock()
    pairs = [("when do tokens expire", "access tokens expire after 15 minutes"), ("port", "billing runs on 8443")]

    async def main() -> None:
        r = Reranker(load_config(f, env={"HOME": str(tmp_path)}), clock=clock)
        async with anyio.create_task_group() as tg:
            await tg.start(r.run)
            with anyio.fail_after(60):
                while r.state != "ready":
                    await anyio.sleep(0.01)
            before = await r.scores(pairs)
            assert before is not None and r.resident
            assert not await r.release() and r.release_due_in() == 60
            clock.t += 60
            assert await r.release()
            assert r.ready and not r.resident and r.release_due_in() == math.inf
            assert r.describe()["resident"] is False and r.describe()["model"] == "omegad/tiny-test-cross-encoder"
            assert await r.scores(pairs) == before
            assert r.resident and r.reloads == 1 and r.counters()["releases"] == 1
            clock.t += 60
            assert await r.release()
            shutil.rmtree(model_dir)
            assert await r.scores(pairs) is None
            assert r.state == "failed" and "loading the released model again failed" in r.describe()["last_error"]
            tg.cancel_scope.cancel()

    anyio.run(main)
