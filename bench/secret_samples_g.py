"""Blind test data for the memory-store secret scanner -- sample set "G".

    generate(seed) -> (positives, lookalikes)

positives : list of (text, kind, secret).  ``secret`` is the sensitive value
            itself (never the variable name), an exact substring of ``text``,
            at least 8 characters long.  41 kinds x 30 texts.
lookalikes: list of texts that contain no credential at all (~800, from 70+
            generators, more than half of them "hard": they sit next to words
            such as secret / token / key / password).

Everything is built at run time from ``random.Random(seed)`` (standard
library only); the same seed always gives the same output.  No vendor prefix,
key body or PEM armour line appears literally in this file: they are glued
together from pieces so a push-time secret scanner does not flag the module.

Edge-case decisions (applied consistently):
* Password HASHES (bcrypt ``$2b$``, argon2id, sha512-crypt ``$6$``, PBKDF2
  strings, plain md5/sha digests) quoted in a discussion are LOOK-ALIKES.
  No positive uses a hash as its secret.
* Every positive text holds exactly ONE credential.  Non-secret identifiers
  may sit beside it (Twilio Account SID, AWS account id, Azure tenant id,
  OAuth client id, key ids, public keys, usernames, hosts).
* Base64 of a secret as it appears in a Kubernetes Secret ``data:`` field, a
  docker ``auth`` field or an HTTP Basic header IS a positive; the secret is
  the encoded string exactly as written.
* Publishable / public values are look-alikes: Stripe ``pk_live_``, Clerk
  publishable keys, Mapbox ``pk.`` tokens, reCAPTCHA site keys, OAuth client
  ids, GitHub App client ids, SSH/PGP/PEM public keys, X.509 certificates,
  WireGuard PublicKey, age recipients, minisign and VAPID public keys,
  wallet addresses.
* Values masked down to the last 4 characters (``****abcd``) are look-alikes.
* Well-known documentation examples (the AWS ``...EXAMPLE`` key pair, the JWT
  *header* ``{"alg":"HS256"...}`` alone) are look-alikes.
* Encrypted blobs (Ansible Vault, SOPS ``ENC[...]``, SealedSecrets,
  ``openssl enc`` "Salted__" output) are look-alikes.
* Webhook HMAC *signatures* (X-Hub-Signature-256 etc.) are look-alikes.
* Google ``AIza`` keys appear as positives only in server-side contexts
  (Gemini, YouTube Data, Geocoding from a backend); browser-embedded Firebase
  web configs and Maps script tags are used in neither set.
* Sentry DSNs and Stripe/other *test-mode* keys are used in neither set.
* Obviously fake fixtures ("fake-key-for-tests", "not-a-real-token") and
  placeholders (changeme, <password>, ${VAR}, xxxx, [REDACTED]) are
  look-alikes.
"""

import base64
import hashlib
import json
import random
import string
import urllib.parse

__all__ = ["KIND_DESCRIPTIONS", "LOOKALIKE_CATEGORIES", "generate"]

PER_KIND = 30
N_LOOKALIKES = 800

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
LALNUM = LOWER + DIGITS
UALNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
B64CH = ALNUM + "+/"
B64URL = ALNUM + "-_"
BASE32 = UPPER + "234567"
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BCRYPT64 = "./" + UPPER + LOWER + DIGITS
DASH5 = "-" * 5
PK = " ".join(["PRIVATE", "KEY"])


# --------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------
def J(*parts):
    return "".join(parts)


def rs(r, alphabet, n):
    return "".join(r.choice(alphabet) for _ in range(n))


def rhex(r, n):
    return rs(r, HEX, n)


def rdig(r, n):
    return str(r.randint(1, 9)) + rs(r, DIGITS, n - 1)


def rbytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def b64(data):
    return base64.b64encode(data).decode()


def b64u(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def ruuid(r):
    h = rhex(r, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def q(r, s, styles=("{}", "'{}'", '"{}"')):
    return r.choice(styles).format(s)


def chunks(s, width):
    return [s[i : i + width] for i in range(0, len(s), width)]


def pem_block(label, data, width=64):
    lines = chunks(b64(data), width)
    return "\n".join([f"{DASH5}BEGIN {label}{DASH5}", *lines, f"{DASH5}END {label}{DASH5}"])


def indent_block(block, ind):
    """Text of ``block`` as it appears after ``ind`` when every line is indented."""
    return ("\n" + ind).join(block.split("\n"))


# --------------------------------------------------------------------------
# context pools
# --------------------------------------------------------------------------
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
    "priya",
    "arjun",
    "mei",
    "wei",
    "yuki",
    "haruto",
    "sofia",
    "mateo",
    "lucas",
    "emma",
    "noah",
    "fatima",
    "omar",
    "aisha",
    "kwame",
    "amara",
    "lars",
    "ingrid",
    "olga",
    "dmitri",
    "anya",
    "jin",
    "minh",
    "diego",
    "camila",
    "joao",
    "beatriz",
    "pierre",
    "chloe",
    "hans",
    "greta",
    "marek",
    "zofia",
    "tomas",
    "elif",
    "emre",
    "raj",
    "ananya",
    "sven",
    "nadia",
    "kofi",
    "leila",
    "mikko",
    "sanne",
    "pablo",
    "ines",
    "tariq",
    "hana",
    "oskar",
    "valentina",
]
LAST = [
    "smith",
    "garcia",
    "nguyen",
    "kowalski",
    "muller",
    "rossi",
    "tanaka",
    "kim",
    "silva",
    "ivanova",
    "okafor",
    "larsen",
    "haddad",
    "dubois",
    "novak",
    "patel",
    "chen",
    "schmidt",
    "jansen",
    "moreau",
    "yilmaz",
    "sato",
    "costa",
    "lindqvist",
    "mensah",
    "fernandez",
]
ORGS = [
    "acme",
    "globex",
    "initech",
    "umbrella",
    "hooli",
    "vandelay",
    "northwind",
    "contoso",
    "fabrikam",
    "tailspin",
    "wayne",
    "stark",
    "cyberdyne",
    "soylent",
    "aperture",
    "blackmesa",
    "piedpiper",
    "oscorp",
    "tyrell",
    "wonka",
    "dunder",
    "bluth",
    "zenith",
    "lumen",
    "quanta",
    "orbital",
    "kestrel",
    "harbor",
    "fjord",
    "cobalt",
    "saffron",
    "juniper",
    "brightleaf",
    "nimbus",
    "polaris",
    "sequoia",
    "tidewater",
    "ironbark",
]
TLDS = [
    "com",
    "io",
    "dev",
    "net",
    "co",
    "cloud",
    "app",
    "tech",
    "de",
    "fr",
    "co.uk",
    "com.br",
    "jp",
    "nl",
    "pl",
    "es",
    "se",
]
SVCS = [
    "api",
    "auth",
    "billing",
    "orders",
    "payments",
    "search",
    "ingest",
    "worker",
    "gateway",
    "reports",
    "inventory",
    "notify",
    "analytics",
    "checkout",
    "media",
    "users",
    "ledger",
    "scheduler",
    "crm",
    "etl",
    "webshop",
    "backoffice",
    "telemetry",
    "mailer",
]
ENVS = ["prod", "production", "staging", "stage", "dev", "qa", "uat", "sandbox", "preprod"]
REPOS = [
    "infra",
    "platform",
    "web",
    "mobile-app",
    "data-pipeline",
    "backend",
    "terraform-live",
    "helm-charts",
    "ml-training",
    "docs-site",
    "billing-service",
    "edge-proxy",
    "game-server",
    "iot-firmware",
    "home-lab",
    "dotfiles",
    "monorepo",
    "analytics-dbt",
]
REGIONS = [
    "us-east-1",
    "us-west-2",
    "eu-west-1",
    "eu-central-1",
    "ap-southeast-2",
    "ap-northeast-1",
    "sa-east-1",
    "eu-north-1",
]
PW_WORDS = [
    "sunshine",
    "dragon",
    "monkey",
    "falcon",
    "tiger",
    "coffee",
    "pizza",
    "rainbow",
    "winter",
    "summer",
    "autumn",
    "ocean",
    "river",
    "mountain",
    "galaxy",
    "phoenix",
    "shadow",
    "thunder",
    "maple",
    "violet",
    "banana",
    "mango",
    "kiwi",
    "panda",
    "otter",
    "rocket",
    "pixel",
    "matrix",
    "turbo",
    "ninja",
    "wizard",
    "jaguar",
    "koala",
    "lemon",
    "cherry",
    "silver",
    "golden",
    "purple",
    "orange",
    "eagle",
    "penguin",
    "dolphin",
    "badger",
    "walrus",
    "lynx",
    "cactus",
    "comet",
    "nebula",
    "harbor",
    "meadow",
    "granite",
    "saturn",
    "bamboo",
    "espresso",
    "marble",
    "velvet",
    "copper",
    "zebra",
    "tulip",
    "biscuit",
    "waffle",
    "noodle",
    "hammock",
    "lantern",
    "glacier",
    "orchid",
    "puffin",
]
BIP39 = [
    "abandon",
    "ability",
    "absorb",
    "abstract",
    "access",
    "accident",
    "acid",
    "acoustic",
    "acquire",
    "across",
    "action",
    "actor",
    "adapt",
    "address",
    "adjust",
    "admit",
    "adult",
    "advance",
    "advice",
    "aerobic",
    "afford",
    "afraid",
    "again",
    "agent",
    "agree",
    "ahead",
    "airport",
    "aisle",
    "alarm",
    "album",
    "alcohol",
    "alert",
    "alien",
    "alley",
    "allow",
    "almost",
    "alone",
    "alpha",
    "already",
    "alter",
    "always",
    "amateur",
    "amazing",
    "among",
    "amount",
    "amused",
    "analyst",
    "anchor",
    "ancient",
    "anger",
    "angle",
    "animal",
    "ankle",
    "announce",
    "annual",
    "another",
    "answer",
    "antenna",
    "antique",
    "anxiety",
    "apart",
    "apology",
    "appear",
    "apple",
    "approve",
    "april",
    "arctic",
    "arena",
    "argue",
    "armed",
    "armor",
    "army",
    "around",
    "arrange",
    "arrest",
    "arrive",
    "arrow",
    "artist",
    "artwork",
    "aspect",
    "asset",
    "assist",
    "assume",
    "athlete",
    "atom",
    "attack",
    "attend",
    "auction",
    "audit",
    "august",
    "author",
    "autumn",
    "average",
    "avocado",
    "avoid",
    "awake",
    "aware",
    "awesome",
    "awkward",
    "bachelor",
    "bacon",
    "badge",
    "balance",
    "balcony",
    "bamboo",
    "banana",
    "banner",
    "bargain",
    "barrel",
    "basket",
    "battle",
    "beach",
    "beauty",
    "become",
    "before",
    "behave",
    "believe",
    "bench",
    "benefit",
    "betray",
    "beyond",
    "bicycle",
    "biology",
    "bitter",
    "blanket",
    "blossom",
    "blouse",
    "board",
    "bonus",
    "border",
    "borrow",
    "bottom",
    "bounce",
    "bracket",
    "brain",
    "brave",
    "breeze",
    "brick",
    "bridge",
    "brisk",
    "broccoli",
    "bronze",
    "brother",
    "bubble",
    "buddy",
    "budget",
    "buffalo",
    "bundle",
    "bunker",
    "burden",
    "burger",
    "butter",
    "cabbage",
    "cabin",
    "cactus",
    "canal",
    "candy",
    "canvas",
    "captain",
    "carbon",
    "castle",
    "catalog",
    "cement",
    "census",
    "cereal",
    "chalk",
    "champion",
    "chaos",
    "cherry",
    "chimney",
    "circle",
    "citizen",
    "clever",
    "cluster",
    "coconut",
    "coffee",
    "column",
    "comic",
    "copper",
    "coral",
    "cotton",
    "cousin",
    "crater",
    "crystal",
    "cushion",
    "dolphin",
    "donkey",
    "dragon",
    "eagle",
    "elbow",
    "embark",
    "empower",
    "engine",
    "enrich",
    "fabric",
    "faculty",
    "falcon",
    "fiction",
    "glacier",
    "gospel",
    "harvest",
    "hazard",
    "jungle",
    "kangaroo",
    "ladder",
    "lemon",
    "lizard",
    "lobster",
    "magnet",
    "mammal",
    "marble",
    "meadow",
    "mirror",
    "monkey",
    "napkin",
    "noodle",
    "orbit",
    "oyster",
    "paddle",
    "panda",
    "pepper",
    "pigeon",
    "planet",
    "puzzle",
    "rabbit",
    "rhythm",
    "saddle",
    "salmon",
    "shuffle",
    "silver",
    "sketch",
    "spider",
    "stadium",
    "tomato",
    "tunnel",
    "umbrella",
    "velvet",
    "walnut",
    "wisdom",
    "yellow",
    "zebra",
    "zone",
]


def name(r):
    return r.choice(FIRST)


def cname(r):
    return r.choice(FIRST).capitalize()


def fullname(r):
    return f"{cname(r)} {r.choice(LAST).capitalize()}"


def org(r):
    return r.choice(ORGS)


def domain(r):
    return f"{r.choice(ORGS)}.{r.choice(TLDS)}"


def email(r):
    return f"{name(r)}.{r.choice(LAST)}@{domain(r)}"


def svc(r):
    return r.choice(SVCS)


def env(r):
    return r.choice(ENVS)


def repo(r):
    return r.choice(REPOS)


def region(r):
    return r.choice(REGIONS)


def ip(r):
    return f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"


def lan_ip(r):
    return f"192.168.{r.randint(0, 20)}.{r.randint(2, 250)}"


def host(r):
    k = r.randrange(5)
    if k == 0:
        return f"{svc(r)}-{env(r)}-{r.randint(1, 12):02d}.internal"
    if k == 1:
        return f"{svc(r)}.{env(r)}.{domain(r)}"
    if k == 2:
        return f"db{r.randint(1, 9)}.{domain(r)}"
    if k == 3:
        return ip(r)
    return f"{svc(r)}.{domain(r)}"


def date(r):
    return f"20{r.randint(21, 25)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def hhmm(r):
    return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}"


def tstamp(r):
    return f"{date(r)}T{hhmm(r)}:{r.randint(0, 59):02d}Z"


def ticket(r):
    return f"{r.choice(['OPS', 'INFRA', 'SEC', 'PLAT', 'DEV', 'SRE', 'BUG', 'CORE'])}-{r.randint(100, 9999)}"


def user(r):
    return r.choice(
        [
            name(r),
            f"{name(r)}.{r.choice(LAST)}",
            f"svc_{svc(r)}",
            f"{svc(r)}_app",
            "admin",
            "deploy",
            "root",
            "ci-bot",
            f"{name(r)}{r.randint(1, 99)}",
        ]
    )


def dbuser(r):
    return r.choice(
        [
            f"{svc(r)}_app",
            f"{svc(r)}_rw",
            f"{svc(r)}_ro",
            "postgres",
            "app",
            "admin",
            f"{name(r)}",
            "migrator",
            "readonly",
            "etl_user",
            "root",
        ]
    )


# --------------------------------------------------------------------------
# passwords people actually choose
# --------------------------------------------------------------------------
LEET = {"a": "@", "o": "0", "e": "3", "i": "1", "s": "$", "t": "7"}
SY_ANY = "!@#$%^&*?._-+=~"
SY_URL = "!*-_.~"
SY_BARE = "._-+=,"
SY_SQ = "!@#$%^&*?._-+=~"
SY_DQ = "!@#%^*?._-+=~"
SY_XML = "!@#$%*?._-+=~"
BANNED_PW = (
    "password",
    "passwd",
    "changeme",
    "example",
    "secret",
    "redact",
    "xxxx",
    "dummy",
    "test",
    "sample",
    "placeholder",
    "fake",
    "your",
)


def pw(r, syms=SY_ANY):
    allowed = ALNUM + syms
    for _ in range(200):
        k = r.randrange(9)
        w = r.choice(PW_WORDS)
        s = r.choice(syms) if syms else ""
        if k == 0:
            p = f"{w.capitalize()}{r.randint(2015, 2026)}{s}"
        elif k == 1:
            p = f"{w}{r.choice(PW_WORDS).capitalize()}{r.randint(1, 99)}"
        elif k == 2:
            p = "".join(LEET.get(c, c) if r.random() < 0.7 else c for c in w.capitalize())
            p = p + s + str(r.randint(10, 9999))
        elif k == 3:
            seps = [c for c in "-._" if c in syms] or [""]
            p = r.choice(seps).join(r.sample(PW_WORDS, r.randint(3, 4))) + str(r.randint(0, 99))
        elif k in (4, 5):
            p = rs(r, ALNUM + syms, r.randint(12, 24))
        elif k == 6:
            p = (
                org(r).capitalize()[:9]
                + s
                + str(r.randint(2019, 2026))
                + r.choice(["prod", "Db", "Adm", "", "ops", "!"])
            )
        elif k == 7:
            p = rs(r, ALNUM, r.randint(16, 32))
        else:
            p = f"{w.capitalize()}{s}{r.choice(PW_WORDS)}{r.randint(0, 9)}{r.choice(PW_WORDS).capitalize()}"
        if len(p) < 8 or any(c not in allowed for c in p):
            continue
        low = p.lower()
        if any(b in low for b in BANNED_PW):
            continue
        return p
    return rs(r, ALNUM, 16)


# --------------------------------------------------------------------------
# surrounding note text
# --------------------------------------------------------------------------
def lead(r):
    k = r.randrange(18)
    if k == 0:
        return f"[{date(r)} {hhmm(r)}] {name(r)}:"
    if k == 1:
        return f"# {svc(r)} / {env(r)} notes"
    if k == 2:
        return "Lesson learned:"
    if k == 3:
        return f"Decision {date(r)}:"
    if k == 4:
        return f"Runbook step {r.randint(1, 12)}:"
    if k == 5:
        return f"notes from the {host(r)} session:"
    if k == 6:
        return f"pasted from {name(r)}'s DM"
    if k == 7:
        return f"Debugging {svc(r)} in {env(r)}"
    if k == 8:
        return f"{ticket(r)}:"
    if k == 9:
        return "snippet that finally worked:"
    if k == 10:
        return f"agent memory {date(r)}"
    if k == 11:
        return "context for the next session:"
    if k == 12:
        return f"Re: {svc(r)} outage on {date(r)}"
    if k == 13:
        return "setup notes"
    if k == 14:
        return f"{fullname(r)} wrote:"
    if k == 15:
        return f"## {repo(r)}"
    if k == 16:
        return f"Notiz ({date(r)}):"
    return f"from the {svc(r)} migration, {date(r)}"


def trail(r):
    return trail_k(r, r.randrange(16))


def trail_k(r, k):
    if k == 0:
        return "(rotate after the demo)"
    if k == 1:
        return "TODO: move this into the secret manager"
    if k == 2:
        return f"see {ticket(r)}"
    if k == 3:
        return f"-- {name(r)}"
    if k == 4:
        return "worked on the first try"
    if k == 5:
        return "do not commit"
    if k == 6:
        return f"expires {date(r)}"
    if k == 7:
        return f"verified {date(r)} by {name(r)}"
    if k == 8:
        return "ping me if it stops working"
    if k == 9:
        return "temp until SSO lands"
    if k == 10:
        return f"used by the {svc(r)} cron"
    if k == 11:
        return "(still valid as of today)"
    if k == 12:
        return "ok to share inside the team"
    if k == 13:
        return f"owner: {name(r)}@{domain(r)}"
    if k == 14:
        return "next step: wire it into CI"
    return f"last touched {date(r)}"


NEUTRAL_TRAILS = (2, 3, 4, 7, 8, 10, 13, 14, 15)


def wrap(r, body, p=0.45, neutral=False):
    multi = "\n" in body
    out = body
    if r.random() < p:
        ld = lead(r)
        same = (not multi) and ld.endswith(":") and r.random() < 0.4
        out = ld + (" " if same else "\n") + out
    if r.random() < p:
        tr = trail_k(r, r.choice(NEUTRAL_TRAILS)) if neutral else trail(r)
        same = (not multi) and r.random() < 0.3
        out = out + ("  # " if same else "\n") + tr
    return out


def shell_prompt(r):
    return r.choice(["$ ", "", f"{name(r)}@{svc(r)}-{r.randint(1, 9)}:~$ ", "# ", f"  {r.randint(100, 2999)}  ", "> "])


# --------------------------------------------------------------------------
# key material builders
# --------------------------------------------------------------------------
def priv_pem(r, which=None):
    which = which or r.choice(["rsa", "pkcs8", "ec", "openssh", "openssh", "dsa"])
    if which == "rsa":
        return pem_block(J("RSA ", PK), b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + rbytes(r, 1180))
    if which == "pkcs8":
        return pem_block(
            PK,
            b"\x30\x82\x04\xbe\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x04\x82\x04\xa8"
            + rbytes(r, 1190),
        )
    if which == "ec":
        return pem_block(
            J("EC ", PK),
            b"\x30\x77\x02\x01\x01\x04\x20"
            + rbytes(r, 32)
            + b"\xa0\x0a\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\xa1\x44\x03\x42\x00\x04"
            + rbytes(r, 64),
        )
    if which == "p8":
        return pem_block(
            PK,
            b"\x30\x81\x93\x02\x01\x00\x30\x13\x06\x07\x2a\x86\x48\xce\x3d\x02\x01\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\x04\x79\x30\x77\x02\x01\x01\x04\x20"
            + rbytes(r, 32)
            + b"\xa0\x0a\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\xa1\x44\x03\x42\x00\x04"
            + rbytes(r, 64),
        )
    if which == "dsa":
        return pem_block(J("DSA ", PK), b"\x30\x82\x01\xbb\x02\x01\x00\x02\x81\x81\x00" + rbytes(r, 430))
    data = (
        b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
        b"\x00\x00\x00\x33\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"
        + rbytes(r, 32)
        + b"\x00\x00\x00\x88"
        + rbytes(r, 8)
        + b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"
        + rbytes(r, 32)
        + b"\x00\x00\x00\x40"
        + rbytes(r, 64)
        + b"\x00\x00\x00\x0c"
        + rbytes(r, 12)
    )
    return pem_block(J("OPENSSH ", PK), data, 70)


def pgp_priv(r):
    if r.random() < 0.5:
        data = b"\x95\x03\xc6\x04" + rbytes(r, r.randint(900, 1300))
    else:
        data = b"\x94\x58\x04" + rbytes(r, r.randint(300, 500))
    label = J("PGP ", PK, " BLOCK")
    lines = chunks(b64(data), 64)
    return "\n".join(
        [f"{DASH5}BEGIN {label}{DASH5}", "", *lines, "=" + b64(rbytes(r, 3)), f"{DASH5}END {label}{DASH5}"]
    )


def make_jwt(r, payload, alg="HS256", kid=None):
    hdr = {"alg": alg, "typ": "JWT"}
    if kid:
        hdr["kid"] = kid
    h = b64u(json.dumps(hdr, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    n = 32 if alg.startswith("HS") else (256 if alg.startswith("RS") else 64)
    return f"{h}.{p}.{b64u(rbytes(r, n))}"


def user_jwt(r):
    iat = r.randint(1_690_000_000, 1_760_000_000)
    p = {
        "sub": r.choice([ruuid(r), str(r.randint(1000, 9999999)), f"auth0|{rhex(r, 24)}"]),
        "iat": iat,
        "exp": iat + r.choice([900, 3600, 86400, 604800]),
    }
    if r.random() < 0.6:
        p["email"] = email(r)
    if r.random() < 0.6:
        p["iss"] = f"https://auth.{domain(r)}/"
    if r.random() < 0.5:
        p["aud"] = r.choice([f"{svc(r)}-api", f"https://api.{domain(r)}", "account"])
    if r.random() < 0.5:
        p["roles"] = r.sample(["admin", "editor", "viewer", "billing", "support", "ops"], r.randint(1, 3))
    if r.random() < 0.3:
        p["scope"] = " ".join(
            r.sample(["openid", "profile", "email", "read:orders", "write:orders", "offline_access"], 3)
        )
    alg = r.choice(["HS256", "HS256", "RS256", "ES256"])
    kid = rhex(r, 16) if alg != "HS256" and r.random() < 0.7 else None
    return make_jwt(r, p, alg, kid)


# ==========================================================================
# POSITIVE KINDS -- each returns (text, secret)
# ==========================================================================
def _pick(r, templates):
    return r.choice(templates)()


def k_aws_access_key_id(r):
    key = (J("AK", "IA") if r.random() < 0.85 else J("AS", "IA")) + rs(r, BASE32, 16)
    reg, o, e = region(r), org(r), env(r)
    T = [
        lambda: f"export AWS_ACCESS_KEY_ID={key}\nexport AWS_DEFAULT_REGION={reg}\naws s3 ls s3://{o}-{e}-artifacts/",
        lambda: (
            f'provider "aws" {{\n  region     = "{reg}"\n  access_key = "{key}"\n  secret_key = var.aws_secret_key\n}}'
        ),
        lambda: (
            f's3 = boto3.client(\n    "s3",\n    aws_access_key_id="{key}",\n    aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],\n)'
        ),
        lambda: (
            f"docker run --rm -e AWS_ACCESS_KEY_ID={key} -e AWS_SECRET_ACCESS_KEY -e AWS_REGION={reg} {o}/{svc(r)}:latest"
        ),
        lambda: (
            f"[profile {o}-{e}]\naws_access_key_id = {key}\n# the secret half lives in the team vault, entry aws/{e}/ci-deployer\nregion = {reg}"
        ),
        lambda: (
            f"{name(r)}: who owns {key}? CloudTrail shows it calling {r.choice(['ListBuckets', 'AssumeRole', 'GetObject', 'DescribeInstances'])} from {ip(r)} at {hhmm(r)} UTC"
        ),
        lambda: (
            f"      - uses: aws-actions/configure-aws-credentials@v4\n        with:\n          aws-access-key-id: {key}\n          aws-secret-access-key: ${{{{ secrets.AWS_SECRET_ACCESS_KEY }}}}\n          aws-region: {reg}"
        ),
        lambda: json.dumps(
            {
                "eventTime": tstamp(r),
                "eventName": r.choice(["PutObject", "CreateUser", "RunInstances"]),
                "userIdentity": {
                    "type": "IAMUser",
                    "accountId": rdig(r, 12),
                    "accessKeyId": key,
                    "userName": f"{svc(r)}-bot",
                },
                "sourceIPAddress": ip(r),
            },
            indent=2,
        ),
        lambda: f'AWSCredentials creds = new BasicAWSCredentials("{key}", System.getenv("AWS_SECRET_ACCESS_KEY"));',
        lambda: f"aws iam list-access-keys --user-name {svc(r)}-deployer\n# -> {key}  Active  created {date(r)}",
        lambda: f"Key-ID im Jenkins-Job ist {key}, das Secret steht im Credentials-Store.",
        lambda: f"AWS_ACCESS_KEY_ID={q(r, key)}\nAWS_REGION={reg}",
        lambda: f"$Env:AWS_ACCESS_KEY_ID = '{key}'\naws sts get-caller-identity --profile {o}",
    ]
    return wrap(r, _pick(r, T)), key


def k_aws_secret_access_key(r):
    sec = rs(r, ALNUM + "/+", 40)
    last4 = rs(r, BASE32, 4)
    reg, o = region(r), org(r)
    T = [
        lambda: (
            f"$ aws configure --profile {o}-{env(r)}\nAWS Access Key ID [****************{last4}]:\nAWS Secret Access Key [None]: {sec}\nDefault region name [None]: {reg}\nDefault output format [None]: json"
        ),
        lambda: f"export AWS_SECRET_ACCESS_KEY={q(r, sec)}",
        lambda: (
            f'provider "aws" {{\n  region     = "{reg}"\n  access_key = var.aws_access_key\n  secret_key = "{sec}"\n}}'
        ),
        lambda: (
            f"session = boto3.Session(\n    aws_access_key_id=os.environ['AWS_ACCESS_KEY_ID'],\n    aws_secret_access_key='{sec}',\n    region_name='{reg}',\n)"
        ),
        lambda: f"AWS_SECRET_ACCESS_KEY={sec}\nAWS_REGION={reg}\nS3_BUCKET={o}-uploads",
        lambda: (
            f"[{o}-s3]\ntype = s3\nprovider = AWS\nenv_auth = false\n# access_key_id comes from RCLONE_S3_ACCESS_KEY_ID\nsecret_access_key = {sec}\nregion = {reg}"
        ),
        lambda: f"# ~/.s3cfg\n[default]\nhost_base = s3.amazonaws.com\nsecret_key = {sec}\nuse_https = True",
        lambda: f'creds := credentials.NewStaticCredentials(os.Getenv("AWS_ACCESS_KEY_ID"), "{sec}", "")',
        lambda: f"{name(r)}: secret for the backup-bucket IAM user is {sec} -- please move it into 1Password",
        lambda: f'        - name: AWS_SECRET_ACCESS_KEY\n          value: "{sec}"',
        lambda: f'$Env:AWS_SECRET_ACCESS_KEY = "{sec}"\naws sts get-caller-identity',
        lambda: f"aws_secret_access_key: {sec}   # group_vars/{env(r)}.yml",
        lambda: (
            f"const s3 = new S3Client({{ region: '{reg}', credentials: {{ accessKeyId: process.env.AWS_KEY_ID, secretAccessKey: '{sec}' }} }});"
        ),
    ]
    return wrap(r, _pick(r, T)), sec


def gh_token(r):
    t = r.randrange(8)
    if t < 3:
        return J("gh", "p_") + rs(r, ALNUM, 36)
    if t == 3:
        return J("gh", "o_") + rs(r, ALNUM, 36)
    if t == 4:
        return J("gh", "s_") + rs(r, ALNUM, 36)
    if t == 5:
        return J("gh", "u_") + rs(r, ALNUM, 36)
    return J("git", "hub_", "pat_", "11") + rs(r, UALNUM, 20) + "_" + rs(r, ALNUM, 59)


def k_github_token(r):
    tok = gh_token(r)
    o, rp, u = org(r), repo(r), name(r)
    T = [
        lambda: f"git remote set-url origin https://{u}:{tok}@github.com/{o}/{rp}.git",
        lambda: f"export GITHUB_TOKEN={tok}\ngh pr list --repo {o}/{rp}",
        lambda: f"echo {tok} | gh auth login --with-token",
        lambda: f"//npm.pkg.github.com/:_authToken={tok}\n@{o}:registry=https://npm.pkg.github.com",
        lambda: (
            f'curl -s -H "Authorization: token {tok}" https://api.github.com/repos/{o}/{rp}/actions/runs | jq ".total_count"'
        ),
        lambda: f'from github import Github\ng = Github("{tok}")\nrepo = g.get_repo("{o}/{rp}")',
        lambda: f"echo {tok} | docker login ghcr.io -u {u} --password-stdin",
        lambda: (
            f"# ~/.config/gh/hosts.yml\ngithub.com:\n    user: {u}\n    oauth_token: {tok}\n    git_protocol: https"
        ),
        lambda: f"module.exports = {{\n  platform: 'github',\n  token: '{tok}',\n  repositories: ['{o}/{rp}'],\n}};",
        lambda: f'git config --global url."https://{u}:{tok}@github.com/".insteadOf "https://github.com/"',
        lambda: f"Hier ist der Token fuer die CI: {tok} (laeuft in 30 Tagen ab)",
        lambda: f'const octokit = new Octokit({{ auth: "{tok}" }});',
        lambda: f'provider "github" {{\n  token = "{tok}"\n  owner = "{o}"\n}}',
        lambda: f"GH_TOKEN={tok} go install github.com/{o}/{rp}/cmd/...@latest",
    ]
    return wrap(r, _pick(r, T)), tok


def k_gitlab_token(r):
    kind = r.choice(["pat", "pat", "pat", "deploy", "runner", "reg", "trigger"])
    if kind == "pat":
        tok = J("gl", "pat-") + rs(r, B64URL, 20)
    elif kind == "deploy":
        tok = J("gl", "dt-") + rs(r, B64URL, 20)
    elif kind == "runner":
        tok = J("gl", "rt-") + rs(r, B64URL, 20)
    elif kind == "reg":
        tok = J("GR", "1348941") + rs(r, B64URL, 20)
    else:
        tok = J("gl", "ptt-") + rhex(r, 40)
    gl = r.choice(["gitlab.com", f"gitlab.{domain(r)}", f"git.{domain(r)}"])
    o, rp, pid = org(r), repo(r), r.randint(10, 99999)
    if kind == "pat":
        T = [
            lambda: (
                f'curl --header "PRIVATE-TOKEN: {tok}" "https://{gl}/api/v4/projects/{pid}/pipelines?status=failed"'
            ),
            lambda: f"git clone https://oauth2:{tok}@{gl}/{o}/{rp}.git",
            lambda: f"gl = gitlab.Gitlab('https://{gl}', private_token='{tok}')\nproject = gl.projects.get({pid})",
            lambda: f"//{gl}/api/v4/projects/{pid}/packages/npm/:_authToken={tok}",
            lambda: f'provider "gitlab" {{\n  base_url = "https://{gl}/api/v4/"\n  token    = "{tok}"\n}}',
            lambda: f"GITLAB_TOKEN fuer den Mirror-Job: {tok}",
            lambda: f"export GITLAB_TOKEN={tok}\nglab mr list -R {o}/{rp}",
            lambda: f"[{name(r)} {hhmm(r)}] new PAT for the renovate bot: {tok} (scopes api, read_repository)",
        ]
    elif kind == "deploy":
        T = [
            lambda: f"docker login registry.{gl} -u gitlab+deploy-token-{r.randint(1, 900)} -p {tok}",
            lambda: f"git clone https://gitlab+deploy-token-{r.randint(1, 900)}:{tok}@{gl}/{o}/{rp}.git",
            lambda: f"imagePullSecret for {o}: username gitlab+deploy-token-{r.randint(1, 900)}, password {tok}",
        ]
    elif kind in ("runner", "reg"):
        T = [
            lambda: (
                f"gitlab-runner register --non-interactive --url https://{gl}/ --{'token' if kind == 'runner' else 'registration-token'} {tok} --executor docker --docker-image alpine:3.19"
            ),
            lambda: (
                f'[[runners]]\n  name = "{svc(r)}-runner-{r.randint(1, 9)}"\n  url = "https://{gl}/"\n  token = "{tok}"\n  executor = "docker"'
            ),
            lambda: (
                f"helm install gitlab-runner gitlab/gitlab-runner --set gitlabUrl=https://{gl}/ --set runnerToken={tok}"
            ),
        ]
    else:
        T = [
            lambda: f"curl -X POST -F token={tok} -F ref=main https://{gl}/api/v4/projects/{pid}/trigger/pipeline",
            lambda: f"trigger token for nightly {rp} build: {tok}",
        ]
    return wrap(r, _pick(r, T)), tok


def slack_tok(r):
    k = r.randrange(4)
    if k < 2:
        return J("xo", "xb-") + rdig(r, r.randint(10, 13)) + "-" + rdig(r, 13) + "-" + rs(r, ALNUM, 24)
    if k == 2:
        return J("xo", "xp-") + rdig(r, 11) + "-" + rdig(r, 12) + "-" + rdig(r, 13) + "-" + rhex(r, 32)
    return J("xa", "pp-") + "1-A" + rs(r, UALNUM, 10) + "-" + rdig(r, 13) + "-" + rhex(r, 64)


def k_slack_token(r):
    tok = slack_tok(r)
    var = (
        "SLACK_APP_TOKEN"
        if tok.startswith(J("xa", "pp"))
        else r.choice(["SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_USER_TOKEN"])
    )
    ch = "C0" + rs(r, UALNUM, 9)
    T = [
        lambda: f"{var}={tok}\nSLACK_SIGNING_SECRET=${{SLACK_SIGNING_SECRET}}",
        lambda: (
            f'from slack_sdk import WebClient\nclient = WebClient(token="{tok}")\nclient.chat_postMessage(channel="{ch}", text="deploy finished")'
        ),
        lambda: f"const app = new App({{\n  token: '{tok}',\n  signingSecret: process.env.SLACK_SIGNING_SECRET,\n}});",
        lambda: (
            f'curl -s -H "Authorization: Bearer {tok}" -d channel={ch} -d text="backup ok" https://slack.com/api/chat.postMessage'
        ),
        lambda: f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: slack-bot\nstringData:\n  {var.lower()}: {tok}",
        lambda: (
            f"slack_sdk.errors.SlackApiError: The request to the Slack API failed. (url: https://www.slack.com/api/conversations.join)\nThe server responded with: {{'ok': False, 'error': 'missing_scope'}}\nDEBUG request headers: {{'Authorization': 'Bearer {tok}'}}"
        ),
        lambda: f"HUBOT_SLACK_TOKEN={tok} ./bin/hubot --adapter slack",
        lambda: f"{name(r)}: reinstalled the app, new bot token is {tok}",
        lambda: f'[slack]\nbot_token = "{tok}"\nchannel = "#{svc(r)}-alerts"',
    ]
    return wrap(r, _pick(r, T)), tok


def webhook_url(r):
    k = r.randrange(6)
    if k in (0, 1):
        return (
            J("https://hooks.", "sl", "ack.com/services/")
            + "T"
            + rs(r, UALNUM, r.randint(8, 10))
            + "/B"
            + rs(r, UALNUM, r.randint(8, 10))
            + "/"
            + rs(r, ALNUM, 24)
        )
    if k == 2:
        return (
            J("https://", r.choice(["discord.com", "discordapp.com"]), "/api/web", "hooks/")
            + rdig(r, 19)
            + "/"
            + rs(r, B64URL, 68)
        )
    if k == 3:
        return (
            f"https://{org(r)}.webhook.office.com/webhookb2/{ruuid(r)}@{ruuid(r)}/IncomingWebhook/"
            + rhex(r, 32)
            + "/"
            + ruuid(r)
        )
    if k == 4:
        return (
            J("https://chat.", "googleapis.com/v1/spaces/")
            + "AAAA"
            + rs(r, B64URL, 7)
            + "/messages?key="
            + J("AI", "za", "Sy")
            + rs(r, B64URL, 33)
            + "&token="
            + rs(r, B64URL, 43)
            + "%3D"
        )
    return f"https://chat.{domain(r)}/hooks/" + rs(r, LALNUM, 26)


def k_chat_webhook_url(r):
    url = webhook_url(r)
    T = [
        lambda: (
            f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy of {svc(r)} done\"}}' {url}"
        ),
        lambda: (
            f"receivers:\n  - name: {svc(r)}-oncall\n    slack_configs:\n      - api_url: {url}\n        channel: '#alerts'"
        ),
        lambda: f"env:\n  SLACK_WEBHOOK_URL: {url}",
        lambda: f'requests.post("{url}", json={{"content": "nightly ETL failed"}}, timeout=5)',
        lambda: f"use this hook for the {svc(r)} alerts channel: {url}",
        lambda: f'variable "alert_webhook" {{\n  default = "{url}"\n}}',
        lambda: f"WEBHOOK_URL={q(r, url)}",
        lambda: (
            f"Invoke-RestMethod -Method Post -ContentType 'application/json' -Body '{{\"text\":\"disk full on {host(r)}\"}}' -Uri '{url}'"
        ),
        lambda: f'notify:\n  url: "{url}"\n  on: [failure]',
    ]
    return wrap(r, _pick(r, T)), url


def k_stripe_key(r):
    k = r.randrange(5)
    if k < 2:
        key = J("sk", "_li", "ve_") + "51" + rs(r, ALNUM, r.choice([24, 97]))
    elif k == 2:
        key = J("rk", "_li", "ve_") + "51" + rs(r, ALNUM, r.choice([24, 97]))
    else:
        key = J("wh", "sec_") + rs(r, ALNUM, 32)
    if key.startswith(J("wh", "sec")):
        T = [
            lambda: f"STRIPE_WEBHOOK_SECRET={key}",
            lambda: f"event = stripe.Webhook.construct_event(payload, sig_header, '{key}')",
            lambda: f'const event = stripe.webhooks.constructEvent(req.body, sig, "{key}");',
            lambda: f"stripe listen printed the signing secret {key} -- put it in the {env(r)} config",
            lambda: f"stripe:\n  webhook_secret: {key}",
        ]
    else:
        T = [
            lambda: f"STRIPE_SECRET_KEY={key}",
            lambda: f'import stripe\nstripe.api_key = "{key}"',
            lambda: f"const stripe = require('stripe')('{key}');",
            lambda: f"\\Stripe\\Stripe::setApiKey('{key}');",
            lambda: f'Stripe.apiKey = "{key}";',
            lambda: f"curl https://api.stripe.com/v1/charges?limit=3 -u {key}:",
            lambda: f"Stripe.api_key = ENV.fetch('STRIPE_KEY', '{key}')",
            lambda: f"{name(r)}: billing broke because someone pasted the live key {key} into staging",
            lambda: f'StripeConfiguration.ApiKey = "{key}";',
        ]
    return wrap(r, _pick(r, T)), key


def k_payment_commerce_key(r):
    k = r.randrange(9)
    d = domain(r)
    if k == 0:
        key = J("EA", "AA") + rs(r, B64URL, 60)
        T = [
            lambda: f"SQUARE_ACCESS_TOKEN={key}\nSQUARE_ENVIRONMENT=production",
            lambda: f'client = Client(access_token="{key}", environment="production")',
            lambda: (
                f'curl https://connect.squareup.com/v2/locations -H "Square-Version: 2024-01-18" -H "Authorization: Bearer {key}"'
            ),
        ]
    elif k == 1:
        key = J("sq0", "csp-") + rs(r, B64URL, 43)
        T = [lambda: f"square oauth app secret: {key}", lambda: f"SQUARE_APPLICATION_SECRET={key}"]
    elif k == 2:
        key = J("access_token", "$production$") + rs(r, LALNUM, 16) + "$" + rhex(r, 32)
        T = [
            lambda: f'gateway = braintree.BraintreeGateway(access_token="{key}")',
            lambda: f"BRAINTREE_ACCESS_TOKEN={key}",
            lambda: f'paypal:\n  braintree_token: "{key}"',
        ]
    elif k == 3:
        key = rs(r, ALNUM, 24)
        kid = J("rzp", "_live_") + rs(r, ALNUM, 14)
        T = [
            lambda: f"RAZORPAY_KEY_ID={kid}\nRAZORPAY_KEY_SECRET={key}",
            lambda: f'client = razorpay.Client(auth=("{kid}", "{key}"))',
            lambda: f"curl -u {kid}:{key} https://api.razorpay.com/v1/payments",
        ]
    elif k == 4:
        key = (
            J("AQ", "E")
            + rs(r, B64URL, 14)
            + "."
            + rs(r, ALNUM + "+/", 60)
            + "=-"
            + rs(r, ALNUM, 44)
            + "=-"
            + rs(r, ALNUM, 16)
        )
        T = [
            lambda: f"ADYEN_API_KEY={key}",
            lambda: (
                f'curl https://checkout-live.adyenpayments.com/checkout/v71/paymentMethods -H "X-API-Key: {key}" -H "Content-Type: application/json"'
            ),
        ]
    elif k == 5:
        key = J("li", "ve_") + rs(r, ALNUM, 30)
        T = [
            lambda: f'$mollie->setApiKey("{key}");',
            lambda: f"MOLLIE_API_KEY={key}",
            lambda: f"mollie_client.set_api_key('{key}')",
        ]
    elif k == 6:
        key = r.choice([J("shp", "at_"), J("shp", "ss_"), J("shp", "ca_")]) + rhex(r, 32)
        shop = f"{org(r)}-store.myshopify.com"
        T = [
            lambda: f'curl -X GET "https://{shop}/admin/api/2024-01/orders.json" -H "X-Shopify-Access-Token: {key}"',
            lambda: f"SHOPIFY_ACCESS_TOKEN={key}\nSHOPIFY_STORE={shop}",
            lambda: f"shopify.Session.setup(api_key=API_KEY, secret='{key}')",
            lambda: f"admin token for {shop}: {key}",
        ]
    elif k == 7:
        key = J("li", "ve_") + rs(r, B64URL, 40)
        T = [
            lambda: f"GOCARDLESS_ACCESS_TOKEN={key}",
            lambda: f"client = gocardless_pro.Client(access_token='{key}', environment='live')",
        ]
    else:
        key = J("pdl_", "live_", "apikey_") + rs(r, LALNUM, 26) + "_" + rs(r, ALNUM, 22) + "_" + rs(r, ALNUM, 3)
        T = [
            lambda: f"PADDLE_API_KEY={key}",
            lambda: f'curl https://api.paddle.com/products -H "Authorization: Bearer {key}"',
        ]
    T = [*T, lambda: f"{name(r)}: prod payments key for {d} is {key}, don't paste it in the channel again"]
    return wrap(r, _pick(r, T)), key


def ai_key(r):
    k = r.randrange(12)
    oa = b64(b"OpenAI")
    if k in (0, 1):
        return "openai", "OPENAI_API_KEY", J("sk", "-proj-") + rs(r, B64URL, 74) + oa + rs(r, B64URL, 74)
    if k == 2:
        return "openai", "OPENAI_API_KEY", J("s", "k-") + rs(r, ALNUM, 20) + oa + rs(r, ALNUM, 20)
    if k in (3, 4):
        return "anthropic", "ANTHROPIC_API_KEY", J("sk", "-ant-", "api03-") + rs(r, B64URL, 93) + "AA"
    if k == 5:
        return "hf", "HF_TOKEN", J("h", "f_") + rs(r, UPPER + LOWER, 34)
    if k == 6:
        return "groq", "GROQ_API_KEY", J("gs", "k_") + rs(r, ALNUM, 52)
    if k == 7:
        return "replicate", "REPLICATE_API_TOKEN", J("r", "8_") + rs(r, ALNUM, 37)
    if k == 8:
        return "perplexity", "PERPLEXITY_API_KEY", J("pp", "lx-") + rs(r, ALNUM, 48)
    if k == 9:
        return "xai", "XAI_API_KEY", J("x", "ai-") + rs(r, ALNUM, 80)
    if k == 10:
        return "openrouter", "OPENROUTER_API_KEY", J("sk", "-or-", "v1-") + rhex(r, 64)
    return r.choice([("mistral", "MISTRAL_API_KEY", rs(r, ALNUM, 32)), ("cohere", "COHERE_API_KEY", rs(r, ALNUM, 40))])


AI_MODELS = {
    "openai": ["gpt-4o-mini", "gpt-4.1", "o3-mini"],
    "anthropic": ["claude-3-5-sonnet-latest", "claude-3-5-haiku-latest"],
    "hf": ["meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3"],
    "groq": ["llama-3.1-70b-versatile"],
    "replicate": ["black-forest-labs/flux-schnell"],
    "perplexity": ["sonar-pro"],
    "xai": ["grok-2-latest"],
    "openrouter": ["openai/gpt-4o", "anthropic/claude-3.5-sonnet"],
    "mistral": ["mistral-large-latest"],
    "cohere": ["command-r-plus"],
}
AI_BASE = {
    "perplexity": "https://api.perplexity.ai",
    "xai": "https://api.x.ai/v1",
    "openrouter": "https://openrouter.ai/api/v1",
    "groq": "https://api.groq.com/openai/v1",
}


def k_ai_api_key(r):
    vendor, var, key = ai_key(r)
    model = r.choice(AI_MODELS[vendor])
    T = [
        lambda: f"export {var}={key}",
        lambda: f"{var}={q(r, key)}\nMODEL={model}",
        lambda: f"here's the team {vendor.capitalize()} key for the hackathon, don't burn through the quota: {key}",
        lambda: f'os.environ["{var}"] = "{key}"  # TODO remove before pushing the notebook',
        lambda: f"[{name(r)} {hhmm(r)}] la cle API pour le prototype : {key}",
        lambda: f'$env:{var}="{key}"; python agent.py --model {model}',
    ]
    if vendor == "openai":
        T += [
            lambda: f'from openai import OpenAI\nclient = OpenAI(api_key="{key}")',
            lambda: f'llm = ChatOpenAI(model="{model}", openai_api_key="{key}", temperature=0)',
            lambda: f"# .aider.conf.yml\nmodel: {model}\nopenai-api-key: {key}",
            lambda: json.dumps(
                {"models": [{"title": model, "provider": "openai", "model": model, "apiKey": key}]}, indent=2
            ),
        ]
    elif vendor == "anthropic":
        T += [
            lambda: (
                f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {key}" -H "anthropic-version: 2023-06-01" -H "content-type: application/json" -d @req.json'
            ),
            lambda: f"const client = new Anthropic({{ apiKey: '{key}' }});",
            lambda: f'llm = ChatAnthropic(model="{model}", anthropic_api_key="{key}")',
            lambda: f"# .aider.conf.yml\nmodel: {model}\nanthropic-api-key: {key}",
        ]
    elif vendor == "hf":
        T += [
            lambda: f"huggingface-cli login --token {key}",
            lambda: f'client = InferenceClient(model="{model}", token="{key}")',
            lambda: f"git clone https://{name(r)}:{key}@huggingface.co/{org(r)}/{svc(r)}-finetune",
        ]
    elif vendor in AI_BASE:
        T += [
            lambda: (
                f'client = OpenAI(base_url="{AI_BASE[vendor]}", api_key="{key}")\nclient.chat.completions.create(model="{model}", messages=msgs)'
            ),
            lambda: (
                f'curl {AI_BASE[vendor]}/chat/completions -H "Authorization: Bearer {key}" -H "Content-Type: application/json" -d \'{{"model": "{model}", "messages": [{{"role": "user", "content": "ping"}}]}}\''
            ),
        ]
    elif vendor == "replicate":
        T += [
            lambda: (
                f'client = replicate.Client(api_token="{key}")\nclient.run("{model}", input={{"prompt": "a lighthouse"}})'
            )
        ]
    elif vendor == "mistral":
        T += [lambda: f'client = Mistral(api_key="{key}")']
    else:
        T += [lambda: f'co = cohere.Client("{key}")\nco.chat(model="{model}", message="hi")']
    return wrap(r, _pick(r, T)), key


def k_google_api_key(r):
    key = J("AI", "za") + r.choice(["Sy", "Sy", "Sx", "Sz"]) + rs(r, B64URL, 33)
    city = r.choice(["Berlin", "Lagos", "Osaka", "Lima", "Toronto", "Krakow", "Porto", "Pune"])
    T = [
        lambda: f"export GEMINI_API_KEY={key}",
        lambda: f'import google.generativeai as genai\ngenai.configure(api_key="{key}")',
        lambda: (
            f'curl "https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent?key={key}" -H "Content-Type: application/json" -d @prompt.json'
        ),
        lambda: f"youtube = build('youtube', 'v3', developerKey='{key}')",
        lambda: (
            f"resp = requests.get('https://maps.googleapis.com/maps/api/geocode/json', params={{'address': '{city}', 'key': '{key}'}})"
        ),
        lambda: f"GOOGLE_API_KEY={q(r, key)}  # server-side translate + geocoding",
        lambda: f'curl -s "https://translation.googleapis.com/language/translate/v2?key={key}" -d q=hello -d target=de',
        lambda: f"backend geocoder key (unrestricted!): {key}",
        lambda: f'val client = GenerativeModel(modelName = "gemini-1.5-pro", apiKey = "{key}")',
        lambda: f"places:\n  api_key: {key}\n  radius_m: 1500",
    ]
    return wrap(r, _pick(r, T)), key


def k_gcp_service_account_key(r):
    proj = f"{org(r)}-{env(r)}-{r.randint(100000, 999999)}"
    pem = priv_pem(r, "pkcs8") + "\n"
    esc = json.dumps(pem)[1:-1]
    acct = r.choice(
        ["terraform", "ci-deployer", "bigquery-reader", "firebase-adminsdk-" + rs(r, LALNUM, 5), "gke-nodes", "looker"]
    )
    sa = f"{acct}@{proj}.iam.gserviceaccount.com"
    kid = rhex(r, 40)
    doc = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": kid,
        "private_key": pem,
        "client_email": sa,
        "client_id": rdig(r, 21),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
        "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
        "client_x509_cert_url": "https://www.googleapis.com/robot/v1/metadata/x509/" + urllib.parse.quote(sa),
        "universe_domain": "googleapis.com",
    }
    full = json.dumps(doc, indent=2)
    compact = json.dumps(doc)
    k = r.randrange(7)
    if k == 0:
        return wrap(r, f"$ cat ~/Downloads/{proj}-{kid[:12]}.json\n{full}"), esc
    if k == 1:
        return wrap(r, f'  "private_key_id": "{kid}",\n  "private_key": "{esc}",\n  "client_email": "{sa}",'), esc
    if k == 2:
        enc = b64(full.encode())
        return wrap(r, f"GOOGLE_CREDENTIALS_B64={enc}"), enc
    if k == 3:
        body = "\n    ".join(full.split("\n"))
        return wrap(
            r,
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: gcp-sa\ntype: Opaque\nstringData:\n  key.json: |\n    {body}",
        ), esc
    if k == 4:
        return wrap(r, f"creds = service_account.Credentials.from_service_account_info({compact})"), esc
    if k == 5:
        return wrap(
            r, f"      - uses: google-github-actions/auth@v2\n        with:\n          credentials_json: '{compact}'"
        ), esc
    return wrap(r, f'provider "google" {{\n  project     = "{proj}"\n  credentials = <<EOF\n{full}\nEOF\n}}'), esc


def k_private_key_pem(r):
    which = r.choice(["rsa", "rsa", "pkcs8", "ec", "openssh", "openssh", "dsa", "ppk"])
    u, h = name(r), host(r)
    if which == "ppk":
        priv = "\n".join(chunks(b64(rbytes(r, 48)), 64))
        pub = "\n".join(chunks(b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + rbytes(r, 32)), 64))
        text = (
            f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: {u}@{h}\nPublic-Lines: {pub.count(chr(10)) + 1}\n{pub}\n"
            f"Private-Lines: {priv.count(chr(10)) + 1}\n{priv}\nPrivate-MAC: {rhex(r, 64)}"
        )
        return wrap(r, r.choice(["", f"{u}.ppk for the jump host:\n"]) + text), priv
    pem = priv_pem(r, which)
    k = r.randrange(8)
    if k == 0:
        fn = "id_ed25519" if which == "openssh" else r.choice(["id_rsa", "deploy_key", f"{svc(r)}.pem", "server.key"])
        return wrap(r, f"$ cat ~/.ssh/{fn}\n{pem}"), pem
    if k == 1:
        sec = indent_block(pem, "    ")
        return wrap(r, f"nginx_tls_key: |\n    {sec}\nnginx_server_name: {svc(r)}.{domain(r)}"), sec
    if k == 2:
        esc = pem.replace("\n", "\\n")
        return wrap(r, f'SSH_PRIVATE_KEY="{esc}"'), esc
    if k == 3:
        return wrap(
            r, f'PRIVATE_KEY = """{pem}\n"""\nsigner = load_pem_private_key(PRIVATE_KEY.encode(), password=None)'
        ), pem
    if k == 4:
        sec = indent_block(pem, "    ")
        return wrap(
            r, f'resource "tls_locally_signed_cert" "{svc(r)}" {{\n  ca_private_key_pem = <<-EOT\n    {sec}\n  EOT\n}}'
        ), sec
    if k == 5:
        sec = indent_block(pem, "            ")
        return wrap(
            r,
            f"      - uses: webfactory/ssh-agent@v0.9.0\n        with:\n          ssh-private-key: |\n            {sec}",
        ), sec
    if k == 6:
        return wrap(r, f"here's the deploy key for {repo(r)}, add it to your agent:\n{pem}"), pem
    return wrap(r, f"{pem}\n(key for {u}@{h}, generated {date(r)})"), pem


def k_pgp_private_key(r):
    blk = pgp_priv(r)
    u, d = fullname(r), domain(r)
    k = r.randrange(6)
    if k == 0:
        return wrap(r, f"$ gpg --export-secret-keys --armor {name(r)}@{d}\n{blk}"), blk
    if k == 1:
        sec = indent_block(blk, "  ")
        return wrap(r, f"GPG_PRIVATE_KEY: |\n  {sec}\nGPG_KEY_ID: {rhex(r, 16).upper()}"), sec
    if k == 2:
        return wrap(r, f"release signing key ({u}), import with `gpg --import`:\n\n{blk}"), blk
    if k == 3:
        esc = blk.replace("\n", "\\n")
        return wrap(r, json.dumps({"signing": {"gpgKey": blk, "keyId": rhex(r, 16).upper()}})), esc
    if k == 4:
        return wrap(r, f"backup of the pass(1) store key, keep offline:\n{blk}"), blk
    return wrap(r, f"{blk}\n# exported {date(r)} for the apt repo signer"), blk


def k_jwt_token(r):
    tok = user_jwt(r)
    d, s = domain(r), svc(r)
    T = [
        lambda: f'curl -H "Authorization: Bearer {tok}" https://api.{d}/v1/{s}/me',
        lambda: f"> localStorage.getItem('access_token')\n'{tok}'",
        lambda: json.dumps(
            {
                "id": ruuid(r),
                "name": f"{s} {env(r)}",
                "values": [{"key": "accessToken", "value": tok, "enabled": True}],
            },
            indent=2,
        ),
        lambda: 'headers = {"Authorization": "Bearer ' + tok + '"}\nr = requests.get(URL, headers=headers)',
        lambda: f"{tstamp(r)} DEBUG auth-middleware token={tok} user_id={r.randint(100, 99999)} route=/{s}",
        lambda: f"Cookie: access_token={tok}; theme=dark",
        lambda: (
            f"@baseUrl = https://{s}.{d}\n@token = {tok}\n\nGET {{{{baseUrl}}}}/orders\nAuthorization: Bearer {{{{token}}}}"
        ),
        lambda: f"grpcurl -H 'authorization: Bearer {tok}' {s}.{d}:443 {s}.v1.Service/List",
        lambda: f"use this token for the staging API, valid for 24h: {tok}",
        lambda: f"http GET https://api.{d}/admin/users 'Authorization:Bearer {tok}'",
        lambda: f"ACCESS_TOKEN={tok}",
    ]
    return wrap(r, _pick(r, T)), tok


def k_azure_credential(r):
    k = r.randrange(8)
    acct = org(r) + rs(r, LALNUM, 4)
    if k == 0:
        key = b64(rbytes(r, 64))
        T = [
            lambda: (
                f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"
            ),
            lambda: (
                f'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"'
            ),
            lambda: f"az storage blob list --account-name {acct} --account-key {key} -c backups -o table",
            lambda: f'"AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key}"',
        ]
    elif k == 1:
        key = urllib.parse.quote(b64(rbytes(r, 32)), safe="")
        se = f"{r.randint(2025, 2027)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T00:00:00Z"
        T = [
            lambda: (
                f"https://{acct}.blob.core.windows.net/exports/report.csv?sv=2022-11-02&ss=b&srt=co&sp=rl&se={se}&spr=https&sig={key}"
            ),
            lambda: (
                f"azcopy copy ./dist 'https://{acct}.blob.core.windows.net/$web?sv=2022-11-02&sp=racwl&se={se}&sr=c&sig={key}' --recursive"
            ),
        ]
    elif k == 2 or k == 3:
        key = rs(r, ALNUM, 3) + str(r.randint(0, 9)) + "Q~" + rs(r, ALNUM + "_.~-", 34)
        tenant, app = ruuid(r), ruuid(r)
        T = [
            lambda: f"az login --service-principal -u {app} -p {key} --tenant {tenant}",
            lambda: f"AZURE_CLIENT_ID={app}\nAZURE_TENANT_ID={tenant}\nAZURE_CLIENT_SECRET={key}",
            lambda: (
                f'provider "azurerm" {{\n  features {{}}\n  client_id     = "{app}"\n  client_secret = "{key}"\n  tenant_id     = "{tenant}"\n}}'
            ),
            lambda: json.dumps(
                {
                    "AzureAd": {
                        "Instance": "https://login.microsoftonline.com/",
                        "TenantId": tenant,
                        "ClientId": app,
                        "ClientSecret": key,
                    }
                },
                indent=2,
            ),
            lambda: f'new ClientSecretCredential("{tenant}", "{app}", "{key}")',
        ]
    elif k == 4:
        key = b64(rbytes(r, 32))
        ns = f"{org(r)}-{env(r)}-bus"
        T = [
            lambda: (
                f"Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={key}"
            ),
            lambda: (
                f'EVENTHUB_CONN="Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={key};EntityPath=telemetry"'
            ),
        ]
    elif k == 5:
        key = b64(rbytes(r, 64))
        T = [
            lambda: f"AccountEndpoint=https://{acct}.documents.azure.com:443/;AccountKey={key};",
            lambda: f"COSMOS_KEY={key}\nCOSMOS_ENDPOINT=https://{acct}.documents.azure.com:443/",
        ]
    elif k == 6:
        key = rs(r, LALNUM, 52) if r.random() < 0.5 else rs(r, ALNUM, 52) + "AZDO" + rs(r, ALNUM, 28)
        T = [
            lambda: (
                f"export AZURE_DEVOPS_EXT_PAT={key}\naz devops project list --organization https://dev.azure.com/{org(r)}"
            ),
            lambda: f"git clone https://{name(r)}:{key}@dev.azure.com/{org(r)}/{repo(r)}/_git/{repo(r)}",
            lambda: f"echo {key} | az devops login --organization https://dev.azure.com/{org(r)}",
        ]
    else:
        key = rs(r, B64URL, 54) + "=="
        T = [
            lambda: f"https://{svc(r)}-{env(r)}-fn.azurewebsites.net/api/HttpTrigger?code={key}",
            lambda: (
                f'curl -X POST "https://{svc(r)}-func.azurewebsites.net/api/ingest" -H "x-functions-key: {key}" -d @event.json'
            ),
        ]
    return wrap(r, _pick(r, T)), key


def k_database_url_password(r):
    u, h, p = dbuser(r), host(r), pw(r, SY_URL)
    db = f"{svc(r)}_{r.choice(['prod', 'main', 'staging', 'dev', 'app'])}"
    k = r.randrange(16)
    if k == 0:
        body = f"DATABASE_URL=postgres://{u}:{p}@{h}:5432/{db}"
    elif k == 1:
        body = f'SQLALCHEMY_DATABASE_URI = "postgresql+psycopg2://{u}:{p}@{h}/{db}"'
    elif k == 2:
        body = (
            f"MONGO_URI=mongodb+srv://{u}:{p}@cluster0.{rs(r, LALNUM, 5)}.mongodb.net/{db}?retryWrites=true&w=majority"
        )
    elif k == 3:
        body = f"REDIS_URL=redis://:{p}@{h}:6379/0"
    elif k == 4:
        body = f"CELERY_BROKER_URL = 'amqp://{u}:{p}@rabbitmq.{domain(r)}:5672/{svc(r)}'"
    elif k == 5:
        body = f"{tstamp(r)} INFO  db: connecting to postgresql://{u}:{p}@{h}:5432/{db} (pool=10)"
    elif k == 6:
        body = f"production:\n  adapter: mysql2\n  url: mysql2://{u}:{p}@{h}/{db}\n  pool: 5"
    elif k == 7:
        body = f'dsn := "{u}:{p}@tcp({h}:3306)/{db}?parseTime=true&loc=UTC"'
    elif k == 8:
        body = f"spring.datasource.url=jdbc:postgresql://{h}:5432/{db}?user={u}&password={p}&ssl=true"
    elif k == 9:
        body = f'"ConnectionStrings": {{\n  "Default": "Server=tcp:{h},1433;Initial Catalog={db};User ID={u};Password={p};Encrypt=True;"\n}}'
    elif k == 10:
        body = f'psql "host={h} port=5432 dbname={db} user={u} password={p} sslmode=require"'
    elif k == 11:
        body = f'conn = pyodbc.connect("Driver={{ODBC Driver 18 for SQL Server}};Server={h};Database={db};UID={u};PWD={p};")'
    elif k == 12:
        body = f'datasource db {{\n  provider = "postgresql"\n  url      = "postgresql://{u}:{p}@{h}:5432/{db}?schema=public"\n}}'
    elif k == 13:
        body = f"REDIS_URL=rediss://default:{p}@{rs(r, LALNUM, 8)}-{r.randint(10000, 99999)}.upstash.io:6379"
    elif k == 14:
        body = f"knex({{ client: 'pg', connection: 'postgres://{u}:{p}@{h}:5432/{db}' }})"
    else:
        body = (
            f"clickhouse-client --host {h} --user {u} --password {p} --database {db}"
            if r.random() < 0.3
            else f"CLICKHOUSE_URL=clickhouse://{u}:{p}@{h}:9000/{db}"
        )
    return wrap(r, body), p


def k_url_embedded_credentials(r):
    u, p, d = user(r), pw(r, SY_URL), domain(r)
    T = [
        lambda: f"git clone https://{u}:{p}@git.{d}/{org(r)}/{repo(r)}.git",
        lambda: f"export https_proxy=http://{u}:{p}@proxy.{d}:3128\nexport no_proxy=localhost,127.0.0.1,.internal",
        lambda: (
            f"pip install --index-url https://{u}:{p}@pypi.{d}/simple/ {svc(r)}-client==2.{r.randint(0, 9)}.{r.randint(0, 20)}"
        ),
        lambda: f"wget -r ftp://{u}:{p}@ftp.{d}/exports/{date(r)}/",
        lambda: f"ffplay rtsp://admin:{p}@{lan_ip(r)}:554/Streaming/Channels/101",
        lambda: f"curl -s https://{u}:{p}@{svc(r)}.{d}/api/health | jq .",
        lambda: f"EMAIL_URL=smtp://{u}%40{d}:{p}@smtp.{d}:587",
        lambda: f'curl -k "https://elastic:{p}@es-{env(r)}.{d}:9200/_cat/indices?v"',
        lambda: f"curl -X PUT http://admin:{p}@127.0.0.1:5984/{svc(r)}",
        lambda: (
            f'[remote "origin"]\n\turl = https://{u}:{p}@bitbucket.org/{org(r)}/{repo(r)}.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*'
        ),
        lambda: f"GOPROXY=https://{u}:{p}@athens.{d},direct",
        lambda: f"rclone copy ./photos \":webdav,url='https://{u}:{p}@cloud.{d}/remote.php/webdav':/photos\"",
        lambda: f'fetch("https://{u}:{p}@{svc(r)}.{d}/export.csv").then(r => r.text())',
        lambda: (
            f"<repository>\n  <id>internal</id>\n  <url>https://{u}:{p}@nexus.{d}/repository/maven-releases/</url>\n</repository>"
        ),
    ]
    return wrap(r, _pick(r, T)), p


def k_password_in_config(r):
    u, h = user(r), host(r)
    k = r.randrange(22)
    if k in (0, 1, 5, 6, 10, 15, 18):
        p = pw(r, SY_BARE)
    elif k in (3, 4):
        p = pw(r, SY_XML)
    else:
        p = pw(r, SY_DQ)
    s = svc(r)
    bodies = [
        lambda: f"{s}:\n  db:\n    host: {h}\n    port: 5432\n    username: {u}\n    password: {p}",
        lambda: f"DB_HOST={h}\nDB_USER={u}\nDB_PASSWORD={p}",
        lambda: json.dumps({"database": {"host": h, "user": u, "password": p, "pool": 10}}, indent=2),
        lambda: (
            f"<server>\n  <id>{org(r)}-releases</id>\n  <username>{u}</username>\n  <password>{p}</password>\n</server>"
        ),
        lambda: f'<add key="SmtpPassword" value="{p}" />',
        lambda: f"spring.datasource.username={u}\nspring.datasource.password={p}",
        lambda: f"[client]\nuser=root\npassword={p}\nhost={h}",
        lambda: (
            f'resource "aws_db_instance" "{s}" {{\n  engine   = "postgres"\n  username = "{u}"\n  password = "{p}"\n}}'
        ),
        lambda: f'FROM mysql:8.0\nENV MYSQL_ROOT_PASSWORD="{p}"\nENV MYSQL_DATABASE={s}',
        lambda: (
            f'services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: {u}\n      POSTGRES_PASSWORD: "{p}"'
        ),
        lambda: f"{h}:5432:{s}:{u}:{p}",
        lambda: f"machine {h}\n  login {u}\n  password {p}",
        lambda: f"define( 'DB_USER', '{u}' );\ndefine( 'DB_PASSWORD', '{p}' );\ndefine( 'DB_HOST', '{h}' );",
        lambda: f'ansible_user: {u}\nansible_become_password: "{p}"',
        lambda: f'[database]\nhost = "{h}"\nuser = "{u}"\npassword = "{p}"',
        lambda: f"variables:\n  MYSQL_ROOT_PASSWORD: {p}\n  MYSQL_DATABASE: {s}_test",
        lambda: f"EMAIL_HOST = 'smtp.{domain(r)}'\nEMAIL_HOST_USER = '{u}@{domain(r)}'\nEMAIL_HOST_PASSWORD = '{p}'",
        lambda: f'[security]\nadmin_user = admin\nadmin_password = "{p}"',
        lambda: f"# /etc/redis/redis.conf\nbind 0.0.0.0\nrequirepass {p}",
        lambda: f'auth:\n  username: {u}\n  rootPassword: "{p}"\n  database: {s}',
        lambda: f'"{u}" "{p}"',
        lambda: (
            f'ldap:\n  url: ldaps://ldap.{domain(r)}\n  bindDN: cn={u},ou=services,dc={org(r)},dc=com\n  bindPassword: "{p}"'
        ),
    ]
    body = bodies[k]()
    if k == 20:
        body = "# pgbouncer userlist.txt\n" + body
    return wrap(r, body), p


def k_password_in_command(r):
    u, h = user(r), host(r)
    k = r.randrange(24)
    p = pw(r, SY_BARE) if k in (0, 6, 13, 14, 17, 22) else pw(r, SY_SQ)
    s, o = svc(r), org(r)
    bodies = [
        lambda: f"mysql -h {h} -u {u} -p{p} {s}",
        lambda: f"sshpass -p '{p}' ssh -o StrictHostKeyChecking=no {u}@{h}",
        lambda: f"curl -u {u}:'{p}' https://{svc(r)}.{domain(r)}/api/v2/export",
        lambda: f"PGPASSWORD='{p}' psql -h {h} -U {u} -d {s} -c 'select count(*) from orders'",
        lambda: f"htpasswd -bc /etc/nginx/.htpasswd {u} '{p}'",
        lambda: f"net user svc_backup '{p}' /add /y",
        lambda: f"smbclient //{h}/share -U {u}%{p} -c 'ls'",
        lambda: f"redis-cli -h {h} -a '{p}' --no-auth-warning info keyspace",
        lambda: f"mongosh \"mongodb://{h}:27017\" -u admin -p '{p}' --authenticationDatabase admin",
        lambda: f"echo '{p}' | sudo -S systemctl restart {s}",
        lambda: f"wget --user={u} --password='{p}' https://files.{domain(r)}/dump.sql.gz",
        lambda: f"rabbitmqctl add_user {u} '{p}' && rabbitmqctl set_user_tags {u} administrator",
        lambda: f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout 'pass:{p}'",
        lambda: (
            f"keytool -importkeystore -srckeystore old.jks -destkeystore new.p12 -deststoretype PKCS12 -srcstorepass {p} -deststorepass {p}"
        ),
        lambda: f'sqlcmd -S {h} -U sa -P {p} -Q "SELECT name FROM sys.databases"',
        lambda: (
            f"$sec = ConvertTo-SecureString '{p}' -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential('{u}', $sec)"
        ),
        lambda: f"lftp -u {u},'{p}' sftp://{h}",
        lambda: f"7z a -p{p} -mhe=on backup-{date(r)}.7z ./exports",
        lambda: f'ldapsearch -x -H ldaps://{h} -D "cn={u},dc={o},dc=com" -w \'{p}\' -b "dc={o},dc=com" "(uid=*)"',
        lambda: f"xfreerdp /v:{h} /u:{u} /p:'{p}' /cert:ignore",
        lambda: f"ipmitool -I lanplus -H {lan_ip(r)} -U ADMIN -P '{p}' chassis power status",
        lambda: f"mysqldump -u backup --password='{p}' --all-databases | gzip > all-{date(r)}.sql.gz",
        lambda: f"echo {u}:{p} | chpasswd",
        lambda: f"az login -u {u}@{domain(r)} -p '{p}'",
    ]
    return wrap(r, shell_prompt(r) + bodies[k]()), p


PROSE = [
    ("en", "hey {n}, the wifi password for the {o} office is {p} "),
    ("en", "pw for the {s} staging admin panel: {p}"),
    ("en", "I reset {u}'s password to {p} -- ask them to change it on first login"),
    ("en", "root password on {h} is {p} (temporary, until we set up keys)"),
    (
        "en",
        "Hi {N},\n\nyour account on {d} has been created.\nUsername: {n}\nPassword: {p}\n\nPlease change it after your first login.\n\nBest,\n{N2}",
    ),
    ("en", "login for the {s} dashboard is {u} / {p}"),
    ("en", "the zip is encrypted, password is {p} -- sending it over a separate channel next time"),
    ("en", "the passphrase for the deploy key is {p}"),
    ("en", "{n}: what's the NAS admin pw again?\n{n2}: {p}"),
    ("en", "Voicemail PIN is short, but the portal password is {p}"),
    ("fr", "Salut {n}, le mot de passe du compte {s} est {p} (a changer apres la demo)"),
    ("fr", "Identifiant : {u}\nMot de passe : {p}"),
    ("de", "Das Passwort fuer den {s}-Admin lautet {p}"),
    ("de", "Benutzer: {u} / Passwort: {p} -- bitte nicht weitergeben"),
    ("es", "La contrasena del router es {p}, el usuario es admin"),
    ("es", "usuario {u}, contrasena {p} para el servidor de {e}"),
    ("pt", "a senha do banco de {e} e {p} por enquanto"),
    ("it", "la password dell'utente {u} e {p} -- cambiala al primo accesso"),
    ("nl", "het wachtwoord van de NAS is {p} (gebruiker {u})"),
    ("pl", "haslo do panelu {s} to {p}"),
    ("ru", "\u043f\u0430\u0440\u043e\u043b\u044c \u043e\u0442 \u0441\u0435\u0440\u0432\u0435\u0440\u0430 {h}: {p}"),
    ("ja", "{s}\u306e\u7ba1\u7406\u8005\u30d1\u30b9\u30ef\u30fc\u30c9\u306f {p} \u3067\u3059"),
    ("zh", "\u6d4b\u8bd5\u670d\u52a1\u5668\u7684\u5bc6\u7801\u662f {p} \uff0c\u7528\u6237\u540d {u}"),
    ("ko", "\uad00\ub9ac\uc790 \ube44\ubc00\ubc88\ud638\ub294 {p} \uc785\ub2c8\ub2e4"),
    ("tr", "{s} panelinin sifresi: {p}"),
    ("sv", "losenordet till wifi ar {p}"),
    ("vi", "m\u1eadt kh\u1ea9u c\u1ee7a t\u00e0i kho\u1ea3n {u} l\u00e0 {p}"),
    ("es", "{n}: me pasas la clave del VPN?\n{n2}: claro -> {p}"),
    ("de", "WLAN: {o}-Gast, Kennwort {p}"),
    ("fr", "code d'acces Wi-Fi invites : {p}"),
]
# accented originals for a subset, written with escapes to keep the file ASCII
PROSE_ACCENT = [
    ("es", "La contrase\u00f1a del router es {p}, el usuario es admin"),
    ("pt", "a senha do banco de {e} \u00e9 {p} por enquanto"),
    ("pl", "has\u0142o do panelu {s} to {p}"),
    ("tr", "{s} panelinin \u015fifresi: {p}"),
    ("sv", "l\u00f6senordet till wifi \u00e4r {p}"),
    ("de", "Das Passwort f\u00fcr den {s}-Admin lautet {p}"),
    ("fr", "le mot de passe est {p} (\u00e0 changer apr\u00e8s la d\u00e9mo)"),
]


def k_password_in_prose(r):
    p = pw(r, SY_XML)
    _lang, tpl = r.choice(PROSE + PROSE_ACCENT)
    body = tpl.format(
        n=name(r),
        n2=name(r),
        N=cname(r),
        N2=cname(r),
        o=org(r),
        s=svc(r),
        u=user(r),
        h=host(r),
        d=domain(r),
        e=env(r),
        p=p,
    ).rstrip()
    return wrap(r, body), p


def k_package_registry_token(r):
    k = r.randrange(9)
    if k in (0, 1):
        tok = J("np", "m_") + rs(r, ALNUM, 36)
        T = [
            lambda: f"//registry.npmjs.org/:_authToken={tok}",
            lambda: f"NPM_TOKEN={tok} npm publish --access public",
            lambda: f'npmAuthToken: "{tok}"\nnpmRegistryServer: "https://registry.npmjs.org"',
            lambda: f"      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: {tok}",
        ]
    elif k in (2, 3):
        mac = b"\x02\x01\x08pypi.org\x02\x24" + ruuid(r).encode() + b"\x00\x02\x2a" + rbytes(r, r.randint(100, 140))
        tok = J("py", "pi-") + b64u(mac)
        T = [
            lambda: f"[pypi]\nusername = __token__\npassword = {tok}",
            lambda: f"twine upload -u __token__ -p {tok} dist/*",
            lambda: f"poetry config pypi-token.pypi {tok}",
            lambda: f"UV_PUBLISH_TOKEN={tok} uv publish",
        ]
    elif k == 4:
        tok = J("ruby", "gems_") + rhex(r, 48)
        T = [
            lambda: f"# ~/.gem/credentials\n---\n:rubygems_api_key: {tok}",
            lambda: f"GEM_HOST_API_KEY={tok} gem push {svc(r)}-1.{r.randint(0, 9)}.0.gem",
        ]
    elif k == 5:
        tok = J("o", "y2") + rs(r, LALNUM, 43)
        T = [
            lambda: (
                f"dotnet nuget push bin/Release/*.nupkg --api-key {tok} --source https://api.nuget.org/v3/index.json"
            ),
            lambda: f"nuget setapikey {tok} -Source https://www.nuget.org",
        ]
    elif k == 6:
        tok = J("dckr", "_pat_") + rs(r, B64URL, 27)
        T = [
            lambda: f"echo {tok} | docker login -u {name(r)} --password-stdin",
            lambda: f"DOCKERHUB_TOKEN={tok}\nDOCKERHUB_USERNAME={org(r)}bot",
        ]
    elif k == 7:
        tok = J("ci", "o") + rs(r, ALNUM, 32)
        T = [lambda: f"cargo login {tok}", lambda: f'# ~/.cargo/credentials.toml\n[registry]\ntoken = "{tok}"']
    else:
        tok = J("AK", "Cp") + rs(r, ALNUM, 69)
        T = [
            lambda: f"artifactory_user={name(r)}\nartifactory_password={tok}",
            lambda: f'curl -H "X-JFrog-Art-Api: {tok}" https://{org(r)}.jfrog.io/artifactory/api/repositories',
        ]
    T = [*T, lambda: f"publish token for the {svc(r)} package (scoped to upload only): {tok}"]
    return wrap(r, _pick(r, T)), tok


def k_email_sms_api_key(r):
    k = r.randrange(9)
    d = domain(r)
    if k == 0:
        key = J("S", "G.") + rs(r, B64URL, 22) + "." + rs(r, B64URL, 43)
        T = [
            lambda: f"SENDGRID_API_KEY={key}",
            lambda: f"sg = SendGridAPIClient('{key}')",
            lambda: (
                f"curl --request POST --url https://api.sendgrid.com/v3/mail/send --header 'Authorization: Bearer {key}' --header 'Content-Type: application/json' -d @mail.json"
            ),
            lambda: f"EMAIL_HOST_USER = 'apikey'\nEMAIL_HOST_PASSWORD = '{key}'",
        ]
    elif k == 1:
        key = J("ke", "y-") + rhex(r, 32)
        T = [
            lambda: f"MAILGUN_API_KEY={key}\nMAILGUN_DOMAIN=mg.{d}",
            lambda: (
                f"curl -s --user 'api:{key}' https://api.mailgun.net/v3/mg.{d}/messages -F from='noreply@{d}' -F to={email(r)} -F subject=hi -F text=test"
            ),
        ]
    elif k == 2:
        key = rhex(r, 32) + "-us" + str(r.randint(1, 21))
        T = [
            lambda: f"MAILCHIMP_API_KEY={key}",
            lambda: f"client.set_config({{'api_key': '{key}', 'server': '{key.split('-')[1]}'}})",
        ]
    elif k == 3:
        key = rhex(r, 32)
        sid = "AC" + rhex(r, 32)
        T = [
            lambda: f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={key}",
            lambda: f'client = Client("{sid}", "{key}")',
            lambda: (
                f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json --data-urlencode 'Body=OTP test' -u {sid}:{key}"
            ),
        ]
    elif k == 4:
        key = J("xkey", "sib-") + rhex(r, 64) + "-" + rs(r, ALNUM, 16)
        T = [lambda: f"BREVO_API_KEY={key}", lambda: f"curl -H 'api-key: {key}' https://api.brevo.com/v3/account"]
    elif k == 5:
        key = J("r", "e_") + rs(r, ALNUM, 8) + "_" + rs(r, ALNUM, 24)
        T = [lambda: f"const resend = new Resend('{key}');", lambda: f"RESEND_API_KEY={key}"]
    elif k == 6:
        key = ruuid(r)
        T = [
            lambda: (
                f"curl https://api.postmarkapp.com/email -H 'Accept: application/json' -H 'Content-Type: application/json' -H 'X-Postmark-Server-Token: {key}' -d @msg.json"
            ),
            lambda: f"POSTMARK_SERVER_TOKEN={key}",
        ]
    elif k == 7:
        key = rs(r, ALNUM, 16)
        T = [
            lambda: f"VONAGE_API_KEY={rhex(r, 8)}\nVONAGE_API_SECRET={key}",
            lambda: f"client = vonage.Client(key=os.environ['VONAGE_API_KEY'], secret='{key}')",
        ]
    else:
        key = rs(r, ALNUM, 40)
        aid = "MA" + rs(r, UALNUM, 18)
        T = [
            lambda: f"PLIVO_AUTH_ID={aid}\nPLIVO_AUTH_TOKEN={key}",
            lambda: f"client = plivo.RestClient('{aid}', '{key}')",
        ]
    T = [*T, lambda: f"{name(r)}: transactional mail key for {d} is {key} (the old one got revoked)"]
    return wrap(r, _pick(r, T)), key


def k_observability_token(r):
    k = r.randrange(10)
    if k == 0:
        key = rhex(r, 32)
        T = [
            lambda: f"DD_API_KEY={key}\nDD_SITE=datadoghq.eu",
            lambda: f"# /etc/datadog-agent/datadog.yaml\napi_key: {key}\nsite: datadoghq.com",
            lambda: f"helm install datadog datadog/datadog --set datadog.apiKey={key} --set datadog.site=datadoghq.com",
            lambda: f"docker run -d -e DD_API_KEY={key} -e DD_SITE=datadoghq.com gcr.io/datadoghq/agent:7",
        ]
    elif k == 1:
        key = rhex(r, 40)
        T = [
            lambda: f"DD_APP_KEY={key}",
            lambda: (
                f"curl -H 'DD-API-KEY: ${{DD_API_KEY}}' -H 'DD-APPLICATION-KEY: {key}' https://api.datadoghq.com/api/v1/monitor"
            ),
        ]
    elif k == 2:
        key = J("NR", "AK-") + rs(r, UALNUM, 27)
        T = [
            lambda: f"NEW_RELIC_API_KEY={key}",
            lambda: f"curl -X POST https://api.newrelic.com/graphql -H 'API-Key: {key}' -d @query.json",
        ]
    elif k == 3:
        key = rhex(r, 36) + J("NR", "AL")
        T = [lambda: f"license_key: {key}\napp_name: {svc(r)}-{env(r)}", lambda: f"NEW_RELIC_LICENSE_KEY={key}"]
    elif k == 4:
        key = J("gl", "sa_") + rs(r, ALNUM, 32) + "_" + rhex(r, 8)
        T = [
            lambda: f"GRAFANA_SERVICE_ACCOUNT_TOKEN={key}",
            lambda: f'curl -H "Authorization: Bearer {key}" https://grafana.{domain(r)}/api/dashboards/home',
            lambda: f'provider "grafana" {{\n  url  = "https://grafana.{domain(r)}"\n  auth = "{key}"\n}}',
        ]
    elif k == 5:
        inner = json.dumps(
            {
                "o": str(r.randint(100000, 999999)),
                "n": f"{svc(r)}-writer",
                "k": rs(r, ALNUM, 24),
                "m": {"r": r.choice(["prod-us-east-0", "prod-eu-west-2"])},
            },
            separators=(",", ":"),
        )
        key = J("gl", "c_") + b64(inner.encode())
        T = [
            lambda: f"GRAFANA_CLOUD_TOKEN={key}",
            lambda: (
                f"remote_write:\n  - url: https://prometheus-prod-13-prod-us-east-0.grafana.net/api/prom/push\n    basic_auth:\n      username: {r.randint(100000, 999999)}\n      password: {key}"
            ),
        ]
    elif k == 6:
        key = (
            J("sntr", "ys_")
            + b64(
                json.dumps(
                    {
                        "iat": r.randint(1_700_000_000, 1_760_000_000),
                        "url": "https://sentry.io",
                        "region_url": "https://us.sentry.io",
                        "org": org(r),
                    },
                    separators=(",", ":"),
                ).encode()
            ).rstrip("=")
            + "_"
            + rs(r, B64URL, 43)
        )
        T = [
            lambda: f"SENTRY_AUTH_TOKEN={key}",
            lambda: f"sentry-cli --auth-token {key} releases new {svc(r)}@{r.randint(1, 9)}.{r.randint(0, 30)}.0",
        ]
    elif k == 7:
        key = rs(r, ALNUM, 22)
        T = [
            lambda: (
                f'curl https://api.honeycomb.io/1/events/{svc(r)} -X POST -H "X-Honeycomb-Team: {key}" -d \'{{"duration_ms": 153}}\''
            ),
            lambda: f'OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team={key}"',
        ]
    elif k == 8:
        key = ruuid(r)
        T = [
            lambda: (
                f'curl -k https://splunk.{domain(r)}:8088/services/collector -H "Authorization: Splunk {key}" -d \'{{"event": "hello"}}\''
            ),
            lambda: f"[splunk]\nhec_url = https://splunk.{domain(r)}:8088\nhec_token = {key}",
        ]
    else:
        key = b64(f"{rs(r, B64URL, 20)}:{rs(r, B64URL, 22)}".encode())
        T = [
            lambda: f'curl -H "Authorization: ApiKey {key}" https://es.{domain(r)}:9243/_cluster/health',
            lambda: f'output.elasticsearch:\n  hosts: ["https://es.{domain(r)}:9243"]\n  api_key_encoded: "{key}"',
        ]
    return wrap(r, _pick(r, T)), key


def k_ci_cd_token(r):
    k = r.randrange(11)
    o, rp = org(r), repo(r)
    if k == 0:
        key = J("CCI", "PAT_") + rs(r, ALNUM, 22) + "_" + rhex(r, 40)
        T = [
            lambda: f"CIRCLECI_TOKEN={key}",
            lambda: f'curl -H "Circle-Token: {key}" https://circleci.com/api/v2/project/gh/{o}/{rp}/pipeline',
        ]
    elif k == 1:
        key = J("bku", "a_") + rhex(r, 40)
        T = [
            lambda: f"BUILDKITE_API_TOKEN={key}",
            lambda: f'curl -H "Authorization: Bearer {key}" https://api.buildkite.com/v2/organizations/{o}/pipelines',
        ]
    elif k == 2:
        key = "11" + rhex(r, 32)
        T = [
            lambda: (
                f"curl -X POST -u {name(r)}:{key} https://jenkins.{domain(r)}/job/{rp}/buildWithParameters?BRANCH=main"
            ),
            lambda: f"JENKINS_USER={name(r)}\nJENKINS_API_TOKEN={key}",
        ]
    elif k == 3:
        key = rs(r, ALNUM, 14) + J(".atlas", "v1.") + rs(r, ALNUM, 67)
        T = [
            lambda: json.dumps({"credentials": {"app.terraform.io": {"token": key}}}, indent=2),
            lambda: f"TF_TOKEN_app_terraform_io={key}",
        ]
    elif k == 4:
        key = J("dp.", "st.") + env(r) + "." + rs(r, ALNUM, 40)
        T = [
            lambda: f"DOPPLER_TOKEN={key} doppler run -- npm start",
            lambda: f"docker run -e DOPPLER_TOKEN={key} {o}/{svc(r)}",
        ]
    elif k == 5:
        key = J("pu", "l-") + rhex(r, 40)
        T = [
            lambda: f"export PULUMI_ACCESS_TOKEN={key}\npulumi up --stack {o}/{env(r)}",
            lambda: f"PULUMI_ACCESS_TOKEN: {key}",
        ]
    elif k == 6:
        key = rs(r, ALNUM, 24)
        T = [
            lambda: f"vercel deploy --prod --token {key}",
            lambda: f"VERCEL_TOKEN={key}\nVERCEL_ORG_ID=team_{rs(r, ALNUM, 24)}",
        ]
    elif k == 7:
        key = J("nf", "p_") + rs(r, ALNUM, 36)
        T = [
            lambda: f"NETLIFY_AUTH_TOKEN={key} netlify deploy --prod --dir=dist",
            lambda: f"netlify login token: {key}",
        ]
    elif k == 8:
        key = J("sq", "p_") + rhex(r, 40)
        T = [
            lambda: (
                f"sonar-scanner -Dsonar.projectKey={o}_{rp} -Dsonar.host.url=https://sonar.{domain(r)} -Dsonar.token={key}"
            ),
            lambda: f"SONAR_TOKEN={key}",
        ]
    elif k == 9:
        key = "A" + rs(r, UALNUM, 28)
        T = [
            lambda: f"./config.sh --url https://github.com/{o}/{rp} --token {key} --labels self-hosted,linux,{svc(r)}",
            lambda: f"runner registration token (valid 1h): {key}",
        ]
    else:
        key = ruuid(r)
        var = r.choice(["CODECOV_TOKEN", "SNYK_TOKEN"])
        T = [
            lambda: f"{var}={key}",
            lambda: f"      - uses: codecov/codecov-action@v4\n        with:\n          token: {key}",
        ]
    T = [*T, lambda: f"{name(r)}: CI for {rp} needs this token, added to the pipeline settings: {key}"]
    return wrap(r, _pick(r, T)), key


def k_vault_token(r):
    k = r.randrange(5)
    if k in (0, 1):
        key = J("hv", "s.") + (rs(r, B64URL, 24) if r.random() < 0.4 else "CAESI" + rs(r, B64URL, 86))
    elif k == 2:
        key = J("hv", "b.") + "AAAAAQ" + rs(r, B64URL, 120)
    elif k == 3:
        key = J("s", ".") + rs(r, ALNUM, 24)
    else:
        key = b64(rbytes(r, 32))
    addr = f"https://vault.{domain(r)}:8200"
    if k == 4:
        T = [
            lambda: (
                f"Unseal Key 1: {key}\nUnseal Key 2: (stored with {name(r)})\nUnseal Key 3: (stored with {name(r)})"
            ),
            lambda: f"vault operator unseal {key}",
            lambda: f"unseal share for {name(r)}: {key}",
        ]
    else:
        T = [
            lambda: f"export VAULT_ADDR={addr}\nexport VAULT_TOKEN={key}",
            lambda: f"vault login {key}",
            lambda: f'curl -H "X-Vault-Token: {key}" {addr}/v1/secret/data/{svc(r)}/{env(r)}',
            lambda: f"client = hvac.Client(url='{addr}', token='{key}')",
            lambda: f'provider "vault" {{\n  address = "{addr}"\n  token   = "{key}"\n}}',
            lambda: f"Initial Root Token: {key}\n(unseal keys were split across the three leads)",
            lambda: f"root token after the rekey: {key}",
        ]
    return wrap(r, _pick(r, T)), key


def k_messaging_bot_token(r):
    k = r.randrange(5)
    if k in (0, 1):
        key = rdig(r, r.randint(9, 10)) + ":AA" + rs(r, B64URL, 33)
        T = [
            lambda: (
                f"curl -s https://api.telegram.org/bot{key}/sendMessage -d chat_id=-100{rdig(r, 10)} -d text='backup done'"
            ),
            lambda: f"TELEGRAM_BOT_TOKEN={key}",
            lambda: f'bot = telebot.TeleBot("{key}")',
            lambda: f'app = Application.builder().token("{key}").build()',
            lambda: f"BotFather gave me {key} for the alerts bot",
        ]
    elif k == 2:
        key = b64(rdig(r, 18).encode()).rstrip("=") + "." + rs(r, B64URL, 6) + "." + rs(r, B64URL, 38)
        T = [
            lambda: f"DISCORD_TOKEN={key}",
            lambda: f"client.run('{key}')",
            lambda: f'client.login("{key}");',
            lambda: f"the music bot token is {key} -- regenerate it if it leaks",
        ]
    elif k == 3:
        key = b64(rbytes(r, 129))
        T = [lambda: f"LINE_CHANNEL_ACCESS_TOKEN={key}", lambda: f"line_bot_api = LineBotApi('{key}')"]
    else:
        key = J("oauth", ":") + rs(r, LALNUM, 30)
        T = [lambda: f"PASS {key}\nNICK {name(r)}bot\nJOIN #{name(r)}", lambda: f"TWITCH_OAUTH={key}"]
    return wrap(r, _pick(r, T)), key


def k_session_cookie(r):
    k = r.randrange(8)
    d = f"app.{domain(r)}"
    if k == 0:
        cn, v = "sessionid", rs(r, LALNUM, 32)
    elif k == 1:
        cn, v = "PHPSESSID", rs(r, LALNUM, 26)
    elif k == 2:
        cn, v = (
            "connect.sid",
            "s%3A" + rs(r, B64URL, 32) + "." + urllib.parse.quote(b64(rbytes(r, 32)).rstrip("="), safe=""),
        )
    elif k == 3:
        cn, v = (
            f"_{svc(r)}_session",
            urllib.parse.quote(b64(rbytes(r, r.randint(120, 200))), safe="") + "--" + rhex(r, 40),
        )
    elif k == 4:
        cn, v = "JSESSIONID", rs(r, UHEX, 32)
    elif k == 5:
        cn, v = ".AspNetCore.Cookies", J("CfD", "J8") + rs(r, B64URL, r.randint(250, 400))
    elif k == 6:
        cn, v = (
            "__Secure-next-auth.session-token",
            b64u(b'{"alg":"dir","enc":"A256GCM"}')
            + ".."
            + rs(r, B64URL, 22)
            + "."
            + rs(r, B64URL, r.randint(300, 500))
            + "."
            + rs(r, B64URL, 22),
        )
    else:
        cn, v = (
            "laravel_session",
            urllib.parse.quote(
                b64(
                    json.dumps(
                        {"iv": b64(rbytes(r, 16)), "value": b64(rbytes(r, 96)), "mac": rhex(r, 64), "tag": ""},
                        separators=(",", ":"),
                    ).encode()
                ),
                safe="",
            ),
        )
    T = [
        lambda: f"curl 'https://{d}/api/me' -H 'Cookie: {cn}={v}; theme=dark; lang=en'",
        lambda: f"Set-Cookie: {cn}={v}; Path=/; HttpOnly; Secure; SameSite=Lax",
        lambda: f's = requests.Session()\ns.cookies.set("{cn}", "{v}", domain="{d}")',
        lambda: f".{d}\tTRUE\t/\tTRUE\t0\t{cn}\t{v}",
        lambda: json.dumps(
            {"cookies": [{"name": cn, "value": v, "domain": d, "path": "/", "httpOnly": True, "secure": True}]},
            indent=2,
        ),
        lambda: f'{tstamp(r)} GET /dashboard 200 ua="Mozilla/5.0" cookie="{cn}={v}"',
        lambda: f'paste this into devtools to log in as the QA user: document.cookie = "{cn}={v}"',
        lambda: f"{cn}\n{v}\n{d}\n/\nSession",
    ]
    return wrap(r, _pick(r, T)), v


def k_oauth_client_secret(r):
    k = r.randrange(8)
    d = domain(r)
    if k == 0:
        cid = f"{rdig(r, 12)}-{rs(r, LALNUM, 32)}.apps.googleusercontent.com"
        sec = J("GOC", "SPX-") + rs(r, B64URL, 28)
    elif k == 1:
        cid = r.choice(["Ov23li" + rs(r, ALNUM, 14), "Iv1." + rhex(r, 16)])
        sec = rhex(r, 40)
    elif k == 2:
        cid, sec = rs(r, ALNUM, 32), rs(r, B64URL, 64)
    elif k == 3:
        cid, sec = rdig(r, 15), rhex(r, 32)
    elif k == 4:
        cid, sec = rhex(r, 32), rhex(r, 32)
    elif k == 5:
        cid, sec = f"{svc(r)}-client", rs(r, ALNUM, 32)
    elif k == 6:
        cid, sec = "0oa" + rs(r, ALNUM, 17), rs(r, B64URL, 40)
    else:
        cid, sec = rs(r, ALNUM, 20), rs(r, B64URL, 43)
    prov = ["Google", "GitHub", "Auth0", "Facebook", "Spotify", "Keycloak", "Okta", "Discord"][k]
    T = [
        lambda: json.dumps(
            {
                "web": {
                    "client_id": cid,
                    "project_id": f"{org(r)}-{env(r)}",
                    "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                    "token_uri": "https://oauth2.googleapis.com/token",
                    "client_secret": sec,
                    "redirect_uris": [f"https://{d}/oauth2/callback"],
                }
            },
            indent=2,
        ),
        lambda: f"{prov.upper()}_CLIENT_ID={cid}\n{prov.upper()}_CLIENT_SECRET={sec}",
        lambda: f'{prov}Provider({{\n  clientId: "{cid}",\n  clientSecret: "{sec}",\n}})',
        lambda: (
            f"spring.security.oauth2.client.registration.{prov.lower()}.client-id={cid}\nspring.security.oauth2.client.registration.{prov.lower()}.client-secret={sec}"
        ),
        lambda: (
            f"curl -X POST https://auth.{d}/oauth/token -d grant_type=client_credentials -d client_id={cid} -d client_secret={sec}"
        ),
        lambda: (
            f'# oauth2-proxy.cfg\nprovider = "oidc"\nclient_id = "{cid}"\nclient_secret = "{sec}"\ncookie_secure = true'
        ),
        lambda: (
            f"passport.use(new Strategy({{ clientID: '{cid}', clientSecret: '{sec}', callbackURL: '/auth/callback' }}))"
        ),
        lambda: f"{name(r)}: app registered. id {cid}, secret {sec} -- secret is only shown once so I'm saving it here",
        lambda: f"oauth:\n  client_id: {cid}\n  client_secret: {sec}\n  scopes: [openid, email]",
    ]
    if k != 0:
        T = T[1:]
    return wrap(r, _pick(r, T)), sec


def k_recovery_and_2fa_secret(r):
    k = r.randrange(8)
    svcname = r.choice(
        ["GitHub", "GitLab", "AWS root", "Google Workspace", "Okta", "Cloudflare", "npm", "Stripe", "Atlassian"]
    )
    if k == 0:
        codes = [f"{rhex(r, 5)}-{rhex(r, 5)}" for _ in range(16)]
        sec = "\n".join(codes)
        return wrap(r, f"{svcname} recovery codes for {name(r)}@{domain(r)} (generated {date(r)}):\n{sec}"), sec
    if k == 1:
        codes = [f"{rdig(r, 4)} {rs(r, DIGITS, 4)}" for _ in range(10)]
        sec = "\n".join(codes)
        return wrap(r, f"Backup codes\n{sec}\nKeep these somewhere safe."), sec
    if k == 2:
        c = f"{rdig(r, 4)}-{rs(r, DIGITS, 4)}"
        return wrap(
            r,
            r.choice(
                [
                    f"if the yubikey is lost, use backup code {c}",
                    f"{name(r)}: recovery code for the shared admin account is {c}",
                ]
            ),
        ), c
    if k == 3:
        sec = "A3-" + "-".join([rs(r, UALNUM, 6), rs(r, UALNUM, 6)] + [rs(r, UALNUM, 5) for _ in range(4)])
        return wrap(
            r, r.choice([f"1Password Secret Key: {sec}", f"Emergency kit for {email(r)}\nSecret Key {sec}"])
        ), sec
    if k == 4:
        sec = "-".join(f"{r.randint(0, 999999):06d}" for _ in range(8))
        return wrap(
            r, f"BitLocker recovery key for {r.choice(['LAPTOP', 'WS', 'DESKTOP'])}-{rs(r, UALNUM, 6)}:\n{sec}"
        ), sec
    if k == 5:
        sec = rs(r, BASE32, 32)
        iss = svcname.replace(" ", "")
        return wrap(
            r,
            r.choice(
                [
                    f"otpauth://totp/{iss}:{email(r)}?secret={sec}&issuer={iss}&digits=6",
                    f"TOTP seed for the shared {svcname} login: {sec}",
                ]
            ),
        ), sec
    if k == 6:
        raw = rs(r, BASE32.lower(), 32)
        sec = " ".join(chunks(raw, 4))
        return wrap(r, f"{svcname} 2FA setup key (can't scan QR on the jump box): {sec}"), sec
    sec = "-".join(rs(r, UALNUM, 4) for _ in range(7))
    return wrap(r, f"Apple ID recovery key for {email(r)}: {sec}"), sec


def k_vpn_secret(r):
    k = r.randrange(9)
    ep = f"vpn.{domain(r)}"
    if k in (0, 1):
        key = b64(rbytes(r, 32))
        pub = b64(rbytes(r, 32))
        T = [
            lambda: (
                f"[Interface]\nPrivateKey = {key}\nAddress = 10.{r.randint(0, 250)}.0.{r.randint(2, 200)}/24\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = {pub}\nAllowedIPs = 0.0.0.0/0, ::/0\nEndpoint = {ep}:51820\nPersistentKeepalive = 25"
            ),
            lambda: f"wg set wg0 private-key <(echo {key})",
            lambda: f'/interface wireguard add listen-port=13231 name=wg-{org(r)} private-key="{key}"',
        ]
    elif k == 2:
        key = b64(rbytes(r, 32))
        pub = b64(rbytes(r, 32))
        T = [
            lambda: (
                f"[Peer]\n# {name(r)}-laptop\nPublicKey = {pub}\nPresharedKey = {key}\nAllowedIPs = 10.8.0.{r.randint(2, 250)}/32"
            )
        ]
    elif k == 3:
        label = J("Open", "VPN Static key V1")
        body = "\n".join(rhex(r, 32) for _ in range(16))
        key = f"{DASH5}BEGIN {label}{DASH5}\n{body}\n{DASH5}END {label}{DASH5}"
        T = [
            lambda: f"client\ndev tun\nproto udp\nremote {ep} 1194\nkey-direction 1\n<tls-auth>\n{key}\n</tls-auth>",
            lambda: f"<tls-crypt>\n{key}\n</tls-crypt>",
        ]
    elif k == 4:
        key = pw(r, SY_BARE + "!@#%")
        T = [
            lambda: f'# /etc/ipsec.secrets\n{ip(r)} %any : PSK "{key}"',
            lambda: f'secrets {{\n  ike-{org(r)} {{\n    id = {ep}\n    secret = "{key}"\n  }}\n}}',
        ]
    elif k == 5:
        key = pw(r, SY_BARE)
        T = [
            lambda: f"crypto isakmp key {key} address {ip(r)}",
            lambda: f"site-to-site PSK with the {org(r)} office: {key}",
        ]
    elif k == 6:
        key = J("tskey-", "auth-") + "k" + rs(r, ALNUM, 10) + "CNTRL-" + rs(r, ALNUM, 33)
        T = [
            lambda: f"tailscale up --authkey={key} --advertise-routes=10.0.0.0/24 --ssh",
            lambda: (
                f"  tailscale:\n    image: tailscale/tailscale:latest\n    environment:\n      - TS_AUTHKEY={key}\n      - TS_STATE_DIR=/var/lib/tailscale"
            ),
        ]
    elif k == 7:
        key = " ".join(rs(r, DIGITS, 4) for _ in range(4))
        T = [lambda: f"Mullvad account number for the team: {key}", lambda: f"vpn login (account no.): {key}"]
    else:
        key = rhex(r, 48)
        T = [
            lambda: f"headscale preauthkeys create --user {name(r)} --reusable --expiration 24h\n{key}",
            lambda: f"tailscale up --login-server https://hs.{domain(r)} --authkey {key}",
        ]
    return wrap(r, _pick(r, T)), key


def k_iot_home_automation(r):
    k = r.randrange(10)
    hl = r.choice(["homeassistant.local:8123", f"{lan_ip(r)}:8123", f"ha.{domain(r)}"])
    if k in (0, 1):
        iat = r.randint(1_690_000_000, 1_750_000_000)
        key = make_jwt(r, {"iss": rhex(r, 32), "iat": iat, "exp": iat + 315360000})
        T = [
            lambda: (
                f'curl -H "Authorization: Bearer {key}" -H "Content-Type: application/json" http://{hl}/api/states/sensor.living_room_temperature'
            ),
            lambda: f"# secrets.yaml\nha_long_lived_token: {key}",
            lambda: f"HASS_TOKEN={key}\nHASS_URL=http://{hl}",
        ]
    elif k == 2:
        key = b64(rbytes(r, 32))
        T = [lambda: f'api:\n  encryption:\n    key: "{key}"\n\nota:\n  - platform: esphome']
    elif k == 3:
        key = pw(r, SY_BARE)
        T = [
            lambda: (
                f"connection bridge-{org(r)}\naddress {lan_ip(r)}:1883\nremote_username {name(r)}\nremote_password {key}"
            ),
            lambda: f"mqtt:\n  server: mqtt://{lan_ip(r)}:1883\n  user: zigbee\n  password: {key}",
            lambda: f"mosquitto_pub -h {lan_ip(r)} -u sensors -P {key} -t home/garage/door -m open",
            lambda: f"Backlog MqttHost {lan_ip(r)}; MqttUser tasmota; MqttPassword {key}",
        ]
    elif k == 4:
        key = rs(r, ALNUM + "-", 40)
        T = [
            lambda: f"curl http://{lan_ip(r)}/api/{key}/lights/3/state -X PUT -d '{{\"on\": true}}'",
            lambda: f"hue bridge username (app key): {key}",
        ]
    elif k == 5:
        key = rhex(r, 40)
        T = [
            lambda: f"PARTICLE_ACCESS_TOKEN={key}",
            lambda: f"curl https://api.particle.io/v1/devices?access_token={key}",
        ]
    elif k == 6:
        key = rs(r, ALNUM + "_-", 32)
        T = [
            lambda: (
                f'#define BLYNK_TEMPLATE_ID "TMPL{rs(r, ALNUM, 8)}"\n#define BLYNK_TEMPLATE_NAME "Greenhouse"\n#define BLYNK_AUTH_TOKEN "{key}"'
            )
        ]
    elif k == 7:
        key = rhex(r, 32)
        T = [
            lambda: f"TUYA_ACCESS_ID={rs(r, LALNUM, 20)}\nTUYA_ACCESS_SECRET={key}",
            lambda: f"openapi = TuyaOpenAPI(ENDPOINT, ACCESS_ID, '{key}')",
        ]
    elif k == 8:
        key = pw(r, SY_DQ)
        T = [
            lambda: f'const char* ssid = "{org(r)}-iot";\nconst char* password = "{key}";\nWiFi.begin(ssid, password);',
            lambda: f'wifi:\n  ssid: "{org(r)}-iot"\n  password: "{key}"',
        ]
    else:
        key = ruuid(r)
        T = [
            lambda: f'curl -H "Authorization: Bearer {key}" https://api.smartthings.com/v1/devices',
            lambda: f"SMARTTHINGS_TOKEN={key}",
        ]
    return wrap(r, _pick(r, T)), key


def k_crypto_exchange_secret(r):
    k = r.randrange(10)
    if k == 0:
        key = rs(r, ALNUM, 64)
        T = [
            lambda: f"BINANCE_API_KEY=${{BINANCE_API_KEY}}\nBINANCE_API_SECRET={key}",
            lambda: f"client = Client(api_key=os.environ['BINANCE_KEY'], api_secret='{key}')",
        ]
    elif k == 1:
        key = b64(rbytes(r, 64))
        T = [
            lambda: f"exchange = ccxt.kraken({{'apiKey': os.getenv('KRAKEN_KEY'), 'secret': '{key}'}})",
            lambda: f"KRAKEN_PRIVATE_KEY={key}",
        ]
    elif k == 2:
        pem = priv_pem(r, "ec") + "\n"
        key = json.dumps(pem)[1:-1]
        T = [lambda: json.dumps({"name": f"organizations/{ruuid(r)}/apiKeys/{ruuid(r)}", "privateKey": pem}, indent=2)]
    elif k == 3:
        key = "0x" + rhex(r, 64)
        T = [
            lambda: f"PRIVATE_KEY={key}\nRPC_URL=https://sepolia.infura.io/v3/${{INFURA_ID}}",
            lambda: f'networks: {{\n  mainnet: {{ url: process.env.RPC_URL, accounts: ["{key}"] }}\n}}',
            lambda: f'DEPLOYER_PRIVATE_KEY="{key}"',
        ]
    elif k == 4:
        key = " ".join(r.choice(BIP39) for _ in range(r.choice([12, 12, 24])))
        T = [
            lambda: f'MNEMONIC="{key}"',
            lambda: f"seed phrase for the treasury hot wallet:\n{key}",
            lambda: f"{name(r)}: restore it with these words: {key}",
        ]
    elif k == 5:
        key = rhex(r, 32)
        T = [
            lambda: f"INFURA_API_SECRET={key}",
            lambda: f"INFURA_PROJECT_SECRET={q(r, key)}  # needed since we enabled 'require secret'",
        ]
    elif k == 6:
        key = rs(r, ALNUM + "_-", 32)
        T = [
            lambda: f"ALCHEMY_URL=https://eth-mainnet.g.alchemy.com/v2/{key}",
            lambda: f'const provider = new ethers.JsonRpcProvider("https://arb-mainnet.g.alchemy.com/v2/{key}");',
        ]
    elif k == 7:
        key = rs(r, UALNUM, 34)
        T = [lambda: f"ETHERSCAN_API_KEY={key}", lambda: f'etherscan: {{ apiKey: "{key}" }}']
    elif k == 8:
        key = "[" + ",".join(str(r.randint(0, 255)) for _ in range(64)) + "]"
        T = [lambda: f"$ cat ~/.config/solana/id.json\n{key}", lambda: f"PAYER_KEYPAIR='{key}'"]
    else:
        key = r.choice("KL") + rs(r, BASE58, 51)
        T = [
            lambda: f'bitcoin-cli importprivkey {key} "cold-{date(r)}" false',
            lambda: f"WIF for the faucet wallet: {key}",
        ]
    return wrap(r, _pick(r, T)), key


def k_mobile_gamedev_secret(r):
    k = r.randrange(10)
    app = f"com.{org(r)}.{r.choice(['app', 'mobile', 'game', 'client'])}"
    if k == 0:
        key = J("AA", "AA") + rs(r, B64URL, 7) + ":" + J("APA", "91b") + rs(r, B64URL, 134)
        T = [
            lambda: (
                f'curl -X POST https://fcm.googleapis.com/fcm/send -H "Authorization: key={key}" -H "Content-Type: application/json" -d @push.json'
            ),
            lambda: f"FCM_SERVER_KEY={key}",
        ]
    elif k == 1:
        key = pw(r, SY_BARE)
        T = [
            lambda: f"storePassword={key}\nkeyAlias=upload\nstoreFile=../upload-keystore.jks",
            lambda: (
                f'signingConfigs {{\n    release {{\n        storeFile file("release.keystore")\n        storePassword "{key}"\n        keyAlias "{org(r)}"\n        keyPassword System.getenv("KEY_PASSWORD")\n    }}\n}}'
            ),
        ]
    elif k == 2:
        key = rs(r, B64URL, 40)
        T = [lambda: f"EXPO_TOKEN={key} eas build --platform ios --non-interactive", lambda: f"EXPO_TOKEN: {key}"]
    elif k == 3:
        key = pw(r, SY_BARE)
        T = [
            lambda: f"MATCH_PASSWORD={key} bundle exec fastlane ios beta",
            lambda: f"fastlane match passphrase for {app}: {key}",
        ]
    elif k == 4:
        key = "-".join(rs(r, LOWER, 4) for _ in range(4))
        T = [
            lambda: f"FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD={key}",
            lambda: f"xcrun altool --upload-app -f build/{org(r)}.ipa -u {email(r)} -p {key}",
        ]
    elif k == 5:
        key = priv_pem(r, "p8")
        kid = rs(r, UALNUM, 10)
        T = [
            lambda: f"$ cat AuthKey_{kid}.p8\n{key}",
            lambda: f"App Store Connect API key {kid} (issuer {ruuid(r)}):\n{key}",
        ]
    elif k == 6:
        key = rs(r, UHEX, 32)
        T = [
            lambda: (
                f"https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/?key={key}&steamids=7656119{rs(r, DIGITS, 10)}"
            ),
            lambda: f"STEAM_WEB_API_KEY={key}",
        ]
    elif k == 7:
        key = rs(r, UALNUM, 52)
        T = [
            lambda: (
                f'curl -X POST https://{rs(r, UHEX, 5)}.playfabapi.com/Server/GetUserData -H "X-SecretKey: {key}" -d @req.json'
            ),
            lambda: f'PlayFabSettings.staticSettings.DeveloperSecretKey = "{key}";',
        ]
    elif k == 8:
        key = J("os_", "v2_", "app_") + rs(r, LALNUM, 110)
        T = [
            lambda: f'curl -X POST https://api.onesignal.com/notifications -H "Authorization: Key {key}" -d @n.json',
            lambda: f"ONESIGNAL_REST_API_KEY={key}",
        ]
    else:
        key = J("1", "//0") + rs(r, B64URL, 100)
        T = [lambda: f"FIREBASE_TOKEN={key} firebase deploy --only hosting", lambda: f"firebase login:ci printed {key}"]
    return wrap(r, _pick(r, T)), key


def k_identity_provider_token(r):
    k = r.randrange(8)
    d = domain(r)
    if k == 0:
        key = J("0", "0") + rs(r, B64URL, 40)
        T = [
            lambda: f'curl -H "Authorization: SSWS {key}" https://{org(r)}.okta.com/api/v1/users?limit=25',
            lambda: f"OKTA_API_TOKEN={key}\nOKTA_ORG_URL=https://{org(r)}.okta.com",
        ]
    elif k == 1:
        t = org(r)
        iat = r.randint(1_700_000_000, 1_760_000_000)
        key = make_jwt(
            r,
            {
                "iss": f"https://{t}.eu.auth0.com/",
                "sub": f"{rs(r, ALNUM, 32)}@clients",
                "aud": f"https://{t}.eu.auth0.com/api/v2/",
                "iat": iat,
                "exp": iat + 86400,
                "gty": "client-credentials",
                "scope": "read:users update:users",
            },
            "RS256",
            rs(r, B64URL, 22),
        )
        T = [
            lambda: f"AUTH0_MGMT_TOKEN={key}",
            lambda: f'curl -H "Authorization: Bearer {key}" https://{t}.eu.auth0.com/api/v2/users',
        ]
    elif k == 2:
        key = J("sk", "_li", "ve_") + rs(r, ALNUM, 40)
        pub = J("pk", "_li", "ve_") + b64(f"clerk.{d}$".encode()).rstrip("=")
        T = [lambda: f"NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY={pub}\nCLERK_SECRET_KEY={key}"]
    elif k == 3:
        ref = rs(r, LALNUM, 20)
        iat = r.randint(1_690_000_000, 1_740_000_000)
        key = make_jwt(r, {"iss": "supabase", "ref": ref, "role": "service_role", "iat": iat, "exp": iat + 315360000})
        T = [
            lambda: f"SUPABASE_URL=https://{ref}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={key}",
            lambda: f"const supabase = createClient('https://{ref}.supabase.co', '{key}')",
        ]
    elif k == 4:
        key = rs(r, ALNUM, 40)
        T = [lambda: f"[duo]\nikey = DI{rs(r, UALNUM, 18)}\nskey = {key}\nhost = api-{rhex(r, 8)}.duosecurity.com"]
    elif k == 5:
        key = rhex(r, 64)
        T = [lambda: f"ONELOGIN_CLIENT_ID={rhex(r, 64)[:40]}\nONELOGIN_CLIENT_SECRET={key}"]
    elif k == 6:
        key = J("secret", "-live-") + rs(r, B64URL, 36)
        T = [lambda: f"STYTCH_PROJECT_ID=project-live-{ruuid(r)}\nSTYTCH_SECRET={key}"]
    else:
        key = rhex(r, 40)
        T = [
            lambda: f'curl -H "x-api-key: {key}" https://console.jumpcloud.com/api/systemusers',
            lambda: f"JUMPCLOUD_API_KEY={key}",
        ]
    T = [*T, lambda: f"{name(r)}: IdP admin token for the SCIM sync job: {key}"]
    return wrap(r, _pick(r, T)), key


def k_saas_productivity_token(r):
    k = r.randrange(11)
    d = domain(r)
    if k == 0:
        key = J("ATA", "TT3xFfGF0") + rs(r, B64URL, 180) + "=" + rs(r, UHEX, 8)
        T = [
            lambda: f"curl -u {email(r)}:{key} https://{org(r)}.atlassian.net/rest/api/3/myself",
            lambda: f"JIRA_API_TOKEN={key}\nJIRA_EMAIL={email(r)}",
        ]
    elif k == 1:
        key = J("lin_", "api_") + rs(r, ALNUM, 40)
        T = [
            lambda: f"LINEAR_API_KEY={key}",
            lambda: (
                f'curl https://api.linear.app/graphql -H "Authorization: {key}" -d \'{{"query":"{{ viewer {{ id }} }}"}}\''
            ),
        ]
    elif k == 2:
        key = r.choice([J("secr", "et_") + rs(r, ALNUM, 43), J("nt", "n_") + rdig(r, 11) + rs(r, ALNUM, 35)])
        T = [lambda: f'notion = Client(auth="{key}")', lambda: f"NOTION_TOKEN={key}"]
    elif k == 3:
        key = J("fig", "d_") + rs(r, B64URL, 40)
        T = [
            lambda: f"curl -H 'X-Figma-Token: {key}' https://api.figma.com/v1/files/{rs(r, ALNUM, 22)}",
            lambda: f"FIGMA_TOKEN={key}",
        ]
    elif k == 4:
        key = J("pa", "t") + rs(r, ALNUM, 14) + "." + rhex(r, 64)
        T = [
            lambda: f"AIRTABLE_PAT={key}",
            lambda: f"api = Api('{key}')\ntable = api.table('app{rs(r, ALNUM, 14)}', 'Leads')",
        ]
    elif k == 5:
        key = f"2/{rdig(r, 16)}/{rdig(r, 16)}:{rhex(r, 32)}"
        T = [
            lambda: f'curl -H "Authorization: Bearer {key}" https://app.asana.com/api/1.0/users/me',
            lambda: f"ASANA_PAT={key}",
        ]
    elif k == 6:
        key = J("AT", "TA") + rhex(r, 64) + rs(r, UHEX, 8)
        T = [
            lambda: f'curl "https://api.trello.com/1/members/me/boards?key=$TRELLO_KEY&token={key}"',
            lambda: f"TRELLO_TOKEN={key}",
        ]
    elif k == 7:
        key = J("p", "k_") + rdig(r, 8) + "_" + rs(r, UALNUM, 32)
        T = [
            lambda: f"curl -H 'Authorization: {key}' https://api.clickup.com/api/v2/team",
            lambda: f"CLICKUP_TOKEN={key}",
        ]
    elif k == 8:
        key = J("pat-", "na1-") + ruuid(r)
        T = [lambda: f"HUBSPOT_ACCESS_TOKEN={key}", lambda: f"client = HubSpot(access_token='{key}')"]
    elif k == 9:
        key = rs(r, ALNUM, 40)
        T = [
            lambda: f"curl https://{org(r)}.zendesk.com/api/v2/tickets.json -u {email(r)}/token:{key}",
            lambda: f"ZENDESK_API_TOKEN={key}",
        ]
    else:
        key = b64(f"tok:{ruuid(r)}:1:0".encode())
        T = [
            lambda: f"curl https://api.intercom.io/contacts -H 'Authorization: Bearer {key}'",
            lambda: f"INTERCOM_ACCESS_TOKEN={key}",
        ]
    T = [*T, lambda: f"{name(r)}: the integration token for {d} is {key}, scoped to one workspace"]
    return wrap(r, _pick(r, T)), key


def k_cloud_hosting_token(r):
    k = r.randrange(12)
    if k == 0:
        key = J("do", "p_v1_") + rhex(r, 64)
        T = [
            lambda: f"doctl auth init -t {key}",
            lambda: f"DIGITALOCEAN_TOKEN={key}",
            lambda: f'provider "digitalocean" {{\n  token = "{key}"\n}}',
        ]
    elif k == 1:
        key = rs(r, B64URL, 40)
        T = [
            lambda: f"CLOUDFLARE_API_TOKEN={key}",
            lambda: f'curl https://api.cloudflare.com/client/v4/user/tokens/verify -H "Authorization: Bearer {key}"',
            lambda: f"dns_cloudflare_api_token = {key}",
        ]
    elif k == 2:
        key = rhex(r, 37)
        T = [
            lambda: (
                f'curl -H "X-Auth-Email: {email(r)}" -H "X-Auth-Key: {key}" https://api.cloudflare.com/client/v4/zones'
            )
        ]
    elif k == 3:
        key = rs(r, ALNUM, 64)
        T = [
            lambda: f"export HCLOUD_TOKEN={key}\nhcloud server list",
            lambda: f'provider "hcloud" {{\n  token = "{key}"\n}}',
        ]
    elif k == 4:
        key = rhex(r, 64)
        T = [lambda: f"LINODE_TOKEN={key}", lambda: f"linode-cli configure --token {key}"]
    elif k == 5:
        key = J("Fly", "V1 fm2_") + rs(r, B64CH, 240)
        T = [lambda: f'FLY_API_TOKEN="{key}"', lambda: f'fly deploy --access-token "{key}"']
    elif k == 6:
        key = J("HR", "KU-") + "AA" + rs(r, B64URL, 58)
        T = [lambda: f"HEROKU_API_KEY={key}", lambda: f"machine api.heroku.com\n  login {email(r)}\n  password {key}"]
    elif k == 7:
        key = J("rn", "d_") + rs(r, ALNUM, 32)
        T = [
            lambda: f"RENDER_API_KEY={key}",
            lambda: f'curl -H "Authorization: Bearer {key}" https://api.render.com/v1/services',
        ]
    elif k == 8:
        key = rs(r, UALNUM, 36)
        T = [lambda: f"VULTR_API_KEY={key}"]
    elif k == 9:
        key = ruuid(r)
        T = [lambda: f"SCW_ACCESS_KEY=SCW{rs(r, UALNUM, 17)}\nSCW_SECRET_KEY={key}"]
    elif k == 10:
        key = J("sb", "p_") + rhex(r, 40)
        T = [lambda: f"SUPABASE_ACCESS_TOKEN={key} supabase db push", lambda: f"supabase login --token {key}"]
    else:
        tun = json.dumps({"a": rhex(r, 32), "t": ruuid(r), "s": b64(rbytes(r, 32))}, separators=(",", ":"))
        key = b64(tun.encode())
        T = [
            lambda: f"cloudflared tunnel run --token {key}",
            lambda: (
                f"  cloudflared:\n    image: cloudflare/cloudflared\n    command: tunnel run\n    environment:\n      - TUNNEL_TOKEN={key}"
            ),
        ]
    T = [*T, lambda: f"{name(r)}: infra token for the {env(r)} account: {key}"]
    return wrap(r, _pick(r, T)), key


def k_generic_api_key_in_code(r):
    key = r.choice([rhex(r, 32), rhex(r, 40), rs(r, ALNUM, 32), rs(r, ALNUM, 40), rs(r, B64URL, 43), rs(r, ALNUM, 48)])
    vendor = r.choice(
        ["weather", "geo", "fx", "news", "search", "partner", "pricing", "shipping", "sms", "ocr", "translate"]
    )
    VU, Vc = vendor.upper(), vendor.capitalize()
    T = [
        lambda: (
            f'{VU}_API_KEY = "{key}"\n\ndef fetch(city):\n    return requests.get(BASE, params={{"q": city, "appid": {VU}_API_KEY}}).json()'
        ),
        lambda: (
            f"const apiKey = '{key}';\nconst res = await fetch(`https://api.{vendor}.example.net/v1/quote?apikey=${{apiKey}}`);"
        ),
        lambda: f'export const config = {{\n  {vendor}ApiKey: "{key}",\n  timeoutMs: 5000,\n}};',
        lambda: (
            f'const {vendor}APISecret = "{key}"\n\nfunc newClient() *Client {{ return &Client{{secret: {vendor}APISecret}} }}'
        ),
        lambda: f'let api_key = "{key}";\nlet client = {Vc}Client::new(api_key);',
        lambda: f'private static final String API_SECRET = "{key}";',
        lambda: f'private const string ApiKey = "{key}";',
        lambda: f"$apiKey = '{key}';\n$client = new {Vc}Client($apiKey);",
        lambda: f"{Vc}.configure do |config|\n  config.api_key = '{key}'\nend",
        lambda: f'let apiKey = "{key}"\nlet url = URL(string: "https://api.{vendor}.io/v2/rates?key=\\(apiKey)")!',
        lambda: f'const val {VU}_API_KEY = "{key}"',
        lambda: (
            f"$apiKey = '{key}'\nInvoke-RestMethod -Uri \"https://api.{vendor}.io/v1/items\" -Headers @{{ 'X-Api-Key' = $apiKey }}"
        ),
        lambda: f"INSERT INTO integrations (name, api_key, enabled) VALUES ('{vendor}', '{key}', true);",
        lambda: f'#define {VU}_API_KEY "{key}"',
        lambda: f"const String apiKey = '{key}';",
        lambda: f'config :{org(r)}, :{vendor}, api_key: "{key}"',
        lambda: f'API_KEY="{key}"\ncurl -s "https://api.{vendor}.io/v1/lookup?key=$API_KEY&q=test"',
    ]
    return wrap(r, _pick(r, T)), key


def k_kubernetes_secret(r):
    k = r.randrange(7)
    ns = r.choice(["default", "prod", "payments", "monitoring", svc(r)])
    if k in (0, 1):
        p = pw(r, SY_ANY)
        key = b64(p.encode())
        return wrap(
            r,
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc(r)}-db\n  namespace: {ns}\ntype: Opaque\ndata:\n  username: {b64(dbuser(r).encode())}\n  password: {key}",
        ), key
    if k == 2:
        p = pw(r, SY_DQ)
        return wrap(
            r, f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc(r)}-creds\nstringData:\n  DB_PASSWORD: "{p}"'
        ), p
    if k == 3:
        iat = r.randint(1_700_000_000, 1_760_000_000)
        key = make_jwt(
            r,
            {
                "aud": ["https://kubernetes.default.svc.cluster.local"],
                "exp": iat + 31536000,
                "iat": iat,
                "iss": "https://kubernetes.default.svc.cluster.local",
                "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": f"{svc(r)}-ci", "uid": ruuid(r)}},
                "sub": f"system:serviceaccount:{ns}:{svc(r)}-ci",
            },
            "RS256",
            rs(r, B64URL, 43),
        )
        return wrap(r, f"users:\n- name: {svc(r)}-ci\n  user:\n    token: {key}"), key
    if k == 4:
        key = b64(priv_pem(r, "ec").encode() + b"\n")
        return wrap(
            r,
            f"users:\n- name: {name(r)}@{org(r)}-{env(r)}\n  user:\n    client-certificate-data: (see ~/.kube/certs)\n    client-key-data: {key}",
        ), key
    if k == 5:
        p = pw(r, SY_SQ)
        return wrap(
            r,
            f"kubectl -n {ns} create secret generic {svc(r)}-db --from-literal=username={dbuser(r)} --from-literal=password='{p}'",
        ), p
    key = rs(r, LALNUM, 6) + "." + rs(r, LALNUM, 16)
    return wrap(
        r, f"kubeadm join {ip(r)}:6443 --token {key} \\\n    --discovery-token-ca-cert-hash sha256:{rhex(r, 64)}"
    ), key


def k_docker_registry_auth(r):
    k = r.randrange(6)
    u, p = user(r), pw(r, SY_DQ)
    reg = r.choice(
        [
            "https://index.docker.io/v1/",
            f"registry.{domain(r)}",
            "ghcr.io",
            f"{rdig(r, 12)}.dkr.ecr.{region(r)}.amazonaws.com",
            f"{org(r)}.azurecr.io",
            "quay.io",
        ]
    )
    auth = b64(f"{u}:{p}".encode())
    if k in (0, 1):
        return wrap(r, json.dumps({"auths": {reg: {"auth": auth}}}, indent=2 if k == 0 else None)), auth
    if k == 2:
        blob = b64(json.dumps({"auths": {reg: {"username": u, "password": p, "auth": auth}}}).encode())
        return wrap(
            r,
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {blob}",
        ), blob
    if k == 3:
        return wrap(r, f'variables:\n  DOCKER_AUTH_CONFIG: \'{{"auths":{{"{reg}":{{"auth":"{auth}"}}}}}}\''), auth
    if k == 4:
        p2 = pw(r, SY_BARE)
        return wrap(
            r,
            f"skopeo copy --src-creds {u}:{p2} docker://{reg.split('/')[0]}/{org(r)}/{svc(r)}:1.{r.randint(0, 9)} docker://registry.{domain(r)}/{svc(r)}:1.{r.randint(0, 9)}",
        ), p2
    return wrap(r, f'echo \'{{"auths":{{"{reg}":{{"auth":"{auth}"}}}}}}\' > /kaniko/.docker/config.json'), auth


def k_http_auth_header(r):
    k = r.randrange(6)
    d = domain(r)
    if k == 0:
        key = rs(r, B64URL, r.choice([40, 43, 64]))
        hdr = f"Authorization: Bearer {key}"
    elif k == 1:
        key = b64(f"{user(r)}:{pw(r, SY_DQ)}".encode())
        hdr = f"Authorization: Basic {key}"
    elif k == 2:
        key = rhex(r, 32)
        hdr = f"X-API-Key: {key}"
    elif k == 3:
        key = rhex(r, 40)
        hdr = f"Authorization: Token {key}"
    elif k == 4:
        key = rs(r, ALNUM, 48)
        hdr = f"X-Auth-Token: {key}"
    else:
        key = rs(r, ALNUM, 32)
        hdr = f"Api-Key: {key}"
    hn, hv = hdr.split(": ", 1)
    T = [
        lambda: f'curl -sS https://{svc(r)}.{d}/v1/reports -H "{hdr}"',
        lambda: (
            f"GET /api/v2/{svc(r)}?page=2 HTTP/1.1\nHost: {svc(r)}.{d}\nAccept: application/json\n{hdr}\nUser-Agent: okhttp/4.12.0"
        ),
        lambda: json.dumps(
            {"request": {"method": "GET", "url": f"https://{svc(r)}.{d}/me", "headers": [{"name": hn, "value": hv}]}},
            indent=2,
        ),
        lambda: f"fetch('https://{svc(r)}.{d}/api/items', {{ headers: {{ '{hn}': '{hv}' }} }})",
        lambda: f"headers = {{'{hn}': '{hv}', 'Accept': 'application/json'}}",
        lambda: f'req.Header.Set("{hn}", "{hv}")',
        lambda: f"Invoke-RestMethod -Uri https://{svc(r)}.{d}/api/status -Headers @{{ '{hn}' = '{hv}' }}",
        lambda: f'location /upstream/ {{\n    proxy_pass https://{svc(r)}.{d}/;\n    proxy_set_header {hn} "{hv}";\n}}',
        lambda: f"{tstamp(r)} DEBUG outgoing request headers: {{'{hn}': '{hv}', 'Content-Type': 'application/json'}}",
    ]
    return wrap(r, _pick(r, T)), key


def k_token_in_url_query(r):
    k = r.randrange(6)
    d = domain(r)
    if k == 0:
        pn, key = "api_key", rhex(r, 32)
    elif k == 1:
        pn, key = "access_token", rs(r, B64URL, r.choice([40, 64]))
    elif k == 2:
        pn, key = "appid", rhex(r, 32)
    elif k == 3:
        pn, key = "apiKey", rhex(r, 32)
    elif k == 4:
        pn, key = "apikey", rs(r, UALNUM, 16)
    else:
        pn, key = "token", rs(r, ALNUM, 40)
    path = r.choice(["v1/search", "data/2.5/weather", "v2/everything", "query", "api/export", "v3/quotes"])
    url = f"https://api.{d}/{path}?q={r.choice(['london', 'AAPL', 'bitcoin', 'status', 'orders'])}&{pn}={key}"
    T = [
        lambda: f'curl -s "{url}" | jq .',
        lambda: (
            f'{ip(r)} - - [{r.randint(1, 28):02d}/Mar/2024:{hhmm(r)}:11 +0000] "GET /{path}?{pn}={key}&page=2 HTTP/1.1" 200 5123 "-" "python-requests/2.31"'
        ),
        lambda: f"Uncaught (in promise) TypeError: Failed to fetch\n    at loadData (app.js:42)  {url}",
        lambda: f'requests.get("https://api.{d}/{path}?{pn}={key}")',
        lambda: f"webhook target: https://hooks.{d}/ingest?{pn}={key}",
        lambda: f'urls:\n  upstream: "{url}"',
        lambda: f"{name(r)}: the dashboard iframe URL is {url} -- works without login",
    ]
    return wrap(r, _pick(r, T)), key


KINDS = [
    (
        "aws_access_key_id",
        k_aws_access_key_id,
        "AWS access key id (AKIA/ASIA...) in env, Terraform, SDK code, CloudTrail JSON, chat",
    ),
    (
        "aws_secret_access_key",
        k_aws_secret_access_key,
        "40-char AWS secret access key in aws configure transcripts, rclone/s3cmd configs, SDK code",
    ),
    (
        "github_token",
        k_github_token,
        "GitHub PATs (classic and fine-grained), OAuth/app/installation tokens in remotes, CLIs, .npmrc, code",
    ),
    (
        "gitlab_token",
        k_gitlab_token,
        "GitLab personal/deploy/runner/trigger tokens and legacy runner registration tokens",
    ),
    ("slack_token", k_slack_token, "Slack bot/user/app-level tokens in SDK code, env files, curl, debug logs"),
    (
        "chat_webhook_url",
        k_chat_webhook_url,
        "Slack, Discord, Teams, Google Chat and Mattermost incoming-webhook URLs (URL is the secret)",
    ),
    ("stripe_key", k_stripe_key, "Stripe live secret / restricted keys and webhook signing secrets"),
    (
        "payment_commerce_key",
        k_payment_commerce_key,
        "Square, Braintree, Razorpay, Adyen, Mollie, Shopify, GoCardless, Paddle secrets",
    ),
    (
        "ai_api_key",
        k_ai_api_key,
        "OpenAI, Anthropic, Hugging Face, Groq, Replicate, Perplexity, xAI, OpenRouter, Mistral/Cohere keys",
    ),
    (
        "google_api_key",
        k_google_api_key,
        "Google AIza API keys used server-side (Gemini, YouTube Data, Geocoding, Translate)",
    ),
    (
        "gcp_service_account_key",
        k_gcp_service_account_key,
        "private_key of GCP service-account JSON (raw, escaped, in k8s/TF/Actions, or base64 of the whole file)",
    ),
    (
        "private_key_pem",
        k_private_key_pem,
        "RSA/PKCS8/EC/DSA/OpenSSH private keys and PuTTY private lines, plain, indented or \\n-escaped",
    ),
    ("pgp_private_key", k_pgp_private_key, "ASCII-armoured PGP private key blocks (exports, CI vars, JSON)"),
    (
        "jwt_token",
        k_jwt_token,
        "signed JWT bearer/access tokens in curl, localStorage, Postman, logs, cookies, .http files",
    ),
    (
        "azure_credential",
        k_azure_credential,
        "Azure storage/Cosmos account keys, SAS sig, Entra client secrets, Service Bus keys, DevOps PATs, function keys",
    ),
    (
        "database_url_password",
        k_database_url_password,
        "password inside DB/broker connection strings (URL, JDBC, ADO.NET, ODBC, libpq, Go DSN)",
    ),
    (
        "url_embedded_credentials",
        k_url_embedded_credentials,
        "user:password@ in http/ftp/git/proxy/rtsp/smtp/webdav URLs",
    ),
    (
        "password_in_config",
        k_password_in_config,
        "passwords in YAML/.env/INI/JSON/XML/properties/HCL/Dockerfile/compose/.pgpass/.netrc/PHP/TOML",
    ),
    (
        "password_in_command",
        k_password_in_command,
        "passwords on command lines and in shell history (mysql -p, sshpass, PGPASSWORD, PowerShell, 7z...)",
    ),
    ("password_in_prose", k_password_in_prose, "passwords written in chat/e-mail prose in 15+ human languages"),
    (
        "package_registry_token",
        k_package_registry_token,
        "npm, PyPI, RubyGems, NuGet, Docker Hub PAT, crates.io, Artifactory tokens",
    ),
    (
        "email_sms_api_key",
        k_email_sms_api_key,
        "SendGrid, Mailgun, Mailchimp, Twilio auth token, Brevo, Resend, Postmark, Vonage, Plivo",
    ),
    (
        "observability_token",
        k_observability_token,
        "Datadog, New Relic, Grafana, Sentry auth, Honeycomb, Splunk HEC, Elastic API keys",
    ),
    (
        "ci_cd_token",
        k_ci_cd_token,
        "CircleCI, Buildkite, Jenkins, Terraform Cloud, Doppler, Pulumi, Vercel, Netlify, Sonar, runner tokens",
    ),
    ("vault_token", k_vault_token, "HashiCorp Vault service/batch/legacy tokens and unseal key shares"),
    ("messaging_bot_token", k_messaging_bot_token, "Telegram, Discord, LINE and Twitch bot tokens"),
    (
        "session_cookie",
        k_session_cookie,
        "session cookie values (Django, PHP, Express, Rails, Java, ASP.NET, NextAuth, Laravel)",
    ),
    (
        "oauth_client_secret",
        k_oauth_client_secret,
        "OAuth/OIDC client secrets (Google GOCSPX, GitHub, Auth0, Okta, generic)",
    ),
    (
        "recovery_and_2fa_secret",
        k_recovery_and_2fa_secret,
        "2FA recovery/backup code lists, TOTP seeds, 1Password Secret Key, BitLocker/Apple recovery keys",
    ),
    (
        "vpn_secret",
        k_vpn_secret,
        "WireGuard private/preshared keys, OpenVPN static keys, IPsec PSKs, Tailscale/Headscale auth keys, VPN account numbers",
    ),
    (
        "iot_home_automation",
        k_iot_home_automation,
        "Home Assistant tokens, ESPHome keys, MQTT/Wi-Fi passwords, Hue app keys, Particle/Blynk/Tuya/SmartThings",
    ),
    (
        "crypto_exchange_secret",
        k_crypto_exchange_secret,
        "exchange API secrets, wallet private keys, seed phrases, Solana keypairs, WIF, node-provider keys",
    ),
    (
        "mobile_gamedev_secret",
        k_mobile_gamedev_secret,
        "FCM server keys, keystore passwords, Expo/Firebase CI tokens, fastlane, .p8 keys, Steam/PlayFab/OneSignal",
    ),
    (
        "identity_provider_token",
        k_identity_provider_token,
        "Okta SSWS, Auth0 management JWT, Clerk/Supabase/Duo/OneLogin/Stytch/JumpCloud secrets",
    ),
    (
        "saas_productivity_token",
        k_saas_productivity_token,
        "Atlassian, Linear, Notion, Figma, Airtable, Asana, Trello, ClickUp, HubSpot, Zendesk, Intercom",
    ),
    (
        "cloud_hosting_token",
        k_cloud_hosting_token,
        "DigitalOcean, Cloudflare, Hetzner, Linode, Fly.io, Heroku, Render, Vultr, Scaleway, Supabase, tunnel tokens",
    ),
    (
        "generic_api_key_in_code",
        k_generic_api_key_in_code,
        "prefix-less API keys hard-coded in 16 programming languages",
    ),
    (
        "kubernetes_secret",
        k_kubernetes_secret,
        "k8s Secret data/stringData, kubeconfig tokens and client keys, kubectl literals, kubeadm join tokens",
    ),
    (
        "docker_registry_auth",
        k_docker_registry_auth,
        "docker config.json auth, .dockerconfigjson, DOCKER_AUTH_CONFIG, skopeo creds",
    ),
    (
        "http_auth_header",
        k_http_auth_header,
        "opaque Bearer/Basic/Token/API-key headers in curl, raw HTTP, HAR, code, nginx, logs",
    ),
    (
        "token_in_url_query",
        k_token_in_url_query,
        "api_key/access_token/appid/token query parameters in URLs, access logs, code",
    ),
]
KIND_DESCRIPTIONS = {k: d for k, _f, d in KINDS}

# labels for notes where the pasted value comes first and the explanation after it
KIND_LABELS = {
    "aws_access_key_id": "access key id of the ci-deployer IAM user",
    "aws_secret_access_key": "AWS secret key for the backup user",
    "github_token": "GitHub token for the release bot",
    "gitlab_token": "GitLab token for the mirror job",
    "slack_token": "Slack bot token",
    "chat_webhook_url": "alerts webhook",
    "stripe_key": "Stripe key",
    "payment_commerce_key": "payments provider key",
    "ai_api_key": "LLM API key for the agent",
    "google_api_key": "Google API key (backend geocoding)",
    "private_key_pem": "deploy key",
    "pgp_private_key": "release signing key",
    "jwt_token": "access token for the staging API",
    "azure_credential": "Azure credential for the pipeline",
    "database_url_password": "DB password",
    "url_embedded_credentials": "password for the internal mirror",
    "password_in_config": "admin password",
    "password_in_command": "service account password",
    "password_in_prose": "the new Wi-Fi password",
    "package_registry_token": "registry publish token",
    "email_sms_api_key": "transactional mail/SMS key",
    "observability_token": "monitoring API key",
    "ci_cd_token": "CI token",
    "vault_token": "Vault token",
    "messaging_bot_token": "bot token",
    "session_cookie": "session cookie of the QA user",
    "oauth_client_secret": "OAuth client secret",
    "recovery_and_2fa_secret": "2FA recovery material",
    "vpn_secret": "VPN key",
    "iot_home_automation": "home automation token",
    "crypto_exchange_secret": "exchange/wallet secret",
    "mobile_gamedev_secret": "mobile build secret",
    "identity_provider_token": "IdP admin token",
    "saas_productivity_token": "integration token",
    "cloud_hosting_token": "hosting API token",
    "generic_api_key_in_code": "partner API key",
    "kubernetes_secret": "cluster credential",
    "docker_registry_auth": "registry auth string",
    "http_auth_header": "API header value",
    "token_in_url_query": "API key from the URL",
}


def secret_first(r, kind, secret):
    label = KIND_LABELS[kind]
    k = r.randrange(4)
    if k == 0:
        return f"{secret}\n^ {label} for {svc(r)}-{env(r)}, saved {date(r)}"
    if k == 1:
        return f"{secret}  <- {label} ({svc(r)} {env(r)})"
    if k == 2:
        return f"{secret}\n\nthat's the {label}; {name(r)} asked me to keep it handy"
    return f"{secret}\n{label[0].upper() + label[1:]}. {trail(r)}"


# ==========================================================================
# LOOK-ALIKES -- each returns a text with no credential in it
# ==========================================================================
def lwrap(r, body):
    return wrap(r, body, neutral=True)


def cert_pem(r):
    return pem_block(
        "CERTIFICATE", b"\x30\x82\x03\x5a\x30\x82\x02\x42\xa0\x03\x02\x01\x02\x02\x14" + rbytes(r, r.randint(700, 900))
    )


def pub_pem(r):
    return pem_block(
        "PUBLIC KEY",
        b"\x30\x82\x01\x22\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x03\x82\x01\x0f\x00\x30\x82\x01\x0a\x02\x82\x01\x01\x00"
        + rbytes(r, 261),
    )


def ssh_pub(r):
    if r.random() < 0.6:
        return (
            "ssh-ed25519 "
            + b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + rbytes(r, 32))
            + f" {name(r)}@{r.choice(['laptop', 'mbp', 'ws', 'build'])}-{r.randint(1, 40)}"
        )
    return (
        "ssh-rsa "
        + b64(b"\x00\x00\x00\x07ssh-rsa\x00\x00\x00\x03\x01\x00\x01\x00\x00\x01\x01\x00" + rbytes(r, 256))
        + f" {name(r)}@{domain(r)}"
    )


COMMIT_MSGS = [
    "Rotate API token handling in client",
    "Fix secret loading from env",
    "Remove hard-coded password from tests",
    "Bump token-bucket limiter",
    "Refactor key derivation helper",
    "Move credentials to Vault",
    "Add password strength meter",
    "Drop legacy auth token cookie",
    "Mask secrets in debug logs",
    "Read DB password from secret manager",
    "Add key rotation runbook",
    "Stop logging Authorization header",
]


def la_commit(r):
    sha, msg, a = rhex(r, 40), r.choice(COMMIT_MSGS), f"{name(r)} {r.choice(LAST)}"
    return lwrap(
        r,
        r.choice(
            [
                f"commit {sha}\nAuthor: {a.title()} <{a.replace(' ', '.')}@{domain(r)}>\nDate:   {date(r)}\n\n    {msg}",
                f'reverted {sha[: r.choice([7, 8, 10, 12])]} ("{msg}") because it broke {svc(r)} in {env(r)}',
                f"git cherry-pick {sha}  # {msg}",
                f'the fix is in {sha[:12]}, merged as part of "{msg}"',
            ]
        ),
    )


def la_sha256sum(r):
    h = rhex(r, 64)
    f = r.choice(
        [
            "terraform_1.7.5_linux_amd64.zip",
            "node-v20.11.1-linux-x64.tar.xz",
            "kubectl",
            "go1.22.1.linux-amd64.tar.gz",
            "ubuntu-24.04-live-server-amd64.iso",
            f"{svc(r)}-v{r.randint(1, 5)}.{r.randint(0, 20)}.0.tar.gz",
        ]
    )
    return lwrap(
        r,
        r.choice(
            [
                f"{h}  {f}",
                f'echo "{h}  {f}" | sha256sum -c -',
                f"checksum: sha256:{h}",
                f"Expected SHA-256 for {f}: {h}\nthe download matched, safe to install",
            ]
        ),
    )


def la_integrity(r):
    pkg = r.choice(["lodash", "react-dom", "axios", "jsonwebtoken", "dotenv", "bcryptjs", "keytar", "secret-handshake"])
    ver = f"{r.randint(1, 18)}.{r.randint(0, 30)}.{r.randint(0, 9)}"
    return lwrap(
        r,
        f'"node_modules/{pkg}": {{\n  "version": "{ver}",\n  "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg}-{ver}.tgz",\n  "integrity": "sha512-{b64(rbytes(r, 64))}"\n}}',
    )


def la_uuid_ids(r):
    return lwrap(
        r,
        r.choice(
            [
                f"request_id={ruuid(r)} trace_id={rhex(r, 32)} span_id={rhex(r, 16)} status=500",
                f"AZURE_TENANT_ID={ruuid(r)}\nAZURE_SUBSCRIPTION_ID={ruuid(r)}",
                f"correlation id for the support ticket: {ruuid(r)}",
                f"tenant_id: {ruuid(r)}\nregion: {region(r)}\nplan: enterprise",
                f"Job {ruuid(r)} finished in {r.randint(2, 500)}s",
            ]
        ),
    )


def la_docker_digest(r):
    img = f"{org(r)}/{svc(r)}"
    return lwrap(
        r,
        r.choice(
            [
                f"image: {img}@sha256:{rhex(r, 64)}",
                f"docker pull {img}@sha256:{rhex(r, 64)}",
                f"Digest: sha256:{rhex(r, 64)}\nStatus: Downloaded newer image for {img}:latest",
            ]
        ),
    )


def la_ssh_pub(r):
    k = ssh_pub(r)
    return lwrap(
        r,
        r.choice(
            [
                f"add my public key to authorized_keys on {host(r)}:\n{k}",
                f"# ~/.ssh/authorized_keys\n{k}",
                f"deploy key (public part, read-only) for {repo(r)}: {k}",
                f"users:\n  - name: {name(r)}\n    ssh_authorized_keys:\n      - {k}",
            ]
        ),
    )


def la_cert(r):
    c = cert_pem(r)
    return lwrap(
        r,
        r.choice(
            [
                f"public CA cert for the {svc(r)} mTLS setup, safe to commit:\n{c}",
                f"ca.crt: |\n  {indent_block(c, '  ')}",
                f"$ openssl s_client -connect {svc(r)}.{domain(r)}:443 -showcerts\n...\n{c}",
            ]
        ),
    )


def la_pubkey_pem(r):
    k = pub_pem(r)
    return lwrap(
        r,
        r.choice(
            [
                f"JWT verification key (public):\n{k}",
                f'JWT_PUBLIC_KEY="{k.replace(chr(10), chr(92) + "n")}"',
                f"jwks alternative -- just pin this public key in the gateway:\n{k}",
            ]
        ),
    )


def la_pgp_pub(r):
    label = "PGP PUBLIC KEY BLOCK"
    body = "\n".join(chunks(b64(b"\x99\x01\x0d\x04" + rbytes(r, r.randint(250, 500))), 64))
    blk = f"{DASH5}BEGIN {label}{DASH5}\n\n{body}\n={b64(rbytes(r, 3))}\n{DASH5}END {label}{DASH5}"
    return lwrap(
        r, r.choice([f"my public key for encrypted mail:\n{blk}", f"import the release signing *public* key:\n{blk}"])
    )


def la_publishable(r):
    k = r.randrange(5)
    if k == 0:
        v = J("pk", "_li", "ve_") + "51" + rs(r, ALNUM, 97)
        return lwrap(
            r,
            r.choice(
                [f"STRIPE_PUBLISHABLE_KEY={v}", f"const stripe = Stripe('{v}'); // publishable, fine in the bundle"]
            ),
        )
    if k == 1:
        v = (
            "pk."
            + b64u(json.dumps({"u": name(r), "a": rs(r, LALNUM, 25)}, separators=(",", ":")).encode())
            + "."
            + rs(r, B64URL, 22)
        )
        return lwrap(r, f"mapboxgl.accessToken = '{v}'; // public token, URL-restricted")
    if k == 2:
        v = "6L" + r.choice("cdef") + rs(r, B64URL, 37)
        return lwrap(r, f'<div class="g-recaptcha" data-sitekey="{v}"></div>')
    if k == 3:
        v = J("pk", "_li", "ve_") + b64(f"clerk.{domain(r)}$".encode()).rstrip("=")
        return lwrap(r, f"NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY={v}")
    v = f"{rdig(r, 12)}-{rs(r, LALNUM, 32)}.apps.googleusercontent.com"
    return lwrap(r, f"GOOGLE_CLIENT_ID={v}  # public, the secret stays in the vault")


def la_placeholder_angle(r):
    return lwrap(
        r,
        r.choice(
            [
                "password: <password>",
                "API_KEY=<your-api-key>",
                'curl -H "Authorization: Bearer <token>" https://api.example.com/v1/me',
                f"DATABASE_URL=postgres://{dbuser(r)}:<password>@{host(r)}:5432/{svc(r)}",
                "export OPENAI_API_KEY=<paste key here>",
                "aws configure set aws_secret_access_key <SECRET_ACCESS_KEY>",
                "token: YOUR_TOKEN_HERE",
                "client_secret: {{CLIENT_SECRET}}",
                f"git clone https://<user>:<token>@github.com/{org(r)}/{repo(r)}.git",
                "Authorization: Basic <base64(user:pass)>",
                "STRIPE_SECRET_KEY=" + J("sk", "_live_") + "...",
                "docker login -u <username> -p <password> registry.example.com",
            ]
        ),
    )


def la_env_ref(r):
    v = r.choice(
        [
            "DB_PASSWORD",
            "GITHUB_TOKEN",
            "STRIPE_SECRET_KEY",
            "OPENAI_API_KEY",
            "SLACK_BOT_TOKEN",
            "REDIS_PASSWORD",
            "API_KEY",
        ]
    )
    return lwrap(
        r,
        r.choice(
            [
                f"password: ${{{v}}}",
                f'token = os.environ["{v}"]',
                f"const key = process.env.{v};",
                f'String secret = System.getenv("{v}");',
                f'api_key: ENV.fetch("{v}")',
                f"$token = $env:{v}",
                f"set PASSWORD=%{v}%",
                f'--password "${v}"',
                f"DATABASE_URL=postgres://app:${{{v}}}@db:5432/app",
                f'key := os.Getenv("{v}")',
            ]
        ),
    )


def la_masked(r):
    return lwrap(
        r,
        r.choice(
            [
                f"token: {'*' * r.randint(8, 40)}",
                f"AWS Secret Access Key [****************{rs(r, ALNUM, 4)}]:",
                "password=xxxxxxxx",
                "Authorization: Bearer ********",
                f'DB_PASSWORD="{"x" * r.randint(8, 16)}"',
                'secret_key = "XXXXXXXXXXXXXXXXXXXX"',
                f"{J('gh', 'p_')}{'*' * 36}",
                "api_key: '\u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022'",
            ]
        ),
    )


def la_doc_defaults(r):
    return lwrap(
        r,
        r.choice(
            [
                "docker run -e POSTGRES_PASSWORD=changeme postgres:16  # the README default, change before deploying",
                "admin_password: changeme   # overridden by the chart's secret in every real environment",
                "Default credentials are admin/admin -- the installer forces a change on first login.",
                "SECRET_KEY = 'django-insecure-change-me'  # startproject default, replaced by env in settings/prod.py",
                "JWT_SECRET=replace-me-in-production",
                'api_key: "your-api-key-here"',
                "password: example",
                "token: dummy",
                "MINIO_ROOT_PASSWORD=minioadmin  # documented default for local dev only",
            ]
        ),
    )


def la_redacted(r):
    return lwrap(
        r,
        r.choice(
            [
                "password: [REDACTED]",
                "Authorization: Bearer [FILTERED]",
                f"DATABASE_URL=postgres://{dbuser(r)}:***@{host(r)}/app",
                "token=<redacted>",
                '"client_secret": "(hidden)"',
                "aws_secret_access_key = <hidden>",
                "Set-Cookie: sessionid=[redacted]; Path=/; HttpOnly",
                "  + password = (sensitive value)",
                f"STRIPE_SECRET_KEY=[removed by {name(r)} before pasting]",
            ]
        ),
    )


def la_vault_path(r):
    s, e = svc(r), env(r)
    return lwrap(
        r,
        r.choice(
            [
                f"vault kv get -field=password secret/{s}/{e}/db",
                f"vault read database/creds/{s}-readonly",
                f"VAULT_ADDR=https://vault.{domain(r)}:8200\nVAULT_NAMESPACE=admin/{org(r)}",
                f'{{{{ with secret "secret/data/{s}/{e}" }}}}{{{{ .Data.data.password }}}}{{{{ end }}}}',
                f"password: vault:secret/data/{s}/{e}#db_password",
                f"api_token: \"{{{{ lookup('hashi_vault', 'secret=secret/data/{s}:token') }}}}\"",
            ]
        ),
    )


def la_ci_secret_ref(r):
    v = r.choice(
        ["NPM_TOKEN", "AWS_SECRET_ACCESS_KEY", "DOCKERHUB_TOKEN", "SLACK_WEBHOOK_URL", "DEPLOY_KEY", "SONAR_TOKEN"]
    )
    return lwrap(
        r,
        r.choice(
            [
                f"        env:\n          NODE_AUTH_TOKEN: ${{{{ secrets.{v} }}}}",
                f"password: ${{{{ secrets.{v} }}}}",
                '  script:\n    - echo "$CI_JOB_TOKEN" | docker login -u gitlab-ci-token --password-stdin $CI_REGISTRY',
                f"withCredentials([string(credentialsId: '{v.lower()}', variable: 'TOKEN')]) {{\n  sh 'curl -H \"Authorization: Bearer $TOKEN\" ...'\n}}",
                "- script: ./deploy.sh\n  env:\n    DB_PASSWORD: $(dbPassword)",
                f"token: !Ref {v.title().replace('_', '')}Parameter",
            ]
        ),
    )


def la_aws_sm_arn(r):
    acct = rdig(r, 12)
    return lwrap(
        r,
        r.choice(
            [
                f"arn:aws:secretsmanager:{region(r)}:{acct}:secret:{env(r)}/{svc(r)}/db-password-{rs(r, ALNUM, 6)}",
                f"aws ssm get-parameter --name /{env(r)}/{svc(r)}/api-key --with-decryption --query Parameter.Value",
                f"valueFrom: arn:aws:ssm:{region(r)}:{acct}:parameter/{env(r)}/{svc(r)}/DB_PASSWORD",
                f"aws secretsmanager get-secret-value --secret-id {env(r)}/{svc(r)}/stripe --query SecretString --output text",
            ]
        ),
    )


def la_k8s_secretkeyref(r):
    return lwrap(
        r,
        f"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {svc(r)}-db\n        key: password\n  - name: API_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: {svc(r)}-api\n        key: token",
    )


def la_data_uri(r):
    data = b64(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rbytes(r, r.randint(60, 200)))
    return lwrap(
        r,
        r.choice(
            [
                f'<img alt="logo" src="data:image/png;base64,{data}">',
                f".icon {{ background-image: url(data:image/png;base64,{data}); }}",
                f"favicon: data:image/png;base64,{data}",
            ]
        ),
    )


def la_ansible_vault(r):
    lines = "\n".join(rhex(r, 80) for _ in range(r.randint(4, 8)))
    return lwrap(
        r,
        r.choice(
            [
                "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + lines.replace("\n", "\n  "),
                f"$ANSIBLE_VAULT;1.1;AES256\n{lines}",
            ]
        ),
    )


def la_sops(r):
    enc = f"ENC[AES256_GCM,data:{b64(rbytes(r, r.randint(12, 40)))},iv:{b64(rbytes(r, 32))},tag:{b64(rbytes(r, 16))},type:str]"
    age = "age1" + rs(r, BECH32, 58)
    return lwrap(
        r,
        f'db_password: {enc}\nsops:\n    age:\n        - recipient: {age}\n    lastmodified: "{tstamp(r)}"\n    mac: ENC[AES256_GCM,data:{b64(rbytes(r, 32))},iv:{b64(rbytes(r, 32))},tag:{b64(rbytes(r, 16))},type:str]\n    version: 3.8.1',
    )


def la_sealed(r):
    return lwrap(
        r,
        f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {svc(r)}-db\nspec:\n  encryptedData:\n    password: Ag{b64(rbytes(r, r.randint(300, 420)))}",
    )


def la_bcrypt(r):
    cost = r.choice([10, 11, 12, 13])
    h = f"$2{r.choice('aby')}${cost}$" + rs(r, BCRYPT64, 53)
    return lwrap(
        r,
        r.choice(
            [
                f"we store hashes like {h} -- cost {cost} takes ~{2 ** (cost - 4)}ms on the API pods, acceptable",
                f"password_hash column example: '{h}' (bcrypt, never the plaintext)",
                f"why does passlib reject {h}? turned out the $2y$ prefix from PHP needed normalising",
            ]
        ),
    )


def la_argon2(r):
    h = f"$argon2id$v=19$m={r.choice([19456, 65536, 47104])},t={r.randint(2, 4)},p={r.randint(1, 4)}${b64(rbytes(r, 16)).rstrip('=')}${b64(rbytes(r, 32)).rstrip('=')}"
    return lwrap(
        r,
        r.choice(
            [
                f"migrated to argon2id, stored form looks like {h}",
                f"hash for user {r.randint(1, 9999)} after rehash-on-login: {h}",
            ]
        ),
    )


def la_sha512crypt(r):
    h = f"$6$rounds={r.choice([5000, 656000])}${rs(r, BCRYPT64, 16)}${rs(r, BCRYPT64, 86)}"
    return lwrap(
        r,
        r.choice(
            [f"the shadow entry uses sha512crypt ({h}), need to switch to yescrypt", f"mkpasswd -m sha-512 output: {h}"]
        ),
    )


def la_aws_doc_example(r):
    kid = J("AK", "IA", "IOSFODNN7", "EXAMPLE")
    sec = J("wJalrXUtnFEMI", "/K7MDENG/", "bPxRfiCY", "EXAMPLEKEY")
    return lwrap(
        r,
        r.choice(
            [
                f"The AWS docs use {kid} as the sample access key id; our regex test must ignore it.",
                f"# from the AWS CLI user guide (example values)\naws_access_key_id = {kid}\naws_secret_access_key = {sec}",
                f'allowlist: ["{kid}", "{sec}"]  # documentation placeholders',
            ]
        ),
    )


def la_jwt_header(r):
    hdr = b64u(json.dumps({"alg": r.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}, separators=(",", ":")).encode())
    return lwrap(
        r,
        r.choice(
            [
                f"every JWT starts with {hdr} because that's just base64url of the header",
                f"grep for '{hdr}' to find tokens in logs, then mask the rest",
                f"decoded header {hdr} -> alg/typ only, no claims",
            ]
        ),
    )


def la_env_names(r):
    v = r.sample(
        [
            "OPENAI_API_KEY",
            "GITHUB_TOKEN",
            "STRIPE_SECRET_KEY",
            "DATABASE_URL",
            "AWS_SECRET_ACCESS_KEY",
            "SLACK_BOT_TOKEN",
            "JWT_SECRET",
            "SENTRY_AUTH_TOKEN",
        ],
        3,
    )
    return lwrap(
        r,
        r.choice(
            [
                f"Set {v[0]} in your shell profile before running the agent.",
                f"Required env: {', '.join(v)}",
                f"export {v[0]}=\nexport {v[1]}=",
                f"the app crashes if {v[1]} is unset -- add a clearer error message",
                f"| Variable | Purpose |\n|---|---|\n| {v[0]} | auth for the API |\n| {v[2]} | signing |",
            ]
        ),
    )


def la_versions(r):
    v = f"{r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 20)}"
    return lwrap(
        r,
        r.choice(
            [
                f"tokenizers=={v}",
                f"keycloak {v} released, upgrading next sprint",
                f"secret-manager client bumped to {v}",
                f'"jsonwebtoken": "^{v}"',
                f"key-value store v{v} (build {rhex(r, 7)})",
                f"passlib[bcrypt]=={v}",
            ]
        ),
    )


def la_client_ids(r):
    return lwrap(
        r,
        r.choice(
            [
                f"client_id: {rdig(r, 12)}-{rs(r, LALNUM, 32)}.apps.googleusercontent.com",
                f"GitHub App client ID: Iv1.{rhex(r, 16)}",
                f"AZURE_CLIENT_ID={ruuid(r)}  # app registration id, not a secret",
                f"auth0 clientId: '{rs(r, ALNUM, 32)}' (SPA, public client, PKCE)",
                f"OKTA_CLIENT_ID=0oa{rs(r, ALNUM, 17)}",
            ]
        ),
    )


def la_go_sum(r):
    mod = r.choice(
        [
            "github.com/golang-jwt/jwt/v5",
            "golang.org/x/crypto",
            "github.com/aws/aws-sdk-go-v2",
            "github.com/hashicorp/vault/api",
        ]
    )
    v = f"v{r.randint(0, 5)}.{r.randint(0, 40)}.{r.randint(0, 9)}"
    return lwrap(
        r,
        r.choice(
            [
                f"{mod} {v} h1:{b64(rbytes(r, 32))}\n{mod} {v}/go.mod h1:{b64(rbytes(r, 32))}",
                f"requests==2.31.0 \\\n    --hash=sha256:{rhex(r, 64)}",
                f'[[package]]\nname = "ring"\nversion = "0.17.8"\nchecksum = "{rhex(r, 64)}"',
            ]
        ),
    )


def la_sri(r):
    return lwrap(
        r,
        f'<script src="https://cdn.jsdelivr.net/npm/{r.choice(["bootstrap", "alpinejs", "htmx.org"])}@{r.randint(1, 5)}.{r.randint(0, 9)}.{r.randint(0, 9)}/dist/app.min.js" integrity="sha384-{b64(rbytes(r, 48))}" crossorigin="anonymous"></script>',
    )


def la_hashed_assets(r):
    return lwrap(
        r,
        r.choice(
            [
                f"dist/assets/index-{rs(r, ALNUM + '-_', 8)}.js   142.31 kB",
                f"main.{rhex(r, 8)}.chunk.js",
                f"cache-busting: /static/app.{rhex(r, 20)}.css",
                f"build id {rs(r, B64URL, 21)} deployed to {env(r)}",
            ]
        ),
    )


def la_lfs(r):
    return lwrap(
        r, f"version https://git-lfs.github.com/spec/v1\noid sha256:{rhex(r, 64)}\nsize {r.randint(1000, 90000000)}"
    )


def la_pw_policy(r):
    return lwrap(
        r,
        r.choice(
            [
                f"Password policy: min {r.randint(10, 16)} chars, no composition rules, check against HIBP, no forced rotation.",
                "Decision: we stop requiring password changes every 90 days (NIST 800-63B).",
                "Passwords must not be stored in memory notes; link the 1Password item instead.",
                "The password reset email now expires after 30 minutes.",
            ]
        ),
    )


def la_pw_input_code(r):
    return lwrap(
        r,
        r.choice(
            [
                'password = getpass.getpass("DB password: ")',
                'read -s -p "Password: " PGPASSWORD && export PGPASSWORD',
                "$cred = Get-Credential -Message 'Enter the service account password'",
                'val password = System.console().readPassword("Password: ")',
                'password = request.form["password"]\nif not check_password_hash(user.pw_hash, password):\n    abort(401)',
                "const { password } = await inquirer.prompt([{ type: 'password', name: 'password', mask: '*' }]);",
            ]
        ),
    )


def la_hashing_code(r):
    return lwrap(
        r,
        r.choice(
            [
                "hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=12))",
                "def verify_password(plain: str, hashed: str) -> bool:\n    return pwd_context.verify(plain, hashed)",
                "let hash = argon2.hash_password(password.as_bytes(), &salt)?.to_string();",
                "var key = Rfc2898DeriveBytes.Pbkdf2(password, salt, 600_000, HashAlgorithmName.SHA256, 32);",
                "token = secrets.token_urlsafe(32)  # generated at runtime, never stored in plaintext",
            ]
        ),
    )


def la_llm_tokens(r):
    return lwrap(
        r,
        r.choice(
            [
                f"usage: prompt_tokens={r.randint(100, 9000)} completion_tokens={r.randint(10, 2000)} total_tokens={r.randint(200, 12000)}",
                f"max_tokens: {r.choice([256, 1024, 4096, 8192])}",
                f"context window is {r.choice([8, 32, 128, 200])}k tokens; we hit the limit on long diffs",
                f"tokenizer split 'passwordless' into {r.randint(2, 4)} tokens, interesting",
            ]
        ),
    )


def la_db_keys(r):
    t = r.choice(["orders", "users", "api_keys", "sessions", "tokens"])
    return lwrap(
        r,
        r.choice(
            [
                f"ALTER TABLE {t} ADD CONSTRAINT fk_user FOREIGN KEY (user_id) REFERENCES users(id);",
                f"CREATE TABLE {t} (id BIGSERIAL PRIMARY KEY, key_hash TEXT NOT NULL, created_at TIMESTAMPTZ DEFAULT now());",
                "KeyError: 'api_key' when the config file is missing the section",
                "press Ctrl+K Ctrl+S to open keyboard shortcuts",
                f'the cache key is f"user:{{user_id}}:profile" with a TTL of {r.randint(60, 3600)}s',
            ]
        ),
    )


def la_ssh_fingerprint(r):
    fp = b64(rbytes(r, 32)).rstrip("=")
    return lwrap(
        r,
        r.choice(
            [
                f"The authenticity of host '{host(r)}' can't be established.\nED25519 key fingerprint is SHA256:{fp}.\nAre you sure you want to continue connecting (yes/no)?",
                f"key fingerprint SHA256:{fp} matches the one in the runbook",
                f"256 SHA256:{fp} {name(r)}@laptop (ED25519)",
            ]
        ),
    )


def la_gpg_fpr(r):
    fpr = rs(r, UHEX, 40)
    return lwrap(
        r,
        r.choice(
            [
                f"gpg --keyserver keys.openpgp.org --recv-keys {fpr}",
                f"pub   rsa4096/{fpr[-16:]} {date(r)} [SC]\n      {fpr}\nuid   {fullname(r)} <{email(r)}>",
                f"signing key fingerprint: {' '.join(chunks(fpr, 4))}",
            ]
        ),
    )


def la_arns(r):
    acct = rdig(r, 12)
    return lwrap(
        r,
        r.choice(
            [
                f"arn:aws:iam::{acct}:role/{svc(r)}-deployer",
                f"aws sts assume-role --role-arn arn:aws:iam::{acct}:role/OrganizationAccountAccessRole --role-session-name {name(r)}",
                f"account {acct} ({env(r)}), region {region(r)}",
                f"kms key: arn:aws:kms:{region(r)}:{acct}:key/{ruuid(r)}",
            ]
        ),
    )


def la_rotation(r):
    return lwrap(
        r,
        r.choice(
            [
                f"Rotated the {svc(r)} DB password today; new value is in Vault, old one revoked at {hhmm(r)}.",
                "Lesson: when a token leaks, revoke first, then rotate, then audit the logs. Never just delete the commit.",
                f"{ticket(r)}: rotate Slack bot token -- done, app reinstalled, nothing pasted here on purpose.",
                "Key rotation runbook: 1) create new key 2) deploy with both 3) switch 4) revoke old key.",
            ]
        ),
    )


def la_last4(r):
    return lwrap(
        r,
        r.choice(
            [
                f"the token ending in ...{rs(r, ALNUM, 4)} was revoked",
                f"Stripe says: Invalid API Key provided: {J('sk', '_live_')}****{rs(r, ALNUM, 4)}",
                f"key id {J('AK', 'IA')}****{rs(r, BASE32, 4)} belongs to the old CI user",
                f"card on file: Visa **** {rs(r, DIGITS, 4)}",
                f"GitHub shows the PAT as {J('gh', 'p_')}...{rs(r, ALNUM, 4)}, expires {date(r)}",
            ]
        ),
    )


def la_cache_keys(r):
    return lwrap(
        r,
        r.choice(
            [
                f"redis key pattern rate:{{ip}}:{{minute}}, e.g. rate:{ip(r)}:{r.randint(0, 59)}",
                f"cache key: tenant:{r.randint(1, 900)}:feature-flags:v{r.randint(1, 9)}",
                f"memcached key too long: 'report:{rhex(r, 40)}'",
            ]
        ),
    )


def la_idempotency(r):
    return lwrap(
        r,
        r.choice(
            [
                f"Idempotency-Key: {ruuid(r)}",
                f"X-Request-Id: {ruuid(r)}",
                f'ETag: "{rhex(r, 32)}"',
                f"X-Amz-Cf-Id: {rs(r, B64URL, 56)}==",
            ]
        ),
    )


def la_vapid_pub(r):
    v = "B" + rs(r, B64URL, 86)
    return lwrap(
        r,
        r.choice(
            [
                f"applicationServerKey: urlBase64ToUint8Array('{v}')",
                f"VAPID_PUBLIC_KEY={v}  # the private half is in the secret store",
            ]
        ),
    )


def la_wg_public(r):
    return lwrap(
        r,
        f"[Peer]\n# {name(r)}-phone\nPublicKey = {b64(rbytes(r, 32))}\nAllowedIPs = 10.8.0.{r.randint(2, 250)}/32\nEndpoint = vpn.{domain(r)}:51820\n# PrivateKey stays on the device, loaded via PostUp from /etc/wireguard/private.key",
    )


def la_wallet_public(r):
    return lwrap(
        r,
        r.choice(
            [
                f"send the test ETH to 0x{rhex(r, 40)}",
                f"tx hash: https://etherscan.io/tx/0x{rhex(r, 64)}",
                f"contract deployed at 0x{rhex(r, 40)} (block {r.randint(10000000, 20000000)})",
                f"donations: bc1q{rs(r, BECH32, 38)}",
                f"block hash 0x{rhex(r, 64)}",
            ]
        ),
    )


def la_configmap(r):
    return lwrap(
        r,
        f'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {svc(r)}-config\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: "new-checkout,dark-mode"\n  TOKEN_TTL_SECONDS: "{r.choice([900, 3600])}"\n  KEY_ROTATION_DAYS: "90"',
    )


def la_tf_sensitive(r):
    return lwrap(
        r,
        r.choice(
            [
                'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
                'output "api_token" {\n  value     = random_password.api.result\n  sensitive = true\n}',
                "  password = var.db_password",
                'resource "random_password" "db" {\n  length  = 32\n  special = true\n}',
                "  # aws_db_instance.main will be updated in-place\n  ~ password = (sensitive value)",
            ]
        ),
    )


def la_env_example(r):
    return lwrap(
        r,
        "# .env.example -- copy to .env and fill in\nDATABASE_URL=\nSTRIPE_SECRET_KEY=\nOPENAI_API_KEY=\nSESSION_SECRET=\nREDIS_URL=redis://localhost:6379/0",
    )


def la_docker_build_secret(r):
    return lwrap(
        r,
        r.choice(
            [
                "# syntax=docker/dockerfile:1\nRUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci",
                'ARG NPM_TOKEN\nRUN echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > .npmrc && npm ci && rm .npmrc',
                "docker build --secret id=aws,src=$HOME/.aws/credentials -t app .",
            ]
        ),
    )


def la_ci_masked_log(r):
    return lwrap(
        r,
        r.choice(
            [
                f"Run docker login -u {org(r)}bot -p *** registry.{domain(r)}\nLogin Succeeded",
                "env:\n  NPM_TOKEN: ***\n  AWS_SECRET_ACCESS_KEY: ***",
                f"[{hhmm(r)}] + curl -H 'Authorization: Bearer ****' https://api.{domain(r)}/deploy",
            ]
        ),
    )


def la_auth_errors(r):
    return lwrap(
        r,
        r.choice(
            [
                "openai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided', 'type': 'invalid_request_error'}}",
                "botocore.exceptions.ClientError: An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid.",
                'FATAL:  password authentication failed for user "app"',
                "remote: Invalid username or password.\nfatal: Authentication failed",
                "jwt.exceptions.ExpiredSignatureError: Signature has expired",
                "Error: 403 Forbidden -- token lacks the read:packages scope",
            ]
        ),
    )


def la_ml_kqv(r):
    return lwrap(
        r,
        r.choice(
            [
                "attention: q = x @ W_q; k = x @ W_k; v = x @ W_v; scores = q @ k.T / sqrt(d_k)",
                f"the key/value cache grows to {r.randint(2, 40)} GB at 128k context",
                "special tokens: <s>, </s>, <pad>, <unk>",
                "RSA key size 2048 vs 4096: 4096 doubles handshake cost, not worth it for internal mTLS",
            ]
        ),
    )


def la_nonauth_cookies(r):
    prefs = b64(
        json.dumps(
            {"theme": r.choice(["dark", "light"]), "lang": r.choice(["en", "de", "fr"])}, separators=(",", ":")
        ).encode()
    )
    return lwrap(
        r,
        r.choice(
            [
                f"Cookie: theme=dark; lang=en; _ga=GA1.2.{rdig(r, 9)}.{rdig(r, 10)}; cookie_consent=accepted",
                f"Set-Cookie: prefs={prefs}; Path=/; Max-Age=31536000",
                f"_gid=GA1.2.{rdig(r, 9)}.{rdig(r, 10)}; _fbp=fb.1.{rdig(r, 13)}.{rdig(r, 9)}",
            ]
        ),
    )


def la_openssl_enc(r):
    blob = b64(b"Salted__" + rbytes(r, r.randint(40, 120)))
    return lwrap(
        r,
        r.choice(
            [
                f"$ openssl enc -aes-256-cbc -pbkdf2 -a -in notes.txt\n{blob}",
                f"encrypted blob (passphrase is NOT in this note): {blob}",
            ]
        ),
    )


def la_sa_token_path(r):
    return lwrap(
        r,
        r.choice(
            [
                "TOKEN=$(cat /var/run/secrets/kubernetes.io/serviceaccount/token)",
                "volumes:\n  - name: token\n    projected:\n      sources:\n        - serviceAccountToken:\n            path: token\n            expirationSeconds: 3600",
                "automountServiceAccountToken: false",
            ]
        ),
    )


def la_kerberos(r):
    realm = org(r).upper() + ".CORP"
    return lwrap(
        r,
        r.choice(
            [
                f"kinit -kt /etc/krb5.keytab HTTP/{host(r)}@{realm}",
                f"bindDN: cn=readonly,ou=services,dc={org(r)},dc=com\nbindPasswordFile: /run/secrets/ldap_bind",
                f"principal: svc_{svc(r)}@{realm}",
            ]
        ),
    )


def la_registry_guid(r):
    g = ruuid(r).upper()
    return lwrap(
        r,
        r.choice(
            [
                f"HKEY_LOCAL_MACHINE\\SOFTWARE\\Classes\\CLSID\\{{{g}}}",
                f'ProductCode = "{{{g}}}"',
                "reg query HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate /v WUServer",
            ]
        ),
    )


def la_pw_manager_ref(r):
    return lwrap(
        r,
        r.choice(
            [
                f"The prod DB password is in 1Password under '{svc(r).capitalize()} Postgres (rw)'.",
                f"DB_PASSWORD=op://{org(r)}-{env(r)}/{svc(r)}-db/password",
                f"bw get password {svc(r)}-admin",
                f"ask {name(r)} for the Wi-Fi password, it's in the office Bitwarden collection",
                "pass show infra/mikrotik/admin",
                "Password: see KeePass entry 'Router / admin'",
            ]
        ),
    )


ML_REFS = [
    "Das Passwort steht im Tresor (KeePass), bitte nicht hier speichern.",
    "Le mot de passe est dans Vault : secret/data/{s}/{e}, demande a {n}.",
    "La contrase\u00f1a est\u00e1 en el gestor de contrase\u00f1as, no la pegues en el chat.",
    "A senha fica no cofre do time; pe\u00e7a ao {n}.",
    "\u30d1\u30b9\u30ef\u30fc\u30c9\u306f1Password\u306e\u300c{s}\u300d\u306b\u3042\u308a\u307e\u3059\u3002",
    "\u5bc6\u7801\u5b58\u5728 Vault \u91cc\uff0c\u8def\u5f84 secret/{s}/{e}\u3002",
    "\u041f\u0430\u0440\u043e\u043b\u044c \u043b\u0435\u0436\u0438\u0442 \u0432 Vault, \u0432 \u0447\u0430\u0442 \u043d\u0435 \u043f\u0438\u0448\u0438\u0442\u0435.",
    "Het wachtwoord staat in Bitwarden onder '{s} admin'.",
    "Has\u0142o jest w mened\u017cerze hase\u0142, nie wklejaj go tutaj.",
    "\ube44\ubc00\ubc88\ud638\ub294 \uae08\uace0(Vault)\uc5d0 \uc788\uc2b5\ub2c8\ub2e4.",
    "Il token va generato da ogni sviluppatore, non condividerlo.",
]


def la_multilang_refs(r):
    return lwrap(r, r.choice(ML_REFS).format(s=svc(r), e=env(r), n=name(r)))


def la_stack_traces(r):
    return lwrap(
        r,
        r.choice(
            [
                f'Traceback (most recent call last):\n  File "/app/{svc(r)}/settings.py", line {r.randint(10, 300)}, in <module>\n    SECRET_KEY = os.environ["SECRET_KEY"]\nKeyError: \'SECRET_KEY\'',
                "TokenExpiredError: jwt expired\n    at /app/node_modules/jsonwebtoken/verify.js:152:21",
                f"java.lang.IllegalStateException: No password configured for datasource '{svc(r)}'\n\tat com.zaxxer.hikari.HikariConfig.validate(HikariConfig.java:1000)",
                "thread 'main' panicked at 'API_TOKEN must be set', src/main.rs:14:10",
            ]
        ),
    )


def la_fake_fixtures(r):
    return lwrap(
        r,
        r.choice(
            [
                'FAKE_TOKEN = "test-token"  # unit tests only, the client is mocked',
                'mock_api_key = "fake-key-for-tests"',
                'assert redact("Authorization: Bearer abc") == "Authorization: Bearer [REDACTED]"',
                'fixtures/users.json uses password "not-a-real-password" for every seed user (local docker only)',
                'responses.add(responses.GET, URL, json={"token": "dummy"})',
                'os.environ.setdefault("API_KEY", "testing")',
            ]
        ),
    )


def la_test_cards(r):
    return lwrap(
        r,
        r.choice(
            [
                "Stripe test card 4242 4242 4242 4242, any future expiry, any CVC.",
                "3DS test card: 4000 0027 6000 3184",
                "Adyen test card 5555 3412 4444 1115 works in the sandbox checkout",
                "decline test: 4000 0000 0000 0002",
            ]
        ),
    )


def la_webhook_signature(r):
    return lwrap(
        r,
        r.choice(
            [
                f"X-Hub-Signature-256: sha256={rhex(r, 64)}",
                f"Stripe-Signature: t={r.randint(1_700_000_000, 1_760_000_000)},v1={rhex(r, 64)}",
                f"X-Slack-Signature: v0={rhex(r, 64)}\nX-Slack-Request-Timestamp: {r.randint(1_700_000_000, 1_760_000_000)}",
                f"computed HMAC {rhex(r, 64)} does not match header, so the body was modified by the proxy",
            ]
        ),
    )


def la_serials(r):
    return lwrap(
        r,
        r.choice(
            [
                f"device serial {rs(r, UALNUM, 12)}, MAC {':'.join(rhex(r, 2) for _ in range(6))}",
                f"asset tag {org(r).upper()}-{r.randint(1000, 9999)}, serial {rs(r, UALNUM, 10)}",
                f"IMEI {rdig(r, 15)} registered to {name(r)}",
            ]
        ),
    )


def la_lockfile_hashes(r):
    return lwrap(
        r,
        r.choice(
            [
                f'"content-hash": "{rhex(r, 32)}"',
                f"  checksum: {rhex(r, 128)}\n  languageName: node\n  linkType: hard",
                f'"{r.choice(["lodash", "react"])}@npm:4.17.21":\n  resolution: "lodash@npm:4.17.21"\n  checksum: 10c0/{rhex(r, 128)}',
            ]
        ),
    )


def la_nix_store(r):
    return lwrap(
        r,
        f"/nix/store/{rs(r, '0123456789abcdfghijklmnpqrsvwxyz', 32)}-{r.choice(['python3-3.11.9', 'openssl-3.0.13', 'nodejs-20.12.2'])}",
    )


def la_k8s_meta(r):
    return lwrap(
        r,
        f'metadata:\n  name: {svc(r)}-{rhex(r, 9)}-{rs(r, LALNUM, 5)}\n  uid: {ruuid(r)}\n  resourceVersion: "{r.randint(100000, 99999999)}"\n  annotations:\n    checksum/secret: {rhex(r, 64)}',
    )


def la_tf_state_meta(r):
    return lwrap(
        r,
        f'{{\n  "version": 4,\n  "terraform_version": "1.{r.randint(3, 9)}.{r.randint(0, 5)}",\n  "serial": {r.randint(1, 900)},\n  "lineage": "{ruuid(r)}"\n}}',
    )


def la_age_minisign(r):
    return lwrap(
        r,
        r.choice(
            [
                f"age recipient (public): age1{rs(r, BECH32, 58)}",
                f"untrusted comment: minisign public key {rs(r, UHEX, 16)}\nRWQ{b64(rbytes(r, 39))}",
                f"cosign public key for verifying images:\n{pub_pem(r)}",
            ]
        ),
    )


def la_scanner_config(r):
    return lwrap(
        r,
        r.choice(
            [
                "[[rules]]\nid = \"generic-api-key\"\nregex = '''(?i)(api[_-]?key|secret)\\s*[:=]\\s*['\\\"]?([a-z0-9]{32,})'''",
                "[allowlist]\npaths = ['''tests/fixtures/.*''']\nregexes = ['''EXAMPLE''']",
                "# .gitleaksignore\n" + rhex(r, 40) + ":config/settings.py:generic-api-key:" + str(r.randint(1, 300)),
            ]
        ),
    )


def la_design_tokens(r):
    return lwrap(
        r,
        r.choice(
            [
                f"design token color.primary = #{rhex(r, 6)}",
                f'{{"token": "spacing-{r.randint(1, 8)}", "value": "{r.randint(2, 64)}px"}}',
                f"--token-surface-{r.choice(['raised', 'sunken'])}: #{rhex(r, 6)};",
            ]
        ),
    )


def la_page_tokens(r):
    return lwrap(
        r,
        r.choice(
            [
                f'"nextPageToken": "C{rs(r, UALNUM, 5)}QAA"',
                f"pagination cursor: page={r.randint(2, 40)}&cursor={b64(json.dumps({'id': r.randint(1000, 999999)}).encode())}",
                f"continue token from kubectl: {b64(json.dumps({'v': 'meta.k8s.io/v1', 'rv': r.randint(10000, 999999), 'start': f'{svc(r)}-{r.randint(1, 99)}'}).encode())}",
            ]
        ),
    )


def la_hash_discussion(r):
    word = r.choice(["", "hello", "abc", "The quick brown fox jumps over the lazy dog"])
    algo = r.choice(["md5", "sha1", "sha256"])
    h = hashlib.new(algo, word.encode()).hexdigest()
    return lwrap(
        r,
        f"{algo}({json.dumps(word)}) = {h} -- handy to recognise in test vectors; never use plain {algo} for passwords",
    )


def la_public_ips(r):
    return lwrap(
        r,
        r.choice(
            [
                f"egress IPs to allowlist: {ip(r)}, {ip(r)}",
                f"MAC {':'.join(rhex(r, 2) for _ in range(6))} -> {lan_ip(r)} (printer)",
                f"ipv6 prefix 2001:db8:{rhex(r, 4)}::/48",
            ]
        ),
    )


def la_color_css(r):
    return lwrap(
        r, f".btn-{r.choice(['primary', 'danger', 'ghost'])} {{ color: #{rhex(r, 6)}; background: #{rhex(r, 6)}; }}"
    )


def la_dates_logs(r):
    return lwrap(
        r,
        f"{tstamp(r)} INFO {svc(r)} started pid={r.randint(100, 99999)} version={r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)} commit={rhex(r, 7)}",
    )


def la_sql_plain(r):
    return lwrap(
        r,
        r.choice(
            [
                f"SELECT id, email, last_login FROM users WHERE created_at > '{date(r)}' ORDER BY id LIMIT 50;",
                "UPDATE api_keys SET revoked_at = now() WHERE last_used_at < now() - interval '90 days';",
                "SELECT count(*) FROM sessions WHERE expires_at < now();",
            ]
        ),
    )


def la_readme_prose(r):
    return lwrap(
        r,
        r.choice(
            [
                f"Decided to use {r.choice(['Postgres', 'SQLite', 'DynamoDB'])} for the {svc(r)} service because of {r.choice(['cost', 'ops simplicity', 'latency'])}.",
                f"Deploys now go through ArgoCD; the {svc(r)} chart lives in {repo(r)}.",
                "Reminder: run the migrations before flipping the feature flag.",
            ]
        ),
    )


def la_dotnet_user_secrets(r):
    return lwrap(
        r,
        r.choice(
            [
                f"dotnet user-secrets init  # UserSecretsId {ruuid(r)}",
                f"<UserSecretsId>{ruuid(r)}</UserSecretsId>",
                'dotnet user-secrets set "Stripe:SecretKey" "$STRIPE_KEY"',
            ]
        ),
    )


def la_keyring(r):
    return lwrap(
        r,
        r.choice(
            [
                'keyring.get_password("my-cli", username)',
                "security find-generic-password -s 'gh:github.com' -w  # prints from Keychain, not stored here",
                "git config --global credential.helper osxkeychain",
                "secret-tool lookup service smtp user alerts",
            ]
        ),
    )


def la_base64_text(r):
    msg = r.choice(["hello world", '{"version":1}', f"user-{r.randint(1, 999)}", "not a secret, just a label"])
    return lwrap(r, f"base64 of '{msg}' is {b64(msg.encode())} -- used as the fixture id")


LOOKALIKES = [
    # hard: next to secret/token/key/password wording or credential-shaped
    ("publishable_or_public_client_key", la_publishable, True),
    ("angle_and_template_placeholders", la_placeholder_angle, True),
    ("env_var_references", la_env_ref, True),
    ("masked_values", la_masked, True),
    ("documented_default_passwords", la_doc_defaults, True),
    ("redacted_values", la_redacted, True),
    ("vault_paths", la_vault_path, True),
    ("ci_secret_references", la_ci_secret_ref, True),
    ("cloud_secret_manager_arns", la_aws_sm_arn, True),
    ("k8s_secretkeyref", la_k8s_secretkeyref, True),
    ("ansible_vault_blob", la_ansible_vault, True),
    ("sops_encrypted", la_sops, True),
    ("sealed_secret", la_sealed, True),
    ("bcrypt_hash_discussion", la_bcrypt, True),
    ("argon2_hash_discussion", la_argon2, True),
    ("sha512crypt_discussion", la_sha512crypt, True),
    ("aws_documentation_example", la_aws_doc_example, True),
    ("jwt_header_only", la_jwt_header, True),
    ("env_var_names_no_value", la_env_names, True),
    ("oauth_public_client_ids", la_client_ids, True),
    ("ssh_public_key", la_ssh_pub, True),
    ("x509_certificate", la_cert, True),
    ("pem_public_key", la_pubkey_pem, True),
    ("pgp_public_key", la_pgp_pub, True),
    ("password_policy", la_pw_policy, True),
    ("password_prompt_code", la_pw_input_code, True),
    ("hashing_code", la_hashing_code, True),
    ("ssh_fingerprints", la_ssh_fingerprint, True),
    ("rotation_notes", la_rotation, True),
    ("last4_masked", la_last4, True),
    ("vapid_public_key", la_vapid_pub, True),
    ("wireguard_public_only", la_wg_public, True),
    ("wallet_addresses_tx_hashes", la_wallet_public, True),
    ("terraform_sensitive_vars", la_tf_sensitive, True),
    ("env_example_empty", la_env_example, True),
    ("docker_build_secrets", la_docker_build_secret, True),
    ("ci_masked_logs", la_ci_masked_log, True),
    ("auth_error_messages", la_auth_errors, True),
    ("openssl_encrypted_blob", la_openssl_enc, True),
    ("sa_token_path", la_sa_token_path, True),
    ("password_manager_refs", la_pw_manager_ref, True),
    ("multilingual_secret_refs", la_multilang_refs, True),
    ("missing_secret_stack_traces", la_stack_traces, True),
    ("obviously_fake_fixtures", la_fake_fixtures, True),
    ("webhook_signatures", la_webhook_signature, True),
    ("age_minisign_cosign_public", la_age_minisign, True),
    ("secret_scanner_config", la_scanner_config, True),
    ("non_auth_cookies", la_nonauth_cookies, True),
    ("keyring_helpers", la_keyring, True),
    ("dotnet_user_secrets_ids", la_dotnet_user_secrets, True),
    ("llm_token_counts", la_llm_tokens, True),
    # easier: random-looking ids, digests, plain notes
    ("commit_shas", la_commit, False),
    ("sha256_checksums", la_sha256sum, False),
    ("npm_integrity", la_integrity, False),
    ("uuid_ids", la_uuid_ids, False),
    ("docker_digests", la_docker_digest, False),
    ("data_uri_images", la_data_uri, False),
    ("version_strings", la_versions, False),
    ("go_sum_pip_cargo_hashes", la_go_sum, False),
    ("sri_integrity", la_sri, False),
    ("hashed_asset_names", la_hashed_assets, False),
    ("git_lfs_pointer", la_lfs, False),
    ("db_keys_and_shortcuts", la_db_keys, False),
    ("gpg_fingerprints", la_gpg_fpr, False),
    ("aws_arns_account_ids", la_arns, False),
    ("cache_keys", la_cache_keys, False),
    ("request_ids_etags", la_idempotency, False),
    ("configmap", la_configmap, False),
    ("ml_key_query_value", la_ml_kqv, False),
    ("kerberos_ldap_refs", la_kerberos, False),
    ("windows_guids", la_registry_guid, False),
    ("test_card_numbers", la_test_cards, False),
    ("serials_macs", la_serials, False),
    ("lockfile_hashes", la_lockfile_hashes, False),
    ("nix_store_paths", la_nix_store, False),
    ("k8s_metadata", la_k8s_meta, False),
    ("tfstate_metadata", la_tf_state_meta, False),
    ("design_tokens", la_design_tokens, False),
    ("pagination_tokens", la_page_tokens, False),
    ("digest_test_vectors", la_hash_discussion, False),
    ("ips_macs", la_public_ips, False),
    ("css_colors", la_color_css, False),
    ("plain_log_lines", la_dates_logs, False),
    ("plain_sql", la_sql_plain, False),
    ("plain_decisions", la_readme_prose, False),
    ("base64_labels", la_base64_text, False),
]
LOOKALIKE_CATEGORIES = {n: h for n, _f, h in LOOKALIKES}


# ==========================================================================
# entry point
# ==========================================================================
def generate(seed: int):
    r = random.Random(seed)
    positives = []
    seen = set()
    for kind, fn, _desc in KINDS:
        got = tries = 0
        while got < PER_KIND and tries < PER_KIND * 30:
            tries += 1
            text, secret = fn(r)
            if r.random() < 0.07 and "\\n" not in secret and "\n " not in secret and kind != "gcp_service_account_key":
                text = secret_first(r, kind, secret)
            if text in seen or len(secret) < 8 or secret not in text:
                continue
            seen.add(text)
            positives.append((text, kind, secret))
            got += 1
    lookalikes = []
    seen_l = set()
    hard = [f for _n, f, h in LOOKALIKES if h]
    easy = [f for _n, f, h in LOOKALIKES if not h]
    i = tries = 0
    while len(lookalikes) < N_LOOKALIKES and tries < N_LOOKALIKES * 30:
        tries += 1
        pool = hard if i % 2 == 0 else easy
        fn = pool[(i // 2) % len(pool)]
        text = fn(r)
        if text in seen_l or text in seen:
            fn = r.choice(pool)
            text = fn(r)
            if text in seen_l or text in seen:
                continue
        seen_l.add(text)
        lookalikes.append(text)
        i += 1
    return positives, lookalikes
