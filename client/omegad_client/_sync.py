"""The blocking client: one Unix socket, one call at a time (thread-safe)."""

from __future__ import annotations

import builtins
import enum
import itertools
import socket
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from . import protocol
from ._errors import (
    ClientClosed,
    ConnectionLost,
    DaemonNotRunning,
    OmegadError,
    ProtocolError,
    Timeout,
    error_from_reply,
)
from ._params import item_params, params, tag_list

__all__ = ["DEFAULT_TIMEOUT", "Client", "ClientState"]

#: Seconds a call may take before the client gives up and drops the connection.
DEFAULT_TIMEOUT = 30.0


class ClientState(enum.Enum):
    UNOPENED = "unopened"  # no connection yet: the first call connects
    OPENED = "opened"
    CLOSED = "closed"  # close() was called: further calls raise ClientClosed


class Client:
    """A blocking omegad client.

    ``Client(socket_path=None, timeout=30.0)``: the socket path defaults to
    `protocol.default_socket_path()`. The connection opens on first use and is re-opened
    after a connection error; `close()` (or leaving the ``with`` block) ends the client for
    good. Every method raises a subclass of `OmegadError` on failure.
    """

    def __init__(
        self,
        socket_path: str | Path | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        *,
        max_frame: int = protocol.DEFAULT_MAX_FRAME,
    ) -> None:
        self.socket_path = Path(socket_path) if socket_path is not None else protocol.default_socket_path()
        self.timeout = timeout
        self.max_frame = max_frame
        self.state = ClientState.UNOPENED
        # event frames read while waiting for a reply, by subscription (others under None)
        self._events: dict[int | None, deque[dict[str, Any]]] = {}
        self._sock: socket.socket | None = None
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    # -- lifecycle -------------------------------------------------------------------------

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self.state = ClientState.CLOSED
        self._drop()

    def _drop(self) -> None:
        if self._sock is not None:
            try:
                self._sock.close()
            finally:
                self._sock = None

    def _connect(self) -> socket.socket:
        if self.state is ClientState.CLOSED:
            raise ClientClosed("this client was closed; create a new Client")
        if self._sock is not None:
            return self._sock
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(str(self.socket_path))
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            sock.close()
            raise DaemonNotRunning(str(self.socket_path), exc.strerror or "") from None
        except OSError as exc:
            sock.close()
            raise DaemonNotRunning(str(self.socket_path), str(exc)) from None
        self._sock = sock
        self.state = ClientState.OPENED
        return sock

    # -- transport -------------------------------------------------------------------------

    def _recv_exact(self, sock: socket.socket, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = sock.recv(min(n - len(buf), 1 << 20))
            if not chunk:
                raise ConnectionLost("the daemon closed the connection")
            buf += chunk
        return bytes(buf)

    def _read_message(self, sock: socket.socket) -> dict[str, Any]:
        (length,) = protocol.HEADER.unpack(self._recv_exact(sock, protocol.HEADER.size))
        if length > self.max_frame:
            raise ProtocolError(f"daemon sent a frame of {length} bytes (limit {self.max_frame})")
        try:
            message = protocol.decode_body(self._recv_exact(sock, length))
        except protocol.FrameError as exc:
            raise ProtocolError(str(exc)) from None
        if not isinstance(message, dict):
            raise ProtocolError(f"daemon sent a non-map frame: {message!r}")
        return message

    def call(self, method: str, params: Mapping[str, Any] | None = None) -> Any:
        """Send one request and return its ``result`` (raises the matching error)."""
        with self._lock:
            request_id = next(self._ids)
            try:
                frame = protocol.encode_frame(protocol.request(request_id, method, params or {}), self.max_frame)
            except protocol.FrameError as exc:
                raise OmegadError(str(exc), code=exc.code) from None
            sock = self._connect()
            try:
                sock.sendall(frame)
                while True:
                    message = self._read_message(sock)
                    if "event" in message and "id" not in message:
                        self._keep_event(message)
                        continue
                    if message.get("id") == request_id:
                        break
                    if message.get("id") is None and message.get("ok") is False:
                        # The daemon could not tell which request this answers; it is ours,
                        # and the daemon may close the connection after it: start afresh.
                        self._drop()
                        break
            except TimeoutError:
                self._drop()
                raise Timeout(f"no reply to {method!r} within {self.timeout} s") from None
            except OmegadError:
                self._drop()
                raise
            except OSError as exc:
                self._drop()
                raise ConnectionLost(f"connection to the daemon failed: {exc}") from None
        if message.get("ok") is True:
            return message.get("result")
        raise error_from_reply(message.get("error"))

    def _keep_event(self, message: dict[str, Any]) -> None:
        sub = message.get("subscription")
        key = sub if isinstance(sub, int) and sub in self._events else None
        self._events.setdefault(key, deque(maxlen=1000)).append(message)

    def _next_event(self, subscription: int, timeout: float | None) -> dict[str, Any] | None:
        """The next event frame of *subscription*, waiting up to *timeout* s (None: forever);
        None when none came in time."""
        with self._lock:
            queue = self._events.setdefault(subscription, deque(maxlen=1000))
            if queue:
                return queue.popleft()
            sock = self._connect()
            try:
                while True:
                    # Only the wait for a frame's first bytes may time out: a frame, once
                    # started, is read whole (else the stream would be misread).
                    sock.settimeout(timeout)
                    try:
                        head = sock.recv(protocol.HEADER.size, socket.MSG_PEEK)
                    except TimeoutError:
                        return None
                    if not head:
                        raise ConnectionLost("the daemon closed the connection")
                    sock.settimeout(self.timeout)
                    message = self._read_message(sock)
                    if "event" in message and "id" not in message:
                        self._keep_event(message)
                        if queue:
                            return queue.popleft()
            except OmegadError:
                self._drop()
                raise
            except OSError as exc:
                self._drop()
                raise ConnectionLost(f"connection to the daemon failed: {exc}") from None
            finally:
                if self._sock is not None:
                    self._sock.settimeout(self.timeout)

    # -- methods ---------------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        result: dict[str, Any] = self.call("hello")
        return result

    def ping(self) -> dict[str, Any]:
        result: dict[str, Any] = self.call("ping")
        return result

    def store(
        self,
        text: str,
        *,
        type: str | None = None,
        tags: Sequence[str] | None = None,
        namespace: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_at: str | datetime | None = None,
        id: str | None = None,
    ) -> str:
        """Store one memory; returns its id (the given *id* makes retries idempotent)."""
        result = self.store_result(
            text, type=type, tags=tags, namespace=namespace, metadata=metadata, created_at=created_at, id=id
        )
        memory_id: str = result["id"]
        return memory_id

    def store_result(
        self,
        text: str,
        *,
        type: str | None = None,
        tags: Sequence[str] | None = None,
        namespace: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_at: str | datetime | None = None,
        id: str | None = None,
    ) -> dict[str, Any]:
        """Like `store` but returns the whole reply: ``{"id": ..., "created": bool}``, plus
        ``duplicate_of`` when an existing memory with the same text answered it."""
        result: dict[str, Any] = self.call(
            "store",
            params(
                text=text,
                type=type,
                tags=tag_list(tags),
                namespace=namespace,
                metadata=metadata,
                created_at=created_at,
                id=id,
            ),
        )
        return result

    def store_batch(self, items: Iterable[Mapping[str, Any] | str]) -> list[str]:
        """Store several memories in one request and one commit; returns their ids in order."""
        result = self.call("store_batch", {"items": item_params(items)})
        ids: list[str] = result["ids"]
        return ids

    def get(self, id: str, *, as_of: str | datetime | None = None) -> dict[str, Any]:
        """A memory; with *as_of*, in the version it had then (not_found if it did not exist)."""
        result: dict[str, Any] = self.call("get", params(id=id, as_of=as_of))
        return result

    def history(self, id: str) -> dict[str, Any]:
        """A memory's versions, oldest first (a deleted memory's end in its tombstone)."""
        result: dict[str, Any] = self.call("history", {"id": id})
        return result

    def update(
        self,
        id: str,
        *,
        text: str | None = None,
        type: str | None = None,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Change fields of a memory; returns the updated memory."""
        result: dict[str, Any] = self.call(
            "update", params(id=id, text=text, type=type, tags=tag_list(tags), metadata=metadata)
        )
        return result

    def delete(self, id: str, *, forget: bool = False) -> bool:
        """Delete a memory (its history keeps a tombstone); *forget* erases the history too."""
        result = self.call("delete", params(id=id, forget=forget or None))
        deleted: bool = result["deleted"]
        return deleted

    def query(
        self,
        text: str,
        *,
        limit: int | None = None,
        namespace: str | None = None,
        types: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        since: str | datetime | None = None,
        until: str | datetime | None = None,
        rerank: bool | None = None,
        explain: bool = False,
        include_hidden: bool = False,
        context: Mapping[str, Any] | None = None,
        as_of: str | datetime | None = None,
        include_duplicates: bool = False,
        max_tokens: int | None = None,
        min_score: float | None = None,
    ) -> Any:
        """Recall memories. Returns the list of results, or the whole reply with ``explain``
        (and with ``max_tokens``, whose ``budget`` says what fitted)."""
        result: dict[str, Any] = self.call(
            "query",
            params(
                text=text,
                limit=limit,
                namespace=namespace,
                types=types,
                tags=tags,
                since=since,
                until=until,
                rerank=rerank,
                explain=explain or None,
                include_hidden=include_hidden or None,
                context=dict(context) if context else None,
                as_of=as_of,
                include_duplicates=include_duplicates or None,
                max_tokens=max_tokens,
                min_score=min_score,
            ),
        )
        return result if explain or max_tokens else result["results"]

    def stats(self) -> dict[str, Any]:
        result: dict[str, Any] = self.call("stats")
        return result

    def list(
        self,
        *,
        namespace: str | None = None,
        types: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        since: str | datetime | None = None,
        until: str | datetime | None = None,
        order: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
        include_hidden: bool = False,
    ) -> dict[str, Any]:
        """One page of a namespace, newest first (or ``order="oldest"``): ``{"memories",
        "next"}``; pass ``next`` back as *cursor* for the following page."""
        result: dict[str, Any] = self.call(
            "list",
            params(
                namespace=namespace,
                types=types,
                tags=tags,
                since=since,
                until=until,
                order=order,
                cursor=cursor,
                limit=limit,
                include_hidden=include_hidden or None,
            ),
        )
        return result

    def list_all(self, *, namespace: str | None = None, page: int = 200, **filters: Any) -> Iterator[dict[str, Any]]:
        """Every memory of a namespace (filters as for `list`), page by page."""
        cursor = None
        while True:
            result = self.list(namespace=namespace, cursor=cursor, limit=page, **filters)
            yield from result["memories"]
            cursor = result["next"]
            if cursor is None:
                return

    def namespaces(self) -> builtins.list[dict[str, Any]]:
        """The namespaces you may read: ``[{"name", "memories", "last_write"}]``."""
        result = self.call("namespaces")
        names: builtins.list[dict[str, Any]] = result["namespaces"]
        return names

    def events(self, topics: Sequence[str] = protocol.EVENT_TOPICS, *, namespace: str | None = None) -> EventStream:
        """Subscribe to events on this connection: ``with c.events(["stored"]) as ev: for e
        in ev: ...``. Each event is ``{"event", "data", "subscription"}``, plus ``dropped``
        when the daemon had to drop some for this connection (it was not read fast enough)."""
        result = self.call("subscribe", params(topics=list(topics), namespace=namespace))
        return EventStream(self, int(result["subscription"]))

    def contradictions(
        self, *, namespace: str | None = None, id: str | None = None, limit: int | None = None
    ) -> builtins.list[dict[str, Any]]:
        """Flagged contradictions (newest first) of a namespace or of one memory, with both texts."""
        result = self.call("contradictions", params(namespace=namespace, id=id, limit=limit))
        edges: builtins.list[dict[str, Any]] = result["contradictions"]
        return edges

    def traverse(self, id: str, *, kinds: Sequence[str] | None = None, depth: int | None = None) -> dict[str, Any]:
        """The graph neighbourhood of a memory: ``{"nodes": [...], "edges": [...]}``."""
        result: dict[str, Any] = self.call("traverse", params(id=id, kinds=kinds, depth=depth))
        return result

    def resolve(self, source: str, target: str, resolution: str) -> dict[str, Any]:
        """Record a decision about a contradiction: ``keep_new``, ``keep_old`` or ``both_valid``."""
        result: dict[str, Any] = self.call("resolve", {"source": source, "target": target, "resolution": resolution})
        return result

    def unresolve(self, source: str, target: str) -> dict[str, Any]:
        """Undo `resolve`: the pair is flagged again."""
        result: dict[str, Any] = self.call("unresolve", {"source": source, "target": target})
        return result

    def export(
        self,
        *,
        namespace: str | None = None,
        snapshot: str | None = None,
        offset: int | None = None,
        limit: int | None = None,
    ) -> dict[str, Any]:
        """One page of an export (``{"header", "snapshot", "records", "next"}``); pass
        ``snapshot`` and ``offset=next`` for the following pages. See `export_records`."""
        result: dict[str, Any] = self.call(
            "export", params(namespace=namespace, snapshot=snapshot, offset=offset, limit=limit)
        )
        return result

    def export_records(self, *, namespace: str | None = None, page: int = 500) -> Iterator[dict[str, Any]]:
        """A whole export, one consistent snapshot: the header, then memory and edge records."""
        reply = self.export(namespace=namespace, limit=page)
        yield reply["header"]
        while True:
            yield from reply["records"]
            if reply["next"] is None:
                return
            reply = self.export(namespace=namespace, snapshot=reply["snapshot"], offset=reply["next"], limit=page)

    def import_records(self, records: Sequence[Mapping[str, Any]], *, model: str | None = None) -> dict[str, Any]:
        """Import memory and edge records of an export (at most ``limits.max_batch_items`` per
        call; ``model``: the export header's ``embedding_model``, so vectors are reused when it
        matches the daemon's)."""
        result: dict[str, Any] = self.call("import", params(model=model, records=list(records)))
        return result

    def feedback(self, id: str, score: float) -> dict[str, Any]:
        """Rate a memory (score from -1 to 1; ratings accumulate within bounds). A memory rated
        down far enough is hidden from queries unless they pass ``include_hidden=True``."""
        result: dict[str, Any] = self.call("feedback", {"id": id, "score": score})
        return result

    def maintain(self) -> dict[str, Any]:
        """Run a maintenance pass now (compaction, index folding, checkpoint, version cleanup)
        and return its report."""
        result: dict[str, Any] = self.call("maintain")
        return result

    def flush(self, timeout: float | None = None) -> dict[str, Any]:
        """Wait until every background job queued before this call has finished."""
        result: dict[str, Any] = self.call("flush", params(timeout=timeout))
        return result


class EventStream:
    """The events of one subscription (see `Client.events`). Iterating waits for the next
    event without end; `get` waits at most *timeout* s. `close` (or leaving the ``with``
    block) unsubscribes."""

    def __init__(self, client: Client, subscription: int) -> None:
        self.client = client
        self.subscription = subscription
        self.closed = False

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        if self.closed:
            raise ClientClosed("this event stream was closed")
        return self.client._next_event(self.subscription, timeout)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        while not self.closed:
            event = self.get(None)
            if event is not None:
                yield event

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.client._events.pop(self.subscription, None)
        if self.client.state is ClientState.OPENED and self.client._sock is not None:
            try:
                self.client.call("unsubscribe", {"subscription": self.subscription})
            except OmegadError:
                pass  # the connection is gone: so is the subscription

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
