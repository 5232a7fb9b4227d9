"""Team mode (docs/team.md): real daemons, each with its own data directory, share one store in
an S3 bucket served on 127.0.0.1 by moto (`tests.s3server`), which honours conditional writes
as AWS S3 does; a proxy in front of it that drops them stands for a server that does not."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from omegad_client import Client, OmegadError

from ..helpers import Daemon
from ..s3server import MotoServer, NoConditionalProxy

BUCKET = "team"
#: Short enough for a test to wait out: other hosts' commits seen within VISIBILITY_S, a dead
#: leader replaced after TTL_S.
VISIBILITY_S = 0.5
TTL_S = 3.0


def team_config(
    endpoint: str, options: dict[str, str], prefix: str, extra: str = "", visibility_s: float = VISIBILITY_S
) -> str:
    lines = [
        f'store.uri = "s3://{BUCKET}/{prefix}"',
        f"store.visibility_s = {visibility_s}",
        f"team.lease_ttl_s = {TTL_S}",
        extra,
        "[store.storage_options]",
        *(f'{k} = "{v}"' for k, v in {**options, "endpoint": endpoint}.items()),
    ]
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def team_hosts(tmp_path: Path, config_of: Callable[..., str]) -> Iterator[Callable[..., list[Daemon]]]:
    """``start(n, **kw)``: start *n* daemons, each with its own data directory, on one fresh
    prefix (``config_of(prefix, **kw)`` writes their configuration); all stopped at the end."""
    started: list[Daemon] = []
    prefix = uuid.uuid4().hex[:10]

    def start(n: int, **kw: Any) -> list[Daemon]:
        config = config_of(prefix, **kw)
        new = [Daemon(tmp_path, config=config, name=f"h{len(started) + i}") for i in range(n)]
        started.extend(new)
        for d in new:
            d.start(wait=False)
        for d in new:
            d.wait_ready()
        return new

    yield start
    for d in started:
        if d.alive:
            assert d.stop() == 0, d.log()
        d.cleanup()


@pytest.fixture
def hosts(tmp_path: Path, moto: MotoServer) -> Iterator[Callable[..., list[Daemon]]]:
    """Start *n* daemons on one fresh prefix of the bucket."""

    def config_of(
        prefix: str, extra: str = "", options: dict[str, str] | None = None, visibility_s: float = VISIBILITY_S
    ) -> str:
        return team_config(moto.endpoint, {**moto.storage_options(), **(options or {})}, prefix, extra, visibility_s)

    with team_hosts(tmp_path, config_of) as start:
        yield start


def ids_in(client: Client, namespace: str) -> list[str]:
    """Every memory id of *namespace*, as this daemon lists it (duplicates kept)."""
    out: list[str] = []
    cursor = None
    while True:
        page = client.list(namespace=namespace, limit=100, cursor=cursor)
        out += [m["id"] for m in page["memories"]]
        cursor = page.get("next")
        if not cursor:
            return out


def eventually(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """*check*'s first truthy value within *timeout* seconds (else fail saying *what*)."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            pytest.fail(f"not within {timeout} s: {what}")
        time.sleep(0.1)


def at_once(*calls: Callable[[], Any]) -> None:
    """Run *calls* in threads of their own and wait for all; fail with what any raised."""
    errors: list[BaseException] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            call()
        except BaseException as exc:  # (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def leaders(daemons: list[Daemon]) -> list[Daemon]:
    out = []
    for d in daemons:
        with d.client() as c:
            if c.stats()["team"]["lease"]["held_here"]:
                out.append(d)
    return out


def test_a_bucket_that_ignores_conditional_writes_is_refused(tmp_path: Path, moto: MotoServer) -> None:
    with NoConditionalProxy(moto.endpoint) as proxy:
        config = team_config(proxy.endpoint, moto.storage_options(), uuid.uuid4().hex[:10])
        d = Daemon(tmp_path, config=config)
        try:
            with pytest.raises(RuntimeError, match="does not honour conditional writes"):
                d.start()
            assert d.proc is not None and d.proc.returncode not in (None, 0)
        finally:
            d.cleanup()
        assert proxy.dropped, "the probe never reached the proxy"


def test_one_daemon_on_the_bucket(hosts: Callable[..., list[Daemon]]) -> None:
    secret = "sk-" + uuid.uuid4().hex  # (moto takes any credentials; this one must never be shown)
    (d,) = hosts(1, options={"aws_secret_access_key": secret})
    with d.client() as c:
        mid = c.store("The deploy pipeline runs on GitHub Actions", namespace="ops")
        assert c.get(mid)["text"] == "The deploy pipeline runs on GitHub Actions"
        assert [r["id"] for r in c.query("where does the deploy run", namespace="ops")] == [mid]
        c.update(mid, text="The deploy pipeline runs on Buildkite")
        assert c.get(mid)["text"] == "The deploy pipeline runs on Buildkite"
        assert c.delete(mid) is True
        with pytest.raises(OmegadError):
            c.get(mid)
        stats = c.stats()
        team = stats["team"]
        assert team["probe"]["conditional_writes"] is True
        assert team["mode"] == "team" and team["lease"]["holder"] == team["host"]
        assert stats["store"]["mode"] == "team"
        assert secret not in str(stats)
    # the tables live in the bucket, and the credentials are in no log line
    assert not (d.data_dir / "lance" / "memories.lance").exists()
    assert secret not in d.log() and "[hidden]" in d.log()


def test_three_daemons_share_one_store(hosts: Callable[..., list[Daemon]]) -> None:
    # (no contradiction checks: the templated notes contradict one another, and an edge demotes
    # the older side, so whether the asked note ranks in the top three would depend on timing)
    daemons = hosts(3, extra="contradiction.enabled = false")
    acked: list[list[str]] = [[] for _ in daemons]
    errors: list[BaseException] = []

    def writer(k: int, j: int, d: Daemon) -> None:
        try:
            with d.client() as c:
                for i in range(15):
                    text = f"host {k} client {j} note {i}: the build cache lives in bucket {k}-{j}-{i}"
                    acked[k].append(c.store(text, namespace="s"))
        except BaseException as exc:  # (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k, j, d)) for k, d in enumerate(daemons) for j in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    every = sorted(i for ids in acked for i in ids)
    assert len(every) == 90 == len(set(every))
    for d in daemons:  # every acknowledged memory, once, on every host, within the visibility interval
        with d.client() as c:
            seen = eventually(
                lambda c=c: (lambda got: got if sorted(got) == every else None)(ids_in(c, "s")),
                VISIBILITY_S + 5,
                f"all 90 memories listed by {d.socket}",
            )
            assert len(seen) == len(set(seen))
            hit = c.query("where does the build cache of host 2 client 1 note 7 live", namespace="s", limit=3)
            assert any("host 2 client 1 note 7" in r["text"] for r in hit)
    assert len(leaders(daemons)) == 1


def test_one_id_stored_on_two_hosts_at_once_is_one_row(hosts: Callable[..., list[Daemon]]) -> None:
    a, b = hosts(2)
    ids = sorted(f"shared-{i}" for i in range(20))
    barrier = threading.Barrier(2)

    def writer(d: Daemon, who: str) -> None:
        with d.client() as c:
            barrier.wait()
            c.store_batch([{"id": i, "text": f"idempotent note {i} from {who}", "namespace": "p"} for i in ids])

    at_once(lambda: writer(a, "a"), lambda: writer(b, "b"))
    for d in (a, b):
        with d.client() as c:
            got = eventually(
                lambda c=c: (lambda x: x if sorted(set(x)) == ids else None)(ids_in(c, "p")),
                VISIBILITY_S + 5,
                "both hosts' ids listed",
            )
            assert sorted(got) == ids, "an id has two rows"


def test_ratings_of_one_memory_on_two_hosts_at_once_all_count(hosts: Callable[..., list[Daemon]]) -> None:
    """Each host writes its own share of a memory's signals, so ratings made on two hosts
    within one visibility interval add up on both (one row per memory kept the last one)."""
    a, b = hosts(2)
    with a.client() as c:
        mid = c.store("The release train leaves every second Tuesday.", namespace="r")
    with b.client() as c:
        eventually(lambda: ids_in(c, "r") == [mid], VISIBILITY_S + 5, "the memory seen on b")
    barrier = threading.Barrier(2)

    def rate(d: Daemon, score: float) -> None:
        with d.client() as c:
            barrier.wait()
            for _ in range(2):
                c.feedback(mid, score)

    at_once(lambda: rate(a, 0.5), lambda: rate(b, 1.0))
    for d in (a, b):
        with d.client() as c:
            got = eventually(
                lambda c=c: (lambda m: m if m.get("ratings") == 4 else None)(c.get(mid)),
                VISIBILITY_S + 5,
                f"all four ratings on {d.socket}",
            )
            assert got["feedback"] == 3.0


def test_access_counts_of_every_host_reach_the_others(hosts: Callable[..., list[Daemon]]) -> None:
    """A host that does not hold the lease runs no maintenance pass, yet its access counts
    are saved every quiet interval, and every host sees the sum of all hosts' counts."""
    a, b = hosts(2, extra="maintenance.interval_s = 1")
    with a.client() as c:
        mid = c.store("Feature flags are evaluated at the edge, never in the browser.", namespace="f")
    leader, follower = (a, b) if leaders([a, b]) == [a] else (b, a)
    question = "where are feature flags evaluated?"
    for d, times in ((follower, 3), (leader, 2)):
        with d.client() as c:
            eventually(lambda c=c: ids_in(c, "f") == [mid], VISIBILITY_S + 5, "the memory listed")
            for _ in range(times):
                assert [r["id"] for r in c.query(question, namespace="f")] == [mid]
    for d in (leader, follower):
        with d.client() as c:
            eventually(lambda c=c: c.get(mid).get("accesses") == 5, VISIBILITY_S + 10, f"5 accesses on {d.socket}")


def test_signals_on_two_hosts_act_as_one_memorys(hosts: Callable[..., list[Daemon]]) -> None:
    """Downvotes on one host outweigh upvotes on another within the one bound (a share alone
    may pass it); an export imported again leaves the signals as they were; a memory deleted
    on one host loses every host's share, and no host's later save brings one back."""
    a, b = hosts(2, extra="maintenance.interval_s = 1")
    with a.client() as c:
        mid = c.store("The VPN certificate rotates on the first of each month.", namespace="v", id="vpn-cert")
        for _ in range(5):
            c.feedback(mid, 1)
    with b.client() as c:
        eventually(lambda: ids_in(c, "v") == [mid], VISIBILITY_S + 5, "the memory seen on b")
        eventually(lambda: c.get(mid).get("feedback") == 5.0, VISIBILITY_S + 5, "+5 seen on b")
        replies = [c.feedback(mid, -1) for _ in range(10)]
        assert [r["feedback"] for r in replies] == [4.0, 3.0, 2.0, 1.0, 0.0, -1.0, -2.0, -3.0, -4.0, -5.0]
        assert replies[-1]["hidden"] is True
    with a.client() as c:
        got = eventually(
            lambda: (lambda m: m if m.get("ratings") == 15 else None)(c.get(mid)), VISIBILITY_S + 5, "15 on a"
        )
        assert got["feedback"] == -5.0
        records = list(c.export_records(namespace="v"))
        c.import_records([r for r in records if r.get("record") != "header"])
        again = c.get(mid)
        assert (again["feedback"], again["ratings"]) == (-5.0, 15)
    with b.client() as c:
        assert [
            r["id"] for r in c.query("when does the VPN certificate rotate?", namespace="v", include_hidden=True)
        ] == [mid]
    with a.client() as c:
        assert c.delete(mid)
    time.sleep(3)  # (b's quiet intervals: a save of its access count would bring its share back)
    with a.client() as c:
        c.store("A different note stored under the same id.", namespace="v", id="vpn-cert")
        fresh = c.get(mid)
        assert "feedback" not in fresh and "accesses" not in fresh, {
            k: fresh.get(k) for k in ("feedback", "ratings", "accesses")
        }
    with b.client() as c:
        eventually(
            lambda: (
                [m["text"] for m in c.list(namespace="v")["memories"]] == ["A different note stored under the same id."]
            ),
            VISIBILITY_S + 5,
            "the new memory on b",
        )
        fresh = c.get(mid)
        assert "feedback" not in fresh and "accesses" not in fresh, fresh


def test_a_killed_daemon_loses_nothing_it_acknowledged(hosts: Callable[..., list[Daemon]]) -> None:
    a, b = hosts(2)
    acked: list[str] = []
    stop = threading.Event()

    def writer() -> None:
        try:
            with a.client(timeout=10) as c:
                i = 0
                while not stop.is_set():
                    acked.append(c.store(f"write {i} before the crash", namespace="k"))
                    i += 1
        except (OmegadError, OSError):
            pass  # the daemon died under us

    t = threading.Thread(target=writer)
    t.start()
    eventually(lambda: len(acked) >= 20, 60, "20 stores acknowledged")
    a.kill()
    stop.set()
    t.join()
    with b.client() as c:
        got = eventually(
            lambda: (lambda x: x if set(acked) <= set(x) else None)(ids_in(c, "k")),
            VISIBILITY_S + 5,
            f"all {len(acked)} acknowledged stores of the killed host",
        )
        assert len(got) == len(set(got))


def test_the_lease_passes_to_another_host_when_the_leader_dies(hosts: Callable[..., list[Daemon]]) -> None:
    daemons = hosts(3)
    (leader,) = eventually(lambda: leaders(daemons) or None, TTL_S + 5, "a leader")
    with leader.client() as c:
        c.store("the first leader was here", namespace="l")
        assert c.maintain()["reason"]  # (the leader maintains)
    others = [d for d in daemons if d is not leader]
    with others[0].client() as c:
        with pytest.raises(OmegadError) as refused:
            c.maintain()
        assert refused.value.code == "unavailable" and refused.value.data["reason"] == "not_leader"
    leader.kill()
    (successor,) = eventually(lambda: leaders(others) or None, 3 * TTL_S + 5, "a new leader after the TTL")
    with successor.client() as c:
        team = c.stats()["team"]
        assert team["lease"]["acquired"] == 1 and team["maintains"]
        c.store("the second leader maintains", namespace="l")
        runs = c.stats()["maintenance"]["runs"]
        assert c.maintain()["after"]["rows"] == 2
        assert c.stats()["maintenance"]["runs"] > runs  # (its takeover may have run one too)


def contradiction_across_hosts(a: Daemon, b: Daemon, texts: tuple[str, str]) -> None:
    """Store the two contradicting *texts* on *a* and *b* at the same moment: one edge between
    them, seen on both hosts, and still one after more than a visibility interval."""
    barrier = threading.Barrier(2)
    ids: dict[str, str] = {}

    def writer(d: Daemon, text: str) -> None:
        with d.client() as c:
            barrier.wait()
            ids[text] = c.store(text, namespace="c")

    threads = [threading.Thread(target=writer, args=(d, t)) for d, t in zip((a, b), texts, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for d in (a, b):
        with d.client() as c:
            (edge,) = eventually(lambda c=c: c.contradictions(namespace="c"), 20, "the contradiction on every host")
            assert {edge["new"]["id"], edge["old"]["id"]} == set(ids.values())
    time.sleep(3 * VISIBILITY_S + 1)  # (a second detection would be a second edge by now)
    for d in (a, b):
        with d.client() as c:
            assert len(c.contradictions(namespace="c")) == 1


def test_a_contradiction_stored_on_two_hosts_at_once_is_flagged_once(hosts: Callable[..., list[Daemon]]) -> None:
    contradiction_across_hosts(*hosts(2), ("Our package manager is npm", "Our package manager is pnpm"))


def test_the_leader_sweeps_the_memories_another_host_did_not_check(hosts: Callable[..., list[Daemon]]) -> None:
    """A host that never checks its own memories (its checker off here; in life, one killed
    between a commit and its check and never restarted): the leader's sweep of every host's
    commits finds the pair."""
    (leader,) = hosts(1)
    eventually(lambda: leaders([leader]), TTL_S + 5, "the first host leads")
    (quiet,) = hosts(1, extra="contradiction.enabled = false")
    with leader.client() as c:
        old = c.store("Our package manager is npm", namespace="w")
        c.flush()  # (checked now: nothing to contradict yet)
        assert c.contradictions(namespace="w") == []
    with quiet.client() as c:
        new = c.store("Our package manager is pnpm", namespace="w")
    for d in (leader, quiet):
        with d.client() as c:
            (edge,) = eventually(lambda c=c: c.contradictions(namespace="w"), 20, "the swept contradiction")
            assert (edge["new"]["id"], edge["old"]["id"]) == (new, old)
    with leader.client() as c:
        team = c.stats()["team"]
        assert team["sweeps"] >= 1 and team["swept"] >= 1 and team["sweep_watermark"]


def test_an_unreachable_bucket_is_a_typed_error_and_the_daemon_stays_up(tmp_path: Path) -> None:
    server = MotoServer().start()
    d = Daemon(tmp_path, config=team_config(server.endpoint, server.storage_options(), "gone"))
    try:
        server.create_bucket(BUCKET)
        d.start()
        with d.client(timeout=120) as c:
            c.store("written while the bucket answered", namespace="u")
            server.stop()  # (the bucket is gone for good)
            with pytest.raises(OmegadError) as failed:
                c.store("written after it stopped answering", namespace="u")
            assert failed.value.code == "unavailable" and failed.value.data["reason"] == "store_unreachable"
            hello = c.call("hello", {})
            assert "store_unreachable" in {p["code"] for p in hello["problems"]}
        assert d.alive
        d.kill()
    finally:
        server.stop()
        d.cleanup()


def test_a_clean_stop_gives_the_lease_up(hosts: Callable[..., list[Daemon]], moto: MotoServer) -> None:
    (d,) = hosts(1)
    eventually(lambda: leaders([d]), TTL_S + 5, "the host leads")
    with d.client() as c:
        uri = c.stats()["team"]["uri"]
    bucket, prefix = uri.removeprefix("s3://").split("/", 1)
    s3 = moto.s3_client()
    try:
        key = f"{prefix}/_omegad/leases/maintenance"
        assert s3.head_object(Bucket=bucket, Key=key)["ContentLength"] > 0
        assert d.stop() == 0
        with pytest.raises(s3.exceptions.ClientError):
            s3.head_object(Bucket=bucket, Key=key)  # (released: the next host need not wait a TTL)
    finally:
        s3.close()


def test_the_leader_builds_the_vector_index_and_every_host_uses_it(hosts: Callable[..., list[Daemon]]) -> None:
    # (no contradiction checks: these look-alike texts contradict one another, and the edges
    # demote whichever side is older, so which text ranks first would depend on timing)
    a, b = hosts(2, extra="index.vector_index_rows = 100\ncontradiction.enabled = false")
    (leader,) = eventually(lambda: leaders([a, b]) or None, TTL_S + 5, "a leader")
    other = b if leader is a else a
    with other.client(timeout=120) as c:  # (written by the host that does not maintain)
        c.store_batch(
            [
                {"text": f"memory {i} about topic {i % 7} with detail {i * 13 % 101}", "namespace": "v"}
                for i in range(300)
            ]
        )
    with leader.client(timeout=120) as c:
        c.maintain()  # (indexes: full text first; the vector index is built after, in a child process)
        eventually(lambda: c.stats()["store"]["vector_index"], 60, "the vector index on the leader")
    with other.client(timeout=120) as c:
        eventually(lambda: c.stats()["store"]["vector_index"], VISIBILITY_S + 10, "the index seen by the other host")
        want = f"memory 150 about topic {150 % 7} with detail {150 * 13 % 101}"
        hits = c.query(want, namespace="v", limit=3)
        assert hits[0]["text"] == want
        c.update(hits[0]["id"], text="memory rewritten about topic 3 after the index")
        assert c.delete(hits[1]["id"]) is True
        assert len(ids_in(c, "v")) == 299
        assert c.stats()["store"]["dead_rows"] == 0  # (no tombstones in a team store)
    with leader.client(timeout=120) as c:
        seen = eventually(lambda: (lambda x: x if len(x) == 299 else None)(ids_in(c, "v")), VISIBILITY_S + 5, "299")
        assert hits[1]["id"] not in seen
        assert c.get(hits[0]["id"])["text"] == "memory rewritten about topic 3 after the index"


def test_doctor_reports_the_team_store(hosts: Callable[..., list[Daemon]], tmp_path: Path) -> None:
    from .test_doctor import _doctor

    (d,) = hosts(1)
    eventually(lambda: leaders([d]), TTL_S + 5, "the host leads")
    args = ("--socket", str(d.socket), "--data-dir", str(d.data_dir), "--config", str(d.config_path))
    code, checks, err = _doctor(tmp_path, *args)
    assert code == 0, (checks, err)
    assert checks["team store"]["level"] == "ok" and "conditional writes honoured" in checks["team store"]["detail"]
    assert checks["team lease"]["level"] == "ok" and "(this host)" in checks["team lease"]["detail"]
    assert checks["team visibility"]["level"] == "ok"
    assert d.stop() == 0
    # without the daemon: doctor probes the bucket itself and names the holder (none: released)
    code, checks, err = _doctor(tmp_path, *args)
    assert checks["team store"]["level"] == "ok", (checks, err)
    assert "lease holder none" in checks["team store"]["detail"]


def test_an_s3_ddb_store_commits_through_dynamodb(tmp_path: Path, moto: MotoServer) -> None:
    """A bucket without conditional writes (the proxy) can still hold a team store whose
    commits go through a DynamoDB table (moto serves one too): the maintenance lease cannot
    live in that bucket, so the daemon refuses ``team.maintenance = "auto"`` and starts with
    ``always``."""
    import boto3  # type: ignore[import-untyped]

    ddb = boto3.client(
        "dynamodb",
        endpoint_url=moto.endpoint,
        aws_access_key_id="test",
        aws_secret_access_key="test",
        region_name="us-east-1",
    )
    table = "lance-commits-" + uuid.uuid4().hex[:6]
    ddb.create_table(
        TableName=table,
        KeySchema=[{"AttributeName": "base_uri", "KeyType": "HASH"}, {"AttributeName": "version", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": "base_uri", "AttributeType": "S"},
            {"AttributeName": "version", "AttributeType": "N"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    with NoConditionalProxy(moto.endpoint) as proxy:
        options = {**moto.storage_options(), "endpoint": proxy.endpoint, "dynamodb_endpoint": moto.endpoint}
        prefix = uuid.uuid4().hex[:10]

        def config(maintenance: str) -> str:
            lines = [
                f'store.uri = "s3+ddb://{BUCKET}/{prefix}?ddbTableName={table}"',
                f'team.maintenance = "{maintenance}"',
                "[store.storage_options]",
                *(f'{k} = "{v}"' for k, v in options.items()),
            ]
            return "\n".join(lines) + "\n"

        refused = Daemon(tmp_path, config=config("auto"), name="auto")
        try:
            with pytest.raises(RuntimeError, match="exactly one host"):
                refused.start()
        finally:
            refused.cleanup()
        d = Daemon(tmp_path, config=config("always"), name="always").start()
        try:
            with d.client() as c:
                mid = c.store("Commits of this store go through DynamoDB", namespace="ddb")
                assert c.get(mid)["text"] == "Commits of this store go through DynamoDB"
                team = c.stats()["team"]
                assert team["probe"] == {"conditional_writes": False, "commits": "dynamodb"}
                assert team["maintains"] is True
                assert c.maintain()["after"]["rows"] == 1
            items = ddb.scan(TableName=table)["Items"]
            assert items, "no commit went through the DynamoDB table"
        finally:
            assert d.stop() == 0, d.log()
            d.cleanup()
    ddb.close()


def test_a_host_gives_way_while_another_host_waits_to_commit(
    hosts: Callable[..., list[Daemon]], moto: MotoServer
) -> None:
    """`omegad.app.turns`: a lone host never holds its commits back; while another host's
    waiting marker keeps changing, a host that writes leaves gaps between its commits."""
    from omegad.app.turns import marker_name
    from omegad.storage.bucket import Bucket

    (d,) = hosts(1)
    with d.client() as c:
        for i in range(15):
            c.store(f"alone: note {i} on the release train", namespace="t")
        turns = c.stats()["team"]["turns"]
        assert turns["commits"] >= 15 and turns["paced"] == 0 and turns["looks"] >= 1
        bucket = Bucket(c.stats()["team"]["uri"], {**moto.storage_options(), "endpoint": moto.endpoint})
        stop = threading.Event()

        def waiting_host() -> None:  # (a host whose commit keeps losing rewrites its marker)
            n = 0
            while not stop.is_set():
                bucket.put(marker_name("elsewhere"), f'{{"waited_s": {n}}}'.encode())
                n += 1
                stop.wait(0.3)

        t = threading.Thread(target=waiting_host)
        t.start()
        try:
            deadline = time.monotonic() + 30
            while c.stats()["team"]["turns"]["paced"] < 3:
                assert time.monotonic() < deadline, c.stats()["team"]["turns"]
                c.store(f"beside a waiting host: note {time.monotonic()}", namespace="t")
        finally:
            stop.set()
            t.join()
        turns = c.stats()["team"]["turns"]
        assert turns["contended"] and turns["waiting_hosts"] == 1 and turns["paced_s"] > 0
