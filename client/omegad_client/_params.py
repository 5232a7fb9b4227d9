"""Request parameters built from keyword arguments, shared by the sync and async clients."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

__all__ = ["item_params", "params", "time_value"]


def time_value(value: str | datetime | None) -> str | None:
    """ISO-8601 text for a time argument; naive datetimes are taken as UTC."""
    if value is None or isinstance(value, str):
        return value
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.isoformat()


def params(**kwargs: Any) -> dict[str, Any]:
    """Drop arguments left at None; turn datetimes into ISO-8601 and tuples/sets into lists."""
    out: dict[str, Any] = {}
    for key, value in kwargs.items():
        if value is None:
            continue
        if isinstance(value, datetime):
            value = time_value(value)
        elif isinstance(value, (tuple, set, frozenset)):
            value = list(value)
        out[key] = value
    return out


def item_params(items: Iterable[Mapping[str, Any] | str]) -> list[dict[str, Any]]:
    """Items of a `store_batch`: a bare string is a memory with that text."""
    out: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, str):
            out.append({"text": item})
        else:
            out.append(params(**dict(item)))
    return out


def tag_list(tags: Sequence[str] | None) -> list[str] | None:
    return None if tags is None else list(tags)
