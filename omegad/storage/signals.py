"""Lifecycle signals: feedback and access frequency, kept beside the memories.

They change far more often than a memory's text, and rewriting a vector row takes it out of the
indexes until the next maintenance pass, so they live in their own small LanceDB table
(``signals``: one row per memory that has any) and in memory (`Signals`), never in the vector
rows.

- **Feedback** (`feedback` {id, score}, score in [-1, 1]) accumulates, clamped to
  ``[-lifecycle.feedback_bound, +bound]`` (5). It scales the heuristic score by
  ``1 + feedback_weight × feedback`` (0.1: between 0.5 and 1.5). A memory at or below
  ``lifecycle.hide_below`` (-3) is hidden from queries — excluded inside the storage query —
  unless the query asks with ``include_hidden``. Feedback is an acknowledged write: it goes
  through the writer and the write-ahead log.
- **Access frequency**: every memory a query returns is counted. The count scales the score
  by ``min(access_cap, 1 + access_weight × log2(1 + accesses))`` (0.05, cap 1.2: 31 returns
  give the full 1.2). Counts are kept in memory and written to the table by each maintenance
  pass and at shutdown (in a team store also every quiet ``maintenance.interval_s``, by every
  host); a crash can lose the counts since the last save (they are a hint).

Each host writes only its own share of a memory's signals (a row per memory and ``host``; a
local store has one host, ""), and a memory's signals are the sum of its shares (feedback
clamped again): two hosts of a team store rating one memory at once both count, where one
row per memory would keep the last writer's (docs/team.md).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyarrow as pa
import structlog

from omegad.config import Config
from omegad.errors import error_text
from omegad.storage.rows import id_in, open_or_create
from omegad.storage.store import MemoryStore

__all__ = ["MemorySignals", "SignalStore", "Signals", "combined"]

log = structlog.get_logger("omegad")

#: Deleted memories `Signals` remembers, so that a load of the shares read before a delete
#: does not bring theirs back.
FORGETS_REMEMBERED = 10_000

TABLE = "signals"


@dataclass
class MemorySignals:
    """One memory's signals: its feedback and how often queries returned it."""

    namespace: str
    feedback: float = 0.0
    ratings: int = 0
    accesses: int = 0
    last_access: int = 0  # µs since epoch

    def public(self) -> dict[str, Any]:
        return {"feedback": round(self.feedback, 4), "ratings": self.ratings, "accesses": self.accesses}


def combined(share: MemorySignals | None, others: MemorySignals | None, bound: float) -> MemorySignals:
    """A memory's signals from this host's share and the sum of the other hosts' shares (the
    share itself when there are none)."""
    if others is None:
        assert share is not None
        return share
    total = _summed([others] if share is None else [share, others])
    total.feedback = _bounded(total.feedback, bound)
    return total


def _bounded(feedback: float, bound: float) -> float:
    return min(bound, max(-bound, feedback))


def _summed(shares: list[MemorySignals]) -> MemorySignals:
    """Shares of one memory added up (feedback not clamped: `combined` does that)."""
    return MemorySignals(
        shares[0].namespace,
        sum(s.feedback for s in shares),
        sum(s.ratings for s in shares),
        sum(s.accesses for s in shares),
        max(s.last_access for s in shares),
    )


def signal_from(r: dict[str, Any]) -> MemorySignals:
    """One memory's signals from a row of the signals table or a write-ahead-log record (same names)."""
    return MemorySignals(
        r["namespace"], float(r["feedback"]), int(r["ratings"]), int(r["accesses"]), int(r["last_access"])
    )


def _schema() -> pa.Schema:
    return pa.schema(
        [
            pa.field("id", pa.string(), nullable=False, metadata={"lance-schema:unenforced-primary-key": "true"}),
            pa.field("namespace", pa.string(), nullable=False),
            pa.field("feedback", pa.float64(), nullable=False),
            pa.field("ratings", pa.int64(), nullable=False),
            pa.field("accesses", pa.int64(), nullable=False),
            pa.field("last_access", pa.int64(), nullable=False),
            pa.field("host", pa.string(), nullable=False),  # whose share ("" in a local store)
        ]
    )


class SignalStore:
    """The ``signals`` table. Blocking; writes from the writer thread only, and only this
    host's shares (*host*)."""

    def __init__(self, table: Any, host: str = "", bound: float = 5.0) -> None:
        self._table = table
        self.host = host
        self.bound = bound
        self._migrated = False  # (the schema is read once: on a team store that is a request)

    @classmethod
    def open(cls, store: MemoryStore, host: str = "", bound: float = 5.0) -> SignalStore:
        signals = cls(open_or_create(store.side_db, TABLE, _schema(), store.location), host, bound)
        try:
            signals._migrate()
        except Exception as exc:  # (a read-only data directory: reads go on, the first write retries)
            log.warning("signals_table_not_migrated", error=error_text(exc))
        return signals

    def _migrate(self) -> None:
        """Give a table written before shares its ``host`` column (every row the local host's)."""
        if self._migrated or "host" in self._table.schema.names:
            self._migrated = True
            return
        try:
            self._table.add_columns({"host": "''"})
        except Exception:
            self._table.checkout_latest()  # another host of a team store added it first
            if "host" not in self._table.schema.names:
                raise
        self._migrated = True

    @property
    def table(self) -> Any:
        return self._table

    def shares(self, table: Any | None = None) -> tuple[dict[str, MemorySignals], dict[str, MemorySignals]]:
        """(this host's share, the other hosts' shares summed) of every memory that has any
        (of *table*, a pinned snapshot of the signals table, when given)."""
        own: dict[str, MemorySignals] = {}
        others: dict[str, list[MemorySignals]] = {}
        for r in (table or self._table).search().limit(None).to_arrow().to_pylist():
            if r.get("host", "") == self.host:
                own[r["id"]] = signal_from(r)
            else:
                others.setdefault(r["id"], []).append(signal_from(r))
        return own, {mid: _summed(s) for mid, s in others.items()}

    def load(self, table: Any | None = None) -> dict[str, MemorySignals]:
        """Every memory's signals, all hosts' shares combined."""
        own, others = self.shares(table)
        return {mid: combined(own.get(mid), others.get(mid), self.bound) for mid in own.keys() | others.keys()}

    def own(self) -> dict[str, MemorySignals]:
        """This host's shares."""
        return self.shares()[0]

    def upsert(self, signals: dict[str, MemorySignals]) -> None:
        """Write this host's share of each memory in *signals*."""
        if not signals:
            return
        self._migrate()
        rows = [
            {
                "id": mid,
                "namespace": s.namespace,
                "feedback": s.feedback,
                "ratings": s.ratings,
                "accesses": s.accesses,
                "last_access": s.last_access,
                "host": self.host,
            }
            for mid, s in signals.items()
        ]
        data = pa.Table.from_pylist(rows, schema=_schema())
        self._table.merge_insert(["id", "host"]).when_matched_update_all().when_not_matched_insert_all().execute(data)

    def delete(self, ids: Sequence[str]) -> None:
        """Every host's share of each memory."""
        if ids:
            self._table.delete(id_in(ids))

    def delete_if_any(self, ids: Sequence[str]) -> None:
        """`delete`, only when a share of one of *ids* is there (a read instead of a commit)."""
        if ids and self._table.count_rows(id_in(ids)):
            self._table.delete(id_in(ids))


class Signals:
    """The in-memory view (event loop and writer thread): this host's shares (`mine`, what it
    writes), the other hosts' (`others`, summed, as last loaded) and each memory's signals from
    both (`by_id`, what scoring reads). Changes take a lock: the writer thread applies ratings
    while the event loop counts accesses and loads the other hosts' shares."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._lock = threading.RLock()
        self.by_id: dict[str, MemorySignals] = {}
        self.mine: dict[str, MemorySignals] = {}
        self.others: dict[str, MemorySignals] = {}
        self.dirty: set[str] = set()  # access counts not yet in the table
        self._hidden: dict[str, set[str]] = {}  # namespace -> hidden ids
        # memories forgotten (deleted) lately, by `forgotten` then: a read of the table that
        # began before must not bring their shares back (`load_others`)
        self.forgotten = 0
        self._forgot: dict[str, int] = {}

    def load(self, mine: dict[str, MemorySignals], others: dict[str, MemorySignals] | None = None) -> None:
        with self._lock:
            self.mine, self.others = mine, others or {}
            self.by_id = {}
            self._hidden = {}
            for mid in self.mine.keys() | self.others.keys():
                self._combine(mid)

    def load_others(self, others: dict[str, MemorySignals], mark: int) -> None:
        """The other hosts' shares moved, as read after `forgotten` was *mark* (this host's
        own are never read back: its memory of them is newer than the table, with access
        counts not saved yet). A memory all of whose other shares went was deleted (a
        delete removes every host's share): this host's share goes too."""
        with self._lock:
            others = {m: s for m, s in others.items() if self._forgot.get(m, -1) <= mark}
            before, self.others = self.others, others
            for mid in before.keys() - others.keys():
                self.mine.pop(mid, None)
                self.dirty.discard(mid)
            for mid in before.keys() | others.keys():
                self._combine(mid)

    def _combine(self, memory_id: str) -> None:
        share, others = self.mine.get(memory_id), self.others.get(memory_id)
        if share is None and others is None:
            old = self.by_id.pop(memory_id, None)
            if old is not None:
                self._hidden.get(old.namespace, set()).discard(memory_id)
            return
        s = combined(share, others, self.config.feedback_bound)  # (the share itself without others)
        self.by_id[memory_id] = s
        self._track(memory_id, s)

    def _track(self, memory_id: str, s: MemorySignals) -> None:
        if s.feedback <= self.config.hide_below:
            self._hidden.setdefault(s.namespace, set()).add(memory_id)
        else:
            self._hidden.get(s.namespace, set()).discard(memory_id)

    def rated(self, memory_id: str, namespace: str, score: float) -> MemorySignals:
        """This host's share after one more rating (not applied: see `set`): the one that
        moves the memory's feedback, all hosts' together, by *score* within the bound, as one
        row per memory would (a share alone may lie outside it)."""
        bound = self.config.feedback_bound
        with self._lock:
            old = self.mine.get(memory_id) or MemorySignals(namespace)
            others = self.others.get(memory_id)
            elsewhere = others.feedback if others is not None else 0.0
            now = _bounded(old.feedback + elsewhere, bound)
            return MemorySignals(
                namespace,
                _bounded(now + score, bound) - elsewhere,
                old.ratings + 1,
                old.accesses,
                old.last_access,
            )

    def share_for(self, memory_id: str, total: MemorySignals) -> MemorySignals:
        """This host's share that makes the memory's signals *total* (an import's), given
        the other hosts' shares."""
        with self._lock:
            others = self.others.get(memory_id)
            if others is None:
                return total
            return MemorySignals(
                total.namespace,
                total.feedback - others.feedback,
                total.ratings - others.ratings,
                total.accesses - others.accesses,
                total.last_access,
            )

    def set(self, memory_id: str, s: MemorySignals) -> None:
        """Make *s* this host's share of the memory's signals."""
        with self._lock:
            self.mine[memory_id] = s
            self._combine(memory_id)

    def accessed(self, hits: Iterable[tuple[str, str]], now_us: int) -> None:
        """Count (id, namespace) pairs a query returned."""
        with self._lock:
            for mid, namespace in hits:
                s = self.mine.get(mid)
                if s is None:
                    s = self.mine[mid] = MemorySignals(namespace)
                s.accesses += 1
                s.last_access = now_us
                self.dirty.add(mid)
                if self.by_id.get(mid) is not s:  # (a sum with other hosts' shares, or new)
                    self._combine(mid)

    def forget(self, memory_id: str) -> bool:
        with self._lock:
            self.forgotten += 1
            self._forgot[memory_id] = self.forgotten
            if len(self._forgot) > FORGETS_REMEMBERED:
                del self._forgot[next(iter(self._forgot))]
            s = self.by_id.pop(memory_id, None)
            self.mine.pop(memory_id, None)
            self.others.pop(memory_id, None)
            self.dirty.discard(memory_id)
            if s is not None:
                self._hidden.get(s.namespace, set()).discard(memory_id)
            return s is not None

    def take_dirty(self) -> dict[str, MemorySignals]:
        """Copies of this host's shares with unsaved access counts (marked clean). Called in
        the writer thread while the event loop goes on counting."""
        with self._lock:
            dirty, self.dirty = self.dirty, set()
            return {mid: replace(self.mine[mid]) for mid in dirty if mid in self.mine}

    def unsaved(self, ids: Iterable[str]) -> None:
        """Mark *ids* dirty again (their save failed)."""
        with self._lock:
            self.dirty.update(m for m in ids if m in self.mine)

    def hidden(self, memory_id: str) -> bool:
        s = self.by_id.get(memory_id)
        return s is not None and s.feedback <= self.config.hide_below

    @property
    def hidden_count(self) -> int:
        return sum(len(ids) for ids in self._hidden.values())

    def hidden_in(self, namespace: str) -> tuple[str, ...]:
        return tuple(sorted(self._hidden.get(namespace, ())))

    def factors(self, memory_id: str) -> tuple[float, float]:
        """(feedback factor, access factor) for the heuristic score."""
        s = self.by_id.get(memory_id)
        if s is None:
            return 1.0, 1.0
        fb = 1.0 + self.config.feedback_weight * s.feedback
        acc = min(self.config.access_cap, 1.0 + self.config.access_weight * math.log2(1 + s.accesses))
        return max(0.0, fb), max(1.0, acc)
