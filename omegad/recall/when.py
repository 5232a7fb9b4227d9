"""The period a question names ("incidents in Q3 2025", "what did we decide in march 2024",
"kafka problems during 2024"): `period` finds one written out in absolute terms — a year, a
quarter, a half, a month or a range of months, a season, early / mid / late in a year — and
returns it as a time range; given the time now, also one counted back from it ("last week",
"this month", "yesterday", "in the past 3 days"). Only calendar words and four-digit years
count, so a version number or an identifier is never read as a date."""

from __future__ import annotations

import re
from datetime import UTC, datetime

__all__ = ["Period", "period"]

Period = tuple[int, int, str]  # since and until (µs, inclusive), and the words that said so

_MONTHS = {
    name: k + 1
    for k, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"(?<![\w.:/-])((?:19|20)\d\d)(?![\w.:/-]|-\d)"
# (first month, last month) of the words that name part of a year
_PARTS = {
    "q1": (1, 3),
    "q2": (4, 6),
    "q3": (7, 9),
    "q4": (10, 12),
    "h1": (1, 6),
    "h2": (7, 12),
    "first quarter": (1, 3),
    "second quarter": (4, 6),
    "third quarter": (7, 9),
    "fourth quarter": (10, 12),
    "first half": (1, 6),
    "second half": (7, 12),
    "spring": (3, 5),
    "summer": (6, 8),
    "autumn": (9, 11),
    "fall": (9, 11),
    "early": (1, 4),
    "mid": (5, 8),
    "middle": (5, 8),
    "late": (9, 12),
    "end": (10, 12),
    "start": (1, 3),
    "beginning": (1, 3),
}
_PART = "|".join(sorted((re.escape(k) for k in _PARTS), key=len, reverse=True))
_PATTERNS = [
    # "jan-apr 2025", "from march to june 2024", "early 2025 (jan-apr)" (the months win)
    re.compile(
        rf"(?i)\b(?:from\s+)?(?P<m1>{_MONTH})\.?\s*(?:-|–|to|through|until)\s*(?P<m2>{_MONTH})\b\.?[\s,)]*(?:of\s+|in\s+)?(?:\S+\s+){{0,2}}?{_YEAR}"
    ),
    re.compile(
        rf"(?i){_YEAR}[\s,(]*(?:\S+\s+){{0,2}}?\(?(?P<m1>{_MONTH})\.?\s*(?:-|–|to|through)\s*(?P<m2>{_MONTH})\b"
    ),
    # "march 2025", "in mar. 2025", "2025-03"? (no: a date stamp is not a question's period)
    re.compile(rf"(?i)\b(?P<m1>{_MONTH})\b\.?,?\s+(?:of\s+)?{_YEAR}"),
    # "Q3 2025", "H1 2025", "first half of 2026", "summer 2024", "early 2025", "end of 2024"
    re.compile(rf"(?i)\b(?P<part>{_PART})\b(?:\s+of)?(?:\s+the\s+year)?\s+{_YEAR}"),
    # "2025 Q3", "2024 H2"
    re.compile(rf"(?i){_YEAR}\s+(?P<part>q[1-4]|h[12])\b"),
    # "in 2024", "during 2024", "2024's"
    re.compile(_YEAR),
]


def _us(year: int, month: int) -> int:
    return int(datetime(year, month, 1, tzinfo=UTC).timestamp() * 1_000_000)


def _months(year: int, first: int, last: int) -> tuple[int, int]:
    """The first and last µs of months *first* … *last* of *year*."""
    end = _us(year + 1, 1) if last == 12 else _us(year, last + 1)
    return _us(year, first), end - 1


#: "last week", "this month", "yesterday", "in the past 3 days": periods counted back from now
#: (a count of days only after "in / over the": "keep the last 30 days of logs" is no period)
_RELATIVE = re.compile(
    r"(?i)\b(?:(?P<which>this|last|previous|past)\s+(?P<unit>week|month|quarter|year)"
    r"|(?P<day>today|yesterday)"
    r"|(?:in|over|within|during)\s+the\s+(?:last|past)\s+(?P<n>\d{1,3})\s+(?P<units>days?|weeks?|months?))\b"
)
_DAY_US = 86_400_000_000


def _relative(m: re.Match[str], now: int) -> tuple[int, int]:
    """The range *m* (a `_RELATIVE` match) names, counted back from *now* (µs, UTC)."""
    today = datetime.fromtimestamp(now / 1e6, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    start = int(today.timestamp() * 1_000_000)
    if m["day"]:
        back = 1 if m["day"].lower() == "yesterday" else 0
        return start - back * _DAY_US, start - (back - 1) * _DAY_US - 1
    if m["n"]:
        n, unit = int(m["n"]), m["units"].lower().rstrip("s")
        days = n * {"day": 1, "week": 7, "month": 30}[unit]
        return start - days * _DAY_US, now
    unit, back = m["unit"].lower(), 0 if m["which"].lower() == "this" else 1
    if unit == "week":  # (weeks begin on Monday, as ISO 8601 has them)
        monday = start - today.weekday() * _DAY_US - back * 7 * _DAY_US
        return monday, monday + 7 * _DAY_US - 1
    if unit == "year":
        return _months(today.year - back, 1, 12)
    size = 3 if unit == "quarter" else 1
    index = (today.year * 12 + today.month - 1) // size - back  # (months or quarters since year 0)
    first = index * size
    return _months(first // 12, first % 12 + 1, first % 12 + size)


def period(text: str, now: int | None = None) -> Period | None:
    """The first period *text* names in calendar words, or None; with *now* (µs) also one
    counted back from it ("last week")."""
    found = _absolute(text)
    if found is not None or now is None:
        return found
    m = _RELATIVE.search(text)
    if m is None:
        return None
    since, until = _relative(m, now)
    return since, until, m.group(0).strip()


def _absolute(text: str) -> Period | None:
    for pattern in _PATTERNS:
        m = pattern.search(text)
        if m is None:
            continue
        groups = m.groupdict()
        year = int(next(g for g in m.groups() if g is not None and g.isdigit() and len(g) == 4))
        if groups.get("m1"):
            first = _MONTHS[groups["m1"].lower()]
            last = _MONTHS[groups["m2"].lower()] if groups.get("m2") else first
            if last < first:
                continue
        elif groups.get("part"):
            first, last = _PARTS[" ".join(groups["part"].lower().split())]
        else:
            first, last = 1, 12
        since, until = _months(year, first, last)
        return since, until, m.group(0).strip()
    return None
