"""Params parsing: valid input becomes typed params; anything else is InvalidParams/TooLarge."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omegad.config import Config
from omegad.errors import InvalidParams, TooLarge
from omegad.requests import QueryParams, StoreParams
from omegad.rpc.registry import REGISTRY, parse_params

CFG = Config()


def test_store_defaults_and_normalisation() -> None:
    p = parse_params("store", {"text": "hi", "tags": [" a ", "b", "a"], "created_at": "2026-01-02T03:04:05+02:00"}, CFG)
    assert isinstance(p, StoreParams)
    assert p.type == "memory" and p.namespace == "default" and p.tags == ("a", "b")
    assert p.created_at == datetime(2026, 1, 2, 1, 4, 5, tzinfo=UTC)
    naive = parse_params("store", {"text": "hi", "created_at": "2026-01-02T03:04:05"}, CFG)
    assert naive.created_at.tzinfo is not None


def test_query_defaults() -> None:
    p = parse_params("query", {"text": "q"}, CFG)
    assert p == QueryParams(text="q")
    assert p.limit == 5 and p.rerank is True and p.explain is False


def test_nil_params_mean_absent() -> None:
    assert parse_params("query", {"text": "q", "limit": None, "namespace": None}, CFG).limit == 5


@pytest.mark.parametrize(
    "method, params",
    [
        ("store", {"text": "x", "metadata": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": {"j": 1}}}}}}}}}}}),
        ("store", {"text": "x", "metadata": {"a": 2**70}}),
        ("store", {"text": "x", "metadata": {"a": float("inf")}}),
        ("store", {"text": "x", "tags": ["t"] * 33}),
        ("store", {"text": "x", "tags": ["x" * 65]}),
        ("store", {"text": "x", "tags": ["a\nb"]}),
        ("store", {"text": "nul\x00byte"}),
        ("store", {"text": "x", "created_at": "1969-12-31T00:00:00Z"}),
        ("store", {"text": "x", "id": "'; DROP TABLE memories; --"}),
        ("store", {"text": "x", "namespace": "a'b"}),
        ("store", {"text": "x", "namespace": "x" * 129}),
        ("query", {"text": "x", "explain": "yes"}),
        ("query", {"text": "x", "limit": True}),
        ("query", {"text": "x", "types": []}),
        ("cancel", {"request_id": "1"}),
        ("update", {"id": "a", "text": ""}),
    ],
)
def test_rejected(method: str, params: dict[str, Any]) -> None:
    with pytest.raises(InvalidParams):
        parse_params(method, params, CFG)


def test_limits_are_too_large() -> None:
    with pytest.raises(TooLarge):
        parse_params("store", {"text": "x" * (CFG.max_text_chars + 1)}, CFG)
    with pytest.raises(TooLarge):
        parse_params("store_batch", {"items": [{"text": "x"}] * (CFG.max_batch_items + 1)}, CFG)
    with pytest.raises(TooLarge):
        parse_params("store", {"text": "x", "metadata": {"k": "v" * 20_000}}, CFG)


wire_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats()
    | st.text(max_size=20)
    | st.binary(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
param_keys = st.sampled_from(
    [
        "text",
        "type",
        "tags",
        "namespace",
        "metadata",
        "created_at",
        "id",
        "items",
        "limit",
        "types",
        "since",
        "until",
        "rerank",
        "explain",
        "timeout",
        "request_id",
        "source",
        "target",
        "resolution",
        "kinds",
        "depth",
        "bogus",
    ]
)


@settings(max_examples=1500, deadline=None)
@given(
    method=st.sampled_from(list(REGISTRY)),
    params=st.dictionaries(param_keys, wire_values, max_size=6) | wire_values,
)
def test_any_input_is_parsed_or_rejected_with_a_typed_error(method: str, params: Any) -> None:
    try:
        parse_params(method, params, CFG)
    except (InvalidParams, TooLarge) as exc:
        assert exc.message and exc.code in {"invalid_params", "too_large"}
