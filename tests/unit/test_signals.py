"""Access counts taken by the writer thread while the event loop goes on counting."""

from __future__ import annotations

import sys
import threading

from omegad.config import Config
from omegad.storage.signals import Signals


def test_take_dirty_while_another_thread_counts_accesses() -> None:
    signals = Signals(Config())
    stop = threading.Event()
    saved: dict[str, int] = {}
    counted = [0]

    def count() -> None:  # the event loop: every query's hits
        i = 0
        while not stop.is_set():
            signals.accessed([(f"m{(i + j) % 20_000}", "ns") for j in range(50)], i)
            counted[0] += 50
            i += 50

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    counter = threading.Thread(target=count)
    counter.start()
    try:
        for _ in range(40):  # the writer: maintenance passes and checkpoints
            for mid, s in signals.take_dirty().items():
                saved[mid] = s.accesses
    finally:
        stop.set()
        counter.join()
        sys.setswitchinterval(old)
    for mid, s in signals.take_dirty().items():  # what was counted after the last take
        saved[mid] = s.accesses
    # every counted access is in a saved state: nothing was lost between takes
    assert sum(s.accesses for s in signals.by_id.values()) == counted[0]
    assert all(saved[mid] == s.accesses for mid, s in signals.by_id.items())
