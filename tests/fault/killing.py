"""Shared by the kill test and bench/fault_kill.py: one trial = concurrent writer processes,
SIGKILL of the daemon at a random moment, optionally a simulated power loss, restart, checks."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from omegad.storage.wal import WriteAheadLog

from .mounts import fill, free
from .writer import text_of

REPO = Path(__file__).resolve().parents[2]

#: Frequent maintenance, so kills also land in compactions and checkpoints.
CONFIG = """
[maintenance]
max_fragments = 6
unindexed_rows = 200
interval_s = 1.0
"""


@dataclass
class TrialResult:
    acked: int
    present: int
    power_loss: bool
    manifests_dropped: int
    restored: int


def unsynced_manifests(data_dir: Path) -> list[Path]:
    """The table versions a power loss may take: LanceDB never fsyncs, so every version
    committed after the last checkpoint (when the oldest write-ahead-log segment was opened)."""
    cutoff = WriteAheadLog(data_dir / "wal").durable_through_us()
    if cutoff is None:
        return []
    out = []
    for manifest in (data_dir / "lance").glob("*.lance/_versions/*.manifest"):
        try:
            if manifest.stat().st_mtime_ns // 1000 > cutoff:
                out.append(manifest)
        except FileNotFoundError:  # (cleaned up by a pass of the running daemon)
            continue
    return out


def drop_unsynced_manifests(data_dir: Path) -> int:
    """Simulate a power loss: remove the `unsynced_manifests`; Lance then opens the newest
    surviving version."""
    dropped = unsynced_manifests(data_dir)
    for manifest in dropped:
        manifest.unlink()
    return len(dropped)


def run_writers(
    socket: Path, tag: str, n: int, workdir: Path, retry: bool = False
) -> tuple[list[subprocess.Popen[bytes]], list[Path]]:
    files = [workdir / f"{tag}-w{k}.acked" for k in range(n)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.fault.writer", str(socket), f"{tag}w{k}", str(f)]
            + (["--retry"] if retry else []),
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for k, f in enumerate(files)
    ]
    return procs, files


def table_rows(data_dir: Path) -> Any:
    import lancedb

    table = lancedb.connect(str(data_dir / "lance")).open_table("memories")
    return table.search().where("namespace = 'kill'").select(["id", "text", "vector"]).limit(None).to_arrow()


def check_store(data_dir: Path, acked: set[str]) -> int:
    """Every acknowledged id present exactly once; every row present whole. Returns rows."""
    tbl = table_rows(data_dir)
    ids = tbl.column("id").to_pylist()
    assert len(ids) == len(set(ids)), "an id was stored twice"
    lost = acked - set(ids)
    assert not lost, f"{len(lost)} acknowledged memories lost, e.g. {sorted(lost)[:3]}"
    texts = tbl.column("text").to_pylist()
    bad = [i for i, t in zip(ids, texts, strict=True) if t != text_of(i)]
    assert not bad, f"rows with a wrong text: {bad[:3]}"
    if ids:
        vectors = np.asarray(tbl.column("vector").combine_chunks().flatten().to_numpy(), dtype=np.float32)
        norms = np.linalg.norm(vectors.reshape(len(ids), -1), axis=1)
        assert np.all(np.abs(norms - 1.0) < 1e-3), "a row with a broken vector"
    return len(ids)


def trial(
    daemon: Any,
    rng: random.Random,
    n: int,
    workdir: Path,
    acked: set[str],
    power_loss: bool,
    fill_fs: Path | None = None,
) -> TrialResult:
    """*daemon* is running; leaves it running (restarted) after the checks.

    With *fill_fs* (a small file system holding the data directory, or only its write-ahead
    log) that file system fills up and frees again while the writers go on, retrying what is
    refused with the same ids."""
    procs, files = run_writers(daemon.socket, f"t{n}", 3, workdir, retry=fill_fs is not None)
    stop = threading.Event()
    filler = None
    if fill_fs is not None:
        filler = threading.Thread(target=_fill_and_free, args=(fill_fs, random.Random(rng.random()), stop))
        filler.start()

    def stop_filling() -> None:
        stop.set()
        if filler is not None:
            filler.join()
            free(fill_fs)  # type: ignore[arg-type]

    time.sleep(rng.uniform(0.4, 1.6))
    if power_loss:
        # The power fails at a moment when it can take something: a table version committed
        # since the last checkpoint (a full log checkpoints often, and a loss that takes
        # nothing tests nothing). The disk is freed for that, and the writers go on.
        stop_filling()
        deadline = time.monotonic() + 10
        while not unsynced_manifests(daemon.data_dir) and time.monotonic() < deadline:
            time.sleep(0.01)
    daemon.kill()
    stop_filling()
    for p in procs:
        p.wait(60)
    for f in files:
        if f.exists():
            acked.update(line for line in f.read_text().splitlines() if line)
    dropped = drop_unsynced_manifests(daemon.data_dir) if power_loss else 0
    daemon.start()
    with daemon.client() as c:
        report = c.stats()["store"]["recovery_at_start"]
        # (rows logged before their embedding come back as `rows_to_embed`)
        restored = int(report.get("rows_restored", 0)) + int(report.get("rows_to_embed", 0))
        assert c.query("deployment pipeline", namespace="kill", limit=3) or not acked
    present = check_store(daemon.data_dir, acked)
    return TrialResult(len(acked), present, power_loss, dropped, restored)


def _fill_and_free(fill_fs: Path, rng: random.Random, stop: threading.Event) -> None:
    while not stop.is_set():
        fill(fill_fs)
        stop.wait(rng.uniform(0.05, 0.3))
        free(fill_fs)
        stop.wait(rng.uniform(0.05, 0.3))
