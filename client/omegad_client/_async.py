"""The anyio client: many calls in flight on one connection, replies matched by id.

Needs ``anyio`` (``pip install omegad-client[async]``); importing this module without it
raises ImportError, the rest of the package works with msgpack alone.
"""

from __future__ import annotations

import builtins
import itertools
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

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
from ._sync import DEFAULT_TIMEOUT, ClientState

__all__ = ["AsyncClient"]


class _Pending:
    __slots__ = ("done", "message")

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.message: dict[str, Any] | None = None


class AsyncClient:
    """``async with AsyncClient() as c: await c.store(...)`` — same surface as `Client`.

    Calls may run concurrently from many tasks; a cancelled call sends ``cancel`` for its
    request. Event frames pushed by the daemon reach the `events` stream of their
    subscription (bounded: when nobody reads them, new ones are dropped).
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
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._stream: anyio.abc.ByteStream | None = None
        self._send_lock = anyio.Lock()
        self._tg: anyio.abc.TaskGroup | None = None
        self._broken: OmegadError | None = None
        self._subscriptions: dict[int, MemoryObjectSendStream[dict[str, Any]]] = {}
        # events that arrived between a subscribe reply and its stream's registration
        self._early_events: dict[int, builtins.list[dict[str, Any]]] = {}

    async def __aenter__(self) -> AsyncClient:
        if self.state is not ClientState.UNOPENED:
            raise ClientClosed("an AsyncClient can be entered once; create a new one")
        try:
            self._stream = await anyio.connect_unix(str(self.socket_path))
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            raise DaemonNotRunning(str(self.socket_path), exc.strerror or "") from None
        except OSError as exc:
            raise DaemonNotRunning(str(self.socket_path), str(exc)) from None
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        self._tg.start_soon(self._reader)
        self.state = ClientState.OPENED
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self.state is ClientState.CLOSED:
            return
        self.state = ClientState.CLOSED
        if self._tg is not None:
            self._tg.cancel_scope.cancel()
            await self._tg.__aexit__(None, None, None)
            self._tg = None
        if self._stream is not None:
            await self._stream.aclose()
            self._stream = None
        self._fail_all(ClientClosed("the client was closed"))
        for send in self._subscriptions.values():
            send.close()
        self._subscriptions.clear()

    # -- transport -------------------------------------------------------------------------

    def _fail_all(self, error: OmegadError) -> None:
        self._broken = self._broken or error
        for pending in self._pending.values():
            pending.done.set()

    async def _reader(self) -> None:
        assert self._stream is not None
        buf = bytearray()
        try:
            while True:
                while len(buf) >= protocol.HEADER.size:
                    (length,) = protocol.HEADER.unpack_from(buf)
                    if length > self.max_frame:
                        raise ProtocolError(f"daemon sent a frame of {length} bytes")
                    end = protocol.HEADER.size + length
                    if len(buf) < end:
                        break
                    body = bytes(buf[protocol.HEADER.size : end])
                    del buf[:end]
                    self._route(body)
                try:
                    buf += await self._stream.receive()
                except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                    raise ConnectionLost("the daemon closed the connection") from None
        except OmegadError as exc:
            self._fail_all(exc)

    def _route(self, body: bytes) -> None:
        try:
            message = protocol.decode_body(body)
        except protocol.FrameError as exc:
            raise ProtocolError(str(exc)) from None
        if not isinstance(message, dict):
            raise ProtocolError(f"daemon sent a non-map frame: {message!r}")
        if "event" in message and "id" not in message:
            sub = message.get("subscription")
            send = self._subscriptions.get(sub) if isinstance(sub, int) else None
            if send is not None:
                try:
                    send.send_nowait(message)
                except (anyio.WouldBlock, anyio.BrokenResourceError, anyio.ClosedResourceError):
                    pass  # nobody reads them; drop rather than stall replies
            elif isinstance(sub, int) and (sub in self._early_events or len(self._early_events) < 16):
                early = self._early_events.setdefault(sub, [])
                if len(early) < 1000:
                    early.append(message)
            return
        request_id = message.get("id")
        pending = self._pending.get(request_id) if isinstance(request_id, int) else None
        if pending is not None:
            pending.message = message
            pending.done.set()

    async def _send(self, message: Mapping[str, Any]) -> None:
        try:
            frame = protocol.encode_frame(message, self.max_frame)
        except protocol.FrameError as exc:
            raise OmegadError(str(exc), code=exc.code) from None
        if self._stream is None:
            raise ClientClosed("the client is not open")
        async with self._send_lock:
            try:
                # Never stop halfway through a frame: the rest of the stream would be misread.
                with anyio.CancelScope(shield=True):
                    await self._stream.send(frame)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as exc:
                raise ConnectionLost(f"connection to the daemon failed: {exc}") from None

    async def call(self, method: str, params: Mapping[str, Any] | None = None) -> Any:
        """Send one request and return its ``result`` (raises the matching error)."""
        if self.state is not ClientState.OPENED:
            raise ClientClosed("use `async with AsyncClient() as client:`")
        if self._broken is not None:
            raise self._broken
        request_id = next(self._ids)
        pending = _Pending()
        self._pending[request_id] = pending
        try:
            await self._send(protocol.request(request_id, method, params or {}))
            try:
                with anyio.fail_after(self.timeout):
                    await pending.done.wait()
            except TimeoutError:
                raise Timeout(f"no reply to {method!r} within {self.timeout} s") from None
            except anyio.get_cancelled_exc_class():
                with anyio.CancelScope(shield=True), anyio.move_on_after(1):
                    try:
                        await self._send(protocol.request(next(self._ids), "cancel", {"request_id": request_id}))
                    except OmegadError:
                        pass  # the connection is gone; the cancellation still propagates
                raise
        finally:
            self._pending.pop(request_id, None)
        message = pending.message
        if message is None:
            raise self._broken or ConnectionLost("connection lost")
        if message.get("ok") is True:
            return message.get("result")
        raise error_from_reply(message.get("error"))

    # -- methods (same surface as Client) ---------------------------------------------------

    async def hello(self) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("hello")
        return result

    async def ping(self) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("ping")
        return result

    async def store(
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
        result = await self.store_result(
            text, type=type, tags=tags, namespace=namespace, metadata=metadata, created_at=created_at, id=id
        )
        memory_id: str = result["id"]
        return memory_id

    async def store_result(
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
        result: dict[str, Any] = await self.call(
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

    async def store_batch(self, items: Iterable[Mapping[str, Any] | str]) -> list[str]:
        result = await self.call("store_batch", {"items": item_params(items)})
        ids: list[str] = result["ids"]
        return ids

    async def get(self, id: str, *, as_of: str | datetime | None = None) -> dict[str, Any]:
        """A memory; with *as_of*, in the version it had then (not_found if it did not exist)."""
        result: dict[str, Any] = await self.call("get", params(id=id, as_of=as_of))
        return result

    async def history(self, id: str) -> dict[str, Any]:
        """A memory's versions, oldest first (a deleted memory's end in its tombstone)."""
        result: dict[str, Any] = await self.call("history", {"id": id})
        return result

    async def update(
        self,
        id: str,
        *,
        text: str | None = None,
        type: str | None = None,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        result: dict[str, Any] = await self.call(
            "update", params(id=id, text=text, type=type, tags=tag_list(tags), metadata=metadata)
        )
        return result

    async def delete(self, id: str, *, forget: bool = False) -> bool:
        """Delete a memory (its history keeps a tombstone); *forget* erases the history too."""
        result = await self.call("delete", params(id=id, forget=forget or None))
        deleted: bool = result["deleted"]
        return deleted

    async def query(
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
        result: dict[str, Any] = await self.call(
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

    async def stats(self) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("stats")
        return result

    async def list(
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
        """One page of a namespace (see `Client.list`)."""
        result: dict[str, Any] = await self.call(
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

    async def namespaces(self) -> builtins.list[dict[str, Any]]:
        result = await self.call("namespaces")
        names: builtins.list[dict[str, Any]] = result["namespaces"]
        return names

    def events(
        self, topics: Sequence[str] = protocol.EVENT_TOPICS, *, namespace: str | None = None
    ) -> AsyncEventStream:
        """``async with c.events(["stored"]) as ev: async for e in ev: ...`` (see `Client.events`)."""
        return AsyncEventStream(self, tuple(topics), namespace)

    async def contradictions(
        self, *, namespace: str | None = None, id: str | None = None, limit: int | None = None
    ) -> builtins.list[dict[str, Any]]:
        """Flagged contradictions (newest first) of a namespace or of one memory, with both texts."""
        result = await self.call("contradictions", params(namespace=namespace, id=id, limit=limit))
        edges: builtins.list[dict[str, Any]] = result["contradictions"]
        return edges

    async def traverse(
        self, id: str, *, kinds: Sequence[str] | None = None, depth: int | None = None
    ) -> dict[str, Any]:
        """The graph neighbourhood of a memory: ``{"nodes": [...], "edges": [...]}``."""
        result: dict[str, Any] = await self.call("traverse", params(id=id, kinds=kinds, depth=depth))
        return result

    async def resolve(self, source: str, target: str, resolution: str) -> dict[str, Any]:
        """Record a decision about a contradiction: ``keep_new``, ``keep_old`` or ``both_valid``."""
        result: dict[str, Any] = await self.call(
            "resolve", {"source": source, "target": target, "resolution": resolution}
        )
        return result

    async def unresolve(self, source: str, target: str) -> dict[str, Any]:
        """Undo `resolve`: the pair is flagged again."""
        result: dict[str, Any] = await self.call("unresolve", {"source": source, "target": target})
        return result

    async def export(
        self,
        *,
        namespace: str | None = None,
        snapshot: str | None = None,
        offset: int | None = None,
        limit: int | None = None,
    ) -> dict[str, Any]:
        """One page of an export (``{"header", "snapshot", "records", "next"}``); pass
        ``snapshot`` and ``offset=next`` for the following pages. See `export_records`."""
        result: dict[str, Any] = await self.call(
            "export", params(namespace=namespace, snapshot=snapshot, offset=offset, limit=limit)
        )
        return result

    async def export_records(self, *, namespace: str | None = None, page: int = 500) -> AsyncIterator[dict[str, Any]]:
        """A whole export, one consistent snapshot: the header, then memory and edge records."""
        reply = await self.export(namespace=namespace, limit=page)
        yield reply["header"]
        while True:
            for record in reply["records"]:
                yield record
            if reply["next"] is None:
                return
            reply = await self.export(namespace=namespace, snapshot=reply["snapshot"], offset=reply["next"], limit=page)

    async def import_records(self, records: Sequence[Mapping[str, Any]], *, model: str | None = None) -> dict[str, Any]:
        """Import memory and edge records of an export (at most ``limits.max_batch_items`` per
        call; ``model``: the export header's ``embedding_model``, so vectors are reused when it
        matches the daemon's)."""
        result: dict[str, Any] = await self.call("import", params(model=model, records=list(records)))
        return result

    async def feedback(self, id: str, score: float) -> dict[str, Any]:
        """Rate a memory (score from -1 to 1; ratings accumulate within bounds). A memory rated
        down far enough is hidden from queries unless they pass ``include_hidden=True``."""
        result: dict[str, Any] = await self.call("feedback", {"id": id, "score": score})
        return result

    async def maintain(self) -> dict[str, Any]:
        """Run a maintenance pass now (compaction, index folding, checkpoint, version cleanup)
        and return its report."""
        result: dict[str, Any] = await self.call("maintain")
        return result

    async def flush(self, timeout: float | None = None) -> dict[str, Any]:
        result: dict[str, Any] = await self.call("flush", params(timeout=timeout))
        return result


class AsyncEventStream:
    """The events of one subscription of an `AsyncClient` (see `AsyncClient.events`)."""

    def __init__(self, client: AsyncClient, topics: tuple[str, ...], namespace: str | None) -> None:
        self.client = client
        self.topics = topics
        self.namespace = namespace
        self.subscription: int | None = None
        self._receive: MemoryObjectReceiveStream[dict[str, Any]] | None = None

    async def __aenter__(self) -> AsyncEventStream:
        result = await self.client.call("subscribe", params(topics=list(self.topics), namespace=self.namespace))
        self.subscription = int(result["subscription"])
        send, self._receive = anyio.create_memory_object_stream[dict[str, Any]](1000)
        for message in self.client._early_events.pop(self.subscription, []):
            send.send_nowait(message)  # (the daemon sends them only after the reply)
        self.client._subscriptions[self.subscription] = send
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.subscription is None:
            return
        send = self.client._subscriptions.pop(self.subscription, None)
        if send is not None:
            send.close()
        self.client._early_events.pop(self.subscription, None)
        with anyio.CancelScope(shield=True), anyio.move_on_after(5):
            try:
                await self.client.call("unsubscribe", {"subscription": self.subscription})
            except OmegadError:
                pass  # the connection is gone: so is the subscription

    def __aiter__(self) -> AsyncEventStream:
        return self

    async def __anext__(self) -> dict[str, Any]:
        if self._receive is None:
            raise ClientClosed("use `async with client.events(...) as stream:`")
        try:
            return await self._receive.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None
