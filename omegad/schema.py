"""Typed request parameters: every method's params map is parsed here into a frozen dataclass,
or rejected with `invalid_params` / `too_large` naming the offending key. Unknown keys are
rejected too, so a typo never silently does nothing."""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from omegad_client.protocol import MEMORY_TYPES

from .config import Config
from .errors import InvalidParams, TooLarge

#: Kinds of graph edges (``traverse`` filters on them).
EDGE_KINDS = ("contradicts",)
#: Decisions about a contradiction (``resolve``).
RESOLUTIONS = ("keep_new", "keep_old", "both_valid")

__all__ = [
    "CancelParams",
    "FlushParams",
    "IdParams",
    "QueryParams",
    "StoreBatchParams",
    "StoreParams",
    "UpdateParams",
    "parse_params",
]

DEFAULT_NAMESPACE = "default"
DEFAULT_TYPE = "memory"
DEFAULT_QUERY_LIMIT = 5
DEFAULT_LIST_LIMIT = 50
MAX_LIST_LIMIT = 500
MAX_CONTEXT_CHARS = 512
MAX_CONTEXT_SYMBOLS = 32
#: What `subscribe` can ask for (docs/protocol.md, "subscribe / unsubscribe").
EVENT_TOPICS = ("contradiction", "stored", "updated", "deleted")
MAX_TAGS = 32
MAX_TAG_CHARS = 64
MAX_METADATA_DEPTH = 8

# Identifiers: printable ASCII without quotes, spaces or backslashes (they end up in storage
# filters, which are escaped anyway; the charset keeps them unambiguous in logs and CLIs).
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/+\-]{0,127}")
NAMESPACE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/\-]{0,127}")


@dataclass(frozen=True)
class StoreParams:
    text: str
    type: str = DEFAULT_TYPE
    tags: tuple[str, ...] = ()
    namespace: str = DEFAULT_NAMESPACE
    metadata: Mapping[str, Any] | None = None
    created_at: datetime | None = None
    id: str | None = None


@dataclass(frozen=True)
class StoreBatchParams:
    items: tuple[StoreParams, ...]


@dataclass(frozen=True)
class IdParams:
    id: str


@dataclass(frozen=True)
class UpdateParams:
    id: str
    text: str | None = None
    type: str | None = None
    tags: tuple[str, ...] | None = None
    metadata: Mapping[str, Any] | None = None


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
class ImportParams:
    model: str | None
    memories: tuple[ImportMemory, ...]
    edges: tuple[ImportEdge, ...]


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


def _kind(value: Any) -> str:
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, bytes):
        return "bin (text must be sent as msgpack str)"
    return {int: "int", float: "float", str: "str", list: "array", dict: "map"}.get(type(value), type(value).__name__)


class _Reader:
    """Takes keys out of a params map one by one; `done()` rejects whatever is left."""

    def __init__(self, params: Mapping[str, Any], config: Config, where: str = "params") -> None:
        self.params = dict(params)
        self.config = config
        self.where = where

    def _fail(self, key: str, message: str) -> InvalidParams:
        return InvalidParams(f"{self.where}.{key}: {message}", {"param": f"{self.where}.{key}"})

    def take(self, key: str) -> Any:
        return self.params.pop(key, None)

    def text(self, key: str, *, required: bool) -> str | None:
        value = self.take(key)
        if value is None:
            if required:
                raise self._fail(key, "is required")
            return None
        if not isinstance(value, str):
            raise self._fail(key, f"expected str, got {_kind(value)}")
        if not value.strip():
            raise self._fail(key, "must not be empty")
        if "\x00" in value:
            raise self._fail(key, "must not contain NUL characters")
        if len(value) > self.config.max_text_chars:
            raise TooLarge(
                f"{self.where}.{key}: {len(value)} characters exceeds the limit of {self.config.max_text_chars}",
                {"param": f"{self.where}.{key}", "limit": self.config.max_text_chars},
            )
        return value

    def ident(self, key: str, *, required: bool, pattern: re.Pattern[str] = ID_RE, what: str = "id") -> str | None:
        value = self.take(key)
        if value is None:
            if required:
                raise self._fail(key, "is required")
            return None
        if not isinstance(value, str):
            raise self._fail(key, f"expected str, got {_kind(value)}")
        if not pattern.fullmatch(value):
            raise self._fail(
                key,
                f"invalid {what} {value[:80]!r}: 1-128 characters, letters, digits and . _ : @ / -"
                + (" +" if pattern is ID_RE else "")
                + ", starting with a letter or digit",
            )
        return value

    def mem_type(self, key: str) -> str | None:
        value = self.take(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self._fail(key, f"expected str, got {_kind(value)}")
        if value not in MEMORY_TYPES:
            raise self._fail(key, f"unknown type {value[:40]!r}; one of: {', '.join(MEMORY_TYPES)}")
        return value

    def type_list(self, key: str) -> tuple[str, ...] | None:
        value = self.take(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise self._fail(key, f"expected array of str, got {_kind(value)}")
        if not value or len(value) > len(MEMORY_TYPES):
            raise self._fail(key, f"expected 1 to {len(MEMORY_TYPES)} types")
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or item not in MEMORY_TYPES:
                raise self._fail(f"{key}[{i}]", f"unknown type {item!r}; one of: {', '.join(MEMORY_TYPES)}")
            if item not in out:
                out.append(item)
        return tuple(out)

    def tags(self, key: str) -> tuple[str, ...] | None:
        value = self.take(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise self._fail(key, f"expected array of str, got {_kind(value)}")
        if len(value) > MAX_TAGS:
            raise self._fail(key, f"at most {MAX_TAGS} tags, got {len(value)}")
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self._fail(f"{key}[{i}]", f"expected str, got {_kind(item)}")
            tag = item.strip()
            if not tag or len(tag) > MAX_TAG_CHARS or any(ord(c) < 32 for c in tag):
                raise self._fail(f"{key}[{i}]", f"a tag is 1-{MAX_TAG_CHARS} printable characters")
            if tag not in out:
                out.append(tag)
        return tuple(out)

    def metadata(self, key: str) -> Mapping[str, Any] | None:
        value = self.take(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self._fail(key, f"expected map, got {_kind(value)}")
        # Every JSON value takes at least one byte: more nodes than the byte limit is too
        # large, found in O(limit) before anything more expensive runs on the event loop.
        if _count_nodes(value, self.config.max_metadata_bytes) > self.config.max_metadata_bytes:
            raise TooLarge(
                f"{self.where}.{key}: metadata exceeds the limit of {self.config.max_metadata_bytes} bytes",
                {"param": f"{self.where}.{key}", "limit": self.config.max_metadata_bytes},
            )
        _check_json_value(value, f"{self.where}.{key}", 0)
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        if size > self.config.max_metadata_bytes:
            raise TooLarge(
                f"{self.where}.{key}: {size} bytes of metadata exceeds the limit of {self.config.max_metadata_bytes}",
                {"param": f"{self.where}.{key}", "limit": self.config.max_metadata_bytes},
            )
        return value

    def time(self, key: str) -> datetime | None:
        value = self.take(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self._fail(key, f"expected an ISO-8601 str, got {_kind(value)}")
        return parse_time(value, lambda msg: self._fail(key, msg))

    def integer(self, key: str, default: int, lo: int, hi: int) -> int:
        value = self.take(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(key, f"expected int, got {_kind(value)}")
        if not lo <= value <= hi:
            raise self._fail(key, f"must be between {lo} and {hi}, got {value}")
        return value

    def number(self, key: str, lo: float, hi: float) -> float | None:
        value = self.take(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self._fail(key, f"expected a number, got {_kind(value)}")
        if not (math.isfinite(value) and lo <= value <= hi):
            raise self._fail(key, f"must be between {lo} and {hi}, got {value}")
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.take(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self._fail(key, f"expected bool, got {_kind(value)}")
        return value

    def done(self) -> None:
        if self.params:
            first = [k if isinstance(k, str) else repr(k) for k in list(self.params)[:10]]
            names = ", ".join(repr(k)[:60] for k in first)
            raise InvalidParams(f"{self.where}: unknown parameter(s) {names}", {"unknown": [k[:60] for k in first]})


def parse_time(value: str, fail: Any) -> datetime:
    """Parse ISO-8601 text into an aware UTC datetime (naive times are taken as UTC)."""
    if len(value) > 64:
        raise fail("not an ISO-8601 time")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise fail(f"not an ISO-8601 time: {value[:64]!r}") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        parsed = parsed.astimezone(UTC)
    except OverflowError:
        raise fail(f"time out of range: {value[:64]!r}") from None
    if parsed.year < 1970:
        raise fail(f"time before 1970: {value[:64]!r}")
    return parsed


def _count_nodes(value: Any, budget: int) -> int:
    """Number of values inside *value*; counting stops just past *budget*."""
    count = 0
    stack = [value]
    while stack and count <= budget:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            count += len(item)  # keys
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _check_json_value(value: Any, where: str, depth: int) -> None:
    if depth > MAX_METADATA_DEPTH:
        raise InvalidParams(f"{where}: nested deeper than {MAX_METADATA_DEPTH} levels", {"param": where})
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise InvalidParams(f"{where}: integer out of the 64-bit range", {"param": where})
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidParams(f"{where}: NaN and infinities are not allowed", {"param": where})
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check_json_value(item, f"{where}[{i}]", depth + 1)
        return
    if isinstance(value, dict):
        for k, item in value.items():
            if not isinstance(k, str):
                raise InvalidParams(f"{where}: map keys must be str", {"param": where})
            _check_json_value(item, f"{where}.{k}", depth + 1)
        return
    raise InvalidParams(f"{where}: {_kind(value)} is not allowed (JSON-like values only)", {"param": where})


def _store(r: _Reader) -> StoreParams:
    text = r.text("text", required=True)
    assert text is not None
    params = StoreParams(
        text=text,
        type=r.mem_type("type") or DEFAULT_TYPE,
        tags=r.tags("tags") or (),
        namespace=r.ident("namespace", required=False, pattern=NAMESPACE_RE, what="namespace") or DEFAULT_NAMESPACE,
        metadata=r.metadata("metadata"),
        created_at=r.time("created_at"),
        id=r.ident("id", required=False),
    )
    r.done()
    return params


def _import_memory(r: _Reader) -> ImportMemory:
    version = r.integer("version", 1, 1, 2**31 - 1)
    vector = r.take("vector")
    if isinstance(vector, str):
        try:
            vector = base64.b64decode(vector, validate=True)
        except (ValueError, binascii.Error):
            raise r._fail("vector", "not base64") from None
    if vector is not None and not isinstance(vector, bytes):
        raise r._fail("vector", f"expected base64 text or bytes, got {_kind(vector)}")
    if vector is not None and (len(vector) % 4 or len(vector) > 65536):
        raise r._fail("vector", "expected float32 values (at most 16384)")
    bound = r.config.feedback_bound
    feedback = r.number("feedback", -bound, bound)
    ratings = r.integer("ratings", 0, 0, 2**31 - 1)
    accesses = r.integer("accesses", 0, 0, 2**62)
    r.time("updated_at")  # informative: an import is a new commit
    memory = _store(r)  # text, type, tags, namespace, metadata, created_at, id; rejects the rest
    if memory.id is None:
        raise r._fail("id", "required")
    return ImportMemory(memory, version, vector, feedback, ratings, accesses)


def _import_edge(r: _Reader) -> ImportEdge:
    kind = r.take("kind")
    if kind not in EDGE_KINDS:
        raise r._fail("kind", f"expected one of {', '.join(EDGE_KINDS)}")
    source = r.ident("source", required=True)
    target = r.ident("target", required=True)
    confidence = r.number("confidence", 0.0, 1.0)
    signals = r.take("signals") or []
    if not isinstance(signals, list) or len(signals) > 16 or not all(isinstance(s, dict) for s in signals):
        raise r._fail("signals", "expected an array of at most 16 maps")
    try:
        too_big = len(json.dumps(signals, default=str)) > 4096
    except (TypeError, ValueError):
        raise r._fail("signals", "expected maps with text keys") from None
    if too_big:
        raise r._fail("signals", "too large")
    resolution = r.take("resolution")
    if resolution is not None and resolution not in RESOLUTIONS:
        raise r._fail("resolution", f"expected one of {', '.join(RESOLUTIONS)} or null")
    edge = ImportEdge(
        kind=kind,
        source=source or "",
        target=target or "",
        confidence=confidence if confidence is not None else 0.0,
        signals=tuple(signals),
        created_at=r.time("created_at"),
        resolution=resolution,
        resolved_at=r.time("resolved_at"),
    )
    for informative in ("id", "namespace", "source_version", "target_version"):
        r.take(informative)  # recomputed on import
    r.done()
    return edge


def _params_map(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InvalidParams(f"{where}: expected map, got {_kind(value)}", {"param": where})
    return value


def _short_text(r: _Reader, key: str, value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise r._fail(where, f"expected str, got {_kind(value)}")
    if not value.strip() or len(value) > MAX_CONTEXT_CHARS or "\x00" in value:
        raise r._fail(where, f"must be 1-{MAX_CONTEXT_CHARS} characters, not blank, no NUL")
    return value


def _context(r: _Reader) -> QueryContext | None:
    value = r.take("context")
    if value is None:
        return None
    if not isinstance(value, dict):
        raise r._fail("context", f"expected map, got {_kind(value)}")
    c = _Reader(value, r.config, f"{r.where}.context")
    fields = {k: c.take(k) for k in ("project", "file", "language")}
    symbols = c.take("symbols")
    c.done()
    out = {k: _short_text(c, k, v, k) for k, v in fields.items() if v is not None}
    syms: tuple[str, ...] = ()
    if symbols is not None:
        if not isinstance(symbols, list):
            raise c._fail("symbols", f"expected array of str, got {_kind(symbols)}")
        if len(symbols) > MAX_CONTEXT_SYMBOLS:
            raise c._fail("symbols", f"at most {MAX_CONTEXT_SYMBOLS} symbols, got {len(symbols)}")
        syms = tuple(dict.fromkeys(_short_text(c, "symbols", v, f"symbols[{i}]") for i, v in enumerate(symbols)))
    return QueryContext(out.get("project"), out.get("file"), out.get("language"), syms)


def _list(r: _Reader, config: Config) -> ListParams:
    order = r.take("order")
    if order is not None and order not in ("newest", "oldest"):
        raise r._fail(
            "order",
            f"expected 'newest' or 'oldest', got {_kind(order) if not isinstance(order, str) else repr(order[:40])}",
        )
    newest = order != "oldest"
    cursor = r.take("cursor")
    after = None
    if cursor is not None:
        after = decode_cursor(cursor, newest, lambda msg: r._fail("cursor", msg))
    p = ListParams(
        namespace=r.ident("namespace", required=False, pattern=NAMESPACE_RE, what="namespace") or DEFAULT_NAMESPACE,
        types=r.type_list("types"),
        tags=r.tags("tags") or None,
        since=r.time("since"),
        until=r.time("until"),
        newest_first=newest,
        after=after,
        limit=r.integer("limit", DEFAULT_LIST_LIMIT, 1, MAX_LIST_LIMIT),
        include_hidden=r.boolean("include_hidden", False),
    )
    r.done()
    if p.since and p.until and p.since > p.until:
        raise InvalidParams("params.since is after params.until", {"param": "params.since"})
    return p


def encode_cursor(created_at_us: int, memory_id: str, newest_first: bool) -> str:
    """An opaque `list` cursor: the order, then the position of the last memory listed."""
    raw = f"{'n' if newest_first else 'o'}:{created_at_us}:{memory_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(value: Any, newest_first: bool, fail: Any) -> tuple[int, str]:
    if not isinstance(value, str) or not 1 <= len(value) <= 400:
        raise fail("not a cursor from list")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
        order, stamp, memory_id = raw.split(":", 2)
        created = int(stamp)
    except (ValueError, UnicodeDecodeError):
        raise fail("not a cursor from list") from None
    if order not in ("n", "o") or not ID_RE.fullmatch(memory_id) or not 0 <= created < 2**63:
        raise fail("not a cursor from list")
    if (order == "n") != newest_first:
        raise fail(f"this cursor pages {'newest' if order == 'n' else 'oldest'} first: pass the same order")
    return created, memory_id


def _subscribe(r: _Reader) -> SubscribeParams:
    topics = r.take("topics")
    namespace = r.ident("namespace", required=False, pattern=NAMESPACE_RE, what="namespace")
    r.done()
    if not isinstance(topics, list) or not topics:
        raise r._fail("topics", f"expected a non-empty array of {', '.join(EVENT_TOPICS)}")
    if len(topics) > len(EVENT_TOPICS) or len(set(map(repr, topics))) != len(topics):
        raise r._fail("topics", "each topic at most once")
    for i, t in enumerate(topics):
        if t not in EVENT_TOPICS:
            raise r._fail(f"topics[{i}]", f"unknown topic {t!r:.40}; one of: {', '.join(EVENT_TOPICS)}")
    return SubscribeParams(tuple(topics), namespace)


def parse_params(method: str, raw: Any, config: Config) -> Any:
    """Parse the params of *method*; raises InvalidParams / TooLarge."""
    r = _Reader(_params_map(raw, "params"), config)
    if method in ("hello", "ping", "stats", "maintain", "namespaces"):
        r.done()
        return NoParams()
    if method == "store":
        return _store(r)
    if method == "store_batch":
        items = r.take("items")
        r.done()
        if not isinstance(items, list):
            raise InvalidParams(f"params.items: expected array of maps, got {_kind(items)}", {"param": "params.items"})
        if not items:
            raise InvalidParams("params.items: must not be empty", {"param": "params.items"})
        if len(items) > config.max_batch_items:
            raise TooLarge(
                f"params.items: {len(items)} items exceeds the limit of {config.max_batch_items}",
                {"param": "params.items", "limit": config.max_batch_items},
            )
        parsed = tuple(
            _store(_Reader(_params_map(item, f"params.items[{i}]"), config, f"params.items[{i}]"))
            for i, item in enumerate(items)
        )
        return StoreBatchParams(parsed)
    if method in ("get", "delete"):
        ident = r.ident("id", required=True)
        r.done()
        assert ident is not None
        return IdParams(ident)
    if method == "update":
        ident = r.ident("id", required=True)
        assert ident is not None
        update = UpdateParams(
            id=ident,
            text=r.text("text", required=False),
            type=r.mem_type("type"),
            tags=r.tags("tags"),
            metadata=r.metadata("metadata"),
        )
        r.done()
        return update
    if method == "query":
        text = r.text("text", required=True)
        assert text is not None
        query = QueryParams(
            text=text,
            limit=r.integer("limit", DEFAULT_QUERY_LIMIT, 1, config.max_query_limit),
            namespace=r.ident("namespace", required=False, pattern=NAMESPACE_RE, what="namespace") or DEFAULT_NAMESPACE,
            types=r.type_list("types"),
            tags=r.tags("tags") or None,
            since=r.time("since"),
            until=r.time("until"),
            rerank=r.boolean("rerank", True),
            explain=r.boolean("explain", False),
            include_hidden=r.boolean("include_hidden", False),
            context=_context(r),
        )
        r.done()
        if query.since and query.until and query.since > query.until:
            raise InvalidParams("params.since is after params.until", {"param": "params.since"})
        return query
    if method == "list":
        return _list(r, config)
    if method == "subscribe":
        return _subscribe(r)
    if method == "unsubscribe":
        sub = r.integer("subscription", -1, 1, 2**63 - 1)
        r.done()
        if sub == -1:
            raise InvalidParams("params.subscription is required", {"param": "params.subscription"})
        return UnsubscribeParams(sub)
    if method == "contradictions":
        cparams = ContradictionsParams(
            namespace=r.ident("namespace", required=False, pattern=NAMESPACE_RE, what="namespace"),
            id=r.ident("id", required=False),
            limit=r.integer("limit", 50, 1, 1000),
        )
        r.done()
        return cparams
    if method == "traverse":
        ident = r.ident("id", required=True)
        assert ident is not None
        kinds = r.take("kinds")
        if kinds is not None and (not isinstance(kinds, list) or not kinds or any(k not in EDGE_KINDS for k in kinds)):
            raise InvalidParams(
                f"params.kinds: expected a non-empty array of {', '.join(EDGE_KINDS)}", {"param": "params.kinds"}
            )
        traverse = TraverseParams(ident, tuple(kinds) if kinds else None, r.integer("depth", 1, 1, 3))
        r.done()
        return traverse
    if method in ("resolve", "unresolve"):
        source = r.ident("source", required=True)
        target = r.ident("target", required=True)
        assert source is not None and target is not None
        resolution = None
        if method == "resolve":
            resolution = r.take("resolution")
            if resolution not in RESOLUTIONS:
                raise InvalidParams(
                    f"params.resolution: expected one of {', '.join(RESOLUTIONS)}, got {_kind(resolution) if not isinstance(resolution, str) else repr(resolution[:40])}",
                    {"param": "params.resolution"},
                )
        r.done()
        return ResolveParams(source, target, resolution)
    if method == "export":
        export = ExportParams(
            namespace=r.ident("namespace", required=False, pattern=NAMESPACE_RE, what="namespace"),
            snapshot=r.ident("snapshot", required=False, what="snapshot"),
            offset=r.integer("offset", 0, 0, 2**40),
            limit=r.integer("limit", 500, 1, 2000),
        )
        r.done()
        return export
    if method == "import":
        model = r.take("model")
        if model is not None and (not isinstance(model, str) or not 0 < len(model) <= 200):
            raise InvalidParams(
                "params.model: expected the exporting daemon's embedding model id", {"param": "params.model"}
            )
        records = r.take("records")
        r.done()
        if not isinstance(records, list) or not records:
            raise InvalidParams(
                f"params.records: expected a non-empty array of maps, got {_kind(records)}", {"param": "params.records"}
            )
        if len(records) > config.max_batch_items:
            raise TooLarge(
                f"params.records: {len(records)} records exceeds the limit of {config.max_batch_items}",
                {"param": "params.records", "limit": config.max_batch_items},
            )
        memories: list[ImportMemory] = []
        edges: list[ImportEdge] = []
        for i, raw_record in enumerate(records):
            rr = _Reader(_params_map(raw_record, f"params.records[{i}]"), config, f"params.records[{i}]")
            kind = rr.take("record")
            if kind == "memory":
                memories.append(_import_memory(rr))
            elif kind == "edge":
                edges.append(_import_edge(rr))
            else:
                raise rr._fail(
                    "record",
                    f"expected 'memory' or 'edge', got {_kind(kind) if not isinstance(kind, str) else repr(kind[:40])}",
                )
        ids = [m.memory.id for m in memories]
        if len(set(ids)) != len(ids):
            raise InvalidParams("params.records: a memory id appears twice", {"param": "params.records"})
        return ImportParams(model, tuple(memories), tuple(edges))
    if method == "feedback":
        ident = r.ident("id", required=True)
        score = r.number("score", -1.0, 1.0)
        r.done()
        if score is None:
            raise InvalidParams("params.score is required (a number from -1 to 1)", {"param": "params.score"})
        assert ident is not None
        return FeedbackParams(ident, score)
    if method == "flush":
        timeout = r.number("timeout", 0.0, 3600.0)
        r.done()
        return FlushParams(timeout)
    if method == "cancel":
        request_id = r.take("request_id")
        r.done()
        if isinstance(request_id, bool) or not isinstance(request_id, int):
            raise InvalidParams(
                f"params.request_id: expected int, got {_kind(request_id)}", {"param": "params.request_id"}
            )
        return CancelParams(request_id)
    raise AssertionError(f"no parser for {method}")
