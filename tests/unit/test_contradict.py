"""The contradiction detectors: the design's examples, its hard negatives, determinism."""

from __future__ import annotations

import pytest

from omegad.contradictions.detect import detect
from omegad.contradictions.known import ANTONYMS

THRESHOLD = 0.4

CONTRADICTIONS = [
    # (older, newer, signal that must fire)
    ("The user prefers dark mode", "The user switched to light mode", "antonym"),
    ("The user prefers dark mode in every editor", "The user now prefers light mode in every editor", "antonym"),
    ("Telemetry is enabled in the CLI", "Telemetry is disabled in the CLI", "antonym"),
    ("Calls to the payments API are sync", "Calls to the payments API are async", "antonym"),
    ("The user likes tabs", "The user doesn't like tabs", "negation"),
    ("We use Docker for local dev", "We don't use Docker for local dev anymore", "negation"),
    ("The user uses vim", "The user uses neovim", "preference_change"),
    ("Our package manager is npm", "Our package manager is pnpm", "preference_change"),
    ("The backend is written in JavaScript", "The backend is now written in Python", "temporal_override"),
    ("We use yarn for the monorepo", "Switched from yarn to pnpm in March", "temporal_override"),
    ("We use Jenkins for CI", "We no longer use Jenkins", "temporal_override"),
    ("The API timeout is 30 s", "The API timeout is 60 s", "value_change"),
    ("The billing service listens on port 8443", "The billing service listens on port 9090", "value_change"),
    ("The monorepo uses git submodules", "The monorepo does NOT use git submodules", "negation"),
    ("日本語 support is enabled", "日本語 support is disabled", "antonym"),
]

COMPATIBLE = [
    # scope differences
    ("Staging uses Postgres 15", "Production uses Postgres 16"),
    ("The frontend uses npm", "The backend uses npm? no, the backend uses poetry"),
    ("Unit tests use mocks for the database", "Integration tests don't use mocks for the database"),
    ("Alice prefers light mode", "Bob prefers dark mode"),
    # negations about a different subject
    ("We use Redis for caching", "We don't use Redis for sessions"),
    ("The user likes tabs in Go", "The user doesn't like tabs in YAML"),
    # compatible refinements and restatements
    ("The user uses vim", "The user uses vim with the LSP plugin"),
    ("We deploy the API with GitHub Actions", "We deploy the API with GitHub Actions on every merge to main"),
    ("The user prefers dark mode", "The user prefers dark mode, high contrast"),
    # same topic, both true
    ("We use black for formatting", "We use ruff for linting"),
    # an antonym word, but not a contradiction
    ("Enable dark mode in the editor", "Disable telemetry in the editor"),
    # unrelated
    ("The cafeteria closes at three", "The API timeout is 60 s"),
    # identifiers, dates and events are not values or choices
    ("PR #123 merged into main", "PR #124 merged into main"),
    ("Step 2: run the migrations", "Step 3: run the migrations"),
    ("Session on 2024-06-01: fixed login bug", "Session on 2024-06-02: fixed login bug"),
    ("User asked about Redis on Monday", "User asked about Postgres on Tuesday"),
    ("Yesterday I fixed the flaky test in billing", "Today I fixed the flaky test in auth"),
    # negations that are not denials
    ("The cache TTL is 5 minutes", "The cache TTL is 5 minutes, not 10"),
    ("We use Redis as a cache", "Redis is not only a cache for us"),
    ("The API key rotates every 90 days", "Don't forget: the API key rotates every 90 days"),
    ("The user works on the search team", "The user no longer works on the billing team"),
]


@pytest.mark.parametrize(("old", "new", "signal"), CONTRADICTIONS)
def test_contradictions_are_flagged(old: str, new: str, signal: str) -> None:
    d = detect(new, old)
    assert d.flagged(THRESHOLD), (d.confidence, d.signals, d.reason)
    assert signal in {s.kind for s in d.signals}
    assert 0.0 < d.confidence < 1.0


@pytest.mark.parametrize(("old", "new"), COMPATIBLE)
def test_hard_negatives_are_not_flagged(old: str, new: str) -> None:
    d = detect(new, old)
    assert not d.flagged(THRESHOLD), (d.confidence, d.signals)
    assert d.reason


def test_signal_ceilings_follow_the_design() -> None:
    ceilings = {
        "negation": 0.8,
        "antonym": 0.9,
        "preference_change": 0.8,
        "temporal_override": 0.6,
        "value_change": 0.7,
    }
    for old, new, _ in CONTRADICTIONS:
        for s in detect(new, old).signals:
            assert 0 < s.score <= ceilings[s.kind] + 1e-9, s


def test_deterministic() -> None:
    for old, new, _ in CONTRADICTIONS:
        first = detect(new, old)
        for _ in range(3):
            again = detect(new, old)
            assert again.confidence == first.confidence and again.signals == first.signals


def test_antonym_dictionary_is_bidirectional_and_large_enough() -> None:
    pairs = {tuple(sorted((a, b))) for a, bs in ANTONYMS.items() for b in bs}
    assert len(pairs) >= 20
    for a, bs in ANTONYMS.items():
        for b in bs:
            assert a in ANTONYMS[b]


def test_long_texts_are_bounded() -> None:
    """A 16k-character pair is analysed on its first words (the alignment is quadratic)."""
    old = "The deploy pipeline " + " ".join(f"word{i}" for i in range(3000))
    new = "The deploy pipeline " + " ".join(f"other{i}" for i in range(3000))
    assert len(old) > 16_000
    d = detect(new, old)
    assert not d.flagged(THRESHOLD)


def test_long_digit_runs_are_identifiers_not_values() -> None:
    """Two notes that differ only in an id-like number (a timestamp, a ticket) do not conflict;
    a real value change next to one still does."""
    assert not detect(
        "new memory 1764525000123456789 about the deploy cache",
        "new memory 1764525000987654321 about the deploy cache",
    ).flagged(0.4)
    d = detect("Job 48213377 runs with a timeout of 60 s", "Job 48213377 runs with a timeout of 30 s")
    assert d.flagged(0.4) and [s.kind for s in d.signals] == ["value_change"]
