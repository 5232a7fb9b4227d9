"""Secrets in a write's text, tags and metadata, handled by ``secrets.on_detect`` while the request
is parsed, before it is embedded, logged or written (docs/secrets.md): ``redact`` replaces
each by ``[redacted:KIND]`` and the reply lists them (field, kind, position; never the
value), ``reject`` refuses the request with ``invalid_params`` naming the kind, ``allow``
passes it as sent."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

import anyio.from_thread

from omegad.config import Config
from omegad.errors import InvalidParams
from omegad.requests import StoreParams, UpdateParams
from omegad.secretscan import Finding, SecretScanner, redact

__all__ = ["figures", "screen"]

_SCANNER = SecretScanner()
P = TypeVar("P", StoreParams, UpdateParams)


class _Counts:
    """What the scanner has seen since start (``stats.secrets``); parses run on two threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.texts = 0
        self.kinds: Counter[str] = Counter()

    def add(self, hits: list[Finding]) -> None:
        with self.lock:
            self.texts += 1
            self.kinds.update(h.kind for h in hits)


_COUNTS = _Counts()


def figures() -> dict[str, Any]:
    """Texts screened and secrets found by kind, since the daemon started."""
    with _COUNTS.lock:
        kinds = dict(_COUNTS.kinds.most_common())
        return {"texts": _COUNTS.texts, "found": sum(kinds.values()), "kinds": kinds}


def screen(params: P, config: Config, where: str) -> P:
    """*params* as the policy has them; raises `InvalidParams` under ``reject``."""
    if config.secrets_on_detect == "allow":
        return params
    found: list[dict[str, Any]] = []
    text = _clean(params.text, "text", found) if params.text is not None else None
    metadata = _clean_map(params.metadata, "metadata", found) if params.metadata is not None else None
    tags = params.tags
    if tags:  # a tag is text that is indexed and shown too
        tags = tuple(dict.fromkeys(_clean(t, f"tags[{i}]", found) for i, t in enumerate(tags)))
    if not found:
        return params
    if config.secrets_on_detect == "reject":
        first = found[0]
        raise InvalidParams(
            f"{where}.{first['field']}: holds a secret ({first['kind']}, characters {first['start']}-{first['end']}); "
            'remove it, or let the daemon redact it (secrets.on_detect = "redact")',
            {"param": f"{where}.{first['field']}", "secrets": found},
        )
    return replace(params, text=text, metadata=metadata, tags=tags, redacted=tuple(found))


def _clean(value: str, field: str, found: list[dict[str, Any]]) -> str:
    _stop_if_cancelled()
    hits: list[Finding] = _SCANNER.scan(value)
    _COUNTS.add(hits)
    found.extend({"field": field, "kind": h.kind, "start": h.start, "end": h.end} for h in hits)
    return redact(value, hits) if hits else value


def _stop_if_cancelled() -> None:
    """A big request is parsed in a worker thread, which its cancellation does not stop by
    itself: between texts, raise the cancellation of the request's task if it came."""
    try:
        anyio.from_thread.check_cancelled()
    except RuntimeError:  # parsed inline, on the event loop: too small to be worth stopping
        pass


def _clean_map(value: Mapping[str, Any], field: str, found: list[dict[str, Any]]) -> dict[str, Any]:
    return {k: _clean_value(v, f"{field}.{k}", found) for k, v in value.items()}


def _clean_value(value: Any, field: str, found: list[dict[str, Any]]) -> Any:
    if isinstance(value, str):
        return _clean(value, field, found)
    if isinstance(value, dict):
        return _clean_map(value, field, found)
    if isinstance(value, list):
        return [_clean_value(v, f"{field}[{i}]", found) for i, v in enumerate(value)]
    return value
