"""Property-based fuzzing of the wire protocol against a real daemon: random msgpack values as
every method's params (wrong types, NaN, huge numbers, deep nesting, unknown fields, invalid
UTF-8), random frame bodies, random envelopes, and for every method near-valid params (a valid
params map with a field dropped, added, swapped for a random value or a boundary value, or left
valid) that reach the method's own checks and handler. Every request gets a well-formed reply —
a result or a typed error with a message — or, for a broken frame, a clean close; the daemon
stays up and the memories stored before are unchanged. (`bench/fuzz.py` runs 100,000 such cases.)"""

from __future__ import annotations

import base64
import collections
import math
import reprlib
import socket
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omegad.rpc.registry import REGISTRY
from omegad_client import Client
from omegad_client.protocol import ERROR_CODES, EVENT_TOPICS, MEMORY_TYPES

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
     "edges", "model", "timeout", "request_id", "include_hidden", "created_at", "unknown_field", "order", "cursor",
     "topics", "subscription", "context"]
)  # fmt: skip
PARAMS = st.one_of(st.dictionaries(KEYS, VALUES, max_size=6), VALUES)


class Wire:
    """One raw connection, reopened whenever the daemon closes it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock: socket.socket | None = None
        self.next_id = 1
        self.events = 0  # event frames skipped

    def conn(self) -> socket.socket:
        if self.sock is None:
            self.sock = raw_socket(self.path, timeout=60)
        return self.sock

    def drop(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock = None

    def _reply(self, s: socket.socket) -> Any:
        """The next frame that is not an event (the fuzzer subscribes this connection too)."""
        while True:
            frame = recv_frame(s)
            if not (isinstance(frame, dict) and "event" in frame and "id" not in frame):
                return frame
            self.events += 1

    def body(self, body: bytes) -> Any:
        s = self.conn()
        try:
            s.sendall(struct.pack(">I", len(body)) + body)
            reply = self._reply(s)
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

    def send(self, method: str, params: Any) -> int:
        """Send a request without waiting for its reply (see `receive`); returns its id."""
        rid = self.next_id
        self.next_id += 1
        body = msgpack.packb({"v": 1, "id": rid, "method": method, "params": params}, use_bin_type=True)
        try:
            self.conn().sendall(struct.pack(">I", len(body)) + body)
        except OSError:
            self.drop()
        return rid

    def receive(self) -> Any:
        """The next reply on the connection, or None when it is closed."""
        reply = None
        if self.sock is not None:
            try:
                reply = self._reply(self.sock)
            except OSError:
                reply = None
        if reply is None:
            self.drop()
        return reply


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


# -- Method-specific, near-valid params ------------------------------------------------------
#
# Random values as params are mostly rejected before a handler's own checks. These strategies
# start from a valid params map for one method (the documented fields, plausible values, ids
# that exist and ids that do not) and mutate it: drop a field, add unknown fields, swap a value
# for a random one or for a boundary value (empty and over-long text, 33 tags, limit 0 / -1 /
# huge, NaN and infinities, 1969 and year-9999 times, unknown types, odd namespaces, metadata
# 8 and 9 levels deep or 1 byte over the limit...), or keep it valid.
#
# Writes go to namespace FUZZ_NS and ids in FUZZ_IDS (or new ids). The memories in KEEP_NS are
# only read (`get`, `traverse`, `contradictions`, `export`), offered as an existing id to
# `store` (which must then change nothing), or named by a write that also carries an unknown
# parameter and so must be refused: `fuzzed`'s teardown checks they are unchanged.

KEEP_NS = "fuzz-keep"
KEEP_IDS = ("keep-0", "keep-1", "keep-2")
FUZZ_NS = "fuzz"
FUZZ_IDS = tuple(f"fz-{i}" for i in range(8))
#: Contradiction edges seeded between the fuzzer's memories (the second one resolved).
FUZZ_EDGES = (("fz-1", "fz-0"), ("fz-3", "fz-2"))
#: Error codes that mean the request never reached its method's params parser.
ENVELOPE_CODES = frozenset({"bad_request", "unknown_method"})
#: The fuzzer's memories and contradictions are brought back after this many cases.
REPLENISH_EVERY = 20
MAX_TEXT = 16_000
MAX_META = 16_384

#: The methods, and the params each takes (their registry rows).
METHODS = tuple(REGISTRY)
FIELDS: dict[str, tuple[str, ...]] = {name: method.params for name, method in REGISTRY.items()}
MEMORY_RECORD = ("record", "id", "text", "type", "tags", "namespace", "metadata", "created_at", "updated_at",
                 "version", "vector", "feedback", "ratings", "accesses")  # fmt: skip
EDGE_RECORD = ("record", "kind", "source", "target", "confidence", "signals", "created_at", "resolution",
               "resolved_at", "id", "namespace", "source_version", "target_version")  # fmt: skip
UNKNOWN_KEYS = ("unknown_field", "", " ", "Text", "ids", "force", "namespace", "created_at", "text", "id", "limit",
                "params", "v", "_", "x" * 200, "ключ", "record", "kind")  # fmt: skip


@dataclass(frozen=True)
class Live:
    """A value known only while fuzzing (an open export's snapshot, the daemon's model id, a
    vector of its dimension), filled in just before the request is sent."""

    name: str


#: Returned by a Live that has no value: the key is left out.
_ABSENT = Live("absent")


@dataclass(frozen=True)
class Case:
    method: str
    params: dict[str, Any]
    #: Names KEEP_NS memories in a write, so carries an unknown parameter and must be refused.
    must_fail: bool = False
    #: Sent just before, without waiting for its reply (a request for `cancel` to cancel).
    before: Case | None = None


def _nest(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"a": value}
    return value


def _vector(values: list[float]) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


def _one(*values: Any) -> st.SearchStrategy[Any]:
    return st.sampled_from(values)


#: Random values for type swaps: mostly JSON-like (str keys), sometimes anything at all (a map
#: with int keys is refused as a whole frame: `bad_request`).
_JSONISH = st.recursive(
    LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=8,
)
SWAP = st.one_of(_JSONISH, _JSONISH, _JSONISH, VALUES)
SENTENCES = ("The deploy pipeline runs on merge", "Invoices are archived monthly", "Use ruff for linting",
             "The deploy pipeline never runs on merge", "Staging is rebuilt nightly", "We chose msgpack over JSON",
             "Lesson: pin the embedding model", "TODO: rotate the signing key")  # fmt: skip
TEXT_OK = st.one_of(
    _one(*SENTENCES),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=60).filter(str.strip),
)
TEXT_EDGE = st.one_of(
    TEXT_OK,
    _one("", " ", "\t\n ", "a\x00b", "\u200b", "\ufeff", "x", "x" * MAX_TEXT, "x" * (MAX_TEXT + 1), "é" * MAX_TEXT,
         "😀" * MAX_TEXT, "😀" * (MAX_TEXT + 1), "word " * 3200, "x" * 1_000_000),
)  # fmt: skip
ID_NEW = st.from_regex(r"[a-z0-9][A-Za-z0-9._:@/+-]{0,20}", fullmatch=True).filter(lambda s: s not in KEEP_IDS)
#: Ids a write may name: the fuzzer's own, new ones, and invalid ones.
ID_WRITE = st.one_of(
    _one(*FUZZ_IDS),
    ID_NEW,
    _one("", "a" * 128, "a" * 129, "-a", ".a", "a b", "a+b", "a\x00", "ä", "a\n", "KEEP-0", "keep-0 ", " keep-0",
         "keep-0/", "fz-0/../keep-0", "fz-0'", 'fz-0"', "fz-0\\", "fz-0;--", "*", "%"),
)  # fmt: skip
#: Mostly the fuzzer's own ids, sometimes a new one: ids a valid write names.
ID_MINE = st.one_of(_one(*FUZZ_IDS), _one(*FUZZ_IDS), _one(*FUZZ_IDS), ID_NEW)
#: Ids a read may name: those, plus the memories the fuzzing must leave alone.
ID_READ = st.one_of(ID_WRITE, _one(*KEEP_IDS))
NS_OK = _one(FUZZ_NS, "fuzz/sub", "fuzz:a.b@c", "F" * 128, "default")
NS_ODD = _one("", "-fuzz", ".x", "fuzz+x", "f" * 129, "fuzz ns", "fuzz\n", "ns/../x", "名前", "fuzz\x00", "*", "%",
              "fuzz'", 'fuzz"', "fuzz\\", "fuzz;--", "FUZZ-KEEP", "fuzz-keep ")  # fmt: skip
NS_WRITE = st.one_of(NS_OK, NS_ODD)
NS_READ = st.one_of(NS_OK, NS_ODD, st.just(KEEP_NS))
TYPE_OK = _one(*MEMORY_TYPES)
TYPE_EDGE = st.one_of(TYPE_OK, _one("bogus", "", "Memory", "memory ", "decisions", "\x00", "fact\n"))
TAG_OK = _one("deploy", "ci", "a", "x" * 64, "with space", "ünïcödé", "k:v", " padded ")
TAGS_OK = st.lists(TAG_OK, max_size=4)
TAGS_EDGE = st.one_of(
    TAGS_OK,
    _one([], [f"t{i}" for i in range(32)], [f"t{i}" for i in range(33)], ["t"] * 33, [f"t{i}" for i in range(1000)],
         ["t"] * 50_000, [""], [" "], ["x" * 65], [" " + "x" * 64 + " "], ["a\tb"], ["a\x00"], ["a\n"], [1], [None],
         [["a"]], ["dup", "dup"], "deploy", {"deploy": True}),
)  # fmt: skip
JSON_LEAF = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)  # fmt: skip
META_OK = st.dictionaries(
    st.text(max_size=8),
    st.recursive(JSON_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=6),
    max_size=4,
)  # fmt: skip
META_EDGE = st.one_of(
    META_OK,
    _one({}, _nest(7), _nest(8), _nest(9), _nest(10), _nest(200), {"l": [[[[[[[["deep"]]]]]]]]},
         {"l": [[[[[[[[["deep"]]]]]]]]]}, {"k": "a" * (MAX_META - 8)}, {"k": "a" * (MAX_META - 7)},
         {"k": "é" * ((MAX_META - 8) // 2)}, {"k": "é" * ((MAX_META - 8) // 2 + 1)}, {"l": [0] * 20_000},
         {"l": [0] * (MAX_META // 2)}, {"n": math.nan}, {"n": math.inf}, {"n": [-math.inf]}, {"i": 2**63},
         {"i": 2**63 - 1}, {"i": -(2**63)}, {"i": 2**64 - 1}, {"b": b"bytes"}, {b"k": 1}, {"": None},
         {"k\x00": "v\x00"}, {"x": {"y": [[[]]]}}, [], "{}", {"text": "x", "id": "keep-0"}),
)  # fmt: skip
TIME_OK = st.builds(
    lambda dt, tz: dt.isoformat() + tz,
    st.datetimes(datetime(1970, 1, 2), datetime(2100, 1, 1)),
    _one("Z", "+02:00", "-05:30", ""),
)
TIME_EDGE = st.one_of(
    TIME_OK,
    _one("1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:59:59+01:00", "9999-12-31T23:59:59-01:00",
         "9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00+00:01", "2026-02-30T00:00:00Z", "2026-13-01",
         "2026-03-01T24:00:00Z", "2026-03-01", "2026-03-01T10:00:00.123456789Z", "", "now", "x" * 65,
         "2026-03-01T10:00:00Z" + " " * 50, "2026-W09-1", "20260301T100000Z", "2026-03-01T10:00:00+25:00",
         "2026-03-01T10:00:00Z\x00", "2026-03-01T10:00:00+23:59", "+10000-01-01T00:00:00", "9999-12-31T23:59:59Z",
         "9999-12-31T23:59:59.9999Z", "2026-03-01T10:00:00.000001Z"),
)  # fmt: skip


def _int(lo: int, hi: int) -> st.SearchStrategy[Any]:
    """Valid ints between lo and hi, and the values around and far beyond them."""
    return st.one_of(
        st.integers(lo, min(hi, lo + 1000)),
        _one(lo - 1, lo, hi, hi + 1, 0, -1, 2**31, 2**63 - 1, 2**64 - 1, -(2**63), True, False, float(lo), math.nan,
             str(lo), None),
    )  # fmt: skip


def _float(lo: float, hi: float) -> st.SearchStrategy[Any]:
    """Valid numbers between lo and hi, and the values around and far beyond them."""
    return st.one_of(
        st.floats(lo, hi),
        st.integers(math.ceil(lo), math.floor(hi)),
        _one(lo, hi, math.nextafter(lo, -math.inf), math.nextafter(hi, math.inf), math.nan, math.inf, -math.inf,
             -0.0, 5e-324, 1e308, -1e308, True, str(hi), 2**64 - 1, -(2**63), None),
    )  # fmt: skip


BOOL_EDGE = _one(True, False, 0, 1, "true", None, [], 1.0)
RESOLUTIONS = ("keep_new", "keep_old", "both_valid")
UNIT = [1.0 / math.sqrt(384)] * 384  # of all-MiniLM-L6-v2, the default model; Live("vector") has the daemon's dimension
VECTOR_EDGE = _one(
    Live("vector"), Live("vector_b64"), _vector(UNIT), base64.b64encode(_vector(UNIT)).decode(), b"", "",
    "not base64!", _vector(UNIT[:383]),
    _vector([math.nan] * 384), _vector([math.inf] * 384), _vector([0.0] * 384), _vector([1.0] * 384),
    _vector([0.0] * 16385), b"abc", base64.b64encode(b"abc").decode(), [0.1] * 384,
)  # fmt: skip
SIGNALS_EDGE = st.one_of(
    st.lists(st.fixed_dictionaries({"kind": _one("negation", "antonym", "number"), "score": st.floats(0, 1),
                                    "evidence": st.text(max_size=30)}), max_size=3),
    _one([{"kind": "x", "score": math.nan}], [{"b": b"bytes"}], [{b"k": 1}], [{"deep": _nest(50)}], [{}] * 17,
         [{"e": "x" * 5000}], ["not a map"], {"kind": "x"}, []),
)  # fmt: skip


def _values(method: str, field: str) -> st.SearchStrategy[Any]:
    """Values for *field* of *method*'s params (or of an import record): valid ones and the
    boundary values around them."""
    read = method in ("get", "traverse", "contradictions", "export")
    if field in ("text",):
        return TEXT_EDGE
    if field in ("id", "source", "target"):
        return ID_READ if read else ID_WRITE
    if field == "namespace":
        return NS_READ if read else NS_WRITE
    if field == "type":
        return TYPE_EDGE
    if field == "types":
        return st.one_of(st.lists(TYPE_OK, min_size=1, max_size=3), _one([], list(MEMORY_TYPES) * 2, ["bogus"],
                         ["memory", "bogus"], "memory", [None], [["memory"]]))  # fmt: skip
    if field == "tags":
        return TAGS_EDGE
    if field == "metadata":
        return META_EDGE
    if field in ("created_at", "updated_at", "since", "until", "resolved_at"):
        return TIME_EDGE
    if field == "limit":
        return _int(1, {"query": 100, "contradictions": 1000, "export": 2000, "list": 500}.get(method, 100))
    if field == "order":
        return _one("newest", "oldest", "Newest", "", None, 1, ["newest"], "random")
    if field == "cursor":
        return st.one_of(st.just(Live("cursor")), _one("", "x", "bjox", "=" * 8, "bjoxOm0w", "bzoxOm0w", "x" * 401, 5,
                         ["c"], "bjotMTpt", "bjo5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk6bQ"))  # fmt: skip
    if field == "topics":
        return st.one_of(st.lists(_one(*EVENT_TOPICS), min_size=1, max_size=4, unique=True),
                         _one([], ["stored", "stored"], ["bogus"], "stored", [None], [["stored"]], list(EVENT_TOPICS) * 2))  # fmt: skip
    if field == "subscription":
        return st.one_of(st.just(Live("subscription")), _int(1, 2**63 - 1))
    if field == "context":
        return st.one_of(
            st.fixed_dictionaries({}, optional={"project": TEXT_EDGE, "file": TEXT_EDGE, "language": TEXT_EDGE,
                                                "symbols": st.one_of(st.lists(TEXT_EDGE, max_size=3), SWAP)}),
            _one({}, {"file": "x" * 513}, {"symbols": ["s"] * 33}, {"bogus": "x"}, "src/app.py", [], None),
        )  # fmt: skip
    if field == "offset":
        return st.one_of(_int(0, 2**40), st.just(Live("next")))
    if field == "depth":
        return _int(1, 3)
    if field == "version":
        return _int(1, 2**31 - 1)
    if field == "ratings":
        return _int(0, 2**31 - 1)
    if field == "accesses":
        return _int(0, 2**62)
    if field == "score":
        return _float(-1.0, 1.0)
    if field == "feedback":
        return _float(-5.0, 5.0)
    if field == "confidence":
        return _float(0.0, 1.0)
    if field == "timeout":
        return _float(0.0, 3600.0)
    if field in ("rerank", "explain", "include_hidden"):
        return BOOL_EDGE
    if field == "request_id":
        return st.one_of(st.integers(-(2**63), 2**64 - 1), _one(Live("before"), True, 1.5, "1", None, [1]))
    if field == "kinds":
        return _one(["contradicts"], [], ["bogus"], ["contradicts"] * 1000, "contradicts", [None], [["contradicts"]],
                    [{"k": 1}], None)  # fmt: skip
    if field == "resolution":
        return _one(*RESOLUTIONS, "bogus", "", "KEEP_NEW", "keep_new ", None, 1, ["keep_new"])
    if field == "snapshot":
        return st.one_of(st.just(Live("snapshot")), ID_NEW, _one("", "x" * 129, "snap shot", 1))
    if field == "model":
        return _one(Live("model"), "sentence-transformers/other", "", "x" * 201, 5, None)
    if field == "vector":
        return VECTOR_EDGE
    if field == "signals":
        return SIGNALS_EDGE
    if field == "record":
        return _one("memory", "edge", "Memory", "", None, 1)
    if field == "kind":
        return _one("contradicts", "supports", "", None)
    if field in ("source_version", "target_version"):
        return _int(1, 10)
    if field == "items":
        return st.one_of(st.lists(_store_params(), min_size=1, max_size=4), _one([], {}, "x", [None], [[]]))
    if field == "records":
        return st.one_of(st.lists(_record(), min_size=1, max_size=4), _one([], {}, "x", [None], [[]]))
    return SWAP


def _chance(draw: st.DrawFn, percent: int) -> bool:
    """True with about *percent* % probability (Hypothesis favours 0 and the bounds of a
    range, so the chosen values sit in the middle)."""
    return 40 <= draw(st.integers(0, 99)) < 40 + percent


def _maybe(draw: st.DrawFn, p: dict[str, Any], key: str, values: st.SearchStrategy[Any]) -> None:
    if draw(st.booleans()):
        p[key] = draw(values)


@st.composite
def _store_params(draw: st.DrawFn, namespace: str | None = None) -> dict[str, Any]:
    p: dict[str, Any] = {"text": draw(TEXT_OK)}
    if namespace is not None:
        p["namespace"] = namespace
    else:
        _maybe(draw, p, "namespace", NS_OK)
    _maybe(draw, p, "type", TYPE_OK)
    _maybe(draw, p, "tags", TAGS_OK)
    _maybe(draw, p, "metadata", META_OK)
    _maybe(draw, p, "created_at", TIME_OK)
    # an existing id in another namespace must answer created: false and change nothing
    _maybe(draw, p, "id", st.one_of(_one(*FUZZ_IDS), ID_NEW, _one(*KEEP_IDS)))
    return p


@st.composite
def _record(draw: st.DrawFn, keep: bool = False) -> dict[str, Any]:
    """One import record: a memory of the fuzzer's, or an edge (at most one end in KEEP_NS, so
    it is skipped: its ends are in different namespaces). With *keep*, a record that would
    change KEEP_NS."""
    if draw(st.booleans()):
        p = draw(_store_params(namespace=KEEP_NS if keep else FUZZ_NS))
        p["record"] = "memory"
        p["id"] = draw(_one(*KEEP_IDS)) if keep else draw(st.one_of(_one(*FUZZ_IDS), ID_NEW))
        _maybe(draw, p, "version", st.integers(1, 5))
        if draw(st.booleans()):
            p["vector"] = draw(_one(Live("vector"), Live("vector_b64")))
        _maybe(draw, p, "feedback", st.floats(-5, 5))
        _maybe(draw, p, "ratings", st.integers(0, 10))
        _maybe(draw, p, "accesses", st.integers(0, 100))
        _maybe(draw, p, "updated_at", TIME_OK)
        return p
    if keep:
        source, target = "keep-1", "keep-0"
    else:
        source, target = draw(st.one_of(_one(*FUZZ_EDGES), st.tuples(_one(*FUZZ_IDS), _one(*FUZZ_IDS, *KEEP_IDS))))
        if draw(st.booleans()):
            source, target = target, source
    e: dict[str, Any] = {"record": "edge", "kind": "contradicts", "source": source, "target": target}
    _maybe(draw, e, "confidence", st.floats(0, 1))
    _maybe(draw, e, "signals", _values("import", "signals"))
    _maybe(draw, e, "created_at", TIME_OK)
    if draw(st.booleans()):
        e["resolution"] = draw(_one(*RESOLUTIONS))
        _maybe(draw, e, "resolved_at", TIME_OK)
    return e


@st.composite
def _valid(draw: st.DrawFn, method: str, keep: bool) -> dict[str, Any]:
    """Valid params for *method*; with *keep*, params that would change KEEP_NS."""
    p: dict[str, Any] = {}
    if method == "store":
        p = draw(_store_params(namespace=KEEP_NS if keep else None))
    elif method == "store_batch":
        items = draw(st.lists(_store_params(), min_size=1, max_size=5))
        if _chance(draw, 5):  # near the item limit, the last item invalid
            items = [{"text": f"item {i}"} for i in range(999)] + [{"text": ""}]
        elif _chance(draw, 5):
            items = [{"text": f"item {i}"} for i in range(1001)]
        if keep:
            items.append(draw(_store_params(namespace=KEEP_NS)))
        p = {"items": items}
    elif method in ("get", "delete", "traverse", "feedback", "history"):
        p = {"id": draw(_one(*KEEP_IDS) if keep else st.one_of(ID_MINE, _values(method, "id")))}
        if method == "traverse":
            _maybe(draw, p, "kinds", st.just(["contradicts"]))
            _maybe(draw, p, "depth", st.integers(1, 3))
        elif method == "feedback":
            p["score"] = draw(st.floats(-1, 1))
    elif method == "update":
        p = {"id": draw(_one(*KEEP_IDS) if keep else ID_MINE)}
        _maybe(draw, p, "text", TEXT_OK)
        _maybe(draw, p, "type", TYPE_OK)
        _maybe(draw, p, "tags", TAGS_OK)
        _maybe(draw, p, "metadata", META_OK)
    elif method == "query":
        p = {"text": draw(TEXT_OK)}
        if keep:
            p["namespace"] = KEEP_NS  # a query counts its results as accessed
        else:
            _maybe(draw, p, "namespace", NS_OK)
        _maybe(draw, p, "limit", st.integers(1, 100))
        _maybe(draw, p, "types", st.lists(TYPE_OK, min_size=1, max_size=3))
        _maybe(draw, p, "tags", TAGS_OK.filter(bool))
        _maybe(draw, p, "since", _one("2020-01-01T00:00:00Z", "1970-01-01"))
        _maybe(draw, p, "until", _one("2100-01-01T00:00:00Z", "2099-12-31T23:59:59+01:00"))
        for flag in ("rerank", "explain", "include_hidden"):
            _maybe(draw, p, flag, st.booleans())
        _maybe(draw, p, "context", st.fixed_dictionaries({}, optional={
            "project": _one("omegad", "webapp"), "file": _one("src/app.py", "/abs/src/app.py", "README.md"),
            "language": _one("python", "rust"), "symbols": st.lists(_one("Client", "main", "store"), max_size=3)}))  # fmt: skip
    elif method == "list":
        _maybe(draw, p, "namespace", st.one_of(_one(FUZZ_NS, KEEP_NS), NS_OK))
        _maybe(draw, p, "types", st.lists(TYPE_OK, min_size=1, max_size=3))
        _maybe(draw, p, "tags", TAGS_OK.filter(bool))
        _maybe(draw, p, "since", _one("2020-01-01T00:00:00Z", "1970-01-01"))
        _maybe(draw, p, "until", _one("2100-01-01T00:00:00Z", "2099-12-31T23:59:59+01:00"))
        _maybe(draw, p, "limit", st.integers(1, 500))
        _maybe(draw, p, "include_hidden", st.booleans())
        if draw(st.booleans()):  # the next page of the last listing
            p["cursor"], p["order"] = Live("cursor"), Live("cursor_order")
        else:
            _maybe(draw, p, "order", _one("newest", "oldest"))
    elif method == "subscribe":
        p = {"topics": draw(st.lists(_one(*EVENT_TOPICS), min_size=1, max_size=4, unique=True))}
        _maybe(draw, p, "namespace", st.one_of(_one(FUZZ_NS, KEEP_NS), NS_OK))
    elif method == "unsubscribe":
        p = {"subscription": draw(st.one_of(st.just(Live("subscription")), st.integers(1, 2**40)))}
    elif method == "flush":
        _maybe(draw, p, "timeout", st.floats(0, 30))
    elif method == "cancel":
        p = {"request_id": draw(st.one_of(st.just(Live("before")), st.integers(0, 2**63 - 1)))}
    elif method == "contradictions":
        _maybe(draw, p, "namespace", st.one_of(_one(FUZZ_NS, KEEP_NS), NS_OK))
        _maybe(draw, p, "id", st.one_of(_one(*FUZZ_IDS, *KEEP_IDS), ID_NEW))
        _maybe(draw, p, "limit", st.integers(1, 1000))
    elif method in ("resolve", "unresolve"):
        if keep:
            p = {"source": "keep-1", "target": "keep-0"}
        else:
            pairs = st.tuples(_one(*FUZZ_IDS), _one(*FUZZ_IDS, *KEEP_IDS))
            resolved = st.just(FUZZ_EDGES[1]) if method == "unresolve" else _one(*FUZZ_EDGES)
            source, target = draw(st.one_of(resolved, resolved, pairs))
            if _chance(draw, 25):
                source, target = target, source
            p = {"source": source, "target": target}
        if method == "resolve":
            p["resolution"] = draw(_one(*RESOLUTIONS))
    elif method == "export":
        if draw(st.booleans()):  # the next page of an export in progress
            p = {"snapshot": Live("snapshot"), "namespace": Live("snapshot_ns"), "offset": Live("next")}
        else:
            _maybe(draw, p, "namespace", _one(FUZZ_NS, KEEP_NS, "default"))
        _maybe(draw, p, "limit", st.integers(1, 2000))
    elif method == "import":
        records = draw(st.lists(_record(), min_size=1, max_size=4))
        if keep:
            records.insert(draw(st.integers(0, len(records))), draw(_record(keep=True)))
        p = {"records": records}
        _maybe(draw, p, "model", st.just(Live("model")))
    return p


#: Writes that could change KEEP_NS when aimed at it.
KEEP_WRITES = ("store", "store_batch", "update", "delete", "query", "resolve", "unresolve", "feedback", "import")


def _unknown_key(draw: st.DrawFn, known: tuple[str, ...]) -> str:
    key: str = draw(_one(*(k for k in UNKNOWN_KEYS if k not in known)))
    return key


def _mutate(draw: st.DrawFn, params: dict[str, Any], method: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """One mutation of *params* (a copy): drop a key, set a field to a boundary or a random
    value, add an unknown key, or mutate one item of ``items`` / ``records`` likewise."""
    params = dict(params)
    nested = [k for k in ("items", "records") if isinstance(params.get(k), list) and params[k]]
    op = draw(_one("drop", "edge", "edge", "edge", "swap", "unknown", *(["nested"] * 3 if nested else [])))
    if op == "drop" and params:
        del params[draw(_one(*params))]
    elif op in ("edge", "swap") and fields:
        field = draw(_one(*fields))
        params[field] = draw(_values(method, field) if op == "edge" else SWAP)
    elif op == "nested":
        key = nested[0]
        items = list(params[key])
        k = draw(st.integers(0, len(items) - 1))
        if isinstance(items[k], dict):
            if key == "items":
                items[k] = _mutate(draw, items[k], "store", FIELDS["store"])
            else:
                names = EDGE_RECORD if items[k].get("record") == "edge" else MEMORY_RECORD
                items[k] = _mutate(draw, items[k], "import", names)
        params[key] = items
    else:
        params[_unknown_key(draw, fields)] = draw(SWAP)
    return params


@st.composite
def near_valid(draw: st.DrawFn, method: str) -> Case:
    """A well-formed request for *method* (valid id, the method's name, params a map) whose
    params are valid, or valid but for one to three mutations."""
    keep = method in KEEP_WRITES and _chance(draw, 10)
    params = draw(_valid(method, keep))
    fields = FIELDS[method]
    roll = draw(st.integers(0, 99))  # valid in about a quarter of the cases
    for _ in range(0 if roll < 25 else 1 if roll < 65 else 2 if roll < 85 else 3):
        params = _mutate(draw, params, method, fields)
    if keep:  # refused whatever else it holds
        params[_unknown_key(draw, fields)] = draw(SWAP)
    before = None
    if method == "cancel" and draw(st.booleans()):  # something in flight to cancel
        before = draw(near_valid(draw(_one("query", "store", "store_batch", "update", "flush", "import", "export"))))
    return Case(method, params, must_fail=keep, before=before)


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 120
_SHORT.maxlist, _SHORT.maxdict, _SHORT.maxlevel = 8, 12, 4


class NearValidRunner:
    """Sends near-valid cases over one Wire: fills in Live values, checks every reply (see
    `_well_formed`; a case that must fail fails; an existing id is never stored again) and
    counts outcomes per method."""

    def __init__(self, d: Daemon, wire: Wire) -> None:
        self.d = d
        self.wire = wire
        with d.client() as c:
            embedding = c.hello()["embedding"]
        self.model: str = embedding["model"]
        self.vector = _vector([1.0 / math.sqrt(embedding["dim"])] * embedding["dim"])
        #: Exports in progress: snapshot -> (namespace, next offset), oldest first.
        self.exports: dict[str, tuple[str | None, int]] = {}
        self.counts: collections.Counter[tuple[str, str]] = collections.Counter()
        self.sent = 0
        #: The id of the request sent before the current case (`Case.before`).
        self.before_id = 0
        #: The last `list` cursor (with its order) and the subscriptions open on the wire.
        self.cursor: tuple[str, str] | None = None
        self.subscriptions: list[int] = []

    def fill(self, value: Any) -> Any:
        if isinstance(value, Live):
            lease = next(reversed(self.exports.items()), None)
            if value.name == "model":
                return self.model
            if value.name in ("vector", "vector_b64"):
                return self.vector if value.name == "vector" else base64.b64encode(self.vector).decode()
            if value.name == "snapshot":
                return lease[0] if lease else "0123456789abcdef"
            if value.name == "snapshot_ns":
                return lease[1][0] if lease and lease[1][0] is not None else _ABSENT
            if value.name == "next":
                return lease[1][1] if lease else 0
            if value.name == "before":
                return self.before_id
            if value.name == "cursor":
                return self.cursor[0] if self.cursor else _ABSENT
            if value.name == "cursor_order":
                return self.cursor[1] if self.cursor else _ABSENT
            if value.name == "subscription":
                return self.subscriptions[-1] if self.subscriptions else 1
            raise AssertionError(value)
        if isinstance(value, dict):
            return {k: v for k, v in ((k, self.fill(v)) for k, v in value.items()) if v is not _ABSENT}
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        return value

    def run(self, case: Case) -> str:
        """Send one case (after `Case.before`, if any, without waiting in between); check the
        replies; returns the case's outcome: ``ok`` or the error code."""
        self.sent += 1
        if self.sent % REPLENISH_EVERY == 0:
            with self.d.client() as c:
                seed_fuzz(c)
        sent: list[tuple[Case, Any, int]] = []
        for one in [case.before, case] if case.before else [case]:
            params = self.fill(one.params)
            self.before_id = self.wire.send(one.method, params)
            sent.append((one, params, self.before_id))
        replies = [self.wire.receive() for _ in sent]
        by_id = {r.get("id"): r for r in replies if isinstance(r, dict)}
        outcome = ""
        for one, params, rid in sent:
            reply = by_id.get(rid) or next((r for r in replies if isinstance(r, dict) and r.get("id") is None), None)
            outcome = self._check(one, params, rid, reply)
        self.counts[case.method, outcome] += 1
        return outcome

    def _check(self, case: Case, params: Any, rid: int, reply: Any) -> str:
        where = f"request {{'v': 1, 'id': {rid}, 'method': {case.method!r}, 'params': {_SHORT.repr(params)}}}"
        if case.before is not None:
            where += f" sent right after request {rid - 1} ({case.before.method})"
        assert self.d.alive, f"daemon died on {where}\n{self.d.log()[-3000:]}"
        assert reply is not None, f"no reply (closed or timed out) to {where}"
        try:
            _well_formed(reply, rid)
            if case.must_fail:  # it names KEEP_NS memories and carries an unknown parameter
                assert reply["ok"] is False, "a write to the kept memories was not refused"
            if reply["ok"] and case.method in ("store", "store_batch"):
                items = params["items"] if case.method == "store_batch" else [params]
                created = reply["result"]["created"]
                created = created if isinstance(created, list) else [created]
                for item, flag in zip(items, created, strict=True):
                    assert not (item.get("id") in KEEP_IDS and flag), "an existing id was stored again"
            if reply["ok"]:
                self._read_back(case.method, params, reply["result"])
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{where}\nreply: {_SHORT.repr(reply)}") from None
        self.note(case.method, params, reply)
        return "ok" if reply["ok"] else str(reply["error"]["code"])

    def _read_back(self, method: str, params: Any, result: Any) -> None:
        """An accepted write reads back: `get` answers (some of) the memories it wrote."""
        if method == "store":
            ids = [result["id"]]
        elif method == "store_batch":
            ids = result["ids"]
        elif method == "update":
            ids = [params["id"]]
        elif method == "import":
            ids = [r["id"] for r in params["records"] if r.get("record") == "memory"]
        else:
            return
        for mid in list(dict.fromkeys(ids))[:8]:
            rid, reply = self.wire.request("get", {"id": mid})
            try:
                _well_formed(reply, rid)
                assert reply["ok"], "not found"
            except AssertionError as exc:
                raise AssertionError(f"then get {mid!r} (request {rid}) failed: {_SHORT.repr(reply)}") from exc

    def note(self, method: Any, params: Any, reply: Any) -> None:
        """Keep track of the exports in progress (from any well-formed reply on the wire), so
        that near-valid `export` calls can ask for their next pages and finish them."""
        if method == "list" and reply["ok"] and isinstance(params, dict):
            after = reply["result"]["next"]
            self.cursor = (after, params.get("order", "newest")) if after is not None else None
        if method == "subscribe" and reply["ok"]:
            self.subscriptions.append(reply["result"]["subscription"])
        if method == "unsubscribe" and reply["ok"] and params.get("subscription") in self.subscriptions:
            self.subscriptions.remove(params["subscription"])
        if method == "export" and reply["ok"] and isinstance(params, dict):
            snapshot, after = reply["result"]["snapshot"], reply["result"]["next"]
            self.exports.pop(snapshot, None)
            if after is not None:
                self.exports[snapshot] = (params.get("namespace"), after)


def seed_memories(c: Client) -> dict[str, dict[str, Any]]:
    """Store the memories the fuzzing must leave alone (KEEP_NS, with a contradiction between
    two of them) and the fuzzer's own (FUZZ_NS, with two contradictions, one resolved); returns
    the former as `get` answers."""
    texts = ["The deploy pipeline runs on merge", "Invoices are archived monthly", "Use ruff for linting"]
    for mid, text in zip(KEEP_IDS, texts, strict=True):
        c.store(text, namespace=KEEP_NS, id=mid)
    c.import_records([_edge_record("keep-1", "keep-0")])
    seed_fuzz(c)
    c.flush()  # annotations settled before the snapshot
    return {i: c.get(i) for i in KEEP_IDS}


def seed_fuzz(c: Client) -> None:
    """(Re)store the fuzzer's own memories FUZZ_IDS[:6] as they were first (an import: text,
    namespace... are put back) and their contradictions FUZZ_EDGES, the second resolved: valid
    writes keep finding something to act on."""
    memories = [
        {"record": "memory", "id": mid, "namespace": FUZZ_NS, "created_at": "2026-01-01T00:00:00Z",
         "text": f"Fuzz memory {mid}: the nightly build is {'green' if mid[-1] in '024' else 'red'}"}
        for mid in FUZZ_IDS[:6]
    ]  # fmt: skip
    edges = [_edge_record(*FUZZ_EDGES[0]), _edge_record(*FUZZ_EDGES[1], resolution="keep_new")]
    c.import_records([*memories, *edges])


def _edge_record(source: str, target: str, resolution: str | None = None) -> dict[str, Any]:
    return {"record": "edge", "kind": "contradicts", "source": source, "target": target, "confidence": 0.9,
            "resolution": resolution}  # fmt: skip


def check_kept(c: Client, before: dict[str, dict[str, Any]]) -> None:
    """The memories stored by `seed_memories` are unchanged, and KEEP_NS holds nothing else."""
    assert {i: c.get(i) for i in before} == before
    assert c.stats()["namespaces"][KEEP_NS]["total"] == len(before)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Daemon, dict[str, dict[str, Any]]]]:
    d = Daemon(tmp_path_factory.mktemp("fuzz"), config="[server]\nframe_timeout_s = 2.0\n").start()
    with d.client() as c:
        before = seed_memories(c)
    yield d, before
    _RUNNERS.pop(d.socket, None)
    wire = _WIRES.pop(d.socket, None)
    if wire is not None:
        wire.drop()
    with d.client() as c:  # what was stored before is unchanged, whatever came in between
        check_kept(c, before)
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


#: Near-valid cases per method (1,880 in all; bench/fuzz.py runs many more). A method added to
#: the registry fails `test_near_valid_params` until it has an entry here and in `_valid`.
NEAR_VALID_CASES = {
    "hello": 40, "ping": 40, "stats": 40, "maintain": 30, "flush": 80, "cancel": 80, "store": 160,
    "store_batch": 120, "get": 100, "update": 120, "delete": 100, "query": 160, "contradictions": 100,
    "traverse": 100, "resolve": 100, "unresolve": 80, "feedback": 100, "export": 120, "import": 150,
    "list": 120, "namespaces": 30, "subscribe": 60, "unsubscribe": 60, "history": 60,
}  # fmt: skip


@pytest.mark.parametrize("method", METHODS)
def test_near_valid_params(fuzzed: tuple[Daemon, dict[str, dict[str, Any]]], method: str) -> None:
    """Near-valid params for one method: well-formed replies, never `internal`, and most cases
    get past the envelope to the method's own checks (so this cannot decay into fuzzing the
    envelope alone)."""
    d, _ = fuzzed
    runner = _runner(d)
    outcomes: collections.Counter[str] = collections.Counter()

    @settings(
        max_examples=NEAR_VALID_CASES[method], deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
    )
    @given(case=near_valid(method))
    def fuzz(case: Case) -> None:
        outcomes[runner.run(case)] += 1

    fuzz()
    total = sum(outcomes.values())
    reached = total - sum(outcomes[code] for code in ENVELOPE_CODES)
    assert total >= NEAR_VALID_CASES[method] * 0.9, outcomes
    assert reached >= 0.5 * total, f"only {reached} of {total} cases reached {method}'s params checks: {outcomes}"
    # a cancel or an unresolve succeeds only when it finds a request in flight, a resolved edge
    least = 1 if method in ("cancel", "resolve", "unresolve", "unsubscribe") else 0.1 * total
    assert outcomes["ok"] >= least, f"too few valid {method} requests: {outcomes}"


_WIRES: dict[Path, Wire] = {}
_RUNNERS: dict[Path, NearValidRunner] = {}


def _wire(d: Daemon) -> Wire:
    if d.socket not in _WIRES:
        _WIRES[d.socket] = Wire(d.socket)
    return _WIRES[d.socket]


def _runner(d: Daemon) -> NearValidRunner:
    if d.socket not in _RUNNERS:
        _RUNNERS[d.socket] = NearValidRunner(d, _wire(d))
    return _RUNNERS[d.socket]
