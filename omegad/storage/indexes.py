"""The memories table's indexes: which exist (`IndexState`), the vector index's kinds and
parameters, and how big LanceDB's index cache must be to hold them."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omegad.config import Config
from omegad.storage.rows import TABLE

__all__ = [
    "AUTO_RABITQ_ROWS",
    "VECTOR_INDEX_KINDS",
    "VECTOR_INDEX_NAME",
    "VECTOR_INDEX_SETTINGS",
    "IndexState",
    "auto_index_cache_mb",
    "build_vector_index",
    "describe_indexes",
    "index_cache_need_mb",
    "vector_index_grown",
    "vector_index_kind_for",
    "vector_index_params",
    "vector_index_partitions",
]


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


def on_disk(segments: dict[str, dict[str, int]]) -> int:
    """The bytes on disk of every index segment in *segments* (index → segment uuid → bytes)."""
    return sum(size for segs in segments.values() for size in segs.values())


def index_cache_need_mb(segments: dict[str, dict[str, int]]) -> int:
    """What LanceDB's index cache must hold for searches to keep every index of *segments*
    (index → segment uuid → bytes on disk), in MB."""
    return math.ceil(on_disk(segments) * CACHE_PER_INDEX_BYTE / (1 << 20)) + CACHE_MARGIN_MB


def auto_index_cache_mb(need_mb: int) -> int:
    """The automatic bound for a need of *need_mb*: the headroom over it, in steps of 16 MB."""
    return max(AUTO_CACHE_FLOOR_MB, math.ceil(need_mb * (1 + CACHE_HEADROOM) / 16) * 16)


def index_sizes(directory: Path) -> dict[str, dict[str, int]]:
    """The memories' indexes and their bytes on disk (index → {uuid: bytes}, all its segments
    under one uuid), read through LanceDB before its caches are sized. (Lance's own
    ``describe_indices``, as `LocalOps.segments`, would load Lance's second copy of the
    library into the daemon for this one call: docs/operations.md.)"""
    import lancedb

    table = lancedb.connect(str(directory)).open_table(TABLE)
    return {i.name: {str(i.index_uuid): int(i.size_bytes or 0)} for i in table.list_indices()}


#: The vector index, by kind (``index.vector_index``): LanceDB's index type, and how its
#: ``list_indices`` names it. `omegad.storage.indexer` builds the same through Lance's own API.
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
    this process (`Maintenance.build_vector_index`; the daemon uses `omegad.storage.indexer` instead)."""
    from lancedb.index import HnswSq, IvfRq

    t0 = time.perf_counter()
    rows = int(handle.count_rows())
    params = vector_index_params(kind, rows)
    config = IvfRq(distance_type="cosine", **params) if kind == "rabitq" else HnswSq(distance_type="cosine", **params)
    handle.create_index("vector", config=config, replace=True)
    return {"rows": rows, "ms": round((time.perf_counter() - t0) * 1000, 1)}


def replaced_indexes(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]], min_bytes: int) -> list[str]:
    """Indexes whose segments merged away since *before* held at least *min_bytes*: their
    cache entries are garbage."""
    return [
        name
        for name, segments in before.items()
        if sum(size for uuid, size in segments.items() if uuid not in after.get(name, {})) >= min_bytes
    ]


def describe_indexes(table: Any) -> dict[str, Any]:
    """Each index of the LanceDB *table*, by name (``fts``, ``id``, or its own): its type and
    the rows it covers and does not, with the table's version."""
    out: dict[str, Any] = {"version": int(table.version), "fts": None}
    for idx in table.list_indices():
        stats = table.index_stats(idx.name)
        if stats is None:
            continue
        name = "fts" if str(stats.index_type).upper() == "FTS" else "id" if list(idx.columns) == ["id"] else idx.name
        out[name] = {
            "type": str(stats.index_type),
            "indexed_rows": int(stats.num_indexed_rows),
            "unindexed_rows": int(stats.num_unindexed_rows),
        }
    return out


@dataclass
class IndexState:
    """Which indexes the memories table has, and which vector index the configuration asks
    for: read by searches and maintenance, refreshed from the table (`refresh`)."""

    #: ``index.vector_index`` (`VECTOR_INDEX_SETTINGS`) and, for ``auto``, the rows from which
    #: it asks for RaBitQ
    setting: str = Config.vector_index
    rabitq_from_rows: int = AUTO_RABITQ_ROWS
    #: a namespace of at least this many rows is searched through the vector index
    min_namespace_rows: int = Config.index_min_namespace_rows
    fts: bool = False  # full text on ``text``
    id: bool = False  # btree on ``id``
    vector: bool = False
    #: the kind of vector index the setting asks for now (a key of `VECTOR_INDEX_KINDS`:
    #: `vector_index_kind_for`); one of another kind (*vector_built*) answers until it is
    #: rebuilt (*vector_outdated*)
    vector_kind: str = "hnsw"
    vector_built: str | None = None
    vector_outdated: bool = False
    #: While the vector index is built from a version of the memories table (`building`; in a
    #: subprocess: `omegad.storage.indexer`), passes neither compact that table (the index
    #: would cover fragments that are gone: its commit would fail, minutes of work lost) nor
    #: remove its old versions (the build's commit reads the transactions since its own).
    build_running: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def ready(self) -> bool:
        """Full text and id indexes exist (a pass creates them once there are rows)."""
        return self.fts and self.id

    def refresh(self, table: Any) -> None:
        """Read which indexes the LanceDB *table* has now."""
        with self._lock:
            indices = table.list_indices()
            self.fts = any(list(idx.columns) == ["text"] and str(idx.index_type).upper() == "FTS" for idx in indices)
            self.id = any(list(idx.columns) == ["id"] for idx in indices)
            vector = [idx for idx in indices if list(idx.columns) == ["vector"]]
            self.vector = bool(vector)
            types = {str(idx.index_type) for idx in vector}
            known = [kind for kind, (_, name) in VECTOR_INDEX_KINDS.items() if types == {name}]
            self.vector_built = known[0] if known else None
            rows = int(table.count_rows()) if self.setting == "auto" else 0
            self.vector_kind = vector_index_kind_for(self.setting, rows, self.vector_built, self.rabitq_from_rows)
            wanted = VECTOR_INDEX_KINDS[self.vector_kind][1]
            self.vector_outdated = any(t != wanted for t in types)

    def wants(self, setting: str, rabitq_from_rows: int | None, table: Any) -> None:
        """Build vector indexes as ``index.vector_index = `` *setting* asks (``auto``: RaBitQ
        from *rabitq_from_rows* rows) from now on; an existing one of another kind becomes
        *vector_outdated*."""
        if setting not in VECTOR_INDEX_SETTINGS:
            raise ValueError(f"vector index {setting!r}: expected one of {', '.join(VECTOR_INDEX_SETTINGS)}")
        rabitq_from_rows = rabitq_from_rows or self.rabitq_from_rows
        if (setting, rabitq_from_rows) != (self.setting, self.rabitq_from_rows):
            self.setting, self.rabitq_from_rows = setting, rabitq_from_rows
            self.refresh(table)

    @contextmanager
    def building(self) -> Iterator[None]:
        """A vector index build is running (see *build_running*) until the block ends."""
        if self.build_running:
            raise RuntimeError("a vector index build is already running")
        self.build_running = True
        try:
            yield
        finally:
            self.build_running = False
