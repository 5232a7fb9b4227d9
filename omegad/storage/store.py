"""Storage: one LanceDB table of memories behind a narrow, blocking interface.

Every method here blocks and must run in a worker thread (the server wraps them with
`anyio.to_thread.run_sync` behind limiters). Writes come only from the writer task, one at a
time, so check-then-write sequences (idempotent ids, deletes) need no further locking.

Row schema of table ``memories`` (``id`` is non-nullable and marked as the primary key in the
schema's metadata, which Lance does not enforce: the writer keeps ids unique, see `upsert`):

    id str · text str · type str · tags list<str> · namespace str · metadata str (JSON)
    created_at int64 (µs since epoch, UTC) · updated_at int64 · version int32 · vector f32[dim]

Times are integers so range filters stay plain comparisons inside the storage query.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

# index_stats would otherwise carry (and warn about) every IVF centroid
os.environ.setdefault("LANCE_INCLUDE_VECTOR_CENTROIDS", "false")
import pyarrow as pa
import pyarrow.compute
import structlog

from omegad.config import Config
from omegad.storage.fsutil import fsync_dir, fsync_file
from omegad.storage.lanceops import ChildOps, CompactionBounds, LanceOps, LanceOpsTimeout, LocalOps
from omegad.storage.lanceops import preempted as _preempted
from omegad.timeutil import iso

log = structlog.get_logger("omegad")

__all__ = ["Filter", "MemoryStore", "Row", "StoreMismatch", "sql_str"]

TABLE = "memories"
TOMBSTONES = "tombstones"
#: Present while an update's new row is committed and its old row not yet retired: a crash
#: between the two leaves both, and the next open keeps the newer (`_repair_duplicates`).
RETIRING = ".retiring"
#: Present while dead rows are deleted from the table and then from the tombstones: a crash
#: between the two leaves tombstones of rows that are gone, which the next open drops.
BURYING = ".burying"
STORE_META = "store.json"
STORE_FORMAT = 1


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


def open_or_create(db: Any, name: str, schema: pa.Schema) -> Any:
    """Table *name* of *db*, created empty with *schema* the first time."""
    try:
        return db.open_table(name)
    except ValueError:  # no such table yet
        return db.create_table(name, schema=schema)


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


def _hits(tbl: pa.Table, dim: int) -> list[tuple[Row, float]]:
    """Rows of a vector search result with their cosine similarity."""
    distances = tbl.column("_distance").to_pylist()
    return [(row, 1.0 - float(dist)) for row, dist in zip(_rows(tbl, dim), distances, strict=True)]


def _scored(tbl: pa.Table, dim: int) -> list[tuple[Row, float]]:
    """Rows of a full-text search result with their BM25 score."""
    scores = tbl.column("_score").to_pylist()
    return [(row, float(score)) for row, score in zip(_rows(tbl, dim), scores, strict=True)]


def _one_per_id(hits: list[tuple[Row, float]]) -> list[tuple[Row, float]]:
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


def _tombstone_schema() -> pa.Schema:
    return pa.schema(
        [
            pa.field("rowid", pa.uint64(), nullable=False),
            pa.field("id", pa.string(), nullable=False),
            pa.field("namespace", pa.string(), nullable=False),
            pa.field("type", pa.string(), nullable=False),
        ]
    )


@dataclass(frozen=True, eq=False)
class DeadRows:
    """Rows deleted (or replaced by a newer version) but still in the memories table: their
    Lance row addresses (``_rowid``), which every read drops. Immutable — the writer swaps in
    a new one — so a read uses one consistent set (see `MemoryStore.delete` for why)."""

    rows: dict[int, tuple[str, str, str]]  # row address → (id, namespace, type)
    per_namespace: dict[str, int]
    #: (`excluding`, `not_excluded` per namespace, rows added since they were computed from
    #: every row), when known ahead: derived by `with_rows` from the set it extends
    split: tuple[str, dict[str, int], int] | None = None

    @classmethod
    def of(cls, rows: dict[int, tuple[str, str, str]]) -> DeadRows:
        per: dict[str, int] = {}
        for _, ns, _ in rows.values():
            per[ns] = per.get(ns, 0) + 1
        return cls(rows, per)

    @functools.cached_property
    def keys(self) -> pa.Array:
        return pa.array(list(self.rows), pa.uint64())

    def with_rows(self, rows: dict[int, tuple[str, str, str]]) -> DeadRows:
        """The set with these rows dead too. Each delete or update calls it in the writer, and the
        next search needs `excluding`: recomputing that from every dead row (a sort) cost each
        delete O(dead rows), which only grow under the base segment. So the new rows are
        counted as `not_excluded` against the ranges already found, and the ranges are recomputed
        once `DEAD_RECOUNT_ROWS` were added since (a run of single deletes becomes a range
        again): O(dead rows / 1,024) per delete."""
        new = {r: v for r, v in rows.items() if r not in self.rows}
        if not new:
            return self
        merged = {**self.rows, **new}
        per = dict(self.per_namespace)
        for _, ns, _ in new.values():
            per[ns] = per.get(ns, 0) + 1
        split = None
        if "_split" in self.__dict__ or self.split is not None:
            excluding, not_excluded, added = self._split_added
            added += len(new)
            if added <= DEAD_RECOUNT_ROWS:
                not_excluded = dict(not_excluded)
                for _, ns, _ in new.values():
                    not_excluded[ns] = not_excluded.get(ns, 0) + 1
                split = (excluding, not_excluded, added)
        return DeadRows(merged, per, split)

    def without_rows(self, rowids: Iterable[int]) -> DeadRows:
        """The set without these rows (deleted for good, or no longer in the table)."""
        gone = set(rowids)
        return DeadRows.of({r: v for r, v in self.rows.items() if r not in gone})

    def drop(self, tbl: pa.Table) -> pa.Table:
        """*tbl* (with a ``_rowid`` column) without the dead rows."""
        if not self.rows or tbl.num_rows == 0:
            return tbl
        if tbl.num_rows <= 4_096:  # (a search's rows: cheaper than hashing every dead row)
            rows = self.rows
            return tbl.filter(pa.array([r not in rows for r in tbl.column("_rowid").to_pylist()], pa.bool_()))
        dead = pa.compute.is_in(tbl.column("_rowid"), value_set=self.keys)
        return tbl.filter(pa.compute.invert(dead))

    @functools.cached_property
    def per_fragment(self) -> dict[int, int]:
        """Fragment id → its dead rows."""
        out: dict[int, int] = {}
        for r in self.rows:
            out[r >> 32] = out.get(r >> 32, 0) + 1
        return out

    def fragments(self) -> set[int]:
        return set(self.per_fragment)

    def where(self, flt: Filter) -> str:
        """*flt* as SQL for a search that filters first, with `excluding` when it applies."""
        if self.per_namespace.get(flt.namespace) and self.excluding:
            return f"{flt.sql()} AND {self.excluding}"
        return flt.sql()

    @property
    def _split_added(self) -> tuple[str, dict[str, int], int]:
        if self.split is not None:
            return self.split
        return (*self._split, 0)

    @functools.cached_property
    def _split(self) -> tuple[str, dict[str, int]]:
        """(`excluding`, `not_excluded`): the longest runs of consecutive dead addresses, at most
        `EXCLUDING_TERMS` of them, become a SQL condition; the other dead rows are counted per
        namespace."""
        if self.split is not None:
            return self.split[0], self.split[1]
        if not self.rows:
            return "", {}
        runs: list[tuple[int, int]] = []
        ordered = sorted(self.rows)
        start = prev = ordered[0]
        for r in [*ordered[1:], -1]:
            if r == prev + 1:
                prev = r
                continue
            runs.append((start, prev))
            start = prev = r
        runs = sorted((run for run in runs if run[1] - run[0] >= 2), key=lambda run: run[0] - run[1])
        runs = runs[:EXCLUDING_TERMS]
        covered: set[int] = set()
        for a, b in runs:
            covered.update(range(a, b + 1))
        not_excluded: dict[str, int] = {}
        for r, (_, ns, _) in self.rows.items():
            if r not in covered:
                not_excluded[ns] = not_excluded.get(ns, 0) + 1
        if not runs:
            return "", not_excluded
        return f"NOT ({' OR '.join(f'_rowid BETWEEN {a} AND {b}' for a, b in sorted(runs))})", not_excluded

    @property
    def excluding(self) -> str:
        """A SQL condition that keeps out the dead rows in long runs of consecutive addresses
        (a bulk delete), for searches that filter first: they then rank without them — dead
        rows can take every top place (full-text ties come in table order, and the rows
        deleted first are the oldest). "" when there are none. Single addresses are left to
        `not_excluded`: a filter listing them slows every search (docs/storage.md, Maintenance)."""
        return self._split[0]

    def not_excluded(self, namespace: str) -> int:
        """The dead rows of *namespace* that `excluding` does not keep out."""
        return self._split[1].get(namespace, 0)


NO_DEAD_ROWS = DeadRows.of({})
#: Rows `DeadRows.with_rows` counts as not excluded before the ranges are found again from
#: every dead row.
DEAD_RECOUNT_ROWS = 1_024
#: The most ranges of addresses `DeadRows.excluding` puts in a filter.
EXCLUDING_TERMS = 64


F = TypeVar("F", bound=Callable[..., Any])


def _reader(method: F) -> F:
    """Mark a read: maintenance removes old versions only after the reads that may use them."""

    @functools.wraps(method)
    def wrapper(self: MemoryStore, *args: Any, **kwargs: Any) -> Any:
        with self._loading:  # (held only while `renew_cache` loads an index after a swap)
            pass
        with self.readers.reading():
            return method(self, *args, **kwargs)

    return cast(F, wrapper)


class Readers:
    """Reads in flight, by epoch. `wait_before` opens a new epoch and waits until every read of
    an older one is done: those may be reading a version about to be cleaned up; reads that
    start later see the newest version, which cleanup always keeps."""

    def __init__(self) -> None:
        self._cv = threading.Condition()
        self._epoch = 0
        self._active: dict[int, int] = {}
        self._long: dict[int, int] = {}  # epochs of long reads (exports): never waited for

    def acquire(self, long: bool = False) -> int:
        """Register a read; returns its epoch. A *long* one (an export read in pages over
        minutes) makes cleanup skip at once instead of waiting for it."""
        with self._cv:
            epoch = self._epoch
            table = self._long if long else self._active
            table[epoch] = table.get(epoch, 0) + 1
            return epoch

    def release(self, epoch: int, long: bool = False) -> None:
        with self._cv:
            table = self._long if long else self._active
            table[epoch] -= 1
            if not table[epoch]:
                del table[epoch]
            self._cv.notify_all()

    @contextmanager
    def reading(self) -> Iterator[None]:
        epoch = self.acquire()
        try:
            yield
        finally:
            self.release(epoch)

    def wait_before(self, timeout: float) -> bool:
        with self._cv:
            self._epoch += 1
            mark = self._epoch
            if any(e < mark for e in self._long):
                return False
            return self._cv.wait_for(lambda: all(e >= mark for e in self._active), timeout)

    @property
    def active(self) -> int:
        with self._cv:
            return sum(self._active.values()) + sum(self._long.values())


@dataclass
class MaintainPolicy:
    """When and how far maintenance compacts (see `MemoryStore.maintain`). The settings a user
    can change default to the configuration's defaults (`omegad.config.Config`)."""

    target_rows_per_fragment: int = Config.maintenance_target_rows_per_fragment
    max_fragments: int = Config.maintenance_max_fragments  # compact past this many fragments
    unindexed_rows: int = Config.maintenance_unindexed_rows  # fold new rows into the indexes past this many
    vector_index_rows: int = Config.vector_index_rows  # build the vector index at this many rows
    reader_wait_s: float = 5.0  # longest wait for old reads before cleaning up versions
    max_compact_rows: int = 262_144  # most rows one pass rewrites per table (bounds its time)
    max_index_deltas: int = 16  # most pieces of an index (see lanceops.segments_to_merge)
    #: fragments under an index segment of more rows are never compacted, and fragments that
    #: would lose their deleted rows not under one of more than ``max_rebuild_rows``
    #: (`remap_excluded`: the commit rewrites the segment, every store waiting)
    max_remap_rows: int = 16_384
    max_rebuild_rows: int = 4_096
    renew_cache_bytes: int = 64 << 20  # a replaced index this big renews the caches (see finish)
    #: the caches are renewed, too, when they hold more than this many times the indexes on
    #: disk plus ``renew_cache_bytes``: stale entries of segments replaced pass after pass
    stale_cache_ratio: float = 2.0


#: The most times a compaction's bounds are halved after commits that took too long
#: (`lanceops.COMMIT_TIMEOUT_S`): 262,144 rows rewritten become 4,096.
MAX_COMPACT_SHRINK = 6

#: Candidates re-scored exactly after the quantised index search, per result asked for.
REFINE_FACTOR = 5
#: The HNSW search's breadth (a RaBitQ index ignores it). LanceDB's default, 1.5 × the rows
#: asked for, lost whole queries that fall between clusters; this one finds them for a few ms
#: more per search (docs/storage.md, "Vector index and search path").
HNSW_EF = 1_500
#: A namespace holding at least this share of the table is searched with its filter applied
#: *after* the graph search: building the row mask of a prefilter over most of the table costs
#: more than the search, at the same recall (docs/storage.md, "Vector index and search path").
#: The search fetches enough rows that the filter still leaves k (`_postfilter_fetch`), and
#: falls back to a prefilter when it does not.
POSTFILTER_SHARE = 0.5
POSTFILTER_REFINE = 2
#: The graph's breadth for a search of the rows *near* a vector only (`vector_search(near=True)`:
#: the contradiction checker, whose vectors are memories of the namespace and which keeps
#: only neighbours above a similarity gate). The wide `HNSW_EF` is for questions that fall
#: between clusters; this one about halves the time of the checker's searches and finds the
#: same neighbours. RaBitQ still probes every partition: probing fewer loses neighbours
#: (docs/contradictions.md, "A narrower graph search for the checker").
NEAR_EF = 150
#: Candidates re-scored per result when the search after ranking came up short — the query is
#: nearer another namespace's rows than this one's, so this one's nearest are all far and about
#: equally so, where quantised distances rank worst: RaBitQ's 5 per result now and then missed
#: one (tests/unit/test_vector_index.py, the island query; docs/storage.md). Only that fallback
#: pays it.
FAR_REFINE = 20
#: What a full-text search that asks for many rows selects, before it reads the k best
#: whole (`MemoryStore._take`): about half the time of selecting every column.
RANKED = ("_rowid", "_score")
#: The most rows a full-text search filtered after ranking asks for, per result, while dead
#: rows take the first places, before it filters first instead, which costs more
#: (docs/storage.md, Maintenance: "Deleted rows").
TEXT_POSTFILTER_MAX = 16


#: Index and metadata cache of the side tables (edges, signals), each, in MB.
SIDE_CACHE_MB = 32

#: LanceDB's index cache sized by the indexes (``store.index_cache_mb`` = auto). An index the
#: cache cannot hold is never kept: every search reads it again, so a fixed bound is a cliff
#: the store falls off as it grows. What the cache holds per byte of index on disk, rounded up
#: from the biggest measured, the HNSW index's (docs/storage.md, "The index cache is sized by
#: the indexes").
CACHE_PER_INDEX_BYTE = 1.1
CACHE_MARGIN_MB = 8
#: The bound leaves this share over the need, so it is raised (the caches renewed, the
#: indexes loaded again) once per 5% of growth.
CACHE_HEADROOM = 0.05
#: A renewal that only raises the bound drops caches bigger than this before loading the
#: index again (`renew_cache`'s *drop_first*; ~400k memories): reads wait for the load instead.
DROP_FIRST_BYTES = 256 << 20
#: The smallest automatic bound (under ~150k memories the indexes need less).
AUTO_CACHE_FLOOR_MB = 128


def _on_disk(segments: dict[str, dict[str, int]]) -> int:
    """The bytes on disk of every index segment in *segments* (index → segment uuid → bytes)."""
    return sum(size for segs in segments.values() for size in segs.values())


def index_cache_need_mb(segments: dict[str, dict[str, int]]) -> int:
    """What LanceDB's index cache must hold for searches to keep every index of *segments*
    (index → segment uuid → bytes on disk), in MB."""
    return math.ceil(_on_disk(segments) * CACHE_PER_INDEX_BYTE / (1 << 20)) + CACHE_MARGIN_MB


def auto_index_cache_mb(need_mb: int) -> int:
    """The automatic bound for a need of *need_mb*: the headroom over it, in steps of 16 MB."""
    return max(AUTO_CACHE_FLOOR_MB, math.ceil(need_mb * (1 + CACHE_HEADROOM) / 16) * 16)


def _index_sizes(directory: Path) -> dict[str, dict[str, int]]:
    """The memories' indexes and their bytes on disk (index → {uuid: bytes}, all its segments
    under one uuid), read through LanceDB before its caches are sized. (Lance's own
    ``describe_indices``, as `LocalOps.segments`, would load Lance's second copy of the
    library into the daemon for this one call: docs/operations.md.)"""
    import lancedb

    table = lancedb.connect(str(directory)).open_table(TABLE)
    return {i.name: {str(i.index_uuid): int(i.size_bytes or 0)} for i in table.list_indices()}


def _connect(directory: Path, index_cache_mb: int, metadata_cache_mb: int) -> tuple[Any, Any]:
    import lancedb

    session = lancedb.Session(
        index_cache_size_bytes=index_cache_mb << 20, metadata_cache_size_bytes=metadata_cache_mb << 20
    )
    return lancedb.connect(str(directory), session=session), session


def _delete_in(table: Any, column: str, values: Sequence[int]) -> None:
    """Delete the rows of *table* whose *column* is one of *values* (1,000 per commit)."""
    for start in range(0, len(values), 1_000):
        table.delete(f"{column} IN ({', '.join(str(int(v)) for v in values[start : start + 1_000])})")


#: What a Lance table's commits write: data files, manifests, transactions, deletion files.
_COMMIT_DIRS = ("data", "_versions", "_transactions", "_deletions")


def _commit_files(table_dir: Path) -> dict[str, set[str]]:
    """The files in a Lance table's commit directories now (see `_fsync_commits`)."""
    return {sub: set(os.listdir(table_dir / sub)) if (table_dir / sub).is_dir() else set() for sub in _COMMIT_DIRS}


def _fsync_commits(table_dir: Path, before: dict[str, set[str]], data_files: Iterable[str] = ()) -> None:
    """fsync what a Lance table's commits wrote since *before* (`_commit_files`, under the
    write lock): the new manifests, transactions and deletion files, of the data files only
    *data_files* (names in ``data/``: a compaction writes its new files there beside the
    writer, uncommitted, and they are not this commit's), and the directories."""
    for sub in _COMMIT_DIRS:
        d = table_dir / sub
        if not d.is_dir():
            continue
        names = set(data_files) if sub == "data" else set(os.listdir(d))
        for name in sorted(names - before[sub]):
            fsync_file(d / name)
        fsync_dir(d)
    fsync_dir(table_dir)


def _appended_files(table_dir: Path, before: dict[str, set[str]]) -> set[str]:
    """The data files an append since *before* (`_commit_files`) wrote: the new files of
    ``data/`` that its transaction names (a transaction file is protobuf, which stores the
    path strings as they are). A compaction writes its new files there too, uncommitted, in
    the maintenance process (`omegad.lanceops`), and fsyncing those would hold the writer up;
    finding them without Lance's dataset API keeps that library out of the daemon. When no
    transaction names one (another format), every new file."""
    try:
        new = set(os.listdir(table_dir / "data")) - before["data"]
        txns = set(os.listdir(table_dir / "_transactions")) - before["_transactions"]
    except FileNotFoundError:
        return set()
    written = bytearray()
    for name in sorted(txns):
        if not name.endswith(".txn"):  # (another commit's temporary file, renamed meanwhile)
            continue
        try:
            written += (table_dir / "_transactions" / name).read_bytes()
        except FileNotFoundError:  # (a commit that lost a race removed its own)
            continue
    named = {name for name in new if name.encode() in written}
    return named or new


#: The vector index, by kind (``index.vector_index``): LanceDB's index type, and how its
#: ``list_indices`` names it. `omegad.indexer` builds the same through Lance's own API.
#:
#: - ``hnsw`` (``auto``'s below `AUTO_RABITQ_ROWS`): an HNSW graph over 8-bit scalar-quantised
#:   vectors, one partition, so a namespace filter inside the graph search loses no hits. The
#:   faster search, but at 1M memories big in memory and minutes to build.
#: - ``rabitq``: RaBitQ codes of 4 bits per dimension in IVF partitions, every partition
#:   probed (a filter inside a partial probe loses a small namespace's hits) and the best
#:   candidates re-scored exactly. A third of the graph's memory and seconds to build, but the
#:   scan of every code makes searches of a big namespace slower (docs/storage.md, "Vector
#:   index and search path").
VECTOR_INDEX_KINDS = {"hnsw": ("IVF_HNSW_SQ", "IvfHnswSq"), "rabitq": ("IVF_RQ", "IvfRq")}
#: ``index.vector_index = "auto"`` (the default): the graph while the store is small, RaBitQ
#: once it holds ``index.rabitq_from_rows`` memories (default this many; the daemon then
#: rebuilds its graph as RaBitQ in the background and never goes back). The graph is the
#: faster search, but as the store grows its memory and build time outgrow the daemon's
#: budget, and its base is never rebuilt (docs/storage.md, "Vector index and search path").
AUTO_RABITQ_ROWS = Config.rabitq_from_rows
VECTOR_INDEX_SETTINGS = ("auto", *VECTOR_INDEX_KINDS)


def vector_index_kind_for(setting: str, rows: int, built: str | None, rabitq_from_rows: int = AUTO_RABITQ_ROWS) -> str:
    """The kind of vector index to build for ``index.vector_index = `` *setting* over *rows*
    rows, when the existing one is of kind *built* (None: none, or one of no known kind)."""
    if setting != "auto":
        return setting
    return "rabitq" if built == "rabitq" or rows >= rabitq_from_rows else "hnsw"


VECTOR_INDEX_M = 20
VECTOR_INDEX_EF_CONSTRUCTION = 300
VECTOR_INDEX_BITS = 4
VECTOR_INDEX_NAME = "vector_idx"
#: RaBitQ: rows per IVF partition at the build, and the most partitions. Every partition is
#: probed, so the partitions only split the scan into tasks; 64 scanned fastest of the counts
#: tried at 1M (docs/storage.md, "Vector index and search path").
VECTOR_INDEX_PARTITION_ROWS = 16_384
VECTOR_INDEX_MAX_PARTITIONS = 64
#: RaBitQ: an index is rebuilt once the table has grown to this many times the partitions it
#: has (folded rows join the partitions of the build, so an index built small keeps too few
#: for a big table). Rebuilds at 65,536, 262,144 and 1,048,576 rows, in the background.
VECTOR_INDEX_REBUILD_GROWTH = 4


def vector_index_partitions(rows: int) -> int:
    """RaBitQ's IVF partitions for an index built over *rows* rows."""
    return max(1, min(VECTOR_INDEX_MAX_PARTITIONS, rows // VECTOR_INDEX_PARTITION_ROWS))


def vector_index_grown(kind: str, partitions: int | None, rows: int) -> bool:
    """A vector index of *kind* with *partitions* IVF partitions is due for a rebuild over
    *rows* rows (`VECTOR_INDEX_REBUILD_GROWTH`; only RaBitQ: the graph keeps 1 partition)."""
    if kind != "rabitq" or not partitions:
        return False
    return vector_index_partitions(rows) >= VECTOR_INDEX_REBUILD_GROWTH * partitions


def vector_index_params(kind: str, rows: int) -> dict[str, Any]:
    """Lance's ``create_index`` parameters for an index of *kind* over *rows* rows."""
    if kind == "rabitq":
        return {"num_partitions": vector_index_partitions(rows), "num_bits": VECTOR_INDEX_BITS}
    return {"num_partitions": 1, "m": VECTOR_INDEX_M, "ef_construction": VECTOR_INDEX_EF_CONSTRUCTION}


def build_vector_index(handle: Any, kind: str = "hnsw") -> dict[str, Any]:
    """Build and commit the memories' vector index of *kind* on the LanceDB table *handle*, in
    this process (`MemoryStore.build_vector_index`; the daemon uses `omegad.indexer` instead)."""
    from lancedb.index import HnswSq, IvfRq

    t0 = time.perf_counter()
    rows = int(handle.count_rows())
    params = vector_index_params(kind, rows)
    config = IvfRq(distance_type="cosine", **params) if kind == "rabitq" else HnswSq(distance_type="cosine", **params)
    handle.create_index("vector", config=config, replace=True)
    return {"rows": rows, "ms": round((time.perf_counter() - t0) * 1000, 1)}


def _replaced_indexes(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]], min_bytes: int) -> list[str]:
    """Indexes whose segments merged away since *before* held at least *min_bytes*: their
    cache entries are garbage."""
    return [
        name
        for name, segments in before.items()
        if sum(size for uuid, size in segments.items() if uuid not in after.get(name, {})) >= min_bytes
    ]


def read_store_meta(data_dir: Path) -> dict[str, Any] | None:
    """The store's ``store.json`` (format, embedding model and dimension), if there is a
    readable one."""
    try:
        meta = json.loads((data_dir / STORE_META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


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
        self._write_lock = threading.Lock()  # held by each commit (see `renew_cache`)
        self._loading = threading.Lock()  # reads wait while a renewal loads after its swap
        # While the vector index is built from a version of the memories table (in a
        # subprocess: `omegad.indexer`), passes neither compact that table (the index would
        # cover fragments that are gone: its commit would fail, minutes of work lost) nor
        # remove its old versions (the build's commit reads the transactions since its own).
        self.index_build_running = False
        self.readers = Readers()
        self._vector_index_ready = False
        self._vector_index_outdated = False
        #: ``index.vector_index`` (`VECTOR_INDEX_SETTINGS`), and the kind of vector index it
        #: asks for now (a key of `VECTOR_INDEX_KINDS`: `vector_index_kind_for`); one of another
        #: kind (*built*) answers until it is rebuilt (`vector_index_outdated`)
        self.vector_index_setting = "hnsw"
        self.rabitq_from_rows = AUTO_RABITQ_ROWS
        self.vector_index_kind = "hnsw"
        self.vector_index_built: str | None = None
        self.index_min_namespace_rows = 2_000
        self.ns_rows: dict[str, int] = {}  # rows per namespace: refreshed by maintenance, + inserts
        self.session: Any = None  # LanceDB's caches (set by `open`)
        self.cache_mb = (768, 128)
        #: the index cache's bound follows the indexes (`auto_index_cache_mb`), else it is fixed
        self.cache_auto = False
        self.index_cache_need_mb = 0  # (as of the last pass or the open)
        self.side_db: Any = db
        self.dead = NO_DEAD_ROWS  # rows deleted under the vector index (see `delete`)
        self.repair_pending = False  # an update failed between its two commits (see `upsert`)
        self._tombstones: Any = None  # their table (set by `open`)
        #: Lance's maintenance calls: compaction, index folds, cleanup (`omegad.lanceops`)
        self.ops: LanceOps = LocalOps(directory)
        #: halvings of the compaction bounds after commits that ran out of time (`_compact`)
        self.compact_shrink = 0
        self.refresh_index_state()

    @classmethod
    def open(
        cls,
        data_dir: Path,
        model_id: str,
        dim: int,
        *,
        index_cache_mb: int = 0,
        metadata_cache_mb: int = 32,
        ops_in_child: bool = False,
        vector_index: str = Config.vector_index,
        rabitq_from_rows: int = AUTO_RABITQ_ROWS,
    ) -> MemoryStore:
        """Open (or create) the store. LanceDB's caches are bounded (its defaults, 6 GB of
        indexes and 1 GB of metadata, let every replaced index version stay in memory); the
        index cache by *index_cache_mb*, or by what the indexes on disk need when it is 0
        (`auto_index_cache_mb`, raised by passes as they grow).
        *ops_in_child*: Lance's maintenance calls run in a child process (`ChildOps`; the
        daemon), else in this one. *vector_index*: the kind of vector index to build
        (`VECTOR_INDEX_SETTINGS`; ``auto``: RaBitQ from *rabitq_from_rows* rows)."""

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
                    "Use the original model, or a new --data-dir: export with the original model and import "
                    "there (the texts are embedded again; docs/backup.md)."
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
        need_mb = CACHE_MARGIN_MB
        if (directory / f"{TABLE}.lance").is_dir():
            try:
                need_mb = index_cache_need_mb(_index_sizes(directory))
            except Exception as exc:  # (the sizes are a hint; opening the table tells what is wrong)
                log.warning("index_sizes_unreadable", error=str(exc)[:300])
        cache_mb = (index_cache_mb or auto_index_cache_mb(need_mb), metadata_cache_mb)
        db, session = _connect(directory, *cache_mb)
        table = open_or_create(db, TABLE, _schema(dim))
        store = cls(directory, table, db, dim, model_id)
        store.session, store.cache_mb = session, cache_mb
        store.use_vector_index(vector_index, rabitq_from_rows)
        store.cache_auto, store.index_cache_need_mb = not index_cache_mb, need_mb
        store._warn_small_cache()
        if ops_in_child:
            store.ops = ChildOps(directory)
        # The side tables (edges, signals) are small and get caches of their own, so that
        # the memories' caches can be replaced whole (`renew_cache`).
        store.side_db, _ = _connect(directory, SIDE_CACHE_MB, SIDE_CACHE_MB)
        store._open_tombstones()
        return store

    def _open_tombstones(self) -> None:
        """Load the dead rows; after a crash between an update's two commits, retire the
        older of the two live versions it left (`_repair_duplicates`)."""
        self._tombstones = open_or_create(self.side_db, TOMBSTONES, _tombstone_schema())
        tbl = self._tombstones.search().limit(None).to_arrow()
        frags = set(self.ops.fragments(TABLE)) if tbl.num_rows else set()
        rows: dict[int, tuple[str, str, str]] = {}
        for rid, mid, ns, ty in zip(
            *(tbl.column(c).to_pylist() for c in ("rowid", "id", "namespace", "type")), strict=True
        ):
            if int(rid) >> 32 in frags:  # (else the row is gone already)
                rows[int(rid)] = (mid, ns, ty)
        self.dead = DeadRows.of(rows)
        purge_marker = self.directory / BURYING
        if purge_marker.exists():
            self.dead = self._existing(self.dead)
            purge_marker.unlink()
        marker = self.directory / RETIRING
        if marker.exists():
            with self._write_lock:
                self._repair_duplicates()
            marker.unlink()

    def _existing(self, dead: DeadRows) -> DeadRows:
        """*dead* without the rows that are no longer in the table (and their tombstones)."""
        rowids = list(dead.rows)
        found: set[int] = set()
        for start in range(0, len(rowids), 1_000):
            chunk = ", ".join(str(r) for r in rowids[start : start + 1_000])
            tbl = self._table.search().where(f"_rowid IN ({chunk})").select(["_rowid"]).limit(None).to_arrow()
            found.update(int(r) for r in tbl.column("_rowid").to_pylist())
        gone = [r for r in rowids if r not in found]
        _delete_in(self._tombstones, "rowid", gone)
        return dead.without_rows(gone)

    def _repair_duplicates(self) -> int:
        """Retire every live row but the newest of each id (a crash between an update's
        commit of the new row and its retiring of the old one left both). Returns how many."""
        tbl = self.dead.drop(
            self._table.search().select(["id", "namespace", "type", "updated_at", "_rowid"]).limit(None).to_arrow()
        )
        newest: dict[str, tuple[int, int]] = {}
        extra: dict[int, tuple[str, str, str]] = {}
        cols = [tbl.column(c).to_pylist() for c in ("id", "namespace", "type", "updated_at", "_rowid")]
        info = {}
        for mid, ns, ty, up, rid in zip(*cols, strict=True):
            info[rid] = (mid, ns, ty)
            key = (int(up), int(rid))
            best = newest.get(mid)
            if best is None:
                newest[mid] = key
            else:
                older = min(best, key)
                newest[mid] = max(best, key)
                extra[older[1]] = info[older[1]]
        self._delete_rows(extra)
        return len(extra)

    def renew_cache(self, index_cache_mb: int | None = None, *, drop_first: bool = False) -> dict[str, Any]:
        """Open the memories table again with empty caches and drop the old ones. After an
        index is replaced (a full merge), the old index stays cached next to the new one —
        hundreds of MB at 1M memories — until the bound pushes it out. The new index is loaded
        by a probe search before the swap, so queries never wait for it. *index_cache_mb*: the
        new caches' bound (the indexes outgrew the old one).

        *drop_first*: swap first and load after, with reads held at `_reader`'s gate until the
        index is in (seconds at 1M) — for a renewal that only raises the bound, where loading
        first would hold the same index twice (docs/storage.md, "The index cache is sized by the
        indexes")."""
        t0 = time.perf_counter()
        cache_mb = (index_cache_mb or self.cache_mb[0], self.cache_mb[1])
        db, session = _connect(self.directory, *cache_mb)
        table = db.open_table(TABLE)

        def swap() -> None:
            with self._write_lock:  # no commit on the old handle between this and the swap
                table.checkout_latest()
                self._db, self._table, self.session, self.cache_mb = db, table, session, cache_mb

        before = self.cache_bytes() or 0
        with self._loading if drop_first else contextlib.nullcontext():
            if drop_first:
                swap()
            if self._vector_index_ready:
                probe = np.zeros(self.dim, dtype=np.float32)
                probe[0] = 1.0
                query = table.search(probe, vector_column_name="vector").distance_type("cosine")
                query.select(["id", "_distance"]).limit(1).to_arrow()  # (without _distance Lance warns)
        if not drop_first:
            before = self.cache_bytes() or 0  # (what the old caches hold at the swap)
            swap()
        return {
            "cache_bytes_dropped": before,
            "index_cache_mb": cache_mb[0],
            "loaded": "after the swap" if drop_first else "before the swap",
            "ms": round((time.perf_counter() - t0) * 1000, 1),
        }

    def _warn_small_cache(self) -> None:
        """Log when a fixed index cache bound is below what the indexes need (searches then
        read an index from disk again each time)."""
        if not self.cache_auto and self.index_cache_need_mb > self.cache_mb[0]:
            log.warning(
                "index_cache_too_small",
                index_cache_mb=self.cache_mb[0],
                need_mb=self.index_cache_need_mb,
                fix="raise store.index_cache_mb, or remove it (auto)",
            )

    def _cache_bound_check(self, segments: dict[str, dict[str, int]], report: dict[str, Any]) -> None:
        """After a pass: note what the indexes need; with the automatic bound, ask for the
        caches to be renewed with a bigger one once they need more than the bound."""
        need = index_cache_need_mb(segments)
        grew = need > self.index_cache_need_mb
        self.index_cache_need_mb = need
        if self.cache_auto and need > self.cache_mb[0]:
            report["_index_cache_mb"] = auto_index_cache_mb(need)
        elif grew:
            self._warn_small_cache()

    def cache_bytes(self) -> int | None:
        """What LanceDB's caches of the memories table hold (None before `open` set them)."""
        return int(self.session.size_bytes) if self.session is not None else None

    def _stale_cache(self, segments: dict[str, dict[str, int]], policy: MaintainPolicy) -> bool:
        """The caches hold mostly stale entries. Each pass's fold, merge or compaction replaces
        index segments, and entries of the old ones stay until the caches' bound pushes them
        out — at any store size, since the bound is set for 1M memories (docs/storage.md,
        "Stale cache entries are dropped")."""
        cached = self.cache_bytes()
        if cached is None:
            return False
        return cached > policy.stale_cache_ratio * _on_disk(segments) + policy.renew_cache_bytes

    def after_pass(self, report: dict[str, Any]) -> bool:
        """After `finish`, beside the writer: recount the rows per namespace (a scan of the
        namespace column, seconds at 1M memories, too long to hold stores up for; rows written
        meanwhile may be missed until the next pass, which only affects the choice of search
        path), then `renew_cache_if_replaced`."""
        self.refresh_namespace_rows()
        return self.renew_cache_if_replaced(report)

    def renew_cache_if_replaced(self, report: dict[str, Any]) -> bool:
        """After `finish`: renew the caches when it found a big index rewritten (its
        ``renew_cache``), recording ``cache_renewed`` in *report*. Beside the writer."""
        replaced = report.pop("renew_cache", None) or []
        bound = report.pop("_index_cache_mb", None)
        # A bound raised for indexes that merely grew: the old caches hold what the new ones
        # will, so a big one is dropped before the load rather than held twice.
        drop_first = bound is not None and not replaced and (self.cache_bytes() or 0) > DROP_FIRST_BYTES
        if bound is not None:
            replaced = [*replaced, f"index cache bound {self.cache_mb[0]} MB → {bound} MB"]
        if not replaced:
            return False
        report["cache_renewed"] = {"indexes": replaced, **self.renew_cache(bound, drop_first=drop_first)}
        return True

    @_reader
    def index_segments(self) -> dict[str, dict[str, int]]:
        """Each index of the memories table: its segments (uuid → bytes)."""
        return self.ops.segments(TABLE)

    # -- reads -----------------------------------------------------------------------------

    def _by_ids(self, ids: Iterable[str], columns: list[str]) -> Iterator[pa.Table]:
        """The live rows of *ids* (a query per 500), with *columns* (``_rowid`` among them);
        an id may have two between an update's commits (see `upsert`)."""
        dead = self.dead
        ids = list(dict.fromkeys(ids))
        for start in range(0, len(ids), 500):
            q = self._table.search().where(id_in(ids[start : start + 500])).select(columns)
            yield dead.drop(q.limit(None).to_arrow())

    @_reader
    def get_many(self, ids: Iterable[str]) -> dict[str, Row]:
        out: dict[str, Row] = {}
        for tbl in self._by_ids(ids, SELECT):
            for row in _rows(tbl, self.dim):
                if row.id not in out or row.updated_at >= out[row.id].updated_at:  # (see `upsert`)
                    out[row.id] = row
        return out

    @_reader
    def rows_in(self, namespace: str, limit: int) -> list[Row]:
        """Up to *limit* rows of one namespace (any order)."""
        dead = self.dead
        q = self._table.search().where(Filter(namespace=namespace).sql()).select(SELECT)
        tbl = dead.drop(q.limit(limit + dead.per_namespace.get(namespace, 0)).to_arrow())
        return _rows(tbl, self.dim)[:limit]

    @_reader
    def list_page(self, flt: Filter, newest_first: bool, after: tuple[int, str] | None, limit: int) -> list[Row]:
        """Up to *limit* live rows matching *flt* in (``created_at``, ``id``) order, newest or
        oldest first, strictly after the position *after* in that order (keyset paging: a write
        between pages cannot shift a page the way an offset would)."""
        where = flt.sql()
        if after is not None:
            op = "<" if newest_first else ">"
            at, last = after
            where += f" AND (created_at {op} {int(at)} OR (created_at = {int(at)} AND id {op} {sql_str(last)}))"
        q = self._table.search().where(where).select(["id", "created_at", "updated_at", "_rowid"])
        tbl = self.dead.drop(q.limit(None).to_arrow())
        if tbl.num_rows == 0:
            return []
        order = "descending" if newest_first else "ascending"
        keys = [("created_at", order), ("id", order)]
        # (an id can have two rows for a moment, between an update's commits: see `upsert`)
        k = min(tbl.num_rows, 2 * limit + 8)
        top = tbl.take(pa.compute.select_k_unstable(tbl, k=k, sort_keys=keys)).sort_by(keys)
        ids = list(dict.fromkeys(top.column("id").to_pylist()))[:limit]
        rows = self.get_many(ids)
        return [rows[i] for i in ids if i in rows]

    @_reader
    def namespace_summary(self) -> dict[str, tuple[int, int]]:
        """Per namespace: live memories and the newest commit stamp among them."""
        tbl = self.dead.drop(self._table.search().select(["namespace", "updated_at", "_rowid"]).limit(None).to_arrow())
        if tbl.num_rows == 0:
            return {}
        g = tbl.group_by("namespace").aggregate([([], "count_all"), ("updated_at", "max")])
        return {
            ns: (int(n), int(u))
            for ns, n, u in zip(
                g.column("namespace").to_pylist(),
                g.column("count_all").to_pylist(),
                g.column("updated_at_max").to_pylist(),
                strict=True,
            )
        }

    @_reader
    def existing_ids(self, ids: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for tbl in self._by_ids(ids, ["id", "_rowid"]):
            found.update(tbl.column("id").to_pylist())
        return found

    @_reader
    def stamps(self, ids: Iterable[str]) -> dict[str, int]:
        """``updated_at`` of the given ids that exist."""
        out: dict[str, int] = {}
        for tbl in self._by_ids(ids, ["id", "updated_at", "_rowid"]):
            for i, u in zip(tbl.column("id").to_pylist(), tbl.column("updated_at").to_pylist(), strict=True):
                out[i] = max(int(u), out.get(i, 0))
        return out

    @_reader
    def vector_search(
        self, vector: npt.NDArray[np.float32], flt: Filter, k: int, *, near: bool = False
    ) -> list[tuple[Row, float]]:
        """Nearest rows by cosine similarity, filtered inside the query (see `_vector_query`
        for when the index is used, and `_postfilter_fetch` for when the filter comes after).
        *near*: only rows near the vector are wanted (`NEAR_EF`)."""
        dead = self.dead
        fetch = self._postfilter_fetch(flt, k)
        if fetch is not None:  # dead rows dropped after: twice as many more asked for as expected
            in_ns = dead.per_namespace.get(flt.namespace, 0)
            pad = min(in_ns, k, 2 + math.ceil(2 * fetch * in_ns / max(self.ns_rows.get(flt.namespace, 0), 1)))
            hits = _hits(dead.drop(self._vector_query(vector, flt, k, fetch + pad, near=near).to_arrow()), self.dim)
            if len(hits) >= k:
                return _one_per_id(hits[:k])
        far = FAR_REFINE if fetch is not None else None  # (the search after ranking came up short)
        tbl = self._top_k_live(
            lambda n: self._vector_query(vector, flt, n, dead=dead, refine=far, near=near).to_arrow(),
            k,
            flt.namespace,
            dead,
        )
        return _one_per_id(_hits(tbl, self.dim))

    @staticmethod
    def _top_k_live(run: Callable[[int], pa.Table], k: int, namespace: str, dead: DeadRows) -> pa.Table:
        """``run(n)`` — the best *n* rows, filtered first — without the dead rows, still *k*
        when there are. The filter keeps out the dead rows in long runs (`DeadRows.excluding`);
        for the others (`DeadRows.not_excluded`) it asks for as many more rows as there are (up
        to k) and, while more than that were among them, for four times as many more (up to
        all)."""
        extra = dead.not_excluded(namespace)
        if not extra:
            return run(k)
        pad = min(extra, k)
        while True:
            tbl = run(k + pad)
            live = dead.drop(tbl)
            if live.num_rows >= k or tbl.num_rows < k + pad or pad >= extra:
                return live.slice(0, k)
            pad = min(extra, 4 * pad)

    @_reader
    def vector_search_many(
        self, vectors: Sequence[npt.NDArray[np.float32]], flt: Filter, k: int, *, near: bool = False
    ) -> list[list[tuple[Row, float]]]:
        """`vector_search` for several vectors in one storage query (one scan instead of one
        per vector: docs/contradictions.md, Neighbours); results per vector, nearest first."""
        if not vectors:
            return []
        if len(vectors) == 1:
            return [self.vector_search(vectors[0], flt, k, near=near)]
        dead = self.dead
        fetch = self._postfilter_fetch(flt, k)
        raw = self._vector_query(np.stack(vectors), flt, k, fetch, dead=dead, near=near).to_arrow()
        tbl = dead.drop(raw)
        out: list[list[tuple[Row, float]]] = [[] for _ in vectors]
        qidx = tbl.column("query_index").to_pylist()
        distances = tbl.column("_distance").to_pylist()
        for q, row, dist in zip(qidx, _rows(tbl, self.dim), distances, strict=True):
            out[int(q)].append((row, 1.0 - float(dist)))
        lost = raw.num_rows - tbl.num_rows  # dead rows among them: a short list may lack live ones
        for i, hits in enumerate(out):
            hits.sort(key=lambda h: -h[1])
            del hits[k:]
            if len(hits) < k and (fetch is not None or lost):
                out[i] = self.vector_search(vectors[i], flt, k, near=near)  # (with a prefilter, topped up)
            else:
                out[i] = _one_per_id(hits)
        return out

    def uses_vector_index(self, namespace: str) -> bool:
        return self._vector_index_ready and self.ns_rows.get(namespace, 0) >= self.index_min_namespace_rows

    def _postfilter_fetch(self, flt: Filter, k: int, indexed: bool | None = None) -> int | None:
        """How many nearest rows to fetch before applying *flt*, when it keeps most of the
        table (a namespace of at least `POSTFILTER_SHARE`, searched through the index —
        *indexed*, by default the vector index — with no other condition than hidden ids);
        None: filter first."""
        if not (self.uses_vector_index(flt.namespace) if indexed is None else indexed):
            return None
        if flt.types or flt.tags or flt.since_us is not None or flt.until_us is not None:
            return None
        total = sum(self.ns_rows.values())
        share = self.ns_rows.get(flt.namespace, 0) / total if total else 0.0
        if share < POSTFILTER_SHARE:
            return None
        fetch = math.ceil(1.5 * k / share) + len(flt.exclude_ids)
        return fetch if fetch <= 10 * k else None

    def _take(self, ranked: pa.Table, score: str) -> pa.Table | None:
        """The rows of *ranked* (``_rowid`` and the *score* column of a search that selected
        only those: `RANKED`), whole and in its order; None when some are no longer at those
        addresses — a compaction committed since the search (Lance never reuses a fragment
        id, so an address finds its own row or none) — or there are none."""
        addresses = ranked.column("_rowid").to_pylist()
        if not addresses:
            return None
        full = self._table.take_row_ids(addresses).select(SELECT).to_arrow()
        if full.num_rows != len(addresses):
            return None
        place = {a: i for i, a in enumerate(full.column("_rowid").to_pylist())}
        full = full.take(pa.array([place[a] for a in addresses], pa.int64()))
        return full.append_column(score, ranked.column(score))

    def _vector_query(
        self,
        vectors: Any,
        flt: Filter,
        k: int,
        fetch: int | None = None,
        dead: DeadRows = NO_DEAD_ROWS,
        refine: int | None = None,
        near: bool = False,
    ) -> Any:
        """A namespace with at least ``index_min_namespace_rows`` rows is searched through the
        vector index (every partition probed, the namespace filter applied inside the scan,
        then the top candidates re-scored exactly: ``refine_factor``); a smaller one exactly,
        by brute force over its rows — cheaper than scanning every code of a big table.
        Rows written since the index was last folded are always scanned exactly as well.
        A filter applied first also keeps out the *dead* rows (`DeadRows.excluding`)."""
        post = fetch is not None  # the filter after the index search (see `_postfilter_fetch`)
        n = fetch if fetch is not None else k
        q = (
            self._table.search(vectors, vector_column_name="vector")
            .distance_type("cosine")
            .where(flt.sql() if post else dead.where(flt), prefilter=not post)
            .select([*SELECT, "_distance"])
            .limit(n)
        )
        # RaBitQ: every partition (nprobes); HNSW: a wide breadth, at least Lance's default,
        # 1.5 × the candidates (it refuses fewer). Each index ignores the other's setting.
        if post:  # (RaBitQ's codes rank far queries too coarsely for 2: docs/storage.md)
            refine = (
                POSTFILTER_REFINE if (self.vector_index_built or self.vector_index_kind) == "hnsw" else REFINE_FACTOR
            )
            return self._probe(q.refine_factor(refine), n * refine, near)
        if not self._vector_index_ready:
            return q  # nothing to bypass: a flat scan
        if self.uses_vector_index(flt.namespace):
            refine = refine or REFINE_FACTOR  # (*refine*: `FAR_REFINE`, after a short search)
            return self._probe(q.refine_factor(refine), n * refine, near)
        return q.bypass_vector_index()

    @staticmethod
    def _probe(q: Any, candidates: int, near: bool = False) -> Any:
        """Every RaBitQ partition, and the graph's wide breadth (*near*: `NEAR_EF`)."""
        return q.nprobes(VECTOR_INDEX_MAX_PARTITIONS).ef(max(NEAR_EF if near else HNSW_EF, candidates * 3 // 2))

    @_reader
    def max_updated_at(self) -> int:
        """The newest commit stamp in the table (0 when empty)."""
        tbl = self.dead.drop(self._table.search().select(["updated_at", "_rowid"]).limit(None).to_arrow())
        col = tbl.column("updated_at")
        return int(pa.compute.max(col).as_py() or 0) if tbl.num_rows else 0

    @_reader
    def updated_after(self, us: int) -> list[tuple[str, int]]:
        """(id, updated_at) of rows committed after the commit stamp *us*, oldest first."""
        q = self._table.search().where(f"updated_at > {int(us)}").select(["id", "updated_at", "_rowid"])
        tbl = self.dead.drop(q.limit(None).to_arrow())
        pairs = zip(tbl.column("id").to_pylist(), tbl.column("updated_at").to_pylist(), strict=True)
        return sorted(((i, int(u)) for i, u in pairs), key=lambda p: (p[1], p[0]))

    @_reader
    def text_search(self, text: str, flt: Filter, k: int) -> list[tuple[Row, float]]:
        """Full-text (BM25) matches, filtered inside the query; empty before the first index."""
        if not self._fts_ready:
            return []
        dead = self.dead
        big = self.ns_rows.get(flt.namespace, 0) >= self.index_min_namespace_rows
        fetch = self._postfilter_fetch(flt, k, indexed=big)
        if fetch is not None:
            in_ns = dead.per_namespace.get(flt.namespace, 0)
            pad = min(in_ns, k)
            raw = self._text_query(text, flt, fetch + pad, prefilter=False)
            tbl = dead.drop(raw)
            if tbl.num_rows >= k:
                return _one_per_id(_scored(tbl.slice(0, k), self.dim))
            # Dead rows took the places: they may rank first (ties come back in table order,
            # and the oldest rows die first). Four times as many more, up to
            # `TEXT_POSTFILTER_MAX` × k, ranked on addresses and scores alone, and then only
            # the k best read whole (`_take`); filtering first is the fallback.
            while tbl.num_rows < raw.num_rows and fetch + pad < TEXT_POSTFILTER_MAX * k:
                pad = min(4 * pad, TEXT_POSTFILTER_MAX * k - fetch)
                raw = self._text_query(text, flt, fetch + pad, prefilter=False, columns=RANKED)
                tbl = dead.drop(raw)
                if tbl.num_rows >= k:
                    full = self._take(tbl.slice(0, k), "_score")
                    if full is not None:
                        return _one_per_id(_scored(full, self.dim))
                    break
        tbl = self._top_k_live(
            lambda n: self._text_query(text, flt, n, prefilter=True, dead=dead), k, flt.namespace, dead
        )
        return _one_per_id(_scored(tbl, self.dim))

    def _text_query(
        self,
        text: str,
        flt: Filter,
        k: int,
        prefilter: bool,
        dead: DeadRows = NO_DEAD_ROWS,
        columns: Sequence[str] = (*SELECT, "_score"),
    ) -> pa.Table:
        """BM25 matches of *text* under *flt*: applied before ranking (*prefilter*) or after.
        A namespace that holds most of the table is filtered after (`_postfilter_fetch`):
        before, Lance lists the row ids of the whole namespace for each search whenever the
        namespace index covers other fragments than the full-text index (rows committed while a
        pass folded one and then the other), which costs more than the search itself."""
        return (  # (filtered first, dead rows ranked first would take the places: `DeadRows.where`)
            self._table.search(text, query_type="fts", fts_columns="text")
            .where(dead.where(flt) if prefilter else flt.sql(), prefilter=prefilter)
            .select(list(columns))
            .limit(k)
            .to_arrow()
        )

    @_reader
    def count(self) -> int:
        return int(self._table.count_rows()) - len(self.dead.rows)

    # -- snapshots (exports) ---------------------------------------------------------------

    @property
    def version(self) -> int:
        return int(self._table.version)

    def pin(self) -> tuple[int, DeadRows]:
        """The memories table's version and its dead rows, together (a pass's `_compact`
        changes both under the commit lock)."""
        with self._write_lock:
            return int(self._table.version), self.dead

    def snapshot(self, table_name: str, version: int) -> Any:
        """A read-only handle on *table_name* at *version* (pinned: later commits unseen)."""
        handle = (self._db if table_name == TABLE else self.side_db).open_table(table_name)
        handle.checkout(version)
        return handle

    def export_page(
        self, handle: Any, dead: DeadRows, namespace: str | None, offset: int, limit: int
    ) -> tuple[list[Row], int]:
        """The live rows among rows *offset* … *offset + limit* of a pinned snapshot (a scan of
        one fixed version is in a fixed order, so pages neither overlap nor miss rows), and how
        many rows the page spans (*dead*: the dead rows when the snapshot was pinned)."""
        q = handle.search()
        if namespace is not None:
            q = q.where(f"namespace = {sql_str(namespace)}")
        tbl = q.select(SELECT).offset(offset).limit(limit).to_arrow()
        return _rows(dead.drop(tbl), self.dim), tbl.num_rows

    @_reader
    def counts(self) -> dict[str, dict[str, int]]:
        """Rows per namespace and type."""
        tbl = self.dead.drop(self._table.search().select(["namespace", "type", "_rowid"]).limit(None).to_arrow())
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

    @_reader
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
                "type": str(stats.index_type),
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
            vector = [idx for idx in indices if list(idx.columns) == ["vector"]]
            self._vector_index_ready = bool(vector)
            types = {str(idx.index_type) for idx in vector}
            known = [kind for kind, (_, name) in VECTOR_INDEX_KINDS.items() if types == {name}]
            self.vector_index_built = known[0] if known else None
            rows = int(self._table.count_rows()) if self.vector_index_setting == "auto" else 0
            self.vector_index_kind = vector_index_kind_for(
                self.vector_index_setting, rows, self.vector_index_built, self.rabitq_from_rows
            )
            wanted = VECTOR_INDEX_KINDS[self.vector_index_kind][1]
            self._vector_index_outdated = any(t != wanted for t in types)

    def refresh_namespace_rows(self) -> None:
        self.ns_rows = {ns: sum(types.values()) for ns, types in self.counts().items()}

    @property
    def vector_index_ready(self) -> bool:
        return self._vector_index_ready

    def use_vector_index(self, setting: str, rabitq_from_rows: int | None = None) -> None:
        """Build vector indexes as ``index.vector_index = `` *setting* asks (`VECTOR_INDEX_SETTINGS`;
        ``auto``: RaBitQ from *rabitq_from_rows* rows) from now on; an existing one of another
        kind becomes `vector_index_outdated`."""
        if setting not in VECTOR_INDEX_SETTINGS:
            raise ValueError(f"vector index {setting!r}: expected one of {', '.join(VECTOR_INDEX_SETTINGS)}")
        rabitq_from_rows = rabitq_from_rows or self.rabitq_from_rows
        if (setting, rabitq_from_rows) != (self.vector_index_setting, self.rabitq_from_rows):
            self.vector_index_setting, self.rabitq_from_rows = setting, rabitq_from_rows
            self.refresh_index_state()

    @property
    def vector_index_outdated(self) -> bool:
        """The vector index is of another kind than `vector_index_kind` (the configuration
        changed): it still answers, and the daemon rebuilds it in the background."""
        return self._vector_index_outdated

    @property
    def _table_dir(self) -> Path:
        """The memories table's Lance directory."""
        return self.directory / f"{TABLE}.lance"

    @property
    def commit_lock(self) -> threading.Lock:
        """Held by each commit to the memories table (`insert`, `replace`, `delete`,
        `upsert`); holding it holds them off."""
        return self._write_lock

    def build_vector_index(self) -> dict[str, Any]:
        """Build (or rebuild) the vector index (`vector_index_kind`), in this process, on its
        own table handle: writes go on meanwhile (Lance commits an index next to concurrent
        appends); rows written during the build are folded in by a later maintenance pass."""
        return build_vector_index(self._db.open_table(TABLE), self.vector_index_kind)

    # -- writes (writer task only) ---------------------------------------------------------

    def insert(self, rows: Sequence[Row]) -> None:
        if rows:
            with self._write_lock:
                self._table.add(_records(rows, self.dim))
            for r in rows:
                self.ns_rows[r.namespace] = self.ns_rows.get(r.namespace, 0) + 1

    def replace(self, row: Row) -> None:
        """Replace the row with the same id (see `upsert`)."""
        self.upsert([row])

    def delete(self, ids: Sequence[str]) -> None:
        """Delete the rows of *ids*. Once the vector index exists, a deleted row stays in the
        table and is recorded in the ``tombstones`` table (`DeadRows`), which every read drops: a
        row deleted from a fragment the vector index covers makes every search through the
        index build a mask over all indexed rows (docs/storage.md, Maintenance: "Deleted
        rows"). A pass removes dead rows for good when it compacts their fragments
        (`_compact`); under the big index segments, which passes never rewrite, they stay."""
        if ids:
            with self._write_lock:
                if not self._vector_index_ready:
                    self._table.delete(id_in(ids))
                else:
                    self._delete_rows(self._live_rows_of(ids))

    def upsert(self, rows: Sequence[Row]) -> None:
        """Insert or replace rows by id. Before the vector index exists, in one commit (Lance's
        merge-insert); after, the new rows are appended and the old ones retired (`delete`):
        two commits, with a marker between them — a crash there leaves both versions, and
        the next open retires the older (`_repair_duplicates`). The writer's log entry, which
        makes the update acknowledged, is written after both."""
        rows = list({r.id: r for r in rows}.values())  # (the last version of an id)
        if not rows:
            return
        with self._write_lock:
            if not self._vector_index_ready:
                upsert_by_id(self._table, _records(rows, self.dim))
                return
            old = self._live_rows_of([r.id for r in rows])
            marker = self.directory / RETIRING
            before = _commit_files(self._table_dir)
            marker.touch()
            self._table.add(_records(rows, self.dim))
            try:
                # The new rows and the marker on disk before the old ones are retired: the
                # two tables' commits are separate files, which a power loss could keep one
                # without the other — the tombstones without the new rows would lose the
                # memory (neither version live; the writer's log, written after, never saw
                # this update).
                _fsync_commits(self._table_dir, before, _appended_files(self._table_dir, before))
                fsync_dir(self.directory)
                self._delete_rows(old)
            except BaseException:  # both versions stay visible: the next pass repairs it
                self.repair_pending = True
                raise
            marker.unlink()

    def _live_rows_of(self, ids: Sequence[str]) -> dict[int, tuple[str, str, str]]:
        """The live rows of *ids*: row address → (id, namespace, type)."""
        out: dict[int, tuple[str, str, str]] = {}
        for tbl in self._by_ids(ids, ["id", "namespace", "type", "_rowid"]):
            cols = [tbl.column(c).to_pylist() for c in ("_rowid", "id", "namespace", "type")]
            for rid, mid, ns, ty in zip(*cols, strict=True):
                out[int(rid)] = (mid, ns, ty)
        return out

    def _delete_rows(self, rows: dict[int, tuple[str, str, str]]) -> None:
        """Delete these rows (row address → (id, namespace, type)): as tombstones once the
        vector index exists (`delete`), else from the table. Under the write lock."""
        if not rows:
            return
        if not self._vector_index_ready:
            _delete_in(self._table, "_rowid", list(rows))
            return
        self._tombstones.add(
            pa.table(
                {
                    "rowid": pa.array(list(rows), pa.uint64()),
                    "id": [v[0] for v in rows.values()],
                    "namespace": [v[1] for v in rows.values()],
                    "type": [v[2] for v in rows.values()],
                },
                schema=_tombstone_schema(),
            )
        )
        self.dead = self.dead.with_rows(rows)

    # -- maintenance (writer task only) ----------------------------------------------------

    def _create_missing_indexes(self, report: dict[str, Any]) -> None:
        """`create_missing_indexes` in a pass. Each index commits beside the writer; one that
        keeps losing the race for the next version to a stream of stores (Lance gives up
        after 20 rebases) is left to the next pass (``preempted``), and the pass goes on."""
        try:
            report.update(self.create_missing_indexes())  # (refreshes the index state itself)
        except OSError as exc:
            if not _preempted(exc):
                raise
            report["preempted"] = True
            report["indexes_deferred"] = str(exc)[:200]
            self._table.checkout_latest()  # (the indexes created before the one that lost)
            self.refresh_index_state()

    def create_missing_indexes(self) -> dict[str, Any]:
        """Full text on ``text``, btree on ``id``, bitmap on ``namespace``, once there are rows."""
        from lancedb.index import FTS, Bitmap, BTree

        done: dict[str, Any] = {}
        if self.count() == 0:
            return done
        names = {tuple(idx.columns) for idx in self._table.list_indices()}
        if not self._fts_ready:
            self._table.create_index("text", config=FTS(with_position=False), replace=True)
            done["fts_created"] = True
        if not self._id_index_ready:
            self._table.create_index("id", config=BTree(), replace=True)
            done["id_index_created"] = True
        if ("namespace",) not in names:
            self._table.create_index("namespace", config=Bitmap(), replace=True)
            done["namespace_index_created"] = True
        if done:
            self.refresh_index_state()
        return done

    @_reader
    def health(self) -> dict[str, Any]:
        """Fragments, versions and unindexed rows of the memories table (cheap: metadata)."""
        frag = self._table.stats()["fragment_stats"]
        unindexed = 0
        for idx in self._table.list_indices():
            st = self._table.index_stats(idx.name)
            if st is not None:
                unindexed = max(unindexed, int(st.num_unindexed_rows))
        return {
            "rows": self.count(),
            "vector_index": self._vector_index_ready,
            "fragments": int(frag["num_fragments"]),
            "unindexed_rows": unindexed,
            "dead_rows": len(self.dead.rows),
            "versions": self._version_count(),
            "version": int(self._table.version),
        }

    def _version_count(self) -> int:
        """The memories table's versions: its manifests on disk. (LanceDB's `list_versions`
        reads every manifest, and fails when a pass's cleanup removes one meanwhile.)"""
        try:
            return sum(1 for name in os.listdir(self._table_dir / "_versions") if name.endswith(".manifest"))
        except FileNotFoundError:
            return 0

    def fold_new_rows(self, policy: MaintainPolicy) -> dict[str, Any] | None:
        """Index the rows the indexes do not cover yet — a delta of each index, merged
        size-tiered (`lanceops.segments_to_merge`) — and nothing else; None when they cover
        every row (or before the vector index exists: a small store's unindexed rows cost
        little). Beside the writer, between maintenance passes.

        Every search pays for the rows its index does not cover: vector search through the
        index then builds a mask over all indexed rows, and full-text search scans them, while
        their deltas are quick to build (docs/storage.md, "New rows go into every index within
        a quarter of a second"). A pass folds only past ``unindexed_rows``, so the daemon calls
        this shortly after each burst of writes (``index.fold_delay_ms``)."""
        if not self._vector_index_ready or self.index_build_running:
            return None
        t0 = time.perf_counter()
        try:
            report = self.ops.fold_new(TABLE, policy.max_index_deltas)
        finally:
            self._table.checkout_latest()
        if report is not None and not report.get("preempted"):
            report["ms"] = round((time.perf_counter() - t0) * 1000, 1)
        return report

    def _fold(
        self, report: dict[str, Any], unindexed: int, force: bool, policy: MaintainPolicy, into_base: bool = True
    ) -> None:
        """Step 2 of `maintain`: index the unindexed rows. *force* folds everything: into the
        indexes proper (*into_base*), or else with every delta merged into one."""
        t0 = time.perf_counter()
        try:
            # with *force* and *into_base* every delta merged (-1); else new deltas, merged
            # size-tiered (`lanceops.segments_to_merge`)
            merged = self.ops.fold(TABLE, policy.max_index_deltas, into_base=force and into_base)
        except OSError as exc:
            if not _preempted(exc):
                raise
            report["preempted"] = True
            merged = -2
        finally:
            self._table.checkout_latest()
        report["indexed"] = {
            "rows": unindexed,
            "deltas_merged": merged,
            "ms": round((time.perf_counter() - t0) * 1000, 1),
        }

    def maintain(
        self,
        policy: MaintainPolicy,
        *,
        force: bool = False,
        durable: Callable[[], dict[str, Any]] | None = None,
        extra_tables: Sequence[Any] = (),
    ) -> dict[str, Any]:
        """One maintenance pass, bounded in cost as the store grows:

        1. create missing indexes (after step 3 in a table without any index yet);
        2. fold unindexed rows into the indexes (only the new rows are indexed), past
           ``unindexed_rows`` (or *force*) — first, because Lance never merges indexed with
           unindexed fragments;
        3. compact: merge fragments smaller than ``target_rows_per_fragment`` (bigger ones are
           never rewritten, so a pass costs what was written since the last one), when there
           are more than ``max_fragments`` (or *force*);
        4. *durable*: make everything committed so far durable (the caller fsyncs and truncates
           its write-ahead log) — before any old version's files are removed;
        5. clean up old versions, once every read that may be using one has finished.

        *extra_tables* (LanceDB tables, e.g. the edges) get steps 2, 3 and 5 too. Steps 1–3
        (`reorganize`) may run while other threads write: Lance commits appends beside them,
        and a compaction that a concurrent delete or update pre-empts is given up (reported
        ``preempted``; nothing is lost). Steps 4–5 (`finish`) must not.
        """
        report = self.reorganize(policy, force=force, extra_tables=extra_tables)
        report = self.finish(policy, report, durable=durable, extra_tables=extra_tables)
        self.after_pass(report)
        return report

    def reorganize(
        self, policy: MaintainPolicy, *, force: bool = False, extra_tables: Sequence[Any] = ()
    ) -> dict[str, Any]:
        """Steps 1–3 of `maintain` (safe beside concurrent writes)."""
        started = time.perf_counter()
        report: dict[str, Any] = {}
        self._table.checkout_latest()  # a vector index built on another handle meanwhile
        self.refresh_index_state()
        if self.repair_pending:
            with self._write_lock:
                report["duplicates_retired"] = self._repair_duplicates()
                (self.directory / RETIRING).unlink(missing_ok=True)
                self.repair_pending = False
        # a table without any index yet (a bulk load) is compacted first: indexes created over
        # its fragments would keep them as they are (`remap_excluded`)
        unindexed_table = not self._table.list_indices()
        if not unindexed_table:
            self._create_missing_indexes(report)
        report["_index_segments"] = self.index_segments()  # (see `finish`)
        before = self.health()
        report["before"] = before
        compact_rows = policy.target_rows_per_fragment
        tables = [
            ("memories", self._table),
            (TOMBSTONES, self._tombstones),
            *((getattr(t, "name", "edges"), t) for t in extra_tables),
        ]
        unindexed = before["unindexed_rows"]
        # With a vector index (a big store) the base index segments are never rewritten by a
        # pass: folding new rows into them rewrites them, seconds at 1M (docs/storage.md,
        # Maintenance, step 2). So small unindexed fragments are compacted among themselves
        # first (Lance never merges fragments of different index coverage), then indexed as a
        # delta, merged size-tiered with the newest segments (`lanceops.segments_to_merge`).
        # Compactions stay off the fragments under big segments (`remap_excluded`).
        incremental = self._vector_index_ready
        fold = bool(unindexed) and (force or unindexed >= policy.unindexed_rows)
        if not incremental:
            if fold:
                self._fold(report, unindexed, force, policy)
        for name, table in tables:
            if table is self._table and self.index_build_running:
                report["compaction_deferred"] = "vector_index_build"
                continue
            frags = int(table.stats()["fragment_stats"]["num_fragments"])
            if frags and (force or frags > policy.max_fragments):  # (one fragment: its deleted rows)
                t0 = time.perf_counter()
                try:
                    # (without indexes nothing is remapped: a bulk load is compacted whole)
                    whole = unindexed_table and table is self._table
                    pol = dataclasses.replace(policy, max_compact_rows=1 << 62) if whole else policy
                    metrics, commit_ms, excluded = self._compact(table, compact_rows, pol)
                    if metrics is None:
                        continue  # nothing to rewrite
                    done: dict[str, Any] = {
                        "fragments_removed": metrics["fragments_removed"],
                        "fragments_added": metrics["fragments_added"],
                        "commit_ms": commit_ms,  # (the memories' commits wait this long)
                    }
                    if excluded:
                        done["fragments_kept"] = excluded  # (under big index segments: `remap_excluded`)
                except OSError as exc:  # a delete or update committed on those fragments first
                    if not _preempted(exc):
                        raise
                    report["preempted"] = True
                    done = {"preempted": True}
                finally:
                    table.checkout_latest()
                done["ms"] = round((time.perf_counter() - t0) * 1000, 1)
                report.setdefault("compacted", {})[name] = done
        if unindexed_table:
            self._create_missing_indexes(report)
        if incremental and fold:
            self._fold(report, unindexed, force, policy, into_base=False)
        report["reorganize_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return report

    def _compact(
        self, table: Any, target_rows: int, policy: MaintainPolicy
    ) -> tuple[dict[str, int] | None, float, int]:
        """Compact *table* (through `ops`): the rewrite beside the writer, the commit while the
        memories' commits are held off. (Lance's own `compact_files` commits beside them, and
        loses the race for the next version to a stream of stores: docs/storage.md,
        Maintenance.) A delete or update committed on the rewritten fragments meanwhile still
        pre-empts it (reported by the caller). Fragments under big index segments are left
        alone (`lanceops.remap_excluded`; their number is returned). No metrics: nothing to
        rewrite."""
        memories = table is self._table
        try:
            half = self.compact_shrink
            bounds = CompactionBounds(
                target_rows,
                policy.max_compact_rows >> half,
                policy.max_remap_rows >> half,
                policy.max_rebuild_rows >> half,
            )
            plan = self.ops.compact_plan(table.name, bounds, self.dead.per_fragment if memories else {})
            # dead rows in the fragments it rewrites, and in those where Lance would drop
            # deleted rows (over DELETED_SHARE of them), are deleted for good first, then
            # dropped by it
            purged = self._purge_dead_rows(set(plan["bury"])) if plan["bury"] else 0
            rewritten = self.ops.compact_execute(replan=purged > 0)
            if rewritten is None:
                return None, 0.0, int(plan["excluded"])
            t0 = time.perf_counter()
            with self._write_lock if memories else contextlib.nullcontext():
                if memories and self.dead.fragments() & set(rewritten):  # (their addresses would change)
                    raise OSError("preempted: rows of the rewritten fragments were deleted meanwhile")
                try:
                    metrics = self.ops.compact_commit()
                except LanceOpsTimeout:
                    # the writer waited all that time: the next passes rewrite and remap less
                    # (each bound halved, up to MAX_COMPACT_SHRINK times), back up one step
                    # per commit in time
                    self.compact_shrink = min(half + 1, MAX_COMPACT_SHRINK)
                    log.warning("compact_commit_timeout", table=table.name, shrink=self.compact_shrink)
                    raise
                finally:
                    # before the writer's next commit: a delete reads the rows' new places. Also
                    # when the commit failed: the child may have died after Lance committed.
                    if memories:
                        self._table.checkout_latest()
            self.compact_shrink = max(half - 1, 0)
            return metrics, round((time.perf_counter() - t0) * 1000, 1), int(plan["excluded"])
        finally:
            with contextlib.suppress(Exception):  # (the error that got here matters more)
                self.ops.compact_abort()  # (nothing, once committed)

    def _purge_dead_rows(self, fragments: set[int]) -> int:
        """Delete the dead rows of *fragments* from the table for good (durably), then from the
        tombstones: the compaction that follows drops them. Returns how many."""
        marker = self.directory / BURYING
        with self._write_lock:
            dead = self.dead
            rowids = [r for r in dead.rows if r >> 32 in fragments]
            if not rowids:
                return 0
            marker.touch()
            before = _commit_files(self._table_dir)
            _delete_in(self._table, "_rowid", rowids)
            _fsync_commits(self._table_dir, before)  # (else a power loss could undo it alone)
            _delete_in(self._tombstones, "rowid", rowids)
            self.dead = dead.without_rows(rowids)
            marker.unlink()
        return len(rowids)

    def cleanup_versions(self, policy: MaintainPolicy, tables: Sequence[Any] = ()) -> dict[str, Any]:
        """Remove the old versions of the memories table, its tombstones and *tables*:
        serialised with writes, and only once the newest versions are durable. It writes
        nothing, so it also runs on a full disk (and frees what old versions held)."""
        # The handles move to the newest version first (a commit made on another handle — a
        # compaction, the index build — leaves them behind): reads that start after the wait
        # then read a version that cleanup keeps, never a removed manifest.
        tables = [self._table, self._tombstones, *tables]
        for table in tables:
            table.checkout_latest()
        started = time.perf_counter()
        if not self.readers.wait_before(policy.reader_wait_s):
            return {"skipped": "reads in flight"}
        out: dict[str, Any] = {"versions_removed": 0, "bytes_freed": 0}
        for table in tables:
            if table is self._table and self.index_build_running:
                out["deferred"] = "vector_index_build"
                continue
            st = self.ops.cleanup(table.name)
            out["versions_removed"] += st["old_versions"]
            out["bytes_freed"] += st["bytes_removed"]
        out["ms"] = round((time.perf_counter() - started) * 1000, 1)  # (with the wait for reads)
        return out

    def finish(
        self,
        policy: MaintainPolicy,
        report: dict[str, Any],
        *,
        durable: Callable[[], dict[str, Any]] | None = None,
        extra_tables: Sequence[Any] = (),
    ) -> dict[str, Any]:
        """Steps 4–5 of `maintain`, serialised with writes; adds to *report* and returns it."""
        started = time.perf_counter()
        if durable is not None:
            report["durable"] = durable()
            report["durable_ms"] = round((time.perf_counter() - started) * 1000, 1)
        # old versions: only after the new ones are durable, and never under a running read
        report["cleanup"] = self.cleanup_versions(policy, extra_tables)
        segments = self.index_segments()
        self._cache_bound_check(segments, report)
        replaced = _replaced_indexes(report.pop("_index_segments", {}), segments, policy.renew_cache_bytes)
        if not replaced and self._stale_cache(segments, policy):
            replaced = ["stale entries"]
        if replaced:
            report["renew_cache"] = replaced  # (by the caller, after the writer: `renew_cache`)
        report["after"] = self.health()
        rows = int(report["after"].get("rows", 0))
        # (an index of 1 partition is the first due: when it would not be, none is)
        if (
            self._vector_index_ready
            and not self._vector_index_outdated
            and vector_index_grown(self.vector_index_kind, 1, rows)
        ):
            try:
                parts = self.ops.vector_partitions(TABLE, VECTOR_INDEX_NAME)
            except Exception as exc:  # (a hint for a rebuild: the pass itself went through)
                log.warning("vector_index_partitions_unreadable", error=str(exc)[:300])
                parts = None
            report["vector_index_partitions"] = parts
            if vector_index_grown(self.vector_index_kind, parts, rows):
                report["vector_index_grown"] = True  # (the daemon rebuilds it: `Service`)
        report["finish_ms"] = round((time.perf_counter() - started) * 1000, 1)
        report["ms"] = round(report.get("reorganize_ms", 0.0) + report["finish_ms"], 1)
        return report
