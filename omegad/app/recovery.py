"""What the write-ahead log (`omegad.storage.wal`) records, and how a start brings the tables up to it.

The log itself only frames, appends, reads and checkpoints records; this module knows what
they mean: a committed row, a delete, a contradiction edge or its removal, a memory's signals,
a record of the history table, a memory's history forgotten.
`replay` reduces a log to the last word on each (`final_state`) and writes what the tables
lack, idempotently by id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from omegad.app.history import HistoryStore, Past, past_from
from omegad.contradictions.edges import Edge, EdgeStore, edge_from
from omegad.storage.rows import Row
from omegad.storage.signals import MemorySignals, SignalStore, signal_from
from omegad.storage.store import MemoryStore
from omegad.timeutil import now_us

__all__ = [
    "FinalState",
    "delete_record",
    "edge_delete_record",
    "edge_record",
    "final_state",
    "forget_record",
    "history_record",
    "replay",
    "row_record",
    "signal_record",
]


def row_record(row: Any) -> dict[str, Any]:
    return {
        "t": "row",
        "id": row.id,
        "text": row.text,
        "type": row.type,
        "tags": list(row.tags),
        "ns": row.namespace,
        "meta": row.metadata,
        "c": row.created_at,
        "u": row.updated_at,
        "v": row.version,
        # None: a store acknowledged before its embedding (`omegad.app.pending`)
        "vec": np.asarray(row.vector, dtype="<f4").tobytes() if len(row.vector) else None,
    }


def delete_record(memory_id: str, stamp: int) -> dict[str, Any]:
    return {"t": "del", "id": memory_id, "u": stamp}


def edge_record(edge: Edge) -> dict[str, Any]:
    """The edge's fields under their table names (read back with `edge_from`)."""
    return {"t": "edge", **asdict(edge), "signals": list(edge.signals)}


def edge_delete_record(edge_id: str) -> dict[str, Any]:
    return {"t": "edel", "id": edge_id}


def history_record(p: Past) -> dict[str, Any]:
    """A history record's fields under their table names (read back with `past_from`)."""
    return {"t": "hist", **p.record()}


def forget_record(memory_id: str, stamp: int) -> dict[str, Any]:
    return {"t": "forget", "id": memory_id, "u": stamp}


def signal_record(memory_id: str, s: MemorySignals) -> dict[str, Any]:
    """The signal's fields under their table names (read back with `signal_from`)."""
    return {"t": "sig", "id": memory_id, **asdict(s)}


@dataclass
class FinalState:
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)  # ``row`` or ``del`` by memory id
    edges: dict[str, dict[str, Any]] = field(default_factory=dict)  # ``edge`` or ``edel`` by edge id
    signals: dict[str, dict[str, Any]] = field(default_factory=dict)  # ``sig`` by memory id
    history: dict[str, dict[str, Any]] = field(default_factory=dict)  # ``hist`` by record id
    forgotten: set[str] = field(default_factory=set)  # memory ids whose history was erased


def final_state(records: Sequence[dict[str, Any]]) -> FinalState:
    """Reduce a log to the last word on each memory, edge and signal. A memory deleted after an
    edge to it or a signal of it was written takes them with it (as the live delete did)."""
    out = FinalState()
    touching: dict[str, set[str]] = {}  # memory id -> edge ids logged
    for r in records:
        t = r.get("t")
        if t in ("row", "del"):
            out.rows[r["id"]] = r
            if t == "del":
                for eid in touching.pop(r["id"], set()):
                    out.edges[eid] = edge_delete_record(eid)
                out.signals.pop(r["id"], None)
        elif t in ("edge", "edel"):
            out.edges[r["id"]] = r
            if t == "edge":
                touching.setdefault(r["source"], set()).add(r["id"])
                touching.setdefault(r["target"], set()).add(r["id"])
        elif t == "sig":
            out.signals[r["id"]] = r
        elif t == "hist":
            out.history[r["id"]] = r
        elif t == "forget":
            # what was logged of it before is erased; what follows (the id stored again) stays
            out.forgotten.add(r["id"])
            gone = [k for k, h in out.history.items() if r["id"] in (h["memory_id"], h["other_id"])]
            for k in gone:
                del out.history[k]
    return out


def replay(
    records: Sequence[dict[str, Any]],
    store: MemoryStore,
    edges: EdgeStore,
    signals: SignalStore | None = None,
    history: HistoryStore | None = None,
    unembedded: list[Row] | None = None,
) -> dict[str, Any]:
    """Bring the tables up to the log (idempotent: what they already hold is not rewritten).
    Rows logged before their embedding that the table lacks are not written: they go to
    *unembedded*, for the caller to embed and commit."""
    state = final_state(records)
    rows, eds = state.rows, state.edges
    stamps = store.stamps(rows)
    newer = [_row(r) for r in rows.values() if r["t"] == "row" and stamps.get(r["id"], -1) < r["u"]]
    upsert = [row for row in newer if len(row.vector)]
    if unembedded is not None:
        unembedded.extend(row for row in newer if not len(row.vector))
    fresh = now_us()
    for row in upsert:
        if row.id not in stamps:
            # never committed (a store acknowledged at the log) or lost with its commit: a new
            # stamp, above the contradiction checker's saved cursor, so that it is checked
            fresh = max(fresh + 1, row.updated_at)
            row.updated_at = fresh
    deletes = [i for i, r in rows.items() if r["t"] == "del" and i in stamps and stamps[i] <= r["u"]]
    store.upsert(upsert)
    store.delete(deletes)
    for memory_id in deletes:
        edges.delete_touching(memory_id)
    known = {e.id: e for e in edges.load()}
    edge_upserts = [e for e in (edge_from(r) for r in eds.values() if r["t"] == "edge") if known.get(e.id) != e]
    edge_deletes = [i for i, r in eds.items() if r["t"] == "edel" and i in known]
    edges.upsert(edge_upserts)
    edges.delete(edge_deletes)
    report = {
        "rows_restored": len(upsert),
        "rows_deleted": len(deletes),
        "edges_restored": len(edge_upserts),
        "edges_deleted": len(edge_deletes),
    }
    if len(newer) > len(upsert):  # (left to the caller to embed and commit)
        report["rows_to_embed"] = len(newer) - len(upsert)
    if signals is not None:
        signals.delete([i for i, r in rows.items() if r["t"] == "del"])
        have = signals.own()
        restore = {mid: signal_from(r) for mid, r in state.signals.items() if rows.get(mid, {"t": "row"})["t"] == "row"}
        restore = {mid: s for mid, s in restore.items() if have.get(mid) != s}
        signals.upsert(restore)
        report["signals_restored"] = len(restore)
    if history is not None:
        # erase first: records logged after a forget are in `state.history` and go back
        for memory_id in sorted(state.forgotten):
            history.forget(memory_id)
        history.upsert([past_from(r) for r in state.history.values()])
        report["history_restored"] = len(state.history)
    return report


def _row(r: dict[str, Any]) -> Row:
    return Row(
        id=r["id"],
        text=r["text"],
        type=r["type"],
        tags=list(r["tags"]),
        namespace=r["ns"],
        metadata=dict(r["meta"] or {}),
        created_at=int(r["c"]),
        updated_at=int(r["u"]),
        version=int(r["v"]),
        vector=np.frombuffer(r["vec"] or b"", dtype="<f4").astype(np.float32),
    )
