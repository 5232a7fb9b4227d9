"""Synthetic test data for a secret scanner operating on short "memory" notes.

generate(seed) -> (positives, lookalikes)
  positives : list of (text, kind, secret) -- `secret` is an exact substring of `text`
  lookalikes: list of texts that contain no credential but resemble one

Every credential is assembled at run time from random characters; known
prefixes are built from pieces so that this file contains no token-shaped
literal.  Standard library only.
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import json
import random
import string
import urllib.parse
import zlib

# --------------------------------------------------------------------------
# alphabets and low level helpers
# --------------------------------------------------------------------------
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LO + DIG
LOALNUM = LO + DIG
UPALNUM = UP + DIG
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = ALNUM + "+/"
B64U = ALNUM + "-_"
B32 = UP + "234567"
B62 = DIG + UP + LO
CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

# prefixes, assembled from pieces
P_BEGIN = "-----" + "BEGIN "
P_END = "-----" + "END "
DASH5 = "-----"


def rs(r, alpha, n):
    return "".join(r.choice(alpha) for _ in range(n))


def rbytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b, pad=False):
    s = base64.urlsafe_b64encode(b).decode()
    return s if pad else s.rstrip("=")


def b62(n, width):
    out = ""
    while n:
        n, rem = divmod(n, 62)
        out = B62[rem] + out
    return out.rjust(width, "0")


def pick(r, seq):
    return seq[r.randrange(len(seq))]


def maybe(r, p=0.5):
    return r.random() < p


def uuid4(r):
    h = rs(r, HEXL, 32)
    h = h[:12] + "4" + h[13:16] + pick(r, "89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def when(r):
    d = _dt.datetime(2023, 1, 1) + _dt.timedelta(seconds=r.randrange(3 * 365 * 86400))
    return d


def iso(r):
    return when(r).strftime("%Y-%m-%dT%H:%M:%SZ")


def day(r):
    return when(r).strftime("%Y-%m-%d")


def hhmm(r):
    return f"{r.randrange(8, 20):02d}:{r.randrange(60):02d}"


def camel(name):
    parts = name.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


FIRST = [
    "alice",
    "bob",
    "priya",
    "wei",
    "carlos",
    "fatima",
    "jonas",
    "mei",
    "omar",
    "sofia",
    "liam",
    "aisha",
    "dmitri",
    "yuki",
    "noah",
    "ines",
    "ravi",
    "chloe",
    "tomas",
    "zara",
    "kofi",
    "elena",
    "hugo",
    "nadia",
]
SVCS = [
    "billing-api",
    "ingest-worker",
    "auth-gateway",
    "search-indexer",
    "notifications",
    "checkout",
    "etl-nightly",
    "ml-scoring",
    "webhooks-relay",
    "reporting",
    "inventory-sync",
    "media-transcoder",
    "user-profile",
    "ledger",
    "scheduler",
]
PROJ = [
    "atlas",
    "helios",
    "orca",
    "juniper",
    "kestrel",
    "nebula",
    "polaris",
    "quokka",
    "sparrow",
    "tango",
    "willow",
    "zephyr",
]
ENVS = ["staging", "prod", "dev", "qa", "sandbox", "preprod"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "ap-northeast-1"]
DOMAINS = [
    "acme.io",
    "example-corp.com",
    "tinyshop.dev",
    "northwind.app",
    "globex.net",
    "initech.co",
    "hooli.xyz",
    "umbrella-labs.org",
]
WORDS = [
    "falcon",
    "harbor",
    "maple",
    "quartz",
    "tundra",
    "violet",
    "ember",
    "cobalt",
    "orchid",
    "saturn",
    "lantern",
    "meadow",
    "pepper",
    "rocket",
    "summit",
    "willow",
    "copper",
    "nimbus",
    "otter",
    "raven",
    "cedar",
    "glacier",
    "mango",
    "pixel",
    "thunder",
    "velvet",
    "zephyr",
    "anchor",
    "biscuit",
    "cactus",
    "puffin",
    "walrus",
]
PROMPTS = [
    "$",
    "$",
    "❯",
    "%",
    "bash-5.2$",
    "root@build-01:~#",
    "dev@laptop ~/src $",
    "(venv) $",
    "ubuntu@ip-10-0-3-17:~$",
    "PS C:\\Users\\dev>",
]

ENV_FILLER = [
    "NODE_ENV=production",
    "PORT=8080",
    "LOG_LEVEL=info",
    "AWS_REGION=us-east-1",
    "FEATURE_NEW_CHECKOUT=true",
    "SENTRY_ENVIRONMENT=staging",
    "TZ=UTC",
    "WEB_CONCURRENCY=4",
    "DEBUG=false",
    "APP_URL=https://app.example.com",
    "REDIS_HOST=redis",
    "DB_HOST=db.internal",
    "DB_PORT=5432",
    "DB_NAME=app",
    "CACHE_TTL=300",
    "MAX_UPLOAD_MB=25",
    "CORS_ORIGINS=https://app.example.com",
    "S3_BUCKET=uploads-staging",
    "OTEL_SERVICE_NAME=api",
    "RAILS_MAX_THREADS=5",
    "PYTHONUNBUFFERED=1",
    "GUNICORN_WORKERS=3",
    "KAFKA_BROKERS=kafka-0:9092,kafka-1:9092",
    "SMTP_PORT=587",
    "DEFAULT_LOCALE=en-US",
    "# rotate quarterly",
    "API_TIMEOUT_MS=15000",
]


def human_pw(r, urlsafe=False):
    """Passwords as people actually choose / generate them."""
    sym = "!#%*-_+@" if not urlsafe else "-_~"
    style = r.randrange(8)
    if style == 0:
        pw = pick(r, WORDS).title() + pick(r, WORDS).title() + str(r.randrange(10, 999)) + pick(r, sym)
    elif style == 1:
        w = pick(r, WORDS)
        w = (
            w.replace("a", "4").replace("o", "0").replace("e", "3")
            if maybe(r)
            else w.replace("i", "1").replace("s", "$" if not urlsafe else "5")
        )
        pw = w.title() + pick(r, sym) + pick(r, WORDS).title() + str(r.randrange(1, 99))
    elif style == 2:
        pw = rs(r, ALNUM + sym, r.randint(14, 24))
    elif style == 3:
        pw = (
            pick(r, ["Winter", "Spring", "Summer", "Autumn", "Welcome", "Company"])
            + str(r.randrange(2019, 2026))
            + pick(r, sym)
        )
    elif style == 4:
        pw = "-".join(r.sample(WORDS, 3)) + "-" + str(r.randrange(10, 99))
    elif style == 5:
        pw = rs(r, ALNUM, r.randint(20, 32))
    elif style == 6:
        pw = rs(r, LO, 4) + rs(r, DIG, 2) + pick(r, sym) + rs(r, UP, 3) + rs(r, LOALNUM, r.randint(4, 8))
    else:
        pw = b64(rbytes(r, r.choice([18, 24]))).replace("/", "_").replace("+", "-")
    return pw


def pem_block(r, label, der_prefix, nbytes, width=64):
    body = b64(der_prefix + rbytes(r, nbytes))
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return (P_BEGIN + label + DASH5, lines, P_END + label + DASH5)


def private_key_pem(r, which=None, nl="\n"):
    which = which if which is not None else r.randrange(5)
    if which == 0:  # PKCS#1 RSA
        lab = "RSA " + "PRIVATE KEY"
        pre = bytes([0x30, 0x82, 0x04, 0xA4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00])
        n = r.choice([300, 600, 1170])
    elif which == 1:  # PKCS#8
        lab = "PRIVATE" + " KEY"
        pre = bytes(
            [
                0x30,
                0x82,
                0x04,
                0xBE,
                0x02,
                0x01,
                0x00,
                0x30,
                0x0D,
                0x06,
                0x09,
                0x2A,
                0x86,
                0x48,
                0x86,
                0xF7,
                0x0D,
                0x01,
                0x01,
                0x01,
                0x05,
                0x00,
                0x04,
                0x82,
                0x04,
                0xA8,
            ]
        )
        n = r.choice([300, 600, 1180])
    elif which == 2:  # EC
        lab = "EC " + "PRIVATE KEY"
        pre = bytes([0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20])
        n = 112
    elif which == 3:  # OpenSSH ed25519
        lab = "OPENSSH " + "PRIVATE KEY"
        pre = b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x003\x00\x00\x00\x0bssh-ed25519"
        n = 280
    else:  # PKCS#8 ed25519 (short)
        lab = "PRIVATE" + " KEY"
        pre = bytes([0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20])
        n = 32
    head, lines, tail = pem_block(r, lab, pre, n, 70 if which == 3 else 64)
    return nl.join([head, *lines, tail]) + ("" if nl == "\n" else nl)


def make_jwt(r, payload, alg="HS256", sig_bytes=32, kid=None):
    hdr = {"alg": alg, "typ": "JWT"}
    if kid:
        hdr["kid"] = kid
    h = b64u(json.dumps(hdr, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{h}.{p}.{b64u(rbytes(r, sig_bytes))}"


def qv(v):
    """quote a value for YAML when needed"""
    if all(ch in ALNUM + "-_./" for ch in v) and v[0] not in "-." and not v.isdigit():
        return v
    return '"' + v + '"'


# --------------------------------------------------------------------------
# generic contexts: each takes (r, carrier, spec, varname) and returns text
# spec keys: names, label, hdr (format with {} for the carrier), host, kw
# --------------------------------------------------------------------------
def g_dotenv(r, c, s, n):
    fill = [f for f in r.sample(ENV_FILLER, r.randint(2, 5)) if not f.startswith(n + "=")]
    q = pick(r, ["", "", '"', "'"])
    pos = r.randint(0, len(fill))
    lines = [*fill[:pos], f"{n}={q}{c}{q}", *fill[pos:]]
    head = pick(
        r,
        [
            "",
            "",
            "# .env\n",
            f"# .env.{pick(r, ENVS)}\n",
            "$ cat .env\n",
            f"contents of {pick(r, PROJ)}/.env.local:\n",
            "saved working env for later:\n",
        ],
    )
    return head + "\n".join(lines)


def g_export(r, c, s, n):
    p = pick(r, PROMPTS[:-1])
    q = pick(r, ['"', "'", ""])
    cmd = pick(
        r,
        [
            "python scripts/sync.py --dry-run",
            "npm run deploy",
            "make integration-test",
            "./bin/migrate up",
            "terraform plan",
            "pytest -k smoke -q",
        ],
    )
    out = pick(
        r, ["", "\nok", "\n3 passed in 1.42s", "\nPlan: 2 to add, 0 to change, 0 to destroy.", "\n✔ deployed in 38s"]
    )
    return f"{p} export {n}={q}{c}{q}\n{p} {cmd}{out}"


def g_dockerrun(r, c, s, n):
    svc = pick(r, SVCS)
    return (
        f"docker run -d --name {svc} -e {n}={c} -p {r.choice([3000, 8000, 8080])}:8080 "
        f"ghcr.io/{pick(r, PROJ)}/{svc}:{r.randint(1, 4)}.{r.randint(0, 20)}.{r.randint(0, 9)}"
    )


def g_dockerfile(r, c, s, n):
    base = pick(r, ["python:3.11-slim", "node:20-alpine", "golang:1.22", "eclipse-temurin:21-jre", "ruby:3.3"])
    kw = pick(r, ["ENV", "ENV", "ARG"])
    sep = pick(r, ["=", " "]) if kw == "ENV" else "="
    return (
        f"FROM {base}\nWORKDIR /app\n{kw} {n}{sep}{c}\nCOPY . .\n"
        f"RUN {pick(r, ['pip install -r requirements.txt', 'npm ci', 'go build ./...', 'bundle install'])}\n"
        "CMD " + pick(r, ['["python", "main.py"]', '["node", "server.js"]', '["./app"]'])
    )


def g_k8s_secret(r, c, s, n):
    return (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {pick(r, SVCS)}-secrets\n"
        f"  namespace: {pick(r, ENVS)}\ntype: Opaque\nstringData:\n  {n}: {qv(c)}"
    )


def g_k8s_env(r, c, s, n):
    svc = pick(r, SVCS)
    return (
        f"    spec:\n      containers:\n        - name: {svc}\n          image: {svc}:latest\n"
        f"          env:\n            - name: LOG_LEVEL\n              value: info\n"
        f'            - name: {n}\n              value: "{c}"'
    )


def g_gha(r, c, s, n):
    return (
        f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {n}: {qv(c)}\n"
        f"    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/deploy.sh {pick(r, ENVS)}"
    )


def g_gitlab(r, c, s, n):
    return (
        f"variables:\n  DOCKER_DRIVER: overlay2\n  {n}: {qv(c)}\n\n"
        f"deploy:\n  stage: deploy\n  script:\n    - ./deploy.sh"
    )


def g_terraform(r, c, s, n):
    return f'variable "{n.lower()}" {{\n  type      = string\n  default   = "{c}"\n  sensitive = true\n}}'


def g_python(r, c, s, n):
    t = r.randrange(4)
    if t == 0:
        return f'{n} = "{c}"  # TODO: move to env before merging'
    if t == 1:
        return f'import os\nos.environ["{n}"] = "{c}"\nfrom app import main\nmain()'
    if t == 2:
        return f"# settings_local.py\nDEBUG = True\n{n} = '{c}'\nALLOWED_HOSTS = ['*']"
    return f'{n.lower()} = os.getenv("{n}", "{c}")'


def g_notebook(r, c, s, n):
    i = r.randint(1, 30)
    return (
        f"In [{i}]: import os\nIn [{i + 1}]: os.environ['{n}'] = '{c}'\n"
        f"In [{i + 2}]: df = load_events('{day(r)}')\nOut[{i + 2}]: <DataFrame {r.randint(100, 99999)} rows>"
    )


def g_js(r, c, s, n):
    t = r.randrange(3)
    if t == 0:
        return f"const {camel(n)} = '{c}';\nexport default {{ {camel(n)} }};"
    if t == 1:
        return f'module.exports = {{\n  port: 3000,\n  {camel(n)}: "{c}",\n}};'
    return f"process.env.{n} ??= `{c}`;"


def g_json(r, c, s, n):
    d = {"service": pick(r, SVCS), "region": pick(r, REGIONS), camel(n): c, "timeoutMs": r.choice([5000, 10000, 30000])}
    return json.dumps(d, indent=pick(r, [None, 2]))


def g_yaml(r, c, s, n):
    return f"{pick(r, SVCS).replace('-', '_')}:\n  enabled: true\n  {n.lower()}: {qv(c)}\n  retries: {r.randint(1, 5)}"


def g_toml(r, c, s, n):
    return f'[{pick(r, SVCS)}]\nendpoint = "https://{s.get("host", "api." + pick(r, DOMAINS))}"\n{n.lower()} = "{c}"'


def g_http(r, c, s, n):
    hdr = s.get("hdr")
    if not hdr:
        return g_curl(r, c, s, n)
    host = s.get("host", "api." + pick(r, DOMAINS))
    meth = pick(r, ["GET", "POST", "GET", "PUT"])
    path = pick(r, ["/v1/items", "/v2/events", "/api/users/me", "/v1/charges", "/health", "/v3/search"])
    lead = pick(r, ["", "> ", "request dump from failing test:\n", "DEBUG urllib3 request:\n"])
    pre = "> " if lead == "> " else ""
    lines = [
        f"{meth} {path} HTTP/1.1",
        f"Host: {host}",
        hdr.format(c),
        "User-Agent: python-requests/2.31.0",
        "Accept: application/json",
    ]
    return lead + "\n".join(pre + ln if i else ln for i, ln in enumerate(lines))


def g_curl(r, c, s, n):
    host = s.get("host", "api." + pick(r, DOMAINS))
    hdr = s.get("hdr") or "Authorization: Bearer {}"
    p = pick(r, PROMPTS[:-1])
    return (
        f"{p} curl -sS https://{host}{pick(r, ['/v1/me', '/v1/ping', '/api/status', '/v2/list?limit=5'])} "
        f'-H "{hdr.format(c)}"{pick(r, ["", " | jq .", " -o out.json"])}'
    )


def g_log(r, c, s, n):
    lvl = pick(r, ["DEBUG", "INFO", "WARN"])
    return (
        f"{iso(r)} {lvl} [{pick(r, SVCS)}] loaded config from env: {n}={c} "
        f"region={pick(r, REGIONS)} workers={r.randint(1, 16)}"
    )


def g_trace(r, c, s, n):
    return (
        "Traceback (most recent call last):\n"
        f'  File "/app/{pick(r, PROJ)}/client.py", line {r.randint(20, 400)}, in connect\n'
        "    resp.raise_for_status()\n"
        f"requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://{s.get('host', 'api.' + pick(r, DOMAINS))}/v1/auth\n"
        f"  config = {{'{n.lower()}': '{c}', 'timeout': {r.randint(5, 60)}}}"
    )


def g_commit(r, c, s, n):
    svc = pick(r, SVCS)
    t = r.randrange(3)
    if t == 0:
        return f"commit {rs(r, HEXL, 40)}\n\n    wip: hardcode {n} for {svc} until secrets are wired\n\n    {n}={c}"
    if t == 1:
        return f"chore({svc}): temporary {s['label']} for local testing -> {c} (revert before release)"
    return f"- {n}={c}\n+ {n}=${{{n}}}\n\nfix: stop committing the {s['label']}"


def g_mdtable(r, c, s, n):
    rows = [f"| {e} | `{n}` | {'`' + c + '`' if e == 'x' else '(see vault)'} |" for e in ["x"]]
    envs = r.sample(ENVS, 3)
    hot = r.randrange(3)
    rows = []
    for i, e in enumerate(envs):
        val = f"`{c}`" if i == hot else pick(r, ["(in 1Password)", "_same as staging_", "—", "stored in SSM"])
        rows.append(f"| {e} | {n} | {val} |")
    return "| env | variable | value |\n|---|---|---|\n" + "\n".join(rows)


def g_chat(r, c, s, n):
    a, b = r.sample(FIRST, 2)
    t = hhmm(r)
    ask = pick(
        r,
        [
            f"can you drop me the {s['label']} for {pick(r, ENVS)}?",
            f"what's {n} again?",
            "need the key to run the integration tests",
            f"which {s['label']} does {pick(r, SVCS)} use?",
        ],
    )
    ans = pick(r, [f"here: {c}", f"it's {c}", f"{c} — don't paste it anywhere public pls", f"`{c}`", f"use {c}."])
    return f"[{t}] {a}: {ask}\n[{t}] {b}: {ans}\n[{t}] {a}: thx"


def g_prose(r, c, s, n):
    L = s["label"]
    svc = pick(r, SVCS)
    return pick(
        r,
        [
            f"{L} for {svc} ({pick(r, ENVS)}): {c}",
            f"The {L} we use in {pick(r, ENVS)} is {c}. Rotate it after the demo on {day(r)}.",
            f"Remember: {n} for the {pick(r, PROJ)} project is {c}; the old one was revoked.",
            f"User gave me their {L} ({c}) to debug the {svc} integration — do not log it.",
            f"Set {n} to {c} when running the {svc} tests locally.",
            f'{pick(r, FIRST).title()} said the new {L} is "{c}" and the old one stops working Friday.',
            f"Project note: {svc} authenticates with {L} '{c}', stored nowhere else yet.",
        ],
    )


def g_memory(r, c, s, n):
    return pick(
        r,
        [
            f"[memory] {s['label']}={c} (provided by user, session {r.randint(100, 999)})",
            f"Context for future runs: export {n}={c} before invoking the {pick(r, SVCS)} CLI.",
            f"- {s['label']}: {c}\n- region: {pick(r, REGIONS)}\n- owner: {pick(r, FIRST)}",
            f"User preference: always use {n}={c} for the {pick(r, ENVS)} environment.",
        ],
    )


def g_start(r, c, s, n):
    return pick(
        r,
        [
            f"{c} is the {s['label']} for {pick(r, PROJ)} {pick(r, ENVS)}.",
            f"{c}\n^ {s['label']} ({pick(r, SVCS)}), expires {day(r)}",
            f"{c} <- {n}, temp, delete after testing",
        ],
    )


def g_cli(r, c, s, n):
    app = pick(r, PROJ) + "-" + pick(r, ENVS)
    return pick(
        r,
        [
            f"heroku config:set {n}={c} -a {app}",
            f"fly secrets set {n}={c} --app {app}",
            f'gh secret set {n} --body "{c}" --repo {pick(r, PROJ)}/{pick(r, SVCS)}',
            f"kubectl create secret generic {pick(r, SVCS)} --from-literal={n.lower()}={c} -n {pick(r, ENVS)}",
            f"aws ssm put-parameter --name /{pick(r, ENVS)}/{n.lower()} --type SecureString --value '{c}'",
            f"vercel env add {n} production <<< '{c}'",
            f'$env:{n} = "{c}"',
            f"set {n}={c}",
            f'Environment="{n}={c}"',
        ],
    )


GENERIC = [
    g_dotenv,
    g_export,
    g_dockerrun,
    g_dockerfile,
    g_k8s_secret,
    g_k8s_env,
    g_gha,
    g_gitlab,
    g_terraform,
    g_python,
    g_notebook,
    g_js,
    g_json,
    g_yaml,
    g_toml,
    g_http,
    g_curl,
    g_log,
    g_trace,
    g_commit,
    g_mdtable,
    g_chat,
    g_prose,
    g_prose,
    g_memory,
    g_start,
    g_cli,
]


def generic(r, c, s):
    n = pick(r, s["names"])
    return pick(r, GENERIC)(r, c, s, n)


def fmt(r, c, s, specific, p_specific=0.5):
    """choose a kind-specific template (list of callables taking c) or a generic one"""
    if specific and maybe(r, p_specific):
        return pick(r, specific)(c)
    return generic(r, c, s)


# --------------------------------------------------------------------------
# credential kinds: each returns (text, secret)
# --------------------------------------------------------------------------
def k_aws_access_key_id(r):
    pre = pick(r, ["A" + "KIA", "A" + "KIA", "A" + "KIA", "A" + "SIA"])
    v = pre + rs(r, B32, 16)
    s = {"names": ["AWS_ACCESS_KEY_ID", "aws_access_key_id", "AWS_KEY_ID"], "label": "AWS access key id"}
    prof = pick(r, ["default", "prod-admin", "ci-deployer", "data-lake"])
    spec = [
        lambda c: f"[{prof}]\naws_access_key_id = {c}\nregion = {pick(r, REGIONS)}",
        lambda c: f"aws configure set aws_access_key_id {c} --profile {prof}",
        lambda c: (
            f"botocore.exceptions.ClientError: An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid. (key {c})"
        ),
        lambda c: f"IAM user svc-{pick(r, SVCS)} has access key {c}; it was created {day(r)} and never rotated.",
        lambda c: f"s3 = boto3.client('s3', aws_access_key_id='{c}', region_name='{pick(r, REGIONS)}')",
        lambda c: f"Found in the Jenkins log: AWS_ACCESS_KEY_ID={c} — asked {pick(r, FIRST)} to deactivate.",
    ]
    return fmt(r, v, s, spec), v


def k_aws_secret_access_key(r):
    v = rs(r, ALNUM + "/+", 40)
    s = {
        "names": ["AWS_SECRET_ACCESS_KEY", "aws_secret_access_key", "AWS_SECRET_KEY"],
        "label": "AWS secret access key",
    }
    prof = pick(r, ["default", "prod-admin", "ci-deployer", "data-lake"])
    spec = [
        lambda c: f"~/.aws/credentials\n[{prof}]\naws_secret_access_key = {c}",
        lambda c: f"aws configure set aws_secret_access_key {c} --profile {prof}",
        lambda c: (
            f"storage_options = {{'key': os.environ['AWS_ACCESS_KEY_ID'], 'secret': '{c}'}}\ndf = pd.read_parquet('s3://{pick(r, PROJ)}-lake/events/', storage_options=storage_options)"
        ),
        lambda c: f'provider "aws" {{\n  region     = "{pick(r, REGIONS)}"\n  secret_key = "{c}"\n}}',
        lambda c: f"The secret for the {prof} IAM key is {c} (the id is in 1Password).",
        lambda c: f"rclone config: [s3remote] type = s3, provider = AWS, secret_access_key = {c}",
    ]
    return fmt(r, v, s, spec), v


def k_gcp_service_account_key(r):
    pem = private_key_pem(r, 1, nl="\\n")
    proj = pick(r, PROJ) + "-" + str(r.randint(100000, 999999))
    email = f"{pick(r, SVCS)}@{proj}.iam.gserviceaccount.com"
    kid = rs(r, HEXL, 40)
    t = r.randrange(4)
    if t == 0:
        d = {
            "type": "service_account",
            "project_id": proj,
            "private_key_id": kid,
            "private_key": pem,
            "client_email": email,
            "client_id": str(r.randint(10**20, 10**21 - 1)),
            "token_uri": "https://oauth2.googleapis.com/token",
        }
        txt = json.dumps(d, indent=2).replace("\\\\n", "\\n")
        txt = pick(r, ["", "saved key.json for the bq loader:\n", "$ cat sa.json\n"]) + txt
    elif t == 1:
        txt = f'Partial SA key for {email} (pasted in chat):\n  "private_key_id": "{kid}",\n  "private_key": "{pem}",'
    elif t == 2:
        txt = f'GOOGLE_PRIVATE_KEY="{pem}"\nGOOGLE_CLIENT_EMAIL={email}'
    else:
        txt = (
            f"creds = service_account.Credentials.from_service_account_info({{\n"
            f"    'type': 'service_account', 'client_email': '{email}',\n"
            f"    'private_key': '{pem}',\n    'token_uri': 'https://oauth2.googleapis.com/token'}})"
        )
    return txt, pem


def k_google_api_key(r):
    v = "AI" + "za" + rs(r, B64U, 35)
    s = {
        "names": ["GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_API_KEY", "YOUTUBE_API_KEY"],
        "label": "Google API key",
        "hdr": "x-goog-api-key: {}",
        "host": "generativelanguage.googleapis.com",
    }
    spec = [
        lambda c: (
            f"import google.generativeai as genai\ngenai.configure(api_key=\"{c}\")\nmodel = genai.GenerativeModel('gemini-1.5-flash')"
        ),
        lambda c: f"https://maps.googleapis.com/maps/api/geocode/json?address=1600+Amphitheatre&key={c}",
        lambda c: f"GET https://www.googleapis.com/youtube/v3/search?part=snippet&q=lofi&key={c} -> 403 quotaExceeded",
        lambda c: f"Gemini key from AI Studio: {c} (billing account {pick(r, PROJ)})",
    ]
    return fmt(r, v, s, spec), v


def k_azure_client_secret(r):
    alpha = ALNUM + "_~.-"
    if maybe(r, 0.75):
        v = rs(r, alpha, 3) + "8Q" + "~" + rs(r, alpha, 35)
    else:
        v = rs(r, alpha, 34)
    s = {
        "names": ["AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET", "AAD_CLIENT_SECRET", "ClientSecret"],
        "label": "Azure AD client secret",
    }
    tid, cid = uuid4(r), uuid4(r)
    spec = [
        lambda c: f"az login --service-principal -u {cid} -p '{c}' --tenant {tid}",
        lambda c: f'"AzureAd": {{\n  "TenantId": "{tid}",\n  "ClientId": "{cid}",\n  "ClientSecret": "{c}"\n}}',
        lambda c: (
            f'provider "azurerm" {{\n  features {{}}\n  client_id     = "{cid}"\n  client_secret = "{c}"\n  tenant_id     = "{tid}"\n}}'
        ),
        lambda c: (
            f"App registration {pick(r, SVCS)}: new client secret value {c} (secret ID {uuid4(r)}), expires in 180 days."
        ),
        lambda c: f'credential = ClientSecretCredential(tenant_id="{tid}", client_id="{cid}", client_secret="{c}")',
    ]
    return fmt(r, v, s, spec, 0.6), v


def k_azure_storage_credential(r):
    acct = pick(r, PROJ) + pick(r, ["data", "logs", "assets", "backup"]) + str(r.randint(1, 99))
    t = r.randrange(4)
    if t == 0:
        key = b64(rbytes(r, 64))
        cs = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"
        s = {
            "names": ["AZURE_STORAGE_CONNECTION_STRING", "AzureWebJobsStorage", "STORAGE_CONN"],
            "label": "storage connection string",
        }
        txt = fmt(
            r,
            cs,
            s,
            [
                lambda c: f'"Values": {{\n  "AzureWebJobsStorage": "{c}",\n  "FUNCTIONS_WORKER_RUNTIME": "python"\n}}',
                lambda c: f'blob = BlobServiceClient.from_connection_string("{c}")',
            ],
        )
        return txt, key
    if t == 1:
        sig = urllib.parse.quote(b64(rbytes(r, 32)), safe="")
        se = when(r).strftime("%Y-%m-%dT%H:%M:%SZ")
        url = (
            f"https://{acct}.blob.core.windows.net/{pick(r, ['exports', 'uploads', 'models'])}/"
            f"{pick(r, ['report.csv', 'model.bin', 'dump.sql.gz'])}?sv=2022-11-02&ss=b&srt=sco&sp=rl"
            f"&se={urllib.parse.quote(se, safe='')}&spr=https&sig={sig}"
        )
        txt = pick(
            r,
            [
                f"SAS link for the export (valid a week): {url}",
                f'azcopy copy "{url}" ./local/',
                f"{url}\nshared with the vendor on {day(r)}",
                f"[{hhmm(r)}] {pick(r, FIRST)}: try this {url} — should download now",
            ],
        )
        return txt, sig
    if t == 2:
        key = b64(rbytes(r, 32))
        ns = pick(r, PROJ) + "-bus"
        cs = f"Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={key}"
        s = {"names": ["SERVICEBUS_CONNECTION", "EVENTHUB_CONNECTION_STRING"], "label": "Service Bus connection string"}
        return fmt(r, cs, s, []), key
    key = b64(rbytes(r, 64))
    s = {"names": ["AZURE_STORAGE_KEY", "COSMOS_KEY", "AZURE_STORAGE_ACCOUNT_KEY"], "label": "storage account key"}
    spec = [
        lambda c: f"az storage blob list --account-name {acct} --account-key {c} -c backups -o table",
        lambda c: f'CosmosClient("https://{acct}.documents.azure.com:443/", credential="{c}")',
    ]
    return fmt(r, key, s, spec, 0.6), key


def gh_classic(r, pre):
    body = rs(r, ALNUM, 30)
    return pre + body + b62(zlib.crc32(body.encode()), 6)


def k_github_token(r):
    t = r.randrange(6)
    if t <= 2:
        v = gh_classic(r, "gh" + "p_")
    elif t == 3:
        v = "github" + "_pat_" + rs(r, UPALNUM, 22) + "_" + rs(r, ALNUM, 59)
    else:
        v = gh_classic(r, "gh" + pick(r, ["o", "u", "s", "r"]) + "_")
    s = {
        "names": ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "GH_ENTERPRISE_TOKEN"],
        "label": "GitHub token",
        "hdr": pick(r, ["Authorization: token {}", "Authorization: Bearer {}"]),
        "host": "api.github.com",
    }
    repo = f"{pick(r, PROJ)}/{pick(r, SVCS)}"
    spec = [
        lambda c: f"git clone https://{c}@github.com/{repo}.git",
        lambda c: f"git remote set-url origin https://x-access-token:{c}@github.com/{repo}",
        lambda c: f"echo {c} | gh auth login --with-token",
        lambda c: (
            f"gh: To get started with GitHub CLI, please run:  gh auth login\n$ GH_TOKEN={c} gh pr list -R {repo}"
        ),
        lambda c: f"Fine-grained PAT for the release bot (contents: write on {repo}): {c}",
        lambda c: f'g = Github("{c}")\nrepo = g.get_repo("{repo}")',
    ]
    return fmt(r, v, s, spec), v


def k_gitlab_token(r):
    t = r.randrange(5)
    if t <= 1:
        v = "gl" + "pat-" + rs(r, B64U, 20)
    elif t == 2:
        v = "gl" + "rt-" + rs(r, B64U, 20)
    elif t == 3:
        v = "gl" + "dt-" + rs(r, B64U, 20)
    else:
        v = "gl" + "ptt-" + rs(r, HEXL, 40)
    s = {
        "names": ["GITLAB_TOKEN", "CI_JOB_TOKEN_OVERRIDE", "GITLAB_PRIVATE_TOKEN", "GL_TOKEN"],
        "label": "GitLab token",
        "hdr": "PRIVATE-TOKEN: {}",
        "host": "gitlab." + pick(r, DOMAINS),
    }
    host = s["host"]
    spec = [
        lambda c: (
            f"curl --request POST --form token={c} --form ref=main https://{host}/api/v4/projects/{r.randint(10, 9999)}/trigger/pipeline"
        ),
        lambda c: f"gitlab-runner register --url https://{host}/ --token {c} --executor docker",
        lambda c: f"git clone https://oauth2:{c}@{host}/{pick(r, PROJ)}/{pick(r, SVCS)}.git",
        lambda c: f"python-gitlab: gl = gitlab.Gitlab('https://{host}', private_token='{c}')",
    ]
    return fmt(r, v, s, spec), v


def k_ci_token(r):
    t = r.randrange(4)
    if t == 0:
        v = "AT" + "BB" + rs(r, ALNUM, 28) + rs(r, HEXU, 8)
        s = {
            "names": ["BITBUCKET_APP_PASSWORD", "BB_APP_PASSWORD"],
            "label": "Bitbucket app password",
            "host": "api.bitbucket.org",
        }
        u = pick(r, FIRST)
        spec = [
            lambda c: f"git clone https://{u}:{c}@bitbucket.org/{pick(r, PROJ)}/{pick(r, SVCS)}.git",
            lambda c: f"curl -u {u}:{c} https://api.bitbucket.org/2.0/repositories/{pick(r, PROJ)}",
        ]
    elif t == 1:
        v = "CCI" + "PAT_" + rs(r, ALNUM, 22) + "_" + rs(r, HEXL, 40)
        s = {
            "names": ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"],
            "label": "CircleCI personal API token",
            "hdr": "Circle-Token: {}",
            "host": "circleci.com",
        }
        spec = [lambda c: f"circleci setup --no-prompt --token {c} --host https://circleci.com"]
    elif t == 2:
        v = rs(r, HEXL, 40)
        s = {
            "names": ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"],
            "label": "CircleCI API token",
            "hdr": "Circle-Token: {}",
            "host": "circleci.com",
        }
        spec = [
            lambda c: (
                f"curl -X POST https://circleci.com/api/v2/project/gh/{pick(r, PROJ)}/{pick(r, SVCS)}/pipeline -H 'Circle-Token: {c}'"
            ),
            lambda c: f"~/.circleci/cli.yml\nhost: https://circleci.com\ntoken: {c}",
        ]
    else:
        v = "bku" + "a_" + rs(r, HEXL, 40)
        s = {
            "names": ["BUILDKITE_API_TOKEN", "BUILDKITE_TOKEN"],
            "label": "Buildkite API token",
            "hdr": "Authorization: Bearer {}",
            "host": "api.buildkite.com",
        }
        spec = [lambda c: f"bk configure --org {pick(r, PROJ)} --token {c}"]
    return fmt(r, v, s, spec), v


def k_npm_token(r):
    t = r.randrange(4)
    v = ("npm" + "_" + rs(r, ALNUM, 36)) if t < 3 else uuid4(r)
    s = {"names": ["NPM_TOKEN", "NODE_AUTH_TOKEN", "NPM_AUTH_TOKEN"], "label": "npm token"}
    spec = [
        lambda c: f"//registry.npmjs.org/:_authToken={c}",
        lambda c: (
            f"$ cat ~/.npmrc\nregistry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={c}\nsave-exact=true"
        ),
        lambda c: f'RUN echo "//registry.npmjs.org/:_authToken={c}" > .npmrc && npm ci && rm .npmrc',
        lambda c: f"npm config set //registry.npmjs.org/:_authToken {c}",
        lambda c: f'yarn: npmAuthToken: "{c}"\nnpmRegistryServer: "https://registry.npmjs.org"',
        lambda c: f"automation token for publishing @{pick(r, PROJ)}/sdk: {c}",
    ]
    return fmt(r, v, s, spec, 0.65 if t < 3 else 0.9), v


def pypi_token(r, test=False):
    host = b"test.pypi.org" if test else b"pypi.org"
    blob = (
        b"\x02\x01"
        + bytes([len(host)])
        + host
        + b"\x02"
        + bytes([r.choice([0x25, 0x26])])
        + rbytes(r, r.randint(100, 150))
    )
    return "pypi" + "-" + b64u(blob)


def k_pypi_token(r):
    test = maybe(r, 0.2)
    v = pypi_token(r, test)
    s = {"names": ["PYPI_TOKEN", "TWINE_PASSWORD", "PYPI_API_TOKEN", "UV_PUBLISH_TOKEN"], "label": "PyPI API token"}
    repo = "https://test.pypi.org/legacy/" if test else "https://upload.pypi.org/legacy/"
    spec = [
        lambda c: f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {c}",
        lambda c: f"twine upload -u __token__ -p {c} --repository-url {repo} dist/*",
        lambda c: f"poetry config pypi-token.pypi {c}",
        lambda c: f"uv publish --token {c}",
        lambda c: f"- name: Publish\n  uses: pypa/gh-action-pypi-publish@release/v1\n  with:\n    password: {c}",
    ]
    return fmt(r, v, s, spec, 0.6), v


def k_registry_token(r):
    t = r.randrange(5)
    if t == 0:
        v = "rubygems" + "_" + rs(r, HEXL, 48)
        s = {"names": ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"], "label": "RubyGems API key"}
        spec = [
            lambda c: f"---\n:rubygems_api_key: {c}",
            lambda c: f"$ cat ~/.gem/credentials\n---\n:rubygems_api_key: {c}",
        ]
        return fmt(r, v, s, spec), v
    if t in (1, 2):
        v = "dckr" + "_pat_" + rs(r, B64U, 27)
        u = pick(r, FIRST) + pick(r, ["", "ci", "bot"])
        s = {"names": ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD", "REGISTRY_PASSWORD"], "label": "Docker Hub access token"}
        spec = [
            lambda c: f"echo {c} | docker login -u {u} --password-stdin",
            lambda c: (
                f"docker login -u {u} -p {c}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded"
            ),
            lambda c: f"- uses: docker/login-action@v3\n  with:\n    username: {u}\n    password: {c}",
        ]
        return fmt(r, v, s, spec, 0.6), v
    if t == 3:
        u = pick(r, FIRST)
        pw = human_pw(r)
        v = b64(f"{u}:{pw}".encode())
        host = pick(r, ["https://index.docker.io/v1/", "ghcr.io", f"registry.{pick(r, DOMAINS)}", "quay.io"])
        txt = pick(
            r,
            [
                f'~/.docker/config.json:\n{{\n  "auths": {{\n    "{host}": {{\n      "auth": "{v}"\n    }}\n  }}\n}}',
                f'imagePullSecret .dockerconfigjson → {{"auths":{{"{host}":{{"auth":"{v}"}}}}}}',
            ],
        )
        return txt, v
    # artifactory / nexus API key
    v = "AKC" + "p" + rs(r, ALNUM, 69)
    s = {
        "names": ["ARTIFACTORY_API_KEY", "JFROG_API_KEY"],
        "label": "Artifactory API key",
        "hdr": "X-JFrog-Art-Api: {}",
        "host": pick(r, PROJ) + ".jfrog.io",
    }
    return fmt(r, v, s, []), v


def k_stripe_key(r):
    pre = pick(r, ["sk" + "_live_", "sk" + "_live_", "rk" + "_live_"])
    v = pre + (("51" + rs(r, ALNUM, 97)) if maybe(r, 0.6) else rs(r, ALNUM, 24))
    s = {
        "names": ["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_KEY"],
        "label": "Stripe live secret key",
        "hdr": "Authorization: Bearer {}",
        "host": "api.stripe.com",
    }
    spec = [
        lambda c: f'import stripe\nstripe.api_key = "{c}"\nstripe.Charge.list(limit=3)',
        lambda c: f"curl https://api.stripe.com/v1/balance -u {c}:",
        lambda c: f"stripe listen --api-key {c} --forward-to localhost:4242/webhook",
        lambda c: f"const stripe = require('stripe')('{c}');",
        lambda c: (
            f"Stripe::InvalidRequestError (No such customer: 'cus_{rs(r, ALNUM, 14)}'; a similar object exists in test mode, but a live mode key was used: {c})"
        ),
    ]
    return fmt(r, v, s, spec), v


def k_slack_token(r):
    t = r.randrange(5)
    if t <= 1:
        v = (
            "x"
            + "oxb-"
            + str(r.randint(10**10, 10**13))
            + "-"
            + str(r.randint(10**12, 10**13 - 1))
            + "-"
            + rs(r, ALNUM, 24)
        )
    elif t == 2:
        v = (
            "x"
            + "oxp-"
            + str(r.randint(10**10, 10**13))
            + "-"
            + str(r.randint(10**10, 10**13))
            + "-"
            + str(r.randint(10**12, 10**13 - 1))
            + "-"
            + rs(r, HEXL, 32)
        )
    elif t == 3:
        v = "x" + "app-1-A" + rs(r, UPALNUM, 10) + "-" + str(r.randint(10**12, 10**13 - 1)) + "-" + rs(r, HEXL, 64)
    else:
        v = (
            "https://hooks."
            + "slack.com/services/T"
            + rs(r, UPALNUM, r.choice([8, 10]))
            + "/B"
            + rs(r, UPALNUM, r.choice([8, 10]))
            + "/"
            + rs(r, ALNUM, 24)
        )
        s = {"names": ["SLACK_WEBHOOK_URL", "SLACK_WEBHOOK", "ALERTS_WEBHOOK"], "label": "Slack incoming webhook"}
        spec = [
            lambda c: f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy done\"}}' {c}",
            lambda c: (
                f"alertmanager receivers:\n- name: slack\n  slack_configs:\n  - api_url: {c}\n    channel: '#alerts'"
            ),
            lambda c: f"webhook for #{pick(r, ['deploys', 'alerts', 'oncall'])}: {c}",
        ]
        return fmt(r, v, s, spec), v
    s = {
        "names": ["SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_APP_TOKEN", "SLACK_USER_TOKEN"],
        "label": "Slack token",
        "hdr": "Authorization: Bearer {}",
        "host": "slack.com/api",
    }
    spec = [
        lambda c: f'app = App(token="{c}", signing_secret=os.environ["SLACK_SIGNING_SECRET"])',
        lambda c: (
            f'curl -X POST https://slack.com/api/chat.postMessage -H "Authorization: Bearer {c}" -d channel=C{rs(r, UPALNUM, 10)} -d text=hi'
        ),
        lambda c: (
            f"slack_sdk.errors.SlackApiError: The request to the Slack API failed. (url: https://slack.com/api/conversations.list, token={c})\nThe server responded with: {{'ok': False, 'error': 'missing_scope'}}"
        ),
    ]
    return fmt(r, v, s, spec), v


def k_openai_api_key(r):
    mark = base64.b64encode(b"OpenAI").decode()
    t = r.randrange(4)
    if t == 0:
        v = "sk-" + rs(r, ALNUM, 20) + mark + rs(r, ALNUM, 20)
    elif t == 1:
        v = "sk-" + "proj-" + rs(r, B64U, 74) + mark + rs(r, B64U, 74)
    elif t == 2:
        v = "sk-" + "svcacct-" + rs(r, B64U, 74) + mark + rs(r, B64U, 74)
    else:
        v = "sk-" + "proj-" + rs(r, B64U, 48)
    s = {
        "names": ["OPENAI_API_KEY", "OPENAI_KEY", "LLM_API_KEY"],
        "label": "OpenAI API key",
        "hdr": "Authorization: Bearer {}",
        "host": "api.openai.com",
    }
    spec = [
        lambda c: f'from openai import OpenAI\nclient = OpenAI(api_key="{c}")',
        lambda c: (
            f"openai.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: {c}. You can find your API key at https://platform.openai.com/account/api-keys.'}}}}"
        ),
        lambda c: f"%env OPENAI_API_KEY={c}",
        lambda c: f"llm keys set openai --value {c}",
        lambda c: f"Using the team's OpenAI key {c} for the eval runs (budget capped at $200).",
    ]
    return fmt(r, v, s, spec), v


def k_anthropic_api_key(r):
    kind = pick(r, ["api03", "api03", "api03", "admin01"])
    v = "sk-" + "ant-" + kind + "-" + rs(r, B64U, 93) + "AA"
    s = {
        "names": ["ANTHROPIC_API_KEY", "CLAUDE_API_KEY", "ANTHROPIC_KEY"],
        "label": "Anthropic API key",
        "hdr": "x-api-key: {}",
        "host": "api.anthropic.com",
    }
    spec = [
        lambda c: f'client = anthropic.Anthropic(api_key="{c}")',
        lambda c: (
            f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {c}" -H "anthropic-version: 2023-06-01" -H "content-type: application/json" -d @req.json'
        ),
        lambda c: f"claude config: apiKeyHelper echoes {c}",
        lambda c: f"Agent note: the user's Anthropic key is {c}; they asked me to keep using it for the batch job.",
    ]
    return fmt(r, v, s, spec), v


def k_saas_api_key(r):
    t = r.randrange(9)
    if t == 0:
        v = rs(r, ALNUM, 40)
        s = {
            "names": ["COHERE_API_KEY", "CO_API_KEY"],
            "label": "Cohere API key",
            "hdr": "Authorization: Bearer {}",
            "host": "api.cohere.com",
        }
        spec = [
            lambda c: (
                f"co = cohere.ClientV2(\"{c}\")\nresp = co.embed(model='embed-english-v3.0', texts=docs, input_type='search_document')"
            ),
            lambda c: f'embeddings = CohereEmbeddings(model="embed-english-v3.0", cohere_api_key="{c}")',
        ]
    elif t == 1:
        v = rs(r, HEXL, 32)
        app = rs(r, UPALNUM, 10)
        s = {
            "names": ["ALGOLIA_ADMIN_KEY", "ALGOLIA_ADMIN_API_KEY", "ALGOLIA_WRITE_KEY"],
            "label": "Algolia admin API key",
            "hdr": "X-Algolia-API-Key: {}",
            "host": f"{app.lower()}.algolia.net",
        }
        spec = [
            lambda c: f"client = SearchClient.create('{app}', '{c}')  # admin key, needed for reindex",
            lambda c: f"algolia: app id {app}, admin key {c} (search-only key is the other one)",
            lambda c: (
                f'curl -X POST -H "X-Algolia-API-Key: {c}" -H "X-Algolia-Application-Id: {app}" https://{app}.algolia.net/1/indexes/products/clear'
            ),
        ]
    elif t == 2:
        v = rs(r, HEXL, 30)
        cid = rs(r, HEXL, 24)
        s = {
            "names": ["PLAID_SECRET", "PLAID_PRODUCTION_SECRET"],
            "label": "Plaid secret",
            "host": "production.plaid.com",
        }
        spec = [
            lambda c: f"PLAID_CLIENT_ID={cid}\nPLAID_SECRET={c}\nPLAID_ENV=production",
            lambda c: (
                f'POST https://production.plaid.com/link/token/create\n{{"client_id": "{cid}", "secret": "{c}", "user": {{"client_user_id": "u-{r.randint(1000, 9999)}"}}}}'
            ),
        ]
    elif t == 3:
        v = pick(r, ["u+", "y_", ""]) + rs(r, B64U, 18 if r.random() < 0.7 else 20)
        s = {
            "names": ["PAGERDUTY_API_KEY", "PAGERDUTY_TOKEN", "PD_API_TOKEN"],
            "label": "PagerDuty API key",
            "hdr": "Authorization: Token token={}",
            "host": "api.pagerduty.com",
        }
        spec = [
            lambda c: f'provider "pagerduty" {{\n  token = "{c}"\n}}',
            lambda c: f"pd CLI: pd login --authtoken {c}",
        ]
    elif t == 4:
        v = "pat" + rs(r, ALNUM, 14) + "." + rs(r, HEXL, 64)
        s = {
            "names": ["AIRTABLE_API_KEY", "AIRTABLE_PAT", "AIRTABLE_TOKEN"],
            "label": "Airtable personal access token",
            "hdr": "Authorization: Bearer {}",
            "host": "api.airtable.com",
        }
        spec = [lambda c: f"api = Api('{c}')\ntable = api.table('app{rs(r, ALNUM, 14)}', 'Leads')"]
    elif t == 5:
        v = "figd" + "_" + rs(r, B64U, 40)
        s = {
            "names": ["FIGMA_TOKEN", "FIGMA_ACCESS_TOKEN", "FIGMA_PAT"],
            "label": "Figma personal access token",
            "hdr": "X-Figma-Token: {}",
            "host": "api.figma.com",
        }
        spec = [
            lambda c: f"curl -H 'X-Figma-Token: {c}' https://api.figma.com/v1/files/{rs(r, ALNUM, 22)}",
            lambda c: f'figma-export config: {{ "token": "{c}", "fileId": "{rs(r, ALNUM, 22)}" }}',
        ]
    elif t == 6:
        v = rs(r, HEXL, 32)
        sid = "AC" + rs(r, HEXL, 32)
        s = {"names": ["TWILIO_AUTH_TOKEN"], "label": "Twilio auth token", "host": "api.twilio.com"}
        spec = [
            lambda c: f'client = Client("{sid}", "{c}")',
            lambda c: (
                f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json -u {sid}:{c} --data-urlencode 'Body=test'"
            ),
            lambda c: f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={c}",
        ]
    elif t == 7:
        v = rs(r, HEXL, 32) if maybe(r) else rs(r, HEXL, 40)
        s = {
            "names": ["DD_API_KEY", "DATADOG_API_KEY", "DD_APP_KEY"],
            "label": "Datadog key",
            "hdr": "DD-API-KEY: {}",
            "host": "api.datadoghq.com",
        }
        spec = [
            lambda c: (
                f"DOCKER_CONTENT_TRUST=1 docker run -d -e DD_API_KEY={c} -e DD_SITE=datadoghq.eu gcr.io/datadoghq/agent:7"
            ),
            lambda c: f"datadog.yaml\napi_key: {c}\nsite: datadoghq.com\nlogs_enabled: true",
        ]
    else:
        v = "dop" + "_v1_" + rs(r, HEXL, 64)
        s = {
            "names": ["DIGITALOCEAN_TOKEN", "DO_TOKEN"],
            "label": "DigitalOcean token",
            "hdr": "Authorization: Bearer {}",
            "host": "api.digitalocean.com",
        }
        spec = [lambda c: f"doctl auth init --access-token {c}"]
    return fmt(r, v, s, spec, 0.55), v


def k_email_service_key(r):
    t = r.randrange(5)
    if t <= 1:
        v = "SG" + "." + rs(r, B64U, 22) + "." + rs(r, B64U, 43)
        s = {
            "names": ["SENDGRID_API_KEY", "SENDGRID_KEY", "EMAIL_API_KEY"],
            "label": "SendGrid API key",
            "hdr": "Authorization: Bearer {}",
            "host": "api.sendgrid.com",
        }
        spec = [
            lambda c: f"sg = SendGridAPIClient('{c}')",
            lambda c: f"EMAIL_BACKEND = 'sendgrid_backend.SendgridBackend'\nSENDGRID_API_KEY = \"{c}\"",
            lambda c: f"smtp.sendgrid.net:587 user=apikey pass={c}",
        ]
    elif t == 2:
        v = uuid4(r)
        s = {
            "names": ["POSTMARK_SERVER_TOKEN", "POSTMARK_API_TOKEN", "POSTMARK_TOKEN"],
            "label": "Postmark server token",
            "hdr": "X-Postmark-Server-Token: {}",
            "host": "api.postmarkapp.com",
        }
        spec = [
            lambda c: (
                f'curl "https://api.postmarkapp.com/email" -X POST -H "Accept: application/json" -H "X-Postmark-Server-Token: {c}" -d @mail.json'
            ),
            lambda c: f"config.action_mailer.postmark_settings = {{ api_token: '{c}' }}",
            lambda c: f"Postmark server token (transactional stream) is {c}.",
        ]
        return fmt(r, v, s, spec, 0.75), v
    elif t == 3:
        v = pick(r, ["key-" + rs(r, HEXL, 32), rs(r, HEXL, 32) + "-" + rs(r, HEXL, 8) + "-" + rs(r, HEXL, 8)])
        dom = "mg." + pick(r, DOMAINS)
        s = {"names": ["MAILGUN_API_KEY", "MAILGUN_KEY"], "label": "Mailgun API key", "host": "api.mailgun.net"}
        spec = [
            lambda c: (
                f"curl -s --user 'api:{c}' https://api.mailgun.net/v3/{dom}/messages -F from='ops@{dom}' -F to=me@{dom} -F subject=test -F text=hi"
            ),
            lambda c: f"requests.post(f'https://api.mailgun.net/v3/{dom}/messages', auth=('api', '{c}'), data=payload)",
        ]
    else:
        v = rs(r, HEXL, 32) + "-us" + str(r.randint(1, 21))
        s = {"names": ["MAILCHIMP_API_KEY", "MC_API_KEY"], "label": "Mailchimp API key"}
        spec = [lambda c: f'client.set_config({{"api_key": "{c}", "server": "{c.split("-")[-1]}"}})']
    return fmt(r, v, s, spec), v


def k_sentry_auth_token(r):
    t = r.randrange(3)
    if t == 0:
        payload = {
            "iat": r.randint(1690000000, 1740000000) + 0.5 * r.randint(0, 1),
            "url": "https://sentry.io",
            "region_url": pick(r, ["https://us.sentry.io", "https://de.sentry.io"]),
            "org": pick(r, PROJ),
        }
        v = (
            "sntry"
            + "s_"
            + b64(json.dumps(payload, separators=(",", ":")).encode()).rstrip("=")
            + "_"
            + rs(r, B64U, 43)
        )
    elif t == 1:
        v = "sntry" + "u_" + rs(r, HEXL, 64)
    else:
        v = rs(r, HEXL, 64)
    s = {
        "names": ["SENTRY_AUTH_TOKEN"],
        "label": "Sentry auth token",
        "hdr": "Authorization: Bearer {}",
        "host": "sentry.io/api/0",
    }
    spec = [
        lambda c: f"sentry-cli --auth-token {c} releases new {pick(r, SVCS)}@{r.randint(1, 3)}.{r.randint(0, 30)}.0",
        lambda c: f"~/.sentryclirc\n[auth]\ntoken={c}\n[defaults]\norg={pick(r, PROJ)}",
        lambda c: f'sentryWebpackPlugin({{ org: "{pick(r, PROJ)}", project: "web", authToken: "{c}" }})',
    ]
    return fmt(r, v, s, spec, 0.6 if t < 2 else 0.85), v


def k_idp_client_secret(r):
    t = r.randrange(4)
    if t == 0:
        v = "00" + rs(r, B64U, 40)
        org = pick(r, PROJ)
        s = {
            "names": ["OKTA_API_TOKEN", "OKTA_TOKEN"],
            "label": "Okta API token",
            "hdr": "Authorization: SSWS {}",
            "host": f"{org}.okta.com",
        }
        spec = [
            lambda c: f'curl -H "Authorization: SSWS {c}" https://{org}.okta.com/api/v1/users?limit=25',
            lambda c: f"okta:\n  client:\n    orgUrl: https://{org}.okta.com\n    token: {c}",
        ]
    elif t in (1, 2):
        v = rs(r, B64U, 64)
        dom = pick(r, PROJ) + ".us.auth0.com"
        cid = rs(r, ALNUM, 32)
        s = {"names": ["AUTH0_CLIENT_SECRET", "OIDC_CLIENT_SECRET"], "label": "Auth0 client secret"}
        spec = [
            lambda c: f"AUTH0_DOMAIN={dom}\nAUTH0_CLIENT_ID={cid}\nAUTH0_CLIENT_SECRET={c}",
            lambda c: (
                f"curl --request POST --url https://{dom}/oauth/token --data grant_type=client_credentials --data client_id={cid} --data client_secret={c} --data audience=https://api.{pick(r, DOMAINS)}"
            ),
            lambda c: f"auth0 M2M app '{pick(r, SVCS)}' — client secret {c}",
        ]
    else:
        v = rs(r, ALNUM, 32)
        s = {"names": ["KEYCLOAK_CLIENT_SECRET", "OIDC_CLIENT_SECRET"], "label": "Keycloak client secret"}
        spec = [
            lambda c: f"spring.security.oauth2.client.registration.keycloak.client-secret={c}",
            lambda c: f'"credentials": {{ "secret": "{c}" }},\n"realm": "{pick(r, PROJ)}"',
        ]
    return fmt(r, v, s, spec, 0.6), v


def k_supabase_service_key(r):
    ref = rs(r, LO, 20)
    if maybe(r, 0.8):
        iat = r.randint(1650000000, 1730000000)
        v = make_jwt(r, {"iss": "supabase", "ref": ref, "role": "service_role", "iat": iat, "exp": iat + 315360000})
    else:
        v = "sb" + "_secret_" + rs(r, B64U, 32)
    s = {
        "names": ["SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SERVICE_KEY", "SUPABASE_SECRET_KEY"],
        "label": "Supabase service_role key",
        "hdr": "apikey: {}",
        "host": f"{ref}.supabase.co",
    }
    url = f"https://{ref}.supabase.co"
    spec = [
        lambda c: f"const supabase = createClient('{url}', '{c}')  // service role, server only!",
        lambda c: f'supabase: Client = create_client("{url}", "{c}")',
        lambda c: f"NEXT_PUBLIC_SUPABASE_URL={url}\nSUPABASE_SERVICE_ROLE_KEY={c}",
        lambda c: (
            f'curl \'{url}/rest/v1/profiles?select=*\' -H "apikey: {c}" -H "Authorization: Bearer $SUPABASE_SERVICE_ROLE_KEY"'
        ),
    ]
    return fmt(r, v, s, spec, 0.6), v


def db_password(r):
    pw = human_pw(r, urlsafe=maybe(r, 0.7))
    return pw, urllib.parse.quote(pw, safe="-_.~")


def k_database_url_password(r):
    raw, enc = db_password(r)
    user = pick(
        r, ["postgres", "app", "admin", "svc_" + pick(r, SVCS).replace("-", "_"), "root", "readonly", "etl", "sa"]
    )
    host = pick(
        r,
        [
            f"db.{pick(r, ENVS)}.internal",
            f"{pick(r, PROJ)}-pg.c{rs(r, LOALNUM, 12)}.{pick(r, REGIONS)}.rds.amazonaws.com",
            "localhost",
            "10.0.3.12",
            f"{pick(r, PROJ)}.postgres.database.azure.com",
            "mysql-primary",
        ],
    )
    db = pick(r, ["app", "analytics", "orders", "prod", "warehouse", "users"])
    t = r.randrange(10)
    secret = enc
    if t == 0:
        c = f"postgresql://{user}:{enc}@{host}:5432/{db}"
    elif t == 1:
        c = f"postgres://{user}:{enc}@{host}/{db}?sslmode=require"
    elif t == 2:
        c = f"mysql://{user}:{enc}@{host}:3306/{db}"
    elif t == 3:
        c = f"mongodb+srv://{user}:{enc}@cluster0.{rs(r, LOALNUM, 5)}.mongodb.net/{db}?retryWrites=true&w=majority"
    elif t == 4:
        c = pick(r, [f"redis://default:{enc}@{pick(r, PROJ)}-cache:6379/0", f"rediss://:{enc}@{host}:6380"])
    elif t == 5:
        c = f"amqp://{user}:{enc}@rabbitmq.{pick(r, ENVS)}:5672/%2F"
    elif t == 6:
        c = f"postgresql+psycopg2://{user}:{enc}@{host}:5432/{db}"
    elif t == 7:
        secret = raw.replace(";", "")
        c = f"jdbc:sqlserver://{host}:1433;databaseName={db};user={user};password={secret};encrypt=true"
    elif t == 8:
        secret = raw.replace(";", "")
        c = f"Server=tcp:{host},1433;Initial Catalog={db};User ID={user};Password={secret};Encrypt=True;"
    else:
        c = f"mysql+pymysql://{user}:{enc}@{host}/{db}?charset=utf8mb4"
    names = {
        3: ["MONGO_URI", "MONGODB_URL"],
        4: ["REDIS_URL", "CACHE_URL"],
        5: ["AMQP_URL", "CELERY_BROKER_URL"],
        7: ["JDBC_URL", "SPRING_DATASOURCE_URL"],
        8: ["ConnectionStrings__Default", "SQL_CONNECTION_STRING"],
    }.get(t, ["DATABASE_URL", "DB_URL", "SQLALCHEMY_DATABASE_URI"])
    s = {"names": names, "label": "database connection string"}
    spec = [
        lambda c: f'engine = create_engine("{c}")',
        lambda c: (
            f"psql \"{c}\" -c 'select count(*) from events'" if c.startswith("postgres") else f"connecting with {c}"
        ),
        lambda c: (
            f"sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server failed\n(Background on this error at: https://sqlalche.me/e/20/e3q8)\nURL: {c}"
        ),
        lambda c: f"%sql {c}" if "://" in c else f'ConnectionStrings__Default="{c}"',
        lambda c: f"Prod read replica: {c} — read-only user, fine for dashboards.",
        lambda c: f'spark.read.format("jdbc").option("url", "{c}").option("dbtable", "events").load()',
    ]
    return fmt(r, c, s, spec, 0.5), secret


def k_config_password(r):
    pw = human_pw(r)
    user = pick(r, ["app", "admin", "postgres", "wordpress", "grafana", "keycloak", "rabbit"])
    t = r.randrange(12)
    if t == 0:
        txt = f"DB_USER={user}\nDB_PASSWORD={pw}\nDB_HOST=db\nDB_PORT=5432"
    elif t == 1:
        txt = (
            f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: {user}\n"
            f'      POSTGRES_PASSWORD: {qv(pw)}\n      POSTGRES_DB: app\n    ports:\n      - "5432:5432"'
        )
    elif t == 2:
        txt = f"# values-{pick(r, ENVS)}.yaml\npostgresql:\n  auth:\n    username: {user}\n    password: {qv(pw)}\n    database: app\n  primary:\n    persistence:\n      size: 20Gi"
    elif t == 3:
        txt = f"# group_vars/{pick(r, ['all', 'dbservers', 'web'])}.yml\nmysql_root_password: {qv(pw)}\nmysql_databases:\n  - name: app"
    elif t == 4:
        txt = (
            f"spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.username={user}\n"
            f"spring.datasource.password={pw}\nspring.jpa.hibernate.ddl-auto=validate"
        )
    elif t == 5:
        txt = (
            f"DATABASES = {{\n    'default': {{\n        'ENGINE': 'django.db.backends.postgresql',\n        'NAME': 'app',\n"
            f"        'USER': '{user}',\n        'PASSWORD': '{pw}',\n        'HOST': 'localhost',\n    }}\n}}"
        )
    elif t == 6:
        txt = f"production:\n  adapter: postgresql\n  database: app_production\n  username: {user}\n  password: {qv(pw)}\n  host: <%= ENV['DB_HOST'] %>"
    elif t == 7:
        txt = f"define( 'DB_NAME', 'wordpress' );\ndefine( 'DB_USER', '{user}' );\ndefine( 'DB_PASSWORD', '{pw}' );\ndefine( 'DB_HOST', 'localhost' );"
    elif t == 8:
        txt = f"$ cat ~/.pgpass\n{pick(r, ['db.internal', 'localhost', '*'])}:5432:*:{user}:{pw}"
    elif t == 9:
        txt = f"redis.conf: bind 0.0.0.0\nrequirepass {pw}\nmaxmemory 2gb"
    elif t == 10:
        txt = f'resource "azurerm_linux_virtual_machine" "bastion" {{\n  admin_username = "{user}"\n  admin_password = "{pw}"\n  disable_password_authentication = false\n}}'
    else:
        txt = f"[grafana.ini]\n[security]\nadmin_user = {user}\nadmin_password = {pw}"
    if maybe(r, 0.2):
        txt = (
            pick(
                r,
                [
                    "Saving the config that finally worked:\n",
                    "for reference, current setup ->\n",
                    "note: this is the local override\n",
                ],
            )
            + txt
        )
    return txt, pw


def k_smtp_password(r):
    t = r.randrange(4)
    if t == 0:
        pw = " ".join(rs(r, LO, 4) for _ in range(4)) if maybe(r, 0.4) else rs(r, LO, 16)
        host, user = "smtp.gmail.com", f"{pick(r, FIRST)}.ops@gmail.com"
    elif t == 1:
        pw = "B" + rs(r, ALNUM + "/+", 43)
        host, user = f"email-smtp.{pick(r, REGIONS)}.amazonaws.com", "A" + "KIA" + rs(r, B32, 16)
        user = f"ses-smtp-user.{r.randint(10000000, 99999999)}"
    elif t == 2:
        pw = human_pw(r)
        host, user = f"smtp.{pick(r, DOMAINS)}", f"noreply@{pick(r, DOMAINS)}"
    else:
        pw = rs(r, ALNUM, 20)
        host, user = pick(r, ["smtp.office365.com", "smtp.mailtrap.io", "smtp.zoho.com"]), f"alerts@{pick(r, DOMAINS)}"
    port = pick(r, [587, 465, 25, 2525])
    tmpl = [
        f"EMAIL_HOST = '{host}'\nEMAIL_PORT = {port}\nEMAIL_HOST_USER = '{user}'\nEMAIL_HOST_PASSWORD = '{pw}'\nEMAIL_USE_TLS = True",
        f"SMTP_HOST={host}\nSMTP_USER={user}\nSMTP_PASS={pw}",
        f"const transporter = nodemailer.createTransport({{ host: '{host}', port: {port}, auth: {{ user: '{user}', pass: '{pw}' }} }});",
        f"/etc/postfix/sasl_passwd\n[{host}]:{port} {user}:{pw}",
        f"config.action_mailer.smtp_settings = {{ address: '{host}', port: {port}, user_name: '{user}', password: '{pw}' }}",
        f"Gmail app password for the alert mailer is {pw} (account {user}).",
        f'smtp:\n  host: {host}\n  port: {port}\n  username: {user}\n  password: "{pw}"',
        f"swaks --to test@{pick(r, DOMAINS)} --server {host}:{port} --auth LOGIN --auth-user {user} --auth-password '{pw}' --tls",
    ]
    return pick(r, tmpl), pw


def k_git_credential(r):
    t = r.randrange(5)
    user = pick(r, FIRST)
    if t == 0:
        v = rs(r, "abcdefghijklmnopqrstuvwxyz234567", 52)
        host = "dev.azure.com"
        line = f"https://{user}:{v}@dev.azure.com/{pick(r, PROJ)}/_git/{pick(r, SVCS)}"
    elif t == 1:
        v = human_pw(r, urlsafe=True)
        host = f"git.{pick(r, DOMAINS)}"
        line = f"https://{user}:{v}@{host}"
    elif t == 2:
        v = "gl" + "pat-" + rs(r, B64U, 20)
        line = f"https://oauth2:{v}@gitlab.com"
    elif t == 3:
        v = gh_classic(r, "gh" + "p_")
        line = f"https://{user}:{v}@github.com"
    else:
        v = "AT" + "BB" + rs(r, ALNUM, 28) + rs(r, HEXU, 8)
        line = f"https://{user}@bitbucket.org".replace("@", f":{v}@")
    txt = pick(
        r,
        [
            f"$ cat ~/.git-credentials\n{line}",
            f"~/.git-credentials:\n{line}\n(credential.helper=store)",
            f"git push {line}/{pick(r, PROJ)}/{pick(r, SVCS)}.git HEAD:main",
            f"remote: Invalid username or password.\nfatal: Authentication failed for '{line}/{pick(r, PROJ)}/{pick(r, SVCS)}.git/'",
            f'[remote "origin"]\n\turl = {line}/{pick(r, PROJ)}/{pick(r, SVCS)}.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*',
            f"pip install git+{line}/{pick(r, PROJ)}/internal-lib.git@v{r.randint(0, 3)}.{r.randint(0, 9)}",
            f"Cloning via {line}/{pick(r, PROJ)}/{pick(r, SVCS)} works from the build box; ssh does not.",
        ],
    )
    return txt, v


def k_pip_index_credential(r):
    user = pick(r, ["__token__", "ci", pick(r, FIRST), "aws", "deploy"])
    t = r.randrange(4)
    if t == 0:
        v = rs(r, B64U, 40) + "." + rs(r, B64U, 20) if maybe(r) else human_pw(r, urlsafe=True)
        host = f"nexus.{pick(r, DOMAINS)}/repository/pypi-internal/simple"
    elif t == 1:
        v = make_jwt(r, {"sub": "ci", "iat": r.randint(1690000000, 1740000000)}, sig_bytes=32)
        user = "aws"
        host = f"{pick(r, PROJ)}-{r.randint(10**11, 10**12 - 1)}.d.codeartifact.{pick(r, REGIONS)}.amazonaws.com/pypi/internal/simple/"
    elif t == 2:
        v = "AKC" + "p" + rs(r, ALNUM, 69)
        host = f"{pick(r, PROJ)}.jfrog.io/artifactory/api/pypi/pypi-local/simple"
    else:
        v = rs(r, "abcdefghijklmnopqrstuvwxyz234567", 52)
        user = pick(r, FIRST)
        host = f"pkgs.dev.azure.com/{pick(r, PROJ)}/_packaging/feed/pypi/simple/"
    url = f"https://{user}:{v}@{host}"
    txt = pick(
        r,
        [
            f"pip install --index-url {url} {pick(r, PROJ)}-core==1.{r.randint(0, 20)}.0",
            f"$ cat ~/.config/pip/pip.conf\n[global]\nindex-url = {url}",
            f"--extra-index-url {url}\nrequests==2.31.0\nnumpy==1.26.4",
            f"PIP_INDEX_URL={url}",
            f'[[tool.uv.index]]\nname = "internal"\nurl = "{url}"',
            f"RUN pip install --extra-index-url {url} -r requirements.txt",
        ],
    )
    return txt, v


def k_private_key(r):
    pem = private_key_pem(r)
    host = pick(r, ["bastion", "deploy", "prod-db", "build-01", "jump"])
    txt = pick(
        r,
        [
            f"$ cat ~/.ssh/id_{pick(r, ['rsa', 'ed25519', 'deploy'])}\n{pem}",
            f"deploy key for {host} (paste into the CI secret):\n{pem}",
            f"{pem}\n\n^ tls.key for {pick(r, PROJ)}.{pick(r, DOMAINS)}",
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {pick(r, SVCS)}-tls\ntype: kubernetes.io/tls\nstringData:\n  tls.key: |\n"
            + "\n".join("    " + ln for ln in pem.split("\n")),
            "- name: SSH key\n  run: |\n    mkdir -p ~/.ssh\n    cat > ~/.ssh/id_ed25519 <<'EOF'\n"
            + "\n".join("    " + ln for ln in pem.split("\n"))
            + "\n    EOF",
            f"User pasted their key so I could debug the handshake:\n```\n{pem}\n```",
        ],
    )
    if "    " + pem.split("\n")[1] in txt:
        # indented variants: the secret is the indented block as it appears
        idx = txt.index("    " + pem.split("\n")[0]) + 4
        end = txt.index(pem.split("\n")[-1], idx) + len(pem.split("\n")[-1])
        return txt, txt[idx:end]
    return txt, pem


def access_jwt(r, sig_bytes=None):
    iat = r.randint(1690000000, 1740000000)
    iss = pick(
        r,
        [
            f"https://{pick(r, PROJ)}.auth0.com/",
            f"https://login.{pick(r, DOMAINS)}",
            "https://accounts.google.com",
            f"https://cognito-idp.{pick(r, REGIONS)}.amazonaws.com/{pick(r, REGIONS)}_{rs(r, ALNUM, 9)}",
        ],
    )
    payload = {
        "iss": iss,
        "sub": pick(r, [uuid4(r), "auth0|" + rs(r, HEXL, 24), str(r.randint(10**20, 10**21))]),
        "aud": pick(r, ["api", f"https://api.{pick(r, DOMAINS)}", rs(r, LOALNUM, 26)]),
        "iat": iat,
        "exp": iat + pick(r, [900, 3600, 86400]),
    }
    if maybe(r):
        payload["email"] = f"{pick(r, FIRST)}@{pick(r, DOMAINS)}"
    if maybe(r):
        payload["scope"] = pick(r, ["openid profile email", "read:orders write:orders", "admin"])
    alg = pick(r, ["RS256", "RS256", "HS256", "ES256"])
    sb = sig_bytes or {"RS256": 256, "HS256": 32, "ES256": 64}[alg]
    return make_jwt(r, payload, alg=alg, sig_bytes=sb, kid=rs(r, B64U, 20) if alg != "HS256" else None)


def k_jwt_token(r):
    v = access_jwt(r)
    s = {
        "names": ["ACCESS_TOKEN", "AUTH_TOKEN", "API_TOKEN", "BEARER_TOKEN", "ID_TOKEN"],
        "label": "bearer token",
        "hdr": "Authorization: Bearer {}",
        "host": "api." + pick(r, DOMAINS),
    }
    spec = [
        lambda c: f"localStorage.getItem('access_token')\n'{c}'",
        lambda c: (
            f'HTTP/1.1 200 OK\nContent-Type: application/json\n\n{{"access_token":"{c}","token_type":"Bearer","expires_in":3600}}'
        ),
        lambda c: f"Postman env → token = {c}",
        lambda c: f"ws = websocket.create_connection('wss://rt.{pick(r, DOMAINS)}/socket?token={c}')",
        lambda c: f"Access token for the QA admin account (valid ~24h): {c}",
    ]
    return fmt(r, v, s, spec, 0.4), v


def k_session_cookie(r):
    t = r.randrange(6)
    host = "app." + pick(r, DOMAINS)
    if t == 0:
        name, v = "sessionid", rs(r, LOALNUM, 32)
    elif t == 1:
        name, v = (
            "connect.sid",
            "s%3A" + rs(r, B64U, 32) + "." + urllib.parse.quote(b64(rbytes(r, 32)).rstrip("="), safe=""),
        )
    elif t == 2:
        name = f"_{pick(r, PROJ)}_session"
        v = urllib.parse.quote(b64(rbytes(r, r.choice([90, 150]))), safe="") + "--" + rs(r, HEXL, 40)
    elif t == 3:
        name, v = "PHPSESSID", rs(r, LOALNUM, 26)
    elif t == 4:
        name = pick(r, ["__Secure-next-auth.session-token", "laravel_session", ".AspNetCore.Cookies"])
        v = b64u(rbytes(r, r.choice([120, 200])))
    else:
        name, v = (
            "session",
            b64u(json.dumps({"_user_id": str(r.randint(1, 9999)), "_fresh": True}).encode())
            + "."
            + b64u(rbytes(r, 4))
            + "."
            + b64u(rbytes(r, 20)),
        )
    txt = pick(
        r,
        [
            f"GET /dashboard HTTP/1.1\nHost: {host}\nCookie: {name}={v}; theme=dark\nAccept: text/html",
            f"curl 'https://{host}/api/export' -H 'cookie: {name}={v}' --compressed",
            f"Set-Cookie: {name}={v}; Path=/; HttpOnly; Secure; SameSite=Lax",
            f"To reproduce as the customer, paste cookie {name}={v} in devtools.",
            f"cookies = {{'{name}': '{v}'}}\nrequests.get('https://{host}/admin', cookies=cookies)",
            f"[{hhmm(r)}] {pick(r, FIRST)}: here's my {name} cookie so you can see the bug: {v}",
        ],
    )
    return txt, v


def k_oauth_token(r):
    t = r.randrange(6)
    if t == 0:
        v = "1//0" + rs(r, B64U, 99)
        lab, names = "Google OAuth refresh token", ["GOOGLE_REFRESH_TOKEN", "GDRIVE_REFRESH_TOKEN"]
    elif t == 1:
        v = "ya" + "29." + rs(r, B64U, r.randint(150, 220))
        lab, names = "Google OAuth access token", ["GOOGLE_ACCESS_TOKEN", "GCLOUD_TOKEN"]
    elif t == 2:
        v = "GOC" + "SPX-" + rs(r, B64U, 28)
        lab, names = "Google OAuth client secret", ["GOOGLE_CLIENT_SECRET", "OAUTH_CLIENT_SECRET"]
    elif t == 3:
        v = "0.A" + rs(r, B64U, r.randint(300, 400))
        lab, names = "Microsoft refresh token", ["MS_REFRESH_TOKEN", "AZURE_REFRESH_TOKEN"]
    elif t == 4:
        v = rs(r, HEXL, 40)
        lab, names = "GitHub OAuth app client secret", ["GITHUB_CLIENT_SECRET", "GH_OAUTH_CLIENT_SECRET"]
    else:
        v = rs(r, B64U, r.choice([43, 64, 86]))
        lab, names = "OAuth refresh token", ["REFRESH_TOKEN", "OAUTH_REFRESH_TOKEN", "SPOTIFY_REFRESH_TOKEN"]
    s = {"names": names, "label": lab}
    cid = f"{r.randint(10**11, 10**12 - 1)}-{rs(r, LOALNUM, 32)}.apps.googleusercontent.com"
    spec = [
        lambda c: (
            f'{{\n  "refresh_token": "{c}",\n  "scope": "https://www.googleapis.com/auth/drive.readonly",\n  "token_type": "Bearer"\n}}'
        ),
        lambda c: (
            f"curl -d client_id={cid} -d refresh_token={c} -d grant_type=refresh_token https://oauth2.googleapis.com/token"
        ),
        lambda c: f'token.json written: {{"token": null, "refresh_token": "{c}", "client_id": "{cid}"}}',
        lambda c: (
            f'rclone.conf\n[gdrive]\ntype = drive\ntoken = {{"access_token":"","refresh_token":"{c}","expiry":"{iso(r)}"}}'
        ),
    ]
    if t == 2:
        spec = [
            lambda c: (
                f'{{"web":{{"client_id":"{cid}","project_id":"{pick(r, PROJ)}","client_secret":"{c}","redirect_uris":["http://localhost:8080/callback"]}}}}'
            )
        ]
    if t == 4:
        spec = [lambda c: f"GitHub OAuth app: client id Ov23li{rs(r, ALNUM, 14)}, client secret {c}"]
    return fmt(r, v, s, spec, 0.5), v


def k_webhook_secret(r):
    t = r.randrange(5)
    if t <= 1:
        v = "wh" + "sec_" + b64(rbytes(r, 24 if t == 0 else 32)).rstrip("=")
        s = {
            "names": ["STRIPE_WEBHOOK_SECRET", "WEBHOOK_SIGNING_SECRET", "SVIX_SECRET"],
            "label": "webhook signing secret",
        }
        spec = [
            lambda c: f'event = stripe.Webhook.construct_event(payload, sig_header, "{c}")',
            lambda c: (
                f"> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is {c} (^C to quit)"
            ),
            lambda c: f'const wh = new Webhook("{c}");\nconst msg = wh.verify(payload, headers);',
        ]
    elif t == 2:
        v = rs(r, HEXL, 40) if maybe(r) else rs(r, ALNUM, 32)
        s = {"names": ["GITHUB_WEBHOOK_SECRET", "WEBHOOK_SECRET", "HMAC_SECRET"], "label": "GitHub webhook secret"}
        spec = [
            lambda c: (
                f'resource "github_repository_webhook" "ci" {{\n  repository = "{pick(r, SVCS)}"\n  configuration {{\n    url          = "https://ci.{pick(r, DOMAINS)}/hook"\n    content_type = "json"\n    secret       = "{c}"\n  }}\n}}'
            ),
            lambda c: f'mac = hmac.new(b"{c}", request.data, hashlib.sha256).hexdigest()',
        ]
    elif t == 3:
        v = f"https://discord.com/api/webhooks/{r.randint(10**17, 10**19)}/{rs(r, B64U, 68)}"
        s = {"names": ["DISCORD_WEBHOOK_URL", "DISCORD_WEBHOOK"], "label": "Discord webhook URL"}
        spec = [
            lambda c: f'requests.post("{c}", json={{"content": "nightly build failed"}})',
            lambda c: f"Discord alert hook for #builds: {c}",
        ]
    else:
        v = (
            f"https://{pick(r, PROJ)}.webhook.office.com/webhookb2/{uuid4(r)}@{uuid4(r)}/IncomingWebhook/"
            f"{rs(r, HEXL, 32)}/{uuid4(r)}/V2{rs(r, B64U, 43)}"
        )
        s = {"names": ["TEAMS_WEBHOOK_URL", "MSTEAMS_WEBHOOK"], "label": "Teams incoming webhook URL"}
        spec = [lambda c: f"Invoke-RestMethod -Method Post -ContentType 'application/json' -Body $json -Uri '{c}'"]
    return fmt(r, v, s, spec, 0.55), v


def k_bot_token(r):
    t = r.randrange(3)
    if t == 0:
        v = f"{r.randint(10**8, 10**10)}:AA{rs(r, B64U, 33)}"
        s = {"names": ["TELEGRAM_BOT_TOKEN", "TG_TOKEN", "BOT_TOKEN"], "label": "Telegram bot token"}
        spec = [
            lambda c: f"curl https://api.telegram.org/bot{c}/getUpdates",
            lambda c: (
                f"Done! Congratulations on your new bot. You will find it at t.me/{pick(r, PROJ)}_alerts_bot. Use this token to access the HTTP API:\n{c}\nKeep your token secure and store it safely."
            ),
            lambda c: f'app = ApplicationBuilder().token("{c}").build()',
        ]
    elif t == 1:
        bid = str(r.randint(10**17, 10**19))
        v = b64(bid.encode()).rstrip("=") + "." + rs(r, B64U, 6) + "." + rs(r, B64U, 38)
        s = {
            "names": ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"],
            "label": "Discord bot token",
            "hdr": "Authorization: Bot {}",
            "host": "discord.com/api/v10",
        }
        spec = [
            lambda c: f"client.run('{c}')",
            lambda c: f"discord.errors.LoginFailure: Improper token has been passed. (token={c})",
        ]
    else:
        v = "shp" + pick(r, ["at", "ss", "ca"]) + "_" + rs(r, HEXL, 32)
        shop = pick(r, PROJ) + "-store"
        s = {
            "names": ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"],
            "label": "Shopify admin API token",
            "hdr": "X-Shopify-Access-Token: {}",
            "host": f"{shop}.myshopify.com",
        }
        spec = [lambda c: f"shopify.Session('{shop}.myshopify.com', '2024-07', '{c}')"]
    return fmt(r, v, s, spec, 0.5), v


def k_encryption_key(r):
    t = r.randrange(8)
    if t == 0:
        v = b64u(rbytes(r, 32), pad=True)
        s = {"names": ["FERNET_KEY", "ENCRYPTION_KEY", "AIRFLOW__CORE__FERNET_KEY"], "label": "Fernet key"}
        spec = [lambda c: f"f = Fernet(b'{c}')\ntoken = f.encrypt(b'ssn=...')", lambda c: f"[core]\nfernet_key = {c}"]
    elif t == 1:
        v = rs(r, HEXL, 64)
        s = {
            "names": ["AES_KEY", "DATA_ENCRYPTION_KEY", "MASTER_KEY", "ENCRYPTION_KEY_HEX"],
            "label": "AES-256 key (hex)",
        }
        spec = [
            lambda c: f'key = bytes.fromhex("{c}")\ncipher = AES.new(key, AES.MODE_GCM)',
            lambda c: f"openssl enc -aes-256-cbc -K {c} -iv {rs(r, HEXL, 32)} -in backup.tar -out backup.tar.enc",
        ]
    elif t == 2:
        v = b64(rbytes(r, 32))
        s = {
            "names": ["ENCRYPTION_KEY", "NEXTAUTH_SECRET", "JWT_SECRET", "SESSION_SECRET", "COOKIE_SECRET"],
            "label": "signing/encryption secret",
        }
        spec = [lambda c: f"APP_KEY=base64:{c}", lambda c: f'jwt.encode(claims, "{c}", algorithm="HS256")']
    elif t == 3:
        v = pick(r, ["", "django-insecure-"]) + rs(r, LO + DIG + "!@#%^&*(-_=+)", 50)
        s = {"names": ["SECRET_KEY", "DJANGO_SECRET_KEY"], "label": "Django SECRET_KEY"}
        spec = [lambda c: f"# settings.py\nSECRET_KEY = '{c}'\nDEBUG = False"]
    elif t == 4:
        v = rs(r, HEXL, 128)
        s = {"names": ["SECRET_KEY_BASE", "RAILS_MASTER_KEY_BASE"], "label": "Rails secret_key_base"}
        spec = [lambda c: f"production:\n  secret_key_base: {c}"]
    elif t == 5:
        v = rs(r, HEXL, 32)
        s = {"names": ["RAILS_MASTER_KEY"], "label": "Rails master key"}
        spec = [
            lambda c: f"$ cat config/master.key\n{c}",
            lambda c: f"docker build --build-arg RAILS_MASTER_KEY={c} -t web .",
        ]
    elif t == 6:
        v = "AGE-" + "SECRET-KEY-1" + rs(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
        s = {"names": ["SOPS_AGE_KEY", "AGE_SECRET_KEY"], "label": "age identity"}
        spec = [
            lambda c: f"# created: {iso(r)}\n# public key: age1{rs(r, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}\n{c}"
        ]
    else:
        v = b64(rbytes(r, 32))
        s = {"names": ["WG_PRIVATE_KEY"], "label": "WireGuard private key"}
        spec = [
            lambda c: f"[Interface]\nPrivateKey = {c}\nAddress = 10.8.0.{r.randint(2, 250)}/24\nListenPort = 51820",
            lambda c: f"wg set wg0 private-key <(echo {c})",
        ]
    return fmt(r, v, s, spec, 0.55), v


def k_chat_password(r):
    pw = human_pw(r)
    who = pick(r, FIRST)
    thing = pick(
        r,
        [
            "wifi",
            "guest wifi",
            "office wifi",
            "grafana admin",
            "router admin",
            "jenkins admin",
            "VPN",
            "staging admin",
            "the shared test account",
            "rabbitmq management",
            "NAS",
            "pfSense",
            "Kibana elastic user",
        ],
    )
    txt = pick(
        r,
        [
            f"The {thing} password is {pw}",
            f"{thing} password is {pw} — changed it after the offsite.",
            f"[{hhmm(r)}] {who}: what's the {thing} pw?\n[{hhmm(r)}] {pick(r, FIRST)}: {pw}",
            f"[{hhmm(r)}] {who}: login is admin / {pw}",
            f"User mentioned their {thing} password ({pw}) while we were debugging; don't store it elsewhere.",
            f"creds for {thing}: user `admin`, pass `{pw}`",
            f"Password: {pw}\nUsername: {pick(r, ['admin', 'root', 'elastic', who])}\nURL: https://{pick(r, ['grafana', 'jenkins', 'kibana', 'nas'])}.{pick(r, DOMAINS)}",
            f"{pw} is the {thing} password btw",
            f"ssh {who}@{pick(r, ['10.0.0.5', 'bastion.' + pick(r, DOMAINS)])}  # password: {pw}",
            f'sudo password on the build VM is "{pw}".',
            f"mysql -u root -p'{pw}' -h 127.0.0.1 app",
            f"$ sshpass -p '{pw}' ssh deploy@{pick(r, ['10.1.2.3', 'web-01'])} 'sudo systemctl restart app'",
            f"the zip with the exports is encrypted, passphrase: {pw}",
        ],
    )
    return txt, pw


def k_infra_token(r):
    t = r.randrange(7)
    if t == 0:
        v = "hv" + "s." + (rs(r, ALNUM, 24) if maybe(r) else "CAESI" + rs(r, B64U, 86))
        s = {
            "names": ["VAULT_TOKEN"],
            "label": "Vault token",
            "hdr": "X-Vault-Token: {}",
            "host": "vault." + pick(r, DOMAINS) + ":8200",
        }
        spec = [
            lambda c: f"$ vault login {c}\nSuccess! You are now authenticated.",
            lambda c: (
                f"Key                  Value\n---                  -----\ntoken                {c}\ntoken_accessor       {rs(r, ALNUM, 24)}\ntoken_duration       768h"
            ),
        ]
    elif t == 1:
        v = rs(r, ALNUM, 14) + ".atlas" + "v1." + rs(r, ALNUM, 67)
        s = {
            "names": ["TFE_TOKEN", "TF_TOKEN_app_terraform_io", "TF_API_TOKEN"],
            "label": "Terraform Cloud token",
            "hdr": "Authorization: Bearer {}",
            "host": "app.terraform.io",
        }
        spec = [
            lambda c: (
                f'~/.terraform.d/credentials.tfrc.json\n{{\n  "credentials": {{\n    "app.terraform.io": {{\n      "token": "{c}"\n    }}\n  }}\n}}'
            ),
            lambda c: f'credentials "app.terraform.io" {{\n  token = "{c}"\n}}',
        ]
    elif t == 2:
        v = (
            "dp"
            + "."
            + pick(r, ["st", "pt", "sa"])
            + "."
            + (pick(r, ENVS) + "." if maybe(r) else "")
            + rs(r, ALNUM, 43)
        )
        s = {"names": ["DOPPLER_TOKEN"], "label": "Doppler token"}
        spec = [lambda c: f"doppler run --token {c} -- npm start"]
    elif t == 3:
        v = "pul" + "-" + rs(r, HEXL, 40)
        s = {"names": ["PULUMI_ACCESS_TOKEN"], "label": "Pulumi access token"}
        spec = [
            lambda c: (
                f"pulumi login --cloud-url https://api.pulumi.com && PULUMI_ACCESS_TOKEN={c} pulumi up -s {pick(r, ENVS)}"
            )
        ]
    elif t == 4:
        v = "gl" + "sa_" + rs(r, ALNUM, 32) + "_" + rs(r, HEXL, 8)
        s = {
            "names": ["GRAFANA_TOKEN", "GRAFANA_SERVICE_ACCOUNT_TOKEN"],
            "label": "Grafana service account token",
            "hdr": "Authorization: Bearer {}",
            "host": "grafana." + pick(r, DOMAINS),
        }
        spec = [lambda c: f'provider "grafana" {{\n  url  = "https://grafana.{pick(r, DOMAINS)}"\n  auth = "{c}"\n}}']
    elif t == 5:
        v = rs(r, B64U, 40)
        s = {
            "names": ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
            "label": "Cloudflare API token",
            "hdr": "Authorization: Bearer {}",
            "host": "api.cloudflare.com/client/v4",
        }
        spec = [
            lambda c: f"wrangler: export CLOUDFLARE_API_TOKEN={c} && npx wrangler deploy",
            lambda c: f"dns_cloudflare_api_token = {c}",
        ]
    else:
        v = "HRKU-" + rs(r, B64U, 60) if maybe(r) else uuid4(r)
        s = {
            "names": ["HEROKU_API_KEY"],
            "label": "Heroku API key",
            "hdr": "Authorization: Bearer {}",
            "host": "api.heroku.com",
        }
        spec = [
            lambda c: (
                f"$ cat ~/.netrc\nmachine api.heroku.com\n  login {pick(r, FIRST)}@{pick(r, DOMAINS)}\n  password {c}"
            ),
            lambda c: f"HEROKU_API_KEY={c} heroku ps -a {pick(r, PROJ)}",
        ]
    return fmt(r, v, s, spec, 0.6), v


KINDS = {
    "aws_access_key_id": k_aws_access_key_id,
    "aws_secret_access_key": k_aws_secret_access_key,
    "gcp_service_account_key": k_gcp_service_account_key,
    "google_api_key": k_google_api_key,
    "azure_client_secret": k_azure_client_secret,
    "azure_storage_credential": k_azure_storage_credential,
    "github_token": k_github_token,
    "gitlab_token": k_gitlab_token,
    "ci_token": k_ci_token,
    "npm_token": k_npm_token,
    "pypi_token": k_pypi_token,
    "registry_token": k_registry_token,
    "stripe_key": k_stripe_key,
    "slack_token": k_slack_token,
    "openai_api_key": k_openai_api_key,
    "anthropic_api_key": k_anthropic_api_key,
    "saas_api_key": k_saas_api_key,
    "email_service_key": k_email_service_key,
    "sentry_auth_token": k_sentry_auth_token,
    "idp_client_secret": k_idp_client_secret,
    "supabase_service_key": k_supabase_service_key,
    "database_url_password": k_database_url_password,
    "config_password": k_config_password,
    "smtp_password": k_smtp_password,
    "git_credential": k_git_credential,
    "pip_index_credential": k_pip_index_credential,
    "private_key": k_private_key,
    "jwt_token": k_jwt_token,
    "session_cookie": k_session_cookie,
    "oauth_token": k_oauth_token,
    "webhook_secret": k_webhook_secret,
    "bot_token": k_bot_token,
    "encryption_key": k_encryption_key,
    "chat_password": k_chat_password,
    "infra_token": k_infra_token,
}


# --------------------------------------------------------------------------
# lookalikes
# --------------------------------------------------------------------------
def la_hash(r):
    data = rbytes(r, 16)
    md5, sha1, sha256 = hashlib.md5(data).hexdigest(), hashlib.sha1(data).hexdigest(), hashlib.sha256(data).hexdigest()
    f = pick(
        r,
        [
            "release.tar.gz",
            "model.safetensors",
            "backup-2024-06-01.sql.gz",
            "installer.dmg",
            "data.parquet",
            "weights.pt",
        ],
    )
    return pick(
        r,
        [
            f"sha256sum {f}\n{sha256}  {f}",
            f"md5 of the upload matches: {md5}",
            f"Verified checksum {sha1} for {f} before restoring.",
            f"expected sha256={sha256}, got sha256={hashlib.sha256(data[::-1]).hexdigest()} -> re-download {f}",
            f"SHA256 ({f}) = {sha256}",
            f"| file | sha256 |\n|---|---|\n| {f} | `{sha256}` |",
            f"dedup key for the event pipeline is sha1(payload) e.g. {sha1}",
            f"cache_key: {pick(r, ['deps', 'pip', 'node-modules'])}-{sha256}",
            f'ETag: "{md5}"',
            f"huggingface snapshot {sha1} of {pick(r, PROJ)}/bert-small downloaded to ~/.cache",
        ],
    )


def la_uuid(r):
    return pick(
        r,
        [
            f"Tenant id for the staging org is {uuid4(r)} (not secret, it's in the URL).",
            f"request_id={uuid4(r)} trace_id={rs(r, HEXL, 32)} status=502 path=/v1/checkout",
            f"Idempotency-Key: {uuid4(r)}",
            f"AZURE_TENANT_ID={uuid4(r)}\nAZURE_SUBSCRIPTION_ID={uuid4(r)}\nAZURE_CLIENT_ID={uuid4(r)}\n# secret comes from workload identity, nothing stored here",
            f"Grafana dashboard uid {rs(r, ALNUM, 9)}, datasource uid {uuid4(r)}",
            f"kubectl get pod {pick(r, SVCS)}-{rs(r, LOALNUM, 10)}-{rs(r, LOALNUM, 5)} -o jsonpath='{{.metadata.uid}}'\n{uuid4(r)}",
            f"Jira automation rule {uuid4(r)} fires on every merged PR.",
            f"correlationId: {uuid4(r)} — user reported the timeout at {hhmm(r)}",
            f'subscription_id = "{uuid4(r)}"\nresource_group  = "rg-{pick(r, PROJ)}-{pick(r, ENVS)}"',
        ],
    )


def ulid(r):
    return rs(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[:8], 1) + rs(r, CROCK, 25)


def la_ids(r):
    return pick(
        r,
        [
            f"order {ulid(r)} stuck in PENDING since {iso(r)}",
            f"event_id={ulid(r)} type=invoice.paid",
            f"ksuid {rs(r, B62, 27)} assigned to the batch",
            f'db.orders.find({{_id: ObjectId("{rs(r, HEXL, 24)}")}})',
            f"tweet id {r.randint(10**18, 10**19)} and discord message {r.randint(10**17, 10**18)}",
            f"Customer {pick(r, ['cus', 'acct'])}_{rs(r, ALNUM, 14)} disputed charge ch_{rs(r, ALNUM, 24)}; price_{rs(r, ALNUM, 24)} is the annual plan.",
            f"traceparent: 00-{rs(r, HEXL, 32)}-{rs(r, HEXL, 16)}-01",
            f"X-Amzn-Trace-Id: Root=1-{rs(r, HEXL, 8)}-{rs(r, HEXL, 24)}",
            f"x-amz-request-id: {rs(r, UPALNUM, 16)}\nx-amz-id-2: {b64(rbytes(r, 57))}",
            f"X-Request-Id: req_{rs(r, ALNUM, 14)}",
            f"Order #{r.randint(100000, 999999)}-{r.randint(1000, 9999)} shipped, UPS tracking 1Z{rs(r, UPALNUM, 6)}{r.randint(10**9, 10**10 - 1)}",
            f"USPS tracking {r.randint(10**21, 10**22 - 1)} — delivered {day(r)}",
            f"Coupon code {pick(r, ['SPRING', 'WELCOME', 'BF', 'DEVDAYS'])}{r.randint(10, 50)}-{rs(r, UPALNUM, 6)} gives 20% off the first month.",
            f"Invoice INV-{r.randint(2023, 2025)}-{r.randint(1, 99999):05d} paid via wire, ref {rs(r, UPALNUM, 16)}",
            f"Slack: channel C{rs(r, UPALNUM, 10)}, user U{rs(r, UPALNUM, 10)}, team T{rs(r, UPALNUM, 10)}",
            f"Sentry issue {pick(r, PROJ).upper()}-{rs(r, UPALNUM, 3)}, event {rs(r, HEXL, 32)}",
            f"GA measurement id G-{rs(r, UPALNUM, 10)}; GTM container GTM-{rs(r, UPALNUM, 7)}",
            f"CloudFront distribution E{rs(r, UPALNUM, 13)} invalidation I{rs(r, UPALNUM, 13)} completed",
            f"instance i-0{rs(r, HEXL, 16)} in vpc-0{rs(r, HEXL, 16)}, sg-0{rs(r, HEXL, 16)}, ami-0{rs(r, HEXL, 16)}",
            f"GitHub Actions run https://github.com/{pick(r, PROJ)}/{pick(r, SVCS)}/actions/runs/{r.randint(10**9, 10**10)}/job/{r.randint(10**10, 10**11)} failed on step 4",
            f"Booking reference {rs(r, UPALNUM, 6)}, e-ticket {r.randint(10**12, 10**13 - 1)}",
        ],
    )


def la_commit(r):
    sha = rs(r, HEXL, 40)
    return pick(
        r,
        [
            f"Regression introduced in {sha[:7]} ({pick(r, ['bump deps', 'refactor auth middleware', 'switch to uv'])}); reverting.",
            f"git checkout {sha} && make test",
            f"GITHUB_SHA={sha}\nGITHUB_REF=refs/heads/main\nGITHUB_RUN_ID={r.randint(10**9, 10**10)}",
            f"commit {sha}\nAuthor: {pick(r, FIRST).title()} <{pick(r, FIRST)}@{pick(r, DOMAINS)}>\nDate:   {when(r).ctime()}\n\n    fix: rotate logs daily",
            f"diff --git a/app/config.py b/app/config.py\nindex {rs(r, HEXL, 7)}..{rs(r, HEXL, 7)} 100644",
            f"pinned actions/checkout@{sha} # v4.1.7",
            f"git bisect good {sha[:12]}; bad is {rs(r, HEXL, 12)}",
            f"Deployed build {sha[:8]} to {pick(r, ENVS)} at {iso(r)}",
            f"go get github.com/{pick(r, PROJ)}/{pick(r, SVCS)}@v0.0.0-{when(r).strftime('%Y%m%d%H%M%S')}-{sha[:12]}",
        ],
    )


def la_digest(r):
    d = rs(r, HEXL, 64)
    img = pick(r, ["nginx", "postgres", "redis", "python", "node", f"ghcr.io/{pick(r, PROJ)}/{pick(r, SVCS)}"])
    return pick(
        r,
        [
            f"image: {img}@sha256:{d}",
            f"docker pull {img}@sha256:{d}",
            f"    Image ID:       docker-pullable://{img}@sha256:{d}",
            f"Digest: sha256:{d}\nStatus: Downloaded newer image for {img}:latest",
            f"FROM {img}:{pick(r, ['1.27', '16', '7-alpine', '3.12-slim'])}@sha256:{d}",
            f"cosign verify {img}@sha256:{d} --certificate-identity-regexp '.*'",
            f"git lfs pointer:\nversion https://git-lfs.github.com/spec/v1\noid sha256:{d}\nsize {r.randint(10**5, 10**9)}",
        ],
    )


def la_integrity(r):
    pkg = pick(r, ["lodash", "react-dom", "esbuild", "zod", "@types/node", "left-pad", "chalk"])
    ver = f"{r.randint(0, 18)}.{r.randint(0, 20)}.{r.randint(0, 12)}"
    return pick(
        r,
        [
            f'"node_modules/{pkg}": {{\n  "version": "{ver}",\n  "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg.split("/")[-1]}-{ver}.tgz",\n  "integrity": "sha512-{b64(rbytes(r, 64))}"\n}}',
            f'<script src="https://cdn.jsdelivr.net/npm/{pkg}@{ver}/dist/index.min.js" integrity="sha384-{b64(rbytes(r, 48))}" crossorigin="anonymous"></script>',
            f"github.com/{pick(r, PROJ)}/{pkg.strip('@/')} v{ver} h1:{b64(rbytes(r, 32))}",
            f"{pkg.strip('@/').replace('/', '-')}=={ver} \\\n    --hash=sha256:{rs(r, HEXL, 64)}",
            f'provider "registry.terraform.io/hashicorp/aws" {{\n  version = "5.{r.randint(0, 60)}.0"\n  hashes = [\n    "h1:{b64(rbytes(r, 32))}",\n    "zh:{rs(r, HEXL, 64)}",\n  ]\n}}',
            f'"{pkg}@^{ver}":\n  version "{ver}"\n  resolved "https://registry.yarnpkg.com/{pkg}/-/{pkg.split("/")[-1]}-{ver}.tgz#{rs(r, HEXL, 40)}"',
            f'[[package]]\nname = "{pkg.strip("@/")}"\nversion = "{ver}"\nfiles = [\n    {{file = "{pkg.strip("@/")}-{ver}-py3-none-any.whl", hash = "sha256:{rs(r, HEXL, 64)}"}},\n]',
        ],
    )


def la_b64data(r):
    cursor = b64(json.dumps({"after": r.randint(1000, 99999), "sort": "created_at"}).encode())
    cert_b64 = b64(("-----" + "BEGIN CERTIFICATE" + "-----\n" + b64(rbytes(r, 60)) + "\n").encode())
    return pick(
        r,
        [
            f"next page: GET /v1/events?cursor={cursor}",
            f'<img src="data:image/png;base64,iVBORw0KGgo{b64(rbytes(r, 60))}" />',
            f"clusters:\n- cluster:\n    certificate-authority-data: {cert_b64}\n    server: https://{rs(r, HEXU, 32)}.gr7.{pick(r, REGIONS)}.eks.amazonaws.com\n  name: {pick(r, PROJ)}",
            f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fonts\nbinaryData:\n  logo.ico: {b64(rbytes(r, 48))}",
            f"echo '{b64(json.dumps({'theme': 'dark', 'lang': pick(r, ['en', 'de', 'ja']), 'beta': True}).encode())}' | base64 -d   # just the prefs cookie, no auth in it",
            f"Content-MD5: {b64(rbytes(r, 16))}",
            f"x-goog-hash: crc32c={b64(rbytes(r, 4))}, md5={b64(rbytes(r, 16))}",
            f"protobuf fixture (base64): {b64(rbytes(r, r.randint(20, 60)))}",
            f"Content-Security-Policy: script-src 'self' 'nonce-{b64(rbytes(r, 16))}'",
            f"Sec-WebSocket-Key: {b64(rbytes(r, 16))}\nSec-WebSocket-Accept: {b64(rbytes(r, 20))}",
            f"code_challenge={b64u(rbytes(r, 32))}&code_challenge_method=S256&state={rs(r, ALNUM, 16)}",
        ],
    )


def la_pubkey(r):
    ed = b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + rbytes(r, 32))
    rsa = b64(b"\x00\x00\x00\x07ssh-rsa\x00\x00\x00\x03\x01\x00\x01\x00\x00\x01\x01\x00" + rbytes(r, 256))
    who = f"{pick(r, FIRST)}@{pick(r, ['laptop', 'mbp', 'build-01', 'workstation'])}"
    pub = (
        P_BEGIN
        + "PUBLIC KEY"
        + DASH5
        + "\n"
        + "\n".join(
            _wrap(
                b64(
                    bytes(
                        [
                            0x30,
                            0x82,
                            0x01,
                            0x22,
                            0x30,
                            0x0D,
                            0x06,
                            0x09,
                            0x2A,
                            0x86,
                            0x48,
                            0x86,
                            0xF7,
                            0x0D,
                            0x01,
                            0x01,
                            0x01,
                            0x05,
                            0x00,
                            0x03,
                            0x82,
                            0x01,
                            0x0F,
                            0x00,
                        ]
                    )
                    + rbytes(r, 270)
                )
            )
        )
        + "\n"
        + P_END
        + "PUBLIC KEY"
        + DASH5
    )
    cert = (
        P_BEGIN
        + "CERTIFICATE"
        + DASH5
        + "\n"
        + "\n".join(
            _wrap(
                b64(
                    bytes([0x30, 0x82, 0x03, 0x5A, 0x30, 0x82, 0x02, 0x42, 0xA0, 0x03, 0x02, 0x01, 0x02])
                    + rbytes(r, 400)
                )
            )
        )
        + "\n"
        + P_END
        + "CERTIFICATE"
        + DASH5
    )
    return pick(
        r,
        [
            f"Added to authorized_keys on bastion:\nssh-ed25519 {ed} {who}",
            f"ssh-rsa {rsa} {who}",
            f"deploy key (public half, safe to share): ssh-ed25519 {ed}",
            f"JWT verification key for the gateway:\n{pub}",
            f"CA bundle for the internal registry:\n{cert}",
            f"age recipient for sops: age1{rs(r, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
            f"[Peer]\nPublicKey = {b64(rbytes(r, 32))}\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.{pick(r, DOMAINS)}:51820",
            f"The ED25519 key fingerprint is SHA256:{b64(rbytes(r, 32)).rstrip('=')}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?",
            f"gpg --recv-keys {rs(r, HEXU, 40)}",
            f"SHA-256 fingerprint: {':'.join(rs(r, HEXU, 2) for _ in range(32))}",
            f'{{"keys":[{{"kty":"RSA","kid":"{rs(r, B64U, 20)}","use":"sig","alg":"RS256","n":"{b64u(rbytes(r, 256))}","e":"AQAB"}}]}}',
        ],
    )


def _wrap(s, w=64):
    return [s[i : i + w] for i in range(0, len(s), w)]


def la_placeholder(r):
    n = pick(
        r,
        [
            "OPENAI_API_KEY",
            "STRIPE_SECRET_KEY",
            "GITHUB_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "DB_PASSWORD",
            "SLACK_BOT_TOKEN",
            "ANTHROPIC_API_KEY",
            "SENDGRID_API_KEY",
            "NPM_TOKEN",
            "DATABASE_URL",
        ],
    )
    specific = {
        "OPENAI_API_KEY": ["sk-" + "...", "sk-" + "proj-" + "XXXXXXXX", "sk-your-key-here"],
        "STRIPE_SECRET_KEY": ["sk" + "_live_" + "X" * 24, "sk" + "_live_" + "...", "<stripe-secret-key>"],
        "GITHUB_TOKEN": ["gh" + "p_" + "x" * 36, "gh" + "p_" + "<redacted>", "github" + "_pat_" + "..."],
        "AWS_SECRET_ACCESS_KEY": ["X" * 40, "<aws-secret>", "your-secret-access-key"],
        "DB_PASSWORD": ["<password>", "your_db_password", "PLACEHOLDER_PASSWORD"],
        "SLACK_BOT_TOKEN": ["x" + "oxb-" + "your-bot-token", "x" + "oxb-" + "XXXXXXXXXX"],
        "ANTHROPIC_API_KEY": ["sk-" + "ant-" + "api03-" + "XXXX", "sk-" + "ant-" + "..."],
        "SENDGRID_API_KEY": ["SG" + ".xxxxx.yyyyy", "SG" + ".<key>"],
        "NPM_TOKEN": ["npm" + "_" + "*" * 36, "npm" + "_" + "YOUR_TOKEN"],
        "DATABASE_URL": ["postgres://USER:PASSWORD@HOST:5432/DB", "postgresql://<user>:<password>@<host>/<db>"],
    }[n]
    generic_ph = [
        "<your-api-key>",
        "YOUR_API_KEY_HERE",
        "your_token_here",
        "<REPLACE_ME>",
        "xxxxxxxxxxxxxxxxxxxx",
        "${" + n + "}",
        "$" + n,
        "%" + n + "%",
        "{{ " + n.lower() + " }}",
        "...",
        "<token>",
        "***",
        "null",
        "",
        "TODO",
        "<set-me>",
    ]
    ph = pick(r, specific) if maybe(r, 0.5) else pick(r, generic_ph)
    return pick(
        r,
        [
            f"{n}={ph}",
            f"# .env.example\n{n}={ph}\nPORT=3000\nLOG_LEVEL=debug",
            f'export {n}="{ph}"  # replace before running',
            f"Set {n} to {ph or 'your key'} in your shell, then run `make dev`.",
            f"{camel(n)}: '{ph}', // filled in by CI",
            f"| Variable | Example |\n|---|---|\n| `{n}` | `{ph}` |",
        ],
    )


def la_masked(r):
    four = rs(r, ALNUM, 4)
    return pick(
        r,
        [
            f"OPENAI_API_KEY=sk-proj-****************{four}",
            "Stripe dashboard shows the live key as sk" + f"_live_...{four}; rotated on {day(r)}.",
            "aws_secret_access_key = ****************************************",
            "password: ********",
            "DB_PASSWORD=[REDACTED]",
            "Authorization: Bearer <redacted>",
            "token=gh" + "p_************************************ (masked by Actions)",
            "2024-03-01 12:00:00 INFO connecting to postgres://app:*****@db.internal:5432/app",
            f"STRIPE_SECRET_KEY: ●●●●●●●●●●●●{four}",
            "api_key='***REDACTED***' status=401",
            f"Key ending in …{four} was revoked by {pick(r, FIRST)}.",
            "x-api-key: sk-" + f"ant-…{four}",
            f"$ gh secret list\nNPM_TOKEN        Updated {day(r)}\nPYPI_TOKEN       Updated {day(r)}\nDOCKERHUB_TOKEN  Updated {day(r)}",
            'Run echo "token: ${{ secrets.DEPLOY_TOKEN }}"\ntoken: ***',
            f"mongodb+srv://admin:<password>@cluster0.{rs(r, LOALNUM, 5)}.mongodb.net/?retryWrites=true",
            "SECRET_KEY=•••••••• (hidden in Render dashboard)",
        ],
    )


def la_envref(r):
    name = pick(r, ["DB_PASSWORD", "STRIPE_KEY", "NPM_TOKEN", "OPENAI_API_KEY", "SLACK_WEBHOOK_URL", "JWT_SECRET"])
    acct = r.randint(10**11, 10**12 - 1)
    return pick(
        r,
        [
            f"env:\n  {name}: ${{{{ secrets.{name} }}}}",
            "password: {{ .Values.postgresql.auth.password }}",
            f"- name: {name}\n  valueFrom:\n    secretKeyRef:\n      name: {pick(r, SVCS)}-secrets\n      key: {name.lower()}",
            f"SecretId: arn:aws:secretsmanager:{pick(r, REGIONS)}:{acct}:secret:{pick(r, ENVS)}/{pick(r, SVCS)}/{name.lower()}-{rs(r, ALNUM, 6)}",
            f"vault kv get -field=password secret/data/{pick(r, ENVS)}/{pick(r, SVCS)}",
            f"projects/{pick(r, PROJ)}-{r.randint(100000, 999999)}/secrets/{name.lower().replace('_', '-')}/versions/latest",
            f'op read "op://Engineering/{pick(r, SVCS)}/{pick(r, ["password", "credential", "api key"])}"',
            f"@Microsoft.KeyVault(SecretUri=https://kv-{pick(r, PROJ)}.vault.azure.net/secrets/{name.lower().replace('_', '-')}/{rs(r, HEXL, 32)})",
            f'{name} = os.environ["{name}"]',
            f"const key = process.env.{name} ?? throwMissing('{name}');",
            f"PGPASSWORD=$(aws secretsmanager get-secret-value --secret-id {pick(r, ENVS)}/db --query SecretString --output text) psql -h db -U app",
            'mysql_root_password: "{{ vault_mysql_root_password }}"',
            "DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app",
            f"password_file: /run/secrets/{name.lower()}",
            f"aws ssm get-parameter --name /{pick(r, ENVS)}/{name.lower()} --with-decryption",
            f"kms key arn:aws:kms:{pick(r, REGIONS)}:{acct}:key/{uuid4(r)}",
            f'ENV["{name}"] || Rails.application.credentials.dig(:stripe, :secret_key)',
            "secrets:\n  db_password:\n    file: ./secrets/db_password.txt",
        ],
    )


def la_docs(r):
    ex_id = "A" + "KIA" + "IOSFODNN7" + "EXAMPLE"
    ex_sec = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
    return pick(
        r,
        [
            f"From the AWS docs example: aws_access_key_id = {ex_id}",
            f"AWS CLI docs use {ex_sec} as the sample secret key — don't confuse it with ours.",
            'Docs snippet: `curl https://api.example.com/v1/items -H "Authorization: Bearer YOUR_TOKEN"`',
            "README: create a `.env` with `OPENAI_API_KEY=sk-...` and run `npm start`.",
            "Slack's sample webhook URL is https://hooks."
            + "slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
            "Connection string format: postgresql://USER:PASSWORD@HOST:PORT/DBNAME",
            "mongodb+srv://<username>:<password>@<cluster-url>/test",
            "The token looks like `gh"
            + "p_` followed by 36 characters; fine-grained ones start with `github"
            + "_pat_`.",
            "Stripe keys: publishable keys start with pk_, secret keys with sk" + "_, restricted keys with rk" + "_.",
            "An OpenAI key starts with sk-proj- and should never be committed; use a secrets manager instead.",
            "Example .pypirc:\n[pypi]\nusername = __token__\npassword = pypi-<your token>",
            "JWTs have three base64url parts: header.payload.signature, e.g. xxxxx.yyyyy.zzzzz",
            "git clone https://<username>:<personal-access-token>@github.com/org/repo.git",
            "In `~/.npmrc` add `//registry.npmjs.org/:_authToken=${NPM_TOKEN}` so the token stays out of the repo.",
            'Ansible: `ansible_become_password: "{{ vault_become_pass }}"` — value lives in the vault file.',
            'To generate a Fernet key run `python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"`.',
            'ssh-keygen -t ed25519 -C "you@example.com" -f ~/.ssh/id_ed25519',
            "openssl rand -hex 32  # use the output as ENCRYPTION_KEY",
        ],
    )


def la_longident(r):
    return pick(
        r,
        [
            "public class AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor implements BeanPostProcessor {",
            "def test_refresh_token_rotation_invalidates_previous_token_after_grace_period(client, frozen_time):",
            "MAX_ACCESS_TOKEN_LIFETIME_SECONDS = 3600\nREFRESH_TOKEN_REUSE_INTERVAL_SECONDS = 30",
            'API_KEY_HEADER_NAME = "X-Api-Key"\nSECRET_KEY_FALLBACKS: list[str] = []',
            "getAuthorizationTokenForServiceAccountWithExponentialBackoffAndJitter(ctx, saName)",
            "org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider",
            "const PASSWORD_MIN_LENGTH = 12; const PASSWORD_REQUIRE_SYMBOL = true;",
            "k8s.io/client-go/tools/clientcmd/api/v1.AuthProviderConfig",
            'ERROR: relation "user_password_reset_tokens_created_at_idx" already exists',
            "class StripeWebhookSignatureVerificationMiddleware(BaseHTTPMiddleware):",
            "secret_manager_secret_version_access_latest_enabled = true",
            f"TestSecretScanner_IgnoresHexDigestsOfLength{pick(r, ['40', '64'])}",
            "awsSecretsManagerRotationLambdaExecutionRoleArn",
            "useAuthTokenRefreshInterceptorWithRetryQueue()",
        ],
    )


def la_assets(r):
    return pick(
        r,
        [
            f"/static/js/main.{rs(r, HEXL, 8)}.js",
            f"_next/static/chunks/pages/_app-{rs(r, HEXL, 16)}.js",
            f"dist/assets/index-{rs(r, B64U, 8)}.css  {r.randint(10, 200)}.{r.randint(0, 99)} kB │ gzip: {r.randint(3, 50)}.{r.randint(0, 99)} kB",
            f'<link rel="stylesheet" href="/assets/application-{rs(r, HEXL, 64)}.css">',
            f"vendor.{rs(r, HEXL, 20)}.chunk.js is 1.2MB, split it",
            f'class="css-{rs(r, LOALNUM, 6)} e{r.randint(1, 9)}{rs(r, LOALNUM, 5)}{r.randint(0, 9)}"',
            f"styles_button__{rs(r, B64U, 5)} overrides the theme color",
            f"Next.js build id: {rs(r, B64U, 21)}",
            f"remoteEntry.{rs(r, HEXL, 12)}.js failed to load (ChunkLoadError)",
            f"/fonts/inter-var.{rs(r, HEXL, 10)}.woff2",
        ],
    )


def la_talk(r):
    who = pick(r, FIRST)
    return pick(
        r,
        [
            "The wifi password is on the sticker under the router in the meeting room.",
            f"I reset the grafana admin password; ask {who} for the new one (it's in 1Password).",
            "Password policy: 14+ chars, one symbol, no reuse of the last 5.",
            "User forgot their password, sent a reset link; it expires in 30 minutes.",
            f"{who} rotated the Stripe key this morning — new value is only in Vault, nothing to update locally.",
            "max_tokens=4096, temperature=0.2, top_p=0.9 worked best for the summarizer.",
            "ValueError: Token indices sequence length is longer than the specified maximum sequence length for this model (1123 > 512)",
            "CSRF token missing or incorrect. Make sure the form includes {% csrf_token %}.",
            '{"token_type": "Bearer", "expires_in": 3599, "scope": "openid email"}',
            "The API key must be sent in the X-API-Key header, not as a query param.",
            "Remember: never paste secrets into the chat; use `op inject` with the template instead.",
            "401 Unauthorized: invalid_grant (refresh token expired) — user needs to sign in again.",
            "The passphrase for the backup archive is held by the security team, request via ticket.",
            "Tokenizer: BPE with 50k merges; special tokens <|endoftext|> and <pad>.",
            "password_hash column is bcrypt with cost 12; never log it.",
            f"SSH login with password is disabled on all hosts since {day(r)}; keys only.",
            "Secret scanning flagged a false positive in tests/fixtures/hashes.txt, dismissed it.",
            "AWS credentials come from the instance role, so there is nothing in ~/.aws on the runners.",
        ],
    )


def la_encrypted(r):
    lines = "\n".join("          " + rs(r, "0123456789abcdef", 80) for _ in range(r.randint(3, 6)))
    return pick(
        r,
        [
            f"db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{lines}",
            f"password: ENC[AES256_GCM,data:{b64(rbytes(r, 18))},iv:{b64(rbytes(r, 32))},tag:{b64(rbytes(r, 16))},type:str]\nsops:\n  kms:\n  - arn: arn:aws:kms:{pick(r, REGIONS)}:{r.randint(10**11, 10**12 - 1)}:key/{uuid4(r)}",
            f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {pick(r, SVCS)}\nspec:\n  encryptedData:\n    password: Ag{b64(rbytes(r, 300))}",
            "-----"
            + "BEGIN PGP MESSAGE"
            + f"-----\n\nhQEMA{b64(rbytes(r, 180))}\n="
            + rs(r, B64, 4)
            + "\n-----"
            + "END PGP MESSAGE"
            + "-----",
        ],
    )


def la_conn_nosecret(r):
    host = pick(r, ["localhost", "db", f"db.{pick(r, ENVS)}.internal", "127.0.0.1"])
    return pick(
        r,
        [
            f"DATABASE_URL=postgres://app@{host}:5432/app  # peer auth, no password",
            f"REDIS_URL=redis://{host}:6379/0",
            f"mongodb://{host}:27017/test?directConnection=true",
            f"jdbc:postgresql://{host}:5432/app?sslmode=verify-full&sslrootcert=/etc/ssl/rds-ca.pem",
            f"sqlite:///./{pick(r, PROJ)}.db",
            f"postgresql://{pick(r, ['app', 'readonly'])}@{host}/analytics?options=-c%20search_path%3Dreporting",
            "amqp://guest:guest@localhost:5672/  (default local RabbitMQ, only binds to loopback)",
            f"Server=(localdb)\\MSSQLLocalDB;Database={pick(r, PROJ)};Trusted_Connection=True;",
            f"kafka bootstrap: b-1.{pick(r, PROJ)}.{rs(r, LOALNUM, 6)}.c{r.randint(1, 9)}.kafka.{pick(r, REGIONS)}.amazonaws.com:9098 (IAM auth)",
        ],
    )


def la_public_ids(r):
    return pick(
        r,
        [
            f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12 - 1)}-{rs(r, LOALNUM, 32)}.apps.googleusercontent.com",
            "STRIPE_PUBLISHABLE_KEY=pk" + f"_live_{rs(r, ALNUM, 24)}  # public, shipped to the browser",
            f"SENTRY_DSN=https://{rs(r, HEXL, 32)}@o{r.randint(10**5, 10**7)}.ingest.sentry.io/{r.randint(10**6, 10**7)}  (DSNs are public)",
            f"AWS account {r.randint(10**11, 10**12 - 1)}, role arn:aws:iam::{r.randint(10**11, 10**12 - 1)}:role/{pick(r, SVCS)}-task",
            '"UserId": "A'
            + f'IDA{rs(r, B32, 17)}",\n"Arn": "arn:aws:iam::{r.randint(10**11, 10**12 - 1)}:user/{pick(r, FIRST)}"',
            "assumed role id A" + f"ROA{rs(r, B32, 17)}:botocore-session-{r.randint(10**9, 10**10)}",
            f"Algolia application id {rs(r, UPALNUM, 10)}, index products_{pick(r, ENVS)}",
            f"Firebase project {pick(r, PROJ)}-{rs(r, LOALNUM, 5)}, messagingSenderId {r.randint(10**11, 10**12 - 1)}, appId 1:{r.randint(10**11, 10**12 - 1)}:web:{rs(r, HEXL, 22)}",
            f"OAuth client_id for the CLI (public client, PKCE): {rs(r, ALNUM, 32)}",
            f"Plaid client_id {rs(r, HEXL, 24)} (the secret is in Vault)",
            f"Twilio Account SID AC{rs(r, HEXL, 32)} — auth token lives in SSM",
            f"Intercom app_id {rs(r, LOALNUM, 8)}; Segment write key is injected at build time",
            f"Mapbox style mapbox://styles/{pick(r, PROJ)}/c{rs(r, LOALNUM, 24)}",
        ],
    )


def la_misc_random(r):
    return pick(
        r,
        [
            f"heroku app {pick(r, WORDS)}-{pick(r, WORDS)}-{r.randint(10000, 99999)}",
            f"pod/{pick(r, SVCS)}-{rs(r, LOALNUM, 10)}-{rs(r, LOALNUM, 5)} CrashLoopBackOff",
            f"container {pick(r, ['eager', 'nostalgic', 'quirky', 'brave'])}_{pick(r, ['torvalds', 'hopper', 'lovelace', 'turing'])} exited 137",
            f"MAC {':'.join(rs(r, HEXL, 2) for _ in range(6))} on vlan {r.randint(2, 400)}",
            f"IPv6 2001:db8:{rs(r, HEXL, 4)}:{rs(r, HEXL, 4)}::{rs(r, HEXL, 3)}/64",
            f"S3 object key uploads/{day(r)}/{uuid4(r)}.jpg, version id {rs(r, B64U, 32)}",
            f"Feature flag {pick(r, ['new_checkout', 'dark_mode', 'bulk_export'])} rollout seed {r.randint(10**8, 10**9)}",
            f"random.seed({r.randint(0, 10**6)}); np.random.default_rng({r.randint(0, 10**9)})",
            f"wandb run {rs(r, LOALNUM, 8)} ({pick(r, WORDS)}-{pick(r, WORDS)}-{r.randint(1, 300)}) diverged at step {r.randint(1000, 90000)}",
            f"mlflow run_id={rs(r, HEXL, 32)} artifact_uri=s3://mlruns/{r.randint(1, 40)}/{rs(r, HEXL, 32)}/artifacts",
            f"Zoom meeting ID {r.randint(100, 999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)}",
            f"colour palette: #{rs(r, HEXL, 6)} #{rs(r, HEXL, 6)} #{rs(r, HEXL, 6)}",
            f"IPFS CID bafybei{rs(r, 'abcdefghijklmnopqrstuvwxyz234567', 52)}",
            f"bitcoin tx {rs(r, HEXL, 64)} confirmed in block {r.randint(800000, 880000)}",
        ],
    )


def la_config_clean(r):
    return pick(
        r,
        [
            "\n".join(r.sample(ENV_FILLER, r.randint(4, 8))),
            "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n    secrets:\n      - db_password",
            f"postgresql:\n  auth:\n    existingSecret: {pick(r, SVCS)}-db\n    secretKeys:\n      adminPasswordKey: postgres-password",
            "spring.datasource.password=${DB_PASSWORD}\nspring.datasource.username=${DB_USER:app}",
            f"[default]\nregion = {pick(r, REGIONS)}\ncredential_process = aws-vault exec {pick(r, ['dev', 'prod'])} --json\noutput = json",
            f"[profile {pick(r, ENVS)}]\nsso_start_url = https://{pick(r, PROJ)}.awsapps.com/start\nsso_account_id = {r.randint(10**11, 10**12 - 1)}\nsso_role_name = PowerUserAccess",
            f"registry=https://npm.pkg.github.com/{pick(r, PROJ)}\n//npm.pkg.github.com/:_authToken=${{NODE_AUTH_TOKEN}}\nalways-auth=true",
            f"[global]\nindex-url = https://pypi.org/simple\nextra-index-url = https://{pick(r, PROJ)}.jfrog.io/artifactory/api/pypi/pypi/simple\ntimeout = 60",
            f"permissions:\n  id-token: write   # OIDC, no long-lived keys\n  contents: read\nsteps:\n  - uses: aws-actions/configure-aws-credentials@v4\n    with:\n      role-to-assume: arn:aws:iam::{r.randint(10**11, 10**12 - 1)}:role/gha-deploy",
            '{\n  "credsStore": "desktop",\n  "auths": { "ghcr.io": {} }\n}',
            f"[credential]\n\thelper = osxkeychain\n[user]\n\temail = {pick(r, FIRST)}@{pick(r, DOMAINS)}\n\tsigningkey = {rs(r, HEXU, 16)}",
        ],
    )


def la_http_clean(r):
    return pick(
        r,
        [
            f'HTTP/2 200\ncontent-type: application/json\nx-request-id: {uuid4(r)}\netag: W/"{rs(r, HEXL, 32)}"\ncache-control: max-age=60',
            f"GET /v1/items HTTP/1.1\nHost: api.{pick(r, DOMAINS)}\nAuthorization: Bearer ${{TOKEN}}\nAccept: application/json",
            f'< HTTP/1.1 401 Unauthorized\n< WWW-Authenticate: Bearer realm="api", error="invalid_token"\n< X-Trace: {rs(r, HEXL, 32)}',
            f"Set-Cookie: theme=dark; Path=/; Max-Age=31536000\nSet-Cookie: _ga=GA1.1.{r.randint(10**8, 10**10)}.{r.randint(1690000000, 1740000000)}",
            f"Cookie: _gid=GA1.2.{r.randint(10**8, 10**10)}.{r.randint(1690000000, 1740000000)}; consent=analytics:false; locale=en",
            f"https://{pick(r, PROJ)}.blob.core.windows.net/exports/report.csv?sv=2022-11-02&sp=r&sig=REDACTED",
            f"https://accounts.{pick(r, DOMAINS)}/oauth/callback?code=<auth-code>&state={rs(r, ALNUM, 20)}",
            f"curl -H 'Authorization: Bearer '\"$(gcloud auth print-access-token)\" https://{pick(r, REGIONS)}-aiplatform.googleapis.com/v1/projects/{pick(r, PROJ)}/locations",
        ],
    )


LOOKALIKES = [
    la_hash,
    la_hash,
    la_uuid,
    la_ids,
    la_ids,
    la_ids,
    la_commit,
    la_digest,
    la_integrity,
    la_integrity,
    la_b64data,
    la_b64data,
    la_pubkey,
    la_pubkey,
    la_placeholder,
    la_placeholder,
    la_masked,
    la_masked,
    la_envref,
    la_envref,
    la_docs,
    la_longident,
    la_assets,
    la_talk,
    la_talk,
    la_encrypted,
    la_conn_nosecret,
    la_public_ids,
    la_public_ids,
    la_misc_random,
    la_config_clean,
    la_config_clean,
    la_http_clean,
]


# --------------------------------------------------------------------------
PER_KIND = 40


def generate(seed: int):
    r = random.Random(seed)
    positives = []
    seen_pos = set()
    for kind in KINDS:
        fn = KINDS[kind]
        got = 0
        for _attempt in range(400):
            if got == PER_KIND:
                break
            text, secret = fn(r)
            if text in seen_pos or text.count(secret) != 1:
                continue
            seen_pos.add(text)
            positives.append((text, kind, secret))
            got += 1
    lookalikes = []
    n_la = 800
    seen = set()
    i = 0
    while len(lookalikes) < n_la and i < n_la * 20:
        t = LOOKALIKES[i % len(LOOKALIKES)](r)
        i += 1
        if maybe(r, 0.12):
            t = pick(r, ["Note: ", "FYI ", "[memory] ", "Context: ", "saved from terminal:\n", "for later -> "]) + t
        if t in seen:
            continue
        seen.add(t)
        lookalikes.append(t)
    r.shuffle(positives)
    r.shuffle(lookalikes)
    return positives, lookalikes


if __name__ == "__main__":
    import collections
    import sys

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    pos, la = generate(seed)
    for t, k, s in pos:
        assert s in t, (k, s, t)
    counts = collections.Counter(k for _, k, _ in pos)
    for k in KINDS:
        print(f"{k:28s} {counts[k]}")
    print("positives:", len(pos), "kinds:", len(counts), "lookalikes:", len(la))
