"""What one setting costs a store: two daemons, alike but for their configuration, take single
stores in alternating rounds, so the machine's noise falls on both alike.

    python bench/bench_store_configs.py [--rounds 3] [--stores 150] [--fill 1000]
        [--a 'dedup.on_store = "off"'] [--b 'dedup.on_store = "link"'] [--json]

Each ``--a`` / ``--b`` is TOML put in the daemon's configuration (``[section]`` headers allowed,
``;`` separates lines). Both daemons are first filled with the same ``--fill`` memories (one
namespace, ``store_batch``), so searches made on the store path see a realistic neighbourhood;
then each round sends ``--stores`` single stores (new texts, 10–40 words), each text to A and
to B in turn (who goes first alternates), and waits for both daemons' checks at its end.
Reported: store latency median and p95 per daemon, and B/A ratios of the medians (all rounds,
and round by round). The defaults measure ``dedup.on_store`` (docs/duplicates.md).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _daemon import BenchDaemon

WORDS = [
    "deploy",
    "service",
    "cache",
    "token",
    "queue",
    "index",
    "schema",
    "migration",
    "release",
    "build",
    "test",
    "worker",
    "region",
    "cluster",
    "database",
    "replica",
    "backup",
    "latency",
    "timeout",
    "retry",
    "config",
    "feature",
    "flag",
    "review",
    "branch",
    "merge",
    "pipeline",
    "monitor",
    "alert",
    "budget",
    "quota",
    "storage",
    "bucket",
    "secret",
    "rotation",
    "user",
    "session",
    "frontend",
    "backend",
    "mobile",
    "api",
    "gateway",
    "proxy",
    "certificate",
    "domain",
    "logging",
    "tracing",
    "metrics",
]


def texts(rng: random.Random, n: int) -> list[str]:
    out = []
    for i in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(10, 40))]
        out.append(f"Note {i} {rng.randrange(10**9)}: " + " ".join(words) + ".")
    return out


def config(text: str) -> str:
    return text.replace(";", "\n") + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--stores", type=int, default=150)
    ap.add_argument("--fill", type=int, default=1000)
    ap.add_argument("--a", default='[dedup];on_store = "off"')
    ap.add_argument("--b", default='[dedup];on_store = "link"')
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    fill = texts(rng, args.fill)
    samples: dict[str, list[list[float]]] = {"a": [], "b": []}
    with BenchDaemon(config_text=config(args.a)) as a, BenchDaemon(config_text=config(args.b)) as b:
        for d in (a, b):
            with d.client() as c:
                for k in range(0, len(fill), 500):
                    c.store_batch([{"text": t, "namespace": "bench"} for t in fill[k : k + 500]])
                c.flush(timeout=600)
        with a.client() as ca, b.client() as cb:
            clients = {"a": ca, "b": cb}
            for r in range(args.rounds):
                batch = texts(rng, args.stores)
                times: dict[str, list[float]] = {"a": [], "b": []}
                # one store to each in turn (who goes first alternates): noise falls on both
                for k, t in enumerate(batch):
                    for name in ("a", "b") if (k + r) % 2 == 0 else ("b", "a"):
                        t0 = time.perf_counter()
                        clients[name].store(t, namespace="bench")
                        times[name].append((time.perf_counter() - t0) * 1000)
                for name, c in clients.items():
                    c.flush(timeout=600)
                    samples[name].append(times[name])
    med = {n: statistics.median([x for r in rs for x in r]) for n, rs in samples.items()}
    p95 = {n: statistics.quantiles([x for r in rs for x in r], n=20)[-1] for n, rs in samples.items()}
    per_round = [
        round(statistics.median(rb) / statistics.median(ra), 3)
        for ra, rb in zip(samples["a"], samples["b"], strict=True)
    ]
    result = {
        "a": args.a,
        "b": args.b,
        "fill": args.fill,
        "stores_per_round": args.stores,
        "rounds": args.rounds,
        "store_ms_median": {n: round(v, 2) for n, v in med.items()},
        "store_ms_p95": {n: round(v, 2) for n, v in p95.items()},
        "ratio_b_to_a": round(med["b"] / med["a"], 3),
        "ratio_by_round": per_round,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"A: {args.a}\nB: {args.b}")
        print(f"store p50 A {med['a']:.2f} ms, B {med['b']:.2f} ms: B/A {result['ratio_b_to_a']} (rounds {per_round})")
        print(f"store p95 A {p95['a']:.2f} ms, B {p95['b']:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
