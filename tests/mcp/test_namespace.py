"""Which namespace the bridge uses: the client's root, else the git top-level directory, else
the working directory, by name; ``--namespace`` / ``OMEGAD_NAMESPACE`` override it."""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from mcp.client.session import ClientRequestContext
from mcp_types import ErrorData, ListRootsResult, Root

from omegad_mcp import server as server_module
from omegad_mcp._project import Project, namespace_for, project_from_roots, working_project
from omegad_mcp.server import Settings, build_server, settings_from

from ..helpers import Daemon
from .bridge import call

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("name", "namespace"),
    [
        ("omegad", "omegad"),
        ("My Project (v2)", "My-Project-v2"),
        ("Café ünïcode", "Caf-n-code"),
        ("--.hidden", "hidden"),
        ("a:b@c/d_e.f", "a:b@c/d_e.f"),
        ("日本語", "default"),
        ("a日b", "a-b"),
        ("", "default"),
        ("x" * 300, "x" * 128),
    ],
)
def test_namespace_for(name: str, namespace: str) -> None:
    assert namespace_for(name) == namespace


def test_git_top_level_else_working_directory(tmp_path: Path) -> None:
    repo = tmp_path / "Some Repo"
    sub = repo / "src" / "pkg"
    sub.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30)
    assert working_project(sub) == Project(repo.resolve(), "git")
    assert working_project(sub).namespace == "Some-Repo"
    plain = tmp_path / "plain dir"
    plain.mkdir()
    assert working_project(plain) == Project(plain, "cwd")


def test_roots_are_file_directories_with_a_name() -> None:
    assert project_from_roots(["https://example.com/x", "file:///", "file:///home/u/My%20Proj"]) == Project(
        Path("/home/u/My Proj"), "roots"
    )
    assert project_from_roots(["https://example.com/x"]) is None


def test_settings_from_the_command_line_and_environment() -> None:
    env = {"OMEGAD_SOCKET": "/run/x/omegad.sock", "OMEGAD_NAMESPACE": "from-env"}
    assert settings_from([], env).namespace == "from-env"
    assert settings_from([], env).socket_path == Path("/run/x/omegad.sock")
    assert settings_from(["--namespace", "from-flag", "--socket", "/s.sock"], env).namespace == "from-flag"
    assert settings_from(["--socket", "/s.sock"], env).socket_path == Path("/s.sock")
    assert settings_from([], {"XDG_RUNTIME_DIR": "/run/u"}).namespace is None
    with pytest.raises(SystemExit) as exit_:
        settings_from(["--namespace", "not valid"], {})
    assert exit_.value.code == 2


def roots_callback(*uris: str, asked: list[int] | None = None) -> Callable[..., Awaitable[ListRootsResult]]:
    """An MCP client's answer to roots/list (counting the questions in *asked*)."""

    async def list_roots(context: ClientRequestContext) -> ListRootsResult:
        if asked is not None:
            asked.append(1)
        return ListRootsResult(roots=[Root(uri=uri) for uri in uris])  # type: ignore[arg-type]

    return list_roots


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_clients_root_names_the_namespace(shared_daemon: Daemon, tmp_path: Path, mode: str) -> None:
    tag = uuid.uuid4().hex[:8]
    asked: list[int] = []
    settings = Settings(shared_daemon.socket, None, tmp_path)
    callback = roots_callback(f"file:///home/dev/Root%20Project%20{tag}", asked=asked)
    async with Client(build_server(settings), mode=mode, list_roots_callback=callback) as c:
        stored = await call(c, "memory_store", {"text": "The build uses Bazel"})
        assert stored["namespace"] == f"Root-Project-{tag}"
        hits = (await call(c, "memory_query", {"query": "which build tool?"}))["results"]
        assert [h["id"] for h in hits] == [stored["id"]]
        assert hits[0]["metadata"] == {"project": f"Root Project {tag}"}
    assert len(asked) == 1  # asked once per session


async def test_without_roots_the_git_top_level_names_it(shared_daemon: Daemon, tmp_path: Path) -> None:
    repo = tmp_path / f"repo-{uuid.uuid4().hex[:8]}"
    (repo / "sub").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30)
    # a client that offers roots but has none (no folder open) counts as one without roots
    callback = roots_callback()
    settings = Settings(shared_daemon.socket, None, repo / "sub")
    for client in (Client(build_server(settings), list_roots_callback=callback), Client(build_server(settings))):
        async with client as c:
            assert (await call(c, "memory_list", {}))["namespace"] == repo.name


async def test_without_git_the_working_directory_names_it(shared_daemon: Daemon, tmp_path: Path) -> None:
    cwd = tmp_path / f"Plain {uuid.uuid4().hex[:8]}"
    cwd.mkdir()
    async with Client(build_server(Settings(shared_daemon.socket, None, cwd))) as c:
        assert (await call(c, "memory_store", {"text": "x is y"}))["namespace"] == cwd.name.replace(" ", "-")


async def test_a_configured_namespace_wins_over_the_roots(shared_daemon: Daemon, tmp_path: Path, ns: str) -> None:
    callback = roots_callback("file:///home/dev/elsewhere")
    async with Client(build_server(Settings(shared_daemon.socket, ns, tmp_path)), list_roots_callback=callback) as c:
        stored = await call(c, "memory_store", {"text": "Logs are JSON lines"})
        assert stored["namespace"] == ns
        # the project still comes from the roots: it is the query context
        assert (await call(c, "memory_get", {"id": stored["id"]}))["metadata"] == {"project": "elsewhere"}


async def test_a_client_that_fails_to_list_its_roots_falls_back(
    shared_daemon: Daemon, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "ROOTS_TIMEOUT_S", 0.2)

    async def never(context: ClientRequestContext) -> ListRootsResult:
        await anyio.sleep_forever()
        raise AssertionError

    async def refuses(context: ClientRequestContext) -> ErrorData:
        return ErrorData(code=-32603, message="no roots today")

    cwd = tmp_path / f"fallback-{uuid.uuid4().hex[:8]}"
    cwd.mkdir()
    for callback in (never, refuses):
        server = build_server(Settings(shared_daemon.socket, None, cwd))
        async with Client(server, mode="legacy", list_roots_callback=callback) as c:  # type: ignore[arg-type]
            with anyio.fail_after(10):
                assert (await call(c, "memory_list", {}))["namespace"] == cwd.name


async def test_storing_the_same_text_again_answers_with_the_first(shared_daemon: Daemon, tmp_path: Path) -> None:
    settings = Settings(shared_daemon.socket, f"dup-{uuid.uuid4().hex[:8]}", tmp_path)
    async with Client(build_server(settings)) as c:
        first = await call(c, "memory_store", {"text": "Releases are tagged vX.Y.Z on main."})
        again = await call(c, "memory_store", {"text": "releases are tagged vX.Y.Z on main", "tags": ["release"]})
        assert again["id"] == first["id"] == again["duplicate_of"] and first["duplicate_of"] is None
        assert "Already remembered" in again["hint"]
        hits = (await call(c, "memory_query", {"query": "how are releases tagged?"}))["results"]
        assert [h["id"] for h in hits] == [first["id"]]


async def test_query_with_a_token_budget(shared_daemon: Daemon, tmp_path: Path) -> None:
    settings = Settings(shared_daemon.socket, f"budget-{uuid.uuid4().hex[:8]}", tmp_path)
    async with Client(build_server(settings)) as c:
        short = await call(c, "memory_store", {"text": "Backups run nightly."})
        await call(c, "memory_store", {"text": "Backups: " + "the nightly job copies every volume to the vault; " * 6})
        got = await call(c, "memory_query", {"query": "how do backups run?", "max_tokens": 20})
        assert [h["id"] for h in got["results"]] == [short["id"]]
        assert got["budget"]["used"] <= 20 and len(got["budget"]["left_out"]) == 1
