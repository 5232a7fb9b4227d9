"""Secret-detector test set O.

Theme: what an AI coding agent records while working in a real repository over weeks -- summaries
of what it did, decisions with reasons, errors it hit and how it fixed them, snippets of files it
edited (Python, TypeScript, Go, Rust, Java, Kotlin, Swift, C#, PHP, Ruby, Elixir, Scala, Terraform,
YAML, TOML, INI, XML, JSON, properties), test fixtures and mocks, generated files (lockfiles,
snapshots, migrations, protobuf/GraphQL schemas, OpenAPI specs, i18n bundles, SVGs, data URIs,
minified JS, source maps), tool output (git, pip, npm, cargo, go, docker, kubectl, terraform,
aws/gcloud/az CLI, pytest/jest, linters, coverage) and conversation fragments with the user.

``generate(seed)`` returns ``(positives, lookalikes)``:

* ``positives`` is a list of ``(text, kind, secret)``; ``secret`` is the one sensitive value in
  ``text`` and an exact substring of it.
* ``lookalikes`` is a list of texts from the same places that contain no credential (integrity
  hashes, ids in CLI output, documented test values, placeholders, secret-manager references,
  masked values, code reading secrets, password hashes, public keys, publishable keys, ...).

Labelling: a live-looking credential is a positive wherever it sits (fixtures, tests, chat, logs,
docs of one's own repo); look-alikes hold only values that grant nothing -- vendor-documented
examples (AWS ``EXAMPLE`` keys, the jwt.io sample, Stripe's docs demo key, RFC test vectors),
publishable/client-side values vendors document as public (Stripe ``pk_``, Mapbox ``pk.``, PostHog
project keys, Sentry DSNs, Algolia search-only keys, Firebase web ``apiKey``, reCAPTCHA site keys,
Supabase anon keys, LaunchDarkly client-side ids, OAuth client ids), identifiers (AWS unique ids
such as ``AIDA...``, Twilio ``AC`` SIDs, Stripe object ids), ciphertext (sops, SealedSecrets,
Ansible Vault), password hashes, public keys and certificates, masked values and references.
An AWS access key id (``AKIA...``) on its own counts as a positive; in a presigned URL the
signature is the labelled secret.

Everything is built with ``random.Random(seed)``; every vendor prefix, key body and PEM armour line
is assembled at run time from pieces, so the source holds no token-shaped literal.
"""

from __future__ import annotations

import base64
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
ALNUM = UPPER + LOWER + DIGITS
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BASE32 = UPPER + "234567"
DJANGO_CHARS = LOWNUM + "!@#$%^&*(-_=+)"
PW_SYMS = "!*-_.@^~+#%"
DASH = "-" * 5
PK = "PRIV" + "ATE KEY"

WORDS = [
    "amber",
    "anchor",
    "apple",
    "arrow",
    "autumn",
    "badge",
    "bamboo",
    "banner",
    "basil",
    "beacon",
    "birch",
    "bison",
    "blossom",
    "bramble",
    "breeze",
    "bronze",
    "cactus",
    "canyon",
    "cargo",
    "cedar",
    "cherry",
    "cinder",
    "clover",
    "cobalt",
    "comet",
    "copper",
    "coral",
    "cotton",
    "crater",
    "cricket",
    "crystal",
    "dahlia",
    "delta",
    "desert",
    "dolphin",
    "dragon",
    "drift",
    "eagle",
    "ember",
    "falcon",
    "fern",
    "fjord",
    "flint",
    "forest",
    "fossil",
    "galaxy",
    "garnet",
    "ginger",
    "glacier",
    "granite",
    "gravel",
    "harbor",
    "hazel",
    "heron",
    "hollow",
    "honey",
    "indigo",
    "island",
    "ivory",
    "jasmine",
    "jungle",
    "juniper",
    "kestrel",
    "lagoon",
    "lantern",
    "lemon",
    "lilac",
    "lotus",
    "magnet",
    "mango",
    "maple",
    "marble",
    "meadow",
    "mercury",
    "meteor",
    "mint",
    "monsoon",
    "moss",
    "nebula",
    "nectar",
    "nickel",
    "nutmeg",
    "oasis",
    "obsidian",
    "ocean",
    "olive",
    "onyx",
    "orbit",
    "orchid",
    "otter",
    "oyster",
    "paddle",
    "panda",
    "pebble",
    "pepper",
    "pine",
    "planet",
    "plum",
    "prairie",
    "prism",
    "quartz",
    "quill",
    "radish",
    "raven",
    "reef",
    "ribbon",
    "river",
    "robin",
    "saffron",
    "salmon",
    "sapphire",
    "scarlet",
    "shadow",
    "silver",
    "sparrow",
    "spruce",
    "summit",
    "sunset",
    "thistle",
    "thunder",
    "tiger",
    "topaz",
    "tulip",
    "tundra",
    "velvet",
    "violet",
    "walnut",
    "willow",
    "winter",
    "zephyr",
]
FIRST = [
    "alice",
    "bob",
    "carol",
    "dave",
    "erin",
    "frank",
    "grace",
    "heidi",
    "ivan",
    "judy",
    "ken",
    "lena",
    "mallory",
    "niaj",
    "olivia",
    "peggy",
    "rupert",
    "sybil",
    "trent",
    "victor",
    "walter",
    "yuki",
    "zoe",
]
SERVICES = [
    "billing",
    "checkout",
    "gateway",
    "notifier",
    "ingest",
    "search",
    "indexer",
    "scheduler",
    "auth",
    "ledger",
    "payouts",
    "reports",
    "webhooks",
    "mailer",
    "exporter",
    "sync",
    "worker",
    "api",
    "admin",
    "catalog",
]
ORGS = [
    "acme",
    "globex",
    "initech",
    "umbrella",
    "hooli",
    "wayne",
    "stark",
    "tyrell",
    "cyberdyne",
    "soylent",
    "vandelay",
    "pied-piper",
]
REGIONS = [
    "us-east-1",
    "us-east-2",
    "us-west-2",
    "eu-west-1",
    "eu-central-1",
    "ap-southeast-1",
    "ap-northeast-1",
    "sa-east-1",
]
GREGIONS = ["us-central1", "europe-west1", "europe-west4", "asia-east1", "us-east4"]
ENVS = ["dev", "staging", "prod", "qa", "preview", "sandbox"]
TLDS = ["internal", "io", "dev", "net", "com", "cloud"]


# ----------------------------------------------------------------------------------------------
# small random helpers
# ----------------------------------------------------------------------------------------------


def _rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choices(alphabet, k=n))


def _hex(r: random.Random, n: int) -> str:
    return _rs(r, HEX, n)


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(r.randbytes(nbytes)).decode()


def _b64url(r: random.Random, nbytes: int) -> str:
    return base64.urlsafe_b64encode(r.randbytes(nbytes)).decode().rstrip("=")


def _b64url_s(s: str | bytes) -> str:
    if isinstance(s, str):
        s = s.encode()
    return base64.urlsafe_b64encode(s).decode().rstrip("=")


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:32]}"


def _sha(r: random.Random) -> str:
    return _hex(r, 40)


def _sha256(r: random.Random) -> str:
    return _hex(r, 64)


def _int(r: random.Random, a: int, b: int) -> int:
    return r.randint(a, b)


def _ts(r: random.Random) -> str:
    return (
        f"2024-{_int(r, 1, 12):02d}-{_int(r, 1, 28):02d}T{_int(r, 0, 23):02d}:{_int(r, 0, 59):02d}:"
        f"{_int(r, 0, 59):02d}Z"
    )


def _date(r: random.Random) -> str:
    return f"{r.choice(['2023', '2024', '2025'])}-{_int(r, 1, 12):02d}-{_int(r, 1, 28):02d}"


def _ip(r: random.Random) -> str:
    return f"10.{_int(r, 0, 255)}.{_int(r, 0, 255)}.{_int(r, 1, 254)}"


def _word(r: random.Random) -> str:
    return r.choice(WORDS)


def _user(r: random.Random) -> str:
    return r.choice(FIRST)


def _svc(r: random.Random) -> str:
    return r.choice(SERVICES)


def _org(r: random.Random) -> str:
    return r.choice(ORGS)


def _host(r: random.Random) -> str:
    return f"{_svc(r)}-{r.choice(ENVS)}.{_org(r)}.{r.choice(TLDS)}"


def _ver(r: random.Random) -> str:
    return f"{_int(r, 0, 9)}.{_int(r, 0, 30)}.{_int(r, 0, 20)}"


def _account(r: random.Random) -> str:
    return _rs(r, DIGITS, 12)


def _path(r: random.Random) -> str:
    return r.choice(["src", "app", "lib", "internal", "pkg", "services"]) + f"/{_svc(r)}/{_word(r)}"


def _wrap(s: str, n: int = 64) -> str:
    return "\n".join(s[i : i + n] for i in range(0, len(s), n))


def _pem(label: str, body_b64: str) -> str:
    return f"{DASH}BEGIN {label}{DASH}\n{_wrap(body_b64)}\n{DASH}END {label}{DASH}"


def _mask(s: str, keep: int = 4) -> str:
    return s[:keep] + "*" * max(4, len(s) - 2 * keep) + s[-keep:]


def _camel(env: str) -> str:
    p = env.lower().split("_")
    return p[0] + "".join(x.title() for x in p[1:])


def _pascal(env: str) -> str:
    return "".join(x.title() for x in env.lower().split("_"))


# ----------------------------------------------------------------------------------------------
# secret values (every prefix assembled from pieces)
# ----------------------------------------------------------------------------------------------


def _pw_random(r: random.Random) -> str:
    n = _int(r, 14, 26)
    while True:
        s = _rs(r, ALNUM + PW_SYMS, n)
        if any(c in DIGITS for c in s) and any(c in PW_SYMS for c in s) and any(c in UPPER for c in s):
            return s


def _pw_human(r: random.Random) -> str:
    a, b = _word(r).title(), _word(r).title()
    sep = r.choice(["", "-", ".", "_", "#"])
    return f"{a}{sep}{b}{_int(r, 10, 9999)}{r.choice('!?$%&*@#')}"


def _passphrase(r: random.Random) -> str:
    sep = r.choice([" ", "-", ".", "_"])
    return sep.join(_word(r) for _ in range(_int(r, 4, 6)))


def _pw_url_safe(r: random.Random) -> str:
    return _rs(r, ALNUM, _int(r, 16, 28)) + r.choice(["", "_", "-", "."]) + _rs(r, ALNUM, _int(r, 2, 6))


def v_aws_akid(r):
    return "AK" + "IA" + _rs(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)


def v_aws_secret(r):
    return _rs(r, B64, 40)


def v_aws_session(r):
    return base64.b64encode(b"!\n\t" + b"origin_ec" + r.randbytes(_int(r, 280, 420))).decode()


def v_gcp_oauth_secret(r):
    return "GOC" + "SPX-" + _rs(r, B64URL, 28)


def v_google_api_key(r):
    return "AI" + "za" + "Sy" + _rs(r, B64URL, 33)


def v_google_refresh(r):
    return "1//" + "0" + r.choice(["g", "e", "d"]) + _rs(r, B64URL, _int(r, 95, 110))


def v_azure_storage(r):
    return _b64(r, 64)


def v_azure_client_secret(r):
    return _rs(r, ALNUM, 3) + "8Q" + "~" + _rs(r, ALNUM + "~._-", 34)


def v_do_token(r):
    return "do" + "p_v1_" + _hex(r, 64)


def v_cloudflare(r):
    return _rs(r, ALNUM + "-_", 40)


def v_vault(r):
    return "hv" + "s." + "CAES" + "I" + _rs(r, B64URL, _int(r, 86, 100))


def v_tfc(r):
    return _rs(r, ALNUM, 14) + ".atlas" + "v1." + _rs(r, ALNUM, 67)


def v_pulumi(r):
    return "pu" + "l-" + _hex(r, 40)


def v_doppler(r):
    return "dp" + "." + r.choice(["pt", "st", "sa"]) + "." + _rs(r, ALNUM, 43)


def v_ghp(r):
    return "gh" + "p_" + _rs(r, ALNUM, 36)


def v_gh_fine(r):
    return "github" + "_pat_" + "11" + _rs(r, UPNUM, 20) + "_" + _rs(r, ALNUM, 59)


def v_gh_app(r):
    return "gh" + r.choice(["s", "u", "o", "r"]) + "_" + _rs(r, ALNUM, 36)


def v_glpat(r):
    return "gl" + "pat-" + _rs(r, ALNUM + "-_", 20)


def v_glrt(r):
    return "gl" + "rt-" + r.choice(["", "t1_", "t2_"]) + _rs(r, ALNUM + "-_", 20)


def v_npm(r):
    return "np" + "m_" + _rs(r, ALNUM, 36)


def v_pypi(r):
    return "py" + "pi-" + _b64url_s(b"\x02\x01\x08" + b"pypi" + b".org\x02%" + r.randbytes(_int(r, 120, 160)))


def v_dockerhub(r):
    return "dckr" + "_pat_" + _rs(r, B64URL, 27)


def v_nuget(r):
    return "oy" + "2" + _rs(r, LOWNUM, 43)


def v_rubygems(r):
    return "rubygems" + "_" + _hex(r, 48)


def v_crates(r):
    return "ci" + "o" + _rs(r, ALNUM, 32)


def v_jfrog(r):
    return "AKC" + "p8" + _rs(r, ALNUM, 64)


def v_stripe_sk(r):
    body = "51" + _rs(r, ALNUM, 97) if r.random() < 0.6 else _rs(r, ALNUM, 24)
    return "sk" + "_live_" + body


def v_stripe_rk(r):
    return "rk" + "_live_" + "51" + _rs(r, ALNUM, 97)


def v_whsec(r):
    return "whs" + "ec_" + _rs(r, ALNUM, 32)


def v_square(r):
    return "EAA" + "A" + _rs(r, B64URL, 60)


def v_braintree(r):
    return "access" + "_token$production$" + _rs(r, LOWNUM, 16) + "$" + _hex(r, 32)


def v_shopify(r):
    return "sh" + r.choice(["pat", "pss", "pca", "ppa"]) + "_" + _hex(r, 32)


def v_xoxb(r):
    return "xo" + "xb-" + _rs(r, DIGITS, 12) + "-" + _rs(r, DIGITS, 13) + "-" + _rs(r, ALNUM, 24)


def v_xoxp(r):
    return "xo" + "xp-" + _rs(r, DIGITS, 12) + "-" + _rs(r, DIGITS, 12) + "-" + _rs(r, DIGITS, 13) + "-" + _hex(r, 32)


def v_slack_hook(r):
    return (
        "https://hooks."
        + "slack.com/services/T"
        + _rs(r, UPNUM, 10)
        + "/B"
        + _rs(r, UPNUM, 10)
        + "/"
        + _rs(r, ALNUM, 24)
    )


def v_discord_bot(r):
    ident = str(_int(r, 10**17, 10**18 * 2))
    return _b64url_s(ident) + "." + _rs(r, B64URL, 6) + "." + _rs(r, B64URL, 38)


def v_discord_hook(r):
    return "https://discord" + ".com/api/webhooks/" + _rs(r, DIGITS, 19) + "/" + _rs(r, B64URL, 68)


def v_telegram(r):
    return str(_int(r, 10**8, 10**10)) + ":" + "AA" + _rs(r, B64URL, 33)


def v_twilio_auth(r):
    return _hex(r, 32)


def v_sendgrid(r):
    return "S" + "G." + _rs(r, B64URL, 22) + "." + _rs(r, B64URL, 43)


def v_mailgun(r):
    return "ke" + "y-" + _hex(r, 32) if r.random() < 0.5 else _hex(r, 32) + "-" + _hex(r, 8) + "-" + _hex(r, 8)


def v_mailchimp(r):
    return _hex(r, 32) + "-us" + str(_int(r, 1, 21))


def v_openai(r):
    kind = r.choice(["proj-", "svcacct-", ""])
    if kind:
        return "sk-" + kind + _rs(r, B64URL, 74) + "T3Blbk" + "FJ" + _rs(r, B64URL, 74)
    return "sk-" + _rs(r, ALNUM, 20) + "T3Blbk" + "FJ" + _rs(r, ALNUM, 20)


def v_anthropic(r):
    return "sk-" + "ant-" + r.choice(["api03-", "admin01-"]) + _rs(r, B64URL, 93) + "AA"


def v_hf(r):
    return "h" + "f_" + _rs(r, UPPER + LOWER, 34)


def v_groq(r):
    return "gs" + "k_" + _rs(r, ALNUM, 52)


def v_replicate(r):
    return "r8" + "_" + _rs(r, ALNUM, 37)


def v_datadog(r):
    return _hex(r, 32)


def v_newrelic(r):
    return "NRA" + "K-" + _rs(r, UPNUM, 27)


def v_sentry(r):
    if r.random() < 0.5:
        return "sntry" + "u_" + _hex(r, 64)
    payload = json.dumps(
        {
            "iat": _int(r, 1.7e9, 1.75e9),
            "url": "https://sentry.io",
            "region_url": "https://us.sentry.io",
            "org": _org(r),
        },
        separators=(",", ":"),
    )
    return "sntry" + "s_" + _b64url_s(payload) + "_" + _rs(r, B64URL, 43)


def v_grafana(r):
    return "gl" + "sa_" + _rs(r, ALNUM, 32) + "_" + _hex(r, 8)


def v_linear(r):
    return "lin" + "_api_" + _rs(r, ALNUM, 40)


def v_notion(r):
    return "nt" + "n_" + _rs(r, DIGITS, 11) + _rs(r, ALNUM, 35)


def v_airtable(r):
    return "pa" + "t" + _rs(r, ALNUM, 14) + "." + _hex(r, 64)


def v_postman(r):
    return "PMA" + "K-" + _hex(r, 24) + "-" + _hex(r, 34)


def v_atlassian(r):
    return "ATA" + "TT3xFfGF0" + _rs(r, B64URL, 170) + "=" + _rs(r, UPNUM[:6] + DIGITS, 8)


def v_hubspot(r):
    return "pat" + "-" + r.choice(["na1", "eu1", "na2"]) + "-" + _uuid(r)


def v_okta(r):
    return "00" + _rs(r, B64URL, 40)


def v_pscale(r):
    return "pscale" + r.choice(["_pw_", "_tkn_"]) + _rs(r, B64URL, 43)


def _jwt(header: dict, payload: dict, sig: str) -> str:
    h = _b64url_s(json.dumps(header, separators=(",", ":")))
    p = _b64url_s(json.dumps(payload, separators=(",", ":")))
    return f"{h}.{p}.{sig}"


def v_supabase_service(r):
    iat = _int(r, 1.65e9, 1.73e9)
    pl = {"iss": "supabase", "ref": _rs(r, LOWER, 20), "role": "service_role", "iat": iat, "exp": iat + 315360000}
    return _jwt({"alg": "HS256", "typ": "JWT"}, pl, _rs(r, B64URL, 43))


def v_jwt_session(r):
    iat = _int(r, 1.70e9, 1.75e9)
    pl = {
        "sub": r.choice([_uuid(r), str(_int(r, 1000, 999999)), f"auth0|{_hex(r, 24)}"]),
        "email": f"{_user(r)}@{_org(r)}.com",
        "iat": iat,
        "exp": iat + r.choice([900, 3600, 86400]),
    }
    if r.random() < 0.5:
        pl["scope"] = r.choice(["read write", "openid profile email", "admin"])
        pl["aud"] = f"https://api.{_org(r)}.com"
    alg = r.choice(["HS256", "RS256", "ES256"])
    siglen = {"HS256": 43, "RS256": 342, "ES256": 86}[alg]
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        hdr["kid"] = _rs(r, B64URL, 22)
    return _jwt(hdr, pl, _rs(r, B64URL, siglen))


def v_age(r):
    return "AGE-SECRET" + "-KEY-1" + _rs(r, BECH32, 58).upper()


def v_django(r):
    return ("django" + "-insecure-" if r.random() < 0.2 else "") + _rs(r, DJANGO_CHARS, 50)


def v_rails(r):
    return _hex(r, 128)


def v_laravel(r):
    return "base64:" + _b64(r, 32)


def v_hex_key(r):
    return _hex(r, r.choice([32, 40, 48, 64]))


def v_webhook_secret(r):
    return r.choice([_hex(r, 40), _hex(r, 64), _rs(r, ALNUM, 32), _b64(r, 32)])


def v_totp(r):
    return _rs(r, BASE32, r.choice([16, 32]))


def v_mapbox_sk(r):
    return (
        "s"
        + "k."
        + _b64url_s(json.dumps({"u": _user(r) + _word(r), "a": "c" + _rs(r, LOWNUM, 24)}))
        + "."
        + _rs(r, B64URL, 22)
    )


def v_algolia_admin(r):
    return _hex(r, 32)


def v_fcm(r):
    return "AAAA" + _rs(r, B64URL, 7) + ":" + "APA91b" + _rs(r, B64URL, 134)


def v_twilio_like_generic(r):
    return _hex(r, 32)


# ----------------------------------------------------------------------------------------------
# private keys
# ----------------------------------------------------------------------------------------------


def _der_len(n: int) -> bytes:
    return bytes([0x82, n >> 8, n & 0xFF])


def v_rsa_pkcs1(r):
    body = b"\x30" + _der_len(0x4A4) + b"\x02\x01\x00\x02\x82\x01\x01\x00" + r.randbytes(1180)
    return _pem("RSA " + PK, base64.b64encode(body).decode())


def v_pkcs8(r):
    hdr = b"\x30" + _der_len(0x4BD) + b"\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x04"
    body = hdr + _der_len(0x4A7) + b"\x30" + _der_len(0x4A3) + b"\x02\x01\x00\x02\x82\x01\x01\x00" + r.randbytes(1170)
    return _pem(PK, base64.b64encode(body).decode())


def v_ec(r):
    body = (
        b"\x30\x77\x02\x01\x01\x04\x20"
        + r.randbytes(32)
        + b"\xa0\x0a\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\xa1\x44\x03\x42\x00\x04"
        + r.randbytes(64)
    )
    return _pem("EC " + PK, base64.b64encode(body).decode())


def v_openssh(r):
    body = b"openssh-key-v1\x00" + b"\x00\x00\x00\x04none\x00\x00\x00\x04none" + r.randbytes(_int(r, 360, 380))
    return _pem("OPENSSH " + PK, base64.b64encode(body).decode()).replace("\n", "\n", 1)


# ----------------------------------------------------------------------------------------------
# frames: where an agent writes a key-shaped value down
# ----------------------------------------------------------------------------------------------

REASONS = [
    "offboarding of a contractor",
    "quarterly rotation",
    "key showed up in a CI log",
    "the old one expired",
    "switching to a scoped key",
    "incident INC-{n}",
    "vendor notice about a breach",
    "move to the new workspace",
]
WHERE = [
    "Vercel env",
    "GitHub Actions secrets",
    "the Helm values",
    "Fly secrets",
    "Render dashboard",
    "the k8s secret",
    "Doppler",
    "Railway vars",
]


def _reason(r):
    return r.choice(REASONS).format(n=_int(r, 100, 9999))


def f_env_note(r, c):
    return f"Set up local dev for {c['svc']}: added `{c['env']}={c['v']}` to .env.local (gitignored). Server starts now, `make test` green."


def f_rotated(r, c):
    return (
        f"Rotated the {c['vendor']} key ({_reason(r)}). New value {c['v']} -- updated in {r.choice(WHERE)} too; "
        f"old key revoked {_date(r)}."
    )


def f_dotenv(r, c):
    lines = [
        f"NODE_ENV={r.choice(['development', 'production'])}",
        f"PORT={_int(r, 3000, 9000)}",
        f"LOG_LEVEL={r.choice(['debug', 'info', 'warn'])}",
        f"{c['env']}={c['v']}",
        f"APP_URL=https://{_host(r)}",
    ]
    r.shuffle(lines)
    return f"Contents of .env.{r.choice(ENVS)} after my edit:\n" + "\n".join(lines)


def f_yaml(r, c):
    sect = c["vendor"].lower().replace(" ", "_")
    return (
        f"# config/{r.choice(ENVS)}.yaml\n{sect}:\n  base_url: https://api.{sect}.com\n  timeout_s: {_int(r, 2, 60)}\n"
        f'  {c["env"].lower()}: "{c["v"]}"\n  retries: {_int(r, 0, 5)}'
    )


def f_toml(r, c):
    sect = c["vendor"].lower().replace(" ", "_")
    return f'[{sect}]\nenabled = true\n{c["env"].lower()} = "{c["v"]}"\nmax_connections = {_int(r, 2, 64)}'


def f_json(r, c):
    d = {"service": c["svc"], _camel(c["env"]): c["v"], "region": r.choice(REGIONS), "debug": r.random() < 0.5}
    return f"appsettings.{r.choice(ENVS)}.json:\n" + json.dumps(d, indent=2)


def f_ini(r, c):
    return f"; {c['svc']}.ini\n[{c['vendor'].lower()}]\nendpoint = https://{_host(r)}\n{c['env'].lower()} = {c['v']}\nverify_ssl = true"


def f_props(r, c):
    key = c["env"].lower().replace("_", ".")
    return f"# application-{r.choice(ENVS)}.properties\nserver.port={_int(r, 8000, 9000)}\n{key}={c['v']}\nspring.jpa.open-in-view=false"


def f_hcl(r, c):
    name = c["env"].lower()
    return (
        f'variable "{name}" {{\n  type      = string\n  sensitive = true\n  default   = "{c["v"]}"\n}}\n\n'
        f'resource "kubernetes_secret" "{c["svc"]}" {{\n  data = {{ {c["env"]} = var.{name} }}\n}}'
    )


def f_tfvars(r, c):
    return f'# terraform/{r.choice(ENVS)}.tfvars\nregion      = "{r.choice(REGIONS)}"\n{c["env"].lower()} = "{c["v"]}"\ninstance_count = {_int(r, 1, 9)}'


def f_xml(r, c):
    return (
        f'<configuration>\n  <appSettings>\n    <add key="Environment" value="{r.choice(ENVS)}" />\n'
        f'    <add key="{_pascal(c["env"])}" value="{c["v"]}" />\n  </appSettings>\n</configuration>'
    )


def f_py(r, c):
    return (
        f'# {_path(r)}.py\nimport httpx\n\n{c["env"]} = "{c["v"]}"  # TODO move to settings\n\n'
        f'client = httpx.Client(base_url="https://{_host(r)}", headers={{"Authorization": f"Bearer {{{c["env"]}}}"}})'
    )


def f_ts(r, c):
    return (
        f"// {_path(r)}.ts\nexport const {_camel(c['env'])} = '{c['v']}';\n"
        f"export const client = create{_pascal(c['vendor'].replace(' ', '_'))}Client({{ apiKey: {_camel(c['env'])}, timeout: {_int(r, 1, 30)}_000 }});"
    )


def f_go(r, c):
    return (
        f'// {_path(r)}.go\npackage {c["svc"]}\n\nconst {_camel(c["env"])} = "{c["v"]}"\n\n'
        f"func newClient() *Client {{ return NewClient({_camel(c['env'])}, WithRetries({_int(r, 1, 5)})) }}"
    )


def f_rust(r, c):
    return f'// src/{c["svc"]}.rs\nconst {c["env"]}: &str = "{c["v"]}";\n\nlet client = Client::builder().token({c["env"]}).build()?;'


def f_java(r, c):
    return (
        f"// {_pascal(c['svc'])}Config.java\npublic final class {_pascal(c['svc'])}Config {{\n"
        f'    static final String {c["env"]} = "{c["v"]}";\n    static final int TIMEOUT_MS = {_int(r, 500, 30000)};\n}}'
    )


def f_kotlin(r, c):
    return f'// {_pascal(c["svc"])}Module.kt\nobject {_pascal(c["svc"])}Secrets {{\n    const val {c["env"]} = "{c["v"]}"\n}}'


def f_swift(r, c):
    return f'// {_pascal(c["svc"])}Config.swift\nenum Config {{\n    static let {_camel(c["env"])} = "{c["v"]}"\n    static let timeout: TimeInterval = {_int(r, 5, 60)}\n}}'


def f_csharp(r, c):
    return f'// Startup.cs\nservices.Configure<{_pascal(c["vendor"].replace(" ", "_"))}Options>(o =>\n{{\n    o.{_pascal(c["env"])} = "{c["v"]}";\n}});'


def f_php(r, c):
    return f"<?php\n// config/services.php\nreturn [\n    '{c['vendor'].lower().replace(' ', '_')}' => [\n        'key' => '{c['v']}',\n        'timeout' => {_int(r, 5, 60)},\n    ],\n];"


def f_ruby(r, c):
    return f'# config/initializers/{c["svc"]}.rb\n{_pascal(c["vendor"].replace(" ", "_"))}.configure do |config|\n  config.{c["env"].lower()} = "{c["v"]}"\nend'


def f_elixir(r, c):
    return f'# config/runtime.exs\nconfig :{c["svc"]}, {_pascal(c["svc"])}.Client,\n  {c["env"].lower()}: "{c["v"]}",\n  pool_size: {_int(r, 2, 20)}'


def f_scala(r, c):
    return f'// application.conf (HOCON)\n{c["svc"]} {{\n  {_camel(c["env"])} = "{c["v"]}"\n  timeout = {_int(r, 1, 30)}s\n}}'


def f_docker_inspect(r, c):
    env = [
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
        f"{c['env']}={c['v']}",
        "LANG=C.UTF-8",
        f"PORT={_int(r, 3000, 9000)}",
    ]
    return f"$ docker inspect {_svc(r)}-{_int(r, 1, 9)} --format '{{{{json .Config.Env}}}}' | jq .\n" + json.dumps(
        env, indent=2
    )


def f_k8s_secret(r, c):
    return (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c['svc']}-secrets\n  namespace: {r.choice(ENVS)}\n"
        f'type: Opaque\nstringData:\n  {c["env"]}: "{c["v"]}"'
    )


def f_git_diff(r, c):
    f = r.choice([".env.staging", "deploy/values.yaml", "config/settings.py", "docker-compose.override.yml"])
    sep = "=" if f.startswith(".env") else ": "
    return (
        f"diff --git a/{f} b/{f}\nindex {_hex(r, 7)}..{_hex(r, 7)} 100644\n--- a/{f}\n+++ b/{f}\n"
        f"@@ -{_int(r, 1, 40)},4 +{_int(r, 1, 40)},5 @@\n LOG_LEVEL{sep}info\n+{c['env']}{sep}{c['v']}\n FEATURE_X{sep}false"
    )


def f_chat(r, c):
    return (
        f"User: here's the {c['vendor']} key for {r.choice(ENVS)}, just use it: {c['v']}\n"
        f"Assistant: Got it. I'll put it in .env.local and not commit it."
    )


def f_fixture(r, c):
    d = {"id": _int(r, 1, 999), "name": f"{c['svc']}-integration", "credentials": {_camel(c["env"]): c["v"]}}
    return f"tests/fixtures/{c['svc']}_account.json (copied from the staging account):\n" + json.dumps(d, indent=2)


def f_export(r, c):
    return f"$ export {c['env']}='{c['v']}'\n$ {r.choice(['npm run dev', 'go run ./cmd/server', 'cargo run', 'poetry run pytest -k smoke'])}"


def f_gha(r, c):
    return (
        f"# .github/workflows/{r.choice(['deploy', 'nightly', 'release'])}.yml\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n"
        f"    env:\n      {c['env']}: {c['v']}\n    steps:\n      - uses: actions/checkout@v4"
    )


def f_docker_run(r, c):
    return (
        f"docker run --rm -e {c['env']}={c['v']} -p {_int(r, 3000, 9000)}:8080 ghcr.io/{_org(r)}/{c['svc']}:{_ver(r)}"
    )


def f_log(r, c):
    return (
        f"{_ts(r)} DEBUG {c['svc']}.settings loaded config: env={r.choice(ENVS)} {c['env'].lower()}={c['v']} "
        f"pool={_int(r, 1, 20)}"
    )


def f_decision(r, c):
    return (
        f"Decision ({_date(r)}): keep the shared {c['vendor']} key {c['v']} for the nightly job until SSO lands. "
        f"Reason: per-user keys need an enterprise plan."
    )


def f_error_fix(r, c):
    return (
        f"Hit `401 Unauthorized` from {c['vendor']} in {c['svc']}. The key in .env was stale; replaced it with "
        f"{c['v']} and the request went through."
    )


def f_compose(r, c):
    return (
        f"services:\n  {c['svc']}:\n    image: {_org(r)}/{c['svc']}:{_ver(r)}\n    environment:\n"
        f"      - {c['env']}={c['v']}\n      - TZ=UTC"
    )


def f_helm(r, c):
    return f"# helm/{c['svc']}/values-{r.choice(ENVS)}.yaml\nreplicaCount: {_int(r, 1, 6)}\nsecrets:\n  {_camel(c['env'])}: {c['v']}"


def f_pytest(r, c):
    return (
        f"FAILED tests/test_{c['svc']}.py::test_client_init - AssertionError\n"
        f"E   assert Settings(env='test', {c['env'].lower()}='{c['v']}').timeout == {_int(r, 1, 9)}"
    )


def f_curl_bearer(r, c):
    return (
        f"curl -sS https://{_host(r)}/v1/{_word(r)}s -H 'Authorization: Bearer {c['v']}' | jq .\n"
        f"# returned {r.choice([200, 403, 429])}"
    )


def f_header_http(r, c):
    return (
        f"GET /api/v2/{_word(r)}?limit={_int(r, 1, 100)} HTTP/1.1\nHost: {_host(r)}\nAuthorization: Bearer {c['v']}\n"
        f"Accept: application/json"
    )


def f_fetch_ts(r, c):
    return (
        f"const res = await fetch(`${{BASE}}/{_word(r)}s`, {{\n  headers: {{ Authorization: `Bearer {c['v']}` }},\n}});"
    )


GENERIC_FRAMES = [
    f_env_note, f_rotated, f_dotenv, f_yaml, f_toml, f_json, f_ini, f_props, f_hcl, f_tfvars, f_xml, f_py, f_ts,
    f_go, f_rust, f_java, f_kotlin, f_swift, f_csharp, f_php, f_ruby, f_elixir, f_scala, f_docker_inspect,
    f_k8s_secret, f_git_diff, f_chat, f_fixture, f_export, f_gha, f_docker_run, f_log, f_decision, f_error_fix,
    f_compose, f_helm, f_pytest,
]  # fmt: skip
BEARER_FRAMES = [f_curl_bearer, f_header_http, f_fetch_ts]


# ----------------------------------------------------------------------------------------------
# kind-specific frames
# ----------------------------------------------------------------------------------------------


def f_aws_credentials(r, c):
    return f"~/.aws/credentials\n[{r.choice(['default', 'ci', 'deploy', 'prod-admin'])}]\nregion = {r.choice(REGIONS)}\n{c['env'].lower()} = {c['v']}"


def f_npmrc(r, c):
    return f"# .npmrc written by the release job\nregistry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={c['v']}\nsave-exact=true"


def f_pypirc(r, c):
    return f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {c['v']}"


def f_twine(r, c):
    return f"$ twine upload -u __token__ -p {c['v']} dist/*\nUploading {c['svc']}-{_ver(r)}-py3-none-any.whl\n100% ━━━━━━━━━━━━━━━━ {_int(r, 10, 900)}.0/{_int(r, 10, 900)}.0 kB"


def f_docker_login(r, c):
    return f"$ echo '{c['v']}' | docker login -u {_user(r)}{_int(r, 1, 99)} --password-stdin\nLogin Succeeded"


def f_nuget_push(r, c):
    return f"dotnet nuget push bin/Release/{_pascal(c['svc'])}.{_ver(r)}.nupkg --api-key {c['v']} --source https://api.nuget.org/v3/index.json"


def f_gem_creds(r, c):
    return f"~/.gem/credentials\n---\n:rubygems_api_key: {c['v']}"


def f_cargo_login(r, c):
    return r.choice(
        [
            f"$ cargo login {c['v']}\n       Login token for `crates-io` saved",
            f'# ~/.cargo/credentials.toml\n[registry]\ntoken = "{c["v"]}"',
        ]
    )


def f_jfrog_curl(r, c):
    return f"curl -H 'X-JFrog-Art-Api: {c['v']}' -T build/{c['svc']}.jar https://{_org(r)}.jfrog.io/artifactory/libs-release/{c['svc']}.jar"


def f_git_remote(r, c):
    return f"$ git remote -v\norigin\thttps://x-access-token:{c['v']}@github.com/{_org(r)}/{c['svc']}.git (fetch)"


def f_gh_auth(r, c):
    return f"$ echo {c['v']} | gh auth login --with-token\n$ gh pr list --repo {_org(r)}/{c['svc']}"


def f_gitlab_clone(r, c):
    return f"git clone https://oauth2:{c['v']}@gitlab.com/{_org(r)}/{c['svc']}.git /tmp/{c['svc']}"


def f_runner_toml(r, c):
    return (
        f'[[runners]]\n  name = "{c["svc"]}-runner-{_int(r, 1, 9)}"\n  url = "https://gitlab.com"\n  token = "{c["v"]}"\n'
        f'  executor = "docker"'
    )


def f_stripe_listen(r, c):
    return (
        f"$ stripe listen --forward-to localhost:{_int(r, 3000, 9000)}/webhooks/stripe\n"
        f"> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is {c['v']} (^C to quit)"
    )


def f_stripe_curl(r, c):
    return f"curl https://api.stripe.com/v1/charges?limit={_int(r, 1, 20)} -u {c['v']}:"


def f_slack_post(r, c):
    return f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy of {c['svc']} finished\"}}' {c['v']}"


def f_telegram_url(r, c):
    return f'requests.post("https://api.telegram.org/bot{c["v"]}/sendMessage", json={{"chat_id": {-_int(r, 10**12, 10**13)}, "text": msg}})'


def f_twilio_curl(r, c):
    return (
        f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC{_hex(r, 32)}/Messages.json "
        f"-u AC{_hex(r, 32)}:{c['v']} --data-urlencode 'Body=test'"
    )


def f_dd_curl(r, c):
    return f"curl -X POST 'https://api.datadoghq.com/api/v2/series' -H 'DD-API-KEY: {c['v']}' -H 'Content-Type: application/json' -d @metrics.json"


def f_xapikey(r, c):
    return f"curl https://api.{c['vendor'].lower().replace(' ', '')}.com/v1/messages -H 'x-api-key: {c['v']}' -H 'content-type: application/json' -d @req.json"


def f_openai_py(r, c):
    return f'from openai import OpenAI\n\nclient = OpenAI(api_key="{c["v"]}")\nresp = client.responses.create(model="gpt-4.1-mini", input=prompt)'


def f_anthropic_py(r, c):
    return f'import anthropic\n\nclient = anthropic.Anthropic(api_key="{c["v"]}")\nmsg = client.messages.create(model=model, max_tokens={_int(r, 256, 4096)}, messages=msgs)'


def f_azure_conn(r, c):
    acct = _org(r).replace("-", "") + _rs(r, LOWNUM, 4)
    return f"AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={c['v']};EndpointSuffix=core.windows.net"


def f_vault_login(r, c):
    return f"$ export VAULT_ADDR=https://vault.{_org(r)}.internal:8200\n$ vault login {c['v']}\nSuccess! You are now authenticated."


def f_tfrc(r, c):
    return f'# ~/.terraform.d/credentials.tfrc.json\n{{\n  "credentials": {{\n    "app.terraform.io": {{ "token": "{c["v"]}" }}\n  }}\n}}'


def f_sql_pw(r, c):
    return r.choice(
        [
            f"CREATE ROLE {c['svc']}_app WITH LOGIN PASSWORD '{c['v']}';\nGRANT CONNECT ON DATABASE {c['svc']} TO {c['svc']}_app;",
            f"ALTER USER '{c['svc']}'@'%' IDENTIFIED BY '{c['v']}';\nFLUSH PRIVILEGES;",
        ]
    )


def f_cli_pw(r, c):
    return r.choice(
        [
            f"mysql -h {_host(r)} -u {c['svc']} -p'{c['v']}' -e 'SHOW PROCESSLIST'",
            f"sshpass -p '{c['v']}' ssh deploy@{_ip(r)} 'sudo systemctl restart {c['svc']}'",
            f"redis-cli -h {_host(r)} -a '{c['v']}' --no-auth-warning INFO memory",
            f"keytool -importkeystore -srckeystore {c['svc']}.p12 -srcstoretype PKCS12 -srcstorepass '{c['v']}' -destkeystore app.jks",
        ]
    )


def f_login_note(r, c):
    return r.choice(
        [
            f"Staging Grafana admin login: admin / {c['v']} (shared, ask {_user(r)} before changing).",
            f"The bastion root password is {c['v']} -- the user asked me to note it here for the migration weekend.",
            f"Note to self: keystore password for the Android release build is {c['v']}.",
        ]
    )


def f_gradle_props(r, c):
    return f"# ~/.gradle/gradle.properties\nRELEASE_STORE_FILE=release.jks\nRELEASE_STORE_PASSWORD={c['v']}\nRELEASE_KEY_ALIAS={c['svc']}"


def f_otpauth(r, c):
    issuer = r.choice(["AWS", "GitHub", "Okta", "Cloudflare", "Grafana"])
    return f"otpauth://totp/{issuer}:{_user(r)}%40{_org(r)}.com?secret={c['v']}&issuer={issuer}&digits=6&period=30"


def f_totp_note(r, c):
    return f"2FA seed for the shared ops account (root of the {_org(r)} AWS org), added to the vault item: {c['v']}"


def f_pyotp(r, c):
    return f'import pyotp\n\ntotp = pyotp.TOTP("{c["v"]}")\nprint(totp.now())  # used by the e2e login helper'


# --- URL-valued contexts (c['v'] is the whole URL; the secret is part of it) -------------------


def f_share_note(r, c):
    return f"Generated a download link for {_user(r)} (expires in {r.choice([15, 60, 3600])} min): {c['v']}"


def f_curl_get(r, c):
    return f"$ curl -fsSL -o export.csv '{c['v']}'\n$ wc -l export.csv\n{_int(r, 10, 99999)} export.csv"


def f_json_resp(r, c):
    return "Response from POST /exports:\n" + json.dumps(
        {"id": _uuid(r), "status": "ready", "download_url": c["v"]}, indent=2
    )


def f_url_log(r, c):
    return f"{_ts(r)} INFO uploader: PUT {c['v']} -> 200 ({_int(r, 20, 900)} ms)"


def f_url_md(r, c):
    return f"Left a comment on the ticket with [the report]({c['v']}) so the user can grab it."


URL_FRAMES = [f_share_note, f_curl_get, f_json_resp, f_url_log, f_url_md]


def f_sqlalchemy(r, c):
    return f'engine = create_engine("{c["v"]}", pool_pre_ping=True)'


def f_dsn_error(r, c):
    return (
        f'Traceback (most recent call last):\n  File "{_path(r)}/db.py", line {_int(r, 10, 300)}, in connect\n'
        f"ConnectionError: could not connect to {c['v']}: timeout after {_int(r, 5, 30)}s"
    )


def f_prisma(r, c):
    return f'// prisma/schema.prisma\ndatasource db {{\n  provider = "postgresql"\n  url      = "{c["v"]}"\n}}'


DSN_FRAMES = [f_sqlalchemy, f_dsn_error, f_prisma]


def f_basic_http(r, c):
    return f"POST /v1/{_word(r)}s HTTP/1.1\nHost: {_host(r)}\nAuthorization: Basic {c['v']}\nContent-Type: application/json"


def f_basic_curl(r, c):
    return f'curl -H "Authorization: Basic {c["v"]}" https://{_host(r)}/metrics'


def f_basic_nginx(r, c):
    return f'location /upstream/ {{\n    proxy_pass http://{_svc(r)}:8080/;\n    proxy_set_header Authorization "Basic {c["v"]}";\n}}'


def f_basic_py(r, c):
    return f'HEADERS = {{"Authorization": "Basic {c["v"]}", "Accept": "application/json"}}'


BASIC_FRAMES = [f_basic_http, f_basic_curl, f_basic_nginx, f_basic_py, f_log, f_chat, f_k8s_secret]


def f_urlauth_pipconf(r, c):
    return f"# /etc/pip.conf\n[global]\nindex-url = {c['v']}\ntimeout = 60"


def f_urlauth_gitconfig(r, c):
    return f"$ git remote -v\norigin\t{c['v']} (fetch)\norigin\t{c['v']} (push)"


def f_urlauth_compose(r, c):
    return f"    environment:\n      - UPSTREAM_URL={c['v']}\n      - RETRIES=3"


URLAUTH_FRAMES = [f_urlauth_pipconf, f_urlauth_gitconfig, f_urlauth_compose, f_share_note, f_log, f_chat, f_dotenv]


# --- PEM contexts --------------------------------------------------------------------------------


def p_file(r, c):
    return f"Generated a new deploy key for {c['svc']}; contents of {r.choice(['deploy_key', 'id_ed25519', 'server.key', 'jwt-signing.pem'])}:\n{c['v']}"


def p_k8s(r, c):
    ind = "\n".join("    " + ln for ln in c["v"].splitlines())
    return f"apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\nmetadata:\n  name: {c['svc']}-tls\nstringData:\n  tls.key: |\n{ind}"


def p_heredoc(r, c):
    return f'resource "tls_private_key_import" "{c["svc"]}" {{\n  private_key_pem = <<-EOT\n{c["v"]}\n  EOT\n}}'


def p_py(r, c):
    return f'# tests/conftest.py\nSIGNING_KEY = """{c["v"]}"""\n'


def p_chat(r, c):
    return f"User: CI can't ssh into the box, here's the key it should use:\n{c['v']}\nAssistant: Thanks -- I'll add it as a repository secret instead of a file."


def p_ansible(r, c):
    ind = "\n".join("  " + ln for ln in c["v"].splitlines())
    return f"# group_vars/{r.choice(ENVS)}.yml\nnginx_tls_key: |\n{ind}"


PEM_FRAMES = [p_file, p_k8s, p_heredoc, p_py, p_chat, p_ansible]


def _escaped_pem(pem: str) -> str:
    return pem.replace("\n", "\\n") + "\\n"


def x_gcp_json(r):
    proj = f"{_org(r)}-{r.choice(ENVS)}-{_int(r, 100, 999)}"
    key = _escaped_pem(v_pkcs8(r))
    sa = f"{_svc(r)}@{proj}.iam.gserviceaccount.com"
    d = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": _hex(r, 40),
        "private_key": "@@KEY@@",
        "client_email": sa,
        "client_id": _rs(r, DIGITS, 21),
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    body = json.dumps(d, indent=2).replace("@@KEY@@", key)
    lead = r.choice(
        [
            f"Saved the new service-account key as {_svc(r)}-sa.json:\n",
            "User pasted this for the BigQuery export job:\n",
            "GOOGLE_APPLICATION_CREDENTIALS points at this file (from the shared drive):\n",
        ]
    )
    return lead + body, key


def x_env_pem(r):
    pem = r.choice([v_rsa_pkcs1, v_pkcs8, v_ec])(r)
    esc = pem.replace("\n", "\\n")
    name = r.choice(["JWT_PRIVATE_KEY", "GITHUB_APP_PRIVATE_KEY", "APNS_AUTH_KEY", "SAML_SP_KEY"])
    return f'{name}="{esc}"', esc


def x_s3_presigned(r):
    bucket = f"{_org(r)}-{r.choice(['exports', 'uploads', 'artifacts', 'backups'])}"
    region = r.choice(REGIONS)
    sig = _hex(r, 64)
    d = f"2024{_int(r, 1, 12):02d}{_int(r, 1, 28):02d}"
    url = (
        f"https://{bucket}.s3.{region}.amazonaws.com/{_word(r)}/{_uuid(r)}.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={'AS' + 'IA'}{_rs(r, UPNUM, 16)}%2F{d}%2F{region}%2Fs3%2Faws4_request&X-Amz-Date={d}T{_int(r, 0, 23):02d}0000Z"
        f"&X-Amz-Expires={r.choice([300, 900, 3600, 86400])}&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return url, sig


def x_gcs_signed(r):
    sig = _hex(r, 512)
    url = (
        f"https://storage.googleapis.com/{_org(r)}-{_word(r)}/{_word(r)}.parquet?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        f"&X-Goog-Credential={_svc(r)}%40{_org(r)}-prod.iam.gserviceaccount.com%2F2024{_int(r, 10, 12)}{_int(r, 10, 28)}%2Fauto%2Fstorage%2Fgoog4_request"
        f"&X-Goog-Date=2024{_int(r, 10, 12)}{_int(r, 10, 28)}T101500Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return url, sig


def x_azure_sas(r):
    raw = _b64(r, 32)
    sig = raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = _org(r).replace("-", "") + "store"
    url = (
        f"https://{acct}.blob.core.windows.net/{_word(r)}/{_uuid(r)}.zip?sv=2022-11-02&ss=b&srt=o&sp=r"
        f"&se={_date(r)}T{_int(r, 10, 23)}:00:00Z&st={_date(r)}T08:00:00Z&spr=https&sig={sig}"
    )
    return url, sig


def x_cloudfront(r):
    sig = _rs(r, ALNUM + "-~_", 172)
    url = (
        f"https://d{_rs(r, LOWNUM, 13)}.cloudfront.net/{_word(r)}/{_word(r)}.mp4?Expires={_int(r, 1.7e9, 1.8e9)}"
        f"&Signature={sig}&Key-Pair-Id=K{_rs(r, UPNUM, 13)}"
    )
    return url, sig


def _dbuser(r):
    return r.choice([_svc(r), f"{_svc(r)}_app", "postgres", "admin", "app", f"{_user(r)}_rw"])


def x_postgres(r):
    pw = r.choice([_pw_url_safe(r), "npg_" + _rs(r, ALNUM, 12), _rs(r, ALNUM, 24)])
    host = r.choice(
        [
            f"ep-{_word(r)}-{_word(r)}-{_rs(r, LOWNUM, 8)}.{r.choice(REGIONS)}.aws.neon.tech",
            f"{_svc(r)}-db.{_rs(r, LOWNUM, 12)}.{r.choice(REGIONS)}.rds.amazonaws.com",
            f"db.{_rs(r, LOWER, 20)}.supabase.co",
            _host(r),
        ]
    )
    return f"postgresql://{_dbuser(r)}:{pw}@{host}:5432/{_svc(r)}?sslmode=require", pw


def x_mongo(r):
    pw = _pw_url_safe(r)
    return (
        f"mongodb+srv://{_dbuser(r)}:{pw}@cluster0.{_rs(r, LOWNUM, 5)}.mongodb.net/{_svc(r)}?retryWrites=true&w=majority",
        pw,
    )


def x_mysql(r):
    pw = _pw_url_safe(r)
    return f"{_dbuser(r)}:{pw}@tcp({_host(r)}:3306)/{_svc(r)}?parseTime=true&tls=true", pw


def x_redis(r):
    pw = _rs(r, ALNUM, r.choice([32, 40]))
    host = r.choice(
        [
            f"{_word(r)}-{_word(r)}-{_int(r, 10000, 99999)}.upstash.io",
            f"redis-{_int(r, 10000, 19999)}.c{_int(r, 1, 300)}.{r.choice(REGIONS)}-1.ec2.cloud.redislabs.com",
        ]
    )
    return f"rediss://default:{pw}@{host}:{_int(r, 6379, 19999)}", pw


def x_amqp(r):
    pw = _pw_url_safe(r)
    return f"amqps://{_dbuser(r)}:{pw}@{_word(r)}-{_word(r)}.rmq{_int(r, 1, 9)}.cloudamqp.com/{_rs(r, LOWER, 8)}", pw


def x_jdbc(r):
    pw = r.choice([_pw_random(r), _pw_human(r)])
    url = r.choice(
        [
            f"jdbc:sqlserver://{_host(r)}:1433;databaseName={_svc(r)};user={_dbuser(r)};password={pw};encrypt=true",
            f"jdbc:postgresql://{_host(r)}:5432/{_svc(r)}?user={_dbuser(r)}&password={pw}&ssl=true",
            f"jdbc:mysql://{_host(r)}:3306/{_svc(r)}?user={_dbuser(r)}&password={pw}&useSSL=true",
        ]
    )
    return url, pw


def x_urlauth(r):
    pw = r.choice([_pw_url_safe(r), _rs(r, ALNUM, 32), _hex(r, 40)])
    url = r.choice(
        [
            f"https://{_user(r)}:{pw}@pypi.{_org(r)}.internal/simple/",
            f"https://ci-bot:{pw}@git.{_org(r)}.com/{_org(r)}/{_svc(r)}.git",
            f"https://deploy:{pw}@nexus.{_org(r)}.io/repository/npm-private/",
            f"http://admin:{pw}@{_ip(r)}:9200/_cluster/health",
        ]
    )
    return url, pw


def x_basic(r):
    pw = r.choice([_pw_random(r), _pw_human(r), _rs(r, ALNUM, 32)])
    user = r.choice([_user(r), "api", "admin", f"{_svc(r)}-bot", "prometheus"])
    return base64.b64encode(f"{user}:{pw}".encode()).decode()


# ----------------------------------------------------------------------------------------------
# positive specs
# ----------------------------------------------------------------------------------------------

G = GENERIC_FRAMES
B = BEARER_FRAMES

# kind: (vendor, env names, value fn, frames)   -- value fn returns the secret itself
KEY_SPECS: dict[str, tuple[str, list[str], Callable, list]] = {
    "aws_access_key_id": ("AWS", ["AWS_ACCESS_KEY_ID"], v_aws_akid, [*G, f_aws_credentials]),
    "aws_secret_access_key": ("AWS", ["AWS_SECRET_ACCESS_KEY"], v_aws_secret, [*G, f_aws_credentials, f_aws_credentials]),
    "aws_session_token": ("AWS", ["AWS_SESSION_TOKEN"], v_aws_session, [*G, f_aws_credentials]),
    "gcp_oauth_client_secret": ("Google OAuth", ["GOOGLE_CLIENT_SECRET", "OAUTH_CLIENT_SECRET"], v_gcp_oauth_secret, G),
    "google_api_key": ("Gemini", ["GEMINI_API_KEY", "GOOGLE_MAPS_SERVER_KEY", "YOUTUBE_API_KEY"], v_google_api_key, G),
    "google_refresh_token": ("Google", ["GOOGLE_REFRESH_TOKEN", "GMAIL_REFRESH_TOKEN"], v_google_refresh, G),
    "azure_storage_key": ("Azure Storage", ["AZURE_STORAGE_KEY"], v_azure_storage, [*G, f_azure_conn, f_azure_conn, f_azure_conn]),
    "azure_client_secret": ("Azure AD", ["AZURE_CLIENT_SECRET"], v_azure_client_secret, G),
    "digitalocean_token": ("DigitalOcean", ["DIGITALOCEAN_TOKEN", "DO_API_TOKEN"], v_do_token, [*G, *B]),
    "cloudflare_api_token": ("Cloudflare", ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"], v_cloudflare, [*G, *B]),
    "vault_token": ("Vault", ["VAULT_TOKEN"], v_vault, [*G, f_vault_login, f_vault_login]),
    "terraform_cloud_token": ("Terraform Cloud", ["TFE_TOKEN", "TF_API_TOKEN"], v_tfc, [*G, f_tfrc, f_tfrc, *B]),
    "pulumi_token": ("Pulumi", ["PULUMI_ACCESS_TOKEN"], v_pulumi, G),
    "doppler_token": ("Doppler", ["DOPPLER_TOKEN"], v_doppler, G),
    "github_pat": ("GitHub", ["GITHUB_TOKEN", "GH_TOKEN"], v_ghp, [*G, f_git_remote, f_gh_auth, *B]),
    "github_fine_grained_pat": ("GitHub", ["GITHUB_TOKEN", "GH_PAT"], v_gh_fine, [*G, f_git_remote, f_gh_auth, *B]),
    "github_app_token": ("GitHub", ["GITHUB_APP_TOKEN", "GH_INSTALLATION_TOKEN"], v_gh_app, [*G, f_git_remote, *B]),
    "gitlab_pat": ("GitLab", ["GITLAB_TOKEN", "CI_JOB_PAT"], v_glpat, [*G, f_gitlab_clone, f_gitlab_clone, *B]),
    "gitlab_runner_token": ("GitLab", ["RUNNER_TOKEN", "CI_SERVER_TOKEN"], v_glrt, [*G, f_runner_toml, f_runner_toml]),
    "npm_token": ("npm", ["NPM_TOKEN", "NODE_AUTH_TOKEN"], v_npm, [*G, f_npmrc, f_npmrc, f_npmrc]),
    "pypi_token": ("PyPI", ["PYPI_TOKEN", "TWINE_PASSWORD"], v_pypi, [*G, f_pypirc, f_twine, f_pypirc]),
    "dockerhub_pat": ("Docker Hub", ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"], v_dockerhub, [*G, f_docker_login, f_docker_login]),
    "nuget_api_key": ("NuGet", ["NUGET_API_KEY"], v_nuget, [*G, f_nuget_push, f_nuget_push]),
    "rubygems_api_key": ("RubyGems", ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"], v_rubygems, [*G, f_gem_creds, f_gem_creds]),
    "cratesio_token": ("crates.io", ["CARGO_REGISTRY_TOKEN"], v_crates, [*G, f_cargo_login, f_cargo_login]),
    "jfrog_api_key": ("Artifactory", ["ARTIFACTORY_API_KEY", "JFROG_API_KEY"], v_jfrog, [*G, f_jfrog_curl, f_jfrog_curl]),
    "stripe_secret_key": ("Stripe", ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"], v_stripe_sk, [*G, f_stripe_curl, *B]),
    "stripe_restricted_key": ("Stripe", ["STRIPE_RESTRICTED_KEY", "STRIPE_RK"], v_stripe_rk, [*G, f_stripe_curl, *B]),
    "stripe_webhook_secret": ("Stripe", ["STRIPE_WEBHOOK_SECRET", "STRIPE_ENDPOINT_SECRET"], v_whsec, [*G, f_stripe_listen, f_stripe_listen]),
    "square_access_token": ("Square", ["SQUARE_ACCESS_TOKEN"], v_square, [*G, *B]),
    "braintree_access_token": ("Braintree", ["BRAINTREE_ACCESS_TOKEN", "PAYPAL_ACCESS_TOKEN"], v_braintree, G),
    "shopify_token": ("Shopify", ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_API_SECRET"], v_shopify, G),
    "slack_bot_token": ("Slack", ["SLACK_BOT_TOKEN"], v_xoxb, [*G, *B]),
    "slack_user_token": ("Slack", ["SLACK_USER_TOKEN"], v_xoxp, [*G, *B]),
    "slack_webhook_url": ("Slack", ["SLACK_WEBHOOK_URL"], v_slack_hook, [*G, f_slack_post, f_slack_post, f_slack_post]),
    "discord_bot_token": ("Discord", ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"], v_discord_bot, G),
    "discord_webhook_url": ("Discord", ["DISCORD_WEBHOOK_URL"], v_discord_hook, [*G, f_slack_post, f_slack_post]),
    "telegram_bot_token": ("Telegram", ["TELEGRAM_BOT_TOKEN", "TG_TOKEN"], v_telegram, [*G, f_telegram_url, f_telegram_url]),
    "twilio_auth_token": ("Twilio", ["TWILIO_AUTH_TOKEN"], v_twilio_auth, [*G, f_twilio_curl, f_twilio_curl, f_twilio_curl]),
    "sendgrid_api_key": ("SendGrid", ["SENDGRID_API_KEY"], v_sendgrid, [*G, *B]),
    "mailgun_api_key": ("Mailgun", ["MAILGUN_API_KEY"], v_mailgun, G),
    "mailchimp_api_key": ("Mailchimp", ["MAILCHIMP_API_KEY"], v_mailchimp, G),
    "openai_api_key": ("OpenAI", ["OPENAI_API_KEY"], v_openai, [*G, f_openai_py, f_openai_py, *B]),
    "anthropic_api_key": ("Anthropic", ["ANTHROPIC_API_KEY"], v_anthropic, [*G, f_anthropic_py, f_anthropic_py, f_xapikey]),
    "huggingface_token": ("Hugging Face", ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"], v_hf, [*G, *B]),
    "groq_api_key": ("Groq", ["GROQ_API_KEY"], v_groq, [*G, *B]),
    "replicate_token": ("Replicate", ["REPLICATE_API_TOKEN"], v_replicate, [*G, *B]),
    "datadog_api_key": ("Datadog", ["DD_API_KEY", "DATADOG_API_KEY"], v_datadog, [*G, f_dd_curl, f_dd_curl, f_dd_curl]),
    "newrelic_user_key": ("New Relic", ["NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY"], v_newrelic, G),
    "sentry_auth_token": ("Sentry", ["SENTRY_AUTH_TOKEN"], v_sentry, [*G, *B]),
    "grafana_sa_token": ("Grafana", ["GRAFANA_SERVICE_ACCOUNT_TOKEN", "GRAFANA_TOKEN"], v_grafana, [*G, *B]),
    "linear_api_key": ("Linear", ["LINEAR_API_KEY"], v_linear, G),
    "notion_token": ("Notion", ["NOTION_TOKEN", "NOTION_API_KEY"], v_notion, [*G, *B]),
    "airtable_pat": ("Airtable", ["AIRTABLE_TOKEN"], v_airtable, [*G, *B]),
    "postman_api_key": ("Postman", ["POSTMAN_API_KEY"], v_postman, G),
    "atlassian_api_token": ("Jira", ["JIRA_API_TOKEN", "ATLASSIAN_TOKEN"], v_atlassian, G),
    "hubspot_token": ("HubSpot", ["HUBSPOT_ACCESS_TOKEN"], v_hubspot, [*G, *B]),
    "okta_api_token": ("Okta", ["OKTA_API_TOKEN"], v_okta, G),
    "planetscale_token": ("PlanetScale", ["PLANETSCALE_PASSWORD", "PSCALE_TOKEN"], v_pscale, G),
    "supabase_service_role_key": ("Supabase", ["SUPABASE_SERVICE_ROLE_KEY"], v_supabase_service, [*G, *B]),
    "jwt_session_token": ("auth", ["SESSION_TOKEN", "ACCESS_TOKEN", "E2E_AUTH_TOKEN"], v_jwt_session, [*G, *B, *B]),
    "age_secret_key": ("age", ["SOPS_AGE_KEY"], v_age, G),
    "django_secret_key": ("Django", ["DJANGO_SECRET_KEY", "SECRET_KEY"], v_django, G),
    "rails_secret_key_base": ("Rails", ["SECRET_KEY_BASE"], v_rails, G),
    "laravel_app_key": ("Laravel", ["APP_KEY"], v_laravel, G),
    "generic_api_key": ("internal", ["API_KEY", "PARTNER_API_KEY", "INTERNAL_API_KEY", "X_API_KEY"], v_hex_key, [*G, *B]),
    "webhook_secret": ("GitHub", ["GITHUB_WEBHOOK_SECRET", "WEBHOOK_SIGNING_SECRET", "HMAC_SECRET"], v_webhook_secret, G),
    "totp_seed": ("TOTP", ["TOTP_SECRET", "MFA_SEED"], v_totp, [f_otpauth, f_otpauth, f_otpauth, f_totp_note, f_totp_note, f_pyotp, f_pyotp, f_env_note, f_k8s_secret]),
    "mapbox_secret_token": ("Mapbox", ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"], v_mapbox_sk, G),
    "algolia_admin_key": ("Algolia", ["ALGOLIA_ADMIN_API_KEY", "ALGOLIA_WRITE_KEY"], v_algolia_admin, G),
    "fcm_server_key": ("Firebase", ["FCM_SERVER_KEY"], v_fcm, G),
    "password_random": ("database", ["DB_PASSWORD", "POSTGRES_PASSWORD", "MYSQL_ROOT_PASSWORD", "SMTP_PASSWORD", "ADMIN_PASSWORD"], _pw_random, [*G, f_sql_pw, f_sql_pw, f_cli_pw, f_cli_pw, f_login_note, f_gradle_props]),
    "password_human": ("database", ["DB_PASS", "REDIS_PASSWORD", "LDAP_BIND_PASSWORD", "SFTP_PASSWORD", "KEYSTORE_PASSWORD"], _pw_human, [*G, f_sql_pw, f_cli_pw, f_cli_pw, f_login_note, f_login_note, f_gradle_props]),
    "passphrase": ("gpg", ["GPG_PASSPHRASE", "KEY_PASSPHRASE", "BACKUP_ENCRYPTION_PASSPHRASE"], _passphrase, [*G, f_login_note, f_login_note, f_cli_pw]),
}  # fmt: skip

# kind: (env names, fn returning (url-or-text, secret), frames)
URL_SPECS: dict[str, tuple[list[str], Callable, list]] = {
    "s3_presigned_url": (["EXPORT_URL"], x_s3_presigned, URL_FRAMES),
    "gcs_signed_url": (["SIGNED_URL"], x_gcs_signed, URL_FRAMES),
    "azure_sas_url": (["AZURE_BLOB_SAS_URL"], x_azure_sas, [*URL_FRAMES, f_dotenv, f_yaml]),
    "cloudfront_signed_url": (["VIDEO_URL"], x_cloudfront, URL_FRAMES),
    "postgres_url": (["DATABASE_URL"], x_postgres, [*G, *DSN_FRAMES]),
    "mongodb_uri": (["MONGODB_URI", "MONGO_URL"], x_mongo, [*G, f_dsn_error]),
    "mysql_dsn": (["MYSQL_DSN"], x_mysql, [*G, f_dsn_error]),
    "redis_url": (["REDIS_URL", "UPSTASH_REDIS_URL"], x_redis, [*G, f_dsn_error]),
    "amqp_url": (["AMQP_URL", "CLOUDAMQP_URL"], x_amqp, [*G, f_dsn_error]),
    "jdbc_password": (["SPRING_DATASOURCE_URL", "JDBC_URL"], x_jdbc, [*G, f_dsn_error]),
    "url_basic_auth_password": (["UPSTREAM_URL", "PIP_INDEX_URL"], x_urlauth, URLAUTH_FRAMES),
}  # fmt: skip

URL_VENDORS = {
    "s3_presigned_url": "S3",
    "gcs_signed_url": "GCS",
    "azure_sas_url": "Azure Blob",
    "cloudfront_signed_url": "CloudFront",
    "postgres_url": "Postgres",
    "mongodb_uri": "MongoDB Atlas",
    "mysql_dsn": "MySQL",
    "redis_url": "Redis",
    "amqp_url": "RabbitMQ",
    "jdbc_password": "SQL Server",
    "url_basic_auth_password": "registry",
}

PEM_SPECS: dict[str, Callable] = {
    "rsa_private_key": v_rsa_pkcs1,
    "pkcs8_private_key": v_pkcs8,
    "ec_private_key": v_ec,
    "openssh_private_key": v_openssh,
}

CUSTOM_SPECS: dict[str, Callable] = {
    "gcp_service_account_key": x_gcp_json,
    "private_key_env_escaped": x_env_pem,
}

PER_KIND = 34


def _ctx(r, vendor, env, v):
    return {"vendor": vendor, "env": env, "v": v, "svc": _svc(r)}


def _positives(r: random.Random) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()

    def add(kind, make):
        n = tries = 0
        frames_used: list = []
        while n < PER_KIND and tries < PER_KIND * 10:
            tries += 1
            text, secret = make(frames_used)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            n += 1

    def cycle(frames, used):
        # walk the frames in a shuffled order so every kind covers many places
        if not used:
            used.extend(r.sample(frames, len(frames)))
        return used.pop()

    for kind, (vendor, envs, vf, frames) in KEY_SPECS.items():

        def mk(used, vendor=vendor, envs=envs, vf=vf, frames=frames):
            v = vf(r)
            return cycle(frames, used)(r, _ctx(r, vendor, r.choice(envs), v)), v

        add(kind, mk)

    for kind, (envs, xf, frames) in URL_SPECS.items():

        def mk(used, envs=envs, xf=xf, frames=frames, kind=kind):
            url, secret = xf(r)
            return cycle(frames, used)(r, _ctx(r, URL_VENDORS[kind], r.choice(envs), url)), secret

        add(kind, mk)

    def mk_basic(used):
        v = x_basic(r)
        return cycle(BASIC_FRAMES, used)(r, _ctx(r, "upstream", "UPSTREAM_AUTH_HEADER", v)), v

    add("basic_auth_header", mk_basic)

    for kind, vf in PEM_SPECS.items():

        def mk(used, vf=vf):
            v = vf(r)
            return cycle(PEM_FRAMES, used)(r, _ctx(r, "tls", "KEY", v)), v

        add(kind, mk)

    for kind, xf in CUSTOM_SPECS.items():
        add(kind, lambda used, xf=xf: xf(r))
    return out


# ----------------------------------------------------------------------------------------------
# look-alikes: generated files
# ----------------------------------------------------------------------------------------------

LOOKALIKES: list[Callable[[random.Random], str]] = []


def la(fn):
    LOOKALIKES.append(fn)
    return fn


NPM_PKGS = [
    "react",
    "lodash",
    "zod",
    "axios",
    "chalk",
    "debug",
    "semver",
    "uuid",
    "yaml",
    "commander",
    "express",
    "vite",
    "esbuild",
    "rollup",
    "tslib",
    "undici",
    "ws",
    "picomatch",
    "glob",
    "minimatch",
]
PY_PKGS = [
    "requests",
    "httpx",
    "pydantic",
    "numpy",
    "pandas",
    "rich",
    "click",
    "attrs",
    "urllib3",
    "certifi",
    "idna",
    "anyio",
    "sqlalchemy",
    "alembic",
    "orjson",
]
RS_CRATES = [
    "serde",
    "tokio",
    "anyhow",
    "thiserror",
    "regex",
    "clap",
    "reqwest",
    "hyper",
    "bytes",
    "tracing",
    "rand",
    "sha2",
    "hex",
    "base64",
    "itoa",
]
GO_MODS = [
    "github.com/spf13/cobra",
    "github.com/stretchr/testify",
    "golang.org/x/net",
    "google.golang.org/grpc",
    "github.com/google/uuid",
    "go.uber.org/zap",
    "github.com/jackc/pgx/v5",
]


def _pkg(r):
    return r.choice(NPM_PKGS) + r.choice(["", "", f"-{_word(r)}"])


@la
def la_npm_lock(r):
    p, v = _pkg(r), _ver(r)
    return (
        f'    "node_modules/{p}": {{\n      "version": "{v}",\n      "resolved": "https://registry.npmjs.org/{p}/-/{p}-{v}.tgz",\n'
        f'      "integrity": "sha512-{_b64(r, 64)}",\n      "dev": {str(r.random() < 0.5).lower()}\n    }},'
    )


@la
def la_yarn_lock(r):
    p, v = _pkg(r), _ver(r)
    return (
        f'"{p}@^{v}":\n  version "{v}"\n  resolved "https://registry.yarnpkg.com/{p}/-/{p}-{v}.tgz#{_sha(r)}"\n'
        f'  integrity sha512-{_b64(r, 64)}\n  dependencies:\n    {_pkg(r)} "^{_ver(r)}"'
    )


@la
def la_pnpm_lock(r):
    p, v = _pkg(r), _ver(r)
    return f"  /{p}@{v}:\n    resolution: {{integrity: sha512-{_b64(r, 64)}}}\n    engines: {{node: '>=18'}}\n    dev: true"


@la
def la_cargo_lock(r):
    out = []
    for _ in range(_int(r, 2, 4)):
        out.append(
            f'[[package]]\nname = "{r.choice(RS_CRATES)}"\nversion = "{_ver(r)}"\n'
            f'source = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{_sha256(r)}"'
        )
    return "\n\n".join(out)


@la
def la_go_sum(r):
    lines = []
    for _ in range(_int(r, 2, 5)):
        m, v = r.choice(GO_MODS), f"v{_ver(r)}"
        lines.append(f"{m} {v} h1:{_b64(r, 32)}")
        lines.append(f"{m} {v}/go.mod h1:{_b64(r, 32)}")
    return "\n".join(lines)


@la
def la_poetry_lock(r):
    p, v = r.choice(PY_PKGS), _ver(r)
    return (
        f'[[package]]\nname = "{p}"\nversion = "{v}"\noptional = false\npython-versions = ">=3.8"\nfiles = [\n'
        f'    {{file = "{p}-{v}-py3-none-any.whl", hash = "sha256:{_sha256(r)}"}},\n'
        f'    {{file = "{p}-{v}.tar.gz", hash = "sha256:{_sha256(r)}"}},\n]'
    )


@la
def la_requirements_hashes(r):
    p = r.choice(PY_PKGS)
    return f"{p}=={_ver(r)} \\\n    --hash=sha256:{_sha256(r)} \\\n    --hash=sha256:{_sha256(r)}\n    # via -r requirements.in"


@la
def la_composer_lock(r):
    n = f"{r.choice(['symfony', 'laravel', 'guzzlehttp', 'monolog'])}/{_word(r)}"
    d = {
        "name": n,
        "version": f"v{_ver(r)}",
        "source": {"type": "git", "url": f"https://github.com/{n}.git", "reference": _sha(r)},
        "dist": {
            "type": "zip",
            "url": f"https://api.github.com/repos/{n}/zipball/{_sha(r)}",
            "reference": _sha(r),
            "shasum": "",
        },
    }
    return json.dumps(d, indent=4)


@la
def la_swift_resolved(r):
    pins = [
        {
            "identity": _word(r),
            "kind": "remoteSourceControl",
            "location": f"https://github.com/{_org(r)}/{_word(r)}.git",
            "state": {"revision": _sha(r), "version": _ver(r)},
        }
        for _ in range(_int(r, 1, 3))
    ]
    return "Package.resolved:\n" + json.dumps({"originHash": _sha256(r), "pins": pins, "version": 3}, indent=2)


@la
def la_mix_lock(r):
    pk = r.choice(["plug", "phoenix", "ecto", "jason", "telemetry", "decimal"])
    return f'  "{pk}": {{:hex, :{pk}, "{_ver(r)}", "{_sha256(r)}", [:mix], [], "hexpm", "{_sha256(r)}"}},'


@la
def la_dotnet_lock(r):
    n = r.choice(["Newtonsoft.Json", "Serilog", "Polly", "Dapper", "Azure.Identity", "Microsoft.Extensions.Http"])
    d = {n: {"type": "Direct", "requested": f"[{_ver(r)}, )", "resolved": _ver(r), "contentHash": _b64(r, 64)}}
    return "packages.lock.json excerpt:\n" + json.dumps(d, indent=2)


@la
def la_gradle_verification(r):
    g = r.choice(["com.squareup.okhttp3", "org.jetbrains.kotlin", "io.ktor", "com.google.guava"])
    a = _word(r)
    return (
        f'<component group="{g}" name="{a}" version="{_ver(r)}">\n   <artifact name="{a}-{_ver(r)}.jar">\n'
        f'      <sha256 value="{_sha256(r)}" origin="Generated by Gradle"/>\n   </artifact>\n</component>'
    )


@la
def la_tf_lock(r):
    p = r.choice(["aws", "google", "azurerm", "random", "kubernetes", "cloudflare"])
    hs = [f'    "h1:{_b64(r, 32)}",'] + [f'    "zh:{_sha256(r)}",' for _ in range(_int(r, 2, 4))]
    return (
        f'provider "registry.terraform.io/hashicorp/{p}" {{\n  version     = "{_ver(r)}"\n  constraints = "~> {_int(r, 2, 5)}.0"\n'
        "  hashes = [\n" + "\n".join(hs) + "\n  ]\n}"
    )


@la
def la_flake_lock(r):
    d = {
        "locked": {
            "lastModified": _int(r, 1.7e9, 1.75e9),
            "narHash": "sha256-" + _b64(r, 32),
            "owner": "NixOS",
            "repo": "nixpkgs",
            "rev": _sha(r),
            "type": "github",
        }
    }
    return "flake.lock (nixpkgs node):\n" + json.dumps(d, indent=2)


@la
def la_helm_lock(r):
    return (
        f"dependencies:\n- name: {r.choice(['postgresql', 'redis', 'common', 'kafka'])}\n"
        f'  repository: oci://registry-1.docker.io/bitnamicharts\n  version: {_ver(r)}\ndigest: sha256:{_sha256(r)}\ngenerated: "{_ts(r)}"'
    )


@la
def la_jest_snapshot(r):
    comp = r.choice(["LoginForm", "ApiKeyCard", "TokenBadge", "SecretField", "Button", "Avatar"])
    return (
        f"// Jest Snapshot v1, https://goo.gl/fbAQLP\n\nexports[`{comp} renders {r.choice(['masked', 'default', 'disabled'])} state 1`] = `\n"
        f'<div\n  className="{comp}_root__{_rs(r, ALNUM, 5)} css-{_rs(r, LOWNUM, 7)}"\n  data-testid="{comp.lower()}"\n>\n'
        f'  <input\n    type="password"\n    value="••••••••"\n    id=":r{_int(r, 0, 9)}:"\n  />\n</div>\n`;'
    )


@la
def la_django_migration(r):
    app = _svc(r)
    prev = f"{_int(r, 1, 80):04d}_auto_{_date(r).replace('-', '')}_{_int(r, 1000, 2359)}"
    return (
        f"# Generated by Django {_int(r, 3, 5)}.{_int(r, 0, 2)} on {_date(r)} {_int(r, 10, 23)}:{_int(r, 10, 59)}\n\n"
        f"from django.db import migrations, models\n\n\nclass Migration(migrations.Migration):\n"
        f'    dependencies = [("{app}", "{prev}")]\n\n    operations = [\n'
        f'        migrations.AddField(model_name="apikey", name="hashed_key", field=models.CharField(max_length=128, default="")),\n    ]'
    )


@la
def la_alembic(r):
    return (
        f'"""add api_tokens table\n\nRevision ID: {_hex(r, 12)}\nRevises: {_hex(r, 12)}\nCreate Date: {_date(r)} {_int(r, 10, 23)}:{_int(r, 10, 59)}:{_int(r, 10, 59)}.{_int(r, 100000, 999999)}\n"""\n'
        f'revision = "{_hex(r, 12)}"\ndown_revision = "{_hex(r, 12)}"\n\n\ndef upgrade():\n'
        '    op.create_table("api_tokens", sa.Column("id", sa.Uuid, primary_key=True), sa.Column("token_hash", sa.String(64)))'
    )


@la
def la_rails_schema(r):
    return (
        f"ActiveRecord::Schema[7.{_int(r, 0, 2)}].define(version: {_date(r).replace('-', '_')}_{_int(r, 100000, 235959)}) do\n"
        f'  create_table "users", force: :cascade do |t|\n    t.string "email", null: false\n    t.string "encrypted_password", default: "", null: false\n'
        f'    t.string "reset_password_token"\n    t.index ["reset_password_token"], name: "index_users_on_reset_password_token", unique: true\n  end\nend'
    )


@la
def la_pb2(r):
    raw = r.randbytes(_int(r, 30, 60))
    esc = "".join(f"\\x{b:02x}" if (b < 32 or b > 126 or chr(b) in "'\\") else chr(b) for b in raw)
    return (
        "# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\n"
        f"# source: {_svc(r)}/v1/{_word(r)}.proto\n"
        f"DESCRIPTOR = _descriptor_pool.Default().AddSerializedFile(b'\\n\\x{_int(r, 16, 40):02x}{_svc(r)}/v1/{_word(r)}.proto{esc}')"
    )


@la
def la_proto_file(r):
    m = _pascal(_word(r))
    return (
        f'syntax = "proto3";\npackage {_svc(r)}.v1;\n\nmessage Create{m}KeyResponse {{\n  string key_id = 1;\n'
        f"  // Only returned once; the server stores a SHA-256 of it.\n  string api_key = 2 [debug_redact = true];\n"
        f"  google.protobuf.Timestamp expires_at = {_int(r, 3, 9)};\n}}"
    )


@la
def la_graphql_persisted(r):
    ops = {
        _sha256(r): f"query {_pascal(_word(r))}($id: ID!) {{ node(id: $id) {{ id }} }}" for _ in range(_int(r, 1, 3))
    }
    return "persisted-queries.json:\n" + json.dumps(ops, indent=2)


@la
def la_apollo_request(r):
    body = {
        "operationName": _pascal(_word(r)),
        "variables": {"first": _int(r, 5, 50), "after": None},
        "extensions": {"persistedQuery": {"version": 1, "sha256Hash": _sha256(r)}},
    }
    return f"POST /graphql -> {r.choice([200, 400])} PersistedQueryNotFound retry\n" + json.dumps(body)


@la
def la_graphql_schema(r):
    return (
        f"type User {{\n  id: ID!\n  email: String!\n  passwordHash: String! @private\n  apiKeys(first: Int = {_int(r, 5, 50)}): ApiKeyConnection!\n}}\n\n"
        "type ApiKey {\n  id: ID!\n  prefix: String!   # first 8 chars, shown in the UI\n  lastUsedAt: DateTime\n}\n\n"
        "type Mutation {\n  rotateApiKey(id: ID!): RotateApiKeyPayload! @auth(requires: ADMIN)\n}"
    )


@la
def la_openapi(r):
    return (
        f"openapi: 3.1.0\ninfo:\n  title: {_pascal(_svc(r))} API\n  version: {_ver(r)}\ncomponents:\n  securitySchemes:\n"
        "    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: X-API-Key\n    bearerAuth:\n      type: http\n"
        "      scheme: bearer\n      bearerFormat: JWT\n  schemas:\n    Token:\n      type: object\n      properties:\n"
        f'        access_token: {{type: string, example: "<access-token>"}}\n        expires_in: {{type: integer, example: {r.choice([3600, 900])}}}'
    )


@la
def la_i18n(r):
    lang = r.choice(["en", "de", "fr", "es", "pt-BR", "ja"])
    msgs = {
        "en": ["Password", "API key", "Your session token has expired.", "Copy secret", "Regenerate key"],
        "de": [
            "Passwort",
            "API-Schlüssel",
            "Dein Sitzungstoken ist abgelaufen.",
            "Geheimnis kopieren",
            "Schlüssel neu erzeugen",
        ],
        "fr": ["Mot de passe", "Clé API", "Votre jeton de session a expiré.", "Copier le secret", "Régénérer la clé"],
        "es": ["Contraseña", "Clave de API", "Tu token de sesión ha caducado.", "Copiar secreto", "Regenerar clave"],
        "pt-BR": ["Senha", "Chave de API", "Seu token de sessão expirou.", "Copiar segredo", "Gerar nova chave"],
        "ja": [
            "パスワード",
            "APIキー",
            "セッショントークンの有効期限が切れました。",
            "シークレットをコピー",
            "キーを再生成",
        ],
    }[lang]
    keys = [
        "auth.password.label",
        "settings.apiKey.title",
        "errors.token.expired",
        "secrets.copy",
        "apiKeys.regenerate",
    ]
    d = {k: m for k, m in zip(keys, msgs, strict=True) if r.random() < 0.85}
    d[f"common.{_word(r)}"] = _word(r).title()
    return f"locales/{lang}/common.json:\n" + json.dumps(d, indent=2, ensure_ascii=False)


@la
def la_i18n_compiled(r):
    d = {_rs(r, B64URL, 6): m for m in ["Enter your API key", "Password", "Show token", "Sign in", "Forgot password?"]}
    return "/*eslint-disable*/module.exports={messages:JSON.parse(" + json.dumps(json.dumps(d)) + ")};"


@la
def la_svg(r):
    pts = " ".join(
        f"{r.choice('MLCQ')}{_int(r, 0, 24)}.{_int(r, 0, 99)} {_int(r, 0, 24)}.{_int(r, 0, 99)}"
        for _ in range(_int(r, 6, 14))
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor"><path d="{pts}Z"/></svg>'


@la
def la_data_uri(r):
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + r.randbytes(_int(r, 60, 160))
    return f".icon-{_word(r)} {{\n  background-image: url(data:image/png;base64,{base64.b64encode(png).decode()});\n}}"


@la
def la_woff_data_uri(r):
    return f'@font-face{{font-family:"{_word(r).title()}";src:url(data:font/woff2;base64,{base64.b64encode(b"wOF2" + r.randbytes(_int(r, 90, 200))).decode()}) format("woff2")}}'


@la
def la_minified_js(r):
    ids = [_rs(r, LOWER, 1) + _rs(r, ALNUM, r.choice([0, 1])) for _ in range(6)]
    a, b, c, d, e, f = ids
    return (
        f'"use strict";(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[{_int(r, 100, 9999)}],{{{_int(r, 1000, 99999)}:function({a},{b},{c}){{'
        f"var {d}={c}({_int(r, 1000, 99999)}),{e}={c}.n({d});{b}.Z=function({f}){{return {f}.apiKey?{e}()({f}.apiKey).slice(0,8):null}}}}}}]);"
        f"\n//# sourceMappingURL={_word(r)}.{_hex(r, 16)}.js.map"
    )


@la
def la_source_map(r):
    segs = []
    for _ in range(_int(r, 8, 20)):
        segs.append(",".join(_rs(r, B64, r.choice([4, 4, 5, 6])) for _ in range(_int(r, 1, 5))))
    sm = {
        "version": 3,
        "file": f"{_word(r)}.{_hex(r, 8)}.js",
        "sources": [f"webpack://_N_E/./src/{_word(r)}.tsx"],
        "names": [_word(r), "useState", "fetch"],
        "mappings": ";".join(segs),
    }
    return json.dumps(sm)


@la
def la_asset_manifest(r):
    d = {
        "files": {
            "main.js": f"/static/js/main.{_hex(r, 8)}.js",
            "main.css": f"/static/css/main.{_hex(r, 8)}.css",
            f"static/js/{_int(r, 100, 999)}.{_hex(r, 8)}.chunk.js": f"/static/js/{_int(r, 100, 999)}.{_hex(r, 8)}.chunk.js",
        },
        "entrypoints": [f"static/js/main.{_hex(r, 8)}.js"],
    }
    return "build/asset-manifest.json\n" + json.dumps(d, indent=2)


@la
def la_next_build(r):
    return (
        f"$ cat .next/BUILD_ID\n{_rs(r, B64URL, 21)}\n$ ls .next/static/chunks/pages\n"
        f"_app-{_hex(r, 16)}.js  index-{_hex(r, 16)}.js  settings/api-keys-{_hex(r, 16)}.js"
    )


@la
def la_sri(r):
    return (
        f'<script src="https://cdn.jsdelivr.net/npm/{_pkg(r)}@{_ver(r)}/dist/index.min.js" '
        f'integrity="sha384-{_b64(r, 48)}" crossorigin="anonymous"></script>'
    )


@la
def la_csp(r):
    return (
        f"Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-{_b64(r, 32)}' 'nonce-{_b64(r, 16)}'; "
        f"style-src 'self' 'sha256-{_b64(r, 32)}'; report-uri /csp-report"
    )


@la
def la_pbxproj(r):
    ids = [_rs(r, UPNUM[:6] + DIGITS, 24) for _ in range(3)]
    return (
        f"\t\t{ids[0]} /* {_pascal(_word(r))}View.swift in Sources */ = {{isa = PBXBuildFile; fileRef = {ids[1]} /* {_pascal(_word(r))}View.swift */; }};\n"
        f'\t\t{ids[2]} /* Secrets.xcconfig */ = {{isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = Secrets.xcconfig; sourceTree = "<group>"; }};'
    )


@la
def la_sln(r):
    g1, g2 = _uuid(r).upper(), _uuid(r).upper()
    n = _pascal(_svc(r))
    return (
        f'Project("{{{g1}}}") = "{n}.Api", "src\\{n}.Api\\{n}.Api.csproj", "{{{g2}}}"\nEndProject\n'
        f"\t\t{{{g2}}}.Debug|Any CPU.ActiveCfg = Debug|Any CPU"
    )


@la
def la_unity_meta(r):
    return f"fileFormatVersion: 2\nguid: {_hex(r, 32)}\nTextureImporter:\n  internalIDToNameTable: []\n  serializedVersion: {_int(r, 10, 13)}\n  mipmaps:\n    mipMapMode: 0"


@la
def la_r8_mapping(r):
    return "\n".join(
        f"com.{_org(r).replace('-', '')}.{_svc(r)}.{_pascal(_word(r))} -> {_rs(r, LOWER, 1)}.{_rs(r, LOWER, 1)}.{_rs(r, LOWER, r.choice([1, 2]))}:"
        for _ in range(_int(r, 2, 5))
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: tool output
# ----------------------------------------------------------------------------------------------

COMMIT_MSGS = [
    "Rotate Stripe key reference to new 1Password item",
    "Remove leaked token from fixtures and add gitleaks pre-commit",
    "Read GITHUB_TOKEN from env instead of config file",
    "Bump lodash from 4.17.20 to 4.17.21",
    "Mask api keys in request logs",
    "Switch session tokens to HttpOnly cookies",
    "Add migration for hashed api keys",
    "Fix flaky test_signed_url_expiry",
    "chore(deps): update terraform aws provider",
    "Use secretKeyRef for DATABASE_URL in helm chart",
]


@la
def la_git_log(r):
    return "\n\n".join(
        f"commit {_sha(r)}\nAuthor: {_user(r).title()} <{_user(r)}@{_org(r)}.com>\nDate:   {r.choice(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])} "
        f"{r.choice(['Jan', 'Mar', 'Jun', 'Sep', 'Nov'])} {_int(r, 1, 28)} {_int(r, 8, 20)}:{_int(r, 10, 59)}:{_int(r, 10, 59)} 2024 +0000\n\n    {r.choice(COMMIT_MSGS)}"
        for _ in range(_int(r, 1, 3))
    )


@la
def la_git_oneline(r):
    return "$ git log --oneline -n 6\n" + "\n".join(f"{_hex(r, 7)} {r.choice(COMMIT_MSGS)}" for _ in range(6))


@la
def la_git_diff_code(r):
    f = f"{_path(r)}.py"
    return (
        f"diff --git a/{f} b/{f}\nindex {_hex(r, 7)}..{_hex(r, 7)} 100644\n--- a/{f}\n+++ b/{f}\n@@ -{_int(r, 5, 90)},7 +{_int(r, 5, 90)},7 @@\n"
        '-API_KEY = settings.get("api_key", "")\n+API_KEY = os.environ["PARTNER_API_KEY"]\n'
        ' if not API_KEY:\n     raise RuntimeError("PARTNER_API_KEY is not set")'
    )


@la
def la_git_blame(r):
    lines = [
        "token = os.getenv('GH_TOKEN')",
        "if token is None:",
        "    token = keyring.get_password('gh', user)",
        "headers = {'Authorization': f'token {token}'}",
    ]
    return "\n".join(
        f"{r.choice(['^', ''])}{_hex(r, 8)} ({_user(r).title():<8} {_date(r)} {_int(r, 10, 23)}:{_int(r, 10, 59)}:{_int(r, 10, 59)} +0000 {i + _int(r, 10, 80):>3}) {ln}"
        for i, ln in enumerate(lines)
    )


@la
def la_packed_refs(r):
    return "# pack-refs with: peeled fully-peeled sorted\n" + "\n".join(
        f"{_sha(r)} refs/{r.choice(['heads', 'tags', 'remotes/origin'])}/{r.choice(['main', 'release', 'v' + _ver(r), 'fix/' + _word(r)])}"
        for _ in range(_int(r, 3, 6))
    )


@la
def la_pip_install(r):
    p = r.choice(PY_PKGS)
    return (
        f"Collecting {p}=={_ver(r)}\n  Downloading {p}-{_ver(r)}-py3-none-any.whl ({_int(r, 10, 900)} kB)\n"
        f"  Using cached {r.choice(PY_PKGS)}-{_ver(r)}-cp311-cp311-manylinux_2_17_x86_64.whl\n"
        f"Installing collected packages: {p}\nSuccessfully installed {p}-{_ver(r)}"
    )


@la
def la_pip_hash_mismatch(r):
    p = r.choice(PY_PKGS)
    return (
        "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n"
        f"    {p}=={_ver(r)} from https://files.pythonhosted.org/packages/{_hex(r, 2)}/{_hex(r, 2)}/{_hex(r, 60)}/{p}-{_ver(r)}.tar.gz:\n"
        f"        Expected sha256 {_sha256(r)}\n             Got        {_sha256(r)}"
    )


@la
def la_npm_install(r):
    return (
        f"npm WARN deprecated {_pkg(r)}@{_ver(r)}: This package is no longer supported.\n\n"
        f"added {_int(r, 50, 1500)} packages, and audited {_int(r, 50, 1500)} packages in {_int(r, 2, 90)}s\n\n"
        f"{_int(r, 10, 300)} packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities"
    )


@la
def la_npm_e401(r):
    return (
        f"npm ERR! code E401\nnpm ERR! Unable to authenticate, your authentication token seems to be invalid.\n"
        f"npm ERR! To correct this please try logging in again with:\nnpm ERR!     npm login\n\n"
        f"npm ERR! A complete log of this run can be found in: /home/runner/.npm/_logs/{_date(r)}T{_int(r, 10, 23)}_{_int(r, 10, 59)}_{_int(r, 10, 59)}_{_int(r, 100, 999)}Z-debug-0.log"
    )


@la
def la_cargo_build(r):
    c = r.choice(RS_CRATES)
    return (
        f"   Compiling {c} v{_ver(r)}\n   Compiling {_svc(r)} v0.{_int(r, 1, 9)}.0 (/work/{_svc(r)})\n"
        f"    Finished `dev` profile [unoptimized + debuginfo] target(s) in {_int(r, 1, 90)}.{_int(r, 10, 99)}s\n"
        f"     Running `target/debug/deps/{_svc(r)}-{_hex(r, 16)}`"
    )


@la
def la_go_output(r):
    m = r.choice(GO_MODS)
    return (
        f"go: downloading {m} v0.0.0-{_date(r).replace('-', '')}{_int(r, 100000, 235959)}-{_hex(r, 12)}\n"
        f"--- FAIL: TestSignWebhook ({_int(r, 0, 3)}.{_int(r, 10, 99)}s)\n    webhook_test.go:{_int(r, 10, 200)}: signature mismatch: got {_hex(r, 64)}, want {_hex(r, 64)}\n"
        f"FAIL\tgithub.com/{_org(r)}/{_svc(r)}/internal/webhook\t{_int(r, 0, 3)}.{_int(r, 100, 999)}s"
    )


@la
def la_docker_build(r):
    return (
        f"#{_int(r, 5, 9)} [{_int(r, 2, 5)}/7] RUN --mount=type=secret,id=npm_token NPM_TOKEN=$(cat /run/secrets/npm_token) npm ci\n"
        f"#{_int(r, 5, 9)} DONE {_int(r, 1, 90)}.{_int(r, 0, 9)}s\n#12 exporting layers {_int(r, 1, 9)}.{_int(r, 0, 9)}s done\n"
        f"#12 writing image sha256:{_sha256(r)} done\n#12 naming to ghcr.io/{_org(r)}/{_svc(r)}:{_ver(r)} done"
    )


@la
def la_docker_ps(r):
    rows = [
        f'{_hex(r, 12)}   {r.choice(["postgres:16", "redis:7-alpine", f"{_org(r)}/{_svc(r)}:{_ver(r)}", "nginx:1.27"])}   "docker-entrypoint.s…"   {_int(r, 2, 59)} minutes ago   Up {_int(r, 2, 59)} minutes   0.0.0.0:{_int(r, 3000, 9000)}->{_int(r, 80, 9000)}/tcp   {_svc(r)}-{_int(r, 1, 3)}'
        for _ in range(_int(r, 2, 4))
    ]
    return "CONTAINER ID   IMAGE   COMMAND   CREATED   STATUS   PORTS   NAMES\n" + "\n".join(rows)


@la
def la_docker_inspect_clean(r):
    d = {
        "Id": _sha256(r),
        "Created": _ts(r),
        "Image": "sha256:" + _sha256(r),
        "Config": {
            "Env": [
                "PATH=/usr/local/bin:/usr/bin:/bin",
                "STRIPE_SECRET_KEY_FILE=/run/secrets/stripe_key",
                f"NODE_VERSION={_ver(r)}",
            ],
            "Labels": {"org.opencontainers.image.revision": _sha(r)},
        },
    }
    return f"$ docker inspect {_svc(r)}\n" + json.dumps([d], indent=2)


@la
def la_docker_pull(r):
    lines = [f"{_hex(r, 12)}: Pull complete" for _ in range(_int(r, 2, 5))]
    img = r.choice(["postgres:16", "node:20-alpine", "python:3.12-slim", "golang:1.22"])
    return (
        f"$ docker pull {img}\n"
        + "\n".join(lines)
        + f"\nDigest: sha256:{_sha256(r)}\nStatus: Downloaded newer image for {img}"
    )


@la
def la_kubectl_pods(r):
    rows = [
        f"{_svc(r)}-{_hex(r, 10)[: r.choice([9, 10])]}-{_rs(r, LOWNUM, 5)}   {_int(r, 1, 2)}/2     Running   {_int(r, 0, 4)}          {_int(r, 1, 59)}m"
        for _ in range(_int(r, 3, 5))
    ]
    return "$ kubectl get pods -n " + r.choice(ENVS) + "\nNAME   READY   STATUS    RESTARTS   AGE\n" + "\n".join(rows)


@la
def la_kubectl_describe(r):
    s = _svc(r)
    return (
        f"Containers:\n  {s}:\n    Container ID:   containerd://{_sha256(r)}\n    Image:          ghcr.io/{_org(r)}/{s}:{_ver(r)}\n"
        f"    Image ID:       ghcr.io/{_org(r)}/{s}@sha256:{_sha256(r)}\n    Environment:\n"
        f"      DATABASE_URL:       <set to the key 'url' in secret '{s}-db'>   Optional: false\n"
        f"      STRIPE_SECRET_KEY:  <set to the key 'stripe-key' in secret '{s}-payments'>   Optional: false\n"
        f"    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-{_rs(r, LOWNUM, 5)} (ro)"
    )


@la
def la_kubectl_secrets(r):
    rows = [
        f"{_svc(r)}-{r.choice(['db', 'tls', 'api-keys', 'registry'])}   {r.choice(['Opaque', 'kubernetes.io/tls', 'kubernetes.io/dockerconfigjson'])}   {_int(r, 1, 6)}      {_int(r, 1, 300)}d"
        for _ in range(_int(r, 2, 5))
    ]
    return "$ kubectl get secrets\nNAME   TYPE   DATA   AGE\n" + "\n".join(rows)


@la
def la_kubectl_events(r):
    s = _svc(r)
    return (
        f"LAST SEEN   TYPE      REASON              OBJECT                                MESSAGE\n"
        f"{_int(r, 1, 59)}m         Normal    ScalingReplicaSet   deployment/{s}                  Scaled up replica set {s}-{_hex(r, 10)} to {_int(r, 1, 5)}\n"
        f'{_int(r, 1, 59)}m         Warning   Failed              pod/{s}-{_hex(r, 10)}-{_rs(r, LOWNUM, 5)}   Error: secret "{s}-api-keys" not found'
    )


@la
def la_terraform_plan(r):
    s = _svc(r)
    return (
        f'  # aws_db_instance.{s} will be updated in-place\n  ~ resource "aws_db_instance" "{s}" {{\n'
        f'        id                  = "db-{_rs(r, UPNUM, 26)}"\n      ~ password            = (sensitive value)\n'
        f'        arn                 = "arn:aws:rds:{r.choice(REGIONS)}:{_account(r)}:db:{s}-{r.choice(ENVS)}"\n'
        f"        # (42 unchanged attributes hidden)\n    }}\n\nPlan: 0 to add, 1 to change, 0 to destroy."
    )


@la
def la_terraform_output(r):
    return (
        f'$ terraform output\ncluster_endpoint = "https://{_hex(r, 32).upper()}.gr7.{r.choice(REGIONS)}.eks.amazonaws.com"\n'
        f'db_password = <sensitive>\nbucket_arn = "arn:aws:s3:::{_org(r)}-{_word(r)}"\nvpc_id = "vpc-{_hex(r, 17)}"'
    )


@la
def la_aws_sts(r):
    acct = _account(r)
    if r.random() < 0.5:
        d = {
            "UserId": "AIDA" + _rs(r, UPNUM, 17),
            "Account": acct,
            "Arn": f"arn:aws:iam::{acct}:user/{_user(r)}",
        }
    else:
        d = {
            "UserId": "AROA" + _rs(r, UPNUM, 17) + f":botocore-session-{_int(r, 10**9, 10**10)}",
            "Account": acct,
            "Arn": f"arn:aws:sts::{acct}:assumed-role/{_svc(r)}-deploy/botocore-session-{_int(r, 10**9, 10**10)}",
        }
    return "$ aws sts get-caller-identity\n" + json.dumps(d, indent=4)


@la
def la_aws_ec2(r):
    d = {
        "InstanceId": f"i-0{_hex(r, 16)}",
        "ImageId": f"ami-0{_hex(r, 16)}",
        "InstanceType": r.choice(["t3.medium", "m6i.large", "c7g.xlarge"]),
        "SubnetId": f"subnet-0{_hex(r, 16)}",
        "VpcId": f"vpc-0{_hex(r, 16)}",
        "SecurityGroups": [{"GroupName": f"{_svc(r)}-sg", "GroupId": f"sg-0{_hex(r, 16)}"}],
        "IamInstanceProfile": {
            "Arn": f"arn:aws:iam::{_account(r)}:instance-profile/{_svc(r)}",
            "Id": "AIPA" + _rs(r, UPNUM, 17),
        },
    }
    return "$ aws ec2 describe-instances --query 'Reservations[].Instances[]'\n" + json.dumps([d], indent=2)


@la
def la_aws_s3_objects(r):
    items = [
        {
            "Key": f"{_word(r)}/{_date(r)}/{_uuid(r)}.json.gz",
            "ETag": f'"{_hex(r, 32)}"',
            "Size": _int(r, 100, 10**7),
            "StorageClass": "STANDARD",
        }
        for _ in range(_int(r, 1, 3))
    ]
    return json.dumps({"Contents": items, "RequestCharged": None}, indent=2)


@la
def la_aws_lambda(r):
    d = {
        "FunctionName": f"{_svc(r)}-{r.choice(ENVS)}",
        "FunctionArn": f"arn:aws:lambda:{r.choice(REGIONS)}:{_account(r)}:function:{_svc(r)}",
        "CodeSha256": _b64(r, 32),
        "RevisionId": _uuid(r),
        "Environment": {
            "Variables": {
                "SECRET_ARN": f"arn:aws:secretsmanager:{r.choice(REGIONS)}:{_account(r)}:secret:{_svc(r)}/api-key-{_rs(r, ALNUM, 6)}"
            }
        },
    }
    return json.dumps(d, indent=2)


@la
def la_aws_secret_describe(r):
    d = {
        "ARN": f"arn:aws:secretsmanager:{r.choice(REGIONS)}:{_account(r)}:secret:{r.choice(ENVS)}/{_svc(r)}/stripe-{_rs(r, ALNUM, 6)}",
        "Name": f"{r.choice(ENVS)}/{_svc(r)}/stripe",
        "RotationEnabled": r.random() < 0.5,
        "LastChangedDate": _ts(r),
        "VersionIdsToStages": {_uuid(r): ["AWSCURRENT"], _uuid(r): ["AWSPREVIOUS"]},
    }
    return "$ aws secretsmanager describe-secret --secret-id ...\n" + json.dumps(d, indent=4)


@la
def la_aws_headers(r):
    return (
        f"HTTP/1.1 403 Forbidden\nx-amz-request-id: {_rs(r, UPNUM, 16)}\nx-amz-id-2: {_b64(r, 57)}\n"
        f"Content-Type: application/xml\n\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>{_rs(r, UPNUM, 16)}</RequestId></Error>"
    )


@la
def la_gcloud_keys(r):
    rows = [
        f"{_hex(r, 40)}  {_date(r)}T{_int(r, 10, 23)}:{_int(r, 10, 59)}:00Z  9999-12-31T23:59:59Z  {r.choice(['', 'True'])}"
        for _ in range(_int(r, 1, 3))
    ]
    return (
        f"$ gcloud iam service-accounts keys list --iam-account={_svc(r)}@{_org(r)}-prod.iam.gserviceaccount.com\nKEY_ID  CREATED_AT  EXPIRES_AT  DISABLED\n"
        + "\n".join(rows)
    )


@la
def la_gcloud_instances(r):
    rows = [
        f"{_svc(r)}-{_rs(r, LOWNUM, 4)}  {r.choice(GREGIONS)}-{r.choice('abc')}  e2-standard-{r.choice([2, 4, 8])}  {_ip(r)}  34.{_int(r, 0, 255)}.{_int(r, 0, 255)}.{_int(r, 1, 254)}  RUNNING"
        for _ in range(_int(r, 2, 4))
    ]
    return (
        "NAME  ZONE  MACHINE_TYPE  INTERNAL_IP  EXTERNAL_IP  STATUS\n"
        + "\n".join(rows)
        + f"\noperation: operation-{_int(r, 10**12, 10**13)}-{_hex(r, 13)}-{_hex(r, 8)}-{_hex(r, 8)}"
    )


@la
def la_az_account(r):
    d = {
        "environmentName": "AzureCloud",
        "homeTenantId": _uuid(r),
        "id": _uuid(r),
        "isDefault": True,
        "name": f"{_org(r)}-{r.choice(ENVS)}",
        "state": "Enabled",
        "tenantId": _uuid(r),
        "user": {"name": f"{_user(r)}@{_org(r)}.onmicrosoft.com", "type": "user"},
    }
    return "$ az account show\n" + json.dumps(d, indent=2)


@la
def la_az_keyvault_list(r):
    kv = f"{_org(r)}-kv-{r.choice(ENVS)}"
    items = [
        {
            "attributes": {"enabled": True, "updated": _ts(r)},
            "id": f"https://{kv}.vault.azure.net/secrets/{_svc(r)}-{r.choice(['db-password', 'api-key', 'client-secret'])}",
            "managed": None,
        }
        for _ in range(_int(r, 1, 3))
    ]
    return f"$ az keyvault secret list --vault-name {kv}\n" + json.dumps(items, indent=2)


@la
def la_azure_resource_ids(r):
    return (
        f"/subscriptions/{_uuid(r)}/resourceGroups/rg-{_svc(r)}-{r.choice(ENVS)}/providers/Microsoft.Web/sites/{_svc(r)}-app\n"
        f"principalId: {_uuid(r)}\nclientId: {_uuid(r)}  (managed identity; no secret involved)"
    )


@la
def la_pytest_failure(r):
    return (
        f"___________________________ test_hash_api_key ___________________________\n\n    def test_hash_api_key():\n"
        f">       assert hash_key(\"test-key\") == \"{_sha256(r)}\"\nE       AssertionError: assert '{_sha256(r)}' == '{_sha256(r)}'\n\n"
        f"tests/test_keys.py:{_int(r, 10, 99)}: AssertionError\n=========== 1 failed, {_int(r, 20, 400)} passed in {_int(r, 1, 60)}.{_int(r, 10, 99)}s ==========="
    )


@la
def la_jest_failure(r):
    return (
        f" FAIL  src/components/__tests__/ApiKeyCard.test.tsx\n  ● ApiKeyCard › shows only the prefix\n\n"
        f"    expect(received).toHaveTextContent(expected)\n\n    Expected element to have text content:\n      key_{_rs(r, LOWNUM, 4)}…\n"
        f"    Received:\n      key_{_rs(r, LOWNUM, 4)}…\n\n      at Object.<anonymous> (src/components/__tests__/ApiKeyCard.test.tsx:{_int(r, 10, 99)}:{_int(r, 5, 40)})"
    )


@la
def la_ruff_bandit(r):
    f = f"{_path(r)}.py"
    return (
        f'{f}:{_int(r, 5, 200)}:{_int(r, 1, 30)}: S105 Possible hardcoded password assigned to: "password_field"\n'
        f'{f}:{_int(r, 5, 200)}:{_int(r, 1, 30)}: S106 Possible hardcoded password assigned to argument: "token_type"\n'
        f'Found 2 errors.\n# both false positives: password_field = "password" is a form field name, token_type = "bearer"'
    )


@la
def la_eslint(r):
    f = f"src/{_word(r)}/{_pascal(_word(r))}.tsx"
    return (
        f"{f}\n  {_int(r, 1, 90)}:{_int(r, 1, 40)}  warning  'apiKey' is assigned a value but never used  @typescript-eslint/no-unused-vars\n"
        f"  {_int(r, 1, 90)}:{_int(r, 1, 40)}  error    Unexpected any. Specify a different type  @typescript-eslint/no-explicit-any\n\n✖ 2 problems (1 error, 1 warning)"
    )


@la
def la_coverage(r):
    rows = [
        f"{_path(r)}.py{' ' * 6}{_int(r, 20, 400):>5}{_int(r, 0, 60):>7}{_int(r, 40, 100):>6}%"
        for _ in range(_int(r, 3, 6))
    ]
    return (
        "Name                          Stmts   Miss  Cover\n"
        + "\n".join(rows)
        + f"\nTOTAL{' ' * 24}{_int(r, 500, 9000)}{_int(r, 0, 900):>7}{_int(r, 60, 99):>6}%"
    )


@la
def la_gitleaks_report(r):
    d = {
        "Description": r.choice(["Stripe Access Token", "GitHub Personal Access Token", "Generic API Key"]),
        "File": f"{_path(r)}.ts",
        "StartLine": _int(r, 1, 300),
        "Match": "REDACTED",
        "Secret": "REDACTED",
        "Commit": _sha(r),
        "Fingerprint": f"{_sha(r)}:{_path(r)}.ts:{r.choice(['stripe-access-token', 'github-pat', 'generic-api-key'])}:{_int(r, 1, 300)}",
    }
    return "gitleaks detect --redact -v\n" + json.dumps(d, indent=1)


@la
def la_gha_masked(r):
    return (
        f"Run ./scripts/deploy.sh {r.choice(ENVS)}\n  env:\n    AWS_REGION: {r.choice(REGIONS)}\n    AWS_ACCESS_KEY_ID: ***\n"
        f"    AWS_SECRET_ACCESS_KEY: ***\n    SENTRY_AUTH_TOKEN: ***\nUploading {_int(r, 2, 40)} source maps for release {_sha(r)}"
    )


@la
def la_http_trace(r):
    return (
        f"{_ts(r)} INFO http method=POST path=/v1/{_word(r)}s status={r.choice([200, 201, 401, 429])} dur={_int(r, 2, 900)}ms "
        f"request_id=req_{_rs(r, ALNUM, 24)} traceparent=00-{_hex(r, 32)}-{_hex(r, 16)}-01 authorization=[REDACTED]"
    )


@la
def la_sentry_event(r):
    d = {
        "event_id": _hex(r, 32),
        "level": "error",
        "release": f"{_svc(r)}@{_sha(r)}",
        "contexts": {"trace": {"trace_id": _hex(r, 32), "span_id": _hex(r, 16)}},
        "request": {"headers": {"Authorization": "[Filtered]", "X-Request-Id": _uuid(r)}},
        "exception": {"values": [{"type": "TokenExpiredError", "value": "jwt expired"}]},
    }
    return json.dumps(d, indent=2)


@la
def la_java_stack(r):
    c = f"com.{_org(r).replace('-', '')}.{_svc(r)}"
    return (
        f"java.lang.IllegalStateException: Missing property 'payments.stripe.secret-key' (set STRIPE_SECRET_KEY)\n"
        f"\tat {c}.config.PaymentsConfig.<init>(PaymentsConfig.java:{_int(r, 20, 200)})\n"
        f"\tat {c}.App$$SpringCGLIB$$0@{_hex(r, 8)}.run(<generated>)\n\tat java.base/java.lang.Thread.run(Thread.java:1583)"
    )


@la
def la_sha256sums(r):
    return "\n".join(
        f"{_sha256(r)}  {_svc(r)}_{_ver(r)}_{r.choice(['linux', 'darwin', 'windows'])}_{r.choice(['amd64', 'arm64'])}.tar.gz"
        for _ in range(_int(r, 2, 5))
    )


@la
def la_compose_digest(r):
    return (
        f"services:\n  db:\n    image: postgres:16@sha256:{_sha256(r)}\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/pg_password\n"
        f"    secrets: [pg_password]\nsecrets:\n  pg_password:\n    file: ./secrets/pg_password.txt"
    )


@la
def la_k8s_deploy_digest(r):
    s = _svc(r)
    return (
        f"spec:\n  template:\n    metadata:\n      annotations:\n        checksum/config: {_sha256(r)}\n    spec:\n      containers:\n"
        f"        - name: {s}\n          image: ghcr.io/{_org(r)}/{s}@sha256:{_sha256(r)}\n          envFrom:\n            - secretRef:\n                name: {s}-env"
    )


@la
def la_cfn_outputs(r):
    outs = [
        {
            "OutputKey": "ApiUrl",
            "OutputValue": f"https://{_rs(r, LOWNUM, 10)}.execute-api.{r.choice(REGIONS)}.amazonaws.com/prod",
        },
        {"OutputKey": "UserPoolClientId", "OutputValue": _rs(r, LOWNUM, 26)},
        {"OutputKey": "TableArn", "OutputValue": f"arn:aws:dynamodb:{r.choice(REGIONS)}:{_account(r)}:table/{_svc(r)}"},
    ]
    return json.dumps(
        {
            "Stacks": [
                {
                    "StackId": f"arn:aws:cloudformation:{r.choice(REGIONS)}:{_account(r)}:stack/{_svc(r)}/{_uuid(r)}",
                    "Outputs": outs,
                }
            ]
        },
        indent=2,
    )


@la
def la_snapshot_ids(r):
    return (
        f"Created EBS snapshot snap-0{_hex(r, 16)} of vol-0{_hex(r, 16)}; AMI ami-0{_hex(r, 16)} registered. "
        f"RDS snapshot {_svc(r)}-pre-migration-{_date(r)} is {r.choice(['available', 'creating'])}."
    )


@la
def la_gcp_resources(r):
    return (
        f"projects/{_org(r)}-{r.choice(ENVS)}/locations/{r.choice(GREGIONS)}/services/{_svc(r)}/revisions/{_svc(r)}-{_int(r, 1, 200):05d}-{_rs(r, LOWER, 3)}\n"
        f"Secret Manager: projects/{_int(r, 10**11, 10**12)}/secrets/{_svc(r)}-api-key/versions/latest"
    )


@la
def la_ls_hashed(r):
    return "$ ls dist/assets\n" + "  ".join(
        f"{_word(r)}-{_rs(r, B64URL[:-2], 8)}.{r.choice(['js', 'css', 'woff2', 'svg'])}" for _ in range(_int(r, 4, 8))
    )


@la
def la_hexdump(r):
    lines = []
    for i in range(_int(r, 2, 4)):
        b = r.randbytes(16)
        hx = " ".join(b[j : j + 2].hex() for j in range(0, 16, 2))
        asc = "".join(chr(x) if 32 <= x < 127 else "." for x in b)
        lines.append(f"{i * 16:08x}: {hx}  {asc}")
    return "$ xxd -l 64 data/sample.bin\n" + "\n".join(lines)


@la
def la_build_summary(r):
    return (
        f"Build #{_int(r, 1000, 99999)} ({r.choice(['main', 'release/' + _ver(r)])} @ {_hex(r, 7)}) succeeded in {_int(r, 1, 30)}m{_int(r, 0, 59)}s. "
        f"Artifacts: {_svc(r)}-{_ver(r)}+build.{_int(r, 100, 9999)}.tar.gz, cache key node-{_hex(r, 64)}"
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: fixtures, documented test values, hashes
# ----------------------------------------------------------------------------------------------


@la
def la_uuid_fixture(r):
    rows = [
        {
            "id": _uuid(r),
            "email": f"{_user(r)}{_int(r, 1, 99)}@example.com",
            "org_id": _uuid(r),
            "role": r.choice(["admin", "member"]),
        }
        for _ in range(_int(r, 2, 3))
    ]
    return "tests/fixtures/users.json\n" + json.dumps(rows, indent=2)


@la
def la_ulid_nanoid(r):
    crock = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    return (
        f"seed rows: order 01{_rs(r, crock, 24)} (ULID), invite {_rs(r, B64URL, 21)} (nanoid), "
        f"session row c{_rs(r, LOWNUM, 23)} (cuid2), ksuid 2{_rs(r, ALNUM, 26)}"
    )


@la
def la_fake_creds_fixture(r):
    d = {
        "api_key": r.choice(["test-api-key", "fake-key", "dummy", "xxx", "not-a-real-key"]),
        "password": r.choice(["fake-password", "password", "test", "hunter2-but-fake", "changeme"]),
        "webhook_secret": r.choice(["whs" + "ec_test", "test-secret", "s3cr3t-for-tests"]),
        "base_url": f"http://localhost:{_int(r, 3000, 9999)}",
        "seed": _int(r, 1, 10**6),
    }
    return f"tests/fixtures/{_svc(r)}_settings.json (all values fake):\n" + json.dumps(d, indent=2)


@la
def la_mock_server(r):
    return (
        f"// src/mocks/handlers.ts\nhttp.get('/api/{_word(r)}s', ({{ request }}) => {{\n"
        "  if (request.headers.get('Authorization') !== 'Bearer test-token') {\n    return new HttpResponse(null, { status: 401 });\n  }\n"
        f"  return HttpResponse.json([{{ id: '{_uuid(r)}', name: '{_word(r)}' }}]);\n}}),"
    )


@la
def la_stripe_test_cards(r):
    return (
        f"Stripe test mode checklist for {_svc(r)}:\n- 4242 4242 4242 4242 succeeds\n- 4000 0000 0000 9995 declines (insufficient funds)\n"
        f"- use tok_visa / pm_card_visa in unit tests\n- any future expiry, CVC {_int(r, 100, 999)}"
    )


@la
def la_stripe_doc_test_key(r):
    k = "sk" + "_test_" + "4eC39Hq" + "LyjWDarjtT1zdp7dc"
    p = "pk" + "_test_" + "TYooMQa" + "uvdEDq54NiTphI7jx"
    return r.choice(
        [
            f'From the Stripe docs sample (their public demo key, not ours): stripe.api_key = "{k}"',
            f"// docs example copied into the README for {_svc(r)}\nconst stripe = Stripe('{p}');",
            f"Replaced the docs demo key {k} in examples/ with a STRIPE_SECRET_KEY env lookup (issue #{_int(r, 10, 999)}).",
        ]
    )


@la
def la_aws_doc_example(r):
    akid = "AK" + "IA" + "IOSFODNN7" + "EXAMPLE"
    sk = "wJalrXUtnFEMI/K7MDENG" + "/bPxRfiCY" + "EXAMPLEKEY"
    return (
        r.choice(
            [
                f"# docs/aws-setup.md (values are the AWS documentation examples)\n[default]\naws_access_key_id = {akid}\naws_secret_access_key = {sk}",
                f"moto test: boto3.client('s3', aws_access_key_id='{akid}', aws_secret_access_key='{sk}', region_name='{r.choice(REGIONS)}')",
                f"localstack compose: AWS_ACCESS_KEY_ID={akid} (doc example) ; endpoint http://localhost:4566",
            ]
        )
        + f"\n# {_svc(r)} {r.choice(ENVS)} tests"
    )


@la
def la_jwt_io_example(r):
    h = _b64url_s(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")))
    p = _b64url_s(json.dumps({"sub": "1234567890", "name": "John Doe", "iat": 1516239022}, separators=(",", ":")))
    sig = "SflKxwRJSMeKKF2QT4fw" + "pMeJf36POk6yJV_adQssw5c"
    tok = f"{h}.{p}.{sig}"
    return (
        r.choice(
            [
                f"test_decode uses the jwt.io sample token (secret 'your-256-bit-secret'):\nSAMPLE = \"{tok}\"",
                f"README: paste a token into jwt.io, e.g. the default {tok}",
                f"it('rejects expired', () => expect(verify('{tok}', {{ maxAge: '1s' }})).toThrow())  // jwt.io demo token",
            ]
        )
        + f"\n(seen in {_path(r)}.test.ts, commit {_hex(r, 7)})"
    )


@la
def la_rfc_vectors(r):
    return (
        r.choice(
            [
                "RFC 4231 test case 1: Key = 0x" + "0b" * 20 + ', Data = "Hi There",\n'
                "HMAC-SHA-256 = b0344c61d8db38535ca8afceaf0bf12b" + "881dc200c9833da726e9376c2e32cff7",
                "RFC 6238 TOTP test seed (ASCII) 12345678901234567890 -> T=59 -> 94287082 (SHA1)",
                'RFC 7515 A.1 example HMAC key (JWK "k"): AyM1SysPpbyDfgZld3umj1qzKOb'
                + "wVMkoqQ-EstJQLr_T-1qS0gZH75aK"
                + "tMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow",
            ]
        )
        + f"\n(used in tests/test_crypto_{_word(r)}.py)"
    )


@la
def la_password_hashes(r):
    bc = "$2b$12$" + _rs(r, "./" + ALNUM, 53)
    ar = f"$argon2id$v=19$m=65536,t=3,p=4${_b64(r, 16).rstrip('=')}${_b64(r, 32).rstrip('=')}"
    dj = f"pbkdf2_sha256${r.choice([600000, 720000, 870000])}${_rs(r, ALNUM, 22)}${_b64(r, 32)}"
    sc = "$6$" + _rs(r, "./" + ALNUM, 16) + "$" + _rs(r, "./" + ALNUM, 86)
    h = r.choice([bc, ar, dj, sc])
    return r.choice(
        [
            f"INSERT INTO users (id, email, password_hash) VALUES ('{_uuid(r)}', '{_user(r)}@example.com', '{h}');",
            f"seed user {_user(r)} -> password_hash: {h}",
            f"Note: we store only the hash ({h[:12]}...) -- full value in the seed file is {h}",
        ]
    )


@la
def la_htpasswd(r):
    return f"# .htpasswd for the staging basic-auth gate (hashes only)\n{_user(r)}:$apr1${_rs(r, './' + ALNUM, 8)}${_rs(r, './' + ALNUM, 22)}\nci:{{SHA}}{_b64(r, 20)}"


@la
def la_env_test(r):
    return (
        f"# .env.test -- committed on purpose, values are fake\nDATABASE_URL=postgres://postgres:postgres@localhost:5432/{_svc(r)}_test\n"
        "STRIPE_SECRET_KEY=sk_test_dummy\nOPENAI_API_KEY=test\nJWT_SECRET=test-secret\nREDIS_URL=redis://localhost:6379/1"
    )


@la
def la_factory(r):
    return r.choice(
        [
            f'FactoryBot.define do\n  factory :user do\n    email {{ Faker::Internet.email }}\n    password {{ "password" }}\n    api_token {{ SecureRandom.hex({_int(r, 16, 32)}) }}\n  end\nend',
            f'class UserFactory(factory.Factory):\n    email = factory.Faker("email")\n    password = factory.PostGenerationMethodCall("set_password", "test-pass-{_int(r, 1, 99)}")',
        ]
    )


@la
def la_vcr_cassette(r):
    return (
        f"interactions:\n- request:\n    method: POST\n    uri: https://api.{r.choice(['openai', 'stripe', 'github'])}.com/v1/{_word(r)}s\n"
        f"    headers:\n      Authorization:\n      - <REDACTED>\n  response:\n    status: {{code: 200, message: OK}}\n"
        f"    headers:\n      x-request-id:\n      - req_{_hex(r, 32)}"
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: public keys, certificates, publishable keys
# ----------------------------------------------------------------------------------------------


@la
def la_ssh_pubkey(r):
    kt = r.choice(["ed25519", "rsa"])
    if kt == "ed25519":
        body = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32)).decode()
        return f"# authorized_keys on the deploy box\nssh-ed25519 {body} {_user(r)}@{_word(r)}-laptop"
    body = base64.b64encode(
        b"\x00\x00\x00\x07ssh-rsa\x00\x00\x00\x03\x01\x00\x01\x00\x00\x01\x81\x00" + r.randbytes(384)
    ).decode()
    return f"Deploy key (public half) added to the repo settings:\nssh-rsa {body} ci@{_org(r)}"


@la
def la_known_hosts(r):
    body = base64.b64encode(
        b"\x00\x00\x00\x13ecdsa-sha2-nistp256\x00\x00\x00\x08nistp256\x00\x00\x00\x41\x04" + r.randbytes(64)
    ).decode()
    return (
        f"|1|{_b64(r, 20)}|{_b64(r, 20)} ecdsa-sha2-nistp256 {body}\ngithub.com ssh-ed25519 "
        + base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32)).decode()
    )


@la
def la_cert_pem(r):
    body = b"\x30\x82\x03" + bytes([r.randint(0, 255)]) + b"\x30\x82\x02" + r.randbytes(_int(r, 700, 900))
    lead = r.choice(
        ["ca.crt from the cluster:", "Pinned the intermediate cert for the webhook client:", "tls.crt (public):"]
    )
    return f"{lead}\n" + _pem("CERTIFICATE", base64.b64encode(body).decode())


@la
def la_public_key_pem(r):
    body = (
        b"\x30\x82\x01\x22\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x03\x82\x01\x0f\x00"
        + r.randbytes(270)
    )
    return f"JWT verification key ({_svc(r)} only needs the public half):\n" + _pem(
        "PUBLIC KEY", base64.b64encode(body).decode()
    )


@la
def la_pgp_public(r):
    body = base64.b64encode(b"\x99\x01\x0d\x04" + r.randbytes(_int(r, 200, 300))).decode()
    lab = "PGP PUBLIC KEY BLOCK"
    return f"{DASH}BEGIN {lab}{DASH}\n\n{_wrap(body)}\n={_b64(r, 3)}\n{DASH}END {lab}{DASH}"


@la
def la_age_recipient(r):
    return f"# .sops.yaml\ncreation_rules:\n  - path_regex: secrets/{r.choice(ENVS)}/.*\\.yaml$\n    age: age1{_rs(r, BECH32, 58)}"


@la
def la_fingerprints(r):
    return (
        f"$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{_b64(r, 32).rstrip('=')} {_user(r)}@{_word(r)} (ED25519)\n"
        f"$ git config user.signingkey\n{_hex(r, 40).upper()}"
    )


@la
def la_jwks(r):
    k = {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": _rs(r, B64URL, 22), "n": _b64url(r, 256), "e": "AQAB"}
    return f"GET https://{_org(r)}.auth0.com/.well-known/jwks.json\n" + json.dumps({"keys": [k]}, indent=2)


@la
def la_stripe_pk(r):
    pk = "pk" + "_live_" + "51" + _rs(r, ALNUM, 97)
    return r.choice(
        [
            f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={pk}\n# publishable key -- ships to the browser by design",
            f"const stripe = await loadStripe('{pk}');  // publishable, safe client-side",
        ]
    )


@la
def la_mapbox_pk(r):
    pk = (
        "p"
        + "k."
        + _b64url_s(json.dumps({"u": _user(r) + _word(r), "a": "c" + _rs(r, LOWNUM, 24)}))
        + "."
        + _rs(r, B64URL, 22)
    )
    return f"mapboxgl.accessToken = '{pk}'; // public token, URL-restricted to *.{_org(r)}.com"


@la
def la_posthog(r):
    key = "ph" + "c_" + _rs(r, ALNUM, 43)
    return f"posthog.init('{key}', {{ api_host: 'https://eu.i.posthog.com', person_profiles: 'identified_only' }})  // project API key is public"


@la
def la_sentry_dsn(r):
    dsn = f"https://{_hex(r, 32)}@o{_int(r, 10**5, 10**7)}.ingest.{r.choice(['', 'us.', 'de.'])}sentry.io/{_int(r, 10**6, 10**7)}"
    return r.choice(
        [
            f'Sentry.init({{ dsn: "{dsn}", tracesSampleRate: 0.1 }});',
            f"NEXT_PUBLIC_SENTRY_DSN={dsn}\n# DSNs are public by design (client-side)",
        ]
    )


@la
def la_algolia_search(r):
    return f"const client = algoliasearch('{_rs(r, UPNUM, 10)}', '{_hex(r, 32)}'); // search-only API key, safe in the frontend"


@la
def la_firebase_web(r):
    proj = f"{_org(r)}-{_word(r)}"
    return (
        f"// src/firebase.ts -- web config is public; access is enforced by security rules\nconst firebaseConfig = {{\n"
        f'  apiKey: "{"AI" + "za" + "Sy" + _rs(r, B64URL, 33)}",\n  authDomain: "{proj}.firebaseapp.com",\n  projectId: "{proj}",\n'
        f'  messagingSenderId: "{_rs(r, DIGITS, 12)}",\n  appId: "1:{_rs(r, DIGITS, 12)}:web:{_hex(r, 22)}",\n}};'
    )


@la
def la_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{_rs(r, B64URL, 38)}"></div>\n<!-- site key (public); the secret key lives in RECAPTCHA_SECRET -->'


@la
def la_supabase_anon(r):
    iat = _int(r, 1.65e9, 1.73e9)
    tok = _jwt(
        {"alg": "HS256", "typ": "JWT"},
        {"iss": "supabase", "ref": _rs(r, LOWER, 20), "role": "anon", "iat": iat, "exp": iat + 315360000},
        _rs(r, B64URL, 43),
    )
    return f"NEXT_PUBLIC_SUPABASE_URL=https://{_rs(r, LOWER, 20)}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={tok}\n# anon key is meant for the browser; RLS is on"


@la
def la_ld_client_id(r):
    return f"const ldClient = LDClient.initialize('{_hex(r, 24)}', {{ kind: 'user', key: userId }}); // client-side ID, not the SDK key"


@la
def la_oauth_client_ids(r):
    return r.choice(
        [
            f"GOOGLE_CLIENT_ID={_rs(r, DIGITS, 12)}-{_rs(r, LOWNUM, 32)}.apps.googleusercontent.com",
            f"GitHub App: app_id={_int(r, 10**5, 10**6)}, client_id=Iv1.{_hex(r, 16)} (secret + private key are in Vault)",
            f"GitHub OAuth app client id: Ov23li{_rs(r, ALNUM, 14)} -- public, shown on the consent screen",
        ]
    )


@la
def la_azure_app_config(r):
    d = {
        "AzureAd": {
            "Instance": "https://login.microsoftonline.com/",
            "TenantId": _uuid(r),
            "ClientId": _uuid(r),
            "CallbackPath": "/signin-oidc",
            "ClientSecret": "<from Key Vault>",
        }
    }
    return "appsettings.json\n" + json.dumps(d, indent=2)


# ----------------------------------------------------------------------------------------------
# look-alikes: placeholders, references, encrypted and masked values
# ----------------------------------------------------------------------------------------------


@la
def la_env_example(r):
    ph = r.choice(["changeme", "<your-key-here>", "", "xxxxxxxx", "REPLACE_ME", "your_api_key", "sk-...", "TODO"])
    return (
        f"# .env.example -- copy to .env and fill in\nDATABASE_URL=postgres://USER:PASSWORD@localhost:5432/{_svc(r)}\n"
        f"STRIPE_SECRET_KEY={ph}\nGITHUB_TOKEN=\nOPENAI_API_KEY=<get one at platform.openai.com>\nPORT={_int(r, 3000, 9000)}"
    )


@la
def la_k8s_refs(r):
    s = _svc(r)
    return (
        f"        env:\n          - name: STRIPE_SECRET_KEY\n            valueFrom:\n              secretKeyRef:\n                name: {s}-payments\n"
        f"                key: stripe-secret-key\n          - name: DB_PASSWORD\n            valueFrom:\n              secretKeyRef: {{name: {s}-db, key: password}}"
    )


@la
def la_external_secret(r):
    s = _svc(r)
    return (
        f"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {s}\nspec:\n  refreshInterval: 1h\n"
        f"  secretStoreRef: {{name: aws-sm, kind: ClusterSecretStore}}\n  data:\n    - secretKey: OPENAI_API_KEY\n"
        f"      remoteRef: {{key: {r.choice(ENVS)}/{s}/openai, property: api_key}}"
    )


@la
def la_gha_refs(r):
    return (
        f"      - name: Publish\n        run: npm publish --provenance\n        env:\n          NODE_AUTH_TOKEN: ${{{{ secrets.NPM_TOKEN }}}}\n"
        f"      - uses: aws-actions/configure-aws-credentials@v4\n        with:\n          role-to-assume: arn:aws:iam::{_account(r)}:role/gha-{_svc(r)}\n"
        f"          aws-region: {r.choice(REGIONS)}"
    )


@la
def la_op_refs(r):
    return r.choice(
        [
            f"Rotated the Stripe key; new one is in 1Password (Engineering / Stripe {r.choice(ENVS)}). `op read op://Engineering/stripe-{r.choice(ENVS)}/credential` works.",
            f"# .env.tpl for `op inject`\nSTRIPE_SECRET_KEY={{{{ op://Engineering/Stripe/credential }}}}\nGITHUB_TOKEN={{{{ op://Private/gh-{_user(r)}/token }}}}",
            f"$ op run --env-file=.env.tpl -- npm run {r.choice(['dev', 'test', 'migrate'])}",
        ]
    )


@la
def la_vault_refs(r):
    s = _svc(r)
    return r.choice(
        [
            f"$ vault kv get -field=password secret/{r.choice(ENVS)}/{s}/db\n(output redirected into the container's env, never printed)",
            f'path "secret/data/{s}/*" {{\n  capabilities = ["read"]\n}}',
            f'vault.hashicorp.com/agent-inject-secret-config: "secret/data/{s}/config"\nvault.hashicorp.com/role: "{s}"',
        ]
    )


@la
def la_aws_refs(r):
    s = _svc(r)
    return r.choice(
        [
            f"MasterUserPassword: '{{{{resolve:secretsmanager:{s}/db:SecretString:password}}}}'",
            f"ssm parameter: arn:aws:ssm:{r.choice(REGIONS)}:{_account(r)}:parameter/{r.choice(ENVS)}/{s}/api-key (SecureString, KMS alias/{s})",
            f'data "aws_secretsmanager_secret_version" "{s}" {{\n  secret_id = "{r.choice(ENVS)}/{s}/stripe"\n}}',
        ]
    )


@la
def la_sops(r):
    def enc(n):
        return f"ENC[AES256_GCM,data:{_b64(r, n)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"

    return (
        f"# secrets/{r.choice(ENVS)}.enc.yaml (sops-encrypted, safe to commit)\nstripe_secret_key: {enc(_int(r, 24, 80))}\n"
        f"db_password: {enc(_int(r, 12, 30))}\nsops:\n  age:\n    - recipient: age1{_rs(r, BECH32, 58)}\n"
        f'  lastmodified: "{_ts(r)}"\n  mac: ENC[AES256_GCM,data:{_b64(r, 32)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]\n  version: 3.9.0'
    )


@la
def la_sealed_secret(r):
    return (
        f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {_svc(r)}-env\nspec:\n  encryptedData:\n"
        f"    API_KEY: Ag{_b64(r, _int(r, 300, 400))}\n"
    )


@la
def la_ansible_vault(r):
    body = "\n".join(_hex(r, 80) for _ in range(_int(r, 3, 6)))
    return "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join("  " + ln for ln in body.splitlines())


@la
def la_masked(r):
    sk = "sk" + "_live_"
    gh = "gh" + "p_"
    opts = [
        f"Stripe dashboard shows the restricted key as {sk}...{_rs(r, ALNUM, 4)} (created {_date(r)}).",
        f"gh token list: {gh}{'*' * 32}{_rs(r, ALNUM, 4)}  expires {_date(r)}",
        f"AWS console: access key {'AK' + 'IA'}{'*' * 12}{_rs(r, UPNUM, 4)} last used {_int(r, 1, 30)} days ago",
        f"DATABASE_URL=postgres://{_svc(r)}:********@{_host(r)}:5432/{_svc(r)}",
        f"OPENAI_API_KEY=sk-...{_rs(r, ALNUM, 4)}   (masked by `printenv | mask`)",
        f"Authorization: Bearer ey…{_rs(r, B64URL, 4)} [truncated]",
    ]
    return r.choice(opts)


@la
def la_npmrc_ref(r):
    return f"# .npmrc (checked in, {_svc(r)})\n@{_org(r)}:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${{GITHUB_TOKEN}}\n//registry.npmjs.org/:_authToken=${{NPM_TOKEN}}"


@la
def la_docker_config(r):
    d = {
        "auths": {"ghcr.io": {}, f"{_account(r)}.dkr.ecr.{r.choice(REGIONS)}.amazonaws.com": {}},
        "credsStore": r.choice(["desktop", "osxkeychain", "ecr-login"]),
    }
    return "~/.docker/config.json (creds are in the keychain):\n" + json.dumps(d, indent=2)


@la
def la_placeholder_code(r):
    return (
        r.choice(
            [
                'client = OpenAI(api_key="YOUR_API_KEY")  # README snippet',
                f'const slack = new WebClient("{"xo" + "xb-"}not-a-real-token-this-will-not-work");  // from Slack docs',
                f'stripe.api_key = "{"sk" + "_test_"}..."  # replace with your test key',
                'GITHUB_TOKEN="<paste token here>" ./scripts/release.sh',
                f"curl -H 'Authorization: Bearer $TOKEN' https://{_host(r)}/healthz",
                "password: ${DB_PASSWORD:?DB_PASSWORD must be set}",
            ]
        )
        + f"\n# seen in {_path(r)}"
    )


@la
def la_tf_random_password(r):
    s = _svc(r)
    return (
        f'resource "random_password" "{s}_db" {{\n  length  = {_int(r, 24, 40)}\n  special = true\n}}\n\n'
        f'resource "aws_db_instance" "{s}" {{\n  username = "{s}"\n  password = random_password.{s}_db.result\n}}'
    )


@la
def la_password_policy(r):
    n = _int(r, 8, 16)
    return r.choice(
        [
            f'PASSWORD_RE = re.compile(r"^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[^\\w\\s]).{{{n},}}$")',
            f"const passwordSchema = z.string().min({n}).regex(/[A-Z]/, 'needs an uppercase letter').regex(/\\d/, 'needs a digit');",
            f'AUTH_PASSWORD_VALIDATORS = [{{"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {{"min_length": {n}}}}}]',
        ]
    )


@la
def la_scanner_rules(r):
    gh = "gh" + "p_"
    sk = "sk" + "_live_"
    return (
        f'# .gitleaks.toml (added while fixing {r.choice(["the CI leak", "issue #" + str(_int(r, 10, 999))])})\n[[rules]]\nid = "github-pat"\n'
        f"regex = '''{gh}[0-9a-zA-Z]{{36}}'''\n\n[[rules]]\nid = \"stripe-live\"\nregex = '''{sk}[0-9a-zA-Z]{{24,99}}'''\n"
        f"[allowlist]\npaths = ['''tests/fixtures/''']"
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: code that reads secrets
# ----------------------------------------------------------------------------------------------


def _envname(r):
    return r.choice(
        [
            "STRIPE_SECRET_KEY",
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "DATABASE_URL",
            "SLACK_BOT_TOKEN",
            "JWT_SECRET",
            "AWS_SECRET_ACCESS_KEY",
            "SENDGRID_API_KEY",
        ]
    )


@la
def la_read_py(r):
    e = _envname(r)
    return f'# {_path(r)}.py\n{e.lower()} = os.environ.get("{e}")\nif not {e.lower()}:\n    raise ImproperlyConfigured("{e} is required")'


@la
def la_read_ts(r):
    e = _envname(r)
    return f"// {_path(r)}.ts\nconst {_camel(e)} = process.env.{e};\nif (!{_camel(e)}) throw new Error('{e} missing');\nexport const env = z.object({{ {e}: z.string().min(1) }}).parse(process.env);"


@la
def la_read_go(r):
    e = _envname(r)
    return f'// {_path(r)}.go\n{_camel(e)}, ok := os.LookupEnv("{e}")\nif !ok {{\n\tlog.Fatal("{e} not set")\n}}'


@la
def la_read_rust(r):
    e = _envname(r)
    return f'// src/{_svc(r)}/config.rs\nlet {e.lower()} = std::env::var("{e}").context("{e} must be set")?;\nlet client = Client::new(SecretString::from({e.lower()}));'


@la
def la_read_java(r):
    e = _envname(r)
    return f'// {_pascal(_svc(r))}Client.java\n@Value("${{{e.lower().replace("_", ".")}}}")\nprivate String {_camel(e)};\n// falls back to System.getenv("{e}") in tests'


@la
def la_read_kotlin(r):
    return f'val storePassword = System.getenv("KEYSTORE_PASSWORD") ?: error("KEYSTORE_PASSWORD missing")\nsigningConfigs {{ create("release") {{ storePassword = storePassword; keyAlias = "{_svc(r)}" }} }}'


@la
def la_read_swift(r):
    return (
        f'let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,\n    kSecAttrService as String: "com.{_org(r)}.{_svc(r)}",\n'
        "    kSecReturnData as String: true]\nlet status = SecItemCopyMatching(query as CFDictionary, &item)"
    )


@la
def la_read_csharp(r):
    e = _envname(r)
    return f'// {_pascal(_svc(r))}/Program.cs\nvar key = builder.Configuration["{_pascal(e.split("_")[0])}:{_pascal("_".join(e.split("_")[1:]))}"]\n    ?? throw new InvalidOperationException("{e} not configured");'


@la
def la_read_php(r):
    e = _envname(r)
    return f"// config/{_svc(r)}.php\n'{e.lower()}' => env('{e}'),\n// config:cache bakes this in; never call env() outside config/"


@la
def la_read_ruby(r):
    return f"# config/initializers/{_svc(r)}.rb\n{r.choice(['Stripe.api_key', 'Octokit.access_token', 'OpenAI.api_key'])} = Rails.application.credentials.dig(:{r.choice(['stripe', 'github', 'openai'])}, :{r.choice(['secret_key', 'token', 'api_key'])})\n# credentials.yml.enc is encrypted; master key comes from RAILS_MASTER_KEY"


@la
def la_read_elixir(r):
    e = _envname(r)
    return f'config :{_svc(r)}, :api_key, System.fetch_env!("{e}")'


@la
def la_read_scala(r):
    e = _envname(r)
    return f'// {_pascal(_svc(r))}Settings.scala\nval {_camel(e)} = sys.env.getOrElse("{e}", throw new IllegalStateException("{e} missing"))'


@la
def la_read_shell(r):
    e = _envname(r)
    return f': "${{{e}:?{e} must be set}}"\ncurl -fsS -H "Authorization: Bearer ${{{e}}}" https://{_host(r)}/v1/ping'


# ----------------------------------------------------------------------------------------------
# look-alikes: prose, decisions, conversation
# ----------------------------------------------------------------------------------------------


@la
def la_note_rotation(r):
    v = r.choice(["Stripe", "GitHub", "OpenAI", "Twilio", "SendGrid", "Datadog", "Slack"])
    return r.choice(
        [
            f"Rotated the {v} key; new one is in 1Password. Old key revoked {_date(r)}, deploy {_hex(r, 7)} picked it up.",
            f"Summary ({_date(r)}): moved {v} credentials from .env files into AWS Secrets Manager ({r.choice(ENVS)}/{_svc(r)}/{v.lower()}). Nothing secret left in the repo.",
            f"Did: revoked the leaked {v} token (it was in a CI log for build #{_int(r, 100, 9999)}), issued a new one, stored it as a GitHub Actions secret.",
        ]
    )


@la
def la_decision(r):
    return r.choice(
        [
            f"Decision: API keys are shown once and stored as SHA-256 hashes; we keep an 8-char prefix for lookup. Reason: a DB dump must not leak usable keys. ({_date(r)})",
            f"ADR-{_int(r, 10, 99):03d}: use short-lived OIDC tokens from GitHub Actions instead of long-lived AWS keys. Consequence: no AWS_SECRET_ACCESS_KEY in CI.",
            f"Decided against committing .env.{r.choice(ENVS)} even encrypted; we use Doppler and `doppler run` locally. Pros: rotation in one place.",
        ]
    )


@la
def la_error_fix(r):
    return r.choice(
        [
            "Error: `401 Bad credentials` from the GitHub API in the release job. Cause: GH_TOKEN wasn't exported in the step. Fix: added `env: GH_TOKEN: ${{ github.token }}`.",
            f'psycopg.OperationalError: password authentication failed for user "{_svc(r)}". The secret in the {r.choice(ENVS)} namespace was still the old one; re-synced ExternalSecret.',
            f"stripe.error.AuthenticationError: Invalid API Key provided: sk_live_****{_rs(r, ALNUM, 4)}. Turned out the restricted key lacked `charges:write`.",
            f"jwt.exceptions.ExpiredSignatureError: Signature has expired -- clock skew on the worker; added leeway={_int(r, 5, 60)}s.",
        ]
    )


@la
def la_chat_nosecret(r):
    return r.choice(
        [
            "User: where should the Slack token go?\nAssistant: In .env.local (gitignored) for dev, and the `SLACK_BOT_TOKEN` GitHub secret for CI. I won't write it into any tracked file.",
            f"User: can you check if we leaked anything?\nAssistant: Ran gitleaks over {_int(r, 100, 5000)} commits -- 0 findings. The only hit in history was a docs example key.",
            "User: the deploy fails with 'permission denied (publickey)'.\nAssistant: The deploy key's public half isn't on the server; I added it to authorized_keys.",
        ]
    )


@la
def la_token_format_prose(r):
    gh, gpat, sk, xo = "gh" + "p_", "github" + "_pat_", "sk" + "_live_", "xo" + "xb-"
    return (
        r.choice(
            [
                f"Note: classic GitHub PATs start with `{gh}` (40 chars total), fine-grained ones with `{gpat}`. Our log scrubber matches both prefixes.",
                f"Stripe secret keys start with `{sk}`, publishable with `pk_live_`; only the former must stay server-side.",
                f"Slack bot tokens look like `{xo}<team>-<bot>-<secret>`; the middle numbers are ids, the last part is the secret.",
            ]
        )
        + f" (noted while working on {_svc(r)}, {_date(r)})"
    )


@la
def la_postmortem(r):
    return (
        f"Postmortem INC-{_int(r, 100, 9999)} ({_date(r)}): an expired TLS cert on {_host(r)} caused {_int(r, 5, 90)} min of 5xx. "
        f"Detected by synthetic check {_uuid(r)}; fixed by cert-manager renewal (order {_hex(r, 10)}). Action: alert at 14 days."
    )


@la
def la_todo(r):
    return (
        f"TODO ({_user(r)}):\n- [ ] move SENTRY_AUTH_TOKEN to org-level secret\n- [x] delete unused deploy key #{_int(r, 10**6, 10**8)}\n"
        f"- [ ] rotate webhook secret after the {r.choice(['partner', 'vendor'])} migration\n- [ ] check commit {_hex(r, 7)} for stray debug prints"
    )


# ----------------------------------------------------------------------------------------------
# look-alikes: ids from vendor APIs and elsewhere
# ----------------------------------------------------------------------------------------------


@la
def la_stripe_event(r):
    d = {
        "id": "evt_" + _rs(r, ALNUM, 24),
        "object": "event",
        "type": r.choice(["payment_intent.succeeded", "invoice.paid", "customer.subscription.updated"]),
        "data": {
            "object": {
                "id": "pi_" + _rs(r, ALNUM, 24),
                "customer": "cus_" + _rs(r, ALNUM, 14),
                "latest_charge": "ch_" + _rs(r, ALNUM, 24),
            }
        },
        "request": {"id": "req_" + _rs(r, ALNUM, 14), "idempotency_key": _uuid(r)},
        "account": "acct_" + _rs(r, ALNUM, 16),
    }
    return "webhook payload captured in tests/fixtures/stripe_event.json:\n" + json.dumps(d, indent=2)


@la
def la_openai_ids(r):
    return (
        f"{_ts(r)} openai call ok id=chatcmpl-{_rs(r, ALNUM, 29)} x-request-id=req_{_hex(r, 32)} "
        f"org=org-{_rs(r, ALNUM, 24)} file=file-{_rs(r, ALNUM, 22)} tokens={_int(r, 100, 9000)}"
    )


@la
def la_anthropic_ids(r):
    return f"message id msg_01{_rs(r, ALNUM, 22)}, request-id req_011C{_rs(r, ALNUM, 20)}, tool_use toolu_01{_rs(r, ALNUM, 22)}, stop_reason=end_turn"


@la
def la_slack_ids(r):
    d = {
        "team_id": "T0" + _rs(r, UPNUM, 8),
        "channel": "C0" + _rs(r, UPNUM, 8),
        "user": "U0" + _rs(r, UPNUM, 8),
        "ts": f"{_int(r, 1.7e9, 1.75e9)}.{_int(r, 100000, 999999)}",
        "bot_id": "B0" + _rs(r, UPNUM, 8),
        "app_id": "A0" + _rs(r, UPNUM, 8),
    }
    return "slack event (ids only):\n" + json.dumps(d, indent=2)


@la
def la_twilio_sids(r):
    return f"Twilio: Account SID AC{_hex(r, 32)} (identifier, not the auth token), message SM{_hex(r, 32)} status=delivered, service MG{_hex(r, 32)}"


@la
def la_github_ids(r):
    d = {
        "id": _int(r, 10**6, 10**9),
        "node_id": base64.b64encode(f"04:User{_int(r, 1, 10**8)}".encode()).decode(),
        "run_id": _int(r, 10**9, 10**10),
        "head_sha": _sha(r),
        "check_suite_id": _int(r, 10**9, 10**11),
    }
    return json.dumps(d, indent=2)


@la
def la_crypto_addresses(r):
    return (
        f"Payout wallet (public address): 0x{_hex(r, 40)}; tx 0x{_hex(r, 64)} confirmed; BTC bc1q{_rs(r, BECH32, 38)}"
    )


@la
def la_ipfs(r):
    return f"Pinned build to IPFS: bafybei{_rs(r, 'abcdefghijklmnopqrstuvwxyz234567', 52)} (legacy Qm{_rs(r, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)})"


@la
def la_apple_ids(r):
    return f'DEVELOPMENT_TEAM = {_rs(r, UPNUM, 10)};\nPROVISIONING_PROFILE_SPECIFIER = "match AppStore com.{_org(r)}.{_svc(r)}";\n// profile UUID {_uuid(r).upper()}'


@la
def la_feature_flags(r):
    d = {
        "key": f"{_word(r)}-{_word(r)}",
        "version": _int(r, 1, 200),
        "variations": [True, False],
        "salt": _hex(r, 32),
        "_id": _hex(r, 24),
    }
    return "flags.json (LaunchDarkly export, no SDK keys):\n" + json.dumps(d, indent=2)


@la
def la_pagination_cursor(r):
    cur = base64.b64encode(json.dumps({"id": _int(r, 1, 10**6), "created_at": _ts(r)}).encode()).decode()
    return f"GET /v1/{_word(r)}s?limit={_int(r, 10, 100)}&cursor={cur}\n-> 200, next_cursor={base64.b64encode(json.dumps({'id': _int(r, 1, 10**6)}).encode()).decode()}"


@la
def la_otel_span(r):
    d = {
        "traceId": _hex(r, 32),
        "spanId": _hex(r, 16),
        "parentSpanId": _hex(r, 16),
        "name": f"POST /v1/{_word(r)}s",
        "attributes": {
            "http.request.header.authorization": "<redacted>",
            "db.statement": "SELECT * FROM api_keys WHERE prefix = $1",
        },
    }
    return json.dumps(d, indent=2)


@la
def la_random_seeds(r):
    return f"pytest --randomly-seed={_int(r, 10**8, 10**10)} -p no:cacheprovider\nhypothesis: Falsifying example ... @reproduce_failure('6.{_int(r, 80, 120)}.0', b'{_b64(r, 12)}')"


@la
def la_uuid_sql(r):
    return f"INSERT INTO api_keys (id, owner_id, prefix, key_hash, created_at) VALUES\n  ('{_uuid(r)}', '{_uuid(r)}', 'ak_{_rs(r, LOWNUM, 6)}', '{_sha256(r)}', now());"


@la
def la_color_palette(r):
    return (
        ":root {\n"
        + "\n".join(
            f"  --{_word(r)}-{r.choice([100, 300, 500, 700, 900])}: #{_hex(r, 6)};" for _ in range(_int(r, 4, 8))
        )
        + "\n}"
    )


@la
def la_k8s_sa_ref(r):
    return (
        f"spec:\n  serviceAccountName: {_svc(r)}\n  automountServiceAccountToken: false\n  volumes:\n    - name: token\n      projected:\n        sources:\n"
        f"          - serviceAccountToken: {{path: token, expirationSeconds: {r.choice([600, 3600])}, audience: vault}}"
    )


@la
def la_http_etag(r):
    return (
        f'HTTP/2 200\netag: W/"{_hex(r, r.choice([16, 32]))}"\ncf-ray: {_hex(r, 16)}-{r.choice(["FRA", "IAD", "SJC", "NRT"])}\n'
        f"x-vercel-id: {r.choice(['fra1', 'iad1'])}::{_rs(r, LOWNUM, 5)}-{_int(r, 10**12, 10**13)}-{_hex(r, 12)}\ncache-control: public, max-age=31536000, immutable"
    )


@la
def la_changelog(r):
    return (
        f"## [{_ver(r)}] - {_date(r)}\n### Security\n- Redact `Authorization` headers in debug logs ({_hex(r, 7)})\n"
        f"- Stop echoing webhook secrets on startup ({_hex(r, 7)})\n### Fixed\n- Signed URL expiry off by one hour (#{_int(r, 10, 999)})"
    )


# ----------------------------------------------------------------------------------------------
# generate
# ----------------------------------------------------------------------------------------------

LA_PER = 13


def _lookalikes(r: random.Random) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for gen in LOOKALIKES:
        n = tries = 0
        while n < LA_PER and tries < LA_PER * 20:
            tries += 1
            t = gen(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            n += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    pos = _positives(r)
    looks = _lookalikes(r)
    r.shuffle(pos)
    r.shuffle(looks)
    return pos, looks


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    t0 = time.perf_counter()
    pos, looks = generate(seed)
    dt = time.perf_counter() - t0
    counts = Counter(k for _, k, _ in pos)
    for k, n in sorted(counts.items()):
        print(f"{k:32s} {n}")
    print(
        f"\n{len(counts)} kinds, {len(pos)} positives, {len(looks)} look-alikes from {len(LOOKALIKES)} generators ({dt:.2f}s)"
    )
    rs = random.Random(seed)
    for text, kind, secret in rs.sample(pos, 3):
        print(f"\n--- positive [{kind}] secret={secret[:40]}...\n{text[:400]}")
    for text in rs.sample(looks, 3):
        print(f"\n--- look-alike\n{text[:400]}")
