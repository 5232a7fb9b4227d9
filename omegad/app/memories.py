"""Handlers of the memory methods: store, store_batch, get, update, delete, list, namespaces,
feedback, history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio

from omegad.app.history import graph_at, public_version, version_at
from omegad.app.ops import DeleteOp, FeedbackOp, Merged, UpdateOp
from omegad.errors import NotFound
from omegad.recall.embed import memory_text
from omegad.requests import (
    DeleteParams,
    FeedbackParams,
    GetParams,
    HistoryParams,
    ListParams,
    StoreBatchParams,
    StoreParams,
    UpdateParams,
    encode_cursor,
)
from omegad.timeutil import iso, now_us, to_micros

if TYPE_CHECKING:
    from omegad.app.service import Service


async def store_one(svc: Service, p: StoreParams) -> dict[str, Any]:
    row = svc.new_row(p, None, now_us())
    (created,) = await svc.insert([row], [p.id is not None])
    reply: dict[str, Any] = {"id": row.id, "created": created is True}
    if isinstance(created, Merged):
        reply["id"] = reply["duplicate_of"] = created.row.id
    if p.redacted:
        reply["redacted"] = list(p.redacted)
    return reply


async def store_batch(svc: Service, p: StoreBatchParams) -> dict[str, Any]:
    now = now_us()
    rows = [svc.new_row(item, None, now) for item in p.items]
    created = await svc.insert(rows, [item.id is not None for item in p.items])
    ids = [c.row.id if isinstance(c, Merged) else r.id for r, c in zip(rows, created, strict=True)]
    reply: dict[str, Any] = {"ids": ids, "created": [c is True for c in created]}
    if any(isinstance(c, Merged) for c in created):
        reply["duplicate_of"] = [c.row.id if isinstance(c, Merged) else None for c in created]
    if any(item.redacted for item in p.items):
        reply["redacted"] = [list(item.redacted) for item in p.items]
    return reply


async def get(svc: Service, p: GetParams) -> dict[str, Any]:
    pending = svc.pending.rows.get(p.id)
    if pending is not None and p.as_of is None:  # acknowledged, its commit to follow
        return svc.annotated(pending.public())
    await svc.pending.wait_ids([p.id])
    if p.as_of is not None:
        return await _get_as_of(svc, p.id, to_micros(p.as_of))
    # a small namespace's rows are in memory (`NeighbourCache`): no storage query, the slow
    # part of a get under load (docs/architecture.md, "Under load"); not under the read
    # limiter, whose threads may all be in storage queries
    cached = await anyio.to_thread.run_sync(svc.neighbours.row, p.id)
    if cached is not None:
        return svc.annotated(cached.public())
    rows = await anyio.to_thread.run_sync(svc.store.get_many, [p.id], limiter=svc.read_limiter)
    row = rows.get(p.id)
    if row is None:
        raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
    return svc.annotated(row.public())


async def _get_as_of(svc: Service, memory_id: str, at: int) -> dict[str, Any]:
    """The memory in the version current at *at*, with the contradiction edges of then."""

    def read() -> tuple[Any, Any]:
        current = svc.store.get_many([memory_id]).get(memory_id)
        records = svc.writer.history.of_memory(memory_id)
        removed = svc.writer.history.edges_of([memory_id])
        return version_at(current, records, at), removed

    row, removed = await anyio.to_thread.run_sync(read, limiter=svc.read_limiter)
    if row is None:
        raise NotFound(f"no memory with id {memory_id!r} at {iso(at)}", {"id": memory_id, "as_of": iso(at)})
    out = svc.annotated(row.public(), graph_at(svc.graph.of(memory_id), removed, at))
    out["as_of"] = iso(at)
    return out


async def history(svc: Service, p: HistoryParams) -> dict[str, Any]:
    """A memory's versions, oldest first: those updates replaced, then the current one (or
    the tombstone of a delete)."""

    def read() -> tuple[Any, Any]:
        return svc.store.get_many([p.id]).get(p.id), svc.writer.history.of_memory(p.id)

    await svc.pending.wait_ids([p.id])
    current, records = await anyio.to_thread.run_sync(read, limiter=svc.read_limiter)
    if current is None and not records:
        raise NotFound(f"no memory with id {p.id!r}, and no history of one", {"id": p.id})
    versions = [public_version(r) for r in records]
    if current is not None:
        versions.append({**current.public(), "valid_to": None, "ended_by": None})
    return {"id": p.id, "deleted": current is None, "versions": versions}


async def update(svc: Service, p: UpdateParams) -> dict[str, Any]:
    await svc.pending.wait_ids([p.id])  # (a memory acknowledged at the log is committed first)
    vector, text = None, None
    if p.text is not None or p.tags is not None:
        # the vector holds the text and the tags: a change of either embeds the new pair
        current = (await anyio.to_thread.run_sync(svc.store.get_many, [p.id], limiter=svc.read_limiter)).get(p.id)
        if current is not None:
            text = p.text if p.text is not None else current.text
            tags = p.tags if p.tags is not None else current.tags
            if (text, list(tags)) != (current.text, current.tags):
                (vector,) = await svc.embed([memory_text(text, tags)], urgent=True)
        elif p.text is not None:  # (the writer answers not_found; a race may have created it)
            text = p.text
            (vector,) = await svc.embed([memory_text(text, p.tags or [])], urgent=True)
    (row,) = await svc.write([UpdateOp(p, vector, text)])
    public: dict[str, Any] = row.public()
    if p.redacted:
        public["redacted"] = list(p.redacted)
    return public


async def delete(svc: Service, p: DeleteParams) -> dict[str, Any]:
    await svc.pending.wait_ids([p.id])
    namespace = (await svc.namespaces_of([p.id])).get(p.id)  # (for the event and `namespaces`)
    op = DeleteOp(p.id, has_edges=bool(svc.graph.of(p.id)), namespace=namespace, forget=p.forget)
    (deleted,) = await svc.write([op])
    out: dict[str, Any] = {"deleted": bool(deleted)}
    if p.forget:
        out["forgotten"] = bool(deleted)
    return out


async def list_memories(svc: Service, p: ListParams) -> dict[str, Any]:
    """A page of one namespace in ``created_at`` order (docs/protocol.md, "list")."""
    await svc.pending.wait_namespace(p.namespace)
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
    await svc.pending.wait_namespace(None)
    summary = await anyio.to_thread.run_sync(svc.store.namespace_summary, limiter=svc.read_limiter)
    out = []
    for name in sorted(summary):
        count, newest = summary[name]
        last = max(newest, svc.namespace_writes.get(name, 0))
        out.append({"name": name, "memories": count, "last_write": iso(last) if last else None})
    return {"namespaces": out}


async def feedback(svc: Service, p: FeedbackParams) -> dict[str, Any]:
    """Rate a memory; acknowledged once durable, like a store."""
    await svc.pending.wait_ids([p.id])
    (result,) = await svc.write([FeedbackOp(p)])
    out: dict[str, Any] = result
    return out
