"""Kill the daemon many times under concurrent stores from three client processes (SIGKILL at
a random moment; every other trial also simulates a power loss by dropping the table versions
committed after the last checkpoint) and check after each restart that every acknowledged
memory is there exactly once, every row is whole, and queries answer.

A second scenario puts the write-ahead log on a small file system of its own (a tmpfs; needs
root) that fills up and frees again during each trial, while the writers retry what is refused
with the same ids: stores that commit to the table but fail their log append. A third does
the same with the whole data directory on a small file system.

    python bench/fault_kill.py [--trials 100] [--log-full-trials 50] [--disk-full-trials 50] [--seed N]

Prints, per scenario, the trial count, acknowledged and present rows, how many versions the
simulated power losses dropped and how many rows the write-ahead log restored.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.fault.killing import CONFIG, TrialResult, check_store, trial  # noqa: E402
from tests.fault.mounts import tmpfs_at  # noqa: E402
from tests.helpers import Daemon  # noqa: E402


def scenario(name: str, trials: int, rng: random.Random, fill: str | None) -> list[str]:
    """*fill*: None, ``"log"`` (the log's own 4 MB file system fills) or ``"data"`` (the data
    directory's 64 MB file system fills)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="omegad-fault-") as tmp, contextlib.ExitStack() as stack:
        base = Path(tmp)
        fill_fs = None
        if fill == "log":
            fill_fs = stack.enter_context(tmpfs_at(base / "data" / "wal", "4m"))
        elif fill == "data":
            fill_fs = stack.enter_context(tmpfs_at(base / "data", "64m"))
        d = Daemon(base, config=CONFIG, data_dir=base / "data").start()
        acked: set[str] = set()
        results: list[TrialResult] = []
        try:
            for n in range(trials):
                r = trial(d, rng, n, base, acked, power_loss=n % 2 == 1, fill_fs=fill_fs)
                results.append(r)
                print(
                    f"{name} trial {n + 1}/{trials}: acked {r.acked}, present {r.present}, "
                    f"power loss {'yes' if r.power_loss else 'no '}, versions dropped {r.manifests_dropped}, "
                    f"rows restored from the log {r.restored}",
                    flush=True,
                )
            assert d.stop() == 0
            final = check_store(d.data_dir, acked)
            log = d.log()
            refusals = log.count('"event": "wal_append_failed"'), log.count('"event": "degraded"')
        finally:
            d.cleanup()
    rows = [
        f"| {name}: trials | {len(results)} ({sum(r.power_loss for r in results)} with a simulated power loss) |",
        f"| {name}: acknowledged memories | {len(acked)}, all present exactly once ({final} rows; lost 0) |",
        f"| {name}: table versions dropped by the simulated power losses | {sum(r.manifests_dropped for r in results)} |",
        f"| {name}: rows restored from the write-ahead log | {sum(r.restored for r in results)} |",
    ]
    if fill:
        rows.append(
            f"| {name}: failed log appends / degraded events (writes refused, retried by the writers) "
            f"| {refusals[0]} / {refusals[1]} |"
        )
    rows.append(f"| {name}: wall time | {time.perf_counter() - started:.0f} s |")
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--log-full-trials", type=int, default=50, help="0 to skip the full-log scenario")
    ap.add_argument("--disk-full-trials", type=int, default=50, help="0 to skip the full-data-disk scenario")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = scenario("kill", args.trials, rng, None) if args.trials else []
    if args.log_full_trials:
        rows += scenario("log full", args.log_full_trials, rng, "log")
    if args.disk_full_trials:
        rows += scenario("disk full", args.disk_full_trials, rng, "data")
    print("| measure | value |")
    print("|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
