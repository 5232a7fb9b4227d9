"""The README's commands and the CI entry point stay in step."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _readme_commands() -> list[str]:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_readme_has_exactly_two_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    assert "omegad serve --demo" in commands[0] and "omegad models fetch" in commands[0]
    assert "pytest" in commands[1] and "mypy" in commands[1] and "ruff" in commands[1]


def test_ci_runs_the_readme_test_command_exactly() -> None:
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert _readme_commands()[1] in ci


def test_every_log_event_and_error_code_is_documented() -> None:
    """docs/operations.md explains every event the daemon logs and every error code."""
    from omegad_client.protocol import ERROR_CODES

    ops = (REPO / "docs" / "operations.md").read_text()
    events: set[str] = set()
    for path in (REPO / "omegad").rglob("*.py"):
        # log.info("name", ...) and the multi-line form log.info(\n "name", ...)
        events |= set(re.findall(r"\blog\.(?:debug|info|warning|error|exception)\(\s*\"([a-z_]+)\"", path.read_text()))
    assert len(events) > 30
    missing = sorted(e for e in events if f"`{e}`" not in ops.split("## Log events", 1)[1])
    assert not missing, f"log events not in docs/operations.md: {missing}"
    table = ops.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    assert not [c for c in ERROR_CODES if f"| `{c}` |" not in table]
    degraded = ops.split("## Degraded mode", 1)[1].split("\n## ", 1)[0]
    from omegad.app.faults import Faults

    for code in ("disk_full", "read_only", "io_error", "data_dir_missing", "embedder"):
        assert f"| `{code}` |" in degraded
        Faults(REPO)._texts(code)  # and the daemon knows it
