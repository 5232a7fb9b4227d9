"""Where the tables live: the data directory's ``lance`` folder (the default), or a team
store in object storage (``store.uri``, docs/team.md) that several daemons share."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["OPTIONS_ENV", "Location"]

#: How a child process (maintenance calls, the index build) gets the storage options: in its
#: environment, not on its command line, where any user could read the credentials.
OPTIONS_ENV = "OMEGAD_LANCE_STORAGE_OPTIONS"


@dataclass(frozen=True)
class Location:
    """*directory*: the tables (local), or this host's own files beside a team store (*uri*,
    with *options* for LanceDB and obstore; other hosts' commits seen within *visibility_s*)."""

    directory: Path
    uri: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    visibility_s: float = 1.0
    #: versions a cleanup keeps (by age): none locally, where every read is this daemon's;
    #: in a team store at least the longest read of any host
    keep_versions_s: float = 0.0

    @property
    def shared(self) -> bool:
        return self.uri is not None

    @property
    def root(self) -> str:
        return self.uri if self.uri is not None else str(self.directory)

    def table(self, name: str) -> str:
        """The URI (or path) of table *name*: an ``s3+ddb`` URI keeps its query after the path."""
        if self.uri is None:
            return str(self.directory / f"{name}.lance")
        parts = urlsplit(self.uri)
        query = f"?{parts.query}" if parts.query else ""
        return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}/{name}.lance{query}"

    def connect_args(self) -> dict[str, Any]:
        """`lancedb.connect`'s arguments beyond the URI: a team store's options and how soon
        a read sees other hosts' commits (a handle sees its own at once)."""
        if self.uri is None:
            return {}
        return {
            "storage_options": dict(self.options),
            "read_consistency_interval": timedelta(seconds=self.visibility_s),
        }

    def dataset_args(self) -> dict[str, Any]:
        """`lance.dataset`'s arguments beyond the URI."""
        return {"storage_options": dict(self.options)} if self.uri is not None else {}

    def child_env(self) -> dict[str, str]:
        if self.uri is None:
            return {}
        return {OPTIONS_ENV: json.dumps({"options": dict(self.options), "keep_versions_s": self.keep_versions_s})}

    def child_arg(self) -> str:
        return self.root

    @classmethod
    def from_child_arg(cls, arg: str) -> Location:
        """The location a child was given (`child_arg`, `child_env`)."""
        if "://" not in arg:
            return cls(Path(arg))
        given = json.loads(os.environ.get(OPTIONS_ENV) or "{}")
        options = {str(k): str(v) for k, v in given.get("options", {}).items()}
        return cls(Path("."), arg, options, keep_versions_s=float(given.get("keep_versions_s", 3600.0)))
