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
  pass and at shutdown; a crash can lose the counts since the last pass (they are a hint).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyarrow as pa

from omegad.config import Config
from omegad.storage.rows import id_in, open_or_create, upsert_by_id
from omegad.storage.store import MemoryStore

__all__ = ["MemorySignals", "SignalStore", "Signals"]

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
        ]
    )


class SignalStore:
    """The ``signals`` table. Blocking; writes from the writer thread only."""

    def __init__(self, table: Any) -> None:
        self._table = table

    @classmethod
    def open(cls, store: MemoryStore) -> SignalStore:
        return cls(open_or_create(store.side_db, TABLE, _schema()))

    @property
    def table(self) -> Any:
        return self._table

    def load(self, table: Any | None = None) -> dict[str, MemorySignals]:
        """Every signal (of *table*, a pinned snapshot of the signals table, when given)."""
        tbl = (table or self._table).search().limit(None).to_arrow()
        return {r["id"]: signal_from(r) for r in tbl.to_pylist()}

    def upsert(self, signals: dict[str, MemorySignals]) -> None:
        if not signals:
            return
        rows = [
            {
                "id": mid,
                "namespace": s.namespace,
                "feedback": s.feedback,
                "ratings": s.ratings,
                "accesses": s.accesses,
                "last_access": s.last_access,
            }
            for mid, s in signals.items()
        ]
        data = pa.Table.from_pylist(rows, schema=_schema())
        upsert_by_id(self._table, data)

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._table.delete(id_in(ids))


class Signals:
    """The in-memory view (event loop and writer thread; plain dict updates)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.by_id: dict[str, MemorySignals] = {}
        self.dirty: set[str] = set()  # access counts not yet in the table
        self._hidden: dict[str, set[str]] = {}  # namespace -> hidden ids

    def load(self, signals: dict[str, MemorySignals]) -> None:
        self.by_id = signals
        self._hidden = {}
        for mid, s in signals.items():
            self._track(mid, s)

    def _track(self, memory_id: str, s: MemorySignals) -> None:
        if s.feedback <= self.config.hide_below:
            self._hidden.setdefault(s.namespace, set()).add(memory_id)
        else:
            self._hidden.get(s.namespace, set()).discard(memory_id)

    def rated(self, memory_id: str, namespace: str, score: float) -> MemorySignals:
        """The state after one more rating (not applied: see `set`)."""
        bound = self.config.feedback_bound
        old = self.by_id.get(memory_id) or MemorySignals(namespace)
        return MemorySignals(
            namespace,
            min(bound, max(-bound, old.feedback + score)),
            old.ratings + 1,
            old.accesses,
            old.last_access,
        )

    def set(self, memory_id: str, s: MemorySignals) -> None:
        self.by_id[memory_id] = s
        self._track(memory_id, s)

    def accessed(self, hits: Iterable[tuple[str, str]], now_us: int) -> None:
        """Count (id, namespace) pairs a query returned."""
        for mid, namespace in hits:
            s = self.by_id.get(mid)
            if s is None:
                s = self.by_id[mid] = MemorySignals(namespace)
            s.accesses += 1
            s.last_access = now_us
            self.dirty.add(mid)

    def forget(self, memory_id: str) -> bool:
        s = self.by_id.pop(memory_id, None)
        self.dirty.discard(memory_id)
        if s is not None:
            self._hidden.get(s.namespace, set()).discard(memory_id)
        return s is not None

    def take_dirty(self) -> dict[str, MemorySignals]:
        """Copies of the states with unsaved access counts (marked clean). Called in the
        writer thread while the event loop goes on counting: the set is swapped for a new one
        first, then read (iterating the live set can fail with "Set changed size during
        iteration")."""
        dirty, self.dirty = self.dirty, set()
        by_id = self.by_id
        out = {}
        for mid in dirty:
            s = by_id.get(mid)
            if s is not None:
                out[mid] = replace(s)
        return out

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
