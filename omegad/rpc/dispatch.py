"""Request → handler → reply. The one place where exceptions become error replies.

`Dispatcher.envelope` checks a decoded frame is a request of this protocol version and
returns its id, method and raw params; `Dispatcher.call` parses the params into their typed
form, checks the caller may make the call, runs the handler (all three from the method's row
in `omegad.rpc.registry`) and returns a reply map — never raises, except for cancellation of
the calling task.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import structlog

from omegad.app.service import Service
from omegad.config import Config
from omegad.errors import BadRequest, Forbidden, ServiceError, error_text
from omegad.grants import Peer
from omegad.rpc.access import Access
from omegad.rpc.registry import REGISTRY, Method, Rule
from omegad_client.protocol import PROTOCOL_VERSION, error_reply, ok_reply

__all__ = ["PARSE_BULK_BYTES", "PARSE_INLINE_BYTES", "Answer", "Dispatcher", "Envelope"]

log = structlog.get_logger("omegad")

Envelope = tuple[int, str, Any]
#: Answers a method of the connection's own (see `Dispatcher.call`).
Answer = Callable[[Any], Awaitable[dict[str, Any] | None]]


#: Requests of more bytes than this are parsed in a worker thread: parsing screens every text
#: for secrets, ~2 ms a KB on the slowest inputs, and a batch of long texts would otherwise
#: hold the event loop, and every other client, for seconds.
PARSE_INLINE_BYTES = 2048
#: Requests of more bytes than this (imports, big batches) are parsed one at a time in a lane of
#: their own, so one client's import of seconds leaves the other lane to everyone's stores.
PARSE_BULK_BYTES = 256 * 1024


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Dispatcher:
    def __init__(self, service: Service, config: Config, access: Access | None = None) -> None:
        self.service = service
        self.config = config
        self.access = access if access is not None else Access(config.access_grants)
        self.parse_limiter = anyio.CapacityLimiter(1)
        self.bulk_parse_limiter = anyio.CapacityLimiter(1)

    def envelope(self, message: Any) -> Envelope:
        """Validate the request envelope; raises BadRequest (with the id when it is known)."""
        if not isinstance(message, dict):
            raise BadRequest(f"a request must be a map, got {type(message).__name__}")
        request_id = message.get("id")
        if isinstance(request_id, bool) or not isinstance(request_id, int) or not -(2**63) <= request_id < 2**64:
            raise BadRequest(f"request id must be an integer, got {_short(request_id)}")
        version = message.get("v")
        if version != PROTOCOL_VERSION:
            raise BadRequest(
                f"unsupported protocol version {_short(version)}; this daemon speaks {PROTOCOL_VERSION}",
                {"supported": [PROTOCOL_VERSION], "id": request_id},
            )
        method = message.get("method")
        if not isinstance(method, str):
            raise BadRequest(f"method must be a string, got {_short(method)}", {"id": request_id})
        extra = [k for k in message if k not in ("v", "id", "method", "params")]
        if extra:
            raise BadRequest(f"unknown request key(s): {', '.join(_short(k) for k in extra[:10])}", {"id": request_id})
        return request_id, method, message.get("params", {})

    async def authorize(self, method: Method[Any], p: Any, peer: Peer) -> None:
        """Raise Forbidden unless *peer* may make this call (see `omegad.rpc.access`): its rule,
        checked against what the call touches (the namespaces it names, or for a call by id the
        namespace of that memory)."""
        if self.access.is_owner(peer) or method.rule is Rule.OPEN:
            return
        if method.rule is Rule.OWNER:
            raise Forbidden(f"{method.name} spans every namespace: only the daemon's owner may call it")
        assert method.scope is not None  # (READ and WRITE have one: `Method.__post_init__`)
        write = method.rule is Rule.WRITE
        scope = method.scope(p)
        namespaces = set(scope.namespaces)
        if scope.ids:
            namespaces |= set((await self.service.namespaces_of(list(scope.ids))).values())
        for namespace in sorted(namespaces):
            if not self.access.may(peer, namespace, write):
                raise Forbidden(
                    f"{peer.describe()} may not {'write' if write else 'read'} namespace {namespace!r}",
                    {"namespace": namespace, "access": "write" if write else "read"},
                )

    async def call(
        self,
        request_id: int,
        method: str,
        raw_params: Any,
        conn_id: int,
        peer: Peer | None = None,
        answer: Answer | None = None,
        size: int = 0,
    ) -> dict[str, Any] | None:
        """Answer one request: its reply map. *answer* answers the methods a connection answers
        itself (a row without a handler); it returns their result, or None once it has written
        the reply itself, and then so does this. *size*: the request's bytes (a big one is
        parsed in a worker thread)."""
        started = time.perf_counter()
        outcome = "ok"
        reply: dict[str, Any] | None
        try:
            row = REGISTRY.get(method)
            handler = row.handler if row is not None else None
            if row is None or (handler is None) == (answer is None):
                raise ServiceError(
                    f"unknown method {_short(method)}; known: {', '.join(REGISTRY)}", code="unknown_method"
                )
            raw = {} if raw_params is None else raw_params
            if size > PARSE_INLINE_BYTES:
                lane = self.bulk_parse_limiter if size > PARSE_BULK_BYTES else self.parse_limiter
                params = await anyio.to_thread.run_sync(row.read, raw, self.config, limiter=lane)
            else:
                params = row.read(raw, self.config)
            caller = peer or Peer(uid=self.access.owner_uid, gid=-1)
            await self.authorize(row, params, caller)
            result: dict[str, Any] | None
            if handler is not None:
                result = await handler(self.service, params)
            else:
                assert answer is not None
                result = await answer(params)
            if result is not None and row.redact is not None and not self.access.is_owner(caller):
                result = row.redact(result, lambda namespace: self.access.may(caller, namespace, False))
            reply = ok_reply(request_id, result) if result is not None else None
        except ServiceError as exc:
            outcome = exc.code
            reply = error_reply(request_id, exc.code, exc.message, exc.data)
        except anyio.get_cancelled_exc_class():
            outcome = "cancelled"
            raise
        except Exception as exc:
            typed = self.service.faults.storage_error(exc, method)  # degraded mode, not a bug
            if typed is not None:
                outcome = typed.code
                reply = error_reply(request_id, typed.code, typed.message, typed.data)
            else:
                outcome = "internal"
                log.exception("internal_error", method=method, request_id=request_id)
                reply = error_reply(request_id, "internal", f"internal error: {error_text(exc)}")
        finally:
            self.service.calls += 1
            ms = (time.perf_counter() - started) * 1000
            log.info(
                "request", method=method if method in REGISTRY else "?", ms=round(ms, 3), outcome=outcome, conn=conn_id
            )
        return reply
