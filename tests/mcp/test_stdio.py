"""``omegad-mcp`` as an agent runs it: a subprocess speaking MCP over stdio."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from ..helpers import Daemon
from .bridge import call

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_subprocess(shared_daemon: Daemon, ns: str, tmp_path: Path, mode: str) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "omegad_mcp"],
        env={"OMEGAD_SOCKET": str(shared_daemon.socket), "OMEGAD_NAMESPACE": ns},
        cwd=tmp_path,
    )
    async with Client(params, mode=mode) as c:
        assert c.server_info is not None and c.server_info.name == "omegad"
        assert len((await c.list_tools()).tools) == 9
        stored = await call(c, "memory_store", {"text": "Feature flags live in LaunchDarkly", "type": "fact"})
        assert stored["namespace"] == ns
        hits = (await call(c, "memory_query", {"query": "where are feature flags?"}))["results"]
        assert hits[0]["id"] == stored["id"] and hits[0]["metadata"] == {"project": tmp_path.name}
        missing = await c.call_tool("memory_get", {"id": "no-such-memory"})
        assert missing.is_error and "not found" in missing.content[0].text  # type: ignore[union-attr]
