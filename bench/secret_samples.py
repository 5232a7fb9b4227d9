"""Labelled samples for the secret scanner, made up by a seeded generator at run time: texts
with one real-looking secret of each kind, and look-alikes that are not secrets (hashes,
commit ids, UUIDs, base64 images, placeholders, prose about passwords and tokens). No
token-shaped literal is written down anywhere, so the repository never holds one."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
LOWER_DIGITS = string.ascii_lowercase + string.digits
URLSAFE = ALNUM + "-_"


def _s(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt(rng: random.Random) -> str:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = _b64url(
        json.dumps({"sub": str(rng.randrange(10**6)), "iat": rng.randrange(1_600_000_000, 1_800_000_000)}).encode()
    )
    return f"{header}.{payload}.{_b64url(rng.randbytes(32))}"


def _private_key(rng: random.Random) -> str:
    body = base64.b64encode(rng.randbytes(180)).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    kind = rng.choice(["RSA ", "EC ", "OPENSSH ", ""])
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{lines}\n-----END {kind}PRIVATE KEY-----"


def _password(rng: random.Random) -> str:
    return _s(rng, string.ascii_letters, 6) + _s(rng, string.digits, 3) + rng.choice("!#%&*+-?@^")


#: kind -> (token maker, sentences around it)
SECRETS: dict[str, tuple[Callable[[random.Random], str], list[str]]] = {
    "aws_access_key": (
        lambda r: rng_choice(r, ["AKIA", "ASIA"]) + _s(r, UPPER_DIGITS, 16),
        ["The deploy user's access key is {t} (rotate in March).", "aws creds for staging: {t}"],
    ),
    "github_token": (
        lambda r: rng_choice(r, ["ghp_", "gho_", "ghs_"]) + _s(r, ALNUM, 36),
        ["CI pushes tags with {t}", "use this PAT for the release bot: {t}"],
    ),
    "gitlab_token": (lambda r: "glpat-" + _s(r, URLSAFE, 20), ["GitLab mirror token {t} lives in the runner config"]),
    "slack_token": (
        lambda r: f"xoxb-{_s(r, string.digits, 11)}-{_s(r, string.digits, 13)}-{_s(r, LOWER_DIGITS, 24)}",
        ["The alerts bot posts with {t}", "slack bot token: {t}"],
    ),
    "stripe_key": (lambda r: "sk_live_" + _s(r, ALNUM, 24), ["Billing talks to Stripe with {t} in production"]),
    "openai_key": (
        lambda r: "sk-" + _s(r, ALNUM, 20) + "T3BlbkFJ" + _s(r, ALNUM, 20),
        ["The summariser calls the API with {t}"],
    ),
    "sendgrid_key": (
        lambda r: f"SG.{_s(r, URLSAFE, 22)}.{_s(r, URLSAFE, 43)}",
        ["Mail goes out through SendGrid, key {t}"],
    ),
    "twilio_key": (lambda r: "SK" + _s(r, "0123456789abcdef", 32), ["SMS verification uses Twilio key {t}"]),
    "telegram_token": (
        lambda r: f"{_s(r, string.digits, 9)}:{_s(r, URLSAFE, 35)}",
        ["The on-call Telegram bot token is {t}"],
    ),
    "jwt": (_jwt, ["Test as the admin with bearer {t}", "sample session: Authorization: Bearer {t}"]),
    "private_key": (_private_key, ["Deploy key for the bastion:\n{t}", "{t}"]),
    "basic_auth": (
        # (a password in a URL is percent-encoded: only unreserved characters stand as they are)
        lambda r: f"postgres://app:{_s(r, ALNUM + '-._~', 14)}@db-{r.randrange(9)}.internal:5432/app",
        ["The reporting DB is {t}", "DATABASE_URL={t}"],
    ),
    "password": (
        _password,
        ["staging admin password: {t}", "The Grafana password is {t}", "DB_PASSWORD={t} for the local stack"],
    ),
    "high_entropy": (
        lambda r: _s(r, ALNUM, 32),
        ["api_key={t}", "The webhook secret is {t}", "client_secret: {t}", "export SEGMENT_TOKEN={t}"],
    ),
}


def rng_choice(rng: random.Random, options: list[str]) -> str:
    return rng.choice(options)


def _lookalikes(rng: random.Random) -> list[str]:
    sha = hashlib.sha256(rng.randbytes(16)).hexdigest()
    commit = hashlib.sha1(rng.randbytes(16)).hexdigest()
    u = str(uuid.UUID(bytes=rng.randbytes(16)))
    image = base64.b64encode(rng.randbytes(150)).decode()
    return [
        f"The release tarball's sha256 is {sha}.",
        f"Fixed in commit {commit}; see the PR for details.",
        f"Reverted {commit[:10]} because it broke the token refresh.",
        f"request id {u} failed with a 502",
        f"The trace id is {u}, the span {sha[:16]}.",
        f"Inline logo: data:image/png;base64,{image}",
        f"Pinned the image to sha256:{sha}",
        "API_KEY=<your-api-key> goes in .env, never in the repo.",
        "password: ******** (ask Dana for the real one)",
        "token: ${GITHUB_TOKEN} is injected by the workflow",
        "secret: changeme in the example config only",
        "Set OPENAI_API_KEY in your environment before running the evals.",
        "Password reset emails expire after 30 minutes.",
        "The token bucket refills at 100 tokens per second.",
        "The secret to fast builds is the remote cache.",
        f"Rotated the API key on {rng.randrange(1, 28)} March; the new one is in Vault.",
        f"Node {rng.randrange(18, 23)}.{rng.randrange(10)}.{rng.randrange(10)} is the minimum version.",
        "Clone with git clone https://git@github.com/acme/payments.git",
        f"password_hash uses argon2id with m={rng.choice([19456, 65536])}, t=2, p=1",
        f"The session cookie is named sid_{rng.randrange(100)} and is httpOnly.",
    ]


def generate_with_tokens(
    seed: int = 0, per_kind: int = 60, lookalike_rounds: int = 60
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(text, kind, the secret in it) with one secret each, and look-alike texts with none."""
    rng = random.Random(seed)
    secrets: list[tuple[str, str, str]] = []
    for kind, (make, sentences) in SECRETS.items():
        for i in range(per_kind):
            token = make(rng)
            secrets.append((sentences[i % len(sentences)].format(t=token), kind, token))
    lookalikes = [text for _ in range(lookalike_rounds) for text in _lookalikes(rng)]
    return secrets, lookalikes


def generate(seed: int = 0, per_kind: int = 60, lookalike_rounds: int = 60) -> tuple[list[tuple[str, str]], list[str]]:
    """(text, kind) pairs with one secret each, and look-alike texts with none."""
    secrets, lookalikes = generate_with_tokens(seed, per_kind, lookalike_rounds)
    return [(text, kind) for text, kind, _ in secrets], lookalikes
