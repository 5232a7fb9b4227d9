"""The write-ahead log: an acknowledged write survives ``kill -9`` and power loss.

LanceDB commits atomically but never fsyncs, so a power loss can take back commits it already
made. The writer therefore appends every committed change to this log — one ``write`` and one
``fdatasync`` per group commit (docs/storage.md) — *after* LanceDB has committed it and
*before* any client is told it is stored:

- a crash before the append loses only writes nobody was told about (they may or may not be in
  the table; either way they are whole rows — LanceDB commits are atomic);
- a crash after it loses nothing: at start the log is replayed into the tables, idempotently by
  id (the newest commit stamp of a memory wins; a replayed row that the table already holds is
  not written again), so replaying twice, or replaying what survived anyway, changes nothing.

A *checkpoint* (part of maintenance, and at a clean shutdown) starts a new segment, fsyncs every
file of the tables, then deletes the older segments: their content is then durable in LanceDB.

Segments are ``wal/<seq>.log``: a magic line and the time the segment was opened, then frames
``u32 length · u32 crc32 · msgpack``. Everything committed before the oldest live segment was
opened is durable in the tables.
A torn frame at the end of a segment (a crash mid-append) ends that segment; nothing in it was
acknowledged. Blocking; used from the writer thread (and at start, before serving).
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import msgpack
import numpy as np
import structlog

from .contradictions.edges import Edge, EdgeStore, edge_from
from .fsutil import fsync_dir
from .signals import MemorySignals, SignalStore, signal_from
from .store import MemoryStore, Row
from .timeutil import now_us

__all__ = ["WriteAheadLog", "final_state", "replay"]

log = structlog.get_logger("omegad")

MAGIC = b"OMEGAD-WAL 1\n"
# After the magic: when the segment was opened (µs since epoch); everything committed before
# it is durable in the tables (a checkpoint without a new segment moves it: `mark_durable_through`).
OPENED = struct.Struct("<q")
HEADER = len(MAGIC) + OPENED.size
FRAME = struct.Struct("<II")  # payload length, crc32 of the payload
MAX_RECORD = 64 << 20


@dataclass
class ReadResult:
    records: list[dict[str, Any]] = field(default_factory=list)
    segments: int = 0
    torn: int = 0  # segments that ended in a torn (unacknowledged) frame
    corrupt: int = 0  # frames with a bad checksum before the end of a segment


class WriteAheadLog:
    def __init__(self, directory: Path, *, sync: bool = True) -> None:
        self.directory = directory
        self.sync = sync
        directory.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = None
        self.seq = max(self.segments(), default=0)
        self.bytes = 0  # appended since the last checkpoint (all live segments)
        self.appends = 0

    # -- segments --------------------------------------------------------------------------

    def segments(self) -> list[int]:
        out = []
        for p in self.directory.glob("*.log"):
            try:
                out.append(int(p.stem))
            except ValueError:
                continue
        return sorted(out)

    def _path(self, seq: int) -> Path:
        return self.directory / f"{seq:012d}.log"

    def read(self) -> ReadResult:
        """Every record of every segment, oldest first (used before the first append)."""
        out = ReadResult()
        for seq in self.segments():
            out.segments += 1
            data = self._path(seq).read_bytes()
            if not data.startswith(MAGIC) or len(data) < HEADER:
                if len(data) >= HEADER or not MAGIC.startswith(data[: len(MAGIC)]):
                    out.corrupt += 1
                    log.error("wal_segment_unreadable", segment=seq)
                continue  # else: created, then a crash before its header was complete
            pos = HEADER
            while pos < len(data):
                if pos + FRAME.size > len(data):
                    out.torn += 1
                    break
                length, crc = FRAME.unpack_from(data, pos)
                start, end = pos + FRAME.size, pos + FRAME.size + length
                if end > len(data):
                    out.torn += 1
                    break
                payload = data[start:end]
                if zlib.crc32(payload) != crc or length > MAX_RECORD:
                    # torn at the tail, or corrupt in the middle: either way stop here
                    if end == len(data):
                        out.torn += 1
                    else:
                        out.corrupt += 1
                        log.error("wal_frame_corrupt", segment=seq, offset=pos)
                    break
                out.records.append(msgpack.unpackb(payload, raw=False))
                pos = end
        return out

    def open_segment(self) -> None:
        """Start a new segment (at start, at each checkpoint, and after a failed append)."""
        self.close()
        self.seq += 1
        fd = os.open(self._path(self.seq), os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, MAGIC + OPENED.pack(now_us()))
            if self.sync:
                os.fsync(fd)
                fsync_dir(self.directory)
        except BaseException:
            os.close(fd)  # (nothing in it: a half-written header would be skipped on replay)
            self._path(self.seq).unlink(missing_ok=True)
            raise
        self._fd = fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    # -- appending -------------------------------------------------------------------------

    def append(self, records: Sequence[dict[str, Any]]) -> None:
        """Append *records* and make them durable (one write, one fdatasync)."""
        if not records:
            return
        if self._fd is None:
            self.open_segment()
        assert self._fd is not None
        parts = []
        for r in records:
            payload = msgpack.packb(r, use_bin_type=True)
            parts.append(FRAME.pack(len(payload), zlib.crc32(payload)))
            parts.append(payload)
        buf = memoryview(b"".join(parts))
        try:
            while buf:
                n = os.write(self._fd, buf)
                buf = buf[n:]
            if self.sync:
                os.fdatasync(self._fd)
        except BaseException:
            # Part of a frame may be on disk (a full disk), and after a failed fdatasync the
            # page cache may hold what the disk does not: this segment ends here (its torn
            # tail is ignored on replay) and the next append starts a new one, so nothing
            # appended later sits behind the torn frame.
            self.close()
            raise
        self.bytes += sum(len(p) for p in parts)
        self.appends += 1

    def rotate(self) -> int:
        """Start a new segment; returns the newest *closed* one (for `drop_through`)."""
        closed = self.seq
        self.open_segment()
        return closed

    def mark_durable_through(self, us: int) -> None:
        """Record, in the live segment's header, that everything committed before *us* is
        durable in the tables (a checkpoint that could not start a new segment: the disk is
        full). It rewrites bytes the file already has, so it needs no new space."""
        live = self.segments()
        if not live:
            return
        fd = os.open(self._path(live[0]), os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.pwrite(fd, OPENED.pack(us), len(MAGIC))
            if self.sync:
                os.fdatasync(fd)
        finally:
            os.close(fd)

    def newest_closed(self) -> int:
        """The newest segment that takes no more appends (0: none)."""
        return self.seq if self._fd is None else self.seq - 1

    def drop_through(self, seq: int) -> int:
        """Delete segments up to *seq* (their content is durable in the tables)."""
        n = 0
        for s in self.segments():
            if s <= seq:
                self._path(s).unlink(missing_ok=True)
                n += 1
        if n and self.sync:
            fsync_dir(self.directory)
        self.bytes = sum(max(0, self._path(s).stat().st_size - HEADER) for s in self.segments())
        return n

    def durable_through_us(self) -> int | None:
        """When the oldest live segment was opened: everything committed before is durable in
        the tables (None without a readable segment)."""
        for seq in self.segments():
            try:
                with self._path(seq).open("rb") as f:
                    head = f.read(HEADER)
            except FileNotFoundError:
                continue
            if len(head) == HEADER and head.startswith(MAGIC):
                return int(OPENED.unpack_from(head, len(MAGIC))[0])
        return None

    def stats(self) -> dict[str, Any]:
        return {"segments": len(self.segments()), "bytes": self.bytes, "appends": self.appends}


# -- record encoding -------------------------------------------------------------------------


def row_record(row: Any) -> dict[str, Any]:
    return {
        "t": "row",
        "id": row.id,
        "text": row.text,
        "type": row.type,
        "tags": list(row.tags),
        "ns": row.namespace,
        "meta": row.metadata,
        "c": row.created_at,
        "u": row.updated_at,
        "v": row.version,
        "vec": np.asarray(row.vector, dtype="<f4").tobytes(),
    }


def delete_record(memory_id: str, stamp: int) -> dict[str, Any]:
    return {"t": "del", "id": memory_id, "u": stamp}


def edge_record(edge: Edge) -> dict[str, Any]:
    """The edge's fields under their table names (read back with `edge_from`)."""
    return {"t": "edge", **asdict(edge), "signals": list(edge.signals)}


def edge_delete_record(edge_id: str) -> dict[str, Any]:
    return {"t": "edel", "id": edge_id}


def signal_record(memory_id: str, s: MemorySignals) -> dict[str, Any]:
    """The signal's fields under their table names (read back with `signal_from`)."""
    return {"t": "sig", "id": memory_id, **asdict(s)}


@dataclass
class FinalState:
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)  # ``row`` or ``del`` by memory id
    edges: dict[str, dict[str, Any]] = field(default_factory=dict)  # ``edge`` or ``edel`` by edge id
    signals: dict[str, dict[str, Any]] = field(default_factory=dict)  # ``sig`` by memory id


def final_state(records: Sequence[dict[str, Any]]) -> FinalState:
    """Reduce a log to the last word on each memory, edge and signal. A memory deleted after an
    edge to it or a signal of it was written takes them with it (as the live delete did)."""
    out = FinalState()
    touching: dict[str, set[str]] = {}  # memory id -> edge ids logged
    for r in records:
        t = r.get("t")
        if t in ("row", "del"):
            out.rows[r["id"]] = r
            if t == "del":
                for eid in touching.pop(r["id"], set()):
                    out.edges[eid] = edge_delete_record(eid)
                out.signals.pop(r["id"], None)
        elif t in ("edge", "edel"):
            out.edges[r["id"]] = r
            if t == "edge":
                touching.setdefault(r["source"], set()).add(r["id"])
                touching.setdefault(r["target"], set()).add(r["id"])
        elif t == "sig":
            out.signals[r["id"]] = r
    return out


def replay(
    records: Sequence[dict[str, Any]], store: MemoryStore, edges: EdgeStore, signals: SignalStore | None = None
) -> dict[str, Any]:
    """Bring the tables up to the log (idempotent: what they already hold is not rewritten)."""
    state = final_state(records)
    rows, eds = state.rows, state.edges
    stamps = store.stamps(rows)
    upsert = [_row(r) for r in rows.values() if r["t"] == "row" and stamps.get(r["id"], -1) < r["u"]]
    deletes = [i for i, r in rows.items() if r["t"] == "del" and i in stamps and stamps[i] <= r["u"]]
    store.upsert(upsert)
    store.delete(deletes)
    for memory_id in deletes:
        edges.delete_touching(memory_id)
    known = {e.id: e for e in edges.load()}
    edge_upserts = [e for e in (edge_from(r) for r in eds.values() if r["t"] == "edge") if known.get(e.id) != e]
    edge_deletes = [i for i, r in eds.items() if r["t"] == "edel" and i in known]
    edges.upsert(edge_upserts)
    edges.delete(edge_deletes)
    report = {
        "rows_restored": len(upsert),
        "rows_deleted": len(deletes),
        "edges_restored": len(edge_upserts),
        "edges_deleted": len(edge_deletes),
    }
    if signals is not None:
        signals.delete([i for i, r in rows.items() if r["t"] == "del"])
        have = signals.load()
        restore = {mid: signal_from(r) for mid, r in state.signals.items() if rows.get(mid, {"t": "row"})["t"] == "row"}
        restore = {mid: s for mid, s in restore.items() if have.get(mid) != s}
        signals.upsert(restore)
        report["signals_restored"] = len(restore)
    return report


def _row(r: dict[str, Any]) -> Row:
    return Row(
        id=r["id"],
        text=r["text"],
        type=r["type"],
        tags=list(r["tags"]),
        namespace=r["ns"],
        metadata=dict(r["meta"] or {}),
        created_at=int(r["c"]),
        updated_at=int(r["u"]),
        version=int(r["v"]),
        vector=np.frombuffer(r["vec"], dtype="<f4").astype(np.float32),
    )
