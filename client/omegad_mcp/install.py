"""``omegad mcp install``: put the bridge into an agent's own MCP configuration.

| client | project scope | user scope | servers under |
|---|---|---|---|
| Claude Code | ``.mcp.json`` | ``~/.claude.json`` | ``mcpServers`` |
| Cursor | ``.cursor/mcp.json`` | ``~/.cursor/mcp.json`` | ``mcpServers`` |
| VS Code | ``.vscode/mcp.json`` | (its profile: ``code --add-mcp``) | ``servers`` |
| Codex | ``.codex/config.toml`` | ``$CODEX_HOME/config.toml`` (``~/.codex``) | ``[mcp_servers.omegad]`` |

The project is the git top-level directory of the working directory, else the directory
itself. Every other server and setting in the file is kept; so are settings of an existing
``omegad`` entry that the installer does not write (an added env variable, Codex's
timeouts). A file that does not parse is refused, naming the file and line, and nothing is
written; the new file replaces the old one atomically. Standard library only: the daemon's
CLI imports this module without the ``mcp`` extra.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import re
import shutil
import stat
import sys
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from ._project import valid_namespace, working_project

__all__ = ["CLIENTS", "SCOPES", "SERVER_NAME", "InstallError", "Plan", "bridge_command", "install", "plan"]

CLIENTS = ("claude-code", "cursor", "vscode", "codex")
SCOPES = ("project", "user")
#: The name of the bridge's entry in every client's configuration.
SERVER_NAME = "omegad"

_TITLES = {"claude-code": "Claude Code", "cursor": "Cursor", "vscode": "VS Code", "codex": "Codex"}
_NEXT_STEP = {
    ("claude-code", "project"): "Claude Code asks you to approve project servers when it next starts here "
    "(`claude mcp list` shows the state).",
    ("claude-code", "user"): "Claude Code starts it in every project from its next session (`claude mcp list`).",
    ("cursor", "project"): "Cursor picks it up when it next opens this project (Settings → MCP lists its tools).",
    ("cursor", "user"): "Cursor picks it up on its next start (Settings → MCP lists its tools).",
    ("vscode", "project"): "In VS Code, run 'MCP: List Servers' (or open .vscode/mcp.json) and start omegad.",
    ("codex", "project"): "Codex reads .codex/config.toml only in a project you trust; for every project use "
    "--scope user. `codex mcp list` shows it.",
    ("codex", "user"): "Codex starts it from its next session (`codex mcp list` shows it).",
}


class InstallError(Exception):
    """The configuration cannot be written; the message says why and what to do."""


@dataclass(frozen=True)
class Plan:
    """What an install would do to one file."""

    client: str
    scope: str
    path: Path
    #: The whole new file; None when the entry is already there as it would be written.
    text: str | None
    #: The bridge's entry alone, in the file's format: what ``--print`` shows.
    snippet: str

    @property
    def changed(self) -> bool:
        return self.text is not None


# -- where, and what -----------------------------------------------------------------------


def config_path(client: str, scope: str, *, project_dir: Path, home: Path, env: Mapping[str, str]) -> Path:
    if client not in CLIENTS:
        raise InstallError(f"unknown client {client!r}; one of: {', '.join(CLIENTS)}")
    if scope == "project":
        return (
            project_dir
            / {
                "claude-code": ".mcp.json",
                "cursor": ".cursor/mcp.json",
                "vscode": ".vscode/mcp.json",
                "codex": ".codex/config.toml",
            }[client]
        )
    if scope != "user":
        raise InstallError(f"unknown scope {scope!r}; one of: {', '.join(SCOPES)}")
    if client == "claude-code":
        return home / ".claude.json"
    if client == "cursor":
        return home / ".cursor" / "mcp.json"
    if client == "codex":
        codex_home = env.get("CODEX_HOME")
        return (Path(codex_home).expanduser() if codex_home else home / ".codex") / "config.toml"
    raise AssertionError(client)  # vscode: see `install`


def bridge_command() -> str:
    """The absolute path of ``omegad-mcp``: the one next to this Python, else on PATH."""
    beside = Path(sys.executable).parent / "omegad-mcp"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside.absolute())
    found = shutil.which("omegad-mcp")
    if found:
        return str(Path(found).absolute())
    raise InstallError(
        f"omegad-mcp not found next to {sys.executable} nor on PATH: install it with "
        "`pip install 'omegad-client[mcp]'` (in the environment omegad runs from)"
    )


def server_entry(client: str, command: str, env: Mapping[str, str]) -> dict[str, Any]:
    """The bridge's entry as *client* expects it."""
    entry: dict[str, Any] = {"command": command, "args": []}
    if client in ("claude-code", "vscode"):
        entry = {"type": "stdio", **entry}
    if env:
        entry["env"] = dict(env)
    return entry


def _merged(old: Any, new: dict[str, Any]) -> dict[str, Any]:
    """*new* over an existing entry: its other settings stay, env variables are added to."""
    if not isinstance(old, dict):
        return new
    merged = {**old, **new}
    if isinstance(old.get("env"), dict):
        merged["env"] = {**old["env"], **new.get("env", {})}
    return merged


# -- JSON ------------------------------------------------------------------------------------


def _json_dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def _plan_json(path: Path, text: str | None, key: str, entry: dict[str, Any]) -> tuple[str | None, str]:
    doc: Any = {}
    if text is not None and text.strip():
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            hint = " (comments and trailing commas are not JSON)" if path.name == "mcp.json" else ""
            raise InstallError(
                f"cannot parse {path}, line {exc.lineno} column {exc.colno}: {exc.msg}{hint}. Nothing was "
                f"written: fix the file, or add this to it by hand:\n{_json_dump({key: {SERVER_NAME: entry}})}"
            ) from None
    if not isinstance(doc, dict):
        raise InstallError(f"{path}: expected a JSON object at the top level, found {type(doc).__name__}")
    servers = doc.setdefault(key, {})
    if not isinstance(servers, dict):
        raise InstallError(f'{path}: "{key}" should be an object of servers, found {type(servers).__name__}')
    new_entry = _merged(servers.get(SERVER_NAME), entry)
    snippet = _json_dump({key: {SERVER_NAME: new_entry}})
    if servers.get(SERVER_NAME) == new_entry:
        return None, snippet
    servers[SERVER_NAME] = new_entry
    return _json_dump(doc), snippet


# -- TOML (Codex) ----------------------------------------------------------------------------
# tomllib reads but does not write, and no TOML writer is a dependency: the ``[mcp_servers.omegad]``
# table (with its sub-tables) is replaced as text, or appended, and the result is parsed back
# and must equal the old file's data with only that table changed.

_TABLE = ("mcp_servers", SERVER_NAME)
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _toml_table(entry: Mapping[str, Any]) -> str:
    lines = [f"[{'.'.join(_toml_key(k) for k in _TABLE)}]"]
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"


def _header_path(line: str) -> tuple[str, ...] | None:
    """The key path of a table header line (``[a."b"]``, ``[[a.b]]``); None for other lines."""
    if not line.lstrip().startswith("["):
        return None
    try:
        node: Any = tomllib.loads(line + "\n")
    except tomllib.TOMLDecodeError:
        return None  # e.g. a line of a multi-line array
    path: list[str] = []
    while isinstance(node, dict | list) and node:
        if isinstance(node, list):
            node = node[0]
            continue
        ((key, node),) = node.items()
        path.append(key)
    return tuple(path) or None


def _plan_toml(path: Path, text: str | None, entry: dict[str, Any]) -> tuple[str | None, str]:
    text = text or ""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InstallError(
            f"cannot parse {path}: {exc}. Nothing was written: fix the file, or add this to it by hand:\n"
            f"{_toml_table(entry)}"
        ) from None
    servers = data.get("mcp_servers", {})
    if not isinstance(servers, dict):
        raise InstallError(f"{path}: mcp_servers should be a table of servers")
    new_entry = _merged(servers.get(SERVER_NAME), entry)
    try:
        table = _toml_table(new_entry)
    except TypeError as exc:
        raise InstallError(
            f"{path}: the existing [mcp_servers.omegad] holds a value this installer cannot rewrite ({exc})"
        ) from None
    if servers.get(SERVER_NAME) == new_entry:
        return None, table

    lines = text.splitlines(keepends=True)
    headers = [(i, p) for i, line in enumerate(lines) if (p := _header_path(line)) is not None]
    insert_at: int | None = None
    for n, (start, hpath) in enumerate(headers):
        if hpath[: len(_TABLE)] != _TABLE:
            continue
        end = headers[n + 1][0] if n + 1 < len(headers) else len(lines)
        # Comments and blank lines just above the next header belong to it.
        while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
            end -= 1
        if insert_at is None:
            insert_at = start
        else:  # a sub-table further down: the blank lines that set it apart go with it
            while start > 0 and lines[start - 1] and not lines[start - 1].strip():
                start -= 1
        for i in range(start, end):
            lines[i] = ""
    if insert_at is not None:
        lines[insert_at] = table
    else:
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        if lines and lines[-1].strip():
            lines.append("\n")
        lines.append(table)
    new_text = "".join(lines)

    expected = dict(data)
    expected["mcp_servers"] = {**servers, SERVER_NAME: new_entry}
    try:
        same = tomllib.loads(new_text) == expected
    except tomllib.TOMLDecodeError:
        same = False
    if not same:
        raise InstallError(
            f"{path}: [mcp_servers.omegad] is written in a form this installer does not edit (dotted keys or "
            f"an inline table). Nothing was written: replace it by hand with:\n{table}"
        )
    return new_text, table


# -- writing ---------------------------------------------------------------------------------


def write_atomic(path: Path, text: str, *, new_mode: int = 0o644) -> None:
    """Replace *path* by a file holding *text*: a temporary file in the same directory, then
    a rename, so a reader never sees half a file. A symlinked file (dotfile managers) is
    written through the link; an existing file keeps its mode."""
    target = path.resolve() if path.is_symlink() else path
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else new_mode
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def plan(
    client: str,
    scope: str,
    *,
    command: str,
    env: Mapping[str, str],
    project_dir: Path,
    home: Path,
    environ: Mapping[str, str],
) -> Plan:
    """What installing the bridge for *client* would write (reads the file, writes nothing)."""
    path = config_path(client, scope, project_dir=project_dir, home=home, env=environ)
    try:
        text: str | None = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}") from None
    entry = server_entry(client, command, env)
    if client == "codex":
        new_text, snippet = _plan_toml(path, text, entry)
    else:
        new_text, snippet = _plan_json(path, text, "servers" if client == "vscode" else "mcpServers", entry)
    return Plan(client, scope, path, new_text, snippet)


def install(
    client: str,
    scope: str | None = None,
    *,
    print_only: bool = False,
    socket: Path | None = None,
    namespace: str | None = None,
    cwd: Path | None = None,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    out: Callable[[str], None] = print,
) -> int:
    """``omegad mcp install``; raises `InstallError` for what the user must fix."""
    environ = os.environ if environ is None else environ
    scope = scope or "project"
    env: dict[str, str] = {}
    if socket is not None:
        env["OMEGAD_SOCKET"] = str(socket.expanduser().absolute())
    if namespace is not None:
        if not valid_namespace(namespace):
            raise InstallError(
                f"invalid namespace {namespace!r}: 1-128 characters, letters, digits and . _ : @ / -, "
                "starting with a letter or digit"
            )
        env["OMEGAD_NAMESPACE"] = namespace
    command = bridge_command()
    if importlib.util.find_spec("mcp") is None:
        message = (
            f"{command} needs the MCP SDK: `pip install 'omegad-client[mcp]'` in the environment of {sys.executable}"
        )
        if not print_only:
            raise InstallError(message)
        out(f"# warning: {message}")
    if client == "vscode" and scope == "user":
        spec = json.dumps({"name": SERVER_NAME, **server_entry(client, command, env)}, ensure_ascii=False)
        add = f"code --add-mcp '{spec}'"
        if print_only:
            out(add)
            return 0
        raise InstallError(f"VS Code keeps user-level MCP servers in its profile; add the bridge there with:\n  {add}")
    project_dir = working_project(cwd or Path.cwd()).directory
    p = plan(
        client,
        scope,
        command=command,
        env=env,
        project_dir=project_dir,
        home=home or Path.home(),
        environ=environ,
    )
    where = f"{_TITLES[client]}, {scope} scope"
    if print_only:
        state = "would be merged into" if p.changed else "already holds this, nothing to change in"
        out(f"# {state} {p.path} ({where}); nothing written")
        out(p.snippet.rstrip("\n"))
        return 0
    if not p.changed:
        out(f"omegad is already set up in {p.path} ({where}): nothing changed")
    else:
        existed = p.path.exists()
        assert p.text is not None
        write_atomic(p.path, p.text, new_mode=0o600 if scope == "user" else 0o644)
        out(f"{'updated' if existed else 'wrote'} {p.path} ({where}): server omegad runs {command}")
    out(_NEXT_STEP[(client, scope)])
    if socket is None and environ.get("OMEGAD_SOCKET"):
        out("note: OMEGAD_SOCKET is set here; if the agent does not inherit it, install again with --socket")
    return 0
