"""Synthetic test data for a secret scanner (set "e").

generate(seed) -> (positives, lookalikes)
  positives:  list of (text, kind, secret) -- `secret` is an exact substring of `text`
  lookalikes: list of texts that contain no credential at all

Every credential is assembled at run time from random characters; known
vendor prefixes are built from pieces so that no token-shaped literal lives
in this file.  Standard library only.
"""

from __future__ import annotations

import base64
import json
import random
import string
import urllib.parse

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LO + DIG
LOWNUM = LO + DIG
UPNUM = UP + DIG
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UP + "234567"

POSITIVES_TOTAL = 1200
LOOKALIKES_TOTAL = 800

KINDS: dict = {}
LOOKS: list = []


def kind(name):
    def deco(fn):
        KINDS[name] = fn
        return fn

    return deco


def look(fn):
    LOOKS.append(fn)
    return fn


# ---------------------------------------------------------------- helpers


def rs(r, n, alphabet=ALNUM):
    return "".join(r.choice(alphabet) for _ in range(n))


def j(*parts):
    """Join prefix pieces (keeps vendor prefixes out of the source as literals)."""
    return "".join(parts)


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def uuid4(r):
    h = rs(r, 32, HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:32]}"


def pick(r, seq):
    return r.choice(seq)


FIRST = [
    "alice",
    "bob",
    "priya",
    "marco",
    "chen",
    "fatima",
    "lukas",
    "sofia",
    "omar",
    "yuki",
    "dmitri",
    "ana",
    "tomas",
    "grace",
    "raj",
    "lena",
    "kwame",
    "ines",
    "noah",
    "mei",
    "olga",
    "pedro",
    "sam",
    "zara",
]
SERVICES = [
    "billing",
    "checkout",
    "auth",
    "search",
    "ingest",
    "reports",
    "notifier",
    "gateway",
    "scheduler",
    "inventory",
    "payments",
    "analytics",
    "orders",
    "ledger",
    "media",
    "catalog",
    "webhooks",
    "crm",
]
ENVS = ["prod", "staging", "dev", "qa", "sandbox", "preprod", "uat"]
DOMAINS = [
    "acme-corp.com",
    "internal.example.net",
    "corp.lan",
    "shopfront.io",
    "example.org",
    "northwind.dev",
    "contoso.cloud",
    "globex.internal",
]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "ap-northeast-1", "ca-central-1"]
WORDS = [
    "summer",
    "winter",
    "autumn",
    "tiger",
    "falcon",
    "monkey",
    "dragon",
    "sunshine",
    "coffee",
    "pizza",
    "rocket",
    "harbor",
    "maple",
    "orange",
    "thunder",
    "galaxy",
    "pepper",
    "shadow",
    "silver",
    "purple",
    "jasmine",
    "bulldog",
    "cobalt",
    "lantern",
    "meadow",
    "violet",
    "walnut",
    "biscuit",
    "pirate",
    "zebra",
    "glacier",
    "mango",
    "banjo",
    "tornado",
    "copper",
    "river",
    "kitten",
    "nebula",
    "saffron",
    "puffin",
]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
TEAMS = ["platform", "sre", "data", "mobile", "payments", "growth", "infra", "backend"]


def who(r):
    return r.choice(FIRST)


def svc(r):
    return r.choice(SERVICES)


def env(r):
    return r.choice(ENVS)


def dom(r):
    return r.choice(DOMAINS)


def host(r, kind_=None):
    k = kind_ or r.choice(["db", "api", "cache", "mq", "01", "02", "primary", "replica", "node3"])
    return f"{svc(r)}-{k}.{env(r)}.{dom(r)}"


def ip(r):
    return r.choice(
        [
            f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
            f"172.{r.randint(16, 31)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
            f"192.168.{r.randint(0, 255)}.{r.randint(1, 254)}",
        ]
    )


def date(r):
    return f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def ts(r):
    return f"{date(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"


def ticket(r):
    return f"{r.choice(['OPS', 'INFRA', 'SEC', 'PLAT', 'DEV', 'INC'])}-{r.randint(100, 9999)}"


def user(r):
    return r.choice(
        [
            who(r),
            f"{svc(r)}_app",
            f"{svc(r)}-svc",
            "admin",
            "root",
            "deploy",
            "postgres",
            "app",
            f"{who(r)}.{r.choice(['ops', 'dev'])}",
            "ci-bot",
            f"svc_{svc(r)}",
        ]
    )


def human_pw(r, safe=False):
    """Password a person would pick (or a password manager would print)."""
    w = r.choice(WORDS)
    style = r.randrange(9)
    syms = "!#$%*?@+=." if not safe else "!*.-_~"
    if style == 0:
        p = w.capitalize() + str(r.randint(2015, 2025)) + r.choice(syms)
    elif style == 1:
        t = w.capitalize().translate(str.maketrans({"a": "@", "o": "0", "e": "3", "s": "$", "i": "1"}))
        if safe:
            t = t.replace("@", "4").replace("$", "5")
        p = t + str(r.randint(1, 999))
    elif style == 2:
        sep = r.choice(["-", ".", "_"])
        p = sep.join(r.sample(WORDS, r.randint(3, 4)))
    elif style == 3:
        a, b = r.sample(WORDS, 2)
        p = a.capitalize() + b.capitalize() + r.choice(syms) + str(r.randint(10, 99))
    elif style == 4:
        p = f"{w}_{env(r)}_{r.randint(10, 999)}{r.choice(syms)}"
    elif style == 5:
        p = rs(r, r.randint(16, 24), ALNUM + ("!#%*-_+=" if not safe else "-_.~"))
    elif style == 6:
        p = who(r).capitalize() + str(r.randint(1970, 2005)) + r.choice(syms)
    elif style == 7:
        a, b = r.sample(WORDS, 2)
        p = f"{a}{r.randint(1, 9)}{b.upper()}{r.choice(syms)}"
    else:
        p = rs(r, 4, UP) + rs(r, 4, DIG) + rs(r, 4, LO) + r.choice(syms)
        lst = list(p)
        r.shuffle(lst)
        p = "".join(lst)
    if len(p) < 8:
        p += str(r.randint(1000, 9999))
    return p


def url_pw(r):
    """Password as it must appear inside a URL userinfo (percent-encoded)."""
    p = human_pw(r)
    return urllib.parse.quote(p, safe="!*-._~")


def jwt(r, sub=None):
    hdr = {"alg": r.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    if hdr["alg"] != "HS256" and r.random() < 0.6:
        hdr["kid"] = rs(r, r.choice([16, 20, 27]), B64URL)
    iat = r.randint(1_700_000_000, 1_730_000_000)
    payload = {
        "sub": sub or r.choice([uuid4(r), str(r.randint(1000, 999999)), who(r) + "@" + dom(r)]),
        "iat": iat,
        "exp": iat + r.choice([900, 3600, 86400, 2592000]),
    }
    if r.random() < 0.6:
        payload["iss"] = r.choice(
            [
                f"https://auth.{dom(r)}/",
                f"https://{rs(r, 8, LOWNUM)}.auth0.com/",
                "https://accounts.google.com",
                f"{svc(r)}-service",
            ]
        )
    if r.random() < 0.5:
        payload["scope"] = r.choice(["read write", "openid profile email", "admin", "api:read"])
    if r.random() < 0.4:
        payload["role"] = r.choice(["service", "admin", "user", "authenticated"])
    siglen = 43 if hdr["alg"] == "HS256" else (86 if hdr["alg"] == "ES256" else 342)
    return (
        b64u(json.dumps(hdr, separators=(",", ":")).encode())
        + "."
        + b64u(json.dumps(payload, separators=(",", ":")).encode())
        + "."
        + rs(r, siglen, B64URL)
    )


def pem_block(r, label, lines, last=None, b64body=None):
    begin = j("-----", "BEGIN ", label, "-----")
    end = j("-----", "END ", label, "-----")
    body = []
    for _ in range(lines):
        body.append(rs(r, 64, B64))
    tail = rs(r, last or r.randint(8, 60), B64)
    pad = "=" * r.choice([0, 0, 1, 2])
    body.append(tail + pad)
    if b64body:
        body[0] = b64body + body[0][len(b64body) :]
    return begin + "\n" + "\n".join(body) + "\n" + end


# ---------------------------------------------------------------- generate


def generate(seed: int):
    r = random.Random(seed)
    positives = []
    names = list(KINDS)
    per = max(1, round(POSITIVES_TOTAL / max(1, len(names))))
    for name in names:
        fn = KINDS[name]
        for _ in range(per):
            text, secret = fn(r)
            positives.append((text, name, secret))
    lookalikes = []
    if LOOKS:
        for i in range(LOOKALIKES_TOTAL):
            lookalikes.append(LOOKS[i % len(LOOKS)](r))
    r.shuffle(positives)
    r.shuffle(lookalikes)
    return positives, lookalikes


# ================================================================ POSITIVES


def _t(r, s, templates):
    return r.choice(templates)(s), s


@kind("aws_access_key_id")
def k_aws_id(r):
    s = r.choice([j("AK", "IA"), j("AK", "IA"), j("AS", "IA")]) + rs(r, 16, B32)
    reg = r.choice(REGIONS)
    T = [
        lambda s: f"[profile {env(r)}]\naws_access_key_id = {s}\nregion = {reg}\noutput = json",
        lambda s: f"export AWS_ACCESS_KEY_ID={s}\nexport AWS_DEFAULT_REGION={reg}",
        lambda s: (
            f"CI is failing with AccessDenied for key {s} -- the IAM user {svc(r)}-deployer lost s3:PutObject after the policy cleanup."
        ),
        lambda s: f"aws:\n  region: {reg}\n  access_key_id: {s}\n  bucket: {svc(r)}-{env(r)}-artifacts",
        lambda s: f"s3 = boto3.client('s3', region_name='{reg}', aws_access_key_id='{s}')",
        lambda s: (
            f"{ts(r)} WARN botocore.credentials Found credentials in shared file; using access key {s} for profile {env(r)}"
        ),
        lambda s: (
            f"Note to self: old deploy key {s} still shows 'last used 3 days ago' in IAM, check what's calling it before disabling."
        ),
        lambda s: f'{{"AccessKeyId": "{s}", "Status": "Active", "UserName": "{svc(r)}-ci"}}',
    ]
    return _t(r, s, T)


@kind("aws_secret_access_key")
def k_aws_secret(r):
    s = rs(r, 40, ALNUM + "+/")
    reg = r.choice(REGIONS)
    T = [
        lambda s: f"[default]\naws_secret_access_key = {s}\nregion = {reg}",
        lambda s: f"export AWS_SECRET_ACCESS_KEY='{s}'",
        lambda s: f"AWS_REGION={reg}\nAWS_SECRET_ACCESS_KEY={s}\nS3_BUCKET={svc(r)}-uploads",
        lambda s: f"storage:\n  s3:\n    region: {reg}\n    bucket: {svc(r)}-backups\n    secretkey: {s}",
        lambda s: f'Aws__SecretKey = "{s}"',
        lambda s: f'session = boto3.Session(\n    region_name="{reg}",\n    aws_secret_access_key="{s}",\n)',
        lambda s: (
            f"the secret for the {svc(r)} uploader IAM user is {s} -- ask {who(r)} for the key id, it's in the onboarding doc"
        ),
        lambda s: f"rclone config: type = s3, provider = AWS, secret_access_key = {s}, region = {reg}",
        lambda s: f"new AWS.S3({{ region: '{reg}', secretAccessKey: '{s}' }})",
        lambda s: f'<property name="fs.s3a.secret.key">\n  <value>{s}</value>\n</property>',
    ]
    return _t(r, s, T)


@kind("github_token")
def k_github(r):
    c = r.randrange(6)
    if c == 5:
        s = j("github", "_pat_") + "11" + rs(r, 20, UPNUM) + "_" + rs(r, 59, ALNUM)
    else:
        s = j("gh", r.choice(["p", "p", "o", "s", "u"]), "_") + rs(r, 36)
    org = r.choice(["acme", "northwind", "globex-eng", "contoso-labs"])
    T = [
        lambda s: f"git clone https://{s}@github.com/{org}/{svc(r)}.git",
        lambda s: f"export GITHUB_TOKEN={s}",
        lambda s: f"GH_TOKEN={s} gh pr list --repo {org}/{svc(r)} --state open",
        lambda s: (
            f"Made a PAT for the release workflow: {s} (repo + workflow scopes, expires in 90 days). Put it in the org secret RELEASE_TOKEN."
        ),
        lambda s: f"//npm.pkg.github.com/:_authToken={s}\n@{org}:registry=https://npm.pkg.github.com",
        lambda s: f'curl -H "Authorization: token {s}" https://api.github.com/repos/{org}/{svc(r)}/actions/runs',
        lambda s: f'from github import Github\ng = Github("{s}")\nrepo = g.get_repo("{org}/{svc(r)}")',
        lambda s: f"echo {s} | docker login ghcr.io -u {who(r)} --password-stdin",
        lambda s: f'[url "https://{who(r)}:{s}@github.com/"]\n\tinsteadOf = https://github.com/',
        lambda s: f"renovate:\n  platform: github\n  token: {s}\n  autodiscover: true",
    ]
    return _t(r, s, T)


@kind("gitlab_token")
def k_gitlab(r):
    s = r.choice([j("gl", "pat-"), j("gl", "pat-"), j("gl", "dt-"), j("gl", "rt-")]) + rs(r, 20, ALNUM + "-_")
    T = [
        lambda s: f"git remote set-url origin https://oauth2:{s}@gitlab.{dom(r)}/{TEAMS[0]}/{svc(r)}.git",
        lambda s: (
            f'curl --header "PRIVATE-TOKEN: {s}" "https://gitlab.com/api/v4/projects/{r.randint(1000, 99999)}/pipelines"'
        ),
        lambda s: f"export GITLAB_TOKEN={s}",
        lambda s: f'gitlab_url = "https://gitlab.{dom(r)}"\ngitlab_token = "{s}"',
        lambda s: f"Runner registration on {host(r)} used token {s}; needs re-register after the upgrade.",
        lambda s: f"gl = gitlab.Gitlab('https://gitlab.com', private_token='{s}')",
        lambda s: f'{{\n  "gitlab": {{ "host": "gitlab.com", "token": "{s}" }}\n}}',
    ]
    return _t(r, s, T)


@kind("slack_token")
def k_slack(r):
    c = r.randrange(3)
    if c == 0:
        s = j("xo", "xb-") + str(r.randint(10**10, 10**12)) + "-" + str(r.randint(10**12, 10**13)) + "-" + rs(r, 24)
    elif c == 1:
        s = (
            j("xo", "xp-")
            + str(r.randint(10**10, 10**12))
            + "-"
            + str(r.randint(10**10, 10**12))
            + "-"
            + str(r.randint(10**12, 10**13))
            + "-"
            + rs(r, 32, HEX)
        )
    else:
        s = j("xa", "pp-") + "1-" + "A" + rs(r, 10, UPNUM) + "-" + str(r.randint(10**12, 10**13)) + "-" + rs(r, 64, HEX)
    ch = "#" + r.choice(["alerts", "deploys", "ops", f"{svc(r)}-oncall", "general"])
    T = [
        lambda s: f"SLACK_BOT_TOKEN={s}\nSLACK_CHANNEL={ch}",
        lambda s: f'client = WebClient(token="{s}")\nclient.chat_postMessage(channel="{ch}", text="deploy finished")',
        lambda s: (
            f'curl -X POST -H \'Authorization: Bearer {s}\' -H \'Content-type: application/json\' --data \'{{"channel":"{ch}","text":"hi"}}\' https://slack.com/api/chat.postMessage'
        ),
        lambda s: f'slack:\n  token: {s}\n  channel: "{ch}"',
        lambda s: (
            f"The alert bot stopped posting to {ch}; token {s} returned invalid_auth when I tested it from my laptop."
        ),
        lambda s: f"const app = new App({{ token: '{s}', signingSecret: process.env.SLACK_SIGNING_SECRET }});",
    ]
    return _t(r, s, T)


@kind("slack_webhook_url")
def k_slack_hook(r):
    s = (
        j("https://hooks.", "slack.com/services/")
        + "T"
        + rs(r, r.choice([8, 10]), UPNUM)
        + "/B"
        + rs(r, r.choice([8, 10]), UPNUM)
        + "/"
        + rs(r, 24)
    )
    T = [
        lambda s: f"alertmanager receiver:\n  slack_configs:\n    - api_url: '{s}'\n      channel: '#alerts'",
        lambda s: f'curl -X POST --data-urlencode \'payload={{"text": "backup done"}}\' {s}',
        lambda s: f"SLACK_WEBHOOK_URL={s}",
        lambda s: f"webhook for #{svc(r)}-deploys is {s} - don't share outside the team",
        lambda s: f'requests.post("{s}", json={{"text": msg}})',
        lambda s: f'{{"notify": {{"type": "slack", "url": "{s}"}}}}',
    ]
    return _t(r, s, T)


@kind("stripe_secret_key")
def k_stripe(r):
    pre = r.choice([j("sk", "_live_")] * 4 + [j("rk", "_live_"), j("sk", "_test_")])
    s = pre + rs(r, r.choice([24, 24, 99]))
    T = [
        lambda s: f"STRIPE_SECRET_KEY={s}",
        lambda s: f'stripe.api_key = "{s}"',
        lambda s: f"const stripe = require('stripe')('{s}');",
        lambda s: f"curl https://api.stripe.com/v1/charges -u {s}: -d amount=2000 -d currency=usd",
        lambda s: f"Stripe::API_KEY = ENV.fetch('STRIPE_KEY', '{s}')".replace("Stripe::API_KEY", "Stripe.api_key"),
        lambda s: f"stripe:\n  secret_key: {s}\n  webhook_tolerance: 300",
        lambda s: f"$stripe = new \\Stripe\\StripeClient('{s}');",
        lambda s: f"Restricted key for the reporting job (read-only charges): {s}",
        lambda s: f"stripe listen --api-key {s} --forward-to localhost:4242/webhook",
    ]
    return _t(r, s, T)


@kind("llm_api_key")
def k_llm(r):
    c = r.randrange(8)
    if c == 0:
        s = j("sk", "-proj-") + rs(r, 74, B64URL) + j("T3", "BlbkFJ") + rs(r, 74, B64URL)
        vendor, env_ = "openai", "OPENAI_API_KEY"
    elif c == 1:
        s = j("sk", "-") + rs(r, 20) + j("T3", "BlbkFJ") + rs(r, 20)
        vendor, env_ = "openai", "OPENAI_API_KEY"
    elif c == 2:
        s = j("sk", "-ant-", "api03-") + rs(r, 93, B64URL) + "AA"
        vendor, env_ = "anthropic", "ANTHROPIC_API_KEY"
    elif c == 3:
        s = j("gs", "k_") + rs(r, 52)
        vendor, env_ = "groq", "GROQ_API_KEY"
    elif c == 4:
        s = j("h", "f_") + rs(r, 34, ALNUM)
        vendor, env_ = "huggingface", "HF_TOKEN"
    elif c == 5:
        s = rs(r, 32)
        vendor, env_ = "mistral", "MISTRAL_API_KEY"
    elif c == 6:
        s = rs(r, 40)
        vendor, env_ = "cohere", "COHERE_API_KEY"
    else:
        s = j("sk", "-or-v1-") + rs(r, 64, HEX)
        vendor, env_ = "openrouter", "OPENROUTER_API_KEY"
    T = [
        lambda s: f'export {env_}="{s}"',
        lambda s: f"{env_}={s}\nMODEL=default\nTEMPERATURE=0.2",
        lambda s: f'client = {vendor.capitalize()}(api_key="{s}")',
        lambda s: (
            f"Agent note: user pasted their {vendor} key ({s}) into the chat so I could run the eval script; used it only for the single run."
        ),
        lambda s: f'[llm]\nprovider = "{vendor}"\napi_key = "{s}"\nmax_tokens = 1024',
        lambda s: (
            f"curl https://api.{vendor}.com/v1/chat -H \"Authorization: Bearer {s}\" -H 'content-type: application/json' -d @req.json"
        ),
        lambda s: f"llm:\n  {vendor}:\n    key: {s}\n    timeout_s: 60",
        lambda s: f'const client = new {vendor.capitalize()}({{ apiKey: "{s}" }});',
    ]
    if vendor == "anthropic":
        T.append(
            lambda s: (
                f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {s}" -H "anthropic-version: 2023-06-01" -d @body.json'
            )
        )
    if vendor == "huggingface":
        T.append(lambda s: f"huggingface-cli login --token {s}")
    return _t(r, s, T)


@kind("google_api_key")
def k_google(r):
    s = j("AI", "za") + rs(r, 35, ALNUM + "-_")
    T = [
        lambda s: (
            f'<script src="https://maps.googleapis.com/maps/api/js?key={s}&callback=initMap"></script> -- this one is the unrestricted server key, swap for the referrer-locked one'
        ),
        lambda s: f"GOOGLE_MAPS_API_KEY={s}",
        lambda s: f'curl "https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={s}"',
        lambda s: f"gmaps = googlemaps.Client(key='{s}')",
        lambda s: f'<meta-data android:name="com.google.android.geo.API_KEY" android:value="{s}"/>',
        lambda s: f"YouTube Data API key for the ingest job: {s} (quota 10k/day)",
        lambda s: f'genai.configure(api_key="{s}")',
        lambda s: f"places:\n  provider: google\n  api_key: {s}",
    ]
    return _t(r, s, T)


@kind("telegram_bot_token")
def k_telegram(r):
    s = str(r.randint(10**8, 8 * 10**9)) + ":AA" + rs(r, 33, ALNUM + "-_")
    chat = "-100" + str(r.randint(10**9, 10**10))
    T = [
        lambda s: f"TELEGRAM_BOT_TOKEN={s}\nTELEGRAM_CHAT_ID={chat}",
        lambda s: f'curl -s "https://api.telegram.org/bot{s}/sendMessage?chat_id={chat}&text=backup+ok"',
        lambda s: f'bot = telebot.TeleBot("{s}")',
        lambda s: f"BotFather gave me {s} for @{svc(r)}_alerts_bot",
        lambda s: f'telegram:\n  token: "{s}"\n  chat_id: {chat}',
        lambda s: f"const bot = new Telegraf('{s}');",
    ]
    return _t(r, s, T)


@kind("discord_bot_token")
def k_discord(r):
    c = r.randrange(3)
    if c < 2:
        uid = str(r.randint(7 * 10**17, 13 * 10**17))
        s = b64u(uid.encode()) + "." + rs(r, 6, B64URL) + "." + rs(r, 38, B64URL)
    else:
        s = j("https://discord.com/api/", "webhooks/") + str(r.randint(10**17, 13 * 10**17)) + "/" + rs(r, 68, B64URL)
    T = [
        lambda s: f"DISCORD_TOKEN={s}",
        lambda s: f"client.run('{s}')",
        lambda s: f'client.login("{s}");',
        lambda s: f"discord:\n  bot_token: {s}\n  guild_id: {r.randint(10**17, 13 * 10**17)}",
        lambda s: f"moderation bot token (regenerated after the leak on {date(r)}): {s}",
    ]
    if c == 2:
        T = [
            lambda s: f"DISCORD_WEBHOOK={s}",
            lambda s: f'curl -H "Content-Type: application/json" -d \'{{"content":"deploy ok"}}\' {s}',
            lambda s: f"webhook for #status channel: {s}",
            lambda s: f"notifications:\n  discord:\n    url: {s}",
        ]
    return _t(r, s, T)


@kind("twilio_auth_token")
def k_twilio(r):
    s = rs(r, 32, HEX)
    sid = "AC" + rs(r, 32, HEX)
    T = [
        lambda s: f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={s}",
        lambda s: f'client = Client("{sid}", "{s}")',
        lambda s: (
            f"curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json -u {sid}:{s} --data-urlencode 'Body=hi'"
        ),
        lambda s: f'twilio:\n  account_sid: {sid}\n  auth_token: {s}\n  from: "+1555{r.randint(1000000, 9999999)}"',
        lambda s: f"Twilio auth token rotated; new primary is {s}. Secondary token still valid until Friday.",
        lambda s: f"const client = require('twilio')('{sid}', '{s}');",
    ]
    return _t(r, s, T)


@kind("sendgrid_api_key")
def k_sendgrid(r):
    s = "SG." + rs(r, 22, B64URL) + "." + rs(r, 43, B64URL)
    T = [
        lambda s: f"SENDGRID_API_KEY={s}",
        lambda s: f"sg = SendGridAPIClient('{s}')",
        lambda s: f"[smtp]\nhost = smtp.sendgrid.net\nport = 587\nuser = apikey\npassword = {s}",
        lambda s: f"sgMail.setApiKey('{s}');",
        lambda s: f"mail key for transactional stream: {s} (full access, should be restricted to mail.send)",
        lambda s: f"spring.mail.password={s}\nspring.mail.username=apikey\nspring.mail.host=smtp.sendgrid.net",
    ]
    return _t(r, s, T)


@kind("db_connection_password")
def k_dbconn(r):
    u = user(r)
    h = host(r, r.choice(["db", "pg", "mysql", "primary", "replica", "mongo", "redis", "rabbit"]))
    db = r.choice([svc(r), f"{svc(r)}_{env(r)}", "app", "main"])
    c = r.randrange(12)
    if c in (0, 1, 2, 3, 4, 5):
        s = url_pw(r)
    else:
        s = human_pw(r)
        s = s.replace(";", "").replace("&", "").replace("'", "").replace('"', "")
    T_url = [
        lambda s: f"DATABASE_URL=postgres://{u}:{s}@{h}:5432/{db}?sslmode=require",
        lambda s: f"mysql://{u}:{s}@{h}:3306/{db}",
        lambda s: (
            f"MONGO_URI=mongodb+srv://{u}:{s}@cluster0.{rs(r, 5, LOWNUM)}.mongodb.net/{db}?retryWrites=true&w=majority"
        ),
        lambda s: f"REDIS_URL=redis://default:{s}@{h}:6379/0",
        lambda s: f"CELERY_BROKER_URL=amqp://{u}:{s}@{h}:5672/{svc(r)}",
        lambda s: f'SQLALCHEMY_DATABASE_URI = "postgresql+psycopg2://{u}:{s}@{h}/{db}"',
        lambda s: f"psql \"postgresql://{u}:{s}@{h}:5432/{db}\" -c 'select count(*) from jobs'",
        lambda s: f'prisma datasource: url = "mysql://{u}:{s}@{h}:3306/{db}"',
        lambda s: (
            f"Connected fine with mongodb://{u}:{s}@{h}:27017/?authSource=admin -- the replica set name was the issue."
        ),
        lambda s: f"spring.data.redis.url=rediss://{u}:{s}@{h}:6380",
    ]
    T_kv = [
        lambda s: f"Server={h};Database={db};User Id={u};Password={s};TrustServerCertificate=True;",
        lambda s: (
            f'"ConnectionStrings": {{\n  "Default": "Host={h};Port=5432;Database={db};Username={u};Password={s}"\n}}'
        ),
        lambda s: f"jdbc:postgresql://{h}:5432/{db}?user={u}&password={s}&ssl=true",
        lambda s: f"jdbc:mysql://{h}:3306/{db}?user={u}&password={s}&useSSL=true",
        lambda s: f'conn = psycopg2.connect("host={h} dbname={db} user={u} password={s}")',
        lambda s: f'dsn := "{u}:{s}@tcp({h}:3306)/{db}?parseTime=true"',
        lambda s: f"Data Source={h},1433;Initial Catalog={db};User ID={u};Password={s};Encrypt=True",
        lambda s: f"{h}:5432:{db}:{u}:{s}",
    ]
    return _t(r, s, T_url if c <= 5 else T_kv)


def _cfg_key(r):
    return r.choice(
        [
            "password",
            "password",
            "passwd",
            "pwd",
            "pass",
            "db_password",
            "admin_password",
            "smtp_password",
            "bind_password",
            "root_password",
            "ldap_password",
            "redis_password",
            "rabbitmq_password",
            "keystore_password",
            "service_password",
        ]
    )


@kind("config_password")
def k_cfgpw(r):
    s = human_pw(r).replace('"', "").replace("'", "").replace("\\", "")
    k = _cfg_key(r)
    u = user(r)
    h = host(r)
    T = [
        lambda s: f'database:\n  host: {h}\n  port: 5432\n  username: {u}\n  {k}: "{s}"',
        lambda s: f'{{\n  "db": {{\n    "host": "{h}",\n    "user": "{u}",\n    "{k}": "{s}"\n  }}\n}}',
        lambda s: f'[database]\nhost = "{h}"\nuser = "{u}"\n{k} = "{s}"',
        lambda s: f"[mysqld_client]\nhost={h}\nuser={u}\npassword={s}",
        lambda s: f"{k.upper()}={s}\n{k.upper().replace('PASSWORD', 'USER').replace('PASSWD', 'USER')}={u}",
        lambda s: (
            f"<connection>\n  <server>{h}</server>\n  <username>{u}</username>\n  <password>{s}</password>\n</connection>"
        ),
        lambda s: (
            f"spring.datasource.url=jdbc:postgresql://{h}:5432/app\nspring.datasource.username={u}\nspring.datasource.password={s}"
        ),
        lambda s: (
            f'resource "aws_db_instance" "main" {{\n  engine   = "postgres"\n  username = "{u}"\n  password = "{s}"\n}}'
        ),
        lambda s: f"ldap:\n  url: ldaps://ldap.{dom(r)}:636\n  bind_dn: cn={u},ou=svc,dc=corp\n  bind_password: '{s}'",
        lambda s: f'<add key="SmtpPassword" value="{s}" />',
        lambda s: f"mail.smtp.host=smtp.{dom(r)}\nmail.smtp.user={u}\nmail.smtp.password={s}",
        lambda s: (
            f"DATABASES = {{\n    'default': {{\n        'ENGINE': 'django.db.backends.postgresql',\n        'HOST': '{h}',\n        'USER': '{u}',\n        'PASSWORD': '{s}',\n    }}\n}}"
        ),
        lambda s: f"environment:\n  - POSTGRES_USER={u}\n  - POSTGRES_PASSWORD={s}",
        lambda s: f"storePassword={s}\nkeyAlias=upload\nstoreFile=../keystore.jks",
        lambda s: f'grafana:\n  adminUser: admin\n  adminPassword: "{s}"',
        lambda s: f'[client]\nuser = {u}\npassword = "{s}"',
        lambda s: f'variable "db_password" {{\n  default = "{s}"\n}}',
        lambda s: (
            f"<server>\n  <id>nexus-releases</id>\n  <username>{u}</username>\n  <password>{s}</password>\n</server>"
        ),
        lambda s: f'wpa_passphrase / network={{ ssid="{svc(r).upper()}-LAB" psk="{s}" }}',
    ]
    return _t(r, s, T)


@kind("cli_password")
def k_clipw(r):
    s = human_pw(r).replace("'", "").replace('"', "").replace("\\", "")
    s2 = human_pw(r, safe=True)
    u = user(r)
    h = host(r)
    # (template, uses shell-safe password?)
    T = [
        (lambda s: f"mysql -h {h} -u {u} -p'{s}' {svc(r)}", False),
        (lambda s: f"mysqldump -u{u} -p{s} --single-transaction {svc(r)} > dump.sql", True),
        (lambda s: f"PGPASSWORD='{s}' psql -h {h} -U {u} -d {svc(r)}", False),
        (lambda s: f"docker login registry.{dom(r)} -u {u} -p '{s}'", False),
        (lambda s: f"sshpass -p '{s}' ssh {u}@{ip(r)}", False),
        (lambda s: f"redis-cli -h {h} -p 6379 -a '{s}' --no-auth-warning INFO replication", False),
        (
            lambda s: f"mongosh \"mongodb://{h}:27017\" --username {u} --password '{s}' --authenticationDatabase admin",
            False,
        ),
        (lambda s: f"curl -u {u}:{s} https://nexus.{dom(r)}/service/rest/v1/repositories", True),
        (lambda s: f"htpasswd -b -c /etc/nginx/.htpasswd {u} '{s}'", False),
        (
            lambda s: (
                f"kubectl create secret generic {svc(r)}-db --from-literal=username={u} --from-literal=password='{s}'"
            ),
            False,
        ),
        (lambda s: f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{s}", True),
        (lambda s: f"zip -P '{s}' exports.zip customers.csv", False),
        (lambda s: f"rabbitmqctl add_user {u} '{s}'", False),
        (lambda s: f"smbclient //{ip(r)}/share -U {u}%{s}", True),
        (lambda s: f"wget --user={u} --password='{s}' https://files.{dom(r)}/drop/report.tgz", False),
        (lambda s: f"helm repo add internal https://charts.{dom(r)} --username {u} --password '{s}'", False),
        (lambda s: f"ldapsearch -x -H ldaps://ldap.{dom(r)} -D 'cn={u},dc=corp' -w '{s}' '(uid=*)'", False),
        (lambda s: f"sqlcmd -S {h} -U {u} -P '{s}' -Q \"SELECT @@VERSION\"", False),
        (
            lambda s: f"keytool -importcert -alias ca -file ca.crt -keystore truststore.jks -storepass {s} -noprompt",
            True,
        ),
        (lambda s: f"7z a -p'{s}' -mhe=on backup.7z ./data", False),
        (lambda s: f"xfreerdp /v:{ip(r)} /u:{u} /p:'{s}' /cert:ignore", False),
        (lambda s: f"net use Z: \\\\{ip(r)}\\finance /user:CORP\\{u} {s}", True),
        (lambda s: f"nmcli dev wifi connect {svc(r).upper()}-5G password '{s}'", False),
        (lambda s: f"az login --service-principal -u {uuid4(r)} -p '{s}' --tenant {dom(r)}", False),
        (lambda s: f"influx -host {h} -username {u} -password '{s}' -database metrics", False),
        (lambda s: f"ansible-playbook site.yml -i inventory -e ansible_become_pass='{s}'", False),
        (lambda s: f"mc alias set backup https://minio.{dom(r)} {u} '{s}'", False),
        (lambda s: f"ipmitool -I lanplus -H {ip(r)} -U ADMIN -P '{s}' chassis power status", False),
        (lambda s: f"pg_basebackup -d 'host={h} user={u} password={s}' -D /var/lib/pg/replica", True),
        (
            lambda s: (
                f"Invoke-Command -ComputerName {svc(r).upper()}01 -Credential (New-Object PSCredential('{u}', (ConvertTo-SecureString '{s}' -AsPlainText -Force)))"
            ),
            False,
        ),
        (lambda s: f"echo '{s}' | sudo -S systemctl restart {svc(r)}", False),
        (lambda s: f"twine upload --repository-url https://pypi.{dom(r)}/ -u {u} -p '{s}' dist/*", False),
    ]
    fn, safe = r.choice(T)
    val = s2 if safe else s
    return fn(val), val


@kind("bearer_token")
def k_bearer(r):
    c = r.randrange(4)
    if c < 3:
        s = jwt(r)
    else:
        s = rs(r, r.choice([32, 40, 48, 64]), ALNUM + r.choice(["", "-_", "._~"]))
    path = r.choice(["/v1/orders", "/api/users/me", "/internal/jobs", "/v2/reports?limit=50", "/graphql"])
    base = f"https://{svc(r)}.{dom(r)}"
    T = [
        lambda s: f'curl -H "Authorization: Bearer {s}" {base}{path}',
        lambda s: f"GET {path} HTTP/1.1\nHost: {svc(r)}.{dom(r)}\nAuthorization: Bearer {s}\nAccept: application/json",
        lambda s: f'headers = {{"Authorization": f"Bearer {s}", "Content-Type": "application/json"}}'.replace(
            'f"Bearer', '"Bearer'
        ),
        lambda s: f"fetch('{base}{path}', {{ headers: {{ Authorization: 'Bearer {s}' }} }})",
        lambda s: f'req.Header.Set("Authorization", "Bearer {s}")',
        lambda s: f"Token I grabbed from the browser devtools for repro (expires in an hour): {s}",
        lambda s: f"http {base}{path} 'Authorization:Bearer {s}'",
        lambda s: (
            f"{ts(r)} DEBUG outbound request {path} headers={{'authorization': 'Bearer {s}', 'user-agent': 'python-requests/2.31'}}"
        ),
        lambda s: f'client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "{s}");',
        lambda s: f'{{"access_token": "{s}", "token_type": "Bearer", "expires_in": 3600}}',
        lambda s: f"grpcurl -H 'authorization: Bearer {s}' {svc(r)}.{dom(r)}:443 list",
    ]
    return _t(r, s, T)


@kind("url_credentials")
def k_urlcred(r):
    s = url_pw(r)
    u = user(r)
    T = [
        lambda s: f"git clone https://{u}:{s}@git.{dom(r)}/{svc(r)}/{svc(r)}-api.git",
        lambda s: f"pip install --index-url https://{u}:{s}@pypi.{dom(r)}/simple/ {svc(r)}-client",
        lambda s: f"export https_proxy=http://{u}:{s}@proxy.{dom(r)}:3128",
        lambda s: f"ftp://{u}:{s}@ftp.{dom(r)}/exports/daily/",
        lambda s: f"SMTP_URL=smtp://{u}:{s}@smtp.{dom(r)}:587",
        lambda s: f'Acquire::http::Proxy "http://{u}:{s}@{ip(r)}:8080/";',
        lambda s: f"Grafana datasource URL: https://{u}:{s}@prometheus.{dom(r)}",
        lambda s: f'repositories {{ maven {{ url "https://{u}:{s}@artifacts.{dom(r)}/maven2" }} }}',
        lambda s: f"webdav mount: davfs https://{u}:{s}@cloud.{dom(r)}/remote.php/dav/files/{u}/ /mnt/nc",
        lambda s: f"ELASTICSEARCH_HOSTS=https://elastic:{s}@es.{dom(r)}:9200",
        lambda s: f"the scrape job fails, but https://{u}:{s}@metrics.{dom(r)}/federate works from my shell",
    ]
    return _t(r, s, T)


@kind("private_key")
def k_privkey(r):
    c = r.randrange(6)
    if c == 0:
        s = pem_block(r, j("RSA ", "PRIVATE KEY"), r.randint(20, 25), b64body="MIIE")
    elif c == 1:
        s = pem_block(r, j("EC ", "PRIVATE KEY"), 2, b64body="MHcCAQEE")
    elif c == 2:
        s = pem_block(r, j("OPENSSH ", "PRIVATE KEY"), r.choice([4, 6]), b64body="b3BlbnNzaC1rZXktdjEAAAAA")
    elif c == 3:
        n_ = r.choice([2, 25])
        s = pem_block(
            r,
            j("", "PRIVATE KEY"),
            n_,
            b64body=(
                "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg" if n_ == 2 else "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"
            ),
        )
    else:
        raw = pem_block(r, j("", "PRIVATE KEY"), r.choice([25, 26]), b64body="MIIEvQIBADANBgkqhkiG9w0BAQEFAASC")
        s = raw.replace("\n", "\\n") + "\\n"
        proj = f"{svc(r)}-{env(r)}-{r.randint(100000, 999999)}"
        text = (
            '{\n  "type": "service_account",\n  "project_id": "' + proj + '",\n'
            '  "private_key_id": "' + rs(r, 40, HEX) + '",\n  "private_key": "' + s + '",\n'
            '  "client_email": "' + svc(r) + "@" + proj + '.iam.gserviceaccount.com"\n}'
        )
        return text, s
    T = [
        lambda s: s,
        lambda s: f"deploy key for {host(r)} (read-only on the config repo):\n{s}",
        lambda s: f"cat > ~/.ssh/id_{svc(r)} <<'EOF'\n{s}\nEOF\nchmod 600 ~/.ssh/id_{svc(r)}",
        lambda s: f"JWT signing key for {svc(r)} ({env(r)}):\n\n{s}",
    ]
    if r.random() < 0.15:
        s = s.replace("\n", "\n    ")
        return f"tls:\n  cert_file: /etc/ssl/{svc(r)}.crt\n  key: |\n    " + s + '\n  min_version: "1.2"', s
    return _t(r, s, T)


@kind("generic_api_key")
def k_generic(r):
    c = r.randrange(7)
    if c == 0:
        s = rs(r, 32, HEX)
    elif c == 1:
        s = rs(r, 40, HEX)
    elif c == 2:
        s = rs(r, r.choice([32, 40, 48]), ALNUM)
    elif c == 3:
        s = uuid4(r)
    elif c == 4:
        s = rs(r, 64, HEX)
    elif c == 5:
        s = rs(r, 40, ALNUM + "-_")
    else:
        s = rs(r, 32, HEX) + "-us" + str(r.randint(1, 21))
    vendor = r.choice(
        [
            "weather",
            "geoip",
            "crm",
            "search",
            "sms",
            "translation",
            "payroll",
            "shipping",
            "heroku",
            "algolia-admin",
            "cloudflare",
            "mailchimp",
            "zendesk",
            "jira",
        ]
    )
    T = [
        lambda s: f'curl -H "X-API-Key: {s}" https://api.{dom(r)}/v2/{svc(r)}',
        lambda s: f"API_KEY={s}",
        lambda s: f"{vendor.upper().replace('-', '_')}_API_KEY={s}",
        lambda s: f"https://api.{vendor}.example.net/v1/lookup?ip=8.8.8.8&apikey={s}",
        lambda s: f"{vendor} api key: {s}",
        lambda s: f'const API_KEY = "{s}"; // TODO move to env before merging',
        lambda s: f'private static final String API_KEY = "{s}";',
        lambda s: f"{vendor}:\n  api_key: {s}\n  timeout: 5s",
        lambda s: f"$apiKey = '{s}';",
        lambda s: f'client = {vendor.split("-")[0].capitalize()}Client(api_key="{s}", timeout=10)',
        lambda s: f"X-Api-Key: {s}\nContent-Type: application/json",
        lambda s: f'apiKey := "{s}"',
        lambda s: f"Authorization: ApiKey {s}",
        lambda s: f"API_TOKEN = '{s}'  # {vendor} prod",
        lambda s: f"Asked {who(r)} for the {vendor} key, it's {s} - same one the cron uses.",
        lambda s: f'<add key="ApiKey" value="{s}" />',
        lambda s: f"config.api_key = '{s}'",
    ]
    return _t(r, s, T)


@kind("datadog_api_key")
def k_datadog(r):
    app = r.random() < 0.3
    s = rs(r, 40 if app else 32, HEX)
    name = "DD_APP_KEY" if app else "DD_API_KEY"
    T = [
        lambda s: f"{name}={s}\nDD_SITE=datadoghq.eu",
        lambda s: (
            f"# /etc/datadog-agent/datadog.yaml\n{'app_key' if app else 'api_key'}: {s}\nsite: datadoghq.com\nlogs_enabled: true"
        ),
        lambda s: (
            f"helm install datadog-agent datadog/datadog --set datadog.{'appKey' if app else 'apiKey'}={s} --set datadog.site=datadoghq.com"
        ),
        lambda s: (
            f'curl -X GET "https://api.datadoghq.com/api/v1/validate" -H "DD-{"APPLICATION" if app else "API"}-KEY: {s}"'
        ),
        lambda s: f"docker run -d -e {name}={s} -e DD_ENV={env(r)} gcr.io/datadoghq/agent:7",
        lambda s: f"datadog {'application' if app else 'api'} key for the {TEAMS[r.randrange(len(TEAMS))]} org: {s}",
        lambda s: (
            f'initialize(api_key="{s}", app_key=os.environ["DD_APP_KEY"])'
            if not app
            else f'initialize(api_key=os.environ["DD_API_KEY"], app_key="{s}")'
        ),
    ]
    return _t(r, s, T)


@kind("npm_token")
def k_npm(r):
    s = j("np", "m_") + rs(r, 36)
    T = [
        lambda s: f"//registry.npmjs.org/:_authToken={s}",
        lambda s: f"NPM_TOKEN={s}",
        lambda s: f'echo "//registry.npmjs.org/:_authToken={s}" > ~/.npmrc && npm publish --access public',
        lambda s: f"automation token for publishing @{svc(r)}/sdk: {s}",
        lambda s: f'npmAuthToken: "{s}"\nnpmRegistryServer: "https://registry.npmjs.org"',
    ]
    return _t(r, s, T)


@kind("pypi_token")
def k_pypi(r):
    s = j("py", "pi-") + j("AgEIcHlw", "aS5vcmc") + rs(r, r.choice([140, 160, 170]), B64URL)
    T = [
        lambda s: f"[pypi]\n  username = __token__\n  password = {s}",
        lambda s: f"TWINE_USERNAME=__token__ TWINE_PASSWORD={s} twine upload dist/*",
        lambda s: f"poetry config pypi-token.pypi {s}",
        lambda s: f"uv publish --token {s}",
        lambda s: f"project-scoped upload token for {svc(r)}-sdk: {s}",
    ]
    return _t(r, s, T)


@kind("azure_storage_key")
def k_azure(r):
    s = rs(r, 86, B64) + "=="
    acct = svc(r) + env(r) + rs(r, 4, LOWNUM)
    T = [
        lambda s: f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={s};EndpointSuffix=core.windows.net",
        lambda s: f'az storage blob upload --account-name {acct} --account-key "{s}" -c backups -f db.bak -n db.bak',
        lambda s: f"AZURE_STORAGE_ACCOUNT={acct}\nAZURE_STORAGE_KEY={s}",
        lambda s: (
            f'"AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={s};EndpointSuffix=core.windows.net"'
        ),
        lambda s: f"key1 for {acct} (rotated {date(r)}): {s}",
        lambda s: f'[remote "azure"]\n    url = azure://{svc(r)}-dvc\n    account_name = {acct}\n    account_key = {s}',
    ]
    return _t(r, s, T)


@kind("fcm_server_key")
def k_fcm(r):
    s = "AAAA" + rs(r, 7, B64URL) + ":APA91b" + rs(r, 134, B64URL)
    T = [
        lambda s: (
            f'curl -X POST https://fcm.googleapis.com/fcm/send -H "Authorization: key={s}" -H "Content-Type: application/json" -d @push.json'
        ),
        lambda s: f"FCM_SERVER_KEY={s}",
        lambda s: f'push:\n  android:\n    server_key: "{s}"\n    sender_id: "{r.randint(10**11, 10**12)}"',
        lambda s: f"Legacy FCM server key from the Firebase console (Cloud Messaging tab): {s}",
        lambda s: f"headers: {{ 'Authorization': 'key={s}', 'Content-Type': 'application/json' }}",
    ]
    return _t(r, s, T)


@kind("mobile_signing_password")
def k_mobile(r):
    c = r.randrange(4)
    if c == 0:
        s = "-".join(rs(r, 4, LO) for _ in range(4))
    else:
        s = human_pw(r).replace("'", "").replace('"', "").replace("\\", "")
    app = r.choice(["com.acme.shop", "io.northwind.driver", "com.globex.wallet", "dev.contoso.fit"])
    T0 = [
        lambda s: f"FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD={s}",
        lambda s: f"xcrun altool --upload-app -f build/App.ipa -t ios -u {who(r)}@{dom(r)} -p {s}",
        lambda s: f"app-specific password for the release Apple ID ({who(r)}@{dom(r)}): {s}",
        lambda s: (
            f"xcrun notarytool submit App.zip --apple-id {who(r)}@{dom(r)} --team-id {rs(r, 10, UPNUM)} --password {s} --wait"
        ),
    ]
    T1 = [
        lambda s: (
            f"android {{\n  signingConfigs {{\n    release {{\n      storeFile file('release.jks')\n      storePassword '{s}'\n      keyAlias 'upload'\n      keyPassword '{s}'\n    }}\n  }}\n}}".replace(
                f"keyPassword '{s}'", "keyPassword System.getenv('KEY_PASSWORD')"
            )
        ),
        lambda s: f"MATCH_PASSWORD={s}\nMATCH_GIT_URL=git@github.com:{dom(r).split('.')[0]}/certificates.git",
        lambda s: f"upload keystore for {app}: alias 'upload', store password {s}",
        lambda s: f"jarsigner -keystore release.keystore -storepass '{s}' app-release-unsigned.apk upload",
        lambda s: f"apksigner sign --ks release.jks --ks-pass pass:{s} --out app-signed.apk app.apk".replace("'", ""),
        lambda s: f"ANDROID_KEYSTORE_PASSWORD={s}\nANDROID_KEY_ALIAS=upload",
        lambda s: f"security unlock-keychain -p '{s}' build.keychain",
        lambda s: f"P12 export password for the iOS distribution cert: {s}",
    ]
    return _t(r, s, T0 if c == 0 else T1)


@kind("feature_flag_server_key")
def k_ff(r):
    c = r.randrange(6)
    if c == 0:
        s, v = "sdk-" + uuid4(r), "LaunchDarkly"
    elif c == 1:
        s, v = "api-" + uuid4(r), "LaunchDarkly"
    elif c == 2:
        s, v = "ser." + rs(r, 22), "Flagsmith"
    elif c == 3:
        s, v = r.choice(["*:", "default:"]) + r.choice(["production", "development"]) + "." + rs(r, 64, HEX), "Unleash"
    elif c == 4:
        s, v = j("secret", "-") + rs(r, 43), "Statsig"
    else:
        s, v = rs(r, 36, LOWNUM), "Split"
    T = [
        lambda s: f"{v.upper()}_SERVER_KEY={s}",
        lambda s: f"{v} server-side SDK key for {env(r)}: {s}",
        lambda s: f"feature_flags:\n  provider: {v.lower()}\n  server_key: {s}\n  poll_interval: 30s",
        lambda s: f'client = {v}Client("{s}")',
        lambda s: f'curl -H "Authorization: {s}" https://{v.lower()}.{dom(r)}/api/client/features',
        lambda s: f"const flags = init{v}({{ sdkKey: '{s}', offline: false }});",
    ]
    if v == "LaunchDarkly":
        T.append(lambda s: f'ld_client = ldclient.set_config(Config("{s}"))')
        T.append(lambda s: f"LAUNCHDARKLY_SDK_KEY={s}")
    return _t(r, s, T)


@kind("analytics_server_key")
def k_analytics(r):
    c = r.randrange(5)
    if c == 0:
        s, v, f = rs(r, 32, HEX), "Mixpanel", "api_secret"
    elif c == 1:
        s, v, f = rs(r, 32, HEX), "Amplitude", "secret_key"
    elif c == 2:
        s, v, f = j("ph", "x_") + rs(r, 43), "PostHog", "personal_api_key"
    elif c == 3:
        s, v, f = rs(r, 22, B64URL), "GA4", "api_secret"
    else:
        s, v, f = rs(r, 32, HEX), "Mixpanel", "service_account_secret"
    T = [
        lambda s: f"{v.upper()}_{f.upper()}={s}",
        lambda s: f"{v.lower()}:\n  {f}: {s}\n  project: {svc(r)}-web",
        lambda s: f"{v} {f.replace('_', ' ')} (server side export job): {s}",
        lambda s: (
            f"curl -u {s}: https://data.{v.lower()}.example/api/2.0/export?from_date={date(r)}"
            if v != "GA4"
            else f"POST https://www.google-analytics.com/mp/collect?measurement_id=G-{rs(r, 10, UPNUM)}&api_secret={s}"
        ),
        lambda s: f'exporter = {v}Export({f}="{s}")',
    ]
    return _t(r, s, T)


@kind("map_service_key")
def k_maps(r):
    c = r.randrange(3)
    if c == 0:
        u = who(r) + r.choice(["", "-maps", "dev"])
        payload = b64u(json.dumps({"u": u, "a": rs(r, 25, LOWNUM)}, separators=(",", ":")).encode())
        s, v = "sk." + payload + "." + rs(r, 22, B64URL), "Mapbox"
    elif c == 1:
        s, v = rs(r, 43, B64URL), "HERE"
    else:
        s, v = rs(r, 32, ALNUM), "TomTom"
    T = [
        lambda s: f"{v.upper()}_API_KEY={s}" if v != "Mapbox" else f"MAPBOX_DOWNLOADS_TOKEN={s}",
        lambda s: (
            f"{v} secret token for tileset uploads: {s}"
            if v == "Mapbox"
            else f"{v} routing key (server, no referrer restriction): {s}"
        ),
        lambda s: (
            f'curl "https://api.mapbox.com/uploads/v1/{who(r)}?access_token={s}"'
            if v == "Mapbox"
            else (
                f'curl "https://router.hereapi.com/v8/routes?transportMode=car&origin=52.5,13.4&destination=52.6,13.5&apiKey={s}"'
                if v == "HERE"
                else f'curl "https://api.tomtom.com/routing/1/calculateRoute/52.5,13.4:52.6,13.5/json?key={s}"'
            )
        ),
        lambda s: f"maps:\n  provider: {v.lower()}\n  key: {s}",
        lambda s: (
            f"machine login api.mapbox.com\npassword {s}"
            if v == "Mapbox"
            else f"geocoder = Geocoder(provider='{v.lower()}', api_key='{s}')"
        ),
    ]
    return _t(r, s, T)


@kind("payment_secret_key")
def k_payment(r):
    c = r.randrange(7)
    if c == 0:
        s, v = "EAAA" + rs(r, 60, B64URL), "Square access token"
    elif c == 1:
        s, v = j("sq0", "csp-") + rs(r, 43, B64URL), "Square application secret"
    elif c == 2:
        s, v = rs(r, 32, HEX), "Braintree private key"
    elif c == 3:
        s, v = rs(r, 80, B64URL), "PayPal client secret"
    elif c == 4:
        s, v = rs(r, 24), "Razorpay key secret"
    elif c == 5:
        s, v = j("shp", "at_") + rs(r, 32, HEX), "Shopify admin token"
    else:
        s, v = "AQE" + rs(r, 30, B64URL) + "." + rs(r, 40, B64URL), "Adyen API key"
    pub = {
        "Braintree private key": f"merchant_id: {rs(r, 16, LOWNUM)}\npublic_key: {rs(r, 16, LOWNUM)}",
        "PayPal client secret": f"client_id: A{rs(r, 79, B64URL)}",
        "Razorpay key secret": f"key_id: rzp_live_{rs(r, 14)}",
    }.get(v, f"environment: {r.choice(['production', 'live'])}")
    T = [
        lambda s: f"{pub}\n{v.split()[0].lower()}_{'_'.join(v.split()[1:]).lower()}: {s}",
        lambda s: f"{v}: {s}",
        lambda s: f"{v.upper().replace(' ', '_')}={s}",
        lambda s: f'gateway = Gateway(env="production", secret="{s}")  # {v}',
        lambda s: f"Rotated the {v} after {who(r)} left; new value {s}. Update the checkout service before Monday.",
    ]
    if c == 5:
        T.append(
            lambda s: (
                f'curl -H "X-Shopify-Access-Token: {s}" https://{svc(r)}-store.myshopify.com/admin/api/2024-01/orders.json'
            )
        )
    if c == 6:
        T.append(lambda s: f'curl https://checkout-test.adyen.com/v71/payments -H "X-API-Key: {s}" -d @payment.json')
    return _t(r, s, T)


@kind("vault_token")
def k_vault(r):
    c = r.randrange(3)
    s = j("hv", "s.") + rs(r, 90, B64URL) if c < 2 else j("hv", "b.") + rs(r, 130, B64URL)
    T = [
        lambda s: f"export VAULT_ADDR=https://vault.{dom(r)}:8200\nexport VAULT_TOKEN={s}",
        lambda s: f"vault login {s}",
        lambda s: f'curl -H "X-Vault-Token: {s}" https://vault.{dom(r)}:8200/v1/secret/data/{svc(r)}',
        lambda s: f"root token from the init ceremony (to be revoked after setup): {s}",
        lambda s: f"client = hvac.Client(url='https://vault.{dom(r)}:8200', token='{s}')",
        lambda s: f'provider "vault" {{\n  address = "https://vault.{dom(r)}:8200"\n  token   = "{s}"\n}}',
    ]
    return _t(r, s, T)


@kind("monitoring_api_key")
def k_monitor(r):
    c = r.randrange(6)
    if c == 0:
        s, v, var = j("NR", "AK-") + rs(r, 27, UPNUM), "New Relic user key", "NEW_RELIC_API_KEY"
    elif c == 1:
        s, v, var = rs(r, 36, HEX) + "NRAL", "New Relic license key", "NEW_RELIC_LICENSE_KEY"
    elif c == 2:
        s, v, var = j("gl", "sa_") + rs(r, 32) + "_" + rs(r, 8, HEX), "Grafana service account token", "GRAFANA_TOKEN"
    elif c == 3:
        s, v, var = rs(r, 32, HEX), "PagerDuty routing key", "PAGERDUTY_ROUTING_KEY"
    elif c == 4:
        s, v, var = uuid4(r), "Opsgenie API key", "OPSGENIE_API_KEY"
    else:
        s, v, var = (
            j("sntry", "s_")
            + b64u(
                json.dumps(
                    {"iat": r.randint(1_700_000_000, 1_730_000_000), "url": "https://sentry.io", "org": svc(r)}
                ).encode()
            )
            + "_"
            + rs(r, 43, B64URL),
            "Sentry org auth token",
            "SENTRY_AUTH_TOKEN",
        )
    T = [
        lambda s: f"{var}={s}",
        lambda s: f"{v}: {s}",
        lambda s: f"{v.split()[0].lower()}:\n  key: {s}\n  service: {svc(r)}",
    ]
    if c == 3:
        T += [
            lambda s: f"pagerduty_configs:\n  - routing_key: {s}\n    severity: critical",
            lambda s: (
                f'curl -X POST https://events.pagerduty.com/v2/enqueue -d \'{{"routing_key":"{s}","event_action":"trigger","payload":{{"summary":"disk full","source":"{host(r)}","severity":"error"}}}}\''
            ),
        ]
    if c == 4:
        T += [
            lambda s: (
                f'curl -X POST https://api.opsgenie.com/v2/alerts -H "Authorization: GenieKey {s}" -d @alert.json'
            ),
            lambda s: f"opsgenie_configs:\n  - api_key: {s}\n    priority: P2",
        ]
    if c == 1:
        T += [lambda s: f"newrelic.ini:\nlicense_key = {s}\napp_name = {svc(r)} ({env(r)})"]
    if c == 2:
        T += [
            lambda s: (
                f'curl -H "Authorization: Bearer {s}" https://grafana.{dom(r)}/api/dashboards/uid/{rs(r, 9, LOWNUM)}'
            )
        ]
    if c == 5:
        T += [lambda s: f"sentry-cli --auth-token {s} releases new {rs(r, 7, HEX)}"]
    return _t(r, s, T)


@kind("human_password")
def k_human(r):
    s = human_pw(r)
    u = user(r)
    T = [
        lambda s: (
            f"wifi for the {r.choice(['Lisbon', 'Berlin', 'Austin', 'Pune'])} office is {svc(r).upper()}-GUEST, password {s}"
        ),
        lambda s: f"root pw on the old jenkins box ({ip(r)}) is {s} -- yes I know, it's getting decommissioned",
        lambda s: f"login for staging admin panel: {u} / {s}",
        lambda s: f"Temporary password for {who(r)}: {s} (must change at first login)",
        lambda s: (
            f"Agent memory: user gave SSH credentials for {ip(r)} -> user `{u}`, password `{s}`. Used them to restart nginx."
        ),
        lambda s: (
            f"{who(r)}: what's the pass for the shared {r.choice(['figma', 'apple dev', 'vendor portal', 'router'])} account?\n{who(r)}: {s}"
        ),
        lambda s: f"- iDRAC {ip(r)}  user root  pass {s}",
        lambda s: f"Router admin (192.168.1.1): admin/{s}",
        lambda s: f"Creds for the vendor SFTP: username {u}, password is {s}. They reset it every 90 days.",
        lambda s: f"the 1password export failed so pasting here for now: {svc(r)} db superuser -> {s}",
        lambda s: f"Reset {u}'s AD password to {s} per ticket {ticket(r)}.",
        lambda s: f'The encryption passphrase for the offsite restic repo is "{s}" -- keep a paper copy in the safe.',
        lambda s: f"TODO(rotate): grafana admin password is still {s}",
        lambda s: f"Password: {s}\nUsername: {u}\nURL: https://portal.{dom(r)}",
    ]
    return _t(r, s, T)


@kind("container_registry_token")
def k_registry(r):
    c = r.randrange(3)
    if c == 0:
        s, reg = j("dckr", "_pat_") + rs(r, 27, B64URL), "docker.io"
    elif c == 1:
        s, reg = rs(r, 64, UPNUM), "quay.io"
    else:
        s, reg = rs(r, 52, ALNUM) + "+ACR" + rs(r, 6, ALNUM), f"{svc(r)}reg.azurecr.io"
    u = r.choice([who(r), f"{svc(r)}+ci", f"{svc(r)}-pull"])
    T = [
        lambda s: f"echo '{s}' | docker login {reg} -u {u} --password-stdin",
        lambda s: f"docker login -u {u} -p {s} {reg}",
        lambda s: f'{{"auths": {{"{reg}": {{"username": "{u}", "password": "{s}"}}}}}}',
        lambda s: f"REGISTRY_USER={u}\nREGISTRY_PASSWORD={s}",
        lambda s: f"pull token for {reg} (robot account {u}): {s}",
        lambda s: (
            f"kubectl create secret docker-registry regcred --docker-server={reg} --docker-username={u} --docker-password={s}"
        ),
    ]
    return _t(r, s, T)


@kind("oauth_client_secret")
def k_oauth(r):
    c = r.randrange(4)
    if c == 0:
        s = j("GOC", "SPX-") + rs(r, 28, B64URL)
        cid = f"{r.randint(10**11, 10**12)}-{rs(r, 32, LOWNUM)}.apps.googleusercontent.com"
    elif c == 1:
        s = rs(r, 40, HEX)
        cid = "Ov23li" + rs(r, 14)
    elif c == 2:
        s = rs(r, 3, ALNUM) + rs(r, 1, DIG) + "Q~" + rs(r, 34, ALNUM + "-_.~")
        cid = uuid4(r)
    else:
        s = rs(r, 64, B64URL)
        cid = rs(r, 32, ALNUM)
    T = [
        lambda s: f"OAUTH_CLIENT_ID={cid}\nOAUTH_CLIENT_SECRET={s}",
        lambda s: (
            f'{{"web": {{"client_id": "{cid}", "client_secret": "{s}", "redirect_uris": ["https://{svc(r)}.{dom(r)}/callback"]}}}}'
        ),
        lambda s: f"auth:\n  oidc:\n    client_id: {cid}\n    client_secret: {s}\n    issuer: https://login.{dom(r)}",
        lambda s: (
            f"curl -X POST https://login.{dom(r)}/oauth2/token -d grant_type=client_credentials -d client_id={cid} -d client_secret={s}"
        ),
        lambda s: f"App registration for the {svc(r)} daemon: client id {cid}, secret value {s} (expires in 6 months)",
        lambda s: (
            f'services.AddAuthentication().AddOpenIdConnect(o => {{ o.ClientId = "{cid}"; o.ClientSecret = "{s}"; }});'
        ),
        lambda s: f"GF_AUTH_GENERIC_OAUTH_CLIENT_ID={cid}\nGF_AUTH_GENERIC_OAUTH_CLIENT_SECRET={s}",
    ]
    return _t(r, s, T)


@kind("app_secret_key")
def k_appsecret(r):
    c = r.randrange(6)
    if c == 0:
        s = rs(r, 50, LO + DIG + "!@#$%^*(-_=+)")
        T = [lambda s: f"SECRET_KEY = '{s}'", lambda s: f"DJANGO_SECRET_KEY={s}"]
    elif c == 1:
        s = rs(r, 128, HEX)
        T = [lambda s: f"SECRET_KEY_BASE={s}", lambda s: f"production:\n  secret_key_base: {s}"]
    elif c == 2:
        s = j("wh", "sec_") + rs(r, 32)
        T = [
            lambda s: f"STRIPE_WEBHOOK_SECRET={s}",
            lambda s: f'event = stripe.Webhook.construct_event(payload, sig_header, "{s}")',
        ]
    elif c == 3:
        s = r.choice([rs(r, 32, ALNUM), human_pw(r).replace("'", "").replace('"', "")])
        T = [
            lambda s: f"JWT_SECRET={s}",
            lambda s: f"jwt.sign(payload, '{s}', {{ expiresIn: '1h' }})",
            lambda s: f'token = jwt.encode(claims, "{s}", algorithm="HS256")',
            lambda s: f"app.config['SECRET_KEY'] = '{s}'",
            lambda s: f'session:\n  cookie_name: sid\n  secret: "{s}"',
            lambda s: f"github webhook secret for the deploy hook: {s}",
        ]
    elif c == 4:
        s = base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode()
        T = [
            lambda s: f"ENCRYPTION_KEY={s}",
            lambda s: f'encryption_key: "{s}"  # AES-256, base64',
            lambda s: f"WireGuard [Interface]\nAddress = 10.8.0.2/24\nPrivateKey = {s}\nDNS = 1.1.1.1",
            lambda s: f"NEXTAUTH_SECRET={s}",
            lambda s: f"- secret: {s}\n  provider: aescbc\n  name: key1",
        ]
    else:
        s = rs(r, 64, HEX)
        T = [
            lambda s: f"APP_KEY=base64:{s}" if False else f"SIGNING_SECRET={s}",
            lambda s: f'hmac.new(bytes.fromhex("{s}"), body, hashlib.sha256)',
            lambda s: f"the HMAC key shared with the partner for callback signing is {s}",
            lambda s: f'cookie_secret = "{s}"',
        ]
    return _t(r, s, T)


# ================================================================ LOOKALIKES


def _sha256(r):
    return rs(r, 64, HEX)


def _fname(r):
    return r.choice(
        [
            f"{svc(r)}-{r.randint(1, 4)}.{r.randint(0, 20)}.{r.randint(0, 9)}-linux-amd64.tar.gz",
            f"{svc(r)}_{r.randint(1, 3)}.{r.randint(0, 9)}.{r.randint(0, 9)}_arm64.deb",
            "node-v20.11.1-linux-x64.tar.xz",
            f"backup-{date(r)}.sql.gz",
            f"{svc(r)}-installer-{r.randint(1, 9)}.{r.randint(0, 9)}.msi",
            "ubuntu-24.04-live-server-amd64.iso",
        ]
    )


@look
def l_checksums(r):
    h = _sha256(r)
    f = _fname(r)
    T = [
        lambda: f"{h}  {f}",
        lambda: f"SHA256 ({f}) = {h}",
        lambda: f"Verified the download: sha256sum matches the published value {h}.",
        lambda: f"checksums:\n  {f}: sha256:{h}",
        lambda: f'curl -LO https://releases.{dom(r)}/{f} && echo "{h}  {f}" | sha256sum -c -',
        lambda: f"md5: {rs(r, 32, HEX)}\nsha1: {rs(r, 40, HEX)}\nsha256: {h}\nsize: {r.randint(10**5, 10**9)}",
        lambda: (
            f"Get-FileHash .\\{f} -Algorithm SHA256\n\nAlgorithm       Hash\n---------       ----\nSHA256          {h.upper()}"
        ),
        lambda: f"sha512sum: {rs(r, 128, HEX)}  {f}",
        lambda: (
            f'ETag: "{rs(r, 32, HEX)}-{r.randint(2, 40)}"  (multipart upload, so it\'s not the md5 of the whole file)'
        ),
        lambda: f"Content-MD5: {base64.b64encode(bytes(r.getrandbits(8) for _ in range(16))).decode()}",
        lambda: (
            f"crc32c={base64.b64encode(bytes(r.getrandbits(8) for _ in range(4))).decode()} md5={base64.b64encode(bytes(r.getrandbits(8) for _ in range(16))).decode()}"
        ),
        lambda: f"BLAKE2b-256: {rs(r, 64, HEX)}",
    ]
    return r.choice(T)()


@look
def l_git(r):
    full = rs(r, 40, HEX)
    short = full[: r.choice([7, 8, 10, 12])]
    T = [
        lambda: f"Reverted {short} -- it broke the {svc(r)} migration. Fix is in {rs(r, 7, HEX)}.",
        lambda: (
            f"commit {full}\nAuthor: {who(r).capitalize()} <{who(r)}@{dom(r)}>\nDate:   Tue {MONTHS[r.randrange(12)]} {r.randint(1, 28)} 10:{r.randint(10, 59)}:02 2024 +0200\n\n    {svc(r)}: retry on 503"
        ),
        lambda: f"git cherry-pick {short} && git push origin release/{r.randint(1, 9)}.{r.randint(0, 20)}",
        lambda: f"Bisect says first bad commit is {full}.",
        lambda: f"uses: actions/checkout@{full} # v4.1.1",
        lambda: (
            f"{short} (HEAD -> main, origin/main) bump deps\n{rs(r, 7, HEX)} fix flaky test\n{rs(r, 7, HEX)} add {svc(r)} metrics"
        ),
        lambda: (
            f"go get github.com/{who(r)}/{svc(r)}@v0.0.0-2024{r.randint(1, 12):02d}{r.randint(10, 28)}{r.randint(100000, 235959)}-{full[:12]}"
        ),
        lambda: f"Submodule path 'vendor/{svc(r)}': checked out '{full}'",
        lambda: f"index {rs(r, 7, HEX)}..{rs(r, 7, HEX)} 100644\n--- a/{svc(r)}/config.py\n+++ b/{svc(r)}/config.py",
    ]
    return r.choice(T)()


@look
def l_digests(r):
    h = _sha256(r)
    img = r.choice(
        [
            "nginx",
            "postgres",
            "redis",
            f"ghcr.io/{dom(r).split('.')[0]}/{svc(r)}",
            f"{r.randint(10**11, 10**12 - 1)}.dkr.ecr.{r.choice(REGIONS)}.amazonaws.com/{svc(r)}",
        ]
    )
    T = [
        lambda: f"image: {img}@sha256:{h}",
        lambda: f"Digest: sha256:{h}\nStatus: Downloaded newer image for {img}:latest",
        lambda: f"FROM {img}@sha256:{h} AS build",
        lambda: f'"integrity": "sha512-{base64.b64encode(bytes(r.getrandbits(8) for _ in range(64))).decode()}"',
        lambda: (
            f"github.com/{who(r)}/{svc(r)} v1.{r.randint(0, 20)}.{r.randint(0, 9)} h1:{base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode()}"
        ),
        lambda: f"{svc(r)}-client=={r.randint(1, 5)}.{r.randint(0, 20)}.{r.randint(0, 9)} \\\n    --hash=sha256:{h}",
        lambda: f"version https://git-lfs.github.com/spec/v1\noid sha256:{h}\nsize {r.randint(10**4, 10**9)}",
        lambda: (
            f'<script src="https://cdn.{dom(r)}/lib.min.js" integrity="sha384-{base64.b64encode(bytes(r.getrandbits(8) for _ in range(48))).decode()}" crossorigin="anonymous"></script>'
        ),
        lambda: (
            f'[[package]]\nname = "{svc(r)}-core"\nversion = "0.{r.randint(1, 30)}.{r.randint(0, 9)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{h}"'
        ),
        lambda: (
            f"cosign verify {img}@sha256:{h} --certificate-identity-regexp '.*' --certificate-oidc-issuer https://token.actions.githubusercontent.com"
        ),
    ]
    return r.choice(T)()


@look
def l_uuids(r):
    u = uuid4(r)
    T = [
        lambda: f"{ts(r)} ERROR [{svc(r)}] request_id={u} upstream timed out after 30000ms",
        lambda: f"Customer reports failed export; correlation id {u}. Looks like the same 502 as {ticket(r)}.",
        lambda: f"traceparent: 00-{rs(r, 32, HEX)}-{rs(r, 16, HEX)}-01",
        lambda: f'{{"id": "{u}", "status": "queued", "created_at": "{ts(r)}"}}',
        lambda: f"X-Request-Id: {u}\nX-Amzn-Trace-Id: Root=1-{rs(r, 8, HEX)}-{rs(r, 24, HEX)}",
        lambda: f'terraform state: lineage = "{u}", serial = {r.randint(1, 900)}',
        lambda: f"DELETE FROM sessions_archive WHERE tenant_id = '{u}';",
        lambda: f"Workspace ID {u} is the one billing is attached to.",
        lambda: f'ProjectGuid="{{{u.upper()}}}"',
        lambda: (
            f'dd.trace_id={r.randint(10**18, 9 * 10**18)} dd.span_id={r.randint(10**18, 9 * 10**18)} msg="cache miss"'
        ),
        lambda: f"Job {u} finished in {r.randint(2, 500)}s (exit 0)",
    ]
    return r.choice(T)()


@look
def l_cloud_ids(r):
    acct = str(r.randint(10**11, 10**12 - 1))
    reg = r.choice(REGIONS)
    T = [
        lambda: f"arn:aws:iam::{acct}:role/{svc(r)}-{env(r)}-task-role",
        lambda: f"arn:aws:lambda:{reg}:{acct}:function:{svc(r)}-{r.choice(['handler', 'worker', 'cron'])}",
        lambda: (
            f"Attach policy to arn:aws:s3:::{svc(r)}-{env(r)}-logs/* and the role arn:aws:iam::{acct}:role/ci-deployer."
        ),
        lambda: (
            f"instance i-0{rs(r, 16, HEX)} in subnet-0{rs(r, 16, HEX)} (vpc-0{rs(r, 16, HEX)}) failed health checks"
        ),
        lambda: f"aws ec2 describe-images --image-ids ami-0{rs(r, 16, HEX)} --region {reg}",
        lambda: f"security group sg-0{rs(r, 16, HEX)} allows 443 from 0.0.0.0/0 -- intended for the ALB only",
        lambda: (
            f"/subscriptions/{uuid4(r)}/resourceGroups/rg-{svc(r)}-{env(r)}/providers/Microsoft.Web/sites/{svc(r)}-app"
        ),
        lambda: f"Tenant ID: {uuid4(r)}\nSubscription: {uuid4(r)}\nResource group: rg-{svc(r)}",
        lambda: (
            f"gcloud run deploy {svc(r)} --project {svc(r)}-{env(r)}-{r.randint(100000, 999999)} --region {r.choice(['europe-west1', 'us-central1'])}"
        ),
        lambda: f"arn:aws:kms:{reg}:{acct}:key/{uuid4(r)}",
        lambda: f"CloudFront distribution E{rs(r, 13, UPNUM)} invalidation I{rs(r, 13, UPNUM)} completed",
        lambda: f"eks cluster arn:aws:eks:{reg}:{acct}:cluster/{env(r)}-main, nodegroup ng-{rs(r, 8, HEX)}",
        lambda: f"Route53 hosted zone Z{rs(r, 20, UPNUM)} for {dom(r)}",
        lambda: f"AWS account {acct} ({svc(r)}-{env(r)}), OU ou-{rs(r, 4, LOWNUM)}-{rs(r, 8, LOWNUM)}",
    ]
    return r.choice(T)()


@look
def l_business_ids(r):
    T = [
        lambda: f"Refund issued for {j('p', 'i_')}{rs(r, 24)} (customer {j('cu', 's_')}{rs(r, 14)}).",
        lambda: f"Order #{r.randint(100000, 999999)} / payment ref {rs(r, 17, UPNUM)} stuck in 'pending_capture'",
        lambda: f"Invoice {j('i', 'n_')}{rs(r, 24)} failed: card_declined",
        lambda: f"price_{rs(r, 24)} is the annual plan, prod_{rs(r, 14)} is the product",
        lambda: f"PayPal order {rs(r, 17, UPNUM)} captured, capture id {rs(r, 17, UPNUM)}",
        lambda: f"Shipment tracking 1Z{rs(r, 16, UPNUM)} (UPS) for order {r.randint(10**6, 10**7)}",
        lambda: f"Zendesk ticket #{r.randint(10**5, 10**6)} linked to Jira {ticket(r)}",
        lambda: f"subscription sub_{rs(r, 24)} renews on {date(r)}",
        lambda: f"Booking reference {rs(r, 6, UPNUM)}, confirmation {rs(r, 10, UPNUM)}",
        lambda: (
            f'{{"event": "charge.succeeded", "id": "evt_{rs(r, 24)}", "data": {{"object": {{"id": "ch_{rs(r, 24)}"}}}}}}'
        ),
        lambda: "Use test card 4242 4242 4242 4242 with any future expiry and any CVC in sandbox.",
        lambda: f"Apple transaction id {r.randint(10**14, 10**15)}, original {r.randint(10**14, 10**15)}",
        lambda: (
            f"Play Console order GPA.{r.randint(1000, 9999)}-{r.randint(1000, 9999)}-{r.randint(1000, 9999)}-{r.randint(10000, 99999)}"
        ),
    ]
    return r.choice(T)()


@look
def l_public_keys_meant_public(r):
    c = r.randrange(11)
    if c == 0:
        return r.choice(
            [
                f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={j('pk', '_live_')}{rs(r, 24)}",
                f"const stripe = Stripe('{j('pk', '_live_')}{rs(r, 99)}');  // publishable key, safe in the browser",
            ]
        )
    if c == 1:
        payload = b64u(json.dumps({"u": who(r), "a": rs(r, 25, LOWNUM)}, separators=(",", ":")).encode())
        return f"mapboxgl.accessToken = 'pk.{payload}.{rs(r, 22, B64URL)}';  // public token, URL-restricted"
    if c == 2:
        return f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{rs(r, 32, LOWNUM)}.apps.googleusercontent.com"
    if c == 3:
        return f"LaunchDarkly client-side ID for the web app: {rs(r, 24, HEX)} (this one is public, it ships in the JS bundle)"
    if c == 4:
        return f"posthog.init('{j('ph', 'c_')}{rs(r, 43)}', {{ api_host: 'https://eu.i.posthog.com' }})"
    if c == 5:
        return f'mixpanel.init("{rs(r, 32, HEX)}", {{ track_pageview: true }});  // project token (public)'
    if c == 6:
        return f"GitHub App: app id {r.randint(100000, 999999)}, client id Iv1.{rs(r, 16, HEX)}, installation {r.randint(10**7, 10**8)}"
    if c == 7:
        return f"RAZORPAY_KEY_ID=rzp_live_{rs(r, 14)}   # key id only; the key secret is in the vault"
    if c == 8:
        return f"Discord application id {r.randint(10**17, 13 * 10**17)}, interactions public key {rs(r, 64, HEX)}"
    if c == 9:
        return f'<meta name="google-site-verification" content="{rs(r, 43, B64URL)}" />'
    return f'amplitude.getInstance().init("{rs(r, 32, HEX)}");  // browser API key, not the secret key'


@look
def l_pubkeys(r):
    c = r.randrange(8)
    if c == 0:
        return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(r, 43, B64)} {who(r)}@{r.choice(['laptop', 'mbp', 'workstation'])}"
    if c == 1:
        return f"authorized_keys on {host(r)}:\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{rs(r, 520, B64)}= deploy@ci"
    if c == 2:
        return f"[Peer]\nPublicKey = {base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode()}\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.{dom(r)}:51820"
    if c == 3:
        return json.dumps(
            {
                "keys": [
                    {
                        "kty": "RSA",
                        "use": "sig",
                        "kid": rs(r, 20, B64URL),
                        "alg": "RS256",
                        "n": rs(r, 342, B64URL),
                        "e": "AQAB",
                    }
                ]
            },
            indent=2,
        )
    if c == 4:
        return f"recipient for sops: age1{rs(r, 58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}"
    if c == 5:
        return pem_block(r, "PUBLIC KEY", 6, b64body="MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA")
    if c == 6:
        return f"Server cert for {svc(r)}.{dom(r)} (public, fine to share):\n" + pem_block(
            r, "CERTIFICATE", 14, b64body="MIID"
        )
    return pem_block(r, "PGP PUBLIC KEY BLOCK", 8).replace("-----\n", "-----\n\n", 1)


@look
def l_encrypted(r):
    c = r.randrange(6)
    if c == 0:
        lines = "\n".join(rs(r, 80, HEX) for _ in range(r.randint(3, 6)))
        return f"$ANSIBLE_VAULT;1.1;AES256\n{lines}"
    if c == 1:
        return (
            f"db_password: ENC[AES256_GCM,data:{rs(r, 24, B64)},iv:{rs(r, 43, B64)}=,tag:{rs(r, 22, B64)}==,type:str]\n"
            f"sops:\n    kms:\n        - arn: arn:aws:kms:{r.choice(REGIONS)}:{r.randint(10**11, 10**12 - 1)}:key/{uuid4(r)}"
        )
    if c == 2:
        return (
            f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {svc(r)}-creds\nspec:\n"
            f"  encryptedData:\n    password: AgB{rs(r, 300, B64)}=="
        )
    if c == 3:
        return f"aws kms decrypt --ciphertext-blob fileb://blob.bin ... blob was: AQICAH{rs(r, 160, B64)}=="
    if c == 4:
        return f"api_key: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n          {rs(r, 80, HEX)}\n          {rs(r, 80, HEX)}\n          {rs(r, 40, HEX)}"
    return f"encrypted with gpg --symmetric, ciphertext stored at s3://{svc(r)}-escrow/keys/{date(r)}.gpg (sha256 {_sha256(r)})"


@look
def l_signatures(r):
    c = r.randrange(6)
    if c == 0:
        return pem_block(r, "PGP SIGNATURE", 5).replace("-----\n", "-----\n\n", 1)
    if c == 1:
        return f"untrusted comment: signature from minisign secret key\nRW{rs(r, 98, B64)}==\ntrusted comment: timestamp:{r.randint(1_700_000_000, 1_730_000_000)}\tfile:{_fname(r)}"
    if c == 2:
        return f"POST /webhooks/github HTTP/1.1\nX-GitHub-Event: push\nX-GitHub-Delivery: {uuid4(r)}\nX-Hub-Signature-256: sha256={_sha256(r)}"
    if c == 3:
        return f"Stripe-Signature: t={r.randint(1_700_000_000, 1_730_000_000)},v1={_sha256(r)}"
    if c == 4:
        return f"cosign signature for the release image: MEUCIQ{rs(r, 40, B64)}AiB{rs(r, 40, B64)}="
    return f'{_fname(r)}.sig verified OK: Good signature from "Release Bot <release@{dom(r)}>" key fingerprint {" ".join(rs(r, 4, HEXU) for _ in range(10))}'


@look
def l_placeholders(r):
    T = [
        lambda: "OPENAI_API_KEY=your-api-key-here",
        lambda: f"STRIPE_SECRET_KEY={j('sk', '_live_')}{'x' * 24}",
        lambda: "export GITHUB_TOKEN=<your personal access token>",
        lambda: f"aws_access_key_id = {j('AK', 'IA')}{'X' * 16}\naws_secret_access_key = {'X' * 40}",
        lambda: "password: changeme  # replaced by the entrypoint from /run/secrets",
        lambda: f"DB_PASSWORD=\nDB_USER={user(r)}\n# fill in DB_PASSWORD locally, never commit it",
        lambda: 'api_key: "REPLACE_ME"',
        lambda: f'curl -H "Authorization: Bearer $TOKEN" https://api.{dom(r)}/v1/me',
        lambda: f'token = "{j("gh", "p_")}{"0" * 36}"  # dummy for unit tests, the mock server accepts anything',
        lambda: "SLACK_WEBHOOK_URL=" + j("https://hooks.", "slack.com/services/") + "TXXXXXXXX/BXXXXXXXX/" + "X" * 24,
        lambda: f"mysql -u root -p<password> {svc(r)}",
        lambda: "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
        lambda: "client_secret: '<CLIENT_SECRET>'",
        lambda: '"apiKey": "{{API_KEY}}"',
        lambda: "SENDGRID_API_KEY=SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        lambda: 'password = ""  # empty on purpose: local dev uses trust auth',
        lambda: (
            j("-----BEGIN ", "RSA PRIVATE KEY-----")
            + "\n...snip...\n"
            + j("-----END ", "RSA PRIVATE KEY-----")
            + "  (paste yours here)"
        ),
        lambda: "TELEGRAM_BOT_TOKEN=123456789:ABCdefGhIJKlmNoPQRstuVWXyz",
        lambda: "secret_key: example-secret-do-not-use",
    ]
    return r.choice(T)()


@look
def l_masked(r):
    T = [
        lambda: f"Key {j('sk', '-proj-')}...{rs(r, 4)} was revoked on {date(r)}.",
        lambda: f"Token: {j('gh', 'p_')}{'*' * 32}{rs(r, 4)}",
        lambda: "password: ********",
        lambda: f"DATABASE_URL=postgres://{user(r)}:****@{host(r)}:5432/{svc(r)}",
        lambda: f"{ts(r)} INFO auth ok user={user(r)} api_key=[REDACTED]",
        lambda: "Authorization: Bearer <redacted>",
        lambda: f"AWS key ending in ...{rs(r, 4, UPNUM)} belongs to the {svc(r)} user, rotate it",
        lambda: (
            f"Stripe dashboard shows the secret key as {j('sk', '_live_')}...{rs(r, 4)} -- the full value is only shown once at creation."
        ),
        lambda: f'"client_secret": "{"•" * 12}"',
        lambda: "card ending 4821, exp 09/27",
        lambda: f"env dump (sanitized):\nPGPASSWORD=***\nREDIS_URL=redis://:***@{host(r)}:6379\nNODE_ENV=production",
        lambda: "export VAULT_TOKEN=$(cat ~/.vault-token)   # value not shown",
        lambda: "masked in CI logs as *** -- github hides secrets.NPM_TOKEN automatically",
    ]
    return r.choice(T)()


@look
def l_references(r):
    n = svc(r).upper()
    T = [
        lambda: (
            f"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {svc(r)}-db\n        key: password"
        ),
        lambda: f"password: ${{{{ secrets.{n}_DB_PASSWORD }}}}",
        lambda: (
            f"aws secretsmanager get-secret-value --secret-id {env(r)}/{svc(r)}/db --query SecretString --output text"
        ),
        lambda: f"aws ssm get-parameter --name /{env(r)}/{svc(r)}/api_key --with-decryption",
        lambda: f'api_key = os.environ["{n}_API_KEY"]',
        lambda: f"const token = process.env.{n}_TOKEN ?? '';",
        lambda: f"password: \"{{{{ lookup('hashi_vault', 'secret=secret/data/{svc(r)}:password') }}}}\"",
        lambda: f"DB_PASSWORD=op://Engineering/{svc(r)}-db/password",
        lambda: f"password_file: /run/secrets/{svc(r)}_db_password",
        lambda: (
            f'data "aws_secretsmanager_secret_version" "db" {{\n  secret_id = "{env(r)}/{svc(r)}/db"\n}}\npassword = jsondecode(data.aws_secretsmanager_secret_version.db.secret_string)["password"]'
        ),
        lambda: "spring.datasource.password=${DB_PASSWORD}",
        lambda: f'token := os.Getenv("{n}_TOKEN")',
        lambda: f'String key = System.getenv("{n}_API_KEY");',
        lambda: "$password = getenv('DB_PASSWORD');",
        lambda: f"password = Rails.application.credentials.dig(:{svc(r)}, :password)",
        lambda: f'var secret = builder.Configuration["{n}:ClientSecret"];',
        lambda: (
            f"arn:aws:secretsmanager:{r.choice(REGIONS)}:{r.randint(10**11, 10**12 - 1)}:secret:{env(r)}/{svc(r)}/api-key-{rs(r, 6)}"
        ),
        lambda: f"vault kv get -field=password secret/{env(r)}/{svc(r)}",
        lambda: f"gcloud secrets versions access latest --secret={svc(r)}-api-key",
        lambda: f"az keyvault secret show --vault-name kv-{svc(r)}-{env(r)} --name DbPassword --query value -o tsv",
        lambda: "export PGPASSFILE=~/.pgpass   # creds live there, chmod 600",
        lambda: f'api_key = keyring.get_password("{svc(r)}", "{user(r)}")',
        lambda: "password: !env_var DB_PASSWORD",
        lambda: "<password>${env.NEXUS_PASSWORD}</password>",
    ]
    return r.choice(T)()


@look
def l_cred_config_no_value(r):
    T = [
        lambda: f"password_policy:\n  min_length: {r.randint(10, 16)}\n  require_symbols: true\n  max_age_days: 90",
        lambda: f"TOKEN_TTL_SECONDS={r.choice([900, 3600, 86400])}\nREFRESH_TOKEN_TTL_DAYS=30",
        lambda: "api_key_header: X-API-Key\napi_key_query_param: false",
        lambda: "PasswordAuthentication no\nPubkeyAuthentication yes\nPermitRootLogin prohibit-password",
        lambda: "auth:\n  type: none  # internal network only",
        lambda: f"secret_name: {svc(r)}-tls\nsecret_namespace: {svc(r)}",
        lambda: "[security]\nadmin_user = admin\ndisable_initial_admin_creation = true\ncookie_secure = true",
        lambda: '"passwordResetTokenExpiry": "2h", "maxLoginAttempts": 5',
        lambda: "session.cookie_httponly = 1\nsession.use_strict_mode = 1\nsession.sid_length = 48",
        lambda: f"jwt:\n  algorithm: RS256\n  public_key_path: /etc/{svc(r)}/jwt.pub\n  audience: {svc(r)}-api",
        lambda: f"KEY_ROTATION_INTERVAL=30d\nKMS_KEY_ALIAS=alias/{svc(r)}-{env(r)}",
        lambda: f"ssl_certificate_key /etc/letsencrypt/live/{svc(r)}.{dom(r)}/privkey.pem;",
        lambda: f"IdentityFile ~/.ssh/id_ed25519_{svc(r)}\nUser {user(r)}\nHostName {host(r)}",
        lambda: f"GOOGLE_APPLICATION_CREDENTIALS=/var/secrets/google/{svc(r)}-sa.json",
        lambda: (
            f"token_endpoint: https://login.{dom(r)}/oauth2/v2.0/token\nauthorization_endpoint: https://login.{dom(r)}/oauth2/v2.0/authorize"
        ),
        lambda: "require_password_change_on_first_login: true",
    ]
    return r.choice(T)()


@look
def l_prose(r):
    T = [
        lambda: (
            f"Rotated the {r.choice(['Stripe', 'Twilio', 'Datadog', 'SendGrid', 'GitHub'])} key this morning; the new one is in 1Password under '{svc(r)} {env(r)}'. Old key revoked."
        ),
        lambda: (
            f"Reminder: never paste tokens into Slack. If you did, revoke it and ping #{r.choice(['security', 'sec-ops'])}."
        ),
        lambda: (
            "Agent note: the deploy needs a GitHub token with repo scope; I asked the user to set GH_TOKEN in their shell rather than sharing it with me."
        ),
        lambda: (
            f"Incident {ticket(r)}: an API key was committed to a public repo for ~4 minutes. Key revoked, history rewritten, no abuse seen in logs."
        ),
        lambda: f"The password for the staging DB is in the usual vault path; ask {who(r)} if you don't have access.",
        lambda: "We should move the SMTP password out of settings.py and into the secret manager before the audit.",
        lambda: (
            f"TODO: switch {svc(r)} from static AWS keys to IRSA so there are no long-lived credentials on the nodes."
        ),
        lambda: "I didn't print the token in the logs; the script only reports whether authentication succeeded.",
        lambda: f"Login works with SSO now, no more shared admin password for the {svc(r)} dashboard.",
        lambda: (
            "The webhook signing secret must be at least 32 bytes; generate it with `openssl rand -hex 32` and store it in the vault, not in the repo."
        ),
        lambda: (
            f"Heads-up: the {svc(r)} service account key expires on {date(r)}; create a new one and update the CI variable."
        ),
        lambda: (
            "Password reset emails are failing because the SMTP credentials expired, not because of the template change."
        ),
        lambda: f"Q: where does the CLI store its token? A: ~/.config/{svc(r)}/credentials.json, permissions 0600.",
        lambda: (
            "Secret scanning flagged a test fixture last week; it was a fake key from the vendor docs, marked as false positive."
        ),
    ]
    return r.choice(T)()


@look
def l_cachebust(r):
    T = [
        lambda: (
            f'<link rel="stylesheet" href="/static/css/main.{rs(r, 8, HEX)}.css">\n<script src="/static/js/app.{rs(r, 20, HEX)}.js" defer></script>'
        ),
        lambda: f"https://cdn.{dom(r)}/assets/logo.svg?v={r.randint(1_700_000_000, 1_730_000_000)}",
        lambda: f"chunk-{rs(r, 8, LOWNUM)}.js   {r.randint(10, 900)} kB │ gzip: {r.randint(3, 300)} kB",
        lambda: f'<img src="/images/hero.webp?h={rs(r, 10, HEX)}" alt="">',
        lambda: f'className="Button_primary__{rs(r, 5, ALNUM)} Button_root__{rs(r, 5, ALNUM)}"',
        lambda: f'background-image: url("../fonts/inter-var.{rs(r, 16, HEX)}.woff2");',
        lambda: f"_next/static/{rs(r, 21, B64URL)}/_buildManifest.js",
        lambda: (
            f"<script nonce=\"{rs(r, 22, B64)}==\">window.__CONFIG__ = {{ locale: 'en' }}</script>  <!-- example from the CSP docs page -->"
        ),
        lambda: (
            f"Content-Security-Policy: script-src 'self' 'sha256-{base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode()}'"
        ),
        lambda: f"https://www.youtube.com/watch?v={rs(r, 11, B64URL)}&t=42s",
        lambda: f"https://docs.google.com/document/d/{rs(r, 44, B64URL)}/edit",
        lambda: f"short link: https://bit.ly/{rs(r, 7, ALNUM)}",
        lambda: (
            f"https://www.figma.com/file/{rs(r, 22, ALNUM)}/{svc(r).capitalize()}-Redesign?node-id={r.randint(1, 999)}-{r.randint(1, 999)}"
        ),
        lambda: f"https://{svc(r)}.{dom(r)}/download?file={rs(r, 24, LOWNUM)}&_={r.randint(10**12, 2 * 10**12)}",
    ]
    return r.choice(T)()


@look
def l_code_random(r):
    T = [
        lambda: f"random.seed({r.randint(1, 10**9)})\nnp.random.seed({r.randint(1, 10**6)})",
        lambda: f"const ALPHABET = '{ALNUM}';",
        lambda: f'EXPECTED_HASH = "{_sha256(r)}"  # sha256 of fixtures/golden.json',
        lambda: f'"cell_id": "{rs(r, 8, HEX)}", "execution_count": {r.randint(1, 90)}',
        lambda: (
            f"pod/{svc(r)}-{rs(r, 10, HEX[:10] + 'bcdfghjklmnpqrstvwxz')[:10]}-{rs(r, 5, 'bcdfghjklmnpqrstvwxz2456789')} 1/1 Running 0 3d"
        ),
        lambda: (
            f"assert base64.b64decode(\"{base64.b64encode(b'hello world, this is fixture data').decode()}\") == b'hello world, this is fixture data'"
        ),
        lambda: f"MAGIC = 0x{rs(r, 8, HEX)}\nCRC_POLY = 0x82F63B78",
        lambda: f'idempotency_key = f"{{order.id}}-{{attempt}}"  # e.g. {r.randint(10**5, 10**6)}-2',
        lambda: (
            f"test('parses id', () => expect(parse('{rs(r, 26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')}')).toBeTruthy())"
        ),
        lambda: f"BUILD_ID={rs(r, 8, HEX)}-{r.randint(100, 9999)}\nGIT_SHA={rs(r, 40, HEX)}",
        lambda: (
            f"thread 'main' panicked at src/lib.rs:{r.randint(10, 900)}:5\nstack backtrace:\n   0: 0x{rs(r, 12, HEX)} - std::panicking::begin_panic"
        ),
        lambda: f"Segfault at 0x00007f{rs(r, 10, HEX)} ip 0x0000{rs(r, 12, HEX)} sp 0x00007ffd{rs(r, 8, HEX)}",
        lambda: f"ETAG_CACHE = {{'/api/v1/catalog': 'W/\"{rs(r, 16, HEX)}\"'}}",
        lambda: f"ulid: {rs(r, 26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')}  ksuid: {rs(r, 27, ALNUM)}",
        lambda: "salt for the test vectors in RFC 5869: 0x000102030405060708090a0b0c",
    ]
    return r.choice(T)()


@look
def l_base64_data(r):
    cfg = json.dumps(
        {
            "replicas": r.randint(1, 8),
            "image": f"{svc(r)}:{r.randint(1, 9)}.{r.randint(0, 9)}",
            "log_level": r.choice(["info", "debug"]),
        }
    ).encode()
    T = [
        lambda: f"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA{rs(r, 120, B64)}=",
        lambda: f"apiVersion: v1\nkind: ConfigMap\nbinaryData:\n  settings.json: {base64.b64encode(cfg).decode()}",
        lambda: f"echo {base64.b64encode(cfg).decode()} | base64 -d",
        lambda: (
            "userData: "
            + base64.b64encode(
                b"#!/bin/bash\napt-get update && apt-get install -y nginx\nsystemctl enable nginx\n"
            ).decode()
        ),
        lambda: f"kubectl get cm {svc(r)} -o jsonpath='{{.binaryData.logo}}' -> iVBORw0KGgo{rs(r, 60, B64)}",
        lambda: f"font-face src: url(data:font/woff2;base64,d09GMgABAAAAA{rs(r, 100, B64)}) format('woff2');",
        lambda: (
            f"Protobuf payload (base64) from the dead-letter queue: {base64.b64encode(bytes([8, r.randint(1, 120), 18, 6]) + svc(r).encode()[:6].ljust(6, b'x') + bytes([24, r.randint(1, 100)])).decode()}"
        ),
    ]
    return r.choice(T)()


@look
def l_messaging_ids(r):
    T = [
        lambda: f"Post alerts to channel C0{rs(r, 9, UPNUM)} and mention U0{rs(r, 9, UPNUM)} for escalations.",
        lambda: f"TELEGRAM_CHAT_ID=-100{r.randint(10**9, 10**10)}",
        lambda: (
            f"guild {r.randint(10**17, 13 * 10**17)}, channel {r.randint(10**17, 13 * 10**17)}, role {r.randint(10**17, 13 * 10**17)}"
        ),
        lambda: f"Twilio messaging service {j('M', 'G')}{rs(r, 32, HEX)}, phone number sid PN{rs(r, 32, HEX)}",
        lambda: f"TWILIO_ACCOUNT_SID=AC{rs(r, 32, HEX)}\nTWILIO_FROM=+1555{r.randint(1000000, 9999999)}",
        lambda: f"Slack team id T0{rs(r, 8, UPNUM)}, enterprise E0{rs(r, 8, UPNUM)}, app A0{rs(r, 9, UPNUM)}",
        lambda: f"Message-ID: <{rs(r, 20, LOWNUM)}.{r.randint(10**5, 10**6)}@mail.{dom(r)}>",
        lambda: (
            f"SendGrid message id {rs(r, 22, B64URL)}.filter{r.randint(1, 9)}p{r.randint(1, 9)}las1-{r.randint(1000, 99999)}-{rs(r, 8, HEX).upper()}-{r.randint(1, 40)}.0"
        ),
        lambda: f"FCM message id: projects/{svc(r)}-app/messages/0:{r.randint(10**15, 10**16)}%{rs(r, 16, HEX)}",
        lambda: f"Webhook delivery {uuid4(r)} to https://{svc(r)}.{dom(r)}/hooks/incoming returned 200",
    ]
    return r.choice(T)()


@look
def l_mobile_ids(r):
    T = [
        lambda: f"Apple Team ID {rs(r, 10, UPNUM)}, bundle id com.{dom(r).split('.')[0]}.{svc(r)}",
        lambda: f"APNs key id {rs(r, 10, UPNUM)} (the .p8 itself is in the vault)",
        lambda: f"GoogleService-Info.plist: GCM_SENDER_ID = {r.randint(10**11, 10**12)}, PROJECT_ID = {svc(r)}-app",
        lambda: (
            f'versionCode {r.randint(100, 99999)}\nversionName "{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}"\napplicationId "com.{dom(r).split(".")[0]}.{svc(r)}"'
        ),
        lambda: f"SHA-1 certificate fingerprint: {':'.join(rs(r, 2, HEXU) for _ in range(20))}",
        lambda: f"Push device token from the test iPhone: {rs(r, 64, HEX)} (sandbox)",
        lambda: f"Expo project id {uuid4(r)}, slug {svc(r)}-mobile",
        lambda: f"provisioning profile UUID {uuid4(r).upper()} expires {date(r)}",
        lambda: f"Firebase app id 1:{r.randint(10**11, 10**12)}:android:{rs(r, 16, HEX)}",
    ]
    return r.choice(T)()


@look
def l_network(r):
    T = [
        lambda: f"MAC {':'.join(rs(r, 2, HEX) for _ in range(6))} got lease {ip(r)} from dhcp",
        lambda: f"inet6 fd{rs(r, 2, HEX)}:{rs(r, 4, HEX)}:{rs(r, 4, HEX)}::{rs(r, 4, HEX)}/64 scope global",
        lambda: f"Tailscale node key nodekey:{rs(r, 64, HEX)} (machine {svc(r)}-{r.randint(1, 9)})",
        lambda: f"palette: #{rs(r, 6, HEX)} #{rs(r, 6, HEX)} #{rs(r, 6, HEX)} #{rs(r, 6, HEX)}",
        lambda: f"serial number: {rs(r, 12, UPNUM)}  asset tag: IT-{r.randint(10000, 99999)}",
        lambda: f"TLS fingerprint (JA3): {rs(r, 32, HEX)}",
        lambda: (
            f"Host key fingerprint is SHA256:{rs(r, 43, B64)}.\nAre you sure you want to continue connecting (yes/no)?"
        ),
        lambda: (
            f"wlan0: WPA: Key negotiation completed with {':'.join(rs(r, 2, HEX) for _ in range(6))} [PTK=CCMP GTK=CCMP]"
        ),
        lambda: f"BGP neighbor {ip(r)} remote-as {r.randint(64512, 65534)}, router-id {ip(r)}",
    ]
    return r.choice(T)()


@look
def l_cli_no_secret(r):
    u = user(r)
    h = host(r)
    T = [
        lambda: f"mysql -h {h} -u {u} -p {svc(r)}   # prompts for the password",
        lambda: f"psql -h {h} -U {u} -W -d {svc(r)}",
        lambda: f"docker login ghcr.io -u {u} --password-stdin < ~/.config/ghcr-token",
        lambda: f"sshpass -f ~/.secrets/{svc(r)}.pw ssh {u}@{ip(r)}",
        lambda: f"curl -u {u} https://nexus.{dom(r)}/service/rest/v1/status   # curl asks for the password",
        lambda: "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout file:/run/secrets/p12pass",
        lambda: f"vault login -method=oidc role={svc(r)}-dev",
        lambda: "gh auth login --hostname github.com --git-protocol https --web",
        lambda: f"aws sso login --profile {env(r)}",
        lambda: (
            f"kubectl create secret generic {svc(r)}-db --from-env-file=./db.env --dry-run=client -o yaml | kubeseal > sealed.yaml"
        ),
        lambda: f"redis-cli -h {h} --askpass",
        lambda: "az login --use-device-code",
        lambda: f"npm login --scope=@{svc(r)} --auth-type=web",
        lambda: "git config --global credential.helper osxkeychain",
        lambda: (
            f"openssl rand -hex 32 > /run/secrets/{svc(r)}_signing_key && chmod 400 /run/secrets/{svc(r)}_signing_key"
        ),
        lambda: f"ssh-keygen -t ed25519 -C \"{who(r)}@{dom(r)}\" -f ~/.ssh/id_{svc(r)} -N ''",
        lambda: f"htpasswd -B -c /etc/nginx/.htpasswd {u}   # interactive",
        lambda: f'mongosh "mongodb+srv://cluster0.{rs(r, 5, LOWNUM)}.mongodb.net/" --apiVersion 1 --username {u}',
    ]
    return r.choice(T)()


@look
def l_connstr_no_pw(r):
    u = user(r)
    h = host(r)
    T = [
        lambda: (
            f"DATABASE_URL=postgres://{u}@{h}:5432/{svc(r)}?sslmode=verify-full  (IAM auth, token generated per connection)"
        ),
        lambda: f"REDIS_URL=redis://{h}:6379/0",
        lambda: (
            f"mongodb+srv://cluster0.{rs(r, 5, LOWNUM)}.mongodb.net/?authMechanism=MONGODB-AWS&authSource=%24external"
        ),
        lambda: f"Server={h};Database={svc(r)};Integrated Security=true;TrustServerCertificate=True",
        lambda: f"jdbc:postgresql://{h}:5432/{svc(r)}?user={u}&sslmode=require",
        lambda: f"amqp://{h}:5672/%2F",
        lambda: f"https://{u}@git.{dom(r)}/{svc(r)}/{svc(r)}.git",
        lambda: f"host={h} port=5432 dbname={svc(r)} user={u} sslmode=require",
        lambda: (
            f"DefaultEndpointsProtocol=https;AccountName={svc(r)}{env(r)};EndpointSuffix=core.windows.net  (key comes from managed identity)"
        ),
        lambda: f"sqlite:///var/lib/{svc(r)}/app.db",
        lambda: f"ssh://git@git.{dom(r)}:2222/{svc(r)}/infra.git",
    ]
    return r.choice(T)()


@look
def l_hex_in_context(r):
    T = [
        lambda: f"object {rs(r, 40, HEX)} is a blob, {r.randint(100, 90000)} bytes",
        lambda: f"docker ps\nCONTAINER ID   IMAGE\n{rs(r, 12, HEX)}   {svc(r)}:latest",
        lambda: f"Container {rs(r, 64, HEX)} exited with code 137 (OOMKilled)",
        lambda: f"sha256:{_sha256(r)} is the layer that keeps growing",
        lambda: f"tx hash 0x{rs(r, 64, HEX)} confirmed in block {r.randint(10**7, 2 * 10**7)}",
        lambda: f"Elasticsearch index {svc(r)}-{date(r).replace('-', '.')}, shard uuid {rs(r, 22, B64URL)}",
        lambda: f"kafka consumer group {svc(r)}-consumers, member id consumer-{r.randint(1, 9)}-{uuid4(r)}",
        lambda: f"Pipeline run {r.randint(10**8, 10**9)} (attempt 2) on runner {rs(r, 8, HEX)}",
        lambda: f"cache key: {svc(r)}-node-modules-{_sha256(r)}",
        lambda: f"Unity asset guid: {rs(r, 32, HEX)}",
        lambda: f"ext4 UUID={uuid4(r)} /data ext4 defaults,noatime 0 2",
        lambda: f"machine-id: {rs(r, 32, HEX)}",
    ]
    return r.choice(T)()


@look
def l_docs_examples(r):
    T = [
        lambda: (
            "The Authorization header must look like `Authorization: Bearer <access_token>`; tokens are valid for one hour."
        ),
        lambda: (
            "API keys are 32 hex characters and are shown only once when created. Store them in your secret manager."
        ),
        lambda: (
            "GitHub personal access tokens start with a short prefix followed by 36 alphanumeric characters; secret scanning matches on that prefix."
        ),
        lambda: (
            "To authenticate, set the X-API-Key header to the key from Settings → API. Requests without it return 401."
        ),
        lambda: "Connection string format: postgresql://[user[:password]@][host][:port][/dbname][?param=value]",
        lambda: "Use `--password-stdin` instead of `-p` so the password doesn't end up in your shell history.",
        lambda: 'Example: curl -H "X-Vault-Token: $VAULT_TOKEN" $VAULT_ADDR/v1/sys/health',
        lambda: (
            "The webhook includes an HMAC-SHA256 of the body in the signature header; compare it with hmac.compare_digest."
        ),
        lambda: "Passwords must be 12+ characters. Passphrases like four random words work well.",
        lambda: "# .env.example\nDATABASE_URL=\nREDIS_URL=\nSTRIPE_SECRET_KEY=\nSENTRY_DSN=",
    ]
    return r.choice(T)()


@look
def l_tool_outputs(r):
    acct = str(r.randint(10**11, 10**12 - 1))
    T = [
        lambda: json.dumps(
            {"UserId": "AIDA" + rs(r, 17, B32), "Account": acct, "Arn": f"arn:aws:iam::{acct}:user/{who(r)}"}, indent=4
        ),
        lambda: json.dumps(
            {
                "UserId": "AROA" + rs(r, 17, B32) + ":" + who(r),
                "Account": acct,
                "Arn": f"arn:aws:sts::{acct}:assumed-role/{svc(r)}-admin/{who(r)}",
            },
            indent=4,
        ),
        lambda: (
            f"Name:         {svc(r)}-db\nNamespace:    {svc(r)}\nType:  Opaque\n\nData\n====\npassword:  {r.randint(12, 32)} bytes\nusername:  {r.randint(3, 12)} bytes"
        ),
        lambda: (
            f'  # aws_db_instance.main will be updated in-place\n  ~ resource "aws_db_instance" "main" {{\n      ~ password = (sensitive value)\n        id       = "{svc(r)}-{env(r)}"\n    }}'
        ),
        lambda: f'Outputs:\n\ndb_endpoint = "{host(r)}:5432"\ndb_password = <sensitive>',
        lambda: (
            f"$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account {who(r)} (keyring)\n  - Token: {j('gh', 'o_')}************************************\n  - Token scopes: 'gist', 'read:org', 'repo'"
        ),
        lambda: (
            f'{{"active": true, "client_id": "{svc(r)}-web", "scope": "openid profile", "exp": {r.randint(1_700_000_000, 1_730_000_000)}, "sub": "{uuid4(r)}"}}'
        ),
        lambda: (
            f'JWT header decoded: {{"alg":"RS256","kid":"{rs(r, 20, B64URL)}","typ":"JWT"}} -- kid matches the JWKS entry, so the signing key rotated fine.'
        ),
        lambda: (
            f"$ aws iam list-access-keys --user-name {svc(r)}-ci\nAccessKeyMetadata: Status=Inactive CreateDate={ts(r)} (key id hidden in this paste)"
        ),
        lambda: (
            f"$ vault token lookup\nKey                 Value\n---                 -----\nentity_id           {uuid4(r)}\ncreation_ttl        768h\ndisplay_name        oidc-{who(r)}\npolicies            [default {svc(r)}-read]"
        ),
        lambda: (
            f"docker secret ls\nID                          NAME               CREATED\n{rs(r, 25, LOWNUM)}   {svc(r)}_db_pass   {r.randint(2, 9)} days ago"
        ),
        lambda: f"kubectl get secret {svc(r)}-tls -o jsonpath='{{.metadata.uid}}'\n{uuid4(r)}",
    ]
    return r.choice(T)()


@look
def l_lockfiles_versions(r):
    T = [
        lambda: (
            f'"node_modules/{svc(r)}-utils": {{\n  "version": "{r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}",\n  "resolved": "https://registry.npmjs.org/{svc(r)}-utils/-/{svc(r)}-utils-1.2.3.tgz",\n  "integrity": "sha512-{base64.b64encode(bytes(r.getrandbits(8) for _ in range(64))).decode()}"\n}}'
        ),
        lambda: f"{svc(r)} @ git+https://github.com/{who(r)}/{svc(r)}@{rs(r, 40, HEX)}",
        lambda: f"version: {r.randint(1, 5)}.{r.randint(0, 30)}.{r.randint(0, 9)}+build.{rs(r, 8, HEX)}",
        lambda: f'poetry.lock content-hash = "{_sha256(r)}"',
        lambda: f"yarn.lock: checksum: {rs(r, 128, HEX)}",
        lambda: f"Pipfile.lock _meta.hash.sha256: {_sha256(r)}",
        lambda: (
            f"helm chart {svc(r)}-{r.randint(0, 5)}.{r.randint(0, 20)}.{r.randint(0, 9)}.tgz digest sha256:{_sha256(r)}"
        ),
    ]
    return r.choice(T)()


# Benign noise lines occasionally added around a positive so the secret sits among ids/hashes.
def _noise(r):
    return r.choice(
        [
            lambda: f"(re: {ticket(r)}, deployed {rs(r, 7, HEX)} to {env(r)})",
            lambda: f"request_id={uuid4(r)}",
            lambda: f"-- {who(r)}, {date(r)}",
            lambda: f"build {rs(r, 8, HEX)} / image sha256:{rs(r, 64, HEX)}",
            lambda: f"context: {ticket(r)}",
            lambda: f"(account {r.randint(10**11, 10**12 - 1)}, {r.choice(REGIONS)})",
        ]
    )()


_orig_generate = generate


def generate(seed: int):
    r = random.Random(seed)
    positives = []
    names = list(KINDS)
    per = max(1, round(POSITIVES_TOTAL / max(1, len(names))))
    for name in names:
        fn = KINDS[name]
        for _ in range(per):
            text, secret = fn(r)
            x = r.random()
            if x < 0.08:
                text = _noise(r) + "\n" + text
            elif x < 0.16:
                text = text + "\n" + _noise(r)
            positives.append((text, name, secret))
    lookalikes = []
    seen = set()
    for i in range(LOOKALIKES_TOTAL):
        gen = LOOKS[i % len(LOOKS)]
        for _ in range(12):
            t = gen(r)
            if t not in seen:
                break
        while t in seen:
            t = r.choice([f"{who(r)}: ", "note: ", "> ", f"[{date(r)}] ", f"re {ticket(r)}: "]) + t
        seen.add(t)
        lookalikes.append(t)
    r.shuffle(positives)
    r.shuffle(lookalikes)
    return positives, lookalikes
