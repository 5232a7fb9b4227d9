"""Daemon lifecycle and connections.

Start: take an exclusive lock on the data directory, refuse a live daemon on the socket
(replace a stale socket file), load the embedding model and open the store in worker threads,
then listen (socket directory 0700, socket 0600). Every task belongs to one task group.

Stop (SIGTERM / SIGINT): stop accepting and remove the socket file first (no client talks to
a dying daemon), let in-flight requests finish, drain the write and background queues within
``shutdown_timeout_s``, exit 0.

Connections: frames are read into a buffer; a frame that has started must complete within
``frame_timeout_s``; a length above ``max_frame_bytes`` gets a ``too_large`` reply and the
connection is closed (the rest of the frame is never read). Each request runs in its own
task, at most ``max_inflight_per_connection`` at once per connection (the reader waits when
the cap is reached: backpressure, not buffering). Replies carry the request id.
"""

from __future__ import annotations

import errno
import fcntl
import itertools
import os
import signal
import socket
import stat
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

import anyio
import anyio.abc
import structlog

from omegad_client.protocol import HEADER, FrameError, decode_body, encode_frame, error_reply, ok_reply

from .access import Access, Peer, peer_of
from .config import Config
from .contradictions import EdgeStore
from .dispatch import Dispatcher
from .embed import Embedder, ModelMissing, UnloadedEmbedder
from .errors import Forbidden, NotFound, ServiceError, StartupError, TooLarge
from .events import MAX_SUBSCRIPTIONS, Subscriber
from .faults import EMBEDDER_FIX
from .models import resolve_embedding
from .schema import SubscribeParams, UnsubscribeParams, parse_params
from .sdnotify import ActivationError, inherited_listener, notify
from .service import Service
from .store import MemoryStore, StoreMismatch, read_store_meta

__all__ = ["Server", "run_server"]

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


def prepare_socket_path(path: Path, shared: bool = False) -> None:
    """Create the socket's directory (0700, or 0711 for a *shared* socket that other users
    must reach); refuse a live daemon; remove a stale socket."""
    if len(os.fsencode(path)) > 100:
        raise StartupError(f"socket path too long for a Unix socket ({len(str(path))} chars): {path}")
    parent = path.parent
    want = 0o711 if shared else 0o700
    parent.mkdir(parents=True, exist_ok=True, mode=want)
    st = parent.stat()
    if st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) & 0o077 != want & 0o077:
        os.chmod(parent, want)
    if path.exists() or path.is_symlink():
        if not stat.S_ISSOCK(path.lstat().st_mode):
            raise StartupError(f"{path} exists and is not a socket; remove it or choose another --socket")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except OSError:
            path.unlink()  # stale: nobody listens
            log.info("stale_socket_removed", socket=str(path))
        else:
            raise StartupError(f"another omegad daemon is listening at {path}")
        finally:
            probe.close()


def listen_unix(path: Path, mode: int, backlog: int = 128) -> socket.socket:
    """A listening Unix socket at *path* that appears there only once it listens: bound and
    chmodded under a temporary name, listening, then hard-linked into place (a link, unlike a
    rename, fails when another daemon got the path first). A client that waits for the socket
    file is never refused."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    tmp = path.with_name(f".{path.name[:8]}.{os.getpid()}.tmp")
    try:
        if len(os.fsencode(tmp)) > 100:  # no room for the temporary name: bind in place
            sock.bind(str(path))
            os.chmod(path, mode)
            sock.listen(backlog)
            return sock
        tmp.unlink(missing_ok=True)
        sock.bind(str(tmp))
        try:
            os.chmod(tmp, mode)
            sock.listen(backlog)
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise StartupError(f"another omegad daemon is listening at {path}") from None
        finally:
            tmp.unlink(missing_ok=True)
        return sock
    except BaseException:
        sock.close()
        raise


class Connection:
    def __init__(self, server: Server, stream: anyio.abc.SocketStream, conn_id: int, peer: Peer) -> None:
        self.server = server
        self.stream = stream
        self.id = conn_id
        self.peer = peer
        self.config = server.config
        self.send_lock = anyio.Lock()
        self.inflight: dict[int, anyio.CancelScope] = {}
        self.slots = anyio.Semaphore(self.config.max_inflight_per_connection)
        self.closed = False
        self.subscriber: Subscriber | None = None  # once it subscribes
        self._events_scope = anyio.CancelScope()  # the subscriber's sender task

    async def send_event(self, frame: dict[str, Any]) -> None:
        """Write one event frame. Unlike a reply it may wait as long as the peer does not read:
        events pile up (and are dropped) in the subscriber's queue meanwhile, not here."""
        try:
            data = encode_frame(frame, self.config.max_frame_bytes)
        except FrameError:
            log.warning("event_too_large", conn=self.id, event=frame.get("event"))
            return
        async with self.send_lock:
            if self.closed:
                return
            try:
                await self.stream.send(data)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                self.closed = True

    async def send(self, message: dict[str, Any]) -> None:
        try:
            frame = encode_frame(message, self.config.max_frame_bytes)
        except FrameError as exc:
            frame = encode_frame(
                error_reply(message.get("id"), "too_large", f"reply not sent: {exc}"), self.config.max_frame_bytes
            )
        async with self.send_lock:
            if self.closed:
                return
            try:
                # A peer that stops reading gets its connection closed instead of pinning
                # request tasks (and shutdown) on a full socket buffer.
                with anyio.fail_after(self.config.frame_timeout_s):
                    await self.stream.send(frame)
            except TimeoutError:
                self.closed = True
                log.warning("send_timeout", conn=self.id)
                await self.stream.aclose()
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                self.closed = True

    async def run(self) -> None:
        buf = bytearray()
        frame_deadline: float | None = None
        max_frame = self.config.max_frame_bytes
        try:
            async with anyio.create_task_group() as tg:
                while not self.closed:
                    # Parse every complete frame in the buffer.
                    while len(buf) >= HEADER.size:
                        (length,) = HEADER.unpack_from(buf)
                        if length > max_frame:
                            await self.send(
                                error_reply(
                                    None,
                                    "too_large",
                                    f"frame of {length} bytes exceeds the limit of {max_frame}; closing",
                                    {"limit": max_frame},
                                )
                            )
                            return
                        end = HEADER.size + length
                        if len(buf) < end:
                            break
                        body = bytes(buf[HEADER.size : end])
                        del buf[:end]
                        frame_deadline = None  # the next frame's clock starts with its first byte
                        await self.handle_frame(body, tg)
                    # Read more; a started frame must complete within the frame timeout,
                    # counted from its first byte (a trickling sender does not reset it).
                    try:
                        if buf:
                            if frame_deadline is None:
                                frame_deadline = anyio.current_time() + self.config.frame_timeout_s
                            with anyio.fail_after(max(0.0, frame_deadline - anyio.current_time())):
                                chunk = await self.stream.receive(65536)
                        else:
                            frame_deadline = None
                            chunk = await self.stream.receive(65536)
                    except TimeoutError:
                        log.warning("frame_timeout", conn=self.id, buffered=len(buf))
                        await self.send(
                            error_reply(None, "bad_request", "incomplete frame: timed out waiting for the rest")
                        )
                        return
                    except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                        break
                    buf += chunk
                # Peer closed its side: let its in-flight requests finish and reply.
                self._events_scope.cancel()
        finally:
            self._events_scope.cancel()
            if self.subscriber is not None:
                self.server.service.events.remove(self.subscriber)
            self.closed = True
            with anyio.CancelScope(shield=True):
                await self.stream.aclose()

    async def handle_frame(self, body: bytes, tg: anyio.abc.TaskGroup) -> None:
        try:
            message = decode_body(body)
        except FrameError as exc:
            await self.send(error_reply(None, "bad_request", str(exc)))
            return
        try:
            request_id, method, params = self.server.dispatcher.envelope(message)
        except ServiceError as exc:
            rid = exc.data.pop("id", None)
            if rid is None and isinstance(message, dict) and isinstance(message.get("id"), int):
                rid = message.get("id")
            await self.send(error_reply(rid, exc.code, exc.message, exc.data))
            return
        if self.server.stopping:
            await self.send(error_reply(request_id, "unavailable", "the daemon is shutting down"))
            return
        if method == "cancel":
            await self.send(self.cancel(request_id, params))
            return
        if method in ("subscribe", "unsubscribe"):
            await self.subscription(request_id, method, params, tg)
            return
        if request_id in self.inflight:
            await self.send(error_reply(request_id, "bad_request", f"request id {request_id} is already in flight"))
            return
        await self.slots.acquire()  # backpressure: stop reading while the connection is at its cap
        scope = anyio.CancelScope()
        self.inflight[request_id] = scope
        self.server.inflight += 1
        tg.start_soon(self.run_request, request_id, method, params, scope)

    async def subscription(self, request_id: int, method: str, params: Any, tg: anyio.abc.TaskGroup) -> None:
        """`subscribe` / `unsubscribe`: they belong to this connection, not to the service."""
        started = time.perf_counter()
        outcome = "ok"
        try:
            p = parse_params(method, params, self.config)
            if isinstance(p, UnsubscribeParams):
                if self.subscriber is None or not self.server.service.events.unsubscribe(
                    self.subscriber, p.subscription
                ):
                    raise NotFound(
                        f"no subscription {p.subscription} on this connection", {"subscription": p.subscription}
                    )
                await self.send(ok_reply(request_id, {"unsubscribed": True}))
            else:
                assert isinstance(p, SubscribeParams)
                await self._subscribe(request_id, p, tg)
        except ServiceError as exc:
            outcome = exc.code
            await self.send(error_reply(request_id, exc.code, exc.message, exc.data))
        finally:
            ms = round((time.perf_counter() - started) * 1000, 3)
            log.info("request", method=method, ms=ms, outcome=outcome, conn=self.id)

    async def _subscribe(self, request_id: int, p: SubscribeParams, tg: anyio.abc.TaskGroup) -> None:
        access, hub, peer = self.server.access, self.server.service.events, self.peer
        if p.namespace is not None and not access.may(peer, p.namespace, False):
            raise Forbidden(
                f"{peer.describe()} may not read namespace {p.namespace!r}",
                {"namespace": p.namespace, "access": "read"},
            )
        if self.subscriber is not None and len(self.subscriber.subscriptions) >= MAX_SUBSCRIPTIONS:
            raise TooLarge(f"at most {MAX_SUBSCRIPTIONS} subscriptions per connection", {"limit": MAX_SUBSCRIPTIONS})
        if self.subscriber is None:
            self.subscriber = Subscriber(self.send_event, lambda ns: access.may(peer, ns, False))
            tg.start_soon(self._send_events, self.subscriber)
        # registered and answered under the send lock: no event of it goes out before the
        # reply that names it
        async with self.send_lock:
            sub = hub.subscribe(self.subscriber, p.topics, p.namespace)
            result = {"subscription": sub.id, "topics": list(p.topics), "namespace": p.namespace}
            await self._write_locked(ok_reply(request_id, result))

    async def _send_events(self, subscriber: Subscriber) -> None:
        with self._events_scope:
            await subscriber.run()

    async def _write_locked(self, message: dict[str, Any]) -> None:
        """Write a reply while holding `send_lock` (a small one: no timeout handling needed)."""
        if self.closed:
            return
        try:
            await self.stream.send(encode_frame(message, self.config.max_frame_bytes))
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            self.closed = True

    def cancel(self, request_id: int, params: Any) -> dict[str, Any]:
        try:
            p = parse_params("cancel", params, self.config)
        except ServiceError as exc:
            return error_reply(request_id, exc.code, exc.message, exc.data)
        scope = self.inflight.get(p.request_id)
        if scope is None:
            return error_reply(
                request_id,
                "not_found",
                f"no request {p.request_id} in flight on this connection",
                {"request_id": p.request_id},
            )
        scope.cancel()
        return ok_reply(request_id, {"cancelled": True})

    async def run_request(self, request_id: int, method: str, params: Any, scope: anyio.CancelScope) -> None:
        try:
            reply: dict[str, Any] | None = None
            with scope:
                reply = await self.server.dispatcher.call(request_id, method, params, self.id, self.peer)
            # From here on a `cancel` for this id answers not_found: the outcome is decided.
            self.inflight.pop(request_id, None)
            if reply is None:
                reply = error_reply(request_id, "cancelled", f"request {request_id} was cancelled")
            await self.send(reply)
        finally:
            self.inflight.pop(request_id, None)
            self.slots.release()
            self.server.inflight -= 1
            self.server.idle.set()


class Server:
    def __init__(self, config: Config, service: Service) -> None:
        self.config = config
        self.service = service
        self.access = Access(config.access_grants)
        self.dispatcher = Dispatcher(service, config, self.access)
        self.stopping = False
        self.inflight = 0
        self.connections: set[Connection] = set()
        self.idle = anyio.Event()
        self._ids = itertools.count(1)

    async def accept_loop(self, listener: anyio.abc.SocketListener, tg: anyio.abc.TaskGroup) -> None:
        while True:
            try:
                stream = await listener.accept()
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return
            except OSError as exc:  # e.g. EMFILE: back off instead of spinning
                log.warning("accept_failed", error=str(exc))
                await anyio.sleep(0.1)
                continue
            peer = self._peer(stream)
            if peer is None or not self.access.may_connect(peer):
                who = peer.describe() if peer is not None else "a peer whose credentials are unknown"
                log.warning("connection_refused", peer=who)
                tg.start_soon(
                    self._refuse, stream, "forbidden", f"{who} may not use this daemon (no [[access.grant]] for it)"
                )
                continue
            if len(self.connections) >= self.config.max_connections:
                tg.start_soon(self._refuse, stream)
                continue
            conn = Connection(self, stream, next(self._ids), peer)
            self.connections.add(conn)
            tg.start_soon(self._run_connection, conn)

    def _peer(self, stream: anyio.abc.SocketStream) -> Peer | None:
        """Who connected (kernel credentials). Where the platform cannot tell, the socket's
        permissions are the only guard: such a peer counts as the owner only when the socket is
        private to the owner (``server.socket_mode`` 0600)."""
        try:
            peer = peer_of(stream.extra(anyio.abc.SocketAttribute.raw_socket))
        except OSError:
            peer = None
        if peer is None and self.config.socket_mode == 0o600:
            return Peer(uid=self.access.owner_uid, gid=os.getgid())
        return peer

    async def _refuse(
        self,
        stream: anyio.abc.SocketStream,
        code: str = "unavailable",
        message: str = "too many connections; try again later",
    ) -> None:
        with anyio.move_on_after(1):
            try:
                await stream.send(encode_frame(error_reply(None, code, message)))
                # Read (and drop) what the client sends for a moment: closing with its request
                # unread would make its write fail before it reads the reply above.
                await stream.send_eof()
                while len(await stream.receive(65536)) > 0:
                    pass
            except (anyio.BrokenResourceError, anyio.EndOfStream, anyio.ClosedResourceError, OSError):
                pass
        await stream.aclose()

    async def _run_connection(self, conn: Connection) -> None:
        try:
            await conn.run()
        except Exception:
            log.exception("connection_failed", conn=conn.id)  # one broken connection never stops the daemon
        finally:
            self.connections.discard(conn)

    async def wait_idle(self, timeout: float) -> bool:
        with anyio.move_on_after(timeout):
            while self.inflight > 0:
                self.idle = anyio.Event()
                await self.idle.wait()
            return True
        return False


def load_embedder(config: Config) -> Embedder:
    """Find and load the embedding model (blocking); raises `ModelMissing` saying what to do."""
    files = resolve_embedding(config.embedding_model_dir, config.model_cache_dir)
    return Embedder(
        files,
        threads=config.embedding_threads,
        batch_size=config.embed_batch_size,
        spinning=config.embedding_spinning,
    )


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
        embedder: Embedder | UnloadedEmbedder
        try:
            embedder = await anyio.to_thread.run_sync(load_embedder, config)
        except ModelMissing as exc:
            meta = read_store_meta(config.data_dir)
            if meta is None:  # nothing stored yet: nothing to serve without the model
                text = str(exc)
                raise StartupError(text if "omegad models fetch" in text else f"{text}; fix: {EMBEDDER_FIX}") from None
            # degraded: serve the store's memories (get, export...) and reload the model
            # once its files change (see Service._reload_embedder)
            embedder = UnloadedEmbedder(
                str(meta.get("embedding_model")),
                int(meta.get("embedding_dim") or 0),
                str(exc),
                threads=config.embedding_threads,
                batch_size=config.embed_batch_size,
            )
        try:
            store = await anyio.to_thread.run_sync(
                lambda: MemoryStore.open(
                    config.data_dir,
                    embedder.model_id,
                    embedder.dim,
                    index_cache_mb=config.index_cache_mb,
                    metadata_cache_mb=config.metadata_cache_mb,
                    ops_in_child=True,  # (see omegad.lanceops)
                    vector_index=config.vector_index,
                    rabitq_from_rows=config.rabitq_from_rows,
                )
            )
        except StoreMismatch as exc:
            raise StartupError(str(exc)) from None
        edges = await anyio.to_thread.run_sync(EdgeStore.open, store, config.data_dir)
        service = Service(config, embedder, store, edges, load_embedder=lambda: load_embedder(config))
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
                            log.warning("shutdown_checkpoint_failed", error=f"{type(exc).__name__}: {exc}")
                conns.cancel_scope.cancel()
            service.close()
            outer.cancel_scope.cancel()
        log.info("stopped")
    return 0


async def _call_ready(on_ready: Callable[[Service], Any], service: Service) -> None:
    result = on_ready(service)
    if hasattr(result, "__await__"):
        await result
