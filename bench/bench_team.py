"""Team mode against a local daemon: what sharing one store in an S3 bucket costs a store, a
query, and how late another host sees a store.

    python bench/bench_team.py [--stores 200] [--queries 100] [--lag-samples 20]
        [--visibility-s 1.0] [--lease-ttl-s 30] [--idle-s 5] [--concurrent-budget-s 25]
        [--seed 7] [--json] [--save FILE]

Every setup gets fresh daemons (`_daemon.BenchDaemon`, their own temporary data dirs); the team
daemons share a prefix of one bucket of a loopback moto S3 server (`tests.s3server.MotoServer`,
which honours conditional writes as AWS S3 does). Measured in this one run, setup after setup:

1. **local**: one daemon, default configuration (its stores are acknowledged at the write-ahead
   log, the default ``store.ack = "log"``; team stores are acknowledged at their commit);
   **team x1**: one daemon on ``s3://bench/one``; **team x3**: three daemons on
   ``s3://bench/three``. In each: ``--stores`` sequential ``store`` calls of distinct memory-like
   texts (10-40 words, one namespace, one client) after 10 warm-up stores, then ``--queries``
   sequential ``query`` calls (distinct questions of 4-10 words, limit 10) after 10 warm-up
   queries; latency median (p50) and p95 in ms. With three daemons the stores go to host 0 and,
   once host 1 sees the last of them, the queries to host 1; then the three hosts are written at
   once, one client each, ``--stores`` / 3 stores each (per-host p50 / p95), but none begun
   after ``--concurrent-budget-s`` (default 25): contending commits retry, and the phase would
   otherwise take minutes.
2. ratios team / local of store p50 and p95 and query p50 and p95 (team x1 and team x3).
3. **visibility lag** (team x3): ``--lag-samples`` stores on host 0, spaced 0.05-0.4 s apart
   (random, so that they fall at every phase of the hosts' refresh interval), each followed by
   ``get(id)`` polled on host 1 every 10 ms until it stops raising ``NotFound``: p50 / p95 / max
   of (seen on host 1 - acknowledged on host 0), beside the configured ``store.visibility_s``.
4. **object-store requests** (team x1), counted from moto's access log (one line per HTTP
   request; LIST is a GET on the bucket with ``list-type``), by method and by object kind
   (``<table>/<folder>``, e.g. ``memories/_versions``): during the sequential stores / N
   ("requests per store"), during the queries / N ("per query"), and the idle background rate
   (lease ticks, following the other hosts, maintenance) over ``--idle-s`` seconds without any
   client, measured before the stores and after the queries (with the maintenance passes that
   ran meanwhile); per store / query both raw and net of the lower of the two idle rates (a
   window that caught a maintenance pass is not the steady background) over the phase's
   duration. The idle rate of the three daemons is measured too.

The machine is assumed shared and noisy: compare the ratios within one run, not absolute times.
The default run takes about 4 minutes on 2 shared cores, two of them the team setups' 200
stores (a team store reads every data fragment from the bucket). Every daemon and the moto
server are stopped at the end, also on errors.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _daemon import REPO, BenchDaemon, pct
from bench_store_query import memory_texts, query_texts

from omegad_client import Client, NotFound, OmegadError
from tests.s3server import MotoServer

BUCKET = "bench"
NAMESPACE = "team"
WARMUP = 10
METHODS = ("GET", "PUT", "HEAD", "POST", "DELETE", "LIST")
LAG_POLL_S = 0.01
LAG_TIMEOUT_S = 20.0
DRIFT_K = 20  # stores at the start and the end of a run compared (un-compacted commits pile up)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "median": float("nan"), "p95": float("nan"), "max": float("nan")}
    return {
        "n": len(values),
        "median": round(statistics.median(values), 3),
        "p95": round(pct(values, 0.95), 3),
        "max": round(max(values), 3),
    }


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True)
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except OSError:
        return "unknown"


def versions() -> dict[str, Any]:
    import lancedb
    import moto

    return {
        "python": platform.python_version(),
        "lancedb": lancedb.__version__,
        "moto": moto.__version__,
        "cores": len(os.sched_getaffinity(0)),
    }


# -- moto's access log -------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_LINE = re.compile(r'"([A-Z]+) (\S+) HTTP/[0-9.]+" (\d{3})')


class RequestLog:
    """The moto server's access log, read between byte offsets (`mark`): werkzeug writes a
    request's line before its answer is sent, so a mark taken after a call returned covers it."""

    def __init__(self, server: MotoServer) -> None:
        self.path = server.log_path

    def mark(self) -> int:
        return self.path.stat().st_size

    def between(self, start: int, end: int) -> list[tuple[str, str, int]]:
        with self.path.open("rb") as f:
            f.seek(start)
            text = f.read(end - start).decode(errors="replace")
        out = []
        for line in text.splitlines():
            m = _LINE.search(_ANSI.sub("", line))
            if m:
                out.append((m.group(1), m.group(2), int(m.group(3))))
        return out

    @staticmethod
    def classify(method: str, target: str) -> tuple[str, str]:
        """(method, object kind): LIST for a GET on the bucket itself; the kind is the table
        and its first folder (``memories/_versions``), or ``_omegad/<folder>``."""
        parts = urlsplit(target)
        path = parts.path.strip("/").split("/")
        query = parse_qs(parts.query)
        if method == "GET" and len(path) == 1:
            method = "LIST"
            path = path + (query.get("prefix", [""])[0].strip("/").split("/"))
        rest = path[2:]  # after bucket and prefix
        if not rest or rest == [""]:
            kind = "(prefix)"
        else:
            head = rest[0].removesuffix(".lance")
            kind = head if len(rest) == 1 else f"{head}/{rest[1]}"
        if method == "POST":
            kind += " (multipart)" if ("uploads" in query or "uploadId" in query) else ""
        return method, kind

    def count(self, start: int, end: int, prefix: str | None = None) -> dict[str, Any]:
        methods: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        statuses: Counter[str] = Counter()
        for method, target, status in self.between(start, end):
            path = urlsplit(target).path.strip("/").split("/")
            if len(path) < 2 and method == "GET":
                pre = parse_qs(urlsplit(target).query).get("prefix", [""])[0].strip("/").split("/")[0]
            else:
                pre = path[1] if len(path) > 1 else ""
            if prefix is not None and pre != prefix:
                continue
            m, kind = self.classify(method, target)
            methods[m] += 1
            kinds[f"{m} {kind}"] += 1
            if status >= 300:
                statuses[f"{m} {kind} {status}"] += 1
        return {
            "total": sum(methods.values()),
            "methods": {m: methods.get(m, 0) for m in METHODS},
            "kinds": dict(kinds.most_common()),
            "non_2xx": dict(statuses.most_common()),
        }


# -- daemons ---------------------------------------------------------------------------------


def team_config(server: MotoServer, prefix: str, visibility_s: float, lease_ttl_s: float) -> str:
    """As tests/integration/test_team.py configures its daemons."""
    lines = [
        f'store.uri = "s3://{BUCKET}/{prefix}"',
        f"store.visibility_s = {visibility_s}",
        f"team.lease_ttl_s = {lease_ttl_s}",
        "[store.storage_options]",
        *(f'{k} = "{v}"' for k, v in server.storage_options().items()),
    ]
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def daemons(configs: list[str | None]) -> Iterator[list[BenchDaemon]]:
    """Fresh daemons, started together; stopped (killed if they will not stop) and their
    temporary directories removed on the way out, whatever happened."""
    with contextlib.ExitStack() as stack:
        ds: list[BenchDaemon] = []
        for config in configs:
            d = BenchDaemon(config)
            stack.callback(d.cleanup)  # (after __exit__: kills what would not stop)
            stack.callback(d.__exit__, None, None, None)
            ds.append(d)
        t0 = time.perf_counter()
        for d in ds:
            d.start(wait=False)
        for d in ds:
            d.wait_ready(180)
        log(f"{len(ds)} daemon(s) ready in {time.perf_counter() - t0:.1f} s")
        yield ds


# -- the measurements ------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    s = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - s) * 1000


def store_run(
    c: Client, texts: list[str], failed: list[str] | None = None, deadline: float = math.inf
) -> tuple[list[str], list[float]]:
    """Sequential stores; their ids and latencies. With *failed*, a store the daemon refuses
    is recorded there (its error) and left out, instead of ending the run; none is begun after
    *deadline* (`time.perf_counter`)."""
    ids, lat = [], []
    for t in texts:
        if time.perf_counter() > deadline:
            break
        try:
            mid, ms = timed(lambda t=t: c.store(t, namespace=NAMESPACE))
        except OmegadError as exc:
            if failed is None:
                raise
            failed.append(f"{type(exc).__name__}: {exc}")
            continue
        ids.append(mid)
        lat.append(ms)
    return ids, lat


def query_run(c: Client, questions: list[str]) -> list[float]:
    return [timed(lambda q=q: c.query(q, namespace=NAMESPACE, limit=10))[1] for q in questions]


def warm_up(c: Client, texts: list[str], questions: list[str]) -> None:
    for t in texts:
        c.store(t, namespace=NAMESPACE)
    for q in questions:
        c.query(q, namespace=NAMESPACE, limit=10)


def wait_visible(c: Client, mid: str, timeout: float = LAG_TIMEOUT_S) -> float:
    """Poll ``get(mid)`` until it answers; the seconds waited."""
    s = time.perf_counter()
    while True:
        try:
            c.get(mid)
            return time.perf_counter() - s
        except NotFound:
            if time.perf_counter() - s > timeout:
                raise TimeoutError(f"{mid} not visible after {timeout} s") from None
            time.sleep(LAG_POLL_S)


def idle(reqlog: RequestLog, seconds: float, prefix: str, clients: list[Client]) -> dict[str, Any]:
    """The requests of *seconds* without client calls; and whether a maintenance pass ran."""
    runs0 = [maintenance_runs(c) for c in clients]
    start, t0 = reqlog.mark(), time.perf_counter()
    time.sleep(seconds)
    end, wall = reqlog.mark(), time.perf_counter() - t0
    counted = reqlog.count(start, end, prefix)
    counted["maintenance_runs"] = sum(maintenance_runs(c) for c in clients) - sum(runs0)
    counted["seconds"] = round(wall, 2)
    counted["per_s"] = round(counted["total"] / wall, 2)
    counted["methods_per_s"] = {m: round(n / wall, 2) for m, n in counted["methods"].items()}
    return counted


def maintenance_runs(c: Client) -> int:
    return int(c.stats()["maintenance"]["runs"])


def per_call(counted: dict[str, Any], calls: int, seconds: float, idle_per_s: float) -> dict[str, Any]:
    """Requests per call raw, and net of the idle rate over the phase's *seconds*."""
    out = dict(counted)
    out["calls"] = calls
    out["seconds"] = round(seconds, 2)
    out["per_call"] = round(counted["total"] / calls, 2)
    out["idle_share"] = round(idle_per_s * seconds, 1)
    out["net_per_call"] = round((counted["total"] - idle_per_s * seconds) / calls, 2)
    out["methods_per_call"] = {m: round(n / calls, 2) for m, n in counted["methods"].items()}
    out["kinds_per_call"] = {k: round(n / calls, 2) for k, n in counted["kinds"].items()}
    return out


def bench_local(args: argparse.Namespace, texts: dict[str, list[str]], config: str | None = None) -> dict[str, Any]:
    log(f"local: 1 daemon, {'default configuration' if config is None else config.strip()}")
    with daemons([config]) as (d,), d.client() as c:
        res: dict[str, Any] = {"hello": c.hello()}
        warm_up(c, texts["warm"], texts["warm_q"])
        log(f"local: {args.stores} stores, {args.queries} queries")
        runs0 = maintenance_runs(c)
        _, res["store_ms"] = store_run(c, texts["store"])
        res["maintenance_runs_during_stores"] = maintenance_runs(c) - runs0
        res["fragments_after_stores"] = c.stats()["store"].get("fragments")
        res["fragments_at_queries"] = res["fragments_after_stores"]
        res["query_ms"] = query_run(c, texts["query"])
    return res


def bench_team1(args: argparse.Namespace, server: MotoServer, reqlog: RequestLog, texts: dict[str, Any]) -> dict:
    log("team x1: 1 daemon on s3://bench/one")
    config = team_config(server, "one", args.visibility_s, args.lease_ttl_s)
    with daemons([config]) as (d,), d.client() as c:
        res: dict[str, Any] = {"hello": c.hello()}
        warm_up(c, texts["warm"], texts["warm_q"])
        log(f"team x1: idle {args.idle_s} s")
        res["idle_before"] = idle(reqlog, args.idle_s, "one", [c])
        log(f"team x1: {args.stores} stores")
        runs0 = maintenance_runs(c)
        start, t0 = reqlog.mark(), time.perf_counter()
        _, res["store_ms"] = store_run(c, texts["store"])
        store_s, store_end = time.perf_counter() - t0, reqlog.mark()
        res["maintenance_runs_during_stores"] = maintenance_runs(c) - runs0
        res["fragments_after_stores"] = c.stats()["store"].get("fragments")
        res["fragments_at_queries"] = res["fragments_after_stores"]
        log(f"team x1: {args.queries} queries")
        runs0 = maintenance_runs(c)
        qstart, t0 = reqlog.mark(), time.perf_counter()
        res["query_ms"] = query_run(c, texts["query"])
        query_s, query_end = time.perf_counter() - t0, reqlog.mark()
        res["maintenance_runs_during_queries"] = maintenance_runs(c) - runs0
        log(f"team x1: idle {args.idle_s} s")
        res["idle_after"] = idle(reqlog, args.idle_s, "one", [c])
        # the lower of the two: a window that caught a maintenance pass is not the steady background
        idle_rate = min(res["idle_before"]["per_s"], res["idle_after"]["per_s"])
        res["idle_per_s"] = round(idle_rate, 2)
        res["requests_store"] = per_call(reqlog.count(start, store_end, "one"), args.stores, store_s, idle_rate)
        res["requests_query"] = per_call(reqlog.count(qstart, query_end, "one"), args.queries, query_s, idle_rate)
        stats = c.stats()
        res["team_stats"] = stats["team"]
        res["maintenance"] = stats["maintenance"]
    return res


def bench_team3(args: argparse.Namespace, server: MotoServer, reqlog: RequestLog, texts: dict[str, Any]) -> dict:
    log("team x3: 3 daemons on s3://bench/three")
    config = team_config(server, "three", args.visibility_s, args.lease_ttl_s)
    with daemons([config] * 3) as ds, ds[0].client() as c0, ds[1].client() as c1, ds[2].client() as c2:
        res: dict[str, Any] = {}
        warm_up(c0, texts["warm"], [])
        wait_visible(c1, c0.list(namespace=NAMESPACE, limit=1)["memories"][0]["id"])
        warm_up(c1, [], texts["warm_q"])
        log(f"team x3: idle {args.idle_s} s")
        res["idle"] = idle(reqlog, args.idle_s, "three", [c0, c1, c2])
        log(f"team x3: {args.stores} stores on host 0")
        runs0 = sum(map(maintenance_runs, (c0, c1, c2)))
        ids, res["store_ms"] = store_run(c0, texts["store"])
        res["host1_caught_up_s"] = round(wait_visible(c1, ids[-1]), 3)
        res["maintenance_runs_during_stores"] = sum(map(maintenance_runs, (c0, c1, c2))) - runs0
        res["fragments_after_stores"] = c0.stats()["store"].get("fragments")
        res["fragments_at_queries"] = c1.stats()["store"].get("fragments")
        log(f"team x3: {args.queries} queries on host 1")
        res["query_ms"] = query_run(c1, texts["query"])

        each = max(1, args.stores // 3)
        log(f"team x3: 3 clients at once, one per host, {each} stores each (at most {args.concurrent_budget_s} s)")
        barrier = threading.Barrier(3)
        lat: list[list[float]] = [[] for _ in ds]
        failed: list[list[str]] = [[] for _ in ds]
        errors: list[BaseException] = []

        def writer(k: int) -> None:
            try:
                with ds[k].client() as c:
                    c.ping()
                    barrier.wait(60)
                    mine = texts["concurrent"][k * each : (k + 1) * each]
                    lat[k] = store_run(c, mine, failed[k], time.perf_counter() + args.concurrent_budget_s)[1]
            except BaseException as exc:  # (reported below)
                errors.append(exc)
                barrier.abort()

        start, t0 = reqlog.mark(), time.perf_counter()
        threads = [threading.Thread(target=writer, args=(k,)) for k in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise RuntimeError(f"a concurrent writer failed: {errors[0]!r}") from errors[0]
        wall = time.perf_counter() - t0
        counted = reqlog.count(start, reqlog.mark(), "three")
        res["concurrent"] = {
            "requests": counted,
            # each commit attempt writes its manifest create-if-absent: 412 = lost the race, retried
            "manifest_puts": counted["kinds"].get("PUT memories/_versions", 0),
            "manifest_puts_refused": counted["non_2xx"].get("PUT memories/_versions 412", 0),
            "per_host_ms": [lat[k] for k in range(3)],
            "failed": failed,
            "target_each": each,
            "budget_s": args.concurrent_budget_s,
            "wall_s": round(wall, 2),
            "per_s": round(sum(map(len, lat)) / wall, 1),
        }

        log(f"team x3: visibility lag, {args.lag_samples} samples")
        rng = random.Random(args.seed)
        lags: list[float] = []
        timeouts = 0
        for i, t in enumerate(texts["lag"]):
            time.sleep(rng.uniform(0.05, 0.4))
            mid = c0.store(t, namespace=NAMESPACE)  # acknowledged on host 0 when this returns
            try:
                lags.append(wait_visible(c1, mid) * 1000)
            except TimeoutError:
                timeouts += 1
                log(f"sample {i}: not visible on host 1 within {LAG_TIMEOUT_S} s")
        res["lag_ms"] = lags
        res["lag_timeouts"] = timeouts
        stats = [c.stats() for c in (c0, c1, c2)]
        res["team_stats"] = [s["team"] for s in stats]
        res["leaders"] = [i for i, s in enumerate(stats) if s["team"]["lease"]["held_here"]]
    return res


# -- report ----------------------------------------------------------------------------------


def derive(r: dict[str, Any]) -> None:
    for key in ("local", "local_commit", "team1", "team3"):
        s = r[key]
        k = max(1, min(DRIFT_K, len(s["store_ms"]) // 2))
        s["store_first"] = summary(s["store_ms"][:k])
        s["store_last"] = summary(s["store_ms"][-k:])
        s["store"] = summary(s.pop("store_ms"))
        s["query"] = summary(s.pop("query_ms"))
    conc = r["team3"]["concurrent"]
    conc["per_host"] = [summary(x) for x in conc.pop("per_host_ms")]
    r["team3"]["lag"] = summary(r["team3"].pop("lag_ms"))
    for name, base in (("ratios", r["local"]), ("ratios_commit", r["local_commit"])):
        r[name] = {
            key: {
                f"{what}_{stat}": round(r[key][what][stat] / base[what][stat], 2)
                for what in ("store", "query")
                for stat in ("median", "p95")
            }
            for key in ("team1", "team3")
        }


def render(r: dict[str, Any]) -> str:
    lines: list[str] = []
    add = lines.append
    v = r["versions"]
    h = r["local"]["hello"]
    add(
        f"omegad team-mode benchmark: commit {r['commit']}, {r['date']}; python {v['python']}, lancedb "
        f"{v['lancedb']}, moto {v['moto']} (loopback), {v['cores']} cores; total run {r['elapsed_s']:.0f} s"
    )
    add(
        f"daemon {h.get('daemon_version')}, model {h['embedding']['model']} ({h['embedding']['variant']}), "
        f"reranker {h.get('reranker', {}).get('state')}; {r['args']['stores']} stores, {r['args']['queries']} "
        f"queries per setup (after {WARMUP} warm-up each); store.visibility_s {r['args']['visibility_s']}, "
        f"team.lease_ttl_s {r['args']['lease_ttl_s']}"
    )
    add("  (latencies in ms, p50 / p95; ratios within this run; local stores are acknowledged at the")
    add("   write-ahead log (store.ack = log, the default), team stores at their commit to the bucket)")
    add("")

    def row(label: str, value: str, note: str = "") -> None:
        add(f"  {label:<46} {value:>20}  {note}".rstrip())

    def ms(s: dict[str, float]) -> str:
        return f"{s['median']:.1f} / {s['p95']:.1f}"

    add("1. latency, one client, sequential calls")
    for key, label in (
        ("local", "local"),
        ("local_commit", "local, ack commit"),
        ("team1", "team x1"),
        ("team3", "team x3"),
    ):
        s = r[key]
        where = " (on host 0)" if key == "team3" else ""
        row(f"{label}: store{where}", ms(s["store"]), f"n={s['store']['n']}, max {s['store']['max']:.0f}")
        row(
            f"  first {s['store_first']['n']} / last {s['store_last']['n']} stores, p50",
            f"{s['store_first']['median']:.1f} / {s['store_last']['median']:.1f}",
            f"fragments after the stores {s.get('fragments_after_stores', '-')}, maintenance passes meanwhile "
            f"{s['maintenance_runs_during_stores']}",
        )
        where = " (on host 1)" if key == "team3" else ""
        row(
            f"{label}: query{where}",
            ms(s["query"]),
            f"n={s['query']['n']}, max {s['query']['max']:.0f}, {s['fragments_at_queries']} fragments",
        )
    t3 = r["team3"]
    row("team x3: host 1 saw the last store after", f"{t3['host1_caught_up_s'] * 1000:.0f} ms")
    c = t3["concurrent"]
    for k, s in enumerate(c["per_host"]):
        fails = c["failed"][k]
        note = f", {len(fails)} refused ({fails[0][:120]})" if fails else ""
        row(f"team x3, 3 hosts written at once: host {k} store", ms(s), f"n={s['n']}, max {s['max']:.0f}{note}")
    row(
        "team x3, 3 hosts at once: throughput",
        f"{c['per_s']:.1f} stores/s",
        f"{c['wall_s']:.1f} s wall; target {c['target_each']} per host, none begun after {c['budget_s']:.0f} s",
    )
    row(
        "team x3, 3 hosts at once: manifest PUTs",
        f"{c['manifest_puts']}",
        f"{c['manifest_puts_refused']} refused with 412 (a commit that lost the race, retried)",
    )
    row("team x3: lease holder (maintains)", f"host {', '.join(map(str, t3['leaders'])) or '-'}")
    add("")
    for name, title in (("ratios", "local (store.ack = log)"), ("ratios_commit", "local with store.ack = commit")):
        add(f"2. ratios team / {title}")
        for key, label in (("team1", "team x1"), ("team3", "team x3")):
            q = r[name][key]
            row(
                f"{label}: store p50 / p95, query p50 / p95",
                f"x{q['store_median']:.2f} / x{q['store_p95']:.2f}",
                f"query x{q['query_median']:.2f} / x{q['query_p95']:.2f}",
            )
    add("")
    add("3. visibility lag (store acknowledged on host 0 -> get(id) answers on host 1)")
    lag = t3["lag"]
    note = f"n={lag['n']}, max {lag['max']:.0f}, store.visibility_s {r['args']['visibility_s']}"
    if t3["lag_timeouts"]:
        note += f", {t3['lag_timeouts']} not seen within {LAG_TIMEOUT_S:.0f} s"
    row("lag p50 / p95", ms(lag), note)
    own = ", ".join(f"host {k} {t['visibility_lag_ms']}" for k, t in enumerate(t3["team_stats"]))
    row("the daemons' own visibility_lag_ms (last seen)", "", own)
    add("")
    t1 = r["team1"]
    add(f"4. object-store requests (moto access log), team x1 (leader {t1['team_stats']['lease']['held_here']})")
    for label, i in (
        ("idle before the stores", t1["idle_before"]),
        ("idle after the queries", t1["idle_after"]),
        ("idle, team x3, three daemons", t3["idle"]),
    ):
        parts = ", ".join(f"{m} {n}" for m, n in i["methods_per_s"].items() if n)
        row(f"{label} ({i['seconds']:.1f} s)", f"{i['per_s']:.2f} req/s", parts)
        top = ", ".join(f"{k} {n}" for k, n in list(i["kinds"].items())[:5])
        row("", "", f"maintenance passes meanwhile {i['maintenance_runs']}; most: {top}")
    add(f"  (net figures below take off the lower idle rate of team x1, {t1['idle_per_s']:.2f} req/s)")
    for label, key, runs in (
        ("store", "requests_store", t1["maintenance_runs_during_stores"]),
        ("query", "requests_query", t1["maintenance_runs_during_queries"]),
    ):
        q = t1[key]
        row(
            f"per {label}: raw / net of idle",
            f"{q['per_call']:.2f} / {q['net_per_call']:.2f}",
            f"{q['total']} requests in {q['seconds']:.1f} s over {q['calls']} calls, idle share "
            f"{q['idle_share']:.0f}; maintenance runs meanwhile: {runs}",
        )
        parts = ", ".join(f"{m} {n:.2f}" for m, n in q["methods_per_call"].items() if n)
        row(f"  by method, per {label}", "", parts)
        top = list(q["kinds_per_call"].items())[:8]
        for kind, n in top:
            row(f"    {kind}", f"{n:.2f}")
        if q["non_2xx"]:
            row("  answers not 2xx", "", ", ".join(f"{k}: {n}" for k, n in q["non_2xx"].items()))
    reqs = t1["team_stats"].get("bucket_requests")
    if reqs:
        row("omegad's own bucket requests (stats, whole run)", "", ", ".join(f"{k} {n}" for k, n in reqs.items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stores", type=int, default=200, help="sequential stores per setup (default 200)")
    ap.add_argument("--queries", type=int, default=100, help="sequential queries per setup (default 100)")
    ap.add_argument("--lag-samples", type=int, default=20, help="visibility-lag samples (default 20)")
    ap.add_argument("--visibility-s", type=float, default=1.0, help="store.visibility_s (default 1.0, omegad's)")
    ap.add_argument("--lease-ttl-s", type=float, default=30.0, help="team.lease_ttl_s (default 30, omegad's)")
    ap.add_argument("--idle-s", type=float, default=5.0, help="length of each idle window (default 5 s)")
    ap.add_argument(
        "--concurrent-budget-s", type=float, default=25.0, help="time limit of the 3-hosts-at-once phase (default 25)"
    )
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    ap.add_argument("--save", type=Path, help="also write the JSON results to this file")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    each = max(1, args.stores // 3)
    pool = memory_texts(WARMUP + args.stores + 3 * each + args.lag_samples, args.seed)
    texts = {
        "warm": pool[:WARMUP],
        "store": pool[WARMUP : WARMUP + args.stores],
        "concurrent": pool[WARMUP + args.stores : WARMUP + args.stores + 3 * each],
        "lag": pool[WARMUP + args.stores + 3 * each :],
    }
    questions = query_texts(WARMUP + args.queries, args.seed + 1)
    texts["warm_q"], texts["query"] = questions[:WARMUP], questions[WARMUP:]
    r: dict[str, Any] = {
        "commit": commit(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "versions": versions(),
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
    }
    with MotoServer() as server:
        server.create_bucket(BUCKET)
        reqlog = RequestLog(server)
        r["local"] = bench_local(args, texts)
        # (acknowledged at the commit, as a team store is: the like-for-like base)
        r["local_commit"] = bench_local(args, texts, 'store.ack = "commit"\n')
        r["team1"] = bench_team1(args, server, reqlog, texts)
        r["team3"] = bench_team3(args, server, reqlog, texts)
    derive(r)
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
