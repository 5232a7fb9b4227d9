"""The index-build subprocess does not outlive the daemon that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status  # exited, not yet reaped by its new parent


def test_the_build_ends_when_its_daemon_is_killed() -> None:
    # "daemon": a process that starts a child running the indexer's parent watch, then is
    # SIGKILLed (it cannot kill its child); the child must end by itself
    child_code = (
        "import time; from omegad.storage.lanceops import exit_with_parent; exit_with_parent(0.05); time.sleep(120)"
    )
    daemon_code = (
        "import subprocess, sys, time; "
        f"p = subprocess.Popen([sys.executable, '-c', {child_code!r}]); "
        "print(p.pid, flush=True); time.sleep(120)"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    daemon = subprocess.Popen([sys.executable, "-c", daemon_code], stdout=subprocess.PIPE, text=True, env=env)
    assert daemon.stdout is not None
    child = int(daemon.stdout.readline())
    time.sleep(1.0)  # (the child is up and watching)
    assert not _gone(child)
    daemon.send_signal(signal.SIGKILL)
    daemon.wait()
    deadline = time.monotonic() + 60
    while not _gone(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    gone = _gone(child)
    if not gone:
        os.kill(child, signal.SIGKILL)
    assert gone, "the build process outlived its daemon"
