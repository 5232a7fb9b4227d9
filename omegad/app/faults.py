"""Degraded mode: conditions that keep the daemon from doing part of its job.

The daemon stays up through each of them, keeps serving what it still can, reports them in
``hello``, ``stats`` and ``omegad doctor``, refuses what it cannot do with a typed
``unavailable`` error whose ``data.reason`` is the problem's code and ``data.fix`` what to do,
and clears the problem by itself once the cause is gone:

=================== ========================================== ==============================
code                cause                                      what still works
=================== ========================================== ==============================
``disk_full``       ENOSPC, EDQUOT or EFBIG on a write         reads; writes resume once a
                                                               write succeeds again
``read_only``       EROFS, EACCES or EPERM on a write          reads; idem
``io_error``        EIO on a write                             reads; idem
``data_dir_missing`` the data directory was deleted or         nothing that touches the store;
                    replaced under the running daemon          restart (see the fix)
``embedder``        the embedding model cannot be loaded       get, delete, export, stats…;
                                                               reloaded when its files change
``model_damaged``   the loaded model's files changed on disk   everything (from the loaded
                    and no longer load                         copy); clears once they load
``store_unreachable`` a team store's bucket refuses or does    nothing that touches the store;
                    not answer (network, credentials)          clears once a read or write works
=================== ========================================== ==============================

A failed write is never acknowledged, and what was acknowledged before stays (see
``omegad.storage.wal``): a write either commits whole or not at all.
"""

from __future__ import annotations

import errno
import os
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from omegad.errors import Unavailable
from omegad.timeutil import iso, now_us

__all__ = ["EMBEDDER_FIX", "STORAGE", "Backoff", "Faults", "Problem", "classify"]

log = structlog.get_logger("omegad")

#: What fixes an embedding model that does not load (also said when the daemon cannot start).
EMBEDDER_FIX = "run `omegad models fetch` (or fix embedding.model_dir); the daemon reloads it by itself"

#: Problems a successful write proves gone.
STORAGE = ("disk_full", "read_only", "io_error", "store_unreachable")

_ERRNO_KIND = {
    errno.ENOSPC: "disk_full",
    errno.EDQUOT: "disk_full",
    errno.EFBIG: "disk_full",
    errno.EROFS: "read_only",
    errno.EACCES: "read_only",
    errno.EPERM: "read_only",
    errno.EIO: "io_error",
}
# LanceDB's Rust errors reach Python as RuntimeError/OSError text: "... (os error 28)".
_OS_ERROR = re.compile(r"\(os error (\d+)\)")
_TEXT_KIND = (
    ("No space left on device", "disk_full"),
    ("Disk quota exceeded", "disk_full"),
    ("File too large", "disk_full"),
    ("Read-only file system", "read_only"),
    ("Permission denied", "read_only"),
    ("Input/output error", "io_error"),
    # object_store's errors (a team store's bucket), as Lance and obstore pass them on
    ("Generic S3 error", "store_unreachable"),
    ("Generic GCS error", "store_unreachable"),
    ("Generic MicrosoftAzure error", "store_unreachable"),
    ("Generic DynamoDB error", "store_unreachable"),
)


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        yield cur
        cur = cur.__cause__ or cur.__context__


def classify(exc: BaseException) -> str | None:
    """The storage problem an exception shows, if any (``disk_full``, ``read_only``, ``io_error``)."""
    for e in _chain(exc):
        if isinstance(e, OSError) and e.errno in _ERRNO_KIND:
            return _ERRNO_KIND[e.errno]
        text = str(e)
        m = _OS_ERROR.search(text)
        if m and int(m.group(1)) in _ERRNO_KIND:
            return _ERRNO_KIND[int(m.group(1))]
        for needle, kind in _TEXT_KIND:
            if needle in text:
                return kind
    return None


@dataclass
class Problem:
    code: str
    message: str
    fix: str
    detail: str
    since_us: int
    count: int = 1

    def describe(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "fix": self.fix,
            "detail": self.detail,
            "since": iso(self.since_us),
            "count": self.count,
        }


class Faults:
    """The active problems (thread-safe: the writer thread reports, handlers read)."""

    def __init__(self, data_dir: Path, reserve_bytes: int = 0) -> None:
        self.data_dir = data_dir
        #: Free space kept on the data directory's file system: writes are refused below it,
        #: so a maintenance pass can still free space (docs/operations.md, "Degraded mode").
        self.reserve = reserve_bytes
        self._lock = threading.Lock()
        self.problems: dict[str, Problem] = {}
        st = os.stat(data_dir)
        self._dir_id = (st.st_dev, st.st_ino)

    def _texts(self, code: str) -> tuple[str, str]:
        d = self.data_dir
        return {
            "disk_full": (
                f"the file system holding {d} is full",
                f"free space on the file system holding {d}; writes resume by themselves",
            ),
            "read_only": (
                f"{d} is not writable",
                f"remount it read-write or let the daemon's user write to {d}; writes resume by themselves",
            ),
            "io_error": (
                f"I/O errors writing under {d}",
                "check the disk (dmesg, SMART); writes resume once a write succeeds",
            ),
            "data_dir_missing": (
                f"the data directory {d} was deleted or replaced while the daemon ran",
                f"restore {d} from a backup, then restart omegad (a restart without it starts an empty store)",
            ),
            "embedder": ("the embedding model cannot be loaded: stores and queries are refused", EMBEDDER_FIX),
            "store_unreachable": (
                "the team store's bucket cannot be reached or refuses this host",
                "check the bucket's endpoint, credentials and network (store.storage_options, omegad "
                "doctor); the daemon resumes by itself once it answers",
            ),
            "model_damaged": (
                "the embedding model's files changed on disk and no longer load: the daemon serves "
                "from the copy it loaded, but cannot start again until they are fixed",
                "run `omegad models fetch` (or restore embedding.model_dir); the problem clears by itself",
            ),
        }[code]

    def report(self, code: str, detail: str) -> Problem:
        """Record (or count again) a problem; logged once when it starts."""
        with self._lock:
            p = self.problems.get(code)
            if p is not None:
                p.count += 1
                p.detail = detail
                return p
            message, fix = self._texts(code)
            p = self.problems[code] = Problem(code, message, fix, detail, now_us())
        log.error("degraded", problem=code, message=message, fix=fix, detail=detail)
        return p

    def clear(self, *codes: str) -> None:
        """The cause is gone (a write succeeded, the model loaded)."""
        if not any(c in self.problems for c in codes):
            return
        with self._lock:
            gone = [self.problems.pop(c) for c in codes if c in self.problems]
        for p in gone:
            log.info("recovered", problem=p.code, after_s=round((now_us() - p.since_us) / 1e6, 1))

    def active(self, code: str) -> bool:
        return code in self.problems

    def detail(self, code: str) -> str | None:
        p = self.problems.get(code)
        return p.detail if p is not None else None

    def error(self, code: str, detail: str | None = None) -> Unavailable:
        """The ``unavailable`` error a refused request gets while *code* is active."""
        p = self.problems.get(code)
        message, fix = (p.message, p.fix) if p is not None else self._texts(code)
        text = f"{message}: {detail}" if detail else message
        return Unavailable(f"{text}; fix: {fix}", {"reason": code, "fix": fix})

    def storage_error(self, exc: BaseException, what: str) -> Unavailable | None:
        """For an exception from the store: the typed error when it shows a storage problem
        (or the data directory is gone), after recording the problem; else None."""
        if not self.data_dir_ok():
            return self.error("data_dir_missing")
        code = classify(exc)
        if code is None:
            return None
        detail = f"{what}: {_errno_text(exc)}"
        self.report(code, detail)
        return self.error(code, detail)

    def free_bytes(self) -> int | None:
        """Free space on the data directory's file system (None when it cannot be read)."""
        try:
            vfs = os.statvfs(self.data_dir)
        except OSError:
            return None
        return vfs.f_bavail * vfs.f_frsize

    def space_for_writes(self) -> Unavailable | None:
        """Whether writes may be tried now (the writer, before each batch): the ``disk_full``
        error when free space is below the reserve, or, once a full disk was reported, below
        twice the reserve — a gap, so the state does not flap at the edge."""
        if self.reserve <= 0:
            return None
        free = self.free_bytes()
        if free is None:
            return None
        resume = 2 * self.reserve
        if "disk_full" in self.problems:
            if free >= resume:
                return None  # try: a write that succeeds clears the problem
        elif free >= self.reserve:
            return None
        detail = (
            f"{free / 2**20:.1f} MB free; writes resume at {resume / 2**20:.0f} MB "
            f"(store.disk_reserve_mb = {self.reserve / 2**20:g} is kept so maintenance can free space)"
        )
        self.report("disk_full", detail)
        return self.error("disk_full", detail)

    def data_dir_ok(self) -> bool:
        """Whether the data directory is still the one the daemon opened (one stat; blocking,
        so called from worker threads). Once it is gone, it stays reported until a restart."""
        if "data_dir_missing" in self.problems:
            return False
        try:
            st = os.stat(self.data_dir)
            same = (st.st_dev, st.st_ino) == self._dir_id
        except OSError:
            same = False
        if not same:
            self.report(
                "data_dir_missing", "deleted" if not self.data_dir.exists() else "replaced by another directory"
            )
        return same

    def describe(self) -> dict[str, Any]:
        with self._lock:
            problems = [p.describe() for p in self.problems.values()]
        return {"status": "degraded" if problems else "ok", "problems": problems}


class Backoff:
    """When automatic maintenance passes may run again after failures: the wait doubles
    from `first_s` up to `max_s`. One that failed on a full disk may run as soon as the disk
    has room again (the wait was for the space)."""

    def __init__(self, first_s: float = 2.0, max_s: float = 300.0) -> None:
        self.first_s, self.max_s = first_s, max_s
        self.failures = 0
        self.delay = 0.0
        self._since = 0.0
        self._next_at = 0.0
        self._for_space = False

    def ready(self, now: float, disk_full: bool) -> bool:
        return self.failures == 0 or now >= self._next_at or (self._for_space and not disk_full)

    def failed(self, now: float, disk_full: bool) -> bool:
        """Count a failure; True when it starts a pause (the one to log)."""
        self.failures += 1
        self.delay = min(self.max_s, self.first_s * 2 ** (self.failures - 1))
        self._next_at = now + self.delay
        self._for_space = disk_full
        if self.failures == 1:
            self._since = now
        return self.failures == 1

    def succeeded(self, now: float | None = None) -> tuple[int, float] | None:
        """Reset; (failures, seconds paused) when a pause ends."""
        if self.failures == 0:
            return None
        out = (self.failures, (now if now is not None else time.monotonic()) - self._since)
        self.failures, self.delay, self._for_space = 0, 0.0, False
        return out

    def describe(self) -> dict[str, Any]:
        return {"failures": self.failures, "retry_in_s": self.delay if self.failures else None}


def _errno_text(exc: BaseException) -> str:
    """The operating system's words for an error (not LanceDB's source locations)."""
    for e in _chain(exc):
        if isinstance(e, OSError) and e.strerror:
            return e.strerror
        m = _OS_ERROR.search(str(e))
        if m:
            return os.strerror(int(m.group(1)))
    return type(exc).__name__
