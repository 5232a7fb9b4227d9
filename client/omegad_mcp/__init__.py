"""``omegad-mcp``: the MCP bridge that gives AI coding agents their omegad memory.

Layers, and the rule that keeps the bridge thin: it talks to the daemon only through
`omegad_client` (never the daemon package `omegad`), so it runs wherever the client does.

- `_project`: which project the bridge serves and its namespace (git, working directory,
  the MCP client's roots). Standard library only.
- `install`: writes the bridge into Claude Code's, Cursor's, VS Code's or Codex's own MCP
  configuration (``omegad mcp install``). Standard library only, so the daemon's CLI can
  import it without the ``mcp`` extra.
- `_link`: the one connection to the daemon, opened lazily and again after a restart; daemon
  errors become MCP tool errors there and nowhere else.
- `_models`: what the tools return (pydantic models: output schemas, structured content).
- `server`: the MCP server (the tools, their descriptions, hints and input bounds, the
  project's namespace per session) and its command line.

Only `server`, `_link` and `_models` import ``mcp``, ``anyio`` and ``pydantic`` (the ``mcp``
extra: ``pip install 'omegad-client[mcp]'``); `main`, the ``omegad-mcp`` command, imports
`server` when it runs. Set-up and the tools: docs/mcp.md.
"""

from __future__ import annotations

import sys

__all__ = ["main"]

# What the `mcp` extra brings; the package's own modules import nothing else outside omegad_client.
_EXTRA = frozenset({"mcp", "mcp_types", "pydantic", "pydantic_core", "anyio"})


def main() -> int:
    """``omegad-mcp``: run the server, or say how to install what it needs."""
    try:
        from .server import main as run
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in _EXTRA:
            raise
        print("omegad-mcp needs the MCP SDK: pip install 'omegad-client[mcp]'", file=sys.stderr)
        return 1
    return run()
