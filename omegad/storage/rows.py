"""Rows of the memories table and the helpers every table of the store shares.

Row schema of table ``memories`` (``id`` is non-nullable and marked as the primary key in the
schema's metadata, which Lance does not enforce: the writer keeps ids unique, see
`MemoryStore.upsert`):

    id str · text str · type str · tags list<str> · namespace str · metadata str (JSON)
    created_at int64 (µs since epoch, UTC) · updated_at int64 · version int32 · vector f32[dim]

Times are integers so range filters stay plain comparisons inside the storage query.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from omegad.timeutil import iso

if TYPE_CHECKING:
    from omegad.storage.location import Location

__all__ = [
    "SELECT",
    "TABLE",
    "TOMBSTONES",
    "Filter",
    "Row",
    "StoreMismatch",
    "hits_of",
    "id_in",
    "insert_absent",
    "one_per_id",
    "open_or_create",
    "records",
    "rows_of",
    "schema",
    "scored_of",
    "sql_str",
    "tombstone_schema",
    "upsert_by_id",
]

TABLE = "memories"
TOMBSTONES = "tombstones"


class StoreMismatch(Exception):
    """The data directory was written with a different embedding model or format."""


def sql_str(value: str) -> str:
    """A SQL string literal (single quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


@dataclass
class Row:
    id: str
    text: str
    type: str
    tags: list[str]
    namespace: str
    metadata: dict[str, Any]
    created_at: int
    updated_at: int
    version: int
    vector: npt.NDArray[np.float32]

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "type": self.type,
            "tags": list(self.tags),
            "namespace": self.namespace,
            "metadata": self.metadata,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "version": self.version,
        }


@dataclass(frozen=True)
class Filter:
    """What a query may see. Turned into a SQL predicate evaluated inside the storage query."""

    namespace: str
    types: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    since_us: int | None = None
    until_us: int | None = None
    exclude_ids: tuple[str, ...] = ()  # hidden memories (rated down), unless asked for

    def admits(self, row: Row) -> bool:
        """`sql`, evaluated on one row in memory."""
        return (
            row.namespace == self.namespace
            and (not self.types or row.type in self.types)
            and (not self.tags or any(t in self.tags for t in row.tags))
            and (self.since_us is None or row.created_at >= self.since_us)
            and (self.until_us is None or row.created_at <= self.until_us)
            and row.id not in self.exclude_ids
        )

    def sql(self) -> str:
        parts = [f"namespace = {sql_str(self.namespace)}"]
        if self.types:
            parts.append(f"type IN ({', '.join(sql_str(t) for t in self.types)})")
        if self.tags:
            parts.append(f"array_has_any(tags, [{', '.join(sql_str(t) for t in self.tags)}])")
        if self.since_us is not None:
            parts.append(f"created_at >= {int(self.since_us)}")
        if self.until_us is not None:
            parts.append(f"created_at <= {int(self.until_us)}")
        if self.exclude_ids:
            parts.append(f"id NOT IN ({', '.join(sql_str(i) for i in self.exclude_ids)})")
        return " AND ".join(parts)


def id_in(ids: Sequence[str]) -> str:
    """A filter: the row's id is one of *ids*."""
    return f"id IN ({', '.join(sql_str(i) for i in ids)})"


def open_or_create(db: Any, name: str, schema: pa.Schema, location: Location | None = None) -> Any:
    """Table *name* of *db*, created empty with *schema* the first time. In a team store
    (*location* shared) one host at a time creates it, under a lock in the bucket: Lance
    commits a second host's concurrent create as an overwrite of the first's table, rows
    acknowledged in it included (seen with two daemons starting on a new prefix)."""
    try:
        return db.open_table(name)
    except ValueError:  # no such table yet
        pass
    if location is None or not location.shared:
        try:
            return db.create_table(name, schema=schema)
        except (ValueError, OSError):  # (created meanwhile)
            return db.open_table(name)
    from omegad.storage.bucket import Bucket

    with Bucket(location.root, location.options).exclusive(f"creating/{name}"):
        try:
            return db.open_table(name)  # (created by the host that held the lock before)
        except ValueError:
            return db.create_table(name, schema=schema)


def insert_absent(table: Any, data: pa.Table) -> None:
    """Insert the rows of *data* whose id is not in the table. With ``id`` the table's primary
    key, two writers inserting one id at once commit one row: the later commit sees the
    conflict and retries."""
    table.merge_insert("id").when_not_matched_insert_all().execute(data)


def upsert_by_id(table: Any, data: pa.Table) -> None:
    """Write the rows of *data*, each replacing the row of the same id if there is one."""
    table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(data)


SELECT = [
    "id",
    "text",
    "type",
    "tags",
    "namespace",
    "metadata",
    "created_at",
    "updated_at",
    "version",
    "vector",
    "_rowid",
]


def schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False, metadata={"lance-schema:unenforced-primary-key": "true"}),
            pa.field("text", pa.string(), nullable=False),
            pa.field("type", pa.string(), nullable=False),
            pa.field("tags", pa.list_(pa.string())),
            pa.field("namespace", pa.string(), nullable=False),
            pa.field("metadata", pa.string()),
            pa.field("created_at", pa.int64(), nullable=False),
            pa.field("updated_at", pa.int64(), nullable=False),
            pa.field("version", pa.int32(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dim), nullable=False),
        ]
    )


def rows_of(tbl: pa.Table, dim: int) -> list[Row]:
    """Rows from an Arrow result; vectors are sliced out of one contiguous numpy buffer."""
    n = tbl.num_rows
    if n == 0:
        return []
    vectors = np.asarray(
        tbl.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False), dtype=np.float32
    ).reshape(n, dim)
    cols = {name: tbl.column(name).to_pylist() for name in SELECT if name != "vector"}
    out: list[Row] = []
    for i in range(n):
        meta = cols["metadata"][i]
        out.append(
            Row(
                id=cols["id"][i],
                text=cols["text"][i],
                type=cols["type"][i],
                tags=list(cols["tags"][i] or []),
                namespace=cols["namespace"][i],
                metadata=json.loads(meta) if meta else {},
                created_at=int(cols["created_at"][i]),
                updated_at=int(cols["updated_at"][i]),
                version=int(cols["version"][i]),
                vector=vectors[i],
            )
        )
    return out


def hits_of(tbl: pa.Table, dim: int) -> list[tuple[Row, float]]:
    """Rows of a vector search result with their cosine similarity."""
    distances = tbl.column("_distance").to_pylist()
    return [(row, 1.0 - float(dist)) for row, dist in zip(rows_of(tbl, dim), distances, strict=True)]


def scored_of(tbl: pa.Table, dim: int) -> list[tuple[Row, float]]:
    """Rows of a full-text search result with their BM25 score."""
    scores = tbl.column("_score").to_pylist()
    return [(row, float(score)) for row, score in zip(rows_of(tbl, dim), scores, strict=True)]


def one_per_id(hits: list[tuple[Row, float]]) -> list[tuple[Row, float]]:
    """*hits* with only the newest version of each id: an update appends its new row before
    it retires the old, and a search in between may find both."""
    best: dict[str, int] = {}
    for i, (row, _) in enumerate(hits):
        b = best.get(row.id)
        if b is None or row.updated_at > hits[b][0].updated_at:
            best[row.id] = i
    if len(best) == len(hits):
        return hits
    keep = set(best.values())
    return [h for i, h in enumerate(hits) if i in keep]


def records(rows: Sequence[Row], dim: int) -> pa.Table:
    return pa.Table.from_pylist(
        [
            {
                "id": r.id,
                "text": r.text,
                "type": r.type,
                "tags": list(r.tags),
                "namespace": r.namespace,
                "metadata": json.dumps(r.metadata, ensure_ascii=False, separators=(",", ":")) if r.metadata else None,
                "created_at": r.created_at,
                "updated_at": r.updated_at,
                "version": r.version,
                "vector": r.vector.astype(np.float32).tolist(),
            }
            for r in rows
        ],
        schema=schema(dim),
    )


def tombstone_schema() -> pa.Schema:
    return pa.schema(
        [
            pa.field("rowid", pa.uint64(), nullable=False),
            pa.field("id", pa.string(), nullable=False),
            pa.field("namespace", pa.string(), nullable=False),
            pa.field("type", pa.string(), nullable=False),
        ]
    )
