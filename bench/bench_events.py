"""Event delivery over the socket: how fast events reach one subscriber, and what a subscriber
that stops reading costs everyone else.

    python bench/bench_events.py [--events 5000] [--rounds 4] [--stores 100]

1. Throughput: a subscriber reads `stored` events while another client stores `--events`
   memories in batches of 250; events/s from the first store to the last event received (the
   writes, not the delivery, set this pace: a subscriber that keeps up drops nothing). Then
   the lag from a single store's reply to its event's arrival.
2. A stalled subscriber: single-store latency (p50, p95) with no subscriber and with one whose
   connection subscribed and then never reads (its queue fills, its events are dropped),
   alternating `--rounds` times in one run; the ratio of the medians.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _daemon import BenchDaemon

from tests.helpers import raw_socket, recv_frame, send_frame


def throughput(d: BenchDaemon, n: int) -> tuple[float, int, int]:
    got = 0
    done = threading.Event()
    ready = threading.Event()
    dropped = 0

    def reader() -> None:
        nonlocal got, dropped
        with d.client() as c, c.events(["stored"], namespace="tp") as ev:
            ready.set()
            while got + dropped < n:
                e = ev.get(30)
                if e is None:
                    break
                got += 1
                dropped += e.get("dropped", 0)
        done.set()

    t = threading.Thread(target=reader)
    t.start()
    ready.wait(30)
    started = time.perf_counter()
    with d.client() as w:
        for start in range(0, n, 250):
            w.store_batch(
                [{"text": f"event throughput memory {i}", "namespace": "tp"} for i in range(start, min(n, start + 250))]
            )
    done.wait(120)
    elapsed = time.perf_counter() - started
    t.join()
    return got / elapsed, got, dropped


def lag(d: BenchDaemon, k: int) -> list[float]:
    """Milliseconds from a store's reply to its event's arrival at a subscriber (may be < 0:
    both follow the commit)."""
    arrived: dict[str, float] = {}
    ready = threading.Event()

    def reader() -> None:
        with d.client() as c, c.events(["stored"], namespace="lag") as ev:
            ready.set()
            while len(arrived) < k:
                e = ev.get(30)
                if e is None:
                    return
                arrived[e["data"]["id"]] = time.perf_counter()

    t = threading.Thread(target=reader)
    t.start()
    ready.wait(30)
    acked: dict[str, float] = {}
    with d.client() as w:
        for i in range(k):
            mid = w.store(f"event lag probe {i}", namespace="lag")
            acked[mid] = time.perf_counter()
    t.join(60)
    return [(arrived[m] - acked[m]) * 1000 for m in acked if m in arrived]


def store_latencies(d: BenchDaemon, k: int, tag: str) -> list[float]:
    out = []
    with d.client() as w:
        for i in range(k):
            t0 = time.perf_counter()
            w.store(f"latency probe {tag} {i}: the nightly build cache", namespace="lat")
            out.append((time.perf_counter() - t0) * 1000)
    return out


def stalled(d: BenchDaemon) -> socket.socket:
    s = raw_socket(d.socket)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    send_frame(s, {"v": 1, "id": 1, "method": "subscribe", "params": {"topics": ["stored", "updated", "deleted"]}})
    assert recv_frame(s)["ok"]
    return s  # never read again


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--stores", type=int, default=100, help="single stores per round")
    args = ap.parse_args()
    with BenchDaemon() as d:
        rate, got, dropped = throughput(d, args.events)
        print(f"throughput: {rate:,.0f} events/s to one subscriber ({got} received, {dropped} dropped)")
        lags = lag(d, 200)
        print(
            f"event lag after the store's reply: p50 {statistics.median(lags):.2f} ms, "
            f"p95 {statistics.quantiles(lags, n=20)[18]:.2f} ms ({len(lags)} of 200 events)"
        )
        store_latencies(d, 20, "warm-up")
        plain: list[float] = []
        both: list[float] = []
        for r in range(args.rounds):
            plain += store_latencies(d, args.stores, f"p{r}")
            sock = stalled(d)
            store_latencies(d, 1200, f"fill{r}")  # its queue is full from here on: every event drops
            both += store_latencies(d, args.stores, f"s{r}")
            sock.close()
        with d.client() as c:
            ev = c.stats()["events"]

        def q(xs: list[float], p: float) -> float:
            return statistics.quantiles(xs, n=100)[int(p) - 1]

        print(
            f"store p50 / p95, no subscriber:      {statistics.median(plain):.2f} / {q(plain, 95):.2f} ms ({len(plain)} stores)"
        )
        print(
            f"store p50 / p95, a stalled one:      {statistics.median(both):.2f} / {q(both, 95):.2f} ms ({len(both)} stores)"
        )
        print(f"ratio of the medians (stalled / none): {statistics.median(both) / statistics.median(plain):.3f}")
        print(f"stats.events: {ev}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
