"""Which normalised texts each namespace may hold (`TextKeys`): a store into a namespace the
neighbour cache does not keep can still be acknowledged at the log at once.

A store is acknowledged before its embedding only when it is plainly new, and that includes
"no memory of its namespace has the same text after normalisation" (`dedup.on_store`). The
neighbour cache answers that for the namespaces it keeps; for a bigger one the store had to
be embedded and its nearest neighbours searched first. `TextKeys` keeps a 64-bit digest of
(namespace, normalised text) for every committed memory: a sorted array built by scanning the
table once at start, in the background, plus the commits since. (The digest is of the text's letters and
digits, a coarser key than the normalised text that is ~10 times cheaper to compute.) A
digest that is absent proves there is no such memory; a present one (a duplicate, a deleted memory's text, or a
collision) only sends the store the way it went before, which searches. So a stale or
missing-deletes filter costs speed, never correctness, and deletes need not be tracked.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from omegad.contradictions.duplicates import normalise
from omegad.errors import error_text
from omegad.storage.rows import Row

__all__ = ["Stopped", "TextKeys", "digest", "letters"]

#: digests added since the last merge are kept in a set until there are this many
MERGE_AT = 16_384


#: the ASCII characters that are not letters or digits
_NOT_ALNUM = bytes(c for c in range(128) if not chr(c).isalnum())


def letters(text: str) -> bytes:
    """The letters and digits of `normalise` (*text*), in order: two texts alike after
    normalisation are alike here. For an ASCII text they are its own, lower-cased (what
    `normalise` keeps of it), found without its regular expressions: ~1 µs instead of ~10."""
    if text.isascii():
        return text.encode().lower().translate(None, _NOT_ALNUM)
    return "".join(normalise(text).split()).encode()


class Stopped(Exception):
    """The start-up scan gave up: the daemon is stopping."""


def _distinct(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """*values* sorted, each once (a sort and a comparison: np.unique takes ~40 times as long
    on a million digests, holding the GIL)."""
    values = np.sort(values)
    return values[np.concatenate(([True], values[1:] != values[:-1]))] if len(values) else values


def _members(known: npt.NDArray[np.uint64], values: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
    """Per value, whether the sorted array *known* holds it."""
    if not len(known):
        return np.zeros(len(values), dtype=np.bool_)
    found: npt.NDArray[np.bool_] = known[np.minimum(np.searchsorted(known, values), len(known) - 1)] == values
    return found


def digest(namespace: str, text: str) -> int:
    """The 64-bit digest of a namespace and a text's `letters`."""
    return int.from_bytes(hashlib.blake2b(namespace.encode() + b"\0" + letters(text), digest_size=8).digest(), "little")


class TextKeys:
    """Digests of the (namespace, normalised text) of committed memories. `add` takes every
    commit's rows from the moment this exists; `build` adds the table's rows (scanned after
    that moment, so nothing committed falls between the two) and only then is it `ready`.
    Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sorted: npt.NDArray[np.uint64] = np.empty(0, dtype=np.uint64)
        self._recent: set[int] = set()
        self.ready = False
        self.failed: str | None = None
        self.build_s = 0.0
        self.answered = 0  # rows found absent: acknowledged without a search
        self.stop = threading.Event()  # set: a scan under way gives up (the daemon stops)
        self.enabled = False  # the daemon uses them (stores acknowledged at the log, dedup on)

    def add(self, rows: Iterable[Row]) -> None:
        """Note the texts of rows about to be committed (new memories, updated texts). Never
        raises: a failure turns the digests off (every store is then searched, as before)."""
        try:
            found = [digest(r.namespace, r.text) for r in rows]
        except Exception as exc:
            self.fail(error_text(exc))
            return
        with self._lock:
            self._recent.update(found)
            if len(self._recent) >= MERGE_AT:
                self._merge()

    def fail(self, why: str) -> None:
        """Stop answering (a digest may be missing from now on)."""
        with self._lock:
            self.ready = False
            self.failed = why

    def build(self, scan: Callable[[Callable[[list[str], list[str]], None]], int], pause_s: float = 0.0) -> int:
        """Add the digests of every row *scan* reports (`MemoryStore.scan_texts`), then be
        ready. *pause_s* after each batch leaves the GIL to requests. Returns the rows scanned.
        Blocking."""
        began = time.perf_counter()
        parts: list[npt.NDArray[np.uint64]] = []

        def each(namespaces: list[str], texts: list[str]) -> None:
            if self.stop.is_set():
                raise Stopped("the daemon is stopping")
            parts.append(
                np.fromiter(
                    (digest(ns, t) for ns, t in zip(namespaces, texts, strict=True)),
                    dtype=np.uint64,
                    count=len(texts),
                )
            )
            if pause_s:
                time.sleep(pause_s)

        scanned = scan(each)
        built = _distinct(np.concatenate(parts)) if parts else np.empty(0, dtype=np.uint64)
        with self._lock:  # (only what commits added meanwhile is merged under the lock)
            self._sorted = _distinct(np.concatenate((built, self._sorted))) if len(self._sorted) else built
            self._merge()
            self.build_s = time.perf_counter() - began
            self.ready = self.failed is None
        return scanned

    def absent(self, namespace: str, texts: Sequence[str]) -> list[bool] | None:
        """Per text, whether no committed memory of *namespace* has the same normalised text
        (True: proven; False: maybe one has); None until `build` has finished."""
        wanted = np.fromiter((digest(namespace, t) for t in texts), dtype=np.uint64, count=len(texts))
        with self._lock:
            if not self.ready:
                return None
            hit = _members(self._sorted, wanted)
            out = [not (bool(h) or int(d) in self._recent) for h, d in zip(hit, wanted, strict=True)]
            self.answered += sum(out)
        return out

    def _merge(self) -> None:
        """Move the recent digests the array lacks into it (lock held)."""
        if self._recent:
            new = np.fromiter(self._recent, dtype=np.uint64, count=len(self._recent))
            new.sort()
            new = new[~_members(self._sorted, new)]
            self._sorted = np.insert(self._sorted, np.searchsorted(self._sorted, new), new)
            self._recent.clear()

    def figures(self) -> dict[str, object]:
        size = len(self._sorted) + len(self._recent)  # (no lock: stats must not wait on a merge)
        out: dict[str, object] = {
            "enabled": self.enabled,
            "ready": self.ready,
            "digests": size,
            "answered": self.answered,
        }
        if self.ready:
            out["build_s"] = round(self.build_s, 3)
        if self.failed:
            out["failed"] = self.failed
        return out
