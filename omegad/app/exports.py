"""Export and import handlers: an export reads pages of a pinned snapshot of the tables
(a lease, expired when idle); an import writes records idempotently by id. The line format
is `omegad.app.backup`."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import anyio
import numpy as np

from omegad.app.backup import (
    EXPORT_IDLE_S,
    MAX_EXPORTS,
    ExportLease,
    edge_line,
    header,
    history_line,
    memory_line,
    vector_from,
)
from omegad.app.history import EDGE, Past
from omegad.app.history import TABLE as HISTORY_TABLE
from omegad.app.ops import ImportOp, SnapshotOp
from omegad.contradictions.edges import EDGES_TABLE, Edge
from omegad.errors import InvalidParams, Unavailable
from omegad.recall.embed import memory_text
from omegad.requests import ExportParams, ImportParams
from omegad.storage.rows import TABLE as MEMORIES_TABLE
from omegad.storage.rows import Row
from omegad.storage.signals import TABLE as SIGNALS_TABLE
from omegad.storage.signals import MemorySignals
from omegad.timeutil import now_us

if TYPE_CHECKING:
    from omegad.app.service import Service


def _close_export(svc: Service, lease: ExportLease) -> None:
    if svc.exports.pop(lease.snapshot, None) is not None:
        svc.store.readers.release(lease.epoch, long=True)


def _expire_exports(svc: Service) -> None:
    now = time.monotonic()
    for lease in list(svc.exports.values()):
        if now - lease.used > EXPORT_IDLE_S:
            _close_export(svc, lease)


async def _open_export(svc: Service, namespace: str | None) -> ExportLease:
    _expire_exports(svc)
    if len(svc.exports) >= MAX_EXPORTS:
        raise Unavailable(f"{MAX_EXPORTS} exports are open; finish one (or wait {EXPORT_IDLE_S:.0f} s)")
    await svc.pending.wait_namespace(namespace)  # (stores acknowledged at the log: committed first)
    epoch = svc.store.readers.acquire(long=True)  # before pinning: cleanup keeps what we pin
    try:
        ((versions, dead),) = await svc.write([SnapshotOp()])

        def pin() -> tuple[Any, list[Edge], dict[str, MemorySignals], list[Past]]:
            table = svc.store.snapshot(MEMORIES_TABLE, versions[MEMORIES_TABLE])
            edges = svc.edges.load(svc.store.snapshot(EDGES_TABLE, versions[EDGES_TABLE]))
            signals = svc.writer.signals_table.load(svc.store.snapshot(SIGNALS_TABLE, versions[SIGNALS_TABLE]))
            past = svc.writer.history.load(svc.store.snapshot(HISTORY_TABLE, versions[HISTORY_TABLE]), namespace)
            return table, edges, signals, past

        table, edges, signals, past = await anyio.to_thread.run_sync(pin, limiter=svc.read_limiter)
    except BaseException:
        svc.store.readers.release(epoch, long=True)
        raise
    if namespace is not None:
        edges = [e for e in edges if e.namespace == namespace]
        signals = {m: s for m, s in signals.items() if s.namespace == namespace}
    snapshot = ExportLease.new_id()
    lease = ExportLease(
        snapshot=snapshot,
        namespace=namespace,
        table=table,
        edges=sorted(edges, key=lambda e: (e.created_at, e.id)),
        signals=signals,
        epoch=epoch,
        header=header(svc.embedder.model_id, svc.embedder.dim, namespace, versions),
        dead=dead,
        history=past,
    )
    svc.exports[snapshot] = lease
    return lease


async def export(svc: Service, p: ExportParams) -> dict[str, Any]:
    """One page of an export (see `omegad.backup`)."""
    if p.snapshot is None:
        if p.offset:
            raise InvalidParams("params.offset needs params.snapshot (from the first page)", {"param": "params.offset"})
        lease = await _open_export(svc, p.namespace)
    else:
        found = svc.exports.get(p.snapshot)
        if found is None or found.namespace != p.namespace:
            raise InvalidParams(
                f"unknown or expired export snapshot {p.snapshot!r}: start again without a snapshot",
                {"param": "params.snapshot"},
            )
        lease = found
    lease.used = time.monotonic()
    try:
        rows, spanned = await anyio.to_thread.run_sync(
            svc.store.export_page,
            lease.table,
            lease.dead,
            lease.namespace,
            p.offset,
            p.limit,
            limiter=svc.read_limiter,
        )
        records = [memory_line(row, lease.signals.get(row.id)) for row in rows]
    except Exception:  # never leave a failed export holding its snapshot (and a slot)
        _close_export(svc, lease)
        raise
    done = spanned < p.limit
    if done:
        records += [history_line(h) for h in lease.history] + [edge_line(e) for e in lease.edges]
        _close_export(svc, lease)
    return {
        "header": lease.header,
        "snapshot": lease.snapshot,
        "records": records,
        "next": None if done else p.offset + spanned,
    }


async def _history(svc: Service, p: ImportParams, same_model: bool) -> list[Past]:
    """The import's history records; a version's vector kept when the model is the same (and
    its text was not redacted), else embedded again."""
    out: list[Past] = []
    todo: list[int] = []
    for h in p.history:
        vector = None
        if h.kind != EDGE:
            ok = vector_from(h.vector, svc.embedder.dim) if same_model else None
            vector = ok.astype("<f4").tobytes() if ok is not None else None
            if vector is None:
                todo.append(len(out))
        out.append(Past(f"{h.memory_id}@{h.valid_to}" if h.kind != EDGE else f"e:{h.data['id']}@{h.valid_to}",
                        h.kind, h.memory_id, h.other_id, h.namespace, h.valid_to, dict(h.data), vector))  # fmt: skip
    if todo:
        vectors = await svc.embed([memory_text(out[k].data["text"], out[k].data.get("tags") or []) for k in todo])
        for k, v in zip(todo, vectors, strict=True):
            out[k] = replace(out[k], vector=np.asarray(v, dtype="<f4").tobytes())
    return out


async def import_(svc: Service, p: ImportParams) -> dict[str, Any]:
    """Import records (memories, then edges); idempotent by id."""
    await svc.pending.wait_namespace(None)  # (an id stored meanwhile is committed before)
    same_model = p.model == svc.embedder.model_id
    vectors: list[Any] = [vector_from(m.vector, svc.embedder.dim) if same_model else None for m in p.memories]
    todo = [k for k, v in enumerate(vectors) if v is None]
    if todo:
        for k, v in zip(
            todo,
            await svc.embed([memory_text(p.memories[k].memory.text, p.memories[k].memory.tags) for k in todo]),
            strict=True,
        ):
            vectors[k] = v
    now = now_us()
    rows: list[Row] = []
    signals: dict[str, MemorySignals] = {}
    for m, vec in zip(p.memories, vectors, strict=True):
        row = svc.new_row(m.memory, vec, now)
        row.version = m.version
        rows.append(row)
        if m.feedback is not None or m.ratings or m.accesses:
            signals[row.id] = MemorySignals(row.namespace, m.feedback or 0.0, m.ratings, m.accesses, 0)
    (result,) = await svc.write([ImportOp(rows, signals, list(p.edges), await _history(svc, p, same_model))])
    reply: dict[str, Any] = {
        "memories": {"created": result.created, "updated": result.updated, "unchanged": result.unchanged},
        "reembedded": len(todo),
        "signals": len(signals),
        "edges": {"imported": len(result.edges), "skipped": result.edges_skipped},
    }
    if p.history:
        reply["history"] = result.history
    redacted = [{"id": m.memory.id, **r} for m in p.memories for r in m.memory.redacted]
    redacted += [{"id": h.memory_id, "history": True, **r} for h in p.history for r in h.redacted]
    if redacted:
        reply["redacted"] = redacted
    return reply
