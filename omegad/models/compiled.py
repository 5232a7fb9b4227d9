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


def _key(path: Path) -> str:
    import onnxruntime as ort

    return f"{path.stem}-{sha256_file(path)[:16]}-ort{ort.__version__}-v{FUSE_VERSION}"


def fused_session(
    path: Path,
    load: Callable[[Path], Any],
    agreement: Callable[[Any, Any], float],
    floor: float,
    cache_dir: Path | None,
) -> tuple[Any, str]:
    """A session of *path*'s fused form if it agrees with the original (*agreement*(original,
    fused) ≥ *floor*), else of *path*; and a line saying which and why. *load* makes a session
    from a file (raising on failure); *cache_dir* None turns fusing off."""
    if cache_dir is None:
        return load(path), "as shipped (fusing is off)"
    key = _key(path)
    cached = cache_dir / f"{key}.onnx"
    refused = cache_dir / f"{key}.refused"
    if cached.is_file():
        try:
            return load(cached), f"fused (cached {cached.name})"
        except Exception as exc:  # a damaged cache file: build it again
            log.warning("fused_model_unreadable", path=str(cached), error=error_text(exc))
            cached.unlink(missing_ok=True)
    if refused.is_file():
        return load(path), f"as shipped ({refused.read_text(encoding='utf-8', errors='replace').strip()})"
    original = load(path)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        workdir = Path(tempfile.mkdtemp(prefix=".fuse-", dir=cache_dir))
    except OSError as exc:
        return original, f"as shipped (cannot write {cache_dir}: {error_text(exc)})"
    try:
        try:
            edited, _ = gather_first(path.read_bytes())
            fused, layers = fuse_bert(_folded(edited, workdir))
        except (FuseError, WireError) as exc:
            return original, _refuse(refused, f"not fused: {exc}")
        candidate = workdir / "fused.onnx"
        candidate.write_bytes(fused)
        session = load(candidate)
        score = agreement(original, session)
        if score < floor:
            return original, _refuse(refused, f"not fused: agreement {score:.6f} < {floor}")
        os.replace(candidate, cached)
        log.info("model_fused", source=str(path), cached=str(cached), layers=layers, agreement=round(score, 7))
        return session, f"fused ({layers} layers, agreement {score:.6f})"
    except Exception as exc:  # the runtime refused the rewrite: keep the original
        return original, _refuse(refused, f"not fused: {error_text(exc)}")
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
