"""The importers' one write step (`upsert`): store a record under its derived id, or update
the memory stored under it when the record changed. A record is compared with the memory as the
daemon stores it (`as_stored`, after redacting secrets: docs/secrets.md), or a record holding
a secret would look changed, and be updated, on every import."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["as_stored", "redaction_note", "redactions_summary", "upsert"]

_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def as_stored(
    text: str, metadata: Mapping[str, Any] | None, redacted: list[Mapping[str, Any]]
) -> tuple[str, Mapping[str, Any] | None]:
    """*text* and *metadata* with the reply's ``redacted`` spans replaced as the daemon did."""
    if not redacted:
        return text, metadata
    # (imported here: the scanner's module loads detect-secrets, which an import run needs
    # only when the daemon did redact something)
    from omegad.secretscan import Finding, redact

    def replace(value: str, spans: list[Mapping[str, Any]]) -> str:
        return redact(value, [Finding(str(r["kind"]), int(r["start"]), int(r["end"])) for r in spans])

    meta = copy.deepcopy(dict(metadata)) if metadata is not None else None
    by_field: dict[str, list[Mapping[str, Any]]] = {}
    for r in redacted:
        by_field.setdefault(str(r["field"]), []).append(r)
    for field, spans in by_field.items():
        if field == "text":
            text = replace(text, spans)
        elif field.startswith("metadata") and meta is not None:
            steps = [m.group(1) if m.group(1) is not None else int(m.group(2)) for m in _STEP.finditer(field[8:])]
            parent: Any = meta
            for step in steps[:-1]:
                parent = parent[step]
            parent[steps[-1]] = replace(parent[steps[-1]], spans)
    return text, meta


def redaction_note(redacted: Sequence[Mapping[str, Any]]) -> str:
    """One line saying which secrets the daemon replaced (kinds and where, never a value)."""
    where = ", ".join(f"{r['kind']} in {r['field']} (characters {r['start']}-{r['end']})" for r in redacted)
    return f"redacted before storing: {where}"


def redactions_summary(totals: Mapping[str, int]) -> str:
    """The end of an import's summary line: how many secrets were replaced, if any."""
    n = totals.get("redacted", 0)
    return f"; {n} secret{'s' if n != 1 else ''} redacted (docs/secrets.md)" if n else ""


def upsert(
    client: Any,
    mid: str,
    text: str,
    type_: str,
    tags: Sequence[str],
    metadata: Mapping[str, Any],
    namespace: str | None,
    created_at: str | None = None,
    redacted: list[str] | None = None,
) -> str:
    """Store the record as memory *mid*, or update that memory if it differs; returns
    ``created``, ``updated`` or ``unchanged``. The kind of each secret the daemon redacted
    goes into *redacted*."""
    reply = client.store_result(
        text, type=type_, tags=tags, namespace=namespace, metadata=metadata, created_at=created_at, id=mid
    )
    if redacted is not None:
        redacted.extend(str(r["kind"]) for r in reply.get("redacted", []))
    if reply["created"]:
        return "created"
    old = client.get(mid)
    stored_text, stored_meta = as_stored(text, metadata, reply.get("redacted", []))
    if (old["text"], old["type"], old["tags"], old["metadata"]) == (stored_text, type_, list(tags), stored_meta):
        return "unchanged"
    client.update(mid, text=text, type=type_, tags=tags, metadata=metadata)
    return "updated"
