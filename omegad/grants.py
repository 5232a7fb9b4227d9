"""Who is on the other end of a connection (`Peer`) and what the configuration grants to
users other than the daemon's owner (``[[access.grant]]`` tables, `parse_grants`).

Plain data and parsing, with no dependency on the daemon: the configuration reads grants at
start (a typo fails then), and `omegad.rpc.access` applies them to each request.
"""

from __future__ import annotations

import fnmatch
import grp
import pwd
from dataclasses import dataclass
from typing import Any

__all__ = ["Grant", "GrantError", "Peer", "parse_grants"]


@dataclass(frozen=True)
class Peer:
    uid: int
    gid: int
    pid: int | None = None
    groups: frozenset[int] = frozenset()

    def describe(self) -> str:
        return f"uid {self.uid}" + (f" (pid {self.pid})" if self.pid else "")


@dataclass(frozen=True)
class Grant:
    uids: frozenset[int]
    gids: frozenset[int]
    namespaces: tuple[str, ...]
    write: bool

    def applies(self, peer: Peer) -> bool:
        return peer.uid in self.uids or bool(({peer.gid} | peer.groups) & self.gids)

    def covers(self, namespace: str) -> bool:
        return any(fnmatch.fnmatchcase(namespace, pattern) for pattern in self.namespaces)


class GrantError(ValueError):
    pass


def _ids(values: Any, kind: str) -> frozenset[int]:
    if values is None:
        return frozenset()
    if not isinstance(values, list):
        raise GrantError(f"{kind} must be a list of names or numbers, got {values!r}")
    out: set[int] = set()
    for v in values:
        if isinstance(v, bool):
            raise GrantError(f"{kind}: {v!r} is not a name or a number")
        if isinstance(v, int):
            if v < 0:
                raise GrantError(f"{kind}: {v} is not an id")
            out.add(v)
        elif isinstance(v, str) and v:
            try:
                out.add(pwd.getpwnam(v).pw_uid if kind == "users" else grp.getgrnam(v).gr_gid)
            except KeyError:
                raise GrantError(f"{kind}: no such {'user' if kind == 'users' else 'group'} {v!r}") from None
        else:
            raise GrantError(f"{kind}: {v!r} is not a name or a number")
    return frozenset(out)


def parse_grants(value: Any) -> tuple[Grant, ...]:
    """``[[access.grant]]`` tables → grants (names resolved now: a typo fails at start)."""
    if not isinstance(value, list):
        raise GrantError(f"expected [[access.grant]] tables, got {value!r}")
    grants: list[Grant] = []
    for i, table in enumerate(value):
        where = f"grant {i + 1}"
        if not isinstance(table, dict):
            raise GrantError(f"{where}: expected a table, got {table!r}")
        unknown = set(table) - {"users", "groups", "namespaces", "mode"}
        if unknown:
            raise GrantError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        try:
            uids, gids = _ids(table.get("users"), "users"), _ids(table.get("groups"), "groups")
        except GrantError as exc:
            raise GrantError(f"{where}: {exc}") from None
        if not uids and not gids:
            raise GrantError(f"{where}: names no users or groups")
        namespaces = table.get("namespaces")
        if not isinstance(namespaces, list) or not namespaces or not all(isinstance(n, str) and n for n in namespaces):
            raise GrantError(f"{where}: namespaces must be a non-empty list of names or patterns")
        mode = table.get("mode", "read")
        if mode not in ("read", "read-write"):
            raise GrantError(f"{where}: mode must be 'read' or 'read-write', got {mode!r}")
        grants.append(Grant(uids, gids, tuple(namespaces), mode == "read-write"))
    return tuple(grants)
