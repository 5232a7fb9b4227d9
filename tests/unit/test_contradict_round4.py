"""Detector version 4: negative words read as denials, negating verbs used as nouns, the choice
given up after "prefer … to" and "rather … than", compound quantities, pronouns, key labels,
channels and code values, derived nouns, coverage of an elaboration, and the stage that hands a
pair the detectors cannot vouch for to the pair classifier. Every pair is made up for these
tests."""

from __future__ import annotations

import pytest

from omegad.contradictions import clauses as reader
from omegad.contradictions.detect import detect
from omegad.contradictions.matching import _text_coverage
from omegad.contradictions.tokens import _lemma

THRESHOLD = 0.4


def flagged(new: str, old: str) -> bool:
    return detect(new, old).flagged(THRESHOLD)


# -- negative words: "lacks", "excluded", "unsupported", "off", "is against" ---------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # both sides deny, in other words: a restatement, not a dropped negation
        ("The plugin has no offline mode.", "The plugin lacks an offline mode."),
        ("The SDK doesn't support Python 2.", "Python 2 is unsupported by the SDK."),
        ("The scanner doesn't check vendored files.", "Vendored files are excluded from scanning."),
        ("Private repos are hidden from guests.", "Guests can't see private repos."),
        ("Omar doesn't want squash merges.", "Omar is against squash merges."),
        ("Requests without a session cookie get a 403.", "A 403 is returned for requests missing a session cookie."),
    ],
)
def test_negative_words_restate_a_denial(old: str, new: str) -> None:
    d = detect(new, old)
    assert not d.flagged(THRESHOLD), (d.signals, d.reason)


def test_a_negative_state_denies_an_assertion() -> None:
    # "disabled" says no where the older text says yes: a negation, in the newer text
    d = detect("Crash reports are disabled in the agent.", "The agent sends crash reports.")
    assert d.flagged(THRESHOLD)
    assert [(s.kind, s.evidence) for s in d.signals] == [("negation", "negated")]


def test_a_lacking_feature_against_one_that_exists() -> None:
    d = detect("The mobile client lacks a dark mode.", "The mobile client has a dark mode.")
    assert d.flagged(THRESHOLD)
    assert d.signals[0].kind == "negation"
    assert d.signals[0].evidence == "negated"  # the newer text denies (not "negation dropped")


def test_guarded_against() -> None:
    # "protected against force pushes": force pushes are not allowed
    assert flagged(
        "Force pushes to the deploy branch are allowed by the repo settings.",
        "The deploy branch is protected against force pushes.",
    )


# -- a negating verb used as a noun or an adjective ------------------------------------------------


def test_negating_verb_as_a_noun_is_not_a_denial() -> None:
    # "the archive table" does not deny the table; the newer text does
    old = "The nightly job copies rows to the archive table."
    assert flagged("The nightly job no longer copies rows to the archive table.", old)
    assert not flagged("The nightly job copies rows to the archive table every night.", old)


def test_participle_before_its_noun_is_an_adjective() -> None:
    d = detect("Deleted invoices are left out of the report.", "The report doesn't include deleted invoices.")
    assert not d.flagged(THRESHOLD), d.signals


def test_a_condition_is_not_a_denial() -> None:
    # "when omitted" does not deny what the clause states
    c = reader._analyse("The region parameter is optional and defaults to eu-west when omitted.").clauses[0]
    assert not any(t.neg for t in c.terms)


# -- the choice given up after "prefer … to", "would rather … than" -------------------------------


def test_preference_with_to_and_than() -> None:
    assert not flagged("Lena would rather rebase than merge.", "Lena prefers rebasing to merging.")
    assert not flagged("Noor would pick Jest over Mocha.", "Noor prefers Jest to Mocha.")
    assert flagged("Noor now prefers Mocha to Jest.", "Noor prefers Jest to Mocha.")
    # "to" after a wish that is not a preference between two things names a destination
    assert flagged("The user wants summaries sent to email.", "The user wants summaries sent to Slack.")


def test_a_decision_rejects_what_it_decides_against() -> None:
    assert not flagged(
        "For the partner API we chose gRPC instead of GraphQL.", "Decided: gRPC over GraphQL for the partner API"
    )


# -- quantities ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("Sessions expire after an hour and a half.", 5400.0),
        ("The lease lasts a minute and fifteen seconds.", 75.0),
        ("The build takes 1 hour and 30 minutes.", 5400.0),
    ],
)
def test_compound_durations(text: str, seconds: float) -> None:
    qs = [q for c in reader._analyse(text).clauses for q in c.quantities]
    assert [(q.dim, q.lo) for q in qs] == [("time", seconds)]


def test_a_full_year_is_a_year() -> None:
    def values(text: str) -> list[tuple[str, float]]:
        return [(q.dim, q.lo) for c in reader._analyse(text).clauses for q in c.quantities]

    assert values("Audit logs are kept for a full year.") == values("Audit logs are kept for a year.") != []


def test_compound_durations_compare() -> None:
    assert not flagged("Sessions expire after an hour and a half.", "Sessions expire after 90 minutes.")
    d = detect("Sessions expire after an hour and 45 minutes.", "Sessions expire after 90 minutes.")
    assert d.flagged(THRESHOLD)
    assert d.signals[0].evidence == "90 minutes → an hour and 45 minutes"


def test_off_by_one_is_not_switched_off() -> None:
    c = reader._analyse("Bug: the calendar widget is off by one day").clauses[0]
    assert not any(t.state for t in c.terms if t.text == "off")


# -- pronouns, labels, channels, code values -------------------------------------------------------


def test_pronoun_stands_for_the_previous_subject() -> None:
    a = reader._analyse("The mirror job stopped; it no longer uploads builds.")
    first, second = a.clauses
    assert second.text == "it no longer uploads builds"  # as written
    assert {t.key for t in first.terms if t.subject} <= second.keys


def test_a_key_before_a_statement_is_a_label() -> None:
    # "Verdict:" files the note; the statement after it has its own subject
    assert flagged("Verdict: the cache layer does not compress payloads.", "The cache layer compresses payloads.")
    c = reader._analyse("Verdict: the cache layer does not compress payloads.").clauses[0]
    assert [t.text for t in c.terms if t.label] == ["verdict"]
    # a key that is the subject of what follows stays one ("prod db: not autoscaled")
    c = reader._analyse("staging db: not autoscaled, fixed size").clauses[0]
    assert not any(t.label for t in c.terms)
    # and a key's value is not a statement
    assert reader._analyse("Default shell: zsh").clauses[0].text == "default shell : zsh"


def test_channel_named_in_a_note_is_a_value() -> None:
    d = detect("Deploy alerts now go to #sre-oncall.", "Deploy alerts go to #ops-pager.")
    assert d.flagged(THRESHOLD)
    assert any(s.kind == "value_change" and "#ops-pager → #sre-oncall" in s.evidence for s in d.signals)


def test_two_code_values_in_one_slot_are_a_value_change() -> None:
    d = detect("the worker listens on :7071 by default", "the worker listens on :7070 by default")
    assert d.flagged(THRESHOLD)
    assert d.signals[0].kind == "value_change"


def test_unknown_lowercase_choice_of_a_preference() -> None:
    # "for diagrams the user …": the fronted phrase ends where the subject starts
    assert flagged("For diagrams the user prefers tldraw.", "For diagrams the user prefers excalidraw.")
    assert not flagged("For diagrams the user prefers excalidraw.", "For diagrams the user prefers excalidraw.")


# -- derived nouns and coverage ------------------------------------------------------------------


def test_derived_nouns_meet_their_verbs() -> None:
    assert _lemma("compaction") == _lemma("compacted")
    assert _lemma("collection") == _lemma("collected")
    assert _lemma("persistence") == _lemma("persists")
    # a noun of a negating verb does not become one
    assert _lemma("deletion") != _lemma("delete")


def test_circumstances_of_the_older_claim_aside() -> None:
    # "for indentation" is where the older claim applies, and the newer text changes its value
    assert flagged("Nadia asked that we use tabs; she has given up on spaces.", "Nadia prefers spaces for indentation.")


def test_text_coverage_reads_the_other_clauses_of_an_elaboration() -> None:
    old = reader._analyse("The export job compresses every file.").clauses[0]
    new = reader._analyse("Files leave the export job as they are; there is no compression step.")
    n = new.clauses[1]
    matched_o = {i for i, t in enumerate(old.terms) if t.key in n.keys}
    matched_n = {i for i, t in enumerate(n.terms) if t.key in old.keys}
    assert _text_coverage(old, n, new, matched_o, matched_n) > sum(old.terms[i].weight for i in matched_o) / old.weight
    # a newer clause with a subject of its own is not read with the others
    other = reader._analyse("Files leave the export job as they are; the archiver has no compression step.")
    n = other.clauses[1]
    matched_n = {i for i, t in enumerate(n.terms) if t.key in old.keys}
    assert _text_coverage(old, n, other, matched_o, matched_n) == 0.0


# -- the stage the pair classifier may speak to -----------------------------------------------------


def test_unexplained_change_is_not_agreement() -> None:
    # the clauses align and agree, but the newer text denies what the older one asserts of its
    # subject ("tagged"): the detectors cannot vouch for the agreement
    d = detect("Builds are tagged from main; hotfix builds are never tagged.", "Builds are tagged from main.")
    assert not d.flagged(THRESHOLD)
    assert d.stage == "unexplained change"
    # a denial of something the older text does not assert is an added detail
    d = detect(
        "The linter runs on every commit; lint errors don't block the merge.", "The linter runs on every commit."
    )
    assert d.stage == "no conflicting change"
    # a restatement with nothing denied stays an agreement
    assert (
        detect("The linter runs on each commit.", "The linter runs on every commit.").stage == "no conflicting change"
    )
