"""The command line's memory commands (list, show, edit, delete, feedback, resolve,
namespaces) against a real daemon, run as a user would: a subprocess per command."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..helpers import Daemon
from ..helpers import omegad_cli as omegad


def _store(sock: str, ns: str, text: str, *extra: str) -> str:
    out = omegad("store", text, "--namespace", ns, "--socket", sock, *extra)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()[1]


def _editor(tmp_path: Path, body: str) -> dict[str, str]:
    """An $EDITOR that writes *body* into the file it is given."""
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\nopen(sys.argv[1], 'w').write({body!r})\n")
    return {"EDITOR": f"{sys.executable} {script}", "VISUAL": ""}


def test_list_pages_newest_first_and_namespaces(shared_daemon: Daemon, ns: str) -> None:
    sock = str(shared_daemon.socket)
    ids = [_store(sock, ns, f"Note number {i} about the deploy pipeline", "--no-wait") for i in range(3)]
    out = omegad("list", "--namespace", ns, "--socket", sock)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ids[::-1]
    assert "Note number 2" in lines[0]
    page = omegad("list", "--namespace", ns, "--limit", "2", "--socket", sock)
    assert len(page.stdout.splitlines()) == 2 and "--cursor" in page.stderr
    cursor = page.stderr.split("--cursor ")[1].split(")")[0]
    rest = omegad("list", "--namespace", ns, "--limit", "2", "--cursor", cursor, "--socket", sock)
    assert [line.split()[0] for line in rest.stdout.splitlines()] == [ids[0]]
    js = json.loads(omegad("list", "--namespace", ns, "--json", "--socket", sock).stdout)
    assert [m["id"] for m in js["memories"]] == ids[::-1] and js["next"] is None
    assert omegad("list", "--namespace", ns, "--since", "1h", "--socket", sock).stdout.count("\n") == 3
    names = omegad("namespaces", "--socket", sock)
    row = next(line for line in names.stdout.splitlines() if line.startswith(ns))
    assert row.split()[1] == "3"
    bad = omegad("list", "--namespace", ns, "--since", "yesterday-ish", "--socket", sock)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_show_and_not_found(shared_daemon: Daemon, ns: str) -> None:
    sock = str(shared_daemon.socket)
    mid = _store(sock, ns, "Billing exports run at 02:00 UTC", "--type", "fact", "--tags", "billing,cron", "--no-wait")
    out = omegad("show", mid, "--socket", sock)
    assert out.returncode == 0, out.stderr
    assert f"id:          {mid}" in out.stdout and "tags:        billing, cron" in out.stdout
    assert "Billing exports run at 02:00 UTC" in out.stdout
    missing = omegad("show", "no-such-memory", "--socket", sock)
    assert missing.returncode == 3 and missing.stdout == "" and missing.stderr.count("\n") == 1


def test_edit_saves_changes_and_nothing_else(shared_daemon: Daemon, ns: str, tmp_path: Path) -> None:
    sock = str(shared_daemon.socket)
    mid = _store(sock, ns, "Staging deploys need one approval", "--type", "fact", "--no-wait")
    same = omegad("edit", mid, "--socket", sock, env={"EDITOR": "true", "VISUAL": ""})
    assert same.returncode == 0 and same.stdout.strip() == "unchanged: nothing saved"
    body = "type: decision\ntags: deploy, staging\n---\nStaging deploys need two approvals\n"
    out = omegad("edit", mid, "--socket", sock, env=_editor(tmp_path, body))
    assert out.returncode == 0, out.stderr
    got = json.loads(omegad("show", mid, "--json", "--socket", sock).stdout)["memory"]
    assert (got["text"], got["type"], got["tags"], got["version"]) == (
        "Staging deploys need two approvals",
        "decision",
        ["deploy", "staging"],
        2,
    )
    for broken in ("type: opinion\ntags:\n---\nx\n", "type: fact\n\nStaging\n", "type: fact\ntags:\n---\n\n"):
        bad = omegad("edit", mid, "--socket", sock, env=_editor(tmp_path, broken))
        assert bad.returncode == 2 and "nothing was saved" in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr
    after = json.loads(omegad("show", mid, "--json", "--socket", sock).stdout)["memory"]
    assert after == got


def test_delete_asks_reports_and_exits_by_outcome(shared_daemon: Daemon, ns: str) -> None:
    sock = str(shared_daemon.socket)
    a = _store(sock, ns, "Old runbook for the VPN", "--no-wait")
    b = _store(sock, ns, "Old runbook for the bastion host", "--no-wait")
    refused = omegad("delete", a, "--socket", sock)  # stdin is not a terminal: never deletes silently
    assert refused.returncode == 2 and "--yes" in refused.stderr
    assert omegad("show", a, "--socket", sock).returncode == 0
    out = omegad("delete", a, "no-such-memory", "--yes", "--socket", sock)
    assert out.returncode == 3 and f"deleted {a}  Old runbook for the VPN" in out.stdout
    assert "not found: no-such-memory" in out.stderr
    assert omegad("show", a, "--socket", sock).returncode == 3
    js = json.loads(omegad("delete", b, "--yes", "--json", "--socket", sock).stdout)
    assert js == {"deleted": [b], "not_found": [], "forgotten": False}


def test_feedback_and_resolve(shared_daemon: Daemon, ns: str) -> None:
    sock = str(shared_daemon.socket)
    old = _store(sock, ns, "Dark mode is enabled by default in the desktop app.")
    new = _store(sock, ns, "Dark mode is disabled by default in the desktop app.")
    up = omegad("feedback", old, "+1", "--socket", sock)
    assert up.returncode == 0 and "feedback +" in up.stdout, up.stderr
    assert omegad("feedback", old, "lots", "--socket", sock).returncode == 2
    assert omegad("feedback", old, "7", "--socket", sock).returncode == 2  # out of range: the daemon says so
    done = omegad("resolve", new, old, "keep-new", "--socket", sock)
    assert done.returncode == 0, done.stderr
    shown = omegad("show", new, "--socket", sock).stdout
    assert f"contradicts {old}" in shown and "resolved keep_new" in shown


def test_import_markdown_is_idempotent_and_picks_up_edits(shared_daemon: Daemon, ns: str, tmp_path: Path) -> None:
    sock = str(shared_daemon.socket)
    notes = tmp_path / "notes"
    notes.mkdir()
    agents = notes / "AGENTS.md"
    agents.write_text(
        "# Build\n\n- Use pnpm, not npm.\n- Node 20 is the minimum.\n\n## Tests\n\nRun vitest in watch mode.\n"
    )
    out = omegad("import", str(notes), "--from", "markdown", "--namespace", ns, "--socket", sock)
    assert out.returncode == 0 and "3 created, 0 updated, 0 unchanged" in out.stdout, out.stderr
    again = omegad("import", str(notes), "--from", "markdown", "--namespace", ns, "--socket", sock)
    assert "0 created, 0 updated, 3 unchanged" in again.stdout
    agents.write_text(agents.read_text().replace("Node 20", "Node 22"))
    edited = omegad("import", str(notes), "--from", "markdown", "--namespace", ns, "--json", "--socket", sock)
    assert json.loads(edited.stdout) == {"files": 1, "created": 0, "updated": 1, "unchanged": 2, "redacted": 0}
    listed = json.loads(omegad("list", "--namespace", ns, "--json", "--socket", sock).stdout)["memories"]
    node = next(m for m in listed if "Node" in m["text"])
    assert node["text"] == "Node 22 is the minimum." and node["tags"] == ["build"] and node["version"] == 2
    assert node["metadata"]["source"] == {"format": "markdown", "file": "AGENTS.md", "line": 4}

    # one bad file in the folder: refused with its line, and nothing of the good one stored
    other = f"{ns}-bad"
    (notes / "broken.md").write_bytes(b"- fine\n- caf\xe9\n")
    bad = omegad("import", str(notes), "--from", "markdown", "--namespace", other, "--socket", sock)
    assert bad.returncode == 2 and "broken.md:2: not UTF-8" in bad.stderr
    assert json.loads(omegad("list", "--namespace", other, "--json", "--socket", sock).stdout)["memories"] == []


def test_import_of_a_file_with_a_secret_stores_it_redacted_and_stays_idempotent(
    shared_daemon: Daemon, ns: str, tmp_path: Path
) -> None:
    sock = str(shared_daemon.socket)
    token = "ghp_" + "".join(chr(ord("A") + (i * 11) % 26) for i in range(36))  # made up, GitHub-shaped
    notes = tmp_path / "CLAUDE.md"
    notes.write_text(f"# Release\n\n- The release bot pushes tags with {token}\n- Tags are signed.\n")
    first = omegad("import", str(notes), "--from", "markdown", "--namespace", ns, "--json", "--socket", sock)
    assert json.loads(first.stdout) == {"files": 1, "created": 2, "updated": 0, "unchanged": 0, "redacted": 1}
    again = omegad("import", str(notes), "--from", "markdown", "--namespace", ns, "--socket", sock)
    assert again.stdout.strip() == (  # (the file still holds it: said on every import)
        "imported 1 file(s): 0 created, 0 updated, 2 unchanged; 1 secret redacted (docs/secrets.md)"
    )
    listed = json.loads(omegad("list", "--namespace", ns, "--json", "--socket", sock).stdout)["memories"]
    bot = next(m for m in listed if "release bot" in m["text"])
    assert token not in bot["text"] and "[redacted:github_token]" in bot["text"] and bot["version"] == 1


def test_store_and_edit_say_what_was_redacted(shared_daemon: Daemon, ns: str, tmp_path: Path) -> None:
    sock = str(shared_daemon.socket)
    token = "ghp_" + "".join(chr(ord("a") + (i * 7) % 26) for i in range(36))  # made up, GitHub-shaped
    text = f"The release bot pushes with {token}"
    out = omegad("store", text, "--namespace", ns, "--no-wait", "--socket", sock)
    assert out.returncode == 0, out.stderr
    mid, note = out.stdout.split()[1], out.stdout.splitlines()[1]
    start = text.index(token)
    assert note == f"redacted before storing: github_token in text (characters {start}-{start + len(token)})"
    assert token not in out.stdout
    plain = omegad("store", "Tags are signed", "--namespace", ns, "--no-wait", "--socket", sock)
    assert plain.stdout.count("\n") == 1  # (nothing redacted: nothing said)
    edited = omegad("edit", mid, "--socket", sock, env=_editor(tmp_path, f"type: fact\ntags:\n---\nnow {token}\n"))
    assert edited.returncode == 0, edited.stderr
    assert edited.stdout.splitlines()[1] == "redacted before storing: github_token in text (characters 4-44)"


def test_history_show_as_of_and_forget(shared_daemon: Daemon, ns: str, tmp_path: Path) -> None:
    sock = str(shared_daemon.socket)
    mid = _store(sock, ns, "Deploys go out on Mondays", "--type", "decision", "--no-wait")
    env = _editor(tmp_path, "type: decision\ntags: deploy\n---\nDeploys go out on Wednesdays\n")
    assert omegad("edit", mid, "--socket", sock, env=env).returncode == 0
    out = omegad("history", mid, "--socket", sock)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and "replaced" in lines[0] and "Mondays" in lines[0]
    assert "current" in lines[1] and "Wednesdays" in lines[1]
    first = json.loads(omegad("history", mid, "--json", "--socket", sock).stdout)["versions"][0]["updated_at"]
    shown = omegad("show", mid, "--socket", sock)
    assert f"1 earlier version(s): omegad history {mid}" in shown.stdout
    then = omegad("show", mid, "--as-of", first, "--socket", sock)
    assert then.returncode == 0 and "Deploys go out on Mondays" in then.stdout and "as of:" in then.stdout
    old = omegad("query", "when do deploys go out", "--namespace", ns, "--as-of", "1d", "--socket", sock)
    assert old.returncode == 0 and "Mondays" not in old.stdout  # it did not exist a day ago
    assert omegad("show", mid, "--as-of", "1d", "--socket", sock).returncode == 3
    bad = omegad("show", mid, "--as-of", "soon", "--socket", sock)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert omegad("delete", mid, "--yes", "--socket", sock).returncode == 0
    assert "deleted" in omegad("history", mid, "--socket", sock).stdout
    gone = omegad("delete", mid, "--yes", "--forget", "--socket", sock)
    assert gone.returncode == 0 and gone.stdout.startswith(f"forgot {mid}")
    assert omegad("history", mid, "--socket", sock).returncode == 3
