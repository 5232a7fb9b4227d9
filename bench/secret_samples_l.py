"""Secret-detector test set L.

Theme: what coding agents actually write into a memory store while they work -- short notes and
lessons that quote one line of something, pasted shell history and terminal output (export, set,
setx, PowerShell, fish, docker run -e, kubectl create secret, aws configure, gh auth, az login,
gcloud, heroku config:set, fly secrets set), CI logs (GitHub Actions, GitLab CI, CircleCI,
Buildkite) with and without ``***`` masking, HTTP traces (curl -v, httpie, raw requests, HAR),
Kubernetes manifests and Secret objects, Terraform tfvars/state/plan fragments, Jupyter cells,
code in Python/JS/Go/Rust/Java/C#/Ruby/PHP, .env/.npmrc/.pypirc/.netrc/.git-credentials/
docker config.json, VS Code/JetBrains/MCP settings, crash reports, e-mails and chat in several
languages (en, it, sv, tr, ko, zh, ru, cs), git commit messages and diffs.

``generate(seed)`` returns ``(positives, lookalikes)``:

* ``positives`` is a list of ``(text, kind, secret)``; ``secret`` is the one sensitive value in
  ``text`` and an exact substring of it.
* ``lookalikes`` is a list of texts in the same places and styles that contain no credential
  (placeholders, variable references, secret-manager references, masked values, hashes, digests,
  ids, public keys and certificates, publishable keys, code that reads secrets, prose, errors).

Everything is built with ``random.Random(seed)``; every vendor prefix, key body and PEM armour line
is assembled at run time from pieces, so the source holds no token-shaped literal.
"""

from __future__ import annotations

import base64
import json
import random
import string
import struct
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable
from urllib.parse import quote

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
LETTERS = UPPER + LOWER
ALNUM = UPPER + LOWER + DIGITS
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
B62 = DIGITS + UPPER + LOWER
B64URL = ALNUM + "-_"
B32L = LOWER + "234567"
B32U = UPPER + "234567"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
DJANGO_CHARS = LOWNUM + "!@#%^&*(-_=+)"
WP_CHARS = ALNUM + "!@#%^&*()-_[]{}<>~+=,.;:/?|"
PW_SYMS = "!*-_.@^~+#%&=?"
URL_PW_SYMS = "-_.~!*+"
DASH = "-" * 5
PRIV = "PRIV" + "ATE"


def _p(*parts: str) -> str:
    """Join pieces; keeps vendor prefixes out of the source as single literals."""
    return "".join(parts)


# ----------------------------------------------------------------------------------------------
# small random helpers
# ----------------------------------------------------------------------------------------------


def _rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choices(alphabet, k=n))


def _hex(r: random.Random, n: int) -> str:
    return _rs(r, HEX, n)


def _dig(r: random.Random, n: int) -> str:
    return str(r.randint(1, 9)) + _rs(r, DIGITS, n - 1)


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(r.randbytes(nbytes)).decode()


def _b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _b64s(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _crc62(s: str) -> str:
    n = zlib.crc32(s.encode())
    out = ""
    while n:
        n, d = divmod(n, 62)
        out = B62[d] + out
    return out.rjust(6, "0")


def _wrap(s: str, n: int) -> str:
    return "\n".join(s[i : i + n] for i in range(0, len(s), n))


def _date(r: random.Random) -> str:
    return f"{r.randint(2023, 2025)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _clock(r: random.Random) -> str:
    return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"


def _iso(r: random.Random) -> str:
    return f"{_date(r)}T{_clock(r)}"


def _epoch(r: random.Random) -> int:
    return r.randint(1_680_000_000, 1_760_000_000)


def _ip(r: random.Random) -> str:
    return r.choice(
        [
            f"10.{r.randint(0, 254)}.{r.randint(0, 254)}.{r.randint(2, 254)}",
            f"172.16.{r.randint(0, 254)}.{r.randint(2, 254)}",
            f"192.168.{r.randint(0, 254)}.{r.randint(2, 254)}",
            f"{r.choice([34, 35, 52, 54, 104, 140])}.{r.randint(0, 254)}.{r.randint(0, 254)}.{r.randint(2, 254)}",
        ]
    )


def _gha_lines(r: random.Random, ts: str, lines: list[str]) -> str:
    fracs = sorted(r.sample(range(1_000_000, 9_999_999), len(lines)))
    return "\n".join(f"{ts}.{f}Z {ln}" for f, ln in zip(fracs, lines, strict=True))


def _title(s: str) -> str:
    return s[:1].upper() + s[1:]


# ----------------------------------------------------------------------------------------------
# name pools
# ----------------------------------------------------------------------------------------------

USERS = [
    "alice",
    "bob",
    "marco",
    "sofia",
    "erik",
    "ayse",
    "minji",
    "wei",
    "dmitri",
    "petra",
    "jonas",
    "lena",
    "tomas",
    "giulia",
    "kerem",
    "hyejin",
    "lina",
    "oleg",
    "klara",
    "sam",
    "priya",
    "diego",
    "noah",
    "emre",
    "yuki",
    "ingrid",
    "pavel",
    "chiara",
    "jakub",
    "sven",
]
ENVS = ["staging", "prod", "dev", "qa", "preview", "sandbox", "eu-prod", "us-east", "canary", "perf"]
SERVICES = [
    "billing",
    "auth",
    "search",
    "ingest",
    "notifier",
    "reports",
    "gateway",
    "ledger",
    "catalog",
    "media",
    "payments",
    "scheduler",
    "exporter",
    "webhooks",
    "checkout",
    "analytics",
]
ORGS = [
    "acme",
    "northwind",
    "globex",
    "initech",
    "umbrella-labs",
    "hooli",
    "vandelay",
    "contoso",
    "fabrikam",
    "tailspin",
    "brightwave",
    "quillfeather",
    "orbitly",
    "pinecrest",
    "lumenworks",
]
REGIONS = ["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2", "eu-north-1"]
NAMESPACES = ["default", "apps", "platform", "payments", "data", "ml", "infra", "web"]
WORDS = [
    "apple",
    "river",
    "stone",
    "cloud",
    "tiger",
    "maple",
    "copper",
    "violet",
    "harbor",
    "pepper",
    "falcon",
    "meadow",
    "silver",
    "orbit",
    "lantern",
    "canyon",
    "walnut",
    "ember",
    "glacier",
    "puzzle",
    "rocket",
    "thunder",
    "willow",
    "saffron",
    "marble",
    "nebula",
    "pickle",
    "quartz",
    "raven",
    "sprout",
    "tundra",
    "velvet",
    "zephyr",
    "anchor",
    "bamboo",
    "cactus",
    "dolphin",
    "fossil",
    "gravel",
    "hazel",
    "igloo",
    "jasper",
    "kettle",
    "lemon",
    "mango",
    "nutmeg",
    "oyster",
    "parrot",
    "quiver",
    "rhubarb",
    "summit",
    "tulip",
    "umber",
    "vortex",
    "wombat",
    "yonder",
    "zigzag",
    "battery",
    "staple",
    "horse",
    "correct",
    "garden",
    "pencil",
    "window",
    "candle",
    "basket",
    "mirror",
    "ladder",
    "button",
    "blanket",
    "carpet",
    "teapot",
    "violin",
    "trumpet",
    "compass",
    "helmet",
    "island",
    "jungle",
    "kitten",
    "lobster",
    "magnet",
    "noodle",
    "orchid",
    "pillow",
    "rabbit",
    "saddle",
    "ticket",
    "beacon",
    "cobalt",
    "drift",
    "fable",
    "gusty",
]
IMAGES = [
    "node:20-alpine",
    "python:3.12-slim",
    "postgres:16",
    "redis:7",
    "ghcr.io/acme/api:1.14.2",
    "nginx:1.27",
    "golang:1.22",
    "rust:1.79",
    "mcr.microsoft.com/dotnet/aspnet:8.0",
    "ruby:3.3",
]
CMDS = [
    "npm run deploy",
    "python manage.py migrate",
    "./scripts/release.sh",
    "terraform apply",
    "go run ./cmd/server",
    "cargo run --release",
    "make e2e",
    "pnpm dev",
    "bundle exec rails s",
    "dotnet run --project src/Api",
    "uv run pytest -q",
    "node scripts/seed.js",
]


def _org(r: random.Random) -> str:
    return r.choice(ORGS)


def _svc(r: random.Random) -> str:
    return r.choice(SERVICES)


def _user(r: random.Random) -> str:
    return r.choice(USERS)


def _env(r: random.Random) -> str:
    return r.choice(ENVS)


# ----------------------------------------------------------------------------------------------
# passwords
# ----------------------------------------------------------------------------------------------


def _pw_human(r: random.Random) -> str:
    w = _title(r.choice(WORDS))
    return r.choice(
        [
            f"{w}{r.randint(1, 99)}{r.choice('!#?.*')}",
            f"{w}{r.choice('#@!')}{r.randint(2015, 2026)}",
            f"{w}.{_title(r.choice(WORDS))}.{r.randint(10, 999)}",
            f"{_title(r.choice(ORGS).split('-')[0])}{r.choice('@#!')}{r.choice(ENVS).split('-')[0].title()}{r.randint(1, 9999)}",
        ]
    )


def _pw_leet(r: random.Random) -> str:
    w = r.choice(WORDS) + r.choice(WORDS)
    table = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}
    out = "".join(table.get(c, c) if r.random() < 0.5 else c for c in w)
    return _title(out) + r.choice("!&%*") + str(r.randint(0, 99))


def _pw_random(r: random.Random, lo: int = 12, hi: int = 26, syms: str = PW_SYMS) -> str:
    n = r.randint(lo, hi)
    while True:
        s = _rs(r, ALNUM + syms + syms, n)
        if any(c in DIGITS for c in s) and any(c in syms for c in s) and s[0] not in "-#":
            return s


def _pw_pwgen(r: random.Random) -> str:
    cons, vow = "bcdfghjkmnprstvwxz", "aeiou"
    s = ""
    for i in range(r.randint(8, 12)):
        s += r.choice(vow if i % 2 else cons)
    i = r.randrange(1, len(s))
    s = s[:i] + str(r.randint(0, 9)) + s[i:]
    j = r.randrange(len(s))
    return s[:j] + s[j].upper() + s[j + 1 :]


def _pw_alnum(r: random.Random) -> str:
    while True:
        s = _rs(r, ALNUM, r.choice([16, 20, 24, 32]))
        if any(c in DIGITS for c in s):
            return s


def _password(r: random.Random, url_safe: bool = False) -> str:
    syms = URL_PW_SYMS if url_safe else PW_SYMS
    k = r.random()
    if k < 0.25:
        pw = _pw_human(r)
    elif k < 0.35:
        pw = _pw_leet(r)
    elif k < 0.65:
        pw = _pw_random(r, syms=syms)
    elif k < 0.8:
        pw = _pw_pwgen(r)
    else:
        pw = _pw_alnum(r)
    if url_safe:
        pw = "".join(c if c in ALNUM + URL_PW_SYMS else r.choice("-_.") for c in pw)
    while len(pw) < 8:
        pw += r.choice(DIGITS)
    return pw


def _passphrase(r: random.Random) -> str:
    n = r.randint(4, 6)
    words = r.sample(WORDS, n)
    sep = r.choice(["-", " ", ".", "_", "-", " "])
    if r.random() < 0.4:
        words = [_title(w) for w in words]
    s = sep.join(words)
    if r.random() < 0.4:
        s += sep + str(r.randint(1, 99))
    return s


# ----------------------------------------------------------------------------------------------
# structured builders: JWT, DER/PEM, OpenSSH, PGP
# ----------------------------------------------------------------------------------------------


def _jwt(r: random.Random, payload: dict, alg: str = "HS256", kid: str | None = None) -> str:
    hdr: dict = {"alg": alg, "typ": "JWT"}
    if kid:
        hdr["kid"] = kid
    sig_len = {"HS256": 32, "HS512": 64, "RS256": 256, "ES256": 64}[alg]
    enc = [_b64u(json.dumps(x, separators=(",", ":")).encode()) for x in (hdr, payload)]
    return ".".join([*enc, _b64u(r.randbytes(sig_len))])


def _der_len(n: int) -> bytes:
    if n < 128:
        return bytes([n])
    if n < 256:
        return b"\x81" + bytes([n])
    return b"\x82" + struct.pack(">H", n)


def _der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + _der_len(len(body)) + body


def _der_int(r: random.Random, nbytes: int, top: bool = False) -> bytes:
    b = bytearray(r.randbytes(nbytes))
    if top:
        b[0] |= 0x80
        b[-1] |= 0x01
    b = bytes(b)
    if b[0] & 0x80:
        b = b"\x00" + b
    return _der(0x02, b)


def _rsa_pkcs1(r: random.Random, bits: int = 2048) -> bytes:
    n = bits // 8
    parts = [b"\x02\x01\x00", _der_int(r, n, top=True), b"\x02\x03\x01\x00\x01", _der_int(r, n)]
    parts += [_der_int(r, n // 2, top=True) for _ in range(2)] + [_der_int(r, n // 2) for _ in range(3)]
    return _der(0x30, b"".join(parts))


RSA_OID = bytes.fromhex("300d06092a864886f70d0101010500")
EC_OID = bytes.fromhex("06082a8648ce3d030107")


def _pem(label: str, der: bytes, width: int = 64) -> str:
    b = base64.b64encode(der).decode()
    return f"{DASH}BEGIN {label}{DASH}\n{_wrap(b, width)}\n{DASH}END {label}{DASH}"


def _pem_rsa(r: random.Random) -> str:
    return _pem("RSA " + PRIV + " KEY", _rsa_pkcs1(r, r.choice([2048, 2048, 3072])))


def _pem_pkcs8(r: random.Random, rsa: bool | None = None) -> str:
    if rsa is None:
        rsa = r.random() < 0.6
    if rsa:
        inner = _rsa_pkcs1(r, 2048)
        der = _der(0x30, b"\x02\x01\x00" + RSA_OID + _der(0x04, inner))
    else:
        ec = _der(
            0x30, b"\x02\x01\x01" + _der(0x04, r.randbytes(32)) + _der(0xA1, _der(0x03, b"\x00\x04" + r.randbytes(64)))
        )
        der = _der(0x30, b"\x02\x01\x00" + _der(0x30, bytes.fromhex("06072a8648ce3d0201") + EC_OID) + _der(0x04, ec))
    return _pem(PRIV + " KEY", der)


def _pem_ec(r: random.Random) -> str:
    body = b"\x02\x01\x01" + _der(0x04, r.randbytes(32)) + _der(0xA0, EC_OID)
    body += _der(0xA1, _der(0x03, b"\x00\x04" + r.randbytes(64)))
    return _pem("EC " + PRIV + " KEY", _der(0x30, body))


def _sshstr(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def _ssh_pub_blob(r: random.Random, kind: str) -> bytes:
    if kind == "ed25519":
        return _sshstr(b"ssh-ed25519") + _sshstr(r.randbytes(32))
    if kind == "ecdsa":
        return _sshstr(b"ecdsa-sha2-nistp256") + _sshstr(b"nistp256") + _sshstr(b"\x04" + r.randbytes(64))
    return _sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(b"\x00\xc1" + r.randbytes(383))


def _ssh_pubkey_line(r: random.Random, comment: str | None = None) -> str:
    kind = r.choice(["ed25519", "ed25519", "rsa", "ecdsa"])
    name = {"ed25519": "ssh-ed25519", "rsa": "ssh-rsa", "ecdsa": "ecdsa-sha2-nistp256"}[kind]
    c = comment if comment is not None else f"{_user(r)}@{r.choice(['laptop', 'mbp', 'devbox', 'ci-runner', 'ws-01'])}"
    return f"{name} {base64.b64encode(_ssh_pub_blob(r, kind)).decode()} {c}".rstrip()


def _openssh_private(r: random.Random) -> str:
    comment = f"{_user(r)}@{r.choice(['laptop', 'mbp', 'devbox', 'deploy'])}".encode()
    if r.random() < 0.75:
        pk = r.randbytes(32)
        pub = _sshstr(b"ssh-ed25519") + _sshstr(pk)
        check = r.randbytes(4)
        priv = check + check + _sshstr(b"ssh-ed25519") + _sshstr(pk) + _sshstr(r.randbytes(32) + pk) + _sshstr(comment)
    else:
        pub = _ssh_pub_blob(r, "rsa")
        check = r.randbytes(4)
        priv = (
            check
            + check
            + _sshstr(b"ssh-rsa")
            + b"".join(_sshstr(r.randbytes(n)) for n in (385, 3, 384, 193, 193, 193))
        )
        priv += _sshstr(comment)
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = b"openssh-key-v1\x00" + _sshstr(b"none") + _sshstr(b"none") + _sshstr(b"") + struct.pack(">I", 1)
    blob += _sshstr(pub) + _sshstr(priv)
    return _pem("OPENSSH " + PRIV + " KEY", blob, 70)


def _crc24(data: bytes) -> int:
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def _pgp_block(r: random.Random, secret: bool) -> str:
    tag = b"\x95" if secret else b"\x99"
    body = tag + struct.pack(">H", r.randint(900, 1800)) + b"\x04" + r.randbytes(r.randint(700, 1300))
    label = "PGP " + ("PRIV" + "ATE KEY BLOCK" if secret else "PUBLIC KEY BLOCK")
    crc = base64.b64encode(struct.pack(">I", _crc24(body))[1:]).decode()
    b = base64.b64encode(body).decode()
    return f"{DASH}BEGIN {label}{DASH}\n\n{_wrap(b, 64)}\n={crc}\n{DASH}END {label}{DASH}"


def _cert_pem(r: random.Random) -> str:
    der = _der(0x30, _der(0x30, b"\xa0\x03\x02\x01\x02" + _der_int(r, 16) + r.randbytes(r.randint(600, 1100))))
    return _pem("CERTIFICATE", der)


def _pubkey_pem(r: random.Random) -> str:
    if r.random() < 0.6:
        rsa = _der(0x30, _der_int(r, 256, top=True) + b"\x02\x03\x01\x00\x01")
        der = _der(0x30, RSA_OID + _der(0x03, b"\x00" + rsa))
    else:
        der = _der(
            0x30, _der(0x30, bytes.fromhex("06072a8648ce3d0201") + EC_OID) + _der(0x03, b"\x00\x04" + r.randbytes(64))
        )
    return _pem("PUBLIC KEY", der)


# ----------------------------------------------------------------------------------------------
# vendor token makers (documented formats; prefixes assembled from pieces)
# ----------------------------------------------------------------------------------------------


def t_github_pat(r: random.Random) -> str:
    body = _rs(r, ALNUM, 30)
    return _p("gh", "p_") + body + _crc62(body)


def t_github_fine(r: random.Random) -> str:
    return _p("github", "_pat_") + "11" + _rs(r, UPNUM, 20) + "_" + _rs(r, ALNUM, 59)


def t_github_oauth(r: random.Random) -> str:
    body = _rs(r, ALNUM, 30)
    return _p("gh", r.choice("ousr"), "_") + body + _crc62(body)


def t_gitlab_pat(r: random.Random) -> str:
    if r.random() < 0.8:
        return _p("gl", "pat-") + _rs(r, B64URL, 20)
    return _p("gl", "pat-") + _rs(r, B64URL, 27) + ".01." + _rs(r, LOWNUM, 9)


def t_gitlab_runner(r: random.Random) -> str:
    pre = r.choice([_p("gl", "rt-"), _p("gl", "rt-t", "1_"), _p("gl", "rt-t", "3_")])
    return pre + _rs(r, B64URL, 20)


def t_atlassian(r: random.Random) -> str:
    return _p("ATA", "TT3", "xFfGF0") + _rs(r, B64URL, 170) + "=" + _rs(r, "0123456789ABCDEF", 8)


def t_npm(r: random.Random) -> str:
    body = _rs(r, ALNUM, 30)
    return _p("np", "m_") + body + _crc62(body)


def t_pypi(r: random.Random) -> str:
    ident = _uuid(r).encode()
    caveat = (
        json.dumps([1, ["project_ids", [_uuid(r)]]], separators=(",", ":")).encode()
        if r.random() < 0.5
        else b'{"version": 1, "permissions": "user"}'
    )
    raw = b"\x02\x01\x08pypi.org\x02\x24" + ident + b"\x00\x02" + bytes([len(caveat)]) + caveat
    raw += b"\x00\x02\x2a" + json.dumps({"nbf": _epoch(r), "exp": _epoch(r) + 900}).encode()[:42]
    raw += b"\x00\x00\x06\x20" + r.randbytes(32)
    return _p("py", "pi-") + _b64u(raw)


def t_rubygems(r: random.Random) -> str:
    return _p("rubygems", "_") + _hex(r, 48)


def t_nuget(r: random.Random) -> str:
    return _p("oy", "2") + _rs(r, LOWNUM, 43)


def t_dockerhub(r: random.Random) -> str:
    return _p("dckr", "_pat_") + _rs(r, B64URL, 27)


def t_jfrog(r: random.Random) -> str:
    raw = f"reftkn:01:{_epoch(r) + 31_536_000}:{_rs(r, ALNUM, 31)}"
    return _b64s(raw).rstrip("=")


def t_aws_key_id(r: random.Random) -> str:
    return _p("AK", "IA") + _rs(r, B32U, 16)


def t_aws_secret(r: random.Random) -> str:
    return _rs(r, ALNUM + "+/", 40)


def t_aws_session(r: random.Random) -> str:
    raw = b"!\n\torigin_ec" + b"\x10" + r.randbytes(r.randint(420, 700))
    return base64.b64encode(raw).decode().rstrip("=")


def t_google_api(r: random.Random) -> str:
    return _p("AI", "za", "Sy") + _rs(r, B64URL, 33)


def t_google_oauth_secret(r: random.Random) -> str:
    return _p("GOC", "SPX-") + _rs(r, B64URL, 28)


def t_google_access(r: random.Random) -> str:
    return _p("ya", "29.") + r.choice(["a0A", "a0Ad", "A0AR"]) + _rs(r, B64URL, r.randint(150, 210))


def t_azure_storage(r: random.Random) -> str:
    return _b64(r, 64)


def t_azure_client_secret(r: random.Random) -> str:
    return _rs(r, ALNUM, 3) + r.choice("78") + "Q~" + _rs(r, ALNUM + "_~.-", 34)


def t_azure_devops(r: random.Random) -> str:
    if r.random() < 0.7:
        return _rs(r, B32L, 52)
    return _rs(r, ALNUM, 52) + "JQQJ99" + _rs(r, UPNUM, 3) + "ACAAAAAAAAAA" + _p("AZ", "DO") + _rs(r, ALNUM, 4)


def t_azure_sas_sig(r: random.Random) -> str:
    return quote(_b64(r, 32), safe="")


def t_digitalocean(r: random.Random) -> str:
    return _p("do", r.choice("po"), "_v1_") + _hex(r, 64)


def t_databricks(r: random.Random) -> str:
    return _p("da", "pi") + _hex(r, 32) + r.choice(["", "", "-2", "-3"])


def t_stripe_sk(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("sk", "_live_", "51") + _rs(r, ALNUM, 97)
    return _p("sk", "_live_") + _rs(r, ALNUM, 24)


def t_stripe_rk(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("rk", "_live_", "51") + _rs(r, ALNUM, 97)
    return _p("rk", "_live_") + _rs(r, ALNUM, 24)


def t_stripe_whsec(r: random.Random) -> str:
    return _p("wh", "sec_") + _rs(r, ALNUM, 32)


def t_square(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("EA", "AA") + _rs(r, B64URL, 60)
    return _p("sq", "0", "atp-") + _rs(r, B64URL, 22)


def t_braintree(r: random.Random) -> str:
    return _p("access_token", "$production$") + _rs(r, LOWNUM, 16) + "$" + _hex(r, 32)


def t_shopify(r: random.Random) -> str:
    return _p("shp", r.choice(["at", "ca", "pa", "ss"]), "_") + _hex(r, 32)


def t_slack_token(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("xo", "xb-") + _dig(r, r.randint(10, 13)) + "-" + _dig(r, r.randint(10, 13)) + "-" + _rs(r, ALNUM, 24)
    return _p("xo", "xp-") + "-".join(_dig(r, r.randint(10, 13)) for _ in range(3)) + "-" + _hex(r, 32)


def t_slack_webhook(r: random.Random) -> str:
    return (
        _p("https://hooks.", "slack.com/", "services/")
        + "T"
        + _rs(r, UPNUM, r.randint(8, 10))
        + "/B"
        + _rs(r, UPNUM, r.randint(8, 10))
        + "/"
        + _rs(r, ALNUM, 24)
    )


def _snowflake(r: random.Random) -> str:
    return str(r.randint(700_000_000_000_000_000, 1_300_000_000_000_000_000))


def t_discord_bot(r: random.Random) -> str:
    ident = _b64s(_snowflake(r)).rstrip("=")
    return ident + "." + _rs(r, B64URL, 6) + "." + _rs(r, B64URL, r.choice([27, 38]))


def t_discord_webhook(r: random.Random) -> str:
    host = r.choice(["discord.com", "discordapp.com"])
    return f"https://{host}/api/" + _p("web", "hooks/") + _snowflake(r) + "/" + _rs(r, B64URL, 68)


def t_telegram(r: random.Random) -> str:
    return _dig(r, r.randint(9, 10)) + ":" + _p("A", "A") + _rs(r, B64URL, 33)


def t_twilio(r: random.Random) -> str:
    return _hex(r, 32)


def t_sendgrid(r: random.Random) -> str:
    return _p("S", "G.") + _rs(r, B64URL, 22) + "." + _rs(r, B64URL, 43)


def t_mailgun(r: random.Random) -> str:
    if r.random() < 0.5:
        return _p("ke", "y-") + _rs(r, LOWNUM, 32)
    return _hex(r, 32) + "-" + _hex(r, 8) + "-" + _hex(r, 8)


def t_mailchimp(r: random.Random) -> str:
    return _hex(r, 32) + "-us" + str(r.randint(1, 21))


def t_openai(r: random.Random) -> str:
    mid = _p("T3Blbk", "FJ")
    k = r.random()
    if k < 0.55:
        return _p("sk-", "proj-") + _rs(r, B64URL, 74) + mid + _rs(r, B64URL, 74)
    if k < 0.75:
        return _p("sk-", "svcacct-") + _rs(r, B64URL, 74) + mid + _rs(r, B64URL, 74)
    return _p("s", "k-") + _rs(r, ALNUM, 20) + mid + _rs(r, ALNUM, 20)


def t_anthropic(r: random.Random) -> str:
    kind = r.choice(["api03-", "api03-", "api03-", "admin01-"])
    return _p("sk-", "ant-", kind) + _rs(r, B64URL, 93) + "AA"


def t_hf(r: random.Random) -> str:
    return _p("h", "f_") + _rs(r, LETTERS, 34)


def t_groq(r: random.Random) -> str:
    return _p("gs", "k_") + _rs(r, ALNUM, 52)


def t_replicate(r: random.Random) -> str:
    return _p("r", "8_") + _rs(r, ALNUM, 37)


def t_langsmith(r: random.Random) -> str:
    return _p("lsv2", r.choice(["_pt_", "_sk_"])) + _hex(r, 32) + "_" + _hex(r, 10)


def t_sentry(r: random.Random) -> str:
    if r.random() < 0.6:
        org = _org(r)
        payload = {
            "iat": _epoch(r) + r.random(),
            "url": "https://sentry.io",
            "region_url": "https://us.sentry.io",
            "org": org,
        }
        return (
            _p("sntr", "ys_")
            + _b64s(json.dumps(payload, separators=(",", ":"))).rstrip("=")
            + "_"
            + _rs(r, ALNUM + "+/", 43)
        )
    return _p("sntr", "yu_") + _hex(r, 64)


def t_datadog(r: random.Random) -> str:
    return _hex(r, r.choice([32, 32, 40]))


def t_newrelic(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("NR", "AK-") + _rs(r, UPNUM, 27)
    return _hex(r, 36) + _p("NR", "AL")


def t_grafana(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("gl", "sa_") + _rs(r, ALNUM, 32) + "_" + _hex(r, 8)
    payload = {
        "o": _dig(r, 6),
        "n": f"{_svc(r)}-{_env(r)}",
        "k": _rs(r, ALNUM, 24),
        "m": {"r": r.choice(["prod-us-east-0", "prod-eu-west-2"])},
    }
    return _p("gl", "c_") + _b64s(json.dumps(payload, separators=(",", ":")))


def t_linear(r: random.Random) -> str:
    return _p("lin", "_api_") + _rs(r, ALNUM, 40)


def t_notion(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("sec", "ret_") + _rs(r, ALNUM, 43)
    return _p("nt", "n_") + _dig(r, 12) + _rs(r, ALNUM, 34)


def t_figma(r: random.Random) -> str:
    return _p("fig", "d_") + _rs(r, B64URL, 40)


def t_postman(r: random.Random) -> str:
    return _p("PM", "AK-") + _hex(r, 24) + "-" + _hex(r, 34)


def t_tfc(r: random.Random) -> str:
    return _rs(r, ALNUM, 14) + _p(".atlas", "v1.") + _rs(r, ALNUM, r.randint(67, 90))


def t_vault(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("hv", "s.") + "CAESI" + _rs(r, B64URL, r.randint(85, 95))
    return _p("hv", r.choice("sb"), ".") + _rs(r, ALNUM, 24)


def t_doppler(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("dp", ".st.") + r.choice(["prd", "stg", "dev", "ci"]) + "." + _rs(r, ALNUM, 40)
    return _p("dp", ".pt.") + _rs(r, ALNUM, 43)


def t_pulumi(r: random.Random) -> str:
    return _p("pu", "l-") + _hex(r, 40)


def t_supabase_service(r: random.Random) -> str:
    if r.random() < 0.3:
        return _p("sb", "_secret_") + _rs(r, B64URL, 31)
    iat = _epoch(r)
    payload = {
        "iss": "supabase",
        "ref": _rs(r, LOWER, 20),
        "role": "service" + "_role",
        "iat": iat,
        "exp": iat + 315_360_000,
    }
    return _jwt(r, payload)


def t_planetscale(r: random.Random) -> str:
    return _p("psc", "ale_", r.choice(["pw_", "pw_", "tkn_"])) + _rs(r, B64URL, 43)


def t_mapbox_secret(r: random.Random) -> str:
    body = _b64u(
        json.dumps(
            {"u": _user(r) + str(r.randint(1, 99)), "a": "cl" + _rs(r, LOWNUM, 23)}, separators=(",", ":")
        ).encode()
    )
    return _p("s", "k.") + body + "." + _rs(r, B64URL, 22)


def t_age(r: random.Random) -> str:
    return _p("AGE-", "SECRET-", "KEY-1") + _rs(r, BECH32, 58).upper()


def t_okta(r: random.Random) -> str:
    return "00" + _rs(r, B64URL, 40)


def t_launchdarkly(r: random.Random) -> str:
    return r.choice([_p("sd", "k-"), _p("ap", "i-")]) + _uuid(r)


def t_contentful(r: random.Random) -> str:
    return _p("CFP", "AT-") + _rs(r, B64URL, 43)


def t_dropbox(r: random.Random) -> str:
    return _p("s", "l.", r.choice(["", "u."])) + _rs(r, B64URL, r.randint(135, 150))


def t_twitter(r: random.Random) -> str:
    mid = "".join(
        r.choice([_rs(r, ALNUM, 1), "%2B", "%2F"]) if r.random() < 0.15 else _rs(r, ALNUM, 1) for _ in range(24)
    )
    return "A" * 21 + r.choice(["M", "L", "K", "J"]) + mid + "%3D" + _rs(r, ALNUM, 50)


def t_circleci(r: random.Random) -> str:
    if r.random() < 0.6:
        return _p("CCI", "PAT_") + _rs(r, ALNUM, 22) + "_" + _hex(r, 40)
    return _hex(r, 40)


def t_buildkite(r: random.Random) -> str:
    return _p("bk", "ua_") + _hex(r, 40)


def t_sonar(r: random.Random) -> str:
    return _p("sq", r.choice("upa"), "_") + _hex(r, 40)


def t_onepassword(r: random.Random) -> str:
    payload = {
        "signInAddress": "my.1password.com",
        "userAuth": {
            "method": "SRPg-4096",
            "alg": "PBES2g-HS256",
            "iterations": 650000,
            "salt": _b64u(r.randbytes(16)),
        },
        "email": f"{_rs(r, LOWNUM, 13)}@1passwordserviceaccounts.com",
        "srpX": _hex(r, 64),
        "muk": {
            "alg": "A256GCM",
            "ext": True,
            "k": _b64u(r.randbytes(32)),
            "key_ops": ["encrypt", "decrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": "A3-" + "-".join(_rs(r, UPNUM, n) for n in (6, 6, 5, 5, 5, 5)),
        "throttleSecret": {"seed": _hex(r, 64), "uuid": _rs(r, UPNUM, 26)},
        "deviceUuid": _rs(r, LOWNUM, 26),
    }
    return _p("op", "s_") + _b64u(json.dumps(payload, separators=(",", ":")).encode())


def t_tailscale(r: random.Random) -> str:
    return (
        _p("tskey-", r.choice(["auth-", "auth-", "api-"]))
        + "k"
        + _rs(r, ALNUM, r.randint(9, 14))
        + _p("CN", "TRL-")
        + _rs(r, ALNUM, r.randint(30, 35))
    )


def t_cloudinary_secret(r: random.Random) -> str:
    return _rs(r, B64URL, 27)


def t_heroku(r: random.Random) -> str:
    return _uuid(r)


def t_teams_webhook(r: random.Random) -> str:
    org = _org(r).replace("-", "")
    return (
        f"https://{org}.webhook.office.com/"
        + _p("webhook", "b2/")
        + f"{_uuid(r)}@{_uuid(r)}/IncomingWebhook/{_hex(r, 32)}/{_uuid(r)}/V2{_rs(r, B64URL, 42)}"
    )


def t_facebook(r: random.Random) -> str:
    return _p("EA", "A", r.choice("BGI")) + _rs(r, ALNUM, r.randint(150, 200))


def t_eth_key(r: random.Random) -> str:
    return r.choice(["0x", "0x", ""]) + _hex(r, 64)


def t_wireguard(r: random.Random) -> str:
    raw = bytearray(r.randbytes(32))
    raw[0] &= 248
    raw[31] = (raw[31] & 127) | 64
    return base64.b64encode(bytes(raw)).decode()


def t_hex_key(r: random.Random) -> str:
    return _hex(r, r.choice([32, 48, 64, 64, 64]))


def t_b64_key(r: random.Random) -> str:
    k = r.random()
    if k < 0.3:
        return base64.urlsafe_b64encode(r.randbytes(32)).decode()  # Fernet
    if k < 0.5:
        return _b64(r, 48)
    return _b64(r, 32)


def t_django(r: random.Random) -> str:
    return _rs(r, DJANGO_CHARS, 50)


def t_rails(r: random.Random) -> str:
    return _hex(r, 128) if r.random() < 0.7 else _hex(r, 32)


def t_laravel(r: random.Random) -> str:
    return "base64:" + _b64(r, 32)


def t_wp_salt(r: random.Random) -> str:
    return _rs(r, WP_CHARS, 64)


def _jwt_payload(r: random.Random) -> dict:
    iat = _epoch(r)
    p: dict = {
        "sub": r.choice([_uuid(r), _dig(r, 8), f"auth0|{_hex(r, 24)}"]),
        "iat": iat,
        "exp": iat + r.choice([900, 3600, 86400, 604800]),
    }
    if r.random() < 0.7:
        p["iss"] = r.choice(
            [
                f"https://auth.{_org(r)}.io/",
                f"https://{_org(r)}.eu.auth0.com/",
                f"https://cognito-idp.{r.choice(REGIONS)}.amazonaws.com/{r.choice(REGIONS)}_{_rs(r, ALNUM, 9)}",
            ]
        )
    if r.random() < 0.6:
        p["aud"] = r.choice(["api", f"https://api.{_org(r)}.io", _rs(r, LOWNUM, 26)])
    if r.random() < 0.5:
        p["scope"] = r.choice(["openid profile email", "read:orders write:orders", "admin", "offline_access"])
    if r.random() < 0.5:
        p["sid"] = _hex(r, 32)
    if r.random() < 0.4:
        p["email"] = f"{_user(r)}@{_org(r)}.com"
    return p


def t_jwt_session(r: random.Random) -> str:
    alg = r.choice(["HS256", "RS256", "RS256", "ES256"])
    return _jwt(r, _jwt_payload(r), alg, kid=_rs(r, B64URL, 22) if alg != "HS256" else None)


def t_k8s_sa(r: random.Random) -> str:
    ns, svc = r.choice(NAMESPACES), _svc(r)
    iat = _epoch(r)
    payload = {
        "aud": ["https://kubernetes.default.svc.cluster.local"],
        "exp": iat + 31_536_000,
        "iat": iat,
        "iss": "https://kubernetes.default.svc.cluster.local",
        "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": f"{svc}-deployer", "uid": _uuid(r)}},
        "nbf": iat,
        "sub": f"system:serviceaccount:{ns}:{svc}-deployer",
    }
    return _jwt(r, payload, "RS256", kid=_rs(r, B64URL, 43))


def t_session_cookie(r: random.Random) -> tuple[str, str]:
    k = r.randrange(6)
    if k == 0:
        return "sessionid", _rs(r, LOWNUM, 32)
    if k == 1:
        return "connect.sid", "s%3A" + _rs(r, B64URL, 32) + "." + quote(_b64(r, 32).rstrip("="), safe="")
    if k == 2:
        return f"_{r.choice(SERVICES)}_session", quote(_b64(r, r.randint(90, 160)), safe="") + "--" + _hex(r, 40)
    if k == 3:
        inner = {"iv": _b64(r, 16), "value": _b64(r, 96), "mac": _hex(r, 64), "tag": ""}
        return "laravel_session", _b64s(json.dumps(inner, separators=(",", ":"))).replace("=", "%3D")
    if k == 4:
        return "PHPSESSID", _rs(r, LOWNUM, 26)
    return "JSESSIONID", _rs(r, "0123456789ABCDEF", 32)


# ----------------------------------------------------------------------------------------------
# generic contexts: (r, spec, env-var name, value) -> text or None when the value does not fit
# ----------------------------------------------------------------------------------------------

SHELL_SAFE = ALNUM + "-_.:/+=@,%"
XML_BAD = "&<>"


def _q(r: random.Random, v: str) -> str:
    if all(c in SHELL_SAFE for c in v):
        q = r.choice(["", "", '"', "'"])
        return q + v + q
    return "'" + v + "'"


def _camel(name: str) -> str:
    parts = name.lower().split("_")
    return parts[0] + "".join(_title(p) for p in parts[1:])


def _pascal(name: str) -> str:
    return "".join(_title(p) for p in name.lower().split("_"))


def _yq(v: str) -> str:
    return v if all(c in ALNUM + "-_./" for c in v) and not v[:1].isdigit() else '"' + v + '"'


Ctx = Callable[[random.Random, dict, str, str], "str | None"]


def c_shell(r: random.Random, s: dict, name: str, val: str) -> str | None:
    q = _q(r, val)
    cmd = r.choice(CMDS)
    forms = [
        f"export {name}={q}",
        f"$ export {name}={q}\n$ {cmd}",
        f"  {r.randint(200, 2400)}  export {name}={q}\n  {r.randint(2401, 2600)}  {cmd}",
        f": {_epoch(r)}:0;export {name}={q}\n: {_epoch(r)}:0;{cmd}",
        f"set -gx {name} {q}",
        f"{name}={q} {cmd}",
        f"❯ {name}={q} {cmd}\n{r.choice(['done in 4.2s', 'Migrations applied', 'listening on :8080', 'ok'])}",
    ]
    if all(c in ALNUM + "-_.+/=~:" for c in val):
        forms += [
            f"PS C:\\src\\{_svc(r)}> $env:{name} = '{val}'\nPS C:\\src\\{_svc(r)}> {cmd}",
            f'C:\\Users\\{_user(r)}> setx {name} "{val}"\n\nSUCCESS: Specified value was saved.',
            f"C:\\work> set {name}={val}\nC:\\work> {cmd}",
        ]
    lead = r.choice(
        [
            "",
            "",
            "pasted from my terminal:\n",
            "what finally worked:\n",
            f"shell history from the {_env(r)} box:\n",
            "Lesson: the var has to be exported before the script runs.\n",
        ]
    )
    return lead + r.choice(forms)


def c_docker(r: random.Random, s: dict, name: str, val: str) -> str | None:
    q = _q(r, val)
    img, svc = r.choice(IMAGES), _svc(r)
    forms = [
        f"docker run --rm -e {name}={q} -p 8080:8080 {img}",
        f"docker run -d --name {svc} \\\n  -e NODE_ENV=production \\\n  -e {name}={q} \\\n  -e LOG_LEVEL=debug \\\n  {img}",
        f'services:\n  {svc}:\n    image: {img}\n    restart: unless-stopped\n    environment:\n      LOG_LEVEL: info\n      {name}: {_yq(val)}\n    ports:\n      - "8080:8080"',
        f"docker exec -it -e {name}={q} {svc}-1 sh",
        f"docker service create --name {svc} --env {name}={q} --replicas 2 {img}",
        f"podman run --rm --env {name}={q} {img} {r.choice(['npm test', 'pytest', 'bin/check'])}",
    ]
    return r.choice(forms)


def c_kube(r: random.Random, s: dict, name: str, val: str) -> str | None:
    q = _q(r, val)
    ns, svc = r.choice(NAMESPACES), _svc(r)
    key = name.lower().replace("_", "-")
    forms = [
        f"kubectl create secret generic {svc}-secrets --from-literal={key}={q} -n {ns}",
        f"kubectl -n {ns} set env deployment/{svc} {name}={q}",
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc}-secrets\n  namespace: {ns}\ntype: Opaque\nstringData:\n  {key}: {_yq(val)}",
        f'        env:\n          - name: LOG_LEVEL\n            value: info\n          - name: {name}\n            value: "{val}"',
        f"helm upgrade --install {svc} ./charts/{svc} -n {ns} --set secrets.{_camel(name)}={q}",
    ]
    return r.choice(forms)


def c_paas(r: random.Random, s: dict, name: str, val: str) -> str | None:
    q = _q(r, val)
    app = f"{_org(r)}-{_svc(r)}-{_env(r)}"
    forms = [
        f"heroku config:set {name}={q} -a {app}",
        f"fly secrets set {name}={q} --app {app}",
        f'railway variables --set "{name}={val}"',
        f"dokku config:set {app} {name}={q}",
        f"netlify env:set {name} {q}",
        f"az webapp config appsettings set -g rg-{app} -n {app} --settings {name}={q}",
        f"gcloud run deploy {_svc(r)} --region {r.choice(['europe-west1', 'us-central1'])} --set-env-vars {name}={q}",
        f"aws ssm put-parameter --name /{_env(r)}/{_svc(r)}/{name.lower()} --type SecureString --value {q} --overwrite",
        f"echo -n {q} | gcloud secrets create {name.lower().replace('_', '-')} --data-file=-",
    ]
    if '"' not in val:
        forms.append(f'gh secret set {name} --repo {_org(r)}/{_svc(r)} --body "{val}"')
    out = r.choice(forms)
    if out.startswith("fly") and r.random() < 0.5:
        out += f"\nRelease v{r.randint(2, 300)} created\n==> Monitoring deployment"
    if out.startswith("heroku") and r.random() < 0.5:
        out += f"\nSetting {name} and restarting ⬢ {app}... done, v{r.randint(10, 400)}"
    return out


OTHER_ENV = [
    ("NODE_ENV", "production"),
    ("LOG_LEVEL", "info"),
    ("PORT", "3000"),
    ("TZ", "UTC"),
    ("DEBUG", "false"),
    ("FEATURE_FLAGS", "beta,search-v2"),
    ("REDIS_HOST", "localhost"),
    ("WORKERS", "4"),
    ("CACHE_TTL", "300"),
    ("OTEL_SERVICE_NAME", "api"),
    ("ALLOWED_HOSTS", "localhost,127.0.0.1"),
    ("PYTHONUNBUFFERED", "1"),
]


def c_dotenv(r: random.Random, s: dict, name: str, val: str) -> str | None:
    lines = [f"{k}={v}" for k, v in r.sample(OTHER_ENV, r.randint(2, 5))]
    q = r.choice(["", "", '"', "'"]) if all(c in SHELL_SAFE for c in val) else r.choice(['"', "'"])
    lines.insert(r.randrange(len(lines) + 1), f"{name}={q}{val}{q}")
    if r.random() < 0.5:
        lines.insert(
            0, f"# {r.choice(['.env.' + _env(r), 'local overrides', 'copied from ' + _user(r), 'do not commit'])}"
        )
    text = "\n".join(lines)
    if r.random() < 0.4:
        text = f"my .env for {_svc(r)} (works):\n" + text
    return text


def c_yaml(r: random.Random, s: dict, name: str, val: str) -> str | None:
    cmd = r.choice(CMDS)
    forms = [
        f"name: deploy\non: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {name}: {_yq(val)}\n    steps:\n      - uses: actions/checkout@v4\n      - run: {cmd}",
        f'variables:\n  {name}: "{val}"\n\ndeploy:\n  stage: deploy\n  script:\n    - {cmd}',
        f"jobs:\n  build:\n    docker:\n      - image: cimg/node:20.11\n    environment:\n      {name}: {_yq(val)}\n    steps:\n      - checkout\n      - run: {cmd}",
        f"{s['kind'].split('_')[0]}:\n  base-url: https://{s.get('host') or 'api.example.net'}\n  {name.lower().replace('_', '-')}: {_yq(val)}\n  timeout: {r.randint(2, 60)}s",
        f'steps:\n  - label: ":rocket: deploy"\n    command: {cmd}\n    env:\n      {name}: "{val}"',
    ]
    return r.choice(forms)


def c_json(r: random.Random, s: dict, name: str, val: str) -> str | None:
    svc = _svc(r)
    k = r.randrange(5)
    if k == 0:
        d: dict = {
            "mcpServers": {
                s["kind"].split("_")[0]: {"command": "npx", "args": ["-y", f"@{_org(r)}/mcp-{svc}"], "env": {name: val}}
            }
        }
    elif k == 1:
        d = {
            "version": "0.2.0",
            "configurations": [
                {
                    "type": r.choice(["node", "debugpy", "go"]),
                    "request": "launch",
                    "name": f"{svc} ({_env(r)})",
                    "env": {"LOG_LEVEL": "debug", name: val},
                }
            ],
        }
    elif k == 2:
        d = {
            "rest-client.environmentVariables": {
                _env(r): {"baseUrl": f"https://{s.get('host') or 'api.example.net'}", "token": val}
            }
        }
    elif k == 3:
        d = {
            "Logging": {"LogLevel": {"Default": "Information"}},
            _pascal(s["kind"].split("_")[0]): {
                "ApiKey": val,
                "BaseUrl": f"https://{s.get('host') or 'api.example.net'}",
            },
        }
    else:
        d = {"env": {name: val}, "permissions": {"allow": ["Bash(npm run test:*)"]}}
    text = json.dumps(d, indent=2)
    if val not in text:
        return None
    return (
        r.choice(
            [
                "",
                "settings I ended up with:\n",
                f"{r.choice(['.vscode/launch.json', '.vscode/settings.json', 'mcp.json', 'appsettings.Development.json', '.claude/settings.local.json'])}:\n",
            ]
        )
        + text
    )


def c_code(r: random.Random, s: dict, name: str, val: str) -> str | None:
    cls = s.get("cls", "Client")
    lang = r.choice(["py", "js", "go", "rs", "java", "cs", "rb", "php"])
    hdr = s.get("header")
    hname, hval = (hdr.split(": ", 1)[0], hdr.split(": ", 1)[1].format(val)) if hdr else ("", "")
    if lang == "py":
        forms = [
            f'{name} = "{val}"  # TODO: move to env',
            f'os.environ.setdefault("{name}", "{val}")',
            f'client = {cls}(api_key="{val}")',
            f'SETTINGS = {{\n    "{name.lower()}": "{val}",\n    "timeout": 30,\n}}',
        ]
        if hdr:
            forms.append(
                f'resp = requests.get(\n    "https://{s["host"]}{s.get("path", "/")}",\n    headers={{"{hname}": "{hval}"}},\n    timeout=10,\n)'
            )
    elif lang == "js":
        forms = [
            f'const {_camel(name)} = process.env.{name} || "{val}";',
            f'const client = new {cls}({{ apiKey: "{val}" }});',
            f"export const config = {{ {_camel(name)}: '{val}', region: '{r.choice(REGIONS)}' }};",
        ]
        if hdr:
            forms.append(
                f'const res = await fetch("https://{s["host"]}{s.get("path", "/")}", {{\n  headers: {{ "{hname}": "{hval}" }},\n}});'
            )
    elif lang == "go":
        forms = [f'const {_camel(name)} = "{val}"', f'os.Setenv("{name}", "{val}")']
        if hdr:
            forms.append(
                f'req, _ := http.NewRequest("GET", "https://{s["host"]}{s.get("path", "/")}", nil)\nreq.Header.Set("{hname}", "{hval}")'
            )
    elif lang == "rs":
        forms = [
            f'let {name.lower()} = "{val}";',
            f'std::env::set_var("{name}", "{val}");',
            f'const {name}: &str = "{val}";',
        ]
    elif lang == "java":
        forms = [
            f'private static final String {name} = "{val}";',
            f'System.setProperty("{name.lower().replace("_", ".")}", "{val}");',
        ]
        if hdr:
            forms.append(
                f'HttpRequest req = HttpRequest.newBuilder(URI.create("https://{s["host"]}{s.get("path", "/")}"))\n    .header("{hname}", "{hval}")\n    .build();'
            )
    elif lang == "cs":
        forms = [
            f'private const string {_pascal(name)} = "{val}";',
            f'Environment.SetEnvironmentVariable("{name}", "{val}");',
        ]
        if hdr:
            forms.append(f'http.DefaultRequestHeaders.Add("{hname}", "{hval}");')
    elif lang == "rb":
        forms = [f"ENV['{name}'] ||= '{val}'", f"config.{name.lower()} = '{val}'"]
    else:
        forms = [f"define('{name}', '{val}');", f"$config['{name.lower()}'] = '{val}';", f"putenv('{name}={val}');"]
    code = r.choice(forms)
    fence = {
        "py": "python",
        "js": "js",
        "go": "go",
        "rs": "rust",
        "java": "java",
        "cs": "csharp",
        "rb": "ruby",
        "php": "php",
    }[lang]
    ext = {"js": "ts"}.get(lang, lang)
    k = r.random()
    if k < 0.3:
        return f"```{fence}\n{code}\n```"
    if k < 0.5:
        return f"snippet from {_svc(r)}/{r.choice(['config', 'settings', 'main', 'client', 'init'])}.{ext}:\n{code}"
    return code


def c_notebook(r: random.Random, s: dict, name: str, val: str) -> str | None:
    k = r.randrange(3)
    if k == 0:
        src = ["import os\n", f'os.environ["{name}"] = "{val}"\n']
    elif k == 1:
        src = [f"%env {name}={val}\n"]
    else:
        src = [f'{name.lower()} = "{val}"\n', f"client = {s.get('cls', 'Client')}({name.lower()})\n"]
    cell = {
        "cell_type": "code",
        "execution_count": r.randint(1, 60),
        "id": _hex(r, 8),
        "metadata": {},
        "outputs": [],
        "source": src,
    }
    text = json.dumps(cell, indent=1)
    return text if val in text else None


NOTE_EN = [
    "remember: {what} for {env} is {val}",
    "Note to self ({date}): {env} {what} -> {val}",
    "lesson learned: {svc} on {env} kept returning 401 because {name} was stale. current value {val}",
    "The {env} {svc} service wants {name}={val}, not the one in the old wiki page.",
    "decision: keep the {what} in {name} for now ({val}); move it to Vault next sprint",
    "TODO rotate `{val}` ({what}, {env}) after the demo",
    "{svc}/{env}: {name} = {val}",
    "- {what}: `{val}`\n- region: {region}\n- owner: {user}",
    "Fixed the flaky deploy. Root cause: {name} in CI was empty. Set it to {val} and it went green.",
    "remember: deploy key is {val} (the {env} one)",
]
NOTE_INTL = [
    "Promemoria: per {env} la variabile {name} va impostata a {val}",
    "Nota veloce — {what} ({env}): {val}. Da spostare nel vault.",
    "Kom ihåg: {name} i {env} är {val}",
    "Anteckning: ny {what} för {env} = {val} (den gamla är återkallad)",
    "Not: {env} ortamı için {name} değeri {val} olarak güncellendi",
    "Hatırlatma — {what}: {val}",
    "메모: {env} 환경의 {name} 값은 {val} 입니다",
    "{env} 배포용 {what}: {val} (다음 주에 교체 예정)",
    "备注：{env} 环境的 {name} 是 {val}",
    "{what}（{env}）：{val}，别提交到仓库",
    "Напоминание: {name} для {env} — {val}",
    "Новый {what} для {env}: {val}, старый отозван",
    "Poznámka: {name} pro {env} je {val}",
    "Nový {what} na {env}: {val} (starý jsem zneplatnil)",
]


def _fill(r: random.Random, tpl: str, s: dict, name: str, val: str) -> str:
    return tpl.format(
        what=s.get("what", "token"),
        env=_env(r),
        name=name,
        val=val,
        svc=_svc(r),
        date=_date(r),
        region=r.choice(REGIONS),
        user=_user(r),
    )


def c_note(r: random.Random, s: dict, name: str, val: str) -> str | None:
    return _fill(r, r.choice(NOTE_EN), s, name, val)


def c_intl(r: random.Random, s: dict, name: str, val: str) -> str | None:
    return _fill(r, r.choice(NOTE_INTL), s, name, val)


def c_chat(r: random.Random, s: dict, name: str, val: str) -> str | None:
    u1, u2 = r.sample(USERS, 2)
    env, what = _env(r), s.get("what", "token")
    hh = r.randint(8, 18)
    forms = [
        f"[{hh}:{r.randint(10, 29)}] {u1}: anyone have the {env} {what}?\n[{hh}:{r.randint(30, 59)}] {u2}: {val}\n[{hh}:{r.randint(30, 59)}] {u1}: thx 🙏",
        f"From: {u1}@{_org(r)}.com\nTo: {u2}@{_org(r)}.com\nSubject: {env} access\n\nHi {_title(u2)},\n\nhere is the {what} you asked for: {val}\n\nCheers,\n{_title(u1)}",
        f"@{u2} use `{name}={val}` for {env}, the old one was rotated",
        f'{_title(u1)} wrote in #{r.choice(["dev", "ops", "backend", "incidents"])}: "{what} for {env} is {val} — please don\'t paste it anywhere else"',
        f"Ciao {_title(u2)}, ti giro la {what} di {env}: {val}\nFammi sapere se funziona.",
        f"Hej {_title(u2)}! Här är {what} för {env}: {val}",
        f"Merhaba {_title(u2)}, {env} için {what}: {val}",
        f"{_title(u2)}님, {env} {what} 공유드립니다: {val}",
        f"{u2} 你好，{env} 的 {what} 是 {val}，用完告诉我",
        f"Привет, {_title(u2)}! {what} для {env}: {val}",
        f"Ahoj {_title(u2)}, {what} pro {env}: {val}",
    ]
    return r.choice(forms)


def c_commit(r: random.Random, s: dict, name: str, val: str) -> str | None:
    env = _env(r)
    h1, h2 = _hex(r, 7), _hex(r, 7)
    forms = [
        f"diff --git a/.env.{env} b/.env.{env}\nindex {h1}..{h2} 100644\n--- a/.env.{env}\n+++ b/.env.{env}\n@@ -3,6 +3,7 @@ LOG_LEVEL=info\n PORT=8080\n+{name}={val}\n FEATURE_X=true",
        f"commit {_hex(r, 40)}\nAuthor: {_title(_user(r))} <{_user(r)}@{_org(r)}.com>\nDate:   {_date(r)}\n\n    ci: hardcode {name} until the secret store is wired up\n\n    {name}={val}",
        f"fix({_svc(r)}): use the new {s.get('what', 'token')}\n\nold one expired; new value is {val}\n\nRefs: #{r.randint(100, 9999)}",
        f"@@ -12,7 +12,7 @@ jobs:\n     env:\n-      {name}: ${{{{ secrets.{name} }}}}\n+      {name}: {val}\n     steps:",
        f'+++ b/config/{env}.yml\n@@ -1,4 +1,5 @@\n {s["kind"].split("_")[0]}:\n+  {name.lower()}: "{val}"\n   enabled: true',
    ]
    return r.choice(forms)


def c_ci(r: random.Random, s: dict, name: str, val: str) -> str | None:
    ts = _iso(r)
    cmd = r.choice(CMDS)
    k = r.randrange(4)
    if k == 0:
        lines = [
            f"##[group]Run {cmd}",
            cmd,
            "shell: /usr/bin/bash -e {0}",
            "env:",
            "  CI: true",
            f"  {name}: {val}",
            "##[endgroup]",
        ]
        return _gha_lines(r, ts, lines)
    if k == 1:
        return f'Running with gitlab-runner 17.{r.randint(0, 5)}.{r.randint(0, 3)} (abc{_hex(r, 5)})\n$ echo "using {name}=${name}"\nusing {name}={val}\n$ {cmd}'
    if k == 2:
        return f"#!/bin/bash -eo pipefail\nset -x\n+ export {name}={val}\n+ {name}={val}\n+ {cmd}\nExited with code exit status {r.choice([0, 1, 2])}"
    return f"~~~ :buildkite: Preparing working directory\n~~~ Running commands\n$ export {name}={val}\n$ {cmd}\n^^^ +++\n🚨 Error: The command exited with status {r.choice([1, 2, 127])}"


def c_http(r: random.Random, s: dict, name: str, val: str) -> str | None:
    hdr = s.get("header")
    if not hdr:
        return None
    hname, hval = hdr.split(": ", 1)
    hval = hval.format(val)
    host, path = s["host"], s.get("path", "/")
    ip = _ip(r)
    k = r.randrange(5)
    if k == 0:
        return f'$ curl -s https://{host}{path} -H "{hname}: {hval}" | jq .'
    if k == 1:
        return (
            f"$ curl -v https://{host}{path} -H '{hname}: {hval}'\n*   Trying {ip}:443...\n* Connected to {host} ({ip}) port 443\n"
            f"> GET {path} HTTP/2\n> Host: {host}\n> user-agent: curl/8.{r.randint(4, 9)}.0\n> accept: */*\n> {hname.lower()}: {hval}\n>\n"
            f"< HTTP/2 {r.choice([200, 401, 403, 429])}\n< content-type: application/json\n< x-request-id: {_uuid(r)}"
        )
    if k == 2:
        return f"http GET https://{host}{path} '{hname}:{hval}'\nHTTP/1.1 200 OK\nContent-Type: application/json"
    if k == 3:
        return f'POST {path} HTTP/1.1\nHost: {host}\n{hname}: {hval}\nContent-Type: application/json\nUser-Agent: {r.choice(["python-requests/2.32.3", "axios/1.7.2", "Go-http-client/2.0"])}\n\n{{"limit": {r.randint(1, 100)}}}'
    har = {
        "request": {
            "method": "GET",
            "url": f"https://{host}{path}",
            "httpVersion": "HTTP/2",
            "headers": [{"name": "accept", "value": "application/json"}, {"name": hname, "value": hval}],
        },
        "response": {"status": 200},
    }
    text = json.dumps(har, indent=2)
    return text if val in text else None


def c_tf(r: random.Random, s: dict, name: str, val: str) -> str | None:
    attr = s.get("tf", name.lower())
    prov = s.get("prov", s["kind"].split("_")[0])
    k = r.randrange(4)
    if k == 0:
        return (
            f'# {_env(r)}.tfvars\nregion = "{r.choice(REGIONS)}"\n{attr} = "{val}"\ninstance_count = {r.randint(1, 6)}'
        )
    if k == 1:
        return f'provider "{prov}" {{\n  {attr} = "{val}"\n}}'
    if k == 2:
        d = {
            "mode": "managed",
            "type": f"{prov}_{r.choice(['secret', 'config', 'integration', 'webhook'])}",
            "name": _svc(r),
            "instances": [{"schema_version": 0, "attributes": {"id": _dig(r, 8), attr: val}}],
        }
        text = json.dumps(d, indent=2)
        return text if val in text else None
    return f"terraform apply -var '{attr}={val}' -auto-approve"


def c_crash(r: random.Random, s: dict, name: str, val: str) -> str | None:
    svc = _svc(r)
    k = r.randrange(4)
    if k == 0:
        return (
            f'Traceback (most recent call last):\n  File "/app/{svc}/client.py", line {r.randint(20, 300)}, in call\n    resp.raise_for_status()\n'
            f"requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://{s.get('host') or 'api.example.net'}{s.get('path', '/')}\n"
            f"locals: {{'self': <{svc}.Client>, 'settings': {{'{name}': '{val}', 'TIMEOUT': 30}}}}"
        )
    if k == 1:
        return (
            f"AxiosError: Request failed with status code {r.choice([401, 403])}\n    at settle (node_modules/axios/lib/core/settle.js:19:12)\n"
            f"  config: {{\n    url: 'https://{s.get('host') or 'api.example.net'}{s.get('path', '/')}',\n    env: {{ {name}: '{val}' }},\n  }}"
        )
    if k == 2:
        return f"panic: startup failed: invalid credentials\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/cmd/{svc}/main.go:{r.randint(20, 99)} +0x1a4\nconfig: {{Env:{_env(r)} {_pascal(name)}:{val} Port:8080}}"
    return f"ERROR [{svc}] {_iso(r)} Startup failure, dumping config\n  {name}={val}\n  LOG_LEVEL=debug\njava.lang.IllegalStateException: upstream rejected credentials\n\tat com.{_org(r).replace('-', '')}.{svc}.Boot.main(Boot.java:{r.randint(20, 99)})"


def c_jetbrains(r: random.Random, s: dict, name: str, val: str) -> str | None:
    if any(c in val for c in XML_BAD + '"'):
        return None
    return (
        f'<configuration name="{_svc(r)} [{_env(r)}]" type="{r.choice(["PythonConfigurationType", "GoApplicationRunConfiguration", "NodeJSConfigurationType"])}">\n'
        f'  <envs>\n    <env name="PYTHONUNBUFFERED" value="1" />\n    <env name="{name}" value="{val}" />\n  </envs>\n</configuration>'
    )


GENERIC: dict[str, Ctx] = {
    "shell": c_shell,
    "docker": c_docker,
    "kube": c_kube,
    "paas": c_paas,
    "dotenv": c_dotenv,
    "yaml": c_yaml,
    "json": c_json,
    "code": c_code,
    "notebook": c_notebook,
    "note": c_note,
    "intl": c_intl,
    "chat": c_chat,
    "commit": c_commit,
    "ci": c_ci,
    "http": c_http,
    "tf": c_tf,
    "crash": c_crash,
    "jetbrains": c_jetbrains,
}


# ----------------------------------------------------------------------------------------------
# vendor-specific contexts
# ----------------------------------------------------------------------------------------------


def _repo(r: random.Random) -> str:
    return f"{_org(r)}/{_svc(r)}{r.choice(['', '-api', '-web', '-infra'])}"


def x_git_remote(r: random.Random, s: dict, name: str, val: str) -> str:
    host = s.get("githost", "github.com")
    u = r.choice([_user(r), "x-access-token", "oauth2", "git"])
    forms = [
        f"https://{u}:{val}@{host}\n",
        f"$ git remote -v\norigin\thttps://{u}:{val}@{host}/{_repo(r)}.git (fetch)\norigin\thttps://{u}:{val}@{host}/{_repo(r)}.git (push)",
        f"git clone https://{u}:{val}@{host}/{_repo(r)}.git",
        f"~/.git-credentials:\nhttps://{u}:{val}@{host}",
    ]
    return r.choice(forms)


def x_gh_cli(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"$ echo {val} | gh auth login --with-token\n$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account {_user(r)} (keyring)",
            f"GH_TOKEN={val} gh release create v{r.randint(0, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)} --generate-notes",
            f"gh auth login --with-token <<< {val}",
            f"github.com:\n    oauth_token: {val}\n    user: {_user(r)}\n    git_protocol: https",
        ]
    )


def x_glab(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"glab auth login --hostname gitlab.{_org(r)}.com --token {val}",
            f'curl --header "PRIVATE-TOKEN: {val}" "https://gitlab.com/api/v4/projects?membership=true"',
            f"git push https://oauth2:{val}@gitlab.com/{_repo(r)}.git HEAD:main",
        ]
    )


def x_gl_runner(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"gitlab-runner register --non-interactive --url https://gitlab.com --token {val} --executor docker --docker-image alpine:3.20",
            f'[[runners]]\n  name = "{_svc(r)}-runner"\n  url = "https://gitlab.com"\n  token = "{val}"\n  executor = "docker"',
            f"helm install gitlab-runner gitlab/gitlab-runner --set runnerToken={val} --set gitlabUrl=https://gitlab.com",
        ]
    )


def x_atlassian(r: random.Random, s: dict, name: str, val: str) -> str:
    u = f"{_user(r)}@{_org(r)}.com"
    return r.choice(
        [
            f"curl -u {u}:{val} https://{_org(r)}.atlassian.net/rest/api/3/myself",
            f"jira init --installation cloud --server https://{_org(r)}.atlassian.net --login {u} --auth-type basic\n# token: {val}",
            f"JIRA_API_TOKEN={val} JIRA_EMAIL={u} python sync_issues.py",
        ]
    )


def x_npmrc(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"//registry.npmjs.org/:_authToken={val}\n@{_org(r)}:registry=https://registry.npmjs.org/\nalways-auth=true",
            f"$ cat ~/.npmrc\n//registry.npmjs.org/:_authToken={val}",
            f'npmAuthToken: "{val}"\nnpmRegistryServer: "https://registry.npmjs.org"',
            f"NODE_AUTH_TOKEN={val} npm publish --access public",
            f"npm config set //registry.npmjs.org/:_authToken {val}",
        ]
    )


def x_pypirc(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {val}",
            f"twine upload -u __token__ -p {val} dist/*",
            f"uv publish --token {val}",
            f"poetry config pypi-token.pypi {val}",
            f"$ export UV_PUBLISH_TOKEN={val}\n$ uv publish\nPublishing 2 files https://upload.pypi.org/legacy/",
        ]
    )


def x_gem(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"$ cat ~/.gem/credentials\n---\n:rubygems_api_key: {val}",
            f"GEM_HOST_API_KEY={val} gem push pkg/{_svc(r)}-{r.randint(0, 3)}.{r.randint(0, 9)}.0.gem",
        ]
    )


def x_nuget(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"dotnet nuget push bin/Release/*.nupkg --api-key {val} --source https://api.nuget.org/v3/index.json",
            f"nuget setapikey {val} -source https://www.nuget.org/api/v2/package",
        ]
    )


def x_docker_login(r: random.Random, s: dict, name: str, val: str) -> str:
    u = _user(r)
    return r.choice(
        [
            f"echo {val} | docker login -u {u} --password-stdin\nLogin Succeeded",
            f"docker login -u {u} -p {val}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded",
            f"- uses: docker/login-action@v3\n  with:\n    username: {u}\n    password: {val}",
        ]
    )


def x_jfrog(r: random.Random, s: dict, name: str, val: str) -> str:
    org = _org(r)
    return r.choice(
        [
            f"jf c add {org} --url https://{org}.jfrog.io --access-token {val} --interactive=false",
            f'curl -H "Authorization: Bearer {val}" https://{org}.jfrog.io/artifactory/api/repositories',
            f"//{org}.jfrog.io/artifactory/api/npm/npm-virtual/:_authToken={val}",
        ]
    )


def x_aws(r: random.Random, s: dict, name: str, val: str) -> str:
    kid, reg, prof = t_aws_key_id(r), r.choice(REGIONS), _env(r)
    return r.choice(
        [
            f"$ aws configure --profile {prof}\nAWS Access Key ID [None]: {kid}\nAWS Secret Access Key [None]: {val}\nDefault region name [None]: {reg}\nDefault output format [None]: json",
            f"[{prof}]\naws_access_key_id = {kid}\naws_secret_access_key = {val}\nregion = {reg}",
            f"export AWS_ACCESS_KEY_ID={kid}\nexport AWS_SECRET_ACCESS_KEY={val}\nexport AWS_DEFAULT_REGION={reg}",
            f's3 = boto3.client(\n    "s3",\n    aws_access_key_id="{kid}",\n    aws_secret_access_key="{val}",\n    region_name="{reg}",\n)',
            f"docker run --rm -e AWS_ACCESS_KEY_ID={kid} -e AWS_SECRET_ACCESS_KEY={val} amazon/aws-cli s3 ls",
            f'provider "aws" {{\n  region     = "{reg}"\n  access_key = "{kid}"\n  secret_key = "{val}"\n}}',
            f"aws configure set aws_secret_access_key {val} --profile {prof}",
        ]
    )


def x_aws_session(r: random.Random, s: dict, name: str, val: str) -> str:
    kid = _p("AS", "IA") + _rs(r, B32U, 16)
    return r.choice(
        [
            f"export AWS_ACCESS_KEY_ID={kid}\nexport AWS_SESSION_TOKEN={val}\n# secret key is in the other terminal",
            f"[{_env(r)}-sso]\naws_access_key_id = {kid}\naws_session_token = {val}",
            f"AWS_SESSION_TOKEN={val} aws s3 ls s3://{_org(r)}-{_env(r)}-artifacts/",
        ]
    )


def _gcp_sa(r: random.Random) -> tuple[dict, str]:
    proj = f"{_org(r)}-{_env(r)}-{_dig(r, 6)}"
    pem = _pem_pkcs8(r, rsa=True) + "\n"
    d = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": _hex(r, 40),
        "private_key": pem,
        "client_email": f"{_svc(r)}-sa@{proj}.iam.gserviceaccount.com",
        "client_id": _dig(r, 21),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
        "universe_domain": "googleapis.com",
    }
    return d, json.dumps(pem)[1:-1]


def x_gcp_sa(r: random.Random, s: dict, name: str, val: str) -> tuple[str, str]:
    d, secret = _gcp_sa(r)
    k = r.randrange(4)
    if k == 0:
        return f"$ cat {d['project_id']}-{_hex(r, 12)}.json\n" + json.dumps(d, indent=2), secret
    if k == 1:
        return "GOOGLE_CREDENTIALS='" + json.dumps(d, separators=(",", ":")) + "'", secret
    if k == 2:
        return "the SA key the ingest job uses (don't lose it again):\n" + json.dumps(d, indent=2), secret
    return f"kubectl create secret generic gcp-sa -n {r.choice(NAMESPACES)} --from-literal=key.json='" + json.dumps(
        d
    ) + "'", secret


def x_google_api(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"https://maps.googleapis.com/maps/api/geocode/json?address={quote(r.choice(['Via Roma 1, Milano', 'Drottninggatan 5, Stockholm', 'Karlova 2, Praha']))}&key={val}",
            f'genai.configure(api_key="{val}")',
            f"curl \"https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent?key={val}\" -H 'Content-Type: application/json' -d @req.json",
            f"GEMINI_API_KEY={val} gemini -p 'summarise the diff'",
        ]
    )


def x_google_oauth(r: random.Random, s: dict, name: str, val: str) -> str:
    cid = f"{_dig(r, 12)}-{_rs(r, LOWNUM, 32)}.apps.googleusercontent.com"
    d = {
        "web": {
            "client_id": cid,
            "project_id": f"{_org(r)}-{_env(r)}",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": "https://oauth2.googleapis.com/token",
            "client_secret": val,
            "redirect_uris": [f"https://app.{_org(r)}.io/auth/callback"],
        }
    }
    return r.choice(
        [
            json.dumps(d, indent=2),
            f"GOOGLE_CLIENT_ID={cid}\nGOOGLE_CLIENT_SECRET={val}",
            f'GoogleProvider({{ clientId: "{cid}", clientSecret: "{val}" }})',
        ]
    )


def x_google_access(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"$ gcloud auth print-access-token\n{val}",
            f'curl -H "Authorization: Bearer {val}" https://storage.googleapis.com/storage/v1/b?project={_org(r)}-{_env(r)}',
            f'{{\n  "access_token": "{val}",\n  "expires_in": 3599,\n  "scope": "https://www.googleapis.com/auth/cloud-platform",\n  "token_type": "Bearer"\n}}',
        ]
    )


def x_azure_storage(r: random.Random, s: dict, name: str, val: str) -> str:
    acct = _org(r).replace("-", "") + _env(r).replace("-", "") + str(r.randint(1, 99))
    cs = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={val};EndpointSuffix=core.windows.net"
    return r.choice(
        [
            cs,
            f'{{\n  "IsEncrypted": false,\n  "Values": {{\n    "AzureWebJobsStorage": "{cs}",\n    "FUNCTIONS_WORKER_RUNTIME": "dotnet-isolated"\n  }}\n}}',
            f'$ az storage account keys list -g rg-{_svc(r)} -n {acct} --query "[0].value" -o tsv\n{val}',
            f'AZURE_STORAGE_CONNECTION_STRING="{cs}"',
            f"az storage blob upload --account-name {acct} --account-key {val} -c backups -f dump.sql",
        ]
    )


def x_azure_sp(r: random.Random, s: dict, name: str, val: str) -> str:
    app, tenant = _uuid(r), _uuid(r)
    return r.choice(
        [
            f"az login --service-principal -u {app} -p {val} --tenant {tenant}",
            f'$ az ad sp create-for-rbac --name {_svc(r)}-ci --role contributor --scopes /subscriptions/{_uuid(r)}\n{{\n  "appId": "{app}",\n  "displayName": "{_svc(r)}-ci",\n  "password": "{val}",\n  "tenant": "{tenant}"\n}}',
            f"export ARM_CLIENT_ID={app}\nexport ARM_CLIENT_SECRET={val}\nexport ARM_TENANT_ID={tenant}",
            f'builder.Configuration["AzureAd:ClientSecret"] = "{val}";',
            f"Connect-AzAccount -ServicePrincipal -Tenant {tenant} -Credential (New-Object PSCredential('{app}', (ConvertTo-SecureString '{val}' -AsPlainText -Force)))",
        ]
    )


def x_azure_devops(r: random.Random, s: dict, name: str, val: str) -> str:
    org = _org(r).replace("-", "")
    return r.choice(
        [
            f"git clone https://{org}:{val}@dev.azure.com/{org}/{_svc(r)}/_git/{_svc(r)}",
            f"export AZURE_DEVOPS_EXT_PAT={val}\naz devops configure --defaults organization=https://dev.azure.com/{org}",
            f'<packageSourceCredentials>\n  <{org}>\n    <add key="Username" value="{_user(r)}" />\n    <add key="ClearTextPassword" value="{val}" />\n  </{org}>\n</packageSourceCredentials>',
        ]
    )


def x_azure_sas(r: random.Random, s: dict, name: str, val: str) -> str:
    acct = _org(r).replace("-", "") + str(r.randint(1, 99))
    st = _date(r)
    se = str(int(st[:4]) + r.choice([0, 1, 2])) + st[4:]
    qs = f"sv=2022-11-02&ss=bfqt&srt=sco&sp={r.choice(['rwdlacupiytfx', 'rl', 'racwdl', 'r'])}&se={se}T23:59:59Z&st={st}T00:00:00Z&spr=https&sig={val}"
    return r.choice(
        [
            f"https://{acct}.blob.core.windows.net/{r.choice(['backups', 'uploads', 'exports'])}/{_svc(r)}-{_date(r)}.tar.gz?{qs}",
            f"azcopy copy ./dist 'https://{acct}.blob.core.windows.net/$web?{qs}' --recursive",
            f"BlobEndpoint=https://{acct}.blob.core.windows.net/;SharedAccessSignature={qs}",
        ]
    )


def x_databricks(r: random.Random, s: dict, name: str, val: str) -> str:
    host = f"https://adb-{_dig(r, 16)}.{r.randint(1, 19)}.azuredatabricks.net"
    return r.choice(
        [
            f"[DEFAULT]\nhost = {host}\ntoken = {val}",
            f"databricks configure --token\nDatabricks Host: {host}\nToken: {val}",
            f'w = WorkspaceClient(host="{host}", token="{val}")',
        ]
    )


def x_do(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"doctl auth init -t {val}",
            f"doctl auth init --context {_env(r)} --access-token {val}",
            f"access-token: {val}\ncontext: default",
        ]
    )


def x_stripe(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"curl https://api.stripe.com/v1/charges -u {val}: -d limit=3",
            f'stripe.api_key = "{val}"',
            f"const stripe = new Stripe('{val}', {{ apiVersion: '2024-06-20' }});",
            f"Stripe.api_key = '{val}'",
            f"stripe customers list --api-key {val} --limit 5",
        ]
    )


def x_whsec(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"$ stripe listen --forward-to localhost:{r.choice([3000, 4242, 8000])}/webhooks\n> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is {val} (^C to quit)",
            f'event = stripe.Webhook.construct_event(payload, sig_header, "{val}")',
            f"endpoint_secret = '{val}'",
        ]
    )


def x_square(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'client = Client(access_token="{val}", environment="production")',
            f"curl https://connect.squareup.com/v2/locations -H 'Square-Version: 2024-07-17' -H 'Authorization: Bearer {val}'",
        ]
    )


def x_braintree(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'gateway = braintree.BraintreeGateway(access_token="{val}")',
            f"const gateway = new braintree.BraintreeGateway({{ accessToken: '{val}' }});",
            f"BRAINTREE_ACCESS_TOKEN='{val}'",
        ]
    )


def x_slack_token(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'client = WebClient(token="{val}")',
            f'curl -X POST -H \'Authorization: Bearer {val}\' -H \'Content-type: application/json\' --data \'{{"channel":"C{_rs(r, UPNUM, 10)}","text":"deploy done"}}\' https://slack.com/api/chat.postMessage',
            f"const app = new App({{ token: '{val}', signingSecret: process.env.SLACK_SIGNING_SECRET }});",
        ]
    )


def x_webhook_url(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"{_svc(r)} deployed to {_env(r)}\"}}' {val}",
            f'requests.post("{val}", json={{"content": "nightly build failed"}})',
            f"receivers:\n  - name: {_svc(r)}-alerts\n    slack_configs:\n      - api_url: {val}\n        channel: '#alerts'",
            f'Invoke-RestMethod -Method Post -ContentType \'application/json\' -Uri "{val}" -Body \'{{"text":"backup ok"}}\'',
            f"WEBHOOK_URL={val}",
            f"the alert webhook for #{r.choice(['ops', 'alerts', 'deploys'])} is {val}",
        ]
    )


def x_discord_bot(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'client.run("{val}")',
            f"client.login('{val}');",
            f"bot.run('{val}')",
            f'curl -H "Authorization: Bot {val}" https://discord.com/api/v10/users/@me',
        ]
    )


def x_telegram(r: random.Random, s: dict, name: str, val: str) -> str:
    chat = r.choice(["-100", ""]) + _dig(r, 10)
    return r.choice(
        [
            f'curl -s "https://api.telegram.org/bot{val}/sendMessage?chat_id={chat}&text=deploy%20ok"',
            f'app = Application.builder().token("{val}").build()',
            f"bot = telebot.TeleBot('{val}')",
            f"https://api.telegram.org/bot{val}/getUpdates",
        ]
    )


def x_twilio(r: random.Random, s: dict, name: str, val: str) -> str:
    sid = "AC" + _hex(r, 32)
    return r.choice(
        [
            f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json --data-urlencode 'Body=test' -u {sid}:{val}",
            f'client = Client("{sid}", "{val}")',
            f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={val}",
            f"const client = require('twilio')('{sid}', '{val}');",
        ]
    )


def x_sendgrid(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'sg = SendGridAPIClient("{val}")',
            f"sgMail.setApiKey('{val}');",
            f'EMAIL_HOST = "smtp.sendgrid.net"\nEMAIL_HOST_USER = "apikey"\nEMAIL_HOST_PASSWORD = "{val}"',
        ]
    )


def x_mailgun(r: random.Random, s: dict, name: str, val: str) -> str:
    dom = f"mg.{_org(r)}.com"
    return r.choice(
        [
            f"curl -s --user 'api:{val}' https://api.mailgun.net/v3/{dom}/messages -F from='ops@{dom}' -F to=me@{dom} -F subject=test -F text=hi",
            f'mailgun = Mailgun(api_key="{val}", domain="{dom}")',
        ]
    )


def x_mailchimp(r: random.Random, s: dict, name: str, val: str) -> str:
    dc = val.rsplit("-", 1)[1]
    return r.choice(
        [
            f'client.setConfig({{ apiKey: "{val}", server: "{dc}" }});',
            f"curl https://{dc}.api.mailchimp.com/3.0/lists --user 'anystring:{val}'",
        ]
    )


def x_openai(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'client = OpenAI(api_key="{val}")',
            f"const openai = new OpenAI({{ apiKey: '{val}' }});",
            f"$ llm keys set openai\nEnter key: {val}",
            f"aider --model gpt-4o --openai-api-key {val}",
            f'{{\n  "models": [{{ "title": "GPT-4o", "provider": "openai", "model": "gpt-4o", "apiKey": "{val}" }}]\n}}',
        ]
    )


def x_anthropic(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'client = anthropic.Anthropic(api_key="{val}")',
            f"const anthropic = new Anthropic({{ apiKey: '{val}' }});",
            f"curl https://api.anthropic.com/v1/messages -H 'x-api-key: {val}' -H 'anthropic-version: 2023-06-01' -H 'content-type: application/json' -d @body.json",
        ]
    )


def x_hf(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"huggingface-cli login --token {val}",
            f'from huggingface_hub import login\nlogin(token="{val}")',
            f"git clone https://{_user(r)}:{val}@huggingface.co/{_org(r)}/{_svc(r)}-model",
            f'model = AutoModel.from_pretrained("{_org(r)}/{_svc(r)}-7b", token="{val}")',
        ]
    )


def x_client_kw(r: random.Random, s: dict, name: str, val: str) -> str:
    cls = s.get("cls", "Client")
    kw = s.get("kw", "api_key")
    return r.choice([f'client = {cls}({kw}="{val}")', f"const client = new {cls}({{ {_camel(kw)}: '{val}' }});"])


def x_sentry_cli(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"sentry-cli --auth-token {val} releases new {_hex(r, 12)}",
            f"[auth]\ntoken={val}\n\n[defaults]\norg={_org(r)}\nproject={_svc(r)}",
            f"export default withSentryConfig(nextConfig, {{ org: '{_org(r)}', project: '{_svc(r)}', authToken: '{val}' }});",
        ]
    )


def x_datadog(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'DD_API_KEY={val} DD_SITE="{r.choice(["datadoghq.com", "datadoghq.eu"])}" bash -c "$(curl -L https://install.datadoghq.com/scripts/install_script_agent7.sh)"',
            f"# /etc/datadog-agent/datadog.yaml\napi_key: {val}\nsite: datadoghq.eu\nlogs_enabled: true",
            f"helm install datadog-agent datadog/datadog --set datadog.apiKey={val} --set datadog.site=datadoghq.com",
            f'curl -X GET "https://api.datadoghq.com/api/v1/validate" -H "DD-API-KEY: {val}"',
        ]
    )


def x_newrelic(r: random.Random, s: dict, name: str, val: str) -> str:
    if val.startswith(_p("NR", "AK")):
        return r.choice(
            [
                f"curl https://api.newrelic.com/graphql -H 'API-Key: {val}' -d @query.json",
                f"newrelic profile add --profile {_env(r)} --region us --apiKey {val}",
            ]
        )
    return r.choice(
        [
            f"common: &default_settings\n  license_key: '{val}'\n  app_name: {_svc(r)}",
            f"NEW_RELIC_LICENSE_KEY={val} NEW_RELIC_APP_NAME={_svc(r)} node -r newrelic server.js",
        ]
    )


def x_tfc(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            json.dumps({"credentials": {"app.terraform.io": {"token": val}}}, indent=2),
            f'credentials "app.terraform.io" {{\n  token = "{val}"\n}}',
            f"TF_TOKEN_app_terraform_io={val} terraform init",
        ]
    )


def x_vault(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"$ vault login {val}\nSuccess! You are now authenticated.",
            f'Key                  Value\n---                  -----\ntoken                {val}\ntoken_accessor       {_rs(r, ALNUM, 24)}\ntoken_duration       768h\ntoken_renewable      true\ntoken_policies       ["default" "{_svc(r)}"]',
            f"VAULT_ADDR=https://vault.{_org(r)}.internal:8200 VAULT_TOKEN={val} vault kv get secret/{_svc(r)}",
        ]
    )


def x_doppler(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"doppler configure set token {val} --scope /srv/{_svc(r)}",
            f"DOPPLER_TOKEN={val} doppler run -- {r.choice(CMDS)}",
        ]
    )


def x_supabase(r: random.Random, s: dict, name: str, val: str) -> str:
    ref = _rs(r, LOWER, 20)
    return r.choice(
        [
            f"// server only!\nconst supabase = createClient('https://{ref}.supabase.co', '{val}');",
            f'supabase = create_client("https://{ref}.supabase.co", "{val}")  # service role',
            f"SUPABASE_URL=https://{ref}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={val}",
        ]
    )


def x_planetscale(r: random.Random, s: dict, name: str, val: str) -> str:
    u = _rs(r, LOWNUM, 12)
    return r.choice(
        [
            f"DATABASE_URL=mysql://{u}:{val}@aws.connect.psdb.cloud/{_svc(r)}?sslaccept=strict",
            f"mysql -h aws.connect.psdb.cloud -u {u} -p{val} --ssl-mode=VERIFY_IDENTITY",
            f"PLANETSCALE_SERVICE_TOKEN_ID={_rs(r, LOWNUM, 12)}\nPLANETSCALE_SERVICE_TOKEN={val}",
        ]
    )


def x_mapbox(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"machine api.mapbox.com\n  login mapbox\n  password {val}",
            f"MAPBOX_DOWNLOADS_TOKEN={val}",
            f'curl "https://api.mapbox.com/tokens/v2/{_user(r)}?access_token={val}"',
        ]
    )


def x_age(r: random.Random, s: dict, name: str, val: str) -> str:
    pub = "age1" + _rs(r, BECH32, 58)
    return r.choice(
        [
            f"# created: {_iso(r)}+02:00\n# public key: {pub}\n{val}",
            f"export SOPS_AGE_KEY={val}\nsops -d secrets/{_env(r)}.enc.yaml",
            f"$ cat ~/.config/sops/age/keys.txt\n# public key: {pub}\n{val}",
        ]
    )


def x_okta(r: random.Random, s: dict, name: str, val: str) -> str:
    org = _org(r)
    return r.choice(
        [
            f'curl -H "Authorization: SSWS {val}" https://{org}.okta.com/api/v1/users?limit=25',
            f"okta:\n  client:\n    orgUrl: https://{org}.okta.com\n    token: {val}",
        ]
    )


def x_launchdarkly(r: random.Random, s: dict, name: str, val: str) -> str:
    if val.startswith("api"):
        return r.choice(
            [
                f"curl -s -H 'Authorization: {val}' https://app.launchdarkly.com/api/v2/flags/{_svc(r)}",
                f"ldcli config --set access-token {val}",
            ]
        )
    return r.choice(
        [
            f'ldclient.set_config(Config("{val}"))',
            f'var client = new LdClient("{val}");',
            f"const client = LaunchDarkly.init('{val}');",
        ]
    )


def x_contentful(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"contentful login --management-token {val}",
            f"const client = contentful.createClient({{ accessToken: '{val}' }});",
            f"contentful space export --space-id {_rs(r, LOWNUM, 12)} --management-token {val}",
        ]
    )


def x_twitter(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'client = tweepy.Client(bearer_token="{val}")',
            f'curl "https://api.twitter.com/2/users/by/username/{_user(r)}" -H "Authorization: Bearer {val}"',
        ]
    )


def x_circleci(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'curl -H "Circle-Token: {val}" https://circleci.com/api/v2/me',
            f"host: https://circleci.com\ntoken: {val}",
            f"circleci setup --no-prompt --token {val} --host https://circleci.com",
        ]
    )


def x_sonar(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"sonar-scanner -Dsonar.projectKey={_svc(r)} -Dsonar.host.url=https://sonar.{_org(r)}.com -Dsonar.token={val}",
            f"mvn sonar:sonar -Dsonar.login={val}",
            f"SONAR_TOKEN={val} npx sonarqube-scanner",
        ]
    )


def x_tailscale(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"sudo tailscale up --authkey={val} --advertise-tags=tag:ci",
            f"  tailscale:\n    image: tailscale/tailscale:latest\n    environment:\n      - TS_AUTHKEY={val}\n      - TS_STATE_DIR=/var/lib/tailscale",
        ]
    )


def x_cloudinary(r: random.Random, s: dict, name: str, val: str) -> str:
    key, cloud = _dig(r, 15), f"{_org(r)}-{r.choice(['media', 'cdn', 'img'])}"
    return r.choice(
        [
            f"CLOUDINARY_URL=cloudinary://{key}:{val}@{cloud}",
            f'cloudinary.config(cloud_name="{cloud}", api_key="{key}", api_secret="{val}")',
            f"cloudinary.config({{ cloud_name: '{cloud}', api_key: '{key}', api_secret: '{val}' }});",
        ]
    )


def x_heroku(r: random.Random, s: dict, name: str, val: str) -> str:
    u = f"{_user(r)}@{_org(r)}.com"
    return r.choice(
        [
            f"machine api.heroku.com\n  login {u}\n  password {val}\nmachine git.heroku.com\n  login {u}\n  password {val}",
            f"$ heroku auth:token\n ›   Warning: token will expire {_date(r)}\n {val}",
            f"- uses: akhileshns/heroku-deploy@v3.13.15\n  with:\n    heroku_api_key: {val}\n    heroku_app_name: {_org(r)}-{_svc(r)}\n    heroku_email: {u}",
            f"export HEROKU_API_KEY={val}",
            f"HEROKU_API_KEY={val} heroku apps --team {_org(r)}",
            f"curl -n https://api.heroku.com/apps -H 'Accept: application/vnd.heroku+json; version=3' -H 'Authorization: Bearer {val}'",
        ]
    )


def x_facebook(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"https://graph.facebook.com/v19.0/me/accounts?access_token={val}",
            f'FacebookAdsApi.init(access_token="{val}")',
            f'curl -G -d "access_token={val}" https://graph.facebook.com/v19.0/{_dig(r, 15)}/insights',
        ]
    )


def x_eth(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'networks: {{\n  sepolia: {{ url: process.env.RPC_URL, accounts: ["{val}"] }},\n}},',
            f'cast send --rpc-url $RPC_URL --private-key {val} {"0x" + _hex(r, 40)} "mint(uint256)" 1',
            f"PRIVATE_KEY={val}",
            f"forge script script/Deploy.s.sol --broadcast --private-key {val}",
            f'account = Account.from_key("{val}")',
        ]
    )


def x_wireguard(r: random.Random, s: dict, name: str, val: str) -> str:
    pub = _b64(r, 32)
    return r.choice(
        [
            f"[Interface]\nAddress = 10.{r.randint(0, 9)}.0.{r.randint(2, 254)}/24\nListenPort = 51820\nPrivateKey = {val}\n\n[Peer]\nPublicKey = {pub}\nAllowedIPs = 10.{r.randint(0, 9)}.0.0/24\nEndpoint = {_ip(r)}:51820",
            f"$ wg genkey | tee privatekey | wg pubkey > publickey\n$ cat privatekey\n{val}",
            f"wg set wg0 private-key <(echo {val})",
        ]
    )


def x_secret_gen(r: random.Random, s: dict, name: str, val: str) -> str:
    gen = s.get("gen", "openssl rand -hex 32")
    return r.choice(
        [
            f"$ {gen}\n{val}\n(using this as {name} on {_env(r)})",
            f"{name} for {_env(r)} generated with `{gen}`: {val}",
        ]
    )


def x_flask(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'app.config["SECRET_KEY"] = "{val}"',
            f"const token = jwt.sign({{ sub: user.id }}, '{val}', {{ expiresIn: '1h' }});",
            f'token = jwt.encode(payload, "{val}", algorithm="HS256")',
            f'var key = Encoding.UTF8.GetBytes("{val}");',
            f'hmac.new(b"{val}", body, hashlib.sha256).hexdigest()',
        ]
    )


def x_fernet(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f'f = Fernet(b"{val}")',
            f"const key = Buffer.from('{val}', 'base64');",
            f'encryption:\n  key: "{val}"\n  algorithm: aes-256-gcm',
        ]
    )


def x_django(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"# settings/{_env(r)}.py\nDEBUG = False\nSECRET_KEY = '{val}'\nALLOWED_HOSTS = ['{_svc(r)}.{_org(r)}.io']",
            f"DJANGO_SECRET_KEY='{val}'",
            f"SECRET_KEY = os.environ.get('DJANGO_SECRET_KEY', '{val}')",
        ]
    )


def x_rails(r: random.Random, s: dict, name: str, val: str) -> str:
    if len(val) == 32:
        return r.choice(
            [
                f"$ cat config/master.key\n{val}",
                f"RAILS_MASTER_KEY={val} bin/rails credentials:show",
                f"config/credentials/{_env(r)}.key: {val}",
            ]
        )
    return r.choice(
        [
            f"$ bin/rails credentials:show\nsecret_key_base: {val}\naws:\n  bucket: {_org(r)}-uploads",
            f"SECRET_KEY_BASE={val}",
            f"$ bin/rails secret\n{val}\n-> pasted into fly secrets for {_env(r)}",
        ]
    )


def x_laravel(r: random.Random, s: dict, name: str, val: str) -> str:
    return r.choice(
        [
            f"APP_NAME={_title(_svc(r))}\nAPP_ENV=production\nAPP_KEY={val}\nAPP_DEBUG=false",
            f"$ php artisan key:generate --show\n{val}",
            f"'key' => env('APP_KEY', '{val}'),",
        ]
    )


def x_wp(r: random.Random, s: dict, name: str, val: str) -> str:
    salt = r.choice(["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY", "AUTH_SALT", "LOGGED_IN_SALT"])
    other = r.choice([n for n in ["SECURE_AUTH_SALT", "NONCE_SALT"] if n != salt])
    return r.choice(
        [
            f"define( '{salt}', '{val}' );\ndefine( '{other}', 'put your unique phrase here' );",
            f"/** wp-config.php on {_env(r)} */\ndefine('DB_NAME', 'wp_{_svc(r)}');\ndefine('{salt}', '{val}');",
            f"WORDPRESS_{salt}='{val}'",
        ]
    )


# ----------------------------------------------------------------------------------------------
# passwords, credential files, base64-wrapped credentials
# ----------------------------------------------------------------------------------------------


def _dbhost(r: random.Random) -> str:
    svc, env = _svc(r), _env(r)
    return r.choice(
        [
            f"{svc}-{env}.cluster-{_rs(r, LOWNUM, 12)}.{r.choice(REGIONS)}.rds.amazonaws.com",
            f"{svc}-{env}.postgres.database.azure.com",
            f"db.{_rs(r, LOWER, 20)}.supabase.co",
            f"ep-{r.choice(WORDS)}-{r.choice(WORDS)}-{_rs(r, LOWNUM, 8)}.{r.choice(['us-east-2', 'eu-central-1'])}.aws.neon.tech",
            f"{svc}-db.{env}.internal",
            _ip(r),
            f"pg-{svc}.{_org(r)}.lan",
        ]
    )


def _dbuser(r: random.Random) -> str:
    return r.choice(["postgres", "admin", "app", "root", "deploy", "svc_" + _svc(r), _user(r), "readonly", "sa"])


def pw_make(r: random.Random) -> str:
    return _password(r)


def p_shell(r: random.Random, s: dict, name: str, pw: str) -> str | None:
    host, u, db, org = _dbhost(r), _dbuser(r), _svc(r), _org(r)
    q = _q(r, pw)
    forms = [
        f"export PGPASSWORD={q}\npsql -h {host} -U {u} -d {db}",
        f"PGPASSWORD={q} pg_dump -h {host} -U {u} {db} > {db}.sql",
        f"mysql -h {host} -u {u} -p{q} {db}",
        f"sshpass -p {q} ssh {u}@{_ip(r)}",
        f"docker run -d --name pg -e POSTGRES_PASSWORD={q} -p 5432:5432 postgres:16",
        f"az login -u {u}@{org.replace('-', '')}.onmicrosoft.com -p {q}",
        f"redis-cli -h {host} -a {q} --no-auth-warning ping",
        f'mongosh "mongodb://{host}:27017" --username {u} --password {q} --authenticationDatabase admin',
        f"htpasswd -b -c .htpasswd {u} {q}",
        f"echo {q} | docker login registry.{org}.com -u {u} --password-stdin",
        f'psql "host={host} port=5432 user={u} password={pw} dbname={db} sslmode=require"',
        f'ansible-playbook site.yml -i inventory/{_env(r)} --extra-vars "ansible_become_pass={pw}"',
        f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{q}",
        f"export DB_PASSWORD={q}",
        f"kubectl create secret generic {db}-db --from-literal=username={u} --from-literal=password={q}",
        f"heroku config:set DB_PASSWORD={q} -a {org}-{db}",
        f"fly secrets set POSTGRES_PASSWORD={q}",
        f'ldapsearch -x -H ldaps://ldap.{org}.com -D "cn={u},ou=svc,dc={org.split("-")[0]},dc=com" -w {q} "(uid=*)"',
        f"curl -u '{u}:{pw}' https://jenkins.{org}.com/api/json",
        f"smbclient //fs01/{db} -U '{u}%{pw}'",
    ]
    if all(c in ALNUM + "-_.+~@" for c in pw):
        forms += [
            f'C:\\> setx DB_PASSWORD "{pw}"',
            f"PS> $env:SQLCMDPASSWORD = '{pw}'; sqlcmd -S {host} -U {u}",
            f"net use Z: \\\\fs01\\{db} /user:CORP\\{u} {pw}",
        ]
    out = r.choice(forms)
    k = r.random()
    if k < 0.2:
        out = "\n".join(f"  {r.randint(100, 1999) + i}  {ln}" for i, ln in enumerate(out.split("\n")))
    elif k < 0.35:
        out = "$ " + out
    elif k < 0.5:
        out = r.choice(["from shell history, this is how I got in:\n", "works (finally):\n", "note: "]) + out
    return out


def _enc_pw(r: random.Random) -> str:
    pw = _password(r, url_safe=True)
    if r.random() < 0.2:
        i = r.randrange(1, len(pw))
        pw = pw[:i] + r.choice(["%40", "%23", "%21", "%24"]) + pw[i:]
    return pw


def p_url(r: random.Random, s: dict, name: str, pw: str) -> str | None:
    host, u, db, org = _dbhost(r), _dbuser(r), _svc(r), _org(r)
    sql = ("DATABASE_URL", "DB_URL", "SQLALCHEMY_DATABASE_URI")
    url, names = r.choice(
        [
            (f"postgresql://{u}:{pw}@{host}:5432/{db}?sslmode=require", sql),
            (f"postgres://{u}:{pw}@{host}/{db}", sql),
            (f"mysql://{u}:{pw}@{host}:3306/{db}", sql),
            (
                f"mongodb+srv://{u}:{pw}@cluster0.{_rs(r, LOWNUM, 5)}.mongodb.net/{db}?retryWrites=true&w=majority",
                ("MONGO_URI", "MONGODB_URI"),
            ),
            (
                f"redis://default:{pw}@{r.choice(WORDS)}-{r.choice(WORDS)}-{_dig(r, 5)}.upstash.io:6379",
                ("REDIS_URL", "KV_URL"),
            ),
            (f"rediss://:{pw}@{host}:6380/0", ("REDIS_URL", "CACHE_URL")),
            (
                f"amqps://{u}:{pw}@{r.choice(WORDS)}.rmq.cloudamqp.com/{db}",
                ("BROKER_URL", "CELERY_BROKER_URL", "AMQP_URL"),
            ),
            (f"https://{u}:{pw}@nexus.{org}.com/repository/pypi-internal/simple", ("PIP_INDEX_URL", "UV_INDEX_URL")),
            (f"ftp://{u}:{pw}@ftp.{org}.com/outgoing/", ("FTP_URL",)),
            (f"smtp://{u}%40{org}.com:{pw}@smtp.office365.com:587", ("EMAIL_URL", "SMTP_URL")),
            (
                f"mssql+pyodbc://{u}:{pw}@{host}:1433/{db}?driver=ODBC+Driver+18+for+SQL+Server",
                ("SQLALCHEMY_DATABASE_URI", "DATABASE_URL"),
            ),
            (f"https://{u}:{pw}@git.{org}.com/{_repo(r)}.git", ("GIT_REMOTE", "REPO_URL")),
            (f"clickhouse://{u}:{pw}@{host}:9000/{db}", ("CLICKHOUSE_URL",)),
            (
                f"jdbc:postgresql://{host}:5432/{db}?user={u}&password={pw}&ssl=true",
                ("JDBC_URL", "SPRING_DATASOURCE_URL"),
            ),
        ]
    )
    nm = r.choice(names)
    forms = [
        f"{nm}={url}",
        f"export {nm}='{url}'",
        f"docker run --rm -e {nm}='{url}' {r.choice(IMAGES)}",
        f"remember: {_env(r)} {db} is {url}",
        f"[{r.randint(8, 18)}:{r.randint(10, 59)}] {_user(r)}: try `{url}`",
        f'stringData:\n  {nm.lower().replace("_", "-")}: "{url}"',
        f"{_iso(r)} INFO  {db}.startup: using {nm}={url}",
        f"备注：{_env(r)} 的连接串是 {url}",
        f"Poznámka: připojovací řetězec pro {_env(r)} je {url}",
        f"Bağlantı ({_env(r)}): {url}",
        f"Ricorda: {nm} su {_env(r)} = {url}",
    ]
    if url.startswith(("postgres", "mysql", "mssql")):
        forms += [
            f'engine = create_engine("{url}")',
            f"const pool = new Pool({{ connectionString: '{url}' }});",
            f"sqlalchemy.url = {url}",
            f"psql '{url}'" if url.startswith("postgres") else f"mysqlsh '{url}'",
            f"Error: connect ETIMEDOUT {_ip(r)}:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)\n[db] connection string: {url}",
        ]
    elif url.startswith("mongodb"):
        forms += [
            f'mongosh "{url}"',
            f"MongoServerSelectionError: connection timed out\n    at Timeout._onTimeout\n  uri: '{url}'",
        ]
    elif url.startswith("redis"):
        forms += [f"redis-cli -u {url} ping", f'r = redis.from_url("{url}")']
    elif url.startswith("amqp"):
        forms += [f"[{_iso(r)}: INFO/MainProcess] Connected to {url}", f"app = Celery('{db}', broker='{url}')"]
    elif "nexus" in url:
        forms += [f"pip install -r requirements.txt --index-url {url}", f"[global]\nindex-url = {url}"]
    elif ".git" in url:
        forms += [f"git clone {url}", f"git remote set-url origin {url}"]
    elif url.startswith("jdbc"):
        forms += [
            f"spring.datasource.url={url}",
            f"Caused by: org.postgresql.util.PSQLException: Connection to {host}:5432 refused.\n  url={url}",
        ]
    return r.choice(forms)


def p_config(r: random.Random, s: dict, name: str, pw: str) -> str | None:
    host, u, db = _dbhost(r), _dbuser(r), _svc(r)
    xml_ok = not any(c in pw for c in XML_BAD)
    forms = [
        f'database:\n  host: {host}\n  port: 5432\n  username: {u}\n  password: "{pw}"\n  name: {db}',
        json.dumps({"db": {"host": host, "user": u, "password": pw, "database": db}}, indent=2),
        f"spring.datasource.url=jdbc:postgresql://{host}:5432/{db}\nspring.datasource.username={u}\nspring.datasource.password={pw}",
        f'db_username = "{u}"\ndb_password = "{pw}"\ndb_instance_class = "db.t4g.medium"',
        f'[database]\nhost = "{host}"\nuser = "{u}"\npassword = "{pw}"',
        f"'mysql' => [\n    'host' => '{host}',\n    'username' => '{u}',\n    'password' => '{pw}',\n],",
        f"DATABASES = {{\n    'default': {{\n        'ENGINE': 'django.db.backends.postgresql',\n        'NAME': '{db}',\n        'USER': '{u}',\n        'PASSWORD': '{pw}',\n        'HOST': '{host}',\n    }}\n}}",
        f'ansible_user: {u}\nansible_password: "{pw}"\nansible_become: true',
        f'resource "aws_db_instance" "{db}" {{\n  engine   = "postgres"\n  username = "{u}"\n  password = "{pw}"\n}}',
        f'    environment:\n      MYSQL_ROOT_PASSWORD: "{pw}"\n      MYSQL_DATABASE: {db}',
        f'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="{u}" password="{pw}";',
        f"default_user = {u}\ndefault_pass = {pw}",
        f"requirepass {pw}",
        f'"{u}" "{pw}"',
        json.dumps(
            {
                "mode": "managed",
                "type": "azurerm_mssql_server",
                "instances": [{"attributes": {"administrator_login": u, "administrator_login_password": pw}}],
            },
            indent=2,
        ),
        f'  grafana:\n    adminUser: admin\n    adminPassword: "{pw}"',
    ]
    if ";" not in pw:
        forms.append(
            f'"ConnectionStrings": {{\n  "Default": "Server=tcp:{db}-{_env(r)}.database.windows.net,1433;Initial Catalog={db};User ID={u};Password={pw};Encrypt=True;"\n}}'
        )
    if xml_ok:
        forms.append(
            f"<dataSource>\n  <url>jdbc:mysql://{host}:3306/{db}</url>\n  <username>{u}</username>\n  <password>{pw}</password>\n</dataSource>"
        )
    text = r.choice(forms)
    return text if pw in text else None


PROSE_PW = [
    "the {env} DB wants `{pw}` for user {u}",
    "remember: admin password for {host} is {pw}",
    "Grafana admin login on {env}: admin / {pw}",
    "office wifi password: {pw}",
    "lesson: the {svc} deploy user is {u} and its password is {pw}, not the SSO one",
    "The password for the {env} RabbitMQ UI is {pw} (user {u}).",
    "La password del DB di {env} è {pw}",
    "Utente: {u} — password: {pw}",
    "Lösenordet till {env}-databasen är {pw}",
    "Användare {u}, lösenord: {pw}",
    "{env} veritabanı şifresi: {pw}",
    "Kullanıcı adı {u}, parola {pw}",
    "{env} DB 비밀번호는 {pw} 입니다",
    "계정: {u} / 비번: {pw}",
    "{env} 数据库密码：{pw}",
    "账号 {u} 密码 {pw}",
    "Пароль от {env} базы: {pw}",
    "логин {u}, пароль {pw}",
    "Heslo k {env} databázi je {pw}",
    "uživatel {u}, heslo {pw}",
    "Subject: {env} VPN\n\nHi,\nyour VPN account is {u}, temporary password {pw} -- change it on first login.\n\nIT",
    "[{hh}:42] {u}: what's the jenkins password again?\n[{hh}:43] ops-bot: {pw}",
]


def p_prose(r: random.Random, s: dict, name: str, pw: str) -> str | None:
    tpl = r.choice(PROSE_PW)
    return tpl.format(env=_env(r), pw=pw, u=_dbuser(r), host=_dbhost(r), svc=_svc(r), hh=r.randint(8, 18))


def p_passphrase(r: random.Random, s: dict, name: str, pp: str) -> str | None:
    forms = [
        f"KeePass master password for the team vault: {pp}",
        f"passphrase for the deploy key (id_ed25519_deploy): {pp}",
        f"GPG passphrase for release signing: {pp}",
        f"ssh-keygen -t ed25519 -N '{pp}' -f ~/.ssh/{_svc(r)}_deploy",
        f"BORG_PASSPHRASE='{pp}' borg create ::{_svc(r)}-{{now}} /srv/data",
        f"export RESTIC_PASSWORD='{pp}'\nrestic -r s3:s3.amazonaws.com/{_org(r)}-backups backup /var/lib/{_svc(r)}",
        f"$ cat .vault_pass\n{pp}",
        f"openssl enc -aes-256-cbc -pbkdf2 -in dump.sql -out dump.sql.enc -pass 'pass:{pp}'",
        f"Bitwarden master password (shared admin account): {pp}",
        f"Passphrase per la chiave di deploy: {pp}",
        f"Lösenfras för backup-nyckeln: {pp}",
        f"Yedekleme anahtarının parolası: {pp}",
        f"백업 키 암호문: {pp}",
        f"备份密钥口令：{pp}",
        f"Парольная фраза для ключа: {pp}",
        f"Heslová fráze k záloze: {pp}",
        f"ANSIBLE_VAULT_PASSWORD='{pp}' ansible-playbook deploy.yml",
        f'the LUKS passphrase for the {_env(r)} backup disk is "{pp}"',
    ]
    return r.choice(forms)


def p_k8s_b64(r: random.Random, s: dict, name: str, pw: str) -> tuple[str, str] | None:
    b = _b64s(pw)
    u = _dbuser(r)
    svc, ns = _svc(r), r.choice(NAMESPACES)
    key = r.choice(["password", "db-password", "POSTGRES_PASSWORD", "admin-password", "redis-password"])
    k = r.randrange(3)
    if k == 0:
        text = f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc}-db\n  namespace: {ns}\ntype: Opaque\ndata:\n  username: {_b64s(u)}\n  {key}: {b}"
    elif k == 1:
        text = f"$ kubectl -n {ns} get secret {svc}-db -o jsonpath='{{.data.{key}}}'\n{b}"
    else:
        text = (
            f"$ kubectl get secret {svc}-db -n {ns} -o yaml\napiVersion: v1\ndata:\n  {key}: {b}\n  username: {_b64s(u)}\nkind: Secret\n"
            f'metadata:\n  creationTimestamp: "{_iso(r)}Z"\n  name: {svc}-db\n  namespace: {ns}\n  resourceVersion: "{_dig(r, 8)}"\n  uid: {_uuid(r)}\ntype: Opaque'
        )
    return text, b


def p_basic(r: random.Random, s: dict, name: str, pw: str) -> tuple[str, str] | None:
    u = r.choice([_dbuser(r), f"{_user(r)}@{_org(r)}.com", "api", "admin"])
    b = _b64s(f"{u}:{pw}")
    host = f"{r.choice(['jenkins', 'nexus', 'registry', 'staging', 'grafana', 'es'])}.{_org(r)}.com"
    k = r.randrange(6)
    if k == 0:
        text = f"> GET /api/json HTTP/1.1\n> Host: {host}\n> Authorization: Basic {b}\n> User-Agent: curl/8.7.1\n>\n< HTTP/1.1 200 OK"
    elif k == 1:
        text = f"GET /_cluster/health HTTP/1.1\nHost: {host}:9200\nAuthorization: Basic {b}\nAccept: */*"
    elif k == 2:
        text = json.dumps({"name": "Authorization", "value": f"Basic {b}"}, indent=2)
    elif k == 3:
        text = f'location / {{\n    proxy_pass http://upstream_{_svc(r)};\n    proxy_set_header Authorization "Basic {b}";\n}}'
    elif k == 4:
        text = f'headers = {{"Authorization": "Basic {b}", "Accept": "application/json"}}'
    else:
        text = f"curl -H 'Authorization: Basic {b}' https://{host}/api/v1/status"
    return text, b


def p_docker_cfg(r: random.Random, s: dict, name: str, pw: str) -> tuple[str, str] | None:
    reg = r.choice(
        [
            "ghcr.io",
            "registry.gitlab.com",
            f"{_org(r)}.azurecr.io",
            "https://index.docker.io/v1/",
            f"registry.{_org(r)}.com",
            f"{_dig(r, 12)}.dkr.ecr.{r.choice(REGIONS)}.amazonaws.com",
        ]
    )
    u = _user(r)
    secret_pw = t_github_pat(r) if reg == "ghcr.io" else pw
    auth = _b64s(f"{u}:{secret_pw}")
    cfg = {"auths": {reg: {"auth": auth}}}
    k = r.randrange(4)
    if k == 0:
        return "$ cat ~/.docker/config.json\n" + json.dumps(cfg, indent=2), auth
    if k == 1:
        blob = _b64s(json.dumps(cfg))
        return (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {blob}",
            blob,
        )
    if k == 2:
        return (
            f"kubectl create secret docker-registry regcred --docker-server={reg} --docker-username={u} --docker-password={_q(r, secret_pw)} --docker-email={u}@{_org(r)}.com",
            secret_pw,
        )
    return json.dumps(
        {"auths": {reg: {"auth": auth, "email": f"{u}@{_org(r)}.com"}}, "credsStore": ""}, indent="\t"
    ), auth


def p_credfile(r: random.Random, s: dict, name: str, pw: str) -> tuple[str, str] | None:
    host, u, db, org = _dbhost(r), _dbuser(r), _svc(r), _org(r)
    k = r.randrange(10)
    if k == 0:
        return f"machine {r.choice(['nexus', 'artifacts', 'git', 'ftp'])}.{org}.com\n  login {u}\n  password {pw}", pw
    if k == 1:
        return f"$ cat ~/.pgpass\n{host}:5432:{db}:{u}:{pw}\nlocalhost:5432:*:postgres:postgres", pw
    if k == 2:
        return f'# ~/.my.cnf\n[client]\nuser={u}\npassword="{pw}"\nhost={host}', pw
    if k == 3:
        return (
            f"[distutils]\nindex-servers =\n    internal\n\n[internal]\nrepository = https://nexus.{org}.com/repository/pypi-internal/\nusername = {u}\npassword = {pw}",
            pw,
        )
    if k == 4 and not any(c in pw for c in XML_BAD):
        return (
            f"<servers>\n  <server>\n    <id>{org}-releases</id>\n    <username>{u}</username>\n    <password>{pw}</password>\n  </server>\n</servers>",
            pw,
        )
    if k == 5:
        return json.dumps({"http-basic": {f"repo.{org}.com": {"username": u, "password": pw}}}, indent=4), pw
    if k == 6:
        upw = _password(r, url_safe=True)
        return (
            f"[global]\nindex-url = https://{u}:{upw}@nexus.{org}.com/repository/pypi/simple\ntrusted-host = nexus.{org}.com",
            upw,
        )
    if k == 7:
        b = _b64s(pw)
        return (
            f"registry=https://nexus.{org}.com/repository/npm-group/\n//nexus.{org}.com/repository/npm-group/:username={u}\n//nexus.{org}.com/repository/npm-group/:_password={b}\n//nexus.{org}.com/repository/npm-group/:email={u}@{org}.com",
            b,
        )
    if k == 8:
        return f"$ cat /etc/samba/.smbcredentials\nusername={u}\npassword={pw}\ndomain=CORP", pw
    upw = _password(r, url_safe=True)
    return f"$ cat ~/.git-credentials\nhttps://{u}:{upw}@git.{org}.com", upw


# ----------------------------------------------------------------------------------------------
# PEM / OpenSSH / PGP private keys, JWTs, cookies
# ----------------------------------------------------------------------------------------------


def c_pem(r: random.Random, s: dict, name: str, pem: str) -> tuple[str, str] | None:
    if "PGP" in pem:
        fname = r.choice(["signing-key.asc", "release-private.asc", "private.gpg.asc"])
    elif "OPENSSH" in pem:
        fname = r.choice(["id_ed25519", "id_rsa", "deploy_key", "id_ed25519_ci"])
    else:
        fname = r.choice(["github-app.pem", f"{_svc(r)}.key", "server.key", "signing.pem", "tls.key", "AuthKey.p8"])
    esc = json.dumps(pem)[1:-1]
    k = r.randrange(12)
    if k == 0:
        where = "~/.ssh/" if "OPENSSH" in pem else r.choice(["./", "~/keys/", "/etc/ssl/private/"])
        return f"$ cat {where}{fname}\n{pem}", pem
    if k == 1:
        return f"deploy key for {_repo(r)} (read-only):\n```\n{pem}\n```", pem
    if k == 2:
        return f'{name}="{pem}"', pem
    if k == 3:
        return (
            f'resource "tls_private_key" "import" {{}}\nvariable "{name.lower()}" {{\n  default = <<EOF\n{pem}\nEOF\n}}',
            pem,
        )
    if k == 4:
        return f'{{\n  "app_id": {_dig(r, 6)},\n  "{name.lower()}": "{esc}"\n}}', esc
    if k == 5:
        return f'{name} = """{pem}"""', pem
    if k == 6:
        return (
            f"Hi {_title(_user(r))},\n\nas requested, the key for the {_env(r)} bastion:\n\n{pem}\n\nPlease delete this mail afterwards.\n{_title(_user(r))}",
            pem,
        )
    if k == 7:
        return f'$ echo "${name}"\n{pem}\n$ ssh-add - <<< "${name}"', pem
    if k == 8:
        return f'stringData:\n  tls.key: "{esc}"', esc
    if k == 9:
        return f"const privateKey = `{pem}`;", pem
    if k == 10:
        return f"{r.choice(['Promemoria', 'Not', 'Poznámka', 'Anteckning'])}: {fname}\n{pem}", pem
    return f"KEY = <<~PEM.strip\n{pem}\nPEM", pem


def c_jwt(r: random.Random, s: dict, name: str, tok: str) -> str | None:
    host = f"api.{_org(r)}.{r.choice(['io', 'com', 'dev'])}"
    forms = [
        f'curl -H "Authorization: Bearer {tok}" https://{host}/v1/me',
        f"> localStorage.getItem('access_token')\n'{tok}'",
        f"GET /v2/orders?limit=20 HTTP/1.1\nHost: {host}\nAuthorization: Bearer {tok}\nAccept: application/json",
        f"Cookie: access_token={tok}; theme=dark; locale=en",
        f"token for the e2e user (valid till Friday): {tok}",
        json.dumps({"key": "jwt", "value": tok, "type": "secret", "enabled": True}, indent=2),
        f"E2E_AUTH_TOKEN={tok}",
        f"wscat -c 'wss://{host}/realtime?token={tok}'",
        f'headers = {{"Authorization": "Bearer {tok}"}}',
        f"{_title(_user(r))}: prova con questo token {tok}",
        f"Токен для стейджа: {tok}",
        f"$ http :8080/api/admin 'Authorization:Bearer {tok}'",
    ]
    return r.choice(forms)


def c_k8s_token(r: random.Random, s: dict, name: str, tok: str) -> str | None:
    cl = f"{_env(r)}-{r.choice(['eks', 'aks', 'gke', 'k3s'])}"
    forms = [
        f"apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://{_ip(r)}:6443\n  name: {cl}\nusers:\n- name: deployer\n  user:\n    token: {tok}\ncontexts:\n- context:\n    cluster: {cl}\n    user: deployer\n  name: {cl}",
        f"$ kubectl create token {_svc(r)}-deployer -n {r.choice(NAMESPACES)} --duration=8760h\n{tok}",
        f"kubectl --server https://{_ip(r)}:6443 --token={tok} --insecure-skip-tls-verify get pods -A",
        f"KUBE_TOKEN={tok}",
        f'curl -k -H "Authorization: Bearer {tok}" https://{_ip(r)}:6443/api/v1/namespaces',
    ]
    return r.choice(forms)


def c_cookie(r: random.Random, s: dict, name: str, val: str) -> tuple[str, str] | None:
    cname, cval = t_session_cookie(r)
    host = f"{r.choice(['app', 'admin', 'staging', 'dashboard'])}.{_org(r)}.com"
    k = r.randrange(7)
    if k == 0:
        text = f"curl -b '{cname}={cval}' https://{host}/admin/export.csv -o export.csv"
    elif k == 1:
        text = f"GET /account HTTP/1.1\nHost: {host}\nCookie: _ga=GA1.2.{_dig(r, 9)}.{_epoch(r)}; {cname}={cval}; theme=dark\nUser-Agent: Mozilla/5.0"
    elif k == 2:
        text = f"HTTP/1.1 302 Found\nLocation: /dashboard\nSet-Cookie: {cname}={cval}; Path=/; HttpOnly; Secure; SameSite=Lax"
    elif k == 3:
        text = json.dumps(
            {
                "cookies": [
                    {"name": cname, "value": cval, "domain": host, "path": "/", "httpOnly": True, "secure": True}
                ]
            },
            indent=2,
        )
    elif k == 4:
        text = f'session.cookies.set("{cname}", "{cval}", domain="{host}")'
    elif k == 5:
        text = f"logged-in cookie for {host} (admin user): {cname}={cval}"
    else:
        text = f"http GET https://{host}/api/me Cookie:'{cname}={cval}'"
    return text, cval


# ----------------------------------------------------------------------------------------------
# the kinds
# ----------------------------------------------------------------------------------------------

B = "Authorization: Bearer {}"
GH_NAMES = ("GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "GH_PAT")
STRIPE_NAMES = ("STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_SK")


def _sp(kind: str, make: Callable[[random.Random], str], names: tuple[str, ...], what: str, **kw: object) -> dict:
    d: dict = {"kind": kind, "make": make, "names": names, "what": what}
    d.update(kw)
    return d


SPECS: list[dict] = [
    _sp(
        "github_pat",
        t_github_pat,
        GH_NAMES,
        "GitHub token",
        host="api.github.com",
        path="/user/repos?per_page=100",
        header="Authorization: token {}",
        extras=[x_git_remote, x_gh_cli],
        tf="github_token",
        prov="github",
    ),
    _sp(
        "github_fine_grained_pat",
        t_github_fine,
        GH_NAMES,
        "GitHub fine-grained PAT",
        host="api.github.com",
        path="/repos/acme/api/actions/runs",
        header=B,
        extras=[x_git_remote, x_gh_cli],
    ),
    _sp(
        "github_app_token",
        t_github_oauth,
        ("GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN"),
        "GitHub token",
        host="api.github.com",
        path="/installation/repositories",
        header=B,
        extras=[x_git_remote, x_gh_cli],
    ),
    _sp(
        "gitlab_pat",
        t_gitlab_pat,
        ("GITLAB_TOKEN", "GL_TOKEN", "CI_PUSH_TOKEN", "DANGER_GITLAB_API_TOKEN"),
        "GitLab token",
        host="gitlab.com",
        path="/api/v4/projects?membership=true",
        header="PRIVATE-TOKEN: {}",
        extras=[x_glab, x_git_remote],
        githost="gitlab.com",
    ),
    _sp(
        "gitlab_runner_token",
        t_gitlab_runner,
        ("RUNNER_TOKEN", "CI_SERVER_TOKEN", "GITLAB_RUNNER_TOKEN"),
        "runner token",
        extras=[x_gl_runner],
    ),
    _sp(
        "atlassian_api_token",
        t_atlassian,
        ("JIRA_API_TOKEN", "ATLASSIAN_API_TOKEN", "CONFLUENCE_TOKEN"),
        "Jira API token",
        extras=[x_atlassian],
    ),
    _sp(
        "npm_token",
        t_npm,
        ("NPM_TOKEN", "NODE_AUTH_TOKEN", "NPM_AUTH_TOKEN"),
        "npm token",
        host="registry.npmjs.org",
        path="/-/whoami",
        header=B,
        extras=[x_npmrc],
    ),
    _sp(
        "pypi_token",
        t_pypi,
        ("PYPI_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN", "POETRY_PYPI_TOKEN_PYPI"),
        "PyPI token",
        extras=[x_pypirc],
    ),
    _sp(
        "rubygems_api_key",
        t_rubygems,
        ("GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"),
        "RubyGems key",
        host="rubygems.org",
        path="/api/v1/gems.json",
        header="Authorization: {}",
        extras=[x_gem],
    ),
    _sp(
        "nuget_api_key",
        t_nuget,
        ("NUGET_API_KEY", "NUGET_KEY"),
        "NuGet key",
        host="www.nuget.org",
        path="/api/v2/package",
        header="X-NuGet-ApiKey: {}",
        extras=[x_nuget],
    ),
    _sp(
        "dockerhub_pat",
        t_dockerhub,
        ("DOCKERHUB_TOKEN", "DOCKER_PASSWORD", "DOCKERHUB_PAT"),
        "Docker Hub token",
        extras=[x_docker_login],
    ),
    _sp(
        "jfrog_reference_token",
        t_jfrog,
        ("JFROG_ACCESS_TOKEN", "ARTIFACTORY_TOKEN", "JF_ACCESS_TOKEN"),
        "Artifactory token",
        extras=[x_jfrog],
    ),
    _sp(
        "aws_secret_access_key",
        t_aws_secret,
        ("AWS_SECRET_ACCESS_KEY",),
        "AWS secret key",
        extras=[x_aws],
        xw=6,
        tf="secret_key",
        prov="aws",
    ),
    _sp("aws_session_token", t_aws_session, ("AWS_SESSION_TOKEN",), "AWS session token", extras=[x_aws_session]),
    _sp(
        "gcp_service_account_key",
        lambda r: "",
        ("GOOGLE_CREDENTIALS",),
        "GCP service account key",
        ctx=(),
        extras=[x_gcp_sa],
    ),
    _sp(
        "google_api_key",
        t_google_api,
        ("GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_MAPS_API_KEY", "YOUTUBE_API_KEY"),
        "Google API key",
        host="generativelanguage.googleapis.com",
        path="/v1beta/models",
        header="X-Goog-Api-Key: {}",
        extras=[x_google_api],
    ),
    _sp(
        "google_oauth_client_secret",
        t_google_oauth_secret,
        ("GOOGLE_CLIENT_SECRET", "GOOGLE_OAUTH_CLIENT_SECRET"),
        "Google OAuth client secret",
        extras=[x_google_oauth],
    ),
    _sp(
        "google_oauth_access_token",
        t_google_access,
        ("GOOGLE_ACCESS_TOKEN", "CLOUDSDK_AUTH_ACCESS_TOKEN"),
        "Google access token",
        host="www.googleapis.com",
        path="/drive/v3/files",
        header=B,
        extras=[x_google_access],
    ),
    _sp(
        "azure_storage_account_key",
        t_azure_storage,
        ("AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY", "ARM_ACCESS_KEY"),
        "storage account key",
        extras=[x_azure_storage],
    ),
    _sp(
        "azure_client_secret",
        t_azure_client_secret,
        ("AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET"),
        "service principal secret",
        extras=[x_azure_sp],
        prov="azurerm",
        tf="client_secret",
    ),
    _sp(
        "azure_devops_pat",
        t_azure_devops,
        ("AZURE_DEVOPS_EXT_PAT", "AZDO_PAT", "ADO_PAT"),
        "Azure DevOps PAT",
        extras=[x_azure_devops],
    ),
    _sp("azure_sas_signature", t_azure_sas_sig, ("AZURE_SAS",), "SAS", ctx=(), extras=[x_azure_sas]),
    _sp(
        "digitalocean_token",
        t_digitalocean,
        ("DIGITALOCEAN_TOKEN", "DO_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN"),
        "DigitalOcean token",
        host="api.digitalocean.com",
        path="/v2/droplets",
        header=B,
        extras=[x_do],
        prov="digitalocean",
        tf="token",
    ),
    _sp(
        "databricks_token",
        t_databricks,
        ("DATABRICKS_TOKEN",),
        "Databricks token",
        host="dbc-4f1a2b3c-9d8e.cloud.databricks.com",
        path="/api/2.0/clusters/list",
        header=B,
        extras=[x_databricks],
    ),
    _sp(
        "stripe_secret_key",
        t_stripe_sk,
        STRIPE_NAMES,
        "Stripe key",
        host="api.stripe.com",
        path="/v1/customers?limit=3",
        header=B,
        extras=[x_stripe],
        cls="Stripe",
    ),
    _sp(
        "stripe_restricted_key",
        t_stripe_rk,
        (*STRIPE_NAMES, "STRIPE_RESTRICTED_KEY"),
        "Stripe restricted key",
        host="api.stripe.com",
        path="/v1/charges?limit=3",
        header=B,
        extras=[x_stripe],
    ),
    _sp(
        "stripe_webhook_secret",
        t_stripe_whsec,
        ("STRIPE_WEBHOOK_SECRET", "STRIPE_ENDPOINT_SECRET"),
        "webhook signing secret",
        extras=[x_whsec],
    ),
    _sp(
        "square_access_token",
        t_square,
        ("SQUARE_ACCESS_TOKEN",),
        "Square token",
        host="connect.squareup.com",
        path="/v2/locations",
        header=B,
        extras=[x_square],
    ),
    _sp(
        "braintree_access_token",
        t_braintree,
        ("BRAINTREE_ACCESS_TOKEN", "PAYPAL_ACCESS_TOKEN"),
        "Braintree token",
        extras=[x_braintree],
    ),
    _sp(
        "shopify_access_token",
        t_shopify,
        ("SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_API_TOKEN", "SHOPIFY_API_SECRET"),
        "Shopify token",
        host="acme-store.myshopify.com",
        path="/admin/api/2024-07/products.json",
        header="X-Shopify-Access-Token: {}",
    ),
    _sp(
        "slack_token",
        t_slack_token,
        ("SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_USER_TOKEN"),
        "Slack bot token",
        host="slack.com",
        path="/api/auth.test",
        header=B,
        extras=[x_slack_token],
    ),
    _sp(
        "slack_webhook_url",
        t_slack_webhook,
        ("SLACK_WEBHOOK_URL", "SLACK_WEBHOOK"),
        "Slack webhook",
        extras=[x_webhook_url],
        ctx=("shell", "docker", "kube", "paas", "dotenv", "yaml", "json", "note", "intl", "chat", "commit", "ci", "tf"),
    ),
    _sp(
        "discord_bot_token",
        t_discord_bot,
        ("DISCORD_TOKEN", "DISCORD_BOT_TOKEN"),
        "Discord bot token",
        host="discord.com",
        path="/api/v10/users/@me",
        header="Authorization: Bot {}",
        extras=[x_discord_bot],
    ),
    _sp(
        "discord_webhook_url",
        t_discord_webhook,
        ("DISCORD_WEBHOOK_URL",),
        "Discord webhook",
        extras=[x_webhook_url],
        ctx=("shell", "docker", "dotenv", "yaml", "json", "note", "intl", "chat", "commit", "ci"),
    ),
    _sp(
        "telegram_bot_token",
        t_telegram,
        ("TELEGRAM_BOT_TOKEN", "TG_TOKEN", "BOT_TOKEN"),
        "Telegram bot token",
        extras=[x_telegram],
    ),
    _sp("twilio_auth_token", t_twilio, ("TWILIO_AUTH_TOKEN",), "Twilio auth token", extras=[x_twilio], xw=5),
    _sp(
        "sendgrid_api_key",
        t_sendgrid,
        ("SENDGRID_API_KEY", "SMTP_PASSWORD"),
        "SendGrid key",
        host="api.sendgrid.com",
        path="/v3/scopes",
        header=B,
        extras=[x_sendgrid],
    ),
    _sp("mailgun_api_key", t_mailgun, ("MAILGUN_API_KEY", "MAILGUN_KEY"), "Mailgun key", extras=[x_mailgun]),
    _sp("mailchimp_api_key", t_mailchimp, ("MAILCHIMP_API_KEY",), "Mailchimp key", extras=[x_mailchimp]),
    _sp(
        "openai_api_key",
        t_openai,
        ("OPENAI_API_KEY",),
        "OpenAI key",
        host="api.openai.com",
        path="/v1/models",
        header=B,
        extras=[x_openai],
        cls="OpenAI",
    ),
    _sp(
        "anthropic_api_key",
        t_anthropic,
        ("ANTHROPIC_API_KEY", "CLAUDE_API_KEY"),
        "Anthropic key",
        host="api.anthropic.com",
        path="/v1/models",
        header="x-api-key: {}",
        extras=[x_anthropic],
        cls="Anthropic",
    ),
    _sp(
        "huggingface_token",
        t_hf,
        ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACEHUB_API_TOKEN"),
        "HF token",
        host="huggingface.co",
        path="/api/whoami-v2",
        header=B,
        extras=[x_hf],
    ),
    _sp(
        "groq_api_key",
        t_groq,
        ("GROQ_API_KEY",),
        "Groq key",
        host="api.groq.com",
        path="/openai/v1/models",
        header=B,
        extras=[x_client_kw],
        cls="Groq",
    ),
    _sp(
        "replicate_api_token",
        t_replicate,
        ("REPLICATE_API_TOKEN",),
        "Replicate token",
        host="api.replicate.com",
        path="/v1/account",
        header=B,
        extras=[x_client_kw],
        cls="replicate.Client",
        kw="api_token",
    ),
    _sp(
        "langsmith_api_key",
        t_langsmith,
        ("LANGCHAIN_API_KEY", "LANGSMITH_API_KEY"),
        "LangSmith key",
        host="api.smith.langchain.com",
        path="/api/v1/sessions",
        header="x-api-key: {}",
        extras=[x_client_kw],
    ),
    _sp(
        "sentry_auth_token",
        t_sentry,
        ("SENTRY_AUTH_TOKEN",),
        "Sentry auth token",
        host="sentry.io",
        path="/api/0/organizations/",
        header=B,
        extras=[x_sentry_cli],
    ),
    _sp(
        "datadog_api_key",
        t_datadog,
        ("DD_API_KEY", "DATADOG_API_KEY", "DD_APP_KEY"),
        "Datadog key",
        host="api.datadoghq.com",
        path="/api/v1/validate",
        header="DD-API-KEY: {}",
        extras=[x_datadog],
    ),
    _sp(
        "newrelic_key",
        t_newrelic,
        ("NEW_RELIC_API_KEY", "NEW_RELIC_LICENSE_KEY", "NEW_RELIC_USER_KEY"),
        "New Relic key",
        extras=[x_newrelic],
        name_for=lambda v: (
            ("NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY") if v.startswith(_p("NR", "AK")) else ("NEW_RELIC_LICENSE_KEY",)
        ),
    ),
    _sp(
        "grafana_token",
        t_grafana,
        ("GRAFANA_TOKEN", "GRAFANA_SERVICE_ACCOUNT_TOKEN", "GRAFANA_CLOUD_TOKEN"),
        "Grafana token",
        host="acme.grafana.net",
        path="/api/search?query=latency",
        header=B,
    ),
    _sp(
        "linear_api_key",
        t_linear,
        ("LINEAR_API_KEY",),
        "Linear key",
        host="api.linear.app",
        path="/graphql",
        header="Authorization: {}",
        extras=[x_client_kw],
        cls="LinearClient",
    ),
    _sp(
        "notion_token",
        t_notion,
        ("NOTION_TOKEN", "NOTION_API_KEY"),
        "Notion integration token",
        host="api.notion.com",
        path="/v1/users/me",
        header=B,
        extras=[x_client_kw],
        kw="auth",
    ),
    _sp(
        "figma_token",
        t_figma,
        ("FIGMA_TOKEN", "FIGMA_ACCESS_TOKEN"),
        "Figma token",
        host="api.figma.com",
        path="/v1/me",
        header="X-Figma-Token: {}",
    ),
    _sp(
        "postman_api_key",
        t_postman,
        ("POSTMAN_API_KEY",),
        "Postman key",
        host="api.getpostman.com",
        path="/me",
        header="X-Api-Key: {}",
    ),
    _sp(
        "terraform_cloud_token",
        t_tfc,
        ("TFE_TOKEN", "TF_API_TOKEN", "TF_TOKEN_app_terraform_io"),
        "Terraform Cloud token",
        host="app.terraform.io",
        path="/api/v2/account/details",
        header=B,
        extras=[x_tfc],
    ),
    _sp(
        "vault_token",
        t_vault,
        ("VAULT_TOKEN",),
        "Vault token",
        host="vault.internal:8200",
        path="/v1/secret/data/app",
        header="X-Vault-Token: {}",
        extras=[x_vault],
    ),
    _sp("doppler_token", t_doppler, ("DOPPLER_TOKEN",), "Doppler token", extras=[x_doppler]),
    _sp(
        "pulumi_access_token",
        t_pulumi,
        ("PULUMI_ACCESS_TOKEN",),
        "Pulumi token",
        host="api.pulumi.com",
        path="/api/user",
        header="Authorization: token {}",
    ),
    _sp(
        "supabase_service_key",
        t_supabase_service,
        ("SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SECRET_KEY"),
        "Supabase service role key",
        extras=[x_supabase],
    ),
    _sp(
        "planetscale_credential",
        t_planetscale,
        ("PLANETSCALE_PASSWORD", "DATABASE_PASSWORD"),
        "PlanetScale password",
        extras=[x_planetscale],
    ),
    _sp(
        "mapbox_secret_token",
        t_mapbox_secret,
        ("MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"),
        "Mapbox secret token",
        extras=[x_mapbox],
    ),
    _sp("age_secret_key", t_age, ("SOPS_AGE_KEY",), "age key", extras=[x_age]),
    _sp(
        "okta_api_token",
        t_okta,
        ("OKTA_API_TOKEN", "OKTA_CLIENT_TOKEN"),
        "Okta API token",
        host="acme.okta.com",
        path="/api/v1/users?limit=25",
        header="Authorization: SSWS {}",
        extras=[x_okta],
    ),
    _sp(
        "launchdarkly_key",
        t_launchdarkly,
        ("LAUNCHDARKLY_SDK_KEY", "LD_SDK_KEY", "LD_API_KEY"),
        "LaunchDarkly key",
        extras=[x_launchdarkly],
        name_for=lambda v: (
            ("LAUNCHDARKLY_SDK_KEY", "LD_SDK_KEY")
            if v.startswith("sdk")
            else ("LD_API_KEY", "LAUNCHDARKLY_ACCESS_TOKEN")
        ),
    ),
    _sp(
        "contentful_management_token",
        t_contentful,
        ("CONTENTFUL_MANAGEMENT_TOKEN",),
        "Contentful token",
        host="api.contentful.com",
        path="/spaces",
        header=B,
        extras=[x_contentful],
    ),
    _sp(
        "dropbox_token",
        t_dropbox,
        ("DROPBOX_ACCESS_TOKEN", "DROPBOX_TOKEN"),
        "Dropbox token",
        host="api.dropboxapi.com",
        path="/2/users/get_current_account",
        header=B,
        extras=[x_client_kw],
        cls="dropbox.Dropbox",
        kw="oauth2_access_token",
    ),
    _sp(
        "twitter_bearer_token",
        t_twitter,
        ("TWITTER_BEARER_TOKEN", "X_BEARER_TOKEN"),
        "X bearer token",
        host="api.twitter.com",
        path="/2/tweets/search/recent?query=from%3Aacme",
        header=B,
        extras=[x_twitter],
    ),
    _sp(
        "circleci_token",
        t_circleci,
        ("CIRCLECI_TOKEN", "CIRCLE_TOKEN"),
        "CircleCI token",
        host="circleci.com",
        path="/api/v2/me",
        header="Circle-Token: {}",
        extras=[x_circleci],
    ),
    _sp(
        "buildkite_token",
        t_buildkite,
        ("BUILDKITE_API_TOKEN", "BUILDKITE_TOKEN"),
        "Buildkite token",
        host="api.buildkite.com",
        path="/v2/organizations",
        header=B,
    ),
    _sp("sonarqube_token", t_sonar, ("SONAR_TOKEN",), "Sonar token", extras=[x_sonar]),
    _sp("onepassword_sa_token", t_onepassword, ("OP_SERVICE_ACCOUNT_TOKEN",), "1Password service account token"),
    _sp(
        "tailscale_key",
        t_tailscale,
        ("TS_AUTHKEY", "TAILSCALE_AUTH_KEY", "TAILSCALE_API_KEY"),
        "Tailscale key",
        extras=[x_tailscale],
    ),
    _sp(
        "cloudinary_api_secret",
        t_cloudinary_secret,
        ("CLOUDINARY_API_SECRET",),
        "Cloudinary secret",
        extras=[x_cloudinary],
        xw=5,
    ),
    _sp(
        "heroku_api_key",
        t_heroku,
        ("HEROKU_API_KEY",),
        "Heroku API key",
        extras=[x_heroku],
        xw=6,
        ctx=("shell", "paas", "dotenv", "yaml", "ci", "note", "intl", "chat"),
    ),
    _sp(
        "teams_webhook_url",
        t_teams_webhook,
        ("TEAMS_WEBHOOK_URL",),
        "Teams webhook",
        extras=[x_webhook_url],
        ctx=("shell", "dotenv", "yaml", "json", "note", "chat", "ci"),
    ),
    _sp(
        "facebook_access_token",
        t_facebook,
        ("FB_ACCESS_TOKEN", "META_ACCESS_TOKEN", "WHATSAPP_TOKEN"),
        "Meta access token",
        host="graph.facebook.com",
        path="/v19.0/me",
        header=B,
        extras=[x_facebook],
    ),
    _sp(
        "eth_private_key",
        t_eth_key,
        ("PRIVATE_KEY", "DEPLOYER_PRIVATE_KEY", "WALLET_PRIVATE_KEY"),
        "deployer wallet key",
        extras=[x_eth],
        xw=4,
    ),
    _sp(
        "wireguard_private_key",
        t_wireguard,
        ("WG_PRIVATE_KEY", "WIREGUARD_PRIVATE_KEY"),
        "WireGuard private key",
        extras=[x_wireguard],
        xw=5,
    ),
    _sp(
        "hex_secret_key",
        t_hex_key,
        (
            "SECRET_KEY",
            "JWT_SECRET",
            "SESSION_SECRET",
            "HMAC_SECRET",
            "APP_SECRET",
            "WEBHOOK_SIGNING_SECRET",
            "ENCRYPTION_KEY",
            "INTERNAL_API_KEY",
            "SIGNING_KEY",
        ),
        "signing secret",
        extras=[x_secret_gen, x_flask],
        gen="openssl rand -hex 32",
    ),
    _sp(
        "base64_secret_key",
        t_b64_key,
        (
            "NEXTAUTH_SECRET",
            "AUTH_SECRET",
            "ENCRYPTION_KEY",
            "FERNET_KEY",
            "MASTER_KEY",
            "COOKIE_SECRET",
            "BETTER_AUTH_SECRET",
        ),
        "encryption key",
        extras=[x_secret_gen, x_fernet],
        gen="openssl rand -base64 32",
    ),
    _sp(
        "django_secret_key", t_django, ("DJANGO_SECRET_KEY", "SECRET_KEY"), "Django SECRET_KEY", extras=[x_django], xw=5
    ),
    _sp(
        "rails_secret",
        t_rails,
        ("SECRET_KEY_BASE", "RAILS_MASTER_KEY"),
        "Rails secret",
        extras=[x_rails],
        xw=5,
        ctx=(
            "shell",
            "docker",
            "kube",
            "paas",
            "dotenv",
            "yaml",
            "json",
            "note",
            "intl",
            "chat",
            "commit",
            "ci",
            "crash",
            "code",
        ),
    ),
    _sp(
        "laravel_app_key",
        t_laravel,
        ("APP_KEY",),
        "Laravel APP_KEY",
        extras=[x_laravel],
        xw=5,
        ctx=("shell", "docker", "kube", "paas", "dotenv", "yaml", "note", "intl", "chat", "commit", "ci", "crash"),
    ),
    _sp(
        "wordpress_salt",
        t_wp_salt,
        ("WORDPRESS_AUTH_KEY", "AUTH_KEY"),
        "WordPress auth key",
        extras=[x_wp],
        xw=6,
        ctx=("note", "intl", "chat", "json", "notebook"),
    ),
    # formatless passwords and wrapped credentials
    _sp("password_shell", pw_make, ("DB_PASSWORD",), "password", ctx=(), extras=[p_shell]),
    _sp("password_url", _enc_pw, ("DATABASE_URL",), "password", ctx=(), extras=[p_url]),
    _sp("password_config", pw_make, ("DB_PASSWORD",), "password", ctx=(), extras=[p_config]),
    _sp("password_prose", pw_make, ("PASSWORD",), "password", ctx=(), extras=[p_prose]),
    _sp("passphrase_words", _passphrase, ("PASSPHRASE",), "passphrase", ctx=(), extras=[p_passphrase]),
    _sp("password_k8s_base64", pw_make, ("PASSWORD",), "password", ctx=(), extras=[p_k8s_b64]),
    _sp("basic_auth_header", pw_make, ("PASSWORD",), "basic auth", ctx=(), extras=[p_basic]),
    _sp("docker_registry_auth", pw_make, ("PASSWORD",), "registry auth", ctx=(), extras=[p_docker_cfg]),
    _sp("credential_file_password", pw_make, ("PASSWORD",), "password", ctx=(), extras=[p_credfile]),
    _sp("pem_rsa_private_key", _pem_rsa, ("PRIVATE_KEY", "SSH_PRIVATE_KEY", "TLS_KEY"), "key", ctx=(), extras=[c_pem]),
    _sp(
        "pem_pkcs8_private_key",
        _pem_pkcs8,
        ("PRIVATE_KEY", "GITHUB_APP_PRIVATE_KEY", "JWT_PRIVATE_KEY", "APPLE_PRIVATE_KEY"),
        "key",
        ctx=(),
        extras=[c_pem],
    ),
    _sp("pem_ec_private_key", _pem_ec, ("PRIVATE_KEY", "TLS_KEY", "SIGNING_KEY"), "key", ctx=(), extras=[c_pem]),
    _sp("openssh_private_key", _openssh_private, ("SSH_PRIVATE_KEY", "DEPLOY_KEY"), "key", ctx=(), extras=[c_pem]),
    _sp(
        "pgp_private_key",
        lambda r: _pgp_block(r, True),
        ("GPG_PRIVATE_KEY", "SIGNING_KEY"),
        "key",
        ctx=(),
        extras=[c_pem],
    ),
    _sp("jwt_session_token", t_jwt_session, ("ACCESS_TOKEN",), "session token", ctx=(), extras=[c_jwt]),
    _sp("k8s_sa_token", t_k8s_sa, ("KUBE_TOKEN",), "service account token", ctx=(), extras=[c_k8s_token]),
    _sp("session_cookie", lambda r: "", ("COOKIE",), "session cookie", ctx=(), extras=[c_cookie]),
]

PER_KIND = 30


def _pool(s: dict) -> list[Ctx]:
    names = s.get("ctx")
    if names is None:
        names = tuple(GENERIC)
    names = [n for n in names if n != "http" or s.get("header")]
    return [GENERIC[n] for n in names] + list(s.get("extras", [])) * int(s.get("xw", 3))


def _positives(r: random.Random) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for s in SPECS:
        pool = _pool(s)
        r.shuffle(pool)
        got: set[str] = set()
        i = tries = 0
        while len(got) < PER_KIND and tries < PER_KIND * 30:
            tries += 1
            ctx = pool[i % len(pool)]
            i += 1
            val = s["make"](r)
            name = r.choice(s["name_for"](val) if "name_for" in s else s["names"])
            res = ctx(r, s, name, val)
            if res is None:
                continue
            text, secret = res if isinstance(res, tuple) else (res, val)
            if not secret or secret not in text or text in got:
                continue
            got.add(text)
            out.append((text, s["kind"], secret))
    return out


# ----------------------------------------------------------------------------------------------
# look-alikes: same places and styles, no credential
# ----------------------------------------------------------------------------------------------

SECRET_NAMES = [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GITHUB_TOKEN",
    "NPM_TOKEN",
    "STRIPE_SECRET_KEY",
    "DATABASE_URL",
    "AWS_SECRET_ACCESS_KEY",
    "SLACK_BOT_TOKEN",
    "SENTRY_AUTH_TOKEN",
    "DD_API_KEY",
    "HF_TOKEN",
    "DB_PASSWORD",
    "TWILIO_AUTH_TOKEN",
    "SENDGRID_API_KEY",
    "JWT_SECRET",
    "NEXTAUTH_SECRET",
    "VAULT_TOKEN",
    "PYPI_TOKEN",
    "AZURE_CLIENT_SECRET",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "REDIS_PASSWORD",
    "SECRET_KEY_BASE",
    "GROQ_API_KEY",
]
PLACEHOLDERS = [
    "<your-token>",
    "<YOUR_API_KEY>",
    "your_api_key_here",
    "REPLACE_ME",
    "changeme",
    "xxxxxxxxxxxxxxxx",
    "<paste-here>",
    "TODO",
    "dummy",
    "***",
    "<redacted>",
    "[REDACTED]",
    "sk-...",
    "your-secret-here",
    "INSERT_KEY_HERE",
    "<secret>",
    "...",
    "placeholder",
    "<password>",
    "{{ api_key }}",
    "%API_KEY%",
]


def _sn(r: random.Random) -> str:
    return r.choice(SECRET_NAMES)


def la_placeholder_shell(r: random.Random) -> str:
    n, p = _sn(r), r.choice(PLACEHOLDERS)
    return r.choice(
        [f"export {n}={p}", f'export {n}="{p}"', f"$env:{n} = '{p}'", f'setx {n} "{p}"', f"set -gx {n} '{p}'"]
    ) + r.choice(["", f"  # get it from {_user(r)}", "\n" + r.choice(CMDS)])


def la_var_ref_shell(r: random.Random) -> str:
    n = _sn(r)
    return r.choice(
        [
            f"docker run --rm -e {n} -e LOG_LEVEL=debug {r.choice(IMAGES)}",
            f'docker run -e {n}="${n}" {r.choice(IMAGES)}',
            f'export {n}="${{{n}_{_env(r).upper().replace("-", "_")}}}"',
            f"{n}=${{{n}:?must be set}} {r.choice(CMDS)}",
            f'fly secrets set {n}="${n}" --app {_org(r)}-{_svc(r)}',
            f'heroku config:set {n}="${{{n}}}" -a {_org(r)}-{_svc(r)}',
            f'kubectl create secret generic {_svc(r)} --from-literal={n.lower()}="${n}"',
        ]
    )


def la_gha_secrets(r: random.Random) -> str:
    n1, n2 = r.sample(SECRET_NAMES, 2)
    return f"    env:\n      {n1}: ${{{{ secrets.{n1} }}}}\n      {n2}: ${{{{ secrets.{n2}_{_env(r).upper().replace('-', '_')} }}}}\n    steps:\n      - run: {r.choice(CMDS)}"


def la_cmd_subst(r: random.Random) -> str:
    n, svc, env = _sn(r), _svc(r), _env(r)
    src = r.choice(
        [
            f"$(cat /run/secrets/{n.lower()})",
            f"$(vault kv get -field=value secret/{env}/{svc}/{n.lower()})",
            f"$(aws secretsmanager get-secret-value --secret-id {env}/{svc} --query SecretString --output text)",
            f'$(op read "op://{_title(env)}/{svc}/credential")',
            f"$(gcloud secrets versions access latest --secret={svc}-{n.lower().replace('_', '-')})",
            f"$(az keyvault secret show --vault-name kv-{svc}-{env} --name {n.lower().replace('_', '-')} --query value -o tsv)",
            f"$(pass show {env}/{svc})",
            f"$(security find-generic-password -s {svc} -w)",
        ]
    )
    return f"export {n}={src}" if r.random() < 0.6 else f'{n}="{src}" {r.choice(CMDS)}'


def la_docs_changeme(r: random.Random) -> str:
    svc = _svc(r)
    return r.choice(
        [
            f"## Quick start\n\n```bash\ncp .env.example .env\n# edit .env and set POSTGRES_PASSWORD (default: changeme -- change it!)\ndocker compose up -d {svc}\n```",
            f"Default credentials for the local {svc} container are `admin` / `admin`; the entrypoint refuses to start with these when APP_ENV=production.",
            f"| Variable | Default | Description |\n|---|---|---|\n| `{_sn(r)}` | _(none)_ | required in production |\n| `LOG_LEVEL` | `info` | |",
            f"Set `password: <choose-a-strong-password>` in values.yaml before `helm install {svc}`.",
        ]
    )


def la_masked_dashboard(r: random.Random) -> str:
    last4 = _rs(r, ALNUM, 4)
    return r.choice(
        [
            f"{_title(_svc(r))} key (created {_date(r)}): sk-...{last4}",
            f"API keys\n  Name: {_svc(r)}-{_env(r)}   Key: ••••••••••••{last4}   Last used: {r.randint(2, 59)} minutes ago",
            f"Secret key: {_p('sk', '_live_')}••••••••••••••••{last4}  (Reveal)",
            f"token {_p('gh', 'p_')}************************************ expires in {r.randint(2, 90)} days",
            f"Using access key ****************{_rs(r, UPNUM, 4)} from profile {_env(r)}",
            f"API Key: {_rs(r, HEX, 4)}...{_rs(r, HEX, 4)} (masked)",
        ]
    )


def la_ci_masked(r: random.Random) -> str:
    ts = _iso(r)
    lines = [
        f"##[group]Run {r.choice(CMDS)}",
        "env:",
        f"  {_sn(r)}: ***",
        f"  {_sn(r)}: ***",
        "  NODE_VERSION: 20",
        "##[endgroup]",
        f"Authenticated as *** on {_env(r)}",
    ]
    return _gha_lines(r, ts, lines)


def la_gitlab_masked(r: random.Random) -> str:
    n = _sn(r)
    return f'$ echo "deploying with ${n}"\ndeploying with [MASKED]\n$ curl -sf -H "Authorization: Bearer ${n}" https://api.{_org(r)}.io/deploy\nJob succeeded'


def la_gh_auth_status(r: random.Random) -> str:
    u = _user(r)
    return f"$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account {u} (keyring)\n  - Active account: true\n  - Git operations protocol: https\n  - Token: {_p('gh', 'o_')}************************************\n  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'"


def la_aws_configure_list(r: random.Random) -> str:
    return (
        f"$ aws configure list --profile {_env(r)}\n      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n"
        f"   profile                {_env(r):<16} manual    --profile\naccess_key     ****************{_rs(r, B32U, 4)} shared-credentials-file\n"
        f"secret_key     ****************{_rs(r, ALNUM, 4)} shared-credentials-file\n    region                {r.choice(REGIONS)}      config-file    ~/.aws/config"
    )


def la_commit_sha(r: random.Random) -> str:
    sha = _hex(r, 40)
    return r.choice(
        [
            f"fixed in {sha} (cherry-picked to release/{r.randint(1, 5)}.{r.randint(0, 20)})",
            f"lesson: bisect points at {sha[:12]}; reverting that commit fixed the {_svc(r)} timeout",
            f"Reverts commit {sha}.",
            f"deployed {_svc(r)}@{sha} to {_env(r)} at {_clock(r)}",
        ]
    )


def la_git_log(r: random.Random) -> str:
    return "\n".join(
        f"{_hex(r, 7)} {r.choice(['fix', 'feat', 'chore', 'refactor'])}({_svc(r)}): {r.choice(['handle empty token header', 'rotate keys via vault', 'bump deps', 'add retry to secret fetch', 'drop legacy auth'])}"
        for _ in range(r.randint(3, 6))
    )


def la_sha256sums(r: random.Random) -> str:
    v = f"{r.randint(0, 3)}.{r.randint(0, 30)}.{r.randint(0, 9)}"
    return "\n".join(
        f"{_hex(r, 64)}  {_svc(r)}-{v}-{os}.tar.gz"
        for os in r.sample(["linux-amd64", "linux-arm64", "darwin-arm64", "darwin-amd64", "windows-amd64"], 3)
    )


def la_docker_digest(r: random.Random) -> str:
    img = r.choice(IMAGES).split(":")[0]
    d = _hex(r, 64)
    return r.choice(
        [
            f"{r.choice(['latest', '1.2', 'stable'])}: Pulling from {img}\nDigest: sha256:{d}\nStatus: Downloaded newer image for {img}",
            f"image: {img}@sha256:{d}",
            f"FROM {img}@sha256:{d} AS build",
        ]
    )


def la_npm_integrity(r: random.Random) -> str:
    pkg = r.choice(["lodash", "react-dom", "esbuild", "zod", "undici", "semver", "ws", "axios"])
    v = f"{r.randint(0, 18)}.{r.randint(0, 20)}.{r.randint(0, 9)}"
    return f'    "node_modules/{pkg}": {{\n      "version": "{v}",\n      "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg}-{v}.tgz",\n      "integrity": "sha512-{_b64(r, 64)}",\n      "license": "MIT"\n    }},'


def la_go_sum(r: random.Random) -> str:
    mods = [
        "github.com/spf13/cobra",
        "golang.org/x/crypto",
        "github.com/google/uuid",
        "go.uber.org/zap",
        "github.com/jackc/pgx/v5",
    ]
    out = []
    for m in r.sample(mods, 3):
        v = f"v{r.randint(0, 1)}.{r.randint(0, 30)}.{r.randint(0, 9)}"
        out.append(f"{m} {v} h1:{_b64(r, 32)}")
        out.append(f"{m} {v}/go.mod h1:{_b64(r, 32)}")
    return "\n".join(out)


def la_cargo_lock(r: random.Random) -> str:
    crate = r.choice(["serde", "tokio", "rand", "hyper", "anyhow", "regex"])
    return f'[[package]]\nname = "{crate}"\nversion = "{r.randint(0, 1)}.{r.randint(0, 40)}.{r.randint(0, 9)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{_hex(r, 64)}"'


def la_pip_hashes(r: random.Random) -> str:
    pkg = r.choice(["requests", "urllib3", "cryptography", "pydantic", "numpy"])
    return f"{pkg}=={r.randint(1, 3)}.{r.randint(0, 30)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_hex(r, 64)} \\\n    --hash=sha256:{_hex(r, 64)}"


def la_uuid_log(r: random.Random) -> str:
    return "\n".join(
        f"{_iso(r)}Z INFO {_svc(r)} request_id={_uuid(r)} status={r.choice([200, 201, 204, 401, 404])} dur={r.randint(2, 900)}ms"
        for _ in range(r.randint(2, 4))
    )


def la_traceparent(r: random.Random) -> str:
    tid, sid = _hex(r, 32), _hex(r, 16)
    return r.choice(
        [
            f"traceparent: 00-{tid}-{sid}-01",
            f"trace_id={tid} span_id={sid} service.name={_svc(r)}",
            f'{{"traceId": "{tid}", "spanId": "{sid}", "name": "GET /health"}}',
        ]
    )


def la_aws_request_ids(r: random.Random) -> str:
    return f"< HTTP/1.1 403 Forbidden\n< x-amz-request-id: {_rs(r, UPNUM, 16)}\n< x-amz-id-2: {_b64(r, 57)}\n< Content-Type: application/xml\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"


def la_ssh_pubkey(r: random.Random) -> str:
    return r.choice(
        [
            "# ~/.ssh/authorized_keys\n",
            "public key to add to the bastion:\n",
            "",
            "deploy key (public half) for the repo settings page:\n",
        ]
    ) + "\n".join(_ssh_pubkey_line(r) for _ in range(r.randint(1, 2)))


def la_pem_cert(r: random.Random) -> str:
    return r.choice(
        ["ca.crt:\n", "$ openssl s_client -connect api.example.net:443 -showcerts\n", "", "fullchain.pem (public):\n"]
    ) + _cert_pem(r)


def la_pem_pubkey(r: random.Random) -> str:
    return r.choice(
        ["JWT verification key:\n", "$ openssl rsa -in key.pem -pubout\n", "", "public.pem\n"]
    ) + _pubkey_pem(r)


def la_known_hosts(r: random.Random) -> str:
    return "\n".join(
        f"{r.choice(['github.com', 'gitlab.com', 'bitbucket.org', _ip(r)])} " + _ssh_pubkey_line(r, "")
        for _ in range(2)
    )


def la_stripe_publishable(r: random.Random) -> str:
    pk = _p("pk", "_live_", "51") + _rs(r, ALNUM, 97)
    return r.choice(
        [
            f"const stripe = await loadStripe('{pk}');",
            f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={pk}",
            f'<script>window.STRIPE_PK = "{pk}";</script>',
        ]
    )


def la_supabase_anon(r: random.Random) -> str:
    ref = _rs(r, LOWER, 20)
    if r.random() < 0.6:
        iat = _epoch(r)
        key = _jwt(r, {"iss": "supabase", "ref": ref, "role": "anon", "iat": iat, "exp": iat + 315_360_000})
    else:
        key = _p("sb", "_publishable_") + _rs(r, B64URL, 31)
    return r.choice(
        [
            f"// public anon key, safe in the browser (RLS on)\nconst supabase = createClient('https://{ref}.supabase.co', '{key}')",
            f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={key}",
        ]
    )


def la_mapbox_public(r: random.Random) -> str:
    body = _b64u(json.dumps({"u": _user(r), "a": "cl" + _rs(r, LOWNUM, 23)}, separators=(",", ":")).encode())
    tok = _p("p", "k.") + body + "." + _rs(r, B64URL, 22)
    return r.choice([f"mapboxgl.accessToken = '{tok}';", f'<meta name="mapbox-token" content="{tok}">'])


def la_google_client_id(r: random.Random) -> str:
    cid = f"{_dig(r, 12)}-{_rs(r, LOWNUM, 32)}.apps.googleusercontent.com"
    return r.choice(
        [
            f'<div id="g_id_onload" data-client_id="{cid}" data-login_uri="https://app.{_org(r)}.io/login"></div>',
            f"GOOGLE_CLIENT_ID={cid}\nGOOGLE_CLIENT_SECRET=  # from Secret Manager",
            f"OAuth client id for the desktop app: {cid}",
        ]
    )


def la_azure_ids(r: random.Random) -> str:
    return r.choice(
        [
            f"az login --identity --username {_uuid(r)}",
            f"az account set --subscription {_uuid(r)}\naz aks get-credentials -g rg-{_svc(r)} -n aks-{_env(r)}",
            f'{{\n  "environmentName": "AzureCloud",\n  "id": "{_uuid(r)}",\n  "isDefault": true,\n  "name": "{_org(r)}-{_env(r)}",\n  "state": "Enabled",\n  "tenantId": "{_uuid(r)}",\n  "user": {{ "name": "{_user(r)}@{_org(r)}.com", "type": "user" }}\n}}',
            f"AZURE_TENANT_ID={_uuid(r)}\nAZURE_CLIENT_ID={_uuid(r)}\n# client secret comes from workload identity, nothing to set",
            f"az login --use-device-code --tenant {_uuid(r)}",
        ]
    )


def la_aws_ids(r: random.Random) -> str:
    acct, reg = _dig(r, 12), r.choice(REGIONS)
    return r.choice(
        [
            f"arn:aws:iam::{acct}:role/{_svc(r)}-deployer",
            f"arn:aws:secretsmanager:{reg}:{acct}:secret:{_env(r)}/{_svc(r)}/db-{_rs(r, ALNUM, 6)}",
            f"instance i-0{_hex(r, 16)} in subnet-0{_hex(r, 16)} (vpc-0{_hex(r, 16)}), sg-0{_hex(r, 16)}",
            f'{{\n    "UserId": "AROA{_rs(r, B32U, 17)}:{_user(r)}",\n    "Account": "{acct}",\n    "Arn": "arn:aws:sts::{acct}:assumed-role/{_svc(r)}/{_user(r)}"\n}}',
            f"AMI ami-0{_hex(r, 16)} ({reg}) built from {_svc(r)} pipeline #{r.randint(100, 9999)}",
        ]
    )


def la_twilio_sid(r: random.Random) -> str:
    return r.choice(
        [
            f"TWILIO_ACCOUNT_SID=AC{_hex(r, 32)}\nTWILIO_AUTH_TOKEN=  # 1Password: Twilio prod",
            f"Messaging service MG{_hex(r, 32)} sends from +1{_dig(r, 10)}",
            f"Call SID CA{_hex(r, 32)} failed with 31005",
        ]
    )


def la_sentry_dsn(r: random.Random) -> str:
    dsn = f"https://{_hex(r, 32)}@o{_dig(r, 6)}.ingest.{r.choice(['', 'de.', 'us.'])}sentry.io/{_dig(r, 7)}"
    return r.choice(
        [
            f'Sentry.init({{\n  dsn: "{dsn}",\n  tracesSampleRate: 0.1,\n}});',
            f"NEXT_PUBLIC_SENTRY_DSN={dsn}",
            f'sentry_sdk.init(dsn="{dsn}", environment="{_env(r)}")',
        ]
    )


def la_algolia_search(r: random.Random) -> str:
    app = _rs(r, UPNUM, 10)
    return f"// search-only key, public by design\nconst searchClient = algoliasearch('{app}', '{_hex(r, 32)}');"


def la_vault_refs(r: random.Random) -> str:
    svc, env = _svc(r), _env(r)
    return r.choice(
        [
            f"$ vault kv get -field=password secret/{env}/{svc}/db\n(value copied to clipboard)",
            f"password: vault:secret/data/{env}/{svc}#password",
            f"DB_PASSWORD=arn:aws:ssm:{r.choice(REGIONS)}:{_dig(r, 12)}:parameter/{env}/{svc}/db_password",
            f"spring.datasource.password=${{vault.{svc}.db.password}}",
            f"api_key: !secret {svc}_api_key",
            f'token = data.vault_generic_secret.{svc}.data["token"]',
        ]
    )


def la_op_refs(r: random.Random) -> str:
    svc = _svc(r)
    return (
        "\n".join(f"{n}=op://{_title(_env(r))}/{svc}/{f}" for n, f in [(_sn(r), "credential"), (_sn(r), "password")])
        + "\n# run with: op run --env-file=.env -- "
        + r.choice(CMDS)
    )


def la_sops(r: random.Random) -> str:
    def enc() -> str:
        return f"ENC[AES256_GCM,data:{_b64(r, r.randint(12, 40))},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"

    return (
        f"db:\n    password: {enc()}\napi_key: {enc()}\nsops:\n    age:\n        - recipient: age1{_rs(r, BECH32, 58)}\n"
        f'    lastmodified: "{_iso(r)}Z"\n    mac: {enc()}\n    version: 3.9.0'
    )


def la_sealed_secret(r: random.Random) -> str:
    svc, ns = _svc(r), r.choice(NAMESPACES)
    return f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {svc}-db\n  namespace: {ns}\nspec:\n  encryptedData:\n    password: Ag{_b64(r, 300)}"


def la_external_secret(r: random.Random) -> str:
    svc = _svc(r)
    return (
        f"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {svc}\nspec:\n  refreshInterval: 1h\n  secretStoreRef:\n    name: aws-secrets-manager\n    kind: ClusterSecretStore\n"
        f"  target:\n    name: {svc}-env\n  data:\n    - secretKey: DB_PASSWORD\n      remoteRef:\n        key: {_env(r)}/{svc}\n        property: db_password"
    )


def la_secretkeyref(r: random.Random) -> str:
    n, svc = _sn(r), _svc(r)
    return f"        env:\n          - name: {n}\n            valueFrom:\n              secretKeyRef:\n                name: {svc}-secrets\n                key: {n.lower().replace('_', '-')}"


def la_tf_refs(r: random.Random) -> str:
    svc = _svc(r)
    return r.choice(
        [
            f'resource "random_password" "{svc}_db" {{\n  length  = 32\n  special = true\n}}\n\nresource "aws_db_instance" "{svc}" {{\n  password = random_password.{svc}_db.result\n}}',
            'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
            f'output "api_token" {{\n  value     = {svc}_token.this.value\n  sensitive = true\n}}',
            f'  password = var.db_password\n  username = "{_dbuser(r)}"',
        ]
    )


def la_tf_plan_sensitive(r: random.Random) -> str:
    svc = _svc(r)
    return f'  # aws_db_instance.{svc} will be updated in-place\n  ~ resource "aws_db_instance" "{svc}" {{\n        id       = "{svc}-{_env(r)}"\n      ~ password = (sensitive value)\n        # (42 unchanged attributes hidden)\n    }}\n\nPlan: 0 to add, 1 to change, 0 to destroy.'


def la_env_example(r: random.Random) -> str:
    names = r.sample(SECRET_NAMES, r.randint(3, 5))
    return "# .env.example -- copy to .env and fill in\n" + "\n".join(f"{n}=" for n in names) + "\nLOG_LEVEL=info"


def la_env_read_py(r: random.Random) -> str:
    n = _sn(r)
    return r.choice(
        [
            f'{n.lower()} = os.environ["{n}"]',
            f'api_key = os.getenv("{n}")\nif not api_key:\n    raise RuntimeError("{n} is not set")',
            f'settings.{n.lower()} = env.str("{n}")',
            f'client = OpenAI(api_key=os.environ.get("{n}"))',
        ]
    )


def la_env_read_js(r: random.Random) -> str:
    n = _sn(r)
    return r.choice(
        [
            f"const token = process.env.{n};\nif (!token) throw new Error('{n} missing');",
            f"apiKey: process.env.{n} ?? ''",
            f"const {{ {n} }} = process.env;",
            f"headers: {{ Authorization: `Bearer ${{process.env.{n}}}` }}",
        ]
    )


def la_env_read_compiled(r: random.Random) -> str:
    n = _sn(r)
    return r.choice(
        [
            f'token := os.Getenv("{n}")',
            f'let key = std::env::var("{n}").expect("{n} must be set");',
            f'String secret = System.getenv("{n}");',
            f'var key = Environment.GetEnvironmentVariable("{n}") ?? throw new InvalidOperationException();',
        ]
    )


def la_env_read_script(r: random.Random) -> str:
    n = _sn(r)
    return r.choice(
        [
            f"api_key = ENV.fetch('{n}')",
            f"$key = getenv('{n}');",
            f"'password' => env('{n}'),",
            f"config.api_key = Rails.application.credentials.dig(:{_svc(r)}, :api_key)",
        ]
    )


def la_file_read(r: random.Random) -> str:
    svc = _svc(r)
    return r.choice(
        [
            f'with open("/run/secrets/{svc}_db_password") as f:\n    password = f.read().strip()',
            f"const key = fs.readFileSync('/etc/{svc}/jwt.key', 'utf8');",
            f"gcloud auth activate-service-account --key-file=$HOME/.config/gcloud/{svc}-sa.json",
            f"export GOOGLE_APPLICATION_CREDENTIALS=/secrets/{svc}/key.json",
            f"gh auth login --with-token < ~/.config/{svc}/gh-token",
            f'echo "$CR_PAT" | docker login ghcr.io -u {_user(r)} --password-stdin',
            f"docker login -u {_user(r)} --password-stdin < ~/.docker-hub-token",
            f"kubectl create secret generic {svc}-db --from-file=password=./secrets/db-password.txt",
        ]
    )


PROSE_EN = [
    "Rotate the {svc} database password quarterly; the runbook is in Confluence.",
    "Never commit .env files -- the pre-commit hook runs gitleaks on staged changes.",
    "lesson: when the API says 401 invalid_token, first check the clock skew, then whether the token expired.",
    "decision: all service tokens move to Vault by {date}; no more long-lived PATs in CI.",
    "The {env} password policy requires 14+ characters and no reuse of the last 5 passwords.",
    "If a key leaks, revoke it in the provider console first, then rotate dependents, then scrub history.",
    "Use short-lived OIDC credentials for GitHub Actions instead of storing AWS keys as repo secrets.",
    "{user} asked where the {svc} token lives: it is in the `{env}/{svc}` path in Secrets Manager, ask #platform for access.",
    "Reminder: password123-style defaults are blocked by the new validator.",
    "The API key header is X-Api-Key; tokens are scoped per project and expire after 90 days.",
]
PROSE_INTL = [
    "Ricorda: le password vanno ruotate ogni 90 giorni e mai salvate nel repository.",
    "La chiave API si trova nel vault, percorso {env}/{svc}; chiedi accesso a {user}.",
    "Kom ihåg att rotera lösenordet för {svc} varje kvartal.",
    "Token ligger i Key Vault, fråga {user} om du behöver läsbehörighet.",
    "Şifreler depoya asla commit edilmemeli; anahtarlar Vault'ta tutuluyor.",
    "API anahtarı süresi dolmuş, yenisini yönetim panelinden oluşturmak gerekiyor.",
    "비밀번호는 분기마다 교체하고 저장소에는 절대 커밋하지 마세요.",
    "토큰은 Vault의 {env}/{svc} 경로에 있습니다.",
    "密码每季度轮换一次，密钥统一放在 Vault 里，不要写进代码。",
    "令牌已过期，请在控制台重新生成。",
    "Пароли меняем раз в квартал, ключи храним только в Vault.",
    "Токен истёк — нужно выпустить новый в консоли.",
    "Hesla měníme každé čtvrtletí a nikdy je necommitujeme do repozitáře.",
    "Token je ve Vaultu pod cestou {env}/{svc}, o přístup požádej {user}.",
]


def la_prose_en(r: random.Random) -> str:
    return r.choice(PROSE_EN).format(svc=_svc(r), env=_env(r), date=_date(r), user=_user(r))


def la_prose_intl(r: random.Random) -> str:
    return r.choice(PROSE_INTL).format(svc=_svc(r), env=_env(r), user=_user(r)) + r.choice(
        ["", f" ({_date(r)})", f" — {_user(r)}"]
    )


def la_error_messages(r: random.Random) -> str:
    return r.choice(
        [
            f'HTTP 401: {{"error": "invalid_token", "error_description": "The access token expired"}} (request {_uuid(r)})',
            "gh: Bad credentials (HTTP 401)\nTry authenticating with:  gh auth login",
            "npm ERR! code E401\nnpm ERR! Unable to authenticate, your authentication token seems to be invalid.",
            "botocore.exceptions.ClientError: An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid.",
            "openai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided.', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}",
            f'FATAL:  password authentication failed for user "{_dbuser(r)}"',
            f"Error: No value for required secret {_sn(r)}. Did you forget to run `fly secrets set`?",
            f"remote: Invalid username or password.\nfatal: Authentication failed for 'https://github.com/{_repo(r)}.git/'",
        ]
    )


def la_base64_image(r: random.Random) -> str:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + r.randbytes(r.randint(60, 200))
    return r.choice(
        [
            '<img alt="logo" src="data:image/png;base64,{}">',
            "background-image: url(data:image/png;base64,{});",
            "favicon: data:image/png;base64,{}",
        ]
    ).format(base64.b64encode(png).decode())


def la_base64_json(r: random.Random) -> str:
    readme = f"# {_svc(r)}\n\nInternal service for {_svc(r)}. See docs/ for setup.\n"
    return r.choice(
        [
            json.dumps(
                {
                    "name": "README.md",
                    "path": "README.md",
                    "sha": _hex(r, 40),
                    "size": len(readme),
                    "encoding": "base64",
                    "content": _b64s(readme),
                },
                indent=2,
            ),
            f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {_svc(r)}-flags\nbinaryData:\n  flags.json: {_b64s(json.dumps({'beta': True, 'maxItems': r.randint(5, 500)}))}",
            f"X-Amz-Meta-Info: {_b64s(json.dumps({'uploader': _user(r), 'ts': _epoch(r)}))}",
        ]
    )


def la_csp_nonce(r: random.Random) -> str:
    n = _b64(r, 16)
    return r.choice(
        [
            f"content-security-policy: default-src 'self'; script-src 'self' 'nonce-{n}' 'strict-dynamic'; object-src 'none'",
            f'<script nonce="{n}">window.__INITIAL_STATE__ = {{}};</script>',
        ]
    )


def la_sri(r: random.Random) -> str:
    return f'<script src="https://cdn.jsdelivr.net/npm/{r.choice(["htmx.org@2.0.2", "alpinejs@3.14.1", "chart.js@4.4.3"])}" integrity="sha384-{_b64(r, 48)}" crossorigin="anonymous"></script>'


def la_etag(r: random.Random) -> str:
    return r.choice(
        [
            f'< ETag: "{_hex(r, 32)}"\n< Cache-Control: max-age=3600',
            f'If-None-Match: W/"{_hex(r, 8)}-{_b64(r, 20).rstrip("=")}"',
            f"x-goog-hash: crc32c={_b64(r, 4)}, md5={_b64(r, 16)}",
        ]
    )


def la_git_diff_index(r: random.Random) -> str:
    f = r.choice(["src/auth/token.ts", "app/services/secrets.py", "internal/config/load.go"])
    return f"diff --git a/{f} b/{f}\nindex {_hex(r, 7)}..{_hex(r, 7)} 100644\n--- a/{f}\n+++ b/{f}\n@@ -10,7 +10,7 @@\n-    const timeout = 5000;\n+    const timeout = 10000;\n     const token = await getToken(scope);"


def la_notebook_output(r: random.Random) -> str:
    cell = {
        "cell_type": "code",
        "execution_count": r.randint(1, 50),
        "id": _hex(r, 8),
        "metadata": {},
        "outputs": [
            {
                "data": {
                    "image/png": base64.b64encode(
                        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + r.randbytes(r.randint(80, 200))
                    ).decode(),
                    "text/plain": ["<Figure size 640x480 with 1 Axes>"],
                },
                "metadata": {},
                "output_type": "display_data",
            }
        ],
        "source": ["df.plot(x='date', y='latency_ms')\n", "plt.show()"],
    }
    return json.dumps(cell, indent=1)


def la_har_cookies(r: random.Random) -> str:
    return json.dumps(
        {
            "request": {
                "method": "GET",
                "url": f"https://www.{_org(r)}.com/pricing",
                "cookies": [
                    {"name": "_ga", "value": f"GA1.1.{_dig(r, 9)}.{_epoch(r)}"},
                    {"name": "theme", "value": "dark"},
                    {"name": "cookie_consent", "value": "analytics:0,marketing:0"},
                ],
            }
        },
        indent=2,
    )


def la_http_ids(r: random.Random) -> str:
    return f"< HTTP/2 200\n< date: Tue, 0{r.randint(1, 9)} Jul 2024 {_clock(r)} GMT\n< cf-ray: {_hex(r, 16)}-{r.choice(['FRA', 'ARN', 'IST', 'ICN', 'PRG'])}\n< x-request-id: {_uuid(r)}\n< x-amzn-trace-id: Root=1-{_hex(r, 8)}-{_hex(r, 24)}"


def la_curl_env_header(r: random.Random) -> str:
    n = _sn(r)
    return r.choice(
        [
            f'curl -H "Authorization: Bearer ${n}" https://api.{_org(r)}.io/v1/me',
            f'curl -u "$USER:${n}" https://nexus.{_org(r)}.com/service/rest/v1/status',
            f'http GET api.{_org(r)}.io/v1/me "Authorization:Bearer ${{{n}}}"',
        ]
    )


def la_gcloud_output(r: random.Random) -> str:
    return r.choice(
        [
            f"$ gcloud auth list\n    Credentialed Accounts\nACTIVE  ACCOUNT\n*       {_user(r)}@{_org(r)}.com\n        {_svc(r)}-sa@{_org(r)}-{_env(r)}.iam.gserviceaccount.com",
            f"$ gcloud config list\n[core]\naccount = {_user(r)}@{_org(r)}.com\nproject = {_org(r)}-{_env(r)}-{_dig(r, 6)}\n[compute]\nregion = europe-west1",
        ]
    )


def la_fly_secrets_list(r: random.Random) -> str:
    rows = "\n".join(f"{n:<24}{_hex(r, 16)}\t{r.randint(1, 30)}d ago" for n in r.sample(SECRET_NAMES, 3))
    return f"$ fly secrets list\nNAME                    DIGEST          \tCREATED AT\n{rows}"


def la_kubectl_secret(r: random.Random) -> str:
    svc = _svc(r)
    return r.choice(
        [
            f"$ kubectl get secrets -n {r.choice(NAMESPACES)}\nNAME              TYPE     DATA   AGE\n{svc}-db        Opaque   2      {r.randint(2, 90)}d\n{svc}-tls       kubernetes.io/tls  2  {r.randint(2, 90)}d",
            f"$ kubectl describe secret {svc}-db\nName:         {svc}-db\nNamespace:    {r.choice(NAMESPACES)}\nType:  Opaque\n\nData\n====\npassword:  {r.randint(12, 40)} bytes\nusername:  {r.randint(3, 10)} bytes",
        ]
    )


def la_docker_credstore(r: random.Random) -> str:
    return json.dumps(
        r.choice(
            [
                {"auths": {"ghcr.io": {}, "https://index.docker.io/v1/": {}}, "credsStore": "desktop"},
                {
                    "credHelpers": {
                        f"{_dig(r, 12)}.dkr.ecr.{r.choice(REGIONS)}.amazonaws.com": "ecr-login",
                        "europe-docker.pkg.dev": "gcloud",
                    }
                },
            ]
        ),
        indent=2,
    )


def la_npmrc_envref(r: random.Random) -> str:
    org = _org(r)
    return r.choice(
        [
            f"//registry.npmjs.org/:_authToken=${{NPM_TOKEN}}\n@{org}:registry=https://npm.pkg.github.com",
            f'npmScopes:\n  {org}:\n    npmRegistryServer: "https://npm.pkg.github.com"\n    npmAuthToken: "${{NPM_AUTH_TOKEN:-}}"',
            f"@{org}:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${{GITHUB_TOKEN}}",
        ]
    )


def la_pypirc_keyring(r: random.Random) -> str:
    org = _org(r)
    return r.choice(
        [
            f"[pypi]\nusername = __token__\n# password comes from keyring: keyring set https://upload.pypi.org/legacy/ __token__\n# ({_user(r)}, {_date(r)})",
            f"[distutils]\nindex-servers = pypi {org}\n\n[{org}]\nrepository = https://nexus.{org}.com/repository/pypi-hosted/\nusername = {_user(r)}\n# password via TWINE_PASSWORD in CI",
            "[testpypi]\nrepository = https://test.pypi.org/legacy/\nusername = __token__\npassword = <token from https://test.pypi.org/manage/account/token/>",
        ]
    )


def la_git_credential_helper(r: random.Random) -> str:
    org, u = _org(r), _user(r)
    return r.choice(
        [
            f"[credential]\n\thelper = osxkeychain\n[user]\n\tname = {_title(u)}\n\temail = {u}@{org}.com",
            '[credential "https://github.com"]\n\thelper = !/usr/bin/gh auth git-credential',
            f"git config --global credential.helper 'cache --timeout={r.choice([900, 3600, 28800])}'",
            f'[credential "https://git.{org}.com"]\n\tusername = {u}\n\thelper = manager',
        ]
    )


def la_vscode_settings(r: random.Random) -> str:
    d = {
        "editor.fontSize": r.randint(11, 16),
        "python.defaultInterpreterPath": ".venv/bin/python",
        "files.exclude": {"**/__pycache__": True},
        "terminal.integrated.env.linux": {"PYTHONPATH": "${workspaceFolder}/src"},
        "http.proxy": f"http://proxy.{_org(r)}.lan:3128",
    }
    return json.dumps(d, indent=2)


def la_jetbrains(r: random.Random) -> str:
    return f'<configuration name="{_svc(r)}" type="PythonConfigurationType">\n  <envs>\n    <env name="DJANGO_SETTINGS_MODULE" value="{_svc(r)}.settings.{_env(r).replace("-", "_")}" />\n    <env name="PYTHONUNBUFFERED" value="1" />\n  </envs>\n  <option name="SCRIPT_NAME" value="$PROJECT_DIR$/manage.py" />\n</configuration>'


def la_fake_fixture(r: random.Random) -> str:
    u = _user(r)
    return r.choice(
        [
            f'def test_login_rejects_bad_password(client):\n    resp = client.post("/login", data={{"username": "{u}", "password": "wrong-password"}})\n    assert resp.status_code == 401',
            f'FAKE_TOKEN = "test-token-not-real"  # used by the mock {_svc(r)} server only',
            f"it('masks tokens in {_svc(r)} logs', () => {{\n  expect(mask('fake-key-0000')).toBe('fake-****');\n}});",
            f'@pytest.fixture\ndef api_key():\n    return "dummy-api-key-for-tests"  # {_svc(r)}',
            f'monkeypatch.setenv("{_sn(r)}", "fake")',
            f'user = User(email="{u}@example.com", password="not-a-real-password")  # factory default',
        ]
    )


def la_aws_doc_example(r: random.Random) -> str:
    kid = _p("AK", "IA", "IOSFODNN7", "EXAMPLE")
    sec = _p("wJalrXUtnFEMI", "/K7MDENG/", "bPxRfiCY", "EXAMPLEKEY")
    prof = _env(r)
    return r.choice(
        [
            f"From the AWS docs example (placeholder values):\n[{prof}]\naws_access_key_id = {kid}\naws_secret_access_key = {sec}\nregion = {r.choice(REGIONS)}",
            f"e.g. `aws configure --profile {prof}` -> AWS Access Key ID: {kid} (example value from the docs)",
            f"The README uses the documented dummy pair {kid} / {sec}; real keys come from SSO for {_svc(r)}.",
        ]
    )


def la_md5_release(r: random.Random) -> str:
    return "\n".join(f"MD5 ({_svc(r)}-{r.randint(1, 9)}.{r.randint(0, 9)}.zip) = {_hex(r, 32)}" for _ in range(2))


def la_lfs_pointer(r: random.Random) -> str:
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(r, 64)}\nsize {r.randint(10_000, 90_000_000)}"


def la_docker_build(r: random.Random) -> str:
    return (
        "\n".join(
            f"#{i} [{r.choice(['build', 'runtime'])} {i}/7] {r.choice(['RUN npm ci', 'COPY . .', 'RUN pip install -r requirements.txt'])}\n#{i} CACHED"
            for i in range(2, 5)
        )
        + f"\n#9 writing image sha256:{_hex(r, 64)} done"
    )


def la_gpg_fingerprint(r: random.Random) -> str:
    fp = _rs(r, "0123456789ABCDEF", 40)
    return f"pub   ed25519 {_date(r)} [SC]\n      {fp}\nuid           [ultimate] {_title(_user(r))} <{_user(r)}@{_org(r)}.com>\nsub   cv25519 {_date(r)} [E]"


def la_tls_fingerprint(r: random.Random) -> str:
    return r.choice(
        [
            f"SHA256 Fingerprint={':'.join(_rs(r, '0123456789ABCDEF', 2) for _ in range(32))}",
            f'pin-sha256="{_b64(r, 32)}"',
        ]
    )


def la_ssh_fingerprint(r: random.Random) -> str:
    bits, typ = r.choice([(256, "ED25519"), (3072, "RSA"), (4096, "RSA"), (256, "ECDSA")])
    return f"{bits} SHA256:{_b64(r, 32).rstrip('=')} {_user(r)}@{r.choice(['laptop', 'ci'])} ({typ})"


def la_eth_public(r: random.Random) -> str:
    return r.choice(
        [
            f"deployed to 0x{_hex(r, 40)} on sepolia, tx 0x{_hex(r, 64)}",
            f"treasury multisig: 0x{_hex(r, 40)}",
            f"block 0x{_hex(r, 64)} finalized",
        ]
    )


def la_wireguard_public(r: random.Random) -> str:
    return f"[Interface]\nAddress = 10.8.0.{r.randint(2, 254)}/24\nPostUp = wg set %i private-key /etc/wireguard/private.key\n\n[Peer]\nPublicKey = {_b64(r, 32)}\nPresharedKey = # see vault\nEndpoint = {_ip(r)}:51820\nAllowedIPs = 10.8.0.0/24"


def la_age_recipient(r: random.Random) -> str:
    return f"creation_rules:\n  - path_regex: secrets/{_env(r)}/.*\\.yaml$\n    age: age1{_rs(r, BECH32, 58)},age1{_rs(r, BECH32, 58)}"


def la_github_app_ids(r: random.Random) -> str:
    return r.choice(
        [
            f"GITHUB_APP_ID={_dig(r, 6)}\nGITHUB_APP_CLIENT_ID=Iv23li{_rs(r, ALNUM, 14)}\nGITHUB_APP_INSTALLATION_ID={_dig(r, 8)}",
            f"OAuth App client id: Iv1.{_hex(r, 16)}",
            f"installation {_dig(r, 8)} for app {_dig(r, 6)} ({_org(r)})",
        ]
    )


def la_slack_ids(r: random.Random) -> str:
    return r.choice(
        [
            f"https://{_org(r)}.slack.com/archives/C{_rs(r, UPNUM, 10)}/p{_dig(r, 16)}",
            f"channel C{_rs(r, UPNUM, 10)}, team T{_rs(r, UPNUM, 10)}, user U{_rs(r, UPNUM, 10)}",
            f"SLACK_CHANNEL_ID=C{_rs(r, UPNUM, 10)}",
        ]
    )


def la_discord_ids(r: random.Random) -> str:
    return r.choice(
        [
            f"guild {_snowflake(r)} channel {_snowflake(r)}",
            f"https://discord.gg/{_rs(r, ALNUM, 8)}",
            f"DISCORD_CLIENT_ID={_snowflake(r)}",
        ]
    )


def la_stripe_object_ids(r: random.Random) -> str:
    return r.choice(
        [
            f"refund for ch_3{_rs(r, ALNUM, 23)} on cus_{_rs(r, ALNUM, 14)}",
            f"evt_1{_rs(r, ALNUM, 23)} (invoice.paid) for in_1{_rs(r, ALNUM, 23)}",
            f"price_1{_rs(r, ALNUM, 23)} / prod_{_rs(r, ALNUM, 14)} / sub_1{_rs(r, ALNUM, 23)}",
            f"PaymentIntent pi_3{_rs(r, ALNUM, 23)} requires_action",
        ]
    )


def la_cloud_resource_ids(r: random.Random) -> str:
    return r.choice(
        [
            f"/subscriptions/{_uuid(r)}/resourceGroups/rg-{_svc(r)}/providers/Microsoft.Web/sites/{_svc(r)}-{_env(r)}",
            f"projects/{_org(r)}-{_env(r)}/locations/europe-west1/services/{_svc(r)}",
            f"ocid1.instance.oc1.eu-frankfurt-1.{_rs(r, LOWNUM, 60)}",
        ]
    )


def la_sentry_event_ids(r: random.Random) -> str:
    return f"Sentry issue {_svc(r).upper()}-{_rs(r, UPNUM, 3)}: event {_hex(r, 32)} (first seen {_date(r)}), release {_hex(r, 40)}"


def la_url_no_password(r: random.Random) -> str:
    host, u, db = _dbhost(r), _dbuser(r), _svc(r)
    return r.choice(
        [
            f"DATABASE_URL=postgresql://{u}@{host}:5432/{db}?sslmode=verify-full",
            f"jdbc:postgresql://{host}:5432/{db}?user={u}&ssl=true",
            f"REDIS_URL=redis://{host}:6379/0",
            f"mongodb://{host}:27017/{db}?authSource=admin&authMechanism=MONGODB-AWS",
        ]
    )


def la_url_env_password(r: random.Random) -> str:
    host, u, db = _dbhost(r), _dbuser(r), _svc(r)
    return r.choice(
        [
            f"REDIS_URL=redis://:${{REDIS_PASSWORD}}@{host}:6379",
            f"DATABASE_URL=postgres://{u}:${{DB_PASSWORD}}@{host}/{db}",
            f"url: postgresql://{u}:{{{{ .Values.db.password }}}}@{host}/{db}",
            f"sqlalchemy.url = postgresql://%(DB_USER)s:%(DB_PASS)s@{host}/{db}",
        ]
    )


def la_commit_rotation(r: random.Random) -> str:
    return r.choice(
        [
            f"chore(security): remove leaked Slack token from history (already revoked)\n\nRotated in the admin console on {_date(r)}.",
            f"fix: read {_sn(r)} from env instead of hardcoding\n\nThe old value has been revoked.",
            f"commit {_hex(r, 40)}\nAuthor: {_title(_user(r))} <{_user(r)}@{_org(r)}.com>\n\n    ci: switch to OIDC for AWS, drop static keys",
            f'-    api_key = settings.API_KEY\n+    api_key = get_secret("{_svc(r)}/api_key")',
        ]
    )


def la_nix_store(r: random.Random) -> str:
    return "\n".join(
        f"/nix/store/{_rs(r, '0123456789abcdfghijklmnpqrsvwxyz', 32)}-{p}"
        for p in r.sample(["openssl-3.0.14", "python3-3.12.4", "nodejs-20.15.1", "curl-8.8.0", "git-2.45.2"], 2)
    )


def la_ipfs(r: random.Random) -> str:
    return r.choice(
        [
            f"ipfs://bafybei{_rs(r, 'abcdefghijklmnopqrstuvwxyz234567', 52)}",
            f"pinned Qm{_rs(r, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)}",
        ]
    )


def la_asset_hashes(r: random.Random) -> str:
    return "\n".join(
        f"dist/assets/{n}-{_rs(r, B64URL, 8)}.{e}  {r.randint(1, 400)}.{r.randint(0, 99)} kB"
        for n, e in [("index", "js"), ("vendor", "js"), ("index", "css")]
    )


def la_webhook_signature(r: random.Random) -> str:
    return r.choice(
        [
            f"X-Hub-Signature-256: sha256={_hex(r, 64)}\nX-GitHub-Delivery: {_uuid(r)}\nX-GitHub-Event: push",
            f"Stripe-Signature: t={_epoch(r)},v1={_hex(r, 64)}",
            f"X-Slack-Signature: v0={_hex(r, 64)}\nX-Slack-Request-Timestamp: {_epoch(r)}",
        ]
    )


def la_pkce(r: random.Random) -> str:
    return f"https://auth.{_org(r)}.io/authorize?response_type=code&client_id={_rs(r, ALNUM, 32)}&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback&code_challenge={_b64u(r.randbytes(32))}&code_challenge_method=S256&state={_rs(r, ALNUM, 16)}"


def la_digest_challenge(r: random.Random) -> str:
    return f'< HTTP/1.1 401 Unauthorized\n< WWW-Authenticate: Digest realm="{_svc(r)}@{_org(r)}.com", qop="auth", nonce="{_hex(r, 32)}", opaque="{_hex(r, 32)}"'


def la_jwks(r: random.Random) -> str:
    return json.dumps(
        {
            "keys": [
                {
                    "kty": "RSA",
                    "use": "sig",
                    "alg": "RS256",
                    "kid": _rs(r, B64URL, 22),
                    "n": _b64u(r.randbytes(256)),
                    "e": "AQAB",
                }
            ]
        },
        indent=2,
    )


def la_gcp_sa_redacted(r: random.Random) -> str:
    proj = f"{_org(r)}-{_env(r)}"
    return json.dumps(
        {
            "type": "service_account",
            "project_id": proj,
            "private_key_id": _hex(r, 40),
            "private_key": "<redacted>",
            "client_email": f"{_svc(r)}@{proj}.iam.gserviceaccount.com",
            "client_id": _dig(r, 21),
        },
        indent=2,
    )


def la_dialin_pin(r: random.Random) -> str:
    return f"Join by phone: +{r.choice(['1', '39', '46', '90', '420'])} {_dig(r, 3)} {_dig(r, 3)} {_dig(r, 4)}, PIN: {_dig(r, 3)} {_dig(r, 3)} {_dig(r, 3)}#"


def la_password_policy(r: random.Random) -> str:
    return r.choice(
        [
            f"password_policy:\n  min_length: {r.randint(10, 16)}\n  require_symbols: true\n  max_age_days: 90\n  history: 5",
            f"AUTH_PASSWORD_VALIDATORS = [{{'NAME': 'django.contrib.auth.password_validation.MinimumLengthValidator', 'OPTIONS': {{'min_length': {r.randint(10, 16)}}}}}]",
            f"BCRYPT_ROUNDS={r.randint(10, 14)}\nPASSWORD_RESET_TIMEOUT={r.choice([3600, 86400])}",
        ]
    )


def la_gitlab_ci_vars(r: random.Random) -> str:
    job = f"{r.choice(['deploy', 'publish', 'release'])}-{_svc(r)}"
    return (
        f"{job}:\n  stage: {r.choice(['deploy', 'release'])}\n  image: {r.choice(IMAGES)}\n  script:\n"
        f'    - echo "$CI_REGISTRY_PASSWORD" | docker login -u "$CI_REGISTRY_USER" --password-stdin $CI_REGISTRY\n'
        f'    - curl --header "JOB-TOKEN: $CI_JOB_TOKEN" "${{CI_API_V4_URL}}/projects/${{CI_PROJECT_ID}}/packages"\n  rules:\n    - if: $CI_COMMIT_BRANCH == "{r.choice(["main", "master", "release"])}"'
    )


def la_generate_cmd(r: random.Random) -> str:
    app = f"{_org(r)}-{_svc(r)}"
    return r.choice(
        [
            f"heroku config:set SECRET_KEY_BASE=$(openssl rand -hex 64) -a {app}",
            f'fly secrets set JWT_SECRET="$(openssl rand -base64 32)" --app {app}',
            f"python -c 'import secrets; print(secrets.token_urlsafe({r.choice([32, 48, 64])}))'  # generate one for {app}, don't paste it here",
            f"kubectl -n {r.choice(NAMESPACES)} create secret generic {app} --from-literal=key=$(head -c32 /dev/urandom | base64)",
        ]
    )


def la_semver_describe(r: random.Random) -> str:
    return f"version {r.randint(0, 4)}.{r.randint(0, 30)}.{r.randint(0, 9)}-{r.randint(1, 80)}-g{_hex(r, 7)} (build {_hex(r, 12)}, {_date(r)})"


def la_crash_no_secret(r: random.Random) -> str:
    host, u, db = _dbhost(r), _dbuser(r), _svc(r)
    return r.choice(
        [
            f'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "{host}" ({_ip(r)}), port 5432 failed: timeout expired\n(Background on this error at: https://sqlalche.me/e/20/e3q8)\nengine url: postgresql://{u}:***@{host}:5432/{db}',
            f'HikariPool-1 - Exception during pool initialization.\norg.postgresql.util.PSQLException: FATAL: password authentication failed for user "{u}"\n\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:693)',
            f"redis.exceptions.AuthenticationError: invalid username-password pair or user is disabled.\n  url=redis://{u}:****@{host}:6379/0",
        ]
    )


def la_kubeconfig_exec(r: random.Random) -> str:
    ca = _b64s(_cert_pem(r))
    cl = f"{_env(r)}-eks"
    return (
        f"apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: {ca}\n    server: https://{_hex(r, 32).upper()}.gr7.{r.choice(REGIONS)}.eks.amazonaws.com\n  name: {cl}\n"
        f'users:\n- name: {cl}\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: ["eks", "get-token", "--cluster-name", "{cl}"]'
    )


def la_compose_secrets_file(r: random.Random) -> str:
    svc = _svc(r)
    return f"services:\n  {svc}:\n    image: {r.choice(IMAGES)}\n    secrets:\n      - db_password\n    environment:\n      DB_PASSWORD_FILE: /run/secrets/db_password\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt"


def la_openapi_security(r: random.Random) -> str:
    return (
        f"openapi: 3.1.0\ninfo:\n  title: {_title(_svc(r))} API\n  version: {r.randint(1, 4)}.{r.randint(0, 20)}.0\ncomponents:\n  securitySchemes:\n    bearerAuth:\n      type: http\n      scheme: bearer\n      bearerFormat: JWT\n"
        f"    apiKey:\n      type: apiKey\n      in: header\n      name: {r.choice(['X-API-Key', 'X-Api-Token', 'Api-Key'])}\nsecurity:\n  - bearerAuth: []"
    )


def la_mongo_ids(r: random.Random) -> str:
    return r.choice(
        [
            f'{{"_id": {{"$oid": "{_hex(r, 24)}"}}, "status": "active", "owner": "{_user(r)}"}}',
            f"db.orders.find({{ _id: ObjectId('{_hex(r, 24)}') }})",
        ]
    )


def la_yarn_lock(r: random.Random) -> str:
    pkg = r.choice(["chalk", "debug", "ms", "picocolors", "tslib"])
    v = f"{r.randint(1, 5)}.{r.randint(0, 9)}.{r.randint(0, 9)}"
    return f'{pkg}@^{v}:\n  version "{v}"\n  resolved "https://registry.yarnpkg.com/{pkg}/-/{pkg}-{v}.tgz#{_hex(r, 40)}"\n  integrity sha512-{_b64(r, 64)}'


def la_email_access(r: random.Random) -> str:
    u1, u2 = r.sample(USERS, 2)
    return r.choice(
        [
            f"Hi {_title(u2)},\n\nI've granted you read access to the {_env(r)}/{_svc(r)} path in Vault. Log in with SSO and run `vault kv get secret/{_env(r)}/{_svc(r)}`.\n\nBest,\n{_title(u1)}",
            f"Ciao {_title(u2)}, ti ho dato accesso al vault. La password la trovi lì, non te la mando via mail.",
            f'Hej {_title(u2)}, du har nu åtkomst till 1Password-valvet "{_title(_svc(r))}".',
            f"Merhaba {_title(u2)}, anahtarı 1Password'e koydum, oradan alabilirsin.",
            f"{_title(u2)}님, 토큰은 1Password 공유 볼트에 넣어두었습니다.",
            f"{u2}，密钥我放到 1Password 的共享保险库了，自己去取。",
            f"Привет, {_title(u2)}! Доступ к Vault выдал, пароль там.",
            f"Ahoj {_title(u2)}, klíč najdeš v 1Passwordu v trezoru {_title(_svc(r))}.",
        ]
    )


def la_jwt_header_docs(r: random.Random) -> str:
    alg = r.choice(["RS256", "ES256", "HS256"])
    hdr = _b64u(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    return r.choice(
        [
            f"Every {_svc(r)} token starts with the same header segment `{hdr}` ({alg}); the payload carries sub, iat and exp. Verify the signature against the JWKS before trusting any claim.",
            f"lesson: if a token starts with `{hdr}` it is {alg}-signed; the {_svc(r)} gateway rejects {alg} since {_date(r)}.",
        ]
    )


def la_random_ids_misc(r: random.Random) -> str:
    return r.choice(
        [
            f"YouTube demo: https://youtu.be/{_rs(r, B64URL, 11)}",
            f"Loom: https://www.loom.com/share/{_hex(r, 32)}",
            f"Figma file https://www.figma.com/design/{_rs(r, ALNUM, 22)}/{_title(_svc(r))}-flows",
            f"Datadog monitor {_dig(r, 8)}, dashboard {_rs(r, LOWNUM, 3)}-{_rs(r, LOWNUM, 3)}-{_rs(r, LOWNUM, 3)}",
        ]
    )


def la_masked_env_dump(r: random.Random) -> str:
    rows = [f"{n}=********" for n in r.sample(SECRET_NAMES, 3)]
    return "$ printenv | grep -E 'KEY|TOKEN|PASSWORD' | sed 's/=.*/=********/'\n" + "\n".join(rows)


def la_notebook_env_read(r: random.Random) -> str:
    n = _sn(r)
    cell = {
        "cell_type": "code",
        "execution_count": r.randint(1, 40),
        "id": _hex(r, 8),
        "metadata": {},
        "outputs": [],
        "source": ["from dotenv import load_dotenv\n", "load_dotenv()\n", f'key = os.environ["{n}"]'],
    }
    return json.dumps(cell, indent=1)


def la_tfstate_sensitive(r: random.Random) -> str:
    svc = _svc(r)
    return json.dumps(
        {
            "mode": "managed",
            "type": "aws_db_instance",
            "name": svc,
            "instances": [
                {
                    "attributes": {
                        "id": f"{svc}-{_env(r)}",
                        "username": _dbuser(r),
                        "arn": f"arn:aws:rds:{r.choice(REGIONS)}:{_dig(r, 12)}:db:{svc}",
                    },
                    "sensitive_attributes": [[{"type": "get_attr", "value": "password"}]],
                }
            ],
        },
        indent=2,
    )


def la_hashes_in_notes(r: random.Random) -> str:
    return r.choice(
        [
            f"sha1 of the broken artifact: {_hex(r, 40)} (good one: {_hex(r, 40)})",
            f"md5 {_hex(r, 32)} matches upstream",
            f"checksum: sha256:{_hex(r, 64)}",
            f"cache key node-modules-{_hex(r, 64)}",
        ]
    )


def la_chat_no_secret(r: random.Random) -> str:
    u1, u2 = r.sample(USERS, 2)
    return f"[{r.randint(8, 18)}:{r.randint(10, 59)}] {u1}: where's the {_env(r)} {r.choice(['token', 'password', 'API key'])}?\n[{r.randint(8, 18)}:{r.randint(10, 59)}] {u2}: in vault, `{_env(r)}/{_svc(r)}` -- don't paste it here pls"


def la_placeholder_config(r: random.Random) -> str:
    p = r.choice(PLACEHOLDERS)
    return r.choice(
        [
            f'database:\n  username: app\n  password: "{p}"',
            json.dumps({"apiKey": p, "baseUrl": "https://api.example.com"}, indent=2),
            f"[client]\nuser=root\npassword={p}",
            f'provider "github" {{\n  token = "{p}"\n}}',
        ]
    )


def la_aws_sso_login(r: random.Random) -> str:
    return f"$ aws sso login --profile {_env(r)}\nAttempting to automatically open the SSO authorization page in your default browser.\nSuccessfully logged into Start URL: https://{_org(r)}.awsapps.com/start"


def la_heroku_config_masked(r: random.Random) -> str:
    return f"=== {_org(r)}-{_svc(r)} Config Vars\nDATABASE_URL: postgres://...(hidden)\nLOG_LEVEL:    info\nWEB_CONCURRENCY: {r.randint(1, 8)}"


LOOKALIKES: list[Callable[[random.Random], str]] = [
    la_placeholder_shell,
    la_var_ref_shell,
    la_gha_secrets,
    la_cmd_subst,
    la_docs_changeme,
    la_masked_dashboard,
    la_ci_masked,
    la_gitlab_masked,
    la_gh_auth_status,
    la_aws_configure_list,
    la_commit_sha,
    la_git_log,
    la_sha256sums,
    la_docker_digest,
    la_npm_integrity,
    la_go_sum,
    la_cargo_lock,
    la_pip_hashes,
    la_uuid_log,
    la_traceparent,
    la_aws_request_ids,
    la_ssh_pubkey,
    la_pem_cert,
    la_pem_pubkey,
    la_known_hosts,
    la_stripe_publishable,
    la_supabase_anon,
    la_mapbox_public,
    la_google_client_id,
    la_azure_ids,
    la_aws_ids,
    la_twilio_sid,
    la_sentry_dsn,
    la_algolia_search,
    la_vault_refs,
    la_op_refs,
    la_sops,
    la_sealed_secret,
    la_external_secret,
    la_secretkeyref,
    la_tf_refs,
    la_tf_plan_sensitive,
    la_env_example,
    la_env_read_py,
    la_env_read_js,
    la_env_read_compiled,
    la_env_read_script,
    la_file_read,
    la_prose_en,
    la_prose_intl,
    la_error_messages,
    la_base64_image,
    la_base64_json,
    la_csp_nonce,
    la_sri,
    la_etag,
    la_git_diff_index,
    la_notebook_output,
    la_har_cookies,
    la_http_ids,
    la_curl_env_header,
    la_gcloud_output,
    la_fly_secrets_list,
    la_kubectl_secret,
    la_docker_credstore,
    la_npmrc_envref,
    la_pypirc_keyring,
    la_git_credential_helper,
    la_vscode_settings,
    la_jetbrains,
    la_fake_fixture,
    la_aws_doc_example,
    la_md5_release,
    la_lfs_pointer,
    la_docker_build,
    la_gpg_fingerprint,
    la_tls_fingerprint,
    la_ssh_fingerprint,
    la_eth_public,
    la_wireguard_public,
    la_age_recipient,
    la_github_app_ids,
    la_slack_ids,
    la_discord_ids,
    la_stripe_object_ids,
    la_cloud_resource_ids,
    la_sentry_event_ids,
    la_url_no_password,
    la_url_env_password,
    la_commit_rotation,
    la_nix_store,
    la_ipfs,
    la_asset_hashes,
    la_webhook_signature,
    la_pkce,
    la_digest_challenge,
    la_jwks,
    la_gcp_sa_redacted,
    la_dialin_pin,
    la_password_policy,
    la_gitlab_ci_vars,
    la_generate_cmd,
    la_semver_describe,
    la_crash_no_secret,
    la_kubeconfig_exec,
    la_compose_secrets_file,
    la_openapi_security,
    la_mongo_ids,
    la_yarn_lock,
    la_email_access,
    la_jwt_header_docs,
    la_random_ids_misc,
    la_masked_env_dump,
    la_notebook_env_read,
    la_tfstate_sensitive,
    la_hashes_in_notes,
    la_chat_no_secret,
    la_placeholder_config,
    la_aws_sso_login,
    la_heroku_config_masked,
]

PER_LOOKALIKE = 11


def _lookalikes(r: random.Random) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for g in LOOKALIKES:
        n = tries = 0
        while n < PER_LOOKALIKE and tries < PER_LOOKALIKE * 6:
            tries += 1
            t = g(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            n += 1
    return out


# ----------------------------------------------------------------------------------------------
# entry points
# ----------------------------------------------------------------------------------------------


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    return _positives(r), _lookalikes(r)


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    t0 = time.perf_counter()
    pos, neg = generate(seed)
    dt = time.perf_counter() - t0
    counts = Counter(k for _, k, _ in pos)
    for kind, n in sorted(counts.items()):
        print(f"{kind:32s} {n}")
    print(
        f"\n{len(counts)} kinds, {len(pos)} positives, {len(neg)} look-alikes from {len(LOOKALIKES)} generators in {dt:.2f}s"
    )
    bad = [k for t, k, s in pos if s not in t]
    print(f"secret-not-in-text: {len(bad)}")
    sr = random.Random(seed + 1)
    for text, kind, secret in sr.sample(pos, 4):
        print(f"\n--- {kind} (secret: {secret[:40]}{'...' if len(secret) > 40 else ''})\n{text}")
    for text in sr.sample(neg, 3):
        print(f"\n--- look-alike\n{text}")
