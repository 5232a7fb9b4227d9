"""The two pieces of systemd's protocol the daemon speaks, without a dependency.

- **Socket activation**: with ``LISTEN_PID`` equal to our pid and ``LISTEN_FDS`` ≥ 1, the
  listening socket is file descriptor 3 (``SD_LISTEN_FDS_START``). The variables are removed
  so that no child process takes the socket for its own.
- **Readiness**: with ``Type=notify`` the service manager waits for ``READY=1`` on the datagram
  socket named by ``NOTIFY_SOCKET`` (a path, or an abstract name written with a leading ``@``).
"""

from __future__ import annotations

import os
import socket
import stat

__all__ = ["LISTEN_FDS_START", "ActivationError", "inherited_listener", "notify"]

LISTEN_FDS_START = 3


class ActivationError(RuntimeError):
    """The passed file descriptor is not a listening Unix stream socket."""


def inherited_listener(environ: dict[str, str] | None = None) -> socket.socket | None:
    """The listening socket passed by systemd, or None when the daemon was not activated."""
    env = os.environ if environ is None else environ
    pid, fds = env.get("LISTEN_PID"), env.get("LISTEN_FDS")
    if not pid or not fds:
        return None
    try:
        if int(pid) != os.getpid() or int(fds) < 1:
            return None
    except ValueError:
        return None
    for name in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
        env.pop(name, None)
    try:
        mode = os.fstat(LISTEN_FDS_START).st_mode
    except OSError as exc:
        raise ActivationError(f"LISTEN_FDS is set but fd {LISTEN_FDS_START} is not open: {exc}") from None
    if not stat.S_ISSOCK(mode):
        raise ActivationError(f"fd {LISTEN_FDS_START} passed by the service manager is not a socket")
    sock = socket.socket(fileno=LISTEN_FDS_START)
    if sock.family != socket.AF_UNIX or sock.type != socket.SOCK_STREAM:
        sock.detach()
        raise ActivationError(
            f"fd {LISTEN_FDS_START} is a {sock.family.name}/{sock.type.name} socket; omegad needs a Unix stream socket "
            "(ListenStream= with a path)"
        )
    if not sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
        sock.detach()
        raise ActivationError(f"fd {LISTEN_FDS_START} is a Unix socket that is not listening")
    os.set_inheritable(LISTEN_FDS_START, False)
    sock.setblocking(False)
    return sock


def notify(state: str, environ: dict[str, str] | None = None) -> bool:
    """Send *state* (e.g. ``READY=1``) to the service manager; False when not asked to."""
    env = os.environ if environ is None else environ
    path = env.get("NOTIFY_SOCKET")
    if not path or path[0] not in "/@":
        return False
    address = "\0" + path[1:] if path.startswith("@") else path
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.connect(address)
            s.sendall(state.encode())
    except OSError:
        return False
    return True
