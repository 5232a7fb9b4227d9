"""Searches of the memories table: nearest vectors and full-text matches, filtered inside the
storage query, without its dead rows, one row per id. Blocking; `MemoryStore` runs them as
reads (`omegad.storage.readers.reader`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from omegad.storage.indexes import VECTOR_INDEX_MAX_PARTITIONS
from omegad.storage.rows import SELECT, Filter, Row, hits_of, one_per_id, rows_of, scored_of
from omegad.storage.tombstones import NO_DEAD_ROWS, DeadRows

if TYPE_CHECKING:
    from omegad.storage.store import MemoryStore

__all__ = ["Search"]

#: Candidates re-scored exactly after the quantised index search, per result asked for.
REFINE_FACTOR = 5
#: The HNSW search's breadth (a RaBitQ index ignores it). LanceDB's default, 1.5 × the rows
#: asked for, lost whole queries that fall between clusters; this one finds them for a few ms
#: more per search (docs/storage.md, "Vector index and search path").
HNSW_EF = 1_500
#: A namespace holding at least this share of the table is searched with its filter applied
#: *after* the graph search: building the row mask of a prefilter over most of the table costs
#: more than the search, at the same recall (docs/storage.md, "Vector index and search path").
#: The search fetches enough rows that the filter still leaves k (`_postfilter_fetch`), and
#: falls back to a prefilter when it does not.
POSTFILTER_SHARE = 0.5
POSTFILTER_REFINE = 2
#: The graph's breadth for a search of the rows *near* a vector only (`vector_search(near=True)`:
#: the contradiction checker, whose vectors are memories of the namespace and which keeps
#: only neighbours above a similarity gate). The wide `HNSW_EF` is for questions that fall
#: between clusters; this one about halves the time of the checker's searches and finds the
#: same neighbours. RaBitQ still probes every partition: probing fewer loses neighbours
#: (docs/contradictions.md, "A narrower graph search for the checker").
NEAR_EF = 150
#: Candidates re-scored per result when the search after ranking came up short — the query is
#: nearer another namespace's rows than this one's, so this one's nearest are all far and about
#: equally so, where quantised distances rank worst: RaBitQ's 5 per result now and then missed
#: one (tests/unit/test_vector_index.py, the island query; docs/storage.md). Only that fallback
#: pays it.
FAR_REFINE = 20
#: What a full-text search that asks for many rows selects, before it reads the k best
#: whole (`Search._take`): about half the time of selecting every column.
RANKED = ("_rowid", "_score")
#: The most rows a full-text search filtered after ranking asks for, per result, while dead
#: rows take the first places, before it filters first instead, which costs more
#: (docs/storage.md, Maintenance: "Deleted rows").
TEXT_POSTFILTER_MAX = 16


class Search:
    """The searches of one store (run by `MemoryStore.vector_search`, `vector_search_many` and `text_search`)."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    def vector(
        self, vector: npt.NDArray[np.float32], flt: Filter, k: int, *, near: bool = False
    ) -> list[tuple[Row, float]]:
        """Nearest rows by cosine similarity, filtered inside the query (see `_vector_query`
        for when the index is used, and `_postfilter_fetch` for when the filter comes after).
        *near*: only rows near the vector are wanted (`NEAR_EF`)."""
        dead = self.store.dead
        fetch = self._postfilter_fetch(flt, k)
        if fetch is not None:  # dead rows dropped after: twice as many more asked for as expected
            in_ns = dead.per_namespace.get(flt.namespace, 0)
            pad = min(in_ns, k, 2 + math.ceil(2 * fetch * in_ns / max(self.store.ns_rows.get(flt.namespace, 0), 1)))
            hits = hits_of(
                dead.drop(self._vector_query(vector, flt, k, fetch + pad, near=near).to_arrow()), self.store.dim
            )
            if len(hits) >= k:
                return one_per_id(hits[:k])
        far = FAR_REFINE if fetch is not None else None  # (the search after ranking came up short)
        tbl = self._top_k_live(
            lambda n: self._vector_query(vector, flt, n, dead=dead, refine=far, near=near).to_arrow(),
            k,
            flt.namespace,
            dead,
        )
        return one_per_id(hits_of(tbl, self.store.dim))

    @staticmethod
    def _top_k_live(run: Callable[[int], pa.Table], k: int, namespace: str, dead: DeadRows) -> pa.Table:
        """``run(n)`` — the best *n* rows, filtered first — without the dead rows, still *k*
        when there are. The filter keeps out the dead rows in long runs (`DeadRows.excluding`);
        for the others (`DeadRows.not_excluded`) it asks for as many more rows as there are (up
        to k) and, while more than that were among them, for four times as many more (up to
        all)."""
        extra = dead.not_excluded(namespace)
        if not extra:
            return run(k)
        pad = min(extra, k)
        while True:
            tbl = run(k + pad)
            live = dead.drop(tbl)
            if live.num_rows >= k or tbl.num_rows < k + pad or pad >= extra:
                return live.slice(0, k)
            pad = min(extra, 4 * pad)

    def vector_many(
        self, vectors: Sequence[npt.NDArray[np.float32]], flt: Filter, k: int, *, near: bool = False
    ) -> list[list[tuple[Row, float]]]:
        """`vector_search` for several vectors in one storage query (one scan instead of one
        per vector: docs/contradictions.md, Neighbours); results per vector, nearest first."""
        if not vectors:
            return []
        if len(vectors) == 1:
            return [self.vector(vectors[0], flt, k, near=near)]
        dead = self.store.dead
        fetch = self._postfilter_fetch(flt, k)
        raw = self._vector_query(np.stack(vectors), flt, k, fetch, dead=dead, near=near).to_arrow()
        tbl = dead.drop(raw)
        out: list[list[tuple[Row, float]]] = [[] for _ in vectors]
        qidx = tbl.column("query_index").to_pylist()
        distances = tbl.column("_distance").to_pylist()
        for q, row, dist in zip(qidx, rows_of(tbl, self.store.dim), distances, strict=True):
            out[int(q)].append((row, 1.0 - float(dist)))
        lost = raw.num_rows - tbl.num_rows  # dead rows among them: a short list may lack live ones
        for i, hits in enumerate(out):
            hits.sort(key=lambda h: -h[1])
            del hits[k:]
            if len(hits) < k and (fetch is not None or lost):
                out[i] = self.vector(vectors[i], flt, k, near=near)  # (with a prefilter, topped up)
            else:
                out[i] = one_per_id(hits)
        return out

    def uses_vector_index(self, namespace: str) -> bool:
        return (
            self.store.indexes.vector and self.store.ns_rows.get(namespace, 0) >= self.store.indexes.min_namespace_rows
        )

    def _postfilter_fetch(self, flt: Filter, k: int, indexed: bool | None = None) -> int | None:
        """How many nearest rows to fetch before applying *flt*, when it keeps most of the
        table (a namespace of at least `POSTFILTER_SHARE`, searched through the index —
        *indexed*, by default the vector index — with no other condition than hidden ids);
        None: filter first."""
        if not (self.uses_vector_index(flt.namespace) if indexed is None else indexed):
            return None
        if flt.types or flt.tags or flt.since_us is not None or flt.until_us is not None:
            return None
        total = sum(self.store.ns_rows.values())
        share = self.store.ns_rows.get(flt.namespace, 0) / total if total else 0.0
        if share < POSTFILTER_SHARE:
            return None
        fetch = math.ceil(1.5 * k / share) + len(flt.exclude_ids)
        return fetch if fetch <= 10 * k else None

    def _take(self, ranked: pa.Table, score: str) -> pa.Table | None:
        """The rows of *ranked* (``_rowid`` and the *score* column of a search that selected
        only those: `RANKED`), whole and in its order; None when some are no longer at those
        addresses — a compaction committed since the search (Lance never reuses a fragment
        id, so an address finds its own row or none) — or there are none."""
        addresses = ranked.column("_rowid").to_pylist()
        if not addresses:
            return None
        full = self.store.table.take_row_ids(addresses).select(SELECT).to_arrow()
        if full.num_rows != len(addresses):
            return None
        place = {a: i for i, a in enumerate(full.column("_rowid").to_pylist())}
        full = full.take(pa.array([place[a] for a in addresses], pa.int64()))
        return full.append_column(score, ranked.column(score))

    def _vector_query(
        self,
        vectors: Any,
        flt: Filter,
        k: int,
        fetch: int | None = None,
        dead: DeadRows = NO_DEAD_ROWS,
        refine: int | None = None,
        near: bool = False,
    ) -> Any:
        """A namespace with at least ``index_min_namespace_rows`` rows is searched through the
        vector index (every partition probed, the namespace filter applied inside the scan,
        then the top candidates re-scored exactly: ``refine_factor``); a smaller one exactly,
        by brute force over its rows — cheaper than scanning every code of a big table.
        Rows written since the index was last folded are always scanned exactly as well.
        A filter applied first also keeps out the *dead* rows (`DeadRows.excluding`)."""
        post = fetch is not None  # the filter after the index search (see `_postfilter_fetch`)
        n = fetch if fetch is not None else k
        q = (
            self.store.table.search(vectors, vector_column_name="vector")
            .distance_type("cosine")
            .where(flt.sql() if post else dead.where(flt), prefilter=not post)
            .select([*SELECT, "_distance"])
            .limit(n)
        )
        # RaBitQ: every partition (nprobes); HNSW: a wide breadth, at least Lance's default,
        # 1.5 × the candidates (it refuses fewer). Each index ignores the other's setting.
        if post:  # (RaBitQ's codes rank far queries too coarsely for 2: docs/storage.md)
            refine = (
                POSTFILTER_REFINE
                if (self.store.indexes.vector_built or self.store.indexes.vector_kind) == "hnsw"
                else REFINE_FACTOR
            )
            return self._probe(q.refine_factor(refine), n * refine, near)
        if not self.store.indexes.vector:
            return q  # nothing to bypass: a flat scan
        if self.uses_vector_index(flt.namespace):
            refine = refine or REFINE_FACTOR  # (*refine*: `FAR_REFINE`, after a short search)
            return self._probe(q.refine_factor(refine), n * refine, near)
        return q.bypass_vector_index()

    @staticmethod
    def _probe(q: Any, candidates: int, near: bool = False) -> Any:
        """Every RaBitQ partition, and the graph's wide breadth (*near*: `NEAR_EF`)."""
        return q.nprobes(VECTOR_INDEX_MAX_PARTITIONS).ef(max(NEAR_EF if near else HNSW_EF, candidates * 3 // 2))

    def text(self, text: str, flt: Filter, k: int) -> list[tuple[Row, float]]:
        """Full-text (BM25) matches, filtered inside the query; empty before the first index."""
        if not self.store.indexes.fts:
            return []
        dead = self.store.dead
        big = self.store.ns_rows.get(flt.namespace, 0) >= self.store.indexes.min_namespace_rows
        fetch = self._postfilter_fetch(flt, k, indexed=big)
        if fetch is not None:
            in_ns = dead.per_namespace.get(flt.namespace, 0)
            pad = min(in_ns, k)
            raw = self._text_query(text, flt, fetch + pad, prefilter=False)
            tbl = dead.drop(raw)
            if tbl.num_rows >= k:
                return one_per_id(scored_of(tbl.slice(0, k), self.store.dim))
            # Dead rows took the places: they may rank first (ties come back in table order,
            # and the oldest rows die first). Four times as many more, up to
            # `TEXT_POSTFILTER_MAX` × k, ranked on addresses and scores alone, and then only
            # the k best read whole (`_take`); filtering first is the fallback.
            while tbl.num_rows < raw.num_rows and fetch + pad < TEXT_POSTFILTER_MAX * k:
                pad = min(4 * pad, TEXT_POSTFILTER_MAX * k - fetch)
                raw = self._text_query(text, flt, fetch + pad, prefilter=False, columns=RANKED)
                tbl = dead.drop(raw)
                if tbl.num_rows >= k:
                    full = self._take(tbl.slice(0, k), "_score")
                    if full is not None:
                        return one_per_id(scored_of(full, self.store.dim))
                    break
        tbl = self._top_k_live(
            lambda n: self._text_query(text, flt, n, prefilter=True, dead=dead), k, flt.namespace, dead
        )
        return one_per_id(scored_of(tbl, self.store.dim))

    def _text_query(
        self,
        text: str,
        flt: Filter,
        k: int,
        prefilter: bool,
        dead: DeadRows = NO_DEAD_ROWS,
        columns: Sequence[str] = (*SELECT, "_score"),
    ) -> pa.Table:
        """BM25 matches of *text* under *flt*: applied before ranking (*prefilter*) or after.
        A namespace that holds most of the table is filtered after (`_postfilter_fetch`):
        before, Lance lists the row ids of the whole namespace for each search whenever the
        namespace index covers other fragments than the full-text index (rows committed while a
        pass folded one and then the other), which costs more than the search itself."""
        return (  # (filtered first, dead rows ranked first would take the places: `DeadRows.where`)
            self.store.table.search(text, query_type="fts", fts_columns="text")
            .where(dead.where(flt) if prefilter else flt.sql(), prefilter=prefilter)
            .select(list(columns))
            .limit(k)
            .to_arrow()
        )
