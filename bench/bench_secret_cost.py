"""What the secret scan costs a store: two daemons, ``secrets.on_detect = "allow"`` (no scan) and
``"redact"`` (the default), the same texts stored one at a time over the socket, in alternating
rounds, each daemon's work flushed before the other's turn; store p50 / p95 of each and their
ratio, and the scan's own time per text in-process. Each round stores its texts twice on each
daemon: back to back (the next store arrives while the last one's embedding runs beside it),
and settled (each store after the last one's work is flushed, as an agent's occasional store
is), so that the scan's own cost is told from its contention with the background work.

    python bench/bench_secret_cost.py [--rounds 3] [--stores 150] [--seed 13] [--json]

The texts are set q's look-alikes (`bench/secret_samples_q.py`: notes, config, code and tool
output as memories hold them, none with a secret), so both daemons store every text unchanged
and the difference is the scan. Medians and ratios within one run: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _daemon import BenchDaemon, pct
from secret_samples_q import generate

from omegad.secretscan import SecretScanner


def _stores(daemon: BenchDaemon, texts: list[str], namespace: str, settled: bool = False) -> list[float]:
    out = []
    with daemon.client() as c:
        for text in texts:
            t0 = time.perf_counter()
            c.store(text, namespace=namespace)
            out.append((time.perf_counter() - t0) * 1000)
            if settled:
                c.flush()  # (untimed: the next store finds the daemon idle)
        # (its embeddings, commits and checks done before the other daemon is timed: the two
        # share the CPU)
        c.flush()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--stores", type=int, default=150, help="stores per daemon per round (default 150)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    _, looks = generate(args.seed)
    need = args.rounds * args.stores + 20
    texts = [t[:4000] for t in looks][:need]
    if len(texts) < need:
        raise SystemExit(f"set q has {len(looks)} look-alikes; ask for fewer stores")
    scanner = SecretScanner()
    scan_ms = []
    for t in texts:
        t0 = time.perf_counter()
        scanner.scan(t)
        scan_ms.append((time.perf_counter() - t0) * 1000)
    lat: dict[str, list[float]] = {"allow": [], "redact": []}
    settled: dict[str, list[float]] = {"allow": [], "redact": []}
    rounds: list[dict[str, float]] = []
    with (
        BenchDaemon('secrets.on_detect = "allow"\n') as allow,
        BenchDaemon('secrets.on_detect = "redact"\n') as redact,
    ):
        daemons = {"allow": allow, "redact": redact}
        for name, d in daemons.items():  # (warm-up: models loaded, first commits made)
            _stores(d, [f"warm-up note {i} for the {name} daemon" for i in range(20)], "warm")
        for r in range(args.rounds):
            chunk = texts[r * args.stores : (r + 1) * args.stores]
            order = ["allow", "redact"] if r % 2 == 0 else ["redact", "allow"]
            got = {}
            for name in order:
                got[name] = _stores(daemons[name], chunk, f"round{r}")
                lat[name] += got[name]
            for name in order:
                settled[name] += _stores(daemons[name], chunk, f"settled{r}", settled=True)
            rounds.append({name: round(statistics.median(v), 3) for name, v in got.items()})
    result = {
        "texts": len(texts),
        "text_chars_median": statistics.median(len(t) for t in texts),
        "scan_ms_median": round(statistics.median(scan_ms), 4),
        "scan_ms_p95": round(pct(scan_ms, 0.95), 4),
        "rounds_p50_ms": rounds,
        "allow_p50_p95_ms": [round(statistics.median(lat["allow"]), 3), round(pct(lat["allow"], 0.95), 3)],
        "redact_p50_p95_ms": [round(statistics.median(lat["redact"]), 3), round(pct(lat["redact"], 0.95), 3)],
    }
    result["ratio_p50"] = round(result["redact_p50_p95_ms"][0] / result["allow_p50_p95_ms"][0], 3)
    result["ratio_p95"] = round(result["redact_p50_p95_ms"][1] / result["allow_p50_p95_ms"][1], 3)
    for name in ("allow", "redact"):
        result[f"settled_{name}_p50_p95_ms"] = [
            round(statistics.median(settled[name]), 3),
            round(pct(settled[name], 0.95), 3),
        ]
    result["settled_ratio_p50"] = round(
        result["settled_redact_p50_p95_ms"][0] / result["settled_allow_p50_p95_ms"][0], 3
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:<22} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
