"""Export and import through the daemon: every field, signals and edges round-trip; import is
idempotent by id and re-embeds for another model; an export under writes is one snapshot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omegad_client import InvalidParams

from ..helpers import Daemon
from ..helpers import omegad_cli as omegad

DARK = "The team prefers dark mode in the editor."
LIGHT = "The team switched to light mode in the editor."


def fill(c, ns: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    ids = {
        "dark": c.store(DARK, type="preference", tags=["ui"], namespace=ns, created_at="2025-01-12T09:30:00.123456Z"),
        "fact": c.store(
            "The staging database is Postgres 15.", type="fact", namespace=ns, metadata={"source": "wiki", "n": 3}
        ),
        "other": c.store("Deploys happen on Tuesdays.", type="decision", namespace=ns + "-b", id="fixed-id-1"),
    }
    ids["light"] = c.store(LIGHT, type="preference", tags=["ui", "editor"], namespace=ns)
    c.flush()
    c.resolve(ids["light"], ids["dark"], "keep_new")
    c.feedback(ids["fact"], 1)
    c.feedback(ids["fact"], 0.5)
    c.query("staging database", namespace=ns, limit=1)  # one access
    return ids


def test_round_trip_to_a_fresh_daemon_and_idempotent_import(daemon_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    src: Daemon = daemon_factory(name="src").start()
    dst: Daemon = daemon_factory(name="dst").start()
    with src.client() as a, dst.client() as b:
        ids = fill(a, "bk")
        records = list(a.export_records(page=2))  # several pages
        head, body = records[0], records[1:]
        assert head["record"] == "header" and head["format"] == "omegad-export"
        assert head["embedding_model"] == a.hello()["embedding"]["model"]
        mems = [r for r in body if r["record"] == "memory"]
        edges = [r for r in body if r["record"] == "edge"]
        assert sorted(m["id"] for m in mems) == sorted(ids.values())
        assert len(edges) == 1 and body[-1]["record"] == "edge"  # edges after the memories
        r = b.import_records(body, model=head["embedding_model"])
        assert r["memories"] == {"created": 4, "updated": 0, "unchanged": 0}
        assert r["reembedded"] == 0 and r["signals"] == 1 and r["edges"] == {"imported": 1, "skipped": 0}
        for mid in ids.values():
            x, y = a.get(mid), b.get(mid)
            for key in ("text", "type", "tags", "namespace", "metadata", "created_at", "version"):
                assert x[key] == y[key], (key, x[key], y[key])
        assert b.get(ids["dark"])["created_at"] == "2025-01-12T09:30:00.123456Z"
        got = b.get(ids["fact"])
        assert got["feedback"] == 1.5 and got["ratings"] == 2 and got["accesses"] == 1
        (edge,) = b.contradictions(namespace="bk")
        assert (edge["source"], edge["target"], edge["resolution"]) == (ids["light"], ids["dark"], "keep_new")
        assert edge["signals"] == edges[0]["signals"]
        assert b.query("which database does staging use?", namespace="bk")[0]["id"] == ids["fact"]
        # again: nothing changes
        again = b.import_records(body, model=head["embedding_model"])
        assert again["memories"] == {"created": 0, "updated": 0, "unchanged": 4}
        assert b.stats()["memories"] == 4
        # a changed text comes in as an update with a new version
        changed = dict(next(m for m in mems if m["id"] == ids["fact"]), text="The staging database is Postgres 16.")
        upd = b.import_records([changed], model=head["embedding_model"])
        assert upd["memories"]["updated"] == 1 and upd["reembedded"] == 0
        assert b.get(ids["fact"])["version"] == 2


def test_export_is_one_snapshot_while_writes_and_maintenance_go_on(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        first = c.store_batch([{"text": f"snapshot memory {i}", "namespace": ns} for i in range(7)])
        page = c.export(namespace=ns, limit=3)
        seen = [r["id"] for r in page["records"]]
        late = c.store("written after the snapshot", namespace=ns)
        assert c.delete(first[6]) is True
        assert c.update(first[5], text="changed after the snapshot")["version"] == 2
        report = c.maintain()
        assert report["cleanup"] == {"skipped": "reads in flight"}  # the export holds its versions
        records = list(page["records"])
        while page["next"] is not None:
            page = c.export(namespace=ns, snapshot=page["snapshot"], offset=page["next"], limit=3)
            records += page["records"]
            seen += [r["id"] for r in page["records"] if r["record"] == "memory"]
        assert sorted(seen) == sorted(first) and late not in seen
        assert next(r for r in records if r["id"] == first[5])["text"] == "snapshot memory 5"
        with pytest.raises(InvalidParams, match="snapshot"):  # closed after the last page
            c.export(namespace=ns, snapshot=page["snapshot"], offset=3)
        assert "skipped" not in c.maintain()["cleanup"]


def test_import_reembeds_for_another_model_or_a_bad_vector(shared_daemon: Daemon, ns: str) -> None:
    with shared_daemon.client() as c:
        mid = c.store("Cache invalidation runs after every deploy.", namespace=ns)
        (record,) = [r for r in c.export_records(namespace=ns) if r["record"] == "memory"]
        ns2 = ns + "-copy"
        copy = dict(record, id="copy-1", namespace=ns2)
        r = c.import_records([copy], model="some-other/model")
        assert r["reembedded"] == 1 and r["memories"]["created"] == 1
        broken = dict(record, id="copy-2", namespace=ns2, vector="AAAAAA==")  # one float: the wrong size
        assert c.import_records([broken], model=c.hello()["embedding"]["model"])["reembedded"] == 1
        # both got real embeddings: each is found by meaning (same text: dedup keeps one per query)
        for mine in ("copy-1", "copy-2"):
            c.update(mine, tags=[mine])
            (hit,) = c.query("cache invalidation after deploys", namespace=ns2, tags=[mine], explain=True)["results"]
            assert hit["id"] == mine and hit["signals"]["cosine"] > 0.6
        assert c.get(mid)["namespace"] == ns


@pytest.mark.parametrize(
    "bad",
    [
        {"record": "memory", "text": "no id"},
        {"record": "memory", "id": "x1"},  # no text
        {"record": "memory", "id": "x1", "text": "t", "vector": "not base64!"},
        {"record": "memory", "id": "x1", "text": "t", "vector": 5},
        {"record": "memory", "id": "x1", "text": "t", "surprise": 1},
        {"record": "memory", "id": "x1", "text": "t", "feedback": 99},
        {"record": "memory", "id": "x1", "text": "t", "version": 0},
        {"record": "edge", "kind": "likes", "source": "a", "target": "b"},
        {"record": "edge", "kind": "contradicts", "source": "a", "target": "b", "resolution": "maybe"},
        {"record": "edge", "kind": "contradicts", "source": "a", "target": "b", "signals": "x"},
        {"record": "header"},
        {"text": "no record kind"},
        "a string",
    ],
)
def test_bad_import_records_are_refused_and_change_nothing(shared_daemon: Daemon, ns: str, bad: object) -> None:
    with shared_daemon.client() as c:
        before = c.stats()["memories"]
        good = {"record": "memory", "id": "fine-1", "text": "fine", "namespace": ns}
        with pytest.raises(InvalidParams):
            c.import_records([good, bad])  # type: ignore[list-item]
        assert c.stats()["memories"] == before
        with pytest.raises(InvalidParams):
            c.call("import", {"records": []})
        with pytest.raises(InvalidParams):
            c.call("import", {"records": [good, good]})  # the same id twice
        with pytest.raises(InvalidParams):
            c.call("export", {"offset": 5})  # pages after the first need the snapshot


def test_cli_export_and_import(daemon_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    src: Daemon = daemon_factory(name="clisrc").start()
    dst: Daemon = daemon_factory(name="clidst").start()
    with src.client() as a:
        ids = fill(a, "cli")
        a.update(ids["fact"], text="The staging database is Postgres 16.")  # a version in the history
    path = tmp_path / "backup.jsonl"

    out = omegad("export", str(path), "--socket", str(src.socket))
    assert out.returncode == 0, out.stderr
    assert "exported 4 memories, 1 history records and 1 edges" in out.stderr
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["record"] == "header" and len(lines) == 7
    imp = omegad("import", str(path), "--batch", "2", "--socket", str(dst.socket))
    assert imp.returncode == 0, imp.stderr
    assert "4 created, 0 updated, 0 unchanged (0 re-embedded); 1 history records; 1 edges (0 skipped)" in imp.stdout
    with dst.client() as b:
        assert [v["text"] for v in b.history(ids["fact"])["versions"]] == [
            "The staging database is Postgres 15.",
            "The staging database is Postgres 16.",
        ]
    again = omegad("import", str(path), "--socket", str(dst.socket))
    assert "0 created, 0 updated, 4 unchanged" in again.stdout
