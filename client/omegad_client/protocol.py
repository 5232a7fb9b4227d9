"""The omegad wire protocol: the one place where its constants and framing live.

`docs/protocol.md` in the omegad repository is the authority; this module implements it and
a test ties the two together (`PROTOCOL_VERSION` must equal the version the document states).
The daemon imports this module; this module imports nothing from the daemon, and nothing
heavier than msgpack.

Framing: a 4-byte big-endian unsigned length, then exactly that many bytes holding one
msgpack map. Requests are ``{"v": 1, "id": int, "method": str, "params": map}``; replies are
``{"id": id, "ok": true, "result": ...}`` or ``{"id": id, "ok": false, "error": {"code": str,
"message": str, "data": map?}}``; frames the daemon pushes on its own carry no ``id`` but an
``event`` key.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import msgpack

__all__ = [
    "DEFAULT_MAX_FRAME",
    "ERROR_CODES",
    "EVENT_TOPICS",
    "HEADER",
    "MEMORY_TYPES",
    "METHODS",
    "PROTOCOL_VERSION",
    "FrameError",
    "decode_body",
    "default_socket_path",
    "encode_frame",
    "error_reply",
    "ok_reply",
    "request",
]

#: Version of the wire protocol (not of either package). Bumped only on incompatible change.
PROTOCOL_VERSION: Final = 1

#: Frame header: body length as a 4-byte big-endian unsigned integer.
HEADER: Final = struct.Struct(">I")

#: Default cap on one frame's body, in bytes, on both sides.
DEFAULT_MAX_FRAME: Final = 8 * 1024 * 1024

#: Stable error codes. Clients match on these, never on messages.
ERROR_CODES: Final = (
    "bad_request",  # the frame is not a well-formed request (not msgpack, not a map, no id...)
    "unknown_method",  # the method name is not one the daemon serves
    "invalid_params",  # params are missing, of the wrong type, out of range, or unknown
    "too_large",  # a frame, text, batch or result exceeds a configured limit
    "not_found",  # the memory (or request, for cancel) does not exist
    "forbidden",  # the caller may not do this
    "unavailable",  # the daemon cannot serve this now (shutting down, overloaded, model down)
    "cancelled",  # the request was cancelled by a `cancel` call
    "timeout",  # the daemon gave up waiting (e.g. `flush` with a timeout)
    "internal",  # a bug or an unexpected failure inside the daemon
)

#: Methods of protocol version 1.
METHODS: Final = (
    "hello",
    "ping",
    "store",
    "store_batch",
    "get",
    "update",
    "delete",
    "query",
    "stats",
    "flush",
    "cancel",
    "contradictions",
    "traverse",
    "resolve",
    "unresolve",
    "maintain",
    "feedback",
    "export",
    "import",
    "list",
    "namespaces",
    "subscribe",
    "unsubscribe",
    "history",
)

#: Event topics a connection may `subscribe` to.
EVENT_TOPICS: Final = ("contradiction", "stored", "updated", "deleted")

#: Memory types the daemon accepts; "memory" is the default.
MEMORY_TYPES: Final = (
    "memory",
    "decision",
    "lesson",
    "preference",
    "fact",
    "error",
    "todo",
    "note",
    "session",
)


class FrameError(ValueError):
    """A frame that cannot be encoded or decoded under the wire rules. ``code`` is the wire
    error code it maps to (``too_large`` for a frame over the cap, else ``bad_request``)."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


def _reject_ext(code: int, data: bytes) -> Any:
    raise FrameError(f"msgpack extension types are not allowed (got ext type {code})")


def encode_frame(message: Mapping[str, Any], max_frame: int = DEFAULT_MAX_FRAME) -> bytes:
    """Encode one message as a complete frame (header + body).

    Raises `FrameError` when the body would exceed *max_frame* bytes or the message holds a
    value msgpack cannot carry under the wire rules.
    """
    try:
        body: bytes = msgpack.packb(message, use_bin_type=True, datetime=False)
    except (TypeError, ValueError, OverflowError) as exc:
        raise FrameError(f"cannot encode message: {exc}") from exc
    if len(body) > max_frame:
        raise FrameError(f"frame of {len(body)} bytes exceeds the limit of {max_frame}", "too_large")
    return HEADER.pack(len(body)) + body


def decode_body(body: bytes) -> Any:
    """Decode one frame body. Raises `FrameError` on anything that is not valid msgpack.

    Strings must be valid UTF-8, map keys must be str or bytes, extension types (including
    msgpack timestamps) are refused, and nesting deeper than msgpack's limit is an error, not
    a crash.
    """
    try:
        value = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            ext_hook=_reject_ext,
            timestamp=0,
            use_list=True,
        )
    except FrameError:
        raise
    except msgpack.ExtraData as exc:
        raise FrameError("trailing bytes after the msgpack value") from exc
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
        # UnicodeDecodeError is a ValueError; StackError / FormatError are UnpackValueError.
        raise FrameError(f"body is not valid msgpack: {type(exc).__name__}: {exc}") from exc
    # msgpack decodes its timestamp extension (type -1) itself instead of calling ext_hook.
    # Its headers are fixext4/fixext8/ext8 followed by 0xff; only walk the value if one occurs.
    if (b"\xd6\xff" in body or b"\xd7\xff" in body or b"\xc7\x0c\xff" in body) and _has_timestamp(value):
        raise FrameError("msgpack extension types are not allowed (got a msgpack timestamp)")
    return value


def _has_timestamp(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, msgpack.Timestamp):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def request(request_id: int, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Build a request message."""
    return {"v": PROTOCOL_VERSION, "id": request_id, "method": method, "params": dict(params)}


def ok_reply(request_id: Any, result: Any) -> dict[str, Any]:
    """Build a success reply."""
    return {"id": request_id, "ok": True, "result": result}


def error_reply(request_id: Any, code: str, message: str, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Build an error reply. *code* must be one of `ERROR_CODES`."""
    if code not in ERROR_CODES:
        raise ValueError(f"unknown error code {code!r}")
    error: dict[str, Any] = {"code": code, "message": message}
    if data:
        error["data"] = dict(data)
    return {"id": request_id, "ok": False, "error": error}


def default_socket_path(env: Mapping[str, str] | None = None) -> Path:
    """Where the daemon listens, resolved the same way by the daemon and every client.

    ``OMEGAD_SOCKET`` if set, else ``$XDG_RUNTIME_DIR/omegad/omegad.sock``, else the per-user
    fallback ``$XDG_STATE_HOME/omegad/omegad.sock`` (``~/.local/state`` when unset).
    """
    env = os.environ if env is None else env
    explicit = env.get("OMEGAD_SOCKET")
    if explicit:
        return Path(explicit).expanduser()
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime) / "omegad" / "omegad.sock"
    state = env.get("XDG_STATE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".local" / "state")
    return Path(state) / "omegad" / "omegad.sock"
