"""Labelled test set AC for a secret detector: memories of an IT volunteer.

Theme
-----
Texts an AI coding agent saves as "memories" while helping an IT volunteer who supports
a community clinic (EHR portals, FHIR/HL7, Mirth Connect, PACS, e-prescribing, fax-to-email,
SMS reminders, Microsoft 365 / Entra ID / Intune, BitLocker, printers, Wi-Fi, UniFi, Meraki,
Fortinet), a food-bank nonprofit (Salesforce, Donorbox/Stripe, Square, PayPal, Mailchimp,
Airtable, Zapier, WordPress/WooCommerce, Cloudflare, Wix, SendGrid, Slack) and a two-person
accounting practice (QuickBooks Online, Xero, Plaid, Dropbox, Box, Backblaze, Azure storage,
IRS e-Services, PGP, password managers, RDP, TeamViewer, AnyDesk, Synology, Veeam).
Styles: notes, lessons, runbooks, TODOs, handovers, emails, chat (English plus Spanish,
Tagalog, Haitian Creole, Somali, Farsi, Portuguese, Korean), config files (.env, INI, XML,
JSON, YAML, PowerShell, batch, registry exports, printer exports, Mirth channel XML,
wp-config.php) and tool output (PowerShell, manage-bde, netsh, event logs, CLI, HTTP dumps).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of
  ``text`` (no surrounding quotes or whitespace); each text holds exactly one secret;
  every kind has exactly 30 positives.
* ``lookalikes``: texts with no credential at all; ``_LOOK`` is a list of generator
  functions, each called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (``random.Random`` seeded from ``seed`` only); no duplicate
  texts across positives and look-alikes.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs:
  the password only. Pre-signed URLs (S3-style, Azure SAS): the signature only.
  PEM / OpenSSH / PGP private keys: the whole armoured block, BEGIN line to END line.
* UUID-shaped vendor tokens (Postmark server token, Plaid access token) are secrets only
  because the text names them as a token.
* Public-by-design values are look-alikes: publishable keys, anon keys, captcha site keys,
  Sentry DSNs, OAuth client ids, Firebase web apiKeys, search-only keys, public
  certificates/keys. Vendor documentation example values, encrypted blobs (Ansible vault,
  sops ENC[...], DPAPI blobs, PGP messages) and password hashes are look-alikes.
* Bare AWS access key ids are left out entirely (neither positive nor look-alike).
* No token-shaped literal appears in this source: prefixes are split and bodies are random.
"""

from __future__ import annotations

import base64
import random
import string
import uuid

LOOK_PER_GEN = 12
PER_KIND = 30

_LO = string.ascii_lowercase
_UP = string.ascii_uppercase
_DIG = string.digits
_HEX = "0123456789abcdef"
_HEXU = "0123456789ABCDEF"
_AN = _LO + _UP + _DIG
_B64U = _AN + "-_"
_B64 = _AN + "+/"
_B32 = _UP + "234567"


def _r(rng: random.Random, alpha: str, n: int) -> str:
    return "".join(rng.choice(alpha) for _ in range(n))


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _b64(rng: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(rng.getrandbits(8) for _ in range(nbytes))).decode()


def _b64u(rng: random.Random, nbytes: int) -> str:
    raw = bytes(rng.getrandbits(8) for _ in range(nbytes))
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


_WORDS = [
    "tulip",
    "rover",
    "maple",
    "harbor",
    "cactus",
    "lantern",
    "pepper",
    "falcon",
    "violet",
    "granite",
    "mango",
    "otter",
    "saffron",
    "willow",
    "cobalt",
    "juniper",
    "pebble",
    "quartz",
    "sparrow",
    "thistle",
    "bramble",
    "copper",
    "meadow",
    "nutmeg",
    "orchid",
    "river",
    "summit",
    "tundra",
    "walnut",
    "zephyr",
    "biscuit",
    "clover",
    "dahlia",
    "ember",
    "fjord",
    "gecko",
    "hazel",
    "indigo",
    "jasper",
    "kiwi",
    "lilac",
    "marble",
    "nectar",
    "olive",
    "poppy",
    "quill",
    "raven",
    "sierra",
    "topaz",
    "mesa",
    "cinder",
]
_SEASONS = [
    "Spring",
    "Summer",
    "Autumn",
    "Winter",
    "January",
    "March",
    "October",
    "December",
    "Clinic",
    "Harvest",
]


def _pw(rng: random.Random, url_safe: bool = False) -> str:
    sym = "!-_.*~" if url_safe else "!-_.*$?@%#+="
    style = rng.randrange(6)
    if style == 0:
        return f"{rng.choice(_SEASONS)}{rng.randint(2019, 2027)}{rng.choice(sym)}{rng.randint(1, 99)}"
    if style == 1:
        a, b = rng.sample(_WORDS, 2)
        return f"{a}-{b.capitalize()}-{rng.randint(10, 99)}"
    if style == 2:
        return _r(rng, _AN, rng.randint(6, 10)) + rng.choice(sym) + _r(rng, _AN, rng.randint(6, 10))
    if style == 3:
        ws = rng.sample(_WORDS, 4)
        return rng.choice("-.").join(ws) + str(rng.randint(1, 9))
    if style == 4:
        w = rng.choice(_WORDS).capitalize()
        w = w.replace("a", "@") if not url_safe else w.replace("o", "0")
        return f"{w}{rng.choice(sym)}{rng.choice(_WORDS).capitalize()}{rng.randint(1, 999)}"
    return _r(rng, _UP, 2) + _r(rng, _LO, 4) + _r(rng, _DIG, 4) + rng.choice(sym) + _r(rng, _AN, 5)


_ORGS = [
    "Eastside Community Clinic",
    "Harvest Table Food Bank",
    "Reyes & Okafor CPA",
    "the clinic",
    "the food bank",
    "the accounting office",
]
_PEOPLE = [
    "Maria",
    "Dani",
    "Joseph",
    "Amina",
    "Farhad",
    "Ji-woo",
    "Luz",
    "Kwame",
    "Priya",
    "Tomas",
    "Nadia",
    "Rosa",
    "Hodan",
    "Paulo",
    "Ines",
    "Marc",
]
_HOSTS = [
    "ehr.eastsideclinic.org",
    "mirth01.clinic.local",
    "pacs.clinic.local",
    "fs01.reyesokafor.local",
    "nas.harvesttable.org",
    "dc01.clinic.local",
    "wp.harvesttable.org",
    "10.20.0.15",
    "192.168.1.40",
    "rdp.reyesokafor.com",
]
_APPS = [
    "reminder script",
    "donor sync",
    "backup job",
    "Zapier zap",
    "scanner profile",
    "intake form",
    "month-end export",
    "Power Automate flow",
]


def _date(rng: random.Random) -> str:
    return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


# ----------------------------------------------------------------------------- kinds
def _tok(fn):
    return lambda r: {"s": fn(r)}


def _slack_webhook(r):
    s = _r(r, _AN, 24)
    url = "https://hooks." + "slack.com/services/T" + _r(r, _UP + _DIG, 10) + "/B" + _r(r, _UP + _DIG, 10)
    return {"s": s, "v": url + "/" + s}


def _zapier_webhook(r):
    s = _r(r, _LO + _DIG, 7)
    return {
        "s": s,
        "v": f"https://hooks.zapier.com/hooks/catch/{r.randint(1000000, 99999999)}/{s}/",
    }


def _teams_webhook(r):
    s = _r(r, _HEX, 32)
    g1, g2 = _uuid(r), _uuid(r)
    url = f"https://clinic.webhook.office.com/webhookb2/{g1}@{g2}/IncomingWebhook/{s}"
    return {"s": s, "v": url}


def _bitlocker(r):
    s = "-".join(f"{11 * r.randint(0, 65535):06d}" for _ in range(8))
    return {"s": s, "pid": "{" + _uuid(r).upper() + "}"}


def _pgsql(r):
    s = _pw(r, True)
    return {
        "s": s,
        "v": f"postgresql://mirth:{s}@{r.choice(['db01', 'mirthdb', '10.20.0.31'])}:5432/mirthdb",
    }


def _mysql(r):
    s = _pw(r, True)
    return {"s": s, "v": f"mysql://wp_{_r(r, _LO, 4)}:{s}@localhost:3306/wordpress"}


def _mssql(r):
    s = _pw(r)
    srv = r.choice(["SQL01\\SQLEXPRESS", "fs01.reyesokafor.local", "10.20.0.12,1433"])
    return {
        "s": s,
        "v": f"Server={srv};Database=Practice;User Id=sa;Password={s};TrustServerCertificate=True;",
    }


def _pacs(r):
    s = _pw(r, True)
    return {"s": s, "v": f"http://orthanc:{s}@pacs.clinic.local:8042/studies"}


def _smtp(r):
    s = _pw(r, True)
    user = r.choice(["scanner", "fax", "mfp-frontdesk", "noreply"])
    return {
        "s": s,
        "v": f"smtp://{user}%40eastsideclinic.org:{s}@smtp.office365.com:587",
    }


def _azure_conn(r):
    s = _b64(r, 64)
    acct = r.choice(["clinicbackups", "rocpaarchive", "harvestfiles"]) + str(r.randint(1, 99))
    return {
        "s": s,
        "v": f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={s};EndpointSuffix=core.windows.net",
    }


def _azure_sas(r):
    sig = _b64(r, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = r.choice(["clinicbackups", "rocpaarchive"])
    url = (
        f"https://{acct}.blob.core.windows.net/veeam/{_date(r)}.vbk?sv=2022-11-02&ss=b&srt=o&sp=r"
        f"&se=2026-12-{r.randint(10, 28)}T23:00:00Z&st=2026-12-01T00:00:00Z&spr=https&sig={sig}"
    )
    return {"s": sig, "v": url}


def _b2_presigned(r):
    sig = _r(r, _HEX, 64)
    kid = "005" + _r(r, _HEX, 22)
    url = (
        f"https://s3.us-west-004.backblazeb2.com/roc-client-files/{r.randint(1000, 9999)}-return.pdf"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={kid}%2F20261204%2Fus-west-004%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20261204T{r.randint(10, 23)}{r.randint(0, 59):02d}{r.randint(0, 59):02d}Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host"
        f"&X-Amz-Signature={sig}"
    )
    return {"s": sig, "v": url}


def _jwt(r, claims: str) -> str:
    h = base64.urlsafe_b64encode(b'{"alg":"RS256","typ":"JWT"}').decode().rstrip("=")
    p = base64.urlsafe_b64encode(claims.encode()).decode().rstrip("=")
    return h + "." + p + "." + _b64u(r, 256)


def _fhir_jwt(r):
    claims = (
        '{"iss":"https://fhir.ehrvendor.com/oauth2","sub":"'
        + _r(r, _DIG, 8)
        + '","scope":"system/Patient.read system/Appointment.read","exp":'
        + str(1796000000 + r.randint(0, 9999999))
        + "}"
    )
    return {"s": _jwt(r, claims)}


def _wix(r):
    claims = (
        '{"data":"{\\"id\\":\\"'
        + _uuid(r)
        + '\\",\\"identity\\":{\\"type\\":\\"application\\"}}","iat":'
        + str(1760000000 + r.randint(0, 9999999))
        + "}"
    )
    return {"s": "IS" + "T." + _jwt(r, claims)}


def _pem(r, label: str, nbytes: int, extra: str = "") -> str:
    body = _b64(r, nbytes)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    head = "-----BEGIN " + label + "-----"
    tail = "-----END " + label + "-----"
    return "\n".join([head] + ([extra] if extra else []) + lines + [tail])


def _rsa_key(r):
    return {"s": _pem(r, "RSA " + "PRIVATE KEY", r.choice([1190, 1218, 1192]))}


def _ssh_key(r):
    body = "b3BlbnNzaC1rZXktdjEA" + "AAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" + _b64(r, 280)
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    s = "\n".join(["-----BEGIN OPENSSH " + "PRIVATE KEY-----", *lines, "-----END OPENSSH " + "PRIVATE KEY-----"])
    return {"s": s}


def _pgp_key(r):
    body = "lQdGBG" + _b64(r, 900)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    lab = "PGP " + "PRIVATE KEY BLOCK"
    s = "\n".join(
        [
            "-----BEGIN " + lab + "-----",
            "",
            *lines,
            "=" + _r(r, _B64, 4),
            "-----END " + lab + "-----",
        ]
    )
    return {"s": s}


def _ops(r):
    payload = '{"signInAddress":"reyesokafor.1password.com","userAuth":{"method":"SRPg-4096","alg":"PBES2g-HS256"'
    payload += (
        ',"iterations":650000,"salt":"'
        + _b64u(r, 16)
        + '"},"email":"'
        + _r(r, _LO, 12)
        + '@1passwordserviceaccounts.com"'
    )
    payload += ',"srpX":"' + _r(r, _HEX, 64) + '","muk":{"alg":"A256GCM","ext":true,"k":"' + _b64u(r, 32) + '"}}'
    return {"s": "op" + "s_" + base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")}


def _totp(r):
    s = _r(r, _B32, 32)
    user = r.choice(["dr.lee", "np.garcia", "frontdesk", "dr.osei"])
    return {"s": s, "v": f"otpauth://totp/EPCS:{user}?secret={s}&issuer=EPCS&digits=6"}


def _app_pw(r):
    return {"s": " ".join(_r(r, _LO, 4) for _ in range(4))}


def _wp_app_pw(r):
    return {"s": " ".join(_r(r, _AN, 4) for _ in range(6))}


def _net_use(r):
    s = _pw(r)
    share = r.choice(
        [
            "\\\\fs01\\Clients",
            "\\\\nas01\\Scans",
            "\\\\dc01\\NETLOGON",
            "\\\\synology\\Veeam",
        ]
    )
    return {
        "s": s,
        "v": f"net use Z: {share} /user:ROCPA\\svc_scan {s} /persistent:yes",
    }


_K = []  # (kind, cats, gen, desc, var, key, hdr, extras)


def _kind(kind, cats, gen, desc, var, key, hdr="", extras=()):
    _K.append((kind, cats, gen, desc, var, key, hdr, list(extras)))


def _P(r):
    return {"s": _pw(r)}


# --- SMS / comms
_kind(
    "twilio_auth_token",
    "tok",
    _tok(lambda r: _r(r, _HEX, 32)),
    "Twilio auth token",
    "TWILIO_AUTH_TOKEN",
    "auth_token",
    extras=["Twilio console > Account info (SID AC{sid}):\n  Auth Token: {v}\nreminder texts use +1555{n4}{n3}"],
)
_kind(
    "vonage_api_secret",
    "tok",
    _tok(lambda r: _r(r, _AN, 16)),
    "Vonage API secret",
    "VONAGE_API_SECRET",
    "api_secret",
)
_kind(
    "plivo_auth_token",
    "tok",
    _tok(lambda r: _r(r, _AN, 40)),
    "Plivo auth token",
    "PLIVO_AUTH_TOKEN",
    "auth_token",
)
_kind(
    "sendgrid_api_key",
    "tok",
    _tok(lambda r: "S" + "G." + _r(r, _B64U, 22) + "." + _r(r, _B64U, 43)),
    "SendGrid API key",
    "SENDGRID_API_KEY",
    "api_key",
    "Authorization: Bearer",
)
_kind(
    "mailchimp_api_key",
    "tok",
    _tok(lambda r: _r(r, _HEX, 32) + "-us" + str(r.randint(1, 21))),
    "Mailchimp API key",
    "MAILCHIMP_API_KEY",
    "apikey",
)
_kind(
    "mailgun_api_key",
    "tok",
    _tok(lambda r: _r(r, _HEX, 32) + "-" + _r(r, _HEX, 8) + "-" + _r(r, _HEX, 8)),
    "Mailgun API key",
    "MAILGUN_API_KEY",
    "api_key",
)
_kind(
    "postmark_server_token",
    "tok",
    _tok(_uuid),
    "Postmark server token",
    "POSTMARK_SERVER_TOKEN",
    "server_token",
    "X-Postmark-Server-Token:",
)
_kind(
    "slack_bot_token",
    "tok",
    _tok(lambda r: "xo" + "xb-" + _r(r, _DIG, 12) + "-" + _r(r, _DIG, 13) + "-" + _r(r, _AN, 24)),
    "Slack bot token",
    "SLACK_BOT_TOKEN",
    "bot_token",
    "Authorization: Bearer",
)
_kind(
    "slack_webhook_url",
    "url",
    _slack_webhook,
    "Slack incoming webhook",
    "SLACK_WEBHOOK_URL",
    "webhook_url",
)
_kind(
    "teams_webhook_url",
    "url",
    _teams_webhook,
    "Teams incoming webhook",
    "TEAMS_WEBHOOK_URL",
    "webhook_url",
)
_kind(
    "zapier_webhook_url",
    "url",
    _zapier_webhook,
    "Zapier catch hook",
    "ZAPIER_HOOK_URL",
    "hook_url",
)
# --- payments / donors
_kind(
    "stripe_secret_key",
    "tok",
    _tok(lambda r: "sk" + "_live_" + _r(r, _AN, r.choice([24, 99]))),
    "Stripe secret key (Donorbox account)",
    "STRIPE_SECRET_KEY",
    "secret_key",
    "Authorization: Bearer",
)
_kind(
    "square_access_token",
    "tok",
    _tok(lambda r: "EA" + "AA" + _r(r, _B64U, 60)),
    "Square access token",
    "SQUARE_ACCESS_TOKEN",
    "access_token",
    "Authorization: Bearer",
)
_kind(
    "square_application_secret",
    "tok",
    _tok(lambda r: "sq0" + "csp-" + _r(r, _B64U, 43)),
    "Square OAuth application secret",
    "SQUARE_APP_SECRET",
    "application_secret",
)
_kind(
    "paypal_client_secret",
    "tok",
    _tok(lambda r: "E" + _r(r, _B64U, 79)),
    "PayPal REST client secret",
    "PAYPAL_CLIENT_SECRET",
    "client_secret",
)
_kind(
    "salesforce_security_token",
    "tok",
    _tok(lambda r: _r(r, _AN, 25)),
    "Salesforce security token",
    "SF_SECURITY_TOKEN",
    "security_token",
)
_kind(
    "salesforce_refresh_token",
    "tok",
    _tok(lambda r: "5Aep861" + _r(r, _AN + "._", 80)),
    "Salesforce refresh token",
    "SF_REFRESH_TOKEN",
    "refresh_token",
)
_kind(
    "airtable_pat",
    "tok",
    _tok(lambda r: "pa" + "t" + _r(r, _AN, 14) + "." + _r(r, _HEX, 64)),
    "Airtable personal access token",
    "AIRTABLE_TOKEN",
    "token",
    "Authorization: Bearer",
)
_kind(
    "wix_api_key",
    "tok",
    _wix,
    "Wix API key",
    "WIX_API_KEY",
    "api_key",
    "Authorization:",
)
_kind(
    "recaptcha_secret_key",
    "tok",
    _tok(lambda r: "6L" + _r(r, _B64U, 38)),
    "reCAPTCHA secret key",
    "RECAPTCHA_SECRET_KEY",
    "secret",
)
# --- web
_kind(
    "wordpress_db_password",
    "pw",
    _P,
    "WordPress DB_PASSWORD",
    "WORDPRESS_DB_PASSWORD",
    "db_password",
    extras=[
        (
            "/** MySQL database password */\ndefine( 'DB_USER', 'wp_harvest' );\ndefine( 'DB_PASSWORD', '{v}' );\n"
            "define( 'DB_HOST', 'localhost' );"
        )
    ],
)
_kind(
    "wordpress_application_password",
    "pw",
    _wp_app_pw,
    "WordPress application password",
    "WP_APP_PASSWORD",
    "application_password",
    extras=[
        (
            'WP Admin > Users > volunteer-bot > Application Passwords > New: "zapier"\n{v}\n'
            "(shown once - use with Basic auth user volunteer-bot)"
        )
    ],
)
_kind(
    "woocommerce_consumer_secret",
    "tok",
    _tok(lambda r: "c" + "s_" + _r(r, _HEX, 40)),
    "WooCommerce REST consumer secret",
    "WC_CONSUMER_SECRET",
    "consumer_secret",
)
_kind(
    "mysql_url_password",
    "url",
    _mysql,
    "WordPress database URL",
    "DATABASE_URL",
    "database_url",
)
_kind(
    "cloudflare_api_token",
    "tok",
    _tok(lambda r: _r(r, _B64U, 40)),
    "Cloudflare API token (DNS edit)",
    "CLOUDFLARE_API_TOKEN",
    "api_token",
    "Authorization: Bearer",
)
_kind(
    "cloudflare_global_api_key",
    "tok",
    _tok(lambda r: _r(r, _HEX, 37)),
    "Cloudflare global API key",
    "CF_API_KEY",
    "global_api_key",
    "X-Auth-Key:",
)
_kind(
    "github_pat",
    "tok",
    _tok(lambda r: "gh" + "p_" + _r(r, _AN, 36)),
    "GitHub personal access token",
    "GITHUB_TOKEN",
    "token",
    "Authorization: token",
)
# --- Microsoft / Google
_kind(
    "entra_client_secret",
    "tok",
    _tok(lambda r: _r(r, _AN, 3) + str(r.randint(0, 9)) + "Q" + "~" + _r(r, _AN + "_~.-", 34)),
    "Entra ID app registration client secret",
    "AZURE_CLIENT_SECRET",
    "client_secret",
)
_kind(
    "m365_user_password",
    "pw",
    _P,
    "Microsoft 365 password for frontdesk@",
    "M365_PASSWORD",
    "password",
)
_kind(
    "google_oauth_client_secret",
    "tok",
    _tok(lambda r: "GOC" + "SPX-" + _r(r, _B64U, 28)),
    "Google OAuth client secret",
    "GOOGLE_CLIENT_SECRET",
    "client_secret",
)
_kind(
    "google_app_password",
    "pw",
    _app_pw,
    "Google Workspace app password for the scanner",
    "GMAIL_APP_PASSWORD",
    "app_password",
)
_kind(
    "azure_storage_account_key",
    "url",
    _azure_conn,
    "Azure storage connection string",
    "AZURE_STORAGE_CONNECTION_STRING",
    "connection_string",
)
_kind(
    "azure_sas_signature",
    "url",
    _azure_sas,
    "SAS link for the Veeam export",
    "BACKUP_SAS_URL",
    "sas_url",
)
_kind(
    "bitlocker_recovery_key",
    "pw",
    _bitlocker,
    "BitLocker recovery key",
    "BITLOCKER_RECOVERY",
    "recovery_key",
    extras=[
        (
            "PS C:\\> manage-bde -protectors -get C:\n\nVolume C: [OS]\nAll Key Protectors\n\n    Numerical Password:\n"
            "      ID: {pid}\n      Password:\n        {v}\n"
        ),
        "BitLocker recovery for {p}'s laptop (Key ID {pid8}): {v}",
    ],
)
_kind(
    "windows_autologon_password",
    "pw",
    _P,
    "kiosk autologon password",
    "AUTOLOGON_PASSWORD",
    "DefaultPassword",
    extras=[
        (
            "Windows Registry Editor Version 5.00\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]\n"
            '"AutoAdminLogon"="1"\n"DefaultUserName"="kiosk"\n"DefaultPassword"="{v}"'
        )
    ],
)
_kind(
    "windows_local_admin_password",
    "pw",
    _P,
    "local admin password (LAPS fallback)",
    "LOCAL_ADMIN_PW",
    "password",
    extras=[
        "PS> net user clinicadmin {v} /add\nThe command completed successfully.\nPS> net localgroup Administrators clinicadmin /add"
    ],
)
_kind(
    "rdp_password",
    "pw",
    _P,
    "RDP password for the file server",
    "RDP_PASSWORD",
    "password",
    extras=["cmdkey /generic:TERMSRV/rdp.reyesokafor.com /user:ROCPA\\admin /pass:{v}\nmstsc /v:rdp.reyesokafor.com"],
)
_kind(
    "smb_share_password",
    "url",
    _net_use,
    "scan-to-folder share login",
    "SCAN_SHARE_PASSWORD",
    "share_cmd",
)
_kind(
    "ldap_bind_password",
    "pw",
    _P,
    "LDAP bind password for the copier address book",
    "LDAP_BIND_PASSWORD",
    "bind_password",
)
_kind(
    "pfx_password",
    "pw",
    _P,
    "PFX export password for the code-signing cert",
    "PFX_PASSWORD",
    "pfx_password",
    extras=[
        (
            "PS> $pw = ConvertTo-SecureString -String '{v}' -Force -AsPlainText\n"
            "PS> Export-PfxCertificate -Cert Cert:\\LocalMachine\\My\\{thumb} -FilePath C:\\certs\\mirth.pfx -Password $pw"
        )
    ],
)
# --- clinic
_kind("ehr_portal_password", "pw", _P, "EHR portal password", "EHR_PASSWORD", "password")
_kind(
    "fhir_client_secret",
    "tok",
    _tok(lambda r: _r(r, _B64U, 43)),
    "SMART on FHIR backend client secret",
    "FHIR_CLIENT_SECRET",
    "client_secret",
)
_kind(
    "fhir_jwt_access_token",
    "tok",
    _fhir_jwt,
    "FHIR bearer access token",
    "FHIR_ACCESS_TOKEN",
    "access_token",
    "Authorization: Bearer",
)
_kind(
    "mirth_db_password",
    "pw",
    _P,
    "Mirth Database Reader password",
    "MIRTH_DB_PASSWORD",
    "password",
    extras=[
        (
            '<sourceConnector version="4.4.0">\n  <properties class="com.mirth.connect.connectors.jdbc.DatabaseReceiverProperties">\n'
            "    <driver>org.postgresql.Driver</driver>\n    <url>jdbc:postgresql://db01:5432/ehr</url>\n"
            "    <username>mirth_ro</username>\n    <password>{v}</password>\n  </properties>\n</sourceConnector>"
        )
    ],
)
_kind(
    "postgres_url_password",
    "url",
    _pgsql,
    "Mirth backing database URL",
    "MIRTH_DB_URL",
    "database.url",
)
_kind(
    "mssql_connection_password",
    "url",
    _mssql,
    "practice DB connection string",
    "PRACTICE_DB",
    "ConnectionString",
)
_kind(
    "pacs_basic_auth_password",
    "url",
    _pacs,
    "Orthanc PACS URL",
    "ORTHANC_URL",
    "orthanc_url",
)
_kind(
    "smtp_relay_password",
    "url",
    _smtp,
    "fax-to-email SMTP relay URL",
    "SMTP_URL",
    "smtp_url",
)
_kind("totp_seed", "url", _totp, "EPCS two-factor seed", "EPCS_OTP_URI", "otpauth")
_kind(
    "zoom_client_secret",
    "tok",
    _tok(lambda r: _r(r, _AN, 32)),
    "Zoom server-to-server OAuth client secret",
    "ZOOM_CLIENT_SECRET",
    "client_secret",
)
_kind(
    "printer_admin_password",
    "pw",
    _P,
    "printer web UI admin password",
    "PRINTER_ADMIN_PW",
    "admin_password",
    extras=[
        (
            "# Exported settings - HP LaserJet M507 (frontdesk)\nDeviceName=HP-FRONTDESK\nAdminUser=admin\n"
            "AdminPassword={v}\nSNMPv1=Disabled\nScanToEmail=Enabled"
        )
    ],
)
_kind(
    "wifi_staff_password",
    "pw",
    _P,
    "staff Wi-Fi WPA2 key",
    "WIFI_STAFF_PSK",
    "psk",
    extras=[
        (
            'C:\\> netsh wlan show profile name="Clinic-Staff" key=clear\n\nSecurity settings\n-----------------\n'
            "    Authentication         : WPA2-Personal\n    Cipher                 : CCMP\n"
            "    Security key           : Present\n    Key Content            : {v}\n"
        )
    ],
)
_kind(
    "unifi_admin_password",
    "pw",
    _P,
    "UniFi controller admin password",
    "UNIFI_PASSWORD",
    "password",
)
_kind(
    "meraki_api_key",
    "tok",
    _tok(lambda r: _r(r, _HEX, 40)),
    "Meraki dashboard API key",
    "MERAKI_DASHBOARD_API_KEY",
    "api_key",
    "X-Cisco-Meraki-API-Key:",
)
_kind(
    "fortigate_api_token",
    "tok",
    _tok(lambda r: _r(r, _AN, 30)),
    "FortiGate REST API token",
    "FORTIGATE_TOKEN",
    "api_token",
    "Authorization: Bearer",
)
_kind(
    "fortinet_vpn_psk",
    "pw",
    _P,
    "IPsec pre-shared key (clinic <-> CPA tunnel)",
    "VPN_PSK",
    "psksecret",
    extras=[
        (
            'config vpn ipsec phase1-interface\n    edit "to-cpa"\n        set interface "wan1"\n'
            "        set remote-gw 203.0.113.{n3}\n        set psksecret {v}\n    next\nend"
        )
    ],
)
_kind("idrac_password", "pw", _P, "iDRAC root password", "IDRAC_PASSWORD", "password")
_kind(
    "vnc_password",
    "pw",
    lambda r: {"s": _r(r, _AN, 8)},
    "VNC password on the PACS viewer",
    "VNC_PASSWORD",
    "vnc_password",
)
# --- accounting
_kind(
    "quickbooks_client_secret",
    "tok",
    _tok(lambda r: _r(r, _AN, 40)),
    "QuickBooks Online app client secret",
    "QBO_CLIENT_SECRET",
    "client_secret",
)
_kind(
    "quickbooks_refresh_token",
    "tok",
    _tok(lambda r: "AB11" + _r(r, _DIG, 10) + _r(r, _AN, 36)),
    "QuickBooks refresh token",
    "QBO_REFRESH_TOKEN",
    "refresh_token",
)
_kind(
    "xero_client_secret",
    "tok",
    _tok(lambda r: _r(r, _B64U, 48)),
    "Xero app client secret",
    "XERO_CLIENT_SECRET",
    "client_secret",
)
_kind(
    "plaid_secret",
    "tok",
    _tok(lambda r: _r(r, _HEX, 30)),
    "Plaid production secret",
    "PLAID_SECRET",
    "secret",
)
_kind(
    "plaid_access_token",
    "tok",
    _tok(lambda r: "access-production-" + _uuid(r)),
    "Plaid access token",
    "PLAID_ACCESS_TOKEN",
    "access_token",
)
_kind(
    "dropbox_access_token",
    "tok",
    _tok(lambda r: "s" + "l." + _r(r, _B64U, 138)),
    "Dropbox access token",
    "DROPBOX_TOKEN",
    "access_token",
    "Authorization: Bearer",
)
_kind(
    "box_client_secret",
    "tok",
    _tok(lambda r: _r(r, _AN, 32)),
    "Box app client secret",
    "BOX_CLIENT_SECRET",
    "client_secret",
)
_kind(
    "backblaze_application_key",
    "tok",
    _tok(lambda r: "K00" + str(r.randint(1, 5)) + _r(r, _AN, 27)),
    "Backblaze B2 application key",
    "B2_APPLICATION_KEY",
    "application_key",
)
_kind(
    "b2_presigned_url_signature",
    "url",
    _b2_presigned,
    "pre-signed download link",
    "DOWNLOAD_URL",
    "url",
)
_kind(
    "aws_secret_access_key",
    "tok",
    _tok(lambda r: _r(r, _B64, 40)),
    "AWS secret access key (Glacier archive user)",
    "AWS_SECRET_ACCESS_KEY",
    "aws_secret_access_key",
)
_kind(
    "irs_eservices_password",
    "pw",
    _P,
    "IRS e-Services password",
    "IRS_ESERVICES_PW",
    "password",
)
_kind(
    "state_tax_portal_password",
    "pw",
    _P,
    "state tax portal password",
    "STATE_TAX_PW",
    "password",
)
_kind(
    "sharefile_password",
    "pw",
    _P,
    "ShareFile admin password",
    "SHAREFILE_PASSWORD",
    "password",
)
_kind(
    "pgp_private_key",
    "blk",
    _pgp_key,
    "PGP private key for client files",
    "PGP_KEY",
    "key",
)
_kind(
    "openssh_private_key",
    "blk",
    _ssh_key,
    "deploy SSH key for the NAS",
    "SSH_KEY",
    "key",
)
_kind("rsa_private_key", "blk", _rsa_key, "Mirth TLS private key", "TLS_KEY", "key")
# --- remote access / backup / vaults
_kind(
    "teamviewer_password",
    "pw",
    _P,
    "TeamViewer unattended password",
    "TV_PASSWORD",
    "password",
)
_kind(
    "anydesk_password",
    "pw",
    _P,
    "AnyDesk unattended access password",
    "ANYDESK_PASSWORD",
    "password",
)
_kind(
    "synology_admin_password",
    "pw",
    _P,
    "Synology DSM admin password",
    "DSM_PASSWORD",
    "password",
)
_kind(
    "veeam_encryption_password",
    "pw",
    _P,
    "Veeam backup encryption password",
    "VEEAM_ENC_PW",
    "encryption_password",
)
_kind(
    "password_manager_master_password",
    "pw",
    _P,
    "Bitwarden master password (shared admin account)",
    "BW_MASTER_PASSWORD",
    "master_password",
)
_kind(
    "bitwarden_client_secret",
    "tok",
    _tok(lambda r: _r(r, _AN, 30)),
    "Bitwarden API client_secret",
    "BW_CLIENTSECRET",
    "client_secret",
)
_kind(
    "onepassword_service_account_token",
    "tok",
    _ops,
    "1Password service account token",
    "OP_SERVICE_ACCOUNT_TOKEN",
    "token",
)

# ----------------------------------------------------------------------------- templates
_ALL = "tok pw url blk"
_INL = "tok pw url"
_TPL = [
    (_ALL, "{d} for {o}:\n{v}"),
    (_INL, "Note ({t}): {d} = {v} (used by the {app})."),
    (
        _INL,
        (
            "Lesson learned {t}: after we rotated the {d}, the {app} kept failing for two days because it still had the old"
            " value. New one is {v} - update the {app} AND the vault entry together next time."
        ),
    ),
    (
        _INL,
        "TODO before {t}:\n- [ ] renew the domain\n- [ ] rotate {d} (currently {v})\n- [ ] test the {app}",
    ),
    (
        _ALL,
        (
            "Handover for {p}:\n* Everything else is in the shared vault, but the {d} was never saved there.\n* {d}: {v}\n"
            "* Call {p2} if the {app} breaks."
        ),
    ),
    (
        _ALL,
        (
            "From: {p} <{pl}@eastsideclinic.org>\nTo: it-volunteer@harvesttable.org\nSubject: {d}\nDate: {t}\n\n"
            "Hi! Here is the {d} you asked for:\n\n{v}\n\nThanks,\n{p}"
        ),
    ),
    (
        _INL,
        "[09:{mm}] {p}: what's the {d} again? the {app} stopped\n[09:{mm2}] volunteer: {v}\n[09:{mm2}] {p}: thx!",
    ),
    ("tok pw url", "# {o} - {app}\n{V}={v}\nAPP_ENV=production\nLOG_LEVEL=info"),
    ("tok pw url", "[{sec}]\nhost = {h}\nuser = svc_{pl}\n{k} = {v}\ntimeout = 30"),
    (
        "tok pw url",
        '{{\n  "service": "{app}",\n  "host": "{h}",\n  "{k}": "{v}",\n  "retries": 3\n}}',
    ),
    ("tok pw url", "{sec}:\n  host: {h}\n  {k}: '{v}'\n  verify_tls: true"),
    ("tok pw url", "$env:{V} = '{v}'\n.\\Sync-Records.ps1 -Site {sec} -Verbose"),
    (
        "tok pw",
        "@echo off\nREM {app} for {o}\nset {V}={v}\ncall C:\\scripts\\run_{sec}.cmd",
    ),
    (
        "tok pw url",
        '<configuration>\n  <appSettings>\n    <add key="{V}" value="{v}" />\n  </appSettings>\n</configuration>',
    ),
    (
        _ALL,
        (
            "Runbook - restore the {app}\n1. RDP to {h}\n2. Open Services, stop the {app} service\n"
            "3. Paste the {d}:\n{v}\n4. Start the service and watch the event log"
        ),
    ),
    (
        _INL,
        "Nota para {p}: la {d} de {o} es {v} - no la mandes por WhatsApp, por favor.",
    ),
    (
        _INL,
        "Paalala kay {p}: ang {d} para sa {o} ay {v}. Huwag itong i-post sa group chat.",
    ),
    (_INL, "Nòt pou {p}: {d} pou {o} se {v}. Pa voye l nan WhatsApp."),
    (_INL, "Xusuusin {p}: {d} ee {o} waa {v}. Ha la wadaagin koox kale."),
    (_INL, "یادداشت برای {p}: {d} مربوط به {o} این است: {v} لطفا در گروه نفرستید."),
    (_INL, "Nota para {p}: a {d} da {o} é {v}. Não compartilhe no grupo."),
    (_INL, "{p}님 메모: {o}의 {d}는 {v} 입니다. 단체방에 올리지 마세요."),
    (
        "tok pw url",
        "$ export {V}='{v}'\n$ ./sync_{sec}.sh --dry-run\n[ok] 42 records would be updated",
    ),
    (
        "tok pw url",
        "services:\n  {sec}:\n    image: ghcr.io/harvesttable/{sec}:1.{mm}\n    environment:\n      - {V}={v}",
    ),
    (
        "tok pw url",
        "{t} 09:{mm}:12 WARN  {app}: auth failed ({V}={v}), retrying in 30s",
    ),
    (
        _INL,
        (
            "Decision {t}: the {app} keeps its own {d} ({v}) instead of sharing {p}'s login, so we can rotate"
            " it without locking {p} out."
        ),
    ),
    ("blk", "$ cat ~/.secrets/{sec}.key\n{v}\n$ chmod 600 ~/.secrets/{sec}.key"),
    (
        "pw",
        '$ curl -s -u admin:\'{v}\' https://{h}/api/v1/status\n{{"status": "ok", "uptime": {n4}}}',
    ),
    (
        "tok",
        "$ curl -s 'https://{h}/api/{sec}?{k}={v}&limit=50' | jq '.items | length'\n{mm}",
    ),
    (
        "tok pw",
        (
            "Windows Registry Editor Version 5.00\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\Volunteer\\{sec}]\n"
            '"Host"="{h}"\n"{k}"="{v}"'
        ),
    ),
    (
        "blk",
        "PS C:\\> Get-Content C:\\certs\\{sec}.key\n{v}\nPS C:\\> icacls C:\\certs\\{sec}.key /inheritance:r",
    ),
    (
        "blk",
        "Nota para {p}: a {d} está abaixo, copie para o cofre e apague esta mensagem.\n{v}",
    ),
    (
        "blk",
        "Saved from {p}'s old laptop before wiping it ({t}) - {d}:\n\n{v}\n\nput it in the vault then delete this note",
    ),
]
_TPL += [
    (
        "tok pw url",
        (
            "Log Name: Microsoft-Windows-Sysmon/Operational\nEvent ID: 1\nImage: C:\\scripts\\{sec}.exe\n"
            'CommandLine: "C:\\scripts\\{sec}.exe" --{k} "{v}" --quiet\nUser: CLINIC\\svc_{sec}'
        ),
    ),
    (
        "tok",
        (
            "PS C:\\> $h = @{{ '{V}' = '{v}' }}\nPS C:\\> Invoke-RestMethod -Uri https://{h}/api/{sec} -Headers $h\n\n"
            "status : ok\ncount  : {mm}"
        ),
    ),
    (
        "pw",
        (
            "PS C:\\> $sec = ConvertTo-SecureString '{v}' -AsPlainText -Force\n"
            "PS C:\\> $cred = New-Object PSCredential('CLINIC\\svc_{sec}', $sec)\n"
            "PS C:\\> Enter-PSSession -ComputerName {h} -Credential $cred"
        ),
    ),
    (
        "tok pw url",
        (
            "$ docker inspect {sec} --format '{{{{json .Config.Env}}}}'\n"
            '["PATH=/usr/local/bin","{V}={v}","TZ=America/New_York"]'
        ),
    ),
]
_HDR_TPL = (
    "> POST /v1/{sec}/sync HTTP/1.1\n> Host: {h}\n> {hdr} {v}\n> Content-Type: application/json\n>\n< HTTP/1.1 200 OK"
)
_SECS = [
    "reminders",
    "donors",
    "backup",
    "intake",
    "payroll",
    "pos",
    "newsletter",
    "scanner",
    "fhir",
    "ledger",
]


def _ctx(rng, kind_row, g):
    _kind, _cats, _gen, desc, var, key, hdr, _extras = kind_row
    p, p2 = rng.sample(_PEOPLE, 2)
    mm = rng.randint(10, 58)
    c = {
        "d": desc,
        "V": var,
        "k": key,
        "hdr": hdr,
        "o": rng.choice(_ORGS),
        "p": p,
        "p2": p2,
        "pl": p.lower().replace("-", ""),
        "h": rng.choice(_HOSTS),
        "t": _date(rng),
        "app": rng.choice(_APPS),
        "sec": rng.choice(_SECS),
        "mm": mm,
        "mm2": mm + 1,
        "sid": _r(rng, _HEX, 32),
        "n3": rng.randint(100, 999),
        "n4": rng.randint(1000, 9999),
        "thumb": _r(rng, _HEXU, 40),
        "pid": "",
        "pid8": "",
    }
    c.update(g)
    c.setdefault("v", g["s"])
    if c["pid"]:
        c["pid8"] = c["pid"][1:9]
    return c


# ----------------------------------------------------------------------------- look-alikes
def _hx(r, n):
    return _r(r, _HEX, n)


def _pp(r):
    return r.choice(_PEOPLE)


def _l_commit(r):
    return (
        f"Deployed {_hx(r, 40)} of the intake-form plugin to {r.choice(_HOSTS)} on {_date(r)}; rollback = previous tag."
    )


def _l_gitlog(r):
    lines = [
        f"{_hx(r, 7)} {m}"
        for m in r.sample(
            [
                "fix reminder timezone",
                "bump mirth channel",
                "add donor csv export",
                "update README",
                "handle 429 from QBO",
                "retry on fax timeout",
            ],
            4,
        )
    ]
    return "$ git log --oneline -4\n" + "\n".join(lines)


def _l_filehash(r):
    return (
        f"PS> Get-FileHash .\\TeamViewer_Host_Setup_x64.exe\n\nAlgorithm       Hash                                      "
        f"                            Path\n---------       ----\nSHA256          {_r(r, _HEXU, 64)}       "
        f"C:\\Users\\{_pp(r).lower()}\\Downloads\\TeamViewer_Host_Setup_x64.exe"
    )


def _l_md5(r):
    return f"$ md5sum veeam-{_date(r)}.vbk\n{_hx(r, 32)}  veeam-{_date(r)}.vbk\nmatches the checksum in the job report."


def _l_sha1(r):
    return f"Win11 24H2 ISO sha1 {_hx(r, 40)} - verified against the volume licensing portal listing ({_date(r)})."


def _l_reqid(r):
    return (
        f"< HTTP/1.1 503 Service Unavailable\n< x-request-id: {_uuid(r)}\n< intuit_tid: {_r(r, _DIG, 4)}-{_hx(r, 24)}\n"
        f"< Retry-After: {r.randint(5, 120)}\nQBO was down again, tid saved for support ticket."
    )


def _l_entra_ids(r):
    return (
        f"App registration 'clinic-fhir-sync'\nApplication (client) ID: {_uuid(r)}\nDirectory (tenant) ID: {_uuid(r)}\n"
        f"Object ID: {_uuid(r)}\nClient secret: stored in Key Vault 'kv-clinic' as fhir-sync-secret"
    )


def _l_intune_device(r):
    return (
        f"Intune device {r.choice(['FRONTDESK', 'EXAM', 'NP'])}-{r.randint(1, 20):02d}: device id {_uuid(r)}, "
        f"Entra device id {_uuid(r)}, compliance: {r.choice(['Compliant', 'Not compliant', 'In grace period'])}"
    )


def _l_bitlocker_tpm(r):
    return (
        f"PS C:\\> manage-bde -protectors -get C: -Type TPM\n\nVolume C: [OS]\nKey Protectors of Type TPM\n\n    TPM:\n"
        f"      ID: {{{_uuid(r).upper()}}}\n      PCR Validation Profile:\n        7, 11\n"
        f"      (Uses Secure Boot for integrity validation)"
    )


def _l_bitlocker_event(r):
    return (
        f"Log Name: Microsoft-Windows-BitLocker/BitLocker Management\nEvent ID: 845\nLevel: Information\n"
        f"Description: BitLocker Drive Encryption recovery information for volume C: was backed up successfully to "
        f"your Azure AD.\nProtector ID: {{{_uuid(r).upper()}}}\nIdentifier: {{{_uuid(r).upper()}}}\nComputer: EXAM-{r.randint(1, 9)}"
    )


def _l_bitlocker_masked(r):
    return (
        f"BitLocker key for EXAM-{r.randint(1, 30)} is escrowed in Entra (Devices > EXAM-{r.randint(1, 30)} > Recovery keys). "
        f"Key ID starts {_r(r, _HEXU, 8)}. Recovery password: ******-******-******-******-******-******-******-******"
    )


def _l_stripe_pk(r):
    pk = "pk" + "_live_" + _r(r, _AN, 99)
    return f"Donorbox embed needs the publishable key only:\n<script>Stripe('{pk}');</script>\n(secret key stays in Donorbox)"


def _l_recaptcha_site(r):
    sk = "6L" + _r(r, _B64U, 38)
    return f'<div class="g-recaptcha" data-sitekey="{sk}"></div>\n<!-- site key is public; the secret is in WP Settings > reCAPTCHA -->'


def _l_firebase(r):
    k = "AI" + "za" + _r(r, _B64U, 35)
    n = r.randint(100000000000, 999999999999)
    return (
        f'const firebaseConfig = {{\n  apiKey: "{k}",\n  authDomain: "harvest-volunteers.firebaseapp.com",\n'
        f'  projectId: "harvest-volunteers",\n  messagingSenderId: "{n}",\n  appId: "1:{n}:web:{_hx(r, 22)}"\n}};'
    )


def _l_google_client_id(r):
    return (
        f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{_r(r, _LO + _DIG, 32)}.apps.googleusercontent.com\n"
        f"GOOGLE_CLIENT_SECRET=${{GOOGLE_CLIENT_SECRET}}"
    )


def _l_sentry(r):
    return (
        f"SENTRY_DSN=https://{_hx(r, 32)}@o{r.randint(100000, 999999)}.ingest.us.sentry.io/{r.randint(1000000, 9999999)}\n"
        "# DSN is public, fine to commit"
    )


def _l_algolia(r):
    return (
        f"Algolia for the pantry locator: app id {_r(r, _UP + _DIG, 10)}, search-only API key {_hx(r, 32)} "
        "(safe in the browser; admin key is NOT here)"
    )


def _l_square_appid(r):
    return (
        "Square Web Payments SDK: applicationId 'sq0" + f"idp-{_r(r, _B64U, 22)}', locationId '{_r(r, _UP + _DIG, 13)}'"
    )


def _l_paypal_sdk(r):
    return (
        f'<script src="https://www.paypal.com/sdk/js?client-id={_r(r, _B64U, 80)}&currency=USD&intent=capture">'
        "</script>\n<!-- client-id is public -->"
    )


def _l_mailchimp_form(r):
    return (
        f'<form action="https://harvesttable.us{r.randint(1, 21)}.list-manage.com/subscribe/post?u={_hx(r, 25)}'
        f'&amp;id={_hx(r, 10)}" method="post">'
    )


def _l_anon_jwt(r):
    ref = _r(r, _LO, 20)
    claims = '{"iss":"supabase","ref":"' + ref + '","role":"anon","iat":1730000000,"exp":2045000000}'
    h = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    p = base64.urlsafe_b64encode(claims.encode()).decode().rstrip("=")
    return f"SUPABASE_URL=https://{ref}.supabase.co\nSUPABASE_ANON_KEY={h}.{p}.{_b64u(r, 32)}\n# anon key: public, RLS protects data"


def _l_plaid_client_id(r):
    return f"PLAID_CLIENT_ID={_hx(r, 24)}\nPLAID_ENV=production\nPLAID_SECRET=<set in 1Password: Plaid / production secret>"


def _l_twilio_sid(r):
    return (
        "TWILIO_ACCOUNT_SID=A" + f"C{_hx(r, 32)}\nTWILIO_AUTH_TOKEN=${{TWILIO_AUTH_TOKEN}}\n"
        f"TWILIO_FROM=+1555{r.randint(1000000, 9999999)}"
    )


def _l_twilio_msg(r):
    return (
        f"{_date(r)} 08:{r.randint(10, 59)} reminder sent sid=S" + f"M{_hx(r, 32)} status=delivered "
        f"to=+1555***{r.randint(1000, 9999)}"
    )


def _l_env_example(r):
    v = r.choice(
        [
            "SENDGRID_API_KEY",
            "MAILCHIMP_API_KEY",
            "QBO_CLIENT_SECRET",
            "XERO_CLIENT_SECRET",
            "SLACK_BOT_TOKEN",
        ]
    )
    return f"# .env.example ({_date(r)})\n{v}=<your-key-here>\nDB_PASSWORD=changeme\nSITE={r.choice(_HOSTS)}"


def _l_compose_ref(r):
    return (
        f"services:\n  donor-sync:\n    image: ghcr.io/harvesttable/donor-sync:1.{r.randint(0, 40)}\n    environment:\n"
        "      - SF_PASSWORD=${SF_PASSWORD}\n      - SF_SECURITY_TOKEN=${SF_SECURITY_TOKEN:?missing}\n"
        f"    mem_limit: {r.randint(128, 2048)}m"
    )


def _l_gha_ref(r):
    return (
        f"- name: Deploy theme\n  run: ./deploy.sh {_hx(r, 7)}\n  env:\n    CF_API_TOKEN: ${{{{ secrets.CLOUDFLARE_API_TOKEN }}}}\n"
        f"    WP_APP_PASSWORD: ${{{{ secrets.WP_APP_PASSWORD }}}}"
    )


def _l_airflow(r):
    return (
        f'plaid_secret = Variable.get("plaid_secret_{r.choice(["prod", "sandbox", "dev"])}")\n'
        f'qbo_token = Variable.get("qbo_refresh_token")  # rotated by DAG refresh_qbo every {r.randint(20, 90)} min'
    )


def _l_dbutils(r):
    return (
        f'pwd = dbutils.secrets.get(scope="{r.choice(["clinic", "foodbank", "cpa"])}-kv", key="{r.choice(["mirth-db", "ehr-sftp", "fhir-client"])}")\n'
        f"print(pwd)  # prints [REDACTED] in notebooks (cell {r.randint(1, 99)}, cluster {_r(r, _DIG, 4)}-{_r(r, _DIG, 6)}-{_r(r, _LO, 8)})"
    )


def _l_vault_path(r):
    return (
        f"$ vault kv get -field=password secret/{r.choice(['clinic', 'cpa', 'foodbank'])}/{r.choice(['mirth', 'synology', 'fortigate'])}\n"
        f"(ran this from the jump box on {_date(r)}; never paste the output into notes)"
    )


def _l_keyvault_ref(r):
    return (
        f"App setting MIRTH_DB_PASSWORD = @Microsoft.KeyVault(SecretUri=https://kv-clinic-{r.randint(1, 99)}.vault.azure.net/"
        f"secrets/mirth-db-password/{_hx(r, 32)})"
    )


def _l_secretsmanager(r):
    return (
        f"Secret ARN: arn:aws:secretsmanager:us-east-1:{r.randint(10**11, 10**12 - 1)}:secret:cpa/qbo-{_r(r, _AN, 6)}\n"
        "Lambda reads it at cold start."
    )


def _l_op_ref(r):
    return (
        f"op run --env-file=.env -- ./sync.sh\n# .env contains TWILIO_AUTH_TOKEN=op://{r.choice(['Clinic', 'Shared', 'IT'])}/"
        f"Twilio/{r.choice(['credential', 'auth token'])} and item id {_r(r, _LO + _DIG, 26)}"
    )


def _l_bw_ref(r):
    return f"bw get password {_uuid(r)} | clip   # Synology admin, org '{r.choice(_ORGS)}'"


def _l_ansible_vault(r):
    body = _hx(r, 320)
    lines = [body[i : i + 80] for i in range(0, len(body), 80)]
    return "wifi_psk: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join("          " + x for x in lines)


def _l_sops(r):
    return (
        f"smtp_password: ENC[AES256_GCM,data:{_b64(r, 18)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]\n"
        f'sops:\n    kms: []\n    lastmodified: "{_date(r)}T10:00:00Z"\n    mac: ENC[AES256_GCM,data:{_b64(r, 32)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]'
    )


_BC = "./" + _UP + _LO + _DIG


def _l_bcrypt(r):
    return f"wp_users row for volunteer-bot: user_pass = $2y$10${_r(r, _BC, 53)} (bcrypt, fine to keep in the ticket)"


def _l_argon2(r):
    return (
        f"Vaultwarden admin_token is hashed now: ADMIN_TOKEN='$argon2id$v=19$m=65540,t=3,p=4${_b64(r, 32).rstrip('=')}"
        f"${_b64(r, 32).rstrip('=')}'"
    )


def _l_shadow(r):
    return f"root:$6${_r(r, _BC, 16)}${_r(r, _BC, 86)}:19{r.randint(100, 999)}:0:99999:7:::"


def _l_django(r):
    return (
        f"pbkdf2_sha256$870000${_r(r, _AN, 22)}${_b64(r, 32)}  <- hash from the intake app user table, not a password"
    )


def _l_ssh_pub(r):
    return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_b64(r, 32)[:43]} {_pp(r).lower()}@nas01\n(added to authorized_keys on the Synology)"


def _l_ssh_fp(r):
    return (
        f"The authenticity of host 'nas01 (10.20.0.{r.randint(2, 250)})' can't be established.\n"
        f"ED25519 key fingerprint is SHA256:{_b64(r, 32).rstrip('=')}."
    )


def _l_pgp_pub(r):
    body = "mQINBG" + _b64(r, 400)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    lab = "PGP PUBLIC KEY BLOCK"
    return "\n".join(
        [
            "Public key for clients to encrypt returns:",
            "-----BEGIN " + lab + "-----",
            "",
            *lines,
            "=" + _r(r, _B64, 4),
            "-----END " + lab + "-----",
        ]
    )


def _l_pgp_fpr(r):
    f = _r(r, _HEXU, 40)
    return (
        f"pub   rsa4096 2026-0{r.randint(1, 9)}-1{r.randint(0, 9)} [SC]\n      {f}\nuid   [ultimate] Reyes & Okafor CPA "
        f"<files@reyesokafor.com>\nsub   rsa4096 [E]"
    )


def _l_cert(r):
    body = "MIID" + _b64(r, 700)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join(
        [
            "Mirth public cert (send to the lab):",
            "-----BEGIN CERTIFICATE-----",
            *lines,
            "-----END CERTIFICATE-----",
        ]
    )


def _l_thumb(r):
    return (
        f"PS> Get-ChildItem Cert:\\LocalMachine\\My\n\nThumbprint                                Subject\n"
        f"----------                                -------\n{_r(r, _HEXU, 40)}  CN=mirth01.clinic.local"
    )


def _l_datauri(r):
    return f'<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA{_b64(r, 120)}">'


def _l_mime_pdf(r):
    body = "JVBERi0xLjcK" + _b64(r, 150)
    return (
        f'--_boundary_{_hx(r, 12)}\nContent-Type: application/pdf; name="fax_{r.randint(1000, 9999)}.pdf"\n'
        f"Content-Transfer-Encoding: base64\n\n{body[:76]}\n{body[76:152]}"
    )


def _l_dkim(r):
    return (
        f"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=harvesttable.org; s=google;\n"
        f" h=from:to:subject:date:message-id; bh={_b64(r, 32)};\n b={_b64(r, 128)}\n"
        f"Message-ID: <{_r(r, _AN, 40)}@mail.gmail.com>"
    )


def _l_notebook(r):
    return (
        f'{{"cell_type": "code", "execution_count": {r.randint(1, 300)}, "id": "{_hx(r, 8)}", "metadata": {{}}, '
        f'"outputs": [], "source": ["df = pd.read_csv(\'donors_{_date(r)}.csv\')"]}}'
    )


def _l_docker_digest(r):
    return f"pulled ghcr.io/harvesttable/donor-sync@sha256:{_hx(r, 64)} (tag 1.{r.randint(0, 50)}.{r.randint(0, 9)})"


def _l_npm_integrity(r):
    return (
        f'"node_modules/@mailchimp/mailchimp_marketing": {{\n  "version": "3.0.{r.randint(10, 90)}",\n'
        f'  "integrity": "sha512-{_b64(r, 64)}"\n}}'
    )


def _l_pip_hash(r):
    return f"requests==2.32.{r.randint(0, 5)} \\\n    --hash=sha256:{_hx(r, 64)}"


def _l_event_logon(r):
    return (
        f"Event ID 4624 An account was successfully logged on.\nLogon Type: 10\nAccount Name: {_pp(r).lower()}\n"
        f"Logon ID: 0x{_r(r, _HEXU, 7)}\nLogon GUID: {{{_uuid(r)}}}\nSource Network Address: 10.20.0.{r.randint(2, 250)}"
    )


def _l_event_failed(r):
    return (
        f"Event ID 4625 An account failed to log on.\nAccount Name: administrator\nFailure Reason: Unknown user name or "
        f"bad password.\nStatus: 0xC000006D\nSource Network Address: 185.{r.randint(1, 250)}.{r.randint(1, 250)}.{r.randint(1, 250)}"
    )


def _l_hwhash(r):
    return f"Device Serial Number,Windows Product ID,Hardware Hash\nPF{_r(r, _UP + _DIG, 6)},,T0G{_b64(r, 90)}"


def _l_masked_pw(r):
    return (
        f"[Network]\nSMTPServer=smtp.office365.com\nSMTPUser=scanner@eastsideclinic.org\nSMTPPassword=********\n"
        f"# printer export {_date(r)} masks passwords; re-enter after restore"
    )


def _l_default_docs(r):
    return (
        f"Printer setup notes ({r.choice(['Brother', 'HP', 'Canon', 'Ricoh'])}): default web login is printed on the "
        f"label on the back ('Pwd'). We changed it on {_date(r)}; the new one is in Keeper, folder 'Printers'."
    )


def _l_changeme_docs(r):
    return (
        f"Synology docs: 'replace changeme with a strong password before exposing DSM'. Ours is set; "
        f"QuickConnect ID harvest-{_r(r, _LO, 4)}, DSM 7.2.{r.randint(0, 2)}-{r.randint(64000, 72999)}"
    )


def _l_netsh_nokey(r):
    return (
        f'C:\\> netsh wlan show profile name="{r.choice(["Clinic", "Pantry", "CPA"])}-Guest-{r.randint(1, 99)}"\n\n    Authentication         : Open\n'
        f"    Cipher                 : None\n    Security key           : Absent\n    Cost                   : Unrestricted"
    )


def _l_zoom_id(r):
    return (
        f"Telehealth room for Dr. {_pp(r)}: Zoom meeting ID {r.randint(800, 999)} {r.randint(1000, 9999)} "
        f"{r.randint(1000, 9999)}; passcode is sent by the scheduler per visit, not stored here."
    )


def _l_meraki_ids(r):
    return (
        f"Meraki org id {r.randint(100000, 999999)}, network id L_{r.randint(10**17, 10**18 - 1)}, "
        f"MX serial Q2{_r(r, _UP + _DIG, 2)}-{_r(r, _UP + _DIG, 4)}-{_r(r, _UP + _DIG, 4)}"
    )


def _l_unifi_site(r):
    return f"UniFi site '{r.choice(['clinic', 'pantry', 'office'])}' _id={_hx(r, 24)} ap mac {':'.join(_hx(r, 2) for _ in range(6))}"


def _l_forti_serial(r):
    return (
        f"FortiGate FGT60F{_r(r, _UP + _DIG, 10)} v7.4.{r.randint(1, 7)} build{r.randint(2000, 2800)}; "
        f"FortiCare contract expires {_date(r)}"
    )


def _l_hl7(r):
    return (
        f"MSH|^~\\&|EHR|ECC|LAB|QUEST|2026{r.randint(10**9, 10**10 - 1)}||ORM^O01|{_r(r, _UP + _DIG, 20)}|P|2.5.1\n"
        f"PID|1||{r.randint(100000, 999999)}^^^ECC^MR||TEST^PATIENT"
    )


def _l_fhir_etag(r):
    return (
        f'GET https://fhir.ehrvendor.com/r4/Patient/{_r(r, _AN + "-.", 24)}\n< ETag: W/"{r.randint(1, 30)}"\n'
        f"< X-Request-Id: {_uuid(r)}"
    )


def _l_dicom_uid(r):
    return (
        f"StudyInstanceUID 1.2.840.113619.2.{r.randint(100, 999)}.{r.randint(10**9, 10**10 - 1)}."
        f"{r.randint(10**5, 10**6 - 1)}; Orthanc id {'-'.join(_hx(r, 8) for _ in range(5))}"
    )


def _l_mirth_channel(r):
    return (
        f'<channel version="4.4.0">\n  <id>{_uuid(r)}</id>\n  <name>ADT_to_Reminders</name>\n'
        f"  <revision>{r.randint(2, 80)}</revision>\n  <password>${{mirth_db_password}}</password>\n</channel>"
    )


def _l_qbo_realm(r):
    return f"QBO company (realmId) {r.randint(10**15, 10**16 - 1)}; minorversion={r.randint(60, 75)}; intuit_tid {_hx(r, 32)}"


def _l_xero_tenant(r):
    return f"xero-tenant-id: {_uuid(r)}\nconnection id {_uuid(r)} - Reyes & Okafor CPA (demo company removed)"


def _l_sf_ids(r):
    return (
        f"Salesforce: org id 00D{_r(r, _AN, 12)}, donation record 006{_r(r, _AN, 15)}, "
        f"contact 003{_r(r, _AN, 12)} merged on {_date(r)}"
    )


def _l_stripe_ids(r):
    return f"Refunded duplicate Donorbox gift: ch_{_r(r, _AN, 24)} / pi_{_r(r, _AN, 24)} (event evt_{_r(r, _AN, 24)})"


def _l_paypal_txn(r):
    return f"PayPal Giving Fund payout, transaction ID {_r(r, _UP + _DIG, 17)}, batch {_r(r, _UP + _DIG, 13)}"


def _l_cf_ids(r):
    return (
        f"Cloudflare: zone id {_hx(r, 32)}, account id {_hx(r, 32)} (harvesttable.org). "
        f"Token lives in the GitHub repo secrets as CLOUDFLARE_API_TOKEN."
    )


def _l_cf_ray(r):
    return (
        f"Error 1020 Access denied - Cloudflare Ray ID: {_hx(r, 16)} - {_date(r)} (WAF rule blocking Donorbox webhook)"
    )


def _l_sendgrid_msgid(r):
    return f"X-Message-Id: {_r(r, _B64U, 22)}\nX-SG-EID: {_b64(r, 60)}\nbounce: mailbox full"


def _l_slack_ids(r):
    return f"Slack channel C{_r(r, _UP + _DIG, 10)} (team T{_r(r, _UP + _DIG, 10)}), message ts 17{r.randint(10**7, 10**8 - 1)}.{r.randint(100000, 999999)}"


def _l_slack_doc_webhook(r):
    url = "https://hooks." + "slack.com/services/" + "T00000000/B00000000/" + "X" * 24
    return f"From the Slack docs (example, not ours): curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"Hello\"}}' {url}  # {_date(r)}"


def _l_wp_salt_sample(r):
    keys = r.sample(
        [
            "AUTH_KEY",
            "SECURE_AUTH_KEY",
            "LOGGED_IN_KEY",
            "NONCE_KEY",
            "AUTH_SALT",
            "NONCE_SALT",
        ],
        3,
    )
    return (
        "\n".join(f"define( '{k}', 'put your unique phrase here' );" for k in keys)
        + f"\n// wp-config-sample.php, WP 6.{r.randint(0, 9)}"
    )


def _l_woo_masked(r):
    return f"WooCommerce REST key 'zapier-orders': consumer key ending in ...{_hx(r, 7)}, permissions Read, last access {_date(r)}"


def _l_gdrive(r):
    return f"Volunteer schedule: https://docs.google.com/spreadsheets/d/{_r(r, _B64U, 44)}/edit#gid={r.randint(0, 2 * 10**9)}"


def _l_box_ids(r):
    return f"Box folder id {r.randint(10**11, 10**12)}, file id {r.randint(10**12, 10**13)} (2025 returns, shared with client)"


def _l_b2_keyid(r):
    return (
        f"B2 application key 'veeam-offsite': keyID 005{_hx(r, 22)}, bucket roc-veeam (bucketId {_hx(r, 24)}).\n"
        "applicationKey was shown once and is in Keeper."
    )


def _l_veeam_session(r):
    return (
        f"Veeam job 'NAS-offsite' session {_uuid(r)} finished: Success, processed {r.randint(20, 900)} GB, "
        f"restore point {_date(r)}"
    )


def _l_teamviewer_id(r):
    return f"TeamViewer ID for the front desk PC: {r.randint(100, 999)} {r.randint(100, 999)} {r.randint(100, 999)} (password in Keeper)"


def _l_anydesk_addr(r):
    return f"AnyDesk address {r.randint(100, 999)} {r.randint(100, 999)} {r.randint(100, 999)} - unattended access enabled, whitelist on"


def _l_sid(r):
    return f"S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(1000, 1200)}  ROCPA\\{_pp(r).lower()}"


def _l_dhcp(r):
    lines = [
        f"10.20.0.{r.randint(2, 250)}  {':'.join(_hx(r, 2) for _ in range(6))}  {n}"
        for n in r.sample(["HP-FRONTDESK", "EXAM-1", "EXAM-2", "NP-LAPTOP", "FAX-GW", "NAS01"], 3)
    ]
    return "DHCP leases:\n" + "\n".join(lines)


def _l_ipv6(r):
    return f"inet6 2001:db8:{_hx(r, 4)}:{_hx(r, 4)}:{_hx(r, 4)}:{_hx(r, 4)}:{_hx(r, 4)}:{_hx(r, 4)}/64 scope global dynamic"


def _l_hf_model(r):
    m = r.choice(
        [
            "openai/whisper-small",
            "openai/whisper-base.en",
            "distil-whisper/distil-large-v3",
            "sentence-transformers/all-MiniLM-L6-v2",
            "facebook/bart-large-cnn",
        ]
    )
    return f"Voicemail transcription uses {m} (revision {_hx(r, 40)}) on the NAS, no cloud."


def _l_run_id(r):
    return f"mlflow run {_hx(r, 32)} (experiment {r.randint(1, 40)}) - donor churn model, AUC 0.{r.randint(60, 90)}"


def _l_presigned_redacted(r):
    return (
        f"https://s3.us-west-004.backblazeb2.com/roc-client-files/{r.randint(1000, 9999)}.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Expires=3600&X-Amz-Signature=REDACTED  (link from {_date(r)}, expired)"
    )


def _l_conn_placeholder(r):
    return (
        f"Server=SQL01\\SQLEXPRESS;Database=Practice{r.randint(1, 99)};User Id=sa;Password={{{{ sql_sa_password }}}};"
    )


def _l_basic_masked(r):
    return f"curl -u orthanc:**** http://pacs.clinic.local:8042/studies?limit={r.randint(1, 50)}"


def _l_get_credential(r):
    return (
        f"$cred = Get-Credential -UserName 'ROCPA\\svc_{r.choice(_SECS)}' -Message 'Veeam {_date(r)}'\n"
        f"New-PSDrive -Name V -PSProvider FileSystem -Root \\\\nas0{r.randint(1, 9)}\\Veeam -Credential $cred"
    )


def _l_dpapi(r):
    return (
        f"PS> Read-Host -AsSecureString | ConvertFrom-SecureString | Out-File C:\\scripts\\smtp.cred\nPS> Get-Content C:\\scripts\\smtp.cred\n"
        f"01000000d08c9ddf0115d1118c7a00c04fc297eb01000000{_hx(r, 180)}"
    )


def _l_rdp_file(r):
    return (
        f"full address:s:rdp.reyesokafor.com:{r.choice([3389, 3390, 443])}\nusername:s:ROCPA\\{_pp(r).lower()}\n"
        f"password 51:b:01000000D08C9DDF0115D1118C7A00C04FC297EB0100{_r(r, _HEXU, 120)}"
    )


def _l_npi(r):
    return f"E-prescribing enrollment: NPI {r.randint(10**9, 2 * 10**9)} (public registry), SPI {r.randint(10**12, 10**13)}, status Active"


def _l_fax(r):
    return f"Fax job {r.randint(10**6, 10**7)} to +1555{r.randint(1000000, 9999999)} failed: busy. Retry queued ({_uuid(r)})"


def _l_oauth_authz(r):
    return (
        f"https://appcenter.intuit.com/connect/oauth2?client_id=AB{_r(r, _AN, 48)}&response_type=code&scope=com.intuit."
        f"quickbooks.accounting&redirect_uri=https%3A%2F%2Flocalhost%3A8080%2Fcb&state={_hx(r, 16)}"
        f"&code_challenge={_b64u(r, 32)}&code_challenge_method=S256"
    )


def _l_state_b64(r):
    st = base64.b64encode(f'{{"return_to":"/donations","nonce":"{_hx(r, 8)}"}}'.encode()).decode()
    return f"Callback looked like /oauth/callback?state={st} - state is just our own JSON, decoded fine."


def _l_keeper_uid(r):
    return f"Keeper record UID {_r(r, _B64U, 22)} ('Fortinet admin') shared to team 'IT' on {_date(r)}"


def _l_op_item(r):
    return f"op item get {_r(r, _LO + _DIG, 26)} --fields label=username  # Gusto admin, username only"


def _l_lastpass(r):
    return f"LastPass export ({r.randint(100, 600)} items) was imported into Bitwarden on {_date(r)} and the CSV shredded (sdelete -p 3)."


def _l_versions(r):
    return f"EHR client {r.randint(10, 25)}.{r.randint(0, 9)}.{r.randint(0, 99)}.{r.randint(1000, 9999)}; KB50{r.randint(10000, 99999)} installed; build {_hx(r, 10)}"


def _l_hexdump(r):
    rows = [f"{i * 16:08x}  " + " ".join(_hx(r, 2) for _ in range(16)) for i in range(3)]
    return "$ xxd -l 48 scan0001.tif\n" + "\n".join(rows)


def _l_pgp_message(r):
    body = "hQIMA" + _b64(r, 300)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    lab = "PGP MESSAGE"
    return "\n".join(
        [
            "Encrypted return for client #" + str(r.randint(100, 999)) + ":",
            "-----BEGIN " + lab + "-----",
            "",
            *lines,
            "=" + _r(r, _B64, 4),
            "-----END " + lab + "-----",
        ]
    )


def _l_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hx(r, 64)}\nsize {r.randint(10**4, 10**8)}"


def _l_tfstate(r):
    return f'{{"version": 4, "terraform_version": "1.9.{r.randint(0, 8)}", "serial": {r.randint(1, 200)}, "lineage": "{_uuid(r)}", "outputs": {{}}}}'


def _l_schtask(r):
    return (
        f"TaskName: \\Clinic\\NightlyExport\nURI: \\Clinic\\NightlyExport\nAuthor: CLINIC\\{_pp(r).lower()}\n"
        f"Run As User: SYSTEM\nTask GUID: {{{_uuid(r).upper()}}}\nNext Run Time: {_date(r)} 02:00:00"
    )


def _l_env_names(r):
    names = r.sample(
        [
            "TWILIO_AUTH_TOKEN",
            "SENDGRID_API_KEY",
            "PLAID_SECRET",
            "QBO_CLIENT_SECRET",
            "B2_APPLICATION_KEY",
            "AZURE_CLIENT_SECRET",
            "MIRTH_DB_PASSWORD",
            "SF_SECURITY_TOKEN",
        ],
        4,
    )
    return (
        f"The {r.choice(_APPS)} needs these env vars set on the server: "
        + ", ".join(names)
        + ". Values are in Bitwarden."
    )


def _l_secret_docs(r):
    return (
        f"Lesson {_date(r)}: never paste the Twilio auth token into Slack again - rotate it in the console, then update "
        "TWILIO_AUTH_TOKEN in the reminder server's env and restart the service."
    )


def _l_redacted_log(r):
    return (
        f"{_date(r)} 07:{r.randint(10, 59)} INFO connect mirth_ro@db01 password=[REDACTED] ok in {r.randint(5, 900)}ms"
    )


def _l_stars(r):
    return f"Fortinet VPN profile 'Clinic': remote gw vpn.eastsideclinic.org:{r.choice([443, 10443])}, user {_pp(r).lower()}, password ************ (saved)"


def _l_uuid_plain(r):
    return f"Bloomerang constituent {r.randint(10**6, 10**7)} merged into {r.randint(10**6, 10**7)}; import batch {_uuid(r)}"


def _l_iccid(r):
    return f"LTE failover SIM ICCID 8901{r.randint(10**14, 10**15)} IMEI 35{r.randint(10**12, 10**13)} on the Meraki MG"


def _l_sha256_verify(r):
    return f"Verified Mirth Connect 4.5.{r.randint(0, 2)} installer: sha256 {_hx(r, 64)} OK (matches release page)"


def _l_git_config(r):
    return (
        f'[remote "origin"]\n\turl = https://github.com/harvesttable/wp-theme.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'
        f"[credential]\n\thelper = manager\n# HEAD {_hx(r, 40)}"
    )


def _l_aws_doc(r):
    ex = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
    return f"AWS docs example (do not use): aws_secret_access_key = {ex}\n# ours comes from `aws configure sso` since {_date(r)}"


def _l_totp_backup_ref(r):
    return (
        f"EPCS 2FA for Dr. {_pp(r)} re-enrolled on {_date(r)} with the Authenticator app; backup codes printed and locked in "
        "the office safe (not stored digitally)."
    )


def _l_printer_serial(r):
    return f"Brother MFC-L8900CDW serial U6{_r(r, _UP + _DIG, 13)}, firmware {r.choice('ZLMN')} 1.{r.randint(10, 99)}, toner {r.randint(5, 90)}%"


def _l_hl7_ack(r):
    return f"MSA|AA|{_r(r, _UP + _DIG, 20)}|Message accepted\nchannel {_uuid(r)} sent {r.randint(10, 999)} msgs"


def _l_intuit_webhook_verifier_ref(r):
    return (
        "QBO webhooks: verify intuit-signature header with HMAC-SHA256 using the verifier token from the developer portal "
        f"(env QBO_WEBHOOK_VERIFIER). Sample header value {_b64(r, 32)} from a test event."
    )


def _l_wp_nonce(r):
    return (
        f"POST /wp-admin/admin-ajax.php action=wc_refund&security={_hx(r, 10)}&order_id={r.randint(1000, 9999)} -> 200"
    )


def _l_csrf(r):
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{_r(r, _AN, 64)}"> from the intake form page (per-session, harmless)'


def _l_gusto_ids(r):
    return f"Gusto company uuid {_uuid(r)}, payroll {_uuid(r)} processed {_date(r)}, {r.randint(2, 6)} employees"


def _l_ics(r):
    return f"BEGIN:VEVENT\nUID:{_uuid(r)}@eastsideclinic.org\nDTSTART:2026{r.randint(1, 12):02d}{r.randint(1, 28):02d}T150000Z\nSUMMARY:Doxy.me follow-up\nEND:VEVENT"


def _l_cloudflare_tunnel_id(r):
    return f"cloudflared tunnel info: ID {_uuid(r)}, connector {_uuid(r)}, origin http://localhost:{r.choice([80, 8080, 8042])}"


def _l_mac_table(r):
    return (
        f"FortiSwitch port{r.randint(1, 24)} learned {':'.join(_hx(r, 2) for _ in range(6))} vlan {r.randint(10, 99)}"
    )


def _l_base64_json(r):
    payload = base64.b64encode(
        f'{{"donor_id":{r.randint(1000, 99999)},"campaign":"winter-{r.randint(1, 9)}"}}'.encode()
    ).decode()
    return f"Givebutter webhook body field 'custom' = {payload} (our own metadata)"


def _l_hmac_sig(r):
    return f"X-Hub-Signature-256: sha256={_hx(r, 64)}\nX-GitHub-Delivery: {_uuid(r)} (webhook delivered OK)"


def _l_efin(r):
    return f"IRS e-file application tracking number {r.randint(10**8, 10**9)}; EFIN letter received {_date(r)}; PTIN renewal due Dec 31."


def _l_uuid_token_noname(r):
    return f"Zapier task history: run {_uuid(r)} succeeded, step 3 (Airtable create record) id rec{_r(r, _AN, 14)}"


_LOOK = [v for k, v in sorted(globals().items()) if k.startswith("_l_") and callable(v)]


# ----------------------------------------------------------------------------- driver
def _templates_for(row):
    cats, hdr, extras = row[1], row[6], row[7]
    pool = [fmt for tc, fmt in _TPL if cats in tc.split()]
    if hdr:
        pool.append(_HDR_TPL)
    # kind-specific templates are weighted x3 so they show up several times per kind
    return pool + extras * 3


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    rng = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for row in _K:
        pool = _templates_for(row)
        order = pool[:]
        rng.shuffle(order)
        for i in range(PER_KIND):
            fmt = order[i % len(order)]
            for _ in range(100):
                g = row[2](rng)
                c = _ctx(rng, row, g)
                text = fmt.format(**c)
                if text not in seen and g["s"] in text:
                    break
            else:  # pragma: no cover
                raise RuntimeError(f"could not make a unique text for {row[0]}")
            seen.add(text)
            positives.append((text, row[0], g["s"]))
    lrng = random.Random(seed * 7919 + 17)
    lookalikes: list[str] = []
    for fn in _LOOK:
        got = 0
        for _ in range(LOOK_PER_GEN * 50):
            text = fn(lrng)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
            if got == LOOK_PER_GEN:
                break
        else:  # pragma: no cover
            raise RuntimeError(f"look-alike generator {fn.__name__} is not varied enough")
    return positives, lookalikes
