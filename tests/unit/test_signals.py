"""Access counts taken by the writer thread while the event loop goes on counting."""

from __future__ import annotations

import sys
import threading

from omegad.config import Config
from omegad.storage.signals import MemorySignals, Signals


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


def test_shares_of_other_hosts_add_to_this_hosts() -> None:
    """A memory's signals are this host's share plus the other hosts' (feedback within the
    bound); a rating moves the sum as one row per memory would; loading the others' again
    never touches this host's own, unsaved counts."""
    signals = Signals(Config())
    signals.load({"m": MemorySignals("ns", 2.0, 2, 3, 10)}, {"m": MemorySignals("ns", 4.0, 4, 1, 20)})
    assert signals.by_id["m"] == MemorySignals("ns", 5.0, 6, 4, 20)  # (feedback bound 5)
    signals.set("m", signals.rated("m", "ns", -1))  # 5 - 1: this host's share 4 - 4
    assert signals.mine["m"].feedback == 0.0 and signals.by_id["m"].feedback == 4.0
    for _ in range(12):  # downvotes here outweigh upvotes elsewhere, down to the bound
        signals.set("m", signals.rated("m", "ns", -1))
    assert signals.by_id["m"].feedback == -5.0 and signals.mine["m"].feedback == -9.0 and signals.hidden("m")
    signals.set("m", signals.rated("m", "ns", 1))
    assert signals.by_id["m"].feedback == -4.0  # (one up from the bound, not from the share)
    signals.accessed([("m", "ns")], 30)
    assert signals.by_id["m"].accesses == 5 and signals.take_dirty()["m"].accesses == 4
    mark = signals.forgotten
    signals.load_others({"m": MemorySignals("ns", -2.0, 7, 0, 25), "n": MemorySignals("ns", -4.0, 4, 0, 5)}, mark)
    assert signals.by_id["m"] == MemorySignals("ns", -5.0, 23, 4, 30)
    assert signals.hidden("m") and signals.hidden_in("ns") == ("m", "n")
    assert signals.by_id["n"].feedback == -4.0
    signals.set("n", signals.rated("n", "ns", 1))
    signals.load_others({"m": MemorySignals("ns", -2.0, 7, 0, 25)}, mark)  # "n" deleted elsewhere
    assert "n" not in signals.by_id and "n" not in signals.mine and signals.hidden_in("ns") == ("m",)


def test_a_delete_is_not_undone_by_a_load_read_before_it() -> None:
    signals = Signals(Config())
    signals.load({"m": MemorySignals("ns", 1.0, 1, 0, 0)}, {"m": MemorySignals("ns", 1.0, 1, 0, 0)})
    mark = signals.forgotten  # a read of the table begins
    assert signals.forget("m")  # the memory is deleted meanwhile
    signals.load_others({"m": MemorySignals("ns", 1.0, 1, 0, 0)}, mark)  # what the read found
    assert "m" not in signals.by_id
    signals.load_others({"m": MemorySignals("ns", 2.0, 1, 0, 0)}, signals.forgotten)  # a later one
    assert signals.by_id["m"].feedback == 2.0  # (a new memory under the same id)


def test_an_import_sets_the_share_that_makes_its_totals() -> None:
    signals = Signals(Config())
    signals.load({"m": MemorySignals("ns", 1.0, 1, 2, 0)}, {"m": MemorySignals("ns", 2.0, 2, 1, 0)})
    share = signals.share_for("m", MemorySignals("ns", 3.0, 3, 3, 0))
    signals.set("m", share)
    assert signals.by_id["m"] == MemorySignals("ns", 3.0, 3, 3, 0)
