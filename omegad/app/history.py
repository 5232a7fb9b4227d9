"""A memory's past, in its own LanceDB table (``history``): the version each update replaced,
the tombstone each delete left (the last version, with when it was deleted), and the
contradiction edges that were removed. The memories table keeps only what is current, so its
searches and indexes stay the size of the present; the past is read by `history` and by
``as_of`` reads (docs/history.md).

One row per record; ``id`` is ``<memory id>@<valid_to>`` (an edge: ``e:<edge id>@<valid_to>``),
unique because commit stamps strictly increase. ``valid_to`` is when the record stopped being
current (µs). The version in force at a time T is the one of the records ending after T that
ended first, else the current row; the memory existed at T if its ``created_at`` is at or
before T. A ``forget`` erases a memory's rows here with the memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from omegad.contradictions.edges import Edge, EdgeIndex, edge_from
from omegad.storage.location import Location
from omegad.storage.rows import Row, open_or_create, sql_str, upsert_by_id
from omegad.timeutil import iso

__all__ = [
    "EDGE",
    "KINDS",
    "TABLE",
    "TOMBSTONE",
    "VERSION",
    "HistoryStore",
    "Past",
    "edge_at",
    "edge_past",
    "graph_at",
    "in_force",
    "past_from",
    "public_version",
    "version_at",
    "version_past",
]

TABLE = "history"
VERSION = "version"  # a version an update (or an import of a changed memory) replaced
TOMBSTONE = "tombstone"  # the last version of a deleted memory
EDGE = "edge"  # a contradiction edge that was removed
KINDS = (VERSION, TOMBSTONE, EDGE)


def _schema() -> pa.Schema:
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False, metadata={"lance-schema:unenforced-primary-key": "true"}),
            pa.field("kind", pa.string(), nullable=False),
            pa.field("memory_id", pa.string(), nullable=False),
            pa.field("other_id", pa.string(), nullable=False),  # an edge's target, else ""
            pa.field("namespace", pa.string(), nullable=False),
            pa.field("valid_to", pa.int64(), nullable=False),
            pa.field("data", pa.string(), nullable=False),  # JSON: the row's or the edge's fields
            pa.field("vector", pa.binary()),  # float32 little-endian; versions only
        ]
    )


@dataclass(frozen=True)
class Past:
    """One record of the history table."""

    id: str
    kind: str
    memory_id: str
    other_id: str
    namespace: str
    valid_to: int
    data: dict[str, Any]
    vector: bytes | None = None

    def row(self) -> Row:
        """The version as a row (versions and tombstones)."""
        d = self.data
        vec = np.frombuffer(self.vector or b"", dtype="<f4").astype(np.float32)
        return Row(
            id=self.memory_id,
            text=d["text"],
            type=d["type"],
            tags=list(d["tags"]),
            namespace=self.namespace,
            metadata=dict(d["metadata"]),
            created_at=int(d["created_at"]),
            updated_at=int(d["updated_at"]),
            version=int(d["version"]),
            vector=vec,
        )

    def edge(self) -> Edge:
        return edge_from(self.data)

    def record(self) -> dict[str, Any]:
        """The record's fields under their table names (the write-ahead log's and the
        export's form; read back with `past_from`)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "memory_id": self.memory_id,
            "other_id": self.other_id,
            "namespace": self.namespace,
            "valid_to": self.valid_to,
            "data": json.dumps(self.data, separators=(",", ":"), sort_keys=True),
            "vector": self.vector,
        }


def past_from(r: dict[str, Any]) -> Past:
    data = r["data"]
    return Past(
        id=r["id"],
        kind=r["kind"],
        memory_id=r["memory_id"],
        other_id=r["other_id"],
        namespace=r["namespace"],
        valid_to=int(r["valid_to"]),
        data=json.loads(data) if isinstance(data, str) else dict(data),
        vector=r.get("vector"),
    )


def version_past(row: Row, valid_to: int, kind: str = VERSION) -> Past:
    """*row* as it was until *valid_to* (when an update replaced it or a delete removed it)."""
    data = {
        "text": row.text,
        "type": row.type,
        "tags": list(row.tags),
        "metadata": row.metadata,
        "created_at": int(row.created_at),
        "updated_at": int(row.updated_at),
        "version": int(row.version),
    }
    vector = np.asarray(row.vector, dtype="<f4").tobytes()
    return Past(f"{row.id}@{valid_to}", kind, row.id, "", row.namespace, valid_to, data, vector)


def edge_past(edge: Edge, valid_to: int) -> Past:
    data = {**asdict(edge), "signals": list(edge.signals)}
    return Past(f"e:{edge.id}@{valid_to}", EDGE, edge.source, edge.target, edge.namespace, valid_to, data)


def in_force(records: Iterable[Past], at: int) -> dict[str, Past]:
    """For each memory among *records* (versions and tombstones), the record in force at
    *at*: of those ending after it, the one that ended first. A memory missing here is, at
    *at*, in its current row (if that existed then)."""
    out: dict[str, Past] = {}
    for p in records:
        if p.kind == EDGE or p.valid_to <= at:
            continue
        best = out.get(p.memory_id)
        if best is None or p.valid_to < best.valid_to:
            out[p.memory_id] = p
    return out


def version_at(current: Row | None, records: Iterable[Past], at: int) -> Row | None:
    """A memory as it stood at *at*, from its current row and its history records; None if it
    did not exist then (created after, or deleted at or before)."""
    past = [p for p in records if p.kind != EDGE]
    found = in_force(past, at)
    if found:
        row = next(iter(found.values())).row()
    elif current is not None:
        row = current
    else:
        return None
    return row if row.created_at <= at else None


def public_version(p: Past) -> dict[str, Any]:
    """A history record of a version or tombstone as ``history`` answers it."""
    out: dict[str, Any] = p.row().public()
    out["valid_to"] = iso(p.valid_to)
    out["ended_by"] = "delete" if p.kind == TOMBSTONE else "update"
    return out


def edge_at(edge: Edge, at: int) -> Edge | None:
    """*edge* as it stood at *at*: None if it did not exist yet, unresolved if it was resolved
    after."""
    if edge.created_at > at:
        return None
    if edge.resolved_at is not None and edge.resolved_at > at:
        return Edge(**{**edge.__dict__, "resolution": None, "resolved_at": None})
    return edge


class HistoryStore:
    """The ``history`` table. Blocking; writes from the writer thread (or replay) only."""

    def __init__(self, table: Any) -> None:
        self._table = table

    @classmethod
    def open(cls, db: Any, location: Location | None = None) -> HistoryStore:
        return cls(open_or_create(db, TABLE, _schema(), location))

    @property
    def table(self) -> Any:
        return self._table

    @staticmethod
    def _arrow(records: Sequence[Past]) -> pa.Table:
        return pa.Table.from_pylist([p.record() for p in records], schema=_schema())

    def add(self, records: Sequence[Past]) -> None:
        """Append new records (live writes: their ids are new)."""
        if records:
            self._table.add(self._arrow(records))

    def upsert(self, records: Sequence[Past]) -> None:
        """Write records idempotently by id (replay, import)."""
        if records:
            upsert_by_id(self._table, self._arrow(list({p.id: p for p in records}.values())))

    def _where(self, where: str, table: Any | None = None) -> list[Past]:
        tbl = (table or self._table).search().where(where).limit(None).to_arrow()
        return [past_from(r) for r in tbl.to_pylist()]

    def of_memory(self, memory_id: str) -> list[Past]:
        """A memory's versions and tombstones, oldest first."""
        q = sql_str(memory_id)
        found = self._where(f"memory_id = {q} AND kind != '{EDGE}'")
        return sorted(found, key=lambda p: p.valid_to)

    def edges_of(self, memory_ids: Iterable[str]) -> list[Past]:
        """Removed edges that touch any of *memory_ids*."""
        ids = sorted(set(memory_ids))
        if not ids:
            return []
        lst = ", ".join(sql_str(i) for i in ids)
        return self._where(f"kind = '{EDGE}' AND (memory_id IN ({lst}) OR other_id IN ({lst}))")

    def ending_after(self, namespace: str, at: int) -> list[Past]:
        """Records of *namespace* that stopped being current after *at* (what ``as_of`` reads)."""
        return self._where(f"namespace = {sql_str(namespace)} AND valid_to > {int(at)}")

    def namespaces_of(self, memory_ids: Sequence[str]) -> dict[str, str]:
        """The namespace of each of *memory_ids* that has a past (deleted memories' included)."""
        if not memory_ids:
            return {}
        lst = ", ".join(sql_str(i) for i in memory_ids)
        tbl = self._table.search().where(f"memory_id IN ({lst})").select(["memory_id", "namespace"]).to_arrow()
        return dict(zip(tbl.column("memory_id").to_pylist(), tbl.column("namespace").to_pylist(), strict=True))

    def forget(self, memory_id: str) -> None:
        """Erase every record of *memory_id* (its versions, its tombstone, edges to it)."""
        q = sql_str(memory_id)
        self._table.delete(f"memory_id = {q} OR other_id = {q}")

    def load(self, table: Any | None = None, namespace: str | None = None) -> list[Past]:
        """Every record (of *table*, a pinned snapshot, when given), oldest first."""
        where = f"namespace = {sql_str(namespace)}" if namespace is not None else "true"
        return sorted(self._where(where, table), key=lambda p: (p.valid_to, p.id))


def graph_at(live: Iterable[Edge], removed: Iterable[Past], at: int) -> EdgeIndex:
    """The contradiction graph as it stood at *at*: the live edges that existed then, and the
    removed ones that still did."""
    index = EdgeIndex()
    for e in live:
        then = edge_at(e, at)
        if then is not None:
            index.add(then)
    for p in removed:
        if p.kind == EDGE and p.valid_to > at:
            then = edge_at(p.edge(), at)
            if then is not None:
                index.add(then)
    return index
