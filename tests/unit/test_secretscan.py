"""The secret scanner (`omegad.secretscan`) on generated secrets and look-alikes; the samples
are made at run time (`bench/secret_samples.py`), never written down."""

from __future__ import annotations

import pytest

from omegad.secretscan import SecretScanner, redact

from ..helpers import bench_module


def _samples():  # type: ignore[no-untyped-def]
    return bench_module("secret_samples")


@pytest.mark.parametrize("seed", [11, 12])
def test_recall_and_false_positives_on_generated_samples(seed: int) -> None:
    secrets, lookalikes = _samples().generate(seed, per_kind=40, lookalike_rounds=40)
    scanner = SecretScanner()
    missed = [(kind, text) for text, kind in secrets if not scanner.scan(text)]
    flagged = [text for text in lookalikes if scanner.scan(text)]
    assert len(missed) <= 0.02 * len(secrets), missed[:5]
    assert len(flagged) <= 0.01 * len(lookalikes), flagged[:5]


def test_each_kind_is_named_and_redacted_in_place() -> None:
    scanner = SecretScanner()
    secrets, _ = _samples().generate_with_tokens(5, per_kind=3)
    for text, kind, token in secrets:
        hits = scanner.scan(text)
        assert kind in {h.kind for h in hits}, (kind, text)
        clean = redact(text, hits)
        assert f"[redacted:{hits[0].kind}]" in clean
        assert not scanner.scan(clean), clean
        # the secret is gone (a URL's password, not the whole URL)
        secret = token.split(":")[2].split("@")[0] if kind == "basic_auth" else token
        assert secret not in clean and secret[-12:] not in clean, clean
        # what is outside the secret is kept as it was
        assert clean.startswith(text[: hits[0].start]) and clean.endswith(text[hits[-1].end :])


def test_a_private_key_is_redacted_whole() -> None:
    (text, _), *_ = [s for s in _samples().generate(3, per_kind=2)[0] if s[1] == "private_key"]
    clean = redact(text, SecretScanner().scan(text))
    assert "PRIVATE KEY" not in clean and "[redacted:private_key]" in clean


@pytest.mark.parametrize(
    "text",
    [
        "password: <ask-the-team>",
        "API_KEY=${API_KEY}",
        "token: {{ secrets.DEPLOY_TOKEN }}",
        "the secret is in Vault",
        "client_secret: 123e4567-e89b-12d3-a456-426614174000",
        "no secrets here, just prose about passwords and tokens",
    ],
)
def test_placeholders_and_prose_pass(text: str) -> None:
    assert SecretScanner().scan(text) == []
