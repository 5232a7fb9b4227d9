"""LanceDB connections and what the store's commits need beyond Lance: deletes in bounded
batches, and fsync of exactly the files a commit wrote (Lance does not fsync)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from omegad.storage.fsutil import fsync_dir, fsync_file
from omegad.storage.location import Location

__all__ = ["COMMIT_DIRS", "appended_files", "commit_files", "connect", "delete_in", "fsync_commits"]


def connect(location: Location, index_cache_mb: int, metadata_cache_mb: int) -> tuple[Any, Any]:
    import lancedb

    session = lancedb.Session(
        index_cache_size_bytes=index_cache_mb << 20, metadata_cache_size_bytes=metadata_cache_mb << 20
    )
    return lancedb.connect(location.root, session=session, **location.connect_args()), session


def delete_in(table: Any, column: str, values: Sequence[int]) -> None:
    """Delete the rows of *table* whose *column* is one of *values* (1,000 per commit)."""
    for start in range(0, len(values), 1_000):
        table.delete(f"{column} IN ({', '.join(str(int(v)) for v in values[start : start + 1_000])})")


#: What a Lance table's commits write: data files, manifests, transactions, deletion files.
COMMIT_DIRS = ("data", "_versions", "_transactions", "_deletions")


def commit_files(table_dir: Path) -> dict[str, set[str]]:
    """The files in a Lance table's commit directories now (see `fsync_commits`)."""
    return {sub: set(os.listdir(table_dir / sub)) if (table_dir / sub).is_dir() else set() for sub in COMMIT_DIRS}


def fsync_commits(table_dir: Path, before: dict[str, set[str]], data_files: Iterable[str] = ()) -> None:
    """fsync what a Lance table's commits wrote since *before* (`commit_files`, under the
    write lock): the new manifests, transactions and deletion files, of the data files only
    *data_files* (names in ``data/``: a compaction writes its new files there beside the
    writer, uncommitted, and they are not this commit's), and the directories."""
    for sub in COMMIT_DIRS:
        d = table_dir / sub
        if not d.is_dir():
            continue
        names = set(data_files) if sub == "data" else set(os.listdir(d))
        for name in sorted(names - before[sub]):
            fsync_file(d / name)
        fsync_dir(d)
    fsync_dir(table_dir)


def appended_files(table_dir: Path, before: dict[str, set[str]]) -> set[str]:
    """The data files an append since *before* (`commit_files`) wrote: the new files of
    ``data/`` that its transaction names (a transaction file is protobuf, which stores the
    path strings as they are). A compaction writes its new files there too, uncommitted, in
    the maintenance process (`omegad.storage.lanceops`), and fsyncing those would hold the writer up;
    finding them without Lance's dataset API keeps that library out of the daemon. When no
    transaction names one (another format), every new file."""
    try:
        new = set(os.listdir(table_dir / "data")) - before["data"]
        txns = set(os.listdir(table_dir / "_transactions")) - before["_transactions"]
    except FileNotFoundError:
        return set()
    written = bytearray()
    for name in sorted(txns):
        if not name.endswith(".txn"):  # (another commit's temporary file, renamed meanwhile)
            continue
        try:
            written += (table_dir / "_transactions" / name).read_bytes()
        except FileNotFoundError:  # (a commit that lost a race removed its own)
            continue
    named = {name for name in new if name.encode() in written}
    return named or new
