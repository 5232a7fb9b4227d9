"""Quality and cost of the secret scanner (`omegad.secretscan`) on generated samples
(`bench/secret_samples.py`): recall per kind on texts holding one secret, false positives on
look-alikes, and the scan's time per text.

    python bench/eval_secrets.py [--set a|b|...|z|aa|...|az|ba|...|be] [--seed 0] [--per-kind 60] [--json]

``--set b`` … ``--set z``, ``--set aa`` … ``--set az``, ``--set ba`` … ``--set be`` use `secret_samples_b.py` … `secret_samples_be.py` (`OTHER_SETS`),
generators by other writers (docs/secrets.md has who wrote each and its one blind score); a
secret counts as found when the redacted text no longer holds it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from secret_samples import generate

from omegad.secretscan import SecretScanner, redact

#: The sets of other writers: `bench/secret_samples_<x>.py`.
OTHER_SETS = (
    *"bcdefghijklmnopqrstuvwxyz",
    *(f"a{c}" for c in "abcdefghijklmnopqrstuvwxyz"),
    "ba",
    "bb",
    "bc",
    "bd",
    "be",
)


def _samples(which: str, seed: int, per_kind: int) -> tuple[list[tuple[str, str, str | None]], list[str]]:
    if which in OTHER_SETS:
        module = __import__(f"secret_samples_{which}")
        triples, looks = module.generate(seed)
        return [(t, k, s) for t, k, s in triples], looks
    pairs, looks = generate(seed, per_kind)
    return [(t, k, None) for t, k in pairs], looks


#: 16 KB inputs that make careless patterns backtrack (the scanner runs on every store).
PATHOLOGICAL = {
    "x.": "x." * 8000,
    "password: ": "password: " * 1600,
    "a": "a" * 16000,
    "=": "=" * 16000,
    "pw ": "pw " * 5000,
    "token is ": "token is " * 1800,
    "key-": "key-" * 4000,
    "Authorization: Bearer ": "Authorization: Bearer " * 700,
}


def _pathological(scanner: SecretScanner) -> dict[str, float]:
    """Milliseconds to scan each pathological input (median of three)."""
    out = {}
    for name, text in PATHOLOGICAL.items():
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            scanner.scan(text)
            runs.append((time.perf_counter() - t0) * 1000)
        out[name] = round(statistics.median(runs), 2)
    return out


def evaluate(seed: int = 0, per_kind: int = 60, which: str = "a") -> dict[str, object]:
    scanner = SecretScanner()
    secrets, lookalikes = _samples(which, seed, per_kind)
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    misses: list[str] = []
    times = []
    for text, kind, secret in secrets:
        total[kind] += 1
        t0 = time.perf_counter()
        hits = scanner.scan(text)
        times.append((time.perf_counter() - t0) * 1000)
        if hits and (secret is None or secret not in redact(text, hits)):
            found[kind] += 1
        else:
            misses.append(f"{kind}: {text[:80]}")
    false = []
    for text in lookalikes:
        t0 = time.perf_counter()
        hits = scanner.scan(text)
        times.append((time.perf_counter() - t0) * 1000)
        if hits:
            false.append(f"{[h.kind for h in hits]}: {text[:80]}")
    return {
        "pathological_ms": _pathological(scanner),
        "recall": round(sum(found.values()) / len(secrets), 4),
        "recall_by_kind": {k: round(found[k] / total[k], 3) for k in total},
        "false_positive_rate": round(len(false) / len(lookalikes), 4),
        "secrets": len(secrets),
        "lookalikes": len(lookalikes),
        "ms_per_text_median": round(statistics.median(times), 4),
        "misses": misses[:20],
        "false_positives": sorted(set(false))[:20],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=["a", *OTHER_SETS], default="a", dest="which")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-kind", type=int, default=60)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = evaluate(args.seed, args.per_kind, args.which)
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    print(
        f"recall {r['recall']} on {r['secrets']} secrets; false positives {r['false_positive_rate']} on {r['lookalikes']} look-alikes"
    )
    print(f"scan: median {r['ms_per_text_median']} ms a text")
    worst = ", ".join(f"{k!r}: {v}" for k, v in r["pathological_ms"].items())  # type: ignore[attr-defined]
    print(f"16 KB pathological inputs, ms: {worst}")
    for k, v in r["recall_by_kind"].items():  # type: ignore[attr-defined]
        print(f"  {k:<18} {v}")
    for line in r["misses"] + r["false_positives"]:  # type: ignore[operator]
        print("  ", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
