"""Driving the bridge in process with the SDK's client."""

from __future__ import annotations

from typing import Any

from mcp.client import Client

__all__ = ["call", "call_error"]


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    """The tool's structured result; fails the test on a tool error."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def call_error(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    """The text of the tool error the call must give."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    text: str = result.content[0].text  # type: ignore[union-attr]
    assert text.startswith(f"Error executing tool {tool}: "), text
    # a crash would come as a bare "Error executing tool X": every error here has a reason
    assert len(text) > len(f"Error executing tool {tool}: ") + 10, text
    return text
