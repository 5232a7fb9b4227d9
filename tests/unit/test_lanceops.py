"""Lance's maintenance calls in a child process (`omegad.storage.childops.ChildOps`): the same answers
as in process, errors of the right kind (a pre-empted commit stays an `OSError`), a child that
dies is replaced, an idle one ends."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import numpy as np
import pytest

from omegad.storage import childops
from omegad.storage.childops import ChildOps
from omegad.storage.lanceops import CompactionBounds, LanceOpsFailed, LanceOpsTimeout, LocalOps, preempted
from omegad.storage.maintenance import MaintainPolicy
from omegad.storage.store import MemoryStore

from .test_store import _exact, _indexed_store, row

BOUNDS = CompactionBounds(target_rows=65_536, max_source_rows=1 << 20, max_remap_rows=16_384, max_rebuild_rows=4_096)


def _v(i: int) -> np.ndarray:  # type: ignore[type-arg]
    v = np.random.default_rng(i).standard_normal(16).astype(np.float32)
    return v / np.linalg.norm(v)


@pytest.fixture
def ops(tmp_path: Path):  # type: ignore[no-untyped-def]
    child = ChildOps(tmp_path / "lance")
    yield child
    child.close()


def test_the_child_answers_as_the_process_does(tmp_path: Path, ops: ChildOps) -> None:
    s = MemoryStore.open(tmp_path, "m", 16)
    _indexed_store(s, 300, 16)
    local = LocalOps(tmp_path / "lance")
    assert ops.fragments("memories") == local.fragments("memories") and ops.fragments("memories")
    assert ops.segments("memories") == local.segments("memories")
    assert set(ops.segments("memories")) == {"id_idx", "namespace_idx", "text_idx", "vector_idx"}
    assert ops.describe()["pid"] is not None and ops.starts == 1


def test_a_store_maintained_through_the_child_keeps_every_row(tmp_path: Path, ops: ChildOps) -> None:
    """Folds, the compaction's three steps (dead rows deleted for good first) and the cleanup,
    all through the child: every read still sees exactly the live rows."""
    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 300, 16)
    s.ops = ops
    extra = [row(f"x{i}", "side", f"late note {i} about deploys", rows[i].vector) for i in range(40)]
    for k in range(4):
        s.insert(extra[10 * k : 10 * k + 10])
    fold = s.maintenance.fold_new_rows(MaintainPolicy())
    assert fold is not None and fold["rows"] == 40
    s.delete(["x3", "x17"])
    s.upsert([row("x5", "side", "x5 rewritten about deploys", rows[5].vector)])
    assert len(s.dead.rows) == 3
    report = s.maintenance.maintain(MaintainPolicy(max_fragments=1), force=True)
    assert report["compacted"]["memories"]["fragments_removed"] >= 4, report
    assert report["cleanup"]["versions_removed"] > 0, report
    assert not s.dead.rows  # deleted for good with the rewrite
    live = [r for r in rows + extra if r.id not in {"x3", "x17", "x5"}] + [
        row("x5", "side", "x5 rewritten about deploys", rows[5].vector)
    ]
    _exact(s, rows + extra, live)
    assert ops.calls >= 8 and ops.starts == 1


def test_a_preempted_commit_is_an_os_error(tmp_path: Path, ops: ChildOps) -> None:
    """A delete committed on the fragments a compaction rewrote makes Lance refuse its
    commit; the child's answer keeps that an `OSError` the store reads as pre-empted (the
    next pass redoes the compaction), and the rows are as the delete left them."""
    s = MemoryStore.open(tmp_path, "m", 16)
    rows = [row(f"r{i}", "main", f"note {i} about deploys", _v(i)) for i in range(60)]
    for k in range(6):
        s.insert(rows[10 * k : 10 * k + 10])
    plan = ops.compact_plan("memories", BOUNDS, {})
    assert plan["bury"] == []
    rewritten = ops.compact_execute(replan=False)
    assert rewritten is not None and len(rewritten) == 6
    s.delete(["r12"])  # (no vector index: Lance's own delete, on a rewritten fragment)
    with pytest.raises(OSError) as caught:
        ops.compact_commit()
    assert preempted(caught.value), caught.value
    assert s.count() == 59 and "r12" not in s.existing_ids(["r12", "r13"])
    assert len(ops.fragments("memories")) == 6  # nothing committed


def test_a_commit_that_lost_every_retry_counts_as_preempted() -> None:
    """Lance rebases a commit that lost the race for the next version and tries again, up to
    20 times; under a stream of stores it can lose them all. That is a pre-emption (the next
    pass tries again, serialized with the writer), not a failure of the pass: CI saw a pass
    creating the first indexes beside a tight loop of stores fail with this message."""
    lost = OSError(
        "Commit conflict for version 1140: Failed to commit the transaction after 20 retries., "
        "/home/runner/work/lance/lance/rust/lance/src/io/commit.rs:1919:9"
    )
    assert preempted(lost)
    assert not preempted(OSError("LanceError(IO): No space left on device (os error 28)"))


def test_errors_fail_the_call_and_a_dead_child_is_replaced(tmp_path: Path, ops: ChildOps) -> None:
    s = MemoryStore.open(tmp_path, "m", 16)
    s.insert([row("a", "main", "one note about deploys", _v(0))])
    with pytest.raises(LanceOpsFailed, match="compact_commit without compact_execute"):
        ops.compact_commit()
    with pytest.raises(LanceOpsFailed, match="KeyError"):
        ops.call("no_such_call")
    with pytest.raises(LanceOpsFailed, match=r"ValueError: Dataset at path .*no_such_table\.lance was not found"):
        ops.fragments("no_such_table")
    assert len(ops.fragments("memories")) == 1 and ops.starts == 1  # the same child goes on
    pid = ops.describe()["pid"]
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while ops.running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(ops.fragments("memories")) == 1 and ops.starts == 2
    assert ops.describe()["pid"] != pid


def test_an_idle_child_ends(tmp_path: Path, ops: ChildOps) -> None:
    MemoryStore.open(tmp_path, "m", 16).insert([row("a", "main", "one note about deploys", _v(0))])
    ops.fragments("memories")
    pid = ops.describe()["pid"]
    assert not ops.close_if_idle(60.0) and ops.running  # (used just now)
    assert ops.close_if_idle(0.0) and not ops.running and ops.describe()["pid"] is None
    assert not os.path.exists(f"/proc/{pid}") or "State:\tZ" in Path(f"/proc/{pid}/status").read_text()
    assert len(ops.fragments("memories")) == 1 and ops.starts == 2  # started again when needed


def test_what_a_library_prints_does_not_break_the_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The child answers on a descriptor of its own: a library writing to standard output
    (here Lance's dataset opening, patched to print) goes to standard error instead."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import os\n"
        "import lance\n"
        "_real = lance.dataset\n"
        "def _noisy(*a, **k):\n"
        "    print('noise from a library', flush=True)\n"
        "    os.write(1, b'raw noise\\n')\n"
        "    return _real(*a, **k)\n"
        "lance.dataset = _noisy\n"
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    MemoryStore.open(tmp_path, "m", 16).insert([row("a", "main", "one note about deploys", _v(0))])
    ops = ChildOps(tmp_path / "lance")
    try:
        assert len(ops.fragments("memories")) == 1 and len(ops.fragments("memories")) == 1
    finally:
        ops.close()
    assert "raw noise" in capfd.readouterr().err


def test_an_open_compaction_keeps_its_child_and_a_stopped_one_starts_no_other(tmp_path: Path, ops: ChildOps) -> None:
    """The rewrite lives in the child between the compaction's calls: an idle close then
    would lose it (the pass would fail). After `stop` (the daemon's shutdown) no call starts
    another child."""
    s = MemoryStore.open(tmp_path, "m", 16)
    for k in range(4):
        s.insert([row(f"r{k}{i}", "main", f"note {k} {i} about deploys", _v(10 * k + i)) for i in range(10)])
    ops.compact_plan("memories", BOUNDS, {})
    assert ops.compacting and not ops.close_if_idle(0.0) and ops.running
    assert ops.compact_execute(replan=False) == [0, 1, 2, 3]
    assert not ops.close_if_idle(0.0)
    assert ops.compact_commit()["fragments_removed"] == 4
    assert not ops.compacting and ops.close_if_idle(0.0) and not ops.running
    assert s.count() == 40
    ops.stop()
    with pytest.raises(LanceOpsFailed, match="stopping"):
        ops.fragments("memories")
    assert not ops.running and ops.starts == 1


def test_a_commit_out_of_time_halves_the_next_compactions_bounds(
    tmp_path: Path, ops: ChildOps, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer waits for a compaction's commit: one that ran out of time (the child killed)
    fails the pass, and the next passes rewrite and remap less, back up one step per commit
    in time. Every row stays readable exactly once through it all."""
    s = MemoryStore.open(tmp_path, "m", 16)
    s.ops = ops
    rows = [row(f"r{i}", "main", f"note {i} about deploys", _v(i)) for i in range(60)]
    for k in range(6):
        s.insert(rows[10 * k : 10 * k + 10])
    planned: list[CompactionBounds] = []
    plan = ops.compact_plan
    monkeypatch.setattr(
        ops, "compact_plan", lambda table, bounds, dead: planned.append(bounds) or plan(table, bounds, dead)
    )
    policy = MaintainPolicy(max_fragments=1)
    monkeypatch.setattr(childops, "COMMIT_TIMEOUT_S", 0.0)
    with pytest.raises(LanceOpsTimeout, match="compact_commit"):
        s.maintenance.maintain(policy, force=True)
    assert s.maintenance.compact_shrink == 1 and ops.starts == 1 and not ops.running  # (killed)
    _exact(s, rows, rows)
    assert s.count() == 60
    monkeypatch.setattr(childops, "COMMIT_TIMEOUT_S", 60.0)
    for k in range(6):  # (whether or not the killed child's commit landed: more to compact)
        s.insert([row(f"x{k}{i}", "main", f"late {k} {i}", _v(100 + 10 * k + i)) for i in range(5)])
    report = s.maintenance.maintain(policy, force=True)
    assert report["compacted"]["memories"]["fragments_removed"] >= 6, report
    full = planned[0]
    assert planned[-1] == CompactionBounds(
        full.target_rows, full.max_source_rows // 2, full.max_remap_rows // 2, full.max_rebuild_rows // 2
    )
    assert s.maintenance.compact_shrink == 0  # in time: back to the full bounds
    late = [row(f"x{k}{i}", "main", f"late {k} {i}", _v(100 + 10 * k + i)) for k in range(6) for i in range(5)]
    _exact(s, rows + late, rows + late)
    assert s.count() == 90
