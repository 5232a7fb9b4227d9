"""Turns between the hosts of a team store that write at once (docs/team.md, "Writers on several
hosts").

Every commit to a table in object storage is a race for its next manifest, and Lance's loser
retries after a random wait from a window that doubles at each loss, while the winner's next
commit starts at once. Under a steady load from two hosts the loser's windows grow until it
hardly ever commits, and after Lance's 30 s it gives up (docs/team.md has the measurement). So:

* a host whose commit has been retrying for long (`SLOW_FACTOR` times its usual commit, at least
  `SLOW_MIN_S`) says so in the bucket: ``_omegad/waiting/<host>``, rewritten every second while
  it waits and deleted after (`tick`);
* a host that is writing looks there every second; a marker that changed since its last look
  makes it leave a gap of a few of its own commit times after each commit, for `HOLD_S`: the
  writes queued meanwhile go into its next commit (group commit), and the loser's retry finds
  the manifest free (`pace`).

A lone host never waits, and a host that only reads never looks. A marker left by a host that
died waiting stops counting at the next look, since nobody rewrites it.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import structlog

from omegad.storage.bucket import Bucket

__all__ = ["GAP_FACTOR", "HOLD_S", "Turns"]

log = structlog.get_logger("omegad")

#: After each commit, while another host waits, a host waits this many of its usual commit
#: times: a waiting host's retry then finds the manifest free (docs/team.md has the figures).
GAP_FACTOR = 5.0
GAP_MIN_S, GAP_MAX_S = 0.02, 1.0
#: How long a fresh marker of another host keeps this host leaving gaps.
HOLD_S = 20.0
#: The commits whose median is a host's usual commit time.
RECENT_COMMITS = 31
#: A commit running this many usual commit times (and at least SLOW_MIN_S) is losing races.
SLOW_FACTOR = 10.0
SLOW_MIN_S = 0.5
#: A waiting host rewrites its marker this often; a writing host looks at the markers this often,
#: while it has committed within LOOK_WHILE_S.
MARK_EVERY_S = 1.0
LOOK_EVERY_S = 1.0
LOOK_WHILE_S = 3.0
FOLDER = "waiting"


def marker_name(host: str) -> str:
    return f"{FOLDER}/{hashlib.sha256(host.encode()).hexdigest()[:16]}"


class Turns:
    """One host's side of the turns (see the module docstring). `committed` is called by the
    writer thread after each commit to the memories table, `pace` by the write queue before
    each batch, `tick` by the team loop in a worker thread."""

    def __init__(self, bucket: Bucket, host: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.bucket, self.host, self.clock = bucket, host, clock
        self.name = marker_name(host)
        self._lock = threading.Lock()
        self.usual_s: float | None = None  # the median of the recent commits' times
        self._recent: deque[float] = deque(maxlen=RECENT_COMMITS)
        self.last_end = -math.inf
        self.contended_until = -math.inf
        self.marked_at: float | None = None  # when this host's marker was last written
        # (set before each PUT: one that failed may still have stored it, so it is deleted after)
        self._maybe_marked = True  # (and at start: a marker this host left before a crash)
        self._looked_at = -math.inf
        #: other hosts' markers at the last look: name → entity tag (None before the first look,
        #: which only notes what is there: a marker counts once it is seen to change)
        self._seen: dict[str, str] | None = None
        self.waiting_hosts = 0  # other hosts' fresh markers at the last look
        self.commits = 0
        self.paced = 0  # batches held back
        self.paced_s = 0.0
        self.marks = 0  # times this host said it waits
        self.looks = 0

    def gap_s(self) -> float:
        usual = self.usual_s if self.usual_s is not None else GAP_MIN_S
        return min(GAP_MAX_S, max(GAP_MIN_S, GAP_FACTOR * usual))

    def slow_s(self) -> float:
        usual = self.usual_s if self.usual_s is not None else 0.0
        return max(SLOW_MIN_S, SLOW_FACTOR * usual)

    @property
    def contended(self) -> bool:
        return self.clock() < self.contended_until

    def committed(self, seconds: float) -> None:
        """A commit of this host took *seconds*."""
        with self._lock:
            self.last_end = self.clock()
            self.commits += 1
            # (a median: a few commits that lost races, or a bulk load's big ones, do not move
            # it, and it follows a table or a network that got slower for good)
            self._recent.append(seconds)
            self.usual_s = statistics.median(self._recent)

    def pace(self) -> float:
        """Seconds the next batch of writes should wait (0 unless another host writes)."""
        with self._lock:
            now = self.clock()
            if now >= self.contended_until:
                return 0.0
            wait = self.last_end + self.gap_s() - now
            if wait <= 0:
                return 0.0
            self.paced += 1
            self.paced_s += wait
            return wait

    def tick(self, committing_since: float | None) -> None:
        """Put up, refresh or take down this host's marker; look at the others' while writing
        (blocking: the bucket's requests). A failed marker request does not keep the look from
        being made; the first error is raised after it."""
        now = self.clock()
        error: Exception | None = None
        try:
            self._mark(now, committing_since)
        except Exception as exc:
            error = exc
        if now - self.last_end < LOOK_WHILE_S and now - self._looked_at >= LOOK_EVERY_S:
            self._looked_at = now
            self._look(now)
        if error is not None:
            raise error

    def _mark(self, now: float, committing_since: float | None) -> None:
        if committing_since is not None and now - committing_since >= self.slow_s():
            if self.marked_at is None or now - self.marked_at >= MARK_EVERY_S:
                body = json.dumps({"host": self.host, "waited_s": round(now - committing_since, 1)}).encode()
                self._maybe_marked = True
                self.bucket.put(self.name, body)
                if self.marked_at is None:
                    self.marks += 1
                    log.info("commit_waiting", waited_s=round(now - committing_since, 1))
                self.marked_at = now
        elif self._maybe_marked:
            self.release()

    def _look(self, now: float) -> None:
        tags = {k: v for k, v in self.bucket.tags(FOLDER).items() if f"{FOLDER}/{k}" != self.name}
        self.looks += 1
        # (a marker counts while its writer keeps rewriting it: one left by a dead host stops
        # counting at the next look, whatever the clocks say)
        seen, self._seen = self._seen, tags
        fresh = [] if seen is None else [k for k, tag in tags.items() if seen.get(k) != tag]
        self.waiting_hosts = len(fresh)
        if fresh:
            with self._lock:
                self.contended_until = max(self.contended_until, now + HOLD_S)

    def release(self) -> None:
        """Take this host's marker down, if it may be up (blocking; also at a clean stop)."""
        if self._maybe_marked:
            self.bucket.discard(self.name)
            self._maybe_marked = False
            self.marked_at = None

    def describe(self) -> dict[str, Any]:
        return {
            "contended": self.contended,
            "gap_ms": round(self.gap_s() * 1000, 1),
            "usual_commit_ms": None if self.usual_s is None else round(self.usual_s * 1000, 1),
            "commits": self.commits,
            "paced": self.paced,
            "paced_s": round(self.paced_s, 2),
            "waiting_here": self.marked_at is not None,
            "marks": self.marks,
            "waiting_hosts": self.waiting_hosts,
            "looks": self.looks,
        }
