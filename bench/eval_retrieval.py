"""Retrieval quality over the socket: nDCG@5, Recall@5 and MRR@10 per query kind and per
style of the answer, abstention on unanswerable questions, and what the relevance floor costs.

    python bench/eval_retrieval.py [--set dev|holdout|blind|DIR] [--config omegad.toml]
        [--floor X] [--json]

Loads ``corpus.jsonl`` (memories with namespace, type, tags, created_at) into a fresh daemon
with ``store_batch`` and runs every query of ``queries.jsonl`` in its namespace.

* nDCG@5: gains ``2^grade − 1``, ideal ordering from every graded memory of the query.
* Recall@5: share of the memories graded ≥ 1 that appear in the top 5.
* MRR@10: reciprocal rank of the first result holding the query's highest grade (so for a
  superseded fact the *newer* memory must come first to score 1).
* abstention: share of the unanswerable questions (``relevant`` empty) answered with nothing
  once the floor (``query.min_score``, or ``--floor``) is applied; the Recall@5 of the
  answerable ones is reported with and without the floor, and a sweep of floors.
* A ``time_bounded`` question's ``since`` / ``until`` are passed to the query, as an agent would
  (``--no-window``: not passed; the period is then only in the question's words).
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


def evaluate(
    set_dir: Path,
    config_text: str | None,
    rerank: bool = True,
    context: str | None = None,
    floor: float | None = None,
    window: bool = True,
) -> dict[str, Any]:
    """*context*: None (memories without metadata, queries without context), or ``none`` /
    ``right`` / ``wrong``: memories with editor metadata, queries with that context. Queries run
    with the floor off (``min_score`` 0) and *floor* (default: the configured
    ``query.min_score``) is applied to their scores afterwards, which is exactly what the
    daemon's floor does, so one run gives the figures with and without it. *window* False asks
    the time-bounded questions without their ``since`` / ``until``: the words alone, as a
    person types them."""
    corpus = load(set_dir / "corpus.jsonl")
    queries = load(set_dir / "queries.jsonl")
    meta = {m["id"]: editor_metadata(m) for m in corpus} if context is not None else {}
    ns_of = {m["id"]: m["namespace"] for m in corpus}
    style_of = {m["id"]: m.get("style", "-") for m in corpus}
    if floor is None:
        floor = _configured_floor(config_text)
    runs: list[dict[str, Any]] = []
    latencies: list[float] = []
    with BenchDaemon(config_text) as d, d.client() as c:
        for start in range(0, len(corpus), 200):
            c.store_batch(
                [
                    {k: m[k] for k in ("id", "text", "type", "tags", "namespace", "created_at")}
                    | ({"metadata": meta[m["id"]]} if meta else {})
                    for m in corpus[start : start + 200]
                ]
            )
            # Each batch committed and checked for contradictions before the next: which
            # neighbours a check sees depends on what is committed by then, and stores are
            # acknowledged before their commit, so without this the edges (and rankings)
            # depended on timing (docs/scoring.md, "Repeatable runs").
            c.flush()
        # One maintenance pass folds every row into the indexes, so no pass the scheduler
        # starts during the queries changes what they find: two runs give the same rankings.
        c.maintain()
        c.flush()
        # Let a reranker that is still loading finish, so the numbers say what they measured.
        deadline = time.monotonic() + 120
        while c.hello()["reranker"]["state"] in ("loading", "downloading") and time.monotonic() < deadline:
            time.sleep(0.1)
        reranker = c.hello()["reranker"]
        for q in queries:
            t0 = time.perf_counter()
            ctx = query_context(q, meta, context) if context is not None and q["relevant"] else None
            bounds = {k: q[k] for k in ("since", "until") if q.get(k)} if window else {}
            results = c.query(
                q["text"], namespace=q["namespace"], limit=10, rerank=rerank, context=ctx, min_score=0.0, **bounds
            )
            latencies.append((time.perf_counter() - t0) * 1000)
            grades = {k: int(v) for k, v in q["relevant"].items()}
            best = max(grades, key=lambda m: (grades[m], m)) if grades else None
            runs.append(
                {
                    "qid": q["qid"],
                    "kind": q["kind"],
                    "text": q["text"],
                    "style": style_of.get(best, "-") if best else "-",
                    "namespace": q["namespace"],
                    "ranked": [(r["id"], float(r["score"])) for r in results],
                    "grades": grades,
                }
            )
    summary = summarise(runs, floor, ns_of)
    summary.update(
        memories=len(corpus),
        reranker=reranker if rerank else {"state": "off (--no-rerank)"},
        query_ms_p50=round(statistics.median(latencies), 2),
        floor_sweep=[_floor_point(runs, f, ns_of) for f in FLOOR_SWEEP],
        top5={r["qid"]: [mid for mid, _ in r["ranked"][:5]] for r in runs},
    )
    return summary


def same_top5(a: dict[str, list[str]], b: dict[str, list[str]]) -> tuple[int, int]:
    """How many questions answered in both runs have the same five results in the same order."""
    common = sorted(set(a) & set(b))
    return sum(1 for q in common if a[q] == b[q]), len(common)


#: Floors the report sweeps (the abstention bought against the Recall@5 it costs).
FLOOR_SWEEP = [round(0.05 * i, 2) for i in range(0, 15)]


def _configured_floor(config_text: str | None) -> float:
    import tempfile

    from omegad.config import load_config

    if not config_text:
        return load_config().min_score
    with tempfile.NamedTemporaryFile("w", suffix=".toml") as f:
        f.write(config_text)
        f.flush()
        return load_config(Path(f.name)).min_score


def _scores(run: dict[str, Any], floor: float) -> tuple[float, float, float]:
    ranked = [mid for mid, score in run["ranked"] if score >= floor]
    g = run["grades"]
    return ndcg_at(ranked, g, 5), recall_at(ranked, g, 5), mrr_at(ranked, g, 10)


def summarise(runs: list[dict[str, Any]], floor: float, ns_of: dict[str, str]) -> dict[str, Any]:
    """Figures per kind and per style (of each question's best answer), answerable questions
    only; abstention on the unanswerable ones; all with *floor* applied, and the Recall@5 the
    floor costs."""
    answerable = [r for r in runs if r["grades"]]
    unanswerable = [r for r in runs if not r["grades"]]
    per_kind: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    per_style: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    failures = []
    for r in answerable:
        scores = _scores(r, floor)
        per_kind[r["kind"]].append(scores)
        per_style[r["style"]].append(scores)
        if scores[2] < 1.0:
            kept = [mid for mid, score in r["ranked"] if score >= floor]
            top = max(r["grades"].values())
            failures.append(
                {
                    "qid": r["qid"],
                    "kind": r["kind"],
                    "text": r["text"],
                    "mrr": round(scores[2], 3),
                    "top": kept[:3],
                    "want": [m for m, g in r["grades"].items() if g == top],
                }
            )
    all_scores = [s for rows in per_kind.values() for s in rows]
    off = [_scores(r, 0.0) for r in answerable]
    return {
        "queries": len(runs),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "floor": floor,
        "kinds": {k: _agg(v) for k, v in sorted(per_kind.items())},
        "styles": {k: _agg(v) for k, v in sorted(per_style.items())},
        "overall": _agg(all_scores) if all_scores else {},
        "abstention": _abstention(unanswerable, floor),
        "recall@5_without_floor": round(statistics.fmean(s[1] for s in off), 4) if off else None,
        "leaks": sum(1 for r in runs for mid, _ in r["ranked"] if ns_of.get(mid) != r["namespace"]),
        "failures": failures,
    }


def _agg(rows: list[tuple[float, float, float]]) -> dict[str, float]:
    return {
        "n": len(rows),
        "ndcg@5": round(statistics.fmean(r[0] for r in rows), 4),
        "recall@5": round(statistics.fmean(r[1] for r in rows), 4),
        "mrr@10": round(statistics.fmean(r[2] for r in rows), 4),
    }


def _abstention(unanswerable: list[dict[str, Any]], floor: float) -> float | None:
    """The share of unanswerable questions answered with nothing."""
    if not unanswerable:
        return None
    return round(sum(1 for r in unanswerable if not any(s >= floor for _, s in r["ranked"])) / len(unanswerable), 4)


def _floor_point(runs: list[dict[str, Any]], floor: float, ns_of: dict[str, str]) -> dict[str, Any]:
    s = summarise(runs, floor, ns_of)
    return {"floor": floor, "abstention": s["abstention"], "recall@5": s["overall"].get("recall@5"),
            "ndcg@5": s["overall"].get("ndcg@5")}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="dev", help="dev, holdout, or a directory with corpus.jsonl + queries.jsonl")
    ap.add_argument("--config", type=Path, help="omegad TOML config to evaluate")
    ap.add_argument("--no-rerank", action="store_true")
    ap.add_argument("--reranker", type=Path, help="cross-encoder model directory (sets reranker.model_dir)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--floor", type=float, default=None, help="the relevance floor (default: query.min_score)")
    ap.add_argument("--failures", action="store_true", help="list queries whose best answer is not first")
    ap.add_argument("--save-top5", type=Path, help="write each question's top five ids (JSON) to this file")
    ap.add_argument(
        "--compare-top5", type=Path, help="report how many questions keep the top five saved by --save-top5"
    )
    ap.add_argument(
        "--no-window",
        action="store_true",
        help="ask the time-bounded questions without their since/until (the period only in their words)",
    )
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
    summary = evaluate(set_dir, config_text, rerank=not args.no_rerank, floor=args.floor, window=not args.no_window)
    if args.save_top5:
        args.save_top5.write_text(json.dumps(summary["top5"]))
    if args.compare_top5:
        same, n = same_top5(json.loads(args.compare_top5.read_text()), summary["top5"])
        summary["same_top5"] = {"same": same, "of": n, "share": round(same / n, 4) if n else None}
    top5 = summary.pop("top5")
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(
        f"set {set_dir.name}: {summary['memories']} memories, {summary['queries']} queries "
        f"({summary['unanswerable']} unanswerable), query p50 {summary['query_ms_p50']} ms"
    )
    r = summary["reranker"]
    print(f"reranker: {r['state']}" + (f" ({r['model']}, quantization {r['quantization']})" if "model" in r else ""))
    for title, table in (("kind", summary["kinds"]), ("style", summary["styles"])):
        print(f"{title:<18} {'n':>3} {'nDCG@5':>8} {'Recall@5':>9} {'MRR@10':>8}")
        for kind, m in table.items():
            print(f"{kind:<18} {m['n']:>3} {m['ndcg@5']:>8.4f} {m['recall@5']:>9.4f} {m['mrr@10']:>8.4f}")
    m = summary["overall"]
    print(f"{'overall':<18} {m['n']:>3} {m['ndcg@5']:>8.4f} {m['recall@5']:>9.4f} {m['mrr@10']:>8.4f}")
    if summary["abstention"] is not None:
        print(
            f"floor {summary['floor']}: abstention {summary['abstention']} of unanswerable; Recall@5 "
            f"{m['recall@5']} with it, {summary['recall@5_without_floor']} without"
        )
        print("floor sweep (floor: abstention / Recall@5 / nDCG@5):")
        for pt in summary["floor_sweep"]:
            print(f"  {pt['floor']:.2f}: {pt['abstention']} / {pt['recall@5']} / {pt['ndcg@5']}")
    print(f"namespace leaks: {summary['leaks']}")
    if "same_top5" in summary:
        st = summary["same_top5"]
        print(f"same top five as {args.compare_top5.name}: {st['same']} of {st['of']} questions ({st['share']})")
    del top5
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
