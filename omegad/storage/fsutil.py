"""fsync helpers for the write-ahead log, the store and the index build."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["fsync_dir", "fsync_file", "fsync_tree"]


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_file(path: str | Path) -> bool:
    """fsync one file; False when it is gone (deleted meanwhile)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return True


def fsync_tree(root: Path) -> int:
    """fsync every file and directory under *root* (files deleted meanwhile are skipped).
    Files already on disk cost one cheap syscall each. Returns the number of files."""
    n = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            n += fsync_file(os.path.join(dirpath, name))
        try:
            fsync_dir(Path(dirpath))
        except FileNotFoundError:
            pass
    return n
