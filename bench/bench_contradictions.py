"""Cost of contradiction detection.

1. **Detectors per pair** (in process): every pair of bench/data/contradictions, median, p95
   and max milliseconds (goal ≤ 1 ms per pair).
2. **Store latency with detection on vs off**, one run: two daemons side by side
   (``OMEGAD_CONTRADICTIONS=1`` / ``0``), single stores sent alternately to each; medians and
   their ratio (goal: on/off ≤ 1.05). A tenth of the texts contradict an earlier one, so edges
   are written too.
3. **Queue lag at 50 stores/s**: a fresh daemon receives paced single stores (eight clients,
   6.25/s each) for ``--seconds``; the checker's lag from commit to checked, p50/p95, and the
   pair classifier's share (pairs run, milliseconds per pair) and its own stage: lag from
   commit to the classifier's decision, p50/p95, and its backlog when the stores stopped.

    python bench/bench_contradictions.py [--quick]
    python bench/bench_contradictions.py --lag-only --data-dir COPY_OF_A_STORE [--vector-index rabitq]

``--data-dir`` runs part 3 on an existing store (a copy: the stores are written into it), e.g.
one `bench_scale.py` filled, to see whether the checker keeps up at that size.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench_store_query import BenchDaemon, memory_texts, summary

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "bench" / "data" / "contradictions"


def log(msg: str) -> None:
    print(f"[bench_contradictions] {msg}", file=sys.stderr, flush=True)


def detector_cost() -> dict[str, Any]:
    from omegad.contradictions.detect import detect

    pairs = [json.loads(line) for f in ("dev.jsonl", "holdout.jsonl") for line in (DATA / f).read_text().splitlines()]
    times: list[float] = []
    for _ in range(5):
        for p in pairs:
            t0 = time.perf_counter()
            detect(p["new"], p["old"])
            times.append((time.perf_counter() - t0) * 1000)
    return {"pairs": len(pairs), "runs": len(times), "ms": summary(times), "max_ms": round(max(times), 4)}


def texts_with_conflicts(n: int, seed: int) -> list[str]:
    """Memory-like texts where one in ten negates an earlier one (so the checker also writes
    edges, as real use occasionally does)."""
    base = memory_texts(n, seed)
    out: list[str] = []
    for i, t in enumerate(base):
        if i % 10 == 9:
            earlier = out[i - 9].rstrip(".")
            out.append(f"It is no longer the case that {earlier[0].lower()}{earlier[1:]}.")
        else:
            out.append(t)
    return out


def store_latency(n: int) -> dict[str, Any]:
    texts = texts_with_conflicts(n, seed=5)
    on_d = BenchDaemon("[contradiction]\nenabled = true\n")
    off_d = BenchDaemon("[contradiction]\nenabled = false\n")
    with on_d, off_d, on_d.client() as c_on, off_d.client() as c_off:
        for t in texts[:20]:  # warm-up
            c_on.store(t, namespace="warm")
            c_off.store(t, namespace="warm")
        lat_on: list[float] = []
        lat_off: list[float] = []
        for i, t in enumerate(texts):
            order = [(c_on, lat_on), (c_off, lat_off)] if i % 2 == 0 else [(c_off, lat_off), (c_on, lat_on)]
            for c, lat in order:
                s = time.perf_counter()
                c.store(t, namespace="bench")
                lat.append((time.perf_counter() - s) * 1000)
        c_on.flush()
        stats = c_on.stats()["contradictions"]
    return {
        "stores": n,
        "on_ms": summary(lat_on),
        "off_ms": summary(lat_off),
        "ratio_median": round(statistics.median(lat_on) / statistics.median(lat_off), 3),
        "edges": stats["edges"],
        "checked": stats["checked"],
    }


def queue_lag(
    rate: float,
    seconds: float,
    data_dir: Path | None = None,
    vector_index: str | None = None,
    namespace: str = "lag",
    classifier: str = "auto",
) -> dict[str, Any]:
    texts = texts_with_conflicts(int(rate * seconds) + 10, seed=9)
    config = f'[index]\nvector_index = "{vector_index}"\n' if vector_index else ""
    config += f'[contradiction]\nclassifier = "{classifier}"\n'
    d = BenchDaemon(config, data_dir=data_dir)
    with d:
        with d.client() as c:
            for t in texts[:10]:
                c.store(t, namespace="warm")
            c.flush()
        errors: list[str] = []
        clients = 8
        per_client = rate / clients

        def client(k: int) -> None:
            try:
                with d.client() as c:
                    start = time.perf_counter()
                    for i, t in enumerate(texts[10 + k :: clients]):
                        due = start + i / per_client
                        wait = due - time.perf_counter()
                        if wait > 0:
                            time.sleep(wait)
                        if time.perf_counter() - start > seconds:
                            break
                        c.store(t, namespace=namespace)
            except Exception as exc:
                errors.append(str(exc))

        t0 = time.perf_counter()
        threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        elapsed = time.perf_counter() - t0
        with d.client() as c:
            backlog = c.stats()["contradictions"].get("classifier_backlog")  # (before the flush drains it)
            c.flush()
            deadline = time.monotonic() + 600
            while c.stats()["contradictions"]["depth"] and time.monotonic() < deadline:
                time.sleep(0.2)  # (stats count what the checker has done)
            st = c.stats()["contradictions"]
            memories = c.stats()["memories"]
        if errors:
            raise RuntimeError(errors[0])
    return {
        "target_rate": rate,
        "achieved_rate": round((st["checked"] - 10) / elapsed, 1),
        "lag_ms_p50": st["lag_ms_p50"],
        "lag_ms_p95": st["lag_ms_p95"],
        "detect_ms_per_pair": st["detect_ms_per_pair"],
        "classifier_ms_per_pair": st["classifier"]["ms_per_pair"],
        "classifier_pairs": st["classifier"]["pairs"],
        "classifier_lag_ms_p50": st.get("classifier_lag_ms_p50"),
        "classifier_lag_ms_p95": st.get("classifier_lag_ms_p95"),
        "classifier_backlog_at_end": backlog,
        "memories": memories,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--lag-only", action="store_true", help="part 3 only")
    ap.add_argument("--classifier", choices=["auto", "off"], default="auto", help="the pair classifier in part 3")
    ap.add_argument("--data-dir", type=Path, default=None, help="part 3 on this store (a copy: it is written)")
    ap.add_argument("--vector-index", choices=["hnsw", "rabitq"], default=None, help="index.vector_index for part 3")
    ap.add_argument(
        "--namespace",
        default="lag",
        help="part 3's namespace (a new one is small: its neighbours are searched in memory; "
        "name the store's big one to search them through the vector index)",
    )
    args = ap.parse_args()
    seconds = args.seconds or (4.0 if args.quick else 15.0)
    if args.lag_only:
        log(f"queue lag at 50 stores/s for {seconds} s")
        lag = queue_lag(50.0, seconds, args.data_dir, args.vector_index, args.namespace, args.classifier)
        print(json.dumps(lag))
        print(
            f"| queue lag at {lag['target_rate']:.0f} stores/s (achieved {lag['achieved_rate']}/s), "
            f"{lag['memories']:,} memories, namespace {args.namespace} | p50 {lag['lag_ms_p50']} ms, p95 {lag['lag_ms_p95']} ms |"
        )
        print(f"| {classifier_stage(lag)} |")
        return 0
    log("detectors per pair")
    det = detector_cost()
    n = 60 if args.quick else 300
    log(f"store latency on vs off: {n} stores each, alternating")
    lat = store_latency(n)
    log(f"queue lag at 50 stores/s for {seconds} s")
    lag = queue_lag(50.0, seconds)
    print("| measure | value |")
    print("|---|---|")
    print(
        f"| detectors per pair ({det['pairs']} labelled pairs × 5) | median {det['ms']['median']:.3f} ms, "
        f"p95 {det['ms']['p95']:.3f} ms, max {det['max_ms']:.3f} ms |"
    )
    print(
        f"| single store, detection on / off ({lat['stores']} each, alternating) | "
        f"{lat['on_ms']['median']:.1f} / {lat['off_ms']['median']:.1f} ms median → ratio {lat['ratio_median']} "
        f"(p95 {lat['on_ms']['p95']:.1f} / {lat['off_ms']['p95']:.1f}; {lat['edges']} edges written) |"
    )
    print(
        f"| queue lag at {lag['target_rate']:.0f} stores/s (achieved {lag['achieved_rate']}/s) | "
        f"p50 {lag['lag_ms_p50']} ms, p95 {lag['lag_ms_p95']} ms |"
    )
    print(
        f"| pair classifier in that run | {lag['classifier_pairs']} pairs, {lag['classifier_ms_per_pair']} ms per pair "
        f"(one pair per ONNX run, one thread) |"
    )
    print(f"| {classifier_stage(lag)} |")
    return 0


def classifier_stage(lag: dict[str, Any]) -> str:
    return (
        f"classifier stage: commit to decision | p50 {lag['classifier_lag_ms_p50']} ms, "
        f"p95 {lag['classifier_lag_ms_p95']} ms; backlog {lag['classifier_backlog_at_end']} pairs when the stores "
        f"stopped; {lag['classifier_pairs']} pairs at {lag['classifier_ms_per_pair']} ms"
    )


if __name__ == "__main__":
    raise SystemExit(main())
