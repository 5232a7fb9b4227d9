"""The daemon's lifecycle: start, serve, stop. (Its RPC server is `omegad.rpc.server`.)

Start: take an exclusive lock on the data directory, refuse a live daemon on the socket
(replace a stale socket file), load the embedding model and open the store in worker threads,
then listen (socket directory 0700, socket 0600). Every task belongs to one task group.

Stop (SIGTERM / SIGINT): stop accepting and remove the socket file first (no client talks to
a dying daemon), let in-flight requests finish, drain the write and background queues within
``shutdown_timeout_s``, exit 0.
"""

from __future__ import annotations

import errno
import fcntl
import os
import signal
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

import anyio
import anyio.abc
import structlog

from omegad.app.build import build_service
from omegad.app.service import Service
from omegad.config import Config
from omegad.daemon.sdnotify import ActivationError, inherited_listener, notify
from omegad.errors import StartupError, error_text
from omegad.rpc.server import Server, listen_unix, prepare_socket_path

__all__ = ["run_server", "take_lock"]

log = structlog.get_logger("omegad")

LOCK_FILE = "omegad.lock"


def take_lock(data_dir: Path) -> IO[bytes]:
    """Exclusive, non-blocking flock on the data directory's lock file (held for life)."""
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    f: IO[bytes]
    try:
        f = open(data_dir / LOCK_FILE, "a+b")  # noqa: SIM115 - held open for the daemon's lifetime
    except OSError as exc:
        if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM) or not (data_dir / LOCK_FILE).exists():
            raise StartupError(f"cannot open {data_dir / LOCK_FILE}: {exc.strerror}") from None
        # a read-only data directory (a used store: the lock file exists): serve it read-only
        f = open(data_dir / LOCK_FILE, "rb")  # noqa: SIM115
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        f.close()
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise StartupError(f"another omegad daemon is using the data directory {data_dir}") from None
        raise StartupError(f"cannot lock {data_dir / LOCK_FILE}: {exc.strerror}") from None
    return f


async def run_server(
    config: Config,
    *,
    on_ready: Callable[[Service], Any] | None = None,
) -> int:
    """Run the daemon until SIGTERM/SIGINT; returns the exit code."""
    with ExitStack() as stack:
        lock = take_lock(config.data_dir)
        stack.callback(lock.close)
        try:
            inherited = inherited_listener()  # socket activation (systemd)
        except ActivationError as exc:
            raise StartupError(str(exc)) from None
        if inherited is None:
            prepare_socket_path(config.socket_path, shared=config.socket_mode != 0o600)
        else:
            stack.callback(inherited.close)
        service = await build_service(config)
        embedder, store = service.embedder, service.store
        server = Server(config, service)
        if inherited is None:
            raw = await anyio.to_thread.run_sync(listen_unix, config.socket_path, config.socket_mode)
            listener = await anyio.abc.SocketListener.from_socket(raw)
            socket_path = config.socket_path
            stack.callback(lambda: socket_path.unlink(missing_ok=True))
        else:  # the service manager owns the socket file: never removed here
            listener = await anyio.abc.SocketListener.from_socket(inherited)
            socket_path = Path(inherited.getsockname() or config.socket_path)
        log.info(
            "started",
            socket=str(socket_path),
            activated=inherited is not None,
            data_dir=str(config.data_dir),
            model=embedder.model_id,
            variant=embedder.files.variant,
            memories=await anyio.to_thread.run_sync(store.count),
            pid=os.getpid(),
        )
        async with anyio.create_task_group() as outer:
            await outer.start(service.run)
            async with anyio.create_task_group() as conns:
                conns.start_soon(server.accept_loop, listener, conns)
                if on_ready is not None:
                    outer.start_soon(_call_ready, on_ready, service)
                notify(f"READY=1\nSTATUS=serving on {socket_path}\nMAINPID={os.getpid()}")
                with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                    async for signum in signals:
                        log.info("stopping", signal=signal.Signals(signum).name)
                        break
                notify("STOPPING=1")
                # Stop: no new connections, no new requests; socket file gone first.
                server.stopping = True
                if inherited is None:
                    socket_path.unlink(missing_ok=True)
                await listener.aclose()
                if not await server.wait_idle(config.shutdown_timeout_s):
                    log.warning("shutdown_requests_abandoned", inflight=server.inflight)
                if not await service.drain(config.shutdown_timeout_s):
                    log.warning("shutdown_queues_not_drained")
                else:
                    with anyio.move_on_after(config.shutdown_timeout_s):
                        try:
                            await service.checkpoint()
                        except Exception as exc:  # the log is replayed at the next start
                            log.warning("shutdown_checkpoint_failed", error=error_text(exc))
                conns.cancel_scope.cancel()
            service.close()
            outer.cancel_scope.cancel()
        log.info("stopped")
    return 0


async def _call_ready(on_ready: Callable[[Service], Any], service: Service) -> None:
    result = on_ready(service)
    if hasattr(result, "__await__"):
        await result
