"""Every tool of the bridge, in process, against a real daemon: happy paths and errors."""

from __future__ import annotations

import subprocess
import sys
import typing

import pytest
from mcp.client import Client

from omegad_client.protocol import MEMORY_TYPES
from omegad_mcp import server as bridge_server
from omegad_mcp.server import INSTRUCTIONS, Settings, build_server

from ..helpers import Daemon
from .bridge import call, call_error

pytestmark = pytest.mark.anyio

DARK = "The user prefers dark mode in every editor"
LIGHT = "The user switched to light mode in every editor"

TOOLS = {
    # name: (read_only, destructive, idempotent)
    "memory_query": (True, False, True),
    "memory_store": (False, False, False),
    "memory_get": (True, False, True),
    "memory_list": (True, False, True),
    "memory_update": (False, True, True),
    "memory_delete": (False, True, True),
    "memory_contradictions": (True, False, True),
    "memory_resolve": (False, False, True),
    "memory_feedback": (False, False, False),
}


def stored_count(daemon: Daemon, ns: str) -> int:
    with daemon.client() as c:
        space = c.stats()["namespaces"].get(ns)
    return 0 if space is None else int(space["total"])


async def test_tools_are_listed_with_hints_bounds_and_output_schemas(settings: Settings) -> None:
    async with Client(build_server(settings), mode="legacy") as c:
        assert c.server_info is not None and c.server_info.name == "omegad"
        assert c.instructions == INSTRUCTIONS and "memory_query" in INSTRUCTIONS and "memory_store" in INSTRUCTIONS
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == set(TOOLS)
    for name, (read_only, destructive, idempotent) in TOOLS.items():
        tool = tools[name]
        hints = tool.annotations
        assert hints is not None and hints.open_world_hint is False, name
        assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (
            read_only,
            destructive,
            idempotent,
        ), name
        assert tool.title and tool.description and len(tool.description) > 80, name
        assert tool.output_schema is not None, name
    store = tools["memory_store"].input_schema["properties"]
    assert store["text"]["maxLength"] == 16_000 and store["text"]["minLength"] == 1
    assert store["tags"]["anyOf"][0]["maxItems"] == 32
    assert store["tags"]["anyOf"][0]["items"]["maxLength"] == 64
    assert set(store["type"]["anyOf"][0]["enum"]) == set(MEMORY_TYPES)
    query = tools["memory_query"].input_schema["properties"]
    assert (query["limit"]["minimum"], query["limit"]["maximum"]) == (1, 100)
    assert query["file"]["anyOf"][0]["maxLength"] == 512
    feedback = tools["memory_feedback"].input_schema["properties"]["score"]
    assert (feedback["minimum"], feedback["maximum"]) == (-1, 1)


def test_the_memory_types_are_the_protocols() -> None:
    assert typing.get_args(bridge_server.MemoryType) == MEMORY_TYPES


def test_the_bridge_never_imports_the_daemon_and_install_needs_no_sdk() -> None:
    bridge = (
        "import sys, omegad_mcp.server\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'omegad'], 'imports omegad'\n"
    )
    # The daemon's CLI imports `install`, and the daemon may be installed without the mcp extra.
    install = "import sys\nsys.modules.update(mcp=None, pydantic=None, anyio=None)\nimport omegad_mcp.install\n"
    for code in (bridge, install):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    # without the extra, the command says what to install instead of a traceback
    no_sdk = "import sys\nsys.modules.update(mcp=None)\nimport omegad_mcp\nsys.exit(omegad_mcp.main())\n"
    done = subprocess.run([sys.executable, "-c", no_sdk], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr == "omegad-mcp needs the MCP SDK: pip install 'omegad-client[mcp]'\n"


async def test_store_then_query_with_the_project_and_file_as_context(settings: Settings, shared_daemon: Daemon) -> None:
    async with Client(build_server(settings)) as c:
        stored = await call(
            c,
            "memory_store",
            {
                "text": "Webhooks are retried 5 times with backoff because the provider drops bursts",
                "type": "decision",
                "tags": ["webhooks"],
                "file": "src/hooks/retry.py",
            },
        )
        assert stored["namespace"] == settings.namespace and stored["check"] == "done"
        assert stored["contradictions"] == [] and stored["hint"] is None
        await call(c, "memory_store", {"text": "Webhook payloads are signed with HMAC-SHA256"})
        reply = await call(
            c, "memory_query", {"query": "how are webhooks retried?", "file": "hooks/retry.py", "explain": True}
        )
    assert reply["namespace"] == settings.namespace
    top = reply["results"][0]
    assert top["id"] == stored["id"] and top["type"] == "decision" and top["tags"] == ["webhooks"]
    # the bridge records where a memory came from, and passes it as the query's context
    assert top["metadata"] == {"project": settings.cwd.name, "file": "src/hooks/retry.py"}
    assert set(top["signals"]["context_match"]) == {"project", "file"}
    assert reply["trace"][0]["stage"] == "embed"
    assert stored_count(shared_daemon, settings.namespace or "") == 2


async def test_store_reports_the_contradiction_it_raised_and_resolve_settles_it(settings: Settings) -> None:
    async with Client(build_server(settings)) as c:
        old = await call(c, "memory_store", {"text": DARK, "type": "preference"})
        new = await call(c, "memory_store", {"text": LIGHT, "type": "preference"})
        (conflict,) = new["contradictions"]
        assert conflict["source"] == new["id"] and conflict["target"] == old["id"]
        assert conflict["new"]["text"] == LIGHT and conflict["old"]["text"] == DARK
        assert conflict["resolution"] is None and "memory_resolve" in new["hint"]
        assert {s["kind"] for s in conflict["signals"]} >= {"antonym"}

        hits = {h["id"]: h for h in (await call(c, "memory_query", {"query": "editor colour theme"}))["results"]}
        assert hits[old["id"]]["contradicted_by"][0]["id"] == new["id"]

        listed = await call(c, "memory_contradictions", {})
        assert [e["source"] for e in listed["contradictions"]] == [new["id"]]
        assert (await call(c, "memory_contradictions", {"id": old["id"]}))["contradictions"] == listed["contradictions"]

        text = await call_error(
            c, "memory_resolve", {"newer_id": old["id"], "older_id": new["id"], "resolution": "keep_new"}
        )
        assert "not found" in text and "newer" in text
        assert "resolution" in await call_error(
            c, "memory_resolve", {"newer_id": new["id"], "older_id": old["id"], "resolution": "maybe"}
        )
        for _ in range(2):  # idempotent
            edge = await call(
                c, "memory_resolve", {"newer_id": new["id"], "older_id": old["id"], "resolution": "keep_new"}
            )
            assert edge["resolution"] == "keep_new" and edge["resolved_at"]
        assert (await call(c, "memory_contradictions", {}))["contradictions"] == []
        settled = await call(c, "memory_contradictions", {"include_resolved": True})
        assert [e["resolution"] for e in settled["contradictions"]] == ["keep_new"]


async def test_bad_input_is_a_clear_tool_error_and_stores_nothing(settings: Settings, shared_daemon: Daemon) -> None:
    async with Client(build_server(settings)) as c:
        assert "text" in await call_error(c, "memory_store", {"text": ""})
        assert "at most 16000" in await call_error(c, "memory_store", {"text": "x" * 16_001})
        assert "type" in await call_error(c, "memory_store", {"text": "fine", "type": "opinion"})
        assert "tags" in await call_error(c, "memory_store", {"text": "fine", "tags": [f"t{i}" for i in range(33)]})
        assert "tags" in await call_error(c, "memory_store", {"text": "fine", "tags": ["x" * 65]})
        assert "namespace" in await call_error(c, "memory_store", {"text": "fine", "namespace": "no spaces"})
        # what only the daemon checks comes back as its own message
        assert "invalid input" in await call_error(c, "memory_store", {"text": "   "})
        assert "limit" in await call_error(c, "memory_query", {"query": "x", "limit": 0})
        assert "limit" in await call_error(c, "memory_query", {"query": "x", "limit": 101})
        assert "query" in await call_error(c, "memory_query", {})
        assert "score" in await call_error(c, "memory_feedback", {"id": "abc", "score": 1.5})
        assert "id" in await call_error(c, "memory_get", {"id": "has space"})
        assert "limit" in await call_error(c, "memory_list", {"limit": 101})
        assert "invalid input" in await call_error(c, "memory_list", {"cursor": "not-a-cursor"})
        assert "text" in await call_error(c, "memory_update", {"id": "abc", "text": ""})
        assert "id" in await call_error(c, "memory_delete", {"id": "../etc"})
        assert "limit" in await call_error(c, "memory_contradictions", {"limit": 0})
        assert "newer_id" in await call_error(c, "memory_resolve", {"older_id": "a", "resolution": "keep_new"})
    assert stored_count(shared_daemon, settings.namespace or "") == 0


async def test_get_update_feedback_delete(settings: Settings) -> None:
    async with Client(build_server(settings)) as c:
        stored = await call(c, "memory_store", {"text": "CI runs on every push to main", "type": "fact"})
        mid = stored["id"]
        got = await call(c, "memory_get", {"id": mid})
        assert got["text"] == "CI runs on every push to main" and got["version"] == 1
        assert got["namespace"] == settings.namespace and got["hidden"] is False

        updated = await call(c, "memory_update", {"id": mid, "text": "CI runs on every push, to any branch"})
        assert updated["text"] == "CI runs on every push, to any branch" and updated["version"] == 2
        retagged = await call(c, "memory_update", {"id": mid, "tags": ["ci"], "type": "decision"})
        assert retagged["tags"] == ["ci"] and retagged["type"] == "decision" and retagged["version"] == 2
        assert "nothing to update" in await call_error(c, "memory_update", {"id": mid})

        rated = await call(c, "memory_feedback", {"id": mid, "score": 1})
        assert rated == {"id": mid, "feedback": 1.0, "ratings": 1, "hidden": False}
        rated = await call(c, "memory_feedback", {"id": mid, "score": -0.5})
        assert rated["ratings"] == 2 and rated["feedback"] == pytest.approx(0.5)

        assert await call(c, "memory_delete", {"id": mid}) == {"id": mid, "deleted": True}
        assert await call(c, "memory_delete", {"id": mid}) == {"id": mid, "deleted": False}
        for tool, args in (
            ("memory_get", {"id": mid}),
            ("memory_update", {"id": mid, "text": "again"}),
            ("memory_feedback", {"id": mid, "score": 1}),
        ):
            text = await call_error(c, tool, args)
            assert text.startswith(f"Error executing tool {tool}: not found: ") and mid in text


async def test_list_pages_through_the_namespace(settings: Settings) -> None:
    texts = [f"Release note number {i}: nothing else" for i in range(5)]
    async with Client(build_server(settings)) as c:
        for text in texts:
            await call(c, "memory_store", {"text": text, "type": "note"})
        seen: list[str] = []
        cursor = None
        for _ in range(5):
            page = await call(c, "memory_list", {"limit": 2, **({"cursor": cursor} if cursor else {})})
            assert page["namespace"] == settings.namespace and len(page["memories"]) <= 2
            seen += [m["text"] for m in page["memories"]]
            cursor = page["next"]
            if cursor is None:
                break
        assert seen == texts[::-1]  # newest first
        oldest = await call(c, "memory_list", {"order": "oldest", "limit": 100})
        assert [m["text"] for m in oldest["memories"]] == texts and oldest["next"] is None
        assert (await call(c, "memory_list", {"types": ["decision"]}))["memories"] == []


async def test_an_explicit_namespace_argument_reads_another_project(settings: Settings, ns: str) -> None:
    async with Client(build_server(settings)) as c:
        other = ns + "-other"
        await call(c, "memory_store", {"text": "The other project deploys with Helm", "namespace": other})
        assert (await call(c, "memory_query", {"query": "how do we deploy?"}))["results"] == []
        hits = (await call(c, "memory_query", {"query": "how do we deploy?", "namespace": other}))["results"]
        assert [h["namespace"] for h in hits] == [other]


async def test_store_reports_secrets_the_daemon_redacted(settings: Settings) -> None:
    token = "ghp_" + "".join(chr(ord("a") + (i * 7) % 26) for i in range(36))  # made up, GitHub-shaped
    async with Client(build_server(settings)) as c:
        stored = await call(c, "memory_store", {"text": f"The release bot pushes tags with {token}"})
        assert [(r["field"], r["kind"]) for r in stored["redacted"]] == [("text", "github_token")]
        assert "redacted" in stored["hint"] and "never store secrets" in stored["hint"]
        got = await call(c, "memory_get", {"id": stored["id"]})
    assert token not in got["text"] and "[redacted:github_token]" in got["text"]
