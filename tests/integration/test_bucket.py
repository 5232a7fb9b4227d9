"""A team store's own objects (`omegad.storage.bucket`) against moto's S3 on 127.0.0.1: the
probe, the maintenance lease's rules, and what is never shown."""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from omegad.recall.neighbours import NeighbourCache
from omegad.storage.bucket import Bucket, BucketError, Lease, redacted_options
from omegad.storage.location import Location
from omegad.storage.rows import Row
from omegad.storage.store import MemoryStore

from ..s3server import MotoServer, NoConditionalProxy

BUCKET = "leases"
TTL_S = 1.2  # (a renewal every 0.4 s: a slow CI machine cannot make one late by a whole TTL)


def test_the_probe_passes_on_s3_and_fails_where_conditional_writes_are_ignored(moto: MotoServer) -> None:
    uri = f"s3://{BUCKET}/{uuid.uuid4().hex[:8]}"
    assert Bucket(uri, moto.storage_options()).probe()["conditional_writes"] is True
    with (
        NoConditionalProxy(moto.endpoint) as proxy,
        pytest.raises(BucketError, match="does not honour conditional writes"),
    ):
        Bucket(uri, moto.storage_options(proxy.endpoint)).probe()


def test_an_unreachable_endpoint_is_a_bucket_error() -> None:
    options = {"endpoint": "http://127.0.0.1:9", "allow_http": "true", "region": "us-east-1",
               "aws_access_key_id": "x", "aws_secret_access_key": "y"}  # fmt: skip
    with pytest.raises(BucketError, match="cannot be reached or written"):
        Bucket(f"s3://{BUCKET}/x", options).probe()


def test_one_contender_wins_a_lease_and_keeps_it_while_it_renews(bucket: Bucket) -> None:
    a, b = Lease(bucket, "a", TTL_S), Lease(bucket, "b", TTL_S)
    assert a.tick() is True
    assert b.tick() is False and b.leader == "a"
    deadline = time.monotonic() + 3 * TTL_S
    while time.monotonic() < deadline:  # a renews every TTL/3: b never sees it lapse
        assert a.tick() is True
        assert b.tick() is False
        time.sleep(TTL_S / 10)
    assert (a.acquired, a.lost, b.acquired) == (1, 0, 0)


def test_a_lapsed_lease_is_taken_over_and_the_old_holder_finds_out(bucket: Bucket) -> None:
    a, b = Lease(bucket, "a", TTL_S), Lease(bucket, "b", TTL_S)
    assert a.tick() is True
    assert b.tick() is False
    # a stops renewing (a pause, a kill): b takes over once the object has been unchanged
    # for a whole TTL by b's own clock
    deadline = time.monotonic() + 5 * TTL_S
    while not b.tick():
        assert time.monotonic() < deadline, "b never took the lapsed lease"
        time.sleep(TTL_S / 10)
    assert b.held and b.leader == "b"
    time.sleep(TTL_S / 3)
    assert a.tick() is False and a.lost == 1  # its renewal is refused: the tag moved on


def test_two_contenders_for_a_lapsed_lease_make_one_leader(bucket: Bucket) -> None:
    dead = Lease(bucket, "dead", TTL_S)
    assert dead.tick()
    contenders = [Lease(bucket, f"c{i}", TTL_S) for i in range(4)]
    for c in contenders:
        assert not c.tick()
    time.sleep(TTL_S * 1.2)
    barrier = threading.Barrier(len(contenders))
    won: list[str] = []

    def contend(c: Lease) -> None:
        barrier.wait()
        if c.tick():
            won.append(c.holder)

    threads = [threading.Thread(target=contend, args=(c,)) for c in contenders]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1, won


def test_release_deletes_only_a_lease_still_held(bucket: Bucket) -> None:
    a = Lease(bucket, "a", TTL_S)
    assert a.tick()
    a.release()
    assert bucket.get(Lease.NAME) is None
    b = Lease(bucket, "b", TTL_S)
    assert b.tick()
    a.release()  # (no longer held: nothing happens)
    assert bucket.get(Lease.NAME) is not None


def test_secrets_are_hidden_in_what_is_shown() -> None:
    shown = redacted_options(
        {
            "endpoint": "https://s3.example",
            "aws_access_key_id": "AKIDEXAMPLE",
            "aws_secret_access_key": "wJalr",
            "aws_session_token": "tok",
            "azure_storage_sas_key": "sv=2024",
            "google_service_account": "/etc/sa.json",
            "region": "eu-west-1",
        }
    )
    assert shown["endpoint"] == "https://s3.example" and shown["region"] == "eu-west-1"
    for key in ("aws_access_key_id", "aws_secret_access_key", "aws_session_token", "azure_storage_sas_key"):
        assert shown[key] == "[hidden]", key


def test_count_lists_objects_under_a_path(bucket: Bucket) -> None:
    for name in ("one", "two"):
        assert bucket.create(f"things/{name}.manifest", b"x") is not None
    assert bucket.create("things/readme.txt", b"x") is not None
    assert bucket.count("_omegad/things", ".manifest") == 2
    assert bucket.count("_omegad/things") == 3


def test_a_cache_of_one_host_drops_what_another_host_changed(moto: MotoServer, tmp_path: Path) -> None:
    """Two hosts' stores on one bucket (in one process): host A's neighbour cache holds a
    namespace; host B rewrites a memory in it. Once A's table sees B's commit (within
    ``store.visibility_s``), A's cache answers nothing stale, whether or not A's follower has
    looked yet: every answer first checks the versions (`MemoryStore.cache_fresh`)."""
    uri = f"s3://{BUCKET}/{uuid.uuid4().hex[:8]}"
    team = Location(tmp_path, uri, moto.storage_options(), visibility_s=0.2)
    a = MemoryStore.open(tmp_path / "a", "model", 4, team=team)
    b = MemoryStore.open(tmp_path / "b", "model", 4, team=team)
    rows = [
        Row(f"m{i}", f"memory {i}", "fact", [], "ns", {}, 1 + i, 1 + i, 1, np.eye(4, dtype=np.float32)[i])
        for i in range(4)
    ]
    a.insert(rows)
    cache = NeighbourCache(a, 100, fresh=a.cache_fresh)
    assert cache.search("ns", [np.eye(4, dtype=np.float32)[1]], 4) is not None  # (loads the namespace)
    held = cache.row("m1")
    assert held is not None and held.text == "memory 1"
    b.upsert([replace(rows[1], text="memory 1, rewritten on host b", updated_at=100)])
    time.sleep(0.3)  # (A's handle sees B's commit after store.visibility_s)
    cached = cache.row("m1")
    assert cached is None or cached.text == "memory 1, rewritten on host b"
    assert cache.clears == 1
    # A's own writes keep its cache: no drop
    hits = cache.search("ns", [np.eye(4, dtype=np.float32)[2]], 1)
    assert hits is not None and hits[0][0][0].id == "m2"
    a.insert([replace(rows[3], id="m9", text="memory 9")])
    cache.upserted([replace(rows[3], id="m9", text="memory 9")])
    assert cache.row("m9") is not None and cache.clears == 1


#: One host: open (or create) table "t" at a given moment, append its row, print the outcome.
_CREATE_AND_APPEND = """
import json, sys, time
from pathlib import Path
import lancedb, pyarrow as pa
from omegad.storage.location import Location
from omegad.storage.rows import open_or_create
uri, options, who, at = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], float(sys.argv[4])
schema = pa.schema([pa.field("id", pa.string(), nullable=False), pa.field("v", pa.int64())])
db = lancedb.connect(uri, storage_options=options)
time.sleep(max(0.0, at - time.time()))
try:
    table = open_or_create(db, "t", schema, Location(Path("."), uri=uri, options=options))
    table.add(pa.Table.from_pylist([{"id": who, "v": 1}], schema=schema))
    print("ok")
except Exception as exc:
    print("error", exc)
"""


def test_two_hosts_creating_one_table_at_once_lose_nothing(moto: MotoServer, tmp_path: Path) -> None:
    """Lance commits a second concurrent create of a table as an overwrite of the first's,
    which took an append acknowledged in between (2 of 12 pairs without the lock: one append
    lost, one refused); `open_or_create` takes a lock in the bucket around the create."""
    import json
    import subprocess
    import sys

    options = {**moto.storage_options(), "endpoint": moto.endpoint}
    for _ in range(6):
        uri = f"s3://{BUCKET}/{uuid.uuid4().hex[:8]}"
        at = time.time() + 2.0  # (both processes loaded by then)
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", _CREATE_AND_APPEND, uri, json.dumps(options), who, str(at)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=tmp_path,
            )
            for who in ("a", "b")
        ]
        outs = [p.communicate(timeout=120) for p in procs]
        assert [o.strip().splitlines()[-1:] for o, _ in outs] == [["ok"], ["ok"]], outs
        import lancedb

        table = lancedb.connect(uri, storage_options=options).open_table("t")
        assert sorted(table.to_arrow().column("id").to_pylist()) == ["a", "b"]
        assert Bucket(uri, moto.storage_options()).get("locks/creating/t") is None  # released
