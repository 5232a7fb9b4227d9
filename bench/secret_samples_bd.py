"""Set BD: labelled secret-detector test texts for a car dealership group and its body shop.

Theme: memories an AI coding agent keeps while working for a group of car dealerships and its body
shop: DMS (CDK, Reynolds and Reynolds, Dealertrack DMS), OEM portals, lender portals (RouteOne,
Dealertrack), CRM (VinSolutions, DealerSocket, Elead), inventory feeds (AutoTrader, Cars.com,
CarGurus) over FTP/SFTP and APIs, Carfax/AutoCheck, CallRail, Google Ads, Meta, DocuSign, Stripe,
Authorize.Net, Square, CCC ONE, Mitchell, the key cutting machine, showroom Wi-Fi, cameras, door and
gate controllers, Microsoft 365 and a small Azure tenant.  Styles: notes, lessons, runbooks, TODOs,
handovers, tickets, emails, chat (English plus Spanish, Korean, German, Portuguese, Ukrainian),
config files (.env, JSON, YAML, INI, XML, PowerShell) and tool output (CLI, curl -v, logs, CI logs,
database consoles).

Contract:
    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
    positives:  list of (text, kind, secret); secret is an exact substring of text; one secret per text;
                30 positives per kind.
    lookalikes: texts with no credential; len == len(_LOOK) * LOOK_PER_GEN.
    Deterministic per seed; no duplicate texts in the whole output.

Labelling conventions:
    * webhook URLs -> final path token; connection strings / basic-auth URLs -> password only;
      pre-signed URLs -> the signature; PEM / OpenSSH private keys -> whole armoured block.
    * UUID-shaped vendor tokens are secrets only when named as token/key/secret.
    * Public-by-design values (publishable keys, client ids, site keys, Sentry DSNs, Firebase web
      apiKeys, search-only keys, public certificates), vendor doc examples, encrypted blobs and
      password hashes are look-alikes.  Bare AWS access key ids are left out entirely.
    * No token-shaped literal appears in this source: prefixes and bodies are assembled at run time.
"""

from __future__ import annotations

import base64
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

AL = string.ascii_letters + string.digits
LOW = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B64 = AL + "+/"
URLSAFE = AL + "-_"
PWCH = AL + "!#%^*-_=+.?"


def _r(rng, n, alpha=AL):
    return "".join(rng.choice(alpha) for _ in range(n))


def _uuid(rng):
    h = _r(rng, 32, HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


WORDS = [
    "tulip",
    "rover",
    "maple",
    "falcon",
    "cobalt",
    "harbor",
    "juniper",
    "canyon",
    "velvet",
    "orbit",
    "copper",
    "willow",
    "ember",
    "summit",
    "lantern",
    "meadow",
    "sierra",
    "tundra",
    "pickup",
    "sedan",
    "bumper",
    "piston",
    "garnet",
    "walnut",
    "thunder",
    "saffron",
]
SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Mustang",
    "Camry",
    "Tahoe",
    "Civic",
    "Bronco",
]


def _pw(rng):
    m = rng.randrange(4)
    if m == 0:
        return f"{rng.choice(SEASONS)}{rng.randint(2019, 2027)}{rng.choice('!#$*')}"
    if m == 1:
        w = rng.sample(WORDS, 3)
        return f"{w[0]}-{w[1].capitalize()}-{w[2]}{rng.randint(10, 99)}"
    if m == 2:
        return _r(rng, rng.randint(14, 20), PWCH)
    w = rng.sample(WORDS, 2)
    return f"{w[0].capitalize()}{rng.choice('.!_')}{w[1]}{rng.randint(100, 9999)}"


def _b64len(rng, nbytes):
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(nbytes))).decode()


def _pem(rng, label, nlines):
    body = "\n".join(_b64len(rng, 48) for _ in range(nlines))
    tail = _b64len(rng, rng.randint(10, 40))
    return f"-----BEGIN {label}-----\n{body}\n{tail}\n-----END {label}-----"


def _openssh(rng):
    head = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    lines = [head] + [_b64len(rng, 51) for _ in range(rng.randint(4, 6))]
    return "-----BEGIN OPENSSH" + " PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH" + " PRIVATE KEY-----"


def _jwt(rng, payload):
    def enc(b):
        return base64.urlsafe_b64encode(b).decode().rstrip("=")

    return enc(b'{"alg":"HS256","typ":"JWT"}') + "." + enc(payload.encode()) + "." + _r(rng, 43, URLSAFE)


# ---------------------------------------------------------------- positive kinds
# each gen returns (value placed in the text, secret)


def _tok(f):
    def g(rng):
        v = f(rng)
        return v, v

    return g


def _connurl(scheme, port, db):
    def g(rng):
        p = _r(rng, 1, string.ascii_letters) + _pw(rng).replace("#", "x").replace("?", "Q")
        p = p.replace("%", "p").replace("^", "u").replace("+", "P").replace("=", "e")
        u = rng.choice(["dms_sync", "svc_inventory", "bodyshop", "reports", "crm_etl"])
        h = rng.choice(
            [
                "10.20.4.15",
                "sql01.dealers.local",
                "db-prod.autogroup.internal",
                "172.16.8.40",
            ]
        )
        return f"{scheme}://{u}:{p}@{h}:{port}/{db}", p

    return g


def _mssql(rng):
    p = _pw(rng).replace(";", "")
    h = rng.choice(
        [
            "sql01.dealers.local",
            "tcp:autogroup-sql.database.windows.net,1433",
            "10.20.4.16",
        ]
    )
    return (
        f"Server={h};Database=BodyShop;User Id=ccc_sync;Password={p};TrustServerCertificate=True",
        p,
    )


def _azure_storage(rng):
    k = _b64len(rng, 64)
    acct = rng.choice(["autogroupimages", "dealerdocs", "bodyshopphotos"])
    return (
        f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={k};EndpointSuffix=core.windows.net",
        k,
    )


def _sas(rng):
    sig = _b64len(rng, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    return (
        (
            f"https://dealerdocs.blob.core.windows.net/deals/{rng.randint(10000, 99999)}.pdf?sv=2022-11-02&ss=b&srt=o"
            f"&sp=r&se=2026-12-{rng.randint(10, 28)}T18:00:00Z&spr=https&sig={sig}"
        ),
        sig,
    )


def _s3_presigned(rng):
    sig = _r(rng, 64, HEX)
    return (
        (
            f"https://autogroup-photos.s3.amazonaws.com/lot/{rng.randint(1000, 9999)}.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            f"&X-Amz-Date=20261205T{rng.randint(10, 23)}0000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
        ),
        sig,
    )


def _slack_hook(rng):
    t = _r(rng, 24)
    return (
        f"https://hooks.slack.com/services/T{_r(rng, 8, string.ascii_uppercase + string.digits)}/B{_r(rng, 10, string.ascii_uppercase + string.digits)}/{t}",
        t,
    )


def _discord_hook(rng):
    t = _r(rng, 68, URLSAFE)
    return f"https://discord.com/api/webhooks/{rng.randint(10**17, 10**18)}/{t}", t


def _teams_hook(rng):
    t = _uuid(rng)
    return (
        f"https://autogroup.webhook.office.com/webhookb2/{_uuid(rng)}@{_uuid(rng)}/IncomingWebhook/{_r(rng, 32, HEX)}/{t}",
        t,
    )


def _rtsp(rng):
    p = _pw(rng).replace("#", "h").replace("?", "q").replace("%", "p")
    return (
        f"rtsp://admin:{p}@192.168.50.{rng.randint(20, 90)}:554/Streaming/Channels/101",
        p,
    )


def _ftpurl(rng):
    p = _pw(rng).replace("#", "h").replace("?", "q").replace("%", "p")
    return (
        f"ftp://autogroup{rng.randint(100, 999)}:{p}@ftp.inventoryfeeds.example.net/incoming/",
        p,
    )


def _basic(rng):
    raw = f"{rng.choice(['dealer', 'feeds', 'admin'])}{rng.randint(1, 99)}:{_pw(rng)}".encode()
    v = base64.b64encode(raw).decode()
    return "Basic " + v, v


def _pypi(rng):
    return "pypi" + "-AgEIcHlwaS5vcmc" + _r(rng, 150, URLSAFE)


KINDS = [
    # (kind, gen, env var, service, label)
    (
        "github_pat",
        _tok(lambda r: "gh" + "p_" + _r(r, 36)),
        "GITHUB_TOKEN",
        "GitHub (dealer-web repo)",
        "token",
    ),
    (
        "github_fine_grained_pat",
        _tok(lambda r: "github" + "_pat_" + _r(r, 22) + "_" + _r(r, 59)),
        "GH_PAT",
        "GitHub Actions",
        "personal access token",
    ),
    (
        "gitlab_pat",
        _tok(lambda r: "gl" + "pat-" + _r(r, 20, URLSAFE)),
        "GITLAB_TOKEN",
        "GitLab",
        "access token",
    ),
    (
        "slack_bot_token",
        _tok(
            lambda r: (
                "xo" + "xb-" + str(r.randint(10**10, 10**11)) + "-" + str(r.randint(10**12, 10**13)) + "-" + _r(r, 24)
            )
        ),
        "SLACK_BOT_TOKEN",
        "Slack sales bot",
        "bot token",
    ),
    (
        "slack_webhook",
        _slack_hook,
        "SLACK_WEBHOOK_URL",
        "Slack #used-cars alerts",
        "webhook",
    ),
    (
        "discord_webhook",
        _discord_hook,
        "DISCORD_WEBHOOK",
        "Discord body-shop channel",
        "webhook",
    ),
    (
        "teams_webhook",
        _teams_hook,
        "TEAMS_WEBHOOK_URL",
        "Teams service-dept channel",
        "incoming webhook",
    ),
    (
        "stripe_secret_key",
        _tok(lambda r: "sk" + "_live_" + _r(r, r.choice([24, 99]))),
        "STRIPE_SECRET_KEY",
        "Stripe (deposits)",
        "secret key",
    ),
    (
        "stripe_restricted_key",
        _tok(lambda r: "rk" + "_live_" + _r(r, 99)),
        "STRIPE_RESTRICTED_KEY",
        "Stripe reporting",
        "restricted key",
    ),
    (
        "stripe_webhook_secret",
        _tok(lambda r: "wh" + "sec_" + _r(r, 32)),
        "STRIPE_WEBHOOK_SECRET",
        "Stripe webhooks",
        "signing secret",
    ),
    (
        "square_access_token",
        _tok(lambda r: "EA" + "AA" + _r(r, 60, URLSAFE)),
        "SQUARE_ACCESS_TOKEN",
        "Square (parts counter)",
        "access token",
    ),
    (
        "authorize_net_transaction_key",
        _tok(lambda r: _r(r, 16)),
        "AUTHNET_TRANSACTION_KEY",
        "Authorize.Net",
        "transaction key",
    ),
    (
        "aws_secret_access_key",
        _tok(lambda r: _r(r, 40, B64)),
        "AWS_SECRET_ACCESS_KEY",
        "AWS (photo bucket)",
        "secret access key",
    ),
    (
        "aws_s3_presigned_url",
        _s3_presigned,
        "PHOTO_URL",
        "S3 lot photos",
        "pre-signed link",
    ),
    (
        "azure_storage_account_key",
        _azure_storage,
        "AZURE_STORAGE_CONNECTION_STRING",
        "Azure Storage",
        "connection string",
    ),
    (
        "azure_sas_signature",
        _sas,
        "DEAL_JACKET_SAS_URL",
        "Azure Blob deal jackets",
        "SAS link",
    ),
    (
        "azure_client_secret",
        _tok(lambda r: _r(r, 3) + "8Q" + "~" + _r(r, 34, AL + "_.~-")),
        "AZURE_CLIENT_SECRET",
        "Azure app registration",
        "client secret",
    ),
    (
        "azure_devops_pat",
        _tok(lambda r: _r(r, 52, "abcdefghijklmnopqrstuvwxyz234567")),
        "AZURE_DEVOPS_PAT",
        "Azure DevOps",
        "PAT",
    ),
    (
        "m365_app_password",
        _tok(lambda r: _r(r, 16, string.ascii_lowercase)),
        "SMTP_PASSWORD",
        "Microsoft 365 SMTP relay",
        "app password",
    ),
    (
        "m365_admin_password",
        _tok(_pw),
        "M365_ADMIN_PASSWORD",
        "Microsoft 365 global admin",
        "password",
    ),
    (
        "google_oauth_client_secret",
        _tok(lambda r: "GOC" + "SPX-" + _r(r, 28, URLSAFE)),
        "GOOGLE_CLIENT_SECRET",
        "Google Ads API OAuth",
        "client secret",
    ),
    (
        "google_oauth_refresh_token",
        _tok(lambda r: "1//0" + _r(r, 1, "123456789") + _r(r, 98, URLSAFE)),
        "GOOGLE_ADS_REFRESH_TOKEN",
        "Google Ads API",
        "refresh token",
    ),
    (
        "google_ads_developer_token",
        _tok(lambda r: _r(r, 22, URLSAFE)),
        "GOOGLE_ADS_DEVELOPER_TOKEN",
        "Google Ads",
        "developer token",
    ),
    (
        "meta_access_token",
        _tok(lambda r: "EA" + "AG" + _r(r, 180)),
        "META_ACCESS_TOKEN",
        "Meta Marketing API",
        "page access token",
    ),
    (
        "docusign_secret_key",
        _tok(_uuid),
        "DOCUSIGN_SECRET_KEY",
        "DocuSign",
        "secret key",
    ),
    (
        "rsa_private_key",
        _tok(lambda r: _pem(r, "RSA PRIVATE" + " KEY", r.randint(6, 10))),
        "DOCUSIGN_PRIVATE_KEY",
        "DocuSign JWT grant",
        "private key",
    ),
    (
        "pkcs8_private_key",
        _tok(lambda r: _pem(r, "PRIVATE" + " KEY", r.randint(5, 9))),
        "SFTP_KEY",
        "Cars.com SFTP feed",
        "private key",
    ),
    (
        "openssh_private_key",
        _tok(_openssh),
        "DEPLOY_KEY",
        "dealer-web deploy",
        "SSH private key",
    ),
    (
        "callrail_api_key",
        _tok(lambda r: _r(r, 32, HEX)),
        "CALLRAIL_API_KEY",
        "CallRail",
        "API key",
    ),
    (
        "twilio_auth_token",
        _tok(lambda r: _r(r, 32, HEX)),
        "TWILIO_AUTH_TOKEN",
        "Twilio SMS (service reminders)",
        "auth token",
    ),
    (
        "sendgrid_api_key",
        _tok(lambda r: "SG" + "." + _r(r, 22, URLSAFE) + "." + _r(r, 43, URLSAFE)),
        "SENDGRID_API_KEY",
        "SendGrid",
        "API key",
    ),
    (
        "mailgun_api_key",
        _tok(lambda r: "ke" + "y-" + _r(r, 32, HEX)),
        "MAILGUN_API_KEY",
        "Mailgun",
        "API key",
    ),
    (
        "mailchimp_api_key",
        _tok(lambda r: _r(r, 32, HEX) + "-us" + str(r.randint(2, 21))),
        "MAILCHIMP_API_KEY",
        "Mailchimp",
        "API key",
    ),
    (
        "postgres_password",
        _connurl("postgresql", 5432, "inventory"),
        "DATABASE_URL",
        "Postgres inventory DB",
        "connection string",
    ),
    (
        "mysql_password",
        _connurl("mysql", 3306, "leads"),
        "LEADS_DB_URL",
        "MySQL leads DB",
        "connection string",
    ),
    (
        "mongodb_password",
        _connurl("mongodb", 27017, "photos"),
        "MONGO_URI",
        "MongoDB photo index",
        "URI",
    ),
    ("redis_password", _connurl("redis", 6379, "0"), "REDIS_URL", "Redis cache", "URL"),
    ("mssql_password", _mssql, "CCC_SQL_CONN", "CCC ONE SQL", "connection string"),
    (
        "ftp_url_password",
        _ftpurl,
        "AUTOTRADER_FTP_URL",
        "AutoTrader FTP feed",
        "FTP URL",
    ),
    ("rtsp_camera_password", _rtsp, "CAMERA_STREAM", "lot camera NVR", "stream URL"),
    (
        "http_basic_auth",
        _basic,
        "FEED_AUTH_HEADER",
        "CarGurus feed API",
        "Authorization header",
    ),
    ("sftp_password", _tok(_pw), "CARGURUS_SFTP_PASSWORD", "CarGurus SFTP", "password"),
    ("cdk_dms_password", _tok(_pw), "CDK_PASSWORD", "CDK Drive", "password"),
    (
        "reynolds_password",
        _tok(_pw),
        "RR_ERA_PASSWORD",
        "Reynolds ERA-IGNITE",
        "password",
    ),
    (
        "dealertrack_password",
        _tok(_pw),
        "DEALERTRACK_PASSWORD",
        "Dealertrack",
        "password",
    ),
    ("routeone_password", _tok(_pw), "ROUTEONE_PASSWORD", "RouteOne", "password"),
    (
        "oem_portal_password",
        _tok(_pw),
        "OEM_PORTAL_PASSWORD",
        "Toyota dealer portal",
        "password",
    ),
    (
        "vinsolutions_api_key",
        _tok(lambda r: _r(r, 40)),
        "VINSOLUTIONS_API_KEY",
        "VinSolutions",
        "API key",
    ),
    (
        "dealersocket_api_key",
        _tok(lambda r: _r(r, 32)),
        "DEALERSOCKET_API_KEY",
        "DealerSocket",
        "API key",
    ),
    ("elead_password", _tok(_pw), "ELEAD_PASSWORD", "Elead CRM", "password"),
    (
        "carfax_api_key",
        _tok(lambda r: _r(r, 32, HEX)),
        "CARFAX_API_KEY",
        "Carfax",
        "API key",
    ),
    ("autocheck_password", _tok(_pw), "AUTOCHECK_PASSWORD", "AutoCheck", "password"),
    ("ccc_one_password", _tok(_pw), "CCC_ONE_PASSWORD", "CCC ONE", "password"),
    (
        "mitchell_password",
        _tok(_pw),
        "MITCHELL_PASSWORD",
        "Mitchell Cloud Estimating",
        "password",
    ),
    (
        "wifi_psk",
        _tok(_pw),
        "SHOWROOM_WIFI_PSK",
        "showroom staff Wi-Fi",
        "WPA2 passphrase",
    ),
    (
        "door_controller_password",
        _tok(_pw),
        "DOOR_CTRL_PASSWORD",
        "door and gate controller",
        "admin password",
    ),
    (
        "key_machine_password",
        _tok(_pw),
        "KEYCUTTER_PASSWORD",
        "key cutting machine",
        "admin password",
    ),
    (
        "ldap_bind_password",
        _tok(_pw),
        "LDAP_BIND_PASSWORD",
        "LDAP (DC01)",
        "bind password",
    ),
    (
        "npm_token",
        _tok(lambda r: "np" + "m_" + _r(r, 36)),
        "NPM_TOKEN",
        "npm registry",
        "token",
    ),
    ("pypi_token", _tok(_pypi), "PYPI_TOKEN", "PyPI", "API token"),
    (
        "openai_api_key",
        _tok(lambda r: "sk" + "-proj-" + _r(r, 74, URLSAFE) + "T3Blbk" + "FJ" + _r(r, 74, URLSAFE)),
        "OPENAI_API_KEY",
        "OpenAI (lead replies)",
        "API key",
    ),
    (
        "anthropic_api_key",
        _tok(lambda r: "sk" + "-ant-api03-" + _r(r, 93, URLSAFE) + "AA"),
        "ANTHROPIC_API_KEY",
        "Anthropic",
        "API key",
    ),
    (
        "datadog_api_key",
        _tok(lambda r: _r(r, 32, HEX)),
        "DD_API_KEY",
        "Datadog",
        "API key",
    ),
    (
        "cloudflare_api_token",
        _tok(lambda r: _r(r, 40, URLSAFE)),
        "CLOUDFLARE_API_TOKEN",
        "Cloudflare",
        "API token",
    ),
    (
        "telegram_bot_token",
        _tok(lambda r: str(r.randint(10**8, 10**10)) + ":AA" + _r(r, 33, URLSAFE)),
        "TELEGRAM_BOT_TOKEN",
        "Telegram bot",
        "bot token",
    ),
    (
        "atlassian_api_token",
        _tok(lambda r: "ATA" + "TT3xFfGF0" + _r(r, 170, URLSAFE) + "=" + _r(r, 8, HEX.upper())),
        "JIRA_API_TOKEN",
        "Jira",
        "API token",
    ),
    (
        "dockerhub_pat",
        _tok(lambda r: "dc" + "kr_pat_" + _r(r, 27, URLSAFE)),
        "DOCKERHUB_TOKEN",
        "Docker Hub",
        "access token",
    ),
    (
        "vault_token",
        _tok(lambda r: "hv" + "s." + _r(r, 24)),
        "VAULT_TOKEN",
        "HashiCorp Vault",
        "token",
    ),
    (
        "jwt_bearer_token",
        _tok(
            lambda r: _jwt(
                r,
                '{"sub":"svc-dms","iat":' + str(r.randint(1_700_000_000, 1_800_000_000)) + ',"scope":"deals:write"}',
            )
        ),
        "DMS_BEARER",
        "dealer API gateway",
        "bearer token",
    ),
    (
        "webhook_signing_secret",
        _tok(lambda r: _r(r, 64, HEX)),
        "LEAD_WEBHOOK_SECRET",
        "lead webhook",
        "HMAC secret",
    ),
    (
        "django_secret_key",
        _tok(lambda r: _r(r, 50, string.ascii_lowercase + string.digits + "!@#%^&*(-_=+)")),
        "DJANGO_SECRET_KEY",
        "dealer-web Django",
        "SECRET_KEY",
    ),
]

SITES = [
    "Northside Toyota",
    "Eastgate Ford",
    "Riverside Honda",
    "Hilltop Chevy",
    "Collision Center",
    "Westfield Kia",
]
WHO = ["maria", "dmitro", "jin", "kevin", "ana", "lukas", "priya", "tom"]
USERS = [
    "svc_dms",
    "admin",
    "feeds",
    "it.helpdesk",
    "bodyshop01",
    "jgarcia",
    "integration",
]
HOSTS = [
    "dms01.autogroup.local",
    "api.dealer-feeds.net",
    "10.20.4.11",
    "bodyshop-pc3",
    "nvr01.lot.local",
]

# templates: (text, multiline_ok)
TEMPLATES = [
    ("Note {date}: {svc} {label} for {site} is {val} (rotated by {who}).", True),
    (
        "Lesson learned: the {svc} job failed because the {label} expired. New one:\n{val}\nSet a reminder for 90 days.",
        True,
    ),
    (
        "TODO({who}): move {var}={val} out of the shared drive into Key Vault before the audit.",
        False,
    ),
    (
        "Handover for {who}:\n- {svc} admin user: {user}\n- {label}: {val}\n- escalation: dealer IT desk ext 4410",
        True,
    ),
    (
        "Ticket #{tick} - {svc} integration down at {site}.\nResolution: replaced the {label} with\n{val}\nand restarted the feed.",
        True,
    ),
    (
        "From: {who}@autogroup.com\nTo: it@autogroup.com\nSubject: {svc} access\n\nHi, here is the {label} you asked for:\n{val}\nPlease delete this email after saving it.",
        True,
    ),
    (
        "[{time}] {who}: anyone have the {svc} {label}?\n[{time}] {who2}: {val}\n[{time}] {who}: thx, works",
        True,
    ),
    (
        "Runbook: restart {svc} sync\n1. ssh {user}@{host}\n2. export {var}='{val}'\n3. sudo systemctl restart dealer-sync",
        False,
    ),
    (
        "Nota: la credencial de {svc} ({label}) para la sucursal {site} es {val}. No la compartas por WhatsApp.",
        True,
    ),
    ("메모: {svc} {label} = {val} ({site} 매장용, {who} 님이 교체함)", True),
    (
        "Hinweis: Zugangsdaten für {svc} ({site}): {label} lautet {val}. Bitte nicht weitergeben.",
        True,
    ),
    (
        "Lembrete: o {label} do {svc} da loja {site} é {val}. Trocar no próximo trimestre.",
        True,
    ),
    ("Нотатка: {label} для {svc} ({site}) — {val}. Не пересилати клієнтам.", True),
    ("# {svc}\n{var}={val}\nREGION=us-east\nDEALER_ID={tick}\n", False),
    (
        '{{"service": "{slug}", "user": "{user}", "{jkey}": "{val}", "timeout": 30}}',
        False,
    ),
    (
        '{slug}:\n  host: {host}\n  username: {user}\n  {jkey}: "{val}"\n  retries: 3\n',
        False,
    ),
    ("[{slug}]\nhost = {host}\nuser = {user}\n{jkey} = {val}\n", False),
    (
        '<configuration>\n  <appSettings>\n    <add key="{var}" value="{val}" />\n  </appSettings>\n</configuration>',
        False,
    ),
    (
        "# Microsoft.PowerShell_profile.ps1 ({who})\n$env:{var} = '{val}'\nImport-Module DealerTools",
        False,
    ),
    (
        "$ export {var}={val}\n$ ./sync_inventory.sh --dealer {tick}\n[ok] 412 vehicles pushed ({svc})",
        False,
    ),
    (
        "* Connected to {host} port 443\n> POST /api/v1/leads HTTP/1.1\n> Host: {host}\n> {hdr} {val}\n> Content-Type: application/json\n>\n< HTTP/1.1 201 Created",
        False,
    ),
    (
        "2026-11-{day} 08:14:03 WARN {slug}.client auth retry {jkey}={val} host={host} attempt=2",
        False,
    ),
    (
        "Run ./deploy.sh production\n  env:\n    {var}: {val}\n##[warning] value was not registered as a secret",
        False,
    ),
    (
        "dms=> SELECT name, value FROM integration_settings WHERE name = '{var}';\n name | value\n------+------\n {var} | {val}\n(1 row)",
        False,
    ),
    (
        "$ curl -sv -u {user}:{val} https://{host}/api/v2/inventory/export\n* Trying {host}:443...\n< HTTP/2 200\n< content-type: text/csv",
        False,
    ),
    (
        "Decision ({date}): keep {svc} on the shared service account {user}; {label} stays {val} until the DMS migration.",
        True,
    ),
]


def _ctx(rng, kind, val):
    k, _g, var, svc, label = kind
    return {
        "val": val,
        "hdr": "X-Password:" if "pass" in label else ("Authorization: Bearer" if "token" in label else "X-Api-Key:"),
        "var": var,
        "svc": svc,
        "label": label,
        "slug": k.split("_")[0] + "_" + str(rng.randint(1, 9)),
        "jkey": rng.choice(["password", "secret", "api_key", "token", "key"]) if "password" not in k else "password",
        "site": rng.choice(SITES),
        "who": rng.choice(WHO),
        "who2": rng.choice(WHO),
        "user": rng.choice(USERS),
        "host": rng.choice(HOSTS),
        "tick": rng.randint(1000, 99999),
        "day": rng.randint(10, 30),
        "date": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "time": f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}",
    }


def _positives(rng, seen):
    out = []
    for kind in KINDS:
        n = 0
        tries = 0
        while n < PER_KIND:
            tries += 1
            val, sec = kind[1](rng)
            ml = "\n" in val
            opts = [t for t, ok in TEMPLATES if ok or not ml]
            t = opts[(n + tries) % len(opts)] if tries < 200 else rng.choice(opts)
            text = t.format(**_ctx(rng, kind, val))
            if text in seen or sec not in text:
                continue
            seen.add(text)
            out.append((text, kind[0], sec))
            n += 1
    return out


# ---------------------------------------------------------------- look-alikes


def _vin(rng):
    return _r(rng, 17, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789")


def _sha(n):
    return lambda r: _r(r, n, HEX)


LOOK_VALUES = [
    # (label, value fn)
    ("sha256 of the DMS export", _sha(64)),
    ("git commit of the deployed dealer-web", _sha(40)),
    ("md5 checksum of the CarGurus feed file", _sha(32)),
    ("X-Request-Id from the Dealertrack error", _uuid),
    ("DocuSign envelope id", _uuid),
    ("DocuSign integration key (client id, public)", _uuid),
    ("Azure tenant id", _uuid),
    ("Azure subscription id", _uuid),
    ("Azure app (client) id", _uuid),
    ("VIN of the loaner", _vin),
    ("Stripe publishable key", lambda r: "pk" + "_live_" + _r(r, 99)),
    ("Stripe PaymentIntent id", lambda r: "pi_" + _r(r, 24)),
    (
        "Square location id",
        lambda r: "L" + _r(r, 12, string.ascii_uppercase + string.digits),
    ),
    (
        "Google OAuth client id",
        lambda r: f"{r.randint(10**11, 10**12)}-{_r(r, 32, LOW)}.apps.googleusercontent.com",
    ),
    (
        "Firebase web apiKey (public, restricted by referrer)",
        lambda r: "AI" + "za" + _r(r, 35, URLSAFE),
    ),
    (
        "Sentry DSN",
        lambda r: f"https://{_r(r, 32, HEX)}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/{r.randint(10**6, 10**7)}",
    ),
    ("reCAPTCHA site key", lambda r: "6L" + _r(r, 38, URLSAFE)),
    ("Algolia search-only key", _sha(32)),
    ("Twilio Account SID", lambda r: "AC" + _r(r, 32, HEX)),
    (
        "Google Ads customer id",
        lambda r: f"{r.randint(100, 999)}-{r.randint(100, 999)}-{r.randint(1000, 9999)}",
    ),
    ("Meta pixel id", lambda r: str(r.randint(10**14, 10**16))),
    (
        "GA4 measurement id",
        lambda r: "G-" + _r(r, 10, string.ascii_uppercase + string.digits),
    ),
    ("CallRail company id", lambda r: "COM" + _r(r, 32, HEX)),
    (
        "placeholder",
        lambda r: r.choice(
            [
                "<your-api-key>",
                "<PASSWORD>",
                "changeme",
                "xxxxxxxxxxxxxxxx",
                "********",
                "REPLACE_ME",
                "your-secret-here",
                "[REDACTED]",
            ]
        ),
    ),
    (
        "env reference",
        lambda r: (
            "${"
            + r.choice(
                [
                    "STRIPE_SECRET_KEY",
                    "CDK_PASSWORD",
                    "ROUTEONE_PASSWORD",
                    "SFTP_PASSWORD",
                    "AZURE_CLIENT_SECRET",
                ]
            )
            + "}"
        ),
    ),
    (
        "GitHub Actions secret reference",
        lambda r: (
            "${{ secrets."
            + r.choice(
                [
                    "CARGURUS_SFTP_PASSWORD",
                    "DOCUSIGN_PRIVATE_KEY",
                    "CALLRAIL_API_KEY",
                    "META_TOKEN",
                ]
            )
            + " }}"
        ),
    ),
    (
        "Airflow variable lookup",
        lambda r: f'Variable.get("{r.choice(["carfax_api_key", "dms_password", "autotrader_ftp_pw"])}")',
    ),
    (
        "Databricks secret lookup",
        lambda r: (
            f'dbutils.secrets.get(scope="{r.choice(["dealer", "bodyshop"])}", key="{r.choice(["cdk-pass", "stripe-sk", "mitchell"])}")'
        ),
    ),
    (
        "Vault path",
        lambda r: (
            f"secret/data/{r.choice(['dms', 'crm', 'feeds', 'bodyshop'])}/{r.choice(['cdk', 'elead', 'carfax', 'ccc'])}#password"
        ),
    ),
    (
        "Key Vault reference",
        lambda r: (
            f"@Microsoft.KeyVault(SecretUri=https://kv-autogroup.vault.azure.net/secrets/{r.choice(['routeone-pw', 'authnet-key', 'smtp'])}/{_r(r, 32, HEX)})"
        ),
    ),
    (
        "Ansible vault blob",
        lambda r: "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(_r(r, 80, "0123456789") for _ in range(3)),
    ),
    (
        "sops value",
        lambda r: f"ENC[AES256_GCM,data:{_b64len(r, 18)},iv:{_b64len(r, 24)},tag:{_b64len(r, 12)},type:str]",
    ),
    ("bcrypt hash", lambda r: "$2b$12$" + _r(r, 53, AL + "./")),
    (
        "argon2 hash",
        lambda r: f"$argon2id$v=19$m=65536,t=3,p=4${_b64len(r, 16).rstrip('=')}${_b64len(r, 32).rstrip('=')}",
    ),
    (
        "Django password hash",
        lambda r: f"pbkdf2_sha256$600000${_r(r, 22)}${_b64len(r, 32)}",
    ),
    ("SSH host key fingerprint", lambda r: "SHA256:" + _b64len(r, 32).rstrip("=")),
    ("certificate thumbprint", lambda r: _r(r, 40, HEX.upper())),
    (
        "public SSH key",
        lambda r: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _r(r, 43, B64) + " " + r.choice(WHO) + "@bodyshop-pc",
    ),
    ("public certificate", lambda r: _pem(r, "CERTIFICATE", r.randint(4, 8))),
    ("image digest", lambda r: "sha256:" + _r(r, 64, HEX)),
    ("npm integrity", lambda r: "sha512-" + _b64len(r, 64)),
    (
        "base64 thumbnail",
        lambda r: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + _r(r, 120, B64),
    ),
    (
        "model id",
        lambda r: (
            r.choice(
                [
                    "meta-llama/Llama-3.1-8B-Instruct",
                    "sentence-transformers/all-MiniLM-L6-v2",
                    "openai/whisper-small",
                    "BAAI/bge-base-en-v1.5",
                ]
            )
            + "@"
            + _r(r, 40, HEX)
        ),
    ),
    ("W&B run id", lambda r: _r(r, 8, LOW)),
    ("GPG key id", lambda r: _r(r, 16, HEX.upper())),
    (
        "KMS key ARN",
        lambda r: f"arn:aws:kms:us-east-1:{r.randint(10**11, 10**12)}:key/{_uuid(r)}",
    ),
    ("masked key", lambda r: "sk" + "_live_" + "*" * r.randint(8, 20) + _r(r, 4)),
    ("RO number", lambda r: f"RO-{r.randint(100000, 999999)}"),
    (
        "CCC claim number",
        lambda r: f"{r.randint(10, 99)}-{_r(r, 6, string.digits)}-{r.randint(10, 99)}",
    ),
    (
        "Stripe-Signature header of a received event",
        lambda r: f"t={r.randint(1_700_000_000, 1_800_000_000)},v1={_r(r, 64, HEX)}",
    ),
    ("ETag", lambda r: '"' + _r(r, 32, HEX) + '"'),
    (
        "age public key",
        lambda r: "age1" + _r(r, 58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"),
    ),
    (
        "notebook cell",
        lambda r: f'"execution_count": {r.randint(1, 400)}, "id": "{_r(r, 8, HEX)}"',
    ),
    (
        "Slack channel id",
        lambda r: "C0" + _r(r, 9, string.ascii_uppercase + string.digits),
    ),
    (
        "password policy",
        lambda r: (
            f"min {r.randint(12, 16)} chars, rotate every {r.choice([60, 90, 180])} days, no reuse of last {r.randint(5, 24)}"
        ),
    ),
]

LOOK_FRAMES = [
    [
        "Note: {label} is {v} (saved for the vendor call).",
        "Handover to {who}: {label} for {site} -> {v}; ask IT for the rest.",
        "Hinweis ({site}): {label} lautet {v}",
        "Lembrete: {label} da loja {site}: {v}",
        "Нотатка: {label} ({site}) = {v}",
        "[{mm}:02] {who}: what's the {label}?\n[{mm}:03] dana: {v}",
        "FYI {who}: {label} for {site} = {v}",
        "Ticket #{tick}: logged {label} {v} for the vendor.",
        "메모: {site} {label}: {v}",
        "Nota ({site}): {label} -> {v}",
    ],
    [
        "2026-11-{day} 09:{mm}:12 INFO sync {key}={v} site={tick}",
        "{key}: {v}\nregion: us-east\n",
        '{{"{key}": "{v}", "dealer": {tick}}}',
        "$ dealerctl show {key}\n{v}\n(exit 0)",
        "[feed]\n{key} = {v}\n",
    ],
]


def _make_look(label, fn, frames):
    def gen(rng):
        key = "_".join(label.split()[:2]).lower().replace("(", "").replace(")", "").replace("-", "_")
        return rng.choice(frames).format(
            label=label,
            v=fn(rng),
            who=rng.choice(WHO),
            site=rng.choice(SITES),
            tick=rng.randint(1000, 99999),
            day=rng.randint(10, 30),
            mm=f"{rng.randint(0, 59):02d}",
            key=key,
        )

    gen.__name__ = "look_" + label.split()[0].lower()
    return gen


_LOOK = [_make_look(lab, fn, fr) for lab, fn in LOOK_VALUES for fr in LOOK_FRAMES]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    rng = random.Random(seed)
    seen: set[str] = set()
    positives = _positives(rng, seen)
    looks: list[str] = []
    for g in _LOOK:
        got = 0
        while got < LOOK_PER_GEN:
            t = g(rng)
            if t in seen:
                continue
            seen.add(t)
            looks.append(t)
            got += 1
    return positives, looks
