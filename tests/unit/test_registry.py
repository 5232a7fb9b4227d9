"""The method registry: the same methods as the client's protocol, each row's params keys what
its parser reads and what docs/protocol.md lists, and its access rule applied by dispatch."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import anyio
import pytest

from omegad.app.service import Service
from omegad.config import Config
from omegad.errors import Forbidden, InvalidParams, TooLarge
from omegad.grants import Grant, Peer
from omegad.rpc.access import Access
from omegad.rpc.dispatch import Dispatcher
from omegad.rpc.registry import REGISTRY, Rule, parse_params
from omegad_client.protocol import METHODS

REPO = Path(__file__).resolve().parents[2]
CFG = Config()

#: The least each method needs to parse (methods not here need nothing).
MINIMAL: dict[str, dict[str, Any]] = {
    "store": {"text": "x"},
    "store_batch": {"items": [{"text": "x"}]},
    "get": {"id": "a"},
    "update": {"id": "a"},
    "delete": {"id": "a"},
    "query": {"text": "q"},
    "cancel": {"request_id": 1},
    "traverse": {"id": "a"},
    "resolve": {"source": "a", "target": "b", "resolution": "keep_new"},
    "unresolve": {"source": "a", "target": "b"},
    "feedback": {"id": "a", "score": 0.5},
    "import": {"records": [{"record": "memory", "id": "a", "text": "x"}]},
    "subscribe": {"topics": ["stored"]},
    "unsubscribe": {"subscription": 1},
    "history": {"id": "a"},
}


def test_the_registry_has_the_clients_methods_in_order() -> None:
    assert tuple(REGISTRY) == METHODS
    assert all(name == method.name for name, method in REGISTRY.items())


def test_only_the_connections_own_methods_have_no_handler() -> None:
    assert {name for name, m in REGISTRY.items() if m.handler is None} == {"cancel", "subscribe", "unsubscribe"}


@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_parser_reads_exactly_the_rows_params(name: str) -> None:
    """A key of the row, sent as nil (absent), is read; any other key is refused as unknown."""
    method = REGISTRY[name]
    base = MINIMAL.get(name, {})
    assert set(base) <= set(method.params)
    parse_params(name, base, CFG)
    for key in method.params:
        if key not in base:
            parse_params(name, {**base, key: None}, CFG)
    others = {k for m in REGISTRY.values() for k in m.params} - set(method.params)
    for key in sorted(others | {"bogus", "params"}):
        with pytest.raises(InvalidParams) as exc:
            parse_params(name, {**base, key: None}, CFG)
        assert exc.value.data.get("unknown") == [key], (key, exc.value.message)


def test_every_param_is_in_the_protocol_doc() -> None:
    doc = (REPO / "docs" / "protocol.md").read_text()
    for name, method in REGISTRY.items():
        row = re.search(rf"^\| `{name}` \| (.*?) \|", doc, re.MULTILINE)
        assert row, name
        cell = row.group(1)
        if not method.params:
            assert cell == "—", name
        for key in method.params:
            assert f"`{key}`" in cell or f"`{key}?`" in cell, (name, key)


class _Namespaces:
    """What `Dispatcher.authorize` asks the service: the namespace of each id."""

    def __init__(self, of: dict[str, str]) -> None:
        self.of = of

    async def namespaces_of(self, ids: list[str]) -> dict[str, str]:
        return {i: self.of[i] for i in ids if i in self.of}


OWNER = 1000
READER = Peer(uid=2000, gid=2000)
WRITER = Peer(uid=3000, gid=3000)


def _authorize(peer: Peer, name: str, raw: dict[str, Any]) -> str:
    grants = (
        Grant(frozenset({READER.uid}), frozenset(), ("shared",), False),
        Grant(frozenset({WRITER.uid}), frozenset(), ("shared",), True),
    )
    service = _Namespaces({"s1": "shared", "s2": "shared", "p1": "private"})
    dispatcher = Dispatcher(cast(Service, service), CFG, Access(grants, owner_uid=OWNER))
    method = REGISTRY[name]

    async def check() -> str:
        try:
            await dispatcher.authorize(method, parse_params(name, raw, CFG), peer)
        except Forbidden:
            return "forbidden"
        return "ok"

    return anyio.run(check)


@pytest.mark.parametrize(
    "name, raw, reader, writer",
    [
        ("ping", {}, "ok", "ok"),
        ("namespaces", {}, "ok", "ok"),
        ("stats", {}, "forbidden", "forbidden"),
        ("export", {"namespace": "shared"}, "forbidden", "forbidden"),
        ("query", {"text": "q", "namespace": "shared"}, "ok", "ok"),
        ("query", {"text": "q", "namespace": "private"}, "forbidden", "forbidden"),
        ("get", {"id": "s1"}, "ok", "ok"),
        ("get", {"id": "p1"}, "forbidden", "forbidden"),
        ("get", {"id": "missing"}, "ok", "ok"),  # (then not_found, as for the owner)
        ("store", {"text": "x", "namespace": "shared"}, "forbidden", "ok"),
        ("store_batch", {"items": [{"text": "x", "namespace": "shared"}, {"text": "y"}]}, "forbidden", "forbidden"),
        ("update", {"id": "s1", "text": "y"}, "forbidden", "ok"),
        ("resolve", {"source": "s1", "target": "s2", "resolution": "keep_new"}, "forbidden", "ok"),
        ("unresolve", {"source": "s1", "target": "p1"}, "forbidden", "forbidden"),
        ("contradictions", {}, "forbidden", "forbidden"),
        ("contradictions", {"namespace": "shared"}, "ok", "ok"),
        ("contradictions", {"id": "p1"}, "forbidden", "forbidden"),
        ("subscribe", {"topics": ["stored"]}, "ok", "ok"),
        ("subscribe", {"topics": ["stored"], "namespace": "private"}, "forbidden", "forbidden"),
    ],
)
def test_access_rules(name: str, raw: dict[str, Any], reader: str, writer: str) -> None:
    assert (_authorize(READER, name, raw), _authorize(WRITER, name, raw)) == (reader, writer)
    assert _authorize(Peer(uid=OWNER, gid=-1), name, raw) == "ok"


def test_every_rule_is_exercised() -> None:
    assert {m.rule for m in REGISTRY.values()} == set(Rule)


def test_limits_come_from_the_config_the_reader_carries() -> None:
    small = Config(max_batch_items=2)
    with pytest.raises(TooLarge):
        parse_params("store_batch", {"items": [{"text": "x"}] * 3}, small)
    parse_params("store_batch", {"items": [{"text": "x"}] * 2}, small)
