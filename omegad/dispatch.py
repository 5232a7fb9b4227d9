"""Request → handler → reply. The one place where exceptions become error replies.

`Dispatcher.envelope` checks a decoded frame is a request of this protocol version and
returns its id, method and raw params; `Dispatcher.call` parses the params into their typed
form (`omegad.schema`), runs the handler and returns a reply map — never raises, except
for cancellation of the calling task.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import structlog

from omegad_client.protocol import METHODS, PROTOCOL_VERSION, error_reply, ok_reply

from .access import Access, Peer
from .config import Config
from .errors import BadRequest, Forbidden, ServiceError
from .schema import parse_params
from .service import Service

__all__ = ["Dispatcher", "Envelope"]

log = structlog.get_logger("omegad")

Envelope = tuple[int, str, Any]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: Methods every connected peer may call: they read or change nothing of anyone's memories.
OPEN = frozenset({"hello", "ping", "flush", "cancel"})
#: Methods that span every namespace: the daemon owner's alone.
OWNER_ONLY = frozenset({"stats", "maintain", "import", "export"})


class Dispatcher:
    def __init__(self, service: Service, config: Config, access: Access | None = None) -> None:
        self.service = service
        self.config = config
        self.access = access if access is not None else Access(config.access_grants)
        self.handlers: dict[str, Callable[[Any], Awaitable[Any]]] = {
            "hello": service.hello,
            "ping": service.ping,
            "store": service.store_one,
            "store_batch": service.store_batch,
            "get": service.get,
            "update": service.update,
            "delete": service.delete,
            "query": service.query,
            "stats": service.stats,
            "flush": service.flush,
            "contradictions": service.contradictions,
            "traverse": service.traverse,
            "resolve": service.resolve,
            "unresolve": service.resolve,
            "maintain": service.maintain,
            "feedback": service.feedback,
            "export": service.export,
            "import": service.import_,
            "list": service.list_memories,
            "namespaces": service.namespaces,
        }

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

    async def authorize(self, method: str, p: Any, peer: Peer) -> None:
        """Raise Forbidden unless *peer* may call *method* with params *p* (see `omegad.access`):
        the namespace a request names, or for a request by id the namespace of that memory."""
        if self.access.is_owner(peer) or method in OPEN or method == "namespaces":  # (filtered: `call`)
            return
        if method in OWNER_ONLY:
            raise Forbidden(f"{method} spans every namespace: only the daemon's owner may call it")
        write = method in ("store", "store_batch", "update", "delete", "feedback", "resolve", "unresolve")
        if method == "store_batch":
            namespaces = {item.namespace for item in p.items}
        elif method in ("store", "query", "list"):
            namespaces = {p.namespace}
        elif method == "contradictions" and p.id is None:
            if p.namespace is None:
                raise Forbidden("listing contradictions of every namespace is the owner's; name a namespace")
            namespaces = {p.namespace}
        else:
            ids = [p.source, p.target] if method in ("resolve", "unresolve") else [p.id]
            namespaces = set((await self.service.namespaces_of(ids)).values())
        for namespace in sorted(namespaces):
            if not self.access.may(peer, namespace, write):
                raise Forbidden(
                    f"{peer.describe()} may not {'write' if write else 'read'} namespace {namespace!r}",
                    {"namespace": namespace, "access": "write" if write else "read"},
                )

    async def call(
        self, request_id: int, method: str, raw_params: Any, conn_id: int, peer: Peer | None = None
    ) -> dict[str, Any]:
        started = time.perf_counter()
        outcome = "ok"
        try:
            if method not in METHODS or (method not in self.handlers and method != "cancel"):
                raise ServiceError(
                    f"unknown method {_short(method)}; known: {', '.join(METHODS)}", code="unknown_method"
                )
            params = parse_params(method, {} if raw_params is None else raw_params, self.config)
            await self.authorize(method, params, peer or Peer(uid=self.access.owner_uid, gid=-1))
            result = await self.handlers[method](params)
            if method == "namespaces" and peer is not None and not self.access.is_owner(peer):
                result["namespaces"] = [n for n in result["namespaces"] if self.access.may(peer, n["name"], False)]
            reply = ok_reply(request_id, result)
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
                reply = error_reply(request_id, "internal", f"internal error: {type(exc).__name__}: {exc}")
        finally:
            self.service.calls += 1
            ms = (time.perf_counter() - started) * 1000
            log.info(
                "request", method=method if method in METHODS else "?", ms=round(ms, 3), outcome=outcome, conn=conn_id
            )
        return reply
