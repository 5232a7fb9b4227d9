"""Detector version 5: notes written as "label: value" with one label and values that share
nothing state two values of one slot. Every pair is made up for these tests."""

from __future__ import annotations

import pytest

from omegad.contradictions.detect import detect
from omegad.contradictions.slots import slot_change

THRESHOLD = 0.4


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Artifact store: Harbor.", "Artifact store: Quay."),
        ("Search backend: Solr", "Search backend: Typesense"),
        ("Strict null checks: yes.", "Strict null checks: no."),
        ("Build status on main: green.", "Build status on main: red since Monday."),
        ("Delivery guarantee of the mailer: exactly-once.", "Delivery guarantee of the mailer: best-effort."),
    ],
)
def test_two_values_of_one_slot_are_a_value_change(old: str, new: str) -> None:
    slot = slot_change(new, old)
    assert slot is not None and slot.kind == "value_change" and "→" in slot.evidence
    assert detect(new, old).flagged(THRESHOLD)  # (names the lexicon knows may flag it first)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the value kept and refined
        ("Artifact store: Harbor.", "Artifact store: Harbor, with replication to the DR site."),
        # another label: another slot
        ("Python formatter: Black.", "Python type checker: Pyright."),
        # a statement about the slot, not a value of it
        ("Feature toggles: Flagsmith.", "Feature toggles: old ones pruned quarterly."),
        # numbers are the value detector's (with their units): a restatement here
        ("Session timeout: 30 minutes.", "Session timeout: half an hour."),
        # a speaker, not a label
        ("Dana: I use pnpm.", "Dana: I use pnpm for every repo."),
        # a commit's type and scope
        ("feat(api): cursor pagination", "feat(api): rate limits per token"),
    ],
)
def test_what_is_not_two_values_of_one_slot(old: str, new: str) -> None:
    assert slot_change(new, old) is None
    assert not detect(new, old).flagged(THRESHOLD)


def test_states_on_different_axes_are_not_two_values() -> None:
    # "disallowed" and "blocked" may say one thing in two words
    assert slot_change("Direct SSH to prod: blocked.", "Direct SSH to prod: disallowed.") is None
    assert slot_change("Signup endpoint: unthrottled.", "Signup endpoint: rate-limited.") is not None
