"""Model files: where each model lives and what a model directory must hold.

The embedding model (all-MiniLM-L6-v2) is read from ``embedding.model_dir`` /
``OMEGAD_EMBEDDING_MODEL_DIR`` if set, else from the user cache
(``$XDG_CACHE_HOME/omegad/models/all-MiniLM-L6-v2``); the reranker from
``reranker.model_dir`` or the cache; the contradiction pair model ships in the package.
`omegad.models.fetch` puts downloaded models where these functions look.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "EMBEDDING_MODEL_ID",
    "FUSED_DIR",
    "RERANKER_DIR_NAME",
    "RERANKER_MODEL_ID",
    "CrossEncoderFiles",
    "ModelFiles",
    "ModelMissing",
    "content_hash",
    "damaged_files",
    "embedding_cache_dir",
    "embedding_dir",
    "files_signature",
    "read_cross_encoder_dir",
    "read_model_dir",
    "read_reranker_dir",
    "reranker_cache_dir",
    "resolve_embedding",
    "sha256_file",
]

EMBEDDING_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
EMBEDDING_DIR_NAME = "all-MiniLM-L6-v2"
FETCH_COMMAND = "omegad models fetch"
#: under the model cache: fused forms of the models (`omegad.models.compiled`)
FUSED_DIR = ".fused"


RERANKER_MODEL_ID = "cross-encoder/ms-marco-MiniLM-L-6-v2"
RERANKER_DIR_NAME = "ms-marco-MiniLM-L-6-v2"
FETCH_RERANKER_COMMAND = "omegad models fetch reranker"

#: ONNX files a model directory may hold, best first: an int8 per-channel model when present.
ONNX_CANDIDATES = ("model_int8.onnx", "model.onnx")


class ModelMissing(Exception):
    """No usable model files; the message says what to run."""


@dataclass(frozen=True)
class ModelFiles:
    directory: Path
    model_id: str
    variant: str

    @property
    def onnx(self) -> Path:
        return self.directory / "model.onnx"

    @property
    def tokenizer(self) -> Path:
        return self.directory / "tokenizer.json"


def read_model_dir(directory: Path) -> ModelFiles:
    """Check a model directory (``model.onnx`` + ``tokenizer.json`` [+ ``manifest.json``])."""
    missing = [name for name in ("model.onnx", "tokenizer.json") if not (directory / name).is_file()]
    if missing:
        raise ModelMissing(f"{directory} lacks {', '.join(missing)}")
    model_id = "sentence-transformers/all-MiniLM-L6-v2"
    variant = "unknown"
    manifest = directory / "manifest.json"
    if manifest.is_file():
        try:
            doc = json.loads(manifest.read_text(encoding="utf-8"))
            model_id = str(doc.get("model_id", model_id))
            variant = str(doc.get("variant", variant))
        except (OSError, ValueError) as exc:
            raise ModelMissing(f"{manifest} is unreadable: {exc}") from None
    return ModelFiles(directory, model_id, variant)


@dataclass(frozen=True)
class CrossEncoderFiles:
    """A cross-encoder's files: the ONNX graph, its tokenizer, and what the manifest says."""

    directory: Path
    onnx: Path
    tokenizer: Path
    model_id: str
    quantization: str


def read_cross_encoder_dir(
    directory: Path,
    *,
    model_id: str,
    candidates: tuple[str, ...] = ONNX_CANDIDATES,
    manifest_required: bool = False,
) -> CrossEncoderFiles:
    """Check a cross-encoder directory: the first of *candidates* present + ``tokenizer.json``
    [+ ``manifest.json`` naming the model id and each file's quantization; *manifest_required*
    for a model that ships with the daemon]. Raises `ModelMissing` naming what is wrong."""
    tokenizer, manifest = directory / "tokenizer.json", directory / "manifest.json"
    try:
        onnx = next((directory / n for n in candidates if (directory / n).is_file()), None)
        present = {candidates[-1]: onnx is not None, "tokenizer.json": tokenizer.is_file()}
        if manifest_required:
            present["manifest.json"] = manifest.is_file()
    except OSError as exc:  # e.g. a directory the daemon may not search
        raise ModelMissing(f"cannot read {directory}: {exc.strerror or exc}") from None
    missing = [name for name, ok in present.items() if not ok]
    if missing:
        listed = " and ".join(missing) if len(missing) < 3 else f"{', '.join(missing[:-1])} and {missing[-1]}"
        raise ModelMissing(f"{directory} lacks {listed}")
    assert onnx is not None
    quantization = "int8 (per-channel)" if onnx.name == "model_int8.onnx" else "none (fp32)"
    if manifest_required or manifest.is_file():
        try:
            doc = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ModelMissing(f"{manifest} is unreadable: {exc}") from None
        if not isinstance(doc, dict):
            raise ModelMissing(f"{manifest} is not an object")
        model_id = str(doc.get("model_id", model_id))
        quant = doc.get("quantization", {})
        if isinstance(quant, dict) and onnx.name in quant:
            quantization = str(quant[onnx.name])
    return CrossEncoderFiles(directory, onnx, tokenizer, model_id, quantization)


def read_reranker_dir(directory: Path) -> CrossEncoderFiles:
    """The reranker's files: ``model_int8.onnx`` (preferred) or ``model.onnx``, and its tokenizer."""
    return read_cross_encoder_dir(directory, model_id=RERANKER_MODEL_ID)


def reranker_cache_dir(cache_dir: Path) -> Path:
    return cache_dir / RERANKER_DIR_NAME


def embedding_cache_dir(cache_dir: Path) -> Path:
    return cache_dir / EMBEDDING_DIR_NAME


def embedding_dir(model_dir: Path | None, cache_dir: Path) -> Path:
    """Where the embedding model is read from."""
    return model_dir if model_dir is not None else embedding_cache_dir(cache_dir)


def files_signature(directory: Path) -> tuple[tuple[str, int, int], ...]:
    """(name, size, mtime) of the files in *directory*: changes when a model is replaced."""
    out = []
    try:
        for p in sorted(directory.iterdir()):
            try:
                st = p.stat()
            except OSError:
                continue
            out.append((p.name, st.st_size, st.st_mtime_ns))
    except OSError:
        pass
    return tuple(out)


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


def damaged_files(directory: Path) -> list[str]:
    """Files of a fetched model whose content no longer matches the hash its ``manifest.json``
    recorded (a truncated or overwritten file); empty when all match or nothing is recorded."""
    try:
        recorded = json.loads((directory / "manifest.json").read_text(encoding="utf-8")).get("files", {})
    except (OSError, ValueError, AttributeError):
        return []
    out = []
    for name, expected in recorded.items() if isinstance(recorded, dict) else ():
        path = directory / str(name)
        try:
            if content_hash(path, str(expected))[1] != expected:
                out.append(str(name))
        except OSError:
            out.append(str(name))
    return out


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def content_hash(path: Path, expected: str) -> tuple[str, str]:
    """Hash *path* the way *expected* is written: 64 hex digits are a sha256, 40 hex digits a
    git blob id (what the hub publishes for files not stored in LFS)."""
    if len(expected) == 40:
        digest = hashlib.sha1(f"blob {path.stat().st_size}\0".encode(), usedforsecurity=False)
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return "git blob id", digest.hexdigest()
    return "sha256", sha256_file(path)
