"""Dead rows: rows deleted under the vector index, kept out of every read until a compaction
drops them (`MemoryStore.delete`), and their record in the ``tombstones`` table."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute

from omegad.storage.rows import Filter

__all__ = ["BURYING", "DEAD_RECOUNT_ROWS", "EXCLUDING_TERMS", "NO_DEAD_ROWS", "RETIRING", "DeadRows"]

#: Present while an update's new row is committed and its old row not yet retired: a crash
#: between the two leaves both, and the next open keeps the newer (`MemoryStore.repair_duplicates`).
RETIRING = ".retiring"
#: Present while dead rows are deleted from the table and then from the tombstones: a crash
#: between the two leaves tombstones of rows that are gone, which the next open drops.
BURYING = ".burying"


@dataclass(frozen=True, eq=False)
class DeadRows:
    """Rows deleted (or replaced by a newer version) but still in the memories table: their
    Lance row addresses (``_rowid``), which every read drops. Immutable — the writer swaps in
    a new one — so a read uses one consistent set (see `MemoryStore.delete` for why)."""

    rows: dict[int, tuple[str, str, str]]  # row address → (id, namespace, type)
    per_namespace: dict[str, int]
    #: (`excluding`, `not_excluded` per namespace, rows added since they were computed from
    #: every row), when known ahead: derived by `with_rows` from the set it extends
    split: tuple[str, dict[str, int], int] | None = None

    @classmethod
    def of(cls, rows: dict[int, tuple[str, str, str]]) -> DeadRows:
        per: dict[str, int] = {}
        for _, ns, _ in rows.values():
            per[ns] = per.get(ns, 0) + 1
        return cls(rows, per)

    @functools.cached_property
    def keys(self) -> pa.Array:
        return pa.array(list(self.rows), pa.uint64())

    def with_rows(self, rows: dict[int, tuple[str, str, str]]) -> DeadRows:
        """The set with these rows dead too. Each delete or update calls it in the writer, and the
        next search needs `excluding`: recomputing that from every dead row (a sort) cost each
        delete O(dead rows), which only grow under the base segment. So the new rows are
        counted as `not_excluded` against the ranges already found, and the ranges are recomputed
        once `DEAD_RECOUNT_ROWS` were added since (a run of single deletes becomes a range
        again): O(dead rows / 1,024) per delete."""
        new = {r: v for r, v in rows.items() if r not in self.rows}
        if not new:
            return self
        merged = {**self.rows, **new}
        per = dict(self.per_namespace)
        for _, ns, _ in new.values():
            per[ns] = per.get(ns, 0) + 1
        split = None
        if "_split" in self.__dict__ or self.split is not None:
            excluding, not_excluded, added = self._split_added
            added += len(new)
            if added <= DEAD_RECOUNT_ROWS:
                not_excluded = dict(not_excluded)
                for _, ns, _ in new.values():
                    not_excluded[ns] = not_excluded.get(ns, 0) + 1
                split = (excluding, not_excluded, added)
        return DeadRows(merged, per, split)

    def without_rows(self, rowids: Iterable[int]) -> DeadRows:
        """The set without these rows (deleted for good, or no longer in the table)."""
        gone = set(rowids)
        return DeadRows.of({r: v for r, v in self.rows.items() if r not in gone})

    def drop(self, tbl: pa.Table) -> pa.Table:
        """*tbl* (with a ``_rowid`` column) without the dead rows."""
        if not self.rows or tbl.num_rows == 0:
            return tbl
        if tbl.num_rows <= 4_096:  # (a search's rows: cheaper than hashing every dead row)
            rows = self.rows
            return tbl.filter(pa.array([r not in rows for r in tbl.column("_rowid").to_pylist()], pa.bool_()))
        dead = pa.compute.is_in(tbl.column("_rowid"), value_set=self.keys)
        return tbl.filter(pa.compute.invert(dead))

    @functools.cached_property
    def per_fragment(self) -> dict[int, int]:
        """Fragment id → its dead rows."""
        out: dict[int, int] = {}
        for r in self.rows:
            out[r >> 32] = out.get(r >> 32, 0) + 1
        return out

    def fragments(self) -> set[int]:
        return set(self.per_fragment)

    def where(self, flt: Filter) -> str:
        """*flt* as SQL for a search that filters first, with `excluding` when it applies."""
        if self.per_namespace.get(flt.namespace) and self.excluding:
            return f"{flt.sql()} AND {self.excluding}"
        return flt.sql()

    @property
    def _split_added(self) -> tuple[str, dict[str, int], int]:
        if self.split is not None:
            return self.split
        return (*self._split, 0)

    @functools.cached_property
    def _split(self) -> tuple[str, dict[str, int]]:
        """(`excluding`, `not_excluded`): the longest runs of consecutive dead addresses, at most
        `EXCLUDING_TERMS` of them, become a SQL condition; the other dead rows are counted per
        namespace."""
        if self.split is not None:
            return self.split[0], self.split[1]
        if not self.rows:
            return "", {}
        runs: list[tuple[int, int]] = []
        ordered = sorted(self.rows)
        start = prev = ordered[0]
        for r in [*ordered[1:], -1]:
            if r == prev + 1:
                prev = r
                continue
            runs.append((start, prev))
            start = prev = r
        runs = sorted((run for run in runs if run[1] - run[0] >= 2), key=lambda run: run[0] - run[1])
        runs = runs[:EXCLUDING_TERMS]
        covered: set[int] = set()
        for a, b in runs:
            covered.update(range(a, b + 1))
        not_excluded: dict[str, int] = {}
        for r, (_, ns, _) in self.rows.items():
            if r not in covered:
                not_excluded[ns] = not_excluded.get(ns, 0) + 1
        if not runs:
            return "", not_excluded
        return f"NOT ({' OR '.join(f'_rowid BETWEEN {a} AND {b}' for a, b in sorted(runs))})", not_excluded

    @property
    def excluding(self) -> str:
        """A SQL condition that keeps out the dead rows in long runs of consecutive addresses
        (a bulk delete), for searches that filter first: they then rank without them — dead
        rows can take every top place (full-text ties come in table order, and the rows
        deleted first are the oldest). "" when there are none. Single addresses are left to
        `not_excluded`: a filter listing them slows every search (docs/storage.md, Maintenance)."""
        return self._split[0]

    def not_excluded(self, namespace: str) -> int:
        """The dead rows of *namespace* that `excluding` does not keep out."""
        return self._split[1].get(namespace, 0)


NO_DEAD_ROWS = DeadRows.of({})
#: Rows `DeadRows.with_rows` counts as not excluded before the ranges are found again from
#: every dead row.
DEAD_RECOUNT_ROWS = 1_024
#: The most ranges of addresses `DeadRows.excluding` puts in a filter.
EXCLUDING_TERMS = 64
