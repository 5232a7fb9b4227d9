"""The duplicate decisions (`omegad.contradictions.duplicates`): normalised text, the numbers
and identifiers two memories must share, and the one-name swaps that make sibling facts."""

from __future__ import annotations

from omegad.contradictions.duplicates import is_near_duplicate, markers, normalise, substitutes, text_key


def test_normalise_keeps_the_words_only() -> None:
    assert normalise("  The API listens on PORT 8080! ") == normalise("the api listens on port 8080")
    assert normalise("Ｆｕｌｌ－width “quotes”") == "full width quotes"
    assert normalise("3,000 tenants") == normalise("3000 tenants")
    assert normalise("Run the migrations.") != normalise("Run the migration.")
    assert text_key("A b.") == text_key("a  B") and len(text_key("x")) == 16


def test_markers_are_numbers_and_identifiers() -> None:
    assert markers("the ALB idle timeout is 120s") == markers("ALB idle timeout set to 120 seconds") == {"120"}
    assert markers("logs go to s3://team-logs/raw, e.g. daily") == {"3", "s3://team-logs/raw"}
    assert markers("Postgres 15 on db-primary") != markers("Postgres 16 on db-primary")
    assert markers("use python:3.12-slim") != markers("use python:3.11-slim")


def test_a_swapped_word_is_a_sibling_fact_and_rewording_is_not() -> None:
    assert substitutes("The search-api timeout is 5 s.", "The payments-api timeout is 5 s.")
    assert substitutes("Nadia owns the Falcon launch checklist.", "Nadia owns the Kestrel launch checklist.")
    assert substitutes("Crash reports on Android go to Sentry.", "Crash reports on iOS go to Sentry.")
    assert substitutes(
        "The nightly job exports invoices to the bucket.", "The nightly job exports orders to the bucket."
    )
    assert substitutes("Reviewers approve the plan.", "Reviewers reject the plan.")
    # a synonym is a swap too: the rule gives up such near duplicates for precision
    assert substitutes("We receive alerts from the database.", "We get alerts from the database.")
    assert not substitutes("We get alerts from the DB.", "We get alerts from the database.")  # abbreviation
    assert not substitutes("Alerts about the database come to us by email.", "We get alerts from the DB.")
    assert not substitutes("The user prefers tabs.", "I prefer tabs.")
    assert not substitutes(
        "Apply the saved plan; never re-plan during apply.", "Apply the saved plan; never re-plan during aply."
    )
    assert not substitutes("The colour of the primary button is blue.", "The color of the primary button is blue.")
    assert not substitutes("Auth uses JWTs signed with RS256.", "Auth uses JSON web tokens signed with RS256.")


def test_near_duplicate_needs_all_four() -> None:
    new, old = (
        "Gunicorn runs 4 workers per container in production.",
        "Gunicorn runs with 4 workers per container in production.",
    )
    assert is_near_duplicate(new, old, 0.95, 0.86, contradiction=False)
    assert not is_near_duplicate(new, old, 0.80, 0.86, contradiction=False)  # not close enough
    assert not is_near_duplicate(new, old, 0.95, 0.86, contradiction=True)  # in conflict
    assert not is_near_duplicate(new.replace("4", "8"), old, 0.95, 0.86, contradiction=False)  # another number
    assert not is_near_duplicate(new.replace("production", "staging"), old, 0.95, 0.86, contradiction=False)


def test_two_slot_words_are_never_spellings_of_one() -> None:
    old = "We deploy the API from the release branch every Tuesday."
    assert substitutes("We deploy the API from the release branch every Thursday.", old)
    assert not is_near_duplicate("We deploy the API from the release branch every Thursday.", old, 0.97, 0.86, False)
