"""The in-memory full-text index ranks as LanceDB's FTS index does (checked against the real
LanceDB), and stays right as the cache's rows change."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from omegad.recall.fulltext import Postings, bm25, idf, terms
from omegad.recall.neighbours import NeighbourCache
from omegad.storage.maintenance import Maintenance
from omegad.storage.rows import Filter, Row
from omegad.storage.store import MemoryStore

DIM = 8


def test_terms_follow_lances_default_tokenizer() -> None:
    # runs of letters and digits; the underscore and the dot split
    assert terms("foo_bar v1.2") == ["foo", "bar", "v1", "2"]
    # 40 bytes or more dropped, 39 kept; lower case; accents folded
    assert terms("x" * 39 + " " + "y" * 40) == ["x" * 39]
    assert terms("Café DÉJÀ") == ["cafe", "deja"]
    # stems first, then the stop words: "being" and "having" go (be, have), "does" stays (doe)
    assert terms("being having does because during the databases") == ["doe", "becaus", "dure", "databas"]
    assert terms("") == [] and terms("the and of") == []


def _row(mid: str, namespace: str, text: str, stamp: int) -> Row:
    rng = np.random.default_rng(stamp)
    return Row(
        id=mid,
        text=text,
        type="fact",
        tags=[],
        namespace=namespace,
        metadata={},
        created_at=stamp,
        updated_at=stamp,
        version=1,
        vector=rng.standard_normal(DIM).astype(np.float32),
    )


TEXTS = [
    "Terraform state lives in an S3 bucket with DynamoDB locking",
    "Run terraform force-unlock only after checking nobody holds the lock",
    "The staging database is restored from the nightly snapshot",
    "Postgres backups are taken every night and kept for thirty days",
    "Kafka topics are created by the platform team through Strimzi",
    "The checkout service retries payment webhooks three times",
    "Webhooks from Stripe are verified with the signing secret",
    "Prefer small pull requests; reviewers answer within a day",
    "The mobile app reads feature flags at startup",
    "Use pnpm, not npm, in the storefront repository",
    "Database migrations run before the new pods take traffic",
    "Secrets reach the pods through the external secrets operator",
]
QUESTIONS = [
    "where is terraform state stored and locked?",
    "how are database backups done",
    "stripe webhook verification",
    "which package manager for the storefront",
    "kafka topics",
    "nothing matches this zebra",
]


@pytest.fixture
def store(tmp_path: Path) -> MemoryStore:
    s = MemoryStore.open(tmp_path, "test-fulltext", DIM)
    rows = [_row(f"m{k:02d}", "a" if k % 3 else "b", t, 1 + k) for k, t in enumerate(TEXTS)]
    rows += [_row(f"x{k:02d}", "c", f"filler note {k} about terraform and kafka", 100 + k) for k in range(6)]
    s.insert(rows)
    Maintenance(s).create_missing_indexes()
    return s


def test_scores_and_order_match_lancedb(store: MemoryStore) -> None:
    cache = NeighbourCache(store, max_rows=1000)
    compared = 0
    for namespace in ("a", "b", "c"):
        for q in QUESTIONS:
            flt = Filter(namespace)
            theirs = store.text_search(q, flt, 10)
            ours = cache.text_search(namespace, q, 10, flt)
            assert ours is not None
            assert sorted(r.id for r, _ in ours) == sorted(r.id for r, _ in theirs), (namespace, q)
            for (ra, sa), (rb, sb) in zip(theirs, ours, strict=True):
                assert abs(sa - sb) < 1e-4, (namespace, q, ra.id, sa, rb.id, sb)
                assert rb.namespace == namespace and len(rb.vector) == DIM
            compared += len(ours)
    assert compared > 10  # (the questions do match rows)
    assert cache.stats().text_searches == 18


def test_changes_keep_the_index_equal_to_a_rebuild(store: MemoryStore) -> None:
    cache = NeighbourCache(store, max_rows=1000)
    assert cache.text_search("a", "terraform", 5) is not None
    cache.upserted([_row("m01", "a", "Terraform locks are released with force-unlock", 500)])
    cache.upserted([_row("new", "a", "A new memory about kafka and terraform", 501)])
    cache.upserted([_row("m02", "a", "stale older version", 0)])  # an older commit, reported late
    cache.deleted(["m04"])
    hits = cache.text_search("a", "terraform kafka", 10)
    assert hits is not None
    space = cache._spaces["a"]
    fresh = Postings()
    for slot, row in enumerate(space.rows):
        if row is not None:
            fresh.add(slot, row.text)
    assert space.text.postings == fresh.postings and space.text.lengths == fresh.lengths
    assert space.text.total_length == fresh.total_length
    ids = [r.id for r, _ in hits]
    assert "new" in ids and "m04" not in ids
    assert space.rows[space.slot["m02"]].text == TEXTS[2]  # type: ignore[union-attr]


def test_a_namespace_not_held_sends_the_search_to_the_store(store: MemoryStore) -> None:
    # BM25 counts over the whole table: with a budget that cannot hold every namespace, the
    # cache answers no full-text search
    small = NeighbourCache(store, max_rows=8)
    assert small.text_search("b", "terraform", 5) is None
    off = NeighbourCache(store, max_rows=1000, fulltext=False)
    assert off.text_search("a", "terraform", 5) is None
    assert small.stats().text_store_searches == 1


def test_dense_scores_are_the_scores_bit_for_bit_through_adds_and_removes() -> None:
    """`Postings.dense_scores` (arrays, what searches use) gives exactly the per-posting
    loop that states the formula (`bm25` summed term by term), also after rows come and go
    and a term's cached arrays are dropped."""
    import random

    rng = random.Random(11)
    words = [
        "lease",
        "broker",
        "queue",
        "retry",
        "index",
        "vector",
        "replay",
        "commit",
        "shard",
        "token",
        "cache",
        "deploy",
    ]
    p = Postings()
    texts: dict[int, str] = {}
    for step in range(600):
        slot = rng.randrange(300)
        if slot in texts and rng.random() < 0.4:
            p.remove(slot, texts.pop(slot))
        elif slot not in texts:
            texts[slot] = " ".join(rng.choice(words) for _ in range(rng.randint(1, 25)))
            p.add(slot, texts[slot])
        if step % 50 == 0:
            query = terms(" ".join(rng.sample(words, 4)) + " lease lease")
            df = {t: p.frequency(t) + rng.randint(0, 30) for t in query}  # table-wide: more than here
            docs, avg = len(texts) + 1000, p.total_length / max(1, len(texts)) + 0.5
            loop = _loop_scores(p, query, docs, avg, df)
            dense = p.dense_scores(query, docs, avg, df, 300)
            assert {int(j): float(dense[j]) for j in np.flatnonzero(dense)} == loop


def _loop_scores(p: Postings, query: list[str], docs: int, avg_length: float, df: dict[str, int]) -> dict[int, float]:
    """BM25 of each slot holding a query term, one posting at a time, in query order."""
    out: dict[int, float] = {}
    for term in query:
        weight = idf(docs, df[term])
        for slot, tf in p.postings.get(term, {}).items():
            out[slot] = out.get(slot, 0.0) + bm25(tf, p.lengths[slot], avg_length, weight)
    return out
