"""SIGKILL the daemon under concurrent stores from several client processes, 20 times; every
other time also simulate a power loss (the table versions LanceDB had not fsynced vanish).
After each restart every acknowledged memory is there exactly once, every row is whole, and
the store answers queries. bench/fault_kill.py runs the same trial 100+ times."""

from __future__ import annotations

import random
from pathlib import Path

from ..helpers import Daemon
from .killing import CONFIG, check_store, trial

TRIALS = 20


def test_sigkill_and_power_loss_lose_no_acknowledged_memory(daemon_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(20261130)
    d: Daemon = daemon_factory(config=CONFIG).start()
    acked: set[str] = set()
    results = [trial(d, rng, n, tmp_path, acked, power_loss=n % 2 == 1) for n in range(TRIALS)]
    assert d.stop() == 0
    assert check_store(d.data_dir, acked) >= len(acked) > 0
    # the trials really exercised the log: some power losses dropped versions and the log
    # brought acknowledged rows back
    assert sum(r.manifests_dropped for r in results) > 0
    assert sum(r.restored for r in results) > 0
