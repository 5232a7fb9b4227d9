"""The command line's memory commands: ``list``, ``show``, ``edit``, ``delete``, ``feedback``,
``resolve`` and ``namespaces`` (docs/cli.md). Each prints a readable table or, with
``--json``, the daemon's reply; errors are one line with the fix, and the exit code says what
went wrong (`exit_code`)."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from typing import Any

from omegad_client import Client, OmegadError
from omegad_client.protocol import MEMORY_TYPES

__all__ = ["COMMANDS", "add_parsers", "exit_code", "print_json", "run"]

COMMANDS = ("list", "show", "edit", "delete", "feedback", "resolve", "namespaces", "history")

#: Exit codes scripts can tell apart (docs/cli.md): the daemon's error codes, grouped.
EXIT_ERROR, EXIT_USAGE, EXIT_NOT_FOUND, EXIT_FORBIDDEN = 1, 2, 3, 4
_RESOLUTIONS = {"keep-new": "keep_new", "keep-old": "keep_old", "both-valid": "both_valid"}
_RELATIVE = re.compile(r"^(\d+)([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


class UsageError(Exception):
    """A command-line value the daemon is never asked about; the message says the fix."""


def exit_code(exc: OmegadError) -> int:
    if exc.code in ("invalid_params", "bad_request", "too_large"):
        return EXIT_USAGE
    if exc.code == "not_found":
        return EXIT_NOT_FOUND
    if exc.code == "forbidden":
        return EXIT_FORBIDDEN
    return EXIT_ERROR


def add_parsers(sub: Any, client_args: Any) -> None:
    ls = sub.add_parser("list", help="list memories, newest first, one line each")
    ls.add_argument("--namespace", default=None)
    ls.add_argument("--type", action="append", default=None, choices=MEMORY_TYPES, help="repeat for several")
    ls.add_argument("--tag", action="append", default=None, help="repeat for several (any of)")
    ls.add_argument("--since", default=None, help="an ISO time, or how long ago: 30m, 12h, 7d, 2w")
    ls.add_argument("--limit", type=int, default=20, help="memories per page (1-500, default 20)")
    ls.add_argument("--cursor", default=None, help="the next page (printed after a full page)")
    client_args(ls)
    sh = sub.add_parser("show", help="one memory: every field, its contradictions, graph edges and history")
    sh.add_argument("id")
    sh.add_argument("--as-of", default=None, help="the memory as it was then: an ISO time, or how long ago (7d)")
    client_args(sh)
    hi = sub.add_parser("history", help="a memory's versions, oldest first (a deleted one's end in its tombstone)")
    hi.add_argument("id")
    client_args(hi)
    ed = sub.add_parser("edit", help="edit a memory's text, type and tags in $EDITOR")
    ed.add_argument("id")
    client_args(ed)
    de = sub.add_parser("delete", help="delete memories (asks first unless --yes)")
    de.add_argument("ids", nargs="+", metavar="ID")
    de.add_argument("--yes", action="store_true", help="do not ask")
    de.add_argument(
        "--forget", action="store_true", help="erase the history too, no tombstone (for secrets and mistakes)"
    )
    client_args(de)
    fb = sub.add_parser("feedback", help="rate a memory: +1 (useful) or -1 (wrong, noise)")
    fb.add_argument("id")
    fb.add_argument("score", help="+1, -1, or a number from -1 to 1")
    client_args(fb)
    rs = sub.add_parser("resolve", help="decide a flagged contradiction between NEW and OLD")
    rs.add_argument("new")
    rs.add_argument("old")
    rs.add_argument("resolution", choices=sorted(_RESOLUTIONS))
    client_args(rs)
    client_args(sub.add_parser("namespaces", help="the namespaces you may read, with counts"))


def run(client: Client, args: argparse.Namespace) -> int:
    commands = {
        "list": _list,
        "show": _show,
        "edit": _edit,
        "delete": _delete,
        "feedback": _feedback,
        "resolve": _resolve,
        "namespaces": _namespaces,
        "history": _history,
    }
    try:
        return commands[args.command](client, args)
    except UsageError as exc:
        print(f"omegad: {exc}", file=sys.stderr)
        return EXIT_USAGE


def print_json(value: Any) -> None:
    """A reply as ``--json`` prints it."""
    print(json.dumps(value, indent=2, ensure_ascii=False))


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())  # one line, whatever the memory holds
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def when(value: str | None) -> str | None:
    """A time argument: ISO text as given, or how long ago (30m, 12h, 7d, 2w) as ISO."""
    return _since(value)


def _since(value: str | None) -> str | None:
    if value is None:
        return None
    m = _RELATIVE.match(value.strip())
    if m is None:
        return value  # an ISO time: the daemon checks it
    ago = timedelta(**{_UNITS[m.group(2)]: int(m.group(1))})
    return (datetime.now(UTC) - ago).isoformat().replace("+00:00", "Z")


def _list(client: Client, args: argparse.Namespace) -> int:
    page = client.list(
        namespace=args.namespace,
        types=args.type,
        tags=args.tag,
        since=_since(args.since),
        cursor=args.cursor,
        limit=args.limit,
    )
    if args.json:
        print_json(page)
        return 0
    width = shutil.get_terminal_size((100, 24)).columns
    if not page["memories"]:
        print("(no memories)")
    for m in page["memories"]:
        head = f"{m['id']}  {m['type']:<10} {m['created_at'][:10]}  "
        print(head + _cut(m["text"], width - len(head)))
    if page["next"]:
        print(f"(more: add --cursor {page['next']})", file=sys.stderr)
    return 0


def _show(client: Client, args: argparse.Namespace) -> int:
    if args.as_of is not None:
        return _show_as_of(client, args)
    memory = client.get(args.id)
    edges = client.contradictions(id=args.id, limit=1000)
    graph = client.traverse(args.id, depth=1)
    versions = client.history(args.id)["versions"]
    if args.json:
        print_json({"memory": memory, "contradictions": edges, "graph": graph, "history": versions})
        return 0
    _fields(memory)
    if memory.get("ratings"):
        print(f"{'feedback:':<12} {memory['feedback']:+.2f} over {memory['ratings']} rating(s)")
    if memory.get("accesses"):
        print(f"{'recalled:':<12} {memory['accesses']} time(s)")
    if len(versions) > 1:
        print(f"{'history:':<12} {len(versions) - 1} earlier version(s): omegad history {args.id}")
    print()
    print(memory["text"])
    if edges:
        print()
        for e in edges:
            other = e["old"] if e["source"] == args.id else e["new"]
            way = "contradicts" if e["source"] == args.id else "contradicted by"
            state = f", resolved {e['resolution']}" if e["resolution"] else ""
            print(f"{way} {other['id']} ({e['confidence']:.2f}{state}): {_cut(other['text'], 80)}")
    others = [e for e in graph.get("edges", []) if e.get("kind") != "contradicts"]
    for e in others:
        print(f"{e['kind']}: {e['source']} → {e['target']}")
    return 0


def _fields(memory: dict[str, Any]) -> None:
    for key in ("id", "type", "namespace", "created_at", "updated_at", "version"):
        print(f"{key + ':':<12} {memory[key]}")
    print(f"{'tags:':<12} {', '.join(memory['tags']) or '-'}")
    if memory.get("metadata"):
        print(f"{'metadata:':<12} {json.dumps(memory['metadata'], ensure_ascii=False)}")


def _show_as_of(client: Client, args: argparse.Namespace) -> int:
    memory = client.get(args.id, as_of=when(args.as_of))
    if args.json:
        print_json({"memory": memory})
        return 0
    print(f"{'as of:':<12} {memory['as_of']}")
    _fields(memory)
    print()
    print(memory["text"])
    for key, way in (("contradicts", "contradicts"), ("contradicted_by", "contradicted by")):
        for e in memory.get(key, []):
            print(f"{way} {e['id']} ({e['confidence']:.2f}), flagged {e['at']}")
    return 0


def _history(client: Client, args: argparse.Namespace) -> int:
    reply = client.history(args.id)
    if args.json:
        print_json(reply)
        return 0
    width = shutil.get_terminal_size((100, 24)).columns
    for v in reply["versions"]:
        end = {"update": "replaced", "delete": "deleted"}.get(v["ended_by"] or "", "current")
        until = f" → {v['valid_to'][:19]}" if v["valid_to"] else ""
        head = f"v{v['version']:<3} {v['updated_at'][:19]}{until}  {end:<8}  {v['type']:<10} "
        print(head + _cut(v["text"], width - len(head)))
    return 0


_HEADER = """\
# omegad edit {id}: change the text below the line, the type or the tags, then save and quit.
# Lines starting with # are ignored. Save it unchanged to change nothing.
type: {type}
tags: {tags}
---
{text}
"""


def _parse_edit(content: str) -> tuple[str, str, list[str]]:
    lines = [line for line in content.splitlines() if not line.startswith("#")]
    if "---" not in lines:
        raise UsageError("the edited file lost its '---' line; run `omegad edit` again (nothing was saved)")
    cut = lines.index("---")
    fields: dict[str, str] = {}
    for line in lines[:cut]:
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep or key.strip() not in ("type", "tags"):
            raise UsageError(
                f"unexpected line {line!r} above '---': only 'type:' and 'tags:' go there (nothing was saved)"
            )
        fields[key.strip()] = value.strip()
    type_ = fields.get("type", "")
    if type_ not in MEMORY_TYPES:
        raise UsageError(
            f"type {type_!r} is not a memory type; use one of: {', '.join(MEMORY_TYPES)} (nothing was saved)"
        )
    tags = [t.strip() for t in fields.get("tags", "").split(",") if t.strip()]
    text = "\n".join(lines[cut + 1 :]).strip()
    if not text:
        raise UsageError("the text is empty; to remove the memory use `omegad delete` (nothing was saved)")
    return text, type_, tags


def _edit(client: Client, args: argparse.Namespace) -> int:
    memory = client.get(args.id)
    before = _HEADER.format(id=memory["id"], type=memory["type"], tags=", ".join(memory["tags"]), text=memory["text"])
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="omegad-edit-") as tmp:
        path = os.path.join(tmp, f"{memory['id']}.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(before)
        status = subprocess.run([*shlex.split(editor), path], check=False).returncode
        if status != 0:
            raise UsageError(f"the editor ({editor}) exited with status {status}; nothing was saved")
        with open(path, encoding="utf-8") as f:
            after = f.read()
    if after == before:
        print("unchanged: nothing saved")
        return 0
    text, type_, tags = _parse_edit(after)
    changes: dict[str, Any] = {}
    if text != memory["text"]:
        changes["text"] = text
    if type_ != memory["type"]:
        changes["type"] = type_
    if tags != memory["tags"]:
        changes["tags"] = tags
    if not changes:
        print("unchanged: nothing saved")
        return 0
    updated = client.update(args.id, **changes)
    if args.json:
        print_json(updated)
    else:
        print(f"updated {args.id} ({', '.join(sorted(changes))}), version {updated['version']}")
        if updated.get("redacted"):
            from omegad.cli.upsert import redaction_note

            print(redaction_note(updated["redacted"]))
    return 0


def _delete(client: Client, args: argparse.Namespace) -> int:
    found: list[dict[str, Any]] = []
    missing: list[str] = []
    for mid in dict.fromkeys(args.ids):
        try:
            found.append(client.get(mid))
        except OmegadError as exc:
            if exc.code != "not_found":
                raise
            missing.append(mid)
    if args.forget:  # a deleted memory's tombstone can be forgotten too
        gone = [mid for mid in missing if _has_history(client, mid)]
        missing = [mid for mid in missing if mid not in gone]
        found += [{"id": mid, "text": "(deleted; its history)"} for mid in gone]
    for mid in missing:
        print(f"omegad: not found: {mid}", file=sys.stderr)
    if found and not args.yes:
        if not sys.stdin.isatty():
            raise UsageError("not deleting without --yes: stdin is not a terminal to ask on")
        for m in found:
            print(f"  {m['id']}  {_cut(m['text'], 70)}")
        what = "forget (erase with their history)" if args.forget else "delete"
        answer = input(f"{what} {len(found)} memor{'y' if len(found) == 1 else 'ies'}? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("nothing deleted")
            return EXIT_ERROR
    deleted = [m for m in found if client.delete(m["id"], forget=args.forget)]
    if args.json:
        print_json({"deleted": [m["id"] for m in deleted], "not_found": missing, "forgotten": args.forget})
    else:
        verb = "forgot" if args.forget else "deleted"
        for m in deleted:
            print(f"{verb} {m['id']}  {_cut(m['text'], 70)}")
    return EXIT_NOT_FOUND if missing else 0


def _has_history(client: Client, memory_id: str) -> bool:
    try:
        client.history(memory_id)
    except OmegadError as exc:
        if exc.code != "not_found":
            raise
        return False
    return True


def _feedback(client: Client, args: argparse.Namespace) -> int:
    try:
        score = float(args.score)
    except ValueError:
        raise UsageError(f"score {args.score!r} is not a number; use +1, -1 or a number from -1 to 1") from None
    reply = client.feedback(args.id, score)
    if args.json:
        print_json(reply)
    else:
        hidden = " (hidden from queries)" if reply.get("hidden") else ""
        print(f"{args.id}: feedback {reply['feedback']:+.2f} over {reply['ratings']} rating(s){hidden}")
    return 0


def _resolve(client: Client, args: argparse.Namespace) -> int:
    edge = client.resolve(args.new, args.old, _RESOLUTIONS[args.resolution])
    if args.json:
        print_json(edge)
    else:
        print(f"resolved {args.new} → {args.old}: {args.resolution}")
    return 0


def _namespaces(client: Client, args: argparse.Namespace) -> int:
    names = client.namespaces()
    if args.json:
        print_json(names)
        return 0
    if not names:
        print("(no namespaces)")
        return 0
    width = max(len("namespace"), *(len(n["name"]) for n in names))
    print(f"{'namespace':<{width}}  {'memories':>8}  last write")
    for n in names:
        print(f"{n['name']:<{width}}  {n['memories']:>8}  {n['last_write'] or '-'}")
    return 0
