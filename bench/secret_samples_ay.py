"""Secret-detector test set AY: an independent bookshop chain and its small press.

Theme
-----
Memories an AI coding agent keeps while running the e-commerce of an independent bookshop chain and
the small publishing press it owns: Shopify / WooCommerce stores, point of sale (Square, Lightspeed),
distributor EDI and FTP feeds (Ingram, Gardners, ONIX uploads), print-on-demand (Lulu, IngramSpark),
ebook stores (Kobo, Apple Books, Google Play Books), payments and tax (Stripe, PayPal, Avalara,
TaxJar), newsletters (Mailchimp, Buttondown, Ghost), audiobooks (Findaway), accounting (Xero,
QuickBooks), manuscript tools (Google Drive, Dropbox, Nextcloud), the typesetting server and the
shops' Wi-Fi, cameras and printers. Styles: about half prose memories (notes, lessons, runbooks,
TODOs, handovers, tickets, e-mails, chat; English plus French, German, Japanese, Catalan, Greek),
a quarter config (.env, JSON, YAML, INI, wp-config.php, Python settings, shell profiles) and a
quarter tool output (CLI, FTP/lftp sessions, curl -v, service logs, CI logs, database consoles).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is the one sensitive value of ``text``
  and an exact substring of it; 30 positives per kind.
* ``lookalikes``: texts without any credential; each generator of ``_LOOK`` contributes
  ``LOOK_PER_GEN`` distinct texts.
* Deterministic per seed (``random.Random`` seeded from the seed only); no duplicate texts.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings / basic-auth URLs: the
  password only. Pre-signed URLs: the signature. PEM / OpenSSH private keys: the whole armoured
  block (BEGIN line to END line). UUID-shaped vendor tokens are secrets only when named as
  token/key/secret.
* Public-by-design values (publishable keys, site keys, Sentry DSNs, OAuth client ids, Firebase web
  apiKeys, search-only keys, public certificates), documentation placeholders, encrypted blobs and
  password hashes are look-alikes. Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes and bodies are assembled at run time.
"""

from __future__ import annotations

import base64
import random
import re
import string

LOOK_PER_GEN = 12

AN = string.ascii_letters + string.digits
LO = string.ascii_lowercase + string.digits
UP = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = AN + "+/"
B64U = AN + "-_"
BCR = "./" + AN


def _r(rng, alpha, n):
    return "".join(rng.choice(alpha) for _ in range(n))


def _uuid(rng):
    h = _r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


WORDS = [
    "tulip",
    "rover",
    "quill",
    "margin",
    "folio",
    "spine",
    "vellum",
    "ember",
    "harbor",
    "maple",
    "comet",
    "orchid",
    "lantern",
    "atlas",
    "cobalt",
    "juniper",
    "sparrow",
    "fable",
    "sonnet",
    "pilgrim",
    "otter",
    "meadow",
    "copper",
    "thistle",
    "raven",
    "saffron",
    "willow",
    "binder",
    "ledger",
    "gazette",
    "kestrel",
    "marble",
    "pepper",
    "violet",
    "walnut",
    "cinder",
    "fennel",
    "prairie",
]
PEOPLE = [
    "amelie",
    "bruno",
    "chiara",
    "dimitra",
    "erik",
    "fatima",
    "gwen",
    "hiro",
    "ines",
    "jordi",
    "kofi",
    "lena",
    "marc",
    "noor",
    "oskar",
]
SHOPS = [
    "Marginalia Books",
    "The Folio Corner",
    "Quill & Lantern",
    "Spine Street Books",
    "Harbor Lights Bookshop",
    "Otter Press",
]
CITIES = [
    "leeds",
    "bristol",
    "lyon",
    "girona",
    "kyoto",
    "thessaloniki",
    "bremen",
    "york",
]
SEASONS = [
    "Christmas",
    "Bookshop Day",
    "Sant Jordi",
    "Black Friday",
    "back-to-school",
    "summer",
]


def _pw(rng):
    w = rng.choice(WORDS)
    s = rng.randrange(7)
    if s == 0:
        return f"{w.capitalize()}{rng.randint(2019, 2027)}{rng.choice('!#$%?')}"
    if s == 1:
        return f"{w}-{rng.choice(WORDS).capitalize()}-{rng.randint(10, 99)}"
    if s == 2:
        return _r(rng, AN + "!@#%^&*", rng.randint(16, 24))
    if s == 3:
        return "-".join(rng.sample(WORDS, 4))
    if s == 4:
        t = w.replace("o", "0").replace("e", "3").replace("a", "@")
        return f"{t.capitalize()}{rng.choice('!.$')}{rng.randint(100, 999)}"
    if s == 5:
        return f"{rng.choice(SHOPS).split()[0]}{rng.choice(WORDS).capitalize()}{rng.randint(1, 99)}!"
    return _r(rng, AN, 20)


def _pem(rng, label, prefix_b64, nbytes):
    raw = base64.b64encode(base64.b64decode(prefix_b64[: len(prefix_b64) // 4 * 4]) + rng.randbytes(nbytes)).decode()
    lines = [raw[i : i + 64] for i in range(0, len(raw), 64)]
    dash = "-" * 5
    return f"{dash}BEGIN {label}{dash}\n" + "\n".join(lines) + f"\n{dash}END {label}{dash}"


def _openssh(rng):
    raw = base64.b64encode(b"openssh-key-v1\x00" + rng.randbytes(rng.choice([250, 370]))).decode()
    lines = [raw[i : i + 70] for i in range(0, len(raw), 70)]
    lab = "OPENSSH " + "PRIVATE" + " KEY"
    dash = "-" * 5
    return f"{dash}BEGIN {lab}{dash}\n" + "\n".join(lines) + f"\n{dash}END {lab}{dash}"


def _rsa(rng):
    return _pem(rng, "RSA " + "PRIVATE" + " KEY", "MIIEowIBAAKCAQEA", 880)


def _p8(rng):
    return _pem(rng, "PRIVATE" + " KEY", "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg", 102)


# ---------------------------------------------------------------- kinds
# name -> (style, label, service, ENV_NAME, value_fn) ; value_fn(rng) -> (shown, secret)


def _same(fn):
    def f(rng):
        v = fn(rng)
        return v, v

    return f


def _gsa(rng):
    pem = _pem(
        rng,
        "PRIVATE" + " KEY",
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ",
        900,
    )
    esc = pem.replace("\n", "\\n") + "\\n"
    proj = f"{rng.choice(['press', 'shop', 'ebooks'])}-{rng.choice(WORDS)}-{rng.randint(100000, 999999)}"
    shown = (
        '{\n  "type": "service_account",\n'
        f'  "project_id": "{proj}",\n'
        f'  "private_key_id": "{_r(rng, HEX, 40)}",\n'
        f'  "private_key": "{esc}",\n'
        f'  "client_email": "playbooks-feed@{proj}.iam.gserviceaccount.com"\n}}'
    )
    return shown, pem.replace("\n", "\\n")


def _url_pw(scheme, hosts, users, tail):
    def f(rng):
        p = _pw(rng).replace("@", "#").replace("/", "_").replace(":", ";").replace("%", "&")
        p = p.replace("#", "x").replace("?", "!")
        h = rng.choice(hosts)
        return f"{scheme}://{rng.choice(users)}:{p}@{h}{tail(rng)}", p

    return f


def _slack(rng):
    s = _r(rng, AN, 24)
    return (
        f"https://hooks.slack.com/services/T{_r(rng, UP, 10)}/B{_r(rng, UP, 10)}/{s}",
        s,
    )


def _discord(rng):
    s = _r(rng, B64U, 68)
    return f"https://discord.com/api/webhooks/{rng.randint(10**17, 10**18)}/{s}", s


def _gcs(rng):
    sig = _r(rng, HEX, 512)
    obj = f"proofs/{rng.choice(WORDS)}-{rng.randint(1, 40)}.pdf"
    u = (
        f"https://storage.googleapis.com/otter-press-proofs/{obj}?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        f"&X-Goog-Credential=proof-share%40otter-press.iam.gserviceaccount.com%2F2026{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
        f"%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=2026{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}T{rng.randint(10, 23)}0000Z"
        f"&X-Goog-Expires=604800&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return u, sig


def _azure(rng):
    k = _r(rng, B64, 86) + "=="
    acct = f"press{rng.choice(WORDS)}backup"
    return (
        f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={k};EndpointSuffix=core.windows.net",
        k,
    )


def _jwt(rng):
    h = base64.urlsafe_b64encode(b'{"alg":"RS256","typ":"JWT"}').decode().rstrip("=")
    body = f'{{"sub":"{rng.randint(1000, 99999)}","scope":"employee:all","exp":{rng.randint(1780000000, 1800000000)}}}'
    p = base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")
    return f"{h}.{p}.{_r(rng, B64U, 86)}"


def _wpapp(rng):
    return " ".join(_r(rng, AN, 4) for _ in range(6))


def _nc(rng):
    return "-".join(_r(rng, AN, 5) for _ in range(5))


def _apple_asp(rng):
    return "-".join(_r(rng, string.ascii_lowercase, 4) for _ in range(4))


def _wp_salt(rng):
    return _r(rng, AN + "!#$%&()*+,-.:;<=>?@[]^_`{|}~", 64)


def _django(rng):
    return _r(rng, string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)", 50)


ING_FTP = ["ftp.ingramcontent.com", "ftps.ingrambook.com"]
KINDS = {
    "shopify_admin_access_token": (
        "tok",
        "Shopify Admin API access token",
        "Shopify",
        "SHOPIFY_ADMIN_TOKEN",
        _same(lambda r: "shp" + "at_" + _r(r, HEX, 32)),
    ),
    "shopify_custom_app_token": (
        "tok",
        "Shopify custom app token",
        "Shopify",
        "SHOPIFY_CUSTOM_APP_TOKEN",
        _same(lambda r: "shp" + "ca_" + _r(r, HEX, 32)),
    ),
    "shopify_app_shared_secret": (
        "tok",
        "Shopify app shared secret",
        "Shopify",
        "SHOPIFY_API_SECRET",
        _same(lambda r: "shp" + "ss_" + _r(r, HEX, 32)),
    ),
    "woocommerce_consumer_secret": (
        "tok",
        "WooCommerce REST consumer secret",
        "WooCommerce",
        "WC_CONSUMER_SECRET",
        _same(lambda r: "c" + "s_" + _r(r, HEX, 40)),
    ),
    "wordpress_application_password": (
        "pw",
        "WordPress application password",
        "WordPress",
        "WP_APP_PASSWORD",
        _same(_wpapp),
    ),
    "wordpress_auth_key": (
        "tok",
        "wp-config AUTH_KEY salt",
        "WordPress",
        "AUTH_KEY",
        _same(_wp_salt),
    ),
    "woocommerce_db_password": (
        "pw",
        "WooCommerce MySQL password",
        "MySQL",
        "DB_PASSWORD",
        _same(_pw),
    ),
    "square_access_token": (
        "tok",
        "Square production access token",
        "Square",
        "SQUARE_ACCESS_TOKEN",
        _same(lambda r: "EAAA" + _r(r, B64U, 60)),
    ),
    "square_oauth_secret": (
        "tok",
        "Square OAuth application secret",
        "Square",
        "SQUARE_APP_SECRET",
        _same(lambda r: "sq0" + "csp-" + _r(r, B64U, 43)),
    ),
    "lightspeed_personal_token": (
        "tok",
        "Lightspeed Retail personal token",
        "Lightspeed",
        "LIGHTSPEED_TOKEN",
        _same(lambda r: "lsxs" + "_pt_" + _r(r, AN, 32)),
    ),
    "lightspeed_oauth_access_token": (
        "tok",
        "Lightspeed OAuth access token (JWT)",
        "Lightspeed",
        "LS_ACCESS_TOKEN",
        _same(_jwt),
    ),
    "lightspeed_admin_password": (
        "pw",
        "Lightspeed back-office password",
        "Lightspeed",
        "LS_ADMIN_PASSWORD",
        _same(_pw),
    ),
    "ingram_ftp_password": (
        "pw",
        "Ingram FTP password",
        "Ingram",
        "INGRAM_FTP_PASSWORD",
        _same(_pw),
    ),
    "ingram_ftp_url_password": (
        "url",
        "Ingram FTP URL",
        "Ingram",
        "INGRAM_FTP_URL",
        _url_pw(
            "ftp",
            ING_FTP,
            ["20461873", "marg_books", "otterpress"],
            lambda r: f"/outgoing/stock_{r.randint(1, 28):02d}.txt",
        ),
    ),
    "gardners_edi_password": (
        "pw",
        "Gardners EDI password",
        "Gardners",
        "GARDNERS_EDI_PASSWORD",
        _same(_pw),
    ),
    "gardners_sftp_url_password": (
        "url",
        "Gardners SFTP feed",
        "Gardners",
        "GARDNERS_SFTP_URL",
        _url_pw(
            "sftp",
            ["sftp.gardners.com", "edi.gardners.com"],
            ["MARG01", "QLANT2", "FOLIO9"],
            lambda r: f"/orders/in/PO{r.randint(10000, 99999)}.edi",
        ),
    ),
    "onix_upload_password": (
        "pw",
        "ONIX metadata upload password",
        "ONIX feed",
        "ONIX_SFTP_PASSWORD",
        _same(_pw),
    ),
    "lulu_client_secret": (
        "tok",
        "Lulu API client secret",
        "Lulu",
        "LULU_CLIENT_SECRET",
        _same(lambda r: _r(r, AN, 32)),
    ),
    "ingramspark_api_password": (
        "pw",
        "IngramSpark API password",
        "IngramSpark",
        "INGRAMSPARK_PASSWORD",
        _same(_pw),
    ),
    "kobo_partner_api_key": (
        "tok",
        "Kobo Writing Life partner API key",
        "Kobo",
        "KOBO_API_KEY",
        _same(lambda r: _r(r, HEX, 40)),
    ),
    "apple_app_specific_password": (
        "pw",
        "Apple ID app-specific password (Transporter)",
        "Apple Books",
        "ITMS_PASSWORD",
        _same(_apple_asp),
    ),
    "app_store_connect_p8_key": (
        "blk",
        "App Store Connect API key (.p8)",
        "Apple Books",
        "ASC_PRIVATE_KEY",
        _same(_p8),
    ),
    "google_service_account_key": (
        "json",
        "Google Play Books service account key",
        "Google Play Books",
        "GOOGLE_APPLICATION_CREDENTIALS",
        _gsa,
    ),
    "google_oauth_client_secret": (
        "tok",
        "Google OAuth client secret (Drive)",
        "Google Drive",
        "GOOGLE_CLIENT_SECRET",
        _same(lambda r: "GOC" + "SPX-" + _r(r, B64U, 28)),
    ),
    "stripe_secret_key": (
        "tok",
        "Stripe live secret key",
        "Stripe",
        "STRIPE_SECRET_KEY",
        _same(lambda r: "sk_" + "live_" + _r(r, AN, r.choice([24, 99]))),
    ),
    "stripe_restricted_key": (
        "tok",
        "Stripe restricted key",
        "Stripe",
        "STRIPE_RESTRICTED_KEY",
        _same(lambda r: "rk_" + "live_" + _r(r, AN, 99)),
    ),
    "stripe_webhook_secret": (
        "tok",
        "Stripe webhook signing secret",
        "Stripe",
        "STRIPE_WEBHOOK_SECRET",
        _same(lambda r: "wh" + "sec_" + _r(r, AN, 32)),
    ),
    "paypal_client_secret": (
        "tok",
        "PayPal REST client secret",
        "PayPal",
        "PAYPAL_CLIENT_SECRET",
        _same(lambda r: "E" + _r(r, B64U, 79)),
    ),
    "paypal_access_token": (
        "tok",
        "PayPal OAuth access token",
        "PayPal",
        "PAYPAL_ACCESS_TOKEN",
        _same(lambda r: "A21" + "AA" + _r(r, B64U, 92)),
    ),
    "avalara_license_key": (
        "tok",
        "Avalara AvaTax license key",
        "Avalara",
        "AVATAX_LICENSE_KEY",
        _same(lambda r: _r(r, "0123456789ABCDEF", 16)),
    ),
    "taxjar_api_token": (
        "tok",
        "TaxJar live API token",
        "TaxJar",
        "TAXJAR_API_KEY",
        _same(lambda r: _r(r, HEX, 32)),
    ),
    "mailchimp_api_key": (
        "tok",
        "Mailchimp API key",
        "Mailchimp",
        "MAILCHIMP_API_KEY",
        _same(lambda r: _r(r, HEX, 32) + "-us" + str(r.randint(1, 21))),
    ),
    "mandrill_api_key": (
        "tok",
        "Mailchimp Transactional (Mandrill) key",
        "Mandrill",
        "MANDRILL_KEY",
        _same(lambda r: "md" + "-" + _r(r, B64U, 22)),
    ),
    "buttondown_api_key": (
        "tok",
        "Buttondown API key",
        "Buttondown",
        "BUTTONDOWN_API_KEY",
        _same(_uuid),
    ),
    "ghost_admin_api_key": (
        "tok",
        "Ghost Admin API key",
        "Ghost",
        "GHOST_ADMIN_API_KEY",
        _same(lambda r: _r(r, HEX, 24) + ":" + _r(r, HEX, 64)),
    ),
    "findaway_api_key": (
        "tok",
        "Findaway Voices API key",
        "Findaway",
        "FINDAWAY_API_KEY",
        _same(lambda r: _r(r, AN, 40)),
    ),
    "xero_client_secret": (
        "tok",
        "Xero app client secret",
        "Xero",
        "XERO_CLIENT_SECRET",
        _same(lambda r: _r(r, B64U, 48)),
    ),
    "quickbooks_client_secret": (
        "tok",
        "QuickBooks Online client secret",
        "QuickBooks",
        "QBO_CLIENT_SECRET",
        _same(lambda r: _r(r, AN, 40)),
    ),
    "quickbooks_refresh_token": (
        "tok",
        "QuickBooks refresh token",
        "QuickBooks",
        "QBO_REFRESH_TOKEN",
        _same(lambda r: "AB11" + str(r.randint(10**9, 10**10 - 1)) + _r(r, AN, 36)),
    ),
    "dropbox_access_token": (
        "tok",
        "Dropbox access token",
        "Dropbox",
        "DROPBOX_TOKEN",
        _same(lambda r: "sl." + _r(r, B64U, 138)),
    ),
    "dropbox_app_secret": (
        "tok",
        "Dropbox app secret",
        "Dropbox",
        "DROPBOX_APP_SECRET",
        _same(lambda r: _r(r, LO, 15)),
    ),
    "nextcloud_app_password": (
        "pw",
        "Nextcloud app password",
        "Nextcloud",
        "NEXTCLOUD_APP_PASSWORD",
        _same(_nc),
    ),
    "nextcloud_admin_password": (
        "pw",
        "Nextcloud admin password",
        "Nextcloud",
        "NC_ADMIN_PASSWORD",
        _same(_pw),
    ),
    "typesetting_server_ssh_key": (
        "blk",
        "typesetting server deploy key",
        "typesetting server",
        "TYPESET_SSH_KEY",
        _same(_openssh),
    ),
    "typesetting_rsa_private_key": (
        "blk",
        "LaTeX build box RSA key",
        "typesetting server",
        "BUILD_RSA_KEY",
        _same(_rsa),
    ),
    "shop_wifi_psk": (
        "pw",
        "staff Wi-Fi WPA2 passphrase",
        "Wi-Fi",
        "WIFI_PSK",
        _same(_pw),
    ),
    "camera_rtsp_password": (
        "url",
        "till camera RTSP stream",
        "camera NVR",
        "CAMERA_RTSP_URL",
        _url_pw(
            "rtsp",
            ["192.168.20.31:554", "10.0.4.12:554", "cam-till.local:554"],
            ["admin", "viewer", "nvr"],
            lambda r: f"/Streaming/Channels/{r.randint(1, 4)}01",
        ),
    ),
    "printer_admin_password": (
        "pw",
        "receipt printer web admin password",
        "printer",
        "PRINTER_ADMIN_PASSWORD",
        _same(_pw),
    ),
    "router_admin_password": (
        "pw",
        "shop router admin password",
        "router",
        "ROUTER_PASSWORD",
        _same(_pw),
    ),
    "nas_admin_password": (
        "pw",
        "Synology NAS admin password",
        "NAS",
        "NAS_PASSWORD",
        _same(_pw),
    ),
    "postgres_url_password": (
        "url",
        "reporting Postgres DSN",
        "Postgres",
        "DATABASE_URL",
        _url_pw(
            "postgresql",
            ["db.internal:5432", "10.0.3.7:5432", "reports-db.local:5432"],
            ["shop", "reporting", "metabase"],
            lambda r: f"/{r.choice(['shop', 'sales', 'press'])}",
        ),
    ),
    "mysql_url_password": (
        "url",
        "WooCommerce MySQL DSN",
        "MySQL",
        "WC_DB_URL",
        _url_pw(
            "mysql",
            ["127.0.0.1:3306", "wp-db.internal:3306"],
            ["wp_shop", "woo"],
            lambda r: "/wordpress",
        ),
    ),
    "redis_url_password": (
        "url",
        "cart cache Redis URL",
        "Redis",
        "REDIS_URL",
        _url_pw(
            "redis",
            ["cache.internal:6379", "10.0.3.9:6379"],
            ["default", "cart"],
            lambda r: f"/{r.randint(0, 3)}",
        ),
    ),
    "github_pat": (
        "tok",
        "GitHub personal access token",
        "GitHub",
        "GITHUB_TOKEN",
        _same(lambda r: "gh" + "p_" + _r(r, AN, 36)),
    ),
    "github_fine_grained_pat": (
        "tok",
        "GitHub fine-grained token",
        "GitHub",
        "GH_PAT",
        _same(lambda r: "github" + "_pat_" + _r(r, AN, 22) + "_" + _r(r, AN, 59)),
    ),
    "gitlab_pat": (
        "tok",
        "GitLab personal access token",
        "GitLab",
        "GITLAB_TOKEN",
        _same(lambda r: "gl" + "pat-" + _r(r, B64U, 20)),
    ),
    "slack_webhook_url": (
        "url",
        "Slack #orders webhook",
        "Slack",
        "SLACK_WEBHOOK_URL",
        _slack,
    ),
    "discord_webhook_url": (
        "url",
        "Discord #press webhook",
        "Discord",
        "DISCORD_WEBHOOK",
        _discord,
    ),
    "slack_bot_token": (
        "tok",
        "Slack bot token",
        "Slack",
        "SLACK_BOT_TOKEN",
        _same(
            lambda r: (
                "xo"
                + "xb-"
                + str(r.randint(10**11, 10**12))
                + "-"
                + str(r.randint(10**12, 10**13))
                + "-"
                + _r(r, AN, 24)
            )
        ),
    ),
    "sendgrid_api_key": (
        "tok",
        "SendGrid API key",
        "SendGrid",
        "SENDGRID_API_KEY",
        _same(lambda r: "S" + "G." + _r(r, B64U, 22) + "." + _r(r, B64U, 43)),
    ),
    "mailgun_api_key": (
        "tok",
        "Mailgun API key",
        "Mailgun",
        "MAILGUN_API_KEY",
        _same(lambda r: "ke" + "y-" + _r(r, HEX, 32)),
    ),
    "postmark_server_token": (
        "tok",
        "Postmark server token",
        "Postmark",
        "POSTMARK_SERVER_TOKEN",
        _same(_uuid),
    ),
    "twilio_auth_token": (
        "tok",
        "Twilio auth token",
        "Twilio",
        "TWILIO_AUTH_TOKEN",
        _same(lambda r: _r(r, HEX, 32)),
    ),
    "gcs_signed_url_signature": (
        "url",
        "signed proof download link",
        "Google Cloud Storage",
        "PROOF_LINK",
        _gcs,
    ),
    "azure_storage_account_key": (
        "url",
        "Azure backup storage connection string",
        "Azure Storage",
        "AZURE_STORAGE_CONNECTION_STRING",
        _azure,
    ),
    "openai_api_key": (
        "tok",
        "OpenAI API key (blurb drafts)",
        "OpenAI",
        "OPENAI_API_KEY",
        _same(lambda r: "sk-" + "proj-" + _r(r, B64U, 74) + "T3Blbk" + "FJ" + _r(r, B64U, 74)),
    ),
    "anthropic_api_key": (
        "tok",
        "Anthropic API key",
        "Anthropic",
        "ANTHROPIC_API_KEY",
        _same(lambda r: "sk-" + "ant-api03-" + _r(r, B64U, 93) + "AA"),
    ),
    "cloudflare_api_token": (
        "tok",
        "Cloudflare API token",
        "Cloudflare",
        "CF_API_TOKEN",
        _same(lambda r: _r(r, B64U, 40)),
    ),
    "django_secret_key": (
        "tok",
        "press site Django SECRET_KEY",
        "Django",
        "DJANGO_SECRET_KEY",
        _same(_django),
    ),
    "easypost_api_key": (
        "tok",
        "EasyPost production key",
        "EasyPost",
        "EASYPOST_API_KEY",
        _same(lambda r: "EZ" + "AK" + _r(r, HEX, 32) + _r(r, AN, 22)),
    ),
    "shippo_api_token": (
        "tok",
        "Shippo live token",
        "Shippo",
        "SHIPPO_API_TOKEN",
        _same(lambda r: "shippo" + "_live_" + _r(r, HEX, 40)),
    ),
    "amazon_lwa_refresh_token": (
        "tok",
        "Amazon SP-API refresh token",
        "Amazon Seller",
        "SP_API_REFRESH_TOKEN",
        _same(lambda r: "Atzr" + "|" + _r(r, B64U, 120)),
    ),
    "npm_access_token": (
        "tok",
        "npm automation token",
        "npm",
        "NPM_TOKEN",
        _same(lambda r: "np" + "m_" + _r(r, AN, 36)),
    ),
    "docker_hub_pat": (
        "tok",
        "Docker Hub access token",
        "Docker Hub",
        "DOCKERHUB_TOKEN",
        _same(lambda r: "dckr" + "_pat_" + _r(r, B64U, 27)),
    ),
    "age_secret_key": (
        "tok",
        "age secret key for sops",
        "sops",
        "SOPS_AGE_KEY",
        _same(lambda r: "AGE-" + "SECRET-KEY-1" + _r(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
    ),
    "smtp_password": (
        "pw",
        "shop mailbox SMTP password",
        "SMTP",
        "SMTP_PASSWORD",
        _same(_pw),
    ),
}

# ---------------------------------------------------------------- templates
# (styles, template). Fields: label svc env key value who who2 host shop shopslug date time iso n
# ticket season region user
T_ALL = {"tok", "pw", "url"}
TEMPLATES = [
    (
        T_ALL,
        "Note {date}: {label} for {shop} is {value} (rotate after the {season} rush).",
    ),
    (
        T_ALL,
        "Lesson learned: the {svc} sync failed all night because {env} was stale. Correct value is {value} - check it first next time.",
    ),
    (
        T_ALL,
        "TODO({who}): move the {label} out of this note into the vault.\ncurrent: {value}",
    ),
    (
        T_ALL,
        "Handover for {who2} ({date})\n- {svc}: creds below, dashboard at https://{host}/admin\n- {env}={value}\n- restock job runs at 06:00",
    ),
    (
        T_ALL,
        "[{ticket}] {svc} integration down at {shop}\nReporter: {who}\nSteps: reran importer, got 401.\nFix: updated {label} to {value} and restarted the worker.",
    ),
    (
        T_ALL,
        "From: {who}@{shopslug}.co.uk\nTo: ops@{shopslug}.co.uk\nSubject: {svc} access\n\nHi {who2},\n\nthe new {label} is {value}\nplease don't forward this.\n\nThanks",
    ),
    (
        T_ALL,
        "[{time}] {who}: does anyone have the {svc} creds for the {season} campaign?\n[{time}] {who2}: {value}\n[{time}] {who}: got it, thanks",
    ),
    (
        T_ALL,
        "Runbook: nightly stock sync ({svc})\n1. ssh deploy@{host}\n2. export {env}='{value}'\n3. ./sync_inventory.sh --since {date}\n4. check #orders for errors",
    ),
    (
        T_ALL,
        "Mémo {date} : {label} pour {shop} = {value} (ne pas partager, à changer après {season}).",
    ),
    (
        T_ALL,
        "Notiz: {label} für {shop} lautet {value} - bitte nach der Inventur erneuern.",
    ),
    (
        T_ALL,
        "メモ（{date}）: {svc} の認証情報は {value} です。共有しないこと。担当: {who}",
    ),
    (
        T_ALL,
        "Nota per a {who2}: la credencial de {svc} és {value}; canvieu-la després de Sant Jordi.",
    ),
    (
        T_ALL,
        "Σημείωση: τα στοιχεία {svc} για το {shop} είναι {value} - μην τα μοιραστείς.",
    ),
    (
        T_ALL,
        "Decision {date}: keep {svc} on the shared account for now. {env} = {value}. Revisit in Q{n1}.",
    ),
    (T_ALL, "# {svc} ({shop})\n{env}={value}\nSHOP_ID={n}\nLOG_LEVEL=info\n"),
    (
        T_ALL,
        '{{\n  "service": "{svcslug}",\n  "store": "{shopslug}",\n  "{key}": "{value}",\n  "timeout": {n}\n}}',
    ),
    (
        T_ALL,
        "{svcslug}:\n  enabled: true\n  store: {shopslug}\n  {key}: {value}\n  region: {region}\n",
    ),
    (T_ALL, "[{svcslug}]\nstore = {shopslug}\n{key} = {value}\nretries = 3\n"),
    (
        T_ALL,
        "<?php\n/** {svc} for the shop */\ndefine( '{env}', '{value}' );\ndefine( 'WP_DEBUG', false );",
    ),
    (
        T_ALL,
        '# settings/production.py\n{env} = "{value}"  # FIXME read from env\nSHOP_TIMEZONE = "Europe/London"',
    ),
    (
        T_ALL,
        "# ~/.bashrc on {host}\nexport PATH=$HOME/bin:$PATH\nexport {env}=\"{value}\"\nalias sync='python3 ~/bin/sync.py'",
    ),
    (
        T_ALL,
        "{iso} INFO  [{svcslug}-sync] loaded config {key}={value} store={shopslug}\n{iso} INFO  [{svcslug}-sync] {n} records pending",
    ),
    (
        T_ALL,
        "Run ./scripts/deploy_storefront.sh\n  env:\n    {env}: {value}\n    SHOP: {shopslug}\n+ ./scripts/deploy_storefront.sh --env production\nDeploy finished in {n}s",
    ),
    (
        T_ALL,
        "shop=# SELECT name, value FROM integration_settings WHERE name = '{key}';\n name | value\n------+------\n {key} | {value}\n(1 row)",
    ),
    (
        T_ALL,
        "$ {svcslug}-cli config set {key} {value}\nsaved to ~/.config/{svcslug}/config.json\n$ {svcslug}-cli whoami\n{user} ({shop})",
    ),
    (
        {"tok"},
        "$ curl -v https://{host}/v1/orders?limit=50\n> GET /v1/orders?limit=50 HTTP/2\n> Host: {host}\n> Authorization: Bearer {value}\n> User-Agent: curl/8.5.0\n< HTTP/2 200\n< content-type: application/json",
    ),
    (
        {"tok"},
        "{iso} DEBUG http: request headers={{'X-Api-Key': '{value}', 'Accept': 'application/json'}} url=https://{host}/api/products",
    ),
    (
        {"pw"},
        "$ lftp -u {user},'{value}' sftp://{host}\nlftp {user}@{host}:~> cd outgoing\nlftp {user}@{host}:/outgoing> mget *.xml\n{n} bytes transferred",
    ),
    (
        {"pw"},
        "$ ftp {host}\nName: {user}\n331 Password required for {user}\nPassword: {value}\n230 User {user} logged in.",
    ),
    (
        {"pw"},
        "$ curl -v -u {user}:{value} https://{host}/api/status\n* Connected to {host} port 443\n< HTTP/1.1 200 OK",
    ),
    (
        {"pw"},
        "$ mysql -h {host} -u {user} -p'{value}' wordpress\nmysql> SELECT COUNT(*) FROM wp_posts WHERE post_type='product';\n{n}",
    ),
    (
        {"url"},
        "$ curl -sS -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"order #{n} shipped\"}}' '{value}'\nok",
    ),
    (
        {"blk", "json"},
        "Saved the {label} for {shop} here so we don't lose it again ({date}):\n{value}",
    ),
    ({"blk"}, "$ cat ~/.ssh/{user}_deploy\n{value}\n$ chmod 600 ~/.ssh/{user}_deploy"),
    (
        {"blk"},
        "[{ticket}] {svc} access for {who2}\n{who} wrote: key pasted below, please install it on {host}.\n\n{value}\n\nThanks!",
    ),
    ({"blk"}, '{env}="{value}"\nHOST={host}\n'),
    (
        {"blk", "json"},
        "Handover ({date}): {label} - {who} generated it on {host}.\n\n{value}\n\nDo not email this.",
    ),
    (
        {"blk"},
        "[{time}] {who}: here is the {label}\n{value}\n[{time}] {who2}: thanks, installed",
    ),
    ({"blk", "json"}, "Mémo : clé {label} (ne pas diffuser)\n{value}"),
    (
        {"json"},
        "$ cat secrets/{shopslug}-playbooks.json\n{value}\n$ gcloud auth activate-service-account --key-file secrets/{shopslug}-playbooks.json",
    ),
    ({"json"}, "# ticket {ticket}: Play Books feed credentials\n```json\n{value}\n```"),
]

REGIONS = ["eu-west-1", "europe-west2", "us-east-1", "ap-northeast-1"]


def _ctx(rng, kind, style, label, svc, env, shown):
    who, who2 = rng.sample(PEOPLE, 2)
    shop = rng.choice(SHOPS)
    slug = shop.lower().replace(" & ", "-").replace(" ", "-")
    svcslug = svc.lower().replace(" ", "-")
    return {
        "label": label,
        "svc": svc,
        "env": env,
        "key": env.lower(),
        "value": shown,
        "who": who,
        "who2": who2,
        "shop": shop,
        "shopslug": slug,
        "svcslug": svcslug,
        "host": f"{rng.choice(['api', 'edi', 'ftp', 'sync', 'pos', 'books'])}.{svcslug.replace('-', '')}.{rng.choice(['com', 'net', 'io'])}",
        "user": rng.choice([who, f"{slug[:6]}{rng.randint(1, 99)}", f"acct{rng.randint(10000, 99999)}"]),
        "date": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "time": f"{rng.randint(8, 19):02d}:{rng.randint(0, 59):02d}",
        "iso": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z",
        "n": rng.randint(3, 9000),
        "n1": rng.randint(1, 4),
        "ticket": f"{rng.choice(['OPS', 'SHOP', 'PRESS', 'IT'])}-{rng.randint(100, 2999)}",
        "season": rng.choice(SEASONS),
        "region": rng.choice(REGIONS),
    }


# ---------------------------------------------------------------- look-alikes
_FILL = {
    "h": lambda r, n: _r(r, HEX, n),
    "H": lambda r, n: _r(r, "0123456789ABCDEF", n),
    "a": lambda r, n: _r(r, AN, n),
    "A": lambda r, n: _r(r, UP, n),
    "l": lambda r, n: _r(r, LO, n),
    "d": lambda r, n: str(r.randint(10 ** (n - 1), 10**n - 1)),
    "b": lambda r, n: _r(r, B64, n),
    "bu": lambda r, n: _r(r, B64U, n),
    "bc": lambda r, n: _r(r, BCR, n),
    "u": lambda r, n: _uuid(r),
    "U": lambda r, n: _uuid(r).upper(),
    "who": lambda r, n: r.choice(PEOPLE),
    "shop": lambda r, n: r.choice(SHOPS),
    "w": lambda r, n: r.choice(WORDS),
    "city": lambda r, n: r.choice(CITIES),
    "date": lambda r, n: f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    "isbn": lambda r, n: "978" + str(r.randint(10**9, 10**10 - 1)),
    "png": lambda r, n: "iVBORw0KGgoAAAANSUhEUgAA" + _r(r, B64, 4 * r.randint(20, 40)),
    "txt64": lambda r, n: base64.b64encode(
        (" ".join(r.choice(WORDS) for _ in range(r.randint(8, 20)))).encode()
    ).decode(),
    "hexlines": lambda r, n: "\n".join(_r(r, "0123456789", 80) for _ in range(r.randint(3, 6))),
}
_PH = re.compile(r"\{(bu|bc|txt64|hexlines|png|who|shop|w|city|date|isbn|[hHaAldbuU])(\d*)\}")


def _fill(rng, tpl):
    out = _PH.sub(lambda m: _FILL[m.group(1)](rng, int(m.group(2) or 0)), tpl)
    return out.replace("{{", "{").replace("}}", "}")


_PK = "pk" + "_live_"
_LOOK_TPL = [
    "Deployed the {shop} theme from commit {h40}; rollback target is {h7}.",
    "$ sha256sum onix_{date}.xml\n{h64}  onix_{date}.xml",
    "md5 of the EPUB sent to Kobo: {h32}  ebooks/{isbn}.epub",
    "Stripe said request req_{a14} failed with card_declined for order #{d5}.",
    "Product gid://shopify/Product/{d13} (variant gid://shopify/ProductVariant/{d14}) has no ISBN.",
    "Lightspeed sale {u} synced to Xero invoice INV-{d5}.",
    "cover thumbnail: data:image/png;base64,{png}",
    "Theme JS config (publishable, fine in the browser):\nSTRIPE_PUBLISHABLE_KEY=" + _PK + "{a99}",
    "Storefront API token is public by design (used in theme JS): storefrontToken: '{h32}' for {shop}",
    "Square Web Payments SDK: applicationId 'sq0idp-{bu22}', locationId 'L{A13}'",
    "GOOGLE_OAUTH_CLIENT_ID={d12}-{l32}.apps.googleusercontent.com  # client id only, secret in vault",
    'const firebaseConfig = {{ apiKey: "AIza{bu35}", authDomain: "press-{w}.firebaseapp.com", projectId: "press-{w}" }};',
    "SENTRY_DSN=https://{h32}@o{d6}.ingest.sentry.io/{d7}",
    "ALGOLIA_APP_ID={A10}\nALGOLIA_SEARCH_ONLY_KEY={h32}  # search-only, safe for the catalogue page",
    "reCAPTCHA site key for the newsletter form: 6L{bu38}",
    "# {shop} staging\nSTRIPE_SECRET_KEY=<your-stripe-secret-key>\nSTORE_ID={d6}",
    "environment:\n  - MAILCHIMP_API_KEY=${{MAILCHIMP_API_KEY}}\n  - SHOP_ID={d5}",
    "- name: Deploy theme\n  env:\n    SHOPIFY_CLI_THEME_TOKEN: ${{{{ secrets.SHOPIFY_THEME_TOKEN }}}}\n    STORE: {w}-books.myshopify.com",
    'pwd = Variable.get("ingram_ftp_password")  # dag onix_{w}_{d3}',
    'key = dbutils.secrets.get(scope="bookshop-{w}", key="stripe-secret")',
    "$ vault kv get -field=license_key secret/bookshop/{w}/avalara\n(see runbook {d3}; output not stored)",
    "Required env vars: STRIPE_SECRET_KEY, PAYPAL_CLIENT_SECRET, XERO_CLIENT_SECRET (all in 1Password vault '{w}-{d2}').",
    "$ANSIBLE_VAULT;1.1;AES256\n{hexlines}",
    "smtp_password: ENC[AES256_GCM,data:{b24},iv:{b43}=,tag:{b22}==,type:str]",
    "wp_users row {d3}: user_pass = $2y$10${bc53}",
    "nextcloud oc_users hash: 3|$argon2id$v=19$m=65536,t=4,p=1${b22}${b43}",
    "WordPress legacy hash for {who}: $P$B{bc31}",
    "Typesetting box host key fingerprint: SHA256:{b43} (ED25519)",
    'gpg: key {H16}: public key "Otter Press Releases <press@{w}.books>" imported',
    "Stripe dashboard shows the live key only as sk_live_...{a4} - {who} has the full one.",
    "{date} 10:{d2}:01 auth ok user={who} password=******** ip=10.0.{d1}.{d2}",
    '{{"cell_type": "code", "execution_count": {d2}, "id": "{h8}", "outputs": []}}',
    "ISBNs for the {w} reprint: {isbn}, {isbn}, {isbn}",
    "<RecordReference>com.otterpress.{d13}</RecordReference>\n<ProductIdentifier><IDValue>{isbn}</IDValue></ProductIdentifier>",
    "xero-tenant-id: {u} (org: {shop})",
    "QuickBooks realmId={d19}, company '{shop}'",
    "PAYPAL_CLIENT_ID=A{bu79}  # public client id used by the JS SDK",
    "Mailchimp audience id {h10}, campaign web id {d6}",
    "image: ghcr.io/otterpress/typeset@sha256:{h64}",
    '"integrity": "sha512-{b86}=="',
    '< ETag: W/"{h32}"\n< X-Request-Id: {u}',
    "Stripe ids for the refund: cus_{a14}, ch_{a24}, evt_{a24}",
    "Royal Mail tracking for order {d5}: {A2}{d9}GB",
    "Manuscript: https://docs.google.com/document/d/{bu44}/edit (shared with editors)",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE{b64}\n{b20}==\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIU{b64}\n{b64}\n{b36}\n-----END CERTIFICATE-----",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b43} {who}@typeset",
    "typeset.otterpress.local ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{b80}=",
    "Guest Wi-Fi: SSID {shop} Guest - the password is on the card by the till (not stored here). Channel {d1}.",
    "DB_PASSWORD=changeme  # dev placeholder for {w}, real one is in the vault",
    "A/B test for the {w} landing page: experiment run id {l8}, variant B won.",
    "cache key shop:v2:catalog:{h16} evicted at {date}",
    "Shopify theme id {d12} is live; previous {d12} kept as backup.",
    "Connected Stripe account acct_{a16} for the {city} shop.",
    "AVALARA_ACCOUNT_ID={d10}\nAVALARA_COMPANY_CODE={A6}\n# license key lives in the vault",
    "TAXJAR_API_URL=https://api.sandbox.taxjar.com  # {w} test",
    "Lightspeed domain prefix for {city}: {w}books{d2}",
    "GHOST_CONTENT_API_KEY={h26}  # read-only content key, public in the theme",
    "env:\n  - name: STRIPE_SECRET_KEY\n    valueFrom:\n      secretKeyRef:\n        name: stripe-{w}\n        key: secret-key",
    "$ aws ssm get-parameter --name /shop/{w}/stripe --with-decryption --query Parameter.Version\n{d2}",
    "STRIPE_SECRET_KEY=op://Bookshop/Stripe-{w}/credential",
    "$ doppler secrets get PAYPAL_CLIENT_SECRET --plain --project shop-{w} > /dev/null && echo ok\nok",
    "Brand colours for the {w} imprint: #{h6}, #{h6}, #{h6}",
    '<script src="/assets/theme.{h8}.js" integrity="sha384-{b64}"></script>',
    "Apple Books: Team ID {A10}, API Key ID {A10}, issuer {u} (the .p8 itself is in the vault)",
    "Google Play Books partner id {d20}, {d3} titles live",
    "LULU_CLIENT_KEY={u}  # OAuth client id; secret stored separately",
    "IngramSpark title id {d8} for ISBN {isbn}",
    "Gardners account no. {A4}{d4}, SAN {d7}",
    "UNB+UNOC:3+5013546{d6}:14+5030670{d6}:14+260{d3}:1{d3}+{d6}'\nUNH+1+ORDERS:D:96A:UN:EAN008'",
    "$ lftp -u MARG{d2} sftp://sftp.gardners.com\nPassword:\nlftp MARG01@sftp.gardners.com:~> ls orders\n{d3} files",
    '$ curl -v -H "Authorization: Bearer $XERO_TOKEN" https://api.xero.com/api.xro/2.0/Invoices?page={d1}&where=Status%3D%22{A5}%22\n< HTTP/1.1 200 OK',
    "{date}T09:{d2}:00Z INFO paypal-sync token refreshed client_secret=[REDACTED] expires_in={d5}",
    "version https://git-lfs.github.com/spec/v1\noid sha256:{h64}\nsize {d7}",
    "Receipt printer {w}: MAC {H2}:{H2}:{H2}:{H2}:{H2}:{H2}, serial {A12}",
    "ONVIF device uuid {u} (till camera {d1})",
    "nextcloud config: 'instanceid' => 'oc{l10}', 'version' => '28.0.{d1}'",
    'SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]  # press site, see {w}.md',
    'variable "stripe_secret_key" {{\n  type      = string\n  sensitive = true\n}}\n# workspace {w}-{d2}',
    "Embeddings for catalogue search: sentence-transformers/all-MiniLM-L6-v2 @ revision {h40}",
    "Invoice INV-{d6} paid via Stripe payout po_{a24}",
    "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n{txt64}",
    "Mailchimp campaign {h10} sent to {d4} subscribers",
    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZ{b60}\n{b60}\n={b4}\n-----END PGP PUBLIC KEY BLOCK-----",
    "Till QR payload for gift card lookup: GC-{A12} (balance check only)",
    "curl -v -H 'Idempotency-Key: {u}' https://api.stripe.com/v1/refunds -u \"$STRIPE_SECRET_KEY:\"",
    "X-Shopify-Hmac-Sha256: {b43}=\nX-Shopify-Topic: orders/create\nX-Shopify-Webhook-Id: {u}",
    "Stripe-Signature: t=17{d8},v1={h64}",
    "Content-Security-Policy: script-src 'nonce-{b22}' https://cdn.shopify.com",
    "Card ending **** **** **** {d4} declined at {city} till.",
    "Password policy for staff accounts: 12+ chars, one digit, rotate every {d2} weeks ({who}).",
    "Password reset link sent to {who}@{w}books.co.uk at {date}.",
    "$ security find-generic-password -s 'IngramSpark' -a {who} -w >/dev/null; echo $?\n0",
    "commit {h40}\n    rotate stripe key (old key revoked by {who})",
    "square webhook subscription id wbhk_{h32} created for inventory.count.updated",
    "IngramSpark order confirmation {A3}-{d8}-{d4}",
    "Kobo content id {u} for ISBN {isbn}",
    'JWT header we expect from Lightspeed: {{"alg":"RS256","kid":"{h16}"}} (kid is just the key id)',
    "API key id (not the secret): key_{l24}, created {date} by {who}",
    "Stripe webhook endpoint id we_{a24} -> https://{w}books.co.uk/hooks/stripe",
    "Slack channel for orders: C{A10}, workspace T{A10}",
    "Docker build cache id: {h64}",
    "Findaway title id {d7}, ACX asin B0{A8}",
    "Xero: webhook signing key is stored in the vault under xero/{w}; payload sig example header x-xero-signature: {b43}=",
    "printer setup notes: admin password = <set on first boot>, SNMP community 'public', fw {d1}.{d2}.{d3}",
    'wifi.conf\nssid="{shop} Staff"\npsk=${{WIFI_PSK}}\nkey_mgmt=WPA-PSK\n# AP {w}-{d2}',
    "RTSP stream: rtsp://<user>:<password>@192.168.20.{d2}:554/Streaming/Channels/101",
    "DATABASE_URL=postgresql://shop:${{DB_PASSWORD}}@db.internal:5432/{w}",
    "MAILCHIMP_API_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx-us{d2}  # example from the {w} docs",
    "Argon2 test vector from the docs: salt={b22}, output hash len 32, iterations {d1}",
    "session id sess_{h32} expired after {d2} min idle (logged out {who})",
    "Google Drive folder id for manuscripts: {bu33}",
    "Dropbox file rev {h9}{d6} of cover_{w}.indd",
    "Blurb generation run {l12} finished: model gpt-4o-mini, {d3} blurbs",
    "hashed_password: pbkdf2_sha256$600000${a22}${b43}=",
    "sops: age recipient age1{l58} (public key; private key is on {who}'s laptop only)",
]


def _mk_look(tpl):
    def gen(rng):
        return _fill(rng, tpl)

    return gen


_LOOK = [_mk_look(t) for t in _LOOK_TPL]

PER_KIND = 30


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    rng = random.Random(f"ay-{seed}")
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind, (style, label, svc, env, fn) in KINDS.items():
        tpls = [t for s, t in TEMPLATES if style in s]
        got = 0
        i = rng.randrange(len(tpls))
        while got < PER_KIND:
            shown, secret = fn(rng)
            text = tpls[i % len(tpls)].format(**_ctx(rng, kind, style, label, svc, env, shown))
            i += 1
            if text in seen or secret not in text:
                continue
            seen.add(text)
            positives.append((text, kind, secret))
            got += 1
    lookalikes: list[str] = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 500:
                raise RuntimeError("look-alike generator cannot produce distinct texts")
            text = gen(rng)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
