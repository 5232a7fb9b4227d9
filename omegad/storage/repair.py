"""Crash repair at open and in passes: the dead rows loaded from the tombstones (without those
a crash left behind of rows already gone), and the duplicate versions an update interrupted
between its two commits leaves (the older retired)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from omegad.storage.commits import delete_in
from omegad.storage.rows import TABLE, TOMBSTONES, open_or_create, tombstone_schema
from omegad.storage.tombstones import BURYING, RETIRING, DeadRows

if TYPE_CHECKING:
    from omegad.storage.store import MemoryStore

__all__ = ["load_dead_rows", "repair_duplicates"]


def load_dead_rows(store: MemoryStore) -> None:
    """Load the dead rows; after a crash between an update's two commits, retire the
    older of the two live versions it left (`repair_duplicates`)."""
    store.tombstones = open_or_create(store.side_db, TOMBSTONES, tombstone_schema(), store.location)
    tbl = store.tombstones.search().limit(None).to_arrow()
    frags = set(store.ops.fragments(TABLE)) if tbl.num_rows else set()
    rows: dict[int, tuple[str, str, str]] = {}
    for rid, mid, ns, ty in zip(
        *(tbl.column(c).to_pylist() for c in ("rowid", "id", "namespace", "type")), strict=True
    ):
        if int(rid) >> 32 in frags:  # (else the row is gone already)
            rows[int(rid)] = (mid, ns, ty)
    store.dead = DeadRows.of(rows)
    purge_marker = store.directory / BURYING
    if purge_marker.exists():
        store.dead = _existing(store, store.dead)
        purge_marker.unlink()
    marker = store.directory / RETIRING
    if marker.exists():
        with store.commit_lock:
            repair_duplicates(store)
        marker.unlink()


def _existing(store: MemoryStore, dead: DeadRows) -> DeadRows:
    """*dead* without the rows that are no longer in the table (and their tombstones)."""
    rowids = list(dead.rows)
    found: set[int] = set()
    for start in range(0, len(rowids), 1_000):
        chunk = ", ".join(str(r) for r in rowids[start : start + 1_000])
        tbl = store.table.search().where(f"_rowid IN ({chunk})").select(["_rowid"]).limit(None).to_arrow()
        found.update(int(r) for r in tbl.column("_rowid").to_pylist())
    gone = [r for r in rowids if r not in found]
    delete_in(store.tombstones, "rowid", gone)
    return dead.without_rows(gone)


def repair_duplicates(store: MemoryStore) -> int:
    """Retire every live row but the newest of each id (a crash between an update's
    commit of the new row and its retiring of the old one left both). Returns how many."""
    tbl = store.dead.drop(
        store.table.search().select(["id", "namespace", "type", "updated_at", "_rowid"]).limit(None).to_arrow()
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
    store.delete_rows(extra)
    return len(extra)
