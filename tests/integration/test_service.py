"""Service management: the generated systemd units (checked by systemd-analyze where it exists)
and LaunchAgent (parsed by plistlib), install / status / uninstall through the real CLI, and
socket activation with readiness notification on a real daemon process."""

from __future__ import annotations

import os
import plistlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from omegad_client import Client

from ..helpers import REPO


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_RUNTIME_DIR": str(home / "run"),
    }
    env.pop("OMEGAD_SOCKET", None)
    env.pop("OMEGAD_DATA_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "omegad", *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=120
    )


def test_systemd_units_install_verify_status_uninstall(tmp_path: Path) -> None:
    home = tmp_path / "home"
    r = _cli(home, "service", "install", "--platform", "systemd", "--no-enable")
    assert r.returncode == 0, r.stderr
    unit_dir = home / ".config" / "systemd" / "user"
    service, sock = unit_dir / "omegad.service", unit_dir / "omegad.socket"
    assert f"wrote {sock}" in r.stdout and f"wrote {service}" in r.stdout
    assert "systemctl --user enable --now omegad.socket" in r.stdout  # what to run, since not enabled
    socket_path = home / "run" / "omegad" / "omegad.sock"
    sock_text, service_text = sock.read_text(), service.read_text()
    assert f"ListenStream={socket_path}\n" in sock_text and "SocketMode=0600" in sock_text
    for line in (
        "Type=notify",
        f"ExecStart={sys.executable} -m omegad serve --socket {socket_path} --data-dir {home}/.local/share/omegad",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "PrivateTmp=yes",
        "RestrictAddressFamilies=AF_UNIX\n",
        "StandardOutput=journal",
    ):
        assert line in service_text, line
    assert (home / ".local" / "share" / "omegad").is_dir()  # ReadWritePaths= must exist at start
    if shutil.which("systemd-analyze"):
        v = subprocess.run(
            ["systemd-analyze", "verify", str(sock), str(service)], capture_output=True, text=True, timeout=120
        )
        complaints = [line for line in (v.stdout + v.stderr).splitlines() if "omegad." in line]
        assert v.returncode == 0 and not complaints, v.stdout + v.stderr

    st = _cli(home, "service", "status", "--platform", "systemd")
    assert st.returncode == 0 and f"installed: {service}" in st.stdout, st.stdout + st.stderr

    # a daemon that may download its reranker needs the network families as well
    cfg = tmp_path / "dl.toml"
    cfg.write_text("[reranker]\nauto_download = true\n")
    r = _cli(home, "service", "install", "--platform", "systemd", "--no-enable", "--config", str(cfg))
    assert r.returncode == 0, r.stderr
    text = service.read_text()
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in text and f"--config {cfg}" in text

    r = _cli(home, "service", "uninstall", "--platform", "systemd", "--no-enable")
    assert r.returncode == 0 and not service.exists() and not sock.exists(), r.stdout + r.stderr
    st = _cli(home, "service", "status", "--platform", "systemd")
    assert st.returncode == 1 and f"missing: {service}" in st.stdout


def test_systemd_unit_quotes_paths_with_spaces(tmp_path: Path) -> None:
    from omegad.cli.units import systemd_units
    from omegad.config import load_config

    config = load_config(env={}, socket_path=Path("/run/user/1000/omegad/o.sock"), data_dir=tmp_path / "my data%")
    unit = systemd_units(config, python="/opt/py 3/bin/python")["omegad.service"]
    assert 'ExecStart="/opt/py 3/bin/python" -m omegad serve' in unit
    assert f'--data-dir "{tmp_path}/my data%%"' in unit


def test_launchd_agent_parses(tmp_path: Path) -> None:
    home = tmp_path / "home"
    r = _cli(home, "service", "install", "--platform", "launchd", "--no-enable")
    assert r.returncode == 0, r.stderr
    path = home / "Library" / "LaunchAgents" / "dev.omegad.daemon.plist"
    with path.open("rb") as f:
        plist = plistlib.load(f)
    assert plist["Label"] == "dev.omegad.daemon"
    socket_path = str(home / "run" / "omegad" / "omegad.sock")
    assert plist["ProgramArguments"][:4] == [sys.executable, "-m", "omegad", "serve"]
    assert plist["ProgramArguments"][4:6] == ["--socket", socket_path]
    assert plist["RunAtLoad"] is True and plist["KeepAlive"] == {"SuccessfulExit": False}
    assert plist["StandardOutPath"].endswith("Library/Logs/omegad/omegad.log")
    assert plist["StandardErrorPath"].endswith("Library/Logs/omegad/omegad.err.log")
    assert plist["EnvironmentVariables"]["OMEGAD_SOCKET"] == socket_path
    r = _cli(home, "service", "uninstall", "--platform", "launchd", "--no-enable")
    assert r.returncode == 0 and not path.exists()


def _activated(listen_fd: int, argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start *argv* the way systemd does: the listening socket as fd 3, LISTEN_PID = its pid
    (a trampoline that moves the fd and execs, so the pid stays the same)."""
    trampoline = (
        "import os, sys; os.dup2(int(sys.argv[1]), 3); os.close(int(sys.argv[1])); "
        "os.environ.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS='1', LISTEN_FDNAMES='omegad.socket'); "
        "os.execv(sys.argv[2], sys.argv[2:])"
    )
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-c", trampoline, str(listen_fd), *argv],
            pass_fds=(listen_fd,),
            env=env,
            stdout=out,
            stderr=out,
        )


def test_socket_activation_and_readiness(tmp_path: Path) -> None:
    short = Path(tempfile.mkdtemp(prefix="oa-", dir="/tmp"))
    sock_path, notify_path = short / "d.sock", short / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(sock_path))
    listener.listen(16)
    notifications = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notifications.bind(str(notify_path))
    notifications.settimeout(120)
    env = {
        **os.environ,
        "NOTIFY_SOCKET": str(notify_path),
        "OMEGAD_LOG_FORMAT": "json",
        "OMEGAD_RERANKER_MODEL_DIR": str(tmp_path / "no-reranker"),
    }
    log = tmp_path / "d.log"
    # the socket path given to the daemon is not where it listens: it must use the inherited one
    argv = [sys.executable, "-m", "omegad", "serve", "--socket", str(short / "unused.sock")]
    proc = _activated(listener.fileno(), [*argv, "--data-dir", str(tmp_path / "data")], env, log)
    try:
        ready = notifications.recv(4096).decode()
        assert ready.startswith("READY=1"), ready
        assert f"MAINPID={proc.pid}" in ready  # the trampoline exec'd the daemon: same pid
        with Client(sock_path, timeout=30) as c:
            c.ping()
            mid = c.store("socket activation works", namespace="sa")
            assert [r["id"] for r in c.query("socket activation", namespace="sa")] == [mid]
        assert not (short / "unused.sock").exists()
        proc.send_signal(signal.SIGTERM)
        assert notifications.recv(4096).decode() == "STOPPING=1"
        assert proc.wait(60) == 0, log.read_text()
        assert sock_path.exists()  # the service manager's socket file is left alone
        # the listening socket outlives the daemon (systemd keeps it): a restart takes it again
        proc = _activated(listener.fileno(), [*argv, "--data-dir", str(tmp_path / "data")], env, log)
        assert notifications.recv(4096).decode().startswith("READY=1")
        with Client(sock_path, timeout=30) as c:
            assert c.get(mid)["text"] == "socket activation works"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        listener.close()
        notifications.close()
        shutil.rmtree(short, ignore_errors=True)


def test_an_inherited_fd_that_is_not_a_listening_socket_is_a_clear_error(tmp_path: Path) -> None:
    not_a_socket = (tmp_path / "file").open("w")
    argv = [sys.executable, "-m", "omegad", "serve", "--data-dir", str(tmp_path / "data")]
    env = {**os.environ, "OMEGAD_SOCKET": str(tmp_path / "s.sock")}
    log = tmp_path / "d.log"
    proc = _activated(not_a_socket.fileno(), argv, env, log)
    try:
        assert proc.wait(120) == 1
    finally:
        not_a_socket.close()
    text = log.read_text()
    assert "cannot start" in text and "not a socket" in text, text


@pytest.mark.parametrize("value", ["", "relative/path", "@"])
def test_notify_without_a_usable_socket_is_a_no_op(value: str) -> None:
    from omegad.daemon.sdnotify import notify

    assert notify("READY=1", {"NOTIFY_SOCKET": value} if value else {}) is False


def test_the_shipped_templates_are_valid() -> None:
    units = [REPO / "systemd" / "omegad.socket", REPO / "systemd" / "omegad.service"]
    assert "ListenStream=%t/omegad/omegad.sock" in units[0].read_text()
    assert "Type=notify" in units[1].read_text()
    if shutil.which("systemd-analyze"):
        v = subprocess.run(["systemd-analyze", "verify", *map(str, units)], capture_output=True, text=True, timeout=120)
        complaints = [line for line in (v.stdout + v.stderr).splitlines() if "omegad." in line]
        assert v.returncode == 0 and not complaints, v.stdout + v.stderr
    with (REPO / "launchd" / "dev.omegad.daemon.plist").open("rb") as f:
        plist = plistlib.load(f)
    assert plist["Label"] == "dev.omegad.daemon" and plist["RunAtLoad"] is True
