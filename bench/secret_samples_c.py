"""Blind test samples for a secret scanner (set C).

generate(seed) -> (positives, lookalikes)

positives : list of (text, kind, secret) -- each text holds exactly one credential,
            `secret` is the exact substring of `text` that is the credential value.
lookalikes: list of texts that contain no credential but resemble one (hashes, ids,
            digests, placeholders, public keys, prose about secrets, ...).

Standard library only.  Every credential is assembled at run time from random
characters; no token-shaped literal appears in this file (prefixes are built
from pieces).
"""

from __future__ import annotations

import base64
import json
import random
import string
import urllib.parse

__all__ = ["generate"]

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
LAN = LO + DG
UAN = UP + DG
HEX = "0123456789abcdef"
B64 = AN + "+/"
B64U = AN + "-_"
AWS32 = UP + "234567"
CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
K8S_ALPHA = "bcdfghjklmnpqrstvwxz2456789"
NIX32 = "0123456789abcdfghijklmnpqrsvwxyz"

PK = "PRIV" + "ATE KEY"
D5 = "-" * 5

PEOPLE = [
    "alice",
    "bob",
    "priya",
    "marco",
    "dana",
    "kenji",
    "lena",
    "omar",
    "sofia",
    "tom",
    "wei",
    "nadia",
    "raj",
    "emma",
    "luis",
    "yuki",
    "femi",
    "ines",
    "jonas",
    "mei",
]
SERVICES = [
    "billing-api",
    "checkout",
    "auth-svc",
    "ingest-worker",
    "notifier",
    "search",
    "reports",
    "webhooks",
    "cron-runner",
    "admin-portal",
    "etl",
    "mobile-bff",
    "payments",
    "ledger",
    "scheduler",
    "gateway",
    "media-proxy",
    "analytics",
]
ENVS = ["prod", "production", "staging", "stage", "dev", "qa", "sandbox", "preview", "uat", "local"]
ORGS = ["acme", "globex", "initech", "umbrella", "northwind", "hooli", "piedpiper", "contoso", "wayne", "stark"]
REPOS = ["web", "api", "infra", "pipelines", "mobile", "cli", "terraform", "ml-training", "dashboard", "monorepo"]
DOMAINS = ["acme.io", "globex-corp.com", "initech.dev", "northwind.app", "contoso.net", "hooli.xyz", "piedpiper.io"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "ap-northeast-1"]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
HOSTNAMES = ["laptop", "mbp-2021", "devbox", "ci-runner-3", "bastion", "ws-042", "thinkpad", "buildkite-agent"]
WORDS = [
    "maple",
    "river",
    "falcon",
    "copper",
    "orbit",
    "velvet",
    "harbor",
    "pixel",
    "tundra",
    "saffron",
    "quartz",
    "meadow",
    "ember",
    "cobalt",
    "lagoon",
    "juniper",
    "summit",
    "walnut",
    "cinder",
    "breeze",
]
PETS = ["Rex", "Luna", "Milo", "Bella", "Charlie", "Nala", "Oscar", "Pepper", "Ziggy", "Mochi"]
SEASONS = ["Winter", "Spring", "Summer", "Autumn", "Fall"]
API_PATHS = [
    "users",
    "orders?limit=50",
    "events",
    "reports/daily",
    "items/search",
    "accounts/me",
    "invoices",
    "jobs/queue",
    "metrics",
    "projects",
]

FILLER_ENV = [
    ("NODE_ENV", "production"),
    ("PORT", "8080"),
    ("LOG_LEVEL", "debug"),
    ("AWS_REGION", "eu-central-1"),
    ("DB_HOST", "db.internal"),
    ("REDIS_HOST", "redis"),
    ("FEATURE_FLAGS", "beta_ui,fast_checkout"),
    ("TZ", "UTC"),
    ("WORKERS", "4"),
    ("APP_URL", "https://staging.acme.io"),
    ("DEBUG", "false"),
    ("CACHE_TTL", "300"),
    ("SMTP_PORT", "587"),
    ("MAX_UPLOAD_MB", "25"),
    ("RUST_LOG", "info"),
    ("PYTHONUNBUFFERED", "1"),
    ("SENTRY_ENVIRONMENT", "staging"),
    ("DB_NAME", "app_main"),
]


def _camel(ln: str) -> str:
    parts = [p for p in ln.split("_") if p]
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def _sshstr(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


def _b64url_json(obj) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class G:
    """Random helper; everything goes through one random.Random."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    # primitives -------------------------------------------------------
    def s(self, alpha: str, n: int) -> str:
        ch = self.r.choice
        return "".join(ch(alpha) for _ in range(n))

    def hex(self, n: int) -> str:
        return self.s(HEX, n)

    def c(self, seq):
        return self.r.choice(seq)

    def i(self, a: int, b: int) -> int:
        return self.r.randint(a, b)

    def p(self, x: float) -> bool:
        return self.r.random() < x

    def raw(self, n: int) -> bytes:
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def b64(self, n: int) -> str:
        return base64.b64encode(self.raw(n)).decode()

    def b64u(self, n: int) -> str:
        return base64.urlsafe_b64encode(self.raw(n)).decode().rstrip("=")

    # context ----------------------------------------------------------
    def person(self):
        return self.c(PEOPLE)

    def svc(self):
        return self.c(SERVICES)

    def env(self):
        return self.c(ENVS)

    def org(self):
        return self.c(ORGS)

    def repo(self):
        return f"{self.org()}/{self.c(REPOS)}"

    def domain(self):
        return self.c(DOMAINS)

    def region(self):
        return self.c(REGIONS)

    def date(self):
        return f"{self.c([2023, 2024, 2024, 2025])}-{self.i(1, 12):02d}-{self.i(1, 28):02d}"

    def hm(self):
        return f"{self.i(0, 23):02d}:{self.i(0, 59):02d}"

    def ts(self):
        return f"{self.date()}T{self.hm()}:{self.i(0, 59):02d}.{self.i(0, 999):03d}Z"

    def uuid(self):
        return f"{self.hex(8)}-{self.hex(4)}-4{self.hex(3)}-{self.c('89ab')}{self.hex(3)}-{self.hex(12)}"

    def ulid(self):
        return self.c(["01H", "01J", "01G"]) + self.s(CROCK, 23)

    def q(self):
        return self.c([("", ""), ("", ""), ("", ""), ("`", "`"), ('"', '"'), ("'", "'"), ("(", ")"), ("[", "]")])

    def end(self):
        return self.c(["", ".", ",", ";", "!", "", ".", " "])

    def ip(self):
        return f"10.{self.i(0, 255)}.{self.i(0, 255)}.{self.i(1, 254)}"

    def num(self, lo=1000, hi=99999):
        return str(self.i(lo, hi))


# ---------------------------------------------------------------------------
# credential builders
# ---------------------------------------------------------------------------


def mk_aws_akid(g):
    return g.c(["AK" + "IA"] * 5 + ["AS" + "IA"]) + g.s(AWS32, 16)


def mk_aws_secret(g):
    while True:
        v = g.s(AN + "/+", 40)
        if any(ch in "/+" for ch in v) or g.p(0.3):
            return v


def mk_github(g):
    pre = g.c(["gh" + "p_"] * 6 + ["gh" + "o_", "gh" + "u_", "gh" + "s_", "gh" + "s_", "gh" + "r_"])
    return pre + g.s(AN, 36)


def mk_github_fg(g):
    return "git" + "hub_pat_" + "11" + g.s(UAN, 20) + "_" + g.s(AN, 59)


def mk_gitlab(g):
    r = g.r.random()
    if r < 0.7:
        return "gl" + "pat-" + g.s(B64U, 20)
    if r < 0.8:
        return "gl" + "rt-" + g.s(B64U, 20)
    if r < 0.9:
        return "gl" + "dt-" + g.s(B64U, 20)
    return "gl" + "ptt-" + g.hex(40)


def mk_slack(g):
    r = g.r.random()
    if r < 0.55:
        return "xo" + "xb-" + g.s(DG, g.i(11, 13)) + "-" + g.s(DG, g.i(11, 13)) + "-" + g.s(AN, 24)
    if r < 0.85:
        return (
            "xo"
            + "xp-"
            + g.s(DG, g.i(11, 13))
            + "-"
            + g.s(DG, g.i(11, 13))
            + "-"
            + g.s(DG, g.i(11, 13))
            + "-"
            + g.hex(32)
        )
    return "xa" + "pp-1-A" + g.s(UAN, 10) + "-" + g.s(DG, 13) + "-" + g.hex(64)


def mk_slack_webhook(g):
    return (
        "https://hooks.slack.com/"
        + "services/T"
        + g.s(UAN, g.i(8, 10))
        + "/B"
        + g.s(UAN, g.i(8, 10))
        + "/"
        + g.s(AN, 24)
    )


def mk_stripe(g):
    pre = g.c(["sk" + "_live_", "sk" + "_live_", "sk" + "_test_", "rk" + "_live_", "rk" + "_test_"])
    if g.p(0.45):
        return pre + g.s(AN, 24)
    return pre + "51" + g.s(AN, g.i(95, 97))


def mk_stripe_whsec(g):
    return "wh" + "sec_" + g.s(AN, 32)


def mk_openai(g):
    r = g.r.random()
    mid = "T3Blbk" + "FJ"
    if r < 0.35:
        return "sk" + "-" + g.s(AN, 20) + mid + g.s(AN, 20)
    if r < 0.85:
        return "sk" + "-proj-" + g.s(B64U, 74) + mid + g.s(B64U, 74)
    return "sk" + "-svcacct-" + g.s(B64U, 74) + mid + g.s(B64U, 74)


def mk_anthropic(g):
    mid = g.c(["api03-"] * 5 + ["admin01-"])
    return "sk" + "-ant-" + mid + g.s(B64U, 93) + "AA"


def mk_google_key(g):
    return "AI" + "za" + "Sy" + g.s(B64U, 33)


def mk_gocspx(g):
    return "GOC" + "SPX-" + g.s(B64U, 28)


def mk_azure_key(g):
    return g.b64(64)


def mk_sendgrid(g):
    return "S" + "G." + g.s(B64U, 22) + "." + g.s(B64U, 43)


def mk_twilio(g):
    return g.hex(32) if g.p(0.8) else g.s(AN, 32)


def mk_mailgun(g):
    if g.p(0.6):
        return "key" + "-" + g.s(LAN, 32)
    return g.hex(32) + "-" + g.hex(8) + "-" + g.hex(8)


def mk_npm(g):
    return "np" + "m_" + g.s(AN, 36)


def mk_pypi(g):
    return "py" + "pi-" + "AgEIcHlw" + "aS5vcmc" + "CJ" + g.s(B64U, g.i(140, 176))


def mk_hf(g):
    return "h" + "f_" + g.s(UP + LO, 34)


def mk_discord(g):
    snow = str(g.i(10**17, 13 * 10**17))
    p1 = base64.b64encode(snow.encode()).decode().rstrip("=")
    return p1 + "." + g.s(B64U, 6) + "." + g.s(B64U, g.c([27, 38, 38]))


def mk_telegram(g):
    return str(g.i(100000000, 7999999999)) + ":" + "AA" + g.s(B64U, 33)


def mk_jwt(g):
    alg = g.c(["HS256", "HS256", "RS256", "ES256", "HS512"])
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256" and g.p(0.7):
        hdr["kid"] = g.hex(16)
    iat = g.i(1690000000, 1740000000)
    style = g.i(0, 3)
    if style == 0:
        pl = {"iss": "supabase", "ref": g.s(LO, 20), "role": "service_role", "iat": iat, "exp": iat + 315360000}
    elif style == 1:
        pl = {
            "sub": "auth0|" + g.hex(24),
            "aud": f"https://api.{g.domain()}",
            "iat": iat,
            "exp": iat + 86400,
            "scope": g.c(["read:orders write:orders", "admin", "openid profile email"]),
        }
    elif style == 2:
        pl = {
            "user_id": g.i(1, 99999),
            "email": f"{g.person()}@{g.domain()}",
            "roles": [g.c(["admin", "ops", "user"])],
            "exp": iat + 3600,
        }
    else:
        pl = {"sub": g.uuid(), "tenant": g.org(), "iat": iat, "exp": iat + 900, "jti": g.hex(12)}
    siglen = {"HS256": 43, "HS512": 86, "RS256": 342, "ES256": 86}[alg]
    return _b64url_json(hdr) + "." + _b64url_json(pl) + "." + g.s(B64U, siglen)


def mk_datadog(g):
    return g.hex(32) if g.p(0.75) else g.hex(40)


def mk_shopify(g):
    return g.c(["shp" + "at_", "shp" + "at_", "shp" + "ca_", "shp" + "pa_", "shp" + "ss_"]) + g.hex(32)


def mk_do(g):
    return g.c(["do" + "p_v1_"] * 4 + ["do" + "o_v1_", "do" + "r_v1_"]) + g.hex(64)


def mk_vault(g):
    r = g.r.random()
    if r < 0.5:
        return "hv" + "s." + "CAESI" + g.s(B64U, g.i(85, 95))
    if r < 0.85:
        return "hv" + "s." + g.s(AN, 24)
    return "hv" + "b." + "AAAAAQ" + g.s(B64U, 130)


def mk_databricks(g):
    return "da" + "pi" + g.hex(32) + ("-" + str(g.i(2, 3)) if g.p(0.2) else "")


def mk_grafana(g):
    if g.p(0.6):
        return "gl" + "sa_" + g.s(AN, 32) + "_" + g.hex(8)
    obj = {
        "o": g.num(100000, 999999),
        "n": f"{g.svc()}-{g.c(['write', 'read', 'deploy'])}",
        "k": g.s(AN, 24),
        "m": {"r": g.c(["us", "eu", "prod-us-east-0"])},
    }
    return "gl" + "c_" + base64.b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode()


def mk_linear(g):
    return "lin" + "_api_" + g.s(AN, 40)


def mk_notion(g):
    return ("sec" + "ret_" + g.s(AN, 43)) if g.p(0.5) else ("nt" + "n_" + g.s(DG, 12) + g.s(AN, 34))


def mk_postman(g):
    return "PM" + "AK-" + g.hex(24) + "-" + g.hex(34)


def mk_newrelic(g):
    if g.p(0.6):
        return "NR" + "AK-" + g.s(UAN, 27)
    return g.hex(36) + "NR" + "AL"


def mk_age(g):
    return "AGE-SECRET-" + "KEY-1" + g.s(BECH32.upper(), 58)


def mk_mapbox(g):
    mid = _b64url_json({"u": g.person() + g.c(["", "-dev", "maps"]), "a": "c" + g.s(LAN, 24)})
    return "s" + "k." + mid + "." + g.s(B64U, 22)


def mk_heroku(g):
    if g.p(0.65):
        return g.uuid()
    return "HR" + "KU-AA" + g.s(B64U, 58)


def mk_square(g):
    r = g.r.random()
    if r < 0.4:
        return "sq0" + "atp-" + g.s(B64U, 22)
    if r < 0.7:
        return "sq0" + "csp-" + g.s(B64U, 43)
    return "EA" + "AA" + g.s(B64U, 60)


def mk_groq(g):
    return "gs" + "k_" + g.s(AN, 52)


def mk_replicate(g):
    return "r" + "8_" + g.s(AN, 37)


def mk_atlassian(g):
    return "ATATT" + "3xFfGF0" + g.s(B64U, g.i(170, 180)) + "=" + g.s("0123456789ABCDEF", 8)


def mk_cloudflare(g):
    return g.s(B64U, 40) if g.p(0.7) else g.hex(37)


def mk_tfc(g):
    return g.s(AN, 14) + ".atlas" + "v1." + g.s(AN + "-_", 67)


def mk_doppler(g):
    if g.p(0.7):
        return "dp" + ".st." + g.c(["dev", "stg", "prd", "ci"]) + "." + g.s(AN, 40)
    return "dp" + ".pt." + g.s(AN, 43)


def mk_pulumi(g):
    return "pu" + "l-" + g.hex(40)


def mk_opaque(g):
    """Provider-less opaque token for bearer / generic contexts."""
    r = g.i(0, 9)
    if r == 0:
        return g.hex(32)
    if r == 1:
        return g.hex(40)
    if r == 2:
        return g.hex(64)
    if r == 3:
        return g.s(AN, g.i(24, 48))
    if r == 4:
        return g.b64u(g.i(24, 48))
    if r == 5:
        return g.b64(g.i(24, 33))
    if r == 6:
        return g.c(["tok_", "at_", "ak_", "key_", "live_", "prod_", "svc_"]) + g.s(AN, g.i(24, 40))
    if r == 7:
        return g.s(AN, 8) + "." + g.s(AN, 32)
    if r == 8:
        return g.s(UAN, 4) + "-" + g.s(UAN, 4) + "-" + g.s(AN, 24)
    return g.s(LAN, g.i(26, 40))


# human-ish and random passwords ---------------------------------------------


def mk_password(g, allow_url_specials=True):
    r = g.i(0, 13)
    sym = g.c("!#%*?.+=~^") if allow_url_specials else g.c("!*.~_")
    if r == 0:
        v = f"{g.c(SEASONS)}{g.c(['2022', '2023', '2024', '2025', '23', '24'])}{sym}"
    elif r == 1:
        v = f"hunter{g.i(2, 9)}-{g.c(['prod', 'staging', 'db', 'ci'])}"
    elif r == 2:
        v = f"{g.c(WORDS).capitalize()}{g.i(10, 9999)}{sym}"
    elif r == 3:
        v = f"{g.org().capitalize()}{g.c(['@', '#', '!']) if allow_url_specials else '_'}{g.c(['2021', '2023', '2024'])}"
    elif r == 4:
        v = "-".join(g.c(WORDS) for _ in range(g.i(3, 4)))
    elif r == 5:
        base = g.c(WORDS)
        leet = base.replace("a", "@").replace("o", "0").replace("e", "3").replace("i", "1")
        if not allow_url_specials:
            leet = leet.replace("@", "4")
        v = leet.capitalize() + str(g.i(1, 99)) + sym
    elif r == 6:
        v = f"{g.c(PETS)}{g.c(['_', '.', ''])}{g.i(1990, 2021)}"
    elif r in (7, 8):
        v = g.s(AN, g.i(16, 28))
    elif r == 9:
        v = g.s(AN + ("!#%*-_=+~" if allow_url_specials else "-_~"), g.i(14, 24))
    elif r == 10:
        v = g.hex(32)
    elif r == 11:
        v = g.b64(g.i(18, 24)).rstrip("=")
    elif r == 12:
        v = f"{g.c(WORDS)}{g.c(WORDS).capitalize()}{g.i(100, 999)}"
    else:
        v = (
            f"P{g.c(['@', 'a'])}ss{g.c(['w0rd', 'word', 'phrase'])}{g.i(1, 99)}{sym}"
            if allow_url_specials
            else f"Pass{g.c(['w0rd', 'phrase'])}{g.i(10, 99)}"
        )
    return v


# ---------------------------------------------------------------------------
# generic surroundings for a NAME=value style credential
# ---------------------------------------------------------------------------


def _env_block(g, line):
    k = g.i(1, 4)
    fill = g.r.sample(FILLER_ENV, k)
    lines = [f"{a}={b}" for a, b in fill]
    lines.insert(g.i(0, len(lines)), line)
    head = g.c(["", f"# .env.{g.env()}\n", "", f"# {g.svc()} settings\n", "$ cat .env\n"])
    return head + "\n".join(lines)


def wrap(g, s, names, label, hdr=None, api=None, extra=None):
    """Return text embedding secret s in one of many generic surroundings."""
    N = g.c(names)
    ln = N.lower()
    cm = _camel(ln)
    env = g.env()
    svc = g.svc()
    who = g.person()
    who2 = g.c([p for p in PEOPLE if p != who])
    o, c = g.q()
    e = g.end()
    api = api or f"api.{g.domain()}"
    path = g.c(API_PATHS)
    date = g.date()
    repo = g.repo()
    ns = g.c(["default", "prod", "staging", "payments", "platform", "apps"])
    T = []
    T += [
        lambda: _env_block(g, f"{N}={s}"),
        lambda: _env_block(g, f'{N}="{s}"'),
        lambda: (
            f'export {N}="{s}"\n{g.c(["npm run deploy", "./scripts/sync.sh", "make release", "python manage.py migrate", "terraform apply"])}'
        ),
        lambda: f"export {N}={s}",
        lambda: (
            f"docker run --rm -e {N}={s} -p {g.c(['8080', '3000', '5000'])}:{g.c(['8080', '3000', '5000'])} {g.org()}/{svc}:{g.i(1, 4)}.{g.i(0, 20)}.{g.i(0, 9)}"
        ),
        lambda: f"kubectl create secret generic {svc}-secrets --from-literal={ln}={s} -n {ns}",
        lambda: (
            f"kubectl -n {ns} create secret generic {svc} --from-literal={N}='{s}' --dry-run=client -o yaml | kubectl apply -f -"
        ),
        lambda: (
            f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {N}: {s}\n"
            f"    steps:\n      - uses: actions/checkout@v4\n      - run: make deploy ENV={env}"
        ),
        lambda: (
            f'resource "{g.c(["kubernetes_secret", "vault_generic_secret", "aws_ssm_parameter"])}" "{svc.replace("-", "_")}" {{\n  name  = "/{env}/{svc}/{ln}"\n  value = "{s}"\n}}'
        ),
        lambda: f'variable "{ln}" {{\n  type      = string\n  default   = "{s}"\n  sensitive = true\n}}',
        lambda: f'{N} = "{s}"  # TODO move to secrets manager before merging',
        lambda: f'{ln} = os.environ.get("{N}", "{s}")',
        lambda: f"const {cm} = '{s}';\n// TODO: read from process.env.{N}",
        lambda: f'export const {cm} = process.env.{N} ?? "{s}";',
        lambda: f'const {cm} = "{s}" // {env} only',
        lambda: json.dumps({"service": svc, cm: s, "timeout_ms": g.c([5000, 10000, 30000])}, indent=g.c([None, 2])),
        lambda: f"{svc}:\n  endpoint: https://{api}\n  {ln}: {s}\n  retries: {g.i(1, 5)}",
        lambda: f'{svc}:\n  {ln}: "{s}"\n  region: {g.region()}',
        lambda: f'[{svc.replace("-", "_")}]\n{ln} = "{s}"\nbase_url = "https://{api}"',
        lambda: f"{svc.replace('-', '.')}.{cm}={s}\n{svc.replace('-', '.')}.timeout=30s",
        lambda: f"ENV {N}={s}",
        lambda: f"[Service]\nEnvironment={N}={s}\nExecStart=/usr/local/bin/{svc}",
        lambda: f'$env:{N} = "{s}"',
        lambda: f"set -gx {N} {s}",
        lambda: f'gh secret set {N} --repo {repo} --body "{s}"',
        lambda: f"heroku config:set {N}={s} -a {svc}-{env}",
        lambda: f"fly secrets set {N}={s} --app {svc}",
        lambda: (
            f"services:\n  {svc}:\n    image: {g.org()}/{svc}:latest\n    environment:\n      - {N}={s}\n      - LOG_LEVEL=info"
        ),
        lambda: f"helm upgrade --install {svc} ./charts/{svc} -n {ns} --set {cm}={s} --set replicaCount=2",
        # prose
        lambda: f"The {env} deploy uses {o}{s}{c} as the {label}{e} Rotate it after the {g.c(MONTHS)} audit.",
        lambda: f"Remember: {label} for {svc} ({env}) is {o}{s}{c}",
        lambda: f"{o}{s}{c} is the {label} for {svc}; it lives in the {env} account.",
        lambda: f"Saved for later - {label}: {o}{s}{c} (from {who}, {date}).",
        lambda: f"If {svc} starts returning 401 again, re-set {N} to {o}{s}{c}{e} then restart the pods.",
        lambda: f"Found the old {label} in shell history: {o}{s}{c}{e} Need to revoke it before Friday.",
        lambda: f"per {who}: {s} is the {env} {label}, don't paste it in the public channel",
        lambda: f"{label} ({env}): {s}",
        lambda: f"Got {label} from {who}. Value={s}. Stored nowhere else yet, add to 1Password.",
        lambda: f"User asked me to remember the {label} for {repo}: {o}{s}{c}{e}",
        lambda: f"Memory: {repo} -> {svc} needs {N}. Current value {o}{s}{c} ({env}). Do not commit.",
        lambda: f"Note to self: when running the {svc} integration tests locally set {N}={s}",
        # chat
        lambda: (
            f"[{g.hm()}] {who}: here's the {label} for {env} -> {s}\n[{g.hm()}] {who2}: thx, putting it in vault now"
        ),
        lambda: f"{who}: can you try with {s}?\n{who2}: works, thanks!",
        lambda: f"> {who2} wrote:\n> which {label} do we use in {env}?\n\n{s} - same one as last quarter.",
        # shell history
        lambda: (
            f"  {g.i(100, 900)}  cd ~/src/{repo.split('/')[1]}\n  {g.i(901, 950)}  export {N}={s}\n"
            f"  {g.i(951, 999)}  make test"
        ),
        # logs
        lambda: f"{g.ts()} DEBUG {svc}.config loaded settings: {ln}='{s}' region={g.region()} pool=8",
        lambda: (
            f'{g.ts()} level=info msg="starting {svc}" env={env} {ln}={s} version={g.i(1, 3)}.{g.i(0, 30)}.{g.i(0, 9)}'
        ),
        # markdown
        lambda: f"Setup for {repo}:\n\n```bash\nexport {N}={s}\n./scripts/bootstrap.sh {env}\n```",
        lambda: f"| env | key |\n|-----|-----|\n| {env} | `{s}` |",
        lambda: f"- {label}: `{s}`\n- owner: @{who}\n- expires: {date}",
        lambda: f"{s}\n^ {label} for {svc}, keep out of git",
        lambda: f"{s} <- {env} {label}. expires {date}.",
        lambda: f"`{s}` is what {who} gave me for {svc} ({env}).",
    ]
    if hdr:
        h, pre = hdr
        host = api.split("/")[0]
        base = api if "/" in api else api + "/v1"
        T += [
            lambda: f"curl -sS -H '{h}: {pre}{s}' https://{base}/{path}",
            lambda: (
                f'curl -X POST "https://{base}/{path}" \\\n  -H "{h}: {pre}{s}" \\\n  -H "Content-Type: application/json" -d @payload.json'
            ),
            lambda: (
                f"GET /{base.split('/', 1)[1]}/{path} HTTP/1.1\nHost: {host}\n{h}: {pre}{s}\nAccept: application/json\nUser-Agent: {svc}/1.{g.i(0, 9)}"
            ),
            lambda: (
                f"{g.ts()} WARN http.client request failed status=401 url=https://{base}/{path} headers={{'{h}': '{pre}{s}', 'Accept': '*/*'}}"
            ),
            lambda: f"await fetch(`https://{base}/{path}`, {{ headers: {{ '{h}': '{pre}{s}' }} }});",
            lambda: f'resp = requests.get(url, headers={{"{h}": "{pre}{s}"}}, timeout=10)',
            lambda: f"http GET https://{base}/{path} '{h}:{pre}{s}'",
            lambda: (
                f'Traceback (most recent call last):\n  File "/app/{svc.replace("-", "_")}/client.py", line {g.i(40, 300)}, in _request\n'
                f"    resp.raise_for_status()\nrequests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://{base}/{path}\n"
                f"request headers: {{'User-Agent': 'python-requests/2.31.0', '{h}': '{pre}{s}'}}"
            ),
        ]
    if extra:
        T += extra
    return g.c(T)()


def pick(g, special, s, names, label, p_special=0.45, **kw):
    if special and g.p(p_special):
        return g.c(special)()
    return wrap(g, s, names, label, **kw)


# ---------------------------------------------------------------------------
# per-kind positive generators: each returns (text, secret)
# ---------------------------------------------------------------------------


def k_aws_akid(g):
    s = mk_aws_akid(g)
    prof = g.c(["default", "ci", "prod-admin", "deploy", g.org()])
    mask = g.c(["<in 1password>", "(ask " + g.person() + ")", "see vault: aws/" + prof])
    sp = [
        lambda: f"[{prof}]\naws_access_key_id = {s}\n# secret key stored separately, {mask}\nregion = {g.region()}",
        lambda: (
            f"$ aws configure --profile {prof}\nAWS Access Key ID [None]: {s}\nAWS Secret Access Key [None]: "
            f"****************************************\nDefault region name [None]: {g.region()}\nDefault output format [None]: json"
        ),
        lambda: json.dumps(
            {
                "AccessKeyMetadata": [
                    {
                        "UserName": f"{g.svc()}-ci",
                        "AccessKeyId": s,
                        "Status": "Active",
                        "CreateDate": g.date() + "T10:22:31+00:00",
                    }
                ]
            },
            indent=2,
        ),
        lambda: f"aws iam update-access-key --access-key-id {s} --status Inactive --user-name {g.svc()}-bot",
        lambda: f"CloudTrail shows ConsoleLogin failures from accessKeyId={s} (user {g.person()}), sourceIP {g.ip()}.",
        lambda: f"The IAM user for the {g.env()} uploader is keyed as {s}; the matching secret is in SSM.",
        lambda: (
            f"An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation - key {s} was deactivated last week."
        ),
    ]
    return pick(
        g,
        sp,
        s,
        ["AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY", "S3_ACCESS_KEY_ID", "aws_access_key_id"],
        "AWS access key id",
        p_special=0.5,
    ), s


def k_aws_secret(g):
    s = mk_aws_secret(g)
    prof = g.c(["default", "ci", "prod-admin", "deploy", g.org()])
    last4 = g.s(AWS32, 4)
    sp = [
        lambda: (
            f"[{prof}]\naws_access_key_id = AKIA****************\naws_secret_access_key = {s}\nregion = {g.region()}"
        ),
        lambda: f"[profile {prof}]\n# key id ends ...{last4}\naws_secret_access_key={s}",
        lambda: (
            f"$ aws configure\nAWS Access Key ID [****************{last4}]:\nAWS Secret Access Key [None]: {s}\n"
            f"Default region name [{g.region()}]:\nDefault output format [None]:"
        ),
        lambda: (
            f's3 = boto3.client(\n    "s3",\n    aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],\n'
            f'    aws_secret_access_key="{s}",\n)'
        ),
        lambda: (
            f'provider "aws" {{\n  region     = "{g.region()}"\n  access_key = var.aws_access_key\n  secret_key = "{s}"\n}}'
        ),
        lambda: (
            f"[default]\naccess_key = {g.c(['$AWS_ACCESS_KEY_ID', '(see env)'])}\nsecret_key = {s}\nhost_base = s3.amazonaws.com"
        ),
        lambda: (
            f"[s3-backup]\ntype = s3\nprovider = AWS\nenv_auth = false\nsecret_access_key = {s}\nregion = {g.region()}"
        ),
        lambda: f"secret for the {g.svc()}-deploy IAM user is {s} - key id is in the team vault",
        lambda: f'"credentials": {{"secretAccessKey": "{s}", "region": "{g.region()}"}}',
    ]
    return pick(
        g,
        sp,
        s,
        ["AWS_SECRET_ACCESS_KEY", "AWS_SECRET_KEY", "aws_secret_access_key", "S3_SECRET_KEY"],
        "AWS secret access key",
        p_special=0.55,
    ), s


def k_github(g, fg=False):
    s = mk_github_fg(g) if fg else mk_github(g)
    repo = g.repo()
    who = g.person()
    sp = [
        lambda: f"git remote set-url origin https://{s}@github.com/{repo}.git",
        lambda: f"git clone https://x-access-token:{s}@github.com/{repo}.git",
        lambda: f'curl -H "Authorization: token {s}" https://api.github.com/repos/{repo}/actions/runs?per_page=5',
        lambda: f"echo {s} | gh auth login --with-token",
        lambda: f"//npm.pkg.github.com/:_authToken={s}\n@{repo.split('/')[0]}:registry=https://npm.pkg.github.com",
        lambda: f"github.com:\n    user: {who}\n    oauth_token: {s}\n    git_protocol: https",
        lambda: f"https://{who}:{s}@github.com",
        lambda: f"export HOMEBREW_GITHUB_API_TOKEN={s}",
        lambda: f"The release bot for {repo} authenticates with {s}; it has repo + workflow scopes.",
        lambda: f"renovate: {{ token: '{s}', platform: 'github', repositories: ['{repo}'] }}",
    ]
    label = "GitHub fine-grained PAT" if fg else "GitHub token"
    return pick(
        g,
        sp,
        s,
        ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "GH_PAT", "RELEASE_TOKEN"],
        label,
        hdr=("Authorization", g.c(["token ", "Bearer "])),
        api="api.github.com",
    ), s


def k_github_fg(g):
    return k_github(g, fg=True)


def k_gitlab(g):
    s = mk_gitlab(g)
    grp = g.org()
    proj = g.c(REPOS)
    pid = g.i(100, 60000000)
    sp = [
        lambda: (
            f'curl --header "PRIVATE-TOKEN: {s}" "https://gitlab.com/api/v4/projects/{pid}/pipelines?status=failed"'
        ),
        lambda: f"git clone https://oauth2:{s}@gitlab.{grp}.com/{grp}/{proj}.git",
        lambda: f"gitlab-runner register --non-interactive --url https://gitlab.com --token {s} --executor docker",
        lambda: (
            f"curl -X POST --fail -F token={s} -F ref=main https://gitlab.com/api/v4/projects/{pid}/trigger/pipeline"
        ),
        lambda: f'variables:\n  GITLAB_TOKEN: {s}\n  GIT_DEPTH: "10"',
        lambda: f"Use {s} for the gitlab deploy token on {grp}/{proj} (read_registry only).",
    ]
    return pick(
        g,
        sp,
        s,
        ["GITLAB_TOKEN", "GL_TOKEN", "CI_JOB_TOKEN_OVERRIDE", "GITLAB_PAT", "DANGER_GITLAB_API_TOKEN"],
        "GitLab token",
        hdr=("PRIVATE-TOKEN", ""),
        api="gitlab.com/api/v4",
    ), s


def k_slack(g):
    s = mk_slack(g)
    ch = "C0" + g.s(UAN, 9)
    sp = [
        lambda: (
            f'client = WebClient(token="{s}")\nclient.chat_postMessage(channel="#{g.c(["deploys", "alerts", "general"])}", text="done")'
        ),
        lambda: (
            f"curl -X POST -H 'Authorization: Bearer {s}' -H 'Content-type: application/json' "
            f'--data \'{{"channel":"{ch}","text":"hello"}}\' https://slack.com/api/chat.postMessage'
        ),
        lambda: f'app = App(token="{s}", signing_secret=os.environ["SLACK_SIGNING_SECRET"])',
        lambda: (
            f"the slackbot for #{g.c(['incidents', 'oncall', 'releases'])} runs as {s}, scopes chat:write,channels:read"
        ),
    ]
    names = (
        ["SLACK_APP_TOKEN"]
        if s.startswith("xa")
        else ["SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_USER_TOKEN", "SLACK_API_TOKEN"]
    )
    return pick(g, sp, s, names, "Slack token", hdr=("Authorization", "Bearer "), api="slack.com/api"), s


def k_slack_webhook(g):
    s = mk_slack_webhook(g)
    sp = [
        lambda: f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"Deploy finished\"}}' {s}",
        lambda: (
            f"receivers:\n- name: slack\n  slack_configs:\n  - api_url: {s}\n    channel: '#alerts'\n    send_resolved: true"
        ),
        lambda: (
            f"      - name: Notify\n        uses: slackapi/slack-github-action@v1\n        env:\n          SLACK_WEBHOOK_URL: {s}"
        ),
        lambda: f"post build notifications to {s} (#{g.c(['deploys', 'ci', 'builds'])} channel)",
        lambda: f'requests.post("{s}", json={{"text": msg}}, timeout=5)',
        lambda: f"incoming webhook for #oncall: {s}",
    ]
    return pick(g, sp, s, ["SLACK_WEBHOOK_URL", "SLACK_WEBHOOK", "ALERT_WEBHOOK"], "Slack webhook", p_special=0.55), s


def k_stripe(g):
    s = mk_stripe(g)
    sp = [
        lambda: f'stripe.api_key = "{s}"',
        lambda: f"curl https://api.stripe.com/v1/charges -u {s}: -d amount=2000 -d currency=usd -d source=tok_visa",
        lambda: f"const stripe = require('stripe')('{s}');",
        lambda: f"Stripe.api_key = '{s}'",
        lambda: f"stripe listen --api-key {s} --forward-to localhost:{g.c(['3000', '4242', '8000'])}/webhooks/stripe",
        lambda: f"$stripe = new \\Stripe\\StripeClient('{s}');",
    ]
    return pick(
        g,
        sp,
        s,
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_KEY", "STRIPE_RESTRICTED_KEY"],
        "Stripe secret key",
        hdr=("Authorization", "Bearer "),
        api="api.stripe.com",
    ), s


def k_stripe_whsec(g):
    s = mk_stripe_whsec(g)
    sp = [
        lambda: (
            f"> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is {s} (^C to quit)"
        ),
        lambda: (
            f"endpoint_secret = '{s}'\nevent = stripe.Webhook.construct_event(payload, sig_header, endpoint_secret)"
        ),
        lambda: f'const endpointSecret = "{s}";',
    ]
    return pick(
        g, sp, s, ["STRIPE_WEBHOOK_SECRET", "STRIPE_SIGNING_SECRET", "WEBHOOK_SECRET"], "Stripe webhook signing secret"
    ), s


def k_openai(g):
    s = mk_openai(g)
    sp = [
        lambda: f'client = OpenAI(api_key="{s}")',
        lambda: (
            f'curl https://api.openai.com/v1/chat/completions -H "Content-Type: application/json" '
            f'-H "Authorization: Bearer {s}" -d \'{{"model": "gpt-4o-mini", "messages": [{{"role": "user", "content": "ping"}}]}}\''
        ),
        lambda: f'openai.api_key = "{s}"',
        lambda: f'llm = ChatOpenAI(model="gpt-4o", temperature=0, openai_api_key="{s}")',
        lambda: f"OPENAI key for the eval harness: {s} (billing goes to the research org)",
    ]
    return pick(
        g,
        sp,
        s,
        ["OPENAI_API_KEY", "OPENAI_KEY", "LLM_API_KEY"],
        "OpenAI API key",
        hdr=("Authorization", "Bearer "),
        api="api.openai.com",
    ), s


def k_anthropic(g):
    s = mk_anthropic(g)
    sp = [
        lambda: f'client = anthropic.Anthropic(api_key="{s}")',
        lambda: (
            f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {s}" -H "anthropic-version: 2023-06-01" '
            f'-H "content-type: application/json" -d @req.json'
        ),
        lambda: json.dumps({"env": {"ANTHROPIC_API_KEY": s, "DISABLE_TELEMETRY": "1"}}, indent=2),
        lambda: f"const anthropic = new Anthropic({{ apiKey: '{s}' }});",
    ]
    return pick(
        g,
        sp,
        s,
        ["ANTHROPIC_API_KEY", "CLAUDE_API_KEY", "ANTHROPIC_KEY"],
        "Anthropic API key",
        hdr=("x-api-key", ""),
        api="api.anthropic.com",
    ), s


def k_google_key(g):
    s = mk_google_key(g)
    proj = f"{g.org()}-{g.c(['prod', 'web', 'app', 'mobile'])}"
    sp = [
        lambda: f"https://maps.googleapis.com/maps/api/geocode/json?address=1600+Amphitheatre+Pkwy&key={s}",
        lambda: (
            f'const firebaseConfig = {{\n  apiKey: "{s}",\n  authDomain: "{proj}.firebaseapp.com",\n'
            f'  projectId: "{proj}",\n  storageBucket: "{proj}.appspot.com"\n}};'
        ),
        lambda: f'genai.configure(api_key="{s}")',
        lambda: (
            f'curl "https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent?key={s}" -H "Content-Type: application/json" -d @prompt.json'
        ),
        lambda: f'<script src="https://maps.googleapis.com/maps/api/js?key={s}&callback=initMap" async></script>',
        lambda: f"youtube = build('youtube', 'v3', developerKey='{s}')",
    ]
    return pick(
        g,
        sp,
        s,
        ["GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_API_KEY", "YOUTUBE_API_KEY", "FIREBASE_API_KEY"],
        "Google API key",
        hdr=("x-goog-api-key", ""),
        api="generativelanguage.googleapis.com",
    ), s


def k_gocspx(g):
    s = mk_gocspx(g)
    cid = f"{g.s(DG, 12)}-{g.s(LAN, 32)}.apps.googleusercontent.com"
    proj = f"{g.org()}-{g.c(['auth', 'web', 'internal'])}"
    sp = [
        lambda: json.dumps(
            {
                "installed": {
                    "client_id": cid,
                    "project_id": proj,
                    "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                    "token_uri": "https://oauth2.googleapis.com/token",
                    "client_secret": s,
                    "redirect_uris": ["http://localhost"],
                }
            }
        ),
        lambda: f'GoogleProvider({{\n  clientId: process.env.GOOGLE_CLIENT_ID,\n  clientSecret: "{s}",\n}})',
        lambda: f"[gdrive]\ntype = drive\nclient_id = {cid}\nclient_secret = {s}\nscope = drive.readonly",
        lambda: f"OAuth client for {proj}: id {cid}, secret {s}",
    ]
    return pick(
        g,
        sp,
        s,
        ["GOOGLE_CLIENT_SECRET", "GOOGLE_OAUTH_CLIENT_SECRET", "AUTH_GOOGLE_SECRET"],
        "Google OAuth client secret",
        p_special=0.55,
    ), s


def k_azure(g):
    s = mk_azure_key(g)
    acct = g.org() + g.c(["storage", "prodsa", "backups", "logs"]) + g.s(LAN, 3)
    cs = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={s};EndpointSuffix=core.windows.net"
    sp = [
        lambda: f'AZURE_STORAGE_CONNECTION_STRING="{cs}"',
        lambda: (
            f'az storage blob upload --account-name {acct} --account-key "{s}" -c backups -f dump.sql.gz -n {g.date()}.sql.gz'
        ),
        lambda: json.dumps(
            {"ConnectionStrings": {"Storage": cs}, "Logging": {"LogLevel": {"Default": "Information"}}}, indent=2
        ),
        lambda: f'storage_account_access_key = "{s}"',
        lambda: f"conn str for the {acct} account: {cs}",
        lambda: f'BlobServiceClient.from_connection_string("{cs}")',
        lambda: f"account key (key1) for {acct}: {s}",
    ]
    return pick(
        g,
        sp,
        s,
        ["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY", "STORAGE_ACCOUNT_KEY"],
        "Azure storage account key",
        p_special=0.6,
    ), s


def k_sendgrid(g):
    s = mk_sendgrid(g)
    sp = [
        lambda: f'sg = SendGridAPIClient("{s}")',
        lambda: (
            f"EMAIL_HOST = 'smtp.sendgrid.net'\nEMAIL_HOST_USER = 'apikey'\nEMAIL_HOST_PASSWORD = '{s}'\nEMAIL_PORT = 587"
        ),
        lambda: f"sgMail.setApiKey('{s}');",
    ]
    return pick(
        g,
        sp,
        s,
        ["SENDGRID_API_KEY", "SENDGRID_KEY", "SG_API_KEY"],
        "SendGrid API key",
        hdr=("Authorization", "Bearer "),
        api="api.sendgrid.com/v3",
    ), s


def k_twilio(g):
    s = mk_twilio(g)
    sp = [
        lambda: f'client = Client(os.environ["TWILIO_ACCOUNT_SID"], "{s}")',
        lambda: (
            f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/$TWILIO_ACCOUNT_SID/Messages.json "
            f'--data-urlencode "Body=test" --data-urlencode "To=+15558675310" -u $TWILIO_ACCOUNT_SID:{s}'
        ),
        lambda: (
            f'twilio:\n  account_sid: ${{TWILIO_ACCOUNT_SID}}\n  auth_token: {s}\n  from_number: "+1555{g.s(DG, 7)}"'
        ),
        lambda: f"Twilio auth token for the SMS 2FA sender is {s}; SID is in the env.",
    ]
    return pick(g, sp, s, ["TWILIO_AUTH_TOKEN", "TWILIO_API_SECRET", "TWILIO_TOKEN"], "Twilio auth token"), s


def k_mailgun(g):
    s = mk_mailgun(g)
    dom = f"mg.{g.domain()}"
    sp = [
        lambda: (
            f"curl -s --user 'api:{s}' https://api.mailgun.net/v3/{dom}/messages -F from='Ops <ops@{dom}>' "
            f"-F to=oncall@{dom.split('.', 1)[1]} -F subject='test' -F text='hi'"
        ),
        lambda: f"const mg = mailgun.client({{ username: 'api', key: '{s}' }});",
        lambda: f"mailgun:\n  domain: {dom}\n  api_key: {s}",
    ]
    return pick(g, sp, s, ["MAILGUN_API_KEY", "MAILGUN_KEY", "MG_API_KEY"], "Mailgun API key"), s


def k_npm(g):
    s = mk_npm(g)
    sp = [
        lambda: f"//registry.npmjs.org/:_authToken={s}",
        lambda: f'npmRegistryServer: "https://registry.npmjs.org"\nnpmAuthToken: "{s}"',
        lambda: f'echo "//registry.npmjs.org/:_authToken={s}" > ~/.npmrc && npm publish --access public',
        lambda: f"automation token for publishing @{g.org()}/ui: {s}",
    ]
    return pick(g, sp, s, ["NPM_TOKEN", "NODE_AUTH_TOKEN", "NPM_AUTH_TOKEN"], "npm token", p_special=0.5), s


def k_pypi(g):
    s = mk_pypi(g)
    sp = [
        lambda: f"[distutils]\nindex-servers = pypi\n\n[pypi]\n  username = __token__\n  password = {s}",
        lambda: f"twine upload dist/* -u __token__ -p {s}",
        lambda: f"poetry config pypi-token.pypi {s}",
        lambda: f"uv publish --token {s}",
        lambda: f"PyPI upload token (project-scoped, {g.org()}-sdk): {s}",
    ]
    return pick(
        g,
        sp,
        s,
        ["PYPI_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN", "POETRY_PYPI_TOKEN_PYPI"],
        "PyPI API token",
        p_special=0.5,
    ), s


def k_hf(g):
    s = mk_hf(g)
    model = g.c(
        [
            "meta-llama/Llama-3.1-8B-Instruct",
            "mistralai/Mistral-7B-v0.3",
            f"{g.org()}/internal-embedder",
            "google/gemma-2-9b",
        ]
    )
    sp = [
        lambda: f"huggingface-cli login --token {s}",
        lambda: f'from huggingface_hub import login\nlogin(token="{s}")',
        lambda: f'model = AutoModelForCausalLM.from_pretrained("{model}", token="{s}")',
        lambda: f"git clone https://{g.person()}:{s}@huggingface.co/{model}",
        lambda: f"HF read token (gated models): {s}",
    ]
    return pick(
        g,
        sp,
        s,
        ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACE_TOKEN", "HF_API_TOKEN"],
        "Hugging Face token",
        hdr=("Authorization", "Bearer "),
        api="huggingface.co/api",
    ), s


def k_discord(g):
    s = mk_discord(g)
    sp = [
        lambda: f"client.run('{s}')",
        lambda: f'bot.run("{s}")',
        lambda: f"client.login('{s}');",
        lambda: json.dumps({"token": s, "prefix": "!", "owner": g.person()}, indent=2),
    ]
    return pick(
        g,
        sp,
        s,
        ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN", "BOT_TOKEN"],
        "Discord bot token",
        hdr=("Authorization", "Bot "),
        api="discord.com/api/v10",
    ), s


def k_telegram(g):
    s = mk_telegram(g)
    chat = "-100" + g.s(DG, 10)
    bot = f"{g.org()}_{g.c(['alerts', 'deploy', 'notify'])}_bot"
    sp = [
        lambda: f'curl -s "https://api.telegram.org/bot{s}/sendMessage?chat_id={chat}&text=deploy+ok"',
        lambda: f'bot = telebot.TeleBot("{s}")',
        lambda: f'app = Application.builder().token("{s}").build()',
        lambda: (
            f"Done! Congratulations on your new bot. You will find it at t.me/{bot}.\n\n"
            f"Use this token to access the HTTP API:\n{s}\nKeep your token secure and store it safely."
        ),
        lambda: f"webhook set via https://api.telegram.org/bot{s}/setWebhook?url=https://{g.domain()}/tg",
    ]
    return pick(g, sp, s, ["TELEGRAM_BOT_TOKEN", "TG_TOKEN", "TELEGRAM_TOKEN"], "Telegram bot token", p_special=0.55), s


def k_jwt(g):
    s = mk_jwt(g)
    api = f"api.{g.domain()}"
    sp = [
        lambda: f"curl -H 'Authorization: Bearer {s}' https://{api}/v1/{g.c(API_PATHS)}",
        lambda: f"Cookie: session={s}; theme=dark; _ga=GA1.2.{g.s(DG, 9)}.{g.s(DG, 10)}",
        lambda: f"localStorage.setItem('access_token', '{s}');",
        lambda: json.dumps({"access_token": s, "token_type": "Bearer", "expires_in": 3600}),
        lambda: f"SUPABASE_SERVICE_ROLE_KEY={s}",
        lambda: f"token for the test admin user (valid for a year): {s}",
        lambda: f"{g.ts()} DEBUG auth middleware: verifying bearer {s} for route /admin",
    ]
    return pick(
        g,
        sp,
        s,
        ["JWT", "ACCESS_TOKEN", "AUTH_TOKEN", "SERVICE_TOKEN", "ID_TOKEN"],
        "JWT",
        hdr=("Authorization", "Bearer "),
        api=api,
        p_special=0.5,
    ), s


def _pem(label, b64body, width=64):
    lines = [b64body[i : i + width] for i in range(0, len(b64body), width)]
    return f"{D5}BEGIN {label}{D5}\n" + "\n".join(lines) + f"\n{D5}END {label}{D5}"


def mk_private_key(g):
    t = g.c(["rsa", "rsa", "ec", "ec", "openssh", "openssh", "pkcs8_ec", "pkcs8_ed", "pkcs8_rsa", "enc", "pgp"])
    if t == "rsa":
        if g.p(0.8):
            der = bytes.fromhex("3082025d02010002818100") + g.raw(598)
        else:
            der = bytes.fromhex("308204a40201000282010100") + g.raw(1180)
        return _pem("RSA " + PK, base64.b64encode(der).decode())
    if t == "ec":
        der = (
            bytes.fromhex("30770201010420")
            + g.raw(32)
            + bytes.fromhex("a00a06082a8648ce3d030107a144034200")
            + b"\x04"
            + g.raw(64)
        )
        return _pem("EC " + PK, base64.b64encode(der).decode())
    if t == "pkcs8_ec":
        der = (
            bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
            + g.raw(32)
            + bytes.fromhex("a144034200")
            + b"\x04"
            + g.raw(64)
        )
        return _pem(PK, base64.b64encode(der).decode())
    if t == "pkcs8_ed":
        der = bytes.fromhex("302e020100300506032b657004220420") + g.raw(32)
        return _pem(PK, base64.b64encode(der).decode())
    if t == "pkcs8_rsa":
        der = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100") + g.raw(
            1180
        )
        return _pem(PK, base64.b64encode(der).decode())
    if t == "enc":
        der = bytes.fromhex("308202f4304e06092a864886f70d01050d3041302906092a864886f70d01050c301c0408") + g.raw(720)
        return _pem("ENCRYPTED " + PK, base64.b64encode(der).decode())
    if t == "pgp":
        body = base64.b64encode(bytes.fromhex("9503c60465") + g.raw(420)).decode()
        lines = [body[i : i + 64] for i in range(0, len(body), 64)]
        crc = "=" + g.s(B64, 4)
        lab = "PGP " + "PRIV" + "ATE KEY BLOCK"
        return f"{D5}BEGIN {lab}{D5}\n\n" + "\n".join(lines) + f"\n{crc}\n{D5}END {lab}{D5}"
    # openssh ed25519
    pub = g.raw(32)
    seed = g.raw(32)
    pubblob = _sshstr(b"ssh-ed25519") + _sshstr(pub)
    chk = g.raw(4)
    comment = f"{g.person()}@{g.c(HOSTNAMES)}".encode()
    priv = chk + chk + _sshstr(b"ssh-ed25519") + _sshstr(pub) + _sshstr(seed + pub) + _sshstr(comment)
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = (
        b"openssh-key-v1\x00"
        + _sshstr(b"none")
        + _sshstr(b"none")
        + _sshstr(b"")
        + (1).to_bytes(4, "big")
        + _sshstr(pubblob)
        + _sshstr(priv)
    )
    return _pem("OPENSSH " + PK, base64.b64encode(blob).decode(), width=70)


def k_private_key(g):
    pem = mk_private_key(g)
    repo = g.repo()
    svc = g.svc()
    r = g.i(0, 10)
    if r == 0:
        return f"Deploy key for {repo} (read-only):\n{pem}\n", pem
    if r == 1:
        return f"```\n{pem}\n```\nthat's the key the {g.env()} bastion expects", pem
    if r == 2:
        kn = g.c(["id_ed25519", "id_rsa", "deploy_key", "gh_actions"])
        return f"cat > ~/.ssh/{kn} <<'EOF'\n{pem}\nEOF\nchmod 600 ~/.ssh/{kn}", pem
    if r == 3:
        ind = "    "
        blk = ("\n" + ind).join(pem.split("\n"))
        return f'tls:\n  cert_file: /etc/ssl/{svc}.crt\n  key: |\n{ind}{blk}\n  min_version: "1.2"', blk
    if r == 4:
        esc = pem.replace("\n", "\\n")
        proj = f"{g.org()}-{g.c(['prod', 'data', 'ml'])}"
        body = (
            '{\n  "type": "service_account",\n  "project_id": "'
            + proj
            + '",\n  "private_key_id": "'
            + g.hex(40)
            + '",\n  "private_key": "'
            + esc
            + '\\n",\n  "client_email": "'
            + svc
            + "@"
            + proj
            + '.iam.gserviceaccount.com",\n  "client_id": "'
            + g.s(DG, 21)
            + '"\n}'
        )
        return body, esc
    if r == 5:
        return (
            f'resource "tls_cert_request" "{svc.replace("-", "_")}" {{\n  private_key_pem = <<EOT\n{pem}\nEOT\n}}',
            pem,
        )
    if r == 6:
        esc = pem.replace("\n", "\\n")
        return f'SSH_PRIVATE_KEY="{esc}"', esc
    if r == 7:
        ind = "      "
        blk = ("\n" + ind).join(pem.split("\n"))
        return f"    env:\n      DEPLOY_KEY: |\n{ind}{blk}\n    steps:\n      - run: ./deploy.sh", blk
    if r == 8:
        return f"{pem}\n(the one {g.person()} generated for the {svc} signer; public half is on the box)", pem
    if r == 9:
        return f"Signing key for JWTs in {g.env()}:\n\n{pem}", pem
    return f"kubectl -n {g.env()} create secret tls {svc}-tls --cert=tls.crt --key=/dev/stdin <<'EOF'\n{pem}\nEOF", pem


# -- connection URLs ---------------------------------------------------------


def k_url_password(g):
    pw = mk_password(g)
    enc = "".join(urllib.parse.quote(ch, safe="") if ch in "%@:/?#[] &" else ch for ch in pw)
    user = g.c(
        ["app", "admin", "postgres", "root", "svc_" + g.svc().replace("-", "_"), g.person(), "deploy", "readwrite"]
    )
    svc = g.svc()
    env = g.env()
    dom = g.domain()
    scheme = g.c(
        [
            "postgres",
            "postgresql",
            "postgresql+psycopg2",
            "mysql",
            "mysql+pymysql",
            "redis",
            "rediss",
            "amqp",
            "amqps",
            "mongodb+srv",
            "mongodb",
            "https",
            "http",
            "ftp",
            "smtp",
            "jdbc",
        ]
    )
    if scheme.startswith("postgres"):
        url = f"{scheme}://{user}:{enc}@{svc}-db.{env}.{dom}:5432/{svc.replace('-', '_')}"
        var = "DATABASE_URL"
    elif scheme.startswith("mysql"):
        url = f"{scheme}://{user}:{enc}@mysql-{g.i(1, 3)}.{dom}:3306/{svc.replace('-', '_')}?charset=utf8mb4"
        var = "MYSQL_URL"
    elif scheme.startswith("redis"):
        u = "" if g.p(0.5) else "default"
        url = f"{scheme}://{u}:{enc}@{svc}-cache.{dom}:{g.c(['6379', '6380'])}/{g.i(0, 3)}"
        var = "REDIS_URL"
    elif scheme.startswith("amqp"):
        url = f"{scheme}://{user}:{enc}@rabbitmq.{env}.{dom}:{'5671' if scheme == 'amqps' else '5672'}/{g.c(['%2F', 'jobs', svc])}"
        var = "CELERY_BROKER_URL"
    elif scheme == "mongodb+srv":
        url = f"mongodb+srv://{user}:{enc}@cluster0.{g.s(LAN, 5)}.mongodb.net/{svc}?retryWrites=true&w=majority"
        var = "MONGODB_URI"
    elif scheme == "mongodb":
        url = f"mongodb://{user}:{enc}@mongo-0.{dom}:27017,mongo-1.{dom}:27017/{svc}?replicaSet=rs0&authSource=admin"
        var = "MONGO_URL"
    elif scheme in ("https", "http"):
        kind = g.i(0, 4)
        if kind == 0:
            url = f"https://{user}:{enc}@pypi.{dom}/simple"
            var = "PIP_INDEX_URL"
        elif kind == 1:
            url = f"http://{user}:{enc}@proxy.{dom}:3128"
            var = "HTTPS_PROXY"
        elif kind == 2:
            url = f"https://{user}:{enc}@git.{dom}/{g.repo()}.git"
            var = "GIT_REMOTE"
        elif kind == 3:
            url = f"https://{user}:{enc}@nexus.{dom}/repository/npm-private/"
            var = "REGISTRY_URL"
        else:
            url = f"https://{user}:{enc}@es.{env}.{dom}:9200"
            var = "ELASTICSEARCH_URL"
    elif scheme == "ftp":
        url = f"ftp://{user}:{enc}@files.{dom}/uploads/"
        var = "FTP_URL"
    elif scheme == "smtp":
        url = f"smtp://{user}%40{dom}:{enc}@smtp.{dom}:587"
        var = "EMAIL_URL"
    else:
        url = f"jdbc:postgresql://{svc}-db.{dom}:5432/{svc.replace('-', '_')}?user={user}&password={enc}&ssl=true"
        var = "SPRING_DATASOURCE_URL"
    s = enc
    tmpl = [
        lambda: f"{var}={url}",
        lambda: f'{var}="{url}"',
        lambda: f'connect with: psql "{url}"' if scheme.startswith("postgres") else f"connect with {url}",
        lambda: f'SQLALCHEMY_DATABASE_URI = "{url}"',
        lambda: f"services:\n  {svc}:\n    environment:\n      {var}: {url}",
        lambda: f"{g.ts()} INFO {svc} connecting to {url} (attempt {g.i(1, 5)}/5)",
        lambda: f"The {env} {svc} uses {url} - creds are shared with the reporting job.",
        lambda: f"redis-cli -u {url} ping" if scheme.startswith("redis") else f"export {var}='{url}'",
        lambda: f'mongosh "{url}"' if scheme.startswith("mongo") else f'{var.lower()}: "{url}"',
        lambda: (
            f"pip install --extra-index-url {url} {g.org()}-internal" if var == "PIP_INDEX_URL" else f"- {var}: `{url}`"
        ),
        lambda: (
            f"celery -A {svc.replace('-', '_')} worker -b {url} -l info"
            if var == "CELERY_BROKER_URL"
            else f"{url}\n(that's the {env} one)"
        ),
        lambda: (
            f"spring:\n  datasource:\n    url: {url}"
            if var == "SPRING_DATASOURCE_URL"
            else json.dumps({var.lower(): url})
        ),
    ]
    return g.c(tmpl)(), s


# -- config passwords --------------------------------------------------------


def k_config_password(g):
    pw = mk_password(g)
    while '"' in pw or "'" in pw or "\\" in pw or " " in pw:
        pw = mk_password(g)
    s = pw
    svc = g.svc()
    env = g.env()
    dom = g.domain()
    user = g.c(["app", "admin", "postgres", "root", "deploy", g.person(), "svc_" + svc.replace("-", "_")])
    host = f"{svc}-db.{env}.{dom}"
    yq = f'"{s}"' if any(ch in s for ch in "#:!*%@&?^{}[],|>=~") or g.p(0.3) else s
    tmpl = [
        lambda: _env_block(
            g,
            f"{g.c(['DB_PASSWORD', 'POSTGRES_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'REDIS_PASSWORD', 'DATABASE_PASSWORD', 'ADMIN_PASSWORD', 'SMTP_PASSWORD'])}={s}",
        ),
        lambda: (
            f"database:\n  host: {host}\n  port: 5432\n  user: {user}\n  password: {yq}\n  name: {svc.replace('-', '_')}"
        ),
        lambda: json.dumps({"db": {"host": host, "user": user, "password": s, "pool": 10}}, indent=2),
        lambda: f'[database]\nhost = "{host}"\nuser = "{user}"\npassword = "{s}"',
        lambda: (
            f"spring.datasource.username={user}\nspring.datasource.password={s}\nspring.jpa.hibernate.ddl-auto=validate"
        ),
        lambda: f"define('DB_USER', '{user}');\ndefine('DB_PASSWORD', '{s}');\ndefine('DB_HOST', '{host}');",
        lambda: f"machine api.{dom}\n  login {user}\n  password {s}",
        lambda: f"{host}:5432:*:{user}:{s}",
        lambda: f"mysql -h {host} -u {user} -p{s} -e 'SHOW PROCESSLIST'",
        lambda: f"PGPASSWORD={s} psql -h {host} -U {user} -d {svc.replace('-', '_')}",
        lambda: f"sshpass -p '{s}' ssh {user}@{g.ip()}",
        lambda: f"The {env} admin login for {svc} is {user} / {s}",
        lambda: (
            f"wifi at the {g.c(['Berlin', 'Austin', 'Lisbon', 'Toronto'])} office: SSID {g.org()}-guest, password {s}"
        ),
        lambda: (
            f"      - name: POSTGRES_PASSWORD\n        value: {yq}\n      - name: POSTGRES_USER\n        value: {user}"
        ),
        lambda: f"{g.person()} reset the grafana admin password to {s} - change it on first login",
        lambda: f"[client]\nuser={user}\npassword={s}\nhost={host}",
        lambda: f'<add key="DbPassword" value="{s}" />',
        lambda: f"docker run -d --name pg -e POSTGRES_PASSWORD={s} -p 5432:5432 postgres:16",
        lambda: f"ansible_user: {user}\nansible_become_password: {yq}",
        lambda: f"Login for the {svc} staging admin UI -> user: {user}, pass: {s}",
        lambda: f"keystore password is {s} (same for the truststore)",
        lambda: (
            f"wget --user={user} --password={s} https://artifacts.{dom}/releases/{svc}-{g.i(1, 5)}.{g.i(0, 20)}.tar.gz"
        ),
        lambda: f"smtp:\n  host: smtp.{dom}\n  username: {user}@{dom}\n  password: {yq}",
        lambda: f'db_password = "{s}"',
    ]
    return g.c(tmpl)(), s


# -- basic auth --------------------------------------------------------------


def k_basic_auth(g):
    user = g.c(["admin", "deploy", "ci", g.person(), "api", "svc-" + g.svc(), "jenkins"])
    pw = mk_password(g)
    while any(ch in pw for ch in "'\" \\:"):
        pw = mk_password(g)
    dom = g.domain()
    r = g.i(0, 9)
    if r <= 3:
        s = base64.b64encode(f"{user}:{pw}".encode()).decode()
        t = g.c(
            [
                f"curl -H 'Authorization: Basic {s}' https://jenkins.{dom}/job/{g.svc()}/build",
                f"GET /api/v1/status HTTP/1.1\nHost: registry.{dom}\nAuthorization: Basic {s}\nAccept: */*",
                f"{g.ts()} DEBUG outgoing request headers: Authorization=Basic {s}, Content-Length=0",
                f'proxy_set_header Authorization "Basic {s}";',
                f"headers: {{ Authorization: 'Basic {s}' }}",
            ]
        )
        return t, s
    if r == 4:
        s = base64.b64encode(f"{user}:{pw}".encode()).decode()
        reg = g.c(["ghcr.io", "registry.gitlab.com", f"registry.{dom}", "https://index.docker.io/v1/"])
        return json.dumps({"auths": {reg: {"auth": s}}}, indent=g.c([None, 2, 4])), s
    s = pw
    t = g.c(
        [
            f"curl -u {user}:{s} https://nexus.{dom}/service/rest/v1/components?repository=releases",
            f'curl --user "{user}:{s}" -X POST https://jenkins.{dom}/job/{g.svc()}/buildWithParameters',
            f'requests.get(url, auth=("{user}", "{s}"))',
            f"http -a {user}:{s} GET https://api.{dom}/health",
            f"axios.get(url, {{ auth: {{ username: '{user}', password: '{s}' }} }})",
            f"htpasswd -bc /etc/nginx/.htpasswd {user} {s}",
        ]
    )
    return t, s


# -- k8s secret data ---------------------------------------------------------


def k_k8s_secret(g):
    if g.p(0.6):
        val = mk_password(g)
    else:
        val = mk_opaque(g)
    s = base64.b64encode(val.encode()).decode()
    svc = g.svc()
    ns = g.c(["default", "prod", "staging", "payments"])
    key = g.c(["password", "db-password", "api-key", "token", "client-secret", "POSTGRES_PASSWORD", "API_TOKEN"])
    tmpl = [
        lambda: (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc}-creds\n  namespace: {ns}\ntype: Opaque\n"
            f"data:\n  username: {base64.b64encode(b'app').decode()}\n  {key}: {s}"
        ),
        lambda: f"$ kubectl get secret {svc}-creds -n {ns} -o jsonpath='{{.data.{key}}}'\n{s}",
        lambda: f"data:\n  {key}: {s}\n",
        lambda: json.dumps({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": svc}, "data": {key: s}}),
        lambda: f"the {key} in the {svc} secret ({ns}) is {s} (base64, decode before use)",
    ]
    return g.c(tmpl)(), s


# -- generic API keys / secrets / bearer ------------------------------------

GENERIC_KEY_NAMES = [
    "API_KEY",
    "APIKEY",
    "X_API_KEY",
    "ACCESS_TOKEN",
    "AUTH_TOKEN",
    "API_TOKEN",
    "SERVICE_API_KEY",
    "WEATHER_API_KEY",
    "MAPQUEST_KEY",
    "PARTNER_API_KEY",
    "ALGOLIA_ADMIN_KEY",
    "SEGMENT_WRITE_KEY",
    "PAGERDUTY_TOKEN",
    "SENTRY_AUTH_TOKEN",
    "CIRCLECI_TOKEN",
    "BUILDKITE_API_TOKEN",
    "OPSGENIE_API_KEY",
    "CONTENTFUL_MANAGEMENT_TOKEN",
    "AIRTABLE_API_KEY",
    "INTERNAL_GATEWAY_KEY",
    "CODECOV_TOKEN",
    "SONAR_TOKEN",
    "SNYK_TOKEN",
    "ELASTIC_API_KEY",
    "COHERE_API_KEY",
    "MISTRAL_API_KEY",
]

GENERIC_SECRET_NAMES = [
    "SECRET_KEY",
    "JWT_SECRET",
    "SESSION_SECRET",
    "NEXTAUTH_SECRET",
    "CLIENT_SECRET",
    "APP_SECRET",
    "SIGNING_SECRET",
    "ENCRYPTION_KEY",
    "COOKIE_SECRET",
    "WEBHOOK_SECRET",
    "HMAC_SECRET",
    "SECRET_KEY_BASE",
    "OAUTH_CLIENT_SECRET",
    "SLACK_SIGNING_SECRET",
    "GITHUB_WEBHOOK_SECRET",
    "AUTH0_CLIENT_SECRET",
    "OKTA_CLIENT_SECRET",
    "MASTER_KEY",
    "APP_KEY",
    "CSRF_SECRET",
]


def k_generic_api_key(g):
    s = mk_opaque(g)
    name = g.c(GENERIC_KEY_NAMES)
    hdr = g.c(
        [
            ("X-Api-Key", ""),
            ("x-api-key", ""),
            ("Authorization", "Bearer "),
            ("X-Auth-Token", ""),
            ("Api-Key", ""),
            ("Authorization", "Token "),
            ("Authorization", "ApiKey "),
        ]
    )
    dom = g.domain()
    sp = [
        lambda: f"https://api.{dom}/v2/forecast?lat=52.52&lon=13.40&appid={s}",
        lambda: f'client = {g.c(["Client", "ApiClient", "Sdk"])}(api_key="{s}", base_url="https://api.{dom}")',
        lambda: f'{{"apiKey": "{s}", "project": "{g.svc()}"}}',
        lambda: f"auth:\n  type: api_key\n  value: {s}",
        lambda: f"api_key: {s}",
        lambda: f'token = "{s}"',
    ]
    return pick(
        g,
        sp,
        s,
        [name, name, "API_KEY", "ACCESS_TOKEN"],
        g.c(["API key", "api token", "access token", "auth token"]),
        hdr=hdr,
        api=f"api.{dom}",
        p_special=0.35,
    ), s


def k_generic_secret(g):
    r = g.i(0, 7)
    name = g.c(GENERIC_SECRET_NAMES)
    if r == 0:
        s = g.hex(128)
        name = "SECRET_KEY_BASE"
    elif r == 1:
        s = g.s(LO + DG + "!@#$%^&*(-_=+)", 50)
        while "$" in s:  # keep shell-safe for the env style templates
            s = g.s(LO + DG + "!@#%^&*(-_=+)", 50)
        name = "SECRET_KEY"
    elif r == 2:
        s = g.b64(32)
    elif r == 3:
        s = g.hex(64)
    elif r == 4:
        s = g.b64u(32)
    elif r == 5:
        s = g.s(AN, g.i(32, 48))
    elif r == 6:
        s = g.hex(32)
    else:
        s = g.s(AN + "~._-", g.i(34, 40))
    sp = [
        lambda: f"SECRET_KEY = '{s}'\nDEBUG = False\nALLOWED_HOSTS = ['.{g.domain()}']",
        lambda: f"app.config['SECRET_KEY'] = '{s}'",
        lambda: f"APP_KEY=base64:{s}" if r == 2 else f"APP_SECRET={s}",
        lambda: f'jwt.encode(payload, "{s}", algorithm="HS256")',
        lambda: (
            f"oauth:\n  client_id: {g.svc()}-web\n  client_secret: {s}\n  redirect_uri: https://{g.domain()}/callback"
        ),
        lambda: f"the HMAC secret for verifying {g.c(['GitHub', 'Shopify', 'Linear', 'internal'])} webhooks is {s}",
        lambda: f"production:\n  secret_key_base: {s}",
        lambda: f'[auth]\nsigning_secret = "{s}"\nissuer = "https://auth.{g.domain()}"',
        lambda: f"openssl rand -hex 32 gave me {s} - using it as the {g.env()} session secret",
    ]
    return pick(
        g,
        sp,
        s,
        [name, name, "SECRET", "CLIENT_SECRET"],
        g.c(["secret", "signing secret", "client secret", "session secret"]),
        p_special=0.4,
    ), s


def k_bearer(g):
    s = mk_opaque(g)
    dom = g.domain()
    api = f"api.{dom}"
    path = g.c(API_PATHS)
    t = g.c(
        [
            lambda: f'curl -H "Authorization: Bearer {s}" https://{api}/v1/{path}',
            lambda: f"curl -sSf https://{api}/v1/{path} -H 'authorization: bearer {s}' | jq .",
            lambda: f"POST /v2/{path} HTTP/2\nhost: {api}\nauthorization: Bearer {s}\ncontent-type: application/json",
            lambda: f'{g.ts()} ERROR upstream 401 {api} req_headers="Authorization: Bearer {s}"',
            lambda: f'wget --header="Authorization: Bearer {s}" https://{api}/exports/{g.date()}.csv',
            lambda: f"headers = {{'Authorization': f'Bearer {s}'}}",
            lambda: f"axios.defaults.headers.common['Authorization'] = 'Bearer {s}';",
            lambda: f"Authorization: Bearer {s}",
            lambda: f"The {g.svc()} service account token (never expires!): Bearer {s}",
            lambda: (
                f"grpcurl -H 'authorization: Bearer {s}' {api}:443 {g.org()}.v1.{g.c(['Orders', 'Users', 'Jobs'])}/List"
            ),
            lambda: f"--header 'Authorization: Bearer {s}' \\\n--header 'Content-Type: application/json'",
            lambda: (
                f"at com.{g.org()}.http.AuthInterceptor.intercept(AuthInterceptor.java:{g.i(20, 99)})\n"
                f"Caused by: HttpException: 403 for request [Authorization=Bearer {s}]"
            ),
            lambda: f"kubectl --token={s} --server=https://k8s.{dom}:6443 get pods -A",
            lambda: f"argocd login argocd.{dom} --auth-token {s}",
        ]
    )()
    return t, s


# -- simple provider kinds (mostly generic wrapping) -------------------------


def _simple(mk, names, label, hdr=None, api=None, special=None, p_special=0.4):
    def fn(g):
        s = mk(g)
        sp = [(lambda f=f: f(g, s)) for f in (special or [])]
        return pick(g, sp, s, names, label, hdr=hdr, api=api, p_special=p_special), s

    return fn


k_datadog = _simple(
    mk_datadog,
    ["DD_API_KEY", "DATADOG_API_KEY", "DD_APP_KEY", "DATADOG_APP_KEY"],
    "Datadog API key",
    hdr=("DD-API-KEY", ""),
    api="api.datadoghq.com/api",
    special=[
        lambda g, s: (
            f"api_key: {s}\nsite: {g.c(['datadoghq.com', 'datadoghq.eu', 'us5.datadoghq.com'])}\nlogs_enabled: true"
        ),
        lambda g, s: (
            f'docker run -d --name dd-agent -e DD_API_KEY={s} -e DD_SITE="datadoghq.com" '
            f"-v /var/run/docker.sock:/var/run/docker.sock:ro gcr.io/datadoghq/agent:7"
        ),
        lambda g, s: f"helm install datadog-agent -f values.yaml --set datadog.apiKey={s} datadog/datadog",
        lambda g, s: f'curl -X GET "https://api.datadoghq.com/api/v1/validate" -H "DD-API-KEY: {s}"',
        lambda g, s: f"datadog:\n  apiKey: {s}\n  clusterName: {g.env()}-eks",
    ],
)

k_shopify = _simple(
    mk_shopify,
    ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN", "SHOPIFY_API_SECRET"],
    "Shopify access token",
    hdr=("X-Shopify-Access-Token", ""),
    api="acme-store.myshopify.com/admin/api/2024-01",
    special=[
        lambda g, s: (
            f'curl -X GET "https://{g.org()}-shop.myshopify.com/admin/api/2024-01/products.json" -H "X-Shopify-Access-Token: {s}"'
        ),
        lambda g, s: f"shopify = Shopify({{ shop: '{g.org()}.myshopify.com', accessToken: '{s}' }})",
    ],
)

k_digitalocean = _simple(
    mk_do,
    ["DIGITALOCEAN_TOKEN", "DO_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN"],
    "DigitalOcean token",
    hdr=("Authorization", "Bearer "),
    api="api.digitalocean.com/v2",
    special=[
        lambda g, s: f"doctl auth init --access-token {s}",
        lambda g, s: f'provider "digitalocean" {{\n  token = "{s}"\n}}',
        lambda g, s: f'curl -X GET -H "Authorization: Bearer {s}" "https://api.digitalocean.com/v2/droplets?page=1"',
    ],
)

k_vault = _simple(
    mk_vault,
    ["VAULT_TOKEN", "VAULT_ROOT_TOKEN", "VAULT_DEV_ROOT_TOKEN_ID"],
    "Vault token",
    hdr=("X-Vault-Token", ""),
    api="vault.acme.io/v1",
    special=[
        lambda g, s: f"vault login {s}",
        lambda g, s: f"Unseal done. Initial Root Token: {s}",
        lambda g, s: f'curl -H "X-Vault-Token: {s}" https://vault.{g.domain()}:8200/v1/secret/data/{g.svc()}',
    ],
)

k_databricks = _simple(
    mk_databricks,
    ["DATABRICKS_TOKEN", "DATABRICKS_PAT"],
    "Databricks token",
    hdr=("Authorization", "Bearer "),
    api="adb-1234567890123456.7.azuredatabricks.net/api/2.0",
    special=[
        lambda g, s: f"[DEFAULT]\nhost = https://adb-{g.s(DG, 16)}.{g.i(1, 19)}.azuredatabricks.net\ntoken = {s}",
        lambda g, s: f"databricks configure --token <<< $'https://{g.org()}.cloud.databricks.com\\n{s}'",
    ],
)

k_grafana = _simple(
    mk_grafana,
    ["GRAFANA_TOKEN", "GRAFANA_API_KEY", "GRAFANA_SA_TOKEN", "GRAFANA_CLOUD_TOKEN"],
    "Grafana service account token",
    hdr=("Authorization", "Bearer "),
    api="grafana.acme.io/api",
)

k_linear = _simple(
    mk_linear,
    ["LINEAR_API_KEY", "LINEAR_TOKEN"],
    "Linear API key",
    hdr=("Authorization", ""),
    api="api.linear.app/graphql",
)

k_notion = _simple(
    mk_notion,
    ["NOTION_TOKEN", "NOTION_API_KEY", "NOTION_SECRET"],
    "Notion integration token",
    hdr=("Authorization", "Bearer "),
    api="api.notion.com/v1",
    special=[
        lambda g, s: f'notion = Client(auth="{s}")',
        lambda g, s: f"const notion = new Client({{ auth: '{s}' }})",
    ],
)

k_postman = _simple(
    mk_postman,
    ["POSTMAN_API_KEY", "PM_API_KEY"],
    "Postman API key",
    hdr=("X-Api-Key", ""),
    api="api.getpostman.com",
    special=[
        lambda g, s: f"newman run https://api.getpostman.com/collections/{g.s(DG, 8)}-{g.uuid()}?apikey={s}",
    ],
)


def k_newrelic(g):
    s = mk_newrelic(g)
    if s.endswith("NR" + "AL"):
        sp = [
            lambda: f"common: &default_settings\n  license_key: '{s}'\n  app_name: {g.svc()}",
            lambda: f"[newrelic]\nlicense_key = {s}\napp_name = {g.svc()} ({g.env()})",
            lambda: f"docker run -d -e NRIA_LICENSE_KEY={s} newrelic/infrastructure:latest",
        ]
        return pick(g, sp, s, ["NEW_RELIC_LICENSE_KEY", "NRIA_LICENSE_KEY"], "New Relic license key", p_special=0.5), s
    return pick(
        g,
        [],
        s,
        ["NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY", "NEWRELIC_API_KEY"],
        "New Relic user API key",
        hdr=("API-Key", ""),
        api="api.newrelic.com/graphql",
    ), s


def k_age(g):
    s = mk_age(g)
    pub = "age1" + g.s(BECH32, 58)
    tmpl = [
        lambda: f"# created: {g.date()}T{g.hm()}:{g.i(10, 59)}+02:00\n# public key: {pub}\n{s}",
        lambda: f"export SOPS_AGE_KEY={s}",
        lambda: f"age key for decrypting secrets.enc.yaml: {s} (recipient {pub})",
        lambda: (
            f"      - name: decrypt\n        env:\n          SOPS_AGE_KEY: {s}\n        run: sops -d secrets.enc.yaml > secrets.yaml"
        ),
        lambda: f"echo '{s}' > ~/.config/sops/age/keys.txt",
    ]
    return g.c(tmpl)(), s


k_mapbox = _simple(
    mk_mapbox,
    ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN", "MAPBOX_ACCESS_TOKEN"],
    "Mapbox secret token",
    special=[
        lambda g, s: (
            f"MGLMapboxAccessToken / downloads token in ~/.netrc:\nmachine api.mapbox.com\n  login mapbox\n  password {s}"
        )
    ],
)

k_heroku = _simple(
    mk_heroku,
    ["HEROKU_API_KEY", "HEROKU_API_TOKEN"],
    "Heroku API key",
    hdr=("Authorization", "Bearer "),
    api="api.heroku.com",
    special=[
        lambda g, s: f"machine api.heroku.com\n  login {g.person()}@{g.domain()}\n  password {s}",
        lambda g, s: f"$ heroku authorizations:create -d ci\nToken:       {s}\nScope:       global",
    ],
    p_special=0.35,
)

k_square = _simple(
    mk_square,
    ["SQUARE_ACCESS_TOKEN", "SQUARE_APPLICATION_SECRET", "SQUARE_TOKEN"],
    "Square token",
    hdr=("Authorization", "Bearer "),
    api="connect.squareup.com/v2",
)

k_groq = _simple(
    mk_groq,
    ["GROQ_API_KEY"],
    "Groq API key",
    hdr=("Authorization", "Bearer "),
    api="api.groq.com/openai/v1",
    special=[lambda g, s: f'client = Groq(api_key="{s}")'],
)

k_replicate = _simple(
    mk_replicate,
    ["REPLICATE_API_TOKEN", "REPLICATE_TOKEN"],
    "Replicate API token",
    hdr=("Authorization", "Token "),
    api="api.replicate.com/v1",
)

k_atlassian = _simple(
    mk_atlassian,
    ["JIRA_API_TOKEN", "ATLASSIAN_API_TOKEN", "CONFLUENCE_TOKEN"],
    "Atlassian API token",
    special=[
        lambda g, s: (
            f"curl -u {g.person()}@{g.domain()}:{s} -H 'Accept: application/json' https://{g.org()}.atlassian.net/rest/api/3/myself"
        ),
        lambda g, s: (
            f"jira:\n  server: https://{g.org()}.atlassian.net\n  email: {g.person()}@{g.domain()}\n  token: {s}"
        ),
    ],
)


def _cf_special(g, s):
    if len(s) == 37:
        return f"CF_API_EMAIL={g.person()}@{g.domain()}\nCF_API_KEY={s}"
    return f"wrangler: export CLOUDFLARE_API_TOKEN={s} && npx wrangler deploy"


k_cloudflare = _simple(
    mk_cloudflare,
    ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN", "CF_API_KEY"],
    "Cloudflare API token",
    hdr=("Authorization", "Bearer "),
    api="api.cloudflare.com/client/v4",
    special=[
        _cf_special,
        lambda g, s: f'provider "cloudflare" {{\n  api_token = "{s}"\n}}',
    ],
)

k_tfc = _simple(
    mk_tfc,
    ["TF_API_TOKEN", "TFE_TOKEN", "TF_TOKEN_app_terraform_io"],
    "Terraform Cloud token",
    hdr=("Authorization", "Bearer "),
    api="app.terraform.io/api/v2",
    special=[
        lambda g, s: json.dumps({"credentials": {"app.terraform.io": {"token": s}}}, indent=2),
        lambda g, s: f'credentials "app.terraform.io" {{\n  token = "{s}"\n}}',
    ],
)

k_doppler = _simple(
    mk_doppler,
    ["DOPPLER_TOKEN", "DOPPLER_SERVICE_TOKEN"],
    "Doppler service token",
    hdr=("Authorization", "Bearer "),
    api="api.doppler.com/v3",
    special=[
        lambda g, s: f"doppler run --token {s} -- npm start",
    ],
)

k_pulumi = _simple(
    mk_pulumi,
    ["PULUMI_ACCESS_TOKEN"],
    "Pulumi access token",
    special=[
        lambda g, s: f"pulumi login --non-interactive  # with PULUMI_ACCESS_TOKEN={s}",
    ],
)


KINDS = [
    ("aws_access_key_id", k_aws_akid, 55),
    ("aws_secret_access_key", k_aws_secret, 60),
    ("github_token", k_github, 65),
    ("github_fine_grained_pat", k_github_fg, 50),
    ("gitlab_token", k_gitlab, 55),
    ("slack_token", k_slack, 60),
    ("slack_webhook_url", k_slack_webhook, 50),
    ("stripe_key", k_stripe, 65),
    ("stripe_webhook_secret", k_stripe_whsec, 50),
    ("openai_api_key", k_openai, 65),
    ("anthropic_api_key", k_anthropic, 55),
    ("google_api_key", k_google_key, 60),
    ("google_oauth_client_secret", k_gocspx, 50),
    ("azure_storage_key", k_azure, 55),
    ("sendgrid_api_key", k_sendgrid, 50),
    ("twilio_auth_token", k_twilio, 50),
    ("mailgun_api_key", k_mailgun, 50),
    ("npm_token", k_npm, 55),
    ("pypi_token", k_pypi, 50),
    ("huggingface_token", k_hf, 55),
    ("discord_bot_token", k_discord, 50),
    ("telegram_bot_token", k_telegram, 50),
    ("jwt", k_jwt, 65),
    ("private_key", k_private_key, 70),
    ("url_password", k_url_password, 110),
    ("config_password", k_config_password, 110),
    ("basic_auth", k_basic_auth, 60),
    ("k8s_secret_data", k_k8s_secret, 50),
    ("generic_api_key", k_generic_api_key, 100),
    ("generic_secret", k_generic_secret, 90),
    ("bearer_token", k_bearer, 70),
    ("datadog_api_key", k_datadog, 55),
    ("shopify_token", k_shopify, 50),
    ("digitalocean_token", k_digitalocean, 50),
    ("vault_token", k_vault, 50),
    ("databricks_token", k_databricks, 50),
    ("grafana_token", k_grafana, 50),
    ("linear_api_key", k_linear, 50),
    ("notion_token", k_notion, 50),
    ("postman_api_key", k_postman, 50),
    ("newrelic_key", k_newrelic, 50),
    ("age_secret_key", k_age, 50),
    ("mapbox_secret_token", k_mapbox, 50),
    ("heroku_api_key", k_heroku, 50),
    ("square_token", k_square, 50),
    ("groq_api_key", k_groq, 50),
    ("replicate_api_token", k_replicate, 50),
    ("atlassian_api_token", k_atlassian, 50),
    ("cloudflare_api_token", k_cloudflare, 50),
    ("terraform_cloud_token", k_tfc, 50),
    ("doppler_token", k_doppler, 50),
    ("pulumi_token", k_pulumi, 50),
]


# ---------------------------------------------------------------------------
# lookalikes (no credentials)
# ---------------------------------------------------------------------------


def _ssh_ed25519_pub(g):
    blob = _sshstr(b"ssh-ed25519") + _sshstr(g.raw(32))
    return "ssh-ed25519 " + base64.b64encode(blob).decode()


def _ssh_rsa_pub(g):
    mod = b"\x00" + bytes([g.i(0x80, 0xFF)]) + g.raw(255)
    blob = _sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(mod)
    return "ssh-rsa " + base64.b64encode(blob).decode()


def _ssh_ecdsa_pub(g):
    blob = _sshstr(b"ecdsa-sha2-nistp256") + _sshstr(b"nistp256") + _sshstr(b"\x04" + g.raw(64))
    return "ecdsa-sha2-nistp256 " + base64.b64encode(blob).decode()


def _pem_pub(g):
    if g.p(0.5):
        der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + g.raw(64)
    else:
        der = (
            bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100")
            + bytes([g.i(0x80, 0xFF)])
            + g.raw(255)
            + bytes.fromhex("0203010001")
        )
    return _pem("PUBLIC KEY", base64.b64encode(der).decode())


def _pem_cert(g):
    der = bytes.fromhex("308201c33082016aa003020102021412") + g.raw(g.i(300, 420))
    return _pem("CERTIFICATE", base64.b64encode(der).decode())


def _png_b64(g, n):
    raw = (
        bytes.fromhex("89504e470d0a1a0a0000000d49484452")
        + g.i(16, 512).to_bytes(4, "big")
        + g.i(16, 512).to_bytes(4, "big")
        + bytes.fromhex("0806000000")
        + g.raw(n)
    )
    return base64.b64encode(raw).decode()


def _k8s_pod(g, name=None):
    name = name or g.svc()
    return f"{name}-{g.s(K8S_ALPHA, g.c([9, 10]))}-{g.s(K8S_ALPHA, 5)}"


def _gosum(g):
    return "h1:" + g.b64(32)


def _placeholder_texts(g):
    svc = g.svc()
    xs = g.i(20, 40)
    return [
        "OPENAI_API_KEY=sk-...",
        "Set ANTHROPIC_API_KEY=sk-ant-... in your shell before running the evals.",
        '"api_key": "<YOUR_API_KEY>"',
        f"STRIPE_SECRET_KEY=sk_test_{'x' * 24}",
        "token: ${TOKEN}",
        "password: ${DB_PASSWORD}",
        "DB_PASSWORD=changeme",
        "password=REDACTED",
        "Authorization: Bearer [REDACTED]",
        "Authorization: Bearer <token>",
        "api_key: '********'",
        "export GITHUB_TOKEN=$(gh auth token)",
        'api_key = os.environ["API_KEY"]',
        'db_password = os.getenv("DB_PASSWORD")',
        "const key = process.env.STRIPE_SECRET_KEY;",
        'secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>',
        "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
        "aws_secret_access_key = {{ aws_secret }}",
        f"GITHUB_TOKEN={'x' * 8}",
        "API_KEY=your-api-key-here",
        "SECRET_KEY=replace-me",
        'client_secret: "<client-secret>"',
        f"password: {'x' * g.i(4, 12)}",
        'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user',
        f'curl -u "$JIRA_USER:$JIRA_TOKEN" https://{g.org()}.atlassian.net/rest/api/3/myself',
        f"export AWS_SECRET_ACCESS_KEY=$(aws configure get aws_secret_access_key --profile {g.c(['ci', 'prod'])})",
        "DATABASE_URL=postgres://app:${POSTGRES_PASSWORD}@db:5432/app",
        "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
        "mongodb+srv://<username>:<password>@cluster0.mongodb.net/?retryWrites=true",
        "redis://:<password>@localhost:6379/0",
        f"        - name: DB_PASSWORD\n          valueFrom:\n            secretKeyRef:\n              name: {svc}-db\n              key: password",
        'password = var.db_password\nusername = "app"',
        "master_password = data.aws_secretsmanager_secret_version.db.secret_string",
        "token = ENV.fetch('SLACK_BOT_TOKEN')",
        "HF_TOKEN=hf_xxx  # get one at https://huggingface.co/settings/tokens",
        f"ghp_{'X' * 36}",
        f"The example in the docs uses AKIA{'IOSFODNN7'}{'EXAMPLE'} - don't bother scanning it.",
        f"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY{'EXAMPLE'}KEY  (AWS docs example)",
        f"Bearer {'*' * xs}",
        f"STRIPE_KEY=sk_live_{'*' * 8}{g.s(AN, 4)}  # masked in the dashboard",
        f"Your key sk-...{g.s(AN, 4)} was used {g.i(2, 40)} minutes ago.",
        f"openai.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: sk-proj-{'*' * 20}{g.s(AN, 4)}.', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}}}",
        'token: "{{ .Values.token }}"',
        "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  (see group_vars/vault.yml)",
        "SECRET=dummy\nTOKEN=test\nPASSWORD=password",
        "api_key='test-key'  # fixture for unit tests, the HTTP layer is mocked",
        'jwt_secret: "dev-only-not-secret"',
        "PAT stored in macOS keychain under 'git:https://github.com' - retrieve with `git credential fill`.",
        f"Vault path: secret/data/{g.env()}/{svc} (keys: api_key, db_password)",
        f"arn:aws:secretsmanager:{g.region()}:{g.s(DG, 12)}:secret:{g.env()}/{svc}/db-{g.s(AN, 6)}",
        f"op://Engineering/{svc}-{g.env()}/credential",
        f"gcloud secrets versions access latest --secret={svc}-api-key",
        "${SLACK_WEBHOOK_URL:?must be set}",
        "https://hooks.slack.com/" + "services/T" + "0" * 8 + "/B" + "0" * 8 + "/" + "X" * 24,
        f"-----BEGIN {'RSA ' + PK}-----\n...snip...\n-----END {'RSA ' + PK}-----",
        'private_key_path = "~/.ssh/id_ed25519"',
        'password: ""',
        "DB_PASSWORD=\nDB_USER=app",
        f"kubectl get secret {svc}-creds -n {g.env()} -o yaml",
        f"token={'0' * 32}",
        f"sk_test_...{g.s(AN, 4)}",
        "API_KEY=<paste here>",
        "Authorization: Basic {base64(user:pass)}",
        'echo -n "$USER:$PASS" | base64',
        "key: AIza...",
    ]


def lookalike_generators():
    G_ = []

    def reg(fn):
        G_.append(fn)
        return fn

    @reg
    def git_full_sha(g):
        sha = g.hex(40)
        return g.c(
            [
                f"Reverted {sha} - it broke the token refresh flow.",
                f"commit {sha}\nAuthor: {g.person().title()} <{g.person()}@{g.domain()}>\nDate:   Tue Mar 5 10:11:12 2024 +0100\n\n    rotate secret handling in auth middleware",
                f"pinned actions/checkout to {sha} (v4.1.1)",
                f"- uses: actions/setup-node@{sha} # v4",
                f"git checkout {sha} -- config/secrets.example.yml",
                f"Bisect result: {sha} is the first bad commit",
                f"deployed {g.svc()} @ {sha} to {g.env()}",
            ]
        )

    @reg
    def git_short_sha(g):
        lines = [
            f"{g.hex(7)} {g.c(['fix', 'feat', 'chore', 'refactor'])}: {g.c(['rotate api key docs', 'token refresh race', 'password reset email', 'secret loader retries', 'bump deps'])}"
            for _ in range(g.i(2, 5))
        ]
        return g.c(
            [
                "$ git log --oneline -n 5\n" + "\n".join(lines),
                f"git cherry-pick {g.hex(7)} {g.hex(7)}",
                f"The auth regression came from {g.hex(g.c([7, 8, 10, 12]))}; reverting.",
                f"HEAD is now at {g.hex(7)} Merge pull request #{g.i(100, 9000)} from {g.repo()}/fix-token-expiry",
            ]
        )

    @reg
    def sha256_file(g):
        h = g.hex(64)
        f = g.c(
            [
                "dist/app.tar.gz",
                "terraform_1.8.5_linux_amd64.zip",
                "backup-2024-05-01.sql.gz",
                "model.safetensors",
                "release.apk",
            ]
        )
        return g.c(
            [
                f"$ sha256sum {f}\n{h}  {f}",
                f"Checksum (SHA-256) for {f}: {h}",
                f"sha256:{h}",
                f"expected sha256 {h}, got {g.hex(64)} - re-download the archive",
                f"oid sha256:{h}\nsize {g.i(1000, 90000000)}",
            ]
        )

    @reg
    def md5_file(g):
        h = g.hex(32)
        return g.c(
            [
                f"MD5 ({g.c(['backup.sql.gz', 'logo.png', 'export.csv'])}) = {h}",
                f"{h}  {g.c(['dump.tar', 'payload.bin', 'report.pdf'])}",
                f"Content-MD5 mismatch: {h}",
                f"gravatar: https://www.gravatar.com/avatar/{h}?s=80&d=identicon",
                f"sentry event {h} grouped under issue {g.c(['AUTH', 'API', 'WEB'])}-{g.i(100, 9999)}",
            ]
        )

    @reg
    def uuids(g):
        u = g.uuid()
        return g.c(
            [
                f"tenant id {u} is the one with the broken billing export",
                f"request_id={u} status=500 path=/v1/login",
                f"Subscription ID: {u}\nResource group: rg-{g.svc()}-{g.env()}",
                f"terraform state lineage: {u}",
                f'uid: {u}\nresourceVersion: "{g.i(100000, 9999999)}"',
                f"Azure AD tenant {u}, app registration client id {g.uuid()} (no secret yet)",
                f"correlation-id: {u}",
            ]
        )

    @reg
    def image_b64(g):
        b = _png_b64(g, g.i(60, 200))
        return g.c(
            [
                f'<img src="data:image/png;base64,{b}" alt="logo">',
                f"background-image: url(data:image/png;base64,{b});",
                f"favicon inline: data:image/png;base64,{b}",
            ]
        )

    @reg
    def b64_data(g):
        obj = g.c(
            [
                {"page": g.i(2, 50), "cursor": g.i(1000, 999999), "sort": "created_at"},
                {"last_id": g.i(1, 10**9), "dir": "desc"},
                {"offset": g.i(0, 10000), "q": g.c(["shoes", "invoice", "status:open"])},
            ]
        )
        cur = base64.b64encode(json.dumps(obj).encode()).decode()
        txt = base64.b64encode(
            g.c(
                ["hello world\n", "Lorem ipsum dolor sit amet", "#!/bin/sh\necho ok\n", "id,name\n1,alice\n2,bob\n"]
            ).encode()
        ).decode()
        return g.c(
            [
                f"next page: ?cursor={cur}",
                f"pagination cursor {cur} decodes to {json.dumps(obj)}",
                f"userData: {txt}",
                f"echo '{txt}' | base64 -d",
                f"binaryData:\n  font.woff2: {g.b64(g.i(48, 120))}",
                f"protobuf payload (base64): {g.b64(g.i(20, 60))}",
            ]
        )

    @reg
    def npm_integrity(g):
        pkg = g.c(["lodash", "react-dom", "@babel/core", "esbuild", "typescript", "zod", "undici"])
        ver = f"{g.i(1, 18)}.{g.i(0, 30)}.{g.i(0, 20)}"
        integ = "sha512-" + g.b64(64)
        return g.c(
            [
                f'"node_modules/{pkg}": {{\n  "version": "{ver}",\n  "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg.split("/")[-1]}-{ver}.tgz",\n  "integrity": "{integ}"\n}}',
                f'{pkg}@^{ver}:\n  version "{ver}"\n  resolved "https://registry.yarnpkg.com/{pkg}/-/{pkg.split("/")[-1]}-{ver}.tgz#{g.hex(40)}"\n  integrity {integ}',
                f"npm ERR! code EINTEGRITY\nnpm ERR! {integ} integrity checksum failed when using sha512",
                f'<script src="https://cdn.jsdelivr.net/npm/{pkg}@{ver}" integrity="sha384-{g.b64(48)}" crossorigin="anonymous"></script>',
            ]
        )

    @reg
    def pip_hash(g):
        pkg = g.c(["requests", "urllib3", "cryptography", "pydantic", "numpy", "boto3"])
        ver = f"{g.i(1, 3)}.{g.i(0, 40)}.{g.i(0, 9)}"
        return g.c(
            [
                f"{pkg}=={ver} \\\n    --hash=sha256:{g.hex(64)} \\\n    --hash=sha256:{g.hex(64)}",
                f'[[package]]\nname = "{pkg}"\nversion = "{ver}"\nfiles = [\n    {{file = "{pkg}-{ver}-py3-none-any.whl", hash = "sha256:{g.hex(64)}"}},\n]',
                f"{pkg}-{ver}.tar.gz#sha256={g.hex(64)}",
            ]
        )

    @reg
    def docker_digest(g):
        d = "sha256:" + g.hex(64)
        img = g.c(["python:3.11-slim", "node:20-alpine", "nginx:1.27", "postgres:16", "golang:1.22-bookworm"])
        return g.c(
            [
                f"FROM {img}@{d}",
                f"{img.split(':')[0]}: Pulling from library/{img.split(':')[0]}\nDigest: {d}\nStatus: Image is up to date for {img}",
                f"image: ghcr.io/{g.repo()}@{d}",
                f"$ docker images --digests\nREPOSITORY  TAG  DIGEST  IMAGE ID\n{g.org()}/{g.svc()}  latest  {d}  {g.hex(12)}",
                f'CONTAINER ID   IMAGE   COMMAND   STATUS\n{g.hex(12)}   {img}   "docker-entrypoint.s…"   Up 3 hours',
                f"container {g.hex(64)} exited with code 137 (OOMKilled)",
            ]
        )

    @reg
    def ulids(g):
        return g.c(
            [
                f"order {g.ulid()} stuck in PENDING since {g.date()}",
                f"event_id: {g.ulid()}\ntype: invoice.paid",
                f"job {g.ulid()} retried 3 times, see worker logs",
            ]
        )

    @reg
    def placeholders(g):
        return g.c(_placeholder_texts(g))

    @reg
    def placeholders2(g):
        return g.c(_placeholder_texts(g))

    @reg
    def placeholders3(g):
        return g.c(_placeholder_texts(g))

    @reg
    def ssh_pub(g):
        who = f"{g.person()}@{g.c(HOSTNAMES)}"
        k = g.c([_ssh_ed25519_pub, _ssh_ed25519_pub, _ssh_rsa_pub, _ssh_ecdsa_pub])(g)
        return g.c(
            [
                f"{k} {who}",
                f"Added to ~/.ssh/authorized_keys on the bastion:\n{k} {who}",
                f"{g.c(['github.com', 'gitlab.com', 'bastion.' + g.domain()])} {k}",
                f"Deploy key (public half) for {g.repo()}: {k} deploy@ci",
                f"users:\n  - name: {g.person()}\n    ssh_authorized_keys:\n      - {k} {who}",
            ]
        )

    @reg
    def ssh_fingerprint(g):
        return g.c(
            [
                f"ED25519 key fingerprint is SHA256:{g.b64(32).rstrip('=')}.",
                f"256 SHA256:{g.b64(32).rstrip('=')} {g.person()}@{g.c(HOSTNAMES)} (ED25519)",
                f"GPG key ID {g.hex(16).upper()}, fingerprint {' '.join(g.hex(4).upper() for _ in range(10))}",
                f"age recipient (public): age1{g.s(BECH32, 58)}",
            ]
        )

    @reg
    def pem_public(g):
        k = _pem_pub(g)
        return g.c(
            [
                k,
                f"JWKS fallback public key for verifying tokens:\n{k}",
                f"```\n{k}\n```\npublic key for the license checker",
            ]
        )

    @reg
    def pem_cert(g):
        c = _pem_cert(g)
        return g.c([c, f"ca.crt for the internal registry:\n{c}", "tls:\n  ca: |\n    " + "\n    ".join(c.split("\n"))])

    @reg
    def wireguard_pub(g):
        return (
            f"[Peer]\nPublicKey = {g.b64(32)}\nEndpoint = vpn.{g.domain()}:51820\nAllowedIPs = 10.{g.i(0, 255)}.0.0/16\n"
            f"PersistentKeepalive = 25"
        )

    @reg
    def request_ids(g):
        return g.c(
            [
                f"x-request-id: {g.hex(32)}",
                f"X-Amz-Cf-Id: {g.b64u(42)}==",
                f"x-amz-request-id: {g.s(UAN, 16)}\nx-amz-id-2: {g.b64(57)}",
                f"Stripe request req_{g.s(AN, 14)} failed with card_declined",
                f"cf-ray: {g.hex(16)}-{g.c(['FRA', 'AMS', 'IAD', 'SJC'])}",
                f"X-Cloud-Trace-Context: {g.hex(32)}/{g.s(DG, 19)};o=1",
                f"RequestId: {g.uuid()}  Duration: {g.i(10, 900)}.{g.i(10, 99)} ms  Billed Duration: {g.i(10, 900)} ms",
            ]
        )

    @reg
    def trace_ids(g):
        return g.c(
            [
                f"traceparent: 00-{g.hex(32)}-{g.hex(16)}-01",
                f"trace_id={g.hex(32)} span_id={g.hex(16)} service={g.svc()}",
                f"dd.trace_id={g.s(DG, 19)} dd.span_id={g.s(DG, 19)}",
                f"See trace https://{g.org()}.grafana.net/explore?traceId={g.hex(32)}",
                f"Jaeger trace {g.hex(16)} shows the token validation taking 800ms",
            ]
        )

    @reg
    def etags(g):
        return g.c(
            [
                f'ETag: "{g.hex(32)}"',
                f'ETag: "{g.hex(32)}-{g.i(2, 40)}"',
                f'{{"Key": "backups/{g.date()}.tar.gz", "ETag": "\\"{g.hex(32)}-{g.i(2, 40)}\\"", "Size": {g.i(10**6, 10**10)}}}',
                f'If-None-Match: W/"{g.hex(8)}-{g.s(B64U, 27)}"',
            ]
        )

    @reg
    def pods(g):
        svc = g.svc()
        rows = "\n".join(f"{_k8s_pod(g, svc)}   1/1   Running   {g.i(0, 5)}   {g.i(1, 59)}m" for _ in range(g.i(2, 4)))
        return g.c(
            [
                f"NAME   READY   STATUS   RESTARTS   AGE\n{rows}",
                f"kubectl logs -f {_k8s_pod(g, svc)} -n {g.c(['prod', 'staging'])} --since=10m",
                f'{_k8s_pod(g, svc)} is crashlooping: secret "{svc}-creds" not found',
                f"replicaset {svc}-{g.s(K8S_ALPHA, 10)} scaled to 0",
            ]
        )

    @reg
    def build_ids(g):
        return g.c(
            [
                f"Build {g.svc()}:{g.uuid()} SUCCEEDED in {g.i(2, 30)}m",
                f"GitHub Actions run {g.i(10**9, 10**10)} (attempt 2) failed at step 'Run tests'",
                f"Build scan: https://gradle.com/s/{g.s(LAN, 13)}",
                f"buildkite build #{g.i(100, 20000)} id={g.uuid()}",
                f"BUILD_ID={g.date().replace('-', '')}.{g.i(1, 20)} GIT_SHA={g.hex(40)}",
                f"Cloud Build ID: {g.uuid()}, logs at https://console.cloud.google.com/cloud-build/builds/{g.uuid()}",
            ]
        )

    @reg
    def cache_keys(g):
        return g.c(
            [
                f"Cache restored from key: {g.c(['Linux', 'macOS'])}-node-{g.hex(64)}",
                f"key: ${{{{ runner.os }}}}-pip-${{{{ hashFiles('**/requirements.txt') }}}}\n# resolved to Linux-pip-{g.hex(64)}",
                f"cache key v2-deps-{g.hex(40)} not found, rebuilding",
                f"turbo: cache hit, replaying logs {g.hex(16)}",
                f"bazel remote cache: action digest {g.hex(64)}/{g.i(100, 9999)}",
            ]
        )

    @reg
    def asset_hashes(g):
        return g.c(
            [
                f'<link rel="stylesheet" href="/static/css/main.{g.hex(8)}.css">',
                f"dist/assets/index-{g.s(B64U, 8)}.js   {g.i(20, 900)}.{g.i(10, 99)} kB │ gzip: {g.i(5, 200)}.{g.i(10, 99)} kB",
                f"chunk-vendors.{g.hex(16)}.js is 2.1MB, split it",
                f"_next/static/chunks/pages/_app-{g.hex(16)}.js",
                f"/assets/application-{g.hex(64)}.css",
                f"filename: '[name].[contenthash:8].js' -> app.{g.hex(8)}.js",
            ]
        )

    @reg
    def url_no_password(g):
        dom = g.domain()
        return g.c(
            [
                f"git remote add upstream https://{g.person()}@bitbucket.org/{g.repo()}.git",
                f"git clone git@github.com:{g.repo()}.git",
                f"ssh://git@{dom}:2222/{g.repo()}.git",
                f"psql postgres://readonly@db.{dom}:5432/analytics  (password comes from ~/.pgpass)",
                "REDIS_URL=redis://redis:6379/0",
                f"mongodb+srv://cluster0.{g.s(LAN, 5)}.mongodb.net/?authMechanism=MONGODB-AWS&authSource=%24external",
                f"DATABASE_URL=postgresql://{g.person()}@localhost/{g.svc().replace('-', '_')}_dev",
                "amqp://guest@localhost:5672//",
                f"https://{g.person()}@{dom}/wiki/Runbooks",
                f"ftp://anonymous@ftp.{dom}/pub/",
                "postgres://app:@localhost:5432/app  # trust auth in the dev container",
                f"scp build.tar {g.person()}@{g.ip()}:/opt/releases/",
            ]
        )

    @reg
    def versions(g):
        return g.c(
            [
                f"upgraded {g.c(['django', 'rails', 'next', 'spring-boot'])} from {g.i(1, 7)}.{g.i(0, 20)}.{g.i(0, 9)} to {g.i(1, 7)}.{g.i(0, 20)}.{g.i(0, 9)}",
                f"version: {g.i(0, 3)}.{g.i(0, 30)}.{g.i(0, 9)}-rc.{g.i(1, 5)}+build.{g.hex(7)}",
                f"require golang.org/x/crypto v0.0.0-{g.date().replace('-', '')}{g.s(DG, 6)}-{g.hex(12)}",
                f"Python {g.c(['3.11.9', '3.12.4', '3.10.14'])} (main, Apr  2 2024, 08:11:23) [GCC 12.2.0] on linux",
                f"image: node:{g.i(18, 22)}.{g.i(0, 12)}.{g.i(0, 3)}-alpine3.{g.i(17, 20)}",
                f"openssl 3.0.{g.i(2, 14)} 30 Jan 2024 (Library: OpenSSL 3.0.{g.i(2, 14)})",
            ]
        )

    @reg
    def gosum(g):
        mod = g.c(
            ["github.com/stretchr/testify", "golang.org/x/net", "github.com/spf13/cobra", "google.golang.org/grpc"]
        )
        ver = f"v{g.i(0, 1)}.{g.i(1, 60)}.{g.i(0, 9)}"
        return f"{mod} {ver} {_gosum(g)}\n{mod} {ver}/go.mod {_gosum(g)}"

    @reg
    def cargo_lock(g):
        return (
            f'[[package]]\nname = "{g.c(["serde", "tokio", "rand", "reqwest", "hyper"])}"\nversion = "{g.i(0, 1)}.{g.i(1, 40)}.{g.i(0, 9)}"\n'
            f'source = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{g.hex(64)}"'
        )

    @reg
    def ipv6(g):
        def seg():
            return format(g.i(0, 0xFFFF), "x")

        return g.c(
            [
                f"2001:db8:{seg()}:{seg()}::{seg()}",
                f"inet6 fe80::{seg()}:{seg()}:{seg()}:{seg()}%eth0 prefixlen 64 scopeid 0x20<link>",
                f"AAAA record for api.{g.domain()} -> 2606:4700:{seg()}:{seg()}:{seg()}:{seg()}:{seg()}:{seg()}",
                f"allow from 2a01:4f8:{seg()}:{seg()}::/64",
            ]
        )

    @reg
    def mac(g):
        m = ":".join(g.hex(2) for _ in range(6))
        return g.c(
            [
                f"link/ether {m} brd ff:ff:ff:ff:ff:ff",
                f"DHCP reservation for {m.upper()} -> {g.ip()}",
                f"wlan0 HWaddr {m}",
            ]
        )

    @reg
    def phones(g):
        return g.c(
            [
                f"on-call phone: +1 ({g.i(200, 989)}) {g.i(200, 999)}-{g.i(1000, 9999)}",
                f"Twilio from-number +1{g.i(200, 989)}{g.i(2000000, 9999999)}",
                f"call {g.person().title()} at +49 {g.i(150, 179)} {g.i(1000000, 9999999)} if the pager fails",
                f"support hotline: +44 20 {g.i(1000, 9999)} {g.i(1000, 9999)}",
            ]
        )

    @reg
    def prose(g):
        svc = g.svc()
        return g.c(
            [
                "rotate the API key every 90 days",
                "password must be 12 chars, with at least one digit and one symbol",
                f"The {svc} token is stored in Keychain under 'gh:github.com', never in the repo.",
                "Never commit .env files; secrets come from SOPS and are decrypted at deploy time.",
                f"The JWT secret for {svc} is loaded from Vault at boot; if Vault is down the pod won't start.",
                "TODO: add a pre-commit hook that blocks private keys and access tokens.",
                "Secrets in GitHub Actions are masked in logs, but base64-encoding them defeats the masking.",
                "User prefers that I never print tokens or passwords in summaries.",
                "If the webhook signature check fails, make sure the signing secret matches the one in the dashboard.",
                "The API returns 401 when the bearer token has expired; refresh it with the refresh_token grant.",
                f"{svc} reads DB_PASSWORD from /run/secrets/db_password (docker secrets).",
                "Password resets send a one-time link valid for 30 minutes.",
                "We moved all AWS access keys to IAM roles with OIDC; no long-lived keys remain in CI.",
                "Reminder: the Stripe restricted key only needs read access to charges.",
                "Personal access tokens should have an expiry and the minimum scopes.",
                "To create a token go to Settings -> Developer settings -> Tokens (classic).",
                "The secret scanner flagged a false positive in the fixtures folder.",
                "api_key and client_secret must be provided via environment variables, not the config file.",
                "the session cookie is HttpOnly and SameSite=Lax; the secret used to sign it rotates weekly",
                "Ask security before sharing any credentials over chat.",
                "password length limit in the legacy system is 16 characters (bcrypt truncates at 72 bytes anyway).",
                f"Key rotation runbook: 1) create new key 2) deploy 3) revoke old key in the {svc} console.",
            ]
        )

    @reg
    def aws_ids(g):
        acct = g.s(DG, 12)
        return g.c(
            [
                f"arn:aws:iam::{acct}:role/{g.svc()}-deploy",
                f"instance i-0{g.hex(16)} in subnet subnet-0{g.hex(16)} (vpc-0{g.hex(16)})",
                f"ami-0{g.hex(16)} is the hardened base image",
                f'aws sts get-caller-identity\n{{\n    "UserId": "AROA{g.s(AWS32, 17)}:{g.person()}",\n    "Account": "{acct}",\n    "Arn": "arn:aws:sts::{acct}:assumed-role/Admin/{g.person()}"\n}}',
                f"sg-0{g.hex(16)} allows 443 from 0.0.0.0/0",
                f"KMS key arn:aws:kms:{g.region()}:{acct}:key/{g.uuid()} encrypts the bucket",
                f"CloudFront distribution E{g.s(UAN, 13)} serves static.{g.domain()}",
            ]
        )

    @reg
    def stripe_ids(g):
        return g.c(
            [
                f"customer cus_{g.s(AN, 14)} was charged twice (pi_{g.i(1, 3)}{g.s(AN, 23)})",
                f"refund re_{g.i(1, 3)}{g.s(AN, 23)} for charge ch_{g.i(1, 3)}{g.s(AN, 23)}",
                f"price_{g.i(1, 3)}{g.s(AN, 23)} is the monthly plan, prod_{g.s(AN, 14)} the product",
                f"evt_{g.i(1, 3)}{g.s(AN, 23)} (invoice.payment_failed) retried",
                f"subscription sub_{g.i(1, 3)}{g.s(AN, 23)} canceled at period end",
            ]
        )

    @reg
    def slack_ids(g):
        return g.c(
            [
                f"post to channel C0{g.s(UAN, 9)} as user U0{g.s(UAN, 9)}",
                f"thread ts {g.i(1700000000, 1740000000)}.{g.s(DG, 6)} in #incidents",
                f"Slack app id A0{g.s(UAN, 9)}, workspace T0{g.s(UAN, 8)} - install link is pinned in #platform",
            ]
        )

    @reg
    def oauth_client_ids(g):
        return g.c(
            [
                f"GOOGLE_CLIENT_ID={g.s(DG, 12)}-{g.s(LAN, 32)}.apps.googleusercontent.com",
                f"GitHub App client_id: Iv1.{g.hex(16)} (secret lives in Vault)",
                f"Auth0 domain {g.org()}.eu.auth0.com, client id {g.s(AN, 32)}",
                f"firebase appId: 1:{g.s(DG, 12)}:web:{g.hex(22)}, messagingSenderId: {g.s(DG, 12)}",
                f"Azure app registration: client_id={g.uuid()} tenant_id={g.uuid()}",
            ]
        )

    @reg
    def nix_ipfs(g):
        return g.c(
            [
                f"/nix/store/{g.s(NIX32, 32)}-python3-3.11.9/bin/python3",
                f"pinned to ipfs://bafybei{g.s(LO + '234567', 52)}",
                f"CID Qm{g.s('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)}",
                f"wallet address 0x{g.hex(40)} (public, for receiving testnet funds)",
            ]
        )

    @reg
    def message_ids(g):
        return g.c(
            [
                f"Message-ID: <CA+{g.s(B64, 40)}@mail.gmail.com>",
                f"In-Reply-To: <{g.hex(16)}.{g.hex(8)}@{g.domain()}>",
                f"java.lang.IllegalStateException: pool closed\n\tat com.{g.org()}.db.Pool@{g.hex(8)}.borrow(Pool.java:{g.i(40, 400)})",
                f"object at 0x7f{g.hex(10)}",
            ]
        )

    @reg
    def timestamps_ids(g):
        return g.c(
            [
                f"token expires at {g.i(1700000000, 1790000000)} (unix), i.e. {g.date()}",
                f"session id lookup took {g.i(1, 900)}ms for user {g.i(1, 999999)}",
                f"sequence number {g.s(DG, 20)} acknowledged",
                f"order #{g.s(UAN, 10)} shipped",
                f'resourceVersion: "{g.i(10**6, 10**9)}"  generation: {g.i(1, 40)}',
                f"YouTube video id {g.s(B64U, 11)}; playlist PL{g.s(B64U, 32)}",
            ]
        )

    @reg
    def regex_rules(g):
        return g.c(
            [
                "[[rules]]\nid = \"github-pat\"\nregex = '''ghp_[0-9a-zA-Z]{36}'''",
                "pattern: AKIA[0-9A-Z]{16}",
                r"SLACK_TOKEN_RE = re.compile(r'xox[baprs]-[0-9A-Za-z-]{10,48}')",
                "allowlist: paths = ['''fixtures/.*''', '''.*_test\\.go''']",
                r"Stripe keys match /(sk|rk)_(live|test)_[0-9a-zA-Z]{24,}/",
                "detect-secrets scan --baseline .secrets.baseline",
            ]
        )

    @reg
    def hashes_misc(g):
        return g.c(
            [
                f"sha1: {g.hex(40)}  maven-metadata.xml",
                f"Subresource hash: sha256-{g.b64(32)}",
                f"Content-Security-Policy: script-src 'self' 'sha256-{g.b64(32)}'",
                f"git lfs: oid sha256:{g.hex(64)}",
                f"blake3 {g.hex(64)}",
                f"xxhash64={g.hex(16)}",
            ]
        )

    @reg
    def config_no_secret(g):
        svc = g.svc()
        return g.c(
            [
                f"database:\n  host: {svc}-db.internal\n  port: 5432\n  user: app\n  password_file: /run/secrets/db_password",
                f"auth:\n  provider: oidc\n  issuer: https://login.{g.domain()}\n  client_id: {svc}\n  client_secret_env: OIDC_CLIENT_SECRET",
                f'[api]\nbase_url = "https://api.{g.domain()}"\ntoken_path = "~/.config/{svc}/token"\ntimeout = 30',
                "token_ttl: 3600\nrefresh_token_ttl: 2592000\npassword_min_length: 12",
                f'{{"apiVersion": "v1", "kind": "Secret", "metadata": {{"name": "{svc}"}}, "type": "Opaque"}}',
                f"SECRET_BACKEND=vault\nVAULT_ADDR=https://vault.{g.domain()}:8200\nVAULT_ROLE={svc}",
                f"AWS_PROFILE={g.c(['prod', 'ci', 'sandbox'])}\nAWS_REGION={g.region()}\nAWS_SDK_LOAD_CONFIG=1",
            ]
        )

    @reg
    def jwt_header_only(g):
        hdr = _b64url_json({"alg": g.c(["HS256", "RS256"]), "typ": "JWT"})
        return g.c(
            [
                f"JWTs from the gateway always start with {hdr} (the header), payload follows after the dot.",
                f'the `alg` is in the header: {hdr} decodes to {{"alg":...,"typ":"JWT"}}',
            ]
        )

    return G_


def _make_lookalikes(g, n):
    gens = lookalike_generators()
    out = []
    seen = set()
    while len(out) < n:
        order = list(range(len(gens)))
        g.r.shuffle(order)
        for idx in order:
            txt = gens[idx](g)
            if txt in seen:
                txt = gens[idx](g)
                if txt in seen:
                    continue
            seen.add(txt)
            out.append(txt)
            if len(out) >= n:
                break
    return out


# ---------------------------------------------------------------------------


def generate(seed: int):
    g = G(seed)
    positives = []
    for kind, fn, n in KINDS:
        made = 0
        guard = 0
        while made < n:
            guard += 1
            if guard > n * 20:
                raise RuntimeError(f"could not build samples for {kind}")
            text, secret = fn(g)
            if not secret or text.count(secret) != 1:
                continue
            positives.append((text, kind, secret))
            made += 1
    g.r.shuffle(positives)
    lookalikes = _make_lookalikes(g, 1250)
    return positives, lookalikes


if __name__ == "__main__":  # pragma: no cover
    import collections
    import sys

    sd = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    pos, neg = generate(sd)
    cnt = collections.Counter(k for _, k, _ in pos)
    for k, v in sorted(cnt.items()):
        print(f"{k:30s} {v}")
    print("positives", len(pos), "kinds", len(cnt), "lookalikes", len(neg))
