"""Team mode on Azure Blob Storage (docs/team.md): the same daemons, lease and commits as on S3,
against Microsoft's Azurite emulator on 127.0.0.1 (`tests.azurite`), where Lance commits with
Azure's ``If-None-Match: *`` and omegad's own objects use obstore's Azure client."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from omegad.storage.bucket import Bucket, BucketError, Lease
from omegad_client import OmegadError

from ..azurite import AzuriteMissing, AzuriteServer
from ..helpers import Daemon
from .test_team import TTL_S, VISIBILITY_S, contradiction_across_hosts, eventually, ids_in, leaders, team_hosts

CONTAINER = "team"


@pytest.fixture(scope="module")
def azurite() -> Iterator[AzuriteServer]:
    try:
        server = AzuriteServer().start()
    except AzuriteMissing as exc:
        pytest.skip(str(exc))
    try:
        server.create_container(CONTAINER)
        yield server
    finally:
        server.stop()


def azure_config(azurite: AzuriteServer, prefix: str, extra: str = "", key: str | None = None) -> str:
    lines = [
        f'store.uri = "az://{CONTAINER}/{prefix}"',
        f"store.visibility_s = {VISIBILITY_S}",
        f"team.lease_ttl_s = {TTL_S}",
        extra,
        "[store.storage_options]",
        *(f'{k} = "{v}"' for k, v in azurite.storage_options(key).items()),
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture
def hosts(tmp_path: Path, azurite: AzuriteServer) -> Iterator[Callable[..., list[Daemon]]]:
    """Start *n* daemons on one fresh prefix of the container."""
    with team_hosts(tmp_path, lambda prefix, extra="": azure_config(azurite, prefix, extra)) as start:
        yield start


def test_the_probe_and_the_lease_on_azure(azurite: AzuriteServer) -> None:
    uri = f"az://{CONTAINER}/{uuid.uuid4().hex[:8]}"
    bucket = Bucket(uri, azurite.storage_options())
    assert bucket.probe()["conditional_writes"] is True
    a, b, c = (Lease(bucket, who, 1.2) for who in "abc")
    assert [a.tick(), b.tick(), c.tick()] == [True, False, False]
    assert b.leader == "a"
    deadline = time.monotonic() + 6
    while not (b.tick() or c.tick()):  # a stops renewing: one of the others takes over after the TTL
        assert time.monotonic() < deadline, "nobody took the lapsed lease"
        time.sleep(0.1)
    assert [b.held, c.held].count(True) == 1
    assert a.tick() is False and a.lost == 1  # (the old holder finds out at its next renewal)
    with pytest.raises(BucketError, match="cannot be reached or written"):
        Bucket(uri, azurite.storage_options(key="d3Jvbmc=")).probe()  # a wrong account key


def test_a_wrong_account_key_stops_the_daemon_with_the_reason(tmp_path: Path, azurite: AzuriteServer) -> None:
    wrong = "bm90IHRoZSBhY2NvdW50IGtleQ=="
    d = Daemon(tmp_path, config=azure_config(azurite, uuid.uuid4().hex[:10], key=wrong))
    try:
        with pytest.raises(RuntimeError, match="cannot be reached or written"):
            d.start()
        assert wrong not in d.log()
    finally:
        d.cleanup()


def test_one_daemon_on_azure(hosts: Callable[..., list[Daemon]], azurite: AzuriteServer) -> None:
    (d,) = hosts(1)
    with d.client() as c:
        mid = c.store("The staging cluster runs in West Europe", namespace="ops")
        assert [r["id"] for r in c.query("which region is staging in", namespace="ops")] == [mid]
        c.update(mid, text="The staging cluster runs in North Europe")
        assert c.get(mid)["text"] == "The staging cluster runs in North Europe"
        assert c.history(mid)["versions"][0]["text"] == "The staging cluster runs in West Europe"
        assert c.delete(mid) is True
        with pytest.raises(OmegadError):
            c.get(mid)
        stats = c.stats()
        assert stats["team"]["probe"]["conditional_writes"] is True
        assert stats["team"]["uri"].startswith(f"az://{CONTAINER}/")
        assert azurite.key not in str(stats)
    assert not (d.data_dir / "lance" / "memories.lance").exists()  # (the tables are in the container)
    assert azurite.key not in d.log() and "[hidden]" in d.log()


def test_two_daemons_share_a_container(hosts: Callable[..., list[Daemon]]) -> None:
    # (no contradiction checks: the templated notes contradict one another, and an edge demotes
    # the older side, so whether the asked note ranks in the top three would depend on timing)
    daemons = hosts(2, extra="contradiction.enabled = false")
    acked: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def writer(k: int, d: Daemon) -> None:
        try:
            with d.client() as c:
                for i in range(12):
                    mid = c.store(f"host {k} note {i}: the nightly export writes to share {k}-{i}", namespace="s")
                    with lock:
                        acked.append(mid)
        except BaseException as exc:  # (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k, d)) for k, d in enumerate(daemons)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    every = sorted(acked)
    assert len(every) == 24 == len(set(every))
    for d in daemons:  # every acknowledged memory, once, on both hosts, within the visibility interval
        with d.client() as c:
            eventually(lambda c=c: sorted(ids_in(c, "s")) == every, VISIBILITY_S + 5, f"all 24 memories on {d.socket}")
            hit = c.query("where does the nightly export of host 1 note 7 go", namespace="s", limit=3)
            assert any("host 1 note 7" in r["text"] for r in hit)
    assert len(leaders(daemons)) == 1


def test_a_contradiction_across_hosts_on_azure_is_flagged_once(hosts: Callable[..., list[Daemon]]) -> None:
    contradiction_across_hosts(*hosts(2), ("Our CI runs on Azure Pipelines", "Our CI runs on GitHub Actions"))


def test_the_leader_indexes_and_hands_over_on_azure(hosts: Callable[..., list[Daemon]]) -> None:
    """The maintenance child process reaches the container with the same options, and when the
    leader is killed mid-life the other host takes the lease and maintains."""
    # (no contradiction checks: these look-alike texts contradict one another, and the edges
    # demote whichever side is older, so which text ranks first would depend on timing)
    a, b = hosts(2, extra="index.vector_index_rows = 100\ncontradiction.enabled = false")
    (leader,) = eventually(lambda: leaders([a, b]) or None, TTL_S + 5, "a leader")
    other = b if leader is a else a
    with other.client(timeout=120) as c:
        c.store_batch(
            [{"text": f"runbook {i} for service {i % 5}, step {i * 7 % 31}", "namespace": "v"} for i in range(200)]
        )
    with leader.client(timeout=120) as c:
        c.maintain()
        eventually(lambda: c.stats()["store"]["vector_index"], 60, "the vector index on the leader")
    with other.client(timeout=120) as c:
        eventually(lambda: c.stats()["store"]["vector_index"], VISIBILITY_S + 10, "the index seen by the other host")
        want = f"runbook 120 for service {120 % 5}, step {120 * 7 % 31}"
        assert c.query(want, namespace="v", limit=3)[0]["text"] == want
        with pytest.raises(OmegadError) as refused:
            c.maintain()
        assert refused.value.data["reason"] == "not_leader"
    leader.kill()
    eventually(lambda: leaders([other]) or None, 3 * TTL_S + 5, "the other host leads after the TTL")
    with other.client(timeout=120) as c:
        assert c.maintain()["after"]["rows"] == 200
