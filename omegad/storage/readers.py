"""Reads in flight: maintenance removes a table's old versions only after the reads that may
be using them have finished (`Readers`, `reader`)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar, cast

__all__ = ["Readers", "reader"]


class _Read(Protocol):
    loading: threading.Lock
    readers: Readers


F = TypeVar("F", bound=Callable[..., Any])


def reader(method: F) -> F:
    """Mark a read: maintenance removes old versions only after the reads that may use them."""

    @functools.wraps(method)
    def wrapper(self: _Read, *args: Any, **kwargs: Any) -> Any:
        with self.loading:  # (held only while `renew_cache` loads an index after a swap)
            pass
        with self.readers.reading():
            return method(self, *args, **kwargs)

    return cast(F, wrapper)


class Readers:
    """Reads in flight, by epoch. `wait_before` opens a new epoch and waits until every read of
    an older one is done: those may be reading a version about to be cleaned up; reads that
    start later see the newest version, which cleanup always keeps."""

    def __init__(self) -> None:
        self._cv = threading.Condition()
        self._epoch = 0
        self._active: dict[int, int] = {}
        self._long: dict[int, int] = {}  # epochs of long reads (exports): never waited for

    def acquire(self, long: bool = False) -> int:
        """Register a read; returns its epoch. A *long* one (an export read in pages over
        minutes) makes cleanup skip at once instead of waiting for it."""
        with self._cv:
            epoch = self._epoch
            table = self._long if long else self._active
            table[epoch] = table.get(epoch, 0) + 1
            return epoch

    def release(self, epoch: int, long: bool = False) -> None:
        with self._cv:
            table = self._long if long else self._active
            table[epoch] -= 1
            if not table[epoch]:
                del table[epoch]
            self._cv.notify_all()

    @contextmanager
    def reading(self) -> Iterator[None]:
        epoch = self.acquire()
        try:
            yield
        finally:
            self.release(epoch)

    def wait_before(self, timeout: float) -> bool:
        with self._cv:
            self._epoch += 1
            mark = self._epoch
            if any(e < mark for e in self._long):
                return False
            return self._cv.wait_for(lambda: all(e >= mark for e in self._active), timeout)

    @property
    def active(self) -> int:
        with self._cv:
            return sum(self._active.values()) + sum(self._long.values())
