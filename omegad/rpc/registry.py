"""The RPC methods, one row each: what a method is called, which params keys it takes, how
they are parsed, who may call it, which namespaces a call touches and which handler answers
it. Dispatch, the access check, the connection and the fuzz tests all read these rows, so
adding a method is adding a row here (and its parser and handler).

The rows are in the order of ``omegad_client.protocol.METHODS``; a unit test keeps the two
lists equal (the client stays msgpack-only and does not import the daemon).
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from omegad.app import admin, exports, graph, memories, query, stats
from omegad.app.service import Service
from omegad.config import Config
from omegad.errors import Forbidden
from omegad.requests import ContradictionsParams
from omegad.rpc import schema, screen
from omegad.rpc.fields import Reader, params_map

__all__ = ["REGISTRY", "Method", "Rule", "Scope", "parse_params"]

P = TypeVar("P")


class Rule(enum.Enum):
    """Who may call a method (besides the daemon's owner, who may call every method)."""

    #: Any connected peer: it reads or changes nobody's memories.
    OPEN = "open"
    #: A peer that may read every namespace the call touches (`Method.scope`).
    READ = "read"
    #: A peer that may write every namespace the call touches.
    WRITE = "write"
    #: The owner alone: the method spans every namespace.
    OWNER = "owner"


@dataclass(frozen=True)
class Scope:
    """What a call touches: the namespaces it names, and memories by id (whose namespaces the
    access check looks up; an id that does not exist touches nothing)."""

    namespaces: frozenset[str] = frozenset()
    ids: tuple[str, ...] = ()


def named(namespace: str | None) -> Scope:
    return Scope(frozenset() if namespace is None else frozenset({namespace}))


def of_memories(*ids: str) -> Scope:
    return Scope(ids=ids)


#: What a non-owner sees of a result, given which namespaces it may read.
Redact = Callable[[dict[str, Any], Callable[[str], bool]], dict[str, Any]]


@dataclass(frozen=True)
class Method(Generic[P]):
    """One RPC method. ``P`` is its typed params: what `parse` returns and `handler` takes."""

    name: str
    #: The keys of its params map (docs/protocol.md, "Methods"); others are refused.
    params: tuple[str, ...]
    #: Reads the params map into typed params; raises InvalidParams / TooLarge.
    parse: Callable[[Reader], P]
    #: The service method that answers it; None for the methods a connection answers itself
    #: (they act on that connection, not on memories: `omegad.rpc.server.Connection`).
    handler: Callable[[Service, P], Awaitable[dict[str, Any]]] | None
    rule: Rule
    #: For READ and WRITE: what a call touches. May raise Forbidden for a call that only the
    #: owner may make (a listing across namespaces).
    scope: Callable[[P], Scope] | None = None
    #: Filters the result for a non-owner (a listing of namespaces shows only the readable).
    redact: Redact | None = None

    def __post_init__(self) -> None:
        if (self.rule in (Rule.READ, Rule.WRITE)) != (self.scope is not None):
            raise ValueError(f"{self.name}: a scope is what READ and WRITE check, and only they")

    def read(self, raw: Any, config: Config) -> P:
        """Parse *raw* (the request's params) into typed params."""
        return self.parse(Reader(params_map(raw, "params"), config))


def _contradictions_scope(p: ContradictionsParams) -> Scope:
    if p.id is not None:
        return of_memories(p.id)
    if p.namespace is None:
        raise Forbidden("listing contradictions of every namespace is the owner's; name a namespace")
    return named(p.namespace)


async def _stats(svc: Service, p: Any) -> dict[str, Any]:
    """The service's figures, and what the secret screen (which runs while requests are parsed,
    in this layer) has seen."""
    return {**await stats.stats(svc, p), "secrets": {"on_detect": svc.config.secrets_on_detect, **screen.figures()}}


def _readable_namespaces(result: dict[str, Any], may_read: Callable[[str], bool]) -> dict[str, Any]:
    return {**result, "namespaces": [n for n in result["namespaces"] if may_read(n["name"])]}


_STORE_KEYS = ("text", "type", "tags", "namespace", "metadata", "created_at", "id")
_QUERY_KEYS = ("text", "limit", "namespace", "types", "tags", "since", "until", "rerank", "explain",
               "include_hidden", "context", "as_of", "include_duplicates", "max_tokens", "min_score")  # fmt: skip
_LIST_KEYS = ("namespace", "types", "tags", "since", "until", "order", "cursor", "limit", "include_hidden")

_ROWS = (
    Method("hello", (), schema.no_params, admin.hello, Rule.OPEN),
    Method("ping", (), schema.no_params, admin.ping, Rule.OPEN),
    Method("store", _STORE_KEYS, schema.store, memories.store_one, Rule.WRITE, lambda p: named(p.namespace)),
    Method(
        "store_batch",
        ("items",),
        schema.store_batch,
        memories.store_batch,
        Rule.WRITE,
        lambda p: Scope(frozenset(item.namespace for item in p.items)),
    ),
    Method("get", ("id", "as_of"), schema.get, memories.get, Rule.READ, lambda p: of_memories(p.id)),
    Method(
        "update",
        ("id", "text", "type", "tags", "metadata"),
        schema.update,
        memories.update,
        Rule.WRITE,
        lambda p: of_memories(p.id),
    ),
    Method("delete", ("id", "forget"), schema.delete, memories.delete, Rule.WRITE, lambda p: of_memories(p.id)),
    Method("query", _QUERY_KEYS, schema.query, query.query, Rule.READ, lambda p: named(p.namespace)),
    Method("stats", (), schema.no_params, _stats, Rule.OWNER),
    Method("flush", ("timeout",), schema.flush, admin.flush, Rule.OPEN),
    Method("cancel", ("request_id",), schema.cancel, None, Rule.OPEN),
    Method(
        "contradictions",
        ("namespace", "id", "limit"),
        schema.contradictions,
        graph.contradictions,
        Rule.READ,
        _contradictions_scope,
    ),
    Method(
        "traverse", ("id", "kinds", "depth"), schema.traverse, graph.traverse, Rule.READ, lambda p: of_memories(p.id)
    ),
    Method(
        "resolve",
        ("source", "target", "resolution"),
        schema.resolve,
        graph.resolve,
        Rule.WRITE,
        lambda p: of_memories(p.source, p.target),
    ),
    Method(
        "unresolve",
        ("source", "target"),
        schema.unresolve,
        graph.resolve,
        Rule.WRITE,
        lambda p: of_memories(p.source, p.target),
    ),
    Method("maintain", (), schema.no_params, admin.maintain, Rule.OWNER),
    Method("feedback", ("id", "score"), schema.feedback, memories.feedback, Rule.WRITE, lambda p: of_memories(p.id)),
    Method("export", ("namespace", "snapshot", "offset", "limit"), schema.export, exports.export, Rule.OWNER),
    Method("import", ("records", "model"), schema.import_, exports.import_, Rule.OWNER),
    Method("list", _LIST_KEYS, schema.list_, memories.list_memories, Rule.READ, lambda p: named(p.namespace)),
    Method("namespaces", (), schema.no_params, memories.namespaces, Rule.OPEN, redact=_readable_namespaces),
    # events are filtered per subscriber by what it may read; a namespace it names is checked here
    Method("subscribe", ("topics", "namespace"), schema.subscribe, None, Rule.READ, lambda p: named(p.namespace)),
    Method("unsubscribe", ("subscription",), schema.unsubscribe, None, Rule.OPEN),
    Method("history", ("id",), schema.history, memories.history, Rule.READ, lambda p: of_memories(p.id)),
)

#: Every method by name, in protocol order.
REGISTRY: Mapping[str, Method[Any]] = {m.name: m for m in _ROWS}


def parse_params(method: str, raw: Any, config: Config) -> Any:
    """Parse the params of *method* (a name in `REGISTRY`); raises InvalidParams / TooLarge."""
    return REGISTRY[method].read(raw, config)
