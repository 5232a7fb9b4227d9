"""The RPC server: the listening socket, connections, framing and backpressure.

Listening: the socket appears at its path only once it listens (`listen_unix`); a live
daemon at the path is refused, a stale socket file replaced (`prepare_socket_path`). Who
connects is known from the kernel (`omegad.rpc.access`); a peer without a grant is refused.

Connections: frames are read into a buffer; a frame that has started must complete within
``frame_timeout_s``; a length above ``max_frame_bytes`` gets a ``too_large`` reply and the
connection is closed (the rest of the frame is never read). Each request runs in its own
task, at most ``max_inflight_per_connection`` at once per connection (the reader waits when
the cap is reached: backpressure, not buffering). Replies carry the request id. ``cancel``,
``subscribe`` and ``unsubscribe`` act on the connection itself and are answered at once.
"""

from __future__ import annotations

import functools
import itertools
import os
import socket
import stat
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import structlog

from omegad.app.events import MAX_SUBSCRIPTIONS, Subscriber
from omegad.app.service import Service
from omegad.config import Config
from omegad.errors import NotFound, ServiceError, StartupError, TooLarge
from omegad.grants import Peer
from omegad.requests import CancelParams, SubscribeParams, UnsubscribeParams
from omegad.rpc.access import Access, peer_of
from omegad.rpc.dispatch import Dispatcher
from omegad.rpc.registry import REGISTRY
from omegad_client.protocol import HEADER, FrameError, decode_body, encode_frame, error_reply, ok_reply

__all__ = ["Connection", "Server", "listen_unix", "prepare_socket_path"]

log = structlog.get_logger("omegad")


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

    def _reply_frame(self, message: dict[str, Any]) -> bytes:
        """A reply as a frame; one too large to send becomes a ``too_large`` error reply."""
        try:
            return encode_frame(message, self.config.max_frame_bytes)
        except FrameError as exc:
            return encode_frame(
                error_reply(message.get("id"), "too_large", f"reply not sent: {exc}"), self.config.max_frame_bytes
            )

    async def _write(self, frame: bytes, timeout: float | None) -> None:
        """Write one frame; the caller holds `send_lock`. Replies give up after *timeout* and
        close the connection: a peer that stops reading does not pin request tasks (and
        shutdown) on a full socket buffer. Events wait (None): they queue, and are dropped,
        in the subscriber instead."""
        if self.closed:
            return
        try:
            with anyio.fail_after(timeout):
                await self.stream.send(frame)
        except TimeoutError:
            self.closed = True
            log.warning("send_timeout", conn=self.id)
            await self.stream.aclose()
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            self.closed = True

    async def send(self, message: dict[str, Any]) -> None:
        """Write one reply."""
        async with self.send_lock:
            await self._write(self._reply_frame(message), self.config.frame_timeout_s)

    async def send_event(self, event: dict[str, Any]) -> None:
        """Write one event frame (see `_write`); one too large to send is dropped."""
        try:
            frame = encode_frame(event, self.config.max_frame_bytes)
        except FrameError:
            log.warning("event_too_large", conn=self.id, event=event.get("event"))
            return
        async with self.send_lock:
            await self._write(frame, None)

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
        dispatcher = self.server.dispatcher
        try:
            request_id, method, params = dispatcher.envelope(message)
        except ServiceError as exc:
            rid = exc.data.pop("id", None)
            if rid is None and isinstance(message, dict) and isinstance(message.get("id"), int):
                rid = message.get("id")
            await self.send(error_reply(rid, exc.code, exc.message, exc.data))
            return
        if self.server.stopping:
            await self.send(error_reply(request_id, "unavailable", "the daemon is shutting down"))
            return
        row = REGISTRY.get(method)
        if row is not None and row.handler is None:  # the connection's own: answered now, even at the cap
            answer = functools.partial(self.answer, request_id, tg)
            reply = await dispatcher.call(request_id, method, params, self.id, self.peer, answer)
            if reply is not None:
                await self.send(reply)
            return
        if request_id in self.inflight:
            await self.send(error_reply(request_id, "bad_request", f"request id {request_id} is already in flight"))
            return
        await self.slots.acquire()  # backpressure: stop reading while the connection is at its cap
        scope = anyio.CancelScope()
        self.inflight[request_id] = scope
        self.server.inflight += 1
        tg.start_soon(self.run_request, request_id, method, params, scope, len(body))

    async def answer(self, request_id: int, tg: anyio.abc.TaskGroup, p: Any) -> dict[str, Any] | None:
        """The methods that act on this connection rather than on memories (their registry rows
        have no handler). Returns the result, or None once the reply has been written."""
        hub = self.server.service.events
        match p:
            case CancelParams(request_id=target):
                scope = self.inflight.get(target)
                if scope is None:
                    raise NotFound(f"no request {target} in flight on this connection", {"request_id": target})
                scope.cancel()
                return {"cancelled": True}
            case SubscribeParams():
                await self._subscribe(request_id, p, tg)
                return None
            case UnsubscribeParams(subscription=sub):
                if self.subscriber is None or not hub.unsubscribe(self.subscriber, sub):
                    raise NotFound(f"no subscription {sub} on this connection", {"subscription": sub})
                return {"unsubscribed": True}
        raise AssertionError(f"no connection method for {type(p).__name__}")

    async def _subscribe(self, request_id: int, p: SubscribeParams, tg: anyio.abc.TaskGroup) -> None:
        access, hub, peer = self.server.access, self.server.service.events, self.peer
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
            await self._write(self._reply_frame(ok_reply(request_id, result)), self.config.frame_timeout_s)

    async def _send_events(self, subscriber: Subscriber) -> None:
        with self._events_scope:
            await subscriber.run()

    async def run_request(
        self, request_id: int, method: str, params: Any, scope: anyio.CancelScope, size: int = 0
    ) -> None:
        try:
            reply: dict[str, Any] | None = None
            with scope:
                reply = await self.server.dispatcher.call(request_id, method, params, self.id, self.peer, size=size)
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
