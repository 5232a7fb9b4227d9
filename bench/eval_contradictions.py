"""Quality of contradiction detection on labelled pairs: precision, recall and F1, overall,
per detector signal, per pair kind and per writing style, and for each missed pair the guard
or step that silenced it.

By default the pairs go through a real daemon (the product path: store, background check,
`contradictions`); ``--in-process`` scores them directly, which is faster for tuning. Each
line of a set is ``{"pid", "old", "new", "label": 0|1, "kind", "style"?, "note"}`` (the
older sets have no ``style``: shown as "-"). A pair is flagged when it passes the similarity
gate (embedding cosine of the two texts, all-MiniLM-L6-v2 as the daemon runs it, against
``--gate``) and the detectors' combined confidence reaches ``--threshold``.

    python bench/eval_contradictions.py [--set dev|dev2|holdout|NAME[,NAME…]|FILE]
        [--in-process] [--threshold 0.4] [--gate 0.3] [--errors] [--baseline FILE] [--json]

In process, the pair classifier joins the detectors as in the daemon (``--no-classifier``:
the detectors alone; ``--classifier-weight W``: another weight than the configured one).
``--set`` takes a set of ``bench/data/contradictions`` by name (``dev2`` is ``dev2a`` and
``dev2b`` together, ``dev4`` is ``dev4a`` and ``dev4b``), several names joined by commas, or a file. ``--baseline FILE`` times a
second detector module (a copy of an older single-file ``omegad/contradict.py``: version 3 on
is the ``omegad/contradictions`` package, which ``--baseline`` cannot load) on the same pairs in the same run and prints the ratio of the median times. Tune on the dev sets only;
report holdout once.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "bench" / "data" / "contradictions"
#: Set names that stand for several files.
GROUPS = {"dev2": ("dev2a", "dev2b"), "dev4": ("dev4a", "dev4b")}


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def resolve(spec: str) -> list[Path]:
    """The files a ``--set`` value names: a file, a set name, a group, or names joined by commas."""
    if Path(spec).is_file():
        return [Path(spec)]
    paths: list[Path] = []
    for name in spec.split(","):
        for member in GROUPS.get(name, (name,)):
            path = DATA / f"{member}.jsonl"
            if not path.is_file():
                raise SystemExit(f"no such set: {member} ({path})")
            paths.append(path)
    return paths


def cosines(pairs: list[dict[str, Any]]) -> list[float]:
    from omegad.app.build import load_embedder
    from omegad.config import load_config

    embedder = load_embedder(load_config())
    old = embedder.embed([p["old"] for p in pairs])
    new = embedder.embed([p["new"] for p in pairs])
    return [float(x) for x in (old * new).sum(axis=1)]


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def _times(detect: Callable[[str, str], Any], pairs: list[dict[str, Any]]) -> list[float]:
    out = []
    for p in pairs:
        t0 = time.perf_counter()
        detect(p["new"], p["old"])
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _baseline(path: Path) -> Callable[[str, str], Any]:
    """The ``detect`` of another copy of the detector module (it is loaded under its own name,
    so it keeps its own caches; inside the ``omegad`` package, so a version that imports the
    lexicon loader relatively finds it: that version then reads the current lexicon)."""
    spec = importlib.util.spec_from_file_location("omegad._contradict_baseline", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    detect: Callable[[str, str], Any] = module.detect
    return detect


def evaluate(
    pairs: list[dict[str, Any]],
    threshold: float,
    gate: float,
    baseline: Path | None = None,
    classifier: float | None = None,
    min_cosine: float = 0.0,
) -> dict[str, Any]:
    """Score *pairs* in process as the checker does: the detectors, then (unless *classifier*
    is None) the pair classifier with that weight on the pairs past the gate."""
    from omegad.contradictions.classifier import Classifier
    from omegad.contradictions.detect import detect

    cos = cosines(pairs)
    base_times = _times(_baseline(baseline), pairs) if baseline else None
    times = []
    detections = []
    for p in pairs:
        t0 = time.perf_counter()
        detections.append(detect(p["new"], p["old"]))
        times.append((time.perf_counter() - t0) * 1000)
    model = None
    if classifier is not None:
        model = Classifier("auto", None, classifier, threads=2, min_cosine=min_cosine)
        gated = [i for i, c in enumerate(cos) if c >= gate]
        combined = model.apply(
            [(pairs[i]["old"], pairs[i]["new"]) for i in gated],
            [detections[i] for i in gated],
            [cos[i] for i in gated],
            threshold,
        )
        if model.state != "ready":
            raise SystemExit(f"the pair classifier is {model.state}: {model.error}")
        for i, d in zip(gated, combined, strict=True):
            detections[i] = d
    rows = []
    for p, c, d in zip(pairs, cos, detections, strict=True):
        flagged = c >= gate and d.flagged(threshold)
        rows.append({**p, "cosine": round(c, 4), "confidence": d.confidence, "flagged": flagged, "detection": d})
        rows[-1]["stage"] = _stage(rows[-1], gate, threshold)
    out = _summarise(rows, times, cos)
    if model is not None:
        out["classifier"] = model.stats()._asdict()
    if base_times is not None:
        out["baseline_ms_per_pair"] = {"median": round(statistics.median(base_times), 4)}
        out["ratio_to_baseline"] = round(statistics.median(times) / statistics.median(base_times), 2)
    return out


def _stage(row: dict[str, Any], gate: float, threshold: float) -> str:
    """What decided a pair: ``flagged``, ``gate`` (the embedding similarity gate), ``threshold``
    (signals below the confidence threshold), or the detectors' guard or step."""
    if row["flagged"]:
        return "flagged"
    if not np.isnan(row["cosine"]) and row["cosine"] < gate:
        return "gate"
    d = row["detection"]
    if d.signals and d.confidence < threshold:
        return "threshold"
    return str(getattr(d, "stage", "") or d.reason or "not flagged")


def _table(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[str(r.get(key) or "-")].append(r)
    out = {}
    for name, rs in sorted(groups.items()):
        pos = sum(1 for r in rs if r["label"])
        tp = sum(1 for r in rs if r["flagged"] and r["label"])
        fp = sum(1 for r in rs if r["flagged"] and not r["label"])
        fn = pos - tp
        p = tp / (tp + fp) if tp + fp else None
        rec = tp / pos if pos else None
        f1 = 2 * p * rec / (p + rec) if p is not None and rec is not None and p + rec else None
        out[name] = {
            "pairs": len(rs),
            "contradictions": pos,
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "precision": None if p is None else round(p, 4),
            "recall": None if rec is None else round(rec, 4),
            "f1": None if f1 is None else round(f1, 4),
        }
    return out


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
    out["kinds"] = _table(rows, "kind")
    out["styles"] = _table(rows, "style")
    out["missed_by_stage"] = dict(Counter(r["stage"] for r in rows if r["label"] and not r["flagged"]).most_common())
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
    counts as flagged when `contradictions` lists an edge from the newer to the older. For a
    missed pair the stage is found in process (the same detectors, the same gate)."""
    sys.path.insert(0, str(REPO / "bench"))
    from _daemon import BenchDaemon

    from omegad.contradictions.detect import detect

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
            signals = tuple(_Sig(s["kind"], s.get("evidence", "")) for s in edges[0]["signals"]) if edges else ()
            out.append(
                {
                    **p,
                    "cosine": float("nan"),
                    "confidence": edges[0]["confidence"] if edges else 0.0,
                    "flagged": bool(edges),
                    "detection": _Det(signals, "" if edges else "not flagged by the daemon"),
                }
            )
    missed = [r for r in out if not r["flagged"]]
    if missed:
        for r, cos in zip(missed, cosines(missed), strict=True):
            r["cosine"] = round(cos, 4)
            r["detection"] = detect(r["new"], r["old"])
    for r in out:
        r["stage"] = _stage(r, gate, threshold)
    return _summarise(out, [0.0])


@dataclass(frozen=True)
class _Sig:
    kind: str
    evidence: str = ""


@dataclass(frozen=True)
class _Det:
    signals: tuple[_Sig, ...]
    reason: str

    @property
    def stage(self) -> str:
        return "flagged" if self.signals else "not flagged"


def _fmt(x: float | None) -> str:
    return "    -" if x is None else f"{x:.3f}"


def _print_table(title: str, table: dict[str, dict[str, Any]]) -> None:
    print(f"{title}:")
    print(f"  {'':<28} {'pairs':>5} {'contr.':>6} {'tp':>4} {'fp':>4} {'fn':>4}  {'P':>5}  {'R':>5}  {'F1':>5}")
    for name, v in table.items():
        print(
            f"  {name:<28} {v['pairs']:>5} {v['contradictions']:>6} {v['tp']:>4} {v['fp']:>4} {v['fn']:>4}  "
            f"{_fmt(v['precision'])}  {_fmt(v['recall'])}  {_fmt(v['f1'])}"
        )


def main() -> int:
    from omegad.config import Config

    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--set", default="dev", help="dev, dev2 (dev2a+dev2b), holdout, names joined by commas, or a FILE")
    ap.add_argument("--threshold", type=float, default=0.4)
    ap.add_argument(
        "--gate",
        type=float,
        default=Config.contradiction_gate_cosine,
        help="embedding cosine gate (the daemon's default)",
    )
    ap.add_argument("--errors", action="store_true", help="list false positives and false negatives")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--in-process",
        action="store_true",
        help="score the pairs directly (fast, for tuning) instead of through a real daemon",
    )
    ap.add_argument("--baseline", type=Path, help="another detector module to time against (in process)")
    ap.add_argument(
        "--classifier-weight",
        type=float,
        help="the pair classifier's weight in process (default: the configured contradiction.classifier_weight)",
    )
    ap.add_argument("--no-classifier", action="store_true", help="the detectors alone (in process)")
    args = ap.parse_args()
    paths = resolve(args.set)
    pairs = [p for path in paths for p in load(path)]
    if args.in_process:
        from omegad.config import load_config

        weight = args.classifier_weight
        if weight is None:
            config = load_config()
            weight = None if config.contradiction_classifier == "off" else config.contradiction_classifier_weight
        result = evaluate(
            pairs,
            args.threshold,
            args.gate,
            args.baseline,
            None if args.no_classifier else weight,
            load_config().contradiction_classifier_min_cosine,
        )
    else:
        result = evaluate_daemon(pairs, args.threshold, args.gate)
    rows = result.pop("rows")
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"set {'+'.join(p.stem for p in paths)}: {result['pairs']} pairs ({result['positives']} contradictions), "
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
    _print_table("per kind (a kind holds one label: precision is 1 or 0 where anything was flagged)", result["kinds"])
    _print_table("per style", result["styles"])
    print("missed contradictions by the step that silenced them:")
    for stage, n in result["missed_by_stage"].items():
        print(f"  {stage:<28} {n:>4}")
    if "cosine" in result:
        print(f"cosine: {result['cosine']}; detectors {result['detect_ms_per_pair']} ms per pair")
    if "classifier" in result:
        c = result["classifier"]
        print(
            f"pair classifier: weight {c['weight']}, {c['pairs']} pairs run, {c['ms_per_pair']} ms per pair, "
            f"{c['flagged_alone']} flagged that the detectors alone did not flag"
        )
    if "ratio_to_baseline" in result:
        print(
            f"baseline {args.baseline}: median {result['baseline_ms_per_pair']['median']} ms per pair; "
            f"ratio (this / baseline, medians) {result['ratio_to_baseline']}"
        )
    if args.errors:
        for r in rows:
            if r["flagged"] != bool(r["label"]):
                d = r["detection"]
                sig = ", ".join(f"{s.kind}({s.evidence})" for s in d.signals) or d.reason
                tag = "FP" if r["flagged"] else f"FN [{r['stage']}]"
                cos = "" if np.isnan(r["cosine"]) else f" cos {r['cosine']:.3f}"
                print(f"{tag} {r['pid']} [{r['kind']}/{r.get('style') or '-'}]{cos} conf {r['confidence']}: {sig}")
                print(f"     old: {r['old']}\n     new: {r['new']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
