"""``omegad import --from markdown``: instruction and note files (CLAUDE.md, AGENTS.md,
GEMINI.md, .cursorrules, a folder of notes) as memories, one per bullet or short paragraph.

Headings above an item become its tags; the file and line go into its metadata. An item's id
is derived from the namespace, the file, its section and its place in the section, so
importing the same file again changes nothing, and an item edited in place is updated
(docs/cli.md, "Importing notes"). A file that cannot be read as text, or whose code fence never
closes, is refused with the line that is wrong, before anything is stored.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omegad.cli.upsert import upsert
from omegad.requests import DEFAULT_NAMESPACE

__all__ = ["Item", "MarkdownError", "apply", "files_of", "parse"]

#: Files a folder import reads: Markdown notes and the instruction files agents keep.
NOTE_FILES = ("*.md", "*.markdown", ".cursorrules", "*.mdc")
#: A paragraph longer than this is cut at sentence ends into items of about this size.
MAX_ITEM_CHARS = 1200
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_FRONT_MATTER = "---"
_TAG_CHARS = re.compile(r"[^a-z0-9]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class MarkdownError(ValueError):
    """A file that cannot be imported; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Item:
    text: str
    line: int  # 1-based line where the item starts
    section: tuple[str, ...]  # the headings above it, outermost first
    ordinal: int  # its place among the items of its section

    @property
    def tags(self) -> list[str]:
        out: list[str] = []
        for heading in self.section:
            tag = _TAG_CHARS.sub("-", heading.lower()).strip("-")[:64]
            if tag and tag not in out:
                out.append(tag)
        return out[-32:]


def files_of(path: Path) -> list[tuple[str, Path]]:
    """*path* itself, or the note files under a folder (sorted, hidden folders skipped), each
    with the name its ids are derived from: the file's name, or its path inside the folder, so
    they stay the same wherever the import runs from."""
    if path.is_file():
        return [(path.name, path)]
    if not path.is_dir():
        raise MarkdownError(f"{path}: no such file or folder")
    found = {p for pattern in NOTE_FILES for p in path.rglob(pattern) if p.is_file()}
    inside = (p.relative_to(path) for p in found)
    return sorted((r.as_posix(), path / r) for r in inside if not any(part.startswith(".") for part in r.parts[:-1]))


def parse(data: bytes, name: str) -> list[Item]:
    """The items of one file (*name* is used in errors)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise MarkdownError(f"{name}:{line}: not UTF-8 text (byte {exc.start}); save the file as UTF-8") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise MarkdownError(f"{name}:{line}: a NUL byte: this is not a text file")
    lines = text.splitlines()
    items: list[Item] = []
    section: list[tuple[int, str]] = []  # (level, heading)
    counts: dict[tuple[str, ...], int] = {}
    block: list[str] = []
    block_line = 0
    fence_line = 0
    start = 0
    if lines and lines[0].strip() == _FRONT_MATTER:  # YAML front matter (.mdc rules, notes apps)
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == _FRONT_MATTER), None)
        if end is None:
            raise MarkdownError(f"{name}:1: front matter opened with '---' is never closed")
        start = end + 1

    def flush() -> None:
        nonlocal block
        body = " ".join(part.strip() for part in block if part.strip())
        block = []
        if not body:
            return
        key = tuple(h for _, h in section)
        for piece in _pieces(body):
            counts[key] = counts.get(key, 0) + 1
            items.append(Item(piece, block_line, key, counts[key]))

    for i in range(start, len(lines)):
        raw = lines[i]
        if fence_line:
            if _FENCE.match(raw):
                fence_line = 0
            continue
        if _FENCE.match(raw):
            flush()
            fence_line = i + 1  # code is an example, not a claim: skipped
            continue
        if m := _HEADING.match(raw):
            flush()
            level = len(m.group(1))
            section = [(lv, h) for lv, h in section if lv < level] + [(level, m.group(2))]
            continue
        if not raw.strip() or raw.strip() in ("---", "***", "___"):
            flush()
            continue
        if m := _BULLET.match(raw):
            flush()
            block, block_line = [m.group(2)], i + 1
            continue
        if not block:
            block_line = i + 1
        block.append(raw)  # a paragraph line, or a bullet's continuation
    if fence_line:
        raise MarkdownError(f"{name}:{fence_line}: code fence opened here is never closed")
    flush()
    return items


def _pieces(body: str) -> Iterable[str]:
    if len(body) <= MAX_ITEM_CHARS:
        yield body
        return
    piece = ""
    for sentence in _SENTENCE_END.split(body):
        if piece and len(piece) + 1 + len(sentence) > MAX_ITEM_CHARS:
            yield piece
            piece = ""
        piece = f"{piece} {sentence}".strip()
    if piece:
        yield piece


def item_id(namespace: str, source: str, item: Item) -> str:
    digest = hashlib.sha256("\x1f".join((namespace, source, *item.section, str(item.ordinal))).encode()).hexdigest()
    return f"md-{digest[:24]}"


def apply(client: Any, files: list[tuple[str, list[Item]]], namespace: str | None, type_: str) -> dict[str, int]:
    """Store or update every item; returns counts. Items already stored with the same text,
    type and tags are left alone."""
    ns = namespace or DEFAULT_NAMESPACE
    totals = {"created": 0, "updated": 0, "unchanged": 0}
    kinds: list[str] = []
    for source, items in files:
        for item in items:
            mid = item_id(ns, source, item)
            meta: dict[str, Any] = {"source": {"format": "markdown", "file": source, "line": item.line}}
            totals[upsert(client, mid, item.text, type_, item.tags, meta, namespace, redacted=kinds)] += 1
    totals["redacted"] = len(kinds)  # secrets replaced (docs/secrets.md)
    return totals
