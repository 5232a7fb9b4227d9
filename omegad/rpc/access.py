"""Who may connect, and what each peer may read or write.

The kernel tells the daemon who is on the other end of a connection: ``SO_PEERCRED`` on Linux
(uid, gid, pid; the supplementary groups from ``/proc/<pid>/status``), ``LOCAL_PEERCRED`` on
macOS (what ``getpeereid`` reads). Only the daemon's own uid has full access. Other users get
only what ``[[access.grant]]`` tables in the configuration give them:

    [[access.grant]]
    users = ["alice", 1001]        # names or uids
    groups = ["research"]          # names or gids (primary or supplementary)
    namespaces = ["shared", "team-*"]   # exact names or shell patterns
    mode = "read"                  # or "read-write"

A peer with no grant at all is refused when it connects (one ``forbidden`` reply, then the
connection is closed). A granted peer may read (query, get, contradictions, traverse) the
namespaces of its read grants and also write (store, update, delete, feedback, resolve) those
of its read-write grants; every request is checked against the namespace it names or, for a
request by id, the namespace of that memory, before the request runs — so the index, the
reranker and the reply only ever see what the caller may read. What spans every namespace
(stats, maintain, import, export, a contradictions listing without a namespace) is the
owner's. Each method's rule is its row in `omegad.rpc.registry`; `omegad.rpc.dispatch`
applies it.
"""

from __future__ import annotations

import os
import socket
import struct
import sys

from omegad.grants import Grant, Peer

__all__ = ["Access", "peer_of"]


class Access:
    """The daemon's own uid may do everything; other peers what their grants say."""

    def __init__(self, grants: tuple[Grant, ...], owner_uid: int | None = None) -> None:
        self.grants = grants
        self.owner_uid = os.getuid() if owner_uid is None else owner_uid

    def is_owner(self, peer: Peer) -> bool:
        return peer.uid == self.owner_uid

    def may_connect(self, peer: Peer) -> bool:
        return self.is_owner(peer) or any(g.applies(peer) for g in self.grants)

    def may(self, peer: Peer, namespace: str, write: bool) -> bool:
        if self.is_owner(peer):
            return True
        return any(g.applies(peer) and g.covers(namespace) and (g.write or not write) for g in self.grants)


def _groups_of(pid: int) -> frozenset[int]:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Groups:"):
                    return frozenset(int(g) for g in line.split()[1:])
    except (OSError, ValueError):
        pass
    return frozenset()


def peer_of(sock: socket.socket) -> Peer | None:
    """The credentials of the process at the other end of a connected Unix socket."""
    if sys.platform.startswith("linux"):
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        pid, uid, gid = struct.unpack("3i", creds)
        return Peer(uid=uid, gid=gid, pid=pid or None, groups=_groups_of(pid) if pid else frozenset())
    if (
        sys.platform == "darwin"
    ):  # LOCAL_PEERCRED → struct xucred {u_int version; uid_t uid; short ngroups; gid_t groups[16]}
        raw = sock.getsockopt(0, 0x001, struct.calcsize("IIh16I") + 8)
        _version, uid, ngroups = struct.unpack_from("IIh", raw)
        groups = struct.unpack_from(f"{max(0, min(ngroups, 16))}I", raw, struct.calcsize("IIh") + 2)
        return Peer(uid=uid, gid=groups[0] if groups else -1, groups=frozenset(groups))
    return None
