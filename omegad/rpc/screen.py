"""Secrets in a write's text, tags and metadata, handled by ``secrets.on_detect`` while the request
is parsed, before it is embedded, logged or written (docs/secrets.md): ``redact`` replaces
each by ``[redacted:KIND]`` and the reply lists them (field, kind, position; never the
value), ``reject`` refuses the request with ``invalid_params`` naming the kind, ``allow``
passes it as sent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from omegad.config import Config
from omegad.errors import InvalidParams
from omegad.requests import StoreParams, UpdateParams
from omegad.secretscan import Finding, SecretScanner, redact

__all__ = ["screen"]

_SCANNER = SecretScanner()
P = TypeVar("P", StoreParams, UpdateParams)


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
    hits: list[Finding] = _SCANNER.scan(value)
    found.extend({"field": field, "kind": h.kind, "start": h.start, "end": h.end} for h in hits)
    return redact(value, hits) if hits else value


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
