"""The write-ahead log: an acknowledged write survives ``kill -9`` and power loss.

LanceDB commits atomically but never fsyncs, so a power loss can take back commits it already
made. The writer therefore appends every committed change to this log — one ``write`` and one
``fdatasync`` per group commit (docs/storage.md) — *after* LanceDB has committed it and
*before* any client is told it is stored:

- a crash before the append loses only writes nobody was told about (they may or may not be in
  the table; either way they are whole rows — LanceDB commits are atomic);
- a crash after it loses nothing: at start the log is replayed into the tables
  (`omegad.app.recovery`, which knows what the records mean), idempotently by
  id (the newest commit stamp of a memory wins; a replayed row that the table already holds is
  not written again), so replaying twice, or replaying what survived anyway, changes nothing.

A new memory may also be logged *before* its commit (a store acknowledged at the log,
`omegad.app.pending`): its record is the same row record, so replay treats both alike.

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
import threading
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import msgpack
import structlog

from omegad.storage.fsutil import fsync_dir
from omegad.timeutil import now_us

__all__ = ["LogStats", "WriteAheadLog"]

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


class LogStats(NamedTuple):
    """The write-ahead log's figures (``stats`` → ``store.wal``)."""

    segments: int  # segment files on disk
    bytes: int  # bytes logged since the last checkpoint
    appends: int  # appends (one per group commit) since start


class WriteAheadLog:
    def __init__(self, directory: Path, *, sync: bool = True) -> None:
        self.directory = directory
        self.sync = sync
        directory.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = None
        self.seq = max(self.segments(), default=0)
        self.bytes = 0  # appended since the last checkpoint (all live segments)
        self.appends = 0
        # the writer thread (commits, checkpoints) and the log thread (stores acknowledged at
        # the log) both append; reentrant, so a checkpoint can hold it across rotate + append
        self.lock = threading.RLock()

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
        with self.lock:
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
        with self.lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    # -- appending -------------------------------------------------------------------------

    def append(self, records: Sequence[dict[str, Any]]) -> None:
        """Append *records* and make them durable (one write, one fdatasync)."""
        with self.lock:
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
        with self.lock:
            closed = self.seq
            self.open_segment()
            return closed

    def mark_durable_through(self, us: int) -> None:
        """Record, in the live segment's header, that everything committed before *us* is
        durable in the tables (a checkpoint that could not start a new segment: the disk is
        full). It rewrites bytes the file already has, so it needs no new space."""
        with self.lock:
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
        with self.lock:
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

    def stats(self) -> LogStats:
        return LogStats(segments=len(self.segments()), bytes=self.bytes, appends=self.appends)
