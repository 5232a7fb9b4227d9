"""`period`: the time range a question names in calendar words."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from omegad.recall.when import period


def day(us: int) -> str:
    return datetime.fromtimestamp(us / 1e6, UTC).strftime("%Y-%m-%d")


@pytest.mark.parametrize(
    ("question", "since", "until"),
    [
        ("prod incidents in Q4 2024", "2024-10-01", "2024-12-31"),
        ("what did we ship 2025 q1", "2025-01-01", "2025-03-31"),
        ("cost decisions we made in H1 2025", "2025-01-01", "2025-06-30"),
        ("incidents in the first half of 2026", "2026-01-01", "2026-06-30"),
        ("release planning in the fourth quarter of 2025", "2025-10-01", "2025-12-31"),
        ("what did we decide about CI in march 2025", "2025-03-01", "2025-03-31"),
        ("notes from Sept. 2023", "2023-09-01", "2023-09-30"),
        ("what changed in early 2025 (jan-apr)", "2025-01-01", "2025-04-30"),
        ("health things from jan-mar 2025", "2025-01-01", "2025-03-31"),
        ("what happened with dbt in summer 2024", "2024-06-01", "2024-08-31"),
        ("the move over the summer of 2025", "2025-06-01", "2025-08-31"),
        ("late 2024 outages", "2024-09-01", "2024-12-31"),
        ("kafka problems during 2024", "2024-01-01", "2024-12-31"),
        ("february 2024 on-call notes", "2024-02-01", "2024-02-29"),
    ],
)
def test_periods_in_calendar_words(question: str, since: str, until: str) -> None:
    found = period(question)
    assert found is not None
    assert (day(found[0]), day(found[1])) == (since, until)
    assert datetime.fromtimestamp(found[1] / 1e6, UTC).strftime("%H:%M:%S") == "23:59:59"


@pytest.mark.parametrize(
    "question",
    [
        "upgrade to 4.8.0",
        "version 2024.1 of the SDK",
        "the 2024-03-05 incident",
        "python 3.11 and node 20",
        "what did we decide about the cache",
        "may we deploy on fridays",  # ("may" alone is no month)
        "release 2025-1",
        "error E2024 from the driver",
    ],
)
def test_no_period_in_versions_dates_and_words(question: str) -> None:
    assert period(question) is None


#: Saturday 2026-12-05 14:30 UTC
NOW = int(datetime(2026, 12, 5, 14, 30, tzinfo=UTC).timestamp() * 1_000_000)


@pytest.mark.parametrize(
    ("question", "since", "until"),
    [
        ("what did we decide last week", "2026-11-23", "2026-11-29"),  # (Monday to Sunday)
        ("changes this week", "2026-11-30", "2026-12-06"),
        ("errors yesterday", "2026-12-04", "2026-12-04"),
        ("notes from today", "2026-12-05", "2026-12-05"),
        ("changes this month", "2026-12-01", "2026-12-31"),
        ("what broke last month", "2026-11-01", "2026-11-30"),
        ("decisions last quarter", "2026-07-01", "2026-09-30"),
        ("this year", "2026-01-01", "2026-12-31"),
        ("hires last year", "2025-01-01", "2025-12-31"),
        ("in the past 3 days", "2026-12-02", "2026-12-05"),
        ("over the last 2 weeks", "2026-11-21", "2026-12-05"),
        ("in Q3 2025, not last week", "2025-07-01", "2025-09-30"),  # (the calendar's words first)
    ],
)
def test_periods_counted_back_from_now(question: str, since: str, until: str) -> None:
    found = period(question, NOW)
    assert found is not None
    assert (day(found[0]), day(found[1])) == (since, until)


def test_last_month_in_january_is_december() -> None:
    january = int(datetime(2027, 1, 10, tzinfo=UTC).timestamp() * 1_000_000)
    found = period("what did we ship last month", january)
    assert found is not None and (day(found[0]), day(found[1])) == ("2026-12-01", "2026-12-31")


def test_no_relative_period_without_now_or_a_unit() -> None:
    assert period("what did we decide last week") is None  # (no time given to count from)
    assert period("what did we do last time", NOW) is None
    assert period("do we keep the last 30 days of logs", NOW) is None  # (a window, not a period)
