"""Labelled test texts for a secret detector, set BB: a restaurant group.

Theme
-----
Memories that an AI coding agent keeps for a restaurant group with twelve sites and a central
kitchen: point of sale (Toast, Square, Lightspeed Restaurant, Revel), delivery merchant APIs
(Uber Eats, DoorDash Drive, Deliveroo, Just Eat, Grubhub), reservations (OpenTable, Resy,
SevenRooms), online ordering (Olo, ChowNow, WooCommerce), inventory (MarketMan,
Restaurant365), payroll and scheduling (7shifts, Gusto, ADP), loyalty (Paytronix, Thanx),
payments (Stripe, Adyen, Worldpay), accounting (Xero, QuickBooks), kitchen displays, printers,
site Wi-Fi, cameras, alarm panels, Microsoft 365, Google Workspace and a small AWS account.
About half of the texts are notes (lessons, runbooks, TODOs, handovers, tickets, e-mails, chat;
some in Spanish, Italian, Vietnamese, Tagalog and French), a quarter config files (.env, JSON,
YAML, INI, PHP, Terraform, shell profiles, compose files) and a quarter tool output (CLI
sessions, curl -v dumps, service logs, POS sync logs, CI logs, database consoles).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; each text holds exactly one secret, ``secret``
  is an exact substring of ``text`` (no surrounding quotes or whitespace); every kind has
  exactly 30 positives.
* ``lookalikes``: texts without any credential that look as if they might hold one. They come
  from the generator functions in ``_LOOK``; each is called until it gave ``LOOK_PER_GEN``
  distinct texts, so ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (one ``random.Random(seed)``); no text occurs twice in the output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs:
  the password only. Pre-signed / SAS / signed URLs: the signature only. PEM and OpenSSH
  private keys: the whole armoured block, BEGIN line to END line.
* UUID-shaped vendor tokens are secrets only where the text names them as a token/key/secret.
* Public-by-design values are look-alikes: publishable keys, anon keys, site keys, Sentry DSNs,
  OAuth client ids, Firebase web apiKeys, search-only keys, client keys, public certificates.
  Vendor documentation example values, encrypted blobs (Ansible vault, sops, sealed secrets,
  KMS ciphertext) and password hashes are look-alikes too.
* Bare AWS access key ids appear nowhere as the subject of a text (neither positive nor
  look-alike); the only key id present is the one embedded in a pre-signed URL credential.
* No token-shaped literal is in this source: prefixes are joined from pieces at run time and
  bodies are random from the seed.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid

LOOK_PER_GEN = 12
PER_KIND = 30

AL = string.ascii_letters + string.digits
ALU = AL + "-_"
LOW = string.ascii_lowercase
HEX = "0123456789abcdef"
B64 = AL + "+/"
DIG = string.digits

SITES = [
    "Harbourside",
    "Old Town",
    "Riverside",
    "Market Street",
    "Airport T2",
    "Canal Wharf",
    "Northgate",
    "University Quarter",
    "Seafront",
    "Station Square",
    "Hillcrest",
    "Docklands",
    "Central Kitchen",
]
PEOPLE = [
    "Maria",
    "Tuan",
    "Giulia",
    "Jomar",
    "Claire",
    "Dev",
    "Sam",
    "Ana",
    "Linh",
    "Marco",
]
WORDS = [
    "tulip",
    "rover",
    "basil",
    "saffron",
    "harbour",
    "lemon",
    "pepper",
    "olive",
    "falcon",
    "copper",
    "maple",
    "tiger",
    "garlic",
    "mango",
    "river",
    "sunset",
    "anchor",
    "walnut",
    "cobalt",
    "paprika",
    "kettle",
    "oyster",
    "thyme",
    "nutmeg",
    "bistro",
    "summer",
    "winter",
    "autumn",
    "spring",
    "pizza",
    "ramen",
    "espresso",
    "brioche",
    "cactus",
    "orbit",
]


def rs(r: random.Random, n: int, al: str = AL) -> str:
    return "".join(r.choice(al) for _ in range(n))


def ruuid(r: random.Random) -> str:
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def human_pw(r: random.Random, url_safe: bool = False) -> str:
    sym = "!*-_~" if url_safe else "!*-_#%&+="
    style = r.randrange(5)
    if style == 0:
        w = r.choice(WORDS).capitalize()
        return f"{w}{r.choice(['2024', '2025', '2026', '19', '88', '07'])}{r.choice(sym)}"
    if style == 1:
        a, b = r.sample(WORDS, 2)
        return f"{a}-{b.capitalize()}-{r.randint(10, 99)}"
    if style == 2:
        return rs(r, r.randint(14, 22), AL + sym)
    if style == 3:
        sep = r.choice(["-", ".", "_"])
        return sep.join(r.sample(WORDS, 4)) + str(r.randint(1, 9))
    w = r.choice(WORDS)
    return f"{w.capitalize()}{r.choice(sym)}{r.choice(SITES).split()[0]}{r.randint(100, 999)}"


# --------------------------------------------------------------------------------------------
# credential kinds
# --------------------------------------------------------------------------------------------


class K:
    def __init__(self, kind, vendor, var, label, typ, fn, host=None):
        self.kind, self.vendor, self.var, self.label, self.typ, self.fn = (
            kind,
            vendor,
            var,
            label,
            typ,
            fn,
        )
        slug = "".join(c for c in vendor.lower() if c.isalnum())
        self.host = host or f"api.{slug}.com"


def tok(prefix: tuple[str, ...], n, al=AL):
    def f(r):
        m = n if isinstance(n, int) else r.choice(n)
        return "".join(prefix) + rs(r, m, al)

    return f


def pw(r):
    return human_pw(r)


def _slack_bot(r):
    return "xo" + "xb-" + rs(r, 12, DIG) + "-" + rs(r, 13, DIG) + "-" + rs(r, 24)


def _gh_fine(r):
    return "github" + "_pat_" + rs(r, 22) + "_" + rs(r, 59)


def _sendgrid(r):
    return "S" + "G." + rs(r, 22, ALU) + "." + rs(r, 43, ALU)


def _adyen(r):
    return "AQE" + rs(r, 73, B64) + "==-" + rs(r, 43, B64) + "=-" + rs(r, 16, AL)


def _azure_secret(r):
    return rs(r, 3) + "8Q" + "~" + rs(r, 33, AL + "~._-") + rs(r, 1)


def _openai(r):
    return "sk-" + "proj-" + rs(r, 58, ALU) + "T3Blbk" + "FJ" + rs(r, 58, ALU)


def _anthropic(r):
    return "sk-" + "ant-" + "api03-" + rs(r, 93, ALU) + "AA"


def _tfc(r):
    return rs(r, 14) + ".atlas" + "v1." + rs(r, 67)


def _mailchimp(r):
    return rs(r, 32, HEX) + "-us" + str(r.randint(2, 21))


def _telegram(r):
    return str(r.randint(5000000000, 7999999999)) + ":AA" + rs(r, 33, ALU)


def _wireguard(r):
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode()


def _gapp_pw(r):
    return " ".join(rs(r, 4, LOW) for _ in range(4))


def _django(r):
    return "django-insecure-" + rs(r, 50, LOW + DIG + "!@%^&*(-_=+)")


def _uuid_tok(r):
    return ruuid(r)


# URL / connection-string kinds return (secret, value)
def _db(scheme, port, user_choices, tail):
    def f(r):
        p = human_pw(r, url_safe=True)
        u = r.choice(user_choices)
        host = r.choice(
            [
                "db-pos.internal",
                "10.20.0.15",
                "rg-inventory.c9xk2.eu-west-2.rds.amazonaws.com",
                "pg.central-kitchen.lan",
                "localhost",
            ]
        )
        return p, f"{scheme}://{u}:{p}@{host}:{port}/{tail(r)}"

    return f


def _redis(r):
    p = rs(r, 32, AL)
    host = r.choice(["cache-01.internal", "redis.harbourside.lan", "10.20.1.9"])
    return p, r.choice(["redis://:", "rediss://default:"]) + f"{p}@{host}:6379/{r.randint(0, 4)}"


def _mongo(r):
    p = human_pw(r, url_safe=True)
    c = rs(r, 5, LOW + DIG)
    return (
        p,
        f"mongodb+srv://loyalty_app:{p}@cluster0.{c}.mongodb.net/loyalty?retryWrites=true",
    )


def _mssql(r):
    p = human_pw(r)
    return p, (
        "Server=tcp:r365-export.database.windows.net,1433;Initial Catalog=r365;"
        f"User ID=r365_sync;Password={p};Encrypt=True;"
    )


def _basic_https(r):
    p = human_pw(r, url_safe=True)
    host = r.choice(["printers.centralkitchen.lan", "kds-admin.oldtown.lan", "nas.office.lan"])
    return (
        p,
        f"https://admin:{p}@{host}/{r.choice(['api/v1/status', 'config', 'backup/latest'])}",
    )


def _basic_ftp(r):
    p = human_pw(r, url_safe=True)
    return (
        p,
        f"ftp://menuexport:{p}@ftp.centralkitchen.lan/exports/{r.randint(2024, 2026)}/",
    )


def _slack_hook(r):
    s = rs(r, 24)
    up = string.ascii_uppercase + DIG
    return s, f"https://hooks.slack.com/services/T{rs(r, 10, up)}/B{rs(r, 10, up)}/{s}"


def _teams_hook(r):
    s = ruuid(r)
    return s, (
        f"https://rgroup.webhook.office.com/webhookb2/{ruuid(r)}@{ruuid(r)}/IncomingWebhook/{rs(r, 32, HEX)}/{s}"
    )


def _discord_hook(r):
    s = rs(r, 68, ALU)
    return s, f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18)}/{s}"


def _zapier_hook(r):
    s = rs(r, 7, LOW + DIG)
    return s, f"https://hooks.zapier.com/hooks/catch/{r.randint(10**6, 10**7)}/{s}/"


def _s3_presigned(r):
    sig = rs(r, 64, HEX)
    cred = "AK" + "IA" + rs(r, 16, string.ascii_uppercase + "234567")
    key = r.choice(
        [
            "menus/spring-menu.pdf",
            "exports/payroll-2026-11.csv",
            "invoices/inv-8812.pdf",
        ]
    )
    return sig, (
        f"https://rg-website-assets.s3.eu-west-2.amazonaws.com/{key}?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={cred}%2F2026120{r.randint(1, 5)}%2Feu-west-2%2Fs3%2Faws4_request"
        f"&X-Amz-Date=2026120{r.randint(1, 5)}T{r.randint(10, 23)}0000Z&X-Amz-Expires=604800"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )


def _azure_sas(r):
    sig = rs(r, 42, AL) + r.choice(["%2B", "%2F", ""]) + rs(r, 1, AL) + "%3D"
    return sig, (
        f"https://rgbackups.blob.core.windows.net/pos-exports/daily-{r.randint(1, 28):02d}.zip"
        "?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T23:00:00Z&st=2026-12-01T00:00:00Z"
        f"&spr=https&sig={sig}"
    )


def _gcs_signed(r):
    sig = rs(r, 512, HEX)
    return sig, (
        "https://storage.googleapis.com/rg-workspace-exports/rota-week49.xlsx"
        "?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=exporter%40rg-web.iam.gserviceaccount.com"
        "%2F20261203%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261203T101500Z"
        f"&X-Goog-Expires=3600&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )


def _pem_body(r, lines, last):
    body = [rs(r, 64, B64) for _ in range(lines)]
    body.append(rs(r, last, B64) + "=")
    return "\n".join(body)


def _rsa_pem(r):
    t = "RSA " + "PRIVATE KEY"
    return f"-----BEGIN {t}-----\nMIIEow" + _pem_body(r, 24, 30)[6:] + f"\n-----END {t}-----"


def _pkcs8_pem(r):
    t = "PRIVATE " + "KEY"
    return f"-----BEGIN {t}-----\nMIIEvQ" + _pem_body(r, 25, 22)[6:] + f"\n-----END {t}-----"


def _ec_pem(r):
    t = "EC " + "PRIVATE KEY"
    return f"-----BEGIN {t}-----\nMHcCAQEE" + _pem_body(r, 2, 50)[8:] + f"\n-----END {t}-----"


def _openssh(r):
    t = "OPENSSH " + "PRIVATE KEY"
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ" + _pem_body(r, 5, 10)[42:]
    return f"-----BEGIN {t}-----\n{body}\n-----END {t}-----"


KINDS = [
    K(
        "stripe_secret_key",
        "Stripe",
        "STRIPE_SECRET_KEY",
        "secret key",
        "token",
        tok(("sk", "_live_", "51"), (22, 97)),
        "api.stripe.com",
    ),
    K(
        "stripe_restricted_key",
        "Stripe",
        "STRIPE_RESTRICTED_KEY",
        "restricted key",
        "token",
        tok(("rk", "_live_", "51"), (22, 97)),
        "api.stripe.com",
    ),
    K(
        "stripe_webhook_secret",
        "Stripe",
        "STRIPE_WEBHOOK_SECRET",
        "webhook signing secret",
        "token",
        tok(("wh", "sec_"), 32),
        "api.stripe.com",
    ),
    K(
        "square_access_token",
        "Square",
        "SQUARE_ACCESS_TOKEN",
        "access token",
        "token",
        tok(("EA", "AA"), 60, ALU),
        "connect.squareup.com",
    ),
    K(
        "square_application_secret",
        "Square",
        "SQUARE_APP_SECRET",
        "application secret",
        "token",
        tok(("sq0", "csp-"), 43, ALU),
        "connect.squareup.com",
    ),
    K(
        "toast_client_secret",
        "Toast",
        "TOAST_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 64, ALU),
        "ws-api.toasttab.com",
    ),
    K(
        "lightspeed_access_token",
        "Lightspeed Restaurant",
        "LS_K_ACCESS_TOKEN",
        "access token",
        "token",
        tok((), 40, AL),
        "api.lsk.lightspeed.app",
    ),
    K(
        "revel_api_secret",
        "Revel",
        "REVEL_API_SECRET",
        "API secret",
        "token",
        tok((), 64, HEX),
        "rgroup.revelup.com",
    ),
    K(
        "uber_eats_client_secret",
        "Uber Eats",
        "UBER_EATS_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 40, ALU),
        "api.uber.com",
    ),
    K(
        "doordash_signing_secret",
        "DoorDash Drive",
        "DOORDASH_SIGNING_SECRET",
        "signing secret",
        "token",
        tok((), 43, ALU),
        "openapi.doordash.com",
    ),
    K(
        "deliveroo_client_secret",
        "Deliveroo",
        "DELIVEROO_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 64, AL),
        "api.developers.deliveroo.com",
    ),
    K(
        "just_eat_api_key",
        "Just Eat",
        "JUST_EAT_API_KEY",
        "API key",
        "token",
        tok((), 32, HEX),
        "uk-partnerapi.just-eat.io",
    ),
    K(
        "grubhub_client_secret",
        "Grubhub",
        "GRUBHUB_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 48, ALU),
        "api-gtm.grubhub.com",
    ),
    K(
        "opentable_client_secret",
        "OpenTable",
        "OPENTABLE_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 40, AL),
        "platform.opentable.com",
    ),
    K(
        "resy_api_key",
        "Resy",
        "RESY_API_KEY",
        "API key",
        "token",
        tok((), 32, AL),
        "api.resy.com",
    ),
    K(
        "sevenrooms_client_secret",
        "SevenRooms",
        "SEVENROOMS_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 128, HEX),
        "api.sevenrooms.com",
    ),
    K(
        "olo_api_key",
        "Olo",
        "OLO_API_KEY",
        "API key",
        "token",
        _uuid_tok,
        "ordering.api.olo.com",
    ),
    K(
        "chownow_api_key",
        "ChowNow",
        "CHOWNOW_API_KEY",
        "API key",
        "token",
        tok((), 40, AL),
    ),
    K(
        "woocommerce_consumer_secret",
        "WooCommerce",
        "WC_CONSUMER_SECRET",
        "consumer secret",
        "token",
        tok(("cs", "_"), 40, HEX),
        "order.rgroup-kitchen.com",
    ),
    K(
        "marketman_api_password",
        "MarketMan",
        "MARKETMAN_API_PASSWORD",
        "API password",
        "pw",
        pw,
        "api.marketman.com",
    ),
    K(
        "restaurant365_password",
        "Restaurant365",
        "R365_PASSWORD",
        "password",
        "pw",
        pw,
        "rgroup.restaurant365.net",
    ),
    K(
        "sevenshifts_access_token",
        "7shifts",
        "SEVENSHIFTS_ACCESS_TOKEN",
        "access token",
        "token",
        tok((), 40, HEX),
        "api.7shifts.com",
    ),
    K(
        "gusto_access_token",
        "Gusto",
        "GUSTO_ACCESS_TOKEN",
        "access token",
        "token",
        tok((), 43, ALU),
        "api.gusto.com",
    ),
    K(
        "adp_client_secret",
        "ADP",
        "ADP_CLIENT_SECRET",
        "client secret",
        "token",
        _uuid_tok,
        "api.adp.com",
    ),
    K(
        "paytronix_client_secret",
        "Paytronix",
        "PAYTRONIX_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 32, AL),
        "api.pxslab.com",
    ),
    K(
        "thanx_access_token",
        "Thanx",
        "THANX_ACCESS_TOKEN",
        "access token",
        "token",
        tok((), 64, HEX),
        "api.thanx.com",
    ),
    K(
        "adyen_api_key",
        "Adyen",
        "ADYEN_API_KEY",
        "API key",
        "token",
        _adyen,
        "checkout-live.adyenpayments.com",
    ),
    K(
        "worldpay_portal_password",
        "Worldpay",
        "WORLDPAY_PASSWORD",
        "merchant portal password",
        "pw",
        pw,
        "access.worldpay.com",
    ),
    K(
        "xero_client_secret",
        "Xero",
        "XERO_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 48, ALU),
        "identity.xero.com",
    ),
    K(
        "quickbooks_client_secret",
        "QuickBooks",
        "QBO_CLIENT_SECRET",
        "client secret",
        "token",
        tok((), 40, AL),
        "oauth.platform.intuit.com",
    ),
    K(
        "wifi_psk",
        "site Wi-Fi",
        "WIFI_PSK",
        "WPA2 passphrase",
        "pw",
        pw,
        "unifi.office.lan",
    ),
    K(
        "nvr_camera_password",
        "camera NVR",
        "NVR_ADMIN_PASSWORD",
        "admin password",
        "pw",
        pw,
        "nvr.site.lan",
    ),
    K(
        "kds_admin_password",
        "kitchen display",
        "KDS_ADMIN_PASSWORD",
        "admin password",
        "pw",
        pw,
        "kds.site.lan",
    ),
    K(
        "router_admin_password",
        "UniFi controller",
        "UNIFI_PASSWORD",
        "admin password",
        "pw",
        pw,
        "unifi.office.lan",
    ),
    K(
        "vpn_preshared_key",
        "site VPN",
        "IPSEC_PSK",
        "pre-shared key",
        "pw",
        tok((), 32, AL + "!*-_"),
        "fw.centralkitchen.lan",
    ),
    K(
        "azure_client_secret",
        "Microsoft 365 app",
        "AZURE_CLIENT_SECRET",
        "client secret",
        "token",
        _azure_secret,
        "login.microsoftonline.com",
    ),
    K(
        "m365_app_password",
        "Microsoft 365",
        "M365_SMTP_APP_PASSWORD",
        "app password",
        "pw",
        tok((), 16, LOW),
        "smtp.office365.com",
    ),
    K(
        "google_oauth_client_secret",
        "Google Workspace",
        "GOOGLE_CLIENT_SECRET",
        "client secret",
        "token",
        tok(("GOC", "SPX-"), 28, ALU),
        "oauth2.googleapis.com",
    ),
    K(
        "gmail_app_password",
        "Gmail",
        "GMAIL_APP_PASSWORD",
        "app password",
        "pw",
        _gapp_pw,
        "smtp.gmail.com",
    ),
    K(
        "google_maps_server_key",
        "Google Maps server",
        "GOOGLE_MAPS_SERVER_KEY",
        "server API key (IP restricted)",
        "token",
        tok(("AI", "za", "Sy"), 33, ALU),
        "maps.googleapis.com",
    ),
    K(
        "aws_secret_access_key",
        "AWS",
        "AWS_SECRET_ACCESS_KEY",
        "secret access key",
        "token",
        tok((), 40, B64),
        "sts.amazonaws.com",
    ),
    K(
        "github_pat",
        "GitHub",
        "GITHUB_TOKEN",
        "personal access token",
        "token",
        tok(("gh", "p_"), 36),
        "api.github.com",
    ),
    K(
        "github_fine_grained_pat",
        "GitHub",
        "GH_PAT",
        "fine-grained token",
        "token",
        _gh_fine,
        "api.github.com",
    ),
    K(
        "gitlab_pat",
        "GitLab",
        "GITLAB_TOKEN",
        "personal access token",
        "token",
        tok(("gl", "pat-"), 20, ALU),
        "gitlab.com",
    ),
    K(
        "slack_bot_token",
        "Slack",
        "SLACK_BOT_TOKEN",
        "bot token",
        "token",
        _slack_bot,
        "slack.com",
    ),
    K(
        "slack_webhook_url",
        "Slack",
        "SLACK_WEBHOOK_URL",
        "incoming webhook",
        "url",
        _slack_hook,
    ),
    K(
        "teams_webhook_url",
        "Teams",
        "TEAMS_WEBHOOK_URL",
        "incoming webhook",
        "url",
        _teams_hook,
    ),
    K(
        "discord_webhook_url",
        "Discord",
        "DISCORD_WEBHOOK_URL",
        "webhook",
        "url",
        _discord_hook,
    ),
    K(
        "zapier_webhook_url",
        "Zapier",
        "ZAPIER_HOOK_URL",
        "catch hook",
        "url",
        _zapier_hook,
    ),
    K(
        "sendgrid_api_key",
        "SendGrid",
        "SENDGRID_API_KEY",
        "API key",
        "token",
        _sendgrid,
        "api.sendgrid.com",
    ),
    K(
        "twilio_auth_token",
        "Twilio",
        "TWILIO_AUTH_TOKEN",
        "auth token",
        "token",
        tok((), 32, HEX),
        "api.twilio.com",
    ),
    K(
        "mailgun_api_key",
        "Mailgun",
        "MAILGUN_API_KEY",
        "API key",
        "token",
        tok(("ke", "y-"), 32, HEX),
        "api.eu.mailgun.net",
    ),
    K(
        "mailchimp_api_key",
        "Mailchimp",
        "MAILCHIMP_API_KEY",
        "API key",
        "token",
        _mailchimp,
        "us6.api.mailchimp.com",
    ),
    K(
        "postgres_password",
        "Postgres",
        "DATABASE_URL",
        "connection string",
        "db",
        _db("postgresql", 5432, ["pos_sync", "website", "r365_etl"], lambda r: "pos"),
    ),
    K(
        "mysql_password",
        "MySQL",
        "WOO_DB_URL",
        "connection string",
        "db",
        _db("mysql", 3306, ["wp_user", "woo_admin"], lambda r: "wordpress"),
    ),
    K("redis_password", "Redis", "REDIS_URL", "connection string", "db", _redis),
    K(
        "mongodb_password",
        "MongoDB Atlas",
        "MONGO_URI",
        "connection string",
        "db",
        _mongo,
    ),
    K(
        "sqlserver_password",
        "SQL Server",
        "R365_EXPORT_CONN",
        "connection string",
        "db",
        _mssql,
    ),
    K(
        "basic_auth_url_password",
        "printer admin",
        "PRINTER_ADMIN_URL",
        "admin URL",
        "db",
        _basic_https,
    ),
    K(
        "ftp_url_password",
        "menu export FTP",
        "MENU_FTP_URL",
        "FTP URL",
        "db",
        _basic_ftp,
    ),
    K(
        "s3_presigned_url_signature",
        "S3",
        "MENU_PDF_URL",
        "pre-signed link",
        "url",
        _s3_presigned,
    ),
    K(
        "azure_sas_signature",
        "Azure Blob",
        "BACKUP_SAS_URL",
        "SAS link",
        "url",
        _azure_sas,
    ),
    K(
        "gcs_signed_url_signature",
        "Google Cloud Storage",
        "ROTA_EXPORT_URL",
        "signed link",
        "url",
        _gcs_signed,
    ),
    K("rsa_private_key", "RSA", "toast_partner.key", "private key", "pem", _rsa_pem),
    K(
        "pkcs8_private_key",
        "service account",
        "gws-sync.pem",
        "private key",
        "pem",
        _pkcs8_pem,
    ),
    K(
        "ec_private_key",
        "Apple Pay",
        "applepay_merchant.key",
        "private key",
        "pem",
        _ec_pem,
    ),
    K("openssh_private_key", "SSH", "id_ed25519_deploy", "deploy key", "pem", _openssh),
    K(
        "jwt_signing_secret",
        "ordering app",
        "JWT_SECRET",
        "JWT signing secret",
        "token",
        tok((), 64, AL),
    ),
    K(
        "django_secret_key",
        "Django",
        "DJANGO_SECRET_KEY",
        "secret key",
        "token",
        _django,
    ),
    K(
        "openai_api_key",
        "OpenAI",
        "OPENAI_API_KEY",
        "API key",
        "token",
        _openai,
        "api.openai.com",
    ),
    K(
        "anthropic_api_key",
        "Anthropic",
        "ANTHROPIC_API_KEY",
        "API key",
        "token",
        _anthropic,
        "api.anthropic.com",
    ),
    K(
        "npm_token",
        "npm",
        "NPM_TOKEN",
        "automation token",
        "token",
        tok(("np", "m_"), 36),
        "registry.npmjs.org",
    ),
    K(
        "docker_hub_pat",
        "Docker Hub",
        "DOCKERHUB_TOKEN",
        "access token",
        "token",
        tok(("dckr", "_pat_"), 27, ALU),
        "hub.docker.com",
    ),
    K(
        "datadog_api_key",
        "Datadog",
        "DD_API_KEY",
        "API key",
        "token",
        tok((), 32, HEX),
        "api.datadoghq.eu",
    ),
    K(
        "sentry_auth_token",
        "Sentry",
        "SENTRY_AUTH_TOKEN",
        "auth token",
        "token",
        tok(("sntr", "yu_"), 64, HEX),
        "sentry.io",
    ),
    K(
        "terraform_cloud_token",
        "Terraform Cloud",
        "TFE_TOKEN",
        "API token",
        "token",
        _tfc,
        "app.terraform.io",
    ),
    K(
        "cloudflare_api_token",
        "Cloudflare",
        "CLOUDFLARE_API_TOKEN",
        "API token",
        "token",
        tok((), 40, ALU),
        "api.cloudflare.com",
    ),
    K(
        "hubspot_private_app_token",
        "HubSpot",
        "HUBSPOT_TOKEN",
        "private app token",
        "token",
        lambda r: "pat-" + "na1-" + ruuid(r),
        "api.hubapi.com",
    ),
    K(
        "telegram_bot_token",
        "Telegram",
        "TELEGRAM_BOT_TOKEN",
        "bot token",
        "token",
        _telegram,
        "api.telegram.org",
    ),
    K(
        "wireguard_private_key",
        "WireGuard",
        "WG_PRIVATE_KEY",
        "private key",
        "token",
        _wireguard,
        "wg.centralkitchen.lan",
    ),
]


# --------------------------------------------------------------------------------------------
# surrounding templates for one-line values (token / pw / url / db)
# --------------------------------------------------------------------------------------------


def _ctx(r):
    return (
        r.choice(SITES),
        r.choice(PEOPLE),
        f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    )


def _user(r):
    return r.choice(
        [
            "admin",
            "ops@rgroup.co",
            "it.support",
            "gm.oldtown",
            "kitchen.lead",
            "svc_pos",
        ]
    )


def _verb(k):
    return {"pw": "password", "db": "connection string", "url": "URL"}.get(k.typ, k.label)


def t_note(r, k, v):
    site, who, d = _ctx(r)
    return f"Note ({d}): {k.vendor} {k.label} for {site} is {v} - {who} set it up, rotate after go-live."


def t_lesson(r, k, v):
    site, _who, _ = _ctx(r)
    return (
        f"Lesson: the {k.vendor} sync at {site} kept failing with 401 because someone pasted the "
        f"sandbox value. The working {k.label} is:\n{v}\nCheck this first next time before blaming "
        "the POS."
    )


def t_runbook(r, k, v):
    site, _, _ = _ctx(r)
    return (
        f"Runbook - reconnect {k.vendor} after a router swap ({site})\n"
        "1. Power-cycle the POS hub and wait for the green LED.\n"
        f"2. Open the integration settings and paste the {k.label}: {v}\n"
        "3. Run a test order and confirm the ticket prints on the expo printer.\n"
        "4. Tell the GM in #ops that it is back."
    )


def t_todo(r, k, v):
    site, who, _ = _ctx(r)
    return (
        f"TODO\n- [ ] move {k.var} out of this note into the vault\n"
        f"- [ ] {k.var} currently = {v}\n- [x] ask {who} about the {site} menu sync"
    )


def t_handover(r, k, v):
    site, who, d = _ctx(r)
    return (
        f"Handover {d} -> {who}\nOpen items: {site} delivery tablet keeps logging out; "
        f"central kitchen par levels.\nAccess: {k.vendor} {k.label} {v} (only admin login we have).\n"
        "Call the vendor if it locks."
    )


def t_ticket(r, k, v):
    site, who, _ = _ctx(r)
    n = r.randint(1000, 9999)
    return (
        f"OPS-{n}: {k.vendor} integration down at {site}\nReporter: {who}\nPriority: P2\n"
        f"Details: re-entered {k.var}={v} in the admin panel, orders still not syncing. "
        "Escalating to vendor support."
    )


def t_email(r, k, v):
    site, who, _ = _ctx(r)
    return (
        f"From: {who.lower()}@rgroup.co\nTo: it@rgroup.co\nSubject: {k.vendor} details for {site}\n\n"
        f"Hi team,\nas requested, the {k.label} for {k.vendor} is {v}\n"
        "Please don't forward this outside the group.\nThanks"
    )


def t_chat(r, k, v):
    site, who, _ = _ctx(r)
    h = r.randint(7, 22)
    return (
        f"[{h:02d}:{r.randint(10, 59)}] {who}: anyone have the {k.vendor} {_verb(k)}? {site} is stuck\n"
        f"[{h:02d}:{r.randint(10, 59)}] {r.choice(PEOPLE)}: {v}\n"
        f"[{h:02d}:{r.randint(10, 59)}] {who}: legend, thanks"
    )


def t_es(r, k, v):
    site, who, _ = _ctx(r)
    return (
        f"Nota para {who}: la credencial de {k.vendor} ({k.label}) del local {site} es {v}. "
        "No la compartas por WhatsApp, por favor."
    )


def t_it(r, k, v):
    site, who, _ = _ctx(r)
    return (
        f"Promemoria: per {k.vendor} nella sede {site} usare {k.var} = {v}\n"
        f"Se la sincronizzazione del menu fallisce, chiamare {who}."
    )


def t_vi(r, k, v):
    site, who, _ = _ctx(r)
    return f"Ghi chú: {k.label} của {k.vendor} cho chi nhánh {site} là {v}. Hỏi {who} trước khi đổi."


def t_tl(r, k, v):
    site, who, _ = _ctx(r)
    return f"Paalala kay {who}: ito ang {k.label} ng {k.vendor} sa {site}: {v} - huwag ibigay sa ibang staff."


def t_fr(r, k, v):
    site, who, _ = _ctx(r)
    return (
        f"Passation: pour {k.vendor} ({site}), le {k.label} est {v}. "
        f"Voir avec {who} si la tablette se déconnecte encore."
    )


def t_decision(r, k, v):
    _, who, d = _ctx(r)
    return (
        f"Decision {d}: keep one shared {k.vendor} {k.label} for all twelve sites until the "
        f"migration. Current value {v}. Owner: {who}."
    )


def t_table(r, k, v):
    site, who, _ = _ctx(r)
    return f"| system | site | owner | credential |\n|---|---|---|---|\n| {k.vendor} {k.label} | {site} | {who} | {v} |"


def t_postmortem(r, k, v):
    site, _, d = _ctx(r)
    return (
        f"Postmortem {d} - delivery orders lost at {site} for 40 min\nRoot cause: {k.var} was "
        f"rotated on one tablet only. New value: {v}\nAction: store it in the password manager."
    )


def t_env(r, k, v):
    site, _, _ = _ctx(r)
    return f"# {site} integration\nAPP_ENV=production\nLOG_LEVEL=info\n{k.var}={v}\nSITE_ID={r.randint(100, 999)}"


def t_json(r, k, v):
    key = k.var.lower()
    doc = {
        "site": r.choice(SITES),
        "integration": k.vendor,
        "enabled": True,
        key: v,
        "poll_seconds": r.choice([30, 60, 120]),
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


def t_yaml(r, k, v):
    return (
        f"integrations:\n  {k.vendor.lower().replace(' ', '_')}:\n    enabled: true\n"
        f'    site: "{r.choice(SITES)}"\n    {k.var.lower()}: "{v}"\n    timeout: {r.randint(5, 30)}'
    )


def t_ini(r, k, v):
    return (
        f"[{k.vendor.lower().replace(' ', '_')}]\nsite = {r.choice(SITES)}\n"
        f"{k.var.lower()} = {v}\nretries = {r.randint(2, 5)}"
    )


def t_php(r, k, v):
    return (
        "<?php\n// wp-config.php additions for the ordering site\n"
        f"define( '{k.var}', '{v}' );\ndefine( 'WP_DEBUG', false );"
    )


def t_tf(r, k, v):
    return (
        f'variable "{k.var.lower()}" {{\n  type    = string\n  default = "{v}"\n}}\n'
        f'\nresource "aws_ssm_parameter" "{k.var.lower()}" {{\n  name  = "/rg/{k.var.lower()}"\n'
        f'  type  = "SecureString"\n  value = var.{k.var.lower()}\n}}'
    )


def t_profile(r, k, v):
    return (
        '# ~/.zshrc (ops laptop)\nexport PATH="$HOME/bin:$PATH"\n'
        f"export {k.var}='{v}'\nalias possync='python ~/tools/pos_sync.py'"
    )


def t_compose(r, k, v):
    return (
        f"services:\n  pos-bridge:\n    image: rgroup/pos-bridge:{r.randint(1, 4)}.{r.randint(0, 20)}\n"
        f"    environment:\n      - {k.var}={v}\n      - SITE={r.choice(SITES)}"
    )


def t_cli_echo(r, k, v):
    return f"ops@pos-bridge:~$ echo ${k.var}\n{v}\nops@pos-bridge:~$ systemctl restart pos-bridge"


def t_curl(r, k, v):
    if k.typ == "token":
        return (
            f"$ curl -sv https://{k.host}/v1/ping -H 'Authorization: Bearer {v}'\n"
            f"*   Trying 104.18.{r.randint(0, 255)}.{r.randint(0, 255)}:443...\n"
            f"> GET /v1/ping HTTP/2\n> Host: {k.host}\n< HTTP/2 200\n< content-type: application/json"
        )
    if k.typ == "pw":
        return (
            f"$ curl -sv -u {_user(r)}:'{v}' https://{k.host}/api/session\n"
            f"* Connected to {k.host} port 443\n< HTTP/1.1 200 OK\n< set-cookie: sid=<redacted>"
        )
    if k.typ == "db":
        return (
            f"$ export {k.var}='{v}'\n$ ./bin/healthcheck --dsn-env {k.var}\n"
            f"OK: connected in {r.randint(8, 400)}ms ({r.choice(SITES)})"
        )
    return (
        f"$ curl -sv '{v}'\n* ALPN: server accepted h2\n< HTTP/2 {r.choice([200, 204, 403])}\n"
        f"< date: Thu, 0{r.randint(1, 5)} Dec 2026 10:1{r.randint(0, 9)}:00 GMT"
    )


def t_svclog(r, k, v):
    ts = f"2026-12-0{r.randint(1, 5)}T0{r.randint(0, 9)}:{r.randint(10, 59)}:{r.randint(10, 59)}Z"
    return (
        f"{ts} INFO  pos-bridge starting, site={r.choice(SITES)!r}\n"
        f"{ts} DEBUG config loaded: {k.var}={v}\n{ts} INFO  connected to {k.host}"
    )


def t_synclog(r, k, v):
    n = r.randint(20, 400)
    return (
        f"[menu-sync] pulling items from {k.vendor} ... {n} items\n"
        f"[menu-sync] WARN auth retry using {k.label}={v}\n"
        f"[menu-sync] pushed {n - r.randint(0, 5)} items to {r.choice(SITES)} KDS"
    )


def t_ci(r, k, v):
    return (
        f"Run ./scripts/deploy.sh\n  env:\n    {k.var}: {v}\n    SITE: website\n"
        f"+ terraform apply -auto-approve\nApply complete! Resources: {r.randint(0, 9)} added."
    )


def t_dbconsole(r, k, v):
    n = r.randint(1, 40)
    return (
        "pos=> SELECT id, vendor, name, value FROM integration_settings WHERE id = "
        f"{n};\n id | vendor | name | value\n----+--------+------+------\n"
        f" {n} | {k.vendor} | {k.var.lower()} | {v}\n(1 row)"
    )


def t_repl(r, k, v):
    return f">>> import os\n>>> os.environ['{k.var}']\n'{v}'\n>>> len(os.environ['{k.var}'])\n{len(v)}"


def t_kubectl(r, k, v):
    return f"$ kubectl -n website exec deploy/ordering -- env | grep {k.var}\n{k.var}={v}"


GENERIC = [
    t_note,
    t_lesson,
    t_runbook,
    t_todo,
    t_handover,
    t_ticket,
    t_email,
    t_chat,
    t_es,
    t_it,
    t_vi,
    t_tl,
    t_fr,
    t_decision,
    t_table,
    t_postmortem,
    t_env,
    t_json,
    t_yaml,
    t_ini,
    t_php,
    t_tf,
    t_profile,
    t_compose,
    t_cli_echo,
    t_curl,
    t_svclog,
    t_synclog,
    t_ci,
    t_dbconsole,
    t_repl,
    t_kubectl,
]


# templates for armoured private keys (value is the whole block)


def p_cat(r, k, v):
    return f"ops@bastion:~$ cat ~/.ssh/{k.var}\n{v}\nops@bastion:~$ chmod 600 ~/.ssh/{k.var}"


def p_note(r, k, v):
    site, who, _ = _ctx(r)
    return (
        f"Note: {k.vendor} {k.label} ({k.var}) for the {site} integration, from {who}. "
        f"Paste into the partner portal if it asks again:\n\n{v}\n"
    )


def p_tf(r, k, v):
    return (
        f'resource "aws_secretsmanager_secret_version" "key" {{\n  secret_id     = "rg/{k.var}"\n'
        f"  secret_string = <<EOT\n{v}\nEOT\n}}"
    )


def p_chat(r, k, v):
    who = r.choice(PEOPLE)
    return f"{who}: here is the {k.label} for the deploy box, don't lose it\n```\n{v}\n```"


def p_es(r, k, v):
    return f"Clave privada ({k.vendor}) para el servidor de la web, guardar en el gestor:\n{v}"


def p_log(r, k, v):
    return (
        f'+ echo "$DEPLOY_KEY" > /tmp/{k.var}\n+ cat /tmp/{k.var}\n{v}\n'
        f"+ ssh -i /tmp/{k.var} deploy@web-{r.randint(1, 3)}.rgroup.co 'sudo systemctl reload nginx'"
    )


def p_env(r, k, v):
    return f'# .env (multi-line value)\nPRIVATE_KEY_NAME={k.var}\nPRIVATE_KEY="{v}"\nSITE=website'


def p_fr(r, k, v):
    return f"Clé privée {k.vendor} ({k.var}) - ne pas committer :\n{v}\nMerci !"


PEM_TEMPLATES = [p_cat, p_note, p_tf, p_chat, p_es, p_log, p_env, p_fr]


# --------------------------------------------------------------------------------------------
# look-alikes: no credential in any of these texts
# --------------------------------------------------------------------------------------------

_LOOK = []
_ENVK = [k for k in KINDS if k.typ != "pem"]


def _envk(r):
    return r.choice(_ENVK)


def L(fn):
    _LOOK.append(fn)
    return fn


def _site(r):
    return r.choice(SITES)


def _who(r):
    return r.choice(PEOPLE)


def _hexb(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


@L
def lk_commit(r):
    return (
        f"Deployed ordering site at commit {rs(r, 40, HEX)} to prod; rollback target is "
        f"{rs(r, 7, HEX)}. {_who(r)} approved."
    )


@L
def lk_firmware_sha(r):
    return (
        f"Toast hub firmware {r.randint(3, 9)}.{r.randint(0, 40)} for {_site(r)}\n"
        f"sha256: {rs(r, 64, HEX)}\nVerify with `sha256sum -c` before flashing."
    )


@L
def lk_md5_menu(r):
    return f"menu_export_{r.randint(1, 52):02d}.csv  md5={rs(r, 32, HEX)}  rows={r.randint(90, 400)}"


@L
def lk_order_uuid(r):
    return (
        f"2026-12-02 19:{r.randint(10, 59)}:03 INFO toast.orders guid={ruuid(r)} "
        f"check={r.randint(100, 999)} total={r.randint(8, 120)}.{r.randint(10, 99)} site={_site(r)!r}"
    )


@L
def lk_request_id(r):
    return (
        f"< HTTP/2 429\n< x-request-id: {ruuid(r)}\n< retry-after: {r.randint(1, 30)}\n"
        f"< cf-ray: {rs(r, 16, HEX)}-LHR\nRate limited by the Uber Eats menu endpoint."
    )


@L
def lk_stripe_pk(r):
    return (
        "<script>\n  const stripe = Stripe('" + "pk" + "_live_51" + rs(r, 97) + "');\n"
        "  // publishable key, safe in the browser\n</script>"
    )


@L
def lk_square_app_id(r):
    return (
        "Square Web Payments SDK: applicationId = 'sq0" + "idp-" + rs(r, 22, ALU) + "', "
        f"locationId = 'L{rs(r, 12, string.ascii_uppercase + DIG)}' (both public)."
    )


@L
def lk_google_client_id(r):
    return (
        "GOOGLE_CLIENT_ID=" + f"{r.randint(10**11, 10**12)}-{rs(r, 32, LOW + DIG)}.apps.googleusercontent.com\n"
        "GOOGLE_CLIENT_SECRET=   # stored in 1Password, not here"
    )


@L
def lk_firebase(r):
    return (
        'const firebaseConfig = {\n  apiKey: "' + "AI" + "za" + "Sy" + rs(r, 33, ALU) + '",\n'
        f'  authDomain: "rg-loyalty-{rs(r, 4, LOW)}.firebaseapp.com",\n'
        f'  projectId: "rg-loyalty-{rs(r, 4, LOW)}",\n  appId: "1:{r.randint(10**11, 10**12)}:web:'
        f'{rs(r, 22, HEX)}"\n}};'
    )


@L
def lk_recaptcha(r):
    return (
        '<div class="g-recaptcha" data-sitekey="6L' + rs(r, 38, ALU) + '"></div>\n'
        "<!-- reservation form, site key is public -->"
    )


@L
def lk_sentry_dsn(r):
    return (
        f"SENTRY_DSN=https://{rs(r, 32, HEX)}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/"
        f"{r.randint(10**6, 10**7)}\n# DSN is public, fine to ship in the JS bundle"
    )


@L
def lk_algolia_search(r):
    return (
        f"Menu search: Algolia app id {rs(r, 10, string.ascii_uppercase + DIG)}, search-only key "
        f"{rs(r, 32, HEX)} (public, used by the website). Admin key lives in the vault."
    )


@L
def lk_supabase_anon(r):
    hdr = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    ref = rs(r, 20, LOW)
    pl = b64u(
        json.dumps(
            {
                "iss": "supabase",
                "ref": ref,
                "role": "anon",
                "iat": r.randint(1_600_000_000, 1_700_000_000),
            }
        ).encode()
    )
    return (
        f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={hdr}.{pl}.{rs(r, 43, ALU)}"
    )


@L
def lk_placeholder_angle(r):
    k = _envk(r)
    return f"Set {k.var}=<your-{k.vendor.lower().replace(' ', '-')}-{k.label.replace(' ', '-')}> in .env before running `make sync` ({_site(r)})."


@L
def lk_placeholder_env(r):
    k = _envk(r)
    return f"{k.var.lower()}: ${{{k.var}}}\nsite: {_site(r)}\nretries: {r.randint(1, 9)}"


@L
def lk_gha_secret_ref(r):
    k = _envk(r)
    return (
        f"      - name: Sync menus ({_site(r)})\n        run: python sync.py\n        env:\n"
        f"          {k.var}: ${{{{ secrets.{k.var} }}}}\n          DRY_RUN: '{r.choice(['0', '1'])}'"
    )


@L
def lk_airflow_var(r):
    k = _envk(r)
    return (
        f'from airflow.models import Variable\n\n{k.var.lower()} = Variable.get("{k.var.lower()}")\n'
        f"sites = {r.sample(SITES, 3)!r}"
    )


@L
def lk_dbutils(r):
    k = _envk(r)
    return (
        f'token = dbutils.secrets.get(scope="rg-{r.choice(["pos", "finance", "ops"])}", '
        f'key="{k.var.lower().replace("_", "-")}")\n# cell {r.randint(1, 40)}: weekly sales rollup'
    )


@L
def lk_vault_path(r):
    k = _envk(r)
    return (
        f"The {k.vendor} {k.label} is in Vault at secret/data/rgroup/{_site(r).lower().replace(' ', '-')}"
        f"/{k.var.lower()} (version {r.randint(1, 12)}). Read with `vault kv get`."
    )


@L
def lk_env_names(r):
    ks = r.sample(_ENVK, 4)
    return "Required env vars for pos-bridge: " + ", ".join(k.var for k in ks) + f" (see README, v{r.randint(1, 9)})."


@L
def lk_changeme(r):
    k = _envk(r)
    return (
        f"# default install docs for the {k.vendor} connector\n{k.var.lower()} = changeme\n"
        f"# replace 'changeme' before first start; port {r.randint(8000, 9000)}"
    )


@L
def lk_masked(r):
    k = _envk(r)
    return f"{k.vendor} settings page ({_site(r)}): {k.label} = {'*' * r.randint(8, 24)} (hidden), last changed {r.randint(2, 30)} days ago."


@L
def lk_redacted_last4(r):
    return (
        "Stripe dashboard shows the live key as "
        + "sk"
        + "_live_"
        + "..."
        + rs(r, 4)
        + f"; rolled on 2026-11-{r.randint(10, 28)} by {_who(r)}."
    )


@L
def lk_ansible_vault(r):
    body = "\n".join(rs(r, 80, HEX) for _ in range(r.randint(3, 6)))
    return f"wifi_psk_{_site(r).lower().replace(' ', '_')}: !vault |\n$ANSIBLE_VAULT;1.1;AES256\n{body}"


@L
def lk_sops(r):
    enc = base64.b64encode(_hexb(r, r.randint(12, 40))).decode()
    return (
        f"toast_client_secret: ENC[AES256_GCM,data:{enc},iv:{base64.b64encode(_hexb(r, 32)).decode()},"
        f"tag:{base64.b64encode(_hexb(r, 16)).decode()},type:str]\nsops:\n  version: 3.8.1"
    )


@L
def lk_bcrypt(r):
    return (
        f"staff_users row: id={r.randint(1, 300)} email={_who(r).lower()}@rgroup.co "
        f"password_hash=$2b$12${rs(r, 53, AL + './')}"
    )


@L
def lk_argon2(r):
    salt = b64u(_hexb(r, 16))
    h = b64u(_hexb(r, 32))
    return f"kiosk_admin.hash = $argon2id$v=19$m=65536,t=3,p=4${salt}${h}"


@L
def lk_ssh_fp(r):
    return (
        f"The authenticity of host 'pos-bridge-{r.randint(1, 12)}.lan' can't be established.\n"
        f"ED25519 key fingerprint is SHA256:{b64u(_hexb(r, 32))}.\nAre you sure you want to continue connecting?"
    )


@L
def lk_ssh_pub(r):
    blob = "AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(r, 43, B64)
    return f"authorized_keys on web-1:\nssh-ed25519 {blob} {_who(r).lower()}@ops-laptop"


@L
def lk_pgp_fp(r):
    fp = rs(r, 40, HEX.upper())
    return f"Sign payroll exports with key {' '.join(fp[i : i + 4] for i in range(0, 40, 4))} (public key on keys.openpgp.org)."


@L
def lk_kms_arn(r):
    return (
        f'kms_key_id = "arn:aws:kms:eu-west-2:{r.randint(10**11, 10**12)}:key/{ruuid(r)}"\n'
        "# the key id is not secret; IAM controls who can use it"
    )


@L
def lk_nb_exec(r):
    cells = [
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 90),
            "id": rs(r, 8, HEX),
            "metadata": {},
            "outputs": [],
            "source": ["df = load_sales('" + _site(r) + "')"],
        }
    ]
    return json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}, indent=1)


@L
def lk_data_uri(r):
    png = b"\x89PNG\r\n\x1a\n" + _hexb(r, r.randint(40, 90))
    return f'<img alt="logo {_site(r)}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'


@L
def lk_model_id(r):
    m = r.choice(
        [
            "sentence-transformers/all-MiniLM-L6-v2",
            "BAAI/bge-small-en-v1.5",
            "intfloat/e5-base-v2",
        ]
    )
    return f"Menu similarity uses {m} @ revision {rs(r, 40, HEX)}; embeddings cached for {r.randint(200, 900)} dishes."


@L
def lk_dataset_id(r):
    return (
        f"Demand forecast trained on datasets/rgroup/covers-{r.randint(2019, 2026)} (snapshot "
        f"{rs(r, 40, HEX)}), MAPE {r.randint(5, 20)}.{r.randint(0, 9)}%."
    )


@L
def lk_wandb_run(r):
    return f"wandb: Syncing run {r.choice(WORDS)}-{r.choice(WORDS)}-{r.randint(1, 300)}\nwandb: View run at https://wandb.ai/rgroup/forecast/runs/{rs(r, 8, LOW + DIG)}"


@L
def lk_mlflow_run(r):
    return f"mlflow run_id={rs(r, 32, HEX)} experiment_id={r.randint(1, 40)} metrics.rmse={r.random():.4f}"


@L
def lk_docker_digest(r):
    return f"rgroup/pos-bridge@sha256:{rs(r, 64, HEX)}\nPulled for {_site(r)}; tag {r.randint(1, 5)}.{r.randint(0, 30)}.{r.randint(0, 9)}"


@L
def lk_npm_integrity(r):
    return (
        f'"node_modules/@square/web-sdk": {{\n  "version": "2.{r.randint(0, 9)}.{r.randint(0, 9)}",\n'
        f'  "integrity": "sha512-{base64.b64encode(_hexb(r, 64)).decode()}"\n}}'
    )


@L
def lk_pip_hash(r):
    return f"stripe==11.{r.randint(0, 6)}.{r.randint(0, 9)} \\\n    --hash=sha256:{rs(r, 64, HEX)}"


@L
def lk_gosum(r):
    return f"github.com/rgroup/kdsproto v0.{r.randint(1, 20)}.{r.randint(0, 9)} h1:{base64.b64encode(_hexb(r, 32)).decode()}"


@L
def lk_stripe_ids(r):
    return (
        f"Refund issued: pi_{rs(r, 24)} / ch_{rs(r, 24)} for customer cus_{rs(r, 14)} "
        f"amount {r.randint(5, 90)}.00 GBP ({_site(r)})."
    )


@L
def lk_adyen_psp(r):
    return f"Adyen notification: pspReference={rs(r, 16, string.ascii_uppercase + DIG)} eventCode=AUTHORISATION success=true merchantAccount=RGroupECOM"


@L
def lk_toast_guid(r):
    return f"Toast restaurantGuid for {_site(r)}: {ruuid(r)} (Toast-Restaurant-External-ID header)."


@L
def lk_doordash_ids(r):
    return (
        f"DoorDash Drive: developer_id={ruuid(r)} key_id={ruuid(r)}; the signing secret itself is "
        "in the vault, not here."
    )


@L
def lk_ubereats_store(r):
    return f"Uber Eats store_id for {_site(r)}: {ruuid(r)} (from the merchant dashboard URL)."


@L
def lk_opentable_conf(r):
    return f"OpenTable reservation confirmed: conf #{r.randint(10**8, 10**9)}, party of {r.randint(2, 12)}, {_site(r)}, rid={r.randint(10**5, 10**6)}"


@L
def lk_giftcard_masked(r):
    return f"Paytronix gift card ****{r.randint(1000, 9999)} balance {r.randint(0, 100)}.{r.randint(10, 99)}, tx {rs(r, 12, DIG)}"


@L
def lk_worldpay_tid(r):
    return f"Worldpay terminal swap at {_site(r)}: TID {r.randint(10**7, 10**8)}, MID {r.randint(10**8, 10**9)}, serial {rs(r, 10, string.ascii_uppercase + DIG)}"


@L
def lk_xero_tenant(r):
    return f"xero-tenant-id: {ruuid(r)}\nGET /api.xro/2.0/Invoices?page={r.randint(1, 9)} -> 200"


@L
def lk_qbo_realm(r):
    return (
        f"QuickBooks realmId={r.randint(10**15, 10**16)} company=R Group Kitchens Ltd minorversion={r.randint(60, 75)}"
    )


@L
def lk_azure_ids(r):
    return (
        f"App registration 'rg-pos-mailer': Application (client) ID {ruuid(r)}, Directory "
        f"(tenant) ID {ruuid(r)}, Object ID {ruuid(r)}. Secret: see Key Vault."
    )


@L
def lk_wifi_no_pw(r):
    return (
        f"Guest Wi-Fi at {_site(r)}: SSID 'RG-Guest-{r.randint(1, 12)}', captive portal, no password. "
        "Staff network password is on the laminated card in the office safe."
    )


@L
def lk_bssid(r):
    macs = [":".join(rs(r, 2, HEX) for _ in range(6)) for _ in range(3)]
    return f"Site survey {_site(r)}: APs " + ", ".join(macs) + f", channel {r.choice([1, 6, 11, 36, 44])}"


@L
def lk_camera_serial(r):
    return f"Camera {r.randint(1, 16)} ({_site(r)} pass): model DS-2CD{r.randint(2000, 2999)}, serial {rs(r, 9, string.ascii_uppercase + DIG)}, fw V5.{r.randint(5, 8)}.{r.randint(0, 9)}"


@L
def lk_alarm_events(r):
    return f"Alarm panel log: 18 1 {r.choice(['401', '402', '130', '570'])} 0{r.randint(1, 9)} {r.randint(100, 999)} (Contact ID) acct {r.randint(1000, 9999)} {_site(r)}"


@L
def lk_kds_device(r):
    return (
        f"KDS device {rs(r, 16, HEX.upper())} registered to {_site(r)} grill station; app build {r.randint(100, 999)}"
    )


@L
def lk_printer_mac(r):
    return f"Epson TM-m30III at {_site(r)}: IP 10.{r.randint(1, 12)}.0.{r.randint(20, 90)}, MAC {':'.join(rs(r, 2, HEX.upper()) for _ in range(6))}"


@L
def lk_cert_fp(r):
    fp = ":".join(rs(r, 2, HEX.upper()) for _ in range(20))
    return f"order.rgroup-kitchen.com certificate SHA-1 fingerprint {fp}, expires 2027-0{r.randint(1, 9)}-1{r.randint(0, 9)}"


@L
def lk_public_cert(r):
    t = "CERTIFICATE"
    body = "\n".join(rs(r, 64, B64) for _ in range(r.randint(8, 14)))
    return f"Public cert for the Apple Pay domain check:\n-----BEGIN {t}-----\nMIID{body}\n-----END {t}-----"


@L
def lk_csr(r):
    t = "CERTIFICATE REQUEST"
    body = "\n".join(rs(r, 64, B64) for _ in range(r.randint(6, 10)))
    return f"CSR sent to the CA for pos.rgroup.co:\n-----BEGIN {t}-----\nMIIC{body}\n-----END {t}-----"


@L
def lk_pgp_pub(r):
    t = "PGP PUBLIC KEY BLOCK"
    body = "\n".join(rs(r, 64, B64) for _ in range(r.randint(5, 9)))
    return f"-----BEGIN {t}-----\n\nmQIN{body}\n={rs(r, 4, B64)}\n-----END {t}-----"


@L
def lk_gha_masked(r):
    return (
        f"Run ./deploy.sh\n  env:\n    STRIPE_SECRET_KEY: ***\n    AWS_REGION: eu-west-2\n"
        f"Deploying build {r.randint(100, 999)} ... done in {r.randint(20, 90)}s"
    )


@L
def lk_tf_sensitive(r):
    return (
        f'variable "xero_client_secret" {{\n  type      = string\n  sensitive = true\n}}\n'
        f"# value comes from TF_VAR_xero_client_secret in CI (workspace {r.choice(WORDS)}-{r.randint(1, 9)})"
    )


@L
def lk_tf_plan_sensitive(r):
    return (
        f'  # aws_ssm_parameter.toast_secret will be updated in-place\n  ~ resource "aws_ssm_parameter" '
        f'"toast_secret" {{\n        id    = "/rg/toast/{r.randint(1, 12)}"\n      ~ value = (sensitive value)\n    }}'
    )


@L
def lk_k8s_ref(r):
    k = _envk(r)
    return (
        f"        env:\n          - name: {k.var}\n            valueFrom:\n              secretKeyRef:\n"
        f"                name: {k.vendor.lower().replace(' ', '-')}-creds-{r.randint(1, 9)}\n                key: {k.var.lower()}"
    )


@L
def lk_env_example(r):
    ks = r.sample(_ENVK, 3)
    return "# .env.example\n" + "\n".join(f"{k.var}=" for k in ks) + f"\nSITE_ID={r.randint(1, 12)}"


@L
def lk_stripe_sig_header(r):
    return (
        f"POST /webhooks/stripe 200\nStripe-Signature: t={r.randint(1_700_000_000, 1_800_000_000)},v1={rs(r, 64, HEX)}\n"
        "signature verified"
    )


@L
def lk_etag(r):
    return f'< HTTP/1.1 304 Not Modified\n< ETag: "{rs(r, 32, HEX)}"\n< Cache-Control: max-age={r.randint(60, 3600)}'


@L
def lk_s3_ids(r):
    return (
        f"< x-amz-request-id: {rs(r, 16, string.ascii_uppercase + DIG)}\n< x-amz-id-2: "
        f"{base64.b64encode(_hexb(r, 48)).decode()}\n< x-amz-version-id: {rs(r, 32, ALU)}"
    )


@L
def lk_cloudfront(r):
    return f"aws cloudfront create-invalidation --distribution-id E{rs(r, 13, string.ascii_uppercase + DIG)} --paths '/menus/*'"


@L
def lk_secretsmanager_arn(r):
    return f"SecretId: arn:aws:secretsmanager:eu-west-2:{r.randint(10**11, 10**12)}:secret:rg/pos/toast-{rs(r, 6)}"


@L
def lk_gcp_secret_path(r):
    return f"gcloud secrets versions access {r.randint(1, 9)} --secret=gusto-access-token --project=rg-workspace-{rs(r, 6, LOW + DIG)}"


@L
def lk_keyvault_ref(r):
    return f"@Microsoft.KeyVault(SecretUri=https://rg-kv-{rs(r, 4, LOW)}.vault.azure.net/secrets/ADYEN-API-KEY/{rs(r, 32, HEX)})"


@L
def lk_op_ref(r):
    k = _envk(r)
    return f'{k.var}="op://Ops/{k.vendor} {_site(r)}/{k.label}"\n# resolved at runtime by `op run --`'


@L
def lk_csp_nonce(r):
    return f"Content-Security-Policy: script-src 'self' 'nonce-{base64.b64encode(_hexb(r, 16)).decode()}' https://js.stripe.com"


@L
def lk_lfs_pointer(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(r, 64, HEX)}\nsize {r.randint(10**4, 10**7)}"


@L
def lk_b64_menu(r):
    data = json.dumps({"dish": r.choice(WORDS), "price": r.randint(5, 30), "site": _site(r)}).encode()
    return f"menu item payload (base64): {base64.b64encode(data).decode()}"


@L
def lk_escpos_hex(r):
    return "printer trace: 1b 40 1b 61 01 " + " ".join(rs(r, 2, HEX) for _ in range(r.randint(16, 30))) + " 1d 56 00"


@L
def lk_skus(r):
    return "Central kitchen SKUs: " + ", ".join(
        f"CK-{rs(r, 4, string.ascii_uppercase)}-{r.randint(100, 999)}" for _ in range(5)
    )


@L
def lk_tracking(r):
    return f"Supplier delivery tracking {rs(r, 2, string.ascii_uppercase)}{r.randint(10**8, 10**9)}GB, PO {r.randint(10**4, 10**5)}"


@L
def lk_stripe_doc_example(r):
    return (
        "From the Stripe docs example (not ours): Stripe.api_key = '"
        + "sk"
        + "_test_"
        + "4eC39Hq"
        + "LyjWDarjtT1zdp7dc"
        + f"'  - replace with the value from the dashboard. ({_site(r)} {r.randint(1, 99)})"
    )


@L
def lk_aws_doc_example(r):
    return (
        "AWS docs sample config (example values only):\n[default]\naws_secret_access_key = "
        + "wJalrXUtnFEMI/K7MDENG/"
        + "bPxRfiCY"
        + "EXAMPLEKEY"
        + f"\nregion = eu-west-{r.randint(1, 3)}\n# profile {r.choice(WORDS)}"
    )


@L
def lk_ga_ids(r):
    return f"Tracking on the ordering site: GA4 G-{rs(r, 10, string.ascii_uppercase + DIG)}, GTM-{rs(r, 7, string.ascii_uppercase + DIG)}, Meta pixel {r.randint(10**14, 10**15)}"


@L
def lk_mapbox_public(r):
    pl = b64u(json.dumps({"u": "rgroup", "a": rs(r, 25, LOW + DIG)}).encode())
    return f"Store locator map: mapboxgl.accessToken = 'pk.{pl}.{rs(r, 22, ALU)}'; // public token, URL-restricted"


@L
def lk_twilio_sid(r):
    return f"Twilio Account SID AC{rs(r, 32, HEX)} (identifier only), messaging service MG{rs(r, 32, HEX)}."


@L
def lk_slack_ids(r):
    return f"Post alerts to channel C{rs(r, 10, string.ascii_uppercase + DIG)} in workspace T{rs(r, 10, string.ascii_uppercase + DIG)}; mention U{rs(r, 10, string.ascii_uppercase + DIG)}."


@L
def lk_stripe_acct(r):
    return f"Connected account acct_{rs(r, 16)} for {_site(r)}; price ids price_{rs(r, 24)} (lunch set), webhook endpoint we_{rs(r, 24)}."


@L
def lk_adyen_client_key(r):
    return (
        "Adyen Drop-in config: { clientKey: '"
        + "live_"
        + rs(r, 32, string.ascii_uppercase + DIG)
        + f"', environment: 'live' }} // client key is public, {_site(r)}"
    )


@L
def lk_crypt_sha512(r):
    return f"{r.choice(['pos', 'kiosk', 'ops'])}:$6${rs(r, 16, AL + './')}${rs(r, 86, AL + './')}:19{r.randint(100, 999)}:0:99999:7:::"


@L
def lk_django_hash(r):
    return f"auth_user.password = pbkdf2_sha256$870000${rs(r, 22)}${base64.b64encode(_hexb(r, 32)).decode()}"


@L
def lk_version_build(r):
    return f"pos-bridge v{r.randint(1, 5)}.{r.randint(0, 30)}.{r.randint(0, 9)}+build.{rs(r, 12, HEX)} released to all sites"


@L
def lk_sealed_secret(r):
    return (
        "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nspec:\n  encryptedData:\n"
        f"    DD_API_KEY: AgB{rs(r, 300, B64)}=="
    )


@L
def lk_kms_blob(r):
    return f"CiphertextBlob: AQICAHh{rs(r, 180, B64)}=\n# decrypt with aws kms decrypt, key alias/rg-web"


@L
def lk_promo_codes(r):
    return "Winter promo codes (public, printed on flyers): " + ", ".join(
        f"{r.choice(WORDS).upper()}{r.randint(10, 50)}" for _ in range(3)
    )


@L
def lk_pw_where(r):
    k = r.choice([x for x in _ENVK if x.typ == "pw"])
    return f"Where is the {k.vendor} {k.label} for {_site(r)}? -> 1Password vault 'Sites', item '{k.vendor} - {_site(r)}'. Never paste it here."


@L
def lk_pw_rotated(r):
    return f"Rotated the Wi-Fi passphrase at {_site(r)} on 2026-11-{r.randint(10, 28)}; old value removed from these notes, new one only in the password manager."


@L
def lk_git_shorts(r):
    return "Changelog:\n" + "\n".join(
        f"- {rs(r, 7, HEX)} {r.choice(['fix', 'feat', 'chore'])}: {r.choice(WORDS)} {r.choice(['sync', 'printer', 'menu', 'tips'])}"
        for _ in range(4)
    )


@L
def lk_tf_lock(r):
    return (
        f'provider "registry.terraform.io/hashicorp/aws" {{\n  version = "5.{r.randint(10, 80)}.0"\n  hashes = [\n'
        f'    "h1:{base64.b64encode(_hexb(r, 32)).decode()}",\n    "zh:{rs(r, 64, HEX)}",\n  ]\n}}'
    )


@L
def lk_key_id_only(r):
    return f"Apple Pay merchant identity key id {rs(r, 10, string.ascii_uppercase + DIG)}, team id {rs(r, 10, string.ascii_uppercase + DIG)}; .p8 file is in the vault."


@L
def lk_gpg_sig(r):
    return f'gpg: Signature made Wed 02 Dec 2026 using RSA key {rs(r, 40, HEX.upper())}\ngpg: Good signature from "RG Payroll <payroll@rgroup.co>"'


@L
def lk_uuid_correlation(r):
    return f"7shifts webhook received: event=shift.updated shift_id={r.randint(10**7, 10**8)} correlation_id={ruuid(r)} location={_site(r)!r}"


@L
def lk_idempotency(r):
    return f"POST /v1/refunds Idempotency-Key: {ruuid(r)} -> 200 (retry {r.randint(1, 3)} deduplicated)"


@L
def lk_hmac_computed(r):
    return f"DEBUG doordash webhook: computed hmac={rs(r, 64, HEX)} matches header, delivery_id=D-{r.randint(10**6, 10**7)}"


@L
def lk_session_expired(r):
    return f"Resy widget venue_id={r.randint(1000, 99999)} api version {r.randint(2, 4)}; key header 'ResyAPI api_key=\"...\"' set from env at build time."


@L
def lk_sha1_receipt(r):
    return (
        f"Fiscal receipt {r.randint(10**5, 10**6)} {_site(r)} hash chain: prev={rs(r, 40, HEX)} curr={rs(r, 40, HEX)}"
    )


@L
def lk_ssh_keygen_out(r):
    return (
        f"Your public key has been saved in /home/ops/.ssh/id_ed25519_{r.choice(WORDS)}.pub\nThe key fingerprint is:\n"
        f"SHA256:{b64u(_hexb(r, 32))} ops@bastion\n(private key stays on the bastion)"
    )


@L
def lk_base64_csv(r):
    rows = "\n".join(f"{r.choice(WORDS)},{r.randint(1, 50)}" for _ in range(3))
    return f"attachment: stock_count.csv;base64,{base64.b64encode(rows.encode()).decode()}"


@L
def lk_interpolated_conn(r):
    return f"DATABASE_URL=postgresql://pos_sync:${{PGPASSWORD}}@db-pos.internal:5432/pos\n# PGPASSWORD injected by systemd credential, site {r.randint(1, 12)}"


@L
def lk_conn_no_pw(r):
    return f"psql 'host=db-pos.internal port=5432 dbname=pos user=report_ro sslmode=require' -c 'select count(*) from orders' # uses ~/.pgpass ({r.randint(1, 999)})"


@L
def lk_woo_ck_doc(r):
    return f"WooCommerce REST: pass consumer_key=ck_xxxxxxxxxxxxxxxx and consumer_secret=cs_xxxxxxxxxxxxxxxx (docs placeholder) to /wp-json/wc/v3/orders?per_page={r.randint(10, 100)}"


@L
def lk_fake_xxx(r):
    k = _envk(r)
    return f"{k.var}=xxxxxxxxxxxxxxxxxxxxxxxxxxxx  # {k.vendor}: fill in locally, see {_site(r)} wiki page v{r.randint(1, 30)}"


@L
def lk_webhook_no_token(r):
    return f"Slack alerts go through the 'pos-alerts' app; webhook URL is stored as SLACK_WEBHOOK_URL in Actions secrets (channel #{_site(r).lower().replace(' ', '-')}-ops)."


@L
def lk_presigned_expired_doc(r):
    return f"Menu PDF link: https://rg-website-assets.s3.eu-west-2.amazonaws.com/menus/{r.choice(WORDS)}-{r.randint(1, 99)}.pdf (public-read bucket, no signature needed)"


@L
def lk_oauth_state(r):
    return f"OAuth redirect: https://order.rgroup-kitchen.com/callback?state={ruuid(r)}&scope=orders.read (code already exchanged, error=access_denied)"


@L
def lk_wg_public(r):
    pub = base64.b64encode(_hexb(r, 32)).decode()
    return f"[Peer]\n# {_site(r)} router\nPublicKey = {pub}\nAllowedIPs = 10.{r.randint(1, 12)}.0.0/24\nEndpoint = {_site(r).split()[0].lower()}.vpn.rgroup.co:51820"


@L
def lk_jwt_header_docs(r):
    return f'Toast auth response shape: {{"token": {{"tokenType": "Bearer", "expiresIn": {r.randint(3600, 86400)}, "accessToken": "<redacted>"}}, "status": "SUCCESS"}}'


@L
def lk_entropy_ids(r):
    return f"Lightspeed businessLocationId={r.randint(10**14, 10**15)} floorId={r.randint(10**5, 10**6)} deviceId={rs(r, 24, HEX)}"


@L
def lk_es_note_sin_secreto(r):
    return f"Nota: la contraseña del Wi-Fi de {_site(r)} ya no está aquí; pedirla a {_who(r)} o mirar en el gestor de contraseñas (entrada {r.randint(1, 99)})."


@L
def lk_vi_note(r):
    return f"Ghi chú: mã đơn hàng Grubhub {r.randint(10**8, 10**9)} bị trùng, request id {ruuid(r)}; không cần đổi khóa API."


@L
def lk_fr_note(r):
    return f"Note : le terminal Worldpay {r.randint(10**7, 10**8)} de {_site(r)} a été échangé, checksum du firmware {rs(r, 32, HEX)}."


# --------------------------------------------------------------------------------------------
# generator
# --------------------------------------------------------------------------------------------


def _make(r: random.Random, k: K) -> tuple[str, str]:
    out = k.fn(r)
    secret, value = out if isinstance(out, tuple) else (out, out)
    if k.typ == "pem":
        text = r.choice(PEM_TEMPLATES)(r, k, value)
    else:
        text = r.choice(GENERIC)(r, k, value)
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
            if tries > 1000:
                raise RuntimeError(f"cannot make distinct texts for {k.kind}")
            text, secret = _make(r, k)
            if text in seen:
                continue
            seen.add(text)
            positives.append((text, k.kind, secret))
            got += 1
    lookalikes: list[str] = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 1000:
                raise RuntimeError(f"cannot make distinct look-alikes with {gen.__name__}")
            text = gen(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
