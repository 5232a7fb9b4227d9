"""The `omegad` command line against a real daemon."""

from __future__ import annotations

import json
from pathlib import Path

from ..helpers import Daemon
from ..helpers import omegad_cli as omegad


def test_store_query_explain_status_stats(shared_daemon: Daemon, ns: str) -> None:
    sock = str(shared_daemon.socket)
    out = omegad(
        "store",
        "JWT refresh tokens rotate on every use",
        "--type",
        "decision",
        "--tags",
        "auth,jwt",
        "--namespace",
        ns,
        "--socket",
        sock,
    )
    assert out.returncode == 0 and out.stdout.startswith("stored: "), out.stderr
    mid = out.stdout.split()[-1]
    again = omegad("store", "same", "--id", mid, "--namespace", ns, "--socket", sock)
    assert again.returncode == 0 and again.stdout.startswith("already stored: ")
    omegad("store", "The cafeteria closes at three on Fridays", "--namespace", ns, "--socket", sock)

    q = omegad("query", "refresh token rotation", "--namespace", ns, "--explain", "--socket", sock)
    assert q.returncode == 0, q.stderr
    lines = q.stdout.splitlines()
    assert lines[0].startswith("[embed]")
    assert lines[1].startswith("[vector+fts] 2 candidates")
    assert lines[2].startswith("[heuristic] scored and sorted 2")
    assert lines[3].startswith("[rerank] skipped")
    assert lines[4].startswith("[dedup]")
    assert lines[5].startswith("[floor]")
    assert lines[6].startswith("1. JWT refresh tokens rotate on every use (")
    assert "signals:" in q.stdout

    js = omegad("query", "refresh token rotation", "--namespace", ns, "--json", "--limit", "1", "--socket", sock)
    results = json.loads(js.stdout)
    assert [r["id"] for r in results] == [mid]

    status = omegad("status", "--socket", sock)
    assert status.returncode == 0 and "running at" in status.stdout and "memories:" in status.stdout
    stats = json.loads(omegad("stats", "--socket", sock).stdout)
    assert stats["namespaces"][ns]["total"] == 2


def test_client_commands_without_daemon(tmp_path: Path) -> None:
    out = omegad("status", "--socket", str(tmp_path / "none.sock"))
    assert out.returncode == 1 and "not running at" in out.stderr


def test_bad_config_exits_2(tmp_path: Path) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[server]\nnope = 1\n")
    out = omegad("serve", "--config", str(cfg), "--socket", str(tmp_path / "s.sock"), "--data-dir", str(tmp_path / "d"))
    assert out.returncode == 2 and "unknown key" in out.stderr


def test_store_prints_conflicts_and_contradictions_lists_them(shared_daemon: Daemon, ns: str) -> None:
    sock = str(shared_daemon.socket)
    first = omegad("store", "The user prefers dark mode in every editor", "--namespace", ns, "--socket", sock)
    assert first.returncode == 0 and "[contradiction]" not in first.stdout
    out = omegad("store", "The user switched to light mode in every editor", "--namespace", ns, "--socket", sock)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("stored: ")
    assert lines[1].startswith('[contradiction] "The user prefers dark mode in every editor" (')
    assert "— confidence 0." in lines[1] and "signals: antonym (dark/light)" in lines[1]
    listed = omegad("contradictions", "--namespace", ns, "--socket", sock)
    assert listed.returncode == 0 and '"The user switched to light mode in every editor"' in listed.stdout
    assert "[contradiction]" in listed.stdout
    empty = omegad("contradictions", "--namespace", ns + "-none", "--socket", sock)
    assert empty.stdout.strip() == "(no contradictions)"
