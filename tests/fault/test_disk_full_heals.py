"""A full disk heals itself: old table versions that a pass would free are freed while the disk
is full (a pass that only deletes needs no space), passes back off instead of failing in a
loop, the degraded state has a gap between refusing and resuming writes (no flapping), and
`omegad maintain` on a full disk does what it can instead of failing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from omegad_client import Unavailable

from ..helpers import REPO, Daemon
from .mounts import MountRefused, fill, free, tmpfs_at

#: Commits pile up table versions (no pass is due): what a pass would free later.
PILE_UP = """
[maintenance]
interval_s = 3600
max_fragments = 100000
unindexed_rows = 100000
"""

#: Then: frequent passes, and a 2 MB reserve (writes refused below it, resumed at 4 MB).
BUSY = """
[store]
disk_reserve_mb = 2

[maintenance]
interval_s = 1
max_fragments = 4
"""


@pytest.fixture
def fs(tmp_path: Path) -> Iterator[Path]:
    try:
        with tmpfs_at(tmp_path / "fs", "32m") as mnt:
            yield mnt
    except MountRefused as exc:
        pytest.skip(str(exc))


def _pile_up(daemon_factory: Any, data: Path, n: int) -> set[str]:
    d: Daemon = daemon_factory(data_dir=data, config=PILE_UP, name="pile").start()
    with d.client() as c:
        for i in range(n):
            c.store(f"memory {i} about the release train and the build cache", id=f"m{i}", namespace="n")
    assert d.stop() == 0, d.log()
    return {f"m{i}" for i in range(n)}


def _fill_to(fs: Path, left: int) -> None:
    """Fill *fs* so that about *left* bytes stay free."""
    fill(fs)
    free(fs)
    vfs = os.statvfs(fs)
    with (fs / "ballast").open("wb") as f:
        f.write(b"\0" * max(0, vfs.f_bavail * vfs.f_frsize - left))


def _events(log: str, name: str) -> list[dict[str, Any]]:
    out = []
    for line in log.splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict) and e.get("event") == name:
            out.append(e)
    return out


def test_a_full_disk_heals_by_itself(daemon_factory, fs: Path) -> None:  # type: ignore[no-untyped-def]
    acked = _pile_up(daemon_factory, fs / "data", 300)
    _fill_to(fs, 1 << 20)  # below the 2 MB reserve
    d: Daemon = daemon_factory(data_dir=fs / "data", config=BUSY).start()
    refused = 0
    with d.client() as c:
        deadline = time.monotonic() + 60
        i = 0
        while time.monotonic() < deadline:
            mid = f"new{i}"
            try:
                c.store(f"stored while the disk fills and heals, {i}", id=mid, namespace="n")
                acked.add(mid)
                i += 1
                if i >= 20:
                    break
            except Unavailable as exc:
                assert exc.data["reason"] == "disk_full", exc
                refused += 1
                time.sleep(0.05)
        assert refused > 0, "the disk was never full: the test proves nothing"
        assert i >= 20, f"writes never resumed: {c.hello()}"
        assert c.hello()["status"] == "ok"
        time.sleep(3)  # a full pass once the space is back
        backoff = c.stats()["maintenance"]["backoff"]
    assert d.stop() == 0, d.log()
    log = d.log()
    cleanups = [e for e in _events(log, "maintenance") if e.get("cleanup_only")]
    assert cleanups and cleanups[0]["cleanup"]["bytes_freed"] > 2 << 20, cleanups
    assert _events(log, "job_failed") == []
    # one line when passes stop, one when they work again; no flapping of the state
    assert len(_events(log, "maintenance_paused")) == 1, _events(log, "maintenance_paused")
    assert len(_events(log, "maintenance_resumed")) == 1
    assert backoff["failures"] == 0
    degraded = [e for e in _events(log, "degraded") if e["problem"] == "disk_full"]
    assert len(degraded) == 1 and len(_events(log, "recovered")) == 1, (degraded, _events(log, "recovered"))
    assert all(".rs:" not in line for line in log.splitlines()), "Lance's source paths in the log"
    d.start()
    with d.client() as c:
        for mid in acked:
            c.get(mid)
    assert d.stop() == 0, d.log()


def test_omegad_maintain_on_a_full_disk_removes_old_versions(daemon_factory, fs: Path) -> None:  # type: ignore[no-untyped-def]
    acked = _pile_up(daemon_factory, fs / "data", 150)
    d: Daemon = daemon_factory(data_dir=fs / "data", config=PILE_UP).start()
    with d.client() as c:
        c.store("one more, so there is something to check", id="last", namespace="n")
        _fill_to(fs, 256 << 10)
        with pytest.raises(Unavailable):  # (below the default 8 MB reserve)
            c.store("refused", namespace="n")
    r = subprocess.run(
        [sys.executable, "-m", "omegad", "maintain", "--socket", str(d.socket)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "only old versions were removed" in r.stdout and "MB freed" in r.stdout, r.stdout
    with d.client() as c:
        report = c.maintain()
        assert report["cleanup_only"] and report["reason"] == "requested", report
        for mid in [*acked, "last"]:
            c.get(mid)
        free(fs)
        c.store("writes resume once there is room", namespace="n")
        report = c.maintain()
        assert not report.get("cleanup_only") and report["after"]["versions"] >= 1, report
    assert d.stop() == 0, d.log()
