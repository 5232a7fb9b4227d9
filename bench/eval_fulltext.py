"""Does the in-memory full-text index rank as LanceDB's FTS index does?

    python bench/eval_fulltext.py [--set dev] [--k 15]

Loads a retrieval set's memories into a real `MemoryStore` (random vectors: only the text
matters here), builds the store's full-text index as maintenance does, and asks every
question of the set both ways, filtered to its namespace: LanceDB's FTS (`MemoryStore.text_search`)
and the neighbour cache's in-memory index (`NeighbourCache.text_search`). Prints the share of
questions whose top 5 (in order) and top *k* (as sets: the query's recall net) are identical,
the largest score difference on rows both return, and the median time of each, with
examples of the questions that differ.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from omegad.recall.neighbours import NeighbourCache  # noqa: E402
from omegad.storage.maintenance import Maintenance  # noqa: E402
from omegad.storage.rows import Filter, Row  # noqa: E402
from omegad.storage.store import MemoryStore  # noqa: E402

DIM = 16


def _same_but_ties(a: list[tuple[Row, float]], b: list[tuple[Row, float]], tol: float = 1e-4) -> bool:
    """The top 5 of *a* and *b* have the same scores, and the same rows but where a score is
    shared by several rows of either list."""
    if len(a[:5]) != len(b[:5]):
        return False
    scores = [s for _, s in a] + [s for _, s in b]
    for (ra, sa), (rb, sb) in zip(a[:5], b[:5], strict=True):
        if abs(sa - sb) > tol:
            return False
        tied = sum(abs(s - sa) <= tol for s in scores) > 2
        if ra.id != rb.id and not tied:
            return False
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="dev", help="bench/data/retrieval/<set>")
    ap.add_argument("--k", type=int, default=15, help="the recall net compared as a set")
    args = ap.parse_args()
    base = REPO / "bench" / "data" / "retrieval" / args.set
    corpus = [json.loads(line) for line in (base / "corpus.jsonl").read_text().splitlines() if line.strip()]
    queries = [json.loads(line) for line in (base / "queries.jsonl").read_text().splitlines() if line.strip()]
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore.open(Path(tmp), "eval-fulltext", DIM)
        rows = [
            Row(
                id=m["id"],
                text=m["text"],
                type=m.get("type", "memory"),
                tags=list(m.get("tags", [])),
                namespace=m["namespace"],
                metadata={},
                created_at=1 + k,
                updated_at=1 + k,
                version=1,
                vector=rng.standard_normal(DIM).astype(np.float32),
            )
            for k, m in enumerate(corpus)
        ]
        store.insert(rows)
        Maintenance(store).create_missing_indexes()
        cache = NeighbourCache(store, max_rows=len(rows) + 1)
        same5 = same_k = same5_ties = 0
        worst = 0.0
        lance_ms: list[float] = []
        memory_ms: list[float] = []
        differ: list[str] = []
        for q in queries:
            flt = Filter(q["namespace"])
            t0 = time.perf_counter()
            theirs = store.text_search(q["text"], flt, args.k)
            t1 = time.perf_counter()
            ours = cache.text_search(q["namespace"], q["text"], args.k, flt)
            t2 = time.perf_counter()
            assert ours is not None, "the cache holds every namespace: it must answer"
            lance_ms.append((t1 - t0) * 1000)
            memory_ms.append((t2 - t1) * 1000)
            a = [r.id for r, _ in theirs]
            b = [r.id for r, _ in ours]
            same5 += a[:5] == b[:5]
            # equal scores come back in an order of LanceDB's making (not the table's): count
            # a top 5 the same when it differs only among rows of equal score
            same = _same_but_ties(theirs, ours)
            same5_ties += same
            sa, sb = {r.id: s for r, s in theirs}, {r.id: s for r, s in ours}
            same_k += set(a) == set(b)
            sa, sb = {r.id: s for r, s in theirs}, {r.id: s for r, s in ours}
            worst = max([worst, *(abs(sa[i] - sb[i]) for i in sa.keys() & sb.keys())])
            if not same and len(differ) < 5:
                show = lambda hits: [(r.id, round(s, 3)) for r, s in hits[:5]]  # noqa: E731
                differ.append(f"  {q['qid']} {q['text']!r}\n    lance  {show(theirs)}\n    memory {show(ours)}")
        n = len(queries)
        print(f"set {args.set}: {len(rows)} memories, {n} questions")
        print(f"identical top 5 (in order): {same5}/{n} = {same5 / n:.3f}")
        print(f"identical top 5 but for the order of equal scores: {same5_ties}/{n} = {same5_ties / n:.3f}")
        print(f"identical top {args.k} (as sets): {same_k}/{n} = {same_k / n:.3f}")
        print(f"largest score difference on rows both return: {worst:.2e}")
        print(f"median ms: lance {statistics.median(lance_ms):.2f}, in memory {statistics.median(memory_ms):.3f}")
        if differ:
            print("first differences:")
            print("\n".join(differ))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
