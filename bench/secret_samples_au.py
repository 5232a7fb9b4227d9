"""Labelled test set AU for a secret detector: a charity's IT team and the museum next door.

Theme
    Memories an AI coding agent keeps for a charity's small IT team and the museum it shares a
    building with: donor CRM (Salesforce NPSP, Blackbaud Raiser's Edge NXT / SKY API, Bloomerang),
    giving and payments (Stripe, PayPal/Braintree, GoCardless, Square in the shop), email and SMS
    (Mailchimp, Mandrill, Dotdigital, Twilio, SendGrid), events and ticketing (Eventbrite, Tessitura),
    the collections database and public website (WordPress, Drupal), signage and kiosks, Wi-Fi,
    shared volunteer logins, Google Workspace / Microsoft 365, Airtable, Zapier and Make, backups
    (restic, borg, Backblaze B2, S3, Azure) and the accountant's Xero.
    Styles: about half notes / lessons / runbooks / TODOs / handovers / tickets / emails / chat
    (mostly English, some Italian, Swedish, Korean, Swahili, Hebrew), a quarter config (.env, JSON,
    YAML, INI, wp-config.php, Zapier/Make exports, PowerShell, Python settings), a quarter tool
    output (CLI sessions, WP-CLI, curl -v, service logs, CI logs, database consoles).

Contract
    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
    positives:  list of (text, kind, secret); secret is an exact substring of text, one secret
                per text, 30 texts per kind.
    lookalikes: texts with no credential at all; each generator in _LOOK is called until it has
                produced LOOK_PER_GEN distinct texts, so len(lookalikes) == len(_LOOK) * 12.
    Deterministic per seed (random.Random seeded from the seed only); no duplicate texts.

Labelling conventions
    * Webhook URLs: the final path token is the secret.
    * Connection strings and basic-auth URLs: the password only (Azure AccountKey likewise).
    * Pre-signed URLs (S3, Azure SAS): the signature.
    * PEM / OpenSSH private keys: the whole armoured block, BEGIN line to END line (inside a
      service-account JSON: the block as written there, with literal \\n escapes).
    * UUID-shaped vendor tokens are secrets only when the text names them as a token/key/secret.
    * Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client
      ids, Firebase web apiKeys, search-only keys, public certificates and SSH public keys), vendor
      documentation example values, encrypted blobs and password hashes are look-alikes.
    * Bare AWS access key ids are left out entirely (they only appear next to their secret).
    * No token-shaped literal appears in this source: every such value is assembled at run time
      from pieces and random bodies drawn from the seeded generator.
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
DIG = string.digits
ALNUM = UP + LO + DIG
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = ALNUM + "+/"
B64U = ALNUM + "-_"
PW_SYM = "!-_.*~+"


def rs(r: random.Random, n: int, alpha: str = ALNUM) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def hx(r: random.Random, n: int) -> str:
    return rs(r, n, HEX)


def uuid4(r: random.Random) -> str:
    h = hx(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def b64_bytes(r: random.Random, n: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(n))).decode()


# ---------------------------------------------------------------------------------------------
# fillers
WHO = [
    "amara",
    "marco",
    "sofia",
    "johan",
    "jiwoo",
    "wanjiru",
    "noa",
    "priya",
    "tom",
    "elin",
    "giulia",
    "baraka",
    "yael",
    "minseo",
    "oliver",
    "fatima",
    "lars",
    "chiara",
    "david",
    "grace",
]
ORG = [
    "riverside-trust.org.uk",
    "harbourmuseum.org",
    "hopefoundation.org",
    "citymuseum.se",
    "kijiji-care.or.ke",
    "fondazione-arte.it",
]
HOSTS = [
    "crm-sync01",
    "web-museum",
    "kiosk-gw",
    "backup-nas",
    "sig-player-03",
    "files01",
    "wp-prod",
    "drupal-coll",
    "donor-etl",
    "vpn-edge",
    "mgmt-pi",
    "ticket-bridge",
]
TEAM = [
    "fundraising",
    "collections",
    "visitor services",
    "finance",
    "events",
    "comms",
    "IT",
]
WORDS = [
    "tulip",
    "rover",
    "harbour",
    "amber",
    "falcon",
    "gallery",
    "mosaic",
    "willow",
    "copper",
    "lantern",
    "marble",
    "otter",
    "saffron",
    "velvet",
    "pebble",
    "orchid",
    "fresco",
    "cobalt",
    "meadow",
    "quartz",
    "girasole",
    "stella",
    "lingon",
    "fjord",
    "simba",
    "jua",
    "bahari",
]
SEASONS = [
    "Summer",
    "Winter",
    "Autumn",
    "Spring",
    "Museum",
    "Charity",
    "Donor",
    "Gala",
    "Welcome",
]


def pw(r: random.Random) -> str:
    style = r.randrange(5)
    if style == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice('!.*~')}"
    if style == 1:
        a, b = r.sample(WORDS, 2)
        return f"{a}-{b.capitalize()}-{r.randint(10, 99)}"
    if style == 2:
        while True:
            s = rs(r, r.randint(14, 22), ALNUM + PW_SYM)
            if any(c in DIG for c in s) and any(c in PW_SYM for c in s) and s[0] in ALNUM:
                return s
    if style == 3:
        ws = r.sample(WORDS, 4)
        return r.choice("-._").join(ws) + str(r.randint(1, 9))
    a = r.choice(WORDS).capitalize()
    return f"{a}{r.choice(PW_SYM)}{r.randint(100, 9999)}{r.choice(WORDS)}"


# ---------------------------------------------------------------------------------------------
# value generators: each returns (display, secret); display contains secret
def _s(f):
    def g(r):
        v = f(r)
        return v, v

    return g


def g_pem(label: str, width: int = 64):
    def g(r):
        n = r.randint(14, 26)
        head = "MII" + rs(r, width - 3, B64)
        body = [head] + [rs(r, width, B64) for _ in range(n)] + [rs(r, r.randint(8, 60), B64) + "=="]
        blk = "-----BEGIN " + label + "-----\n" + "\n".join(body) + "\n-----END " + label + "-----"
        return blk, blk

    return g


def g_openssh(r):
    label = "OPENSSH " + "PRIV" + "ATE KEY"
    first = "b3Blbn" + "NzaC1rZXktdjEAAAAA" + rs(r, 70 - 24, B64)
    body = [first] + [rs(r, 70, B64) for _ in range(r.randint(5, 8))] + [rs(r, 40, B64) + "="]
    blk = "-----BEGIN " + label + "-----\n" + "\n".join(body) + "\n-----END " + label + "-----"
    return blk, blk


def g_gcp_sa(r):
    label = "PRIV" + "ATE KEY"
    lines = ["MIIE" + rs(r, 60, B64)] + [rs(r, 64, B64) for _ in range(r.randint(12, 20))]
    lines.append(rs(r, 24, B64) + "=")
    blk = "-----BEGIN " + label + "-----\\n" + "\\n".join(lines) + "\\n-----END " + label + "-----"
    proj = (
        r.choice(["museum-kiosk", "donor-sync", "charity-sheets", "gallery-signage"])
        + "-"
        + str(r.randint(100000, 999999))
    )
    js = (
        '{\n  "type": "service_account",\n  "project_id": "'
        + proj
        + '",\n  "private_key_id": "'
        + hx(r, 40)
        + '",\n  "private_key": "'
        + blk
        + '\\n",\n  "client_email": "sheets-bot@'
        + proj
        + '.iam.gserviceaccount.com",\n  "client_id": "'
        + str(r.randint(10**20, 10**21))
        + '",\n  "token_uri": "https://oauth2.googleapis.com/token"\n}'
    )
    return js, blk


def g_conn(fmt: str):
    def g(r):
        p = pw(r)
        return fmt.format(
            p=p,
            u=r.choice(["donor_app", "wp_user", "crm_ro", "etl", "museum"]),
            h=r.choice(HOSTS),
            n=r.randint(1, 9),
        ), p

    return g


def g_zapier(r):
    t = rs(r, 7, LO + DIG)
    return (
        f"https://hooks.zapier.com/hooks/catch/{r.randint(1000000, 19999999)}/{t}/",
        t,
    )


def g_make(r):
    t = rs(r, 32, LO + DIG)
    return f"https://hook.{r.choice(['eu1', 'eu2', 'us1'])}.make.com/{t}", t


def g_slack_hook(r):
    t = rs(r, 24)
    return (
        f"https://hooks.slack.com/services/T{rs(r, 10, UP + DIG)}/B{rs(r, 10, UP + DIG)}/{t}",
        t,
    )


def g_s3_presigned(r):
    sig = hx(r, 64)
    kid = "AS" + "IA" + rs(r, 16, UP + DIG)
    url = (
        f"https://charity-backups-{r.randint(10, 99)}.s3.eu-west-2.amazonaws.com/exports/donors-"
        f"{r.randint(1, 28):02d}.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={kid}"
        f"%2F20261204%2Feu-west-2%2Fs3%2Faws4_request&X-Amz-Date=20261204T1{r.randint(0, 9)}1500Z"
        f"&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return url, sig


def g_sas(r):
    raw = b64_bytes(r, 32)
    sig = raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    url = (
        f"https://museumarchive{r.randint(1, 99)}.blob.core.windows.net/scans/accession-"
        f"{r.randint(1000, 9999)}.tif?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T23:59:59Z"
        f"&st=2026-12-01T00:00:00Z&spr=https&sig={sig}"
    )
    return url, sig


def g_azure_acct(r):
    k = b64_bytes(r, 64)
    return (
        (
            f"DefaultEndpointsProtocol=https;AccountName=charitybackup{r.randint(1, 99)};AccountKey={k};"
            "EndpointSuffix=core.windows.net"
        ),
        k,
    )


def g_basic_url(r):
    p = pw(r)
    u = r.choice(["admin", "volunteer", "curator", "it", "kiosk"])
    host = r.choice(
        [
            "nas.museum.local",
            "intranet.hopefoundation.org",
            "signage.local:8080",
            "collections.harbourmuseum.org",
            "printer-admin.local",
        ]
    )
    return (
        f"https://{u}:{p}@{host}/{r.choice(['api/v1/status', 'export', 'backup/latest', ''])}",
        p,
    )


def g_mapbox(r):
    payload = json.dumps(
        {"u": r.choice(WHO) + "-museum", "a": rs(r, 25, LO + DIG)},
        separators=(",", ":"),
    )
    mid = base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")
    return _s(lambda _: "sk." + mid + "." + rs(r, 22, B64U))(r)


def g_wp_app(r):
    return _s(lambda _: " ".join(rs(r, 4) for _ in range(6)))(r)


KIND_SPECS = [
    # kind, category, generator, service, env var, key name, what
    (
        "stripe_secret_key",
        "tok",
        _s(lambda r: "sk_" + "live_" + rs(r, r.choice([24, 99]))),
        "Stripe",
        "STRIPE_SECRET_KEY",
        "secret_key",
        "live secret key",
    ),
    (
        "stripe_restricted_key",
        "tok",
        _s(lambda r: "rk_" + "live_" + rs(r, r.choice([24, 99]))),
        "Stripe",
        "STRIPE_RESTRICTED_KEY",
        "restricted_key",
        "restricted key",
    ),
    (
        "stripe_webhook_secret",
        "tok",
        _s(lambda r: "wh" + "sec_" + rs(r, 32)),
        "Stripe",
        "STRIPE_WEBHOOK_SECRET",
        "webhook_secret",
        "webhook signing secret",
    ),
    (
        "paypal_client_secret",
        "tok",
        _s(lambda r: "E" + rs(r, 79, B64U)),
        "PayPal",
        "PAYPAL_CLIENT_SECRET",
        "client_secret",
        "REST client secret",
    ),
    (
        "braintree_access_token",
        "tok",
        _s(lambda r: "access_token" + "$production$" + rs(r, 16, LO + DIG) + "$" + hx(r, 32)),
        "Braintree",
        "BRAINTREE_ACCESS_TOKEN",
        "access_token",
        "access token",
    ),
    (
        "gocardless_access_token",
        "tok",
        _s(lambda r: "live_" + rs(r, 40, B64U)),
        "GoCardless",
        "GOCARDLESS_ACCESS_TOKEN",
        "access_token",
        "live access token",
    ),
    (
        "mailchimp_api_key",
        "tok",
        _s(lambda r: hx(r, 32) + "-us" + str(r.randint(1, 21))),
        "Mailchimp",
        "MAILCHIMP_API_KEY",
        "api_key",
        "API key",
    ),
    (
        "mandrill_api_key",
        "tok",
        _s(lambda r: "md" + "-" + rs(r, 22)),
        "Mandrill",
        "MANDRILL_API_KEY",
        "api_key",
        "transactional API key",
    ),
    (
        "dotdigital_api_password",
        "pw",
        _s(pw),
        "Dotdigital",
        "DOTDIGITAL_API_PASSWORD",
        "api_password",
        "API user password",
    ),
    (
        "twilio_auth_token",
        "tok",
        _s(lambda r: hx(r, 32)),
        "Twilio",
        "TWILIO_AUTH_TOKEN",
        "auth_token",
        "auth token",
    ),
    (
        "twilio_api_key_secret",
        "tok",
        _s(lambda r: rs(r, 32)),
        "Twilio",
        "TWILIO_API_SECRET",
        "api_key_secret",
        "API key secret",
    ),
    (
        "sendgrid_api_key",
        "tok",
        _s(lambda r: "SG" + "." + rs(r, 22, B64U) + "." + rs(r, 43, B64U)),
        "SendGrid",
        "SENDGRID_API_KEY",
        "api_key",
        "API key",
    ),
    (
        "eventbrite_private_token",
        "tok",
        _s(lambda r: rs(r, 20, UP + DIG)),
        "Eventbrite",
        "EVENTBRITE_PRIVATE_TOKEN",
        "private_token",
        "private token",
    ),
    (
        "tessitura_api_password",
        "pw",
        _s(pw),
        "Tessitura",
        "TESSITURA_API_PASSWORD",
        "password",
        "REST API password",
    ),
    (
        "salesforce_security_token",
        "tok",
        _s(lambda r: rs(r, 25)),
        "Salesforce",
        "SF_SECURITY_TOKEN",
        "security_token",
        "security token",
    ),
    (
        "salesforce_access_token",
        "tok",
        _s(lambda r: "00D" + rs(r, 12) + "!" + "AR" + rs(r, 2) + "AQ" + rs(r, 96, ALNUM + "._")),
        "Salesforce",
        "SF_ACCESS_TOKEN",
        "access_token",
        "session/access token",
    ),
    (
        "salesforce_consumer_secret",
        "tok",
        _s(lambda r: rs(r, 64, HEXU)),
        "Salesforce connected app",
        "SF_CONSUMER_SECRET",
        "consumer_secret",
        "consumer secret",
    ),
    (
        "salesforce_password",
        "pw",
        _s(pw),
        "Salesforce NPSP",
        "SF_PASSWORD",
        "password",
        "integration user password",
    ),
    (
        "blackbaud_sky_subscription_key",
        "tok",
        _s(lambda r: hx(r, 32)),
        "Blackbaud SKY API",
        "BB_SUBSCRIPTION_KEY",
        "subscription_key",
        "subscription key",
    ),
    (
        "blackbaud_client_secret",
        "tok",
        _s(lambda r: b64_bytes(r, 32)),
        "Raiser's Edge NXT",
        "SKY_APP_SECRET",
        "application_secret",
        "application secret",
    ),
    (
        "bloomerang_private_api_key",
        "tok",
        _s(lambda r: rs(r, 40)),
        "Bloomerang",
        "BLOOMERANG_PRIVATE_KEY",
        "private_api_key",
        "private API key",
    ),
    (
        "wordpress_db_password",
        "pw",
        _s(pw),
        "WordPress",
        "DB_PASSWORD",
        "db_password",
        "database password",
    ),
    (
        "wordpress_auth_key",
        "tok",
        _s(lambda r: rs(r, 64, ALNUM + "!%&()*+,-./:;<=>?@[]^_|~")),
        "wp-config",
        "AUTH_KEY",
        "auth_key",
        "auth key salt",
    ),
    (
        "wordpress_application_password",
        "tok",
        g_wp_app,
        "WordPress REST",
        "WP_APP_PASSWORD",
        "application_password",
        "application password",
    ),
    (
        "wordpress_admin_password",
        "pw",
        _s(pw),
        "WordPress",
        "WP_ADMIN_PASSWORD",
        "admin_password",
        "admin password",
    ),
    (
        "drupal_hash_salt",
        "tok",
        _s(lambda r: rs(r, 55, B64U)),
        "Drupal",
        "DRUPAL_HASH_SALT",
        "hash_salt",
        "hash salt",
    ),
    (
        "drupal_db_password",
        "pw",
        _s(pw),
        "Drupal collections site",
        "DRUPAL_DB_PASSWORD",
        "db_password",
        "database password",
    ),
    (
        "google_oauth_client_secret",
        "tok",
        _s(lambda r: "GOC" + "SPX-" + rs(r, 28, B64U)),
        "Google Workspace",
        "GOOGLE_CLIENT_SECRET",
        "client_secret",
        "OAuth client secret",
    ),
    (
        "google_oauth_refresh_token",
        "tok",
        _s(lambda r: "1//0" + rs(r, 1) + rs(r, 99, B64U)),
        "Google Drive",
        "GOOGLE_REFRESH_TOKEN",
        "refresh_token",
        "refresh token",
    ),
    (
        "google_app_password",
        "pw",
        _s(lambda r: " ".join(rs(r, 4, LO) for _ in range(4))),
        "Gmail",
        "GMAIL_APP_PASSWORD",
        "app_password",
        "app password",
    ),
    (
        "azure_client_secret",
        "tok",
        _s(lambda r: rs(r, 3) + "8Q~" + rs(r, 34, ALNUM + "_.~-")),
        "Microsoft Graph",
        "AZURE_CLIENT_SECRET",
        "client_secret",
        "client secret",
    ),
    (
        "microsoft365_password",
        "pw",
        _s(pw),
        "Microsoft 365",
        "M365_PASSWORD",
        "password",
        "account password",
    ),
    (
        "airtable_personal_access_token",
        "tok",
        _s(lambda r: "pat" + rs(r, 14) + "." + hx(r, 64)),
        "Airtable",
        "AIRTABLE_TOKEN",
        "personal_access_token",
        "personal access token",
    ),
    (
        "zapier_webhook_url",
        "url",
        g_zapier,
        "Zapier",
        "ZAPIER_HOOK_URL",
        "webhook_url",
        "catch hook URL",
    ),
    (
        "make_webhook_url",
        "url",
        g_make,
        "Make",
        "MAKE_WEBHOOK_URL",
        "webhook_url",
        "webhook URL",
    ),
    (
        "make_api_token",
        "tok",
        _s(uuid4),
        "Make",
        "MAKE_API_TOKEN",
        "api_token",
        "API token",
    ),
    (
        "slack_webhook_url",
        "url",
        g_slack_hook,
        "Slack",
        "SLACK_WEBHOOK_URL",
        "webhook_url",
        "incoming webhook",
    ),
    (
        "slack_bot_token",
        "tok",
        _s(lambda r: "xo" + "xb-" + rs(r, 11, DIG) + "-" + rs(r, 13, DIG) + "-" + rs(r, 24)),
        "Slack",
        "SLACK_BOT_TOKEN",
        "bot_token",
        "bot token",
    ),
    (
        "xero_client_secret",
        "tok",
        _s(lambda r: rs(r, 48, B64U)),
        "Xero",
        "XERO_CLIENT_SECRET",
        "client_secret",
        "client secret",
    ),
    (
        "postgres_password",
        "url",
        g_conn("postgresql://{u}:{p}@{h}.internal:5432/donors"),
        "Postgres",
        "DATABASE_URL",
        "database_url",
        "connection string",
    ),
    (
        "mysql_password",
        "url",
        g_conn("mysql://{u}:{p}@{h}:3306/museum_wp"),
        "MySQL",
        "MYSQL_URL",
        "dsn",
        "connection string",
    ),
    (
        "mongodb_password",
        "url",
        g_conn("mongodb+srv://{u}:{p}@cluster{n}.ab{n}cd.mongodb.net/kiosk?retryWrites=true&w=majority"),
        "MongoDB Atlas",
        "MONGODB_URI",
        "mongo_uri",
        "connection URI",
    ),
    (
        "redis_password",
        "url",
        g_conn("redis://default:{p}@{h}:6379/{n}"),
        "Redis",
        "REDIS_URL",
        "redis_url",
        "connection URL",
    ),
    (
        "mssql_password",
        "url",
        g_conn("Server=tcp:{h}.database.windows.net,1433;Database=RE7;User Id={u};Password={p};Encrypt=True;"),
        "SQL Server",
        "RE_CONNECTION_STRING",
        "connection_string",
        "connection string",
    ),
    (
        "http_basic_auth_password",
        "url",
        g_basic_url,
        "intranet",
        "STATUS_URL",
        "url",
        "status URL",
    ),
    (
        "aws_secret_access_key",
        "tok",
        _s(lambda r: rs(r, 40, B64)),
        "AWS",
        "AWS_SECRET_ACCESS_KEY",
        "aws_secret_access_key",
        "secret access key",
    ),
    (
        "aws_s3_presigned_url",
        "url",
        g_s3_presigned,
        "S3",
        "EXPORT_LINK",
        "download_url",
        "pre-signed download link",
    ),
    (
        "azure_sas_signature",
        "url",
        g_sas,
        "Azure Blob",
        "SCAN_SAS_URL",
        "sas_url",
        "SAS link",
    ),
    (
        "azure_storage_account_key",
        "url",
        g_azure_acct,
        "Azure Storage",
        "AZURE_STORAGE_CONNECTION_STRING",
        "connection_string",
        "connection string",
    ),
    (
        "backblaze_b2_application_key",
        "tok",
        _s(lambda r: "K00" + rs(r, 1, DIG) + rs(r, 27)),
        "Backblaze B2",
        "B2_APPLICATION_KEY",
        "application_key",
        "application key",
    ),
    (
        "restic_repository_password",
        "pw",
        _s(pw),
        "restic",
        "RESTIC_PASSWORD",
        "repository_password",
        "repository password",
    ),
    (
        "borg_passphrase",
        "pw",
        _s(pw),
        "borg",
        "BORG_PASSPHRASE",
        "passphrase",
        "repo passphrase",
    ),
    (
        "openssh_private_key",
        "pem",
        g_openssh,
        "SSH",
        "DEPLOY_KEY",
        "private_key",
        "deploy key",
    ),
    (
        "rsa_private_key",
        "pem",
        g_pem("RSA " + "PRIV" + "ATE KEY"),
        "TLS",
        "TLS_KEY",
        "private_key",
        "private key",
    ),
    (
        "pkcs8_private_key",
        "pem",
        g_pem("PRIV" + "ATE KEY"),
        "SAML",
        "SAML_SP_KEY",
        "private_key",
        "private key",
    ),
    (
        "gcp_service_account_key",
        "gcp",
        g_gcp_sa,
        "Google service account",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "private_key",
        "key file",
    ),
    (
        "wifi_wpa_passphrase",
        "pw",
        _s(pw),
        "staff Wi-Fi (MUSEUM-STAFF)",
        "WIFI_PSK",
        "psk",
        "WPA2 passphrase",
    ),
    (
        "network_admin_password",
        "pw",
        _s(pw),
        "UniFi controller",
        "UNIFI_PASSWORD",
        "admin_password",
        "admin password",
    ),
    (
        "kiosk_admin_password",
        "pw",
        _s(pw),
        "gallery kiosk",
        "KIOSK_ADMIN_PASSWORD",
        "admin_password",
        "kiosk admin password",
    ),
    (
        "signage_api_token",
        "tok",
        _s(lambda r: rs(r, 40, LO + DIG)),
        "signage CMS",
        "SIGNAGE_API_TOKEN",
        "api_token",
        "API token",
    ),
    (
        "shared_volunteer_password",
        "pw",
        _s(pw),
        "volunteer rota login",
        "VOLUNTEER_PASSWORD",
        "password",
        "shared login password",
    ),
    (
        "github_personal_access_token",
        "tok",
        _s(lambda r: "gh" + "p_" + rs(r, 36)),
        "GitHub",
        "GITHUB_TOKEN",
        "token",
        "personal access token",
    ),
    (
        "github_fine_grained_token",
        "tok",
        _s(lambda r: "github" + "_pat_" + rs(r, 22, UP + DIG) + "_" + rs(r, 59)),
        "GitHub",
        "GH_PAT",
        "token",
        "fine-grained token",
    ),
    (
        "gitlab_personal_access_token",
        "tok",
        _s(lambda r: "gl" + "pat-" + rs(r, 20, B64U)),
        "GitLab",
        "GITLAB_TOKEN",
        "private_token",
        "personal access token",
    ),
    (
        "npm_access_token",
        "tok",
        _s(lambda r: "np" + "m_" + rs(r, 36)),
        "npm",
        "NPM_TOKEN",
        "npm_token",
        "automation token",
    ),
    (
        "openai_api_key",
        "tok",
        _s(lambda r: "sk-" + "proj-" + rs(r, 156, B64U)),
        "OpenAI",
        "OPENAI_API_KEY",
        "api_key",
        "API key",
    ),
    (
        "anthropic_api_key",
        "tok",
        _s(lambda r: "sk-" + "ant-" + "api03-" + rs(r, 93, B64U) + "AA"),
        "Anthropic",
        "ANTHROPIC_API_KEY",
        "api_key",
        "API key",
    ),
    (
        "django_secret_key",
        "tok",
        _s(lambda r: rs(r, 50, LO + DIG + "!@%^&*(-_=+)")),
        "Django",
        "DJANGO_SECRET_KEY",
        "SECRET_KEY",
        "secret key",
    ),
    (
        "mailgun_api_key",
        "tok",
        _s(lambda r: hx(r, 32) + "-" + hx(r, 8) + "-" + hx(r, 8)),
        "Mailgun",
        "MAILGUN_API_KEY",
        "api_key",
        "private API key",
    ),
    (
        "smtp_password",
        "pw",
        _s(pw),
        "Microsoft 365 SMTP relay",
        "SMTP_PASSWORD",
        "smtp_password",
        "SMTP password",
    ),
    (
        "cloudflare_api_token",
        "tok",
        _s(lambda r: rs(r, 40, B64U)),
        "Cloudflare",
        "CLOUDFLARE_API_TOKEN",
        "api_token",
        "API token",
    ),
    (
        "sentry_auth_token",
        "tok",
        _s(lambda r: "sntr" + "yu_" + hx(r, 64)),
        "Sentry",
        "SENTRY_AUTH_TOKEN",
        "auth_token",
        "user auth token",
    ),
    (
        "telegram_bot_token",
        "tok",
        _s(lambda r: str(r.randint(10**9, 8 * 10**9)) + ":AA" + rs(r, 33, B64U)),
        "Telegram alert bot",
        "TELEGRAM_BOT_TOKEN",
        "bot_token",
        "bot token",
    ),
    (
        "uptimerobot_api_key",
        "tok",
        _s(lambda r: "u" + rs(r, 7, DIG) + "-" + hx(r, 24)),
        "UptimeRobot",
        "UPTIMEROBOT_API_KEY",
        "api_key",
        "main API key",
    ),
    (
        "square_access_token",
        "tok",
        _s(lambda r: "EA" + "AA" + rs(r, 60, B64U)),
        "Square (museum shop)",
        "SQUARE_ACCESS_TOKEN",
        "access_token",
        "production access token",
    ),
    (
        "square_application_secret",
        "tok",
        _s(lambda r: "sq0" + "csp-" + rs(r, 43, B64U)),
        "Square",
        "SQUARE_APP_SECRET",
        "application_secret",
        "application secret",
    ),
    (
        "shopify_admin_token",
        "tok",
        _s(lambda r: "sh" + "pat_" + hx(r, 32)),
        "Shopify (online shop)",
        "SHOPIFY_ADMIN_TOKEN",
        "admin_api_access_token",
        "Admin API token",
    ),
    (
        "hubspot_private_app_token",
        "tok",
        _s(lambda r: "pat-" + "eu1-" + uuid4(r)),
        "HubSpot",
        "HUBSPOT_TOKEN",
        "private_app_token",
        "private app token",
    ),
    (
        "mapbox_secret_token",
        "tok",
        g_mapbox,
        "Mapbox",
        "MAPBOX_SECRET_TOKEN",
        "secret_token",
        "secret token",
    ),
    (
        "recaptcha_secret_key",
        "tok",
        _s(lambda r: "6L" + r.choice("cdef") + rs(r, 5) + "AAAAA" + rs(r, 27, B64U)),
        "reCAPTCHA",
        "RECAPTCHA_SECRET_KEY",
        "secret_key",
        "secret key",
    ),
    (
        "pfx_certificate_password",
        "pw",
        _s(pw),
        "code-signing .pfx",
        "PFX_PASSWORD",
        "pfx_password",
        "certificate export password",
    ),
    (
        "server_root_password",
        "pw",
        _s(pw),
        "backup server",
        "ROOT_PASSWORD",
        "root_password",
        "root password",
    ),
    (
        "collections_api_key",
        "tok",
        _s(lambda r: hx(r, 40)),
        "collections database",
        "COLLECTIONS_API_KEY",
        "api_key",
        "API key",
    ),
    ("ftp_password", "pw", _s(pw), "FTP", "FTP_PASS", "ftp_password", "FTP password"),
    (
        "xero_refresh_token",
        "tok",
        _s(lambda r: hx(r, 64)),
        "Xero",
        "XERO_REFRESH_TOKEN",
        "refresh_token",
        "refresh token",
    ),
]

# ---------------------------------------------------------------------------------------------
# templates. Placeholders: d (display value), svc, var, key, what, who, who2, org, host, date,
# time, ticket, team, slug, n. Tags: a = any non-PEM, t = header-usable token, p = PEM block.
TEMPLATES = [
    (
        "a",
        (
            "Note ({date}): {svc} {what} for the charity account is {d} - {who} asked to keep it here "
            "until we move it to the password manager."
        ),
    ),
    (
        "a",
        (
            "Lesson learned: the nightly {svc} sync failed because {var} was stale after the reset. "
            "New value {d} works; rotate again after the gala."
        ),
    ),
    (
        "a",
        (
            "Runbook - restore the {svc} integration\n1. ssh {who}@{host}\n2. export {var}={d}\n"
            "3. sudo systemctl restart donor-sync\n4. tail -f /var/log/donor-sync.log"
        ),
    ),
    (
        "a",
        "TODO({who}): move {var}={d} out of the shared drive doc before the trustees' audit.",
    ),
    (
        "a",
        (
            "Handover from {who} ({team}):\n- {svc} {what}: {d}\n- backups run nightly at 02:00 on "
            "{host}\n- gallery kiosks reboot on Sundays"
        ),
    ),
    (
        "a",
        (
            "[IT-{ticket}] {svc} integration broken after the password change\nReporter: {who}\n"
            "Workaround: set {var} to {d} in the Zapier step and replay the failed runs."
        ),
    ),
    (
        "a",
        (
            "From: {who}@{org}\nTo: it-team@{org}\nSubject: {svc} access for the new {team} officer\n\n"
            "Hi all,\nthe {what} for {svc} is {d}\nPlease don't forward this outside the office.\n\n"
            "Thanks,\n{who}"
        ),
    ),
    (
        "a",
        (
            "[{time}] {who}: does anyone have the {svc} {what}? the kiosk sync is red again\n"
            "[{time}] {who2}: {d}\n[{time}] {who}: thanks, working now"
        ),
    ),
    (
        "a",
        "Nota per il team IT: la chiave di {svc} ({var}) e' {d}. Non condividerla con i volontari.",
    ),
    (
        "a",
        "Anteckning {date}: {svc}-uppgiften ({var}) ar {d} - byt den efter utstallningen.",
    ),
    ("a", "메모: {svc} {var} 값은 {d} 입니다. 전시가 끝나면 교체할 것. 담당: {who}"),
    (
        "a",
        "Kumbuka: ufunguo wa {svc} ({var}) ni {d}. Usiushiriki na wageni wa jumba la makumbusho.",
    ),
    ("a", "תזכורת: הערך של {var} עבור {svc} הוא {d} - להחליף אחרי ערב ההתרמה. ({who})"),
    ("a", "# {svc}\n{var}={d}\nAPP_ENV=production\nLOG_LEVEL=info\nTZ=Europe/London"),
    (
        "a",
        '{{\n  "service": "{slug}",\n  "{key}": "{d}",\n  "region": "eu",\n  "retries": {n}\n}}',
    ),
    (
        "a",
        '{slug}:\n  enabled: true\n  {key}: "{d}"\n  timeout_seconds: {n}0\n  owner: {who}',
    ),
    (
        "a",
        "[{slug}]\nbase_url = https://api.{org}/v{n}\n{key} = {d}\nverify_ssl = true",
    ),
    (
        "a",
        ("<?php\n// wp-config.php excerpt ({host})\ndefine( '{var}', '{d}' );\ndefine( 'WP_DEBUG', false );"),
    ),
    (
        "a",
        "$env:{var} = '{d}'\nInvoke-RestMethod -Uri \"https://{host}.{org}/api/sync\" -Method Post",
    ),
    (
        "a",
        '# settings_local.py\nimport os\n{var} = os.environ.get("{var}", "{d}")\nDEBUG = False',
    ),
    (
        "a",
        (
            '{{"zap": {{"title": "New donation -> {svc}", "steps": [{{"app": "{slug}", '
            '"auth_fields": {{"{key}": "{d}"}}}}]}}}}'
        ),
    ),
    (
        "a",
        (
            '{{"name": "Gift Aid export scenario", "flow": [{{"id": {n}, "module": "{slug}:call", '
            '"parameters": {{"{key}": "{d}"}}}}]}}'
        ),
    ),
    (
        "a",
        ("$ export {var}={d}\n$ ./sync-donors.sh --dry-run\nfetched {n}12 records from {svc}\n0 errors"),
    ),
    (
        "a",
        (
            "{date} 02:0{n}:11 INFO donor-sync[{ticket}]: loaded {key}={d} from /etc/donor-sync.env\n"
            "{date} 02:0{n}:12 WARN donor-sync[{ticket}]: retrying {svc} request (429)"
        ),
    ),
    (
        "a",
        (
            "Run ./deploy.sh production\n  env:\n    {var}: {d}\n+ wp plugin update --all\n"
            "Success: Updated {n} of {n} plugins."
        ),
    ),
    (
        "a",
        (
            "crm=> SELECT name, value FROM integration_settings WHERE name = '{key}';\n"
            "    name    |  value\n------------+---------\n {key} | {d}\n(1 row)"
        ),
    ),
    (
        "a",
        (
            "services:\n  {slug}:\n    image: charity/{slug}:1.{n}\n    environment:\n"
            "      - {var}={d}\n    restart: unless-stopped"
        ),
    ),
    ("a", "0 2 * * * {var}={d} /opt/backup/run.sh >> /var/log/backup.log 2>&1"),
    (
        "a",
        (
            "Decision ({date}): we keep a single {svc} credential for the {team} team for now. "
            "Current {what}: {d}. Revisit when the nonprofit licence renews."
        ),
    ),
    (
        "a",
        (
            '{who}: heads-up, I hardcoded {key} = "{d}" in the kiosk script to get the opening '
            "working. Please replace it with Key Vault before Monday."
        ),
    ),
    (
        "t",
        (
            "$ curl -v https://api.{org}/v{n}/contacts\n> GET /v{n}/contacts HTTP/2\n> Host: api.{org}\n"
            "> Authorization: Bearer {d}\n> User-Agent: curl/8.5.0\n> Accept: */*\n>\n< HTTP/2 200"
        ),
    ),
    (
        "t",
        (
            'import requests\n\nHEADERS = {{"Authorization": "Bearer {d}"}}\n'
            'resp = requests.get("https://{host}.{org}/api/items", headers=HEADERS, timeout=30)'
        ),
    ),
    ("t", "http GET https://{host}.{org}/api/v{n}/status 'X-Api-Key:{d}'"),
    (
        "p",
        (
            "Saved the {what} for {host} here so the next person can restore backups:\n{d}\n"
            "Public half is already in authorized_keys."
        ),
    ),
    ("p", "$ cat ~/.ssh/{slug}_{n}\n{d}\n$ chmod 600 ~/.ssh/{slug}_{n}"),
    (
        "p",
        (
            "[IT-{ticket}] certificate renewal for {host}\nKey we used (from {who}):\n{d}\n"
            "Todo: regenerate and revoke this one."
        ),
    ),
    ("p", "Handover ({date}):\n- {svc} {what} below\n\n{d}\n\n- passphrase: none"),
    ("p", "메모: {host} 키\n{d}"),
    (
        "p",
        "{who}: pasting the {what} so you can get the signage player online\n{d}\n{who2}: got it",
    ),
    (
        "p",
        (
            "ssh-add failed with 'invalid format' until I re-saved the key with LF line endings:\n"
            "{d}\nLesson: Notepad on the kiosk PC converts to CRLF."
        ),
    ),
    ("p", "Ufunguo wa {host} ({date}):\n{d}"),
]

GCP_TEMPLATES = [
    "Service account key for the {slug} Sheets export (downloaded by {who} on {date}):\n{d}",
    "$ cat /etc/kiosk/sa.json\n{d}\n$ gcloud auth activate-service-account --key-file=/etc/kiosk/sa.json",
    "[IT-{ticket}] signage can't read the Google Sheet. Key file content:\n{d}",
    "# GOOGLE_APPLICATION_CREDENTIALS contents for {host}\n{d}",
    "Nota: chiave del service account per {host}\n{d}",
    "Handover: this is the JSON key Zapier uses for Drive uploads\n{d}\nRotate after {date}.",
]

# kind-specific extra templates (d, secret-bearing) to vary beyond the shared ones
EXTRA = {
    "wordpress_admin_password": [
        ("$ wp user create {who} {who}@{org} --role=administrator\nSuccess: Created user {n}.\nPassword: {d}"),
        "$ wp user update admin --user_pass={d}\nSuccess: Updated user 1.",
    ],
    "wordpress_db_password": [
        ("mysql> CREATE USER 'wp_museum'@'localhost' IDENTIFIED BY '{d}';\nQuery OK, 0 rows affected (0.01 sec)"),
        (
            "define( 'DB_NAME', 'museum_wp' );\ndefine( 'DB_USER', 'wp_museum' );\n"
            "define( 'DB_PASSWORD', '{d}' );\ndefine( 'DB_HOST', 'localhost' );"
        ),
    ],
    "wordpress_auth_key": [
        ("define( 'AUTH_KEY',         '{d}' );\ndefine( 'SECURE_AUTH_KEY',  'put your unique phrase here' );")
    ],
    "drupal_hash_salt": ["$settings['hash_salt'] = '{d}';\n$settings['update_free_access'] = FALSE;"],
    "drupal_db_password": [
        (
            "$databases['default']['default'] = [\n  'database' => 'collections',\n  'username' => "
            "'drupal',\n  'password' => '{d}',\n  'host' => 'localhost',\n  'driver' => 'mysql',\n];"
        )
    ],
    "wifi_wpa_passphrase": [
        'network={{\n    ssid="MUSEUM-STAFF"\n    psk="{d}"\n    key_mgmt=WPA-PSK\n}}',
        "Staff Wi-Fi for the new volunteers' laptops: SSID MUSEUM-STAFF, key {d}",
    ],
    "postgres_password": ['$ psql "{d}"\npsql: error: connection to server failed: timeout'],
    "mysql_password": ['SQLALCHEMY_DATABASE_URI = "{d}"'],
    "redis_password": ["$ redis-cli -u {d} ping\nPONG"],
    "mongodb_password": ['$ mongosh "{d}"\nCurrent Mongosh Log ID: {ticket}'],
    "zapier_webhook_url": [
        (
            "$ curl -X POST -H 'Content-Type: application/json' -d @gift.json {d}\n"
            '{{"status": "success", "attempt": "{ticket}"}}'
        )
    ],
    "make_webhook_url": ["Make scenario 'Eventbrite -> Mailchimp' is triggered by {d} (POST, JSON)."],
    "slack_webhook_url": [
        ("$ curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"Backup OK\"}}' {d}\nok")
    ],
    "aws_s3_presigned_url": ["Share this with the accountant (expires in 1h): {d}"],
    "azure_sas_signature": ['$ azcopy copy "{d}" ./scans/\nJob completed: 1 file transferred'],
    "http_basic_auth_password": ['$ curl -s {d}\n{{"status": "ok"}}'],
    "mssql_password": ['<add name="RaisersEdge" connectionString="{d}" />'],
    "twilio_auth_token": [
        (
            "$ curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC{ach}/Messages.json "
            "-u AC{ach}:{d} --data-urlencode 'Body=Reminder: gala tonight'"
        )
    ],
    "aws_secret_access_key": [
        ("[default]\naws_access_key_id = {akid}\naws_secret_access_key = {d}\nregion = eu-west-2")
    ],
    "blackbaud_sky_subscription_key": [
        (
            "> GET /constituent/v1/constituents?limit=50 HTTP/1.1\n"
            "> Host: api.sky.blackbaud.com\n> Bb-Api-Subscription-Key: {d}\n"
            "< HTTP/1.1 200 OK"
        )
    ],
    "mailchimp_api_key": [
        ("$ curl --request GET --url 'https://us{n}.api.mailchimp.com/3.0/lists' --user 'anystring:{d}'")
    ],
    "salesforce_security_token": [
        ("sf_client = Salesforce(username='integration@{org}', password=os.environ['SF_PW'], security_token='{d}')")
    ],
    "google_app_password": [
        ("Gmail SMTP for the donation receipts: smtp.gmail.com:587, user receipts@{org}, app password {d}")
    ],
    "restic_repository_password": [
        (
            "$ export RESTIC_REPOSITORY=b2:charity-backups:/nas\n"
            "$ export RESTIC_PASSWORD='{d}'\n$ restic snapshots\n"
            "ID        Time                 Host        Tags"
        )
    ],
    "telegram_bot_token": ['$ curl https://api.telegram.org/bot{d}/getMe\n{{"ok":true}}'],
}


def _ctx(r: random.Random, spec) -> dict:
    _kind, _cat, _gen, svc, var, key, what = spec
    who, who2 = r.sample(WHO, 2)
    return {
        "svc": svc,
        "var": var,
        "key": key,
        "what": what,
        "who": who,
        "who2": who2,
        "org": r.choice(ORG),
        "host": r.choice(HOSTS),
        "team": r.choice(TEAM),
        "date": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "time": f"{r.randint(8, 18):02d}:{r.randint(0, 59):02d}",
        "ticket": r.randint(1000, 9999),
        "slug": svc.split()[0].lower().replace("'", "").replace("-", "_").strip("()") or "svc",
        "n": r.randint(2, 9),
        "ach": hx(r, 32),
        "akid": "AK" + "IA" + rs(r, 16, UP + DIG),
    }


def _positives(r: random.Random, seen: set) -> list[tuple[str, str, str]]:
    out = []
    for spec in KIND_SPECS:
        kind, cat, gen = spec[0], spec[1], spec[2]
        if cat == "pem":
            pool = [t for tag, t in TEMPLATES if tag == "p"]
        elif cat == "gcp":
            pool = list(GCP_TEMPLATES)
        else:
            tags = ("a", "t") if cat == "tok" else ("a",)
            pool = [t for tag, t in TEMPLATES if tag in tags] + EXTRA.get(kind, []) * 2
        order: list[str] = []
        got = 0
        while got < PER_KIND:
            if not order:
                order = pool[:]
                r.shuffle(order)
            tpl = order.pop()
            display, secret = gen(r)
            if " " in display and cat != "gcp":
                tpl = tpl.replace("={d}", '="{d}"')
            ctx = _ctx(r, spec)
            text = tpl.format(d=display, **ctx)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            got += 1
    return out


# ---------------------------------------------------------------------------------------------
# look-alikes: no credential in any of these
def _w(r):
    return r.choice(WHO)


def _d(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _jwt_anon(r):
    def enc(o):
        return base64.urlsafe_b64encode(json.dumps(o, separators=(",", ":")).encode()).decode().rstrip("=")

    head = enc({"alg": "HS256", "typ": "JWT"})
    body = enc(
        {
            "iss": "supabase",
            "ref": rs(r, 20, LO),
            "role": "anon",
            "iat": r.randint(1.6e9, 1.8e9),
        }
    )
    return head + "." + body + "." + rs(r, 43, B64U)


_PK = "pk" + "_live_"
_PKT = "pk" + "_test_"

_LOOK = [
    # hashes, checksums, commit ids
    lambda r: f"Backup verified {_d(r)}: sha256sum donors-{r.randint(1, 99)}.tar.zst = {hx(r, 64)}",
    lambda r: f"Deployed museum theme at commit {hx(r, 40)} ({_w(r)}): fixes kiosk font size.",
    lambda r: f"git log --oneline\n{hx(r, 7)} fix Gift Aid rounding\n{hx(r, 7)} bump wp to 6.{r.randint(1, 7)}",
    lambda r: f"MD5 ({r.choice(['collections', 'objects', 'loans'])}_export.csv) = {hx(r, 32)}",
    lambda r: f'ETag: "{hx(r, 32)}"\nLast-Modified: Tue, {r.randint(1, 28)} Nov 2026 10:00:00 GMT',
    lambda r: f"image: ghcr.io/harbourmuseum/kiosk@sha256:{hx(r, 64)}",
    lambda r: f'"integrity": "sha512-{b64_bytes(r, 64)}"',
    lambda r: f"requests=={r.randint(2, 2)}.{r.randint(28, 32)}.0 --hash=sha256:{hx(r, 64)}",
    lambda r: f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(r, 64)}\nsize {r.randint(10**5, 10**8)}",
    lambda r: f'<script src="/js/app.js" integrity="sha384-{b64_bytes(r, 48)}" crossorigin="anonymous"></script>',
    lambda r: f"crc32 of scan {r.randint(1000, 9999)}.tif: {hx(r, 8)}; xxh64: {hx(r, 16)}",
    # request ids, uuids, trace ids
    lambda r: f"{_d(r)} ERROR stripe webhook handler failed request_id=req_{rs(r, 14)} event=evt_{rs(r, 24)}",
    lambda r: f"x-request-id: {uuid4(r)}\nx-correlation-id: {uuid4(r)}",
    lambda r: f"traceparent: 00-{hx(r, 32)}-{hx(r, 16)}-01",
    lambda r: f"CF-RAY: {hx(r, 16)}-LHR\nserver: cloudflare",
    lambda r: (
        f"Tessitura constituent {r.randint(100000, 999999)} merged into {r.randint(100000, 999999)} (batch {uuid4(r)})"
    ),
    lambda r: f"Idempotency-Key: {uuid4(r)}  # Stripe retry of donation {r.randint(1000, 9999)}",
    lambda r: f'terraform state: lineage = "{uuid4(r)}", serial = {r.randint(1, 300)}',
    # vendor ids that are not secret
    lambda r: f"Stripe payment pi_{rs(r, 24)} for customer cus_{rs(r, 14)} succeeded (GBP {r.randint(5, 500)}.00)",
    lambda r: f"Refund re_{rs(r, 24)} issued on charge ch_{rs(r, 24)} - donor asked by phone.",
    lambda r: f"Webhook endpoint we_{rs(r, 24)} listens for checkout.session.completed",
    lambda r: f"Twilio message SM{hx(r, 32)} status=delivered to=+44 7700 900{r.randint(100, 999)}",
    lambda r: f"Salesforce Contact 003{rs(r, 15)} linked to Account 001{rs(r, 15)} (household)",
    lambda r: f"Airtable base app{rs(r, 14)} / table tbl{rs(r, 14)} / view viw{rs(r, 14)}",
    lambda r: f"Airtable record rec{rs(r, 14)} updated by Make scenario {r.randint(100000, 999999)}",
    lambda r: f"Mailchimp audience id {hx(r, 10)}; campaign {hx(r, 10)} sent to {r.randint(1000, 9000)} donors",
    lambda r: f"Eventbrite event {r.randint(10**11, 10**12)} (Late Opening) - order {r.randint(10**9, 10**10)}",
    lambda r: f"Zap {r.randint(10**8, 10**9)} turned off by {_w(r)}: duplicate gifts created",
    lambda r: f"Raiser's Edge constituent lookup id {r.randint(10000, 99999)}, gift id {r.randint(10**5, 10**6)}",
    lambda r: (
        f"GoCardless mandate MD{rs(r, 12, UP + DIG)} / payment PM{rs(r, 12, UP + DIG)} failed: insufficient_funds"
    ),
    lambda r: f"Xero invoice INV-{r.randint(1000, 9999)} tenant id {uuid4(r)}",
    lambda r: (
        f"Accession {r.randint(1950, 2026)}.{r.randint(1, 300)}.{r.randint(1, 40)} scanned; IIIF manifest "
        f"https://iiif.harbourmuseum.org/manifests/{uuid4(r)}"
    ),
    lambda r: (
        f"Kiosk serial {rs(r, 12, UP + DIG)} MAC {':'.join(hx(r, 2) for _ in range(6))} moved to gallery {r.randint(1, 9)}"
    ),
    lambda r: f"Visitor Wi-Fi BSSID {':'.join(hx(r, 2) for _ in range(6))} channel {r.choice([1, 6, 11, 36, 44])}",
    # public-by-design keys and client ids
    lambda r: f"STRIPE_PUBLISHABLE_KEY={_PK}{rs(r, 99)}",
    lambda r: f"const stripe = Stripe('{_PKT}{rs(r, 99)}');  // publishable, safe in the browser",
    lambda r: f'<script src="https://www.paypal.com/sdk/js?client-id=A{rs(r, 79, B64U)}&currency=GBP"></script>',
    lambda r: (
        f"Sentry DSN for the donate page: https://{hx(r, 32)}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/{r.randint(10**6, 10**7)}"
    ),
    lambda r: (
        'const firebaseConfig = { apiKey: "AI'
        + f'za{rs(r, 35, B64U)}", authDomain: "kiosk-{r.randint(100, 999)}.firebaseapp.com" }};'
    ),
    lambda r: f'<div class="g-recaptcha" data-sitekey="6L{r.choice("cdef")}{rs(r, 5)}AAAAA{rs(r, 27, B64U)}"></div>',
    lambda r: f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{rs(r, 32, LO + DIG)}.apps.googleusercontent.com",
    lambda r: f"Entra app registration: client id {uuid4(r)}, tenant id {uuid4(r)} (secret is in Key Vault)",
    lambda r: f"XERO_CLIENT_ID={rs(r, 32, HEXU)}",
    lambda r: f"SUPABASE_ANON_KEY={_jwt_anon(r)}  # anon role, public",
    lambda r: f"ALGOLIA_SEARCH_ONLY_KEY={hx(r, 32)}  # search-only, used by the collections site",
    lambda r: (
        "mapboxgl.accessToken = 'pk."
        + base64.urlsafe_b64encode(json.dumps({"u": _w(r), "a": rs(r, 25, LO + DIG)}).encode()).decode().rstrip("=")
        + f".{rs(r, 22, B64U)}';"
    ),
    lambda r: f"Google Analytics measurement id G-{rs(r, 10, UP + DIG)}, GTM container GTM-{rs(r, 7, UP + DIG)}",
    lambda r: f"JustGiving appId {hx(r, 8)} (public, used in the widget embed)",
    lambda r: f"Blackbaud SKY application id {uuid4(r)} - redirect URI https://crm.hopefoundation.org/callback",
    lambda r: "Square application id sq0" + f"idp-{rs(r, 22, B64U)} (public, used by the web payments SDK)",
    lambda r: f"Bloomerang public key pub_{hx(r, 32)} goes in the donation form embed.",
    # placeholders and docs text
    lambda r: (
        f"STRIPE_SECRET_KEY=<your-stripe-secret-key>\nMAILCHIMP_API_KEY=<{r.choice(['mailchimp-key', 'key-here', 'api-key'])}>  # {_d(r)}"
    ),
    lambda r: (
        f"{r.choice(['DB_PASSWORD', 'SMTP_PASSWORD', 'XERO_CLIENT_SECRET'])}=${{{r.choice(['DB_PASSWORD', 'SECRET', 'XERO_SECRET'])}}} # set by systemd ({_w(r)})"
    ),
    lambda r: f"define( 'DB_PASSWORD', 'password_here' );\n// copied from wp-config-sample.php on {_d(r)}",
    lambda r: (
        f"Default kiosk login is admin / changeme - {_w(r)} changed it on {_d(r)}, new one is in the password manager."
    ),
    lambda r: f"Password: ******** (ticket {r.randint(1000, 9999)})",
    lambda r: f'twilio_auth_token: "your_auth_token"\ntwilio_account_sid: "AC{"X" * 32}"  # {_d(r)}',
    lambda r: f"api_key: REPLACE_ME\n# {_w(r)}: fill in from 1Password item 'Mailchimp {r.randint(1, 9)}'",
    lambda r: f"SALESFORCE_PASSWORD=\nSALESFORCE_TOKEN=\n# leave empty locally; CI injects them ({r.randint(1, 99)})",
    lambda r: (
        f"The Wi-Fi for visitors is open (MUSEUM-GUEST, no password); staff network key is on the card in the IT cupboard. Room {r.randint(1, 40)}."
    ),
    lambda r: (
        f"Set {r.choice(['MAILGUN_API_KEY', 'SENDGRID_API_KEY'])} to the value shown once in the dashboard; do NOT paste it here. ({_d(r)})"
    ),
    lambda r: (
        f"Password policy ({_d(r)}): minimum 14 characters, no reuse of the last {r.randint(5, 24)}, MFA for all volunteers."
    ),
    lambda r: (
        "AWS docs example: aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY"
        + f"EXAMPLEKEY (not ours) #{r.randint(1, 999)}"
    ),
    lambda r: (
        "Stripe docs use sk_"
        + f"test_4eC39HqLyjWDarjtT1zdp7dc as the sample key; ours lives in Doppler. ({_w(r)}, {_d(r)})"
    ),
    lambda r: f"password: xxxxxxxxxxxx\nusername: kiosk{r.randint(1, 30)}  # redacted before sharing",
    lambda r: (
        f"Mailchimp key looks like <32 hex chars>-us{r.randint(1, 21)}; find it under ({_w(r)}) Account > Extras > API keys."
    ),
    # references to where secrets live
    lambda r: f"env:\n  XERO_CLIENT_SECRET: ${{{{ secrets.XERO_CLIENT_SECRET }}}}\n  RUN: {r.randint(1, 999)}",
    lambda r: (
        f'key = Variable.get("{r.choice(["bloomerang_api_key", "mailchimp_key", "sf_token"])}")  # task {r.randint(1, 99)}'
    ),
    lambda r: (
        f'token = dbutils.secrets.get(scope="crm", key="{r.choice(["sf-token", "re-nxt", "stripe"])}-{r.randint(1, 9)}")'
    ),
    lambda r: (
        f"$ vault kv get -field=password secret/charity/{r.choice(['wp', 'drupal', 'xero', 'tessitura'])}/db{r.randint(1, 9)}"
    ),
    lambda r: f'op read "op://IT/{r.choice(["Stripe", "Xero", "Mailchimp"])} {r.randint(1, 9)}/credential"',
    lambda r: (
        f"@Microsoft.KeyVault(SecretUri=https://charity-kv-{r.randint(1, 99)}.vault.azure.net/secrets/SmtpPassword/{hx(r, 32)})"
    ),
    lambda r: f"arn:aws:secretsmanager:eu-west-2:{r.randint(10**11, 10**12)}:secret:prod/donor-sync/db-{rs(r, 6)}",
    lambda r: (
        f"DB_PASSWORD_FILE=/run/secrets/db_password_{r.randint(1, 9)}\nWORDPRESS_DB_HOST=db:{r.randint(3300, 3310)}"
    ),
    lambda r: f"valueFrom:\n  secretKeyRef:\n    name: stripe-{r.randint(1, 20)}\n    key: secret-key",
    lambda r: f"$cred = Get-Secret -Name 'M365-Relay-{r.randint(1, 99)}' -Vault CharityVault{r.randint(1, 9)}",
    lambda r: (
        f'password = os.environ["TESSITURA_API_PASSWORD"]  # see runbook step {r.randint(1, 12)}.{r.randint(1, 9)}'
    ),
    lambda r: f"Reminder: the Raiser's Edge API secret moved to Bitwarden collection 'Finance' on {_d(r)}.",
    # encrypted blobs and password hashes
    lambda r: "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hx(r, 80) for _ in range(r.randint(3, 6))),
    lambda r: (
        f"db_password: ENC[AES256_GCM,data:{b64_bytes(r, 12)},iv:{b64_bytes(r, 32)},tag:{b64_bytes(r, 16)},type:str]"
    ),
    lambda r: f"admin:$2b$12${rs(r, 53, ALNUM + './')}",
    lambda r: f"$argon2id$v=19$m=65536,t=3,p=4${b64_bytes(r, 16).rstrip('=')}${b64_bytes(r, 32).rstrip('=')}",
    lambda r: f"wp_users row 1: user_pass = $P$B{rs(r, 30, ALNUM + './')}",
    lambda r: f"drupal users_field_data pass: $S$E{rs(r, 51, ALNUM + './')}",
    lambda r: f"pbkdf2_sha256$600000${rs(r, 22)}${b64_bytes(r, 32)}",
    lambda r: f"volunteer:$apr1${rs(r, 8, ALNUM + './')}${rs(r, 22, ALNUM + './')}  # .htpasswd",
    lambda r: f"root:$6${rs(r, 16, ALNUM + './')}${rs(r, 86, ALNUM + './')}:19{r.randint(100, 999)}:0:99999:7:::",
    lambda r: (
        "-----BEGIN PGP MESSAGE-----\n\n"
        + "\n".join(rs(r, 64, B64) for _ in range(r.randint(3, 6)))
        + "\n="
        + rs(r, 4, B64)
        + "\n-----END PGP MESSAGE-----"
    ),
    lambda r: f"KMS CiphertextBlob: AQICAH{b64_bytes(r, 120)}",
    # fingerprints, public keys, certificates, key ids
    lambda r: f"ED25519 key fingerprint is SHA256:{b64_bytes(r, 32).rstrip('=')}.",
    lambda r: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(r, 43, B64)} {_w(r)}@{r.choice(HOSTS)}",
    lambda r: (
        "-----BEGIN CERTIFICATE-----\nMII"
        + rs(r, 61, B64)
        + "\n"
        + "\n".join(rs(r, 64, B64) for _ in range(r.randint(6, 12)))
        + "\n-----END CERTIFICATE-----"
    ),
    lambda r: f'"private_key_id": "{hx(r, 40)}"  # only the id, the key itself was deleted',
    lambda r: f'gpg: key {rs(r, 16, HEXU)}: public key "Finance Team <finance@hopefoundation.org>" imported',
    lambda r: f"TLS cert for donate.hopefoundation.org: serial {':'.join(hx(r, 2) for _ in range(16))}",
    lambda r: f"Key Vault key id https://charity-kv.vault.azure.net/keys/backup-cmk/{hx(r, 32)}",
    lambda r: f"arn:aws:kms:eu-west-2:{r.randint(10**11, 10**12)}:key/{uuid4(r)}",
    # base64 data, model/dataset ids, runs, notebooks
    lambda r: f'<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUg{b64_bytes(r, 90)}">',
    lambda r: f"font-face src: url(data:font/woff2;base64,d09GMgABAAAAA{b64_bytes(r, 60)}) format('woff2');",
    lambda r: (
        f"Captioning model for object photos: Salesforce/blip-image-captioning-{r.choice(['base', 'large'])}, batch {r.randint(2, 64)}"
    ),
    lambda r: (
        f"Embedding model sentence-transformers/all-MiniLM-L6-v2 on dataset harbourmuseum/objects-v{r.randint(1, 9)}, top_k={r.randint(3, 50)}"
    ),
    lambda r: (
        f"wandb: run {rs(r, 8, LO + DIG)} finished; view at https://wandb.ai/museum/captions/runs/{rs(r, 8, LO + DIG)}"
    ),
    lambda r: f"mlflow run_id={hx(r, 32)} metrics: accuracy={r.random():.3f}",
    lambda r: json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 200),
            "id": hx(r, 8),
            "metadata": {},
            "outputs": [],
            "source": ["df = load_donors()\n"],
        }
    ),
    lambda r: (
        f"Base64 of the sample payload (not a secret): {base64.b64encode(json.dumps({'gift': r.randint(1, 999), 'gift_aid': True}).encode()).decode()}"
    ),
    # misc tricky
    lambda r: f"Card ending {r.randint(1000, 9999)} (Visa) - donor asked to update it via the portal.",
    lambda r: (
        f"Test card 4242 4242 4242 4242, exp {r.randint(1, 12):02d}/{r.randint(27, 34)}, any CVC - Stripe test mode only."
    ),
    lambda r: "Stripe checkout session cs_" + f"live_{rs(r, 58)} expired without payment",
    lambda r: f"script-src 'self' 'nonce-{b64_bytes(r, 16)}' https://js.stripe.com",
    lambda r: (
        f"Charity number {r.randint(200000, 1199999)}; VAT GB{r.randint(10**8, 10**9)}; Gift Aid ref {rs(r, 6, UP + DIG)}"
    ),
    lambda r: f"Colour tokens for the signage theme: primary #{hx(r, 6)}, accent #{hx(r, 6)}, dark #{hx(r, 6)}",
    lambda r: f"Kiosk PIN pad reset: the PIN is stored salted+hashed ({hx(r, 64)}), nobody can read it back.",
    lambda r: (
        f"$ wp option get siteurl\nhttps://www.harbourmuseum.org\n$ wp core version\n6.{r.randint(1, 7)}.{r.randint(0, 3)}"
    ),
    lambda r: (
        f"$ restic snapshots\nID        Time                 Host\n{hx(r, 8)}  {_d(r)} 02:00:0{r.randint(0, 9)}  backup-nas"
    ),
    lambda r: (
        f"$ b2 ls b2://charity-backups\nkeyID {r.randint(0, 9)}0{hx(r, 23)} has read access only (key itself not shown)"
    ),
    lambda r: (
        f"[IT-{r.randint(1000, 9999)}] {_w(r)} locked out of Microsoft 365 after 5 failed attempts; reset via admin centre, temp password sent by SMS (not recorded here)."
    ),
    lambda r: f"Lesson: never paste API keys in Slack. Rotated the Mailchimp key on {_d(r)} after {_w(r)} did.",
    lambda r: (
        f"TOKEN_TTL_SECONDS={r.choice([900, 3600, 7200])}\nMAX_UPLOAD_MB={r.randint(5, 200)}\nSESSION_COOKIE_SECURE=true\nCSRF_TRUSTED_ORIGINS=https://donate.hopefoundation.org"
    ),
    lambda r: f"Nota: la password del Wi-Fi ospiti e' sul cartello all'ingresso; quella dello staff la tiene {_w(r)}.",
    lambda r: f"메모: API 키는 저장소에 넣지 말 것. 키 관리는 Key Vault ({r.randint(1, 99)}번 항목, {_w(r)}) 참고.",
    lambda r: f"Anteckning: losenordet finns i Bitwarden, mappen 'Museum {r.randint(1, 9)}', inte har. /{_w(r)}",
    lambda r: f"Kumbuka: nenosiri la Xero liko kwenye Bitwarden, si hapa. ({_d(r)})",
    lambda r: f"תזכורת: הסיסמה נמצאת בכספת, לא כאן. כרטיס {r.randint(1000, 9999)}",
    lambda r: (
        f"{_d(r)} INFO auth: login ok user={_w(r)} mfa=totp ip=10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"
    ),
    lambda r: (
        f"Drupal config sync: $settings['config_sync_directory'] = '../config/sync-{r.randint(1, 9)}';  // {_d(r)}"
    ),
    lambda r: (
        f'Make scenario export: {{"connection": {r.randint(10**6, 10**7)}, "__IMTCONN__": {r.randint(10**6, 10**7)}}}'
    ),
]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(f"secret-samples-au:{seed}")
    seen: set[str] = set()
    positives = _positives(r, seen)
    lookalikes: list[str] = []
    for fn in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 1000:
                raise RuntimeError(f"look-alike generator {fn} cannot make {LOOK_PER_GEN} distinct texts")
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
