"""Times as the daemon stores them: integer microseconds since the Unix epoch (UTC), exact in
both directions, and their ISO 8601 text for replies and logs."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

__all__ = ["from_micros", "iso", "now_us", "to_micros"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_micros(dt: datetime) -> int:
    """Exact (no float rounding: a time read back from `iso` gives the same integer)."""
    return (dt - _EPOCH) // timedelta(microseconds=1)


def from_micros(us: int) -> datetime:
    """Exact too: through a float, 9999-12-31T23:59:59.999999 rounded into year 10000."""
    return _EPOCH + timedelta(microseconds=us)


def iso(us: int) -> str:
    return from_micros(us).isoformat().replace("+00:00", "Z")


def now_us() -> int:
    return time.time_ns() // 1000
