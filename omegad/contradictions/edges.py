"""The graph of flagged pairs: edges ``newer --contradicts--> older`` in their own LanceDB
table (``edges``), the in-memory index queries read annotations from, and resolutions."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import structlog

from omegad.contradictions.model import DETECTOR_VERSION
from omegad.storage.rows import id_in, open_or_create, sql_str, upsert_by_id
from omegad.storage.store import MemoryStore
from omegad.timeutil import iso, now_us

__all__ = [
    "DUPLICATES",
    "EDGES_TABLE",
    "KIND",
    "Edge",
    "EdgeIndex",
    "EdgeOp",
    "EdgeStore",
    "edge_from",
    "edge_id",
    "resolved",
]

log = structlog.get_logger("omegad")


EDGES_TABLE = "edges"
CURSOR_FILE = "contradictions.json"
KIND = "contradicts"
DUPLICATES = "duplicates"  # newer --duplicates--> older: a near duplicate (docs/duplicates.md)


def edge_id(kind: str, source: str, target: str) -> str:
    return hashlib.sha1(f"{kind}|{source}|{target}|v{DETECTOR_VERSION}".encode(), usedforsecurity=False).hexdigest()


def edge_from(r: dict[str, Any]) -> Edge:
    """An edge from a row of the edges table or a write-ahead-log record (same field names;
    ``signals`` as JSON text in the table, a list in the log)."""
    signals = r["signals"]
    return Edge(
        id=r["id"],
        kind=r["kind"],
        source=r["source"],
        target=r["target"],
        namespace=r["namespace"],
        confidence=float(r["confidence"]),
        signals=tuple(json.loads(signals) if isinstance(signals, str) else signals),
        source_version=int(r["source_version"]),
        target_version=int(r["target_version"]),
        created_at=int(r["created_at"]),
        resolution=r["resolution"],
        resolved_at=r["resolved_at"],
    )


@dataclass(frozen=True)
class Edge:
    id: str
    kind: str
    source: str  # the newer memory
    target: str  # the older memory it contradicts
    namespace: str
    confidence: float
    signals: tuple[dict[str, Any], ...]
    source_version: int
    target_version: int
    created_at: int
    resolution: str | None = None
    resolved_at: int | None = None

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "source": self.source,
            "target": self.target,
            "namespace": self.namespace,
            "confidence": round(self.confidence, 4),
            "signals": list(self.signals),
            "created_at": iso(self.created_at),
            "resolution": self.resolution,
            "resolved_at": iso(self.resolved_at) if self.resolved_at else None,
        }


def _edge_schema() -> pa.Schema:
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False, metadata={"lance-schema:unenforced-primary-key": "true"}),
            pa.field("kind", pa.string(), nullable=False),
            pa.field("source", pa.string(), nullable=False),
            pa.field("target", pa.string(), nullable=False),
            pa.field("namespace", pa.string(), nullable=False),
            pa.field("confidence", pa.float64(), nullable=False),
            pa.field("signals", pa.string(), nullable=False),
            pa.field("source_version", pa.int32(), nullable=False),
            pa.field("target_version", pa.int32(), nullable=False),
            pa.field("created_at", pa.int64(), nullable=False),
            pa.field("resolution", pa.string()),
            pa.field("resolved_at", pa.int64()),
        ]
    )


class EdgeStore:
    """The ``edges`` table and the checker's cursor file. Blocking; writer thread only for
    writes."""

    def __init__(self, table: Any, cursor_path: Path, shared: bool = False) -> None:
        self._table = table
        self.cursor_path = cursor_path
        #: a team store: other hosts write edges too, so the ledger of ids may be stale and
        #: every edge is merged on its id (two hosts finding one pair write one row)
        self.shared = shared
        self._ids: dict[str, tuple[str, str]] | None = None  # edge id → (source, target)

    def _ledger(self) -> dict[str, tuple[str, str]]:
        """The ids of the table's edges (read once, then kept by the writes): a new edge is
        appended (~11 ms) instead of merged (~17–22 ms, a join with the table)."""
        if self._ids is None:
            tbl = self._table.search().select(["id", "source", "target"]).limit(None).to_arrow()
            cols = (tbl.column(c).to_pylist() for c in ("id", "source", "target"))
            self._ids = {i: (src, dst) for i, src, dst in zip(*cols, strict=True)}
        return self._ids

    @classmethod
    def open(cls, store: MemoryStore, data_dir: Path) -> EdgeStore:
        return cls(
            open_or_create(store.side_db, EDGES_TABLE, _edge_schema(), store.location),
            data_dir / CURSOR_FILE,
            shared=store.shared,
        )

    def load(self, table: Any | None = None) -> list[Edge]:
        """Every edge (of *table*, a pinned snapshot of the edges table, when given)."""
        tbl = (table or self._table).search().limit(None).to_arrow()
        return [edge_from(r) for r in tbl.to_pylist()]

    @property
    def table(self) -> Any:
        return self._table

    def upsert(self, edges: Sequence[Edge]) -> None:
        if not edges:
            return
        ids = self._ledger()
        unique = list({e.id: e for e in edges}.values())
        new = [e for e in unique if e.id not in ids]
        known = [e for e in unique if e.id in ids]
        if self.shared:  # (merged on the primary key: another host may write one of these now)
            upsert_by_id(self._table, self._arrow(unique))
            ids.update((e.id, (e.source, e.target)) for e in unique)
            return
        if new:
            self._table.add(self._arrow(new))
        if known:
            upsert_by_id(self._table, self._arrow(known))
        ids.update((e.id, (e.source, e.target)) for e in unique)

    @staticmethod
    def _arrow(edges: Sequence[Edge]) -> pa.Table:
        rows = [
            {
                "id": e.id,
                "kind": e.kind,
                "source": e.source,
                "target": e.target,
                "namespace": e.namespace,
                "confidence": e.confidence,
                "signals": json.dumps(list(e.signals), separators=(",", ":")),
                "source_version": e.source_version,
                "target_version": e.target_version,
                "created_at": e.created_at,
                "resolution": e.resolution,
                "resolved_at": e.resolved_at,
            }
            for e in edges
        ]
        return pa.Table.from_pylist(rows, schema=_edge_schema())

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._table.delete(id_in(ids))
            ledger = self._ledger()
            for i in ids:
                ledger.pop(i, None)

    def by_ids(self, ids: Sequence[str]) -> list[Edge]:
        """The table's edges among *ids* (what a delete is about to remove, for the history)."""
        if not ids:
            return []
        return [edge_from(r) for r in self._table.search().where(id_in(ids)).limit(None).to_arrow().to_pylist()]

    def touching(self, memory_id: str) -> list[Edge]:
        q = sql_str(memory_id)
        tbl = self._table.search().where(f"source = {q} OR target = {q}").limit(None).to_arrow()
        return [edge_from(r) for r in tbl.to_pylist()]

    def delete_touching(self, memory_id: str) -> None:
        q = sql_str(memory_id)
        self._table.delete(f"source = {q} OR target = {q}")
        ledger = self._ledger()
        for i in [i for i, ends in ledger.items() if memory_id in ends]:
            del ledger[i]

    def read_cursor(self) -> int:
        try:
            return int(json.loads(self.cursor_path.read_text(encoding="utf-8"))["checked_through_us"])
        except FileNotFoundError:
            return 0
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("contradiction_cursor_unreadable", path=str(self.cursor_path), error=str(exc))
            return 0  # re-check everything: idempotent

    def write_cursor(self, us: int) -> None:
        tmp = self.cursor_path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            json.dump({"checked_through_us": us, "detector_version": DETECTOR_VERSION}, f)
        os.replace(tmp, self.cursor_path)


@dataclass
class EdgeIndex:
    """All edges in memory (the table is small: contradictions are rare), by id and by memory."""

    edges: dict[str, Edge] = field(default_factory=dict)
    by_memory: dict[str, set[str]] = field(default_factory=dict)

    def add(self, edge: Edge) -> None:
        self.remove(edge.id)
        self.edges[edge.id] = edge
        self.by_memory.setdefault(edge.source, set()).add(edge.id)
        self.by_memory.setdefault(edge.target, set()).add(edge.id)

    def remove(self, eid: str) -> None:
        old = self.edges.pop(eid, None)
        if old is None:
            return
        for mid in (old.source, old.target):
            ids = self.by_memory.get(mid)
            if ids is not None:
                ids.discard(eid)
                if not ids:
                    del self.by_memory[mid]

    def of(self, memory_id: str, kind: str | None = None) -> list[Edge]:
        """The edges of *memory_id* (of one *kind*, when given)."""
        found = [self.edges[e] for e in sorted(self.by_memory.get(memory_id, ()))]
        return found if kind is None else [e for e in found if e.kind == kind]

    def duplicates_of(self, memory_id: str) -> list[str]:
        """The memories linked to *memory_id* as near duplicates."""
        return [e.target if e.source == memory_id else e.source for e in self.of(memory_id, DUPLICATES)]

    def between(self, a: str, b: str) -> Edge | None:
        """The contradiction between *a* and *b*, if any."""
        for e in self.of(a, KIND):
            if {e.source, e.target} == {a, b}:
                return e
        return None

    def annotations(self, memory_id: str) -> dict[str, list[dict[str, Any]]]:
        """``contradicts`` / ``contradicted_by`` of a memory (unresolved edges only)."""
        out: dict[str, list[dict[str, Any]]] = {}
        for e in self.of(memory_id):
            if e.kind == DUPLICATES:
                other = e.target if e.source == memory_id else e.source
                out.setdefault("duplicates", []).append({"id": other, "at": iso(e.created_at)})
                continue
            if e.resolution is not None:
                continue
            other, key = (e.target, "contradicts") if e.source == memory_id else (e.source, "contradicted_by")
            out.setdefault(key, []).append(
                {"id": other, "confidence": round(e.confidence, 4), "signals": list(e.signals), "at": iso(e.created_at)}
            )
        return out

    def demoted(self, memory_id: str) -> bool:
        """The memory is the losing side of a contradiction: contradicted by a newer memory
        (unresolved or resolved keep_new), or the newer side of a pair resolved keep_old."""
        for e in self.of(memory_id, KIND):
            if e.target == memory_id and e.resolution in (None, "keep_new"):
                return True
            if e.source == memory_id and e.resolution == "keep_old":
                return True
        return False


@dataclass
class EdgeOp:
    """Writer operation: edges to write and delete. *seen*: the commit stamp (``updated_at``)
    of each memory as the checker read it, so the writer can tell a memory deleted since
    without a storage query."""

    upsert: list[Edge]
    delete: list[str]
    seen: dict[str, int] = field(default_factory=dict)


def resolved(edge: Edge, resolution: str | None) -> Edge:
    return replace(edge, resolution=resolution, resolved_at=now_us() if resolution else None)
