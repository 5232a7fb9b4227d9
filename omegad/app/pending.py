"""Stores acknowledged at the log (`Pending`): a new memory is durable once its row is in the
write-ahead log, so the store is answered then; its embedding (when it was not needed to
decide the store) and its LanceDB commit follow. Until that commit the row lives here, where
the readers find it: `get` answers from it, and `list`, `query` and the writes that touch it
wait for it (`wait_ids`, `wait_namespace`: for the rows pending when they began). The set is
bounded in rows and bytes, which also bounds those waits: a store that finds no room waits for
some, then gets a typed `unavailable` error (reason ``busy``).

Used from the event loop; the writer thread only takes a `snapshot` (a checkpoint logs the
rows again in the new segment, since the old ones that held them are deleted).
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import anyio

from omegad.contradictions.duplicates import text_key
from omegad.errors import Unavailable
from omegad.storage.rows import Row

__all__ = ["Pending", "row_bytes"]

#: Ids of rows committed lately, kept so that a check of an id against the store that began
#: before its commit (and so missed it) still finds it here (`Pending.left_since`).
RECENT_IDS = 10_000


def row_bytes(row: Row) -> int:
    """What a pending row holds, roughly (its text, tags, metadata and vector)."""
    meta = sum(len(str(k)) + len(str(v)) for k, v in row.metadata.items()) if row.metadata else 0
    return len(row.text.encode()) + sum(len(t) for t in row.tags) + meta + 4 * len(row.vector) + 200


K = TypeVar("K")

#: How often a `Pending.settle` with a *give_up* looks at it.
GIVE_UP_POLL_S = 0.1


@contextlib.contextmanager
def _waiting(counts: Counter[K], keys: list[K]) -> Iterator[None]:
    """Count a client waiting for *keys* while the block runs (keys no one waits for leave)."""
    counts.update(keys)
    try:
        yield
    finally:
        for key in keys:
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]


class Pending:
    def __init__(self, max_rows: int, max_bytes: int, wait_s: float) -> None:
        self.max_rows = max_rows
        self.max_bytes = max_bytes
        self.wait_s = wait_s
        self._lock = threading.Lock()  # against the writer thread's `snapshot`
        self.rows: dict[str, Row] = {}
        # id -> its size, its normalised-text key (None without dedup), and when it was
        # acknowledged (time.monotonic); in that order, so the first is the oldest
        self._held: dict[str, tuple[int, tuple[str, bytes] | None, float]] = {}
        self._namespaces: dict[str, dict[str, None]] = {}  # namespace -> its pending ids, in order
        self._keys: dict[tuple[str, bytes], str] = {}
        self.bytes = 0
        self._changed = anyio.Event()
        self._recent: OrderedDict[str, int] = OrderedDict()  # id -> `left` when it left
        # what clients are waiting for now: their embeddings go ahead of the others (`wanted`)
        self._wanted_ids: Counter[str] = Counter()
        self._wanted_namespaces: Counter[str | None] = Counter()
        self.left = 0  # rows that have left (committed, or their log append failed)
        self.acknowledged = 0  # rows acknowledged at the log since start
        self.refused = 0  # stores refused for want of room

    def __len__(self) -> int:
        return len(self.rows)

    # -- what the intake asks ------------------------------------------------------------------

    def holds(self, memory_id: str) -> bool:
        return memory_id in self.rows

    def left_since(self, memory_id: str, mark: int) -> bool:
        """*memory_id* left the set (was committed) after `left` was *mark*. True also when
        so many left meanwhile that the answer is unknown (the caller then takes the slow path)."""
        if self.left - mark >= RECENT_IDS:
            return True
        return self._recent.get(memory_id, -1) > mark

    def same_text(self, row: Row) -> str | None:
        """A pending memory of *row*'s namespace with the same normalised text."""
        return self._keys.get((row.namespace, text_key(row.text)))

    def in_namespace(self, namespace: str) -> bool:
        return namespace in self._namespaces

    async def room(self, rows: int, nbytes: int) -> None:
        """Wait until *rows* rows of *nbytes* fit (at most `wait_s`), else raise ``busy``.
        A batch larger than the whole set fits once the set is empty."""

        def full() -> bool:
            if not self.rows:
                return False
            return len(self.rows) + rows > self.max_rows or self.bytes + nbytes > self.max_bytes

        if not full():
            return
        if not await self._wait(full, self.wait_s):
            self.refused += 1
            raise Unavailable(
                f"{len(self.rows)} acknowledged memories ({self.bytes} bytes) are waiting to be committed, "
                f"the most the daemon holds (store.pending_max_rows {self.max_rows}, "
                f"store.pending_max_mb {self.max_bytes / 2**20:g}); retry in a moment",
                {"reason": "busy", "pending": len(self.rows), "pending_bytes": self.bytes, "retry_after_ms": 500},
            )

    # -- changes ---------------------------------------------------------------------------------

    def add(self, row: Row, dedup: bool) -> None:
        size = row_bytes(row)
        with self._lock:
            self.rows[row.id] = row
        key = (row.namespace, text_key(row.text)) if dedup else None
        self._held[row.id] = (size, key, time.monotonic())
        self.bytes += size
        self._namespaces.setdefault(row.namespace, {})[row.id] = None
        if key is not None:
            self._keys[key] = row.id

    def discard(self, ids: Iterable[str]) -> None:
        """*ids* left the set: committed to the tables (or never logged)."""
        for memory_id in ids:
            with self._lock:
                row = self.rows.pop(memory_id, None)
            if row is None:
                continue
            size, key, _ = self._held.pop(memory_id)
            self.bytes -= size
            in_namespace = self._namespaces[row.namespace]
            del in_namespace[memory_id]
            if not in_namespace:
                del self._namespaces[row.namespace]
            if key is not None and self._keys.get(key) == memory_id:
                del self._keys[key]
            self.left += 1
            self._recent[memory_id] = self.left
            self._recent.move_to_end(memory_id)
            if len(self._recent) > RECENT_IDS:
                self._recent.popitem(last=False)
        self.embedded()

    def embedded(self) -> None:
        """Rows got their vectors, or left: the waiters look again."""
        self._changed.set()
        self._changed = anyio.Event()

    def of_namespace(self, namespace: str) -> list[Row]:
        return [self.rows[i] for i in self._namespaces.get(namespace, ())]

    async def wait_embedded(self, rows: list[Row]) -> bool:
        """Wait until each of *rows* has its vector or is committed; False after `wait_s`."""
        return await self._wait(lambda: any(not len(r.vector) and r.id in self.rows for r in rows), self.wait_s)

    def snapshot(self) -> list[Row]:
        """The rows pending now (any thread)."""
        with self._lock:
            return list(self.rows.values())

    # -- waiting ---------------------------------------------------------------------------------

    def _still_pending(self, ids: list[str]) -> Callable[[], bool]:
        """Whether any of *ids* (pending when a read began) is still not committed: the
        read waits for what was acknowledged before it, never for stores that came after
        (else a steady stream of stores could hold it forever)."""
        left = deque(ids)

        def waiting() -> bool:
            while left and left[0] not in self.rows:
                left.popleft()
            return bool(left)

        return waiting

    async def _wait(
        self, until_false: Callable[[], bool], timeout: float, give_up: Callable[[], bool] | None = None
    ) -> bool:
        """Wait until *until_false* says False (True), else False after *timeout* s or once
        *give_up* says True (looked at every `GIVE_UP_POLL_S`)."""
        poll = math.inf if give_up is None else GIVE_UP_POLL_S
        with anyio.move_on_after(timeout):
            while until_false():
                if give_up is not None and give_up():
                    return False
                with anyio.move_on_after(poll):
                    await self._changed.wait()
            return True
        return False

    async def settle(self, timeout: float | None, give_up: Callable[[], bool] | None = None) -> bool:
        """Wait until what is pending now is committed (``flush``, ``stats``, shutdown);
        False after *timeout* s, or as soon as *give_up* returns True (looked at every
        `GIVE_UP_POLL_S`: e.g. writes are failing, so nothing will commit for now)."""
        return await self._wait(self._still_pending(list(self.rows)), math.inf if timeout is None else timeout, give_up)

    async def wait_ids(self, ids: Iterable[str]) -> None:
        """Wait until none of *ids* is pending (their commits are done)."""
        wanted = [i for i in ids if i in self.rows]
        if wanted:
            with _waiting(self._wanted_ids, wanted):
                await self._must(self._still_pending(wanted))

    async def wait_namespace(self, namespace: str | None) -> None:
        """Wait until what *namespace* (None: any) has pending now is committed."""
        ids = list(self.rows) if namespace is None else list(self._namespaces.get(namespace, ()))
        if ids:
            with _waiting(self._wanted_namespaces, [namespace]):
                await self._must(self._still_pending(ids))

    def wanted(self, rows: list[Row]) -> bool:
        """A client is waiting for one of *rows* (an update, a delete, a get of a version, a
        read of its namespace): their embedding is then as urgent as a question's
        (`Batcher`), so that client waits for these rows, not for every store before them."""
        if not self._wanted_ids and not self._wanted_namespaces:
            return False
        if None in self._wanted_namespaces:
            return True
        return any(r.id in self._wanted_ids or r.namespace in self._wanted_namespaces for r in rows)

    async def _must(self, until_false: Callable[[], bool]) -> None:
        if not await self._wait(until_false, self.wait_s):
            raise Unavailable(
                f"acknowledged memories are not committed after {self.wait_s:g} s; the store may be failing "
                "(see `omegad doctor`); they are in the write-ahead log and will be committed",
                {"reason": "pending", "pending": len(self.rows)},
            )

    def figures(self) -> dict[str, float | int]:
        """For ``stats`` → ``store.pending``."""
        age = time.monotonic() - next(iter(self._held.values()))[2] if self._held else 0.0
        return {
            "rows": len(self.rows),
            "bytes": self.bytes,
            "oldest_ms": round(age * 1000, 1),
            "max_rows": self.max_rows,
            "max_bytes": self.max_bytes,
            "acknowledged": self.acknowledged,
            "refused": self.refused,
        }
