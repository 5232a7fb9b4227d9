"""Peer-credential authorization against a real daemon: a client process that switches to
another uid (65534) is refused, may read a granted namespace and nothing else when granted
read access, may write only with a read-write grant; the owner keeps full access and refused
requests change nothing."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from omegad_client import Client, OmegadError

from ..helpers import Daemon

OTHER = 65534  # nobody
SHARED_DIRS: list[Path] = []


@pytest.fixture(autouse=True)
def _remove_shared_dirs() -> Iterator[None]:
    yield
    while SHARED_DIRS:
        shutil.rmtree(SHARED_DIRS.pop(), ignore_errors=True)


pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="switching to another uid needs root")


def _as_other(sock: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Each call's outcome ("ok" or the error code) for a process running as uid OTHER: a
    forked child (the interpreter's files may not be readable by OTHER, so no exec) that drops
    to that uid and talks to the daemon through the real client."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns into pytest
        code = 1
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(OTHER)
            os.setuid(OTHER)
            out: list[str] = []
            try:
                with Client(sock, timeout=30) as c:
                    for method, params in calls:
                        try:
                            c.call(method, params)
                            out.append("ok")
                        except OmegadError as exc:
                            out.append(getattr(exc, "code", None) or type(exc).__name__)
            except OmegadError as exc:  # refused while connecting
                out.append(getattr(exc, "code", None) or type(exc).__name__)
            os.write(write_end, json.dumps(out).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and data, data
    result: list[str] = json.loads(data)
    return result


def _daemon(tmp_path: Path, grants: str, data: Path) -> Daemon:
    """A daemon whose socket other users can reach: /tmp may be private to root here, so the
    socket lives in a world-traversable temporary directory."""
    d = Daemon(tmp_path, config=f'[server]\nsocket_mode = "0666"\n{grants}', data_dir=data)
    shared = Path(tempfile.mkdtemp(prefix="oa-", dir="/var/tmp"))
    shared.chmod(0o755)
    SHARED_DIRS.append(shared)
    d.socket = shared / "sub" / "d.sock"  # its directory is made 0711 by the daemon
    return d.start()


def test_another_user_is_refused_then_granted_read_then_write(tmp_path: Path) -> None:
    data = tmp_path / "d-data"

    # no grant: refused at once
    d = _daemon(tmp_path, "", data)
    try:
        with d.client() as c:
            shared_id = c.store("the shared build runs on Fridays", namespace="shared")
            private_id = c.store("my private note about salaries", namespace="private")
        refused = _as_other(d.socket, [("ping", {}), ("query", {"text": "build", "namespace": "shared"})])
        assert refused == ["forbidden", "forbidden"], refused  # refused when it connects
    finally:
        assert d.stop() == 0, d.log()
    assert "connection_refused" in d.log()

    # read grant on "shared"
    read = '[[access.grant]]\nusers = [65534]\nnamespaces = ["shared"]\nmode = "read"\n'
    d = _daemon(tmp_path, read, data)
    try:
        outcome = _as_other(
            d.socket,
            [
                ("ping", {}),
                ("query", {"text": "build", "namespace": "shared"}),
                ("get", {"id": shared_id}),
                ("query", {"text": "salaries", "namespace": "private"}),
                ("get", {"id": private_id}),
                ("store", {"text": "sneaky write", "namespace": "shared"}),
                ("update", {"id": shared_id, "text": "overwritten"}),
                ("delete", {"id": shared_id}),
                ("feedback", {"id": shared_id, "score": -1}),
                ("stats", {}),
                ("export", {"namespace": "shared"}),
                ("contradictions", {}),
                ("contradictions", {"namespace": "shared"}),
                ("list", {"namespace": "shared"}),
                ("list", {"namespace": "private"}),
                ("namespaces", {}),
                ("subscribe", {"topics": ["stored"], "namespace": "private"}),
                ("subscribe", {"topics": ["stored"], "namespace": "shared"}),
                ("subscribe", {"topics": ["stored", "deleted"]}),  # (what it may read, checked per event)
            ],
        )
        assert outcome == [
            "ok",
            "ok",
            "ok",
            "forbidden",
            "forbidden",
            "forbidden",
            "forbidden",
            "forbidden",
            "forbidden",
            "forbidden",
            "forbidden",
            "forbidden",
            "ok",
            "ok",
            "forbidden",
            "ok",
            "forbidden",
            "ok",
            "ok",
        ], outcome
        with d.client() as c:  # nothing changed; the owner still sees and does everything
            assert c.get(shared_id)["text"] == "the shared build runs on Fridays"
            assert c.stats()["memories"] == 2
            assert c.get(private_id)["text"] == "my private note about salaries"
    finally:
        assert d.stop() == 0, d.log()

    # read-write grant on "shared" (by group), read on nothing else
    write = '[[access.grant]]\ngroups = [65534]\nnamespaces = ["sha*"]\nmode = "read-write"\n'
    d = _daemon(tmp_path, write, data)
    try:
        outcome = _as_other(
            d.socket,
            [
                ("store", {"text": "granted write", "namespace": "shared"}),
                ("store", {"text": "not here", "namespace": "private"}),
                (
                    "store_batch",
                    {"items": [{"text": "a", "namespace": "shared"}, {"text": "b", "namespace": "private"}]},
                ),
                ("delete", {"id": private_id}),
            ],
        )
        assert outcome == ["ok", "forbidden", "forbidden", "forbidden"], outcome
        with d.client() as c:
            assert c.stats()["namespaces"]["shared"]["total"] == 2
            assert c.stats()["namespaces"]["private"]["total"] == 1
    finally:
        assert d.stop() == 0, d.log()


def test_a_bad_grant_is_a_clear_config_error(tmp_path: Path) -> None:
    from omegad.config import ConfigError, load_config

    cfg = tmp_path / "c.toml"
    for text, message in (
        ('[[access.grant]]\nusers = ["no-such-user-xyz"]\nnamespaces = ["a"]\n', "no such user"),
        ("[[access.grant]]\nusers = [1000]\nnamespaces = []\n", "namespaces"),
        ('[[access.grant]]\nusers = [1000]\nnamespaces = ["a"]\nmode = "admin"\n', "mode"),
        ('[[access.grant]]\nnamespaces = ["a"]\n', "no users or groups"),
        ('[server]\nsocket_mode = "0777"\n', "0600"),
    ):
        cfg.write_text(text)
        with pytest.raises(ConfigError, match=message):
            load_config(cfg, env={})


def test_history_of_a_deleted_memory_keeps_its_namespaces_grants(tmp_path: Path) -> None:
    """A deleted memory exists only in its history; the access check finds its namespace
    there, so its tombstone is no easier to read than the memory was."""
    read = '[[access.grant]]\nusers = [65534]\nnamespaces = ["shared"]\nmode = "read"\n'
    d = _daemon(tmp_path, read, tmp_path / "h-data")
    try:
        with d.client() as c:
            shared_id = c.store("the shared build runs on Fridays", namespace="shared")
            private_id = c.store("my private note about salaries", namespace="private")
            c.update(private_id, text="my private note about bonuses")
            c.delete(private_id)
        outcome = _as_other(
            d.socket,
            [
                ("history", {"id": shared_id}),
                ("history", {"id": private_id}),
                ("get", {"id": private_id, "as_of": "2001-01-01T00:00:00Z"}),
                ("delete", {"id": private_id, "forget": True}),
                ("delete", {"id": shared_id, "forget": True}),
                ("query", {"text": "salaries", "namespace": "private", "as_of": "2030-01-01T00:00:00Z"}),
            ],
        )
        assert outcome == ["ok", "forbidden", "forbidden", "forbidden", "forbidden", "forbidden"], outcome
        with d.client() as c:
            assert len(c.history(private_id)["versions"]) == 2  # nothing was erased
    finally:
        assert d.stop() == 0, d.log()
