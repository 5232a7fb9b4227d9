"""``omegad import --from omega|mem0`` against a real daemon, run as a user would."""

from __future__ import annotations

import json
from pathlib import Path

from ..helpers import Daemon
from ..helpers import omegad_cli as omegad

DATA = Path(__file__).parent.parent / "data" / "imports"


def _listed(sock: str, ns: str) -> list[dict[str, object]]:
    out = omegad("list", "--namespace", ns, "--json", "--socket", sock)
    assert out.returncode == 0, out.stderr
    memories: list[dict[str, object]] = json.loads(out.stdout)["memories"]
    return memories


def test_import_mem0_and_omega_is_idempotent_picks_up_changes_and_refuses_bad_files(
    shared_daemon: Daemon, ns: str, tmp_path: Path
) -> None:
    sock = str(shared_daemon.socket)
    export = tmp_path / "mem0-qdrant-export.json"
    export.write_text((DATA / "mem0-migration-export.json").read_text())

    def run(*extra: str) -> str:
        out = omegad("import", str(export), "--from", "mem0", "--namespace", ns, "--socket", sock, *extra)
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert "imported 3 mem0 record(s): 3 created, 0 updated, 0 unchanged" in run()
    assert "0 created, 0 updated, 3 unchanged" in run()

    doc = json.loads(export.read_text())
    doc["records"][0]["memory"] = "User likes dark mode, except in the mornings"
    export.write_text(json.dumps(doc, indent=2))
    assert json.loads(run("--json")) == {"records": 3, "created": 0, "updated": 1, "unchanged": 2, "redacted": 0}

    listed = {m["id"]: m for m in _listed(sock, ns)}
    dark = listed[f"mem0-0f8b6a2e-3c1d-4e5f-9a7b-1c2d3e4f5a6b@{ns}"]
    assert dark["text"] == "User likes dark mode, except in the mornings" and dark["version"] == 2
    assert dark["created_at"].startswith("2026-05-01T00:00:00")  # type: ignore[union-attr]
    assert dark["type"] == "fact"
    source = dark["metadata"]["source"]  # type: ignore[index]
    assert source["user_id"] == "alice" and source["metadata"] == {"topic": "preferences"}

    # OMEGA's export into the same namespace: its own ids, its types and tags
    out = omegad("import", str(DATA / "omega-export.json"), "--from", "omega", "--namespace", ns, "--socket", sock)
    assert out.returncode == 0 and "4 created, 0 updated, 0 unchanged" in out.stdout, out.stderr
    decision = next(m for m in _listed(sock, ns) if m["id"] == f"omega-mem-3f9c2a1b7d4e@{ns}")
    assert (decision["type"], decision["tags"]) == ("decision", ["postgres", "database"])
    assert decision["created_at"].startswith("2026-01-14T09:12:33")  # type: ignore[union-attr]

    # a malformed file: refused with its place, exit code 2, and nothing of it stored
    other = f"{ns}-bad"
    for name, fmt, where in (
        ("omega-no-content.json", "omega", "nodes[2].content: is required"),
        ("omega-bad-json.json", "omega", "omega-bad-json.json:26: not valid JSON"),
        ("mem0-wrong-type.json", "mem0", "records[1].user_id: expected a string"),
    ):
        bad = omegad("import", str(DATA / name), "--from", fmt, "--namespace", other, "--socket", sock)
        assert bad.returncode == 2 and where in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr
    assert _listed(sock, other) == []
