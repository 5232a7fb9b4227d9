"""`fuse.fuse_bert` and `compiled.fused_session`: encoder layers rewritten into ONNX Runtime's
fused transformer operators, checked against the original model on the real embedding model
(a torch-dynamo export) and on the test cross-encoder (a transformers export with a classifier
head), and the cache's policy: built once, refused when it disagrees, rebuilt when damaged."""

from __future__ import annotations

import collections
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from omegad.config import load_config
from omegad.models.compiled import _folded, fused_session
from omegad.models.files import resolve_embedding
from omegad.models.fuse import FuseError, fuse_bert
from omegad.recall.embed import FUSED_AGREEMENT, Embedder, cpu_session, pooled_agreement

TINY_RERANKER = Path(__file__).resolve().parents[1] / "data" / "tiny_reranker" / "model.onnx"

TEXTS = [
    "Ok.",
    "We chose Postgres for billing because we need row-level locks.",
    "pytest -x stops at the first failure",
    "The deploy failed with ECONNREFUSED 127.0.0.1:5432 after the migration ran twice " * 6,
    "prefers tabs",
    "user likes dark mode in the editor and a 100 column limit",
]


def _ops(model: bytes) -> collections.Counter[str]:
    return collections.Counter(n.op_type for n in onnx.load_from_string(model).graph.node)


@pytest.fixture(scope="module")
def model_path() -> Path:
    return resolve_embedding(None, load_config(env={}).model_cache_dir).onnx


def test_embedding_model_layers_become_fused_operators(model_path: Path, tmp_path: Path) -> None:
    from omegad.models.onnxedit import gather_first

    fused, layers = fuse_bert(_folded(gather_first(model_path.read_bytes())[0], tmp_path))
    ops = _ops(fused)
    assert layers == 6
    assert ops["Attention"] == 6 and ops["BiasGelu"] == 6 and ops["SkipLayerNormalization"] == 12
    # the layers' own softmax, erf and residual adds are gone; the embeddings' norm stays
    assert ops["Softmax"] == ops["Erf"] == 0 and ops["LayerNormalization"] == 1
    original = cpu_session(model_path, 2, False)
    assert pooled_agreement(original, ort.InferenceSession(fused)) >= 0.99999


def test_fused_embedder_gives_the_same_vectors_and_is_cached(model_path: Path, tmp_path: Path) -> None:
    files = resolve_embedding(None, load_config(env={}).model_cache_dir)
    plain = Embedder(files)
    fused = Embedder(files, fused_dir=tmp_path)
    assert fused.graph.startswith("fused (6 layers"), fused.graph
    assert plain.graph == "as shipped (fusing is off)"
    cached = list(tmp_path.glob("*.onnx"))
    assert len(cached) == 1 and model_path.stem in cached[0].name
    for batch in (TEXTS, TEXTS[:1], TEXTS[3:4]):
        cos = (plain.embed(batch) * fused.embed(batch)).sum(axis=1)
        assert cos.min() >= 0.99999, cos
    again = Embedder(files, fused_dir=tmp_path)
    assert again.graph.startswith("fused (cached"), again.graph
    np.testing.assert_allclose(again.embed(TEXTS), fused.embed(TEXTS), atol=1e-6)


def test_cross_encoder_with_a_classifier_head_fuses_and_keeps_its_logits(tmp_path: Path) -> None:
    fused, layers = fuse_bert(_folded(TINY_RERANKER.read_bytes(), tmp_path))
    assert layers == 2 and _ops(fused)["Attention"] == 2
    a, b = ort.InferenceSession(str(TINY_RERANKER)), ort.InferenceSession(fused)
    rng = np.random.default_rng(3)
    ids = rng.integers(1000, 29000, (5, 40))
    mask = np.ones_like(ids)
    mask[2, 20:] = 0  # padding must stay out of the fused attention
    mask[4, 3:] = 0
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    np.testing.assert_allclose(a.run(None, feeds)[0], b.run(None, feeds)[0], atol=1e-4)


def test_a_graph_that_is_not_bert_is_refused_once(tmp_path: Path) -> None:
    """The packaged pair classifier is already quantized (integer products, no float
    matrices): not fused, the original is used, and the refusal is remembered."""
    from omegad.contradictions.classifier import PACKAGED_MODEL

    source = tmp_path / "model.onnx"
    shutil.copy(PACKAGED_MODEL / "model_int8.onnx", source)
    loads: list[Path] = []

    def load(path: Path) -> ort.InferenceSession:
        loads.append(path)
        return cpu_session(path, 1, False)

    session, how = fused_session(source, load, pooled_agreement, FUSED_AGREEMENT, tmp_path / "cache")
    assert how.startswith("as shipped (not fused:") and session is not None
    assert loads == [source]
    assert len(list((tmp_path / "cache").glob("*.refused"))) == 1
    _, how = fused_session(source, load, pooled_agreement, FUSED_AGREEMENT, tmp_path / "cache")
    assert how.startswith("as shipped (not fused:"), how
    assert not list((tmp_path / "cache").glob(".fuse-*")), "the work directory is removed"


def test_a_fused_model_that_disagrees_is_not_used(model_path: Path, tmp_path: Path) -> None:
    source = tmp_path / "model.onnx"
    shutil.copy(model_path, source)

    def load(path: Path) -> ort.InferenceSession:
        return cpu_session(path, 1, False)

    _, how = fused_session(source, load, lambda a, b: 0.5, FUSED_AGREEMENT, tmp_path / "cache")
    assert how == f"as shipped (not fused: agreement 0.500000 < {FUSED_AGREEMENT})"
    assert not list((tmp_path / "cache").glob("*.onnx"))


def test_a_damaged_cache_file_is_built_again(model_path: Path, tmp_path: Path) -> None:
    source = tmp_path / "model.onnx"
    shutil.copy(model_path, source)

    def load(path: Path) -> ort.InferenceSession:
        return cpu_session(path, 1, False, edit=path == source)

    cache = tmp_path / "cache"
    _, how = fused_session(source, load, pooled_agreement, FUSED_AGREEMENT, cache)
    assert how.startswith("fused (6 layers")
    (cached,) = cache.glob("*.onnx")
    cached.write_bytes(cached.read_bytes()[:1000])
    _, how = fused_session(source, load, pooled_agreement, FUSED_AGREEMENT, cache)
    assert how.startswith("fused (6 layers"), how
    assert cached.stat().st_size > 1_000_000


def test_unreadable_bytes_are_a_fuse_error() -> None:
    with pytest.raises((FuseError, ValueError)):
        fuse_bert(b"\x0a\xff\xff\xff")


def test_8bit_blocks_dequantize_within_half_a_step() -> None:
    from omegad.models.fuse import BLOCK, _weights8

    rng = np.random.default_rng(5)
    w = rng.standard_normal((96, 40)).astype(np.float32)
    w[7, 3] = 40.0  # one large weight coarsens only its own block
    q, scales = _weights8(w)
    assert q.shape == (40, 96 // BLOCK, BLOCK) and q.dtype == np.uint8 and scales.shape == (40 * 96 // BLOCK,)
    back = ((q.astype(np.float32) - 128) * scales.reshape(40, -1, 1)).reshape(40, 96).T
    step = np.repeat(scales.reshape(40, -1), BLOCK, axis=1).T
    assert np.all(np.abs(back - w) <= step / 2 + 1e-6)
    assert np.abs(back - w)[32:, 3].max() < 0.02  # the other blocks of column 3 stay fine


def test_8bit_form_is_close_and_falls_back_when_refused(tmp_path: Path) -> None:
    files = resolve_embedding(None, load_config(env={}).model_cache_dir)
    plain = Embedder(files)
    small = Embedder(files, fused_dir=tmp_path, weights8=True)
    assert small.graph.startswith("fused (8-bit 6 layers"), small.graph
    cos = (plain.embed(TEXTS) * small.embed(TEXTS)).sum(axis=1)
    assert cos.min() >= 0.995 and cos.min() < 0.99999, cos  # close, not the same numbers
    # once refused (as on a CPU whose integer kernels lose more), the float fused form is used
    (cached,) = tmp_path.glob("*-w8.onnx")
    cached.with_suffix(".refused").write_text("8-bit not fused: agreement 0.98 < 0.995\n")
    cached.unlink()
    again = Embedder(files, fused_dir=tmp_path, weights8=True)
    assert again.graph.startswith("fused (6 layers"), again.graph
    assert Embedder(files, fused_dir=tmp_path, weights8=True).graph.startswith("fused (cached")
    assert (plain.embed(TEXTS) * again.embed(TEXTS)).sum(axis=1).min() >= 0.99999
