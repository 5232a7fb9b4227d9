"""Secret-detector test set Z: newsroom web team + freelance e-learning DevOps.

Theme
-----
Memories an AI coding agent keeps for (a) a news and media company's web team (WordPress VIP, Drupal,
Ghost, Contentful, Sanity, Arc XP, Fastly, Akamai, Cloudinary, Mux, JW Player, Brightcove, Google Ad
Manager, Prebid, Segment, Mixpanel, Amplitude, Chartbeat, Parse.ly, Mailchimp, Braze, OneSignal, Piano,
Stripe, in-app purchase keys, Algolia, Elastic Cloud, social APIs) and (b) a freelance DevOps engineer
running an e-learning platform (Moodle, Canvas/LTI, Zoom, Vimeo, Kaltura, BigBlueButton, SCORM Cloud,
Keycloak, LDAP, Postgres/MySQL/Redis, Hetzner, DigitalOcean, Linode, OVH, Scaleway, Bunny CDN,
Backblaze, SendGrid/Postmark/Mailgun, GitLab CI, Woodpecker, Drone, Ansible).

Memory styles: about half short notes / lessons / runbooks / TODOs / tickets / client e-mails / chat
(mostly English, some Spanish, Portuguese, Japanese, Korean, Polish, Turkish, Arabic), a quarter
configuration (.env, wp-config.php, settings.php, YAML, TOML, JSON, nginx, Ansible vars, Helm values,
crontab, PHP arrays, Terraform, systemd, compose) and a quarter tool output (shell sessions, WP-CLI,
drush, container logs, HTTP dumps, CI logs, kubectl, ansible).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is the single sensitive value and is an
  exact substring of ``text`` (no surrounding quotes). Every kind has exactly 30 positives.
* ``lookalikes``: texts with no credential at all. ``_LOOK`` is a list of generator functions, each
  called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic for a seed (one ``random.Random(seed)``); no duplicate text anywhere in the output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings / basic-auth URLs: the password
  only. Pre-signed URLs: the signature (``X-Amz-Signature`` / Bunny ``token``).
* PEM / OpenSSH private keys: the whole armoured block from the BEGIN line to the END line, exactly as it
  appears in the text (so YAML-indented or JSON ``\\n``-escaped blocks keep their indentation/escapes).
* UUID-shaped vendor tokens (Braze, Postmark, Scaleway) are positives only when the text names them as a
  token/key/secret; bare UUIDs are look-alikes.
* Public-by-design values are look-alikes: publishable keys, SDK/web keys, site keys, Sentry DSNs, OAuth
  client ids, Firebase web apiKeys, search-only keys, Ghost Content API keys, public certs/keys.
  Vendor documentation example values, encrypted blobs (Ansible vault, sops ENC[...], sealed secrets)
  and password hashes (bcrypt, phpass, argon2, Drupal) are look-alikes.
* Bare AWS access key ids are left out entirely; so are S3-style access key ids of other clouds.
* No token-shaped literal appears in this source: prefixes and bodies are assembled at run time.

Deliberately left out (ambiguous, neither positive nor look-alike)
------------------------------------------------------------------
Segment write keys (public in analytics.js, secret server-side), Google ``AIza`` API keys outside a
Firebase web config, Contentful delivery/preview tokens, Akamai ``access_token``/``client_token`` (only
``client_secret`` is used, alone), OVH application/consumer keys, Mux token ids, BigBlueButton API
``checksum`` parameters and webhook delivery signatures (derived per request), WordPress nonces and
Moodle ``sesskey`` (short-lived CSRF values), in-app purchase tokens, and S3-style access key ids
(DigitalOcean Spaces ``DO00...``, Scaleway ``SCW...``). Backblaze ``keyID`` appears only inside
pre-signed URLs and in one look-alike stating it is the id half.

Size: 86 kinds x 30 positives = 2580 positives; 128 look-alike generators x 12 = 1536 look-alikes.
"""

from __future__ import annotations

import base64
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
LOW = string.ascii_lowercase + string.digits
UP = string.ascii_uppercase + string.digits
AN = string.ascii_letters + string.digits
B64 = AN + "+/"
B64U = AN + "-_"
B32L = "abcdefghijklmnopqrstuvwxyz234567"
DIG = string.digits


def _s(r: random.Random, n: int, alpha: str = AN) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def _uuid(r: random.Random) -> str:
    h = _s(r, 32, HEX)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()


# ---------------------------------------------------------------------------------------------------
# context pools
# ---------------------------------------------------------------------------------------------------
ORGS = [
    "Daily Harbor",
    "Metro Ledger",
    "NorteNoticias",
    "Gazeta Sul",
    "Valley Courier",
    "Kento Shimbun",
    "Seoul Wire",
    "Kurier Mazowiecki",
    "Ege Haber",
    "Al-Nahar Digital",
    "The Civic Tribune",
    "LearnLoop Academy",
    "Campus Nube",
    "EduPonte",
    "Skillforge",
    "Akademia Online",
    "Bilgi Okulu",
    "TutorHub",
    "Brightpath LMS",
    "Medlearn CE",
]
PEOPLE = [
    "Marta",
    "Jonas",
    "Aiko",
    "Minji",
    "Tomasz",
    "Elif",
    "Omar",
    "Lucia",
    "Rafael",
    "Priya",
    "Ben",
    "Chloe",
    "Diego",
    "Hana",
    "Kasia",
    "Mehmet",
    "Layla",
    "Sven",
    "Ines",
    "Kofi",
]
APPS = [
    "newsroom",
    "paywall",
    "video",
    "newsletter",
    "search",
    "ads",
    "moodle",
    "lms",
    "classroom",
    "media",
    "syndication",
    "analytics",
    "push",
    "liveblog",
    "webinar",
    "enrolment",
    "certs",
]
DOMAINS = [
    "dailyharbor.com",
    "metroledger.news",
    "nortenoticias.es",
    "gazetasul.com.br",
    "valleycourier.org",
    "kento-shimbun.jp",
    "seoulwire.kr",
    "kurier-mazowiecki.pl",
    "egehaber.com.tr",
    "alnahar-digital.net",
    "learnloop.academy",
    "campusnube.mx",
    "eduponte.com.br",
    "skillforge.io",
    "akademia-online.pl",
    "tutorhub.co",
    "brightpath-lms.com",
    "medlearn.ce",
]
ENVS = ["prod", "staging", "preprod", "dev", "qa"]


def _ctx(r: random.Random) -> dict:
    d = r.choice(DOMAINS)
    return {
        "org": r.choice(ORGS),
        "who": r.choice(PEOPLE),
        "who2": r.choice(PEOPLE),
        "app": r.choice(APPS),
        "dom": d,
        "host": r.choice(["api", "cms", "lms", "www", "edge", "origin", "admin", "stage"]) + "." + d,
        "env_name": r.choice(ENVS),
        "date": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "time": f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}",
        "ts": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:"
        f"{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z",
        "ticket": r.choice(["OPS", "WEB", "LMS", "DEV", "INFRA", "NEWS"]) + "-" + str(r.randint(100, 9999)),
        "n": r.randint(2, 900),
    }


# ---------------------------------------------------------------------------------------------------
# secret makers
# ---------------------------------------------------------------------------------------------------
WORDS = [
    "tulip",
    "rover",
    "harbor",
    "copper",
    "falcon",
    "maple",
    "violet",
    "orbit",
    "pepper",
    "lantern",
    "quartz",
    "meadow",
    "cobalt",
    "sparrow",
    "ember",
    "glacier",
    "saffron",
    "tundra",
    "willow",
    "zephyr",
    "mango",
    "pixel",
    "walrus",
    "canyon",
    "biscuit",
    "nimbus",
    "otter",
    "rocket",
    "thistle",
    "velvet",
]
SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Lisboa",
    "Krakow",
    "Istanbul",
    "Sevilla",
    "Busan",
    "Osaka",
    "Porto",
    "Gdansk",
    "Newsroom",
    "Moodle",
    "Campus",
    "Redakcja",
]
SYM = "!*-_.~"


def _password(r: random.Random) -> str:
    style = r.randrange(5)
    if style == 0:
        return r.choice(SEASONS) + str(r.randint(1990, 2027)) + r.choice("!*.~") + _s(r, 2, DIG)
    if style == 1:
        a, b = r.sample(WORDS, 2)
        return f"{a}-{b.capitalize()}-{r.randint(10, 99)}{r.choice(SYM)}{_s(r, 2, AN)}"
    if style == 2:
        while True:
            p = _s(r, r.randint(18, 28), AN + SYM)
            if any(c in SYM for c in p) and any(c.isdigit() for c in p):
                return p
    if style == 3:
        ws = r.sample(WORDS, 4)
        return r.choice("-.").join(ws) + str(r.randint(1, 99))
    return _s(r, 4, AN) + r.choice(SYM) + _s(r, 6, AN) + r.choice(SYM) + _s(r, 6, AN)


def _tok(prefix_parts, n, alpha=AN):
    pre = "".join(prefix_parts)
    return lambda r: pre + _s(r, n, alpha)


def _mk_wp_app(r):
    return " ".join(_s(r, 4, AN) for _ in range(6))


def _mk_wp_salt(r):
    return _s(r, 64, AN + "!@%^&*()-_[]{}<>~+=,.;:/?|")


def _mk_ghost_admin(r):
    return _s(r, 24, HEX) + ":" + _s(r, 64, HEX)


def _mk_akamai(r):
    return _s(r, 43, B64) + "="


def _mk_mux(r):
    return _s(r, 75, B64)


def _mk_mailchimp(r):
    return _s(r, 32, HEX) + "-us" + str(r.randint(1, 21))


def _mk_elastic(r):
    raw = (_s(r, 20, B64U) + ":" + _s(r, 22, B64U)).encode()
    return base64.b64encode(raw).decode()


def _mk_twitter(r):
    return "A" * 22 + _s(r, 8, AN) + "A" * 8 + _s(r, 28, AN) + "%" + "3D" + _s(r, 50, AN)


def _mk_openai(r):
    return "sk" + "-proj-" + _s(r, 74, B64U) + "T3Blbk" + "FJ" + _s(r, 74, B64U)


def _mk_telegram(r):
    return str(r.randint(1000000000, 8999999999)) + ":" + "AA" + _s(r, 33, B64U)


def _mk_canvas(r):
    return str(r.randint(1, 29999)) + "~" + _s(r, 64, AN)


def _mk_bunny_key(r):
    u = _uuid(r)
    return u + _s(r, 4, HEX) + "-" + _s(r, 4, HEX) + "-" + _s(r, 4, HEX) + "-" + _s(r, 4, HEX) + "-" + _s(r, 12, HEX)


def _mk_b2(r):
    return "K" + "00" + r.choice("345") + _s(r, 27, AN)


def _mk_sendgrid(r):
    return "S" + "G." + _s(r, 22, B64U) + "." + _s(r, 43, B64U)


def _mk_mailgun(r):
    return _s(r, 32, HEX) + "-" + _s(r, 8, HEX) + "-" + _s(r, 8, HEX)


def _mk_bluesky(r):
    return "-".join(_s(r, 4, string.ascii_lowercase + string.digits) for _ in range(4))


def _mk_vault_pass(r):
    return " ".join(r.sample(WORDS, 5))


# URL makers return (value, secret)
def _mk_pg(r):
    p = _password(r)
    u = r.choice(["moodle", "lms_app", "wagtail", "ghost", "postgres", "analytics_ro", "app"])
    h = r.choice(["db1.internal", "10.0.3.12", "pg.lms.lan", "postgres", "pg-prod.priv"]) + ""
    v = f"postgres{r.choice(['', 'ql'])}://{u}:{p}@{h}:5432/{r.choice(['moodle', 'lms', 'cms', 'app'])}"
    return v + r.choice(["", "?sslmode=require"]), p


def _mk_redis(r):
    p = _password(r)
    h = r.choice(["redis.internal", "127.0.0.1", "cache-1.lan", "redis-master"])
    user = r.choice(["", "default"])
    return f"redis{r.choice(['', 's'])}://{user}:{p}@{h}:6379/{r.randint(0, 5)}", p


def _mk_basic(r):
    p = _password(r)
    u = r.choice(["deploy", "editor", "preview", "client", "staging", "qa"])
    d = r.choice(DOMAINS)
    return f"https://{u}:{p}@{r.choice(['staging', 'preview', 'dev', 'beta'])}.{d}/", p


def _mk_cloudinary(r):
    s = _s(r, 27, B64U)
    return (
        f"cloudinary://{_s(r, 15, DIG)}:{s}@{r.choice(['harbor-media', 'dh-img', 'eduponte', 'lms-cdn'])}",
        s,
    )


def _mk_slack(r):
    s = _s(r, 24, AN)
    base = "https://" + "hooks." + "slack.com/services/"
    return base + "T" + _s(r, 10, UP) + "/B" + _s(r, 10, UP) + "/" + s, s


def _mk_discord(r):
    s = _s(r, 68, B64U)
    return "https://discord.com/api/" + "webhooks/" + _s(r, 19, DIG) + "/" + s, s


def _mk_bunny_signed(r):
    s = _s(r, 43, B64U)
    z = r.choice(["lms-video", "dh-media", "courses"])
    path = f"/{r.choice(['lessons', 'vod', 'hls'])}/{_s(r, 8, LOW)}/{r.choice(['index.m3u8', 'video.mp4'])}"
    return (
        f"https://{z}.b-cdn.net{path}?token={s}&expires={r.randint(1780000000, 1799999999)}",
        s,
    )


def _mk_presigned(r):
    sig = _s(r, 64, HEX)
    day = r.randint(101, 130)
    kid = "00" + r.choice("45") + _s(r, 21, HEX)
    b = r.choice(["lms-exports", "newsroom-archive", "course-videos"])
    url = (
        f"https://{b}.s3.eu-central-003.backblazeb2.com/{_s(r, 10, LOW)}.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={kid}%2F20261{day}%2Feu-central-003%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20261{day}T{r.randint(10, 23)}0000Z&X-Amz-Expires=3600"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return url, sig


# PEM makers return the armoured block
def _pem(r, label, first, lines, last_len, width=64):
    body = first + _s(r, width - len(first), B64)
    out = [body] + [_s(r, width, B64) for _ in range(lines - 1)] + [_s(r, last_len, B64) + r.choice(["", "=", "=="])]
    return "-----" + "BEGIN " + label + " KEY-----\n" + "\n".join(out) + "\n-----" + "END " + label + " KEY-----"


def _mk_openssh(r):
    return _pem(
        r,
        "OPENSSH " + "PRIVATE",
        "b3BlbnNzaC1rZXkt" + "djEAAAAA",
        r.randint(4, 6),
        r.randint(8, 60),
        70,
    )


def _mk_rsa(r):
    return _pem(r, "RSA " + "PRIVATE", "MIIEpAIB" + "AAKCAQEA", 24, r.randint(20, 60))


def _mk_p8(r):
    return _pem(r, "PRIVATE", "MIGTAgEAMBMG" + "ByqGSM49AgEG", 3, 24)


def _mk_gsa(r):
    return _pem(r, "PRIVATE", "MIIEvQIBADAN" + "BgkqhkiG9w0B", 25, r.randint(20, 60))


# kind table: name, label, env var, shape, maker, cli
KINDS = [
    (
        "wordpress_application_password",
        "WordPress application password",
        "WP_APP_PASSWORD",
        "password",
        _mk_wp_app,
        None,
    ),
    (
        "wordpress_auth_salt",
        "wp-config AUTH_KEY salt",
        "AUTH_KEY",
        "token",
        _mk_wp_salt,
        None,
    ),
    (
        "wordpress_admin_password",
        "WordPress admin password",
        "WP_ADMIN_PASSWORD",
        "password",
        _password,
        "wp user update admin --user_pass='{v}' --url={host}",
    ),
    (
        "drupal_hash_salt",
        "Drupal hash_salt",
        "DRUPAL_HASH_SALT",
        "token",
        _tok([""], 74, B64U),
        None,
    ),
    (
        "ghost_admin_api_key",
        "Ghost Admin API key",
        "GHOST_ADMIN_API_KEY",
        "token",
        _mk_ghost_admin,
        None,
    ),
    (
        "contentful_management_token",
        "Contentful management token",
        "CONTENTFUL_MANAGEMENT_TOKEN",
        "token",
        _tok(["CFP", "AT-"], 43, B64U),
        None,
    ),
    (
        "sanity_api_token",
        "Sanity API write token",
        "SANITY_API_TOKEN",
        "token",
        _tok(["s", "k"], 180),
        None,
    ),
    (
        "arc_xp_access_token",
        "Arc XP developer access token",
        "ARC_ACCESS_TOKEN",
        "token",
        _tok([""], 80, UP),
        None,
    ),
    (
        "fastly_api_token",
        "Fastly API token",
        "FASTLY_API_TOKEN",
        "token",
        _tok([""], 32, B64U),
        None,
    ),
    (
        "akamai_client_secret",
        "Akamai EdgeGrid client_secret",
        "AKAMAI_CLIENT_SECRET",
        "token",
        _mk_akamai,
        None,
    ),
    (
        "cloudinary_api_secret",
        "Cloudinary URL",
        "CLOUDINARY_URL",
        "url",
        _mk_cloudinary,
        None,
    ),
    (
        "mux_token_secret",
        "Mux token secret",
        "MUX_TOKEN_SECRET",
        "token",
        _mk_mux,
        None,
    ),
    (
        "jwplayer_api_secret",
        "JW Player API v2 secret",
        "JWPLAYER_API_SECRET",
        "token",
        _tok([""], 56),
        None,
    ),
    (
        "brightcove_client_secret",
        "Brightcove OAuth client secret",
        "BRIGHTCOVE_CLIENT_SECRET",
        "token",
        _tok([""], 86, B64U),
        None,
    ),
    (
        "segment_public_api_token",
        "Segment Public API token",
        "SEGMENT_PAPI_TOKEN",
        "token",
        _tok(["sg", "p_"], 64),
        None,
    ),
    (
        "mixpanel_service_account_secret",
        "Mixpanel service account secret",
        "MIXPANEL_SA_SECRET",
        "token",
        _tok([""], 32),
        None,
    ),
    (
        "amplitude_secret_key",
        "Amplitude secret key",
        "AMPLITUDE_SECRET_KEY",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "chartbeat_api_key",
        "Chartbeat API key",
        "CHARTBEAT_API_KEY",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "parsely_api_secret",
        "Parse.ly API secret",
        "PARSELY_API_SECRET",
        "token",
        _tok([""], 43),
        None,
    ),
    (
        "mailchimp_api_key",
        "Mailchimp API key",
        "MAILCHIMP_API_KEY",
        "token",
        _mk_mailchimp,
        None,
    ),
    (
        "braze_rest_api_key",
        "Braze REST API key",
        "BRAZE_REST_API_KEY",
        "token",
        _uuid,
        None,
    ),
    (
        "onesignal_rest_api_key",
        "OneSignal REST API key",
        "ONESIGNAL_REST_API_KEY",
        "token",
        _tok(["os_", "v2_", "app_"], 106, B32L),
        None,
    ),
    (
        "piano_api_token",
        "Piano API token",
        "PIANO_API_TOKEN",
        "token",
        _tok([""], 40),
        None,
    ),
    (
        "stripe_secret_key",
        "Stripe secret key",
        "STRIPE_SECRET_KEY",
        "token",
        _tok(["s", "k_", "live_"], 99),
        None,
    ),
    (
        "stripe_restricted_key",
        "Stripe restricted key",
        "STRIPE_RESTRICTED_KEY",
        "token",
        _tok(["r", "k_", "live_"], 99),
        None,
    ),
    (
        "stripe_webhook_secret",
        "Stripe webhook signing secret",
        "STRIPE_WEBHOOK_SECRET",
        "token",
        _tok(["wh", "sec_"], 32),
        None,
    ),
    (
        "apple_iap_private_key",
        "App Store Connect in-app purchase key (.p8)",
        "APPLE_IAP_KEY",
        "pem",
        _mk_p8,
        None,
    ),
    (
        "apple_iap_shared_secret",
        "App Store app-specific shared secret",
        "APPLE_SHARED_SECRET",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "gcp_service_account_private_key",
        "Google Ad Manager service account key",
        "GAM_SA_KEY",
        "pem",
        _mk_gsa,
        None,
    ),
    (
        "algolia_admin_api_key",
        "Algolia admin API key",
        "ALGOLIA_ADMIN_API_KEY",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "elastic_api_key",
        "Elastic Cloud API key",
        "ELASTIC_API_KEY",
        "token",
        _mk_elastic,
        None,
    ),
    (
        "twitter_bearer_token",
        "X API bearer token",
        "TWITTER_BEARER_TOKEN",
        "token",
        _mk_twitter,
        None,
    ),
    (
        "facebook_page_access_token",
        "Facebook page access token",
        "FB_PAGE_ACCESS_TOKEN",
        "token",
        _tok(["EA", "A"], 180),
        None,
    ),
    (
        "facebook_app_secret",
        "Facebook app secret",
        "FB_APP_SECRET",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "instagram_access_token",
        "Instagram long-lived access token",
        "IG_ACCESS_TOKEN",
        "token",
        _tok(["IGQ", "VJ"], 190, B64U),
        None,
    ),
    (
        "tiktok_client_secret",
        "TikTok client secret",
        "TIKTOK_CLIENT_SECRET",
        "token",
        _tok([""], 32),
        None,
    ),
    (
        "google_oauth_client_secret",
        "YouTube OAuth client secret",
        "YOUTUBE_CLIENT_SECRET",
        "token",
        _tok(["GOC", "SPX-"], 28, B64U),
        None,
    ),
    (
        "bluesky_app_password",
        "Bluesky app password",
        "BSKY_APP_PASSWORD",
        "password",
        _mk_bluesky,
        None,
    ),
    (
        "mastodon_access_token",
        "Mastodon access token",
        "MASTODON_ACCESS_TOKEN",
        "token",
        _tok([""], 43, B64U),
        None,
    ),
    (
        "openai_api_key",
        "OpenAI key for the headline summarizer",
        "OPENAI_API_KEY",
        "token",
        _mk_openai,
        None,
    ),
    (
        "telegram_bot_token",
        "Telegram breaking-news bot token",
        "TELEGRAM_BOT_TOKEN",
        "token",
        _mk_telegram,
        None,
    ),
    (
        "moodle_ws_token",
        "Moodle web service token",
        "MOODLE_WS_TOKEN",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "canvas_access_token",
        "Canvas API access token",
        "CANVAS_API_TOKEN",
        "token",
        _mk_canvas,
        None,
    ),
    (
        "canvas_developer_key_secret",
        "Canvas developer key secret",
        "CANVAS_DEV_KEY_SECRET",
        "token",
        _tok([""], 64),
        None,
    ),
    (
        "lti_shared_secret",
        "LTI 1.1 shared secret",
        "LTI_SHARED_SECRET",
        "token",
        _tok([""], 32),
        None,
    ),
    (
        "zoom_client_secret",
        "Zoom server-to-server OAuth client secret",
        "ZOOM_CLIENT_SECRET",
        "token",
        _tok([""], 32),
        None,
    ),
    (
        "zoom_webhook_secret_token",
        "Zoom webhook secret token",
        "ZOOM_WEBHOOK_SECRET_TOKEN",
        "token",
        _tok([""], 22, B64U),
        None,
    ),
    (
        "vimeo_access_token",
        "Vimeo access token",
        "VIMEO_ACCESS_TOKEN",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "kaltura_admin_secret",
        "Kaltura admin secret",
        "KALTURA_ADMIN_SECRET",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "bigbluebutton_shared_secret",
        "BigBlueButton shared secret",
        "BBB_SECRET",
        "token",
        _tok([""], 42),
        None,
    ),
    (
        "scorm_cloud_secret_key",
        "SCORM Cloud secret key",
        "SCORM_CLOUD_SECRET",
        "token",
        _tok([""], 40),
        None,
    ),
    (
        "keycloak_client_secret",
        "Keycloak client secret",
        "KEYCLOAK_CLIENT_SECRET",
        "token",
        _tok([""], 32),
        None,
    ),
    (
        "keycloak_admin_password",
        "Keycloak admin password",
        "KEYCLOAK_ADMIN_PASSWORD",
        "password",
        _password,
        "/opt/keycloak/bin/kcadm.sh config credentials --server https://{host} --realm master --user admin --password '{v}'",
    ),
    (
        "ldap_bind_password",
        "LDAP bind password",
        "LDAP_BIND_PASSWORD",
        "password",
        _password,
        "ldapsearch -x -H ldaps://ldap.{dom} -D 'cn=moodle,ou=svc,dc=lms' -w '{v}' -b 'ou=people,dc=lms'",
    ),
    (
        "postgres_password",
        "Postgres connection string",
        "DATABASE_URL",
        "url",
        _mk_pg,
        "psql '{v}'",
    ),
    (
        "mysql_password",
        "MySQL DB_PASSWORD",
        "DB_PASSWORD",
        "password",
        _password,
        "mysql -h db.{dom} -u wp_prod -p'{v}' wordpress",
    ),
    (
        "redis_password",
        "Redis URL",
        "REDIS_URL",
        "url",
        _mk_redis,
        "redis-cli -u '{v}' ping",
    ),
    (
        "hetzner_api_token",
        "Hetzner Cloud API token",
        "HCLOUD_TOKEN",
        "token",
        _tok([""], 64),
        None,
    ),
    (
        "digitalocean_token",
        "DigitalOcean personal access token",
        "DIGITALOCEAN_TOKEN",
        "token",
        _tok(["do", "p_", "v1_"], 64, HEX),
        None,
    ),
    (
        "digitalocean_spaces_secret",
        "DigitalOcean Spaces secret key",
        "SPACES_SECRET_KEY",
        "token",
        _tok([""], 43, B64),
        None,
    ),
    (
        "linode_token",
        "Linode personal access token",
        "LINODE_TOKEN",
        "token",
        _tok([""], 64, HEX),
        None,
    ),
    (
        "ovh_application_secret",
        "OVH application secret",
        "OVH_APPLICATION_SECRET",
        "token",
        _tok([""], 32),
        None,
    ),
    (
        "scaleway_secret_key",
        "Scaleway secret key",
        "SCW_SECRET_KEY",
        "token",
        _uuid,
        None,
    ),
    (
        "bunny_api_key",
        "Bunny CDN account API key",
        "BUNNY_API_KEY",
        "token",
        _mk_bunny_key,
        None,
    ),
    (
        "bunny_signed_url_token",
        "Bunny signed video URL",
        "SIGNED_VIDEO_URL",
        "url",
        _mk_bunny_signed,
        "curl -sI '{v}'",
    ),
    (
        "s3_presigned_url_signature",
        "B2 pre-signed export URL",
        "EXPORT_URL",
        "url",
        _mk_presigned,
        "curl -o export.zip '{v}'",
    ),
    (
        "backblaze_application_key",
        "Backblaze B2 application key",
        "B2_APPLICATION_KEY",
        "token",
        _mk_b2,
        None,
    ),
    (
        "sendgrid_api_key",
        "SendGrid API key",
        "SENDGRID_API_KEY",
        "token",
        _mk_sendgrid,
        None,
    ),
    (
        "postmark_server_token",
        "Postmark server token",
        "POSTMARK_SERVER_TOKEN",
        "token",
        _uuid,
        None,
    ),
    (
        "mailgun_api_key",
        "Mailgun API key",
        "MAILGUN_API_KEY",
        "token",
        _mk_mailgun,
        None,
    ),
    (
        "smtp_password",
        "SMTP relay password",
        "SMTP_PASSWORD",
        "password",
        _password,
        "swaks --to test@{dom} --server smtp.{dom}:587 --auth-user lms-mailer --auth-password '{v}'",
    ),
    (
        "gitlab_personal_access_token",
        "GitLab personal access token",
        "GITLAB_TOKEN",
        "token",
        _tok(["gl", "pat-"], 20, B64U),
        None,
    ),
    (
        "gitlab_runner_token",
        "GitLab runner authentication token",
        "RUNNER_TOKEN",
        "token",
        _tok(["gl", "rt-"], 20, B64U),
        None,
    ),
    (
        "gitlab_trigger_token",
        "GitLab pipeline trigger token",
        "TRIGGER_TOKEN",
        "token",
        _tok(["gl", "ptt-"], 40, HEX),
        None,
    ),
    (
        "woodpecker_agent_secret",
        "Woodpecker agent secret",
        "WOODPECKER_AGENT_SECRET",
        "token",
        _tok([""], 64, HEX),
        None,
    ),
    (
        "drone_rpc_secret",
        "Drone RPC secret",
        "DRONE_RPC_SECRET",
        "token",
        _tok([""], 32, HEX),
        None,
    ),
    (
        "ansible_become_password",
        "Ansible become password",
        "ANSIBLE_BECOME_PASS",
        "password",
        _password,
        "ansible-playbook site.yml -i inventories/prod -e 'ansible_become_password={v}'",
    ),
    (
        "ansible_vault_password",
        "Ansible vault password",
        "ANSIBLE_VAULT_PASSWORD",
        "password",
        _mk_vault_pass,
        None,
    ),
    (
        "slack_webhook",
        "Slack incoming webhook",
        "SLACK_WEBHOOK_URL",
        "url",
        _mk_slack,
        "curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy ok\"}}' {v}",
    ),
    (
        "discord_webhook",
        "Discord webhook",
        "DISCORD_WEBHOOK_URL",
        "url",
        _mk_discord,
        "curl -H 'Content-Type: application/json' -d '{{\"content\":\"backup done\"}}' '{v}'",
    ),
    (
        "basic_auth_url_password",
        "staging basic-auth URL",
        "STAGING_URL",
        "url",
        _mk_basic,
        "curl -s '{v}'",
    ),
    (
        "openssh_private_key",
        "deploy SSH key",
        "SSH_PRIVATE_KEY",
        "pem",
        _mk_openssh,
        None,
    ),
    ("rsa_private_key", "RSA private key", "TLS_KEY", "pem", _mk_rsa, None),
    (
        "npm_token",
        "npm automation token",
        "NPM_TOKEN",
        "token",
        _tok(["np", "m_"], 36),
        None,
    ),
    (
        "docker_hub_pat",
        "Docker Hub access token",
        "DOCKERHUB_TOKEN",
        "token",
        _tok(["dckr", "_pat_"], 27, B64U),
        None,
    ),
    (
        "sentry_auth_token",
        "Sentry user auth token",
        "SENTRY_AUTH_TOKEN",
        "token",
        _tok(["sntr", "yu_"], 64, HEX),
        None,
    ),
]


# ---------------------------------------------------------------------------------------------------
# templates (category, shapes, fn(c) -> text); c has the context + label/env/key/v
# ---------------------------------------------------------------------------------------------------
TPL_ALL = ("token", "password", "url")


def _camel(k: str) -> str:
    p = k.split("_")
    return p[0] + "".join(x.capitalize() for x in p[1:])


T = []


def _t(cat, shapes=TPL_ALL):
    def deco(f):
        T.append((cat, shapes, f))
        return f

    return deco


@_t("note")
def _n1(c):
    return f"{c['label']} for {c['org']} ({c['env_name']}): {c['v']}"


@_t("note")
def _n2(c):
    return (
        f"Lesson: {c['org']} {c['env_name']} broke on {c['date']} because the {c['label']} had been rotated "
        f"without telling us. New value is {c['v']} - update the password manager entry too."
    )


@_t("note")
def _n3(c):
    return (
        f"Runbook - {c['app']} restore for {c['org']}\n1. ssh deploy@{c['host']}\n2. export {c['env']}={c['v']}\n"
        f"3. systemctl restart {c['app']}-worker\n4. purge the CDN cache and check the homepage"
    )


@_t("note")
def _n4(c):
    return f"TODO({c['who']}): move {c['env']} out of the repo before handover. current value: {c['v']}"


@_t("note")
def _n5(c):
    return (
        f"[{c['ticket']}] {c['org']}: {c['app']} sync failing\nReporter: {c['who']}\n"
        f"Details: {c['key']} is set to {c['v']} but the job still gets 401 since {c['date']}."
    )


@_t("note")
def _n6(c):
    return (
        f"Hi {c['who']},\n\nas requested, here is the {c['label']} for the {c['org']} account:\n\n{c['v']}\n\n"
        f"Please keep it out of tickets.\n\nBest,\n{c['who2']}"
    )


@_t("note")
def _n7(c):
    return (
        f"[{c['time']}] {c['who']}: what's the {c['label']} for {c['env_name']} again?\n"
        f"[{c['time']}] {c['who2']}: {c['v']}\n[{c['time']}] {c['who']}: thanks, works"
    )


@_t("note")
def _n8(c):
    return (
        f"Decision {c['date']}: one {c['label']} per environment for {c['org']}. "
        f"Production uses {c['v']}; staging gets its own."
    )


@_t("note")
def _n9(c):
    return f"Remember: {c['org']} still uses `{c['v']}` as {c['label']} in the {c['app']} cron; don't regenerate it."


@_t("note")
def _n_es(c):
    return f"Nota: el {c['label']} de {c['org']} es {c['v']} (no compartir fuera del equipo)."


@_t("note")
def _n_pt(c):
    return f"Lembrete: {c['label']} do cliente {c['org']} = {c['v']} - guardar no cofre depois da migração."


@_t("note")
def _n_ja(c):
    return f"{c['org']}の{c['label']}: {c['v']}（本番用・共有禁止）"


@_t("note")
def _n_ko(c):
    return f"{c['org']} {c['label']}: {c['v']} (운영 환경, 외부 공유 금지)"


@_t("note")
def _n_pl(c):
    return f"Notatka: {c['label']} dla {c['org']} to {c['v']} - nie wrzucać do repo."


@_t("note")
def _n_tr(c):
    return f"Not: {c['org']} için {c['label']} = {c['v']} (prod, kimseyle paylaşmayın)"


@_t("note")
def _n_ar(c):
    return f"ملاحظة: {c['label']} الخاص بـ {c['org']} هو {c['v']} - لا تشاركه."


@_t("conf")
def _c_env(c):
    return f"# {c['org']} {c['env_name']}\nAPP_ENV={c['env_name']}\n{c['env']}={c['v']}\nLOG_LEVEL=info"


@_t("conf")
def _c_yaml(c):
    return f'{c["app"]}:\n  environment: {c["env_name"]}\n  {c["key"]}: "{c["v"]}"\n  timeout: 30'


@_t("conf")
def _c_toml(c):
    return f'[{c["app"]}]\nendpoint = "https://{c["host"]}"\n{c["key"]} = "{c["v"]}"\nretries = 3'


@_t("conf")
def _c_json(c):
    return f'{{\n  "service": "{c["app"]}",\n  "{_camel(c["key"])}": "{c["v"]}",\n  "retries": 3\n}}'


@_t("conf")
def _c_wp(c):
    return (
        f"define( 'WP_ENVIRONMENT_TYPE', 'production' );\ndefine( '{c['env']}', '{c['v']}' );\n"
        "define( 'WP_DEBUG', false );"
    )


@_t("conf")
def _c_php(c):
    return (
        f"<?php\n// {c['org']} - settings.local.php\n$settings['{c['key']}'] = '{c['v']}';\n$settings['cache'] = TRUE;"
    )


@_t("conf")
def _c_ansible(c):
    return f'---\n# group_vars/{c["env_name"]}/main.yml\n{c["key"]}: "{c["v"]}"\n{c["app"]}_version: 4.3.2'


@_t("conf")
def _c_helm(c):
    return f'# values-{c["env_name"]}.yaml\n{c["app"]}:\n  secrets:\n    {_camel(c["key"])}: "{c["v"]}"\n  replicas: 2'


@_t("conf")
def _c_tf(c):
    return f'# {c["env_name"]}.auto.tfvars\nregion = "fsn1"\n{c["key"]} = "{c["v"]}"'


@_t("conf")
def _c_cron(c):
    return (
        f"# m h dom mon dow command\n*/15 * * * * {c['env']}='{c['v']}' /usr/local/bin/{c['app']}-sync "
        f">> /var/log/{c['app']}.log 2>&1"
    )


@_t("conf")
def _c_compose(c):
    return f"services:\n  {c['app']}:\n    image: registry.{c['dom']}/{c['app']}:latest\n    environment:\n      - {c['env']}={c['v']}"


@_t("conf")
def _c_nginx(c):
    return f'location ~ \\.php$ {{\n    fastcgi_pass unix:/run/php/php8.2-fpm.sock;\n    fastcgi_param {c["env"]} "{c["v"]}";\n}}'


@_t("conf")
def _c_systemd(c):
    return f'[Service]\nUser={c["app"]}\nEnvironment="{c["env"]}={c["v"]}"\nExecStart=/usr/bin/node /srv/{c["app"]}/index.js'


@_t("out")
def _o_cli(c):
    return (
        f"$ export {c['env']}='{c['v']}'\n$ ./bin/{c['app']} sync --env {c['env_name']}\nSynced {c['n']} items in 3.1s"
    )


@_t("out")
def _o_wpcli(c):
    return (
        f"$ wp config set {c['env']} '{c['v']}' --type=constant --path=/srv/www/{c['dom']}\n"
        f"Success: Added the constant '{c['env']}' to the 'wp-config.php' file."
    )


@_t("out")
def _o_drush(c):
    return f"$ drush -y config:set {c['app']}.settings {c['key']} '{c['v']}'\n [success] Configuration saved."


@_t("out")
def _o_logs(c):
    return (
        f"{c['app']}-7f9c | {c['ts']} INFO  boot: env={c['env_name']}\n"
        f"{c['app']}-7f9c | {c['ts']} DEBUG config loaded {c['key']}={c['v']}\n"
        f"{c['app']}-7f9c | {c['ts']} INFO  listening on :8080"
    )


@_t("out", ("token",))
def _o_http(c):
    return (
        f"> POST /v1/sync HTTP/1.1\n> Host: {c['host']}\n> Authorization: Bearer {c['v']}\n"
        f"> Content-Type: application/json\n>\n< HTTP/1.1 200 OK\n< content-length: 17"
    )


@_t("out")
def _o_ci(c):
    return (
        f'Running with gitlab-runner 17.5.1\n$ echo "deploying with {c["env"]}={c["v"]}"\n'
        f"deploying with {c['env']}=...\n$ ansible-playbook deploy.yml\nJob succeeded"
    )


@_t("out", ("token",))
def _o_curl(c):
    return f'$ curl -s -H \'X-Api-Key: {c["v"]}\' https://{c["host"]}/api/health\n{{"status":"ok"}}'


@_t("out")
def _o_envdump(c):
    return f"$ docker exec {c['app']} env | grep {c['env'][:5]}\n{c['env']}={c['v']}"


@_t("out")
def _o_kubectl(c):
    return f"$ kubectl -n {c['app']} get secret {c['app']}-env -o jsonpath='{{.data.{c['env']}}}' | base64 -d\n{c['v']}"


@_t("out")
def _o_ansible(c):
    return f'TASK [debug] ****\nok: [web1.{c["dom"]}] => {{\n    "{c["key"]}": "{c["v"]}"\n}}'


@_t("out", ("password", "url"))
def _o_kindcli(c):
    return f"$ {c['cli']}\n{c['cli_out']}"


# PEM templates
PT = []


def _p(cat):
    def deco(f):
        PT.append((cat, f))
        return f

    return deco


def _indent(v, pad):
    return v.replace("\n", "\n" + pad)


@_p("note")
def _p1(c):
    return f"{c['label']} for {c['org']} ({c['host']}):\n{c['v']}"


@_p("note")
def _p2(c):
    return f"Hi {c['who']},\n\nhere's the {c['label']} you asked for:\n\n{c['v']}\n\nDelete this mail afterwards.\n{c['who2']}"


@_p("note")
def _p3(c):
    return f"[{c['time']}] {c['who']}: pasting the {c['label']} here for a sec\n{c['v']}\n[{c['time']}] {c['who2']}: got it"


@_p("note")
def _p4(c):
    return f"メモ: {c['org']} の {c['label']}\n{c['v']}"


@_p("note")
def _p5(c):
    return f"Clave ({c['label']}) para {c['org']}, no subir al repo:\n{c['v']}"


@_p("note")
def _p6(c):
    return f"[{c['ticket']}] rotate {c['label']} before {c['date']}. Current one:\n{c['v']}"


@_p("conf")
def _p7(c):
    return f"# group_vars/{c['env_name']}/secrets.yml\n{c['key']}: |\n  {_indent(c['v'], '  ')}\n"


@_p("conf")
def _p8(c):
    return f'resource "local_sensitive_file" "{c["key"]}" {{\n  filename = "/etc/{c["app"]}/key.pem"\n  content  = <<-EOT\n{c["v"]}\nEOT\n}}'


@_p("conf")
def _p9(c):
    esc = c["v"].replace("\n", "\\n")
    return (
        f'{{\n  "type": "service_account",\n  "project_id": "{c["app"]}-{c["n"]}",\n'
        f'  "private_key": "{esc}\\n",\n  "client_email": "{c["app"]}@{c["app"]}-{c["n"]}.iam.gserviceaccount.com"\n}}'
    )


@_p("out")
def _p10(c):
    return f"$ cat /etc/{c['app']}/{c['key']}.pem\n{c['v']}\n$ chmod 600 /etc/{c['app']}/{c['key']}.pem"


@_p("out")
def _p11(c):
    return f'$ echo "${c["env"]}"\n{c["v"]}\n$ ssh-add - <<< "${c["env"]}"\nIdentity added: (stdin)'


# ---------------------------------------------------------------------------------------------------
# positives
# ---------------------------------------------------------------------------------------------------
_BEGIN = "-----" + "BEGIN "
_END = "-----" + "END "


def _pem_secret(text: str) -> str:
    i = text.index(_BEGIN)
    j = text.index(_END, i)
    k = text.index("KEY-----", j) + len("KEY-----")
    return text[i:k]


_CLI_OUT = [
    "PONG",
    "OK",
    "(1 row)",
    "HTTP/2 200",
    "ok",
    "Logging into https://auth... as user admin of realm master",
    "Success: Updated user 1.",
    "# numResponses: 4",
    "250 2.0.0 Ok: queued",
]


def _cat_plan(r):
    cats = ["note"] * 15 + ["conf"] * 8 + ["out"] * 7
    r.shuffle(cats)
    return cats


def _positives(r: random.Random, seen: set) -> list:
    out = []
    for name, label, env, shape, maker, cli in KINDS:
        for cat in _cat_plan(r):
            for _attempt in range(200):
                c = _ctx(r)
                c.update(label=label, env=env, key=env.lower())
                if shape == "pem":
                    c["v"] = maker(r)
                    f = r.choice([f for k, f in PT if k == cat])
                    text = f(c)
                    secret = _pem_secret(text)
                else:
                    val = maker(r)
                    if isinstance(val, tuple):
                        c["v"], secret = val
                    else:
                        c["v"] = secret = val
                    if cli:
                        c["cli"] = cli.format(v=c["v"], host=c["host"], dom=c["dom"])
                        c["cli_out"] = r.choice(_CLI_OUT)
                    opts = [f for k, sh, f in T if k == cat and shape in sh and (cli or f is not _o_kindcli)]
                    text = r.choice(opts)(c)
                if text not in seen and secret in text:
                    break
            else:
                raise RuntimeError(f"could not build unique positive for {name}")
            seen.add(text)
            out.append((text, name, secret))
    return out


# ---------------------------------------------------------------------------------------------------
# look-alikes
# ---------------------------------------------------------------------------------------------------
def _h(r, n):
    return _s(r, n, HEX)


def _o(r):
    return r.choice(ORGS)


def _d(r):
    return r.choice(DOMAINS)


def _date(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _la_commit(r):
    return f"Deployed {r.choice(APPS)} to {r.choice(ENVS)} at commit {_h(r, 40)} ({_o(r)}). No errors in Sentry."


def _la_shortsha(r):
    return (
        f"* {_h(r, 7)} fix paywall meter reset\n* {_h(r, 7)} bump wp-cli to 2.11\n* {_h(r, 7)} moodle: upgrade to 4.4"
    )


def _la_sha256sum(r):
    return f"$ sha256sum moodle-4.4.{r.randint(1, 9)}.tgz\n{_h(r, 64)}  moodle-4.4.{r.randint(1, 9)}.tgz"


def _la_md5(r):
    return f'asset {_s(r, 8, LOW)}.jpg uploaded, etag="{_h(r, 32)}", bytes={r.randint(10000, 900000)}'


def _la_reqid(r):
    return f"{_date(r)} 502 from origin, X-Request-ID: {_uuid(r)} - retried OK"


def _la_fastly_sid(r):
    return f"Fastly service id for {_d(r)} is {_s(r, 22, AN)} (version {r.randint(10, 400)} active)."


def _la_akamai_ref(r):
    return f"Akamai error page: Reference #18.{_h(r, 8)}.{r.randint(1700000000, 1799999999)}.{_h(r, 8)}"


def _la_cloudinary_url(r):
    return f"hero image: https://res.cloudinary.com/harbor-media/image/upload/v{r.randint(1600000000, 1799999999)}/news/{_s(r, 20, LOW)}.webp"


def _la_mux_playback(r):
    return f"Mux playback id (public): {_s(r, 44, AN)} -> https://stream.mux.com/{{id}}.m3u8"


def _la_jw(r):
    return f'<script src="https://cdn.jwplayer.com/libraries/{_s(r, 8, AN)}.js"></script> media id {_s(r, 8, AN)}'


def _la_brightcove(r):
    return f"Brightcove account {r.randint(1000000000000, 9999999999999)} / player {_s(r, 9, AN)}_default, video id {r.randint(6000000000000, 6999999999999)}"


def _la_gam(r):
    return f"GAM ad unit: /{r.randint(1000000, 99999999)}/{_d(r).split('.')[0]}/home/top_leaderboard, line item {r.randint(5000000000, 6999999999)}"


def _la_prebid(r):
    return f"pbjs bidder appnexus placementId: {r.randint(10000000, 39999999)}, adId {_h(r, 14)}, requestId {_h(r, 15)}"


def _la_segment_anon(r):
    return f'{{"type":"track","event":"Article Viewed","anonymousId":"{_uuid(r)}","messageId":"ajs-next-{_h(r, 32)}"}}'


def _la_mixpanel_token(r):
    return f'mixpanel.init("{_h(r, 32)}", {{track_pageview: true}});' + r.choice(
        ["", " // project token", " // same token as staging"]
    )


def _la_amplitude_key(r):
    return f"amplitude.init('{_h(r, 32)}', {{ defaultTracking: true }});" + r.choice(
        ["", " // amplitude key for web", " -- prod project"]
    )


def _la_chartbeat(r):
    return f"_sf_async_config = {{ uid: {r.randint(10000, 99999)}, domain: '{_d(r)}', sections: 'politics' }};"


def _la_mailchimp_ids(r):
    return f"Mailchimp audience id {_h(r, 10)}, campaign {_h(r, 10)}, server prefix us{r.randint(1, 21)}"


def _la_braze_sdk(r):
    return f'braze.initialize("{_uuid(r)}", {{ baseUrl: "sdk.fra-0{r.randint(1, 2)}.braze.eu" }});' + r.choice(
        ["", " // braze api key (web)"]
    )


def _la_onesignal_app(r):
    return f'OneSignal.init({{ appId: "{_uuid(r)}", allowLocalhostAsSecureOrigin: true }});'


def _la_piano_aid(r):
    return f'tp.push(["setAid", "{_s(r, 10, AN)}"]); tp.push(["setSandbox", false]); // Piano application id'


def _la_stripe_pk(r):
    return f"STRIPE_PUBLISHABLE_KEY={'p' + 'k_' + 'live_'}{_s(r, 99, AN)}" + r.choice(
        ["", "\n# checkout page", "\nSTRIPE_ACCOUNT_COUNTRY=PT"]
    )


def _la_stripe_ids(r):
    return f"refund issued: charge ch_{_s(r, 24, AN)}, customer cus_{_s(r, 14, AN)}, event evt_{_s(r, 24, AN)}"


def _la_algolia_search(r):
    return f"const client = algoliasearch('{_s(r, 10, UP)}', '{_h(r, 32)}');" + r.choice(
        ["", " // search key", " // newsroom index"]
    )


def _la_elastic_cloud_id(r):
    raw = f"europe-west3.gcp.cloud.es.io${_h(r, 32)}${_h(r, 32)}".encode()
    return f"ELASTIC_CLOUD_ID=newsroom-search:{base64.b64encode(raw).decode()}"


def _la_tweet(r):
    return f"Embed this: https://x.com/{_s(r, 9, string.ascii_lowercase)}/status/{r.randint(10**18, 2 * 10**18)}"


def _la_fb_ids(r):
    return f"Facebook app id {r.randint(10**14, 10**15)}, pixel {r.randint(10**14, 10**15)}, page id {r.randint(10**14, 10**15)}"


def _la_youtube(r):
    return f"Channel UC{_s(r, 22, B64U)}, playlist PL{_s(r, 32, B64U)}, video https://youtu.be/{_s(r, 11, B64U)}"


def _la_google_client_id(r):
    return f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{_s(r, 32, LOW)}.apps.googleusercontent.com"


def _la_firebase(r):
    return (
        f'const firebaseConfig = {{ apiKey: "{"AI" + "za"}{_s(r, 35, B64U)}", authDomain: "lms-push.firebaseapp.com",'
        f' projectId: "lms-push", appId: "1:{r.randint(10**11, 10**12)}:web:{_h(r, 22)}" }};'
    )


def _la_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{_s(r, 38, B64U)}"></div>'


def _la_sentry_dsn(r):
    return (
        f"SENTRY_DSN=https://{_h(r, 32)}@o{r.randint(100000, 999999)}.ingest.de.sentry.io/{r.randint(1000000, 9999999)}"
    )


def _la_sanity_project(r):
    return f"sanity.config.ts -> projectId: '{_s(r, 8, LOW)}', dataset: 'production', apiVersion: '2025-02-19'"


def _la_contentful_space(r):
    return f"Contentful space {_s(r, 12, LOW)} / environment master / entry {_s(r, 22, AN)}"


def _la_ghost_content(r):
    return f"{r.choice(['Ghost Content API key', 'ghost_content_api_key:', 'contentApiKey:'])} {_h(r, 26)} (theme {r.choice(WORDS)})"


def _la_bsky(r):
    return (
        f"Bluesky post at://did:plc:{_s(r, 24, B32L)}/app.bsky.feed.post/{_s(r, 13, B32L)} cid bafyrei{_s(r, 52, B32L)}"
    )


def _la_mastodon(r):
    return f"Boosted https://mastodon.social/@{_s(r, 8, string.ascii_lowercase)}/{r.randint(10**17, 2 * 10**17)}"


def _la_moodle_placeholder(r):
    return f"curl '{_d(r)}/webservice/rest/server.php?wstoken=<your-token>&wsfunction=core_course_get_courses&moodlewsrestformat=json'"


def _la_lti_client(r):
    return f"Canvas LTI 1.3 client_id {10000000000000 + r.randint(1, 99999)}, deployment_id {r.randint(1, 999)}:{_h(r, 40)}"


def _la_zoom_ids(r):
    return (
        f"Zoom meeting {r.randint(80000000000, 99999999999)}, account_id {_s(r, 22, B64U)}, client id {_s(r, 22, AN)}"
    )


def _la_kaltura(r):
    return f"Kaltura partner {r.randint(1000000, 4999999)}, entry 1_{_s(r, 8, LOW)}, uiconf {r.randint(40000000, 59999999)}"


def _la_vimeo(r):
    return f"Course intro video https://vimeo.com/{r.randint(100000000, 999999999)} (lesson {r.randint(1, 40)})"


def _la_canvas_ids(r):
    return f"https://{_d(r)}/courses/{r.randint(1000, 9999)}/assignments/{r.randint(10000, 99999)}?module_item_id={r.randint(10000, 99999)}"


def _la_keycloak_pub(r):
    return f"Keycloak realm 'learners' public_key: MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{_s(r, 300, B64)}IDAQAB"


def _la_cert(r):
    lines = "\n".join(_s(r, 64, B64) for _ in range(r.randint(6, 12)))
    return f"# {_d(r)} fullchain.pem (public)\n-----BEGIN CERTIFICATE-----\nMIIF{_s(r, 60, B64)}\n{lines}\n-----END CERTIFICATE-----"


def _la_ssh_pub(r):
    return f"authorized_keys: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_s(r, 43, B64)} {r.choice(PEOPLE).lower()}@laptop"


def _la_ssh_fp(r):
    return f"$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{_s(r, 43, B64)} deploy@{_d(r)} (ED25519)"


def _la_gpg_fp(r):
    fp = " ".join(_s(r, 4, UHEX) for _ in range(10))
    return f"Release signing key fingerprint: {fp}"


def _la_tls_fp(r):
    return "SHA256 Fingerprint=" + ":".join(_s(r, 2, UHEX) for _ in range(32))


def _la_bcrypt(r):
    return f"wp_users row: user_login=editor, user_pass=$wp$2y$10${_s(r, 53, AN + './')}"


def _la_phpass(r):
    return f"UPDATE wp_users SET user_pass='$P$B{_s(r, 30, AN + './')}' WHERE ID={r.randint(2, 900)}; -- copied hash from staging"


def _la_argon(r):
    return f"keycloak credential: $argon2id$v=19$m=7168,t=5,p=1${_s(r, 22, B64)}${_s(r, 43, B64)}"


def _la_drupal_hash(r):
    return f"users_field_data.pass = $S$E{_s(r, 52, AN + './')}"


def _la_ansible_vault(r):
    lines = "\n".join(_h(r, 80) for _ in range(r.randint(3, 6)))
    return (
        f"vault_ldap_bind_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  {lines.replace(chr(10), chr(10) + '  ')}"
    )


def _la_sops(r):
    return f"smtp_password: ENC[AES256_GCM,data:{_s(r, 24, B64)}=,iv:{_s(r, 43, B64)}=,tag:{_s(r, 22, B64)}==,type:str]"


def _la_sealed(r):
    return f"spec:\n  encryptedData:\n    DB_PASSWORD: AgB{_s(r, 300, B64)}=="


def _la_wp_placeholder(r):
    k = r.choice(
        [
            "AUTH_KEY",
            "SECURE_AUTH_KEY",
            "LOGGED_IN_KEY",
            "NONCE_KEY",
            "AUTH_SALT",
            "NONCE_SALT",
        ]
    )
    return f"define( '{k}', 'put your unique phrase here' ); // {_d(r)} fresh install line {r.randint(40, 70)}"


def _la_env_example(r):
    return (
        f"# .env.example ({_o(r)})\nSTRIPE_SECRET_KEY={'s' + 'k_' + 'live_'}xxxxxxxxxxxxxxxxxxxxxxxx\n"
        f"MAILCHIMP_API_KEY=<your-key>-us{r.randint(1, 21)}\nDB_PASSWORD=changeme"
    )


def _la_gh_secrets(r):
    n = r.choice(
        [
            "HCLOUD_TOKEN",
            "SENDGRID_API_KEY",
            "FASTLY_API_TOKEN",
            "DO_TOKEN",
            "MOODLE_WS_TOKEN",
        ]
    )
    return f"      - run: ./deploy.sh\n        env:\n          {n}: ${{{{ secrets.{n} }}}}  # {_date(r)}"


def _la_ansible_ref(r):
    v = r.choice(["mysql_password", "ldap_bind_password", "smtp_password", "bbb_secret"])
    return f'{v}: "{{{{ vault_{v} }}}}"\nmoodle_host: lms{r.randint(1, 9)}.{_d(r)}'


def _la_hashi_lookup(r):
    return f"db_pass: \"{{{{ lookup('community.hashi_vault.hashi_vault', 'secret=kv/data/{r.choice(APPS)}/{r.choice(ENVS)}:password') }}}}\""


def _la_vault_kv_meta(r):
    return (
        f"$ vault kv metadata get kv/{r.choice(APPS)}\n====== Metadata ======\ncreated_time  {_date(r)}T10:12:01Z\n"
        f"current_version {r.randint(1, 30)}\nmax_versions 0"
    )


def _la_helm_existing(r):
    return f"postgresql:\n  auth:\n    existingSecret: {r.choice(APPS)}-db\n    secretKeys:\n      userPasswordKey: password\n  primary:\n    resources: {{}}  # rev {r.randint(1, 99)}"


def _la_tf_var(r):
    n = r.choice(
        [
            "hcloud_token",
            "do_token",
            "linode_token",
            "ovh_application_secret",
            "scw_secret_key",
        ]
    )
    return f'variable "{n}" {{\n  type      = string\n  sensitive = true\n}}\n# set via TF_VAR_{n} in CI ({r.randint(1, 999)})'


def _la_k8s_ref(r):
    return f"env:\n  - name: SMTP_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {r.choice(APPS)}-mail-{r.randint(1, 99)}\n        key: password"


def _la_masked_ci(r):
    return f'$ curl -H "PRIVATE-TOKEN: [MASKED]" https://gitlab.{_d(r)}/api/v4/projects/{r.randint(10, 999)}/pipelines\nJob #{r.randint(10**6, 10**7)} succeeded'


def _la_stars(r):
    return f"SMTP host smtp.{_d(r)}:587, user lms-mailer, password ********** (in 1Password, vault '{_o(r)}')"


def _la_woodpecker_from(r):
    return f"steps:\n  deploy:\n    image: alpine:3.{r.randint(15, 20)}\n    commands: [./deploy.sh {r.choice(ENVS)}]\n    environment:\n      HCLOUD_TOKEN:\n        from_secret: hcloud_token"


def _la_os_environ(r):
    n = r.choice(
        [
            "SENDGRID_API_KEY",
            "POSTMARK_SERVER_TOKEN",
            "ZOOM_CLIENT_SECRET",
            "VIMEO_ACCESS_TOKEN",
        ]
    )
    return f'api_key = os.environ["{n}"]  # never hardcode; set in /etc/{r.choice(APPS)}/env line {r.randint(1, 99)}'


def _la_getenv_php(r):
    return f"$token = getenv('MOODLE_WS_TOKEN') ?: throw new RuntimeException('missing token'); // {_o(r)} #{r.randint(1, 999)}"


def _la_docker_digest(r):
    return f"image: ghcr.io/{r.choice(APPS)}/web@sha256:{_h(r, 64)}"


def _la_npm_integrity(r):
    return f'"integrity": "sha512-{_s(r, 86, B64)}==", "resolved": "https://registry.npmjs.org/prebid.js/-/prebid.js-9.{r.randint(1, 40)}.0.tgz"'


def _la_composer(r):
    return f'"dist": {{ "type": "zip", "url": "https://api.github.com/repos/wp-cli/wp-cli/zipball/{_h(r, 40)}", "shasum": "" }}'


def _la_datauri(r):
    return f'<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{_b64(r, r.randint(60, 120))}">'


def _la_svg_b64(r):
    return f"background-image: url(data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmci{_b64(r, 80)});"


def _la_hf_model(r):
    m = r.choice(
        [
            "facebook/bart-large-cnn",
            "google/pegasus-xsum",
            "sentence-transformers/all-MiniLM-L6-v2",
            "Helsinki-NLP/opus-mt-es-en",
            "BAAI/bge-m3",
            "intfloat/multilingual-e5-base",
        ]
    )
    return f"Headline summarizer uses {m} (revision {_h(r, 40)})"


def _la_wandb_run(r):
    return f"recommender experiment run {_s(r, 8, LOW)} in project news-recs, best ndcg@10 0.{r.randint(100, 999)}"


def _la_notebook(r):
    return f'{{"cell_type": "code", "execution_count": {r.randint(1, 300)}, "id": "{_h(r, 8)}", "metadata": {{}}, "outputs": []}}'


def _la_webpack(r):
    return f"dist/assets/app.{_h(r, 8)}.js  {r.randint(100, 900)}.3 kB │ gzip: {r.randint(30, 200)}.1 kB"


def _la_etag(r):
    return f'< HTTP/2 200\n< etag: W/"{_h(r, 32)}"\n< x-cache: HIT, MISS\n< x-served-by: cache-fra-{_s(r, 4, UP)}{r.randint(1000, 9999)}-FRA'


def _la_surrogate(r):
    return f"surrogate-key: article-{r.randint(100000, 999999)} section-politics {_h(r, 16)} tag-{r.choice(WORDS)}"


def _la_b2_keyid(r):
    return f"B2 keyID {'00' + r.choice('45')}{_h(r, 21)} (restricted to bucket lms-backups; secret lives in pass)"


def _la_hetzner_ids(r):
    return f"$ hcloud server list\nID        NAME        STATUS   IPV4\n{r.randint(10**7, 10**8)}  lms-web-{r.randint(1, 9)}   running  {r.randint(5, 200)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"


def _la_mailgun_msgid(r):
    return f"Mailgun accepted: id <{_date(r).replace('-', '')}{r.randint(100000, 999999)}.{_h(r, 16)}@mg.{_d(r)}>, message Queued. Thank you."


def _la_sendgrid_msgid(r):
    return f"X-Message-Id: {_s(r, 22, B64U)} (SendGrid accepted, status 202)"


def _la_postmark_resp(r):
    return f'{{"To":"student@{_d(r)}","SubmittedAt":"{_date(r)}T10:00:00Z","MessageID":"{_uuid(r)}","ErrorCode":0,"Message":"OK"}}'


def _la_gitlab_ci_vars(r):
    return f"CI_PIPELINE_ID={r.randint(10**6, 10**7)}\nCI_JOB_ID={r.randint(10**7, 10**8)}\nCI_COMMIT_SHA={_h(r, 40)}\nCI_RUNNER_ID={r.randint(1, 999)}"


def _la_arc_ans(r):
    return f"Arc XP story _id {_s(r, 26, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')} published to /politics/{_date(r)}/"


def _la_drupal_config_dir(r):
    return f"$settings['config_sync_directory'] = 'sites/default/files/config_{_s(r, 55, B64U)}/sync';"


def _la_traceparent(r):
    return f"traceparent: 00-{_h(r, 32)}-{_h(r, 16)}-01"


def _la_tf_state(r):
    return f'{{\n  "version": 4,\n  "terraform_version": "1.9.{r.randint(0, 8)}",\n  "serial": {r.randint(1, 500)},\n  "lineage": "{_uuid(r)}"\n}}'


def _la_machine_id(r):
    return f"$ cat /etc/machine-id\n{_h(r, 32)}"


def _la_docker_ps(r):
    return f"$ docker ps --no-trunc -q --filter name={r.choice(APPS)}\n{_h(r, 64)}"


def _la_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_h(r, 64)}\nsize {r.randint(10**5, 10**9)}"


def _la_hashed_email(r):
    return f"PPID for GAM = sha256(lowercase(email)) e.g. {_h(r, 64)} - hashed, no PII sent"


def _la_tcf(r):
    return f"euconsent-v2=CQ{_s(r, 80, B64U)}.YAAAAAAAAAAA"


def _la_apple_key_id(r):
    return f"App Store Connect API: Key ID {_s(r, 10, UP)}, Issuer ID {_uuid(r)} (the .p8 itself is in 1Password)"


def _la_iap_txn(r):
    return f"Apple originalTransactionId {r.randint(10**14, 10**15)}, productId com.{r.choice(['dailyharbor', 'learnloop'])}.premium.monthly"


def _la_sri(r):
    return f'<script src="https://cdn.jsdelivr.net/npm/hls.js@1.5.{r.randint(1, 20)}" integrity="sha384-{_s(r, 64, B64)}" crossorigin="anonymous"></script>'


def _la_pgp_pub(r):
    body = "\n".join(_s(r, 64, B64) for _ in range(r.randint(4, 8)))
    return f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBG{_s(r, 58, B64)}\n{body}\n=={_s(r, 3, B64)}\n-----END PGP PUBLIC KEY BLOCK-----"


def _la_jwks(r):
    return f'{{"keys":[{{"kty":"RSA","kid":"{_s(r, 43, B64U)}","use":"sig","alg":"RS256","n":"{_s(r, 342, B64U)}","e":"AQAB"}}]}}'


def _la_pg_placeholder(r):
    return f"DATABASE_URL=postgres://moodle:<password>@db{r.randint(1, 9)}.internal:5432/{r.choice(['moodle', 'lms', 'cms', 'ghost'])}  # fill from vault"


def _la_redis_nopass(r):
    return f"REDIS_URL=redis://127.0.0.1:6379/{r.randint(0, 15)}  # local socket, no auth on {_o(r)} dev box"


def _la_basic_env(r):
    return (
        f'curl -u "$STAGING_USER:$STAGING_PASS" https://staging.{_d(r)}/wp-json/wp/v2/posts?per_page={r.randint(1, 99)}'
    )


def _la_pw_policy(r):
    return (
        f"Password policy for {_o(r)} Moodle: min {r.randint(10, 16)} chars, 1 digit, 1 symbol. "
        "Never reuse 'changeme' or 'Password123' - the checker rejects them."
    )


def _la_vendor_doc(r):
    return (
        "From the Mailgun docs example: api:"
        + "key-"
        + "3ax6xnjp29jd6fds4gc373sgvjxteol0"
        + f" - this is the sample value, do not copy. (read {_date(r)})"
    )


def _la_stripe_doc(r):
    return (
        "Stripe docs use "
        + "sk"
        + "_test_"
        + "4eC39HqLyjWDarjtT1zdp7dc"
        + f" as the example key; our tests mock it. noted {_date(r)} by {r.choice(PEOPLE)}"
    )


def _la_bunny_ids(r):
    return f"Bunny pull zone {r.randint(100000, 4999999)} (lms-video.b-cdn.net), storage zone courses-{r.randint(1, 99)}, video library {r.randint(100000, 400000)}"


def _la_ghost_member(r):
    return f"Ghost member uuid {_uuid(r)} unsubscribed from newsletter '{r.choice(WORDS)}-weekly'"


def _la_acme(r):
    return f"ACME order https://acme-v02.api.letsencrypt.org/acme/order/{r.randint(10**8, 10**9)}/{r.randint(10**10, 10**11)} finalized"


def _la_helm_lock(r):
    return f"dependencies:\n- name: redis\n  repository: oci://registry-1.docker.io/bitnamicharts\n  version: 20.{r.randint(0, 9)}.{r.randint(0, 9)}\ndigest: sha256:{_h(r, 64)}"


def _la_ovh_endpoint(r):
    return f"OVH API endpoint ovh-eu, dedicated server ns{r.randint(1000000, 9999999)}.ip-{r.randint(1, 254)}-{r.randint(1, 254)}-{r.randint(1, 254)}.eu"


def _la_linode_ids(r):
    return f"linode-cli linodes list -> {r.randint(10**7, 10**8)} lms-db-{r.randint(1, 9)} g6-standard-4 eu-central running"


def _la_do_droplet(r):
    return f"doctl compute droplet get {r.randint(10**8, 10**9)} --format ID,Name,PublicIPv4 ({_o(r)} moodle)"


def _la_scorm_app(r):
    return f"SCORM Cloud appId {_s(r, 10, UP)} (the app id is only the username; secret key in pass/scorm-cloud) course {_s(r, 8, LOW)}"


def _la_bbb_meeting(r):
    return f"BBB meetingID=course-{r.randint(100, 999)}-{_h(r, 12)}&fullName={r.choice(PEOPLE)} (recording id {_h(r, 40)}-{r.randint(10**12, 2 * 10**12)})"


def _la_h5p(r):
    return f"H5P content id {r.randint(1, 9999)} uses H5P.InteractiveVideo 1.{r.randint(20, 27)}, folder h5p/content/{r.randint(1, 9999)}/images/image-{_h(r, 8)}.png"


def _la_wpnonce_docs(r):
    return f"wp_localize_script('app', 'wpApiSettings', {{ root: '/wp-json/', nonce: wpApiSettings.nonce }}); // rev {_h(r, 7)}"


def _la_caddy_hash(r):
    return f"basic_auth /admin/* {{\n    editor $2a$14${_s(r, 53, AN + './')}\n}}"


def _la_htpasswd(r):
    return f"$ cat /etc/nginx/.htpasswd\nstaging:$apr1${_s(r, 8, AN)}${_s(r, 22, AN + './')}"


def _la_gitlab_ref_var(r):
    return f'deploy:\n  script:\n    - ansible-playbook -i hosts site.yml --vault-password-file "$VAULT_PASS_FILE" --limit lms{r.randint(1, 40)}\n  only: [{r.choice(["main", "tags", "production"])}]'


def _la_env_names(r):
    return f"Required env vars for {r.choice(APPS)}: ZOOM_ACCOUNT_ID, ZOOM_CLIENT_ID, ZOOM_CLIENT_SECRET, KALTURA_ADMIN_SECRET (see runbook p.{r.randint(1, 40)})"


def _la_openapi_example(r):
    return f"Authorization: Bearer <YOUR_API_TOKEN>\n# example from {r.choice(['Hetzner', 'Linode', 'Bunny', 'Vimeo'])} API reference, section {r.randint(1, 20)}"


def _la_sri_font(r):
    return f"fonts/inter-var.{_h(r, 20)}.woff2 preloaded, cache-control max-age={r.randint(3600, 31536000)}"


def _la_crc(r):
    return f"backup-{_date(r)}.tar.zst crc32c={_s(r, 8, HEX)} md5={_h(r, 32)} uploaded to b2://lms-backups/"


def _la_uuid_bare(r):
    return f"Postmark message stream id {r.choice(['outbound', 'broadcast'])}, server id {r.randint(10**6, 10**7)}, template {_uuid(r)}"


def _la_cron_noenv(r):
    return f"{r.randint(0, 59)} {r.randint(0, 23)} * * * flock -n /tmp/moodle-cron.lock /usr/bin/php /var/www/moodle/admin/cli/cron.php >/dev/null"


def _la_jwt_header(r):
    return f'JWT header looks like {{"alg":"RS256","kid":"{_h(r, 40)}"}} - kid is the key id, not the key'


_LOOK = [v for k, v in sorted(globals().items()) if k.startswith("_la_")]


def _lookalikes(r: random.Random, seen: set) -> list:
    out = []
    for g in _LOOK:
        got = 0
        for _ in range(500):
            t = g(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            got += 1
            if got == LOOK_PER_GEN:
                break
        else:
            raise RuntimeError(f"look-alike generator {g.__name__} cannot make {LOOK_PER_GEN} distinct texts")
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set = set()
    pos = _positives(r, seen)
    look = _lookalikes(r, seen)
    return pos, look
