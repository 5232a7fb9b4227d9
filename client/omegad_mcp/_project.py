"""Which project the bridge serves, and the namespace its memories go to.

The project is the MCP client's first ``file://`` root when the client offers roots, else
the top-level directory of the git repository the bridge runs in, else its working
directory. Its namespace is that directory's name made valid under the daemon's rules
(docs/protocol.md, "Value rules"), unless ``--namespace`` or ``OMEGAD_NAMESPACE`` names one.
Standard library only: `install` uses it too.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlparse

__all__ = [
    "DEFAULT_NAMESPACE",
    "Project",
    "git_toplevel",
    "namespace_for",
    "project_from_roots",
    "valid_namespace",
    "working_project",
]

#: Where memories go when no project name can be found (a bridge started in ``/``).
DEFAULT_NAMESPACE = "default"

# The daemon's namespace rule (docs/protocol.md, "Value rules").
_NAMESPACE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/\-]{0,127}")
_NOT_ALLOWED = re.compile(r"[^A-Za-z0-9._:@/\-]+")
# Query context strings are 1-512 characters (docs/protocol.md, "query context").
_MAX_CONTEXT_CHARS = 512


@dataclass(frozen=True)
class Project:
    """A project directory and where its name came from."""

    directory: Path
    source: Literal["roots", "git", "cwd"]

    @property
    def name(self) -> str | None:
        """The directory's name, for the query context; None for a filesystem root."""
        return self.directory.name[:_MAX_CONTEXT_CHARS] or None

    @property
    def namespace(self) -> str:
        return namespace_for(self.directory.name)


def valid_namespace(value: str) -> bool:
    return _NAMESPACE_RE.fullmatch(value) is not None


def namespace_for(name: str) -> str:
    """*name* made into a valid namespace: every run of characters a namespace does not allow
    replaced by ``-`` (``Café app`` → ``Caf-app``), leading punctuation removed, at most 128
    characters, no trailing ``-``; ``default`` when nothing is left. The same rule as the
    editor plugins', so an agent and an editor on one project share its namespace."""
    cleaned = _NOT_ALLOWED.sub("-", name).lstrip("._:@/-")[:128].rstrip("-")
    return cleaned or DEFAULT_NAMESPACE


def git_toplevel(directory: Path) -> Path | None:
    """The top-level directory of the git work tree holding *directory*, if any."""
    try:
        # stdin must not be inherited: under stdio it is the MCP client's channel.
        out = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=directory,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    top = out.stdout.strip()
    return Path(top) if out.returncode == 0 and top else None


def working_project(cwd: Path) -> Project:
    """The project of a working directory: its git top-level, else the directory itself."""
    top = git_toplevel(cwd)
    return Project(top, "git") if top is not None else Project(cwd, "cwd")


def root_path(uri: str) -> Path | None:
    """The local directory of a ``file://`` root URI; None for anything else."""
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost") or not parsed.path:
        return None
    return Path(unquote(parsed.path))


def project_from_roots(uris: Iterable[str]) -> Project | None:
    """The project of the MCP client's roots: the first local directory among them (a
    filesystem root has no name to go by and is skipped)."""
    for uri in uris:
        path = root_path(uri)
        if path is not None and path.name:
            return Project(path, "roots")
    return None
