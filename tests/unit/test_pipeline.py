from __future__ import annotations

import numpy as np
import pytest

from omegad.config import Config
from omegad.recall.pipeline import Candidate, dedup, fuse, heuristic, recall_size, supersede
from omegad.storage.rows import Row

DAY_US = 86_400_000_000
NOW = 1_800_000_000_000_000


def row(mid: str, text: str = "t", type: str = "fact", age_days: float = 0.0, vec: list[float] | None = None) -> Row:
    v = np.asarray(vec or [1.0, 0.0, 0.0], dtype=np.float32)
    return Row(mid, text, type, [], "ns", {}, int(NOW - age_days * DAY_US), NOW, 1, v / np.linalg.norm(v))


def test_recall_size() -> None:
    assert recall_size(1) == 15 and recall_size(5) == 15 and recall_size(10) == 30 and recall_size(100) == 300


def test_linear_fusion_keeps_strong_single_list_matches() -> None:
    cfg = Config()
    vec = [(row("a"), 0.30), (row("b"), 0.25)]
    fts = [(row("c"), 40.0), (row("a"), 2.0)]
    cands = {c.row.id: c for c in fuse(vec, fts, cfg)}
    assert cands["a"].fused == pytest.approx((3 * 0.30 + 2.0 / 17.0) / 4)
    assert cands["c"].fused == pytest.approx((40.0 / 55.0) / 4)
    assert cands["b"].fused == pytest.approx(3 * 0.25 / 4)
    assert cands["c"].vector_rank is None and cands["c"].fts_rank == 1


def test_rrf_fusion() -> None:
    cfg = Config().with_overrides(fusion="rrf", rrf_k=5.0, vector_weight=1.0, fts_weight=1.0)
    cands = {c.row.id: c for c in fuse([(row("a"), 0.9), (row("b"), 0.8)], [(row("a"), 3.0)], cfg)}
    assert cands["a"].fused == pytest.approx(1.0)
    assert cands["b"].fused == pytest.approx((1 / 7) / (2 / 6))


def test_fusion_is_absolute_not_batch_relative() -> None:
    """A lone weak candidate must not score as if it were a perfect match."""
    cfg = Config()
    (lone,) = fuse([(row("a"), 0.1)], [], cfg)
    assert lone.fused == pytest.approx(0.075)


def test_heuristic_type_weight_and_decay() -> None:
    cfg = Config()
    cands = fuse(
        [
            (row("new", age_days=0), 0.5),
            (row("old", age_days=360), 0.5),
            (row("dec", type="decision", age_days=360), 0.5),
        ],
        [],
        cfg,
    )
    out = {c.row.id: c for c in heuristic(cands, cfg, NOW)}
    assert out["new"].recency == pytest.approx(1.0)
    assert out["old"].recency == pytest.approx(0.7 + 0.3 * 0.5 ** (360 / 180))
    assert out["dec"].recency == pytest.approx(0.7 + 0.3 * 0.5 ** (360 / 365))
    assert out["dec"].type_weight == pytest.approx(1.10)
    ranked = [c.row.id for c in heuristic(list(out.values()), cfg, NOW)]
    assert ranked == ["new", "dec", "old"]


def test_future_dates_do_not_boost() -> None:
    cfg = Config()
    (c,) = heuristic(fuse([(row("f", age_days=-30), 0.5)], [], cfg), cfg, NOW)
    assert c.recency == pytest.approx(1.0)


def test_decay_off() -> None:
    cfg = Config().with_overrides(decay_floor=1.0)
    (c,) = heuristic(fuse([(row("x", age_days=5000), 0.5)], [], cfg), cfg, NOW)
    assert c.recency == pytest.approx(1.0)


def test_dedup() -> None:
    cfg = Config()
    cands = heuristic(
        fuse(
            [
                (row("a", "Run migrations first", vec=[1, 0, 0]), 0.9),
                (row("b", "run  MIGRATIONS first ", vec=[0, 1, 0]), 0.8),
                (row("c", "something else", vec=[1, 0.01, 0]), 0.7),
                (row("d", "different", vec=[0, 0, 1]), 0.6),
            ],
            [],
            cfg,
        ),
        cfg,
        NOW,
    )
    kept, dropped = dedup(cands, 0.97)
    assert [c.row.id for c in kept] == ["a", "d"] and dropped == 2
    kept, dropped = dedup(cands, 1.0)
    assert [c.row.id for c in kept] == ["a", "c", "d"] and dropped == 1  # exact text still dropped


def test_supersede_scales_the_older_of_near_twins() -> None:
    day = 86_400_000_000
    old = Candidate(row("old", vec=[1.0, 0.0, 0.0]), score=0.9)
    new = Candidate(row("new", vec=[0.96, 0.28, 0.0]), score=0.8)  # cosine 0.96 with old
    other = Candidate(row("other", vec=[0.0, 0.0, 1.0]), score=0.7)
    same_day = Candidate(row("twin", vec=[1.0, 0.0, 0.0]), score=0.85)
    new.row.created_at = old.row.created_at + 30 * day
    same_day.row.created_at = old.row.created_at + day // 2  # too close to be an update
    cands = [old, same_day, new, other]
    assert supersede(cands, 0.8, 0.85, day, 20) == 2  # old (by new) and the same-day twin (by new)
    assert [c.row.id for c in cands] == ["new", "old", "twin", "other"]  # 0.8, 0.765, 0.7225, 0.7
    assert old.superseded == 0.85 and new.superseded is None and other.superseded is None
    assert round(old.score, 4) == round(0.9 * 0.85, 4)
    assert supersede([other], 0.8, 0.85, day, 20) == 0
