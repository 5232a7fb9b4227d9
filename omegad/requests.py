"""Typed requests: what each method's handler receives once the RPC layer has read its params
map (`omegad.rpc.schema`), and the `list` cursor's format. Frozen, so a handler cannot change
what the caller sent.

A leaf module below the RPC layer and the service: it imports nothing from omegad, so the
service takes typed requests without importing the layer that parses them.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = [
    "DEFAULT_LIST_LIMIT",
    "DEFAULT_NAMESPACE",
    "DEFAULT_QUERY_LIMIT",
    "DEFAULT_TYPE",
    "EDGE_KINDS",
    "RESOLUTIONS",
    "CancelParams",
    "ContradictionsParams",
    "DeleteParams",
    "ExportParams",
    "FeedbackParams",
    "FlushParams",
    "GetParams",
    "HistoryParams",
    "ImportEdge",
    "ImportHistory",
    "ImportMemory",
    "ImportParams",
    "ListParams",
    "NoParams",
    "QueryContext",
    "QueryParams",
    "ResolveParams",
    "StoreBatchParams",
    "StoreParams",
    "SubscribeParams",
    "TraverseParams",
    "UnsubscribeParams",
    "UpdateParams",
]

#: Kinds of graph edges (``traverse`` filters on them).
EDGE_KINDS = ("contradicts", "duplicates")
#: Decisions about a contradiction (``resolve``).
RESOLUTIONS = ("keep_new", "keep_old", "both_valid")

DEFAULT_NAMESPACE = "default"
DEFAULT_TYPE = "memory"
DEFAULT_QUERY_LIMIT = 5
DEFAULT_LIST_LIMIT = 50


@dataclass(frozen=True)
class StoreParams:
    text: str
    type: str = DEFAULT_TYPE
    tags: tuple[str, ...] = ()
    namespace: str = DEFAULT_NAMESPACE
    metadata: Mapping[str, Any] | None = None
    created_at: datetime | None = None
    id: str | None = None
    # secrets replaced before anything else saw them: {"field", "kind", "start", "end"}
    redacted: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class StoreBatchParams:
    items: tuple[StoreParams, ...]


@dataclass(frozen=True)
class GetParams:
    id: str
    as_of: datetime | None = None  # the memory as it stood then


@dataclass(frozen=True)
class DeleteParams:
    id: str
    forget: bool = False  # erase its history too (no tombstone)


@dataclass(frozen=True)
class HistoryParams:
    id: str


@dataclass(frozen=True)
class UpdateParams:
    id: str
    text: str | None = None
    type: str | None = None
    tags: tuple[str, ...] | None = None
    metadata: Mapping[str, Any] | None = None
    redacted: tuple[Mapping[str, Any], ...] = ()  # as for `StoreParams`


@dataclass(frozen=True)
class QueryParams:
    text: str
    limit: int = DEFAULT_QUERY_LIMIT
    namespace: str = DEFAULT_NAMESPACE
    types: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    since: datetime | None = None
    until: datetime | None = None
    rerank: bool = True
    explain: bool = False
    include_hidden: bool = False
    context: QueryContext | None = None
    as_of: datetime | None = None  # the answer as the store stood then
    include_duplicates: bool = False  # every member of a near-duplicate group, not the newest
    max_tokens: int | None = None  # results in rank order while their texts fit this many tokens
    min_score: float | None = None  # the relevance floor for this query (None: the configured one)


@dataclass(frozen=True)
class QueryContext:
    """Where the caller works (an editor's file, an agent's project): boosts, never filters."""

    project: str | None = None
    file: str | None = None
    language: str | None = None
    symbols: tuple[str, ...] = ()


@dataclass(frozen=True)
class ListParams:
    namespace: str = DEFAULT_NAMESPACE
    types: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    since: datetime | None = None
    until: datetime | None = None
    newest_first: bool = True
    after: tuple[int, str] | None = None  # the cursor: (created_at µs, id) of the last one listed
    limit: int = DEFAULT_LIST_LIMIT
    include_hidden: bool = False


@dataclass(frozen=True)
class SubscribeParams:
    topics: tuple[str, ...]
    namespace: str | None = None


@dataclass(frozen=True)
class UnsubscribeParams:
    subscription: int


@dataclass(frozen=True)
class ExportParams:
    namespace: str | None
    snapshot: str | None
    offset: int
    limit: int


@dataclass(frozen=True)
class ImportMemory:
    memory: StoreParams  # with its id
    version: int
    vector: bytes | None  # float32 little-endian, as exported
    feedback: float | None
    ratings: int
    accesses: int


@dataclass(frozen=True)
class ImportEdge:
    kind: str
    source: str
    target: str
    confidence: float
    signals: tuple[dict[str, Any], ...]
    created_at: datetime | None
    resolution: str | None
    resolved_at: datetime | None


@dataclass(frozen=True)
class ImportHistory:
    """A record of an export's history (`omegad.app.history`): fields as the table has them."""

    kind: str
    memory_id: str
    other_id: str
    namespace: str
    valid_to: int  # µs
    data: Mapping[str, Any]
    vector: bytes | None
    redacted: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class ImportParams:
    model: str | None
    memories: tuple[ImportMemory, ...]
    edges: tuple[ImportEdge, ...]
    history: tuple[ImportHistory, ...] = ()


@dataclass(frozen=True)
class FeedbackParams:
    id: str
    score: float


@dataclass(frozen=True)
class ContradictionsParams:
    namespace: str | None = None
    id: str | None = None
    limit: int = 50


@dataclass(frozen=True)
class TraverseParams:
    id: str
    kinds: tuple[str, ...] | None = None
    depth: int = 1


@dataclass(frozen=True)
class ResolveParams:
    source: str
    target: str
    resolution: str | None  # None: unresolve


@dataclass(frozen=True)
class FlushParams:
    timeout: float | None = None


@dataclass(frozen=True)
class CancelParams:
    request_id: int


@dataclass(frozen=True)
class NoParams:
    pass


def encode_cursor(created_at_us: int, memory_id: str, newest_first: bool) -> str:
    """An opaque `list` cursor: the order, then the position of the last memory listed."""
    raw = f"{'n' if newest_first else 'o'}:{created_at_us}:{memory_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def split_cursor(value: str) -> tuple[bool, int, str]:
    """(newest first, created_at, memory id) of a cursor from `encode_cursor`. Raises
    ValueError when *value* is not one."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
        order, stamp, memory_id = raw.split(":", 2)
        created = int(stamp)
    except (ValueError, UnicodeDecodeError):
        raise ValueError("not a cursor from list") from None
    if order not in ("n", "o"):
        raise ValueError("not a cursor from list")
    return order == "n", created, memory_id
