"""Service files: a systemd user unit with a socket unit (Linux), a LaunchAgent (macOS), and
`omegad service install | uninstall | status` to write, enable and remove them.

The files are generated from the configuration (socket, data directory, config file) and the
Python that runs this command, so the service starts the same omegad as the shell does. The
templates under ``systemd/`` and ``launchd/`` in the repository are the same files for the
default locations (see their READMEs).
"""

from __future__ import annotations

import os
import plistlib
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from omegad.config import Config

__all__ = ["LAUNCHD_LABEL", "ServiceFiles", "install", "launchd_plist", "service_files", "status", "systemd_units"]

LAUNCHD_LABEL = "dev.omegad.daemon"
SERVICE = "omegad.service"
SOCKET = "omegad.socket"

Run = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return subprocess.CompletedProcess(cmd, 127, "", str(exc))


def _arg(value: str) -> str:
    """One ExecStart argument: % and $ escaped, quoted when it holds blanks or quotes."""
    value = value.replace("%", "%%").replace("$", "$$")
    if any(c in value for c in " \t\"\\'"):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def _path(value: Path) -> str:
    """A path in a unit setting (ListenStream=, ReadWritePaths=): % escaped."""
    return str(value).replace("%", "%%")


def serve_command(config: Config, config_file: Path | None, python: str | None = None) -> list[str]:
    cmd = [python or sys.executable, "-m", "omegad", "serve", "--socket", str(config.socket_path)]
    cmd += ["--data-dir", str(config.data_dir)]
    if config_file is not None:
        cmd += ["--config", str(config_file.resolve())]
    return cmd


def systemd_units(config: Config, config_file: Path | None = None, python: str | None = None) -> dict[str, str]:
    """The user units: ``omegad.socket`` (the socket systemd listens on and hands over) and
    ``omegad.service`` (``Type=notify``, logging to the journal, hardened for a per-user daemon)."""
    families = "AF_UNIX"
    if config.reranker_auto_download:  # the daemon may download the reranker itself
        families += " AF_INET AF_INET6"
    writable = [config.data_dir, config.socket_path.parent]
    if config.reranker_auto_download:
        writable.append(config.model_cache_dir)
    socket_unit = f"""[Unit]
Description=omegad socket (local memory for AI agents)

[Socket]
ListenStream={_path(config.socket_path)}
SocketMode=0600
DirectoryMode=0700
RemoveOnStop=yes
Service={SERVICE}

[Install]
WantedBy=sockets.target
"""
    service_unit = f"""[Unit]
Description=omegad: local long-term memory for AI agents
Requires={SOCKET}
After={SOCKET}

[Service]
Type=notify
NotifyAccess=main
ExecStart={" ".join(_arg(a) for a in serve_command(config, config_file, python))}
Environment=OMEGAD_LOG_FORMAT=json MALLOC_ARENA_MAX=2
StandardOutput=journal
StandardError=journal
Restart=on-failure
RestartSec=2
TimeoutStartSec=180
TimeoutStopSec=90
UMask=0077
NoNewPrivileges=yes
ProtectSystem=strict
ReadWritePaths={" ".join("-" + _path(p) for p in writable)}
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
RestrictAddressFamilies={families}
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
SystemCallArchitectures=native

[Install]
WantedBy=default.target
"""
    return {SOCKET: socket_unit, SERVICE: service_unit}


def launchd_plist(
    config: Config, config_file: Path | None = None, python: str | None = None, home: Path | None = None
) -> bytes:
    """The LaunchAgent: started at login and kept alive; stdout/stderr to ~/Library/Logs/omegad."""
    logs = (home or Path.home()) / "Library" / "Logs" / "omegad"
    return plistlib.dumps(
        {
            "Label": LAUNCHD_LABEL,
            "ProgramArguments": serve_command(config, config_file, python),
            "RunAtLoad": True,
            "KeepAlive": {"SuccessfulExit": False},
            "ThrottleInterval": 5,
            "ProcessType": "Background",
            "EnvironmentVariables": {"OMEGAD_LOG_FORMAT": "json", "OMEGAD_SOCKET": str(config.socket_path)},
            "StandardOutPath": str(logs / "omegad.log"),
            "StandardErrorPath": str(logs / "omegad.err.log"),
            "Umask": 0o077,
        }
    )


@dataclass(frozen=True)
class ServiceFiles:
    platform: str  # "systemd" or "launchd"
    files: dict[Path, bytes]
    enable: list[list[str]]
    disable: list[list[str]]
    state: list[list[str]]
    directories: tuple[Path, ...] = ()  # made by `install` (e.g. the agent's log directory)


def service_files(
    config: Config,
    platform: str,
    env: Mapping[str, str],
    config_file: Path | None = None,
    python: str | None = None,
) -> ServiceFiles:
    home = Path(env.get("HOME") or Path.home())
    if platform == "systemd":
        unit_dir = Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "systemd" / "user"
        units = systemd_units(config, config_file, python)
        return ServiceFiles(
            "systemd",
            {unit_dir / name: text.encode() for name, text in units.items()},
            enable=[["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", "enable", "--now", SOCKET]],
            disable=[["systemctl", "--user", "disable", "--now", SOCKET, SERVICE]],
            state=[
                ["systemctl", "--user", "is-enabled", SOCKET],
                ["systemctl", "--user", "is-active", SOCKET, SERVICE],
            ],
        )
    if platform == "launchd":
        path = home / "Library" / "LaunchAgents" / f"{LAUNCHD_LABEL}.plist"
        domain = f"gui/{os.getuid()}"
        return ServiceFiles(
            "launchd",
            {path: launchd_plist(config, config_file, python, home)},
            enable=[["launchctl", "bootstrap", domain, str(path)]],
            disable=[["launchctl", "bootout", f"{domain}/{LAUNCHD_LABEL}"]],
            state=[["launchctl", "print", f"{domain}/{LAUNCHD_LABEL}"]],
            directories=(home / "Library" / "Logs" / "omegad",),
        )
    raise ValueError(f"unknown service platform {platform!r} (systemd or launchd)")


def detect_platform() -> str:
    return "launchd" if sys.platform == "darwin" else "systemd"


def install(sf: ServiceFiles, config: Config, enable: bool, out: Callable[[str], None], run: Run = _run) -> int:
    """Write the files (and the directories the service needs), then enable and start it."""
    for directory in (config.data_dir, config.socket_path.parent, *sf.directories):
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    for path, data in sf.files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        out(f"wrote {path}")
    if not enable:
        out("not enabled (--no-enable); to start it: " + " && ".join(" ".join(c) for c in sf.enable))
        return 0
    return _commands(sf.enable, out, run, "enable")


def uninstall(sf: ServiceFiles, enable: bool, out: Callable[[str], None], run: Run = _run) -> int:
    """Stop and disable the service, then remove its files (data is kept)."""
    code = 0
    if enable and any(p.exists() for p in sf.files):
        code = _commands(sf.disable, out, run, "disable", tolerate=True)
    for path in sf.files:
        if path.exists():
            path.unlink()
            out(f"removed {path}")
        else:
            out(f"not installed: {path}")
    if enable and sf.platform == "systemd":
        _commands([["systemctl", "--user", "daemon-reload"]], out, run, "reload", tolerate=True)
    return code


def status(sf: ServiceFiles, out: Callable[[str], None], run: Run = _run) -> int:
    """Which files are installed and what the service manager says; 0 when installed."""
    installed = all(p.exists() for p in sf.files)
    for path in sf.files:
        out(f"{'installed' if path.exists() else 'missing'}: {path}")
    if shutil.which(sf.state[0][0]) is None:
        out(f"{sf.state[0][0]} not found: cannot ask the service manager")
    else:
        for cmd in sf.state:
            r = run(cmd)
            text = (r.stdout or r.stderr).strip().splitlines()
            out(f"$ {' '.join(cmd)}: " + (" ".join(text[:4]) if text else f"exit {r.returncode}"))
    return 0 if installed else 1


def _commands(cmds: list[list[str]], out: Callable[[str], None], run: Run, what: str, tolerate: bool = False) -> int:
    for cmd in cmds:
        r = run(cmd)
        shown = " ".join(cmd)
        if r.returncode == 0:
            out(f"ran {shown}")
            continue
        detail = (r.stderr or r.stdout).strip() or f"exit {r.returncode}"
        if tolerate:
            out(f"warning: {shown} failed: {detail}")
            continue
        out(f"error: {shown} failed: {detail}")
        out(f"the files are in place; {what} the service yourself once the service manager is available: {shown}")
        return 1
    return 0
