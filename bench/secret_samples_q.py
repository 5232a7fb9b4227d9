"""Secret-detector test set Q.

Theme: a mixed sample of everything an agent memory holds, weighted the way real use is. About half
of the texts are short notes and lessons in plain prose (decisions, preferences, project facts,
errors and fixes) in English with some German, Spanish, Portuguese, French, Japanese, Chinese and
Russian; about a quarter are config and code snippets (.env, YAML, JSON, TOML, INI, Python, JS,
Go, shell, Compose, Kubernetes, Terraform, PHP, Ruby, Java properties, appsettings); about a
quarter are pasted tool output and logs (curl -v, env dumps, docker inspect, kubectl describe,
tracebacks, CI logs, heroku config).

Secrets: vendor tokens with documented formats (cloud, forges, CI, registries, payments,
messaging, e-mail, AI APIs, monitoring, auth providers, databases-as-a-service), passwords
(human, generated, passphrases), private keys, credentials in connection strings and URLs, JWT
session tokens, signed-URL signatures, webhook secrets and unformatted keys named as such.

Look-alikes: placeholders, secret-manager references, masked values, env var names, hashes
(including password hashes), commit SHAs, ids, public/publishable keys and certificates, vendor
example values, encrypted blobs, base64 of public data, minified/generated code, versions, prose
about credentials, auth error messages and code that reads secrets from env/files/vaults.

``generate(seed)`` returns ``(positives, lookalikes)``:

* ``positives`` is a list of ``(text, kind, secret)``; ``secret`` is the one sensitive value in
  ``text`` and an exact substring of it.
* ``lookalikes`` is a list of texts that contain no credential.

Labelling choices for borderline items:

* Slack / Discord webhook URLs: the secret is the final path token (the T/B ids and the numeric
  webhook id are identifiers).
* Connection strings and basic-auth URLs: the secret is the password part only.
* AWS pre-signed URLs contain an AKIA key id next to the signature; the signature is labelled
  (a key id alone is an identifier, not a credential).
* Postmark server tokens and Heroku API keys are UUID-shaped; they are positives only when named as
  such, while UUIDs used as ids are look-alikes.
* Supabase anon keys, Stripe/Mapbox publishable keys, reCAPTCHA site keys, VAPID public keys,
  Sentry DSNs, OAuth client ids and LaunchDarkly client-side ids are public by vendor design and
  labelled look-alikes; Supabase service_role keys and Mapbox ``sk.`` tokens are positives.
* Encrypted values (SOPS, ansible-vault, sealed-secrets, KMS ciphertext, PGP messages, Fernet) and
  password hashes (bcrypt, argon2, sha512-crypt, pbkdf2, apr1) are look-alikes.
* Vendor-documented example values (AWS EXAMPLE keys, the jwt.io sample token, Stripe's docs test
  key) are look-alikes.

Everything is built with ``random.Random(seed)``; every vendor prefix, key body and PEM armour line
is assembled at run time from pieces, so the source holds no token-shaped literal.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import string
import sys
import time
from collections import Counter
from collections.abc import Callable

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
LETTERS = UPPER + LOWER
ALNUM = UPPER + LOWER + DIGITS
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
HEXU = HEX.upper()
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UPPER + "234567"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
DJANGO_CHARS = LOWNUM + "!@#$%^&*(-_=+)"
PW_SYMS = "!*-_.@^~+#%"
URL_PW = ALNUM + "-_.~"
DASH = "-" * 5
PK = "PRIV" + "ATE KEY"

# vendor prefixes, assembled so that no literal in this file looks like a token
P_GHP = "gh" + "p_"
P_GH = "gh"
P_GHFG = "git" + "hub_pat_"
P_GLPAT = "gl" + "pat-"
P_GLRT = "gl" + "rt-"
P_SKLIVE = "sk" + "_live_"
P_RKLIVE = "rk" + "_live_"
P_PKLIVE = "pk" + "_live_"
P_SKTEST = "sk" + "_test_"
P_PKTEST = "pk" + "_test_"
P_WHSEC = "wh" + "sec_"
P_XOXB = "xo" + "xb-"
P_XOXP = "xo" + "xp-"
P_AKIA = "AK" + "IA"
P_AIZA = "AI" + "za"
P_SKPROJ = "sk-" + "proj-"
P_NPM = "np" + "m_"
P_OAI_MARK = "T3Blbk" + "FJ"


# ----------------------------------------------------------------------------------------------
# small random helpers
# ----------------------------------------------------------------------------------------------


def _rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choices(alphabet, k=n))


def _hex(r: random.Random, n: int) -> str:
    return _rs(r, HEX, n)


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(r.randbytes(nbytes)).decode()


def _b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _date(r: random.Random) -> str:
    return f"{r.randint(2023, 2025)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _ts(r: random.Random) -> str:
    return f"{_date(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d}Z"


def _epoch(r: random.Random) -> int:
    return r.randint(1_690_000_000, 1_760_000_000)


def _ip(r: random.Random) -> str:
    return f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"


def _sha(r: random.Random) -> str:
    return _hex(r, 40)


PROJECTS = [
    "atlas", "billing-api", "orion", "helios", "kestrel", "ledger", "nimbus", "pegasus", "quartz",
    "relay", "sage", "tundra", "vega", "webshop", "zephyr", "inventory-svc", "mobile-backend",
    "data-pipeline", "checkout", "notifier", "search-indexer", "crm-sync", "reporting", "gateway",
]  # fmt: skip
DOMAINS = ["acme-corp.io", "northwind.dev", "contoso.cloud", "globex.net", "initech.app", "umbrella-labs.com"]
PEOPLE = ["Anna", "Ben", "Chen", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Inés", "João", "Katja", "Luis", "Mei"]
USERS = ["app", "admin", "deploy", "svc_reporting", "etl", "readonly", "postgres", "root", "ci-bot", "backup"]
REGIONS = ["us-east-1", "eu-west-1", "eu-central-1", "ap-northeast-1", "us-west-2", "sa-east-1"]
DBNAMES = ["app", "orders", "analytics", "users", "billing", "inventory", "events"]
WORDS = [
    "apple",
    "river",
    "maple",
    "orbit",
    "cactus",
    "lantern",
    "violet",
    "harbor",
    "copper",
    "meadow",
    "falcon",
    "pepper",
    "quartz",
    "saddle",
    "thunder",
    "velvet",
    "walnut",
    "yellow",
    "zebra",
    "bridge",
    "candle",
    "dragon",
    "ember",
    "forest",
    "garden",
    "helmet",
    "island",
    "jungle",
    "kettle",
    "lemon",
    "marble",
    "needle",
    "ocean",
    "pillow",
    "rocket",
    "silver",
    "tiger",
    "umbrella",
    "valley",
    "window",
    "anchor",
    "basket",
    "cobalt",
    "desert",
    "engine",
    "feather",
    "glacier",
    "hollow",
    "ivory",
    "jacket",
    "kernel",
    "ladder",
    "magnet",
    "nectar",
    "oyster",
]
NAMES = ["fluffy", "buster", "max", "luna", "bella", "charlie", "rocky", "daisy", "oliver", "milo"]
SEASONS = ["Summer", "Winter", "Spring", "Autumn", "Sommer", "Invierno", "Verano", "Herbst"]


def _proj(r: random.Random) -> str:
    return r.choice(PROJECTS)


def _host(r: random.Random, p: str | None = None) -> str:
    p = p or _proj(r)
    return f"{p}.{r.choice(['internal', 'prod', 'staging', 'eu', 'svc'])}.{r.choice(DOMAINS)}"


def _camel(s: str) -> str:
    parts = s.lower().replace("-", "_").split("_")
    return parts[0] + "".join(x.title() for x in parts[1:])


# ----------------------------------------------------------------------------------------------
# PEM / JWT builders
# ----------------------------------------------------------------------------------------------


def _pem(label: str, der: bytes, width: int = 64) -> str:
    b = base64.b64encode(der).decode()
    body = "\n".join(b[i : i + width] for i in range(0, len(b), width))
    return f"{DASH}BEGIN {label}{DASH}\n{body}\n{DASH}END {label}{DASH}"


def _jwt(r: random.Random, payload: dict, alg: str = "HS256") -> str:
    head = _b64u(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    siglen = {"HS256": 32, "RS256": 256, "ES256": 64}[alg]
    return f"{head}.{body}.{_b64u(r.randbytes(siglen))}"


def _cert(r: random.Random) -> str:
    der = bytes.fromhex("308203") + bytes([r.randint(0x40, 0xFF)]) + bytes.fromhex("308202") + r.randbytes(820)
    return _pem("CERTIFICATE", der)


def _pubkey_pem(r: random.Random) -> str:
    der = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100") + r.randbytes(258)
    return _pem("PUBLIC KEY", der)


def _ssh_pub(r: random.Random, who: str) -> str:
    if r.random() < 0.6:
        blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32)
        return f"ssh-ed25519 {base64.b64encode(blob).decode()} {who}"
    blob = b"\x00\x00\x00\x07ssh-rsa\x00\x00\x00\x03\x01\x00\x01\x00\x00\x01\x81\x00" + r.randbytes(384)
    return f"ssh-rsa {base64.b64encode(blob).decode()} {who}"


# ----------------------------------------------------------------------------------------------
# positive value generators: each returns the fragment placed in text, or (fragment, secret)
# ----------------------------------------------------------------------------------------------


def _pw_human(r: random.Random) -> str:
    c = r.randrange(6)
    if c == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2025)}{r.choice('!#$?')}"
    if c == 1:
        return f"{r.choice(NAMES).title()}{r.choice('#!@')}{r.randint(1960, 2015)}"
    if c == 2:
        return f"{r.choice(WORDS)}{r.choice(WORDS)}{r.randint(10, 99)}"
    if c == 3:
        w = r.choice(WORDS)
        leet = w.replace("e", "3").replace("a", "@").replace("o", "0")
        return f"{leet.title()}{r.randint(1, 99)}{r.choice('!?')}"
    if c == 4:
        return f"{r.choice(PEOPLE)}{r.choice(['loves', 'hates', 'and'])}{r.choice(WORDS).title()}{r.randint(1, 9)}"
    return f"{r.choice(WORDS).title()}-{r.choice(WORDS)}-{r.randint(100, 999)}"


def _pw_generated(r: random.Random) -> str:
    n = r.randint(16, 32)
    while True:
        s = _rs(r, ALNUM + PW_SYMS, n)
        if any(c in DIGITS for c in s) and any(c in PW_SYMS for c in s) and any(c in UPPER for c in s):
            return s


def _passphrase(r: random.Random) -> str:
    ws = r.sample(WORDS, r.randint(4, 6))
    sep = r.choice(["-", " ", ".", "_"])
    if r.random() < 0.3:
        ws = [w.title() for w in ws]
        ws[-1] += str(r.randint(1, 99))
    return sep.join(ws)


def _url_pw(r: random.Random) -> str:
    return _rs(r, URL_PW, r.randint(14, 28)) if r.random() < 0.6 else _pw_human(r).replace("#", "").replace("?", "")


def _conn(r: random.Random, scheme: str, port: int, suffix: str) -> tuple[str, str]:
    pw = _url_pw(r)
    if "!" in pw or "@" in pw:
        pw = pw.replace("!", "%21").replace("@", "%40")
    p = _proj(r)
    return f"{scheme}://{r.choice(USERS)}:{pw}@{_host(r, p)}:{port}{suffix}", pw


def v_postgres(r):
    scheme = r.choice(["postgresql", "postgres", "postgresql+psycopg", "postgresql+asyncpg"])
    return _conn(r, scheme, 5432, f"/{r.choice(DBNAMES)}" + r.choice(["", "?sslmode=require", "?sslmode=verify-full"]))


def v_mysql(r):
    return _conn(r, r.choice(["mysql", "mysql+pymysql", "mariadb"]), 3306, f"/{r.choice(DBNAMES)}?charset=utf8mb4")


def v_redis(r):
    pw = _rs(r, ALNUM, r.randint(20, 40))
    return f"{r.choice(['redis', 'rediss'])}://{r.choice(['default', ''])}:{pw}@{_host(r)}:6379/{r.randint(0, 5)}", pw


def v_amqp(r):
    return _conn(r, r.choice(["amqp", "amqps"]), r.choice([5672, 5671]), f"/{r.choice(['%2F', 'prod', 'jobs'])}")


def v_mongodb(r):
    pw = _url_pw(r).replace("!", "%21").replace("@", "%40")
    db = r.choice(DBNAMES)
    return (
        f"mongodb+srv://{r.choice(USERS)}:{pw}@cluster{r.randint(0, 3)}.{_rs(r, LOWNUM, 5)}.mongodb.net/{db}"
        f"?retryWrites=true&w=majority",
        pw,
    )


def v_mssql(r):
    pw = _pw_generated(r).replace(";", "")
    s = (
        f"Server=tcp:{_proj(r)}-sql.database.windows.net,1433;Initial Catalog={r.choice(DBNAMES)};"
        f"Persist Security Info=False;User ID={r.choice(USERS)};Password={pw};Encrypt=True;Connection Timeout=30;"
    )
    return s, pw


def v_basic_url(r):
    pw = _url_pw(r).replace("!", "%21").replace("@", "%40")
    u = r.choice(USERS)
    host = r.choice(
        [f"nexus.{r.choice(DOMAINS)}", f"jenkins.{r.choice(DOMAINS)}", _host(r), f"registry.{r.choice(DOMAINS)}"]
    )
    path = r.choice(
        ["/repository/pypi/simple", "/job/deploy/build", "/api/v1/status", "/v2/", "/artifactory/libs-release"]
    )
    return f"https://{u}:{pw}@{host}{path}", pw


def v_basic_header(r):
    u = r.choice([*USERS, "alice@" + r.choice(DOMAINS)])
    b = base64.b64encode(f"{u}:{_pw_generated(r)}".encode()).decode()
    return "Basic " + b, b


def v_docker_auth(r):
    b = base64.b64encode(f"{r.choice(USERS)}:{_pw_generated(r)}".encode()).decode()
    reg = r.choice(["https://index.docker.io/v1/", f"registry.{r.choice(DOMAINS)}", "ghcr.io", "quay.io"])
    return '{\n  "auths": {\n    "' + reg + '": {\n      "auth": "' + b + '"\n    }\n  }\n}', b


def v_slack_webhook(r):
    tok = _rs(r, ALNUM, 24)
    url = f"https://hooks.sl{'ack'}.com/services/T{_rs(r, UPNUM, r.randint(8, 10))}/B{_rs(r, UPNUM, r.randint(8, 10))}/{tok}"
    return url, tok


def v_discord_webhook(r):
    tok = _rs(r, B64URL, 68)
    return f"https://discord.com/api/webhooks/{r.randint(10**17, 10**19 - 1)}/{tok}", tok


def v_discord_bot(r):
    uid = str(r.randint(10**17, 10**19 - 1))
    return f"{_b64u(uid.encode())}.{_rs(r, B64URL, 6)}.{_rs(r, B64URL, 38)}"


def v_openai(r):
    c = r.randrange(3)
    if c == 0:
        return P_SKPROJ + _rs(r, B64URL, 74) + P_OAI_MARK + _rs(r, B64URL, 74)
    if c == 1:
        return "sk-" + "svcacct-" + _rs(r, B64URL, 74) + P_OAI_MARK + _rs(r, B64URL, 74)
    return "sk-" + _rs(r, ALNUM, 20) + P_OAI_MARK + _rs(r, ALNUM, 20)


def v_supabase_service(r):
    iat = _epoch(r)
    return _jwt(
        r,
        {
            "iss": "supabase",
            "ref": _rs(r, LOWER, 20),
            "role": "service" + "_role",
            "iat": iat,
            "exp": iat + 10 * 365 * 86400,
        },
    )


def v_jwt_session(r):
    iat = _epoch(r)
    c = r.randrange(3)
    if c == 0:
        pl = {
            "sub": str(r.randint(1000, 999999)),
            "email": f"{r.choice(PEOPLE).lower()}@{r.choice(DOMAINS)}",
            "iat": iat,
            "exp": iat + 3600,
        }
    elif c == 1:
        pl = {
            "iss": f"https://auth.{r.choice(DOMAINS)}/",
            "sub": _uuid(r),
            "aud": _proj(r),
            "scope": "openid profile email",
            "iat": iat,
            "exp": iat + 900,
            "sid": _hex(r, 16),
        }
    else:
        pl = {
            "user_id": r.randint(1, 10**6),
            "role": r.choice(["admin", "user", "editor"]),
            "iat": iat,
            "exp": iat + 86400,
        }
    return _jwt(r, pl, r.choice(["HS256", "RS256", "ES256"]))


def v_mapbox_sk(r):
    body = _b64u(
        json.dumps(
            {"u": r.choice(PEOPLE).lower() + str(r.randint(1, 99)), "a": _rs(r, LOWNUM, 25)}, separators=(",", ":")
        ).encode()
    )
    return "sk" + "." + body + "." + _rs(r, B64URL, 22)


def v_session_cookie(r):
    c = r.randrange(3)
    if c == 0:
        v = _rs(r, LOWNUM, 32)
        return f"sessionid={v}", v
    if c == 1:
        v = "s%3A" + _rs(r, B64URL, 32) + "." + _rs(r, B64URL, 43)
        return f"connect.sid={v}", v
    v = _rs(r, B64URL, r.randint(120, 200)) + "--" + _hex(r, 40)
    return f"_{_proj(r).replace('-', '_')}_session={v}", v


def v_laravel(r):
    k = _b64(r, 32)
    return "base64:" + k, k


def v_totp(r):
    s = _rs(r, B32, 32)
    who = r.choice(PEOPLE).lower()
    iss = r.choice(["GitHub", "AWS", "Acme", "Okta", "Grafana"])
    return f"otpauth://totp/{iss}:{who}@{r.choice(DOMAINS)}?secret={s}&issuer={iss}&digits=6&period=30", s


def v_aws_presigned(r):
    sig = _hex(r, 64)
    key = P_AKIA + _rs(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
    reg = r.choice(REGIONS)
    d = _date(r).replace("-", "")
    url = (
        f"https://{_proj(r)}-exports.s3.{reg}.amazonaws.com/{r.choice(['reports', 'backups', 'invoices'])}/{_hex(r, 8)}.{r.choice(['csv', 'pdf', 'zip'])}"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={key}%2F{d}%2F{reg}%2Fs3%2Faws4_request"
        f"&X-Amz-Date={d}T{r.randint(0, 23):02d}0000Z&X-Amz-Expires={r.choice([300, 900, 3600, 604800])}"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return url, sig


def v_gcs_signed(r):
    sig = _hex(r, 512)
    p = _proj(r)
    d = _date(r).replace("-", "")
    url = (
        f"https://storage.googleapis.com/{p}-media/{r.choice(['uploads', 'exports'])}/{_uuid(r)}.{r.choice(['png', 'mp4', 'json'])}"
        f"?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential={p}-signer%40{p}-prod.iam.gserviceaccount.com%2F{d}%2Fauto%2Fstorage%2Fgoog4_request"
        f"&X-Goog-Date={d}T101500Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return url, sig


def v_azure_sas(r):
    sig = _b64(r, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    d = _date(r)
    url = (
        f"https://{_proj(r).replace('-', '')}store.blob.core.windows.net/{r.choice(['backups', 'uploads', 'logs'])}/{_hex(r, 12)}.tar.gz"
        f"?sv=2022-11-02&ss=b&srt=co&sp={r.choice(['r', 'rl', 'rwdlac'])}&se={d}T23:59:59Z&st={d}T00:00:00Z&spr=https&sig={sig}"
    )
    return url, sig


def v_cloudfront(r):
    sig = _rs(r, ALNUM + "-_~", 172)
    url = (
        f"https://d{_rs(r, LOWNUM, 13)}.cloudfront.net/{r.choice(['videos', 'private', 'downloads'])}/{_hex(r, 10)}.{r.choice(['m3u8', 'mp4', 'pdf'])}"
        f"?Expires={_epoch(r)}&Signature={sig}&Key-Pair-Id=K{_rs(r, UPNUM, 13)}"
    )
    return url, sig


# --- private keys -----------------------------------------------------------------------------


def v_rsa_key(r):
    der = bytes.fromhex("308204a40201000282010100") + r.randbytes(r.choice([1180, 1184, 1190]))
    return _pem("RSA " + PK, der)


def v_pkcs8_key(r):
    if r.random() < 0.4:
        der = bytes.fromhex("302e020100300506032b657004220420") + r.randbytes(32)
    else:
        der = bytes.fromhex(
            "308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100"
        ) + r.randbytes(1150)
    return _pem(PK, der)


def v_ec_key(r):
    der = (
        bytes.fromhex("30770201010420")
        + r.randbytes(32)
        + bytes.fromhex("a00a06082a8648ce3d030107a14403420004")
        + r.randbytes(64)
    )
    return _pem("EC " + PK, der)


def v_openssh_key(r):
    pub = r.randbytes(32)
    blob = (
        b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x33"
        + b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"
        + pub
        + b"\x00\x00\x00\x98"
        + r.randbytes(4) * 2
        + b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"
        + pub
        + b"\x00\x00\x00\x40"
        + r.randbytes(64)
        + r.randbytes(r.randint(12, 20))
    )
    return _pem("OPENSSH " + PK, blob, 70)


def v_pgp_key(r):
    b = base64.b64encode(bytes.fromhex("9558") + r.randbytes(r.randint(900, 1400))).decode()
    body = "\n".join(b[i : i + 64] for i in range(0, len(b), 64))
    lab = "PGP " + PK + " BLOCK"
    return f"{DASH}BEGIN {lab}{DASH}\n\n{body}\n={_b64(r, 3)}\n{DASH}END {lab}{DASH}"


def v_gcp_sa(r):
    pem = _pem(
        PK,
        bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100")
        + r.randbytes(1150),
    )
    esc = pem.replace("\n", "\\n") + "\\n"
    p = _proj(r) + "-" + str(r.randint(100000, 999999))
    sa = f"{r.choice(['deployer', 'ci', 'bq-reader', 'terraform'])}@{p}.iam.gserviceaccount.com"
    txt = (
        "{\n"
        '  "type": "service_account",\n'
        f'  "project_id": "{p}",\n'
        f'  "private_key_id": "{_hex(r, 40)}",\n'
        f'  "private_key": "{esc}",\n'
        f'  "client_email": "{sa}",\n'
        f'  "client_id": "{r.randint(10**20, 10**21 - 1)}",\n'
        '  "auth_uri": "https://accounts.google.com/o/oauth2/auth",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token"\n'
        "}"
    )
    return txt, esc


# ----------------------------------------------------------------------------------------------
# context templates for positives
# ----------------------------------------------------------------------------------------------

PROSE_TOKEN = {
    "en": [
        "Note to self: the {d} for {p} is {v} -- rotate it after the demo on {date}.",
        "Decision ({date}): keep using the {d} {v} on the {p} staging box until IT finishes the Vault setup.",
        "Lesson learned: the {p} deploy failed because {e} was stale. The new value is {v}, already updated in the runner.",
        "{who} shared the {d} in chat: {v}. Don't paste it anywhere else.",
        "Fix: the 401s from the {p} worker went away after I swapped in {v} as {e}.",
        "Preference: use my personal {d} ({v}) for local testing only, never in CI.",
        "FYI for the next session -- {e}={v} works against {h}; the previous one was revoked on {date}.",
        "Project fact: {p} talks to the vendor with the {d} `{v}`. Owner is {who}.",
        "Remember: when {p} starts failing auth again, the working {d} is {v}.",
    ],
    "de": [
        "Notiz: Der {d} für {p} ist {v}, bitte nach dem Test am {date} rotieren.",
        "Entscheidung: Wir nutzen vorerst {v} als {e}, bis Vault eingerichtet ist.",
        "Fehler behoben: {p} lieferte 401, mit dem neuen Schlüssel {v} läuft es wieder.",
    ],
    "es": [
        "Nota: el {d} de {p} es {v}; hay que rotarlo después de la demo.",
        "Arreglado el error 401 en {p}: puse {e}={v} en el servidor.",
    ],
    "pt": [
        "Anotação: o {d} do {p} é {v}, trocar depois do deploy de {date}.",
        "Corrigi o erro de autenticação no {p} usando {v} como {e}.",
    ],
    "fr": [
        "Note : le {d} pour {p} est {v}, à changer après la démo.",
        "Correctif : l'erreur 401 sur {p} a disparu avec {e}={v}.",
    ],
    "ja": [
        "メモ：{p}の{d}は {v} です。デモ後にローテーションすること。",
        "{p}の認証エラーは {e} を {v} に更新して解決した。",
    ],
    "zh": [
        "备注：{p} 的 {d} 是 {v}，演示结束后记得轮换。",
        "{p} 报 401 的问题已修复，把 {e} 改成了 {v}。",
    ],
    "ru": [
        "Заметка: {d} для {p} — {v}, после демо сменить.",
        "Исправил 401 в {p}: прописал {e}={v} на сервере.",
    ],
}

PROSE_PW = {
    "en": [
        "The {d} is {v} -- {who} set it up on {date}.",
        "Note: login for {h} is {u} / {v}. Change it after the migration.",
        "Lesson: the backup job failed because the {d} changed. New one: {v}",
        "Preference: when you need the {p} admin panel, the password is {v} (user {u}).",
        "Reminder for the next session: {u}@{h} password = {v}",
    ],
    "de": ["Das Passwort für {h} ist {v} (Benutzer {u}).", "Notiz: WLAN-Passwort im Büro lautet {v}."],
    "es": ["La contraseña de {u} en {h} es {v}.", "Nota: la clave del router es {v}, no compartir."],
    "pt": ["A senha do banco {p} é {v} (usuário {u}).", "Lembrete: senha do painel admin = {v}"],
    "fr": ["Le mot de passe de {u} sur {h} est {v}.", "Note : mot de passe admin pour {p} : {v}"],
    "ja": ["{h} の {u} のパスワードは {v} です。", "管理画面のパスワード：{v}（{who}さんが設定）"],
    "zh": ["{p} 数据库密码是 {v}，用户名 {u}。", "提醒：{h} 的登录密码为 {v}"],
    "ru": ["Пароль от {h} для {u}: {v}", "Заметка: пароль админки {p} — {v}"],
}

PROSE_URL = {
    "en": [
        "Connection for {p}: {v} -- from the ops handover doc.",
        "Use {v} when you need the {p} data again.",
        "Fixed the timeout: the working URL is {v}",
        "{who} sent this link on {date}: {v}",
    ],
    "de": ["Verbindung zu {p}: {v}"],
    "es": ["Para conectar a {p} usa {v}"],
    "pt": ["URL que funcionou para o {p}: {v}"],
    "fr": ["Lien de connexion pour {p} : {v}"],
    "ja": ["{p} への接続先：{v}"],
    "zh": ["{p} 的连接地址：{v}"],
    "ru": ["Строка подключения к {p}: {v}"],
}

LANG_W = [("en", 50), ("de", 9), ("es", 8), ("pt", 7), ("fr", 7), ("ja", 7), ("zh", 6), ("ru", 6)]

CFG = [
    "# {p} local settings\n{e}={v}\nLOG_LEVEL=debug\nPORT={port}\n",
    '{p}:\n  endpoint: https://{h}\n  {k}: "{v}"\n  timeout_s: 30\n',
    '{{\n  "service": "{p}",\n  "{kc}": "{v}",\n  "retries": 3\n}}',
    '[{p}]\n{k} = "{v}"\nregion = "{reg}"\n',
    'client = {P}Client(\n    base_url="https://{h}",\n    {k}="{v}",  # TODO: move to env\n    timeout=10,\n)\n',
    "const config = {{\n  baseUrl: 'https://{h}',\n  {kc}: '{v}',\n}};\nexport default config;\n",
    'var {kc} = "{v}" // temporary, see ticket {tk}\n',
    'export {e}="{v}"\n./scripts/run.sh --env staging\n',
    "services:\n  {p}:\n    image: ghcr.io/{org}/{p}:{ver}\n    environment:\n      - {e}={v}\n      - NODE_ENV=production\n",
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {p}-creds\ntype: Opaque\nstringData:\n  {e}: "{v}"\n',
    "[default]\nregion = {reg}\n{k} = {v}\n",
    "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {e}: {v}\n    steps:\n      - run: make deploy\n",
    "{pk}.{k}={v}\n{pk}.url=https://{h}\n",
    "<?php\ndefine('{e}', '{v}');\n",
    "{P}.configure do |c|\n  c.{k} = '{v}'\nend\n",
    '{{\n  "{P}": {{\n    "Endpoint": "https://{h}",\n    "{Kc}": "{v}"\n  }}\n}}',
    'variable "{k}" {{\n  default = "{v}"\n}}\n',
    '[program:{p}]\ncommand=/opt/{p}/bin/server\nenvironment={e}="{v}",LANG=en_US.UTF-8\n',
]

LOG_ANY = [
    "$ env | grep {eg}\n{e}={v}\n",
    "{ts} DEBUG [{p}] loaded config from /etc/{p}/config.yaml: {k}={v} source=file\n",
    '$ docker inspect {p} --format "{{{{json .Config.Env}}}}"\n["PATH=/usr/local/bin:/usr/bin","{e}={v}","TZ=UTC"]\n',
    "Traceback (most recent call last):\n  File \"/app/{pu}/client.py\", line {ln}, in connect\n    raise ConfigError(f\"bad settings: {{settings}}\")\n{pu}.errors.ConfigError: bad settings: {{'{k}': '{v}', 'region': '{reg}'}}\n",
    "$ kubectl describe pod {p}-{pod}\n...\n    Environment:\n      {e}:  {v}\n      LOG_LEVEL:  info\n",
    "$ heroku config -a {p}\n=== {p} Config Vars\nDATABASE_POOL: 10\n{e}: {v}\n",
    "Run ./deploy.sh\n  ./deploy.sh\n  shell: /usr/bin/bash -e {{0}}\n  env:\n    {e}: {v}\n+ echo deploying {p} {ver}\n",
    '{ts} WARN  settings dump (remove before release): {{"{kc}": "{v}", "debug": true}}\n',
    "$ printenv | sort\nHOME=/home/{u}\n{e}={v}\nPATH=/usr/bin:/bin\n",
]

LOG_TOKEN = [
    "$ curl -v https://{h}/v1/items\n> GET /v1/items HTTP/2\n> Host: {h}\n> Authorization: Bearer {v}\n> User-Agent: curl/8.5.0\n>\n< HTTP/2 200\n",
    '+ curl -sf -H \'X-Api-Key: {v}\' https://{h}/health\n{{"status":"ok"}}\n',
    "{ts} INFO  httpx: HTTP Request: POST https://{h}/v2/send headers={{'authorization': 'Bearer {v}'}} \"HTTP/1.1 200 OK\"\n",
]

LOG_PW = [
    "$ mysql -h {h} -u {u} -p'{v}' {db}\nmysql: [Warning] Using a password on the command line interface can be insecure.\nmysql>\n",
    "$ sshpass -p '{v}' ssh {u}@{ip}\nWelcome to Ubuntu 22.04.4 LTS\n",
    "+ PGPASSWORD='{v}' psql -h {h} -U {u} -d {db} -c 'select 1'\n ?column?\n----------\n        1\n",
    "$ docker login -u {u} -p '{v}' registry.{dom}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded\n",
    "$ cat ~/.pgpass\n{h}:5432:{db}:{u}:{v}\n",
    "{ts} DEBUG auth: attempting login user={u} password={v} host={h}\n",
]

LOG_URL = [
    "$ curl -sSL '{v}' -o /tmp/out.bin\n  % Total    % Received\n100  2311k  100  2311k\n",
    "{ts} INFO  connecting to {v}\n{ts} INFO  connection established in {ln}ms\n",
    "$ git remote -v\norigin\t{v} (fetch)\norigin\t{v} (push)\n",
]


def _ctx(r: random.Random, env: str, desc: str) -> dict:
    p = _proj(r)
    k = env.lower()
    return {
        "e": env,
        "eg": env.split("_")[0],
        "k": k,
        "kc": _camel(k),
        "Kc": _camel(k)[0].upper() + _camel(k)[1:],
        "d": desc,
        "p": p,
        "pu": p.replace("-", "_"),
        "P": "".join(x.title() for x in p.split("-")),
        "pk": p.replace("-", "."),
        "h": _host(r, p),
        "who": r.choice(PEOPLE),
        "u": r.choice(USERS),
        "date": _date(r),
        "ts": _ts(r),
        "port": r.choice([3000, 8000, 8080, 5000]),
        "reg": r.choice(REGIONS),
        "tk": f"{r.choice(['OPS', 'PLAT', 'SEC', 'BE'])}-{r.randint(100, 9999)}",
        "org": r.choice(["acme", "northwind", "globex"]),
        "ver": f"{r.randint(0, 4)}.{r.randint(0, 30)}.{r.randint(0, 9)}",
        "ln": r.randint(12, 480),
        "pod": _rs(r, LOWNUM, 10)[:5] + "-" + _rs(r, LOWNUM, 5),
        "db": r.choice(DBNAMES),
        "ip": _ip(r),
        "dom": r.choice(DOMAINS),
    }


def _lang(r: random.Random) -> str:
    return r.choices([x for x, _ in LANG_W], [w for _, w in LANG_W])[0]


def _wrap(r: random.Random, frag: str, env: str, desc: str, style: str) -> str:
    c = _ctx(r, env, desc)
    c["v"] = frag
    x = r.random()
    if x < 0.5:
        table = {"token": PROSE_TOKEN, "key": PROSE_TOKEN, "pw": PROSE_PW, "url": PROSE_URL}[style]
        tpl = r.choice(table[_lang(r)])
    elif x < 0.75:
        tpl = r.choice(CFG)
    else:
        extra = {"token": LOG_TOKEN, "key": [], "pw": LOG_PW, "url": LOG_URL}[style]
        tpl = r.choice(LOG_ANY + extra * 2)
    return tpl.format(**c)


def _wrap_pem(r: random.Random, pem: str, desc: str) -> str:
    c = _ctx(r, "SSH_PRIVATE_KEY", desc)
    who = c["who"]
    x = r.randrange(9)
    if x == 0:
        return f"{desc} for {c['p']} (deploy user, don't lose it):\n{pem}\n"
    if x == 1:
        return f"$ cat ~/.ssh/id_{r.choice(['ed25519', 'rsa', 'deploy'])}\n{pem}\n$ "
    if x == 2:
        return f'DEPLOY_KEY="{pem}"\n'
    if x == 3:
        return f'resource "tls_private_key" "imported" {{}}\n\nlocals {{\n  signing_key = <<EOF\n{pem}\nEOF\n}}\n'
    if x == 4:
        return f"Notiz von {who}: Schlüssel für den Build-Server, bitte sicher ablegen.\n{pem}"
    if x == 5:
        return f"{c['ts']} DEBUG loaded key material from env:\n{pem}\n"
    if x == 6:
        return f"メモ：{c['p']} のデプロイ鍵です。\n{pem}\n"
    if x == 7:
        return f"Lesson: the CI job needs this exact key in SSH_KEY, the old one was removed from GitHub.\n\n{pem}\n"
    return f"# {c['p']} tls\nssl_certificate /etc/ssl/{c['p']}.crt;\n# key pasted below for reference\n{pem}\n"


def _wrap_hdr(r: random.Random, tok: str, hdr: str, desc: str) -> str:
    c = _ctx(r, "AUTH_TOKEN", desc)
    x = r.randrange(10)
    h, p, ts = c["h"], c["p"], c["ts"]
    if x == 0:
        return f"$ curl -v https://{h}/api/me\n> GET /api/me HTTP/1.1\n> Host: {h}\n> Authorization: {hdr}\n> Accept: */*\n< HTTP/1.1 200 OK\n"
    if x == 1:
        return f"Note: to call the {p} admin API as me, send `Authorization: {hdr}` -- valid until tomorrow."
    if x == 2:
        return f'{ts} DEBUG request POST https://{h}/graphql headers={{"Authorization": "{hdr}", "Content-Type": "application/json"}}\n'
    if x == 3:
        return f'http --json GET https://{h}/v1/orders "Authorization:{hdr}"\n'
    if x == 4:
        return f'fetch("https://{h}/api/data", {{\n  headers: {{ Authorization: "{hdr}" }},\n}});\n'
    if x == 5:
        return f"Fehler behoben: Die API von {p} akzeptiert den Header `Authorization: {hdr}` wieder."
    if x == 6:
        return f"GET /api/v2/profile HTTP/1.1\r\nHost: {h}\r\nAuthorization: {hdr}\r\nUser-Agent: python-requests/2.31.0\r\n"
    if x == 7:
        return f"{p}: 调试时用的请求头是 Authorization: {hdr}"
    if x == 8:
        return f'headers = {{"Authorization": "{hdr}"}}\nresp = requests.get("https://{h}/v1/me", headers=headers)\n'
    return f"Проверка: curl -H 'Authorization: {hdr}' https://{h}/api/ping возвращает 200."


def _wrap_cookie(r: random.Random, cookie: str) -> str:
    c = _ctx(r, "SESSION", "session cookie")
    h = c["h"]
    x = r.randrange(5)
    if x == 0:
        return f"> GET /dashboard HTTP/2\n> Host: {h}\n> Cookie: {cookie}; theme=dark; lang=en\n"
    if x == 1:
        return f"To reproduce the bug logged in as {c['who']}: curl -b '{cookie}' https://{h}/account/settings"
    if x == 2:
        return (
            f"< HTTP/1.1 302 Found\n< Location: /home\n< Set-Cookie: {cookie}; Path=/; HttpOnly; Secure; SameSite=Lax\n"
        )
    if x == 3:
        return f"Notiz: Session-Cookie aus dem Browser für Tests: {cookie}"
    return f'document.cookie → "{cookie}; _ga=GA1.2.{r.randint(10**8, 10**9)}.{_epoch(r)}"'


def _wrap_jwt(r: random.Random, tok: str, desc: str) -> str:
    x = r.random()
    if x < 0.55:
        return _wrap_hdr(r, tok, "Bearer " + tok, desc)
    c = _ctx(r, "ACCESS_TOKEN", desc)
    y = r.randrange(5)
    if y == 0:
        return f"localStorage.getItem(\"access_token\")\n'{tok}'\n"
    if y == 1:
        return f"Session token for {c['who']} captured during the repro on {c['date']}: {tok}"
    if y == 2:
        return f"> Cookie: auth={tok}; Path=/\n"
    if y == 3:
        return f"users:\n- name: {c['p']}-admin\n  user:\n    token: {tok}\n"
    return f"{c['ts']} INFO  issued token for user={c['u']}: {tok}\n"


# ----------------------------------------------------------------------------------------------
# positive kinds
# ----------------------------------------------------------------------------------------------

Frag = str | tuple[str, str]
KINDS: list[tuple[str, Callable[[random.Random], Frag], list[str], str, str]] = [
    # cloud
    ("aws_secret_access_key", lambda r: _rs(r, ALNUM + "/+", 40), ["AWS_SECRET_ACCESS_KEY", "aws_secret_access_key"], "AWS secret access key", "token"),
    ("aws_session_token", lambda r: base64.b64encode(b"!\n\torigin_ec" + r.randbytes(r.randint(240, 330))).decode(), ["AWS_SESSION_TOKEN"], "AWS session token", "token"),
    ("google_api_key", lambda r: P_AIZA + _rs(r, B64URL, 35), ["GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_SERVER_KEY"], "Google API key", "token"),
    ("google_oauth_client_secret", lambda r: "GOC" + "SPX-" + _rs(r, B64URL, 28), ["GOOGLE_CLIENT_SECRET", "OAUTH_CLIENT_SECRET"], "Google OAuth client secret", "token"),
    ("azure_storage_account_key", lambda r: (lambda k: (f"DefaultEndpointsProtocol=https;AccountName={_rs(r, LOWNUM, 12)};AccountKey={k};EndpointSuffix=core.windows.net", k))(_b64(r, 64)), ["AZURE_STORAGE_CONNECTION_STRING"], "Azure storage connection string", "key"),
    ("azure_client_secret", lambda r: _rs(r, ALNUM, 3) + "8" + "Q~" + _rs(r, ALNUM + "_~.-", 34), ["AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET"], "Azure AD client secret", "token"),
    ("digitalocean_token", lambda r: "do" + "p_v1_" + _hex(r, 64), ["DIGITALOCEAN_TOKEN", "DO_API_TOKEN"], "DigitalOcean token", "token"),
    ("cloudflare_api_token", lambda r: _rs(r, B64URL, 40), ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"], "Cloudflare API token", "token"),
    # source forges, CI, registries, infra
    ("github_pat_classic", lambda r: P_GHP + _rs(r, ALNUM, 36), ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"], "GitHub personal access token", "token"),
    ("github_pat_fine_grained", lambda r: P_GHFG + "11" + _rs(r, UPNUM, 20) + "_" + _rs(r, ALNUM, 59), ["GITHUB_TOKEN", "GH_PAT"], "fine-grained GitHub token", "token"),
    ("github_app_token", lambda r: P_GH + r.choice("sou") + "_" + _rs(r, ALNUM, 36), ["GITHUB_APP_TOKEN", "GH_INSTALLATION_TOKEN"], "GitHub app token", "token"),
    ("gitlab_pat", lambda r: P_GLPAT + _rs(r, B64URL, 20), ["GITLAB_TOKEN", "CI_JOB_PAT", "GL_TOKEN"], "GitLab personal access token", "token"),
    ("gitlab_runner_token", lambda r: P_GLRT + _rs(r, B64URL, 20), ["RUNNER_TOKEN", "CI_SERVER_TOKEN"], "GitLab runner authentication token", "token"),
    ("bitbucket_app_password", lambda r: "AT" + "BB" + _rs(r, ALNUM, 28) + _rs(r, HEXU, 8), ["BITBUCKET_APP_PASSWORD", "BB_APP_PASSWORD"], "Bitbucket app password", "token"),
    ("npm_token", lambda r: P_NPM + _rs(r, ALNUM, 36), ["NPM_TOKEN", "NODE_AUTH_TOKEN"], "npm automation token", "token"),
    ("pypi_token", lambda r: "py" + "pi-" + "AgEIcHlw" + "aS5vcmc" + _rs(r, B64URL, r.randint(150, 190)), ["PYPI_TOKEN", "TWINE_PASSWORD"], "PyPI upload token", "token"),
    ("rubygems_api_key", lambda r: "ruby" + "gems_" + _hex(r, 48), ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"], "RubyGems API key", "token"),
    ("nuget_api_key", lambda r: "oy" + "2" + _rs(r, LOWNUM, 43), ["NUGET_API_KEY"], "NuGet API key", "token"),
    ("dockerhub_pat", lambda r: "dckr" + "_pat_" + _rs(r, B64URL, 27), ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"], "Docker Hub access token", "token"),
    ("circleci_token", lambda r: "CCI" + "PAT_" + _rs(r, ALNUM, 22) + "_" + _hex(r, 40), ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"], "CircleCI personal token", "token"),
    ("buildkite_token", lambda r: "bk" + "ua_" + _hex(r, 40), ["BUILDKITE_API_TOKEN"], "Buildkite API token", "token"),
    ("jfrog_api_key", lambda r: "AK" + "Cp" + r.choice("58") + _rs(r, ALNUM, 68), ["ARTIFACTORY_API_KEY", "JFROG_API_KEY"], "Artifactory API key", "token"),
    ("terraform_cloud_token", lambda r: _rs(r, ALNUM, 14) + ".atlas" + "v1." + _rs(r, ALNUM, 67), ["TFE_TOKEN", "TF_TOKEN_app_terraform_io"], "Terraform Cloud token", "token"),
    ("vault_token", lambda r: "hv" + "s." + (_rs(r, ALNUM, 24) if r.random() < 0.5 else "CAESI" + _rs(r, B64URL, 86)), ["VAULT_TOKEN"], "Vault token", "token"),
    ("doppler_token", lambda r: "dp" + ".st." + r.choice(["prd", "dev", "stg"]) + "." + _rs(r, ALNUM, 40), ["DOPPLER_TOKEN"], "Doppler service token", "token"),
    ("pulumi_token", lambda r: "pu" + "l-" + _hex(r, 40), ["PULUMI_ACCESS_TOKEN"], "Pulumi access token", "token"),
    # payments, commerce
    ("stripe_secret_key", lambda r: P_SKLIVE + _rs(r, ALNUM, r.choice([24, 99])), ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"], "Stripe secret key", "token"),
    ("stripe_restricted_key", lambda r: P_RKLIVE + _rs(r, ALNUM, r.choice([24, 99])), ["STRIPE_RESTRICTED_KEY"], "Stripe restricted key", "token"),
    ("stripe_webhook_secret", lambda r: P_WHSEC + _rs(r, ALNUM, 32), ["STRIPE_WEBHOOK_SECRET"], "Stripe webhook signing secret", "key"),
    ("square_access_token", lambda r: "EA" + "AA" + _rs(r, B64URL, 60), ["SQUARE_ACCESS_TOKEN"], "Square access token", "token"),
    ("braintree_access_token", lambda r: "access_" + "token$production$" + _rs(r, LOWNUM, 16) + "$" + _hex(r, 32), ["BRAINTREE_ACCESS_TOKEN", "PAYPAL_ACCESS_TOKEN"], "Braintree access token", "token"),
    ("shopify_access_token", lambda r: "sh" + r.choice(["pat", "pss", "pca"]) + "_" + _hex(r, 32), ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_API_SECRET"], "Shopify admin token", "token"),
    # messaging, e-mail
    ("slack_bot_token", lambda r: f"{P_XOXB}{r.randint(10**10, 10**12)}-{r.randint(10**11, 10**13)}-{_rs(r, ALNUM, 24)}", ["SLACK_BOT_TOKEN"], "Slack bot token", "token"),
    ("slack_user_token", lambda r: f"{P_XOXP}{r.randint(10**10, 10**12)}-{r.randint(10**10, 10**12)}-{r.randint(10**11, 10**13)}-{_hex(r, 32)}", ["SLACK_USER_TOKEN"], "Slack user token", "token"),
    ("slack_webhook_url", v_slack_webhook, ["SLACK_WEBHOOK_URL"], "Slack incoming webhook", "url"),
    ("slack_signing_secret", lambda r: _hex(r, 32), ["SLACK_SIGNING_SECRET"], "Slack signing secret", "key"),
    ("discord_bot_token", v_discord_bot, ["DISCORD_BOT_TOKEN", "DISCORD_TOKEN"], "Discord bot token", "token"),
    ("discord_webhook_token", v_discord_webhook, ["DISCORD_WEBHOOK_URL"], "Discord webhook", "url"),
    ("telegram_bot_token", lambda r: f"{r.randint(10**8, 10**10)}:AA{_rs(r, B64URL, 33)}", ["TELEGRAM_BOT_TOKEN", "TG_TOKEN"], "Telegram bot token", "token"),
    ("twilio_auth_token", lambda r: _hex(r, 32), ["TWILIO_AUTH_TOKEN"], "Twilio auth token", "token"),
    ("sendgrid_api_key", lambda r: "SG" + "." + _rs(r, B64URL, 22) + "." + _rs(r, B64URL, 43), ["SENDGRID_API_KEY"], "SendGrid API key", "token"),
    ("mailgun_api_key", lambda r: "ke" + "y-" + _hex(r, 32), ["MAILGUN_API_KEY"], "Mailgun API key", "token"),
    ("mailchimp_api_key", lambda r: _hex(r, 32) + "-us" + str(r.randint(1, 21)), ["MAILCHIMP_API_KEY"], "Mailchimp API key", "token"),
    ("postmark_server_token", _uuid, ["POSTMARK_SERVER_TOKEN", "POSTMARK_API_TOKEN"], "Postmark server token", "token"),
    ("brevo_api_key", lambda r: "xkey" + "sib-" + _hex(r, 64) + "-" + _rs(r, ALNUM, 16), ["BREVO_API_KEY", "SENDINBLUE_API_KEY"], "Brevo API key", "token"),
    ("resend_api_key", lambda r: "re" + "_" + _rs(r, ALNUM, 8) + "_" + _rs(r, ALNUM, 24), ["RESEND_API_KEY"], "Resend API key", "token"),
    # AI APIs
    ("openai_api_key", v_openai, ["OPENAI_API_KEY"], "OpenAI API key", "token"),
    ("anthropic_api_key", lambda r: "sk-" + "ant-" + "api03-" + _rs(r, B64URL, 93) + "AA", ["ANTHROPIC_API_KEY"], "Anthropic API key", "token"),
    ("huggingface_token", lambda r: "h" + "f_" + _rs(r, LETTERS, 34), ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"], "Hugging Face token", "token"),
    ("groq_api_key", lambda r: "gs" + "k_" + _rs(r, ALNUM, 52), ["GROQ_API_KEY"], "Groq API key", "token"),
    ("replicate_api_token", lambda r: "r8" + "_" + _rs(r, ALNUM, 37), ["REPLICATE_API_TOKEN"], "Replicate API token", "token"),
    # monitoring
    ("datadog_api_key", lambda r: _hex(r, 32), ["DD_API_KEY", "DATADOG_API_KEY"], "Datadog API key", "token"),
    ("newrelic_user_key", lambda r: "NR" + "AK-" + _rs(r, UPNUM, 27), ["NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY"], "New Relic user key", "token"),
    ("grafana_sa_token", lambda r: "gl" + "sa_" + _rs(r, ALNUM, 32) + "_" + _hex(r, 8), ["GRAFANA_TOKEN", "GRAFANA_SA_TOKEN"], "Grafana service account token", "token"),
    ("sentry_auth_token", lambda r: "sntr" + "yu_" + _hex(r, 64), ["SENTRY_AUTH_TOKEN"], "Sentry auth token", "token"),
    # auth providers
    ("okta_api_token", lambda r: "00" + _rs(r, B64URL, 40), ["OKTA_API_TOKEN", "OKTA_CLIENT_TOKEN"], "Okta API token", "token"),
    ("auth0_client_secret", lambda r: _rs(r, B64URL, 64), ["AUTH0_CLIENT_SECRET"], "Auth0 client secret", "token"),
    ("supabase_service_role_key", v_supabase_service, ["SUPABASE_SERVICE_ROLE_KEY"], "Supabase service_role key", "token"),
    # databases-as-a-service and connection strings
    ("planetscale_password", lambda r: "pscale" + "_pw_" + _rs(r, ALNUM + "_", 43), ["DATABASE_PASSWORD", "PLANETSCALE_PASSWORD"], "PlanetScale password", "pw"),
    ("databricks_token", lambda r: "dap" + "i" + _hex(r, 32) + r.choice(["", "-2", "-3"]), ["DATABRICKS_TOKEN"], "Databricks token", "token"),
    ("postgres_uri_password", v_postgres, ["DATABASE_URL", "POSTGRES_DSN"], "Postgres URL", "url"),
    ("mysql_uri_password", v_mysql, ["DATABASE_URL", "MYSQL_URL"], "MySQL URL", "url"),
    ("mongodb_uri_password", v_mongodb, ["MONGODB_URI", "MONGO_URL"], "MongoDB Atlas URI", "url"),
    ("redis_uri_password", v_redis, ["REDIS_URL", "CELERY_BROKER_URL"], "Redis URL", "url"),
    ("amqp_uri_password", v_amqp, ["AMQP_URL", "RABBITMQ_URL"], "RabbitMQ URL", "url"),
    ("mssql_connection_password", v_mssql, ["ConnectionStrings__Default", "SQL_CONNECTION"], "SQL Server connection string", "url"),
    # other SaaS
    ("atlassian_api_token", lambda r: "ATA" + "TT3xFfGF0" + _rs(r, B64URL, 180) + "=" + _rs(r, HEXU, 8), ["JIRA_API_TOKEN", "CONFLUENCE_TOKEN"], "Atlassian API token", "token"),
    ("linear_api_key", lambda r: "lin" + "_api_" + _rs(r, ALNUM, 40), ["LINEAR_API_KEY"], "Linear API key", "token"),
    ("notion_token", lambda r: ("nt" + "n_" + _rs(r, DIGITS, 11) + _rs(r, ALNUM, 35)) if r.random() < 0.6 else ("sec" + "ret_" + _rs(r, ALNUM, 43)), ["NOTION_TOKEN", "NOTION_API_KEY"], "Notion integration token", "token"),
    ("figma_token", lambda r: "fig" + "d_" + _rs(r, B64URL, 40), ["FIGMA_TOKEN"], "Figma personal access token", "token"),
    ("airtable_pat", lambda r: "pa" + "t" + _rs(r, ALNUM, 14) + "." + _hex(r, 64), ["AIRTABLE_API_KEY", "AIRTABLE_PAT"], "Airtable token", "token"),
    ("postman_api_key", lambda r: "PM" + "AK-" + _hex(r, 24) + "-" + _hex(r, 34), ["POSTMAN_API_KEY"], "Postman API key", "token"),
    ("mapbox_secret_token", v_mapbox_sk, ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"], "Mapbox secret token", "token"),
    ("heroku_api_key", _uuid, ["HEROKU_API_KEY"], "Heroku API key", "token"),
    ("fcm_server_key", lambda r: "AAAA" + _rs(r, B64URL, 7) + ":" + "APA91b" + _rs(r, B64URL, 134), ["FCM_SERVER_KEY", "FIREBASE_SERVER_KEY"], "FCM legacy server key", "token"),
    # passwords
    ("password_human", _pw_human, ["DB_PASSWORD", "ADMIN_PASSWORD", "SMTP_PASSWORD", "MYSQL_ROOT_PASSWORD"], "admin password", "pw"),
    ("password_generated", _pw_generated, ["DB_PASSWORD", "POSTGRES_PASSWORD", "LDAP_BIND_PASSWORD", "REDIS_PASSWORD"], "database password", "pw"),
    ("passphrase", _passphrase, ["KEY_PASSPHRASE", "GPG_PASSPHRASE", "BACKUP_PASSPHRASE", "VAULT_UNSEAL_PASSPHRASE"], "backup passphrase", "pw"),
    # keys
    ("private_key_rsa", v_rsa_key, [], "RSA private key", "pem"),
    ("private_key_pkcs8", v_pkcs8_key, [], "private key", "pem"),
    ("private_key_ec", v_ec_key, [], "EC private key", "pem"),
    ("private_key_openssh", v_openssh_key, [], "SSH private key", "pem"),
    ("pgp_private_key", v_pgp_key, [], "PGP private key", "pem"),
    ("gcp_service_account_key", v_gcp_sa, [], "", "raw"),
    ("age_secret_key", lambda r: "AGE-SECRET" + "-KEY-1" + _rs(r, BECH32.upper(), 58), ["SOPS_AGE_KEY", "AGE_SECRET_KEY"], "age identity", "key"),
    ("wireguard_private_key", lambda r: _b64(r, 32), ["WG_PRIVATE_KEY", "WIREGUARD_PRIVATE_KEY"], "WireGuard private key", "key"),
    ("eth_private_key", lambda r: r.choice(["0x", ""]) + _hex(r, 64), ["PRIVATE_KEY", "DEPLOYER_PRIVATE_KEY", "WALLET_PRIVATE_KEY"], "wallet private key", "key"),
    # urls and headers
    ("basic_auth_url_password", v_basic_url, ["PIP_INDEX_URL", "REGISTRY_URL", "JENKINS_URL"], "internal registry URL", "url"),
    ("basic_auth_header", v_basic_header, [], "basic auth", "hdr"),
    ("docker_config_auth", v_docker_auth, [], "", "raw"),
    ("jwt_session_token", v_jwt_session, [], "session token", "jwt"),
    ("bearer_token_opaque", lambda r: _rs(r, ALNUM, r.randint(40, 64)), [], "API token", "bearer"),
    ("session_cookie", v_session_cookie, [], "", "cookie"),
    ("generic_api_key", lambda r: _rs(r, ALNUM, r.choice([32, 40, 48])), ["API_KEY", "PARTNER_API_KEY", "X_API_KEY", "VENDOR_API_KEY"], "API key", "token"),
    ("django_secret_key", lambda r: _rs(r, DJANGO_CHARS, 50), ["DJANGO_SECRET_KEY", "SECRET_KEY"], "Django SECRET_KEY", "key"),
    ("rails_secret_key_base", lambda r: _hex(r, 128), ["SECRET_KEY_BASE"], "Rails secret_key_base", "key"),
    ("jwt_signing_secret", lambda r: _b64(r, 48) if r.random() < 0.5 else _hex(r, 64), ["JWT_SECRET", "JWT_SIGNING_KEY", "AUTH_SECRET"], "JWT signing secret", "key"),
    ("laravel_app_key", v_laravel, ["APP_KEY"], "Laravel APP_KEY", "key"),
    ("encryption_key", lambda r: _b64(r, 32) if r.random() < 0.5 else _hex(r, 64), ["ENCRYPTION_KEY", "DATA_ENCRYPTION_KEY", "FIELD_ENCRYPTION_KEY"], "encryption key", "key"),
    ("totp_seed", v_totp, ["MFA_OTPAUTH_URL"], "TOTP enrolment URL", "url"),
    ("generic_webhook_secret", lambda r: _rs(r, ALNUM, 32) if r.random() < 0.5 else _hex(r, 40), ["WEBHOOK_SECRET", "GITHUB_WEBHOOK_SECRET", "HMAC_SECRET"], "webhook secret", "key"),
    # signed URLs
    ("aws_presigned_url_signature", v_aws_presigned, ["EXPORT_URL"], "pre-signed S3 URL", "url"),
    ("gcs_signed_url_signature", v_gcs_signed, ["DOWNLOAD_URL"], "signed GCS URL", "url"),
    ("azure_sas_signature", v_azure_sas, ["BACKUP_SAS_URL", "AZURE_BLOB_SAS_URL"], "Azure SAS URL", "url"),
    ("cloudfront_signed_signature", v_cloudfront, ["VIDEO_URL"], "CloudFront signed URL", "url"),
]  # fmt: skip


def _positive(r: random.Random, spec) -> tuple[str, str]:
    _kind, fn, envs, desc, style = spec
    out = fn(r)
    frag, secret = out if isinstance(out, tuple) else (out, out)
    if style == "pem":
        return _wrap_pem(r, frag, desc), secret
    if style == "raw":
        c = _ctx(r, "X", "")
        x = r.randrange(4)
        if x == 0:
            return frag, secret
        if x == 1:
            return f"$ cat {r.choice(['sa.json', 'key.json', '~/.docker/config.json', 'creds.json'])}\n{frag}\n", secret
        if x == 2:
            return f"Notiz von {c['who']}: die Datei für {c['p']}, bitte nicht committen:\n{frag}", secret
        return f"Saved this for {c['p']} deploys (lesson: CI needs the whole file, not just one field):\n{frag}", secret
    if style == "hdr":
        return _wrap_hdr(r, secret, frag, desc), secret
    if style == "bearer":
        return _wrap_hdr(r, frag, "Bearer " + frag, desc), secret
    if style == "jwt":
        return _wrap_jwt(r, frag, desc), secret
    if style == "cookie":
        return _wrap_cookie(r, frag), secret
    return _wrap(r, frag, r.choice(envs), desc, style), secret


# ----------------------------------------------------------------------------------------------
# look-alike generators
# ----------------------------------------------------------------------------------------------

LOOKALIKES: list[Callable[[random.Random], str]] = []


def _la(fn: Callable[[random.Random], str]) -> Callable[[random.Random], str]:
    LOOKALIKES.append(fn)
    return fn


def _c(r: random.Random) -> dict:
    return _ctx(r, "X", "")


# --- placeholders and templates -----------------------------------------------------------------


@_la
def la_env_example(r):
    p = _proj(r)
    return (
        f"# .env.example for {p} -- copy to .env and fill in\n"
        f"STRIPE_SECRET_KEY={P_SKLIVE}{'x' * 24}\n"
        f"OPENAI_API_KEY=your-openai-key-here\nDATABASE_URL=postgres://user:password@localhost:5432/{p.replace('-', '_')}\n"
        f"PORT={r.choice([3000, 8000, 8080])}\n"
    )


@_la
def la_helm_values(r):
    c = _c(r)
    return (
        f'# values.yaml ({c["p"]})\npostgresql:\n  auth:\n    username: {c["u"]}\n    password: ""  # set via existingSecret\n'
        f"    existingSecret: {c['p']}-db-{_rs(r, LOWER, 4)}\n    secretKeys:\n      userPasswordKey: password\nreplicaCount: {r.randint(1, 6)}\n"
    )


@_la
def la_readme_token(r):
    var = r.choice(["GITHUB_TOKEN", "NPM_TOKEN", "HF_TOKEN", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"])
    return (
        f"## Setup\n\n1. Create a token in the dashboard (scope: `{r.choice(['repo', 'read:packages', 'write'])}`).\n"
        f"2. `export {var}=<your token>`\n3. Run `make {r.choice(['bootstrap', 'dev', 'seed'])}`.\n\n"
        f"Never commit the token; the pre-commit hook (v{r.randint(1, 4)}.{r.randint(0, 20)}) will block it.\n"
    )


@_la
def la_compose_interp(r):
    c = _c(r)
    return (
        f"services:\n  db:\n    image: postgres:{r.randint(13, 17)}\n    environment:\n"
        f"      POSTGRES_USER: {c['u']}\n      POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD:?set it in .env}}\n"
        f"  {c['p']}:\n    environment:\n      DATABASE_URL: postgres://{c['u']}:${{POSTGRES_PASSWORD}}@db:5432/{c['db']}\n"
    )


@_la
def la_conn_placeholder(r):
    c = _c(r)
    x = r.randrange(4)
    if x == 0:
        return f"Atlas says to connect with: mongodb+srv://{c['u']}:<db_password>@cluster0.{_rs(r, LOWNUM, 5)}.mongodb.net/?retryWrites=true&w=majority"
    if x == 1:
        return f"postgresql://<user>:<password>@<host>:5432/<database>  -- template from the {c['p']} wiki"
    if x == 2:
        return f"jdbc:postgresql://{c['h']}:5432/{c['db']}?user={c['u']}&password=${{DB_PASSWORD}}&ssl=true"
    return f"REDIS_URL=redis://:{{{{ .Values.redis.password }}}}@{c['p']}-redis-master:6379/{r.randint(0, 3)}"


@_la
def la_jinja_ansible(r):
    c = _c(r)
    return (
        f"- name: configure {c['p']}\n  template:\n    src: {c['pu']}.conf.j2\n    dest: /etc/{c['p']}/app.conf\n"
        f"  vars:\n    db_password: \"{{{{ vault_{c['pu']}_db_password }}}}\"\n    api_token: \"{{{{ lookup('env', 'API_TOKEN') }}}}\"\n"
    )


@_la
def la_terraform_refs(r):
    c = _c(r)
    return (
        f'resource "aws_db_instance" "{c["pu"]}" {{\n  identifier = "{c["p"]}-{r.choice(["prod", "stg"])}"\n'
        f'  username   = "{c["u"]}"\n  password   = random_password.{c["pu"]}.result\n'
        f'  engine_version = "{r.randint(13, 16)}.{r.randint(1, 9)}"\n}}\n\nresource "random_password" "{c["pu"]}" {{\n  length  = {r.choice([24, 32, 40])}\n  special = true\n}}\n'
    )


@_la
def la_gha_secrets(r):
    var = r.choice(["NPM_TOKEN", "PYPI_API_TOKEN", "DOCKERHUB_TOKEN", "SLACK_WEBHOOK_URL", "AWS_SECRET_ACCESS_KEY"])
    return (
        f"name: release\non:\n  push:\n    tags: ['v*']\njobs:\n  publish:\n    runs-on: ubuntu-{r.choice(['22.04', '24.04', 'latest'])}\n"
        f"    steps:\n      - uses: actions/checkout@{_sha(r)}  # v4.{r.randint(0, 2)}.{r.randint(0, 9)}\n"
        f"      - run: make publish\n        env:\n          {var}: ${{{{ secrets.{var} }}}}\n"
    )


@_la
def la_k8s_secretref(r):
    c = _c(r)
    return (
        f"        env:\n          - name: DB_PASSWORD\n            valueFrom:\n              secretKeyRef:\n"
        f'                name: {c["p"]}-db\n                key: password\n          - name: RELEASE\n            value: "{c["ver"]}"\n'
    )


@_la
def la_aws_sm_arn(r):
    c = _c(r)
    acct = r.randint(10**11, 10**12 - 1)
    return f"The {c['p']} service reads its DB creds from arn:aws:secretsmanager:{c['reg']}:{acct}:secret:{r.choice(['prod', 'staging'])}/{c['p']}/db-{_rs(r, ALNUM, 6)} (rotation every 30 days, Lambda {c['p']}-rotator)."


@_la
def la_vault_path(r):
    c = _c(r)
    return f"$ vault kv get -field=password secret/{r.choice(['prod', 'staging'])}/{c['p']}/postgres\n(not pasting the output here -- fetch it yourself, policy `{c['pu']}-read`)"


@_la
def la_op_ref(r):
    c = _c(r)
    vault = r.choice(["Engineering", "Ops", "Shared", "Private"])
    return (
        f"# .env.tpl (1Password)\nSTRIPE_SECRET_KEY=op://{vault}/Stripe {c['p']}/credential\n"
        f"GITHUB_TOKEN=op://{vault}/GitHub bot/token\nDB_PASSWORD=op://{vault}/{c['p']} postgres/password\n"
        f"# run: op run --env-file=.env.tpl -- npm start\n"
    )


@_la
def la_gcp_sm_ref(r):
    c = _c(r)
    return f"Decision: {c['p']} now loads secrets from projects/{r.randint(10**11, 10**12)}/secrets/{c['pu']}-api-key/versions/{r.choice(['latest', str(r.randint(1, 30))])} instead of the .env file."


@_la
def la_keyvault_ref(r):
    c = _c(r)
    return f'"DbPassword": "@Microsoft.KeyVault(SecretUri=https://{c["pu"].replace("_", "")}-kv.vault.azure.net/secrets/DbPassword/{_hex(r, 32)})"'


@_la
def la_sops(r):
    c = _c(r)
    return (
        f"db:\n    user: {c['u']}\n    password: ENC[AES256_GCM,data:{_b64(r, r.randint(12, 24))},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]\n"
        f'sops:\n    age:\n        - recipient: age1{_rs(r, BECH32, 58)}\n    lastmodified: "{_ts(r)}"\n'
        f"    mac: ENC[AES256_GCM,data:{_b64(r, 32)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]\n    version: 3.{r.randint(7, 9)}.{r.randint(0, 3)}\n"
    )


@_la
def la_ansible_vault(r):
    lines = [_hex(r, 80) for _ in range(r.randint(3, 7))]
    return (
        "db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n"
        + "\n".join("          " + x for x in lines)
        + "\n"
    )


@_la
def la_sealed_secret(r):
    c = _c(r)
    return (
        f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {c['p']}-creds\n  namespace: {c['p']}\n"
        f"spec:\n  encryptedData:\n    password: AgB{_rs(r, B64, r.randint(300, 400))}==\n"
    )


@_la
def la_masked_prefix(r):
    x = r.randrange(5)
    last = _rs(r, ALNUM, 4)
    if x == 0:
        return f"Rotated the Stripe key today; the new one ends in ...{last} ({P_SKLIVE}{'*' * 20}{last}). Stored in Vault."
    if x == 1:
        return f"Token in use: {P_GHP}{'•' * 8}{last} (expires {_date(r)})"
    if x == 2:
        return f"OPENAI_API_KEY=sk-...{last}  # masked by the dashboard"
    if x == 3:
        return f"{P_XOXB}****-****-{last} is the bot token that {r.choice(PEOPLE)} revoked."
    return f"AWS key {P_AKIA}****************, secret ****************************************"


@_la
def la_ci_masked(r):
    c = _c(r)
    return (
        f"Run docker/login-action@v3\n  with:\n    username: {c['u']}\n    password: ***\n    registry: ghcr.io\n"
        f"Logging into ghcr.io...\nLogin Succeeded!\n{c['ts']} ##[debug]Evaluating: secrets.GHCR_TOKEN\n"
    )


@_la
def la_redacted_log(r):
    c = _c(r)
    return (
        f"{c['ts']} INFO  outbound request POST https://{c['h']}/v1/charge headers={{'Authorization': '[REDACTED]', 'Idempotency-Key': '{_uuid(r)}'}}\n"
        f"{c['ts']} INFO  params={{'password': '[FILTERED]', 'email': '{c['who'].lower()}@{c['dom']}'}}\n"
    )


@_la
def la_passphrase_prompt(r):
    c = _c(r)
    return (
        f"$ git push origin {r.choice(['main', 'feature/login', 'fix/retry'])}\nEnter passphrase for key '/home/{c['u']}/.ssh/id_ed25519':\n"
        f"Enumerating objects: {r.randint(5, 90)}, done.\nTo github.com:{c['org']}/{c['p']}.git\n   {_hex(r, 7)}..{_hex(r, 7)}  main -> main\n"
    )


# --- env var names and code that reads secrets ------------------------------------------------------


@_la
def la_prose_envnames(r):
    c = _c(r)
    names = r.sample(
        [
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "GITHUB_TOKEN",
            "NPM_TOKEN",
            "SENTRY_AUTH_TOKEN",
            "DATABASE_URL",
            "STRIPE_SECRET_KEY",
            "SLACK_BOT_TOKEN",
        ],
        3,
    )
    return f"Project fact: the {c['p']} runner needs {names[0]}, {names[1]} and {names[2]} set as repository secrets; without them the {r.choice(['deploy', 'release', 'nightly'])} job fails at step {r.randint(2, 9)}."


@_la
def la_env_names_dump(r):
    names = r.sample(
        [
            "HOME",
            "PATH",
            "AWS_PROFILE",
            "AWS_SECRET_ACCESS_KEY",
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "DB_PASSWORD",
            "LANG",
            "SHELL",
            "TERM",
            "VAULT_ADDR",
        ],
        7,
    )
    return (
        "$ env | cut -d= -f1 | sort\n"
        + "\n".join(sorted(names))
        + f"\n$ echo ${{#OPENAI_API_KEY}}\n{r.choice([51, 164, 56])}\n"
    )


@_la
def la_py_env(r):
    c = _c(r)
    var = r.choice(["OPENAI_API_KEY", "STRIPE_SECRET_KEY", "ANTHROPIC_API_KEY", "DB_PASSWORD", "SLACK_BOT_TOKEN"])
    return (
        f"import os\n\nfrom {c['pu']} import Client\n\n\ndef make_client() -> Client:\n"
        f'    key = os.environ["{var}"]\n    if not key:\n        raise RuntimeError("{var} is not set")\n    return Client(api_key=key, timeout={r.randint(5, 60)})\n'
    )


@_la
def la_js_env(r):
    var = r.choice(["STRIPE_SECRET_KEY", "JWT_SECRET", "SENDGRID_API_KEY", "MONGODB_URI", "NEXTAUTH_SECRET"])
    return (
        f"const secret = process.env.{var};\nif (!secret) {{\n  throw new Error('Missing {var} (see .env.example)');\n}}\n"
        f"const client = createClient({{ secret, retries: {r.randint(1, 5)} }});\n"
    )


@_la
def la_go_env(r):
    var = r.choice(["GITHUB_TOKEN", "VAULT_TOKEN", "DD_API_KEY", "TWILIO_AUTH_TOKEN"])
    return (
        f'token, ok := os.LookupEnv("{var}")\nif !ok || token == "" {{\n\tlog.Fatal("{var} must be set")\n}}\n'
        f"client := api.New(token, api.WithTimeout({r.randint(5, 30)}*time.Second))\n"
    )


@_la
def la_rust_env(r):
    var = r.choice(["DATABASE_URL", "API_KEY", "SECRET_KEY_BASE"])
    return f'let {var.lower()} = std::env::var("{var}").expect("{var} not set");\nlet pool = PgPoolOptions::new().max_connections({r.randint(2, 32)}).connect(&database_url).await?;\n'


@_la
def la_file_secret(r):
    c = _c(r)
    return (
        f"def read_secret(name: str) -> str:\n    # docker/k8s mount secrets under /run/secrets\n"
        f'    with open(f"/run/secrets/{{name}}", encoding="utf-8") as fh:\n        return fh.read().strip()\n\n\n'
        f'DB_PASSWORD = read_secret("{c["pu"]}_db_password")\n'
    )


@_la
def la_hvac(r):
    c = _c(r)
    return (
        f'client = hvac.Client(url="https://vault.{c["dom"]}:8200", token=os.environ["VAULT_TOKEN"])\n'
        f'resp = client.secrets.kv.v2.read_secret_version(path="{c["p"]}/db", mount_point="secret")\n'
        f'password = resp["data"]["data"]["password"]\n'
    )


@_la
def la_boto_sm(r):
    c = _c(r)
    return (
        f'sm = boto3.client("secretsmanager", region_name="{c["reg"]}")\n'
        f'secret = json.loads(sm.get_secret_value(SecretId="{c["p"]}/prod/db")["SecretString"])\n'
        f'conn = psycopg.connect(host=secret["host"], user=secret["username"], password=secret["password"])\n'
    )


@_la
def la_spring_value(r):
    c = _c(r)
    return (
        f'@Configuration\npublic class {c["P"]}Config {{\n    @Value("${{spring.datasource.password}}")\n    private String dbPassword;\n\n'
        f'    @Value("${{{c["pk"]}.api-key:}}")\n    private String apiKey;\n}}\n'
    )


@_la
def la_dotnet_config(r):
    c = _c(r)
    return f'var key = builder.Configuration["{c["P"]}:ApiKey"]\n    ?? throw new InvalidOperationException("{c["P"]}:ApiKey missing; use dotnet user-secrets set");\n'


# --- hashes and digests ---------------------------------------------------------------------------


@_la
def la_sha256sum(r):
    c = _c(r)
    return (
        "$ sha256sum dist/*\n"
        + "\n".join(
            f"{_hex(r, 64)}  dist/{c['p']}-{c['ver']}-{a}.tar.gz"
            for a in r.sample(["linux-amd64", "linux-arm64", "darwin-arm64", "windows-amd64"], 3)
        )
        + "\n"
    )


@_la
def la_git_log(r):
    msgs = [
        "fix: retry on 502",
        "chore: bump deps",
        "feat: add export",
        "refactor auth middleware",
        "docs: rotate-token runbook",
        "test: flaky timeout",
    ]
    return (
        "$ git log --oneline -5\n"
        + "\n".join(f"{_hex(r, r.choice([7, 8, 9]))} {r.choice(msgs)}" for _ in range(5))
        + "\n"
    )


@_la
def la_git_show(r):
    c = _c(r)
    return (
        f"commit {_sha(r)}\nMerge: {_hex(r, 7)} {_hex(r, 7)}\nAuthor: {c['who']} <{c['who'].lower()}@{c['dom']}>\nDate:   {_date(r)}\n\n"
        f"    Merge pull request #{r.randint(100, 9999)} from {c['org']}/rotate-{r.choice(['stripe', 'slack', 'db'])}-secret\n"
    )


@_la
def la_image_digest(r):
    c = _c(r)
    return f"Pin the base image: FROM python:3.{r.randint(9, 13)}-slim@sha256:{_hex(r, 64)}\nPushed ghcr.io/{c['org']}/{c['p']}:{c['ver']} digest: sha256:{_hex(r, 64)} size: {r.randint(1000, 5000)}"


@_la
def la_npm_integrity(r):
    pkg = r.choice(["lodash", "react-dom", "axios", "esbuild", "zod", "typescript"])
    return f'    "node_modules/{pkg}": {{\n      "version": "{r.randint(1, 20)}.{r.randint(0, 30)}.{r.randint(0, 9)}",\n      "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg}-1.0.0.tgz",\n      "integrity": "sha512-{_b64(r, 64)}"\n    }}'


@_la
def la_pip_hash(r):
    pkg = r.choice(["requests", "urllib3", "cryptography", "pydantic", "boto3"])
    return f"{pkg}=={r.randint(1, 45)}.{r.randint(0, 30)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_hex(r, 64)} \\\n    --hash=sha256:{_hex(r, 64)}\n"


@_la
def la_go_sum(r):
    mod = r.choice(
        ["github.com/stretchr/testify", "golang.org/x/crypto", "github.com/spf13/cobra", "google.golang.org/grpc"]
    )
    v = f"v{r.randint(0, 1)}.{r.randint(1, 60)}.{r.randint(0, 9)}"
    return f"{mod} {v} h1:{_b64(r, 32)}\n{mod} {v}/go.mod h1:{_b64(r, 32)}\n"


@_la
def la_cargo_lock(r):
    crate = r.choice(["serde", "tokio", "ring", "rustls", "hyper"])
    return f'[[package]]\nname = "{crate}"\nversion = "{r.randint(0, 2)}.{r.randint(0, 40)}.{r.randint(0, 9)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{_hex(r, 64)}"\n'


@_la
def la_bcrypt_rows(r):
    rows = "\n".join(
        f" {i:>3} | {r.choice(PEOPLE).lower()}{i}@{r.choice(DOMAINS)} | $2b$12${_rs(r, './' + ALNUM, 53)}"
        for i in range(r.randint(1, 99), r.randint(100, 103))
    )
    return f"select id, email, password_hash from users limit 3;\n id  | email | password_hash\n{rows}\n"


@_la
def la_argon2(r):
    return f"Lesson: we store only the argon2 hash, e.g. $argon2id$v=19$m=65536,t=3,p=4${_b64(r, 16).rstrip('=')}${_b64(r, 32).rstrip('=')} -- the plaintext never touches the DB."


@_la
def la_shadow(r):
    u = r.choice(USERS)
    return f"$ sudo grep {u} /etc/shadow\n{u}:$6${_rs(r, './' + ALNUM, 16)}${_rs(r, './' + ALNUM, 86)}:{r.randint(19000, 20000)}:0:99999:7:::\n"


@_la
def la_htpasswd(r):
    return f"# /etc/nginx/.htpasswd (generated with htpasswd -m)\n{r.choice(USERS)}:$apr1${_rs(r, './' + ALNUM, 8)}${_rs(r, './' + ALNUM, 22)}\n"


@_la
def la_django_hash(r):
    return f"auth_user.password = pbkdf2_sha256${r.choice([600000, 720000, 870000])}${_rs(r, ALNUM, 22)}${_b64(r, 32)}"


@_la
def la_etag_md5(r):
    c = _c(r)
    return f'< HTTP/2 200\n< content-type: application/json\n< etag: "{_hex(r, 32)}"\n< x-amz-request-id: {_rs(r, UPNUM, 16)}\n< x-cache: Hit from cloudfront\n< via: 1.1 {_hex(r, 32)}.cloudfront.net (CloudFront)\n< x-request-id: {_uuid(r)}\n< server: {c["p"]}'


@_la
def la_webhook_sig_header(r):
    c = _c(r)
    return (
        f"POST /hooks/github HTTP/1.1\nX-GitHub-Event: push\nX-GitHub-Delivery: {_uuid(r)}\nX-Hub-Signature-256: sha256={_hex(r, 64)}\n"
        f"{c['ts']} INFO  signature verified for delivery, repo={c['org']}/{c['p']}"
    )


@_la
def la_stripe_sig_header(r):
    t = _epoch(r)
    return f"{_ts(r)} DEBUG stripe webhook evt_{_rs(r, ALNUM, 24)} Stripe-Signature: t={t},v1={_hex(r, 64)} -> verified (tolerance 300s)"


@_la
def la_sri(r):
    lib = r.choice(["bootstrap", "jquery", "alpinejs", "htmx.org"])
    return f'<script src="https://cdn.jsdelivr.net/npm/{lib}@{r.randint(1, 5)}.{r.randint(0, 9)}.{r.randint(0, 9)}/dist/{lib}.min.js"\n        integrity="sha384-{_b64(r, 48)}"\n        crossorigin="anonymous"></script>'


@_la
def la_ssh_fingerprint(r):
    c = _c(r)
    return (
        f"The authenticity of host '{c['h']} ({c['ip']})' can't be established.\nED25519 key fingerprint is SHA256:{_b64(r, 32).rstrip('=')}.\n"
        f"This key is not known by any other names.\nAre you sure you want to continue connecting (yes/no/[fingerprint])? yes"
    )


@_la
def la_tls_fingerprint(r):
    fp = ":".join(_rs(r, HEXU, 2) for _ in range(32))
    return f"Cert for {_host(r)} pinned in the mobile app: SHA-256 Fingerprint={fp} (expires {_date(r)})"


@_la
def la_git_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(r, 64)}\nsize {r.randint(1000, 10**9)}\n"


# --- ids -------------------------------------------------------------------------------------------


@_la
def la_request_ids(r):
    c = _c(r)
    return f"{c['ts']} ERROR [{c['p']}] request_id={_uuid(r)} trace_id={_hex(r, 32)} span_id={_hex(r, 16)} upstream timeout after {r.randint(1000, 30000)}ms"


@_la
def la_traceparent(r):
    return (
        f"> traceparent: 00-{_hex(r, 32)}-{_hex(r, 16)}-01\n> tracestate: dd=s:1;o:rum\n> x-correlation-id: {_uuid(r)}"
    )


@_la
def la_aws_ids(r):
    c = _c(r)
    acct = r.randint(10**11, 10**12 - 1)
    return (
        f"An error occurred (AccessDenied) when calling the PutObject operation: User: arn:aws:sts::{acct}:assumed-role/{c['p']}-task/{_hex(r, 32)} "
        f"is not authorized. RequestId: {_rs(r, UPNUM, 16)}, HostId: {_b64(r, 54)}"
    )


@_la
def la_sts_identity(r):
    acct = r.randint(10**11, 10**12 - 1)
    return f'$ aws sts get-caller-identity\n{{\n    "UserId": "AIDA{_rs(r, UPNUM, 17)}",\n    "Account": "{acct}",\n    "Arn": "arn:aws:iam::{acct}:user/{r.choice(PEOPLE).lower()}"\n}}'


@_la
def la_stripe_ids(r):
    return (
        f"Refund issued for order {r.randint(10000, 99999)}: customer cus_{_rs(r, ALNUM, 14)}, payment_intent pi_{_rs(r, ALNUM, 24)}, "
        f"charge ch_{_rs(r, ALNUM, 24)}, refund re_{_rs(r, ALNUM, 24)}. Event evt_{_rs(r, ALNUM, 24)}."
    )


@_la
def la_github_ids(r):
    c = _c(r)
    return f"Workflow run {r.randint(10**9, 10**10)} (check suite {r.randint(10**10, 10**11)}) for {c['org']}/{c['p']}@{_sha(r)} node_id MDQ6VXNlcj{_rs(r, ALNUM, 8)}= failed on job build ({r.randint(10**10, 10**11)})."


@_la
def la_slack_ids(r):
    return f'{{"type":"message","channel":"C0{_rs(r, UPNUM, 9)}","user":"U0{_rs(r, UPNUM, 9)}","team":"T0{_rs(r, UPNUM, 8)}","ts":"{_epoch(r)}.{r.randint(100000, 999999)}","text":"deploy done"}}'


@_la
def la_azure_resource(r):
    c = _c(r)
    return f"/subscriptions/{_uuid(r)}/resourceGroups/rg-{c['p']}-{r.choice(['prod', 'dev'])}/providers/Microsoft.Web/sites/{c['p']}-api -- tenant {_uuid(r)}, client (app) id {_uuid(r)}"


@_la
def la_gcp_ids(r):
    c = _c(r)
    pid = f"{c['p']}-{r.randint(100000, 999999)}"
    return f"Project {pid} (number {r.randint(10**11, 10**12)}), runtime SA {r.randint(10**11, 10**12)}-compute@developer.gserviceaccount.com, deployer {c['pu'].replace('_', '-')}-ci@{pid}.iam.gserviceaccount.com."


@_la
def la_google_client_id(r):
    c = _c(r)
    return f"NEXT_PUBLIC_GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{_rs(r, LOWNUM, 32)}.apps.googleusercontent.com\nNEXT_PUBLIC_APP_URL=https://{c['h']}"


@_la
def la_order_ids(r):
    return f"Kunde meldet doppelte Buchung: Bestellung ORD-{r.randint(2023, 2025)}-{r.randint(100000, 999999)}, Rechnung INV-{_rs(r, UPNUM, 8)}, Sendung 1Z{_rs(r, UPNUM, 16)}."


@_la
def la_k8s_pods(r):
    c = _c(r)
    rows = "\n".join(
        f"{c['p']}-{_rs(r, LOWNUM, 10)}-{_rs(r, LOWNUM, 5)}   1/1     Running   {r.randint(0, 4)}          {r.randint(1, 40)}d"
        for _ in range(3)
    )
    return f"$ kubectl get pods -n {c['p']}\nNAME                                READY   STATUS    RESTARTS   AGE\n{rows}\ncontainerID: containerd://{_hex(r, 64)}"


@_la
def la_objectids(r):
    return (
        'db.orders.find({_id: ObjectId("'
        + _hex(r, 24)
        + '")})  // customer '
        + _hex(r, 24)
        + ", ~"
        + str(r.randint(2, 90))
        + "ms"
    )


@_la
def la_ulid(r):
    c = _c(r)
    ulid = "01" + _rs(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24)
    return (
        f"GET https://{c['h']}/api/documents/{ulid}/versions/{_rs(r, B64URL, 21)} 404 (document deleted by {c['who']})"
    )


@_la
def la_sentry_dsn(r):
    c = _c(r)
    return (
        f'Sentry.init({{\n  dsn: "https://{_hex(r, 32)}@o{r.randint(10**5, 10**7)}.ingest.sentry.io/{r.randint(10**6, 10**8)}",\n'
        f'  release: "{c["p"]}@{c["ver"]}",\n  tracesSampleRate: 0.{r.randint(1, 9)},\n}});'
    )


@_la
def la_idempotency(r):
    return (
        f"Idempotency-Key: {_uuid(r)}\nX-Request-Id: {_hex(r, 32)}\nX-Amzn-Trace-Id: Root=1-{_hex(r, 8)}-{_hex(r, 24)}"
    )


# --- public keys, certificates, publishable keys ------------------------------------------------------


@_la
def la_ssh_pubkey(r):
    c = _c(r)
    return f"Add this to authorized_keys on {c['h']} so {c['who']} can log in:\n{_ssh_pub(r, c['who'].lower() + '@laptop')}"


@_la
def la_cloud_init_keys(r):
    c = _c(r)
    return f"#cloud-config\nusers:\n  - name: {c['u']}\n    ssh_authorized_keys:\n      - {_ssh_pub(r, c['u'] + '@bastion')}\n    sudo: ALL=(ALL) NOPASSWD:ALL\n"


@_la
def la_pubkey_pem(r):
    return f"JWT verification key for {_proj(r)} (public, safe to share):\n{_pubkey_pem(r)}"


@_la
def la_cert(r):
    return f"$ openssl s_client -connect {_host(r)}:443 -showcerts </dev/null\nCONNECTED(00000003)\n---\nCertificate chain\n 0 s:CN = {_host(r)}\n{_cert(r)}\n---"


@_la
def la_pgp_pub(r):
    b = base64.b64encode(bytes.fromhex("9833") + r.randbytes(r.randint(300, 500))).decode()
    body = "\n".join(b[i : i + 64] for i in range(0, len(b), 64))
    lab = "PGP PUBLIC KEY BLOCK"
    return f"My public key for encrypted mail:\n{DASH}BEGIN {lab}{DASH}\n\n{body}\n={_b64(r, 3)}\n{DASH}END {lab}{DASH}"


@_la
def la_wg_show(r):
    return (
        f"$ sudo wg show\ninterface: wg0\n  public key: {_b64(r, 32)}\n  private key: (hidden)\n  listening port: {r.randint(40000, 60000)}\n\n"
        f"peer: {_b64(r, 32)}\n  endpoint: {_ip(r)}:51820\n  allowed ips: 10.8.0.{r.randint(2, 200)}/32\n  latest handshake: {r.randint(2, 59)} seconds ago"
    )


@_la
def la_age_recipient(r):
    return f"creation_rules:\n  - path_regex: secrets/.*\\.yaml$\n    age: >-\n      age1{_rs(r, BECH32, 58)},\n      age1{_rs(r, BECH32, 58)}\n"


@_la
def la_stripe_publishable(r):
    return f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={P_PKLIVE}{_rs(r, ALNUM, 99)}\n# publishable key: fine in the browser bundle"


@_la
def la_mapbox_public(r):
    body = _b64u(json.dumps({"u": r.choice(PEOPLE).lower(), "a": _rs(r, LOWNUM, 25)}, separators=(",", ":")).encode())
    return f"mapboxgl.accessToken = 'pk.{body}.{_rs(r, B64URL, 22)}'; // public token, URL-restricted to {r.choice(DOMAINS)}"


@_la
def la_supabase_anon(r):
    iat = _epoch(r)
    tok = _jwt(
        r, {"iss": "supabase", "ref": _rs(r, LOWER, 20), "role": "anon", "iat": iat, "exp": iat + 10 * 365 * 86400}
    )
    return f"const supabase = createClient(\n  'https://{_rs(r, LOWER, 20)}.supabase.co',\n  '{tok}' // anon key, RLS enforced\n);"


@_la
def la_recaptcha_site(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{_rs(r, B64URL, 38)}"></div>'


@_la
def la_vapid_public(r):
    return f"const applicationServerKey = urlBase64ToUint8Array('B{_rs(r, B64URL, 86)}');\nawait reg.pushManager.subscribe({{ userVisibleOnly: true, applicationServerKey }});"


@_la
def la_jwks(r):
    return json.dumps(
        {
            "keys": [
                {
                    "kty": "RSA",
                    "use": "sig",
                    "kid": _rs(r, B64URL, 43),
                    "alg": "RS256",
                    "n": _b64u(r.randbytes(256)),
                    "e": "AQAB",
                }
            ]
        },
        indent=2,
    )


@_la
def la_launchdarkly_client(r):
    return f"const ldClient = LDClient.initialize('{_hex(r, 24)}', {{ key: user.id }}); // client-side ID, public by design"


@_la
def la_analytics_ids(r):
    return f'<!-- Google tag -->\n<script async src="https://www.googletagmanager.com/gtag/js?id=G-{_rs(r, UPNUM, 10)}"></script>\n<!-- GTM-{_rs(r, UPNUM, 7)} -->'


@_la
def la_eth_address(r):
    return f"Deployed contract at 0x{_rs(r, HEX + 'ABCDEF', 40)} (tx 0x{_hex(r, 64)}, block {r.randint(10**7, 2 * 10**7)}), owner 0x{_hex(r, 40)}."


@_la
def la_saml_meta(r):
    return f'<md:KeyDescriptor use="signing">\n  <ds:KeyInfo><ds:X509Data><ds:X509Certificate>MIIC{_rs(r, B64, 600)}=</ds:X509Certificate></ds:X509Data></ds:KeyInfo>\n</md:KeyDescriptor>'


@_la
def la_kubeconfig_ca(r):
    c = _c(r)
    ca = base64.b64encode(_cert(r).encode()).decode()
    return (
        f"clusters:\n- cluster:\n    certificate-authority-data: {ca}\n    server: https://{_hex(r, 32).upper()}.gr7.{c['reg']}.eks.amazonaws.com\n  name: {c['p']}\n"
        f"users:\n- name: {c['p']}\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [eks, get-token, --cluster-name, {c['p']}]\n"
    )


@_la
def la_ssh_known_hosts(r):
    return f"|1|{_b64(r, 20)}|{_b64(r, 20)} ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY{_rs(r, B64, 100)}="


@_la
def la_git_signature(r):
    b = _b64(r, r.randint(250, 300))
    body = "\n".join(b[i : i + 64] for i in range(0, len(b), 64))
    return f"$ git cat-file -p HEAD\ntree {_sha(r)}\nparent {_sha(r)}\ngpgsig {DASH}BEGIN PGP SIGNATURE{DASH}\n \n {body.replace(chr(10), chr(10) + ' ')}\n {DASH}END PGP SIGNATURE{DASH}\n\nfix typo"


@_la
def la_android_sha1(r):
    fp = ":".join(_rs(r, HEXU, 2) for _ in range(20))
    return f"Für Google Sign-In auf Android muss der SHA-1 des Upload-Zertifikats eingetragen werden: {fp} (Paket com.{r.choice(['acme', 'northwind'])}.{_proj(r).replace('-', '')})"


# --- vendor example values ---------------------------------------------------------------------------


@_la
def la_aws_example(r):
    kid = P_AKIA + "IOSFODNN7" + "EXAMPLE"
    sk = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKEY"
    return f"From the AWS CLI docs (profile {r.choice(['default', 'dev', 'test'])}):\n[{r.choice(['default', 'dev', 'test'])}]\naws_access_key_id = {kid}\naws_secret_access_key = {sk}\nregion = {r.choice(REGIONS)}"


@_la
def la_jwtio_example(r):
    h = _b64u(b'{"alg":"HS256","typ":"JWT"}')
    p = _b64u(b'{"sub":"1234567890","name":"John Doe","iat":1516239022}')
    sig = _b64u(hmac.new(b"your-256-bit-" + b"secret", f"{h}.{p}".encode(), hashlib.sha256).digest())
    return f"Test case {r.randint(1, 500)}: the decoder must accept the jwt.io sample {h}.{p}.{sig} and return name=John Doe."


@_la
def la_stripe_docs_key(r):
    key = P_SKTEST + "4eC39HqLyjW" + "DarjtT1zdp7dc"
    return f"curl https://api.stripe.com/v1/charges -u {key}: -d amount={r.randint(100, 9999)} -d currency=usd   # Stripe docs sample key"


@_la
def la_placeholder_tokens(r):
    x = r.randrange(5)
    if x == 0:
        return f"GITHUB_TOKEN={P_GHP}{'x' * 36}"
    if x == 1:
        return f"TWILIO_ACCOUNT_SID=AC{'X' * 32}\nTWILIO_AUTH_TOKEN=your_auth_token"
    if x == 2:
        return f"slack:\n  bot_token: {P_XOXB}0000000000-0000000000-{'X' * 24}"
    if x == 3:
        return f"STRIPE_SECRET_KEY={P_SKTEST}...\nSTRIPE_WEBHOOK_SECRET={P_WHSEC}..."
    return f"OPENAI_API_KEY=sk-{'*' * r.randint(20, 48)}"


@_la
def la_prose_placeholder(r):
    c = _c(r)
    return f"Sustituye YOUR_API_KEY por tu clave real en config/{c['p']}.yml; el valor de ejemplo `{r.choice(['REPLACE_ME', 'changeme', '<api-key>', 'TODO'])}` hace que el arranque falle a propósito."


# --- encrypted blobs and base64 of public data ---------------------------------------------------------


@_la
def la_pgp_message(r):
    b = _b64(r, r.randint(200, 400))
    body = "\n".join(b[i : i + 64] for i in range(0, len(b), 64))
    return f"Encrypted to the ops key, decrypt with gpg -d:\n{DASH}BEGIN PGP MESSAGE{DASH}\n\n{body}\n={_b64(r, 3)}\n{DASH}END PGP MESSAGE{DASH}"


@_la
def la_fernet(r):
    return f"select id, ssn_encrypted from patients limit 1;\n {r.randint(1, 9999)} | gAAAAA{_rs(r, B64URL, 114)}=="


@_la
def la_kms_blob(r):
    return f"# encrypted with kms key alias/{_proj(r)} -- decrypted at boot by the entrypoint\nkms_encrypted_password: AQICAHh{_rs(r, B64, 200)}=="


@_la
def la_data_uri(r):
    return f'<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA{_rs(r, B64, r.randint(80, 200))}=" />'


@_la
def la_cursor(r):
    cur = base64.b64encode(
        json.dumps({"offset": r.randint(0, 5000), "sort": "created_at", "dir": "desc"}).encode()
    ).decode()
    return f'{{"data": [...], "has_more": true, "next_cursor": "{cur}"}}'


@_la
def la_b64_config(r):
    c = _c(r)
    raw = json.dumps({"service": c["p"], "replicas": r.randint(1, 9), "features": ["search", "export"]}).encode()
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {c['p']}-features\nbinaryData:\n  features.json: {base64.b64encode(raw).decode()}\n"


@_la
def la_grpc_bin(r):
    return f"{_ts(r)} DEBUG grpc-bin metadata grpc-status-details-bin={_b64(r, r.randint(30, 60))} grpc-message=deadline%20exceeded"


@_la
def la_aead_vectors(r):
    return f"# AES-GCM test vector {r.randint(1, 300)} (public, from NIST CAVP)\nIV = {_hex(r, 24)}\nPT = {_hex(r, 32)}\nAAD = {_hex(r, 40)}\nCT = {_hex(r, 32)}\nTag = {_hex(r, 32)}\n"


# --- minified and generated code, versions, build ids -----------------------------------------------------


@_la
def la_minified(r):
    v = [_rs(r, LETTERS, 1) + _rs(r, ALNUM, r.randint(0, 2)) for _ in range(6)]
    return (
        f'!function(e,t){{"use strict";var {v[0]}="{B64}",{v[1]}=function(n){{return n.replace(/[^A-Za-z0-9]/g,"")}};'
        f'e.{v[2]}={{h:"{_hex(r, 20)}",v:{v[1]}({v[0]}),b:{r.randint(100, 99999)},c:"{r.choice(["chunk", "lazy", "async"])}-{_hex(r, 8)}"}}}}(window);'
    )


@_la
def la_webpack_manifest(r):
    return json.dumps(
        {
            f"{n}.js": f"/static/js/{n}.{_hex(r, 8)}.js"
            for n in ["main", "runtime", "vendors", r.choice(["checkout", "admin", "editor"])]
        }
        | {"main.css": f"/static/css/main.{_hex(r, 20)}.css"},
        indent=2,
    )


@_la
def la_sourcemap(r):
    seg = ",".join(_rs(r, "ACEGIKMOQSUWYacegikmoqsuwy", r.randint(4, 6)) for _ in range(r.randint(20, 40)))
    return f'{{"version":3,"file":"app.{_hex(r, 8)}.js","sources":["webpack://src/index.ts"],"names":["e","t"],"mappings":"{seg};AAAA"}}'


@_la
def la_protobuf_gen(r):
    return f"DESCRIPTOR = _descriptor_pool.Default().AddSerializedFile(b'\\n\\x0b{_proj(r).replace('-', '_')}.proto\\x12\\x02v1\\\"{_rs(r, ALNUM, 30)}\\x62\\x06proto3')\n_globals = globals()\n"


@_la
def la_css_modules(r):
    return (
        " ".join(f".{n}_{s}__{_rs(r, B64URL, 5)}" for n, s in [("Button", "root"), ("Card", "header"), ("Nav", "link")])
        + " { display: flex; }"
    )


@_la
def la_yarn_lock(r):
    pkg = r.choice(["chalk", "debug", "semver", "minimist"])
    return f'{pkg}@^{r.randint(1, 7)}.0.0:\n  version "{r.randint(1, 7)}.{r.randint(0, 9)}.{r.randint(0, 9)}"\n  resolved "https://registry.yarnpkg.com/{pkg}/-/{pkg}-1.0.0.tgz#{_hex(r, 40)}"\n  integrity sha1-{_b64(r, 20)}\n'


@_la
def la_git_describe(r):
    c = _c(r)
    return f"$ {c['pu']} --version\n{c['p']} v{c['ver']}-{r.randint(1, 80)}-g{_hex(r, 7)} (built {_ts(r)}, go1.{r.randint(19, 23)}.{r.randint(0, 9)}, vcs.revision={_sha(r)}, vcs.modified=false)"


@_la
def la_build_ids(r):
    return f"Build #{r.randint(100, 9999)} finished: artifact {_proj(r)}-nightly-{_date(r).replace('-', '')}-{_hex(r, 7)}.zip, build id {_uuid(r)}, cache key node-modules-{_hex(r, 64)}"


@_la
def la_user_agent(r):
    return f"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{r.randint(110, 131)}.0.{r.randint(5000, 6999)}.{r.randint(10, 200)} Safari/537.36 -- reported by user {_hex(r, 12)}"


@_la
def la_android_fp(r):
    return f"Build fingerprint: 'google/{r.choice(['husky', 'shiba', 'oriole'])}/{r.choice(['husky', 'shiba'])}:14/AP2A.{r.randint(240000, 249999)}.{r.randint(1, 9):03d}.A{r.randint(1, 9)}/{r.randint(10**7, 10**8)}:user/release-keys'"


@_la
def la_npm_ls(r):
    return "$ npm ls --depth=0\n" + "\n".join(
        f"├── {p}@{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}"
        for p in r.sample(["express", "jsonwebtoken", "dotenv", "passport", "bcrypt", "pg", "redis"], 4)
    )


# --- prose about credentials (multi-language) --------------------------------------------------------------


@_la
def la_prose_lesson_rotate(r):
    c = _c(r)
    return r.choice(
        [
            f"Lesson learned ({c['date']}): never commit .env files. After the leak we rotated the Stripe and Slack keys within {r.randint(10, 90)} minutes and added gitleaks to pre-commit.",
            f"Decision: {c['p']} moves from static API keys to OIDC federation for CI; no long-lived tokens in GitHub secrets after {c['date']}.",
            f"Preference: {c['who']} wants secrets referenced by name only in notes -- e.g. 'the {c['p']} DB password in Vault' -- never the value.",
            f"Fact: the {c['p']} token expires every {r.choice([7, 30, 90])} days; renewal is automated by the {c['p']}-rotator cron at 03:{r.randint(10, 59)} UTC.",
        ]
    )


@_la
def la_prose_de(r):
    c = _c(r)
    return r.choice(
        [
            f"Entscheidung vom {c['date']}: Die Zugangsdaten für {c['p']} liegen ab sofort nur noch im Vault unter secret/{c['p']}. Bitte keine Passwörter mehr ins Wiki.",
            f"Notiz: {c['who']} hat den API-Schlüssel für {c['p']} rotiert; der alte ist seit {c['date']} ungültig.",
        ]
    )


@_la
def la_prose_es_pt(r):
    c = _c(r)
    return r.choice(
        [
            f"Decisión: las credenciales de {c['p']} se guardan en AWS Secrets Manager; el token se rota cada {r.randint(30, 90)} días.",
            f"Lição aprendida: o deploy do {c['p']} falhou porque a variável DB_PASSWORD não estava definida no ambiente de {r.choice(['produção', 'homologação'])}.",
            f"Preferência do {c['who']}: usar chaves SSH em vez de senha no servidor {c['h']}.",
        ]
    )


@_la
def la_prose_fr(r):
    c = _c(r)
    return f"Rappel : le jeton d'accès de {c['p']} expire le {c['date']}. {c['who']} doit en générer un nouveau dans la console et le mettre dans le coffre, pas dans le ticket {c['tk']}."


@_la
def la_prose_ja_zh_ru(r):
    c = _c(r)
    return r.choice(
        [
            f"決定事項：{c['p']} の APIキーは Secrets Manager で管理し、チャットには貼らないこと（{c['date']}）。",
            f"教訓：{c['p']} のトークンが期限切れでCIが失敗した。有効期限は{r.randint(7, 90)}日。",
            f"决定：{c['p']} 的数据库密码统一放在 Vault 的 secret/{c['p']} 路径下，不要写进代码。",
            f"经验：{c['h']} 登录失败是因为 SSH 公钥没有加到 authorized_keys。",
            f"Решение от {c['date']}: токены для {c['p']} храним только в Vault, в заметки не копируем.",
            f"Урок: деплой {c['p']} упал, потому что переменная API_TOKEN не была задана в окружении.",
        ]
    )


@_la
def la_prose_token_formats(r):
    return (
        r.choice(
            [
                "Note: GitHub classic PATs carry a four-character prefix and 36 random characters; fine-grained ones are much longer. Our scanner checks both.",
                "Fact: Slack bot tokens begin with xoxb, user tokens with xoxp; app-level tokens use xapp. We only ever need the bot one.",
                "Stripe keys come in pairs -- publishable (pk) and secret (sk), each with test and live variants. Only the publishable one may go to the frontend.",
                "AWS access key ids starting with ASIA are temporary (STS); AKIA ones are long-lived and should be phased out.",
            ]
        )
        + f" (ref {_hex(r, 8)})"
    )


@_la
def la_prose_password_policy(r):
    return f"Password policy for {_proj(r)}: min {r.choice([12, 14, 16])} chars, no reuse of the last {r.randint(3, 24)} passwords, lockout after {r.randint(3, 10)} failed attempts, MFA required for admins."


@_la
def la_prose_howto_generate(r):
    return r.choice(
        [
            f"To make a new signing secret: `openssl rand -hex {r.choice([32, 48, 64])}` then store it with `vault kv put secret/{_proj(r)} jwt_secret=-` (reads stdin).",
            f"Generate the Django key with `python -c 'from django.core.management.utils import get_random_secret_key as g; print(g())'` -- {r.choice(PEOPLE)} prefers this over copying one.",
            f"Para gerar uma senha forte: `pwgen -s {r.choice([20, 24, 32])} 1` e guardar direto no Bitwarden.",
        ]
    )


@_la
def la_commit_msgs(r):
    return f"{_hex(r, 7)} security: rotate leaked {r.choice(['Slack', 'Stripe', 'Sentry', 'npm'])} token (#{r.randint(100, 9999)})\n{_hex(r, 7)} chore: move secrets to SSM Parameter Store\n{_hex(r, 7)} fix: read API_KEY from env instead of config.py"


# --- auth error messages -------------------------------------------------------------------------------------


@_la
def la_err_401(r):
    c = _c(r)
    return f'{c["ts"]} ERROR {c["p"]}: HTTP 401 from https://{c["h"]}/oauth/token: {{"error":"invalid_token","error_description":"The access token expired"}} (request {_uuid(r)})'


@_la
def la_err_boto(r):
    return (
        r.choice(
            [
                "botocore.exceptions.ClientError: An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid.",
                "botocore.exceptions.ClientError: An error occurred (ExpiredToken) when calling the ListBuckets operation: The provided token has expired.",
                "An error occurred (SignatureDoesNotMatch): The request signature we calculated does not match the signature you provided. Check your key and signing method.",
            ]
        )
        + f"\n  in {_proj(r)}/sync.py line {r.randint(10, 400)}"
    )


@_la
def la_err_git(r):
    c = _c(r)
    return f"remote: Invalid username or token. Password authentication is not supported for Git operations.\nfatal: Authentication failed for 'https://github.com/{c['org']}/{c['p']}.git/'"


@_la
def la_err_npm(r):
    return f'npm ERR! code E401\nnpm ERR! Unable to authenticate, need: Basic realm="GitHub Package Registry"\nnpm ERR! A complete log of this run can be found in: /root/.npm/_logs/{_date(r)}T10_{r.randint(10, 59)}_00_{r.randint(100, 999)}Z-debug-0.log'


@_la
def la_err_stripe(r):
    last = _rs(r, ALNUM, 4)
    return f"stripe.error.AuthenticationError: Request req_{_rs(r, ALNUM, 14)}: Invalid API Key provided: {P_SKLIVE}{'*' * 20}{last}"


@_la
def la_err_openai(r):
    last = _rs(r, ALNUM, 4)
    return f"openai.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: {P_SKPROJ}{'*' * 28}{last}. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}}}"


@_la
def la_err_jwt(r):
    return (
        r.choice(
            [
                "jwt.exceptions.ExpiredSignatureError: Signature has expired",
                "JsonWebTokenError: invalid signature",
                "jose.exceptions.JWTClaimsError: Invalid audience",
                "TokenExpiredError: jwt expired",
            ]
        )
        + f" (user_id={r.randint(1, 10**6)}, path=/api/{r.choice(['me', 'orders', 'admin'])}, trace={_hex(r, 16)})"
    )


@_la
def la_err_psql(r):
    c = _c(r)
    return f'psql: error: connection to server at "{c["h"]}" ({c["ip"]}), port 5432 failed: FATAL:  password authentication failed for user "{c["u"]}"\nFix: the password in PGPASSFILE was outdated; re-synced from Vault.'


@_la
def la_err_vault(r):
    return f"Error reading secret/data/{_proj(r)}/db: Error making API request.\n\nURL: GET https://vault.{r.choice(DOMAINS)}:8200/v1/secret/data/{_proj(r)}/db\nCode: 403. Errors:\n\n* permission denied"


@_la
def la_err_ssh(r):
    c = _c(r)
    return f"{c['u']}@{c['ip']}: Permission denied (publickey,password).\nLösung: den öffentlichen Schlüssel von {c['who']} in ~/.ssh/authorized_keys eintragen."


# --- tool output without secrets -----------------------------------------------------------------------------------


@_la
def la_kubectl_secrets_list(r):
    c = _c(r)
    rows = "\n".join(
        f"{c['p']}-{n:<20} {t:<36} {r.randint(1, 6)}      {r.randint(1, 300)}d"
        for n, t in [("db", "Opaque"), ("tls", "kubernetes.io/tls"), ("registry", "kubernetes.io/dockerconfigjson")]
    )
    return f"$ kubectl get secrets -n {c['p']}\nNAME                       TYPE                                   DATA   AGE\n{rows}"


@_la
def la_gh_auth_status(r):
    c = _c(r)
    return f"$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account {c['who'].lower()} (keyring)\n  - Active account: true\n  - Git operations protocol: ssh\n  - Token: {P_GH}o_{'*' * 36}\n  - Token scopes: 'gist', 'read:org', 'repo'"


@_la
def la_docker_login_ok(r):
    return f"$ echo $CR_PAT | docker login ghcr.io -u {r.choice(USERS)} --password-stdin\nWARNING! Your password will be stored unencrypted in /home/{r.choice(USERS)}/.docker/config.json.\nLogin Succeeded"


@_la
def la_npmrc_env(r):
    return f"; .npmrc\n@{r.choice(['acme', 'northwind'])}:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${{NODE_AUTH_TOKEN}}\nalways-auth=true\n; generated {_date(r)}"


@_la
def la_ssh_keygen(r):
    c = _c(r)
    return (
        f"$ ssh-keygen -t ed25519 -C {c['who'].lower()}@{c['dom']}\nYour identification has been saved in /home/{c['u']}/.ssh/id_ed25519\n"
        f"Your public key has been saved in /home/{c['u']}/.ssh/id_ed25519.pub\nThe key fingerprint is:\nSHA256:{_b64(r, 32).rstrip('=')} {c['who'].lower()}@{c['dom']}"
    )


@_la
def la_gpg_list(r):
    return f"$ gpg --list-keys\npub   ed25519 {_date(r)} [SC]\n      {_rs(r, HEXU, 40)}\nuid           [ultimate] {r.choice(PEOPLE)} <{r.choice(PEOPLE).lower()}@{r.choice(DOMAINS)}>\nsub   cv25519 {_date(r)} [E]"


@_la
def la_s3_ls(r):
    return (
        "$ aws s3 ls s3://"
        + _proj(r)
        + "-artifacts/builds/\n"
        + "\n".join(
            f"{_date(r)} 10:{r.randint(10, 59)}:00   {r.randint(10**5, 10**8)} {_hex(r, 40)}.tar.zst" for _ in range(3)
        )
    )


@_la
def la_tf_plan(r):
    c = _c(r)
    return (
        f'  # aws_iam_access_key.{c["pu"]} will be created\n  + resource "aws_iam_access_key" "{c["pu"]}" {{\n      + id     = (known after apply)\n'
        f'      + secret = (sensitive value)\n      + user   = "{c["p"]}-ci"\n    }}\n\nPlan: 1 to add, 0 to change, 0 to destroy.'
    )


@_la
def la_access_log(r):
    c = _c(r)
    return f'{c["ip"]} - - [{r.randint(1, 28)}/Mar/2024:10:{r.randint(10, 59)}:02 +0000] "GET /static/app.{_hex(r, 8)}.js?v={_hex(r, 10)} HTTP/1.1" 200 {r.randint(1000, 90000)} "-" "curl/8.{r.randint(0, 9)}.0" rt=0.0{r.randint(10, 99)}'


@_la
def la_xxd(r):
    rows = []
    for i in range(3):
        b = r.randbytes(16)
        rows.append(
            f"{i * 16:08x}: "
            + " ".join(b[j : j + 2].hex() for j in range(0, 16, 2))
            + "  "
            + "".join(chr(x) if 32 <= x < 127 else "." for x in b)
        )
    return "$ xxd -l 48 firmware.bin\n" + "\n".join(rows)


@_la
def la_http_cookies_nonauth(r):
    return f"> Cookie: _ga=GA1.1.{r.randint(10**8, 10**9)}.{_epoch(r)}; theme=dark; lang={r.choice(['en', 'de', 'ja'])}; cookie_consent=accepted; _gid=GA1.1.{r.randint(10**8, 10**9)}.{_epoch(r)}"


@_la
def la_url_userinfo_nopw(r):
    c = _c(r)
    return r.choice(
        [
            f"git clone git@github.com:{c['org']}/{c['p']}.git && cd {c['p']}",
            f"ssh://{c['u']}@{c['h']}:2222/srv/git/{c['p']}.git",
            f"psql 'postgresql://{c['u']}@{c['h']}:5432/{c['db']}?sslmode=verify-full'   # password from ~/.pgpass",
            f"redis-cli -u redis://{c['p']}-redis:6379/{r.randint(0, 5)} ping",
        ]
    )


@_la
def la_url_nonsig_params(r):
    c = _c(r)
    return f"https://{c['h']}/share/report?id={_uuid(r)}&v={_hex(r, 8)}&utm_source=newsletter&utm_campaign={_date(r).replace('-', '')}&t={_epoch(r)}"


@_la
def la_oauth_authorize(r):
    c = _c(r)
    ch = _b64u(hashlib.sha256(r.randbytes(32)).digest())
    return (
        f"https://auth.{c['dom']}/authorize?response_type=code&client_id={_rs(r, ALNUM, 32)}&redirect_uri=https%3A%2F%2F{c['h']}%2Fcallback"
        f"&scope=openid%20profile&state={_rs(r, B64URL, 22)}&code_challenge={ch}&code_challenge_method=S256"
    )


@_la
def la_oidc_discovery(r):
    d = r.choice(DOMAINS)
    return json.dumps(
        {
            "issuer": f"https://auth.{d}/",
            "jwks_uri": f"https://auth.{d}/.well-known/jwks.json",
            "token_endpoint": f"https://auth.{d}/oauth/token",
            "id_token_signing_alg_values_supported": ["RS256"],
            "kid_hint": _hex(r, 16),
        },
        indent=2,
    )


@_la
def la_tx_hashes(r):
    return f"Bridge payout stuck: source tx 0x{_hex(r, 64)}, dest tx pending, nonce {r.randint(1, 900)}, gas {r.randint(21000, 300000)}."


@_la
def la_ipfs(r):
    return f"Pinned to IPFS: bafybei{_rs(r, 'abcdefghijklmnopqrstuvwxyz234567', 52)} (legacy CID Qm{_rs(r, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)})"


@_la
def la_regex_rules(r):
    gh = P_GHP.replace("_", "_")
    return (
        f'RULES = [\n    ("github_pat", re.compile(r"{gh}[A-Za-z0-9]{{36}}")),\n    ("slack_bot", re.compile(r"{P_XOXB}[0-9]+-[0-9]+-[A-Za-z0-9]+")),\n'
        f'    ("aws_key_id", re.compile(r"(?:{P_AKIA}|ASIA)[A-Z2-7]{{16}}")),\n]  # rule set rev {_hex(r, 7)}\n'
    )


@_la
def la_redact_test(r):
    return f'def test_redacts_bearer_{r.randint(1, 999)}():\n    out = redact("Authorization: Bearer <token>")\n    assert out == "Authorization: Bearer [REDACTED]"\n    assert "password" not in SAFE_KEYS\n'


@_la
def la_hmac_code(r):
    return (
        'def verify(payload: bytes, header: str) -> bool:\n    secret = os.environ["WEBHOOK_SECRET"].encode()\n'
        "    digest = hmac.new(secret, payload, hashlib.sha256).hexdigest()\n"
        f'    return hmac.compare_digest(f"sha256={{digest}}", header)  # see {r.choice(["SEC", "PLAT"])}-{r.randint(10, 999)}\n'
    )


@_la
def la_token_gen_code(r):
    return r.choice(
        [
            f"api_key = secrets.token_urlsafe({r.choice([24, 32, 48])})\nApiKey.objects.create(user=user, key_hash=sha256(api_key), prefix=api_key[:6])",
            f"password: {{{{ randAlphaNum {r.choice([16, 24, 32])} | b64enc | quote }}}}",
            f"const token = crypto.randomBytes({r.choice([32, 48])}).toString('hex'); // shown once to the user, we store bcrypt(token)",
        ]
    )


@_la
def la_sql_apikeys(r):
    return (
        "CREATE TABLE api_keys (\n  id uuid PRIMARY KEY,\n  prefix text NOT NULL,\n  key_hash bytea NOT NULL,\n  revoked_at timestamptz\n);\n"
        f"-- sample row: ('{_uuid(r)}', 'ak_{_rs(r, LOWNUM, 4)}', '\\x{_hex(r, 64)}', NULL)"
    )


@_la
def la_feature_flags(r):
    c = _c(r)
    return f"flags:\n  new_checkout: {{ enabled: true, rollout: {r.randint(1, 100)} }}\n  flag_set_id: {_uuid(r)}\n  environment_key: {c['p']}-{r.choice(['prod', 'stg'])}\n  revision: {_hex(r, 12)}"


@_la
def la_hex_colors(r):
    return (
        "  --brand: #" + _hex(r, 6) + ";\n  --accent: #" + _hex(r, 6) + ";\n  --shadow: 0 1px 2px #" + _hex(r, 8) + ";"
    )


@_la
def la_stripe_event_payload(r):
    return json.dumps(
        {
            "id": f"evt_{_rs(r, ALNUM, 24)}",
            "object": "event",
            "type": "invoice.paid",
            "livemode": True,
            "data": {
                "object": {
                    "id": f"in_{_rs(r, ALNUM, 24)}",
                    "customer": f"cus_{_rs(r, ALNUM, 14)}",
                    "amount_paid": r.randint(100, 99999),
                }
            },
        },
        indent=1,
    )


@_la
def la_otel_span(r):
    c = _c(r)
    return f"span {c['p']}.handle_request trace_id=0x{_hex(r, 32)} span_id=0x{_hex(r, 16)} parent=0x{_hex(r, 16)} http.status_code={r.choice([200, 401, 403, 500])} duration_ms={r.randint(1, 900)}"


@_la
def la_uuid_filenames(r):
    return "$ ls uploads/\n" + "  ".join(f"{_uuid(r)}.{r.choice(['jpg', 'pdf', 'png'])}" for _ in range(3))


@_la
def la_prose_config_fact(r):
    c = _c(r)
    return r.choice(
        [
            f"Project fact: {c['p']} runs {c['ver']} on {r.choice(['Python 3.12', 'Node 20', 'Go 1.22', 'Java 21'])}, deployed to {c['reg']}; image tag {_hex(r, 7)}.",
            f"Preference: {c['who']} wants PR titles in conventional-commit style and squash merges for {c['p']}.",
            f"Error and fix: {c['p']} crashed with 'certificate verify failed'; installed the corporate CA bundle (sha256 {_hex(r, 64)[:16]}…).",
            f"Nota: {c['p']} usa la región {c['reg']}; el bucket de logs es {c['p']}-logs-{_hex(r, 6)}.",
            f"メモ：{c['p']} のリリースは毎週火曜、ビルド番号 {r.randint(1000, 9999)} から新パイプライン。",
        ]
    )


@_la
def la_env_nonsecret(r):
    c = _c(r)
    return f"NODE_ENV=production\nLOG_LEVEL={r.choice(['info', 'warn'])}\nAWS_REGION={c['reg']}\nSENTRY_ENVIRONMENT=prod\nFEATURE_FLAGS=checkout_v2,search\nBUILD_SHA={_sha(r)}\nPUBLIC_URL=https://{c['h']}\n"


@_la
def la_checksum_prose(r):
    return f"Vérifié : le SHA-256 de l'installeur est {_hex(r, 64)}, identique à celui publié sur la page de release."


@_la
def la_etcd_ids(r):
    return f"member {_hex(r, 16)} is healthy: got healthy result from https://{_ip(r)}:2379\ncluster is healthy (cluster_id {_hex(r, 16)}, raft_term {r.randint(2, 90)})"


# ----------------------------------------------------------------------------------------------
# entry points
# ----------------------------------------------------------------------------------------------

NOTE_PREFIX = [
    "Lesson learned while debugging {p} ({date}):\n",
    "Saving this for the next session -- {p}:\n",
    "Context for {who}'s question about {p}:\n",
    "Fix for the {p} incident {tk}, output below:\n",
    "Notiz für später ({date}), {p}:\n",
    "Nota: salida relevante de {p}:\n",
    "Anotação sobre o {p}:\n",
    "Note sur {p} ({tk}) :\n",
    "メモ：{p} の調査ログ\n",
    "备注：{p} 的排查记录\n",
    "Заметка по {p}:\n",
]


def _note_prefix(r: random.Random) -> str:
    return r.choice(NOTE_PREFIX).format(**_c(r))


PER_KIND = 30
PER_LOOKALIKE = 13


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for spec in KINDS:
        got = 0
        for _ in range(PER_KIND * 5):
            if got == PER_KIND:
                break
            text, secret = _positive(r, spec)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            positives.append((text, spec[0], secret))
            got += 1
    lookalikes: list[str] = []
    for fn in LOOKALIKES:
        prose_gen = fn.__name__.startswith(("la_prose", "la_commit", "la_checksum"))
        got = 0
        for _ in range(PER_LOOKALIKE * 5):
            if got == PER_LOOKALIKE:
                break
            text = fn(r)
            if not prose_gen and r.random() < 0.35:
                text = _note_prefix(r) + text
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    t0 = time.perf_counter()
    pos, neg = generate(seed)
    dt = time.perf_counter() - t0
    counts = Counter(k for _, k, _ in pos)
    for kind, n in sorted(counts.items()):
        print(f"{kind:32s} {n}")
    print(
        f"\n{len(counts)} kinds, {len(pos)} positives, {len(neg)} look-alikes from {len(LOOKALIKES)} generators, {dt:.2f}s"
    )
    sr = random.Random(seed)
    print("\n--- sample positives ---")
    for text, kind, secret in sr.sample(pos, 4):
        print(f"[{kind}] secret={secret!r}\n{text}\n")
    print("--- sample look-alikes ---")
    for text in sr.sample(neg, 4):
        print(text + "\n")
