"""Team mode (``store.uri``, docs/team.md): several daemons on several hosts share one store in
object storage. This module is what a daemon does beyond its own reads and writes:

* at start, the bucket's probe (`Bucket.probe`: conditional writes honoured, else no start);
* the maintenance lease (`Lease`): only its holder compacts, folds indexes and cleans up old
  versions (`may_maintain`), and sweeps every host's commits for contradictions;
* following the other hosts: when a table's version moves, what this daemon keeps in memory
  from it (index state, the contradiction graph, feedback and access signals) is read again.
"""

from __future__ import annotations

import hashlib
import json
import math
import socket
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import anyio
import structlog

from omegad.app.turns import Turns
from omegad.config import Config
from omegad.errors import error_text
from omegad.storage.bucket import Bucket, BucketError, Lease, Stored, redacted_options
from omegad.storage.location import Location
from omegad.timeutil import iso, now_us

if TYPE_CHECKING:
    from omegad.app.service import Service

__all__ = ["KEEP_VERSIONS_S", "SWEEP_OVERLAP_US", "Team", "team_config"]

log = structlog.get_logger("omegad")

#: Old versions a cleanup keeps in a team store: other hosts' reads (an export's pinned
#: snapshot among them) may still be on one.
KEEP_VERSIONS_S = 3600.0
#: The leader sweeps at most this often, and a host reads the table's new commit stamps (for
#: `visibility_lag_ms`) at most this often: each is a scan of the stamps' column.
SWEEP_EVERY_S = 2.0
STAMP_EVERY_S = 10.0
#: How often `Turns.tick` runs (its marker and looks keep their own, slower, pace).
TURNS_EVERY_S = 0.25
#: The sweeps' watermark, in the bucket (`Bucket` names).
SWEEP_OBJECT = "sweep.json"
#: The leader's sweep re-checks this much before its watermark: commit stamps are each host's
#: clock, and a host whose clock is behind commits below the newest stamp already seen.
SWEEP_OVERLAP_US = 60_000_000


def team_config(config: Config) -> Config:
    """What team mode changes. Stores are acknowledged at their commit: the object store's
    PUT is durable, and a local log replayed after a crash could write a stale version over
    another host's newer one. The neighbour cache is dropped whenever another host commits
    (`MemoryStore.cache_fresh`), and full-text searches always go to LanceDB: BM25 counts over every
    namespace, which this host does not hold."""
    return config.with_overrides(store_ack="commit", cache_fulltext=False)


def default_host(config: Config) -> str:
    """This daemon's name in the lease: the host name and a digest of its data directory (two
    daemons on one machine are two hosts)."""
    digest = hashlib.sha256(str(config.data_dir.resolve()).encode()).hexdigest()[:8]
    return f"{socket.gethostname()}/{digest}"


class Team:
    """One daemon's part in a team store (see the module docstring)."""

    def __init__(self, config: Config, bucket: Bucket, location: Location, probe: dict[str, Any]) -> None:
        self.config, self.bucket, self.location, self.probe = config, bucket, location, probe
        self.host = config.team_host or default_host(config)
        self.lease = Lease(bucket, self.host, config.team_lease_ttl_s)
        self.turns = Turns(bucket, self.host)
        self.turns_error: str | None = None
        self.lease_error: str | None = None
        self.versions: dict[str, int] = {}  # table → the version this daemon's view was built from
        self.foreign_moves = 0  # looks that found another host's commit to the memories
        self.refreshes: dict[str, int] = {}  # table → times it was read again for another host's commits
        self.followed_at: float | None = None  # monotonic time of the last successful look
        self.follow_error: str | None = None
        self.lag_ms: float | None = None  # (`_measure_lag`)
        self.sweeps = 0
        self.swept = 0  # memories queued by the sweeps
        self._health_at = -math.inf  # when the leader last read the table's health
        self._swept_at = -math.inf  # when it last swept
        self._stamped_at = -math.inf  # when the newest commit stamp was last read (lag)
        self._newest = 0  # the newest commit stamp read from the table (for the lag)
        self._noticed_us: int | None = None  # when another host's commit was first noticed, unmeasured
        self._sweep_owed = self._health_owed = False  # the table moved since the last sweep / look
        self.watermark: int | None = None  # the sweeps' (a commit stamp), once read from the bucket
        self._watermark_tag: str | None = None

    @classmethod
    def open(cls, config: Config) -> Team:
        """Connect to the bucket and probe it (blocking); raises `BucketError` when the store
        cannot be used safely."""
        assert config.store_uri is not None
        options = dict(config.store_storage_options)
        bucket = Bucket(config.store_uri, options)
        ddb = urlsplit(config.store_uri).scheme.lower() == "s3+ddb"
        try:
            probe = bucket.probe()
        except BucketError as exc:
            # s3+ddb commits through DynamoDB; only the lease needs conditional writes then
            if not ddb or "conditional writes" not in str(exc):
                raise
            if config.team_maintenance == "auto":
                raise BucketError(
                    f"{exc}. With s3+ddb:// the maintenance lease cannot be held in this bucket: set "
                    'team.maintenance = "always" on exactly one host and "never" on the others'
                ) from None
            probe = {"conditional_writes": False, "commits": "dynamodb"}
        location = Location(
            config.data_dir / "lance",
            config.store_uri,
            options,
            visibility_s=config.store_visibility_s,
            keep_versions_s=KEEP_VERSIONS_S,
        )
        log.info(
            "team_store",
            uri=config.store_uri,
            options=redacted_options(options),
            probe=probe,
            maintenance=config.team_maintenance,
        )
        return cls(config, bucket, location, probe)

    @property
    def maintains(self) -> bool:
        """Whether this host may compact, fold indexes and clean up (and sweep)."""
        mode = self.config.team_maintenance
        return mode == "always" or (mode == "auto" and self.lease.held)

    def period_s(self) -> float:
        """How often the lease is ticked and the tables looked at."""
        return max(0.05, min(self.config.team_lease_ttl_s / 3, self.config.store_visibility_s))

    # -- the loop (the service's task group) --------------------------------------------------

    async def run(self, svc: Service) -> None:
        """Tick the lease and follow the other hosts until cancelled; give the lease up then."""
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._take_turns, svc)
                while True:
                    await self._tick(svc)
                    await self.follow(svc)
                    await anyio.sleep(self.period_s())
        finally:
            with anyio.CancelScope(shield=True):
                if self.lease.held:
                    try:
                        await anyio.to_thread.run_sync(self.lease.release)
                    except Exception as exc:  # the others take over after the TTL instead
                        log.warning("lease_release_failed", error=error_text(exc))
                try:
                    await anyio.to_thread.run_sync(self.turns.release)
                except Exception as exc:  # (a marker left behind stops counting at the next look)
                    log.warning("turns_release_failed", error=error_text(exc))

    async def _take_turns(self, svc: Service) -> None:
        """Say when this host's commit is losing races, and look whether another host's is
        (`Turns.tick`), apart from the follower's looks, which can take long."""
        while True:
            try:
                await anyio.to_thread.run_sync(self.turns.tick, svc.store.committing_since)
                self.turns_error = None
            except Exception as exc:  # (the bucket unreachable: the follower reports it)
                self.turns_error = error_text(exc)
            await anyio.sleep(TURNS_EVERY_S)

    async def _tick(self, svc: Service) -> None:
        if self.config.team_maintenance != "auto":
            return
        was = self.lease.held
        try:
            await anyio.to_thread.run_sync(self.lease.tick)
            self.lease_error = None
        except Exception as exc:  # (unreachable bucket: not a leader until a tick works)
            if self.lease_error is None:
                log.warning("lease_tick_failed", error=error_text(exc))
            self.lease_error = error_text(exc)
        if self.lease.held and not was:  # the new leader looks at what the others left
            svc.scheduler.jobs.submit_nowait(lambda: svc.scheduler.job(True, "leader"), key="maintenance")

    async def follow(self, svc: Service) -> None:
        """Read again what this daemon keeps from a table another host committed to."""
        try:
            await self._follow(svc)
            self.followed_at, self.follow_error = time.monotonic(), None
            svc.faults.clear("store_unreachable")  # (the bucket answers again)
        except Exception as exc:
            if self.follow_error is None:
                log.warning("team_follow_failed", error=error_text(exc))
            self.follow_error = error_text(exc)
            svc.faults.storage_error(exc, "following the other hosts")  # (reported when it is the bucket)

    async def _follow(self, svc: Service) -> None:
        store = svc.store

        def versions() -> dict[str, int]:
            out = {"memories": int(store.table.version), "edges": int(svc.edges.table.version)}
            signals = svc.writer.signal_store
            if signals is not None:
                out["signals"] = int(signals.table.version)
            return out

        now = await anyio.to_thread.run_sync(versions, limiter=svc.read_limiter)
        before, self.versions = self.versions, now
        if not before:
            return
        moved = {name for name, v in now.items() if before.get(name) not in (None, v)}
        clock = time.monotonic()
        if "memories" in moved:
            # (the neighbour cache drops itself: `MemoryStore.cache_fresh`)
            if store.made_elsewhere(before["memories"], now["memories"]):
                self.foreign_moves += 1
                if self._noticed_us is None:
                    self._noticed_us = now_us()
            await anyio.to_thread.run_sync(store.refresh_index_state, limiter=svc.read_limiter)
            self._sweep_owed = self._health_owed = True
        if self._noticed_us is not None and clock - self._stamped_at >= STAMP_EVERY_S:  # (a column's scan)
            self._stamped_at = clock
            await self._measure_lag(svc)
        if self.maintains and self._sweep_owed and clock - self._swept_at >= SWEEP_EVERY_S:
            self._sweep_owed, self._swept_at = False, clock
            await self._sweep(svc)
        if self.maintains and self._health_owed:
            await self._maintain_if_due(svc)
        if "edges" in moved:
            edges = await anyio.to_thread.run_sync(svc.edges.load, limiter=svc.read_limiter)
            svc.reload_graph(edges)
        if "signals" in moved and svc.writer.signal_store is not None:
            mark = svc.signals.forgotten
            _, others = await anyio.to_thread.run_sync(svc.writer.signal_store.shares, limiter=svc.read_limiter)
            svc.signals.load_others(others, mark)
        for name in moved:
            self.refreshes[name] = self.refreshes.get(name, 0) + 1

    async def _measure_lag(self, svc: Service) -> None:
        """`visibility_lag_ms`: from the commit stamp of the newest row committed before this
        host noticed another host's commit, to that moment — how late this host's view (its
        caches, the graph) follows the others (plus any clock skew between the hosts). Rows
        are read by ``get`` or a query sooner: within ``store.visibility_s``."""
        noticed, self._noticed_us = self._noticed_us, None
        assert noticed is not None
        committed = await anyio.to_thread.run_sync(svc.store.updated_after, self._newest, limiter=svc.read_limiter)
        before = [stamp for _, stamp in committed if stamp <= noticed]
        if before and self._newest:  # (the first read only sets where the stamps stand)
            self.lag_ms = round((noticed - max(before)) / 1000, 1)
        self._newest = max([self._newest, *(stamp for _, stamp in committed)])

    async def _sweep(self, svc: Service) -> None:
        """The leader checks every host's new memories for contradictions, as far as its own
        checker has not checked them at that version. A host checks its own after its commit,
        which sees every commit before it, so of two contradicting memories stored on two
        hosts at once the later one's check finds the pair; the sweep covers what no host
        checked: a host killed between a commit and its check and never restarted, a checker
        turned off or overflowed. Checks are idempotent and edge ids deterministic, so a pair
        found twice is one edge. What was swept is marked by a watermark in the bucket (a
        commit stamp), so that the next leader goes on from there."""
        if not self.config.contradiction_enabled:
            return
        if self.watermark is None:
            stored = await anyio.to_thread.run_sync(self.bucket.get, SWEEP_OBJECT)
            self.watermark, self._watermark_tag = _watermark_of(stored), stored.etag if stored else None
            if self.watermark is None:  # the first leader: from what its own checker covers
                self.watermark = svc.checker.safe_cursor()
        start = max(0, self.watermark - SWEEP_OVERLAP_US)
        committed = await anyio.to_thread.run_sync(svc.store.updated_after, start, limiter=svc.read_limiter)
        self.sweeps += 1
        self.swept += svc.checker.sweep(committed)
        newest = max((stamp for _, stamp in committed), default=self.watermark)
        if newest > self.watermark:
            self.watermark = newest
            await anyio.to_thread.run_sync(self._save_watermark)

    async def _maintain_if_due(self, svc: Service) -> None:
        """The leader's passes count other hosts' commits too: at most once per
        ``maintenance.interval_s`` it reads the table's fragments and unindexed rows (its own
        writes' count, which makes passes due locally, knows nothing of theirs)."""
        now = time.monotonic()
        if now - self._health_at < min(self.config.maintenance_interval_s, 10.0):
            return
        self._health_at, self._health_owed = now, False
        health = await anyio.to_thread.run_sync(svc.store.health, limiter=svc.read_limiter)
        policy = svc.scheduler.policy
        reason = None
        if not svc.store.indexes.ready and health["rows"]:
            reason = "indexes"
        elif health["fragments"] > svc.scheduler.fragment_limit():
            reason = "fragments"
        elif health["unindexed_rows"] >= policy.unindexed_rows:
            reason = "unindexed_rows"
        if reason is not None:
            svc.scheduler.fragments_estimate = health["fragments"]
            svc.scheduler.jobs.submit_nowait(lambda: svc.scheduler.job(True, f"team_{reason}"), key="maintenance")

    def _save_watermark(self) -> None:
        """Write the watermark to the bucket (If-Match: a lost race means another leader
        moved it; the overlap re-checks what that leaves out)."""
        body = json.dumps({"swept_through_us": self.watermark, "host": self.host}).encode()
        tag = (
            self.bucket.create(SWEEP_OBJECT, body)
            if self._watermark_tag is None
            else self.bucket.replace(SWEEP_OBJECT, body, self._watermark_tag)
        )
        if tag is None:  # (read again next time)
            self.watermark, self._watermark_tag = None, None
        else:
            self._watermark_tag = tag

    # -- reports ----------------------------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """``stats`` → ``team`` and ``doctor``: the mode, the probe, the lease, how fresh this
        host's view is and the requests made to the bucket."""
        age = None if self.followed_at is None else round(time.monotonic() - self.followed_at, 3)
        return {
            "mode": "team",
            "uri": self.config.store_uri,
            "host": self.host,
            "probe": self.probe,
            "maintenance": self.config.team_maintenance,
            "maintains": self.maintains,
            "lease": {**self.lease.describe(), "error": self.lease_error},
            "visibility_s": self.config.store_visibility_s,
            "followed_s_ago": age,
            "follow_error": self.follow_error,
            "visibility_lag_ms": self.lag_ms,
            "table_versions": dict(self.versions),
            "refreshes": dict(self.refreshes),
            "foreign_moves": self.foreign_moves,
            "sweeps": self.sweeps,
            "sweep_watermark": iso(self.watermark) if self.watermark else None,
            "swept": self.swept,
            "turns": {**self.turns.describe(), "error": self.turns_error},
            "bucket_requests": dict(self.bucket.requests),
        }


def _watermark_of(stored: Stored | None) -> int | None:
    try:
        value = json.loads(stored.data)["swept_through_us"] if stored is not None else None
    except (ValueError, KeyError, TypeError):
        return None
    return int(value) if isinstance(value, int) else None
