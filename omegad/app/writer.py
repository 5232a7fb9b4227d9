"""The writer: applies batches of write operations in order, in the writer thread, in as few
commits as possible, and logs what committed to the write-ahead log (one fdatasync) before
any of them is acknowledged. It is the only code that commits to the tables, so
check-then-write sequences (idempotent ids, deletes, edges to deleted memories) need no
further locking."""

from __future__ import annotations

import errno
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import structlog

from omegad.app.faults import STORAGE, Faults
from omegad.app.history import TABLE as HISTORY_TABLE
from omegad.app.history import TOMBSTONE, HistoryStore, Past, edge_past, version_past
from omegad.app.ops import (
    DeleteOp,
    FeedbackOp,
    ImportOp,
    ImportResult,
    InsertOp,
    MaintainOp,
    Merged,
    SnapshotOp,
    UpdateOp,
    WriteOp,
)
from omegad.app.recovery import (
    delete_record,
    edge_delete_record,
    edge_record,
    forget_record,
    history_record,
    row_record,
    signal_record,
)
from omegad.app.textkeys import TextKeys
from omegad.config import Config
from omegad.contradictions.duplicates import text_key
from omegad.contradictions.edges import EDGES_TABLE, Edge, EdgeOp, EdgeStore, edge_id
from omegad.errors import NotFound, ServiceError, Unavailable, error_text
from omegad.requests import FeedbackParams
from omegad.storage.fsutil import fsync_tree
from omegad.storage.rows import TABLE as MEMORIES_TABLE
from omegad.storage.rows import Row
from omegad.storage.signals import TABLE as SIGNALS_TABLE
from omegad.storage.signals import Signals, SignalStore
from omegad.storage.store import MemoryStore
from omegad.storage.wal import WriteAheadLog
from omegad.timeutil import now_us, to_micros

__all__ = ["DELETES_REMEMBERED", "WriteBatch", "Writer"]

log = structlog.get_logger("omegad")

#: Deletes the writer remembers, so that an edge to a memory deleted while it was being
#: checked is refused without a storage query (`Writer._alive`).
DELETES_REMEMBERED = 10_000


#: Stores remembered by their normalised text (`RecentTexts`).
RECENT_TEXTS = 10_000


class RecentTexts:
    """The normalised texts of the latest stores, per namespace: an exact duplicate stored
    after the search that looked for one (a race of two clients, or one batch) still merges."""

    def __init__(self, size: int = RECENT_TEXTS) -> None:
        self.size = size
        self._by_key: OrderedDict[tuple[str, bytes], str] = OrderedDict()
        self._by_id: dict[str, tuple[str, bytes]] = {}
        self.added = 0  # (read from the event loop as a mark: `lost_since`)

    def add(self, row: Row) -> None:
        key = (row.namespace, text_key(row.text))
        self._by_key[key] = row.id
        self._by_id[row.id] = key
        self.added += 1
        if len(self._by_key) > self.size:
            _, old = self._by_key.popitem(last=False)
            self._by_id.pop(old, None)

    def get(self, namespace: str, key: bytes) -> str | None:
        return self._by_key.get((namespace, key))

    def lost_since(self, mark: int) -> bool:
        """Whether a text added after `added` was *mark* may have been forgotten since."""
        return self.added - mark > self.size

    def discard(self, memory_id: str) -> None:
        key = self._by_id.pop(memory_id, None)
        if key is not None and self._by_key.get(key) == memory_id:
            del self._by_key[key]


@dataclass
class WriteBatch:
    """What one batch logs: its write-ahead log records, and the ops that wrote them (told
    of a failed append)."""

    records: list[dict[str, Any]] = field(default_factory=list)
    ops: list[int] = field(default_factory=list)

    def log(self, index: int, *records: dict[str, Any]) -> None:
        self.records.extend(records)
        self.ops.append(index)


class Writer:
    """The writer thread's state and its batch application (`apply`, the write queue's
    handler). *maintain* answers a `MaintainOp` (the maintenance scheduler's part of a pass
    that must not run beside commits)."""

    def __init__(
        self,
        config: Config,
        store: MemoryStore,
        edges: EdgeStore,
        signals: Signals,
        wal: WriteAheadLog,
        faults: Faults,
        *,
        maintain: Callable[[MaintainOp], Any],
    ) -> None:
        self.config = config
        self.store = store
        self.edges = edges
        self.signals = signals
        self.wal = wal
        self.faults = faults
        self.signal_store: SignalStore | None = None  # opened (blocking) at start-up
        self.shared_signals = False  # a team store: other hosts write shares of the same memories
        self.history_store: HistoryStore | None = None  # (likewise)
        self.maintain = maintain
        # recent deletes (id → commit stamp), oldest first, and the newest one forgotten
        self._deleted_at: OrderedDict[str, int] = OrderedDict()
        self._deleted_horizon = 0
        # memories given an edge by this writer: the event loop's graph learns of an edge only
        # after its write returns, so a delete decided before that must still remove it (else
        # the edge outlives its memory, and an export carries it)
        self._edge_ends: set[str] = set()
        self.last_stamp = 0
        self._stamp_lock = threading.Lock()  # stores acknowledged at the log are stamped on the loop
        # the rows acknowledged at the log and not committed yet (`Pending.snapshot`): a
        # checkpoint logs them again, since it deletes the segments that held them
        self.pending_rows: Callable[[], list[Row]] = list
        # Log records of writes that committed to the tables but whose log append failed.
        # Nothing that depends on them is acknowledged until they are in the log or a
        # checkpoint has fsynced the tables; no other write commits meanwhile.
        self._unlogged: list[dict[str, Any]] = []
        self.rows_since_maintenance = 0
        self.commits_since_maintenance = 0
        self._forgot = False  # a forget in this batch: checkpoint the log away after it
        self.texts = RecentTexts()
        #: the texts of every commit, noted before it is answered (`TextKeys`); set by the service
        self.text_keys: TextKeys | None = None

    @property
    def signals_table(self) -> SignalStore:
        assert self.signal_store is not None, "the service has not started"
        return self.signal_store

    @property
    def history(self) -> HistoryStore:
        assert self.history_store is not None, "the service has not started"
        return self.history_store

    def side_tables(self) -> list[Any]:
        """The tables beside the memories that maintenance compacts and cleans too."""
        return [self.edges.table, self.signals_table.table, self.history.table]

    def _keep_past(self, index: int, batch: WriteBatch, records: list[Past]) -> None:
        """Write what a change replaces to the history table (before the change commits: a
        crash between the two leaves a record of a version still current, which ``as_of``
        reads take for what it is, never a lost version)."""
        if records:
            self.history.add(records)
            batch.log(index, *(history_record(p) for p in records))

    def apply(self, ops: list[WriteOp]) -> list[Any]:
        """Apply a batch of writes in order, in as few commits as possible, then log what
        committed to the write-ahead log (one fdatasync) before anyone is told."""
        if not self.faults.data_dir_ok():  # a commit now would land nowhere durable
            return [self.faults.error("data_dir_missing")] * len(ops)
        blocked = self.faults.space_for_writes() or self._log_unlogged()
        if blocked is not None:
            # Below the disk reserve, or an earlier batch committed but is not durable yet (no
            # write may commit, or answer "already stored" for it, until it is). Passes and
            # snapshots change no memory: they still run.
            results: list[Any] = [blocked] * len(ops)
            free = [k for k, op in enumerate(ops) if isinstance(op, MaintainOp | SnapshotOp)]
            if free:
                sub: list[Any] = [None] * len(free)
                self._apply_ops([ops[k] for k in free], sub, WriteBatch())
                for k, r in zip(free, sub, strict=True):
                    results[k] = r
            return results
        results = [None] * len(ops)
        batch = WriteBatch()
        self._apply_ops(ops, results, batch)
        if batch.records:
            try:
                self.append_durably(batch.records)
            except Exception as exc:
                # committed but not durable: not acknowledged, and kept to be logged before any
                # later write (a retry of the same id must not answer "already stored" before)
                self._unlogged.extend(batch.records)
                err = self._log_error(exc)
                for k in batch.ops:
                    if not isinstance(results[k], Exception):
                        results[k] = err
        if self._forgot:
            # the log still holds the forgotten text: make the tables durable and drop it now
            self._forgot = False
            try:
                self.checkpoint()
            except Exception as exc:  # the next maintenance pass drops it instead
                log.warning("forget_checkpoint_failed", error=error_text(exc))
        return results

    def checkpoint(self, rotate: bool = True) -> dict[str, Any]:
        """Make everything committed so far durable in the tables, then drop the log segments
        that held it (writer thread: nothing commits meanwhile). Without *rotate* the segment
        being appended to stays (a new one needs space a full disk may not have)."""
        started = now_us()
        with self.wal.lock:  # (no store is logged between the two)
            closed = self.wal.rotate() if rotate else self.wal.newest_closed()
            # stores acknowledged at the log but not committed stay in the log
            self.wal.append([row_record(r) for r in self.pending_rows()])
        files = fsync_tree(self.store.directory)
        self._unlogged = []  # durable in the tables now
        dropped = self.wal.drop_through(closed)
        if not rotate:
            # the live segment's header must say so before old versions may go (else the
            # log claims less is durable than the versions left on disk can show)
            self.wal.mark_durable_through(started)
        return {"files_synced": files, "wal_segments_dropped": dropped}

    def save_access_counts(self) -> int:
        dirty = self.signals.take_dirty()
        try:
            if self.shared_signals and dirty:
                # another host may have deleted some of these memories (and every share of
                # them): a count saved now would bring a share of a deleted memory back, so
                # look at the table as it is now, not as of the last visibility interval
                self.store.table.checkout_latest()
                alive = self.store.existing_ids(list(dirty)) | {r.id for r in self.pending_rows()}
                for memory_id in set(dirty) - alive:
                    self.signals.forget(memory_id)
                dirty = {m: s for m, s in dirty.items() if m in alive}
            self.signals_table.upsert(dirty)
        except Exception:
            self.signals.unsaved(dirty)  # next time
            raise
        return len(dirty)

    def stamp(self) -> int:
        """A commit stamp: now in µs, strictly increasing (any thread: the intake stamps the
        stores it acknowledges at the log). Rows carry it as ``updated_at``, so commit order
        can be recovered from the table."""
        with self._stamp_lock:
            self.last_stamp = max(now_us(), self.last_stamp + 1)
            return self.last_stamp

    # -- the log -----------------------------------------------------------------------------

    def append_durably(self, records: list[dict[str, Any]]) -> None:
        if self.store.shared:  # a team store's commit is durable in the bucket (omegad.app.team)
            return
        self.wal.append(records)
        if not self.faults.data_dir_ok():  # deleted meanwhile: the log went with it
            raise FileNotFoundError(errno.ENOENT, "the data directory was deleted", str(self.config.data_dir))
        self.faults.clear(*STORAGE)  # a durable write: the file system takes writes again

    def log_new_rows(self, records: list[dict[str, Any]]) -> list[None]:
        """Append the rows of stores acknowledged before their commit (the log thread), unless
        writes are refused as `apply` refuses them: the data directory is gone, or the disk
        is below its reserve."""
        if not self.faults.data_dir_ok():
            raise self.faults.error("data_dir_missing")
        blocked = self.faults.space_for_writes()
        if blocked is not None:
            raise blocked
        self.append_durably(records)
        return [None] * len(records)

    def _log_error(self, exc: Exception) -> ServiceError:
        log.error("wal_append_failed", error=error_text(exc), unlogged=len(self._unlogged))
        return self.faults.storage_error(exc, "the write-ahead log append failed") or Unavailable(
            f"the write could not be made durable: {error_text(exc)}"
        )

    def _log_unlogged(self) -> ServiceError | None:
        """Append what committed without reaching the log; the error if that still fails."""
        if not self._unlogged:
            return None
        try:
            self.append_durably(self._unlogged)
        except Exception as exc:
            return self._log_error(exc)
        log.info("wal_caught_up", records=len(self._unlogged))
        self._unlogged = []
        return None

    # -- the operations ----------------------------------------------------------------------

    def _apply_ops(self, ops: list[WriteOp], results: list[Any], batch: WriteBatch) -> None:
        i = 0
        while i < len(ops):
            op = ops[i]
            if isinstance(op, InsertOp):  # a run of inserts: one commit
                j = i
                while j < len(ops) and isinstance(ops[j], InsertOp):
                    j += 1
                self._apply_inserts(ops, i, j, results, batch)
                i = j
                continue
            try:
                match op:
                    case UpdateOp():
                        results[i] = row = self._apply_update(op, i, batch)
                        batch.log(i, row_record(row))
                    case DeleteOp():
                        results[i] = self._apply_delete(op, i, ops, results, batch)
                    case EdgeOp():
                        results[i] = self._apply_edges(op, i, batch)
                    case FeedbackOp():
                        results[i] = self._apply_feedback(i, op.params, batch)
                    case SnapshotOp():
                        results[i] = self._snapshot()
                    case ImportOp():
                        results[i] = self._apply_import(i, op, batch)
                    case MaintainOp():
                        results[i] = self.maintain(op)
            except Exception as exc:
                results[i] = exc
            i += 1

    def _apply_inserts(self, ops: list[WriteOp], start: int, end: int, results: list[Any], batch: WriteBatch) -> None:
        inserts = [op for op in ops[start:end] if isinstance(op, InsertOp)]
        try:
            # Daemon-generated ids are fresh UUIDs: only client-chosen ids need the lookup.
            seen = self.store.existing_ids(op.row.id for op in inserts if op.client_id)
            named = self.store.get_many({op.same_as for op in inserts if op.same_as is not None})
            new_rows: dict[str, Row] = {}
            flags: list[bool | Merged] = []
            for k, op in enumerate(inserts):
                created = op.row.id not in seen
                if op.logged and not created:  # (an import of the same id came in between)
                    log.error("acknowledged_store_id_taken", id=op.row.id)
                if created and op.merge:
                    merged = self._merge(start + k, op, named, new_rows, batch)
                    if merged is not None:
                        flags.append(merged)
                        continue
                if created:
                    seen.add(op.row.id)
                    op.row.updated_at = self.stamp()
                    new_rows[op.row.id] = op.row
                    if op.merge or op.logged:
                        self.texts.add(op.row)
                flags.append(created)
            self._note_texts(new_rows.values())
            chosen = any(op.client_id for op in inserts if op.row.id in new_rows)
            self.store.insert(list(new_rows.values()), chosen=chosen)
            if chosen and self.shared_signals:
                # a client's id may be one a deleted memory had, whose shares a host saved
                # as it was deleted: the new memory starts with none
                reused = [op.row.id for op in inserts if op.client_id and op.row.id in new_rows]
                self.signals_table.delete_if_any(reused)
                for memory_id in reused:
                    self.signals.forget(memory_id)
            self.rows_since_maintenance += len(new_rows)
            if new_rows:
                self.commits_since_maintenance += 1
            for k, flag in enumerate(flags):
                results[start + k] = flag
                if flag is True and not inserts[k].logged:
                    batch.log(start + k, row_record(inserts[k].row))
        except Exception as exc:
            for k in range(start, end):
                results[k] = exc

    def _merge(
        self, index: int, op: InsertOp, named: dict[str, Row], new_rows: dict[str, Row], batch: WriteBatch
    ) -> Merged | None:
        """Answer *op* with the memory of its namespace that has the same normalised text, if
        one exists (found before the write, or stored since: `RecentTexts`), its tags merged."""
        key = text_key(op.row.text)
        target = named.get(op.same_as) if op.same_as is not None else None
        if target is None or target.namespace != op.row.namespace or text_key(target.text) != key:
            found = self.texts.get(op.row.namespace, key)
            target = new_rows.get(found) if found is not None else None
            if found is not None and target is None:
                target = self.store.get_many([found]).get(found)
            if target is None or text_key(target.text) != key:
                return None
        tags = list(dict.fromkeys([*target.tags, *op.row.tags]))
        if tags == target.tags:
            return Merged(target, False)
        if target.id in new_rows:  # stored earlier in this batch: not committed yet
            target.tags = tags
            return Merged(target, False)
        stamp = self.stamp()
        updated = replace(target, tags=tags, updated_at=stamp)
        self._keep_past(index, batch, [version_past(target, stamp)])
        self.store.replace(updated)
        self.rows_since_maintenance += 1
        self.commits_since_maintenance += 1
        batch.log(index, row_record(updated))
        return Merged(updated, True)

    def _note_texts(self, rows: Iterable[Row]) -> None:
        """Tell `TextKeys` of texts about to be committed: before the commit, so that no
        moment sees the row in the table and not its digest (a commit that then fails only
        leaves a digest too many, which costs a store a search)."""
        if self.text_keys is not None:
            self.text_keys.add(rows)

    def _apply_update(self, op: UpdateOp, index: int, batch: WriteBatch) -> Row:
        p = op.params
        current = self.store.get_many([p.id]).get(p.id)
        if current is None:
            raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
        text_changed = p.text is not None and p.text != current.text
        stamp = self.stamp()
        row = Row(
            id=current.id,
            text=p.text if p.text is not None else current.text,
            type=p.type or current.type,
            tags=list(p.tags) if p.tags is not None else current.tags,
            namespace=current.namespace,
            metadata=dict(p.metadata) if p.metadata is not None else current.metadata,
            created_at=current.created_at,
            updated_at=stamp,
            version=current.version + 1 if text_changed else current.version,
            vector=current.vector,
        )
        # a vector embedded for another text (an update of that text came in between) is stale
        if op.vector is not None and op.embedded_text == row.text:
            row.vector = op.vector
        if text_changed:
            # (a store of the new text from now on merges into this memory)
            self.texts.discard(current.id)
            self.texts.add(row)
            self._note_texts([row])
        if (row.text, row.type, row.tags, row.metadata) != (current.text, current.type, current.tags, current.metadata):
            self._keep_past(index, batch, [version_past(current, stamp)])
        self.store.replace(row)
        self.rows_since_maintenance += 1
        self.commits_since_maintenance += 1
        return row

    def _apply_delete(self, op: DeleteOp, i: int, ops: list[WriteOp], results: list[Any], batch: WriteBatch) -> bool:
        current = self.store.get_many([op.id]).get(op.id)
        if current is None:
            if op.forget and self.history.of_memory(op.id):  # deleted before: erase its past
                self.history.forget(op.id)
                batch.log(i, forget_record(op.id, self.stamp()))
                self._forgot = True
                return True
            return False
        stamp = self.stamp()
        touching = op.has_edges or op.id in self._edge_ends
        if op.forget:
            self.history.forget(op.id)
        else:
            past = [version_past(current, stamp, TOMBSTONE)]
            if touching:
                past += [edge_past(e, stamp) for e in self.edges.touching(op.id)]
            self._keep_past(i, batch, past)
        self.store.delete([op.id])
        self.texts.discard(op.id)
        if touching:
            self.edges.delete_touching(op.id)
        self._edge_ends.discard(op.id)
        # edges written earlier in this batch are gone too: their writers (the checker,
        # `resolve`) add what the write reports to the graph
        for k in range(i):
            if isinstance(ops[k], EdgeOp) and isinstance(results[k], list):
                results[k][:] = [e for e in results[k] if op.id not in (e.source, e.target)]
        if self.signals.forget(op.id) or self.shared_signals:  # (other hosts' shares too)
            self.signals_table.delete([op.id])
        self.commits_since_maintenance += 1
        batch.log(i, delete_record(op.id, stamp))
        if op.forget:
            batch.log(i, forget_record(op.id, stamp))
            self._forgot = True
        self._deleted_at[op.id] = stamp
        if len(self._deleted_at) > DELETES_REMEMBERED:
            _, self._deleted_horizon = self._deleted_at.popitem(last=False)
        return True

    def _apply_edges(self, op: EdgeOp, i: int, batch: WriteBatch) -> list[Edge]:
        # serialised with deletes: never (re)write an edge to a deleted memory
        alive = self._alive({m for e in op.upsert for m in (e.source, e.target)}, op.seen)
        kept = [e for e in op.upsert if e.source in alive and e.target in alive]
        if op.delete:
            stamp = self.stamp()
            self._keep_past(i, batch, [edge_past(e, stamp) for e in self.edges.by_ids(op.delete)])
        self.edges.upsert(kept)
        self._edge_ends.update(m for e in kept for m in (e.source, e.target))
        self.edges.delete(op.delete)
        batch.log(i, *(edge_record(e) for e in kept), *(edge_delete_record(d) for d in op.delete))
        return kept

    def _alive(self, ids: set[str], seen: dict[str, int]) -> set[str]:
        """Which of *ids* still exist, for memories the caller read at the commit stamps in
        *seen*: deleted since is known from the deletes the writer remembers; only an id read
        before the oldest of them, or not in *seen*, costs a storage query."""
        unsure = {m for m in ids if seen.get(m, 0) <= self._deleted_horizon}
        alive = {m for m in ids - unsure if self._deleted_at.get(m, 0) <= seen[m]}
        return alive | (self.store.existing_ids(unsure) if unsure else set())

    def _apply_feedback(self, index: int, p: FeedbackParams, batch: WriteBatch) -> dict[str, Any]:
        current = self.store.get_many([p.id]).get(p.id)
        if current is None:
            raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
        state = self.signals.rated(p.id, current.namespace, p.score)
        self.signals_table.upsert({p.id: state})
        self.signals.set(p.id, state)
        batch.log(index, signal_record(p.id, state))
        return {"id": p.id, **self.signals.by_id[p.id].public(), "hidden": self.signals.hidden(p.id)}

    def _snapshot(self) -> tuple[dict[str, int], Any]:
        """The tables' versions and the dead rows, pinned together for an export."""
        self.save_access_counts()  # so the export has them
        version, dead = self.store.pin()
        versions = {
            MEMORIES_TABLE: version,
            EDGES_TABLE: int(self.edges.table.version),
            SIGNALS_TABLE: int(self.signals_table.table.version),
            HISTORY_TABLE: int(self.history.table.version),
        }
        return versions, dead

    def _apply_import(self, index: int, op: ImportOp, batch: WriteBatch) -> ImportResult:
        """Write imported memories (new, or changed: replaced), their signals and edges."""
        out = ImportResult()
        existing = self.store.get_many(r.id for r in op.rows)
        new_rows: list[Row] = []
        changed: list[Row] = []
        replaced: list[Past] = []
        for row in op.rows:
            cur = existing.get(row.id)
            if cur is not None and (cur.text, cur.type, cur.tags, cur.namespace, cur.metadata, cur.created_at) == (
                row.text,
                row.type,
                row.tags,
                row.namespace,
                row.metadata,
                row.created_at,
            ):
                out.unchanged += 1
                continue
            row.updated_at = self.stamp()
            if cur is None:
                new_rows.append(row)
            else:
                row.version = cur.version + 1 if cur.text != row.text else cur.version
                changed.append(row)
                replaced.append(version_past(cur, row.updated_at))
        if op.history:  # an export's history: idempotent by record id
            self.history.upsert(op.history)
            batch.log(index, *(history_record(p) for p in op.history))
            out.history = len(op.history)
        self._keep_past(index, batch, replaced)
        self._note_texts(new_rows + changed)
        self.store.insert(new_rows)
        self.store.upsert(changed)
        out.created, out.updated, out.written = len(new_rows), len(changed), new_rows + changed
        if out.written:
            self.rows_since_maintenance += len(out.written)
            self.commits_since_maintenance += 1
            batch.log(index, *(row_record(r) for r in out.written))
        if op.signals:
            # an export holds each memory's signals, all hosts' together: this host's share
            # is what makes them so again
            shares = {mid: self.signals.share_for(mid, sig) for mid, sig in op.signals.items()}
            self.signals_table.upsert(shares)
            for mid, share in shares.items():
                self.signals.set(mid, share)
            batch.log(index, *(signal_record(mid, share) for mid, share in shares.items()))
        if op.edges:
            out.edges, out.edges_skipped = self._imported_edges(op)
            self.edges.upsert(out.edges)
            self._edge_ends.update(m for e in out.edges for m in (e.source, e.target))
            batch.log(index, *(edge_record(e) for e in out.edges))
        return out

    def _imported_edges(self, op: ImportOp) -> tuple[list[Edge], int]:
        """The edges of an import between memories that exist in one namespace, and how many
        were skipped."""
        ends = self.store.get_many({m for e in op.edges for m in (e.source, e.target)})
        edges, skipped = [], 0
        for e in op.edges:
            src, dst = ends.get(e.source), ends.get(e.target)
            if src is None or dst is None or src.namespace != dst.namespace:
                skipped += 1
                continue
            edges.append(
                Edge(
                    id=edge_id(e.kind, e.source, e.target),
                    kind=e.kind,
                    source=e.source,
                    target=e.target,
                    namespace=src.namespace,
                    confidence=e.confidence,
                    signals=e.signals,
                    source_version=src.version,
                    target_version=dst.version,
                    created_at=to_micros(e.created_at) if e.created_at else now_us(),
                    resolution=e.resolution,
                    resolved_at=to_micros(e.resolved_at) if e.resolved_at else None,
                )
            )
        return edges, skipped
