"""Reading instruction and note files into items (`omegad.cli.markdown.parse`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from omegad.cli.markdown import MAX_ITEM_CHARS, MarkdownError, files_of, item_id, parse

CLAUDE_MD = """\
# Project notes

This repo is the billing service.
It talks to Stripe through the payments gateway.

## Commands

- Run tests with `make test`.
- Lint with ruff; the CI fails on any warning
  (including the import order).
1. Never push to main directly.

```sh
make deploy
# not an item
```

## Code style
### Python

* Type hints everywhere.
- [x] Prefer dataclasses over dicts.
"""


def test_bullets_and_paragraphs_become_items_with_their_headings_as_tags() -> None:
    items = parse(CLAUDE_MD.encode(), "CLAUDE.md")
    assert [(i.text, i.line, i.tags) for i in items] == [
        (
            "This repo is the billing service. It talks to Stripe through the payments gateway.",
            3,
            ["project-notes"],
        ),
        ("Run tests with `make test`.", 8, ["project-notes", "commands"]),
        (
            "Lint with ruff; the CI fails on any warning (including the import order).",
            9,
            ["project-notes", "commands"],
        ),
        ("Never push to main directly.", 11, ["project-notes", "commands"]),
        ("Type hints everywhere.", 21, ["project-notes", "code-style", "python"]),
        ("Prefer dataclasses over dicts.", 22, ["project-notes", "code-style", "python"]),
    ]
    # ids follow the place, not the text: an item edited in place keeps its id
    edited = parse(CLAUDE_MD.replace("make test", "make check").encode(), "CLAUDE.md")
    assert [item_id("ns", "CLAUDE.md", i) for i in edited] == [item_id("ns", "CLAUDE.md", i) for i in items]
    assert len({item_id("ns", "CLAUDE.md", i) for i in items}) == len(items)
    assert item_id("other", "CLAUDE.md", items[0]) != item_id("ns", "CLAUDE.md", items[0])


def test_front_matter_is_skipped_and_long_paragraphs_are_cut_at_sentences() -> None:
    text = "---\ndescription: rules\nglobs: *.py\n---\n" + " ".join(["This sentence is a rule."] * 120) + "\n"
    items = parse(text.encode(), "rules.mdc")
    assert len(items) > 1 and all(len(i.text) <= MAX_ITEM_CHARS for i in items)
    assert all(i.text.endswith("rule.") and i.line == 5 for i in items)
    assert [i.ordinal for i in items] == list(range(1, len(items) + 1))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"# Notes\n- fine\n- caf\xe9 in latin-1\n", "notes.md:3: not UTF-8"),
        (b"- one\n```\ncode\n", "notes.md:2: code fence opened here is never closed"),
        (b"---\ntitle: x\n- item\n", "notes.md:1: front matter"),
        (b"- one\n- two\x00\n", "notes.md:2: a NUL byte"),
    ],
)
def test_malformed_files_are_refused_with_their_line(data: bytes, message: str) -> None:
    with pytest.raises(MarkdownError, match=message):
        parse(data, "notes.md")


def test_a_folder_gives_its_note_files_named_inside_it(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / ".git").mkdir()
    for name in ("AGENTS.md", "docs/adr-1.md", ".cursorrules", ".git/notes.md", "image.png"):
        (tmp_path / name).write_text("- x\n")
    assert [name for name, _ in files_of(tmp_path)] == [".cursorrules", "AGENTS.md", "docs/adr-1.md"]
    assert files_of(tmp_path / "AGENTS.md") == [("AGENTS.md", tmp_path / "AGENTS.md")]
    with pytest.raises(MarkdownError, match="no such file or folder"):
        files_of(tmp_path / "missing")
