"""The edges table: new edges are appended, known ones replaced, never duplicated — also after
reopening, when the set of known ids is read back from the table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from omegad.contradictions.edges import KIND, Edge, EdgeStore, edge_id
from omegad.storage.store import MemoryStore


def _edge(src: str, dst: str, confidence: float = 0.5) -> Edge:
    return Edge(
        id=edge_id(KIND, src, dst),
        kind=KIND,
        source=src,
        target=dst,
        namespace="n",
        confidence=confidence,
        signals=({"name": "antonym", "score": confidence},),
        source_version=1,
        target_version=1,
        created_at=1,
    )


def _by_id(edges: EdgeStore) -> dict[str, Edge]:
    loaded = edges.load()
    ids = [e.id for e in loaded]
    assert len(ids) == len(set(ids)), f"duplicate edge rows: {ids}"
    return {e.id: e for e in loaded}


def test_upsert_appends_new_edges_and_replaces_known_ones(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "data", "m", 8)
    edges = EdgeStore.open(store, tmp_path / "data")
    a, b = _edge("x", "y"), _edge("z", "y")
    edges.upsert([a, b])
    assert set(_by_id(edges)) == {a.id, b.id}
    edges.upsert([replace(a, confidence=0.9), replace(a, confidence=0.95)])  # same id twice: the last wins
    got = _by_id(edges)
    assert len(got) == 2 and got[a.id].confidence == 0.95
    edges.delete_touching("z")
    assert set(_by_id(edges)) == {a.id}
    edges.upsert([b])  # deleted, so new again
    assert set(_by_id(edges)) == {a.id, b.id}
    edges.delete([b.id])
    assert set(_by_id(edges)) == {a.id}

    reopened = EdgeStore.open(store, tmp_path / "data")  # knows the table's ids from the table
    reopened.upsert([replace(a, resolution="keep_new", resolved_at=2), b])
    got = _by_id(reopened)
    assert set(got) == {a.id, b.id} and got[a.id].resolution == "keep_new"
