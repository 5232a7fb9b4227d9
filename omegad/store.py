"""Storage: one LanceDB table of memories behind a narrow, blocking interface.

Every method here blocks and must run in a worker thread (the server wraps them with
`anyio.to_thread.run_sync` behind limiters). Writes come only from the writer task, one at a
time, so check-then-write sequences (idempotent ids, deletes) need no further locking.

Row schema of table ``memories`` (``id`` is a non-nullable primary key declared when the
table is created, see docs/design notes on object storage):

    id str · text str · type str · tags list<str> · namespace str · metadata str (JSON)
    created_at int64 (µs since epoch, UTC) · updated_at int64 · version int32 · vector f32[dim]

Times are integers so range filters stay plain comparisons inside the storage query.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute

__all__ = ["Filter", "MemoryStore", "Row", "StoreMismatch", "sql_str"]

TABLE = "memories"
STORE_META = "store.json"
STORE_FORMAT = 1


class StoreMismatch(Exception):
    """The data directory was written with a different embedding model or format."""


def sql_str(value: str) -> str:
    """A SQL string literal (single quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def to_micros(dt: datetime) -> int:
    return int(dt.timestamp() * 1_000_000)


def from_micros(us: int) -> datetime:
    return datetime.fromtimestamp(us / 1_000_000, tz=UTC)


def iso(us: int) -> str:
    return from_micros(us).isoformat().replace("+00:00", "Z")


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
        return " AND ".join(parts)


def _id_in(ids: Sequence[str]) -> str:
    return f"id IN ({', '.join(sql_str(i) for i in ids)})"


SELECT = ["id", "text", "type", "tags", "namespace", "metadata", "created_at", "updated_at", "version", "vector"]


def _schema(dim: int) -> pa.Schema:
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


def _rows(tbl: pa.Table, dim: int) -> list[Row]:
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


def _records(rows: Sequence[Row], dim: int) -> pa.Table:
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
        schema=_schema(dim),
    )


class MemoryStore:
    """The memories table. Open with `MemoryStore.open`; all methods block."""

    def __init__(self, directory: Path, table: Any, db: Any, dim: int, model_id: str) -> None:
        self.directory = directory
        self.dim = dim
        self.model_id = model_id
        self._db = db
        self._table = table
        self._fts_ready = False
        self._id_index_ready = False
        self._lock = threading.Lock()  # guards _fts_ready and index creation
        self.refresh_index_state()

    @classmethod
    def open(cls, data_dir: Path, model_id: str, dim: int) -> MemoryStore:
        import lancedb

        directory = data_dir / "lance"
        directory.mkdir(parents=True, exist_ok=True)
        meta_path = data_dir / STORE_META
        if meta_path.exists():
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise StoreMismatch(f"{meta_path} is unreadable: {exc}") from None
            if meta.get("format") != STORE_FORMAT:
                raise StoreMismatch(
                    f"{meta_path}: store format {meta.get('format')!r}, this omegad reads {STORE_FORMAT}"
                )
            if meta.get("embedding_model") != model_id or meta.get("embedding_dim") != dim:
                raise StoreMismatch(
                    f"the store in {data_dir} was built with embedding model {meta.get('embedding_model')!r} "
                    f"(dim {meta.get('embedding_dim')}), but the configured model is {model_id!r} (dim {dim}). "
                    "Use the original model, or a new --data-dir (re-import there once export/import exists)."
                )
        else:
            tmp = meta_path.with_suffix(".tmp")
            tmp.write_text(
                json.dumps({"format": STORE_FORMAT, "embedding_model": model_id, "embedding_dim": dim}, indent=2)
                + "\n",
                encoding="utf-8",
            )
            with tmp.open("rb") as f:
                os.fsync(f.fileno())
            os.replace(tmp, meta_path)
        db = lancedb.connect(str(directory))
        try:
            table = db.open_table(TABLE)
        except ValueError:  # no such table yet
            table = db.create_table(TABLE, schema=_schema(dim))
        return cls(directory, table, db, dim, model_id)

    # -- reads -----------------------------------------------------------------------------

    def get_many(self, ids: Iterable[str]) -> dict[str, Row]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        out: dict[str, Row] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            tbl = self._table.search().where(_id_in(chunk)).select(SELECT).limit(len(chunk) + 10).to_arrow()
            for row in _rows(tbl, self.dim):
                out[row.id] = row
        return out

    def existing_ids(self, ids: Iterable[str]) -> set[str]:
        ids = list(dict.fromkeys(ids))
        found: set[str] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            tbl = self._table.search().where(_id_in(chunk)).select(["id"]).limit(len(chunk) + 10).to_arrow()
            found.update(tbl.column("id").to_pylist())
        return found

    def vector_search(self, vector: npt.NDArray[np.float32], flt: Filter, k: int) -> list[tuple[Row, float]]:
        """Nearest rows by cosine similarity, filtered inside the query (prefilter)."""
        tbl = (
            self._table.search(vector, vector_column_name="vector")
            .distance_type("cosine")
            .where(flt.sql(), prefilter=True)
            .select([*SELECT, "_distance"])
            .limit(k)
            .to_arrow()
        )
        distances = tbl.column("_distance").to_pylist()
        return [(row, 1.0 - float(dist)) for row, dist in zip(_rows(tbl, self.dim), distances, strict=True)]

    def vector_search_many(
        self, vectors: Sequence[npt.NDArray[np.float32]], flt: Filter, k: int
    ) -> list[list[tuple[Row, float]]]:
        """`vector_search` for several vectors in one storage query (one scan instead of one
        per vector: ~5× cheaper for a batch of 8); results per vector, nearest first."""
        if not vectors:
            return []
        if len(vectors) == 1:
            return [self.vector_search(vectors[0], flt, k)]
        tbl = (
            self._table.search(np.stack(vectors), vector_column_name="vector")
            .distance_type("cosine")
            .where(flt.sql(), prefilter=True)
            .select([*SELECT, "_distance"])
            .limit(k)
            .to_arrow()
        )
        out: list[list[tuple[Row, float]]] = [[] for _ in vectors]
        qidx = tbl.column("query_index").to_pylist()
        distances = tbl.column("_distance").to_pylist()
        for q, row, dist in zip(qidx, _rows(tbl, self.dim), distances, strict=True):
            out[int(q)].append((row, 1.0 - float(dist)))
        for hits in out:
            hits.sort(key=lambda h: -h[1])
        return out

    def max_updated_at(self) -> int:
        """The newest commit stamp in the table (0 when empty)."""
        tbl = self._table.search().select(["updated_at"]).limit(None).to_arrow()
        col = tbl.column("updated_at")
        return int(pa.compute.max(col).as_py() or 0) if tbl.num_rows else 0

    def updated_after(self, us: int) -> list[tuple[str, int]]:
        """(id, updated_at) of rows committed after the commit stamp *us*, oldest first."""
        tbl = self._table.search().where(f"updated_at > {int(us)}").select(["id", "updated_at"]).limit(None).to_arrow()
        pairs = zip(tbl.column("id").to_pylist(), tbl.column("updated_at").to_pylist(), strict=True)
        return sorted(((i, int(u)) for i, u in pairs), key=lambda p: (p[1], p[0]))

    def text_search(self, text: str, flt: Filter, k: int) -> list[tuple[Row, float]]:
        """Full-text (BM25) matches, filtered inside the query; empty before the first index."""
        if not self._fts_ready:
            return []
        tbl = (
            self._table.search(text, query_type="fts", fts_columns="text")
            .where(flt.sql(), prefilter=True)
            .select([*SELECT, "_score"])
            .limit(k)
            .to_arrow()
        )
        scores = tbl.column("_score").to_pylist()
        return [(row, float(score)) for row, score in zip(_rows(tbl, self.dim), scores, strict=True)]

    def count(self) -> int:
        return int(self._table.count_rows())

    def counts(self) -> dict[str, dict[str, int]]:
        """Rows per namespace and type."""
        tbl = self._table.search().select(["namespace", "type"]).limit(None).to_arrow()
        if tbl.num_rows == 0:
            return {}
        grouped = tbl.group_by(["namespace", "type"]).aggregate([([], "count_all")])
        out: dict[str, dict[str, int]] = {}
        for ns, ty, n in zip(
            grouped.column("namespace").to_pylist(),
            grouped.column("type").to_pylist(),
            grouped.column("count_all").to_pylist(),
            strict=True,
        ):
            out.setdefault(ns, {})[ty] = int(n)
        return out

    def disk_bytes(self) -> int:
        total = 0
        for root, _dirs, files in os.walk(self.directory):
            for name in files:
                try:
                    total += os.stat(os.path.join(root, name)).st_size
                except OSError:
                    pass
        return total

    def index_state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": int(self._table.version), "fts": None}
        for idx in self._table.list_indices():
            stats = self._table.index_stats(idx.name)
            if stats is None:
                continue
            name = (
                "fts" if str(stats.index_type).upper() == "FTS" else "id" if list(idx.columns) == ["id"] else idx.name
            )
            out[name] = {
                "indexed_rows": int(stats.num_indexed_rows),
                "unindexed_rows": int(stats.num_unindexed_rows),
            }
        return out

    @property
    def indexes_ready(self) -> bool:
        return self._fts_ready and self._id_index_ready

    def refresh_index_state(self) -> None:
        with self._lock:
            indices = self._table.list_indices()
            self._fts_ready = any(
                list(idx.columns) == ["text"] and str(idx.index_type).upper() == "FTS" for idx in indices
            )
            self._id_index_ready = any(list(idx.columns) == ["id"] for idx in indices)

    # -- writes (writer task only) ---------------------------------------------------------

    def insert(self, rows: Sequence[Row]) -> None:
        if rows:
            self._table.add(_records(rows, self.dim))

    def replace(self, row: Row) -> None:
        """Replace the row with the same id in one commit."""
        (
            self._table.merge_insert("id")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .execute(_records([row], self.dim))
        )

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._table.delete(_id_in(ids))

    def upkeep(self, compact: bool = False) -> dict[str, Any]:
        """Create missing indexes (full text on ``text``, btree on ``id``) once there are rows;
        with *compact*, merge small fragments, fold new rows into the indexes and drop versions
        older than an hour (no query runs that long; LanceDB's default keeps 7 days).

        A light stand-in for the store engine's maintenance task; it runs from the writer, so
        it is serialised with writes.
        """
        from lancedb.index import FTS, BTree

        done: dict[str, Any] = {}
        if self.count() == 0:
            return done
        if not self._fts_ready:
            self._table.create_index("text", config=FTS(with_position=False), replace=True)
            done["fts_created"] = True
        if not self._id_index_ready:
            self._table.create_index("id", config=BTree(), replace=True)
            done["id_index_created"] = True
        if done:
            self.refresh_index_state()
        if compact:
            self._table.optimize(cleanup_older_than=timedelta(hours=1))
            done["compacted"] = True
        return done
