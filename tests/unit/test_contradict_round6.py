"""Detector version 6: the sixth round's readings (docs/contradictions.md, "Sixth round").
Every pair is made up for these tests."""

from __future__ import annotations

import pytest

from omegad.contradictions.detect import detect
from omegad.contradictions.slots import slot_change

THRESHOLD = 0.4


def _kinds(new: str, old: str) -> set[str]:
    return {s.kind for s in detect(new, old).signals}


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        # a rate written "N things a minute" is a rate, and a bound set against a plain value
        (
            "The search API allows 50 requests per second per token.",
            "Each token is capped at 200 calls a second.",
            "value_change",
        ),
        # "cap" after the number names a limit ("a 25 MB cap"), as "capped at" does before it
        (
            "Attachments are capped at 30 MB in the mail client.",
            "A 25 MB cap applies to attachments in the mail client.",
            "value_change",
        ),
        # a single holder named by a capitalised word the lexicon does not know
        ("Lena is the release captain for the 2.x line.", "Release captain for 2.x: Oskar.", "value_change"),
        # deployment strategies fill one role
        ("We roll out the API with rolling updates.", "We roll out the API with canary releases.", "preference_change"),
        # a build's status: green and red are the two poles
        ("The integration suite is green.", "The integration suite is red.", "antonym"),
    ],
)
def test_sixth_round_contradictions(old: str, new: str, kind: str) -> None:
    assert detect(new, old).flagged(THRESHOLD)
    assert kind in _kinds(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a state right after a copula is the predicate: "forbidden" restates "never"
        ("Tokens must never be logged.", "Logging any token is forbidden after past incidents."),
        # "blocked" says no as "disallowed" does
        ("Outbound SMTP is disallowed on the build hosts.", "Outbound SMTP is blocked on the build hosts."),
        # a count of one thing against a number other words name
        (
            "The billing Postgres cluster runs 3 replicas.",
            "Billing Postgres cluster: max_connections 200, shared_buffers 4.",
        ),
        # another version and another state: about two versions, both can hold
        ("TLS 1.2 is enabled on the partner API.", "TLS 1.0 is disabled on the partner API."),
        # two commits' scopes: two parts of the product
        ("feat(web): pagination via cursors", "docs(mobile): mobile keeps offset pagination"),
    ],
)
def test_sixth_round_compatible_pairs(old: str, new: str) -> None:
    d = detect(new, old)
    assert not d.flagged(THRESHOLD), d


def test_a_time_phrase_closing_a_label_dates_the_value() -> None:
    slot = slot_change("Session store since the outage: Redis.", "Session store: Memcached.")
    assert slot is not None and slot.kind == "value_change"
    # another label is still another slot
    assert slot_change("Session eviction: LRU.", "Session store: Memcached.") is None


def test_a_state_value_counts_with_its_negation() -> None:
    assert slot_change("Payment retries: not disabled.", "Payment retries: enabled.") is None
    assert slot_change("Payment retries: disabled.", "Payment retries: enabled.") is not None
