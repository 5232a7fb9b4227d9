"""The pieces of degraded mode that need no daemon: the maintenance backoff, the disk reserve's
gap, and error texts without Lance's build-machine source paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from omegad.app.faults import Backoff, Faults
from omegad.errors import error_text


def test_backoff_doubles_to_a_bound_and_logs_one_pause() -> None:
    b = Backoff(first_s=2, max_s=30)
    assert b.ready(0, disk_full=False)
    starts = [b.failed(t, disk_full=False) for t in range(8)]
    assert starts == [True] + [False] * 7  # one line per pause
    assert b.delay == 30 and not b.ready(7 + 29, disk_full=False) and b.ready(7 + 30, disk_full=False)
    assert b.succeeded(now=10) == (8, 10)
    assert b.succeeded(now=11) is None and b.ready(11, disk_full=False)


def test_a_pause_for_space_ends_when_the_disk_has_room() -> None:
    b = Backoff(first_s=60)
    b.failed(0, disk_full=True)
    assert not b.ready(1, disk_full=True)
    assert b.ready(1, disk_full=False)
    c = Backoff(first_s=60)
    c.failed(0, disk_full=False)  # another cause: the wait holds
    assert not c.ready(1, disk_full=False)


def test_lance_source_locations_are_dropped_from_error_texts() -> None:
    raw = (
        "LanceError(IO): Generic LocalFileSystem error: Unable to copy file from a to b: "
        "No space left on device (os error 28), /home/runner/work/lance/lance/rust/lance-io/src/local.rs:120:31"
    )
    text = error_text(OSError(raw))
    assert text.startswith("OSError: LanceError(IO)") and "(os error 28)" in text
    assert ".rs" not in text and "/home/runner" not in text
    assert len(error_text(RuntimeError("x" * 1000))) == 300


def test_the_reserve_refuses_below_it_and_resumes_only_at_twice_it(tmp_path: Path) -> None:
    vfs = os.statvfs(tmp_path)
    free = vfs.f_bavail * vfs.f_frsize
    if free < 1 << 30:
        pytest.skip("needs a file system with 1 GB free")
    # reserves placed around the real free space, so no file system has to fill up
    assert Faults(tmp_path, reserve_bytes=free // 4).space_for_writes() is None
    below = Faults(tmp_path, reserve_bytes=free * 2)
    err = below.space_for_writes()
    assert err is not None and err.data["reason"] == "disk_full" and below.active("disk_full")
    gap = Faults(tmp_path, reserve_bytes=free * 2 // 3)  # free is between the reserve and twice it
    assert gap.space_for_writes() is None  # not full yet: writes go on
    gap.report("disk_full", "a write failed")
    assert gap.space_for_writes() is not None  # once full: refused until twice the reserve
