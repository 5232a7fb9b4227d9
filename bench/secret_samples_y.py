"""Labelled test set Y for a secret detector (agent "memories").

Theme: memories an AI coding agent keeps for a solo consultant who runs a home lab
(Proxmox, TrueNAS, *arr apps, Tailscale, Cloudflare tunnels, restic/borg, rclone, ...)
and automates the back office of a small logistics company (n8n, Zapier, Make, Airtable,
QuickBooks, Xero, Twilio, WhatsApp, telematics, SFTP/EDI drops, shipping carriers).
Styles: short notes, lessons, runbooks, TODOs, client emails and chat (mostly English,
some Dutch, Danish, Greek, Czech, Vietnamese, Hebrew), config (.env, compose, YAML, INI,
systemd, cron, n8n JSON, PowerShell, bash) and tool output (CLI, logs, HTTP dumps).

Contract:
    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
    positives: list of (text, kind, secret); secret is an exact substring of text,
               exactly one secret per text, 30 texts per kind.
    lookalikes: texts with no credential; len == len(_LOOK) * LOOK_PER_GEN.
    Deterministic per seed (random.Random(seed)); no duplicate texts in the output.

Labelling conventions:
    * webhook URLs -> the final path token; connection strings / basic-auth URLs -> the
      password only; pre-signed URLs -> the signature; PEM / OpenSSH private keys -> the
      whole armoured block (BEGIN line to END line, in JSON with literal \\n escapes).
    * UUID-shaped vendor tokens are secrets only when the text names them as token/key.
    * Public-by-design values (publishable keys, site keys, Sentry DSNs, OAuth client ids,
      Firebase web apiKeys, search-only keys, public keys/certificates), vendor doc
      examples, encrypted blobs (Ansible vault, sops ENC[...]) and password hashes are
      look-alikes. Bare AWS access key ids are left out entirely.
    * No token-shaped literal appears in this source: prefixes are assembled at run time
      and bodies are random from the seed.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string

LOOK_PER_GEN = 12
PER_KIND = 30

AN = string.ascii_letters + string.digits
LO = string.ascii_lowercase + string.digits
UP = string.ascii_uppercase + string.digits
HX = "0123456789abcdef"
URLSAFE = AN + "-_"
B32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def rs(r: random.Random, n: int, alpha: str = AN) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def hx(r: random.Random, n: int) -> str:
    return rs(r, n, HX)


def dg(r: random.Random, n: int) -> str:
    return str(r.randint(1, 9)) + rs(r, n - 1, string.digits)


def uid(r: random.Random) -> str:
    h = hx(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def rbytes(r: random.Random, n: int) -> bytes:
    return bytes(r.randrange(256) for _ in range(n))


def jwt(r: random.Random, payload: dict) -> str:
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{b64u(rbytes(r, 32))}"


WORDS = [
    "tulip",
    "rover",
    "harbor",
    "falcon",
    "maple",
    "copper",
    "lantern",
    "pallet",
    "diesel",
    "forklift",
    "ocean",
    "cactus",
    "willow",
    "biscuit",
    "meadow",
    "thunder",
    "pepper",
    "velvet",
    "granite",
    "orbit",
    "cobalt",
    "juniper",
    "mango",
    "pixel",
    "nomad",
    "saffron",
    "tundra",
    "walnut",
    "zephyr",
    "anchor",
    "ember",
    "fjord",
    "gecko",
    "kestrel",
    "lotus",
]
SEASONS = [
    "Summer",
    "Winter",
    "Autumn",
    "Spring",
    "Zomer",
    "Vinter",
    "Kalimera",
    "Praha",
]


def password(r: random.Random, urlsafe: bool = False) -> str:
    k = r.randrange(5)
    if k == 0:
        p = f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice('!#*.')}"
    elif k == 1:
        p = f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    elif k == 2:
        p = "-".join(r.choice(WORDS) for _ in range(r.randint(4, 5)))
    elif k == 3:
        p = rs(r, r.randint(16, 24), AN + ("-_." if urlsafe else "!#%^*-_+=.,"))
    else:
        p = f"{r.choice(WORDS).capitalize()}{r.choice(WORDS).capitalize()}{r.randint(1, 999)}!"
    if urlsafe:
        p = p.replace("!", "_").replace("#", "-").replace("*", "~")
    return p


def pem_block(r: random.Random, label: str, nbytes: int, lead: bytes = b"") -> list[str]:
    body = b64(lead + rbytes(r, nbytes))
    width = 70 if "OPENSSH" in label else 64
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return ["-----BEGIN " + label + "-----", *lines, "-----END " + label + "-----"]


# ---------------------------------------------------------------- fillers
HOSTS = [
    "pve01.lab.home.arpa",
    "truenas.lan",
    "unraid.local",
    "opnsense.lab",
    "pihole.lan",
    "ha.lab.home.arpa",
    "npm.lab",
    "portainer.lab.home.arpa",
    "nas.dekker-logistics.nl",
    "n8n.dekker-logistics.nl",
    "sftp.partner-edi.eu",
    "vault.lab.home.arpa",
    "10.0.20.5",
    "192.168.1.10",
    "jellyfin.lan",
    "sonarr.lab",
    "cloud.kovac-transport.cz",
    "ops.fjordfreight.dk",
]
SVCS = [
    "n8n",
    "restic",
    "sonarr",
    "radarr",
    "prowlarr",
    "ha",
    "traefik",
    "edi-drop",
    "fleet-sync",
    "invoices",
    "labels",
    "backup",
    "jellyfin",
    "nextcloud",
    "ddns",
]
WHO = [
    "Marieke",
    "Jens",
    "Nikos",
    "Petra",
    "Linh",
    "Yael",
    "Dave",
    "Sanne",
    "Mads",
    "Eleni",
]
TZ = [
    "Europe/Amsterdam",
    "Europe/Copenhagen",
    "Europe/Athens",
    "Europe/Prague",
    "Asia/Ho_Chi_Minh",
]


def _date(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _time(r):
    return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}"


def _ts(r):
    return f"{_date(r)}T{_time(r)}:{r.randint(0, 59):02d}Z"


def _ip(r):
    return f"192.168.{r.randint(1, 50)}.{r.randint(2, 250)}"


BASE_FILL = {
    "host": lambda r: r.choice(HOSTS),
    "svc2": lambda r: r.choice(SVCS),
    "who": lambda r: r.choice(WHO),
    "date": _date,
    "time": _time,
    "ts": _ts,
    "ip": _ip,
    "tz": lambda r: r.choice(TZ),
    "n": lambda r: str(r.randint(2, 480)),
    "port": lambda r: str(r.choice([22, 2222, 8080, 8443, 9000, 5678, 8989, 7878, 8096])),
}

_PH = re.compile(r"«(\w+)»")


def render(r: random.Random, tmpl: str, fill: dict) -> str:
    cache: dict[str, str] = {}

    def sub(m: re.Match) -> str:
        k = m.group(1)
        if k not in cache:
            v = fill[k]
            cache[k] = v(r) if callable(v) else v
        return cache[k]

    return _PH.sub(sub, tmpl)


# ---------------------------------------------------------------- positive templates
# styles: t = bare token, p = password, u = value that embeds the secret (URL, conn string)
GENERIC = [
    ("tpu", "Note «date»: «name» for «host» is «v» (rotate after the migration)."),
    ("tpu", "# «host»\nTZ=«tz»\nPUID=1000\nPGID=1000\n«env»=«v»\n"),
    (
        "tpu",
        (
            "services:\n  «svc»:\n    image: lscr.io/linuxserver/«svc»:latest\n    environment:\n"
            "      - TZ=«tz»\n      - «env»=«v»\n    restart: unless-stopped\n"
        ),
    ),
    ("tpu", '«svc»:\n  url: https://«host»\n  «key»: "«v»"\n  verify_ssl: true\n'),
    ("tpu", "[«svc»]\nhost = «host»\n«key» = «v»\ntimeout = 30\n"),
    (
        "tpu",
        (
            "Lesson learned: the «name» («v») silently stopped working after the «svc» upgrade; "
            "regenerate it in the UI, the API call does not do it."
        ),
    ),
    (
        "tpu",
        "TODO: move the «name» out of the cron script (currently `«v»`) into Vaultwarden.",
    ),
    (
        "tpu",
        (
            "Runbook - «svc» restore\n1. ssh admin@«host»\n2. export «env»='«v»'\n"
            "3. run the restore job\n4. unset «env» when done"
        ),
    ),
    (
        "tpu",
        (
            "Hi «who»,\n\nas discussed, here is the «name» for the integration:\n«v»\n\n"
            "Please don't forward this mail.\n\nBest regards,\nSam"
        ),
    ),
    (
        "tpu",
        "[«time»] «who»: can you paste the «name» again? lost it\n[«time»] sam: «v»\n[«time»] «who»: thx",
    ),
    ("tpu", "Notitie: «name» voor «host» is «v». Niet delen met de planning."),
    ("tpu", "Husk: «name» til «host» er «v» - skal roteres i næste måned."),
    ("tpu", "Σημείωση: το «name» για το «host» είναι «v» (μην το στείλεις με email)."),
    ("tpu", "Poznámka: «name» pro «host» je «v», platí do konce roku."),
    ("tpu", "Ghi chú: «name» cho «host» là «v» - nhớ đổi sau khi bàn giao."),
    ("tpu", "תזכורת: ה-«name» של «host» הוא «v»"),
    (
        "tpu",
        (
            '#!/usr/bin/env bash\nset -euo pipefail\nexport «env»="«v»"\n'
            "curl -fsS https://«host»/api/health >/dev/null && echo ok"
        ),
    ),
    (
        "tpu",
        "$env:«env» = '«v»'\nInvoke-RestMethod -Uri https://«host»/api/status -Method Get",
    ),
    (
        "tpu",
        (
            "[Unit]\nDescription=«svc» sync\n\n[Service]\nType=oneshot\n"
            'Environment="«env»=«v»"\nExecStart=/usr/local/bin/«svc»-sync\n'
        ),
    ),
    (
        "tpu",
        "# m h dom mon dow command\n15 2 * * * «env»='«v»' /opt/scripts/«svc»-job.sh >> /var/log/«svc».log 2>&1",
    ),
    (
        "tpu",
        (
            '{"name": "«svc» sync", "nodes": [{"parameters": {"«key»": "«v»", '
            '"url": "https://«host»/api"}, "type": "n8n-nodes-base.httpRequest", '
            '"typeVersion": 4}]}'
        ),
    ),
    ("tpu", "$ docker exec -it «svc» env | grep «env»\n«env»=«v»\n$ "),
    (
        "tpu",
        "«ts» «svc»  | DEBUG loaded settings: «key»=«v» (source: env)\n«ts» «svc»  | INFO listening on :«port»",
    ),
    (
        "t",
        (
            "> GET /api/v1/system/status HTTP/1.1\n> Host: «host»\n> X-Api-Key: «v»\n"
            "> Accept: */*\n>\n< HTTP/1.1 200 OK\n< Content-Type: application/json"
        ),
    ),
    ("t", "curl -s -H 'Authorization: Bearer «v»' https://«host»/api/v1/items | jq ."),
    (
        "tpu",
        "Decision («date»): keep the existing «name» `«v»` until «who» signs off on the new setup.",
    ),
    ("tpu", "| service | «key» |\n|---|---|\n| «svc» | «v» |"),
    ("p", "«svc» login on «host»: user admin / «v»"),
    ("p", "Changed the «name» on «host» today («date»), new one: «v»"),
    ("u", "«svc» endpoint: «v»\n(used by the nightly job, owner «who»)"),
]

PEM_T = [
    "Saved the «name» for «host» here so I don't lose it again:\n«v»\n",
    "$ cat ~/.ssh/id_«svc»\n«v»\n$ chmod 600 ~/.ssh/id_«svc»",
    "```\n«v»\n```\n^ «name» (EDI partner drop, added «date»)",
    "Sleutel voor de SFTP-drop van «who»:\n«v»",
    "Runbook: paste this into /etc/«svc»/key.pem on «host»\n«v»\nthen restart «svc».",
    "«name»:\n«v»\nfingerprint checked with «who» on the phone",
]
JSON_PEM_T = [
    (
        '{\n  "type": "service_account",\n  "project_id": "dekker-ops-«n»",\n  "private_key": "«v»",\n'
        '  "client_email": "sheets-bot@dekker-ops-«n».iam.gserviceaccount.com"\n}'
    ),
    'Google Sheets service account for n8n (from «who»):\n"private_key": "«v»",',
    (
        '$ cat /opt/n8n/creds/sheets-sa.json | jq .\n{\n  "type": "service_account",\n'
        '  "private_key": "«v»",\n  "token_uri": "https://oauth2.googleapis.com/token"\n}'
    ),
    'GOOGLE_SA_PRIVATE_KEY="«v»"',
]

# ---------------------------------------------------------------- kinds


def _pw(r):
    s = password(r)
    return s, s


def _pwu(r):
    s = password(r, urlsafe=True)
    return s, s


def _same(f):
    def g(r):
        s = f(r)
        return s, s

    return g


def _ghfg(r):
    return "github" + "_pat_" + rs(r, 22) + "_" + rs(r, 59)


def _slack_hook(r):
    tok = rs(r, 24)
    return tok, "https://hooks." + "slack.com/services/T" + rs(r, 10, UP) + "/B" + rs(r, 10, UP) + "/" + tok


def _discord_hook(r):
    tok = rs(r, 68, URLSAFE)
    return tok, "https://discord.com/api/" + "webhooks/" + dg(r, 19) + "/" + tok


def _zapier_hook(r):
    tok = rs(r, 7, LO)
    return tok, "https://hooks.zapier.com/hooks/" + "catch/" + dg(r, 8) + "/" + tok + "/"


def _make_hook(r):
    tok = rs(r, 32, LO)
    return tok, "https://hook." + r.choice(["eu1", "eu2", "us1"]) + ".make.com/" + tok


def _cf_tunnel(r):
    d = {"a": hx(r, 32), "t": uid(r), "s": b64(rbytes(r, 32))}
    return b64(json.dumps(d, separators=(",", ":")).encode())


def _proxmox(r):
    s = uid(r)
    return s, "PVEAPIToken=" + r.choice(["root@pam", "automation@pve", "backup@pbs"]) + "!" + r.choice(
        ["n8n", "terraform", "ansible", "homepage"]
    ) + "=" + s


def _ha_token(r):
    t = r.randint(1_700_000_000, 1_790_000_000)
    return jwt(r, {"iss": hx(r, 32), "iat": t, "exp": t + 315360000})


def _n8n_key(r):
    return jwt(
        r,
        {
            "sub": uid(r),
            "iss": "n8n",
            "aud": "public-api",
            "iat": r.randint(1_700_000_000, 1_790_000_000),
        },
    )


def _gsa_pem(r):
    lines = pem_block(r, "PRIVATE" + " KEY", 1190, b"\x30\x82\x04\xa4\x02\x01\x00")
    s = "\\n".join(lines)
    return s, s + "\\n"


def _ossh(r):
    s = "\n".join(
        pem_block(
            r,
            "OPENSSH PRIVATE" + " KEY",
            r.choice([300, 380, 1700]),
            b"openssh-key-v1\x00",
        )
    )
    return s, s


def _conn(scheme_users_hosts):
    def g(r):
        s = password(r, urlsafe=True)
        scheme, user, rest = r.choice(scheme_users_hosts)
        return s, f"{scheme}://{user}:{s}@{rest}"

    return g


def _azure(r):
    s = b64(rbytes(r, 64))
    return s, (
        "DefaultEndpointsProtocol=https;AccountName=dekker"
        + rs(r, 6, LO)
        + ";AccountKey="
        + s
        + ";EndpointSuffix=core.windows.net"
    )


def _mapbox(r):
    mid = b64u(
        json.dumps(
            {"u": r.choice(["dekkerlog", "fjordfreight"]), "a": rs(r, 25, LO)},
            separators=(",", ":"),
        ).encode()
    )
    return "sk." + mid + "." + rs(r, 22, URLSAFE)


def _presigned(r):
    sig = hx(r, 64)
    kid = "005" + hx(r, 22)
    url = (
        "https://s3.eu-central-003.backblazeb2.com/dekker-pod/" + dg(r, 6) + "/pod.pdf?X-Amz-Algorithm="
        "AWS4-HMAC-SHA256&X-Amz-Credential=" + kid + "%2F20261205%2Feu-central-003%2Fs3%2Faws4_request"
        "&X-Amz-Date=20261205T"
        + _time(r).replace(":", "")
        + f"{r.randint(0, 59):02d}"
        + "Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host"
        "&X-Amz-Signature=" + sig
    )
    return sig, url


def _rclone_gtoken(r):
    s = "ya" + "29." + rs(r, r.randint(150, 200), URLSAFE)
    return s, s


def _wg(r):
    return b64(rbytes(r, 32))


def _age(r):
    return "AGE-SECRET" + "-KEY-1" + rs(r, 58, B32.upper())


KINDS = []


def K(kind, gen, style, metas, extra=()):
    ms = [tuple(x.strip() for x in m.split("|")) for m in metas.split(";")]
    KINDS.append((kind, gen, style, ms, list(extra)))


K(
    "github_pat",
    _same(lambda r: "gh" + "p_" + rs(r, 36)),
    "t",
    "GitHub token|GITHUB_TOKEN|token|backup; GitHub PAT for the homelab repo|GH_TOKEN|github_token|renovate",
)
K(
    "github_fine_grained_pat",
    _same(_ghfg),
    "t",
    "fine-grained GitHub token|GITHUB_PAT|github_pat|n8n; GitHub PAT (ansible repo)|GH_PAT|pat|ansible",
)
K(
    "gitlab_pat",
    _same(lambda r: "gl" + "pat-" + rs(r, 20, URLSAFE)),
    "t",
    "GitLab access token|GITLAB_TOKEN|private_token|gitlab-runner; GitLab PAT|CI_PAT|token|ci",
)
K(
    "slack_bot_token",
    _same(lambda r: "xo" + "xb-" + dg(r, 11) + "-" + dg(r, 13) + "-" + rs(r, 24)),
    "t",
    "Slack bot token|SLACK_BOT_TOKEN|bot_token|alerts; Slack bot token for #dispatch|SLACK_TOKEN|token|dispatch",
)
K(
    "slack_webhook_url",
    _slack_hook,
    "u",
    "Slack webhook|SLACK_WEBHOOK_URL|webhook_url|uptime-kuma; Slack incoming webhook|ALERT_WEBHOOK|url|alerts",
)
K(
    "discord_webhook_url",
    _discord_hook,
    "u",
    "Discord webhook|DISCORD_WEBHOOK|webhook|sonarr; Discord webhook for #homelab|DISCORD_WEBHOOK_URL|url|watchtower",
)
K(
    "zapier_webhook_url",
    _zapier_hook,
    "u",
    "Zapier catch hook|ZAPIER_HOOK_URL|hook_url|invoices; Zapier webhook|ZAP_WEBHOOK|url|orders",
)
K(
    "make_webhook_url",
    _make_hook,
    "u",
    "Make scenario webhook|MAKE_WEBHOOK_URL|webhook|labels; Make.com webhook|MAKE_HOOK|url|pod-upload",
)
K(
    "telegram_bot_token",
    _same(lambda r: dg(r, 10) + ":AA" + rs(r, 33, URLSAFE)),
    "t",
    "Telegram bot token|TELEGRAM_BOT_TOKEN|bot_token|ha; Telegram bot token (driver alerts)|TG_TOKEN|token|fleet-sync",
)
K(
    "openai_api_key",
    _same(lambda r: "sk-" + "proj-" + rs(r, 64, URLSAFE) + "T3Blbk" + "FJ" + rs(r, 64, URLSAFE)),
    "t",
    "OpenAI API key|OPENAI_API_KEY|api_key|n8n; OpenAI key for the email triage flow|OPENAI_KEY|openai_key|triage",
)
K(
    "anthropic_api_key",
    _same(lambda r: "sk-" + "ant-api03-" + rs(r, 93, URLSAFE) + "AA"),
    "t",
    "Anthropic API key|ANTHROPIC_API_KEY|api_key|n8n; Claude API key|CLAUDE_KEY|anthropic_key|triage",
)
K(
    "stripe_secret_key",
    _same(lambda r: "sk_" + "live_" + "51" + rs(r, 97)),
    "t",
    "Stripe secret key|STRIPE_SECRET_KEY|secret_key|invoices; Stripe live secret|STRIPE_API_KEY|stripe_key|billing",
)
K(
    "twilio_auth_token",
    _same(lambda r: hx(r, 32)),
    "t",
    "Twilio auth token|TWILIO_AUTH_TOKEN|auth_token|sms; Twilio auth token (driver SMS)|TWILIO_TOKEN|twilio_auth_token|fleet-sync",
)
K(
    "sendgrid_api_key",
    _same(lambda r: "SG." + rs(r, 22, URLSAFE) + "." + rs(r, 43, URLSAFE)),
    "t",
    "SendGrid API key|SENDGRID_API_KEY|api_key|invoices; SendGrid key|SMTP_PASSWORD|sendgrid_key|mailer",
)
K(
    "mailgun_api_key",
    _same(lambda r: "key-" + hx(r, 32)),
    "t",
    "Mailgun API key|MAILGUN_API_KEY|api_key|mailer; Mailgun private key|MG_KEY|mailgun_key|invoices",
)
K(
    "postmark_server_token",
    _same(uid),
    "t",
    "Postmark server token|POSTMARK_SERVER_TOKEN|server_token|mailer; Postmark API token|POSTMARK_TOKEN|token|invoices",
)
K(
    "aws_secret_access_key",
    _same(lambda r: rs(r, 40, AN + "/+")),
    "t",
    "AWS secret access key|AWS_SECRET_ACCESS_KEY|aws_secret_access_key|backup; "
    "S3 secret key for the offsite bucket|S3_SECRET_KEY|secret_key|restic",
)
K(
    "backblaze_b2_application_key",
    _same(lambda r: "K00" + r.choice("1234") + rs(r, 27)),
    "t",
    "B2 application key|B2_APPLICATION_KEY|key|rclone; Backblaze B2 app key|B2_ACCOUNT_KEY|application_key|restic",
)
K(
    "cloudflare_api_token",
    _same(lambda r: rs(r, 40, URLSAFE)),
    "t",
    "Cloudflare API token (DNS edit)|CF_API_TOKEN|api_token|ddns; Cloudflare token for Traefik ACME|CF_DNS_API_TOKEN|token|traefik",
)
K(
    "cloudflare_global_api_key",
    _same(lambda r: hx(r, 37)),
    "t",
    "Cloudflare global API key|CF_API_KEY|api_key|ddns; Cloudflare global key|CLOUDFLARE_API_KEY|global_key|certbot",
)
K(
    "cloudflare_tunnel_token",
    _same(_cf_tunnel),
    "t",
    "Cloudflare tunnel token|TUNNEL_TOKEN|token|cloudflared; cloudflared tunnel token|CF_TUNNEL_TOKEN|tunnel_token|cloudflared",
)
K(
    "tailscale_auth_key",
    _same(lambda r: "tskey-" + "auth-" + rs(r, 11) + "CNTRL-" + rs(r, 33)),
    "t",
    "Tailscale auth key|TS_AUTHKEY|authkey|tailscale; Tailscale pre-auth key|TAILSCALE_AUTHKEY|auth_key|subnet-router",
)
K(
    "tailscale_api_key",
    _same(lambda r: "tskey-" + "api-" + rs(r, 11) + "CNTRL-" + rs(r, 33)),
    "t",
    "Tailscale API key|TS_API_KEY|api_key|acl-sync; Tailscale API access token|TAILSCALE_API_KEY|tailscale_api_key|homepage",
)
K(
    "proxmox_api_token",
    _proxmox,
    "u",
    "Proxmox API token|PVE_TOKEN|api_token|terraform; PVE API token|PROXMOX_API_TOKEN|token|homepage",
)
K(
    "truenas_api_key",
    _same(lambda r: str(r.randint(1, 9)) + "-" + rs(r, 64)),
    "t",
    "TrueNAS API key|TRUENAS_API_KEY|api_key|homepage; TrueNAS SCALE API key|TN_KEY|key|scrutiny",
)
K(
    "portainer_api_key",
    _same(lambda r: "ptr_" + rs(r, 43, AN + "+/") + "="),
    "t",
    "Portainer access token|PORTAINER_TOKEN|api_key|portainer; Portainer API key|PORTAINER_API_KEY|token|watchtower",
)
K(
    "home_assistant_token",
    _same(_ha_token),
    "t",
    "Home Assistant long-lived token|HA_TOKEN|token|ha; HA long-lived access token|HASS_TOKEN|access_token|nodered",
)
K(
    "servarr_api_key",
    _same(lambda r: hx(r, 32)),
    "t",
    "Sonarr API key|SONARR_API_KEY|api_key|sonarr; Radarr API key|RADARR_API_KEY|api_key|radarr; "
    "Prowlarr API key|PROWLARR_API_KEY|apikey|prowlarr; Lidarr API key|LIDARR__APIKEY|ApiKey|lidarr",
)
K(
    "jellyfin_api_key",
    _same(lambda r: hx(r, 32)),
    "t",
    "Jellyfin API key|JELLYFIN_API_KEY|api_key|jellyfin; Jellyfin API key for Jellyseerr|JF_API_KEY|apiKey|jellyseerr",
)
K(
    "plex_token",
    _same(lambda r: rs(r, 20, URLSAFE)),
    "t",
    "Plex token|PLEX_TOKEN|token|tautulli; X-Plex-Token|PLEX_TOKEN|plex_token|kometa",
)
K(
    "vaultwarden_admin_token",
    _same(lambda r: b64(rbytes(r, 48))),
    "t",
    "Vaultwarden admin token|ADMIN_TOKEN|admin_token|vaultwarden; VW admin token (plain)|VW_ADMIN_TOKEN|admin_token|vaultwarden",
)
K(
    "authelia_secret",
    _same(lambda r: rs(r, 64)),
    "t",
    "Authelia JWT secret|AUTHELIA_JWT_SECRET|jwt_secret|authelia; Authelia session secret|AUTHELIA_SESSION_SECRET|secret|authelia; "
    "Authelia storage encryption key|AUTHELIA_STORAGE_ENCRYPTION_KEY|encryption_key|authelia",
)
K(
    "nextcloud_app_password",
    _same(lambda r: "-".join(rs(r, 5) for _ in range(5))),
    "t",
    "Nextcloud app password|NC_APP_PASSWORD|app_password|nextcloud; Nextcloud app password for rclone|NEXTCLOUD_PASS|pass|rclone",
)
K(
    "duckdns_token",
    _same(uid),
    "t",
    "DuckDNS token|DUCKDNS_TOKEN|token|ddns; DuckDNS API token|TOKEN|duckdns_token|ddns",
)
K(
    "brevo_smtp_key",
    _same(lambda r: "xsmtp" + "sib-" + hx(r, 64) + "-" + rs(r, 16)),
    "t",
    "Brevo SMTP key|SMTP_PASSWORD|smtp_password|mailer; Brevo SMTP relay key|BREVO_SMTP_KEY|password|postfix",
)
K(
    "gmail_app_password",
    _same(lambda r: " ".join(rs(r, 4, string.ascii_lowercase) for _ in range(4))),
    "t",
    "Gmail app password|GMAIL_APP_PASSWORD|password|mailer; Google app password for the SMTP relay|SMTP_PASS|smtp_pass|postfix",
)
K(
    "smtp_password",
    _pw,
    "p",
    "SMTP relay password|SMTP_PASSWORD|smtp_password|postfix; mail relay password|MAIL_PASSWORD|password|mailer",
)
K(
    "n8n_api_key",
    _same(_n8n_key),
    "t",
    "n8n API key|N8N_API_KEY|apiKey|n8n; n8n public API key|N8N_KEY|api_key|n8n",
)
K(
    "airtable_pat",
    _same(lambda r: "pat" + rs(r, 14) + "." + hx(r, 64)),
    "t",
    "Airtable personal access token|AIRTABLE_TOKEN|token|orders; Airtable PAT|AIRTABLE_API_KEY|api_key|n8n",
)
K(
    "google_service_account_private_key",
    _gsa_pem,
    "j",
    "service account key|GOOGLE_SA_PRIVATE_KEY|private_key|n8n",
)
K(
    "intuit_client_secret",
    _same(lambda r: rs(r, 40)),
    "t",
    "QuickBooks client secret|QBO_CLIENT_SECRET|client_secret|invoices; Intuit app client secret|INTUIT_CLIENT_SECRET|clientSecret|n8n",
)
K(
    "xero_client_secret",
    _same(lambda r: rs(r, 48, URLSAFE)),
    "t",
    "Xero client secret|XERO_CLIENT_SECRET|client_secret|invoices; Xero app secret|XERO_SECRET|clientSecret|n8n",
)
K(
    "meta_access_token",
    _same(lambda r: "EA" + "A" + rs(r, r.randint(150, 190))),
    "t",
    "WhatsApp Business access token|WHATSAPP_TOKEN|access_token|whatsapp; Meta system user token|META_ACCESS_TOKEN|token|n8n",
)
K(
    "samsara_api_token",
    _same(lambda r: "samsara" + "_api_" + rs(r, 30)),
    "t",
    "Samsara API token|SAMSARA_API_TOKEN|api_token|fleet-sync; Samsara token|SAMSARA_TOKEN|token|telematics",
)
K(
    "motive_api_key",
    _same(uid),
    "t",
    "Motive API key|MOTIVE_API_KEY|x_api_key|fleet-sync; KeepTruckin/Motive API key|KT_API_KEY|api_key|telematics",
)
K(
    "sftp_password",
    _conn(
        [
            ("sftp", "edi_dekker", "sftp.partner-edi.eu:22/inbound"),
            ("sftp", "pod-upload", "drop.fjordfreight.dk/pod"),
            ("sftp", "asn", "edi.kovac-transport.cz:2222/out"),
        ]
    ),
    "u",
    "EDI SFTP URL|SFTP_URL|url|edi-drop; partner SFTP drop|EDI_SFTP_URI|uri|edi-drop",
)
K(
    "ftp_password",
    _conn(
        [
            ("ftp", "labels", "ftp.carrier-labels.eu/in"),
            ("ftps", "dekker", "ftp.partner-edi.eu/orders"),
        ]
    ),
    "u",
    "carrier FTP URL|FTP_URL|url|labels; FTP drop|ORDERS_FTP|ftp_url|edi-drop",
)
K(
    "postgres_password",
    _conn(
        [
            ("postgresql", "n8n", "db:5432/n8n"),
            ("postgres", "nextcloud", "10.0.20.7:5432/nextcloud"),
            ("postgresql", "authelia", "postgres.lab:5432/authelia"),
        ]
    ),
    "u",
    "Postgres DSN|DATABASE_URL|dsn|n8n; database URL|DB_URL|database_url|nextcloud",
)
K(
    "mysql_root_password",
    _pw,
    "p",
    "MariaDB root password|MYSQL_ROOT_PASSWORD|root_password|nextcloud; MySQL root pw|MARIADB_ROOT_PASSWORD|mysql_root_password|db",
)
K(
    "restic_password",
    _pw,
    "p",
    "restic repository password|RESTIC_PASSWORD|password|restic; restic repo password (B2)|RESTIC_PASSWORD|repo_password|backup",
)
K(
    "borg_passphrase",
    _pw,
    "p",
    "borg passphrase|BORG_PASSPHRASE|encryption_passphrase|borgmatic; borg repo passphrase|BORG_PASSPHRASE|passphrase|backup",
)
K(
    "firewall_admin_password",
    _pw,
    "p",
    "pfSense admin password|PFSENSE_PASSWORD|password|pfsense; OPNsense root password|OPNSENSE_ROOT_PW|root_password|opnsense",
)
K(
    "synology_dsm_password",
    _pw,
    "p",
    "Synology DSM admin password|DSM_PASSWORD|password|synology; DSM password|SYNO_PASSWORD|dsm_password|hyper-backup",
)
K(
    "mikrotik_password",
    _pw,
    "p",
    "MikroTik admin password|ROUTEROS_PASSWORD|password|mikrotik; RouterOS api user password|MT_PASS|api_password|mikrotik",
)
K(
    "pihole_web_password",
    _pw,
    "p",
    "Pi-hole web password|FTLCONF_webserver_api_password|webpassword|pihole; Pi-hole admin password|WEBPASSWORD|webpassword|pihole",
)
K(
    "wifi_psk",
    _pw,
    "p",
    "Wi-Fi password (IoT SSID)|WIFI_PSK|psk|unifi; WPA2 passphrase warehouse WLAN|WLAN_PSK|x_passphrase|unifi",
)
K(
    "openssh_private_key",
    _ossh,
    "k",
    "SSH private key|SSH_KEY|private_key|sftp; deploy key|DEPLOY_KEY|key|ansible",
)
K(
    "wireguard_private_key",
    _same(_wg),
    "t",
    "WireGuard private key|WG_PRIVATE_KEY|PrivateKey|wg0; wg private key (road warrior)|WIREGUARD_PRIVATE_KEY|private_key|wg-easy",
)
K(
    "shippo_api_token",
    _same(lambda r: "shippo_" + "live_" + hx(r, 40)),
    "t",
    "Shippo live token|SHIPPO_API_TOKEN|api_token|labels; Shippo API key|SHIPPO_KEY|token|shipping",
)
K(
    "easypost_api_key",
    _same(lambda r: "EZ" + "AK" + hx(r, 54)),
    "t",
    "EasyPost production key|EASYPOST_API_KEY|api_key|labels; EasyPost API key|EASYPOST_KEY|key|shipping",
)
K(
    "pushover_app_token",
    _same(lambda r: "a" + rs(r, 29, LO)),
    "t",
    "Pushover app token|PUSHOVER_TOKEN|token|uptime-kuma; Pushover API token|PUSHOVER_APP_TOKEN|app_token|ha",
)
K(
    "ntfy_access_token",
    _same(lambda r: "tk" + "_" + rs(r, 29, LO)),
    "t",
    "ntfy access token|NTFY_TOKEN|token|ntfy; ntfy token for backups|NTFY_ACCESS_TOKEN|access_token|backup",
)
K(
    "docker_hub_pat",
    _same(lambda r: "dckr" + "_pat_" + rs(r, 27, URLSAFE)),
    "t",
    "Docker Hub access token|DOCKERHUB_TOKEN|password|ci; Docker Hub PAT|DOCKER_PASSWORD|token|watchtower",
)
K(
    "npm_token",
    _same(lambda r: "np" + "m_" + rs(r, 36)),
    "t",
    "npm token|NPM_TOKEN|authToken|n8n-nodes; npm automation token|NODE_AUTH_TOKEN|token|ci",
)
K(
    "grafana_service_account_token",
    _same(lambda r: "gl" + "sa_" + rs(r, 32) + "_" + hx(r, 8)),
    "t",
    "Grafana service account token|GRAFANA_TOKEN|token|grafana; Grafana SA token|GF_SA_TOKEN|api_key|homepage",
)
K(
    "influxdb_token",
    _same(lambda r: b64u(rbytes(r, 64)) + "=="),
    "t",
    "InfluxDB token|INFLUX_TOKEN|token|telegraf; InfluxDB all-access token|DOCKER_INFLUXDB_INIT_ADMIN_TOKEN|token|influxdb",
)
K(
    "azure_storage_account_key",
    _azure,
    "u",
    "Azure storage connection string|AZURE_STORAGE_CONNECTION_STRING|connection_string|edi-archive; "
    "blob storage conn string|STORAGE_CONN|conn_str|pod-archive",
)
K(
    "age_secret_key",
    _same(_age),
    "t",
    "age secret key (sops)|SOPS_AGE_KEY|age_key|sops; age identity|AGE_KEY|identity|flux",
)
K(
    "notion_token",
    _same(lambda r: "nt" + "n_" + dg(r, 11) + rs(r, 35)),
    "t",
    "Notion integration token|NOTION_TOKEN|token|n8n; Notion API secret|NOTION_API_KEY|api_key|wiki-sync",
)
K(
    "mapbox_secret_token",
    _same(_mapbox),
    "t",
    "Mapbox secret token|MAPBOX_SECRET_TOKEN|secret_token|fleet-map; Mapbox sk token (downloads)|MAPBOX_DOWNLOADS_TOKEN|token|fleet-map",
)
K(
    "presigned_url_signature",
    _presigned,
    "u",
    "pre-signed POD link|POD_URL|url|pod-upload; B2 pre-signed URL|SHARE_URL|share_url|pod-upload",
)
K(
    "google_oauth_access_token",
    _rclone_gtoken,
    "t",
    "Google Drive access token|GDRIVE_ACCESS_TOKEN|access_token|rclone; Google OAuth access token|GOOGLE_ACCESS_TOKEN|token|n8n",
)

# kind-specific extra templates (merged with the generic ones of matching style)
EXTRA = {
    "restic_password": [
        (
            "# /etc/restic/env\nRESTIC_REPOSITORY=b2:homelab-restic:/pve\nRESTIC_PASSWORD=«v»\n"
            "RESTIC_CACHE_DIR=/var/cache/restic"
        ),
        (
            "$ restic -r sftp:backup@«host»:/srv/restic init\nenter password for new repository: «v»\n"
            "created restic repository at sftp:backup@«host»:/srv/restic"
        ),
    ],
    "borg_passphrase": [
        'location:\n  repositories:\n    - ssh://borg@«host»/./repo\nstorage:\n  encryption_passphrase: "«v»"\n',
    ],
    "mikrotik_password": [
        '/user add name=n8n group=read password=«v» comment="api poller"\n/ip service set api-ssl disabled=no',
    ],
    "wifi_psk": [
        "WIFI:T:WPA;S:Dekker-Warehouse;P:«v»;;",
        'network={\n    ssid="lab-iot"\n    psk="«v»"\n}',
    ],
    "wireguard_private_key": [
        "[Interface]\nAddress = 10.8.0.2/32\nPrivateKey = «v»\nDNS = 10.0.20.2\n",
    ],
    "google_oauth_access_token": [
        (
            '[gdrive]\ntype = drive\nscope = drive\ntoken = {"access_token":"«v»","token_type":"Bearer",'
            '"expiry":"«ts»"}\nteam_drive =\n'
        ),
    ],
    "backblaze_b2_application_key": [
        "[b2]\ntype = b2\naccount = «n»\nkey = «v»\nhard_delete = true\n",
    ],
    "cloudflare_tunnel_token": [
        "$ sudo cloudflared service install «v»\n«ts» INF Using Systemd\n«ts» INF Linux service for cloudflared installed",
    ],
    "tailscale_auth_key": [
        "$ sudo tailscale up --authkey=«v» --advertise-routes=10.0.20.0/24 --ssh",
    ],
    "proxmox_api_token": [
        "curl -k -H 'Authorization: «v»' https://«host»:8006/api2/json/nodes",
    ],
    "plex_token": [
        "http://«ip»:32400/library/sections?X-Plex-Token=«v»",
    ],
    "servarr_api_key": [
        "curl -s 'http://«host»:8989/api/v3/series?apikey=«v»' | jq length",
        (
            "<Config>\n  <BindAddress>*</BindAddress>\n  <Port>8989</Port>\n  <ApiKey>«v»</ApiKey>\n"
            "  <AuthenticationMethod>Forms</AuthenticationMethod>\n</Config>"
        ),
    ],
    "telegram_bot_token": [
        "curl -s https://api.telegram.org/bot«v»/getUpdates | jq '.result[0].message.chat.id'",
    ],
    "twilio_auth_token": [
        "Twilio: account is in the client's name; auth token «v» (primary). Secondary not created yet.",
    ],
    "pihole_web_password": [
        "$ docker exec -it pihole pihole setpassword «v»\n  [✓] New password set",
    ],
    "sftp_password": ["lftp «v»\nlftp edi_dekker@sftp.partner-edi.eu:~> ls"],
    "postgres_password": ['$ psql «v»\npsql (16.3)\nType "help" for help.\n\nn8n=>'],
}


# ---------------------------------------------------------------- look-alike fillers
def _bcrypt(r):
    return "$2" + r.choice("aby") + "$" + r.choice(["10", "12"]) + "$" + rs(r, 53, AN + "./")


def _argon(r):
    return "$argon2id$v=19$m=65540,t=3,p=4$" + b64(rbytes(r, 32)).rstrip("=") + "$" + b64(rbytes(r, 32)).rstrip("=")


def _vault(r):
    body = hx(r, 80 * r.randint(3, 5))
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(body[i : i + 80] for i in range(0, len(body), 80))


def _sops(r):
    return (
        "ENC[AES256_GCM,data:"
        + b64(rbytes(r, r.randint(12, 40)))
        + ",iv:"
        + b64(rbytes(r, 32))
        + ",tag:"
        + b64(rbytes(r, 16))
        + ",type:str]"
    )


def _cert(r):
    return "\n".join(
        pem_block(
            r,
            "CERTIFICATE",
            600,
            b"\x30\x82\x02\x54\x30\x82\x01\xfa\xa0\x03\x02\x01\x02",
        )
    )


def _pgp_sig(r):
    body = b64(rbytes(r, 110))
    return (
        "-----BEGIN PGP SIGNATURE-----\n\n"
        + body[:64]
        + "\n"
        + body[64:]
        + "\n="
        + rs(r, 4)
        + "\n-----END PGP SIGNATURE-----"
    )


def _png(r):
    return "data:image/png;base64," + b64(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rbytes(r, r.randint(60, 120)))


def _sshpub(r):
    return "ssh-ed25519 " + b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + rbytes(r, 32))


def _mapbox_pk(r):
    mid = b64u(json.dumps({"u": "dekkerlog", "a": rs(r, 25, LO)}, separators=(",", ":")).encode())
    return "pk." + mid + "." + rs(r, 22, URLSAFE)


def _syncthing(r):
    return "-".join(rs(r, 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(8))


LF = dict(BASE_FILL)
LF.update(
    {
        "sha1": lambda r: hx(r, 40),
        "sha7": lambda r: hx(r, 7),
        "sha256": lambda r: hx(r, 64),
        "md5": lambda r: hx(r, 32),
        "hex8": lambda r: hx(r, 8),
        "hex16": lambda r: hx(r, 16),
        "uuid": uid,
        "uuid2": uid,
        "UUID": lambda r: uid(r).upper(),
        "bcrypt": _bcrypt,
        "argon2": _argon,
        "sha512crypt": lambda r: "$6$" + rs(r, 16, AN + "./") + "$" + rs(r, 86, AN + "./"),
        "apr1": lambda r: "$apr1$" + rs(r, 8, AN + "./") + "$" + rs(r, 22, AN + "./"),
        "vault": _vault,
        "sops": _sops,
        "cert": _cert,
        "pgpsig": _pgp_sig,
        "png": _png,
        "sshpub": _sshpub,
        "fp": lambda r: "SHA256:" + b64(rbytes(r, 32)).rstrip("="),
        "fpcolon": lambda r: ":".join(hx(r, 2) for _ in range(32)).upper(),
        "wgpub": lambda r: b64(rbytes(r, 32)),
        "agepub": lambda r: "age1" + rs(r, 58, B32),
        "pk_stripe": lambda r: "pk_" + "live_" + "51" + rs(r, 97),
        "mapbox_pk": _mapbox_pk,
        "firebase": lambda r: "AI" + "za" + rs(r, 35, URLSAFE),
        "sentry": lambda r: "https://" + hx(r, 32) + "@o" + dg(r, 6) + ".ingest.de.sentry.io/" + dg(r, 7),
        "gclient": lambda r: dg(r, 12) + "-" + rs(r, 32, LO) + ".apps.googleusercontent.com",
        "recaptcha": lambda r: "6L" + rs(r, 38, URLSAFE),
        "algolia_app": lambda r: rs(r, 10, UP),
        "twsid": lambda r: "AC" + hx(r, 32),
        "smsid": lambda r: "SM" + hx(r, 32),
        "b2kid": lambda r: "005" + hx(r, 22),
        "airbase": lambda r: "app" + rs(r, 14),
        "airtbl": lambda r: "tbl" + rs(r, 14),
        "sheet": lambda r: "1" + rs(r, 43, URLSAFE),
        "container": lambda r: hx(r, 64),
        "pi": lambda r: "pi_" + rs(r, 24),
        "cus": lambda r: "cus_" + rs(r, 14),
        "syncthing": _syncthing,
        "mac": lambda r: ":".join(hx(r, 2) for _ in range(6)),
        "vin": lambda r: "WDB" + rs(r, 14, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"),
        "imei": lambda r: dg(r, 15),
        "ups": lambda r: "1Z" + rs(r, 16, UP),
        "sscc": lambda r: "00" + dg(r, 18),
        "intuit_cid": lambda r: "AB" + rs(r, 48),
        "xero_cid": lambda r: hx(r, 32).upper(),
        "npmint": lambda r: "sha512-" + b64(rbytes(r, 64)),
        "gosum": lambda r: "h1:" + b64(rbytes(r, 32)),
        "dkim": lambda r: "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + b64(rbytes(r, 200)),
        "tsnode": lambda r: "nodekey:" + hx(r, 64),
        "run": lambda r: rs(r, 8, LO),
        "ray": lambda r: hx(r, 16) + "-" + r.choice(["AMS", "CPH", "ATH", "PRG", "SGN", "TLV"]),
        "trace": lambda r: "00-" + hx(r, 32) + "-" + hx(r, 16) + "-01",
        "b64json": lambda r: b64(
            json.dumps(
                {
                    "route": r.choice(["NL-DK", "CZ-NL"]),
                    "stops": r.randint(2, 14),
                    "eta": _ts(r),
                }
            ).encode()
        ),
        "zt": lambda r: hx(r, 16),
        "dsid": lambda r: dg(r, 9),
        "pw_fake": lambda r: r.choice(
            [
                "changeme",
                "CHANGE_ME",
                "<your-password>",
                "hunter2-example",
                "password123 (default, change it)",
                "admin",
            ]
        ),
        "env_name": lambda r: r.choice(
            [
                "RESTIC_PASSWORD",
                "TWILIO_AUTH_TOKEN",
                "XERO_CLIENT_SECRET",
                "CF_API_TOKEN",
                "N8N_API_KEY",
                "SONARR_API_KEY",
                "TS_AUTHKEY",
                "BORG_PASSPHRASE",
                "SAMSARA_API_TOKEN",
                "AIRTABLE_TOKEN",
            ]
        ),
        "model": lambda r: r.choice(
            [
                "meta-llama/Llama-3.1-8B-Instruct",
                "mistralai/Mistral-7B-v0.3",
                "Qwen/Qwen2.5-7B-Instruct",
                "openai/whisper-large-v3",
                "sentence-transformers/all-MiniLM-L6-v2",
                "BAAI/bge-m3",
            ]
        ),
    }
)

# Each entry becomes one look-alike generator (templates chosen at random).
LOOK_T = [
    ["Deployed commit «sha1» to «host» («date»).", "git log -1 --format=%H\n«sha1»"],
    ["Fixed in «sha7», see PR #«n». Rebased onto main at «sha7»."],
    [
        "TrueNAS-SCALE-24.10.iso sha256: «sha256» - verified before upgrade.",
        "$ sha256sum proxmox-ve_8.3-1.iso\n«sha256}  proxmox-ve_8.3-1.iso".replace("}", "»"),
    ],
    ["image: ghcr.io/home-assistant/home-assistant@sha256:«sha256»"],
    ["$ docker ps --no-trunc -q -f name=«svc2»\n«container»"],
    ["VM «n» smbios uuid=«uuid» (pve01), clone of template 9000."],
    ["«ts» ERROR request failed request_id=«uuid» status=502 upstream=«host»"],
    ["X-Request-Id: «uuid»\nX-Correlation-Id: «uuid2»\nCF-RAY: «ray»"],
    ["traceparent: «trace»"],
    ['Signature image for the POD form: <img src="«png»">'],
    ['{"logo": "«png»", "name": "Dekker Logistics"}'],
    ["model: «model»\nrevision: «sha1»\nrun_id: «run»"],
    ["wandb run «run» finished, best eval loss at step «n». Dataset: dekker/delivery-notes@«sha7»"],
    ["Stripe publishable key for the payment page: «pk_stripe»"],
    ["STRIPE_PUBLISHABLE_KEY=«pk_stripe»\n# secret key is injected by the deploy, not here"],
    ["mapboxgl.accessToken = '«mapbox_pk»'; // public token, URL-restricted to fleet.dekker"],
    [
        (
            'const firebaseConfig = {\n  apiKey: "«firebase»",\n  authDomain: "dekker-driver-app.firebaseapp.com",\n'
            '  projectId: "dekker-driver-app"\n};'
        )
    ],
    [
        "SENTRY_DSN=«sentry»",
        "Sentry DSN for the driver app (public, goes in the bundle): «sentry»",
    ],
    ["Google OAuth client id: «gclient» (secret is in Vaultwarden)"],
    ["reCAPTCHA site key on the quote form: «recaptcha»"],
    ["Algolia app id «algolia_app», search-only API key «md5» (safe for frontend)."],
    ["Twilio Account SID «twsid»; auth token stays in ${TWILIO_AUTH_TOKEN}."],
    ["«ts» sms sent sid=«smsid» to=+3161234«n» status=queued"],
    ["B2 keyID «b2kid» belongs to the restic bucket; the application key itself is in 1Password."],
    ["Airtable base «airbase», table «airtbl» (Shipments). Token via n8n credential 'Airtable prod'."],
    ["Orders sheet: https://docs.google.com/spreadsheets/d/«sheet»/edit#gid=0"],
    ["Cloudflare zone id «md5», account id «md5» - not secret, used in terraform vars."],
    ["Stripe payment «pi» for customer «cus» failed: card_declined"],
    ["Syncthing device ID of the NAS: «syncthing»"],
    ["ZeroTier network «zt» joined by «host»."],
    ["Tracker on truck 14: IMEI «imei», VIN «vin», MAC «mac»"],
    ["Shipment «ups» delivered «date», pallet SSCC «sscc»"],
    ["QuickBooks OAuth client id: «intuit_cid» (client secret NOT here)"],
    ["Xero app client id «xero_cid», tenant id «uuid»."],
    ['"integrity": "«npmint»"'],
    ["github.com/restic/restic v0.17.3 «gosum»"],
    ["pip install --require-hashes -r req.txt\nrequests==2.32.3 --hash=sha256:«sha256»"],
    ['default._domainkey TXT "v=DKIM1; k=rsa; p=«dkim»"'],
    ['tailscale status --json | jq .Self.PublicKey\n"«tsnode»"'],
    ["[Peer]\nPublicKey = «wgpub»\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.dekker-logistics.nl:51820"],
    ["sops recipients: «agepub» (public key, fine to commit)"],
    ["authorized_keys on «host»:\n«sshpub» sam@laptop"],
    ["Host key fingerprint of «host» is «fp» (ED25519), confirmed with «who»."],
    ["PBS fingerprint: «fpcolon»"],
    ["Public cert for the EDI partner (AS2):\n«cert»"],
    ["Release signature:\n«pgpsig»"],
    ['admin_password_hash: "«bcrypt»"'],
    ["ADMIN_TOKEN='«argon2»'\n# vaultwarden hashed admin token, plain one is in the password manager"],
    ['users:\n  sam:\n    displayname: Sam\n    password: "«argon2»"\n    groups: [admins]'],
    ["traefik basic auth label: traefik.http.middlewares.auth.basicauth.users=sam:«apr1»"],
    ["/etc/shadow entry: backup:«sha512crypt»:19700:0:99999:7:::"],
    ["restic_password: !vault |\n          «vault»"],
    ["b2_key: «sops»\ntwilio_token: «sops»"],
    ["restic password: ******** (in Vaultwarden: Homelab/restic-b2)"],
    ["Twilio auth token: [REDACTED]", "SMTP_PASSWORD=**************"],
    ["RESTIC_PASSWORD=<your-restic-password>\nRESTIC_REPOSITORY=b2:<bucket>:/path"],
    ["TS_AUTHKEY=${TS_AUTHKEY}\nTS_EXTRA_ARGS=--advertise-exit-node"],
    ["environment:\n  - POSTGRES_PASSWORD=${POSTGRES_PASSWORD:?set in .env}\n  - POSTGRES_USER=n8n"],
    ["env:\n  CF_API_TOKEN: ${{ secrets.CF_API_TOKEN }}\n  N8N_API_KEY: ${{ secrets.N8N_API_KEY }}"],
    [
        'token = Variable.get("samsara_api_token")',
        'key = dbutils.secrets.get(scope="ops", key="xero-secret")',
    ],
    [
        "vault kv get -field=password secret/homelab/«svc2»",
        "path: kv/data/dekker/«svc2»/api",
    ],
    ["op read 'op://Homelab/restic-b2/password'", "bw get password pfsense-admin"],
    ["Remember: «env_name» lives in /etc/«svc2»/env (root:root 0600), never in the repo."],
    ["password_file: /run/secrets/«svc2»_db_password\nsecrets:\n  «svc2»_db_password:\n    file: ./secrets/db.txt"],
    ["EnvironmentFile=/etc/restic/env\nExecStart=/usr/bin/restic backup /srv --exclude-caches"],
    ['$Secret = Get-Secret -Name XeroClientSecret -AsPlainText\n$Headers = @{ Authorization = "Bearer $Token" }'],
    ["valueFrom:\n  secretKeyRef:\n    name: n8n-secrets\n    key: N8N_ENCRYPTION_KEY"],
    ["The default login is admin / «pw_fake», the setup wizard forces a change."],
    ["docs: set `password: «pw_fake»` then run the bootstrap once."],
    ["AWS docs example secret: " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY (not ours)"],
    ["Stripe docs test key example: sk_" + "test_" + "4eC39HqLyjWDarjtT1zdp7dc - from their quickstart."],
    ['{"cell_type": "code", "execution_count": «n», "id": "«hex8»", "metadata": {}, "outputs": []}'],
    ['n8n credential reference: {"twilioApi": {"id": "«n»", "name": "Twilio prod"}}'],
    ["restic snapshots\nID        Time                 Host\n«hex8}  «date» 02:15:01  pve01".replace("}", "»")],
    ["Repository ID: «sha256»\nEncrypted: Yes (repokey BLAKE2b)\nCache: /root/.cache/borg/«sha256»"],
    ["Plex server machineIdentifier=«sha1» (clientIdentifier, not a token)"],
    ["Jellyfin item «md5» failed to transcode: ffmpeg exit code 1"],
    ["Sonarr series tvdbId=«n» path=/data/tv/Show «n»; queue item id «uuid»"],
    ["Cloudflare tunnel id «uuid» routes ha.dekker-logistics.nl -> http://«ip»:8123"],
    ["credentials-file: /etc/cloudflared/«uuid».json\ntunnel: «uuid»"],
    ["Proxmox API token id: automation@pve!n8n (secret shown once, stored in vault)"],
    ["UniFi device adopted: mac «mac», site id «hex16»«hex8»"],
    ["DSM QuickConnect ID: dekker-nas, serial «dsid»"],
    ["Telegram chat_id for alerts: -100«dsid»«n»"],
    ["Discord channel id «dsid»«dsid» for #homelab-alerts"],
    ["Home Assistant entity light.warehouse_bay_«n», device_id «md5»"],
    ['ETag: "«md5»"\nContent-MD5: «wgpub»'],
    ["base64 of the route payload: «b64json»"],
    ["$ echo -n 'hello-dekker' | sha1sum\n«sha1}  -".replace("}", "»")],
    ["QuickBooks realmId «dsid»«n», invoice INV-«n» synced."],
    ["EDI ISA control number «dsid», GS «n», ST 0001 acknowledged (997)."],
    ["WhatsApp phone_number_id «dsid»«n», WABA id «dsid»; token via credential 'Meta system user'."],
    ["Key ending in ...«hex8» was revoked on «date» (only suffix noted)."],
    ["GPG key id «hex16» (signing subkey), fingerprint «sha1»"],
    ["Let's Encrypt cert serial «sha1»«hex8», expires «date»"],
    ["Nextcloud instanceid: oc«run»ab, version 29.0.7"],
    ["tskey-" + "auth-XXXXXXXXXXXXX-YYYYYYYYYYYYYYYYY is the format; generate one in the admin console."],
    ["SLACK_WEBHOOK_URL=https://hooks." + "slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"],
    ["n8n webhook test URL: https://n8n.dekker-logistics.nl/webhook-test/<path>"],
    ["sftp://edi_dekker@sftp.partner-edi.eu:22/inbound (key auth, see ~/.ssh/config)"],
    ["postgresql://n8n@db:5432/n8n?sslmode=disable  # password via PGPASSFILE"],
    ["MikroTik export:\n/interface bridge add name=bridge-lan\n/ip address add address=«ip»/24 interface=bridge-lan"],
    ["uptime-kuma monitor «n» (keyword) -> https://«host»/health, interval 60s"],
    ["cron: 0 */6 * * * /opt/scripts/ddns-update.sh # token read from /etc/ddns/token"],
    ["Color palette for the label template: #«hex8» / #«sha7»"],
    ["Invoice hash for Xero attachment dedupe: md5 «md5»"],
    ['authelia: "identity_validation.reset_password.jwt_secret" is set via AUTHELIA_..._FILE env var'],
    ["«ts» restic: snapshot «hex8» saved, added «n» MiB, files new: «n»"],
    ["age public key for backups: «agepub»\n(private key on the YubiKey only)"],
]


FRAMES = [
    "@@",
    "@@",
    "Note «date»: @@",
    "[«time»] «who»: @@",
    "@@\n(checked by «who» on «date»)",
    "Lesson («date»): @@",
    "# «host»\n@@",
    "Memory: «svc2» / «host»\n@@",
    "Notitie («who»): @@",
    "Husk («date»): @@",
    "@@\n-- TODO: tidy up the «svc2» notes",
]


def _mk_look(templates):
    def gen(r: random.Random) -> str:
        frame = r.choice(FRAMES)
        return render(r, frame.replace("@@", r.choice(templates)), LF)

    return gen


_LOOK = [_mk_look(t) for t in LOOK_T]


def _templates_for(kind: str, style: str) -> list[str]:
    if style == "k":
        return PEM_T
    if style == "j":
        return JSON_PEM_T
    out = [t for st, t in GENERIC if style in st]
    return out + EXTRA.get(kind, [])


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind, gen, style, metas, _extra in KINDS:
        tmpls = _templates_for(kind, style)
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > 2000:
                raise RuntimeError(f"cannot fill {kind}")
            secret, value = gen(r)
            name, env, key, svc = r.choice(metas)
            fill = dict(BASE_FILL, v=value, name=name, env=env, key=key, svc=svc)
            text = render(r, r.choice(tmpls), fill)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            positives.append((text, kind, secret))
            got += 1
    lookalikes: list[str] = []
    for g in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 3000:
                raise RuntimeError(f"look-alike generator {g} starved")
            text = g(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
