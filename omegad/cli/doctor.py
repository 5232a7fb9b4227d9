"""`omegad doctor`: is everything in place? One line per check — ok / warning / error — and,
for anything not ok, the command or change that fixes it. Exit status 1 when any check is an
error (the daemon cannot work), 0 otherwise.

It loads the models the way the daemon does (and runs them once), asks a running daemon for its
store's health, and when none runs opens nothing that could disturb one: the store is only
looked at (files and permissions), never opened for writing.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omegad.config import Config
from omegad.errors import error_text
from omegad_client import Client, DaemonNotRunning, OmegadError

__all__ = ["Check", "run_checks"]

#: Below this much free space on the data directory's file system, doctor warns.
LOW_SPACE = 256 << 20


@dataclass(frozen=True)
class Check:
    level: str  # "ok" | "warning" | "error"
    name: str
    detail: str
    fix: str | None = None

    def line(self) -> str:
        fix = f" · fix: {self.fix}" if self.fix else ""
        return f"{self.level:<7} {self.name:<16} {self.detail}{fix}"

    def as_dict(self) -> dict[str, Any]:
        return {"level": self.level, "name": self.name, "detail": self.detail, "fix": self.fix}


def _guard(name: str, fn: Callable[[], Check | list[Check]]) -> list[Check]:
    try:
        out = fn()
    except Exception as exc:  # a check that breaks is reported, never a traceback
        return [Check("error", name, f"check failed: {error_text(exc)}")]
    return out if isinstance(out, list) else [out]


def check_embedding(config: Config) -> Check:
    from omegad.models.files import ModelMissing, damaged_files, resolve_embedding
    from omegad.recall.embed import Embedder

    fix = "omegad models fetch embedding"
    try:
        files = resolve_embedding(config.embedding_model_dir, config.model_cache_dir)
    except ModelMissing as exc:
        return Check("error", "embedding model", f"missing: {exc}", fix)
    damaged = damaged_files(files.directory)
    if damaged:
        return Check(
            "error", "embedding model", f"damaged: {', '.join(damaged)} in {files.directory} fail their hash check", fix
        )
    try:
        t0 = time.perf_counter()
        embedder = Embedder(files, threads=1)
        (vec,) = embedder.embed(["omegad doctor probe"])
        ms = (time.perf_counter() - t0) * 1000
    except Exception as exc:
        return Check("error", "embedding model", f"{files.onnx} does not load: {error_text(exc)}", fix)
    return Check(
        "ok", "embedding model", f"{embedder.model_id} ({files.variant}, dim {len(vec)}), loads and runs in {ms:.0f} ms"
    )


def check_reranker(config: Config) -> Check:
    from omegad.models.files import ModelMissing, read_reranker_dir
    from omegad.recall.crossencoder import CrossEncoder
    from omegad.recall.rerank import reranker_dir

    if not config.reranker_enabled:
        return Check("ok", "reranker", "turned off in the configuration (queries keep the heuristic order)")
    fix = "omegad models fetch reranker"
    try:
        files = read_reranker_dir(reranker_dir(config))
    except ModelMissing as exc:
        return Check("warning", "reranker", f"missing ({exc}): queries keep the heuristic order", fix)
    try:
        t0 = time.perf_counter()
        encoder = CrossEncoder(files, threads=1, max_tokens=config.reranker_max_tokens)
        encoder.score([("omegad doctor", "a probe passage")])
        ms = (time.perf_counter() - t0) * 1000
    except Exception as exc:
        return Check(
            "warning",
            "reranker",
            f"{files.onnx} does not load ({error_text(exc)}): queries keep the heuristic order",
            f"rm -r {files.directory} && {fix}",
        )
    return Check("ok", "reranker", f"{files.model_id} ({files.quantization}), loads and scores in {ms:.0f} ms")


def check_data_dir(config: Config, daemon_running: bool = False) -> Check:
    d = config.data_dir
    if not d.exists():
        if daemon_running:
            return Check(
                "error",
                "data directory",
                f"{d} is gone, but the daemon on {config.socket_path} runs on it (deleted or moved under it?)",
                f"restore {d} from a backup, then restart omegad (a restart without it starts an empty store)",
            )
        return Check("warning", "data directory", f"{d} does not exist yet (created at the first start)")
    st = d.stat()
    if not stat.S_ISDIR(st.st_mode):
        return Check("error", "data directory", f"{d} is not a directory", "move it away, or set server.data_dir")
    if st.st_uid != os.getuid():
        return Check(
            "warning",
            "data directory",
            f"{d} belongs to uid {st.st_uid}, not to you ({os.getuid()})",
            f"chown -R {os.getuid()} {d}",
        )
    vfs = os.statvfs(d)
    if vfs.f_flag & os.ST_RDONLY:
        return Check(
            "error",
            "data directory",
            f"{d} is on a read-only file system: nothing can be stored",
            "remount it read-write",
        )
    if not os.access(d, os.W_OK | os.X_OK):
        return Check("error", "data directory", f"{d} is not writable", f"chmod u+rwx {d}")
    free = vfs.f_bavail * vfs.f_frsize
    if free < LOW_SPACE:
        return Check(
            "error" if free < LOW_SPACE // 8 else "warning",
            "data directory",
            f"{d}: only {free / 2**20:.1f} MB free (stores fail once the file system is full)",
            "free space on that file system",
        )
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o077:
        return Check(
            "warning",
            "data directory",
            f"{d} is open to others (mode {mode:o}): memories may be private",
            f"chmod 700 {d}",
        )
    return Check("ok", "data directory", f"{d} (mode {mode:o})")


def check_daemon(config: Config) -> list[Check]:
    path = config.socket_path
    try:
        with Client(path, timeout=10) as c:
            hello = c.hello()
            stats = c.stats()
    except DaemonNotRunning:
        why = "a stale socket file: nobody listens" if path.exists() else "no socket"
        return [
            Check(
                "warning",
                "daemon",
                f"not running at {path} ({why})",
                "omegad serve (foreground) or omegad service install",
            )
        ]
    except OmegadError as exc:
        return [
            Check("error", "daemon", f"answers at {path} but fails: {exc}", "see its log (journalctl --user -u omegad)")
        ]
    return daemon_checks(path, hello, stats)


def _at(d: Any, *keys: str) -> Any:
    """``d[k1][k2]…``, or None where a level is missing or not a map (a degraded daemon
    reports what it cannot measure as null)."""
    for k in keys:
        if not isinstance(d, dict):
            return None
        d = d.get(k)
    return d


def _num(value: Any, fmt: str = "{}", scale: float = 1) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "?"
    return fmt.format(value / scale if scale != 1 else value)


def daemon_checks(path: Path, hello: Any, stats: Any) -> list[Check]:
    """The daemon's lines from its ``hello`` and ``stats`` replies; any field may be missing
    or null (degraded modes), and every line must still print."""
    listed = _at(hello, "problems")
    problems = [p for p in listed if isinstance(p, dict)] if isinstance(listed, list) else []
    codes = ", ".join(str(p.get("code", "?")) for p in problems)
    out = [
        Check(
            "ok" if not problems else "error",
            "daemon",
            f"omegad {_at(hello, 'daemon_version') or '?'} at {path}, up {_num(_at(stats, 'uptime_s'), '{:.0f}')} s"
            + (f", degraded ({codes})" if problems else ""),
        )
    ]
    for p in problems:
        detail = f" ({p['detail']})" if p.get("detail") else ""
        out.append(Check("error", f"daemon {p.get('code', '?')}", f"{p.get('message', '?')}{detail}", p.get("fix")))
    store = "store"
    detail = (
        f"{_num(_at(stats, 'memories'))} memories, {_num(_at(stats, store, 'fragments'))} fragments, "
        f"{_num(_at(stats, store, 'unindexed_rows'))} unindexed rows, {_num(_at(stats, store, 'versions'))} versions, "
        f"{_num(_at(stats, store, 'disk_bytes'), '{:.1f}', 2**20)} MB"
    )
    due = _at(stats, "maintenance", "due")
    if due:
        out.append(Check("warning", "store", f"{detail}; maintenance due ({due})", "omegad maintain"))
    else:
        out.append(Check("ok", "store", detail))
    out += team_checks(_at(stats, "team"))
    reranker = _at(stats, "models", "reranker")
    if _at(reranker, "state") == "failed":
        out.append(
            Check("error", "daemon reranker", f"failed: {_at(reranker, 'last_error')}", "omegad models fetch reranker")
        )
    return out


def team_checks(team: Any) -> list[Check]:
    """A team store's lines from ``stats`` → ``team`` (none for a local store)."""
    if not isinstance(team, dict):
        return []
    probe = _at(team, "probe") or {}
    how = "conditional writes honoured" if _at(probe, "conditional_writes") else "commits through DynamoDB"
    requests = ", ".join(f"{k} {v}" for k, v in sorted((_at(team, "bucket_requests") or {}).items())) or "none"
    out = [
        Check("ok", "team store", f"{_at(team, 'uri')} ({how}); this host {_at(team, 'host')}; requests: {requests}")
    ]
    lease = _at(team, "lease") or {}
    holder = _at(lease, "holder")
    if _at(lease, "error"):
        out.append(
            Check(
                "error",
                "team lease",
                f"the lease cannot be read or renewed: {_at(lease, 'error')}",
                "check the bucket's endpoint, credentials and network (store.storage_options)",
            )
        )
    elif _at(team, "maintenance") != "auto":
        out.append(Check("ok", "team lease", f"maintenance set to {_at(team, 'maintenance')} on this host"))
    elif holder is None:
        out.append(Check("warning", "team lease", "no host holds the maintenance lease yet", "wait one lease TTL"))
    else:
        here = " (this host)" if _at(lease, "held_here") else ""
        out.append(Check("ok", "team lease", f"held by {holder}{here}, TTL {_num(_at(lease, 'ttl_s'))} s"))
    lag, ago = _at(team, "visibility_lag_ms"), _at(team, "followed_s_ago")
    seen = (
        f"other hosts' commits seen {_num(lag, '{:.0f}')} ms after they were made"
        if lag is not None
        else ("no other host's commit seen yet")
    )
    if _at(team, "follow_error"):
        out.append(
            Check(
                "warning",
                "team visibility",
                f"other hosts' writes are not being followed: {_at(team, 'follow_error')}",
                "check the bucket's reachability",
            )
        )
    else:
        out.append(Check("ok", "team visibility", f"{seen}; last look {_num(ago, '{:.1f}')} s ago"))
    return out


def check_team(config: Config) -> Check | list[Check]:
    """Without the daemon: can this host reach the team store, and does it honour
    conditional writes? Who holds the lease?"""
    if config.store_uri is None:
        return []
    from omegad.storage.bucket import Bucket, BucketError, Lease

    try:
        bucket = Bucket(config.store_uri, config.store_storage_options)
        probe = bucket.probe()
        leased = bucket.get(Lease.NAME)
    except BucketError as exc:
        return Check("error", "team store", str(exc), "see docs/team.md, Failure modes")
    holder = json.loads(leased.data).get("holder") if leased is not None else None
    return Check(
        "ok",
        "team store",
        f"{config.store_uri}: conditional writes honoured (probe {probe['ms']} ms); lease holder {holder or 'none'}",
    )


def check_service(config: Config, config_file: Path | None) -> Check:
    from omegad.cli import units

    platform = units.detect_platform()
    sf = units.service_files(config, platform, os.environ, config_file=config_file)
    missing = [p for p in sf.files if not p.exists()]
    if missing:
        return Check(
            "warning",
            "service",
            f"not installed ({platform}: {', '.join(str(p) for p in missing)} missing)",
            "omegad service install",
        )
    return Check("ok", "service", f"installed ({platform}: {', '.join(str(p) for p in sf.files)})")


def run_checks(config: Config, config_file: Path | None = None) -> list[Check]:
    checks: list[Check] = []
    checks += _guard("embedding model", lambda: check_embedding(config))
    checks += _guard("reranker", lambda: check_reranker(config))
    daemon = _guard("daemon", lambda: check_daemon(config))
    # (the "daemon" line is a warning only when nothing answers on the socket)
    running = not any(c.name == "daemon" and c.level == "warning" for c in daemon)
    checks += _guard("data directory", lambda: check_data_dir(config, daemon_running=running))
    if not running:  # (a running daemon reports its own view of the team store)
        checks += _guard("team store", lambda: check_team(config))
    checks += daemon
    checks += _guard("service", lambda: check_service(config, config_file))
    return checks


def main(config: Config, config_file: Path | None, as_json: bool) -> int:
    checks = run_checks(config, config_file)
    if as_json:
        import json

        print(json.dumps([c.as_dict() for c in checks], indent=2))
    else:
        for c in checks:
            print(c.line())
        sys.stdout.flush()
    return 1 if any(c.level == "error" for c in checks) else 0
