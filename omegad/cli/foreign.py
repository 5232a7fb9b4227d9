"""``omegad import --from omega|mem0``: the JSON export files of two other agent-memory tools.

- ``omega``: what ``omega export FILE`` writes (omega-memory 0.10.6, ``SQLiteStore.export_to_file``:
  ``{"version": "omega-sqlite-v1", ..., "nodes": [...]}``), or ``omega export FILE --type T``
  (a bare array of nodes).
- ``mem0``: the ``mem0_oss_qdrant_export`` file of mem0's ``scripts/oss-to-platform-migrate.sh``
  (``{"records": [...]}``), a saved ``get_all()`` reply (``{"results": [...]}``), or a bare array
  of memory items.

Each record becomes one memory, its id derived from the tool's own id and the namespace, so a
second import changes nothing and a changed record is updated. The whole file is read and
checked before anything is stored; an error names the line (bad JSON) or the JSON path of the
bad value (``nodes[3].content``). The formats and their sources: docs/cli.md, "Importing from
OMEGA and mem0".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from omegad.cli.memories import print_json
from omegad.cli.upsert import redactions_summary, upsert
from omegad.requests import DEFAULT_NAMESPACE
from omegad.rpc.fields import ID_RE, MAX_METADATA_DEPTH, MAX_TAG_CHARS, MAX_TAGS
from omegad_client.protocol import MEMORY_TYPES

__all__ = ["FORMATS", "ForeignError", "Record", "apply", "parse", "record_id", "run"]

#: The ``--from`` values this module reads.
FORMATS = ("omega", "mem0")
_NAMES = {"omega": "OMEGA", "mem0": "mem0"}
_WANTED: dict[type, str] = {str: "a string", list: "an array", dict: "an object"}
_T = TypeVar("_T")

#: OMEGA's event types (``omega.types.AutoCaptureEventType``) that have a counterpart here;
#: any other becomes a ``fact`` and keeps its name in ``metadata.source.type``.
_OMEGA_TYPES = {
    "memory": "memory",
    "decision": "decision",
    "lesson_learned": "lesson",
    "error_pattern": "error",
    "user_preference": "preference",
    "session_summary": "session",
    "checkpoint": "session",
    "reminder": "todo",
}
#: mem0 has no memory types: ``metadata.type`` (a convention of its docs) and the Platform's
#: ``user_preferences`` category are the only hints.
_MEM0_TYPES = {"preference": "preference", "preferences": "preference", "user_preferences": "preference"}
#: Fields of a mem0 memory item kept in ``metadata.source`` (``MemoryItem`` plus the promoted
#: payload keys of ``Memory.get_all`` and the Platform's extra fields).
_MEM0_KEPT = (
    "hash",
    "user_id",
    "agent_id",
    "run_id",
    "app_id",
    "actor_id",
    "role",
    "categories",
    "score",
    "updated_at",
    "expiration_date",
)


class ForeignError(ValueError):
    """A file that cannot be imported; the message names the file and the line or JSON path."""


@dataclass(frozen=True, slots=True)
class Record:
    format: str  # "omega" or "mem0"
    original_id: str | None  # the tool's own id, if the record has one
    text: str
    type: str
    tags: tuple[str, ...]
    created_at: str | None  # ISO-8601, UTC
    source: dict[str, Any]  # stored as metadata["source"]

    @property
    def metadata(self) -> dict[str, Any]:
        return {"source": self.source}


def parse(data: bytes, name: str, fmt: str) -> list[Record]:
    """The records of one export file of *fmt* (*name* is used in errors)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ForeignError(f"{name}:{line}: not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise ForeignError(f"{name}: the file is empty; expected {_NAMES[fmt]}'s JSON export")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ForeignError(f"{name}:{exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})") from None
    items, where = _records_of(doc, name, fmt)
    out: list[Record] = []
    seen: dict[str, str] = {}
    for i, item in enumerate(items):
        path = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise ForeignError(f"{name}: {path}: expected an object, got {_kind(item)}")
        record = _omega(item, name, path) if fmt == "omega" else _mem0(item, name, path)
        key = record.original_id if record.original_id is not None else "\x00" + record.text
        if key in seen:
            what = f"id {record.original_id!r}" if record.original_id is not None else "text (and no id)"
            raise ForeignError(f"{name}: {path}: the same {what} as {seen[key]}")
        seen[key] = path
        out.append(record)
    return out


def _records_of(doc: Any, name: str, fmt: str) -> tuple[list[Any], str]:
    """The array of records and its JSON path ("nodes", "records", "results" or "")."""
    if isinstance(doc, list):
        return doc, ""
    keys = ("nodes",) if fmt == "omega" else ("records", "results")
    if isinstance(doc, dict):
        for key in keys:
            if key in doc:
                if not isinstance(doc[key], list):
                    raise ForeignError(f"{name}: {key}: expected an array, got {_kind(doc[key])}")
                return doc[key], key
    wanted = " or ".join(f'"{k}"' for k in keys)
    raise ForeignError(
        f"{name}: expected {_NAMES[fmt]}'s export: an object with a {wanted} array, or an array of "
        f"memories; got {_kind(doc) if not isinstance(doc, dict) else 'an object without them'}"
    )


def _omega(item: dict[str, Any], name: str, path: str) -> Record:
    """One node of ``omega export``: id, content, metadata, created_at, access_count,
    last_accessed, ttl_seconds."""
    f = _Fields(item, name, path)
    text = f.text("content")
    their_id = f.ident("id")
    meta = f.mapping("metadata") or {}
    event = _optional(meta.get("event_type") or meta.get("type"), str, name, f"{path}.metadata.event_type")
    tags = _optional(meta.get("tags"), list, name, f"{path}.metadata.tags") or []
    source: dict[str, Any] = {"format": "omega", "id": their_id}
    type_ = _OMEGA_TYPES.get(event or "memory") or (event if event in MEMORY_TYPES else "fact")
    if event is not None:
        source["type"] = event
    if meta:
        source["metadata"] = meta
    ttl = f.number("ttl_seconds")
    if ttl is not None:
        source["ttl_seconds"] = ttl
    # access_count and last_accessed are left out: they change whenever OMEGA reads a memory,
    # so keeping them would make every re-import of a fresh export update everything.
    return Record(
        "omega", their_id, text, type_, _tags(tags, name, f"{path}.metadata.tags"), f.time("created_at"), source
    )


def _mem0(item: dict[str, Any], name: str, path: str) -> Record:
    """One mem0 memory item: id, memory, hash, metadata, created_at, updated_at, and the
    promoted keys (user_id, agent_id, run_id, actor_id, role); Platform items add categories."""
    f = _Fields(item, name, path)
    text = f.text("memory")
    their_id = f.ident("id")
    meta = f.mapping("metadata")
    categories = _optional(item.get("categories"), list, name, f"{path}.categories") or []
    tags = _tags(categories, name, f"{path}.categories")
    hint = _optional((meta or {}).get("type"), str, name, f"{path}.metadata.type")
    type_ = "fact"
    if hint is not None:
        type_ = hint if hint in MEMORY_TYPES else _MEM0_TYPES.get(hint, "fact")
    elif "user_preferences" in tags:
        type_ = "preference"
    source: dict[str, Any] = {"format": "mem0", "id": their_id}
    for key in _MEM0_KEPT:
        value = item.get(key)
        if value is None or (key == "categories" and not value):
            continue
        if key == "score":
            f.number(key)
        elif key != "categories":
            _optional(value, str, name, f"{path}.{key}")
        source[key] = value
    if meta:
        source["metadata"] = meta
    return Record("mem0", their_id, text, type_, tags, f.time("created_at"), source)


class _Fields:
    """Reads the fields of one record, failing with the record's JSON path."""

    def __init__(self, item: dict[str, Any], name: str, path: str) -> None:
        self.item, self.name, self.path = item, name, path

    def fail(self, key: str, message: str) -> ForeignError:
        return ForeignError(f"{self.name}: {self.path}.{key}: {message}")

    def text(self, key: str) -> str:
        value = self.item.get(key)
        if value is None:
            raise self.fail(key, "is required (the memory's text)")
        if not isinstance(value, str):
            raise self.fail(key, f"expected a string, got {_kind(value)}")
        if not value.strip():
            raise self.fail(key, "is empty")
        if "\x00" in value:
            raise self.fail(key, "holds a NUL character")
        return value.strip()

    def ident(self, key: str) -> str | None:
        value = self.item.get(key)
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool):  # Qdrant point ids may be numbers
            return str(value)
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"expected a non-empty string, got {_kind(value)}")
        return value

    def mapping(self, key: str) -> dict[str, Any] | None:
        value = _optional(self.item.get(key), dict, self.name, f"{self.path}.{key}")
        if value is not None:
            # stored as metadata.source.<key>: two levels below the top of the metadata
            _check_json(value, self.name, f"{self.path}.{key}", 2)
        return value

    def number(self, key: str) -> int | float | None:
        value = self.item.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"expected a number, got {_kind(value)}")
        _check_json(value, self.name, f"{self.path}.{key}", 2)
        return value

    def time(self, key: str) -> str | None:
        value = self.item.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(key, f"expected an ISO-8601 time, got {_kind(value)}")
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise self.fail(key, f"not an ISO-8601 time: {value[:64]!r}") from None
        if parsed.tzinfo is None:  # both tools write UTC when they leave the zone out
            parsed = parsed.replace(tzinfo=UTC)
        parsed = parsed.astimezone(UTC)
        if parsed.year < 1970:
            raise self.fail(key, f"a time before 1970: {value[:64]!r}")
        return parsed.isoformat()


def _optional(value: Any, kind: type[_T], name: str, path: str) -> _T | None:
    if value is not None and not isinstance(value, kind):
        wanted = _WANTED[kind]
        raise ForeignError(f"{name}: {path}: expected {wanted}, got {_kind(value)}")
    return value


def _tags(values: list[Any], name: str, path: str) -> tuple[str, ...]:
    """Their tags as ours: trimmed, cut to 64 characters, without repeats, at most 32 (the
    originals stay in the source metadata)."""
    out: list[str] = []
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise ForeignError(f"{name}: {path}[{i}]: expected a string, got {_kind(value)}")
        tag = "".join(c if ord(c) >= 32 else " " for c in value).strip()[:MAX_TAG_CHARS].strip()
        if tag and tag not in out:
            out.append(tag)
    return tuple(out[:MAX_TAGS])


def _check_json(value: Any, name: str, path: str, depth: int) -> None:
    """What the daemon accepts in metadata (`omegad.rpc.fields`), checked before anything is
    stored so that a bad record cannot stop an import half-way."""
    if depth > MAX_METADATA_DEPTH:
        raise ForeignError(f"{name}: {path}: nested too deep to keep ({MAX_METADATA_DEPTH} levels in all)")
    if isinstance(value, float) and not math.isfinite(value):
        raise ForeignError(f"{name}: {path}: NaN and infinities cannot be kept")
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**63:
        raise ForeignError(f"{name}: {path}: integer out of the 64-bit range")
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check_json(item, name, f"{path}[{i}]", depth + 1)
    elif isinstance(value, dict):
        for k, item in value.items():
            _check_json(item, name, f"{path}.{k}", depth + 1)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return {int: "a number", float: "a number", str: "a string", list: "an array", dict: "an object"}.get(
        type(value), type(value).__name__
    )


def record_id(namespace: str, record: Record) -> str:
    """``omega-<their id>@<namespace>`` (ids are global, so the namespace is part of it: the
    same file imported into two namespaces gives two memories). An id outside our charset, or
    too long, and a record without an id (then its text is the key), are hashed."""
    if record.original_id is not None:
        readable = f"{record.format}-{record.original_id}@{namespace}"
        if ID_RE.fullmatch(readable):
            return readable
        key = "id\x1f" + record.original_id
    else:
        key = "text\x1f" + record.text
    digest = hashlib.sha256("\x1f".join((record.format, namespace, key)).encode()).hexdigest()
    return f"{record.format}-{digest[:32]}"


def apply(client: Any, records: list[Record], namespace: str | None) -> dict[str, int]:
    """Store or update every record; returns counts. Records already stored with the same
    text, type, tags and metadata are left alone."""
    ns = namespace or DEFAULT_NAMESPACE
    totals = {"created": 0, "updated": 0, "unchanged": 0}
    kinds: list[str] = []
    for r in records:
        mid = record_id(ns, r)
        meta, tags = r.metadata, list(r.tags)
        totals[upsert(client, mid, r.text, r.type, tags, meta, namespace, r.created_at, kinds)] += 1
    totals["redacted"] = len(kinds)  # secrets replaced (docs/secrets.md)
    return totals


def run(client: Any, args: argparse.Namespace) -> int:
    """``omegad import PATH --from omega|mem0``: read and check the whole file, then store."""
    name = "<stdin>" if args.path == "-" else args.path
    try:
        data = sys.stdin.buffer.read() if args.path == "-" else Path(args.path).read_bytes()
        records = parse(data, name, args.source)
    except (ForeignError, OSError) as exc:
        print(f"omegad: {exc}", file=sys.stderr)
        return 2
    totals = apply(client, records, args.namespace)
    if args.json:
        print_json({"records": len(records), **totals})
    else:
        print(
            f"imported {len(records)} {_NAMES[args.source]} record(s): {totals['created']} created, "
            f"{totals['updated']} updated, {totals['unchanged']} unchanged{redactions_summary(totals)}"
        )
    return 0
