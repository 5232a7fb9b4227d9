"""Handlers of the contradiction graph: contradictions, traverse, resolve."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import anyio
import structlog

from omegad.app.service import memory_ref
from omegad.contradictions.edges import KIND, EdgeOp, resolved
from omegad.errors import InvalidParams, NotFound
from omegad.requests import ContradictionsParams, ResolveParams, TraverseParams

if TYPE_CHECKING:
    from omegad.app.service import Service

log = structlog.get_logger("omegad")


async def contradictions(svc: Service, p: ContradictionsParams) -> dict[str, Any]:
    if p.id is not None:
        edges = svc.graph.of(p.id, KIND)
    else:
        namespace = p.namespace or "default"
        edges = [e for e in svc.graph.edges.values() if e.namespace == namespace and e.kind == KIND]
    edges = sorted(edges, key=lambda e: (-e.created_at, e.id))[: p.limit]
    ids = {i for e in edges for i in (e.source, e.target)}
    rows = await anyio.to_thread.run_sync(svc.store.get_many, ids, limiter=svc.read_limiter)
    out = []
    for e in edges:
        new, old = rows.get(e.source), rows.get(e.target)
        if new is None or old is None:
            continue  # one side was deleted meanwhile
        out.append({**e.public(), "new": memory_ref(new), "old": memory_ref(old)})
    return {"contradictions": out}


async def traverse(svc: Service, p: TraverseParams) -> dict[str, Any]:
    kinds = set(p.kinds) if p.kinds else None
    depth_of = {p.id: 0}
    seen_edges: dict[str, Any] = {}
    frontier = [p.id]
    for depth in range(1, p.depth + 1):
        nxt = []
        for mid in frontier:
            for e in svc.graph.of(mid):
                if kinds is not None and e.kind not in kinds:
                    continue
                seen_edges[e.id] = e
                other = e.target if e.source == mid else e.source
                if other not in depth_of:
                    depth_of[other] = depth
                    nxt.append(other)
        frontier = nxt
    rows = await anyio.to_thread.run_sync(svc.store.get_many, list(depth_of), limiter=svc.read_limiter)
    if p.id not in rows:
        raise NotFound(f"no memory with id {p.id!r}", {"id": p.id})
    nodes = [
        {**rows[m].public(), "depth": d} for m, d in sorted(depth_of.items(), key=lambda x: (x[1], x[0])) if m in rows
    ]
    edges = [
        e.public() for e in sorted(seen_edges.values(), key=lambda e: e.id) if e.source in rows and e.target in rows
    ]
    return {"nodes": nodes, "edges": edges}


async def resolve(svc: Service, p: ResolveParams) -> dict[str, Any]:
    edge = svc.graph.between(p.source, p.target)
    if edge is None or edge.source != p.source:
        raise NotFound(
            f"no contradiction {p.source!r} → {p.target!r} (source is the newer memory)",
            {"source": p.source, "target": p.target},
        )
    if p.resolution is None and edge.resolution is None:
        raise InvalidParams("this contradiction is not resolved", {"source": p.source, "target": p.target})
    updated = resolved(edge, p.resolution)
    (written,) = await svc.write([EdgeOp([updated], [])])
    if not written:
        raise NotFound("one side of this contradiction was deleted", {"source": p.source, "target": p.target})
    current = svc.graph.edges.get(edge.id)
    if current is not None and (current.source_version, current.target_version) != (
        edge.source_version,
        edge.target_version,
    ):
        # re-checked meanwhile: keep the new versions, with the resolution
        updated = replace(current, resolution=updated.resolution, resolved_at=updated.resolved_at)
        await svc.write([EdgeOp([updated], [])])
    svc.graph.add(updated)
    log.info("contradiction_resolved", source=p.source, target=p.target, resolution=p.resolution)
    return updated.public()
