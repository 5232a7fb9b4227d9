"""The memories table behind a narrow, blocking interface (`MemoryStore`).

Every method here blocks and must run in a worker thread (the server wraps them with
`anyio.to_thread.run_sync` behind limiters). Writes come only from the writer task, one at a
time, so check-then-write sequences (idempotent ids, deletes) need no further locking. The
store's parts live beside it: rows and shared table helpers (`rows`), dead rows
(`tombstones`), reads in flight (`readers`), index state and cache sizing (`indexes`),
searches (`search`) and maintenance passes (`maintenance`).
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace as with_fields
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

# index_stats would otherwise carry (and warn about) every IVF centroid
os.environ.setdefault("LANCE_INCLUDE_VECTOR_CENTROIDS", "false")
import pyarrow as pa
import pyarrow.compute
import structlog

from omegad.config import Config
from omegad.storage.bucket import PREFIX, Bucket
from omegad.storage.childops import ChildOps
from omegad.storage.commits import appended_files, commit_files, connect, delete_in, fsync_commits
from omegad.storage.fsutil import fsync_dir
from omegad.storage.indexes import (
    AUTO_RABITQ_ROWS,
    SIDE_CACHE_MB,
    IndexState,
    auto_index_cache_mb,
    describe_indexes,
    index_cache_need_mb,
    index_sizes,
)
from omegad.storage.lanceops import LanceOps, LocalOps
from omegad.storage.location import Location
from omegad.storage.maintenance import Maintenance
from omegad.storage.readers import Readers, reader
from omegad.storage.repair import load_dead_rows
from omegad.storage.rows import (
    SELECT,
    TABLE,
    Filter,
    Row,
    StoreMismatch,
    id_in,
    insert_absent,
    open_or_create,
    records,
    rows_of,
    schema,
    sql_str,
    tombstone_schema,
    upsert_by_id,
)
from omegad.storage.search import Search
from omegad.storage.tombstones import NO_DEAD_ROWS, RETIRING, DeadRows

log = structlog.get_logger("omegad")

__all__ = ["STORE_FORMAT", "STORE_META", "MemoryStore", "check_meta", "read_store_meta", "team_meta"]

STORE_META = "store.json"
STORE_FORMAT = 1


def read_store_meta(data_dir: Path) -> dict[str, Any] | None:
    """The store's ``store.json`` (format, embedding model and dimension), if there is a
    readable one."""
    try:
        meta = json.loads((data_dir / STORE_META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


def check_meta(meta: Any, where: str, what: str, model_id: str, dim: int) -> None:
    """Raise `StoreMismatch` unless the store description *meta* (read from *where*) is of
    this format and of the configured embedding model."""
    if not isinstance(meta, dict) or meta.get("format") != STORE_FORMAT:
        got = meta.get("format") if isinstance(meta, dict) else meta
        raise StoreMismatch(f"{where}: store format {got!r}, this omegad reads {STORE_FORMAT}")
    if meta.get("embedding_model") != model_id or meta.get("embedding_dim") != dim:
        raise StoreMismatch(
            f"{what} was built with embedding model {meta.get('embedding_model')!r} "
            f"(dim {meta.get('embedding_dim')}), but the configured model is {model_id!r} (dim {dim}). "
            "Use the original model, or a new store: export with the original model and import "
            "there (the texts are embedded again; docs/backup.md)."
        )


def team_meta(location: Location, model_id: str, dim: int) -> None:
    """A team store's description, kept in its bucket: written by the first host to open it
    (create-if-absent, so two first hosts agree), checked by every later one."""
    bucket = Bucket(location.root, location.options)
    want = {"format": STORE_FORMAT, "embedding_model": model_id, "embedding_dim": dim}
    got = bucket.get(STORE_META)
    if got is None and bucket.create(STORE_META, json.dumps(want, indent=2).encode()) is not None:
        return
    got = got or bucket.get(STORE_META)  # (another host wrote it first)
    where = f"{bucket.uri}/{PREFIX}/{STORE_META}"
    try:
        meta = json.loads(got.data) if got is not None else None
    except ValueError as exc:
        raise StoreMismatch(f"{where} is unreadable: {exc}") from None
    check_meta(meta, where, f"the team store {location.root}", model_id, dim)


class MemoryStore:
    """The memories table. Open with `MemoryStore.open`; all methods block.

    Over 400 lines because its reads and writes share the commit lock, the table handle a
    cache renewal swaps, and the dead rows; searches, maintenance, repair and index state
    are parts beside it (`search`, `maintenance`, `repair`, `indexes`)."""

    def __init__(
        self, directory: Path, table: Any, db: Any, dim: int, model_id: str, location: Location | None = None
    ) -> None:
        self.directory = directory  # local files (markers); the tables too unless `location` is shared
        self.location = location if location is not None else Location(directory)
        #: a team store: other daemons commit to the same tables (docs/team.md), so rows are
        #: deleted and replaced in single commits (no tombstones: their row addresses are
        #: this host's alone) and inserted with the primary-key check of a merge-insert
        self.shared = self.location.shared
        #: the memories table's versions this daemon's own writes made (a team store's
        #: follower tells other hosts' commits by the versions not in it)
        self.own_versions: set[int] = set()
        self._bucket: Bucket | None = None  # (a team store's, to list its versions)
        #: a team store: when the commit to the memories table in progress began (monotonic),
        #: and who hears how long each one took (`omegad.app.turns.Turns`)
        self.committing_since: float | None = None
        self.on_commit: Callable[[float], None] | None = None
        self._cache_seen: int | None = None  # (`cache_fresh`)
        self.dim = dim
        self.model_id = model_id
        self.db = db
        self.table = table
        self.commit_lock = threading.Lock()  # held by each commit: holding it holds them off
        self.loading = threading.Lock()  # reads wait while a renewal loads after its swap
        self.readers = Readers()
        self.indexes = IndexState()
        self.ns_rows: dict[str, int] = {}  # rows per namespace: refreshed by maintenance, + inserts
        self.session: Any = None  # LanceDB's caches (set by `open`)
        self.cache_mb = (768, 128)
        #: the index cache's bound follows the indexes (`auto_index_cache_mb`), else it is fixed
        self.cache_auto = False
        self.index_cache_need_mb = 0  # (as of the last pass or the open)
        self.side_db: Any = db
        self.dead = NO_DEAD_ROWS  # rows deleted under the vector index (see `delete`)
        self.repair_pending = False  # an update failed between its two commits (see `upsert`)
        self.tombstones: Any = None  # their table (set by `open`)
        #: Lance's maintenance calls: compaction, index folds, cleanup (`omegad.storage.lanceops`)
        self.ops: LanceOps = LocalOps(self.location)
        self.search = Search(self)
        self.maintenance = Maintenance(self)
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
        min_namespace_rows: int | None = None,
        team: Location | None = None,
    ) -> MemoryStore:
        """Open (or create) the store. LanceDB's caches are bounded (its defaults, 6 GB of
        indexes and 1 GB of metadata, let every replaced index version stay in memory); the
        index cache by *index_cache_mb*, or by what the indexes on disk need when it is 0
        (`auto_index_cache_mb`, raised by passes as they grow).
        *ops_in_child*: Lance's maintenance calls run in a child process (`ChildOps`; the
        daemon), else in this one. *vector_index*: the kind of vector index to build
        (`VECTOR_INDEX_SETTINGS`; ``auto``: RaBitQ from *rabitq_from_rows* rows);
        *min_namespace_rows*: see `use_vector_index`. *team*: the tables are in this team store
        (its ``directory`` is ignored), and its description with them (`team_meta`)."""

        directory = data_dir / "lance"
        directory.mkdir(parents=True, exist_ok=True)
        location = Location(directory) if team is None else with_fields(team, directory=directory)
        meta_path = data_dir / STORE_META
        if team is not None:
            team_meta(location, model_id, dim)
        elif meta_path.exists():
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise StoreMismatch(f"{meta_path} is unreadable: {exc}") from None
            check_meta(meta, str(meta_path), f"the store in {data_dir}", model_id, dim)
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
        need_mb = index_cache_need_mb({})  # (no indexes yet: the margin)
        if not location.shared and (directory / f"{TABLE}.lance").is_dir():
            try:
                need_mb = index_cache_need_mb(index_sizes(directory))
            except Exception as exc:  # (the sizes are a hint; opening the table tells what is wrong)
                log.warning("index_sizes_unreadable", error=str(exc)[:300])
        cache_mb = (index_cache_mb or auto_index_cache_mb(need_mb), metadata_cache_mb)
        db, session = connect(location, *cache_mb)
        table = open_or_create(db, TABLE, schema(dim), location)
        store = cls(directory, table, db, dim, model_id, location)
        store.session, store.cache_mb = session, cache_mb
        store.use_vector_index(vector_index, rabitq_from_rows, min_namespace_rows=min_namespace_rows)
        store.cache_auto, store.index_cache_need_mb = not index_cache_mb, need_mb
        store.warn_small_cache()
        if ops_in_child:
            store.ops = ChildOps(location)
        # The side tables (edges, signals) are small and get caches of their own, so that
        # the memories' caches can be replaced whole (`renew_cache`).
        store.side_db, _ = connect(location, SIDE_CACHE_MB, SIDE_CACHE_MB)
        load_dead_rows(store)
        return store

    def warn_small_cache(self) -> None:
        """Log when a fixed index cache bound is below what the indexes need (searches then
        read an index from disk again each time)."""
        if not self.cache_auto and self.index_cache_need_mb > self.cache_mb[0]:
            log.warning(
                "index_cache_too_small",
                index_cache_mb=self.cache_mb[0],
                need_mb=self.index_cache_need_mb,
                fix="raise store.index_cache_mb, or remove it (auto)",
            )

    def cache_bytes(self) -> int | None:
        """What LanceDB's caches of the memories table hold (None before `open` set them)."""
        return int(self.session.size_bytes) if self.session is not None else None

    @reader
    def index_segments(self) -> dict[str, dict[str, int]]:
        """Each index of the memories table: its segments (uuid → bytes)."""
        return self.ops.segments(TABLE)

    def _by_ids(self, ids: Iterable[str], columns: list[str]) -> Iterator[pa.Table]:
        """The live rows of *ids* (a query per 500), with *columns* (``_rowid`` among them);
        an id may have two between an update's commits (see `upsert`)."""
        dead = self.dead
        ids = list(dict.fromkeys(ids))
        for start in range(0, len(ids), 500):
            q = self.table.search().where(id_in(ids[start : start + 500])).select(columns)
            yield dead.drop(q.limit(None).to_arrow())

    @reader
    def get_many(self, ids: Iterable[str]) -> dict[str, Row]:
        out: dict[str, Row] = {}
        for tbl in self._by_ids(ids, SELECT):
            for row in rows_of(tbl, self.dim):
                if row.id not in out or row.updated_at >= out[row.id].updated_at:  # (see `upsert`)
                    out[row.id] = row
        return out

    @reader
    def rows_in(self, namespace: str, limit: int) -> list[Row]:
        """Up to *limit* rows of one namespace (any order)."""
        dead = self.dead
        q = self.table.search().where(Filter(namespace=namespace).sql()).select(SELECT)
        tbl = dead.drop(q.limit(limit + dead.per_namespace.get(namespace, 0)).to_arrow())
        return rows_of(tbl, self.dim)[:limit]

    @reader
    def list_page(self, flt: Filter, newest_first: bool, after: tuple[int, str] | None, limit: int) -> list[Row]:
        """Up to *limit* live rows matching *flt* in (``created_at``, ``id``) order, newest or
        oldest first, strictly after the position *after* in that order (keyset paging: a write
        between pages cannot shift a page the way an offset would)."""
        where = flt.sql()
        if after is not None:
            op = "<" if newest_first else ">"
            at, last = after
            where += f" AND (created_at {op} {int(at)} OR (created_at = {int(at)} AND id {op} {sql_str(last)}))"
        q = self.table.search().where(where).select(["id", "created_at", "updated_at", "_rowid"])
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

    @reader
    def namespace_summary(self) -> dict[str, tuple[int, int]]:
        """Per namespace: live memories and the newest commit stamp among them."""
        tbl = self.dead.drop(self.table.search().select(["namespace", "updated_at", "_rowid"]).limit(None).to_arrow())
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

    @reader
    def scan_texts(self, each: Callable[[list[str], list[str]], None], batch_rows: int = 8192) -> int:
        """Call *each* with the namespaces and texts of every row, *batch_rows* at a time (a
        streamed scan of the current version: memory stays at one batch). Deleted rows may be
        among them. Returns the rows scanned."""
        scanned = 0
        for batch in self.table.search().select(["namespace", "text"]).limit(None).to_batches(batch_rows):
            each(batch.column("namespace").to_pylist(), batch.column("text").to_pylist())
            scanned += batch.num_rows
        return scanned

    @reader
    def existing_ids(self, ids: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for tbl in self._by_ids(ids, ["id", "_rowid"]):
            found.update(tbl.column("id").to_pylist())
        return found

    @reader
    def stamps(self, ids: Iterable[str]) -> dict[str, int]:
        """``updated_at`` of the given ids that exist."""
        out: dict[str, int] = {}
        for tbl in self._by_ids(ids, ["id", "updated_at", "_rowid"]):
            for i, u in zip(tbl.column("id").to_pylist(), tbl.column("updated_at").to_pylist(), strict=True):
                out[i] = max(int(u), out.get(i, 0))
        return out

    @reader
    def vector_search(
        self, vector: npt.NDArray[np.float32], flt: Filter, k: int, *, near: bool = False
    ) -> list[tuple[Row, float]]:
        """Nearest rows by cosine similarity (`Search.vector`); *near*: only rows near the
        vector are wanted."""
        return self.search.vector(vector, flt, k, near=near)

    @reader
    def vector_search_many(
        self, vectors: Sequence[npt.NDArray[np.float32]], flt: Filter, k: int, *, near: bool = False
    ) -> list[list[tuple[Row, float]]]:
        """`vector_search` for several vectors in one storage query (`Search.vector_many`)."""
        return self.search.vector_many(vectors, flt, k, near=near)

    @reader
    def text_search(self, text: str, flt: Filter, k: int) -> list[tuple[Row, float]]:
        """Full-text (BM25) matches, filtered inside the query (`Search.text`)."""
        return self.search.text(text, flt, k)

    @reader
    def max_updated_at(self) -> int:
        """The newest commit stamp in the table (0 when empty)."""
        tbl = self.dead.drop(self.table.search().select(["updated_at", "_rowid"]).limit(None).to_arrow())
        col = tbl.column("updated_at")
        return int(pa.compute.max(col).as_py() or 0) if tbl.num_rows else 0

    @reader
    def updated_after(self, us: int) -> list[tuple[str, int]]:
        """(id, updated_at) of rows committed after the commit stamp *us*, oldest first."""
        q = self.table.search().where(f"updated_at > {int(us)}").select(["id", "updated_at", "_rowid"])
        tbl = self.dead.drop(q.limit(None).to_arrow())
        pairs = zip(tbl.column("id").to_pylist(), tbl.column("updated_at").to_pylist(), strict=True)
        return sorted(((i, int(u)) for i, u in pairs), key=lambda p: (p[1], p[0]))

    @reader
    def count(self) -> int:
        return int(self.table.count_rows()) - len(self.dead.rows)

    @property
    def version(self) -> int:
        return int(self.table.version)

    def pin(self) -> tuple[int, DeadRows]:
        """The memories table's version and its dead rows, together (a pass's `Maintenance._compact`
        changes both under the commit lock)."""
        with self.commit_lock:
            return int(self.table.version), self.dead

    def snapshot(self, table_name: str, version: int) -> Any:
        """A read-only handle on *table_name* at *version* (pinned: later commits unseen)."""
        handle = (self.db if table_name == TABLE else self.side_db).open_table(table_name)
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
        return rows_of(dead.drop(tbl), self.dim), tbl.num_rows

    @reader
    def counts(self) -> dict[str, dict[str, int]]:
        """Rows per namespace and type."""
        tbl = self.dead.drop(self.table.search().select(["namespace", "type", "_rowid"]).limit(None).to_arrow())
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
        """The tables' bytes on disk (0 for a team store: objects are not listed for this)."""
        if self.shared:
            return 0
        total = 0
        for root, _dirs, files in os.walk(self.directory):
            for name in files:
                try:
                    total += os.stat(os.path.join(root, name)).st_size
                except OSError:
                    pass
        return total

    @reader
    def index_state(self) -> dict[str, Any]:
        """Each index of the memories table: its type and the rows it covers (`describe_indexes`)."""
        return describe_indexes(self.table)

    def refresh_index_state(self) -> None:
        self.indexes.refresh(self.table)

    def refresh_namespace_rows(self) -> None:
        self.ns_rows = {ns: sum(types.values()) for ns, types in self.counts().items()}

    def use_vector_index(
        self, setting: str, rabitq_from_rows: int | None = None, *, min_namespace_rows: int | None = None
    ) -> None:
        """Build vector indexes as ``index.vector_index = `` *setting* asks from now on
        (`IndexState.wants`); *min_namespace_rows*: search a namespace through the vector
        index from this many rows (``index.min_namespace_rows``)."""
        if min_namespace_rows is not None:
            self.indexes.min_namespace_rows = min_namespace_rows
        self.indexes.wants(setting, rabitq_from_rows, self.table)

    @property
    def table_dir(self) -> Path:
        """The memories table's Lance directory."""
        return self.directory / f"{TABLE}.lance"

    def insert(self, rows: Sequence[Row], chosen: bool = True) -> None:
        """Append *rows*. In a team store, when *chosen* (some ids were chosen by clients, so
        another host may insert one of them at the same moment), by a merge-insert on the id;
        fresh UUIDs cannot collide, and an append that loses the race for a version is
        rebased cheaply where a merge-insert is redone."""
        if rows:
            with self.commit_lock, self._committing():
                if self.shared and chosen:
                    insert_absent(self.table, records(rows, self.dim))
                else:
                    self.table.add(records(rows, self.dim))
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
        (`Maintenance._compact`); under the big index segments, which passes never rewrite, they stay."""
        if ids:
            with self.commit_lock:
                if self.shared or not self.indexes.vector:
                    with self._committing():
                        self.table.delete(id_in(ids))
                else:
                    self.delete_rows(self._live_rows_of(ids))

    def upsert(self, rows: Sequence[Row]) -> None:
        """Insert or replace rows by id. Before the vector index exists, in one commit (Lance's
        merge-insert); after, the new rows are appended and the old ones retired (`delete`):
        two commits, with a marker between them — a crash there leaves both versions, and
        the next open retires the older (`repair.repair_duplicates`). The writer's log entry, which
        makes the update acknowledged, is written after both."""
        rows = list({r.id: r for r in rows}.values())  # (the last version of an id)
        if not rows:
            return
        with self.commit_lock:
            if self.shared or not self.indexes.vector:
                with self._committing():
                    upsert_by_id(self.table, records(rows, self.dim))
                return
            old = self._live_rows_of([r.id for r in rows])
            marker = self.directory / RETIRING
            before = commit_files(self.table_dir)
            marker.touch()
            self.table.add(records(rows, self.dim))
            try:
                # The new rows and the marker on disk before the old ones are retired: the
                # two tables' commits are separate files, which a power loss could keep one
                # without the other — the tombstones without the new rows would lose the
                # memory (neither version live; the writer's log, written after, never saw
                # this update).
                fsync_commits(self.table_dir, before, appended_files(self.table_dir, before))
                fsync_dir(self.directory)
                self.delete_rows(old)
            except BaseException:  # both versions stay visible: the next pass repairs it
                self.repair_pending = True
                raise
            marker.unlink()

    def cache_fresh(self) -> bool:
        """A team store: whether every version of the memories table since the last call was
        made by this daemon — else another host committed, and what a cache holds of the
        table may be stale. Reading the version refreshes the handle once per
        ``store.visibility_s`` (~0.1 ms a call otherwise, ~4 ms when it refreshes). Callers
        serialise the calls (the neighbour cache's lock)."""
        version = int(self.table.version)
        seen, self._cache_seen = self._cache_seen, version
        return seen is None or not self.made_elsewhere(seen, version)

    def made_elsewhere(self, after: int, through: int) -> bool:
        """Whether a version of the memories table after *after* and up to *through* was made
        by another host (one this daemon's commits did not make)."""
        return any(v not in self.own_versions for v in range(after + 1, through + 1))

    @contextlib.contextmanager
    def _committing(self) -> Iterator[None]:
        """Around one commit to the memories table (under the lock): in a team store, note the
        version it made and tell `on_commit` how long it took."""
        if not self.shared:
            yield
            return
        began = self.committing_since = time.monotonic()
        try:
            yield
        finally:
            self.committing_since = None
        self._made_version()
        if self.on_commit is not None:
            with contextlib.suppress(Exception):  # (the commit is made: nothing may report it failed)
                self.on_commit(time.monotonic() - began)

    def _made_version(self) -> None:
        """Note the version a commit of this daemon just made (team stores; under the lock)."""
        if len(self.own_versions) > 10_000:  # (the follower looks every second or so)
            self.own_versions = {v for v in self.own_versions if v > max(self.own_versions) - 1_000}
        self.own_versions.add(int(self.table.version))

    def _live_rows_of(self, ids: Sequence[str]) -> dict[int, tuple[str, str, str]]:
        """The live rows of *ids*: row address → (id, namespace, type)."""
        out: dict[int, tuple[str, str, str]] = {}
        for tbl in self._by_ids(ids, ["id", "namespace", "type", "_rowid"]):
            cols = [tbl.column(c).to_pylist() for c in ("_rowid", "id", "namespace", "type")]
            for rid, mid, ns, ty in zip(*cols, strict=True):
                out[int(rid)] = (mid, ns, ty)
        return out

    def delete_rows(self, rows: dict[int, tuple[str, str, str]]) -> None:
        """Delete these rows (row address → (id, namespace, type)): as tombstones once the
        vector index exists (`delete`), else from the table. Under the write lock."""
        if not rows:
            return
        if self.shared or not self.indexes.vector:
            delete_in(self.table, "_rowid", list(rows))
            return
        self.tombstones.add(
            pa.table(
                {
                    "rowid": pa.array(list(rows), pa.uint64()),
                    "id": [v[0] for v in rows.values()],
                    "namespace": [v[1] for v in rows.values()],
                    "type": [v[2] for v in rows.values()],
                },
                schema=tombstone_schema(),
            )
        )
        self.dead = self.dead.with_rows(rows)

    @reader
    def health(self) -> dict[str, Any]:
        """Fragments, versions and unindexed rows of the memories table (cheap: metadata)."""
        frag = self.table.stats()["fragment_stats"]
        unindexed = 0
        for idx in self.table.list_indices():
            st = self.table.index_stats(idx.name)
            if st is not None:
                unindexed = max(unindexed, int(st.num_unindexed_rows))
        return {
            "rows": self.count(),
            "vector_index": self.indexes.vector,
            "fragments": int(frag["num_fragments"]),
            "unindexed_rows": unindexed,
            "dead_rows": len(self.dead.rows),
            "versions": self._version_count(),
            "version": int(self.table.version),
        }

    def _version_count(self) -> int:
        """The memories table's versions: its manifests on disk. (LanceDB's `list_versions`
        reads every manifest, and fails when a pass's cleanup removes one meanwhile.)"""
        if self.shared:  # (listed in the bucket: LanceDB's list_versions reads every manifest)
            if self._bucket is None:
                self._bucket = Bucket(self.location.root, self.location.options)
            return self._bucket.count(f"{TABLE}.lance/_versions", ".manifest")
        try:
            return sum(1 for name in os.listdir(self.table_dir / "_versions") if name.endswith(".manifest"))
        except FileNotFoundError:
            return 0
