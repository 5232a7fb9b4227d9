"""Labelled test set AR for a secret detector: translation agency + localization vendor memories.

Theme: notes, lessons, runbooks, tickets, chat, configs and tool output that an AI coding agent keeps for a
translation agency and its localization subcontractor (CAT/TMS tools such as memoQ, Trados GroupShare, Phrase
TMS, Smartling, Lokalise, Transifex, XTM; MT engines such as DeepL, Google Cloud Translation, Azure Translator,
ModernMT; Plunet, XTRF, Xero, Stripe; SFTP, WeTransfer, Box, Dropbox, SharePoint; Zoom, KUDO, Interprefy;
Microsoft 365, Google Workspace, WordPress, Postgres, Jira, Confluence, Slack and Teams webhooks).
Languages: mostly English, some Finnish, Ukrainian, Arabic, European Portuguese, Romanian, Simplified Chinese.

Contract:
    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
    positives: list of (text, kind, secret); secret is an exact substring of text; one secret per text;
               30 positives per kind.
    lookalikes: texts with no credential; len == len(_LOOK) * LOOK_PER_GEN.
Deterministic per seed (random.Random seeded from seed only); no duplicate texts in the whole output.

Labelling conventions:
    * webhook URLs -> the final path token is the secret; connection strings / basic-auth URLs -> password
      only; pre-signed URLs -> the signature; PEM / OpenSSH / PGP private keys -> whole armoured block.
    * UUID-shaped vendor tokens are secrets only when the text names them as token/key/secret.
    * public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids,
      Firebase web apiKeys, search-only keys, public certificates), vendor doc examples, encrypted blobs,
      password hashes, placeholders and references to secret stores are look-alikes.
    * bare AWS access key ids are left out entirely.
    * every token-shaped value is assembled at run time from pieces and random bodies.
"""

from __future__ import annotations

import base64
import random
import string
import uuid

LOOK_PER_GEN = 12
PER_KIND = 30

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
HEX = "0123456789abcdef"
ALNUM = LOW + UP + DIG
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


def _s(r: random.Random, n: int, alpha: str = ALNUM) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def _uuid(r: random.Random) -> str:
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()


# ---------------------------------------------------------------- context pools
CLIENTS = [
    "Nordlys Pharma",
    "Kalevala Games",
    "Atlantico Seguros",
    "Carpathia Bank",
    "Dnipro Agro",
    "Lumen Medical",
    "Sahara Logistics",
    "Tejo Energia",
    "Huaxin Robotics",
    "Baltic Legal",
    "Aurora Fintech",
    "Porto Vinhos",
    "Cluj Software",
    "Riyadh Retail",
    "Helsinki Design Week",
]
PEOPLE = [
    "anna",
    "mikko",
    "olena",
    "khalid",
    "joana",
    "ioana",
    "wei",
    "tomas",
    "liisa",
    "rui",
    "sara",
    "bogdan",
]
PROJECTS = [
    "IFU batch 7",
    "app strings Q3",
    "annual report",
    "clinical trial ICFs",
    "website relaunch",
    "game patch 2.4",
    "legal DD pack",
    "e-learning SCORM",
    "subtitles S02",
    "patent family EP-44",
]
LANGS = [
    "fi-FI",
    "uk-UA",
    "ar-SA",
    "pt-PT",
    "ro-RO",
    "zh-CN",
    "de-DE",
    "sv-SE",
    "pl-PL",
    "fr-FR",
]
HOSTS = [
    "files.lingvista.eu",
    "tms.lingvista.eu",
    "sftp.nordlys-pharma.com",
    "db.lingvista.internal",
    "memoq.lingvista.eu",
    "gs.polyglot-vendor.ro",
    "ftp.carpathia-bank.ro",
    "xfer.tejo-energia.pt",
]
USERS = [
    "pm_anna",
    "loc-bot",
    "lingvista",
    "vendor_ro",
    "svc_tms",
    "ops",
    "translator01",
    "wpadmin",
]
WORDS = [
    "tulip",
    "rover",
    "harbor",
    "maple",
    "falcon",
    "birch",
    "comet",
    "pepper",
    "lagoon",
    "saffron",
    "nordic",
    "cactus",
    "violet",
    "ember",
    "glacier",
    "mango",
    "orbit",
    "quartz",
    "sauna",
    "olive",
]
SEASONS = ["Summer", "Winter", "Spring", "Autumn", "Kesa", "Talvi", "Verao", "Iarna"]


def _password(r: random.Random) -> str:
    style = r.randrange(6)
    if style == 0:
        return r.choice(SEASONS) + str(r.randint(2019, 2027)) + r.choice("!#$%?")
    if style == 1:
        w = r.sample(WORDS, 2)
        return f"{w[0]}-{w[1].capitalize()}-{r.randint(10, 99)}"
    if style == 2:
        return _s(r, r.randint(14, 20), ALNUM + "!#%*-_+?")
    if style == 3:
        return "-".join(r.sample(WORDS, 4)) + str(r.randint(1, 9))
    if style == 4:
        c = r.choice(CLIENTS).split()[0]
        return f"{c}@{r.randint(2020, 2026)}{r.choice(['!', '#', '.', ''])}{r.randint(1, 99)}"
    return r.choice(WORDS).capitalize() + r.choice("!@#.") + _s(r, 3, DIG) + r.choice(WORDS)


# ---------------------------------------------------------------- kinds
# each maker returns (value, secret); secret is a substring of value.
# style: "token" (header-able), "password", "url", "pem"


def _tok(fn):
    def mk(r):
        v = fn(r)
        return v, v

    return mk


def _pem(label: str, nlines: int, width: int = 64):
    def mk(r):
        body = _b64(r, nlines * width * 3 // 4 + r.randint(0, 20))
        lines = [body[i : i + width] for i in range(0, len(body), width)]
        v = f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"
        return v, v

    return mk


def _openssh(r):
    body = "b3BlbnNzaC1rZXktdjEAAAAA" + _b64(r, 300)
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    lab = "OPENSSH " + "PRIVATE" + " KEY"
    v = f"-----BEGIN {lab}-----\n" + "\n".join(lines) + f"\n-----END {lab}-----"
    return v, v


def _pgp(r):
    lab = "PGP " + "PRIVATE" + " KEY BLOCK"
    body = "lQ" + _b64(r, 420)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    v = f"-----BEGIN {lab}-----\n\n" + "\n".join(lines) + "\n=" + _s(r, 4, B64) + f"\n-----END {lab}-----"
    return v, v


def _conn(scheme: str, port: int, dbs: list[str]):
    def mk(r):
        p = _password(r).replace("@", "").replace("#", "").replace("?", "").replace("%", "") + _s(r, 2, DIG)
        v = f"{scheme}://{r.choice(USERS)}:{p}@{r.choice(HOSTS)}:{port}/{r.choice(dbs)}"
        return v, p

    return mk


def _slack_hook(r):
    t = _s(r, 24)
    v = "https://hooks.slack.com/services/T" + _s(r, 8, UP + DIG) + "/B" + _s(r, 10, UP + DIG) + "/" + t
    return v, t


def _discord_hook(r):
    t = _s(r, 68, URLSAFE)
    return f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18)}/{t}", t


def _zapier_hook(r):
    t = _s(r, 7, LOW + DIG)
    return f"https://hooks.zapier.com/hooks/catch/{r.randint(10**6, 10**7)}/{t}/", t


def _teams_flow(r):
    sig = _s(r, 43, URLSAFE)
    region = r.choice(["westeurope", "northeurope", "uaenorth", "francecentral"])
    v = (
        f"https://prod-{r.randint(10, 99)}.{region}.logic.azure.com:443/workflows/{_s(r, 32, HEX)}"
        f"/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={sig}"
    )
    return v, sig


def _azure_sas(r):
    sig = _b64(r, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = r.choice(["lingvistafiles", "vendorxfer", "nordlysdrop"])
    v = (
        f"https://{acct}.blob.core.windows.net/handoff/{r.choice(PROJECTS).replace(' ', '_')}.zip"
        f"?sp=r&st=2026-11-0{r.randint(1, 9)}T08:00:00Z&se=2026-12-0{r.randint(1, 9)}T18:00:00Z"
        f"&spr=https&sv=2022-11-02&sr=b&sig={sig}"
    )
    return v, sig


def _gcs_signed(r):
    sig = _s(r, 512, HEX)
    v = (
        f"https://storage.googleapis.com/lingvista-deliveries/{r.choice(LANGS)}/final_{r.randint(1, 999)}.xliff"
        "?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=mt-gateway%40lingvista-mt.iam.gserviceaccount.com"
        f"%2F2026110{r.randint(1, 9)}%2Feurope-west1%2Fstorage%2Fgoog4_request&X-Goog-Date=20261104T101500Z"
        f"&X-Goog-Expires=604800&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return v, sig


def _sftp_url(r):
    p = _password(r).replace("@", "").replace("#", "").replace("?", "").replace("%", "") + "x"
    v = f"sftp://{r.choice(USERS)}:{p}@{r.choice(HOSTS)}:22/in/{r.choice(LANGS)}/"
    return v, p


def _redis_url(r):
    p = _s(r, 32)
    return f"redis://default:{p}@cache.lingvista.internal:6379/0", p


def _wp_app_pw(r):
    v = " ".join(_s(r, 4) for _ in range(6))
    return v, v


def _google_app_pw(r):
    v = " ".join(_s(r, 4, LOW) for _ in range(4))
    return v, v


def _jwt(r):
    h = base64.urlsafe_b64encode(b'{"typ":"JWT","alg":"RS256","kid":"' + _s(r, 8).encode() + b'"}')
    payload = (
        '{"aud":"https://graph.microsoft.com","iss":"https://sts.windows.net/'
        + _uuid(r)
        + '/","upn":"'
        + r.choice(PEOPLE)
        + '@lingvista.eu","exp":'
        + str(r.randint(1790000000, 1799999999))
        + "}"
    )
    p = base64.urlsafe_b64encode(payload.encode())
    v = h.decode().rstrip("=") + "." + p.decode().rstrip("=") + "." + _s(r, 342, URLSAFE)
    return v, v


KINDS: list[tuple[str, str, list[str], list[str], object]] = [
    # (kind, style, env names, descriptions, maker)
    (
        "deepl_api_key",
        "token",
        ["DEEPL_AUTH_KEY", "DEEPL_API_KEY"],
        ["DeepL API key", "DeepL Pro auth key"],
        _tok(lambda r: _uuid(r) + r.choice([":fx", ""])),
    ),
    (
        "google_cloud_api_key",
        "token",
        ["GOOGLE_TRANSLATE_API_KEY", "GCP_API_KEY"],
        ["Google Cloud Translation API key", "Translation API key (GCP)"],
        _tok(lambda r: "AI" + "za" + "Sy" + _s(r, 33, URLSAFE)),
    ),
    (
        "azure_translator_key",
        "token",
        ["AZURE_TRANSLATOR_KEY", "TRANSLATOR_SUBSCRIPTION_KEY"],
        [
            "Azure Translator subscription key",
            "Ocp-Apim-Subscription-Key for Translator",
        ],
        _tok(lambda r: _s(r, 32, HEX)),
    ),
    (
        "modernmt_api_key",
        "token",
        ["MMT_API_KEY", "MODERNMT_LICENSE"],
        ["ModernMT API key", "ModernMT license key"],
        _tok(lambda r: _uuid(r).upper()),
    ),
    (
        "phrase_tms_api_token",
        "token",
        ["MEMSOURCE_TOKEN", "PHRASE_TMS_TOKEN"],
        ["Phrase TMS (Memsource) API token", "Memsource API token"],
        _tok(lambda r: _s(r, 64)),
    ),
    (
        "phrase_strings_token",
        "token",
        ["PHRASE_ACCESS_TOKEN", "PHRASEAPP_ACCESS_TOKEN"],
        ["Phrase Strings access token", "PhraseApp access token"],
        _tok(lambda r: _s(r, 64, HEX)),
    ),
    (
        "smartling_user_secret",
        "token",
        ["SMARTLING_USER_SECRET", "SMARTLING_SECRET"],
        ["Smartling user secret", "Smartling API userSecret"],
        _tok(lambda r: _s(r, 5, LOW + DIG) + "." + _s(r, 24, ALNUM) + "-" + _s(r, 20, ALNUM)),
    ),
    (
        "lokalise_api_token",
        "token",
        ["LOKALISE_API_TOKEN", "LOKALISE_TOKEN"],
        ["Lokalise API token", "Lokalise read/write token"],
        _tok(lambda r: _s(r, 40, HEX)),
    ),
    (
        "transifex_api_token",
        "token",
        ["TX_TOKEN", "TRANSIFEX_API_TOKEN"],
        ["Transifex API token", "Transifex token"],
        _tok(lambda r: "1/" + _s(r, 40, HEX)),
    ),
    (
        "crowdin_personal_token",
        "token",
        ["CROWDIN_PERSONAL_TOKEN", "CROWDIN_TOKEN"],
        ["Crowdin personal access token", "Crowdin API token"],
        _tok(lambda r: _s(r, 80, HEX)),
    ),
    (
        "weblate_api_key",
        "token",
        ["WEBLATE_API_KEY", "WL_KEY"],
        ["Weblate API key", "Weblate user API key"],
        _tok(lambda r: "wl" + "u_" + _s(r, 40)),
    ),
    (
        "xtrf_api_token",
        "token",
        ["XTRF_API_TOKEN", "XTRF_AUTH_TOKEN"],
        ["XTRF X-AUTH-ACCESS-TOKEN", "XTRF API access token"],
        _tok(lambda r: _s(r, 48)),
    ),
    (
        "memoq_server_password",
        "password",
        ["MEMOQ_SERVER_PASSWORD", "MEMOQ_PWD"],
        ["memoQ server password", "memoQ server admin password"],
        _tok(_password),
    ),
    (
        "groupshare_password",
        "password",
        ["GROUPSHARE_PASSWORD", "GS_PASSWORD"],
        ["Trados GroupShare password", "GroupShare service account password"],
        _tok(_password),
    ),
    (
        "xtm_password",
        "password",
        ["XTM_PASSWORD", "XTM_API_PASSWORD"],
        ["XTM Cloud API user password", "XTM password"],
        _tok(_password),
    ),
    (
        "plunet_api_password",
        "password",
        ["PLUNET_PASSWORD", "PLUNET_API_PASSWORD"],
        ["Plunet BusinessManager API password", "Plunet API user password"],
        _tok(_password),
    ),
    (
        "xero_client_secret",
        "token",
        ["XERO_CLIENT_SECRET", "XERO_SECRET"],
        ["Xero client secret", "Xero app client secret"],
        _tok(lambda r: _s(r, 48, URLSAFE)),
    ),
    (
        "stripe_secret_key",
        "token",
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
        ["Stripe secret key", "Stripe live key"],
        _tok(lambda r: "sk" + "_live_" + "51" + _s(r, 97)),
    ),
    (
        "stripe_restricted_key",
        "token",
        ["STRIPE_RESTRICTED_KEY", "STRIPE_RK"],
        ["Stripe restricted key", "restricted Stripe key for invoicing"],
        _tok(lambda r: "rk" + "_live_" + "51" + _s(r, 97)),
    ),
    (
        "stripe_webhook_secret",
        "token",
        ["STRIPE_WEBHOOK_SECRET", "STRIPE_SIGNING_SECRET"],
        ["Stripe webhook signing secret", "Stripe endpoint secret"],
        _tok(lambda r: "wh" + "sec_" + _s(r, 32)),
    ),
    (
        "box_client_secret",
        "token",
        ["BOX_CLIENT_SECRET", "BOX_SECRET"],
        ["Box client secret", "Box app client secret"],
        _tok(lambda r: _s(r, 32)),
    ),
    (
        "box_developer_token",
        "token",
        ["BOX_DEVELOPER_TOKEN", "BOX_ACCESS_TOKEN"],
        ["Box developer token", "Box access token"],
        _tok(lambda r: _s(r, 32)),
    ),
    (
        "dropbox_access_token",
        "token",
        ["DROPBOX_ACCESS_TOKEN", "DROPBOX_TOKEN"],
        ["Dropbox access token", "Dropbox short-lived token"],
        _tok(lambda r: "s" + "l." + _s(r, 138, URLSAFE)),
    ),
    (
        "dropbox_refresh_token",
        "token",
        ["DROPBOX_REFRESH_TOKEN"],
        ["Dropbox refresh token"],
        _tok(lambda r: _s(r, 11) + "AAAAAAAAAA" + _s(r, 43, URLSAFE)),
    ),
    (
        "wetransfer_api_key",
        "token",
        ["WETRANSFER_API_KEY", "WT_API_KEY"],
        ["WeTransfer API key", "WeTransfer x-api-key"],
        _tok(lambda r: _s(r, 40)),
    ),
    (
        "azure_ad_client_secret",
        "token",
        ["AZURE_CLIENT_SECRET", "SHAREPOINT_CLIENT_SECRET"],
        ["Entra ID app client secret (SharePoint sync)", "Azure AD client secret"],
        _tok(lambda r: _s(r, 3, ALNUM) + str(r.randint(1, 9)) + "Q~" + _s(r, 34, ALNUM + "_.~-")),
    ),
    (
        "azure_storage_account_key",
        "token",
        ["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY"],
        ["Azure storage account key", "storage account access key"],
        _tok(lambda r: _b64(r, 64)),
    ),
    (
        "azure_sas_signature",
        "url",
        ["HANDOFF_SAS_URL", "BLOB_SAS_URL"],
        ["SAS URL for the handoff container", "blob SAS link"],
        _azure_sas,
    ),
    (
        "gcs_signed_url_signature",
        "url",
        ["DELIVERY_SIGNED_URL"],
        ["signed GCS download link", "GCS signed URL"],
        _gcs_signed,
    ),
    (
        "zoom_client_secret",
        "token",
        ["ZOOM_CLIENT_SECRET", "ZOOM_S2S_SECRET"],
        ["Zoom Server-to-Server OAuth client secret", "Zoom client secret"],
        _tok(lambda r: _s(r, 32)),
    ),
    (
        "kudo_password",
        "password",
        ["KUDO_PASSWORD"],
        ["KUDO interpreter console password", "KUDO admin password"],
        _tok(_password),
    ),
    (
        "interprefy_password",
        "password",
        ["INTERPREFY_PASSWORD"],
        ["Interprefy organiser password", "Interprefy account password"],
        _tok(_password),
    ),
    (
        "freelancer_portal_password",
        "password",
        ["PORTAL_PASSWORD", "VENDOR_PORTAL_PASSWORD"],
        ["freelancer portal password", "vendor portal login password"],
        _tok(_password),
    ),
    (
        "m365_password",
        "password",
        ["M365_PASSWORD", "O365_PASSWORD"],
        ["Microsoft 365 password", "shared mailbox password (M365)"],
        _tok(_password),
    ),
    (
        "google_app_password",
        "password",
        ["GMAIL_APP_PASSWORD", "SMTP_APP_PASSWORD"],
        ["Google Workspace app password", "Gmail app password"],
        _google_app_pw,
    ),
    (
        "google_oauth_client_secret",
        "token",
        ["GOOGLE_CLIENT_SECRET"],
        ["Google OAuth client secret", "Workspace OAuth client secret"],
        _tok(lambda r: "GOC" + "SPX-" + _s(r, 28, URLSAFE)),
    ),
    (
        "google_oauth_refresh_token",
        "token",
        ["GOOGLE_REFRESH_TOKEN"],
        ["Google OAuth refresh token", "Drive refresh token"],
        _tok(lambda r: "1" + "//0" + _s(r, 100, URLSAFE)),
    ),
    (
        "gcp_service_account_key",
        "pem",
        ["GCP_SA_PRIVATE_KEY"],
        [
            "service account private key for Translation API",
            "GCP service account private key",
        ],
        _pem("PRIVATE" + " KEY", 16),
    ),
    (
        "ssh_private_key",
        "pem",
        ["SFTP_PRIVATE_KEY"],
        ["OpenSSH key for the client SFTP", "SFTP deploy key (private)"],
        _openssh,
    ),
    (
        "rsa_private_key",
        "pem",
        ["SFTP_RSA_KEY"],
        ["RSA private key for the legacy FTPS box", "RSA private key (PEM)"],
        _pem("RSA " + "PRIVATE" + " KEY", 14),
    ),
    (
        "pgp_private_key",
        "pem",
        ["PGP_PRIVATE_KEY"],
        ["PGP private key for encrypted deliveries", "PGP secret key block"],
        _pgp,
    ),
    (
        "sftp_password",
        "password",
        ["SFTP_PASSWORD", "CLIENT_SFTP_PASS"],
        ["client SFTP password", "SFTP password"],
        _tok(_password),
    ),
    (
        "sftp_url_password",
        "url",
        ["SFTP_URL", "DROP_URL"],
        ["SFTP drop URL", "client SFTP URL"],
        _sftp_url,
    ),
    (
        "postgres_url_password",
        "url",
        ["DATABASE_URL", "PG_DSN"],
        ["Postgres connection string", "database URL"],
        _conn("postgresql", 5432, ["tms", "invoicing", "glossary", "plunet_sync"]),
    ),
    (
        "postgres_password",
        "password",
        ["PGPASSWORD", "POSTGRES_PASSWORD"],
        ["Postgres password", "password for the reporting DB"],
        _tok(_password),
    ),
    (
        "mysql_url_password",
        "url",
        ["WORDPRESS_DB_URL", "MYSQL_URL"],
        ["WordPress MySQL URL", "MySQL DSN"],
        _conn("mysql", 3306, ["wordpress", "wp_lingvista", "wp_staging"]),
    ),
    (
        "redis_url_password",
        "url",
        ["REDIS_URL", "CACHE_URL"],
        ["Redis URL", "cache connection URL"],
        _redis_url,
    ),
    (
        "wordpress_db_password",
        "password",
        ["WORDPRESS_DB_PASSWORD", "DB_PASSWORD"],
        ["WordPress DB_PASSWORD", "wp-config DB password"],
        _tok(_password),
    ),
    (
        "wordpress_app_password",
        "password",
        ["WP_APP_PASSWORD", "WP_REST_PASSWORD"],
        ["WordPress application password", "WP REST application password"],
        _wp_app_pw,
    ),
    (
        "wordpress_admin_password",
        "password",
        ["WP_ADMIN_PASSWORD"],
        ["WordPress admin password", "wp-admin password"],
        _tok(_password),
    ),
    (
        "wordpress_auth_key",
        "token",
        ["AUTH_KEY", "SECURE_AUTH_KEY"],
        ["WordPress AUTH_KEY salt", "wp-config secure auth key"],
        _tok(lambda r: _s(r, 64, ALNUM + "!#$%&()*+,-.:;<=>?@[]^_|~")),
    ),
    (
        "jira_api_token",
        "token",
        ["JIRA_API_TOKEN", "ATLASSIAN_API_TOKEN"],
        ["Jira API token", "Atlassian API token"],
        _tok(lambda r: "ATA" + "TT3xFfGF0" + _s(r, 172, URLSAFE) + "=" + _s(r, 8, HEX.upper())),
    ),
    (
        "confluence_pat",
        "token",
        ["CONFLUENCE_PAT", "CONFLUENCE_TOKEN"],
        ["Confluence personal access token", "Confluence DC PAT"],
        _tok(lambda r: "N" + _s(r, 43, ALNUM + "+/")),
    ),
    (
        "slack_webhook_url",
        "url",
        ["SLACK_WEBHOOK_URL"],
        ["Slack webhook", "Slack incoming webhook"],
        _slack_hook,
    ),
    (
        "slack_bot_token",
        "token",
        ["SLACK_BOT_TOKEN"],
        ["Slack bot token", "Slack bot OAuth token"],
        _tok(
            lambda r: (
                "xo" + "xb-" + str(r.randint(10**10, 10**11)) + "-" + str(r.randint(10**12, 10**13)) + "-" + _s(r, 24)
            )
        ),
    ),
    (
        "teams_workflow_webhook_sig",
        "url",
        ["TEAMS_WEBHOOK_URL", "TEAMS_FLOW_URL"],
        ["Teams workflow webhook", "Power Automate webhook for Teams"],
        _teams_flow,
    ),
    (
        "discord_webhook_url",
        "url",
        ["DISCORD_WEBHOOK"],
        ["Discord webhook for the freelancer server", "Discord webhook"],
        _discord_hook,
    ),
    (
        "zapier_webhook_url",
        "url",
        ["ZAPIER_HOOK_URL"],
        ["Zapier catch hook", "Zapier webhook"],
        _zapier_hook,
    ),
    (
        "telegram_bot_token",
        "token",
        ["TELEGRAM_BOT_TOKEN"],
        ["Telegram bot token for interpreter alerts", "Telegram bot token"],
        _tok(lambda r: f"{r.randint(10**9, 8 * 10**9)}:AA" + _s(r, 33, URLSAFE)),
    ),
    (
        "github_pat",
        "token",
        ["GITHUB_TOKEN", "GH_TOKEN"],
        ["GitHub token", "GitHub PAT for the l10n repo"],
        _tok(lambda r: "gh" + "p_" + _s(r, 36)),
    ),
    (
        "gitlab_pat",
        "token",
        ["GITLAB_TOKEN", "CI_PUSH_TOKEN"],
        ["GitLab access token", "GitLab PAT"],
        _tok(lambda r: "glp" + "at-" + _s(r, 20, URLSAFE)),
    ),
    (
        "openai_api_key",
        "token",
        ["OPENAI_API_KEY"],
        ["OpenAI key for the MT post-editing gateway", "OpenAI API key"],
        _tok(lambda r: "sk" + "-proj-" + _s(r, 74, URLSAFE) + "T3" + "Blbk" + "FJ" + _s(r, 74, URLSAFE)),
    ),
    (
        "anthropic_api_key",
        "token",
        ["ANTHROPIC_API_KEY"],
        ["Anthropic API key", "Claude API key for QA checks"],
        _tok(lambda r: "sk" + "-ant-api03-" + _s(r, 93, URLSAFE) + "AA"),
    ),
    (
        "sendgrid_api_key",
        "token",
        ["SENDGRID_API_KEY"],
        ["SendGrid API key", "SendGrid key for invoice mails"],
        _tok(lambda r: "S" + "G." + _s(r, 22, URLSAFE) + "." + _s(r, 43, URLSAFE)),
    ),
    (
        "mailchimp_api_key",
        "token",
        ["MAILCHIMP_API_KEY"],
        ["Mailchimp API key", "newsletter Mailchimp key"],
        _tok(lambda r: _s(r, 32, HEX) + "-us" + str(r.randint(1, 21))),
    ),
    (
        "twilio_auth_token",
        "token",
        ["TWILIO_AUTH_TOKEN"],
        ["Twilio auth token for phone interpreting", "Twilio auth token"],
        _tok(lambda r: _s(r, 32, HEX)),
    ),
    (
        "hubspot_private_app_token",
        "token",
        ["HUBSPOT_TOKEN"],
        ["HubSpot private app token", "HubSpot access token"],
        _tok(lambda r: "pat" + "-eu1-" + _uuid(r)),
    ),
    (
        "cloudflare_api_token",
        "token",
        ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
        ["Cloudflare API token for the WP site", "Cloudflare token"],
        _tok(lambda r: _s(r, 40, URLSAFE)),
    ),
    (
        "dockerhub_pat",
        "token",
        ["DOCKERHUB_TOKEN"],
        ["Docker Hub access token", "Docker Hub PAT"],
        _tok(lambda r: "dck" + "r_pat_" + _s(r, 27, URLSAFE)),
    ),
    (
        "vault_token",
        "token",
        ["VAULT_TOKEN"],
        ["Vault token", "HashiCorp Vault service token"],
        _tok(lambda r: "hv" + "s." + _s(r, 24)),
    ),
    (
        "aws_secret_access_key",
        "token",
        ["AWS_SECRET_ACCESS_KEY"],
        ["AWS secret access key for the S3 archive", "S3 secret key"],
        _tok(lambda r: _s(r, 40, ALNUM + "+/")),
    ),
    (
        "django_secret_key",
        "token",
        ["DJANGO_SECRET_KEY", "SECRET_KEY"],
        ["Django SECRET_KEY of the client portal", "portal secret key"],
        _tok(lambda r: _s(r, 50, LOW + DIG + "!@%^&*(-_=+)")),
    ),
    (
        "m365_access_token",
        "token",
        ["GRAPH_ACCESS_TOKEN"],
        ["Microsoft Graph access token", "Graph bearer token"],
        _jwt,
    ),
    (
        "notion_integration_token",
        "token",
        ["NOTION_TOKEN"],
        ["Notion integration token", "Notion API secret"],
        _tok(lambda r: "nt" + "n_" + _s(r, 11, DIG) + _s(r, 35)),
    ),
    (
        "smtp_password",
        "password",
        ["SMTP_PASSWORD", "MAIL_PASSWORD"],
        ["SMTP password", "mail relay password"],
        _tok(_password),
    ),
]


# ---------------------------------------------------------------- templates
def _ctx(r):
    return {
        "client": r.choice(CLIENTS),
        "who": r.choice(PEOPLE),
        "proj": r.choice(PROJECTS),
        "lang": r.choice(LANGS),
        "host": r.choice(HOSTS),
        "user": r.choice(USERS),
        "n": r.randint(100, 9999),
        "ts": f"2026-{r.randint(1, 11):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:"
        f"{r.randint(0, 59):02d}Z",
        "day": r.choice(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]),
    }


def t_note(r, c, d, e, v, style):
    return f"Note: {d} for {c['client']} is {v} (set up by {c['who']} for {c['proj']})."


def t_lesson(r, c, d, e, v, style):
    return (
        f"Lesson learned ({c['proj']}): the {c['lang']} jobs stalled because the old {d} was revoked. "
        f"Current value: {v}\nAlways re-test the connector after rotating."
    )


def t_runbook(r, c, d, e, v, style):
    return (
        f"Runbook - nightly TM sync for {c['client']}\n1. ssh {c['user']}@{c['host']}\n"
        f"2. export {e}='{v}'\n3. run ./sync_tm.sh --lang {c['lang']}\n4. check the QA report in Confluence"
        if style != "pem"
        else f"Runbook - {c['client']} deliveries\n1. save the {d} below to ~/.keys/{c['user']}\n\n{v}\n\n"
        f"2. chmod 600 it\n3. run ./deliver.sh --lang {c['lang']}"
    )


def t_todo(r, c, d, e, v, style):
    return f"TODO({c['who']}): move the {d} out of this note into the vault before {c['day']}: {v}"


def t_handover(r, c, d, e, v, style):
    return (
        f"Handover {c['who']} -> {r.choice(PEOPLE)}\n- {c['client']}: {c['proj']} in review ({c['lang']})\n"
        f"- {d}:\n{v}\n- invoices go out via Plunet on the 25th"
    )


def t_ticket(r, c, d, e, v, style):
    return (
        f"LOC-{c['n']}: {c['proj']} connector returns 401\nReporter: {c['who']}\nSteps: configured the {d} "
        f"= {v} in the TMS integration page, pressed Test, got 401 Unauthorized."
    )


def t_email(r, c, d, e, v, style):
    return (
        f"Subject: access for {c['proj']}\n\nHi {r.choice(PEOPLE).capitalize()},\n\nas agreed, here is the {d} "
        f"for the {c['client']} account:\n\n{v}\n\nPlease don't forward it to the freelancers.\n\nBest,\n"
        f"{c['who'].capitalize()}"
    )


def t_chat(r, c, d, e, v, style):
    return (
        f"[{c['ts'][11:16]}] {c['who']}: which {d} does the vendor use now?\n"
        f"[{c['ts'][11:16]}] {r.choice(PEOPLE)}: this one {v}\n[{c['ts'][11:16]}] {c['who']}: thx, updating the TMS"
    )


def t_fi(r, c, d, e, v, style):
    return f"Muistiinpano: {c['client']} - {d}: {v}\nÄlä jaa freelancereille. Projekti: {c['proj']}."


def t_uk(r, c, d, e, v, style):
    return f"Нотатка для {c['client']}: {d} = {v}\nНе пересилати перекладачам, проєкт {c['proj']}."


def t_ar(r, c, d, e, v, style):
    return f"ملاحظة: {d} الخاص بالعميل {c['client']} هو:\n{v}\nلا تشاركه مع المترجمين المستقلين."


def t_pt(r, c, d, e, v, style):
    return f"Nota: {d} do cliente {c['client']}: {v}\nNão partilhar com os tradutores externos ({c['proj']})."


def t_ro(r, c, d, e, v, style):
    return f"Notă: {d} pentru {c['client']} este:\n{v}\nNu trimiteți traducătorilor freelanceri."


def t_zh(r, c, d, e, v, style):
    return f"备注：{c['client']} 的 {d}：\n{v}\n不要发给外包译员，项目 {c['proj']}。"


def t_env(r, c, d, e, v, style):
    q = '"' if style == "pem" or " " in v else ""
    return f"# .env ({c['client']})\nTMS_BASE_URL=https://{c['host']}/api\nDEFAULT_LANG={c['lang']}\n{e}={q}{v}{q}\nLOG_LEVEL=info"


def t_compose(r, c, d, e, v, style):
    return (
        f"services:\n  tms-sync:\n    image: lingvista/tms-sync:{r.randint(1, 9)}.{r.randint(0, 20)}\n"
        f"    environment:\n      - TARGET_LANG={c['lang']}\n      - {e}={v}\n    restart: unless-stopped"
    )


def t_json(r, c, d, e, v, style):
    return (
        f'{{\n  "client": "{c["client"]}",\n  "project": "{c["proj"]}",\n  "{e.lower()}": "{v}",\n'
        f'  "targetLangs": ["{c["lang"]}"]\n}}'
    )


def t_yaml(r, c, d, e, v, style):
    return f'connector:\n  name: {c["client"].lower().replace(" ", "-")}\n  {e.lower()}: "{v}"\n  retries: 3'


def t_ini(r, c, d, e, v, style):
    return f"[{c['client'].split()[0].lower()}]\nhost = {c['host']}\nuser = {c['user']}\n{e.lower()} = {v}\n"


def t_xml(r, c, d, e, v, style):
    return (
        f'<connector name="{c["client"]}">\n  <endpoint>https://{c["host"]}/api</endpoint>\n'
        f"  <{e.lower()}>{v}</{e.lower()}>\n</connector>"
    )


def t_py(r, c, d, e, v, style):
    return f'# settings_local.py\nTMS_HOST = "{c["host"]}"\n{e} = "{v}"\nTARGET_LANGS = ["{c["lang"]}"]'


def t_ps(r, c, d, e, v, style):
    return f"# setup-vendor.ps1\n$env:{e} = '{v}'\n& .\\Sync-Termbase.ps1 -Client '{c['client']}' -Lang {c['lang']}"


def t_cli(r, c, d, e, v, style):
    return (
        f"$ export {e}='{v}'\n$ ./tms-cli push --project {c['n']} --lang {c['lang']}\n"
        f"uploaded {r.randint(2, 80)} files, {r.randint(1000, 90000)} words"
    )


def t_curl(r, c, d, e, v, style):
    if style == "url":
        return f"$ curl -sS -X POST '{v}' -H 'Content-Type: application/json' -d '{{\"text\":\"{c['proj']} delivered\"}}'\nok"
    if style == "password":
        return f"$ curl -v -u {c['user']}:{v} https://{c['host']}/api/v1/projects\n> GET /api/v1/projects HTTP/1.1\n< HTTP/1.1 200 OK"
    return (
        f"$ curl -v https://{c['host']}/api/v2/jobs\n> GET /api/v2/jobs HTTP/1.1\n> Host: {c['host']}\n"
        f"> Authorization: Bearer {v}\n> Accept: */*\n< HTTP/1.1 401 Unauthorized"
    )


def t_log(r, c, d, e, v, style):
    return (
        f"{c['ts']} tms-sync[{r.randint(1, 900)}] INFO starting worker for {c['client']}\n"
        f"{c['ts']} tms-sync[{r.randint(1, 900)}] DEBUG config {{'lang': '{c['lang']}', '{e.lower()}': '{v}'}}"
    )


def t_ci(r, c, d, e, v, style):
    return (
        f"Run ./scripts/deploy-glossary.sh\n  env:\n    {e}: {v}\n    TARGET: {c['lang']}\n"
        f"Deploying glossary v{r.randint(1, 60)} for {c['client']}...\nDone in {r.randint(3, 90)}s"
    )


def t_trace(r, c, d, e, v, style):
    return (
        f'Traceback (most recent call last):\n  File "/app/connectors/{c["client"].split()[0].lower()}.py", '
        f"line {r.randint(20, 400)}, in push\n    client.login({e.lower()}={v!r})\n"
        f"ConnectionError: 401 from https://{c['host']}"
    )


def t_cat(r, c, d, e, v, style):
    return f"$ cat ~/.config/lingvista/{e.lower()}.txt\n{v}\n$ ls -l ~/.config/lingvista\ntotal {r.randint(4, 40)}"


TEMPLATES = [
    (t_note, False),
    (t_lesson, True),
    (t_runbook, True),
    (t_todo, False),
    (t_handover, True),
    (t_ticket, False),
    (t_email, True),
    (t_chat, False),
    (t_fi, True),
    (t_uk, False),
    (t_ar, True),
    (t_pt, False),
    (t_ro, True),
    (t_zh, True),
    (t_env, True),
    (t_compose, False),
    (t_json, False),
    (t_yaml, False),
    (t_ini, False),
    (t_xml, False),
    (t_py, False),
    (t_ps, False),
    (t_cli, False),
    (t_curl, False),
    (t_log, False),
    (t_ci, False),
    (t_trace, False),
    (t_cat, True),
]  # (template, usable for multi-line PEM values)


def _positives(r: random.Random, seen: set[str]) -> list[tuple[str, str, str]]:
    out = []
    for kind, style, envs, descs, maker in KINDS:
        pool = [t for t, ml in TEMPLATES if ml or style != "pem"]
        got = 0
        while got < PER_KIND:
            value, secret = maker(r)
            tpl = pool[got % len(pool)] if got < len(pool) else r.choice(pool)
            text = tpl(r, _ctx(r), r.choice(descs), r.choice(envs), value, style)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            got += 1
    return out


# ---------------------------------------------------------------- look-alikes
def _sha(r, n=64):
    return _s(r, n, HEX)


def _bcrypt(r):
    return "$2" + "b$" + str(r.choice([10, 11, 12])) + "$" + _s(r, 53, ALNUM + "./")


def _argon(r):
    return "$argon2id$v=19$m=65536,t=3,p=4$" + _b64(r, 16).rstrip("=") + "$" + _b64(r, 32).rstrip("=")


def _vault_blob(r):
    lines = [_s(r, 80, DIG + "abcdef") for _ in range(r.randint(3, 5))]
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(lines)


def _sops(r):
    return f"ENC[AES256_GCM,data:{_b64(r, 24)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"


def _fake_cert(r):
    lab = "CERTIFICATE"
    body = "MII" + _b64(r, 300)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {lab}-----\n" + "\n".join(lines) + f"\n-----END {lab}-----"


def _pubkey(r):
    return "ssh-" + "ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _s(r, 43, B64) + f" {r.choice(USERS)}@{r.choice(HOSTS)}"


def _fpr(r):
    return "SHA256:" + _b64(r, 32).rstrip("=")


def _png(r):
    return "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + _b64(r, r.randint(60, 120))


def _ph(r):
    return r.choice(
        [
            "<your-api-key>",
            "${API_KEY}",
            "changeme",
            "xxxxxxxxxxxxxxxx",
            "****************",
            "<REDACTED>",
            "YOUR_TOKEN_HERE",
            "{{ api_key }}",
            "%(password)s",
            "[hidden]",
            "********",
            "<paste token>",
            "TBD",
            "$" + "{" + r.choice(["DEEPL", "LOKALISE", "XTRF", "PLUNET", "SMARTLING"]) + "_TOKEN}",
        ]
    )


def _mask(r):
    return _s(r, 4) + "*" * r.randint(8, 24) + _s(r, 4)


def _semver(r):
    return f"{r.randint(1, 12)}.{r.randint(0, 30)}.{r.randint(0, 99)}"


def _date(r):
    return f"2026-{r.randint(1, 11):02d}-{r.randint(1, 28):02d}"


def _ref_env(r):
    return r.choice(
        [
            "DEEPL_AUTH_KEY",
            "LOKALISE_API_TOKEN",
            "XTRF_API_TOKEN",
            "MEMSOURCE_TOKEN",
            "PGPASSWORD",
            "STRIPE_SECRET_KEY",
            "SLACK_WEBHOOK_URL",
            "SMTP_PASSWORD",
            "AZURE_TRANSLATOR_KEY",
        ]
    )


LOOK_SPECS: list[tuple[list[str], object]] = [
    # hashes, checksums, commit ids
    (
        [
            "sha256sum {client}_{lang}.xliff\n{v}  {client}_{lang}.xliff",
            "Delivery checksum (SHA-256) for {proj}: {v}",
        ],
        _sha,
    ),
    (
        [
            "md5 of the TM export {n}.tmx: {v}",
            "Checksum mismatch on {host}: expected md5 {v}",
        ],
        lambda r: _sha(r, 32),
    ),
    (
        ["sha1 of glossary_{lang}.tbx = {v}", 'ETag: "{v}" for termbase {n}'],
        lambda r: _sha(r, 40),
    ),
    (
        [
            "Fixed the {lang} plural rules in commit {v}",
            "git revert {v}  # broke the {client} segmenter",
        ],
        lambda r: _sha(r, 40),
    ),
    (
        [
            "Deployed short sha {v} of the l10n pipeline to staging",
            "Merged PR #{n} ({v}) after {who}'s review",
        ],
        lambda r: _sha(r, 7),
    ),
    (
        [
            "image: lingvista/tms-sync@sha256:{v}",
            "pulled digest sha256:{v} for the QA container",
        ],
        _sha,
    ),
    (
        [
            "sha512 of the installer: {v}",
            "Integrity check for memoQ client {n}: sha512-{v}",
        ],
        lambda r: _sha(r, 128),
    ),
    (
        [
            "integrity: sha512-{v}",
            'npm lock entry for i18next: "integrity": "sha512-{v}"',
        ],
        lambda r: _b64(r, 64),
    ),
    (
        ["crc32 of segment batch {n}: {v}", "Row {n} hash {v} (xxhash64) for dedup"],
        lambda r: _sha(r, 8),
    ),
    # ids
    (
        ["Phrase TMS project uid {v} for {client}", "Memsource job uid: {v} ({lang})"],
        lambda r: _s(r, 22),
    ),
    (
        [
            "Request id {v} returned 429 from DeepL; retried after 2s",
            "x-request-id: {v}",
        ],
        _uuid,
    ),
    (
        ["Lokalise project id: {v}", "Lokalise project_id={v} (mobile app strings)"],
        lambda r: f"{r.randint(10**8, 10**9)}{_s(r, 5, HEX)}.{r.randint(10**7, 10**8)}",
    ),
    (
        ["Smartling project id {v} for {client}", "projectId: {v}"],
        lambda r: _s(r, 9, HEX),
    ),
    (
        ["Smartling user identifier (not the secret): {v}", "userIdentifier={v}"],
        lambda r: _s(r, 30, LOW),
    ),
    (["Azure tenant id {v}", "AZURE_TENANT_ID={v}"], _uuid),
    (["Entra app (client) id for SharePoint sync: {v}", "AZURE_CLIENT_ID={v}"], _uuid),
    (
        ["Google OAuth client id {v}", "GOOGLE_CLIENT_ID={v}"],
        lambda r: f"{r.randint(10**11, 10**12)}-{_s(r, 32, LOW + DIG)}.apps.googleusercontent.com",
    ),
    (
        ["Zoom account id {v} (public)", "ZOOM_ACCOUNT_ID={v}"],
        lambda r: _s(r, 22, URLSAFE),
    ),
    (["Zoom client id {v}", "ZOOM_CLIENT_ID={v}"], lambda r: _s(r, 22)),
    (["Xero tenant id {v}", "xero-tenant-id: {v}"], _uuid),
    (["Xero client id: {v}", "XERO_CLIENT_ID={v}"], lambda r: _s(r, 32, UP + DIG)),
    (["Box client id {v}", "BOX_CLIENT_ID={v}"], lambda r: _s(r, 32, LOW + DIG)),
    (
        ["Dropbox app key {v} (public, it's in the OAuth URL)", "DROPBOX_APP_KEY={v}"],
        lambda r: _s(r, 15, LOW + DIG),
    ),
    (
        ["Stripe customer {v} paid invoice INV-{n}", "Refund issued for customer {v}"],
        lambda r: "cus_" + _s(r, 14),
    ),
    (
        ["Stripe invoice {v} finalized for {client}", "Invoice {v} marked void"],
        lambda r: "in_" + _s(r, 24),
    ),
    (
        ["Payment intent {v} succeeded", "pi id {v} requires_action"],
        lambda r: "pi_" + _s(r, 24),
    ),
    (
        ["Stripe event {v} delivered to /webhooks/stripe", "evt id {v} retried 3x"],
        lambda r: "evt_" + _s(r, 24),
    ),
    (
        [
            "Stripe publishable key for the order form: {v}",
            "STRIPE_PUBLISHABLE_KEY={v}",
        ],
        lambda r: "pk" + "_live_" + "51" + _s(r, 97),
    ),
    (
        ["reCAPTCHA site key on the quote form: {v}", 'data-sitekey="{v}"'],
        lambda r: "6L" + _s(r, 38, URLSAFE),
    ),
    (
        ["Sentry DSN for the client portal: {v}", "SENTRY_DSN={v}"],
        lambda r: f"https://{_s(r, 32, HEX)}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/{r.randint(10**6, 10**7)}",
    ),
    (
        [
            'Firebase web config apiKey: "{v}" (public by design)',
            'firebaseConfig = {{ apiKey: "{v}", projectId: "lingvista-app" }}',
        ],
        lambda r: "AI" + "za" + "Sy" + _s(r, 33, URLSAFE),
    ),
    (
        [
            "Algolia search-only key for the glossary search: {v}",
            "ALGOLIA_SEARCH_ONLY_KEY={v}",
        ],
        lambda r: _s(r, 32, HEX),
    ),
    (
        ["Supabase anon key (public): {v}", "NEXT_PUBLIC_SUPABASE_ANON_KEY={v}"],
        lambda r: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiJ9." + _s(r, 43, URLSAFE) + "-public",
    ),
    (
        ["Jira issue LOC-{n} id {v}", "Confluence page id {v} (Vendor onboarding)"],
        lambda r: str(r.randint(10**5, 10**8)),
    ),
    (
        ["Jira account id {v} for {who}", "assignee accountId: {v}"],
        lambda r: f"{r.randint(5, 7)}{_s(r, 4, HEX)}:{_uuid(r)}",
    ),
    (
        ["Slack channel id {v} (#loc-{lang})", "post to channel {v}"],
        lambda r: "C0" + _s(r, 9, UP + DIG),
    ),
    (
        ["Slack user id {v} is {who}", "mention <@{v}> on escalations"],
        lambda r: "U0" + _s(r, 9, UP + DIG),
    ),
    (
        ["Slack message ts {v} in #loc-ops", "thread_ts={v}"],
        lambda r: f"{r.randint(1700000000, 1799999999)}.{r.randint(100000, 999999)}",
    ),
    (
        ["Teams channel id {v}", "channelId: {v}"],
        lambda r: f"19:{_s(r, 32, HEX)}@thread.tacv2",
    ),
    (
        ["Plunet order id {v}", "XTRF project id {v} for {client}"],
        lambda r: f"O-{r.randint(2024, 2026)}-{r.randint(1000, 99999)}",
    ),
    (
        ["XTRF quote {v} approved by {who}", "Quote number {v} sent"],
        lambda r: f"Q/{r.randint(2024, 2026)}/{r.randint(100, 9999)}",
    ),
    (
        ["Google Drive folder id for {client}: {v}", "shared drive id {v}"],
        lambda r: "1" + _s(r, 32, URLSAFE),
    ),
    (
        ["Box folder id {v} (deliveries)", "box file id {v}"],
        lambda r: str(r.randint(10**10, 10**12)),
    ),
    (
        ["SharePoint site id {v}", "drive id for Deliverables: {v}"],
        lambda r: "b!" + _s(r, 64, URLSAFE),
    ),
    (
        ["WeTransfer transfer id {v} expired", "WeTransfer link https://we.tl/t-{v}"],
        lambda r: _s(r, 10),
    ),
    (
        [
            "Zoom meeting id {v} for the {client} interpreting session",
            "KUDO event {v}, interpreters: {lang}",
        ],
        lambda r: f"{r.randint(800, 999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)}",
    ),
    (
        [
            "Interprefy event code {v} is public, it is printed on the agenda",
            "Interprefy event code: {v}",
        ],
        lambda r: _s(r, 6, UP),
    ),
    (["DeepL glossary id {v} ({lang})", "glossary_id={v}"], _uuid),
    (
        [
            "Google Translation glossary projects/lingvista-mt/locations/us-central1/glossaries/{v}",
            "AutoML model id {v}",
        ],
        lambda r: "TRL" + str(r.randint(10**17, 10**18)),
    ),
    (
        ["ModernMT memory id {v}", "MMT memories=[{v}]"],
        lambda r: str(r.randint(10**5, 10**6)),
    ),
    (
        [
            "Hugging Face model Helsinki-NLP/opus-mt-{v} for the fallback",
            "eval on dataset Helsinki-NLP/{v}",
        ],
        lambda r: (
            r.choice(
                [
                    "en-fi",
                    "en-uk",
                    "en-ar",
                    "en-ro",
                    "en-zh",
                    "fi-en",
                    "tc-big-en-pt",
                    "en-ROMANCE",
                ]
            )
            + "@"
            + _sha(r, 40)
        ),
    ),
    (
        ["W&B run id {v} (COMET eval)", "mlflow run_id={v}"],
        lambda r: _s(r, 8, LOW + DIG),
    ),
    (
        ["MLflow experiment run {v} finished: BLEU 41.2", "run_uuid: {v}"],
        lambda r: _sha(r, 32),
    ),
    (
        ["Cell In[{v}], line 4: df = load_tm()", "Out[{v}]: 'segments: 1204'"],
        lambda r: str(r.randint(1, 300)),
    ),
    (
        ["Build #{v} passed on GitHub Actions", "pipeline {v} succeeded"],
        lambda r: str(r.randint(1000, 99999)),
    ),
    (["container id {v} exited (0)", "docker logs {v}"], lambda r: _sha(r, 12)),
    (
        [
            "trace_id={v} span_id=" + "0af7651916cd43dd",
            "traceparent: 00-{v}-b7ad6b7169203331-01",
        ],
        lambda r: _sha(r, 32),
    ),
    (
        ["Cloudflare zone id {v} for lingvista.eu", "CF_ZONE_ID={v}"],
        lambda r: _sha(r, 32),
    ),
    (["Cloudflare ray id {v}-HEL", "cf-ray: {v}-FRA"], lambda r: _sha(r, 16)),
    (
        ["S3 object version id {v} (archive bucket)", "S3 object version id {v}"],
        lambda r: _s(r, 32, URLSAFE),
    ),
    (
        [
            "GCP service account private_key_id {v} (the id, not the key)",
            "service account mt-gateway@lingvista-mt.iam.gserviceaccount.com, key id {v}",
        ],
        lambda r: _sha(r, 40),
    ),
    (
        [
            "Azure subscription id {v}",
            "Translator resource id /subscriptions/{v}/resourceGroups/mt",
        ],
        _uuid,
    ),
    (
        [
            "Azure Translator region: {v} (key is in Key Vault)",
            "Ocp-Apim-Subscription-Region: {v}",
        ],
        lambda r: (
            r.choice(
                [
                    "westeurope",
                    "northeurope",
                    "uaenorth",
                    "francecentral",
                    "swedencentral",
                    "eastasia",
                ]
            )
            + " / resource "
            + _s(r, 6, LOW)
        ),
    ),
    (
        [
            "KMS key id {v} used for the TM backup bucket",
            "kms key arn:aws:kms:eu-north-1:{v}",
        ],
        lambda r: f"{r.randint(10**11, 10**12)}:key/{_uuid(r)}",
    ),
    (
        [
            "Vault lease id database/creds/tms-ro/{v}",
            "lease_id: pki/issue/lingvista/{v}",
        ],
        lambda r: _s(r, 24),
    ),
    (
        ["Vault key version {v}, rotated by {who}", "secret metadata: version={v}"],
        lambda r: str(r.randint(2, 60)),
    ),
    (
        ["PGP key fingerprint {v} for encrypted deliveries", "gpg --recv-keys {v}"],
        lambda r: " ".join(_s(r, 4, HEX.upper()) for _ in range(10)),
    ),
    (
        ["SSH host key fingerprint {v} for {host}", "ECDSA key fingerprint is {v}."],
        _fpr,
    ),
    (["Public key for the SFTP account: {v}", "authorized_keys: {v}"], _pubkey),
    (
        ["Client TLS certificate (public):\n{v}", "Server cert for {host}:\n{v}"],
        _fake_cert,
    ),
    (
        ["Cert thumbprint {v}", "SHA1 thumbprint of the SAML signing cert: {v}"],
        lambda r: _sha(r, 40).upper(),
    ),
    (["Screenshot for the {lang} UI review: {v}", "logo: {v}"], _png),
    (
        ['glossary upload body: {{"file": "{v}", "name": "terms_{lang}.csv"}}'],
        lambda r: base64.b64encode(
            f"source;target\n{r.choice(WORDS)};{r.choice(WORDS)}{r.randint(1, 999)}\n".encode()
        ).decode(),
    ),
    # placeholders and references
    (
        [
            "DEEPL_AUTH_KEY={v}  # fill in locally",
            "Set the Lokalise token to {v} in .env.example",
        ],
        _ph,
    ),
    (["api_key: {v}", "password = {v}  # ask {who}"], _ph),
    (["Authorization: Bearer {v}", "X-Api-Key: {v}"], _ph),
    (
        ["key: ${{{{ secrets.{v} }}}}", "env:\n  TOKEN: ${{{{ secrets.{v} }}}}"],
        _ref_env,
    ),
    (
        ['token = Variable.get("{v}")', 'pw = os.environ["{v}"]'],
        lambda r: _ref_env(r).lower() + str(r.randint(1, 9)),
    ),
    (
        [
            'dbutils.secrets.get(scope="loc", key="{v}")',
            'secret = dbutils.secrets.get("l10n", "{v}")',
        ],
        lambda r: r.choice(WORDS) + "-" + r.choice(["deepl", "lokalise", "plunet", "pg"]) + str(r.randint(1, 99)),
    ),
    (
        [
            "vault kv get secret/l10n/{v}",
            "Secret lives at secret/data/vendors/{v} in Vault",
        ],
        lambda r: r.choice(CLIENTS).split()[0].lower() + "/" + r.choice(["deepl", "sftp", "plunet", "xtrf"]),
    ),
    (
        [
            "Key Vault reference: @Microsoft.KeyVault(SecretUri=https://kv-lingvista.vault.azure.net/secrets/{v}/)",
            "az keyvault secret show --vault-name kv-lingvista --name {v}",
        ],
        lambda r: r.choice(["deepl-key", "translator-key", "sftp-pass", "pg-pass"]) + "-" + str(r.randint(1, 999)),
    ),
    (
        [
            "aws secretsmanager get-secret-value --secret-id {v}",
            "Secret ARN for PG: arn:aws:secretsmanager:eu-north-1:123456789012:secret:{v}",
        ],
        lambda r: "l10n/" + r.choice(WORDS) + "-" + _s(r, 6),
    ),
    (
        [
            'password is in 1Password, item "{v}"',
            "Bitwarden entry {v} (shared collection Vendors)",
        ],
        lambda r: r.choice(CLIENTS) + " " + r.choice(["SFTP", "memoQ", "Plunet", "XTM"]) + f" #{r.randint(1, 99)}",
    ),
    (
        [
            "The DeepL key is stored in the env var {v}, never in the repo",
            "Read {v} from the environment",
        ],
        lambda r: _ref_env(r) + "_" + r.choice(["PROD", "STAGING", "VENDOR", "EU"]) + str(r.randint(1, 9)),
    ),
    (
        [
            "k8s: valueFrom.secretKeyRef name={v} key=token",
            "kubectl get secret {v} -o name",
        ],
        lambda r: r.choice(["deepl", "lokalise", "xtrf", "pg"]) + "-creds-" + _s(r, 5, LOW + DIG),
    ),
    (["Password: {v}", "pwd shown in the log as {v}"], _mask),
    (
        [
            "Token rotated on {v}; new value is in Vault",
            "Plunet password changed {v}, see 1Password",
        ],
        _date,
    ),
    (
        [
            "The DeepL docs example key 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx:fx' — ours is in vault {v}",
            "Docs say: export LOKALISE_TOKEN=<token>; ticket {v}",
        ],
        lambda r: f"LOC-{r.randint(100, 9999)}",
    ),
    (
        [
            "Default admin password for a fresh memoQ install is documented as 'changeme' - changed it on {v}",
            "Vendor manual: initial password 'password123' must be changed at first login ({v})",
        ],
        _date,
    ),
    # encrypted / hashed
    (["ansible group_vars/vendors.yml:\nsftp_password: !vault |\n  {v}"], _vault_blob),
    (["pg_password: {v}", "deepl_key: {v}\nsops:\n  version: 3.9.0"], _sops),
    (["WordPress user hash for {who}: {v}", "htpasswd entry: {user}:{v}"], _bcrypt),
    (
        [
            "users table: password_hash = '{v}'",
            "argon2 hash of the portal password: {v}",
        ],
        _argon,
    ),
    (
        ["Postgres role hash: {v}", "pg_authid rolpassword {v}"],
        lambda r: "SCRAM-SHA-256$4096:" + _b64(r, 16) + "$" + _b64(r, 32) + ":" + _b64(r, 32),
    ),
    (
        ["wp_users.user_pass = {v}", "phpass hash {v}"],
        lambda r: "$P$B" + _s(r, 30, ALNUM + "./"),
    ),
    (
        ["Django hash: {v}", "auth_user.password={v}"],
        lambda r: "pbkdf2_sha256$870000$" + _s(r, 22) + "$" + _b64(r, 32),
    ),
    (
        ["encrypted column value {v}", "Fernet-encrypted blob stored in DB: {v}"],
        lambda r: "gAAAAAB" + _s(r, 100, URLSAFE) + "==",
    ),
    # misc noise
    (
        [
            "memoQ server version {v} installed on {host}",
            "Trados GroupShare {v} upgrade done",
        ],
        _semver,
    ),
    (
        [
            "Word count {v} for {proj}, fuzzy 85-94%: {n}",
            "Invoice INV-{v} total EUR {n}",
        ],
        lambda r: str(r.randint(1000, 99999)),
    ),
    (
        ["IBAN check: reference RF{v} (not sensitive)", "Payment reference {v}"],
        lambda r: str(r.randint(10**15, 10**16)),
    ),
    (
        [
            "Phone bridge PIN for {client} interpreting: see calendar invite; dial-in {v}",
            "Dial-in number {v}",
        ],
        lambda r: f"+358 {r.randint(10, 99)} {r.randint(100, 999)} {r.randint(1000, 9999)}",
    ),
    (
        ["Translation memory segment hash {v}", "TU id {v} in {lang} TM"],
        lambda r: _s(r, 16, HEX) + "-" + _s(r, 4, HEX),
    ),
    (
        ["Lokalise key name: {v}", "string key {v} missing in {lang}"],
        lambda r: (
            r.choice(["auth", "checkout", "settings", "onboarding"])
            + "."
            + r.choice(WORDS)
            + "_"
            + r.choice(["title", "secret_label", "token_hint", "password_placeholder"])
            + str(r.randint(1, 99))
        ),
    ),
    (
        ['UI string to translate: "{v}"', 'source: "{v}" -> translate for {lang}'],
        lambda r: (
            r.choice(
                [
                    "Enter your API key",
                    "Reset password",
                    "Your token expired",
                    "Copy secret",
                    "Show password",
                    "Generate new key",
                ]
            )
            + f" ({r.randint(1, 999)})"
        ),
    ),
    (
        ["Random seed {v} for the MT sampling eval", "shuffle seed={v}"],
        lambda r: str(r.randint(1, 10**9)),
    ),
    (
        ["Base64 of the CSV header: {v}", "decoded body {v}"],
        lambda r: base64.b64encode(f"id,source,target,{r.choice(LANGS)},{r.randint(1, 10**6)}".encode()).decode(),
    ),
    (
        ["JWKS key id (kid): {v}", "kid in JWKS: {v}"],
        lambda r: _s(r, 43, URLSAFE)[: r.randint(20, 43)],
    ),
    (
        ["Public JWKS modulus n={v}", "OIDC discovery jwks n: {v}"],
        lambda r: _s(r, 342, URLSAFE),
    ),
    (
        ["Weblate project slug {v}", "Transifex resource o:lingvista:p:{v}:r:strings"],
        lambda r: r.choice(WORDS) + "-" + r.choice(WORDS) + "-" + str(r.randint(1, 99)),
    ),
    (
        ["Salt column (public, stored next to the hash): {v}", "nonce={v}"],
        lambda r: _s(r, 24, HEX),
    ),
    (
        [
            "Webhook endpoint (our side, no token): https://{host}/hooks/{v}",
            "callback URL https://{host}/cb/{v}",
        ],
        lambda r: r.choice(["phrase", "smartling", "lokalise", "stripe"]) + "/" + str(r.randint(1, 999)),
    ),
    (
        [
            "Slack webhook was revoked; use the env var SLACK_WEBHOOK_URL (see {v})",
            "Old webhook deleted in {v}",
        ],
        lambda r: f"LOC-{r.randint(100, 9999)}",
    ),
    (["Commit signing key id {v}", "GPG key id {v}"], lambda r: _s(r, 16, HEX.upper())),
    (
        ["Docker image tag {v}", "helm chart version {v}"],
        lambda r: _semver(r) + "-" + _sha(r, 7),
    ),
    (
        ["Hugging Face dataset {v}", "dataset revision {v}"],
        lambda r: (
            "Helsinki-NLP/" + r.choice(["tatoeba_mt", "europarl", "opus_books", "news_commentary"]) + "@" + _sha(r, 40)
        ),
    ),
]


def _mk_look(templates, fn):
    def gen(r: random.Random) -> str:
        c = _ctx(r)
        return r.choice(templates).format(v=fn(r), **c)

    return gen


_LOOK = [_mk_look(t, f) for t, f in LOOK_SPECS]


def _lookalikes(r: random.Random, seen: set[str]) -> list[str]:
    out = []
    for gen in _LOOK:
        got = tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 5000:
                raise RuntimeError("look-alike generator cannot produce enough distinct texts")
            text = gen(r)
            if text in seen:
                continue
            seen.add(text)
            out.append(text)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives = _positives(r, seen)
    lookalikes = _lookalikes(r, seen)
    return positives, lookalikes
