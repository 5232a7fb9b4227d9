"""Retrieval quality over the socket: nDCG@5, Recall@5 and MRR@10 per query kind.

    python bench/eval_retrieval.py [--set dev|holdout|DIR] [--config omegad.toml] [--json]

Loads ``corpus.jsonl`` (memories with namespace, type, tags, created_at) into a fresh daemon
with ``store_batch`` and runs every query of ``queries.jsonl`` in its namespace.

* nDCG@5: gains ``2^grade − 1``, ideal ordering from every graded memory of the query.
* Recall@5: share of the memories graded ≥ 1 that appear in the top 5.
* MRR@10: reciprocal rank of the first result holding the query's highest grade (so for a
  superseded fact the *newer* memory must come first to score 1).
* leaks: results from another namespace (must be 0).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _daemon import BenchDaemon

DATA = Path(__file__).resolve().parent / "data" / "retrieval"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def ndcg_at(ranked: list[str], grades: dict[str, int], k: int) -> float:
    dcg = sum((2 ** grades.get(mid, 0) - 1) / math.log2(i + 2) for i, mid in enumerate(ranked[:k]))
    ideal = sorted(grades.values(), reverse=True)[:k]
    idcg = sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], grades: dict[str, int], k: int) -> float:
    relevant = {m for m, g in grades.items() if g >= 1}
    return len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0


def mrr_at(ranked: list[str], grades: dict[str, int], k: int) -> float:
    best = max(grades.values())
    for i, mid in enumerate(ranked[:k]):
        if grades.get(mid, 0) == best:
            return 1.0 / (i + 1)
    return 0.0


def evaluate(set_dir: Path, config_text: str | None, rerank: bool = True) -> dict[str, Any]:
    corpus = load(set_dir / "corpus.jsonl")
    queries = load(set_dir / "queries.jsonl")
    ns_of = {m["id"]: m["namespace"] for m in corpus}
    per_kind: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    leaks = 0
    latencies: list[float] = []
    failures: list[dict[str, Any]] = []
    with BenchDaemon(config_text) as d, d.client() as c:
        for start in range(0, len(corpus), 200):
            c.store_batch(
                [
                    {k: m[k] for k in ("id", "text", "type", "tags", "namespace", "created_at")}
                    for m in corpus[start : start + 200]
                ]
            )
        c.flush()
        # Let a reranker that is still loading finish, so the numbers say what they measured.
        deadline = time.monotonic() + 120
        while c.hello()["reranker"]["state"] in ("loading", "downloading") and time.monotonic() < deadline:
            time.sleep(0.1)
        reranker = c.hello()["reranker"]
        for q in queries:
            t0 = time.perf_counter()
            results = c.query(q["text"], namespace=q["namespace"], limit=10, rerank=rerank)
            latencies.append((time.perf_counter() - t0) * 1000)
            ranked = [r["id"] for r in results]
            leaks += sum(1 for mid in ranked if ns_of.get(mid) != q["namespace"])
            grades = {k: int(v) for k, v in q["relevant"].items()}
            scores = (ndcg_at(ranked, grades, 5), recall_at(ranked, grades, 5), mrr_at(ranked, grades, 10))
            per_kind[q["kind"]].append(scores)
            if scores[2] < 1.0:
                failures.append(
                    {
                        "qid": q["qid"],
                        "kind": q["kind"],
                        "text": q["text"],
                        "mrr": round(scores[2], 3),
                        "top": ranked[:3],
                        "want": [m for m, g in grades.items() if g == max(grades.values())],
                    }
                )
    summary: dict[str, Any] = {
        "kinds": {},
        "leaks": leaks,
        "queries": len(queries),
        "memories": len(corpus),
        "reranker": reranker if rerank else {"state": "off (--no-rerank)"},
    }
    all_scores: list[tuple[float, float, float]] = []
    for kind in sorted(per_kind):
        rows = per_kind[kind]
        all_scores += rows
        summary["kinds"][kind] = _agg(rows)
    summary["overall"] = _agg(all_scores)
    summary["query_ms_p50"] = round(statistics.median(latencies), 2)
    summary["failures"] = failures
    return summary


def _agg(rows: list[tuple[float, float, float]]) -> dict[str, float]:
    return {
        "n": len(rows),
        "ndcg@5": round(statistics.fmean(r[0] for r in rows), 4),
        "recall@5": round(statistics.fmean(r[1] for r in rows), 4),
        "mrr@10": round(statistics.fmean(r[2] for r in rows), 4),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="dev", help="dev, holdout, or a directory with corpus.jsonl + queries.jsonl")
    ap.add_argument("--config", type=Path, help="omegad TOML config to evaluate")
    ap.add_argument("--no-rerank", action="store_true")
    ap.add_argument("--reranker", type=Path, help="cross-encoder model directory (sets reranker.model_dir)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--failures", action="store_true", help="list queries whose best answer is not first")
    args = ap.parse_args()
    set_dir = Path(args.set) if Path(args.set).is_dir() else DATA / args.set
    config_text = args.config.read_text() if args.config else None
    if args.reranker:
        config_text = (config_text or "") + f'\n[reranker]\nmodel_dir = "{args.reranker.resolve()}"\n'

    summary = evaluate(set_dir, config_text, rerank=not args.no_rerank)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(
        f"set {set_dir.name}: {summary['memories']} memories, {summary['queries']} queries, query p50 {summary['query_ms_p50']} ms"
    )
    r = summary["reranker"]
    print(f"reranker: {r['state']}" + (f" ({r['model']}, quantization {r['quantization']})" if "model" in r else ""))
    print(f"{'kind':<12} {'n':>3} {'nDCG@5':>8} {'Recall@5':>9} {'MRR@10':>8}")
    for kind, m in [*summary["kinds"].items(), ("overall", summary["overall"])]:
        print(f"{kind:<12} {m['n']:>3} {m['ndcg@5']:>8.4f} {m['recall@5']:>9.4f} {m['mrr@10']:>8.4f}")
    print(f"namespace leaks: {summary['leaks']}")
    if args.failures:
        for f in summary["failures"]:
            print(json.dumps(f))
    return 1 if summary["leaks"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
