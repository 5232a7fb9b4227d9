"""Labelled test set AN for a secret detector: airline charter, maintenance and flight school.

Theme
-----
Texts that an AI coding agent might keep as "memories" for a small airline-charter and
aircraft-maintenance company and the flight school next door: flight planning (ForeFlight,
Jeppesen, SkyVector), weather/NOTAM APIs (Windy, Tomorrow.io, AVWX), ADS-B feeders
(FlightAware, Flightradar24), ACARS gateways, crew scheduling (Leon), Amadeus/Sabre test
credentials, payments (Stripe, Square, PayPal), Xero, QuickBooks Online, Microsoft 365, Google
Workspace, Okta, CAMO databases, hangar controllers, badge systems, regulator SFTP, simulator
PCs, LMS tokens (Moodle, TalentLMS), Zoom, YouTube, classroom Wi-Fi.  Styles: notes, lessons,
runbooks, TODOs, tickets, emails and chat (English plus Spanish, Icelandic, Czech, Turkish,
Filipino and Afrikaans), config (.env, docker-compose, JSON, YAML, INI, Windows .ini,
PowerShell, systemd, piaware/dump1090) and tool output (curl -v, SSH, container, CI and serial
console logs).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact, stripped substring of
  ``text`` and the only credential in it.  Every kind has exactly 30 positives.
* ``lookalikes``: texts with no credential at all.  ``_LOOK`` is a list of generator functions,
  each called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (one ``random.Random(seed)``); no text occurs twice in the output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs:
  the password only.  Pre-signed URLs: the signature.  PEM / OpenSSH private keys: the whole
  armoured block, BEGIN line to END line.
* UUID-shaped vendor tokens count only when the text names them as a token/key/secret.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client
  ids, Firebase web apiKeys, search-only keys, public keys and certificates), vendor
  documentation example values, encrypted blobs (Ansible vault, sops, PGP messages) and password
  hashes are look-alikes.  Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes are joined from pieces at run time
  and bodies are drawn from the seeded RNG.
"""

from __future__ import annotations

import base64
import json
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
HEX = "0123456789abcdef"
AL = UP + LO + DG
URLS = AL + "-_"
B64 = AL + "+/"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def uid(r: random.Random) -> str:
    h = rs(r, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


# --------------------------------------------------------------------------- fillers

PEOPLE = [
    "Sigrún",
    "Tomáš",
    "Ayşe",
    "Marisol",
    "Jomar",
    "Pieter",
    "Dana",
    "Kevin",
    "Hlynur",
    "Elif",
    "Ligaya",
    "Johan",
    "Rachel",
    "Óli",
    "Petra",
    "Carlos",
    "Nomvula",
    "Emre",
    "Jana",
    "Bea",
]
AIRPORTS = [
    "BIRK",
    "BIKF",
    "BIAR",
    "LKPR",
    "LKTB",
    "LTFM",
    "LTAC",
    "RPLL",
    "RPVM",
    "FAOR",
    "FACT",
    "FALA",
    "KBFI",
    "KPAE",
    "LEMD",
    "LEBL",
    "LEPA",
]
APPS = [
    "camo-sync",
    "crew-roster",
    "wx-fetch",
    "notam-bot",
    "adsb-bridge",
    "acars-gw",
    "booking-api",
    "parts-portal",
    "lms-sync",
    "sim-agent",
    "badge-sync",
    "invoice-bot",
    "hangar-door",
    "label-print",
]
HOSTS = [
    "ops-srv01",
    "camo-db01",
    "hangar-pi",
    "dispatch-nuc",
    "sim-pc03",
    "school-nas",
    "adsb-feeder",
    "mx-scanner02",
    "acars-edge",
    "office-vm7",
]
DOMAINS = [
    "northcape-air.is",
    "aerocharter.example",
    "kestrelair.co.za",
    "vltava-aviation.cz",
]
TZS = [
    "Atlantic/Reykjavik",
    "Europe/Prague",
    "Europe/Istanbul",
    "Asia/Manila",
    "Africa/Johannesburg",
]


def tail(r: random.Random) -> str:
    p = r.choice(["TF-", "OK-", "TC-", "RP-C", "ZS-", "N", "EC-"])
    if p == "N":
        return "N" + str(r.randint(100, 999)) + rs(r, UP, 2)
    if p == "RP-C":
        return p + str(r.randint(1000, 9999))
    return p + rs(r, UP, 3)


def fill(r: random.Random) -> dict:
    a, b = r.sample(PEOPLE, 2)
    hh, mm = r.randint(5, 21), r.randint(0, 55)
    return {
        "who": a,
        "who2": b,
        "who_l": a.lower().replace("ú", "u").replace("á", "a").replace("ş", "s").replace("ó", "o"),
        "dom": r.choice(DOMAINS),
        "tail": tail(r),
        "apt": r.choice(AIRPORTS),
        "date": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "time": f"{hh:02d}:{mm:02d}",
        "time2": f"{hh:02d}:{mm + 2:02d}",
        "time3": f"{hh:02d}:{mm + 4:02d}",
        "ticket": f"{r.choice(['OPS', 'MX', 'IT', 'SCH'])}-{r.randint(100, 4999)}",
        "host": r.choice(HOSTS),
        "ip": f"10.{r.randint(0, 40)}.{r.randint(0, 254)}.{r.randint(2, 250)}",
        "app": r.choice(APPS),
        "tz": r.choice(TZS),
        "n": r.randint(1, 9),
        "ts": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{hh:02d}:{mm:02d}:{r.randint(10, 59)}Z",
    }


# --------------------------------------------------------------------------- passwords

WORDS = [
    "tulip",
    "rover",
    "falcon",
    "glacier",
    "harbor",
    "puffin",
    "vector",
    "pitot",
    "rudder",
    "aileron",
    "lava",
    "summer",
    "winter",
    "kestrel",
    "mango",
    "sunrise",
    "cobalt",
    "vltava",
    "geysir",
    "karoo",
    "jeepney",
    "bosphorus",
    "hangar",
    "tango",
    "whiskey",
]


def password(r: random.Random, url_safe: bool = False) -> str:
    sym = "!*-_+" if url_safe else "!@*-_+?^&"
    kind = r.randrange(6)
    if kind == 0:
        return r.choice(WORDS).capitalize() + str(r.randint(2019, 2027)) + r.choice("!*?" if not url_safe else "!*")
    if kind == 1:
        a, b = r.sample(WORDS, 2)
        return f"{a}-{b.capitalize()}-{r.randint(10, 99)}"
    if kind == 2:
        body = rs(r, AL + sym, r.randint(14, 22))
        return r.choice(AL) + body + r.choice(AL)
    if kind == 3:
        sep = r.choice("-._")
        return sep.join(r.sample(WORDS, 4)) + str(r.randint(1, 9))
    if kind == 4:
        ac = r.choice(
            [
                "Cessna172",
                "Piper28",
                "Dash8",
                "Kingair",
                "Tecnam",
                "Diamond40",
                "Caravan",
            ]
        )
        return ac + r.choice(sym[:2]) + rs(r, UP, 2) + str(r.randint(10, 999))
    return rs(r, UP, 1) + rs(r, LO, r.randint(4, 7)) + str(r.randint(10, 9999)) + r.choice("!*") + rs(r, UP, 1)


# --------------------------------------------------------------------------- token bodies


def v_ghp(r):
    return "gh" + "p_" + rs(r, AL, 36)


def v_ghfg(r):
    return "github" + "_pat_" + "11" + rs(r, UP + DG, 20) + "_" + rs(r, AL, 59)


def v_glpat(r):
    return "glp" + "at-" + rs(r, URLS, 20)


def v_xoxb(r):
    return "xo" + "xb-" + rs(r, DG, 11) + "-" + rs(r, DG, 13) + "-" + rs(r, AL, 24)


def v_stripe_sk(r):
    return "sk" + "_live_" + "51" + rs(r, AL, r.choice([22, 97]))


def v_stripe_rk(r):
    return "rk" + "_live_" + "51" + rs(r, AL, 97)


def v_whsec(r):
    return "wh" + "sec_" + rs(r, AL, 32)


def v_aws_secret(r):
    return rs(r, AL + "/+", 40)


def v_gapi(r):
    return "AI" + "za" + "Sy" + rs(r, URLS, 33)


def v_gocspx(r):
    return "GOC" + "SPX-" + rs(r, URLS, 28)


def v_openai(r):
    return "sk-" + "proj-" + rs(r, URLS, 74) + "T3Blbk" + "FJ" + rs(r, URLS, 74)


def v_anthropic(r):
    return "sk-" + "ant-" + "api03-" + rs(r, URLS, 93) + "AA"


def v_sendgrid(r):
    return "S" + "G." + rs(r, URLS, 22) + "." + rs(r, URLS, 43)


def v_hex32(r):
    return rs(r, HEX, 32)


def v_mailgun(r):
    return "ke" + "y-" + rs(r, HEX, 32)


def v_npm(r):
    return "np" + "m_" + rs(r, AL, 36)


def v_pypi(r):
    return "py" + "pi-" + "AgEIcHlwaS5vcmc" + rs(r, URLS, 160)


def v_docker(r):
    return "dckr" + "_pat_" + rs(r, URLS, 27)


def v_telegram(r):
    return str(r.randint(5000000000, 7999999999)) + ":" + "AA" + rs(r, URLS, 33)


def v_sentry_user(r):
    return "sntr" + "yu_" + rs(r, HEX, 64)


def v_vault(r):
    return "hv" + "s." + "CAESI" + rs(r, URLS, 86)


def v_do(r):
    return "do" + "p_v1_" + rs(r, HEX, 64)


def v_cf(r):
    return rs(r, URLS, 40)


def v_square(r):
    return "EA" + "AA" + rs(r, URLS, 60)


def v_paypal_secret(r):
    return "E" + rs(r, URLS, 79)


def v_wg(r):
    return b64(r, 32)


def v_age(r):
    return "AGE-" + "SECRET-" + "KEY-1" + rs(r, BECH.upper(), 58)


def v_bitbucket(r):
    return "AT" + "BB" + rs(r, AL, 28) + rs(r, HEX.upper(), 8)


def v_atlassian(r):
    return "ATA" + "TT3xFfGF0" + rs(r, URLS, 170) + "=" + rs(r, HEX.upper(), 8)


def v_grafana(r):
    return "gl" + "sa_" + rs(r, AL, 32) + "_" + rs(r, HEX, 8)


def v_okta(r):
    return "00" + rs(r, URLS, 40)


def v_azure_secret(r):
    return rs(r, AL, 3) + "8Q~" + rs(r, AL + "_~.-", 33) + rs(r, AL, 1)


def v_al(n):
    return lambda r: rs(r, AL, n)


def v_urls(n):
    return lambda r: rs(r, URLS, n)


def v_hexn(n):
    return lambda r: rs(r, HEX, n)


def v_jwt(r):
    head = b64url(json.dumps({"alg": r.choice(["HS256", "RS256"]), "typ": "JWT"}, separators=(",", ":")).encode())
    body = {
        "sub": str(r.randint(10000, 99999)),
        "iss": r.choice(["leon", "fsp-api", "crew-portal", "acars-gw"]),
        "exp": 1790000000 + r.randint(0, 9999999),
    }
    return head + "." + b64url(json.dumps(body, separators=(",", ":")).encode()) + "." + rs(r, URLS, 43)


def v_mapbox(r):
    user = r.choice(["kestrelair", "northcape-ops", "vltava-sim", "charterops"])
    body = b64url(json.dumps({"u": user, "a": rs(r, LO + DG, 25)}, separators=(",", ":")).encode())
    return "s" + "k." + body + "." + rs(r, URLS, 22)


def v_django(r):
    return rs(r, LO + DG + "!@%^*(-_=+)", 50)


def v_gapp(r):
    return " ".join(rs(r, LO, 4) for _ in range(4))


def v_pw(r):
    return password(r)


def v_pw_url(r):
    return password(r, url_safe=True)


def v_wifi(r):
    k = r.randrange(3)
    if k == 0:
        return "-".join(r.sample(WORDS, 3)) + str(r.randint(10, 99))
    if k == 1:
        return rs(r, AL, r.randint(12, 20))
    return (
        r.choice(["FlightSchool", "GroundSchool", "Classroom", "Briefing"])
        + "!"
        + str(r.randint(2024, 2027))
        + rs(r, UP, 2)
    )


def v_pin_pw(r):
    return rs(r, DG, r.randint(6, 8))


def _pem(r: random.Random, label: str, nbytes: int, head: str = "") -> str:
    body = head + b64(r, nbytes)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    if label == "OPENSSH PRIVATE KEY":
        lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    dash = "-----"
    return f"{dash}BEGIN {label}{dash}\n" + "\n".join(lines) + f"\n{dash}END {label}{dash}"


def v_rsa(r):
    return _pem(r, "RSA " + "PRIVATE KEY", 1190, "MIIEow" + "IBAAKCAQEA")


def v_openssh(r):
    return _pem(r, "OPENSSH " + "PRIVATE KEY", 300, "b3BlbnNzaC1rZXktdjEAAAAA")


def v_ec(r):
    return _pem(r, "EC " + "PRIVATE KEY", 90, "MHcCAQEEI")


def v_pkcs8(r):
    return _pem(r, "PRIVATE" + " KEY", 1210, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC")


# --------------------------------------------------------------------------- kinds


def K(
    kind,
    gen,
    svc,
    desc,
    var,
    field,
    hdr=None,
    pref="",
    api=None,
    wrap=None,
    typ="key",
    user=None,
    only=None,
):
    return {
        "kind": kind,
        "gen": gen,
        "svc": svc,
        "desc": desc,
        "var": var,
        "field": field,
        "hdr": hdr,
        "pref": pref,
        "api": api,
        "wrap": wrap,
        "typ": typ,
        "user": user or "ops",
        "only": only,
    }


def w_pg(r, v):
    return f"postgresql://{r.choice(['camo_app', 'mx_ro', 'ops'])}:{v}@{r.choice(HOSTS)}.lan:5432/{r.choice(['camo', 'mx', 'roster'])}"


def w_mysql(r, v):
    return f"mysql://{r.choice(['booking', 'fsp_sync', 'wp'])}:{v}@{r.choice(HOSTS)}:3306/{r.choice(['school', 'booking'])}"


def w_mongo(r, v):
    return f"mongodb+srv://{r.choice(['adsb', 'tracks', 'ops'])}:{v}@cluster0.{rs(r, LO + DG, 5)}.mongodb.net/{r.choice(['tracks', 'fleet'])}?retryWrites=true&w=majority"


def w_redis(r, v):
    return f"redis://{r.choice(['', 'default'])}:{v}@{r.choice(HOSTS)}:6379/{r.randint(0, 3)}"


def w_amqp(r, v):
    return f"amqp://{r.choice(['acars', 'notam', 'celery'])}:{v}@{r.choice(HOSTS)}:5672/{r.choice(['ops', '%2F'])}"


def w_mssql(r, v):
    return f"Server={r.choice(HOSTS)}\\SQLEXPRESS;Database={r.choice(['Net2', 'BadgeDB', 'AccessCtl'])};User Id={r.choice(['net2svc', 'badge_rw'])};Password={v};TrustServerCertificate=True;"


def w_rtsp(r, v):
    return f"rtsp://{r.choice(['admin', 'viewer', 'mx'])}:{v}@10.{r.randint(0, 40)}.{r.randint(0, 254)}.{r.randint(2, 250)}:554/{r.choice(['Streaming/Channels/101', 'live/ch0', 'h264/main'])}"


def w_basic(r, v):
    return f"https://{r.choice(['admin', 'pi', 'feeder', 'zebra'])}:{v}@{r.choice(['adsb-feeder.lan', 'zd421-hangar.lan', 'door-ctl.lan', 'nas.school.lan'])}/{r.choice(['', 'status', 'config'])}"


def w_slack(r, v):
    return f"https://hooks.slack.com/services/T{rs(r, UP + DG, 10)}/B{rs(r, UP + DG, 10)}/{v}"


def w_discord(r, v):
    return f"https://discord.com/api/webhooks/{r.randint(10**17, 10**19)}/{v}"


def w_s3(r, v):
    key = f"{r.choice(['tech-log', 'arc', 'form1'])}/{tail(r)}/{r.randint(1000, 9999)}.pdf"
    return (
        f"https://{r.choice(['mx-records', 'camo-archive', 'school-docs'])}.s3.eu-west-1.amazonaws.com/{key}"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={'AS' + 'IA'}{rs(r, UP + DG, 16)}%2F20261206%2Feu-west-1%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20261206T{r.randint(10, 23)}0000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={v}"
    )


def w_sas(r, v):
    return (
        f"https://{r.choice(['mxdocs', 'schoolvideos', 'opsbackup'])}.blob.core.windows.net/{r.choice(['uploads', 'logs', 'scans'])}/"
        f"{tail(r)}-{r.randint(100, 999)}.zip?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-12-{r.randint(10, 28)}T00:00:00Z&spr=https&sig={v}"
    )


def w_gcs(r, v):
    return (
        f"https://storage.googleapis.com/{r.choice(['sim-recordings', 'lms-media'])}/{r.randint(1000, 9999)}.mp4"
        f"?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=uploader%40ops-{rs(r, LO, 5)}.iam.gserviceaccount.com%2F20261206%2Fauto%2Fstorage%2Fgoog4_request"
        f"&X-Goog-Date=20261206T101010Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={v}"
    )


def w_azstor(r, v):
    return f"DefaultEndpointsProtocol=https;AccountName={r.choice(['mxdocs', 'opsbackup', 'simrec'])};AccountKey={v};EndpointSuffix=core.windows.net"


def v_sas(r):
    return b64(r, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


PW = "pw"
URL = "url"
PEM = "pem"

KINDS = [
    K(
        "github_pat",
        v_ghp,
        "GitHub",
        "GitHub token for the ops-scripts repo",
        "GITHUB_TOKEN",
        "github_token",
        "Authorization",
        "token ",
        "api.github.com",
    ),
    K(
        "github_fine_grained_pat",
        v_ghfg,
        "GitHub",
        "fine-grained GitHub PAT (camo-sync repo, contents:read)",
        "GH_PAT",
        "gh_pat",
        "Authorization",
        "Bearer ",
        "api.github.com",
    ),
    K(
        "gitlab_pat",
        v_glpat,
        "GitLab",
        "GitLab personal access token for the sim-configs project",
        "GITLAB_TOKEN",
        "gitlab_token",
        "PRIVATE-TOKEN",
        "",
        "gitlab.com",
    ),
    K(
        "slack_bot_token",
        v_xoxb,
        "Slack",
        "Slack bot token for the #dispatch bot",
        "SLACK_BOT_TOKEN",
        "slack_bot_token",
        "Authorization",
        "Bearer ",
        "slack.com",
    ),
    K(
        "slack_webhook",
        v_al(24),
        "Slack",
        "Slack incoming webhook for #mx-alerts",
        "SLACK_WEBHOOK_URL",
        "webhook_url",
        wrap=w_slack,
        typ=URL,
    ),
    K(
        "discord_webhook",
        v_urls(68),
        "Discord",
        "Discord webhook for the student pilots server",
        "DISCORD_WEBHOOK",
        "discord_webhook",
        wrap=w_discord,
        typ=URL,
    ),
    K(
        "stripe_secret_key",
        v_stripe_sk,
        "Stripe",
        "Stripe live secret key (charter deposits)",
        "STRIPE_SECRET_KEY",
        "stripe_secret_key",
        "Authorization",
        "Bearer ",
        "api.stripe.com",
    ),
    K(
        "stripe_restricted_key",
        v_stripe_rk,
        "Stripe",
        "Stripe restricted key for payment links",
        "STRIPE_RK",
        "stripe_restricted_key",
        "Authorization",
        "Bearer ",
        "api.stripe.com",
    ),
    K(
        "stripe_webhook_secret",
        v_whsec,
        "Stripe",
        "Stripe webhook signing secret",
        "STRIPE_WEBHOOK_SECRET",
        "webhook_secret",
    ),
    K(
        "aws_secret_access_key",
        v_aws_secret,
        "AWS",
        "AWS secret access key for the tech-log archive bucket",
        "AWS_SECRET_ACCESS_KEY",
        "aws_secret_access_key",
    ),
    K(
        "google_api_key",
        v_gapi,
        "YouTube Data API",
        "server-side YouTube Data API key (school channel uploads)",
        "YOUTUBE_API_KEY",
        "youtube_api_key",
        "X-Goog-Api-Key",
        "",
        "youtube.googleapis.com",
    ),
    K(
        "google_oauth_client_secret",
        v_gocspx,
        "Google Workspace",
        "Google OAuth client secret for the roster calendar sync",
        "GOOGLE_CLIENT_SECRET",
        "client_secret",
    ),
    K(
        "openai_api_key",
        v_openai,
        "OpenAI",
        "OpenAI key for the NOTAM summarizer",
        "OPENAI_API_KEY",
        "openai_api_key",
        "Authorization",
        "Bearer ",
        "api.openai.com",
    ),
    K(
        "anthropic_api_key",
        v_anthropic,
        "Anthropic",
        "Anthropic API key for the tech-log assistant",
        "ANTHROPIC_API_KEY",
        "anthropic_api_key",
        "x-api-key",
        "",
        "api.anthropic.com",
    ),
    K(
        "sendgrid_api_key",
        v_sendgrid,
        "SendGrid",
        "SendGrid key for booking confirmations",
        "SENDGRID_API_KEY",
        "sendgrid_api_key",
        "Authorization",
        "Bearer ",
        "api.sendgrid.com",
    ),
    K(
        "twilio_auth_token",
        v_hex32,
        "Twilio",
        "Twilio auth token for crew SMS call-outs",
        "TWILIO_AUTH_TOKEN",
        "twilio_auth_token",
    ),
    K(
        "mailgun_api_key",
        v_mailgun,
        "Mailgun",
        "Mailgun API key for invoice mail",
        "MAILGUN_API_KEY",
        "mailgun_api_key",
    ),
    K(
        "npm_token",
        v_npm,
        "npm",
        "npm automation token for the booking widget package",
        "NPM_TOKEN",
        "npm_token",
    ),
    K(
        "pypi_token",
        v_pypi,
        "PyPI",
        "PyPI upload token for the metar-tools package",
        "PYPI_TOKEN",
        "pypi_token",
    ),
    K(
        "docker_hub_pat",
        v_docker,
        "Docker Hub",
        "Docker Hub access token for the sim-agent images",
        "DOCKERHUB_TOKEN",
        "dockerhub_token",
    ),
    K(
        "telegram_bot_token",
        v_telegram,
        "Telegram",
        "Telegram bot token for the NOTAM alert bot",
        "TELEGRAM_BOT_TOKEN",
        "telegram_bot_token",
    ),
    K(
        "datadog_api_key",
        v_hex32,
        "Datadog",
        "Datadog API key for the hangar sensors",
        "DD_API_KEY",
        "dd_api_key",
        "DD-API-KEY",
        "",
        "api.datadoghq.eu",
    ),
    K(
        "sentry_auth_token",
        v_sentry_user,
        "Sentry",
        "Sentry user auth token for release uploads",
        "SENTRY_AUTH_TOKEN",
        "sentry_auth_token",
        "Authorization",
        "Bearer ",
        "sentry.io",
    ),
    K(
        "vault_token",
        v_vault,
        "HashiCorp Vault",
        "Vault token for the ops namespace",
        "VAULT_TOKEN",
        "vault_token",
        "X-Vault-Token",
        "",
        "vault.ops.lan:8200",
    ),
    K(
        "digitalocean_token",
        v_do,
        "DigitalOcean",
        "DigitalOcean token for the booking droplet",
        "DIGITALOCEAN_TOKEN",
        "do_token",
        "Authorization",
        "Bearer ",
        "api.digitalocean.com",
    ),
    K(
        "cloudflare_api_token",
        v_cf,
        "Cloudflare",
        "Cloudflare API token (DNS edit, flightschool zone)",
        "CLOUDFLARE_API_TOKEN",
        "cf_api_token",
        "Authorization",
        "Bearer ",
        "api.cloudflare.com",
    ),
    K(
        "square_access_token",
        v_square,
        "Square",
        "Square access token for the hangar shop POS",
        "SQUARE_ACCESS_TOKEN",
        "square_access_token",
        "Authorization",
        "Bearer ",
        "connect.squareup.com",
    ),
    K(
        "paypal_client_secret",
        v_paypal_secret,
        "PayPal",
        "PayPal REST client secret (payment links)",
        "PAYPAL_CLIENT_SECRET",
        "paypal_client_secret",
    ),
    K(
        "azure_storage_account_key",
        lambda r: b64(r, 64),
        "Azure Storage",
        "Azure storage connection string",
        "AZURE_STORAGE_CONNECTION_STRING",
        "storage_conn",
        wrap=w_azstor,
        typ=URL,
    ),
    K(
        "azure_sas_signature",
        v_sas,
        "Azure Blob",
        "SAS link to the maintenance export",
        "EXPORT_SAS_URL",
        "sas_url",
        wrap=w_sas,
        typ=URL,
    ),
    K(
        "aws_presigned_url_signature",
        v_hexn(64),
        "S3",
        "pre-signed link for the tech-log PDF",
        "TECHLOG_URL",
        "download_url",
        wrap=w_s3,
        typ=URL,
    ),
    K(
        "gcs_signed_url_signature",
        v_hexn(512),
        "Google Cloud Storage",
        "signed URL for the sim recording",
        "RECORDING_URL",
        "signed_url",
        wrap=w_gcs,
        typ=URL,
    ),
    K(
        "google_app_password",
        v_gapp,
        "Google Workspace",
        "Gmail app password for the scanner-to-mail SMTP relay",
        "SMTP_PASSWORD",
        "smtp_password",
        typ=PW,
        user="scanner@",
    ),
    K(
        "django_secret_key",
        v_django,
        "Django",
        "Django SECRET_KEY of the booking portal",
        "DJANGO_SECRET_KEY",
        "secret_key",
    ),
    K(
        "mapbox_secret_token",
        v_mapbox,
        "Mapbox",
        "Mapbox secret token (downloads scope) for the charter map",
        "MAPBOX_SECRET_TOKEN",
        "mapbox_token",
    ),
    K(
        "wireguard_private_key",
        v_wg,
        "WireGuard",
        "WireGuard private key of the hangar Pi",
        "WG_PRIVATE_KEY",
        "PrivateKey",
    ),
    K(
        "age_secret_key",
        v_age,
        "age/sops",
        "age secret key used by sops",
        "SOPS_AGE_KEY",
        "age_key",
    ),
    K(
        "bitbucket_app_password",
        v_bitbucket,
        "Bitbucket",
        "Bitbucket app password for the CAMO vendor repo",
        "BITBUCKET_APP_PASSWORD",
        "bitbucket_password",
    ),
    K(
        "atlassian_api_token",
        v_atlassian,
        "Jira",
        "Atlassian API token for the MX Jira board",
        "JIRA_API_TOKEN",
        "jira_token",
    ),
    K(
        "grafana_service_account_token",
        v_grafana,
        "Grafana",
        "Grafana service account token for the hangar dashboard",
        "GRAFANA_TOKEN",
        "grafana_token",
        "Authorization",
        "Bearer ",
        "grafana.ops.lan",
    ),
    K(
        "okta_api_token",
        v_okta,
        "Okta",
        "Okta API token (SSWS) for user provisioning",
        "OKTA_API_TOKEN",
        "okta_token",
        "Authorization",
        "SSWS ",
        "kestrelair.okta.com",
    ),
    K(
        "azure_client_secret",
        v_azure_secret,
        "Microsoft 365",
        "Entra ID app client secret for the M365 mailbox sync",
        "AZURE_CLIENT_SECRET",
        "client_secret",
    ),
    K(
        "xero_client_secret",
        v_urls(48),
        "Xero",
        "Xero OAuth client secret",
        "XERO_CLIENT_SECRET",
        "xero_client_secret",
    ),
    K(
        "quickbooks_client_secret",
        v_al(40),
        "QuickBooks Online",
        "QuickBooks Online client secret",
        "QBO_CLIENT_SECRET",
        "qbo_client_secret",
    ),
    K(
        "zoom_client_secret",
        v_al(32),
        "Zoom",
        "Zoom Server-to-Server OAuth client secret (ground school)",
        "ZOOM_CLIENT_SECRET",
        "zoom_client_secret",
    ),
    K(
        "moodle_ws_token",
        v_hex32,
        "Moodle",
        "Moodle web service token (wstoken) for grade sync",
        "MOODLE_TOKEN",
        "wstoken",
    ),
    K(
        "talentlms_api_key",
        v_al(30),
        "TalentLMS",
        "TalentLMS API key for the recurrent training courses",
        "TALENTLMS_API_KEY",
        "talentlms_api_key",
    ),
    K(
        "flight_schedule_pro_api_key",
        v_hex32,
        "Flight Schedule Pro",
        "Flight Schedule Pro API subscription key",
        "FSP_API_KEY",
        "fsp_api_key",
        "x-subscription-key",
        "",
        "api.flightschedulepro.com",
    ),
    K(
        "jwt_bearer_token",
        v_jwt,
        "crew portal",
        "bearer token for the crew portal API",
        "CREW_API_TOKEN",
        "access_token",
        "Authorization",
        "Bearer ",
        "crew.ops.lan",
    ),
    K(
        "flightaware_aeroapi_key",
        v_al(32),
        "FlightAware AeroAPI",
        "FlightAware AeroAPI key",
        "AEROAPI_KEY",
        "aeroapi_key",
        "x-apikey",
        "",
        "aeroapi.flightaware.com",
    ),
    K(
        "flightradar24_sharing_key",
        v_hexn(16),
        "Flightradar24 feeder",
        "FR24 sharing key of the roof feeder",
        "FR24KEY",
        "fr24key",
    ),
    K(
        "windy_api_key",
        v_al(32),
        "Windy",
        "Windy Point Forecast API key",
        "WINDY_API_KEY",
        "windy_key",
    ),
    K(
        "tomorrow_io_api_key",
        v_al(32),
        "Tomorrow.io",
        "Tomorrow.io API key for crosswind alerts",
        "TOMORROW_API_KEY",
        "tomorrow_apikey",
    ),
    K(
        "avwx_api_token",
        v_urls(43),
        "AVWX",
        "AVWX API token for METAR/TAF",
        "AVWX_TOKEN",
        "avwx_token",
        "Authorization",
        "BEARER ",
        "avwx.rest",
    ),
    K(
        "amadeus_api_secret",
        v_al(16),
        "Amadeus for Developers",
        "Amadeus test API secret",
        "AMADEUS_CLIENT_SECRET",
        "amadeus_client_secret",
    ),
    K(
        "sabre_client_secret",
        v_al(8),
        "Sabre Dev Studio",
        "Sabre CERT client secret",
        "SABRE_CLIENT_SECRET",
        "sabre_secret",
    ),
    K(
        "acars_gateway_shared_secret",
        v_hexn(40),
        "ACARS gateway",
        "ACARS gateway HMAC shared secret",
        "ACARS_GW_SECRET",
        "shared_secret",
    ),
    K(
        "leon_refresh_token",
        v_al(64),
        "Leon",
        "Leon API refresh token for crew schedule import",
        "LEON_REFRESH_TOKEN",
        "refresh_token",
    ),
    K(
        "postgres_password",
        v_pw_url,
        "CAMO database",
        "CAMO Postgres URL",
        "DATABASE_URL",
        "database_url",
        wrap=w_pg,
        typ=URL,
    ),
    K(
        "mysql_password",
        v_pw_url,
        "booking database",
        "booking MySQL URL",
        "BOOKING_DB_URL",
        "db_url",
        wrap=w_mysql,
        typ=URL,
    ),
    K(
        "mongodb_password",
        v_pw_url,
        "ADS-B track store",
        "MongoDB Atlas URI for ADS-B tracks",
        "MONGO_URI",
        "mongo_uri",
        wrap=w_mongo,
        typ=URL,
    ),
    K(
        "redis_password",
        v_pw_url,
        "Redis",
        "Redis URL for the NOTAM cache",
        "REDIS_URL",
        "redis_url",
        wrap=w_redis,
        typ=URL,
    ),
    K(
        "amqp_password",
        v_pw_url,
        "RabbitMQ",
        "RabbitMQ URL for ACARS messages",
        "AMQP_URL",
        "broker_url",
        wrap=w_amqp,
        typ=URL,
    ),
    K(
        "mssql_password",
        v_pw,
        "badge system",
        "badge system (Net2) SQL connection string",
        "NET2_DB",
        "ConnectionString",
        wrap=w_mssql,
        typ=URL,
    ),
    K(
        "rtsp_password",
        v_pw_url,
        "borescope / hangar camera",
        "RTSP URL of the hangar camera",
        "CAMERA_URL",
        "rtsp_url",
        wrap=w_rtsp,
        typ=URL,
    ),
    K(
        "basic_auth_url_password",
        v_pw_url,
        "device web UI",
        "web UI URL with login",
        "DEVICE_URL",
        "device_url",
        wrap=w_basic,
        typ=URL,
    ),
    K(
        "mqtt_password",
        v_pw,
        "hangar door controller",
        "MQTT password of the hangar door controller",
        "MQTT_PASSWORD",
        "mqtt_password",
        typ=PW,
        user="doorctl",
    ),
    K(
        "sftp_password",
        v_pw,
        "regulator SFTP",
        "password for the CAA SFTP exchange",
        "CAA_SFTP_PASSWORD",
        "sftp_password",
        typ=PW,
        user="op-kestrel",
    ),
    K(
        "wifi_psk",
        v_wifi,
        "classroom Wi-Fi",
        "WPA2 passphrase of the classroom Wi-Fi",
        "WIFI_PSK",
        "psk",
        typ=PW,
        user="FlightSchool-Class",
    ),
    K(
        "foreflight_password",
        v_pw,
        "ForeFlight",
        "ForeFlight dispatch account password",
        "FOREFLIGHT_PASSWORD",
        "foreflight_password",
        typ=PW,
        user="dispatch@",
    ),
    K(
        "jeppesen_password",
        v_pw,
        "Jeppesen",
        "Jeppesen (JeppView) account password",
        "JEPP_PASSWORD",
        "jepp_password",
        typ=PW,
        user="charts@",
    ),
    K(
        "m365_account_password",
        v_pw,
        "Microsoft 365",
        "M365 password of the shared ops mailbox",
        "M365_PASSWORD",
        "m365_password",
        typ=PW,
        user="ops@",
    ),
    K(
        "windows_admin_password",
        v_pw,
        "simulator PC",
        "local Administrator password of the sim PCs",
        "SIM_ADMIN_PASSWORD",
        "admin_password",
        typ=PW,
        user="Administrator",
    ),
    K(
        "vnc_password",
        v_pw,
        "simulator PC VNC",
        "VNC password for the instructor station",
        "VNC_PASSWORD",
        "vnc_password",
        typ=PW,
        user="instructor",
    ),
    K(
        "label_printer_admin_password",
        v_pw,
        "Zebra label printer",
        "admin password of the parts-store label printer",
        "PRINTER_ADMIN_PASSWORD",
        "printer_password",
        typ=PW,
        user="admin",
    ),
    K(
        "ssh_password",
        v_pw,
        "scanner PC",
        "SSH password for the mx scanner box",
        "SSHPASS",
        "ssh_password",
        typ=PW,
        user="mxtech",
    ),
    K(
        "door_controller_pin",
        v_pin_pw,
        "hangar door controller",
        "maintenance PIN (admin) of the hangar door controller",
        "DOOR_ADMIN_PIN",
        "admin_pin",
        typ=PW,
        user="admin",
    ),
    K(
        "rsa_private_key",
        v_rsa,
        "regulator SFTP",
        "RSA private key for the CAA SFTP",
        "CAA_SFTP_KEY",
        "private_key",
        typ=PEM,
    ),
    K(
        "openssh_private_key",
        v_openssh,
        "deploy",
        "deploy key of the hangar Pi",
        "DEPLOY_KEY",
        "ssh_key",
        typ=PEM,
    ),
    K(
        "ec_private_key",
        v_ec,
        "ACARS gateway",
        "EC private key of the ACARS gateway TLS client cert",
        "ACARS_TLS_KEY",
        "tls_key",
        typ=PEM,
    ),
    K(
        "pkcs8_private_key",
        v_pkcs8,
        "Google service account",
        "service account private key for the Workspace sync",
        "GSA_KEY",
        "private_key",
        typ=PEM,
    ),
]

# --------------------------------------------------------------------------- templates

LANG = {
    "es": {PW: "contraseña", "key": "clave", URL: "URL", PEM: "clave privada"},
    "is": {PW: "lykilorðið", "key": "lykillinn", URL: "slóðin", PEM: "einkalykillinn"},
    "cs": {PW: "heslo", "key": "klíč", URL: "URL", PEM: "privátní klíč"},
    "tr": {PW: "şifre", "key": "anahtar", URL: "URL", PEM: "özel anahtar"},
    "fil": {PW: "password", "key": "API key", URL: "URL", PEM: "private key"},
    "af": {PW: "wagwoord", "key": "sleutel", URL: "URL", PEM: "privaat sleutel"},
}


def single(d):
    return "\n" not in d


def t_note(r, k, d, c):
    return f"{c['date']} note: {k['desc']} for {k['svc']} is {d}\n(set up by {c['who']} for the {c['tail']} ferry to {c['apt']})"


def t_lesson(r, k, d, c):
    return (
        f"Lesson learned: {k['svc']} calls failed all morning at {c['apt']} because {c['app']} cached the old value. "
        f"Current {k['desc']}:\n{d}\nRestart {c['app']} after changing it, the cache does not reload."
    )


def t_runbook(r, k, d, c):
    if not single(d):
        return None
    return (
        f"## Runbook: {k['svc']} outage\n1. ssh {c['who_l']}@{c['host']}\n"
        f"2. sudo -e /etc/{c['app']}/env and set {k['var']}={d}\n3. sudo systemctl restart {c['app']}\n"
        f"4. Confirm the {c['tail']} schedule reloads in dispatch."
    )


def t_todo(r, k, d, c):
    return (
        f"- [ ] TODO({c['who']}): move the {k['desc']} out of this note: {d}\n"
        f"- [ ] check {c['tail']} MEL items before {c['date']}\n- [x] renew {c['apt']} slot"
    )


def t_ticket(r, k, d, c):
    return (
        f"Ticket {c['ticket']}: {k['svc']} sync broken for {c['tail']}\nReporter: {c['who']}\nPriority: P{c['n'] % 3 + 2}\n\n"
        f"Repro: configured {k['var']} = {d} on {c['host']}, ran the nightly job, "
        f"got HTTP {r.choice([401, 403, 500, 502])} once, then it worked."
    )


def t_email(r, k, d, c):
    return (
        f"From: {c['who_l']}@{c['dom']}\nTo: ops@{c['dom']}\nSubject: {k['svc']} access for the {c['apt']} base\n\n"
        f"Hi all,\n\nthe {k['desc']} is:\n\n{d}\n\nPlease keep it in the vault, not on the hangar whiteboard.\n\nCheers,\n{c['who']}"
    )


def t_chat(r, k, d, c):
    return (
        f"[{c['time']}] {c['who']}: anyone have the {k['desc']}?\n[{c['time2']}] {c['who2']}: {d}\n"
        f"[{c['time3']}] {c['who']}: thx, {k['svc']} works again on the {c['tail']} iPad"
    )


def t_es(r, k, d, c):
    w = LANG["es"][k["typ"]]
    return f"Nota para el equipo de {c['apt']}: {w} de {k['svc']} ({c['app']}):\n{d}\nNo la compartan con los alumnos. — {c['who']}"


def t_is(r, k, d, c):
    w = LANG["is"][k["typ"]]
    return f"Minnispunktur ({c['date']}): {w} fyrir {k['svc']} á {c['host']} er\n{d}\nEkki deila með nemendum. Kv. {c['who']}"


def t_cs(r, k, d, c):
    w = LANG["cs"][k["typ"]]
    return (
        f"Poznámka z hangáru ({c['tail']}): {w} pro {k['svc']} je {d}\nNesdílet mimo údržbu. ({c['who']}, {c['date']})"
    )


def t_tr(r, k, d, c):
    w = LANG["tr"][k["typ"]]
    return f"Not ({c['apt']} üssü): {k['svc']} için {w}: {d}\nÖğrencilerle paylaşmayın. — {c['who']} {c['date']}"


def t_fil(r, k, d, c):
    w = LANG["fil"][k["typ"]]
    return f"Paalala: ang {w} para sa {k['svc']} sa {c['host']} ay {d}\nHuwag ibahagi sa mga estudyante. Salamat, {c['who']}"


def t_af(r, k, d, c):
    w = LANG["af"][k["typ"]]
    return f"Nota vir die hangar-span ({c['tail']}): die {w} vir {k['svc']} is {d}\nMoenie dit met studente deel nie. — {c['who']}"


def t_env(r, k, d, c):
    if not single(d):
        return None
    return (
        f"# {k['svc']} ({c['app']})\nTZ={c['tz']}\nLOG_LEVEL={r.choice(['info', 'debug', 'warn'])}\n"
        f"{k['var']}={d}\nBASE_AIRPORT={c['apt']}\n"
    )


def t_compose(r, k, d, c):
    if not single(d):
        return None
    return (
        f"services:\n  {c['app']}:\n    image: ghcr.io/kestrelair/{c['app']}:{r.randint(1, 4)}.{r.randint(0, 20)}\n"
        f"    restart: unless-stopped\n    environment:\n      - TZ={c['tz']}\n      - {k['var']}={d}\n"
        f"      - BASE_AIRPORT={c['apt']}\n"
    )


def t_json(r, k, d, c):
    if not single(d):
        return None
    doc = {
        "service": c["app"],
        "base": c["apt"],
        k["field"]: d,
        "retries": c["n"],
        "timezone": c["tz"],
    }
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    return text


def t_yaml(r, k, d, c):
    if not single(d):
        return None
    return (
        f"# {c['app']} settings ({c['who']}, {c['date']})\n{c['app'].replace('-', '_')}:\n  base: {c['apt']}\n"
        f'  {k["field"]}: "{d}"\n  poll_seconds: {c["n"] * 30}\n'
    )


def t_ini(r, k, d, c):
    if not single(d):
        return None
    return f"[{c['app']}]\nhost = {c['host']}\nuser = {k['user']}\n{k['field']} = {d}\nbase = {c['apt']}\n"


def t_winini(r, k, d, c):
    if not single(d):
        return None
    return (
        f"; {k['svc']} settings for SIM-PC{c['n']:02d}\n[Connection]\nServer={c['host']}\nUser={k['user']}\n"
        f"{k['field'].title().replace('_', '')}={d}\nAutoLogin=1\n"
    )


def t_ps1(r, k, d, c):
    if not single(d):
        return None
    if k["typ"] == PW:
        return (
            f'$pw = ConvertTo-SecureString "{d}" -AsPlainText -Force\n'
            f'$cred = New-Object System.Management.Automation.PSCredential("{k["user"]}", $pw)\n'
            f"Invoke-Command -ComputerName {c['host'].upper()} -Credential $cred -ScriptBlock {{ Restart-Service {c['app']} }}"
        )
    return f'$env:{k["var"]} = "{d}"\n& C:\\ops\\{c["app"]}\\sync.ps1 -Tail {c["tail"]} -Base {c["apt"]}'


def t_systemd(r, k, d, c):
    if not single(d):
        return None
    return (
        f"[Unit]\nDescription={c['app']} ({k['svc']})\nAfter=network-online.target\n\n[Service]\n"
        f'User={c["app"].replace("-", "")}\nEnvironment=TZ={c["tz"]}\nEnvironment="{k["var"]}={d}"\n'
        f"ExecStart=/opt/{c['app']}/bin/{c['app']}\nRestart=always\n\n[Install]\nWantedBy=multi-user.target"
    )


def t_shell(r, k, d, c):
    if not single(d):
        return None
    return (
        f"{c['who_l']}@{c['host']}:~$ export {k['var']}='{d}'\n{c['who_l']}@{c['host']}:~$ ./{c['app']} sync --tail {c['tail']}\n"
        f"[{c['time']}] fetched {c['n'] * 7} records for {c['apt']}\nOK"
    )


def t_curl(r, k, d, c):
    if not k["hdr"] or not single(d):
        return None
    path = r.choice(
        [
            "/v1/status",
            "/api/v2/items?limit=50",
            "/user",
            "/v1/flights?base=" + c["apt"],
        ]
    )
    return (
        f"*   Trying {c['ip']}:443...\n* Connected to {k['api']} ({c['ip']}) port 443\n"
        f"> GET {path} HTTP/1.1\n> Host: {k['api']}\n> User-Agent: curl/8.5.0\n> Accept: */*\n"
        f"> {k['hdr']}: {k['pref']}{d}\n>\n< HTTP/1.1 {r.choice([200, 200, 401, 429])} \n< Content-Type: application/json\n"
        f"< X-Request-Id: {uid(r)}\n<\n* Connection #0 to host {k['api']} left intact"
    )


def t_curl_post(r, k, d, c):
    if k["typ"] != URL or (not d.startswith("https://hooks") and "discord" not in d):
        return None
    return (
        f"$ curl -v -X POST -H 'Content-Type: application/json' "
        f'-d \'{{"text":"{c["tail"]} AOG at {c["apt"]}"}}\' {d}\n* Connected port 443\n< HTTP/2 {r.choice([200, 204])}'
    )


def t_container(r, k, d, c):
    if not single(d):
        return None
    return (
        f"{c['app']}-1  | {c['ts']} INFO starting {c['app']} v{c['n']}.{r.randint(0, 9)}\n"
        f"{c['app']}-1  | {c['ts']} DEBUG config loaded: {{'base': '{c['apt']}', '{k['field']}': '{d}', 'retries': 3}}\n"
        f"{c['app']}-1  | {c['ts']} INFO listening on :8080"
    )


def t_ci(r, k, d, c):
    if not single(d):
        return None
    return (
        f"{c['ts']} ##[group]Run ./deploy.sh {c['app']}\n{c['ts']} + export {k['var']}={d}\n"
        f"{c['ts']} + ./deploy.sh --target {c['host']}\n{c['ts']} Deploying {c['app']} to {c['host']} ({c['apt']})\n"
        f"{c['ts']} ##[endgroup]"
    )


def t_sshcat(r, k, d, c):
    f = (
        f"/etc/{c['app']}/secrets.conf"
        if single(d)
        else f"~/.ssh/{r.choice(['id_rsa', 'caa_sftp', 'deploy_key', 'id_ecdsa'])}"
    )
    body = f"{k['field']}={d}" if single(d) else d
    return f"{c['who_l']}@{c['host']}:~$ cat {f}\n{body}\n{c['who_l']}@{c['host']}:~$ "


def t_serial(r, k, d, c):
    if not single(d):
        return None
    return (
        f"{c['host']} login: root\nPassword:\n\nBusyBox v1.36.1 built-in shell (ash)\n# cat /etc/{c['app']}.conf\n"
        f"broker={c['ip']}\n{k['field']}={d}\nlog=/var/log/{c['app']}.log\n# "
    )


def t_python(r, k, d, c):
    if not single(d):
        return None
    mod = c["app"].replace("-", "_")
    return f'from {mod} import Client\n\nclient = Client(\n    base="{c["apt"]}",\n    {k["field"].lower()}="{d}",\n)\nclient.sync(tail="{c["tail"]}")\n'


def t_tf_heredoc(r, k, d, c):
    if single(d):
        return None
    return (
        f'resource "local_sensitive_file" "{c["app"].replace("-", "_")}_key" {{\n'
        f'  filename = "/etc/{c["app"]}/key.pem"\n  content  = <<-EOT\n{d}\nEOT\n}}'
    )


PROSE_EN = [t_note, t_lesson, t_runbook, t_todo, t_ticket, t_email, t_chat]
PROSE_XX = [t_es, t_is, t_cs, t_tr, t_fil, t_af]
CONFIG = [
    t_env,
    t_compose,
    t_json,
    t_yaml,
    t_ini,
    t_winini,
    t_ps1,
    t_systemd,
    t_python,
    t_tf_heredoc,
]
TOOL = [t_shell, t_curl, t_curl_post, t_container, t_ci, t_sshcat, t_serial]
TEMPLATES = PROSE_EN + PROSE_XX + CONFIG + TOOL


# kind-specific extra templates (themed configs)
def x_piaware(r, k, d, c):
    if k["kind"] != "flightradar24_sharing_key":
        return None
    return (
        f'# /etc/fr24feed.ini on {c["host"]}\nreceiver="beast-tcp"\nfr24key="{d}"\nhost="127.0.0.1:30005"\n'
        f'bs="no"\nraw="no"\nlogmode="1"\nmlat="yes"\nmlat-without-gps="yes"'
    )


def x_wifi(r, k, d, c):
    if k["kind"] != "wifi_psk":
        return None
    return (
        f'network={{\n    ssid="FlightSchool-{r.choice(["Class", "Brief", "Sim"])}{c["n"]}"\n    psk="{d}"\n'
        f"    key_mgmt=WPA-PSK\n}}"
    )


def x_wg(r, k, d, c):
    if k["kind"] != "wireguard_private_key":
        return None
    return (
        f"[Interface]\nAddress = 10.66.{c['n']}.2/32\nPrivateKey = {d}\nDNS = 10.66.0.1\n\n[Peer]\n"
        f"PublicKey = {b64(r, 32)}\nEndpoint = vpn.{c['dom']}:51820\nAllowedIPs = 10.66.0.0/16"
    )


def x_sshpass(r, k, d, c):
    if k["kind"] != "ssh_password":
        return None
    return f"$ sshpass -p '{d}' ssh mxtech@{c['ip']} 'ls /scans/{c['tail']}'\nWO-{c['n']}{r.randint(100, 999)}.pdf\n"


def x_twilio(r, k, d, c):
    if k["kind"] != "twilio_auth_token":
        return None
    return f"TWILIO_ACCOUNT_SID={'A' + 'C'}{rs(r, HEX, 32)}\nTWILIO_AUTH_TOKEN={d}\nTWILIO_FROM=+354{r.randint(5000000, 8999999)}\n"


QUERY = {
    "moodle_ws_token": (
        "lms.kestrelair.example/webservice/rest/server.php",
        "wstoken",
        "&wsfunction=core_user_get_users&moodlewsrestformat=json",
    ),
    "tomorrow_io_api_key": (
        "api.tomorrow.io/v4/weather/forecast",
        "apikey",
        "&timesteps=1h&units=metric",
    ),
    "avwx_api_token": ("avwx.rest/api/metar/{apt}", "token", "&format=json"),
    "windy_api_key": ("api.windy.com/webcams/api/v3/webcams", "key", "&limit=10"),
}


def x_query(r, k, d, c):
    if k["kind"] not in QUERY:
        return None
    path, param, rest = QUERY[k["kind"]]
    url = f"https://{path.format(apt=c['apt'])}?{param}={d}{rest}"
    if r.random() < 0.5:
        return f"{c['ts']} {c['app']} GET {url} -> {r.choice([200, 200, 429, 503])} ({r.randint(40, 900)} ms)"
    return f"quick test from {c['host']} ({c['who']}):\ncurl -s '{url}' | jq '.data | length'"


EXTRA = [x_piaware, x_wifi, x_wg, x_sshpass, x_twilio, x_query]


# --------------------------------------------------------------------------- look-alikes

_LOOK: list = []


def look(f):
    _LOOK.append(f)
    return f


@look
def l_commit(r, c):
    return f"Deployed {c['app']} to {c['host']} at commit {rs(r, HEX, 40)} ({c['who']}, {c['date']}). Rollback: git checkout the previous tag."


@look
def l_short_sha(r, c):
    return f"{c['ts']} CI build #{r.randint(100, 9999)} for {c['app']} @ {rs(r, HEX, 7)} passed ({r.randint(40, 300)} tests)"


@look
def l_sha256_firmware(r, c):
    f = f"dump1090-fa_{c['n']}.{r.randint(0, 9)}_arm64.deb"
    return f"$ sha256sum {f}\n{rs(r, HEX, 64)}  {f}\nmatches the value on the FlightAware download page ({c['who']})"


@look
def l_md5_scan(r, c):
    return f"Borescope export {c['tail']}_eng{c['n'] % 2 + 1}.mp4 md5={rs(r, HEX, 32)} uploaded to CAMO, size {r.randint(20, 900)} MB"


@look
def l_request_id(r, c):
    return f"{c['ts']} WARN {c['app']} upstream 503 from Leon API, X-Request-Id: {uid(r)}, retry in {c['n']}s"


@look
def l_image_digest(r, c):
    return f"services:\n  {c['app']}:\n    image: ghcr.io/kestrelair/{c['app']}@sha256:{rs(r, HEX, 64)}\n    restart: always\n"


@look
def l_data_uri(r, c):
    return f'<img alt="{c["tail"]} logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{b64(r, 96)}" />'


@look
def l_model_id(r, c):
    m = r.choice(
        [
            "openai/whisper-small",
            "openai/whisper-medium.en",
            "facebook/bart-large-cnn",
            "sentence-transformers/all-MiniLM-L6-v2",
        ]
    )
    return (
        f"ATIS transcription uses model {m} at revision {rs(r, HEX, 40)}; batch size {c['n'] * 4}, runs on {c['host']}."
    )


@look
def l_wandb_run(r, c):
    return f"wandb run {rs(r, LO + DG, 8)} (project notam-summarizer) finished: rouge-L {r.random():.3f}, logged by {c['who']}"


@look
def l_mlflow_run(r, c):
    return f"mlflow run_id={rs(r, HEX, 32)} experiment_id={r.randint(1, 40)} status=FINISHED metric.mae_fuel_kg={r.uniform(20, 90):.2f}"


@look
def l_stripe_pk(r, c):
    return f"<script>\n  const stripe = Stripe('{'pk' + '_live_'}51{rs(r, AL, 97)}');\n  // publishable key, safe in the browser\n</script>"


@look
def l_google_client_id(r, c):
    return f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12 - 1)}-{rs(r, LO + DG, 32)}.apps.googleusercontent.com\n# client secret lives in 1Password, not here"


@look
def l_firebase_cfg(r, c):
    return (
        "const firebaseConfig = {\n"
        f'  apiKey: "{"AI" + "zaSy"}{rs(r, URLS, 33)}",\n'
        f'  authDomain: "booking-{rs(r, LO, 4)}.firebaseapp.com",\n'
        f'  projectId: "booking-{rs(r, LO, 4)}",\n'
        f'  appId: "1:{r.randint(10**11, 10**12 - 1)}:web:{rs(r, HEX, 22)}"\n}};'
    )


@look
def l_sentry_dsn(r, c):
    return f"SENTRY_DSN=https://{rs(r, HEX, 32)}@o{r.randint(100000, 999999)}.ingest.sentry.io/{r.randint(1000000, 9999999)}\nSENTRY_ENVIRONMENT=production"


@look
def l_supabase_anon(r, c):
    head = b64url(b'{"alg":"HS256","typ":"JWT"}')
    body = b64url(
        json.dumps(
            {
                "iss": "supabase",
                "ref": rs(r, LO, 20),
                "role": "anon",
                "iat": 1700000000 + r.randint(0, 9999999),
            }
        ).encode()
    )
    return f"NEXT_PUBLIC_SUPABASE_URL=https://{rs(r, LO, 20)}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={head}.{body}.{rs(r, URLS, 43)}"


@look
def l_recaptcha(r, c):
    return f'<div class="g-recaptcha" data-sitekey="6L{rs(r, URLS, 38)}"></div>\n<!-- site key for the trial-lesson booking form -->'


@look
def l_algolia_search(r, c):
    return f"ALGOLIA_APP_ID={rs(r, UP + DG, 10)}\nALGOLIA_SEARCH_ONLY_KEY={rs(r, HEX, 32)}\n# search-only key, shipped in the parts-catalog frontend"


@look
def l_mapbox_pk(r, c):
    body = b64url(json.dumps({"u": "kestrelair", "a": rs(r, LO + DG, 25)}, separators=(",", ":")).encode())
    return (
        f"mapboxgl.accessToken = '{'p' + 'k.'}{body}.{rs(r, URLS, 22)}'; // public token, URL-restricted to {c['dom']}"
    )


@look
def l_placeholder_angle(r, c):
    v = r.choice(["<your-api-key>", "<YOUR_WINDY_KEY>", "<paste token here>", "<aeroapi-key>"])
    return f"curl -H 'x-apikey: {v}' 'https://aeroapi.flightaware.com/aeroapi/flights/{c['tail']}'\n# replace with the key from the FlightAware portal"


@look
def l_placeholder_env(r, c):
    return f"environment:\n  - {r.choice(['WINDY_API_KEY', 'FOREFLIGHT_PASSWORD', 'LEON_TOKEN'])}=${{{r.choice(['WINDY_API_KEY', 'SECRET', 'LEON_TOKEN'])}}}\n  - BASE={c['apt']}\n  - TZ={c['tz']}"


@look
def l_changeme(r, c):
    return f"Install notes ({c['app']}): the default admin password is `changeme` and the setup wizard forces you to replace it on first login. Do that before plugging it into the {c['apt']} hangar LAN."


@look
def l_masked(r, c):
    return f"{c['ts']} INFO {c['app']} connecting as {c['who_l']} password=******** host={c['host']}"


@look
def l_gha_secret(r, c):
    return f"- name: Push roster\n  env:\n    LEON_TOKEN: ${{{{ secrets.LEON_TOKEN }}}}\n    BASE: {c['apt']}\n  run: python push_roster.py --days {c['n'] * 7}"


@look
def l_airflow_var(r, c):
    return f"api_key = Variable.get(\"{r.choice(['windy_api_key', 'tomorrow_io_key', 'avwx_token'])}\")\nfetch_forecast('{c['apt']}', api_key, hours={c['n'] * 6})"


@look
def l_dbutils(r, c):
    return f"pw = dbutils.secrets.get(scope=\"{r.choice(['ops', 'camo', 'finance'])}\", key=\"{r.choice(['camo-db-password', 'xero-secret', 'amadeus-secret'])}\")\ndf = spark.read.jdbc(url, 'work_orders', properties={{'user': 'mx_ro', 'password': pw}})  # run {c['n']}"


@look
def l_vault_path(r, c):
    return f"$ vault kv get -field=password secret/ops/{r.choice(['foreflight', 'jeppesen', 'caa-sftp', 'net2'])}\n(asked {c['who']} to run this on {c['host']}, I don't have the policy)"


@look
def l_envnames(r, c):
    return f"{c['app']} needs WINDY_API_KEY, TOMORROW_IO_API_KEY and AVWX_TOKEN set in the environment; see ops wiki page 'Weather feeds'. ({c['who']}, {c['date']})"


@look
def l_ansible_vault(r, c):
    body = rs(r, HEX, 80 * 5)
    lines = "\n".join("          " + body[i : i + 80] for i in range(0, len(body), 80))
    return f"caa_sftp_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{lines}\nbase: {c['apt']}"


@look
def l_sops(r, c):
    return (
        f"foreflight_password: ENC[AES256_GCM,data:{b64(r, 18)},iv:{b64(r, 32)},tag:{b64(r, 16)},type:str]\n"
        f'sops:\n    age:\n        - recipient: age1{rs(r, BECH, 58)}\n    lastmodified: "{c["date"]}T10:00:00Z"'
    )


@look
def l_bcrypt(r, c):
    return (
        f"INSERT INTO users (email, password_hash) VALUES ('{c['who_l']}@{c['dom']}', '$2b$12${rs(r, AL + './', 53)}');"
    )


@look
def l_argon2(r, c):
    return f"student {c['who_l']} pwd_hash=$argon2id$v=19$m=65536,t=3,p=4${b64(r, 16).rstrip('=')}${b64(r, 32).rstrip('=')}"


@look
def l_ssh_fingerprint(r, c):
    return f"The authenticity of host '{c['host']} ({c['ip']})' can't be established.\nED25519 key fingerprint is SHA256:{b64(r, 32).rstrip('=')}.\nAre you sure you want to continue connecting (yes/no)?"


@look
def l_gpg_fpr(r, c):
    f = rs(r, HEX.upper(), 40)
    return f"CAA SFTP requires files signed with our key {' '.join(f[i : i + 4] for i in range(0, 40, 4))} (uid Kestrel Air CAMO)."


@look
def l_kms_arn(r, c):
    return f"Bucket mx-records uses SSE-KMS with arn:aws:kms:eu-west-1:{rs(r, DG, 12)}:key/{uid(r)} (rotation on, {c['date']})"


@look
def l_nb_exec(r, c):
    return json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 300),
            "id": rs(r, HEX, 8),
            "metadata": {},
            "outputs": [],
            "source": [f"fuel = burn('{c['tail']}', {c['n']})"],
        },
        indent=1,
    )


@look
def l_ssh_pub(r, c):
    return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64(r, 32).rstrip('=')} {c['who_l']}@{c['host']}\n(added to authorized_keys on the hangar Pi)"


@look
def l_cert(r, c):
    dash = "-----"
    body = b64(r, 700)
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"CA bundle for the CAA SFTP ({c['date']}):\n{dash}BEGIN CERTIFICATE{dash}\nMIID{lines}\n{dash}END CERTIFICATE{dash}"


@look
def l_wg_pub(r, c):
    return (
        f"[Peer]\n# {c['host']}\nPublicKey = {b64(r, 32)}\nAllowedIPs = 10.66.{c['n']}.0/24\nPersistentKeepalive = 25"
    )


@look
def l_azure_ids(r, c):
    return f"M365 mailbox sync app registration: tenant id {uid(r)}, client (application) id {uid(r)}. Secret is in Key Vault kv-ops, expires {c['date']}."


@look
def l_okta_client(r, c):
    return f"OKTA_ISSUER=https://kestrelair.okta.com/oauth2/default\nOKTA_CLIENT_ID=0oa{rs(r, AL, 17)}\n# SPA app, PKCE, no client secret"


@look
def l_icao_hex(r, c):
    return f"{c['ts']} adsb: hex {rs(r, HEX, 6)} {c['tail']} squawk {r.randint(1000, 7777)} alt {r.randint(10, 390) * 100} ft gs {r.randint(90, 480)} kt"


@look
def l_metar(r, c):
    return f"METAR {c['apt']} {r.randint(1, 28):02d}{r.randint(0, 23):02d}30Z {r.randint(0, 35) * 10:03d}{r.randint(3, 30):02d}G{r.randint(31, 45)}KT 9999 FEW0{r.randint(10, 45)} {r.randint(-5, 25):02d}/{r.randint(-9, 10):02d} Q{r.randint(980, 1035)}"


@look
def l_notam(r, c):
    return f"NOTAM A{r.randint(1000, 4999)}/26 {c['apt']} RWY {r.randint(1, 36):02d} CLSD DUE WIP. Q) {rs(r, UP, 4)}/QMRLC/IV/NBO/A/000/999/{rs(r, DG, 4)}N{rs(r, DG, 5)}W005"


@look
def l_acars(r, c):
    return f"ACARS {c['ts']} .{c['tail'].replace('-', '')} H1 DF {rs(r, UP + DG, 4)} /{rs(r, HEX.upper(), 24)} label 5Z ETA {c['apt']} {c['time']}"


@look
def l_part_numbers(r, c):
    return f"Parts received for {c['tail']}: P/N {rs(r, DG + UP, 10)} S/N {rs(r, UP, 2)}{rs(r, DG, 6)}, Form 1 tracking {rs(r, UP + DG, 12)}. Stored bin {rs(r, UP, 1)}{c['n']}."


@look
def l_ups(r, c):
    return f"Parts shipment from Wichita: tracking 1Z{rs(r, UP + DG, 16)}, ETA {c['date']}. Bill to CAMO cost centre {r.randint(1000, 9999)}."


@look
def l_pnr(r, c):
    return f"Amadeus test PNR {rs(r, UP + DG, 6)} created for {c['who']} {c['apt']}-{r.choice(AIRPORTS)}, TST {r.randint(1, 9)}, office id {rs(r, UP, 3)}1A0{r.randint(900, 999)}"


@look
def l_xero_tenant(r, c):
    return f"Xero tenant id for Kestrel Air Ltd: {uid(r)} (org short code !{rs(r, AL, 5)}). Use with the stored OAuth tokens, nothing secret here."


@look
def l_qbo_realm(r, c):
    return f"QBO realmId={r.randint(10**15, 10**16 - 1)} invoice #{r.randint(1000, 9999)} for {c['tail']} charter, status=Paid"


@look
def l_youtube_ids(r, c):
    return f"Ground school video uploaded: https://www.youtube.com/watch?v={rs(r, URLS, 11)} channel UC{rs(r, URLS, 22)} playlist PL{rs(r, URLS, 32)}"


@look
def l_moodle_placeholder(r, c):
    return f"GET https://lms.{c['dom']}/webservice/rest/server.php?wstoken=<TOKEN>&wsfunction=core_course_get_courses&moodlewsrestformat=json  (course {r.randint(2, 90)})"


@look
def l_docs_passphrase(r, c):
    return f"Password policy (from the {r.choice(['NIST', 'IT handbook', 'Okta'])} docs): use a passphrase like 'correct horse battery staple', min {r.randint(12, 16)} chars, no reuse for {c['n'] * 4} cycles."


@look
def l_aws_doc_example(r, c):
    ex = "wJalrXUtnFEMI" + "/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKEY"
    return f"From the AWS CLI docs (example only, not ours; {c['who']}, {c['date']}):\naws_secret_access_key = {ex}\nregion = eu-west-{c['n'] % 3 + 1}"


@look
def l_stripe_doc_example(r, c):
    ex = "sk" + "_test_" + r.choice(["4eC39HqLyjWDarjtT1zdp7dc", "BQokikJOvBiI2HlWgH4olfQ2"])
    return f"Stripe docs example ({c['who']} pasted from stripe.com/docs/api, it is Stripe's public sample): curl https://api.stripe.com/v1/charges -u {ex}:"


@look
def l_traceparent(r, c):
    return f"{c['ts']} {c['app']} traceparent=00-{rs(r, HEX, 32)}-{rs(r, HEX, 16)}-01 span={rs(r, HEX, 16)} duration_ms={r.randint(3, 900)}"


@look
def l_redacted_bearer(r, c):
    return f"> GET /v1/flights/{c['tail']} HTTP/1.1\n> Host: aeroapi.flightaware.com\n> x-apikey: [REDACTED]\n>\n< HTTP/1.1 200 OK\n< X-Request-Id: {uid(r)}"


@look
def l_wifi_list(r, c):
    return f"SSID FlightSchool-Guest  BSSID {':'.join(rs(r, HEX, 2) for _ in range(6))}  ch {r.choice([1, 6, 11, 36, 44])}  WPA2  signal -{r.randint(40, 80)} dBm"


@look
def l_wifi_open_qr(r, c):
    return f"Guest Wi-Fi QR for the lobby poster: WIFI:S:Kestrel-Lobby-{c['n']};T:nopass;; (captive portal, students register with booking id; printed by {c['who']} {c['date']})"


@look
def l_lfs_pointer(r, c):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(r, HEX, 64)}\nsize {r.randint(10000, 99999999)}"


@look
def l_npm_integrity(r, c):
    return f'"node_modules/leaflet": {{\n  "version": "1.9.{c["n"]}",\n  "resolved": "https://registry.npmjs.org/leaflet/-/leaflet-1.9.{c["n"]}.tgz",\n  "integrity": "sha512-{b64(r, 64)}"\n}}'


@look
def l_pip_hash(r, c):
    return f"metar=={c['n']}.{r.randint(0, 9)}.{r.randint(0, 9)} \\\n    --hash=sha256:{rs(r, HEX, 64)}"


@look
def l_tf_lineage(r, c):
    return json.dumps(
        {
            "version": 4,
            "terraform_version": f"1.{c['n']}.0",
            "serial": r.randint(1, 400),
            "lineage": uid(r),
            "outputs": {},
        },
        indent=2,
    )


@look
def l_secret_key_ref(r, c):
    return f"env:\n  - name: CAMO_DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: camo-db-{rs(r, LO, 4)}\n        key: password\n  - name: BASE\n    value: {c['apt']}"


@look
def l_docker_secret_file(r, c):
    return f"{c['app']}:\n  environment:\n    DB_PASSWORD_FILE: /run/secrets/{r.choice(['camo_db_password', 'net2_password', 'booking_db'])}\n  secrets:\n    - {r.choice(['camo_db_password', 'net2_password'])}\n  # base {c['apt']}"


@look
def l_secretsmanager_arn(r, c):
    return f"Leon token is read at boot from arn:aws:secretsmanager:eu-west-1:{rs(r, DG, 12)}:secret:ops/leon-{rs(r, AL, 6)} (rotated {c['date']})"


@look
def l_gcp_secret_path(r, c):
    return f"gcloud secrets versions access {r.randint(1, 12)} --secret=amadeus-client-secret --project=ops-{rs(r, LO, 6)}  # run from {c['host']}"


@look
def l_keyvault_ref(r, c):
    return f'"XERO_CLIENT_SECRET": "@Microsoft.KeyVault(SecretUri=https://kv-ops-{rs(r, LO, 4)}.vault.azure.net/secrets/xero-client-secret/{rs(r, HEX, 32)})"'


@look
def l_op_ref(r, c):
    return f"FOREFLIGHT_PASSWORD=op://Ops/ForeFlight {r.choice(['Dispatch', 'Training', 'Charter'])}/password\n# resolved by `op run` on {c['host']}"


@look
def l_pass_cmd(r, c):
    return f"$ pass show ops/{r.choice(['jeppesen', 'skyvector', 'net2', 'caa-sftp'])} | head -1 | xclip\n(that's how {c['who']} copies it, never paste into tickets)"


@look
def l_shadow(r, c):
    return f"{c['who_l']}:$6${rs(r, AL + './', 16)}${rs(r, AL + './', 86)}:{r.randint(19000, 20500)}:0:99999:7:::"


@look
def l_htpasswd(r, c):
    return f"# /etc/nginx/.htpasswd on {c['host']}\n{c['who_l']}:$apr1${rs(r, AL, 8)}${rs(r, AL + './', 22)}"


@look
def l_django_hash(r, c):
    return f"auth_user {r.randint(2, 500)} {c['who_l']} pbkdf2_sha256$870000${rs(r, AL, 22)}${b64(r, 32)}"


@look
def l_b64_config(r, c):
    cfg = json.dumps(
        {
            "base": c["apt"],
            "tail": c["tail"],
            "units": r.choice(["kg", "lb"]),
            "theme": "dark",
        }
    ).encode()
    return f"Tablet profile blob for {c['tail']} (base64 JSON, just UI prefs): {base64.b64encode(cfg).decode()}"


@look
def l_docker_ps(r, c):
    return f"CONTAINER ID   IMAGE                 STATUS\n{rs(r, HEX, 12)}   {c['app']}:latest   Up {c['n']} days\n{rs(r, HEX, 12)}   redis:7-alpine        Up {c['n']} days"


@look
def l_machine_id(r, c):
    return f"$ cat /etc/machine-id\n{rs(r, HEX, 32)}\n(sim PC{c['n']:02d} reimaged, machine-id regenerated)"


@look
def l_printer_sn(r, c):
    return f"Zebra ZD421 in parts store: S/N {rs(r, UP + DG, 3)}{rs(r, DG, 6)}, MAC {':'.join(rs(r, HEX, 2).upper() for _ in range(6))}, firmware V{r.randint(80, 90)}.{r.randint(10, 21)}.{r.randint(1, 30)}Z"


@look
def l_celery_task(r, c):
    return f"[{c['ts']}: INFO/MainProcess] Task notam.fetch[{uid(r)}] succeeded in {r.random() * 3:.3f}s: {r.randint(1, 40)}"


@look
def l_payment_link(r, c):
    return f"Trial lesson payment link (public, goes on the website): https://buy.stripe.com/{rs(r, AL, 14)}{rs(r, DG, 2)} - {r.randint(90, 250)} EUR"


@look
def l_stripe_ids(r, c):
    return f"Price for discovery flight: price_1{rs(r, AL, 23)} (product prod_{rs(r, AL, 14)}), customer cus_{rs(r, AL, 14)} paid"


@look
def l_paypal_client_id(r, c):
    return f'<script src="https://www.paypal.com/sdk/js?client-id=A{rs(r, URLS, 79)}&currency=EUR"></script>'


@look
def l_square_app_id(r, c):
    return f"SQUARE_APPLICATION_ID=sq0idp-{rs(r, URLS, 22)}\nSQUARE_LOCATION_ID={rs(r, UP + DG, 13)}\n# both public, used by the web payments SDK"


@look
def l_ga_id(r, c):
    return f"gtag('config', 'G-{rs(r, UP + DG, 10)}');  // flight school site analytics, {c['date']}"


@look
def l_cf_zone(r, c):
    return f"Cloudflare zone id {rs(r, HEX, 32)}, account id {rs(r, HEX, 32)} for {c['dom']} (token is in vault)"


@look
def l_dd_rum(r, c):
    return f"datadogRum.init({{ applicationId: '{uid(r)}', clientToken: 'pub{rs(r, HEX, 32)}', site: 'datadoghq.eu', service: '{c['app']}' }})"


@look
def l_twilio_sid(r, c):
    return f"SMS to {c['who']} delivered, message sid SM{rs(r, HEX, 32)} status=delivered price=-0.0{r.randint(40, 90)}"


@look
def l_slack_ids(r, c):
    return f"Post NOTAM digests to channel C0{rs(r, UP + DG, 9)} and mention U0{rs(r, UP + DG, 9)} ({c['who']}) when {c['apt']} changes"


@look
def l_discord_ids(r, c):
    return f"Student pilots server id {r.randint(10**17, 10**18)}, #checkride channel {r.randint(10**17, 10**18)}, role id {r.randint(10**17, 10**18)}"


@look
def l_jenkins_encrypted(r, c):
    return f"<hudson.util.Secret>{{AQAAABAAAAAQ{b64(r, 48)}}}</hudson.util.Secret>\n<!-- encrypted by Jenkins, job {c['app']} -->"


@look
def l_age_pub(r, c):
    return f"creation_rules:\n  - path_regex: secrets/{c['app']}\\.yaml$\n    age: age1{rs(r, BECH, 58)}"


@look
def l_pgp_message(r, c):
    dash = "-----"
    body = b64(r, 300)
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"Encrypted handover for {c['who']}:\n{dash}BEGIN PGP MESSAGE{dash}\n\nhQEMA{lines}\n={rs(r, AL, 4)}\n{dash}END PGP MESSAGE{dash}"


@look
def l_pgp_pub(r, c):
    dash = "-----"
    pub = "PGP PUBLIC " + "KEY BLOCK"
    body = b64(r, 400)
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return (
        f"{dash}BEGIN {pub}{dash}\n\nmQINB{lines}\n{dash}END {pub}{dash}\n(CAMO signing key, public, send to the CAA)"
    )


@look
def l_win_sid(r, c):
    return f"SIM-PC{c['n']:02d}\\instructor SID S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(1000, 1200)}"


@look
def l_bitlocker_id(r, c):
    return f"BitLocker on SIM-PC{c['n']:02d}: recovery key ID {{{uid(r).upper()}}} escrowed to Entra ID (the key itself is only there)."


@look
def l_gha_run(r, c):
    return f"Deploy failed: https://github.com/kestrelair/{c['app']}/actions/runs/{r.randint(10**9, 10**10)}/job/{r.randint(10**10, 10**11)} (step 'migrate')"


@look
def l_py_repr(r, c):
    return f'Traceback (most recent call last):\n  File "/opt/{c["app"]}/sync.py", line {r.randint(10, 300)}, in run\nRuntimeError: <Session object at 0x7f{rs(r, HEX, 10)}> closed'


@look
def l_ulid(r, c):
    return f"booking {'01J' + rs(r, '0123456789ABCDEFGHJKMNPQRSTVWXYZ', 23)} created for {c['who']} on {c['tail']} at {c['time']}"


@look
def l_skyvector_link(r, c):
    return f"Route for tomorrow: https://skyvector.com/?ll={r.uniform(30, 65):.6f},{r.uniform(-25, 30):.6f}&chart=301&zoom={r.randint(1, 8)}&fpl=%20{c['apt']}%20{r.choice(AIRPORTS)}"


@look
def l_pkce(r, c):
    return (
        f"https://kestrelair.okta.com/oauth2/v1/authorize?client_id=0oa{rs(r, AL, 17)}&response_type=code"
        f"&state={rs(r, URLS, 22)}&code_challenge={rs(r, URLS, 43)}&code_challenge_method=S256&redirect_uri=https%3A%2F%2Fcrew.{c['dom']}%2Fcb"
    )


@look
def l_etag(r, c):
    return f'< HTTP/1.1 304 Not Modified\n< ETag: W/"{rs(r, HEX, 32)}"\n< Cache-Control: max-age={c["n"] * 60}\n< Date: Sun, 06 Dec 2026 {c["time"]}:00 GMT'


@look
def l_s3_resp_headers(r, c):
    return f'< HTTP/1.1 200 OK\n< x-amz-id-2: {b64(r, 56)}\n< x-amz-request-id: {rs(r, UP + DG, 16)}\n< ETag: "{rs(r, HEX, 32)}"\n< x-amz-version-id: {rs(r, URLS, 32)}'


@look
def l_azure_req(r, c):
    return (
        f"{c['ts']} blob upload ok x-ms-request-id={uid(r)} x-ms-client-request-id={uid(r)} container=scans/{c['tail']}"
    )


@look
def l_pod_names(r, c):
    return f"NAME                               READY   STATUS\n{c['app']}-{rs(r, LO + DG, 10)}-{rs(r, LO + DG, 5)}   1/1     Running\n{c['app']}-{rs(r, LO + DG, 10)}-{rs(r, LO + DG, 5)}   1/1     Running"


@look
def l_x_placeholders(r, c):
    return f"STRIPE_SECRET_KEY={'sk' + '_live_'}{'x' * r.choice([24, 32, 99])}\n# placeholder from README, real one is in the vault ({c['who']})"


@look
def l_password_reset(r, c):
    return f"{c['date']}: reset {c['who']}'s Jeppesen password via the portal; temporary password sent by SMS to their phone, they must change it at next login."


@look
def l_see_vault(r, c):
    return f"Hangar door PLC admin login: user 'admin', password: see 1Password item 'Hangar {c['n']} door PLC' (vault Maintenance). Don't write it here. -- {c['who']}, {c['date']}"


@look
def l_pin_masked(r, c):
    return f"Badge {r.randint(1000, 9999)} issued to {c['who']}, PIN ending in {r.randint(10, 99)}, access groups: hangar-{c['n']}, parts-store"


@look
def l_openapi_scheme(r, c):
    return f"components:\n  securitySchemes:\n    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: {r.choice(['x-apikey', 'X-Api-Key', 'x-subscription-key'])}\nsecurity:\n  - ApiKeyAuth: []  # v{c['n']}"


@look
def l_crc_serial(r, c):
    return f"U-Boot 2023.{c['n']:02d} (door-ctl)\nCRC32 of env: 0x{rs(r, HEX, 8)}\nMAC: {':'.join(rs(r, HEX, 2) for _ in range(6))}\nHit any key to stop autoboot: {c['n'] % 4}"


@look
def l_dump1090_cfg(r, c):
    return (
        f"# /etc/default/dump1090-fa\nRECEIVER_SERIAL={rs(r, DG, 8)}\nRECEIVER_GAIN={r.choice(['auto', '49.6', '42.1'])}\n"
        f"RECEIVER_LAT={r.uniform(30, 65):.4f}\nRECEIVER_LON={r.uniform(-25, 30):.4f}\nADAPTIVE_DYNAMIC_RANGE=yes"
    )


@look
def l_sim_license_id(r, c):
    return f"X-Plane on SIM-PC{c['n']:02d}: activation hardware id {rs(r, HEX.upper(), 16)}, build 12.{r.randint(0, 3)}.{r.randint(0, 9)}; license managed by Laminar account, not stored here."


@look
def l_zoom_meeting(r, c):
    return f"Ground school ATPL met class: Zoom meeting ID {r.randint(800, 999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)}, waiting room on, students join via LMS course {r.randint(2, 90)}"


@look
def l_hmac_alg(r, c):
    return f"ACARS gateway signs messages with HMAC-SHA256; header X-Signature: {rs(r, HEX, 64)} is per-message and verifies with the shared secret stored in vault."


@look
def l_key_id(r, c):
    return f"Signing key id kid={rs(r, URLS, 43)} (RS256) published at https://crew.{c['dom']}/.well-known/jwks.json"


@look
def l_jwks(r, c):
    return json.dumps(
        {
            "keys": [
                {
                    "kty": "RSA",
                    "kid": rs(r, HEX, 16),
                    "use": "sig",
                    "alg": "RS256",
                    "n": rs(r, URLS, 342),
                    "e": "AQAB",
                }
            ]
        },
        indent=1,
    )


@look
def l_env_template(r, c):
    return f"# .env.example for {c['app']}\nWINDY_API_KEY=\nAEROAPI_KEY=\nLEON_REFRESH_TOKEN=\nBASE_AIRPORT={c['apt']}\nTZ={c['tz']}"


@look
def l_template_vars(r, c):
    return f"[smtp]\nhost = smtp.gmail.com\nuser = scanner@{c['dom']}\npassword = {{{{ smtp_password }}}}\nport = 587\n; rendered by ansible, host {c['host']}"


@look
def l_ps_secure_string(r, c):
    return f"$cred = Get-Credential -UserName 'SIM-PC{c['n']:02d}\\Administrator' -Message 'Enter local admin password ({c['who']})'\nInvoke-Command -ComputerName SIM-PC{c['n']:02d} -Credential $cred {{ Restart-Computer }}"


@look
def l_dpapi_blob(r, c):
    return f"Saved RDP password (DPAPI-encrypted, machine-bound) for sim-pc{c['n']:02d}: password 51:b:01000000d08c9ddf0115d1118c7a00c04fc297eb0100{rs(r, HEX, 120)}"


@look
def l_hash_list(r, c):
    return "\n".join(f"{rs(r, HEX, 40)}  scans/{c['tail']}/page{i}.tif" for i in range(1, 4))


@look
def l_uuid_feature(r, c):
    return f"feature flag {r.choice(['new-roster-ui', 'fuel-v2', 'metar-cache'])} rollout id {uid(r)} enabled for base {c['apt']} at {c['n'] * 10}%"


@look
def l_ssm_param(r, c):
    return f"aws ssm get-parameter --name /ops/{c['app']}/db_password --with-decryption --query Parameter.Value  # run on {c['host']}"


@look
def l_k8s_sealed(r, c):
    return f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {c['app']}\nspec:\n  encryptedData:\n    password: Ag{b64(r, 300)}"


@look
def l_base64_image_json(r, c):
    return json.dumps(
        {
            "tail": c["tail"],
            "signature_png": "iVBORw0KGgoAAAANSUhEUgAA" + b64(r, 120),
            "signed_by": c["who"],
        }
    )


@look
def l_dataset_id(r, c):
    return f"Training data: dataset kestrelair/techlog-ner revision {rs(r, HEX, 40)}, {r.randint(1000, 90000)} rows, split train/test {c['n'] * 10}/{100 - c['n'] * 10}"


@look
def l_fr24_radar_id(r, c):
    return f"Our FR24 feeder shows as radar T-{c['apt']}{r.randint(10, 300)} (public station code), uptime {r.randint(90, 100)}%, MLAT synced"


@look
def l_cron_nonce(r, c):
    return f"{c['ts']} oauth callback ok state={rs(r, URLS, 32)} nonce={rs(r, HEX, 16)} user={c['who_l']}"


@look
def l_hex_color_palette(r, c):
    return f":root {{ --brand: #{rs(r, HEX, 6)}; --accent: #{rs(r, HEX, 6)}; --runway: #{rs(r, HEX, 6)}; }} /* booking widget theme {c['n']} */"


@look
def l_vin_like(r, c):
    return f"Fuel truck {c['n']}: VIN {rs(r, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789', 17)}, last calibration {c['date']}, meter {r.randint(10000, 99999)} L"


@look
def l_gitleaks_allow(r, c):
    return f"# .gitleaksignore\n{rs(r, HEX, 40)}:tests/fixtures/fake_env:generic-api-key:{r.randint(1, 40)}\n# fixture only, {c['who']}"


@look
def l_ssh_known_hosts(r, c):
    return f"{c['host']},{c['ip']} ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{b64(r, 64).rstrip('=')}="


@look
def l_ntp_keyid(r, c):
    return f"chronyc sources: ^* ntp{c['n']}.{c['dom']}  stratum 2  offset +{r.randint(1, 900)}us  refid {rs(r, HEX.upper(), 8)}"


# --------------------------------------------------------------------------- driver

_EXTRA_FOR: dict[str, list] = {
    "flightradar24_sharing_key": [x_piaware],
    "wifi_psk": [x_wifi],
    "wireguard_private_key": [x_wg],
    "ssh_password": [x_sshpass],
    "twilio_auth_token": [x_twilio],
    "slack_webhook": [t_curl_post],
    "discord_webhook": [t_curl_post],
    "rsa_private_key": [t_tf_heredoc],
    "openssh_private_key": [t_tf_heredoc],
    "ec_private_key": [t_tf_heredoc],
    "pkcs8_private_key": [t_tf_heredoc],
}
for _k in QUERY:
    _EXTRA_FOR.setdefault(_k, []).append(x_query)
for _spec in KINDS:
    if _spec["hdr"]:
        _EXTRA_FOR.setdefault(_spec["kind"], []).append(t_curl)


def _positive(r: random.Random, k: dict) -> tuple[str, str] | None:
    secret = k["gen"](r).strip()
    display = k["wrap"](r, secret) if k["wrap"] else secret
    c = fill(r)
    special = _EXTRA_FOR.get(k["kind"], [])
    u = r.random()
    if special and u < 0.25:
        tpl = r.choice(special)
    elif u < 0.50:
        tpl = r.choice(PROSE_EN)
    elif u < 0.60:
        tpl = r.choice(PROSE_XX)
    elif u < 0.80:
        tpl = r.choice(CONFIG)
    else:
        tpl = r.choice(TOOL)
    text = tpl(r, k, display, c)
    if text is None or secret not in text:
        return None
    return text, secret


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for k in KINDS:
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > 20000:
                raise RuntimeError(f"cannot fill kind {k['kind']}")
            res = _positive(r, k)
            if res is None or res[0] in seen:
                continue
            seen.add(res[0])
            positives.append((res[0], k["kind"], res[1]))
            got += 1
    lookalikes: list[str] = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 5000:
                raise RuntimeError(f"cannot fill look-alike {gen.__name__}")
            text = gen(r, fill(r))
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
