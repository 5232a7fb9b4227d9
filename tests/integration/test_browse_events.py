"""`list`, `namespaces`, events and query context through a real daemon and both clients."""

from __future__ import annotations

import socket
import time
from typing import Any

import anyio
import pytest

from omegad_client import AsyncClient, InvalidParams, NotFound, OmegadError

from ..helpers import Daemon, raw_socket, recv_frame, send_frame


def _store_dated(c: Any, ns: str, n: int, **extra: Any) -> list[str]:
    """*n* memories with distinct created_at, oldest first; returns their ids in that order."""
    ids = []
    for i in range(n):
        mid = f"{ns}-m{i:03d}"
        c.store(
            f"memory {i} about topic {i % 5}",
            id=mid,
            namespace=ns,
            created_at=f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}Z",
            **extra,
        )
        ids.append(mid)
    return ids


def test_list_pages_in_order_with_filters(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        ids = _store_dated(c, ns, 23)
        c.store("a decision with a tag", id=f"{ns}-dec", namespace=ns, type="decision", tags=["db"],
                created_at="2026-02-01T00:00:00Z")  # fmt: skip
        seen, cursor, pages = [], None, 0
        while True:
            page = c.list(namespace=ns, limit=10, cursor=cursor)
            seen += [m["id"] for m in page["memories"]]
            pages += 1
            cursor = page["next"]
            if cursor is None:
                break
        assert seen == [f"{ns}-dec", *reversed(ids)] and pages == 3
        oldest = [m["id"] for m in c.list_all(namespace=ns, order="oldest", page=7)]
        assert oldest == [*ids, f"{ns}-dec"]
        assert [m["id"] for m in c.list(namespace=ns, types=["decision"])["memories"]] == [f"{ns}-dec"]
        assert [m["id"] for m in c.list(namespace=ns, tags=["db"])["memories"]] == [f"{ns}-dec"]
        window = c.list(namespace=ns, since="2026-01-01T00:00:05Z", until="2026-01-01T00:00:07Z", order="oldest")
        assert [m["id"] for m in window["memories"]] == ids[5:8] and window["next"] is None
        m = c.list(namespace=ns, limit=1)["memories"][0]
        assert set(m) >= {"id", "text", "type", "tags", "namespace", "metadata", "created_at", "updated_at", "version"}
        assert c.list(namespace=f"{ns}-empty") == {"memories": [], "next": None}


def test_list_paging_holds_while_writes_go_on(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c, shared_daemon.client() as w:
        ids = _store_dated(c, ns, 40)
        first = c.list(namespace=ns, limit=10)
        listed = [m["id"] for m in first["memories"]]
        cursor = first["next"]
        # writes between pages: new memories dated among the listed and unlisted ones, an
        # update and a delete of memories not listed yet
        for i in range(5):
            w.store(f"late {i}", id=f"{ns}-late{i}", namespace=ns, created_at=f"2026-01-01T00:00:{10 + i * 5:02d}.5Z")
        w.update(ids[3], text="memory 3, updated between pages")
        w.delete(ids[1])
        while cursor is not None:
            page = c.list(namespace=ns, limit=10, cursor=cursor)
            listed += [m["id"] for m in page["memories"]]
            cursor = page["next"]
        assert len(listed) == len(set(listed)), "a memory was listed twice"
        existing = set(ids) - {ids[1]}
        assert existing <= set(listed), sorted(existing - set(listed))  # none skipped
        assert ids[1] not in listed


@pytest.mark.parametrize(
    "params",
    [
        {"limit": 0},
        {"limit": 501},
        {"order": "sideways"},
        {"cursor": "not a cursor"},
        {"cursor": ""},
        {"cursor": 5},
        {"since": "2026-02-01T00:00:00Z", "until": "2026-01-01T00:00:00Z"},
        {"namespace": "bad namespace"},
        {"bogus": 1},
    ],
)
def test_list_rejects_bad_params(shared_daemon: Daemon, ns: str, params: dict[str, Any]) -> None:
    with shared_daemon.client() as c:
        with pytest.raises(InvalidParams):
            c.call("list", {"namespace": ns, **params})
        assert c.ping() == {}


def test_a_cursor_keeps_its_order(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        _store_dated(c, ns, 3)
        cursor = c.list(namespace=ns, limit=1)["next"]
        with pytest.raises(InvalidParams) as exc:
            c.list(namespace=ns, cursor=cursor, order="oldest")
        assert "order" in str(exc.value)


def test_namespaces_counts_and_last_write(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        _store_dated(c, ns, 4)
        _store_dated(c, f"{ns}-b", 2)
        by_name = {n["name"]: n for n in c.namespaces()}
        assert by_name[ns]["memories"] == 4 and by_name[f"{ns}-b"]["memories"] == 2
        before = by_name[ns]["last_write"]
        time.sleep(0.01)
        c.delete(f"{ns}-m000")
        after = {n["name"]: n for n in c.namespaces()}[ns]
        assert after["memories"] == 3 and after["last_write"] > before  # a delete is a write


def test_events_for_stores_updates_deletes_and_contradictions(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c, shared_daemon.client() as w:
        with c.events(["stored", "updated", "deleted", "contradiction"], namespace=ns) as ev:
            w.store("Dana prefers dark mode in every editor", id=f"{ns}-a", namespace=ns)
            w.store("elsewhere", namespace=f"{ns}-other")  # another namespace: not delivered
            w.update(f"{ns}-a", tags=["ui"])
            w.store("Dana switched to light mode in every editor", id=f"{ns}-b", namespace=ns)
            w.flush()
            got = [ev.get(10) for _ in range(4)]
            kinds = [(e["event"], e["data"].get("id")) for e in got if e is not None]
            assert kinds[:3] == [("stored", f"{ns}-a"), ("updated", f"{ns}-a"), ("stored", f"{ns}-b")], kinds
            (contradiction,) = [e for e in got if e is not None and e["event"] == "contradiction"]
            data = contradiction["data"]
            assert (data["source"], data["target"]) == (f"{ns}-b", f"{ns}-a")
            assert data["new"]["text"].startswith("Dana switched") and data["old"]["id"] == f"{ns}-a"
            assert got[0]["data"]["text"] == "Dana prefers dark mode in every editor"
            w.delete(f"{ns}-b")
            e = ev.get(10)
            assert e is not None and e["event"] == "deleted" and e["data"] == {"id": f"{ns}-b", "namespace": ns}
            assert ev.get(0.3) is None
        # unsubscribed: the connection gets no more events, and a request still works
        w.store("after unsubscribe", namespace=ns)
        w.flush()
        assert c.get(f"{ns}-a")["tags"] == ["ui"]
        assert c._events.get(ev.subscription) is None


def test_subscribe_params_and_unsubscribe_errors(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        for bad in ({"topics": []}, {"topics": ["bogus"]}, {"topics": ["stored", "stored"]}, {"topics": "stored"},
                    {"topics": ["stored"], "namespace": "no spaces"}, {}):  # fmt: skip
            with pytest.raises(InvalidParams):
                c.call("subscribe", bad)
        with pytest.raises(NotFound):
            c.call("unsubscribe", {"subscription": 12345})
        subs = [c.call("subscribe", {"topics": ["stored"], "namespace": ns})["subscription"] for _ in range(16)]
        with pytest.raises(OmegadError) as exc:
            c.call("subscribe", {"topics": ["stored"]})
        assert exc.value.code == "too_large"
        assert c.call("unsubscribe", {"subscription": subs[0]}) == {"unsubscribed": True}
        with pytest.raises(NotFound):
            c.call("unsubscribe", {"subscription": subs[0]})


def test_a_subscriber_that_stops_reading_loses_events_not_the_daemon(shared_daemon: Daemon, ns: str) -> None:
    stalled = raw_socket(shared_daemon.socket)
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # (fills quickly)
    send_frame(stalled, {"v": 1, "id": 1, "method": "subscribe", "params": {"topics": ["stored"], "namespace": ns}})
    assert recv_frame(stalled)["ok"]
    # (the flush waits for 2,000 memories' contradiction checks: minutes on two busy cores)
    with shared_daemon.client(timeout=300) as w:
        for k in range(8):  # far more events than its queue holds; the writers never wait for it
            w.store_batch([{"text": f"bulk memory {k}-{i} " + "x" * 200, "namespace": ns} for i in range(250)])
        w.flush()
        assert w.stats()["events"]["dropped"] > 0
        w.store("one more after the drops", namespace=ns)
    # it reads again: its events come in order, and one of them says how many were lost
    stalled.settimeout(10)
    frames: list[dict[str, Any]] = []
    while True:
        try:
            frames.append(recv_frame(stalled))
        except TimeoutError:
            break
        if frames[-1]["data"]["text"] == "one more after the drops":
            break
    assert all(f["event"] == "stored" and "id" not in f for f in frames)
    lost = sum(f.get("dropped", 0) for f in frames)
    assert lost > 0 and len(frames) + lost == 2001, (len(frames), lost)
    stalled.close()


def test_async_client_events(shared_daemon: Daemon, ns: str) -> None:
    async def main() -> list[str]:
        async with AsyncClient(shared_daemon.socket) as c, AsyncClient(shared_daemon.socket) as w:
            async with c.events(["stored"], namespace=ns) as stream:
                for i in range(3):
                    await w.store(f"async event {i}", id=f"{ns}-e{i}", namespace=ns)
                got = []
                with anyio.fail_after(10):
                    async for e in stream:
                        got.append(e["data"]["id"])
                        if len(got) == 3:
                            break
            page = await c.list(namespace=ns)
            assert [m["id"] for m in page["memories"]] == [f"{ns}-e2", f"{ns}-e1", f"{ns}-e0"]
            assert any(n["name"] == ns for n in await c.namespaces())
            return got

    assert anyio.run(main) == [f"{ns}-e0", f"{ns}-e1", f"{ns}-e2"]


def test_query_context_boosts_the_callers_file(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        # two memories about as relevant to the question; the caller's file decides
        c.store("The HTTP client retries failed calls with exponential backoff", id=f"{ns}-http", namespace=ns,
                metadata={"file": "src/http/client.py", "language": "python"}, tags=["networking", "sdk"])  # fmt: skip
        c.store("The queue worker retries failed jobs with exponential backoff", id=f"{ns}-queue", namespace=ns,
                metadata={"file": "src/queue/worker.py", "language": "python"}, tags=["shop"])  # fmt: skip
        q = "retries with exponential backoff"
        # (the checker may link the two as near duplicates at any moment: each would then fold
        # the other away; the test is about the context factor, so every member is shown)
        plain = {x["id"]: x for x in c.query(q, namespace=ns, explain=True, include_duplicates=True)["results"]}
        assert all("context" not in x["signals"] for x in plain.values())
        # the premise: close enough that a file's boost (×1.12) outweighs the other's project
        # match (×1.04) either way (the tags are in the vectors, so each memory has some)
        assert 0.87 < plain[f"{ns}-queue"]["score"] / plain[f"{ns}-http"]["score"] < 1.07
        for target, other, file in (
            (f"{ns}-queue", f"{ns}-http", "/work/shop/src/queue/worker.py"),  # an absolute path matches its tail
            (f"{ns}-http", f"{ns}-queue", "src/http/client.py"),
        ):
            r = c.query(
                q, namespace=ns, explain=True, include_duplicates=True, context={"file": file, "project": "shop"}
            )["results"]
            assert [x["id"] for x in r] == [target, other]
            for x in r:
                sig = x["signals"]
                product = (
                    sig["fused"] * sig["type_weight"] * sig["recency"] * sig.get("access", 1) * sig.get("context", 1)
                )
                assert x["score"] == pytest.approx(product, rel=1e-3)  # the factor is in the score
        r = {
            x["id"]: x["signals"]
            for x in c.query(
                q,
                namespace=ns,
                explain=True,
                include_duplicates=True,
                context={"file": "src/queue/worker.py", "project": "shop", "language": "python"},
            )["results"]
        }
        assert r[f"{ns}-queue"]["context_match"] == ["file", "project", "language"]  # (project: its tag)
        assert 1 < r[f"{ns}-queue"]["context"] <= 1.25
        assert r[f"{ns}-http"]["context_match"] == ["language"]
        for bad in ({"file": ""}, {"file": "x" * 513}, {"symbols": "x"}, {"symbols": ["s"] * 33}, {"other": "x"}, "f"):
            with pytest.raises(InvalidParams):
                c.call("query", {"text": q, "namespace": ns, "context": bad})
