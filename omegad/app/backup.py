"""Export and import: a JSON Lines backup of memories, their signals and their edges.

An export is read in pages (`export` method) from one *snapshot*: the versions of the three
tables pinned together, between two group commits, when the first page is asked for. Writes go
on meanwhile and are not seen, so a backup taken under load is one consistent version. While an
export is open its snapshot counts as a read in flight, so maintenance keeps those versions;
an export left idle for ``EXPORT_IDLE_S`` is closed.

The file (see docs/backup.md) is one ``header`` line, then ``memory`` lines (every field, the
vector as base64 float32, feedback and access counts), then ``history`` lines (replaced
versions, tombstones, removed edges: `omegad.app.history`), then ``edge`` lines. `import` takes
records in batches: idempotent by id (a memory already stored unchanged is left alone), vectors
reused when the exporting daemon had the same embedding model, re-embedded otherwise.
"""

from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from omegad.app.history import Past
from omegad.contradictions.edges import Edge
from omegad.storage.rows import Row
from omegad.storage.signals import MemorySignals
from omegad.storage.tombstones import NO_DEAD_ROWS, DeadRows
from omegad.timeutil import iso, now_us

__all__ = ["EXPORT_IDLE_S", "ExportLease", "edge_line", "history_line", "memory_line"]

FORMAT = "omegad-export"
FORMAT_VERSION = 1
EXPORT_IDLE_S = 600.0
MAX_EXPORTS = 8


@dataclass
class ExportLease:
    """An open export: pinned table handles, the snapshot's edges and signals, a held read."""

    snapshot: str
    namespace: str | None
    table: Any
    edges: list[Edge]
    signals: dict[str, MemorySignals]
    epoch: int
    header: dict[str, Any]
    dead: DeadRows = NO_DEAD_ROWS  # the memories table's dead rows when it was pinned
    history: list[Past] = field(default_factory=list)
    used: float = field(default_factory=time.monotonic)

    @staticmethod
    def new_id() -> str:
        return "x" + secrets.token_hex(8)


def header(model: str, dim: int, namespace: str | None, versions: dict[str, int]) -> dict[str, Any]:
    return {
        "record": "header",
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "embedding_model": model,
        "dim": dim,
        "namespace": namespace,
        "exported_at": iso(now_us()),
        "versions": versions,
    }


def memory_line(row: Row, signal: MemorySignals | None) -> dict[str, Any]:
    out = row.public()
    out["record"] = "memory"
    out["vector"] = base64.b64encode(np.asarray(row.vector, dtype="<f4").tobytes()).decode("ascii")
    if signal is not None:
        out["feedback"] = signal.feedback
        out["ratings"] = signal.ratings
        out["accesses"] = signal.accesses
    return out


def history_line(p: Past) -> dict[str, Any]:
    """A record of the history table: times in µs as stored (``valid_to_us``; in ``data``)."""
    return {
        "record": "history",
        "kind": p.kind,
        "memory_id": p.memory_id,
        "other_id": p.other_id or None,
        "namespace": p.namespace,
        "valid_to_us": p.valid_to,
        "data": p.data,
        "vector": base64.b64encode(p.vector).decode("ascii") if p.vector else None,
    }


def edge_line(edge: Edge) -> dict[str, Any]:
    out = edge.public()
    out["record"] = "edge"
    out["confidence"] = edge.confidence
    out["source_version"] = edge.source_version
    out["target_version"] = edge.target_version
    return out


def vector_from(data: bytes | None, dim: int) -> np.ndarray[Any, np.dtype[np.float32]] | None:
    """An exported vector, if it has this daemon's dimension and is finite, unit-length-ish."""
    if data is None or len(data) != dim * 4:
        return None
    v = np.frombuffer(data, dtype="<f4").astype(np.float32)
    if not np.all(np.isfinite(v)) or not 0.5 < float(np.linalg.norm(v)) < 1.5:
        return None
    return v
