"""Quality of duplicate detection (`omegad.contradictions.duplicates`) on labelled pairs, with
the daemon's decisions: a **merge** when the two texts normalise to the same words (and their
embeddings are as close as the store path asks, ``SAME_TEXT_COSINE``), a **link** when they
are near duplicates (cosine ≥ ``dedup.link_cosine``, the same numbers and identifiers, and no
contradiction: the detectors, then the pair classifier, as the checker runs them).

A merge or a link is right when the pair is labelled ``exact`` or ``near``. Reported: merge
precision and recall (of the ``exact`` pairs), link precision and recall (of the ``near``
pairs), per label, domain and style, and a sweep of the link threshold. Each line of a set is
``{"id", "a", "b", "label": exact|near|related|contradiction|unrelated, "domain", "style"}``;
``b`` is taken as the newer memory.

    python bench/eval_duplicates.py [--set dev|blind|FILE] [--link-cosine X] [--json] [--errors]

Tune on ``dev``; ``blind`` was written by a helper who had not seen this code, and is scored
once (docs/duplicates.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "bench" / "data" / "duplicates"
SAME = ("exact", "near")


def load(spec: str) -> list[dict[str, Any]]:
    path = Path(spec) if Path(spec).is_file() else DATA / f"{spec}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def judge(pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cosine, normalised equality and the contradiction verdict of each pair."""
    from omegad.app.build import load_embedder
    from omegad.config import load_config
    from omegad.contradictions.classifier import Classifier
    from omegad.contradictions.detect import detect
    from omegad.contradictions.duplicates import markers, normalise

    config = load_config()
    embedder = load_embedder(config)
    a = embedder.embed([p["a"] for p in pairs])
    b = embedder.embed([p["b"] for p in pairs])
    cos = [float(x) for x in (a * b).sum(axis=1)]
    threshold = config.contradiction_threshold
    detections = [detect(p["b"], p["a"]) for p in pairs]
    if config.contradiction_classifier != "off":
        model = Classifier(
            "auto",
            None,
            config.contradiction_classifier_weight,
            threads=2,
            min_cosine=config.contradiction_classifier_min_cosine,
        )
        gated = [i for i, c in enumerate(cos) if c >= config.contradiction_gate_cosine]
        combined = model.apply(
            [(pairs[i]["a"], pairs[i]["b"]) for i in gated],
            [detections[i] for i in gated],
            [cos[i] for i in gated],
            threshold,
        )
        for i, d in zip(gated, combined, strict=True):
            detections[i] = d
    return [
        {
            **p,
            "cosine": c,
            "same_text": normalise(p["a"]) == normalise(p["b"]),
            "same_markers": markers(p["a"]) == markers(p["b"]),
            "contradiction": d.flagged(threshold),
        }
        for p, c, d in zip(pairs, cos, detections, strict=True)
    ]


def decide(rows: list[dict[str, Any]], link_cosine: float) -> None:
    from omegad.app.service import SAME_TEXT_COSINE
    from omegad.contradictions.duplicates import is_near_duplicate

    for r in rows:
        r["merge"] = r["same_text"] and r["cosine"] >= SAME_TEXT_COSINE
        r["link"] = not r["merge"] and is_near_duplicate(r["b"], r["a"], r["cosine"], link_cosine, r["contradiction"])


def _ratio(n: int, d: int) -> float | None:
    return round(n / d, 4) if d else None


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    merged = [r for r in rows if r["merge"]]
    linked = [r for r in rows if r["link"]]
    exact = [r for r in rows if r["label"] == "exact"]
    near = [r for r in rows if r["label"] == "near"]
    by: dict[str, dict[str, Counter[str]]] = {"label": defaultdict(Counter), "domain": defaultdict(Counter),
                                              "style": defaultdict(Counter)}  # fmt: skip
    for r in rows:
        action = "merge" if r["merge"] else "link" if r["link"] else "none"
        for key in by:
            by[key][str(r.get(key, "-"))][action] += 1
            by[key][str(r.get(key, "-"))]["n"] += 1
    return {
        "pairs": len(rows),
        "merge_precision": _ratio(sum(r["label"] in SAME for r in merged), len(merged)),
        "merge_recall_exact": _ratio(sum(r["merge"] for r in exact), len(exact)),
        "merges": len(merged),
        "link_precision": _ratio(sum(r["label"] in SAME for r in linked), len(linked)),
        "link_recall_near": _ratio(sum(r["link"] for r in near), len(near)),
        "links": len(linked),
        "wrong_links_by_label": dict(Counter(r["label"] for r in linked if r["label"] not in SAME)),
        "by": {k: {name: dict(c) for name, c in sorted(v.items())} for k, v in by.items()},
    }


def sweep(rows: list[dict[str, Any]], values: list[float]) -> list[dict[str, Any]]:
    out = []
    for x in values:
        decide(rows, x)
        s = summarise(rows)
        out.append({"link_cosine": x, **{k: s[k] for k in ("link_precision", "link_recall_near", "links")}})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="dev")
    ap.add_argument("--link-cosine", type=float, default=None, help="default: the configured dedup.link_cosine")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--errors", action="store_true", help="list the wrong links and the missed near pairs")
    args = ap.parse_args()
    from omegad.config import load_config

    link = args.link_cosine if args.link_cosine is not None else load_config().dedup_link_cosine
    rows = judge(load(args.set))
    table = sweep(rows, [round(0.80 + 0.01 * i, 2) for i in range(19)])
    decide(rows, link)
    result = {"set": args.set, "link_cosine": link, **summarise(rows), "sweep": table}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"set {args.set}: {result['pairs']} pairs, dedup.link_cosine {link}")
    print(f"merge: precision {result['merge_precision']}, recall of exact {result['merge_recall_exact']} "
          f"({result['merges']} merges)")  # fmt: skip
    print(f"link:  precision {result['link_precision']}, recall of near {result['link_recall_near']} "
          f"({result['links']} links; wrong: {result['wrong_links_by_label']})")  # fmt: skip
    print("\nlink threshold sweep (precision / recall of near / links):")
    for t in table:
        print(f"  {t['link_cosine']:.2f}  {t['link_precision']}  {t['link_recall_near']}  {t['links']}")
    for key in ("label", "domain", "style"):
        print(f"\nby {key}:")
        for name, c in result["by"][key].items():
            print(f"  {name:<18} n={c['n']:<4} merge={c.get('merge', 0):<4} link={c.get('link', 0):<4}")
    if args.errors:
        print("\nwrong links:")
        for r in rows:
            if r["link"] and r["label"] not in SAME:
                print(f"  {r['id']} {r['label']} cos={r['cosine']:.3f}\n    a: {r['a'][:110]}\n    b: {r['b'][:110]}")
        print("\nmissed near pairs (cosine, same markers, contradiction):")
        for r in rows:
            if r["label"] == "near" and not r["link"]:
                print(f"  {r['id']} cos={r['cosine']:.3f} markers={r['same_markers']} c={r['contradiction']}")
                print(f"    a: {r['a'][:110]}\n    b: {r['b'][:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
