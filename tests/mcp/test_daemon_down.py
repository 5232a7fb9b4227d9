"""The bridge without a daemon: it starts, lists its tools, answers every call with the way to
start omegad, and picks the daemon up when it comes (and again after a restart)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client

from omegad_mcp.server import Settings, build_server

from ..helpers import Daemon
from .bridge import call, call_error

pytestmark = pytest.mark.anyio

ONE_CALL_EACH: dict[str, dict[str, Any]] = {
    "memory_query": {"query": "how do we deploy?"},
    "memory_store": {"text": "We deploy on Fridays"},
    "memory_get": {"id": "abc"},
    "memory_list": {},
    "memory_update": {"id": "abc", "text": "new"},
    "memory_delete": {"id": "abc"},
    "memory_contradictions": {},
    "memory_resolve": {"newer_id": "abc", "older_id": "def", "resolution": "keep_new"},
    "memory_feedback": {"id": "abc", "score": 1},
}


async def test_daemon_down_then_started_then_restarted(daemon_factory: Callable[..., Daemon], tmp_path: Path) -> None:
    daemon = daemon_factory()
    settings = Settings(daemon.socket, "t-down", tmp_path)
    async with Client(build_server(settings)) as c, Client(build_server(settings)) as other:
        assert {t.name for t in (await c.list_tools()).tools} == set(ONE_CALL_EACH)
        for tool, args in ONE_CALL_EACH.items():
            text = await call_error(c, tool, args)
            assert "omegad is not running" in text and str(daemon.socket) in text, text
            assert "`omegad serve`" in text and "`omegad service install`" in text, text

        daemon.start()
        stored = await call(c, "memory_store", {"text": "We deploy on Fridays"})
        assert stored["namespace"] == "t-down"
        assert (await call(other, "memory_get", {"id": stored["id"]}))["id"] == stored["id"]

        # A restart breaks both bridges' connections: the next call opens a new one, whether
        # it may be sent twice (get) or not (feedback: the old connection is pinged first).
        assert daemon.stop() == 0
        daemon.start()
        assert (await call(c, "memory_get", {"id": stored["id"]}))["text"] == "We deploy on Fridays"
        assert (await call(other, "memory_feedback", {"id": stored["id"], "score": 1}))["ratings"] == 1

        assert daemon.stop() == 0
        assert "omegad is not running" in await call_error(c, "memory_list", {})
