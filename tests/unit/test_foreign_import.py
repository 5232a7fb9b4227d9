"""Reading OMEGA and mem0 export files into records (`omegad.cli.foreign.parse`). The fixtures
in tests/data/imports follow the files those tools write (docs/cli.md, "Importing from OMEGA
and mem0")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omegad.cli.foreign import ForeignError, Record, parse, record_id
from omegad.rpc.fields import ID_RE

DATA = Path(__file__).parent.parent / "data" / "imports"


def _parse(name: str, fmt: str) -> list[Record]:
    return parse((DATA / name).read_bytes(), name, fmt)


def test_omega_export_nodes_become_records_with_their_type_tags_and_time() -> None:
    records = _parse("omega-export.json", "omega")
    assert [(r.type, r.tags, r.created_at) for r in records] == [
        ("decision", ("postgres", "database"), "2026-01-14T09:12:33.481920+00:00"),
        ("lesson", (), "2026-01-15T11:02:09.000112+00:00"),
        ("preference", (), "2026-01-20T08:00:00+00:00"),
        ("fact", (), "2026-02-01T16:45:10.500000+00:00"),  # git_merge has no counterpart
    ]
    first, merge = records[0], records[3]
    assert first.text.startswith("Use PostgreSQL 16") and first.original_id == "mem-3f9c2a1b7d4e"
    assert first.metadata["source"] == {
        "format": "omega",
        "id": "mem-3f9c2a1b7d4e",
        "type": "decision",
        "metadata": {
            "event_type": "decision",
            "session_id": "sess-8d2f41",
            "project": "/home/dev/billing",
            "tags": ["postgres", "database"],
            "_embedding_model": "bge-small-en-v1.5",
            "_embedding_model_version": "v1.5",
        },
    }
    # the unknown type is kept; access counts (which change on every read in OMEGA) are not
    assert merge.source["type"] == "git_merge" and merge.source["ttl_seconds"] == 1209600
    assert "access_count" not in merge.source and "last_accessed" not in merge.source


def test_omega_export_of_one_type_is_a_bare_array_with_the_same_ids() -> None:
    (one,) = _parse("omega-export-type.json", "omega")
    full = _parse("omega-export.json", "omega")[0]
    assert (one.text, one.type, one.tags, one.created_at) == (full.text, full.type, full.tags, full.created_at)
    assert record_id("webapp", one) == record_id("webapp", full) == "omega-mem-3f9c2a1b7d4e@webapp"


def test_mem0_migration_export_keeps_scope_ids_and_metadata() -> None:
    records = _parse("mem0-migration-export.json", "mem0")
    assert [(r.text, r.type, r.created_at) for r in records] == [
        ("User likes dark mode", "fact", "2026-05-01T00:00:00+00:00"),
        ("User prefers concise answers", "fact", None),  # no time in the export: the import's
        ("Is a vegetarian and allergic to nuts", "fact", "2026-04-13T01:22:05.104221+00:00"),  # to UTC
    ]
    assert records[0].source == {
        "format": "mem0",
        "id": "0f8b6a2e-3c1d-4e5f-9a7b-1c2d3e4f5a6b",
        "hash": "6f1ed002ab5595859014ebf0951522d9",
        "user_id": "alice",
        "agent_id": "agent-1",
        "run_id": "run-1",
        "actor_id": "actor-1",
        "role": "user",
        "updated_at": "2026-05-01T00:00:00Z",
        "metadata": {"topic": "preferences"},
    }
    assert "source_payload" not in json.dumps(records[0].metadata)  # a copy of the fields above


def test_mem0_get_all_reply_categories_become_tags() -> None:
    travel, food = _parse("mem0-get-all.json", "mem0")
    assert (travel.type, travel.tags) == ("fact", ("travel",))
    assert (food.type, food.tags) == ("preference", ("food", "user_preferences"))
    assert food.source["metadata"] == {"type": "preference"} and food.source["categories"] == [
        "food",
        "user_preferences",
    ]
    # a bare array of memory items (what a script saving get_all()["results"] writes) reads the same
    items = json.loads((DATA / "mem0-get-all.json").read_text())["results"]
    assert parse(json.dumps(items).encode(), "items.json", "mem0") == [travel, food]


def test_ids_are_readable_when_they_fit_and_hashed_when_not() -> None:
    rec = _parse("mem0-get-all.json", "mem0")[0]
    assert record_id("default", rec) == "mem0-f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c@default"
    assert record_id("other", rec) != record_id("default", rec)
    odd = parse(b'[{"id": "has space/\\u00e9", "memory": "x"}]', "f", "mem0")[0]
    long = parse(json.dumps([{"id": "a" * 130, "memory": "x"}]).encode(), "f", "mem0")[0]
    numeric = parse(b'[{"id": 17, "memory": "x"}]', "f", "mem0")[0]
    no_id = parse(b'[{"content": "a note without an id"}]', "f", "omega")[0]
    for r in (odd, long, numeric, no_id):
        assert ID_RE.fullmatch(record_id("default", r))
    assert record_id("default", numeric) == "mem0-17@default"
    assert record_id("default", odd).startswith("mem0-") and "@" not in record_id("default", odd)
    assert record_id("default", no_id) == record_id(
        "default", parse(b'[{"content": "a note without an id"}]', "g", "omega")[0]
    )


def test_tags_are_trimmed_cut_and_capped() -> None:
    tags = ["  db  ", "db", "x" * 80, "tab\there", ""] + [f"t{i}" for i in range(40)]
    (rec,) = parse(json.dumps([{"id": "m", "content": "c", "metadata": {"tags": tags}}]).encode(), "f", "omega")
    assert rec.tags[:3] == ("db", "x" * 64, "tab here") and len(rec.tags) == 32
    assert rec.source["metadata"]["tags"] == tags  # the originals are kept


@pytest.mark.parametrize(
    ("name", "fmt", "message"),
    [
        ("omega-bad-json.json", "omega", r"omega-bad-json.json:26: not valid JSON: Expecting ',' delimiter"),
        ("omega-no-content.json", "omega", r"omega-no-content.json: nodes\[2\].content: is required"),
        (
            "mem0-wrong-type.json",
            "mem0",
            r"mem0-wrong-type.json: records\[1\].user_id: expected a string, got a number",
        ),
        ("empty.json", "omega", r"empty.json: the file is empty"),
        ("omega-export.json", "mem0", r'expected mem0\'s export: an object with a "records" or "results" array'),
        ("mem0-get-all.json", "omega", r'expected OMEGA\'s export: an object with a "nodes" array'),
    ],
)
def test_malformed_files_are_refused_with_the_place(name: str, fmt: str, message: str) -> None:
    with pytest.raises(ForeignError, match=message):
        _parse(name, fmt)


@pytest.mark.parametrize(
    ("data", "fmt", "message"),
    [
        (b'{"nodes": {"id": "m"}}', "omega", r"f: nodes: expected an array, got an object"),
        (b'{"nodes": [{"id": "m", "content": "ok"}, 3]}', "omega", r"f: nodes\[1\]: expected an object, got a number"),
        (b'[{"id": "m", "content": "   "}]', "omega", r"\[0\].content: is empty"),
        (b'[{"id": "m", "content": 5}]', "omega", r"\[0\].content: expected a string, got a number"),
        (b'[{"id": "m", "content": "c", "metadata": []}]', "omega", r"\[0\].metadata: expected an object"),
        (
            b'[{"id": "m", "content": "c", "metadata": {"tags": "a,b"}}]',
            "omega",
            r"\[0\].metadata.tags: expected an array",
        ),
        (
            b'[{"id": "m", "content": "c", "metadata": {"tags": [1]}}]',
            "omega",
            r"\[0\].metadata.tags\[0\]: expected a string",
        ),
        (
            b'[{"id": "m", "content": "c", "created_at": "last week"}]',
            "omega",
            r"\[0\].created_at: not an ISO-8601 time",
        ),
        (b'[{"id": "m", "content": "c", "created_at": "1969-01-01T00:00:00"}]', "omega", r"before 1970"),
        (b'[{"id": "m", "content": "c", "ttl_seconds": "1d"}]', "omega", r"\[0\].ttl_seconds: expected a number"),
        (b'[{"id": "m", "content": "c", "metadata": {"x": NaN}}]', "omega", r"\[0\].metadata.x: NaN"),
        (b'[{"id": [1], "memory": "c"}]', "mem0", r"\[0\].id: expected a non-empty string, got an array"),
        (b'[{"id": "a", "memory": "c"}, {"id": "a", "memory": "d"}]', "mem0", r"\[1\]: the same id 'a' as \[0\]"),
        (b'[{"id": "a", "memory": "c", "categories": "food"}]', "mem0", r"\[0\].categories: expected an array"),
        (b'[{"id": "a", "memory": "c", "score": "high"}]', "mem0", r"\[0\].score: expected a number"),
        (b'[{"id": "a", "text": "c"}]', "mem0", r"\[0\].memory: is required"),
        (b'[{"id": "a", "memory": "caf\xe9"}]', "mem0", r"f:1: not UTF-8"),
        (b'"just text"', "mem0", r"got a string"),
    ],
)
def test_bad_records_are_refused_with_their_json_path(data: bytes, fmt: str, message: str) -> None:
    with pytest.raises(ForeignError, match=message):
        parse(data, "f", fmt)
