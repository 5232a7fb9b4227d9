from __future__ import annotations

from pathlib import Path

import pytest

from omegad_mcp.server import Settings

from ..helpers import Daemon


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def settings(shared_daemon: Daemon, ns: str, tmp_path: Path) -> Settings:
    """A bridge on the shared daemon, its memories in this test's namespace."""
    return Settings(socket_path=shared_daemon.socket, namespace=ns, cwd=tmp_path)
