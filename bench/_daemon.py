"""Start a real omegad daemon for a benchmark (temporary socket and data dir)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "client"))

from omegad_client import Client, DaemonNotRunning  # noqa: E402


class BenchDaemon:
    def __init__(
        self,
        config_text: str | None = None,
        data_dir: Path | None = None,
        keep: bool = False,
        log_level: str = "warning",
    ) -> None:
        self.keep = keep
        self.log_level = log_level
        self.tmp = Path(tempfile.mkdtemp(prefix="omegad-bench-"))
        self.socket = Path(tempfile.mkdtemp(prefix="ob-", dir="/tmp")) / "d.sock"
        self.data_dir = data_dir or self.tmp / "data"
        self.log = self.tmp / "daemon.log"
        self.config = None
        if config_text:
            self.config = self.tmp / "omegad.toml"
            self.config.write_text(config_text)
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> BenchDaemon:
        cmd = [sys.executable, "-m", "omegad", "serve", "--socket", str(self.socket), "--data-dir", str(self.data_dir)]
        if self.config:
            cmd += ["--config", str(self.config)]
        env = {**os.environ, "OMEGAD_LOG_FORMAT": "json", "OMEGAD_LOG_LEVEL": self.log_level}
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daemon exited: {self.log.read_text()}")
            try:
                with Client(self.socket) as c:
                    c.ping()
                return self
            except DaemonNotRunning:
                time.sleep(0.05)
        raise RuntimeError("daemon did not start")

    def __exit__(self, *exc: object) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)
            shutil.rmtree(self.socket.parent, ignore_errors=True)

    def client(self, timeout: float = 120) -> Client:
        return Client(self.socket, timeout=timeout)

    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


def pct(values: list[float], q: float) -> float:
    """The *q* quantile of *values*, interpolated between neighbours (nan when empty)."""
    s = sorted(values)
    if not s:
        return float("nan")
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)
