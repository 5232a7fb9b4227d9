"""Faults under a running daemon: a full disk, a read-only file system, the data directory
deleted, the embedding model corrupt. Each gives a typed error naming the problem and its fix,
``hello``/``stats``/``omegad doctor`` report degraded mode, nothing acknowledged is lost, and
the daemon recovers once the cause is fixed.

The file-system faults use a real tmpfs of a few MB (mounting needs root, as on CI; elsewhere
those tests skip)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from omegad.config import load_config
from omegad.models.files import embedding_cache_dir
from omegad_client import OmegadError, Unavailable

from ..helpers import Daemon
from ..integration.test_doctor import _doctor


@pytest.fixture
def tmpfs() -> Iterator[Path]:
    """A fresh 24 MB tmpfs, unmounted afterwards (skips where mounting is not allowed)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    mnt = Path("/var/tmp") / f"omegad-fault-{uuid.uuid4().hex[:8]}"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m,mode=0700", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        mnt.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode(errors='replace').strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
        mnt.rmdir()


def _remount(mnt: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(mnt)], check=True, capture_output=True)


def _stored(c: Any, namespace: str) -> dict[str, str]:
    """id → text of every memory in *namespace* (through export: each row once)."""
    out: dict[str, str] = {}
    for record in c.export_records(namespace=namespace):
        if record.get("record") == "memory":
            assert record["id"] not in out, f"{record['id']} exported twice"
            out[record["id"]] = record["text"]
    return out


@contextlib.contextmanager
def _kept_full(ballast: Path) -> Iterator[None]:
    """Append to *ballast* whenever its file system has room, until the block ends: space the
    daemon frees is taken again within milliseconds."""
    stop = threading.Event()

    def fill() -> None:
        fd = os.open(ballast, os.O_WRONLY | os.O_APPEND)
        try:
            while not stop.is_set():
                try:
                    os.write(fd, b"\0" * 4096)
                except OSError:
                    time.sleep(0.002)
        finally:
            os.close(fd)

    t = threading.Thread(target=fill, daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()


def _problem(hello: dict[str, Any], code: str) -> dict[str, Any]:
    assert hello["status"] == "degraded", hello
    (p,) = [p for p in hello["problems"] if p["code"] == code]
    assert p["message"] and p["fix"] and p["since"], p
    return p


def test_full_disk_refuses_writes_keeps_reads_and_recovers(daemon_factory, tmpfs: Path) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory(data_dir=tmpfs / "data").start()
    sent: dict[str, str] = {}
    acked: set[str] = set()
    with d.client() as c:
        for i in range(20):
            sent[f"m{i}"] = f"memory {i} about the build cache and topic {i % 4}"
            c.store(sent[f"m{i}"], id=f"m{i}", namespace="n")
            acked.add(f"m{i}")
        assert c.hello()["status"] == "ok"
        # fill the file system but for ~150 kB, then write until it is full
        vfs = os.statvfs(tmpfs)
        with (tmpfs / "ballast").open("wb") as f:
            f.write(b"\0" * max(0, vfs.f_bavail * vfs.f_frsize - 150_000))
        refused = 0
        for i in range(20, 400):
            mid = f"m{i}"
            sent[mid] = f"later memory {i}: " + "payload " * 200
            try:
                c.store(sent[mid], id=mid, namespace="n")
                acked.add(mid)
            except Unavailable as exc:
                refused += 1
                assert exc.data["reason"] == "disk_full", exc
                assert "full" in str(exc) and exc.data["fix"], exc
            if refused >= 5:
                break
        assert refused >= 5, "the file system never filled up"
        # The daemon frees space itself (the pass a full disk queues drops old versions), and
        # a background commit that then succeeds clears the problem: keep the disk full while
        # degraded mode is looked at, and make sure it is reported now.
        with _kept_full(tmpfs / "ballast"):
            with pytest.raises(Unavailable) as refusal:
                c.store("refused while the disk is kept full", namespace="n")
            assert refusal.value.data["reason"] == "disk_full", refusal.value
            p = _problem(c.hello(), "disk_full")
            assert str(tmpfs / "data") in p["message"]
            assert c.stats()["status"] == "degraded"
            # reads go on
            assert c.get("m3")["text"] == sent["m3"]
            assert any(r["id"] == "m3" for r in c.query("memory 3 build cache", namespace="n", limit=20))
            code, checks, err = _doctor(d.base, "--socket", str(d.socket), "--data-dir", str(d.data_dir))
            assert code == 1 and checks["daemon disk_full"]["level"] == "error", (checks, err)
            assert checks["data directory"]["level"] in ("warning", "error"), checks
        # free space: the next write succeeds and the problem clears by itself
        (tmpfs / "ballast").unlink()
        c.store("after the disk was freed", id="after", namespace="n")
        sent["after"] = "after the disk was freed"
        acked.add("after")
        assert c.hello() == {**c.hello(), "status": "ok", "problems": []}
    assert d.stop() == 0, d.log()
    assert '"event": "degraded"' in d.log() and '"event": "recovered"' in d.log()
    d.start()
    with d.client() as c:
        stored = _stored(c, "n")
        assert acked <= set(stored), sorted(acked - set(stored))
        # a refused write may have committed before its log append failed: then it is whole
        assert all(stored[k] == sent[k] for k in stored)
        assert c.query("build cache topic", namespace="n")
    assert d.stop() == 0, d.log()


def test_read_only_data_directory_serves_reads_and_recovers(daemon_factory, tmpfs: Path) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory(data_dir=tmpfs / "data").start()
    with d.client() as c:
        topics = ["tmpfs mounts", "the CI cache", "the release branch", "database backups", "log rotation"]
        ids = {c.store(f"read-only fact: a note about {t}", namespace="n") for t in topics}
    assert d.stop() == 0, d.log()
    _remount(tmpfs, "ro")
    d.start()
    with d.client() as c:
        _problem(c.hello(), "read_only")
        with pytest.raises(Unavailable) as refused:
            c.store("cannot be stored", namespace="n")
        assert refused.value.data["reason"] == "read_only" and "not writable" in str(refused.value)
        assert set(_stored(c, "n")) == ids
        assert {r["id"] for r in c.query("read-only fact note", namespace="n", limit=8)} == ids
        code, checks, _ = _doctor(d.base, "--socket", str(d.socket), "--data-dir", str(d.data_dir))
        assert code == 1 and checks["data directory"]["level"] == "error", checks
        assert "read-only" in checks["data directory"]["detail"] and checks["daemon read_only"]["fix"]
        _remount(tmpfs, "rw")
        ids.add(c.store("stored once writable again", namespace="n"))
        assert c.hello()["status"] == "ok"
    assert d.stop() == 0, d.log()
    d.start()
    with d.client() as c:
        assert set(_stored(c, "n")) == ids
    assert d.stop() == 0, d.log()


def test_a_signals_table_from_before_shares_on_a_read_only_directory(daemon_factory, tmpfs: Path) -> None:  # type: ignore[no-untyped-def]
    """The ``host`` column cannot be added while the data directory is read-only: the daemon
    still starts and shows the old ratings, and adds it with the first rating once it can."""
    import lancedb

    d: Daemon = daemon_factory(data_dir=tmpfs / "data").start()
    with d.client() as c:
        mid = c.store("The on-call rota changes every Monday at nine.", namespace="n")
        c.feedback(mid, 1)
        c.maintain()
    assert d.stop() == 0, d.log()
    lancedb.connect(d.data_dir / "lance").open_table("signals").drop_columns(["host"])  # as before shares
    _remount(tmpfs, "ro")
    d.start()
    with d.client() as c:
        assert c.get(mid)["feedback"] == 1.0
        _remount(tmpfs, "rw")
        assert c.feedback(mid, 1)["feedback"] == 2.0
    assert "signals_table_not_migrated" in d.log()
    assert d.stop() == 0, d.log()
    d.start()
    with d.client() as c:
        assert c.get(mid)["ratings"] == 2
    assert d.stop() == 0, d.log()


def test_data_directory_deleted_or_moved_under_the_daemon(daemon_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    d: Daemon = daemon_factory().start()
    with d.client() as c:
        # (more than a handful: the store's size is then measured, and unknown once it is gone)
        ids = set(c.store_batch([{"text": f"kept memory {i}", "namespace": "n"} for i in range(60)]))
        c.flush()  # moved under an idle daemon (stores acknowledged at the log are committed after)
        moved = tmp_path / "moved-data"
        d.data_dir.rename(moved)  # (like a deletion, but the store stays inspectable)
        with pytest.raises(Unavailable) as refused:
            c.store("nowhere to go", namespace="n")
        assert refused.value.data["reason"] == "data_dir_missing", refused.value
        assert "restart" in refused.value.data["fix"]
        p = _problem(c.hello(), "data_dir_missing")
        assert str(d.data_dir) in p["message"]
        assert c.stats()["status"] == "degraded"
        for _ in range(3):  # every write is refused the same way; the daemon stays up
            with pytest.raises(Unavailable):
                c.store("still nowhere", namespace="n")
        assert c.ping() == {}
        code, checks, _ = _doctor(d.base, "--socket", str(d.socket), "--data-dir", str(d.data_dir))
        assert code == 1 and checks["daemon data_dir_missing"]["level"] == "error", checks
        assert "restart" in checks["daemon data_dir_missing"]["fix"], checks
        assert checks["data directory"]["level"] == "error" and "is gone" in checks["data directory"]["detail"], checks
        assert "? MB" in checks["store"]["detail"], checks  # (its size is unknown now)
    assert d.stop() == 0, d.log()
    assert not d.data_dir.exists(), "the daemon must not recreate a half store in the old place"
    # the moved store holds exactly what was acknowledged
    d2: Daemon = daemon_factory(data_dir=moved, name="d2").start()
    with d2.client() as c:
        assert set(_stored(c, "n")) == ids
    assert d2.stop() == 0, d2.log()
    # and a restart without it starts an empty store
    d.start()
    with d.client() as c:
        assert _stored(c, "n") == {}
        c.store("a fresh start", namespace="n")
        assert c.hello()["status"] == "ok"
    assert d.stop() == 0, d.log()


def _copy_model(dest: Path) -> Path:
    src = embedding_cache_dir(load_config().model_cache_dir)
    shutil.copytree(src, dest)
    return dest


def test_corrupt_embedding_model_degrades_and_reloads_when_fixed(daemon_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    model = _copy_model(tmp_path / "model")
    good = (model / "model.onnx").read_bytes()
    env = {"OMEGAD_EMBEDDING_MODEL_DIR": str(model)}
    d: Daemon = daemon_factory(env=env).start()
    with d.client() as c:
        ids = {c.store(f"memory about the deploy pipeline, part {i}", namespace="n") for i in range(4)}
        c.flush()
    assert d.stop() == 0, d.log()
    (model / "model.onnx").write_bytes(good[: len(good) // 3])  # truncated
    d.start()
    with d.client() as c:
        p = _problem(c.hello(), "embedder")
        assert "model.onnx" in p["detail"] and "omegad models fetch" in p["fix"]
        embedding = c.stats()["models"]["embedding"]
        assert embedding["state"] == "unavailable" and "model.onnx" in embedding["error"], embedding
        assert c.hello()["embedding"]["model"] == "sentence-transformers/all-MiniLM-L6-v2"
        for call in (lambda: c.store("x", namespace="n"), lambda: c.query("deploy pipeline", namespace="n")):
            with pytest.raises(Unavailable) as refused:
                call()
            assert refused.value.data["reason"] == "embedder"
        # what needs no model still works
        some = next(iter(ids))
        assert c.get(some)["namespace"] == "n"
        assert set(_stored(c, "n")) == ids
        code, checks, _ = _doctor(
            d.base, "--socket", str(d.socket), "--data-dir", str(d.data_dir), OMEGAD_EMBEDDING_MODEL_DIR=str(model)
        )
        assert code == 1 and checks["embedding model"]["level"] == "error", checks
        assert checks["daemon embedder"]["level"] == "error", checks
        # put the model back: the daemon notices and reloads it by itself
        tmp = model / "model.onnx.new"
        tmp.write_bytes(good)
        tmp.replace(model / "model.onnx")
        deadline = time.monotonic() + 60
        while c.hello()["status"] != "ok" and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c.hello()["status"] == "ok", c.hello()
        assert c.stats()["models"]["embedding"]["state"] == "ready"
        ids.add(c.store("memory stored after the model came back", namespace="n"))
        assert {r["id"] for r in c.query("deploy pipeline", namespace="n", limit=10)} & ids
    assert d.stop() == 0, d.log()
    assert '"event": "embedder_ready"' in d.log()


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_corrupt_model_and_no_store_is_a_clear_startup_error(daemon_factory, tmp_path: Path, damage: str) -> None:  # type: ignore[no-untyped-def]
    model = _copy_model(tmp_path / "model")
    good = (model / "model.onnx").read_bytes()
    (model / "model.onnx").write_bytes(b"not an onnx model" if damage == "garbage" else good[: len(good) // 3])
    d: Daemon = daemon_factory(env={"OMEGAD_EMBEDDING_MODEL_DIR": str(model)})
    d.start(wait=False)
    assert d.proc is not None and d.proc.wait(60) == 1
    assert "cannot start" in d.log() and "model.onnx" in d.log()
    assert "fix: run `omegad models fetch`" in d.log(), d.log()  # the fix, as for every other problem
    with pytest.raises(OmegadError):
        d.client(timeout=2).ping()


def _wait_status(c: Any, status: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (hello := c.hello())["status"] != status and time.monotonic() < deadline:
        time.sleep(0.2)
    return hello  # type: ignore[no-any-return]


@pytest.mark.parametrize("with_hashes", [True, False])
def test_a_model_damaged_under_the_daemon_is_reported(daemon_factory, tmp_path: Path, with_hashes: bool) -> None:  # type: ignore[no-untyped-def]
    """The daemon serves from the model it loaded, but would not start again: say so. With the
    fetched model's recorded hashes, and for a model directory of the user's own (none)."""
    model = _copy_model(tmp_path / "model")
    if not with_hashes:
        (model / "manifest.json").unlink(missing_ok=True)
    good = (model / "model.onnx").read_bytes()
    d: Daemon = daemon_factory(env={"OMEGAD_EMBEDDING_MODEL_DIR": str(model)}).start()
    with d.client() as c:
        c.store("stored while the model is whole", namespace="n")
        (model / "model.onnx").write_bytes(good[: len(good) // 2])
        p = _problem(_wait_status(c, "degraded"), "model_damaged")
        assert "omegad models fetch" in p["fix"] and p["detail"], p
        embedding = c.stats()["models"]["embedding"]
        assert embedding["state"] == "damaged" and embedding["error"], embedding
        # the loaded copy still serves
        c.store("stored while the file on disk is damaged", namespace="n")
        assert c.query("model damaged file", namespace="n")
        code, checks, _ = _doctor(
            d.base, "--socket", str(d.socket), "--data-dir", str(d.data_dir), OMEGAD_EMBEDDING_MODEL_DIR=str(model)
        )
        assert code == 1 and checks["daemon model_damaged"]["level"] == "error", checks
        tmp = model / "model.onnx.new"
        tmp.write_bytes(good)
        tmp.replace(model / "model.onnx")
        assert _wait_status(c, "ok")["status"] == "ok"
        assert c.stats()["models"]["embedding"]["state"] == "ready"
    assert d.stop() == 0, d.log()


def test_a_released_model_whose_file_changed_is_not_loaded_again(daemon_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Out of memory after ``embedding.idle_s``, the model is loaded again only from the file
    the store's vectors came from: a changed file (here one that still loads, with other
    weights) is refused with the typed error, the daemon serves what needs no model, and it
    recovers by itself once the file is put back."""
    model = _copy_model(tmp_path / "model")
    good = (model / "model.onnx").read_bytes()
    changed = bytearray(good)
    middle = len(changed) // 2
    changed[middle : middle + 4096] = bytes(255 - b for b in changed[middle : middle + 4096])
    d: Daemon = daemon_factory(env={"OMEGAD_EMBEDDING_MODEL_DIR": str(model)}, config="[embedding]\nidle_s = 0.5\n")
    d.start()
    with d.client() as c:
        kept = c.store("the deploy pipeline pushes images to the internal registry", namespace="n")
        c.flush()
        deadline = time.monotonic() + 60
        while c.stats()["models"]["embedding"]["resident"]:
            assert time.monotonic() < deadline, c.stats()["models"]["embedding"]
            time.sleep(0.1)
        (model / "model.onnx").write_bytes(bytes(changed))
        with pytest.raises(Unavailable) as refused:
            c.query("where do images go", namespace="n")
        assert refused.value.data["reason"] == "embedder"
        assert "changed while the model was out of memory" in str(refused.value), refused.value
        embedding = c.stats()["models"]["embedding"]
        assert embedding["state"] == "unavailable" and "model.onnx" in embedding["error"], embedding
        with pytest.raises(Unavailable):
            c.store("refused while no model loads", namespace="n")
        assert set(_stored(c, "n")) == {kept}
        assert c.get(kept)["text"].startswith("the deploy pipeline")
        tmp = model / "model.onnx.new"
        tmp.write_bytes(good)
        tmp.replace(model / "model.onnx")
        assert _wait_status(c, "ok")["status"] == "ok", c.hello()
        assert [r["id"] for r in c.query("where do images go", namespace="n")] == [kept]
    assert d.stop() == 0, d.log()
    assert '"event": "embedder_lost"' in d.log()
