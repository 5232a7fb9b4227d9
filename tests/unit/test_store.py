"""The LanceDB store on a temporary directory (real LanceDB, small vectors)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from omegad.storage.maintenance import MaintainPolicy
from omegad.storage.readers import Readers
from omegad.storage.rows import Filter, Row, StoreMismatch, sql_str
from omegad.storage.store import MemoryStore


def vec(*xs: float) -> np.ndarray:  # type: ignore[type-arg]
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def row(
    mid: str, ns: str, text: str, v: np.ndarray, type: str = "fact", tags: list[str] | None = None, t: int = 1000
) -> Row:  # type: ignore[type-arg]
    return Row(mid, text, type, tags or [], ns, {"k": mid}, t, t, 1, v)


def test_sql_literals_are_escaped() -> None:
    assert sql_str("o'brien") == "'o''brien'"
    f = Filter("ns", types=("fact", "todo"), tags=("a'b",), since_us=5, until_us=9)
    assert (
        f.sql()
        == "namespace = 'ns' AND type IN ('fact', 'todo') AND array_has_any(tags, ['a''b']) AND created_at >= 5 AND created_at <= 9"
    )


def test_store_roundtrip_filters_and_search(tmp_path: Path) -> None:
    s = MemoryStore.open(tmp_path, "test-model", 3)
    s.insert(
        [
            row("a", "one", "postgres connection pool exhausted", vec(1, 0, 0), tags=["db"]),
            row("b", "one", "redis eviction policy", vec(0, 1, 0), type="decision", t=2000),
            row("c", "two", "postgres connection pool exhausted", vec(1, 0, 0)),
        ]
    )
    got = s.get_many(["a", "zzz"])
    assert set(got) == {"a"} and got["a"].metadata == {"k": "a"} and got["a"].tags == ["db"]
    assert s.existing_ids(["a", "b", "x"]) == {"a", "b"}
    hits = s.vector_search(vec(1, 0.1, 0), Filter("one"), 10)
    assert [r.id for r, _ in hits] == ["a", "b"] and hits[0][1] > 0.9
    assert [r.id for r, _ in s.vector_search(vec(1, 0, 0), Filter("one", types=("decision",)), 10)] == ["b"]
    assert [r.id for r, _ in s.vector_search(vec(1, 0, 0), Filter("one", tags=("db",)), 10)] == ["a"]
    assert [r.id for r, _ in s.vector_search(vec(1, 0, 0), Filter("one", since_us=1500), 10)] == ["b"]
    assert s.text_search("postgres", Filter("one"), 10) == []  # no full-text index yet
    assert s.maintenance.create_missing_indexes() == {
        "fts_created": True,
        "id_index_created": True,
        "namespace_index_created": True,
    }
    assert s.maintenance.create_missing_indexes() == {}
    assert s.indexes.ready
    assert [r.id for r, _ in s.text_search("postgres pool", Filter("one"), 10)] == ["a"]
    s.insert([row("d", "one", "postgres replica lag", vec(0, 0, 1))])  # unindexed, still found
    assert {r.id for r, _ in s.text_search("postgres", Filter("one"), 10)} == {"a", "d"}
    assert s.counts() == {"one": {"fact": 2, "decision": 1}, "two": {"fact": 1}}
    s.delete(["a"])
    assert s.existing_ids(["a"]) == set()
    s.replace(row("b", "one", "redis eviction is allkeys-lru", vec(0, 1, 0), type="decision"))
    assert s.get_many(["b"])["b"].text == "redis eviction is allkeys-lru"
    assert s.count() == 3
    assert s.health()["fragments"] > 1 and s.health()["unindexed_rows"] > 0
    synced: list[bool] = []
    report = s.maintenance.maintain(MaintainPolicy(), force=True, durable=lambda: synced.append(True) or {"ok": True})
    assert synced == [True] and report["durable"] == {"ok": True}
    assert report["compacted"]["memories"]["fragments_added"] == 1
    assert report["after"]["fragments"] == 1 and report["after"]["unindexed_rows"] == 0
    assert report["after"]["versions"] == 1 and report["cleanup"]["versions_removed"] > 0
    assert s.index_state()["fts"]["unindexed_rows"] == 0
    assert [r.id for r, _ in s.text_search("postgres", Filter("one"), 10)] == ["d"]


def test_reopen_with_other_model_is_refused(tmp_path: Path) -> None:
    MemoryStore.open(tmp_path, "model-a", 3)
    with pytest.raises(StoreMismatch, match=r"model-a.*model-b"):
        MemoryStore.open(tmp_path, "model-b", 3)
    with pytest.raises(StoreMismatch, match="dim 3"):
        MemoryStore.open(tmp_path, "model-a", 4)
    meta = json.loads((tmp_path / "store.json").read_text())
    assert meta == {"format": 1, "embedding_model": "model-a", "embedding_dim": 3}


def test_cleanup_waits_for_reads_of_older_epochs() -> None:
    readers = Readers()
    old_inside, release_old = threading.Event(), threading.Event()
    new_inside, release_new = threading.Event(), threading.Event()

    def read(inside: threading.Event, release: threading.Event) -> None:
        with readers.reading():
            inside.set()
            release.wait(10)

    old = threading.Thread(target=read, args=(old_inside, release_old))
    old.start()
    old_inside.wait(10)
    assert readers.active == 1
    assert readers.wait_before(0.05) is False  # an older read is still running
    waited: list[bool] = []
    waiter = threading.Thread(target=lambda: waited.append(readers.wait_before(10)))
    waiter.start()
    time.sleep(0.05)
    # a read that starts after cleanup began waiting reads the newest version: not waited for
    new = threading.Thread(target=read, args=(new_inside, release_new))
    new.start()
    new_inside.wait(10)
    release_old.set()
    waiter.join(10)
    assert waited == [True] and readers.active == 1
    release_new.set()
    new.join(10)
    assert readers.active == 0


def test_a_long_read_makes_cleanup_skip_without_waiting() -> None:
    readers = Readers()
    epoch = readers.acquire(long=True)
    assert readers.wait_before(3600) is False  # at once: waiting would hit the test timeout
    readers.release(epoch, long=True)
    assert readers.wait_before(30) is True and readers.active == 0


def test_passes_under_load_fold_new_rows_as_deltas_and_merge_them_later(tmp_path: Path) -> None:
    s = MemoryStore.open(tmp_path, "m", 3)
    s.insert([row(f"a{i}", "one", f"postgres replica {i}", vec(1, i, 0)) for i in range(5)])
    s.maintenance.maintain(MaintainPolicy(), force=True)  # indexes created
    policy = MaintainPolicy(unindexed_rows=1, max_index_deltas=3)
    merged = []
    for r in range(4):
        s.insert([row(f"b{r}", "one", f"postgres failover drill {r}", vec(0, 1, r))])
        report = s.maintenance.maintain(policy, force=False)
        assert report["after"]["unindexed_rows"] == 0
        merged.append(report["indexed"]["deltas_merged"])
    assert merged[0] == 0 and max(merged) > 0  # cheap deltas first, merged once there are 3 pieces
    found = {r.id for r, _ in s.text_search("postgres failover drill", Filter("one"), 20)}
    assert {f"b{r}" for r in range(4)} <= found


def test_a_compaction_preempted_by_concurrent_deletes_loses_nothing(tmp_path: Path) -> None:
    """`reorganize` beside a thread that keeps deleting: a compaction that loses the commit
    race is reported ``preempted`` (no exception); the rows are exactly right either way, and a
    pass without concurrent writers then compacts."""
    import threading

    s = MemoryStore.open(tmp_path, "m", 4)
    rows = [row(f"r{i}", "n", f"text number {i}", vec(1, i % 5, 2, 3)) for i in range(400)]
    for k in range(0, 400, 4):  # 100 fragments
        s.insert(rows[k : k + 4])
    s.maintenance.maintain(MaintainPolicy(max_fragments=1000, unindexed_rows=10**9), force=False)  # indexes only
    deleted: list[str] = []
    stop = threading.Event()

    def deleter() -> None:
        i = 0
        while not stop.is_set() and i < 100:
            s.delete([f"r{4 * i}"])  # one row in each fragment, in turn
            deleted.append(f"r{4 * i}")
            i += 1

    t = threading.Thread(target=deleter)
    t.start()
    try:
        report = s.maintenance.reorganize(MaintainPolicy(target_rows_per_fragment=1000), force=True).report
    finally:
        stop.set()
        t.join()
    compacted = report["compacted"]["memories"]
    assert compacted.get("preempted") or compacted["fragments_removed"] > 0, report
    assert sorted(s.existing_ids([r.id for r in rows])) == sorted(r.id for r in rows if r.id not in deleted)
    report = s.maintenance.maintain(MaintainPolicy(target_rows_per_fragment=1000), force=True)
    assert "preempted" not in report and report["after"]["fragments"] == 1
    assert s.count() == 400 - len(deleted)


def test_times_convert_exactly_at_the_ends_of_the_calendar() -> None:
    from datetime import UTC, datetime

    from omegad.timeutil import from_micros, iso, to_micros

    for dt in (
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),  # once rounded into year 10000
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(2026, 11, 30, 12, 0, 0, 123457, tzinfo=UTC),
    ):
        assert from_micros(to_micros(dt)) == dt
    assert iso(to_micros(datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC))) == "9999-12-31T23:59:59.999999Z"


@pytest.mark.parametrize("ratio", [2.0, float("inf")])
def test_stale_cache_entries_are_dropped_pass_after_pass(tmp_path: Path, ratio: float) -> None:
    """Each pass replaces index segments (deltas merged, compaction's remap); the old ones'
    entries stay in LanceDB's caches until the bound — set for 1M memories — pushes them
    out. Once the caches hold more than `stale_cache_ratio` × the indexes on disk (plus
    `renew_cache_bytes`), a pass renews them. With the ratio infinite (the check off) the same
    passes leave the caches far above that, so the scenario does make stale entries."""
    rng = np.random.default_rng(3)
    words = [
        "postgres",
        "replica",
        "failover",
        "cache",
        "token",
        "schema",
        "queue",
        "deploy",
        "alert",
        "login",
        "build",
    ]

    def rows(prefix: str, n: int) -> list[Row]:
        vs = rng.standard_normal((n, 16)).astype(np.float32)
        return [
            row(
                f"{prefix}{i}",
                f"ns{i % 3}",
                " ".join(rng.choice(words, 8)) + f" {prefix}{i}",
                vs[i] / np.linalg.norm(vs[i]),
            )
            for i in range(n)
        ]

    s = MemoryStore.open(tmp_path, "m", 16)
    s.insert(rows("base", 3000))
    bound = 1 << 20
    policy = MaintainPolicy(
        unindexed_rows=1, max_fragments=2, max_index_deltas=2, renew_cache_bytes=bound, stale_cache_ratio=ratio
    )
    s.maintenance.maintain(policy, force=True)
    renewed = 0
    worst = 0.0
    for r in range(14):
        for k in range(4):  # four commits: fragments to compact
            s.insert(rows(f"r{r}k{k}-", 50))
        report = s.maintenance.maintain(policy, force=False)
        renewed += "cache_renewed" in report
        for ns in ("ns0", "ns1", "ns2"):  # queries load the new segments
            assert s.text_search("postgres failover", Filter(ns), 10)
            s.vector_search(rows("q", 1)[0].vector, Filter(ns), 10)
        assert set(s.get_many([f"r{r}k0-0", "base1"])) == {f"r{r}k0-0", "base1"}
        on_disk = sum(b for segs in s.index_segments().values() for b in segs.values())
        worst = max(worst, s.session.size_bytes / (2.0 * on_disk + bound))
    if ratio == 2.0:
        assert renewed >= 1
        assert worst < 1.5, worst  # at most one pass's new entries above the limit
    else:
        assert renewed == 0 and worst > 1.5, worst


def test_index_segments_merge_size_tiered() -> None:
    """Which of an index's newest segments a fold merges with the new rows."""
    from omegad.storage.lanceops import segments_to_merge as _segments_to_merge

    assert _segments_to_merge([1_000_000], 50, 8) == 0  # never the big base for a few rows
    assert _segments_to_merge([1_000_000, 80], 50, 8) == 1  # a small newest delta joins
    assert _segments_to_merge([1_000_000, 400, 80], 50, 8) == 1  # 400 > 2 x (50 + 80)
    assert _segments_to_merge([1_000_000, 200, 80], 50, 8) == 2
    assert _segments_to_merge([1_000_000, 30_000], 100, 8) == 0  # the big delta is left alone
    assert _segments_to_merge([1_000_000, 30_000, 100], 50, 8) == 1
    assert _segments_to_merge([1_000, 300, 100], 400, 8) == 3  # deltas half the base: all merge
    assert _segments_to_merge([1_000_000, 30_000, 9_000, 3_000, 900, 300, 90, 30], 5, 8) == 2  # the cap
    assert _segments_to_merge([10, 20], 0, 8) == 0  # nothing new, under the cap: nothing to do
    # rows indexed one pass at a time onto a base of 1M: each row is rewritten a few times in
    # all, the pieces stay under the cap, the base is never rewritten
    for per_pass in (1, 10, 100, 1_000):
        rows: list[int] = [1_000_000]
        rewritten = 0
        for _ in range(300_000 // per_pass):
            k = _segments_to_merge(rows, per_pass, 16)
            merged = sum(rows[len(rows) - k :]) if k else 0
            rewritten += merged
            rows = [*rows[: len(rows) - k], merged + per_pass]
            assert len(rows) <= 16
        assert rows[0] == 1_000_000
        assert rewritten / 300_000 < 12, (per_pass, rewritten / 300_000)


def test_health_beside_passes_that_clean_up_versions(tmp_path: Path) -> None:
    """`health` (in `stats`, `doctor`) runs while passes remove old versions: it counts the
    manifests on disk. (LanceDB's `list_versions` read every manifest and failed with "Not
    found" when cleanup removed one meanwhile; this loop hit it within ~30 calls.)"""
    s = MemoryStore.open(tmp_path, "m", 3)
    s.insert([row(f"a{i}", "one", f"text {i}", vec(1, i, 0)) for i in range(10)])
    errors: list[BaseException] = []
    passes = 0

    def churn() -> None:
        nonlocal passes
        try:
            for p in range(15):
                for k in range(5):
                    s.insert([row(f"p{p}-{k}", "one", f"more {p} {k}", vec(0, 1, p + k))])
                s.maintenance.maintain(MaintainPolicy(max_fragments=1, reader_wait_s=0.01), force=True)
                passes += 1
        except BaseException as exc:  # reported below
            errors.append(exc)

    t = threading.Thread(target=churn)
    t.start()
    calls = 0
    while t.is_alive():
        h = s.health()
        assert h["versions"] >= 1
        calls += 1
    t.join()
    assert not errors and passes == 15
    assert calls > 15  # the two really ran side by side
    # (a pass skips its cleanup while a read is in flight for longer than reader_wait_s,
    # which the loop above can make happen on a busy machine; without reads, one is left)
    s.maintenance.maintain(MaintainPolicy(max_fragments=1), force=True)
    assert s.health()["versions"] == 1


def _clustered(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:  # type: ignore[type-arg]
    centres = rng.standard_normal((20, dim)).astype(np.float32)
    v = centres[rng.integers(0, 20, n)] + 0.3 * rng.standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)  # type: ignore[no-any-return]


def _indexed_store(s: MemoryStore, n: int, dim: int) -> list[Row]:
    """*n* rows in one fragment plus 20 small ones, every index built (the vector index too)
    and covering them all."""
    rng = np.random.default_rng(5)
    vs = _clustered(rng, n + 100, dim)
    rows = [row(f"r{i:05d}", "main" if i % 4 else "side", f"note {i} about deploys", vs[i]) for i in range(n + 100)]
    s.insert(rows[:n])
    for k in range(20):
        s.insert(rows[n + 5 * k : n + 5 * k + 5])
    s.maintenance.maintain(MaintainPolicy(max_fragments=1000), force=False)  # scalar and text indexes
    s.maintenance.build_vector_index()
    s.refresh_index_state()
    s.maintenance.maintain(MaintainPolicy(max_fragments=1000), force=True)
    assert s.health()["unindexed_rows"] == 0 and s.health()["fragments"] == 1
    return rows


def _indexed_store_and_late_rows(s: MemoryStore) -> tuple[list[Row], list[Row]]:
    """`_indexed_store` (600 + 100 rows), then 40 rows in namespace ``side`` in 4 commits."""
    rows = _indexed_store(s, 600, 16)
    extra = [row(f"x{i}", "side", f"late note {i} about deploys", rows[i].vector) for i in range(40)]
    for k in range(4):
        s.insert(extra[10 * k : 10 * k + 10])
    return rows, extra


def _deletion_files(s: MemoryStore) -> int:
    return sum(f.metadata.deletion_file is not None for f in s.table.to_lance().get_fragments())


def _exact(s: MemoryStore, rows: list[Row], live: list[Row]) -> None:
    """Every index finds exactly the *live* rows: id lookups, vector search (each sampled row
    finds itself first), full text."""
    assert s.existing_ids([r.id for r in rows + live]) == {r.id for r in live}
    for r in live[::97]:
        hits = s.vector_search(r.vector, Filter(r.namespace), 3)
        assert hits[0][0].id == r.id, (r.id, [h.id for h, _ in hits])
    found = {h.id for h, _ in s.text_search("deploys", Filter("side"), 10_000)}
    assert found == {r.id for r in live if r.namespace == "side"}


def test_compaction_never_rewrites_a_big_index_segment(tmp_path: Path) -> None:
    """Compacting a fragment rewrites every index segment over it inside the commit, stores
    waiting (70 s for the 100k-row HNSW index when deleted rows were dropped). A compaction
    therefore leaves alone the fragments under a segment of more than `max_remap_rows` rows,
    deleted (dead) rows and all; the indexes stay exact. With the guard off, the same pass
    deletes the dead rows for good and rewrites the segments — so the scenario reaches them."""
    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 2000, 16)
    gone = [r.id for r in rows[:400]] + [r.id for r in rows[2000:2100:3]]  # 20% of the big fragment
    s.delete(gone[:200])
    s.delete(gone[200:])
    extra = [row(f"x{i}", "side", f"late note {i} about deploys", rows[i].vector) for i in range(40)]
    for k in range(4):
        s.insert(extra[10 * k : 10 * k + 10])
    s.maintenance.maintain(MaintainPolicy(max_fragments=1000, unindexed_rows=1), force=False)  # extra: a small delta
    live = [r for r in rows + extra if r.id not in set(gone)]
    before = s.index_segments()
    assert _deletion_files(s) == 0 and len(s.dead.rows) == len(gone)  # (tombstones: `delete`)
    policy = MaintainPolicy(max_fragments=1, max_remap_rows=1000, max_rebuild_rows=500)
    report = s.maintenance.maintain(policy, force=True)
    assert report["compacted"]["memories"]["fragments_kept"] == 1, report
    assert len(s.dead.rows) == len(gone) and s.count() == len(live)  # the big fragment was left alone...
    after = s.index_segments()
    for name, segs in before.items():
        big = max(segs, key=lambda u: segs[u])
        assert big in after[name]  # ...and its index segments were not rewritten
    _exact(s, rows + extra, live)
    more = [row(f"z{i}", "side", f"later note {i} about deploys", rows[i + 50].vector) for i in range(30)]
    s.insert(more)
    report = s.maintenance.maintain(policy, force=True)  # folded, deltas merged
    assert report["after"]["unindexed_rows"] == 0
    _exact(s, rows + extra + more, live + more)
    guard_off = MaintainPolicy(max_fragments=1, max_remap_rows=10**6, max_rebuild_rows=10**6)
    report = s.maintenance.maintain(guard_off, force=True)
    assert _deletion_files(s) == 0 and "fragments_kept" not in report["compacted"]["memories"]
    assert not s.dead.rows and s.table.count_rows() == len(live + more)  # gone for good
    assert not set(s.index_segments()["vector_idx"]) & set(after["vector_idx"])  # rewritten
    _exact(s, rows + extra + more, live + more)


def test_fragments_under_a_mid_size_segment_are_merged_but_keep_their_deleted_rows(tmp_path: Path) -> None:
    """Under a segment of `max_rebuild_rows` to `max_remap_rows` rows, small fragments are still
    merged (the rewrite is cheap: 175 ms for 16k rows), but a fragment that would lose its
    dead rows is left alone (the HNSW graph would be rebuilt: 3.4 s for 16k rows)."""
    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 600, 16)  # one segment: the 600-row fragment and 20 small ones
    extra = [row(f"x{i}", "side", f"late note {i} about deploys", rows[i].vector) for i in range(30)]
    for k in range(3):
        s.insert(extra[10 * k : 10 * k + 10])
    s.table.to_lance().optimize.optimize_indices(num_indices_to_merge=10)  # ...and these three too
    s.table.checkout_latest()
    assert s.health()["fragments"] == 4 and len(s.index_segments()["vector_idx"]) == 1
    gone = [r.id for r in rows[:120]]  # 20% of the 600-row fragment
    s.delete(gone)
    policy = MaintainPolicy(max_fragments=1, max_remap_rows=1000, max_rebuild_rows=500)
    report = s.maintenance.maintain(policy, force=True)
    assert report["compacted"]["memories"]["fragments_kept"] == 1, report
    assert s.health()["fragments"] == 2 and len(s.dead.rows) == len(gone)  # small ones merged, big one kept
    live = [r for r in rows + extra if r.id not in set(gone)]
    _exact(s, rows + extra, live)
    report = s.maintenance.maintain(
        MaintainPolicy(max_fragments=1, max_remap_rows=1000, max_rebuild_rows=1000), force=True
    )
    assert _deletion_files(s) == 0 and s.health()["fragments"] == 1 and not s.dead.rows
    assert s.table.count_rows() == len(live)
    _exact(s, rows + extra, live)


def test_renewing_the_caches_warns_of_nothing(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """The probe search that loads the new vector index before the swap asks for `_distance`
    (Lance warns, in the daemon's log, of a search that leaves it out: a soak counted it)."""
    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 300, 16)
    capfd.readouterr()
    s.maintenance.renew_cache()
    assert "WARN" not in capfd.readouterr().err
    assert s.vector_search(rows[7].vector, Filter(rows[7].namespace), 1)[0][0].id == rows[7].id


def _reads(s: MemoryStore, all_ids: list[str], live: dict[str, Row]) -> None:
    """Every read of the store sees exactly the *live* rows (id → its newest version)."""
    assert s.existing_ids(all_ids) == set(live)
    got = s.get_many(all_ids)
    assert {i: (r.text, r.updated_at) for i, r in got.items()} == {i: (r.text, r.updated_at) for i, r in live.items()}
    assert s.stamps(all_ids) == {i: r.updated_at for i, r in live.items()}
    assert s.count() == len(live)
    per_ns: dict[str, int] = {}
    for r in live.values():
        per_ns[r.namespace] = per_ns.get(r.namespace, 0) + 1
    assert {ns: sum(t.values()) for ns, t in s.counts().items()} == per_ns
    assert sorted(r.id for r in s.rows_in("side", 10_000)) == sorted(
        i for i, r in live.items() if r.namespace == "side"
    )
    assert s.max_updated_at() == max(r.updated_at for r in live.values())
    assert {i for i, _ in s.updated_after(0)} == set(live)
    assert {h.id for h, _ in s.text_search("deploys", Filter("side"), 10_000)} == {
        i for i, r in live.items() if r.namespace == "side" and "deploys" in r.text
    }
    version, dead = s.pin()
    handle = s.snapshot("memories", version)
    exported: list[Row] = []
    offset = 0
    while True:
        page, spanned = s.export_page(handle, dead, None, offset, 333)
        exported += page
        offset += spanned
        if spanned < 333:
            break
    assert sorted(r.id for r in exported) == sorted(live)
    for r in list(live.values())[::41]:
        (top, cos), *_ = s.vector_search(r.vector, Filter(r.namespace), 3)
        assert top.id == r.id and top.text == r.text and cos > 0.999
        many = s.vector_search_many([r.vector, r.vector], Filter(r.namespace), 3)
        assert [hits[0][0].text for hits in many] == [r.text, r.text]


@pytest.mark.parametrize("min_namespace_rows", [100, 10**6], ids=["through-the-indexes", "exact"])
def test_deletes_and_updates_under_the_vector_index_leave_dead_rows_every_read_drops(
    tmp_path: Path, min_namespace_rows: int
) -> None:
    """Once the vector index exists, a delete or an update leaves the old row in the table
    (a deleted row under the index makes every search through it build a mask over all its
    rows) and records it as dead; every read drops it — also after a reopen, after a crash
    between an update's two commits, and when dead rows crowd a search's nearest rows. Both
    search paths: through the indexes (the namespace of 75% filtered after ranking) and
    exact."""
    from omegad.storage.commits import delete_in
    from omegad.storage.tombstones import BURYING, RETIRING

    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 2000, 16)
    s.indexes.min_namespace_rows = min_namespace_rows
    s.refresh_namespace_rows()
    assert s.search.uses_vector_index("main") == (min_namespace_rows == 100)
    assert (s.search._postfilter_fetch(Filter("main"), 10) is not None) == (min_namespace_rows == 100)
    all_ids = [r.id for r in rows]
    live = {r.id: r for r in rows}
    s.delete([r.id for r in rows[:60]])
    for r in rows[:60]:
        del live[r.id]
    rng = np.random.default_rng(9)
    new_vs = _clustered(rng, 30, 16)
    for k, r in enumerate(rows[100:130]):
        new = Row(
            r.id,
            f"note {k} rewritten about deploys",
            r.type,
            [],
            r.namespace,
            {},
            r.created_at,
            5_000 + k,
            2,
            new_vs[k],
        )
        if k % 2:
            s.replace(new)
        else:
            s.upsert([new])
        live[r.id] = new
    s.delete(["no-such-id", rows[0].id])  # (unknown and already deleted: nothing)
    assert _deletion_files(s) == 0 and len(s.dead.rows) == 90
    _reads(s, all_ids, live)
    # an old version is not found by its old vector
    for r in rows[100:130:7]:
        assert all(h.text == live[h.id].text for h, _ in s.vector_search(r.vector, Filter(r.namespace), 5))
    # dead rows crowd the nearest rows of a query: still k live ones, those of an exact search
    q = rows[1500].vector
    near = sorted(live.values(), key=lambda r: -float(r.vector @ q))
    s.delete([r.id for r in near[:25] if r.namespace == "main"])
    for r in near[:25]:
        if r.namespace == "main":
            del live[r.id]
    exact = [r.id for r in sorted(live.values(), key=lambda r: -float(r.vector @ q)) if r.namespace == "main"][:10]
    assert [h.id for h, _ in s.vector_search(q, Filter("main"), 10)] == exact
    assert [h.id for h, _ in s.vector_search_many([q, q], Filter("main"), 10)[1]] == exact
    _reads(s, all_ids, live)
    # reopened: the same
    s2 = MemoryStore.open(tmp_path, "m", 16)
    s2.indexes.min_namespace_rows = min_namespace_rows
    s2.refresh_namespace_rows()
    assert s2.dead.rows == s.dead.rows
    _reads(s2, all_ids, live)
    # a crash between an update's new row and the retiring of its old one: both are there;
    # the next open keeps the newer
    r = live[rows[300].id]
    newer = Row(
        r.id, "note 300 after the crash about deploys", r.type, [], r.namespace, {}, r.created_at, 9_000, 3, r.vector
    )
    (tmp_path / "lance" / RETIRING).touch()
    s2.table.add(__import__("omegad.storage.store", fromlist=["_records"]).records([newer], 16))
    live[r.id] = newer
    s3 = MemoryStore.open(tmp_path, "m", 16)
    s3.indexes.min_namespace_rows = min_namespace_rows
    s3.refresh_namespace_rows()
    assert not (tmp_path / "lance" / RETIRING).exists()
    _reads(s3, all_ids, live)
    # a crash between deleting dead rows for good and dropping their tombstones
    (tmp_path / "lance" / BURYING).touch()
    some = list(s3.dead.rows)[:5]
    delete_in(s3.table, "_rowid", some)
    s4 = MemoryStore.open(tmp_path, "m", 16)
    s4.indexes.min_namespace_rows = min_namespace_rows
    s4.refresh_namespace_rows()
    assert not (tmp_path / "lance" / BURYING).exists() and len(s4.dead.rows) == len(s3.dead.rows) - 5
    _reads(s4, all_ids, live)


def test_a_delete_right_after_a_compaction_finds_the_rows_in_their_new_places(tmp_path: Path) -> None:
    """A compaction moves rows (it commits on a Lance dataset of its own): the store's handle
    moves to the new version before the writer's next commit, or a delete would record the
    row's old place as dead and leave the row itself live."""
    s = MemoryStore.open(tmp_path, "m", 16)
    rows, extra = _indexed_store_and_late_rows(s)
    assert s.maintenance.fold_new_rows(MaintainPolicy()) is not None  # the small fragments under a delta
    metrics, _, _ = s.maintenance._compact(s.table, 65_536, MaintainPolicy())  # (as a pass does, beside the writer)
    assert metrics is not None and metrics["fragments_removed"] >= 4
    s.delete(["x3", "x17"])
    s.replace(Row("x5", "x5 rewritten about deploys", "fact", [], "side", {}, 1000, 2000, 2, extra[5].vector))
    live = {r.id: r for r in rows + extra if r.id not in ("x3", "x17")}
    assert s.existing_ids(["x3", "x17", "x5"]) == {"x5"}
    assert s.get_many(["x5"])["x5"].text == "x5 rewritten about deploys"
    assert s.count() == len(live)
    s2 = MemoryStore.open(tmp_path, "m", 16)
    assert s2.existing_ids(["x3", "x17", "x5"]) == {"x5"} and s2.count() == len(live)
    assert [r.text for r in s2.rows_in("side", 10_000) if r.id == "x5"] == ["x5 rewritten about deploys"]


def test_a_compaction_whose_process_dies_after_committing_still_moves_the_handle(tmp_path: Path) -> None:
    """The maintenance process can die (killed, or its commit timed out) after Lance committed
    the compaction and before it answered: the call fails, but the handle must still move to
    the new version before the writer's next commit, or a delete records the rows' old places."""
    from omegad.storage.lanceops import LanceOpsFailed, LocalOps

    class DiesAfterCommitting(LocalOps):
        def compact_commit(self) -> dict[str, int]:
            super().compact_commit()
            raise LanceOpsFailed("compact_commit: the maintenance process exited (-9)")

    s = MemoryStore.open(tmp_path, "m", 16)
    rows, extra = _indexed_store_and_late_rows(s)
    assert s.maintenance.fold_new_rows(MaintainPolicy()) is not None
    s.ops = DiesAfterCommitting(tmp_path / "lance")
    with pytest.raises(LanceOpsFailed):
        s.maintenance._compact(s.table, 65_536, MaintainPolicy())
    assert s.health()["fragments"] < 5  # (it was committed)
    s.delete(["x3", "x17"])  # (the writer, right after: its lock was held until the handle moved)
    live = [r for r in rows + extra if r.id not in ("x3", "x17")]
    assert s.existing_ids(["x3", "x17", "x5"]) == {"x5"} and s.count() == len(live)
    s2 = MemoryStore.open(tmp_path, "m", 16)
    assert s2.existing_ids(["x3", "x17", "x5"]) == {"x5"} and s2.count() == len(live)


def test_a_compaction_gives_up_when_rows_of_its_fragments_die_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compaction rewrites beside the writer. A row that dies meanwhile in a fragment it
    rewrites is recorded by its place, which the rewrite would change: the compaction gives up
    (pre-empted; the next pass redoes it) and the row stays dead — before and after."""
    from lance.optimize import Compaction

    s = MemoryStore.open(tmp_path, "m", 16)
    rows, extra = _indexed_store_and_late_rows(s)
    assert s.maintenance.fold_new_rows(MaintainPolicy()) is not None
    real_plan = Compaction.plan

    def plan_then_delete(dataset, options):  # type: ignore[no-untyped-def]
        plan = real_plan(dataset, options)
        s.delete(["x12"])  # (the writer, between the plan and the commit)
        return plan

    monkeypatch.setattr(Compaction, "plan", staticmethod(plan_then_delete))
    with pytest.raises(OSError, match="preempted"):
        s.maintenance._compact(s.table, 65_536, MaintainPolicy())
    monkeypatch.setattr(Compaction, "plan", staticmethod(real_plan))
    live = [r for r in rows + extra if r.id != "x12"]
    assert "x12" not in s.existing_ids(["x12"]) and s.count() == len(live)
    report = s.maintenance.maintain(MaintainPolicy(max_fragments=1), force=True)
    assert report["compacted"]["memories"]["fragments_removed"] >= 4, report
    assert not s.dead.rows and s.table.count_rows() == len(live)  # gone for good with the rewrite
    _exact(s, rows + extra, live)


def test_a_bulk_load_is_compacted_whole_before_its_first_indexes(tmp_path: Path) -> None:
    """Indexes created over a bulk load's fragments would keep them as they are (compacting
    rewrites the index segments over them), so a table without any index is compacted whole
    first — beyond the rows a pass rewrites otherwise — and then indexed."""
    s = MemoryStore.open(tmp_path, "m", 16)
    rng = np.random.default_rng(3)
    vs = _clustered(rng, 3_000, 16)
    for k in range(10):
        s.insert([row(f"b{k}-{i}", "main", f"bulk note {k} {i}", vs[300 * k + i]) for i in range(300)])
    assert s.health()["fragments"] == 10 and not s.table.list_indices()
    report = s.maintenance.maintain(MaintainPolicy(max_fragments=1, max_compact_rows=1_000), force=True)
    assert report["compacted"]["memories"]["fragments_removed"] == 10, report
    assert report.get("fts_created") and s.health()["fragments"] == 1 and s.indexes.ready
    assert s.count() == 3_000 and s.text_search("bulk note 7", Filter("main"), 5)


def test_dead_rows_that_rank_first_in_full_text_are_passed_over_without_filtering_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Full-text ties come back in table order, and the oldest rows die first: dead rows can
    take every first place of the big namespace's search, which filters after ranking. It asks
    for more rows instead of filtering first (a prefilter that excludes dead rows is O(table)),
    and gives the prefilter's answer; when a compaction moves the rows between its ranking and
    its reading them, it filters first after all, with the same answer."""
    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 2000, 16)  # "note i about deploys": every row ties on "deploys"
    s.indexes.min_namespace_rows = 100
    s.refresh_namespace_rows()
    flt = Filter("main")
    k = 10
    assert s.search._postfilter_fetch(flt, k, indexed=True) is not None
    oldest = [r.id for r in rows if r.namespace == "main"][:100]
    s.delete(oldest)
    assert len(s.dead.rows) == 100
    calls: list[tuple[int, bool]] = []
    real_query = s.search._text_query

    def spy(text: str, f: Filter, n: int, prefilter: bool, **kw: object) -> object:
        calls.append((n, prefilter))
        return real_query(text, f, n, prefilter, **kw)  # type: ignore[arg-type]

    def best_live() -> list[float]:
        tbl = s.search._top_k_live(
            lambda n: real_query("deploys", flt, n, prefilter=True, dead=s.dead), k, "main", s.dead
        )
        return [round(x, 4) for x in tbl.column("_score").to_pylist()]

    monkeypatch.setattr(s.search, "_text_query", spy)
    got = s.text_search("deploys", flt, k)
    assert not any(pre for _, pre in calls), calls  # ranked first every time
    assert len(calls) >= 2 and calls[0][0] < calls[-1][0] <= 16 * k  # asked for more
    assert len(got) == k and not {r.id for r, _ in got} & set(oldest)
    assert all(r.namespace == "main" and r.text.endswith("about deploys") for r, _ in got)
    assert [round(x, 4) for _, x in got] == best_live()
    # a compaction between the ranking and the reading moved the rows (`_take` finds none of
    # them: the next test): it filters first after all
    monkeypatch.setattr(s.search, "_take", lambda ranked, score: None)
    calls.clear()
    got = s.text_search("deploys", flt, k)
    assert calls[-1][1] is True  # filtered first at the end
    assert len(got) == k and not {r.id for r, _ in got} & set(oldest)
    assert [round(x, 4) for _, x in got] == best_live()


def test_rows_are_read_by_their_addresses_until_a_compaction_moves_them(tmp_path: Path) -> None:
    """`_take` reads whole rows by the addresses a search ranked, in its order; after a
    compaction committed since, none is at its old address and it says so (None), and never
    returns another row."""
    import pyarrow as pa

    s = MemoryStore.open(tmp_path, "m", 16)
    rng = np.random.default_rng(2)
    vs = _clustered(rng, 300, 16)
    rows = [row(f"r{i:03d}", "main", f"note {i} about caches", vs[i]) for i in range(300)]
    for j in range(3):
        s.insert(rows[100 * j : 100 * j + 100])
    ranked = s.table.search().select(["id", "_rowid"]).limit(None).to_arrow()
    order = [250, 3, 120, 7]
    picked = pa.table(
        {"_rowid": ranked.column("_rowid").take(order), "_score": pa.array([4.0, 3.0, 2.0, 1.0], pa.float32())}
    )
    whole = s.search._take(picked, "_score")
    assert whole is not None
    assert whole.column("id").to_pylist() == [ranked.column("id")[i].as_py() for i in order]
    assert whole.column("_score").to_pylist() == [4.0, 3.0, 2.0, 1.0]
    assert whole.column("text").to_pylist()[0] == rows[int(ranked.column("id")[250].as_py()[1:])].text
    s.maintenance.maintain(MaintainPolicy(), force=True)  # the 3 fragments become 1
    assert s.health()["fragments"] == 1
    assert s.search._take(picked, "_score") is None
    assert s.search._take(picked.slice(0, 0), "_score") is None


def test_an_update_makes_its_new_row_durable_before_it_retires_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An update appends the new row, then records the old one dead in another table. Two
    tables' commits are separate files, which a power loss could keep one without the other:
    the tombstone without the new row would leave neither version (and the writer's log,
    written after, never saw the update). So everything the append wrote — data file,
    manifest, transaction, their directories, and the crash marker — is fsynced before the
    tombstone is written."""
    import omegad.storage.commits as commits_mod
    import omegad.storage.store as store_mod

    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 600, 16)
    table_dir = tmp_path / "lance" / "memories.lance"
    events: list[tuple[str, str]] = []
    real_file, real_dir = commits_mod.fsync_file, commits_mod.fsync_dir

    def sync_file(p: object) -> bool:
        events.append(("file", str(p)))
        return real_file(p)  # type: ignore[arg-type]

    def sync_dir(p: object) -> None:
        events.append(("dir", str(p)))
        real_dir(p)  # type: ignore[arg-type]

    monkeypatch.setattr(commits_mod, "fsync_file", sync_file)
    monkeypatch.setattr(commits_mod, "fsync_dir", sync_dir)
    monkeypatch.setattr(store_mod, "fsync_dir", sync_dir)
    real_add = s.tombstones.add
    written: list[str] = []

    def tombstone(data: object, *args: object, **kwargs: object) -> object:
        events.append(("tombstone", ""))
        for sub in ("data", "_versions", "_transactions"):  # what the append wrote
            written.extend(str(p) for p in (table_dir / sub).iterdir() if p.name not in listed[sub])
        return real_add(data, *args, **kwargs)

    monkeypatch.setattr(s.tombstones, "add", tombstone)
    old = rows[5]
    new = Row(old.id, "note 5 rewritten about deploys", old.type, [], old.namespace, {}, 1, 7_000, 2, old.vector)
    listed = {sub: {p.name for p in (table_dir / sub).iterdir()} for sub in ("data", "_versions", "_transactions")}
    s.upsert([new])
    cut = events.index(("tombstone", ""))
    synced = {p for kind, p in events[:cut] if kind == "file"}
    dirs = {p for kind, p in events[:cut] if kind == "dir"}
    assert {Path(p).parent.name for p in written} == {"data", "_versions", "_transactions"}
    assert set(written) <= synced, set(written) - synced
    (rid,) = s._live_rows_of([old.id])
    fragment = s.table.to_lance().get_fragment(rid >> 32)
    assert {str(table_dir / "data" / f.path) for f in fragment.data_files()} <= synced  # the new row's file
    assert {str(table_dir / sub) for sub in ("data", "_versions", "_transactions")} <= dirs
    assert str(tmp_path / "lance") in dirs  # (the marker)
    assert s.get_many([old.id])[old.id].text == new.text and len(s.dead.rows) == 1


def test_an_update_whose_fsync_fails_is_repaired_by_the_next_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fsync between an update's two commits can fail (EIO, a full disk): the new row is
    committed and the old one not retired. The update reports the error, and the next pass
    retires the older version (until then searches keep the newest per id)."""
    import omegad.storage.commits as commits_mod

    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 600, 16)
    old = rows[7]
    new = Row(old.id, "note 7 rewritten about deploys", old.type, [], old.namespace, {}, 1, 7_000, 2, old.vector)

    def broken(p: object) -> bool:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(commits_mod, "fsync_file", broken)
    with pytest.raises(OSError, match="Input/output"):
        s.upsert([new])
    monkeypatch.undo()
    assert s.repair_pending and len(s._live_rows_of([old.id])) == 2
    (top, _), *_ = s.vector_search(old.vector, Filter(old.namespace), 3)
    assert top.text == new.text
    s.maintenance.maintain(MaintainPolicy(max_fragments=1000), force=True)
    assert not s.repair_pending and len(s._live_rows_of([old.id])) == 1
    assert s.get_many([old.id])[old.id].text == new.text


def test_an_update_fsyncs_its_own_data_file_and_not_a_compactions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compaction in the maintenance process writes its new files into ``data/`` beside the
    writer, uncommitted. An update fsyncs the data file its append's transaction names, not
    every new file there (a compaction's output is up to hundreds of MB, under the write lock)."""
    import omegad.storage.commits as commits_mod

    s = MemoryStore.open(tmp_path, "m", 16)
    rows = _indexed_store(s, 600, 16)
    table_dir = tmp_path / "lance" / "memories.lance"
    synced: list[str] = []
    real_file = commits_mod.fsync_file

    def sync_file(p: object) -> bool:
        synced.append(str(p))
        return real_file(p)  # type: ignore[arg-type]

    monkeypatch.setattr(commits_mod, "fsync_file", sync_file)
    foreign = table_dir / "data" / "0110compaction-output-not-committed.lance"
    real_add = s.table.add

    def add(data: object, *args: object, **kwargs: object) -> object:
        foreign.write_bytes(b"x" * 1000)  # (written meanwhile by another process)
        return real_add(data, *args, **kwargs)

    monkeypatch.setattr(s.table, "add", add)
    old = rows[9]
    new = Row(old.id, "note 9 rewritten about deploys", old.type, [], old.namespace, {}, 1, 7_000, 2, old.vector)
    s.upsert([new])
    monkeypatch.undo()
    (rid,) = s._live_rows_of([old.id])
    own = {str(table_dir / "data" / f.path) for f in s.table.to_lance().get_fragment(rid >> 32).data_files()}
    assert own <= set(synced), (own, synced)
    assert str(foreign) not in synced
    assert s.get_many([old.id])[old.id].text == new.text


def test_dead_rows_added_one_by_one_keep_the_ranges_and_count_the_rest() -> None:
    """`DeadRows.with_rows` (every delete and update) no longer recomputes the ranges from every
    dead row: rows added are counted as not excluded against the ranges found, until 1,024 were
    added, then the ranges are found again. Either way each dead row is kept out by a range or
    counted in its namespace's `not_excluded` (what the searches rely on)."""
    import re

    from omegad.storage.tombstones import DeadRows

    def check(dead: DeadRows) -> None:
        ranges = [(int(a), int(b)) for a, b in re.findall(r"_rowid BETWEEN (\d+) AND (\d+)", dead.excluding)]
        outside: dict[str, int] = {}
        for r, (_, ns, _) in dead.rows.items():
            if not any(a <= r <= b for a, b in ranges):
                outside[ns] = outside.get(ns, 0) + 1
        for a, b in ranges:
            assert all(r in dead.rows for r in range(a, b + 1))
        for ns in {v[1] for v in dead.rows.values()}:
            assert dead.not_excluded(ns) == outside.get(ns, 0), (ns, dead.not_excluded(ns), outside)
        assert dead.per_namespace == {
            ns: sum(1 for v in dead.rows.values() if v[1] == ns) for ns in {v[1] for v in dead.rows.values()}
        }

    bulk = {(3 << 32) + i: (f"b{i}", "a", "fact") for i in range(5_000)}  # a bulk delete: one run
    dead = DeadRows.of(bulk)
    assert dead.excluding == f"NOT (_rowid BETWEEN {3 << 32} AND {(3 << 32) + 4_999})" and dead.not_excluded("a") == 0
    rng = np.random.default_rng(3)
    for step in range(1_100):
        rid = (5 << 32) + int(rng.integers(0, 1 << 20))
        dead = dead.with_rows({rid: (f"x{step}", "ab"[step % 2], "fact")})
        if step < 1_000:  # (derived: nothing recomputed from every row)
            assert dead.split is not None and "_split" not in dead.__dict__
        if step % 97 == 0:
            check(dead)
    assert dead.with_rows({next(iter(bulk)): ("b0", "a", "fact")}) is dead  # (already dead)
    # past the bound the ranges are found again, from every row: a new run shows up
    run = {(7 << 32) + i: (f"r{i}", "b", "fact") for i in range(1_100)}
    for r, v in run.items():
        dead = dead.with_rows({r: v})
    assert dead.split is None and f"_rowid BETWEEN {7 << 32} AND {(7 << 32) + 1_099}" in dead.excluding
    check(dead)
    check(dead.without_rows(list(bulk)[:10]))


def test_an_updates_data_file_is_named_by_its_transaction_even_beside_other_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`appended_files` reads the new transaction files, skipping another commit's temporary
    file (renamed meanwhile) and one removed before it is read (a commit that lost a race):
    without that, the update failed after its new row was committed."""
    import omegad.storage.commits as commits_mod

    d = tmp_path / "memories.lance"
    for sub in ("data", "_transactions"):
        (d / sub).mkdir(parents=True)
    before = commits_mod.commit_files(d)
    (d / "data" / "aaa.lance").write_bytes(b"x")
    (d / "data" / "bbb.lance").write_bytes(b"y")  # (a compaction's, uncommitted)
    (d / "_transactions" / "5-x.txn").write_bytes(b"\x12\x0faaa.lance\x18")
    (d / "_transactions" / ".tmp123").write_bytes(b"bbb.lance")
    (d / "_transactions" / "6-y.txn").write_bytes(b"bbb.lance")
    real = Path.read_bytes

    def read(self: Path) -> bytes:
        if self.name in ("6-y.txn", ".tmp123"):
            raise FileNotFoundError(str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read)
    assert commits_mod.appended_files(d, before) == {"aaa.lance"}


def test_the_store_defaults_are_the_configuration_defaults() -> None:
    """One place for each default: a store opened or maintained without settings behaves as
    the daemon with an empty configuration."""
    import inspect

    from omegad.config import Config
    from omegad.storage.indexes import AUTO_RABITQ_ROWS
    from omegad.storage.maintenance import MaintainPolicy

    policy = MaintainPolicy()
    assert (policy.target_rows_per_fragment, policy.max_fragments, policy.unindexed_rows, policy.vector_index_rows) == (
        Config.maintenance_target_rows_per_fragment,
        Config.maintenance_max_fragments,
        Config.maintenance_unindexed_rows,
        Config.vector_index_rows,
    )
    opened = inspect.signature(MemoryStore.open).parameters
    assert opened["vector_index"].default == Config.vector_index == "auto"
    assert opened["rabitq_from_rows"].default == AUTO_RABITQ_ROWS == Config.rabitq_from_rows
