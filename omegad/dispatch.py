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

from .config import Config
from .errors import BadRequest, ServiceError
from .schema import parse_params
from .service import Service

__all__ = ["Dispatcher", "Envelope"]

log = structlog.get_logger("omegad")

Envelope = tuple[int, str, Any]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Dispatcher:
    def __init__(self, service: Service, config: Config) -> None:
        self.service = service
        self.config = config
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

    async def call(self, request_id: int, method: str, raw_params: Any, conn_id: int) -> dict[str, Any]:
        started = time.perf_counter()
        outcome = "ok"
        try:
            if method not in METHODS or (method not in self.handlers and method != "cancel"):
                raise ServiceError(
                    f"unknown method {_short(method)}; known: {', '.join(METHODS)}", code="unknown_method"
                )
            params = parse_params(method, {} if raw_params is None else raw_params, self.config)
            result = await self.handlers[method](params)
            reply = ok_reply(request_id, result)
        except ServiceError as exc:
            outcome = exc.code
            reply = error_reply(request_id, exc.code, exc.message, exc.data)
        except anyio.get_cancelled_exc_class():
            outcome = "cancelled"
            raise
        except Exception as exc:
            outcome = "internal"
            log.exception("internal_error", method=method, request_id=request_id)
            reply = error_reply(request_id, "internal", f"internal error: {type(exc).__name__}: {exc}")
        finally:
            ms = (time.perf_counter() - started) * 1000
            log.info(
                "request", method=method if method in METHODS else "?", ms=round(ms, 3), outcome=outcome, conn=conn_id
            )
        return reply
