"""The search path against exact nearest neighbours, on a real LanceDB table: big namespaces go
through the vector index (each kind: the HNSW graph and RaBitQ), small ones are searched
exactly; recall ≥ 0.98 in every case, also for rows written after the index was built."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
import structlog.testing

from omegad.storage import indexes as index_module
from omegad.storage.maintenance import MaintainPolicy
from omegad.storage.rows import Filter, Row, scored_of
from omegad.storage.store import MemoryStore

DIM = 384
SIZES = {"big": 9_000, "mid": 2_500, "small": 450, "tiny": 40}
K = 45
KINDS = ["hnsw", "rabitq"]  # (index.vector_index)


def unit(v: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)


@pytest.mark.parametrize("kind", KINDS)
def test_recall_against_exact_search_in_every_namespace_size(tmp_path: Path, kind: str) -> None:
    rng = np.random.default_rng(7)
    centres = rng.standard_normal((300, DIM)).astype(np.float32)

    def sample(n: int) -> np.ndarray:  # type: ignore[type-arg]
        # clustered like text embeddings: many topics, memories near their topic
        return unit(centres[rng.integers(0, len(centres), n)] + 0.4 * rng.standard_normal((n, DIM)).astype(np.float32))

    store = MemoryStore.open(tmp_path, "synthetic", DIM, vector_index=kind)
    vectors: dict[str, list[tuple[str, np.ndarray]]] = {ns: [] for ns in SIZES}  # type: ignore[type-arg]
    rows = []
    for ns, n in SIZES.items():
        for i, v in enumerate(sample(n)):
            mid = f"{ns}-{i}"
            vectors[ns].append((mid, v))
            rows.append(Row(mid, f"memory {mid}", "fact", [], ns, {}, 1, 1, 1, v))
    # an island: another namespace's memories, far from everything else
    island = unit(rng.standard_normal(DIM).astype(np.float32))
    for i, v in enumerate(unit(island + 0.05 * rng.standard_normal((300, DIM)).astype(np.float32))):
        rows.append(Row(f"island-{i}", "island", "fact", [], "island", {}, 1, 1, 1, v))
    order = rng.permutation(len(rows))
    rows = [rows[i] for i in order]  # namespaces interleaved in the table
    for start in range(0, len(rows), 4_000):
        store.insert(rows[start : start + 4_000])
    store.maintenance.maintain(MaintainPolicy(), force=True)
    assert not store.indexes.vector
    built = store.maintenance.build_vector_index()
    assert built["rows"] == len(rows)
    # rows after the build: outside the index until folded, found all the same
    late = sample(200)
    store.insert([Row(f"late-{i}", "late", "fact", [], "big", {}, 1, 1, 1, v) for i, v in enumerate(late)])
    vectors["big"] += [(f"late-{i}", v) for i, v in enumerate(late)]
    store.maintenance.maintain(MaintainPolicy(unindexed_rows=10**9), force=False)  # picks the index up, no folding
    assert store.index_state()["vector_idx"]["type"] == index_module.VECTOR_INDEX_KINDS[kind][0]
    assert store.indexes.vector
    assert store.search.uses_vector_index("big") and store.search.uses_vector_index("mid")
    assert not store.search.uses_vector_index("small") and not store.search.uses_vector_index("tiny")

    for ns in SIZES:
        ids = [m for m, _ in vectors[ns]]
        matrix = np.stack([v for _, v in vectors[ns]])
        recalls = []
        for q in unit(matrix[rng.integers(0, len(ids), 20)] + 0.3 * rng.standard_normal((20, DIM)).astype(np.float32)):
            exact = {ids[j] for j in np.argsort(-(matrix @ q))[:K]}
            got = [r.id for r, _ in store.vector_search(q, Filter(ns), K)]
            assert len(got) == min(K, len(ids)) and all(g.startswith(ns) or g.startswith("late") for g in got)
            recalls.append(len(exact & set(got)) / len(exact))
        assert np.mean(recalls) >= 0.98, (ns, np.mean(recalls), min(recalls))
    # the contradiction checker's search (*near*: a narrower graph search) for memories of
    # the namespace, in batches: their 10 nearest other memories, found as by the full search
    for ns in ("big", "mid"):
        ids = [m for m, _ in vectors[ns]]
        matrix = np.stack([v for _, v in vectors[ns]])
        picks = rng.choice(len(ids), 32, replace=False)
        found = hits = 0
        for batch in (picks[:16], picks[16:]):
            got = store.vector_search_many([matrix[i] for i in batch], Filter(ns), 11, near=True)
            for i, nearest in zip(batch, got, strict=True):
                exact = {ids[j] for j in np.argsort(-(matrix @ matrix[i]))[:11]} - {ids[i]}
                hits += len(exact & {r.id for r, _ in nearest})
                found += len(exact)
        assert hits / found >= 0.98, (ns, hits / found)
    # the big namespace (~72% of the table) is filtered after the graph search, the others before
    assert store.search._postfilter_fetch(Filter("big"), K) is not None
    assert store.search._postfilter_fetch(Filter("mid"), K) is None
    assert store.search._postfilter_fetch(Filter("big", types=("fact",)), K) is None
    # near the island every row the graph search fetches is filtered out: the search falls
    # back to a prefilter and still returns the big namespace's nearest rows
    fetch = store.search._postfilter_fetch(Filter("big"), K)
    assert store.search._vector_query(island, Filter("big"), K, fetch).to_arrow().num_rows < K
    ids = [m for m, _ in vectors["big"]]
    matrix = np.stack([v for _, v in vectors["big"]])
    normal = matrix[5]
    single = [r.id for r, _ in store.vector_search(island, Filter("big"), K)]
    many = [[r.id for r, _ in hits] for hits in store.vector_search_many([island, normal], Filter("big"), K)]
    for q, got in ((island, single), (island, many[0]), (normal, many[1])):
        exact = {ids[j] for j in np.argsort(-(matrix @ q))[:K]}
        assert len(got) == K and len(exact & set(got)) / K >= 0.98
    # a late row is found by its own vector, through the index path
    (top, cos), *_ = store.vector_search(late[3], Filter("big"), 5)
    assert top.id == "late-3" and cos > 0.999
    # a pass that merges index segments away renews the caches (the old segments are not
    # kept next to the new ones); queries go on with the same answers
    store.insert([Row(f"later-{i}", "later", "fact", [], "big", {}, 1, 1, 1, v) for i, v in enumerate(sample(50))])
    report = store.maintenance.maintain(MaintainPolicy(unindexed_rows=1), force=False)  # a delta, kept
    assert "cache_renewed" not in report
    before = store.index_segments()["vector_idx"]
    assert len(before) == 2, before  # the base and the delta of the new rows
    old_session = store.session
    store.insert([Row(f"more-{i}", "more", "fact", [], "big", {}, 1, 1, 1, v) for i, v in enumerate(sample(10))])
    merge = MaintainPolicy(max_index_deltas=1, unindexed_rows=1, renew_cache_bytes=1)
    report = store.maintenance.maintain(merge, force=False)
    assert set(before) - set(store.index_segments()["vector_idx"]), report  # the delta merged away
    assert "vector_idx" in report["cache_renewed"]["indexes"] and store.session is not old_session
    assert store.session.size_bytes > 0  # the new index was loaded by the probe
    (top, cos), *_ = store.vector_search(late[3], Filter("big"), 5)
    assert top.id == "late-3" and cos > 0.999
    report = store.maintenance.maintain(MaintainPolicy(renew_cache_bytes=1), force=False)  # nothing merged away
    assert "cache_renewed" not in report
    # a replaced segment smaller than the bound leaves the caches as they are
    store.insert([Row(f"last-{i}", "last", "fact", [], "big", {}, 1, 1, 1, v) for i, v in enumerate(sample(20))])
    report = store.maintenance.maintain(MaintainPolicy(max_index_deltas=1, unindexed_rows=1), force=False)
    assert report["indexed"]["deltas_merged"] >= 1 and "cache_renewed" not in report


@pytest.mark.parametrize("kind", KINDS)
def test_queries_between_clusters_find_their_nearest_rows(tmp_path: Path, kind: str) -> None:
    """A query far from every memory (a question is not a stored text: cosine ~0.5 to its
    nearest) must not get lost in the graph. With LanceDB's default search breadth (1.5 × the
    rows asked for) recall in a 20k table of 1,000 clusters was 0.96–0.97 at this distance, and
    at 1M whole queries found none of their 30 nearest rows; `HNSW_EF` keeps it ≥ 0.98, in
    the namespace filtered after the graph search and in one filtered before."""

    rng = np.random.default_rng(1)
    n = 20_000
    centres = rng.standard_normal((1_000, DIM)).astype(np.float32)
    vs = unit(centres[rng.integers(0, len(centres), n)] + 0.4 * rng.standard_normal((n, DIM)).astype(np.float32))
    store = MemoryStore.open(tmp_path, "synthetic", DIM, vector_index=kind)
    namespaces = ["big" if i % 10 else "mid" for i in range(n)]
    store.insert([Row(f"m{i}", f"memory {i}", "fact", [], namespaces[i], {}, 1, 1, 1, v) for i, v in enumerate(vs)])
    store.maintenance.maintain(MaintainPolicy(), force=True)
    store.maintenance.build_vector_index()
    store.maintenance.maintain(MaintainPolicy(), force=True)
    store.refresh_namespace_rows()
    assert store.search.uses_vector_index("mid") and store.search._postfilter_fetch(Filter("big"), 30) is not None
    assert store.search._postfilter_fetch(Filter("mid"), 30) is None
    for ns in ("big", "mid"):
        mask = np.array([x == ns for x in namespaces])
        ids = np.array([f"m{i}" for i in range(n)])[mask]
        matrix = vs[mask]
        queries = unit(
            matrix[rng.integers(0, len(ids), 150)] + 0.08 * rng.standard_normal((150, DIM)).astype(np.float32)
        )
        recalls = []
        for q in queries:
            exact = set(ids[np.argpartition(-(matrix @ q), 30)[:30]])
            recalls.append(len(exact & {r.id for r, _ in store.vector_search(q, Filter(ns), 30)}) / 30)
        assert np.mean(recalls) >= 0.98, (ns, np.mean(recalls), min(recalls))


@pytest.mark.parametrize("kind", KINDS)
def test_the_index_is_built_in_a_subprocess_while_commits_go_on(tmp_path: Path, kind: str) -> None:
    """`omegad.storage.indexer` builds the index in a process of its own: commits go on meanwhile (in a
    thread of the daemon they waited for the whole build), and its own commit, made while they
    are held off, lands even under a stream of appends that made Lance's own retries give up
    ("too many concurrent writers" after 30 s at ~55 commits/s). Nothing is lost, and the store
    picks the index up."""
    import threading
    import time
    from collections.abc import AsyncIterator
    from contextlib import asynccontextmanager

    import anyio

    from omegad.storage.indexer import IndexBuildFailed, build_in_subprocess

    rng = np.random.default_rng(3)
    store = MemoryStore.open(tmp_path, "synthetic", DIM, vector_index=kind)
    n = 6_000
    vectors = unit(rng.standard_normal((n, DIM)).astype(np.float32))
    for start in range(0, n, 2_000):
        store.insert(
            [
                Row(f"m{i}", f"memory {i}", "fact", [], "ns", {}, 1, 1, 1, vectors[i])
                for i in range(start, start + 2_000)
            ]
        )
    done = threading.Event()
    during: list[str] = []
    held: list[int] = []

    def commit_meanwhile() -> None:
        while not done.is_set():
            mid = f"late{len(during)}"
            store.insert([Row(mid, "late", "fact", [], "ns", {}, 1, 1, 1, vectors[len(during) % n])])
            during.append(mid)
            time.sleep(0.01)  # a busy daemon's group commits (each commit is one Lance version)

    @asynccontextmanager
    async def hold_commits() -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(store.commit_lock.acquire)
        held.append(len(during))
        try:
            yield
        finally:
            store.commit_lock.release()

    async def build() -> dict:  # type: ignore[type-arg]
        try:
            return await build_in_subprocess(store.directory, hold_commits, kind=kind)
        finally:
            done.set()

    writer = threading.Thread(target=commit_meanwhile)
    writer.start()
    info = anyio.run(build)
    writer.join()
    assert info["rows"] >= n and info["commit_ms"] >= 0 and info["build_ms"] > 0, info
    assert held and held[0] >= 5, (held, len(during))  # commits acknowledged while the build ran
    store.maintenance.maintain(MaintainPolicy(unindexed_rows=10**9), force=False)
    assert store.indexes.vector
    assert store.count() == n + len(during)
    assert set(store.get_many(during)) == set(during)
    stats = {i.name: store.table.index_stats(i.name) for i in store.table.list_indices()}
    assert stats["vector_idx"].num_indexed_rows == info["rows"], stats
    assert stats["vector_idx"].index_type == index_module.VECTOR_INDEX_KINDS[kind][0]
    assert not store.indexes.vector_outdated
    with pytest.raises(IndexBuildFailed, match="exit 1"):
        anyio.run(build_in_subprocess, tmp_path / "no-such-store")


@pytest.mark.parametrize("kind", KINDS)
def test_new_rows_are_folded_into_every_index_between_passes(tmp_path: Path, kind: str) -> None:
    """`fold_new_rows` indexes the rows the indexes leave out (searches are slower while
    there are any), as deltas merged size-tiered: the pieces stay bounded, nothing else is
    done (no compaction), and every row stays findable through the vector and text indexes."""
    rng = np.random.default_rng(11)
    store = MemoryStore.open(tmp_path, "synthetic", DIM, vector_index=kind)
    vectors = unit(rng.standard_normal((3_000, DIM)).astype(np.float32))
    store.insert([Row(f"m{i}", f"memory {i}", "fact", [], "ns", {}, 1, 1, 1, v) for i, v in enumerate(vectors)])
    policy = MaintainPolicy(max_index_deltas=4)
    assert store.maintenance.fold_new_rows(policy) is None  # no vector index yet
    store.maintenance.maintain(policy, force=True)
    store.maintenance.build_vector_index()
    store.maintenance.maintain(policy, force=False)
    assert store.indexes.vector and store.maintenance.fold_new_rows(policy) is None  # it covers every row
    late: list[tuple[str, np.ndarray]] = []  # type: ignore[type-arg]
    for batch in range(12):
        new = unit(rng.standard_normal((5 + 20 * batch, DIM)).astype(np.float32))
        rows = [Row(f"late-{batch}-{i}", "late", "fact", [], "ns", {}, 1, 1, 1, v) for i, v in enumerate(new)]
        store.insert(rows)
        late += [(r.id, r.vector) for r in rows]
        assert store.index_state()["vector_idx"]["unindexed_rows"] == len(rows)
        report = store.maintenance.fold_new_rows(policy)
        assert report is not None and report["rows"] == len(rows), report
        assert set(report["indexes"]) == {"vector_idx", "text_idx", "id_idx", "namespace_idx"}, report
        state = store.index_state()
        assert all(st["unindexed_rows"] == 0 for st in state.values() if isinstance(st, dict)), state
        assert all(len(segs) <= policy.max_index_deltas for segs in store.index_segments().values())
        assert store.health()["fragments"] == 2 + batch  # (folded, not compacted)
    assert store.index_segments()["vector_idx"]  # still the index: found through it
    for mid, v in late[:: max(1, len(late) // 25)]:
        (top, cos), *_ = store.vector_search(v, Filter("ns"), 5)
        assert top.id == mid and cos > 0.999
    texts = store.text_search("late", Filter("ns"), len(late) + 10)
    assert {r.id for r, _ in texts} == {mid for mid, _ in late}


def test_full_text_search_in_a_big_namespace_filters_after_ranking(tmp_path: Path) -> None:
    """In a namespace that holds most of the table, BM25 ranks first and the namespace is
    filtered after (a prefilter lists the whole namespace's row ids per search); the answers
    are those of the prefilter, also when the filter leaves too few and it falls back."""
    rng = np.random.default_rng(5)
    store = MemoryStore.open(tmp_path, "synthetic", DIM)
    topics = ["deploy", "cache", "queue", "retry", "token", "index", "build", "latency"]
    rows = []
    for i in range(4_000):
        ns = "big" if i % 5 else "other"
        words = " ".join(rng.choice(topics, 3))
        rows.append(Row(f"m{i}", f"note {i}: {words}", "fact", [], ns, {}, 1, 1, 1, np.zeros(DIM, np.float32)))
    # a word almost only in the other namespace: ranking first finds too few big rows
    rows += [
        Row(f"o{i}", "zephyr zephyr runbook", "fact", [], "other", {}, 1, 1, 1, np.zeros(DIM, np.float32))
        for i in range(300)
    ]
    rows += [Row(f"b{i}", "zephyr in big", "fact", [], "big", {}, 1, 1, 1, np.zeros(DIM, np.float32)) for i in range(3)]
    store.insert(rows)
    store.maintenance.maintain(MaintainPolicy(), force=True)
    store.refresh_namespace_rows()
    assert store.indexes.ready
    assert store.search._postfilter_fetch(Filter("big"), 15, indexed=True) is not None
    for k in (5, 15, 45):
        for query in ("deploy cache", "retry token build", "latency", "queue index deploy retry"):
            pre = scored_of(store.search._text_query(query, Filter("big"), k, prefilter=True), DIM)
            got = store.text_search(query, Filter("big"), k)
            assert len(got) == k and all(r.namespace == "big" for r, _ in got)
            assert [round(s, 4) for _, s in got] == [round(s, 4) for _, s in pre]  # (ties may swap ids)
    fetch = store.search._postfilter_fetch(Filter("big"), 15, indexed=True)
    assert fetch is not None
    assert (
        store.search._text_query("zephyr", Filter("big"), fetch, prefilter=False).num_rows < 3
    )  # the 300 others rank first
    assert sorted(r.id for r, _ in store.text_search("zephyr", Filter("big"), 15)) == ["b0", "b1", "b2"]
    hidden = Filter("big", exclude_ids=("b1",))
    assert sorted(r.id for r, _ in store.text_search("zephyr", hidden, 15)) == ["b0", "b2"]


def test_the_index_cache_bound_grows_with_the_indexes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the automatic bound (`store.index_cache_mb` = 0), a pass that finds the indexes
    needing more than the bound renews the caches with a bigger one, so the vector index
    stays cached: an index the cache cannot hold is read from disk by every search. (The floor
    and margin are lowered so that 12,000 rows outgrow the bound.)"""
    monkeypatch.setattr(index_module, "AUTO_CACHE_FLOOR_MB", 1)
    monkeypatch.setattr(index_module, "CACHE_MARGIN_MB", 0)
    rng = np.random.default_rng(5)
    store = MemoryStore.open(tmp_path, "synthetic", DIM)
    assert store.cache_auto and store.cache_mb[0] == 1  # (no index yet)
    vectors = unit(rng.standard_normal((12_000, DIM)).astype(np.float32))
    store.insert([Row(f"m{i}", f"memory {i}", "fact", [], "ns", {}, 1, 1, 1, v) for i, v in enumerate(vectors)])
    policy = MaintainPolicy()
    store.maintenance.maintain(policy, force=True)
    store.maintenance.build_vector_index()
    report = store.maintenance.maintain(policy, force=False)
    on_disk = sum(store.index_segments()["vector_idx"].values())
    assert on_disk > 2 << 20  # (more than the bound it had)
    need = index_module.index_cache_need_mb(store.index_segments())
    assert store.index_cache_need_mb == need
    renewed = report["cache_renewed"]
    assert renewed["index_cache_mb"] == store.cache_mb[0] == index_module.auto_index_cache_mb(need) > need
    assert any("index cache bound 1 MB" in why for why in renewed["indexes"]), renewed
    (top, cos), *_ = store.vector_search(vectors[7], Filter("ns"), 5)
    assert top.id == "m7" and cos > 0.999
    assert (store.cache_bytes() or 0) >= on_disk  # the index is held, not read again per search
    # raised again with the old caches dropped first: reads wait at the gate until the load
    renewed = store.maintenance.renew_cache(store.cache_mb[0] + 16, drop_first=True)
    assert renewed["loaded"] == "after the swap" and store.cache_mb[0] == renewed["index_cache_mb"]
    assert (store.cache_bytes() or 0) >= on_disk  # (loaded by the renewal's probe)
    done = threading.Event()

    def read() -> None:
        store.vector_search(vectors[9], Filter("ns"), 5)
        done.set()

    with store.loading:  # as `renew_cache` holds it while it loads
        reader = threading.Thread(target=read)
        reader.start()
        assert not done.wait(0.5)  # held at the gate
    reader.join(timeout=60)
    assert done.is_set()
    # reopened: the bound follows the indexes on disk at once
    store = MemoryStore.open(tmp_path, "synthetic", DIM)
    assert store.cache_mb[0] == index_module.auto_index_cache_mb(need) and store.index_cache_need_mb == need
    # a fixed bound stays as configured, whatever the indexes need
    with structlog.testing.capture_logs() as logs:
        fixed = MemoryStore.open(tmp_path, "synthetic", DIM, index_cache_mb=1)
    assert not fixed.cache_auto and fixed.cache_mb[0] == 1
    (warning,) = [e for e in logs if e["event"] == "index_cache_too_small"]
    assert warning["index_cache_mb"] == 1 and warning["need_mb"] == need
    fixed.maintenance.maintain(policy, force=True)
    assert fixed.cache_mb[0] == 1


def test_a_rabitq_index_is_due_for_a_rebuild_once_the_table_has_grown(tmp_path: Path) -> None:
    """RaBitQ's folds put new rows into the partitions of the build, so an index built small
    keeps its few partitions: a pass reports it due (`vector_index_grown`) once the table has
    four times the rows its partitions were made for, and not after the rebuild. The graph is
    never due (one partition at any size)."""
    rows_per = index_module.VECTOR_INDEX_PARTITION_ROWS
    grown = index_module.VECTOR_INDEX_REBUILD_GROWTH * rows_per
    assert not index_module.vector_index_grown("rabitq", 1, grown - 1)
    assert index_module.vector_index_grown("rabitq", 1, grown)
    assert not index_module.vector_index_grown("rabitq", None, grown)
    assert not index_module.vector_index_grown("hnsw", 1, 100 * grown)
    assert index_module.vector_index_grown("rabitq", 16, 10**9)  # (to the most partitions, 64)
    assert not index_module.vector_index_grown("rabitq", 17, 10**9)  # (64 < 4 × 17: never again)

    rng = np.random.default_rng(5)
    store = MemoryStore.open(tmp_path, "synthetic", DIM, vector_index="rabitq")
    vectors = unit(rng.standard_normal((grown, DIM)).astype(np.float32))

    def add(start: int, end: int) -> None:
        for s in range(start, end, 16_384):
            e = min(end, s + 16_384)
            store.insert([Row(f"m{i}", f"memory {i}", "fact", [], "ns", {}, 1, 1, 1, vectors[i]) for i in range(s, e)])

    policy = MaintainPolicy(unindexed_rows=10**9)
    add(0, rows_per + 100)
    store.maintenance.maintain(policy, force=True)
    store.maintenance.build_vector_index()
    report = store.maintenance.maintain(policy, force=True)
    assert "vector_index_partitions" not in report  # (too few rows to be due at all)
    add(rows_per + 100, grown)
    report = store.maintenance.maintain(policy, force=True)
    assert report["vector_index_partitions"] == 1 and report.get("vector_index_grown") is True, report
    store.maintenance.build_vector_index()
    report = store.maintenance.maintain(policy, force=True)
    assert report["vector_index_partitions"] == grown // rows_per and "vector_index_grown" not in report, report
    (top, cos), *_ = store.vector_search(vectors[grown - 7], Filter("ns"), 3)
    assert top.id == f"m{grown - 7}" and cos > 0.999


def test_auto_asks_for_the_graph_while_small_and_rabitq_from_then_on(tmp_path: Path) -> None:
    """``index.vector_index = "auto"``: the graph below ``rabitq_from_rows`` rows, RaBitQ at it,
    and RaBitQ kept once built (rows may fall back under the bound: no rebuild back)."""
    kind_for = index_module.vector_index_kind_for
    assert kind_for("auto", 999, None, 1_000) == "hnsw" and kind_for("auto", 1_000, None, 1_000) == "rabitq"
    assert kind_for("auto", 5_000, "hnsw", 1_000) == "rabitq" and kind_for("auto", 10, "rabitq", 1_000) == "rabitq"
    assert kind_for("hnsw", 5_000, "rabitq", 1_000) == "hnsw" and kind_for("rabitq", 10, None, 1_000) == "rabitq"
    with pytest.raises(ValueError):
        MemoryStore.open(tmp_path / "bad", "synthetic", DIM, vector_index="ivf")
    rng = np.random.default_rng(3)
    store = MemoryStore.open(tmp_path, "synthetic", DIM, vector_index="auto", rabitq_from_rows=3_000)
    vectors = unit(rng.standard_normal((3_100, DIM)).astype(np.float32))
    rows = [Row(f"m{i}", f"memory {i}", "fact", [], "n", {}, 1, 1, 1, v) for i, v in enumerate(vectors)]
    store.insert(rows[:2_500])
    store.maintenance.maintain(MaintainPolicy(), force=True)
    assert store.indexes.vector_kind == "hnsw" and store.indexes.vector_built is None
    store.maintenance.build_vector_index()
    store.maintenance.maintain(MaintainPolicy(), force=True)
    assert store.indexes.vector_built == "hnsw" and not store.indexes.vector_outdated
    store.insert(rows[2_500:])
    store.maintenance.maintain(MaintainPolicy(), force=True)
    assert store.indexes.vector_kind == "rabitq" and store.indexes.vector_outdated  # (the graph answers meanwhile)
    (top, _), *_ = store.vector_search(vectors[7], Filter("n"), 3)
    assert top.id == "m7"
    store.maintenance.build_vector_index()
    store.maintenance.maintain(MaintainPolicy(), force=True)
    assert store.index_state()["vector_idx"]["type"] == "IVF_RQ"
    assert store.indexes.vector_built == "rabitq" and not store.indexes.vector_outdated
    store.delete([f"m{i}" for i in range(2_000)])
    store.maintenance.maintain(MaintainPolicy(), force=True)
    assert store.indexes.vector_kind == "rabitq" and not store.indexes.vector_outdated
    (top, _), *_ = store.vector_search(vectors[2_707], Filter("n"), 3)
    assert top.id == "m2707"
