"""The writer's operations: one frozen-shape record per kind of write, applied in order by
`omegad.app.writer.Writer` in the writer thread, each answered by its own result."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from omegad.app.history import Past
from omegad.contradictions.edges import Edge, EdgeOp
from omegad.requests import FeedbackParams, ImportEdge, UpdateParams
from omegad.storage.maintenance import Pass
from omegad.storage.rows import Row
from omegad.storage.signals import MemorySignals

__all__ = [
    "DeleteOp",
    "FeedbackOp",
    "ImportOp",
    "ImportResult",
    "InsertOp",
    "MaintainOp",
    "Merged",
    "SnapshotOp",
    "UpdateOp",
    "WriteOp",
]


@dataclass
class InsertOp:
    row: Row
    client_id: bool  # the client chose the id: check whether it exists (idempotent retry)
    #: the memory of the namespace whose normalised text equals this one's, found before the
    #: write (`dedup.on_store`); None: none found, or dedup is off (`merge` False)
    same_as: str | None = None
    merge: bool = False
    #: acknowledged at the log (`omegad.app.pending`): the intake has decided it is new and
    #: logged its row; the commit writes it without merging or logging it again
    logged: bool = False


@dataclass
class Merged:
    """An insert answered by an existing memory with the same normalised text."""

    row: Row  # that memory, as it is after the merge
    changed: bool  # its tags grew


@dataclass
class UpdateOp:
    params: UpdateParams
    vector: npt.NDArray[np.float32] | None
    embedded_text: str | None = None  # the text *vector* was computed from (with the tags)


@dataclass
class DeleteOp:
    id: str
    has_edges: bool = True
    namespace: str | None = None  # when known (for the `deleted` event)
    forget: bool = False  # erase its history too, leave no tombstone


@dataclass
class FeedbackOp:
    params: FeedbackParams


@dataclass
class SnapshotOp:
    """Pin the tables' versions between two group commits (an export's consistent view)."""


@dataclass
class ImportOp:
    rows: list[Row]
    signals: dict[str, MemorySignals]
    edges: list[ImportEdge]
    history: list[Past] = field(default_factory=list)


@dataclass
class ImportResult:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    written: list[Row] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    edges_skipped: int = 0
    history: int = 0


@dataclass
class MaintainOp:
    force: bool = False
    reason: str = "due"
    checkpoint_only: bool = False
    cleanup_only: bool = False  # only make the tables durable and remove old versions
    prepared: Pass | None = None  # `Maintenance.reorganize` done beside the writer
    counted: tuple[int, int] | None = None  # rows and commits since the last pass, at its start


WriteOp = InsertOp | UpdateOp | DeleteOp | MaintainOp | EdgeOp | FeedbackOp | SnapshotOp | ImportOp
