"""Labelled test set AK for a secret detector: hotel group + shared-office restaurant chain.

Theme
-----
Memories that an AI coding agent keeps for the IT lead of a small hotel group and the
restaurant chain sharing its office: PMS and channel managers (Mews, Cloudbeds, OPERA Cloud,
SiteMinder, Booking.com / Expedia partner APIs), door locks (Salto, Vostio), guest Wi-Fi,
RADIUS, Meraki / UniFi, FortiGate VPNs, CCTV NVRs, IPTV, keycard encoders; restaurant POS and
delivery (Toast, Square, Lightspeed, Deliveroo, Uber Eats, DoorDash, OpenTable, SevenRooms,
Adyen, Stripe Terminal, SumUp), messaging (Twilio, WhatsApp Cloud API), back office (Xero,
Deputy, 7shifts, Google Business Profile, Microsoft 365 / Entra ID) and generic infra.
Styles: about half notes / lessons / runbooks / TODOs / handovers / tickets / emails / chat
(mostly English, some Spanish, Greek, Thai, Turkish, Swedish, Vietnamese), a quarter config
files, a quarter tool output.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of
  ``text``, the text holds exactly one credential; 30 positives per kind.
* ``lookalikes``: texts without any credential; ``_LOOK`` is a list of generator functions,
  each called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (``random.Random`` seeded from ``seed`` only); no duplicate texts.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs:
  the password only. Pre-signed URLs: the signature. PEM / OpenSSH private keys: the whole
  armoured block, BEGIN line to END line. UUID-shaped vendor tokens are secrets only when the
  text names them as a token / key / secret.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client
  ids, Firebase web apiKeys, search-only keys, public certificates), vendor documentation
  placeholders, encrypted blobs (Ansible vault, sops ENC[...], FortiOS ENC) and password
  hashes are look-alikes. Bare AWS access key ids appear nowhere.
* No token-shaped literal is stored in this file: every prefix + body is assembled at run time.

Size
----
68 kinds x 30 positives (2040), 130 look-alike generators x 12 (1560 look-alikes).
Positive templates: 17 note / lesson / runbook / ticket / email / chat templates (6 of them
in Spanish, Greek, Thai, Turkish, Swedish, Vietnamese), 9 config templates, 10 tool-output
templates, 9 multi-line templates for private keys, plus kind-specific ones (FreeRADIUS
clients.conf, FortiGate CLI, hostapd, netsh, radclient, ffprobe, PowerShell, curl).
"""

from __future__ import annotations

import base64
import json
import random
import re
import string

LOOK_PER_GEN = 12
PER_KIND = 30

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
ALNUM = LOW + UP + DIG
LOWNUM = LOW + DIG
UPNUM = UP + DIG
HEX = "0123456789abcdef"
HEXU = HEX.upper()
B64 = ALNUM + "+/"
B64U = ALNUM + "-_"


def _s(r: random.Random, n: int, alpha: str = ALNUM) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def _uuid(r: random.Random) -> str:
    h = _s(r, 32, HEX)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _b64url(obj) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _jwt(r: random.Random, payload: dict) -> str:
    head = _b64url({"alg": "HS256", "typ": "JWT"})
    return head + "." + _b64url(payload) + "." + _s(r, 43, B64U)


# ---------------------------------------------------------------- vocabulary
HOTELS = [
    "Harbour House",
    "Casa Lumbre",
    "Hotel Aegli",
    "The Linden",
    "Baan Saeng",
    "Villa Mavi",
    "Strandhotellet",
    "Song Lam Lodge",
    "Quayside Inn",
    "Hostal Marea",
    "Olive Court",
    "The Old Mill",
    "Kalima Suites",
    "Nordljus",
    "Pier 9 Rooms",
]
RESTOS = [
    "Brasa & Co",
    "Taverna Nikos",
    "Noodle Yard",
    "Fika Corner",
    "Pho Sai Gon",
    "La Paella",
    "Kebab Atölye",
    "Thai Basil",
    "Dockside Grill",
    "Green Fork",
]
PEOPLE = [
    "Marta",
    "Nikos",
    "Ploy",
    "Emre",
    "Sofia",
    "Linh",
    "Jonas",
    "Aisha",
    "Tom",
    "Carmen",
    "Dimitra",
    "Somchai",
    "Elif",
    "Erik",
    "Minh",
    "Priya",
    "Owen",
    "Lucía",
]
WORDS = [
    "tulip",
    "rover",
    "harbor",
    "lemon",
    "falcon",
    "basil",
    "copper",
    "marble",
    "saffron",
    "breeze",
    "olive",
    "pepper",
    "lantern",
    "cobalt",
    "maple",
    "orchid",
    "tiger",
    "mango",
    "velvet",
    "coral",
    "anchor",
    "pixel",
    "cedar",
    "sunset",
    "kettle",
    "dolphin",
    "ember",
]
SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Welcome",
    "Hotel",
    "Kitchen",
    "Reception",
]
SYMS = "!-_.*+"


def _password(r: random.Random) -> str:
    k = r.randrange(5)
    if k == 0:
        return r.choice(SEASONS) + str(r.randint(2019, 2027)) + r.choice("!*.") + _s(r, 2, DIG)
    if k == 1:
        w = r.sample(WORDS, 2)
        return f"{w[0]}-{w[1].capitalize()}-{r.randint(10, 999)}"
    if k == 2:
        base = _s(r, r.randint(14, 22), ALNUM)
        i = r.randrange(1, len(base) - 1)
        return base[:i] + r.choice(SYMS) + base[i:]
    if k == 3:
        return "-".join(r.sample(WORDS, 4)) + str(r.randint(1, 9))
    name = r.choice(HOTELS + RESTOS).split()[0]
    return name + r.choice("!*.") + str(r.randint(1000, 99999)) + _s(r, 2, UP)


def _urlpw(r: random.Random) -> str:
    while True:
        p = _password(r)
        if not any(c in p for c in "@:/?#%"):
            return p


def _ip(r: random.Random) -> str:
    return f"10.{r.randint(0, 40)}.{r.randint(0, 254)}.{r.randint(2, 254)}"


def _host(r: random.Random) -> str:
    return (
        r.choice(["db", "pg", "sql", "pos", "pms", "nas", "app"])
        + str(r.randint(1, 9))
        + "."
        + r.choice(
            [
                "hg.internal",
                "office.lan",
                "harbourgroup.local",
                "eu-west-1.rds.amazonaws.com",
            ]
        )
    )


def _date(r: random.Random) -> str:
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


# ---------------------------------------------------------------- secret makers
# each maker returns (value_as_written, secret)


def _tok(fn):
    def mk(r):
        v = fn(r)
        return v, v

    return mk


def _pw_maker(r):
    p = _password(r)
    return p, p


def _conn_pg(r):
    p = _urlpw(r)
    user = r.choice(["pms_sync", "postgres", "reporting", "app", "pos_etl"])
    db = r.choice(["pms", "loyalty", "pos", "bookings", "staff"])
    scheme = r.choice(["postgresql", "postgres"])
    return f"{scheme}://{user}:{p}@{_host(r)}:5432/{db}", p


def _conn_mysql(r):
    p = _urlpw(r)
    user = r.choice(["wp", "root", "menu_app", "wifi_portal"])
    if r.random() < 0.5:
        return (
            f"mysql://{user}:{p}@{_host(r)}:3306/{r.choice(['wordpress', 'menu', 'radius'])}",
            p,
        )
    return (
        f"{user}:{p}@tcp({_host(r)}:3306)/{r.choice(['radius', 'portal'])}?parseTime=true",
        p,
    )


def _conn_mssql(r):
    p = _urlpw(r).replace(";", "")
    srv = r.choice(
        [
            "tcp:hg-erp.database.windows.net,1433",
            "sql01.office.lan,1433",
            "10.0.4.20,1433",
        ]
    )
    return (
        f"Server={srv};Database={r.choice(['Opera', 'Payroll', 'BackOffice'])};"
        f"User ID={r.choice(['sa', 'bo_app', 'svc_reports'])};Password={p};Encrypt=True;"
    ), p


def _conn_redis(r):
    p = _urlpw(r)
    if r.random() < 0.5:
        return f"redis://default:{p}@{_host(r)}:6379/{r.randint(0, 5)}", p
    return f"rediss://:{p}@cache-{r.randint(1, 9)}.hg.internal:6380", p


def _azure_storage(r):
    k = _s(r, 86, B64) + "=="
    acct = "hg" + _s(r, 6, LOWNUM)
    return (f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={k};EndpointSuffix=core.windows.net"), k


def _slack_hook(r):
    t = _s(r, 24, ALNUM)
    return (
        f"https://hooks.slack.com/services/T{_s(r, 10, UPNUM)}/B{_s(r, 10, UPNUM)}/{t}",
        t,
    )


def _discord_hook(r):
    t = _s(r, 68, B64U)
    return f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18 - 1)}/{t}", t


def _rtsp(r):
    p = _urlpw(r)
    user = r.choice(["admin", "viewer", "nvr", "cctv"])
    path = r.choice(
        [
            "Streaming/Channels/101",
            "cam/realmonitor?channel=1&subtype=0",
            "h264Preview_01_main",
        ]
    )
    return f"rtsp://{user}:{p}@{_ip(r)}:554/{path}", p


def _presigned(r):
    sig = _s(r, 64, HEX)
    kid = "AS" + "IA" + _s(r, 16, UPNUM)
    b = r.choice(["hg-invoices", "hg-guest-docs", "resto-menus", "hg-cctv-export"])
    obj = (
        r.choice(["2026/11/folio-", "exports/night-audit-", "menus/winter-", "clips/lobby-"])
        + str(r.randint(1000, 99999))
        + r.choice([".pdf", ".csv", ".mp4"])
    )
    return (
        f"https://{b}.s3.eu-west-1.amazonaws.com/{obj}?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={kid}%2F20261205%2Feu-west-1%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20261205T{r.randint(10, 23)}0000Z&X-Amz-Expires={r.choice([900, 3600, 604800])}"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    ), sig


def _pem_block(r, label: str, first: str, nlines: int) -> str:
    body = first + _s(r, 64 * nlines + r.randint(10, 60) - len(first), B64)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    dash = "-" * 5
    return f"{dash}BEGIN {label}{dash}\n" + "\n".join(lines) + f"\n{dash}END {label}{dash}"


def _openssh(r):
    v = _pem_block(r, "OPENSSH " + "PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAA", r.randint(5, 7))
    return v, v


def _rsa(r):
    label = r.choice(["RSA " + "PRIVATE KEY", "PRIVATE " + "KEY"])
    first = "MIIEow" if label.startswith("RSA") else "MIIEvQ"
    v = _pem_block(r, label, first, r.randint(12, 25))
    return v, v


def _ha_token(r):
    iat = r.randint(1_700_000_000, 1_790_000_000)
    return _jwt(r, {"iss": _s(r, 32, HEX), "iat": iat, "exp": iat + 315360000})


def _mapbox_sk(r):
    body = _b64url(
        {
            "u": r.choice(["harbourgroup", "hg-maps", "restochain"]),
            "a": _s(r, 25, LOWNUM),
        }
    )
    return "s" + "k." + body + "." + _s(r, 22, B64U)


def _adyen_key(r):
    return "AQE" + _s(r, 95, B64) + "==-" + _s(r, 43, B64) + "=-" + _s(r, 16, ALNUM)


def _entra(r):
    return _s(r, 3, ALNUM) + r.choice(DIG) + "Q" + "~" + _s(r, 34, ALNUM + "_.~-")


def _openai(r):
    return "sk-" + "proj-" + _s(r, 74, B64U) + "T3Blbk" + "FJ" + _s(r, 74, B64U)


def _tailscale(r):
    return "tskey-" + "auth-" + _s(r, 11, ALNUM) + "CNTRL-" + _s(r, 33, ALNUM)


def _telegram(r):
    return str(r.randint(10**9, 8 * 10**9)) + ":AA" + _s(r, 33, B64U)


# kind, vendor label, env var, config key, maker, style
KINDS = [
    (
        "mews_access_token",
        "Mews Connector API",
        "MEWS_ACCESS_TOKEN",
        "AccessToken",
        _tok(lambda r: _s(r, 32, HEXU) + "-" + _s(r, 31, HEXU)),
        "token",
    ),
    (
        "cloudbeds_api_key",
        "Cloudbeds",
        "CLOUDBEDS_API_KEY",
        "api_key",
        _tok(lambda r: "cb" + "at_" + _s(r, 32, ALNUM)),
        "token",
    ),
    (
        "opera_cloud_client_secret",
        "OPERA Cloud (OHIP)",
        "OHIP_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: _s(r, 8, HEX) + "-" + _s(r, 24, B64U)),
        "token",
    ),
    (
        "opera_cloud_app_key",
        "OPERA Cloud OHIP x-app-key",
        "OHIP_APP_KEY",
        "app_key",
        _tok(_uuid),
        "token",
    ),
    (
        "siteminder_password",
        "SiteMinder pmsXchange",
        "SITEMINDER_PASSWORD",
        "password",
        _pw_maker,
        "password",
    ),
    (
        "booking_com_password",
        "Booking.com connectivity machine account",
        "BDC_MACHINE_PASSWORD",
        "password",
        _pw_maker,
        "password",
    ),
    (
        "expedia_shared_secret",
        "Expedia Rapid shared secret",
        "EXPEDIA_SHARED_SECRET",
        "shared_secret",
        _tok(lambda r: _s(r, 26, LOWNUM)),
        "token",
    ),
    (
        "salto_client_secret",
        "Salto KS API",
        "SALTO_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: _s(r, 40, ALNUM)),
        "token",
    ),
    (
        "vostio_api_key",
        "Vostio (ASSA ABLOY) API",
        "VOSTIO_API_KEY",
        "api_key",
        _tok(lambda r: _s(r, 48, ALNUM)),
        "token",
    ),
    (
        "radius_shared_secret",
        "RADIUS shared secret",
        "RADIUS_SECRET",
        "secret",
        _tok(lambda r: _s(r, r.randint(16, 28), ALNUM) if r.random() < 0.5 else _password(r)),
        "password",
    ),
    (
        "meraki_api_key",
        "Meraki Dashboard API",
        "MERAKI_DASHBOARD_API_KEY",
        "api_key",
        _tok(lambda r: _s(r, 40, HEX)),
        "token",
    ),
    (
        "unifi_admin_password",
        "UniFi controller admin",
        "UNIFI_PASSWORD",
        "password",
        _pw_maker,
        "password",
    ),
    (
        "fortigate_api_token",
        "FortiGate REST API",
        "FORTIGATE_API_TOKEN",
        "api_token",
        _tok(lambda r: _s(r, 30, ALNUM)),
        "token",
    ),
    (
        "fortigate_ipsec_psk",
        "FortiGate IPsec pre-shared key",
        "IPSEC_PSK",
        "psksecret",
        _tok(lambda r: _s(r, 24, ALNUM) if r.random() < 0.5 else _password(r)),
        "password",
    ),
    (
        "nvr_rtsp_password",
        "CCTV NVR RTSP stream",
        "NVR_RTSP_URL",
        "stream_url",
        _rtsp,
        "url",
    ),
    (
        "wifi_psk",
        "staff Wi-Fi WPA2 passphrase",
        "STAFF_WIFI_PSK",
        "wpa_passphrase",
        _pw_maker,
        "password",
    ),
    (
        "toast_client_secret",
        "Toast API",
        "TOAST_CLIENT_SECRET",
        "clientSecret",
        _tok(lambda r: _s(r, 64, B64U)),
        "token",
    ),
    (
        "square_access_token",
        "Square",
        "SQUARE_ACCESS_TOKEN",
        "access_token",
        _tok(lambda r: "EA" + "AA" + _s(r, 60, B64U)),
        "token",
    ),
    (
        "square_application_secret",
        "Square OAuth application secret",
        "SQUARE_APP_SECRET",
        "application_secret",
        _tok(lambda r: "sq0" + "csp-" + _s(r, 43, B64U)),
        "token",
    ),
    (
        "lightspeed_client_secret",
        "Lightspeed Restaurant",
        "LIGHTSPEED_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: _s(r, 40, ALNUM)),
        "token",
    ),
    (
        "deliveroo_client_secret",
        "Deliveroo Partner API",
        "DELIVEROO_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: _s(r, 52, B64U)),
        "token",
    ),
    (
        "ubereats_client_secret",
        "Uber Eats Marketplace API",
        "UBER_EATS_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: _s(r, 40, B64U)),
        "token",
    ),
    (
        "doordash_signing_secret",
        "DoorDash Drive signing secret",
        "DOORDASH_SIGNING_SECRET",
        "signing_secret",
        _tok(lambda r: _s(r, 43, B64U)),
        "token",
    ),
    (
        "opentable_client_secret",
        "OpenTable Sync API",
        "OPENTABLE_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: _s(r, 32, ALNUM)),
        "token",
    ),
    (
        "sevenrooms_api_key",
        "SevenRooms API",
        "SEVENROOMS_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: _s(r, 64, HEX)),
        "token",
    ),
    (
        "adyen_api_key",
        "Adyen API",
        "ADYEN_API_KEY",
        "x-api-key",
        _tok(_adyen_key),
        "token",
    ),
    (
        "adyen_hmac_key",
        "Adyen webhook HMAC key",
        "ADYEN_HMAC_KEY",
        "hmacKey",
        _tok(lambda r: _s(r, 64, HEXU)),
        "token",
    ),
    (
        "stripe_secret_key",
        "Stripe",
        "STRIPE_SECRET_KEY",
        "secret_key",
        _tok(lambda r: "sk_" + "live_" + _s(r, r.choice([24, 99]), ALNUM)),
        "token",
    ),
    (
        "stripe_restricted_key",
        "Stripe Terminal restricted key",
        "STRIPE_TERMINAL_KEY",
        "restricted_key",
        _tok(lambda r: "rk_" + "live_" + _s(r, r.choice([24, 99]), ALNUM)),
        "token",
    ),
    (
        "stripe_webhook_secret",
        "Stripe webhook signing secret",
        "STRIPE_WEBHOOK_SECRET",
        "webhook_secret",
        _tok(lambda r: "wh" + "sec_" + _s(r, 32, ALNUM)),
        "token",
    ),
    (
        "twilio_auth_token",
        "Twilio auth token",
        "TWILIO_AUTH_TOKEN",
        "auth_token",
        _tok(lambda r: _s(r, 32, HEX)),
        "token",
    ),
    (
        "whatsapp_cloud_api_token",
        "WhatsApp Business Cloud API",
        "WHATSAPP_TOKEN",
        "access_token",
        _tok(lambda r: "EA" + "A" + r.choice("GJBIL") + _s(r, r.randint(170, 200), ALNUM)),
        "token",
    ),
    (
        "xero_client_secret",
        "Xero",
        "XERO_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: _s(r, 48, B64U)),
        "token",
    ),
    (
        "deputy_permanent_token",
        "Deputy permanent token",
        "DEPUTY_TOKEN",
        "permanent_token",
        _tok(lambda r: _s(r, 32, HEX)),
        "token",
    ),
    (
        "sevenshifts_access_token",
        "7shifts API",
        "SEVENSHIFTS_ACCESS_TOKEN",
        "access_token",
        _tok(lambda r: _s(r, 48, ALNUM)),
        "token",
    ),
    (
        "google_oauth_client_secret",
        "Google Business Profile OAuth client secret",
        "GBP_CLIENT_SECRET",
        "client_secret",
        _tok(lambda r: "GOC" + "SPX-" + _s(r, 28, B64U)),
        "token",
    ),
    (
        "google_oauth_refresh_token",
        "Google Business Profile refresh token",
        "GBP_REFRESH_TOKEN",
        "refresh_token",
        _tok(lambda r: "1//0" + r.choice("3g9e") + _s(r, 98, B64U)),
        "token",
    ),
    (
        "entra_client_secret",
        "Entra ID app registration secret",
        "AZURE_CLIENT_SECRET",
        "ClientSecret",
        _tok(_entra),
        "token",
    ),
    (
        "m365_mailbox_password",
        "Microsoft 365 shared mailbox",
        "M365_MAILBOX_PASSWORD",
        "password",
        _pw_maker,
        "password",
    ),
    (
        "slack_webhook_token",
        "Slack incoming webhook",
        "SLACK_WEBHOOK_URL",
        "webhook_url",
        _slack_hook,
        "url",
    ),
    (
        "discord_webhook_token",
        "Discord webhook",
        "DISCORD_WEBHOOK_URL",
        "webhook_url",
        _discord_hook,
        "url",
    ),
    (
        "sendgrid_api_key",
        "SendGrid",
        "SENDGRID_API_KEY",
        "api_key",
        _tok(lambda r: "S" + "G." + _s(r, 22, B64U) + "." + _s(r, 43, B64U)),
        "token",
    ),
    (
        "mailchimp_api_key",
        "Mailchimp",
        "MAILCHIMP_API_KEY",
        "api_key",
        _tok(lambda r: _s(r, 32, HEX) + "-us" + str(r.randint(1, 21))),
        "token",
    ),
    (
        "github_pat",
        "GitHub personal access token",
        "GITHUB_TOKEN",
        "token",
        _tok(lambda r: "gh" + "p_" + _s(r, 36, ALNUM)),
        "token",
    ),
    (
        "github_fine_grained_pat",
        "GitHub fine-grained token",
        "GH_PAT",
        "token",
        _tok(lambda r: "github" + "_pat_" + _s(r, 22, ALNUM) + "_" + _s(r, 59, ALNUM)),
        "token",
    ),
    (
        "aws_secret_access_key",
        "AWS secret access key",
        "AWS_SECRET_ACCESS_KEY",
        "aws_secret_access_key",
        _tok(lambda r: _s(r, 40, B64)),
        "token",
    ),
    ("postgres_password", "Postgres", "DATABASE_URL", "database_url", _conn_pg, "url"),
    ("mysql_password", "MySQL", "MYSQL_DSN", "dsn", _conn_mysql, "url"),
    (
        "mssql_password",
        "SQL Server",
        "ConnectionStrings__BackOffice",
        "ConnectionString",
        _conn_mssql,
        "url",
    ),
    ("redis_password", "Redis", "REDIS_URL", "redis_url", _conn_redis, "url"),
    (
        "azure_storage_account_key",
        "Azure Storage",
        "AZURE_STORAGE_CONNECTION_STRING",
        "connection_string",
        _azure_storage,
        "url",
    ),
    (
        "openssh_private_key",
        "OpenSSH private key",
        "DEPLOY_KEY",
        "private_key",
        _openssh,
        "pem",
    ),
    ("rsa_private_key", "RSA private key", "SERVICE_KEY", "private_key", _rsa, "pem"),
    (
        "telegram_bot_token",
        "Telegram bot",
        "TELEGRAM_BOT_TOKEN",
        "bot_token",
        _tok(_telegram),
        "token",
    ),
    (
        "home_assistant_token",
        "Home Assistant long-lived token",
        "HASS_TOKEN",
        "token",
        _tok(_ha_token),
        "token",
    ),
    (
        "tailscale_auth_key",
        "Tailscale auth key",
        "TS_AUTHKEY",
        "authkey",
        _tok(_tailscale),
        "token",
    ),
    (
        "cloudflare_api_token",
        "Cloudflare API token",
        "CLOUDFLARE_API_TOKEN",
        "api_token",
        _tok(lambda r: _s(r, 40, B64U)),
        "token",
    ),
    (
        "sumup_api_key",
        "SumUp",
        "SUMUP_API_KEY",
        "api_key",
        _tok(lambda r: "sup" + "_sk_" + _s(r, 32, ALNUM)),
        "token",
    ),
    ("openai_api_key", "OpenAI", "OPENAI_API_KEY", "api_key", _tok(_openai), "token"),
    (
        "hubspot_private_app_token",
        "HubSpot private app",
        "HUBSPOT_TOKEN",
        "access_token",
        _tok(lambda r: "pat-" + r.choice(["na1", "eu1"]) + "-" + _uuid(r)),
        "token",
    ),
    (
        "zendesk_api_token",
        "Zendesk API token",
        "ZENDESK_API_TOKEN",
        "api_token",
        _tok(lambda r: _s(r, 40, ALNUM)),
        "token",
    ),
    (
        "iptv_admin_password",
        "IPTV headend admin",
        "IPTV_ADMIN_PASSWORD",
        "admin_password",
        _pw_maker,
        "password",
    ),
    (
        "printer_admin_password",
        "printer web admin",
        "PRINTER_ADMIN_PW",
        "admin_password",
        _pw_maker,
        "password",
    ),
    (
        "keycard_encoder_password",
        "keycard encoder operator",
        "ENCODER_PASSWORD",
        "operator_password",
        _pw_maker,
        "password",
    ),
    (
        "captive_portal_api_secret",
        "guest Wi-Fi captive portal API",
        "PORTAL_API_SECRET",
        "api_secret",
        _tok(lambda r: _s(r, 40, LOWNUM)),
        "token",
    ),
    (
        "s3_presigned_signature",
        "S3 pre-signed link",
        "EXPORT_URL",
        "download_url",
        _presigned,
        "url",
    ),
    (
        "npm_token",
        "npm automation token",
        "NPM_TOKEN",
        "authToken",
        _tok(lambda r: "np" + "m_" + _s(r, 36, ALNUM)),
        "token",
    ),
    (
        "mapbox_secret_token",
        "Mapbox secret token",
        "MAPBOX_SECRET_TOKEN",
        "access_token",
        _tok(_mapbox_sk),
        "token",
    ),
]

# ---------------------------------------------------------------- positive templates
# placeholders: <<val>> (the value as written), <<vendor>>, <<var>>, <<key>>, <<slug>>,
# <<site>>, <<resto>>, <<person>>, <<person2>>, <<date>>, <<time>>, <<time2>>, <<ip>>,
# <<host>>, <<n>>

NOTE_T = [
    "Note <<date>>: <<vendor>> for <<site>> — <<key>> is <<val>>. Rotate after the audit.",
    (
        "Lesson learned: the <<vendor>> integration at <<site>> failed silently because <<var>> was "
        "stale. Current value: <<val>> (updated by <<person>>)."
    ),
    (
        "Runbook – reconnect <<vendor>> after the PMS restart\n1. ssh ops@<<host>>\n"
        "2. export <<var>>='<<val>>'\n3. systemctl restart pms-bridge\n"
        "4. tail /var/log/pms-bridge.log until it says 'connected'"
    ),
    ("TODO(<<person>>): move <<var>>=<<val>> out of the shared OneNote page and into the vault before <<date>>."),
    (
        "Handover <<site>> night shift -> <<person>>:\n- lift 2 OK, boiler ticket still open\n"
        "- <<vendor>> <<key>>: <<val>>\n- call <<person2>> if the channel manager drops rates again"
    ),
    (
        "[IT-<<n>>] <<resto>>: <<vendor>> sync broken since <<date>>\nReporter: <<person>>\n"
        "Resolution: re-entered <<key>> = <<val>> in back office, orders flowing again."
    ),
    (
        "From: <<person>>@harbourgroup.example\nTo: it@harbourgroup.example\n"
        "Subject: <<vendor>> for <<site>>\n\nHi,\nas requested, the <<key>> is <<val>>\n"
        "Please don't forward this.\n<<person>>"
    ),
    (
        "[<<time>>] <<person>>: what's the <<vendor>> <<key>> again? the tablet logged out\n"
        "[<<time2>>] <<person2>>: <<val>>\n[<<time2>>] <<person>>: thx, works"
    ),
    (
        "Decision (<<date>>): one <<vendor>> credential for all properties, stored as <<var>>. "
        "Value right now: <<val>> — revisit when <<site>> joins the group."
    ),
    "- <<site>> / <<vendor>>: <<key>>=<<val>> (set up by <<person>>, works with the new KDS tablets)",
    (
        "Remember: when <<resto>> reopens after the refurb, re-pair the POS with <<vendor>> using "
        "<<val>> as the <<key>>. <<person>> has the admin login for the rest."
    ),
    ("Nota para <<person>>: la clave de <<vendor>> de <<resto>> es <<val>> — no la compartas por WhatsApp, porfa."),
    "Σημείωση <<date>>: το <<key>> για <<vendor>> στο <<site>> είναι <<val>>. Αλλαγή μετά τη σεζόν.",
    "บันทึก: รหัส <<vendor>> ของ <<site>> คือ <<val>> (อัปเดตโดย <<person>> วันที่ <<date>>)",
    "Not: <<site>> için <<vendor>> <<key>> değeri <<val>> — <<person>> değiştirdi, kimseyle paylaşma.",
    "Anteckning <<date>>: <<vendor>> för <<site>>, <<key>> = <<val>>. Byt efter revisionen. /<<person>>",
    "Ghi chú: khóa <<vendor>> của <<resto>> là <<val>> — <<person>> đã cập nhật ngày <<date>>.",
]

CONF_T = [
    "# <<site>> bridge\nAPP_ENV=production\nPMS_PROPERTY_ID=<<n>>\n<<var>>=<<val>>\nLOG_LEVEL=info",
    (
        "services:\n  bridge:\n    image: ghcr.io/harbourgroup/<<slug>>-bridge:1.<<n>>\n"
        "    environment:\n      - TZ=Europe/Madrid\n      - <<var>>=<<val>>\n    restart: unless-stopped"
    ),
    '{\n  "property": "<<site>>",\n  "<<key>>": "<<val>>",\n  "timeoutSeconds": 30\n}',
    'integrations:\n  <<slug>>:\n    enabled: true\n    <<key>>: "<<val>>"\n    retries: 3',
    "[<<slug>>]\nendpoint = https://<<host>>/api\n<<key>> = <<val>>\nverify_ssl = true",
    '# secrets.yaml (Home Assistant, <<site>>)\n<<slug>>_secret: "<<val>>"\nhome_latitude: 36.7<<n>>',
    "<?php\nreturn [\n    '<<slug>>' => [\n        '<<key>>' => '<<val>>',\n        'sandbox' => false,\n    ],\n];",
    "module.exports = {\n  <<slug>>: {\n    secret: '<<val>>',\n    site: '<<site>>',\n  },\n};",
    "# sync-<<slug>>.ps1\n$env:<<var>> = '<<val>>'\nInvoke-RestMethod -Uri https://<<host>>/sync -Method Post",
]

OUT_T = [
    (
        "$ docker inspect <<slug>>-bridge --format '{{json .Config.Env}}'\n"
        '["TZ=Europe/Madrid","<<var>>=<<val>>","NODE_ENV=production"]'
    ),
    (
        "2026-12-0<<d>>T02:11:09Z ##[group]Run ./scripts/sync.sh\n2026-12-0<<d>>T02:11:09Z env:\n"
        "2026-12-0<<d>>T02:11:09Z   <<var>>: <<val>>\n2026-12-0<<d>>T02:11:10Z ##[endgroup]"
    ),
    "ops@<<host>>:~$ printenv | grep <<var>>\n<<var>>=<<val>>\nops@<<host>>:~$ ",
    (
        "<<date>>T03:14:22Z <<slug>>-bridge  | INFO loading config from env\n"
        "<<date>>T03:14:22Z <<slug>>-bridge  | DEBUG <<key>>=<<val>>\n"
        "<<date>>T03:14:23Z <<slug>>-bridge  | INFO connected (<<n>> ms)"
    ),
    (
        "Run ./deploy.sh <<slug>>\n+ export <<var>>=<<val>>\n+ ./bin/bridge --check\nok: <<vendor>> reachable\n"
        "Job succeeded in <<n>>s"
    ),
    (
        "PS C:\\Users\\<<person>>> Get-ChildItem Env:<<var>>\n\nName                           Value\n"
        "----                           -----\n<<var>>  <<val>>"
    ),
    'POST /hooks/<<slug>> -> 200 (<<n>> ms)\nRequest body:\n{"event":"config.updated","<<key>>":"<<val>>"}',
    "UDM-Pro# cat /data/custom/<<slug>>.conf\n<<key>>=<<val>>\nUDM-Pro# ",
    "$ kubectl -n hotels get secret <<slug>> -o jsonpath='{.data.value}' | base64 -d\n<<val>>",
]

TOKEN_OUT_T = [
    (
        "$ curl -v https://<<slug>>-proxy.hg.internal/v1/ping -H 'Authorization: Bearer <<val>>'\n> GET /v1/ping HTTP/2\n"
        "> Host: <<slug>>-proxy.hg.internal\n> user-agent: curl/8.5.0\n>\n< HTTP/2 200\n< content-type: application/json"
    ),
]

PEM_T = [
    "Deploy key for the <<site>> NAS backup job (<<person>> added it <<date>>):\n<<val>>",
    "$ cat ~/.ssh/<<slug>>_key\n<<val>>\n$ chmod 600 ~/.ssh/<<slug>>_key",
    "Subject: key for <<site>> jump host\n\nInline as requested:\n\n<<val>>\n\n-- <<person>>",
    "[IT-<<n>>] rotate jump-host key\nOld key below, still active until <<date>>:\n<<val>>",
    '<<var>>="<<val>>"\nSFTP_HOST=<<host>>',
    "<<person>>: here is the key for the accountant's sftp\n<<val>>\n<<person2>>: got it, deleting this after",
    "Clave privada del servidor de <<resto>> (no subir a git):\n<<val>>",
    "$ terraform output -raw <<slug>>_private_key\n<<val>>",
    "Lesson: ssh-keygen -p refused the old key at <<site>>, the working key is:\n<<val>>",
]

EXTRA_T = {
    "radius_shared_secret": [
        (
            "client <<slug>>-ap-<<n>> {\n    ipaddr = <<ip>>\n    secret = <<val>>\n"
            "    shortname = <<slug>>\n    nas_type = other\n}"
        ),
        (
            "Meraki > Wireless > Access control (<<site>> Guest): RADIUS server <<ip>> port 1812, "
            "secret <<val>>. Accounting on 1813."
        ),
        (
            '$ echo "User-Name = healthcheck" | radclient -x <<ip>>:1812 status <<val>>\n'
            "Sent Status-Server Id 118 from 0.0.0.0:41022 to <<ip>>:1812 length 38"
        ),
    ],
    "fortigate_ipsec_psk": [
        (
            'config vpn ipsec phase1-interface\n    edit "to-<<slug>>"\n        set interface "wan1"\n'
            "        set peertype any\n        set proposal aes256-sha256\n        set remote-gw <<ip>>\n"
            "        set psksecret <<val>>\n    next\nend"
        ),
        "VPN between office and <<site>>: IKEv2, AES256/SHA256, DH 14, PSK <<val>>",
    ],
    "fortigate_api_token": [
        (
            "FGT60F # execute api-user generate-key api-admin\nNew API key: <<val>>\n"
            "NOTE: The bearer of this API key will be granted all access privileges assigned to the "
            "api-user api-admin."
        ),
        (
            "$ curl -sk 'https://<<ip>>/api/v2/monitor/system/status' -H 'Authorization: Bearer <<val>>'\n"
            '{"http_method":"GET","status":"success","version":"v7.4.4"}'
        ),
    ],
    "unifi_admin_password": [
        ("UniFi Network (<<site>>) > Settings > System > Device SSH Authentication: user root, password <<val>>"),
    ],
    "wifi_psk": [
        "interface=wlan0\nssid=<<slug>>-staff\nwpa=2\nwpa_key_mgmt=WPA-PSK\nwpa_passphrase=<<val>>",
        (
            'PS> netsh wlan show profile name="<<site>>-Staff" key=clear\n...\nSecurity settings\n'
            "-----------------\n    Authentication         : WPA2-Personal\n    Key Content            : <<val>>"
        ),
    ],
    "nvr_rtsp_password": [
        '$ ffprobe -v error -rtsp_transport tcp -show_streams "<<val>>"\ncodec_name=h264\nwidth=2688',
        "CCTV lobby cam for VLC (<<site>>): <<val>>",
    ],
    "m365_mailbox_password": [
        (
            "PS> $pw = ConvertTo-SecureString '<<val>>' -AsPlainText -Force\n"
            "PS> $cred = New-Object PSCredential('reservations@harbourgroup.example', $pw)\n"
            "PS> Connect-ExchangeOnline -Credential $cred"
        ),
        "Shared mailbox reservations@ (<<site>>) password: <<val>> — MFA excluded via CA policy, ask <<person>>.",
    ],
    "stripe_secret_key": [
        (
            "$ curl https://api.stripe.com/v1/terminal/readers -u <<val>>:\n"
            '{\n  "object": "list",\n  "data": [],\n  "has_more": false\n}'
        ),
    ],
    "whatsapp_cloud_api_token": [
        (
            "curl -X POST https://graph.facebook.com/v21.0/1<<n>>/messages "
            "-H 'Authorization: Bearer <<val>>' -H 'Content-Type: application/json' "
            '-d \'{"messaging_product":"whatsapp","to":"34600<<n>>","type":"template"}\''
        ),
    ],
    "meraki_api_key": [
        (
            "$ curl -s -H 'X-Cisco-Meraki-API-Key: <<val>>' https://api.meraki.com/api/v1/organizations\n"
            '[{"id":"5<<n>>","name":"Harbour Group"}]'
        ),
    ],
    "postgres_password": ['$ psql "<<val>>" -c "select count(*) from reservations"\n count\n-------\n  <<n>>'],
    "mssql_password": [
        (
            '{\n  "ConnectionStrings": {\n    "BackOffice": "<<val>>"\n  },\n  "Logging": { "LogLevel": '
            '{ "Default": "Warning" } }\n}'
        ),
    ],
    "keycard_encoder_password": [
        "Encoder station <<site>> reception: operator login 'frontdesk' / <<val>> (Salto ProAccess Space)",
    ],
    "printer_admin_password": [
        "Printer <<resto>> kitchen (Epson TM-m30III) web admin http://<<ip>> — user epson / pw <<val>>",
    ],
    "iptv_admin_password": [
        "IPTV headend <<site>>: http://<<ip>>:8080/admin, login admin, password <<val>>. Channels list resets if you reboot.",
    ],
    "twilio_auth_token": [
        "curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC" + "<<hex32>>" + "/Messages.json "
        "--data-urlencode 'To=+3460<<n>>' -u AC<<hex32>>:<<val>>",
    ],
}


def _slug(kind: str) -> str:
    return kind.split("_")[0]


class _Ctx:
    def __init__(self, r: random.Random, base: dict):
        self.r = r
        self.d = dict(base)

    def get(self, name: str) -> str:
        if name in self.d:
            return self.d[name]
        r = self.r
        core = name if name in _FILL else name.rstrip("0123456789")
        if core in _FILL:
            v = _FILL[core](r)
        else:
            raise KeyError(name)
        self.d[name] = v
        return v


def _fill(r: random.Random, tmpl: str, base: dict | None = None) -> str:
    ctx = _Ctx(r, base or {})
    return re.sub(r"<<(\w+)>>", lambda m: ctx.get(m.group(1)), tmpl)


def _time(r):
    return f"{r.randint(6, 23):02d}:{r.randint(0, 59):02d}"


_FILL = {
    "site": lambda r: r.choice(HOTELS),
    "resto": lambda r: r.choice(RESTOS),
    "person": lambda r: r.choice(PEOPLE),
    "date": _date,
    "time": _time,
    "ip": _ip,
    "host": _host,
    "n": lambda r: str(r.randint(100, 99999)),
    "hex": lambda r: _s(r, 32, HEX),
    "hexu": lambda r: _s(r, 32, HEXU),
    "sha": lambda r: _s(r, 40, HEX),
    "shortsha": lambda r: _s(r, 7, HEX),
    "sha256": lambda r: _s(r, 64, HEX),
    "md5": lambda r: _s(r, 32, HEX),
    "uuid": _uuid,
    "word": lambda r: r.choice(WORDS),
    "room": lambda r: str(r.randint(1, 6)) + f"{r.randint(1, 40):02d}",
    "resv": lambda r: _s(r, 2, UP) + _s(r, 8, DIG),
    "phone": lambda r: "+34 6" + _s(r, 2, DIG) + " " + _s(r, 3, DIG) + " " + _s(r, 3, DIG),
    "up8": lambda r: _s(r, 8, UPNUM),
    "low12": lambda r: _s(r, 12, LOWNUM),
    "digits": lambda r: _s(r, 15, DIG),
    "b64": lambda r: _s(r, r.randint(60, 120), B64),
    "b64b": lambda r: _s(r, r.randint(60, 120), B64),
}
_FILL["hex32"] = _FILL["hex"]


def _positive(r: random.Random, spec) -> tuple[str, str]:
    kind, vendor, var, key, maker, style = spec
    value, secret = maker(r)
    if style == "pem":
        tmpl = r.choice(PEM_T)
    else:
        extras = EXTRA_T.get(kind, [])
        if extras and r.random() < 0.3:
            tmpl = r.choice(extras)
        else:
            x = r.random()
            if x < 0.5:
                tmpl = r.choice(NOTE_T)
            elif x < 0.75:
                tmpl = r.choice(CONF_T)
            else:
                pool = OUT_T + (TOKEN_OUT_T if style == "token" else [])
                tmpl = r.choice(pool)
    base = {"val": value, "vendor": vendor, "var": var, "key": key, "slug": _slug(kind)}
    return _fill(r, tmpl, base), secret


# ---------------------------------------------------------------- look-alike values
def _bcrypt(r):
    return "$2b$" + r.choice(["10", "12"]) + "$" + _s(r, 53, ALNUM + "./")


def _argon2(r):
    return "$argon2id$v=19$m=65536,t=3,p=4$" + _s(r, 22, ALNUM + "+/") + "$" + _s(r, 43, ALNUM + "+/")


def _sha512crypt(r):
    return "$6$" + _s(r, 16, ALNUM + "./") + "$" + _s(r, 86, ALNUM + "./")


def _vault(r):
    lines = [_s(r, 80, "0123456789abcdef") for _ in range(r.randint(3, 5))]
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(lines)


def _sops(r):
    return f"ENC[AES256_GCM,data:{_s(r, r.randint(20, 60), B64)}=,iv:{_s(r, 43, B64)}=,tag:{_s(r, 22, B64)}==,type:str]"


def _fortienc(r):
    return "ENC " + _s(r, r.randint(100, 140), B64) + "="


def _sshpub(r):
    if r.random() < 0.5:
        return "ssh-" + "ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _s(r, 43, B64)
    return "ssh-" + "rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + _s(r, 300, B64)


def _cert(r):
    return _pem_block(r, "CERTIFICATE", "MIID" + r.choice("xyz"), r.randint(8, 14))


def _pubkey_pem(r):
    return _pem_block(r, "PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 6)


def _png(r):
    return "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + _s(r, r.randint(120, 260), B64) + "=="


def _supa_anon(r):
    iat = r.randint(1_690_000_000, 1_790_000_000)
    return _jwt(
        r,
        {
            "iss": "supabase",
            "ref": _s(r, 20, LOW),
            "role": "anon",
            "iat": iat,
            "exp": iat + 10**9,
        },
    )


LOOK_FILL = {
    "stripe_pk": lambda r: "pk_" + "live_" + _s(r, r.choice([24, 99]), ALNUM),
    "sq_appid": lambda r: "sq0" + "idp-" + _s(r, 22, B64U),
    "adyen_ck": lambda r: "live_" + _s(r, 32, UPNUM),
    "gclient": lambda r: str(r.randint(10**11, 10**12 - 1)) + "-" + _s(r, 32, LOWNUM) + ".apps.googleusercontent.com",
    "firebase": lambda r: "AI" + "za" + "Sy" + _s(r, 33, B64U),
    "sentry": lambda r: (
        f"https://{_s(r, 32, HEX)}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/{r.randint(10**6, 10**7)}"
    ),
    "recaptcha": lambda r: "6L" + _s(r, 38, B64U),
    "supa_anon": _supa_anon,
    "algolia": lambda r: _s(r, 32, HEX),
    "mapbox_pk": lambda r: "p" + "k." + _b64url({"u": "harbourgroup", "a": _s(r, 25, LOWNUM)}) + "." + _s(r, 22, B64U),
    "twilio_sid": lambda r: "AC" + _s(r, 32, HEX),
    "msg_sid": lambda r: "SM" + _s(r, 32, HEX),
    "bcrypt": _bcrypt,
    "argon2": _argon2,
    "sha512crypt": _sha512crypt,
    "vault": _vault,
    "sops": _sops,
    "fortienc": _fortienc,
    "sshpub": _sshpub,
    "sshfp": lambda r: "SHA256:" + _s(r, 43, B64),
    "cert": _cert,
    "pubkey": _pubkey_pem,
    "wgpub": lambda r: _s(r, 43, B64) + "=",
    "png": _png,
    "digest": lambda r: "sha256:" + _s(r, 64, HEX),
    "evt": lambda r: "evt_" + _s(r, 24, ALNUM),
    "pi": lambda r: "pi_" + _s(r, 24, ALNUM),
    "tmr": lambda r: "tmr_" + _s(r, 14, ALNUM),
    "runid": lambda r: _s(r, 8, LOWNUM),
    "model": lambda r: r.choice(
        [
            "sentence-transformers/all-MiniLM-L6-v2",
            "facebook/bart-large-mnli",
            "BAAI/bge-small-en-v1.5",
            "Helsinki-NLP/opus-mt-es-en",
            "openai/whisper-small",
        ]
    ),
    "meraki_net": lambda r: "L_" + _s(r, 18, DIG),
    "b64json": lambda r: base64.b64encode(
        json.dumps(
            {
                "room": r.randint(100, 640),
                "nights": r.randint(1, 9),
                "rate": r.choice(["BAR", "NRF", "CORP"]),
            }
        ).encode()
    ).decode(),
    "serial": lambda r: "FGT60F" + _s(r, 10, UPNUM),
    "mac": lambda r: ":".join(_s(r, 2, HEX) for _ in range(6)),
    "crc": lambda r: _s(r, 8, HEX),
    "iban_last": lambda r: _s(r, 4, DIG),
    "ms_guid": lambda r: _uuid(r),
    "kv_ver": lambda r: _s(r, 32, HEX),
    "etag": lambda r: '"' + _s(r, 32, HEX) + '"',
    "nodekey": lambda r: "nodekey:" + _s(r, 64, HEX),
    "hex16": lambda r: _s(r, 16, HEX),
    "hex4": lambda r: _s(r, 4, HEX),
    "d": lambda r: str(r.randint(1, 6)),
    "stripe_pk_test": lambda r: "pk_" + "test_" + _s(r, 99, ALNUM),
    "slackt": lambda r: _s(r, 10, UPNUM),
    "tchat": lambda r: _s(r, 10, DIG),
    "sri": lambda r: _s(r, 64, B64),
    "ts": lambda r: str(r.randint(1_780_000_000, 1_800_000_000)),
    "we": lambda r: _s(r, 24, ALNUM),
    "acct": lambda r: _s(r, 12, DIG),
    "gpgid": lambda r: _s(r, 16, HEXU),
    "pubip": lambda r: f"{r.randint(80, 212)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
    "jwt_hdr": lambda r: _b64url({"alg": "RS256", "kid": _s(r, 20, B64U), "typ": "JWT"}),
    "otp": lambda r: _s(r, 6, DIG),
    "execn": lambda r: str(r.randint(1, 400)),
    "ver": lambda r: f"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 99)}",
}
_FILL.update(LOOK_FILL)

LOOK_T = [
    # hashes / checksums / commits / digests
    "Fixed the Mews webhook retry bug in <<shortsha>> (full: <<sha>>), deployed to <<site>> on <<date>>.",
    "sha256sum pms-bridge-<<ver>>.tar.gz\n<<sha256>>  pms-bridge-<<ver>>.tar.gz",
    "Image pinned in compose: ghcr.io/harbourgroup/pos-sync@<<digest>> (built <<date>>)",
    "md5 of the night-audit export for <<site>>: <<md5>> — matches what Cloudbeds support sent.",
    "Firmware for the Salto encoder v<<ver>>: SHA-1 <<sha>>, CRC32 <<crc>>. Checksums OK.",
    "$ git log --oneline -3\n<<shortsha>> fix Deliveroo menu sync\n<<shortsha2>> bump 7shifts client\n<<shortsha3>> add OpenTable webhook",
    "ETag for menu.json on the CDN: <<etag>> — if it changes, KDS tablets redownload.",
    "Merge request !<<n>> merged as commit <<sha>> into main by <<person>>.",
    # ids / uuids
    "Mews enterprise id for <<site>>: <<uuid>> (not secret, just the property id).",
    "Toast restaurantGuid for <<resto>> = <<uuid>>; location id <<n>>.",
    "Support case with Cloudbeds, request id <<uuid>>, x-request-id <<hex>>.",
    "Xero tenant id <<uuid>> — connection name '<<resto>> Ltd'.",
    "Entra ID app 'pms-mail-sync': Application (client) ID <<ms_guid>>, Directory (tenant) ID <<ms_guid2>>. Secret lives in Key Vault, not here.",
    "Stripe event <<evt>> for payment <<pi>> at <<resto>> terminal <<tmr>> — refunded manually.",
    "Twilio Account SID <<twilio_sid>>; last SMS <<msg_sid>> delivered to reception.",
    "Meraki network id <<meraki_net>> (Guest SSID at <<site>>), org id <<n>>.",
    "Booking.com hotel id <<n>>, room type id <<n2>>, rate plan id <<n3>> for <<site>>.",
    "Expedia itinerary <<digits>> / confirmation <<resv>> for guest in room <<room>>.",
    "Deputy location id <<n>>, 7shifts company id <<n2>>, employee import batch <<uuid>>.",
    "OpenTable rid <<n>>, SevenRooms venue id <<low12>>, widget id <<uuid>>.",
    "Opera Cloud hotelId <<up8>>, chainCode HGRP, reservation id <<n>>.",
    '{"trace_id":"<<hex>>","span_id":"<<hex16>>","level":"info","msg":"rates pushed to SiteMinder"}',
    "Deliveroo order <<uuid>> accepted at <<time>>, prep time 14 min, courier id <<n>>.",
    "Uber Eats store_id <<uuid>> for <<resto>>; menu publish job <<uuid2>> succeeded.",
    "DoorDash Drive developer_id <<uuid>> and key_id <<uuid2>> (the signing secret is in 1Password).",
    "Keycard encoder serial <<up8>>, MAC <<mac>>, IP <<ip>> (reception desk 2).",
    "FortiGate serial <<serial>> at <<site>>, firmware v7.4.<<otp>>",
    "AP MAC <<mac>> on VLAN 30 at <<site>>, client count 41.",
    # base64 data, images
    'Logo for the Wi-Fi captive portal (inline): <img src="<<png>>" alt="<<site>>"/>',
    "Webhook payload field 'context' is just base64 JSON: <<b64json>> (decodes to room/nights/rate).",
    "Guest signature image stored as <<png>> in the registration card table.",
    # models / runs / notebooks
    "Review-sentiment experiment: model <<model>>, wandb run <<runid>>, val acc 0.8<<otp>>.",
    '{"cell_type": "code", "execution_count": <<execn>>, "id": "<<low12>>", "metadata": {}, "outputs": []}',
    "MLflow run id <<hex>> for the no-show predictor, artifact uri s3://hg-ml/runs/<<hex>>/model",
    "Menu translation uses <<model>>; cache dir ~/.cache/huggingface/hub, revision <<sha>>.",
    # public-by-design
    "Stripe publishable key for the <<resto>> online ordering page: <<stripe_pk>> (publishable, safe in JS).",
    "Square application id <<sq_appid>>, location id L<<up8>> — both go in the Web Payments SDK front-end.",
    "Adyen client key for Drop-in at <<site>>: <<adyen_ck>> (client-side key, restricted to our origins).",
    "Google OAuth client id for the GBP integration: <<gclient>>",
    'const firebaseConfig = {\n  apiKey: "<<firebase>>",\n  authDomain: "hg-guest-app.firebaseapp.com",\n  projectId: "hg-guest-app",\n  appId: "1:<<n>>:web:<<hex16>>"\n};',
    "SENTRY_DSN=<<sentry>>",
    "reCAPTCHA site key on the booking engine: <<recaptcha>> (site key is public by design).",
    "SUPABASE_ANON_KEY=<<supa_anon>>  # anon key, RLS enforced",
    "Algolia search-only API key for the menu search: <<algolia>> (app id <<up8>>). Admin key NOT here.",
    "Mapbox public token for the hotel map widget: <<mapbox_pk>>",
    "Public cert of the captive portal (for the APs):\n<<cert>>",
    "RSA public key that Adyen uses to verify us:\n<<pubkey>>",
    "WireGuard peer for <<site>>:\n[Peer]\nPublicKey = <<wgpub>>\nAllowedIPs = 10.<<otp>>.0.0/24\nEndpoint = <<pubip>>:51820",
    "authorized_keys on the NAS:\n<<sshpub>> <<person>>@laptop",
    "Host key fingerprint of jump host: ED25519 key fingerprint is <<sshfp>>.",
    "Tailscale node <<person>>-laptop: <<nodekey>> (public node key).",
    "GPG key id for backups: <<gpgid>>; only the public part is on the server.",
    "JWT header seen in OHIP responses: <<jwt_hdr>> (just the header, decodes to alg RS256).",
    # placeholders / docs
    "Docs for new properties: set MEWS_ACCESS_TOKEN=<your-access-token> and MEWS_CLIENT_TOKEN=<your-client-token> in .env, then run make sync SITE=<<site>>.",
    "STRIPE_SECRET_KEY=${STRIPE_SECRET_KEY}\nDATABASE_URL=${DATABASE_URL}\n# filled by the CI from <<site>> secrets",
    "# .env.example (<<resto>>)\nTOAST_CLIENT_ID=\nTOAST_CLIENT_SECRET=\nTOAST_API_HOST=https://ws-api.toasttab.com\n# ask <<person>> for values",
    "Default UniFi login on a fresh controller is whatever you set in the setup wizard; our docs say 'changeme' but that is just the template text. Run <<n>>.",
    'Sample config (do not use): password: "<password>"  api_key: "<api-key>"  # replace before deploy at <<site>>',
    "Twilio console shows the auth token as ******************************** — click reveal only when needed. Ticket <<n>>.",
    "Key masked in logs as sk_****<<iban_last>>, fine per PCI; rotated <<date>>.",
    "Password for the IPTV admin is XXXXXXXX in the runbook on purpose; real one in 1Password item <<uuid>>.",
    "Set RADIUS secret: secret = $ENV{RADIUS_SECRET}  # FreeRADIUS reads it from the unit's EnvironmentFile, client <<ip>>",
    "Placeholder in the WhatsApp template docs: Authorization: Bearer <ACCESS_TOKEN>; phone number id <<digits>>.",
    'curl -u "$MERAKI_USER:$MERAKI_PASS" https://api.meraki.com/api/v1/networks/<<meraki_net>>/clients',
    "Adyen docs example uses YOUR_API_KEY and YOUR_MERCHANT_ACCOUNT; our merchant account is HarbourGroup<<n>>ECOM.",
    "PS> $cred = Get-Credential -UserName reservations@harbourgroup.example -Message 'M365 shared mailbox' ; ticket <<n>>",
    "Password reset link for the Deputy admin expired; new invite sent to <<person>> (<<date>>).",
    # references to where a secret lives
    "GitHub Actions: env: MEWS_ACCESS_TOKEN: ${{ secrets.MEWS_ACCESS_TOKEN }} and SLACK_WEBHOOK_URL: ${{ secrets.SLACK_WEBHOOK_URL }} (workflow run <<n>>)",
    'token = Variable.get("deliveroo_client_secret")  # Airflow var, DAG sync_menus_<<low12>>',
    'key = dbutils.secrets.get(scope="hg-pos", key="square-access-token")  # notebook cell <<execn>>',
    "Vault path for OPERA Cloud creds: secret/data/hotels/<<slug>>/ohip (version <<otp>>). Policy hotels-read.",
    "App setting: XERO_CLIENT_SECRET=@Microsoft.KeyVault(SecretUri=https://hg-kv.vault.azure.net/secrets/xero-client-secret/<<kv_ver>>)",
    "Secret ARN: arn:aws:secretsmanager:eu-west-1:<<acct>>:secret:prod/stripe-terminal-<<low12>>",
    "op://Hotels/<<site>> Fortigate/password is what the script reads with `op read`. Item id <<low12>>.",
    "env:\n  - name: TWILIO_AUTH_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: twilio-<<low12>>\n        key: auth-token",
    "# configuration.yaml\nmews:\n  access_token: !secret mews_access_token\n  client_token: !secret mews_client_token\nscan_interval: <<otp>>",
    "<?php\n$secret = getenv('SEVENROOMS_CLIENT_SECRET'); // set in FPM pool for <<resto>>\n$venue = '<<low12>>';",
    "const secret = process.env.DOORDASH_SIGNING_SECRET; // never log it (PR #<<n>>)",
    "$token = Get-Secret -Name 'Cloudbeds-<<site>>' -Vault HotelsVault -AsPlainText",
    "DATABASE_URL=postgresql://pms_sync@<<host>>:5432/pms  # password via PGPASSFILE, not in the URL",
    "Uses IAM auth, no static key: aws sts assume-role --role-arn arn:aws:iam::<<acct>>:role/hg-export --role-session-name <<person>>",
    "Connection string uses managed identity: Server=tcp:hg-erp.database.windows.net;Database=Payroll;Authentication=Active Directory Managed Identity; (run <<n>>)",
    # encrypted values / hashes
    "vault.yml for the FreeRADIUS role:\nradius_secret: !vault |\n<<vault>>",
    "secrets.enc.yaml:\nstripe:\n    secret_key: <<sops>>\nsops:\n    version: 3.8.1",
    "FortiGate backup line: set passwd <<fortienc>>",
    "htpasswd entry for the portal: kds:<<bcrypt>>",
    "users table row: id=<<n>>, email=<<person>>@harbourgroup.example, password_hash=<<argon2>>",
    "/etc/shadow line on the IPTV box: root:<<sha512crypt>>:19<<otp>>:0:99999:7:::",
    "Django user exported: pbkdf2_sha256$600000$<<low12>>$<<b64>>= (hashed, fine to keep)",
    "set psksecret ENC <<b64>>==\n(FortiOS stores the PSK encrypted, this is not the key)",
    # OTP / counters / misc numbers
    "Guest Wi-Fi voucher batch printed: 200 vouchers, batch id <<uuid>>, valid 24h, site <<site>>.",
    "MFA backup for the Meraki org is in the safe; the 6-digit code you saw (<<otp>>) expired at <<time>>.",
    "Door lock audit trail: room <<room>> opened by card <<up8>> at <<time>>, encoder <<crc>>.",
    "Night audit totals <<site>> <<date>>: rooms sold <<n>>, ADR 143.20, checksum <<crc>>.",
    "Container pos-sync exited 137 (OOM). Container id <<sha256>>.",
    "Stripe-Terminal reader tmr_<<low12>> registered to location tml_<<up8>>.",
    "IPTV channel map version <<ver>>, playlist md5 <<md5>>, pushed to 96 set-top boxes.",
    "$ docker ps\nCONTAINER ID   IMAGE                  STATUS\n<<hex16>>   hg/pms-bridge:<<ver>>   Up 3 days",
    "CI: ##[group]Run actions/checkout@<<sha>>\nFetching the repository, token: ***\n##[endgroup]",
    "[<<time>>] <<person>>: is 'we_<<we>>' a secret? [<<time2>>] <<person2>>: no, that's just the webhook endpoint id in the Stripe dashboard",
    "Xero invoice INV-<<n>> for <<resto>>, Xero contact id <<uuid>>.",
    "Lightspeed business location id <<digits>>; account id <<n>>; token expiry 2026-12-31 (value not stored here).",
    "Nota: el token de Toast está en el gestor de contraseñas, entrada <<uuid>>. No lo copies aquí.",
    "Σημείωση: το API key του Mews είναι στο vault (secret/data/hotels/mews), όχι εδώ. Αίτημα <<n>>.",
    "บันทึก: รหัสผ่าน Wi-Fi แขกเปลี่ยนทุกวัน ดูได้ที่ portal, batch <<uuid>>",
    "Not: Salto KS client secret 1Password'de, kayıt id <<low12>>. Buraya yazma.",
    "Anteckning: Deputy-token ligger i Key Vault (hg-kv/deputy-token, version <<kv_ver>>).",
    "Ghi chú: mã đặt phòng <<resv>>, mã giao dịch <<uuid>> — không phải mật khẩu.",
    "curl -v output:\n> POST /v1/orders HTTP/2\n> Authorization: Bearer [REDACTED]\n< HTTP/2 201\n< x-request-id: <<uuid>>",
    "2026-<<otp>> pms-bridge | WARN token refresh failed for property <<up8>>, retrying in 30s (token not logged)",
]

LOOK_T += [
    "Idempotency-Key: <<uuid>> (Adyen payment request for <<resto>>, pspReference <<digits>>)",
    "Stripe test-mode publishable key for the staging kiosk: <<stripe_pk_test>> (test + publishable, harmless)",
    "Cloudbeds UI only shows the API key masked: cbat_" + "****<<hex4>>. Property id <<n>>.",
    "$ curl -v -T export.csv https://hg-exports.s3.amazonaws.com/\n> x-amz-content-sha256: <<sha256>>\n< HTTP/1.1 200 OK\n< x-amz-request-id: <<up8>><<hex16>>",
    "Signed commit <<sha>>:\n-----BEGIN SSH SIGNATURE-----\n<<b64>>\n<<b64b>>\n-----END SSH SIGNATURE-----",
    "CSR for the captive portal cert (send to the CA):\n-----BEGIN CERTIFICATE REQUEST-----\n<<b64>>\n<<b64b>>\n-----END CERTIFICATE REQUEST-----",
    "Slack doc example we copied into the runbook: https://hooks.slack.com/services/T<<slackt>>/B<<slackt2>>/XXXXXXXXXXXXXXXXXXXXXXXX — replace the last part with the real one from the vault.",
    "PMS_DB_URL=postgresql://pms_sync:${PGPASSWORD}@<<host>>:5432/pms",
    "CCTV lobby stream for VLC: rtsp://<<ip>>:554/Streaming/Channels/101 (credentials in the NVR vault entry <<low12>>)",
    "Entra ID > Certificates & secrets: Secret ID <<uuid>>, description 'pms-mail-sync', expires <<date>>. Value hidden after creation.",
    "Meraki API key ending in ...<<hex4>> belongs to <<person>>; generate your own under My profile.",
    "WhatsApp Business: WABA id <<digits>>, phone number id <<digits2>>, display name '<<site>>'.",
    "Telegram alert chat id for the night audit bot: -100<<tchat>>",
    "version https://git-lfs.github.com/spec/v1\noid sha256:<<sha256>>\nsize <<n>>",
    '<script src="https://cdn.example-cdn.net/booking-widget.<<ver>>.js" integrity="sha384-<<sri>>" crossorigin="anonymous"></script>',
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: <<slug>>-creds\ntype: Opaque\ndata:\n  password: <redacted>\n# real manifest is sealed, sealed-secrets controller <<ver>>",
    "RADIUS secret rotated on <<date>> for all <<site>> APs; the new value is only in 1Password (entry <<uuid>>).",
    "Guest Wi-Fi at <<site>> is open (no WPA key), captive portal only; session timeout <<n>> s.",
    "Toast API: clientId is <<low12>><<hex4>> (public id). clientSecret comes from env TOAST_CLIENT_SECRET at start-up.",
    "Expedia Rapid request: Authorization: EAN APIKey=${EXPEDIA_API_KEY},Signature=${SIG},timestamp=<<ts>>",
]


def _look_gen(tmpl: str):
    def gen(r: random.Random) -> str:
        return _fill(r, tmpl, {"slug": r.choice(["mews", "opera", "cloudbeds", "siteminder"])})

    return gen


_LOOK = [_look_gen(t) for t in LOOK_T]


# ---------------------------------------------------------------- entry point
def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(f"ak-set:{seed}")
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for spec in KINDS:
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > PER_KIND * 50:
                raise RuntimeError(f"cannot make enough samples for {spec[0]}")
            text, secret = _positive(r, spec)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            positives.append((text, spec[0], secret))
            got += 1
    lookalikes: list[str] = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > LOOK_PER_GEN * 200:
                raise RuntimeError("look-alike generator too narrow")
            text = gen(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
