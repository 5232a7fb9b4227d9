"""Secret-detector test set AO: a student society's web team and its open-source project.

Theme
-----
Memories an AI coding agent keeps for a university student society's web team (Discourse,
Mastodon, Matrix/Synapse, Nextcloud, Mailman, Ghost, Stripe, SumUp, ticketing, Google
Workspace, Zoom, Notion, a Minecraft server, Discord and Telegram bots, SSO test accounts,
eduroam) and the open-source project its members maintain (GitHub Actions, PyPI, npm,
crates.io, Docker Hub, Codecov, Sentry, Read the Docs, Netlify, Vercel, Cloudflare, Fly.io,
Render, Supabase, Upstash, Algolia, Crowdin, GPG, cosign, SSH deploy keys, Tailscale).
Styles: notes, lessons, runbooks, TODOs, minutes, issues, emails, chat (English plus some
Welsh, Irish, Basque, Catalan, Slovak, Lithuanian), config files and tool output.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: ``(text, kind, secret)`` triples; ``secret`` is an exact substring of
  ``text``; each text holds exactly one secret; 30 positives per kind.
* ``lookalikes``: texts with no credential at all; ``_LOOK`` is a list of generator
  functions, each called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (``random.Random(seed)``); no duplicate texts in the output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth
  URLs: the password only. Pre-signed URLs: the signature. PEM / OpenSSH / PGP private
  keys: the whole armoured block, BEGIN line to END line (inside JSON, the escaped block).
* UUID-shaped vendor tokens are secrets only when the text names them as a token/key.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth
  client ids, Firebase web apiKeys, search-only keys, Ghost content keys, public keys and
  certificates), vendor documentation examples, encrypted blobs and password hashes are
  look-alikes. Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes and bodies are assembled at
  run time from pieces and seeded random bodies.
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
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def _s(r: random.Random, n: int, alpha: str = ALNUM) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def _hx(r: random.Random, n: int) -> str:
    return _s(r, n, HEX)


def _uuid(r: random.Random) -> str:
    h = _hx(r, 32)
    v = r.choice("89ab")
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{v}{h[17:20]}-{h[20:]}"


def _b64(r: random.Random, nbytes: int, url: bool = False) -> str:
    raw = bytes(r.getrandbits(8) for _ in range(nbytes))
    if url:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return base64.b64encode(raw).decode()


def _b64j(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


def _jwt(r: random.Random, payload: dict) -> str:
    head = _b64j({"alg": "HS256", "typ": "JWT"})
    return head + "." + _b64j(payload) + "." + _b64(r, 32, url=True)


# ---------------------------------------------------------------- vocabulary
NAMES = [
    "Alex",
    "Niamh",
    "Cai",
    "Aitor",
    "Jordi",
    "Zuzana",
    "Rūta",
    "Sam",
    "Priya",
    "Eoin",
    "Ffion",
    "Marta",
    "Tomas",
    "Lukas",
    "Oisín",
    "Dafydd",
    "Nerea",
    "Kim",
    "Jonas",
    "Mei",
]
SOCS = [
    "CompSoc",
    "HackSoc",
    "LinuxSoc",
    "GameDevSoc",
    "RoboSoc",
    "TechSoc",
    "OpenSourceSoc",
    "NetSoc",
]
PROJS = [
    "rota-bot",
    "fresherskit",
    "socpress",
    "eventdesk",
    "pybadge",
    "matrix-bridge-ng",
    "lanparty-tools",
    "tickety",
    "gowndb",
    "quizzer",
    "mcwhitelist",
    "soc-sso-shim",
]
HOSTS = [
    "forum",
    "social",
    "matrix",
    "cloud",
    "lists",
    "blog",
    "tickets",
    "mc",
    "docs",
    "status",
]
DOMS = [
    "compsoc.org.uk",
    "hacksoc.net",
    "netsoc.ie",
    "linuxsoc.cymru",
    "techsoc.eus",
    "robosoc.cat",
    "gamedev-soc.sk",
    "osc.lt",
]
WORDS = [
    "tulip",
    "rover",
    "cactus",
    "harbour",
    "lantern",
    "pixel",
    "otter",
    "quartz",
    "maple",
    "cobalt",
    "drangon",
    "bara",
    "ceffyl",
    "mendi",
    "itsaso",
    "gaztelu",
    "lluna",
    "cirera",
    "hviezda",
    "saule",
    "bangor",
    "penguin",
    "kernel",
    "falcon",
    "biscuit",
    "nebula",
    "walrus",
    "thistle",
    "sprocket",
]
SEASONS = [
    "Summer",
    "Winter",
    "Autumn",
    "Spring",
    "Freshers",
    "Gaeaf",
    "Haf",
    "Udazkena",
]
TIMES = ["09:12", "10:47", "13:05", "16:30", "18:02", "21:44", "23:19", "00:37"]


def _pw(r: random.Random) -> str:
    k = r.randrange(6)
    if k == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice('!?#$*')}"
    if k == 1:
        return f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    if k == 2:
        return _s(r, r.randint(16, 24), ALNUM + "!@#%^&*-_")
    if k == 3:
        return "-".join(r.sample(WORDS, 4)) + str(r.randint(1, 9))
    if k == 4:
        w = r.choice(WORDS)
        return w[0].upper() + w[1:].replace("a", "@").replace("o", "0") + str(r.randint(100, 9999)) + r.choice("!.#")
    return _s(r, 20, ALNUM)


def _ctx(r: random.Random) -> dict:
    soc = r.choice(SOCS)
    dom = r.choice(DOMS)
    return {
        "who": r.choice(NAMES),
        "who2": r.choice(NAMES),
        "soc": soc,
        "proj": r.choice(PROJS),
        "dom": dom,
        "host": f"{r.choice(HOSTS)}.{dom}",
        "t": r.choice(TIMES),
        "date": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "n": r.randint(2, 480),
        "org": soc.lower(),
    }


# ---------------------------------------------------------------- kind makers
# each maker returns (value_to_embed, secret)


def _same(f):
    def m(r):
        v = f(r)
        return v, v

    return m


def _pem(r: random.Random, label: str, nbytes: int, width: int = 64, extra: str = "") -> str:
    body = base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    dash = "-" * 5
    return f"{dash}BEGIN {label}{dash}\n{extra}" + "\n".join(lines) + f"\n{dash}END {label}{dash}"


def _openssh(r):
    raw = b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none" + bytes(r.getrandbits(8) for _ in range(360))
    body = base64.b64encode(raw).decode()
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    lab = "OPENSSH " + "PRIVATE" + " KEY"
    v = f"-----BEGIN {lab}-----\n" + "\n".join(lines) + f"\n-----END {lab}-----"
    return v, v


def _pgp(r):
    lab = "PGP " + "PRIVATE" + " KEY BLOCK"
    body = _b64(r, 700)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    v = f"-----BEGIN {lab}-----\n\n" + "\n".join(lines) + f"\n={_s(r, 4, B64)}\n-----END {lab}-----"
    return v, v


def _cosign(r):
    v = _pem(r, "ENCRYPTED SIGSTORE " + "PRIVATE" + " KEY", 330)
    return v, v


def _pkcs8(r):
    v = _pem(r, "PRIVATE" + " KEY", 900)
    return v, v


def _gsa_json(r):
    pem = _pem(r, "PRIVATE" + " KEY", 600).replace("\n", "\\n")
    return pem, pem


def _pg_supabase(r):
    pw = _pw(r)
    ref = _s(r, 20, LO)
    return (
        f"postgresql://postgres.{ref}:{pw}@aws-0-eu-west-2.pooler.supabase.com:6543/postgres",
        pw,
    )


def _pg_plain(r):
    pw = _pw(r)
    return (
        f"postgres://discourse:{pw}@db.internal:5432/discourse_{r.choice(['prod', 'staging'])}",
        pw,
    )


def _mysql(r):
    pw = _pw(r)
    return f"mysql://luckperms:{pw}@mc-db:3306/luckperms", pw


def _mongo(r):
    pw = _s(r, 16, ALNUM)
    return (
        f"mongodb+srv://rotabot:{pw}@cluster0.{_s(r, 5, LO + DIG)}.mongodb.net/rota?retryWrites=true",
        pw,
    )


def _redis(r):
    tok = "A" + r.choice("XYZ") + _s(r, 2, ALNUM) + "AAIjcDE" + _s(r, 40, ALNUM)
    return (
        f"rediss://default:{tok}@{r.choice(WORDS)}-{r.randint(1000, 99999)}.upstash.io:6379",
        tok,
    )


def _smtp_url(r):
    pw = _hx(r, 32) + "-" + _hx(r, 8) + "-" + _hx(r, 8)
    return f"smtp://postmaster%40mg.{r.choice(DOMS)}:{pw}@smtp.eu.mailgun.org:587", pw


def _basic_url(r):
    pw = _pw(r)
    return (
        f"https://ci-bot:{pw}@{r.choice(['pypi', 'registry', 'metrics'])}.{r.choice(DOMS)}/simple/",
        pw,
    )


def _nc_app(r):
    return "-".join(_s(r, 5, ALNUM) for _ in range(5))


def _discord_hook(r):
    tok = _s(r, 68, B64URL)
    return (
        f"https://discord.com/api/webhooks/{r.randint(10**17, 10**19 - 1)}/{tok}",
        tok,
    )


def _slack_hook(r):
    tok = _s(r, 24, ALNUM)
    return (
        f"https://hooks.slack.com/services/T{_s(r, 10, UP + DIG)}/B{_s(r, 10, UP + DIG)}/{tok}",
        tok,
    )


def _presigned(r):
    sig = _hx(r, 64)
    url = (
        f"https://{_hx(r, 32)}.r2.cloudflarestorage.com/agm-recordings/{r.choice(['agm', 'egm', 'talk'])}"
        f"-{r.randint(1, 40)}.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={_hx(r, 32)}%2F20261201"
        f"%2Fauto%2Fs3%2Faws4_request&X-Amz-Date=20261201T1{r.randint(10000, 59999)}Z&X-Amz-Expires=3600"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return (
        url,
        sig,
    )


def _discord_bot(r):
    uid = str(r.randint(10**17, 10**18 * 2))
    return base64.b64encode(uid.encode()).decode().rstrip("=") + "." + _s(r, 6, B64URL) + "." + _s(r, 38, B64URL)


def _telegram(r):
    return f"{r.randint(10**9, 8 * 10**9)}:AA{_s(r, 33, B64URL)}"


def _matrix(r):
    user = r.choice(["admin", "bridgebot", "modbot", "welcome", "ircbridge"])
    return (
        "sy"
        + "t_"
        + base64.b64encode(user.encode()).decode().rstrip("=")
        + "_"
        + _s(r, 20, ALNUM)
        + "_"
        + _s(r, 6, ALNUM)
    )


def _supabase_service(r):
    ref = _s(r, 20, LO)
    return _jwt(
        r,
        {
            "iss": "supabase",
            "ref": ref,
            "role": "service_role",
            "iat": 1760000000 + r.randint(0, 10**7),
            "exp": 2075000000 + r.randint(0, 10**7),
        },
    )


def _fly(r):
    return "FlyV1 " + "fm2" + "_" + _s(r, 200, B64).rstrip("/") + "," + "fm2_" + _s(r, 120, B64)


def _tskey(kind):
    def f(r):
        return "tskey-" + kind + "-k" + _s(r, 11, ALNUM) + "CNTRL-" + _s(r, 32, ALNUM)

    return f


def _google_app_pw(r):
    return " ".join(_s(r, 4, LO) for _ in range(4))


def _age(r):
    return "AGE-SECRET" + "-KEY-1" + _s(r, 58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper())


K = []  # (kind, label, var, maker, cat)


def _k(kind, label, var, maker, cat="tok"):
    K.append((kind, label, var, maker, cat))


_k(
    "github_pat_classic",
    "GitHub personal access token",
    "GH_TOKEN",
    _same(lambda r: "gh" + "p_" + _s(r, 36)),
)
_k(
    "github_fine_grained_pat",
    "fine-grained GitHub token",
    "GITHUB_TOKEN",
    _same(lambda r: "github" + "_pat_" + _s(r, 22, UP + DIG) + "_" + _s(r, 59)),
)
_k(
    "github_oauth_token",
    "GitHub OAuth token",
    "GH_OAUTH_TOKEN",
    _same(lambda r: "gh" + "o_" + _s(r, 36)),
)
_k(
    "github_app_installation_token",
    "GitHub App installation token",
    "GH_INSTALL_TOKEN",
    _same(lambda r: "gh" + "s_" + _s(r, 36)),
)
_k(
    "github_refresh_token",
    "GitHub App refresh token",
    "GH_REFRESH_TOKEN",
    _same(lambda r: "gh" + "r_" + _s(r, 76)),
)
_k(
    "pypi_api_token",
    "PyPI API token",
    "PYPI_API_TOKEN",
    _same(lambda r: "py" + "pi-" + "AgEIcHlwaS5vcmc" + _s(r, 160, B64URL)),
)
_k(
    "npm_access_token",
    "npm granular token",
    "NPM_TOKEN",
    _same(lambda r: "np" + "m_" + _s(r, 36)),
)
_k(
    "crates_io_token",
    "crates.io API token",
    "CARGO_REGISTRY_TOKEN",
    _same(lambda r: "ci" + "o" + _s(r, 32)),
)
_k(
    "docker_hub_pat",
    "Docker Hub access token",
    "DOCKERHUB_TOKEN",
    _same(lambda r: "dckr" + "_pat_" + _s(r, 27, B64URL)),
)
_k("codecov_upload_token", "Codecov upload token", "CODECOV_TOKEN", _same(_uuid))
_k(
    "sentry_auth_token",
    "Sentry auth token",
    "SENTRY_AUTH_TOKEN",
    _same(lambda r: "sntry" + "u_" + _hx(r, 64)),
)
_k(
    "readthedocs_api_token",
    "Read the Docs API token",
    "RTD_TOKEN",
    _same(lambda r: _hx(r, 40)),
)
_k(
    "netlify_pat",
    "Netlify personal access token",
    "NETLIFY_AUTH_TOKEN",
    _same(lambda r: "nf" + "p_" + _s(r, 36)),
)
_k("vercel_token", "Vercel token", "VERCEL_TOKEN", _same(lambda r: _s(r, 24)))
_k(
    "cloudflare_api_token",
    "Cloudflare API token",
    "CLOUDFLARE_API_TOKEN",
    _same(lambda r: _s(r, 40, B64URL)),
)
_k(
    "cloudflare_global_api_key",
    "Cloudflare Global API Key",
    "CF_API_KEY",
    _same(lambda r: _hx(r, 37)),
)
_k("fly_io_token", "Fly.io deploy token", "FLY_API_TOKEN", _same(_fly))
_k(
    "render_api_key",
    "Render API key",
    "RENDER_API_KEY",
    _same(lambda r: "rn" + "d_" + _s(r, 32)),
)
_k(
    "supabase_service_role_key",
    "Supabase service_role key",
    "SUPABASE_SERVICE_ROLE_KEY",
    _same(_supabase_service),
)
_k("supabase_db_password", "Supabase database URL", "DATABASE_URL", _pg_supabase, "url")
_k("upstash_redis_url_password", "Upstash Redis URL", "REDIS_URL", _redis, "url")
_k(
    "upstash_rest_token",
    "Upstash REST token",
    "UPSTASH_REDIS_REST_TOKEN",
    _same(lambda r: "A" + r.choice("XYZ") + _s(r, 2) + "AAIjcDE" + _s(r, 40) + "cDE" + _s(r, 10)),
)
_k(
    "algolia_admin_api_key",
    "Algolia Admin API key",
    "ALGOLIA_ADMIN_KEY",
    _same(lambda r: _hx(r, 32)),
)
_k(
    "crowdin_personal_token",
    "Crowdin personal access token",
    "CROWDIN_PERSONAL_TOKEN",
    _same(lambda r: _hx(r, 80)),
)
_k("gpg_private_key", "GPG release signing key", "GPG_PRIVATE_KEY", _pgp, "pem")
_k("cosign_private_key", "cosign private key", "COSIGN_PRIVATE_KEY", _cosign, "pem")
_k("ssh_private_key", "SSH deploy key", "DEPLOY_KEY", _openssh, "pem")
_k("pkcs8_private_key", "TLS private key", "TLS_KEY", _pkcs8, "pem")
_k(
    "gcp_service_account_key",
    "service account private_key",
    "GOOGLE_APPLICATION_CREDENTIALS",
    _gsa_json,
    "gsa",
)
_k("tailscale_auth_key", "Tailscale auth key", "TS_AUTHKEY", _same(_tskey("auth")))
_k("tailscale_api_key", "Tailscale API key", "TAILSCALE_API_KEY", _same(_tskey("api")))
_k(
    "discourse_api_key",
    "Discourse API key",
    "DISCOURSE_API_KEY",
    _same(lambda r: _hx(r, 64)),
)
_k(
    "mastodon_access_token",
    "Mastodon access token",
    "MASTODON_ACCESS_TOKEN",
    _same(lambda r: _s(r, 43, B64URL)),
)
_k("matrix_access_token", "Matrix access token", "MATRIX_ACCESS_TOKEN", _same(_matrix))
_k(
    "synapse_registration_shared_secret",
    "registration_shared_secret",
    "SYNAPSE_REGISTRATION_SHARED_SECRET",
    _same(lambda r: _s(r, 50, ALNUM + "~;:.,=+-_#&^")),
    "pw",
)
_k(
    "synapse_macaroon_secret_key",
    "macaroon_secret_key",
    "SYNAPSE_MACAROON_SECRET_KEY",
    _same(lambda r: _s(r, 50, ALNUM + ".,;:=+-_&^~@")),
    "pw",
)
_k(
    "nextcloud_app_password",
    "Nextcloud app password",
    "NEXTCLOUD_APP_PASSWORD",
    _same(_nc_app),
    "pw",
)
_k(
    "nextcloud_admin_password",
    "Nextcloud admin password",
    "NEXTCLOUD_ADMIN_PASSWORD",
    _same(_pw),
    "pw",
)
_k(
    "mailman_admin_password",
    "Mailman REST admin password",
    "MAILMAN_REST_PASSWORD",
    _same(_pw),
    "pw",
)
_k(
    "ghost_admin_api_key",
    "Ghost Admin API key",
    "GHOST_ADMIN_API_KEY",
    _same(lambda r: _hx(r, 24) + ":" + _hx(r, 64)),
)
_k(
    "stripe_secret_key",
    "Stripe secret key",
    "STRIPE_SECRET_KEY",
    _same(lambda r: "sk" + "_live_" + _s(r, 99)),
)
_k(
    "stripe_restricted_key",
    "Stripe restricted key",
    "STRIPE_RESTRICTED_KEY",
    _same(lambda r: "rk" + "_live_" + _s(r, 99)),
)
_k(
    "stripe_webhook_secret",
    "Stripe webhook signing secret",
    "STRIPE_WEBHOOK_SECRET",
    _same(lambda r: "wh" + "sec_" + _s(r, 32)),
)
_k(
    "sumup_api_key",
    "SumUp API key",
    "SUMUP_API_KEY",
    _same(lambda r: "sup" + "_sk_" + _s(r, 32)),
)
_k(
    "eventbrite_private_token",
    "Eventbrite private token",
    "EVENTBRITE_TOKEN",
    _same(lambda r: _s(r, 20, UP + DIG)),
)
_k(
    "google_oauth_client_secret",
    "Google OAuth client secret",
    "GOOGLE_CLIENT_SECRET",
    _same(lambda r: "GOC" + "SPX-" + _s(r, 28, B64URL)),
)
_k(
    "google_workspace_app_password",
    "Google Workspace app password",
    "SMTP_PASSWORD",
    _same(_google_app_pw),
    "pw",
)
_k(
    "gcp_server_api_key",
    "YouTube Data API server key",
    "YOUTUBE_API_KEY",
    _same(lambda r: "AI" + "za" + "Sy" + _s(r, 33, B64URL)),
)
_k(
    "zoom_client_secret",
    "Zoom S2S OAuth client secret",
    "ZOOM_CLIENT_SECRET",
    _same(lambda r: _s(r, 32)),
)
_k(
    "notion_integration_token",
    "Notion integration token",
    "NOTION_TOKEN",
    _same(lambda r: "nt" + "n_" + _s(r, 11, DIG) + _s(r, 35)),
)
_k(
    "minecraft_rcon_password",
    "Minecraft RCON password",
    "RCON_PASSWORD",
    _same(_pw),
    "pw",
)
_k("discord_bot_token", "Discord bot token", "DISCORD_TOKEN", _same(_discord_bot))
_k(
    "discord_webhook_url",
    "Discord webhook",
    "DISCORD_WEBHOOK_URL",
    _discord_hook,
    "url",
)
_k("telegram_bot_token", "Telegram bot token", "TELEGRAM_BOT_TOKEN", _same(_telegram))
_k(
    "university_sso_password",
    "SSO test account password",
    "SSO_TEST_PASSWORD",
    _same(_pw),
    "pw",
)
_k("eduroam_password", "eduroam password", "EDUROAM_PASSWORD", _same(_pw), "pw")
_k(
    "slack_webhook_url",
    "Slack incoming webhook",
    "SLACK_WEBHOOK_URL",
    _slack_hook,
    "url",
)
_k(
    "slack_bot_token",
    "Slack bot token",
    "SLACK_BOT_TOKEN",
    _same(lambda r: "xo" + "xb-" + f"{r.randint(10**10, 10**12)}-{r.randint(10**10, 10**12)}-" + _s(r, 24)),
)
_k("postgres_password", "Discourse database URL", "DISCOURSE_DB_URL", _pg_plain, "url")
_k("mysql_password", "LuckPerms MySQL URL", "LUCKPERMS_DB", _mysql, "url")
_k("mongodb_password", "MongoDB Atlas URI", "MONGO_URI", _mongo, "url")
_k("smtp_url_password", "Mailgun SMTP URL", "SMTP_URL", _smtp_url, "url")
_k(
    "basic_auth_url_password",
    "private index URL",
    "PIP_EXTRA_INDEX_URL",
    _basic_url,
    "url",
)
_k(
    "r2_presigned_url_signature",
    "pre-signed R2 link",
    "RECORDING_URL",
    _presigned,
    "url",
)
_k(
    "mailgun_api_key",
    "Mailgun API key",
    "MAILGUN_API_KEY",
    _same(lambda r: _hx(r, 32) + "-" + _hx(r, 8) + "-" + _hx(r, 8)),
)
_k(
    "sendgrid_api_key",
    "SendGrid API key",
    "SENDGRID_API_KEY",
    _same(lambda r: "S" + "G." + _s(r, 22, B64URL) + "." + _s(r, 43, B64URL)),
)
_k(
    "mailchimp_api_key",
    "Mailchimp API key",
    "MAILCHIMP_API_KEY",
    _same(lambda r: _hx(r, 32) + f"-us{r.randint(1, 21)}"),
)
_k(
    "openai_api_key",
    "OpenAI key for the quiz bot",
    "OPENAI_API_KEY",
    _same(lambda r: "sk" + "-proj-" + _s(r, 74, B64URL) + "T3B" + "lbkFJ" + _s(r, 74, B64URL)),
)
_k(
    "huggingface_token",
    "Hugging Face token",
    "HF_TOKEN",
    _same(lambda r: "h" + "f_" + _s(r, 34, UP + LO)),
)
_k(
    "aws_secret_access_key",
    "S3 backup secret access key",
    "AWS_SECRET_ACCESS_KEY",
    _same(lambda r: _s(r, 40, B64)),
)
_k(
    "r2_secret_access_key",
    "R2 secret access key",
    "R2_SECRET_ACCESS_KEY",
    _same(lambda r: _hx(r, 64)),
)
_k(
    "django_secret_key",
    "Django SECRET_KEY",
    "DJANGO_SECRET_KEY",
    _same(lambda r: "django-insecure-" * r.randint(0, 1) + _s(r, 50, LO + DIG + "!@#$%^&*(-_=+)")),
    "pw",
)
_k(
    "flask_secret_key",
    "Flask SECRET_KEY",
    "FLASK_SECRET_KEY",
    _same(lambda r: _hx(r, 64)),
    "pw",
)
_k(
    "jwt_signing_secret",
    "JWT signing secret",
    "JWT_SECRET",
    _same(lambda r: _b64(r, 48)),
    "pw",
)
_k("age_secret_key", "sops age key", "SOPS_AGE_KEY", _same(_age))
_k(
    "wireguard_private_key",
    "WireGuard private key",
    "WG_PRIVATE_KEY",
    _same(lambda r: _b64(r, 32)),
    "pw",
)
_k(
    "vault_token",
    "Vault token",
    "VAULT_TOKEN",
    _same(lambda r: "hv" + "s." + _s(r, 24) + _s(r, 66, B64URL)),
)
_k(
    "ngrok_authtoken",
    "ngrok authtoken",
    "NGROK_AUTHTOKEN",
    _same(lambda r: "2" + _s(r, 26) + "_" + _s(r, 21)),
)
_k(
    "canva_client_secret",
    "Canva Connect client secret",
    "CANVA_CLIENT_SECRET",
    _same(lambda r: "cnv" + "ca" + _s(r, 43, B64URL)),
)

# ---------------------------------------------------------------- templates
# each template: (cats, fn(r, c, label, var, val) -> text)
T = []


def _t(cats):
    def deco(f):
        T.append((cats, f))
        return f

    return deco


ONE = ("tok", "pw", "url")
ALL = ("tok", "pw", "url", "pem")


@_t(ALL)
def _note(r, c, lab, var, v):
    return f"Note ({c['date']}): {lab} for {c['soc']} is below, rotate after freshers' week.\n{v}"


@_t(ONE)
def _lesson(r, c, lab, var, v):
    return (
        f"Lesson learned: {c['proj']} CI went red for two days because {var} had expired. "
        f"New value is {v} ; also update the Actions secret, not just the committee vault."
    )


@_t(ONE)
def _env(r, c, lab, var, v):
    return f"# {c['proj']} .env ({c['host']})\nNODE_ENV=production\nPORT={r.choice([3000, 8000, 8080])}\n{var}={v}\nLOG_LEVEL=info\n"


@_t(ONE)
def _compose(r, c, lab, var, v):
    return (
        f"services:\n  {c['proj']}:\n    image: ghcr.io/{c['org']}/{c['proj']}:{r.randint(1, 9)}.{r.randint(0, 20)}\n"
        f"    restart: unless-stopped\n    environment:\n      - TZ=Europe/London\n      - {var}={v}\n"
    )


@_t(ONE)
def _gha(r, c, lab, var, v):
    return (
        f"# .github/workflows/release.yml (bad: literal, move to secrets!)\njobs:\n  publish:\n    runs-on: ubuntu-latest\n"
        f"    env:\n      {var}: {v}\n    steps:\n      - uses: actions/checkout@v4\n"
    )


@_t(ONE)
def _json(r, c, lab, var, v):
    return json.dumps(
        {
            "service": c["proj"],
            "host": c["host"],
            var.lower(): v,
            "retries": r.randint(1, 5),
        },
        indent=2,
    )


@_t(ONE)
def _toml(r, c, lab, var, v):
    return f'[{c["proj"].replace("-", "_")}]\nbase_url = "https://{c["host"]}"\n{var.lower()} = "{v}"\ntimeout = {r.randint(5, 60)}\n'


@_t(ONE)
def _py(r, c, lab, var, v):
    return f'# settings/production.py\nDEBUG = False\nALLOWED_HOSTS = ["{c["host"]}"]\n{var} = "{v}"\n'


@_t(ALL)
def _chat(r, c, lab, var, v):
    return (
        f"[{c['t']}] <{c['who']}> anyone got the {lab}? the bot is down again\n"
        f"[{c['t']}] <{c['who2']}> {v}\n[{c['t']}] <{c['who']}> ta, deleting this msg in 5"
    )


@_t(ALL)
def _email(r, c, lab, var, v):
    return (
        f"From: {c['who'].lower()}@{c['dom']}\nSubject: Web team handover\n\nHi {c['who2']},\n\n"
        f"As promised, the {lab} for {c['host']}:\n\n{v}\n\nPlease change it once you're in.\n{c['who']}"
    )


@_t(ONE)
def _minutes(r, c, lab, var, v):
    return (
        f"Minutes, {c['soc']} web team, {c['date']}\nPresent: {c['who']}, {c['who2']}\n"
        f"1. Sponsorship page live.\n2. {lab} leaked in #general, current value {v}. "
        f"ACTION {c['who']}: rotate before Friday."
    )


@_t(ONE)
def _todo(r, c, lab, var, v):
    return f"TODO\n- [x] move {c['proj']} docs to new theme\n- [ ] revoke old {lab} `{v}`\n- [ ] email {c['who2']} about the AGM"


@_t(ONE)
def _issue(r, c, lab, var, v):
    return (
        f"### Bug: {c['proj']} crashes on startup\n\nSteps to reproduce:\n```\nexport {var}={v}\n"
        f"python -m {c['proj'].replace('-', '_')}\n```\nTraceback ends with KeyError: 'guild_id'"
    )


@_t(("tok",))
def _curl(r, c, lab, var, v):
    return (
        f"$ curl -v https://api.{c['dom']}/v1/members -H 'Authorization: Bearer {v}'\n"
        f"> GET /v1/members HTTP/2\n> Host: api.{c['dom']}\n> Authorization: Bearer {v}\n"
        f"< HTTP/2 {r.choice([200, 401, 403])}\n< content-type: application/json"
    ).replace(f"> Authorization: Bearer {v}\n", "> user-agent: curl/8.5.0\n")


@_t(ONE)
def _container_log(r, c, lab, var, v):
    return (
        f"{c['proj']}-1  | {c['date']}T{c['t']}:0{r.randint(0, 9)}Z INFO  starting worker pid={r.randint(7, 900)}\n"
        f"{c['proj']}-1  | {c['date']}T{c['t']}:1{r.randint(0, 9)}Z DEBUG config loaded: {var}={v}\n"
        f"{c['proj']}-1  | {c['date']}T{c['t']}:2{r.randint(0, 9)}Z INFO  listening on :8080"
    )


@_t(ONE)
def _ci_log(r, c, lab, var, v):
    return (
        f"Run ./scripts/deploy.sh\n  ./scripts/deploy.sh\n  shell: /usr/bin/bash -e {{0}}\n  env:\n"
        f"    {var}: {v}\n+ echo 'deploying {c['proj']} build #{c['n']}'\ndeploying {c['proj']} build #{c['n']}"
    )


@_t(ONE)
def _welsh(r, c, lab, var, v):
    return f"Nodyn i'r tîm gwe: dyma'r {lab} newydd ar gyfer {c['host']}: {v} — peidiwch â'i rannu ar Discord."


@_t(ONE)
def _irish(r, c, lab, var, v):
    return f"Nóta don fhoireann: seo an {lab} nua do {c['proj']}: {v}. Ná roinn é sa ghrúpa poiblí."


@_t(ONE)
def _basque(r, c, lab, var, v):
    return f"Oharra ({c['soc']}): {lab} berria {c['host']}-rako: {v} — ez partekatu kanal publikoan."


@_t(ONE)
def _catalan(r, c, lab, var, v):
    return f"Nota de l'equip web: el nou {lab} de {c['proj']} és {v}. No el compartiu al canal públic."


@_t(ONE)
def _slovak(r, c, lab, var, v):
    return f"Poznámka: nový {lab} pre {c['host']} je {v}, nezdieľať mimo výboru."


@_t(ONE)
def _lith(r, c, lab, var, v):
    return f"Pastaba: naujas {lab} ({c['proj']}): {v}. Nedalinkite viešai, {c['who']}."


@_t(ALL)
def _runbook(r, c, lab, var, v):
    return (
        f"Runbook: restore {c['host']} after the VPS migration\n1. ssh admin@{c['host']}\n"
        f"2. cd /var/{c['proj']} && docker compose down\n3. put this in place ({lab}):\n{v}\n"
        f"4. docker compose up -d and check /healthz"
    )


@_t(("tok", "pw"))
def _flyctl(r, c, lab, var, v):
    app = c["proj"]
    return (
        f"$ flyctl secrets set {var}={v} -a {app}\nUpdating existing machines in '{app}' with rolling strategy\n"
        f"-------\n ✔ [1/{r.randint(1, 3)}] Machine {_hx(r, 14)} [app] update succeeded\n-------"
    )


@_t(("tok", "pw", "url"))
def _gh_secret(r, c, lab, var, v):
    return (
        f"$ gh secret set {var} --repo {c['org']}/{c['proj']} --body '{v}'\n"
        f"✓ Set Actions secret {var} for {c['org']}/{c['proj']}"
    )


@_t(("tok", "pw"))
def _appyml(r, c, lab, var, v):
    return (
        f"## containers/app.yml (Discourse)\nenv:\n  LANG: en_GB.UTF-8\n  DISCOURSE_HOSTNAME: '{c['host']}'\n"
        f"  DISCOURSE_DEVELOPER_EMAILS: '{c['who'].lower()}@{c['dom']}'\n  {var}: \"{v}\"\n"
    )


@_t(("pw",))
def _homeserver(r, c, lab, var, v):
    key = var.replace("SYNAPSE_", "").lower()
    return (
        f'# homeserver.yaml\nserver_name: "{c["dom"]}"\npublic_baseurl: https://{c["host"]}/\n'
        f'enable_registration: false\n{key}: "{v}"\nreport_stats: false\n'
    )


@_t(("tok", "pw"))
def _pkgjson(r, c, lab, var, v):
    return json.dumps(
        {
            "name": f"@{c['org']}/{c['proj']}",
            "version": f"{r.randint(0, 3)}.{r.randint(0, 30)}.0",
            "scripts": {
                "deploy": f"{var}={v} node scripts/deploy.mjs",
                "test": "vitest run",
            },
        },
        indent=2,
    )


@_t(("pem",))
def _catkey(r, c, lab, var, v):
    return f"$ cat ~/.ssh/{c['proj']}_deploy\n{v}\n$ chmod 600 ~/.ssh/{c['proj']}_deploy"


@_t(("pem",))
def _ghkey(r, c, lab, var, v):
    return (
        f"Pasted into Settings > Secrets > Actions > {var} on {c['org']}/{c['proj']} ({c['date']}):\n{v}\n"
        f"(remember: also add the public half as a deploy key with write access)"
    )


@_t(("gsa",))
def _gsa1(r, c, lab, var, v):
    return (
        "{\n"
        '  "type": "service_account",\n'
        f'  "project_id": "{c["org"]}-workspace-{r.randint(100, 999)}",\n'
        f'  "private_key_id": "{_hx(r, 40)}",\n'
        f'  "private_key": "{v}\\n",\n'
        f'  "client_email": "calendar-sync@{c["org"]}-workspace.iam.gserviceaccount.com",\n'
        f'  "client_id": "{r.randint(10**20, 10**21)}"\n'
        "}"
    )


@_t(("gsa",))
def _gsa2(r, c, lab, var, v):
    return (
        f'$ cat {c["proj"]}-sa.json | jq -r .private_key_id,.private_key\n{_hx(r, 40)}\n"{v}\\n"\n'
        f"# this is the Workspace calendar sync key, {c['who']} please revoke in IAM"
    )


@_t(("gsa",))
def _gsa3(r, c, lab, var, v):
    return (
        f"Note: the events calendar sync reads GOOGLE_SA_JSON. Value pasted by {c['who']}: "
        f'{{"type":"service_account","private_key":"{v}\\n","client_email":"sync@{c["org"]}.iam.gserviceaccount.com"}}'
    )


# ---------------------------------------------------------------- look-alikes
def _c(r):
    return _ctx(r)


def _L(f):
    _LOOK.append(f)
    return f


_LOOK: list = []

P_SK = "sk" + "_live_"
P_PK = "pk" + "_live_"
P_GHP = "gh" + "p_"
DASH5 = "-" * 5


@_L
def _lk_commit(r):
    c = _c(r)
    return f"Fixed flaky test_login in {c['proj']}, see commit {_hx(r, 40)} (reverted {_hx(r, 7)})."


@_L
def _lk_docker_digest(r):
    c = _c(r)
    return f"$ docker pull ghcr.io/{c['org']}/{c['proj']}:latest\nDigest: sha256:{_hx(r, 64)}\nStatus: Downloaded newer image"


@_L
def _lk_pip_hash(r):
    return f"requests==2.{r.randint(25, 32)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_hx(r, 64)} \\\n    --hash=sha256:{_hx(r, 64)}"


@_L
def _lk_npm_integrity(r):
    return json.dumps(
        {
            "node_modules/zod": {
                "version": f"3.{r.randint(20, 25)}.{r.randint(0, 9)}",
                "integrity": "sha512-" + _b64(r, 64),
            }
        },
        indent=2,
    )


@_L
def _lk_cargo_lock(r):
    return f'[[package]]\nname = "serde"\nversion = "1.0.{r.randint(150, 230)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{_hx(r, 64)}"'


@_L
def _lk_uuid_req(r):
    return f"Support ticket: Stripe said to quote request id req_{_s(r, 14)} and our trace {_uuid(r)}."


@_L
def _lk_sentry_dsn(r):
    return f"SENTRY_DSN=https://{_hx(r, 32)}@o{r.randint(10**5, 10**7)}.ingest.de.sentry.io/{r.randint(10**6, 10**7)}  # DSN is public, fine in the frontend"


@_L
def _lk_sentry_event(r):
    return f"Sentry issue {r.choice(['ROTA-BOT', 'SOCPRESS', 'TICKETY'])}-{r.randint(1, 400)}: event {_hx(r, 32)} — KeyError in member sync"


@_L
def _lk_stripe_pk(r):
    return f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={P_PK}{_s(r, 99)}"


@_L
def _lk_stripe_ids(r):
    return (
        f"Refunded membership: customer cus_{_s(r, 14)}, payment pi_{_s(r, 24)}, "
        f"price price_{_s(r, 24)}, event evt_{_s(r, 24)}"
    )


@_L
def _lk_stripe_docs(r):
    return (
        f"Stripe docs say to test with `{P_SK.replace('live', 'test')}...`, never paste the live one here. "
        f"Card 4242 4242 4242 4242, exp 12/{r.randint(27, 34)}, CVC {r.randint(100, 999)}."
    )


@_L
def _lk_supabase_anon(r):
    ref = _s(r, 20, LO)
    tok = _jwt(
        r,
        {
            "iss": "supabase",
            "ref": ref,
            "role": "anon",
            "iat": 1760000000 + r.randint(0, 10**7),
            "exp": 2075000000,
        },
    )
    return f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={tok}"


@_L
def _lk_algolia_search(r):
    return (
        f"docsearch({{\n  appId: '{_s(r, 10, UP + DIG)}',\n  apiKey: '{_hx(r, 32)}', // search-only key, public\n"
        f"  indexName: '{r.choice(PROJS)}',\n  container: '#docsearch',\n}});"
    )


@_L
def _lk_firebase(r):
    return (
        f'const firebaseConfig = {{\n  apiKey: "{"AI" + "za" + "Sy" + _s(r, 33, B64URL)}",\n'
        f'  authDomain: "{r.choice(PROJS)}-{r.randint(1000, 9999)}.firebaseapp.com",\n'
        f'  projectId: "quiz-{r.randint(1000, 9999)}",\n  appId: "1:{r.randint(10**11, 10**12)}:web:{_hx(r, 22)}"\n}};'
    )


@_L
def _lk_google_client_id(r):
    return f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{_s(r, 32, LO + DIG)}.apps.googleusercontent.com"


@_L
def _lk_recaptcha_site(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{_s(r, 38, B64URL)}"></div> <!-- site key, public -->'


@_L
def _lk_turnstile_site(r):
    return f"Cloudflare Turnstile on the join form: sitekey 0x4AAAAAAA{_s(r, 14, B64URL)} (secret is in the Worker env, not here)."


@_L
def _lk_ghost_content(r):
    c = _c(r)
    return f"const api = new GhostContentAPI({{ url: 'https://{c['host']}', key: '{_hx(r, 26)}', version: 'v5.0' }}); // content key is public"


@_L
def _lk_gha_secret_ref(r):
    v = r.choice(
        [
            "PYPI_API_TOKEN",
            "NPM_TOKEN",
            "DOCKERHUB_TOKEN",
            "CODECOV_TOKEN",
            "FLY_API_TOKEN",
            "VERCEL_TOKEN",
        ]
    )
    return f"      - name: Publish\n        env:\n          TOKEN: ${{{{ secrets.{v} }}}}\n        run: ./release.sh {r.randint(1, 9)}.{r.randint(0, 40)}.{r.randint(0, 9)}"


@_L
def _lk_trusted_publishing(r):
    c = _c(r)
    return (
        f"PyPI trusted publisher added for {c['proj']}: owner {c['org']}, workflow release.yml, environment pypi.\n"
        f"permissions:\n  id-token: write  # no API token needed any more (run {r.randint(10**9, 10**10)})"
    )


@_L
def _lk_env_placeholder(r):
    v = r.choice(
        [
            "DISCORD_TOKEN",
            "TELEGRAM_BOT_TOKEN",
            "STRIPE_SECRET_KEY",
            "MATRIX_ACCESS_TOKEN",
            "NOTION_TOKEN",
        ]
    )
    ph = r.choice(
        [
            "<your-token-here>",
            "changeme",
            "xxxxxxxxxxxxxxxx",
            "REPLACE_ME",
            "<paste from 1Password>",
            "TODO",
        ]
    )
    return f"# .env.example ({r.choice(PROJS)} v{r.randint(1, 9)}.{r.randint(0, 30)})\n{v}={ph}\nPORT={r.randint(3000, 9000)}"


@_L
def _lk_shell_ref(r):
    v = r.choice(
        [
            "$NPM_TOKEN",
            "${PYPI_TOKEN}",
            "$(cat /run/secrets/rcon)",
            "${CARGO_REGISTRY_TOKEN:?missing}",
        ]
    )
    return f'$ echo "//registry.npmjs.org/:_authToken={v}" > ~/.npmrc  # step {r.randint(1, 99)} of the release runbook'


@_L
def _lk_os_environ(r):
    v = r.choice(["DISCORD_TOKEN", "SYNAPSE_ADMIN_TOKEN", "SUMUP_API_KEY", "ZOOM_CLIENT_SECRET"])
    return f'import os\n\nTOKEN = os.environ["{v}"]\nGUILD_ID = {r.randint(10**17, 10**18)}\nclient.run(TOKEN)'


@_L
def _lk_airflow(r):
    return f'api_key = Variable.get("{r.choice(["eventbrite_token", "mailchimp_key", "zoom_secret"])}")  # DAG member_sync_{r.randint(1, 99)}'


@_L
def _lk_dbutils(r):
    return f'pw = dbutils.secrets.get(scope="{r.choice(SOCS).lower()}", key="{r.choice(["sso-test", "db", "smtp"])}")  # cell {r.randint(1, 60)}'


@_L
def _lk_vault_path(r):
    c = _c(r)
    return f"Stripe key now lives at vault kv path secret/data/{c['org']}/{r.choice(['stripe', 'sumup', 'mailgun'])}/v{r.randint(1, 30)} (policy web-team-ro)."


@_L
def _lk_op_ref(r):
    return f"DISCOURSE_API_KEY=op://Committee/{r.choice(['Discourse', 'Ghost', 'Mailman'])}/credential  # resolved by `op run` ({r.randint(1, 500)})"


@_L
def _lk_k8s_ref(r):
    return (
        f"        env:\n          - name: DB_PASSWORD\n            valueFrom:\n              secretKeyRef:\n"
        f"                name: {r.choice(PROJS)}-db-{r.randint(1, 99)}\n                key: password"
    )


@_L
def _lk_masked(r):
    return f"Password: {'*' * r.randint(8, 16)}  (set by {r.choice(NAMES)}, ask in #committee)"


@_L
def _lk_redacted_log(r):
    return (
        f"> POST /api/v1/statuses HTTP/2\n> Authorization: Bearer [REDACTED]\n< HTTP/2 200\n"
        f"< x-request-id: {_uuid(r)}\n< x-ratelimit-remaining: {r.randint(1, 300)}"
    )


@_L
def _lk_gh_masked(r):
    return f"2026-0{r.randint(1, 9)}-1{r.randint(0, 9)}T10:0{r.randint(0, 9)}:00Z  TWINE_PASSWORD: ***\nUploading {r.choice(PROJS)}-{r.randint(0, 3)}.{r.randint(0, 40)}.0-py3-none-any.whl"


@_L
def _lk_truncated(r):
    return f"Revoked token {P_GHP}…{_s(r, 4)} (last used {r.randint(2, 90)} days ago) per GitHub's email."


@_L
def _lk_bcrypt(r):
    return (
        f"discourse=# select username, '$2a$12$' || '{_s(r, 53, ALNUM + './')}' as hash; -- {r.choice(NAMES).lower()}"
    )


@_L
def _lk_argon2(r):
    return f"nextcloud: oc_users.password for {r.choice(NAMES).lower()} = 3|$argon2id$v=19$m=65536,t=4,p=1${_b64(r, 16).rstrip('=')}${_b64(r, 32).rstrip('=')}"


@_L
def _lk_synapse_hash(r):
    return f"Synapse users table: name @{r.choice(NAMES).lower()}:{r.choice(DOMS)} password_hash $2b$12${_s(r, 53, ALNUM + './')}"


@_L
def _lk_ansible_vault(r):
    lines = "\n".join("          " + _hx(r, 80) for _ in range(4))
    return f"smtp_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{lines}"


@_L
def _lk_sops(r):
    return f"rcon_password: ENC[AES256_GCM,data:{_b64(r, 18)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"


@_L
def _lk_gh_encrypted(r):
    return json.dumps(
        {"encrypted_value": _b64(r, 72), "key_id": str(r.randint(10**18, 10**19))},
        indent=2,
    )


@_L
def _lk_ssh_pub(r):
    return f"Deploy key (public half) added to {r.choice(PROJS)}: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_s(r, 43, B64)} deploy@{r.choice(DOMS)}"


@_L
def _lk_ssh_fp(r):
    return f"The authenticity of host '{r.choice(HOSTS)}.{r.choice(DOMS)}' can't be established.\nED25519 key fingerprint is SHA256:{_s(r, 43, B64)}."


@_L
def _lk_gpg_fp(r):
    fp = _s(r, 40, "0123456789ABCDEF")
    return (
        f"Releases are signed with key {fp[-16:]}; full fingerprint {' '.join(fp[i : i + 4] for i in range(0, 40, 4))}"
    )


@_L
def _lk_pgp_sig(r):
    body = _b64(r, 120)
    return f"{DASH5}BEGIN PGP SIGNATURE{DASH5}\n\niQEzBAABCAAdFiEE{body[:48]}\n{body[48:]}\n={_s(r, 4, B64)}\n{DASH5}END PGP SIGNATURE{DASH5}"


@_L
def _lk_pub_key(r):
    return "cosign.pub for verifying releases:\n" + _pem(r, "PUBLIC KEY", 91)


@_L
def _lk_cert(r):
    return "eduroam CA certificate (public, from the IT wiki):\n" + _pem(r, "CERTIFICATE", 300)


@_L
def _lk_csr(r):
    return f"$ openssl req -new -key tls.key -subj '/CN={r.choice(HOSTS)}.{r.choice(DOMS)}' | tee req.csr\n" + _pem(
        r, "CERTIFICATE REQUEST", 200
    )


@_L
def _lk_age_pub(r):
    return f".sops.yaml\ncreation_rules:\n  - path_regex: secrets/.*\\.yaml\n    age: age1{_s(r, 58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}"


@_L
def _lk_wg_pub(r):
    return f"[Peer]\nPublicKey = {_b64(r, 32)}\nAllowedIPs = 10.{r.randint(0, 255)}.0.0/24\nEndpoint = vpn.{r.choice(DOMS)}:51820"


@_L
def _lk_tailscale_ip(r):
    return f"$ tailscale status\n100.{r.randint(64, 127)}.{r.randint(0, 255)}.{r.randint(1, 254)}  mc-server  {r.choice(NAMES).lower()}@  linux  -\n100.{r.randint(64, 127)}.{r.randint(0, 255)}.{r.randint(1, 254)}  nextcloud  tagged-devices linux idle"


@_L
def _lk_tailscale_nodekey(r):
    return f"Tailscale node mc-server: nodekey:{_hx(r, 64)} (public), machine ID n{_s(r, 10)}CNTRL"


@_L
def _lk_git_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hx(r, 64)}\nsize {r.randint(1000, 10**8)}"


@_L
def _lk_data_uri(r):
    return f'<img alt="{r.choice(SOCS)} logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{_b64(r, 90)}">'


@_L
def _lk_b64_payload(r):
    return f"Webhook body (base64, from the SumUp dashboard log): {base64.b64encode(json.dumps({'event_type': 'CHECKOUT_STATUS_CHANGED', 'id': _uuid(r)}).encode()).decode()}"


@_L
def _lk_notebook(r):
    return json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 300),
            "id": _hx(r, 8),
            "metadata": {},
            "outputs": [],
            "source": ["df = load_members()\n", "df.head()"],
        }
    )


@_L
def _lk_hf_model(r):
    return f"Quiz bot now uses {r.choice(['mistralai', 'google', 'Qwen', 'microsoft'])}/{r.choice(['gemma-2-2b-it', 'Qwen2.5-1.5B-Instruct', 'Phi-3-mini-4k-instruct'])} at revision {_hx(r, 40)}"


@_L
def _lk_wandb_run(r):
    return f"wandb: 🚀 View run at https://wandb.ai/{r.choice(SOCS).lower()}/robot-arm/runs/{_s(r, 8, LO + DIG)}"


@_L
def _lk_gh_run(r):
    c = _c(r)
    return f"CI failed: https://github.com/{c['org']}/{c['proj']}/actions/runs/{r.randint(10**10, 2 * 10**10)}/job/{r.randint(10**10, 5 * 10**10)}"


@_L
def _lk_cf_ids(r):
    return f'wrangler.toml\nname = "{r.choice(PROJS)}"\naccount_id = "{_hx(r, 32)}"\n[[kv_namespaces]]\nbinding = "CACHE"\nid = "{_hx(r, 32)}"'


@_L
def _lk_cf_ray(r):
    return f"Cloudflare 522 on the forum again, Ray ID: {_hx(r, 16)}-{r.choice(['LHR', 'DUB', 'MAN', 'BCN', 'BIO', 'VNO'])}"


@_L
def _lk_vercel_ids(r):
    return (
        json.dumps({"projectId": "prj_" + _s(r, 28), "orgId": "team_" + _s(r, 24)}, indent=2)
        + "\n(.vercel/project.json, not secret)"
    )


@_L
def _lk_netlify_site(r):
    return f'[build]\n  publish = "site"\n# Netlify site id {_uuid(r)} — the deploy token is in Actions secrets'


@_L
def _lk_fly_machine(r):
    return f"$ flyctl machine list -a {r.choice(PROJS)}\nID              NAME              STATE   REGION\n{_hx(r, 14)}  {r.choice(WORDS)}-{r.choice(WORDS)}-{r.randint(1000, 9999)}  started lhr"


@_L
def _lk_render_ids(r):
    return f"Render service srv-{_s(r, 20, LO + DIG)} deploy dep-{_s(r, 20, LO + DIG)} went live at {r.choice(TIMES)}"


@_L
def _lk_supabase_ref(r):
    return f"supabase link --project-ref {_s(r, 20, LO)}\nFinished supabase link. (migration {r.randint(2024, 2026)}{r.randint(10**9, 10**10)})"


@_L
def _lk_upstash_url(r):
    return f"UPSTASH_REDIS_REST_URL=https://{r.choice(WORDS)}-{r.randint(1000, 99999)}.upstash.io\nUPSTASH_REDIS_REST_TOKEN=${{UPSTASH_TOKEN}}"


@_L
def _lk_crowdin(r):
    return f'crowdin.yml\nproject_id: "{r.randint(100000, 999999)}"\napi_token_env: CROWDIN_PERSONAL_TOKEN\nfiles:\n  - source: /locales/en.json\n    translation: /locales/%two_letters_code%.json'


@_L
def _lk_codecov_cfg(r):
    return f"codecov.yml\ncoverage:\n  status:\n    project:\n      default:\n        target: {r.randint(60, 95)}%\n        threshold: {r.randint(1, 5)}%\n# upload uses OIDC (use_oidc: true), no token"


@_L
def _lk_rtd(r):
    return f"Read the Docs build {r.randint(10**7, 3 * 10**7)} for {r.choice(PROJS)} passed, commit {_hx(r, 40)}"


@_L
def _lk_discord_ids(r):
    return f"Discord app: application id {r.randint(10**17, 10**18 * 2)}, interactions public key {_hx(r, 64)} (public, used to verify signatures)"


@_L
def _lk_discord_channels(r):
    return f'bot config: welcome_channel = {r.randint(10**17, 10**18 * 2)}\nmod_role = {r.randint(10**17, 10**18 * 2)}\nprefix = "!"'


@_L
def _lk_telegram_username(r):
    return f"Telegram bot @{r.choice(SOCS)}{r.choice(['Events', 'Rota', 'Quiz'])}Bot, chat id -100{r.randint(10**9, 10**10)}, token in BOT_TOKEN env"


@_L
def _lk_matrix_ids(r):
    d = r.choice(DOMS)
    return f"Moderation: redacted event ${_s(r, 43, B64URL)} in room !{_s(r, 18, ALNUM)}:{d} sent by @spam{r.randint(1, 999)}:matrix.org"


@_L
def _lk_matrix_device(r):
    return f"Synapse admin: @{r.choice(NAMES).lower()}:{r.choice(DOMS)} logged out device {_s(r, 10, UP)} (last seen 2026-0{r.randint(1, 9)}-1{r.randint(0, 9)})"


@_L
def _lk_mastodon(r):
    return f"Boosted https://social.{r.choice(DOMS)}/@{r.choice(SOCS).lower()}/{r.randint(10**17, 2 * 10**17)} — {r.randint(3, 200)} favourites"


@_L
def _lk_discourse_topic(r):
    return f"Discourse: merged topic {r.randint(100, 9000)} into /t/freshers-faq/{r.randint(10, 400)}, upload /uploads/default/original/2X/{_hx(r, 1)}/{_hx(r, 40)}.png"


@_L
def _lk_nextcloud_instance(r):
    return f"config.php: 'instanceid' => 'oc{_s(r, 10, LO + DIG)}', 'trusted_domains' => ['cloud.{r.choice(DOMS)}'], 'version' => '2{r.randint(8, 9)}.0.{r.randint(0, 9)}.1'"


@_L
def _lk_mailman(r):
    return f"Mailman: {r.randint(2, 60)} held messages on announce@lists.{r.choice(DOMS)}, message-id <{_hx(r, 16)}.{r.randint(10**5, 10**6)}@lists>"


@_L
def _lk_eventbrite(r):
    return f"Ticket order #{r.randint(10**9, 10**10)} for event {r.randint(10**11, 10**12)} — {r.randint(1, 4)} x Ball ticket, barcode {r.randint(10**17, 10**18)}"


@_L
def _lk_sumup_tx(r):
    return f"SumUp sale at the bake stall: transaction code T{_s(r, 9, UP + DIG)}, £{r.randint(1, 40)}.{r.randint(0, 99):02d}, card •••• {r.randint(1000, 9999)}"


@_L
def _lk_workspace(r):
    return f"Google Workspace for Nonprofits approved: customer ID C0{_s(r, 7, LO + DIG)}, domain {r.choice(DOMS)}, ticket {r.randint(10**7, 10**8)}"


@_L
def _lk_zoom(r):
    return f"AGM on Zoom: https://zoom.us/j/{r.randint(10**9, 10**11)} — passcode shared in the members' email only"


@_L
def _lk_notion(r):
    return f"Notion page https://www.notion.so/{r.choice(SOCS).lower()}/Committee-Handbook-{_hx(r, 32)} (database id {_uuid(r)})"


@_L
def _lk_canva(r):
    return (
        f"Poster design: https://www.canva.com/design/DAG{_s(r, 8)}/{_s(r, 22, B64URL)}/view — brand kit fonts: Inter"
    )


@_L
def _lk_minecraft_uuid(r):
    return f"[Server thread/INFO]: UUID of player {r.choice(WORDS)}{r.randint(1, 99)} is {_uuid(r)}"


@_L
def _lk_minecraft_seed(r):
    return f"server.properties\nlevel-seed={r.randint(-(2**63), 2**63)}\nenable-rcon=true\nrcon.port=25575\nrcon.password=\nwhite-list=true"


@_L
def _lk_student_id(r):
    return f"SSO test account: username test{r.randint(100, 999)}@{r.choice(DOMS)}, student no. {r.randint(10**7, 10**8)}, password reset via IT desk only"


@_L
def _lk_eduroam(r):
    return f"eduroam profile: EAP=PEAP, phase2=MSCHAPV2, anonymous identity anonymous@{r.choice(DOMS)}, server name radius{r.randint(1, 4)}.{r.choice(DOMS)}, CA SHA-1 {':'.join(_hx(r, 2).upper() for _ in range(20))}"


@_L
def _lk_semver(r):
    return f"Released {r.choice(PROJS)} {r.randint(0, 4)}.{r.randint(0, 40)}.{r.randint(0, 20)}: md5 {_hx(r, 32)}, sha1 {_hx(r, 40)}"


@_L
def _lk_sha256sums(r):
    return "\n".join(
        f"{_hx(r, 64)}  {r.choice(PROJS)}-{i}.{r.randint(0, 20)}.0-{a}.tar.gz"
        for i, a in enumerate(["x86_64", "aarch64"])
    )


@_L
def _lk_sigstore_bundle(r):
    return json.dumps(
        {
            "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
            "verificationMaterial": {
                "tlogEntries": [
                    {
                        "logIndex": str(r.randint(10**8, 10**9)),
                        "logId": {"keyId": _b64(r, 32)},
                    }
                ]
            },
            "messageSignature": {
                "messageDigest": {"algorithm": "SHA2_256", "digest": _b64(r, 32)},
                "signature": _b64(r, 70),
            },
        }
    )


@_L
def _lk_npm_provenance(r):
    return f"npm notice Publishing to https://registry.npmjs.org/ with tag latest and public access\nnpm notice shasum: {_hx(r, 40)}\nnpm notice integrity: sha512-{_b64(r, 16)}[...]{_s(r, 6, B64)}==\nProvenance statement published to transparency log: https://search.sigstore.dev/?logIndex={r.randint(10**8, 10**9)}"


@_L
def _lk_twine(r):
    p = r.choice(PROJS)
    return f"$ twine upload dist/*\nUploading distributions to https://upload.pypi.org/legacy/\nUploading {p.replace('-', '_')}-{r.randint(0, 3)}.{r.randint(0, 40)}.0-py3-none-any.whl\n100% ━━━━━━ {r.randint(10, 900)}.0/{r.randint(10, 900)}.0 kB\nView at:\nhttps://pypi.org/project/{p}/"


@_L
def _lk_token_hash(r):
    return f"api_keys table stores sha256(key) only: {_hx(r, 64)} (created_by={r.choice(NAMES).lower()}, scopes=read)"


@_L
def _lk_key_id(r):
    return (
        f"Ghost integration '{r.choice(PROJS)}' created; Admin key id {_hx(r, 24)} (the secret half is in Vaultwarden)"
    )


@_L
def _lk_gh_app_ids(r):
    return f"GitHub App {r.choice(SOCS).lower()}-bot: App ID {r.randint(10**5, 10**6)}, Client ID Iv23li{_s(r, 14)}, installation {r.randint(10**7, 10**8)}"


@_L
def _lk_oauth_client_ids(r):
    return f"Zoom app client ID {_s(r, 22, B64URL)} and account ID {_s(r, 22, B64URL)} (client secret stored in Render env)"


@_L
def _lk_docs_aws_example(r):
    return f"From the AWS docs: aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY{'EXAMPLE' + 'KEY'} — use your own, see step {r.randint(1, 20)} of {r.choice(PROJS)}/docs/deploy.md"


@_L
def _lk_changeme_doc(r):
    return f"README: the default Nextcloud admin password is `changeme`; the installer forces a change on first login (tested v{r.randint(27, 30)}.0.{r.randint(0, 9)} on {r.choice(HOSTS)}.{r.choice(DOMS)})."


@_L
def _lk_password_policy(r):
    return f"Password policy agreed at meeting {r.randint(1, 40)}: min {r.randint(12, 20)} chars, no reuse, use Vaultwarden generator, 2FA required for admins."


@_L
def _lk_secret_names(r):
    names = r.sample(
        [
            "PYPI_API_TOKEN",
            "NPM_TOKEN",
            "CODECOV_TOKEN",
            "SENTRY_AUTH_TOKEN",
            "DOCKERHUB_TOKEN",
            "FLY_API_TOKEN",
            "CLOUDFLARE_API_TOKEN",
            "TS_OAUTH_SECRET",
            "GPG_PASSPHRASE",
        ],
        4,
    )
    return "$ gh secret list\n" + "\n".join(
        f"{n}\t2026-0{r.randint(1, 9)}-{r.randint(10, 28)}T1{r.randint(0, 9)}:00:00Z" for n in names
    )


@_L
def _lk_gh_auth_status(r):
    return f"$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account {r.choice(NAMES).lower()}{r.randint(1, 99)} (keyring)\n  - Token: {P_GHP}************************************\n  - Token scopes: 'gist', 'read:org', 'repo'"


@_L
def _lk_docker_login(r):
    return f"$ docker login -u {r.choice(SOCS).lower()}bot --password-stdin < /run/secrets/dockerhub\nWARNING! Your credentials are stored unencrypted in '/root/.docker/config.json'.\nLogin Succeeded ({r.randint(1, 99)})"


@_L
def _lk_vercel_cli(r):
    p = r.choice(PROJS)
    return f"$ vercel deploy --prod\nVercel CLI 3{r.randint(0, 9)}.{r.randint(0, 9)}.0\n🔍  Inspect: https://vercel.com/{r.choice(SOCS).lower()}/{p}/{_s(r, 28)}\n✅  Production: https://{p}-{_s(r, 9, LO + DIG)}.vercel.app"


@_L
def _lk_flyctl_list(r):
    return f"$ flyctl secrets list -a {r.choice(PROJS)}\nNAME                    DIGEST                  CREATED AT\nDATABASE_URL            {_hx(r, 16)}        {r.randint(2, 30)}d ago\nDISCORD_TOKEN           {_hx(r, 16)}        {r.randint(2, 30)}d ago"


@_L
def _lk_npm_whoami(r):
    return f"$ npm whoami\n{r.choice(SOCS).lower()}-release\n$ npm token list\nid: {_hx(r, 6)}  created: 2026-0{r.randint(1, 9)}-0{r.randint(1, 9)}  readonly: false  cidr: none"


@_L
def _lk_css_colours(r):
    return ":root {\n" + "\n".join(f"  --brand-{i}: #{_hx(r, 6)};" for i in range(4)) + "\n}"


@_L
def _lk_git_log(r):
    return "\n".join(
        f"{_hx(r, 7)} {m}"
        for m in r.sample(
            [
                "fix: rotate webhook secret handling",
                "chore: bump deps",
                "feat: add token refresh",
                "docs: explain API key setup",
                "ci: use trusted publishing",
                "refactor: secrets loader",
            ],
            4,
        )
    )


@_L
def _lk_uuid_list(r):
    return "Migration ids applied:\n" + "\n".join(f"  - {_uuid(r)}" for _ in range(3))


@_L
def _lk_hex_color_hash(r):
    return (
        f"Gravatar for {r.choice(NAMES).lower()}@{r.choice(DOMS)}: https://www.gravatar.com/avatar/{_hx(r, 64)}?s=120"
    )


@_L
def _lk_etag(r):
    return f'< HTTP/2 304\n< etag: W/"{_hx(r, 32)}"\n< cf-cache-status: HIT\n< age: {r.randint(1, 9000)}'


@_L
def _lk_session_cookie_name(r):
    return f"Discourse session cookie is `_t`, CSRF header `X-CSRF-Token`; the login bug (#{r.randint(10, 999)}) was SameSite=Lax, not a leaked secret."


@_L
def _lk_oidc_discovery(r):
    return json.dumps(
        {
            "issuer": f"https://sso.{r.choice(DOMS)}/realms/students",
            "jwks_uri": f"https://sso.{r.choice(DOMS)}/certs",
            "kid": _s(r, 43, B64URL),
            "alg": "RS256",
            "use": "sig",
            "e": "AQAB",
        }
    )


@_L
def _lk_jwks_n(r):
    return json.dumps(
        {
            "keys": [
                {
                    "kty": "RSA",
                    "kid": _hx(r, 40),
                    "n": _b64(r, 120, url=True),
                    "e": "AQAB",
                }
            ]
        }
    )


@_L
def _lk_totp_doc(r):
    return f"Runbook: enabling 2FA on {r.choice(['Discourse', 'Nextcloud', 'Ghost', 'the forum'])}, step {r.randint(1, 30)}: scan the QR code with an authenticator app; never screenshot it into Discord."


@_L
def _lk_random_slug(r):
    return f"Short link for the freshers' form: https://forms.gle/{_s(r, 17)} (closes {r.randint(1, 28)} Oct)"


@_L
def _lk_yt_video(r):
    return f"Talk recording: https://www.youtube.com/watch?v={_s(r, 11, B64URL)}&t={r.randint(10, 3000)}s"


@_L
def _lk_welsh_placeholder(r):
    return (
        f"Nodyn: mae'r tocyn Discord yn y newidyn DISCORD_TOKEN ar Render, nid yma. Gwiriwch y log {r.randint(1, 300)}."
    )


@_L
def _lk_irish_ref(r):
    return f"Nóta: tá an eochair Stripe i secrets.STRIPE_SECRET_KEY anois; cruinniú {r.randint(1, 50)} ({r.choice(NAMES)}) — ná cuir isteach anseo í."


@_L
def _lk_basque_ref(r):
    return f"Oharra: Mastodon tokena vault-en dago (secret/data/social/mastodon, v{r.randint(1, 40)}, {r.choice(NAMES)}), ez kopiatu hona."


@_L
def _lk_catalan_ref(r):
    return f"Nota: la contrasenya de RCON és a ${{RCON_PASSWORD}} (fitxer .env al servidor {r.randint(1, 9)}, incidència #{r.randint(10, 400)}); no la poseu al xat."


@_L
def _lk_slovak_ref(r):
    return f"Poznámka: token pre PyPI už nepotrebujeme, používame trusted publishing (workflow release.yml, run {r.randint(10**9, 10**10)})."


@_L
def _lk_lith_ref(r):
    return f"Pastaba: Telegram boto raktas laikomas GitHub secrets (TELEGRAM_BOT_TOKEN); build #{r.randint(1, 999)} praėjo."


@_L
def _lk_invoice(r):
    return f"Invoice INV-{r.randint(2024, 2026)}-{r.randint(100, 999)} from Hetzner, IBAN ref {_s(r, 12, UP + DIG)}, amount €{r.randint(4, 80)}.{r.randint(0, 99):02d}"


@_L
def _lk_pyproject(r):
    p = r.choice(PROJS)
    return f'[project]\nname = "{p}"\nversion = "{r.randint(0, 3)}.{r.randint(0, 40)}.0"\n\n[tool.hatch.build]\nexclude = [".env", "secrets/"]\n\n[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider -k \'not token\'"'


@_L
def _lk_compose_secret_file(r):
    return f"services:\n  synapse:\n    image: matrixdotorg/synapse:v1.1{r.randint(10, 40)}.{r.randint(0, 5)}\n    secrets:\n      - registration_shared_secret\nsecrets:\n  registration_shared_secret:\n    file: ./secrets/reg_secret.txt"


@_L
def _lk_homeserver_ref(r):
    return f'# homeserver.yaml\nserver_name: "{r.choice(DOMS)}"\nregistration_shared_secret_path: /data/reg_secret\nmacaroon_secret_key_path: /data/macaroon\nmax_upload_size: {r.randint(10, 100)}M'


@_L
def _lk_appyml_ref(r):
    return f"env:\n  DISCOURSE_HOSTNAME: 'forum.{r.choice(DOMS)}'\n  DISCOURSE_SMTP_ADDRESS: smtp.eu.mailgun.org\n  DISCOURSE_SMTP_PORT: 587\n  DISCOURSE_SMTP_USER_NAME: postmaster@mg.{r.choice(DOMS)}\n  DISCOURSE_SMTP_PASSWORD: \"{{{{ smtp_password }}}}\"  # templated by ansible, run {r.randint(1, 99)}"


@_L
def _lk_ci_timing(r):
    return f"##[group]Run codecov/codecov-action@v{r.randint(3, 5)}\nwith:\n  use_oidc: true\n  fail_ci_if_error: true\n##[endgroup]\n[{r.randint(2026, 2026)}-12-0{r.randint(1, 9)}T{r.choice(TIMES)}:00.{r.randint(100, 999)}Z] ['info'] => Uploading report ID {_uuid(r)}"


@_L
def _lk_container_id(r):
    return f"$ docker ps\nCONTAINER ID   IMAGE                     STATUS\n{_hx(r, 12)}   discourse/base:2.0.{r.randint(2024, 2026)}1{r.randint(10, 99)}   Up {r.randint(2, 60)} days"


@_L
def _lk_ipfs(r):
    return f"Archived the old society site to IPFS: bafybei{_s(r, 52, 'abcdefghijklmnopqrstuvwxyz234567')} (pinned on web3.storage)"


@_L
def _lk_apt_key(r):
    return f"$ gpg --show-keys /usr/share/keyrings/tailscale-archive-keyring.gpg\npub   rsa4096 2020-0{r.randint(1, 9)}-0{r.randint(1, 9)} [SC]\n      {_s(r, 40, '0123456789ABCDEF')}\nuid           Tailscale Inc. (Package repository signing key)"


assert len({f.__name__ for f in _LOOK}) == len(_LOOK)


# ---------------------------------------------------------------- generation
def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind, label, var, maker, cat in K:
        temps = [f for cats, f in T if cat in cats]
        got = 0
        tries = 0
        order = temps[:]
        r.shuffle(order)
        while got < PER_KIND:
            tries += 1
            if tries > PER_KIND * 50:
                raise RuntimeError(f"cannot make {kind}")
            f = order[tries % len(order)] if tries <= len(order) else r.choice(temps)
            val, secret = maker(r)
            text = f(r, _ctx(r), label, var, val)
            if secret not in text or text in seen:
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
                raise RuntimeError(f"look-alike generator {gen.__name__} repeats")
            text = gen(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
