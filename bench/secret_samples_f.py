"""Blind test-data generator for a secret scanner (sample set "F").

The scanner under test guards a memory store for AI coding agents: short
notes that an agent or a developer saves -- decisions, lessons, terminal
snippets, config excerpts, chat excerpts, commit messages, error logs and
runbook steps.  This module fabricates such notes.

    generate(seed) -> (positives, lookalikes)

positives
    list of ``(text, kind, secret)``.  ``secret`` is an exact substring of
    ``text`` and is the sensitive value itself (never the variable name).
lookalikes
    list of texts that contain no credential at all but look as if they
    might: hashes, digests, ids, placeholders, secret-manager references,
    public keys, redactions, documentation example values, and so on.

Every credential is assembled at run time from random characters.  Vendor
prefixes and PEM armour lines are concatenated from pieces so that the
source file itself holds no token-shaped literal.  Standard library only;
the output is deterministic for a given seed.
"""

from __future__ import annotations

import base64
import json
import random
import string
import urllib.parse

# ---------------------------------------------------------------------------
# alphabets and tiny helpers
# ---------------------------------------------------------------------------

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
HEX = "0123456789abcdef"
HEXU = HEX.upper()
B62 = UP + LO + DG
B64 = B62 + "+/"
B64U = B62 + "-_"
B32 = UP + "234567"
LODG = LO + DG
UPDG = UP + DG


def J(*parts: str) -> str:
    return "".join(parts)


def rs(r: random.Random, alpha: str, n: int) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def pick(r: random.Random, seq):
    return r.choice(seq)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64s(text: str) -> str:
    return b64(text.encode())


def mixed(r: random.Random, alpha: str, n: int) -> str:
    """Random string that contains a digit, an upper and a lower letter when
    the alphabet allows it (keeps tokens looking like real random tokens)."""
    while True:
        s = rs(r, alpha, n)
        ok = True
        if any(c in alpha for c in DG) and not any(c in DG for c in s):
            ok = False
        if any(c in alpha for c in UP) and not any(c in UP for c in s):
            ok = False
        if any(c in alpha for c in LO) and not any(c in LO for c in s):
            ok = False
        if ok or n < 8:
            return s


def uuid4(r: random.Random) -> str:
    h = rs(r, HEX, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def date(r: random.Random) -> str:
    return f"{r.randint(2023, 2025)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def ts(r: random.Random) -> str:
    return f"{date(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"


def hhmm(r: random.Random) -> str:
    return f"{r.randint(7, 22):02d}:{r.randint(0, 59):02d}"


def ip(r: random.Random) -> str:
    k = r.randrange(3)
    if k == 0:
        return f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(2, 254)}"
    if k == 1:
        return f"192.168.{r.randint(0, 255)}.{r.randint(2, 254)}"
    return f"172.{r.randint(16, 31)}.{r.randint(0, 255)}.{r.randint(2, 254)}"


SERVICES = [
    "billing",
    "orders",
    "auth",
    "search",
    "ingest",
    "notifier",
    "reports",
    "gateway",
    "payments",
    "inventory",
    "analytics",
    "scheduler",
    "ledger",
    "catalog",
    "mailer",
    "exporter",
    "webhooks",
    "checkout",
]
ENVS = ["staging", "prod", "dev", "qa", "sandbox", "preprod", "uat"]
DOMAINS = [
    "acme-corp.io",
    "internal.example.net",
    "corp.widgets.dev",
    "lab.northwind.io",
    "infra.globex.com",
    "svc.initech.cloud",
    "hooli.internal",
]
USERS = [
    "admin",
    "deploy",
    "ci-bot",
    "app",
    "svc_reports",
    "root",
    "postgres",
    "backup",
    "jenkins",
    "etl_user",
    "readonly",
    "grafana",
    "app_rw",
    "migrator",
    "airflow",
]
PEOPLE = [
    "maria",
    "jonas",
    "priya",
    "tom",
    "li.wei",
    "sam",
    "oksana",
    "diego",
    "aiko",
    "femi",
    "noah",
    "ingrid",
    "rahul",
    "chloe",
]
REGIONS = ["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2", "eu-north-1"]
ORGS = ["acme", "northwind", "globex", "initech", "umbrella-labs", "hooli", "stark-ind", "wayne-ent"]
PROFILES = ["default", "ci", "prod-admin", "backup", "terraform", "data-eng", "sandbox"]
DBNAMES = ["app", "orders", "analytics", "billing_prod", "users", "warehouse", "metrics", "cms"]
WORDS = [
    "summer",
    "winter",
    "dragon",
    "falcon",
    "coffee",
    "rainbow",
    "tiger",
    "sunshine",
    "pepper",
    "marble",
    "rocket",
    "orange",
    "penguin",
    "hydra",
    "basil",
    "quantum",
    "nebula",
    "maple",
    "harbor",
    "cobalt",
    "lemon",
    "thunder",
    "velvet",
    "panda",
    "otter",
    "spruce",
    "zephyr",
    "mango",
    "copper",
    "river",
    "granite",
    "walrus",
]
SSIDS = [
    "Acme-Office",
    "NW-Guest",
    "Lab5G",
    "FRITZ!Box 7590 XQ",
    "TP-Link_4F2A",
    "HomeNet",
    "Globex-Staff",
    "devices-iot",
    "Warehouse-AP3",
    "Casa_Rossi",
]


def host(r: random.Random) -> str:
    return f"{pick(r, SERVICES)}-{pick(r, ENVS)}.{pick(r, DOMAINS)}"


def dbhost(r: random.Random) -> str:
    k = r.randrange(4)
    if k == 0:
        return f"{pick(r, DBNAMES).replace('_', '-')}.cluster-{rs(r, LODG, 12)}.{pick(r, REGIONS)}.rds.amazonaws.com"
    if k == 1:
        return f"db-{pick(r, ENVS)}.{pick(r, DOMAINS)}"
    if k == 2:
        return ip(r)
    return pick(r, ["localhost", "db", "postgres", "mysql", "127.0.0.1"])


def bucket(r: random.Random) -> str:
    return f"{pick(r, ORGS)}-{pick(r, SERVICES)}-{pick(r, ENVS)}"


def email(r: random.Random) -> str:
    return f"{pick(r, PEOPLE)}@{pick(r, ORGS)}.com"


def leet(s: str) -> str:
    return s.translate(str.maketrans({"a": "4", "e": "3", "o": "0", "i": "1", "s": "5"}))


def human_pw(r: random.Random) -> str:
    w = pick(r, WORDS)
    w2 = pick(r, WORDS)
    y = str(r.randint(1985, 2025))
    d = str(r.randint(10, 999))
    s = pick(r, "!@#$%&*?.")
    k = r.randrange(10)
    if k == 0:
        return w.capitalize() + y + s
    if k == 1:
        return leet(w.capitalize()) + s + d
    if k == 2:
        return "-".join(r.sample(WORDS, r.choice([3, 4]))) + str(r.randint(1, 99))
    if k == 3:
        return pick(r, ORGS).split("-")[0].capitalize() + "@" + y
    if k == 4:
        return w + s + w2.capitalize() + d
    if k == 5:
        return pick(r, ["Welcome", "Spring", "Autumn", "Passw0rd", "Letmein", "Admin", "Changeit"]) + d + s
    if k == 6:
        return w.upper()[:3] + "_" + w2 + "_" + y
    if k == 7:
        return w.capitalize() + w2.capitalize() + s + s + d
    if k == 8:
        return leet(w + w2) + y[-2:] + s
    return w.capitalize() + "." + w2 + "." + d


def random_pw(r: random.Random, n: int | None = None, syms: str = "!#%*-_+=.@^") -> str:
    n = n or r.randint(14, 28)
    alpha = B62 + syms
    while True:
        s = rs(r, alpha, n)
        if any(c in DG for c in s) and any(c in UP for c in s) and any(c in LO for c in s):
            return s


def any_pw(r: random.Random) -> str:
    return human_pw(r) if r.random() < 0.5 else random_pw(r)


def url_pw(r: random.Random) -> tuple[str, str]:
    """Password as it appears inside URL userinfo: (raw, in-url form)."""
    k = r.randrange(4)
    if k == 0:
        p = random_pw(r, syms="-_.~")
        return p, p
    if k == 1:
        p = (
            human_pw(r)
            .replace("@", "!")
            .replace("#", "!")
            .replace("?", "!")
            .replace("%", "!")
            .replace("$", "!")
            .replace("&", "*")
        )
        return p, p
    if k == 2:
        p = mixed(r, B62, r.randint(16, 32))
        return p, p
    p = human_pw(r)
    return p, urllib.parse.quote(p, safe="")


def q(r: random.Random, s: str) -> str:
    c = r.randrange(3)
    return s if c == 0 else (f'"{s}"' if c == 1 else f"'{s}'")


# vendor prefixes and armour, built from pieces ------------------------------
P_AKIA = "AK" + "IA"
P_ASIA = "AS" + "IA"
P_SK_LIVE = "sk" + "_" + "live" + "_"
P_SK_TEST = "sk" + "_" + "test" + "_"
P_RK_LIVE = "rk" + "_" + "live" + "_"
P_WHSEC = "wh" + "sec" + "_"
P_GH = "gh"
P_GHPAT = "git" + "hub" + "_pat_"
P_GLPAT = "gl" + "pat-"
P_GLRT = "gl" + "rt-"
P_GLDT = "gl" + "dt-"
P_XOX = "xo" + "x"
P_XAPP = "xa" + "pp-"
P_SG = "S" + "G."
P_MGKEY = "ke" + "y-"
P_NPM = "np" + "m_"
P_PYPI = "py" + "pi-"
PYPI_MAC = "AgEIcHl" + "waS5vcmc"
TESTPYPI_MAC = "AgENdGVz" + "dC5weXBpLm9yZw"
P_SKDASH = "s" + "k-"
P_PROJ = "pro" + "j-"
OAI_MARK = "T3Blbk" + "FJ"
P_ANT = "s" + "k-" + "ant-" + "api03-"
P_GSK = "gs" + "k_"
P_XAI = "xa" + "i-"
P_SHP = "sh" + "p"
P_HRKU = "HR" + "KU-"
P_DO = "d" + "o"
P_HVS = "hv" + "s."
P_HVB = "hv" + "b."
P_HF = "h" + "f_"
P_SQATP = "sq0" + "atp-"
P_SQCSP = "sq0" + "csp-"
P_EAAA = "EA" + "AA"
P_AIZA = "AI" + "za"
P_APA = ":AP" + "A91b"
P_GOCSPX = "GOC" + "SPX-"
P_SNTRYS = "sntr" + "ys_"
P_SNTRYU = "sntr" + "yu_"
P_BT = "access" + "_token$"
P_DJ = "django" + "-insecure-"
P_MBX = "s" + "k."
DASH5 = "-" * 5
BEGIN = DASH5 + "BEGIN "
END = DASH5 + "END "


def pem(label: str, body: str, width: int = 64, nl: str = "\n") -> str:
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return J(BEGIN, label, DASH5, nl, nl.join(lines), nl, END, label, DASH5)


def rsa_der(r: random.Random) -> bytes:
    size = pick(r, [(b"\x30\x82\x04\xa4", 1190), (b"\x30\x82\x02\x5c", 606), (b"\x30\x82\x04\xa3", 1189)])
    return size[0] + b"\x02\x01\x00\x02\x82\x01\x01\x00" + r.randbytes(size[1] - 12)


def pkcs8_der(r: random.Random) -> bytes:
    return (
        b"\x30\x82\x04\xbe\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00"
        b"\x04\x82\x04\xa8\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + r.randbytes(1180)
    )


def ec_der(r: random.Random) -> bytes:
    return (
        b"\x30\x77\x02\x01\x01\x04\x20"
        + r.randbytes(32)
        + b"\xa0\x0a\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\xa1\x44\x03\x42\x00\x04"
        + r.randbytes(64)
    )


def openssh_blob(r: random.Random, comment: str) -> bytes:
    pub = r.randbytes(32)
    kt = b"ssh-ed25519"

    def sstr(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    pubblob = sstr(kt) + sstr(pub)
    chk = r.randbytes(4)
    priv = chk + chk + sstr(kt) + sstr(pub) + sstr(r.randbytes(32) + pub) + sstr(comment.encode())
    priv += bytes(range(1, 1 + (8 - len(priv) % 8) % 8))
    return (
        b"openssh-key-v1\x00"
        + sstr(b"none")
        + sstr(b"none")
        + sstr(b"")
        + (1).to_bytes(4, "big")
        + sstr(pubblob)
        + sstr(priv)
    )


def private_key_block(r: random.Random, comment: str = "deploy@ci") -> str:
    k = r.randrange(5)
    if k == 0:
        return pem("RSA " + "PRIVATE KEY", b64(rsa_der(r)))
    if k == 1:
        return pem("PRIVATE KEY", b64(pkcs8_der(r)))
    if k == 2:
        return pem("EC " + "PRIVATE KEY", b64(ec_der(r)))
    return pem("OPENSSH " + "PRIVATE KEY", b64(openssh_blob(r, comment)), width=70)


def make_jwt(r: random.Random, payload: dict | None = None, alg: str | None = None) -> str:
    alg = alg or pick(r, ["HS256", "RS256", "HS512", "ES256"])
    hdr = {"alg": alg, "typ": "JWT"}
    if alg.startswith(("RS", "ES")) and r.random() < 0.6:
        hdr["kid"] = rs(r, LODG, 20)
    now = r.randint(1_690_000_000, 1_740_000_000)
    if payload is None:
        payload = pick(
            r,
            [
                {
                    "sub": str(r.randint(1000, 99999)),
                    "email": email(r),
                    "role": pick(r, ["admin", "user", "service"]),
                    "iat": now,
                    "exp": now + pick(r, [900, 3600, 86400]),
                },
                {
                    "iss": f"https://auth.{pick(r, DOMAINS)}/",
                    "sub": f"auth0|{rs(r, HEX, 24)}",
                    "aud": pick(r, SERVICES),
                    "iat": now,
                    "exp": now + 86400,
                    "scope": "openid profile email",
                },
                {"user_id": uuid4(r), "tenant": pick(r, ORGS), "iat": now},
                {
                    "iss": "supabase",
                    "ref": rs(r, LO, 20),
                    "role": pick(r, ["service_role", "anon"]),
                    "iat": now,
                    "exp": now + 315_360_000,
                },
            ],
        )
    siglen = {"HS256": 32, "HS512": 64, "RS256": 256, "ES256": 64}[alg]
    return J(
        b64u(json.dumps(hdr, separators=(",", ":")).encode()),
        ".",
        b64u(json.dumps(payload, separators=(",", ":")).encode()),
        ".",
        b64u(r.randbytes(siglen)),
    )


def k8s_sa_jwt(r: random.Random, ns: str, sa: str) -> str:
    now = r.randint(1_690_000_000, 1_740_000_000)
    payload = {
        "aud": ["https://kubernetes.default.svc.cluster.local"],
        "exp": now + 31_536_000,
        "iat": now,
        "iss": "https://kubernetes.default.svc.cluster.local",
        "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": uuid4(r)}},
        "nbf": now,
        "sub": f"system:serviceaccount:{ns}:{sa}",
    }
    return make_jwt(r, payload, "RS256")


def aws_kid(r: random.Random, temp: bool = False) -> str:
    return J(P_ASIA if temp else P_AKIA, mixed(r, UP + "234567", 16))


def aws_secret(r: random.Random) -> str:
    return mixed(r, B62 + "+/", 40)


# ---------------------------------------------------------------------------
# note framing (shared by positives and lookalikes)
# ---------------------------------------------------------------------------

TOPICS = [
    "staging deploy needs these until the secrets operator is fixed",
    "pinned config for the nightly backfill",
    "shared service account for the demo on Friday",
    "reproduced the 401 locally with the snippet below",
    "how I got the integration tests green again",
    "hotfix for the broken release pipeline",
    "vendor sandbox access for the spike",
    "moving the cron jobs to the new box",
    "onboarding notes for the new contractor",
    "debugging webhook retries",
    "what finally made the migration script connect",
    "the old bastion is gone, use this instead",
    "keep using the legacy integration until Q3",
    "local dev setup that actually works",
]
COMMIT_SUBJECTS = [
    "fix(ci): make deploy job authenticate again",
    "chore: wire up staging config",
    "feat(notify): send alerts to the new channel",
    "wip: local testing",
    "hotfix: restore integration after vendor outage",
    "refactor(db): move connection setup into settings",
    "test: unblock e2e suite",
    "build: publish from CI",
]


def frame(r: random.Random, snip: str) -> str:
    single = "\n" not in snip
    t = r.random()
    if t < 0.28:
        return snip
    topic = pick(r, TOPICS)
    opts = [
        lambda: f"decision: {topic}.\n{snip}",
        lambda: f"Decision ({date(r)}): {topic}\n\n{snip}",
        lambda: f"lesson: {topic}.\n{snip}",
        lambda: f"note {date(r)}: {snip}",
        lambda: (
            f"{snip}\n\n(temporary, {pick(r, ['rotate after the release', 'remove before merge', 'ask ' + pick(r, PEOPLE) + ' before changing', 'works as of ' + date(r)])})"
        ),
        lambda: f"runbook step {r.randint(1, 9)}: {topic}\n```\n{snip}\n```",
        lambda: f"context for next session: {topic}\n{snip}\nTODO: move this into the vault",
        lambda: (
            f"{pick(r, COMMIT_SUBJECTS)}\n\n{snip}\n\nRefs: {pick(r, ['OPS', 'PLAT', 'INFRA', 'DEV'])}-{r.randint(10, 4999)}"
        ),
        lambda: f"remember for later: {snip}",
        lambda: f"## {pick(r, ['Setup', 'Troubleshooting', 'Gotchas', 'Env'])}\n- {topic}\n- snippet:\n\n{snip}\n",
    ]
    if single:
        opts += [
            lambda: f"lesson: {topic} -- {snip}",
            lambda: f"[{hhmm(r)}] {pick(r, PEOPLE)}: {snip}",
            lambda: f"{ts(r)} DEBUG {pick(r, SERVICES)}: {snip}",
            lambda: f"{snip}  <- verified {date(r)}",
            lambda: f"> {snip}\n{pick(r, PEOPLE)} said this is fine for {pick(r, ENVS)}",
        ]
    return pick(r, opts)()


# ---------------------------------------------------------------------------
# positive generators: each returns (snippet, secret)
# ---------------------------------------------------------------------------


def k_aws_access_key_id(r):
    k = aws_kid(r, temp=r.random() < 0.2)
    reg, prof, bk = pick(r, REGIONS), pick(r, PROFILES), bucket(r)
    opts = [
        f"export AWS_ACCESS_KEY_ID={k}\nexport AWS_DEFAULT_REGION={reg}\n# secret half comes from `pass aws/{prof}`",
        f"[{prof}]\naws_access_key_id = {k}\nregion = {reg}\noutput = json",
        f"aws configure set aws_access_key_id {k} --profile {prof}",
        f's3 = boto3.client("s3", region_name="{reg}", aws_access_key_id="{k}", aws_secret_access_key=os.environ["AWS_SECRET"])',
        f"the {prof} IAM user's access key id is {k} (secret half is in 1Password)",
        f'{{\n    "Credentials": {{\n        "AccessKeyId": "{k}",\n        "Expiration": "{ts(r)}"\n    }}\n}}',
        f"docker run --rm -e AWS_ACCESS_KEY_ID={k} -e AWS_REGION={reg} amazon/aws-cli s3 ls s3://{bk}",
        f"env:\n  AWS_ACCESS_KEY_ID: {k}\n  AWS_REGION: {reg}",
        f'provider := credentials.NewStaticCredentialsProvider("{k}", os.Getenv("AWS_SECRET_ACCESS_KEY"), "")',
        f'AwsBasicCredentials creds = AwsBasicCredentials.create("{k}", System.getenv("AWS_SECRET_ACCESS_KEY"));',
        f"An error occurred (InvalidAccessKeyId) when calling the ListBuckets operation. Key used: {k}",
        f"access key -> {k}",
    ]
    return pick(r, opts), k


def k_aws_secret_access_key(r):
    s = aws_secret(r)
    kid = aws_kid(r)
    reg, prof = pick(r, REGIONS), pick(r, PROFILES)
    opts = [
        f"export AWS_SECRET_ACCESS_KEY={s}",
        f"export AWS_ACCESS_KEY_ID={kid}\nexport AWS_SECRET_ACCESS_KEY={s}\nexport AWS_REGION={reg}",
        f"[{prof}]\naws_access_key_id = {kid}\naws_secret_access_key = {s}",
        f'provider "aws" {{\n  region     = "{reg}"\n  access_key = "{kid}"\n  secret_key = "{s}"\n}}',
        f'session = boto3.Session(aws_access_key_id="{kid}", aws_secret_access_key="{s}", region_name="{reg}")',
        f'var creds = new BasicAWSCredentials("{kid}", "{s}");',
        f"'credentials' => [\n    'key'    => '{kid}',\n    'secret' => '{s}',\n],",
        f'let creds = Credentials::new("{kid}", "{s}", None, None, "static");',
        f"[s3-{prof}]\ntype = s3\nprovider = AWS\naccess_key_id = {kid}\nsecret_access_key = {s}\nregion = {reg}",
        f"aws secret key for the {prof} user: {s}",
        f"docker run -e AWS_SECRET_ACCESS_KEY='{s}' -e AWS_ACCESS_KEY_ID={kid} {pick(r, ORGS)}/uploader:latest",
        f'{{"AccessKeyId": "{kid}", "SecretAccessKey": "{s}", "SessionToken": null}}',
        f"AWS_SECRET_ACCESS_KEY: {s}",
    ]
    return pick(r, opts), s


def k_gcp_service_account_key(r):
    proj = f"{pick(r, ORGS)}-{pick(r, ENVS)}-{r.randint(100000, 999999)}"
    sa = f"{pick(r, SERVICES)}-sa@{proj}.iam.gserviceaccount.com"
    key = pem("PRIVATE KEY", b64(pkcs8_der(r))) + "\n"
    esc = json.dumps(key)[1:-1]
    doc = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": rs(r, HEX, 40),
        "private_key": key,
        "client_email": sa,
        "client_id": str(r.randint(10**20, 10**21 - 1)),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    k = r.randrange(5)
    if k == 0:
        text = json.dumps(doc, indent=2)
    elif k == 1:
        text = f"GOOGLE_CREDENTIALS='{json.dumps(doc)}'"
    elif k == 2:
        text = f'pasted from the key file:\n  "private_key_id": "{doc["private_key_id"]}",\n  "private_key": "{esc}",\n  "client_email": "{sa}",'
    elif k == 3:
        text = f"cat > /tmp/sa.json <<'EOF'\n{json.dumps(doc, indent=2)}\nEOF\ngcloud auth activate-service-account --key-file=/tmp/sa.json"
    else:
        text = f"gcp_sa_key: '{json.dumps(doc)}'  # for the {pick(r, SERVICES)} exporter"
    return text, esc


def k_azure_account_key(r):
    acct = f"{pick(r, ORGS).replace('-', '')}{pick(r, ENVS)}{r.randint(1, 99)}"[:24]
    key = b64(r.randbytes(64))
    conn = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"
    ns = f"{pick(r, ORGS)}-{pick(r, ENVS)}-bus"
    sbkey = b64(r.randbytes(32))
    sbconn = f"Endpoint=sb://{ns}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={sbkey}"
    opts = [
        (f'{{\n  "ConnectionStrings": {{\n    "Storage": "{conn}"\n  }}\n}}', key),
        (f'AZURE_STORAGE_CONNECTION_STRING="{conn}"', key),
        (f'var client = new BlobServiceClient("{conn}");', key),
        (
            f"az storage blob upload --account-name {acct} --account-key {key} -c backups -f dump.sql.gz -n dump.sql.gz",
            key,
        ),
        (f'svc = BlobServiceClient.from_connection_string("{conn}")', key),
        (
            f'{{\n  "IsEncrypted": false,\n  "Values": {{\n    "AzureWebJobsStorage": "{conn}",\n    "FUNCTIONS_WORKER_RUNTIME": "dotnet"\n  }}\n}}',
            key,
        ),
        (f"storage account key ({acct}): {key}", key),
        (f'"ServiceBus": "{sbconn}"', sbkey),
        (f"export SERVICEBUS_CONNECTION='{sbconn}'", sbkey),
        (f'azure_storage_key = "{key}"\nazure_storage_account = "{acct}"', key),
    ]
    return pick(r, opts)


def k_azure_sas_token(r):
    acct = f"{pick(r, ORGS).replace('-', '')}{pick(r, ENVS)}"[:24]
    sig = urllib.parse.quote(b64(r.randbytes(32)), safe="")
    se = f"{r.randint(2025, 2027)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T00:00:00Z"
    qs = f"sv=2022-11-02&ss=b&srt=sco&sp={pick(r, ['rwdlac', 'rl', 'racwdl', 'r'])}&se={se}&st={date(r)}T00:00:00Z&spr=https&sig={sig}"
    cont = pick(r, ["backups", "exports", "uploads", "public-assets", "logs"])
    url = f"https://{acct}.blob.core.windows.net/{cont}?{qs}"
    opts = [
        f'azcopy copy "./dist/*" "{url}" --recursive',
        f"SAS url for the export container (valid until {se[:10]}): {url}",
        f'AZURE_SAS_TOKEN="?{qs}"',
        f"curl -X PUT -H 'x-ms-blob-type: BlockBlob' --data-binary @report.csv \"https://{acct}.blob.core.windows.net/{cont}/report.csv?{qs}\"",
        f'blob_url: "{url}"',
        f'const containerClient = new ContainerClient("{url}");',
        f"wget -O data.parquet 'https://{acct}.blob.core.windows.net/{cont}/part-0001.parquet?{qs}'",
    ]
    return pick(r, opts), sig


def k_stripe_key(r):
    k = r.randrange(10)
    if k < 5:
        key = P_SK_LIVE + mixed(r, B62, pick(r, [24, 99]))
    elif k < 7:
        key = P_RK_LIVE + mixed(r, B62, pick(r, [24, 99]))
    elif k < 8:
        key = P_SK_TEST + mixed(r, B62, pick(r, [24, 99]))
    else:
        key = P_WHSEC + mixed(r, B62, 32)
    if key.startswith(P_WHSEC):
        opts = [
            f"STRIPE_WEBHOOK_SECRET={key}",
            f"event = stripe.Webhook.construct_event(payload, sig_header, '{key}')",
            f"const endpointSecret = '{key}';",
            f"stripe listen printed the signing secret: {key}",
        ]
    else:
        opts = [
            f'stripe.api_key = "{key}"',
            f"const stripe = require('stripe')('{key}');",
            f"curl https://api.stripe.com/v1/charges -u {key}: -d limit=3",
            f"Stripe.api_key = '{key}'",
            f"\\Stripe\\Stripe::setApiKey('{key}');",
            f'stripe.Key = "{key}"',
            f"STRIPE_SECRET_KEY={key}",
            f'StripeConfiguration.ApiKey = "{key}";',
            f'Stripe.apiKey = "{key}";',
            f"use this key for now: {key} (restricted, only charges:read)",
            f"stripe customers list --api-key {key} --limit 5",
            f"stripe:\n  secret_key: {key}\n  currency: eur",
        ]
    return pick(r, opts), key


def k_github_token(r):
    k = r.randrange(8)
    if k < 4:
        tok = P_GH + "p_" + mixed(r, B62, 36)
    elif k < 6:
        tok = P_GHPAT + mixed(r, B62, 22) + "_" + mixed(r, B62, 59)
    else:
        tok = P_GH + pick(r, ["o", "s", "u", "r"]) + "_" + mixed(r, B62, 36)
    org, repo, user = (
        pick(r, ORGS),
        f"{pick(r, SERVICES)}-{pick(r, ['api', 'web', 'infra', 'svc'])}",
        pick(r, PEOPLE).replace(".", ""),
    )
    opts = [
        f"git remote set-url origin https://{tok}@github.com/{org}/{repo}.git",
        f"git clone https://x-access-token:{tok}@github.com/{org}/{repo}.git",
        f"GH_TOKEN={tok} gh pr list --repo {org}/{repo}",
        f"echo {tok} | docker login ghcr.io -u {user} --password-stdin",
        f"//npm.pkg.github.com/:_authToken={tok}\n@{org}:registry=https://npm.pkg.github.com",
        f'curl -H "Authorization: token {tok}" https://api.github.com/repos/{org}/{repo}/actions/runs',
        f'g = Github("{tok}")',
        f'ts := oauth2.StaticTokenSource(&oauth2.Token{{AccessToken: "{tok}"}})',
        f'provider "github" {{\n  owner = "{org}"\n  token = "{tok}"\n}}',
        f"gh auth login --with-token <<< {tok}",
        f"https://{user}:{tok}@github.com",
        f"GITHUB_TOKEN: {tok}",
        f"const octokit = new Octokit({{ auth: '{tok}' }});",
    ]
    return pick(r, opts), tok


def k_gitlab_token(r):
    k = r.randrange(6)
    if k < 4:
        tok = P_GLPAT + mixed(r, B62 + "-_", 20)
    elif k == 4:
        tok = P_GLRT + mixed(r, B62 + "-_", 20)
    else:
        tok = P_GLDT + mixed(r, B62 + "-_", 20)
    gl = pick(r, ["gitlab.com", f"gitlab.{pick(r, DOMAINS)}"])
    grp, proj = pick(r, ORGS), pick(r, SERVICES)
    if tok.startswith(P_GLRT):
        opts = [
            f"gitlab-runner register --non-interactive --url https://{gl} --token {tok} --executor docker",
            f'[[runners]]\n  name = "{pick(r, SERVICES)}-runner"\n  url = "https://{gl}"\n  token = "{tok}"\n  executor = "docker"',
        ]
    else:
        opts = [
            f'curl --header "PRIVATE-TOKEN: {tok}" "https://{gl}/api/v4/projects/{r.randint(10, 9999)}/pipelines"',
            f"git clone https://oauth2:{tok}@{gl}/{grp}/{proj}.git",
            f"gl = gitlab.Gitlab('https://{gl}', private_token='{tok}')",
            f"GITLAB_TOKEN={tok}",
            f"glab auth login --hostname {gl} --token {tok}",
            f"deploy token for the registry: {tok} (user gitlab+deploy-token-{r.randint(1, 999)})",
            f'export TF_HTTP_PASSWORD="{tok}"',
        ]
    return pick(r, opts), tok


def k_slack_token(r):
    k = r.randrange(5)
    if k < 3:
        tok = J(
            P_XOX, "b-", str(r.randint(10**10, 10**12)), "-", str(r.randint(10**12, 10**13)), "-", mixed(r, B62, 24)
        )
    elif k == 3:
        tok = J(
            P_XOX,
            "p-",
            str(r.randint(10**10, 10**12)),
            "-",
            str(r.randint(10**10, 10**12)),
            "-",
            str(r.randint(10**12, 10**13)),
            "-",
            rs(r, HEX, 32),
        )
    else:
        tok = J(P_XAPP, "1-A", rs(r, UPDG, 10), "-", str(r.randint(10**12, 10**13)), "-", rs(r, HEX, 64))
    chan = pick(r, ["#deploys", "#alerts", "#ops", "#release-train"])
    opts = [
        f"SLACK_BOT_TOKEN={tok}",
        f'client = WebClient(token="{tok}")',
        f"const web = new WebClient('{tok}');",
        f'curl -X POST -H "Authorization: Bearer {tok}" -H "Content-type: application/json" --data \'{{"channel":"{chan}","text":"deployed"}}\' https://slack.com/api/chat.postMessage',
        f'api := slack.New("{tok}")',
        f'slack:\n  bot_token: {tok}\n  channel: "{chan}"',
        f"bot token for the release notifier is {tok}, posts to {chan}",
        f'export SLACK_APP_TOKEN="{tok}"',
    ]
    return pick(r, opts), tok


def k_webhook_url(r):
    k = r.randrange(5)
    if k < 2:
        url = J("https://hooks.slack.com/services/T", rs(r, UPDG, 10), "/B", rs(r, UPDG, 10), "/", mixed(r, B62, 24))
    elif k == 2:
        url = f"https://discord.com/api/webhooks/{r.randint(10**17, 10**19)}/{mixed(r, B64U, 68)}"
    elif k == 3:
        org = pick(r, ORGS).replace("-", "")
        url = f"https://{org}.webhook.office.com/webhookb2/{uuid4(r)}@{uuid4(r)}/IncomingWebhook/{rs(r, HEX, 32)}/{uuid4(r)}"
    else:
        url = (
            f"https://chat.googleapis.com/v1/spaces/AAAA{rs(r, B64U, 7)}/messages?key={P_AIZA}{rs(r, B64U, 35)}"
            f"&token={rs(r, B64U, 43)}%3D"
        )
    opts = [
        f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"backup finished\"}}' {url}",
        f"receivers:\n- name: ops\n  slack_configs:\n  - api_url: {url}\n    send_resolved: true",
        f"SLACK_WEBHOOK_URL={url}",
        f'requests.post("{url}", json={{"content": msg}})',
        f"alerts now go to {url} instead of email",
        f"webhook: '{url}'",
        f'const HOOK = "{url}";',
        f'- name: notify\n  run: curl -s -d \'{{"text":"build ok"}}\' "{url}"',
    ]
    return pick(r, opts), url


def k_twilio_credential(r):
    sid = "AC" + rs(r, HEX, 32)
    if r.random() < 0.75:
        secret = rs(r, HEX, 32)
        opts = [
            f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={secret}",
            f'client = Client("{sid}", "{secret}")',
            f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json --data-urlencode 'To=+1555{r.randint(1000000, 9999999)}' -u {sid}:{secret}",
            f"const client = require('twilio')('{sid}', '{secret}');",
            f'TwilioClient.Init("{sid}", "{secret}");',
            f"twilio auth token for the SMS sandbox: {secret}",
            f'twilio:\n  account_sid: {sid}\n  auth_token: "{secret}"',
        ]
    else:
        keysid = "SK" + rs(r, HEX, 32)
        secret = mixed(r, B62, 32)
        opts = [
            f"TWILIO_API_KEY={keysid}\nTWILIO_API_SECRET={secret}",
            f'client = Client("{keysid}", "{secret}", "{sid}")',
            f"twilio api key {keysid} / secret {secret}",
        ]
    return pick(r, opts), secret


def k_email_api_key(r):
    k = r.randrange(5)
    dom = f"mg.{pick(r, ORGS)}.com"
    if k < 2:
        key = J(P_SG, mixed(r, B64U, 22), ".", mixed(r, B64U, 43))
        opts = [
            f"SENDGRID_API_KEY={key}",
            f"sg = SendGridAPIClient('{key}')",
            f'curl --request POST --url https://api.sendgrid.com/v3/mail/send --header "Authorization: Bearer {key}" --header "Content-Type: application/json" -d @mail.json',
            f"sgMail.setApiKey('{key}');",
            f'var client = new SendGridClient("{key}");',
            f"smtp relay: smtp.sendgrid.net:587 user=apikey pass={key}",
        ]
    elif k == 2:
        key = P_MGKEY + rs(r, HEX, 32)
        opts = [
            f"curl -s --user 'api:{key}' https://api.mailgun.net/v3/{dom}/messages -F from='noreply@{dom}' -F to=test@example.com -F subject=hi -F text=test",
            f"MAILGUN_API_KEY={key}\nMAILGUN_DOMAIN={dom}",
            f"mailgun:\n  domain: {dom}\n  api_key: {key}",
        ]
    elif k == 3:
        key = f"{rs(r, HEX, 32)}-{rs(r, HEX, 8)}-{rs(r, HEX, 8)}"
        opts = [
            f"MAILGUN_API_KEY={key}",
            f"mg = Mailgun(api_key='{key}', domain='{dom}')",
            f"new mailgun key (old one revoked): {key}",
        ]
    else:
        key = f"{rs(r, HEX, 32)}-us{r.randint(1, 21)}"
        opts = [
            f"MAILCHIMP_API_KEY={key}",
            f'mailchimp.setConfig({{ apiKey: "{key}", server: "{key.split("-")[1]}" }});',
            f"curl -u 'anystring:{key}' https://{key.split('-')[1]}.api.mailchimp.com/3.0/lists",
        ]
    return pick(r, opts), key


def k_npm_token(r):
    tok = P_NPM + mixed(r, B62, 36) if r.random() < 0.8 else uuid4(r)
    scope = pick(r, ORGS)
    opts = [
        f"//registry.npmjs.org/:_authToken={tok}",
        f"registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={tok}\n@{scope}:registry=https://registry.npmjs.org/",
        f"npm config set //registry.npmjs.org/:_authToken {tok}",
        f'npmAuthToken: "{tok}"\nnpmPublishRegistry: "https://registry.npmjs.org"',
        f"- run: npm publish --access public\n  env:\n    NODE_AUTH_TOKEN: {tok}",
        f"NPM_TOKEN={tok} npm publish",
        f"publish token for @{scope}: {tok}",
    ]
    return pick(r, opts), tok


def k_pypi_token(r):
    test = r.random() < 0.2
    tok = J(P_PYPI, TESTPYPI_MAC if test else PYPI_MAC, "CJ", mixed(r, B64U, r.randint(130, 170)))
    repo = "testpypi" if test else "pypi"
    opts = [
        f"[{repo}]\n  username = __token__\n  password = {tok}",
        f"twine upload {'--repository testpypi ' if test else ''}dist/* -u __token__ -p {tok}",
        f"TWINE_USERNAME=__token__\nTWINE_PASSWORD={tok}",
        f"poetry config pypi-token.{repo} {tok}",
        f"uv publish --token {tok}",
        f"UV_PUBLISH_TOKEN: {tok}",
        f"project-scoped upload token: {tok}",
    ]
    return pick(r, opts), tok


def k_bot_token(r):
    if r.random() < 0.5:
        uid = str(r.randint(10**17, 10**19 - 1))
        tok = J(b64s(uid).rstrip("="), ".", rs(r, B64U, 6), ".", mixed(r, B64U, 38))
        opts = [
            f"client.run('{tok}')",
            f"DISCORD_TOKEN={tok}",
            f'curl -H "Authorization: Bot {tok}" https://discord.com/api/v10/users/@me',
            f"client.login('{tok}');",
            f"discord bot token (the moderation bot): {tok}",
            f'{{\n  "token": "{tok}",\n  "prefix": "!"\n}}',
        ]
    else:
        tok = f"{r.randint(10**8, 10**10 - 1)}:AA{mixed(r, B64U, 33)}"
        opts = [
            f"curl -s 'https://api.telegram.org/bot{tok}/sendMessage?chat_id=-100{r.randint(10**9, 10**10)}&text=deploy+ok'",
            f"TELEGRAM_BOT_TOKEN={tok}",
            f'app = Application.builder().token("{tok}").build()',
            f"BotFather gave me {tok} for the alerts bot",
            f"const bot = new Telegraf('{tok}');",
            f'telegram:\n  token: "{tok}"\n  chat_id: {r.randint(10**8, 10**9)}',
        ]
    return pick(r, opts), tok


def k_llm_api_key(r):
    k = r.randrange(10)
    if k < 3:
        key = J(P_SKDASH, P_PROJ, mixed(r, B64U, 74), OAI_MARK, mixed(r, B64U, 74))
        var = "OPENAI_API_KEY"
    elif k < 4:
        key = J(P_SKDASH, mixed(r, B62, 20), OAI_MARK, mixed(r, B62, 20))
        var = "OPENAI_API_KEY"
    elif k < 7:
        key = J(P_ANT, mixed(r, B64U, 93), "AA")
        var = "ANTHROPIC_API_KEY"
    elif k < 8:
        key = P_GSK + mixed(r, B62, 52)
        var = "GROQ_API_KEY"
    elif k < 9:
        key = P_XAI + mixed(r, B62, 80)
        var = "XAI_API_KEY"
    else:
        key = mixed(r, B62, 32)
        var = "MISTRAL_API_KEY"
    opts = [
        f"export {var}={key}",
        f'{var}="{key}"',
        f'{{\n  "mcpServers": {{\n    "{pick(r, SERVICES)}": {{\n      "command": "npx",\n      "env": {{ "{var}": "{key}" }}\n    }}\n  }}\n}}',
        f"key for the eval harness: {key}",
    ]
    if var == "OPENAI_API_KEY":
        opts += [
            f'client = OpenAI(api_key="{key}")',
            f'curl https://api.openai.com/v1/chat/completions -H "Authorization: Bearer {key}" -H "Content-Type: application/json" -d @req.json',
            f'llm = ChatOpenAI(model="gpt-4o-mini", openai_api_key="{key}")',
        ]
    elif var == "ANTHROPIC_API_KEY":
        opts += [
            f'client = anthropic.Anthropic(api_key="{key}")',
            f"curl https://api.anthropic.com/v1/messages -H 'x-api-key: {key}' -H 'anthropic-version: 2023-06-01' -H 'content-type: application/json' -d @msg.json",
            f"const anthropic = new Anthropic({{ apiKey: '{key}' }});",
        ]
    else:
        opts += [f'client = Client(api_key="{key}")']
    return pick(r, opts), key


def k_shopify_token(r):
    kind = pick(r, ["at_", "at_", "ca_", "pa_", "ss_"])
    tok = J(P_SHP, kind, rs(r, HEX, 32))
    shop = f"{pick(r, ORGS)}-{pick(r, ['store', 'shop', 'dev'])}.myshopify.com"
    if kind == "ss_":
        opts = [
            f"SHOPIFY_API_SECRET={tok}",
            f"ShopifyAPI::Context.setup(api_key: '{rs(r, HEX, 32)}', api_secret_key: '{tok}', host: 'https://{shop}')",
            f"app shared secret: {tok}",
        ]
    else:
        opts = [
            f'curl -H "X-Shopify-Access-Token: {tok}" https://{shop}/admin/api/2024-01/products.json',
            f"SHOPIFY_ADMIN_TOKEN={tok}\nSHOPIFY_STORE={shop}",
            f"session = shopify.Session('{shop}', '2024-01', '{tok}')",
            f"admin api token for {shop}: {tok}",
            f"const client = new shopify.clients.Rest({{session: {{shop: '{shop}', accessToken: '{tok}'}}}});",
        ]
    return pick(r, opts), tok


def k_heroku_api_key(r):
    tok = J(P_HRKU, "AA", mixed(r, B64U, 58)) if r.random() < 0.7 else uuid4(r)
    app = f"{pick(r, ORGS)}-{pick(r, SERVICES)}"
    opts = [
        f"HEROKU_API_KEY={tok} heroku ps -a {app}",
        f"machine api.heroku.com\n  login {email(r)}\n  password {tok}\nmachine git.heroku.com\n  login {email(r)}\n  password {tok}",
        f'curl -n https://api.heroku.com/apps/{app}/config-vars -H "Accept: application/vnd.heroku+json; version=3" -H "Authorization: Bearer {tok}"',
        f"- uses: akhileshns/heroku-deploy@v3.13.15\n  with:\n    heroku_api_key: {tok}\n    heroku_app_name: {app}",
        f"heroku api key (from `heroku authorizations:create`): {tok}",
        f'export HEROKU_API_KEY="{tok}"',
    ]
    return pick(r, opts), tok


def k_digitalocean_token(r):
    tok = J(P_DO, pick(r, ["p", "p", "p", "o", "r"]), "_v1_", rs(r, HEX, 64))
    opts = [
        f"doctl auth init --access-token {tok}",
        f"DIGITALOCEAN_ACCESS_TOKEN={tok}",
        f'provider "digitalocean" {{\n  token = "{tok}"\n}}',
        f'curl -X GET -H "Authorization: Bearer {tok}" "https://api.digitalocean.com/v2/droplets?page=1"',
        f"do token w/ write scope: {tok}",
        f'client = pydo.Client(token="{tok}")',
    ]
    return pick(r, opts), tok


def k_datadog_key(r):
    if r.random() < 0.6:
        key = rs(r, HEX, 32)
        opts = [
            f'docker run -d --name dd-agent -e DD_API_KEY={key} -e DD_SITE="datadoghq.eu" -v /var/run/docker.sock:/var/run/docker.sock:ro gcr.io/datadoghq/agent:7',
            f"api_key: {key}\nsite: datadoghq.com\nlogs_enabled: true",
            f"helm install datadog-agent --set datadog.apiKey={key} --set datadog.site=datadoghq.com datadog/datadog",
            f"DD_API_KEY={key}",
            f"datadog api key for {pick(r, ENVS)}: {key}",
            f"initialize(api_key='{key}', app_key=os.environ['DD_APP_KEY'])",
        ]
    else:
        key = rs(r, HEX, 40)
        opts = [
            f"DD_APP_KEY={key}",
            f'curl -X GET "https://api.datadoghq.com/api/v1/monitor" -H "DD-API-KEY: ${{DD_API_KEY}}" -H "DD-APPLICATION-KEY: {key}"',
            f"datadog application key (terraform): {key}",
            f'provider "datadog" {{\n  api_key = var.dd_api_key\n  app_key = "{key}"\n}}',
        ]
    return pick(r, opts), key


def k_sentry_credential(r):
    k = r.randrange(5)
    org, proj = r.randint(100000, 9999999), r.randint(1000000, 9999999)
    if k < 2:
        secret = rs(r, HEX, 32)
        dsn = f"https://{secret}@o{org}.ingest.{pick(r, ['', 'us.', 'de.'])}sentry.io/{proj}"
        opts = [
            f"SENTRY_DSN={dsn}",
            f'sentry_sdk.init(dsn="{dsn}", traces_sample_rate=0.2)',
            f'Sentry.init({{ dsn: "{dsn}", environment: "{pick(r, ENVS)}" }});',
            f"sentry:\n  dsn: {dsn}",
        ]
    elif k == 2:
        pub = rs(r, HEX, 32)
        secret = rs(r, HEX, 32)
        dsn = f"https://{pub}:{secret}@sentry.{pick(r, DOMAINS)}/{r.randint(2, 99)}"
        opts = [
            f"RAVEN_DSN={dsn}",
            f"SENTRY_DSN = '{dsn}'  # old on-prem sentry",
            f"client = Client('{dsn}')",
        ]
    elif k == 3:
        body = b64u(
            json.dumps(
                {
                    "iat": float(r.randint(1_700_000_000, 1_740_000_000)),
                    "url": "https://sentry.io",
                    "region_url": "https://us.sentry.io",
                    "org": pick(r, ORGS),
                },
                separators=(",", ":"),
            ).encode()
        )
        secret = J(P_SNTRYS, body, "_", mixed(r, B64U, 43))
        opts = [
            f"SENTRY_AUTH_TOKEN={secret}",
            f"sentry-cli --auth-token {secret} releases new {rs(r, HEX, 12)}",
            f"[auth]\ntoken={secret}",
        ]
    else:
        secret = P_SNTRYU + rs(r, HEX, 64)
        opts = [
            f"SENTRY_AUTH_TOKEN={secret} sentry-cli sourcemaps upload ./dist",
            f"personal sentry token: {secret}",
        ]
    return pick(r, opts), secret


def k_vault_token(r):
    k = r.randrange(5)
    if k < 2:
        tok = P_HVS + mixed(r, B62, 24)
    elif k < 4:
        tok = P_HVS + "CAESI" + mixed(r, B64U, 86)
    else:
        tok = "s." + mixed(r, B62, 24)
    vh = f"https://vault.{pick(r, DOMAINS)}:8200"
    opts = [
        f"export VAULT_ADDR={vh}\nexport VAULT_TOKEN={tok}",
        f"vault login {tok}",
        f'curl --header "X-Vault-Token: {tok}" {vh}/v1/secret/data/{pick(r, SERVICES)}',
        f"client = hvac.Client(url='{vh}', token='{tok}')",
        f'provider "vault" {{\n  address = "{vh}"\n  token   = "{tok}"\n}}',
        f"Unseal Key 1: {b64(r.randbytes(33))}\nUnseal Key 2: {b64(r.randbytes(33))}\n\nInitial Root Token: {tok}",
        f"echo '{tok}' > ~/.vault-token",
        f"root token for the dev vault is {tok}",
    ]
    return pick(r, opts), tok


def k_huggingface_token(r):
    tok = P_HF + mixed(r, UP + LO, 34)
    org = pick(r, ORGS)
    opts = [
        f"HF_TOKEN={tok}",
        f"huggingface-cli login --token {tok}",
        f'from huggingface_hub import login\nlogin(token="{tok}")',
        f'model = AutoModel.from_pretrained("{org}/{pick(r, SERVICES)}-classifier", token="{tok}")',
        f"git clone https://{pick(r, PEOPLE).replace('.', '')}:{tok}@huggingface.co/{org}/{pick(r, SERVICES)}-model",
        f"docker run --gpus all -e HUGGING_FACE_HUB_TOKEN={tok} ghcr.io/huggingface/text-generation-inference:2.0",
        f"read token for the gated llama repo: {tok}",
    ]
    return pick(r, opts), tok


def k_payment_token(r):
    k = r.randrange(6)
    if k == 0:
        tok = P_SQATP + mixed(r, B64U, 22)
    elif k == 1:
        tok = P_EAAA + mixed(r, B64U, 60)
    elif k == 2:
        tok = P_SQCSP + mixed(r, B64U, 43)
    elif k == 3:
        tok = J(P_BT, pick(r, ["production", "sandbox"]), "$", rs(r, LODG, 16), "$", rs(r, HEX, 32))
    elif k == 4:
        tok = "E" + mixed(r, B64U, 79)
    else:
        tok = rs(r, HEX, 32)
    if k in (0, 1):
        opts = [
            f"SQUARE_ACCESS_TOKEN={tok}",
            f"client = Client(access_token='{tok}', environment='production')",
            f'curl https://connect.squareup.com/v2/locations -H "Square-Version: 2024-01-18" -H "Authorization: Bearer {tok}"',
            f"square prod access token: {tok}",
        ]
    elif k == 2:
        opts = [f"SQUARE_APPLICATION_SECRET={tok}", f"square oauth app secret -> {tok}"]
    elif k == 3:
        opts = [
            f"BRAINTREE_ACCESS_TOKEN={tok}",
            f'gateway = braintree.BraintreeGateway(access_token="{tok}")',
            f"paypal/braintree access token: {tok}",
        ]
    elif k == 4:
        cid = "A" + rs(r, B64U, 79)
        opts = [
            f"PAYPAL_CLIENT_ID={cid}\nPAYPAL_CLIENT_SECRET={tok}",
            f'curl -v https://api-m.paypal.com/v1/oauth2/token -u "{cid}:{tok}" -d "grant_type=client_credentials"',
            f"paypal:\n  client_id: {cid}\n  client_secret: {tok}",
        ]
    else:
        opts = [
            f"braintree:\n  environment: production\n  merchant_id: {rs(r, LODG, 16)}\n  public_key: {rs(r, LODG, 16)}\n  private_key: {tok}",
            f"Braintree::Configuration.private_key = '{tok}'",
            f"BRAINTREE_PRIVATE_KEY={tok}",
        ]
    return pick(r, opts), tok


def k_google_api_key(r):
    if r.random() < 0.75:
        key = P_AIZA + mixed(r, B64U, 35)
        addr = pick(r, ["Berlin", "1600+Amphitheatre+Pkwy", "Main+St+12"])
        opts = [
            f"curl 'https://maps.googleapis.com/maps/api/geocode/json?address={addr}&key={key}'",
            f"GOOGLE_API_KEY={key}",
            f'genai.configure(api_key="{key}")',
            f'<script src="https://maps.googleapis.com/maps/api/js?key={key}&callback=initMap" async></script>',
            f'"api_key": [\n  {{\n    "current_key": "{key}"\n  }}\n],',
            f"youtube = build('youtube', 'v3', developerKey='{key}')",
            f"gemini key (billing enabled!): {key}",
            f"GEMINI_API_KEY: {key}",
        ]
    else:
        key = J("AAAA", rs(r, B64U, 7), P_APA, mixed(r, B64U, 134))
        opts = [
            f'curl -X POST -H "Authorization: key={key}" -H "Content-Type: application/json" -d @push.json https://fcm.googleapis.com/fcm/send',
            f"FCM_SERVER_KEY={key}",
            f"firebase legacy server key: {key}",
        ]
    return pick(r, opts), key


def k_algolia_admin_key(r):
    app = rs(r, UPDG, 10)
    key = rs(r, HEX, 32)
    idx = pick(r, ["products", "docs", "articles", "users_prod"])
    opts = [
        f"const client = algoliasearch('{app}', '{key}');",
        f"client = SearchClient.create('{app}', '{key}')",
        f"ALGOLIA_APP_ID={app}\nALGOLIA_ADMIN_API_KEY={key}",
        f'curl -X POST -H "X-Algolia-API-Key: {key}" -H "X-Algolia-Application-Id: {app}" "https://{app}-dsn.algolia.net/1/indexes/{idx}/clear"',
        f"algolia admin key (do NOT ship to the frontend): {key}",
        f"algolia:\n  app_id: {app}\n  admin_key: {key}\n  index: {idx}",
    ]
    return pick(r, opts), key


def k_mapbox_secret_token(r):
    user = pick(r, PEOPLE).replace(".", "") + pick(r, ["", "-maps", str(r.randint(1, 99))])
    payload = b64u(json.dumps({"u": user, "a": rs(r, LODG, 25)}, separators=(",", ":")).encode())
    tok = J(P_MBX, payload, ".", mixed(r, B64U, 22))
    opts = [
        f"MAPBOX_DOWNLOADS_TOKEN={tok}",
        f"machine api.mapbox.com\nlogin mapbox\npassword {tok}",
        f'curl "https://api.mapbox.com/tokens/v2/{user}?access_token={tok}"',
        f"mapbox secret token (downloads:read): {tok}",
        f"SDK_REGISTRY_TOKEN={tok}",
    ]
    return pick(r, opts), tok


def k_jwt(r):
    tok = make_jwt(r)
    h = host(r)
    opts = [
        f"Authorization: Bearer {tok}",
        f'curl -H "Authorization: Bearer {tok}" https://{h}/api/v2/{pick(r, ["orders", "users", "reports"])}',
        f"Cookie: access_token={tok}; Path=/; HttpOnly",
        f"localStorage.setItem('id_token', '{tok}')",
        f"{ts(r)} WARN auth: token rejected (aud mismatch) token={tok}",
        f'headers = {{"Authorization": f"Bearer {tok}"}}',
        f"SUPABASE_SERVICE_ROLE_KEY={tok}",
        f"GET https://{h}/v1/me\nAuthorization: Bearer {tok}\nAccept: application/json",
        f"the service token for {pick(r, SERVICES)} (expires next year): {tok}",
        f"grpcurl -H 'authorization: Bearer {tok}' {h}:443 list",
    ]
    return pick(r, opts), tok


def k_private_key(r):
    who = f"{pick(r, USERS)}@{pick(r, SERVICES)}"
    blk = private_key_block(r, who)
    k = r.randrange(7)
    if k == 0:
        return f"here's the deploy key for {pick(r, SERVICES)}:\n{blk}", blk
    if k == 1:
        ind = "\n".join("    " + ln for ln in blk.split("\n"))
        return f"deploy:\n  host: {host(r)}\n  ssh_private_key: |\n{ind}", ind.lstrip(" ")
    if k == 2:
        return f'echo "{blk}" > ~/.ssh/id_{pick(r, ["rsa", "ed25519", "deploy"])}\nchmod 600 ~/.ssh/id_*', blk
    if k == 3:
        esc = blk.replace("\n", "\\n")
        return f'{{"host": "{host(r)}", "user": "{pick(r, USERS)}", "private_key": "{esc}"}}', esc
    if k == 4:
        ind = "\n".join("    " + ln for ln in blk.split("\n"))
        return (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {pick(r, SERVICES)}-tls\ntype: kubernetes.io/tls\n"
            f"stringData:\n  tls.key: |\n{ind}"
        ), ind.lstrip(" ")
    if k == 5:
        return f'resource "tls_private_key" "imported" {{}}\nlocals {{\n  key = <<EOT\n{blk}\nEOT\n}}', blk
    return blk, blk


def k_db_url_password(r):
    _raw, pw = url_pw(r)
    user, h, db = pick(r, USERS), dbhost(r), pick(r, DBNAMES)
    k = r.randrange(9)
    if k == 0:
        url = f"postgres{pick(r, ['', 'ql'])}://{user}:{pw}@{h}:5432/{db}{pick(r, ['', '?sslmode=require'])}"
    elif k == 1:
        url = f"mysql://{user}:{pw}@{h}:3306/{db}"
    elif k == 2:
        url = f"mongodb+srv://{user}:{pw}@{pick(r, ORGS)}-{pick(r, ENVS)}.{rs(r, LODG, 5)}.mongodb.net/{db}?retryWrites=true&w=majority"
    elif k == 3:
        url = f"redis{pick(r, ['', 's'])}://{pick(r, ['', 'default'])}:{pw}@{h}:6379/0"
    elif k == 4:
        url = f"amqp://{user}:{pw}@{h}:5672/{pick(r, ['%2F', 'vhost', ''])}"
    elif k == 5:
        url = f"postgresql+psycopg2://{user}:{pw}@{h}/{db}"
    elif k == 6:
        url = f"jdbc:postgresql://{h}:5432/{db}?user={user}&password={pw}"
    elif k == 7:
        url = f"{user}:{pw}@tcp({h}:3306)/{db}?parseTime=true"
    else:
        url = f"mssql://{user}:{pw}@{h}:1433/{db}"
    opts = [
        f"DATABASE_URL={url}",
        f'DATABASE_URL="{url}"',
        f"psql says auth ok with {url}",
        f'engine = create_engine("{url}")',
        f"broker_url = '{url}'",
        f"{pick(r, ENVS)} db -> {url}",
        f"spring.datasource.url={url}",
        f'db, err := sql.Open("mysql", "{url}")',
        f'  - name: DATABASE_URL\n    value: "{url}"',
        f"connection string for {pick(r, ENVS)}: `{url}`",
    ]
    return pick(r, opts), pw


def k_db_config_password(r):
    pw = any_pw(r)
    user, h, db = pick(r, USERS), dbhost(r), pick(r, DBNAMES)
    sq = "'" not in pw
    opts = [
        f'services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: {user}\n      POSTGRES_PASSWORD: "{pw}"\n      POSTGRES_DB: {db}',
        f'  mysql:\n    image: mysql:8.0\n    environment:\n      MYSQL_ROOT_PASSWORD: "{pw}"',
        f"DATABASES = {{\n    'default': {{\n        'ENGINE': 'django.db.backends.postgresql',\n        'NAME': '{db}',\n        'USER': '{user}',\n        'PASSWORD': {json.dumps(pw)},\n        'HOST': '{h}',\n    }}\n}}",
        f'production:\n  adapter: postgresql\n  database: {db}\n  username: {user}\n  password: "{pw}"\n  host: {h}',
        f"spring.datasource.username={user}\nspring.datasource.password={pw}",
        f'"ConnectionStrings": {{ "Default": "Server={h};Database={db};User Id={user};Password={pw};TrustServerCertificate=True" }}',
        f'<property name="hibernate.connection.password">{pw}</property>',
        f'env:\n  - name: DB_USER\n    value: {user}\n  - name: DB_PASSWORD\n    value: "{pw}"',
        f"$pdo = new PDO('mysql:host={h};dbname={db}', '{user}', {json.dumps(pw)});",
        f"const knex = require('knex')({{ client: 'pg', connection: {{ host: '{h}', user: '{user}', password: {json.dumps(pw)}, database: '{db}' }} }});",
        f'[database]\nhost = "{h}"\nuser = "{user}"\npassword = {json.dumps(pw)}\nname = "{db}"',
        f"[mysqld_client]\nuser={user}\npassword={pw}\nhost={h}",
        f"DB_HOST={h}\nDB_USER={user}\nDB_PASS={pw}",
        f"changelogFile: db/changelog.xml\nurl: jdbc:postgresql://{h}:5432/{db}\nusername: {user}\npassword: {pw}",
    ]
    if sq:
        opts.append(f"ALTER USER {user} WITH PASSWORD '{pw}';")
        opts.append(f"CREATE USER '{user}'@'%' IDENTIFIED BY '{pw}';")
    return pick(r, opts), pw


def k_db_cli_password(r):
    pw = any_pw(r)
    user, h, db = pick(r, USERS), dbhost(r), pick(r, DBNAMES)
    qpw = f"'{pw}'" if any(c in pw for c in "!$&*#?^@ ") and "'" not in pw else pw
    opts = [
        f"mysql -u {user} -p{qpw} -h {h} {db}",
        f"mysql --host={h} --user={user} --password={qpw} {db} < migrate.sql",
        f"PGPASSWORD={qpw} psql -h {h} -U {user} -d {db} -c 'select count(*) from events'",
        f"mysqldump -u{user} -p{qpw} --single-transaction {db} | gzip > {db}.sql.gz",
        f"redis-cli -h {h} -p 6379 -a {qpw} --no-auth-warning info replication",
        f'sqlcmd -S {h} -U sa -P {qpw} -Q "SELECT name FROM sys.databases"',
        f"mongosh --host {h} --username {user} --password {qpw} --authenticationDatabase admin",
        f"clickhouse-client --host {h} --user {user} --password {qpw} --query 'SHOW TABLES'",
        f"cqlsh {h} -u cassandra -p {qpw}",
        f"$ export PGPASSWORD={qpw}\n$ pg_dump -h {h} -U {user} {db} > backup.sql",
        f"influx -host {h} -username {user} -password {qpw} -database {db}",
        f"mariadb -h {h} -u {user} --password={qpw} -e 'SHOW PROCESSLIST'",
    ]
    return pick(r, opts), pw


def k_chat_password(r):
    pw = any_pw(r)
    h, u = host(r), pick(r, USERS)
    svc = pick(
        r,
        [
            "grafana",
            "jenkins",
            "the NAS",
            "pgadmin",
            "the router",
            "rabbitmq console",
            "keycloak",
            "argo cd",
            "the vendor portal",
            "minio console",
        ],
    )
    opts = [
        f"the {pick(r, ENVS)} pw is {pw}",
        f"admin login for {svc}: {u} / {pw}",
        f"root password on the jump box is now {pw} - don't share outside the team",
        f"Passwort für den Testserver {h}: {pw}",
        f"la contraseña de admin en {h} es {pw}",
        f"mot de passe du compte {u} : {pw}",
        f"senha do banco de staging: {pw}",
        f"{svc} のパスワードは {pw} です",
        f"пароль от стенда {h}: {pw}",
        f"user: {u}\npass: {pw}",
        f"creds for {svc} -> {u} / {pw}",
        f"new password for the {pick(r, SERVICES)} service account: `{pw}`",
        f"{pick(r, PEOPLE)}: can you log into {svc}?\n{pick(r, PEOPLE)}: yes, {u} and {pw}",
        f"lesson: {svc} resets to default after upgrade, I set the admin password back to {pw}",
        f"Login: {u}\nPassword: {pw}\nURL: https://{h}/",
        f"password = {pw}",
        f"pw for {svc} changed to {pw} after the audit",
    ]
    return pick(r, opts), pw


def k_ssh_password(r):
    pw = any_pw(r)
    u, h = pick(r, USERS), pick(r, [host(r), ip(r)])
    qpw = f"'{pw}'" if "'" not in pw else f'"{pw}"'
    opts = [
        f"sshpass -p {qpw} ssh -o StrictHostKeyChecking=no {u}@{h} 'sudo systemctl restart {pick(r, SERVICES)}'",
        f"sshpass -p {qpw} scp backup.tar.gz {u}@{h}:/srv/backups/",
        f"[web]\n{h} ansible_user={u} ansible_ssh_pass={pw}",
        f'ansible_user: {u}\nansible_password: "{pw}"\nansible_become_password: "{pw}"',
        f"ssh.connect('{h}', username='{u}', password={json.dumps(pw)})",
        f"ssh {u}@{h}  (password: {pw})",
        f"plink -ssh {u}@{h} -pw {qpw} -batch uptime",
        f"net use Z: \\\\{pick(r, ['fs01', 'nas', 'files'])}\\share {qpw} /user:CORP\\{u}",
        f'expect "password:"\nsend "{pw}\\r"',
        f"the {u} account on {h} has password {pw}, key auth is broken for now",
        f'session := &ssh.ClientConfig{{User: "{u}", Auth: []ssh.AuthMethod{{ssh.Password({json.dumps(pw)})}}}}',
    ]
    return pick(r, opts), pw


def k_basic_auth(r):
    u = pick(r, USERS + PEOPLE)
    k = r.randrange(9)
    h = host(r)
    if k == 0:
        pw = any_pw(r)
        cred = b64s(f"{u}:{pw}")
        return pick(
            r,
            [
                f"Authorization: Basic {cred}",
                f'curl -H "Authorization: Basic {cred}" https://{h}/api/health',
                f"headers: {{ Authorization: 'Basic {cred}' }}",
            ],
        ), cred
    if k == 1:
        pw = any_pw(r)
        qp = f"'{u}:{pw}'" if "'" not in pw else f'"{u}:{pw}"'
        return f"curl -u {qp} https://{h}/api/v1/jobs", pw
    raw, pw = url_pw(r)
    if k == 2:
        return (
            f"pip install --index-url https://{u}:{pw}@pypi.{pick(r, DOMAINS)}/simple/ {pick(r, SERVICES)}-client",
            pw,
        )
    if k == 3:
        return f"docker login -u {u} -p '{raw}' registry.{pick(r, DOMAINS)}", raw
    if k == 4:
        return f"jenkins url with creds: https://{u}:{pw}@jenkins.{pick(r, DOMAINS)}/job/{pick(r, SERVICES)}/build", pw
    if k == 5:
        return f'resp = requests.get("https://{h}/export", auth=("{u}", {json.dumps(raw)}))', raw
    if k == 6:
        return f"machine {h}\n  login {u}\n  password {raw}", raw
    if k == 7:
        return f"ELASTICSEARCH_URL=https://elastic:{pw}@es-{pick(r, ENVS)}.{pick(r, DOMAINS)}:9200", pw
    return f"proxy = http://{u}:{pw}@proxy.{pick(r, DOMAINS)}:3128", pw


def k_kubernetes_token(r):
    ns, sa = (
        pick(r, ["default", "kube-system", "ci", "monitoring", "argo"]),
        pick(r, ["deployer", "ci-bot", "admin-user", "prometheus"]),
    )
    k = r.randrange(6)
    server = f"https://{ip(r)}:6443"
    if k <= 1:
        tok = k8s_sa_jwt(r, ns, sa)
        cad = b64s(pem("CERTIFICATE", b64(r.randbytes(r.randint(700, 800)))) + "\n")
        text = (
            f"apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority-data: {cad}\n    server: {server}\n"
            f"  name: {pick(r, ENVS)}\ncontexts:\n- context:\n    cluster: {pick(r, ENVS)}\n    user: {sa}\n  name: {sa}\n"
            f"current-context: {sa}\nusers:\n- name: {sa}\n  user:\n    token: {tok}"
        )
        return text, tok
    if k == 2:
        tok = k8s_sa_jwt(r, ns, sa)
        return f"kubectl --server={server} --token={tok} --insecure-skip-tls-verify get pods -n {ns}", tok
    if k == 3:
        tok = f"{rs(r, LODG, 6)}.{rs(r, LODG, 16)}"
        return (
            f"kubeadm join {ip(r)}:6443 --token {tok} \\\n    --discovery-token-ca-cert-hash sha256:{rs(r, HEX, 64)}"
        ), tok
    if k == 4:
        pw = any_pw(r)
        enc = b64s(pw)
        return (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {pick(r, SERVICES)}-db\n  namespace: {ns}\ntype: Opaque\n"
            f"data:\n  username: {b64s(pick(r, USERS))}\n  password: {enc}"
        ), enc
    tok = (
        f"kubeconfig-u-{rs(r, LODG, 10)}:{rs(r, LODG, 54)}"
        if r.random() < 0.5
        else f"token-{rs(r, LODG, 5)}:{rs(r, LODG, 54)}"
    )
    return f"rancher login https://rancher.{pick(r, DOMAINS)}/v3 --token {tok}", tok


def k_wifi_psk(r):
    ssid = pick(r, SSIDS)
    pw = human_pw(r) if r.random() < 0.6 else random_pw(r, r.randint(12, 20), syms="-_.!")
    opts = [
        f'network={{\n    ssid="{ssid}"\n    psk="{pw}"\n    key_mgmt=WPA-PSK\n}}',
        f'nmcli dev wifi connect "{ssid}" password "{pw}"',
        f"interface=wlan0\nssid={ssid}\nwpa=2\nwpa_passphrase={pw}",
        f"WIFI:T:WPA;S:{ssid};P:{pw};;",
        f"guest wifi: {ssid} / {pw}",
        f'wifis:\n  wlan0:\n    access-points:\n      "{ssid}":\n        password: "{pw}"',
        f'const char* ssid = "{ssid}";\nconst char* password = "{pw}";',
        f"WLAN-Schlüssel für {ssid}: {pw}",
        f"wifi in the lab is {ssid}, key {pw}",
    ]
    return pick(r, opts), pw


def k_totp_seed(r):
    k = r.randrange(6)
    issuer = pick(r, ["AWS", "GitHub", "Okta", "Cloudflare", "Stripe", "Google", "Grafana"])
    acct = email(r)
    if k <= 1:
        seed = rs(r, B32, pick(r, [16, 32, 32]))
        return pick(
            r,
            [
                f"otpauth://totp/{issuer}:{acct}?secret={seed}&issuer={issuer}&algorithm=SHA1&digits=6&period=30",
                f"MFA for the shared {issuer} root account, seed (scan or type): otpauth://totp/{issuer}:{acct}?secret={seed}&issuer={issuer}",
            ],
        ), seed
    if k == 2:
        seed = rs(r, B32, 32).lower()
        grouped = " ".join(seed[i : i + 4] for i in range(0, 32, 4))
        return f"{issuer} 2FA setup key for {acct}: {grouped}", grouped
    if k == 3:
        seed = rs(r, B32, 32)
        return pick(
            r,
            [
                f'totp = pyotp.TOTP("{seed}")\nprint(totp.now())',
                f"MFA_SECRET={seed}",
                f"TOTP seed for the ci-bot {issuer} account -> {seed}",
            ],
        ), seed
    if k == 4:
        codes = [f"{rs(r, LODG, 5)}-{rs(r, LODG, 5)}" for _ in range(r.randint(8, 10))]
        block = "\n".join(codes)
        return f"{issuer} recovery codes for {acct}:\n{block}\nkeep these safe", block
    codes = [rs(r, DG, 8) for _ in range(r.randint(6, 10))]
    block = " ".join(codes)
    return f"backup codes ({issuer}, shared admin): {block}", block


def k_api_key_query(r):
    k = r.randrange(7)
    city = pick(r, ["Berlin", "Lisbon", "Austin", "Osaka", "Toronto"])
    if k == 0:
        key = rs(r, HEX, 32)
        url = f"https://api.openweathermap.org/data/2.5/weather?q={city}&appid={key}&units=metric"
    elif k == 1:
        key = rs(r, HEX, 32)
        url = f"https://newsapi.org/v2/top-headlines?country=us&apiKey={key}"
    elif k == 2:
        key = mixed(r, B62, 32)
        url = f"https://api.{pick(r, DOMAINS)}/v1/export?format=csv&api_key={key}"
    elif k == 3:
        key = mixed(r, B62, 40)
        url = f"https://{host(r)}/reports/daily.json?access_token={key}"
    elif k == 4:
        key = mixed(r, B64U, 43)
        url = f"wss://stream.{pick(r, DOMAINS)}/ws?token={key}"
    elif k == 5:
        key = mixed(r, UPDG, 16)
        url = f"https://www.alphavantage.co/query?function=TIME_SERIES_DAILY&symbol=IBM&apikey={key}"
    else:
        key = mixed(r, B62, 24)
        url = f"https://{host(r)}/hooks/ingest?secret={key}&source=github"
    path = "/" + url.split("://", 1)[1].split("/", 1)[1]
    opts = [
        f"curl '{url}'",
        f'fetch("{url}")',
        f'{ip(r)} - - [{r.randint(1, 28):02d}/May/2024:{hhmm(r)}:{r.randint(10, 59)} +0000] "GET {path} HTTP/1.1" 200 {r.randint(100, 9999)}',
        f"this works: {url}",
        f'requests.get("{url}", timeout=10)',
        f"endpoint: {url}",
    ]
    return pick(r, opts), key


def k_app_secret(r):
    k = r.randrange(10)
    if k == 0:
        s = P_DJ + rs(r, LO + DG + "!@#$%^&*(-_=+)", 50)
        return pick(r, [f"SECRET_KEY = '{s}'", f"DJANGO_SECRET_KEY={s}"]), s
    if k == 1:
        s = rs(r, LO + DG + "!@#$%^&*(-_=+)", 50)
        return f"SECRET_KEY = '{s}'", s
    if k == 2:
        s = rs(r, HEX, 64)
        return pick(r, [f"app.secret_key = '{s}'", f"JWT_SECRET={s}", f"SESSION_SECRET: {s}"]), s
    if k == 3:
        s = rs(r, HEX, 128)
        return f"production:\n  secret_key_base: {s}", s
    if k == 4:
        s = b64(r.randbytes(32))
        return pick(r, [f"NEXTAUTH_SECRET={s}", f'AUTH_SECRET="{s}"', f"ENCRYPTION_KEY={s}"]), s
    if k == 5:
        s = "base64:" + b64(r.randbytes(32))
        return f"APP_NAME={pick(r, ORGS)}\nAPP_ENV=production\nAPP_KEY={s}", s
    if k == 6:
        s = P_GOCSPX + mixed(r, B64U, 28)
        cid = f"{r.randint(10**11, 10**12)}-{rs(r, LODG, 32)}.apps.googleusercontent.com"
        return pick(
            r,
            [
                f"GOOGLE_CLIENT_ID={cid}\nGOOGLE_CLIENT_SECRET={s}",
                f'{{"web":{{"client_id":"{cid}","client_secret":"{s}","redirect_uris":["http://localhost:8080/callback"]}}}}',
            ],
        ), s
    if k == 7:
        s = J(rs(r, B62, 3), str(r.randint(0, 9)), "Q~", mixed(r, B62 + "._~-", 34))
        return pick(
            r,
            [
                f"AZURE_CLIENT_SECRET={s}",
                f'"ClientSecret": "{s}",',
                f"az login --service-principal -u {uuid4(r)} -p '{s}' --tenant {uuid4(r)}",
            ],
        ), s
    if k == 8:
        s = mixed(r, B62, 40)
        return pick(
            r,
            [
                f"oauth:\n  client_id: {pick(r, SERVICES)}-app\n  client_secret: {s}",
                f"curl -d 'grant_type=client_credentials&client_id={pick(r, SERVICES)}&client_secret={s}' https://auth.{pick(r, DOMAINS)}/oauth/token",
                f"keycloak client secret for {pick(r, SERVICES)}: {s}",
            ],
        ), s
    s = rs(r, HEX, 32)
    return pick(r, [f"APP_SECRET={s}", f"github webhook secret set to {s}", f"HMAC_SIGNING_KEY={s}"]), s


KINDS = [
    ("aws_access_key_id", k_aws_access_key_id),
    ("aws_secret_access_key", k_aws_secret_access_key),
    ("gcp_service_account_key", k_gcp_service_account_key),
    ("azure_account_key", k_azure_account_key),
    ("azure_sas_token", k_azure_sas_token),
    ("stripe_key", k_stripe_key),
    ("github_token", k_github_token),
    ("gitlab_token", k_gitlab_token),
    ("slack_token", k_slack_token),
    ("webhook_url", k_webhook_url),
    ("twilio_credential", k_twilio_credential),
    ("email_api_key", k_email_api_key),
    ("npm_token", k_npm_token),
    ("pypi_token", k_pypi_token),
    ("bot_token", k_bot_token),
    ("llm_api_key", k_llm_api_key),
    ("shopify_token", k_shopify_token),
    ("heroku_api_key", k_heroku_api_key),
    ("digitalocean_token", k_digitalocean_token),
    ("datadog_key", k_datadog_key),
    ("sentry_credential", k_sentry_credential),
    ("vault_token", k_vault_token),
    ("huggingface_token", k_huggingface_token),
    ("payment_token", k_payment_token),
    ("google_api_key", k_google_api_key),
    ("algolia_admin_key", k_algolia_admin_key),
    ("mapbox_secret_token", k_mapbox_secret_token),
    ("jwt", k_jwt),
    ("private_key", k_private_key),
    ("db_url_password", k_db_url_password),
    ("db_config_password", k_db_config_password),
    ("db_cli_password", k_db_cli_password),
    ("chat_password", k_chat_password),
    ("ssh_password", k_ssh_password),
    ("basic_auth", k_basic_auth),
    ("kubernetes_token", k_kubernetes_token),
    ("wifi_psk", k_wifi_psk),
    ("totp_seed", k_totp_seed),
    ("api_key_query", k_api_key_query),
    ("app_secret", k_app_secret),
]

# ---------------------------------------------------------------------------
# lookalikes: texts that contain no credential
# ---------------------------------------------------------------------------

PKGS = [
    "cryptography",
    "requests",
    "urllib3",
    "pyjwt",
    "boto3",
    "django",
    "fastapi",
    "pydantic",
    "jsonwebtoken",
    "express",
    "lodash",
    "axios",
    "passport-jwt",
    "bcryptjs",
    "dotenv",
    "keytar",
]
FILES = [
    "vault_1.15.2_linux_amd64.zip",
    "terraform_1.7.5_darwin_arm64.zip",
    "node-v20.11.1-linux-x64.tar.xz",
    "kubectl",
    "helm-v3.14.2-linux-amd64.tar.gz",
    "go1.22.1.linux-amd64.tar.gz",
    "sops-v3.8.1.linux.amd64",
    "gh_2.45.0_linux_amd64.deb",
    "awscli-exe-linux-x86_64.zip",
]
SECRET_VARS = [
    "STRIPE_SECRET_KEY",
    "GITHUB_TOKEN",
    "DB_PASSWORD",
    "AWS_SECRET_ACCESS_KEY",
    "SLACK_BOT_TOKEN",
    "OPENAI_API_KEY",
    "SENDGRID_API_KEY",
    "NPM_TOKEN",
    "JWT_SECRET",
    "ANTHROPIC_API_KEY",
    "DATADOG_API_KEY",
    "POSTGRES_PASSWORD",
    "REDIS_PASSWORD",
    "HF_TOKEN",
    "TWILIO_AUTH_TOKEN",
]


def sha40(r):
    return rs(r, HEX, 40)


def sha7(r):
    return rs(r, HEX, r.choice([7, 7, 8, 10, 12]))


def sv(r):
    return pick(r, SECRET_VARS)


def semver(r):
    return f"{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 40)}"


# -- hard: high-entropy strings near credential-ish words ---------------------


def l_commit_prose(r):
    return pick(
        r,
        [
            f"reverted {sha7(r)} which broke token refresh; the real fix landed in {sha40(r)}",
            f"the api key rotation bug was introduced in {sha7(r)} and fixed by {sha7(r)} (see PR #{r.randint(100, 9999)})",
            f"bisected the auth regression to commit {sha40(r)} - secret loading moved before config parse",
            f"cherry-pick {sha7(r)} onto release/{semver(r)} (password reset email fix)",
        ],
    )


def l_git_log(r):
    return (
        f"commit {sha40(r)}\nAuthor: {pick(r, PEOPLE)} <{email(r)}>\nDate:   Tue {date(r)} 14:{r.randint(10, 59)}:02 +0200\n\n"
        f"    {pick(r, ['chore: rotate leaked API key, read it from secret manager', 'fix: stop logging the auth token', 'refactor: move DB password to env var', 'security: remove hardcoded credentials from tests'])}\n\n"
        f"commit {sha40(r)}\nMerge: {sha7(r)} {sha7(r)}"
    )


def l_checksum(r):
    f = pick(r, FILES)
    return pick(
        r,
        [
            f"{rs(r, HEX, 64)}  {f}",
            f"verify before installing:\n$ sha256sum {f}\n{rs(r, HEX, 64)}  {f}",
            f"md5 of the exported secrets.csv (just to compare two exports, no content): {rs(r, HEX, 32)}",
            f"expected checksum sha256={rs(r, HEX, 64)} got sha256={rs(r, HEX, 64)} - download was truncated",
        ],
    )


def l_docker_digest(r):
    img = f"ghcr.io/{pick(r, ORGS)}/{pick(r, SERVICES)}"
    return pick(
        r,
        [
            f"image: {img}@sha256:{rs(r, HEX, 64)}",
            f"pinned the token-service image to {img}@sha256:{rs(r, HEX, 64)}",
            f"Digest: sha256:{rs(r, HEX, 64)}\nStatus: Downloaded newer image for {img}:{semver(r)}",
            f"FROM python:3.11-slim@sha256:{rs(r, HEX, 64)}",
        ],
    )


def l_npm_integrity(r):
    pkg = pick(r, ["jsonwebtoken", "passport-jwt", "bcryptjs", "dotenv", "keytar", "secure-random-password"])
    v = semver(r)
    return (
        f'"node_modules/{pkg}": {{\n  "version": "{v}",\n  "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg}-{v}.tgz",\n'
        f'  "integrity": "sha512-{b64(r.randbytes(64))}"\n}}'
    )


def l_pip_hash(r):
    pkg = pick(r, PKGS)
    return f"{pkg}=={semver(r)} \\\n    --hash=sha256:{rs(r, HEX, 64)} \\\n    --hash=sha256:{rs(r, HEX, 64)}"


def l_go_sum(r):
    mod = pick(
        r,
        [
            "golang.org/x/crypto",
            "github.com/golang-jwt/jwt/v5",
            "github.com/aws/aws-sdk-go-v2/credentials",
            "golang.org/x/oauth2",
        ],
    )
    v = f"v{semver(r)}"
    return f"{mod} {v} h1:{b64(r.randbytes(32))}\n{mod} {v}/go.mod h1:{b64(r.randbytes(32))}"


def l_cargo_lock(r):
    name = pick(r, ["ring", "rustls", "jsonwebtoken", "secrecy", "argon2", "hmac"])
    return f'[[package]]\nname = "{name}"\nversion = "{semver(r)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{rs(r, HEX, 64)}"'


def l_yarn_lock(r):
    pkg, v = pick(r, PKGS), semver(r)
    return f'"{pkg}@npm:^{v}":\n  version: {v}\n  resolution: "{pkg}@npm:{v}"\n  checksum: {rs(r, HEX, 128)}\n  languageName: node'


def l_ssh_fingerprint(r):
    h = pick(r, [host(r), ip(r)])
    return pick(
        r,
        [
            f"The authenticity of host '{h} ({ip(r)})' can't be established.\nED25519 key fingerprint is SHA256:{b64(r.randbytes(32)).rstrip('=')}.\nAre you sure you want to continue connecting (yes/no)?",
            f"host key changed for {h}! new fingerprint SHA256:{b64(r.randbytes(32)).rstrip('=')} - verified with infra, it was the rebuild",
            f"256 SHA256:{b64(r.randbytes(32)).rstrip('=')} {pick(r, PEOPLE)}@laptop (ED25519)",
        ],
    )


def ssh_pub(r):
    if r.random() < 0.5:
        blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32)
        return f"ssh-ed25519 {b64(blob)}"
    blob = b"\x00\x00\x00\x07ssh-rsa\x00\x00\x00\x03\x01\x00\x01\x00\x00\x01\x81\x00" + r.randbytes(384)
    return f"ssh-rsa {b64(blob)}"


def l_ssh_pubkey(r):
    u = pick(r, PEOPLE)
    return pick(
        r,
        [
            f"{ssh_pub(r)} {u}@{pick(r, ['laptop', 'workstation', 'ci'])}",
            f"added my public key to authorized_keys on the bastion:\n{ssh_pub(r)} {u}",
            f"users:\n  - name: {u}\n    ssh_authorized_keys:\n      - {ssh_pub(r)} {u}@{pick(r, ORGS)}",
            f'resource "aws_key_pair" "deployer" {{\n  key_name   = "deployer-key"\n  public_key = "{ssh_pub(r)} deployer"\n}}',
        ],
    )


def l_pem_public(r):
    der = (
        b"\x30\x82\x01\x22\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x03\x82\x01\x0f\x00"
        + r.randbytes(270)
    )
    blk = pem("PUBLIC KEY", b64(der))
    return pick(
        r,
        [
            f"public key for verifying webhook signatures (safe to share):\n{blk}",
            f"JWT_PUBLIC_KEY (verification only):\n{blk}",
            blk,
        ],
    )


def l_certificate(r):
    blk = pem("CERTIFICATE", b64(b"\x30\x82\x03" + r.randbytes(r.randint(700, 900))))
    return pick(
        r,
        [
            f"CA bundle for the internal registry (public cert):\n{blk}",
            f"ssl_certificate /etc/nginx/certs/{pick(r, SERVICES)}.crt;  # contents:\n{blk}",
        ],
    )


def l_jwks(r):
    keys = {
        "keys": [
            {
                "kty": "RSA",
                "use": "sig",
                "alg": "RS256",
                "kid": rs(r, LODG, 20),
                "n": b64u(r.randbytes(256)),
                "e": "AQAB",
            }
        ]
    }
    return f"GET https://auth.{pick(r, DOMAINS)}/.well-known/jwks.json\n{json.dumps(keys, indent=2)}"


def l_gpg(r):
    fp = rs(r, HEXU, 40)
    return pick(
        r,
        [
            f"gpg --keyserver keys.openpgp.org --recv-keys 0x{fp[-16:]}",
            f"release tags are signed with key {' '.join(fp[i : i + 4] for i in range(0, 40, 4))}",
            f'gpg: Signature made {date(r)}\ngpg:                using RSA key {fp}\ngpg: Good signature from "{pick(r, PEOPLE)} <{email(r)}>"',
        ],
    )


def l_aws_docs_example(r):
    kid = J("AK", "IA", "IOSFODNN7", "EXAMPLE")
    sk = J("wJalrXUtnFEMI", "/K7MDENG/", "bPxRfiCY", "EXAMPLEKEY")
    return pick(
        r,
        [
            f"the docs use {kid} / {sk} as the sample pair - don't copy them into real config",
            f"[default]\naws_access_key_id = {kid}\naws_secret_access_key = {sk}\n# ^ copied from the AWS docs example, replace locally",
            f"moto test fixture uses the EXAMPLE key {kid}",
        ],
    )


def l_placeholder_tokens(r):
    return pick(
        r,
        [
            f"STRIPE_SECRET_KEY={J('sk', '_', 'live', '_')}{'x' * 24}",
            f"GITHUB_TOKEN={J('gh', 'p_')}{'X' * 36}",
            f"SLACK_BOT_TOKEN={J('xox', 'b-')}your-bot-token-here",
            f"OPENAI_API_KEY={J('s', 'k-')}...",
            f"aws_access_key_id = {J('AK', 'IA')}{'X' * 16}",
            f"token: {J('gl', 'pat-')}xxxxxxxxxxxxxxxxxxxx  # replace with your own",
            f"HF_TOKEN={J('h', 'f_')}********************************",
            f"ANTHROPIC_API_KEY={J('s', 'k-', 'ant-')}...  (put yours here)",
        ],
    )


def l_redacted(r):
    u, h = pick(r, USERS), dbhost(r)
    return pick(
        r,
        [
            "Authorization: Bearer [REDACTED]",
            f"DATABASE_URL=postgres://{u}:****@{h}:5432/{pick(r, DBNAMES)}",
            "password: ********   # masked in the CI log",
            f"{ts(r)} INFO login ok user={u} password=<redacted>",
            f"{sv(r)}=*** (masked)",
            "curl -H 'Authorization: token <REDACTED>' https://api.github.com/user",
            f'api_key: "{J("sk", "_", "live", "_")}...{rs(r, B62, 4)}"  <- last 4 only, as shown in the dashboard',
            "secret_access_key: '•••••••••••••••••••••••••••••••••••••••'",
        ],
    )


def l_request_ids(r):
    return pick(
        r,
        [
            f"{ts(r)} ERROR request_id={uuid4(r)} 401 invalid credentials for tenant {uuid4(r)}",
            f"X-Request-Id: {uuid4(r)}\nX-Amzn-Trace-Id: Root=1-{rs(r, HEX, 8)}-{rs(r, HEX, 24)}",
            f"token refresh failed, correlation id {uuid4(r)} - retrying",
            f"Idempotency-Key: {uuid4(r)}",
            f"support ticket mentions session {uuid4(r)} - unrelated to the key leak",
        ],
    )


def l_traceparent(r):
    return pick(
        r,
        [
            f"traceparent: 00-{rs(r, HEX, 32)}-{rs(r, HEX, 16)}-01",
            f"auth-service span {rs(r, HEX, 16)} in trace {rs(r, HEX, 32)} took 2.3s (token introspection)",
            f'dd.trace_id={r.randint(10**18, 10**19)} dd.span_id={r.randint(10**18, 10**19)} msg="token validated"',
        ],
    )


def l_sentry_event(r):
    return pick(
        r,
        [
            f"Sentry event {rs(r, HEX, 32)}: KeyError: 'api_key' in settings.py line {r.randint(10, 300)}",
            f"see https://sentry.io/organizations/{pick(r, ORGS)}/issues/{r.randint(10**9, 10**10)}/events/{rs(r, HEX, 32)}/ - the secret was missing, not wrong",
        ],
    )


def l_arns(r):
    acct = str(r.randint(10**11, 10**12 - 1))
    reg = pick(r, REGIONS)
    return pick(
        r,
        [
            f"kms key: arn:aws:kms:{reg}:{acct}:key/{uuid4(r)}",
            f"secret arn: arn:aws:secretsmanager:{reg}:{acct}:secret:prod/{pick(r, SERVICES)}/api-key-{rs(r, B62, 6)}",
            f"role_arn = arn:aws:iam::{acct}:role/{pick(r, SERVICES)}-deployer",
            f"aws account {acct} (prod), assume role via SSO, no static keys",
        ],
    )


def l_cloud_ids(r):
    return pick(
        r,
        [
            f"instance i-0{rs(r, HEX, 16)} in sg-0{rs(r, HEX, 16)}, subnet-0{rs(r, HEX, 16)}",
            f"ami-0{rs(r, HEX, 16)} (amazon linux 2023) for the new token-service nodes",
            f"vpc-0{rs(r, HEX, 16)} peering with pcx-0{rs(r, HEX, 16)}",
            f"CloudFront distribution E{rs(r, UPDG, 13)} invalidation I{rs(r, UPDG, 13)} completed",
        ],
    )


def l_mongo_ids(r):
    return pick(
        r,
        [
            f'db.users.find({{_id: ObjectId("{rs(r, HEX, 24)}")}}, {{passwordHash: 0}})',
            f"user {rs(r, HEX, 24)} reset their password at {ts(r)}",
        ],
    )


def l_s3_meta(r):
    return json.dumps(
        {
            "ETag": f'"{rs(r, HEX, 32)}"',
            "VersionId": rs(r, B62 + "._", 32),
            "ServerSideEncryption": "aws:kms",
            "SSEKMSKeyId": f"arn:aws:kms:{pick(r, REGIONS)}:{r.randint(10**11, 10**12 - 1)}:key/{uuid4(r)}",
        },
        indent=2,
    )


def l_data_uri(r):
    data = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + r.randbytes(r.randint(60, 140))
    return pick(
        r,
        [
            f'<img alt="logo" src="data:image/png;base64,{b64(data)}">',
            f"favicon: data:image/png;base64,{b64(data)}",
        ],
    )


def l_b64_data(r):
    obj = pick(
        r,
        [
            {"theme": "dark", "sidebar": True, "lang": pick(r, ["en", "de", "pt"])},
            {"event": "user.signup", "plan": "pro", "ts": r.randint(1_700_000_000, 1_740_000_000)},
            {"page": r.randint(2, 40), "per_page": 50, "sort": "created_at"},
        ],
    )
    enc = b64s(json.dumps(obj))
    return pick(
        r,
        [
            f"message body from the queue (base64): {enc}",
            f'"next_page_token": "{enc}"',
            f"cursor={urllib.parse.quote(enc)} - pagination cursor is just base64 json, not a secret",
        ],
    )


def l_lfs_pointer(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(r, HEX, 64)}\nsize {r.randint(10**4, 10**8)}"


def l_nix_path(r):
    return f"/nix/store/{rs(r, '0123456789abcdfghijklmnpqrsvwxyz', 32)}-{pick(r, ['openssl-3.0.13', 'vault-1.15.6', 'python3-3.11.8', 'gnupg-2.4.4'])}/bin"


def l_ci_cache(r):
    return pick(
        r,
        [
            f"Cache restored from key: Linux-node-{rs(r, HEX, 64)}",
            f"key: deps-${{{{ runner.os }}}}-${{{{ hashFiles('**/package-lock.json') }}}}\n# resolved to deps-Linux-{rs(r, HEX, 64)}",
            f"Received {r.randint(10, 900)} of {r.randint(900, 999)} MB from cache key pip-{rs(r, HEX, 40)}",
        ],
    )


def l_webhook_signature(r):
    return pick(
        r,
        [
            f"X-Hub-Signature-256: sha256={rs(r, HEX, 64)}",
            f"Stripe-Signature: t={r.randint(1_700_000_000, 1_740_000_000)},v1={rs(r, HEX, 64)}",
            f"signature mismatch: expected {rs(r, HEX, 64)}, computed {rs(r, HEX, 64)} - the secret env var was unset",
        ],
    )


def l_sops(r):
    def enc():
        return f"ENC[AES256_GCM,data:{b64(r.randbytes(r.randint(12, 40)))},iv:{b64(r.randbytes(32))},tag:{b64(r.randbytes(16))},type:str]"

    return (
        f"db_password: {enc()}\napi_token: {enc()}\nsops:\n  kms:\n    - arn: arn:aws:kms:{pick(r, REGIONS)}:{r.randint(10**11, 10**12 - 1)}:key/{uuid4(r)}\n"
        f'  lastmodified: "{ts(r)}"\n  mac: {enc()}'
    )


def l_ansible_vault(r):
    lines = "\n".join(rs(r, HEX, 80) for _ in range(r.randint(3, 6)))
    return "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join("  " + ln for ln in lines.split("\n"))


def l_sri_csp(r):
    return pick(
        r,
        [
            f'<script src="https://cdn.jsdelivr.net/npm/{pick(r, PKGS)}@{semver(r)}/dist/index.min.js" integrity="sha384-{b64(r.randbytes(48))}" crossorigin="anonymous"></script>',
            f"Content-Security-Policy: script-src 'self' 'sha256-{b64(r.randbytes(32))}'",
        ],
    )


def l_google_doc_ids(r):
    return pick(
        r,
        [
            f"design doc for secret rotation: https://docs.google.com/document/d/{rs(r, B64U, 44)}/edit",
            f"runbook: https://www.notion.so/{pick(r, ORGS)}/Rotate-API-keys-{rs(r, HEX, 32)}",
            f"sheet with the key inventory (names only, no values): https://docs.google.com/spreadsheets/d/{rs(r, B64U, 44)}/edit#gid=0",
            f"figma: https://www.figma.com/file/{rs(r, B62, 22)}/Login-flow?node-id=12-345",
        ],
    )


def l_oauth_client_id(r):
    return pick(
        r,
        [
            f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{rs(r, LODG, 32)}.apps.googleusercontent.com  # public, secret lives in vault",
            f"client_id: {uuid4(r)}  (azure app registration, public identifier)",
            f"NEXT_PUBLIC_AUTH0_CLIENT_ID={rs(r, B62, 32)}",
        ],
    )


def l_stripe_object_ids(r):
    return pick(
        r,
        [
            f"refunded charge ch_{rs(r, B62, 24)} for customer cus_{rs(r, B62, 14)}",
            f"webhook evt_{rs(r, B62, 24)} (payment_intent.succeeded) for pi_{rs(r, B62, 24)} retried 3x",
            f"subscription sub_{rs(r, B62, 24)} on price price_{rs(r, B62, 24)}",
        ],
    )


def l_slack_ids(r):
    return pick(
        r,
        [
            f"posted to channel C0{rs(r, UPDG, 8)} as user U0{rs(r, UPDG, 8)}, ts={r.randint(1_700_000_000, 1_740_000_000)}.{r.randint(100000, 999999)}",
            f"slack app id A0{rs(r, UPDG, 9)}, team T0{rs(r, UPDG, 8)} - token itself is in SSM",
        ],
    )


def l_ulid_nanoid(r):
    return pick(
        r,
        [
            f"job {J('01', rs(r, '0123456789ABCDEFGHJKMNPQRSTVWXYZ', 24))} finished (rotate-keys dry run)",
            f"short link id {rs(r, B64U, 21)} points to the onboarding doc",
        ],
    )


def l_pod_container_ids(r):
    svc = pick(r, SERVICES)
    return pick(
        r,
        [
            f"{svc}-{rs(r, LODG, 10)}-{rs(r, LODG, 5)}   1/1   Running   0   3d\n{svc}-{rs(r, LODG, 10)}-{rs(r, LODG, 5)}   0/1   CrashLoopBackOff   12   3d",
            f"CONTAINER ID   IMAGE                    STATUS\n{rs(r, HEX, 12)}   {svc}:{semver(r)}   Up 2 hours\n{rs(r, HEX, 12)}   vault:1.15   Up 2 hours",
            f"Step 4/9 : RUN pip install -r requirements.txt\n ---> Running in {rs(r, HEX, 12)}\n ---> {rs(r, HEX, 12)}",
        ],
    )


def l_chunk_hashes(r):
    return pick(
        r,
        [
            f"dist/assets/index-{rs(r, B62 + '_-', 8)}.js   142.31 kB\ndist/assets/auth-{rs(r, B62 + '_-', 8)}.js   12.04 kB",
            f"main.{rs(r, HEX, 8)}.chunk.js, token-refresh.{rs(r, HEX, 20)}.js",
            f"uploads/{date(r).replace('-', '/')}/{rs(r, HEX, 32)}.png",
        ],
    )


def l_css(r):
    return pick(
        r,
        [
            f".css-{rs(r, LODG, 7)}{{display:flex}}.sc-{rs(r, B62, 6)}{{margin:0 auto}}.{rs(r, B62 + '_-', 8)}__password-field{{border:1px solid #{rs(r, HEX, 6)}}}",
            f'<div class="_{rs(r, LODG, 6)} _{rs(r, LODG, 6)} token-input">',
        ],
    )


def l_extension_ids(r):
    return pick(
        r,
        [
            f"chrome extension id {rs(r, 'abcdefghijklmnop', 32)} (password manager)",
            f"MSI ProductCode {{{uuid4(r).upper()}}}",
        ],
    )


def l_hexdump(r):
    rows = []
    for i in range(r.randint(3, 5)):
        b = r.randbytes(16)
        rows.append(
            f"{i * 16:08x}: "
            + " ".join(b[j : j + 2].hex() for j in range(0, 16, 2))
            + "  "
            + "".join(chr(c) if 32 <= c < 127 else "." for c in b)
        )
    return "xxd of the corrupted keystore header:\n" + "\n".join(rows)


def l_stack_trace(r):
    return (
        f'Exception in thread "main" java.lang.IllegalStateException: token store not initialised\n'
        f"\tat com.{pick(r, ORGS).replace('-', '')}.auth.TokenService$$EnhancerBySpringCGLIB$${rs(r, HEX, 8)}.refresh(<generated>)\n"
        f"\tat com.{pick(r, ORGS).replace('-', '')}.auth.TokenController.lambda$issue$0(TokenController.java:{r.randint(20, 400)})\n"
        f"\tat 0x{rs(r, HEX, 12)}"
    )


def l_kid_header(r):
    return pick(
        r,
        [
            f'JWT header was {{"alg":"RS256","kid":"{rs(r, HEX, 40)}"}} but that kid is not in the JWKS - keys rotated',
            f"signing key id (kid) changed to {rs(r, LODG, 20)} after the rotation",
        ],
    )


def l_regex(r):
    return pick(
        r,
        [
            "secret pattern in our pre-commit hook: (?i)(api[_-]?key|token|secret)\\s*[:=]\\s*['\"]?[A-Za-z0-9_\\-]{24,}",
            f"gitleaks rule: regex = '''{J('gh', 'p_')}[0-9a-zA-Z]{{36}}'''",
            f"detect AWS keys with ({J('AK', 'IA')}|{J('AS', 'IA')})[A-Z2-7]{{16}}",
        ],
    )


def l_op_item(r):
    return pick(
        r,
        [
            f"op item get {rs(r, LODG, 26)} --fields label=password --reveal",
            f"bitwarden item {uuid4(r)} holds the {pick(r, SERVICES)} admin password",
        ],
    )


def l_lockfile_misc(r):
    return pick(
        r,
        [
            f'poetry.lock: {{file = "{pick(r, PKGS)}-{semver(r)}-py3-none-any.whl", hash = "sha256:{rs(r, HEX, 64)}"}}',
            f"wheel cache: /root/.cache/pip/wheels/{rs(r, HEX, 2)}/{rs(r, HEX, 2)}/{rs(r, HEX, 56)}",
        ],
    )


def l_known_hosts_hashed(r):
    blob = b64(b"\x00\x00\x00\x13ecdsa-sha2-nistp256" + r.randbytes(85))
    return f"|1|{b64(r.randbytes(20))}|{b64(r.randbytes(20))} ecdsa-sha2-nistp256 {blob}"


def l_tf_plan(r):
    return (
        f'  # aws_db_instance.{pick(r, DBNAMES)} will be updated in-place\n  ~ resource "aws_db_instance" "main" {{\n'
        f'        id       = "{pick(r, DBNAMES).replace("_", "-")}-{rs(r, LODG, 8)}"\n      ~ password = (sensitive value)\n'
        f'        username = "{pick(r, USERS)}"\n    }}'
    )


def l_env_refs_hard(r):
    v = sv(r)
    return pick(
        r,
        [
            f'curl -H "Authorization: Bearer ${v}" https://api.{pick(r, DOMAINS)}/v1/me',
            f'kubectl create secret generic {pick(r, SERVICES)} --from-literal=password="${v}" --dry-run=client -o yaml',
            f"docker run -e {v} -e {sv(r)} {pick(r, ORGS)}/{pick(r, SERVICES)}:{semver(r)}",
            f"export {v}=$(aws ssm get-parameter --name /prod/{pick(r, SERVICES)}/{v.lower()} --with-decryption --query Parameter.Value --output text)",
        ],
    )


# -- easy / medium -----------------------------------------------------------


def l_placeholders(r):
    return pick(
        r,
        [
            f"{sv(r)}=<your-api-key>\n{sv(r)}=<changeme>",
            "API_KEY=your_api_key_here\nAPI_SECRET=your_api_secret_here",
            "password: changeme  # default in the helm chart, override with --set",
            'token: "YOUR_TOKEN"',
            "Authorization: Bearer <token>",
            "postgres://user:password@localhost:5432/dbname  (template from the README)",
            f"{sv(r)}=xxxxxxxxxxxxxxxxxxxxxxxx",
            'OPENAI_API_KEY=""  # fill in locally',
        ],
    )


def l_gha_secrets(r):
    return f"env:\n  {sv(r)}: ${{{{ secrets.{sv(r)} }}}}\n  {sv(r)}: ${{{{ secrets.{sv(r)} }}}}\n  REGION: {pick(r, REGIONS)}"


def l_code_env(r):
    v = sv(r)
    return pick(
        r,
        [
            f'stripe.api_key = os.environ["{v}"]',
            f"const client = new WebClient(process.env.{v});",
            f'token := os.Getenv("{v}")\nif token == "" {{ log.Fatal("{v} not set") }}',
            f'String key = System.getenv("{v}");',
            f'var secret = builder.Configuration["{v}"];',
            f"api_key = ENV.fetch('{v}')",
            f"$apiKey = getenv('{v}');",
            f'let key = std::env::var("{v}").expect("{v} must be set");',
            f"password = settings.{v.lower()}  # pydantic reads it from env",
        ],
    )


def l_secret_manager_refs(r):
    svc = pick(r, SERVICES)
    return pick(
        r,
        [
            f"vault kv get -field=password secret/{svc}/db",
            f"vault read secret/{pick(r, ENVS)}/{svc}",
            f"aws secretsmanager get-secret-value --secret-id prod/{svc}/api-key --query SecretString --output text",
            f'op read "op://Private/{svc.capitalize()} API/credential"',
            f"gcloud secrets versions access latest --secret={svc}-db-password",
            f"az keyvault secret show --vault-name kv-{pick(r, ORGS)} --name {svc}-token --query value -o tsv",
            f"password: \"{{{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/{svc}:password') }}}}\"",
            "DB_PASSWORD=$(doppler secrets get DB_PASSWORD --plain)",
        ],
    )


def l_k8s_secretref(r):
    svc = pick(r, SERVICES)
    return (
        f"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {svc}-db\n        key: password\n"
        f"  - name: API_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: {svc}-api\n        key: token"
    )


def l_compose_env(r):
    return pick(
        r,
        [
            "environment:\n  POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it in .env}\n  POSTGRES_USER: app",
            "{{ .Values.apiKey | b64enc | quote }}",
            "password: {{ .Values.postgresql.auth.password }}",
            "API_KEY=\nSECRET_KEY=\nDB_PASSWORD=",
            'token = "${var.api_token}"',
            "password = var.db_password  # sensitive = true",
        ],
    )


def l_var_prose(r):
    return pick(
        r,
        [
            f"renamed {sv(r)} to {sv(r)}; the api_token column is now encrypted at rest",
            "the `password` field in the signup form is validated client-side too",
            f"TODO: {sv(r)} should come from the secrets operator, not the configmap",
            "lesson: never print settings.SECRET_KEY in debug logs",
            f"grep -rn '{sv(r)}' src/ shows 3 usages, all via settings",
        ],
    )


def l_policy_prose(r):
    return pick(
        r,
        [
            f"password policy requires {r.randint(10, 16)} chars, 1 symbol, no reuse of last {r.randint(3, 24)}",
            f"we rotate API tokens every {pick(r, [30, 60, 90])} days; the job runs at 03:00 UTC",
            "decision: service accounts use short-lived OIDC tokens, no long-lived keys",
            f"token_ttl: 3600\nrefresh_token_ttl: 2592000\npassword_min_length: {r.randint(8, 14)}\nlockout_after: 5",
            "lesson: rotate the token BEFORE revoking the old one or the workers crash-loop",
            f"Rotated the GitHub PAT for ci-bot today; new one is stored in 1Password under 'CI / GitHub'. Expires {date(r)}.",
        ],
    )


def l_llm_tokens(r):
    return pick(
        r,
        [
            f"max_tokens={pick(r, [1024, 4096, 8192])}, temperature=0.2, model=claude-3-5-sonnet-20241022",
            f"usage: prompt_tokens={r.randint(100, 9000)} completion_tokens={r.randint(10, 2000)} total_tokens={r.randint(9000, 12000)}",
            f"the context window is {pick(r, ['128k', '200k'])} tokens, we hit it with the 40 MB log dump",
            f"tokenizer split 'password' into {r.randint(1, 3)} tokens - irrelevant, just noting",
        ],
    )


def l_test_fixtures(r):
    return pick(
        r,
        [
            'FAKE_API_KEY = "test-api-key-not-real"  # dummy for unit tests',
            'mock_token = "dummy-token"\nassert client.auth_header() == "Bearer dummy-token"',
            'def test_login(client):\n    resp = client.post("/login", json={"user": "alice", "password": "example-password"})',
            "fixtures/users.json uses password 'test' for every user; tests run against sqlite only",
            '@pytest.fixture\ndef api_key():\n    return "unit-test-key"',
        ],
    )


def l_versions(r):
    return pick(
        r,
        [
            f"bumped vault from {semver(r)} to {semver(r)}, terraform {semver(r)}",
            f"build {date(r).replace('-', '')}.{r.randint(1, 99)}-{sha7(r)}",
            f"v{semver(r)}-rc.{r.randint(1, 5)}+build.{r.randint(1000, 9999)}",
            f"python {pick(r, ['3.11.9', '3.12.2'])}, node {pick(r, ['20.11.1', '18.19.0'])}, openssl {pick(r, ['3.0.13', '1.1.1w'])}",
        ],
    )


def l_network(r):
    mac = ":".join(rs(r, HEX, 2) for _ in range(6))
    return pick(
        r,
        [
            f"bastion is {ip(r)}, db at {ip(r)}:5432, allowlist only {ip(r)}/32",
            f"printer MAC {mac}, reserved {ip(r)} in DHCP",
            f"IPv6 {':'.join(rs(r, HEX, 4) for _ in range(8))} got the token endpoint working over v6",
        ],
    )


def l_colours_numbers(r):
    return pick(
        r,
        [
            f"brand colours: #{rs(r, HEX, 6)} primary, #{rs(r, HEX, 6)} accent, #{rs(r, HEX, 6)} for the password strength meter",
            f"order #{r.randint(100, 999)}-{r.randint(10**6, 10**7)}-{r.randint(10**6, 10**7)} refunded, call +1 555 {r.randint(100, 999)} {r.randint(1000, 9999)}",
            f"tracking number 1Z{rs(r, UPDG, 16)}",
            f"np.random.seed({r.randint(0, 9999)}); torch.manual_seed({r.randint(0, 9999)})",
        ],
    )


def l_paths(r):
    return pick(
        r,
        [
            f"/tmp/pytest-of-ci/pytest-{r.randint(1, 300)}/test_token_refresh0/{rs(r, LODG, 8)}.json",
            f"C:\\Users\\{pick(r, PEOPLE)}\\AppData\\Local\\Temp\\tmp{rs(r, UPDG, 4)}.tmp",
            f"~/.cache/huggingface/hub/models--{pick(r, ORGS)}--{pick(r, SERVICES)}/snapshots/{rs(r, HEX, 40)}/config.json",
            f"/var/lib/docker/overlay2/{rs(r, HEX, 64)}/merged",
        ],
    )


def l_pkg_names(r):
    return pick(
        r,
        [
            f"npm i @{pick(r, ORGS)}/token-utils@{semver(r)} nanoid left-pad",
            f"pip install keyring secretstorage python-dotenv=={semver(r)}",
            f'added dependency `secrecy = "{semver(r)}"` so secrets are zeroized on drop',
        ],
    )


def l_model_ids(r):
    return pick(
        r,
        [
            "switched the summariser to gpt-4o-2024-08-06, fallback claude-3-haiku-20240307",
            f"embedding model {pick(r, ORGS)}/{pick(r, SERVICES)}-e5-base-v2 revision {rs(r, HEX, 40)}",
        ],
    )


def l_json_schema(r):
    return json.dumps(
        {
            "type": "object",
            "required": ["username", "password"],
            "properties": {
                "username": {"type": "string"},
                "password": {"type": "string", "minLength": r.randint(8, 14), "writeOnly": True},
                "api_token": {"type": "string", "readOnly": True},
            },
        },
        indent=2,
    )


def l_html_form(r):
    return pick(
        r,
        [
            '<input type="password" name="password" autocomplete="current-password" placeholder="••••••••">',
            '<label for="api-key">API key</label><input id="api-key" name="api_key" type="text">',
        ],
    )


def l_sql_no_value(r):
    return pick(
        r,
        [
            "ALTER USER app WITH PASSWORD :'new_password';  -- psql variable, set with \\set",
            "SELECT id, email FROM users WHERE password_reset_token IS NOT NULL AND expires_at < now();",
            "UPDATE api_keys SET revoked_at = now() WHERE last_used_at < now() - interval '90 days';",
        ],
    )


def l_wifi_2fa_prose(r):
    return pick(
        r,
        [
            f"guest wifi is '{pick(r, SSIDS)}', password is on the whiteboard in room {r.randint(1, 5)}",
            "enable TOTP in settings; backup codes go in the team vault, never in notes",
            "2FA is enforced for the org since March; use a hardware key if you have one",
        ],
    )


def l_errors(r):
    return pick(
        r,
        [
            f"401 Unauthorized: The API key provided is invalid (request {uuid4(r)})",
            "botocore.exceptions.NoCredentialsError: Unable to locate credentials",
            f'psql: error: connection to server at "{dbhost(r)}" ({ip(r)}), port 5432 failed: FATAL:  password authentication failed for user "{pick(r, USERS)}"',
            "Error: GITHUB_TOKEN is not set. Did you forget to add it to the repository secrets?",
            f"x509: certificate signed by unknown authority (fingerprint {':'.join(rs(r, HEXU, 2) for _ in range(20))})",
        ],
    )


def l_gh_runs(r):
    return pick(
        r,
        [
            f"https://github.com/{pick(r, ORGS)}/{pick(r, SERVICES)}/actions/runs/{r.randint(10**9, 10**10)}/job/{r.randint(10**10, 10**11)}",
            f"see {pick(r, ['PLAT', 'OPS'])}-{r.randint(100, 9999)} and branch feature/rotate-keys-{r.randint(100, 999)}",
        ],
    )


LOOKALIKES = [
    # hard
    l_commit_prose,
    l_git_log,
    l_checksum,
    l_docker_digest,
    l_npm_integrity,
    l_pip_hash,
    l_go_sum,
    l_cargo_lock,
    l_yarn_lock,
    l_ssh_fingerprint,
    l_ssh_pubkey,
    l_pem_public,
    l_certificate,
    l_jwks,
    l_gpg,
    l_aws_docs_example,
    l_placeholder_tokens,
    l_redacted,
    l_request_ids,
    l_traceparent,
    l_sentry_event,
    l_arns,
    l_s3_meta,
    l_data_uri,
    l_b64_data,
    l_lfs_pointer,
    l_ci_cache,
    l_webhook_signature,
    l_sops,
    l_ansible_vault,
    l_sri_csp,
    l_google_doc_ids,
    l_oauth_client_id,
    l_stripe_object_ids,
    l_kid_header,
    l_known_hosts_hashed,
    l_tf_plan,
    l_env_refs_hard,
    l_hexdump,
    l_lockfile_misc,
    # easy / medium
    l_cloud_ids,
    l_mongo_ids,
    l_nix_path,
    l_slack_ids,
    l_ulid_nanoid,
    l_pod_container_ids,
    l_chunk_hashes,
    l_css,
    l_extension_ids,
    l_stack_trace,
    l_regex,
    l_op_item,
    l_placeholders,
    l_gha_secrets,
    l_code_env,
    l_secret_manager_refs,
    l_k8s_secretref,
    l_compose_env,
    l_var_prose,
    l_policy_prose,
    l_llm_tokens,
    l_test_fixtures,
    l_versions,
    l_network,
    l_colours_numbers,
    l_paths,
    l_pkg_names,
    l_model_ids,
    l_json_schema,
    l_html_form,
    l_sql_no_value,
    l_wifi_2fa_prose,
    l_errors,
    l_gh_runs,
]

N_POSITIVES = 1200
N_LOOKALIKES = 800


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    per_kind = N_POSITIVES // len(KINDS)
    extra = N_POSITIVES - per_kind * len(KINDS)
    positives: list[tuple[str, str, str]] = []
    for i, (kind, fn) in enumerate(KINDS):
        for _ in range(per_kind + (1 if i < extra else 0)):
            snip, secret = fn(r)
            text = frame(r, snip)
            assert secret in text, (kind, text, secret)
            positives.append((text, kind, secret))
    r.shuffle(positives)

    lookalikes: list[str] = []
    seen: set[str] = set()
    i = 0
    attempts = 0
    while len(lookalikes) < N_LOOKALIKES and attempts < N_LOOKALIKES * 20:
        fn = LOOKALIKES[i % len(LOOKALIKES)]
        i += 1
        attempts += 1
        text = fn(r)
        if r.random() < 0.45:
            text = frame(r, text)
        if text in seen:
            continue
        seen.add(text)
        lookalikes.append(text)
    r.shuffle(lookalikes)
    return positives, lookalikes


if __name__ == "__main__":
    import collections
    import sys

    p, looks = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    print(len(p), len(looks))
    print(collections.Counter(k for _, k, _ in p))
