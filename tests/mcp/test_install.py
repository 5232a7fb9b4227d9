"""``omegad mcp install``: each client's file, merged with what is there, never clobbered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from omegad_mcp.install import InstallError, bridge_command, install

COMMAND = bridge_command()


class Env:
    """A project directory and a home directory, and `install` run between them."""

    def __init__(self, tmp_path: Path) -> None:
        self.project = tmp_path / "proj"
        self.home = tmp_path / "home"
        self.project.mkdir()
        self.home.mkdir()
        self.out: list[str] = []

    def install(self, client: str, scope: str = "project", **kwargs: Any) -> int:
        self.out.clear()
        return install(
            client,
            scope,
            cwd=self.project,
            home=self.home,
            environ={"CODEX_HOME": str(self.home / "codex-home")},
            out=self.out.append,
            **kwargs,
        )


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return Env(tmp_path)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def unchanged(path: Path, text: str, mtime: int) -> bool:
    return path.read_text() == text and path.stat().st_mtime_ns == mtime


@pytest.mark.parametrize(
    ("client", "relpath", "key", "entry"),
    [
        ("claude-code", ".mcp.json", "mcpServers", {"type": "stdio", "command": COMMAND, "args": []}),
        ("cursor", ".cursor/mcp.json", "mcpServers", {"command": COMMAND, "args": []}),
        ("vscode", ".vscode/mcp.json", "servers", {"type": "stdio", "command": COMMAND, "args": []}),
    ],
)
def test_json_configs_keep_other_servers_and_reinstall_changes_nothing(
    env: Env, client: str, relpath: str, key: str, entry: dict[str, Any]
) -> None:
    other = {"command": "npx", "args": ["-y", "some-server"], "env": {"TOKEN": "x"}}
    path = write(env.project / relpath, json.dumps({key: {"other": other}, "inputs": [{"id": "a"}]}, indent=4))
    assert env.install(client) == 0
    doc = json.loads(path.read_text())
    assert doc == {key: {"other": other, "omegad": entry}, "inputs": [{"id": "a"}]}
    assert env.out[0].startswith(f"updated {path}") and len(env.out) == 2  # + the client's next step

    text, mtime = path.read_text(), path.stat().st_mtime_ns
    assert env.install(client) == 0
    assert unchanged(path, text, mtime) and "already set up" in env.out[0]


@pytest.mark.parametrize("client", ["claude-code", "cursor", "vscode"])
@pytest.mark.parametrize(
    ("text", "line"), [('{\n  "mcpServers": {},\n}\n', 3), ('{\n  // mine\n  "servers": {}\n}', 2), ("[1, 2", 1)]
)
def test_an_unparseable_json_file_is_refused_and_left_alone(env: Env, client: str, text: str, line: int) -> None:
    relpath = {"claude-code": ".mcp.json", "cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json"}[client]
    path = write(env.project / relpath, text)
    mtime = path.stat().st_mtime_ns
    with pytest.raises(InstallError) as error:
        env.install(client)
    assert f"cannot parse {path}, line {line}" in str(error.value) and "Nothing was written" in str(error.value)
    assert COMMAND in str(error.value)  # the entry to add by hand
    assert unchanged(path, text, mtime)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temporary file left


def test_json_that_is_not_an_object_of_servers_is_refused(env: Env) -> None:
    write(env.project / ".mcp.json", '{"mcpServers": ["x"]}')
    with pytest.raises(InstallError, match="should be an object of servers"):
        env.install("claude-code")
    write(env.project / ".mcp.json", "[]")
    with pytest.raises(InstallError, match="expected a JSON object"):
        env.install("claude-code")


def test_user_scope_files(env: Env) -> None:
    assert env.install("cursor", "user") == 0
    cursor = env.home / ".cursor" / "mcp.json"
    assert json.loads(cursor.read_text()) == {"mcpServers": {"omegad": {"command": COMMAND, "args": []}}}
    assert cursor.stat().st_mode & 0o777 == 0o600

    # ~/.claude.json holds much more than servers, and its mode is kept
    claude = write(env.home / ".claude.json", json.dumps({"numStartups": 3, "projects": {"/x": {"mcpServers": {}}}}))
    claude.chmod(0o640)
    assert env.install("claude-code", "user") == 0
    doc = json.loads(claude.read_text())
    assert doc["numStartups"] == 3 and doc["projects"] == {"/x": {"mcpServers": {}}}
    assert doc["mcpServers"]["omegad"]["command"] == COMMAND
    assert claude.stat().st_mode & 0o777 == 0o640


def test_vscode_user_scope_gives_the_code_command(env: Env) -> None:
    with pytest.raises(InstallError, match="code --add-mcp"):
        env.install("vscode", "user")
    assert env.install("vscode", "user", print_only=True) == 0
    (line,) = env.out
    assert line.startswith("code --add-mcp '") and json.loads(line.split("'")[1]) == {
        "name": "omegad",
        "type": "stdio",
        "command": COMMAND,
        "args": [],
    }


def test_print_writes_nothing(env: Env) -> None:
    assert env.install("claude-code", print_only=True) == 0
    assert not (env.project / ".mcp.json").exists()
    assert (
        env.out[0]
        == f"# would be merged into {env.project / '.mcp.json'} (Claude Code, project scope); nothing written"
    )
    assert json.loads("\n".join(env.out[1:])) == {
        "mcpServers": {"omegad": {"type": "stdio", "command": COMMAND, "args": []}}
    }
    codex = write(env.home / "codex-home" / "config.toml", 'model = "o3"\n')
    assert env.install("codex", "user", print_only=True) == 0
    assert codex.read_text() == 'model = "o3"\n'
    assert tomllib.loads("\n".join(env.out[1:])) == {"mcp_servers": {"omegad": {"command": COMMAND, "args": []}}}


def test_socket_and_namespace_go_into_the_entrys_env(env: Env, tmp_path: Path) -> None:
    assert env.install("cursor", socket=tmp_path / "d.sock", namespace="shared") == 0
    entry = json.loads((env.project / ".cursor" / "mcp.json").read_text())["mcpServers"]["omegad"]
    assert entry["env"] == {"OMEGAD_SOCKET": str(tmp_path / "d.sock"), "OMEGAD_NAMESPACE": "shared"}
    with pytest.raises(InstallError, match="invalid namespace"):
        env.install("cursor", namespace="no spaces")


def test_a_symlinked_config_is_written_through_the_link(env: Env, tmp_path: Path) -> None:
    real = write(tmp_path / "dotfiles" / "mcp.json", '{"mcpServers": {"other": {"command": "x"}}}')
    (env.home / ".cursor").mkdir()
    (env.home / ".cursor" / "mcp.json").symlink_to(real)
    assert env.install("cursor", "user") == 0
    assert (env.home / ".cursor" / "mcp.json").is_symlink()
    assert set(json.loads(real.read_text())["mcpServers"]) == {"other", "omegad"}


CODEX_CONFIG = """\
# my Codex settings
model = "o3"
approval_policy = "on-request"

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = { GITHUB_TOKEN = "t" }

[mcp_servers.omegad]
command = "/old/omegad-mcp"
args = []
startup_timeout_sec = 30

[mcp_servers.omegad.env]
OMEGAD_NAMESPACE = "mine"

# profiles below
[profiles.fast]
model = "o4-mini"
matrix = [
  [1, 2],
  ["a"],
]
"""


def test_codex_replaces_only_its_table_and_keeps_its_other_settings(env: Env) -> None:
    path = write(env.home / "codex-home" / "config.toml", CODEX_CONFIG)
    before = tomllib.loads(CODEX_CONFIG)
    assert env.install("codex", "user") == 0
    text = path.read_text()
    after = tomllib.loads(text)
    assert after["mcp_servers"]["omegad"] == {
        "command": COMMAND,
        "args": [],
        "startup_timeout_sec": 30,  # settings the installer does not write stay
        "env": {"OMEGAD_NAMESPACE": "mine"},
    }
    assert {k: v for k, v in after.items() if k != "mcp_servers"} == {
        k: v for k, v in before.items() if k != "mcp_servers"
    }
    assert after["mcp_servers"]["github"] == before["mcp_servers"]["github"]
    # the rest of the file is the same text, comments included
    head, tail = CODEX_CONFIG.split("[mcp_servers.omegad]\n")[0], CODEX_CONFIG.split('OMEGAD_NAMESPACE = "mine"\n')[1]
    table = (
        f"[mcp_servers.omegad]\ncommand = {json.dumps(COMMAND)}\nargs = []\nstartup_timeout_sec = 30\n"
        'env = { OMEGAD_NAMESPACE = "mine" }\n'
    )
    assert text == head + table + tail

    mtime = path.stat().st_mtime_ns
    assert env.install("codex", "user") == 0
    assert unchanged(path, text, mtime) and "already set up" in env.out[0]


def test_codex_appends_to_a_file_without_the_table_and_creates_a_project_file(env: Env) -> None:
    path = write(env.home / "codex-home" / "config.toml", 'model = "o3"\n[profiles.x]\nmodel = "y"')
    assert env.install("codex", "user") == 0
    assert tomllib.loads(path.read_text()) == {
        "model": "o3",
        "profiles": {"x": {"model": "y"}},
        "mcp_servers": {"omegad": {"command": COMMAND, "args": []}},
    }
    assert env.install("codex") == 0
    project_file = env.project / ".codex" / "config.toml"
    assert tomllib.loads(project_file.read_text()) == {"mcp_servers": {"omegad": {"command": COMMAND, "args": []}}}
    assert "trust" in env.out[-1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('model = "o3"\n[mcp_servers.github\ncommand = "x"\n', "line 2"),  # unparseable
        ('[mcp_servers]\nomegad.command = "x"\n', "does not edit"),  # dotted keys
        ('mcp_servers = { omegad = { command = "x" } }\n', "does not edit"),  # an inline table
        ("mcp_servers = 3\n", "should be a table"),
    ],
)
def test_codex_refuses_what_it_cannot_edit_safely(env: Env, text: str, message: str) -> None:
    path = write(env.home / "codex-home" / "config.toml", text)
    mtime = path.stat().st_mtime_ns
    with pytest.raises(InstallError, match=message) as error:
        env.install("codex", "user")
    assert str(path) in str(error.value)
    assert unchanged(path, text, mtime)


def omegad(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "omegad", *args], cwd=cwd, env=environ, capture_output=True, text=True, timeout=120
    )


def test_the_omegad_mcp_install_command(env: Env) -> None:
    done = omegad("mcp", "install", "--client", "claude-code", "--print", cwd=env.project, home=env.home)
    assert done.returncode == 0, done.stderr
    assert "mcpServers" in done.stdout and not (env.project / ".mcp.json").exists()

    done = omegad("mcp", "install", "--client", "cursor", "--scope", "user", cwd=env.project, home=env.home)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {env.home / '.cursor' / 'mcp.json'} (Cursor, user scope)")
    assert json.loads((env.home / ".cursor" / "mcp.json").read_text())["mcpServers"]["omegad"]["command"] == COMMAND

    write(env.project / ".mcp.json", "{oops")
    done = omegad("mcp", "install", "--client", "claude-code", cwd=env.project, home=env.home)
    assert done.returncode == 1 and f"cannot parse {env.project / '.mcp.json'}, line 1" in done.stderr
    assert (env.project / ".mcp.json").read_text() == "{oops"
