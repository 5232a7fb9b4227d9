"""The checker's second stage: the pairs waiting for the pair classifier (`Backlog`), in the
order the checks found them, with the smallest commit stamp among them kept at hand (the saved
cursor must stay below it) and the memories they involve counted (a newer text of one of them
supersedes its pairs)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from omegad.contradictions.model import Detection
from omegad.storage.rows import Row

__all__ = ["Asked", "Backlog", "Pair"]


@dataclass(slots=True)
class Pair:
    """A neighbour pair of one check, newer memory first."""

    newer: Row
    older: Row
    detection: Detection
    cosine: float
    asked: bool  # the classifier may be asked: among the newer memory's nearest gated neighbours


@dataclass(slots=True)
class Asked:
    """A backlog pair: the classifier is yet to be asked about it."""

    pair: Pair
    stamp: int  # the commit stamp its check was queued with: the saved cursor stays below it
    stale: str | None  # its edge on an older text, whose removal the check left to this stage
    queued_at: float  # `time.monotonic` when the check put it in the backlog
    superseded: bool = False  # a newer text of one of its memories was checked since


class Backlog:
    """Pairs waiting for the classifier, oldest first. Used from the event loop only."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: deque[Asked] = deque()
        self._floors: deque[int] = deque()  # ascending minima of the stamps (a sliding minimum)
        self._ids: dict[str, int] = {}  # memory id -> pairs it is in

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Asked]:
        return iter(self._items)

    @property
    def room(self) -> int:
        return self.limit - len(self._items)

    def first(self) -> Asked:
        return self._items[0]

    def floor(self) -> int | None:
        """The smallest commit stamp of a waiting pair."""
        return self._floors[0] if self._floors else None

    def push(self, asked: Asked) -> None:
        self._items.append(asked)
        while self._floors and self._floors[-1] > asked.stamp:
            self._floors.pop()
        self._floors.append(asked.stamp)
        for mid in (asked.pair.newer.id, asked.pair.older.id):
            self._ids[mid] = self._ids.get(mid, 0) + 1

    def pop(self) -> Asked:
        asked = self._items.popleft()
        if self._floors[0] == asked.stamp:
            self._floors.popleft()
        for mid in (asked.pair.newer.id, asked.pair.older.id):
            self._ids[mid] -= 1
            if not self._ids[mid]:
                del self._ids[mid]
        return asked

    def supersede(self, checked: list[Row]) -> None:
        """Pairs on an older text of a memory just checked are left undecided: the check has
        dealt with that text's edges (deleted, or took over as a pair of its own), as it did
        after an inline decision."""
        versions = {r.id: r.version for r in checked if r.id in self._ids}
        if not versions:
            return
        for a in self._items:
            if any(versions.get(r.id, r.version) != r.version for r in (a.pair.newer, a.pair.older)):
                a.superseded = True
