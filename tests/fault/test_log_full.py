"""The write-ahead log fails while the tables still take writes (its directory on a file system
of its own that fills up). A store whose log append failed may already be in the table; it must
not be acknowledged — not even as ``created: false`` to a retry of its id — until it is durable,
and then it survives kill -9 plus a power loss."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from omegad_client import NotFound, Unavailable

from ..helpers import Daemon
from .killing import drop_unsynced_manifests
from .mounts import MountRefused, fill, free, tmpfs_at

#: No timed passes: the test decides when the log is full, not a checkpoint beside it.
CONFIG = """
[maintenance]
interval_s = 3600
"""
#: The writer's order (commit, then log): what updates and deletes always do, and stores with
#: ``store.ack = "commit"``; by default a store is logged before it commits (the last test).
COMMIT_FIRST = (
    CONFIG
    + """
[store]
ack = "commit"
"""
)


@pytest.fixture
def wal_fs(tmp_path: Path) -> Iterator[Path]:
    try:
        with tmpfs_at(tmp_path / "data" / "wal", "1m") as mnt:
            yield mnt
    except MountRefused as exc:
        pytest.skip(str(exc))


@contextmanager
def _after_a_power_loss(d: Daemon, big: str, kept: tuple[str, ...]) -> Iterator[Any]:
    """Kill -9 plus a simulated power loss, restart: ``x`` (text *big*) and *kept* are there."""
    d.kill()
    dropped = drop_unsynced_manifests(d.data_dir)
    assert dropped > 0, "the simulated power loss dropped nothing: the test proves nothing"
    d.start()
    with d.client() as c:
        assert c.get("x")["text"] == big
        for mid in kept:
            c.get(mid)
        yield c


def test_a_store_whose_log_append_failed_is_acknowledged_only_once_durable(daemon_factory, wal_fs: Path) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory(data_dir=wal_fs.parent, config=COMMIT_FIRST).start()
    big = "The nightly export writes every table to the archive bucket. " * 150  # > 2 pages of log
    with d.client() as c:
        for i in range(3):
            assert c.store_result(f"stored before the log filled up, number {i}", id=f"b{i}", namespace="n")["created"]
        fill(wal_fs)
        with pytest.raises(Unavailable) as first:
            c.store(big, id="x", namespace="n")
        assert first.value.data["reason"] == "disk_full", first.value
        # the retry of the same id must not be acknowledged while the log cannot take it
        with pytest.raises(Unavailable) as retry:
            c.store(big, id="x", namespace="n")
        assert retry.value.data["reason"] == "disk_full", retry.value
        # and no other write commits meanwhile
        with pytest.raises(Unavailable):
            c.store("refused while the log is full", id="y", namespace="n")
        with pytest.raises(NotFound):
            c.get("y")
        free(wal_fs)
        # durable now: the retry is acknowledged as the memory that was already committed
        assert c.store_result(big, id="x", namespace="n")["created"] is False
        c.store("stored after the log had room again", id="z", namespace="n")
        assert c.hello()["status"] == "ok"
    with _after_a_power_loss(d, big, ("b0", "b1", "b2", "z")) as c:
        with pytest.raises(NotFound):
            c.get("y")
        assert c.stats()["store"]["recovery_at_start"]["rows_restored"] >= 1
    assert d.stop() == 0, d.log()


def test_a_store_logged_first_is_not_written_when_the_log_is_full(daemon_factory, wal_fs: Path) -> None:  # type: ignore[no-untyped-def]
    """Acknowledged at the log (the default): a store whose log append fails is refused
    before anything reaches the table, so a retry once the log has room creates it, and it
    survives kill -9 plus a power loss."""
    d: Daemon = daemon_factory(data_dir=wal_fs.parent, config=CONFIG).start()
    big = "The nightly export writes every table to the archive bucket. " * 150
    with d.client() as c:
        for i in range(3):
            assert c.store_result(f"stored before the log filled up, number {i}", id=f"b{i}", namespace="n")["created"]
        c.flush()
        fill(wal_fs)
        for _ in range(2):
            with pytest.raises(Unavailable) as refused:
                c.store(big, id="x", namespace="n")
            assert refused.value.data["reason"] == "disk_full", refused.value
        with pytest.raises(NotFound):
            c.get("x")
        assert c.stats()["store"]["pending"]["rows"] == 0
        free(wal_fs)
        assert c.store_result(big, id="x", namespace="n")["created"] is True
        assert c.store_result(big, id="x", namespace="n")["created"] is False
        assert c.hello()["status"] == "ok"
        c.flush()
    with _after_a_power_loss(d, big, ("b0", "b1", "b2")):
        pass
    assert d.stop() == 0, d.log()
