"""The write-ahead log: framing, torn tails, reduction and idempotent replay into real tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from omegad.app.history import TOMBSTONE, HistoryStore, edge_past, version_past
from omegad.app.recovery import (
    delete_record,
    edge_delete_record,
    edge_record,
    final_state,
    forget_record,
    history_record,
    replay,
    row_record,
)
from omegad.contradictions.edges import Edge, EdgeStore
from omegad.storage.rows import Row
from omegad.storage.store import MemoryStore
from omegad.storage.wal import HEADER, WriteAheadLog


def row(mid: str, text: str, updated: int, version: int = 1, ns: str = "n") -> Row:
    v = np.zeros(4, dtype=np.float32)
    v[hash(mid) % 4] = 1.0
    return Row(mid, text, "fact", ["t"], ns, {"k": mid}, 1000, updated, version, v)


def edge(source: str, target: str, resolution: str | None = None) -> Edge:
    return Edge(
        id=f"e-{source}-{target}",
        kind="contradicts",
        source=source,
        target=target,
        namespace="n",
        confidence=0.8,
        signals=({"kind": "antonym", "weight": 0.9, "detail": "dark/light"},),
        source_version=1,
        target_version=1,
        created_at=5,
        resolution=resolution,
    )


def test_append_read_roundtrip_and_segments(tmp_path: Path) -> None:
    wal = WriteAheadLog(tmp_path / "wal")
    assert wal.read().records == [] and wal.durable_through_us() is None
    wal.open_segment()
    wal.append([row_record(row("a", "alpha", 10)), delete_record("b", 11)])
    closed = wal.rotate()
    wal.append([edge_record(edge("a", "c"))])
    got = WriteAheadLog(tmp_path / "wal").read()
    assert got.segments == 2 and got.torn == 0 and got.corrupt == 0
    assert [r["t"] for r in got.records] == ["row", "del", "edge"]
    r0 = got.records[0]
    assert r0["id"] == "a" and r0["text"] == "alpha" and r0["u"] == 10 and r0["meta"] == {"k": "a"}
    assert np.frombuffer(r0["vec"], dtype="<f4").tolist() == row("a", "alpha", 10).vector.tolist()
    assert wal.drop_through(closed) == 1
    assert [r["t"] for r in WriteAheadLog(tmp_path / "wal").read().records] == ["edge"]
    assert wal.durable_through_us() is not None and wal.bytes > 0


def test_torn_tail_ends_the_segment_and_corruption_is_reported(tmp_path: Path) -> None:
    wal = WriteAheadLog(tmp_path / "wal")
    wal.open_segment()
    wal.append([row_record(row("a", "alpha", 10))])
    wal.append([row_record(row("b", "beta", 11))])
    wal.close()
    (seg,) = (tmp_path / "wal").glob("*.log")
    data = seg.read_bytes()
    for cut in (1, 5, 9, 40):  # inside the payload, inside the frame header...
        seg.write_bytes(data[:-cut])
        got = WriteAheadLog(tmp_path / "wal").read()
        assert [r["id"] for r in got.records] == ["a"] and got.torn == 1 and got.corrupt == 0
    # a flipped byte in the first frame, with a frame after it: corrupt, reading stops there
    broken = bytearray(data)
    broken[HEADER + 12] ^= 0xFF
    seg.write_bytes(bytes(broken))
    got = WriteAheadLog(tmp_path / "wal").read()
    assert got.records == [] and got.corrupt == 1
    # a segment created and never written past part of its header: nothing, no error
    seg.write_bytes(data[:5])
    got = WriteAheadLog(tmp_path / "wal").read()
    assert got.records == [] and got.corrupt == 0 and got.torn == 0


def test_final_state_keeps_the_last_word() -> None:
    records = [
        row_record(row("a", "v1", 10)),
        edge_record(edge("a", "b")),
        edge_record(edge("c", "d")),
        row_record(row("a", "v2", 12, version=2)),
        delete_record("a", 13),
        row_record(row("a", "again", 14)),  # the id comes back
        edge_delete_record("e-c-d"),
    ]
    state = final_state(records)
    rows, edges = state.rows, state.edges
    assert rows["a"]["t"] == "row" and rows["a"]["text"] == "again"
    assert edges["e-a-b"]["t"] == "edel"  # went with the delete of a
    assert edges["e-c-d"]["t"] == "edel"


def test_replay_restores_what_the_tables_lost_and_is_idempotent(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path, "m", 4)
    edges = EdgeStore.open(store, tmp_path)
    # the tables hold "kept" (as logged) and "newer" (a later version than the log's)
    store.insert([row("kept", "kept", 10), row("newer", "newer v3", 30, version=3), row("gone", "gone", 5)])
    records = [
        row_record(row("kept", "kept", 10)),
        row_record(row("lost", "lost row", 11)),
        row_record(row("newer", "newer v2", 20, version=2)),
        row_record(row("upd", "upd v1", 12)),
        row_record(row("upd", "upd v2", 15, version=2)),
        delete_record("gone", 16),
        edge_record(edge("lost", "kept", resolution="keep_new")),
    ]
    report = replay(records, store, edges)
    assert report == {"rows_restored": 2, "rows_deleted": 1, "edges_restored": 1, "edges_deleted": 0}
    got = store.get_many(["kept", "lost", "newer", "upd", "gone"])
    assert set(got) == {"kept", "lost", "newer", "upd"}
    assert got["newer"].text == "newer v3" and got["upd"].text == "upd v2" and got["upd"].version == 2
    assert got["lost"].metadata == {"k": "lost"} and got["lost"].vector.tolist() == row("lost", "", 0).vector.tolist()
    (e,) = edges.load()
    assert e == edge("lost", "kept", resolution="keep_new")
    again = replay(records, store, edges)
    assert again == {"rows_restored": 0, "rows_deleted": 0, "edges_restored": 0, "edges_deleted": 0}
    assert store.count() == 4


def test_failed_append_ends_its_segment_and_later_appends_survive(tmp_path: Path, monkeypatch: Any) -> None:
    """A full disk can leave half a frame in the segment. Records appended after the failure
    must not sit behind that torn frame (replay would stop there and drop them)."""
    import errno
    import os

    import omegad.storage.wal as wal_mod

    wal = WriteAheadLog(tmp_path / "wal")
    wal.open_segment()
    wal.append([row_record(row("a", "alpha", 10))])
    real_write = os.write
    calls = {"n": 0}

    def half_then_full(fd: int, data: Any) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(wal_mod.os, "write", half_then_full)
    try:
        wal.append([row_record(row("b", "beta", 11))])
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    else:
        raise AssertionError("the append should have failed")
    try:  # still full: a new segment cannot even be started, and leaves no file behind
        wal.append([row_record(row("b", "beta", 11))])
    except OSError:
        pass
    else:
        raise AssertionError("the append should have failed")
    monkeypatch.setattr(wal_mod.os, "write", real_write)
    wal.append([row_record(row("c", "gamma", 12))])  # space again: acknowledged
    got = WriteAheadLog(tmp_path / "wal").read()
    assert [r["id"] for r in got.records] == ["a", "c"]
    assert got.torn == 1 and got.corrupt == 0 and got.segments == 2


def test_a_checkpoint_without_a_new_segment_moves_the_durable_mark(tmp_path: Path) -> None:
    wal = WriteAheadLog(tmp_path / "wal")
    wal.open_segment()
    wal.append([{"t": "del", "id": "a", "u": 1}])
    opened = wal.durable_through_us()
    assert opened is not None
    wal.mark_durable_through(opened + 5_000_000)
    assert wal.durable_through_us() == opened + 5_000_000
    wal.append([{"t": "del", "id": "b", "u": 2}])  # appends go on after the mark
    assert [r["id"] for r in wal.read().records] == ["a", "b"]
    wal.close()
    assert wal.drop_through(wal.newest_closed()) == 1
    wal.mark_durable_through(1)  # no live segment: nothing to mark
    assert wal.durable_through_us() is None


def test_history_records_replay_and_a_forget_erases_what_was_logged_before(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path, "m", 4)
    edges = EdgeStore.open(store, tmp_path)
    history = HistoryStore.open(store.side_db)
    history.add([version_past(row("old", "logged before the table lost it", 3), 4)])  # already there
    records = [
        history_record(version_past(row("a", "a v1", 10), 12)),
        row_record(row("a", "a v2", 12, version=2)),
        history_record(version_past(row("b", "b v1", 11), 13, TOMBSTONE)),
        delete_record("b", 13),
        history_record(edge_past(edge("a", "b"), 13)),
        history_record(version_past(row("s", "a pasted secret", 14), 15)),
        forget_record("s", 16),
        row_record(row("s", "stored again after the forget", 17)),
        history_record(version_past(row("s", "stored again after the forget", 17), 18)),
    ]
    state = final_state(records)
    assert sorted(state.history) == ["a@12", "b@13", "e:e-a-b@13", "s@18"] and state.forgotten == {"s"}
    report = replay(records, store, edges, None, history)
    assert report["history_restored"] == 4
    assert [p.data["text"] for p in history.of_memory("a")] == ["a v1"]
    assert [p.kind for p in history.of_memory("b")] == [TOMBSTONE]
    assert [p.data["text"] for p in history.of_memory("s")] == ["stored again after the forget"]
    assert [p.id for p in history.edges_of(["b"])] == ["e:e-a-b@13"]
    replay(records, store, edges, None, history)  # idempotent
    assert len(history.load()) == 5
    assert history.namespaces_of(["b", "zz"]) == {"b": "n"}
