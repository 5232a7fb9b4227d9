"""Many client processes at once: every acknowledged store is there exactly once, and
concurrent writes share commits (group commit) and embedding runs."""

from __future__ import annotations

import multiprocessing as mp
import time
from pathlib import Path

from omegad_client import Client, OmegadError, Unavailable

from ..helpers import Daemon

PROCS = 8
PER_PROC = 25


def _worker(socket_path: str, proc: int, out: mp.Queue) -> None:  # type: ignore[type-arg]
    ids = []
    with Client(socket_path, timeout=120) as c:
        for i in range(PER_PROC):
            ids.append(
                c.store(f"process {proc} stores memory {i} about topic {i % 7}", namespace="conc", id=f"p{proc}-{i}")
            )
        hits = c.query(f"process {proc} stores memory 3 about topic 3", namespace="conc", limit=3)
        assert hits, "query under load returned nothing"
    out.put(ids)


def test_concurrent_clients_group_commit(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory().start()
    with d.client() as c:
        before = c.stats()["queues"]
    ctx = mp.get_context("spawn")
    out: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
    procs = [ctx.Process(target=_worker, args=(str(d.socket), p, out)) for p in range(PROCS)]
    for p in procs:
        p.start()
    acked = [out.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    all_ids = [i for ids in acked for i in ids]
    assert len(all_ids) == len(set(all_ids)) == PROCS * PER_PROC
    with d.client() as c:
        stats = c.stats()
        assert stats["namespaces"]["conc"]["total"] == PROCS * PER_PROC
        for mid in all_ids[:: PER_PROC // 5]:
            assert c.get(mid)["namespace"] == "conc"
    writer = stats["queues"]["writer"]
    commits = writer["commits"] - before["writer"]["commits"]
    embed_runs = stats["queues"]["embedder"]["batches"] - before["embedder"]["batches"]
    requests = PROCS * PER_PROC
    # Concurrent requests were folded together: fewer commits and ONNX runs than requests.
    assert commits < requests, (commits, requests)
    assert embed_runs < requests + PROCS, (embed_runs, requests)
    assert d.stop() == 0


def test_many_connections_and_a_refused_one(daemon_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory(config="[server]\nmax_connections = 4\n").start()
    clients = [d.client() for _ in range(4)]
    for c in clients:
        assert c.ping() == {}
    extra = d.client()
    try:
        extra.ping()
        raise AssertionError("a fifth connection should be refused")
    except Unavailable:
        pass
    except OmegadError as exc:  # the refusal may race with the close
        assert exc.code in {"connection_lost", "unavailable"}
    clients[0].close()
    for _ in range(100):  # the slot frees once the daemon sees the close
        try:
            with d.client() as again:
                assert again.ping() == {}
            break
        except OmegadError:
            time.sleep(0.05)
    else:
        raise AssertionError("a freed slot was never reused")
    for c in clients[1:]:
        c.close()
    assert d.stop() == 0
