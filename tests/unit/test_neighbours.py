"""The checker's in-memory neighbour search against exact search over a real LanceDB store,
through random inserts, updates, deletes, moves of reports past a search, and evictions."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from omegad.recall.neighbours import NeighbourCache
from omegad.storage.rows import Filter, Row
from omegad.storage.store import MemoryStore

DIM = 16


def _vec(rng: np.random.Generator) -> np.ndarray:
    v = rng.standard_normal(DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def _row(i: int, ns: str, stamp: int, rng: np.random.Generator) -> Row:
    return Row(
        id=f"m{i}",
        text=f"memory {i}",
        type=["fact", "decision"][i % 2],
        tags=[["t"], ["u"], [], ["t", "u"]][i % 4],
        namespace=ns,
        metadata={},
        created_at=stamp,
        updated_at=stamp,
        version=1,
        vector=_vec(rng),
    )


def _passes(r: Row, flt: Filter) -> bool:
    return (
        r.namespace == flt.namespace
        and (not flt.types or r.type in flt.types)
        and (not flt.tags or bool(set(flt.tags) & set(r.tags)))
        and (flt.since_us is None or r.created_at >= flt.since_us)
        and (flt.until_us is None or r.created_at <= flt.until_us)
        and r.id not in flt.exclude_ids
    )


def _random_filter(ns: str, model: dict[str, Row], pick: random.Random) -> Filter:
    stamps = sorted(r.created_at for r in model.values()) or [0]
    return Filter(
        namespace=ns,
        types=pick.choice([None, ("fact",), ("decision", "lesson")]),
        tags=pick.choice([None, ("t",), ("u", "v")]),
        since_us=pick.choice([None, stamps[len(stamps) // 3]]),
        until_us=pick.choice([None, stamps[2 * len(stamps) // 3]]),
        exclude_ids=tuple(pick.sample(sorted(model), min(3, len(model)))) if pick.random() < 0.5 else (),
    )


def _exact(model: dict[str, Row], ns: str, q: np.ndarray, k: int, flt: Filter | None = None) -> list[tuple[str, float]]:
    flt = flt or Filter(namespace=ns)
    scored = [(r.id, float(r.vector @ q)) for r in model.values() if _passes(r, flt)]
    scored.sort(key=lambda h: (-h[1], h[0]))
    return scored[:k]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cache_search_equals_exact_search_through_random_changes(tmp_path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    store = MemoryStore.open(tmp_path / "data", "test-model", DIM)
    cache = NeighbourCache(store, max_rows=120)  # room for two of the three namespaces
    model: dict[str, Row] = {}
    late: list[tuple[str, object]] = []  # reports held back past a search (a slow event loop)
    stamp = 1_000_000
    next_id = 0

    def report(what: str, item: object) -> None:
        if pick.random() < 0.2:
            late.append((what, item))
        elif what == "upsert":
            cache.upserted([item])  # type: ignore[list-item]
        else:
            cache.deleted([item])  # type: ignore[list-item]

    def deliver_late() -> None:
        for what, item in late:
            if what == "upsert":
                cache.upserted([item])  # type: ignore[list-item]
            else:
                cache.deleted([item])  # type: ignore[list-item]
        late.clear()

    for step in range(400):
        stamp += 1
        op = pick.random()
        if op < 0.5 or len(model) < 5:
            ns = pick.choice(["a", "a", "b", "c"])
            row = _row(next_id, ns, stamp, rng)
            next_id += 1
            store.insert([row])
            model[row.id] = row
            report("upsert", row)
        elif op < 0.7:
            old = model[pick.choice(sorted(model))]
            new_text = pick.random() < 0.5
            row = replace(
                old,
                version=old.version + (1 if new_text else 0),
                updated_at=stamp,
                vector=_vec(rng) if new_text else old.vector,
                tags=["t"],
            )
            store.replace(row)
            model[row.id] = row
            report("upsert", row)
        elif op < 0.85:
            mid = pick.choice(sorted(model))
            store.delete([mid])
            del model[mid]
            report("delete", mid)
        else:
            # a search: once every report has arrived, it must equal exact search
            deliver_late()
            ns = pick.choice(["a", "b", "c", "empty"])
            queries = [_vec(rng) for _ in range(pick.randint(1, 3))]
            refused = cache.stats().refused
            hits = cache.search(ns, queries, 6)
            if hits is None:  # the store is searched instead: too large, or the others in more demand
                too_large = store.ns_rows.get(ns, 0) > 120 or sum(r.namespace == ns for r in model.values()) > 120
                assert too_large or cache.stats().refused == refused + 1
                continue
            for q, found in zip(queries, hits, strict=True):
                expect = _exact(model, ns, q, 6)
                assert [h[0].id for h in found] == [e[0] for e in expect], f"step {step}"
                assert np.allclose([h[1] for h in found], [e[1] for e in expect], atol=1e-5)
                for row, _ in found:  # the current row, with its vector
                    want = model[row.id]
                    assert (row.updated_at, row.version, row.tags) == (want.updated_at, want.version, want.tags)
                    assert np.allclose(row.vector, want.vector, atol=1e-6)
                # the same answer as the store's own exact (brute-force) search
                lance = store.vector_search(q, Filter(namespace=ns), 6)
                assert [r.id for r, _ in lance] == [h[0].id for h in found]
            # with a query's filter: only the rows it lets through, as the storage query does
            flt = _random_filter(ns, model, pick)
            q = queries[0]
            filtered = cache.search(ns, [q], 6, flt)
            assert filtered is not None
            expect = _exact(model, ns, q, 6, flt)
            assert [h[0].id for h in filtered[0]] == [e[0] for e in expect], (step, flt)
            assert [r.id for r, _ in store.vector_search(q, flt, 6)] == [e[0] for e in expect], (step, flt)
    stats = cache.stats()
    assert stats.searches > 0 and stats.loads > 0 and stats.rows <= 120


def test_a_namespace_over_the_budget_is_searched_in_the_store(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    store = MemoryStore.open(tmp_path / "data", "test-model", DIM)
    store.insert([_row(i, "big", 1_000 + i, rng) for i in range(30)])
    store.insert([_row(100 + i, "small", 2_000 + i, rng) for i in range(5)])
    cache = NeighbourCache(store, max_rows=10)
    assert cache.search("big", [_vec(rng)], 3) is None
    assert cache.search("small", [_vec(rng)], 3) is not None
    assert cache.stats().store_searches == 1
    off = NeighbourCache(store, max_rows=0)
    assert off.search("small", [_vec(rng)], 3) is None


def test_namespaces_beyond_the_budget_do_not_thrash_it(tmp_path: Path) -> None:
    """More namespaces in use than fit: those kept stay kept (the rest are searched in the
    store) instead of each search evicting another; a namespace whose demand rises well above a
    kept one's takes its place."""
    rng = np.random.default_rng(7)
    store = MemoryStore.open(tmp_path / "data", "test-model", DIM)
    spaces = ["a", "b", "c", "d"]
    model: dict[str, Row] = {}
    for n, ns in enumerate(spaces):
        rows = [_row(100 * n + i, ns, 1_000 + 100 * n + i, rng) for i in range(30)]
        store.insert(rows)
        model.update((r.id, r) for r in rows)
    cache = NeighbourCache(store, max_rows=70)  # two of the four fit
    kept_answers = 0
    for step in range(400):  # every namespace in equal demand, round robin
        ns = spaces[step % 4]
        q = _vec(rng)
        hits = cache.search(ns, [q], 5)
        if hits is not None:
            kept_answers += 1
            assert [h[0].id for h in hits[0]] == [e[0] for e in _exact(model, ns, q, 5)]
    stats = cache.stats()
    assert stats.loads <= 3, stats  # a plain LRU reloads on nearly every search
    assert kept_answers >= 190 and stats.store_searches >= 190, stats
    assert stats.refused >= 190 and stats.rows <= 70
    kept = {ns for ns in spaces if cache.search(ns, [_vec(rng)], 1) is not None}
    assert len(kept) == 2
    # demand moves to the two other namespaces: they are admitted, the cold ones evicted
    cold = [ns for ns in spaces if ns not in kept]
    for step in range(2_000):
        ns = cold[step % 2]
        q = _vec(rng)
        hits = cache.search(ns, [q], 5)
        if hits is not None:
            assert [h[0].id for h in hits[0]] == [e[0] for e in _exact(model, ns, q, 5)]
    assert all(cache.search(ns, [_vec(rng)], 1) is not None for ns in cold)
    assert cache.stats().evictions >= 2 and cache.stats().rows <= 70


def test_a_cached_row_is_read_with_the_reported_changes_applied(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    store = MemoryStore.open(tmp_path / "data", "test-model", DIM)
    rows = [_row(i, "small", 1_000 + i, rng) for i in range(3)]
    store.insert(rows)
    store.insert([_row(100 + i, "big", 2_000 + i, rng) for i in range(30)])
    cache = NeighbourCache(store, max_rows=10)
    assert cache.row("m0") is None  # (nothing kept before a search)
    cache.search("small", [_vec(rng)], 3)
    got = cache.row("m0")
    assert got is not None and got.public() == rows[0].public()
    newer = replace(rows[0], text="memory 0, changed", version=2, updated_at=5_000)
    cache.upserted([newer])
    got = cache.row("m0")
    assert got is not None and (got.text, got.version) == ("memory 0, changed", 2)
    cache.upserted([replace(rows[1], namespace="other", updated_at=5_001)])  # moved out
    cache.deleted(["m2"])
    assert cache.row("m1") is None and cache.row("m2") is None
    assert cache.row("m100") is None  # (too big to keep: the store answers)
    assert cache.stats().gets == 2
