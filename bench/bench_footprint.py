"""Resident memory of the daemon and its children, idle and during a bulk load, and the bulk
load's throughput counted until committed.

1. **idle**: a fresh daemon (default configuration) gets ``--idle-memories`` memories (607:
   the size of the independent set the issue measured on) by ``store_batch``, 30 queries, a
   ``flush``; then it is left alone until the maintenance process has ended
   (``maintenance.process_idle_s``) and the contradiction classifier, unused, was unloaded
   (``contradiction.classifier_idle_s``), and the RSS of the daemon and every descendant is read
   ("warm": the embedding model and the reranker still in memory). The daemon's own
   ``stats.memory`` (malloc in use / freed and held, Lance caches) and which models are loaded
   are reported beside it. Then, for a daemon that releases unused models
   (``embedding.idle_s``, ``reranker.idle_s``; ``--models-idle-s`` sets both, 120 s here against
   300 s by default, to keep the run short; longer than the classifier's 60 s, so that "warm" has
   them), the same once both have left memory ("quiet").
2. **bulk load**: a fresh daemon gets ``--bulk`` memories (5,000) in ``store_batch`` calls of
   500 from one client; the process tree's RSS is sampled every 20 ms throughout. Reported:
   seconds until the last batch was answered (acknowledged), until ``stats`` answers with
   nothing pending (every memory embedded and committed: ``stats`` waits for the stores
   acknowledged before it), and until ``flush`` returns (contradiction checks done too); the
   peak RSS of the tree and of the daemon alone.

Run it for two commits in one session to get ratios (``PYTHONPATH`` pointing at the other
checkout; the bench scripts are this commit's)::

    python bench/bench_footprint.py --save new.json
    PYTHONSAFEPATH=1 PYTHONPATH=OLD:OLD/client python bench/bench_footprint.py --save old.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _daemon import BenchDaemon
from bench_store_query import NAMESPACES, fill_items, memory_texts, query_texts

BATCH = 500


def tree(pid: int) -> list[int]:
    """*pid* and all its descendants."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(x) for x in f.read().split())
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out


def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0.0


def tree_rss(pid: int) -> dict[str, float]:
    pids = tree(pid)
    own = rss_mib(pid)
    return {"daemon": round(own, 1), "children": round(sum(rss_mib(p) for p in pids[1:]), 1), "processes": len(pids)}


class Sampler(threading.Thread):
    """The tree's RSS every *period* s; keeps the peaks."""

    def __init__(self, pid: int, period: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.pid, self.period = pid, period
        self.peak_total = self.peak_daemon = 0.0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            r = tree_rss(self.pid)
            self.peak_daemon = max(self.peak_daemon, r["daemon"])
            self.peak_total = max(self.peak_total, r["daemon"] + r["children"])
            time.sleep(self.period)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def classifier_idle_s() -> float:
    """The daemon's default for unloading an unused classifier (0: it is kept, or an older
    daemon that keeps it)."""
    from omegad.config import Config

    return float(getattr(Config(), "contradiction_classifier_idle_s", 0.0))


def resident(stats: dict[str, Any]) -> dict[str, bool | None]:
    """Which models are in memory (None: a daemon that does not say)."""
    models = stats.get("models") or {}
    return {k: (models.get(k) or {}).get("resident") for k in ("embedding", "reranker")}


def idle(n: int, quiet_s: float, models_idle_s: float) -> dict[str, Any]:
    log(f"idle: {n} memories, 30 queries, then quiet")
    config = f"[embedding]\nidle_s = {models_idle_s}\n[reranker]\nidle_s = {models_idle_s}\n" if models_idle_s else None
    with BenchDaemon(config) as d, d.client(timeout=600) as c:
        texts = memory_texts(n, 3)
        for start in range(0, n, BATCH):
            c.store_batch(fill_items(texts[start : start + BATCH], start))
        c.flush()
        for i, q in enumerate(query_texts(30, 5)):
            c.query(q, namespace=NAMESPACES[i % 3])
        c.flush()
        hello = c.hello()
        # until the maintenance process has ended and an unused classifier is unloaded
        # (`contradiction.classifier_idle_s`: 60 s by default; stats says whether it was)
        settled = 5 + classifier_idle_s()
        began = time.monotonic()
        while time.monotonic() - began < quiet_s:
            time.sleep(1)
            if tree_rss(d.pid())["processes"] == 1 and time.monotonic() - began > settled:
                break
        time.sleep(2)
        r = tree_rss(d.pid())
        stats = c.stats()
        out = {
            "memories": n,
            "rss_mib": r,
            "total_mib": round(r["daemon"] + r["children"], 1),
            "memory": stats.get("memory"),
            "models": {k: v.get("state") for k, v in (stats.get("models") or {}).items()},
            "resident": resident(stats),
            "reranker": hello.get("reranker", {}).get("state"),
            "classifier": (stats.get("contradictions") or {}).get("classifier", {}).get("state"),
        }
        if models_idle_s and None not in out["resident"].values():
            began = time.monotonic()
            while any(resident(c.stats()).values()) and time.monotonic() - began < models_idle_s + quiet_s:
                time.sleep(1)
            time.sleep(2)
            r = tree_rss(d.pid())
            stats = c.stats()
            # what the first question after the quiet spell pays (both models load again),
            # against the next one, on fresh texts (no cached rerank scores)
            questions = query_texts(32, 11)[30:]
            timed = []
            for i, q in enumerate(questions):
                t0 = time.perf_counter()
                c.query(q, namespace=NAMESPACES[i % 3])
                timed.append(round((time.perf_counter() - t0) * 1000, 1))
            out["quiet"] = {
                "after_s": round(time.monotonic() - began, 1),
                "rss_mib": r,
                "total_mib": round(r["daemon"] + r["children"], 1),
                "memory": stats.get("memory"),
                "resident": resident(stats),
                "first_query_ms": timed[0],
                "next_query_ms": timed[1],
            }
        return out


def bulk(n: int) -> dict[str, Any]:
    log(f"bulk load: {n} memories in store_batch of {BATCH}")
    texts = memory_texts(n, 17)
    with BenchDaemon(None) as d, d.client(timeout=900) as c:
        c.store("warm up", namespace="warmup")
        c.flush()
        before = tree_rss(d.pid())
        sampler = Sampler(d.pid())
        sampler.start()
        t0 = time.perf_counter()
        for start in range(0, n, BATCH):
            c.store_batch(fill_items(texts[start : start + BATCH], start))
        acked = time.perf_counter() - t0
        c.stats()  # waits for every store acknowledged before it to be committed
        committed = time.perf_counter() - t0
        c.flush()
        flushed = time.perf_counter() - t0
        sampler.stop.set()
        sampler.join()
        after = tree_rss(d.pid())
        return {
            "memories": n,
            "acked_s": round(acked, 2),
            "committed_s": round(committed, 2),
            "flushed_s": round(flushed, 2),
            "committed_per_s": round(n / committed, 1),
            "flushed_per_s": round(n / flushed, 1),
            "rss_before_mib": before,
            "peak_total_mib": round(sampler.peak_total, 1),
            "peak_daemon_mib": round(sampler.peak_daemon, 1),
            "rss_after_mib": after,
        }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--idle-memories", type=int, default=607)
    ap.add_argument("--bulk", type=int, default=5000)
    ap.add_argument("--quiet-s", type=float, default=90.0, help="most seconds to wait for quiet")
    ap.add_argument(
        "--models-idle-s",
        type=float,
        default=120.0,
        help="embedding.idle_s and reranker.idle_s for the idle daemon (0: its defaults, for a daemon without them)",
    )
    ap.add_argument("--save", type=Path)
    args = ap.parse_args()
    out = {"idle": idle(args.idle_memories, args.quiet_s, args.models_idle_s), "bulk": bulk(args.bulk)}
    i, b = out["idle"], out["bulk"]
    print(f"idle at {i['memories']} memories: {i['total_mib']} MiB ({i['rss_mib']}), reranker {i['reranker']}")
    if "quiet" in i:
        q = i["quiet"]
        print(
            f"  quiet, models out of memory ({q['resident']}, {q['after_s']} s later): {q['total_mib']} MiB; "
            f"the next query {q['first_query_ms']} ms (models loaded again), the one after {q['next_query_ms']} ms"
        )
    print(
        f"bulk load of {b['memories']}: acknowledged {b['acked_s']} s, committed {b['committed_s']} s "
        f"({b['committed_per_s']}/s), checked {b['flushed_s']} s ({b['flushed_per_s']}/s); "
        f"peak {b['peak_total_mib']} MiB (daemon {b['peak_daemon_mib']})"
    )
    if args.save:
        args.save.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
