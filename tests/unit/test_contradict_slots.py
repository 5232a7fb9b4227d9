"""Detector version 5: notes written as "label: value" with one label and values that share
nothing state two values of one slot; texts that open with different circumstances of one kind
speak of two scopes. Every pair is made up for these tests."""

from __future__ import annotations

import pytest

from omegad.contradictions import clauses as reader
from omegad.contradictions.detect import detect
from omegad.contradictions.framing import other_circumstance
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


# -- the circumstance a text opens with ------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("On the release branch, direct pushes are blocked.", "On personal forks, direct pushes are not blocked."),
        ("On macOS runners, the suite runs in parallel.", "On Linux runners, the suite runs serially."),
    ],
)
def test_different_circumstances_of_one_kind_are_two_scopes(old: str, new: str) -> None:
    assert other_circumstance(new, old).startswith("circumstance: on ")
    d = detect(new, old)
    assert not d.flagged(THRESHOLD) and d.stage == "circumstance"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the same circumstance: the claims are compared
        ("On the release branch, direct pushes are blocked.", "On the release branch, direct pushes are allowed."),
        # a reordered sentence fronts its tool or topic, not a scope
        ("For code formatting, Black is what the team runs.", "In CI, code formatting is done by Ruff now."),
        ("Across all services, logging goes through slog.", "With zerolog, all services do their logging now."),
        # what one side fronts, the other says elsewhere
        (
            "In the mobile repo, releases are cut weekly.",
            "In the web repo, releases are cut monthly, unlike the mobile repo.",
        ),
    ],
)
def test_what_is_not_another_circumstance(old: str, new: str) -> None:
    assert other_circumstance(new, old) == ""


def test_the_same_circumstance_still_finds_the_change() -> None:
    assert detect(
        "On the release branch, signed commits are disabled.", "On the release branch, signed commits are enabled."
    ).flagged(THRESHOLD)


# -- a subject left out after "and", and a denial both texts make ---------------------------------


def test_a_clause_after_and_keeps_the_subject_it_leaves_out() -> None:
    text = reader._analyse("API tokens are salted and never logged in clear text.")
    assert [c.text for c in text.clauses] == ["api tokens are salted", "and never logged in clear text"]
    assert [(t.text, t.subject, t.neg) for t in text.clauses[1].terms] == [
        ("api tokens", True, True),  # the subject, denied with its verb
        ("logged", False, True),
        ("clear text", False, True),
    ]
    # without a verb after it, "and" joins two things: nothing is carried
    joined = reader._analyse("Builds run on Linux; and macOS too.")
    assert [t.text for t in joined.clauses[1].terms] == ["macos"]


def test_a_denial_both_texts_make_is_no_change() -> None:
    old = "API tokens are salted and never logged in clear text, since logs are shipped to a vendor."
    new = "We don't log API tokens in clear text; they are salted, as logs go to a vendor."
    d = detect(new, old)
    assert not d.flagged(THRESHOLD) and d.stage == "no conflicting change", d
    # the older text denies something else: the newer denial is a change
    assert detect("The exporter does not write CSV any more.", "The exporter writes CSV and never writes XML.").flagged(
        THRESHOLD
    )
