"""The bridge's one connection to the daemon, and the one place where daemon errors become
MCP tool errors.

The connection is opened by the first tool call, not at start: an agent's MCP client starts
the bridge with its session, whether or not the daemon runs yet. A connection found broken
(the daemon restarted) is dropped and the next call opens a new one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
from mcp.server.mcpserver.exceptions import ToolError

from omegad_client import (
    DEFAULT_TIMEOUT,
    AsyncClient,
    ClientClosed,
    ConnectionLost,
    DaemonNotRunning,
    OmegadError,
    ProtocolError,
)

__all__ = ["START_HINT", "DaemonLink", "DaemonUnreachable", "MemoryToolError", "tool_error"]

START_HINT = (
    "Start it with `omegad serve` (in a terminal), or once with `omegad service install` "
    "(a per-user service that starts at login), then call this tool again."
)

# Errors after which the connection is useless: the next call needs a new one.
_BROKEN = (ConnectionLost, ProtocolError, ClientClosed)


class MemoryToolError(ToolError):
    """A tool call that failed for a reason the agent can read and act on (the SDK passes a
    `ToolError`'s message to the agent; any other exception only as "Error executing tool").
    ``code`` and ``data`` are the daemon's error code and data (``not_running`` and
    ``connection_lost`` when there was no reply)."""

    def __init__(self, message: str, code: str = "error", data: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.data: dict[str, Any] = dict(data or {})


class DaemonUnreachable(MemoryToolError):
    """The daemon is not running, or the connection to it broke during the call."""


def tool_error(exc: OmegadError, method: str, socket_path: Path) -> MemoryToolError:
    """The tool error an agent sees for a daemon error."""
    message = exc.message
    if isinstance(exc, DaemonNotRunning):
        return DaemonUnreachable(f"omegad is not running (nothing listens at {socket_path}). {START_HINT}", exc.code)
    if isinstance(exc, ConnectionLost | ClientClosed):
        return DaemonUnreachable(
            f"the connection to omegad broke during `{method}` ({message}), so it may or may not have "
            f"taken effect: check with memory_get or memory_list. If omegad stopped: {START_HINT}",
            exc.code,
        )
    prefix = {
        "invalid_params": "invalid input",
        "too_large": "too large",
        "not_found": "not found",
        "forbidden": "not allowed",
        "unavailable": "omegad cannot do this now",
        "timeout": "omegad did not answer in time",
        "cancelled": "cancelled",
        "protocol": "omegad sent a reply this bridge cannot read (are omegad and omegad-client the same version?)",
    }.get(exc.code)
    if exc.code == "unknown_method":
        return MemoryToolError(
            f"this omegad does not serve `{method}`: upgrade the daemon ({message})", exc.code, exc.data
        )
    if prefix is None:
        return MemoryToolError(f"omegad failed [{exc.code}]: {message}", exc.code, exc.data)
    fix = exc.data.get("fix")
    text = f"{prefix}: {message}" + (f" Fix: {fix}" if isinstance(fix, str) else "")
    return MemoryToolError(text, exc.code, exc.data)


class DaemonLink:
    """The connection the tools share (the client pipelines concurrent calls on it).

    ``async with link.running():`` around the MCP server's life; `call` inside it.
    """

    def __init__(self, socket_path: Path, *, timeout: float | None = DEFAULT_TIMEOUT) -> None:
        self.socket_path = socket_path
        self.timeout = timeout
        self._tg: anyio.abc.TaskGroup | None = None
        self._client: AsyncClient | None = None
        self._release: anyio.Event | None = None
        self._lock = anyio.Lock()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[DaemonLink]:
        async with anyio.create_task_group() as tg:
            self._tg = tg
            try:
                yield self
            finally:
                self._tg = None
                self._drop(self._client)

    async def _hold(
        self, *, task_status: anyio.abc.TaskStatus[tuple[AsyncClient, anyio.Event]] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        # The client's reader task group must be entered and left by one task, and a tool
        # call's task ends with the call: the connection lives in this task instead.
        release = anyio.Event()
        async with AsyncClient(self.socket_path, timeout=self.timeout) as client:
            task_status.started((client, release))
            await release.wait()

    async def _connected(self) -> tuple[AsyncClient, bool]:
        """The open connection, or a new one (then True)."""
        async with self._lock:
            if self._client is not None:
                return self._client, False
            if self._tg is None:
                raise RuntimeError("DaemonLink.call outside `async with link.running()`")
            self._client, self._release = await self._tg.start(self._hold)
            return self._client, True

    def _drop(self, client: AsyncClient | None) -> None:
        if client is None or client is not self._client:
            return  # another call replaced it already
        if self._release is not None:
            self._release.set()
        self._client = self._release = None

    async def call(self, method: str, params: Mapping[str, Any] | None = None, *, retry: bool = True) -> Any:
        """One request; daemon errors are raised as `MemoryToolError`.

        *retry*: the request is idempotent, so after a broken connection it is sent again on
        a new one. Otherwise an old connection is first checked with ``ping``, so a daemon
        restart between tool calls never leaves the request's fate unknown.
        """
        try:
            client, fresh = await self._connected()
            if not fresh and not retry:
                try:
                    await client.ping()
                except _BROKEN:
                    self._drop(client)
                    client, _ = await self._connected()
            try:
                return await client.call(method, params or {})
            except _BROKEN:
                self._drop(client)
                if not retry:
                    raise
            client, _ = await self._connected()
            return await client.call(method, params or {})
        except OmegadError as exc:
            raise tool_error(exc, method, self.socket_path) from None
