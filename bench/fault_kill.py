"""Kill the daemon many times under concurrent stores from three client processes (SIGKILL at
a random moment; every other trial also simulates a power loss by dropping the table versions
committed after the last checkpoint) and check after each restart that every acknowledged
memory is there exactly once, every row is whole, and queries answer.

    python bench/fault_kill.py [--trials 100] [--seed N]

Prints the trial count, acknowledged and present rows, how many versions the simulated power
losses dropped and how many rows the write-ahead log restored.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.fault.killing import CONFIG, check_store, trial  # noqa: E402
from tests.helpers import Daemon  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="omegad-fault-") as tmp:
        base = Path(tmp)
        d = Daemon(base, config=CONFIG).start()
        acked: set[str] = set()
        results = []
        try:
            for n in range(args.trials):
                r = trial(d, rng, n, base, acked, power_loss=n % 2 == 1)
                results.append(r)
                print(
                    f"trial {n + 1}/{args.trials}: acked {r.acked}, present {r.present}, "
                    f"power loss {'yes' if r.power_loss else 'no '}, versions dropped {r.manifests_dropped}, "
                    f"rows restored from the log {r.restored}",
                    flush=True,
                )
            assert d.stop() == 0
            final = check_store(d.data_dir, acked)
        finally:
            d.cleanup()
    print("| measure | value |")
    print("|---|---|")
    print(
        f"| trials (SIGKILL under 3 writer processes) | {len(results)} ({sum(r.power_loss for r in results)} with a simulated power loss) |"
    )
    print(f"| acknowledged memories | {len(acked)}, all present exactly once ({final} rows) |")
    print(f"| table versions dropped by the simulated power losses | {sum(r.manifests_dropped for r in results)} |")
    print(f"| rows restored from the write-ahead log | {sum(r.restored for r in results)} |")
    print(f"| wall time | {time.perf_counter() - started:.0f} s |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
