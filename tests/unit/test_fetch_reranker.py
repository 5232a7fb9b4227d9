"""`omegad models fetch reranker` against a local server that behaves like the hub: ``resolve``
URLs at a fixed revision, HEAD answering with the content hash (``X-Linked-Etag`` on a
redirect for LFS files, ``ETag`` = git blob id for small files), Range requests."""

from __future__ import annotations

import hashlib
import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from omegad.models import (
    RERANKER_HUB_REVISION,
    RERANKER_VARIANTS,
    FetchError,
    content_hash,
    cpu_variant,
    fetch_reranker,
    hub_content_hash,
)
from omegad.rerank import read_reranker_dir

REPO = "cross-encoder/ms-marco-MiniLM-L-6-v2"
ONNX = bytes(range(256)) * 2000
TOKENIZER = b'{"version": "1.0", "tiny": true}'


def _blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


class _Hub(http.server.BaseHTTPRequestHandler):
    files: ClassVar[dict[str, bytes]] = {}  # path under /REPO/resolve/REV/ -> bytes
    lfs: ClassVar[set[str]] = set()
    lie: ClassVar[dict[str, str]] = {}  # path -> wrong hash to publish
    requests: ClassVar[list[tuple[str, str]]] = []

    def _lookup(self) -> tuple[str, bytes | None]:
        prefix = f"/{REPO}/resolve/{RERANKER_HUB_REVISION}/"
        if self.path.startswith("/cdn/"):
            name = self.path[5:]
            return name, self.files.get(name)
        if not self.path.startswith(prefix):
            return "", None
        name = self.path[len(prefix) :]
        return name, self.files.get(name)

    def do_HEAD(self) -> None:
        self.requests.append(("HEAD", self.path))
        name, data = self._lookup()
        if data is None:
            self.send_error(404)
            return
        if name in self.lfs:
            self.send_response(302)
            self.send_header("Location", f"/cdn/{name}")
            self.send_header("X-Linked-Etag", f'"{self.lie.get(name, hashlib.sha256(data).hexdigest())}"')
        else:
            self.send_response(200)
            self.send_header("ETag", f'"{self.lie.get(name, _blob_id(data))}"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        self.requests.append(("GET", self.path))
        name, data = self._lookup()
        if data is None:
            self.send_error(404)
            return
        if name in self.lfs and not self.path.startswith("/cdn/"):
            self.send_response(302)
            self.send_header("Location", f"/cdn/{name}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0])
            self.send_response(206)
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hub() -> Iterator[type[_Hub]]:
    handler = type("H", (_Hub,), {"files": {}, "lfs": set(), "lie": {}, "requests": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    handler.endpoint = f"http://127.0.0.1:{server.server_address[1]}"  # type: ignore[attr-defined]
    yield handler
    server.shutdown()
    server.server_close()


def test_cpu_variant_from_flags() -> None:
    assert cpu_variant("flags\t: fpu sse avx2 avx512f avx512bw avx512_vnni\n", "x86_64") == "avx512_vnni"
    assert cpu_variant("flags : fpu avx2 avx512f avx512bw\n", "x86_64") == "avx512"
    assert cpu_variant("flags : fpu sse4_2 avx2\n", "x86_64") == "avx2"
    assert cpu_variant("flags : fpu sse4_2\n", "x86_64") == "fp32"
    assert cpu_variant("", "x86_64") == "fp32"
    assert cpu_variant("", "aarch64") == "arm64"
    assert cpu_variant() in RERANKER_VARIANTS  # this machine


def test_content_hash_git_blob_id_matches_git(tmp_path: Path) -> None:
    p = tmp_path / "f"
    p.write_bytes(TOKENIZER)
    git = subprocess.run(["git", "hash-object", str(p)], capture_output=True, text=True)
    expected = git.stdout.strip() if git.returncode == 0 else _blob_id(TOKENIZER)
    assert content_hash(p, expected) == ("git blob id", expected)
    assert content_hash(p, "0" * 64) == ("sha256", hashlib.sha256(TOKENIZER).hexdigest())


def test_fetch_reranker_verifies_against_hub_hashes(hub: type[_Hub], tmp_path: Path) -> None:
    onnx_path = RERANKER_VARIANTS["avx2"][0]
    hub.files = {onnx_path: ONNX, "tokenizer.json": TOKENIZER}
    hub.lfs = {onnx_path}
    out = _Out()
    target = fetch_reranker(tmp_path, endpoint=hub.endpoint, variant="avx2", out=out)  # type: ignore[attr-defined]
    assert (target / "model.onnx").read_bytes() == ONNX
    assert (target / "tokenizer.json").read_bytes() == TOKENIZER
    manifest = json.loads((target / "manifest.json").read_text())
    assert manifest["source"] == f"hub:{REPO}@{RERANKER_HUB_REVISION}"
    assert manifest["files"] == {"model.onnx": hashlib.sha256(ONNX).hexdigest(), "tokenizer.json": _blob_id(TOKENIZER)}
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


def test_fetch_reranker_refuses_a_file_that_does_not_match(hub: type[_Hub], tmp_path: Path) -> None:
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
