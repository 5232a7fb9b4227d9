"""Quality of contradiction detection on labelled pairs: precision, recall and F1, overall,
per detector signal and per pair kind.

By default the pairs go through a real daemon (the product path: store, background check,
`contradictions`); ``--in-process`` scores them directly, which is faster for tuning. Each
line of a set (``bench/data/contradictions/{dev,holdout}.jsonl``) is
``{"pid", "old", "new", "label": 0|1, "kind", "note"}``. A pair is flagged when it passes the
similarity gate (embedding cosine of the two texts, all-MiniLM-L6-v2 as the daemon runs it,
against ``--gate``) and the detectors' combined confidence reaches ``--threshold``.

    python bench/eval_contradictions.py [--set dev|holdout|FILE] [--threshold 0.4] [--gate 0.35] [--errors]

Tune on dev only; report holdout once.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "bench" / "data" / "contradictions"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def cosines(pairs: list[dict[str, Any]]) -> list[float]:
    from omegad.config import load_config
    from omegad.server import load_embedder

    embedder = load_embedder(load_config())
    old = embedder.embed([p["old"] for p in pairs])
    new = embedder.embed([p["new"] for p in pairs])
    return [float(x) for x in (old * new).sum(axis=1)]


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def evaluate(pairs: list[dict[str, Any]], threshold: float, gate: float) -> dict[str, Any]:
    from omegad.contradict import detect

    cos = cosines(pairs)
    rows = []
    times = []
    for p, c in zip(pairs, cos, strict=True):
        t0 = time.perf_counter()
        d = detect(p["new"], p["old"])
        times.append((time.perf_counter() - t0) * 1000)
        flagged = c >= gate and d.flagged(threshold)
        rows.append({**p, "cosine": round(c, 4), "confidence": d.confidence, "flagged": flagged, "detection": d})
    return _summarise(rows, times, cos)


def _summarise(rows: list[dict[str, Any]], times: list[float], cos: list[float] | None = None) -> dict[str, Any]:
    tp = sum(1 for r in rows if r["flagged"] and r["label"])
    fp = sum(1 for r in rows if r["flagged"] and not r["label"])
    fn = sum(1 for r in rows if not r["flagged"] and r["label"])
    out: dict[str, Any] = {"pairs": len(rows), "positives": sum(r["label"] for r in rows), "tp": tp, "fp": fp, "fn": fn}
    out["precision"], out["recall"], out["f1"] = (round(x, 4) for x in prf(tp, fp, fn))
    # per signal: among flagged pairs where the signal fired, how many are true (precision);
    # and how many true pairs it helped flag
    per_signal: dict[str, dict[str, int]] = defaultdict(lambda: {"fired": 0, "true": 0})
    for r in rows:
        if not r["flagged"]:
            continue
        for s in {s.kind for s in r["detection"].signals}:
            per_signal[s]["fired"] += 1
            per_signal[s]["true"] += int(r["label"])
    out["signals"] = {
        k: {**v, "precision": round(v["true"] / v["fired"], 4) if v["fired"] else None}
        for k, v in sorted(per_signal.items())
    }
    per_kind: dict[str, dict[str, int]] = defaultdict(lambda: {"n": 0, "flagged": 0, "label": 0})
    for r in rows:
        k = per_kind[r["kind"]]
        k["n"] += 1
        k["flagged"] += int(r["flagged"])
        k["label"] = int(r["label"])
    out["kinds"] = dict(sorted(per_kind.items()))
    if cos is not None:
        pos = [r["cosine"] for r in rows if r["label"]]
        neg = [r["cosine"] for r in rows if not r["label"]]
        out["cosine"] = {
            "positives_p10": round(float(np.percentile(pos, 10)), 3) if pos else None,
            "positives_min": round(min(pos), 3) if pos else None,
            "negatives_median": round(statistics.median(neg), 3) if neg else None,
        }
    out["detect_ms_per_pair"] = {"median": round(statistics.median(times), 4), "max": round(max(times), 4)}
    out["rows"] = rows
    return out


def evaluate_daemon(pairs: list[dict[str, Any]], threshold: float, gate: float) -> dict[str, Any]:
    """The product path: a real daemon (cosine gate: `contradiction.gate_model = cosine`),
    each pair in its own namespace, the older memory stored (and back-dated) first; a pair
    counts as flagged when `contradictions` lists an edge from the newer to the older."""
    sys.path.insert(0, str(REPO / "bench"))
    from _daemon import BenchDaemon

    config = (
        f'[contradiction]\nthreshold = {threshold}\ngate_cosine = {gate}\ngate_model = "cosine"\n'
        "[reranker]\nenabled = false\n"
    )
    rows = []
    with BenchDaemon(config) as d, d.client() as c:
        for i, p in enumerate(pairs):
            ns = f"pair-{i}"
            old_id = c.store(p["old"], namespace=ns, created_at="2026-01-01T00:00:00Z")
            new_id = c.store(p["new"], namespace=ns, created_at="2026-03-01T00:00:00Z")
            rows.append((p, old_id, new_id, ns))
        c.flush()
        out = []
        for p, old_id, new_id, ns in rows:
            edges = [e for e in c.contradictions(namespace=ns) if e["source"] == new_id and e["target"] == old_id]
            signals = tuple(_Sig(s["kind"]) for s in edges[0]["signals"]) if edges else ()
            out.append(
                {
                    **p,
                    "cosine": float("nan"),
                    "confidence": edges[0]["confidence"] if edges else 0.0,
                    "flagged": bool(edges),
                    "detection": _Det(signals, "" if edges else "not flagged by the daemon"),
                }
            )
    return _summarise(out, [0.0])


@dataclass(frozen=True)
class _Sig:
    kind: str
    evidence: str = ""


@dataclass(frozen=True)
class _Det:
    signals: tuple[_Sig, ...]
    reason: str


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="dev")
    ap.add_argument("--threshold", type=float, default=0.4)
    ap.add_argument("--gate", type=float, default=0.35, help="embedding cosine gate (calibrated on dev)")
    ap.add_argument("--errors", action="store_true", help="list false positives and false negatives")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--in-process",
        action="store_true",
        help="score the pairs directly (fast, for tuning) instead of through a real daemon",
    )
    args = ap.parse_args()
    path = Path(args.set) if Path(args.set).is_file() else DATA / f"{args.set}.jsonl"
    pairs = load(path)
    if args.in_process:
        result = evaluate(pairs, args.threshold, args.gate)
    else:
        result = evaluate_daemon(pairs, args.threshold, args.gate)
    rows = result.pop("rows")
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"set {path.stem}: {result['pairs']} pairs ({result['positives']} contradictions), "
        f"threshold {args.threshold}, cosine gate {args.gate}, "
        + ("in process" if args.in_process else "through the daemon")
    )
    print(
        f"overall: precision {result['precision']:.3f}  recall {result['recall']:.3f}  F1 {result['f1']:.3f}  "
        f"(tp {result['tp']}, fp {result['fp']}, fn {result['fn']})"
    )
    print("per signal (flagged pairs where it fired):")
    for k, v in result["signals"].items():
        print(f"  {k:<18} fired {v['fired']:>3}  precision {v['precision']:.3f}")
    print("per kind (label: share flagged):")
    for k, v in result["kinds"].items():
        print(f"  {k:<28} {'contradiction' if v['label'] else 'compatible':<13} {v['flagged']:>3}/{v['n']:<3}")
    if "cosine" in result:
        print(f"cosine: {result['cosine']}; detectors {result['detect_ms_per_pair']} ms per pair")
    if args.errors:
        for r in rows:
            if r["flagged"] != bool(r["label"]):
                d = r["detection"]
                sig = ", ".join(f"{s.kind}({s.evidence})" for s in d.signals) or d.reason
                tag = "FP" if r["flagged"] else "FN"
                print(f"{tag} {r['pid']} [{r['kind']}] cos {r['cosine']:.3f} conf {r['confidence']}: {sig}")
                print(f"     old: {r['old']}\n     new: {r['new']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
