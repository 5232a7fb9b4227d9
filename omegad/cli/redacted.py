"""What the daemon stores of a text and metadata it redacted (docs/secrets.md): the importers
compare a record with the stored memory as it would be stored, or a record holding a secret
would look changed, and be updated, on every import."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["as_stored"]

_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def as_stored(
    text: str, metadata: Mapping[str, Any] | None, redacted: list[Mapping[str, Any]]
) -> tuple[str, Mapping[str, Any] | None]:
    """*text* and *metadata* with the reply's ``redacted`` spans replaced as the daemon did."""
    if not redacted:
        return text, metadata
    meta = copy.deepcopy(dict(metadata)) if metadata is not None else None
    by_field: dict[str, list[Mapping[str, Any]]] = {}
    for r in redacted:
        by_field.setdefault(str(r["field"]), []).append(r)
    for field, spans in by_field.items():
        if field == "text":
            text = _replace(text, spans)
        elif field.startswith("metadata") and meta is not None:
            steps = [m.group(1) if m.group(1) is not None else int(m.group(2)) for m in _STEP.finditer(field[8:])]
            parent: Any = meta
            for step in steps[:-1]:
                parent = parent[step]
            parent[steps[-1]] = _replace(parent[steps[-1]], spans)
    return text, meta


def _replace(value: str, spans: list[Mapping[str, Any]]) -> str:
    for r in sorted(spans, key=lambda r: -int(r["start"])):
        value = value[: int(r["start"])] + f"[redacted:{r['kind']}]" + value[int(r["end"]) :]
    return value
