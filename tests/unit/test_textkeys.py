"""`TextKeys`: digests of committed texts, from a real store's scan and from commits."""

from __future__ import annotations

import random
import string
from pathlib import Path

import numpy as np
import pytest

from omegad.app import textkeys
from omegad.app.textkeys import TextKeys, letters
from omegad.contradictions.duplicates import normalise
from omegad.storage.rows import Row
from omegad.storage.store import MemoryStore


def row(i: int, text: str, namespace: str = "a") -> Row:
    vector = np.zeros(8, dtype=np.float32)
    vector[i % 8] = 1.0
    return Row(f"m{i}", text, "fact", [], namespace, {}, i, i, 1, vector)


def test_scan_of_a_store_then_commits(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "data", "m", 8)
    store.insert([row(i, f"Fact number {i} about the build", "a" if i % 2 else "b") for i in range(40)])
    keys = TextKeys()
    assert keys.absent("a", ["anything"]) is None  # not ready before the scan
    keys.add([row(100, "Committed while the scan ran")])
    batches: list[int] = []

    def scan(each):  # type: ignore[no-untyped-def]
        return store.scan_texts(lambda ns, texts: (batches.append(len(texts)), each(ns, texts)), batch_rows=16)

    assert keys.build(scan) == 40
    assert sum(batches) == 40 and max(batches) <= 16
    assert keys.figures()["digests"] == 41
    # the namespace is part of the key; normalisation makes case and punctuation alike
    found = keys.absent("a", ["fact NUMBER 1 about the build!", "Fact number 2 about the build"])
    assert found == [False, True]
    assert keys.absent("b", ["Fact number 2 about the build"]) == [False]
    assert keys.absent("a", ["Committed while the scan ran"]) == [False]
    assert keys.figures()["answered"] == 1


def test_commits_merge_into_the_sorted_digests(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(textkeys, "MERGE_AT", 10)
    keys = TextKeys()
    keys.build(lambda each: 0)  # an empty store
    assert keys.absent("a", ["x"]) == [True]
    keys.add([row(i, f"text {i}") for i in range(25)])  # (merged at 25 ≥ 10)
    keys.add([row(99, "the last one")])  # (kept in the set)
    assert keys.figures()["digests"] == 26
    assert keys.absent("a", [f"text {i}" for i in range(25)] + ["the last one"]) == [False] * 26
    assert keys.absent("a", [f"text {i}" for i in range(25, 40)]) == [True] * 15


def test_letters_are_those_of_the_normalised_text() -> None:
    """`letters` skips `normalise` for ASCII texts; it must give what `normalise` keeps."""
    rng = random.Random(5)
    alphabet = string.ascii_letters + string.digits + string.punctuation + " \t\n" + "éÉßﬁ①Ω"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(3000)]
    texts += ["It costs 3,000 EUR", "It costs 3000 eur.", "ＦＵＬＬ width", "Straße", "STRASSE", "snake_case_name"]
    for text in texts:
        assert letters(text) == "".join(normalise(text).split()).encode(), text
    assert letters("It costs 3,000 EUR") == letters("it COSTS 3000 eur!")


def test_digests_are_kept_once_and_a_failure_turns_them_off(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(textkeys, "MERGE_AT", 4)
    keys = TextKeys()
    keys.build(lambda each: 0)
    for _ in range(5):  # the same texts again (tag updates, retries): no growth
        keys.add([row(i, f"text {i}") for i in range(6)])
    assert keys.figures()["digests"] == 6
    keys.add([row(1, "text", "\udc80")])  # (a namespace that cannot be encoded: no digest)
    assert keys.failed and keys.absent("a", ["text 9"]) is None  # every store searched from now on


def test_a_stop_ends_the_scan(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "data", "m", 8)
    store.insert([row(i, f"Fact {i}") for i in range(40)])
    keys = TextKeys()
    keys.stop.set()
    with pytest.raises(textkeys.Stopped):
        keys.build(lambda each: store.scan_texts(each, batch_rows=8))
    assert not keys.ready
