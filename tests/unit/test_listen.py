"""The daemon's listening socket appears at its path only once it listens."""

from __future__ import annotations

import os
import socket
import stat
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from omegad.errors import StartupError
from omegad.rpc.server import listen_unix


@pytest.fixture
def sock_dir() -> Iterator[Path]:
    # a short path: Unix socket paths are limited to ~100 bytes
    d = Path(tempfile.mkdtemp(prefix="ol-", dir="/tmp"))
    yield d
    for p in d.iterdir():
        p.unlink()
    d.rmdir()


def test_listening_socket_is_linked_into_place(sock_dir: Path) -> None:
    path = sock_dir / "d.sock"
    sock = listen_unix(path, 0o600)
    try:
        assert stat.S_ISSOCK(path.lstat().st_mode)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert [p.name for p in sock_dir.iterdir()] == ["d.sock"]  # no temporary name left
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
            c.connect(str(path))
    finally:
        sock.close()


def test_second_daemon_on_the_path_is_refused_and_the_first_keeps_it(sock_dir: Path) -> None:
    path = sock_dir / "d.sock"
    first = listen_unix(path, 0o600)
    try:
        with pytest.raises(StartupError, match="another omegad daemon"):
            listen_unix(path, 0o600)
        assert [p.name for p in sock_dir.iterdir()] == ["d.sock"]
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
            c.connect(str(path))  # still the first daemon's socket
            first.settimeout(5)
            conn, _ = first.accept()
            conn.close()
    finally:
        first.close()


def test_a_client_that_sees_the_file_is_never_refused(sock_dir: Path) -> None:
    """A client polls for the socket file and connects the moment it appears."""
    refused = 0
    for k in range(30):
        path = sock_dir / f"s{k}.sock"
        seen = threading.Event()
        outcome: list[str] = []

        def poll(path: Path = path, seen: threading.Event = seen, outcome: list[str] = outcome) -> None:
            while not os.path.lexists(path):
                pass
            seen.set()
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
                try:
                    c.connect(str(path))
                    outcome.append("ok")
                except ConnectionRefusedError:
                    outcome.append("refused")

        t = threading.Thread(target=poll)
        t.start()
        sock = listen_unix(path, 0o600)
        t.join(10)
        sock.close()
        path.unlink()
        assert seen.is_set()
        refused += outcome.count("refused")
    assert refused == 0
