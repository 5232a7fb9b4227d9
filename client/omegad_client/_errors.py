"""The client's exception tree. Catch `OmegadError` to catch everything.

```
OmegadError                 every error this package raises; .code, .message, .data
 ├─ DaemonNotRunning        nothing listens at the socket path (code "not_running")
 ├─ ConnectionLost          the connection broke mid-call (code "connection_lost")
 ├─ ProtocolError           the daemon sent something that breaks the wire rules (code "protocol")
 ├─ ClientClosed            the client was closed and cannot be reused (code "closed")
 ├─ BadRequest              "bad_request"
 ├─ UnknownMethod           "unknown_method"
 ├─ InvalidParams           "invalid_params"
 ├─ TooLarge                "too_large"
 ├─ NotFound                "not_found"
 ├─ Forbidden               "forbidden"
 ├─ Unavailable             "unavailable"
 ├─ Cancelled               "cancelled"
 ├─ Timeout                 "timeout" (the daemon's) and client-side call timeouts
 └─ InternalError           "internal"
```
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = [
    "BadRequest",
    "Cancelled",
    "ClientClosed",
    "ConnectionLost",
    "DaemonNotRunning",
    "Forbidden",
    "InternalError",
    "InvalidParams",
    "NotFound",
    "OmegadError",
    "ProtocolError",
    "Timeout",
    "TooLarge",
    "Unavailable",
    "UnknownMethod",
    "error_from_reply",
]


class OmegadError(Exception):
    """Base class of every error raised by omegad_client."""

    code: ClassVar[str] = "error"

    def __init__(self, message: str, data: Mapping[str, Any] | None = None, *, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.data: dict[str, Any] = dict(data or {})
        if code is not None:
            self.code = code  # type: ignore[misc]

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class DaemonNotRunning(OmegadError):
    """No daemon accepts connections at the socket path."""

    code = "not_running"

    def __init__(self, path: str, reason: str = "") -> None:
        detail = f" ({reason})" if reason else ""
        super().__init__(
            f"omegad daemon not running at {path}{detail}; start it with `omegad serve`",
            {"socket": path},
        )
        self.path = path


class ConnectionLost(OmegadError):
    code = "connection_lost"


class ProtocolError(OmegadError):
    code = "protocol"


class ClientClosed(OmegadError):
    code = "closed"


class BadRequest(OmegadError):
    code = "bad_request"


class UnknownMethod(OmegadError):
    code = "unknown_method"


class InvalidParams(OmegadError):
    code = "invalid_params"


class TooLarge(OmegadError):
    code = "too_large"


class NotFound(OmegadError):
    code = "not_found"


class Forbidden(OmegadError):
    code = "forbidden"


class Unavailable(OmegadError):
    code = "unavailable"


class Cancelled(OmegadError):
    code = "cancelled"


class Timeout(OmegadError):
    code = "timeout"


class InternalError(OmegadError):
    code = "internal"


_BY_CODE: dict[str, type[OmegadError]] = {
    cls.code: cls
    for cls in (
        BadRequest,
        UnknownMethod,
        InvalidParams,
        TooLarge,
        NotFound,
        Forbidden,
        Unavailable,
        Cancelled,
        Timeout,
        InternalError,
    )
}


def error_from_reply(error: Any) -> OmegadError:
    """Turn the ``error`` map of a reply into the matching exception."""
    if not isinstance(error, dict):
        return ProtocolError(f"malformed error in reply: {error!r}")
    code = error.get("code")
    message = error.get("message")
    data = error.get("data")
    if not isinstance(code, str) or not isinstance(message, str):
        return ProtocolError(f"malformed error in reply: {error!r}")
    cls = _BY_CODE.get(code)
    payload = data if isinstance(data, dict) else None
    if cls is None:
        return OmegadError(message, payload, code=code)
    return cls(message, payload)
