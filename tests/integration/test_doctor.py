"""`omegad doctor` through the real CLI: models loaded and run, the daemon and its store asked,
permissions checked, every problem with its fix; exit 1 only when something is an error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from omegad.config import load_config

from ..helpers import REPO, Daemon


def _doctor(home: Path, *args: str, **env: str) -> tuple[int, dict[str, dict[str, Any]], str]:
    full = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_RUNTIME_DIR": str(home / "run"),
        "OMEGAD_MODEL_CACHE": str(load_config().model_cache_dir),  # the models the suite uses
        "OMEGAD_RERANKER_MODEL_DIR": str(home / "no-reranker"),
        **env,
    }
    for name in ("OMEGAD_SOCKET", "OMEGAD_DATA_DIR", "OMEGAD_CONFIG"):
        if name not in env:
            full.pop(name, None)
    r = subprocess.run(
        [sys.executable, "-m", "omegad", "doctor", "--json", *args],
        capture_output=True,
        text=True,
        env=full,
        cwd=REPO,
        timeout=180,
    )
    listed = json.loads(r.stdout) if r.stdout.strip() else []
    # every check must survive whatever the daemon reports, in every degraded mode
    broken = [c for c in listed if c["detail"].startswith("check failed")]
    assert not broken, broken
    checks = {c["name"]: c for c in listed}
    return r.returncode, checks, r.stderr


def test_doctor_without_a_daemon(tmp_path: Path) -> None:
    code, checks, err = _doctor(tmp_path)
    assert code == 0, (checks, err)
    assert checks["embedding model"]["level"] == "ok" and "loads and runs" in checks["embedding model"]["detail"]
    assert checks["reranker"]["level"] == "warning" and checks["reranker"]["fix"] == "omegad models fetch reranker"
    assert checks["daemon"]["level"] == "warning" and "omegad service install" in checks["daemon"]["fix"]
    assert checks["service"]["level"] == "warning" and checks["service"]["fix"] == "omegad service install"
    assert checks["data directory"]["level"] == "warning"  # not created yet


def test_doctor_reports_errors_with_their_fixes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o777)
    broken = tmp_path / "broken-reranker"
    broken.mkdir()
    (broken / "model.onnx").write_bytes(b"not a model")
    (broken / "tokenizer.json").write_text("{}")
    code, checks, err = _doctor(
        tmp_path,
        "--data-dir",
        str(data),
        OMEGAD_MODEL_CACHE=str(tmp_path / "empty-cache"),
        OMEGAD_RERANKER_MODEL_DIR=str(broken),
    )
    assert code == 1, (checks, err)  # no embedding model: the daemon cannot start
    assert checks["embedding model"]["level"] == "error"
    assert checks["embedding model"]["fix"] == "omegad models fetch embedding"
    assert checks["reranker"]["level"] == "warning" and "does not load" in checks["reranker"]["detail"]
    assert checks["data directory"] == {
        "level": "warning",
        "name": "data directory",
        "detail": f"{data} is open to others (mode 777): memories may be private",
        "fix": f"chmod 700 {data}",
    }


def test_doctor_asks_a_running_daemon(tmp_path: Path) -> None:
    d = Daemon(tmp_path).start()
    try:
        with d.client() as c:
            c.store("doctor sees this memory", namespace="doc")
        code, checks, err = _doctor(tmp_path, "--socket", str(d.socket), "--data-dir", str(d.data_dir))
        assert code == 0, (checks, err)
        assert checks["daemon"]["level"] == "ok" and str(d.socket) in checks["daemon"]["detail"]
        assert checks["store"]["level"] in ("ok", "warning") and "1 memories" in checks["store"]["detail"]
        assert checks["data directory"]["level"] == "ok"
    finally:
        assert d.stop() == 0, d.log()
        d.cleanup()
