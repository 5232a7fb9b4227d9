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
import hashlib
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


#: Languages the context variant gives each namespace's files (by a stable hash of its name).
LANGUAGES = (("python", "py"), ("typescript", "ts"), ("go", "go"), ("rust", "rs"), ("java", "java"))


def _stable(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


def editor_metadata(m: dict[str, Any]) -> dict[str, Any]:
    """What an editor plugin would have recorded with *m*: its project (the namespace), a file
    named after its first tags (memories on one topic share a file), a line and a language."""
    language, ext = LANGUAGES[_stable(m["namespace"]) % len(LANGUAGES)]
    tags = [t.replace(" ", "-") for t in m.get("tags") or []] or ["notes"]
    file = f"src/{tags[0]}/{tags[1] if len(tags) > 1 else 'index'}.{ext}"
    return {"project": m["namespace"], "file": file, "line": 1 + _stable(m["id"]) % 400, "language": language}


def query_context(q: dict[str, Any], meta: dict[str, dict[str, Any]], mode: str) -> dict[str, Any] | None:
    """The editor's context for *q*: ``right`` — the file of its best answer is open (and the
    project and language are the namespace's); ``wrong`` — a file of the same project that
    holds none of its relevant memories; ``none``."""
    if mode == "none":
        return None
    best = max(q["relevant"], key=lambda mid: (q["relevant"][mid], mid))
    file = meta[best]["file"]
    if mode == "wrong":
        relevant_files = {meta[mid]["file"] for mid in q["relevant"] if mid in meta}
        others = sorted({v["file"] for v in meta.values() if v["project"] == q["namespace"]} - relevant_files)
        file = others[_stable(q["qid"]) % len(others)]
    return {"project": q["namespace"], "file": file, "language": meta[best]["language"]}


def evaluate(set_dir: Path, config_text: str | None, rerank: bool = True, context: str | None = None) -> dict[str, Any]:
    """*context*: None (memories without metadata, queries without context), or ``none`` /
    ``right`` / ``wrong``: memories with editor metadata, queries with that context."""
    corpus = load(set_dir / "corpus.jsonl")
    queries = load(set_dir / "queries.jsonl")
    meta = {m["id"]: editor_metadata(m) for m in corpus} if context is not None else {}
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
                    | ({"metadata": meta[m["id"]]} if meta else {})
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
            ctx = query_context(q, meta, context) if context is not None else None
            results = c.query(q["text"], namespace=q["namespace"], limit=10, rerank=rerank, context=ctx)
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
    ap.add_argument(
        "--context",
        action="store_true",
        help="the editor-context variant: memories with editor metadata, nDCG@5 with the right context, a wrong one, none",
    )
    args = ap.parse_args()
    set_dir = Path(args.set) if Path(args.set).is_dir() else DATA / args.set
    config_text = args.config.read_text() if args.config else None
    if args.reranker:
        config_text = (config_text or "") + f'\n[reranker]\nmodel_dir = "{args.reranker.resolve()}"\n'

    if args.context:
        return context_report(set_dir, config_text, rerank=not args.no_rerank, as_json=args.json)
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


def context_report(set_dir: Path, config_text: str | None, rerank: bool, as_json: bool) -> int:
    """The three contexts, each on a fresh daemon (queries count accesses, which feed scores)."""
    runs = {mode: evaluate(set_dir, config_text, rerank=rerank, context=mode) for mode in ("none", "right", "wrong")}
    if as_json:
        print(json.dumps({mode: {k: v for k, v in r.items() if k != "failures"} for mode, r in runs.items()}, indent=2))
    else:
        print(f"set {set_dir.name} with editor metadata: nDCG@5 / Recall@5 / MRR@10 by the query's context")
        print(f"{'kind':<12} {'n':>3} {'no context':>22} {'right file':>22} {'wrong file':>22}")
        kinds = [*runs["none"]["kinds"], "overall"]
        for kind in kinds:
            cells = []
            for mode in ("none", "right", "wrong"):
                m = runs[mode]["overall"] if kind == "overall" else runs[mode]["kinds"][kind]
                cells.append(f"{m['ndcg@5']:.4f}/{m['recall@5']:.4f}/{m['mrr@10']:.4f}")
            n = (runs["none"]["overall"] if kind == "overall" else runs["none"]["kinds"][kind])["n"]
            print(f"{kind:<12} {n:>3} {cells[0]:>22} {cells[1]:>22} {cells[2]:>22}")
        base = runs["none"]["overall"]["ndcg@5"]
        print(
            f"nDCG@5 change: right context {runs['right']['overall']['ndcg@5'] - base:+.4f}, "
            f"wrong context {runs['wrong']['overall']['ndcg@5'] - base:+.4f} (must not fall below -0.01)"
        )
    leaks = sum(r["leaks"] for r in runs.values())
    return 1 if leaks else 0


if __name__ == "__main__":
    raise SystemExit(main())
