"""Store and query performance of a real daemon over its Unix socket.

    python bench/bench_store_query.py [--quick] [--json] [--config omegad.toml] [--seed N]

Measures, against a fresh daemon on a temporary socket and data dir (`_daemon.BenchDaemon`):

1. single ``store`` latency (1 client process, median / p95) next to the cost of embedding the
   same texts in-process with the daemon's embedder settings (`omegad.recall.embed.Embedder`, 2
   threads), so the embedding share of a store is visible; ``ping`` gives the bare RPC cost;
2. store throughput (memories/s) with 1 and with 8 client *processes* (each its own `Client`,
   each doing single stores), the 8/1 ratio, and ``store_batch`` throughput (batches of 100);
3. query latency (median / p95) with 1k and 10k memories stored (filled with ``store_batch`` of
   500 over 3 namespaces and every memory type, then ``flush``), split into the ``embed`` and
   ``recall`` stages of the ``explain`` trace; query throughput with 1 and 8 processes at 10k.

Texts are generated deterministically (seeded RNG over word lists): memories of 10-40 words,
queries of 4-10 words. The machine is assumed shared and noisy: everything is reported as
medians and as ratios measured within this one run, never against absolute thresholds.

The default run takes ~5.5 minutes on 2 shared cores, over half of it (~3 min, ~50 texts/s)
embedding the 10k fill texts; the fill time is printed. ``--quick`` is a ~1 minute smoke run:
1k memories only, fewer samples (query throughput is then measured at 1k). Store tests each
use a fresh daemon: every single ``store`` is its own commit, and un-compacted commits slow
later stores and queries (the last section measures this). ``--save FILE`` also writes JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing as mp
import os
import platform
import random
import shutil
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _daemon import BenchDaemon, pct

from omegad_client import Client
from omegad_client.protocol import MEMORY_TYPES

NAMESPACES = ("alpha", "beta", "gamma")

# -- deterministic text generation ---------------------------------------------------------


def _alternatives(text: str) -> list[str]:
    return text.split("|")


SUBJECTS = _alternatives(
    "the deploy script|our staging cluster|the billing service|Alice|Bob|the nightly backup job|"
    "the search index|the mobile app|the payment gateway|the CI pipeline|the Postgres replica|"
    "the auth proxy|the data team|the onboarding flow|the cache layer|the Kafka consumer|"
    "the invoice exporter|the frontend build|the load balancer|the cron scheduler|Priya|the support team|"
    "the metrics dashboard|the release train|the feature flag service|the Terraform module|"
    "the image resizer|the GraphQL gateway|the notification worker|Marcus"
)
VERBS = _alternatives(
    "fails|times out|retries|was migrated|needs|depends on|reads from|writes to|was rolled back|"
    "leaks memory|logs|rejects|caches|throttles|was upgraded to|must not touch|should call|keeps|drops|"
    "duplicates|validates|ignores|compresses|was moved behind|blocks on|pages on|exports|syncs with|"
    "replaced|prefers"
)
OBJECTS = _alternatives(
    "the old API token|expired certificates|large CSV uploads|the EU region|customer invoices|"
    "the shared volume|stale sessions|unicode file names|the retry budget|the connection pool|"
    "webhook payloads|the admin panel|nightly reports|cold starts|the read replica|the secrets vault|"
    "duplicate events|the rate limiter|the audit log|thumbnail requests|the legacy schema|"
    "timezone offsets|the VPN tunnel|partial refunds|the queue backlog|the health check|gzip responses|"
    "the S3 bucket|long polling clients|the staging database"
)
QUALIFIERS = _alternatives(
    "after the last release|during peak hours|when the disk is almost full|on Mondays|"
    "since the upgrade to version 3|only in production|unless the flag is enabled|every few minutes|"
    "under heavy load|when the network is flaky|after a cold restart|for enterprise customers|"
    "before the quarterly audit|while the migration runs|behind the corporate proxy|in the EU region|"
    "on the first of each month|until we rotate the keys|if the payload exceeds 10 MB|"
    "without any warning in the logs"
)
CONNECTORS = ["and", "but", "so", "because", "although", "which means", "while", "and then", "yet", "since"]
FILLERS = _alternatives(
    "we decided to keep it that way|Alice wants a ticket for it|this was confirmed in the postmortem|"
    "the fix is tracked in JIRA|nobody owns it yet|the workaround is a manual restart|"
    "we should revisit this next sprint|it cost us about two hours|the docs are out of date|"
    "remember to tell the on-call engineer|the vendor says it is expected|the alert threshold is too low"
)
QUESTION_STARTS = ["why does", "how do we fix", "what happened to", "when did", "who owns", "where is", "does"]


def _clause(rng: random.Random) -> list[str]:
    words = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}".split()
    r = rng.random()
    if r < 0.55:
        words += rng.choice(QUALIFIERS).split()
    elif r < 0.7:
        words += f"ticket {rng.randint(100, 9999)}".split()
    elif r < 0.8:
        words += f"on port {rng.randint(1024, 65535)}".split()
    return words


def memory_texts(n: int, seed: int) -> list[str]:
    """*n* distinct texts of 10-40 words (deterministic for a seed)."""
    rng = random.Random(seed)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        target = rng.randint(10, 40)
        words = _clause(rng)
        while len(words) < target:
            words += rng.choice(CONNECTORS).split()
            words += _clause(rng) if rng.random() < 0.7 else rng.choice(FILLERS).split()
        text = " ".join(words[:target])
        text = text[0].upper() + text[1:] + "."
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


def query_texts(n: int, seed: int) -> list[str]:
    """*n* queries of 4-10 words (deterministic for a seed)."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(n):
        target = rng.randint(4, 10)
        if rng.random() < 0.5:
            words = rng.choice(QUESTION_STARTS).split() + rng.choice(SUBJECTS).split() + rng.choice(OBJECTS).split()
            words += rng.choice(QUALIFIERS).split()
        else:
            words = _clause(rng) + rng.choice(QUALIFIERS).split()
        out.append(" ".join(words[:target]))
    return out


def fill_items(texts: list[str], offset: int) -> list[dict[str, Any]]:
    return [
        {
            "text": t,
            "namespace": NAMESPACES[(offset + i) % len(NAMESPACES)],
            "type": MEMORY_TYPES[(offset + i) % len(MEMORY_TYPES)],
            "tags": [f"t{(offset + i) % 17}"],
        }
        for i, t in enumerate(texts)
    ]


# -- statistics ------------------------------------------------------------------------------


def summary(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "median": round(statistics.median(values), 3),
        "p95": round(pct(values, 0.95), 3),
        "min": round(min(values), 3),
    }


# -- daemons ---------------------------------------------------------------------------------


@contextmanager
def daemon(config_text: str | None) -> Iterator[BenchDaemon]:
    """A fresh `BenchDaemon`; its temporary data and socket directories are removed after."""
    d = BenchDaemon(config_text)
    try:
        with d:
            yield d
    finally:
        shutil.rmtree(d.tmp, ignore_errors=True)
        shutil.rmtree(d.socket.parent, ignore_errors=True)


# -- multi-process clients ------------------------------------------------------------------


def _client_worker(kind: str, socket: str, payload: list[Any], barrier: Any, out: Any) -> None:
    """One client process: connect, wait for the others, run the calls, report timings."""
    try:
        lat: list[float] = []
        with Client(socket, timeout=600) as c:
            c.ping()
            barrier.wait()
            t0 = time.monotonic()
            for p in payload:
                s = time.perf_counter()
                if kind == "store":
                    c.store(p["text"], namespace=p["namespace"], type=p["type"])
                elif kind == "store_batch":
                    c.store_batch(p)
                else:
                    c.query(p["text"], namespace=p["namespace"], limit=10, rerank=p.get("rerank"))
                lat.append((time.perf_counter() - s) * 1000)
            t1 = time.monotonic()
        out.put({"t0": t0, "t1": t1, "lat": lat, "error": None})
    except Exception as exc:  # report instead of hanging the parent
        out.put({"t0": 0.0, "t1": 0.0, "lat": [], "error": f"{type(exc).__name__}: {exc}"})


def run_procs(kind: str, socket: Path, payloads: list[list[Any]], units_per_call: int = 1) -> dict[str, Any]:
    """Run one process per payload (all start together); throughput over the common wall time."""
    ctx = mp.get_context("spawn")  # the parent holds ONNX Runtime threads: no fork
    barrier = ctx.Barrier(len(payloads) + 1)
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_client_worker, args=(kind, str(socket), p, barrier, out), daemon=True) for p in payloads
    ]
    for p in procs:
        p.start()
    barrier.wait(timeout=120)
    reports = [out.get(timeout=1800) for _ in procs]
    for p in procs:
        p.join(60)
    errors = [r["error"] for r in reports if r["error"]]
    if errors:
        raise RuntimeError(f"{kind} client failed: {errors[0]}")
    wall = max(r["t1"] for r in reports) - min(r["t0"] for r in reports)
    calls = sum(len(r["lat"]) for r in reports)
    lat = [x for r in reports for x in r["lat"]]
    return {
        "procs": len(payloads),
        "calls": calls,
        "units": calls * units_per_call,
        "wall_s": round(wall, 3),
        "per_s": round(calls * units_per_call / wall, 2),
        "latency_ms": summary(lat),
    }


# -- the benchmark ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    store_latency: int
    store_1proc: int
    store_8proc_each: int
    batches: int
    embed_batch: int
    sizes: tuple[int, ...]
    queries: int
    query_1proc: int
    query_8proc_each: int
    store_at_end: int
    requery: int


FULL = Plan(
    store_latency=200,
    store_1proc=200,
    store_8proc_each=50,
    batches=6,
    embed_batch=500,
    sizes=(1_000, 10_000),
    queries=300,
    query_1proc=200,
    query_8proc_each=50,
    store_at_end=100,
    requery=100,
)
QUICK = Plan(
    store_latency=40,
    store_1proc=30,
    store_8proc_each=8,
    batches=2,
    embed_batch=200,
    sizes=(1_000,),
    queries=40,
    query_1proc=40,
    query_8proc_each=10,
    store_at_end=20,
    requery=20,
)
FILL_BATCH = 500
WARMUP = 10


def versions() -> dict[str, Any]:
    import lancedb
    import onnxruntime

    return {
        "python": platform.python_version(),
        "onnxruntime": onnxruntime.__version__,
        "lancedb": lancedb.__version__,
        "cores": os.cpu_count(),
        "affinity_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "platform": platform.platform(),
    }


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def bench_embedder(config_file: Path | None, single: list[str], batch: list[str]) -> dict[str, Any]:
    """Time the daemon's embedder in-process: one text per call, and one big batch."""
    from omegad.config import load_config
    from omegad.models.files import resolve_embedding
    from omegad.recall.embed import Embedder

    cfg = load_config(config_file)
    files = resolve_embedding(cfg.embedding_model_dir, cfg.model_cache_dir)
    emb = Embedder(files, threads=cfg.embedding_threads, batch_size=cfg.embed_batch_size)
    for t in single[:WARMUP]:
        emb.embed([t])
    lat: list[float] = []
    for t in single:
        s = time.perf_counter()
        emb.embed([t])
        lat.append((time.perf_counter() - s) * 1000)
    s = time.perf_counter()
    emb.embed(batch)
    batch_s = time.perf_counter() - s
    tokens = emb.count_tokens(single)
    out = {
        "variant": files.variant,
        "threads": cfg.embedding_threads,
        "batch_size": cfg.embed_batch_size,
        "single_ms": summary(lat),
        "single_tokens_median": statistics.median(tokens),
        "batch_texts": len(batch),
        "batch_s": round(batch_s, 3),
        "batch_per_s": round(len(batch) / batch_s, 1),
        "batch_ms_per_text": round(batch_s * 1000 / len(batch), 3),
    }
    del emb
    gc.collect()
    return out


def bench_stores(config_text: str | None, plan: Plan, texts: list[str], seed: int) -> dict[str, Any]:
    """Each test on a fresh daemon: single stores add one commit (fragment) each, which slows
    later writes and reads, so sharing a daemon would bias whichever test runs last."""
    res: dict[str, Any] = {}
    log(f"store latency: {len(texts)} single stores (fresh daemon)")
    with daemon(config_text) as d, d.client(timeout=600) as c:
        res["hello"] = c.hello()
        for _ in range(50):
            c.ping()
        lat = []
        for _ in range(200):
            s = time.perf_counter()
            c.ping()
            lat.append((time.perf_counter() - s) * 1000)
        res["ping_ms"] = summary(lat)
        for t in memory_texts(WARMUP, seed + 99):
            c.store(t, namespace="warmup")
        c.flush()
        lat = []
        for i, t in enumerate(texts):
            s = time.perf_counter()
            c.store(t, namespace=NAMESPACES[i % 3], type=MEMORY_TYPES[i % len(MEMORY_TYPES)])
            lat.append((time.perf_counter() - s) * 1000)
        res["store_ms"] = summary(lat)
        k = max(1, min(50, len(lat) // 4))
        res["store_first_ms"] = summary(lat[:k])
        res["store_last_ms"] = summary(lat[-k:])
        c.flush()
        res["stats_after_latency"] = c.stats()

    def store_payload(n: int, s: int) -> list[dict[str, Any]]:
        return fill_items(memory_texts(n, s), s)

    log(f"store throughput, 1 process x {plan.store_1proc} (fresh daemon)")
    with daemon(config_text) as d:
        res["store_1proc"] = run_procs("store", d.socket, [store_payload(plan.store_1proc, seed + 10)])
        committed(d, res["store_1proc"])
    log(f"store throughput, 8 processes x {plan.store_8proc_each} (fresh daemon)")
    with daemon(config_text) as d:
        res["store_8proc"] = run_procs(
            "store", d.socket, [store_payload(plan.store_8proc_each, seed + 20 + k) for k in range(8)]
        )
        committed(d, res["store_8proc"])
        with d.client() as c:
            res["store_8proc"]["commits"] = c.stats()["queues"]["writer"]["commits"]
    log(f"store_batch throughput, {plan.batches} x 100 (fresh daemon)")
    batches = [fill_items(memory_texts(100, seed + 40 + k), k) for k in range(plan.batches)]
    with daemon(config_text) as d:
        res["store_batch_1proc"] = run_procs("store_batch", d.socket, [batches], units_per_call=100)
        committed(d, res["store_batch_1proc"])
    return res


def committed(d: BenchDaemon, run: dict[str, Any]) -> None:
    """Add how long after the last answer every store was committed (``stats`` waits for the
    stores acknowledged at the log; 0 when each was committed before its answer) and the
    throughput counted to that moment, the figure that compares across `store.ack`."""
    with d.client() as c:
        s = time.perf_counter()
        c.stats()
        run["commit_wait_s"] = round(time.perf_counter() - s, 3)
    run["committed_per_s"] = round(run["units"] / (run["wall_s"] + run["commit_wait_s"]), 2)


def query_latency(c: Client, queries: list[str]) -> dict[str, Any]:
    for q in queries[:WARMUP]:
        c.query(q, namespace=NAMESPACES[0], limit=10)
    maintenance_before = c.stats()["maintenance"]["last_at"]
    total, embed, recall, rest, server = [], [], [], [], []
    for i, q in enumerate(queries):
        s = time.perf_counter()
        reply = c.query(q, namespace=NAMESPACES[i % 3], limit=10, explain=True)
        ms = (time.perf_counter() - s) * 1000
        stages = {st["stage"]: st["ms"] for st in reply["trace"]}
        total.append(ms)
        embed.append(stages.get("embed", 0.0))
        recall.append(stages.get("recall", 0.0))
        server.append(sum(stages.values()))
        rest.append(ms - stages.get("embed", 0.0) - stages.get("recall", 0.0))
    return {
        "total_ms": summary(total),
        "embed_ms": summary(embed),
        "recall_ms": summary(recall),
        "server_ms": summary(server),
        "other_ms": summary(rest),
        "embed_share": round(sum(embed) / sum(total), 3),
        "recall_share": round(sum(recall) / sum(total), 3),
        # the daemon's idle timer compacts the table now and then: did it run meanwhile?
        "maintenance_during": c.stats()["maintenance"]["last_at"] != maintenance_before,
    }


def fill(c: Client, texts: list[str], offset: int) -> dict[str, Any]:
    """store_batch *texts* in batches of FILL_BATCH, then flush; per-batch seconds."""
    per_batch: list[float] = []
    s0 = time.perf_counter()
    for start in range(0, len(texts), FILL_BATCH):
        s = time.perf_counter()
        c.store_batch(fill_items(texts[start : start + FILL_BATCH], offset + start))
        per_batch.append(time.perf_counter() - s)
    stored_s = time.perf_counter() - s0
    s = time.perf_counter()
    c.flush()
    flush_s = time.perf_counter() - s
    return {
        "memories": len(texts),
        "batches": len(per_batch),
        "store_s": round(stored_s, 2),
        "flush_s": round(flush_s, 2),
        "per_s": round(len(texts) / (stored_s + flush_s), 1),
        "first_batch_s": round(per_batch[0], 3),
        "last_batch_s": round(per_batch[-1], 3),
        "median_batch_s": round(statistics.median(per_batch), 3),
    }


def bench_queries(d: BenchDaemon, plan: Plan, seed: int) -> dict[str, Any]:
    res: dict[str, Any] = {"sizes": {}}
    top = plan.sizes[-1]
    all_texts = memory_texts(top, seed + 1000)
    queries = query_texts(plan.queries, seed + 2000)
    have = 0
    with d.client(timeout=1800) as c:
        for size in plan.sizes:
            log(f"filling to {size} memories (store_batch of {FILL_BATCH})")
            f = fill(c, all_texts[have:size], have)
            have = size
            stats = c.stats()
            log(f"query latency at {size}: {plan.queries} queries")
            entry = {
                "fill": f,
                "memories": stats["memories"],
                "index": stats["index"],
                "maintenance": stats["maintenance"],
            }
            entry["query"] = query_latency(c, queries)
            res["sizes"][str(size)] = entry
    qtexts = query_texts(plan.query_1proc + 8 * plan.query_8proc_each, seed + 4000)

    def payload(qs: list[str], k: int) -> list[dict[str, Any]]:
        return [{"text": q, "namespace": NAMESPACES[(k + i) % 3]} for i, q in enumerate(qs)]

    log(f"query throughput at {top}: 1 process x {plan.query_1proc}")
    res["query_1proc"] = run_procs("query", d.socket, [payload(qtexts[: plan.query_1proc], 0)])
    log(f"query throughput at {top}: 8 processes x {plan.query_8proc_each}")
    rest = qtexts[plan.query_1proc :]
    n = plan.query_8proc_each
    res["query_8proc"] = run_procs("query", d.socket, [payload(rest[k * n : (k + 1) * n], k) for k in range(8)])
    res["throughput_size"] = top
    with d.client(timeout=600) as c:
        # Single stores into the full store (one commit each), then the same queries again:
        # shows what un-compacted single-store commits cost reads.
        log(f"{plan.store_at_end} single stores at {top}, then {plan.requery} queries again")
        lat = []
        for i, t in enumerate(memory_texts(plan.store_at_end, seed + 3000)):
            s = time.perf_counter()
            c.store(t, namespace=NAMESPACES[i % 3])
            lat.append((time.perf_counter() - s) * 1000)
        res["store_at_end_ms"] = summary(lat)
        c.flush()
        res["requery"] = query_latency(c, queries[: plan.requery])
        res["stats_after"] = c.stats()
    return res


# -- report ---------------------------------------------------------------------------------


def render(r: dict[str, Any]) -> str:
    lines: list[str] = []
    v = r["versions"]
    e = r["embedder"]
    st = r["stores"]
    q = r["queries"]
    add = lines.append

    def row(label: str, value: str, note: str = "") -> None:
        add(f"  {label:<44} {value:>22}  {note}".rstrip())

    def ms(s: dict[str, float]) -> str:
        return f"{s['median']:.2f} / {s['p95']:.2f}"

    def query_rows(qq: dict[str, Any]) -> None:
        note = ", compaction ran meanwhile" if qq["maintenance_during"] else ""
        row("query round trip", ms(qq["total_ms"]), f"n={qq['total_ms']['n']}{note}")
        row("  embed stage", ms(qq["embed_ms"]), f"share {qq['embed_share']:.2f} of round trip")
        row("  recall stage (vector + FTS)", ms(qq["recall_ms"]), f"share {qq['recall_share']:.2f}")
        row("  everything else (RPC, fuse, scoring, dedup)", ms(qq["other_ms"]))

    add(
        f"omegad store/query benchmark{' (--quick)' if r['quick'] else ''}: python {v['python']}, "
        f"onnxruntime {v['onnxruntime']}, lancedb {v['lancedb']}, {v['cores']} cores "
        f"({v['affinity_cores']} usable)"
    )
    hello = st["hello"]
    add(
        f"daemon {hello.get('daemon_version')}, model {hello['embedding']['model']} "
        f"({hello['embedding']['variant']}, dim {hello['embedding']['dim']}); embedder threads {e['threads']}, "
        f"batch {e['batch_size']}; total run {r['elapsed_s']:.0f} s"
    )
    add("  (latencies: median / p95 in ms; ratios within this run)")
    add("")
    add("1. store latency, 1 client process")
    row("ping round trip (bare RPC)", ms(st["ping_ms"]), f"n={st['ping_ms']['n']}")
    row("store, single call", ms(st["store_ms"]), f"n={st['store_ms']['n']}, 10-40 words")
    k = st["store_first_ms"]["n"]
    row(
        f"  first {k} / last {k} calls (median)",
        f"{st['store_first_ms']['median']:.2f} / {st['store_last_ms']['median']:.2f}",
        f"drift x{r['derived']['store_drift']:.2f} (one commit per store)",
    )
    row(
        "embed same texts in-process (1 per call)",
        ms(e["single_ms"]),
        f"median {e['single_tokens_median']:.0f} tokens",
    )
    row("embedding share of a store (median/median)", f"{r['derived']['store_embed_share']:.2f}")
    row("store minus embed (write path + RPC)", f"{r['derived']['store_minus_embed_ms']:.2f}", "median diff")
    row(
        f"embed batch of {e['batch_texts']} in-process",
        f"{e['batch_per_s']:.0f} texts/s",
        f"{e['batch_ms_per_text']:.2f} ms/text, single-call speedup x{r['derived']['embed_batch_speedup']:.2f}",
    )
    add("")
    add("2. store throughput")
    for key, label in (("store_1proc", "store, 1 process"), ("store_8proc", "store, 8 processes")):
        t = st[key]
        extra = f", {t['commits']} commits" if "commits" in t else ""
        row(
            label,
            f"{t['per_s']:.1f} mem/s",
            f"{t['units']} in {t['wall_s']:.1f} s, call {ms(t['latency_ms'])} ms{extra}; "
            f"{t['committed_per_s']:.1f} mem/s counted until committed",
        )
    row("ratio 8 proc / 1 proc", f"x{r['derived']['store_8_over_1']:.2f}")
    t = st["store_batch_1proc"]
    row(
        "store_batch of 100, 1 process",
        f"{t['per_s']:.1f} mem/s",
        f"{t['calls']} batches in {t['wall_s']:.1f} s, batch {ms(t['latency_ms'])} ms; "
        f"{t['committed_per_s']:.1f} mem/s counted until committed",
    )
    row("ratio store_batch / single store (1 proc)", f"x{r['derived']['batch_over_single']:.2f}")
    row(
        "ratio store_batch / in-process embed batch", f"{r['derived']['batch_over_embed']:.2f}", "1.0 = embedding-bound"
    )
    add("")
    add("3. query (limit 10, explain=True, 3 namespaces, queries 4-10 words)")
    for size, entry in q["sizes"].items():
        f = entry["fill"]
        qq = entry["query"]
        fts = entry["index"].get("fts") or {}
        add(f"  -- {int(size):,} memories (store reports {entry['memories']:,})")
        row(
            "fill with store_batch(500) + flush",
            f"{f['per_s']:.0f} mem/s",
            f"{f['memories']} in {f['store_s'] + f['flush_s']:.1f} s (flush {f['flush_s']:.1f} s); "
            f"batch first {f['first_batch_s']:.1f} s, last {f['last_batch_s']:.1f} s",
        )
        row(
            "FTS index rows indexed / unindexed",
            f"{fts.get('indexed_rows', '-')} / {fts.get('unindexed_rows', '-')}",
        )
        query_rows(qq)
    if len(q["sizes"]) > 1:
        sizes = list(q["sizes"])
        a, b = q["sizes"][sizes[0]]["query"], q["sizes"][sizes[-1]]["query"]
        row(
            f"ratio query {int(sizes[-1]) // 1000}k / {int(sizes[0]) // 1000}k (median)",
            f"x{b['total_ms']['median'] / a['total_ms']['median']:.2f}",
            f"recall x{b['recall_ms']['median'] / a['recall_ms']['median']:.2f}",
        )
    size = q["throughput_size"]
    for key, label in (("query_1proc", "query, 1 process"), ("query_8proc", "query, 8 processes")):
        t = q[key]
        row(
            f"{label} at {size // 1000}k",
            f"{t['per_s']:.1f} q/s",
            f"{t['calls']} in {t['wall_s']:.1f} s, call {ms(t['latency_ms'])} ms",
        )
    row("ratio 8 proc / 1 proc", f"x{r['derived']['query_8_over_1']:.2f}")
    add(f"  -- then {q['store_at_end_ms']['n']} single stores into the {size:,} store, and the queries again")
    row(
        "single store",
        ms(q["store_at_end_ms"]),
        f"x{r['derived']['store_end_over_start']:.2f} the first single stores into an empty store",
    )
    query_rows(q["requery"])
    row(
        "ratio query after / before the single stores",
        f"x{r['derived']['requery_over_query']:.2f}",
        "(median round trip)",
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="~1 minute smoke run: 1k memories, fewer samples")
    ap.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    ap.add_argument("--config", type=Path, help="omegad TOML config for the daemon (and the in-process embedder)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--save", type=Path, help="also write the JSON results to this file")
    args = ap.parse_args(argv)
    plan = QUICK if args.quick else FULL
    config_text = args.config.read_text() if args.config else None
    started = time.perf_counter()
    r: dict[str, Any] = {"quick": args.quick, "versions": versions(), "plan": plan.__dict__}

    store_texts = memory_texts(plan.store_latency, args.seed)
    batch_texts = memory_texts(plan.embed_batch, args.seed + 1000)  # = the first fill texts
    log(f"in-process embedder: {len(store_texts)} single texts, one batch of {len(batch_texts)}")
    r["embedder"] = bench_embedder(args.config, store_texts, batch_texts)

    r["stores"] = bench_stores(config_text, plan, store_texts, args.seed)
    log("fill and query (fresh daemon)")
    with daemon(config_text) as d:
        r["queries"] = bench_queries(d, plan, args.seed)

    st, q, e = r["stores"], r["queries"], r["embedder"]
    r["derived"] = {
        "store_embed_share": round(e["single_ms"]["median"] / st["store_ms"]["median"], 3),
        "store_minus_embed_ms": round(st["store_ms"]["median"] - e["single_ms"]["median"], 3),
        "embed_batch_speedup": round(e["single_ms"]["median"] / e["batch_ms_per_text"], 3),
        "store_8_over_1": round(st["store_8proc"]["per_s"] / st["store_1proc"]["per_s"], 3),
        "batch_over_single": round(st["store_batch_1proc"]["per_s"] / st["store_1proc"]["per_s"], 3),
        "batch_over_embed": round(st["store_batch_1proc"]["per_s"] / e["batch_per_s"], 3),
        "store_drift": round(st["store_last_ms"]["median"] / st["store_first_ms"]["median"], 3),
        "store_end_over_start": round(q["store_at_end_ms"]["median"] / st["store_first_ms"]["median"], 3),
        "requery_over_query": round(
            q["requery"]["total_ms"]["median"] / q["sizes"][str(q["throughput_size"])]["query"]["total_ms"]["median"], 3
        ),
        "query_8_over_1": round(q["query_8proc"]["per_s"] / q["query_1proc"]["per_s"], 3),
    }
    r["elapsed_s"] = round(time.perf_counter() - started, 1)
    if args.save:
        args.save.write_text(json.dumps(r, indent=2, default=str) + "\n")
    if args.json:
        print(json.dumps(r, indent=2, default=str))
    else:
        print(render(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
