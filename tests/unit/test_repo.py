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
