from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import Daemon


@pytest.fixture(scope="session")
def shared_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    """One daemon for tests that isolate themselves by namespace."""
    base = tmp_path_factory.mktemp("shared")
    d = Daemon(base).start()
    yield d
    code = d.stop()
    d.cleanup()
    assert code == 0, d.log()


@pytest.fixture
def daemon_factory(tmp_path: Path) -> Iterator[type[Daemon] | object]:
    started: list[Daemon] = []

    def make(**kwargs: object) -> Daemon:
        d = Daemon(tmp_path, **kwargs)  # type: ignore[arg-type]
        started.append(d)
        return d

    yield make
    for d in started:
        d.cleanup()


@pytest.fixture
def ns() -> str:
    """A fresh namespace per test, so tests sharing a daemon never see each other's data."""
    return "t-" + uuid.uuid4().hex[:12]
