"""`omegad models fetch reranker` against a local server that behaves like the hub: ``resolve``
URLs at a fixed revision, HEAD answering with the content hash (``X-Linked-Etag`` on a
redirect for LFS files, ``ETag`` = git blob id for small files), Range requests."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from omegad.models.fetch import (
    RERANKER_HUB_REVISION,
    RERANKER_VARIANTS,
    FetchError,
    cpu_variant,
    fetch_reranker,
    hub_content_hash,
)
from omegad.models.files import content_hash, read_reranker_dir

from ..hub import OLD_REPO, REPO, Hub, blob_id, start_hub

ONNX = bytes(range(256)) * 2000
TOKENIZER = b'{"version": "1.0", "tiny": true}'


@pytest.fixture
def hub() -> Iterator[type[Hub]]:
    with start_hub() as h:
        yield h


def test_cpu_variant_from_flags() -> None:
    assert cpu_variant("flags\t: fpu sse avx2 avx512f avx512bw avx512_vnni\n", "x86_64") == "avx512_vnni"
    # AVX-512 without VNNI: the hub's int8-weight file would saturate, take the uint8 one
    assert cpu_variant("flags : fpu avx2 avx512f avx512bw\n", "x86_64") == "avx2"
    assert cpu_variant("flags : fpu sse4_2 avx2\n", "x86_64") == "avx2"
    assert cpu_variant("flags : fpu sse4_2\n", "x86_64") == "fp32"
    assert cpu_variant("", "x86_64") == "fp32"
    assert cpu_variant("", "aarch64") == "arm64"
    assert cpu_variant() in RERANKER_VARIANTS  # this machine


def test_vnni_detection_picks_signed_weights() -> None:
    from omegad.models.fetch import has_vnni

    assert has_vnni("flags : fpu avx2 avx512f avx512_vnni\n")
    assert has_vnni("flags : fpu avx2 avx_vnni\n")
    assert not has_vnni("flags : fpu avx2\n")
    assert not has_vnni("")


def test_content_hash_git_blob_id_matches_git(tmp_path: Path) -> None:
    p = tmp_path / "f"
    p.write_bytes(TOKENIZER)
    git = subprocess.run(["git", "hash-object", str(p)], capture_output=True, text=True)
    expected = git.stdout.strip() if git.returncode == 0 else blob_id(TOKENIZER)
    assert content_hash(p, expected) == ("git blob id", expected)
    assert content_hash(p, "0" * 64) == ("sha256", hashlib.sha256(TOKENIZER).hexdigest())


def test_fetch_reranker_verifies_against_hub_hashes(hub: type[Hub], tmp_path: Path) -> None:
    onnx_path = RERANKER_VARIANTS["avx2"][0]
    hub.files = {onnx_path: ONNX, "tokenizer.json": TOKENIZER}
    hub.lfs = {onnx_path}
    out = _Out()
    target = fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="avx2", out=out)  # type: ignore[attr-defined]
    assert (target / "model.onnx").read_bytes() == ONNX
    assert (target / "tokenizer.json").read_bytes() == TOKENIZER
    manifest = json.loads((target / "manifest.json").read_text())
    assert manifest["source"] == f"hub:{REPO}@{RERANKER_HUB_REVISION}"
    assert manifest["files"] == {"model.onnx": hashlib.sha256(ONNX).hexdigest(), "tokenizer.json": blob_id(TOKENIZER)}
    assert manifest["quantization"]["model.onnx"] == "uint8 dynamic (hub, avx2)"
    files = read_reranker_dir(target)
    assert files.quantization == "uint8 dynamic (hub, avx2)" and files.model_id == REPO
    # every request named the pinned revision (or the redirect target)
    assert all(f"/resolve/{RERANKER_HUB_REVISION}/" in p or p.startswith("/cdn/") for _, p in hub.requests)
    assert "downloading" in out.text
    # present: a second fetch does nothing
    n = len(hub.requests)
    fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="avx2")  # type: ignore[attr-defined]
    assert len(hub.requests) == n


def test_fetch_reranker_refuses_a_file_that_does_not_match(hub: type[Hub], tmp_path: Path) -> None:
    onnx_path = RERANKER_VARIANTS["fp32"][0]
    hub.files = {onnx_path: ONNX, "tokenizer.json": TOKENIZER}
    hub.lfs = {onnx_path}
    hub.lie = {onnx_path: "ab" * 32}
    with pytest.raises(FetchError, match="sha256 mismatch"):
        fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="fp32")  # type: ignore[attr-defined]
    assert not (tmp_path / "ms-marco-MiniLM-L-6-v2").exists()
    hub.lie = {"tokenizer.json": "cd" * 20}
    with pytest.raises(FetchError, match="git blob id mismatch"):
        fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="fp32")  # type: ignore[attr-defined]
    assert not (tmp_path / "ms-marco-MiniLM-L-6-v2").exists()
    hub.lie = {}
    target = fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="fp32")  # type: ignore[attr-defined]
    assert (target / "model.onnx").read_bytes() == ONNX


def test_fetch_reranker_unknown_variant_and_unreachable_hub(tmp_path: Path) -> None:
    with pytest.raises(FetchError, match="unknown reranker variant"):
        fetch_reranker(tmp_path, endpoint="http://127.0.0.1:9", variant="tpu")
    with pytest.raises(FetchError):
        fetch_reranker(tmp_path, endpoint="http://127.0.0.1:9", variant="fp32", timeout=2)
    with pytest.raises(FetchError):
        hub_content_hash("http://127.0.0.1:9/x", timeout=2)


def test_cli_fetch_reranker_reports_failure_cleanly(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "c"), "OMEGAD_HUB_ENDPOINT": "http://127.0.0.1:9"}
    proc = subprocess.run(
        [sys.executable, "-m", "omegad", "models", "fetch", "reranker", "--variant", "fp32"],
        capture_output=True,
        text=True,
        env={**env, "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert proc.returncode == 1 and "model fetch failed" in proc.stderr


class _Out:
    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def test_old_repository_name_follows_the_hubs_relative_redirect(hub: type[Hub], tmp_path: Path) -> None:
    onnx_path = RERANKER_VARIANTS["fp32"][0]
    hub.files = {onnx_path: ONNX, "tokenizer.json": TOKENIZER}
    hub.lfs = {onnx_path}
    target = fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="fp32", repo=OLD_REPO)  # type: ignore[attr-defined]
    assert (target / "model.onnx").read_bytes() == ONNX
    assert any(p.startswith(f"/{OLD_REPO}/") for _, p in hub.requests)


def test_a_file_without_a_published_hash_is_refused(hub: type[Hub], tmp_path: Path) -> None:
    onnx_path = RERANKER_VARIANTS["fp32"][0]
    hub.files = {onnx_path: ONNX, "tokenizer.json": TOKENIZER}
    hub.lfs = {onnx_path}
    hub.publish_hashes = False
    with pytest.raises(FetchError, match="no content hash"):
        fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="fp32")  # type: ignore[attr-defined]
    assert not (tmp_path / "ms-marco-MiniLM-L-6-v2").exists()
    assert not any(method == "GET" for method, _ in hub.requests)  # nothing was even downloaded


def test_tokenizer_built_from_vocab_when_the_revision_has_no_tokenizer_json(hub: type[Hub], tmp_path: Path) -> None:
    """Older revisions ship only vocab.txt: the fetch builds the BERT uncased tokenizer from
    it, which must tokenize exactly like the tokenizer.json of the same vocabulary."""
    from tokenizers import Tokenizer

    from omegad.recall.crossencoder import CrossEncoder

    tiny = Path(__file__).resolve().parents[1] / "data" / "tiny_reranker"
    ref = Tokenizer.from_file(str(tiny / "tokenizer.json"))
    vocab = sorted(ref.get_vocab().items(), key=lambda kv: kv[1])
    vocab_txt = ("\n".join(tok for tok, _ in vocab) + "\n").encode()
    onnx_path = RERANKER_VARIANTS["fp32"][0]
    hub.files = {onnx_path: (tiny / "model.onnx").read_bytes(), "vocab.txt": vocab_txt}
    hub.lfs = {onnx_path}
    target = fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="fp32")  # type: ignore[attr-defined]
    built = Tokenizer.from_file(str(target / "tokenizer.json"))
    for q, p in [
        ("Where do we keep refresh tokens?", "In an httpOnly cookie, rotated on use."),
        ("café", "naïve 日本語"),
    ]:
        a, b = built.encode(q, p), ref.encode(q, p)
        assert a.ids == b.ids and a.type_ids == b.type_ids
    CrossEncoder(read_reranker_dir(target))  # loads and passes its probe


def test_concurrent_fetches_are_refused_not_interleaved(tmp_path: Path) -> None:
    import fcntl

    tmp_path.mkdir(exist_ok=True)
    with (tmp_path / ".fetch.lock").open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        with pytest.raises(FetchError, match="another fetch is running"):
            fetch_reranker(tmp_path, endpoint="http://127.0.0.1:9", variant="fp32")
