"""Secret-detector test set K.

Theme: texts as they appear in ops and infrastructure files of less common tools (Ansible, Helm,
Pulumi, Nomad, Consul, systemd, Compose, supervisord, nginx/haproxy, Jenkins, Maven, Gradle, NuGet,
npm, pip, Cargo, Composer, Rails, Spring, INI, Windows .reg, PowerShell, ODBC), database and broker
connection strings for many drivers, support tickets, postmortems and team chat in several
languages (en, de, fr, es, pt, ja, nl, pl), mobile and frontend configs, and vendor tokens of
documented formats embedded in those places, plus secrets without a format (passwords,
passphrases, random hex/base64 keys, basic auth in URLs).

``generate(seed)`` returns ``(positives, lookalikes)``:

* ``positives`` is a list of ``(text, kind, secret)``; ``secret`` is the one sensitive value in
  ``text`` and an exact substring of it.
* ``lookalikes`` is a list of texts in the same places and styles that contain no credential
  (placeholders, secret-manager references, hashes, ids, public keys and certificates, ...).

Everything is built with ``random.Random(seed)``; every vendor prefix, key body and PEM armour line
is assembled at run time from pieces, so the source holds no token-shaped literal.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
import string
import sys

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
LETTERS = UPPER + LOWER
ALNUM = UPPER + LOWER + DIGITS
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
CRYPT64 = "./" + DIGITS + UPPER + LOWER
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
DJANGO_CHARS = LOWNUM + "!@#$%^&*(-_=+)"
PW_SYMS = "!*-_.@^~+"
URL_SYMS = "-_.~"
DASH = "-" * 5
PK = "PRIV" + "ATE KEY"


# ----------------------------------------------------------------------------------------------
# small random helpers
# ----------------------------------------------------------------------------------------------


def _rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choices(alphabet, k=n))


def _hex(r: random.Random, n: int) -> str:
    return _rs(r, HEX, n)


def _b64(r: random.Random, nbytes: int, url: bool = False, pad: bool = True) -> str:
    raw = r.randbytes(nbytes)
    out = (base64.urlsafe_b64encode(raw) if url else base64.b64encode(raw)).decode()
    return out if pad else out.rstrip("=")


def _b64raw(raw: bytes, url: bool = False, pad: bool = True) -> str:
    out = (base64.urlsafe_b64encode(raw) if url else base64.b64encode(raw)).decode()
    return out if pad else out.rstrip("=")


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _digits(r: random.Random, n: int) -> str:
    return str(r.randint(1, 9)) + _rs(r, DIGITS, n - 1)


def _wrap(s: str, width: int = 64) -> str:
    return "\n".join(s[i : i + width] for i in range(0, len(s), width))


def _armour(label: str, body: str, width: int = 64) -> str:
    return DASH + "BEGIN " + label + DASH + "\n" + _wrap(body, width) + "\n" + DASH + "END " + label + DASH


def _sstr(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


# ----------------------------------------------------------------------------------------------
# context values shared by positive and look-alike templates
# ----------------------------------------------------------------------------------------------

FIRST = [
    "anna",
    "jonas",
    "lea",
    "marc",
    "sofia",
    "pedro",
    "yuki",
    "kenji",
    "pieter",
    "kasia",
    "tomasz",
    "lucas",
    "camille",
    "ines",
    "ravi",
    "maria",
    "olaf",
    "emma",
    "noah",
    "julia",
    "bram",
    "zofia",
    "hiro",
    "joao",
    "lucia",
    "felix",
    "chloe",
    "sanne",
    "piotr",
    "aiko",
]
APPS = [
    "billing",
    "checkout",
    "ledger",
    "notifier",
    "search",
    "ingest",
    "auth",
    "reports",
    "catalog",
    "scheduler",
    "gateway",
    "webhooks",
    "mobile-api",
    "admin",
    "orders",
    "payroll",
    "crm",
    "media",
]
STAGES = ["staging", "prod", "production", "preprod", "qa", "dev", "uat", "acc"]
DOMAINS = [
    "acme.io",
    "example-corp.net",
    "intra.lan",
    "shopfront.de",
    "contoso.local",
    "kiwi-apps.com",
    "nordhaven.nl",
    "tasca.pt",
    "krakdata.pl",
    "hanabi.co.jp",
    "lumen-labs.fr",
    "vela.es",
]
REGIONS = ["eu-central-1", "us-east-1", "eu-west-1", "ap-northeast-1", "us-west-2", "sa-east-1"]
TEAMS = ["platform", "payments", "data", "mobile", "sre", "growth", "core-api", "infra"]
ORGS = ["acme", "nordhaven", "tasca", "krakdata", "hanabi", "kiwiapps", "lumenlabs", "vela"]
WORDS = [
    "lindwurm",
    "kaffee",
    "tornado",
    "cobalt",
    "harbor",
    "maple",
    "quokka",
    "saffron",
    "vento",
    "nebula",
    "granite",
    "falcon",
    "orchid",
    "zephyr",
    "pixel",
    "lantern",
    "walrus",
    "mosaic",
    "sierra",
    "tundra",
    "paprika",
    "glacier",
    "comet",
    "ember",
    "willow",
    "basalt",
    "marlin",
    "fjord",
    "cactus",
    "dune",
    "piment",
    "brezel",
    "molino",
    "sakura",
    "tulp",
    "kajak",
    "pierogi",
    "bacalhau",
    "gouda",
    "zorro",
    "hamster",
    "kompas",
    "velero",
    "nuvem",
    "ochsen",
    "kolibri",
]


def _cert_pem(r: random.Random) -> str:
    der = bytes.fromhex("308203" + _hex(r, 2) + "308202" + _hex(r, 2) + "a003020102021400") + r.randbytes(760)
    return _armour("CERTIFICATE", _b64raw(der))


def _ctx(r: random.Random) -> dict[str, str]:
    app = r.choice(APPS)
    stage = r.choice(STAGES)
    dom = r.choice(DOMAINS)
    p1, p2 = r.sample(FIRST, 2)
    org = r.choice(ORGS)
    y = r.randint(2022, 2025)
    ed_pub = _sstr(b"ssh-ed25519") + _sstr(r.randbytes(32))
    rsa_pub = _sstr(b"ssh-rsa") + _sstr(b"\x01\x00\x01") + _sstr(b"\x00" + r.randbytes(256))
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + r.randbytes(r.randint(60, 240))
    woff = b"wOF2\x00\x01\x00\x00" + r.randbytes(r.randint(90, 300))
    pgp_pub = b"\x99\x01\x8d\x04" + r.randbytes(r.randint(300, 500))
    spki = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100") + r.randbytes(270)
    ctx = {
        "app": app,
        "App": app.replace("-", " ").title().replace(" ", ""),
        "app_": app.replace("-", "_"),
        "stage": stage,
        "domain": dom,
        "host": f"{app}-{stage}.{dom}",
        "dbhost": f"{r.choice(['pg', 'mysql', 'db', 'sql', 'mongo', 'maria'])}-{stage}-{r.randint(1, 4):02d}.{dom}",
        "user": r.choice(["app", "svc_" + app.replace("-", "_"), "deploy", app.replace("-", "_") + "_rw", "ci-bot"]),
        "db": app.replace("-", "_") + r.choice(["", "_db", "_prod", "_main"]),
        "port": str(r.choice([3000, 5000, 8000, 8080, 8443, 9000, 9090, 4000])),
        "date": f"{y}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "date2": f"{y}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "time": f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}",
        "p1": p1,
        "p2": p2,
        "P1": p1.capitalize(),
        "P2": p2.capitalize(),
        "team": r.choice(TEAMS),
        "ticket": f"{r.choice(['OPS', 'SUP', 'INC', 'PLAT', 'HELP', 'SEC', 'TCK'])}-{r.randint(100, 9999)}",
        "uuid": _uuid(r),
        "uuid2": _uuid(r),
        "uuid3": _uuid(r),
        "ip": f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
        "region": r.choice(REGIONS),
        "n": str(r.randint(2, 9)),
        "num": str(r.randint(100, 99999)),
        "acct": _digits(r, 12),
        "email": f"{p1}@{dom}",
        "org": org,
        "ver": f"{r.randint(1, 5)}.{r.randint(0, 20)}.{r.randint(0, 30)}",
        "sha": _hex(r, 40),
        "hex7": _hex(r, 7),
        "hex8": _hex(r, 8),
        "hex16": _hex(r, 16),
        "hex32": _hex(r, 32),
        "hex40": _hex(r, 40),
        "hex64": _hex(r, 64),
        "md5": _hex(r, 32),
        "twsid": "AC" + _hex(r, 32),
        "mgsid": "MG" + _hex(r, 32),
        "phone": _rs(r, DIGITS, 8),
        "stacct": org + r.choice(["st", "store", "data", "backup"]) + _rs(r, LOWNUM, 4),
        "gproj": f"{org}-{app}-{_rs(r, DIGITS, 6)}",
        "num10": _digits(r, 10),
        "num12": _digits(r, 12),
        "num21": _digits(r, 21),
        "shop": f"{org}-{r.choice(['store', 'shop', 'outlet', 'eu'])}",
        "shortid": _rs(r, LOWNUM, 9),
        "sentrypub": _hex(r, 32),
        "sorg": _digits(r, r.choice([6, 7])),
        "sproj": _digits(r, 7),
        "lower20": _rs(r, LOWER, 20),
        "upper10": _rs(r, UPNUM, 10),
        "chan": "C0" + _rs(r, UPNUM, 9),
        "last4": _rs(r, UPNUM, 4),
        "aida": "AI" + "DA" + _rs(r, UPNUM, 17),
        "aroa": "AR" + "OA" + _rs(r, UPNUM, 17),
        "agepub": "age1" + _rs(r, BECH32, 58),
        "cert": _cert_pem(r),
        "pk": "pk" + "_live_" + _rs(r, ALNUM, r.choice([24, 99])),
        "bcrypt": "$2y$10$" + _rs(r, CRYPT64, 53),
        "bcrypt2": "$2b$12$" + _rs(r, CRYPT64, 53),
        "argon": "$argon2id$v=19$m=65536,t=3,p=4$" + _b64(r, 16, pad=False) + "$" + _b64(r, 32, pad=False),
        "sha512crypt": "$6$" + _rs(r, CRYPT64, 16) + "$" + _rs(r, CRYPT64, 86),
        "sha512crypt2": "$6$" + _rs(r, CRYPT64, 16) + "$" + _rs(r, CRYPT64, 86),
        "epoch": str(r.randint(1_700_000_000, 1_790_000_000)),
        "apr1": "$apr1$" + _rs(r, CRYPT64, 8) + "$" + _rs(r, CRYPT64, 22),
        "digest": "sha256:" + _hex(r, 64),
        "sri": "sha384-" + _b64(r, 48),
        "integrity": "sha512-" + _b64(r, 64),
        "integrity2": "sha512-" + _b64(r, 64),
        "h1": "h1:" + _b64(r, 32),
        "h1b": "h1:" + _b64(r, 32),
        "nugethash": _b64(r, 64),
        "edpub": "ssh-ed25519 " + _b64raw(ed_pub),
        "rsapub": "ssh-rsa " + _b64raw(rsa_pub),
        "pgppub": DASH
        + "BEGIN PGP PUBLIC KEY BLOCK"
        + DASH
        + "\n\n"
        + _wrap(_b64raw(pgp_pub))
        + "\n="
        + _b64(r, 3)
        + "\n"
        + DASH
        + "END PGP PUBLIC KEY BLOCK"
        + DASH,
        "pubpem": _armour("PUBLIC KEY", _b64raw(spki)),
        "pngb64": _b64raw(png),
        "woff": _b64raw(woff),
        "vaultblob": "\n".join(_hex(r, 80) for _ in range(r.randint(4, 9))) + "\n" + _hex(r, 2 * r.randint(10, 39)),
        "pulumi": "v1:" + _b64(r, 12) + ":" + _b64(r, r.randint(24, 60)),
        "pulumisalt": "v1:" + _b64(r, 8) + ":v1:" + _b64(r, 12) + ":" + _b64(r, 32),
        "wgpub": _b64(r, 32),
        "sentrydsn": f"https://{_hex(r, 32)}@o{_digits(r, 6)}.ingest.sentry.io/{_digits(r, 7)}",
        "fbappid": f"1:{_digits(r, 12)}:web:{_hex(r, 22)}",
        "fbsender": _digits(r, 12),
        "gmeas": "G-" + _rs(r, UPNUM, 10),
        "trace": _hex(r, 32),
        "span": _hex(r, 16),
        "s3ver": _rs(r, ALNUM + "._", 32),
        "fp": ":".join(_rs(r, "0123456789ABCDEF", 2) for _ in range(32)),
        "fp1": ":".join(_rs(r, "0123456789ABCDEF", 2) for _ in range(20)),
        "sshfp": "SHA256:" + _b64(r, 32, pad=False),
        "jwksn": _b64(r, 256, url=True, pad=False),
        "kid": _hex(r, 16),
        "hexbin": ",".join(_hex(r, 2) for _ in range(r.randint(12, 28))),
        "teamid": _rs(r, UPNUM, 10),
        "pngname": r.choice(["logo", "avatar", "icon-192", "spinner", "empty-state", "badge"]),
    }
    return ctx


_TOK = re.compile(r"\[\[(\w+)\]\]")


def _fill(tpl: str, ctx: dict[str, str]) -> str:
    return _TOK.sub(lambda m: ctx.get(m.group(1), m.group(0)), tpl)


# ----------------------------------------------------------------------------------------------
# secret generators
# ----------------------------------------------------------------------------------------------


def g_password(r: random.Random, syms: str = PW_SYMS) -> str:
    while True:
        style = r.randrange(6)
        w1, w2 = r.sample(WORDS, 2)
        if style == 0:
            pw = w1.capitalize() + str(r.randint(10, 9999)) + r.choice(syms) + w2
        elif style == 1:
            pw = _rs(r, ALNUM + syms, r.randint(14, 24))
        elif style == 2:
            pw = w1 + r.choice(syms) + _rs(r, DIGITS, 4) + r.choice(syms) + w2.capitalize()
        elif style == 3:
            leet = w1.capitalize().translate(str.maketrans("aeiost", "43105+" if "+" in syms else "43105t"))
            pw = leet + r.choice(syms) + str(r.randint(2019, 2026)) + r.choice(syms) + w2[:4]
        elif style == 4:
            cons, vow = "bcdfghjklmnprstvz", "aeiou"
            pw = "".join(r.choice(cons) + r.choice(vow) for _ in range(4)).capitalize()
            pw += r.choice(syms) + _rs(r, DIGITS, 3) + r.choice(syms) + _rs(r, UPPER, 2)
        else:
            pw = _rs(r, ALNUM, 6) + r.choice(syms) + _rs(r, ALNUM, 6) + r.choice(syms) + _rs(r, ALNUM, 4)
        if len(pw) >= 10 and any(c.isdigit() for c in pw) and any(c.isalpha() for c in pw):
            return pw


def g_url_password(r: random.Random) -> str:
    return g_password(r, URL_SYMS)


def g_passphrase(r: random.Random) -> str:
    words = r.sample(WORDS, r.randint(4, 6))
    style = r.randrange(4)
    if style == 0:
        return "-".join(words) + "-" + str(r.randint(1, 99))
    if style == 1:
        return ".".join(w.capitalize() for w in words)
    if style == 2:
        return "_".join(words) + str(r.randint(10, 999))
    return "".join(w.capitalize() for w in words) + r.choice("!*~") + str(r.randint(1, 9))


def g_stripe_sk(r: random.Random) -> str:
    mode = "live" if r.random() < 0.8 else "test"
    body = ("51" + _rs(r, ALNUM, 97)) if r.random() < 0.5 else _rs(r, ALNUM, 24)
    return "sk" + "_" + mode + "_" + body


def g_stripe_rk(r: random.Random) -> str:
    body = ("51" + _rs(r, ALNUM, 97)) if r.random() < 0.5 else _rs(r, ALNUM, 24)
    return "rk" + "_live_" + body


def g_whsec(r: random.Random) -> str:
    return "wh" + "sec_" + _rs(r, ALNUM, 32)


def g_twilio(r: random.Random) -> str:
    return _hex(r, 32)


def g_sendgrid(r: random.Random) -> str:
    return "SG" + "." + _rs(r, B64URL, 22) + "." + _rs(r, B64URL, 43)


def g_slack_token(r: random.Random) -> str:
    if r.random() < 0.7:
        return "xox" + "b-" + _digits(r, r.randint(10, 13)) + "-" + _digits(r, 13) + "-" + _rs(r, ALNUM, 24)
    return "xox" + "p-" + "-".join(_digits(r, k) for k in (12, 12, 13)) + "-" + _hex(r, 32)


def g_slack_webhook(r: random.Random) -> str:
    return (
        "https://hooks."
        + "slack.com/services/T"
        + _rs(r, UPNUM, r.choice([8, 10]))
        + "/B"
        + _rs(r, UPNUM, r.choice([9, 10, 11]))
        + "/"
        + _rs(r, ALNUM, 24)
    )


def g_github(r: random.Random) -> str:
    if r.random() < 0.25:
        return "github" + "_pat_" + "11" + _rs(r, UPNUM, 20) + "_" + _rs(r, ALNUM, 59)
    return "gh" + r.choice("pposur") + "_" + _rs(r, ALNUM, 36)


def g_gitlab(r: random.Random) -> str:
    pre = r.choice(["glpat-", "glpat-", "glpat-", "glrt-", "gldt-"])
    return "gl" + pre[2:] + _rs(r, ALNUM + "_-", 20)


def g_npm(r: random.Random) -> str:
    return "np" + "m_" + _rs(r, ALNUM, 36)


def g_pypi(r: random.Random) -> str:
    raw = b"\x02\x01\x08pypi.org\x02" + r.randbytes(r.randint(120, 170))
    return "py" + "pi-" + _b64raw(raw, url=True, pad=False)


def g_aws_id(r: random.Random) -> str:
    return "AK" + "IA" + _rs(r, UPPER + "234567", 16)


def g_aws_secret(r: random.Random) -> str:
    return _rs(r, ALNUM + "/+", 40)


def g_azure_storage(r: random.Random) -> str:
    return _b64(r, 64)


def g_azure_sas(r: random.Random) -> str:
    return _b64(r, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def g_azure_client_secret(r: random.Random) -> str:
    return _rs(r, ALNUM, 3) + r.choice(["8Q", "7Q"]) + "~" + _rs(r, ALNUM + "_~.-", 34)


def _rsa_der(r: random.Random, pkcs8: bool) -> bytes:
    pkcs1 = bytes.fromhex("308204a40201000282010100") + r.randbytes(1180)
    if not pkcs8:
        return pkcs1
    return bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8") + pkcs1


def g_gcp_key(r: random.Random) -> str:
    body = _wrap(_b64raw(_rsa_der(r, True))).replace("\n", "\\n")
    return DASH + "BEGIN " + PK + DASH + "\\n" + body + "\\n" + DASH + "END " + PK + DASH + "\\n"


def g_google_api(r: random.Random) -> str:
    return "AI" + "za" + _rs(r, B64URL, 35)


def g_gocspx(r: random.Random) -> str:
    return "GOC" + "SPX-" + _rs(r, B64URL, 28)


def g_digitalocean(r: random.Random) -> str:
    return "do" + r.choice("poo"[:2]) + "_v1_" + _hex(r, 64)


def g_heroku(r: random.Random) -> str:
    if r.random() < 0.5:
        return _uuid(r)
    return "HR" + "KU-AA" + _rs(r, B64URL, 58)


def g_shopify(r: random.Random) -> str:
    return "shp" + r.choice(["at", "at", "ca", "pa", "ss"]) + "_" + _hex(r, 32)


def g_mailgun(r: random.Random) -> str:
    if r.random() < 0.5:
        return "ke" + "y-" + _hex(r, 32)
    return _hex(r, 32) + "-" + _hex(r, 8) + "-" + _hex(r, 8)


def g_mailchimp(r: random.Random) -> str:
    return _hex(r, 32) + "-us" + str(r.randint(1, 21))


def g_datadog(r: random.Random) -> str:
    return _hex(r, 32)


def g_newrelic(r: random.Random) -> str:
    return _hex(r, 36) + "NR" + "AL"


def g_sentry_secret(r: random.Random) -> str:
    return _hex(r, 32)


def g_sentry_auth(r: random.Random) -> str:
    return "sntr" + "yu_" + _hex(r, 64)


def g_vault(r: random.Random) -> str:
    x = r.random()
    if x < 0.6:
        return "hv" + "s." + _rs(r, ALNUM, 24)
    if x < 0.85:
        return "hv" + "s.CAESI" + _rs(r, B64URL, 86)
    return "hv" + "b.AAAAAQ" + _rs(r, B64URL, 120)


def g_doppler(r: random.Random) -> str:
    x = r.random()
    if x < 0.6:
        return "dp" + ".st." + r.choice(["prd", "stg", "dev", "ci", "prod"]) + "." + _rs(r, ALNUM, 40)
    return "dp" + "." + r.choice(["pt", "sa", "ct"]) + "." + _rs(r, ALNUM, 43)


def g_linear(r: random.Random) -> str:
    return "lin" + "_api_" + _rs(r, ALNUM, 40)


def g_notion(r: random.Random) -> str:
    if r.random() < 0.5:
        return "sec" + "ret_" + _rs(r, ALNUM, 43)
    return "nt" + "n_" + _rs(r, DIGITS, 11) + _rs(r, ALNUM, 35)


def g_openai(r: random.Random) -> str:
    marker = "T3Blbk" + "FJ"
    x = r.random()
    if x < 0.55:
        return "sk-" + "proj-" + _rs(r, B64URL, 74) + marker + _rs(r, B64URL, 74)
    if x < 0.75:
        return "sk-" + "svcacct-" + _rs(r, B64URL, 74) + marker + _rs(r, B64URL, 74)
    return "sk-" + _rs(r, ALNUM, 20) + marker + _rs(r, ALNUM, 20)


def g_anthropic(r: random.Random) -> str:
    return "sk-" + "ant-" + "api03-" + _rs(r, B64URL, 93) + "AA"


def g_hf(r: random.Random) -> str:
    return "h" + "f_" + _rs(r, LETTERS, 34)


def g_discord(r: random.Random) -> str:
    sf = str(r.randint(10**17, 13 * 10**17)).encode()
    return _b64raw(sf, pad=False) + "." + _rs(r, B64URL, 6) + "." + _rs(r, B64URL, 38)


def g_telegram(r: random.Random) -> str:
    return str(r.randint(10**8, 8 * 10**9)) + ":" + "AA" + _rs(r, B64URL, 33)


def _b64json(obj: dict) -> str:
    return _b64raw(json.dumps(obj, separators=(",", ":")).encode(), url=True, pad=False)


def g_jwt(r: random.Random) -> str:
    now = r.randint(1_690_000_000, 1_760_000_000)
    x = r.random()
    if x < 0.3:
        header = {"alg": "HS256", "typ": "JWT"}
        payload = {
            "iss": "supabase",
            "ref": _rs(r, LOWER, 20),
            "role": "service_role",
            "iat": now,
            "exp": now + 10 * 365 * 86400,
        }
        sig = _b64(r, 32, url=True, pad=False)
    elif x < 0.65:
        header = {"alg": "RS256", "typ": "JWT", "kid": _hex(r, 16)}
        payload = {
            "sub": _uuid(r),
            "iss": "https://auth." + r.choice(DOMAINS),
            "aud": r.choice(APPS),
            "scope": r.choice(["orders:read orders:write", "admin", "openid profile email"]),
            "iat": now,
            "exp": now + r.choice([900, 3600, 86400]),
        }
        sig = _b64(r, 256, url=True, pad=False)
    else:
        header = {"alg": r.choice(["HS256", "HS512", "ES256"]), "typ": "JWT"}
        payload = {
            "sub": str(r.randint(1000, 999999)),
            "name": r.choice(FIRST).capitalize(),
            "role": r.choice(["admin", "user", "support", "ops"]),
            "iat": now,
            "exp": now + r.choice([3600, 7 * 86400, 30 * 86400]),
        }
        sig = _b64(r, r.choice([32, 64]), url=True, pad=False)
    return _b64json(header) + "." + _b64json(payload) + "." + sig


def g_pem(r: random.Random) -> str:
    x = r.random()
    if x < 0.3:
        der = (
            bytes.fromhex("30770201010420")
            + r.randbytes(32)
            + bytes.fromhex("a00a06082a8648ce3d030107a144034200")
            + b"\x04"
            + r.randbytes(64)
        )
        return _armour("EC " + PK, _b64raw(der))
    if x < 0.65:
        return _armour("RSA " + PK, _b64raw(_rsa_der(r, False)))
    return _armour(PK, _b64raw(_rsa_der(r, True)))


def g_ssh(r: random.Random) -> str:
    comment = (r.choice(FIRST) + "@" + r.choice(APPS) + "-" + r.choice(STAGES)).encode()
    if r.random() < 0.7:
        pub = _sstr(b"ssh-ed25519") + _sstr(r.randbytes(32))
        secret = _sstr(b"ssh-ed25519") + _sstr(r.randbytes(32)) + _sstr(r.randbytes(64))
    else:
        pub = _sstr(b"ssh-rsa") + _sstr(b"\x01\x00\x01") + _sstr(b"\x00" + r.randbytes(256))
        secret = _sstr(b"ssh-rsa") + r.randbytes(900)
    chk = r.randbytes(4)
    priv = chk + chk + secret + _sstr(comment)
    priv += bytes(range(1, 1 + (-len(priv)) % 8))
    blob = b"openssh-key-v1\x00" + _sstr(b"none") + _sstr(b"none") + _sstr(b"") + (1).to_bytes(4, "big")
    blob += _sstr(pub) + _sstr(priv)
    return _armour("OPENSSH " + PK, _b64raw(blob), 70)


def g_pgp(r: random.Random) -> str:
    body = _wrap(_b64raw(b"\x95\x03\xc6\x04" + r.randbytes(r.randint(450, 900))))
    label = "PGP " + "PRIV" + "ATE KEY BLOCK"
    return DASH + "BEGIN " + label + DASH + "\n\n" + body + "\n=" + _b64(r, 3) + "\n" + DASH + "END " + label + DASH


def g_age(r: random.Random) -> str:
    return "AGE-" + "SECRET-KEY-1" + _rs(r, BECH32.upper(), 58)


def g_dockerhub(r: random.Random) -> str:
    return "dckr" + "_pat_" + _rs(r, B64URL, 27)


def g_nuget(r: random.Random) -> str:
    return "oy" + "2" + _rs(r, LOWNUM, 43)


def g_cargo(r: random.Random) -> str:
    return "ci" + "o" + _rs(r, ALNUM, 32)


def g_postman(r: random.Random) -> str:
    return "PM" + "AK-" + _hex(r, 24) + "-" + _hex(r, 34)


def g_grafana(r: random.Random) -> str:
    return "gl" + "sa_" + _rs(r, ALNUM, 32) + "_" + _hex(r, 8)


def g_hex_key(r: random.Random) -> str:
    return _hex(r, r.choice([32, 64, 64, 96, 128]))


def g_b64_key(r: random.Random) -> str:
    return _b64(r, r.choice([32, 32, 48, 64]))


def g_django(r: random.Random) -> str:
    return _rs(r, DJANGO_CHARS, 50)


def g_generic_token(r: random.Random) -> str:
    x = r.randrange(6)
    if x == 0:
        return _rs(r, ALNUM + "_-", 40)
    if x == 1:
        return _hex(r, 32)
    if x == 2:
        return "11" + _hex(r, 32)
    if x == 3:
        return "00" + _rs(r, ALNUM + "_-", 40)
    if x == 4:
        return _rs(r, ALNUM, 24)
    return _rs(r, ALNUM, 32)


# ----------------------------------------------------------------------------------------------
# generic templates (env-var style) and multilingual chat templates
# ----------------------------------------------------------------------------------------------

GENERIC_ENV = [
    """\
# .env.[[stage]] for [[app]]
NODE_ENV=production
PORT=[[port]]
LOG_LEVEL=info
[[var]]=[[s]]
API_BASE_URL=https://[[host]]/api
""",
    """\
services:
  [[app]]:
    image: registry.[[domain]]/[[app]]:[[ver]]
    restart: unless-stopped
    environment:
      - TZ=Europe/Berlin
      - [[var]]=[[s]]
    ports:
      - "[[port]]:[[port]]"
""",
    """\
  worker:
    build: ./worker
    depends_on: [redis]
    environment:
      QUEUE_NAME: [[app]]-jobs
      [[var]]: "[[s]]"
""",
    """\
[Unit]
Description=[[App]] worker
After=network-online.target

[Service]
User=[[app_]]
Environment="[[var]]=[[s]]"
Environment=RUST_LOG=info
ExecStart=/opt/[[app]]/bin/[[app]] --config /etc/[[app]]/config.toml
Restart=on-failure

[Install]
WantedBy=multi-user.target
""",
    """\
[program:[[app]]]
command=/srv/[[app]]/venv/bin/gunicorn app.wsgi -b 127.0.0.1:[[port]] -w [[n]]
user=www-data
autorestart=true
environment=[[var]]="[[s]]",PYTHONUNBUFFERED="1"
stdout_logfile=/var/log/[[app]].log
""",
    """\
job "[[app]]" {
  datacenters = ["dc1"]
  group "web" {
    task "server" {
      driver = "docker"
      config {
        image = "registry.[[domain]]/[[app]]:[[ver]]"
      }
      env {
        [[var]] = "[[s]]"
        LOG_FORMAT = "json"
      }
    }
  }
}
""",
    """\
    spec:
      containers:
        - name: [[app]]
          image: registry.[[domain]]/[[app]]:[[ver]]
          env:
            - name: LOG_LEVEL
              value: info
            - name: [[var]]
              value: "[[s]]"
""",
    """\
$env:[[var]] = "[[s]]"
& .\\scripts\\deploy.ps1 -Environment [[stage]] -Verbose
""",
    """\
[Environment]::SetEnvironmentVariable("[[var]]", "[[s]]", "Machine")
Restart-Service -Name [[App]]Agent
""",
    """\
Windows Registry Editor Version 5.00

[HKEY_LOCAL_MACHINE\\SOFTWARE\\[[org]]\\[[App]]]
"InstallDir"="C:\\\\Program Files\\\\[[App]]"
"[[var]]"="[[s]]"
"LogLevel"=dword:00000002
""",
    """\
jobs:
  release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: ./scripts/release.sh
        env:
          [[var]]: [[s]]
""",
    """\
variables:
  [[var]]: "[[s]]"
  DOCKER_DRIVER: overlay2

deploy_[[stage]]:
  stage: deploy
  script:
    - ./deploy.sh [[stage]]
""",
    """\
# runbook: re-run the nightly import by hand
export [[var]]='[[s]]'
./bin/import --since [[date]] --dry-run=false
""",
    """\
---
# group_vars/[[stage]]/main.yml
[[app_]]_port: [[port]]
[[var_lower]]: "[[s]]"
[[app_]]_log_level: info
""",
    """\
# values-[[stage]].yaml
replicaCount: [[n]]
image:
  repository: registry.[[domain]]/[[app]]
  tag: "[[ver]]"
extraEnv:
  - name: [[var]]
    value: "[[s]]"
""",
    """\
server.port=[[port]]
spring.application.name=[[app]]
[[prop]]=[[s]]
management.endpoints.web.exposure.include=health,info
""",
    """\
[[[app_]]]
environment = [[stage]]
[[var_lower]] = [[s]]
timeout = 30
""",
    "[[date]]T[[time]]:07Z DEBUG [[app]].config loaded settings: {'env': '[[stage]]', '[[var]]': '[[s]]', "
    "'timeout': 30}",
    """\
region         = "[[region]]"
[[var_lower]] = "[[s]]"
instance_count = [[n]]
""",
    """\
<org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>
  <scope>GLOBAL</scope>
  <id>[[var_lower]]</id>
  <description>[[what]] ([[stage]])</description>
  <secret>[[s]]</secret>
</org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>
""",
    "eas secret:create --scope project --name [[var]] --value [[s]] --type string",
    "docker run -d --name [[app]] -e [[var]]=[[s]] -p [[port]]:[[port]] registry.[[domain]]/[[app]]:[[ver]]",
    """\
config:
  aws:region: [[region]]
  [[app]]:[[var_lower]]: [[s]]
  [[app]]:replicas: "[[n]]"
""",
]

CHAT = [
    ("en", "[[P1]]: can someone update the [[stage]] config? [[what]] is [[s]]\n[[P2]]: done, thx"),
    ("en", "@[[p2]] here's the [[what]] you asked for: [[s]] - please don't paste it anywhere else"),
    ("en", "[[time]] <[[p1]]> [[what]] for [[app]] -> [[s]]"),
    (
        "en",
        "Ticket [[ticket]] - [[app]] [[stage]] returns 401\nReporter: [[email]]\n\nHi support,\n"
        "after the migration the job fails. We are using [[what]] [[s]] - can you check whether it was "
        "revoked?\n\nThanks, [[P1]]",
    ),
    (
        "en",
        "## Postmortem [[date]]: [[app]] degraded\n### Timeline\n- [[time]] deploy of [[ver]]\n"
        "- alerts fire for 5xx on [[host]]\n### Root cause\nThe [[what]] in the [[stage]] config was stale; "
        "the value now in place is [[s]].\n### Action items\n- move it to Vault ([[ticket]])",
    ),
    ("de", "[[P1]]: hier [[what]] (neu): [[s]]\n[[P2]]: danke, trag ich in die Pipeline ein"),
    ("de", "Moin zusammen, [[what]] für [[stage]] lautet jetzt [[s]]. Bitte bis Freitag überall austauschen."),
    ("de", "Kurze Info aus Ticket [[ticket]]: der Kunde hat [[what]] mitgeschickt: [[s]]"),
    ("fr", "Salut [[P2]], voilà [[what]] pour la préprod : [[s]]"),
    ("fr", "[[P1]] : j'ai régénéré [[what]], nouvelle valeur [[s]] - pense à mettre à jour le coffre"),
    ("fr", "Bonjour, suite au ticket [[ticket]], [[what]] utilisé par [[app]] est [[s]]. Merci de vérifier."),
    ("es", "[[P1]]: te paso [[what]] de [[stage]]: [[s]]"),
    ("es", "Ojo equipo, [[what]] nuevo es [[s]] (caduca en 90 días)"),
    ("es", "Hola, abro el ticket [[ticket]] porque [[app]] falla con 401. Estamos usando [[what]] [[s]]"),
    ("pt", "[[P1]]: segue [[what]] do ambiente [[stage]]: [[s]]"),
    ("pt", "pessoal, atualizei [[what]] para [[s]], não compartilhem fora do time"),
    ("pt", "Olá suporte, no chamado [[ticket]] o cliente mandou [[what]]: [[s]]"),
    ("ja", "[[P1]]さん、[[stage]]の[[what]]はこちらです: [[s]]"),
    ("ja", "[[what]]を更新しました -> [[s]] (チャンネル外には共有しないでください)"),
    ("ja", "問い合わせ[[ticket]]: お客様から[[what]]が送られてきました。[[s]]"),
    ("nl", "[[P1]]: hierbij [[what]] voor acceptatie: [[s]]"),
    ("nl", "Ik heb [[what]] vernieuwd, nieuwe waarde is [[s]]. Graag niet doorsturen."),
    ("nl", "Melding [[ticket]]: klant stuurde [[what]] mee in de mail: [[s]]"),
    ("pl", "[[P1]]: przesyłam [[what]] do [[stage]]: [[s]]"),
    ("pl", "zmieniłem [[what]], nowe: [[s]] - nie wrzucajcie tego na kanał ogólny"),
    ("pl", "Zgłoszenie [[ticket]]: klient podał [[what]]: [[s]]"),
]

ML_CHAT = [
    "[[P1]]: here is the key from the old box, please install it on [[host]]\n```\n[[s]]\n```",
    "Hier der Key für [[host]], bitte nicht weiterleiten:\n\n[[s]]\n",
    "Voici la clé pour [[host]] :\n```\n[[s]]\n```\nMerci de la supprimer après usage.",
    "Te pego la clave de [[host]]:\n[[s]]\n",
    "Segue a chave do servidor [[host]]:\n```\n[[s]]\n```",
    "[[host]]用の鍵です。\n```\n[[s]]\n```",
    "Sleutel voor [[host]] (niet delen):\n[[s]]\n",
    "Klucz do [[host]]:\n```\n[[s]]\n```",
    "Ticket [[ticket]]\nCustomer attached their key so we can reproduce:\n\n[[s]]\n\n-- [[P2]], support",
]

PW_LABEL = {
    "en": ["password for [[sys]]", "[[sys]] password"],
    "de": ["Passwort für [[sys]]", "das [[sys]]-Passwort"],
    "fr": ["le mot de passe de [[sys]]", "mot de passe [[sys]]"],
    "es": ["la contraseña de [[sys]]", "clave de [[sys]]"],
    "pt": ["a senha do [[sys]]", "senha de [[sys]]"],
    "ja": ["[[sys]]のパスワード"],
    "nl": ["het wachtwoord van [[sys]]", "[[sys]]-wachtwoord"],
    "pl": ["hasło do [[sys]]", "hasło [[sys]]"],
}
PP_LABEL = {
    "en": ["passphrase for [[sys]]", "[[sys]] passphrase"],
    "de": ["Passphrase für [[sys]]", "die [[sys]]-Passphrase"],
    "fr": ["la phrase de passe de [[sys]]"],
    "es": ["la frase de contraseña de [[sys]]"],
    "pt": ["a frase-senha do [[sys]]"],
    "ja": ["[[sys]]のパスフレーズ"],
    "nl": ["de wachtzin van [[sys]]"],
    "pl": ["fraza hasła do [[sys]]"],
}


# ----------------------------------------------------------------------------------------------
# kind-specific templates
# ----------------------------------------------------------------------------------------------

T_STRIPE_SK = [
    """\
$ bin/rails credentials:show --environment production
aws:
  region: [[region]]
stripe:
  secret_key: [[s]]
  publishable_key: [[pk]]
mailer:
  from: noreply@[[domain]]
""",
    """\
<?php
// config/services.php
return [
    'stripe' => [
        'secret' => env('STRIPE_SECRET', '[[s]]'),
        'currency' => 'eur',
    ],
];
""",
    'curl https://api.stripe.com/v1/customers -u [[s]]: -d email=[[email]] -d name="[[P1]]"',
    """\
Ticket [[ticket]] - payments failing since [[date]]
Hi, our checkout stopped working this morning. This is the key we use in production: [[s]]
Could you check whether it has been restricted? Thanks, [[P1]]
""",
    """\
# application-[[stage]].yml
stripe:
  api-key: [[s]]
  connect-timeout: 5s
""",
]

T_STRIPE_RK = [
    """\
reporting:
  schedule: "0 6 * * *"
  stripe:
    restrictedKey: "[[s]]"
    readOnly: true
""",
    """\
config:
  [[app]]:stripeRestrictedKey: [[s]]
  aws:region: [[region]]
""",
    'stripe.api_key = "[[s]]"  # restricted key: charges read, refunds write',
    "[[P1]]: the finance export uses a restricted key now ([[s]]), the full secret key is gone from the box",
]

T_WHSEC = [
    """\
stripe.webhook.signing-secret=[[s]]
stripe.webhook.tolerance-seconds=300
stripe.webhook.path=/hooks/stripe
""",
    """\
endpoint_secret = "[[s]]"
event = stripe.Webhook.construct_event(payload, sig_header, endpoint_secret)
""",
    "> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is [[s]] (^C to quit)",
    """\
STRIPE_PUBLISHABLE_KEY=[[pk]]
STRIPE_WEBHOOK_SECRET=[[s]]
""",
]

T_TWILIO = [
    """\
TWILIO_ACCOUNT_SID=[[twsid]]
TWILIO_AUTH_TOKEN=[[s]]
TWILIO_FROM=+4915[[phone]]
""",
    "curl -X POST https://api.twilio.com/2010-04-01/Accounts/[[twsid]]/Messages.json "
    '--data-urlencode "Body=test from [[app]]" --data-urlencode "To=+4917[[phone]]" -u [[twsid]]:[[s]]',
    """\
twilio.account-sid=[[twsid]]
twilio.auth-token=[[s]]
twilio.messaging-service-sid=[[mgsid]]
""",
    """\
sms:
  provider: twilio
  accountSid: [[twsid]]
  authToken: "[[s]]"
""",
]

T_SENDGRID = [
    """\
spring.mail.host=smtp.sendgrid.net
spring.mail.port=587
spring.mail.username=apikey
spring.mail.password=[[s]]
spring.mail.properties.mail.smtp.starttls.enable=true
""",
    "# /etc/postfix/sasl_passwd\n[smtp.sendgrid.net]:587 apikey:[[s]]\n",
    """\
EMAIL_HOST = "smtp.sendgrid.net"
EMAIL_HOST_USER = "apikey"
EMAIL_HOST_PASSWORD = "[[s]]"
EMAIL_PORT = 587
""",
    "sg = SendGridAPIClient('[[s]]')\nresponse = sg.send(message)",
]

T_SLACK_TOKEN = [
    """\
slack:
  enabled: true
  botToken: "[[s]]"
  channel: "#alerts-[[stage]]"
""",
    'curl -H "Authorization: Bearer [[s]]" -d channel=[[chan]] -d text="deploy of [[ver]] done" '
    "https://slack.com/api/chat.postMessage",
    'BOT_IDENTITY = {\n    "token": "[[s]]",\n}\nBOT_ADMINS = ("@[[p1]]",)',
    "Environment=HUBOT_SLACK_TOKEN=[[s]]\nEnvironment=HUBOT_NAME=[[app]]bot",
]

T_SLACK_WEBHOOK = [
    """\
receivers:
  - name: team-[[team]]
    slack_configs:
      - api_url: '[[s]]'
        channel: '#[[team]]-alerts'
        send_resolved: true
""",
    "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"Backup on [[host]] finished\"}' [[s]]",
    'slack_webhook_url: "[[s]]"\nnotify_on_failure: true',
    """\
contactPoints:
  - orgId: 1
    name: slack-[[team]]
    receivers:
      - uid: [[shortid]]
        type: slack
        settings:
          url: [[s]]
""",
]

T_GITHUB = [
    "@[[org]]:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=[[s]]\nalways-auth=true",
    '{\n    "github-oauth": {\n        "github.com": "[[s]]"\n    }\n}',
    "$ git remote -v\norigin\thttps://x-access-token:[[s]]@github.com/[[org]]/[[app]].git (fetch)\n"
    "origin\thttps://x-access-token:[[s]]@github.com/[[org]]/[[app]].git (push)",
    "gpr.user=[[p1]]-[[org]]\ngpr.key=[[s]]\norg.gradle.jvmargs=-Xmx2g",
    """\
<server>
  <id>github</id>
  <username>[[p1]]</username>
  <password>[[s]]</password>
</server>
""",
    """\
<packageSourceCredentials>
  <github>
    <add key="Username" value="[[p1]]" />
    <add key="ClearTextPassword" value="[[s]]" />
  </github>
</packageSourceCredentials>
""",
]

T_GITLAB = [
    "@[[org]]:registry=https://gitlab.[[domain]]/api/v4/projects/[[num]]/packages/npm/\n"
    "//gitlab.[[domain]]/api/v4/projects/[[num]]/packages/npm/:_authToken=[[s]]",
    'curl --header "PRIVATE-TOKEN: [[s]]" "https://gitlab.[[domain]]/api/v4/projects/[[num]]/pipelines?status=failed"',
    """\
concurrent = 4

[[runners]]
  name = "[[app]]-runner"
  url = "https://gitlab.[[domain]]/"
  token = "[[s]]"
  executor = "docker"
""",
    "[global]\nindex-url = https://__token__:[[s]]@gitlab.[[domain]]/api/v4/projects/[[num]]/packages/pypi/simple",
]

T_NPM = [
    "//registry.npmjs.org/:_authToken=[[s]]\nregistry=https://registry.npmjs.org/\nsave-exact=true",
    'npmRegistryServer: "https://registry.npmjs.org"\nnpmAuthToken: "[[s]]"\nnodeLinker: node-modules',
    "NPM_TOKEN=[[s]] npm publish --access public",
]

T_PYPI = [
    "[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = [[s]]\n",
    "twine upload -u __token__ -p [[s]] dist/*",
    "poetry config pypi-token.pypi [[s]]",
    "[[P1]]: CI upload broke, I put the project-scoped token in the job: [[s]]",
]

T_AWS_ID = [
    '{"eventVersion": "1.08", "userIdentity": {"type": "IAMUser", "principalId": "[[aida]]", '
    '"arn": "arn:aws:iam::[[acct]]:user/[[p1]]", "accountId": "[[acct]]", "accessKeyId": "[[s]]", '
    '"userName": "[[p1]]"}, "eventTime": "[[date]]T[[time]]:11Z", "eventSource": "s3.amazonaws.com", '
    '"eventName": "ListBuckets", "awsRegion": "[[region]]"}',
    """\
$ aws iam list-access-keys --user-name ci-[[app]]
{
    "AccessKeyMetadata": [
        {
            "UserName": "ci-[[app]]",
            "AccessKeyId": "[[s]]",
            "Status": "Active",
            "CreateDate": "[[date]]T08:12:44+00:00"
        }
    ]
}
""",
    "We have become aware that the AWS Access Key [[s]], belonging to IAM User ci-[[app]], along with the "
    "corresponding Secret Key is publicly available online at https://github.com/[[org]]/[[app]].",
    "s3 = boto3.client('s3', aws_access_key_id='[[s]]', aws_secret_access_key=os.environ['AWS_SECRET'])",
]

T_AWS_SECRET = [
    """\
    environment:
      AWS_ACCESS_KEY_ID: ${AWS_ACCESS_KEY_ID}
      AWS_SECRET_ACCESS_KEY: [[s]]
      AWS_DEFAULT_REGION: [[region]]
""",
    """\
aws_access_key: "{{ lookup('env', 'AWS_ACCESS_KEY_ID') }}"
aws_secret_key: "[[s]]"
aws_region: [[region]]
""",
    "[default]\nhost_base = s3.amazonaws.com\nhost_bucket = %(bucket)s.s3.amazonaws.com\nsecret_key = [[s]]\n",
    "Ticket [[ticket]]: key id ending ...[[last4]] (full id in the IAM console), secret access key: [[s]]",
    "[s3-backup]\ntype = s3\nprovider = AWS\nenv_auth = false\nsecret_access_key = [[s]]\nregion = [[region]]\n",
]

T_AZURE_STORAGE = [
    '{\n  "ConnectionStrings": {\n    "Blob": "DefaultEndpointsProtocol=https;AccountName=[[stacct]];'
    'AccountKey=[[s]];EndpointSuffix=core.windows.net"\n  }\n}',
    """\
[
  {
    "creationTime": "[[date]]T10:02:11.882552+00:00",
    "keyName": "key1",
    "permissions": "FULL",
    "value": "[[s]]"
  }
]
""",
    """\
terraform {
  backend "azurerm" {
    storage_account_name = "[[stacct]]"
    container_name       = "tfstate"
    key                  = "[[app]].tfstate"
    access_key           = "[[s]]"
  }
}
""",
    "spring.cloud.azure.storage.blob.account-name=[[stacct]]\nspring.cloud.azure.storage.blob.account-key=[[s]]",
]

T_AZURE_SAS = [
    "https://[[stacct]].blob.core.windows.net/exports/[[app]]-[[date]].csv?sv=2022-11-02&ss=b&srt=co&sp=rl"
    "&se=[[date2]]T23:59:59Z&st=[[date]]T00:00:00Z&spr=https&sig=[[s]]",
    "[azblob]\ntype = azureblob\nsas_url = https://[[stacct]].blob.core.windows.net/backups?sp=racwl"
    "&st=[[date]]T09:00:00Z&se=[[date2]]T17:00:00Z&spr=https&sv=2022-11-02&sr=c&sig=[[s]]",
    "[[P1]]: link for the auditors (valid 7 days): https://[[stacct]].blob.core.windows.net/audit/report.zip"
    "?sv=2022-11-02&sr=b&sp=r&se=[[date2]]T00:00:00Z&sig=[[s]]",
    'azcopy copy ./dump.sql "https://[[stacct]].blob.core.windows.net/db?sv=2022-11-02&sr=c&sp=cw'
    '&se=[[date2]]T12:00:00Z&sig=[[s]]"',
]

T_AZURE_CLIENT_SECRET = [
    """\
  "AzureAd": {
    "Instance": "https://login.microsoftonline.com/",
    "TenantId": "[[uuid]]",
    "ClientId": "[[uuid2]]",
    "ClientSecret": "[[s]]"
  },
""",
    """\
{
  "appId": "[[uuid2]]",
  "displayName": "sp-[[app]]-[[stage]]",
  "password": "[[s]]",
  "tenant": "[[uuid]]"
}
""",
    """\
provider "azurerm" {
  features {}
  subscription_id = "[[uuid3]]"
  client_id       = "[[uuid2]]"
  client_secret   = "[[s]]"
  tenant_id       = "[[uuid]]"
}
""",
    "spring.cloud.azure.active-directory.credential.client-id=[[uuid2]]\n"
    "spring.cloud.azure.active-directory.credential.client-secret=[[s]]",
]

T_GCP_KEY = [
    """\
{
  "type": "service_account",
  "project_id": "[[gproj]]",
  "private_key_id": "[[hex40]]",
  "private_key": "[[s]]",
  "client_email": "[[app]]@[[gproj]].iam.gserviceaccount.com",
  "client_id": "[[num21]]",
  "auth_uri": "https://accounts.google.com/o/oauth2/auth",
  "token_uri": "https://oauth2.googleapis.com/token"
}
""",
    'GOOGLE_CREDENTIALS_JSON=\'{"type":"service_account","project_id":"[[gproj]]","private_key":"[[s]]",'
    '"client_email":"[[app]]@[[gproj]].iam.gserviceaccount.com"}\'',
    'Ticket [[ticket]]: customer pasted part of their key file:\n"private_key": "[[s]]",\n'
    '"client_email": "[[app]]@[[gproj]].iam.gserviceaccount.com"',
    'gcs:\n  bucket: [[org]]-[[stage]]-assets\n  credentialsJson: \'{"type": "service_account", '
    '"private_key": "[[s]]", "client_email": "[[app]]@[[gproj]].iam.gserviceaccount.com"}\'',
]

T_GOOGLE_API = [
    'curl "https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent?key=[[s]]" '
    '-H "Content-Type: application/json" -d @prompt.json',
    "'youtube' => [\n    'api_key' => '[[s]]',\n    'channel_id' => 'UC[[upper10]]',\n],",
    'genai.configure(api_key="[[s]]")\nmodel = genai.GenerativeModel("gemini-1.5-pro")',
    "# server-side geocoding, IP restricted\ngeocoder.api-key=[[s]]\ngeocoder.region=de",
]

T_GOCSPX = [
    '{"web":{"client_id":"[[num12]]-[[lower20]].apps.googleusercontent.com","project_id":"[[gproj]]",'
    '"auth_uri":"https://accounts.google.com/o/oauth2/auth","token_uri":"https://oauth2.googleapis.com/token",'
    '"client_secret":"[[s]]","redirect_uris":["https://[[host]]/auth/callback"]}}',
    "spring.security.oauth2.client.registration.google.client-id=[[num12]]-[[lower20]].apps.googleusercontent.com\n"
    "spring.security.oauth2.client.registration.google.client-secret=[[s]]\n"
    "spring.security.oauth2.client.registration.google.scope=openid,profile,email",
    "[auth.google]\nenabled = true\nclient_id = [[num12]]-[[lower20]].apps.googleusercontent.com\n"
    "client_secret = [[s]]\nallowed_domains = [[domain]]",
]

T_DIGITALOCEAN = [
    "access-token: [[s]]\ncontext: default\noutput: text\n",
    'do_token = "[[s]]"\nregion   = "fra1"\ndroplet_size = "s-2vcpu-4gb"',
    'provider: digitalocean\ndigitalocean:\n  apiToken: "[[s]]"\ndomainFilters:\n  - [[domain]]',
    'curl -X GET -H "Authorization: Bearer [[s]]" "https://api.digitalocean.com/v2/droplets?tag_name=[[app]]"',
]

T_HEROKU = [
    "machine api.heroku.com\n  login [[email]]\n  password [[s]]\nmachine git.heroku.com\n  login [[email]]\n"
    "  password [[s]]\n",
    "HEROKU_API_KEY=[[s]] heroku config:set --app [[app]]-[[stage]] LOG_LEVEL=debug",
    "heroku:\n  app_name: [[app]]-[[stage]]\n  api_key: [[s]]\n  email: [[email]]",
]

T_SHOPIFY = [
    'curl -H "X-Shopify-Access-Token: [[s]]" "https://[[shop]].myshopify.com/admin/api/2024-04/orders.json?status=any"',
    "SHOPIFY_SHOP=[[shop]].myshopify.com\nSHOPIFY_ADMIN_TOKEN=[[s]]\nSHOPIFY_API_VERSION=2024-04",
    'session = shopify.Session("[[shop]].myshopify.com", "2024-04", "[[s]]")\n'
    "shopify.ShopifyResource.activate_session(session)",
]

T_MAILGUN = [
    "curl -s --user 'api:[[s]]' https://api.eu.mailgun.net/v3/mg.[[domain]]/messages "
    "-F from='[[App]] <noreply@[[domain]]>' -F to=[[email]] -F subject='Test'",
    "MAIL_MAILER=mailgun\nMAILGUN_DOMAIN=mg.[[domain]]\nMAILGUN_SECRET=[[s]]\nMAILGUN_ENDPOINT=api.eu.mailgun.net",
    'ANYMAIL = {\n    "MAILGUN_API_KEY": "[[s]]",\n    "MAILGUN_SENDER_DOMAIN": "mg.[[domain]]",\n}',
]

T_MAILCHIMP = [
    'client.set_config({"api_key": "[[s]]", "server": "[[mcdc]]"})',
    "MAILCHIMP_API_KEY=[[s]]\nMAILCHIMP_LIST_ID=[[hex8]]ab\n",
    'curl --user "anystring:[[s]]" https://[[mcdc]].api.mailchimp.com/3.0/lists',
]

T_DATADOG = [
    "api_key: [[s]]\nsite: datadoghq.eu\nlogs_enabled: true\napm_config:\n  enabled: true\n",
    "datadog:\n  apiKey: [[s]]\n  site: datadoghq.com\n  logs:\n    enabled: true\n    containerCollectAll: true",
    "docker run -d --name dd-agent -e DD_API_KEY=[[s]] -e DD_SITE=datadoghq.eu "
    "-v /var/run/docker.sock:/var/run/docker.sock:ro gcr.io/datadoghq/agent:7",
]

T_NEWRELIC = [
    "common: &default_settings\n  license_key: '[[s]]'\n  app_name: [[App]] ([[stage]])\n  log_level: info",
    "[newrelic]\nlicense_key = [[s]]\napp_name = [[App]]\nmonitor_mode = true\n",
    "NEW_RELIC_LICENSE_KEY=[[s]] NEW_RELIC_APP_NAME=[[app]] newrelic-admin run-program gunicorn app:app",
]

T_SENTRY_DSN = [
    'sentry_sdk.init(\n    dsn="https://[[sentrypub]]:[[s]]@o[[sorg]].ingest.sentry.io/[[sproj]]",\n'
    '    traces_sample_rate=0.2,\n    environment="[[stage]]",\n)',
    "SENTRY_DSN=https://[[sentrypub]]:[[s]]@o[[sorg]].ingest.sentry.io/[[sproj]]\nSENTRY_ENVIRONMENT=[[stage]]",
    "RAVEN_CONFIG = {\n    'dsn': 'https://[[sentrypub]]:[[s]]@sentry.[[domain]]/[[n]]',\n    'release': '[[ver]]',\n}",
    "dsn=https://[[sentrypub]]:[[s]]@sentry.[[domain]]/[[n]]\nenvironment=[[stage]]\nrelease=[[app]]@[[ver]]",
    "sentry:\n  dsn: https://[[sentrypub]]:[[s]]@o[[sorg]].ingest.sentry.io/[[sproj]]\n  sampleRate: 0.5",
    "[[P1]]: use the old DSN with secret for the legacy raven client: "
    "https://[[sentrypub]]:[[s]]@o[[sorg]].ingest.sentry.io/[[sproj]]",
]

T_SENTRY_AUTH = [
    "[defaults]\nurl = https://sentry.io/\norg = [[org]]\nproject = [[app]]\n\n[auth]\ntoken = [[s]]\n",
    "# DO NOT commit this file to your repository!\n"
    "# The SENTRY_AUTH_TOKEN variable is picked up by the Sentry Build Plugin.\n"
    "SENTRY_AUTH_TOKEN=[[s]]\n",
    "sentry-cli --auth-token [[s]] releases new [[app]]@[[ver]] --org [[org]]",
]

T_VAULT = [
    """\
$ vault login -method=userpass username=[[p1]]
Success! You are now authenticated. The token information displayed below
is already stored in the token helper.

Key                    Value
---                    -----
token                  [[s]]
token_duration         768h
token_renewable        true
token_policies         ["default" "[[team]]"]
""",
    'vault {\n  address = "https://vault.[[domain]]:8200"\n  token   = "[[s]]"\n  renew_token = false\n}',
    'vault {\n  enabled = true\n  address = "https://vault.[[domain]]:8200"\n  token   = "[[s]]"\n'
    '  create_from_role = "nomad-cluster"\n}',
    'curl --header "X-Vault-Token: [[s]]" https://vault.[[domain]]:8200/v1/secret/data/[[app]]/[[stage]]',
]

T_DOPPLER = [
    "doppler configure set token [[s]] --scope /srv/[[app]]",
    "kubectl create secret generic doppler-token-secret --namespace doppler-operator-system "
    "--from-literal=serviceToken=[[s]]",
    "docker run --rm -e DOPPLER_TOKEN='[[s]]' registry.[[domain]]/[[app]]:[[ver]] doppler run -- ./start.sh",
]

T_LINEAR = [
    'curl -X POST -H "Content-Type: application/json" -H "Authorization: [[s]]" '
    '--data \'{ "query": "{ viewer { id name } }" }\' https://api.linear.app/graphql',
    'const client = new LinearClient({ apiKey: "[[s]]" });',
    "LINEAR_API_KEY=[[s]]\nLINEAR_TEAM_KEY=[[upper10]]",
]

T_NOTION = [
    "curl 'https://api.notion.com/v1/databases/[[hex32]]/query' -H 'Authorization: Bearer [[s]]' "
    "-H 'Notion-Version: 2022-06-28' -X POST",
    'const notion = new Client({ auth: "[[s]]" });',
    "NOTION_TOKEN=[[s]]\nNOTION_DATABASE_ID=[[hex32]]",
]

T_OPENAI = [
    'client = OpenAI(api_key="[[s]]")\nresp = client.chat.completions.create(model="gpt-4o", messages=msgs)',
    '{\n  "models": [\n    {\n      "title": "GPT-4o",\n      "provider": "openai",\n      "model": "gpt-4o",\n'
    '      "apiKey": "[[s]]"\n    }\n  ]\n}',
    "model_list:\n  - model_name: gpt-4o\n    litellm_params:\n      model: openai/gpt-4o\n      api_key: [[s]]",
    '# ~/.zshrc\nexport PATH="$HOME/.local/bin:$PATH"\nexport OPENAI_API_KEY="[[s]]"',
]

T_ANTHROPIC = [
    'client = anthropic.Anthropic(api_key="[[s]]")',
    'curl https://api.anthropic.com/v1/messages -H "x-api-key: [[s]]" -H "anthropic-version: 2023-06-01" '
    '-H "content-type: application/json" -d @req.json',
    "model_list:\n  - model_name: claude\n    litellm_params:\n      model: anthropic/claude-3-5-sonnet\n"
    "      api_key: [[s]]",
]

T_HF = [
    'from huggingface_hub import login\nlogin(token="[[s]]")',
    "git clone https://[[p1]]:[[s]]@huggingface.co/[[org]]/[[app]]-model",
    "HF_TOKEN=[[s]] python train.py --push_to_hub --hub_model_id [[org]]/[[app]]-ft",
]

T_DISCORD = [
    '{\n  "token": "[[s]]",\n  "prefix": "!",\n  "ownerId": "[[num12]]"\n}',
    'bot.run("[[s]]")',
    "DISCORD_TOKEN=[[s]]\nGUILD_ID=[[num12]]",
]

T_TELEGRAM = [
    'curl "https://api.telegram.org/bot[[s]]/sendMessage?chat_id=-100[[num10]]&text=backup+ok"',
    "telegram_configs:\n  - bot_token: '[[s]]'\n    chat_id: -100[[num10]]\n    parse_mode: HTML",
    'app = ApplicationBuilder().token("[[s]]").build()',
]

T_JWT = [
    'curl -H "Authorization: Bearer [[s]]" https://[[host]]/api/v1/orders?limit=50',
    "[[date]] [[time]]:02 WARN auth: token rejected for request [[uuid]] token=[[s]]",
    "SUPABASE_URL=https://[[lower20]].supabase.co\nSUPABASE_SERVICE_ROLE_KEY=[[s]]",
    '{"key": "accessToken", "value": "[[s]]", "type": "secret", "enabled": true}',
    "Request headers\n:authority: [[host]]\n:method: GET\nauthorization: Bearer [[s]]\naccept: application/json",
]

T_PEM = [
    "$ sudo cat /etc/nginx/ssl/[[host]].key\n[[s]]\n",
    "# /etc/haproxy/certs/[[host]].pem (cert + key bundle)\n[[cert]]\n[[s]]\n",
    "$ terraform output -raw tls_private_key\n[[s]]\n",
    "[[P1]]: this is the key that belongs to the wildcard cert, needed on [[host]]\n[[s]]",
]

T_SSH = [
    "$ cat ~/.ssh/id_ed25519\n[[s]]\n",
    "SSH_PRIVATE_KEY (type: file, protected):\n[[s]]\n",
    "deploy key for [[host]] (ansible_ssh_private_key_file points at this):\n[[s]]\n",
]

T_PGP = [
    "$ gpg --export-secret-keys --armor [[email]]\n[[s]]\n",
    "Ticket [[ticket]]: signing fails in CI, here is the key we import in the job\n\n[[s]]\n",
]

T_AGE = [
    "# created: [[date]]T[[time]]:41+02:00\n# public key: [[agepub]]\n[[s]]\n",
    "export SOPS_AGE_KEY=[[s]]\nsops -d secrets/[[stage]].enc.yaml > /tmp/[[stage]].yaml",
    "[[P1]]: the sops key for [[stage]] (public [[agepub]]) is [[s]]",
]

T_DOCKERHUB = [
    "docker login -u [[org]]bot -p [[s]]",
    "      - uses: docker/login-action@v3\n        with:\n          username: [[org]]bot\n          password: [[s]]",
    "echo '[[s]]' | docker login --username [[org]]bot --password-stdin",
]

T_NUGET = [
    "dotnet nuget push bin/Release/[[App]].[[ver]].nupkg --api-key [[s]] --source https://api.nuget.org/v3/index.json",
    '<configuration>\n  <apikeys>\n    <add key="https://www.nuget.org/api/v2/package" value="[[s]]" />\n'
    "  </apikeys>\n</configuration>",
    "nuget setapikey [[s]] -source https://www.nuget.org/api/v2/package",
]

T_CARGO = [
    '# ~/.cargo/credentials.toml\n[registry]\ntoken = "[[s]]"\n',
    "cargo login [[s]]",
    "CARGO_REGISTRY_TOKEN=[[s]] cargo publish --locked",
]

T_POSTMAN = [
    'curl -H "X-Api-Key: [[s]]" https://api.getpostman.com/collections',
    "newman run https://api.getpostman.com/collections/[[uuid]]?apikey=[[s]] -e [[stage]].postman_environment.json",
]

T_GRAFANA = [
    'provider "grafana" {\n  url  = "https://grafana.[[domain]]"\n  auth = "[[s]]"\n}',
    'curl -H "Authorization: Bearer [[s]]" https://grafana.[[domain]]/api/dashboards/uid/[[shortid]]',
    "grafana:\n  url: https://grafana.[[domain]]\n  serviceAccountToken: [[s]]",
]

T_PASSWORD = [
    "[db]\n[[dbhost]] ansible_host=[[ip]] ansible_user=[[user]] ansible_password=[[s]]\n\n[db:vars]\n"
    "ansible_python_interpreter=/usr/bin/python3",
    'ansible_user: [[user]]\nansible_become: true\nansible_become_pass: "[[s]]"',
    'postgresql:\n  auth:\n    username: [[user]]\n    password: "[[s]]"\n    database: [[db]]\n  primary:\n'
    "    persistence:\n      size: 20Gi",
    "<settings>\n  <servers>\n    <server>\n      <id>nexus-releases</id>\n      <username>[[user]]</username>\n"
    "      <password>[[s]]</password>\n    </server>\n  </servers>\n</settings>",
    "nexusUsername=[[user]]\nnexusPassword=[[s]]\norg.gradle.parallel=true",
    '<packageSourceCredentials>\n  <internal>\n    <add key="Username" value="[[user]]" />\n'
    '    <add key="ClearTextPassword" value="[[s]]" />\n  </internal>\n</packageSourceCredentials>',
    "[inet_http_server]\nport=127.0.0.1:9001\nusername=admin\npassword=[[s]]",
    "userlist ops_users\n    user admin insecure-password [[s]]\n\nfrontend stats\n    bind *:8404\n"
    "    stats enable\n    stats uri /stats\n    acl auth_ok http_auth(ops_users)",
    "<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n  <scope>GLOBAL</scope>\n"
    "  <id>[[app]]-deploy</id>\n  <username>[[user]]</username>\n  <password>[[s]]</password>\n"
    "</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>",
    r"""Windows Registry Editor Version 5.00

[HKEY_LOCAL_MACHINE\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Winlogon]
"AutoAdminLogon"="1"
"DefaultUserName"="kiosk"
"DefaultPassword"="[[s]]"
""",
    '$pw = ConvertTo-SecureString "[[s]]" -AsPlainText -Force\n'
    "$cred = New-Object System.Management.Automation.PSCredential('[[user]]', $pw)\n"
    "Invoke-Command -ComputerName [[host]] -Credential $cred -ScriptBlock { Restart-Service W3SVC }",
    '{\n    "http-basic": {\n        "repo.[[domain]]": {\n            "username": "[[user]]",\n'
    '            "password": "[[s]]"\n        }\n    }\n}',
    "production:\n  adapter: postgresql\n  host: [[dbhost]]\n  database: [[db]]\n  username: [[user]]\n"
    '  password: "[[s]]"\n  pool: 10',
    "[client]\nuser=[[user]]\npassword=[[s]]\nhost=[[dbhost]]\n",
    "[security]\nadmin_user = admin\nadmin_password = [[s]]\ncookie_secure = true",
    "[[dbhost]]:5432:[[db]]:[[user]]:[[s]]",
    "spring:\n  datasource:\n    url: jdbc:postgresql://[[dbhost]]:5432/[[db]]\n    username: [[user]]\n"
    "    password: '[[s]]'",
    "<UserAccounts>\n  <AdministratorPassword>\n    <Value>[[s]]</Value>\n    <PlainText>true</PlainText>\n"
    "  </AdministratorPassword>\n</UserAccounts>",
    "spring.rabbitmq.host=[[host]]\nspring.rabbitmq.username=[[user]]\nspring.rabbitmq.password=[[s]]",
]

T_CONN = [
    "spring.datasource.url=jdbc:postgresql://[[dbhost]]:5432/[[db]]?user=[[user]]&password=[[s]]&sslmode=require",
    "jdbc:sqlserver://[[dbhost]]:1433;databaseName=[[db]];user=[[user]];password=[[s]];encrypt=true",
    "jdbc.url=jdbc:oracle:thin:[[user]]/[[s]]@//[[dbhost]]:1521/ORCLPDB1",
    '"DefaultConnection": "Server=tcp:[[org]]-sql.database.windows.net,1433;Initial Catalog=[[db]];'
    'User ID=[[user]];Password=[[s]];Encrypt=True;TrustServerCertificate=False;"',
    "SQLALCHEMY_DATABASE_URI = 'postgresql+psycopg2://[[user]]:[[s]]@[[dbhost]]:5432/[[db]]'",
    'engine = create_engine("mysql+pymysql://[[user]]:[[s]]@[[dbhost]]/[[db]]?charset=utf8mb4")',
    "MONGODB_URI=mongodb+srv://[[user]]:[[s]]@cluster0.[[shortid]].mongodb.net/[[db]]?retryWrites=true&w=majority",
    "REDIS_URL=redis://:[[s]]@[[host]]:6379/0",
    "cache:\n  url: rediss://default:[[s]]@[[shortid]].cache.[[domain]]:6380/1",
    "redis-cli -h [[host]] -p 6379 -a [[s]] --no-auth-warning INFO replication",
    "broker_url = 'amqp://[[user]]:[[s]]@rabbitmq.[[domain]]:5672/[[app]]'",
    "spring.rabbitmq.addresses=amqps://[[user]]:[[s]]@rabbitmq.[[domain]]:5671/[[app]]",
    'ldapsearch -x -H ldaps://ldap.[[domain]] -D "cn=[[user]],ou=services,dc=[[org]],dc=local" -w [[s]] '
    '-b "dc=[[org]],dc=local" "(uid=[[p1]])"',
    "[domain/[[org]]]\nid_provider = ldap\nldap_uri = ldaps://ldap.[[domain]]\n"
    "ldap_default_bind_dn = cn=[[user]],ou=services,dc=[[org]],dc=local\nldap_default_authtok = [[s]]",
    'conn = pyodbc.connect("Driver={ODBC Driver 18 for SQL Server};Server=[[dbhost]];Database=[[db]];'
    'Uid=[[user]];Pwd=[[s]];Encrypt=yes;")',
    "[[[App]]DSN]\nDriver = PostgreSQL Unicode\nServername = [[dbhost]]\nDatabase = [[db]]\nUserName = [[user]]\n"
    "Password = [[s]]\nPort = 5432",
    "Host=[[dbhost]];Port=5432;Database=[[db]];Username=[[user]];Password=[[s]];SSL Mode=Require",
    "psql 'postgresql://[[user]]:[[s]]@[[dbhost]]:5432/[[db]]?sslmode=require' -c 'select now()'",
    "spring.data.mongodb.uri=mongodb://[[user]]:[[s]]@[[dbhost]]:27017/[[db]]?authSource=admin",
    "DATABASE_URL=mysql://[[user]]:[[s]]@[[dbhost]]:3306/[[db]]",
]

T_URLAUTH = [
    "$ git remote -v\norigin\thttps://[[user]]:[[s]]@git.[[domain]]/[[team]]/[[app]].git (fetch)\n"
    "origin\thttps://[[user]]:[[s]]@git.[[domain]]/[[team]]/[[app]].git (push)",
    "[global]\nindex-url = https://[[user]]:[[s]]@nexus.[[domain]]/repository/pypi-all/simple\ntimeout = 60",
    'maven {\n    url "https://[[user]]:[[s]]@artifactory.[[domain]]/artifactory/libs-release"\n}',
    "webhook_url: https://admin:[[s]]@jenkins.[[domain]]/job/[[app]]-deploy/buildWithParameters?ENV=[[stage]]",
    "remote_write:\n  - url: https://[[user]]:[[s]]@metrics.[[domain]]/api/v1/write",
    "ELASTICSEARCH_URL=https://elastic:[[s]]@es.[[domain]]:9200",
    "curl -u [[user]]:[[s]] https://nexus.[[domain]]/service/rest/v1/components?repository=releases",
    "[[P1]]: the mirror is at https://[[user]]:[[s]]@mirror.[[domain]]/debian/ - add it to sources.list",
    'registry-mirrors: ["https://[[user]]:[[s]]@registry.[[domain]]"]',
]

T_PASTED = [
    "[[P1]]: hier das neue Passwort für [[sys]]: [[s]]\n[[P2]]: danke!",
    "[[P1]]: la contraseña del staging es [[s]] (usuario [[user]])",
    "[[P1]] : le mot de passe temporaire pour [[email]] est [[s]], il faudra le changer à la première connexion",
    "Olá [[P2]], a senha provisória do [[sys]] é [[s]]",
    "[[P1]]さん、[[sys]]の初期パスワードは [[s]] です。ログイン後に変更してください。",
    "Tijdelijk wachtwoord voor [[email]]: [[s]] - graag direct wijzigen.",
    "Hasło tymczasowe do [[sys]]: [[s]] (użytkownik [[user]])",
    "Temporary password for [[email]]: [[s]] (must be changed at first login)",
    "Ticket [[ticket]]\nStatus: waiting for customer\n\nHi [[P2]], I've reset the account. You can log in as "
    "[[user]] with [[s]] and set your own password afterwards.",
    "[[P1]]: pw for [[sys]] is [[s]]\n[[P2]]: 👍",
]

T_PASSPHRASE = [
    "BORG_PASSPHRASE='[[s]]' borg create --stats ::{hostname}-{now} /etc /srv",
    'RESTIC_REPOSITORY=s3:s3.[[region]].amazonaws.com/[[org]]-backup\nRESTIC_PASSWORD="[[s]]"',
    "echo '[[s]]' > ~/.ansible/vault_pass.txt && chmod 600 ~/.ansible/vault_pass.txt",
    'ssh-keygen -t ed25519 -C "[[email]]" -N "[[s]]" -f ~/.ssh/deploy_[[app_]]',
    "export PASSPHRASE='[[s]]'\nduplicity /srv/data s3://s3.[[region]].amazonaws.com/[[org]]-dup",
    "signing.keyId=[[hex8]]\nsigning.password=[[s]]\nsigning.secretKeyRingFile=/home/[[p1]]/.gnupg/secring.gpg",
]

T_KEYSTORE = [
    'signingConfigs {\n    release {\n        storeFile file("[[app]]-release.jks")\n        storePassword "[[s]]"\n'
    '        keyAlias "upload"\n        keyPassword "[[s]]"\n    }\n}',
    'signingConfigs {\n    create("release") {\n        storeFile = file("keystore/release.jks")\n'
    '        storePassword = "[[s]]"\n        keyAlias = "[[app]]"\n'
    '        keyPassword = System.getenv("ANDROID_KEY_PASSWORD")\n    }\n}',
    "storePassword=[[s]]\nkeyPassword=[[s]]\nkeyAlias=upload\nstoreFile=/Users/[[p1]]/keys/upload-keystore.jks",
    "keytool -importkeystore -srckeystore old.jks -destkeystore new.p12 -deststoretype pkcs12 -srcstorepass [[s]] "
    "-deststorepass [[s]]",
    "server.ssl.key-store=classpath:keystore.p12\nserver.ssl.key-store-password=[[s]]\n"
    "server.ssl.key-store-type=PKCS12",
    '<Connector port="8443" protocol="org.apache.coyote.http11.Http11NioProtocol" SSLEnabled="true"\n'
    '           keystoreFile="conf/[[host]].jks" keystorePass="[[s]]" />',
    "MYAPP_UPLOAD_STORE_FILE=my-upload-key.keystore\nMYAPP_UPLOAD_KEY_ALIAS=my-key-alias\n"
    "MYAPP_UPLOAD_STORE_PASSWORD=[[s]]\nMYAPP_UPLOAD_KEY_PASSWORD=[[s]]",
    '  match(type: "appstore")\n  ENV["MATCH_PASSWORD"] = "[[s]]"',
]

T_HEX = [
    "$ cat config/master.key\n[[s]]\n",
    "APP_ENV=prod\nAPP_SECRET=[[s]]\nDATABASE_URL=${DATABASE_URL}",
    "production:\n  secret_key_base: [[s]]\n  active_record_encryption:\n    key_derivation: sha256",
    'app.config["SECRET_KEY"] = "[[s]]"',
    'webhooks:\n  signing:\n    algorithm: HMAC-SHA256\n    secret: "[[s]]"',
    "hmac.new(bytes.fromhex('[[s]]'), body, hashlib.sha256).hexdigest()",
]

T_B64 = [
    "APP_NAME=[[App]]\nAPP_ENV=production\nAPP_KEY=base64:[[s]]\nAPP_DEBUG=false",
    'datacenter = "dc1"\ndata_dir = "/opt/consul"\nencrypt = "[[s]]"\nserver = true\nbootstrap_expect = 3',
    'server {\n  enabled = true\n  bootstrap_expect = 3\n  encrypt = "[[s]]"\n}',
    "resources:\n  - resources:\n      - secrets\n    providers:\n      - aescbc:\n          keys:\n"
    "            - name: key1\n              secret: [[s]]\n      - identity: {}",
    "jwt.secret=[[s]]\njwt.expiration=3600",
    'session:\n  cookieName: [[app]]_sid\n  secret: "[[s]]"',
]

T_DJANGO = [
    "# SECURITY WARNING: keep the secret key used in production secret!\nSECRET_KEY = '[[s]]'\n\nDEBUG = False\n"
    "ALLOWED_HOSTS = ['[[host]]']",
    "DJANGO_SETTINGS_MODULE=[[app_]].settings.prod\nDJANGO_SECRET_KEY='[[s]]'",
    "django:\n  secretKey: '[[s]]'\n  allowedHosts: \"[[host]]\"",
    "django_secret_key: '[[s]]'\ndjango_debug: false",
    "            - name: DJANGO_SECRET_KEY\n              value: '[[s]]'",
    "[[P1]]: prod SECRET_KEY for [[app]] is '[[s]]', please put it into the vault",
    "Hier der SECRET_KEY für [[app]] ([[stage]]): '[[s]]'",
]

T_GENERIC_TOKEN = [
    "EXPO_TOKEN=[[s]] eas build --platform ios --profile production --non-interactive",
    "ALGOLIA_APP_ID=[[upper10]]\nALGOLIA_ADMIN_API_KEY=[[s]]",
    'curl -X GET "https://api.cloudflare.com/client/v4/user/tokens/verify" -H "Authorization: Bearer [[s]]"',
    "curl -X POST -u [[p1]]:[[s]] https://jenkins.[[domain]]/job/[[app]]-deploy/buildWithParameters?ENV=[[stage]]",
    'curl -H "Authorization: SSWS [[s]]" https://[[org]].okta.com/api/v1/users?limit=25',
    "vercel deploy --prod --token [[s]]",
    'curl -H "Authorization: Token token=[[s]]" https://api.pagerduty.com/incidents?statuses[]=triggered',
]


# ----------------------------------------------------------------------------------------------
# kind table
# ----------------------------------------------------------------------------------------------


def _kind(name, gen, label, envs, tpls, generic=True, chat="line", lab=None, systems=None):
    return {
        "kind": name,
        "gen": gen,
        "label": label,
        "envs": envs,
        "tpls": tpls,
        "generic": generic,
        "chat": chat,
        "lab": lab,
        "systems": systems or [],
    }


PW_SYSTEMS = ["[[dbhost]]", "[[app]]-[[stage]]", "Jenkins", "Grafana", "Nexus", "RabbitMQ", "VPN", "LDAP bind"]

KINDS = [
    _kind("stripe_secret_key", g_stripe_sk, "Stripe secret key", ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"], T_STRIPE_SK),
    _kind("stripe_restricted_key", g_stripe_rk, "Stripe restricted key", ["STRIPE_RESTRICTED_KEY"], T_STRIPE_RK),
    _kind("stripe_webhook_secret", g_whsec, "Stripe webhook secret", ["STRIPE_WEBHOOK_SECRET"], T_WHSEC),
    _kind("twilio_auth_token", g_twilio, "Twilio auth token", ["TWILIO_AUTH_TOKEN"], T_TWILIO, generic=False),
    _kind("sendgrid_api_key", g_sendgrid, "SendGrid API key", ["SENDGRID_API_KEY", "SMTP_PASSWORD"], T_SENDGRID),
    _kind("slack_token", g_slack_token, "Slack bot token", ["SLACK_BOT_TOKEN", "SLACK_TOKEN"], T_SLACK_TOKEN),
    _kind("slack_webhook_url", g_slack_webhook, "Slack webhook", ["SLACK_WEBHOOK_URL"], T_SLACK_WEBHOOK),
    _kind("github_token", g_github, "GitHub token", ["GITHUB_TOKEN", "GH_TOKEN", "GPR_TOKEN"], T_GITHUB),
    _kind("gitlab_token", g_gitlab, "GitLab token", ["GITLAB_TOKEN", "CI_JOB_PAT", "GL_TOKEN"], T_GITLAB),
    _kind("npm_token", g_npm, "npm token", ["NPM_TOKEN", "NODE_AUTH_TOKEN"], T_NPM),
    _kind("pypi_token", g_pypi, "PyPI token", ["PYPI_TOKEN", "TWINE_PASSWORD"], T_PYPI),
    _kind("aws_access_key_id", g_aws_id, "AWS access key id", ["AWS_ACCESS_KEY_ID"], T_AWS_ID),
    _kind("aws_secret_access_key", g_aws_secret, "AWS secret access key", ["AWS_SECRET_ACCESS_KEY"], T_AWS_SECRET),
    _kind("azure_storage_key", g_azure_storage, "Azure storage account key", ["AZURE_STORAGE_KEY"], T_AZURE_STORAGE),
    _kind("azure_sas_signature", g_azure_sas, "SAS", [], T_AZURE_SAS, generic=False, chat=None),
    _kind(
        "azure_client_secret",
        g_azure_client_secret,
        "Azure AD client secret",
        ["AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET"],
        T_AZURE_CLIENT_SECRET,
    ),
    _kind("gcp_service_account_key", g_gcp_key, "", [], T_GCP_KEY, generic=False, chat=None),
    _kind("google_api_key", g_google_api, "Google API key", ["GOOGLE_API_KEY", "GEMINI_API_KEY"], T_GOOGLE_API),
    _kind(
        "google_oauth_client_secret",
        g_gocspx,
        "Google OAuth client secret",
        ["GOOGLE_CLIENT_SECRET", "AUTH_GOOGLE_SECRET"],
        T_GOCSPX,
    ),
    _kind("digitalocean_token", g_digitalocean, "DigitalOcean token", ["DIGITALOCEAN_TOKEN"], T_DIGITALOCEAN),
    _kind("heroku_api_key", g_heroku, "Heroku API key", ["HEROKU_API_KEY"], T_HEROKU),
    _kind("shopify_token", g_shopify, "Shopify admin token", ["SHOPIFY_ACCESS_TOKEN"], T_SHOPIFY),
    _kind("mailgun_api_key", g_mailgun, "Mailgun API key", ["MAILGUN_API_KEY", "MAILGUN_SECRET"], T_MAILGUN),
    _kind("mailchimp_api_key", g_mailchimp, "Mailchimp API key", ["MAILCHIMP_API_KEY"], T_MAILCHIMP),
    _kind("datadog_api_key", g_datadog, "Datadog API key", ["DD_API_KEY", "DATADOG_API_KEY"], T_DATADOG),
    _kind("newrelic_license_key", g_newrelic, "New Relic license key", ["NEW_RELIC_LICENSE_KEY"], T_NEWRELIC),
    _kind("sentry_dsn_secret", g_sentry_secret, "", [], T_SENTRY_DSN, generic=False, chat=None),
    _kind("sentry_auth_token", g_sentry_auth, "Sentry auth token", ["SENTRY_AUTH_TOKEN"], T_SENTRY_AUTH),
    _kind("vault_token", g_vault, "Vault token", ["VAULT_TOKEN"], T_VAULT),
    _kind("doppler_token", g_doppler, "Doppler token", ["DOPPLER_TOKEN"], T_DOPPLER),
    _kind("linear_api_key", g_linear, "Linear API key", ["LINEAR_API_KEY"], T_LINEAR),
    _kind("notion_token", g_notion, "Notion integration token", ["NOTION_TOKEN", "NOTION_API_KEY"], T_NOTION),
    _kind("openai_api_key", g_openai, "OpenAI key", ["OPENAI_API_KEY"], T_OPENAI),
    _kind("anthropic_api_key", g_anthropic, "Anthropic API key", ["ANTHROPIC_API_KEY"], T_ANTHROPIC),
    _kind("huggingface_token", g_hf, "Hugging Face token", ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"], T_HF),
    _kind("discord_bot_token", g_discord, "Discord bot token", ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"], T_DISCORD),
    _kind("telegram_bot_token", g_telegram, "Telegram bot token", ["TELEGRAM_BOT_TOKEN"], T_TELEGRAM),
    _kind("jwt", g_jwt, "bearer token", ["API_TOKEN", "ACCESS_TOKEN", "SERVICE_JWT"], T_JWT),
    _kind("pem_private_key", g_pem, "", [], T_PEM, generic=False, chat="ml"),
    _kind("ssh_private_key", g_ssh, "", [], T_SSH, generic=False, chat="ml"),
    _kind("pgp_private_key", g_pgp, "", [], T_PGP, generic=False, chat="ml"),
    _kind("age_secret_key", g_age, "age key", ["SOPS_AGE_KEY"], T_AGE),
    _kind("dockerhub_token", g_dockerhub, "Docker Hub token", ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"], T_DOCKERHUB),
    _kind("nuget_api_key", g_nuget, "NuGet API key", ["NUGET_API_KEY"], T_NUGET),
    _kind("cargo_registry_token", g_cargo, "crates.io token", ["CARGO_REGISTRY_TOKEN"], T_CARGO),
    _kind("postman_api_key", g_postman, "Postman API key", ["POSTMAN_API_KEY"], T_POSTMAN),
    _kind("grafana_token", g_grafana, "Grafana service account token", ["GRAFANA_TOKEN"], T_GRAFANA),
    _kind(
        "password",
        g_password,
        "",
        [
            "DB_PASSWORD",
            "MYSQL_ROOT_PASSWORD",
            "POSTGRES_PASSWORD",
            "ADMIN_PASSWORD",
            "RABBITMQ_DEFAULT_PASS",
            "GF_SECURITY_ADMIN_PASSWORD",
            "KEYCLOAK_ADMIN_PASSWORD",
            "SMTP_PASSWORD",
        ],
        T_PASSWORD,
        lab="pw",
        systems=PW_SYSTEMS,
    ),
    _kind("connection_string_password", g_url_password, "", [], T_CONN, generic=False, chat=None),
    _kind("url_basic_auth_password", g_url_password, "", [], T_URLAUTH, generic=False, chat=None),
    _kind("pasted_password", g_password, "", [], T_PASTED, generic=False, lab="pw", systems=PW_SYSTEMS),
    _kind(
        "passphrase",
        g_passphrase,
        "",
        ["BORG_PASSPHRASE", "RESTIC_PASSWORD", "GPG_PASSPHRASE", "SIGNING_KEY_PASSPHRASE"],
        T_PASSPHRASE,
        lab="pp",
        systems=["release signing key", "borg backup", "restic", "ansible-vault", "deploy key [[app]]"],
    ),
    _kind(
        "keystore_password",
        g_password,
        "",
        ["ANDROID_KEYSTORE_PASSWORD", "KEYSTORE_PASSWORD", "MYAPP_UPLOAD_STORE_PASSWORD"],
        T_KEYSTORE,
        lab="pw",
        systems=["upload keystore", "release.jks", "keystore.p12"],
    ),
    _kind(
        "hex_secret_key",
        g_hex_key,
        "app secret key",
        ["SECRET_KEY_BASE", "APP_SECRET", "ENCRYPTION_KEY", "HMAC_SECRET", "WEBHOOK_SECRET", "SESSION_SECRET"],
        T_HEX,
    ),
    _kind(
        "base64_secret_key",
        g_b64_key,
        "signing secret",
        ["JWT_SECRET", "NEXTAUTH_SECRET", "COOKIE_SECRET", "AUTH_SECRET", "ENCRYPTION_KEY"],
        T_B64,
    ),
    _kind("django_secret_key", g_django, "", [], T_DJANGO, generic=False, chat=None),
    _kind(
        "api_token_generic",
        g_generic_token,
        "API token",
        [
            "EXPO_TOKEN",
            "CLOUDFLARE_API_TOKEN",
            "ALGOLIA_ADMIN_KEY",
            "JENKINS_API_TOKEN",
            "OKTA_API_TOKEN",
            "VERCEL_TOKEN",
            "PAGERDUTY_TOKEN",
        ],
        T_GENERIC_TOKEN,
    ),
]

POSITIVES_PER_KIND = 30


def _env_ctx(ctx: dict[str, str], var: str) -> None:
    ctx["var"] = var
    ctx["var_lower"] = var.lower()
    ctx["prop"] = "app." + var.lower().replace("_", "-").replace("-", ".", 1)


def _make_positive(r: random.Random, spec: dict, seen: set) -> tuple[str, str, str]:
    kind = spec["kind"]
    for _ in range(200):
        s = spec["gen"](r)
        if (kind, s) in seen:
            continue
        ctx = _ctx(r)
        ctx["s"] = s
        ctx["mcdc"] = s.rsplit("-", 1)[-1] if "-us" in s else "us1"
        ctx["sys"] = _fill(r.choice(spec["systems"]), ctx) if spec["systems"] else ctx["app"]
        ctx["what"] = spec["label"] or "secret"
        options = [("spec", 5.0)]
        if spec["generic"] and spec["envs"]:
            options.append(("env", 3.0))
        if spec["chat"]:
            options.append(("chat", 2.5))
        pick = r.choices([o[0] for o in options], weights=[o[1] for o in options])[0]
        if pick == "spec":
            tpl = r.choice(spec["tpls"])
        elif pick == "env":
            _env_ctx(ctx, r.choice(spec["envs"]))
            tpl = r.choice(GENERIC_ENV)
        elif spec["chat"] == "ml":
            tpl = r.choice(ML_CHAT)
        else:
            lang, tpl = r.choice(CHAT)
            if spec["lab"]:
                table = PW_LABEL if spec["lab"] == "pw" else PP_LABEL
                ctx["what"] = _fill(r.choice(table[lang]), ctx)
        if "[[var]]" in tpl and "var" not in ctx:
            _env_ctx(ctx, r.choice(spec["envs"]) if spec["envs"] else "SECRET")
        text = _fill(tpl, ctx)
        if s not in text or not 20 <= len(text) <= 4000 or "[[s]]" in text:
            continue
        seen.add((kind, s))
        return text, kind, s
    raise RuntimeError(f"could not build a positive for {kind}")


# ----------------------------------------------------------------------------------------------
# look-alike generators: (name, templates); every template is filled from _ctx()
# ----------------------------------------------------------------------------------------------

LOOKALIKES: list[tuple[str, list[str]]] = [
    (
        "ansible_vault_refs",
        [
            "---\n# group_vars/[[stage]]/vars.yml\ndb_host: [[dbhost]]\ndb_user: [[user]]\n"
            'db_password: "{{ vault_db_password }}"\nsmtp_password: "{{ vault_smtp_password }}"',
            "[[app_]]_api_token: \"{{ lookup('community.hashi_vault.hashi_vault', 'secret=kv/data/[[app]]:token') "
            '}}"\n'
            "[[app_]]_port: [[port]]",
            "admin_password: \"{{ lookup('env', 'ADMIN_PASSWORD') }}\"\nadmin_user: admin\nadmin_email: [[email]]",
        ],
    ),
    (
        "ansible_inventory_keyfile",
        [
            "[web]\n[[host]] ansible_host=[[ip]] ansible_user=[[user]] ansible_ssh_private_key_file=~/.ssh/id_ed25519\n"
            "\n[web:vars]\nansible_become=true\nansible_python_interpreter=/usr/bin/python3",
            "all:\n  children:\n    db:\n      hosts:\n        [[dbhost]]:\n          ansible_host: [[ip]]\n"
            "          ansible_port: 22\n  vars:\n    ansible_user: [[user]]",
        ],
    ),
    (
        "ansible_vault_encrypted_blob",
        [
            "$ANSIBLE_VAULT;1.1;AES256\n[[vaultblob]]",
            "db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n          [[hex64]]\n          [[sha]]",
        ],
    ),
    (
        "helm_existing_secret",
        [
            "postgresql:\n  auth:\n    existingSecret: [[app]]-db\n    secretKeys:\n      adminPasswordKey: "
            "postgres-password\n      userPasswordKey: password\n    username: [[user]]",
            "redis:\n  auth:\n    enabled: true\n    existingSecret: [[app]]-redis\n    existingSecretPasswordKey: "
            "redis-password",
            "ingress:\n  enabled: true\n  hosts:\n    - host: [[host]]\n  tls:\n    - secretName: [[app]]-tls\n"
            "      hosts: [[[host]]]",
        ],
    ),
    (
        "k8s_secret_key_ref",
        [
            "          env:\n            - name: DB_PASSWORD\n              valueFrom:\n                secretKeyRef:\n"
            "                  name: [[app]]-db\n                  key: password\n            - name: LOG_LEVEL\n"
            "              value: info",
            "      envFrom:\n        - secretRef:\n            name: [[app]]-env\n        - configMapRef:\n"
            "            name: [[app]]-config",
        ],
    ),
    (
        "kubectl_describe_secret",
        [
            "$ kubectl describe secret [[app]]-db -n [[stage]]\nName:         [[app]]-db\nNamespace:    [[stage]]\n"
            "Type:  Opaque\n\nData\n====\npassword:  24 bytes\nusername:  [[n]] bytes",
            "$ kubectl get secrets -n [[stage]]\nNAME              TYPE                DATA   AGE\n"
            "[[app]]-tls   kubernetes.io/tls   2      41d\n[[app]]-db    Opaque              2      41d",
        ],
    ),
    (
        "pulumi_secure_config",
        [
            "encryptionsalt: [[pulumisalt]]\nconfig:\n  aws:region: [[region]]\n  [[app]]:dbPassword:\n"
            '    secure: [[pulumi]]\n  [[app]]:replicas: "[[n]]"',
            "config:\n  [[app]]:apiToken:\n    secure: [[pulumi]]\n  [[app]]:domain: [[domain]]",
        ],
    ),
    (
        "pulumi_stack_output_masked",
        [
            'Outputs:\n    dbEndpoint : "[[dbhost]]:5432"\n    dbPassword : [secret]\n    url        : '
            '"https://[[host]]"\n\nResources:\n    [[n]] unchanged',
            '$ pulumi stack output --json\n{\n  "bucketName": "[[org]]-[[stage]]-assets",\n  "apiKey": "[secret]"\n}',
        ],
    ),
    (
        "nomad_vault_template",
        [
            'template {\n  data = <<EOH\nDB_PASSWORD="{{ with secret "kv/data/[[app]]/db" }}{{ .Data.data.password }}'
            '{{ end }}"\nEOH\n  destination = "secrets/db.env"\n  env         = true\n}',
            'vault {\n  policies = ["[[app]]-read"]\n  change_mode = "restart"\n}',
        ],
    ),
    (
        "consul_config_no_secret",
        [
            'datacenter = "dc1"\ndata_dir = "/opt/consul"\nacl {\n  enabled = true\n  default_policy = "deny"\n'
            "  enable_token_persistence = true\n}\n# gossip key and agent token come from /etc/consul.d/secrets.hcl "
            "(not in git)",
            'service {\n  name = "[[app]]"\n  port = [[port]]\n  check {\n    http = "http://localhost:[[port]]/health"'
            '\n    interval = "10s"\n  }\n}',
        ],
    ),
    (
        "systemd_credentials_ref",
        [
            "[Service]\nUser=[[app_]]\nEnvironmentFile=/etc/[[app]]/env\nLoadCredential=db-password:/etc/credstore/"
            "[[app]]-db\nEnvironment=DB_PASSWORD_FILE=%d/db-password\nExecStart=/usr/local/bin/[[app]]",
            "[Service]\nEnvironment=LOG_LEVEL=info\nEnvironment=PORT=[[port]]\nExecStart=/opt/[[app]]/run.sh\n"
            "Restart=always",
        ],
    ),
    (
        "compose_env_interpolation",
        [
            "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: [[user]]\n"
            "      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it in .env}\n",
            "services:\n  db:\n    image: mariadb:11\n    environment:\n      MARIADB_ROOT_PASSWORD_FILE: "
            "/run/secrets/db_root\n    secrets: [db_root]\nsecrets:\n  db_root:\n    file: ./secrets/db_root.txt",
        ],
    ),
    (
        "supervisord_env_expansion",
        [
            "[inet_http_server]\nport=127.0.0.1:9001\nusername=%(ENV_SUPERVISOR_USER)s\n"
            "password=%(ENV_SUPERVISOR_PASSWORD)s",
            '[program:[[app]]]\ncommand=/srv/[[app]]/bin/start\nenvironment=HOME="/srv/[[app]]",USER="[[app_]]"\n'
            "autostart=true",
        ],
    ),
    (
        "nginx_auth_basic_file",
        [
            'location /admin/ {\n    auth_basic           "Restricted";\n    auth_basic_user_file /etc/nginx/.htpasswd;'
            "\n    proxy_pass http://127.0.0.1:[[port]];\n}",
            "server {\n    listen 443 ssl;\n    server_name [[host]];\n    ssl_certificate     /etc/ssl/[[host]].crt;\n"
            "    ssl_certificate_key /etc/ssl/private/[[host]].key;\n}",
        ],
    ),
    (
        "htpasswd_hashes",
        [
            "# /etc/nginx/.htpasswd\n[[p1]]:[[bcrypt]]\n[[p2]]:[[apr1]]",
            "$ htpasswd -nbB [[p1]] <password>\n[[p1]]:[[bcrypt]]",
        ],
    ),
    (
        "haproxy_userlist_hashed",
        [
            "userlist ops_users\n    user admin password [[sha512crypt]]\n    user [[p1]] password [[sha512crypt2]]",
            "frontend stats\n    bind *:8404\n    stats enable\n    stats uri /stats\n    stats refresh 10s",
        ],
    ),
    (
        "jenkinsfile_credentials_binding",
        [
            "withCredentials([usernamePassword(credentialsId: '[[app]]-nexus', usernameVariable: 'NEXUS_USER', "
            "passwordVariable: 'NEXUS_PASS')]) {\n    sh './gradlew publish -PnexusUser=$NEXUS_USER "
            "-PnexusPassword=$NEXUS_PASS'\n}",
            "environment {\n    SONAR_TOKEN = credentials('sonar-[[app]]')\n    REGISTRY = 'registry.[[domain]]'\n}",
        ],
    ),
    (
        "jenkins_credentials_list",
        [
            "ID                      Kind                          Description\n[[app]]-deploy   Username with password"
            "   deploy user for [[stage]]\nsonar-[[app]]        Secret text                   SonarQube token",
        ],
    ),
    (
        "maven_settings_env",
        [
            "<server>\n  <id>nexus-releases</id>\n  <username>${env.NEXUS_USER}</username>\n"
            "  <password>${env.NEXUS_PASSWORD}</password>\n</server>",
            "<mirror>\n  <id>central-proxy</id>\n  <mirrorOf>central</mirrorOf>\n"
            "  <url>https://nexus.[[domain]]/repository/maven-central/</url>\n</mirror>",
        ],
    ),
    (
        "gradle_properties_plain",
        [
            "org.gradle.jvmargs=-Xmx4g -Dfile.encoding=UTF-8\norg.gradle.caching=true\nandroid.useAndroidX=true\n"
            "kotlin.code.style=official\nVERSION_NAME=[[ver]]",
            "group=io.[[org]].[[app_]]\nversion=[[ver]]\nnexusUrl=https://nexus.[[domain]]/repository/releases/",
        ],
    ),
    (
        "android_signing_from_env",
        [
            'signingConfigs {\n    release {\n        storeFile file(System.getenv("KEYSTORE_PATH") ?: "release.jks")\n'
            '        storePassword System.getenv("KEYSTORE_PASSWORD")\n        keyAlias "upload"\n'
            '        keyPassword System.getenv("KEY_PASSWORD")\n    }\n}',
            "def keystoreProperties = new Properties()\nkeystoreProperties.load(new FileInputStream(rootProject.file("
            "'key.properties')))\n...\nstorePassword keystoreProperties['storePassword']",
        ],
    ),
    (
        "nuget_config_env",
        [
            '<packageSourceCredentials>\n  <internal>\n    <add key="Username" value="%NUGET_USER%" />\n'
            '    <add key="ClearTextPassword" value="%NUGET_FEED_PAT%" />\n  </internal>\n</packageSourceCredentials>',
            '<packageSources>\n  <clear />\n  <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />\n'
            '  <add key="internal" value="https://pkgs.[[domain]]/nuget/v3/index.json" />\n</packageSources>',
        ],
    ),
    (
        "npmrc_env_reference",
        [
            "@[[org]]:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${GITHUB_TOKEN}",
            "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\nengine-strict=true\nfund=false",
        ],
    ),
    (
        "pip_conf_public_index",
        [
            "[global]\nindex-url = https://pypi.org/simple\n"
            "extra-index-url = https://nexus.[[domain]]/repository/pypi/simple"
            "\ntrusted-host = nexus.[[domain]]\ntimeout = 60",
            "[global]\nrequire-virtualenv = true\ndisable-pip-version-check = true",
        ],
    ),
    (
        "pypirc_placeholder",
        [
            "[pypi]\nusername = __token__\npassword = <your PyPI API token, starts with pypi->",
            "[distutils]\nindex-servers = pypi testpypi\n\n[testpypi]\nrepository = https://test.pypi.org/legacy/\n"
            "# credentials come from keyring",
        ],
    ),
    (
        "cargo_config_registry",
        [
            '[registries.[[org]]]\nindex = "sparse+https://cargo.[[domain]]/index/"\n\n[registry]\n'
            'global-credential-providers = ["cargo:libsecret"]',
            '[net]\ngit-fetch-with-cli = true\n\n[build]\nrustflags = ["-C", "target-cpu=native"]',
        ],
    ),
    (
        "composer_lock_hashes",
        [
            '{\n    "_readme": ["This file locks the dependencies of your project to a known state"],\n'
            '    "content-hash": "[[md5]]",\n    "packages": [\n        {\n            "name": "monolog/monolog",\n'
            '            "version": "3.[[n]].0",\n            "source": {"type": "git", "reference": "[[sha]]"}\n'
            "        }\n    ]\n}",
        ],
    ),
    (
        "rails_database_yml_erb",
        [
            "production:\n  <<: *default\n  database: [[db]]\n  username: <%= ENV['DATABASE_USER'] %>\n"
            "  password: <%= ENV['DATABASE_PASSWORD'] %>",
            "production:\n  password: <%= Rails.application.credentials.dig(:db, :password) %>\n  host: [[dbhost]]",
        ],
    ),
    (
        "spring_placeholders",
        [
            "spring.datasource.url=jdbc:postgresql://[[dbhost]]:5432/[[db]]\nspring.datasource.username=${DB_USER}\n"
            "spring.datasource.password=${DB_PASSWORD}",
            "spring:\n  cloud:\n    vault:\n      uri: https://vault.[[domain]]:8200\n"
            "      authentication: KUBERNETES\n"
            "      kv:\n        backend: secret",
        ],
    ),
    (
        "java_properties_build_info",
        [
            "git.branch=main\ngit.commit.id=[[sha]]\ngit.commit.id.abbrev=[[hex7]]\nbuild.version=[[ver]]\n"
            "build.time=[[date]]T[[time]]:00Z",
            "#Generated by Maven\nversion=[[ver]]\ngroupId=io.[[org]]\nartifactId=[[app]]",
        ],
    ),
    (
        "ini_empty_password",
        [
            "[database]\nhost = [[dbhost]]\nport = 5432\nuser = [[user]]\n; password is read from "
            "[[app_]]_DB_PASSWORD\npassword =",
            "[smtp]\nhost = smtp.[[domain]]\nport = 587\nstarttls = true\nuser =\npassword =",
        ],
    ),
    (
        "reg_export_nonsecret",
        [
            "Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\[[org]]\\[[App]]\\Settings]\n"
            '"WindowPlacement"=hex:[[hexbin]]\n"LastUpdateCheck"=dword:00000001\n"InstanceId"="{[[uuid]]}"',
            '[HKEY_CLASSES_ROOT\\CLSID\\{[[uuid]]}]\n@="[[App]] Shell Extension"\n"ThreadingModel"="Apartment"',
        ],
    ),
    (
        "powershell_secure_prompt",
        [
            '$cred = Get-Credential -UserName "[[user]]" -Message "[[App]] deploy"\n'
            "Invoke-Command -ComputerName [[host]] -Credential $cred -ScriptBlock { Get-Service }",
            "$pw = Read-Host -AsSecureString -Prompt 'Keystore password'\n"
            "$pw = Get-Secret -Name [[app]]-db -Vault CorpVault",
        ],
    ),
    (
        "odbc_integrated_auth",
        [
            "Driver={ODBC Driver 18 for SQL Server};Server=[[dbhost]];Database=[[db]];Trusted_Connection=yes;"
            "Encrypt=yes;",
            "Server=tcp:[[org]]-sql.database.windows.net,1433;Database=[[db]];Authentication=Active Directory "
            "Managed Identity;Encrypt=True;",
            "[[[App]]]\nDriver=ODBC Driver 18 for SQL Server\nServer=[[dbhost]]\nTrusted_Connection=Yes",
        ],
    ),
    (
        "jdbc_without_password",
        [
            "jdbc:postgresql://[[dbhost]]:5432/[[db]]?user=[[user]]&ssl=true&sslmode=verify-full",
            "spring.datasource.url=jdbc:mysql://[[dbhost]]:3306/[[db]]?useSSL=true&serverTimezone=UTC",
        ],
    ),
    (
        "adonet_placeholder",
        [
            '"DefaultConnection": "Server=[[dbhost]];Database=[[db]];User Id=[[user]];Password={your_password};"',
            "Host=[[dbhost]];Database=[[db]];Username=[[user]];Password=<password>;",
            "Server=[[dbhost]];Database=[[db]];User Id=[[user]];Password=********;",
        ],
    ),
    (
        "sqlalchemy_masked_url",
        [
            "INFO sqlalchemy.engine.Engine Engine(postgresql+psycopg2://[[user]]:***@[[dbhost]]:5432/[[db]])",
            "url = f\"postgresql+psycopg://{os.environ['DB_USER']}:{os.environ['DB_PASSWORD']}@[[dbhost]]/[[db]]\"",
        ],
    ),
    (
        "mongodb_atlas_placeholder",
        [
            "mongodb+srv://<username>:<password>@cluster0.[[shortid]].mongodb.net/?retryWrites=true&w=majority",
            "MONGODB_URI=mongodb+srv://${MONGO_USER}:${MONGO_PASSWORD}@cluster0.[[shortid]].mongodb.net/[[db]]",
        ],
    ),
    (
        "redis_no_auth",
        [
            "REDIS_URL=redis://localhost:6379/0\nCACHE_TTL=300",
            "# requirepass foobared\nbind 127.0.0.1 -::1\nprotected-mode yes\nport 6379",
        ],
    ),
    (
        "amqp_env_reference",
        [
            "broker_url = os.environ['CELERY_BROKER_URL']\nresult_backend = 'redis://localhost:6379/1'",
            "spring.rabbitmq.host=rabbitmq.[[domain]]\nspring.rabbitmq.username=${RABBIT_USER}\n"
            "spring.rabbitmq.password=${RABBIT_PASSWORD}",
        ],
    ),
    (
        "ldap_bind_prompt",
        [
            'ldapsearch -x -W -H ldaps://ldap.[[domain]] -D "cn=[[user]],ou=services,dc=[[org]],dc=local" '
            '-b "dc=[[org]],dc=local" "(uid=[[p1]])"',
            "ldap_default_bind_dn = cn=[[user]],ou=services,dc=[[org]],dc=local\nldap_default_authtok_type = password\n"
            "# authtok lives in /etc/sssd/conf.d/secret.conf (mode 0600)",
        ],
    ),
    (
        "chat_rotation_no_value",
        [
            "[[P1]]: hier das neue Passwort liegt im Vault unter secret/[[stage]]/[[app]]/db, bitte von dort holen",
            "[[P1]]: la contraseña del staging está en 1Password, bóveda 'Plataforma', no la pego aquí",
            "[[P1]] : le mot de passe est dans le coffre Vault (kv/[[app]]/[[stage]]), je ne le colle pas ici",
            "[[P1]]: a senha foi rotacionada, peguem no Vault em secret/[[app]]",
            "[[P1]]: パスワードはVaultの secret/[[app]]/[[stage]] に保存しました。",
            "[[P1]]: het wachtwoord staat in Bitwarden onder '[[App]] [[stage]]'",
            "[[P1]]: hasło jest w KeePassie, wpis [[app]]-[[stage]]",
            "[[P1]]: rotated the [[app]] API key, new one is in Doppler ([[stage]] config), old one revoked",
        ],
    ),
    (
        "ticket_redacted",
        [
            "Ticket [[ticket]]\nCustomer log excerpt:\nPOST /v1/charges 401\nAuthorization: Bearer [REDACTED]\n"
            "password=****** user=[[user]]",
            "[[date]] [[time]] ERROR auth failed for [[user]] (password: <redacted>, token: ***)",
            "Zgłoszenie [[ticket]]: klient wkleił klucz, usunąłem go z treści -> [USUNIĘTO]",
        ],
    ),
    (
        "postmortem_key_ids",
        [
            "## Postmortem [[date]]\nA leaked key (ending in ...[[last4]]) was revoked at [[time]] UTC. Fix in "
            "[[hex7]]; rollout [[ver]].\nNo customer data accessed.",
            "### Timeline\n- [[time]] GitGuardian alert on commit [[sha]]\n- key deactivated, history rewritten\n"
            "- [[ticket]] follow-up: pre-commit hook",
        ],
    ),
    (
        "log_request_ids",
        [
            "[[date]]T[[time]]:41.203Z INFO request_id=[[uuid]] trace_id=[[trace]] span_id=[[span]] "
            "method=GET path=/api/orders status=200 duration_ms=41",
            '{"level":"warn","ts":"[[date]]T[[time]]:02Z","msg":"retry","req":"[[uuid]]","attempt":[[n]]}',
        ],
    ),
    (
        "git_log_commits",
        [
            "commit [[sha]]\nAuthor: [[P1]] <[[email]]>\nDate:   [[date]]\n\n"
            "    fix: rotate credentials via vault agent",
            "$ git log --oneline -3\n[[hex7]] bump [[app]] to [[ver]]\n[[hex8]] ci: cache gradle\n"
            "[[sha]] docs: runbook",
        ],
    ),
    (
        "docker_image_digests",
        [
            "[[ver]]: Pulling from [[org]]/[[app]]\nDigest: [[digest]]\nStatus: Downloaded newer image for "
            "registry.[[domain]]/[[org]]/[[app]]:[[ver]]",
            "image: registry.[[domain]]/[[app]]@[[digest]]",
        ],
    ),
    (
        "sha256sums",
        [
            "[[hex64]]  [[app]]-[[ver]]-linux-amd64.tar.gz\n"
            "[[sha]][[hex16]][[hex8]]  [[app]]-[[ver]]-darwin-arm64.tar.gz",
            "sha256sum [[app]].iso\n[[hex64]]  [[app]].iso",
        ],
    ),
    (
        "s3_head_object",
        [
            '{\n    "AcceptRanges": "bytes",\n    "LastModified": "[[date]]T[[time]]:00+00:00",\n'
            '    "ContentLength": [[num]],\n    "ETag": "\\"[[md5]]\\"",\n    "VersionId": "[[s3ver]]",\n'
            '    "ContentType": "application/gzip"\n}',
        ],
    ),
    (
        "bcrypt_seed_users",
        [
            "INSERT INTO users (email, password_hash, role) VALUES\n  ('[[email]]', '[[bcrypt2]]', 'admin'),\n"
            "  ('[[p2]]@[[domain]]', '[[bcrypt]]', 'user');",
            'users:\n  - name: [[p1]]\n    passwordHash: "[[bcrypt2]]"',
        ],
    ),
    (
        "argon2_hashes",
        [
            "[[p1]]:[[argon]]",
            '{"user": "[[p1]]", "hash": "[[argon]]", "updated": "[[date]]"}',
        ],
    ),
    (
        "ssh_authorized_keys",
        [
            "# ~/.ssh/authorized_keys on [[host]]\n[[edpub]] [[email]]\n[[rsapub]] ci@[[domain]]",
            "[[P1]]: can you add my key to the bastion? [[edpub]] [[p1]]@laptop",
        ],
    ),
    (
        "ssh_known_hosts",
        [
            "[[host]],[[ip]] [[edpub]]",
            "The authenticity of host '[[host]] ([[ip]])' can't be established.\nED25519 key fingerprint is [[sshfp]].",
        ],
    ),
    (
        "x509_certificate",
        [
            "$ cat /etc/ssl/certs/[[host]].crt\n[[cert]]",
            "ca.crt: |\n[[cert]]",
        ],
    ),
    (
        "public_key_pem",
        [
            "# JWT verification key for [[app]]\n[[pubpem]]",
            "Hier der Public Key für die Signaturprüfung:\n[[pubpem]]",
        ],
    ),
    (
        "pgp_public_key",
        [
            "[[P1]]: my public key for encrypted mails:\n[[pgppub]]",
            "$ gpg --armor --export [[email]]\n[[pgppub]]",
        ],
    ),
    (
        "gpg_list_secret_keys",
        [
            "$ gpg --list-secret-keys\nsec   ed25519 [[date]] [SC]\n      [[sha]]\nuid           [ultimate] "
            "[[P1]] <[[email]]>\nssb   cv25519 [[date]] [E]",
        ],
    ),
    (
        "ssh_keygen_output",
        [
            "Your identification has been saved in /home/[[p1]]/.ssh/id_ed25519\nYour public key has been saved in "
            "/home/[[p1]]/.ssh/id_ed25519.pub\nThe key fingerprint is:\n[[sshfp]] [[email]]",
        ],
    ),
    (
        "data_uri_image",
        [
            '<img alt="[[pngname]]" src="data:image/png;base64,[[pngb64]]" />',
            ".[[pngname]] { background-image: url(data:image/png;base64,[[pngb64]]); }",
        ],
    ),
    (
        "css_font_base64",
        [
            "@font-face {\n  font-family: 'Inter';\n  src: url(data:font/woff2;base64,[[woff]]) format('woff2');\n}",
        ],
    ),
    (
        "npm_lock_integrity",
        [
            '"node_modules/[[app]]-utils": {\n  "version": "[[ver]]",\n  "resolved": "https://registry.npmjs.org/'
            '[[app]]-utils/-/[[app]]-utils-[[ver]].tgz",\n  "integrity": "[[integrity]]"\n}',
            '[[app]]-utils@^[[ver]]:\n  version "[[ver]]"\n  integrity [[integrity2]]',
        ],
    ),
    (
        "go_sum_hashes",
        [
            "github.com/[[org]]/[[app]] v[[ver]] [[h1]]\ngithub.com/[[org]]/[[app]] v[[ver]]/go.mod [[h1b]]",
        ],
    ),
    (
        "cargo_lock_checksums",
        [
            '[[package]]\nname = "[[app_]]"\nversion = "[[ver]]"\nsource = "registry+https://github.com/rust-lang/'
            'crates.io-index"\nchecksum = "[[hex64]]"',
        ],
    ),
    (
        "nuget_lock_contenthash",
        [
            '"Newtonsoft.Json": {\n  "type": "Direct",\n  "requested": "[13.0.3, )",\n  "resolved": "13.0.3",\n'
            '  "contentHash": "[[nugethash]]"\n}',
        ],
    ),
    (
        "sri_script_hashes",
        [
            '<script src="https://cdn.[[domain]]/[[app]]/[[ver]]/bundle.min.js" integrity="[[sri]]" '
            'crossorigin="anonymous"></script>',
        ],
    ),
    (
        "firebase_config_env",
        [
            "const firebaseConfig = {\n  apiKey: process.env.NEXT_PUBLIC_FIREBASE_API_KEY,\n  authDomain: "
            '"[[gproj]].firebaseapp.com",\n  projectId: "[[gproj]]",\n  messagingSenderId: "[[fbsender]]",\n'
            '  appId: "[[fbappid]]",\n  measurementId: "[[gmeas]]"\n};',
        ],
    ),
    (
        "xcconfig_public",
        [
            "PRODUCT_BUNDLE_IDENTIFIER = io.[[org]].[[app_]]\nDEVELOPMENT_TEAM = [[teamid]]\n"
            "MARKETING_VERSION = [[ver]]\n"
            "API_BASE_URL = https:/$()/[[host]]/api\nCODE_SIGN_STYLE = Automatic",
            '// Secrets.xcconfig is generated in CI from the keychain and git-ignored\n#include? "Secrets.xcconfig"\n'
            "SWIFT_ACTIVE_COMPILATION_CONDITIONS = $(inherited) [[stage]]",
        ],
    ),
    (
        "env_production_public",
        [
            "NEXT_PUBLIC_API_URL=https://[[host]]/api\nNEXT_PUBLIC_SENTRY_DSN=[[sentrydsn]]\n"
            "NEXT_PUBLIC_GA_ID=[[gmeas]]\nNEXT_PUBLIC_APP_VERSION=[[ver]]",
            "VITE_API_BASE=https://[[host]]\nVITE_BUILD_SHA=[[hex7]]\nVITE_FEATURE_FLAGS=checkout-v2,dark-mode",
        ],
    ),
    (
        "stripe_publishable_key",
        [
            "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=[[pk]]\nNEXT_PUBLIC_CHECKOUT_URL=https://[[host]]/checkout",
            "const stripe = Stripe('[[pk]]', { locale: 'de' });",
        ],
    ),
    (
        "eas_json_profiles",
        [
            '{\n  "cli": { "version": ">= 7.0.0" },\n  "build": {\n    "production": {\n      "channel": "production",'
            '\n      "env": { "APP_VARIANT": "production", "API_URL": "https://[[host]]" }\n    }\n  }\n}',
            '{\n  "expo": {\n    "name": "[[App]]",\n    "slug": "[[app]]",\n    "extra": { "eas": { "projectId": '
            '"[[uuid]]" } }\n  }\n}',
        ],
    ),
    (
        "android_manifest_placeholder",
        [
            '<meta-data\n    android:name="com.google.android.geo.API_KEY"\n    android:value="${MAPS_API_KEY}" />',
        ],
    ),
    (
        "twilio_sid_only",
        [
            "[[date]] [[time]] sms sent account=[[twsid]] messaging_service=[[mgsid]] to=+4917******[[n]][[n]] "
            "status=queued",
        ],
    ),
    (
        "aws_caller_identity",
        [
            '$ aws sts get-caller-identity\n{\n    "UserId": "[[aida]]",\n    "Account": "[[acct]]",\n'
            '    "Arn": "arn:aws:iam::[[acct]]:user/[[p1]]"\n}',
            '{\n    "UserId": "[[aroa]]:botocore-session-[[num]]",\n    "Account": "[[acct]]",\n'
            '    "Arn": "arn:aws:sts::[[acct]]:assumed-role/[[app]]-deploy/botocore-session-[[num]]"\n}',
        ],
    ),
    (
        "aws_iam_policy",
        [
            '{\n  "Version": "2012-10-17",\n  "Statement": [{\n    "Effect": "Allow",\n    "Action": ["s3:GetObject"],'
            '\n    "Resource": "arn:aws:s3:::[[org]]-[[stage]]-assets/*"\n  }]\n}',
        ],
    ),
    (
        "gcp_external_account",
        [
            '{\n  "type": "external_account",\n  "audience": "//iam.googleapis.com/projects/[[num12]]/locations/global/'
            'workloadIdentityPools/github/providers/[[org]]",\n'
            '  "subject_token_type": "urn:ietf:params:oauth:token-type:'
            'jwt",\n  "token_url": "https://sts.googleapis.com/v1/token",\n  "credential_source": {"file": '
            '"/var/run/secrets/token"}\n}',
        ],
    ),
    (
        "azure_ids_keyvault_ref",
        [
            '"AzureAd": {\n  "TenantId": "[[uuid]]",\n  "ClientId": "[[uuid2]]",\n  "ClientSecret": '
            '"@Microsoft.KeyVault(SecretUri=https://kv-[[app]].vault.azure.net/secrets/aad-client-secret/)"\n}',
            "az account set --subscription [[uuid3]]\naz aks get-credentials -g rg-[[app]]-[[stage]] -n aks-[[app]]",
        ],
    ),
    (
        "jwks_public",
        [
            '{"keys":[{"kty":"RSA","use":"sig","kid":"[[kid]]","alg":"RS256","n":"[[jwksn]]","e":"AQAB"}]}',
        ],
    ),
    (
        "jwt_decoded_claims",
        [
            'Decoded payload (signature stripped):\n{\n  "sub": "[[uuid]]",\n  "iss": "https://auth.[[domain]]",\n'
            '  "exp": [[epoch]],\n  "scope": "orders:read"\n}',
        ],
    ),
    (
        "terraform_sensitive_output",
        [
            'Changes to Outputs:\n  + db_endpoint = "[[dbhost]]:5432"\n  + db_password = (sensitive value)',
            'output "db_password" {\n  value     = random_password.db.result\n  sensitive = true\n}',
        ],
    ),
    (
        "doc_changeme_placeholder",
        [
            "# Quick start\n1. Copy `.env.example` to `.env`.\n2. Set `ADMIN_PASSWORD=changeme` (placeholder, the "
            "container refuses to start until you change it).",
            "export OPENAI_API_KEY=<paste-your-key-here>\nexport ANTHROPIC_API_KEY=YOUR_API_KEY",
            "db:\n  password: <your-password>   # replace before deploying",
        ],
    ),
    (
        "env_example_empty",
        [
            "# .env.example\nDATABASE_URL=\nSTRIPE_SECRET_KEY=\nSENDGRID_API_KEY=\nSENTRY_DSN=\nLOG_LEVEL=info",
            "SLACK_BOT_TOKEN=" + "xox" + "b-your-token\nSLACK_SIGNING_SECRET=your-signing-secret",
        ],
    ),
    (
        "python_format_placeholders",
        [
            "DSN = 'postgresql://%(user)s:%(password)s@%(host)s:%(port)s/%(db)s' % cfg",
            'url = f"amqp://{user}:{password}@{host}:5672/{vhost}"',
            'password = os.environ["DB_PASSWORD"]\napi_key = os.getenv("[[app_]]_API_KEY", "")',
        ],
    ),
    (
        "password_policy_text",
        [
            "Das Passwort muss mindestens 12 Zeichen lang sein und darf nicht im Team-Chat geteilt werden.",
            "La contraseña debe tener al menos 12 caracteres; úsese el gestor de contraseñas.",
            "Passwords must be at least 14 characters and rotated every 90 days (see [[ticket]]).",
            "パスワードは12文字以上で、チャットに貼らないでください。",
        ],
    ),
    (
        "wireguard_public_peer",
        [
            "[Interface]\nAddress = 10.8.0.[[n]]/24\nPostUp = wg set %i private-key /etc/wireguard/private.key\n\n"
            "[Peer]\n"
            "PublicKey = [[wgpub]]\nEndpoint = vpn.[[domain]]:51820\nAllowedIPs = 10.8.0.0/24",
        ],
    ),
    (
        "vault_kv_metadata",
        [
            "$ vault kv metadata get secret/[[app]]/[[stage]]\n====== Metadata ======\nKey                     Value\n"
            "---                     -----\ncreated_time            [[date]]T[[time]]:00Z\n"
            "current_version         [[n]]\n"
            "max_versions            10",
            "vault kv get -field=password secret/[[app]]/db | psql -h [[dbhost]] -U [[user]] -W",
        ],
    ),
    (
        "docker_login_stdin",
        [
            "$ cat ~/.secrets/registry | docker login registry.[[domain]] -u [[user]] --password-stdin\n"
            "WARNING! Your password will be stored unencrypted in /home/[[p1]]/.docker/config.json.\nLogin Succeeded",
        ],
    ),
    (
        "sops_age_recipients",
        [
            "creation_rules:\n  - path_regex: secrets/[[stage]]/.*\\.yaml$\n    age: >-\n      [[agepub]]",
        ],
    ),
    (
        "helm_chart_lock",
        [
            "dependencies:\n- name: postgresql\n  repository: oci://registry-1.docker.io/bitnamicharts\n"
            "  version: 15.[[n]].0"
            '\ndigest: [[digest]]\ngenerated: "[[date]]T[[time]]:00Z"',
        ],
    ),
    (
        "keytool_fingerprints",
        [
            "$ keytool -list -v -keystore release.jks\nEnter keystore password:\nAlias name: upload\n"
            "Certificate fingerprints:\n\t SHA1: [[fp1]]\n\t SHA256: [[fp]]",
        ],
    ),
    (
        "ci_masked_log",
        [
            "Run ./deploy.sh [[stage]]\n  env:\n    DB_PASSWORD: ***\n    API_TOKEN: ***\n    REGION: [[region]]",
            "$ echo $CI_JOB_TOKEN\n[MASKED]",
        ],
    ),
    (
        "scanner_report_redacted",
        [
            "Finding:     stripe-access-token\nSecret:      REDACTED\nFile:        config/[[stage]].yml\nLine:        "
            "[[n]]\nCommit:      [[sha]]\nAuthor:      [[P1]]",
        ],
    ),
    (
        "multilingual_request_ids",
        [
            "Die Request-ID lautet [[uuid]], bitte im Log nachsehen.",
            "El id de la petición es [[uuid]], trace [[trace]].",
            "ID da requisição: [[uuid]] (trace [[trace]])",
            "リクエストID: [[uuid]]",
            "Het correlation-id is [[uuid]].",
            "Identyfikator żądania: [[uuid]]",
            "L'identifiant de requête est [[uuid]].",
        ],
    ),
    (
        "multilingual_checksums_chat",
        [
            "[[P1]]: sha256 des Release-Artefakts: [[hex64]]",
            "[[P1]]: le commit du hotfix est [[sha]]",
            "[[P1]]: el digest de la imagen es [[digest]]",
            "[[P1]]: checksum do instalador (md5): [[md5]]",
        ],
    ),
    (
        "crontab_env_ref",
        [
            "# m h dom mon dow command\n0 3 * * * . /etc/[[app]]/env && /opt/[[app]]/bin/backup --target "
            "s3://[[org]]-bak",
            "*/15 * * * * /usr/bin/flock -n /tmp/[[app]].lock /opt/[[app]]/bin/sync --env [[stage]]",
        ],
    ),
    (
        "k8s_configmap_plain",
        [
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [[app]]-config\ndata:\n  LOG_LEVEL: info\n"
            "  API_URL: https://[[host]]\n  FEATURE_FLAGS: checkout-v2",
        ],
    ),
    (
        "version_bump_chat",
        [
            "[[P1]]: bumped [[app]] to [[ver]] (build [[hex7]]), image digest [[digest]]",
            "Release [[ver]] shipped, changelog in [[ticket]], tag v[[ver]] -> [[sha]]",
        ],
    ),
]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Return (positives, lookalikes) for ``seed``; positives are (text, kind, secret)."""
    r = random.Random(seed)
    positives: list[tuple[str, str, str]] = []
    seen: set = set()
    for spec in KINDS:
        for _ in range(POSITIVES_PER_KIND):
            positives.append(_make_positive(r, spec, seen))
    lookalikes: list[str] = []
    seen_texts: set = set()
    per_gen = 12
    for _name, tpls in LOOKALIKES:
        made = 0
        for _ in range(per_gen * 6):
            if made >= per_gen:
                break
            text = _fill(r.choice(tpls), _ctx(r))
            if text in seen_texts or not 20 <= len(text) <= 4000:
                continue
            seen_texts.add(text)
            lookalikes.append(text)
            made += 1
    r.shuffle(positives)
    r.shuffle(lookalikes)
    return positives, lookalikes


def _digest(seed: int) -> str:
    pos, la = generate(seed)
    return hashlib.sha256(json.dumps([pos, la], ensure_ascii=False).encode()).hexdigest()


if __name__ == "__main__":
    seeds = [int(a) for a in sys.argv[1:]] or [1]
    pos, la = generate(1)
    counts: dict[str, int] = {}
    for text, kind, secret in pos:
        assert secret in text, (kind, secret)
        assert 20 <= len(text) <= 4000, (kind, len(text))
        counts[kind] = counts.get(kind, 0) + 1
    assert len({(k, s) for _, k, s in pos}) == len(pos), "duplicate (kind, secret)"
    assert all(v == POSITIVES_PER_KIND for v in counts.values()), counts
    assert all(20 <= len(t) <= 4000 for t in la)
    for kind in sorted(counts):
        print(f"{kind:32s} {counts[kind]}")
    print(f"kinds: {len(counts)}  positives: {len(pos)}  lookalikes: {len(la)}  generators: {len(LOOKALIKES)}")
    rs = random.Random(99)
    print("--- sample positives ---")
    for text, kind, secret in rs.sample(pos, 3):
        print(f"[{kind}] secret={secret!r}\n{text}\n")
    print("--- sample look-alikes ---")
    for text in rs.sample(la, 3):
        print(text + "\n")
    for sd in seeds:
        d1, d2 = _digest(sd), _digest(sd)
        assert d1 == d2
        print(f"seed {sd}: digest {d1}")
