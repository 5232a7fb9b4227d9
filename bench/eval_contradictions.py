"""Quality of contradiction detection on labelled pairs: precision, recall and F1, overall,
per detector signal and per pair kind.

Each line of a set (``bench/data/contradictions/{dev,holdout}.jsonl``) is
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
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "bench" / "data" / "contradictions"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def cosines(pairs: list[dict[str, Any]]) -> list[float]:
    from omegad.config import load_config
    from omegad.embed import Embedder
    from omegad.models import resolve_embedding

    config = load_config()
    embedder = Embedder(resolve_embedding(config.embedding_model_dir, config.model_cache_dir), threads=2)
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", default="dev")
    ap.add_argument("--threshold", type=float, default=0.4)
    ap.add_argument("--gate", type=float, default=0.35, help="embedding cosine gate (calibrated on dev)")
    ap.add_argument("--errors", action="store_true", help="list false positives and false negatives")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    path = Path(args.set) if Path(args.set).is_file() else DATA / f"{args.set}.jsonl"
    result = evaluate(load(path), args.threshold, args.gate)
    rows = result.pop("rows")
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"set {path.stem}: {result['pairs']} pairs ({result['positives']} contradictions), "
        f"threshold {args.threshold}, cosine gate {args.gate}"
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
    print(f"cosine: {result['cosine']}; detectors {result['detect_ms_per_pair']} ms per pair")
    if args.errors:
        for r in rows:
            if r["flagged"] != bool(r["label"]):
                d = r["detection"]
                sig = ", ".join(f"{s.kind}({s.evidence})" for s in d.signals) or d.reason
                tag = "FP" if r["flagged"] else "FN"
                print(f"{tag} {r['pid']} [{r['kind']}] cos {r['cosine']} conf {r['confidence']}: {sig}")
                print(f"     old: {r['old']}\n     new: {r['new']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
