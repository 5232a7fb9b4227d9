"""Secret-detector test set AQ: a solar installer and the community energy co-op it runs.

Theme
-----
Short texts an AI coding agent might save as "memories" while working for a solar installer
(SolarEdge, Enphase, SMA, Fronius, Victron VRM, Tesla Powerwall, Modbus/TCP gateways, Home
Assistant, MQTT, Node-RED, InfluxDB/Grafana, LTE dataloggers, Solcast/weather APIs) and for the
energy co-op it serves (OCPP backends, Easee/Wallbox, energy-supplier and smart-meter APIs,
Stripe/GoCardless, HubSpot, Mailchimp, WordPress, Google Workspace, board portal, Xero, a
Postgres member database).  Styles: notes, lessons, runbooks, TODOs, site-visit logs, tickets,
emails, chats (English plus German, Danish, Brazilian Portuguese, Greek, Hebrew, Vietnamese),
config files (.env, docker-compose, HA secrets.yaml, Node-RED JSON, mosquitto, YAML, INI, TOML,
Python settings) and tool output (CLI sessions, mosquitto_sub, curl -v, serial consoles,
container logs, CI logs).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text``
  (no surrounding quotes) and each text holds exactly one secret.  Every kind has 30 positives.
* ``lookalikes``: texts with no credential at all.  ``_LOOK`` is a list of generator functions;
  each is called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (``random.Random`` seeded from the seed only); no duplicate texts
  across the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs:
  the password only (for Azure storage strings, the AccountKey).  Pre-signed URLs: the
  signature.  PEM / OpenSSH private keys: the whole armoured block, BEGIN line to END line.
* UUID-shaped vendor values are secrets only when the text names them as a token/key/secret.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client
  ids, Firebase web apiKeys, search-only keys, public certificates and public keys), vendor
  documentation example values, encrypted blobs (Ansible vault, sops ENC[...], sealed secrets,
  Node-RED encrypted credentials) and password hashes are look-alikes.
* Bare AWS access key ids are left out entirely (neither positive nor look-alike).
* No token-shaped literal appears in this source: prefixes and bodies are assembled at run
  time from pieces and seeded random bodies.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

UP = string.ascii_uppercase
LOW = string.ascii_lowercase
DIG = string.digits
HEX = "0123456789abcdef"
ALNUM = UP + LOW + DIG
UPNUM = UP + DIG
LOWNUM = LOW + DIG
B64 = ALNUM + "+/"
B64U = ALNUM + "-_"


def rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def uuid4(r: random.Random) -> str:
    h = rs(r, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt(r: random.Random, payload: dict, alg: str = "HS256", siglen: int = 43) -> str:
    head = b64u(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{rs(r, B64U, siglen)}"


def pem(label: str, body: str, width: int = 64) -> str:
    dash = "-" * 5
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return "\n".join([f"{dash}BEGIN {label}{dash}", *lines, f"{dash}END {label}{dash}"])


PK = "PRIVATE" + " KEY"

# ---------------------------------------------------------------- context pools
SITES = [
    "Hillside Farm",
    "Mølleparken 14",
    "Rua das Flores 88",
    "Old School Hall",
    "Kirkevej 3",
    "Lindenstraße 22",
    "Brewery roof",
    "Sports club Nord",
    "Fazenda Boa Vista",
    "Kibbutz dairy",
    "Villa Anemone",
    "Nguyen family home",
    "Community centre",
    "Bakery Jensen",
    "Depot B",
    "Chapel Lane 5",
    "Mill House",
    "Sunnyside school",
    "Harbour warehouse",
    "Allotment shed",
]
PEOPLE = [
    "maren",
    "joao",
    "eleni",
    "yossi",
    "linh",
    "tom",
    "sofie",
    "lars",
    "ana",
    "dimitris",
    "noa",
    "minh",
    "greta",
    "rafael",
    "ines",
    "kasper",
]
HOSTS = [
    "10.20.0.15",
    "192.168.1.40",
    "coop-srv01",
    "ha.local",
    "nodered.coop.lan",
    "influx.coop.lan",
    "192.168.8.1",
    "pv-gw-07",
    "172.16.4.2",
    "raspberrypi.local",
    "ocpp.coop-energi.dk",
    "members-db.internal",
]
APPS = [
    "pv-poller",
    "coop-portal",
    "ocpp-backend",
    "meter-sync",
    "billing-worker",
    "ha-bridge",
    "grafana-sidecar",
    "forecast-job",
]


def ctx(r: random.Random) -> dict:
    p1, p2 = r.sample(PEOPLE, 2)
    return {
        "site": r.choice(SITES),
        "person": p1,
        "person2": p2,
        "host": r.choice(HOSTS),
        "app": r.choice(APPS),
        "date": f"2026-{r.randint(1, 11):02d}-{r.randint(1, 28):02d}",
        "time": f"{r.randint(6, 20):02d}:{r.randint(0, 59):02d}",
        "n": r.randint(100, 9999),
        "siteid": r.randint(1000000, 4999999),
        "port": r.choice([1883, 8883, 8086, 3000, 1880, 502, 8123, 5432]),
        "ms": r.randint(12, 900),
    }


# ---------------------------------------------------------------- secret generators
WORDS = [
    "tulip",
    "rover",
    "copper",
    "meadow",
    "falcon",
    "harbor",
    "solar",
    "panel",
    "amber",
    "willow",
    "nordic",
    "cactus",
    "pepper",
    "orbit",
    "canyon",
    "lantern",
    "maple",
    "otter",
    "sunrise",
    "granite",
    "violet",
    "pebble",
    "thunder",
    "kiwi",
    "mango",
    "breeze",
]
SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Solar",
    "Sunny",
    "Inverter",
    "Coop",
    "Energi",
    "Velkommen",
    "Brasil",
    "Haifa",
    "Saigon",
]


def password(r: random.Random) -> str:
    s = r.randint(0, 4)
    if s == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice('!?#*.')}"
    if s == 1:
        a, b = r.sample(WORDS, 2)
        return f"{a}-{b.capitalize()}-{r.randint(10, 99)}"
    if s == 2:
        return rs(r, ALNUM + "!@*-_.+=", r.randint(14, 22))
    if s == 3:
        return "-".join(r.sample(WORDS, 4))
    return f"{r.choice(WORDS).capitalize()}{r.choice(WORDS)}{r.randint(1, 999)}{r.choice('!@*')}"


def g_pw(r):
    v = password(r)
    return v, v


def g_pass_phrase(r):
    v = "-".join(r.sample(WORDS, r.randint(4, 6)))
    return v, v


def g_fixed(prefix_parts, alphabet, n, suffix=None):
    pre = "".join(prefix_parts)

    def f(r):
        v = pre + rs(r, alphabet, n) + (suffix(r) if suffix else "")
        return v, v

    return f


def g_uuid(r):
    v = uuid4(r)
    return v, v


def g_ha_token(r):
    iat = r.randint(1690000000, 1790000000)
    v = jwt(r, {"iss": rs(r, HEX, 32), "iat": iat, "exp": iat + 315360000})
    return v, v


def g_envoy_token(r):
    iat = r.randint(1700000000, 1790000000)
    pl = {
        "aud": str(r.randint(100000000000, 999999999999)),
        "iss": "Entrez",
        "enphaseUser": "owner",
        "exp": iat + 31536000,
        "iat": iat,
        "jti": uuid4(r),
        "username": f"{r.choice(PEOPLE)}@coop-energi.dk",
    }
    v = jwt(r, pl, "ES256", 86)
    return v, v


def g_eloverblik(r):
    iat = r.randint(1700000000, 1790000000)
    pl = {
        "tokenType": "CustomerAPI_Refresh",
        "tokenid": uuid4(r),
        "webApp": ["CustomerAPI"],
        "jti": uuid4(r),
        "iat": iat,
        "exp": iat + 31536000,
        "userId": uuid4(r),
    }
    v = jwt(r, pl, "HS256", 43)
    return v, v


def g_influx(r):
    v = b64u(r.randbytes(64)) + "=="
    return v, v


def g_grafana_sa(r):
    v = "gl" + "sa_" + rs(r, ALNUM, 32) + "_" + rs(r, HEX, 8)
    return v, v


def g_mailchimp(r):
    v = rs(r, HEX, 32) + "-us" + str(r.randint(1, 21))
    return v, v


def g_wp_app(r):
    v = " ".join(rs(r, ALNUM, 4) for _ in range(6))
    return v, v


def g_google_app(r):
    v = " ".join(rs(r, LOW, 4) for _ in range(4))
    return v, v


def g_wp_authkey(r):
    v = rs(r, ALNUM + "!@#%^&*()-_=+[]{}<>~|;:,.?", 64)
    return v, v


def g_sendgrid(r):
    v = "S" + "G." + rs(r, B64U, 22) + "." + rs(r, B64U, 43)
    return v, v


def g_gh_fg(r):
    v = "github" + "_pat_" + "11" + rs(r, UPNUM, 20) + "_" + rs(r, ALNUM, 59)
    return v, v


def g_aws_secret(r):
    v = rs(r, B64, 40)
    return v, v


def g_telegram(r):
    v = f"{r.randint(1000000000, 7999999999)}:AA{rs(r, B64U, 33)}"
    return v, v


def g_openai(r):
    v = "sk-" + "proj-" + rs(r, B64U, 74) + "T3Blbk" + "FJ" + rs(r, B64U, 74)
    return v, v


def g_tailscale(r):
    v = "tskey-" + "auth-" + "k" + rs(r, ALNUM, 10) + "CNTRL-" + rs(r, ALNUM, 33)
    return v, v


def g_ngrok(r):
    v = "2" + rs(r, ALNUM, 26) + "_" + rs(r, ALNUM, 21)
    return v, v


def g_wg(r):
    v = base64.b64encode(r.randbytes(32)).decode()
    return v, v


def g_django(r):
    v = rs(r, LOWNUM + "!@#%^&*(-_=+)", 50)
    return v, v


def g_mapbox(r):
    inner = json.dumps({"u": r.choice(PEOPLE) + "-coop", "a": rs(r, LOWNUM, 25)}, separators=(",", ":"))
    v = "s" + "k." + b64u(inner.encode()) + "." + rs(r, B64U, 22)
    return v, v


def g_b2(r):
    v = "K00" + str(r.randint(1, 5)) + rs(r, ALNUM + "+/", 27)
    return v, v


def g_pushover(r):
    v = "a" + rs(r, LOWNUM, 29)
    return v, v


def g_hubspot(r):
    v = "pat-" + r.choice(["eu1", "na1", "na2"]) + "-" + uuid4(r)
    return v, v


# URL-shaped carriers --------------------------------------------------------
def url_password(r: random.Random) -> str:
    while True:
        pw = password(r)
        if not any(ch in pw for ch in "@:/?#%"):
            return pw


def g_mqtt_url(r):
    pw = url_password(r)
    u = r.choice(["ha", "nodered", "poller", "coop", "telegraf"])
    sch, port = r.choice([("mqtt", 1883), ("mqtts", 8883)])
    return f"{sch}://{u}:{pw}@{r.choice(HOSTS)}:{port}", pw


def g_ocpp_url(r):
    pw = rs(r, ALNUM, r.randint(16, 32))
    cp = f"CP-{r.choice(['EASEE', 'WB', 'ABB', 'ALFEN'])}-{r.randint(100, 999)}"
    return f"wss://{cp}:{pw}@ocpp.coop-energi.dk/ocpp/{cp}", pw


def g_pg_url(r):
    pw = url_password(r)
    return (
        f"postgresql://coop_app:{pw}@members-db.internal:5432/members?sslmode=require",
        pw,
    )


def g_redis_url(r):
    pw = rs(r, ALNUM, 32)
    return f"redis://:{pw}@{r.choice(HOSTS)}:6379/{r.randint(0, 5)}", pw


def g_slack(r):
    tok = rs(r, ALNUM, 24)
    return (
        f"https://hooks.slack.com/services/T{rs(r, UPNUM, 8)}/B{rs(r, UPNUM, 10)}/{tok}",
        tok,
    )


def g_discord(r):
    tok = rs(r, B64U, 68)
    return f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18)}/{tok}", tok


def g_ha_webhook(r):
    tok = rs(r, B64U, 40)
    return (
        f"http://{r.choice(['ha.local', '192.168.1.40', 'homeassistant.local'])}:8123/api/webhook/{tok}",
        tok,
    )


def g_presigned(r):
    sig = rs(r, HEX, 64)
    kid = "AK" + "IA" + rs(r, UPNUM, 16)
    d = f"2026{r.randint(1, 12):02d}{r.randint(1, 28):02d}"
    url = (
        f"https://coop-backups.s3.eu-north-1.amazonaws.com/site-exports/{r.randint(1000, 9999)}.csv"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={kid}%2F{d}%2Feu-north-1%2Fs3%2Faws4_request"
        f"&X-Amz-Date={d}T{r.randint(10, 23)}0000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host"
        f"&X-Amz-Signature={sig}"
    )
    return url, sig


def g_azure(r):
    key = base64.b64encode(r.randbytes(64)).decode()
    acct = "coop" + rs(r, LOWNUM, 6)
    return (f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"), key


# PEM blocks --------------------------------------------------------------------
def g_openssh(r):
    raw = b"openssh-key-v1\x00" + r.randbytes(r.choice([384, 420]))
    v = pem("OPENSSH " + PK, base64.b64encode(raw).decode(), 70)
    return v, v


def g_rsa(r):
    raw = b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + r.randbytes(r.choice([450, 500]))
    v = pem("RSA " + PK, base64.b64encode(raw).decode())
    return v, v


def g_pkcs8(r):
    raw = b"\x30\x82\x04\xbe\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01" + r.randbytes(470)
    v = pem(PK, base64.b64encode(raw).decode())
    return v, v


def tok(parts, alpha, n, suffix=None):
    return g_fixed(parts, alpha, n, suffix)


# (kind, service, what, class, env var, generator)
KINDS = [
    (
        "solaredge_api_key",
        "SolarEdge monitoring",
        "API key",
        "tok",
        "SOLAREDGE_API_KEY",
        tok([], UPNUM, 32),
    ),
    (
        "enphase_api_key",
        "Enphase Enlighten",
        "API key",
        "tok",
        "ENPHASE_API_KEY",
        tok([], HEX, 32),
    ),
    (
        "enphase_envoy_token",
        "Enphase Envoy (local)",
        "token",
        "tok",
        "ENVOY_TOKEN",
        g_envoy_token,
    ),
    (
        "sma_sunny_portal_password",
        "SMA Sunny Portal",
        "password",
        "pw",
        "SUNNY_PORTAL_PASSWORD",
        g_pw,
    ),
    (
        "fronius_access_key_value",
        "Fronius Solar.web",
        "access key value",
        "tok",
        "FRONIUS_ACCESS_KEY_VALUE",
        g_uuid,
    ),
    (
        "victron_vrm_token",
        "Victron VRM",
        "access token",
        "tok",
        "VRM_ACCESS_TOKEN",
        tok([], HEX, 64),
    ),
    (
        "powerwall_gateway_password",
        "Tesla Powerwall gateway",
        "password",
        "pw",
        "POWERWALL_PASSWORD",
        g_pw,
    ),
    (
        "modbus_gateway_password",
        "Modbus/TCP gateway",
        "admin password",
        "pw",
        "MODBUS_GW_PASSWORD",
        g_pw,
    ),
    (
        "home_assistant_token",
        "Home Assistant",
        "long-lived access token",
        "tok",
        "HA_TOKEN",
        g_ha_token,
    ),
    ("mqtt_password", "MQTT broker", "password", "pw", "MQTT_PASSWORD", g_pw),
    ("mqtt_url_password", "MQTT broker", "URL", "url", "MQTT_URL", g_mqtt_url),
    (
        "node_red_credential_secret",
        "Node-RED",
        "credentialSecret",
        "tok",
        "NODE_RED_CREDENTIAL_SECRET",
        tok([], ALNUM, 32),
    ),
    ("influxdb_token", "InfluxDB", "API token", "tok", "INFLUXDB_TOKEN", g_influx),
    (
        "grafana_service_account_token",
        "Grafana",
        "service account token",
        "tok",
        "GRAFANA_TOKEN",
        g_grafana_sa,
    ),
    (
        "grafana_admin_password",
        "Grafana",
        "admin password",
        "pw",
        "GF_SECURITY_ADMIN_PASSWORD",
        g_pw,
    ),
    (
        "datalogger_admin_password",
        "LTE datalogger (Teltonika)",
        "admin password",
        "pw",
        "RUT_ADMIN_PASSWORD",
        g_pw,
    ),
    (
        "solcast_api_key",
        "Solcast",
        "API key",
        "tok",
        "SOLCAST_API_KEY",
        tok([], B64U, 32),
    ),
    (
        "openweathermap_api_key",
        "OpenWeatherMap",
        "API key",
        "tok",
        "OWM_API_KEY",
        tok([], HEX, 32),
    ),
    (
        "ocpp_authorization_key",
        "OCPP backend",
        "AuthorizationKey",
        "tok",
        "OCPP_AUTH_KEY",
        tok([], HEX, 40),
    ),
    ("ocpp_url_password", "OCPP backend", "URL", "url", "OCPP_CENTRAL_URL", g_ocpp_url),
    ("easee_password", "Easee cloud", "password", "pw", "EASEE_PASSWORD", g_pw),
    (
        "wallbox_password",
        "Wallbox myWallbox",
        "password",
        "pw",
        "WALLBOX_PASSWORD",
        g_pw,
    ),
    (
        "octopus_api_key",
        "Octopus Energy",
        "API key",
        "tok",
        "OCTOPUS_API_KEY",
        tok(["sk_", "live_"], ALNUM, 24),
    ),
    (
        "eloverblik_refresh_token",
        "Eloverblik",
        "refresh token",
        "tok",
        "ELOVERBLIK_TOKEN",
        g_eloverblik,
    ),
    (
        "glowmarkt_password",
        "Glowmarkt smart-meter API",
        "password",
        "pw",
        "GLOWMARKT_PASSWORD",
        g_pw,
    ),
    (
        "stripe_secret_key",
        "Stripe",
        "secret key",
        "tok",
        "STRIPE_SECRET_KEY",
        tok(["sk_", "live_", "51"], ALNUM, 97),
    ),
    (
        "stripe_restricted_key",
        "Stripe",
        "restricted key",
        "tok",
        "STRIPE_RESTRICTED_KEY",
        tok(["rk_", "live_", "51"], ALNUM, 97),
    ),
    (
        "stripe_webhook_secret",
        "Stripe webhook",
        "signing secret",
        "tok",
        "STRIPE_WEBHOOK_SECRET",
        tok(["whs", "ec_"], ALNUM, 32),
    ),
    (
        "gocardless_access_token",
        "GoCardless",
        "access token",
        "tok",
        "GOCARDLESS_ACCESS_TOKEN",
        tok(["li", "ve_"], B64U, 40),
    ),
    (
        "gocardless_webhook_secret",
        "GoCardless webhook",
        "secret",
        "tok",
        "GOCARDLESS_WEBHOOK_SECRET",
        tok([], ALNUM, 48),
    ),
    (
        "hubspot_private_app_token",
        "HubSpot",
        "private app token",
        "tok",
        "HUBSPOT_TOKEN",
        g_hubspot,
    ),
    (
        "mailchimp_api_key",
        "Mailchimp",
        "API key",
        "tok",
        "MAILCHIMP_API_KEY",
        g_mailchimp,
    ),
    (
        "wordpress_application_password",
        "WordPress",
        "application password",
        "tok",
        "WP_APP_PASSWORD",
        g_wp_app,
    ),
    (
        "wordpress_db_password",
        "WordPress DB",
        "password",
        "pw",
        "WORDPRESS_DB_PASSWORD",
        g_pw,
    ),
    (
        "wordpress_auth_key",
        "WordPress",
        "AUTH_KEY salt",
        "tok",
        "WORDPRESS_AUTH_KEY",
        g_wp_authkey,
    ),
    (
        "google_oauth_client_secret",
        "Google Workspace OAuth",
        "client secret",
        "tok",
        "GOOGLE_CLIENT_SECRET",
        tok(["GOC", "SPX-"], B64U, 28),
    ),
    (
        "google_app_password",
        "Google Workspace SMTP",
        "app password",
        "tok",
        "SMTP_PASSWORD",
        g_google_app,
    ),
    (
        "google_service_account_key",
        "Google service account",
        "private key",
        "pem",
        "",
        g_pkcs8,
    ),
    (
        "board_portal_password",
        "board portal",
        "password",
        "pw",
        "BOARD_PORTAL_PASSWORD",
        g_pw,
    ),
    (
        "xero_client_secret",
        "Xero",
        "client secret",
        "tok",
        "XERO_CLIENT_SECRET",
        tok([], B64U, 48),
    ),
    (
        "postgres_password",
        "members Postgres",
        "password",
        "pw",
        "POSTGRES_PASSWORD",
        g_pw,
    ),
    (
        "postgres_url_password",
        "members Postgres",
        "URL",
        "url",
        "DATABASE_URL",
        g_pg_url,
    ),
    ("redis_url_password", "Redis", "URL", "url", "REDIS_URL", g_redis_url),
    (
        "slack_webhook_url",
        "Slack alerts",
        "webhook",
        "url",
        "SLACK_WEBHOOK_URL",
        g_slack,
    ),
    (
        "discord_webhook_url",
        "Discord members channel",
        "webhook",
        "url",
        "DISCORD_WEBHOOK_URL",
        g_discord,
    ),
    (
        "home_assistant_webhook_url",
        "Home Assistant",
        "webhook",
        "url",
        "HA_WEBHOOK_URL",
        g_ha_webhook,
    ),
    (
        "twilio_auth_token",
        "Twilio SMS",
        "auth token",
        "tok",
        "TWILIO_AUTH_TOKEN",
        tok([], HEX, 32),
    ),
    ("sendgrid_api_key", "SendGrid", "API key", "tok", "SENDGRID_API_KEY", g_sendgrid),
    (
        "github_pat",
        "GitHub",
        "personal access token",
        "tok",
        "GITHUB_TOKEN",
        tok(["gh", "p_"], ALNUM, 36),
    ),
    (
        "github_fine_grained_pat",
        "GitHub",
        "fine-grained token",
        "tok",
        "GH_TOKEN",
        g_gh_fg,
    ),
    (
        "gitlab_pat",
        "GitLab",
        "personal access token",
        "tok",
        "GITLAB_TOKEN",
        tok(["gl", "pat-"], B64U, 20),
    ),
    (
        "aws_secret_access_key",
        "AWS backups",
        "secret access key",
        "tok",
        "AWS_SECRET_ACCESS_KEY",
        g_aws_secret,
    ),
    (
        "s3_presigned_url_signature",
        "S3 export",
        "pre-signed URL",
        "url",
        "EXPORT_URL",
        g_presigned,
    ),
    (
        "telegram_bot_token",
        "Telegram alert bot",
        "bot token",
        "tok",
        "TELEGRAM_BOT_TOKEN",
        g_telegram,
    ),
    ("openai_api_key", "OpenAI", "API key", "tok", "OPENAI_API_KEY", g_openai),
    ("tailscale_auth_key", "Tailscale", "auth key", "tok", "TS_AUTHKEY", g_tailscale),
    ("ngrok_authtoken", "ngrok", "authtoken", "tok", "NGROK_AUTHTOKEN", g_ngrok),
    (
        "cloudflare_api_token",
        "Cloudflare",
        "API token",
        "tok",
        "CLOUDFLARE_API_TOKEN",
        tok([], B64U, 40),
    ),
    (
        "docker_hub_pat",
        "Docker Hub",
        "access token",
        "tok",
        "DOCKERHUB_TOKEN",
        tok(["dckr", "_pat_"], B64U, 27),
    ),
    ("openssh_private_key", "site gateway SSH", "private key", "pem", "", g_openssh),
    ("rsa_private_key", "Modbus gateway TLS", "private key", "pem", "", g_rsa),
    (
        "wireguard_private_key",
        "WireGuard site VPN",
        "PrivateKey",
        "tok",
        "WG_PRIVATE_KEY",
        g_wg,
    ),
    (
        "sentry_auth_token",
        "Sentry",
        "auth token",
        "tok",
        "SENTRY_AUTH_TOKEN",
        tok(["sntr", "yu_"], HEX, 64),
    ),
    ("npm_token", "npm", "token", "tok", "NPM_TOKEN", tok(["np", "m_"], ALNUM, 36)),
    (
        "django_secret_key",
        "member portal (Django)",
        "SECRET_KEY",
        "tok",
        "DJANGO_SECRET_KEY",
        g_django,
    ),
    (
        "jwt_signing_secret",
        "OCPP backend",
        "JWT signing secret",
        "tok",
        "JWT_SECRET",
        tok([], HEX, 64),
    ),
    (
        "mapbox_secret_token",
        "Mapbox",
        "secret token",
        "tok",
        "MAPBOX_SECRET_TOKEN",
        g_mapbox,
    ),
    (
        "azure_storage_account_key",
        "Azure storage",
        "connection string",
        "url",
        "AZURE_STORAGE_CONNECTION_STRING",
        g_azure,
    ),
    (
        "hetzner_api_token",
        "Hetzner Cloud",
        "API token",
        "tok",
        "HCLOUD_TOKEN",
        tok([], ALNUM, 64),
    ),
    (
        "digitalocean_token",
        "DigitalOcean",
        "API token",
        "tok",
        "DIGITALOCEAN_TOKEN",
        tok(["dop", "_v1_"], HEX, 64),
    ),
    (
        "backblaze_b2_application_key",
        "Backblaze B2",
        "application key",
        "tok",
        "B2_APPLICATION_KEY",
        g_b2,
    ),
    (
        "restic_password",
        "restic backup repo",
        "password",
        "pw",
        "RESTIC_PASSWORD",
        g_pass_phrase,
    ),
    (
        "vault_token",
        "HashiCorp Vault",
        "token",
        "tok",
        "VAULT_TOKEN",
        tok(["hv", "s."], ALNUM, 24),
    ),
    (
        "soliscloud_key_secret",
        "SolisCloud",
        "KeySecret",
        "tok",
        "SOLIS_KEY_SECRET",
        tok([], HEX, 32),
    ),
    (
        "fusionsolar_password",
        "Huawei FusionSolar northbound",
        "password",
        "pw",
        "FUSIONSOLAR_PASSWORD",
        g_pw,
    ),
    ("wifi_psk", "site Wi-Fi", "WPA2 passphrase", "pw", "WIFI_PSK", g_pw),
    (
        "pushover_app_token",
        "Pushover",
        "app token",
        "tok",
        "PUSHOVER_TOKEN",
        g_pushover,
    ),
]

# ---------------------------------------------------------------- templates
# Each template: (allowed classes, format string or callable(c) -> str).
ALL = ("tok", "pw", "url")
TV = ("tok", "pw")

WHAT_L10N = {
    "de": {"tok": "Schlüssel", "pw": "Passwort", "url": "URL"},
    "da": {"tok": "nøgle", "pw": "adgangskode", "url": "URL"},
    "pt": {"tok": "chave", "pw": "senha", "url": "URL"},
    "el": {"tok": "κλειδί", "pw": "κωδικός", "url": "URL"},
    "he": {"tok": "מפתח", "pw": "סיסמה", "url": "כתובת"},
    "vi": {"tok": "khóa", "pw": "mật khẩu", "url": "URL"},
}


def _node_red(c):
    node = {
        "id": rsid(c),
        "type": c["nr_type"],
        "z": rsid(c, 1),
        "name": f"{c['svc']} ({c['site']})",
        "broker": c["host"],
        "port": str(c["port"]),
        "credentials": {c["var"].lower(): c["val"]},
    }
    flow = [{"id": node["z"], "type": "tab", "label": c["site"]}, node]
    return json.dumps(flow, indent=2, ensure_ascii=False)


def rsid(c, i=0):
    return hashlib.sha1(f"{c['n']}-{c['site']}-{i}".encode()).hexdigest()[:16]


TEMPLATES = [
    (ALL, "{svc} for {site}: {what} is {val} (set {date} by {person})."),
    (
        ALL,
        (
            "Lesson learned ({date}): when {app} at {site} started failing with 401 against {svc}, the cause "
            "was an old {what} cached in {app}. Current value: {val} - restart {app} after changing it."
        ),
    ),
    (
        ALL,
        (
            "Runbook: reconnect {site} monitoring\n1. ssh pi@{host}\n2. export {var}={qval}\n"
            "3. sudo systemctl restart {app}\n4. watch the Grafana panel for 10 min"
        ),
    ),
    (
        ALL,
        (
            "TODO\n- [x] swap inverter comms board at {site}\n- [ ] move {var} out of this note into the vault "
            "(today it is {val})\n- [ ] invoice #{n}"
        ),
    ),
    (
        ALL,
        (
            "Site visit {date} - {site}\nArrived {time}. Strings 1-3 OK, string 4 low (shading).\n"
            "{svc} login re-entered on the datalogger, {what}: {val}\nNext visit in 6 months."
        ),
    ),
    (
        ALL,
        (
            "TICKET #{n} [{svc}] monitoring gap at {site}\nReporter: {person}\nData stopped {date}. Fixed by "
            "re-saving the {what} `{val}` in {app}. Closing."
        ),
    ),
    (
        ALL,
        (
            "From: {person}@coop-energi.dk\nTo: {person2}@coop-energi.dk\nSubject: {svc} access for {site}\n\n"
            "Hi {person2},\nhere is the {what} you asked for: {val}\nPlease don't forward it.\n/{person}"
        ),
    ),
    (
        ALL,
        (
            "[{time}] {person}: what's the {svc} {what} again? {site} stopped reporting\n"
            "[{time}] {person2}: {val}\n[{time}] {person}: thx, works"
        ),
    ),
    (
        ALL,
        "Notiz {date}: {svc}-Zugang für {site}. {w_de}: {val} - bitte nicht weitergeben. ({person})",
    ),
    (ALL, "Husk: {svc} {w_da} til {site} er {val}. Opdateret {date} af {person}."),
    (
        ALL,
        "Anotação: a {w_pt} do {svc} para {site} é {val}. Trocar depois da visita de {date}.",
    ),
    (ALL, "Σημείωση {date}: {w_el} για {svc} ({site}): {val}"),
    (ALL, "הערה: ה{w_he} של {svc} עבור {site} הוא {val} (עודכן {date})"),
    (ALL, "Ghi chú: {w_vi} {svc} cho {site} là {val} - đừng chia sẻ. Cập nhật {date}."),
    (
        ALL,
        "# {svc} ({site})\nTZ=Europe/Copenhagen\nSITE_ID={siteid}\n{var}={qval}\nLOG_LEVEL=info\n",
    ),
    (
        ALL,
        (
            "services:\n  {app}:\n    image: ghcr.io/coop-energi/{app}:1.{ms}\n    restart: unless-stopped\n"
            '    environment:\n      - SITE_ID={siteid}\n      - {compose_item}\n    ports:\n      - "{port}:{port}"'
        ),
    ),
    (
        ALL,
        (
            "# Home Assistant secrets.yaml\nhome_latitude: 55.{n}\nhome_longitude: 12.{ms}\n"
            '{var_l}: "{val}"\nmqtt_broker: {host}'
        ),
    ),
    (
        ALL,
        '{app}:\n  site: "{site}"\n  poll_interval_s: 300\n  {var_l}: "{val}"\n  host: {host}',
    ),
    (ALL, "[{app}]\nsite_id = {siteid}\nhost = {host}\n{var_l} = {val}\ntimeout = 30"),
    (ALL, '[{app}]\nsite_id = {siteid}\n{var_l} = "{val}"\n\n[{app}.retry]\nmax = 5'),
    (
        ALL,
        '# settings.py\nDEBUG = False\nSITE_ID = {siteid}\n{var} = "{val}"\nTIME_ZONE = "Europe/Copenhagen"',
    ),
    (ALL, _node_red),
    (
        ("pw",),
        (
            "# /etc/mosquitto/conf.d/bridge.conf ({site})\nconnection coop-bridge\naddress {host}:8883\n"
            "topic coop/# both 0\nremote_username {person}\nremote_password {val}\nbridge_insecure false"
        ),
    ),
    (
        ALL,
        "$ export {var}={qval}\n$ python -m {app} --site {siteid}\n[ok] {site}: 48 samples fetched in {ms} ms",
    ),
    (
        ("bearer",),
        (
            "$ curl -v https://api.coop-energi.dk/v1/sites/{siteid}/energy\n*   Trying {host}:443...\n"
            "> GET /v1/sites/{siteid}/energy HTTP/1.1\n> Host: api.coop-energi.dk\n"
            "> Authorization: Bearer {val}\n> Accept: */*\n>\n< HTTP/1.1 200 OK\n< content-type: application/json"
        ),
    ),
    (
        ("pw",),
        (
            "$ curl -v -u {person}:{qval} http://{host}:{port}/api/status\n*   Trying {host}:{port}...\n"
            '< HTTP/1.1 200 OK\n{{"status":"ok","site":"{site}"}}'
        ),
    ),
    (
        ("url",),
        "$ curl -sv '{val}'\n*   Trying {host}...\n* Connected\n< HTTP/1.1 200 OK\n< x-request-id: {n}",
    ),
    (
        ALL,
        (
            "{app}-1  | 2026-{date5}T{time}:03Z DEBUG config loaded: {var}={val}\n"
            "{app}-1  | 2026-{date5}T{time}:04Z INFO polling {site} every 300s"
        ),
    ),
    (
        ALL,
        (
            "##[group]Run ./scripts/deploy.sh {app}\n  env:\n    SITE_ID: {siteid}\n    {var}: {val}\n"
            "##[endgroup]\nDeploying {app} to {host} ... done ({ms} ms)"
        ),
    ),
    (
        ("device",),
        (
            "$ mosquitto_sub -h {host} -t 'coop/config/#' -v\ncoop/config/{siteid}/interval 300\n"
            "coop/config/{siteid}/{var_l} {val}\ncoop/config/{siteid}/fw 4.{ms}"
        ),
    ),
    (
        ("device",),
        (
            "U-Boot 2021.04 (rut9xx)\nHit any key to stop autoboot: 0\n=> printenv\nbootdelay=3\n"
            "{var_l}={val}\nserial={n}\n=> boot"
        ),
    ),
]

PEM_TEMPLATES = [
    "$ cat ~/.ssh/{fname}\n{val}\n$ chmod 600 ~/.ssh/{fname}",
    "Note {date}: {svc} key for {site}, copied from the old laptop:\n\n{val}\n\n(put it in the vault, {person})",
    "# secrets.yaml\n{var_l}: |\n{val_ind}\nmqtt_broker: {host}",
    "-----\nTICKET #{n} [{svc}] handover\nAttached key below so {person2} can reach {host}:\n{val}",
    "[{time}] {person}: here is the {what} for {host}\n{val}\n[{time}] {person2}: got it",
    "{app}-1  | DEBUG loaded {what} from env:\n{val}\n{app}-1  | INFO connecting to {host}",
    "Runbook - restore {svc} access\n1. paste the key below into /etc/{app}/key.pem\n{val}\n2. restart {app}",
    "Anotação ({date}): chave privada do {svc} ({site}):\n{val}",
]


SHELL_SPECIAL = ' ;&#$()<>|*?{}[]~`!"\\'
BEARER = {
    "enphase_envoy_token",
    "victron_vrm_token",
    "home_assistant_token",
    "influxdb_token",
    "grafana_service_account_token",
    "solcast_api_key",
    "eloverblik_refresh_token",
    "stripe_secret_key",
    "stripe_restricted_key",
    "gocardless_access_token",
    "hubspot_private_app_token",
    "sendgrid_api_key",
    "github_pat",
    "github_fine_grained_pat",
    "openai_api_key",
    "cloudflare_api_token",
    "sentry_auth_token",
    "hetzner_api_token",
    "digitalocean_token",
    "vault_token",
    "gitlab_pat",
    "npm_token",
}
DEVICE = {
    "solaredge_api_key",
    "enphase_api_key",
    "enphase_envoy_token",
    "fronius_access_key_value",
    "victron_vrm_token",
    "home_assistant_token",
    "node_red_credential_secret",
    "influxdb_token",
    "solcast_api_key",
    "openweathermap_api_key",
    "ocpp_authorization_key",
    "ocpp_url_password",
    "mqtt_url_password",
    "wireguard_private_key",
    "tailscale_auth_key",
    "soliscloud_key_secret",
    "home_assistant_webhook_url",
    "pushover_app_token",
    "telegram_bot_token",
}


def _fill(r: random.Random, kind) -> tuple[str, str]:
    name, svc, what, cls, var, gen = kind
    disp, secret = gen(r)
    c = ctx(r)
    c.update(svc=svc, what=what, var=var or "KEY", val=disp, kind=name)
    c["var_l"] = (var or "private_key").lower()
    c["qval"] = f"'{disp}'" if any(ch in disp for ch in SHELL_SPECIAL) else disp
    item = f"{c['var']}={disp}"
    c["compose_item"] = item if (disp[0].isalnum() and "#" not in disp and ": " not in disp) else f'"{item}"'
    c["date5"] = c["date"][5:]
    c["nr_type"] = r.choice(["mqtt-broker", "http request", "influxdb", "server"])
    for lang, m in WHAT_L10N.items():
        c["w_" + lang] = m.get(cls, what)
    if cls == "pem":
        c["fname"] = r.choice(["id_ed25519", "id_rsa", "gw_key", f"site{c['siteid']}.pem"])
        c["val_ind"] = "\n".join("  " + ln for ln in disp.splitlines())
        t = r.choice(PEM_TEMPLATES)
        return t.format(**c), secret
    tags = {cls}
    if name in BEARER:
        tags.add("bearer")
    if name in DEVICE or cls == "pw":
        tags.add("device")
    t = r.choice([t for cl, t in TEMPLATES if tags & set(cl)])
    text = t(c) if callable(t) else t.format(**c)
    return text, secret


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed * 7919 + 13)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind in KINDS:
        got = 0
        while got < PER_KIND:
            text, secret = _fill(r, kind)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            positives.append((text, kind[0], secret))
            got += 1
    lookalikes: list[str] = []
    for fn in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 2000:
                raise RuntimeError(f"look-alike generator {fn.__name__} cannot produce enough texts")
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes


# ---------------------------------------------------------------- look-alikes (no credential inside)
def _c(r):
    return ctx(r)


def l_commit(r):
    c = _c(r)
    return (
        f"Deployed {c['app']} to {c['host']} at commit {rs(r, HEX, 40)} ({c['date']}); rollback target {rs(r, HEX, 7)}."
    )


def l_fw_sha256(r):
    v = r.choice(["4.18.76", "4.20.36", "3.1.2", "1.7.9"])
    return f"SolarEdge firmware CPU {v}: sha256 {rs(r, HEX, 64)}  se_cpu_{v}.bin - verified before flashing at {r.choice(SITES)}"


def l_md5_backup(r):
    return f"{rs(r, HEX, 32)}  rut955_backup_{_c(r)['date']}.tar.gz\nmd5 matches the copy on the NAS."


def l_request_id(r):
    c = _c(r)
    return (
        f"< HTTP/1.1 429 Too Many Requests\n< x-request-id: {uuid4(r)}\n< retry-after: {r.randint(5, 90)}\n"
        f"SolarEdge rate limit hit for site {c['siteid']}, backing off."
    )


def l_inverter_serial(r):
    return (
        f"{r.choice(SITES)}: inverter SN {rs(r, UPNUM, 8)}-{rs(r, UPNUM, 2)}, optimizer SNs "
        f"{', '.join(rs(r, UPNUM, 8) + '-' + rs(r, UPNUM, 2) for _ in range(3))}"
    )


def l_envoy_serial(r):
    return f"Envoy-S Metered serial {r.randint(121900000000, 122499999999)}, firmware D7.{r.randint(0, 6)}.{r.randint(10, 200)}, system_id {r.randint(1000000, 5000000)}"


def l_stripe_pk(r):
    return f"STRIPE_PUBLISHABLE_KEY={'pk_' + 'live_' + '51' + rs(r, ALNUM, 97)}  # safe to ship in the join-the-coop page JS"


def l_mapbox_pk(r):
    inner = json.dumps({"u": r.choice(PEOPLE) + "-coop", "a": rs(r, LOWNUM, 25)}, separators=(",", ":"))
    return f"mapboxgl.accessToken = '{'p' + 'k.' + b64u(inner.encode()) + '.' + rs(r, B64U, 22)}'; // public token, URL-restricted to coop-energi.dk"


def l_sentry_dsn(r):
    return f"SENTRY_DSN=https://{rs(r, HEX, 32)}@o{r.randint(100000, 999999)}.ingest.de.sentry.io/{r.randint(1000000, 9999999)}"


def l_google_client_id(r):
    return (
        f"Google Workspace SSO for the board portal: client_id {r.randint(10**11, 10**12 - 1)}-"
        f"{rs(r, LOWNUM, 32)}.apps.googleusercontent.com (client secret is in the vault)"
    )


def l_firebase(r):
    cfg = {
        "apiKey": "AI" + "za" + rs(r, B64U, 35),
        "authDomain": f"coop-app-{r.randint(100, 999)}.firebaseapp.com",
        "projectId": f"coop-app-{r.randint(100, 999)}",
        "appId": f"1:{r.randint(10**11, 10**12)}:web:{rs(r, HEX, 22)}",
    }
    return "const firebaseConfig = " + json.dumps(cfg, indent=2) + ";"


def l_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{rs(r, B64U, 38)}"></div>  <!-- member signup form -->'


def l_algolia_search(r):
    return f"ALGOLIA_APP_ID={rs(r, UPNUM, 10)}\nALGOLIA_SEARCH_ONLY_KEY={rs(r, HEX, 32)}  # search-only, used in the FAQ widget"


def l_supabase_anon(r):
    iat = r.randint(1690000000, 1790000000)
    t = jwt(
        r,
        {
            "iss": "supabase",
            "ref": rs(r, LOW, 20),
            "role": "anon",
            "iat": iat,
            "exp": iat + 10**8,
        },
    )
    return f"NEXT_PUBLIC_SUPABASE_ANON_KEY={t}"


def l_placeholder_angle(r):
    k = r.choice(
        [
            "solaredge-api-key",
            "vrm-token",
            "ha-long-lived-token",
            "solcast_key",
            "octopus-api-key",
        ]
    )
    return f"curl 'https://monitoringapi.solaredge.com/site/{r.randint(10**6, 5 * 10**6)}/overview?api_key=<your-{k}>'"


def l_env_ref(r):
    v = r.choice(
        [
            "SOLCAST_API_KEY",
            "INFLUXDB_TOKEN",
            "MQTT_PASSWORD",
            "STRIPE_SECRET_KEY",
            "VRM_TOKEN",
        ]
    )
    return f"    environment:\n      - {v}=${{{v}}}\n      - SITE_ID={r.randint(1000, 99999)}"


def l_gha_secret(r):
    v = r.choice(
        [
            "STRIPE_SECRET_KEY",
            "GOCARDLESS_TOKEN",
            "HCLOUD_TOKEN",
            "DOCKERHUB_TOKEN",
            "XERO_CLIENT_SECRET",
        ]
    )
    return f"      - name: Deploy\n        env:\n          {v}: ${{{{ secrets.{v} }}}}\n        run: ./deploy.sh {r.choice(APPS)}"


def l_ha_secret_ref(r):
    n = r.choice(
        [
            "solaredge_api_key",
            "powerwall_password",
            "mqtt_password",
            "easee_password",
            "vrm_token",
        ]
    )
    return f"sensor:\n  - platform: {n.split('_')[0]}\n    site_id: {r.randint(10**6, 5 * 10**6)}\n    api_key: !secret {n}"


def l_nodered_cred_enc(r):
    return (
        json.dumps({"$": rs(r, HEX, r.choice([96, 128, 160])) + rs(r, B64, 24) + "="})
        + f"\n(flows_cred.json from {r.choice(SITES)}, encrypted with credentialSecret)"
    )


def l_ansible_vault(r):
    lines = [rs(r, HEX, 80) for _ in range(r.randint(3, 6))]
    return "mqtt_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(
        "          " + ln for ln in lines
    )


def l_sops(r):
    return (
        f"influxdb_token: ENC[AES256_GCM,data:{rs(r, B64, 60)},iv:{rs(r, B64, 43)}=,tag:{rs(r, B64, 22)}==,type:str]\n"
        f"sops:\n    version: 3.8.1\n    age:\n        - recipient: age1{rs(r, LOWNUM, 58)}"
    )


def l_bcrypt(r):
    return f"board_portal users:\n{r.choice(PEOPLE)}: $2b$12${rs(r, ALNUM + './', 53)}\n{r.choice(PEOPLE)}: $2b$12${rs(r, ALNUM + './', 53)}"


def l_argon2(r):
    return f"UPDATE members SET pw_hash='$argon2id$v=19$m=65536,t=3,p=4${rs(r, B64, 22)}${rs(r, B64, 43)}' WHERE id={r.randint(1, 3000)};"


def l_mosq_passwd(r):
    return f"# /etc/mosquitto/passwd\n{r.choice(PEOPLE)}:$7$101${rs(r, B64, 16)}==${rs(r, B64, 86)}=="


def l_ssh_pub(r):
    return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(r, B64, 43)} {r.choice(PEOPLE)}@{r.choice(HOSTS)}  # added to authorized_keys on the site gateway"


def l_ssh_fp(r):
    return f"The authenticity of host '{r.choice(HOSTS)}' can't be established.\nED25519 key fingerprint is SHA256:{rs(r, B64, 43)}.\nThis key is not known by any other names."


def l_pgp_fp(r):
    fp = " ".join(rs(r, UPNUM[:6] + DIG, 4) for _ in range(10))
    return f"Treasurer's PGP key fingerprint (verify by phone): {fp}"


def l_cert(r):
    body = base64.b64encode(b"\x30\x82\x03" + r.randbytes(600)).decode()
    return f"ca.crt for the MQTT broker ({r.choice(HOSTS)}):\n" + pem("CERTIFICATE", body)


def l_vault_path(r):
    return f"$ vault kv get -field=token secret/coop/{r.choice(['stripe', 'xero', 'hubspot', 'vrm', 'solaredge'])}/{r.choice(['prod', 'staging'])}\n(run from {r.choice(HOSTS)}, needs VPN)"


def l_airflow_var(r):
    return f"token = Variable.get(\"{r.choice(['hubspot_token', 'octopus_api_key', 'eloverblik_refresh'])}\")\nresp = requests.get(url, headers={{'Authorization': f'Bearer {{token}}'}}, timeout={r.randint(5, 60)})"


def l_dbutils(r):
    return f'key = dbutils.secrets.get(scope="{r.choice(["coop", "energy", "meters"])}", key="{r.choice(["xero-secret", "meter-api", "pg-pass"])}")\ndf = load_readings(key, days={r.randint(1, 90)})'


def l_osenv(r):
    v = r.choice(
        [
            "OCTOPUS_API_KEY",
            "SOLCAST_API_KEY",
            "HA_TOKEN",
            "EASEE_PASSWORD",
            "OWM_API_KEY",
        ]
    )
    return f"{v.lower()} = os.environ[\"{v}\"]  # set in /etc/{r.choice(APPS)}.env, never commit\nlog.info('loaded %d sites', {r.randint(2, 80)})"


def l_aws_arn(r):
    return f"SecretId: arn:aws:secretsmanager:eu-north-1:{r.randint(10**11, 10**12 - 1)}:secret:coop/{r.choice(APPS)}/db-{rs(r, ALNUM, 6)}"


def l_masked_ci(r):
    v = r.choice(["STRIPE_SECRET_KEY", "GOCARDLESS_ACCESS_TOKEN", "HCLOUD_TOKEN", "VRM_TOKEN"])
    return f"Run ./deploy.sh\n  env:\n    {v}: ***\n    SITE_COUNT: {r.randint(10, 99)}\nDeploy finished in {r.randint(20, 200)}s"


def l_masked_last4(r):
    return f"Stripe dashboard shows live secret key {'sk_' + 'live_'}••••••••{rs(r, ALNUM, 4)} created {_c(r)['date']}; rotated after {r.choice(PEOPLE)} left."


def l_default_docs(r):
    return (
        r.choice(
            [
                "Grafana first login is admin / admin, it forces a change on first login.",
                "Teltonika RUT default: user admin, password printed on the label - must be changed at first boot.",
                "Fronius Datamanager default service password is empty; set one during commissioning.",
                "Powerwall gateway: log in as customer, password is the last 5 characters of the password on the sticker.",
            ]
        )
        + f" (note {r.randint(1, 9999)})"
    )


def l_notebook(r):
    cells = [
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 80),
            "id": rs(r, HEX, 8),
            "metadata": {},
            "outputs": [],
            "source": [f"df = load_site({r.randint(10**6, 5 * 10**6)})"],
        }
    ]
    return json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def l_png(r):
    raw = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + r.randbytes(r.randint(60, 120))
    return f'<img alt="co-op logo" src="data:image/png;base64,{base64.b64encode(raw).decode()}">'


def l_mqtt_topics(r):
    sn = rs(r, HEX, 12)
    return f'$ mosquitto_sub -h {r.choice(HOSTS)} -t \'N/{sn}/#\' -v\nN/{sn}/system/0/Dc/Battery/Soc {{"value": {r.randint(5, 100)}}}\nN/{sn}/grid/30/Ac/Power {{"value": {r.randint(-4000, 4000)}}}'


def l_vrm_portal(r):
    return f"VRM portal ID {rs(r, HEX, 12)}, installation id {r.randint(100000, 400000)} - add to the co-op fleet overview."


def l_modbus_dump(r):
    frame = " ".join(rs(r, HEX, 2) for _ in range(r.randint(12, 24)))
    return f"$ mbpoll -a 1 -r 40083 -c 2 {r.choice(HOSTS)}\n-- raw: {frame}\n[40083]: {r.randint(0, 9000)}\n[40084]: -1"


def l_ocpp_msg(r):
    return (
        json.dumps([2, uuid4(r), "Authorize", {"idTag": rs(r, UPNUM[:6] + DIG, 8)}])
        + f'\n<- [3,"...",{{"idTagInfo":{{"status":"Accepted"}}}}] from CP-EASEE-{r.randint(100, 999)}'
    )


def l_image_digest(r):
    return f"ghcr.io/coop-energi/{r.choice(APPS)}@sha256:{rs(r, HEX, 64)}"


def l_npm_integrity(r):
    return f'"node_modules/node-red-contrib-{r.choice(["modbus", "victron", "solaredge", "influxdb"])}": {{\n  "version": "{r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}",\n  "integrity": "sha512-{rs(r, B64, 86)}=="\n}}'


def l_hf_model(r):
    return f"Forecast experiment: model {r.choice(['openclimatefix/pvnet_uk_region', 'openclimatefix/pvnet_v2', 'amazon/chronos-t5-small', 'google/timesfm-1.0-200m'])} revision {rs(r, HEX, 40)}, {r.randint(1, 30)} epochs."


def l_wandb_run(r):
    return f"wandb: Syncing run {r.choice(WORDS)}-{r.choice(WORDS)}-{r.randint(1, 300)}\nwandb: View run at https://wandb.ai/coop-energi/pv-forecast/runs/{rs(r, LOWNUM, 8)}"


def l_mlflow(r):
    return f"mlflow run_id={rs(r, HEX, 32)} experiment_id={r.randint(1, 40)} metric mae_kwh={r.random():.3f}"


def l_grafana_uid(r):
    return f"https://grafana.coop-energi.dk/d/{rs(r, B64U, 14)}/site-overview?orgId=1&var-site={r.randint(1000, 9999)}&from=now-7d"


def l_influx_ids(r):
    return f"$ influx bucket list\nID\t\t\tName\t\tRetention\tOrganization ID\n{rs(r, HEX, 16)}\tpv_raw\t\t720h0m0s\t{rs(r, HEX, 16)}\n{rs(r, HEX, 16)}\tpv_daily\tinfinite\t{rs(r, HEX, 16)}"


def l_ha_device(r):
    return f"automation:\n  - trigger:\n      - platform: device\n        device_id: {rs(r, HEX, 32)}\n        entity_id: sensor.solaredge_current_power\n        type: value\n        above: {r.randint(1000, 9000)}"


def l_ha_entry(r):
    return f"core.config_entries: entry_id {rs(r, UPNUM[:10] + 'ABCDEFGHJKMNPQRSTVWXYZ', 26)} domain=enphase_envoy title=Envoy {r.randint(10**11, 10**12)}"


def l_stripe_ids(r):
    return f"Refund member {r.randint(1, 3000)}: customer cus_{rs(r, ALNUM, 14)}, payment_intent pi_{rs(r, ALNUM, 24)}, price price_{rs(r, ALNUM, 24)}"


def l_gc_ids(r):
    return f"GoCardless mandate MD{rs(r, UPNUM, 12)} for customer CU{rs(r, UPNUM, 12)} failed (insufficient funds), payment PM{rs(r, UPNUM, 12)}"


def l_hubspot_ids(r):
    return f"HubSpot portal {r.randint(1000000, 99999999)}: contact {r.randint(10**9, 10**11)} merged into {r.randint(10**9, 10**11)}; form guid {uuid4(r)}"


def l_mailchimp_ids(r):
    return f"Mailchimp audience id {rs(r, HEX, 10)}, campaign {rs(r, HEX, 10)} (autumn newsletter), sent to {r.randint(300, 3000)} members"


def l_xero_tenant(r):
    return f"Xero tenant id {uuid4(r)} (Co-op Energi ApS); invoice INV-{r.randint(1000, 9999)} reconciled"


def l_octopus_acct(r):
    return f"Octopus account A-{rs(r, UPNUM, 8)}, MPAN {r.randint(10**12, 10**13 - 1)}, meter serial {r.randint(10, 24)}P{r.randint(10**6, 10**7)}"


def l_meter_point(r):
    return (
        f"Eloverblik målepunkt {r.randint(10**17, 10**18 - 1)} for {r.choice(SITES)} - fuldmagt givet {_c(r)['date']}"
    )


def l_iban(r):
    return f"Co-op account for member shares: IBAN DK{r.randint(10, 99)} {r.randint(1000, 9999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)} {r.randint(10, 99)}, ref MEM-{r.randint(1, 3000)}"


def l_easee_serial(r):
    return f"Easee Home serial EH{rs(r, UPNUM, 6)} at {r.choice(SITES)}, firmware {r.randint(290, 330)}, circuit id {r.randint(10000, 99999)}"


def l_chargebox(r):
    return f"OCPP chargeBoxId CP-WB-{r.randint(100, 999)} connected from {r.choice(HOSTS)}; heartbeat every {r.randint(60, 900)}s, vendor Wallbox, model PLP1"


def l_wp_sample(r):
    return "\n".join(
        f"define( '{k}', 'put your unique phrase here' );"
        for k in r.sample(
            [
                "AUTH_KEY",
                "SECURE_AUTH_KEY",
                "LOGGED_IN_KEY",
                "NONCE_KEY",
                "AUTH_SALT",
                "SECURE_AUTH_SALT",
                "NONCE_SALT",
            ],
            3,
        )
    )


def l_powerwall_doc(r):
    return f"Powerwall {r.randint(2, 3)} at {r.choice(SITES)}: gateway DIN 1232100-00-E--TG{r.randint(10**13, 10**14)}, firmware 24.{r.randint(1, 40)}.{r.randint(0, 9)}"


def l_lfs_pointer(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(r, HEX, 64)}\nsize {r.randint(10**4, 10**8)}"


def l_tf_lineage(r):
    return json.dumps(
        {
            "version": 4,
            "terraform_version": "1.9.5",
            "serial": r.randint(1, 400),
            "lineage": uuid4(r),
            "outputs": {},
        },
        indent=2,
    )


def l_k8s_ref(r):
    return f'        env:\n          - name: DATABASE_PASSWORD\n            valueFrom:\n              secretKeyRef:\n                name: {r.choice(APPS)}-db\n                key: password\n          - name: SITE_COUNT\n            value: "{r.randint(2, 400)}"'


def l_compose_secret_file(r):
    return f"secrets:\n  pg_password:\n    file: ./secrets/pg_password.txt\nservices:\n  db:\n    image: postgres:{r.randint(13, 17)}\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/pg_password\n      POSTGRES_DB: members_{r.randint(1, 999)}"


def l_systemd_cred(r):
    return f"[Service]\nLoadCredential=vrm-token:/etc/credstore/vrm-token\nExecStart=/usr/bin/{r.choice(APPS)} --token-file=${{CREDENTIALS_DIRECTORY}}/vrm-token\nRestartSec={r.randint(5, 60)}"


def l_op_ref(r):
    return f"STRIPE_SECRET_KEY=op://Coop/{r.choice(['Stripe live', 'Stripe'])}/credential\nXERO_CLIENT_SECRET=op://Coop/Xero/{r.choice(['secret', 'credential'])}\n# op run --env-file=.env -- python sync.py  ({r.randint(1, 999)})"


def l_bw_item(r):
    return f"Board portal login is in Bitwarden, item id {uuid4(r)} (collection 'Board {r.randint(2024, 2027)}')."


def l_cache_key(r):
    return f"Cache restored from key: Linux-pip-{rs(r, HEX, 64)}\nCache Size: ~{r.randint(10, 400)} MB"


def l_sha512_line(r):
    return f"SHA512 (grafana-{r.randint(9, 11)}.{r.randint(0, 5)}.{r.randint(0, 9)}.linux-arm64.tar.gz) = {rs(r, HEX, 128)}"


def l_pgp_sig(r):
    body = base64.b64encode(r.randbytes(r.randint(110, 160))).decode()
    return "Release notes signed by the treasurer:\n" + pem("PGP SIGNATURE", body).replace("-----\n", "-----\n\n", 1)


def l_jwk_thumb(r):
    return f"ACME account registered, JWK thumbprint {b64u(r.randbytes(32))}, kid https://acme-v02.api.letsencrypt.org/acme/acct/{r.randint(10**8, 10**10)}"


def l_b64_config(r):
    cfg = json.dumps(
        {
            "site": r.choice(SITES),
            "interval": r.randint(60, 900),
            "inverters": r.randint(1, 6),
        }
    )
    return f"datalogger provisioning blob (base64 of the plain JSON config): {base64.b64encode(cfg.encode()).decode()}"


def l_mac_ipv6(r):
    mac = ":".join(rs(r, HEX, 2) for _ in range(6))
    return f"{r.choice(SITES)} gateway MAC {mac}, IPv6 fd00:{rs(r, HEX, 4)}:{rs(r, HEX, 4)}::{rs(r, HEX, 3)}, DHCP lease {r.randint(1, 24)}h"


def l_serial_boot(r):
    return f"[    0.000000] Booting Linux on physical CPU 0x0\n[    1.2{r.randint(10000, 99999)}] random: crng init done\n[    2.{r.randint(100000, 999999)}] rootfs sha256={rs(r, HEX, 64)}\nrut955 login:"


def l_aws_doc_example(r):
    return (
        "From the AWS docs example config:\n[default]\naws_secret_access_key = "
        + "wJalrXUtnFEMI/K7MDENG/"
        + "bPxRfiCY"
        + "EXAMPLEKEY"
        + f"\n(replace with the co-op backup user's values; see page {r.randint(1, 400)})"
    )


def l_stripe_doc_example(r):
    return f'Stripe docs snippet: stripe.api_key = "{"sk_" + "test_" + "4eC39HqLyjWDarjtT1zdp7dc"}"  # doc example key, never ours (copied {_c(r)["date"]})'


def l_pw_policy(r):
    return f"Board portal policy: passwords must be at least {r.randint(12, 16)} characters, no reuse of the last {r.randint(3, 10)}, MFA mandatory for treasurer and chair."


def l_redacted_json(r):
    return json.dumps(
        {
            "user": r.choice(PEOPLE),
            "password": "[REDACTED]",
            "host": r.choice(HOSTS),
            "port": r.choice([1883, 8883]),
        }
    )


def l_env_names_readme(r):
    names = r.sample(
        [
            "SOLAREDGE_API_KEY",
            "VRM_TOKEN",
            "HA_TOKEN",
            "MQTT_PASSWORD",
            "INFLUXDB_TOKEN",
            "SOLCAST_API_KEY",
            "OCTOPUS_API_KEY",
        ],
        4,
    )
    return "## Configuration\nRequired environment variables:\n" + "\n".join(f"- `{n}`" for n in names)


def l_kms_keyid(r):
    return f"sops key: arn:aws:kms:eu-north-1:{r.randint(10**11, 10**12 - 1)}:key/{uuid4(r)}"


def l_jwt_kid(r):
    return f'JWKS rotated: new kid "{rs(r, B64U, 43)}", alg RS256, old kid kept for {r.randint(1, 30)} days'


def l_stripe_we(r):
    return f"Stripe webhook endpoint we_{rs(r, ALNUM, 24)} -> https://coop-energi.dk/stripe/events (events: invoice.paid, charge.refunded); signing secret in vault"


def l_fronius_keyid(r):
    return f"Fronius Solar.web Query API: AccessKeyId FKIA{rs(r, HEX, 32).upper()} (the value is stored separately in the vault), pvSystemId {uuid4(r)}"


def l_gsa_json(r):
    d = {
        "type": "service_account",
        "project_id": f"coop-workspace-{r.randint(100, 999)}",
        "private_key_id": rs(r, HEX, 40),
        "client_email": f"calendar-sync@coop-workspace-{r.randint(100, 999)}.iam.gserviceaccount.com",
        "client_id": str(r.randint(10**20, 10**21)),
    }
    return "service account metadata (key itself not copied):\n" + json.dumps(d, indent=2)


def l_tailscale_nodekey(r):
    return f'$ tailscale status --json | jq .Self.PublicKey\n"nodekey:{rs(r, HEX, 64)}"'


def l_wg_public(r):
    return f"[Peer]\n# {r.choice(SITES)}\nPublicKey = {base64.b64encode(r.randbytes(32)).decode()}\nAllowedIPs = 10.99.{r.randint(0, 255)}.0/24\nEndpoint = {r.choice(HOSTS)}:51820"


def l_age_pub(r):
    return f"# .sops.yaml\ncreation_rules:\n  - path_regex: secrets/.*\\.yaml\n    age: age1{rs(r, LOWNUM, 58)}"


def l_solcast_resource(r):
    return f"Solcast rooftop site resource_id {rs(r, HEX, 4)}-{rs(r, HEX, 4)}-{rs(r, HEX, 4)}-{rs(r, HEX, 4)} for {r.choice(SITES)}, capacity {r.randint(3, 40)} kWp"


def l_sma_plant(r):
    return f"SMA Sunny Portal plant id {uuid4(r)} ({r.choice(SITES)}), {r.randint(2, 30)} kW Sunny Tripower"


def l_ocpp_msgid(r):
    return f'[{_c(r)["time"]}] <- [2,"{uuid4(r)}","MeterValues",{{"connectorId":1,"transactionId":{r.randint(1000, 99999)}}}]'


def l_idempotency(r):
    return f"POST /v1/refunds  Idempotency-Key: {uuid4(r)}  -> 200 (member {r.randint(1, 3000)})"


def l_uuid7(r):
    return f"2026-11-{r.randint(1, 28):02d}T10:{r.randint(0, 59):02d}Z INFO meter-sync correlation_id=0192{rs(r, HEX, 4)}-{rs(r, HEX, 4)}-7{rs(r, HEX, 3)}-{r.choice('89ab')}{rs(r, HEX, 3)}-{rs(r, HEX, 12)} fetched {r.randint(10, 500)} readings"


def l_cf_ids(r):
    return f"Cloudflare zone id {rs(r, HEX, 32)}, account id {rs(r, HEX, 32)} (coop-energi.dk)"


def l_twilio_sid(r):
    return f"Twilio account SID AC{rs(r, HEX, 32)}, messaging service MG{rs(r, HEX, 32)} - auth token in vault"


def l_ga_id(r):
    return f'<script async src="https://www.googletagmanager.com/gtag/js?id=G-{rs(r, UPNUM, 10)}"></script>'


def l_slack_ids(r):
    return f"Alerts go to channel C{rs(r, UPNUM, 10)} (#pv-alerts); on-call user U{rs(r, UPNUM, 10)}"


def l_placeholder_ellipsis(r):
    return (
        r.choice(
            [
                "STRIPE_WEBHOOK_SECRET=whsec_...",
                "OCTOPUS_API_KEY=" + "sk_" + "live_" + "x" * 12,
                "GITHUB_TOKEN=" + "gh" + "p_" + "X" * 20,
                "HCLOUD_TOKEN=<paste here>",
                "VRM_TOKEN=TODO",
            ]
        )
        + f"  # fill in on {r.choice(HOSTS)}"
    )


def l_token_gen_code(r):
    return f"import secrets\n\ndef new_ocpp_key() -> str:\n    return secrets.token_hex({r.choice([16, 20, 32])})  # stored per charge point, never logged\n\nKEY_ROTATION_DAYS = {r.randint(30, 400)}"


def l_url_masked(r):
    return f"DATABASE_URL=postgresql://coop_app:****@members-db.internal:5432/members  (masked by {r.choice(APPS)} log filter, {r.randint(1, 999)})"


def l_mqtt_noauth(r):
    return f"# mosquitto.conf\nlistener {r.choice([1883, 8883])}\nallow_anonymous false\npassword_file /etc/mosquitto/passwd\nacl_file /etc/mosquitto/acl\nmax_queued_messages {r.randint(100, 5000)}"


def l_ha_env_refs(r):
    return f"# secrets.yaml\nsolaredge_api_key: !env_var SOLAREDGE_API_KEY\nmqtt_password: !env_var MQTT_PASSWORD\nhome_elevation: {r.randint(1, 400)}"


def l_grafana_file(r):
    return f"[security]\nadmin_user = admin\nadmin_password = $__file{{/run/secrets/grafana_admin}}\ncookie_samesite = {r.choice(['lax', 'strict'])}\nlogin_maximum_inactive_lifetime_duration = {r.randint(1, 30)}d"


def l_sealed(r):
    return f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nspec:\n  encryptedData:\n    token: AgB{rs(r, B64, 300)}=="


def l_firmware_hex(r):
    return "\n".join(
        f":10{r.randint(0, 65535):04X}00{rs(r, UPNUM[:6] + DIG, 32)}{rs(r, UPNUM[:6] + DIG, 2)}" for _ in range(4)
    )


def l_tracking(r):
    return f"Panels shipped: {r.randint(10, 60)}x JA Solar 420W, tracking {r.choice(['1Z', 'JD'])}{rs(r, UPNUM, 16)}, order PO-{r.randint(1000, 9999)}"


def l_cron_hash(r):
    return f"# cron (hash {rs(r, HEX, 8)})\n*/{r.choice([5, 10, 15])} * * * * /opt/{r.choice(APPS)}/run.sh >> /var/log/poll.log 2>&1"


def l_hash_password_note(r):
    return f"Lesson: never store the Powerwall password in HA config; store only sha256 of the serial to dedupe sites: {hashlib.sha256(str(r.random()).encode()).hexdigest()}"


def l_telegram_chat(r):
    return f"Telegram alerts chat_id -100{r.randint(10**9, 10**10)}, bot @coop_pv_alert_bot (token lives in /etc/pv-alert.env)"


def l_pushover_user(r):
    return f"Pushover user group key for the installers: see vault; device names: {', '.join(r.sample(PEOPLE, 3))}; priority {r.randint(-1, 2)}"


def l_hcloud_ids(r):
    return f"$ hcloud server list\nID         NAME            STATUS    IPV4\n{r.randint(10**7, 10**8)}   coop-srv01      running   {r.randint(5, 200)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"


def l_docker_login_ok(r):
    return f'$ echo "$DOCKERHUB_TOKEN" | docker login -u coopenergi --password-stdin\nLogin Succeeded\n$ docker push coopenergi/{r.choice(APPS)}:{r.randint(1, 99)}'


def l_curl_env_header(r):
    return f'$ curl -s -H "Authorization: Bearer $HA_TOKEN" http://{r.choice(["ha.local", "homeassistant.local"])}:8123/api/states/sensor.pv_power_{r.randint(1, 9)} | jq .state'


def l_wpa_ref(r):
    return f'network={{\n    ssid="{r.choice(SITES).replace(" ", "-")}-PV"\n    psk=ext:WIFI_PSK_{r.randint(1, 99)}\n    key_mgmt=WPA-PSK\n}}'


def l_b2_keyid(r):
    return f"B2 bucket coop-backups-{r.randint(1, 9)}: keyID {rs(r, HEX, 25)} (application key not shown again after creation; it's in restic's env file)"


def l_restic_snap(r):
    return f"$ restic snapshots\nID        Time                 Host        Paths\n{rs(r, HEX, 8)}  2026-11-{r.randint(10, 28)} 02:00:0{r.randint(0, 9)}  coop-srv01  /srv/members\n{rs(r, HEX, 8)}  2026-11-{r.randint(10, 28)} 02:00:1{r.randint(0, 9)}  coop-srv01  /srv/members"


def l_totp_text(r):
    return f"MFA for Xero is on {r.choice(PEOPLE)}'s phone (Authy); recovery codes are in the safe at the office, envelope {r.randint(1, 40)}."


def l_github_sha_pr(r):
    return f"PR #{r.randint(10, 999)} merged: fix modbus scaling for SE inverters ({rs(r, HEX, 7)}..{rs(r, HEX, 7)}), CI run {r.randint(10**9, 10**10)}"


def l_gitlab_pipeline(r):
    return (
        f"Pipeline #{r.randint(10**5, 10**7)} passed for {rs(r, HEX, 8)} on main; job artifacts sha256 {rs(r, HEX, 64)}"
    )


def l_ha_backup(r):
    return f"HA backup slug {rs(r, HEX, 8)} created {_c(r)['date']}, protected: true (password in the installer binder, not here)"


def l_openai_org(r):
    return f"OpenAI org id org-{rs(r, ALNUM, 24)}, project proj_{rs(r, ALNUM, 24)} - key is injected by CI"


def l_uuid_install(r):
    return f"Grafana installation id {uuid4(r)}, dashboard version {r.randint(1, 80)}, plugin grafana-clock-panel {r.randint(1, 3)}.{r.randint(0, 9)}"


_LOOK = [fn for name, fn in sorted(globals().items()) if name.startswith("l_") and callable(fn)]
