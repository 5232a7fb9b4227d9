"""Start, stop, restart, refusal to start, and the client in a bare environment."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from omegad_client import Client, DaemonNotRunning

from ..helpers import REPO, Daemon


def test_data_survives_restart_and_sigterm_exits_zero(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d = daemon_factory().start()
    with d.client() as c:
        mid = c.store("The staging cluster lives in eu-west-3.", type="fact", namespace="persist")
        ids = c.store_batch([{"text": f"persistent memory {i}", "namespace": "persist"} for i in range(25)])
    assert d.stop() == 0
    assert not d.socket.exists()  # removed on shutdown
    d.start()
    with d.client() as c:
        assert c.get(mid)["text"] == "The staging cluster lives in eu-west-3."
        assert all(c.get(i)["namespace"] == "persist" for i in ids)
        assert c.query("which region hosts staging?", namespace="persist")[0]["id"] == mid
        assert c.stats()["namespaces"]["persist"]["total"] == 26
    assert d.stop() == 0
    assert '"event": "stopped"' in d.log()


def test_socket_permissions(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d = daemon_factory().start()
    assert stat.S_IMODE(d.socket.stat().st_mode) == 0o600
    assert stat.S_IMODE(d.socket.parent.stat().st_mode) == 0o700
    assert d.stop() == 0


def test_second_daemon_on_same_data_dir_is_refused(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    first = daemon_factory(name="one").start()
    second = daemon_factory(name="two", data_dir=first.data_dir)
    second.start(wait=False)
    assert second.proc is not None and second.proc.wait(60) == 1
    assert "another omegad daemon is using the data directory" in second.log()
    # Same socket, other data dir: refused too, and the first keeps serving.
    third = daemon_factory(name="three")
    third.socket = first.socket
    third.start(wait=False)
    assert third.proc is not None and third.proc.wait(60) == 1
    assert "another omegad daemon is listening at" in third.log()
    with first.client() as c:
        assert c.ping() == {}
    assert first.stop() == 0


def test_stale_socket_is_replaced(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d = daemon_factory()
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(d.socket))  # a socket file nobody listens on, as a killed daemon leaves
    stale.close()
    assert d.socket.exists()
    d.start()
    with d.client() as c:
        assert c.ping() == {}
    d.kill()  # SIGKILL leaves the socket file behind ...
    assert d.socket.exists()
    d.start()  # ... and the next start replaces it
    assert d.stop() == 0


def test_missing_model_refuses_to_start_with_the_fix(daemon_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    d = daemon_factory(env={"OMEGAD_MODEL_CACHE": str(tmp_path / "empty-cache")})
    d.start(wait=False)
    assert d.proc is not None and d.proc.wait(60) == 1
    assert "omegad models fetch" in d.log()
    assert not d.socket.exists()


def test_model_mismatch_is_a_clear_error(daemon_factory) -> None:  # type: ignore[no-untyped-def]
    d = daemon_factory().start()
    assert d.stop() == 0
    meta = d.data_dir / "store.json"
    doc = json.loads(meta.read_text())
    doc["embedding_model"] = "intfloat/e5-small-v2"
    meta.write_text(json.dumps(doc))
    d.start(wait=False)
    assert d.proc is not None and d.proc.wait(60) == 1
    log = d.log()
    assert "intfloat/e5-small-v2" in log and "sentence-transformers/all-MiniLM-L6-v2" in log


def test_client_reports_daemon_not_running(tmp_path: Path) -> None:
    with pytest.raises(DaemonNotRunning) as info, Client(tmp_path / "nothing.sock") as c:
        c.ping()
    assert "not running at" in str(info.value) and str(tmp_path / "nothing.sock") in str(info.value)


def test_demo_command(tmp_path: Path) -> None:
    sock = Path(os.path.join("/tmp", f"od-demo-{os.getpid()}.sock"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "omegad",
            "serve",
            "--socket",
            str(sock),
            "--data-dir",
            str(tmp_path / "data"),
            "--exit-after-demo",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "OMEGAD_RERANKER_MODEL_DIR": str(tmp_path / "no-reranker")},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "reranker: missing (results keep the heuristic order" in proc.stdout
    assert "omegad models fetch reranker" in proc.stdout
    assert "stored 5 memories" in proc.stdout
    assert "[decision] Access tokens are JWTs" in proc.stdout  # the first demo query finds it


def test_client_works_with_only_msgpack(shared_daemon: Daemon, tmp_path: Path) -> None:
    """The thin client in a virtual environment holding msgpack and nothing else."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    # msgpack from the running interpreter's installed wheel source: reinstall it by name.
    import msgpack

    pip = [str(py), "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check"]
    subprocess.run(
        [*pip, f"msgpack=={msgpack.version[0]}.{msgpack.version[1]}.{msgpack.version[2]}"], check=True, timeout=300
    )
    subprocess.run([*pip, str(REPO / "client")], check=True, timeout=300)
    listing = subprocess.run(
        [str(py), "-m", "pip", "list", "--format=json"], capture_output=True, text=True, check=True
    )
    names = {p["name"].lower() for p in json.loads(listing.stdout)} - {"pip", "setuptools", "wheel"}
    assert names == {"msgpack", "omegad-client"}, names
    script = f"""
import sys
from omegad_client import Client, OmegadError
with Client({str(shared_daemon.socket)!r}) as c:
    mid = c.store("bare client memory about kubernetes ingress", namespace="bare")
    hits = c.query("k8s ingress", namespace="bare")
    assert hits[0]["id"] == mid, hits
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {{"anyio", "numpy", "omegad", "lancedb", "pyarrow"}})
assert not heavy, heavy
print("ok")
"""
    out = subprocess.run([str(py), "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stdout + out.stderr
    shutil.rmtree(venv)


def _piped_daemon(tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """A daemon whose stdout is a pipe the test controls; returns once it answers (the socket
    file exists a little before the daemon accepts on it: on a loaded machine a client then
    got "connection refused")."""
    sock = Path(tempfile.mkdtemp(prefix="od-", dir="/tmp")) / "d.sock"
    proc = subprocess.Popen(
        [sys.executable, "-m", "omegad", "serve", "--socket", str(sock), "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with Client(sock, timeout=30) as c:
                c.ping()
            break
        except DaemonNotRunning:
            time.sleep(0.05)
    return proc, sock


def test_broken_stdout_does_not_stop_the_daemon(tmp_path: Path) -> None:
    proc, sock = _piped_daemon(tmp_path)
    try:
        assert proc.stdout is not None
        proc.stdout.close()
        with Client(sock, timeout=30) as a, Client(sock, timeout=30) as b:
            for _ in range(20):
                assert a.ping() == {} and b.ping() == {}
            assert b.store("still stored after stdout broke", namespace="pipe")
        assert proc.poll() is None
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
        shutil.rmtree(sock.parent, ignore_errors=True)


@pytest.mark.parametrize("ack", ["commit", "log"])
def test_sigterm_abandons_queued_embedding_and_exits_promptly(daemon_factory, ack: str) -> None:  # type: ignore[no-untyped-def]
    """Queued-but-unstarted embedding work of requests that will never be answered is dropped
    on shutdown; what was acknowledged stays, and the daemon exits 0. Acknowledged at the log
    (the default) every batch is answered before its embedding: all of them stay, embedded
    after the restart if the shutdown left them in the log."""
    from ..helpers import raw_socket, send_frame

    d = daemon_factory(config=f'[server]\nshutdown_timeout_s = 2.0\n[store]\nack = "{ack}"\n').start()
    s = raw_socket(d.socket)
    for i in range(12):
        items = [{"text": f"queued {i}-{j} " + "long text " * 40, "namespace": "shut"} for j in range(64)]
        send_frame(s, {"v": 1, "id": i + 1, "method": "store_batch", "params": {"items": items}})
    time.sleep(0.5)
    assert d.stop(timeout=120) == 0
    s.close()
    d.start()
    with d.client() as c:
        stored = c.stats()["namespaces"].get("shut", {"total": 0})["total"]
    if ack == "commit":
        assert stored < 12 * 64 and stored % 64 == 0  # whole batches or nothing; the rest abandoned
    else:
        assert stored == 12 * 64
    assert d.stop() == 0


def test_unread_stdout_pipe_does_not_stall_the_daemon(tmp_path: Path) -> None:
    """Log lines queue up (and are dropped past a bound) instead of blocking the event loop
    when nobody reads the daemon's stdout; a 64 KiB pipe fills after a few hundred lines."""
    proc, sock = _piped_daemon(tmp_path)
    try:
        with Client(sock, timeout=30) as c:
            for _ in range(2000):  # ~2000 log lines of ~150 bytes: far beyond the pipe buffer
                assert c.ping() == {}
            assert c.query("anything", namespace="pipe") == []
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.stdout is not None
        out = proc.stdout.read()  # drain so the daemon can finish writing and exit
        assert proc.wait(60) == 0
        shutil.rmtree(sock.parent, ignore_errors=True)
    assert b'"event": "stopped"' in out
