"""Handlers of the memory methods: store, store_batch, get, update, delete, list, namespaces,
feedback."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio

from omegad.app.ops import DeleteOp, FeedbackOp, InsertOp, UpdateOp, WriteOp
from omegad.errors import NotFound
from omegad.requests import (
    FeedbackParams,
    IdParams,
    ListParams,
    StoreBatchParams,
    StoreParams,
    UpdateParams,
    encode_cursor,
)
from omegad.timeutil import iso, now_us

if TYPE_CHECKING:
    from omegad.app.service import Service


async def store_one(svc: Service, p: StoreParams) -> dict[str, Any]:
    (vector,) = await svc.embed([p.text])
    row = svc.new_row(p, vector, now_us())
    (created,) = await svc.write([InsertOp(row, client_id=p.id is not None)])
    reply: dict[str, Any] = {"id": row.id, "created": bool(created)}
    if p.redacted:
        reply["redacted"] = list(p.redacted)
    return reply


async def store_batch(svc: Service, p: StoreBatchParams) -> dict[str, Any]:
    vectors = await svc.embed([item.text for item in p.items])
    now = now_us()
    rows = [svc.new_row(item, vec, now) for item, vec in zip(p.items, vectors, strict=True)]
    ops: list[WriteOp] = [InsertOp(r, client_id=item.id is not None) for r, item in zip(rows, p.items, strict=True)]
    created = await svc.write(ops)
    reply: dict[str, Any] = {"ids": [r.id for r in rows], "created": [bool(c) for c in created]}
    if any(item.redacted for item in p.items):
        reply["redacted"] = [list(item.redacted) for item in p.items]
    return reply


async def get(svc: Service, p: IdParams) -> dict[str, Any]:
    rows = await anyio.to_thread.run_sync(svc.store.get_many, [p.id], limiter=svc.read_limiter)
    row = rows.get(p.id)
    if row is None:
        raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
    return svc.annotated(row.public())


async def update(svc: Service, p: UpdateParams) -> dict[str, Any]:
    vector = None
    if p.text is not None:
        (vector,) = await svc.embed([p.text])
    (row,) = await svc.write([UpdateOp(p, vector)])
    public: dict[str, Any] = row.public()
    if p.redacted:
        public["redacted"] = list(p.redacted)
    return public


async def delete(svc: Service, p: IdParams) -> dict[str, Any]:
    namespace = (await svc.namespaces_of([p.id])).get(p.id)  # (for the event and `namespaces`)
    (deleted,) = await svc.write([DeleteOp(p.id, has_edges=bool(svc.graph.of(p.id)), namespace=namespace)])
    return {"deleted": bool(deleted)}


async def list_memories(svc: Service, p: ListParams) -> dict[str, Any]:
    """A page of one namespace in ``created_at`` order (docs/protocol.md, "list")."""
    flt = svc.filter_for(p)
    rows = await anyio.to_thread.run_sync(
        svc.store.list_page, flt, p.newest_first, p.after, p.limit + 1, limiter=svc.read_limiter
    )
    more = len(rows) > p.limit
    rows = rows[: p.limit]
    last = rows[-1] if rows and more else None
    return {
        "memories": [svc.annotated(r.public()) for r in rows],
        "next": encode_cursor(last.created_at, last.id, p.newest_first) if last is not None else None,
    }


async def namespaces(svc: Service, _: Any) -> dict[str, Any]:
    """Every namespace with memories: how many, and when it was last written."""
    summary = await anyio.to_thread.run_sync(svc.store.namespace_summary, limiter=svc.read_limiter)
    out = []
    for name in sorted(summary):
        count, newest = summary[name]
        last = max(newest, svc.namespace_writes.get(name, 0))
        out.append({"name": name, "memories": count, "last_write": iso(last) if last else None})
    return {"namespaces": out}


async def feedback(svc: Service, p: FeedbackParams) -> dict[str, Any]:
    """Rate a memory; acknowledged once durable, like a store."""
    (result,) = await svc.write([FeedbackOp(p)])
    out: dict[str, Any] = result
    return out
