"""The wire protocol under misuse: every bad frame gets a typed error or a clean close, and
other clients keep being served."""

from __future__ import annotations

import select
import struct
import threading
import time

import anyio
import pytest

from omegad_client import AsyncClient, Cancelled, NotFound

from ..helpers import Daemon, raw_socket, recv_frame, send_frame

FAST_TIMEOUT = "[server]\nframe_timeout_s = 1.0\n"


@pytest.fixture(scope="module")
def wire_daemon(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    d = Daemon(tmp_path_factory.mktemp("wire"), config=FAST_TIMEOUT).start()
    yield d
    code = d.stop()
    d.cleanup()
    assert code == 0, d.log()


def _other_client_still_served(d: Daemon) -> None:
    with d.client(timeout=10) as c:
        assert c.ping() == {}


def test_garbage_body_gets_bad_request_and_connection_survives(wire_daemon: Daemon) -> None:
    s = raw_socket(wire_daemon.socket)
    s.sendall(struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1")  # 0xc1 is never valid msgpack
    reply = recv_frame(s)
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request" and reply["id"] is None
    send_frame(s, {"v": 1, "id": 7, "method": "ping", "params": {}})
    assert recv_frame(s) == {"id": 7, "ok": True, "result": {}}
    s.close()
    _other_client_still_served(wire_daemon)


@pytest.mark.parametrize(
    "message, code",
    [
        ([1, 2, 3], "bad_request"),
        ({"v": 1, "method": "ping"}, "bad_request"),
        ({"v": 1, "id": "seven", "method": "ping"}, "bad_request"),
        ({"v": 2, "id": 1, "method": "ping"}, "bad_request"),
        ({"v": 1, "id": 1, "method": 5}, "bad_request"),
        ({"v": 1, "id": 1, "method": "ping", "params": [1]}, "invalid_params"),
        ({"v": 1, "id": 1, "method": "ping", "junk": True}, "bad_request"),
        ({"v": 1, "id": 1, "method": "drop_table", "params": {}}, "unknown_method"),
        ({"v": 1, "id": 1, "method": "store", "params": {"text": 3}}, "invalid_params"),
    ],
)
def test_malformed_requests(wire_daemon: Daemon, message: object, code: str) -> None:
    s = raw_socket(wire_daemon.socket)
    send_frame(s, message)
    reply = recv_frame(s)
    assert reply["ok"] is False and reply["error"]["code"] == code, reply
    assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
    send_frame(s, {"v": 1, "id": 2, "method": "ping"})
    assert recv_frame(s)["ok"] is True
    s.close()


def test_invalid_utf8_and_ext_types(wire_daemon: Daemon) -> None:
    s = raw_socket(wire_daemon.socket)
    bad_utf8 = b"\x81\xa2id\xa3\xff\xfe\xfd"  # {"id": <invalid utf-8 str>}
    s.sendall(struct.pack(">I", len(bad_utf8)) + bad_utf8)
    assert recv_frame(s)["error"]["code"] == "bad_request"
    ext = b"\xd4\x05\x00"  # fixext 1, type 5
    s.sendall(struct.pack(">I", len(ext)) + ext)
    assert recv_frame(s)["error"]["code"] == "bad_request"
    deep = b"\x91" * 200_000 + b"\xc0"
    s.sendall(struct.pack(">I", len(deep)) + deep)
    assert recv_frame(s)["error"]["code"] == "bad_request"
    send_frame(s, {"v": 1, "id": 3, "method": "ping"})
    assert recv_frame(s)["ok"] is True
    s.close()


def test_oversized_length_is_refused_then_closed(wire_daemon: Daemon) -> None:
    s = raw_socket(wire_daemon.socket)
    s.sendall(struct.pack(">I", 0xFFFFFFF0) + b"abc")
    reply = recv_frame(s)
    assert reply["error"]["code"] == "too_large"
    assert recv_frame(s) is None  # closed
    s.close()
    s = raw_socket(wire_daemon.socket)
    s.sendall(b"GET / HTTP/1.1\r\n\r\n")  # text bytes read as a huge length
    assert recv_frame(s)["error"]["code"] == "too_large"
    assert recv_frame(s) is None
    s.close()
    _other_client_still_served(wire_daemon)


def test_truncated_frame_times_out_and_closes(wire_daemon: Daemon) -> None:
    s = raw_socket(wire_daemon.socket)
    s.sendall(struct.pack(">I", 100) + b"\x85")  # promises 100 bytes, sends 1
    _other_client_still_served(wire_daemon)  # a stalled peer holds nobody up
    started = time.monotonic()
    reply = recv_frame(s)
    assert reply["error"]["code"] == "bad_request"
    assert recv_frame(s) is None
    assert time.monotonic() - started < 30
    s.close()


def test_client_disconnect_mid_request_leaves_daemon_up(wire_daemon: Daemon) -> None:
    for _ in range(5):
        s = raw_socket(wire_daemon.socket)
        send_frame(s, {"v": 1, "id": 1, "method": "query", "params": {"text": "anything at all"}})
        s.close()
    _other_client_still_served(wire_daemon)


def test_pipelined_requests_on_one_connection(wire_daemon: Daemon) -> None:
    s = raw_socket(wire_daemon.socket)
    for i in range(1, 21):
        send_frame(s, {"v": 1, "id": i, "method": "ping" if i % 2 else "hello", "params": {}})
    replies = [recv_frame(s) for _ in range(20)]
    assert sorted(r["id"] for r in replies) == list(range(1, 21))
    assert all(r["ok"] for r in replies)
    s.close()


def test_async_client_concurrent_calls(wire_daemon: Daemon) -> None:
    async def main() -> None:
        async with AsyncClient(wire_daemon.socket) as c:
            results: dict[int, str] = {}

            async def one(i: int) -> None:
                results[i] = await c.store(f"concurrent memory number {i}", namespace="async-ns", id=f"async-{i}")

            async with anyio.create_task_group() as tg:
                for i in range(16):
                    tg.start_soon(one, i)
            assert results == {i: f"async-{i}" for i in range(16)}
            hits = await c.query("concurrent memory number 7", namespace="async-ns", limit=3)
            assert hits[0]["id"] == "async-7"
            with pytest.raises(NotFound):
                await c.call("cancel", {"request_id": 999_999})

    anyio.run(main)


def test_cancel_in_flight_request(wire_daemon: Daemon) -> None:
    """A cancelled request gets a `cancelled` reply, the cancel reply tells the truth, a
    cancelled batch is stored whole or not at all, and the connection goes on."""
    s = raw_socket(wire_daemon.socket, timeout=60)
    hits = 0
    for attempt in range(5):
        ns = f"cancel-{attempt}"
        items = [{"text": f"cancel filler {attempt}-{i} " + "word " * 30, "namespace": ns} for i in range(100)]
        send_frame(s, {"v": 1, "id": 10 * attempt + 1, "method": "store_batch", "params": {"items": items}})
        send_frame(s, {"v": 1, "id": 10 * attempt + 2, "method": "cancel", "params": {"request_id": 10 * attempt + 1}})
        replies = {}
        while len(replies) < 2:
            r = recv_frame(s)
            replies[r["id"]] = r
        batch, cancel = replies[10 * attempt + 1], replies[10 * attempt + 2]
        if cancel["ok"]:
            assert batch["ok"] is False and batch["error"]["code"] == "cancelled"
            hits += 1
        else:
            assert cancel["error"]["code"] == "not_found" and batch["ok"] is True
        with wire_daemon.client() as c:
            stored = c.stats()["namespaces"].get(ns, {"total": 0})["total"]
        assert stored in (0, 100)
        if hits:
            break
    assert hits >= 1  # embedding 100 texts takes far longer than a cancel frame's trip
    send_frame(s, {"v": 1, "id": 99, "method": "ping"})
    assert recv_frame(s)["ok"] is True
    s.close()
    # A cancelled write leaves no phantom job behind: flush returns and the queues are empty.
    with wire_daemon.client() as c:
        c.flush(timeout=30)
        assert c.stats()["queues"]["writer"]["depth"] == 0
        for _ in range(300):  # an embedding run already started finishes; nothing stays counted
            if c.stats()["queues"]["embedder"]["depth"] == 0:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("a cancelled request left a phantom embedder job")


def test_async_client_error_class(wire_daemon: Daemon) -> None:
    assert Cancelled.code == "cancelled"


def test_event_loop_and_queries_are_not_blocked_by_a_big_batch(wire_daemon: Daemon) -> None:
    """A large batch is acknowledged at the log at once; while it is embedded and committed
    in worker threads the event loop keeps answering pings, and a query of another namespace
    gets its turn between embedding chunks: both finish before a query of the batch's
    namespace, which waits for the batch (ordering, not a time limit)."""
    big = raw_socket(wire_daemon.socket, timeout=120)
    items = [
        {"text": f"bulk import line {i} " + "lorem ipsum dolor sit amet " * 8, "namespace": "bulk"} for i in range(640)
    ]
    send_frame(big, {"v": 1, "id": 1, "method": "store_batch", "params": {"items": items}})
    reply = recv_frame(big)
    assert reply["ok"] is True and len(reply["result"]["ids"]) == 640
    found: list[list[dict[str, object]]] = []

    def ask_bulk() -> None:
        with wire_daemon.client(timeout=120) as c:
            found.append(c.query("bulk import line 7", namespace="bulk", limit=3))

    waiting = threading.Thread(target=ask_bulk)
    waiting.start()
    with wire_daemon.client() as c:
        for _ in range(20):
            assert c.ping() == {}
        assert c.query("bulk import", namespace="elsewhere", limit=3) == []
        assert c.get(reply["result"]["ids"][-1])["namespace"] == "bulk"  # (acknowledged: readable)
    assert waiting.is_alive(), "the batch was embedded before the pings and the other query: not interleaved"
    waiting.join(120)
    assert found and found[0], "the query of the batch's namespace missed the acknowledged batch"
    big.close()


def test_trickled_frame_times_out_from_its_first_byte(wire_daemon: Daemon) -> None:
    """Sending one byte now and then does not keep a frame alive past the frame timeout."""
    s = raw_socket(wire_daemon.socket, timeout=30)
    s.sendall(struct.pack(">I", 100))
    closed = False
    for _ in range(40):  # 40 × 0.25 s = 10 s of trickling; the timeout is 1 s
        time.sleep(0.25)
        try:
            s.sendall(b"\x00")
        except (BrokenPipeError, ConnectionResetError):
            closed = True
            break
        readable, _, _ = select.select([s], [], [], 0)
        if readable:
            closed = True
            break
    assert closed, "a trickling sender kept its frame open"
    s.close()
