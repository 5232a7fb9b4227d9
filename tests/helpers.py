"""Test helpers: a real daemon in a subprocess on a temporary socket and data directory."""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack

from omegad_client import Client, DaemonNotRunning

REPO = Path(__file__).resolve().parent.parent


class Daemon:
    """``python -m omegad serve`` on its own socket and data dir; stdout captured to a file."""

    def __init__(
        self,
        base: Path,
        *,
        config: str | None = None,
        env: dict[str, str] | None = None,
        data_dir: Path | None = None,
        name: str = "d",
    ) -> None:
        self.base = base
        # Unix socket paths are limited to ~100 bytes: keep the socket in a short directory.
        self.socket = Path(tempfile.mkdtemp(prefix="od-", dir="/tmp")) / f"{name}.sock"
        self.data_dir = data_dir or base / f"{name}-data"
        self.log_path = base / f"{name}.log"
        self.config_path: Path | None = None
        if config is not None:
            self.config_path = base / f"{name}.toml"
            self.config_path.write_text(config)
        # Tests see the reranker as CI does (not installed) unless they choose a model: a
        # developer's cached real reranker would otherwise change orders and timings.
        no_reranker = str(base / "no-reranker-model")
        self.env = {**os.environ, "OMEGAD_LOG_FORMAT": "json", "OMEGAD_RERANKER_MODEL_DIR": no_reranker, **(env or {})}
        self.cwd: Path | None = base  # the daemon's working directory (None: this process's)
        self.proc: subprocess.Popen[bytes] | None = None

    def argv(self) -> list[str]:
        cmd = [sys.executable, "-m", "omegad", "serve", "--socket", str(self.socket), "--data-dir", str(self.data_dir)]
        if self.config_path is not None:
            cmd += ["--config", str(self.config_path)]
        return cmd

    def start(self, wait: bool = True, timeout: float = 90.0) -> Daemon:
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(self.argv(), stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.cwd)
        log.close()
        if wait:
            self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = 90.0) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daemon exited with {self.proc.returncode}:\n{self.log()}")
            try:
                with Client(self.socket, timeout=5) as c:
                    c.ping()
                return
            except DaemonNotRunning:
                time.sleep(0.05)
        raise RuntimeError(f"daemon not ready after {timeout} s:\n{self.log()}")

    def client(self, timeout: float = 60.0) -> Client:
        return Client(self.socket, timeout=timeout)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self, timeout: float = 60.0) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def cleanup(self) -> None:
        """Kill the daemon if still running and remove its short socket directory."""
        self.kill()
        shutil.rmtree(self.socket.parent, ignore_errors=True)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


def raw_socket(path: Path, timeout: float = 10.0) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(str(path))
    return s


def send_frame(s: socket.socket, obj: Any) -> None:
    body = msgpack.packb(obj, use_bin_type=True)
    s.sendall(struct.pack(">I", len(body)) + body)


def recv_frame(s: socket.socket) -> Any:
    """Read one frame; returns None when the peer closed the connection."""
    header = _recv(s, 4)
    if header is None:
        return None
    (n,) = struct.unpack(">I", header)
    body = _recv(s, n)
    if body is None:
        return None
    return msgpack.unpackb(body, raw=False)


def _recv(s: socket.socket, n: int) -> bytes | None:
    buf = b""
    while len(buf) < n:
        try:
            chunk = s.recv(n - len(buf))
        except ConnectionResetError:
            return None
        if not chunk:
            return None
        buf += chunk
    return buf


def bench_module(name: str) -> Any:
    """A module of ``bench/`` (not a package), loaded by path: e.g. the secret sample
    generators the tests share with the benchmarks."""
    path = Path(__file__).resolve().parent.parent / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def omegad_cli(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``omegad ARGS`` run as a user would, in a subprocess; stdin is not a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "omegad", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        input=stdin,
    )
