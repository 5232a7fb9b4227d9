"""Labelled test set AL for a credential detector in agent "memories".

Theme
-----
Memories an AI coding agent keeps for the IT volunteer of a sports club and
fitness-studio chain and the city marathon it organises every year: studio
software (Mindbody, Glofox, Zen Planner, ClubReady), payments (Stripe,
GoCardless, SumUp), Strava / Garmin / Polar / Wahoo partner APIs, Zwift clubs,
Google Workspace, Slack, Twilio, door access control, CCTV, in-studio music,
YouTube / Twitch streaming with OBS, Eventbrite, the WordPress site, and for
the marathon: RFID timing, MyLaps / RaceResult, RunSignup, live tracking, SMS
alerts, results FTP uploads, sponsor portals, sports data APIs, volunteer
rota tools, the finish-line Raspberry Pi, LTE routers and race-office Wi-Fi.
Styles: notes, lessons, runbooks, TODOs, race-day logs, tickets, e-mails and
chat (mostly English, some French, European Portuguese, Finnish, Hungarian,
Indonesian and Swahili), config files, and tool output.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is the single
  sensitive value, an exact substring of ``text``.  Every kind has exactly 30
  positives.
* ``lookalikes``: texts containing no credential at all; each generator in
  ``_LOOK`` contributes ``LOOK_PER_GEN`` distinct texts.
* Deterministic per seed (``random.Random`` seeded from ``seed`` only); no
  duplicate texts across the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and
  basic-auth URLs: the password only.  Pre-signed URLs: the signature.
  PEM / OpenSSH private keys: the whole armoured block, BEGIN to END line.
* UUID-shaped vendor values are secrets only when named token/key/secret.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry
  DSNs, OAuth client ids, Firebase web apiKeys, search-only keys, public
  certificates), vendor documentation examples, encrypted blobs and password
  hashes are look-alikes.  Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes are assembled from
  pieces at run time and bodies are random from the seed.
"""

# ruff: noqa: UP031  (%-formatting keeps JSON braces readable)
from __future__ import annotations

import base64
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

_LO = string.ascii_lowercase
_UP = string.ascii_uppercase
_DI = string.digits
_AN = _LO + _UP + _DI
_HEX = "0123456789abcdef"
_B64 = _AN + "+/"
_URLS = _AN + "-_"


def _r(rng, alphabet, n):
    return "".join(rng.choice(alphabet) for _ in range(n))


def _hex(rng, n):
    return _r(rng, _HEX, n)


def _uuid(rng):
    h = _hex(rng, 32)
    h = h[:12] + "4" + h[13:16] + rng.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _b64blob(rng, nbytes):
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(nbytes))).decode()


# ---------------------------------------------------------------- context
STUDIOS = [
    "Harbour studio",
    "Northside gym",
    "Kallio studio",
    "Riverside club",
    "Old Town box",
    "Westpark studio",
    "Lakeside gym",
    "Station Road studio",
    "Pool hall studio",
    "Hilltop club",
]
PEOPLE = [
    "Mia",
    "Jonas",
    "Aino",
    "Tiago",
    "Réka",
    "Budi",
    "Amani",
    "Chloé",
    "Sam",
    "Priya",
    "Lars",
    "Zsófi",
]
RACES = [
    "City Marathon",
    "Harbour Half",
    "Night 10K",
    "Kids Mile",
    "Marathon relay",
    "Spring Marathon",
]
HOSTS = [
    "race-pi",
    "finish-pi",
    "office-nuc",
    "studio-srv",
    "timing-lap",
    "kiosk-01",
    "nas01",
    "wp-host",
]
MONTHS = [
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
]
WORDS = [
    "tulip",
    "rover",
    "harbour",
    "sprint",
    "marble",
    "falcon",
    "pepper",
    "otter",
    "cobalt",
    "willow",
    "lantern",
    "meadow",
    "rocket",
    "cactus",
    "summit",
    "pebble",
    "banjo",
    "comet",
    "maple",
    "tiger",
    "nordic",
    "velvet",
    "island",
    "quartz",
    "ember",
    "orbit",
    "canyon",
    "puffin",
    "saffron",
    "glacier",
]
SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Marathon",
    "Finish",
    "Studio",
    "Runner",
    "Kettlebell",
]


def _date(rng):
    return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _time(rng):
    return f"{rng.randint(5, 21):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def _ip(rng):
    return f"{rng.choice(['10.0', '192.168', '172.16'])}.{rng.randint(0, 60)}.{rng.randint(2, 250)}"


# ---------------------------------------------------------------- values
def _pw_human(rng):
    p = rng.random()
    w = rng.choice(WORDS)
    if p < 0.3:
        return f"{rng.choice(SEASONS)}{rng.randint(2019, 2027)}{rng.choice('!?*#.')}"
    if p < 0.55:
        return f"{w}-{rng.choice(WORDS).capitalize()}-{rng.randint(10, 99)}"
    if p < 0.75:
        return "-".join(rng.choice(WORDS) for _ in range(4))
    if p < 0.9:
        return w.capitalize() + rng.choice(["_", ".", "!"]) + str(rng.randint(100, 9999)) + rng.choice(WORDS)
    return _r(rng, _AN, rng.randint(14, 20)) + rng.choice("!*_-")


def _pw_url(rng):
    p = _pw_human(rng)
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in p)


def _pw(rng):
    p = _pw_human(rng)
    return p.replace("#", "!")


def _jwt(rng, payload):
    def enc(s):
        return base64.urlsafe_b64encode(s.encode()).decode().rstrip("=")

    return enc('{"alg":"HS256","typ":"JWT"}') + "." + enc(payload) + "." + _r(rng, _URLS, 43)


def _pem(rng, label, nlines, head=""):
    body = (
        [head + _r(rng, _B64, 64 - len(head))]
        + [_r(rng, _B64, 64) for _ in range(nlines - 1)]
        + [_r(rng, _B64, rng.randint(8, 60)) + "=="]
    )
    dash = "-" * 5
    return f"{dash}BEGIN {label}{dash}\n" + "\n".join(body) + f"\n{dash}END {label}{dash}"


def _openssh(rng):
    dash = "-" * 5
    lab = "OPENSSH PRIVATE" + " KEY"
    first = "b3Blbn" + "NzaC1rZXktdjEAAAAA" + _r(rng, _B64, 46)
    body = [first] + [_r(rng, _B64, 70) for _ in range(rng.randint(3, 5))] + [_r(rng, _B64, 24) + "=="]
    return f"{dash}BEGIN {lab}{dash}\n" + "\n".join(body) + f"\n{dash}END {lab}{dash}"


def _same(f):
    def g(rng):
        v = f(rng)
        return v, v

    return g


def _pfx(prefix_parts, alphabet, n):
    def f(rng):
        return "".join(prefix_parts) + _r(rng, alphabet, n if isinstance(n, int) else rng.choice(n))

    return _same(f)


def _slack_hook(rng):
    tok = _r(rng, _AN, 24)
    return (
        f"https://hooks.slack.com/services/T{_r(rng, _UP + _DI, 10)}/B{_r(rng, _UP + _DI, 10)}/{tok}",
        tok,
    )


def _discord_hook(rng):
    tok = _r(rng, _URLS, 68)
    return f"https://discord.com/api/webhooks/{rng.randint(10**17, 10**18)}/{tok}", tok


def _teams_like_hook(rng):
    tok = _r(rng, _AN, 32)
    return f"https://hook.eu1.make.com/{tok}", tok


def _zapier_hook(rng):
    tok = _r(rng, _LO + _DI, 7)
    return (
        f"https://hooks.zapier.com/hooks/catch/{rng.randint(1000000, 9999999)}/{tok}/",
        tok,
    )


def _conn(scheme, users, hosts, port, dbs):
    def f(rng):
        pw = _pw_url(rng)
        return (
            f"{scheme}://{rng.choice(users)}:{pw}@{rng.choice(hosts)}:{port}/{rng.choice(dbs)}",
            pw,
        )

    return f


def _rtsp(rng):
    pw = _pw_url(rng)
    return (
        f"rtsp://{rng.choice(['admin', 'viewer', 'nvr'])}:{pw}@{_ip(rng)}:554/Streaming/Channels/{rng.choice([101, 102, 201, 301])}",
        pw,
    )


def _ftp_url(rng):
    pw = _pw_url(rng)
    host = rng.choice(["ftp.results-host.net", "files.citymarathon.org", "ftp.timing-partner.eu"])
    return (
        f"ftp://{rng.choice(['results', 'upload', 'timing'])}:{pw}@{host}/public_html/results/",
        pw,
    )


def _basic_url(rng):
    pw = _pw_url(rng)
    host = rng.choice(["tracking.citymarathon.org", "api.livetrack.run", "sponsors.citymarathon.org"])
    return f"https://{rng.choice(['racedir', 'ops', 'feed'])}:{pw}@{host}/v1/feed", pw


def _gcs_signed(rng):
    sig = _hex(rng, 512)
    url = (
        "https://storage.googleapis.com/marathon-photos/finish/"
        f"{rng.randint(1, 9999):05d}.jpg?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        f"&X-Goog-Credential=uploader%40club-prod.iam.gserviceaccount.com%2F2026{rng.randint(1, 12):02d}01"
        "%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261006T071500Z&X-Goog-Expires=604800"
        f"&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return url, sig


def _yt_key(rng):
    v = "-".join(_r(rng, _LO + _DI, 4) for _ in range(5))
    return v, v


def _wp_app_pw(rng):
    v = " ".join(_r(rng, _AN, 4) for _ in range(6))
    return v, v


def _twitch_key(rng):
    v = "live_" + str(rng.randint(10**8, 10**9)) + "_" + _r(rng, _AN, 30)
    return v, v


def _slack_bot(rng):
    v = (
        "xo"
        + "xb-"
        + str(rng.randint(10**10, 10**12))
        + "-"
        + str(rng.randint(10**11, 10**13))
        + "-"
        + _r(rng, _AN, 24)
    )
    return v, v


def _slack_user(rng):
    v = (
        "xo"
        + "xp-"
        + str(rng.randint(10**10, 10**12))
        + "-"
        + str(rng.randint(10**10, 10**12))
        + "-"
        + str(rng.randint(10**11, 10**13))
        + "-"
        + _hex(rng, 32)
    )
    return v, v


def _slack_app(rng):
    v = "xa" + "pp-1-A" + _r(rng, _UP + _DI, 10) + "-" + str(rng.randint(10**12, 10**13)) + "-" + _hex(rng, 64)
    return v, v


def _gh_fine(rng):
    v = "github" + "_pat_" + _r(rng, _UP + _DI, 22) + "_" + _r(rng, _AN, 59)
    return v, v


def _sendgrid(rng):
    v = "S" + "G." + _r(rng, _URLS, 22) + "." + _r(rng, _URLS, 43)
    return v, v


def _mailchimp(rng):
    v = _hex(rng, 32) + "-us" + str(rng.randint(1, 21))
    return v, v


def _telegram(rng):
    v = str(rng.randint(10**8, 10**10)) + ":AA" + _r(rng, _URLS, 33)
    return v, v


def _uuid_tok(rng):
    v = _uuid(rng)
    return v, v


def _jwt_tok(rng):
    v = _jwt(
        rng,
        '{"sub":"tracker-%d","scope":"positions:write","iat":17%08d}' % (rng.randint(1, 99), rng.randint(0, 10**8)),
    )
    return v, v


def _pem_rsa(rng):
    v = _pem(rng, "RSA PRIVATE" + " KEY", rng.randint(14, 24), "MIIE" + "pAIBAAKCAQEA")
    return v, v


def _pem_ec(rng):
    v = _pem(rng, "EC PRIVATE" + " KEY", 2, "MHcC" + "AQEEI")
    return v, v


def _pem_pk8(rng):
    v = _pem(
        rng,
        "PRIVATE" + " KEY",
        rng.randint(14, 24),
        "MIIE" + "vQIBADANBgkqhkiG9w0BAQEFAASC",
    )
    return v, v


def _ssh(rng):
    v = _openssh(rng)
    return v, v


def _pwv(rng):
    v = _pw(rng)
    return v, v


def _pin(rng):
    v = str(rng.randint(100000, 99999999))
    return v, v


def _wp_salt(rng):
    v = _r(rng, _AN + "!@%^&*()-_[]{}<>~+=,.;:/?|", 64)
    return v, v


def _django(rng):
    v = (
        "django-insecure-" + _r(rng, _LO + _DI + "!@%^&*(-_=+)", 50)
        if rng.random() < 0.3
        else _r(rng, _LO + _DI + "!@%^&*(-_=+)", 50)
    )
    return v, v


def _aws_secret(rng):
    v = _r(rng, _AN + "+/", 40)
    return v, v


# (kind, service label, env var, style, generator)
# styles: tok = opaque key usable in a header; pw = password; hook = webhook URL;
#         conn = connection string / credential URL; pem = armoured private key
KINDS = [
    (
        "stripe_secret_key",
        "Stripe live secret key",
        "STRIPE_SECRET_KEY",
        "tok",
        _pfx(["sk_", "live_"], _AN, [24, 99]),
    ),
    (
        "stripe_restricted_key",
        "Stripe restricted key (POS terminals)",
        "STRIPE_RESTRICTED_KEY",
        "tok",
        _pfx(["rk_", "live_"], _AN, [24, 99]),
    ),
    (
        "stripe_webhook_secret",
        "Stripe webhook signing secret",
        "STRIPE_WEBHOOK_SECRET",
        "tok",
        _pfx(["whs", "ec_"], _AN, 32),
    ),
    (
        "gocardless_access_token",
        "GoCardless live access token",
        "GOCARDLESS_ACCESS_TOKEN",
        "tok",
        _pfx(["li", "ve_"], _URLS, 40),
    ),
    (
        "sumup_api_key",
        "SumUp secret API key",
        "SUMUP_API_KEY",
        "tok",
        _pfx(["sup_", "sk_"], _AN, 32),
    ),
    (
        "mindbody_api_key",
        "Mindbody Api-Key",
        "MINDBODY_API_KEY",
        "tok",
        _same(lambda r: _hex(r, 32)),
    ),
    (
        "glofox_api_token",
        "Glofox API token",
        "GLOFOX_API_TOKEN",
        "tok",
        _same(lambda r: _r(r, _AN, 40)),
    ),
    (
        "zenplanner_password",
        "Zen Planner admin password",
        "ZENPLANNER_PASSWORD",
        "pw",
        _pwv,
    ),
    ("clubready_api_key", "ClubReady API key", "CLUBREADY_API_KEY", "tok", _uuid_tok),
    (
        "strava_client_secret",
        "Strava API client secret",
        "STRAVA_CLIENT_SECRET",
        "tok",
        _same(lambda r: _hex(r, 40)),
    ),
    (
        "strava_refresh_token",
        "Strava refresh token (club account)",
        "STRAVA_REFRESH_TOKEN",
        "tok",
        _same(lambda r: _hex(r, 40)),
    ),
    (
        "garmin_consumer_secret",
        "Garmin Connect Developer consumer secret",
        "GARMIN_CONSUMER_SECRET",
        "tok",
        _same(lambda r: _r(r, _AN, 30)),
    ),
    (
        "polar_client_secret",
        "Polar AccessLink client secret",
        "POLAR_CLIENT_SECRET",
        "tok",
        _uuid_tok,
    ),
    (
        "wahoo_client_secret",
        "Wahoo Cloud API client secret",
        "WAHOO_CLIENT_SECRET",
        "tok",
        _same(lambda r: _r(r, _URLS, 43)),
    ),
    (
        "zwift_account_password",
        "Zwift club-admin account password",
        "ZWIFT_PASSWORD",
        "pw",
        _pwv,
    ),
    (
        "google_api_key",
        "YouTube Data API server key",
        "YOUTUBE_API_KEY",
        "tok",
        _pfx(["AI", "za"], _URLS, 35),
    ),
    (
        "google_oauth_client_secret",
        "Google Workspace OAuth client secret",
        "GOOGLE_CLIENT_SECRET",
        "tok",
        _pfx(["GOC", "SPX-"], _URLS, 28),
    ),
    (
        "google_workspace_password",
        "Google Workspace admin password",
        "GWS_ADMIN_PASSWORD",
        "pw",
        _pwv,
    ),
    ("slack_bot_token", "Slack bot token", "SLACK_BOT_TOKEN", "tok", _slack_bot),
    ("slack_user_token", "Slack user token", "SLACK_USER_TOKEN", "tok", _slack_user),
    ("slack_app_token", "Slack app-level token", "SLACK_APP_TOKEN", "tok", _slack_app),
    (
        "slack_webhook_url",
        "Slack incoming webhook",
        "SLACK_WEBHOOK_URL",
        "hook",
        _slack_hook,
    ),
    (
        "discord_webhook_url",
        "Discord webhook (runners' server)",
        "DISCORD_WEBHOOK_URL",
        "hook",
        _discord_hook,
    ),
    (
        "make_webhook_url",
        "Make.com scenario webhook",
        "MAKE_WEBHOOK_URL",
        "hook",
        _teams_like_hook,
    ),
    (
        "zapier_webhook_url",
        "Zapier catch hook",
        "ZAPIER_HOOK_URL",
        "hook",
        _zapier_hook,
    ),
    (
        "twilio_auth_token",
        "Twilio auth token",
        "TWILIO_AUTH_TOKEN",
        "tok",
        _same(lambda r: _hex(r, 32)),
    ),
    (
        "twilio_api_key_secret",
        "Twilio API key secret",
        "TWILIO_API_SECRET",
        "tok",
        _same(lambda r: _r(r, _AN, 32)),
    ),
    (
        "vonage_api_secret",
        "Vonage SMS API secret",
        "VONAGE_API_SECRET",
        "tok",
        _same(lambda r: _r(r, _AN, 16)),
    ),
    (
        "access_control_password",
        "door access-control admin password",
        "ACCESS_ADMIN_PASSWORD",
        "pw",
        _pwv,
    ),
    ("door_master_pin", "turnstile master PIN", "TURNSTILE_MASTER_PIN", "pw", _pin),
    (
        "rtsp_camera_password",
        "CCTV camera RTSP login",
        "CAMERA_RTSP_URL",
        "conn",
        _rtsp,
    ),
    ("nvr_admin_password", "CCTV NVR admin password", "NVR_PASSWORD", "pw", _pwv),
    (
        "soundtrack_api_token",
        "Soundtrack Your Brand API token",
        "SOUNDTRACK_API_TOKEN",
        "tok",
        _same(lambda r: _r(r, _AN, 64)),
    ),
    (
        "sonos_client_secret",
        "Sonos control API client secret",
        "SONOS_CLIENT_SECRET",
        "tok",
        _uuid_tok,
    ),
    (
        "youtube_stream_key",
        "YouTube Live stream key",
        "YOUTUBE_STREAM_KEY",
        "tok",
        _yt_key,
    ),
    ("twitch_stream_key", "Twitch stream key", "TWITCH_STREAM_KEY", "tok", _twitch_key),
    (
        "twitch_client_secret",
        "Twitch app client secret",
        "TWITCH_CLIENT_SECRET",
        "tok",
        _same(lambda r: _r(r, _LO + _DI, 30)),
    ),
    (
        "obs_websocket_password",
        "OBS WebSocket server password",
        "OBS_WS_PASSWORD",
        "pw",
        _pwv,
    ),
    (
        "eventbrite_private_token",
        "Eventbrite private token",
        "EVENTBRITE_TOKEN",
        "tok",
        _same(lambda r: _r(r, _UP + _DI, 20)),
    ),
    (
        "wordpress_db_password",
        "WordPress DB_PASSWORD",
        "WORDPRESS_DB_PASSWORD",
        "pw",
        _pwv,
    ),
    ("wordpress_auth_key", "WordPress AUTH_KEY salt", "WP_AUTH_KEY", "tok", _wp_salt),
    (
        "wordpress_application_password",
        "WordPress application password",
        "WP_APP_PASSWORD",
        "tok",
        _wp_app_pw,
    ),
    (
        "mysql_connection_password",
        "MySQL connection string",
        "DATABASE_URL",
        "conn",
        _conn(
            "mysql",
            ["wp", "wordpress", "club"],
            ["db", "127.0.0.1", "mysql.internal"],
            3306,
            ["wordpress", "club_wp"],
        ),
    ),
    (
        "postgres_connection_password",
        "Postgres connection string",
        "DATABASE_URL",
        "conn",
        _conn(
            "postgresql",
            ["results", "timing", "app"],
            ["db", "pg.internal", "10.8.0.4"],
            5432,
            ["results", "rota", "race"],
        ),
    ),
    (
        "redis_connection_password",
        "Redis URL",
        "REDIS_URL",
        "conn",
        _conn("redis", ["default"], ["redis", "cache.internal"], 6379, ["0", "1"]),
    ),
    (
        "mqtt_connection_password",
        "MQTT broker URL for RFID readers",
        "MQTT_URL",
        "conn",
        _conn(
            "mqtt",
            ["reader", "mat01", "tracker"],
            ["finish-pi.local", "broker.lan"],
            1883,
            ["timing", "reads"],
        ),
    ),
    (
        "mylaps_account_password",
        "MyLaps Practice/Timing account password",
        "MYLAPS_PASSWORD",
        "pw",
        _pwv,
    ),
    (
        "raceresult_api_key",
        "RaceResult web API key",
        "RACERESULT_API_KEY",
        "tok",
        _same(lambda r: _r(r, _UP + _DI, 32)),
    ),
    (
        "runsignup_api_secret",
        "RunSignup API secret",
        "RUNSIGNUP_API_SECRET",
        "tok",
        _same(lambda r: _r(r, _AN, 32)),
    ),
    (
        "live_tracking_jwt",
        "live-tracking ingest JWT",
        "TRACKING_TOKEN",
        "tok",
        _jwt_tok,
    ),
    (
        "tracking_basic_auth_password",
        "live-tracking feed basic-auth URL",
        "TRACKING_FEED_URL",
        "conn",
        _basic_url,
    ),
    ("ftp_url_password", "results FTP upload URL", "RESULTS_FTP_URL", "conn", _ftp_url),
    ("sftp_password", "results SFTP password", "RESULTS_SFTP_PASSWORD", "pw", _pwv),
    (
        "sponsor_portal_password",
        "sponsor portal login",
        "SPONSOR_PORTAL_PASSWORD",
        "pw",
        _pwv,
    ),
    (
        "sportradar_api_key",
        "sports data API key",
        "SPORTS_DATA_API_KEY",
        "tok",
        _same(lambda r: _r(r, _AN, 40)),
    ),
    (
        "deputy_api_token",
        "Deputy volunteer-rota permanent token",
        "DEPUTY_TOKEN",
        "tok",
        _same(lambda r: _hex(r, 32)),
    ),
    ("pi_user_password", "finish-line Raspberry Pi login", "PI_PASSWORD", "pw", _pwv),
    ("wifi_psk", "race-office Wi-Fi passphrase", "WIFI_PSK", "pw", _pwv),
    (
        "lte_router_admin_password",
        "LTE router admin password",
        "ROUTER_ADMIN_PASSWORD",
        "pw",
        _pwv,
    ),
    ("smtp_password", "SMTP password for results mails", "SMTP_PASSWORD", "pw", _pwv),
    (
        "github_pat",
        "GitHub personal access token",
        "GITHUB_TOKEN",
        "tok",
        _pfx(["gh", "p_"], _AN, 36),
    ),
    ("github_fine_grained_pat", "GitHub fine-grained token", "GH_PAT", "tok", _gh_fine),
    (
        "aws_secret_access_key",
        "AWS secret access key (photo bucket)",
        "AWS_SECRET_ACCESS_KEY",
        "tok",
        _aws_secret,
    ),
    (
        "gcs_signed_url_signature",
        "signed photo download URL",
        "PHOTO_URL",
        "conn",
        _gcs_signed,
    ),
    ("sendgrid_api_key", "SendGrid API key", "SENDGRID_API_KEY", "tok", _sendgrid),
    ("mailchimp_api_key", "Mailchimp API key", "MAILCHIMP_API_KEY", "tok", _mailchimp),
    (
        "telegram_bot_token",
        "Telegram bot token (course marshals)",
        "TELEGRAM_BOT_TOKEN",
        "tok",
        _telegram,
    ),
    (
        "dockerhub_pat",
        "Docker Hub access token",
        "DOCKERHUB_TOKEN",
        "tok",
        _pfx(["dck", "r_pat_"], _URLS, 27),
    ),
    (
        "cloudflare_api_token",
        "Cloudflare API token",
        "CLOUDFLARE_API_TOKEN",
        "tok",
        _same(lambda r: _r(r, _URLS, 40)),
    ),
    (
        "npm_token",
        "npm automation token",
        "NPM_TOKEN",
        "tok",
        _pfx(["np", "m_"], _AN, 36),
    ),
    (
        "openai_api_key",
        "OpenAI API key",
        "OPENAI_API_KEY",
        "tok",
        _pfx(["sk-", "proj-"], _URLS, [48, 56, 64]),
    ),
    (
        "sentry_auth_token",
        "Sentry user auth token",
        "SENTRY_AUTH_TOKEN",
        "tok",
        _pfx(["sntr", "yu_"], _HEX, 64),
    ),
    (
        "jwt_signing_secret",
        "JWT signing secret for member app",
        "JWT_SECRET",
        "tok",
        _same(lambda r: _r(r, _URLS, 48)),
    ),
    (
        "django_secret_key",
        "Django SECRET_KEY (rota app)",
        "DJANGO_SECRET_KEY",
        "tok",
        _django,
    ),
    (
        "unifi_controller_password",
        "UniFi controller password",
        "UNIFI_PASSWORD",
        "pw",
        _pwv,
    ),
    ("rsa_private_key", "RSA private key", "TLS_KEY", "pem", _pem_rsa),
    ("ec_private_key", "EC private key", "EC_KEY", "pem", _pem_ec),
    ("pkcs8_private_key", "service account private key", "SA_KEY", "pem", _pem_pk8),
    ("openssh_private_key", "OpenSSH private key", "SSH_KEY", "pem", _ssh),
]


# ---------------------------------------------------------------- templates
ALL = {"tok", "pw", "hook", "conn"}
TOKPW = {"tok", "pw"}


def _t_note(rng, c):
    return f"{c['svc']} for {c['studio']}: {c['val']}\n(set up by {c['who']} on {c['date']}, not yet in the password manager)"


def _t_lesson(rng, c):
    return (
        f"Lesson learned ({c['race']}): the {c['svc']} was pasted into the volunteer group chat. "
        f"Value at the time was {c['val']} - rotate after the race and keep it in the vault only."
    )


def _t_runbook(rng, c):
    return (
        f"Runbook - race morning, {c['host']}\n1. Power on the LTE router and the timing laptop\n"
        f"2. export {c['env']}='{c['val']}'\n3. systemctl restart results-sync\n4. Check the first reads appear"
    )


def _t_todo(rng, c):
    return f"TODO before {c['date']}: move {c['env']} out of the crontab on {c['host']}. Current value: {c['val']}"


def _t_racelog(rng, c):
    return (
        f"[{c['race']} race-day log]\n{c['time']} start line mats online, 4 readers\n"
        f"{c['time2']} {c['who']} swapped the {c['svc']} -> {c['val']}\n{c['time3']} first finisher read OK"
    )


def _t_ticket(rng, c):
    return (
        f"Ticket #{rng.randint(100, 999)} - {c['studio']}\nReporter: {c['who']}\n"
        f"Issue: sync failing since {c['date']}. Config uses {c['svc']} = {c['val']}\nStatus: open"
    )


def _t_email(rng, c):
    return (
        f"From: {c['who'].lower()}@club.example\nSubject: {c['svc']} for the {c['race']}\n\n"
        f"Hi! As asked, here it is:\n\n    {c['val']}\n\nPlease don't forward. Cheers, {c['who']}"
    )


def _t_chat(rng, c):
    return (
        f"[{c['time']}] {c['who']}: does anyone have the {c['svc']}?\n"
        f"[{c['time2']}] {c['who2']}: {c['val']}\n[{c['time3']}] {c['who']}: thx, works"
    )


def _t_fr(rng, c):
    return f"Note ({c['studio']}) : {c['svc']} = {c['val']} — à changer après le {c['race']}, ne pas partager."


def _t_pt(rng, c):
    return (
        f"Nota para a equipa: a {c['svc']} do ginásio é {c['val']} (actualizada a {c['date']}). Não partilhar no grupo."
    )


def _t_fi(rng, c):
    return f"Muistiinpano: {c['svc']} on {c['val']}. Vaihda tämä maratonin jälkeen! ({c['who']}, {c['date']})"


def _t_hu(rng, c):
    return f"Jegyzet: a(z) {c['svc']} értéke {c['val']} — a verseny után cserélni kell. ({c['who']})"


def _t_id(rng, c):
    return f"Catatan: {c['svc']} untuk {c['studio']} adalah {c['val']}. Ganti setelah lomba {c['race']}."


def _t_sw(rng, c):
    return f"Kumbukumbu: {c['svc']} ya {c['studio']} ni {c['val']}. Ibadilishe baada ya mbio za {c['race']}."


def _t_env(rng, c):
    return f"# {c['host']} .env ({c['race']})\nTZ=Europe/Helsinki\nLOG_LEVEL=info\n{c['env']}={c['val']}\nRESULTS_DIR=/srv/results\n"


def _t_compose(rng, c):
    return (
        f"services:\n  sync:\n    image: club/{c['svcslug']}-sync:{rng.randint(1, 9)}.{rng.randint(0, 20)}\n"
        f"    restart: unless-stopped\n    environment:\n      - {c['env']}={c['val']}\n      - TZ=Europe/Lisbon\n"
    )


def _t_json(rng, c):
    return '{\n  "service": "%s",\n  "studio": "%s",\n  "%s": "%s",\n  "timeout_s": %d\n}' % (
        c["svcslug"],
        c["studio"],
        c["key"],
        c["val"],
        rng.choice([10, 30, 60]),
    )


def _t_yaml(rng, c):
    return f'# {c["svcslug"]}.yml\n{c["svcslug"]}:\n  enabled: true\n  {c["key"]}: "{c["val"]}"\n  retries: {rng.randint(1, 5)}\n'


def _t_ini(rng, c):
    return f"[{c['svcslug']}]\nhost = {c['host']}.lan\n{c['key']} = {c['val']}\nverify_ssl = true\n"


def _t_py(rng, c):
    return (
        f"# settings_local.py (rota app)\nDEBUG = False\nALLOWED_HOSTS = ['{c['host']}']\n{c['env']} = \"{c['val']}\"\n"
    )


def _t_cron(rng, c):
    return (
        f"# crontab -l on {c['host']}\n{c['env']}={c['val']}\n"
        f"*/{rng.choice([2, 5, 10])} * * * * /home/pi/bin/push_results.sh >> /var/log/push.log 2>&1\n"
    )


def _t_php(rng, c):
    return f"<?php\n// wp-config.php excerpt\ndefine( 'WP_DEBUG', false );\ndefine( '{c['env']}', '{c['val']}' );\n"


def _t_cli(rng, c):
    return (
        f'pi@{c["host"]}:~ $ export {c["env"]}="{c["val"]}"\npi@{c["host"]}:~ $ python3 sync.py --dry-run\n'
        f"loaded {rng.randint(10, 900)} records, 0 errors"
    )


def _t_container(rng, c):
    return (
        f"{c['svcslug']}-sync-1  | {c['date']}T{c['time']}Z INFO starting worker\n"
        f"{c['svcslug']}-sync-1  | {c['date']}T{c['time']}Z DEBUG config {c['key']}={c['val']}\n"
        f"{c['svcslug']}-sync-1  | {c['date']}T{c['time2']}Z INFO connected"
    )


def _t_ci(rng, c):
    return (
        f'Run ./deploy.sh\n  shell: /usr/bin/bash -e {{0}}\n+ echo "using {c["env"]}={c["val"]}"\n'
        f"using {c['env']}={c['val']}\n+ rsync -az site/ deploy@{c['host']}:/var/www/\nError: Process completed with exit code 1."
    )


def _t_serial(rng, c):
    return (
        f"U-Boot 2023.04 (reader-fw {rng.randint(1, 4)}.{rng.randint(0, 9)})\n> printenv\nbaudrate=115200\n"
        f"{c['key']}={c['val']}\nserverip={_ip(rng)}\n>"
    )


def _t_curl(rng, c):
    return (
        f"$ curl -v -H 'Authorization: Bearer {c['val']}' https://api.{c['svcslug']}.example/v1/ping\n"
        f"> GET /v1/ping HTTP/2\n> Host: api.{c['svcslug']}.example\n< HTTP/2 200\n< content-type: application/json\n"
        '{"ok":true}'
    )


def _t_header(rng, c):
    return (
        f"Webhook delivery #{rng.randint(1000, 99999)} to https://{c['host']}.example/hooks\n"
        f"Request headers:\n  Content-Type: application/json\n  X-Api-Key: {c['val']}\nResponse: 200 OK ({rng.randint(40, 900)} ms)"
    )


def _t_login(rng, c):
    return f"{c['svc']}: user {rng.choice(['admin', 'racedir', 'it', c['who'].lower()])} / {c['val']} — {c['studio']}"


def _t_pw_ssh(rng, c):
    return (
        f"$ sshpass -p '{c['val']}' ssh pi@{c['host']}.local 'sudo systemctl status timing'\n"
        f"● timing.service - RFID reader bridge\n   Active: active (running)"
    )


def _t_pw_wpa(rng, c):
    return (
        "ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev\ncountry=PT\nnetwork={\n"
        f'    ssid="RaceOffice-{rng.randint(1, 9)}"\n    psk="{c["val"]}"\n    key_mgmt=WPA-PSK\n}}'
    )


def _t_hook_curl(rng, c):
    return (
        f"$ curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"Mat {rng.randint(1, 9)} offline\"}}' \\\n"
        f"    {c['val']}\nok"
    )


def _t_conn_cli(rng, c):
    return f"{c['who']} in #race-it: if the dashboard dies, the URL it uses is {c['val']} (copy from the old laptop)"


def _t_pem_file(rng, c):
    return f"pi@{c['host']}:~ $ cat ~/keys/{c['svcslug']}.pem\n{c['val']}\npi@{c['host']}:~ $"


def _t_pem_note(rng, c):
    return f"Key for the results server ({c['race']}). Saved here until the vault is set up:\n\n{c['val']}\n"


def _t_pem_yaml(rng, c):
    ind = "\n".join("    " + ln for ln in c["val"].split("\n"))
    return f"deploy:\n  host: {c['host']}\n  private_key: |\n{ind}\n", ind.strip()


def _t_pem_json(rng, c):
    esc = c["val"].replace("\n", "\\n")
    return (
        '{\n  "type": "service_account",\n  "project_id": "club-prod-%d",\n  "private_key_id": "%s",\n'
        '  "private_key": "%s\\n",\n  "client_email": "sync@club-prod.iam.gserviceaccount.com"\n}'
        % (rng.randint(100, 999), _hex(rng, 40), esc)
    ), esc


def _t_pem_env(rng, c):
    return f'# .env on {c["host"]}\nSFTP_HOST=results.example\n{c["env"]}="{c["val"]}"\n'


def _t_pem_chat(rng, c):
    return f"{c['who']}: here's the deploy key, paste it into the CI settings\n```\n{c['val']}\n```\n{c['who2']}: done"


TEMPLATES = [
    (ALL, _t_note),
    (ALL, _t_lesson),
    (ALL, _t_runbook),
    (ALL, _t_todo),
    (ALL, _t_racelog),
    (ALL, _t_ticket),
    (ALL, _t_email),
    (ALL, _t_chat),
    (ALL, _t_fr),
    (ALL, _t_pt),
    (ALL, _t_fi),
    (ALL, _t_hu),
    (ALL, _t_id),
    (ALL, _t_sw),
    (ALL, _t_env),
    (ALL, _t_compose),
    (ALL, _t_json),
    (ALL, _t_yaml),
    (ALL, _t_ini),
    (ALL, _t_py),
    (ALL, _t_cron),
    (ALL, _t_php),
    (ALL, _t_cli),
    (ALL, _t_container),
    (ALL, _t_ci),
    (TOKPW, _t_serial),
    ({"tok"}, _t_curl),
    ({"tok"}, _t_header),
    ({"pw"}, _t_login),
    ({"pw"}, _t_pw_ssh),
    ({"pw"}, _t_pw_wpa),
    ({"hook"}, _t_hook_curl),
    ({"conn", "hook"}, _t_conn_cli),
    ({"pem"}, _t_pem_file),
    ({"pem"}, _t_pem_note),
    ({"pem"}, _t_pem_yaml),
    ({"pem"}, _t_pem_json),
    ({"pem"}, _t_pem_env),
    ({"pem"}, _t_pem_chat),
]


def _ctx(rng, kind, svc, env, val):
    who, who2 = rng.sample(PEOPLE, 2)
    times = sorted(_time(rng) for _ in range(3))
    return {
        "kind": kind,
        "svc": svc,
        "env": env,
        "key": env.lower(),
        "val": val,
        "svcslug": kind.split("_")[0],
        "who": who,
        "who2": who2,
        "studio": rng.choice(STUDIOS),
        "race": rng.choice(RACES),
        "host": rng.choice(HOSTS),
        "date": _date(rng),
        "time": times[0],
        "time2": times[1],
        "time3": times[2],
    }


def _positives(rng, seen):
    out = []
    for kind, svc, env, style, gen in KINDS:
        tpls = [f for st, f in TEMPLATES if style in st]
        order = []
        while len(order) < PER_KIND * 3:
            block = tpls[:]
            rng.shuffle(block)
            order += block
        n = 0
        for tpl in order:
            if n == PER_KIND:
                break
            display, secret = gen(rng)
            res = tpl(rng, _ctx(rng, kind, svc, env, display))
            if isinstance(res, tuple):
                text, alt = res
                if alt is not None:
                    secret = alt
            else:
                text = res
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            n += 1
        if n != PER_KIND:
            raise RuntimeError(f"could not build {PER_KIND} samples for {kind}")
    return out


# ---------------------------------------------------------------- look-alikes
def _who(rng):
    return rng.choice(PEOPLE)


def _l_commit(rng):
    return f"Deployed results site at commit {_hex(rng, 40)} ({_who(rng)}, {_date(rng)}). Rollback: git checkout {_hex(rng, 7)}"


def _l_sha256sum(rng):
    return f"$ sha256sum reader-fw-{rng.randint(1, 5)}.{rng.randint(0, 9)}.{rng.randint(0, 30)}.bin\n{_hex(rng, 64)}  reader-fw.bin"


def _l_md5(rng):
    return f"results_{rng.choice(RACES).replace(' ', '_').lower()}.csv uploaded, md5 {_hex(rng, 32)}, {rng.randint(200, 9000)} rows"


def _l_reqid(rng):
    return f"{_time(rng)} ERROR RunSignup API 502 request_id={_uuid(rng)} retry in {rng.randint(2, 30)}s"


def _l_stripe_pk(rng):
    return (
        f"Stripe publishable key for the shop widget (public, fine in the HTML): {'pk_' + 'live_' + _r(rng, _AN, 99)}"
    )


def _l_placeholder_env(rng):
    k = rng.choice(
        [
            "STRIPE_SECRET_KEY",
            "TWILIO_AUTH_TOKEN",
            "RACERESULT_API_KEY",
            "GLOFOX_API_TOKEN",
            "SMTP_PASSWORD",
        ]
    )
    v = rng.choice(
        [
            "<your-key>",
            "<paste here>",
            "changeme",
            "your_token_here",
            "xxxxxxxx",
            "TODO",
            "REPLACE_ME",
        ]
    )
    return f"# .env.example - copy to .env ({rng.randint(1, 999)})\n{k}={v}\nLOG_LEVEL=info"


def _l_compose_ref(rng):
    k = rng.choice(["MINDBODY_API_KEY", "STRAVA_CLIENT_SECRET", "DB_PASSWORD", "SUMUP_API_KEY"])
    return f"    environment:\n      - {k}=${{{k}}}\n      - TZ=Europe/Helsinki\n    # port {rng.randint(8000, 9000)}"


def _l_gha_ref(rng):
    k = rng.choice(["FTP_PASSWORD", "WP_APP_PASSWORD", "SLACK_WEBHOOK", "STRIPE_KEY", "SSH_KEY"])
    return f"      - name: Upload results\n        env:\n          {k}: ${{{{ secrets.{k} }}}}\n        run: ./upload.sh --race {rng.randint(2020, 2027)}"


def _l_airflow(rng):
    k = rng.choice(["strava_client_secret", "raceresult_key", "sms_token", "ftp_pass"])
    return f'token = Variable.get("{k}")  # dag results_sync_{rng.randint(1, 99)}'


def _l_dbutils(rng):
    return (
        f'pw = dbutils.secrets.get(scope="marathon", key="{rng.choice(["ftp", "db", "twilio"])}-{rng.randint(1, 99)}")'
    )


def _l_vault(rng):
    return f"$ vault kv get -field=password secret/club/{rng.choice(['wordpress', 'nvr', 'router', 'mylaps'])}/{rng.randint(1, 50)}\n(ask {_who(rng)} for a token)"


def _l_ansible_vault(rng):
    lines = "\n".join(_hex(rng, 80) for _ in range(rng.randint(3, 6)))
    return f"router_admin_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{lines}"


def _l_sops(rng):
    return (
        f"smtp_password: ENC[AES256_GCM,data:{_b64blob(rng, 18)},iv:{_b64blob(rng, 32)},"
        f"tag:{_b64blob(rng, 16)},type:str]\nsops:\n    version: 3.8.{rng.randint(0, 9)}"
    )


def _l_bcrypt(rng):
    h = "$2b$" + str(rng.choice([10, 12])) + "$" + _r(rng, _AN + "./", 53)
    return f"members.csv import: password column is bcrypt, e.g. {h} (user {rng.randint(1000, 9999)})"


def _l_argon(rng):
    h = f"$argon2id$v=19$m=65536,t=3,p=4${_b64blob(rng, 16).rstrip('=')}${_b64blob(rng, 32).rstrip('=')}"
    return f"rota app user table row {rng.randint(1, 400)}: password_hash={h}"


def _l_ssh_pub(rng):
    return f"authorized_keys on {rng.choice(HOSTS)}:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_r(rng, _B64, 43)} {_who(rng).lower()}@laptop"


def _l_ssh_fp(rng):
    return f"The authenticity of host '{rng.choice(HOSTS)}.local ({_ip(rng)})' can't be established.\nED25519 key fingerprint is SHA256:{_r(rng, _B64, 43)}."


def _l_gpg(rng):
    fp = " ".join(_hex(rng, 4).upper() for _ in range(10))
    return f"Results CSVs are signed. Public key fingerprint: {fp} (uid Marathon Timing <timing@club.example>)"


def _l_cert(rng):
    return "Public certificate for the results site (ok to share):\n" + _pem(
        rng, "CERTIFICATE", rng.randint(8, 14), "MIID"
    )


def _l_sentry_dsn(rng):
    return f"SENTRY_DSN=https://{_hex(rng, 32)}@o{rng.randint(10**5, 10**7)}.ingest.de.sentry.io/{rng.randint(10**5, 10**7)}"


def _l_firebase(rng):
    return (
        'const firebaseConfig = {\n  apiKey: "' + "AI" + "za" + _r(rng, _URLS, 35) + '",\n'
        f'  authDomain: "club-app-{rng.randint(1, 99)}.firebaseapp.com",\n  projectId: "club-app"\n}};  // web config, public'
    )


def _l_gclient_id(rng):
    return f"GOOGLE_CLIENT_ID={rng.randint(10**11, 10**12)}-{_r(rng, _LO + _DI, 32)}.apps.googleusercontent.com  # secret lives in Secret Manager"


def _l_strava_id(rng):
    return f"Strava app 'Club Challenge': client_id {rng.randint(10000, 200000)}, callback domain club.example. Client secret is in 1Password."


def _l_recaptcha(rng):
    return f'<div class="g-recaptcha" data-sitekey="6L{_r(rng, _URLS, 38)}"></div>  <!-- entry form -->'


def _l_algolia(rng):
    return f"ALGOLIA_APP_ID={_r(rng, _UP + _DI, 10)}\nALGOLIA_SEARCH_ONLY_KEY={_hex(rng, 32)}  # search-only, public in the results page"


def _l_supabase_anon(rng):
    payload = '{"iss":"supabase","role":"anon","ref":"%s"}' % _r(rng, _LO, 20)
    return f"SUPABASE_ANON_KEY={_jwt(rng, payload)}  # anon key, public"


def _l_mapbox(rng):
    return f"Course map uses the public Mapbox token pk.{_r(rng, _URLS, 60)}.{_r(rng, _URLS, 22)} (URL-restricted)"


def _l_data_img(rng):
    return f'<img alt="sponsor logo {rng.randint(1, 50)}" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{_b64blob(rng, 90)}">'


def _l_digest(rng):
    return f"docker pull ghcr.io/club/results-sync@sha256:{_hex(rng, 64)}\nStatus: Image is up to date"


def _l_npm_integrity(rng):
    return f'"node_modules/leaflet-{rng.randint(1, 99)}": {{\n  "version": "1.9.4",\n  "integrity": "sha512-{_b64blob(rng, 64)}"\n}}'


def _l_notebook(rng):
    return f'{{"cell_type": "code", "execution_count": {rng.randint(1, 300)}, "id": "{_hex(rng, 8)}", "source": ["df = load_splits()"]}}'


def _l_wandb(rng):
    return f"finish-time model run {_r(rng, _LO + _DI, 8)} logged to wandb project pace-predictor, mlflow run_id {_hex(rng, 32)}"


def _l_hf(rng):
    return f"Using {rng.choice(['sentence-transformers/all-MiniLM-L6-v2', 'openai/whisper-small', 'facebook/bart-large-cnn'])} rev {_hex(rng, 40)} for the race announcements"


def _l_twilio_sid(rng):
    return f"Twilio Account SID {'A' + 'C' + _hex(rng, 32)}; messaging service {'M' + 'G' + _hex(rng, 32)}. Auth token: in Bitwarden."


def _l_twilio_keysid(rng):
    return f"Twilio API key SID {'S' + 'K' + _hex(rng, 32)} created {_date(rng)}; the secret was shown once and stored in the vault."


def _l_stripe_ids(rng):
    return (
        f"Refund {'re_' + _r(rng, _AN, 24)} for charge {'ch_' + _r(rng, _AN, 24)}, customer {'cus_' + _r(rng, _AN, 14)}"
    )


def _l_stripe_event(rng):
    return (
        '{"id": "evt_%s", "object": "event", "type": "checkout.session.completed", "livemode": true,\n'
        ' "data": {"object": {"id": "cs_live_%s", "amount_total": %d}}}'
        % (_r(rng, _AN, 24), _r(rng, _AN, 58), rng.randint(1000, 9000))
    )


def _l_stripe_sig(rng):
    return f"Stripe-Signature: t={rng.randint(1700000000, 1800000000)},v1={_hex(rng, 64)}\n(signature verified OK)"


def _l_gocardless_ids(rng):
    return f"GoCardless mandate MD{_r(rng, _UP + _DI, 12)} for member {rng.randint(100, 9999)}, payment PM{_r(rng, _UP + _DI, 12)} failed: insufficient_funds"


def _l_slack_ids(rng):
    return f"Post to channel C{_r(rng, _UP + _DI, 10)} (team T{_r(rng, _UP + _DI, 10)}), thread_ts {rng.randint(1700000000, 1800000000)}.{rng.randint(100000, 999999)}"


def _l_yt_ids(rng):
    return (
        f"Livestream archived: https://www.youtube.com/watch?v={_r(rng, _URLS, 11)} on channel UC{_r(rng, _URLS, 22)}"
    )


def _l_twitch_client(rng):
    return f"Twitch Client-ID: {_r(rng, _LO + _DI, 30)} (public app id); broadcaster_id {rng.randint(10**7, 10**9)}"


def _l_epc(rng):
    rows = "\n".join(
        f"{rng.randint(1, 4)},E280{_hex(rng, 20).upper()},{_time(rng)}.{rng.randint(0, 999):03d},-{rng.randint(40, 70)}"
        for _ in range(3)
    )
    return f"antenna,epc,time,rssi\n{rows}"


def _l_mylaps_transponder(rng):
    return f"Bib {rng.randint(1, 5000)} -> MyLaps transponder {_r(rng, _UP, 2)}-{rng.randint(10000, 99999)}, chip {_hex(rng, 8).upper()}"


def _l_mac(rng):
    mac = ":".join(_hex(rng, 2) for _ in range(6))
    return f"Reader {rng.randint(1, 8)} MAC {mac}, serial RR{rng.randint(10**6, 10**7)}, firmware 7.{rng.randint(0, 9)}"


def _l_imei(rng):
    return f"LTE router: IMEI {rng.randint(10**14, 10**15)}, SIM ICCID 8935{rng.randint(10**14, 10**15)}, APN internet (no user/password)"


def _l_wifi_ref(rng):
    return f"Race-office Wi-Fi SSID RaceOffice-{rng.randint(1, 9)}: the passphrase is on the sticker under the router, ask {_who(rng)}."


def _l_userconf(rng):
    return f"/boot/firmware/userconf.txt on {rng.choice(HOSTS)}:\npi:$6${_r(rng, _AN + './', 16)}${_r(rng, _AN + './', 86)}"


def _l_shadow(rng):
    return f"timing:$y$j9T${_r(rng, _AN + './', 22)}${_r(rng, _AN + './', 43)}:{rng.randint(19000, 20500)}:0:99999:7:::"


def _l_htpasswd(rng):
    return f"# /etc/nginx/.htpasswd (sponsor preview)\n{rng.choice(['sponsor', 'preview', 'press'])}:$apr1${_r(rng, _AN, 8)}${_r(rng, _AN + './', 22)}"


def _l_wp_salt_doc(rng):
    return (
        f"define( 'AUTH_KEY',         'put your unique phrase here' );\ndefine( 'SECURE_AUTH_KEY',  'put your unique phrase here' );\n"
        f"// generate at https://api.wordpress.org/secret-key/1.1/salt/ (site {rng.randint(1, 999)})"
    )


def _l_phpass(rng):
    return f"wp_users row {rng.randint(1, 500)}: user_login=coach{rng.randint(1, 99)}, user_pass=$P$B{_r(rng, _AN + './', 30)}"


def _l_etag(rng):
    return f'< HTTP/1.1 304 Not Modified\n< ETag: W/"{_hex(rng, 32)}"\n< cf-ray: {_hex(rng, 16)}-HEL\n< x-request-id: {_uuid(rng)}'


def _l_masked_ci(rng):
    return f"+ curl -sf -u results:*** ftp://files.citymarathon.org/ -T results_{rng.randint(1, 99)}.html\n  RESULTS_FTP_PASSWORD: ***"


def _l_masked_cfg(rng):
    k = rng.choice(["api_key", "password", "secret", "token"])
    return f"{rng.choice(['Glofox', 'ClubReady', 'Wahoo', 'Eventbrite'])} integration settings\n  {k}: ****************{_hex(rng, 4)[:0]}\n  last sync: {_date(rng)} {_time(rng)}"


def _l_eventbrite_ids(rng):
    return f"Eventbrite event {rng.randint(10**11, 10**12)}, order {rng.randint(10**9, 10**10)}, ticket class {rng.randint(10**8, 10**9)} sold out"


def _l_runsignup_doc(rng):
    return f"GET https://runsignup.com/Rest/race/{rng.randint(1000, 200000)}?format=json&api_key={{API_KEY}}&api_secret={{API_SECRET}}"


def _l_lfs(rng):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(rng, 64)}\nsize {rng.randint(10**4, 10**8)}"


def _l_pip_hash(rng):
    return f"requests==2.32.{rng.randint(0, 9)} \\\n    --hash=sha256:{_hex(rng, 64)}"


def _l_tfstate(rng):
    return f'{{"version": 4, "terraform_version": "1.9.{rng.randint(0, 8)}", "serial": {rng.randint(1, 300)}, "lineage": "{_uuid(rng)}"}}'


def _l_k8s_ref(rng):
    return (
        f"        env:\n          - name: TWILIO_AUTH_TOKEN\n            valueFrom:\n              secretKeyRef:\n"
        f"                name: sms-alerts-{rng.randint(1, 99)}\n                key: auth-token"
    )


def _l_aws_arn(rng):
    return f"DB password is in arn:aws:secretsmanager:eu-west-1:{rng.randint(10**11, 10**12)}:secret:club/wordpress-{_r(rng, _AN, 6)}"


def _l_keyvault(rng):
    return f"SMTP__PASSWORD=@Microsoft.KeyVault(SecretUri=https://club-kv-{rng.randint(1, 99)}.vault.azure.net/secrets/smtp-password/{_hex(rng, 32)})"


def _l_op_ref(rng):
    return f"STRAVA_CLIENT_SECRET=op://Marathon/Strava app {rng.randint(1, 99)}/client secret\n$ op run --env-file=.env -- python sync.py --race {rng.randint(2019, 2027)}"


def _l_env_names(rng):
    names = rng.sample(
        [
            "STRIPE_SECRET_KEY",
            "TWILIO_AUTH_TOKEN",
            "WP_DB_PASSWORD",
            "SLACK_BOT_TOKEN",
            "MYLAPS_PASSWORD",
            "FTP_PASS",
            "OBS_WS_PASSWORD",
        ],
        4,
    )
    return "Required env vars (values in the vault): " + ", ".join(names)


def _l_jwt_payload(rng):
    return f'Decoded tracker JWT payload (no token stored): {{"sub": "tracker-{rng.randint(1, 99)}", "exp": {rng.randint(1700000000, 1800000000)}, "scope": "positions:write"}}'


def _l_cursor(rng):
    cur = base64.b64encode(('{"offset":%d,"race":%d}' % (rng.randint(0, 5000), rng.randint(1, 99))).encode()).decode()
    return f'{{"results": [...], "next_cursor": "{cur}", "has_more": true}}'


def _l_pkce(rng):
    return f"GET /oauth/authorize?client_id={rng.randint(10000, 99999)}&code_challenge={_r(rng, _URLS, 43)}&code_challenge_method=S256&state={_hex(rng, 16)}"


def _l_hub_sig(rng):
    return f"X-Hub-Signature-256: sha256={_hex(rng, 64)}\nX-GitHub-Delivery: {_uuid(rng)}"


def _l_twilio_sig(rng):
    return f"POST /sms/status X-Twilio-Signature: {_b64blob(rng, 20)} MessageStatus=delivered To=+3519{rng.randint(10**7, 10**8)}"


def _l_activity(rng):
    return f"Strava activity {rng.randint(10**9, 10**10)} and Garmin activity {rng.randint(10**9, 10**10)} both show the course at {rng.randint(42100, 42400)} m"


def _l_zwift(rng):
    return f"Zwift club id {_uuid(rng)}, weekly ride event {rng.randint(10**6, 10**7)} Tuesdays 19:00"


def _l_sonos(rng):
    return f"Sonos householdId Sonos_{_r(rng, _AN, 32)}.{_r(rng, _AN, 22)} groupId RINCON_{_hex(rng, 12).upper()}01400:{rng.randint(1, 999)}"


def _l_soundtrack_zone(rng):
    return f"Soundtrack zone id {base64.b64encode(('SoundZone, ,' + _r(rng, _LO + _DI, 12)).encode()).decode()} = spin room"


def _l_onvif(rng):
    return f"Camera {rng.randint(1, 16)}: ONVIF urn:uuid:{_uuid(rng)}, serial DS-2CD{rng.randint(1000, 9999)}G0-{_r(rng, _UP + _DI, 9)}"


def _l_rtsp_nocred(rng):
    return f"VLC: rtsp://{_ip(rng)}:554/Streaming/Channels/{rng.choice([101, 102])} (credentials prompted, not saved)"


def _l_conn_placeholder(rng):
    return f"DATABASE_URL=postgresql://results:${{DB_PASSWORD}}@pg.internal:5432/race{rng.randint(1, 99)}"


def _l_conn_redacted(rng):
    return f"psql: connecting to postgresql://timing:****@10.8.0.{rng.randint(2, 250)}:5432/results ... OK"


def _l_conn_nopw(rng):
    return (
        f"mysql --socket=/run/mysqld/mysqld.sock -u wp wordpress_{rng.randint(1, 99)}  # unix_socket auth, no password"
    )


def _l_aws_doc(rng):
    ex = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
    return f"From the AWS docs example (NOT ours, step {rng.randint(1, 99)}): aws_secret_access_key = {ex}"


def _l_slack_doc(rng):
    url = "https://hooks.slack.com/services/T" + "0" * 8 + "/B" + "0" * 8 + "/" + "X" * 24
    return f"Example from Slack docs #{rng.randint(1, 999)}: {url}"


def _l_stream_hidden(rng):
    return f"OBS profile basic.ini [{rng.randint(1, 99)}]\n[Stream]\nservice=YouTube - RTMPS\nserver=auto\nkey=\n; key set manually on race day"


def _l_semver(rng):
    return f"results-sync v{rng.randint(1, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 30)}+g{_hex(rng, 9)} built {_date(rng)}"


def _l_docker_ps(rng):
    return f"CONTAINER ID   IMAGE   STATUS\n{_hex(rng, 12)}   results-sync   Up {rng.randint(1, 48)} hours\n{_hex(rng, 12)}   mosquitto   Up 2 days"


def _l_pod(rng):
    return f"pod/results-api-{_r(rng, _LO + _DI, 10)}-{_r(rng, _LO + _DI, 5)} CrashLoopBackOff ({rng.randint(2, 30)} restarts)"


def _l_card_uid(rng):
    return f"Door log {_time(rng)}: card UID {_hex(rng, 8).upper()} (facility {rng.randint(1, 255)}) granted at {rng.choice(STUDIOS)} turnstile {rng.randint(1, 4)}"


def _l_pin_policy(rng):
    return f"Door PIN policy v{rng.randint(1, 9)}.{rng.randint(0, 20)}: 6 digits, set by the studio manager, never written down; reset via the access-control portal."


def _l_ics(rng):
    return f"BEGIN:VEVENT\nUID:{_uuid(rng)}@rota.club.example\nSUMMARY:Water station {rng.randint(1, 12)}\nDTSTART:2026{rng.randint(1, 12):02d}05T063000Z\nEND:VEVENT"


def _l_ed_pub(rng):
    return f"Webhook verification public key (Ed25519, public): {_b64blob(rng, 32)}"


def _l_age_pub(rng):
    return f"age recipient for the backups (public): age1{_r(rng, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}"


def _l_wg_pub(rng):
    return f"[Peer]\n# race office router\nPublicKey = {_b64blob(rng, 32)}\nAllowedIPs = 10.66.{rng.randint(0, 9)}.0/24\nEndpoint = {_ip(rng)}:51820"


def _l_cert_fp(rng):
    fp = ":".join(_hex(rng, 2).upper() for _ in range(20))
    return f"results.citymarathon.org cert SHA-1 fingerprint {fp}, expires {_date(rng)}"


def _l_pw_policy(rng):
    return f"Password policy for volunteers (rev {rng.randint(1, 20)}): min 12 chars, passphrase recommended, no reuse, 2FA mandatory."


def _l_changeme(rng):
    return f"Reader web UI default login is admin/changeme per the manual p.{rng.randint(3, 90)} — we changed it at install, new one is in the vault."


def _l_results_csv(rng):
    rows = "\n".join(
        f"{rng.randint(1, 5000)},{rng.randint(2, 5)}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d},{_hex(rng, 12)}"
        for _ in range(3)
    )
    return f"bib,chip_time,row_hash\n{rows}"


def _l_cron_ref(rng):
    return f"*/{rng.randint(2, 15)} * * * * lftp -u results,\"$RESULTS_FTP_PASS\" -e 'mirror -R out/ /' ftp.results-host.net"


def _l_gha_masked(rng):
    return f"Run ./deploy.sh\n  env:\n    WP_APP_PASSWORD: ***\n    SSH_KEY: ***\nDeploy {rng.randint(1, 999)} finished"


def _l_py_env(rng):
    k = rng.choice(["STRIPE_SECRET_KEY", "MINDBODY_API_KEY", "RACERESULT_API_KEY", "DEPUTY_TOKEN"])
    return f'import os\n{k.lower()} = os.environ["{k}"]  # set in systemd unit, line {rng.randint(1, 300)}'


def _l_heroku(rng):
    return f'$ heroku config -a rota-app-{rng.randint(1, 99)} --json | jq keys\n["DATABASE_URL", "DJANGO_SECRET_KEY", "SENTRY_DSN"]'


def _l_garmin_ck(rng):
    return f"Garmin Health API consumer key {_uuid(rng)} (identifier only; consumer secret is in the vault)"


def _l_polar_client(rng):
    return f"Polar AccessLink client_id {_uuid(rng)}, redirect https://club.example/polar/cb"


def _l_glofox_branch(rng):
    return f"Glofox branch_id {_hex(rng, 24)}, namespace club{rng.randint(1, 99)}"


def _l_mindbody_site(rng):
    return f"Mindbody SiteId {rng.randint(10000, 999999)}, SourceName ClubSync, staff id {rng.randint(1, 500)} — API key in the vault"


def _l_clubready(rng):
    return f"ClubReady ChainId {rng.randint(100, 9999)}, StoreId {rng.randint(1000, 99999)}, member {rng.randint(10**5, 10**6)}"


def _l_test_card(rng):
    return f"Test checkout on staging with card 4242 4242 4242 4242, exp {rng.randint(1, 12):02d}/{rng.randint(27, 34)}, CVC any, order #{rng.randint(100, 999)}"


def _l_iban(rng):
    return f"GoCardless sandbox docs IBAN GB33BUKB20201555555555 used for mandate test {rng.randint(1, 999)}"


def _l_sports_ph(rng):
    return f"https://api.sportradar.com/athletics/trial/v{rng.randint(1, 3)}/en/competitions/{_uuid(rng)}/summary.json?api_key=YOUR_API_KEY"


def _l_pi_serial(rng):
    return f"$ cat /proc/cpuinfo | tail -3\nRevision\t: {_hex(rng, 6)}\nSerial\t\t: 10000000{_hex(rng, 8)}\nModel\t\t: Raspberry Pi 4 Model B"


def _l_sms_ids(rng):
    return f"SMS alert batch {_uuid(rng)}: {rng.randint(10, 900)} delivered, message SM{_hex(rng, 32)} failed (30003)"


def _l_enc_blob(rng):
    return f"backup.tar.gz.gpg header: -----BEGIN PGP MESSAGE-----\n{_b64blob(rng, 60)}\n-----END PGP MESSAGE-----"


def _l_hmac_doc(rng):
    return f"Webhook HMAC = hex(sha256(secret, body)). Example digest in the docs: {_hex(rng, 64)} (secret from our settings page, not here)"


def _l_uuid_order(rng):
    return f"RunSignup registration {_uuid(rng)} transferred to bib {rng.randint(1, 9999)}"


def _l_base64_json(rng):
    blob = base64.b64encode(
        (
            '{"bib":%d,"split":"%dK","t":%d}'
            % (
                rng.randint(1, 9999),
                rng.choice([5, 10, 21, 30]),
                rng.randint(1000, 9000),
            )
        ).encode()
    ).decode()
    return f"Live tracking message body (base64): {blob}"


def _l_obs_scene(rng):
    return f'{{"name": "Finish cam {rng.randint(1, 9)}", "uuid": "{_uuid(rng)}", "settings": {{"device_id": "{_hex(rng, 64)}"}}}}'


def _l_wp_nonce_doc(rng):
    return f"WordPress plugin update: version {rng.randint(1, 9)}.{rng.randint(0, 20)} checksum sha1 {_hex(rng, 40)}"


def _l_kid(rng):
    return f'JWKS: {{"keys": [{{"kid": "{_hex(rng, 16)}", "kty": "RSA", "use": "sig", "e": "AQAB", "n": "{_r(rng, _URLS, 86)}"}}]}}'


def _l_bitwarden(rng):
    return f"Moved all race-day logins to Bitwarden collection 'Marathon {rng.randint(2020, 2027)}'. Item ids: {_uuid(rng)}, {_uuid(rng)}"


def _l_ssid(rng):
    return f"Guest Wi-Fi '{rng.choice(STUDIOS)} Guest' is open with a captive portal (voucher printed at reception), VLAN {rng.randint(10, 99)}"


def _l_lte_ids(rng):
    return f"Router status: RSRP -{rng.randint(80, 110)} dBm, cell id {rng.randint(10**6, 10**8)}, IMSI {rng.randint(10**14, 10**15)}"


def _l_serial_boot(rng):
    return f"[    0.000000] Booting Linux on physical CPU 0x0\n[    0.000000] Linux version 6.6.{rng.randint(1, 60)}-v8+ #{rng.randint(1000, 2000)}\nboot_id {_uuid(rng)}"


def _l_zero_token(rng):
    return f"TWITCH_STREAM_KEY=live_000000000_{'x' * 30}  # dummy for unit tests #{rng.randint(1, 999)}"


def _l_stripe_test_doc(rng):
    return f'Stripe quickstart snippet {rng.randint(1, 999)}: stripe.api_key = "sk_test_..."  (use your own test key)'


LOOK_GENS = [v for k, v in sorted(globals().items()) if k.startswith("_l_")]
_LOOK = LOOK_GENS


def _lookalikes(rng, seen):
    out = []
    for gen in _LOOK:
        got, tries = 0, 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 500:
                raise RuntimeError(f"{gen.__name__} cannot produce {LOOK_PER_GEN} distinct texts")
            t = gen(rng)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    rng = random.Random(seed)
    seen: set[str] = set()
    positives = _positives(rng, seen)
    lookalikes = _lookalikes(rng, seen)
    return positives, lookalikes
