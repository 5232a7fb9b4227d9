"""The store at scale: 100k and 1M memories.

Texts are synthetic ("memory 123: topic words ..."); **most vectors are synthetic too** — unit
vectors clustered around 2,000 random topic centres — because embedding a million texts with
the real model would take hours on 2 cores. A share of the memories (``--real-share``, 2% by
default) is embedded for real, from its own text, with the daemon's model: in a real store a
question has memories about it, and how long a vector search takes depends on that (with
RaBitQ a query far from every vector scans twice as slowly: docs/storage.md). With
``--real-share 0`` no query has a neighbour closer than cosine ~0.3: the worst case. The store is filled in process
(big batches straight into LanceDB), then maintained like the daemon does (indexes, the RaBitQ
vector index, compaction), then a real daemon serves it and everything below goes over the
socket:

- query p50/p95 in the big namespace (90% of the rows) and in a small one (0.1%), rerank off
  (it is measured in bench_rerank.py), before and after 12% of the first fragment is deleted
  (deleted rows under the vector index slow every vector search);
- store throughput from 4 client processes while a maintenance pass runs (12% of the first
  fragment deleted after the fill: the pass must not rewrite the index over it);
- the daemon's RSS, disk bytes per memory vs raw size, maintenance and index build times.

    python bench/bench_scale.py [--sizes 100000,1000000] [--queries 200] [--vector-index hnsw|rabitq]
                                [--real-share 0.02]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _daemon import BenchDaemon, pct

from omegad.app.build import load_embedder
from omegad.config import load_config
from omegad.contradictions.edges import EdgeStore
from omegad.storage.maintenance import MaintainPolicy
from omegad.storage.rows import Row
from omegad.storage.store import MemoryStore

DIM = 384
WORDS = [
    "deploy",
    "cache",
    "token",
    "schema",
    "queue",
    "replica",
    "index",
    "backup",
    "alert",
    "login",
    "build",
    "release",
]


def log(msg: str) -> None:
    print(f"[bench_scale] {msg}", file=sys.stderr, flush=True)


#: The share of the memories embedded for real (``--real-share``).
DEFAULT_REAL_SHARE = 0.02

#: Memories deleted after the fill: this share of the first fragment (Lance drops the deleted
#: rows of a fragment from its files past 10%).
DELETED_SHARE = 0.12


def _text(i: int) -> str:
    words = " ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(6))
    return f"memory {i}: the {words} setting was changed for service {i % 97}"


def _raw_bytes(i: int) -> int:
    return len(_text(i).encode()) + DIM * 4 + 40


def fill(
    data_dir: Path, model_id: str, n: int, seed: int = 1, vector_index: str = "hnsw", real_share: float = 0.0
) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((2000, DIM)).astype(np.float32)
    store = MemoryStore.open(data_dir, model_id, DIM, vector_index=vector_index)
    embedder = load_embedder(load_config()) if real_share > 0 else None  # (the daemon's model)
    raw = real = 0
    embed_s = 0.0
    t0 = time.perf_counter()
    batch = 50_000
    now = time.time_ns() // 1000
    for start in range(0, n, batch):
        m = min(batch, n - start)
        v = centres[rng.integers(0, len(centres), m)] + 0.4 * rng.standard_normal((m, DIM)).astype(np.float32)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        if embedder is not None:  # (drawn after the vectors: the synthetic ones stay the same)
            picked = np.flatnonzero(rng.random(m) < real_share)
            te = time.perf_counter()
            for s in range(0, len(picked), 64):
                part = picked[s : s + 64]
                v[part] = embedder.embed([_text(start + int(k)) for k in part])
            embed_s += time.perf_counter() - te
            real += len(picked)
        rows = []
        for k in range(m):
            i = start + k
            ns = f"small-{(i // 10) % 100}" if i % 10 == 0 else "main"  # 100 × 0.1%, and 90%
            text = _text(i)
            raw += _raw_bytes(i)
            rows.append(Row(f"m{i:08d}", text, "fact", ["bench"], ns, {}, now - i, now - i, 1, v[k]))
        store.insert(rows)
    fill_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    first = store.maintenance.maintain(MaintainPolicy(), force=True)
    t1 = time.perf_counter()
    built = store.maintenance.build_vector_index()
    t2 = time.perf_counter()
    second = store.maintenance.maintain(MaintainPolicy(), force=True)
    # A daemon that had received these one by one would have checked them for contradictions
    # as they came; mark them checked, or the daemon would spend the benchmark checking a
    # million memories in the background.
    EdgeStore.open(store, data_dir).write_cursor(store.max_updated_at())
    return {
        "fill_s": round(fill_s, 1),
        "real_vectors": real,
        "embed_s": round(embed_s, 1),
        "raw_bytes": raw,
        "first_maintenance_s": round(t1 - t0, 1),
        "vector_index_s": round(t2 - t1, 1),
        "index_rows": built["rows"],
        "second_maintenance_s": round(time.perf_counter() - t2, 2),
        "namespaces": len(store.counts()),
        "health": second["after"],
        "vector_index_kind": store.indexes.vector_built,  # (what `auto` built)
        "first": {k: first.get(k) for k in ("indexed", "compacted")},
    }


def _store_worker(sock: str, seconds: float, q: Any) -> None:
    from omegad_client import Client

    done = 0
    lat = []
    with Client(sock, timeout=120) as c:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            s = time.perf_counter()
            c.store(f"new memory {time.time_ns()} about the deploy cache", namespace="main")
            lat.append((time.perf_counter() - s) * 1000)
            done += 1
    q.put((done, lat))


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """A process's resident set in MiB now (``VmHWM``: its peak so far)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def _queries(c: Any, n: int, suffix: str) -> dict[str, Any]:
    out = {}
    for label, ns in (("main", "main"), ("small", "small-3")):
        lat = []
        for i in range(n):
            s = time.perf_counter()
            c.query(f"which {WORDS[i % len(WORDS)]} setting changed for service {i % 97}?", namespace=ns, rerank=False)
            lat.append((time.perf_counter() - s) * 1000)
        out[f"query_{label}{suffix}"] = {"p50": round(statistics.median(lat), 1), "p95": round(pct(lat, 0.95), 1)}
    return out


def delete_some(data_dir: Path, model_id: str) -> int:
    """Delete 12% of the first fragment's rows (under the vector index), as a user's deletes
    would over time; returns how many. They become dead rows that every read drops (a Lance
    deletion there would make every vector search pay), and the requested pass must leave
    that fragment alone (dropping the rows would rewrite the index segment over it inside the
    commit, stores waiting)."""
    store = MemoryStore.open(data_dir, model_id, DIM)
    first_rows = int(store.table.to_lance().get_fragments()[0].metadata.physical_rows)
    deleted = int(first_rows * DELETED_SHARE)  # (rows keep their order: m00000000 is first)
    store.delete([f"m{i:08d}" for i in range(deleted)])
    return deleted


#: How long the benchmark waits for the daemon to count as quiet and trim its heap
#: (`omegad.app.service.TRIM_QUIET_S`, checked every second).
QUIET_WAIT_S = 2.5


def _rss_busy_and_quiet(pid: int) -> tuple[float, float]:
    """The daemon's RSS right after a load, and once it has been quiet for a while."""
    busy = round(rss_mb(pid), 0)
    time.sleep(QUIET_WAIT_S)
    return busy, round(rss_mb(pid), 0)


def _process_rss_mb(c: Any) -> float | None:
    """The RSS of the daemon's maintenance process (`omegad.storage.lanceops`), when it runs."""
    pid = c.stats()["maintenance"].get("process", {}).get("pid")
    try:
        return round(rss_mb(pid), 0) if pid else None
    except FileNotFoundError:
        return None


def _lance_cache_mb(c: Any) -> float:
    return round((c.stats()["store"].get("lance_cache_bytes") or 0) / 2**20, 0)


def _text_keys_built(c: Any, timeout: float = 300.0) -> float | None:
    """Wait for the daemon's start-up scan of the texts (`TextKeys`), which competes with
    the first queries for the CPU; its seconds, or None for a daemon without it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        keys = c.stats()["store"].get("text_keys")
        if keys is None or keys.get("failed") or not keys.get("enabled", True):
            return None
        if keys["ready"]:
            return float(keys["build_s"])
        time.sleep(0.2)
    raise RuntimeError("the text keys were not built")


def run(n: int, queries: int, vector_index: str = "hnsw", real_share: float = 0.0) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="omegad-scale-", dir="/work" if Path("/work").is_dir() else None))
    data = tmp / "data"
    with BenchDaemon(data_dir=data, keep=True) as d, d.client() as c:  # writes store.json
        model_id = c.hello()["embedding"]["model"]
    log(f"{n}: filling")
    info = fill(data, model_id, n, vector_index=vector_index, real_share=real_share)
    log(
        f"{n}: filled in {info['fill_s']} s ({info['real_vectors']} embedded for real in {info['embed_s']} s); vector index {info['vector_index_s']} s"
    )
    out: dict[str, Any] = {"n": n, "vector_index": vector_index, "real_share": real_share, **info}
    config = f'[index]\nvector_index = "{vector_index}"\n'
    with BenchDaemon(data_dir=data, config_text=config) as d, d.client() as c:
        out["text_keys_build_s"] = _text_keys_built(c)
        for _ in range(5):
            c.query("deploy cache setting", namespace="main", rerank=False)
        out.update(_queries(c, queries, "_no_deletes"))
    out["deleted"] = deleted = delete_some(data, model_id)
    out["raw_bytes"] = info["raw_bytes"] - sum(_raw_bytes(i) for i in range(deleted))
    with BenchDaemon(data_dir=data, config_text=config) as d, d.client() as c:
        _text_keys_built(c)
        for _ in range(5):
            c.query("deploy cache setting", namespace="main", rerank=False)
        out.update(_queries(c, queries, ""))
        out["rss_mb_after_queries"], out["rss_mb_quiet_after_queries"] = _rss_busy_and_quiet(d.pid())
        out["lance_cache_mb_after_queries"] = _lance_cache_mb(c)
        # stores from 4 processes while a maintenance pass runs
        ctx = mp.get_context("spawn")  # no fork of a process that holds LanceDB
        q: Any = ctx.Queue()
        procs = [ctx.Process(target=_store_worker, args=(str(d.socket), 15.0, q)) for _ in range(4)]
        for p in procs:
            p.start()
        time.sleep(1.0)
        t0 = time.perf_counter()
        report = c.maintain()
        maint_s = time.perf_counter() - t0
        results = [q.get() for _ in procs]
        for p in procs:
            p.join()
        stored = sum(r[0] for r in results)
        lat = [x for r in results for x in r[1]]
        out["stores_during_maintenance"] = {
            "stores_per_s": round(stored / 15.0, 1),
            "p50_ms": round(statistics.median(lat), 1),
            "p95_ms": round(pct(lat, 0.95), 1),
            "maintenance_s": round(maint_s, 2),
            "maintenance": {k: report.get(k) for k in ("indexed", "compacted", "cleanup", "cache_renewed", "ms")},
        }
        out["rss_mb_after_pass"] = round(rss_mb(d.pid()), 0)
        out["process_rss_mb_after_pass"] = _process_rss_mb(c)  # (ends 10 s after its last call)
        out["lance_cache_mb_after_pass"] = _lance_cache_mb(c)
        # the same queries once more: does the pass leave search slower or the daemon bigger?
        # (after the stores' contradiction checks: how many stores got in differs by commit)
        t0 = time.perf_counter()
        c.flush()
        out["flush_after_pass_s"] = round(time.perf_counter() - t0, 2)
        out.update(_queries(c, queries, "_after_pass"))
        out["rss_mb"], out["rss_mb_quiet"] = _rss_busy_and_quiet(d.pid())
        out["rss_mb_peak"] = round(rss_mb(d.pid(), "VmHWM"), 0)  # over the whole run, the pass included
        st = c.stats()
        out["process_rss_mb"] = _process_rss_mb(c)
        out["disk_bytes"] = st["store"]["disk_bytes"]
        out["disk_per_memory"] = round(st["store"]["disk_bytes"] / st["memories"], 0)
        out["disk_vs_raw"] = round(st["store"]["disk_bytes"] / out["raw_bytes"], 2)
    import shutil

    shutil.rmtree(tmp, ignore_errors=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument(
        "--vector-index",
        default="auto",
        choices=["auto", "hnsw", "rabitq"],
        help="index.vector_index (auto, the default: the graph below 262,144 memories, RaBitQ from there)",
    )
    ap.add_argument(
        "--real-share",
        type=float,
        default=DEFAULT_REAL_SHARE,
        help="share of the memories embedded for real from their text (0: all synthetic, the worst case)",
    )
    args = ap.parse_args()
    if not 0.0 <= args.real_share <= 1.0:
        ap.error("--real-share: between 0 and 1")
    results = []
    for n in [int(x) for x in args.sizes.split(",")]:
        r = run(n, args.queries, args.vector_index, args.real_share)
        print(json.dumps(r), flush=True)
        results.append(r)
    print(f"index.vector_index = {args.vector_index}; {args.real_share:.0%} of the vectors real")
    print(
        "| memories | query p50/p95 ms, 90% namespace: no deletes / 12% of a fragment deleted (after the pass) "
        "| 0.1% namespace: no deletes / deleted (after the pass) "
        "| stores/s during a pass, p50/p95 ms | pass s | RSS MiB after queries (quiet) / after the pass / after more "
        "queries (quiet); peak (the maintenance process's, while it runs) "
        "| Lance cache MB | disk/memory B (× raw) | vector index build s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        s = r["stores_during_maintenance"]
        qm0, qs0, qm, qs, qm2, qs2 = (
            r[k]
            for k in (
                "query_main_no_deletes",
                "query_small_no_deletes",
                "query_main",
                "query_small",
                "query_main_after_pass",
                "query_small_after_pass",
            )
        )
        print(
            f"| {r['n']:,} ({r['vector_index_kind']}) | {qm0['p50']} / {qm0['p95']}; {qm['p50']} / {qm['p95']} ({qm2['p50']} / {qm2['p95']}) "
            f"| {qs0['p50']} / {qs0['p95']}; {qs['p50']} / {qs['p95']} ({qs2['p50']} / {qs2['p95']}) "
            f"| {s['stores_per_s']}, {s['p50_ms']} / {s['p95_ms']} | {s['maintenance_s']} "
            f"| {r['rss_mb_after_queries']:.0f} ({r['rss_mb_quiet_after_queries']:.0f}) / {r['rss_mb_after_pass']:.0f} "
            f"/ {r['rss_mb']:.0f} ({r['rss_mb_quiet']:.0f}); {r['rss_mb_peak']:.0f} "
            f"({r['process_rss_mb_after_pass']} / {r['process_rss_mb']}) "
            f"| {r['lance_cache_mb_after_queries']:.0f} / {r['lance_cache_mb_after_pass']:.0f} "
            f"| {r['disk_per_memory']:.0f} ({r['disk_vs_raw']}×) | {r['vector_index_s']} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
