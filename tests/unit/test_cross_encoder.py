"""Parity of the daemon's cross-encoder path (tokenizers + ONNX Runtime, no torch) with torch.

tests/data/tiny_reranker holds a 2-layer BERT cross-encoder built by
``bench/make_cross_encoder.py tiny`` with transformers, exported to ONNX, and the logits torch
computed for fixed pairs (one pair at a time, unpadded): ordinary pairs, long passages, and
passages truncated at 32 and 64 tokens. The daemon's `CrossEncoder` must reproduce the token
ids exactly and the logits within 1e-4, alone and in padded batches.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from omegad.models.files import ModelMissing, read_reranker_dir
from omegad.recall.crossencoder import CrossEncoder

from ..helpers import REPO

TINY = REPO / "tests" / "data" / "tiny_reranker"
CASES: list[dict[str, Any]] = json.loads((TINY / "expected.json").read_text())["cases"]
TOL = 1e-4


def _encoder(max_tokens: int, batch_size: int = 32, fused_dir: Path | None = None) -> CrossEncoder:
    enc = CrossEncoder(
        read_reranker_dir(TINY), threads=1, max_tokens=max_tokens, batch_size=batch_size, fused_dir=fused_dir
    )
    if fused_dir is not None:  # the parity below then holds for the fused layers too
        assert enc.graph.startswith("fused ("), enc.graph
    return enc


@pytest.fixture(scope="module", params=["as shipped", "fused"])
def fused_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The model as shipped, and its fused form (`omegad.models.fuse`), built once here."""
    return tmp_path_factory.mktemp("fused") if request.param == "fused" else None


def _by_length() -> dict[int, list[dict[str, Any]]]:
    groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for c in CASES:
        groups[c["max_length"]].append(c)
    return groups


def test_expected_logits_are_a_meaningful_target() -> None:
    logits = np.array([c["logit"] for c in CASES])
    # spread out and of both signs: a 1e-4 tolerance is a real constraint
    assert logits.std() > 1.0 and logits.min() < -1 and logits.max() > 1
    assert len({round(x, 2) for x in logits}) >= 10
    assert {32, 64, 512} <= set(_by_length())
    assert any(len(c["input_ids"]) > 300 for c in CASES)  # long passages
    for c in CASES:
        if c["max_length"] < 512:
            assert len(c["input_ids"]) == c["max_length"]  # really truncated


@pytest.mark.parametrize("max_length", [32, 64, 512])
def test_tokenization_matches_transformers(max_length: int) -> None:
    enc = _encoder(max_length)
    for c in _by_length()[max_length]:
        e = enc.tokenizer.encode(c["query"], c["passage"])
        assert e.ids == c["input_ids"], c["name"]
        assert e.type_ids == c["token_type_ids"], c["name"]


@pytest.mark.parametrize("max_length", [32, 64, 512])
def test_single_pairs_match_torch(max_length: int, fused_dir: Path | None) -> None:
    enc = _encoder(max_length, fused_dir=fused_dir)
    for c in _by_length()[max_length]:
        logits, lengths = enc.score([(c["query"], c["passage"])])
        assert lengths == [len(c["input_ids"])]
        assert abs(float(logits[0]) - c["logit"]) < TOL, (c["name"], float(logits[0]), c["logit"])


@pytest.mark.parametrize("batch_size", [32, 3])
@pytest.mark.parametrize("max_length", [32, 64, 512])
def test_padded_batches_match_torch(max_length: int, batch_size: int, fused_dir: Path | None) -> None:
    """All pairs of a length class in one call: sorted by length, padded per run, and the
    results come back in the caller's order."""
    enc = _encoder(max_length, batch_size=batch_size, fused_dir=fused_dir)
    cases = _by_length()[max_length]
    logits, lengths = enc.score([(c["query"], c["passage"]) for c in cases])
    assert lengths == [len(c["input_ids"]) for c in cases]
    diff = np.abs(logits - np.array([c["logit"] for c in cases]))
    assert diff.max() < TOL, dict(zip([c["name"] for c in cases], diff.tolist(), strict=True))


def test_one_padded_run_matches_torch(fused_dir: Path | None) -> None:
    """Mixed lengths padded into a single ONNX run (the padding must not leak into the logits)."""
    enc = _encoder(512, fused_dir=fused_dir)
    cases = _by_length()[512]
    encodings = [enc.tokenizer.encode(c["query"], c["passage"]) for c in cases]
    feeds = enc.feeds(encodings)
    assert feeds["input_ids"].shape[1] == max(len(c["input_ids"]) for c in cases)
    logits = enc.run(feeds)
    assert np.abs(logits - np.array([c["logit"] for c in cases])).max() < TOL


def test_segment_ids_and_truncation_matter() -> None:
    """The parity above would catch a path that ignores segment ids or truncation."""
    enc = _encoder(512)
    cases = _by_length()[512]
    encodings = [enc.tokenizer.encode(c["query"], c["passage"]) for c in cases]
    feeds = enc.feeds(encodings)
    feeds["token_type_ids"] = np.zeros_like(feeds["token_type_ids"])
    wrong = enc.run(feeds)
    assert np.abs(wrong - np.array([c["logit"] for c in cases])).max() > 1e-3
    short = _encoder(32)
    long_cases = [c for c in CASES if len(c["input_ids"]) > 300]
    cut, _ = short.score([(c["query"], c["passage"]) for c in long_cases])
    assert np.abs(cut - np.array([c["logit"] for c in long_cases])).max() > 1e-3


def test_unusable_model_files_are_refused(tmp_path: Path) -> None:
    d = tmp_path / "m"
    d.mkdir()
    shutil.copy(TINY / "tokenizer.json", d)
    data = (TINY / "model.onnx").read_bytes()
    (d / "model.onnx").write_bytes(data[: len(data) // 3])
    with pytest.raises(ModelMissing, match="cannot load"):
        CrossEncoder(read_reranker_dir(d))
    (d / "model.onnx").write_bytes(b"garbage" * 100)
    with pytest.raises(ModelMissing, match="cannot load"):
        CrossEncoder(read_reranker_dir(d))
    shutil.copy(TINY / "model.onnx", d)
    (d / "tokenizer.json").write_text('{"truncated": ')
    with pytest.raises(ModelMissing, match="tokenizer"):
        CrossEncoder(read_reranker_dir(d))


def test_an_embedding_model_is_not_a_cross_encoder(tmp_path: Path) -> None:
    from omegad.config import load_config
    from omegad.models.files import embedding_cache_dir

    emb = embedding_cache_dir(load_config().model_cache_dir)
    if not (emb / "model.onnx").is_file():
        pytest.skip("embedding model not fetched")
    d = tmp_path / "m"
    d.mkdir()
    shutil.copy(emb / "model.onnx", d)
    shutil.copy(TINY / "tokenizer.json", d)
    with pytest.raises(ModelMissing, match="one logit per pair"):
        CrossEncoder(read_reranker_dir(d))


def test_local_per_channel_quantization(tmp_path: Path) -> None:
    """`omegad models fetch reranker --quantize` path: int8 per-channel weights, preferred
    when present, close to fp32 in ranking."""
    pytest.importorskip("onnx")
    from omegad.models.fetch import quantize_per_channel

    d = tmp_path / "m"
    shutil.copytree(TINY, d)
    quantize_per_channel(d / "model.onnx", d / "model_int8.onnx")
    files = read_reranker_dir(d)
    assert files.onnx.name == "model_int8.onnx"
    q = CrossEncoder(files, threads=1)
    logits, _ = q.score([(c["query"], c["passage"]) for c in CASES])
    expected = np.array([c["logit"] for c in CASES])
    # A hidden-64 model is the worst case for 8-bit weights (few channels to average the
    # rounding over): this checks the path, not the accuracy of int8 on the real weights,
    # which cannot be measured here (no real cross-encoder weights on this machine).
    assert np.corrcoef(logits, expected)[0, 1] > 0.8
    clear = np.abs(expected) > 2
    assert (np.sign(logits[clear]) == np.sign(expected[clear])).mean() >= 0.9
    # a different model, not a copy of the fp32 one
    assert np.abs(logits - expected).max() > 1e-3
    # the embedding table stays fp32; the matrix multiplications are 8-bit
    assert (d / "model_int8.onnx").stat().st_size < (d / "model.onnx").stat().st_size
