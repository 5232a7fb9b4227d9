"""Errors raised inside the daemon. Each `ServiceError` carries a stable wire code;
`omegad.rpc.dispatch` is the one place that turns them (and anything unexpected, as
``internal``) into error replies. `StartupError` never reaches the wire: the daemon exits with
its message."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from omegad.logs import clean_native_message
from omegad_client.protocol import ERROR_CODES

__all__ = [
    "BadRequest",
    "Forbidden",
    "InvalidParams",
    "NotFound",
    "ServiceError",
    "StartupError",
    "TooLarge",
    "Unavailable",
    "error_text",
]


class ServiceError(Exception):
    """An error with a wire code. Subclasses fix the code."""

    code = "internal"

    def __init__(self, message: str, data: Mapping[str, Any] | None = None, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = dict(data or {})
        if code is not None:
            if code not in ERROR_CODES:
                raise ValueError(f"unknown error code {code!r}")
            self.code = code


class BadRequest(ServiceError):
    code = "bad_request"


class InvalidParams(ServiceError):
    code = "invalid_params"


class TooLarge(ServiceError):
    code = "too_large"


class NotFound(ServiceError):
    code = "not_found"


class Forbidden(ServiceError):
    code = "forbidden"


class Unavailable(ServiceError):
    code = "unavailable"


class StartupError(Exception):
    """The daemon cannot start; the message says why and what to do."""


def error_text(exc: BaseException, limit: int = 300) -> str:
    """``Type: message`` on one line for logs and reports, without the source paths of the
    machine Lance was built on."""
    text = clean_native_message(f"{type(exc).__name__}: {exc}").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"
