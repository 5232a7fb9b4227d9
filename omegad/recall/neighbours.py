"""An in-memory copy of small namespaces for exact vector search: queries and the contradiction
checker's neighbour search.

A small namespace is searched exactly (brute force: an index walk over a tiny share of the table
finds too few of its rows). Through LanceDB that is a storage query with a fixed cost of roughly
8–25 ms even over a few hundred rows (planning, one pass per fragment, the take of the result
rows), and ~22 ms for a namespace of 1,000 in a table of 1M, where the rows are scattered. Every
committed memory costs the checker one such search (it ran beside the next store: detection on
made single stores ~10% slower), and every query one more. For a namespace of at most
``store.cache_rows`` memories the rows and a matrix of their vectors are kept here instead, and
a search is one matrix product (exact, with the query's filter applied to the rows first, like
the prefiltered storage query it replaces; ~0.1 ms for a thousand rows). Larger namespaces, and
any namespace while the budget is taken by others, are searched through the store.

Admission: ``store.cache_rows`` is one budget for all the namespaces kept. A namespace that fits
in what is free is loaded. One that does not displaces kept namespaces only when it is clearly in
more demand than they are: each namespace's searches are counted, the counts halve every
``AGE_EVERY`` searches, and the least-demanded kept namespaces are evicted only when together they
had less than half the newcomer's demand. Otherwise the newcomer is searched in the store. (A plain
LRU over whole namespaces thrashes when more namespaces are in use than fit: docs/storage.md,
"Vector index and search path".)

Consistency: the service reports every committed change (`upserted` / `deleted`, from the event
loop: an O(1) append, no lock). The checker's worker thread applies the pending changes before
each search, under the cache's lock, then loads an absent namespace with one scan, which
already contains every change reported before it (a change is reported after its commit).
Changes reported while a scan runs are applied on top at the next search: an upsert only if it
is newer than the cached row (by commit stamp), a delete always, so replaying them is
idempotent. A deleted memory can thus be a neighbour for one search at most; the writer never
writes an edge to a deleted memory.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from omegad.recall.fulltext import Postings, bm25, idf, terms
from omegad.storage.rows import Filter, Row
from omegad.storage.store import MemoryStore

__all__ = ["CacheStats", "NeighbourCache"]

_NO_VECTOR = np.zeros(0, dtype=np.float32)

#: Searches after which every namespace's demand count is halved (so demand is recent demand).
AGE_EVERY = 512
#: A namespace that does not fit displaces kept ones only when its demand is at least this many
#: times theirs (together), and at least ``ADMIT_MIN`` searches (hysteresis: no flip-flopping
#: between namespaces of similar demand, each switch costs a scan of the namespace).
ADMIT_RATIO = 2.0
ADMIT_MIN = 4.0


def _narrows(flt: Filter) -> bool:
    return bool(flt.types or flt.tags or flt.exclude_ids) or flt.since_us is not None or flt.until_us is not None


class _Namespace:
    """Rows of one namespace: a vector matrix with spare capacity and free slots."""

    def __init__(self, dim: int, rows: Sequence[Row], key: Callable[[str], bytes] | None = None) -> None:
        cap = max(64, 2 * len(rows))
        self.matrix = np.zeros((cap, dim), dtype=np.float32)
        self.alive = np.zeros(cap, dtype=bool)
        self.created = np.zeros(cap, dtype=np.int64)  # for the filters
        self.types = np.empty(cap, dtype=object)
        self.rows: list[Row | None] = [None] * cap
        self.slot: dict[str, int] = {}
        self.free: list[int] = []
        self.used = 0  # slots ever used (the free ones among them are in `free`)
        self.text = Postings()  # the full-text index of its rows (`NeighbourCache.text_search`)
        self.key = key
        self.keys: dict[bytes, set[str]] = {}  # normalised text -> ids (`NeighbourCache.same_texts`)
        for row in rows:
            self.upsert(row)

    def __len__(self) -> int:
        return len(self.slot)

    def upsert(self, row: Row) -> None:
        k = self.slot.get(row.id)
        if k is not None:
            current = self.rows[k]
            assert current is not None
            if current.updated_at > row.updated_at:
                return  # a late report of an older commit
            self.text.remove(k, current.text)
            self._unkey(current)
        elif self.free:
            k = self.free.pop()
        else:
            if self.used == len(self.rows):
                self._grow()
            k = self.used
            self.used += 1
        v = np.asarray(row.vector, dtype=np.float32)
        norm = float(np.linalg.norm(v))
        self.matrix[k] = v / norm if norm > 0 else v
        self.alive[k] = True
        self.created[k] = row.created_at
        self.types[k] = row.type
        self.rows[k] = replace(row, vector=_NO_VECTOR)  # the matrix holds it
        self.slot[row.id] = k
        self.text.add(k, row.text)
        if self.key is not None:
            self.keys.setdefault(self.key(row.text), set()).add(row.id)

    def delete(self, mid: str) -> None:
        k = self.slot.pop(mid, None)
        if k is None:
            return
        self.alive[k] = False
        row = self.rows[k]
        if row is not None:
            self.text.remove(k, row.text)
            self._unkey(row)
        self.rows[k] = None
        self.matrix[k] = 0.0
        self.free.append(k)

    def _unkey(self, row: Row) -> None:
        if self.key is not None:
            key = self.key(row.text)
            ids = self.keys.get(key)
            if ids is not None:
                ids.discard(row.id)
                if not ids:
                    del self.keys[key]

    def _kept(self, flt: Filter | None) -> npt.NDArray[np.bool_]:
        """Which used slots hold a row *flt* lets through."""
        keep = self.alive[: self.used]
        return self._filtered(keep.copy(), flt) if flt is not None and _narrows(flt) else keep

    def _filtered(self, keep: npt.NDArray[np.bool_], flt: Filter) -> npt.NDArray[np.bool_]:
        """`Filter.sql` evaluated on the kept rows (its namespace aside)."""
        n = len(keep)
        if flt.types:
            keep &= np.isin(self.types[:n], list(flt.types))
        if flt.since_us is not None:
            keep &= self.created[:n] >= flt.since_us
        if flt.until_us is not None:
            keep &= self.created[:n] <= flt.until_us
        for mid in flt.exclude_ids:
            hidden = self.slot.get(mid)
            if hidden is not None:
                keep[hidden] = False
        if flt.tags:
            wanted = set(flt.tags)
            for j in np.flatnonzero(keep):
                row = self.rows[int(j)]
                assert row is not None
                keep[j] = bool(wanted.intersection(row.tags))
        return keep

    def _grow(self) -> None:
        cap = 2 * len(self.rows)
        matrix = np.zeros((cap, self.matrix.shape[1]), dtype=np.float32)
        matrix[: self.used] = self.matrix[: self.used]
        alive = np.zeros(cap, dtype=bool)
        alive[: self.used] = self.alive[: self.used]
        created = np.zeros(cap, dtype=np.int64)
        created[: self.used] = self.created[: self.used]
        types = np.empty(cap, dtype=object)
        types[: self.used] = self.types[: self.used]
        self.matrix, self.alive, self.created, self.types = matrix, alive, created, types
        self.rows.extend([None] * (cap - len(self.rows)))

    def search(
        self, vectors: npt.NDArray[np.float32], k: int, flt: Filter | None = None
    ) -> list[list[tuple[Row, float]]]:
        """The *k* nearest rows to each (unit) vector by cosine, nearest first (ties by id),
        among the rows *flt* lets through (its namespace is this one)."""
        n = self.used
        if n == 0 or not self.slot:
            return [[] for _ in range(len(vectors))]
        keep = self._kept(flt)
        sims = vectors @ self.matrix[:n].T  # (queries, n)
        sims[:, ~keep] = -np.inf
        take = min(k, int(keep.sum()))
        if take == 0:
            return [[] for _ in range(len(vectors))]
        out: list[list[tuple[Row, float]]] = []
        for q in range(len(vectors)):
            row_sims = sims[q]
            top = np.argpartition(-row_sims, take - 1)[:take] if take < n else np.arange(n)
            hits: list[tuple[Row, float]] = []
            for j in top:
                if not keep[j]:
                    continue
                r = self.rows[j]
                assert r is not None
                hits.append((replace(r, vector=self.matrix[j].copy()), float(row_sims[j])))
            hits.sort(key=lambda h: (-h[1], h[0].id))
            out.append(hits[:take])
        return out

    def text_search(
        self, query: list[str], k: int, flt: Filter | None, docs: int, avg_length: float, df: dict[str, int]
    ) -> list[tuple[Row, float]]:
        """The *k* best BM25 matches of the terms *query* among the rows *flt* lets through,
        best first, scored with the table-wide statistics given."""
        keep = self._kept(flt)
        scores = self.text.dense_scores(query, docs, avg_length, df, len(keep))
        found = np.flatnonzero((scores > 0) & keep)
        if len(found) > k:  # the best k, and every row tied with the k-th (ordered below)
            kth = np.partition(scores[found], len(found) - k)[len(found) - k]
            found = found[scores[found] >= kth]
        hits: list[tuple[Row, float]] = []
        for j in found:
            r = self.rows[j]
            assert r is not None
            hits.append((r, float(scores[j])))
        # ties as LanceDB returns them: the row written last first (table order, reversed)
        hits.sort(key=lambda h: (-h[1], -h[0].updated_at, h[0].id))
        return [(replace(r, vector=self.matrix[self.slot[r.id]].copy()), score) for r, score in hits[:k]]


class CacheStats(NamedTuple):
    """The neighbour cache's figures (``stats`` → ``store.cache``)."""

    max_rows: int  # the bound on cached rows (``cache.rows``)
    namespaces: int  # namespaces held
    rows: int  # rows held
    searches: int  # searches answered from the cache
    store_searches: int  # searches that went to the store instead
    loads: int  # namespaces loaded
    evictions: int  # namespaces evicted for room
    refused: int  # namespaces that fit the bound but not beside those in more demand
    text_searches: int  # full-text searches answered here
    text_store_searches: int  # full-text searches that went to the store (not every namespace held)
    gets: int  # gets answered from the cache


class NeighbourCache:
    """Small namespaces' rows and vectors for the checker (see the module docstring)."""

    def __init__(
        self,
        store: MemoryStore,
        max_rows: int,
        *,
        fulltext: bool = True,
        text_key: Callable[[str], bytes] | None = None,
        fresh: Callable[[], bool] | None = None,
    ) -> None:
        self.store = store
        #: a team store's check that no other host committed since the last call
        #: (`MemoryStore.cache_fresh`): when one did, every namespace is dropped before an answer
        self.fresh = fresh
        self.max_rows = max_rows
        self.fulltext = fulltext
        self.text_key = text_key  # what makes two texts the same (`same_texts`)
        self._lock = threading.Lock()
        self._pending: deque[tuple[str, Any]] = deque()  # ("upsert", Row) | ("delete", id)
        self._spaces: OrderedDict[str, _Namespace] = OrderedDict()  # least recently used first
        self._demand: dict[str, float] = {}  # recent searches per namespace (halved every AGE_EVERY)
        self._rows_total = 0
        self._ticks = 0  # calls of search (for the ageing of demand)
        self.searches = 0
        self.fallbacks = 0
        self.loads = 0
        self.evictions = 0
        self.refused = 0  # namespaces that fit the budget but not beside those in more demand
        self.text_searches = 0
        self.text_fallbacks = 0
        self.gets = 0
        self.clears = 0  # times every namespace was dropped (another host committed: `fresh`)

    # -- reports from the service (event loop; never blocks) --------------------------------

    def upserted(self, rows: Iterable[Row]) -> None:
        if self.max_rows > 0:
            self._pending.extend(("upsert", r) for r in rows)

    def deleted(self, ids: Iterable[str]) -> None:
        if self.max_rows > 0:
            self._pending.extend(("delete", i) for i in ids)

    # -- the checker's search (worker thread) ------------------------------------------------

    def row(self, memory_id: str) -> Row | None:
        """The committed row of *memory_id* if a kept namespace holds it (its vector left out),
        else None: not kept here, or no such memory — the caller asks the store. Every change
        reported before the call is applied first (worker thread)."""
        if self.max_rows <= 0:
            return None
        with self._lock:
            self._apply_pending()
            for space in self._spaces.values():
                k = space.slot.get(memory_id)
                if k is not None:
                    self.gets += 1
                    return space.rows[k]
        return None

    def search(
        self, namespace: str, vectors: Sequence[npt.NDArray[np.float32]], k: int, flt: Filter | None = None
    ) -> list[list[tuple[Row, float]]] | None:
        """Nearest rows of *namespace* for each vector (those *flt* lets through, when given),
        or None when the namespace is not kept here (too large for the budget): the caller
        searches the store instead."""
        if self.max_rows <= 0:
            return None
        with self._lock:
            self._apply_pending()
            self._count(namespace)
            space = self._spaces.get(namespace)
            if space is None:
                space = self._load(namespace)
                if space is None:
                    self.fallbacks += 1
                    return None
            self._spaces.move_to_end(namespace)
            self.searches += 1
            q = np.stack([np.asarray(v, dtype=np.float32) for v in vectors])
            norms = np.linalg.norm(q, axis=1, keepdims=True)
            q = (q / np.where(norms > 0, norms, 1.0)).astype(np.float32)
            return space.search(q, k, flt)

    def text_search(
        self, namespace: str, text: str, k: int, flt: Filter | None = None
    ) -> list[tuple[Row, float]] | None:
        """Full-text (BM25) matches in *namespace*, ranked as LanceDB's index ranks them
        (`omegad.recall.fulltext`), or None when the namespace is not kept here, or when a
        namespace that is not kept holds rows (BM25 counts over the whole table; one that fits
        in the free budget is loaded for that): the caller searches the store instead."""
        if self.max_rows <= 0 or not self.fulltext:
            return None
        query = terms(text)
        with self._lock:
            self._apply_pending()
            space = self._whole_table(namespace)
            if space is None:
                self.text_fallbacks += 1
                return None
            self._spaces.move_to_end(namespace)
            self.text_searches += 1
            docs, avg, df = self._statistics(query, [])
            if not query or not avg:
                return []
            return space.text_search(query, k, flt, docs, avg, df)

    def text_scores(self, namespace: str, text: str, rows: Sequence[Row]) -> list[float] | None:
        """The BM25 score of *text* for each of *rows* (of *namespace*, pending when the query
        began), with the table-wide statistics counting those not committed yet as if they
        were; None when a full-text search of *namespace* would not be answered here
        (`text_search`)."""
        if self.max_rows <= 0 or not self.fulltext:
            return None
        query = terms(text)
        with self._lock:
            self._apply_pending()
            space = self._whole_table(namespace)
            if space is None:
                return None
            counts = [Counter(terms(r.text)) for r in rows]
            # (one committed since is in the statistics already)
            extra = [c for r, c in zip(rows, counts, strict=True) if r.id not in space.slot]
            docs, avg, df = self._statistics(query, extra)
            if not query or not avg:
                return [0.0] * len(rows)
            return [sum(bm25(c[t], c.total(), avg, idf(docs, df[t])) for t in query if t in c) for c in counts]

    def _statistics(self, query: list[str], extra: list[Counter[str]]) -> tuple[int, float, dict[str, int]]:
        """BM25's table-wide figures over the held namespaces plus the documents *extra*
        (term counts): documents, their average length in terms (0 when there is no term),
        and the document frequency of each query term. Under the lock."""
        docs = sum(len(s) for s in self._spaces.values()) + len(extra)
        length = sum(s.text.total_length for s in self._spaces.values()) + sum(c.total() for c in extra)
        df = {
            t: sum(s.text.frequency(t) for s in self._spaces.values()) + sum(t in c for c in extra) for t in set(query)
        }
        return docs, length / docs if docs else 0.0, df

    def _whole_table(self, namespace: str) -> _Namespace | None:
        """*namespace*, loaded if need be, when every namespace with rows is held (BM25
        counts over the whole table; one that fits in the free budget is loaded for that);
        else None. Under the lock."""
        space = self._spaces.get(namespace) or self._load(namespace)
        if space is None:
            return None
        for name, rows in list(self.store.ns_rows.items()):
            if rows > 0 and name not in self._spaces:
                if rows > self.max_rows - self._total() or self._load(name, evict=False) is None:
                    return None
        return space

    def same_texts(self, namespace: str, keys: Sequence[bytes], hidden: Iterable[str] = ()) -> list[str | None] | None:
        """For each normalised-text key (`text_key`), a memory of *namespace* with that text
        (not one of *hidden*), or None; None in all when the namespace is not kept here."""
        if self.max_rows <= 0 or self.text_key is None:
            return None
        with self._lock:
            self._apply_pending()
            space = self._spaces.get(namespace) or self._load(namespace)
            if space is None:
                return None
            skip = set(hidden)
            return [min((i for i in space.keys.get(key, ()) if i not in skip), default=None) for key in keys]

    def _apply_pending(self) -> None:
        if self.fresh is not None and self._spaces and not self.fresh():
            self._spaces.clear()
            self.clears += 1
        while self._pending:
            what, item = self._pending.popleft()
            if what == "upsert":
                space = self._spaces.get(item.namespace)
                if space is not None:
                    space.upsert(item)
                # a memory moved between namespaces leaves its old one
                for name, other in self._spaces.items():
                    if name != item.namespace and item.id in other.slot:
                        other.delete(item.id)
            else:
                for other in self._spaces.values():
                    other.delete(item)
        while self._spaces and self._total() > self.max_rows:
            self._evict(self._coldest()[0])  # grew past the budget
        self._rows_total = self._total()

    def _total(self) -> int:
        return sum(len(s) for s in self._spaces.values())

    def _count(self, namespace: str) -> None:
        self._demand[namespace] = self._demand.get(namespace, 0.0) + 1.0
        self._ticks += 1
        if self._ticks % AGE_EVERY == 0:
            for name in list(self._demand):
                self._demand[name] /= 2.0
                if self._demand[name] < 0.25 and name not in self._spaces:
                    del self._demand[name]  # (bounded: a namespace searched once is soon forgotten)

    def _coldest(self) -> list[str]:
        """Kept namespaces, least demanded first (least recently used among equals)."""
        order = {name: i for i, name in enumerate(self._spaces)}
        return sorted(self._spaces, key=lambda name: (self._demand.get(name, 0.0), order[name]))

    def _evict(self, namespace: str) -> None:
        del self._spaces[namespace]
        self.evictions += 1

    def _victims(self, namespace: str, rows: int) -> list[str] | None:
        """The kept namespaces to evict so that *rows* more fit, or None when they are in too
        much demand compared with *namespace* (it is then searched in the store)."""
        free = self.max_rows - self._total()
        victims: list[str] = []
        for name in self._coldest():
            if free >= rows:
                break
            victims.append(name)
            free += len(self._spaces[name])
        if not victims:
            return victims
        theirs = sum(self._demand.get(name, 0.0) for name in victims)
        mine = self._demand.get(namespace, 0.0)
        return victims if mine >= ADMIT_MIN and mine >= ADMIT_RATIO * theirs else None

    def _load(self, namespace: str, evict: bool = True) -> _Namespace | None:
        if self.store.ns_rows.get(namespace, 0) > self.max_rows:
            return None  # (an upper bound: deletes are not subtracted until maintenance)
        # A first guess of its size, to refuse before scanning when it cannot be admitted.
        if self._victims(namespace, min(self.store.ns_rows.get(namespace, 0), self.max_rows)) is None:
            self.refused += 1
            return None
        rows = self.store.rows_in(namespace, limit=self.max_rows + 1)
        if len(rows) > self.max_rows:
            return None
        victims = self._victims(namespace, len(rows))
        if victims is None or (victims and not evict):
            self.refused += 1
            return None
        for name in victims:
            self._evict(name)
        space = _Namespace(self.store.dim, rows, self.text_key)
        self._spaces[namespace] = space
        self._rows_total = self._total()
        self.loads += 1
        return space

    def stats(self) -> CacheStats:
        return CacheStats(
            max_rows=self.max_rows,
            namespaces=len(self._spaces),
            rows=self._rows_total,
            searches=self.searches,
            store_searches=self.fallbacks,
            loads=self.loads,
            evictions=self.evictions,
            refused=self.refused,
            text_searches=self.text_searches,
            text_store_searches=self.text_fallbacks,
            gets=self.gets,
        )
