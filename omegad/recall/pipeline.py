"""The query pipeline, stage by stage:

    embed query → recall (vector + full text, filter inside the storage query) → fuse
    → heuristic score (type weight × recency decay) → rerank (cross-encoder, top 20)
    → dedup → top `limit`

Each stage is a plain function of the candidates so it can be tested alone; `explain` traces
report every stage's candidate count and milliseconds, and each result's signals.

Scoring, in full (defaults in `omegad.config`, documented in docs/scoring.md):

* recall: ``net = max(15, 3 × limit)`` nearest vectors and ``net`` best BM25 matches.
* fusion ``linear`` (default): ``fused = (w_v × max(cos, 0) + w_t × bm25/(bm25 + c)) / (w_v + w_t)``
  with absolute scores (w_v = 3, w_t = 1, c = 15): a strong single-list match (an exact error
  code only full text finds) keeps its strength, unlike rank fusion, which squeezes it.
  Fusion ``rrf``: ``fused = (w_v/(k + rank_v) + w_t/(k + rank_t)) / ((w_v + w_t)/(k + 1))``
  (1-based ranks; a missing rank contributes 0). Chosen on bench/data/retrieval/dev, see
  docs/scoring.md for the measurements.
* heuristic: ``score = fused × type_weight[type] × recency × feedback × access``, with
  ``recency = floor + (1 − floor) × 0.5 ^ (age_days / half_life[type])`` and the bounded
  lifecycle factors of `omegad.storage.signals` (feedback 0.5–1.5, access 1–1.2).
* rerank: the top ``reranker.top_k`` (20) re-scored by the cross-encoder:
  ``score × (1 + w × sigmoid(logit))`` (see `omegad.recall.rerank`).
* dedup: a result whose embedding has cosine ≥ ``dedup_cosine`` with a better-scored result,
  or whose normalised text equals one, is dropped.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from omegad.config import Config
from omegad.requests import QueryContext
from omegad.storage.rows import Row

__all__ = ["Candidate", "Trace", "dedup", "fuse", "heuristic", "recall_size"]


def recall_size(limit: int) -> int:
    return max(15, 3 * limit)


@dataclass
class Candidate:
    row: Row
    vector_rank: int | None = None
    cosine: float | None = None
    fts_rank: int | None = None
    bm25: float | None = None
    fused: float = 0.0
    type_weight: float = 1.0
    recency: float = 1.0
    rerank: float | None = None  # sigmoid of the cross-encoder logit
    rerank_logit: float | None = None
    demoted: float | None = None  # the contradiction demotion factor, when applied
    superseded: float | None = None  # the factor of a newer near twin (`supersede`), when applied
    period: float | None = None  # the boost of a memory written in the period the question names
    feedback: float = 1.0  # lifecycle factors (see omegad.storage.signals)
    access: float = 1.0
    context: float = 1.0  # the caller's context (file, project, ...) matched: `context_factor`
    context_match: tuple[str, ...] = ()
    score: float = 0.0

    def signals(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "vector_rank": self.vector_rank,
            "cosine": _round(self.cosine),
            "fts_rank": self.fts_rank,
            "bm25": _round(self.bm25),
            "fused": _round(self.fused),
            "type_weight": _round(self.type_weight),
            "recency": _round(self.recency),
        }
        if self.feedback != 1.0:
            out["feedback"] = _round(self.feedback)
        if self.access != 1.0:
            out["access"] = _round(self.access)
        if self.context != 1.0:
            out["context"] = _round(self.context)
            out["context_match"] = list(self.context_match)
        if self.demoted is not None:
            out["contradiction_demotion"] = self.demoted
        if self.superseded is not None:
            out["superseded"] = self.superseded
        if self.period is not None:
            out["period"] = self.period
        if self.rerank is not None:
            out["rerank"] = _round(self.rerank)
            out["rerank_logit"] = _round(self.rerank_logit)
        return out


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


@dataclass
class Trace:
    """Per-stage timings and counts, reported with `explain`."""

    stages: list[dict[str, Any]] = field(default_factory=list)
    _t: float = field(default_factory=time.perf_counter)

    def mark(self, stage: str, candidates: int, **extra: Any) -> None:
        now = time.perf_counter()
        self.stages.append({"stage": stage, "candidates": candidates, "ms": round((now - self._t) * 1000, 3), **extra})
        self._t = now


def fuse(
    vector_hits: Sequence[tuple[Row, float]],
    text_hits: Sequence[tuple[Row, float]],
    config: Config,
) -> list[Candidate]:
    """Merge the two recall lists into candidates with a fused relevance in [0, 1]."""
    by_id: dict[str, Candidate] = {}
    for rank, (row, cos) in enumerate(vector_hits, 1):
        c = by_id.setdefault(row.id, Candidate(row))
        c.vector_rank, c.cosine = rank, cos
    for rank, (row, bm25) in enumerate(text_hits, 1):
        c = by_id.setdefault(row.id, Candidate(row))
        c.fts_rank, c.bm25 = rank, bm25
    wv, wt = config.vector_weight, config.fts_weight
    total = (wv + wt) or 1.0
    for c in by_id.values():
        if config.fusion == "linear":
            cos = max(0.0, c.cosine or 0.0)
            bm = (c.bm25 / (c.bm25 + config.bm25_saturation)) if c.bm25 else 0.0
            c.fused = (wv * cos + wt * bm) / total
        else:
            k = config.rrf_k
            s = 0.0
            if c.vector_rank is not None:
                s += wv / (k + c.vector_rank)
            if c.fts_rank is not None:
                s += wt / (k + c.fts_rank)
            c.fused = s / (total / (k + 1.0))
    return sorted(by_id.values(), key=lambda c: (-c.fused, c.row.id))


#: Boost per matched key of the caller's context, and the cap on their product (scoring.md).
CONTEXT_BOOSTS = {"file": 0.12, "symbol": 0.06, "project": 0.04, "language": 0.02}
CONTEXT_CAP = 1.25


def _path_key(path: str) -> str:
    p = path.strip().replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p.rstrip("/")


def _same_file(a: str, b: str) -> bool:
    """Equal paths, or one is the other's tail (a workspace-relative path and an absolute one)."""
    a, b = _path_key(a), _path_key(b)
    if not a or not b:
        return False
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def context_factor(row: Row, ctx: QueryContext) -> tuple[float, tuple[str, ...]]:
    """How much the caller's context favours *row*: a bounded boost per key its metadata (the
    keys editor plugins write) or tags match. Nothing is ever lowered, so a wrong context can
    only lift memories of another file, and only within the cap."""
    meta = row.metadata or {}
    tags = {t.lower() for t in row.tags}

    def text(key: str) -> str | None:
        v = meta.get(key)
        return v.strip().lower() if isinstance(v, str) and v.strip() else None

    matched: list[str] = []
    if ctx.file and isinstance(meta.get("file"), str) and _same_file(meta["file"], ctx.file):
        matched.append("file")
    symbols = {s.lower() for s in ctx.symbols}
    if symbols and (text("symbol") in symbols or tags & symbols):
        matched.append("symbol")
    if ctx.project and (text("project") == ctx.project.lower() or ctx.project.lower() in tags):
        matched.append("project")
    if ctx.language and (text("language") == ctx.language.lower() or ctx.language.lower() in tags):
        matched.append("language")
    factor = 1.0
    for key in matched:
        factor *= 1.0 + CONTEXT_BOOSTS[key]
    return min(factor, CONTEXT_CAP), tuple(matched)


def heuristic(
    candidates: list[Candidate],
    config: Config,
    now_us: int,
    lifecycle: Callable[[str], tuple[float, float]] | None = None,
    context: QueryContext | None = None,
) -> list[Candidate]:
    """Apply type weights, per-type recency decay, the lifecycle factors (feedback, access
    frequency: *lifecycle* maps an id to both) and the caller's *context*; sort by score."""
    floor = min(max(config.decay_floor, 0.0), 1.0)
    for c in candidates:
        c.type_weight = float(config.type_weights.get(c.row.type, 1.0))
        half_life = float(config.decay_half_life_days.get(c.row.type, 180.0))
        age_days = max(0.0, (now_us - c.row.created_at) / 86_400e6)
        decay = 0.5 ** (age_days / half_life) if half_life > 0 else 1.0
        c.recency = floor + (1.0 - floor) * decay
        if lifecycle is not None:
            c.feedback, c.access = lifecycle(c.row.id)
        if context is not None:
            c.context, c.context_match = context_factor(c.row, context)
        c.score = c.fused * c.type_weight * c.recency * c.feedback * c.access * c.context
    candidates.sort(key=lambda c: (-c.score, c.row.id))
    return candidates


def supersede(candidates: list[Candidate], cosine: float, factor: float, min_gap_us: int, top: int) -> int:
    """Among the *top* candidates, one with a newer near twin (embedding cosine ≥ *cosine*,
    created at least *min_gap_us* later) is scaled by *factor*: on one subject the newer memory
    is the current word, whether or not a contradiction edge says so. Returns how many were."""
    head = candidates[:top]
    if len(head) < 2:
        return 0
    vectors = np.stack([c.row.vector for c in head])
    sims = vectors @ vectors.T
    hit = 0
    for i, c in enumerate(head):
        newer = [
            j
            for j, o in enumerate(head)
            if j != i and sims[i, j] >= cosine and o.row.created_at - c.row.created_at >= min_gap_us
        ]
        if newer:
            c.score *= factor
            c.superseded = factor
            hit += 1
    if hit:
        candidates.sort(key=lambda c: (-c.score, c.row.id))
    return hit


_WS = re.compile(r"\s+")


def _norm_text(text: str) -> str:
    return _WS.sub(" ", text.strip().lower())


def dedup(candidates: list[Candidate], threshold: float, limit: int | None = None) -> tuple[list[Candidate], int]:
    """Drop near-duplicates of better-scored candidates (input sorted best first); stops once
    *limit* results are kept, so the cost is at most O(limit × candidates)."""
    limit = len(candidates) if limit is None else limit
    kept: list[Candidate] = []
    matrix: np.ndarray[Any, Any] | None = None
    seen_text: set[str] = set()
    dropped = 0
    for c in candidates:
        if len(kept) >= limit:
            break
        norm = _norm_text(c.row.text)
        if norm in seen_text:
            dropped += 1
            continue
        v = c.row.vector
        if matrix is None:
            matrix = np.empty((min(limit, len(candidates)), v.shape[0]), dtype=np.float32)
        if kept and threshold < 1.0 and float((matrix[: len(kept)] @ v).max()) >= threshold:
            dropped += 1
            continue
        matrix[len(kept)] = v
        kept.append(c)
        seen_text.add(norm)
    return kept, dropped


def result_dict(c: Candidate, explain: bool) -> dict[str, Any]:
    out = c.row.public()
    out["score"] = round(float(c.score), 6) if math.isfinite(c.score) else 0.0
    if explain:
        out["signals"] = c.signals()
    return out
