"""Maintenance through the daemon: thresholds trigger it, `maintain` / `omegad maintain` run it
on demand, queries keep working while it runs, and the write-ahead log is checkpointed."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from omegad_client import Client, NotFound, OmegadError

from ..helpers import Daemon

QUIET = """
[maintenance]
interval_s = 3600
max_fragments = 1000
unindexed_rows = 100000
"""


def test_maintain_compacts_folds_checkpoints_and_cleans_up(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory(config=QUIET).start()
    with d.client() as c:
        # one commit each (flush between them): one fragment each
        ids = []
        for i in range(12):
            ids.append(c.store(f"release note {i}: the build pipeline now caches wheels", namespace="m"))
            c.flush()
        c.update(ids[0], text="release note 0: the build pipeline no longer caches wheels")
        c.delete(ids[1])
        c.flush()
        before = c.stats()
        st = before["store"]
        assert st["fragments"] >= 10 and st["versions"] >= 12 and st["unindexed_rows"] > 0
        assert st["wal"]["bytes"] > 0 and st["wal"]["appends"] >= 14
        report = c.maintain()
        assert report["reason"] == "requested"
        assert report["after"]["fragments"] == 1 and report["after"]["unindexed_rows"] == 0
        assert report["after"]["versions"] == 1 and report["cleanup"]["versions_removed"] >= 12
        assert report["durable"]["files_synced"] > 0 and report["durable"]["wal_segments_dropped"] >= 1
        after = c.stats()
        assert after["store"]["fragments"] == 1 and after["store"]["wal"]["bytes"] == 0
        assert after["store"]["disk_bytes"] < st["disk_bytes"]
        assert after["maintenance"]["runs"] == before["maintenance"]["runs"] + 1
        assert after["maintenance"]["last"]["after"]["fragments"] == 1
        # the data is intact: texts, the update, the delete, full-text and vector search
        assert c.get(ids[0])["text"].endswith("no longer caches wheels")
        assert [r["id"] for r in c.query("release note 7", namespace="m", limit=1)] == [ids[7]]
        assert c.stats()["namespaces"]["m"]["total"] == 11
    assert d.stop() == 0
    d.start()
    with d.client() as c:
        assert c.stats()["store"]["recovery_at_start"]["records"] == 0  # checkpointed at shutdown
        assert c.get(ids[5])["text"].startswith("release note 5")


def test_thresholds_trigger_maintenance_by_themselves(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory(config="[maintenance]\nmax_fragments = 4\ninterval_s = 3600\n").start()
    with d.client() as c:
        for i in range(8):
            c.store(f"threshold memory {i}", namespace="t")
            c.flush()  # also waits for a maintenance pass the commit made due
        m = c.stats()["maintenance"]
        assert m["runs"] >= 1 and m["last"]["reason"] in ("indexes", "fragments")
        assert c.stats()["store"]["fragments"] <= 5


def test_queries_run_through_maintenance(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    """Cleanup waits for reads in flight: hammer queries and gets while passes run."""
    d: Daemon = daemon_factory(config=QUIET).start()
    with d.client() as c:
        ids = c.store_batch([{"text": f"parallel memory {i} about caching", "namespace": "p"} for i in range(50)])
        for i in range(10):
            c.store(f"small commit {i} about caching", namespace="p")
    errors: list[str] = []
    stop = threading.Event()

    def reader() -> None:
        with Client(d.socket, timeout=60) as rc:
            while not stop.is_set():
                try:
                    assert rc.query("caching", namespace="p", limit=5)
                    assert rc.get(ids[3])["id"] == ids[3]
                except (OmegadError, AssertionError) as exc:
                    errors.append(repr(exc))

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        with d.client() as c:
            for i in range(4):
                c.store_batch([{"text": f"round {i} memory {k} about caching", "namespace": "p"} for k in range(5)])
                report = c.maintain()
                assert "cleanup" in report
    finally:
        stop.set()
        for t in threads:
            t.join(60)
    assert not errors, errors[:3]


def test_cli_maintain(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        c.store("the cli maintain test memory", namespace=ns)
    out = subprocess.run(
        [sys.executable, "-m", "omegad", "maintain", "--socket", str(shared_daemon.socket)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("maintenance done in ")
    assert "fragments" in out.stdout and "checkpoint:" in out.stdout


def test_vector_index_is_built_in_the_background_and_used(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    import time

    d: Daemon = daemon_factory(
        # (no timed passes: the test tells a quick fold from a pass)
        config="[index]\nvector_index_rows = 300\nmin_namespace_rows = 100\n[maintenance]\nprocess_idle_s = 1.0\ninterval_s = 3600\n"
    ).start()
    with d.client() as c:
        ids = c.store_batch(
            [{"text": f"service {i} writes its logs to bucket {i % 17}", "namespace": "v"} for i in range(320)]
        )
        tiny = [
            "The office plants are watered on Mondays.",
            "Lunch orders close at eleven.",
            "The printer on floor two jams often.",
            "Parking permits renew every January.",
            "The coffee machine descales itself weekly.",
        ]
        c.store_batch([{"text": t, "namespace": "tiny"} for t in tiny])
        c.maintain()  # the build starts once a pass sees 300 rows (maybe already after the batch)
        deadline = time.monotonic() + 120
        while not c.stats()["store"]["vector_index"] and time.monotonic() < deadline:
            time.sleep(0.2)
        st = c.stats()
        assert st["store"]["vector_index"], st["maintenance"]
        assert st["maintenance"]["last_vector_index"]["rows"] >= 300
        late = c.store("service 999 writes its logs to the archive bucket", namespace="v")
        hits = c.query("which bucket does service 999 log to?", namespace="v", limit=3)
        assert hits[0]["id"] == late
        # soon after, without a pass, the new row is in every index (searches are slower while
        # rows are left out: `Maintenance.fold_new_rows`). The pass the finished build queued
        # may still be waiting: let it run first, so that it cannot be mistaken for one here.
        c.flush()
        runs = c.stats()["maintenance"]["runs"]
        deadline = time.monotonic() + 60
        while (
            any(st["unindexed_rows"] for st in c.stats()["index"].values() if isinstance(st, dict))
            and time.monotonic() < deadline
        ):
            time.sleep(0.1)
        st = c.stats()
        assert st["index"]["vector_idx"]["unindexed_rows"] == 0, st["maintenance"]
        assert st["index"]["fts"]["unindexed_rows"] == 0, st["index"]
        assert st["maintenance"]["folds"] >= 1 and st["maintenance"]["last_fold"]["rows"] >= 1
        assert st["maintenance"]["runs"] == runs, "a pass folded it, not the quick fold"
        assert c.query("which bucket does service 999 log to?", namespace="v", limit=3)[0]["id"] == late
        # a delete and an update under the vector index: dead rows, dropped by every read
        assert c.delete(late)
        c.update(ids[7], text="service 7 now writes its logs to the cold storage tier")
        assert late not in [h["id"] for h in c.query("which bucket does service 999 log to?", namespace="v")]
        top = c.query("cold storage tier logs", namespace="v", limit=1)[0]
        assert top["id"] == ids[7] and "cold storage" in top["text"]
        exported = [r for r in c.export_records(namespace="v") if r.get("record") == "memory"]
        assert len(exported) == len(ids) and late not in {r["id"] for r in exported}
        assert [r["text"] for r in exported if r["id"] == ids[7]] == [top["text"]]
        st = c.stats()
        assert st["namespaces"]["v"]["total"] == len(ids)
        # the two dead rows (the deleted one, the old version), unless a pass deleted them for good
        assert st["store"]["dead_rows"] == 2 or st["maintenance"]["runs"] > runs, st["store"]
        with pytest.raises(NotFound):
            c.get(late)
        assert c.get(ids[7])["text"] == top["text"]
        assert c.query("service 7 logs", namespace="v", limit=1)[0]["id"] in ids
        assert len(c.query("office chores", namespace="tiny", limit=10)) == 5  # searched exactly
        # Lance's maintenance calls ran in the maintenance process, which ends when idle: the
        # daemon never loads pylance (its RSS at 1M grew by 90-190 MB for good when it did)
        c.store("service 1000 writes its logs to bucket 3", namespace="v")
        c.maintain()
        process = c.stats()["maintenance"]["process"]
        assert process["starts"] >= 1 and process["calls"] >= 3, process
        assert d.proc is not None
        if sys.platform.startswith("linux"):
            maps = Path(f"/proc/{d.proc.pid}/maps").read_text()
            assert "_lancedb.abi3.so" in maps  # (the daemon's own copy of Lance)
            assert "/lance.abi3.so" not in maps
        deadline = time.monotonic() + 60
        while c.stats()["maintenance"]["process"]["pid"] is not None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c.stats()["maintenance"]["process"]["pid"] is None  # ended after 1 s unused
        if process["pid"] is not None and sys.platform.startswith("linux"):
            assert not os.path.exists(f"/proc/{process['pid']}")


def test_stores_go_on_while_a_pass_compacts(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    """The long part of a pass (index folding, compaction) runs beside the writer: stores
    commit meanwhile, and every one of them, and every earlier memory, is there afterwards."""
    # (each store committed before its answer: stores acknowledged at the log share commits,
    # and the pass must have many fragments to take long)
    d: Daemon = daemon_factory(config=QUIET + '[store]\nack = "commit"\n').start()
    with d.client() as c:
        ids = set(c.store_batch([{"text": f"seed {i}: cache layer note {i % 7}", "namespace": "m"} for i in range(50)]))
        for i in range(150):  # one fragment each
            ids.add(c.store(f"fragment note {i} about the deploy queue", namespace="m"))
        reports: list[dict] = []
        t = threading.Thread(target=lambda: reports.append(Client(d.socket, timeout=120).maintain()))
        t.start()
        during = 0
        with d.client() as writer:
            while t.is_alive():
                ids.add(writer.store(f"written during the pass {during}", namespace="m"))
                during += 1
        t.join()
        assert len(reports) == 1, d.log()[-6000:]  # (the pass failed: its error is in the log)
        (report,) = reports
        assert during > 0 and report["commits_beside"] > 0, report
        assert "serialized" not in report and report["compacted"]["memories"]["fragments_removed"] > 100
        exported = [r["id"] for r in c.export_records(namespace="m") if r.get("record") == "memory"]
        assert sorted(exported) == sorted(ids)
        assert c.query("written during the pass", namespace="m")
    assert d.stop() == 0, d.log()


def _nearest(c: Client, i: int) -> str:
    """The memory the vector search puts first for a question about service *i* of namespace
    ``v`` (the final order also weighs the contradictions the checker finds among these
    look-alike texts, at its own pace, and accesses: the first place there is not stable)."""
    r = c.query(f"which bucket does service {i} log to?", namespace="v", limit=10, explain=True)
    return next((x["id"] for x in r["results"] if x["signals"]["vector_rank"] == 1), "")


def test_a_vector_index_of_another_kind_answers_and_is_rebuilt(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    """Changing ``index.vector_index`` (the HNSW graph ↔ RaBitQ): the store's index answers at
    once, and the daemon rebuilds it as the configured kind in the background."""
    import time

    from omegad.storage.indexes import VECTOR_INDEX_KINDS, VECTOR_INDEX_NAME

    # (no in-memory copy of the namespace: its searches, and the checker's, go through the index)
    config = "[store]\ncache_rows = 0\n[index]\nvector_index_rows = 300\nmin_namespace_rows = 100\n"
    d: Daemon = daemon_factory(config=config).start()
    with d.client() as c:
        ids = c.store_batch(
            [{"text": f"service {i} writes its logs to bucket {i % 17}", "namespace": "v"} for i in range(320)]
        )
        c.maintain()
        deadline = time.monotonic() + 120
        while not c.stats()["store"]["vector_index"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c.stats()["index"][VECTOR_INDEX_NAME]["type"] == VECTOR_INDEX_KINDS["hnsw"][0]
    assert d.stop() == 0
    assert d.config_path is not None
    for kind in ("rabitq", "hnsw"):
        d.config_path.write_text(config + f'vector_index = "{kind}"\n')
        d.start()
        with d.client() as c:
            assert _nearest(c, 41) == ids[41]
            deadline = time.monotonic() + 120
            while (
                c.stats()["index"][VECTOR_INDEX_NAME]["type"] != VECTOR_INDEX_KINDS[kind][0]
                and time.monotonic() < deadline
            ):
                time.sleep(0.2)
            st = c.stats()
            assert st["index"][VECTOR_INDEX_NAME]["type"] == VECTOR_INDEX_KINDS[kind][0], st["maintenance"]
            assert st["index"][VECTOR_INDEX_NAME]["indexed_rows"] >= 320
            assert _nearest(c, 41) == ids[41]
            assert st["store"]["cache"]["searches"] == 0  # (none from memory: all through the index)
        assert d.stop() == 0
    assert d.log().count("vector_index_rebuilding") == 2


def test_a_rabitq_index_built_small_is_rebuilt_once_the_store_has_grown(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    """An index built when the store was small keeps its few IVF partitions as rows are folded
    in; once the store has grown past `VECTOR_INDEX_REBUILD_GROWTH` times what they were made
    for, a pass has the daemon rebuild it in the background, and queries answer throughout.
    (The store is filled in process, with synthetic vectors, as `bench_scale` does.)"""
    import time

    import numpy as np

    from omegad.contradictions.edges import EdgeStore
    from omegad.storage.indexes import VECTOR_INDEX_PARTITION_ROWS, VECTOR_INDEX_REBUILD_GROWTH
    from omegad.storage.maintenance import MaintainPolicy
    from omegad.storage.rows import Row
    from omegad.storage.store import MemoryStore

    config = QUIET + '[index]\nvector_index = "rabitq"\n'
    d: Daemon = daemon_factory(config=config).start()
    with d.client() as c:
        model = c.hello()["embedding"]
        mid = c.store("the staging database listens on port 6543", namespace="bulk")
    assert d.stop() == 0
    grown = VECTOR_INDEX_REBUILD_GROWTH * VECTOR_INDEX_PARTITION_ROWS
    rng = np.random.default_rng(9)
    store = MemoryStore.open(d.data_dir, model["model"], model["dim"], vector_index="rabitq")
    vectors = rng.standard_normal((grown, model["dim"])).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)

    def add(store: MemoryStore, start: int, end: int) -> None:
        for s in range(start, end, 16_384):
            rows = range(s, min(end, s + 16_384))
            store.insert([Row(f"m{i}", f"filler {i}", "fact", [], "bulk", {}, 1, 1, 1, vectors[i]) for i in rows])

    add(store, 0, VECTOR_INDEX_PARTITION_ROWS + 10)
    store.maintenance.maintain(MaintainPolicy(), force=True)
    store.maintenance.build_vector_index()  # 1 partition
    add(store, VECTOR_INDEX_PARTITION_ROWS + 10, grown)
    store.maintenance.maintain(MaintainPolicy(), force=True)  # (folded into that partition)
    EdgeStore.open(store, d.data_dir).write_cursor(store.max_updated_at())  # (no checking 65k fillers)
    del store
    d.start()
    with d.client() as c:
        assert c.query("which port does the staging database use?", namespace="bulk", limit=3)[0]["id"] == mid
        report = c.maintain()
        assert report["vector_index_partitions"] == 1 and report["vector_index_grown"] is True, report
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            last = c.stats()["maintenance"]
            if (
                last.get("last_vector_index", {}).get("rows", 0) >= grown
                and last["last"].get("vector_index_partitions") == grown // VECTOR_INDEX_PARTITION_ROWS
            ):
                break
            assert c.query("which port does the staging database use?", namespace="bulk", limit=3)[0]["id"] == mid
            time.sleep(0.3)
        st = c.stats()
        assert st["maintenance"]["last"].get("vector_index_partitions") == grown // VECTOR_INDEX_PARTITION_ROWS, st[
            "maintenance"
        ]
        assert "vector_index_grown" not in st["maintenance"]["last"]
        assert st["index"]["vector_idx"]["type"] == "IVF_RQ"
        assert c.query("which port does the staging database use?", namespace="bulk", limit=3)[0]["id"] == mid
    assert d.stop() == 0
    assert d.log().count('"vector_index_rebuilding"') == 1 and '"reason": "grown"' in d.log(), d.log()[-3000:]


def test_auto_rebuilds_the_graph_as_rabitq_once_the_store_has_grown(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    """``index.vector_index = "auto"`` (the default): the graph while the store is small; once it
    holds ``index.rabitq_from_rows`` memories a pass has the daemon rebuild the index as RaBitQ
    in the background, queries answering throughout, and it stays RaBitQ when memories go."""
    import time

    from omegad.storage.indexes import VECTOR_INDEX_KINDS, VECTOR_INDEX_NAME

    config = (
        "[store]\ncache_rows = 0\n[index]\nvector_index_rows = 300\nmin_namespace_rows = 100\nrabitq_from_rows = 400\n"
    )
    d: Daemon = daemon_factory(config=config).start()

    def kind_becomes(c: Any, kind: str) -> dict[str, Any]:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            st: dict[str, Any] = c.stats()
            if st["index"].get(VECTOR_INDEX_NAME, {}).get("type") == VECTOR_INDEX_KINDS[kind][0]:
                return st
            assert _nearest(c, 41) == ids[41]
            time.sleep(0.2)
        raise AssertionError(f"no {kind} index: {c.stats()['index']}")

    with d.client() as c:
        text = "service {} writes its logs to bucket {}"
        ids = c.store_batch([{"text": text.format(i, i % 17), "namespace": "v"} for i in range(320)])
        c.maintain()
        st = kind_becomes(c, "hnsw")
        assert st["index"][VECTOR_INDEX_NAME]["indexed_rows"] >= 300
        more = c.store_batch([{"text": text.format(i, i % 17), "namespace": "v"} for i in range(320, 420)])
        report = c.maintain()
        assert report["after"]["rows"] == 420, report
        st = kind_becomes(c, "rabitq")
        assert st["store"]["cache"]["searches"] == 0  # (none from memory: all through the index)
        deadline = time.monotonic() + 60
        while c.stats()["index"][VECTOR_INDEX_NAME]["indexed_rows"] < 420 and time.monotonic() < deadline:
            time.sleep(0.2)  # (a pass after the build folds in what came meanwhile)
        assert _nearest(c, 341) == more[21]
        for mid in more[:60]:  # below the bound again: no way back (the graph takes minutes at scale)
            assert c.delete(mid)
        c.maintain()
        assert c.stats()["index"][VECTOR_INDEX_NAME]["type"] == VECTOR_INDEX_KINDS["rabitq"][0]
        assert _nearest(c, 41) == ids[41]
    assert d.stop() == 0
    assert d.log().count('"vector_index_rebuilding"') == 1 and '"reason": "size"' in d.log(), d.log()[-3000:]
