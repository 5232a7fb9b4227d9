"""Property-based fuzzing of the wire protocol against a real daemon: random msgpack values as
every method's params (wrong types, NaN, huge numbers, deep nesting, unknown fields, invalid
UTF-8), random frame bodies, random envelopes. Every request gets a well-formed reply — a result
or a typed error with a message — or, for a broken frame, a clean close; the daemon stays up and
the memories stored before are unchanged. (`bench/fuzz.py` runs 100,000 such cases.)"""

from __future__ import annotations

import socket
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omegad_client.protocol import ERROR_CODES, METHODS

from ..helpers import Daemon, raw_socket, recv_frame

LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.binary(max_size=40),
)
VALUES = st.recursive(
    LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.text(max_size=12), st.integers(-(2**63), 2**64 - 1)), inner, max_size=5),
    ),
    max_leaves=20,
)
#: Params shaped like the real ones (known keys with random values), or anything at all.
KEYS = st.sampled_from(
    ["text", "namespace", "type", "tags", "metadata", "id", "ids", "items", "limit", "score", "since", "until",
     "rerank", "explain", "source", "target", "resolution", "depth", "kinds", "snapshot", "offset", "memories",
     "edges", "model", "timeout", "request_id", "include_hidden", "created_at", "unknown_field"]
)  # fmt: skip
PARAMS = st.one_of(st.dictionaries(KEYS, VALUES, max_size=6), VALUES)


class Wire:
    """One raw connection, reopened whenever the daemon closes it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock: socket.socket | None = None
        self.next_id = 1

    def conn(self) -> socket.socket:
        if self.sock is None:
            self.sock = raw_socket(self.path, timeout=60)
        return self.sock

    def drop(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock = None

    def body(self, body: bytes) -> Any:
        s = self.conn()
        try:
            s.sendall(struct.pack(">I", len(body)) + body)
            reply = recv_frame(s)
        except OSError:
            reply = None
        if reply is None:
            self.drop()
        return reply

    def request(self, method: Any, params: Any) -> tuple[int, Any]:
        rid = self.next_id
        self.next_id += 1
        body = msgpack.packb({"v": 1, "id": rid, "method": method, "params": params}, use_bin_type=True)
        return rid, self.body(body)


def _well_formed(reply: Any, rid: int | None) -> None:
    assert isinstance(reply, dict), reply
    assert reply.get("id") in (rid, None), reply
    if reply.get("ok") is True:
        assert "result" in reply, reply
    else:
        assert reply.get("ok") is False, reply
        err = reply["error"]
        assert err["code"] in ERROR_CODES and err["code"] != "internal", reply
        assert isinstance(err["message"], str) and err["message"], reply


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Daemon, dict[str, dict[str, Any]]]]:
    d = Daemon(tmp_path_factory.mktemp("fuzz"), config="[server]\nframe_timeout_s = 2.0\n").start()
    with d.client() as c:
        texts = ["The deploy pipeline runs on merge", "Invoices are archived monthly", "Use ruff for linting"]
        ids = [c.store(t, namespace="fuzz-keep") for t in texts]
        c.flush()  # annotations settled before the snapshot
        before = {i: c.get(i) for i in ids}
    yield d, before
    wire = _WIRES.pop(d.socket, None)
    if wire is not None:
        wire.drop()
    with d.client() as c:  # what was stored before is unchanged, whatever came in between
        assert {i: c.get(i) for i in before} == before
    code = d.stop()
    d.cleanup()
    assert code == 0, d.log()


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(method=st.one_of(st.sampled_from([m for m in METHODS if m != "maintain"]), VALUES), params=PARAMS)
def test_random_params_for_every_method(
    fuzzed: tuple[Daemon, dict[str, dict[str, Any]]], method: Any, params: Any
) -> None:
    d, _ = fuzzed
    wire = _wire(d)
    rid, reply = wire.request(method, params)
    assert d.alive, d.log()[-3000:]
    _well_formed(reply, rid)


@settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(body=st.one_of(st.binary(max_size=200), VALUES.map(lambda v: msgpack.packb(v, use_bin_type=True))))
def test_random_frame_bodies(fuzzed: tuple[Daemon, dict[str, dict[str, Any]]], body: bytes) -> None:
    d, _ = fuzzed
    wire = _wire(d)
    reply = wire.body(body)
    assert d.alive, d.log()[-3000:]
    if reply is not None:  # a reply, or a clean close
        _well_formed(reply, None)


def test_deep_nesting_and_invalid_utf8(fuzzed: tuple[Daemon, dict[str, dict[str, Any]]]) -> None:
    d, _ = fuzzed
    wire = _wire(d)
    for depth in (50, 500, 5000, 100_000):
        # {"v": 1, "id": 9, "method": "store", "params": {"text": "x", "metadata": {"a": [[[...]]]}}}
        head = msgpack.packb({"v": 1, "id": 9, "method": "store"}, use_bin_type=True)
        head = bytes([head[0] + 1]) + head[1:]  # one more key: params
        params = b"\xa6params" + b"\x82\xa4text\xa1x\xa8metadata\x81\xa1a" + b"\x91" * depth + b"\xa1x"
        reply = wire.body(head + params)
        if reply is not None:
            _well_formed(reply, 9)
    raw = b"\x84\xa1v\x01\xa2id\x05\xa6method\xa5store\xa6params\x81\xa4text\xa3\xff\xfe\xfd"  # text: invalid UTF-8
    reply = wire.body(raw)
    assert reply is not None and reply["ok"] is False and reply["error"]["code"] in ("bad_request", "invalid_params")
    with d.client() as c:
        assert c.ping() == {}


_WIRES: dict[Path, Wire] = {}


def _wire(d: Daemon) -> Wire:
    if d.socket not in _WIRES:
        _WIRES[d.socket] = Wire(d.socket)
    return _WIRES[d.socket]
