"""Fused models, built once per model file and ONNX Runtime version and cached.

`fused_session` loads a model's fused form (`omegad.models.fuse`) when it agrees with the
original, else the original. The fused file is built the first time a model is loaded: ONNX
Runtime folds the model's constants (its basic level, saved to a file), `fuse_bert` rewrites
the layers, and the caller's *agreement* check compares the two sessions' outputs on probe
inputs. A file that passes goes into *cache_dir* under a name made of the source's sha256, the
ONNX Runtime version and `FUSE_VERSION`, so a new model, a new runtime or a new rewrite builds
it again; one that fails leaves a marker with the reason, so the next start does not retry.
Blocking: call it in a worker thread.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import structlog

from omegad.errors import error_text
from omegad.models.files import sha256_file
from omegad.models.fuse import FuseError, fuse_bert
from omegad.models.onnxedit import WireError, gather_first

__all__ = ["FUSE_VERSION", "fused_session"]

log = structlog.get_logger("omegad")

#: bump when `fuse_bert` changes what it writes: cached files of other versions are rebuilt
FUSE_VERSION = 1


def _folded(source: bytes, workdir: Path) -> bytes:
    """*source* with its constants folded by ONNX Runtime (its basic level only: the fused
    operators come from `fuse_bert`, not from the runtime's own patterns)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    out = workdir / "folded.onnx"
    options.optimized_model_filepath = str(out)
    options.intra_op_num_threads = 1
    options.enable_cpu_mem_arena = False
    ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
    try:
        return out.read_bytes()
    finally:
        out.unlink(missing_ok=True)


def _key(path: Path, digest: str | None = None) -> str:
    """The cache name of *path*'s fused forms, less the variant suffix (*digest*: the file's
    SHA-256, when the caller has it already)."""
    import onnxruntime as ort

    return f"{path.stem}-{(digest or sha256_file(path))[:16]}-ort{ort.__version__}-v{FUSE_VERSION}"


def fused_session(
    path: Path,
    load: Callable[[Path], Any],
    agreement: Callable[[Any, Any], float],
    floor: float,
    cache_dir: Path | None,
    weights8_floor: float | None = None,
    digest: str | None = None,
) -> tuple[Any, str]:
    """A session of *path*'s fused form if it agrees with the original (*agreement*(original,
    fused) ≥ *floor*), else of *path*; and a line saying which and why. With *weights8_floor*
    the form with 8-bit matrices is tried first and kept if it agrees that well. *load* makes
    a session from a file (raising on failure); *cache_dir* None turns fusing off; *digest*:
    *path*'s SHA-256 if the caller has taken it (else it is taken here)."""
    if cache_dir is None:
        return load(path), "as shipped (fusing is off)"
    tries = [(True, weights8_floor)] if weights8_floor is not None else []
    tries.append((False, floor))
    original: Any = None
    reasons = []
    stem = _key(path, digest)  # (hashes the source once, for every form tried)
    for weights8, least in tries:
        key = f"{stem}-{'w8' if weights8 else 'f32'}"
        cached, refused = cache_dir / f"{key}.onnx", cache_dir / f"{key}.refused"
        if cached.is_file():
            try:
                return load(cached), f"fused (cached {cached.name})"
            except Exception as exc:  # a damaged cache file: build it again
                log.warning("fused_model_unreadable", path=str(cached), error=error_text(exc))
                cached.unlink(missing_ok=True)
        if refused.is_file():
            reasons.append(refused.read_text(encoding="utf-8", errors="replace").strip())
            continue
        if original is None:
            original = load(path)
        session, reason = _build(path, original, load, agreement, least, weights8, cached, refused)
        if session is not None:
            return session, reason
        reasons.append(reason)
    return (original if original is not None else load(path)), f"as shipped ({'; '.join(reasons)})"


def _build(
    path: Path,
    original: Any,
    load: Callable[[Path], Any],
    agreement: Callable[[Any, Any], float],
    floor: float,
    weights8: bool,
    cached: Path,
    refused: Path,
) -> tuple[Any, str]:
    """Build, check and cache one fused form: (its session, how) or (None, why not)."""
    label = "8-bit " if weights8 else ""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        workdir = Path(tempfile.mkdtemp(prefix=".fuse-", dir=cached.parent))
    except OSError as exc:
        return None, f"cannot write {cached.parent}: {error_text(exc)}"
    try:
        try:
            edited, _ = gather_first(path.read_bytes())
            fused, layers = fuse_bert(_folded(edited, workdir), weights8=weights8)
        except (FuseError, WireError) as exc:
            return None, _refuse(refused, f"{label}not fused: {exc}")
        candidate = workdir / "fused.onnx"
        candidate.write_bytes(fused)
        session = load(candidate)
        score = agreement(original, session)
        if score < floor:
            return None, _refuse(refused, f"{label}not fused: agreement {score:.6f} < {floor}")
        os.replace(candidate, cached)
        log.info("model_fused", source=str(path), cached=str(cached), layers=layers, agreement=round(score, 7))
        return session, f"fused ({label}{layers} layers, agreement {score:.6f})"
    except Exception as exc:  # the runtime refused the rewrite: keep the original
        return None, _refuse(refused, f"{label}not fused: {error_text(exc)}")
    finally:
        for leftover in workdir.glob("*"):
            leftover.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            workdir.rmdir()


def _refuse(marker: Path, reason: str) -> str:
    log.warning("model_not_fused", reason=reason)
    with contextlib.suppress(OSError):
        marker.write_text(reason + "\n", encoding="utf-8")
    return reason
