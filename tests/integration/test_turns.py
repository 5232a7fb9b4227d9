"""Turns between team hosts that write at once (`omegad.app.turns`): the gaps a contended host
leaves, and the waiting markers, in moto's S3 on 127.0.0.1. The clock is the test's, so the
rules are checked without waiting them out."""

from __future__ import annotations

import pytest

from omegad.app.turns import GAP_FACTOR, HOLD_S, RECENT_COMMITS, SLOW_MIN_S, Turns, marker_name
from omegad.storage.bucket import Bucket

BUCKET = "turns"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_lone_host_never_waits(bucket: Bucket) -> None:
    clock = Clock()
    turns = Turns(bucket, "a", clock)
    for _ in range(50):
        turns.committed(0.04)
        clock.now += 0.001
        assert turns.pace() == 0.0
        turns.tick(None)  # (and makes no request but its looks while writing)
    assert not turns.contended and turns.paced == 0
    assert bucket.requests["put"] == 0


def test_gaps_follow_the_usual_commit_and_end_after_the_hold(bucket: Bucket) -> None:
    clock = Clock()
    turns = Turns(bucket, "a", clock)
    turns.committed(0.04)
    turns.committed(0.04)
    turns.committed(3.0)  # (a commit that lost races: the median does not move)
    assert turns.usual_s == pytest.approx(0.04)
    assert turns.gap_s() == pytest.approx(GAP_FACTOR * 0.04)
    turns.contended_until = clock.now + HOLD_S  # (as a look that found a fresh marker sets it)
    clock.now += 0.05
    assert turns.pace() == pytest.approx(GAP_FACTOR * 0.04 - 0.05)
    clock.now += 1.0  # (the gap since the last commit has passed)
    assert turns.pace() == 0.0
    turns.committed(0.04)
    assert turns.pace() > 0
    clock.now += HOLD_S
    turns.committed(0.04)
    assert turns.pace() == 0.0 and not turns.contended
    assert turns.paced == 2


def test_a_losing_host_says_so_and_a_writing_host_gives_way(bucket: Bucket) -> None:
    clock = Clock()
    loser, winner = Turns(bucket, "loser", clock), Turns(bucket, "winner", clock)
    loser.committed(0.04)
    winner.committed(0.04)
    winner.tick(None)  # (its first look only notes what is there: nothing)
    began = clock.now
    clock.now += SLOW_MIN_S / 2
    loser.tick(began)  # (not long enough yet)
    assert bucket.tags("waiting") == {}
    clock.now = began + SLOW_MIN_S + 0.1
    loser.tick(began)
    assert list(bucket.tags("waiting")) == [marker_name("loser").split("/", 1)[1]]
    assert loser.describe()["waiting_here"] and loser.marks == 1
    assert not loser.contended and loser.waiting_hosts == 0  # (its own marker is not another's)
    clock.now += 1.0  # (the winner looks once a second)
    winner.committed(0.04)
    assert not winner.contended
    winner.tick(None)
    assert winner.waiting_hosts == 1 and winner.contended
    assert winner.pace() > 0
    # the loser keeps its marker fresh while it waits; the winner keeps giving way
    clock.now += 1.1
    loser.tick(began)
    winner.committed(0.04)
    winner.tick(None)
    assert winner.waiting_hosts == 1
    # the loser's commit went through: its marker comes down
    loser.committed(4.0)
    loser.tick(None)
    assert bucket.tags("waiting") == {} and not loser.describe()["waiting_here"]


def test_markers_already_there_or_nobody_rewrites_never_count(bucket: Bucket) -> None:
    """A host killed while it waited leaves its marker (or one with another name, after a
    container's host name changed): a host that starts never gives way to it, and one that
    saw it rewritten stops giving way once it no longer changes."""
    clock = Clock()
    bucket.put(marker_name("dead"), b"{}")
    writer = Turns(bucket, "w", clock)
    writer.committed(0.04)
    writer.tick(None)
    assert writer.looks == 1 and writer.waiting_hosts == 0 and not writer.contended
    bucket.put(marker_name("dead"), b'{"again": 1}')  # (still rewritten: a host that waits)
    clock.now += 1.1
    writer.committed(0.04)
    writer.tick(None)
    assert writer.waiting_hosts == 1 and writer.contended
    clock.now += HOLD_S + 1  # (then its host died: the marker stays as it was)
    writer.committed(0.04)
    writer.tick(None)
    assert writer.waiting_hosts == 0 and not writer.contended


def test_a_restarted_host_takes_its_old_marker_down(bucket: Bucket) -> None:
    bucket.put(marker_name("h"), b"{}")  # (left by this host before a crash)
    Turns(bucket, "h", Clock()).tick(None)
    assert bucket.tags("waiting") == {}


def test_a_marker_someone_else_deleted_is_no_error(bucket: Bucket) -> None:
    clock = Clock()
    turns = Turns(bucket, "a", clock)
    turns.tick(clock.now - 5.0)
    bucket.delete(marker_name("a"))
    turns.tick(None)  # (takes it down: already gone)
    assert not turns.describe()["waiting_here"]


def test_the_usual_commit_follows_a_slower_table(bucket: Bucket) -> None:
    turns = Turns(bucket, "a", Clock())
    for _ in range(RECENT_COMMITS):
        turns.committed(0.04)
    for _ in range(RECENT_COMMITS):
        turns.committed(0.2)  # (a bigger table, a slower network: for good)
    assert turns.usual_s == pytest.approx(0.2)
    assert turns.slow_s() == pytest.approx(max(SLOW_MIN_S, 10 * 0.2))


def test_a_host_does_not_look_when_it_does_not_write(bucket: Bucket) -> None:
    clock = Clock()
    bucket.put(marker_name("other"), b"{}")
    reader = Turns(bucket, "r", clock)
    reader.tick(None)
    assert reader.looks == 0 and bucket.requests["list"] == 0


def test_release_takes_the_marker_down(bucket: Bucket) -> None:
    clock = Clock()
    turns = Turns(bucket, "a", clock)
    turns.tick(clock.now - 5.0)
    assert bucket.tags("waiting")
    turns.release()
    assert bucket.tags("waiting") == {}
