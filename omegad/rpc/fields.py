"""Reading a params map one key at a time: each value is checked for its type, range and
size, and a bad one is rejected as `invalid_params` / `too_large` naming the key
(``params.items[3].tags[0]``). `Reader.done` rejects the keys nobody read, so a typo never
silently does nothing. The per-method parsers built from these are `omegad.rpc.schema`.

A leaf module: it imports only `omegad.config` and the errors.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from omegad.config import Config
from omegad.errors import InvalidParams, TooLarge
from omegad.requests import split_cursor
from omegad_client.protocol import MEMORY_TYPES

__all__ = [
    "ID_RE",
    "NAMESPACE_RE",
    "Reader",
    "decode_cursor",
    "kind_of",
    "params_map",
    "parse_time",
]

MAX_TAGS = 32
MAX_TAG_CHARS = 64
MAX_METADATA_DEPTH = 8

# Identifiers: printable ASCII without quotes, spaces or backslashes (they end up in storage
# filters, which are escaped anyway; the charset keeps them unambiguous in logs and CLIs).
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/+\-]{0,127}")
NAMESPACE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/\-]{0,127}")

#: Builds the error for a bad value from a message (`Reader.fail` bound to its key).
Fail = Callable[[str], Exception]


def kind_of(value: Any) -> str:
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, bytes):
        return "bin (text must be sent as msgpack str)"
    return {int: "int", float: "float", str: "str", list: "array", dict: "map"}.get(type(value), type(value).__name__)


class Reader:
    """Takes keys out of a params map one by one; `done()` rejects whatever is left."""

    def __init__(self, params: Mapping[str, Any], config: Config, where: str = "params") -> None:
        self.params = dict(params)
        self.config = config
        self.where = where

    def fail(self, key: str, message: str) -> InvalidParams:
        return InvalidParams(f"{self.where}.{key}: {message}", {"param": f"{self.where}.{key}"})

    def take(self, key: str) -> Any:
        return self.params.pop(key, None)

    def string(self, key: str, *, required: bool) -> str | None:
        """A string param, or None where it is absent and may be."""
        value = self.take(key)
        if value is None:
            if required:
                raise self.fail(key, "is required")
            return None
        if not isinstance(value, str):
            raise self.fail(key, f"expected str, got {kind_of(value)}")
        return value

    def text(self, key: str, *, required: bool) -> str | None:
        value = self.string(key, required=required)
        if value is None:
            return None
        if not value.strip():
            raise self.fail(key, "must not be empty")
        if "\x00" in value:
            raise self.fail(key, "must not contain NUL characters")
        if len(value) > self.config.max_text_chars:
            raise TooLarge(
                f"{self.where}.{key}: {len(value)} characters exceeds the limit of {self.config.max_text_chars}",
                {"param": f"{self.where}.{key}", "limit": self.config.max_text_chars},
            )
        return value

    def ident(self, key: str, *, required: bool, pattern: re.Pattern[str] = ID_RE, what: str = "id") -> str | None:
        value = self.string(key, required=required)
        if value is None:
            return None
        if not pattern.fullmatch(value):
            raise self.fail(
                key,
                f"invalid {what} {value[:80]!r}: 1-128 characters, letters, digits and . _ : @ / -"
                + (" +" if pattern is ID_RE else "")
                + ", starting with a letter or digit",
            )
        return value

    def namespace(self, key: str = "namespace") -> str | None:
        return self.ident(key, required=False, pattern=NAMESPACE_RE, what="namespace")

    def mem_type(self, key: str) -> str | None:
        value = self.string(key, required=False)
        if value is None:
            return None
        if value not in MEMORY_TYPES:
            raise self.fail(key, f"unknown type {value[:40]!r}; one of: {', '.join(MEMORY_TYPES)}")
        return value

    def str_list(self, key: str) -> list[Any] | None:
        """An array param (its items checked by the caller), or None where it is absent."""
        value = self.take(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise self.fail(key, f"expected array of str, got {kind_of(value)}")
        return value

    def type_list(self, key: str) -> tuple[str, ...] | None:
        value = self.str_list(key)
        if value is None:
            return None
        if not value or len(value) > len(MEMORY_TYPES):
            raise self.fail(key, f"expected 1 to {len(MEMORY_TYPES)} types")
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or item not in MEMORY_TYPES:
                raise self.fail(f"{key}[{i}]", f"unknown type {item!r}; one of: {', '.join(MEMORY_TYPES)}")
            if item not in out:
                out.append(item)
        return tuple(out)

    def tags(self, key: str) -> tuple[str, ...] | None:
        value = self.str_list(key)
        if value is None:
            return None
        if len(value) > MAX_TAGS:
            raise self.fail(key, f"at most {MAX_TAGS} tags, got {len(value)}")
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise self.fail(f"{key}[{i}]", f"expected str, got {kind_of(item)}")
            tag = item.strip()
            if not tag or len(tag) > MAX_TAG_CHARS or any(ord(c) < 32 for c in tag):
                raise self.fail(f"{key}[{i}]", f"a tag is 1-{MAX_TAG_CHARS} printable characters")
            if tag not in out:
                out.append(tag)
        return tuple(out)

    def metadata(self, key: str) -> Mapping[str, Any] | None:
        value = self.take(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.fail(key, f"expected map, got {kind_of(value)}")
        # Every JSON value takes at least one byte: more nodes than the byte limit is too
        # large, found in O(limit) before anything more expensive runs on the event loop.
        if _count_nodes(value, self.config.max_metadata_bytes) > self.config.max_metadata_bytes:
            raise TooLarge(
                f"{self.where}.{key}: metadata exceeds the limit of {self.config.max_metadata_bytes} bytes",
                {"param": f"{self.where}.{key}", "limit": self.config.max_metadata_bytes},
            )
        _check_json_value(value, f"{self.where}.{key}", 0)
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        if size > self.config.max_metadata_bytes:
            raise TooLarge(
                f"{self.where}.{key}: {size} bytes of metadata exceeds the limit of {self.config.max_metadata_bytes}",
                {"param": f"{self.where}.{key}", "limit": self.config.max_metadata_bytes},
            )
        return value

    def time(self, key: str) -> datetime | None:
        value = self.take(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(key, f"expected an ISO-8601 str, got {kind_of(value)}")
        return parse_time(value, lambda msg: self.fail(key, msg))

    def integer(self, key: str, default: int, lo: int, hi: int) -> int:
        value = self.take(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"expected int, got {kind_of(value)}")
        if not lo <= value <= hi:
            raise self.fail(key, f"must be between {lo} and {hi}, got {value}")
        return value

    def number(self, key: str, lo: float, hi: float) -> float | None:
        value = self.take(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(key, f"expected a number, got {kind_of(value)}")
        if not (math.isfinite(value) and lo <= value <= hi):
            raise self.fail(key, f"must be between {lo} and {hi}, got {value}")
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.take(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(key, f"expected bool, got {kind_of(value)}")
        return value

    def done(self) -> None:
        if self.params:
            first = [k if isinstance(k, str) else repr(k) for k in list(self.params)[:10]]
            names = ", ".join(repr(k)[:60] for k in first)
            raise InvalidParams(f"{self.where}: unknown parameter(s) {names}", {"unknown": [k[:60] for k in first]})


def parse_time(value: str, fail: Fail) -> datetime:
    """Parse ISO-8601 text into an aware UTC datetime (naive times are taken as UTC)."""
    if len(value) > 64:
        raise fail("not an ISO-8601 time")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise fail(f"not an ISO-8601 time: {value[:64]!r}") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        parsed = parsed.astimezone(UTC)
    except OverflowError:
        raise fail(f"time out of range: {value[:64]!r}") from None
    if parsed.year < 1970:
        raise fail(f"time before 1970: {value[:64]!r}")
    return parsed


def _count_nodes(value: Any, budget: int) -> int:
    """Number of values inside *value*; counting stops just past *budget*."""
    count = 0
    stack = [value]
    while stack and count <= budget:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            count += len(item)  # keys
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _check_json_value(value: Any, where: str, depth: int) -> None:
    if depth > MAX_METADATA_DEPTH:
        raise InvalidParams(f"{where}: nested deeper than {MAX_METADATA_DEPTH} levels", {"param": where})
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise InvalidParams(f"{where}: integer out of the 64-bit range", {"param": where})
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidParams(f"{where}: NaN and infinities are not allowed", {"param": where})
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check_json_value(item, f"{where}[{i}]", depth + 1)
        return
    if isinstance(value, dict):
        for k, item in value.items():
            if not isinstance(k, str):
                raise InvalidParams(f"{where}: map keys must be str", {"param": where})
            _check_json_value(item, f"{where}.{k}", depth + 1)
        return
    raise InvalidParams(f"{where}: {kind_of(value)} is not allowed (JSON-like values only)", {"param": where})


def params_map(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InvalidParams(f"{where}: expected map, got {kind_of(value)}", {"param": where})
    return value


def decode_cursor(value: Any, newest_first: bool, fail: Fail) -> tuple[int, str]:
    if not isinstance(value, str) or not 1 <= len(value) <= 400:
        raise fail("not a cursor from list")
    try:
        newest, created, memory_id = split_cursor(value)
    except ValueError:
        raise fail("not a cursor from list") from None
    if not ID_RE.fullmatch(memory_id) or not 0 <= created < 2**63:
        raise fail("not a cursor from list")
    if newest != newest_first:
        raise fail(f"this cursor pages {'newest' if newest else 'oldest'} first: pass the same order")
    return created, memory_id
