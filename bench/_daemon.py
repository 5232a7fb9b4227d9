"""Start a real omegad daemon for a benchmark (temporary socket and data dir).

`BenchDaemon` is the tests' `tests.helpers.Daemon` set up for a benchmark: its own temporary
directory, a context manager, and the daemon run as configured (the tests hide the reranker).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "client")]

from omegad_client import Client  # noqa: E402
from tests.helpers import Daemon  # noqa: E402


class BenchDaemon(Daemon):
    def __init__(
        self,
        config_text: str | None = None,
        data_dir: Path | None = None,
        keep: bool = False,
        log_level: str = "warning",
    ) -> None:
        self.keep = keep
        self.tmp = Path(tempfile.mkdtemp(prefix="omegad-bench-"))
        super().__init__(self.tmp, config=config_text, data_dir=data_dir or self.tmp / "data", name="daemon")
        # the reranker as configured (the tests hide it), and the caller's working directory:
        # relative paths in the configuration and the data dir stay the caller's
        self.env = {**os.environ, "OMEGAD_LOG_FORMAT": "json", "OMEGAD_LOG_LEVEL": log_level}
        self.cwd = None

    def __enter__(self) -> BenchDaemon:
        self.start(timeout=120)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.alive:
            with contextlib.suppress(subprocess.TimeoutExpired):  # (killed after the wait)
                self.stop(60)
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)
            shutil.rmtree(self.socket.parent, ignore_errors=True)

    def client(self, timeout: float = 120) -> Client:
        return super().client(timeout)

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
