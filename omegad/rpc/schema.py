"""Request schema: one parser per method, from its params map (a `Reader`) to its typed params
(`omegad.requests`), or `invalid_params` / `too_large` naming the offending key. Each parser
is named by its method's row in `omegad.rpc.registry`.

A leaf module: it imports only `omegad.config` (through the reader) and the errors.
"""

from __future__ import annotations

import base64
import binascii
import json

from omegad.errors import InvalidParams, TooLarge
from omegad.requests import (
    DEFAULT_LIST_LIMIT,
    DEFAULT_NAMESPACE,
    DEFAULT_QUERY_LIMIT,
    DEFAULT_TYPE,
    EDGE_KINDS,
    RESOLUTIONS,
    CancelParams,
    ContradictionsParams,
    DeleteParams,
    ExportParams,
    FeedbackParams,
    FlushParams,
    GetParams,
    HistoryParams,
    ImportEdge,
    ImportHistory,
    ImportMemory,
    ImportParams,
    ListParams,
    NoParams,
    QueryContext,
    QueryParams,
    ResolveParams,
    StoreBatchParams,
    StoreParams,
    SubscribeParams,
    TraverseParams,
    UnsubscribeParams,
    UpdateParams,
)
from omegad.rpc.fields import Reader, decode_cursor, kind_of, params_map
from omegad.rpc.screen import screen
from omegad_client.protocol import EVENT_TOPICS

__all__ = [
    "cancel",
    "contradictions",
    "delete",
    "export",
    "feedback",
    "flush",
    "get",
    "history",
    "import_",
    "list_",
    "no_params",
    "query",
    "resolve",
    "store",
    "store_batch",
    "subscribe",
    "traverse",
    "unresolve",
    "unsubscribe",
    "update",
]

MAX_LIST_LIMIT = 500
MAX_TOKEN_BUDGET = 1_000_000
MAX_CONTEXT_CHARS = 512
MAX_CONTEXT_SYMBOLS = 32


def no_params(r: Reader) -> NoParams:
    r.done()
    return NoParams()


def store(r: Reader) -> StoreParams:
    text = r.text("text", required=True)
    assert text is not None
    params = StoreParams(
        text=text,
        type=r.mem_type("type") or DEFAULT_TYPE,
        tags=r.tags("tags") or (),
        namespace=r.namespace() or DEFAULT_NAMESPACE,
        metadata=r.metadata("metadata"),
        created_at=r.time("created_at"),
        id=r.ident("id", required=False),
    )
    r.done()
    return screen(params, r.config, r.where)


def store_batch(r: Reader) -> StoreBatchParams:
    items = r.take("items")
    r.done()
    if not isinstance(items, list):
        raise InvalidParams(f"params.items: expected array of maps, got {kind_of(items)}", {"param": "params.items"})
    if not items:
        raise InvalidParams("params.items: must not be empty", {"param": "params.items"})
    limit = r.config.max_batch_items
    if len(items) > limit:
        raise TooLarge(
            f"params.items: {len(items)} items exceeds the limit of {limit}", {"param": "params.items", "limit": limit}
        )
    return StoreBatchParams(
        tuple(
            store(Reader(params_map(item, f"params.items[{i}]"), r.config, f"params.items[{i}]"))
            for i, item in enumerate(items)
        )
    )


def get(r: Reader) -> GetParams:
    ident = r.ident("id", required=True)
    assert ident is not None
    params = GetParams(ident, r.time("as_of"))
    r.done()
    return params


def delete(r: Reader) -> DeleteParams:
    ident = r.ident("id", required=True)
    assert ident is not None
    params = DeleteParams(ident, r.boolean("forget", False))
    r.done()
    return params


def history(r: Reader) -> HistoryParams:
    ident = r.ident("id", required=True)
    assert ident is not None
    r.done()
    return HistoryParams(ident)


def update(r: Reader) -> UpdateParams:
    ident = r.ident("id", required=True)
    assert ident is not None
    params = UpdateParams(
        id=ident,
        text=r.text("text", required=False),
        type=r.mem_type("type"),
        tags=r.tags("tags"),
        metadata=r.metadata("metadata"),
    )
    r.done()
    return screen(params, r.config, r.where)


def query(r: Reader) -> QueryParams:
    text = r.text("text", required=True)
    assert text is not None
    params = QueryParams(
        text=text,
        limit=r.integer("limit", DEFAULT_QUERY_LIMIT, 1, r.config.max_query_limit),
        namespace=r.namespace() or DEFAULT_NAMESPACE,
        types=r.type_list("types"),
        tags=r.tags("tags") or None,
        since=r.time("since"),
        until=r.time("until"),
        rerank=r.boolean("rerank", True),
        explain=r.boolean("explain", False),
        include_hidden=r.boolean("include_hidden", False),
        context=_context(r),
        as_of=r.time("as_of"),
        include_duplicates=r.boolean("include_duplicates", False),
        max_tokens=r.integer("max_tokens", 0, 1, MAX_TOKEN_BUDGET) or None,
        min_score=r.number("min_score", 0.0, 10.0),
    )
    r.done()
    if params.since and params.until and params.since > params.until:
        raise InvalidParams("params.since is after params.until", {"param": "params.since"})
    return params


def _short_text(r: Reader, value: object, where: str) -> str:
    if not isinstance(value, str):
        raise r.fail(where, f"expected str, got {kind_of(value)}")
    if not value.strip() or len(value) > MAX_CONTEXT_CHARS or "\x00" in value:
        raise r.fail(where, f"must be 1-{MAX_CONTEXT_CHARS} characters, not blank, no NUL")
    return value


def _context(r: Reader) -> QueryContext | None:
    value = r.take("context")
    if value is None:
        return None
    if not isinstance(value, dict):
        raise r.fail("context", f"expected map, got {kind_of(value)}")
    c = Reader(value, r.config, f"{r.where}.context")
    fields = {k: c.take(k) for k in ("project", "file", "language")}
    symbols = c.take("symbols")
    c.done()
    out = {k: _short_text(c, v, k) for k, v in fields.items() if v is not None}
    syms: tuple[str, ...] = ()
    if symbols is not None:
        if not isinstance(symbols, list):
            raise c.fail("symbols", f"expected array of str, got {kind_of(symbols)}")
        if len(symbols) > MAX_CONTEXT_SYMBOLS:
            raise c.fail("symbols", f"at most {MAX_CONTEXT_SYMBOLS} symbols, got {len(symbols)}")
        syms = tuple(dict.fromkeys(_short_text(c, v, f"symbols[{i}]") for i, v in enumerate(symbols)))
    return QueryContext(out.get("project"), out.get("file"), out.get("language"), syms)


def list_(r: Reader) -> ListParams:
    order = r.take("order")
    if order is not None and order not in ("newest", "oldest"):
        raise r.fail(
            "order",
            f"expected 'newest' or 'oldest', got {kind_of(order) if not isinstance(order, str) else repr(order[:40])}",
        )
    newest = order != "oldest"
    cursor = r.take("cursor")
    after = None
    if cursor is not None:
        after = decode_cursor(cursor, newest, lambda msg: r.fail("cursor", msg))
    params = ListParams(
        namespace=r.namespace() or DEFAULT_NAMESPACE,
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
    if params.since and params.until and params.since > params.until:
        raise InvalidParams("params.since is after params.until", {"param": "params.since"})
    return params


def subscribe(r: Reader) -> SubscribeParams:
    topics = r.take("topics")
    namespace = r.namespace()
    r.done()
    if not isinstance(topics, list) or not topics:
        raise r.fail("topics", f"expected a non-empty array of {', '.join(EVENT_TOPICS)}")
    if len(topics) > len(EVENT_TOPICS) or len(set(map(repr, topics))) != len(topics):
        raise r.fail("topics", "each topic at most once")
    for i, t in enumerate(topics):
        if t not in EVENT_TOPICS:
            raise r.fail(f"topics[{i}]", f"unknown topic {t!r:.40}; one of: {', '.join(EVENT_TOPICS)}")
    return SubscribeParams(tuple(topics), namespace)


def unsubscribe(r: Reader) -> UnsubscribeParams:
    sub = r.integer("subscription", -1, 1, 2**63 - 1)
    r.done()
    if sub == -1:
        raise InvalidParams("params.subscription is required", {"param": "params.subscription"})
    return UnsubscribeParams(sub)


def contradictions(r: Reader) -> ContradictionsParams:
    params = ContradictionsParams(
        namespace=r.namespace(),
        id=r.ident("id", required=False),
        limit=r.integer("limit", 50, 1, 1000),
    )
    r.done()
    return params


def traverse(r: Reader) -> TraverseParams:
    ident = r.ident("id", required=True)
    assert ident is not None
    kinds = r.take("kinds")
    if kinds is not None and (not isinstance(kinds, list) or not kinds or any(k not in EDGE_KINDS for k in kinds)):
        raise InvalidParams(
            f"params.kinds: expected a non-empty array of {', '.join(EDGE_KINDS)}", {"param": "params.kinds"}
        )
    params = TraverseParams(ident, tuple(kinds) if kinds else None, r.integer("depth", 1, 1, 3))
    r.done()
    return params


def _edge_ends(r: Reader) -> tuple[str, str]:
    source = r.ident("source", required=True)
    target = r.ident("target", required=True)
    assert source is not None and target is not None
    return source, target


def resolve(r: Reader) -> ResolveParams:
    source, target = _edge_ends(r)
    resolution = r.take("resolution")
    if resolution not in RESOLUTIONS:
        got = kind_of(resolution) if not isinstance(resolution, str) else repr(resolution[:40])
        raise InvalidParams(
            f"params.resolution: expected one of {', '.join(RESOLUTIONS)}, got {got}", {"param": "params.resolution"}
        )
    r.done()
    return ResolveParams(source, target, resolution)


def unresolve(r: Reader) -> ResolveParams:
    source, target = _edge_ends(r)
    r.done()
    return ResolveParams(source, target, None)


def export(r: Reader) -> ExportParams:
    params = ExportParams(
        namespace=r.namespace(),
        snapshot=r.ident("snapshot", required=False, what="snapshot"),
        offset=r.integer("offset", 0, 0, 2**40),
        limit=r.integer("limit", 500, 1, 2000),
    )
    r.done()
    return params


def import_(r: Reader) -> ImportParams:
    model = r.take("model")
    if model is not None and (not isinstance(model, str) or not 0 < len(model) <= 200):
        raise InvalidParams(
            "params.model: expected the exporting daemon's embedding model id", {"param": "params.model"}
        )
    records = r.take("records")
    r.done()
    if not isinstance(records, list) or not records:
        raise InvalidParams(
            f"params.records: expected a non-empty array of maps, got {kind_of(records)}", {"param": "params.records"}
        )
    limit = r.config.max_batch_items
    if len(records) > limit:
        raise TooLarge(
            f"params.records: {len(records)} records exceeds the limit of {limit}",
            {"param": "params.records", "limit": limit},
        )
    memories: list[ImportMemory] = []
    edges: list[ImportEdge] = []
    history: list[ImportHistory] = []
    for i, raw_record in enumerate(records):
        rr = Reader(params_map(raw_record, f"params.records[{i}]"), r.config, f"params.records[{i}]")
        kind = rr.take("record")
        if kind == "memory":
            memories.append(_import_memory(rr))
        elif kind == "edge":
            edges.append(_import_edge(rr))
        elif kind == "history":
            history.append(_import_history(rr))
        else:
            got = kind_of(kind) if not isinstance(kind, str) else repr(kind[:40])
            raise rr.fail("record", f"expected 'memory', 'history' or 'edge', got {got}")
    ids = [m.memory.id for m in memories]
    if len(set(ids)) != len(ids):
        raise InvalidParams("params.records: a memory id appears twice", {"param": "params.records"})
    return ImportParams(model, tuple(memories), tuple(edges), tuple(history))


def _import_memory(r: Reader) -> ImportMemory:
    version = r.integer("version", 1, 1, 2**31 - 1)
    vector = _vector_bytes(r)
    bound = r.config.feedback_bound
    feedback = r.number("feedback", -bound, bound)
    ratings = r.integer("ratings", 0, 0, 2**31 - 1)
    accesses = r.integer("accesses", 0, 0, 2**62)
    r.time("updated_at")  # informative: an import is a new commit
    memory = store(r)  # text, type, tags, namespace, metadata, created_at, id; rejects the rest
    if memory.id is None:
        raise r.fail("id", "required")
    if memory.redacted:
        vector = None  # computed from the text with its secret: embedded again from the redacted one
    return ImportMemory(memory, version, vector, feedback, ratings, accesses)


HISTORY_KINDS = ("version", "tombstone", "edge")  # (`omegad.app.history.KINDS`)
_EDGE_DATA = ("id", "kind", "source", "target", "namespace", "confidence", "signals", "source_version",
              "target_version", "created_at", "resolution", "resolved_at")  # fmt: skip
_MAX_US = 2**62


def _vector_bytes(r: Reader) -> bytes | None:
    vector = r.take("vector")
    if isinstance(vector, str):
        try:
            vector = base64.b64decode(vector, validate=True)
        except (ValueError, binascii.Error):
            raise r.fail("vector", "not base64") from None
    if vector is not None and not isinstance(vector, bytes):
        raise r.fail("vector", f"expected base64 text or bytes, got {kind_of(vector)}")
    if vector is not None and (len(vector) % 4 or len(vector) > 65536):
        raise r.fail("vector", "expected float32 values (at most 16384)")
    return vector


def _import_history(r: Reader) -> ImportHistory:
    """A history record of an export: a replaced version, a tombstone or a removed edge.
    A version's text and metadata pass the secret screen like a memory's."""
    kind = r.take("kind")
    if kind not in HISTORY_KINDS:
        raise r.fail("kind", f"expected one of {', '.join(HISTORY_KINDS)}")
    memory_id = r.ident("memory_id", required=True)
    other = r.ident("other_id", required=False)
    namespace = r.namespace()
    if namespace is None:
        raise r.fail("namespace", "required")
    valid_to = r.integer("valid_to_us", 0, 1, _MAX_US)
    if valid_to == 0:
        raise r.fail("valid_to_us", "required (µs since the epoch)")
    vector = _vector_bytes(r)
    data = params_map(r.take("data"), f"{r.where}.data")
    r.done()
    d = Reader(dict(data), r.config, f"{r.where}.data")
    redacted: tuple[dict[str, object], ...] = ()
    if kind == "edge":
        missing = [k for k in _EDGE_DATA if k not in data]
        if missing or not isinstance(data.get("signals"), list):
            raise r.fail("data", f"an edge's fields: {', '.join(_EDGE_DATA)}")
        for k in ("source_version", "target_version", "created_at"):
            d.integer(k, 0, 0, _MAX_US)
        d.number("confidence", 0.0, 1.0)
        for k in ("id", "source", "target"):
            d.ident(k, required=True)
        if data["resolution"] not in (None, *RESOLUTIONS) or data["kind"] not in EDGE_KINDS:
            raise r.fail("data", f"an edge's kind is one of {', '.join(EDGE_KINDS)}, its resolution one of "
                         f"{', '.join(RESOLUTIONS)} or null")  # fmt: skip
        if data["resolved_at"] is not None:
            d.integer("resolved_at", 0, 0, _MAX_US)
        if len(data["signals"]) > 16 or len(json.dumps(data["signals"], default=str)) > 4096:
            raise r.fail("data", "an edge's signals: at most 16 maps, 4 KB")
        out = {**data, "namespace": namespace}
    else:
        times = {k: d.integer(k, -1, 0, _MAX_US) for k in ("created_at", "updated_at")}
        version = d.integer("version", 1, 1, 2**31 - 1)
        if -1 in times.values():
            raise r.fail("data", "a version's created_at and updated_at are required (µs)")
        d.params["namespace"], d.params["id"] = namespace, memory_id
        memory = store(d)  # text, type, tags, metadata; screened for secrets; rejects the rest
        out = {"text": memory.text, "type": memory.type, "tags": list(memory.tags), "version": version,
               "metadata": dict(memory.metadata or {}), **times}  # fmt: skip
        redacted = tuple(dict(x) for x in memory.redacted)
        if redacted:
            vector = None  # embedded from the redacted text instead
    assert memory_id is not None
    return ImportHistory(kind, memory_id, other or "", namespace, valid_to, out, vector, redacted)


def _import_edge(r: Reader) -> ImportEdge:
    kind = r.take("kind")
    if kind not in EDGE_KINDS:
        raise r.fail("kind", f"expected one of {', '.join(EDGE_KINDS)}")
    source = r.ident("source", required=True)
    target = r.ident("target", required=True)
    confidence = r.number("confidence", 0.0, 1.0)
    signals = r.take("signals") or []
    if not isinstance(signals, list) or len(signals) > 16 or not all(isinstance(s, dict) for s in signals):
        raise r.fail("signals", "expected an array of at most 16 maps")
    try:
        too_big = len(json.dumps(signals, default=str)) > 4096
    except (TypeError, ValueError):
        raise r.fail("signals", "expected maps with text keys") from None
    if too_big:
        raise r.fail("signals", "too large")
    resolution = r.take("resolution")
    if resolution is not None and resolution not in RESOLUTIONS:
        raise r.fail("resolution", f"expected one of {', '.join(RESOLUTIONS)} or null")
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


def feedback(r: Reader) -> FeedbackParams:
    ident = r.ident("id", required=True)
    score = r.number("score", -1.0, 1.0)
    r.done()
    if score is None:
        raise InvalidParams("params.score is required (a number from -1 to 1)", {"param": "params.score"})
    assert ident is not None
    return FeedbackParams(ident, score)


def flush(r: Reader) -> FlushParams:
    timeout = r.number("timeout", 0.0, 3600.0)
    r.done()
    return FlushParams(timeout)


def cancel(r: Reader) -> CancelParams:
    request_id = r.take("request_id")
    r.done()
    if isinstance(request_id, bool) or not isinstance(request_id, int):
        raise InvalidParams(
            f"params.request_id: expected int, got {kind_of(request_id)}", {"param": "params.request_id"}
        )
    return CancelParams(request_id)
