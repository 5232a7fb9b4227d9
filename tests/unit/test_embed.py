"""The real embedding model through onnxruntime + tokenizers."""

from __future__ import annotations

import math
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from omegad.config import load_config
from omegad.models.files import ModelMissing, read_model_dir, resolve_embedding
from omegad.recall.embed import Embedder, ModelChanged


@pytest.fixture(scope="module")
def embedder() -> Iterator[Embedder]:
    cfg = load_config()
    yield Embedder(resolve_embedding(cfg.embedding_model_dir, cfg.model_cache_dir), threads=2, batch_size=4)


def test_unit_vectors_of_the_model_dimension(embedder: Embedder) -> None:
    v = embedder.embed(["hello world", "a second, somewhat longer sentence about databases"])
    assert v.shape == (2, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_batching_and_padding_do_not_change_vectors(embedder: Embedder) -> None:
    texts = [f"sentence {i} " + "word " * (i * 7) for i in range(11)]  # several batches, uneven lengths
    together = embedder.embed(texts)
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    assert np.abs(together - alone).max() < 1e-4


def test_long_text_is_truncated_not_rejected(embedder: Embedder) -> None:
    long_text = "token " * 5000
    assert embedder.count_tokens([long_text]) == [256]
    v = embedder.embed([long_text])
    assert v.shape == (1, 384) and np.isfinite(v).all()


def test_semantics_paraphrase_beats_unrelated(embedder: Embedder) -> None:
    q, para, other = embedder.embed(
        ["how long do access tokens last?", "JWT access tokens expire after 15 minutes", "we deploy on tuesdays"]
    )
    assert float(q @ para) > float(q @ other) + 0.2


def test_read_model_dir_reports_missing_files(tmp_path: Path) -> None:
    (tmp_path / "model.onnx").write_bytes(b"")
    with pytest.raises(ModelMissing, match=r"tokenizer\.json"):
        read_model_dir(tmp_path)


def test_corrupt_model_is_model_missing(tmp_path: Path) -> None:
    (tmp_path / "model.onnx").write_bytes(b"not an onnx file")
    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(ModelMissing, match="cannot load"):
        Embedder(read_model_dir(tmp_path))


def test_inference_runs_bound_batch_and_attention_size() -> None:
    from omegad.recall.embed import RUN_BUDGET, inference_runs

    lengths = [10] * 100 + [128] * 70 + [256] * 40 + [512] * 3
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    runs = inference_runs(order, lengths, 64)
    assert [i for r in runs for i in r] == order  # every text once, in order
    for r in runs:
        width = max(lengths[i] for i in r)
        assert len(r) <= 64 and (len(r) * width * width <= RUN_BUDGET or len(r) == 1)
    assert max(len(r) for r in runs if max(lengths[i] for i in r) == 256) == 16
    assert inference_runs([], [], 64) == []


def test_a_released_session_is_made_again_with_the_same_vectors(tmp_path: Path) -> None:
    cfg = load_config()
    source = resolve_embedding(cfg.embedding_model_dir, cfg.model_cache_dir).directory
    shutil.copytree(source, tmp_path / "m")
    e = Embedder(read_model_dir(tmp_path / "m"), threads=1, fused_dir=tmp_path / "fused", idle_s=0.05)
    texts = ["the billing service runs on port 8443", "rotate the signing key"]
    before = e.embed(texts)
    assert not e.release() and e.resident  # used just now
    time.sleep(0.06)
    assert e.release() and not e.resident and e.releases == 1
    assert not e.release()  # (nothing left to drop)
    assert e.release_due_in() == math.inf
    assert np.array_equal(e.embed(texts), before)
    assert e.resident and e.loads == 2

    # never while a run holds the session
    session = e._acquire()
    time.sleep(0.06)
    assert not e.release() and e.resident
    del session
    e._done()
    time.sleep(0.06)
    assert e.release()

    # another file under the same name is refused, and so is a missing one
    onnx = tmp_path / "m" / "model.onnx"
    good = onnx.read_bytes()
    onnx.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    with pytest.raises(ModelChanged, match="changed while the model was out of memory"):
        e.embed(texts)
    assert not e.resident
    onnx.unlink()
    with pytest.raises(ModelMissing, match="cannot read"):
        e.embed(texts)
    onnx.write_bytes(good)
    assert np.array_equal(e.embed(texts), before)


def test_idle_zero_keeps_the_session(embedder: Embedder) -> None:
    embedder.embed(["x"])
    assert embedder.idle_s == 0 and embedder.release_due_in() == math.inf
    assert not embedder.release() and embedder.resident
