"""Secret-scanner benchmark samples, set "I".

The notes below are what the engineering teams of a few fictional
organisations would save in an agent memory store over a year:

* Tidewell      - a start-up web app (tidewell.app)
* Meridian      - IT/ops and a data team at a mid-size company (meridian-corp.net)
* Lanternfish   - a mobile/game studio (lanternfish.games)
* Kessler Lab   - a university research lab with a GPU cluster (kesslerlab.org)

generate(seed) -> (positives, lookalikes)
    positives:  list of (text, kind, secret); ``secret`` is the sensitive value
                itself and an exact substring of ``text``.
    lookalikes: list of texts that contain no credential at all.

Every vendor prefix, key body and PEM armour line is assembled at run time from
pieces and random characters, so this file holds no secret-shaped literal.
All randomness comes from ``random.Random(seed)``.
"""

from __future__ import annotations

import base64
import datetime
import json
import random
import re
import string
import struct

PER_KIND = 30
N_LOOKALIKES = 800

_LOWER = string.ascii_lowercase
_UPPER = string.ascii_uppercase
_LETTERS = string.ascii_letters
_DIGITS = string.digits
_ALNUM = _LETTERS + _DIGITS
_HEX = "0123456789abcdef"
_B64URL = _ALNUM + "-_"
_B32 = _UPPER + "234567"
_PW_SYMS = "!#%&*+-=?@^_."
_DASHES = "-" * 5
_PRIV = "PRIV" + "ATE KEY"
_OPENAI_MARK = base64.b64encode(b"Open" + b"AI").decode()

_FIELD = re.compile(r"\{([a-z][a-z0-9_]*)\}")

_PEOPLE = (
    ("Priya", "priya"),
    ("Tomasz", "tomasz"),
    ("Aiko", "aiko"),
    ("Mateo", "mateo"),
    ("Fatima", "fatima"),
    ("Jonas", "jonas"),
    ("Chloé", "chloe"),
    ("Kwame", "kwame"),
    ("Lena", "lena"),
    ("Ravi", "ravi"),
    ("Sofia", "sofia"),
    ("Yusuf", "yusuf"),
    ("Mei", "mei"),
    ("Oskar", "oskar"),
    ("Ana", "ana"),
    ("Dmitri", "dmitri"),
    ("Grace", "grace"),
    ("Henrik", "henrik"),
    ("Inês", "ines"),
    ("Jamal", "jamal"),
    ("Keiko", "keiko"),
    ("Luis", "luis"),
    ("Marta", "marta"),
    ("Nadia", "nadia"),
    ("Olu", "olu"),
    ("Pieter", "pieter"),
    ("Rosa", "rosa"),
    ("Sam", "sam"),
    ("Tariq", "tariq"),
    ("Uma", "uma"),
    ("Wen", "wen"),
    ("Zainab", "zainab"),
    ("Bea", "bea"),
    ("Carlos", "carlos"),
    ("Dana", "dana"),
    ("Emeka", "emeka"),
)

_WORDS = (
    "harbor",
    "maple",
    "otter",
    "lantern",
    "copper",
    "meadow",
    "falcon",
    "quartz",
    "ember",
    "willow",
    "cactus",
    "pepper",
    "violet",
    "granite",
    "saffron",
    "tundra",
    "basil",
    "comet",
    "juniper",
    "marble",
    "nimbus",
    "orchid",
    "pebble",
    "raven",
    "sierra",
    "tango",
    "walnut",
    "zephyr",
    "biscuit",
    "cobalt",
    "dune",
    "fjord",
    "glacier",
    "hazel",
    "indigo",
    "jasper",
    "kiwi",
    "lagoon",
    "mango",
    "nutmeg",
    "olive",
    "prism",
    "quill",
    "rustic",
    "sprout",
    "thimble",
    "velvet",
    "wombat",
    "anchor",
    "bramble",
    "cinder",
    "drizzle",
    "fennel",
    "gravel",
    "hollow",
    "iris",
)

_UNICODE_WORDS = (
    "Kaffeemühle",
    "Größe",
    "Straßenbahn",
    "Été",
    "Ñandú",
    "Łódź",
    "Smörgås",
    "Fjäril",
    "Čokoláda",
    "Mañana",
    "Açaí",
    "Żubr",
    "Sakura桜",
    "Bärenhöhle",
    "Crème",
    "Jalapeño",
    "Ørken",
    "Üzüm",
    "Tōkyō",
    "Øresund",
    "Pão-de-Açúcar",
    "Kärnten",
)

_PW_STYLES = (
    "words",
    "dashed",
    "random",
    "season",
    "leet",
    "unicode",
    "camel",
    "words",
    "random",
)

_MONTHS = (
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
)
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_REGIONS = (
    "eu-central-1",
    "eu-west-1",
    "us-east-1",
    "us-west-2",
    "ap-northeast-1",
)
_UAS = (
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
    ),
    "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36 Edg/123.0.0.0"
    ),
)


def _sshstr(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _wrap(text: str, width: int) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)]


def _b64url_json(obj: dict) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class _R:
    """All randomness of one generate() call, plus value factories."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    # -- primitives -------------------------------------------------------
    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def num(self, lo: int, hi: int) -> int:
        return self.r.randint(lo, hi)

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def chars(self, alphabet: str, n: int) -> str:
        return "".join(alphabet[self.r.randrange(len(alphabet))] for _ in range(n))

    def alnum(self, n: int) -> str:
        return self.chars(_ALNUM, n)

    def lower_alnum(self, n: int) -> str:
        return self.chars(_LOWER + _DIGITS, n)

    def upper_alnum(self, n: int) -> str:
        return self.chars(_UPPER + _DIGITS, n)

    def hexs(self, n: int) -> str:
        return self.chars(_HEX, n)

    def digits(self, n: int) -> str:
        return self.chars("123456789", 1) + self.chars(_DIGITS, n - 1)

    def raw(self, n: int) -> bytes:
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def b64(self, nbytes: int) -> str:
        return base64.b64encode(self.raw(nbytes)).decode()

    def b64url(self, nbytes: int) -> str:
        return base64.urlsafe_b64encode(self.raw(nbytes)).decode().rstrip("=")

    def uuid(self) -> str:
        h = self.hexs(32)
        h = h[:12] + "4" + h[13:16] + self.pick("89ab") + h[17:]
        return "-".join((h[:8], h[8:12], h[12:16], h[16:20], h[20:]))

    def word(self) -> str:
        return self.pick(_WORDS)

    def cap(self) -> str:
        return self.word().capitalize()

    def sym(self) -> str:
        return self.pick(_PW_SYMS)

    # -- human secrets ----------------------------------------------------
    def password(self, style: str | None = None) -> str:
        style = style or self.pick(_PW_STYLES)
        if style == "words":
            first, second = self.r.sample(_WORDS, 2)
            pw = first.capitalize() + self.sym() + second.capitalize() + str(self.num(10, 99))
        elif style == "dashed":
            pw = "-".join(self.r.sample(_WORDS, 3)) + "-" + str(self.num(1, 99))
        elif style == "random":
            pw = self.pick(_UPPER) + self.chars(_ALNUM + "!#%&*+-=?@^_", self.num(12, 18)) + self.pick(_DIGITS)
        elif style == "season":
            pw = (
                self.pick(
                    (
                        "Winter",
                        "Spring",
                        "Summer",
                        "Autumn",
                        "Sommer",
                        "Herbst",
                        "Meridian",
                        "Welcome",
                        "Lantern",
                        "Kessler",
                        "Tidewell",
                    )
                )
                + str(self.num(2019, 2025))
                + self.pick("!#$?")
            )
        elif style == "leet":
            src = self.cap() + self.word()
            table = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "$"}
            pw = "".join(table[ch] if ch in table and self.chance(0.6) else ch for ch in src)
            pw += str(self.num(10, 99)) + self.sym()
        elif style == "unicode":
            pw = self.pick(_UNICODE_WORDS) + self.sym() + str(self.num(10, 999))
            if self.chance(0.5):
                pw += self.cap()
        else:
            pw = "".join(w.capitalize() for w in self.r.sample(_WORDS, 3)) + str(self.num(1, 999))
        while len(pw) < 10:
            pw += str(self.num(0, 9))
        return pw

    def url_password(self) -> str:
        style = self.num(0, 3)
        if style == 0:
            return self.alnum(self.num(16, 28))
        if style == 1:
            return self.cap() + self.cap() + str(self.num(100, 9999))
        if style == 2:
            return self.word() + "-" + self.word() + "-" + str(self.num(10, 99))
        return self.alnum(10) + self.pick("-_.~") + self.alnum(8)

    def passphrase(self) -> str:
        words = self.r.sample(_WORDS, self.num(4, 5))
        phrase = " ".join(words)
        if self.chance(0.3):
            phrase += " " + str(self.num(2, 99))
        return phrase

    def pin(self) -> str:
        return self.digits(self.num(8, 10))

    # -- vendor-format tokens (assembled from pieces) -----------------------
    def github_token(self) -> str:
        roll = self.r.random()
        if roll < 0.6:
            return "gh" + "p_" + self.alnum(36)
        if roll < 0.85:
            head = "11" + self.upper_alnum(9) + "0" + self.alnum(10)
            return "github" + "_pat_" + head + "_" + self.alnum(59)
        return "gh" + self.pick("ous") + "_" + self.alnum(36)

    def aws_key_id(self) -> str:
        return "AK" + "IA" + self.chars(_UPPER + "234567", 16)

    def aws_secret(self) -> str:
        return self.chars(_ALNUM + "+/", 40)

    def slack_bot(self) -> str:
        return "xo" + "xb-" + self.digits(12) + "-" + self.digits(13) + "-" + self.alnum(24)

    def slack_user(self) -> str:
        return "xo" + "xp-" + self.digits(12) + "-" + self.digits(12) + "-" + self.digits(13) + "-" + self.hexs(32)

    def slack_webhook(self) -> str:
        return (
            "https://hooks."
            + "slack.com/services/T"
            + self.upper_alnum(8)
            + "/B"
            + self.upper_alnum(10)
            + "/"
            + self.alnum(24)
        )

    def stripe_secret(self) -> str:
        body = "51" + self.alnum(97) if self.chance(0.6) else self.alnum(24)
        return "sk" + "_live_" + body

    def stripe_restricted(self) -> str:
        return "rk" + "_live_" + "51" + self.alnum(97)

    def stripe_publishable(self) -> str:
        return "pk" + "_live_" + "51" + self.alnum(97)

    def stripe_whsec(self) -> str:
        return "wh" + "sec_" + self.alnum(32)

    def openai_key(self) -> str:
        roll = self.r.random()
        if roll < 0.6:
            return "sk-" + "proj-" + self.chars(_B64URL, 58) + _OPENAI_MARK + self.chars(_B64URL, 58)
        if roll < 0.8:
            return "sk-" + "svcacct-" + self.chars(_B64URL, 58) + _OPENAI_MARK + self.chars(_B64URL, 58)
        return "sk-" + self.alnum(20) + _OPENAI_MARK + self.alnum(20)

    def anthropic_key(self) -> str:
        return "sk-" + "ant-" + "api03-" + self.chars(_B64URL, 93) + "AA"

    def llm_key(self) -> str:
        return self.openai_key() if self.chance(0.55) else self.anthropic_key()

    def google_key(self) -> str:
        return "AI" + "za" + "Sy" + self.chars(_B64URL, 33)

    def gitlab_pat(self) -> str:
        return "gl" + "pat-" + self.chars(_B64URL, 20)

    def gitlab_runner(self) -> str:
        return "gl" + "rt-" + self.chars(_B64URL, 20)

    def npm_token(self) -> str:
        return "np" + "m_" + self.alnum(36)

    def sendgrid_key(self) -> str:
        return "S" + "G." + self.chars(_B64URL, 22) + "." + self.chars(_B64URL, 43)

    def hf_token(self) -> str:
        return "h" + "f_" + self.chars(_LETTERS, 34)

    # -- generic machine secrets ---------------------------------------------
    def opaque(self) -> str:
        roll = self.num(0, 4)
        if roll == 0:
            return self.alnum(self.num(32, 48))
        if roll == 1:
            return self.hexs(40)
        if roll == 2:
            return self.b64url(32)
        if roll == 3:
            return self.hexs(64)
        return self.alnum(24) + "." + self.alnum(12)

    def tidewell_key(self) -> str:
        return "tw" + "k_live_" + self.alnum(32)

    def django_key(self) -> str:
        return self.chars(_LOWER + _DIGITS + "!@#$%^&*(-_=+)", 50)

    def wg_key(self) -> str:
        return self.b64(32)

    def jwt(self, flavour: str | None = None) -> str:
        flavour = flavour or self.pick(("hs", "rs", "supabase", "firebase"))
        iat = 1704067200 + self.num(0, 31_000_000)
        if flavour == "supabase":
            header = {"alg": "HS256", "typ": "JWT"}
            payload = {
                "iss": "supabase",
                "ref": self.chars(_LOWER, 20),
                "role": "service_role",
                "iat": iat,
                "exp": iat + 315_360_000,
            }
            sig = self.b64url(32)
        elif flavour == "rs":
            header = {"alg": "RS256", "kid": self.hexs(16), "typ": "JWT"}
            payload = {
                "sub": self.uuid(),
                "email": self.pick(_PEOPLE)[1] + "@tidewell.app",
                "scope": "orders:read orders:write",
                "iat": iat,
                "exp": iat + 3600,
            }
            sig = self.b64url(256)
        elif flavour == "firebase":
            header = {"alg": "RS256", "kid": self.hexs(40), "typ": "JWT"}
            payload = {
                "iss": "https://securetoken.google.com/ember-live-" + self.hexs(4),
                "aud": "ember-live",
                "user_id": self.alnum(28),
                "iat": iat,
                "exp": iat + 3600,
            }
            sig = self.b64url(256)
        else:
            header = {"alg": "HS256", "typ": "JWT"}
            payload = {
                "user_id": self.num(1000, 99999),
                "role": self.pick(("admin", "staff", "user")),
                "iat": iat,
                "exp": iat + 86400,
            }
            sig = self.b64url(32)
        return _b64url_json(header) + "." + _b64url_json(payload) + "." + sig

    def pem(self, kind: str | None = None) -> str:
        kind = kind or self.pick(("openssh", "rsa", "ec", "pkcs8"))
        if kind == "openssh":
            pk = self.raw(32)
            check = self.raw(4)
            comment = (
                self.pick(_PEOPLE)[1] + "@" + self.pick(("build-01", "laptop", "hopper-login", "ops-util-1"))
            ).encode()
            pub = _sshstr(b"ssh-ed25519") + _sshstr(pk)
            priv = check + check + pub + _sshstr(self.raw(32) + pk) + _sshstr(comment)
            pad = 1
            while len(priv) % 8:
                priv += bytes([pad])
                pad += 1
            blob = (
                b"openssh-key-v1\x00"
                + _sshstr(b"none")
                + _sshstr(b"none")
                + _sshstr(b"")
                + struct.pack(">I", 1)
                + _sshstr(pub)
                + _sshstr(priv)
            )
            label, body, width = "OPENSSH " + _PRIV, base64.b64encode(blob).decode(), 70
        elif kind == "rsa":
            der = b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + self.raw(1180)
            label, body, width = "RSA " + _PRIV, base64.b64encode(der).decode(), 64
        elif kind == "ec":
            der = (
                b"\x30\x77\x02\x01\x01\x04\x20"
                + self.raw(32)
                + b"\xa0\x0a\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\xa1\x44\x03\x42\x00\x04"
                + self.raw(64)
            )
            label, body, width = "EC " + _PRIV, base64.b64encode(der).decode(), 64
        else:
            der = (
                b"\x30\x82\x04\xbe\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7"
                b"\x0d\x01\x01\x01\x05\x00\x04\x82\x04\xa8" + self.raw(1192)
            )
            label, body, width = _PRIV, base64.b64encode(der).decode(), 64
        lines = [_DASHES + "BEGIN " + label + _DASHES]
        lines += _wrap(body, width)
        lines.append(_DASHES + "END " + label + _DASHES)
        return "\n".join(lines)

    # -- public / non-secret values for look-alikes --------------------------
    def ssh_pub(self, comment: str) -> str:
        if self.chance(0.7):
            blob = _sshstr(b"ssh-ed25519") + _sshstr(self.raw(32))
            return "ssh-ed25519 " + base64.b64encode(blob).decode() + " " + comment
        blob = _sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(b"\x00" + self.raw(384))
        return "ssh-rsa " + base64.b64encode(blob).decode() + " " + comment

    def public_pem(self, label: str = "PUBLIC KEY") -> str:
        if label == "CERTIFICATE":
            der = b"\x30\x82\x03\x8c\x30\x82\x02\x74\xa0\x03\x02\x01\x02\x02\x14" + self.raw(880)
        else:
            der = (
                b"\x30\x82\x01\x22\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01"
                b"\x01\x05\x00\x03\x82\x01\x0f\x00" + self.raw(270)
            )
        lines = [_DASHES + "BEGIN " + label + _DASHES]
        lines += _wrap(base64.b64encode(der).decode(), 64)
        lines.append(_DASHES + "END " + label + _DASHES)
        return "\n".join(lines)

    def bcrypt_hash(self) -> str:
        alphabet = "./" + _ALNUM
        return "$2b$12$" + self.chars(alphabet, 53)

    def argon2_hash(self) -> str:
        return "$argon2id$v=19$m=65536,t=3,p=4$" + self.b64(16).rstrip("=") + "$" + self.b64(32).rstrip("=")

    def pbkdf2_hash(self) -> str:
        return "pbkdf2_sha256$600000$" + self.alnum(22) + "$" + self.b64(32)

    def sha512_integrity(self) -> str:
        return "sha512-" + self.b64(64)


def _ctx(R: _R) -> dict:
    """Common filler values for every template."""
    a, b, c = R.r.sample(range(len(_PEOPLE)), 3)
    month, day = R.num(1, 12), R.num(1, 28)
    weekday = _WEEKDAYS[datetime.date(2024, month, day).weekday()]
    month2, day2 = R.num(1, 12), R.num(1, 28)
    hh, mm = R.num(7, 21), R.num(0, 48)
    m2 = mm + R.num(1, 4)
    m3 = m2 + R.num(1, 6)
    ss = R.num(0, 59)
    date = f"2024-{month:02d}-{day:02d}"
    return {
        "p1": _PEOPLE[a][0],
        "p2": _PEOPLE[b][0],
        "p3": _PEOPLE[c][0],
        "h1": _PEOPLE[a][1],
        "h2": _PEOPLE[b][1],
        "h3": _PEOPLE[c][1],
        "date": date,
        "date2": f"{day2} {_MONTHS[month2 - 1]}",
        "day": weekday,
        "time": f"{hh:02d}:{mm:02d}",
        "time2": f"{hh:02d}:{m2:02d}",
        "time3": f"{hh:02d}:{m3:02d}",
        "ts": f"{date}T{hh:02d}:{mm:02d}:{ss:02d}Z",
        "ticket": R.pick(("OPS", "INC", "WEB", "DATA", "IT", "EMB", "LAB")) + "-" + str(R.num(100, 4999)),
        "n": str(R.num(2, 9)),
        "n2": str(R.num(10, 59)),
        "n3": str(R.num(60, 480)),
        "n4": str(R.num(100, 9999)),
        "sha": R.hexs(40),
        "sha7": R.hexs(7),
        "s7a": R.hexs(7),
        "s7b": R.hexs(7),
        "s7c": R.hexs(7),
        "pr": str(R.num(40, 2400)),
        "ip": f"10.{R.num(0, 40)}.{R.num(0, 255)}.{R.num(2, 254)}",
        "ip2": f"172.{R.num(16, 31)}.{R.num(0, 255)}.{R.num(2, 254)}",
        "pubip": f"{R.pick((81, 85, 91, 94, 145, 185, 212))}.{R.num(0, 255)}.{R.num(0, 255)}.{R.num(2, 254)}",
        "uuid": R.uuid(),
        "uuid2": R.uuid(),
        "region": R.pick(_REGIONS),
        "ns": R.pick(("prod", "staging", "payments", "data", "ember-live", "jhub", "monitoring")),
        "ver": f"{R.num(1, 4)}.{R.num(0, 20)}.{R.num(0, 30)}",
        "job": str(R.num(1_000_000, 9_999_999)),
        "acct": R.digits(12),
        "epoch": str(1704067200 + R.num(0, 31_000_000)),
        "dur": f"{R.num(1, 59)}.{R.num(0, 9)}s",
        "ua": R.pick(_UAS),
        "hex64": R.hexs(64),
        "hex40": R.hexs(40),
        "hex32": R.hexs(32),
        "hex16a": R.hexs(16),
        "hex16b": R.hexs(16),
        "hex16c": R.hexs(16),
        "suf6": R.alnum(6),
        "mac": ":".join(R.hexs(2) for _ in range(6)),
        "serial": R.upper_alnum(10),
        "int_sha": R.sha512_integrity(),
        "svc": R.pick(("api", "worker", "billing", "ember-server", "matchmaker", "etl", "jhub", "notifier", "admin")),
        "env": R.pick(("staging", "prod", "dev", "preview", "qa")),
        "var": R.pick(
            (
                "STRIPE_SECRET_KEY",
                "DATABASE_URL",
                "OPENAI_API_KEY",
                "NPM_TOKEN",
                "HF_TOKEN",
                "SENDGRID_API_KEY",
                "SLACK_BOT_TOKEN",
                "DEPLOY_TOKEN",
                "DB_PASSWORD",
                "REDIS_PASSWORD",
                "SENTRY_AUTH_TOKEN",
                "KEYSTORE_PASSWORD",
                "STEAM_BUILD_PASSWORD",
                "ANTHROPIC_API_KEY",
            )
        ),
        "vault": R.pick(("Engineering", "Data Platform", "IT", "Ember", "Cluster", "Web", "Ops")),
        "db": R.pick(("tidewell", "analytics", "ember", "game_telemetry", "inventory", "hopper_jobs")),
        "lang": R.pick(("Python", "TypeScript", "Go", "Kotlin", "C#", "Rust")),
    }


def _fill(template: str, ctx: dict) -> str:
    return _FIELD.sub(lambda m: ctx.get(m.group(1), m.group(0)), template)


def _s(factory):
    """Maker whose only value is the secret."""
    return lambda R: {"s": factory(R)}


# ---------------------------------------------------------------------------
# Positive kinds
# ---------------------------------------------------------------------------


def _aws_pair(R):
    return {"s": R.aws_secret(), "akid": R.aws_key_id()}


def _half_tail(R):
    full = R.aws_secret()
    return {"s": full[8:], "akid_masked": "AK" + "IA" + "*" * 12}


def _half_phrase(R):
    words = R.passphrase().split(" ")
    return {"s": " ".join(words[1:]), "masked": "*" * len(words[0])}


def _half_token(R):
    tok = R.github_token()
    return {"s": tok[10:]}


def _k8s_b64(R):
    pw = R.password(R.pick(("random", "words", "camel", "dashed")))
    return {
        "s": base64.b64encode(pw.encode()).decode(),
        "b64user": base64.b64encode(R.pick(("app", "api", "etl_loader", "ember")).encode()).decode(),
    }


def _basic_b64(R):
    user = R.pick(("ci", "deploy", "jenkins", "svc-nexus", "ember-build"))
    pw = R.url_password()
    return {"s": base64.b64encode((user + ":" + pw).encode()).decode(), "user": user}


def _ci_b64(R):
    pw = R.url_password()
    return {"s": base64.b64encode(("ci-push:" + pw).encode()).decode()}


def _bitlocker(R):
    return {"s": "-".join(f"{R.num(0, 65535) * 11:06d}" for _ in range(8)), "guid": R.uuid().upper()}


def _filevault(R):
    return {"s": "-".join(R.upper_alnum(4) for _ in range(6))}


def _apple_recovery(R):
    return {"s": "-".join(R.upper_alnum(4) for _ in range(7))}


def _gh_recovery(R):
    return {"s": R.hexs(5) + "-" + R.hexs(5)}


def _app_specific(R):
    return {"s": "-".join(R.chars(_LOWER, 4) for _ in range(4))}


def _gapp(R):
    return {"s": " ".join(R.chars(_LOWER, 4) for _ in range(4))}


def _totp(R):
    return {"s": R.chars(_B32, R.pick((16, 32)))}


def _totp_spaced(R):
    raw = R.chars(_B32, 32).lower()
    return {"s": " ".join(raw[i : i + 4] for i in range(0, 32, 4))}


def _express_sid(R):
    return {"s": "s%3A" + R.b64url(24) + "." + R.b64url(32)}


def _rails_cookie(R):
    return {"s": R.b64(96).replace("=", "%3D").replace("+", "%2B").replace("/", "%2F") + "--" + R.hexs(40)}


def _pw_rows(R):
    return {"s": R.password(), "other": R.pick(("(reset link sent)", "(SSO)", "", "(changed by user)"))}


def _pem_escaped(R):
    pem = R.pem("pkcs8")
    return {"s": pem.replace("\n", "\\n"), "keyid": R.hexs(40), "cid": R.digits(21)}


def _wifi(R):
    return {
        "s": R.pick(
            (
                R.password("dashed"),
                R.password("words"),
                R.password("camel"),
                R.passphrase().replace(" ", "-"),
                R.password("season"),
            )
        )
    }


def _positive_specs():
    specs = []
    pw = _s(lambda R: R.password())
    urlpw = _s(lambda R: R.url_password())
    phrase = _s(lambda R: R.passphrase())
    opaque = _s(lambda R: R.opaque())

    # 1 -------------------------------------------------------------------
    specs.append(
        (
            "github_token",
            _s(lambda R: R.github_token()),
            [
                (
                    "Onboarding notes – {p1} (web team)\n"
                    "1. Laptop + YubiKey from IT, then ask in #it-help for the GitHub org invite\n"
                    "2. SSO isn't enforced on the tidewell org yet, so HTTPS + token works for now\n"
                    "3. temp token until yours is set up (repo, read:packages; expires end of month):\n"
                    "   {s}\n"
                    "4. `make bootstrap` in web-app pulls the private @tidewell npm packages\n"
                    "5. ping {p2} for Linear + Sentry seats"
                ),
                (
                    "$ cat .git/config\n"
                    "[core]\n"
                    "\trepositoryformatversion = 0\n"
                    "\tfilemode = true\n"
                    "\tbare = false\n"
                    "\tlogallrefupdates = true\n"
                    '[remote "origin"]\n'
                    "\turl = https://{h1}:{s}@github.com/tidewell/web-app.git\n"
                    "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
                    '[branch "main"]\n'
                    "\tremote = origin\n"
                    "\tmerge = refs/heads/main"
                ),
                (
                    "$ gh auth status --show-token\n"
                    "github.com\n"
                    "  ✓ Logged in to github.com account {h1} (keyring)\n"
                    "  - Active account: true\n"
                    "  - Git operations protocol: https\n"
                    "  - Token: {s}\n"
                    "  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'"
                ),
                (
                    "release job {job} log (lanternfish/build-tools), step 'Tag release':\n"
                    "+ git remote set-url origin https://x-access-token:{s}@github.com/lanternfish/build-tools.git\n"
                    "+ git push origin HEAD:refs/tags/v{ver}\n"
                    "To https://github.com/lanternfish/build-tools.git\n"
                    " * [new tag]         HEAD -> v{ver}\n"
                    "note: the token comes from the app-token step, which doesn't register it as a mask"
                ),
                (
                    "PR #{pr} review — {p2} on scripts/sync_issues.py, line 12:\n"
                    '> GITHUB_TOKEN = "{s}"\n'
                    "Please read this from the environment instead. It's your personal token and it's in "
                    "the PR diff now, so revoke it and generate a new one."
                ),
                (
                    "[{time}] {h1}: renovate keeps failing with 401 on the private packages\n"
                    "[{time2}] {h1}: swapped in my own token for now → {s}\n"
                    "[{time3}] {h2}: ok but please make a bot account, that one dies with your SSO session"
                ),
                (
                    "Handover: release tooling\n"
                    "- release.sh needs GITHUB_TOKEN with contents:write on build-tools and ember-client\n"
                    "- current token is Dana's fine-grained one, expires in November: {s}\n"
                    "- if it expires the nightly tag job fails silently (TODO: alert on it)\n"
                    "- owner after I leave: {p2}"
                ),
                (
                    "# quick script to close stale issues on the lab repo\n"
                    "from github import Github\n"
                    "\n"
                    'g = Github("{s}")  # TODO env var before pushing\n'
                    'repo = g.get_repo("kessler-lab/hopper-jobs")\n'
                    'for issue in repo.get_issues(state="open", labels=["stale"]):\n'
                    '    issue.edit(state="closed")'
                ),
                (
                    "  311  docker build --build-arg GH_TOKEN={s} -t tidewell/api:dev .\n"
                    "  312  docker run --rm -p 8080:8080 tidewell/api:dev\n"
                    "  313  git status"
                ),
                ("$ env | grep -i -E '^(git|gh)_'\nGIT_EDITOR=vim\nGH_TOKEN={s}\nGIT_PAGER=less -FRX"),
                (
                    "Notiz für {p2}: Für das Deployment-Skript brauchst du ein GitHub-Token mit repo-Rechten. "
                    "Nimm vorerst meins: {s} — läuft am {date} ab, danach bitte ein eigenes anlegen."
                ),
                ("{s}\n↑ temporary token for the release bot (contents:write), expires {date2}. Don't commit it."),
            ],
        )
    )

    # 2 -------------------------------------------------------------------
    specs.append(
        (
            "aws_secret_key",
            _aws_pair,
            [
                (
                    "~/.aws/credentials from the old build box (copied before wiping it):\n"
                    "\n"
                    "[default]\n"
                    "aws_access_key_id = {akid}\n"
                    "aws_secret_access_key = {s}\n"
                    "region = {region}"
                ),
                (
                    "$ aws iam create-access-key --user-name ci-deployer\n"
                    "{\n"
                    '    "AccessKey": {\n'
                    '        "UserName": "ci-deployer",\n'
                    '        "AccessKeyId": "{akid}",\n'
                    '        "Status": "Active",\n'
                    '        "SecretAccessKey": "{s}",\n'
                    '        "CreateDate": "{ts}"\n'
                    "    }\n"
                    "}\n"
                    "(new key for the deploy workflow; old one is 400+ days old, delete after cutover)"
                ),
                (
                    "{ticket} timeline ({date}, UTC)\n"
                    "{time} GuardDuty: unusual ListBuckets from {pubip}\n"
                    "{time2} traced to a public gist by a contractor containing {akid} / {s}\n"
                    "{time3} {p1} deactivating the key, {p2} pulling CloudTrail for everything it touched"
                ),
                (
                    "$ docker inspect etl-runner | jq '.[0].Config.Env'\n"
                    "[\n"
                    '  "AWS_ACCESS_KEY_ID={akid}",\n'
                    '  "AWS_SECRET_ACCESS_KEY={s}",\n'
                    '  "AWS_DEFAULT_REGION={region}",\n'
                    '  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",\n'
                    '  "PYTHONUNBUFFERED=1"\n'
                    "]"
                ),
                (
                    "Kessler Lab — S3 for datasets\n"
                    "bucket: s3://kessler-datasets-{region}\n"
                    "lab IAM user: lab-datasets\n"
                    "access key id: {akid}\n"
                    "secret: {s}\n"
                    "please don't use these outside the cluster; ask {p1} if you need write access"
                ),
                (
                    "s3 = boto3.client(\n"
                    '    "s3",\n'
                    '    aws_access_key_id="{akid}",\n'
                    '    aws_secret_access_key="{s}",\n'
                    '    region_name="{region}",\n'
                    ")  # TODO: switch to the instance role once IT sets it up"
                ),
                (
                    "rclone config for the nightly backup (ops-util-1:~/.config/rclone/rclone.conf)\n"
                    "[meridian-backup]\n"
                    "type = s3\n"
                    "provider = AWS\n"
                    "access_key_id = {akid}\n"
                    "secret_access_key = {s}\n"
                    "region = {region}\n"
                    "storage_class = GLACIER_IR"
                ),
                (
                    "{p1}: which secret goes with {akid}?\n"
                    "{p2}: {s}\n"
                    "{p2}: it's the data-etl user, read-only on the raw bucket"
                ),
                (
                    "terraform.tfvars (staging, NOT committed — keep it that way)\n"
                    'aws_access_key = "{akid}"\n'
                    'aws_secret_key = "{s}"\n'
                    'environment    = "staging"'
                ),
                (
                    "Credenciales de AWS para el entorno de pruebas (usuario ci-staging):\n"
                    "Access key: {akid}\n"
                    "Secret: {s}\n"
                    "No las subas al repo, por favor. — {p1}"
                ),
            ],
        )
    )

    # 3 -------------------------------------------------------------------
    bot = _s(lambda R: R.slack_bot())
    user = _s(lambda R: R.slack_user())
    hook = _s(lambda R: R.slack_webhook())
    specs.append(
        (
            "slack_token",
            bot,
            [
                (
                    "#ops-alerts bot setup ({date})\n"
                    "- app: Meridian Ops Alerts\n"
                    "- bot token: {s}\n"
                    "- scopes: chat:write, chat:write.public, channels:read\n"
                    "- invited to #ops-alerts and #it-oncall"
                ),
                (
                    hook,
                    (
                        "# settings/notifications.py\n"
                        'SLACK_WEBHOOK_URL = "{s}"  # posts to #deploys\n'
                        'NOTIFY_ON = ("deploy_finished", "migration_failed")'
                    ),
                ),
                (
                    hook,
                    (
                        "$ curl -X POST -H 'Content-type: application/json' "
                        '--data \'{"text":"nightly ETL finished: {n2} tables"}\' {s}\n'
                        "ok"
                    ),
                ),
                (
                    "CI job {job} (build-ember-android) output:\n"
                    "+ curl -s -F file=@build.log -F channels=C04{serial} -F token={s} https://slack.com/api/files.upload\n"
                    '{"ok":true,"file":{"id":"F06{serial}"}}'
                ),
                (
                    user,
                    (
                        "The standup reminder runs from cron on ops-util-1 (/etc/cron.d/standup) and posts as me "
                        "with my user token: {s}\n"
                        "Please reissue it under the svc-ops Slack account before my last day ({date})."
                    ),
                ),
                (".env (ember-build-notifier)\nSLACK_BOT_TOKEN={s}\nSLACK_CHANNEL=#build-ember\nSTEAM_BRANCH=beta"),
                (
                    hook,
                    (
                        "Airflow → Admin → Variables, added by {p1} on {date}:\n"
                        "key: slack_webhook_data_alerts\n"
                        "val: {s}\n"
                        "used by dags/common/alerts.py"
                    ),
                ),
                (
                    "[{time}] {h1}: what token does the lab's job-finished notifier use?\n"
                    "[{time2}] {h2}: {s}\n"
                    "[{time2}] {h2}: bot is called hopper-bot, only in #lab-jobs"
                ),
            ],
        )
    )

    # 4 -------------------------------------------------------------------
    sk = _s(lambda R: R.stripe_secret())
    specs.append(
        (
            "stripe_key",
            sk,
            [
                (
                    lambda R: {"s": R.stripe_secret(), "pk": R.stripe_publishable()},
                    (
                        ".env.production (tidewell/api) as it was on the old VM\n"
                        "NODE_ENV=production\n"
                        "STRIPE_SECRET_KEY={s}\n"
                        "STRIPE_PUBLISHABLE_KEY={pk}\n"
                        "SENTRY_ENVIRONMENT=production"
                    ),
                ),
                (
                    "{ticket} {date}: {p1} noticed the live secret key in the browser bundle "
                    '(main.{sha7}.js contained "{s}"). Cause: NEXT_PUBLIC_ prefix on the wrong var. '
                    "{p2} is rolling it in the dashboard now."
                ),
                (
                    lambda R: {"s": R.stripe_whsec()},
                    (
                        "Stripe webhook endpoint for prod: https://api.tidewell.app/webhooks/stripe\n"
                        "events: checkout.session.completed, invoice.paid, customer.subscription.deleted\n"
                        "signing secret: {s}"
                    ),
                ),
                (
                    lambda R: {"s": R.stripe_whsec()},
                    (
                        "$ stripe listen --forward-to localhost:3000/webhooks/stripe\n"
                        "> Ready! You are using Stripe API Version [2024-04-10]. "
                        "Your webhook signing secret is {s} (^C to quit)"
                    ),
                ),
                (
                    "$ curl https://api.stripe.com/v1/refunds \\\n"
                    "    -u {s}: \\\n"
                    "    -d charge=ch_{serial}{n4}\n"
                    "(refunded the double charge from the support ticket, {p1} approved)"
                ),
                (
                    lambda R: {"s": R.stripe_restricted()},
                    (
                        "Data team: restricted key for the revenue sync (read-only charges, customers, invoices).\n"
                        "Stored in Airflow connection stripe_readonly, password field:\n"
                        "{s}"
                    ),
                ),
                (
                    'PR #{pr} review — {p2}: `const stripe = new Stripe("{s}")` in src/billing/client.ts. '
                    "This is the live key. Please use process.env.STRIPE_SECRET_KEY and roll this one."
                ),
                (
                    "Note pour {p1} : la clé Stripe de prod (à ne pas partager) est {s} — "
                    "on la remettra dans Doppler quand la migration sera finie."
                ),
                "{s} is the live key, the test one is in Doppler. (from {p1}, {date})",
            ],
        )
    )

    # 5 -------------------------------------------------------------------
    specs.append(
        (
            "llm_api_key",
            _s(lambda R: R.llm_key()),
            [
                (
                    lambda R: {"s": R.openai_key()},
                    (
                        "eval harness how-to\n"
                        "1. module load python/3.11 && source ~/venvs/eval/bin/activate\n"
                        "2. export OPENAI_API_KEY={s}\n"
                        "3. python run_eval.py --model gpt-4o --suite reasoning-v2 --n {n3}\n"
                        "results land in /scratch/evals/<date>"
                    ),
                ),
                (
                    lambda R: {"s": R.anthropic_key()},
                    (
                        "In [3]: import anthropic\n"
                        'In [4]: client = anthropic.Anthropic(api_key="{s}")\n'
                        'In [5]: msg = client.messages.create(model="claude-3-5-sonnet-latest", max_tokens=512, messages=batch[0])'
                    ),
                ),
                (
                    "[{time}] {h1}: can someone send me the lab's API key for the labeling experiment?\n"
                    "[{time2}] {h2}: {s}\n"
                    "[{time2}] {h2}: the budget is shared so don't start the big sweep with it pls"
                ),
                (
                    "DEBUG llm.client: POST https://api.openai.com/v1/chat/completions\n"
                    "DEBUG llm.client: headers={'Authorization': 'Bearer {s}', "
                    "'Content-Type': 'application/json'}\n"
                    "DEBUG llm.client: 200 in {dur}"
                ),
                ("# .env (support-bot)\nLLM_API_KEY={s}\nLLM_MODEL=small\nMAX_TOKENS=800"),
                (
                    "litellm proxy config (lab box):\n"
                    "model_list:\n"
                    "  - model_name: default\n"
                    "    litellm_params:\n"
                    "      model: claude-3-5-haiku-latest\n"
                    '      api_key: "{s}"'
                ),
                ("Klucz do API dla projektu asystenta (limit 200 USD/mies., pyt. {p1}): {s}"),
                (
                    "{s}\n"
                    "^ that's the key for the summarizer prototype, paste it in Settings → Provider. "
                    "I'll swap it for a project-scoped one next week."
                ),
            ],
        )
    )

    # 6 -------------------------------------------------------------------
    specs.append(
        (
            "google_api_key",
            _s(lambda R: R.google_key()),
            [
                (
                    "google-services.json (ember-client, android/app) — relevant bit:\n"
                    '"api_key": [\n'
                    "  {\n"
                    '    "current_key": "{s}"\n'
                    "  }\n"
                    "],"
                ),
                (
                    "<!-- store locator page -->\n"
                    "<script async\n"
                    '  src="https://maps.googleapis.com/maps/api/js?key={s}&callback=initMap">\n'
                    "</script>"
                ),
                ('<meta-data\n    android:name="com.google.android.geo.API_KEY"\n    android:value="{s}" />'),
                (
                    "marketing pull: we read the campaign sheet with the Sheets API, key {s} "
                    "(project meridian-data-sheets). {p1} restricted it to the Sheets API only."
                ),
                (
                    '$ curl -s "https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent?key={s}" \\\n'
                    "    -H 'Content-Type: application/json' -d @prompt.json | jq '.candidates[0]'"
                ),
                (
                    "Community dashboard (YouTube view counts for the Ember trailers) uses YOUTUBE_API_KEY={s}. "
                    "Quota is 10k units/day."
                ),
            ],
        )
    )

    # 7 -------------------------------------------------------------------
    glpat = _s(lambda R: R.gitlab_pat())
    specs.append(
        (
            "gitlab_token",
            glpat,
            [
                (
                    "$ git clone https://oauth2:{s}@gitlab.meridian-corp.net/it/ansible-inventory.git\n"
                    "Cloning into 'ansible-inventory'...\n"
                    "remote: Enumerating objects: {n3}, done."
                ),
                (
                    "~/.python-gitlab.cfg\n"
                    "[global]\n"
                    "default = meridian\n"
                    "\n"
                    "[meridian]\n"
                    "url = https://gitlab.meridian-corp.net\n"
                    "private_token = {s}\n"
                    "api_version = 4"
                ),
                (
                    lambda R: {"s": R.gitlab_runner()},
                    (
                        "runner on build-02:\n"
                        "sudo gitlab-runner register --non-interactive \\\n"
                        "  --url https://gitlab.meridian-corp.net \\\n"
                        "  --token {s} \\\n"
                        "  --executor docker --docker-image alpine:3.19 --description build-02"
                    ),
                ),
                ('provider "gitlab" {\n  base_url = "https://gitlab.meridian-corp.net/api/v4/"\n  token    = "{s}"\n}'),
                (
                    "{p1}: the mirror job needs api scope, I made a project access token: {s}\n"
                    "{p2}: thanks, putting it into the scheduled pipeline vars"
                ),
                (
                    ".gitlab-ci.yml (infra/dns)\n"
                    "variables:\n"
                    '  GITLAB_API_TOKEN: "{s}"  # TODO move to Settings > CI/CD > Variables\n'
                    "  TF_ROOT: terraform/"
                ),
            ],
        )
    )

    # 8 -------------------------------------------------------------------
    specs.append(
        (
            "npm_token",
            _s(lambda R: R.npm_token()),
            [
                (
                    "$ cat ~/.npmrc\n"
                    "@tidewell:registry=https://registry.npmjs.org/\n"
                    "//registry.npmjs.org/:_authToken={s}\n"
                    "save-exact=true"
                ),
                (
                    "$ npm token create --cidr=0.0.0.0/0\n"
                    "┌────────────────┬──────────────────────────────────────────┐\n"
                    "│ token          │ {s} │\n"
                    "├────────────────┼──────────────────────────────────────────┤\n"
                    "│ readonly       │ false                                    │\n"
                    "│ created        │ {ts}                 │\n"
                    "└────────────────┴──────────────────────────────────────────┘"
                ),
                (
                    "FROM node:20-alpine\n"
                    "WORKDIR /app\n"
                    "COPY package*.json ./\n"
                    'RUN echo "//registry.npmjs.org/:_authToken={s}" > .npmrc && npm ci && rm .npmrc\n'
                    "COPY . ."
                ),
                (
                    "      - run: npm publish --access restricted\n"
                    "        env:\n"
                    "          NODE_AUTH_TOKEN: {s}  # FIXME secrets.NPM_TOKEN was empty on forks"
                ),
                (
                    "[{time}] {h1}: publish is failing with E401\n"
                    "[{time2}] {h2}: automation token got revoked, use this one: {s}\n"
                    "[{time3}] {h1}: works 🎉"
                ),
            ],
        )
    )

    # 9 -------------------------------------------------------------------
    specs.append(
        (
            "sendgrid_key",
            _s(lambda R: R.sendgrid_key()),
            [
                (
                    "# settings/production.py\n"
                    'EMAIL_HOST = "smtp.sendgrid.net"\n'
                    "EMAIL_PORT = 587\n"
                    'EMAIL_HOST_USER = "apikey"\n'
                    'EMAIL_HOST_PASSWORD = "{s}"\n'
                    "EMAIL_USE_TLS = True"
                ),
                ("SENDGRID_API_KEY={s}\nMAIL_FROM=no-reply@tidewell.app\nMAIL_REPLY_TO=support@tidewell.app"),
                (
                    "{date}: password-reset emails stopped. SendGrid had auto-revoked {s} after it showed up "
                    "in a public repo (a fork of our old landing page). {p1} made a new key with Mail Send only."
                ),
                (
                    "$ curl -X POST https://api.sendgrid.com/v3/mail/send \\\n"
                    '  -H "Authorization: Bearer {s}" \\\n'
                    "  -H 'Content-Type: application/json' -d @test-mail.json"
                ),
                (
                    "const sgMail = require('@sendgrid/mail');\n"
                    "sgMail.setApiKey('{s}'); // TODO env\n"
                    "await sgMail.send({ to, from: 'no-reply@tidewell.app', templateId });"
                ),
            ],
        )
    )

    # 10 ------------------------------------------------------------------
    specs.append(
        (
            "huggingface_token",
            _s(lambda R: R.hf_token()),
            [
                (
                    "$ huggingface-cli login --token {s}\n"
                    "Token is valid (permission: read).\n"
                    "Your token has been saved to /home/{h1}/.cache/huggingface/token\n"
                    "Login successful"
                ),
                (
                    "#!/bin/bash\n"
                    "#SBATCH --job-name=ft-llama\n"
                    "#SBATCH --gres=gpu:a100:4\n"
                    "#SBATCH --time=24:00:00\n"
                    "export HF_TOKEN={s}\n"
                    "export HF_HOME=/scratch/$USER/hf\n"
                    "srun python train.py --config configs/ft_{n}.yaml"
                ),
                (
                    "from huggingface_hub import login\n"
                    'login(token="{s}")  # lab read token\n'
                    'ds = load_dataset("kessler-lab/radiology-notes", split="train")'
                ),
                (
                    "{p1}: gated weights need a token with read access, you can use the lab one: {s}\n"
                    "{p2}: thx! will make my own after the deadline"
                ),
                (
                    "$ git clone https://{h1}:{s}@huggingface.co/datasets/kessler-lab/cell-images\n"
                    "Cloning into 'cell-images'..."
                ),
                ("$ cat ~/.cache/huggingface/token\n{s}"),
            ],
        )
    )

    # 11 ------------------------------------------------------------------
    specs.append(
        (
            "private_key_pem",
            _s(lambda R: R.pem()),
            [
                (
                    lambda R: {"s": R.pem("openssh")},
                    (
                        "deploy key for build-01 (read-only on lanternfish/ember-unity):\n"
                        "{s}\n"
                        "put it in ~/.ssh/id_ed25519 on the build agent, chmod 600"
                    ),
                ),
                (lambda R: {"s": R.pem("openssh")}, ("$ cat ~/.ssh/id_ed25519\n{s}\n$ ssh-add ~/.ssh/id_ed25519")),
                (
                    _pem_escaped,
                    (
                        "{\n"
                        '  "type": "service_account",\n'
                        '  "project_id": "meridian-analytics",\n'
                        '  "private_key_id": "{keyid}",\n'
                        '  "private_key": "{s}\\n",\n'
                        '  "client_email": "airflow@meridian-analytics.iam.gserviceaccount.com",\n'
                        '  "client_id": "{cid}"\n'
                        "}"
                    ),
                ),
                (
                    "[{time}] {h1}: here's the key for the vendor SFTP drop, the feed job needs it\n"
                    "{s}\n"
                    "[{time2}] {h2}: got it"
                ),
                (lambda R: {"s": R.pem("rsa")}, ("$ terraform output -raw bastion_ssh_private_key\n{s}")),
                (
                    lambda R: {"s": R.pem(R.pick(("ec", "pkcs8")))},
                    ("$ sudo cat /etc/letsencrypt/live/shop.tidewell.app/privkey.pem\n{s}"),
                ),
            ],
        )
    )

    # 12 ------------------------------------------------------------------
    specs.append(
        (
            "db_url_password",
            urlpw,
            [
                (
                    "# .env (api, staging)\n"
                    "PORT=8080\n"
                    "DATABASE_URL=postgres://app:{s}@pg-staging.internal.tidewell.app:5432/tidewell\n"
                    "REDIS_URL=redis://redis-staging:6379/0"
                ),
                (
                    "services:\n"
                    "  metabase:\n"
                    "    image: metabase/metabase:v0.49.3\n"
                    "    environment:\n"
                    '      MB_DB_CONNECTION_URI: "postgres://metabase:{s}@{ip}:5432/metabase"\n'
                    '    ports: ["3000:3000"]'
                ),
                (
                    "airflow connections add warehouse \\\n"
                    "  --conn-uri 'postgresql://etl_loader:{s}@warehouse.meridian.local:5432/analytics'"
                ),
                (
                    "{ts} INFO  telemetry-ingest: connecting to mysql://root:{s}@{ip}:3306/game_telemetry\n"
                    "{ts} ERROR telemetry-ingest: (2003) Can't connect to MySQL server (timed out)"
                ),
                (
                    "Atlas cluster for the leaderboard service:\n"
                    "mongodb+srv://leaderboard:{s}@ember-prod.x{suf6}.mongodb.net/?retryWrites=true&w=majority"
                ),
                (
                    "cache: redis://:{s}@redis-cache.{ns}.svc:6379/0  (the password is the same for all three envs, yes I know)"
                ),
                (
                    "Metabase → Admin → Databases → warehouse, JDBC string:\n"
                    "jdbc:postgresql://warehouse.meridian.local:5432/analytics?user=metabase_ro&password={s}&ssl=true"
                ),
                (
                    "ステージングDBの接続文字列（{p1}さん用）:\n"
                    "postgresql://dev:{s}@{ip}:5432/ember_staging\n"
                    "本番には使わないでください。"
                ),
            ],
        )
    )

    # 13 ------------------------------------------------------------------
    specs.append(
        (
            "http_basic_auth",
            urlpw,
            [
                (
                    "/etc/pip.conf on the build agents\n"
                    "[global]\n"
                    "index-url = https://deploy:{s}@nexus.meridian-corp.net/repository/pypi-group/simple\n"
                    "trusted-host = nexus.meridian-corp.net"
                ),
                (
                    "$ git remote -v\n"
                    "origin\thttps://{h1}:{s}@bitbucket.org/lanternfish/ember-server.git (fetch)\n"
                    "origin\thttps://{h1}:{s}@bitbucket.org/lanternfish/ember-server.git (push)"
                ),
                (
                    "Started by timer\n"
                    "Running as SYSTEM\n"
                    " > git fetch --tags --force --progress -- https://jenkins:{s}@git.meridian.local/it/scripts.git +refs/heads/*:refs/remotes/origin/*\n"
                    "Checking out Revision {sha} (refs/remotes/origin/main)"
                ),
                (
                    "$ curl -u admin:{s} https://grafana.meridian.local/api/dashboards/uid/node-exporter | jq .meta.version\n"
                    "{n2}"
                ),
                (
                    _basic_b64,
                    (
                        "request to the artifact proxy that 403s (from the agent log):\n"
                        "GET /repository/maven-releases/com/lanternfish/ember-core/{ver}/ember-core-{ver}.pom\n"
                        "Authorization: Basic {s}\n"
                        "User-Agent: Gradle/8.7"
                    ),
                ),
                (
                    _basic_b64,
                    (
                        "$ cat ~/.docker/config.json\n"
                        "{\n"
                        '  "auths": {\n'
                        '    "registry.meridian-corp.net": {\n'
                        '      "auth": "{s}"\n'
                        "    }\n"
                        "  }\n"
                        "}"
                    ),
                ),
                (
                    "<server>\n"
                    "  <id>meridian-nexus</id>\n"
                    "  <username>svc-maven</username>\n"
                    "  <password>{s}</password>\n"
                    "</server>"
                ),
            ],
        )
    )

    # 14 ------------------------------------------------------------------
    specs.append(
        (
            "wifi_password",
            _wifi,
            [
                'Offsite logistics ({date}): venue wifi is "Harbour-Events", password {s}. Lunch at 12:30.',
                "the wifi is {s} btw (network: Lanternfish-Studio-5G)",
                "WLAN im Büro Köln: Meridian-Gast / Passwort: {s} (gilt bis Quartalsende)",
                "$ nmcli dev wifi connect \"KesslerLab-IoT\" password \"{s}\"\nDevice 'wlan0' successfully activated with '{uuid}'.",
                (
                    "/etc/wpa_supplicant/wpa_supplicant.conf on the lobby display pi:\n"
                    "network={\n"
                    '    ssid="Meridian-Devices"\n'
                    '    psk="{s}"\n'
                    "    key_mgmt=WPA-PSK\n"
                    "}"
                ),
                "QR for the guest wifi poster encodes: WIFI:T:WPA;S:Tidewell-Guest;P:{s};;",
                "{p1}: wifi?\n{p2}: Lanternfish-Studio / {s}\n{p1}: ty",
                "Le mot de passe du wifi invités est {s} (il change chaque trimestre, demander à {p1}).",
                'Playtest night checklist: booth laptops charged ✔ controllers ✔ wifi for testers: "Ember-Playtest" / {s} ✔',
                "{s} ← wifi pw for the Lisbon offsite apartment (network: Casa-{n4})",
            ],
        )
    )

    # 15 ------------------------------------------------------------------
    specs.append(
        (
            "spoken_password",
            pw,
            [
                (
                    "Ops sync {date}\n"
                    '- {p1} read out the new break-glass admin password on the call: "{s}"\n'
                    "- {p2} to put it in the vault and rotate after the audit\n"
                    "- printer on 3rd floor still broken"
                ),
                (
                    "[00:14:32] {p1}: ok so the password for the shared test account is {s}\n"
                    "[00:14:40] {p2}: can you repeat that\n"
                    "[00:14:43] {p1}: I'll paste it in chat"
                ),
                (
                    "Retro notes: {p1} said the old NAS root password out loud on the all-hands Zoom ({s}). "
                    "Action: rotate it today, {p2} owns."
                ),
                (
                    phrase,
                    (
                        'Shared drive encryption passphrase, as {p1} dictated it: "{s}" '
                        "(spaces between the words, all lowercase)"
                    ),
                ),
                ("Playtest night: the login for the booth build is {s} — {p2} announced it to the whole room anyway."),
                (
                    "Notulen IT-overleg {date}: nieuw wachtwoord voor de gedeelde receptie-pc is {s} "
                    "(voorgelezen door {p1})."
                ),
                ("1:1 with {p2}: agreed the Figma team password goes into 1Password today. For the record it's {s}."),
            ],
        )
    )

    # 16 ------------------------------------------------------------------
    specs.append(
        (
            "chat_followup_password",
            pw,
            [
                (
                    "[{time}] {h1}: what's the password for the staging admin panel?\n"
                    "[{time2}] {h2}: {s}\n"
                    "[{time3}] {h1}: 👍"
                ),
                (
                    "{p1}  {time}\n"
                    "hey, do you remember the login for the old Jenkins? user is admin\n"
                    "{p2}  {time2}\n"
                    "{s}\n"
                    "{p2}  {time2}\n"
                    "please don't write it down anywhere 🙃"
                ),
                ("> Could you send me the password for the shared finance mailbox?\n\n{s}\n\nBest,\n{p2}"),
                ("{p1}: ¿cuál es la contraseña del router de la oficina?\n{p2}: {s}\n{p1}: gracias!!"),
                ("{p1}: 検証用サーバのrootパスワード教えてください\n{p2}: {s}\n{p1}: ありがとうございます！"),
                ("Q ({p1}): what do I put for KEYSTORE_PASS in my local.properties?\nA ({p2}): `{s}`"),
                (
                    "[{time}] <{h1}> anyone know the unifi controller login?\n"
                    "[{time2}] <{h2}> ops-admin\n"
                    "[{time2}] <{h2}> {s}"
                ),
            ],
        )
    )

    # 17 ------------------------------------------------------------------
    specs.append(
        (
            "pin_code",
            _s(lambda R: R.pin()),
            [
                "Server room door code changed today ({date}): {s}#",
                "QA phone test SIM: PIN lock disabled, PUK {s} — in case someone enables it again",
                "Alarm disarm code for the studio (new, from {p1}): {s}",
                "Test device unlock passcode (Pixel 8, lab shelf 2): {s}",
                "Tresor im Büro (HR-Schrank): Code {s}, nicht weitergeben.",
                "YubiKey PIV PIN for {p1} reset to {s}, please change it on first use (ykman piv access change-pin)",
                "Support line voicemail: dial *86, mailbox PIN {s}",
                "{s} is the new code for the bike room, the old one stopped working Monday",
            ],
        )
    )

    # 18 ------------------------------------------------------------------
    specs.append(
        (
            "k8s_secret_yaml",
            _k8s_b64,
            [
                (
                    "$ kubectl get secret api-db -n {ns} -o yaml\n"
                    "apiVersion: v1\n"
                    "data:\n"
                    "  DB_PASSWORD: {s}\n"
                    "  DB_USER: {b64user}\n"
                    "kind: Secret\n"
                    "metadata:\n"
                    '  creationTimestamp: "{ts}"\n'
                    "  name: api-db\n"
                    "  namespace: {ns}\n"
                    '  resourceVersion: "{job}"\n'
                    "  uid: {uuid}\n"
                    "type: Opaque"
                ),
                (
                    pw,
                    (
                        "$ kubectl get secret grafana-admin -n monitoring -o jsonpath='{.data.admin-password}' | base64 -d\n"
                        "{s}"
                    ),
                ),
                ('$ kubectl get secret jhub-proxy -n jhub -o json | jq .data\n{\n  "proxy-token": "{s}"\n}'),
                (
                    pw,
                    (
                        "PR #{pr} review: this adds k8s/overlays/prod/secret.yaml with\n"
                        "stringData:\n"
                        '  RABBITMQ_PASSWORD: "{s}"\n'
                        "Please use a SealedSecret instead, plaintext in git is a no."
                    ),
                ),
                (
                    pw,
                    (
                        "  501  kubectl create secret generic ember-db -n ember-live --from-literal=username=ember --from-literal=password='{s}'\n"
                        "  502  kubectl rollout restart deploy/ember-api -n ember-live"
                    ),
                ),
                (
                    "apiVersion: v1\n"
                    "kind: Secret\n"
                    "metadata:\n"
                    "  name: minio-creds\n"
                    "  namespace: data\n"
                    "data:\n"
                    "  accesskey: {b64user}\n"
                    "  secretkey: {s}"
                ),
            ],
        )
    )

    # 19 ------------------------------------------------------------------
    dpw = _s(lambda R: R.pick((R.password("random"), R.hexs(64), R.url_password(), R.b64url(32))))
    specs.append(
        (
            "docker_inspect_env",
            dpw,
            [
                (
                    "$ docker inspect --format '{{json .Config.Env}}' tidewell-api\n"
                    '["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin","NODE_VERSION=20.12.2",'
                    '"NODE_ENV=production","JWT_SECRET={s}","PORT=8080"]'
                ),
                (
                    "$ docker inspect ember-db\n"
                    "...\n"
                    '            "Env": [\n'
                    '                "POSTGRES_USER=ember",\n'
                    '                "POSTGRES_PASSWORD={s}",\n'
                    '                "POSTGRES_DB=ember",\n'
                    '                "PGDATA=/var/lib/postgresql/data"\n'
                    "            ],\n"
                    "..."
                ),
                (
                    "$ docker compose config | grep -A6 environment\n"
                    "    environment:\n"
                    "      MINIO_ROOT_USER: labadmin\n"
                    "      MINIO_ROOT_PASSWORD: {s}\n"
                    "      MINIO_BROWSER_REDIRECT_URL: https://minio.kesslerlab.org"
                ),
                (
                    "$ docker exec rabbitmq env\n"
                    "HOSTNAME=3f9{sha7}\n"
                    "RABBITMQ_DEFAULT_USER=telemetry\n"
                    "RABBITMQ_DEFAULT_PASS={s}\n"
                    "RABBITMQ_VERSION=3.13.1\n"
                    "HOME=/var/lib/rabbitmq"
                ),
                (
                    "Portainer → Containers → keycloak → Env (copied for the ticket):\n"
                    "KC_DB=postgres\n"
                    "KC_DB_USERNAME=keycloak\n"
                    "KC_DB_PASSWORD={s}\n"
                    "KC_HOSTNAME=sso.meridian-corp.net"
                ),
            ],
        )
    )

    # 20 ------------------------------------------------------------------
    envs = _s(lambda R: R.pick((R.hexs(128), R.django_key(), R.opaque(), R.password("random"))))
    specs.append(
        (
            "env_dump",
            envs,
            [
                (
                    "$ env | sort\n"
                    "HOME=/home/app\n"
                    "HOSTNAME=api-7f9c{hex16a}\n"
                    "LANG=C.UTF-8\n"
                    "NODE_ENV=production\n"
                    "PATH=/usr/local/bin:/usr/bin:/bin\n"
                    "SECRET_KEY_BASE={s}\n"
                    "TZ=UTC"
                ),
                (
                    "$ heroku config -a tidewell-staging\n"
                    "=== tidewell-staging Config Vars\n"
                    "LOG_LEVEL:         info\n"
                    "SESSION_SECRET:    {s}\n"
                    "WEB_CONCURRENCY:   2"
                ),
                (
                    "CI debug step (added by {p1}, please remove):\n"
                    "+ printenv | grep -v PATH\n"
                    "CI=true\n"
                    "GITHUB_REF=refs/heads/main\n"
                    "INTERNAL_API_TOKEN={s}\n"
                    "RUNNER_OS=Linux"
                ),
                (
                    "# cat /proc/1/environ | tr '\\0' '\\n'\n"
                    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
                    "LICENSE_SERVER_KEY={s}\n"
                    "JAVA_OPTS=-Xmx2g"
                ),
                (
                    "$ systemctl show ember-matchmaker -p Environment\n"
                    "Environment=RUST_LOG=info MM_REGION=eu MM_SHARED_SECRET={s}"
                ),
                (
                    "$ vercel env pull .env.local && cat .env.local\n"
                    "# Created by Vercel CLI\n"
                    'NEXTAUTH_URL="http://localhost:3000"\n'
                    'NEXTAUTH_SECRET="{s}"\n'
                    'VERCEL_ENV="development"'
                ),
            ],
        )
    )

    # 21 ------------------------------------------------------------------
    specs.append(
        (
            "ci_log_leak",
            opaque,
            [
                (
                    "Run ./scripts/deploy.sh\n"
                    "+ set -x\n"
                    "+ curl -fsS -X POST -H 'Authorization: token {s}' https://deploy.tidewell.app/api/releases -d ref={sha7}\n"
                    '{"status":"queued"}'
                ),
                (
                    pw,
                    (
                        "[Pipeline] sh\n"
                        "+ docker login -u ci -p {s} registry.meridian-corp.net\n"
                        "WARNING! Using --password via the CLI is insecure. Use --password-stdin.\n"
                        "Login Succeeded"
                    ),
                ),
                (
                    pw,
                    (
                        '$ echo "deploying with $DEPLOY_PASSWORD"\n'
                        "deploying with {s}\n"
                        "(GitLab can't mask this variable: it contains characters that aren't allowed for masked variables)"
                    ),
                ),
                (
                    _ci_b64,
                    (
                        "Step 4/9 : configure registry auth\n"
                        '+ echo -n "$REG_USER:$REG_PASS" | base64\n'
                        "{s}\n"
                        "(masking only hides the raw secret, not its base64 — found by {p1} while reading the log)"
                    ),
                ),
                (
                    "buildkite agent log, job {job}:\n"
                    "~~~ Setting up plugins\n"
                    "$ export SENTRY_AUTH_TOKEN={s}\n"
                    "~~~ Running commands\n"
                    "$ yarn build"
                ),
                (
                    "circleci › build-ios › step 'Print env (debug)':\n"
                    "FASTLANE_SESSION_SECRET={s}\n"
                    "FASTLANE_HIDE_TIMESTAMP=true\n"
                    "MATCH_READONLY=true"
                ),
            ],
        )
    )

    # 22 ------------------------------------------------------------------
    bearer = _s(lambda R: R.pick((R.alnum(40), R.b64url(32), R.hexs(48))))
    specs.append(
        (
            "http_bearer_export",
            bearer,
            [
                (
                    "copy as cURL from devtools (the request that returns 500):\n"
                    "curl 'https://api.tidewell.app/v2/orders?limit=50&cursor={hex16a}' \\\n"
                    "  -H 'accept: application/json' \\\n"
                    "  -H 'authorization: Bearer {s}' \\\n"
                    "  -H 'user-agent: {ua}' \\\n"
                    "  --compressed"
                ),
                (
                    "from the HAR ({p1} attached it to {ticket}):\n"
                    '"request": {\n'
                    '  "method": "GET",\n'
                    '  "url": "https://api.tidewell.app/v2/me",\n'
                    '  "headers": [\n'
                    '    {"name": "Authorization", "value": "Bearer {s}"},\n'
                    '    {"name": "Accept", "value": "application/json"}\n'
                    "  ]\n"
                    "}"
                ),
                (
                    _s(lambda R: R.hexs(40)),
                    (
                        '$ http GET https://inventory.meridian-corp.net/api/assets/{n4} Authorization:"Token {s}"\n'
                        "HTTP/1.1 200 OK"
                    ),
                ),
                (
                    _s(lambda R: R.tidewell_key()),
                    (
                        "Postman collection export (Tidewell public API, {p1}'s prod partner key), auth section:\n"
                        '"auth": {\n'
                        '  "type": "bearer",\n'
                        '  "bearer": [{"key": "token", "value": "{s}", "type": "string"}]\n'
                        "}"
                    ),
                ),
                (
                    "curl -s https://telemetry.lanternfish.games/v1/events/export?day={date} -H 'X-Api-Key: {s}' -o events.ndjson"
                ),
            ],
        )
    )

    # 23 ------------------------------------------------------------------
    sess = _s(lambda R: R.pick((R.lower_alnum(32), R.lower_alnum(26), R.b64url(32))))
    specs.append(
        (
            "session_cookie",
            sess,
            [
                (
                    "curl 'https://admin.tidewell.app/orders/{n4}/' \\\n"
                    "  -H 'cookie: django_language=en; sessionid={s}; _ga=GA1.1.{n4}.{epoch}' \\\n"
                    "  -H 'user-agent: {ua}'"
                ),
                (
                    '"cookies": [\n'
                    '  {"name": "_session_id", "value": "{s}", "httpOnly": true, "secure": true},\n'
                    '  {"name": "theme", "value": "dark"}\n'
                    "]"
                ),
                (
                    _express_sid,
                    (
                        "Repro for {ticket}: log in as the QA admin, then the response has\n"
                        "Set-Cookie: connect.sid={s}; Path=/; HttpOnly; SameSite=Lax\n"
                        "and the next request to /api/export 403s anyway."
                    ),
                ),
                (
                    "cookies.txt for the scraper (Netscape format):\n"
                    "# Netscape HTTP Cookie File\n"
                    ".portal.meridian-corp.net\tTRUE\t/\tTRUE\t{epoch}\tPHPSESSID\t{s}"
                ),
                (
                    "{p1}: use my session to repro the dashboard bug, paste this in the console:\n"
                    'document.cookie = "sessionid={s}; path=/"'
                ),
                (_rails_cookie, ("Cookie: _tidewell_session={s}")),
            ],
        )
    )

    # 24 ------------------------------------------------------------------
    specs.append(
        (
            "sql_dump_secret",
            _s(lambda R: R.tidewell_key()),
            [
                (
                    "-- from the staging dump, table api_keys; row 3 predates the hashing migration\n"
                    "COPY public.api_keys (id, account_id, label, key_prefix, key_hash, legacy_plain, created_at) FROM stdin;\n"
                    "1\t{n4}\tzapier\ttwk_live_a\t{hex64}\t\\N\t{date} 10:02:11\n"
                    "3\t{n3}\tshopify-sync\ttwk_live_b\t\\N\t{s}\t{date} 11:47:03\n"
                    "\\."
                ),
                (
                    pw,
                    (
                        "INSERT INTO `users` (`id`, `email`, `password`, `role`) VALUES\n"
                        "({n4}, '{h1}@lanternfish.games', '{s}', 'admin');\n"
                        "-- legacy CMS, passwords were never hashed, this is why we're migrating"
                    ),
                ),
                (
                    "analytics=> select id, name, api_key from partners where id = {n2};\n"
                    " id |   name    |              api_key\n"
                    "----+-----------+------------------------------------------\n"
                    " {n2} | Shopwave  | {s}\n"
                    "(1 row)"
                ),
                (
                    lambda R: {"s": R.hexs(32).upper()},
                    (
                        '$ sqlite3 tools/publish.db "select key, value from config"\n'
                        "steam_app_id|{n4}\n"
                        "steam_web_api_key|{s}\n"
                        "last_build|{job}"
                    ),
                ),
                (
                    pw,
                    (
                        "-- migration 0042 (data team), ran by hand on {date}\n"
                        "CREATE USER etl_loader WITH PASSWORD '{s}';\n"
                        "GRANT INSERT, SELECT ON ALL TABLES IN SCHEMA raw TO etl_loader;"
                    ),
                ),
                (pw, ("mysql> ALTER USER 'grafana'@'%' IDENTIFIED BY '{s}';\nQuery OK, 0 rows affected (0.01 sec)")),
            ],
        )
    )

    # 25 ------------------------------------------------------------------
    specs.append(
        (
            "csv_export_password",
            _pw_rows,
            [
                (
                    "qa_accounts.csv\n"
                    "email,role,password\n"
                    "qa-admin@tidewell.app,admin,{s}\n"
                    "qa-viewer@tidewell.app,viewer,{s}\n"
                    "qa-support@tidewell.app,support,{s}"
                ),
                (
                    "laptop_handout_{date}.csv\n"
                    "asset_tag,user,model,local_admin_pw\n"
                    "MER-{n4},{h1},ThinkPad T14,{s}\n"
                    "MER-{n3},{h2},ThinkPad T14,{other}"
                ),
                ("booth,device,login,password\nA,steamdeck-1,playtest,{s}\nB,steamdeck-2,playtest,{other}"),
                (
                    "Workshop accounts (JupyterHub, valid until Friday):\n"
                    "username;temp_password;group\n"
                    "ws-{n2};{s};workshop\n"
                    "ws-{n3};{other};workshop"
                ),
                (
                    '"vendor","portal","username","password","notes"\n'
                    '"Ricoh","https://myricoh.example-portal.com","it@meridian-corp.net","{s}","printer contracts"'
                ),
            ],
        )
    )

    # 26 ------------------------------------------------------------------
    cm = opaque
    specs.append(
        (
            "commit_message_secret",
            cm,
            [
                (
                    "commit {sha}\n"
                    "Author: {p1} <{h1}@tidewell.app>\n"
                    "Date:   {date} {time}:11 +0200\n"
                    "\n"
                    "    Remove hardcoded mail API key\n"
                    "\n"
                    "    Oops, {s} was in settings/base.py since #{pr}; it's read from env now."
                ),
                (
                    "fix(ci): remove leftover debug token\n"
                    "\n"
                    "The token {s} was only for local testing, will revoke it after merge."
                ),
                (
                    "$ git log --oneline -4\n"
                    "{sha7} revert: put DEPLOY_TOKEN={s} back until vault works\n"
                    "{s7a} fix: healthcheck path\n"
                    "{s7b} chore: bump deps\n"
                    "{s7c} feat: vault integration (WIP)"
                ),
                (
                    pw,
                    (
                        "Squash merge of #{pr} (seed-data):\n"
                        "* add staging seed user admin@tidewell.app / {s}\n"
                        "* fix fixtures order\n"
                        "* update README"
                    ),
                ),
                (
                    _s(lambda R: R.tidewell_key()),
                    (
                        'Revert "Remove hardcoded API key"\n'
                        "\n"
                        "This reverts commit {sha}.\n"
                        'Prod broke without it: api_key = "{s}" is back for now, sorry.'
                    ),
                ),
            ],
        )
    )

    # 27 ------------------------------------------------------------------
    specs.append(
        (
            "half_redacted",
            pw,
            [
                (
                    _half_tail,
                    (
                        "env for context (I masked the secrets):\n"
                        "AWS_ACCESS_KEY_ID={akid_masked}\n"
                        "AWS_SECRET_ACCESS_KEY=********{s}\n"
                        "AWS_REGION={region}"
                    ),
                ),
                (
                    "DB password: ******** (see vault)\n"
                    "...\n"
                    "repro:\n"
                    "psql \"host=pg-staging.internal user=app password={s} dbname=tidewell\" -c 'select 1'"
                ),
                (
                    lambda R: {"s": R.opaque()},
                    (
                        "Ticket summary: OAuth callback fails, client_secret=[REDACTED]\n"
                        "Attached log:\n"
                        "POST /oauth/token grant_type=authorization_code&client_id=ember-web&client_secret={s}&code={hex16a}"
                    ),
                ),
                (
                    "Subject: New VPN credentials for ********\n"
                    "\n"
                    "Hi {p1}, your temporary password is {s} — please change it at first login."
                ),
                (
                    lambda R: {"s": R.opaque()},
                    (
                        "GET /v1/export  Authorization: Bearer ****\n"
                        "...the same client also sends it in the query string: GET /v1/export?access_token={s}&format=csv"
                    ),
                ),
                (_half_phrase, ("backup passphrase (first word blanked for the wiki): {masked} {s}")),
                (_half_token, ("token (first 10 chars hidden): **********{s}")),
            ],
        )
    )

    # 28 ------------------------------------------------------------------
    specs.append(
        (
            "jwt",
            _s(lambda R: R.jwt()),
            [
                (
                    "{ts} WARN  api.auth: token rejected: exp in the past\n"
                    "{ts} DEBUG api.auth: Authorization: Bearer {s}"
                ),
                ("> localStorage.getItem('access_token')\n'{s}'"),
                (
                    "decoded the token from the failing request on jwt.io:\n"
                    "{s}\n"
                    "payload looks fine, so it's the clock skew on ember-api-2"
                ),
                (
                    lambda R: {"s": R.jwt("supabase")},
                    ("SUPABASE_URL=https://{suf6}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={s}"),
                ),
                (
                    lambda R: {"s": R.jwt("firebase")},
                    ("adb logcat excerpt:\nD/AuthRepo: refreshed idToken={s}\nD/AuthRepo: next refresh in 3300s"),
                ),
                ("{s}\n^ admin token for the internal API, valid 24h, use it to replay the webhooks"),
            ],
        )
    )

    # 29 ------------------------------------------------------------------
    specs.append(
        (
            "framework_secret_key",
            _s(lambda R: R.django_key()),
            [
                (
                    "# tidewell/settings/base.py\n"
                    "DEBUG = False\n"
                    "SECRET_KEY = '{s}'\n"
                    'ALLOWED_HOSTS = ["admin.tidewell.app"]'
                ),
                (
                    lambda R: {"s": R.hexs(128)},
                    (
                        "config/credentials (decrypted with `bin/rails credentials:show`):\n"
                        "secret_key_base: {s}\n"
                        "active_record_encryption:\n"
                        "  primary_key: (see below)"
                    ),
                ),
                (
                    lambda R: {"s": R.hexs(64)},
                    (
                        "app = Flask(__name__)\n"
                        'app.secret_key = "{s}"  # generated with secrets.token_hex()\n'
                        'app.config["SESSION_COOKIE_SECURE"] = True'
                    ),
                ),
                (
                    lambda R: {"s": "base64:" + R.b64(32)},
                    ("APP_NAME=Ember-Admin\nAPP_ENV=production\nAPP_KEY={s}\nAPP_DEBUG=false"),
                ),
                (
                    lambda R: {"s": R.b64url(32)},
                    ("app.use(session({\n  secret: '{s}',\n  resave: false,\n  saveUninitialized: false,\n}));"),
                ),
                (
                    lambda R: {"s": R.b64(32)},
                    (
                        "{p1}: what do I set NEXTAUTH_SECRET to locally?\n"
                        "{p2}: use the shared one so sessions work across the preview deploys: {s}"
                    ),
                ),
            ],
        )
    )

    # 30 ------------------------------------------------------------------
    specs.append(
        (
            "server_password",
            pw,
            [
                (
                    "## Handover — IT infra (from {p1})\n"
                    "| System | URL | User | Password |\n"
                    "|---|---|---|---|\n"
                    "| Synology NAS | https://nas01.meridian.local:5001 | admin | {s} |\n"
                    "| UPS web card | http://{ip} | apc | see sticker |"
                ),
                "iDRAC for esx-03: root / {s} (the factory default was changed in March)",
                "UniFi controller: https://unifi.meridian.local:8443 login ops-admin, pw {s}",
                "GPU box (gpu-node-07) sudo password for driver installs only: {s} — ask {p2} before upgrading CUDA",
                "Senha do root do servidor de build (build-01): {s}. Trocar depois da entrega do projeto.",
                "router admin (studio, Fritz!Box): http://192.168.178.1 — {s}",
                (
                    "ESXi hosts (esx-01..04)\n"
                    "user: root\n"
                    "pass: {s}\n"
                    "lockdown mode is OFF, {p1} will turn it on after the migration"
                ),
                "{s} — root on nas01, reset by {p1} after the disk swap on {date}",
            ],
        )
    )

    # 31 ------------------------------------------------------------------
    specs.append(
        (
            "cli_password_flag",
            pw,
            [
                (
                    "$ history | tail -4\n"
                    "  501  cd infra/game-db\n"
                    "  502  mysql -u root -p'{s}' -h {ip} game_live\n"
                    "  503  exit\n"
                    "  504  history | tail -4"
                ),
                "sshpass -p '{s}' ssh -o StrictHostKeyChecking=no ops@{ip} 'sudo systemctl restart cups'",
                (
                    "PGPASSWORD='{s}' pg_dump -h warehouse.meridian.local -U etl_loader -Fc analytics > /backup/analytics_{date}.dump"
                ),
                (
                    "$ docker login -u lanternfish -p '{s}' registry.lanternfish.games\n"
                    "WARNING! Using --password via the CLI is insecure. Use --password-stdin.\n"
                    "Login Succeeded"
                ),
                "C:\\> net user svc_backup {s} /add /domain",
                "htpasswd -b /etc/nginx/.htpasswd preview '{s}'   # preview site for the publisher",
                ("openssl pkcs12 -export -in cert.pem -inkey key.pem -out ember-push.p12 -passout 'pass:{s}'"),
                "redis-cli -h redis-cache.{ns}.svc -a '{s}' --no-auth-warning INFO keyspace",
                "mongodump --uri=\"mongodb://{ip}:27017\" --username backup --password '{s}' --out /backup/mongo",
            ],
        )
    )

    # 32 ------------------------------------------------------------------
    specs.append(
        (
            "smtp_password",
            pw,
            [
                (
                    "From: Mail Provider <support@mailrelay-provider.net>\n"
                    "Subject: Your SMTP credentials\n"
                    "\n"
                    "Server: smtp.mailrelay-provider.net:587\n"
                    "Username: meridian-notify\n"
                    "Password: {s}"
                ),
                ("/etc/postfix/sasl_passwd\n[smtp.office365.com]:587 scanner@meridian-corp.net:{s}"),
                (
                    "Copier on floor 3 (Ricoh) — scan to email uses scanner@meridian-corp.net / {s}. "
                    "If it stops working, check that the password didn't expire."
                ),
                (
                    "~/.msmtprc\n"
                    "account lab\n"
                    "host smtp.kesslerlab.org\n"
                    "port 587\n"
                    "user cluster-notify\n"
                    "password {s}\n"
                    "from cluster-notify@kesslerlab.org"
                ),
                (
                    "grafana.ini\n"
                    "[smtp]\n"
                    "enabled = true\n"
                    "host = smtp.meridian-corp.net:587\n"
                    "user = grafana@meridian-corp.net\n"
                    'password = """{s}"""'
                ),
                (
                    _gapp,
                    ("Google Workspace app password for noreply@tidewell.app (SMTP relay, smtp.gmail.com:587): {s}"),
                ),
                (_gapp, ("{s}\n^ app password {p1} generated for the scanner@ mailbox, the copier can't do OAuth")),
            ],
        )
    )

    # 33 ------------------------------------------------------------------
    cfg = _s(lambda R: R.pick((R.uuid(), R.hexs(32), R.alnum(40), R.b64url(24))))
    specs.append(
        (
            "config_api_key",
            cfg,
            [
                ('config/production.yaml\nshipping:\n  provider: parcelbridge\n  api_key: "{s}"\n  timeout_s: 10'),
                ('[analytics]\nendpoint = "https://ingest.metricsbox.io"\napi_key = "{s}"\nflush_interval = 30'),
                (
                    "appsettings.json (helpdesk integration):\n"
                    "{\n"
                    '  "Helpdesk": {\n'
                    '    "BaseUrl": "https://meridian.helpdesk-cloud.com",\n'
                    '    "ApiKey": "{s}"\n'
                    "  }\n"
                    "}"
                ),
                ("# ember-server/config.ini\n[sms]\ngateway = https://api.sms-gateway.eu/v2\nsecret = {s}"),
                (
                    "reporting.properties\n"
                    "internal.reporting.url=https://reports.meridian-corp.net\n"
                    "internal.reporting.apiKey={s}"
                ),
                ("geo lookup key for the signup form — {s} — paid plan, 50k req/month, don't put it in the frontend"),
                (_s(lambda R: R.hexs(40)), ("$ cat ~/.netrc\nmachine api.wandb.ai\n  login user\n  password {s}")),
            ],
        )
    )

    # 34 ------------------------------------------------------------------
    specs.append(
        (
            "url_query_token",
            _s(lambda R: R.alnum(32)),
            [
                (
                    "Export link for the finance CSV (valid 7 days): "
                    "https://reports.meridian-corp.net/export/{n4}.csv?access_token={s}"
                ),
                ("deploy hook: https://ci.tidewell.app/hooks/deploy?project=api&secret={s}"),
                (
                    lambda R: {"s": R.hexs(32)},
                    (
                        "lab calendar, private address (so we can subscribe from phones): "
                        "https://calendar.google.com/calendar/ical/kessler.lab%40gmail.com/private-{s}/basic.ics"
                    ),
                ),
                (
                    lambda R: {"s": R.alnum(43)},
                    (
                        "{p1}: can't log into staging admin\n"
                        "{p2}: here's a reset link for you https://admin.staging.tidewell.app/reset?token={s}"
                    ),
                ),
                ("Weekly sync: https://us06web.zoom.us/j/{n4}{n4}?pwd={s}.1"),
                (
                    "remote trigger for the nightly: curl -X POST "
                    "'https://jenkins.meridian.local/job/nightly-etl/buildWithParameters?token={s}&DATE={date}'"
                ),
            ],
        )
    )

    # 35 ------------------------------------------------------------------
    specs.append(
        (
            "backup_passphrase",
            phrase,
            [
                (
                    "restic repo on B2 (lab archive)\n"
                    "export RESTIC_REPOSITORY=b2:kessler-archive:/hopper\n"
                    "export RESTIC_PASSWORD='{s}'\n"
                    "restic snapshots"
                ),
                (pw, "7z a -p{s} -mhe=on payroll_{date}.7z payroll/   # password goes to HR by phone"),
                (
                    "Hi {p1}, the export is the encrypted zip I sent earlier. Password, in a separate mail as agreed:\n"
                    "{s}"
                ),
                ('borg on ops-util-1: BORG_REPO=ssh://borg@backup01/./ops  BORG_PASSPHRASE="{s}"'),
                ("GPG release signing key (builds@lanternfish.games), passphrase: {s}"),
                (
                    pw,
                    (
                        "$ cat ~/.vault_pass\n"
                        "{s}\n"
                        "$ ansible-playbook -i inventory site.yml --vault-password-file ~/.vault_pass"
                    ),
                ),
                ("VeraCrypt container for the HR archive — {s} — only {p1} and {p2} should know this"),
            ],
        )
    )

    # 36 ------------------------------------------------------------------
    specs.append(
        (
            "recovery_key",
            _bitlocker,
            [
                ("Recovery key for LT-{n4} ({p1}'s laptop, locked out after the BIOS update):\n{s}"),
                (
                    "PS C:\\> manage-bde -protectors -get C:\n"
                    "Volume C: [OS]\n"
                    "All Key Protectors\n"
                    "\n"
                    "    Numerical Password:\n"
                    "      ID: {{guid}}\n"
                    "      Password:\n"
                    "        {s}"
                ),
                (_filevault, ("FileVault personal recovery key for the build Mac mini (mac-build-2): {s}")),
                (
                    _gh_recovery,
                    (
                        "If you get locked out of the ember-bot GitHub account, use this recovery code: {s} "
                        "(the rest are in the safe)"
                    ),
                ),
                (
                    _apple_recovery,
                    (
                        "Apple ID recovery key for the studio's developer account: {s}\n"
                        "Without it we can't reset the account, keep it safe!"
                    ),
                ),
            ],
        )
    )

    # 37 ------------------------------------------------------------------
    specs.append(
        (
            "mobile_signing_password",
            pw,
            [
                (
                    "android/keystore.properties\n"
                    "storePassword={s}\n"
                    "keyPassword={s}\n"
                    "keyAlias=upload\n"
                    "storeFile=../upload-keystore.jks"
                ),
                (
                    "signingConfigs {\n"
                    "    release {\n"
                    '        storeFile file("ember-release.jks")\n'
                    '        storePassword "{s}"\n'
                    '        keyAlias "ember"\n'
                    '        keyPassword "{s}"\n'
                    "    }\n"
                    "}"
                ),
                (
                    _app_specific,
                    (
                        "fastlane/.env.default\n"
                        "FASTLANE_USER=builds@lanternfish.games\n"
                        "FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD={s}"
                    ),
                ),
                (
                    "$ keytool -list -v -keystore ember-release.jks -storepass '{s}' | head -5\n"
                    "Keystore type: PKCS12\n"
                    "Keystore provider: SUN\n"
                    "Your keystore contains 1 entry"
                ),
                (
                    _app_specific,
                    ("xcrun altool --upload-app -f build/Ember.ipa -t ios -u builds@lanternfish.games -p {s}"),
                ),
                ("Unity → Player Settings → Publishing Settings: keystore pass is {s}, alias pass is the same"),
            ],
        )
    )

    # 38 ------------------------------------------------------------------
    specs.append(
        (
            "jupyter_token",
            _s(lambda R: R.hexs(48)),
            [
                (
                    "[I {date} {time}:02.123 ServerApp] Jupyter Server 2.14.0 is running at:\n"
                    "[I {date} {time}:02.123 ServerApp] http://gpu-node-07:8888/lab?token={s}\n"
                    "[I {date} {time}:02.123 ServerApp]     http://127.0.0.1:8888/lab?token={s}\n"
                    "[I {date} {time}:02.124 ServerApp] Use Control-C to stop this server and shut down all kernels."
                ),
                (
                    "$ jupyter server list\n"
                    "Currently running servers:\n"
                    "http://localhost:8890/?token={s} :: /home/{h1}/projects/segmentation"
                ),
                ("notebook for the reading group is up on the shared box: http://{ip}:8888/?token={s}"),
                ("ssh -L 8888:localhost:8888 hopper-login, then open http://localhost:8888/tree?token={s}"),
            ],
        )
    )

    # 39 ------------------------------------------------------------------
    specs.append(
        (
            "totp_seed",
            _totp,
            [
                (
                    "otpauth://totp/Meridian%20VPN:{h1}?secret={s}&issuer=Meridian%20VPN&algorithm=SHA1&digits=6&period=30"
                ),
                (
                    _totp_spaced,
                    (
                        "2FA setup key for the shared AWS root account (so more than one person can generate codes):\n"
                        "{s}"
                    ),
                ),
                (
                    'Screenshot of the 2FA setup page says "Can\'t scan? Enter this key instead: {s}" — added it to the ops phone too.'
                ),
                ("TOTP seed for the Steamworks partner account (team shared): {s}"),
            ],
        )
    )

    # 40 ------------------------------------------------------------------
    wgk = _s(lambda R: R.wg_key())
    specs.append(
        (
            "vpn_secret",
            pw,
            [
                ('/etc/ipsec.secrets (warehouse site-to-site)\n{pubip} %any : PSK "{s}"'),
                (
                    lambda R: {"s": R.wg_key(), "peer": R.wg_key()},
                    (
                        "wg0.conf for {p1}'s laptop\n"
                        "[Interface]\n"
                        "PrivateKey = {s}\n"
                        "Address = 10.66.0.{n2}/32\n"
                        "DNS = 10.66.0.1\n"
                        "\n"
                        "[Peer]\n"
                        "PublicKey = {peer}\n"
                        "Endpoint = vpn.kesslerlab.org:51820\n"
                        "AllowedIPs = 10.20.0.0/16"
                    ),
                ),
                ("L2TP for the warehouse office: server {pubip}, shared secret {s}, then your AD login"),
                (wgk, ("[Peer]\nPublicKey = (see wg show)\nPresharedKey = {s}\nEndpoint = {pubip}:51820")),
                (
                    "config vpn ipsec phase1-interface\n"
                    '    edit "to-colo"\n'
                    "        set remote-gw {pubip}\n"
                    "        set psksecret {s}\n"
                    "    next\n"
                    "end"
                ),
            ],
        )
    )

    # 41 ------------------------------------------------------------------
    specs.append(
        (
            "service_account_password",
            pw,
            [
                (
                    "/etc/sssd/sssd.conf (hopper-login)\n"
                    "[domain/kesslerlab]\n"
                    "ldap_uri = ldaps://ldap.kesslerlab.org\n"
                    "ldap_default_bind_dn = cn=sssd-reader,ou=services,dc=kesslerlab,dc=org\n"
                    "ldap_default_authtok = {s}"
                ),
                ("svc_backup (AD) password was reset today, new one: {s} — update it in the Veeam job credentials"),
                (
                    '$cred = New-Object System.Management.Automation.PSCredential("MERIDIAN\\svc_sql", '
                    '(ConvertTo-SecureString "{s}" -AsPlainText -Force))'
                ),
                ("conn = Connection(server, 'cn=jira-sync,ou=svc,dc=meridian,dc=local', '{s}', auto_bind=True)"),
                (
                    "Jira user directory (LDAP): bind user MERIDIAN\\svc_jira, password {s}, base DN ou=Staff,dc=meridian,dc=local"
                ),
                ("service account for the print server scans: MERIDIAN\\svc_scan / {s} (never expires, yes, I know)"),
                "{s}\n(svc_veeam, domain MERIDIAN — for the backup job only, {p1} knows the rest)",
            ],
        )
    )

    # 42 ------------------------------------------------------------------
    shot = _s(lambda R: R.pick((R.password(), R.password(), R.aws_secret(), R.github_token())))
    specs.append(
        (
            "screenshot_transcription",
            shot,
            [
                ('[Screenshot {date} at {time}.png] 1Password item "Staging DB" with the password revealed: {s}'),
                ('Image description: photo of a sticky note on {p1}\'s monitor that says "VPN: {s}"'),
                (
                    "OCR of the whiteboard photo from planning:\n"
                    "SPRINT 14 GOALS\n"
                    "- leaderboard v2\n"
                    "- guest wifi pw → {s}\n"
                    "- fix crash on resume"
                ),
                ("Alt text: Jenkins › Credentials › deploy-prod, the password field has 'show' toggled and reads {s}"),
                (
                    "screenshot (from {p2}'s bug report): terminal window, last lines read\n"
                    "  Password for 'https://{h2}@github.com': {s}\n"
                    "  remote: Invalid username or password."
                ),
            ],
        )
    )

    return specs


# ---------------------------------------------------------------------------
# Look-alikes: no credential anywhere in these texts
# ---------------------------------------------------------------------------


def _prefixes(R):
    """Vendor prefixes only (never a full token), for docs and rules."""
    return {
        "gh_pre": "gh" + "p_",
        "pat_pre": "github" + "_pat_",
        "sk_pre": "sk" + "_live_",
        "xoxb": "xo" + "xb-",
        "akia": "AK" + "IA",
        "glpat": "gl" + "pat-",
        "npm_pre": "np" + "m_",
        "hf_pre": "h" + "f_",
        "sg_pre": "S" + "G.",
        "aiza": "AI" + "za",
        "skproj": "sk-" + "proj-",
        "skant": "sk-" + "ant-",
        "l4": R.alnum(4),
        "l4b": R.hexs(4),
    }


def _placeholders(R):
    return {
        "ph_gh": "gh" + "p_" + "x" * 36,
        "ph_sk": "sk" + "_live_" + R.pick(("x" * 24, "X" * 24, "0" * 24)),
        "ph_xoxb": "xo" + "xb-" + "XXXXXXXXXXXX-XXXXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXX",
        "ph_akia": "AK" + "IA" + "X" * 16,
        "ph_npm": "np" + "m_" + "0" * 36,
        "ph_key": R.pick(("<your-api-key>", "YOUR_API_KEY_HERE", "REPLACE_ME", "${API_KEY}", "<redacted>")),
    }


def _aws_examples(R):
    return {
        "ex_id": "AK" + "IA" + "IOSFODNN7" + "EXAMPLE",
        "ex_secret": "wJalrXUtnFEMI/" + "K7MDENG/" + "bPxRfiCY" + "EXAMPLE" + "KEY",
    }


def _pubkeys(R):
    comment = R.pick(_PEOPLE)[1] + "@" + R.pick(("laptop", "mbp-14", "build-01", "hopper-login", "ops-util-1"))
    return {
        "pub": R.ssh_pub(comment),
        "pub2": R.ssh_pub("deploy@" + R.pick(("ember-ci", "tidewell-gha", "ansible"))),
        "fp": "SHA256:" + R.b64(32).rstrip("="),
    }


def _pem_public(R):
    return {"cert": R.public_pem("CERTIFICATE"), "pubpem": R.public_pem("PUBLIC KEY")}


def _hashes(R):
    return {
        "bc1": R.bcrypt_hash(),
        "bc2": R.bcrypt_hash(),
        "ar": R.argon2_hash(),
        "pb": R.pbkdf2_hash(),
        "pre1": "twk_live_" + R.alnum(4),
        "pre2": "twk_live_" + R.alnum(4),
    }


def _jwt_header(R):
    alg = R.pick(("HS256", "RS256"))
    return {"jwth": _b64url_json({"alg": alg, "typ": "JWT"}), "alg": alg}


def _b64cfg(R):
    cfg = {
        "env": R.pick(("staging", "prod", "dev")),
        "debug": False,
        "region": R.pick(_REGIONS),
        "features": ["leaderboard", "cloud-saves"][: R.num(1, 2)],
    }
    text = json.dumps(cfg, separators=(",", ":"))
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + R.raw(R.num(40, 90))
    return {"cfgjson": text, "b64cfg": base64.b64encode(text.encode()).decode(), "png": base64.b64encode(png).decode()}


def _ids(R):
    return {
        "gclient": R.digits(12) + "-" + R.lower_alnum(32) + ".apps.googleusercontent.com",
        "ghclient": "Iv1." + R.hexs(16),
        "cus": "cus_" + R.alnum(14),
        "pi": "pi_" + R.alnum(24),
        "ch": "ch_" + R.alnum(24),
        "evt": "evt_" + R.alnum(24),
        "req": "req_" + R.alnum(14),
        "inv": "in_" + R.alnum(24),
        "guid1": R.hexs(32),
        "guid2": R.hexs(32),
        "xc1": R.hexs(24).upper(),
        "xc2": R.hexs(24).upper(),
        "kvver": R.hexs(32),
        "fpr": R.hexs(40).upper(),
        "keyid16": R.hexs(16).upper(),
        "sha1fp": ":".join(R.hexs(2).upper() for _ in range(20)),
        "trace": "00-" + R.hexs(32) + "-" + R.hexs(16) + "-01",
        "wandb": R.lower_alnum(8),
        "teamid": R.upper_alnum(10),
        "md5": R.hexs(32),
        "imei": R.digits(15),
        "phone": "+49 30 " + R.digits(8),
        "order": R.digits(10),
        "track": "1Z" + R.upper_alnum(16),
        "digest": R.hexs(64),
        "digest2": R.hexs(64),
        "wgpub": R.wg_key(),
        "wgpub2": R.wg_key(),
        "uuid3": R.uuid(),
    }


def _la_specs():
    L = []

    def add(name, maker, templates):
        L.append((name, maker, templates))

    add(
        "incident_rotation_timeline",
        None,
        [
            (
                "{ticket} postmortem ({date})\n"
                "Summary: a Stripe restricted key was committed to tidewell/web-app in PR #{pr}.\n"
                "Timeline (UTC)\n"
                "{time} secret scanning alert fires\n"
                "{time2} {p1} rolls the key in the Stripe dashboard; new key stored in Doppler (prd)\n"
                "{time3} deploy picks up the new key, old key confirmed revoked\n"
                "Action items: push protection org-wide ({p2}), gitleaks pre-commit ({p3})"
            ),
            (
                "Ops log {date}\n"
                "- rotated the LDAP bind password for svc_jira (quarterly rotation)\n"
                "- updated it in Vault at secret/ops/jira-ldap, Jira reconnected fine\n"
                "- next rotation due {date2}, reminder set for {p1}"
            ),
            (
                "[{time}] {h1}: heads up, rotating the HF token the cluster jobs use\n"
                "[{time2}] {h1}: new one is in /shared/secrets/hf_token (group kessler-ml, mode 0640)\n"
                "[{time3}] {h2}: 👍 will restart my sweep after"
            ),
            (
                "{ticket}: AWS access key for ci-deployer was {n3} days old. {p1} created a new key, "
                "updated the GitHub environment secret, verified a deploy, then deleted the old key. No exposure."
            ),
        ],
    )
    add(
        "onboarding_where_to_find",
        None,
        [
            (
                "Onboarding – data team ({p1})\n"
                '- warehouse creds: 1Password → vault "Data Platform" → item "warehouse etl_loader"\n'
                "- Airflow UI login is your SSO account\n"
                "- Metabase: ask {p2} for an invite, don't use the shared admin"
            ),
            (
                "Welcome {p1}! The wifi password is on the card at reception, VPN uses your AD login + Duo. "
                "Your first-day password comes by SMS from IT and must be changed on first login."
            ),
            (
                "New starter checklist (game team)\n"
                "1. Unity license: request via #it-help, {p2} assigns seats\n"
                "2. Perforce: account is created by the build team, password reset link arrives by mail\n"
                "3. Steamworks: you get an invite, enable Steam Guard before accepting"
            ),
            (
                "Cluster access: ssh keys only, no passwords. Send your public key to {p1}; "
                "the sudo password for gpu boxes is NOT shared — open a ticket ({ticket}) instead."
            ),
        ],
    )
    add(
        "masked_cli_output",
        None,
        [
            (
                "$ fly secrets list -a tidewell-api\n"
                "NAME                 \tDIGEST          \tCREATED AT\n"
                "DATABASE_URL         \t{hex16a}\t{n}d ago\n"
                "STRIPE_SECRET_KEY    \t{hex16b}\t{n2}d ago\n"
                "SESSION_SECRET       \t{hex16c}\t3mo ago"
            ),
            (
                "$ kubectl describe secret api-env -n {ns}\n"
                "Name:         api-env\n"
                "Namespace:    {ns}\n"
                "Type:  Opaque\n"
                "\n"
                "Data\n"
                "====\n"
                "DATABASE_URL:       {n3} bytes\n"
                "JWT_SECRET:         64 bytes\n"
                "STRIPE_SECRET_KEY:  107 bytes"
            ),
            (
                "$ gh secret list --repo lanternfish/ember-client\n"
                "NAME                    UPDATED\n"
                "ANDROID_KEYSTORE_B64    about {n} months ago\n"
                "KEYSTORE_PASSWORD       about {n} months ago\n"
                "STEAM_BUILD_PASSWORD    {n2} days ago"
            ),
            (
                "$ aws secretsmanager describe-secret --secret-id prod/api/db\n"
                "{\n"
                '    "ARN": "arn:aws:secretsmanager:{region}:{acct}:secret:prod/api/db-{suf6}",\n'
                '    "Name": "prod/api/db",\n'
                '    "RotationEnabled": true,\n'
                '    "LastRotatedDate": "{ts}",\n'
                '    "VersionIdsToStages": {"{uuid}": ["AWSCURRENT"]}\n'
                "}"
            ),
        ],
    )
    add(
        "env_dump_nonsecret",
        None,
        [
            (
                "$ env | sort\n"
                "GPG_TTY=/dev/pts/{n}\n"
                "HOME=/home/{h1}\n"
                "KEYTIMEOUT=1\n"
                "LANG=en_US.UTF-8\n"
                "PASSWORD_STORE_DIR=/home/{h1}/.password-store\n"
                "SSH_AUTH_SOCK=/tmp/ssh-{suf6}/agent.{n4}\n"
                "TOKENIZERS_PARALLELISM=false"
            ),
            (
                "printenv from the runner (debug):\n"
                "CI=true\n"
                "GITHUB_RUN_ID={job}\n"
                "GITHUB_SHA={sha}\n"
                "RUNNER_TEMP=/home/runner/work/_temp\n"
                "AWS_PROFILE=staging\n"
                "VAULT_ADDR=https://vault.meridian-corp.net:8200"
            ),
            (
                "$ env | grep -i -E 'key|secret|token|pass'\n"
                "SECRET_KEY_FILE=/run/secrets/django_secret_key\n"
                "GIT_ASKPASS=/usr/lib/git-core/git-gui--askpass\n"
                "MAX_TOKENS={n3}\n"
                "KEYBOARD_LAYOUT=de"
            ),
        ],
    )
    add(
        "sql_dump_hashed_passwords",
        _hashes,
        [
            (
                "COPY public.users (id, email, password, last_login) FROM stdin;\n"
                "{n4}\t{h1}@tidewell.app\t{bc1}\t{date} 09:12:44\n"
                "{n3}\t{h2}@tidewell.app\t{bc2}\t\\N\n"
                "\\."
            ),
            ("INSERT INTO auth_user (id, username, password, is_staff) VALUES\n({n2}, '{h1}', '{pb}', true);"),
            (
                "select id, label, key_prefix, key_hash from api_keys limit 2;\n"
                " id | label   | key_prefix    | key_hash\n"
                "  1 | zapier  | {pre1} | {hex64}\n"
                "  2 | backup  | {pre2} | {hex40}"
            ),
            ("accounts table after the migration, password column is argon2 now:\n{h1}@lanternfish.games | {ar}"),
        ],
    )
    add(
        "ci_log_masked",
        None,
        [
            (
                "Run ./scripts/deploy.sh\n"
                "+ curl -fsS -X POST -H 'Authorization: token ***' https://deploy.tidewell.app/api/releases -d ref={sha7}\n"
                '{"status":"queued"}'
            ),
            (
                '$ echo "using token $DEPLOY_TOKEN"\n'
                "using token [MASKED]\n"
                "$ ./deploy.sh --env {ns}\n"
                "deployed {ver} in {dur}"
            ),
            (
                "[Pipeline] withCredentials\n"
                "Masking supported pattern matches of $NEXUS_PASSWORD\n"
                "[Pipeline] sh\n"
                "+ mvn -s settings.xml deploy -Dnexus.password=****\n"
                "[INFO] BUILD SUCCESS"
            ),
        ],
    )
    add(
        "hashes_next_to_secret_words",
        None,
        [
            "secrets.enc.yaml sha256sum after re-encrypting with the new KMS key: {hex64}",
            "commit {sha}: fix refresh token expiry off-by-one (was comparing ms to s)",
            "token-service image built: tidewell/token-service@sha256:{hex64} ({dur})",
            "password-reset migration applied, liquibase MD5SUM 9:{hex32}",
            "key rotation job {job} finished, checksum of the new keyset manifest: {hex40}",
        ],
    )
    add(
        "public_ssh_keys",
        _pubkeys,
        [
            "please add my key to hopper-login, thanks!\n{pub}",
            ("~/.ssh/authorized_keys on build-01\n{pub}\n{pub2}"),
            (
                '$ ssh-keygen -t ed25519 -C "{h1}@lanternfish.games"\n'
                "Your identification has been saved in /home/{h1}/.ssh/id_ed25519\n"
                "Your public key has been saved in /home/{h1}/.ssh/id_ed25519.pub\n"
                "The key fingerprint is:\n"
                "{fp} {h1}@lanternfish.games"
            ),
            "deploy key (public half) added to the repo settings, read-only:\n{pub2}",
        ],
    )
    add(
        "public_pem_blocks",
        _pem_public,
        [
            (
                "$ openssl s_client -connect sso.meridian-corp.net:443 -showcerts </dev/null 2>/dev/null | sed -n '/BEGIN/,/END/p'\n"
                "{cert}"
            ),
            ("JWT verification key for the partner API (public, safe to share):\n{pubpem}"),
            ("ca.crt for the lab's internal CA — install this on your laptop to stop the browser warnings:\n{cert}"),
        ],
    )
    add(
        "placeholder_values",
        _placeholders,
        [
            (
                ".env.example\n"
                "DATABASE_URL=postgres://app:<password>@localhost:5432/tidewell\n"
                "STRIPE_SECRET_KEY={ph_key}\n"
                "SENDGRID_API_KEY=\n"
                "# ask {p1} for real values, never commit .env"
            ),
            (
                "README › Configuration\n"
                "Set `OPENAI_API_KEY={ph_key}` in your shell before running `make eval`. "
                "The key is per person, create yours under the lab org."
            ),
            (
                "config.sample.yaml\n"
                "telemetry:\n"
                '  api_key: "{ph_key}"\n'
                "  endpoint: https://telemetry.lanternfish.games\n"
                "  batch_size: {n3}"
            ),
        ],
    )
    add(
        "x_filled_placeholders",
        _placeholders,
        [
            "docs/deploy.md: export GITHUB_TOKEN={ph_gh}  # replace with a token that has repo scope (see step {n})",
            'stripe.api_key = "{ph_sk}"  # placeholder, the real key comes from Doppler at runtime',
            "example: SLACK_BOT_TOKEN={ph_xoxb} — get yours from api.slack.com/apps ({p1} can add you)",
            "AWS_ACCESS_KEY_ID={ph_akia}\nAWS_SECRET_ACCESS_KEY=<redacted>\n(shape of the file only, values live in 1Password)",
            "//registry.npmjs.org/:_authToken={ph_npm}   ← template from the wiki, fill in your automation token",
        ],
    )
    add(
        "aws_documented_examples",
        _aws_examples,
        [
            (
                "tests/conftest.py — moto fixture ({p1})\n"
                'os.environ["AWS_ACCESS_KEY_ID"] = "testing"\n'
                'os.environ["AWS_SECRET_ACCESS_KEY"] = "testing"\n'
                'os.environ["AWS_DEFAULT_REGION"] = "{region}"'
            ),
            (
                "The runbook used the example pair from the AWS docs ({ex_id} / {ex_secret}) so the drill on {date} "
                "wouldn't involve a real key."
            ),
            (
                "unit test for the redaction filter ({svc}):\n"
                "def test_masks_aws_example():\n"
                '    line = "key={ex_id}"\n'
                '    assert redact(line) == "key=[AWS_KEY]"'
            ),
            (
                "localstack in docker-compose for the data tests: AWS_ACCESS_KEY_ID=test, AWS_SECRET_ACCESS_KEY=test, "
                "endpoint http://localhost:4566 (localstack accepts anything). Added by {p1}."
            ),
        ],
    )
    add(
        "other_senses_pass_key_token",
        None,
        [
            "lexer bug: the tokenizer emits an extra INDENT token after a line continuation (see {ticket})",
            "context window is {n3}k tokens, we pass the whole doc and truncate at the last full sentence",
            "primary key on {db}.events is (user_id, ts); adding a unique key on idempotency_key fixes the dupes ({p1})",
            "render pass order: shadow → opaque → transparent → post; the bloom pass ran twice on level {n} ({p2})",
            "boarding pass for the offsite is in the travel folder, flight {n4} leaves at {time}",
            "OKR: key result 2 — p95 checkout latency under {n3}ms by end of Q{n}",
            "tests pass locally but not in CI ({p1} thinks it's the timezone)",
            "key takeaway from the {date2} retro ({p2}): pair on anything that touches billing",
            "pass@{n} on the held-out set went from 0.3{n} to 0.5{n} after the prompt fix ({p1})",
            "{lang} tip from {p1}: a dict's keys() view is live, copy it before you mutate in the loop",
        ],
    )
    add(
        "k8s_secret_listing",
        None,
        [
            (
                "$ kubectl get secrets -n {ns}\n"
                "NAME                  TYPE                             DATA   AGE\n"
                "api-env               Opaque                           {n}      {n2}d\n"
                "regcred               kubernetes.io/dockerconfigjson   1      {n3}d\n"
                "tls-api               kubernetes.io/tls                2      {n2}d"
            ),
            (
                "apiVersion: external-secrets.io/v1beta1\n"
                "kind: ExternalSecret\n"
                "metadata:\n"
                "  name: api-db\n"
                "spec:\n"
                "  refreshInterval: 1h\n"
                "  secretStoreRef: {name: vault-backend, kind: ClusterSecretStore}\n"
                "  data:\n"
                "    - secretKey: DB_PASSWORD\n"
                "      remoteRef: {key: prod/api/db, property: password}"
            ),
            (
                "env:\n"
                "  - name: DB_PASSWORD\n"
                "    valueFrom:\n"
                "      secretKeyRef:\n"
                "        name: ember-db\n"
                "        key: password\n"
                "# {p1}: the chart no longer takes the password as a value, see PR #{pr}"
            ),
        ],
    )
    add(
        "docker_inspect_nonsecret",
        None,
        [
            (
                "$ docker inspect --format '{{json .Config.Env}}' tidewell-web\n"
                '["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin","NODE_VERSION=20.12.2",'
                '"YARN_VERSION=1.22.19","NODE_ENV=production","PORT={n4}"]'
            ),
            (
                '"Env": [\n'
                '    "POSTGRES_USER=ember",\n'
                '    "POSTGRES_PASSWORD_FILE=/run/secrets/db_password",\n'
                '    "POSTGRES_DB=ember",\n'
                '    "PGDATA=/var/lib/postgresql/data"\n'
                "],"
            ),
            (
                "$ docker exec jupyterhub env | grep -v PATH\n"
                "HOSTNAME={hex16a}\n"
                "JUPYTERHUB_CRYPT_KEY_FILE=/srv/jupyterhub/crypt.key\n"
                "TZ=Europe/Berlin\n"
                "LANG=C.UTF-8"
            ),
        ],
    )
    add(
        "password_policy_text",
        None,
        [
            "IT policy v{n}: passwords at least 14 characters, no expiry unless compromised, MFA required for VPN and mail. Reviewed {date} by {p1}.",
            "Reminder from {p1}: never reuse your AD password anywhere else, and never send it by mail or chat — IT will never ask for it.",
            "Passwort-Richtlinie: mindestens 12 Zeichen, keine Wiederverwendung der letzten {n} Passwörter, Sperre nach 10 Fehlversuchen.",
            "Decision {date}: shared accounts get unique passwords generated by 1Password (30 chars), owners listed in the IT wiki ({ticket}).",
        ],
    )
    add(
        "env_var_references_in_code",
        None,
        [
            (
                'stripe.api_key = os.environ["STRIPE_SECRET_KEY"]\n'
                'webhook_secret = os.environ.get("STRIPE_WEBHOOK_SECRET")\n'
                "if not webhook_secret:\n"
                '    raise RuntimeError("STRIPE_WEBHOOK_SECRET missing")  # {p1}, {date}'
            ),
            (
                "      - run: npm publish\n"
                "        env:\n"
                "          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n"
                "      # {p1}: token is an org-level secret now (#{pr})"
            ),
            (
                "const client = new Anthropic({ apiKey: process.env.ANTHROPIC_API_KEY });\n"
                "if (!process.env.ANTHROPIC_API_KEY) console.warn('{svc}: no key, using the mock client');"
            ),
            (
                'token = Path(os.environ.get("HF_TOKEN_PATH", "~/.cache/huggingface/token")).expanduser().read_text().strip()\n'
                "# {p1}: reads the token from disk so it never shows up in `ps` or the sbatch log"
            ),
            'review note on #{pr}: `{var}` is read with os.getenv("{var}") and never logged — fine by me. ({p2})',
            (
                "      - name: deploy {svc}\n"
                "        run: ./deploy.sh {env}\n"
                "        env:\n"
                "          {var}: ${{ secrets.{var} }}"
            ),
        ],
    )
    add(
        "vault_and_password_cli",
        None,
        [
            (
                "$ vault kv metadata get secret/{env}/{svc}/db\n"
                "======= Metadata =======\n"
                "Key                Value\n"
                "---                -----\n"
                "created_time       {ts}\n"
                "current_version    {n}\n"
                "max_versions       10"
            ),
            "export DB_PASSWORD=\"$(op read 'op://{vault}/{env} DB/password')\"  # needs `op signin` first",
            "vault kv put secret/lab/hf token=@/tmp/hf_token.txt && shred -u /tmp/hf_token.txt   # {p1}, {date}",
            "$ pass ls meridian\nmeridian\n├── vpn-{h1}\n└── wifi-guest\n(entries only; {p1} owns the store)",
            "doppler run -p {svc} -c {env} -- ./bin/start   # secrets are injected as env, nothing on disk",
        ],
    )
    add(
        "chat_where_is_password",
        None,
        [
            (
                "[{time}] {h1}: what's the wifi password?\n"
                "[{time2}] {h2}: on the whiteboard in the kitchen\n"
                "[{time3}] {h1}: found it, thx"
            ),
            (
                "{p1}: what's the password for the staging admin?\n"
                '{p2}: check 1Password, "Staging admin (shared)" in the Web vault\n'
                "{p1}: I don't have that vault\n"
                "{p2}: requested access for you"
            ),
            ("{p1}: ¿me pasas la contraseña del NAS?\n{p2}: no por chat 😅 te la comparto por 1Password"),
            ("{p1}: password for the old Jenkins?\n{p2}: it's SSO now, just use your normal login\n{p1}: oh nice"),
        ],
    )
    add(
        "numbers_like_pins",
        _ids,
        [
            "Order {order} shipped via UPS, tracking {track}",
            "Invoice {order} from the hosting provider is due on {date}, amount {n3}.00 EUR",
            "Call the office line {phone} if the door buzzer is broken again",
            "QA phone IMEI {imei} — registered in the MDM on {date}",
            "timestamp {epoch} in the crash report is {date} {time} UTC",
            "ticket {ticket}: customer {order} reports double charge",
        ],
    )
    add(
        "last4_and_partial",
        _prefixes,
        [
            "Stripe dashboard shows the current secret key as {sk_pre}...{l4} (created {date} by {p1})",
            'GitHub lists my token as "deploy-bot" ending in …{l4}, expires {date2}',
            'OpenAI usage page: key "eval-harness" ({skproj}...{l4}) spent {n3} USD this month',
            "card ending {n4}, expiry 0{n}/27 — the team card for SaaS subscriptions",
            "the AWS key ID that showed up in CloudTrail ended in {l4b} — it's the old ci-deployer one, already deleted",
        ],
    )
    add(
        "jwt_header_discussion",
        _jwt_header,
        [
            'every token starts with {jwth} because that\'s just the base64 of the header {"alg":"{alg}","typ":"JWT"}',
            "if the log line starts with {jwth} it's a JWT — the new log filter masks everything after the first dot",
            "reminder: {jwth} = header only, no secret in there; the signature part is what we must never log",
        ],
    )
    add(
        "base64_non_secret",
        _b64cfg,
        [
            ("$ echo {b64cfg} | base64 -d\n{cfgjson}"),
            "ConfigMap remote-config has FEATURES_B64={b64cfg} which decodes to {cfgjson}",
            "the tiny placeholder avatar is inlined as data:image/png;base64,{png}",
        ],
    )
    add(
        "git_config_clean",
        None,
        [
            (
                "$ cat .git/config\n"
                "[core]\n"
                "\trepositoryformatversion = 0\n"
                "\tfilemode = true\n"
                '[remote "origin"]\n'
                "\turl = git@github.com:tidewell/web-app.git\n"
                "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
                '[branch "{h1}/fix-{n4}"]\n'
                "\tremote = origin\n"
                "\tmerge = refs/heads/{h1}/fix-{n4}"
            ),
            (
                "~/.gitconfig\n"
                "[user]\n"
                "\tname = {p1}\n"
                "\temail = {h1}@kesslerlab.org\n"
                "[credential]\n"
                "\thelper = osxkeychain\n"
                "[pull]\n"
                "\trebase = true"
            ),
            (
                "$ git remote -v\n"
                "origin\thttps://gitlab.meridian-corp.net/it/ansible-inventory.git (fetch)\n"
                "origin\thttps://gitlab.meridian-corp.net/it/ansible-inventory.git (push)"
            ),
        ],
    )
    add(
        "db_url_without_password",
        None,
        [
            "DATABASE_URL=postgres://app@localhost:5432/{db}_dev   # trust auth locally ({p1}'s setup)",
            "DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@${DB_HOST}:5432/{db}",
            "connecting to mysql://ember_ro@{ip}:3306/game_telemetry (password from MYSQL_PWD)",
            "jdbc:postgresql://warehouse.meridian.local:5432/{db}?user=metabase_ro&ssl=true — password is in the Metabase admin UI",
            "{ts} INFO {svc}: connected to postgresql://app:***@pg-{env}.internal:5432/{db} (pool size {n})",
            'psql "host=pg-{env}.internal dbname={db} user={h1} sslmode=require"  # prompts for the password, IAM auth soon',
        ],
    )
    add(
        "terraform_sensitive",
        None,
        [
            (
                "  # aws_db_instance.main will be updated in-place\n"
                '  ~ resource "aws_db_instance" "main" {\n'
                '        id       = "tidewell-prod"\n'
                "      ~ password = (sensitive value)\n"
                "    }\n"
                "Plan: 0 to add, 1 to change, 0 to destroy."
            ),
            (
                "$ terraform output\n"
                'bastion_ip = "{pubip}"\n'
                "bastion_ssh_private_key = <sensitive>\n"
                'db_endpoint = "tidewell-prod.c{suf6}.{region}.rds.amazonaws.com"'
            ),
        ],
    )
    add(
        "auth_error_logs",
        _prefixes,
        [
            "{ts} ERROR api.auth: 401 Unauthorized: token expired (user_id={n4}, kid={hex16a})",
            "fatal: Authentication failed for 'https://github.com/lanternfish/ember-client.git/'",
            "botocore.exceptions.NoCredentialsError: Unable to locate credentials (job {job} on gpu-node-0{n})",
            "openai.AuthenticationError: Error code: 401 - Incorrect API key provided: {skproj}********************{l4}",
            'psql: error: connection to server at "{ip}", port 5432 failed: FATAL:  password authentication failed for user "etl_loader"',
        ],
    )
    add(
        "har_redacted",
        None,
        [
            (
                '"headers": [\n'
                '  {"name": "Authorization", "value": "[REDACTED]"},\n'
                '  {"name": "X-Request-Id", "value": "{uuid}"}\n'
                "]"
            ),
            (
                "curl 'https://api.tidewell.app/v2/orders?limit=50' \\\n"
                "  -H 'authorization: Bearer <token>' \\\n"
                "  -H 'user-agent: {ua}'"
            ),
            "HAR from {p1} (sanitized with the har-sanitizer: cookies and auth headers removed) attached to {ticket}",
        ],
    )
    add(
        "commit_rotation_messages",
        None,
        [
            "{sha7} chore: remove .env from repo and add it to .gitignore",
            "commit {sha}\n\n    Rotate Stripe webhook secret\n\n    Old secret revoked in the dashboard; new one lives in Doppler (prd).",
            "ci: add gitleaks to pre-commit (#{pr})",
            "fix: stop logging the Authorization header in the request logger ({ticket})",
            "feat(auth): hash API keys at rest, show only the prefix in the UI",
        ],
    )
    add(
        "config_templated_values",
        None,
        [
            ('group_vars/{env}.yml\ndb:\n  host: "{{ db_host }}"\n  name: {db}\n  password: "{{ vault_db_password }}"'),
            (
                "spring.datasource.url=jdbc:postgresql://db:5432/{db}\n"
                "spring.datasource.username={db}\n"
                "spring.datasource.password=${DB_PASSWORD:}"
            ),
            (
                "providers:\n"
                "  openai:\n"
                "    api_key: ${OPENAI_API_KEY}\n"
                "  anthropic:\n"
                "    api_key: os.environ/ANTHROPIC_API_KEY\n"
                "# lab proxy config, edited by {p1} on {date}"
            ),
            (
                "helm/{svc}/values-{env}.yaml\n"
                "env:\n"
                "  LOG_LEVEL: info\n"
                "envFrom:\n"
                "  - secretRef:\n"
                "      name: {svc}-env   # {var} and friends come from here"
            ),
        ],
    )
    add(
        "crypto_design_notes",
        None,
        [
            "Design note ({p1}): derive the per-save encryption key with HKDF-SHA256 from the device key; AES-256-GCM, 96-bit random nonce, at most 2^{n2} saves per key.",
            "API keys: 32 random bytes, shown once, stored as SHA-256 with a per-key prefix for lookup ({ticket}).",
            "password hashing: argon2id, m=64MiB, t=3, p=4 — benchmarked at {n3}ms on the prod instances",
            "the KEK lives in KMS, DEKs are wrapped and stored next to the ciphertext; rotation re-wraps, no re-encryption ({svc}, {date})",
        ],
    )
    add(
        "lockfile_integrity",
        None,
        [
            (
                '"node_modules/jsonwebtoken": {\n'
                '  "version": "9.0.{n}",\n'
                '  "resolved": "https://registry.npmjs.org/jsonwebtoken/-/jsonwebtoken-9.0.{n}.tgz",\n'
                '  "integrity": "{int_sha}"\n'
                "}"
            ),
            "cryptography==42.0.{n} \\\n    --hash=sha256:{hex64}",
            '[[package]]\nname = "secrecy"\nversion = "0.8.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{hex64}"',
        ],
    )
    add(
        "docker_digests",
        None,
        [
            "$ docker pull postgres:16\n16: Pulling from library/postgres\nDigest: sha256:{hex64}\nStatus: Downloaded newer image for postgres:16",
            "pin the base image: FROM python:3.11-slim@sha256:{hex64}",
            "deployed ghcr.io/tidewell/api@sha256:{hex64} to {ns} at {time}",
        ],
    )
    add(
        "git_lfs_pointers",
        None,
        [
            "version https://git-lfs.github.com/spec/v1\noid sha256:{hex64}\nsize {job}",
            "the texture atlas shows up as an LFS pointer (oid sha256:{hex64}) because {p1} cloned without git-lfs installed",
        ],
    )
    add(
        "ssh_host_fingerprints",
        _pubkeys,
        [
            (
                "The authenticity of host 'hopper-login ({ip})' can't be established.\n"
                "ED25519 key fingerprint is {fp}.\n"
                "This key is not known by any other names.\n"
                "Are you sure you want to continue connecting (yes/no/[fingerprint])? yes"
            ),
            "verified the new bastion host key with {p1} over the phone: {fp}",
            "known_hosts entry for build-01: build-01.lanternfish.local {pub2}",
        ],
    )
    add(
        "csv_users_no_passwords",
        None,
        [
            "email,role,last_login,mfa_enabled\n{h1}@tidewell.app,admin,{date},true\n{h2}@tidewell.app,support,{date},false",
            "asset_tag,user,model,bitlocker_enabled,escrowed_to_ad\nMER-{n4},{h1},ThinkPad T14,yes,yes\nMER-{n3},{h2},Latitude 5440,yes,no",
            "username;group;quota_gb;password_set\nws-{n2};workshop;50;yes\nws-{n3};workshop;50;no",
        ],
    )
    add(
        "markdown_env_tables",
        None,
        [
            (
                "| Variable | Purpose | Where it's stored |\n"
                "|---|---|---|\n"
                "| `DATABASE_URL` | main Postgres | Doppler `prd` |\n"
                "| `STRIPE_SECRET_KEY` | billing | Doppler `prd` |\n"
                "| `SENTRY_DSN` | errors | plain env, not secret enough to matter |\n"
                "_last reviewed {date} by {p1}_"
            ),
            (
                "| Key | Value |\n"
                "|---|---|\n"
                "| feature.leaderboard_v2 | true |\n"
                "| matchmaking.max_wait_s | {n2} |\n"
                "| store.region | {region} |"
            ),
        ],
    )
    add(
        "password_manager_rollout",
        None,
        [
            "Meeting {date}: 1Password Business rollout. Everyone gets a Private vault; shared vaults per team. {p1} migrates the old KeePass file by {date2}, then it gets deleted.",
            "All-hands note: please stop keeping passwords in Notion pages. Move them to 1Password and delete the page; {p2} will audit on {day}.",
            "Bitwarden org is live for Kessler Lab; collections: Cluster, Cloud, Instruments. Invite sent to {h1}@kesslerlab.org.",
        ],
    )
    add(
        "shell_history_clean",
        None,
        [
            "  401  aws sso login --profile staging\n  402  aws s3 ls s3://kessler-datasets-{region}/ --profile staging\n  403  kubectl config use-context {ns}",
            "  220  mysql -u root -p -h {ip} game_live\n  221  read -s DB_PASS && export DB_PASS\n  222  ./migrate.sh --env staging",
            "  88  docker login registry.lanternfish.games --username ci --password-stdin < /run/secrets/registry_pw\n  89  docker push registry.lanternfish.games/ember-server:{ver}",
            "  15  ssh-keygen -t ed25519 -C {h1}@meridian-corp.net\n  16  cat ~/.ssh/id_ed25519.pub | pbcopy\n  17  ssh -T git@github.com",
        ],
    )
    add(
        "non_english_password_notes",
        None,
        [
            "Das WLAN-Passwort steht auf der Karte am Empfang. Bitte nicht ins Wiki schreiben. — {p1}, {date}",
            "Le mot de passe de l'imprimante a été changé ; {p1} l'a mis dans le coffre 1Password « IT ».",
            "La contraseña del servidor de pruebas se cambió el {date}; pídesela a {p1} por 1Password, no por correo.",
            "検証サーバのパスワードは1Passwordの「Ember」ボールトにあります。チャットに貼らないでください。",
            "Hasło do VPN resetujesz sam na portal.meridian-corp.net — dział IT nie zna Twojego hasła.",
            "A senha do Wi-Fi de convidados muda todo mês; peça na recepção ({p1}).",
        ],
    )
    add(
        "totp_setup_without_seed",
        None,
        [
            "2FA for the shared Steamworks account: the seed lives in the 1Password item (TOTP field), so anyone with vault access gets codes. Set up by {p1} on {date}.",
            "If you lose your phone, IT resets your Duo enrollment after a video call ({ticket}). Backup codes are printed once and kept by you.",
            "VPN 2FA: scan the QR code shown after first login with any authenticator app; codes rotate every 30s.",
        ],
    )
    add(
        "unity_xcode_guids",
        _ids,
        [
            "fileFormatVersion: 2\nguid: {guid1}\nTextureImporter:\n  mipmapEnabled: 1\n  spriteMode: {n}",
            "Assets/Prefabs/Player.prefab.meta has guid {guid1}, the broken reference points to {guid2} (deleted in #{pr})",
            "\t\t{xc1} /* AppDelegate.swift in Sources */ = {isa = PBXBuildFile; fileRef = {xc2} /* AppDelegate.swift */; };",
            'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Ember.Server", "Ember.Server\\Ember.Server.csproj", "{{uuid3}}"',
        ],
    )
    add(
        "research_ids_checksums",
        _ids,
        [
            "run {wandb} (wandb) — lr 3e-4, seed {n4}, val loss 1.{n2}; config in configs/ft_{n}.yaml",
            "dataset v{n} md5: {md5}  radiology-notes-v{n}.tar.gz (checked on hopper and on the NAS copy)",
            "cite arXiv:2403.{n4} and doi:10.1038/s41586-024-0{n4}-{n}",
            "pass@1 = 0.4{n}, pass@10 = 0.7{n} on the held-out split (n={n3}), seed {n4}",
        ],
    )
    add(
        "mobile_public_identifiers",
        _ids,
        [
            "Upload certificate SHA-1 fingerprint (for Firebase / Play App Signing): {sha1fp}",
            "Apple Team ID {teamid}, bundle id games.lanternfish.ember, App Store id 6{n4}{n4}",
            "Firebase project: ember-live, Android app id 1:{order}:android:{hex16a}",
        ],
    )
    add(
        "password_handling_code",
        None,
        [
            (
                "def verify_password(plain: str, hashed: bytes) -> bool:\n"
                "    return bcrypt.checkpw(plain.encode(), hashed)\n"
                "# {p1}: cost factor stays at 12, see {ticket}"
            ),
            (
                'password = getpass.getpass("{db} password: ")\n'
                'conn = psycopg.connect(host=HOST, dbname="{db}", user="{h1}", password=password)'
            ),
            (
                "if (password.length < 12) {\n"
                "  return { error: 'Password must be at least 12 characters' };\n"
                "}\n"
                "// {svc}: same rule as the backend since #{pr}"
            ),
            (
                "class Settings(BaseSettings):\n"
                "    db_password: SecretStr\n"
                '    api_token: SecretStr = Field(..., alias="{var}")\n'
                "# printing settings shows '**********' for both"
            ),
            (
                "func hashToken(raw string) string {\n"
                "    sum := sha256.Sum256([]byte(raw))\n"
                "    return hex.EncodeToString(sum[:])\n"
                "} // {svc} stores only this, per ADR-0{n2}"
            ),
        ],
    )
    add(
        "secret_scanner_rules",
        _prefixes,
        [
            (
                "[[rules]]\n"
                'id = "tidewell-api-key"\n'
                'description = "Tidewell customer API key"\n'
                "regex = '''twk_live_[A-Za-z0-9]{32}'''\n"
                'keywords = ["twk_live_"]'
            ),
            'added a custom detector: r"{gh_pre}[A-Za-z0-9]{36}" and r"{glpat}[A-Za-z0-9_-]{20}" ({ticket})',
            "allowlist for gitleaks: paths = ['''tests/fixtures/''', '''docs/examples/'''] — reviewed by {p1}",
        ],
    )
    add(
        "token_format_docs",
        _prefixes,
        [
            "FYI ({p1}): classic GitHub PATs start with {gh_pre}, fine-grained ones with {pat_pre}; GitLab uses {glpat}. Our scanner checks all three.",
            "Slack bot tokens begin with {xoxb}, user tokens with xoxp-; if you see either in a log, page security ({ticket}).",
            "npm automation tokens start with {npm_pre}, Hugging Face with {hf_pre}, SendGrid keys with {sg_pre} — the pre-commit hook looks for these (added {date}).",
            "AWS access key IDs start with {akia} (long-term) or ASIA (temporary); Google API keys with {aiza}. — security wiki, rev {n2}",
            "Anthropic keys look like {skant}api03-… and OpenAI project keys like {skproj}…; both get caught by the log scrubber in {svc} since #{pr}.",
        ],
    )
    add(
        "kms_and_vault_identifiers",
        _ids,
        [
            "KMS key for the saves bucket: arn:aws:kms:{region}:{acct}:key/{uuid3}",
            "Key Vault reference: https://kv-meridian-prod.vault.azure.net/secrets/db-password/{kvver}",
            "gcloud kms keys list: projects/meridian-analytics/locations/europe-west3/keyRings/etl/cryptoKeys/warehouse-dek",
            "Secrets Manager ARN (not the secret!): arn:aws:secretsmanager:{region}:{acct}:secret:prod/ember/db-{suf6}",
        ],
    )
    add(
        "gpg_listing",
        _ids,
        [
            (
                "$ gpg --list-secret-keys --keyid-format long\n"
                "sec#  rsa4096/{keyid16} 2023-0{n}-12 [SC]\n"
                "      {fpr}\n"
                "uid                 [ultimate] Lanternfish Builds <builds@lanternfish.games>"
            ),
            "release signing key fingerprint (verify before trusting): {fpr}",
            "gpg --recv-keys {keyid16} && gpg --verify ember-{n}.tar.gz.asc",
        ],
    )
    add(
        "oauth_public_client_ids",
        _ids,
        [
            "Google Sign-In client ID for the web app: {gclient} (public, the secret is server-side only)",
            "GitHub App 'ember-ci' — App ID {n4}{n}, Client ID {ghclient}",
            "OIDC config: issuer https://sso.meridian-corp.net/realms/staff, client_id metabase, PKCE on",
        ],
    )
    add(
        "request_trace_ids",
        _ids,
        [
            "{ts} INFO req={uuid3} trace={trace} GET /v2/orders 200 {n3}ms",
            "Stripe request id {req} for the failed refund, idempotency key {uuid3}",
            "Sentry event {guid1} — TypeError in checkout (release {ver})",
        ],
    )
    add(
        "stripe_object_ids",
        _ids,
        [
            "refund the duplicate: customer {cus}, payment_intent {pi}, charge {ch}",
            "webhook {evt} (invoice.paid) processed twice; invoice {inv}",
            "support asked about {cus} — subscription canceled on {date}",
        ],
    )
    add(
        "it_asset_inventory",
        _ids,
        [
            "LT-{n4}: ThinkPad T14 Gen 4, S/N {serial}, MAC {mac}, assigned to {p1}",
            "printer 3F-Ricoh: S/N {serial}, IP {ip}, toner ordered {date}",
            "replaced switch in rack B2, new S/N {serial}, MAC {mac}, firmware {ver}",
        ],
    )
    add(
        "wifi_without_password",
        None,
        [
            'Guest wifi "Meridian-Guest" is open; accept the captive portal terms (valid 24h). — {p1}',
            "Conference venue uses eduroam, log in with your university account. Backup: phone hotspot ({p1}).",
            "Studio wifi password is printed on the router sticker in the server closet; ask {p1} if you can't find it.",
        ],
    )
    add(
        "security_decisions",
        None,
        [
            "ADR-0{n2}: secrets move from .env files to Doppler. Status: accepted ({date}). Consequence: local dev uses `doppler run`.",
            "Decision: no long-lived AWS keys for CI; GitHub OIDC + role assumption only. Owner {p1}, deadline {date2}.",
            "Lab policy: API keys are per person, billed to the project code; shared keys will be revoked on {date2}.",
        ],
    )
    add(
        "generic_error_traces",
        None,
        [
            'Traceback (most recent call last):\n  File "etl/load.py", line {n2}, in <module>\n    token = cfg["token"]\nKeyError: \'token\'',
            "TokenExpiredError: jwt expired at {ts} (clock skew on ember-api-{n}?)",
            "Error: secretOrPrivateKey must have a value\n    at module.exports [as sign] (node_modules/jsonwebtoken/sign.js:{n3}:20)",
        ],
    )
    add(
        "password_hash_files",
        _hashes,
        [
            "/etc/nginx/.htpasswd on the preview box:\npreview:{bc1}",
            "grafana admin password hash after reset (we only store the hash): {bc2}",
            'users.json fixture: {"email": "{h1}@tidewell.app", "password_hash": "{ar}"}',
        ],
    )
    add(
        "redacted_screenshot_descriptions",
        None,
        [
            '[Screenshot {date} at {time}.png] 1Password item "{env} DB" — password field shows dots (hidden), username app',
            'Image description ({p1}): the Jenkins credentials page, password column reads "Concealed for confidentiality"',
            "Alt text: AWS console IAM user ci-deployer, access keys table shows 'Last used {n} days ago' and no secret; {p2} circled the Deactivate button",
            "screenshot of the {svc} settings page: the API key field shows only '••••••••  Regenerate' (no value visible)",
        ],
    )
    add(
        "meeting_no_password_shared",
        None,
        [
            "Ops sync {date}: {p1} will share the new break-glass password via a 1Password share link (expires 1h), not on the call.",
            "Standup: {p2} can't log into the shared test iPad — passcode was changed; {p1} sends it privately.",
            "Retro: someone read a password out loud on Zoom last week. Agreed: we never say or paste passwords in meetings.",
        ],
    )
    add(
        "game_dev_other_senses",
        None,
        [
            "Input map: jump = KeyCode.Space, dash = Key.LeftShift; the key rebinding menu still ignores gamepads",
            "keyframes on the door animation are off by {n} frames; {p1} will re-export from Blender",
            "lighting pass for level {n} done; shadow cascades at {n2}m and {n3}m",
            "the save token in the UI means the collectible, not auth — renaming it to 'relic' ({ticket})",
        ],
    )
    add(
        "analytics_sql_on_secret_tables",
        None,
        [
            "select count(*) from api_keys where revoked_at is null;\n count\n-------\n   {n3}\n(1 row)",
            "-- keys not used in 90 days\nselect key_prefix, last_used_at from api_keys where last_used_at < now() - interval '90 days';",
            "daily report: {n3} password resets, {n2} new API keys created, {n} revoked",
        ],
    )
    add(
        "commit_and_pr_urls",
        None,
        [
            "https://github.com/tidewell/web-app/commit/{sha} fixed it",
            "see https://gitlab.meridian-corp.net/it/ansible-inventory/-/merge_requests/{pr}/diffs?commit_id={sha}",
            "compare: https://github.com/lanternfish/ember-client/compare/{sha7}...main",
        ],
    )
    add(
        "version_build_numbers",
        None,
        [
            "Ember {ver}+build.{job} submitted to TestFlight on {date}",
            "Unity 2022.3.{n2}f1, Android build code {job}",
            "api {ver} (git {sha7}) deployed to {ns}",
        ],
    )
    add(
        "password_reset_docs",
        None,
        [
            "Reset flow: user requests reset → we email a single-use link valid 30 min → link opens the form → all sessions revoked after change.",
            "Support macro: \"We've sent you a password reset email. If it doesn't arrive in {n} minutes, check spam.\" (owner {p1})",
            "IT: to reset an AD password, go to portal.meridian-corp.net/reset and confirm with Duo ({ticket}).",
        ],
    )
    add(
        "ssh_config_identityfile",
        None,
        [
            "Host hopper\n  HostName hopper-login.kesslerlab.org\n  User {h1}\n  IdentityFile ~/.ssh/id_ed25519\n  ForwardAgent no",
            "Host build-*\n  User ci\n  IdentityFile ~/.ssh/ember_ci\n  IdentitiesOnly yes\n# key itself is in 1Password, ask {p1}",
        ],
    )
    add(
        "compose_secret_files",
        None,
        [
            "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n    secrets: [db_password]\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt  # gitignored",
            "secrets/ is in .gitignore; generate yours with `openssl rand -base64 32 > secrets/db_password.txt` ({p1})",
        ],
    )
    add(
        "properly_redacted_values",
        _prefixes,
        [
            "password: [REDACTED]\nuser: {h1}\nhost: pg-{env}.internal\ndb: {db}",
            "token={gh_pre}**** (redacted) — the rest is in the incident channel, not here ({ticket})",
            "{var}=<redacted by {p1}>",
            "Authorization: Bearer •••••••• (copied from the masked Postman view, {svc} {env})",
            "{ts} DEBUG {svc}: outgoing request headers={'Authorization': '[FILTERED]', 'X-Request-Id': '{uuid}'}",
        ],
    )
    add(
        "runbook_steps_no_values",
        None,
        [
            "Runbook: DB failover\n1. get the break-glass credentials from the safe in room 2.14 (two people)\n2. promote replica\n3. rotate the credentials afterwards and log it in {ticket}",
            "Runbook: leaked key\n1. revoke at the provider\n2. search logs for use since {date}\n3. replace in Doppler\n4. write it up",
            "Runbook: new laptop\n- enroll in Intune\n- BitLocker recovery key is escrowed to Entra ID automatically; verify in the portal",
        ],
    )
    add(
        "notification_emails_no_creds",
        None,
        [
            "Subject: Your password was changed\n\nHi {p1}, the password for your Meridian account was changed on {date} at {time}. If this wasn't you, contact IT.",
            'Subject: [GitHub] A personal access token was added to your account\n\nA fine-grained token "deploy-{n}" was added. If you did not do this, revoke it.',
            'Subject: Your API key is about to expire\n\nThe key "eval-harness" expires on {date2}. Create a new one in the dashboard.',
        ],
    )
    add(
        "api_docs_auth_header",
        None,
        [
            "Auth ({svc} API): send `Authorization: Bearer <access_token>` — tokens come from POST /oauth/token and live {n3} minutes.",
            'curl -H "X-Api-Key: $TELEMETRY_KEY" https://telemetry.lanternfish.games/v1/health   # from the {env} runbook',
            "All {svc} endpoints need the header `Authorization: Token <your token>`; get a token from your profile page. (docs rev {n2})",
            'Example:\n  curl -u "$NEXUS_USER:$NEXUS_PASS" https://nexus.meridian-corp.net/service/rest/v1/status\nreturns 200 when the repo manager is healthy ({p1})',
        ],
    )
    add(
        "wireguard_public_only",
        _ids,
        [
            "[Peer]\n# {p1}'s laptop\nPublicKey = {wgpub}\nAllowedIPs = 10.66.0.{n2}/32",
            "[Interface]\nAddress = 10.66.0.1/24\nListenPort = 51820\nPostUp = wg set %i private-key /etc/wireguard/private.key\n\n[Peer]\nPublicKey = {wgpub2}\nAllowedIPs = 10.66.0.{n2}/32",
            "$ wg show wg0\ninterface: wg0\n  public key: {wgpub}\n  private key: (hidden)\n  listening port: 51820",
        ],
    )
    add(
        "decision_lessons",
        None,
        [
            "Lesson: when a CI secret contains '@' GitLab refuses to mask it — generate secrets from [A-Za-z0-9] only. ({p1}, {date})",
            "Lesson learned ({ticket}): `set -x` in deploy scripts prints every header; wrap secret lines with set +x.",
            "TIL from {p1}: `docker inspect` shows env vars in plain text, so {svc} secrets go through files mounted at /run/secrets.",
            "Lesson: HAR files contain cookies and auth headers. Sanitize before attaching to tickets (we got lucky on {ticket}).",
            "Decision {date}: {var} moves out of the repo's .env into Doppler; {p2} deletes the old file from history.",
        ],
    )
    add(
        "data_team_notes",
        None,
        [
            "dbt run --select marts.finance+ took {dur}; the revenue model reads from raw.stripe_charges (loaded by Fivetran)",
            "Airflow DAG sync_partners failed at {time}: upstream 503, retried {n} times, succeeded",
            "warehouse credentials were moved to the Airflow secrets backend (Vault); connections no longer hold passwords",
        ],
    )
    add(
        "key_value_non_secret_config",
        None,
        [
            "[server]\nhost = 0.0.0.0\nport = {n4}\nworkers = {n}\nsecret_key_file = /etc/ember/secret.key",
            "token_ttl_seconds: 3600\nrefresh_token_ttl_days: {n2}\npassword_min_length: 12\napi_key_header: X-Api-Key",
            "JWT_ALGORITHM=RS256\nJWT_PUBLIC_KEY_PATH=/etc/keys/jwt.pub\nJWT_ISSUER=https://auth.tidewell.app",
        ],
    )
    return L


# ---------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------


_FRAMES = (
    "[{date}] {body}",
    "{p1} ({date2}):\n{body}",
    "{body}\n— saved from #{channel} on {date}",
    "Note ({ticket}): {body}",
    "from {p2}'s handover doc:\n{body}",
    "{body}\n(via {p3})",
    "memory: {body}",
    "{day} {time} — {body}",
)
_CHANNELS = (
    "dev",
    "ops",
    "it-help",
    "data-eng",
    "ember-dev",
    "lab-general",
    "incidents",
    "random",
    "backend",
    "build-ember",
    "hopper-users",
)


def _render(R: _R, maker, template: str, framed: bool = False) -> tuple[str, dict]:
    values = maker(R) if maker is not None else {}
    ctx = _ctx(R)
    ctx.update(values)
    body = _fill(template, ctx)
    if framed:
        frame = R.pick(_FRAMES)
        ctx["channel"] = R.pick(_CHANNELS)
        head, _sep, tail = frame.partition("{body}")
        if "\n" in body and head and not head.endswith("\n"):
            head = head.rstrip(" ") + "\n"
        body = _fill(head, ctx) + body + _fill(tail, ctx)
    return body, values


def _positives(R: _R, seen: set) -> list[tuple[str, str, str]]:
    out = []
    for kind, default_maker, templates in _positive_specs():
        order = list(range(len(templates)))
        R.r.shuffle(order)
        for i in range(PER_KIND):
            entry = templates[order[i % len(order)]]
            maker, template = entry if isinstance(entry, tuple) else (default_maker, entry)
            for attempt in range(25):
                text, values = _render(R, maker, template, attempt > 0 or R.chance(0.2))
                if text not in seen:
                    break
            secret = values["s"]
            if secret not in text or len(secret) < 8:
                raise AssertionError(f"bad positive for {kind}: {template[:60]!r}")
            seen.add(text)
            out.append((text, kind, secret))
    return out


def _lookalikes(R: _R, seen: set) -> list[str]:
    specs = _la_specs()
    orders = []
    for _name, _maker, templates in specs:
        order = list(range(len(templates)))
        R.r.shuffle(order)
        orders.append(order)
    counters = [0] * len(specs)
    out = []
    for i in range(N_LOOKALIKES):
        g = i % len(specs)
        _name, maker, templates = specs[g]
        template = templates[orders[g][counters[g] % len(templates)]]
        counters[g] += 1
        for attempt in range(25):
            text, _values = _render(R, maker, template, attempt > 0 or R.chance(0.2))
            if text not in seen:
                break
        seen.add(text)
        out.append(text)
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Return (positives, lookalikes) for ``seed``; deterministic per seed."""
    R = _R(seed)
    seen: set = set()
    positives = _positives(R, seen)
    lookalikes = _lookalikes(R, seen)
    return positives, lookalikes


def kinds() -> list[str]:
    return [kind for kind, _maker, _templates in _positive_specs()]


def lookalike_categories() -> list[str]:
    return [name for name, _maker, _templates in _la_specs()]


if __name__ == "__main__":
    pos, looks = generate(0)
    print(
        len(pos),
        "positives in",
        len(kinds()),
        "kinds;",
        len(looks),
        "lookalikes from",
        len(lookalike_categories()),
        "generators",
    )
