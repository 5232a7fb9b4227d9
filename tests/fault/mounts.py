"""Real small file systems for the fault tests and bench/fault_kill.py: a tmpfs mounted where
a test wants it (mounting needs root, as on CI; `MountRefused` elsewhere), and ballast that
fills one up or frees it."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

__all__ = ["MountRefused", "fill", "free", "tmpfs_at"]

BALLAST = "ballast"  # (not a `*.log` name: the write-ahead log never reads it)


class MountRefused(RuntimeError):
    """This process may not mount a file system here."""


@contextlib.contextmanager
def tmpfs_at(path: Path, size: str) -> Iterator[Path]:
    """Mount a fresh tmpfs of *size* (``"4m"``) on *path* (created if needed), unmounted after."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        raise MountRefused("mounting a tmpfs needs root")
    path.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)], capture_output=True
    )
    if r.returncode != 0:
        raise MountRefused(f"cannot mount a tmpfs here: {r.stderr.decode(errors='replace').strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(path: Path) -> int:
    """Write ballast into *path*'s file system until it is full; returns the bytes written."""
    written = 0
    fd = os.open(path / BALLAST, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        chunk = b"\0" * 65536
        while True:
            try:
                written += os.write(fd, chunk)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                if len(chunk) == 1:
                    return written
                chunk = chunk[: len(chunk) // 2]  # fill the last pages too
    finally:
        os.close(fd)


def free(path: Path) -> None:
    (path / BALLAST).unlink(missing_ok=True)
