"""Secrets in what clients send: found before a text is embedded, logged or written, so a key
pasted into a memory never reaches the store (issue 28; docs/secrets.md).

The token formats come from `detect-secrets`' plugins (maintained upstream: cloud and SaaS
tokens, private keys, JWTs, passwords in URLs): their patterns are matched on the string
directly rather than through the package's file-scanning settings, which are process-global. Two readings are ours, because
notes are prose rather than source files: a value after a secret-sounding name
("password: …", "API_KEY=…"), unless it is a placeholder, and a high-entropy string right
after such a name. Look-alikes that are not secrets (hashes, commit ids, UUIDs, base64 images,
placeholders) pass: `bench/eval_secrets.py` measures both sides on generated samples.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

__all__ = ["KINDS", "Finding", "SecretScanner", "redact"]

#: detect-secrets' plugins by the kind a reply names. Its Artifactory plugin is left out: its
#: password pattern matches capitalised words ("APACHEKAFKA").
_PLUGINS: dict[str, Any] = {
    "aws_access_key": AWSKeyDetector,
    "azure_storage_key": AzureStorageKeyDetector,
    "basic_auth": BasicAuthDetector,
    "discord_token": DiscordBotTokenDetector,
    "github_token": GitHubTokenDetector,
    "gitlab_token": GitLabTokenDetector,
    "jwt": JwtTokenDetector,
    "mailchimp_key": MailchimpDetector,
    "npm_token": NpmDetector,
    "openai_key": OpenAIDetector,
    "pypi_token": PypiTokenDetector,
    "sendgrid_key": SendGridDetector,
    "slack_token": SlackDetector,
    "square_oauth": SquareOAuthDetector,
    "stripe_key": StripeDetector,
    "telegram_token": TelegramBotTokenDetector,
    "twilio_key": TwilioKeyDetector,
}
KINDS = (*_PLUGINS, "anthropic_key", "google_api_key", "private_key", "password", "high_entropy")

_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)"
    r"|PuTTY-User-Key-File-\d:.*?(?:Private-MAC: \S+|\Z)",
    re.S,
)
#: A secret-sounding name, then ":", "=", "is", "to" or a quote (a few words may come
#: between: "auth token for the SMS sender: …"), then the value. (The name's prefix is
#: bounded: unbounded, the pattern backtracks quadratically on text like "x.x.x…".)
_NAMED = re.compile(
    r"(?i)(?<![a-z0-9_.-])(?:[a-z0-9_.-]{0,40}[_-])?(?P<name>password|passwd|pwd|passphrase|requirepass|secret|"
    r"secret[ _-]?key|secret[ _-]?access[ _-]?key|api[ _-]?key|apikey|access[ _-]?key|private[ _-]?key|"
    r"client[ _-]?secret|auth[ _-]?token|access[ _-]?token|token|credentials?)"
    r"\b(?P<between>(?:[ \t]+[a-z][a-z0-9-]{0,15}){0,3}?)[\"'`>]?\s*(?:[:=]|=>|\bis\b|\bwas\b|\bto\b|(?<=requirepass)|(?<=>))"
    r"\s*[\"'`]?(?P<value>[^\s\"'`,;<]{6,200})"
)
#: A bearer token in a header or a curl line.
_BEARER = re.compile(r"(?i)\bbearer\s+(?P<value>[A-Za-z0-9._~+/=-]{20,})")
#: Token formats detect-secrets 1.5.0 does not know yet, by the kind a reply names.
_TOKENS = {
    "anthropic_key": re.compile(r"\bsk-ant-[a-z0-9]+-[A-Za-z0-9_-]{40,}"),
    "openai_key": re.compile(r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}"),
    "google_api_key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),
    "github_token": re.compile(r"\bgithub_pat_[A-Za-z0-9_]{50,}"),
    "npm_token": re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"),
}
#: The password of a URL ("postgres://app:…@db"), percent-encoded or not.
_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@<>]{0,64}:(?P<value>[^\s@/<>]{1,200})@")
#: Values after a secret-sounding name that stand for one rather than being one.
_PLACEHOLDER = re.compile(
    r"(?i)^(?:<[^>]*>?|\$\{?[A-Za-z_].*|\{\{.*\}\}|%[A-Za-z_]\w*%?|\*+|x+|\.{3,}|"
    r"(?:your|my|the|some|example|sample|dummy|fake|test|placeholder|redacted|changeme|change[_-]?me|"
    r"secret|password|token|none|null|nil|undefined|todo|tbd|xxx+|env|environment|vault|required|optional|"
    r"stored|kept|rotated|managed|set|unset|missing|empty|injected|provided|generated|in|from|via|at|on)\b.*|"
    r"\[redacted(?::[a-z_]+)?\]?.*|[@/].*|.*(?:replace[_-]?me|change[_-]?me|your[_-]).*)$"
)
#: A high-entropy value needs this much Shannon entropy per character (base64 or hex alphabet).
_ENTROPY = {"base64": 4.0, "hex": 3.0}
_KEY_BODY = re.compile(r"[A-Za-z0-9+/=]{40,}")
_JWT_TAIL = re.compile(r"[A-Za-z0-9_.+/=-]*")
_HEX = re.compile(r"^[0-9a-fA-F]+$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


@dataclass(frozen=True, slots=True)
class Finding:
    """One secret in a string: its kind and where it is (character offsets)."""

    kind: str
    start: int
    end: int


def _entropy(value: str) -> float:
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_random(value: str) -> bool:
    """A credential-shaped value: long enough, mixed, and of high entropy for its alphabet. A
    hex string named a secret counts; a UUID does not (an id, however it is named)."""
    if len(value) < 16 or _UUID.match(value):
        return False
    if _HEX.match(value):
        return len(value) >= 20 and _entropy(value) >= _ENTROPY["hex"]
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"[0-9]"))
    return classes >= 2 and _entropy(value) >= _ENTROPY["base64"] - (0.5 if len(value) < 24 else 0.0)


def _credential_like(value: str) -> bool:
    """A value that reads as a password: letters and digits, or random."""
    return (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)) or _looks_random(value)


class SecretScanner:
    """Finds secrets in strings. Stateless after construction: one instance serves every
    thread."""

    def __init__(self) -> None:
        self._plugins = [(kind, cls()) for kind, cls in _PLUGINS.items()]

    def scan(self, text: str) -> list[Finding]:
        """The secrets in *text*, by position, overlapping ones merged (the earlier kind wins)."""
        found = sorted(self._find(text), key=lambda f: (f.start, -f.end))
        merged: list[Finding] = []
        for f in found:
            if merged and f.start < merged[-1].end:
                last = merged[-1]
                merged[-1] = Finding(last.kind, last.start, max(last.end, f.end))
            else:
                merged.append(f)
        return merged

    def _find(self, text: str) -> Iterator[Finding]:
        for m in _PRIVATE_KEY.finditer(text):
            if _KEY_BODY.search(m.group(0)):  # (not "-----BEGIN … KEY----- [redacted] -----END …")
                yield Finding("private_key", m.start(), m.end())
        for kind, plugin in self._plugins:
            # the plugins' own patterns, matched here for their positions (their
            # `analyze_string` gives a pattern's groups when it has any: "ghp" for a GitHub token)
            for index, pattern in enumerate(plugin.denylist):
                for m in pattern.finditer(text):
                    if kind == "basic_auth" and _PLACEHOLDER.match(m.group(1)):
                        continue  # "mongodb+srv://<username>:<password>@…"
                    if kind == "jwt" and not JwtTokenDetector.is_formally_valid(m.group(0)):
                        continue
                    if _entropy(m.group(0)) < 2.5:  # "AKIAXXXXXXXXXXXXXXXX": a documentation placeholder
                        continue
                    # the password of a URL, the key named after "aws … secret": the group
                    start, end = m.span(1) if kind == "basic_auth" or (kind == "aws_access_key" and index) else m.span()
                    if kind == "jwt":  # (its pattern ends lazily, before the signature)
                        end = _JWT_TAIL.match(text, end).end()  # type: ignore[union-attr]
                    if end > start:
                        yield Finding(kind, start, end)
        for kind, pattern in _TOKENS.items():
            for m in pattern.finditer(text):
                yield Finding(kind, m.start(), m.end())
        for m in _URL_PASSWORD.finditer(text):
            if not _PLACEHOLDER.match(m.group("value")) and m.group("value").upper() != "PASSWORD":
                yield Finding("basic_auth", m.start("value"), m.end("value"))
        for m in _NAMED.finditer(text):
            value = m.group("value").rstrip(".)]}")
            if _PLACEHOLDER.match(value) or "://" in value:
                continue
            start = m.start("value")
            name = m.group("name").lower()
            if ("pass" in name or "pwd" in name) and (not m.group("between") or _credential_like(value)):
                # (a value after other words than the name must look like one)
                yield Finding("password", start, start + len(value))
            elif _looks_random(value):
                yield Finding("high_entropy", start, start + len(value))
        for m in _BEARER.finditer(text):
            if _looks_random(m.group("value")):
                yield Finding("high_entropy", m.start("value"), m.end("value"))


def redact(text: str, findings: list[Finding]) -> str:
    """*text* with each finding replaced by ``[redacted:KIND]``."""
    out = []
    at = 0
    for f in sorted(findings, key=lambda f: f.start):
        out.append(text[at : f.start])
        out.append(f"[redacted:{f.kind}]")
        at = f.end
    out.append(text[at:])
    return "".join(out)
