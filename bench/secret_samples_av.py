"""Labelled test set AV for a secret detector: film/TV post-production studio and render farm.

Theme
-----
Memories an AI coding agent keeps for a post-production studio: shared storage (LucidLink, Synology,
QNAP, Isilon), client transfer (Aspera, Signiant, MASV, Frame.io, Dropbox), the DaVinci Resolve project
server and its PostgreSQL, Avid / NEXIS and license servers (RLM, FlexLM), review and tracking
(ShotGrid script keys, ftrack API keys), the render farm (Thinkbox Deadline, MongoDB, AWS spot, Backblaze
B2), delivery (Vimeo, YouTube, SFTP drop boxes), edit-suite Macs (local admin, FileVault), office Wi-Fi,
and the pipeline team's Python tools, CI and GitHub.  Styles: notes, lessons, runbooks, TODOs, handovers,
tickets, emails, chat (English plus French, Korean, Hindi, Mexican Spanish, Czech); config (.env, JSON,
YAML, INI, Python settings, Deadline params, plists, shell profiles); tool output (CLI, ssh, curl -v,
render/transfer logs, CI logs, database consoles).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: ``(text, kind, secret)``; ``secret`` is an exact substring of ``text`` and the only
  credential in it.  Every kind has exactly 30 positives.
* ``lookalikes``: texts with no credential; each generator in ``_LOOK`` contributes ``LOOK_PER_GEN``
  distinct texts.
* Deterministic per seed (``random.Random`` seeded from ``seed`` only); no duplicate texts overall.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs: only the
  password.  Pre-signed URLs: the signature.  PEM / OpenSSH private keys: the whole armoured block.
* UUID-shaped vendor tokens (ftrack API keys) are secrets only when the text names them as a key.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids, Firebase
  web apiKeys, search-only keys, public certificates and SSH public keys), vendor documentation example
  values, encrypted blobs (Ansible vault, sops ENC[...]) and password hashes are look-alikes.
* Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes and bodies are assembled at run time.
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
AL = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = AL + "+/"
B64U = AL + "-_"


def rs(r: random.Random, n: int, alpha: str = AL) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()


def _b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# ---------------------------------------------------------------- passwords
WORDS = [
    "tulip",
    "rover",
    "marble",
    "falcon",
    "dailies",
    "lumen",
    "cobalt",
    "harbor",
    "kodak",
    "reel",
    "grain",
    "ember",
    "saffron",
    "copper",
    "velvet",
    "comet",
    "orchid",
    "glacier",
    "tango",
    "pixel",
    "mango",
    "walrus",
    "cactus",
    "violet",
    "thunder",
    "maple",
    "otter",
    "quartz",
    "banjo",
    "sierra",
    "nebula",
    "pepper",
    "lantern",
    "biscuit",
    "meadow",
    "raven",
    "anchor",
    "juniper",
    "pretzel",
    "canyon",
]
SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Fall",
    "Paris",
    "Praha",
    "Seoul",
    "Mumbai",
    "Oaxaca",
]
SYM = "!#%*-_.~"
PWGEN = AL + "!#%*-_.~^+="


def _pw(r: random.Random, safe: bool = False) -> str:
    style = r.randrange(6)
    if style == 0:
        s = f"{r.choice(SEASONS)}{r.randrange(2019, 2028)}{r.choice('!#*.')}"
    elif style == 1:
        s = f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randrange(10, 100)}"
    elif style == 2:
        s = rs(r, r.randrange(14, 22), AL + "-_.~" if safe else PWGEN)
    elif style == 3:
        sep = r.choice(["-", ".", "_"])
        s = sep.join(r.choice(WORDS) for _ in range(r.randrange(4, 6)))
    elif style == 4:
        w = r.choice(WORDS).capitalize().replace("o", "0").replace("a", "@" if not safe else "4")
        s = f"{w}{r.choice(WORDS).capitalize()}{r.randrange(1, 999)}{r.choice('!*.~')}"
    else:
        s = f"{r.choice(WORDS).capitalize()}{r.choice('_.-')}{rs(r, 4, DIG)}{r.choice(WORDS)}"
    return s


def _safe_pw(r: random.Random) -> str:
    return _pw(r, safe=True)


def _pem_rsa(r: random.Random) -> str:
    der = b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + bytes(r.getrandbits(8) for _ in range(1180))
    body = base64.b64encode(der).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    tag = "RSA " + "PRIVATE" + " KEY"
    return "-----BEGIN " + tag + "-----\n" + "\n".join(lines) + "\n-----END " + tag + "-----"


def _pem_openssh(r: random.Random) -> str:
    raw = (
        b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
        b"\x00\x00\x003\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 "
        + bytes(r.getrandbits(8) for _ in range(r.randrange(300, 340)))
    )
    body = base64.b64encode(raw).decode()
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    tag = "OPENSSH " + "PRIVATE" + " KEY"
    return "-----BEGIN " + tag + "-----\n" + "\n".join(lines) + "\n-----END " + tag + "-----"


def _pem_ec(r: random.Random) -> str:
    der = b"\x30\x77\x02\x01\x01\x04\x20" + bytes(r.getrandbits(8) for _ in range(114))
    body = base64.b64encode(der).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    tag = "EC " + "PRIVATE" + " KEY"
    return "-----BEGIN " + tag + "-----\n" + "\n".join(lines) + "\n-----END " + tag + "-----"


def _ops(r: random.Random) -> str:
    payload = {
        "signInAddress": "my.1password.com",
        "userAuth": {
            "method": "SRPg-4096",
            "alg": "PBES2g-HS256",
            "iterations": 650000,
            "salt": _b64u(bytes(r.getrandbits(8) for _ in range(16))),
        },
        "email": rs(r, 13, LOW + DIG) + "@1passwordserviceaccounts.com",
        "srpX": rs(r, 64, HEX),
        "muk": {
            "alg": "A256GCM",
            "ext": True,
            "k": _b64u(bytes(r.getrandbits(8) for _ in range(32))),
            "key_ops": ["encrypt", "decrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": "A3-" + rs(r, 6, UP + DIG) + "-" + rs(r, 6, UP + DIG) + "-" + rs(r, 5, UP + DIG),
        "throttleSecret": {"seed": rs(r, 64, HEX), "deviceUuid": rs(r, 26, LOW + DIG)},
        "deviceUuid": rs(r, 26, LOW + DIG),
    }
    return "op" + "s_" + _b64u(json.dumps(payload, separators=(",", ":")).encode())


def _uuid(r: random.Random) -> str:
    h = rs(r, 32, HEX)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# ------------------------------------------------------------ secret values
S = {
    "frameio": lambda r: "fio" + "-u-" + rs(r, 64, B64U),
    "dropbox": lambda r: "sl" + "." + rs(r, r.choice([136, 138, 139]), B64U),
    "dropbox_secret": lambda r: rs(r, 15, LOW + DIG),
    "masv": lambda r: rs(r, 40, AL),
    "signiant": lambda r: rs(r, 40, AL + "-_"),
    "vimeo": lambda r: rs(r, 32, HEX),
    "vimeo_secret": lambda r: rs(r, 128, B64),
    "yt_refresh": lambda r: "1" + "//0" + rs(r, 1, "3456789abcdefg") + rs(r, r.choice([98, 100, 102]), AL + "-_"),
    "gcp_secret": lambda r: "GOC" + "SPX-" + rs(r, 28, AL + "-_"),
    "gapi": lambda r: "AI" + "za" + "Sy" + rs(r, 33, AL + "-_"),
    "ghp": lambda r: "gh" + "p_" + rs(r, 36, AL),
    "gh_fine": lambda r: "github" + "_pat_" + "11" + rs(r, 20, UP + DIG) + "_" + rs(r, 59, AL),
    "xoxb": lambda r: "xo" + "xb-" + rs(r, 11, DIG) + "-" + rs(r, 13, DIG) + "-" + rs(r, 24, AL),
    "slack_hook": lambda r: rs(r, 24, AL),
    "discord_hook": lambda r: rs(r, 68, AL + "-_"),
    "sentry": lambda r: "sntry" + "u_" + rs(r, 64, HEX),
    "pypi": lambda r: "pypi" + "-AgEIcHlwaS5vcmc" + rs(r, r.randrange(140, 170), B64U),
    "npm": lambda r: "np" + "m_" + rs(r, 36, AL),
    "glpat": lambda r: "gl" + "pat-" + rs(r, 20, AL + "-_"),
    "dckr": lambda r: "dckr" + "_pat_" + rs(r, 27, AL + "-_"),
    "jenkins": lambda r: "11" + rs(r, 32, HEX),
    "twilio": lambda r: rs(r, 32, HEX),
    "sendgrid": lambda r: "S" + "G." + rs(r, 22, B64U) + "." + rs(r, 43, B64U),
    "azure_key": lambda r: _b64(r, 64),
    "cloudflare": lambda r: rs(r, 40, AL + "-_"),
    "tailscale": lambda r: "tskey" + "-auth-" + rs(r, 11, AL) + "CNTRL-" + rs(r, 33, AL),
    "openai": lambda r: "sk" + "-proj-" + rs(r, 58, B64U) + "T3B" + "lbkFJ" + rs(r, 58, B64U),
    "anthropic": lambda r: "sk" + "-ant-" + "api03-" + rs(r, 93, B64U) + "AA",
    "hf": lambda r: "h" + "f_" + rs(r, 34, string.ascii_letters),
    "ops": _ops,
    "vault": lambda r: "hv" + "s." + "CAESI" + rs(r, 86, B64U),
    "django": lambda r: rs(r, 50, LOW + DIG + "!@#$%^&*(-_=+)"),
    "sig": lambda r: rs(r, 64, HEX),
    "telegram": lambda r: rs(r, 10, DIG) + ":" + "AA" + rs(r, 33, B64U),
    "datadog": lambda r: rs(r, 32, HEX),
    "grafana": lambda r: "gl" + "sa_" + rs(r, 32, AL) + "_" + rs(r, 8, HEX),
    "age": lambda r: "AGE-SECRET" + "-KEY-1" + rs(r, 58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
    "b2": lambda r: "K0" + "0" + r.choice("0123456") + rs(r, 27, AL),
    "ftrack": _uuid,
    "shotgrid": lambda r: rs(r, 25, LOW + DIG + "!#$%^&*()-"),
    "aws_secret": lambda r: rs(r, 40, AL + "/+"),
    "filevault": lambda r: "-".join(rs(r, 4, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6)),
    "stripe": lambda r: "sk" + "_live_" + rs(r, 99, AL),
    "rsa": _pem_rsa,
    "openssh": _pem_openssh,
    "ec": _pem_ec,
    "pw": _pw,
    "spw": _safe_pw,
}


def _slack_url(r, s):
    return "https://hooks." + "slack.com/services/" + "T" + rs(r, 10, UP + DIG) + "/B" + rs(r, 10, UP + DIG) + "/" + s


def _discord_url(r, s):
    return "https://discord.com/api/" + "webhooks/" + rs(r, 19, DIG) + "/" + s


def _presigned(r, s):
    d = f"2026{r.randrange(1, 13):02d}{r.randrange(1, 29):02d}"
    key = f"{r.choice(['deliveries', 'dailies', 'conform'])}/{r.choice(PROJ)}_{r.randrange(10, 999):03d}.mov"
    return (
        f"https://{r.choice(['studio-deliveries', 'farm-output', 'client-review'])}.s3.amazonaws.com/{key}"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={'AS' + 'IA' + rs(r, 16, UP + '234567')}"
        f"%2F{d}%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date={d}T{r.randrange(10, 23)}0000Z"
        f"&X-Amz-Expires={r.choice([3600, 86400, 604800])}&X-Amz-SignedHeaders=host&X-Amz-Signature={s}"
    )


def _az(r, s):
    return (
        f"DefaultEndpointsProtocol=https;AccountName={r.choice(['studioarchive', 'farmcache', 'vfxproxy'])}"
        f"{r.randrange(10, 99)};AccountKey={s};EndpointSuffix=core.windows.net"
    )


# kind, VAR, label, value-key, category (p=password, t=token, u=url/connection, m=multi-line), carrier
KINDS = [
    (
        "lucidlink_filespace_password",
        "LUCIDLINK_PASSWORD",
        "LucidLink filespace password",
        "pw",
        "p",
        None,
    ),
    (
        "synology_admin_password",
        "SYNOLOGY_ADMIN_PASSWORD",
        "Synology DSM admin password",
        "pw",
        "p",
        None,
    ),
    (
        "qnap_admin_password",
        "QNAP_ADMIN_PASSWORD",
        "QNAP admin password",
        "pw",
        "p",
        None,
    ),
    (
        "isilon_root_password",
        "ISILON_ROOT_PASSWORD",
        "Isilon root password",
        "pw",
        "p",
        None,
    ),
    (
        "aspera_node_password",
        "ASPERA_NODE_PASSWORD",
        "Aspera node API password",
        "pw",
        "p",
        None,
    ),
    (
        "signiant_client_secret",
        "SIGNIANT_CLIENT_SECRET",
        "Signiant client secret",
        "signiant",
        "t",
        None,
    ),
    ("masv_api_key", "MASV_API_KEY", "MASV API key", "masv", "t", None),
    (
        "frameio_developer_token",
        "FRAMEIO_TOKEN",
        "Frame.io developer token",
        "frameio",
        "t",
        None,
    ),
    (
        "dropbox_access_token",
        "DROPBOX_ACCESS_TOKEN",
        "Dropbox access token",
        "dropbox",
        "t",
        None,
    ),
    (
        "dropbox_app_secret",
        "DROPBOX_APP_SECRET",
        "Dropbox app secret",
        "dropbox_secret",
        "t",
        None,
    ),
    (
        "postgres_password",
        "RESOLVE_DB_URL",
        "Resolve project server DB URL",
        "spw",
        "u",
        lambda r, s: (
            f"postgresql://{r.choice(['resolve', 'postgres', 'davinci'])}:{s}@{r.choice(HOSTS)}:5432/"
            f"{r.choice(['resolve_projects', 'resolve_2026', 'grading'])}"
        ),
    ),
    (
        "resolve_db_password",
        "RESOLVE_PG_PASSWORD",
        "DaVinci Resolve PostgreSQL password",
        "pw",
        "p",
        None,
    ),
    (
        "avid_nexis_admin_password",
        "NEXIS_ADMIN_PASSWORD",
        "Avid NEXIS administrator password",
        "pw",
        "p",
        None,
    ),
    (
        "rlm_admin_password",
        "RLM_ADMIN_PASSWORD",
        "RLM web admin password",
        "pw",
        "p",
        None,
    ),
    (
        "shotgrid_script_key",
        "SG_SCRIPT_KEY",
        "ShotGrid script key",
        "shotgrid",
        "t",
        None,
    ),
    ("ftrack_api_key", "FTRACK_API_KEY", "ftrack API key", "ftrack", "t", None),
    (
        "mongodb_password",
        "DEADLINE_MONGO_URI",
        "Deadline MongoDB URI",
        "spw",
        "u",
        lambda r, s: (
            f"mongodb://{r.choice(['deadline', 'dlAdmin', 'farm'])}:{s}@{r.choice(HOSTS)}:27017/"
            f"deadline10db?authSource=admin"
        ),
    ),
    (
        "deadline_rcs_cert_password",
        "DEADLINE_RCS_CERT_PASSWORD",
        "Deadline RCS certificate password",
        "pw",
        "p",
        None,
    ),
    (
        "aws_secret_access_key",
        "AWS_SECRET_ACCESS_KEY",
        "AWS secret access key for the spot fleet",
        "aws_secret",
        "t",
        None,
    ),
    (
        "backblaze_b2_application_key",
        "B2_APPLICATION_KEY",
        "Backblaze B2 application key",
        "b2",
        "t",
        None,
    ),
    (
        "vimeo_access_token",
        "VIMEO_ACCESS_TOKEN",
        "Vimeo access token",
        "vimeo",
        "t",
        None,
    ),
    (
        "vimeo_client_secret",
        "VIMEO_CLIENT_SECRET",
        "Vimeo client secret",
        "vimeo_secret",
        "t",
        None,
    ),
    (
        "google_oauth_refresh_token",
        "YOUTUBE_REFRESH_TOKEN",
        "YouTube CMS refresh token",
        "yt_refresh",
        "t",
        None,
    ),
    (
        "google_oauth_client_secret",
        "GOOGLE_CLIENT_SECRET",
        "Google OAuth client secret",
        "gcp_secret",
        "t",
        None,
    ),
    (
        "google_api_key",
        "YOUTUBE_API_KEY",
        "YouTube Data API server key",
        "gapi",
        "t",
        None,
    ),
    (
        "sftp_password",
        "DELIVERY_SFTP_URL",
        "broadcaster SFTP drop box URL",
        "spw",
        "u",
        lambda r, s: (
            f"sftp://{r.choice(['studio_delivery', 'vendor042', 'postco'])}:{s}@"
            f"{r.choice(['ingest', 'drop', 'sftp'])}.{r.choice(BROADCASTERS)}:22/incoming"
        ),
    ),
    (
        "delivery_sftp_password",
        "SFTP_PASSWORD",
        "delivery SFTP password",
        "pw",
        "p",
        None,
    ),
    (
        "macos_local_admin_password",
        "MAC_ADMIN_PASSWORD",
        "edit bay Mac local admin password",
        "pw",
        "p",
        None,
    ),
    (
        "filevault_recovery_key",
        "FILEVAULT_RECOVERY_KEY",
        "FileVault recovery key",
        "filevault",
        "t",
        None,
    ),
    ("wifi_password", "OFFICE_WIFI_PSK", "office Wi-Fi password", "pw", "p", None),
    ("github_pat", "GITHUB_TOKEN", "GitHub personal access token", "ghp", "t", None),
    (
        "github_fine_grained_pat",
        "GH_PAT",
        "GitHub fine-grained token",
        "gh_fine",
        "t",
        None,
    ),
    (
        "rsa_private_key",
        "GITHUB_APP_PRIVATE_KEY",
        "GitHub App private key",
        "rsa",
        "m",
        None,
    ),
    ("openssh_private_key", "DEPLOY_KEY", "deploy key", "openssh", "m", None),
    ("ec_private_key", "RCS_TLS_KEY", "RCS TLS private key", "ec", "m", None),
    ("slack_bot_token", "SLACK_BOT_TOKEN", "Slack bot token", "xoxb", "t", None),
    (
        "slack_webhook_url",
        "SLACK_WEBHOOK_URL",
        "Slack webhook for #render-farm",
        "slack_hook",
        "u",
        _slack_url,
    ),
    (
        "discord_webhook_url",
        "DISCORD_WEBHOOK_URL",
        "Discord webhook for the farm bot",
        "discord_hook",
        "u",
        _discord_url,
    ),
    (
        "sentry_auth_token",
        "SENTRY_AUTH_TOKEN",
        "Sentry auth token",
        "sentry",
        "t",
        None,
    ),
    ("pypi_api_token", "PYPI_TOKEN", "PyPI API token", "pypi", "t", None),
    ("npm_access_token", "NPM_TOKEN", "npm token", "npm", "t", None),
    ("gitlab_pat", "GITLAB_TOKEN", "GitLab personal access token", "glpat", "t", None),
    ("docker_hub_pat", "DOCKERHUB_TOKEN", "Docker Hub access token", "dckr", "t", None),
    (
        "jenkins_api_token",
        "JENKINS_API_TOKEN",
        "Jenkins API token",
        "jenkins",
        "t",
        None,
    ),
    (
        "twilio_auth_token",
        "TWILIO_AUTH_TOKEN",
        "Twilio auth token",
        "twilio",
        "t",
        None,
    ),
    ("sendgrid_api_key", "SENDGRID_API_KEY", "SendGrid API key", "sendgrid", "t", None),
    (
        "azure_storage_account_key",
        "AZURE_STORAGE_CONNECTION_STRING",
        "Azure storage connection string",
        "azure_key",
        "u",
        _az,
    ),
    (
        "cloudflare_api_token",
        "CLOUDFLARE_API_TOKEN",
        "Cloudflare API token",
        "cloudflare",
        "t",
        None,
    ),
    ("tailscale_auth_key", "TS_AUTHKEY", "Tailscale auth key", "tailscale", "t", None),
    ("openai_api_key", "OPENAI_API_KEY", "OpenAI API key", "openai", "t", None),
    (
        "anthropic_api_key",
        "ANTHROPIC_API_KEY",
        "Anthropic API key",
        "anthropic",
        "t",
        None,
    ),
    ("huggingface_token", "HF_TOKEN", "Hugging Face token", "hf", "t", None),
    (
        "onepassword_service_account_token",
        "OP_SERVICE_ACCOUNT_TOKEN",
        "1Password service account token",
        "ops",
        "t",
        None,
    ),
    ("vault_token", "VAULT_TOKEN", "Vault token", "vault", "t", None),
    (
        "django_secret_key",
        "DJANGO_SECRET_KEY",
        "Django SECRET_KEY of the review portal",
        "django",
        "t",
        None,
    ),
    (
        "s3_presigned_url",
        "DELIVERY_LINK",
        "pre-signed delivery link",
        "sig",
        "u",
        _presigned,
    ),
    (
        "telegram_bot_token",
        "TELEGRAM_BOT_TOKEN",
        "Telegram bot token",
        "telegram",
        "t",
        None,
    ),
    ("datadog_api_key", "DD_API_KEY", "Datadog API key", "datadog", "t", None),
    (
        "grafana_service_account_token",
        "GRAFANA_TOKEN",
        "Grafana service account token",
        "grafana",
        "t",
        None,
    ),
    ("age_secret_key", "SOPS_AGE_KEY", "age secret key for sops", "age", "t", None),
    (
        "stripe_secret_key",
        "STRIPE_SECRET_KEY",
        "Stripe secret key (stock footage shop)",
        "stripe",
        "t",
        None,
    ),
    (
        "mysql_password",
        "FTRACK_DB_URL",
        "ftrack MySQL URL",
        "spw",
        "u",
        lambda r, s: f"mysql://{r.choice(['ftrack', 'root', 'ftrack_app'])}:{s}@{r.choice(HOSTS)}:3306/ftrack",
    ),
    (
        "redis_password",
        "REDIS_URL",
        "Redis URL for the publish queue",
        "spw",
        "u",
        lambda r, s: f"redis://:{s}@{r.choice(HOSTS)}:6379/{r.randrange(0, 4)}",
    ),
    (
        "rabbitmq_password",
        "CELERY_BROKER_URL",
        "Celery broker URL",
        "spw",
        "u",
        lambda r, s: f"amqp://{r.choice(['celery', 'pipeline', 'render'])}:{s}@{r.choice(HOSTS)}:5672/farm",
    ),
    (
        "basic_auth_url_password",
        "NAS_API_URL",
        "NAS API URL",
        "spw",
        "u",
        lambda r, s: f"https://{r.choice(['admin', 'svc_backup', 'pipeline'])}:{s}@{r.choice(HOSTS)}:5001/webapi/",
    ),
    (
        "smtp_password",
        "SMTP_PASSWORD",
        "SMTP relay password for farm notifications",
        "pw",
        "p",
        None,
    ),
    (
        "ldap_bind_password",
        "LDAP_BIND_PASSWORD",
        "AD/LDAP bind password",
        "pw",
        "p",
        None,
    ),
    ("ipmi_password", "IPMI_PASSWORD", "render node IPMI password", "pw", "p", None),
    (
        "vpn_preshared_key",
        "VPN_PSK",
        "site-to-site VPN pre-shared key",
        "pw",
        "p",
        None,
    ),
]

HOSTS = [
    "nas-01.studio.lan",
    "qnap-edit.studio.lan",
    "isilon-mgmt.studio.lan",
    "resolve-db.studio.lan",
    "mongo01.farm.lan",
    "deadline-rcs.farm.lan",
    "pipe-tools.studio.lan",
    "10.20.4.15",
    "10.20.8.3",
    "db-ftrack.studio.lan",
    "mq.pipe.lan",
    "cache.pipe.lan",
    "render-042.farm.lan",
    "avid-ms.studio.lan",
]
PROJ = [
    "NIGHTFALL",
    "BLUE_HOUR",
    "OSTRAVA",
    "SEOUL_LINE",
    "MONSOON",
    "LA_PALOMA",
    "KESTREL",
    "DRIFTWOOD",
    "LUMIERE",
    "PARALLAX",
    "HOLLOWAY",
    "TIDEWATER",
]
BROADCASTERS = [
    "bbc.co.uk",
    "itv.com",
    "arte.tv",
    "ceskatelevize.cz",
    "tving.com",
    "netflixstudios.com",
    "hbomax-delivery.com",
    "televisa.com",
    "zee5.com",
    "canalplus.fr",
]
FIRST = [
    "Maya",
    "Tomas",
    "Jiwoo",
    "Priya",
    "Luis",
    "Claire",
    "Ondrej",
    "Aditi",
    "Sofia",
    "Hugo",
    "Minji",
    "Ramon",
    "Petra",
    "Arjun",
    "Elodie",
    "Ken",
]
USERS = [
    "mhart",
    "tnovak",
    "jkim",
    "psharma",
    "lgarcia",
    "cdubois",
    "odvorak",
    "aiyer",
    "sflores",
    "hleroy",
    "mpark",
    "rortiz",
    "pkral",
    "areddy",
    "emartin",
    "kito",
]
SVCS = [
    "masv",
    "frameio",
    "aspera",
    "signiant",
    "vimeo",
    "dropbox",
    "shotgrid",
    "ftrack",
    "deadline",
    "lucid",
    "b2sync",
    "publisher",
    "notifier",
    "delivery",
]
TOOLS = [
    "sgtk",
    "pipe",
    "farmctl",
    "deliverctl",
    "lucid",
    "ascp",
    "masv-cli",
    "b2",
    "dropbox-sync",
]


def _date(r):
    return f"2026-{r.randrange(1, 13):02d}-{r.randrange(1, 29):02d}"


def _time(r):
    return f"{r.randrange(0, 24):02d}:{r.randrange(0, 60):02d}"


def _ssh_pub(r):
    raw = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes(r.getrandbits(8) for _ in range(32))
    return "ssh-ed25519 " + base64.b64encode(raw).decode() + f" {r.choice(USERS)}@edit-bay-{r.randrange(1, 12)}"


def _cert(r):
    body = base64.b64encode(b"\x30\x82\x03" + bytes(r.getrandbits(8) for _ in range(r.randrange(600, 800)))).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----"


def _anon_jwt(r):
    h = _b64u(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    p = _b64u(
        json.dumps(
            {
                "iss": "supabase",
                "ref": rs(r, 20, LOW),
                "role": "anon",
                "iat": 1700000000 + r.randrange(10**7),
                "exp": 2000000000 + r.randrange(10**7),
            }
        ).encode()
    )
    return f"{h}.{p}.{rs(r, 43, B64U)}"


def _mapbox_pk(r):
    p = _b64u(json.dumps({"u": r.choice(USERS), "a": rs(r, 25, LOW + DIG)}).encode())
    return "pk" + "." + p + "." + rs(r, 22, B64U)


def _ansible_vault(r):
    hx = rs(r, 80 * r.randrange(4, 7), HEX)
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hx[i : i + 80] for i in range(0, len(hx), 80))


def _sops(r):
    return f"ENC[AES256_GCM,data:{_b64(r, r.randrange(12, 30))},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"


def _b64img(r):
    return "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + _b64(r, r.randrange(60, 120))


FILL = {
    "date": _date,
    "time": _time,
    "ts": lambda r: f"{_date(r)} {_time(r)}:{r.randrange(60):02d}",
    "host": lambda r: r.choice(HOSTS),
    "user": lambda r: r.choice(USERS),
    "user2": lambda r: r.choice(USERS),
    "first": lambda r: r.choice(FIRST),
    "first2": lambda r: r.choice(FIRST),
    "proj": lambda r: r.choice(PROJ),
    "shot": lambda r: f"{r.choice('ABCDEFGHK')}{r.randrange(10, 99)}_{r.randrange(1, 60) * 10:04d}",
    "n": lambda r: str(r.randrange(2, 100)),
    "n1": lambda r: str(r.randrange(1, 10)),
    "n3": lambda r: str(r.randrange(100, 999)),
    "n5": lambda r: str(r.randrange(10000, 99999)),
    "frame": lambda r: str(r.randrange(1001, 1400)),
    "ip": lambda r: f"10.{r.randrange(1, 40)}.{r.randrange(256)}.{r.randrange(1, 255)}",
    "objid": lambda r: rs(r, 24, HEX),
    "uuid": _uuid,
    "uuid2": _uuid,
    "sha1": lambda r: rs(r, 40, HEX),
    "sha256": lambda r: rs(r, 64, HEX),
    "sha512": lambda r: rs(r, 128, HEX),
    "md5": lambda r: rs(r, 32, HEX),
    "hex7": lambda r: rs(r, 7, HEX),
    "hex8": lambda r: rs(r, 8, HEX),
    "hex16": lambda r: rs(r, 16, HEX),
    "HEX40": lambda r: rs(r, 40, "0123456789ABCDEF"),
    "ticket": lambda r: f"{r.choice(['PIPE', 'IT', 'FARM', 'OPS'])}-{r.randrange(100, 9999)}",
    "client": lambda r: r.choice(["Arte", "BBC Studios", "Canal+", "Zee5", "Televisa", "CT", "HBO", "Tving"]),
    "svc": lambda r: r.choice(SVCS),
    "tool": lambda r: r.choice(TOOLS),
    "domain": lambda r: r.choice(["northlight.tv", "atelier-post.fr", "studio-dva.cz", "hanbit-post.kr"]),
    "org": lambda r: r.choice(["northlight-pipe", "atelier-post", "dva-pipeline"]),
    "repo": lambda r: r.choice(["pipeline-core", "farm-tools", "delivery-bot", "sg-hooks", "resolve-scripts"]),
    "ver": lambda r: f"{r.randrange(1, 5)}.{r.randrange(0, 20)}.{r.randrange(0, 10)}",
    "apihost": lambda r: r.choice(
        [
            "api.frame.io",
            "api.vimeo.com",
            "api.massive.io",
            "api.dropboxapi.com",
            "pipe-tools.studio.lan",
            "api.github.com",
        ]
    ),
    "b64img": _b64img,
    "b64": lambda r: _b64(r, r.randrange(24, 48)),
    "bcrypt": lambda r: "$" + "2b$" + f"{r.choice([10, 12])}$" + rs(r, 53, AL + "./"),
    "argon2": lambda r: "$argon2id$v=19$m=65536,t=3,p=4$" + _b64(r, 16).rstrip("=") + "$" + _b64(r, 32).rstrip("="),
    "sha512crypt": lambda r: "$" + "6$" + rs(r, 16, AL + "./") + "$" + rs(r, 86, AL + "./"),
    "fp256": lambda r: "SHA256:" + _b64(r, 32).rstrip("="),
    "fpmd5": lambda r: ":".join(rs(r, 2, HEX) for _ in range(16)),
    "sshpub": _ssh_pub,
    "cert": _cert,
    "anonjwt": _anon_jwt,
    "mapbox": _mapbox_pk,
    "vault": _ansible_vault,
    "sops": _sops,
    "stripe_pk": lambda r: "pk" + "_live_" + rs(r, 99, AL),
    "firebase": lambda r: "AI" + "za" + "Sy" + rs(r, 33, AL + "-_"),
    "gclient": lambda r: f"{rs(r, 12, DIG)}-{rs(r, 32, LOW + DIG)}.apps.googleusercontent.com",
    "recaptcha": lambda r: "6L" + rs(r, 38, AL + "-_"),
    "sentry_dsn": lambda r: f"https://{rs(r, 32, HEX)}@o{rs(r, 6, DIG)}.ingest.sentry.io/{rs(r, 7, DIG)}",
    "algolia": lambda r: rs(r, 32, HEX),
    "ytid": lambda r: rs(r, 11, B64U),
    "vimeoid": lambda r: str(r.randrange(700000000, 999999999)),
    "eidr": lambda r: "10.5240/" + "-".join(rs(r, 4, "0123456789ABCDEF") for _ in range(5)) + "-" + rs(r, 1, UP),
    "tc": lambda r: f"{r.randrange(0, 2):02d}:{r.randrange(60):02d}:{r.randrange(60):02d}:{r.randrange(24):02d}",
    "mac": lambda r: "".join(rs(r, 2, HEX) for _ in range(6)),
    "serial": lambda r: "C02" + rs(r, 9, UP + DIG),
    "wrun": lambda r: rs(r, 8, LOW + DIG),
    "crc": lambda r: rs(r, 8, HEX),
    "kid": lambda r: rs(r, 10, UP + DIG),
    "b2keyid": lambda r: "00" + rs(r, 10, HEX) + "0000000000" + r.choice("0123456789"),
    "ghrun": lambda r: str(r.randrange(5000000000, 9999999999)),
    "num": lambda r: str(r.randrange(1, 60)),
    "pct": lambda r: str(r.randrange(1, 100)),
    "word": lambda r: r.choice(WORDS),
}

_PH = re.compile(r"\[\[(\w+)\]\]")


def _fill(r: random.Random, tpl: str, extra: dict | None = None) -> str:
    cache = dict(extra or {})

    def rep(m):
        k = m.group(1)
        if k not in cache:
            cache[k] = FILL[k](r)
        return cache[k]

    return _PH.sub(rep, tpl)


# ---------------------------------------------------------- positive templates
# (categories, template); VAL = value carrying the secret, VAR = env-style name, var = snake name
TEMPLATES = [
    (
        "ptu",
        "Note ([[date]]): [[LABEL]] for [[proj]] is [[VAL]] - don't paste it in #general again.",
    ),
    (
        "ptu",
        (
            "Lesson learned: the [[tool]] job failed for two days because [[VAR]] was rotated.\n"
            "New value: [[VAL]]\nUpdate the farm env, not just your shell."
        ),
    ),
    (
        "ptu",
        (
            "Runbook - restore [[svc]] after a NAS reboot\n1. ssh [[user]]@[[host]]\n"
            "2. export [[VAR]]='[[VAL]]'\n3. ./restart_services.sh\n4. check the Deadline monitor"
        ),
    ),
    (
        "pt",
        (
            "TODO: move the [[LABEL]] out of the wiki into 1Password. Current value [[VAL]] "
            "(set by [[user]] on [[date]])."
        ),
    ),
    (
        "ptu",
        (
            "Shift handover [[date]] nights -> days\n- Farm at [[pct]]% utilisation, [[n3]] frames queued for "
            "[[proj]]\n- [[LABEL]]: [[VAL]]\n- Nothing else blocking."
        ),
    ),
    (
        "ptu",
        (
            "[[ticket]] - [[LABEL]] expired\nReporter: [[user]]\nResolution: generated a new one and stored it "
            "in the pipeline config:\n[[VAL]]\nStatus: Resolved"
        ),
    ),
    (
        "pt",
        (
            "Subject: Access for [[client]] delivery\n\nHi [[first]],\n\nas discussed, here is the [[LABEL]]: "
            "[[VAL]]\nPlease confirm once you've pulled the [[proj]] conform.\n\nBest,\n[[first2]]"
        ),
    ),
    (
        "pt",
        (
            "[[time]] <[[user]]> anyone have the [[LABEL]]? bay [[n1]] lost it after the update\n"
            "[[time]] <[[user2]]> [[VAL]]\n[[time]] <[[user]]> ty, works"
        ),
    ),
    (
        "ptu",
        (
            "Note pour l'équipe : le [[LABEL]] a changé ([[date]]). Nouvelle valeur : [[VAL]] - "
            "ne pas le partager avec le client."
        ),
    ),
    (
        "ptu",
        "메모: [[LABEL]] 갱신함 ([[date]]). 새 값: [[VAL]] - 렌더팜 환경변수에도 반영 필요.",
    ),
    (
        "pt",
        "नोट: [[LABEL]] बदल दिया गया है ([[date]])। नया मान: [[VAL]] - कृपया इसे Slack पर शेयर न करें।",
    ),
    (
        "ptu",
        (
            "Ojo: el [[LABEL]] quedó así después de la rotación del [[date]]: [[VAL]] . "
            "Avísale a [[first]] antes de la entrega de [[proj]]."
        ),
    ),
    (
        "ptu",
        ("Poznámka: [[LABEL]] je teď [[VAL]] (změněno [[date]], [[user]]). Nezapomeň aktualizovat render farmu."),
    ),
    (
        "ptu",
        (
            "# [[proj]] pipeline env\nPIPELINE_ROOT=/Volumes/lucid/[[proj]]\nLOG_LEVEL=info\n[[VAR]]=[[VAL]]\n"
            "STUDIO_TZ=Europe/London"
        ),
    ),
    (
        "ptu",
        '{\n  "service": "[[svc]]",\n  "env": "prod",\n  "[[var]]": "[[VAL]]",\n  "timeout": [[n]]\n}',
    ),
    ("ptu", '[[svc]]:\n  host: [[host]]\n  [[var]]: "[[VAL]]"\n  retries: [[n1]]'),
    ("ptu", "[[[svc]]]\nhost = [[host]]\n[[var]] = [[VAL]]\nverify_ssl = true"),
    (
        "ptu",
        (
            '# settings/production.py\nDEBUG = False\nALLOWED_HOSTS = ["review.[[domain]]"]\n'
            '[[VAR]] = "[[VAL]]"\nTIME_ZONE = "UTC"'
        ),
    ),
    (
        "ptu",
        (
            "# DeadlineRepository10/custom/events/[[svc]]/[[svc]].param\n[State]\nType=Enum\n"
            "Default=Global Enabled\n\n[[[VAR]]]\nType=string\nLabel=[[LABEL]]\nDefault=[[VAL]]"
        ),
    ),
    (
        "pt",
        (
            '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
            "  <key>[[VAR]]</key>\n  <string>[[VAL]]</string>\n  <key>Host</key>\n  <string>[[host]]</string>\n"
            "</dict>\n</plist>"
        ),
    ),
    (
        "ptu",
        (
            '# ~/.zshrc ([[user]] on edit-bay-[[n1]])\nexport PATH="$HOME/bin:$PATH"\n'
            'export [[VAR]]="[[VAL]]"\nalias farm="deadlinecommand -GetSlaveNames"'
        ),
    ),
    (
        "ptu",
        (
            "$ [[tool]] config show --profile [[proj]]\nprofile: [[proj]]\nendpoint: https://[[host]]\n"
            "[[var]]: [[VAL]]\nregion: eu-west-1"
        ),
    ),
    (
        "ptum",
        (
            "[[user]]@[[host]]:~$ cat /opt/pipeline/secrets/[[var]]\n[[VAL]]\n[[user]]@[[host]]:~$ exit\n"
            "logout\nConnection to [[host]] closed."
        ),
    ),
    (
        "b",
        (
            '$ curl -v https://[[apihost]]/v2/me -H "Authorization: Bearer [[VAL]]"\n*   Trying [[ip]]:443...\n'
            "* Connected to [[apihost]] port 443\n> GET /v2/me HTTP/2\n> Host: [[apihost]]\n"
            "> User-Agent: curl/8.4.0\n>\n< HTTP/2 200\n< content-type: application/json"
        ),
    ),
    (
        "ptu",
        (
            "[[ts]] INFO  [Worker render-[[n3]]] Task [[n]] started for job [[objid]]\n"
            "[[ts]] DEBUG dumping env: [[VAR]]=[[VAL]]\n[[ts]] INFO  Rendering frame [[frame]]"
        ),
    ),
    (
        "ptu",
        (
            "[[ts]] transfer-agent: upload [[proj]]_[[shot]]_v[[n3]].mov ([[n5]] MB)\n"
            "[[ts]] transfer-agent: auth [[var]]=[[VAL]]\n[[ts]] transfer-agent: 100% complete"
        ),
    ),
    (
        "ptu",
        (
            "Run python tools/publish.py --env prod --project [[proj]]\n  env:\n    [[VAR]]: [[VAL]]\n"
            "    PYTHONUNBUFFERED: 1\nPublishing [[n]] versions to ShotGrid...\nDone in [[n]]s"
        ),
    ),
    (
        "p",
        (
            "psql (15.4)\nType \"help\" for help.\n\nresolve_projects=# ALTER ROLE [[user]] WITH PASSWORD '[[VAL]]';\n"
            "ALTER ROLE\nresolve_projects=# \\q"
        ),
    ),
    (
        "ptu",
        "$ docker run -d --name [[svc]] -e [[VAR]]=[[VAL]] ghcr.io/[[org]]/[[svc]]:[[ver]]\n[[sha256]]",
    ),
    (
        "ptu",
        (
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: [[svc]]-creds\ntype: Opaque\nstringData:\n"
            "  [[var]]: '[[VAL]]'"
        ),
    ),
    (
        "ptu",
        'client = [[svc]].Client(\n    endpoint="https://[[host]]",\n    [[var]]="[[VAL]]",\n    timeout=[[n]],\n)',
    ),
    (
        "m",
        (
            "Key for [[repo]] (saved from the old bay-[[n1]] Mac on [[date]]):\n\n[[VAL]]\n\n"
            "Public half is on GitHub under Settings -> Deploy keys."
        ),
    ),
    ("m", "$ cat ~/.ssh/id_[[svc]]\n[[VAL]]\n$ chmod 600 ~/.ssh/id_[[svc]]"),
    ("m", "[[ticket]]: [[LABEL]] for the [[svc]] service, pasted by [[user]]\n[[VAL]]"),
    (
        "m",
        "Rapport de passation ([[date]]) : clé pour [[repo]] ci-dessous\n[[VAL]]\nÀ déplacer dans Vault.",
    ),
    ("m", "핸드오버 메모 - [[repo]] 키:\n[[VAL]]\n나중에 1Password로 옮길 것."),
    ("m", "# roles/[[svc]]/files/[[var]].pem\n[[VAL]]"),
]

EXTRA = {
    "shotgrid_script_key": [
        (
            'sg = shotgun_api3.Shotgun("https://[[domain]].shotgrid.autodesk.com",\n    script_name="[[svc]]_publish",\n'
            '    api_key="[[VAL]]")'
        ),
        "ShotGrid > Scripts > [[svc]]_hook: application key [[VAL]] (regenerated [[date]])",
    ],
    "ftrack_api_key": [
        (
            'session = ftrack_api.Session(\n    server_url="https://[[domain]].ftrackapp.com",\n'
            '    api_user="[[user]]",\n    api_key="[[VAL]]",\n)'
        ),
        "ftrack API key for the [[svc]] bot user: [[VAL]]",
    ],
    "aws_secret_access_key": [
        "# ~/.aws/credentials on deadline-rcs\n[spotfleet]\naws_secret_access_key = [[VAL]]\nregion = eu-west-1",
    ],
    "filevault_recovery_key": [
        (
            "$ sudo fdesetup changerecovery -personal\nEnter the user name:[[user]]\nEnter the password for user '[[user]]':\n"
            "New personal recovery key = '[[VAL]]'"
        ),
        "edit-bay-[[n1]] ([[serial]]) FileVault recovery key: [[VAL]]",
    ],
    "wifi_password": [
        "$ nmcli dev wifi connect StudioNet-5G password '[[VAL]]'\nDevice 'wlp2s0' successfully activated.",
        'network={\n    ssid="StudioNet-5G"\n    psk="[[VAL]]"\n    key_mgmt=WPA-PSK\n}',
    ],
    "macos_local_admin_password": [
        (
            "$ sudo sysadminctl -addUser studioadmin -fullName 'Studio Admin' -password '[[VAL]]' -admin\n"
            "[[ts]] sysadminctl[[[n3]]:[[n5]]] Creating user record..."
        ),
    ],
    "postgres_password": [
        "$ psql '[[VAL]]' -c 'select count(*) from sm2_project'\n count\n-------\n   [[n3]]\n(1 row)",
    ],
    "mongodb_password": [
        "$ mongosh '[[VAL]]'\nCurrent Mongosh Log ID: [[objid]]\nUsing MongoDB: 5.0.23\ndeadline10db> db.Jobs.countDocuments()\n[[n3]]",
    ],
    "ipmi_password": [
        "$ ipmitool -I lanplus -H [[ip]] -U ADMIN -P '[[VAL]]' chassis power cycle\nChassis Power Control: Cycle",
    ],
    "sftp_password": [
        "$ lftp '[[VAL]]'\nlftp studio_delivery@ingest:/incoming> put [[proj]]_IMF.tar\n[[n5]] bytes transferred",
    ],
}


# kinds that are really sent as "Authorization: Bearer <token>" (curl -v template)
BEARER = {
    "frameio_developer_token",
    "dropbox_access_token",
    "vimeo_access_token",
    "github_pat",
    "github_fine_grained_pat",
    "slack_bot_token",
    "sentry_auth_token",
    "gitlab_pat",
    "cloudflare_api_token",
    "openai_api_key",
    "huggingface_token",
    "grafana_service_account_token",
    "onepassword_service_account_token",
    "sendgrid_api_key",
    "docker_hub_pat",
}


def _positives(r: random.Random, seen: set) -> list:
    out = []
    for kind, var, label, vkey, cat, carrier in KINDS:
        cats = cat + ("b" if kind in BEARER else "")
        allowed = [t for c, t in TEMPLATES if set(cats) & set(c)] + EXTRA.get(kind, [])
        order = allowed[:]
        r.shuffle(order)
        got = 0
        i = 0
        while got < PER_KIND:
            tpl = order[i % len(order)]
            i += 1
            secret = S[vkey](r)
            val = carrier(r, secret) if carrier else secret
            text = _fill(r, tpl, {"VAL": val, "VAR": var, "var": var.lower(), "LABEL": label})
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            got += 1
    return out


# ------------------------------------------------------------- look-alikes
LOOK_TEMPLATES = [
    # hashes, checksums, ids
    "Checksum for [[proj]]_[[shot]]_v[[n3]].exr seq: sha256 [[sha256]]",
    "MHL for the [[proj]] camera cards verified: xxh64 [[hex16]] (card A[[n3]])",
    "md5 [[md5]]  [[proj]]_PRORES4444_[[date]].mov  <- matches what [[client]] received",
    "Pinned pipeline-core to commit [[sha1]] after the OCIO regression.",
    "git log --oneline -3\n[[hex7]] fix frame padding in publish\n[[hex7]] bump sgtk core\n[[hex7]] add MASV retry",
    "Deadline job id [[objid]] stuck at [[pct]]%; requeued tasks [[n]]-[[n3]].",
    "Frame.io asset id [[uuid]] is the locked cut; comment thread id [[uuid2]].",
    "Request id [[uuid]] failed with 503 from Signiant; retry succeeded at [[time]].",
    "docker pull ghcr.io/[[org]]/[[svc]]@sha256:[[sha256]]",
    'S3 ETag "[[md5]]-[[n]]" for multipart upload of [[proj]]_master.mxf',
    "CRC32 of the AAF: [[crc]], matches the one from the Avid bay.",
    "Resolve project UUID [[uuid]] restored from backup [[date]].",
    "LucidLink filespace id [[uuid]] mounted at /Volumes/lucid on bay [[n1]].",
    "W&B run [[wrun]] (grain-denoise) logged to project farm-ml; best epoch [[n]].",
    "Model for upscaling: Real-ESRGAN x4plus, weights sha256 [[sha256]].",
    "GitHub Actions run [[ghrun]] for [[repo]] passed on commit [[sha1]].",
    "EIDR for the [[proj]] episode delivery: [[eidr]]",
    "YouTube video id [[ytid]] is the trailer; Vimeo id [[vimeoid]] for the private screener (link in ShotGrid).",
    "Timecode drift on [[proj]] reel [[n1]]: first frame [[tc]], source [[tc]]",
    "FlexLM license file: SERVER avid-lic01 [[mac]] 27000\nVENDOR avid\nUSE_SERVER",
    "RLM: HOST rlm01 [[mac]] 5053\nISV foundry\n(license itself lives on the server, not in git)",
    "Mac serial [[serial]] (edit-bay-[[n1]]) enrolled in Jamf, FileVault status: On, recovery key escrowed.",
    "B2 bucket farm-cache key id [[b2keyid]] (the key id is not secret; key is in 1Password).",
    "In[[[n]]]: df = load_renders('[[proj]]')\nOut[[[n]]]: [[n3]] rows x [[n1]] columns",
    "notebook cell execution_count: [[n]], kernel id [[uuid]]",
    # fingerprints / public material
    "Host key fingerprint for ingest.[[domain]]: [[fp256]] (ED25519) - verify before first connect.",
    "Old RSA host key MD5 fingerprint: [[fpmd5]]",
    "Add this public key to the deploy user's authorized_keys:\n[[sshpub]]",
    "GPG key for signing releases: fingerprint [[HEX40]] ([[first]] <[[user]]@[[domain]]>)",
    "Aspera server public cert (safe to share with [[client]]):\n[[cert]]",
    "Key id [[kid]] used for the JWT signing in review portal (rotation scheduled [[date]]).",
    # public-by-design keys
    "Stripe publishable key for the footage shop frontend: [[stripe_pk]]",
    'firebaseConfig = {\n  apiKey: "[[firebase]]",\n  authDomain: "review-app.firebaseapp.com",\n  projectId: "review-app"\n}',
    "Google OAuth client id for the delivery portal: [[gclient]] (secret is in Vault)",
    "reCAPTCHA site key on the client upload page: [[recaptcha]]",
    "SENTRY_DSN=[[sentry_dsn]]",
    "Algolia search-only key for the stock library: [[algolia]] (app id [[kid]])",
    "SUPABASE_ANON_KEY=[[anonjwt]]",
    "Mapbox public token for the location scout map: [[mapbox]]",
    "NEXT_PUBLIC_FRAMEIO_CLIENT_ID=[[uuid]]",
    # encrypted / hashed
    "group_vars/farm/vault.yml:\ndeadline_mongo_password: !vault |\n  [[vault]]",
    "secrets.enc.yaml:\nmasv_api_key: [[sops]]\nsops:\n  age:\n    - recipient: age1[[wrun]][[wrun]]",
    "htpasswd entry for review portal: [[user]]:[[bcrypt]]",
    "users table dump row: id=[[n3]], email=[[user]]@[[domain]], password_hash=[[argon2]]",
    "/etc/shadow on render-[[n3]]: farm:[[sha512crypt]]:19876:0:99999:7:::",
    "Django password field: pbkdf2_sha256$720000$[[hex16]]$[[b64]]",
    "Resolve DB dump is GPG-encrypted: resolve_[[date]].backup.gpg (sha256 [[sha256]])",
    # placeholders / docs
    "Setup: copy .env.example to .env and set MASV_API_KEY=<your-key> before running deliverctl ([[repo]] [[ver]]).",
    "FRAMEIO_TOKEN=${FRAMEIO_TOKEN}\nMASV_API_KEY=${MASV_API_KEY}\n# injected by CI for [[repo]] since [[date]]",
    "Default QNAP admin password is changeme-style on first boot - change it during setup (see [[ticket]]).",
    "password: ********  (redacted by [[user]] before posting in #pipeline, [[date]])",
    "aws_secret_access_key = "
    + "wJalrXUtnFEMI/K7MDENG/"
    + "bPxRfiCYEXAMPLEKEY  # AWS docs example, replace in [[ticket]]",
    "Docs: shotgun_api3.Shotgun(url, script_name='my_script', api_key='YOUR_SCRIPT_KEY') - see [[ticket]]",
    'ftrack: api_key="xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" in the template, fill it from 1Password ([[date]])',
    "SG_SCRIPT_KEY=REPLACE_ME\nSG_SCRIPT_NAME=[[svc]]_publish\nSG_URL=https://[[domain]].shotgrid.autodesk.com",
    "DATABASE_URL=postgresql://resolve:<password>@[[host]]:5432/resolve_[[proj]]",
    "DEADLINE_MONGO_URI=mongodb://deadline:${MONGO_PASSWORD}@mongo01.farm.lan:27017/deadline10db  # [[ticket]]",
    "sftp://studio_delivery@ingest.[[client]].example:22/incoming (key auth only, no password; [[ticket]])",
    "Wi-Fi for guests: StudioGuest, password is on the card at reception - don't write it here ([[user]], [[date]]).",
    "Mac admin password is managed by Jamf LAPS; fetch it from the computer record when needed ([[ticket]]).",
    "TODO([[user]]): rotate the Synology admin password, it's been [[n3]] days. Store in 1Password vault 'IT'.",
    "GITHUB_TOKEN: *** (masked)  -- run [[ghrun]]",
    "Authorization: Bearer <token>\n# paste the Frame.io dev token from 1Password here when testing [[repo]] locally ([[ticket]])",
    'API_KEY = os.environ["MASV_API_KEY"]  # never hard-code, see [[ticket]]',
    "vimeo_token: \"{{ lookup('env', 'VIMEO_ACCESS_TOKEN') }}\"  # [[proj]] role, [[ticket]]",
    # references to where a secret lives
    "env:\n  FRAMEIO_TOKEN: ${{ secrets.FRAMEIO_TOKEN }}\n  B2_APPLICATION_KEY: ${{ secrets.B2_KEY }}\n  PROJECT: [[proj]]\n  RUN: [[ghrun]]",
    'token = Variable.get("dropbox_access_token")  # Airflow var, set by [[user]] on [[date]]',
    'key = dbutils.secrets.get(scope="farm", key="b2-app-key")  # cell [[n]], job [[ghrun]]',
    "vault kv get -field=password secret/studio/nas/[[word]]\n(ask [[first]] for the policy)",
    "MASV key lives at op://Pipeline/MASV/credential - use `op read` in the wrapper ([[repo]], [[ticket]]).",
    "aws secretsmanager get-secret-value --secret-id farm/deadline/mongo --query SecretString --region eu-west-[[n1]]  # [[ticket]]",
    "DEADLINE_MONGO_PASSWORD_FILE=/run/secrets/mongo_pw  # docker secret, mounted at runtime on [[host]] since [[date]]",
    "ShotGrid script key is in Keychain item 'sg-[[svc]]' on the publish Mac (bay [[n1]], [[date]]).",
    'kubectl -n pipeline get secret [[svc]]-creds -o jsonpath=\'{.data}\' | jq keys\n["api_key","url"]\n# checked [[date]]',
    "sudo security find-generic-password -s 'lucidlink-[[proj]]' -w  # prints the filespace password, don't log ([[ticket]])",
    # tool outputs with no secrets
    (
        "$ ascp -P 33001 -l 500m -k 1 [[proj]]_[[shot]].mov xfer@aspera.[[domain]]:/incoming\n"
        "[[proj]]_[[shot]].mov  100%  [[n3]]MB  [[n3]]Mb/s  00:[[n]]\nCompleted: [[n5]]K bytes transferred"
    ),
    "$ lucid status\nClient state: Linked\nFilespace: [[proj]].studio\nRoot point: /Volumes/lucid\nCache: [[n]] GB",
    "$ deadlinecommand -GetJob [[objid]]\nName=[[proj]]_[[shot]]_comp\nStatus=Active\nPriority=[[n]]",
    "$ b2 ls b2://farm-cache/[[proj]]/\n[[proj]]/[[shot]]_v[[n3]].exr\nfileId 4_z[[hex16]]_f1[[hex16]]_d[[date]]",
    "$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 [[fp256]] [[user]]@edit-bay-[[n1]] (ED25519)",
    '< HTTP/2 401\n< x-request-id: [[uuid]]\n{"errors":[{"code":401,"detail":"invalid token"}]}',
    "[[ts]] INFO  masv: package [[uuid]] finalized, [[n]] files, recipient [[user]]@[[domain]]",
    "[[ts]] WARN  signiant: job [[uuid]] transfer rate dropped to [[n]] Mbps",
    "psql> select id, name, version from sm2_project limit 1;\n [[n3]] | [[proj]] | [[n]]",
    "deadline10db> db.Jobs.findOne({_id: '[[objid]]'}, {Props: 1})\n{ _id: '[[objid]]', Props: { Name: '[[proj]]' } }",
    "Warning: Permanently added '[[ip]]' (ED25519) to the list of known hosts.",
    "Encoded thumbnail for the ShotGrid version: [[b64img]]",
    "CI: cache key pip-[[sha256]] restored (size [[n3]] MB)",
    "Python wheel pipeline_core-[[ver]]-py3-none-any.whl sha256=[[sha256]]",
    "fdesetup status\nFileVault is On.\nFileVault master keychain appears to be installed.\n# edit-bay-[[n1]] [[serial]]",
    "sg version [[n5]] published, sg_uploaded_movie hash [[md5]]",
    "ftrack component [[uuid]] in location studio.lucid, path /Volumes/lucid/[[proj]]/[[shot]]",
    "Tailscale node key fingerprint nodekey:[[sha256]] (public, from `tailscale status --json`)",
    "$ op item get 'Backblaze farm-cache' --fields label=keyID\n[[b2keyid]]",
    "Slack channel id C[[kid]], workspace T[[kid]] - used in the notifier config (no token here).",
    "Dropbox shared link id [[wrun]][[wrun]] expired for [[client]]; re-shared from the app.",
    "YouTube CMS asset id A[[n5]][[n5]], content owner [[kid]]",
    "[[ts]] deadline: worker render-[[n3]] registered, machine id [[uuid]]",
    "Azure storage account farmcache[[n]] uses managed identity; no account key in config ([[ticket]]).",
    "HMAC of the webhook body (what Frame.io sent): sha256=[[sha256]] - compared OK",
    "OCIO config hash [[md5]] changed between [[ver]] and [[ver]]",
    "Memory: the Deadline RCS cert fingerprint is [[fp256]]; workers pin it.",
    "Nonce [[hex16]] and state [[uuid]] in the OAuth callback log - harmless.",
    "Resolve render cache file: CacheClip/[[uuid]]/[[sha1]].mov",
    "फ़ाइल का checksum [[md5]] है, डिलीवरी से पहले दोबारा जाँचें।",
    "체크섬 [[sha256]] 확인 완료 - [[proj]] 납품 파일.",
    "Kontrolní součet pro [[proj]]: [[sha1]], sedí s dodávkou.",
    "El id del trabajo en Deadline es [[objid]], ya lo reencolé.",
    "l'identifiant de la requête était [[uuid]] ; Signiant a renvoyé 502.",
    "Public SSH key for the Isilon sync user:\n[[sshpub]]",
    "JWKS kid [[uuid]], alg RS256, use sig (public key set for the review portal)",
]


def _mk_look(tpl):
    def gen(r):
        return _fill(r, tpl)

    return gen


_LOOK = [_mk_look(t) for t in LOOK_TEMPLATES]


def _lookalikes(r: random.Random, seen: set) -> list:
    out = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 5000:
                raise RuntimeError("look-alike generator cannot produce distinct texts")
            t = gen(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set = set()
    positives = _positives(r, seen)
    lookalikes = _lookalikes(r, seen)
    return positives, lookalikes
