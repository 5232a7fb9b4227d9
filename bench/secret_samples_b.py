# A second sample generator for bench/eval_secrets.py (--set b), written from a brief by a
# helper who had not seen the scanner; scored once blind (docs/secrets.md, "Figures"), a
# development set since.
"""Seeded test-data generator for evaluating a secret scanner.

generate(seed) -> (positives, lookalikes)

positives:  list of (text, kind, secret) -- each text is a short developer /
            coding-agent note containing exactly one secret (`secret` is the
            exact substring as it appears in `text`).
lookalikes: list of texts that contain NO secret but resemble ones that do.

No real-looking credential is written as a literal in this file: every token is
assembled at run time from random characters drawn from random.Random(seed).
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
import struct
import zlib
from urllib.parse import quote

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
LOWER_ALNUM = LOWER + DIGITS
UPPER_ALNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
B64URL = ALNUM + "-_"
B62 = DIGITS + UPPER + LOWER  # GMP-style base62 alphabet
AWS_B32 = UPPER + "234567"
K8S_ALPHA = "bcdfghjklmnpqrstvwxz2456789"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
PW_SYMBOLS = "!@#%^*-_+=?~"
DASH5 = "-" * 5

N_PER_KIND = 60
N_LOOKALIKES = 900

KINDS = [
    "aws_access_key_id",
    "aws_secret_access_key",
    "github_token",
    "gitlab_pat",
    "slack_token",
    "slack_webhook_url",
    "stripe_key",
    "openai_key",
    "anthropic_key",
    "google_api_key",
    "sendgrid_key",
    "twilio_key",
    "npm_token",
    "pypi_token",
    "jwt",
    "private_key",
    "connection_url_password",
    "password",
    "generic_api_secret",
]

# ----------------------------------------------------------------- pools
ENVS = ["staging", "prod", "production", "dev", "qa", "sandbox", "preview", "uat", "eu-prod", "load-test"]
SERVICES = [
    "billing-api",
    "auth-service",
    "checkout",
    "notifications",
    "search-indexer",
    "ingest-worker",
    "admin-portal",
    "reporting",
    "payments-gateway",
    "user-profile",
    "media-proxy",
    "etl-nightly",
    "webhooks",
    "ledger",
    "scheduler",
    "graphql-gateway",
    "analytics",
    "mailer",
]
PEOPLE = [
    "Priya",
    "Marco",
    "Jen",
    "Tomas",
    "Aisha",
    "Dmitri",
    "Kenji",
    "Lena",
    "Sam",
    "Olu",
    "Hannah",
    "Ravi",
    "Greta",
    "Luis",
    "Mei",
    "Noah",
    "Fatima",
    "Jonas",
]
ORGS = ["acme", "northwind", "globex", "initech", "hooli", "umbrella-labs", "bluefin", "tessellate", "orbital-io"]
REPO_NAMES = [
    "api",
    "web",
    "infra",
    "monorepo",
    "mobile-app",
    "data-pipeline",
    "terraform-live",
    "design-system",
    "cli",
    "docs",
    "platform",
    "ml-serving",
]
BRANCHES = [
    "main",
    "develop",
    "feat/stripe-webhooks",
    "fix/token-refresh",
    "chore/ci-cache",
    "release/2.3",
    "feat/sso",
    "hotfix/login-loop",
    "refactor/db-pool",
    "feat/export-csv",
]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "ap-northeast-1"]
DBUSERS = [
    "app",
    "app_user",
    "svc_billing",
    "readonly",
    "admin",
    "postgres",
    "root",
    "etl",
    "reporter",
    "analytics_ro",
    "django",
    "api_rw",
    "migrator",
]
DBNAMES = ["app", "orders", "billing", "analytics", "users_prod", "inventory", "events", "ledger", "crm"]
CHANNELS = [
    "deploys",
    "alerts-prod",
    "eng-oncall",
    "ci-failures",
    "billing-alerts",
    "growth",
    "incidents",
    "release-train",
    "data-quality",
]
DOMAINS = ["acme.io", "northwind.dev", "globex.com", "initech.cloud", "hooli.xyz", "bluefin.app", "tessellate.ai"]
VENDORS = [
    "Datadog",
    "Algolia",
    "Mixpanel",
    "Segment",
    "Amplitude",
    "Cloudflare",
    "Hetzner",
    "Postmark",
    "Braintree",
    "Contentful",
    "Airtable",
    "Vercel",
    "PagerDuty",
    "LaunchDarkly",
    "internal billing",
]
PYPKGS = ["acme-client", "fastcsv", "northwind-sdk", "pytest-flakefinder", "globex-utils", "tinyorm", "datalint"]
NPMPKGS = ["ui-kit", "eslint-config", "api-client", "icons", "hooks", "logger", "feature-flags"]
FILES = [
    "install.sh",
    "app-linux-amd64.tar.gz",
    "dump.sql.gz",
    "model.onnx",
    "release.zip",
    "node-v20.11.1.tar.xz",
    "terraform_1.7.4_linux_amd64.zip",
    "backup-2024-03-01.tar",
    "chromedriver.zip",
    "dataset.parquet",
]
WORDS = [
    "copper",
    "lantern",
    "orbit",
    "maple",
    "falcon",
    "river",
    "quartz",
    "velvet",
    "harbor",
    "pixel",
    "cobalt",
    "meadow",
    "thunder",
    "saffron",
    "glacier",
    "ember",
    "walnut",
    "comet",
    "tundra",
    "violet",
    "anchor",
    "summer",
    "winter",
    "autumn",
    "spring",
    "dragon",
    "monkey",
    "sunshine",
    "rocket",
    "panda",
    "tiger",
]
SECRET_VARS = [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "STRIPE_SECRET_KEY",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_ACCESS_KEY_ID",
    "DATABASE_URL",
    "DB_PASSWORD",
    "SLACK_BOT_TOKEN",
    "SLACK_WEBHOOK_URL",
    "SENDGRID_API_KEY",
    "NPM_TOKEN",
    "PYPI_TOKEN",
    "TWILIO_AUTH_TOKEN",
    "GOOGLE_API_KEY",
    "JWT_SECRET",
    "SECRET_KEY",
    "CLIENT_SECRET",
    "API_KEY",
    "REDIS_PASSWORD",
    "GITLAB_TOKEN",
    "DATADOG_API_KEY",
    "SENTRY_AUTH_TOKEN",
    "WEBHOOK_SIGNING_SECRET",
]
WIFI = ["acme-guest", "NW-Office-5G", "globex-corp", "HQ-Staff"]


def _b62(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return out or "0"


def _der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    if n < 0x100:
        return b"\x81" + bytes([n])
    return b"\x82" + n.to_bytes(2, "big")


def _der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + _der_len(len(body)) + body


def _der_int(b: bytes) -> bytes:
    if b and b[0] & 0x80:
        b = b"\x00" + b
    return _der(0x02, b)


def _sshstr(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def _b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def _pem(label: str, der: bytes, width: int = 64) -> str:
    body = base64.b64encode(der).decode()
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return f"{DASH5}BEGIN {label}{DASH5}\n" + "\n".join(lines) + f"\n{DASH5}END {label}{DASH5}"


OID_RSA = bytes.fromhex("06092a864886f70d010101") + b"\x05\x00"
OID_P256 = bytes.fromhex("06082a8648ce3d030107")
PRIV = "PRIVATE" + " KEY"


class _Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    # --------------------------------------------------------- primitives
    def s(self, alphabet: str, n: int) -> str:
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def c(self, seq):
        return self.r.choice(seq)

    def i(self, a: int, b: int) -> int:
        return self.r.randint(a, b)

    def p(self, prob: float) -> bool:
        return self.r.random() < prob

    def rb(self, n: int) -> bytes:
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def digits(self, n: int) -> str:
        return self.c("123456789") + self.s(DIGITS, n - 1)

    def uuid(self) -> str:
        h = self.s(HEX, 32)
        h = h[:12] + "4" + h[13:16] + self.c("89ab") + h[17:]
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def date(self) -> str:
        return f"{self.i(2023, 2025)}-{self.i(1, 12):02d}-{self.i(1, 28):02d}"

    # --------------------------------------------------------- template fill
    def _fillers(self):
        return {
            "ENV": lambda: self.c(ENVS),
            "ENV2": lambda: self.c(ENVS),
            "SVC": lambda: self.c(SERVICES),
            "SVC2": lambda: self.c(SERVICES),
            "PERSON": lambda: self.c(PEOPLE),
            "HANDLE": lambda: self.c(PEOPLE).lower(),
            "REPO": lambda: f"{self.c(ORGS)}/{self.c(REPO_NAMES)}",
            "ORG": lambda: self.c(ORGS),
            "BRANCH": lambda: self.c(BRANCHES),
            "REGION": lambda: self.c(REGIONS),
            "N": lambda: str(self.i(2, 9999)),
            "SMALLN": lambda: str(self.i(2, 60)),
            "PR": lambda: str(self.i(100, 9999)),
            "DATE": self.date,
            "DBUSER": lambda: self.c(DBUSERS),
            "DBNAME": lambda: self.c(DBNAMES),
            "DBHOST": lambda: self.c(
                [
                    f"db-{self.c(ENVS)}-0{self.i(1, 3)}.internal",
                    f"{self.c(DBNAMES)}.{self.s(LOWER_ALNUM, 12)}.{self.c(REGIONS)}.rds.amazonaws.com",
                    "localhost",
                    f"10.{self.i(0, 40)}.{self.i(0, 255)}.{self.i(2, 250)}",
                ]
            ),
            "HOST": lambda: self.c(
                [
                    f"bastion.{self.c(DOMAINS)}",
                    f"build-0{self.i(1, 9)}.{self.c(DOMAINS)}",
                    f"{self.c(SERVICES)}.{self.c(ENVS)}.internal",
                    f"ip-10-0-{self.i(0, 255)}-{self.i(1, 254)}",
                ]
            ),
            "DOMAIN": lambda: self.c(DOMAINS),
            "APIHOST": lambda: f"api.{self.c(DOMAINS)}",
            "CHANNEL": lambda: self.c(CHANNELS),
            "VENDOR": lambda: self.c(VENDORS),
            "PKG": lambda: self.c(PYPKGS),
            "NPMPKG": lambda: self.c(NPMPKGS),
            "FILE": lambda: self.c(FILES),
            "TICKET": lambda: f"{self.c(['OPS', 'INFRA', 'SEC', 'PLAT', 'BUG'])}-{self.i(10, 4999)}",
            "MIN": lambda: str(self.c([5, 10, 15, 30, 60, 90])),
            "WIFI": lambda: self.c(WIFI),
            "CLIENTID": lambda: self.s(LOWER_ALNUM, self.c([20, 24])),
            # look-alike material
            "SHA40": lambda: self.s(HEX, 40),
            "SHA40B": lambda: self.s(HEX, 40),
            "SHA7": lambda: self.s(HEX, self.c([7, 7, 8, 10, 12])),
            "SHA7B": lambda: self.s(HEX, 7),
            "SHA256": lambda: self.s(HEX, 64),
            "MD5": lambda: self.s(HEX, 32),
            "HEX32": lambda: self.s(HEX, 32),
            "HEX16": lambda: self.s(HEX, 16),
            "HEX8": lambda: self.s(HEX, 8),
            "FPR": lambda: " ".join(self.s("0123456789ABCDEF", 4) for _ in range(10)),
            "UUID": self.uuid,
            "UUID2": self.uuid,
            "ULID": lambda: self.c("01") + self.s(CROCKFORD, 25),
            "SEMVER": self.semver,
            "SEMVER2": self.semver,
            "PNGURI": self.png_data_uri,
            "GIFURI": self.gif_data_uri,
            "SVGURI": self.svg_data_uri,
            "CHUNK": lambda: self.s(UPPER_ALNUM, 8),
            "BUILDID": lambda: self.c(
                [
                    f"{self.date().replace('-', '')}.{self.i(1, 40)}",
                    f"bld-{self.s(LOWER_ALNUM, 10)}",
                    self.s(HEX, 12),
                    f"{self.i(1000000000, 9999999999)}",
                ]
            ),
            "POD": self.pod_name,
            "POD2": self.pod_name,
            "RS": lambda: f"{self.c(SERVICES)}-{self.s(K8S_ALPHA, self.c([9, 10]))}",
            "JOBPOD": lambda: f"{self.c(SERVICES)}-migrate-{self.s(K8S_ALPHA, 5)}",
            "COLOR": lambda: "#" + self.s(HEX, 6),
            "COLOR2": lambda: "#" + self.s(self.c([HEX, HEX.upper()]), self.c([3, 6, 6])),
            "IPV6": self.ipv6,
            "IPV6B": self.ipv6,
            "SSHPUB": self.ssh_public,
            "PUBPEM": self.public_pem,
            "CERTPEM": self.cert_pem,
            "INTEGRITY": lambda: "sha512-" + base64.b64encode(self.rb(64)).decode(),
            "SRI": lambda: "sha384-" + base64.b64encode(self.rb(48)).decode(),
            "CSPHASH": lambda: "sha256-" + base64.b64encode(self.rb(32)).decode(),
            "ACCT": lambda: self.digits(12),
            "EC2": lambda: "i-0" + self.s(HEX, 16),
            "AMI": lambda: "ami-0" + self.s(HEX, 16),
            "SG": lambda: "sg-0" + self.s(HEX, 16),
            "STRIPEOBJ": lambda: (
                self.c(["cus_", "pi_3", "ch_3", "evt_1", "price_1", "sub_1", "in_1"]) + self.s(ALNUM, self.c([14, 24]))
            ),
            "SLACKCHAN": lambda: "C0" + self.s(UPPER_ALNUM, 9),
            "SLACKUSER": lambda: "U0" + self.s(UPPER_ALNUM, 9),
            "GCLIENT": lambda: f"{self.digits(12)}-{self.s(LOWER_ALNUM, 32)}.apps.googleusercontent.com",
            "LAST4": lambda: self.s(ALNUM, 4),
            "TRACE": lambda: self.s(HEX, 32),
            "SPAN": lambda: self.s(HEX, 16),
            "ETAG": lambda: self.s(HEX, self.c([16, 32, 40])),
            "B64ID": lambda: self.s(ALNUM, self.c([11, 22])),
            "PCT": lambda: str(self.i(1, 99)),
            "AWSPH": lambda: "AKIA" + "X" * 16,
            "SECRETVAR": lambda: self.c(SECRET_VARS),
            "SECRETVAR2": lambda: self.c(SECRET_VARS),
            "LOWERVAR": lambda: self.c(
                ["apiToken", "dbPassword", "clientSecret", "stripeKey", "webhookUrl", "jwtSecret"]
            ),
            "STARS": lambda: self.c(["*", "x", "X", "•"]) * self.c([3, 4, 8, 12, 16]),
        }

    def fill(self, tpl: str, **fixed) -> str:
        fillers = self._fillers()
        cache = dict(fixed)

        def rep(m):
            k = m.group(1)
            if k not in cache:
                if k not in fillers:
                    return m.group(0)
                cache[k] = fillers[k]()
            return cache[k]

        return re.sub(r"%([A-Z][A-Z0-9_]*)%", rep, tpl)

    # --------------------------------------------------------- look-alike helpers
    def semver(self) -> str:
        v = f"{self.i(0, 12)}.{self.i(0, 40)}.{self.i(0, 30)}"
        if self.p(0.2):
            v += self.c(["-rc.", "-beta.", "-alpha."]) + str(self.i(1, 9))
        if self.p(0.1):
            v += "+build." + self.s(HEX, 7)
        return v

    def pod_name(self) -> str:
        return f"{self.c(SERVICES)}-{self.s(K8S_ALPHA, self.c([9, 10]))}-{self.s(K8S_ALPHA, 5)}"

    def ipv6(self) -> str:
        groups = [format(self.i(0, 0xFFFF), "x") for _ in range(8)]
        style = self.i(0, 2)
        if style == 0:
            return ":".join(groups)
        if style == 1:
            return "2001:db8:" + ":".join(groups[:2]) + "::" + ":".join(groups[5:])
        return "fe80::" + ":".join(groups[4:])

    def png_data_uri(self) -> str:
        w, h = self.i(1, 64), self.i(1, 64)
        ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)

        def chunk(t, d):
            return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

        raw = (
            b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", self.rb(self.i(20, 200))) + chunk(b"IEND", b"")
        )
        return "data:image/png;base64," + base64.b64encode(raw).decode()

    def gif_data_uri(self) -> str:
        raw = b"GIF89a" + struct.pack("<HH", self.i(1, 32), self.i(1, 32)) + self.rb(self.i(20, 80)) + b";"
        return "data:image/gif;base64," + base64.b64encode(raw).decode()

    def svg_data_uri(self) -> str:
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#{self.s(HEX, 6)}" '
            f'd="M{self.i(0, 12)} {self.i(0, 12)}h{self.i(1, 12)}v{self.i(1, 12)}z"/></svg>'
        )
        return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()

    def ssh_public(self) -> str:
        comment = f"{self.c(PEOPLE).lower()}@{self.c(['laptop', 'macbook', 'ci', 'workstation', 'bastion'])}"
        if self.p(0.5):
            blob = _sshstr(b"ssh-ed25519") + _sshstr(self.rb(32))
            return "ssh-ed25519 " + base64.b64encode(blob).decode() + " " + comment
        n = b"\x00" + bytes([self.i(0x80, 0xFF)]) + self.rb(255)
        blob = _sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(n)
        return "ssh-rsa " + base64.b64encode(blob).decode() + " " + comment

    def public_pem(self) -> str:
        return _pem("PUBLIC KEY", self._spki_rsa())

    def _spki_rsa(self) -> bytes:
        n = bytes([self.i(0x80, 0xFF)]) + self.rb(255)
        rsapub = _der(0x30, _der_int(n) + _der_int(b"\x01\x00\x01"))
        return _der(0x30, _der(0x30, OID_RSA) + _der(0x03, b"\x00" + rsapub))

    def cert_pem(self) -> str:
        def name(cn: str) -> bytes:
            atv = _der(0x30, bytes.fromhex("0603550403") + _der(0x0C, cn.encode()))
            org = _der(0x30, bytes.fromhex("060355040a") + _der(0x0C, self.c(ORGS).encode()))
            return _der(0x30, _der(0x31, org) + _der(0x31, atv))

        sig_alg = _der(0x30, bytes.fromhex("06092a864886f70d01010b0500"))
        y = self.i(23, 25)
        validity = _der(0x30, _der(0x17, f"{y}0101000000Z".encode()) + _der(0x17, f"{y + 1}0101000000Z".encode()))
        tbs = _der(
            0x30,
            b"\xa0\x03\x02\x01\x02"
            + _der_int(self.rb(16))
            + sig_alg
            + name(f"{self.c(ORGS)} Intermediate CA")
            + validity
            + name(f"*.{self.c(DOMAINS)}")
            + self._spki_rsa(),
        )
        cert = _der(0x30, tbs + sig_alg + _der(0x03, b"\x00" + self.rb(256)))
        return _pem("CERTIFICATE", cert)

    # --------------------------------------------------------- secret formats
    def _gh_style(self, prefix: str) -> str:
        body = self.s(ALNUM, 30)
        return prefix + body + _b62(zlib.crc32(body.encode()) & 0xFFFFFFFF).rjust(6, "0")

    def human_password(self) -> str:
        style = self.i(0, 3)
        if style == 0:
            return self.s(ALNUM + PW_SYMBOLS, self.i(12, 24))
        if style == 1:
            return self.c(WORDS).capitalize() + str(self.i(1, 2025)) + self.c("!#?*@")
        if style == 2:
            return "-".join(self.c(WORDS) for _ in range(self.i(3, 4))) + str(self.i(1, 99))
        w = self.c(WORDS)
        leet = w.translate(str.maketrans({"a": "@", "o": "0", "e": "3", "i": "1", "s": "$"}))
        leet = leet.replace("$", "5")
        return leet[0].upper() + leet[1:] + self.c("!#%*") + str(self.i(0, 99))

    def jwt(self) -> str:
        alg = self.c(["HS256", "HS256", "RS256", "ES256"])
        header = {"alg": alg, "typ": "JWT"}
        if alg != "HS256" and self.p(0.7):
            header["kid"] = self.s(B64URL, self.c([16, 22, 43]))
        iat = self.i(1_690_000_000, 1_760_000_000)
        payload = {"sub": self.c([self.uuid(), f"user_{self.i(1, 999999)}", f"auth0|{self.s(HEX, 24)}"])}
        if self.p(0.6):
            payload["email"] = f"{self.c(PEOPLE).lower()}@{self.c(DOMAINS)}"
        if self.p(0.5):
            payload["role"] = self.c(["admin", "service", "user", "authenticated", "support"])
        if self.p(0.5):
            payload["iss"] = f"https://auth.{self.c(DOMAINS)}/"
        if self.p(0.4):
            payload["aud"] = self.c(["api", "web", "mobile", f"https://api.{self.c(DOMAINS)}"])
        if self.p(0.3):
            payload["scope"] = self.c(["read:all write:all", "openid profile email", "repo admin:org"])
        payload["iat"] = iat
        if self.p(0.85):
            payload["exp"] = iat + self.c([900, 3600, 86400, 604800])
        sig_len = {"HS256": 32, "RS256": 256, "ES256": 64}[alg]

        def enc(o):
            return _b64u(json.dumps(o, separators=(",", ":")).encode())

        return f"{enc(header)}.{enc(payload)}.{_b64u(self.rb(sig_len))}"

    def rsa_der(self) -> bytes:
        nb = self.c([256, 256, 256, 384])
        hb = nb // 2

        def top(k):
            return bytes([self.i(0x80, 0xFF)]) + self.rb(k - 1)

        parts = [b"\x00", top(nb), b"\x01\x00\x01", top(nb), top(hb), top(hb), top(hb), top(hb), top(hb)]
        return _der(0x30, b"".join(_der_int(x) for x in parts))

    def private_key_pem(self, kind: str) -> str:
        if kind == "rsa":
            return _pem("RSA " + PRIV, self.rsa_der())
        if kind == "pkcs8":
            body = _der_int(b"\x00") + _der(0x30, OID_RSA) + _der(0x04, self.rsa_der())
            return _pem(PRIV, _der(0x30, body))
        if kind == "ec":
            body = (
                _der_int(b"\x01")
                + _der(0x04, self.rb(32))
                + _der(0xA0, OID_P256)
                + _der(0xA1, _der(0x03, b"\x00\x04" + self.rb(64)))
            )
            return _pem("EC " + PRIV, _der(0x30, body))
        # OPENSSH (ed25519)
        pub = self.rb(32)
        pubblob = _sshstr(b"ssh-ed25519") + _sshstr(pub)
        check = self.rb(4)
        comment = f"{self.c(PEOPLE).lower()}@{self.c(['laptop', 'ci-runner', 'deploy', 'bastion'])}".encode()
        priv = check + check + _sshstr(b"ssh-ed25519") + _sshstr(pub) + _sshstr(self.rb(32) + pub) + _sshstr(comment)
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
            + _sshstr(pubblob)
            + _sshstr(priv)
        )
        return _pem("OPENSSH " + PRIV, blob, width=70)

    def pypi_token(self) -> str:
        ident = self.uuid().encode()
        proj = self.c(PYPKGS)
        cav = self.c(
            [
                json.dumps({"version": 1, "permissions": "user"}, separators=(",", ":")),
                json.dumps({"version": 1, "permissions": {"projects": [proj]}}, separators=(",", ":")),
            ]
        ).encode()
        raw = (
            b"\x02\x01\x08pypi.org\x02"
            + bytes([len(ident)])
            + ident
            + b"\x00\x02"
            + bytes([len(cav)])
            + cav
            + b"\x00\x00\x06\x20"
            + self.rb(32)
        )
        return "pypi-" + _b64u(raw)

    # ======================================================== positive kinds
    # each returns (templates, secret, extra_fixed_fills)
    def k_aws_access_key_id(self):
        s = self.c(["AKIA", "AKIA", "AKIA", "ASIA"]) + self.s(AWS_B32, 16)
        return (
            [
                "AWS_ACCESS_KEY_ID=%S%",
                "export AWS_ACCESS_KEY_ID=%S%",
                "aws_access_key_id = %S%",
                "[%ENV%]\naws_access_key_id = %S%\nregion = %REGION%",
                '{"AccessKeyId": "%S%", "Status": "Active", "UserName": "%SVC%-ci"}',
                "The %ENV% deploy user's access key id is %S%; the secret half is in 1Password under '%SVC% IAM'.",
                "Terraform plan failed with InvalidClientTokenId for key %S%. Looks like someone deactivated it in IAM.",
                "CI is using %S% as the access key for the s3 upload step.",
                "aws configure set aws_access_key_id %S% --profile %ENV%",
                "Rotated the access key for ci-deploy: new key id %S%, old one disabled.",
                "access_key: %S%",
                "Found a hardcoded AWS key %S% in scripts/backup.sh line %SMALLN%, flagged it for removal.",
                "CloudTrail shows ListBuckets calls from %S% at 3am from an unknown IP, investigating.",
                "hey %PERSON%, the access key for the %SVC% bucket uploader is %S% if you need it",
            ],
            s,
            {},
        )

    def k_aws_secret_access_key(self):
        s = self.s(ALNUM + "/+", 40)
        return (
            [
                "AWS_SECRET_ACCESS_KEY=%S%",
                "export AWS_SECRET_ACCESS_KEY=%S%",
                "aws_secret_access_key = %S%",
                '"SecretAccessKey": "%S%"',
                "The secret access key for the %ENV% uploader is %S%, the key id is in the vault entry.",
                "aws configure set aws_secret_access_key %S% --profile %ENV%",
                "AWS secret key (ci-deploy): %S% -- rotate after the migration.",
                "Set AWS_SECRET_ACCESS_KEY to %S% in the GitHub Actions secrets for %REPO%.",
                "secret_access_key: %S%",
                "velero credentials file needs aws_secret_access_key=%S% under [default].",
                "Agent note: user pasted AWS secret access key %S% for the %SVC% S3 sync task; it must not be written to logs.",
                "S3_SECRET_ACCESS_KEY=%S% # %SVC% backup job",
            ],
            s,
            {},
        )

    def k_github_token(self):
        pfx = self.c(["ghp_", "ghp_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_"])
        if pfx == "github_pat_":
            s = pfx + "11" + self.s(UPPER_ALNUM, 20) + "_" + self.s(ALNUM, 59)
        else:
            s = self._gh_style(pfx)
        return (
            [
                "GITHUB_TOKEN=%S%",
                "export GH_TOKEN=%S%",
                "git clone https://%S%@github.com/%REPO%.git",
                "git remote set-url origin https://x-access-token:%S%@github.com/%REPO%.git",
                'curl -H "Authorization: token %S%" https://api.github.com/repos/%REPO%/issues',
                'curl -H "Authorization: Bearer %S%" -H "Accept: application/vnd.github+json" https://api.github.com/user',
                "Use PAT %S% for the release workflow, it has repo and workflow scopes.",
                "my github token is %S% pls use it to push the %BRANCH% branch",
                "//npm.pkg.github.com/:_authToken=%S%",
                '{"github": {"token": "%S%", "org": "%ORG%"}}',
                "echo %S% | gh auth login --with-token",
                "Bot token for the renovate runner: %S%. Expires %DATE%.",
                "The release action kept 403ing because the token %S% lacked workflow scope; regenerated it with the right scopes.",
            ],
            s,
            {},
        )

    def k_gitlab_pat(self):
        s = "glpat-" + self.s(ALNUM + "-_", 20)
        return (
            [
                "GITLAB_TOKEN=%S%",
                "git remote set-url origin https://oauth2:%S%@gitlab.com/%REPO%.git",
                'curl --header "PRIVATE-TOKEN: %S%" "https://gitlab.%DOMAIN%/api/v4/projects?membership=true"',
                "Personal access token for the %SVC% runner: %S% (scopes: api, read_registry).",
                "docker login registry.gitlab.com -u %HANDLE% -p %S%",
                "gitlab PAT %S%, expires %DATE%, owned by the ci-bot user.",
                "gitlab:\n  url: https://gitlab.%DOMAIN%\n  token: %S%",
                "Danger bot needs DANGER_GITLAB_API_TOKEN=%S% in the CI variables.",
                "Saved for later: GitLab token %S% lets me read the %REPO% MR pipelines.",
            ],
            s,
            {},
        )

    def k_slack_token(self):
        if self.p(0.6):
            s = "xoxb-" + self.digits(self.i(10, 13)) + "-" + self.digits(self.i(10, 13)) + "-" + self.s(ALNUM, 24)
        else:
            s = (
                "xoxp-"
                + self.digits(self.i(10, 13))
                + "-"
                + self.digits(self.i(10, 13))
                + "-"
                + self.digits(self.i(10, 13))
                + "-"
                + self.s(HEX, 32)
            )
        return (
            [
                "SLACK_BOT_TOKEN=%S%",
                "SLACK_TOKEN: %S%",
                "curl -H 'Authorization: Bearer %S%' -d channel=%SLACKCHAN% -d text=deployed https://slack.com/api/chat.postMessage",
                "The #%CHANNEL% alerter bot uses %S%; it needs chat:write and channels:read.",
                '{"slack_token": "%S%", "channel": "#%CHANNEL%"}',
                "slack token for the export script (mine, revoke after): %S%",
                'app = App(token="%S%", signing_secret=os.environ["SLACK_SIGNING_SECRET"])',
                "Bolt app kept failing with invalid_auth until I swapped in %S% from the OAuth page.",
            ],
            s,
            {},
        )

    def k_slack_webhook_url(self):
        s = (
            "https://hooks.slack.com/services/T"
            + self.s(UPPER_ALNUM, self.c([8, 10]))
            + "/B"
            + self.s(UPPER_ALNUM, self.c([8, 10]))
            + "/"
            + self.s(ALNUM, 24)
        )
        return (
            [
                "SLACK_WEBHOOK_URL=%S%",
                "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy done\"}' %S%",
                "Alerts for %SVC% go to #%CHANNEL% via %S%.",
                "receivers:\n- name: slack\n  slack_configs:\n  - api_url: %S%\n    channel: '#%CHANNEL%'",
                '{"webhook": "%S%", "channel": "#%CHANNEL%"}',
                "Incoming webhook for #%CHANNEL%: %S% -- don't share outside the team.",
                'Terraform var slack_webhook = "%S%" for the budget alarms.',
                "The nightly %SVC% job posts its summary to %S%, which lands in #%CHANNEL%.",
            ],
            s,
            {},
        )

    def k_stripe_key(self):
        pfx = self.c(["sk_" + "live_", "sk_" + "live_", "rk_" + "live_"])
        s = pfx + (self.s(ALNUM, 24) if self.p(0.4) else "51" + self.s(ALNUM, 97))
        return (
            [
                "STRIPE_SECRET_KEY=%S%",
                "curl https://api.stripe.com/v1/charges -u %S%: -d limit=3",
                "Live Stripe key for the refund script: %S%.",
                'stripe.api_key = "%S%"',
                "Use key %S% for the reporting job; it is restricted to read-only on charges and payouts.",
                "STRIPE_API_KEY: %S%",
                "const stripe = require('stripe')('%S%');",
                "stripe listen --forward-to localhost:4242/webhook --api-key %S%",
                "Heads up: %PERSON% pasted %S% into the PR description for #%PR%, we need to roll it.",
            ],
            s,
            {},
        )

    def k_openai_key(self):
        marker = base64.b64encode(b"OpenAI").decode()
        if self.p(0.4):
            s = "sk-" + self.s(ALNUM, 20) + marker + self.s(ALNUM, 20)
        else:
            n = self.c([74, 74, 58])
            s = "sk-proj-" + self.s(B64URL, n) + marker + self.s(B64URL, n)
        return (
            [
                "OPENAI_API_KEY=%S%",
                'export OPENAI_API_KEY="%S%"',
                'curl https://api.openai.com/v1/chat/completions -H "Authorization: Bearer %S%" -H "Content-Type: application/json"',
                'client = OpenAI(api_key="%S%")',
                "openai key for the eval harness: %S% (billed to the research org).",
                "User shared their OpenAI key %S% to run the embeddings backfill; don't log it.",
                "openai:\n  api_key: %S%\n  model: gpt-4o-mini",
                "Rate limits hit again on %S%, asked %PERSON% to bump the tier.",
            ],
            s,
            {},
        )

    def k_anthropic_key(self):
        s = "sk-ant-" + self.c(["api03-", "api03-", "api03-", "admin01-"]) + self.s(B64URL, 93) + "AA"
        return (
            [
                "ANTHROPIC_API_KEY=%S%",
                'curl https://api.anthropic.com/v1/messages -H "x-api-key: %S%" -H "anthropic-version: 2023-06-01"',
                'client = anthropic.Anthropic(api_key="%S%")',
                "Claude key for the summarizer worker: %S%.",
                "export ANTHROPIC_API_KEY=%S%",
                "anthropic:\n  api_key: %S%",
                "Session note: the user gave me %S% as their Anthropic key for the batch eval, use it only for that run.",
            ],
            s,
            {},
        )

    def k_google_api_key(self):
        s = "AIzaSy" + self.s(ALNUM + "-_", 33)
        return (
            [
                "GOOGLE_API_KEY=%S%",
                "https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=%S%",
                '<script src="https://maps.googleapis.com/maps/api/js?key=%S%&callback=initMap"></script>',
                'firebaseConfig = { apiKey: "%S%", authDomain: "%ORG%-app.firebaseapp.com" }',
                "Gemini key %S% is limited to 60 rpm; use it for the batch job only.",
                "GEMINI_API_KEY=%S%",
                "YouTube Data API key for the ingest script: %S%",
                "The Places autocomplete stopped working because %S% had an HTTP referrer restriction.",
            ],
            s,
            {},
        )

    def k_sendgrid_key(self):
        s = "SG." + self.s(B64URL, 22) + "." + self.s(B64URL, 43)
        return (
            [
                "SENDGRID_API_KEY=%S%",
                "curl --request POST --url https://api.sendgrid.com/v3/mail/send --header 'Authorization: Bearer %S%'",
                "Transactional email key (SendGrid, full access): %S%",
                "SMTP relay: user apikey, password %S%, host smtp.sendgrid.net:587",
                "sendgrid:\n  api_key: %S%\n  from: no-reply@%DOMAIN%",
                "Password reset emails failing with 401 -- the key %S% was revoked during cleanup.",
            ],
            s,
            {},
        )

    def k_twilio_key(self):
        if self.p(0.5):
            s = "SK" + self.s(HEX, 32)
            tpls = [
                "TWILIO_API_KEY=%S%",
                "Twilio API key %S% is used by the verify service in %ENV%.",
                "twilio:\n  api_key: %S%",
                "Created a Twilio API key %S% for the SMS fallback; the secret half is in the vault.",
            ]
        else:
            s = self.s(HEX, 32)
            tpls = [
                "TWILIO_AUTH_TOKEN=%S%",
                "Twilio auth token for the SMS sender: %S%",
                '{"twilio": {"auth_token": "%S%", "from": "+1555%N%"}}',
                "export TWILIO_AUTH_TOKEN=%S%",
                "twilio auth token is %S% (primary, not the secondary one)",
            ]
        return tpls, s, {}

    def k_npm_token(self):
        s = self._gh_style("npm_")
        return (
            [
                "//registry.npmjs.org/:_authToken=%S%",
                "NPM_TOKEN=%S%",
                "npm automation token for publishing @%ORG%/%NPMPKG%: %S%",
                'echo "//registry.npmjs.org/:_authToken=%S%" > ~/.npmrc',
                "npmAuthToken: %S%",
                "Publishing broke with E401; the old granular token expired, new one is %S%.",
            ],
            s,
            {},
        )

    def k_pypi_token(self):
        s = self.pypi_token()
        return (
            [
                "[pypi]\n  username = __token__\n  password = %S%",
                "twine upload -u __token__ -p %S% dist/*",
                "TWINE_PASSWORD=%S%",
                "PyPI API token scoped to %PKG%: %S%",
                "UV_PUBLISH_TOKEN=%S%",
                "poetry config pypi-token.pypi %S%",
            ],
            s,
            {},
        )

    def k_jwt(self):
        s = self.jwt()
        return (
            [
                "Authorization: Bearer %S%",
                'curl -H "Authorization: Bearer %S%" https://%APIHOST%/v1/me',
                "Here's the admin JWT from %ENV% for reproducing the bug: %S%",
                "access_token=%S%",
                '{"access_token": "%S%", "token_type": "Bearer", "expires_in": 3600}',
                "Cookie: session=%S%",
                "Service account token for %SVC% (no expiry!): %S%",
                "Decoded the token %S% on jwt.io and the role claim is wrong, which explains the 403s.",
            ],
            s,
            {},
        )

    def k_private_key(self):
        kind = self.c(["rsa", "rsa", "pkcs8", "ec", "openssh", "openssh"])
        s = self.private_key_pem(kind)
        tpls = [
            "Deploy key for %HOST%:\n%S%",
            "%S%\n^ that's the %ENV% signing key, move it to vault.",
            "Pasting the SSH key the contractor needs for the bastion:\n%S%",
            "cat > ~/.ssh/id_deploy <<'EOF'\n%S%\nEOF",
            "TLS key for %SVC%.%DOMAIN% (cert is in the repo):\n%S%",
            "key.pem contents for the %SVC% mTLS client:\n%S%\nDon't commit this.",
        ]
        if kind == "pkcs8" and self.p(0.5):
            s = s.replace("\n", "\\n") + "\\n"
            tpls = [
                '{"type": "service_account", "project_id": "%ORG%-%ENV%", "private_key": "%S%", '
                '"client_email": "%SVC%@%ORG%-%ENV%.iam.gserviceaccount.com"}'
            ]
        return tpls, s, {}

    def k_connection_url_password(self):
        if self.p(0.5):
            raw = self.s(ALNUM + "-_", self.i(12, 32))
        else:
            raw = self.human_password() + self.c(["", "@", "#", "/", ":", "?", "%"])
        pw = quote(raw, safe="-._~!*+=")
        user = self.c(DBUSERS)
        scheme = self.c(["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "rediss"])
        env, dbname = self.c(ENVS), self.c(DBNAMES)
        if scheme.startswith("postgres"):
            host = self.c(
                [
                    f"{dbname}-{env}.{self.s(LOWER_ALNUM, 12)}.{self.c(REGIONS)}.rds.amazonaws.com:5432",
                    f"db-{env}-01.internal:5432",
                    "localhost:5432",
                    f"db.{self.s(LOWER, 20)}.supabase.co:6543",
                    f"{self.c(SERVICES)}-db.postgres.database.azure.com:5432",
                ]
            )
            url = f"{scheme}://{user}:{pw}@{host}/{dbname}" + self.c(["", "", "?sslmode=require"])
            var = self.c(["DATABASE_URL", "POSTGRES_DSN", "PG_URL", "SQLALCHEMY_DATABASE_URI"])
            cli = f"psql \"{url}\" -c 'select count(*) from {dbname}'"
        elif scheme == "mysql":
            host = self.c(
                [
                    f"mysql-{env}.internal:3306",
                    f"{dbname}.{self.s(LOWER_ALNUM, 12)}.{self.c(REGIONS)}.rds.amazonaws.com:3306",
                    "127.0.0.1:3306",
                    "aws.connect.psdb.cloud",
                ]
            )
            url = f"mysql://{user}:{pw}@{host}/{dbname}"
            var = self.c(["DATABASE_URL", "MYSQL_URL", "DB_DSN"])
            cli = f"mysqlsh --uri '{url}' --sql"
        elif scheme == "mongodb+srv":
            url = (
                f"mongodb+srv://{user}:{pw}@cluster{self.i(0, 3)}.{self.s(LOWER_ALNUM, 5)}.mongodb.net/{dbname}"
                + self.c(["", "?retryWrites=true&w=majority", "?authSource=admin"])
            )
            var = self.c(["MONGODB_URI", "MONGO_URL", "MONGO_URI"])
            cli = f'mongosh "{url}"'
        else:
            user = self.c(["", "default"])
            host = self.c(
                [
                    f"redis-{self.i(10000, 19999)}.c{self.i(1, 300)}.{self.c(REGIONS)}-1.ec2.redns.redis-cloud.com:{self.i(10000, 19999)}",
                    f"{self.c(SERVICES)}-cache.{self.s(LOWER_ALNUM, 6)}.ng.0001.use1.cache.amazonaws.com:6379",
                    "localhost:6379",
                    "redis:6379",
                ]
            )
            url = f"{scheme}://{user}:{pw}@{host}/{self.i(0, 3)}"
            var = self.c(["REDIS_URL", "CELERY_BROKER_URL", "CACHE_URL"])
            cli = f"redis-cli -u {url} ping"
        tpls = [
            "%VAR%=%URL%",
            "%CLI%",
            "Connection string for the %ENV% replica: %URL%",
            '"%LVAR%": "%URL%"',
            "Can't reach %URL% from the VPN, it times out after 30s. Is the security group open?",
            "%VAR%: %URL%",
            "Switched %SVC% to %URL% while the primary is being resized.",
            "export %VAR%='%URL%'",
        ]
        return tpls, pw, {"URL": url, "VAR": var, "LVAR": var.lower(), "CLI": cli}

    def k_password(self):
        s = self.human_password()
        return (
            [
                "the %ENV% DB password is %S%",
                "DB_PASSWORD=%S%",
                '{"username": "%DBUSER%", "password": "%S%"}',
                "database:\n  host: %DBHOST%\n  user: %DBUSER%\n  password: %S%",
                "MYSQL_ROOT_PASSWORD=%S%",
                "PGPASSWORD=%S% psql -h %DBHOST% -U %DBUSER% %DBNAME%",
                "admin login for the %SVC% dashboard: admin / %S%",
                "Wifi in the office is %WIFI%, password %S%",
                "Grafana admin pw got reset to %S% after the upgrade, change it when you get a chance.",
                "mysql -u %DBUSER% -p'%S%' -h %DBHOST% %DBNAME%",
                "Set the keystore password to %S% when keytool prompts for it.",
                "requirepass %S%",
                "POSTGRES_PASSWORD: %S%",
                "Jenkins user %HANDLE% password: %S%",
                "RABBITMQ_DEFAULT_PASS=%S%",
                "hey can you try logging in with %S%? that's the temp password I set for your account",
                "SMTP_PASSWORD=%S%",
                "<server><id>nexus</id><username>deploy</username><password>%S%</password></server>",
                "The VPN shared secret / password for the %ENV% site-to-site tunnel is %S%.",
                "Note to self: the root password on %HOST% is %S% until we switch to SSO.",
            ],
            s,
            {},
        )

    def k_generic_api_secret(self):
        style = self.i(0, 3)
        if style == 0:
            s = self.s(HEX, self.c([32, 40, 64]))
        elif style == 1:
            s = self.s(ALNUM, self.i(32, 64))
        elif style == 2:
            s = self.s(B64URL, self.i(32, 64))
        else:
            s = self.s(LOWER_ALNUM + "!@#%^*(-_=+)", 50)
        tpls = [
            "api_key=%S%",
            "API_KEY=%S%",
            "client_secret: %S%",
            "curl -H 'X-API-Key: %S%' https://%APIHOST%/v2/reports",
            "X-API-Key: %S%",
            "Authorization: Bearer %S%",
            'curl -H "Authorization: Bearer %S%" https://%APIHOST%/v1/exports',
            '{"client_id": "%CLIENTID%", "client_secret": "%S%"}',
            "The %VENDOR% API key for %ENV% is %S%.",
            "OAuth client secret for the %SVC% app: %S%",
            "https://%APIHOST%/v1/search?q=orders&api_key=%S%",
            "auth_token: %S%",
            "HMAC secret for webhook signature verification is %S%",
            "SECRET_KEY = '%S%'",
            "%VENDOR% admin key: %S% (do not use in the frontend)",
            'apiSecret: "%S%"',
        ]
        if style == 3:
            tpls = [
                "SECRET_KEY = '%S%'",
                "DJANGO_SECRET_KEY=%S%",
                "The %ENV% Django SECRET_KEY is %S%, keep it in sync across pods.",
            ]
        return tpls, s, {}

    # ======================================================== wrapping
    PREFIXES = [  # noqa: RUF012
        "note: ",
        "FYI ",
        "[memory] ",
        "TODO(%HANDLE%): ",
        "from #%CHANNEL%: ",
        "Context for next session: ",
        "Remember: ",
        "%DATE%: ",
        "re %TICKET%: ",
        "agent log: ",
    ]
    SUFFIXES = [  # noqa: RUF012
        "temp, rotate after the demo",
        "do not commit this.",
        "cc @%HANDLE%",
        "Will revoke on Friday.",
        "ticket %TICKET%",
        "works as of %DATE%",
        "thanks!",
        "(scratch note, delete later)",
    ]

    def wrap(self, text: str) -> str:
        if "\n" not in text and self.p(0.25):
            text = self.fill(self.c(self.PREFIXES)) + text
        if "\n" not in text and self.p(0.2):
            sep = " " if text[-1] in ".!?)" else self.c([" -- ", "; ", "  # ", ". "])
            text = text + sep + self.fill(self.c(self.SUFFIXES))
        return text

    def positive(self, kind: str):
        tpls, secret, extra = getattr(self, "k_" + kind)()
        for _ in range(20):
            text = self.wrap(self.fill(self.c(tpls), S=secret, **extra))
            if text.count(secret) == 1:
                return text, kind, secret
        raise RuntimeError(f"could not place secret uniquely for {kind}")

    # ======================================================== look-alikes
    NEG = {  # noqa: RUF012
        "git_sha_full": [
            "Reverted %SHA40% because it broke the %SVC% build.",
            "Bisected the regression to commit %SHA40%.",
            "git cherry-pick %SHA40% onto release/%SEMVER%",
            "Deployed %SVC% at %SHA40% to %ENV%, smoke tests green.",
            "https://github.com/%REPO%/commit/%SHA40%",
            "The flaky test started failing after %SHA40%; before that (%SHA40B%) it was fine.",
            "ARG GIT_COMMIT=%SHA40%",
        ],
        "git_sha_short": [
            "fixed in %SHA7%, see PR #%PR%",
            "HEAD is now at %SHA7% Merge pull request #%PR% from %REPO%/%BRANCH%",
            "git log %SHA7%..%SHA7B% --oneline shows %SMALLN% commits",
            "%SHA7% (fix: handle empty token list in parser)",
            "Rebased %BRANCH% on main; the conflicting commit was %SHA7%.",
            "image tag %SVC%:%SHA7% is what's running in %ENV%",
        ],
        "checksum": [
            "sha256sum %FILE% -> %SHA256%",
            "%SHA256%  %FILE%",
            "SHA1 of the installer is %SHA40%, matches the vendor page.",
            "md5 %MD5% for %FILE%, the upload was not corrupted.",
            "Release signing key fingerprint: %FPR%",
            "Expected checksum %SHA256% but got a different one, so the download was truncated.",
            "version https://git-lfs.github.com/spec/v1\noid sha256:%SHA256%\nsize %N%",
            'ETag: "%MD5%" on the S3 object, so the multipart upload did not happen.',
        ],
        "docker_digest": [
            "image: ghcr.io/%REPO%@sha256:%SHA256%",
            "Pinned node:20-alpine to sha256:%SHA256% so the builds are reproducible.",
            "FROM python:3.12-slim@sha256:%SHA256%",
            "kubectl shows the pod running %SVC%@sha256:%SHA256% which is the old build.",
            "Digest: sha256:%SHA256%\nStatus: Downloaded newer image for %SVC%:latest",
        ],
        "ids": [
            "request id %UUID% failed with a 502 from the upstream",
            "trace_id=%TRACE% span_id=%SPAN% shows the slow query in %SVC%",
            "X-Request-Id: %UUID%",
            "traceparent: 00-%TRACE%-%SPAN%-01",
            "Sentry event %HEX32% is the same NPE we saw last week.",
            "job %ULID% got stuck in the queue for %MIN% minutes",
            "tenant_id %UUID% is the one with the broken export",
            "Correlation ID %UUID2% links the checkout call to the payment retry.",
            "Idempotency-Key: %UUID%",
        ],
        "data_uri": [
            '<img src="%PNGURI%" alt="spinner">',
            "Inlined the favicon as %GIFURI% to save a request.",
            "background-image: url(%SVGURI%);",
            "The email template embeds the logo as %PNGURI% which Outlook refuses to render.",
        ],
        "build_ids": [
            "main.%HEX8%.js is 40% bigger after the lodash import",
            "assets/chunk-%CHUNK%.js fails to load behind the proxy",
            "build #%N% (%BUILDID%) passed, promoting to %ENV%",
            "Artifact %SVC%-%DATE%-%SHA7%.tar.gz uploaded to the release bucket.",
            "Exported to s3://%ORG%-exports/reports/%UUID%.parquet",
            "GitHub Actions run %BUILDID% timed out on the e2e step.",
            "Cache key node-modules-%SHA256% missed again, check the lockfile hash.",
        ],
        "semver": [
            "bumped %PKG% from %SEMVER% to %SEMVER2%",
            "We're pinned to %NPMPKG%@%SEMVER% because the next minor breaks SSR.",
            "Released v%SEMVER% with the token refresh fix.",
            "kubectl %SEMVER% client vs server %SEMVER2% skew warning, harmless.",
        ],
        "placeholder": [
            "API_KEY=<YOUR_API_KEY>",
            "export OPENAI_API_KEY=sk-...",
            "password: ${DB_PASSWORD}",
            "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
            "token: {{ .Values.apiToken }}",
            "Authorization: Bearer $TOKEN",
            'curl -H "Authorization: Bearer <token>" https://%APIHOST%/v1/me',
            "api_key: your-api-key-here",
            "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
            "redis://:${REDIS_PASSWORD}@redis:6379/0",
            "client_secret: {{ secrets.CLIENT_SECRET }}",
            "STRIPE_SECRET_KEY=sk_live_REPLACE_ME",
            "Set aws_secret_access_key = <secret from the vault> in ~/.aws/credentials.",
            "password=%s placeholder in the log format string is why we saw literal %s in the output",
            "-e PGPASSWORD=$PGPASSWORD is passed through from the runner env",
            "secretKeyRef:\n  name: %SVC%-secrets\n  key: api-key",
            'The template has ANTHROPIC_API_KEY="" so fill it in locally.',
            "op://%ENV%/%SVC%/password is the 1Password reference the CLI reads.",
            "mongodb+srv://<username>:<password>@cluster0.mongodb.net/",
            "Use {{ secrets.TOKEN }} in the workflow instead of hardcoding anything.",
            "%SECRETVAR%: ${{ secrets.%SECRETVAR% }}",
            "%SECRETVAR%=<%SECRETVAR%>",
            "%LOWERVAR%: {{ .Values.%LOWERVAR% }}",
            '%SECRETVAR%="{{ vault "%ENV%/%SVC%" }}"',
            "%SECRETVAR%=your_%LOWERVAR%_here",
            "valueFrom:\n  secretKeyRef:\n    name: %SVC%\n    key: %SECRETVAR%",
        ],
        "redacted": [
            "DB_PASSWORD=********",
            "api_key: [REDACTED]",
            "token ghp_**** was revoked by the secret scanning alert",
            "AWS_SECRET_ACCESS_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "Authorization: Bearer ***",
            "the OpenAI key ending in ...%LAST4% was rotated on %DATE%",
            "postgres://app:****@db-%ENV%-01.internal:5432/app",
            "password=<redacted> in the crash log, good that the logger masks it",
            "Stripe dashboard lists the live key as sk_live_...%LAST4%, created %DATE%.",
            "%DASH%BEGIN RSA PRIVATE KEY%DASH%\n[redacted]\n%DASH%END RSA PRIVATE KEY%DASH%",
            "SLACK_BOT_TOKEN=xoxb-XXXX-XXXX-XXXX",
            "%AWSPH% is what the docs use, replace it with yours",
            'client_secret: "••••••••••••"',
            "x-api-key: REDACTED",
            "%SECRETVAR%=%STARS%",
            "%SECRETVAR%=[REDACTED]",
            "%SECRETVAR%: <redacted> (see the %ENV% vault entry)",
            "env dump from %POD%: %SECRETVAR%=%STARS% %SECRETVAR2%=%STARS%",
        ],
        "env_names": [
            "set OPENAI_API_KEY before running the eval script",
            "make sure GITHUB_TOKEN is exported in your shell, otherwise gh falls back to anonymous",
            "export ANTHROPIC_API_KEY=$(op read op://dev/anthropic/key)",
            "the script reads STRIPE_SECRET_KEY from the environment and fails fast if it's missing",
            "AWS_SECRET_ACCESS_KEY is missing in the CI env for the %SVC% job",
            "os.environ['DATABASE_URL'] raises KeyError in the test container",
            "process.env.SLACK_WEBHOOK_URL is undefined in prod, check the deployment manifest",
            "Renamed SENDGRID_API_KEY to EMAIL_PROVIDER_KEY in the helm chart.",
            "NPM_TOKEN has to be present for the publish step; locally use npm login instead.",
            "TWINE_PASSWORD and TWINE_USERNAME come from the repo secrets.",
            "If GOOGLE_API_KEY is unset the map falls back to OSM tiles.",
            "set %SECRETVAR% before running %SVC% locally",
            "%SECRETVAR% is missing in the CI env for the %SVC% job",
            "export %SECRETVAR%=$(op read op://%ENV%/%SVC%/credential)",
            'os.environ["%SECRETVAR%"] raises KeyError in the %SVC% test container',
            "process.env.%SECRETVAR% is undefined in %ENV%, check the deployment manifest",
            "Renamed %SECRETVAR% to %SECRETVAR2% in the helm chart for %SVC%.",
            "echo $%SECRETVAR% | wc -c prints 1, so the variable is empty inside the %SVC% container",
            "%SECRETVAR%=${%SECRETVAR%:?must be set}",
            "The %SVC% entrypoint logs whether %SECRETVAR% is set, never its value.",
            "DB_PASSWORD is injected by the secrets-store CSI driver, not the env file.",
        ],
        "prose": [
            "password resets expire after %MIN% minutes",
            "the token bucket refills at %N%/s per client",
            "rotate the signing key quarterly and keep the old one for verification for a week",
            "Tokenizer limit is %N% tokens, so long notes get truncated.",
            "Added a check that rejects passwords shorter than 12 characters.",
            "API keys are hashed with SHA-256 before storage; we only keep the last 4 chars for display.",
            "The secret rotation lambda runs every %SMALLN% days and pages on failure.",
            "Refresh tokens are single-use now; reuse revokes the whole family.",
            "We should move the JWT verification to the gateway so services don't each need the public key.",
            "Keys in the Redis cache are prefixed with the tenant id.",
            "Private keys never leave the HSM; the app only gets signatures back.",
            "Primary key on events is (tenant_id, id), the secondary index covers created_at.",
            "The access token TTL went from 15 to %MIN% minutes, which is why sessions last longer.",
            "Please don't paste credentials in tickets, use the vault share link instead.",
            "Bearer auth is enforced on every route except /healthz.",
            "CSRF tokens are tied to the session and regenerated on login.",
            "The password field now has autocomplete=new-password.",
            "Secrets are mounted read-only at /var/run/secrets; the app re-reads them on SIGHUP.",
            "%SVC% now caches OAuth tokens for %MIN% minutes, cutting auth calls by %PCT% percent.",
            "Moved the %SVC% API keys to the secrets manager; the repo has none left.",
            "%PERSON% asked whether the %ENV% password policy needs a special character. It does, plus 14 chars minimum.",
            "The key rotation for %SVC% is scheduled for %DATE%, expect a few 401s during the overlap window.",
            "Login throttling kicks in after %SMALLN% failed password attempts per IP.",
            "Token refresh in the mobile app races with logout; ticket %TICKET%.",
            "We sign webhooks with HMAC-SHA256 and include a timestamp to stop replays.",
            "%SVC% validates JWT exp and nbf with %SMALLN%s of clock skew allowed.",
        ],
        "ssh_public": [
            "Add this to authorized_keys on %HOST%: %SSHPUB%",
            "%SSHPUB%",
            "My public key for the bastion is %SSHPUB%",
            "GitHub deploy key (public half) for %REPO%: %SSHPUB%",
        ],
        "pem_public": [
            "JWT verification public key for the gateway:\n%PUBPEM%",
            "%CERTPEM%\nThat's the intermediate cert the load balancer is missing.",
            "Public key the webhook signatures are checked against:\n%PUBPEM%",
        ],
        "hex_color": [
            "primary button is %COLOR% and hover is %COLOR2%",
            "--brand-accent: %COLOR%;",
            "Designer wants the error red changed from %COLOR% to %COLOR2%.",
            '{"theme": {"bg": "%COLOR%", "fg": "%COLOR2%"}}',
        ],
        "ipv6": [
            "the pod got %IPV6% but the service still resolves to %IPV6B%",
            "Allowlisted %IPV6%/64 on the WAF.",
            "ping6 %IPV6% works from the node but not from inside the container",
            "listen [%IPV6%]:8443 ssl;",
        ],
        "url_nocreds": [
            "git clone https://git@github.com/%REPO%.git",
            "remote is git@github.com:%REPO%.git",
            "Docs are at https://%DOMAIN%/docs/auth/tokens#rotation",
            "postgres://%DBUSER%@%DBHOST%:5432/%DBNAME% (auth via IAM, no password)",
            "redis://localhost:6379/0",
            "mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017/?replicaSet=rs0",
            "https://%APIHOST%/v1/oauth/token is the token endpoint, scope must be read:reports",
            "Callback URL: https://app.%DOMAIN%/auth/callback?state=%B64ID%",
            "https://hooks.slack.com/ docs say webhooks can't post to private channels without an invite.",
            "artifact registry: https://%REGION%-docker.pkg.dev/%ORG%-%ENV%/images",
        ],
        "k8s_names": [
            "%POD% is in CrashLoopBackOff again",
            "kubectl logs %POD% -c app --previous",
            "ReplicaSet %RS% scaled down, %POD2% stuck Terminating",
            "job pod %JOBPOD% completed in %SMALLN%s",
            "OOMKilled: %POD% (limit 512Mi)",
        ],
        "npm_integrity": [
            '"integrity": "%INTEGRITY%"',
            "lockfile integrity for %NPMPKG%@%SEMVER% changed to %INTEGRITY%, someone republished?",
            '<script src="https://cdn.%DOMAIN%/lib.js" integrity="%SRI%" crossorigin="anonymous"></script>',
            "Content-Security-Policy: script-src 'self' '%CSPHASH%'",
        ],
        "cloud_ids": [
            "arn:aws:iam::%ACCT%:role/%SVC%-deploy needs s3:PutObject",
            "instance %EC2% (%AMI%) failed the status check",
            "security group %SG% blocks 5432 from the lambda subnet",
            "Stripe object %STRIPEOBJ% is the one the customer disputed.",
            "Slack channel id for #%CHANNEL% is %SLACKCHAN%, bot user is %SLACKUSER%",
            "OAuth client id (public) %GCLIENT% is registered for the web app.",
            "AWS account %ACCT% is the sandbox; don't deploy prod there.",
        ],
        "misc_high_entropy": [
            'ETag: W/"%ETAG%"',
            "Cache-busting query param ?v=%HEX8% is appended by the build.",
            "YouTube video id %B64ID% is the recording of the incident review.",
            "Terraform state lock id %UUID% is held by %PERSON%'s run.",
            "Blob %SHA40% is the large file bloating the repo history.",
            "Commit signature verified with key %HEX16%.",
        ],
    }

    def lookalike(self, cat: str) -> str:
        t = self.fill(self.c(self.NEG[cat]), DASH=DASH5)
        if "\n" not in t and self.p(0.2):
            t = self.fill(self.c(["note: ", "FYI ", "[memory] ", "%DATE%: ", "re %TICKET%: ", "agent log: "])) + t
        return t


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    g = _Gen(seed)
    positives = []
    for kind in KINDS:
        for _ in range(N_PER_KIND):
            positives.append(g.positive(kind))
    g.r.shuffle(positives)
    cats = list(g.NEG)
    lookalikes, seen, i = [], set(), 0
    while len(lookalikes) < N_LOOKALIKES and i < N_LOOKALIKES * 50:
        t = g.lookalike(cats[i % len(cats)])
        i += 1
        if t not in seen:
            seen.add(t)
            lookalikes.append(t)
    g.r.shuffle(lookalikes)
    return positives, lookalikes


if __name__ == "__main__":
    from collections import Counter

    pos, neg = generate(0)
    assert generate(0) == (pos, neg), "not deterministic"
    assert all(t.count(s) == 1 for t, _, s in pos)
    for k, n in sorted(Counter(k for _, k, _ in pos).items()):
        print(f"{k:26s} {n}")
    print(f"{'LOOKALIKES':26s} {len(neg)}")
    print("\n--- positives ---")
    for t, k, s in pos[:3]:
        print(f"[{k}] {t!r}\n    secret={s!r}")
    print("\n--- look-alikes ---")
    for t in neg[:3]:
        print(repr(t))
