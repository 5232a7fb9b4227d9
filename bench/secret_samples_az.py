"""Labelled test set AZ for a secret detector: veterinary hospital group + IT contractor.

Theme
-----
Short "memories" an AI coding agent keeps while working for a group of veterinary hospitals and
their IT contractor: practice management (ezyVet, Cornerstone, Provet Cloud), lab integrations
(IDEXX, Antech, Zoetis/Abaxis), imaging / PACS (DICOM nodes, Asteris, Vetology), pet-insurance
claim APIs, Vetstoria booking, PetDesk / Twilio / SendGrid reminders, payments (Stripe, Square,
Adyen, Worldpay), telehealth video, controlled-drug logs, Microsoft 365 / Entra ID, Google
Workspace, Windows servers and SQL Server, Synology NAS + Hyper Backup, UniFi / Meraki, IP
cameras, label printers, clinic Wi-Fi and a WordPress site.  About half of the texts are prose
(notes, lessons, runbooks, TODOs, handovers, tickets, e-mails, chat; mostly English, some
Spanish, Dutch, Polish, Indonesian and Hindi), a quarter config (.env, JSON, YAML, INI, XML,
PowerShell profiles, compose files, wp-config) and a quarter tool output (shell / PowerShell
sessions, sqlcmd, curl -v dumps, service logs, docker inspect, backup reports).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text``
  (no surrounding quotes, stripped) and each text holds exactly one secret.  Every kind has
  exactly ``PER_KIND`` (30) positives.
* ``lookalikes``: texts with no credential at all.  They come from the generator functions in
  ``_LOOK``; each is called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (``random.Random`` seeded from ``seed`` only); no duplicate texts
  across the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs:
  the password only.  Pre-signed URLs: the signature.  PEM / OpenSSH private keys: the whole
  armoured block, BEGIN line to END line.
* UUID-shaped vendor tokens are secrets only where the text names them as a token / key.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids,
  Firebase web apiKeys, search-only keys, public certificates and public keys, Adyen client keys,
  Square application ids), vendor documentation example values, encrypted blobs (Ansible vault,
  sops, DPAPI SecureString) and password hashes are look-alikes.
* Bare AWS access key ids are left out entirely.
* Token-shaped values are never literal in this file: prefixes are glued from pieces at run
  time and bodies are random from the seed.
"""

from __future__ import annotations

import base64
import hashlib
import random
import string
import urllib.parse

LOOK_PER_GEN = 12
PER_KIND = 30

AN = string.ascii_letters + string.digits
LO = string.ascii_lowercase + string.digits
UP = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = AN + "+/"
B64U = AN + "-_"


# --------------------------------------------------------------------------- helpers
def _s(r: random.Random, n: int, alpha: str = AN) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def _hex(r: random.Random, n: int) -> str:
    return _s(r, n, HEX)


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def _rb(r: random.Random, n: int) -> bytes:
    return bytes(r.getrandbits(8) for _ in range(n))


def _b64(r: random.Random, n: int) -> str:
    return base64.b64encode(_rb(r, n)).decode()


def _wrap(s: str, w: int) -> str:
    return "\n".join(s[i : i + w] for i in range(0, len(s), w))


_WORDS = [
    "tulip",
    "rover",
    "biscuit",
    "maple",
    "pepper",
    "juniper",
    "falcon",
    "harbour",
    "willow",
    "otter",
    "badger",
    "clover",
    "meadow",
    "copper",
    "saffron",
    "tabby",
    "collie",
    "beagle",
    "lantern",
    "orchard",
    "cobalt",
    "thistle",
    "marble",
    "quokka",
    "pebble",
    "walrus",
    "paddock",
    "stirrup",
    "kestrel",
    "bramble",
    "hazel",
    "timber",
    "crumpet",
    "nutmeg",
    "ferret",
    "puffin",
    "mango",
    "lemon",
    "garnet",
    "velvet",
    "comet",
    "rocket",
    "summit",
    "canyon",
    "glacier",
    "sparrow",
]
_PETS = [
    "Biscuit",
    "Milo",
    "Luna",
    "Bella",
    "Max",
    "Charlie",
    "Daisy",
    "Rocky",
    "Coco",
    "Teddy",
    "Poppy",
    "Rosie",
    "Oscar",
    "Ziggy",
]
_SEASONS = ["Spring", "Summer", "Autumn", "Winter", "Fall"]
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
]


def _pw(r: random.Random, url_safe: bool = False) -> str:
    sym = "!*-._~" if url_safe else "!$*+-.?_~@^="
    st = r.randrange(7)
    if st == 0:
        return f"{r.choice(_SEASONS)}{r.randint(2019, 2027)}{r.choice('!*.' if url_safe else '!$*@')}"
    if st == 1:
        a, b = r.sample(_WORDS, 2)
        return f"{a}-{b.capitalize()}-{r.randint(10, 99)}"
    if st == 2:
        n = r.randint(14, 24)
        while True:
            p = _s(r, n, AN + sym)
            if any(c.isdigit() for c in p) and any(c.isupper() for c in p) and any(c in sym for c in p):
                return p
    if st == 3:
        ws = r.sample(_WORDS, r.randint(4, 5))
        return r.choice("-._").join(ws) + str(r.randint(1, 9))
    if st == 4:
        return f"{r.choice(_PETS)}{r.choice('!*.')}{r.choice(_WORDS).capitalize()}{r.randint(1990, 2026)}"
    if st == 5:
        w = r.choice(_WORDS).capitalize()
        leet = w.replace("o", "0").replace("e", "3").replace("a", "@" if not url_safe else "4")
        return f"{leet}{r.randint(100, 9999)}{r.choice('!*')}"
    return f"{r.choice(_MONTHS)}{r.choice('_-.')}{r.choice(_PETS)}{r.randint(10, 99)}{r.choice('!*~')}"


_CLINICS = [
    "Harbourside Vet Hospital",
    "Northgate Animal Clinic",
    "Riverbend Veterinary Centre",
    "Oakfield Pet Hospital",
    "Westmere Emergency Vets",
    "Kingsway Veterinary Group",
    "Clearwater Animal Hospital",
    "Pinecrest Vet Clinic",
    "Bayview 24h Animal ER",
    "Eastwood Equine & Small Animal",
]
_CODES = ["HBS", "NGT", "RBD", "OKF", "WME", "KWY", "CLW", "PCR", "BVW", "EWD"]
_PEOPLE = [
    "Priya",
    "Tom",
    "Marta",
    "Joost",
    "Ayu",
    "Rahul",
    "Carmen",
    "Dr. Okafor",
    "Sanne",
    "Kasia",
    "Ben",
    "Lucia",
    "Dewi",
    "Aarav",
    "Megan",
]
_HOSTS = [
    "HBS-SRV01",
    "NGT-SQL01",
    "RBD-DC01",
    "vetgrp-app02",
    "pacs01.vetgroup.local",
    "ds1821.hbs.vetgroup.local",
    "OKF-RDS01",
    "KWY-FS01",
    "backup-ds923.vetgroup.local",
    "mgmt01.contractor.internal",
]


def _ctx(r: random.Random) -> dict:
    i = r.randrange(len(_CLINICS))
    a, b = r.sample(_PEOPLE, 2)
    return {
        "clinic": _CLINICS[i],
        "code": _CODES[i],
        "p1": a,
        "p2": b,
        "date": f"2026-{r.randint(1, 11):02d}-{r.randint(1, 28):02d}",
        "time": f"{r.randint(7, 19):02d}:{r.randint(0, 59):02d}",
        "ticket": r.randint(1200, 9899),
        "host": r.choice(_HOSTS),
        "ip": f"10.{r.randint(10, 60)}.{r.randint(0, 9)}.{r.randint(2, 250)}",
        "rid": _uuid(r),
    }


# --------------------------------------------------------------------------- kinds
class K:
    def __init__(
        self,
        name,
        cat,
        gen,
        var,
        label,
        *,
        user=None,
        hdr=None,
        api=None,
        login=None,
    ):
        self.name = name
        self.cat = cat  # tok | pw | url | pem
        self.gen = gen  # r -> (secret, snippet)
        self.var = var  # list of variable names
        self.label = label
        self.user = user  # list of usernames (pw kinds) or None
        self.hdr = hdr  # "Authorization: Bearer {}" etc.
        self.api = api  # api url for curl dumps
        self.login = login  # command format with {user} {pw} {host} {ip}


def _tok(f):
    def g(r):
        v = f(r)
        return v, v

    return g


def _pwg(url_safe=False):
    def g(r):
        p = _pw(r, url_safe)
        return p, p

    return g


def _pem(kind_label: str, der_prefix: bytes, nbytes: int, width: int = 64):
    def g(r):
        body = base64.b64encode(der_prefix + _rb(r, nbytes)).decode()
        block = (
            "-----BEGIN " + kind_label + " KEY-----\n" + _wrap(body, width) + "\n-----END " + kind_label + " KEY-----"
        )
        return block, block

    return g


def _openssh(r):
    raw = b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
    body = base64.b64encode(raw + _rb(r, r.choice([290, 360]))).decode()
    lab = "OPENSSH PRIVATE" + " KEY-----"
    block = "-----BEGIN " + lab + "\n" + _wrap(body, 70) + "\n-----END " + lab
    return block, block


def _conn_mssql(r):
    p = _pw(r)
    db = r.choice(["ezyvet_sync", "CornerstoneReports", "LabBridge", "VetBI", "DrugLog"])
    h = r.choice(["NGT-SQL01", "sql01.vetgroup.local", "vetgrp-sql.database.windows.net"])
    u = r.choice(["svc_labbridge", "sa", "reporting_ro", "svc_druglog"])
    s = f"Server=tcp:{h},1433;Database={db};User Id={u};Password={p};Encrypt=True;TrustServerCertificate=True;"
    return p, s


def _conn_pg(r):
    p = _pw(r, True)
    u = r.choice(["booking", "vetology_sync", "claims_app", "metabase"])
    s = f"postgres{r.choice(['', 'ql'])}://{u}:{p}@{r.choice(['db01', 'pg.vetgroup.local', '10.20.4.11'])}:5432/{r.choice(['claims', 'booking', 'bi'])}"
    return p, s


def _conn_redis(r):
    p = _s(r, r.choice([24, 32]), AN)
    s = f"redis://:{p}@{r.choice(['cache01', 'redis.vetgroup.local', '10.20.4.15'])}:6379/{r.randint(0, 3)}"
    return p, s


def _conn_cstone(r):
    p = _pw(r)
    s = f"DSN=Cornerstone;UID={r.choice(['dba', 'cs_report', 'idexx_link'])};PWD={p};ENG=cstone_{r.choice(_CODES).lower()};LINKS=tcpip(host={r.choice(_HOSTS)})"
    return p, s


def _rtsp(r):
    p = _pw(r, True)
    s = f"rtsp://{r.choice(['admin', 'viewer', 'nvr'])}:{p}@10.{r.randint(10, 60)}.{r.randint(20, 30)}.{r.randint(2, 250)}:554/Streaming/Channels/{r.choice([101, 102, 201])}"
    return p, s


def _ftp(r):
    p = _pw(r, True)
    s = f"{r.choice(['ftp', 'ftps'])}://{r.choice(['scanner', 'xray', 'dr_panel'])}:{p}@{r.choice(['ds1821.hbs.vetgroup.local', '10.20.1.5'])}/{r.choice(['scans', 'dicom-in', 'xray_export'])}"
    return p, s


def _dicomweb(r):
    p = _pw(r, True)
    s = f"https://{r.choice(['orthanc', 'pacs', 'dicomweb'])}:{p}@{r.choice(['pacs01.vetgroup.local', 'imaging.vetgroup.net'])}/dicom-web/studies"
    return p, s


def _slack(r):
    t = _s(r, 24)
    s = "https://hooks." + "slack.com/services/T" + _s(r, 8, UP) + "/B" + _s(r, 10, UP) + "/" + t
    return t, s


def _teams(r):
    t = "V2" + _s(r, 43, B64U)
    s = (
        f"https://vetgroup.webhook.office.com/webhook{'b2'}/{_uuid(r)}@{_uuid(r)}"
        f"/IncomingWebhook/{_hex(r, 32)}/{_uuid(r)}/{t}"
    )
    return t, s


def _discord(r):
    t = _s(r, 68, B64U)
    s = "https://discord.com/api/" + "webhooks/" + str(r.randint(10**17, 10**18)) + "/" + t
    return t, s


def _zapier(r):
    t = _s(r, 7, LO)
    s = "https://hooks." + "zapier.com/hooks/catch/" + str(r.randint(10**6, 10**8)) + "/" + t + "/"
    return t, s


def _sas(r):
    sig = urllib.parse.quote(_b64(r, 32), safe="")
    s = (
        f"https://{r.choice(['vetgrpbackup', 'hbsimaging', 'vetgrparchive'])}.blob.core.windows.net/"
        f"{r.choice(['sqlbackups', 'dicom-archive', 'exports'])}/{r.choice(['VetBI_full.bak', 'study_export.zip', 'ezyvet_2026.csv'])}"
        f"?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-{r.randint(10, 28)}T18:00:00Z"
        f"&st=2026-12-0{r.randint(1, 9)}T09:00:00Z&spr=https&sig={sig}"
    )
    return sig, s


def _gcs(r):
    sig = _hex(r, 512)
    s = (
        f"https://storage.googleapis.com/{r.choice(['vetgrp-telehealth', 'vetgrp-exports'])}/"
        f"{r.choice(['recordings/consult_', 'exports/claims_'])}{r.randint(1000, 9999)}.{r.choice(['mp4', 'csv'])}"
        "?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=telehealth-signer%40vetgrp-prod.iam.gserviceaccount.com"
        f"%2F202612{r.randint(10, 28)}%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=202612{r.randint(10, 28)}T101500Z"
        f"&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return sig, s


def _azconn(r):
    k = _b64(r, 64)
    s = (
        f"DefaultEndpointsProtocol=https;AccountName={r.choice(['vetgrpbackup', 'hbsimaging', 'vetgrpwp'])};"
        f"AccountKey={k};EndpointSuffix=core.windows.net"
    )
    return k, s


def _stripe_sk(r):
    return "sk" + "_live_" + ("51" + _s(r, 97) if r.random() < 0.6 else _s(r, 24))


def _entra(r):
    while True:
        v = _s(r, 3) + r.choice("78") + "Q" + "~" + _s(r, 34, AN + "_~.-")
        if v[-1] not in ".-~":
            return v


def _wp_app(r):
    return " ".join(_s(r, 4) for _ in range(6))


def _wp_salt(r):
    return _s(r, 64, AN + "!@%^*()-_=+[]{}|:,.?~")


def _bitlocker(r):
    return "-".join(f"{r.randint(0, 65535) * 11:06d}" for _ in range(8))


def _openai(r):
    return "sk-" + "proj-" + _s(r, 74, B64U) + "T3Blbk" + "FJ" + _s(r, 74, B64U)


_KINDS = [
    K(
        "stripe_secret_key",
        "tok",
        _tok(_stripe_sk),
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
        "Stripe live secret key",
        hdr="Authorization: Bearer {}",
        api="https://api.stripe.com/v1/charges?limit=3",
    ),
    K(
        "stripe_restricted_key",
        "tok",
        _tok(lambda r: "rk" + "_live_" + "51" + _s(r, 97)),
        ["STRIPE_RESTRICTED_KEY"],
        "Stripe restricted key (read-only payouts)",
        hdr="Authorization: Bearer {}",
        api="https://api.stripe.com/v1/payouts",
    ),
    K(
        "stripe_webhook_secret",
        "tok",
        _tok(lambda r: "wh" + "sec_" + _s(r, 32)),
        ["STRIPE_WEBHOOK_SECRET"],
        "Stripe webhook signing secret",
    ),
    K(
        "square_access_token",
        "tok",
        _tok(lambda r: "EA" + "AA" + _s(r, 60, B64U)),
        ["SQUARE_ACCESS_TOKEN"],
        "Square production access token",
        hdr="Authorization: Bearer {}",
        api="https://connect.squareup.com/v2/locations",
    ),
    K(
        "square_oauth_secret",
        "tok",
        _tok(lambda r: "sq0" + "csp-" + _s(r, 43, B64U)),
        ["SQUARE_APP_SECRET"],
        "Square OAuth application secret",
    ),
    K(
        "adyen_api_key",
        "tok",
        _tok(lambda r: "AQE" + _s(r, 97, B64) + "==-" + _s(r, 43, B64) + "=-" + _s(r, 16, AN + "+/=")),
        ["ADYEN_API_KEY"],
        "Adyen API key (terminal API)",
        hdr="X-API-Key: {}",
        api="https://terminal-api-live.adyen.com/sync",
    ),
    K(
        "adyen_hmac_key",
        "tok",
        _tok(lambda r: _s(r, 64, "0123456789ABCDEF")),
        ["ADYEN_HMAC_KEY"],
        "Adyen notification HMAC key",
    ),
    K(
        "twilio_auth_token",
        "tok",
        _tok(lambda r: _hex(r, 32)),
        ["TWILIO_AUTH_TOKEN"],
        "Twilio auth token",
    ),
    K(
        "twilio_api_key_secret",
        "tok",
        _tok(lambda r: _s(r, 32)),
        ["TWILIO_API_SECRET"],
        "Twilio API key secret (reminder SMS)",
    ),
    K(
        "sendgrid_api_key",
        "tok",
        _tok(lambda r: "SG" + "." + _s(r, 22, B64U) + "." + _s(r, 43, B64U)),
        ["SENDGRID_API_KEY"],
        "SendGrid API key",
        hdr="Authorization: Bearer {}",
        api="https://api.sendgrid.com/v3/mail/send",
    ),
    K(
        "entra_client_secret",
        "tok",
        _tok(_entra),
        ["AZURE_CLIENT_SECRET", "ENTRA_CLIENT_SECRET"],
        "Entra ID app registration client secret",
    ),
    K(
        "google_oauth_client_secret",
        "tok",
        _tok(lambda r: "GOCSPX" + "-" + _s(r, 28, B64U)),
        ["GOOGLE_CLIENT_SECRET"],
        "Google Workspace OAuth client secret",
    ),
    K(
        "github_pat",
        "tok",
        _tok(lambda r: "gh" + "p_" + _s(r, 36)),
        ["GITHUB_TOKEN", "GH_TOKEN"],
        "GitHub personal access token",
        hdr="Authorization: token {}",
        api="https://api.github.com/repos/vetgroup/wp-theme",
    ),
    K(
        "github_fine_grained_pat",
        "tok",
        _tok(lambda r: "github" + "_pat_" + _s(r, 22) + "_" + _s(r, 59)),
        ["GH_FINE_GRAINED_TOKEN"],
        "GitHub fine-grained token",
        hdr="Authorization: Bearer {}",
        api="https://api.github.com/repos/vetgroup/labbridge/actions/runs",
    ),
    K(
        "gitlab_pat",
        "tok",
        _tok(lambda r: "glp" + "at-" + _s(r, 20, B64U)),
        ["GITLAB_TOKEN"],
        "GitLab access token (contractor repo)",
        hdr="PRIVATE-TOKEN: {}",
        api="https://gitlab.contractor.example/api/v4/projects",
    ),
    K(
        "openai_api_key",
        "tok",
        _tok(_openai),
        ["OPENAI_API_KEY"],
        "OpenAI key (consult-note summariser)",
        hdr="Authorization: Bearer {}",
        api="https://api.openai.com/v1/models",
    ),
    K(
        "anthropic_api_key",
        "tok",
        _tok(lambda r: "sk-" + "ant-" + "api03-" + _s(r, 93, B64U) + "AA"),
        ["ANTHROPIC_API_KEY"],
        "Anthropic API key (triage assistant)",
        hdr="x-api-key: {}",
        api="https://api.anthropic.com/v1/messages",
    ),
    K(
        "telegram_bot_token",
        "tok",
        _tok(lambda r: str(r.randint(10**9, 8 * 10**9)) + ":AA" + _s(r, 33, B64U)),
        ["TELEGRAM_BOT_TOKEN"],
        "Telegram bot token (freezer temperature alerts)",
    ),
    K(
        "meraki_api_key",
        "tok",
        _tok(lambda r: _hex(r, 40)),
        ["MERAKI_DASHBOARD_API_KEY"],
        "Meraki Dashboard API key",
        hdr="X-Cisco-Meraki-API-Key: {}",
        api="https://api.meraki.com/api/v1/organizations",
    ),
    K(
        "cloudflare_api_token",
        "tok",
        _tok(lambda r: _s(r, 40, B64U)),
        ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
        "Cloudflare API token (WordPress DNS)",
        hdr="Authorization: Bearer {}",
        api="https://api.cloudflare.com/client/v4/user/tokens/verify",
    ),
    K(
        "mailchimp_api_key",
        "tok",
        _tok(lambda r: _hex(r, 32) + "-us" + str(r.randint(2, 21))),
        ["MAILCHIMP_API_KEY"],
        "Mailchimp API key (client newsletter)",
    ),
    K(
        "postmark_server_token",
        "tok",
        _tok(_uuid),
        ["POSTMARK_SERVER_TOKEN"],
        "Postmark server token",
        hdr="X-Postmark-Server-Token: {}",
        api="https://api.postmarkapp.com/email",
    ),
    K(
        "datadog_api_key",
        "tok",
        _tok(lambda r: _hex(r, 32)),
        ["DD_API_KEY"],
        "Datadog API key (contractor monitoring)",
        hdr="DD-API-KEY: {}",
        api="https://api.datadoghq.eu/api/v1/validate",
    ),
    K(
        "sentry_auth_token",
        "tok",
        _tok(lambda r: "sntr" + "yu_" + _hex(r, 64)),
        ["SENTRY_AUTH_TOKEN"],
        "Sentry auth token (release uploads)",
        hdr="Authorization: Bearer {}",
        api="https://sentry.io/api/0/organizations/vetgroup/releases/",
    ),
    K(
        "docker_hub_pat",
        "tok",
        _tok(lambda r: "dckr" + "_pat_" + _s(r, 27, B64U)),
        ["DOCKERHUB_TOKEN"],
        "Docker Hub access token",
    ),
    K(
        "backblaze_b2_application_key",
        "tok",
        _tok(lambda r: "K00" + r.choice("45") + _s(r, 27)),
        ["B2_APPLICATION_KEY"],
        "Backblaze B2 application key (offsite Hyper Backup)",
    ),
    K(
        "aws_secret_access_key",
        "tok",
        _tok(lambda r: _s(r, 40, AN + "/+")),
        ["AWS_SECRET_ACCESS_KEY"],
        "AWS secret access key (S3 Glacier target)",
    ),
    K(
        "ezyvet_client_secret",
        "tok",
        _tok(lambda r: _s(r, 64)),
        ["EZYVET_CLIENT_SECRET"],
        "ezyVet API client_secret",
    ),
    K(
        "provet_cloud_api_token",
        "tok",
        _tok(lambda r: _hex(r, 40)),
        ["PROVET_API_TOKEN"],
        "Provet Cloud API token",
        hdr="Authorization: Token {}",
        api="https://provetcloud.com/4821/api/0.1/consultation/",
    ),
    K(
        "vetstoria_api_key",
        "tok",
        _tok(lambda r: _s(r, 32)),
        ["VETSTORIA_API_KEY"],
        "Vetstoria partner API key",
        hdr="X-Api-Key: {}",
        api="https://api.vetstoria.com/v2/appointments",
    ),
    K(
        "petdesk_api_key",
        "tok",
        _tok(lambda r: _s(r, 40)),
        ["PETDESK_API_KEY"],
        "PetDesk integration API key",
        hdr="X-Api-Key: {}",
        api="https://integrations.petdesk.com/api/reminders",
    ),
    K(
        "idexx_api_key",
        "tok",
        _tok(lambda r: _s(r, 32, LO)),
        ["IDEXX_API_KEY"],
        "IDEXX VetConnect PLUS API key",
        hdr="X-Api-Key: {}",
        api="https://integration.vetconnectplus.com/api/v1/results",
    ),
    K(
        "antech_api_token",
        "tok",
        _tok(_uuid),
        ["ANTECH_API_TOKEN"],
        "Antech lab API token",
        hdr="Authorization: Bearer {}",
        api="https://api.antechdiagnostics.com/v1/orders",
    ),
    K(
        "vetology_api_key",
        "tok",
        _tok(lambda r: _s(r, 48)),
        ["VETOLOGY_API_KEY"],
        "Vetology AI reads API key",
        hdr="X-Api-Key: {}",
        api="https://api.vetology.net/v1/cases",
    ),
    K(
        "pet_insurance_api_key",
        "tok",
        _tok(lambda r: _hex(r, 40)),
        ["CLAIMS_API_KEY", "PETINS_API_KEY"],
        "pet-insurance claims API key",
        hdr="Ocp-Apim-Subscription-Key: {}",
        api="https://claims-api.petinsure.example/v2/claims",
    ),
    K(
        "zoom_client_secret",
        "tok",
        _tok(lambda r: _s(r, 32)),
        ["ZOOM_CLIENT_SECRET"],
        "Zoom server-to-server OAuth client secret (telehealth)",
    ),
    K(
        "daily_api_key",
        "tok",
        _tok(lambda r: _hex(r, 64)),
        ["DAILY_API_KEY"],
        "Daily.co API key (video consults)",
        hdr="Authorization: Bearer {}",
        api="https://api.daily.co/v1/rooms",
    ),
    K(
        "wordpress_application_password",
        "tok",
        _tok(_wp_app),
        ["WP_APP_PASSWORD"],
        "WordPress application password (for user 'booking-sync')",
    ),
    K(
        "wordpress_auth_key",
        "tok",
        _tok(_wp_salt),
        ["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_SALT"],
        "WordPress auth salt",
    ),
    K(
        "jwt_signing_secret",
        "tok",
        _tok(lambda r: _s(r, r.choice([48, 64]), AN)),
        ["JWT_SECRET", "JWT_SIGNING_KEY"],
        "JWT signing secret of the client portal",
    ),
    K(
        "bitlocker_recovery_key",
        "tok",
        _tok(_bitlocker),
        ["BITLOCKER_RECOVERY"],
        "BitLocker recovery key",
    ),
    K(
        "azure_storage_account_key",
        "url",
        _azconn,
        ["AZURE_STORAGE_CONNECTION_STRING"],
        "Azure storage connection string",
    ),
    K("azure_sas_signature", "url", _sas, ["BACKUP_SAS_URL"], "Azure blob SAS URL"),
    K(
        "gcs_signed_url_signature",
        "url",
        _gcs,
        ["SIGNED_URL"],
        "GCS signed URL for the recording",
    ),
    K(
        "slack_webhook",
        "url",
        _slack,
        ["SLACK_WEBHOOK_URL"],
        "Slack incoming webhook (#it-alerts)",
    ),
    K(
        "teams_webhook",
        "url",
        _teams,
        ["TEAMS_WEBHOOK_URL"],
        "Teams incoming webhook (Clinic Managers channel)",
    ),
    K(
        "discord_webhook",
        "url",
        _discord,
        ["DISCORD_WEBHOOK"],
        "Discord webhook (contractor on-call)",
    ),
    K(
        "zapier_webhook",
        "url",
        _zapier,
        ["ZAPIER_HOOK_URL"],
        "Zapier catch hook (new booking -> sheet)",
    ),
    K(
        "mssql_connection_password",
        "url",
        _conn_mssql,
        ["ConnectionStrings__Default", "SQL_CONN"],
        "SQL Server connection string",
    ),
    K("postgres_url_password", "url", _conn_pg, ["DATABASE_URL"], "Postgres URL"),
    K(
        "redis_url_password",
        "url",
        _conn_redis,
        ["REDIS_URL"],
        "Redis URL (booking cache)",
    ),
    K(
        "cornerstone_odbc_password",
        "url",
        _conn_cstone,
        ["CSTONE_ODBC"],
        "Cornerstone ODBC string",
    ),
    K(
        "rtsp_camera_password",
        "url",
        _rtsp,
        ["CAMERA_URL", "RTSP_URL"],
        "IP camera RTSP stream",
    ),
    K(
        "ftp_url_password",
        "url",
        _ftp,
        ["SCAN_TARGET"],
        "scanner / X-ray export FTP target",
    ),
    K(
        "dicomweb_basic_auth_password",
        "url",
        _dicomweb,
        ["DICOMWEB_URL"],
        "DICOMweb endpoint",
    ),
    K(
        "sql_server_sa_password",
        "pw",
        _pwg(),
        ["MSSQL_SA_PASSWORD", "SA_PASSWORD"],
        "SQL Server sa login",
        user=["sa"],
        login="sqlcmd -S {host} -U {user} -P '{pw}' -Q \"SELECT @@VERSION\"",
    ),
    K(
        "windows_local_admin_password",
        "pw",
        _pwg(),
        ["LOCAL_ADMIN_PASSWORD"],
        "local Administrator on the clinic PCs",
        user=[".\\Administrator", ".\\vetadmin", "vgadmin"],
        login="net use \\\\{host}\\c$ /user:{user} {pw}",
    ),
    K(
        "domain_admin_password",
        "pw",
        _pwg(),
        ["DOMAIN_ADMIN_PASSWORD"],
        "domain admin account",
        user=[
            "VETGRP\\adm-contractor",
            "VETGRP\\Administrator",
            "adm.joost@vetgroup.local",
        ],
        login="$c = New-Object PSCredential('{user}', (ConvertTo-SecureString '{pw}' -AsPlainText -Force))",
    ),
    K(
        "m365_admin_password",
        "pw",
        _pwg(),
        ["M365_ADMIN_PASSWORD"],
        "Microsoft 365 global admin",
        user=["admin@vetgroup.onmicrosoft.com", "it-breakglass@vetgroup.com.au"],
    ),
    K(
        "google_workspace_admin_password",
        "pw",
        _pwg(),
        ["GWS_ADMIN_PASSWORD"],
        "Google Workspace super admin",
        user=["superadmin@vetgroup.co", "it@bayviewanimaler.com"],
    ),
    K(
        "synology_admin_password",
        "pw",
        _pwg(),
        ["SYNO_PASSWORD", "NAS_PASSWORD"],
        "Synology DSM admin",
        user=["nasadmin", "itadmin", "contractor"],
        login="sshpass -p '{pw}' ssh -p 2222 {user}@{ip}",
    ),
    K(
        "hyper_backup_encryption_password",
        "pw",
        _pwg(),
        ["HB_ENCRYPTION_PASSWORD"],
        "Hyper Backup client-side encryption password",
    ),
    K(
        "unifi_controller_password",
        "pw",
        _pwg(),
        ["UNIFI_PASSWORD"],
        "UniFi Network controller",
        user=["unifiadmin", "contractor-it", "vg-netadmin"],
    ),
    K(
        "ldap_bind_password",
        "pw",
        _pwg(),
        ["LDAP_BIND_PASSWORD"],
        "LDAP bind account (NAS + Wi-Fi)",
        user=[
            "CN=svc-ldap,OU=Service,DC=vetgroup,DC=local",
            "svc_ldapbind@vetgroup.local",
        ],
        login="ldapsearch -H ldaps://{host} -D '{user}' -w '{pw}' -b 'DC=vetgroup,DC=local' '(sAMAccountName=kasia)'",
    ),
    K(
        "smtp_relay_password",
        "pw",
        _pwg(),
        ["SMTP_PASSWORD"],
        "SMTP relay for the scanners / PACS reports",
        user=["scanner@vetgroup.com", "pacs-reports@vetgroup.com"],
        login="swaks --to it@vetgroup.com --server smtp.office365.com:587 --tls --auth-user {user} --auth-password '{pw}'",
    ),
    K(
        "mysql_wordpress_db_password",
        "pw",
        _pwg(),
        ["DB_PASSWORD", "WORDPRESS_DB_PASSWORD"],
        "WordPress MySQL user",
        user=["wp_vetgroup", "wpuser_live"],
        login="mysql -h 127.0.0.1 -u {user} -p'{pw}' wp_live -e 'SHOW TABLES;'",
    ),
    K(
        "sftp_password",
        "pw",
        _pwg(),
        ["SFTP_PASSWORD"],
        "SFTP for the WordPress host",
        user=["vetgroup-live", "wpdeploy"],
        login="lftp -u {user},'{pw}' sftp://{host}",
    ),
    K(
        "anydesk_unattended_password",
        "pw",
        _pwg(),
        ["ANYDESK_PASSWORD"],
        "AnyDesk unattended-access password",
        login='echo {pw} | "C:\\Program Files (x86)\\AnyDesk\\AnyDesk.exe" --set-password',
    ),
    K(
        "pfx_export_password",
        "pw",
        _pwg(),
        ["PFX_PASSWORD", "CERT_PASSWORD"],
        "PFX password for the wildcard cert",
        login="openssl pkcs12 -in wildcard_vetgroup_2026.pfx -nodes -passin pass:{pw} -nokeys",
    ),
    K(
        "controlled_drug_register_password",
        "pw",
        _pwg(),
        ["DRUGLOG_PASSWORD"],
        "controlled-drug register (e-CD log) login",
        user=["locum1", "nurse.lead", "dr.okafor"],
    ),
    K(
        "label_printer_admin_password",
        "pw",
        _pwg(),
        ["PRINTER_ADMIN_PASSWORD"],
        "label printer web admin (Zebra ZD421 / Brother QL)",
        user=["admin"],
    ),
    K(
        "pacs_admin_password",
        "pw",
        _pwg(),
        ["PACS_ADMIN_PASSWORD"],
        "Asteris Keystone PACS admin",
        user=["keystone_admin", "pacsadmin"],
    ),
    K(
        "idexx_vetconnect_password",
        "pw",
        _pwg(),
        ["VCP_PASSWORD"],
        "IDEXX VetConnect PLUS portal",
        user=["labs@northgatevets.com", "reception.hbs"],
    ),
    K(
        "worldpay_xml_password",
        "pw",
        _pwg(),
        ["WORLDPAY_XML_PASSWORD"],
        "Worldpay XML direct password",
        user=["VETGROUPECOM", "VETGRPMOTO"],
    ),
    K(
        "wifi_psk",
        "pw",
        _pwg(),
        ["WIFI_PSK"],
        "staff Wi-Fi WPA2 passphrase",
        user=["VG-Staff", "HBS-Clinical", "NGT-Staff-5G"],
        login='nmcli dev wifi connect "{user}" password "{pw}"',
    ),
    K(
        "radius_shared_secret",
        "pw",
        _tok(lambda r: _s(r, r.choice([22, 32]), AN + "!*-_")),
        ["RADIUS_SECRET"],
        "RADIUS shared secret (Meraki <-> NPS)",
    ),
    K(
        "snmp_community",
        "pw",
        _pwg(),
        ["SNMP_COMMUNITY"],
        "SNMP v2c community for the switches",
    ),
    K("meraki_vpn_psk", "pw", _pwg(), ["VPN_PSK"], "Meraki client VPN shared secret"),
    K(
        "openssh_private_key",
        "pem",
        _openssh,
        ["DEPLOY_SSH_KEY"],
        "deploy SSH key (WordPress host)",
    ),
    K(
        "rsa_private_key",
        "pem",
        _pem("RSA PRIVATE", b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00", 1180),
        ["SAML_SIGNING_KEY"],
        "RSA private key (Vetology upload signing)",
    ),
    K(
        "ec_private_key",
        "pem",
        _pem("EC PRIVATE", b"\x30\x77\x02\x01\x01\x04\x20", 114),
        ["APNS_KEY"],
        "EC private key (client app push)",
    ),
    K(
        "pkcs8_private_key",
        "pem",
        _pem("PRIVATE", b"\x30\x82\x04\xbe\x02\x01\x00\x30\x0d\x06\x09", 1205),
        ["GOOGLE_SA_PRIVATE_KEY"],
        "Workspace service-account private key",
    ),
]


# --------------------------------------------------------------------------- positive templates
def _cred(r, k, v, c):
    u = c["user"]
    if k.cat == "pem":
        return "\n\n" + v + "\n\n"
    if k.name == "wifi_psk":
        return r.choice([f"SSID {u} / {v}", f"{u} -> passphrase: {v}", f"network {u}, key {v}"])
    if u:
        return r.choice(
            [
                f"{u} / {v}",
                f"user `{u}`, password `{v}`",
                f"login {u} pw: {v}",
                f"{u} + {v}",
            ]
        )
    return r.choice([v, f"`{v}`", f"{v} "]).strip() if k.cat != "url" else v


def _end(s):
    return s if s.endswith("\n") else s + " "


def p_note(r, k, v, c):
    return f"{c['code']} note: {k.label} for {c['clinic']}: {c['cred']}" + r.choice(
        [
            "",
            " (rotated last week)",
            "\nkeep in mind it is shared by all sites",
            " - do not give to locums",
        ]
    )


def p_lesson(r, k, v, c):
    return (
        f"Lesson ({c['date']}): {k.label} failed with 401 after the {r.choice(['ezyVet upgrade', 'tenant move', 'NAS swap', 'DSM 7.2 update'])}; "
        f"we were still using the old value. Current working value is {_end(c['cred'])}"
        f"- check this first before opening a vendor ticket."
    )


def p_runbook(r, k, v, c):
    return (
        f"Runbook: restore {r.choice(['lab results sync', 'reminder SMS', 'PACS forwarding', 'card terminals'])} at {c['clinic']}\n"
        f"1. RDP to {c['host']} as the contractor account\n"
        f"2. Stop the '{r.choice(['LabBridge', 'ReminderWorker', 'DicomRouter', 'PayBridge'])}' service\n"
        f"3. Set {c['var']} to {_end(c['cred'])}\n"
        "4. Start the service and watch the log for 5 minutes\n"
        f"5. Tell {c['p1']} on the clinic channel"
    )


def p_todo(r, k, v, c):
    return (
        f"TODO ({c['p1']}): move the {k.label} out of this memory into the vault. "
        f"Value for now: {_end(c['cred'])}- then delete this line."
    )


def p_handover(r, k, v, c):
    return (
        f"Handover {c['p1']} -> {c['p2']} ({c['date']})\n"
        f"- {c['clinic']}: {r.choice(['Cornerstone', 'ezyVet', 'Provet Cloud'])} is stable, IDEXX results flowing again\n"
        f"- {k.label}: {_end(c['cred'])}\n"
        f"- open: {r.choice(['replace UPS battery in comms room', 'Vetstoria double bookings', 'label printer offline at reception', 'Hyper Backup warning on rotation'])}"
    )


def p_ticket(r, k, v, c):
    return (
        f"Ticket #{c['ticket']} [{c['code']}] {r.choice(['Reminders not sending', 'Lab results missing', 'Card terminal offline', 'Backups failing'])}\n"
        f"Reported by {c['p1']} at {c['time']}.\n"
        f"Resolution: credential had expired. Updated {c['var']} on {c['host']} to {_end(c['cred'])}\n"
        "Status: resolved, monitoring."
    )


def p_email(r, k, v, c):
    return (
        f"From: {c['p1']} <it@vetgroup-contractor.com>\nTo: practice.manager@{c['code'].lower()}.vetgroup.com\n"
        f"Subject: {k.label} - {c['clinic']}\n\n"
        f"Hi {c['p2']},\n\nAs requested, here is the {k.label}: {_end(c['cred'])}\n"
        "Please store it in the binder in the locked office, not on the reception PC.\n\nThanks,\n" + c["p1"]
    )


def p_chat(r, k, v, c):
    return (
        f"[{c['time']}] {c['p1']}: anyone have the {k.label}? {c['clinic']} is down\n"
        f"[{c['time']}] {c['p2']}: {c['cred'].strip() if k.cat != 'pem' else c['cred']}\n"
        f"[{c['time']}] {c['p1']}: thx, works"
    )


def p_decision(r, k, v, c):
    return (
        f"Decision {c['date']}: we keep a single {k.label} for all {r.randint(4, 12)} clinics until the "
        f"Entra migration. It is {_end(c['cred'])}and lives in {c['var']} on {c['host']}."
    )


def p_es(r, k, v, c):
    return (
        f"Nota ({c['clinic']}): la {'contraseña' if k.cat == 'pw' else 'clave'} de {k.label} es {_end(c['cred'])}"
        "- no enviarla por WhatsApp, pasarla al gestor de contraseñas."
    )


def p_nl(r, k, v, c):
    return (
        f"Let op: {k.label} voor {c['clinic']} is {_end(c['cred'])}"
        f"- {c['p1']} zet dit nog in de kluis, daarna deze notitie weghalen."
    )


def p_pl(r, k, v, c):
    return (
        f"Notatka ({c['date']}): {'hasło' if k.cat == 'pw' else 'klucz'} {k.label} dla {c['clinic']}: {_end(c['cred'])}"
        "- przenieść do sejfu haseł."
    )


def p_id(r, k, v, c):
    return (
        f"Catatan: {'kata sandi' if k.cat == 'pw' else 'kunci'} {k.label} untuk {c['clinic']} adalah {_end(c['cred'])}"
        "- jangan dibagikan ke grup WhatsApp klinik."
    )


def p_hi(r, k, v, c):
    return (
        f"नोट: {c['clinic']} के लिए {k.label} {'का पासवर्ड' if k.cat == 'pw' else 'की key'}: {_end(c['cred'])}"
        "- इसे vault में डालना है, reception PC पर मत रखना।"
    )


def _userline(c, fmt):
    return fmt.format(c["var"].rsplit("_", 1)[0] + "_" + c["ukey"].upper(), c["user"]) if c["user"] else ""


def c_env(r, k, v, c):
    if k.cat == "pem":
        return f'# {c["clinic"]} deploy env\nAPP_ENV=production\n{c["var"]}="{v}"\nLOG_LEVEL=info\n'
    return (
        f"# .env for {r.choice(['labbridge', 'reminder-worker', 'booking-sync', 'claims-bridge', 'wp-deploy'])} ({c['code']})\n"
        f"APP_ENV=production\nCLINIC_CODE={c['code']}\nTZ=Australia/Sydney\n"
        + _userline(c, "{}={}\n")
        + f"{c['var']}={v}\nLOG_LEVEL={r.choice(['info', 'warn', 'debug'])}\n"
    )


def c_json(r, k, v, c):
    u = c["user"].replace("\\", "\\\\") if c["user"] else None
    user = f'    "{c["ukey"]}": "{u}",\n' if u else ""
    return (
        "{\n"
        f'  "clinic": "{c["code"]}",\n  "service": "{r.choice(["labbridge", "reminders", "payments", "imaging"])}",\n'
        f'  "settings": {{\n{user}    "{c["var"].lower()}": "{v}",\n    "timeoutSeconds": {r.choice([15, 30, 60])}\n  }}\n'
        "}"
    )


def _yq(v):
    if v[0] in "!&*[]{}|>@`%,?:-#'\"" or ": " in v or " #" in v or v[-1] == ":":
        return f"'{v}'"
    return v


def c_yaml(r, k, v, c):
    user = f"    {c['ukey']}: {c['user']}\n" if c["user"] else ""
    return (
        f"# {r.choice(['ansible host_vars', 'helm values', 'service config'])} - {c['host']}\n"
        f"clinic: {c['code']}\nintegration:\n  name: {r.choice(['idexx', 'vetstoria', 'petdesk', 'adyen', 'nas-backup'])}\n"
        f"  auth:\n{user}    {c['var'].lower()}: {_yq(v)}\n  retries: {r.randint(2, 6)}\n"
    )


def c_ini(r, k, v, c):
    user = f"{c['ukey']} = {c['user']}\n" if c["user"] else ""
    return (
        f"; {r.choice(['LabBridge.ini', 'DicomRouter.ini', 'sync.conf', 'PayBridge.ini'])} on {c['host']}\n"
        f"[general]\nclinic = {c['code']}\npoll_interval = {r.choice([30, 60, 120])}\n\n"
        f"[{r.choice(['auth', 'credentials', 'remote'])}]\n{user}{c['var'].lower()} = {v}\n"
    )


def c_xml(r, k, v, c):
    x = v.replace("&", "&amp;")
    user = f'    <add key="{c["var"]}_{c["ukey"].capitalize()}" value="{c["user"]}" />\n' if c["user"] else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <appSettings>\n'
        f'    <add key="ClinicCode" value="{c["code"]}" />\n{user}'
        f'    <add key="{c["var"]}" value="{x}" />\n  </appSettings>\n</configuration>'
    )


def c_ps(r, k, v, c):
    user = f"$env:{c['var']}_{c['ukey'].upper()} = '{c['user']}'\n" if c["user"] else ""
    return (
        f"# Microsoft.PowerShell_profile.ps1 ({c['p1']} on {c['host']})\n"
        "Import-Module ActiveDirectory\nSet-Location C:\\Scripts\n"
        f"{user}$env:{c['var']} = '{v}'\n"
        f"function Sync-Labs {{ & C:\\Scripts\\Sync-Labs.ps1 -Clinic {c['code']} }}\n"
    )


def c_compose(r, k, v, c):
    return (
        f"services:\n  {r.choice(['labbridge', 'reminders', 'booking-sync', 'wordpress', 'claims'])}:\n"
        f"    image: registry.vetgroup.local/{r.choice(['labbridge', 'worker', 'wp'])}:{r.randint(1, 4)}.{r.randint(0, 20)}\n"
        "    restart: unless-stopped\n    environment:\n"
        f"      - CLINIC={c['code']}\n"
        + (f"      - {c['var']}_{c['ukey'].upper()}={c['user']}\n" if c["user"] else "")
        + f"      - {c['var']}={v}\n"
    )


def c_php(r, k, v, c):
    user = f"define( '{c['var']}_{c['ukey'].upper()}', '{c['user']}' );\n" if c["user"] else ""
    return (
        "<?php\n// wp-config.php (vetgroup.com.au, staging copy)\n"
        f"define( 'WP_DEBUG', false );\ndefine( 'DB_NAME', 'wp_live' );\n{user}"
        f"define( '{c['var']}', '{v}' );\n$table_prefix = 'vg_';\n"
    )


def t_export(r, k, v, c):
    if k.cat == "pem":
        return (
            f"{c['p1'].split()[-1].lower()}@{c['host'].split('.')[0].lower()}:~$ cat ~/.ssh/{r.choice(['id_deploy', 'vetology_sign.key', 'sa.key', 'push.p8'])}\n"
            f"{v}\n{c['p1'].split()[-1].lower()}@{c['host'].split('.')[0].lower()}:~$ "
        )
    return (
        f"$ export {c['var']}='{v}'\n"
        f"$ ./{r.choice(['sync_labs.py', 'send_reminders.sh', 'check_terminals.py', 'push_backup.sh'])} --clinic {c['code']} --dry-run\n"
        f"[{c['time']}:0{r.randint(0, 9)}] loaded config for {c['clinic']}\n"
        f"[{c['time']}:1{r.randint(0, 9)}] dry run OK ({r.randint(3, 140)} records)"
    )


def t_pssession(r, k, v, c):
    return (
        f"PS C:\\Scripts> $env:{c['var']} = '{v}'\n"
        f"PS C:\\Scripts> .\\{r.choice(['Test-Integration.ps1', 'Sync-Labs.ps1', 'Invoke-Reminders.ps1'])} -Clinic {c['code']} -Verbose\n"
        f"VERBOSE: Connecting to {c['host']} ...\nVERBOSE: Auth OK\n"
        f"Status  : Healthy\nLatency : {r.randint(40, 900)} ms"
    )


def t_log(r, k, v, c):
    svc = r.choice(["labbridge", "reminder-worker", "paybridge", "dicom-router", "booking-sync"])
    return (
        f"Dec 0{r.randint(1, 6)} {c['time']}:0{r.randint(0, 9)} {c['host'].split('.')[0]} {svc}[{r.randint(900, 32000)}]: starting v{r.randint(1, 3)}.{r.randint(0, 9)}\n"
        f"Dec 0{r.randint(1, 6)} {c['time']}:1{r.randint(0, 9)} {c['host'].split('.')[0]} {svc}[{r.randint(900, 32000)}]: DEBUG config {c['var']}={v}\n"
        f"Dec 0{r.randint(1, 6)} {c['time']}:2{r.randint(0, 9)} {c['host'].split('.')[0]} {svc}[{r.randint(900, 32000)}]: connected, polling every 60s"
    )


def t_inspect(r, k, v, c):
    return (
        f"$ docker inspect {r.choice(['labbridge', 'reminders', 'wp-cron', 'claims'])} --format '{{{{json .Config.Env}}}}' | jq .\n"
        f'[\n  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",\n  "CLINIC={c["code"]}",\n'
        f'  "{c["var"]}={v}",\n  "PYTHON_VERSION=3.12.{r.randint(1, 8)}"\n]'
    )


def t_backup(r, k, v, c):
    return (
        f"Hyper Backup report - task '{c['code']}-{r.choice(['ezyVet-SQL', 'Imaging', 'Shares'])}' on {c['host']}\n"
        f"Start: {c['date']} 01:00  End: {c['date']} 0{r.randint(1, 5)}:{r.randint(10, 59)}\n"
        f"Result: {r.choice(['Partially completed', 'Failed', 'Succeeded with warnings'])}\n"
        f"Debug (support bundle excerpt): {c['var']}={v}\n"
        f"Transferred: {r.randint(2, 900)} GB, versions kept: {r.randint(10, 60)}"
    )


def t_curl(r, k, v, c):
    h = k.hdr.format(v)
    host = k.api.split("/")[2]
    path = "/" + k.api.split("/", 3)[3]
    return (
        f"$ curl -v '{k.api}' -H '{h}'\n"
        f"*   Trying {r.randint(13, 200)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}:443...\n"
        f"* Connected to {host} port 443\n* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384\n"
        f"> GET {path} HTTP/2\n> Host: {host}\n> User-Agent: curl/8.{r.randint(0, 9)}.0\n> {h}\n> Accept: */*\n>\n"
        f"< HTTP/2 {r.choice([200, 200, 401, 403])}\n< content-type: application/json\n< x-request-id: {c['rid']}"
    )


def t_login(r, k, v, c):
    cmd = k.login.format(user=c["user"] or "", pw=v, host=c["host"], ip=c["ip"])
    tail = r.choice(
        [
            "Command completed successfully.",
            f"Connected to {c['host']}.",
            "OK",
            f"Microsoft SQL Server 2019 (RTM-CU{r.randint(10, 28)}) - 15.0.{r.randint(4000, 4400)}.{r.randint(1, 9)} (X64)",
        ]
    )
    prompt = r.choice(["$ ", "PS C:\\> ", f"C:\\Users\\{c['p1'].split()[-1].lower()}> "])
    return f"{prompt}{cmd}\n{tail}"


_P = [
    p_note,
    p_lesson,
    p_runbook,
    p_todo,
    p_handover,
    p_ticket,
    p_email,
    p_chat,
    p_decision,
    p_es,
    p_nl,
    p_pl,
    p_id,
    p_hi,
]
_C = [c_env, c_json, c_yaml, c_ini, c_xml, c_ps, c_compose, c_php]
_T = [t_export, t_pssession, t_log, t_inspect, t_backup, t_curl, t_login]
_PEM_OK = {
    p_note,
    p_todo,
    p_handover,
    p_ticket,
    p_email,
    p_chat,
    p_es,
    p_nl,
    p_pl,
    p_id,
    p_hi,
    c_env,
    t_export,
}


def _pick(r, k):
    def ok(t):
        if k.cat == "pem":
            return t in _PEM_OK
        if t is t_curl:
            return k.hdr is not None
        if t is t_login:
            return k.login is not None
        return True

    x = r.random()
    group = _P if x < 0.5 else (_C if x < 0.75 else _T)
    cands = [t for t in group if ok(t)] or [t for t in _P if ok(t)]
    return r.choice(cands)


def _positives(r: random.Random, seen: set) -> list:
    out = []
    for k in _KINDS:
        n = 0
        tries = 0
        while n < PER_KIND:
            tries += 1
            if tries > PER_KIND * 50:
                raise RuntimeError(f"cannot fill kind {k.name}")
            secret, snip = k.gen(r)
            c = _ctx(r)
            c["var"] = r.choice(k.var)
            c["user"] = r.choice(k.user) if k.user else None
            c["ukey"] = (
                "ssid"
                if k.name == "wifi_psk"
                else ("merchant_code" if k.name == "worldpay_xml_password" else "username")
            )
            c["cred"] = _cred(r, k, snip, c)
            t = _pick(r, k)
            text = t(r, k, snip, c)
            if secret not in text or text in seen:
                continue
            seen.add(text)
            out.append((text, k.name, secret))
            n += 1
    return out


# --------------------------------------------------------------------------- look-alikes
_LOOK: list = []


def _L(f):
    _LOOK.append(f)
    return f


def _sha(r, n=32):
    return hashlib.sha256(_rb(r, 16)).hexdigest()[: n * 2] if n <= 32 else hashlib.sha512(_rb(r, 16)).hexdigest()


def _jwt_part(obj: str) -> str:
    return base64.urlsafe_b64encode(obj.encode()).decode().rstrip("=")


@_L
def l_sha256_dicom(r):
    c = _ctx(r)
    return f"DICOM export for {c['clinic']} verified. sha256({r.choice(['study', 'series'])}_{r.randint(1000, 9999)}.zip) = {_sha(r)}"


@_L
def l_md5_backup(r):
    c = _ctx(r)
    return f"$ md5sum /volume1/backup/{c['code']}_ezyvet_{c['date']}.bak\n{_sha(r, 16)}  /volume1/backup/{c['code']}_ezyvet_{c['date']}.bak"


@_L
def l_commit(r):
    c = _ctx(r)
    return f"Handover: deployed wp-theme at commit {hashlib.sha1(_rb(r, 8)).hexdigest()} to {c['clinic']} site; rollback = previous tag v{r.randint(1, 5)}.{r.randint(0, 30)}."


@_L
def l_short_commits(r):
    return "\n".join(
        f"{hashlib.sha1(_rb(r, 8)).hexdigest()[:7]} {m}"
        for m in r.sample(
            [
                "fix Vetstoria widget height",
                "bump labbridge to 2.3",
                "add IDEXX retry",
                "remove old Adyen terminal",
                "rename clinic codes",
                "log request ids",
                "SendGrid template tweak",
            ],
            4,
        )
    )


@_L
def l_request_id(r):
    c = _ctx(r)
    return f"ezyVet API returned 429 at {c['time']}; request id {_uuid(r)}, retry-after 30s. Appointment sync for {c['code']} resumed on its own."


@_L
def l_dicom_uid(r):
    return (
        f"Study Instance UID 1.2.840.113619.2.{r.randint(100, 999)}.{r.randint(1000, 99999)}.{r.randint(10**9, 10**10)}.{r.randint(1, 999)}\n"
        f"SOP Instance UID 1.2.392.200036.9125.{r.randint(1, 9)}.{r.randint(10**11, 10**12)}.{r.randint(10**5, 10**6)}\n"
        f"AE title VG_{r.choice(_CODES)}_DR, port {r.choice([104, 11112, 4242])}"
    )


@_L
def l_png_data(r):
    raw = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _rb(r, 60)
    return f'<img alt="clinic logo" src="data:image/png;base64,{base64.b64encode(raw).decode()}" />'


@_L
def l_stripe_pk(r):
    return f"Stripe publishable key for the booking deposit form (public, safe in JS): {'pk' + '_live_' + '51' + _s(r, 97)}"


@_L
def l_anon_jwt(r):
    h = _jwt_part('{"alg":"HS256","typ":"JWT"}')
    p = _jwt_part(
        '{"iss":"supabase","ref":"'
        + _s(r, 20, string.ascii_lowercase)
        + '","role":"anon","iat":'
        + str(r.randint(1700000000, 1760000000))
        + "}"
    )
    return f"Client portal uses the Supabase anon (public) key in the browser:\nSUPABASE_ANON_KEY={h}.{p}.<signature omitted in docs>"


@_L
def l_recaptcha(r):
    return f"WordPress contact form: reCAPTCHA v3 site key {'6L' + _s(r, 38, B64U)} (public, goes in the page). Secret key is in the plugin settings, not here."


@_L
def l_sentry_dsn(r):
    return (
        f"SENTRY_DSN=https://{_hex(r, 32)}@o{r.randint(100000, 999999)}.ingest.sentry.io/{r.randint(1000000, 9999999)}"
    )


@_L
def l_entra_ids(r):
    return f"Entra app 'LabBridge-Graph': Application (client) ID {_uuid(r)}, Directory (tenant) ID {_uuid(r)}, Object ID {_uuid(r)}. Secret lives in Key Vault."


@_L
def l_google_client_id(r):
    return f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{_s(r, 32, LO)}.apps.googleusercontent.com\nGOOGLE_CLIENT_SECRET=${{GOOGLE_CLIENT_SECRET}}"


@_L
def l_firebase(r):
    return (
        "const firebaseConfig = {\n"
        f'  apiKey: "{"AI" + "za" + _s(r, 35, B64U)}",\n'
        f'  authDomain: "vetgrp-app-{_s(r, 4, LO)}.firebaseapp.com",\n  projectId: "vetgrp-app",\n'
        f'  appId: "1:{r.randint(10**11, 10**12)}:web:{_hex(r, 22)}"\n}};'
    )


@_L
def l_algolia(r):
    return f"Clinic finder on the website uses Algolia app {_s(r, 10, UP)} with the search-only API key {_hex(r, 32)} (public, read-only)."


@_L
def l_cert(r):
    body = base64.b64encode(b"\x30\x82\x05\x12\x30\x82\x03\xfa\xa0\x03\x02\x01\x02" + _rb(r, 200)).decode()
    lab = "CERTIFICATE-----"
    return f"Public cert for pacs01 (chain, not the key):\n-----BEGIN {lab}\n{_wrap(body, 64)}\n-----END {lab}"


@_L
def l_ssh_pub(r):
    raw = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + _rb(r, 32)
    return f"Add to authorized_keys on the WP host:\nssh-ed25519 {base64.b64encode(raw).decode()} {r.choice(_PEOPLE).split()[-1].lower()}@contractor"


@_L
def l_placeholder(r):
    v = r.choice(
        [
            "<your-api-key>",
            "<PASTE_KEY_HERE>",
            "YOUR_API_KEY",
            "xxxxxxxxxxxxxxxx",
            "<secret>",
            "REPLACE_ME",
        ]
    )
    return f"Vetstoria setup doc: set VETSTORIA_API_KEY={v} in {r.choice(['.env', 'appsettings.json', 'the plugin page'])} and restart booking-sync ({r.randint(1, 99)})."


@_L
def l_env_ref(r):
    n = r.choice(
        [
            "STRIPE_SECRET_KEY",
            "TWILIO_AUTH_TOKEN",
            "SENDGRID_API_KEY",
            "DB_PASSWORD",
            "PETDESK_API_KEY",
        ]
    )
    return f'services:\n  worker:\n    environment:\n      {n}: ${{{n}}}\n      CLINIC: {r.choice(_CODES)}\n      RETRIES: "{r.randint(1, 9)}"'


@_L
def l_gha(r):
    n = r.choice(
        [
            "SENDGRID_API_KEY",
            "WP_DEPLOY_KEY",
            "CF_API_TOKEN",
            "SFTP_PASSWORD",
            "AZURE_CLIENT_SECRET",
        ]
    )
    return f"- name: Deploy ({r.randint(1, 999)})\n  env:\n    {n}: ${{{{ secrets.{n} }}}}\n  run: ./deploy.sh {r.choice(_CODES).lower()}"


@_L
def l_airflow(r):
    return f'from airflow.models import Variable\ntwilio_token = Variable.get("{r.choice(["twilio_token", "petdesk_key", "idexx_api_key"])}")  # nightly reminder DAG #{r.randint(1, 500)}'


@_L
def l_dbutils(r):
    return f'claims_key = dbutils.secrets.get(scope="{r.choice(["vetgrp-prod", "claims", "bi"])}", key="{r.choice(["petins-api-key", "sql-password", "sas-token"])}")\ndf = spark.read.table("bi.claims_{r.randint(2020, 2026)}")'


@_L
def l_vault_path(r):
    return f"Secrets live in Vault: vault kv get -field=password secret/clinics/{r.choice(_CODES).lower()}/{r.choice(['synology', 'sql-sa', 'unifi', 'wifi-staff'])} (policy contractor-ro, ttl {r.randint(1, 72)}h)"


@_L
def l_keyvault_ref(r):
    return f'"SqlPassword": "@Microsoft.KeyVault(SecretUri=https://kv-vetgrp-{r.choice(["prod", "dev"])}.vault.azure.net/secrets/{r.choice(["sql-sa", "labbridge-db", "stripe-sk"])}/{_hex(r, 32)})"'


@_L
def l_ansible_vault(r):
    body = _hex(r, 80 * 4)
    return "db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n          " + "\n          ".join(
        body[i : i + 80] for i in range(0, len(body), 80)
    )


@_L
def l_sops(r):
    return (
        f"smtp_password: ENC[AES256_GCM,data:{_b64(r, 18)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]\n"
        f'sops:\n    kms: []\n    lastmodified: "{r.choice(["2026-10-02", "2026-11-19"])}T0{r.randint(1, 9)}:12:44Z"'
    )


@_L
def l_bcrypt(r):
    return f"WordPress user table dump check: user_pass for 'reception{r.randint(1, 9)}' is $2y$10${_s(r, 53, AN + './')} (bcrypt hash, fine to keep)."


@_L
def l_argon2(r):
    return f"portal_users.password_hash = $argon2id$v=19$m=65536,t=3,p=4${_b64(r, 16).rstrip('=')}${_b64(r, 32).rstrip('=')}"


@_L
def l_sha512crypt(r):
    return f"/etc/shadow on the NAS (hash only): nasadmin:$6${_s(r, 16, AN + './')}${_s(r, 86, AN + './')}:{r.randint(19000, 20500)}:0:99999:7:::"


@_L
def l_ssh_fingerprint(r):
    return f"The authenticity of host 'wp.vetgroup.com.au ({r.randint(100, 200)}.{r.randint(1, 254)}.{r.randint(1, 254)}.{r.randint(1, 254)})' can't be established.\nED25519 key fingerprint is SHA256:{_b64(r, 32).rstrip('=')}."


@_L
def l_thumbprint(r):
    return f"Bound cert to port 443 on {r.choice(_HOSTS)}: Thumbprint {_s(r, 40, '0123456789ABCDEF')} (wildcard *.vetgroup.local, expires 2027-0{r.randint(1, 9)}-15)"


@_L
def l_gpg(r):
    fp = _s(r, 40, "0123456789ABCDEF")
    return f"Backup reports are signed with GPG key {fp[-16:]}\nfingerprint: {' '.join(fp[i : i + 4] for i in range(0, 40, 4))}"


@_L
def l_kms_arn(r):
    return f"Hyper Backup S3 bucket encryption: SSE-KMS with key arn:aws:kms:ap-southeast-2:{r.randint(10**11, 10**12)}:key/{_uuid(r)}"


@_L
def l_notebook(r):
    return (
        '{"cell_type": "code", "execution_count": ' + str(r.randint(1, 300)) + ', "id": "' + _hex(r, 8) + '",\n'
        ' "metadata": {}, "outputs": [{"output_type": "execute_result", "execution_count": '
        + str(r.randint(1, 300))
        + ', "data": {"text/plain": ["'
        + str(r.randint(100, 9999))
        + ' claims"]}}]}'
    )


@_L
def l_wandb(r):
    return f"no-show prediction run: wandb run id {_s(r, 8, LO)} (project vetgrp/no-show), mlflow run_id {_hex(r, 32)}, AUC {r.uniform(0.7, 0.9):.3f}"


@_L
def l_hf_model(r):
    return f"Triage summariser now uses {r.choice(['google/flan-t5-base', 'facebook/bart-large-cnn', 'sentence-transformers/all-MiniLM-L6-v2'])} pinned at revision {hashlib.sha1(_rb(r, 8)).hexdigest()}."


@_L
def l_docker_digest(r):
    return f"labbridge image pinned: registry.vetgroup.local/labbridge@sha256:{_sha(r)} (tag {r.randint(1, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)})"


@_L
def l_npm_integrity(r):
    return f'"node_modules/{r.choice(["axios", "dayjs", "twilio", "@sendgrid/mail"])}": {{\n  "version": "{r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}",\n  "integrity": "sha512-{_b64(r, 64)}"\n}}'


@_L
def l_stripe_ids(r):
    return (
        f"Refund for {r.choice(_PETS)}'s dental: payment_intent {'pi' + '_3' + _s(r, 22)}, charge {'ch' + '_3' + _s(r, 22)}, "
        f"customer {'cus' + '_' + _s(r, 14)}. Refunded ${r.randint(50, 900)}.00."
    )


@_L
def l_twilio_sid(r):
    return f"SMS reminder delivered: MessageSid SM{_hex(r, 32)}, MessagingServiceSid MG{_hex(r, 32)}, status delivered, to +61 4{r.randint(10, 99)} xxx {r.randint(100, 999)}"


@_L
def l_square_app_id(r):
    return f"Square app (public ids): application id {'sq0' + 'idp-' + _s(r, 22, B64U)}, location id {_s(r, 13, UP)}. Access token is NOT in this note."


@_L
def l_adyen_psp(r):
    return f"Adyen terminal V400m-{r.randint(100, 999)}-{r.randint(100000000, 999999999)}: pspReference {_s(r, 16, UP)} AUTHORISED, merchantAccount VetGroupPOS_{r.choice(_CODES)}"


@_L
def l_adyen_client_key(r):
    return f"Adyen Drop-in config (browser): clientKey: '{'live' + '_' + _s(r, 32, UP)}', environment: 'live-au' (client keys are public)"


@_L
def l_adyen_cse(r):
    return f"Adyen CSE public key (safe to embed): 10001|{_s(r, 512, '0123456789ABCDEF')}"


@_L
def l_microchip(r):
    return f"Patient {r.choice(_PETS)} (canine), microchip {r.choice(['956', '985', '900'])}{r.randint(10**11, 10**12 - 1)}, ezyVet animal id {r.randint(100000, 999999)}"


@_L
def l_idexx_accession(r):
    return f"IDEXX order {r.randint(10**7, 10**8)} accession {_s(r, 10, UP)} for {r.choice(_PETS)}: CBC + chem 17 pending, result hash {_hex(r, 16)}"


@_L
def l_claim_id(r):
    return f"Insurance claim CLM-{r.randint(2026, 2026)}-{r.randint(100000, 999999)} submitted, correlation id {_uuid(r)}, status Received."


@_L
def l_policy_doc(r):
    return f"Password policy v{r.randint(1, 9)}: min 14 characters, no reuse of last 10; never use defaults like 'changeme', 'password123' or 'Welcome1'. Applies from {_ctx(r)['date']}."


@_L
def l_masked(r):
    tok = r.choice(["sk" + "_live_", "SG" + ".", "gh" + "p_", "EA" + "AA"])
    return f"Stripe/SendGrid audit {r.randint(1, 999)}: key in use shows as {tok}****{_s(r, 4)} (masked in dashboard), created {_ctx(r)['date']}."


@_L
def l_redacted_log(r):
    c = _ctx(r)
    return f"{c['date']}T{c['time']}:01Z WARN labbridge auth failed user=svc_labbridge password=[REDACTED] host={c['host']} attempt={r.randint(1, 5)}"


@_L
def l_stars(r):
    c = _ctx(r)
    return f"Synology DSM > Control Panel > User > nasadmin\nPassword: {'*' * r.randint(8, 16)}\nConfirm:  {'*' * r.randint(8, 16)}\n({c['clinic']})"


@_L
def l_wifi_guest(r):
    c = _ctx(r)
    return f"Guest Wi-Fi at {c['clinic']}: SSID {c['code']}-Guest-{r.randint(1, 9)}, password is on the laminated card at reception (changes monthly)."


@_L
def l_bitlocker_id(r):
    return f"BitLocker on {r.choice(_HOSTS)}: Key Protector ID {{{_uuid(r).upper()}}} escrowed to Entra ID; recovery key retrievable by helpdesk role."


@_L
def l_mac_serial(r):
    mac = ":".join(_hex(r, 2) for _ in range(6))
    return f"UniFi AP U6-Pro {mac} serial {_s(r, 12, UP)} adopted at {r.choice(_CLINICS)}, firmware 6.{r.randint(0, 7)}.{r.randint(0, 40)}"


@_L
def l_meraki_ids(r):
    return f"Meraki network id L_{r.randint(10**17, 10**18)}, org id {r.randint(100000, 999999)}, MX68 serial Q2{_s(r, 2, UP)}-{_s(r, 4, UP)}-{_s(r, 4, UP)}"


@_L
def l_unifi_site(r):
    return f"UniFi site id {_s(r, 8, LO)} ('{r.choice(_CODES)}'), site _id {_hex(r, 24)}; controller at https://unifi.vetgroup.local:8443"


@_L
def l_quickconnect(r):
    return f"Synology QuickConnect ID vetgrp-{r.choice(_CODES).lower()}{r.randint(1, 9)} (public name, disable it after VPN is live). DSM {r.choice(['7.1', '7.2'])}"


@_L
def l_hb_task(r):
    return f"Hyper Backup task id {r.randint(1, 30)}, target id {_hex(r, 16)}, last version {_ctx(r)['date']} checksum {_sha(r, 20)} - integrity check passed."


@_L
def l_sql_lsn(r):
    return f"RESTORE HEADERONLY: FirstLSN {r.randint(10**15, 10**16)}00001, LastLSN {r.randint(10**15, 10**16)}00001, BackupSetGUID {_uuid(r).upper()}, Checksum {r.randint(10**8, 10**9)}"


@_L
def l_win_sid(r):
    return f"Event 4625 on {r.choice(_HOSTS)}: Account Name reception{r.randint(1, 9)}, SID S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**8, 10**9)}-{r.randint(1000, 9999)}, Logon Type 10"


@_L
def l_code_challenge(r):
    return f"Entra PKCE trace: code_challenge={_b64(r, 32).rstrip('=').replace('+', '-').replace('/', '_')}&code_challenge_method=S256&state={_uuid(r)}"


@_L
def l_stripe_event(r):
    return f"Webhook delivery {'evt' + '_' + _s(r, 24)} ({r.choice(['invoice.paid', 'charge.refunded', 'payment_intent.succeeded'])}) to endpoint {'we' + '_' + _s(r, 24)} returned 200"


@_L
def l_sendgrid_msgid(r):
    return f"SendGrid X-Message-Id: {_s(r, 22, B64U)}.filter{r.randint(1, 9)}-{r.randint(1000, 9999)}-{_hex(r, 8).upper()}-{r.randint(1, 9)}, template d-{_hex(r, 32)}"


@_L
def l_csp_hash(r):
    return f"Content-Security-Policy: script-src 'self' 'sha256-{_b64(r, 32)}' 'nonce-{_b64(r, 16)}' https://widget.vetstoria.com"


@_L
def l_sri(r):
    return f'<script src="https://cdn.jsdelivr.net/npm/flatpickr@4.6.{r.randint(1, 13)}" integrity="sha384-{_b64(r, 48)}" crossorigin="anonymous"></script>'


@_L
def l_wp_checksums(r):
    return f"$ wp core verify-checksums\nWarning: File doesn't verify against checksum: wp-includes/{r.choice(['version.php', 'load.php', 'pluggable.php'])} (expected {_hex(r, 32)})\nError: WordPress installation doesn't verify against checksums."


@_L
def l_ezyvet_ids(r):
    return f"ezyVet invoice {r.randint(100000, 999999)} / consult {r.randint(10**6, 10**7)} / contact {r.randint(10**5, 10**6)} - duplicate created by the Vetstoria sync at {_ctx(r)['time']}"


@_L
def l_vetstoria_embed(r):
    return f'<script src="https://booking.vetstoria.com/widget.js" data-site-hash="{_hex(r, 12)}" data-clinic="{r.choice(_CODES)}"></script>  <!-- public embed id -->'


@_L
def l_ga(r):
    return f"Website analytics: GA4 measurement id G-{_s(r, 10, UP)}, GTM-{_s(r, 7, UP)}, Meta pixel {r.randint(10**14, 10**15)}"


@_L
def l_cf_zone(r):
    return f"Cloudflare zone id {_hex(r, 32)}, account id {_hex(r, 32)} for vetgroup.com.au (identifiers, the API token is in the vault)"


@_L
def l_azure_sub(r):
    return f"az account set --subscription {_uuid(r)}\naz group list -o table  # rg-vetgrp-{r.choice(['prod', 'backup', 'wp'])}"


@_L
def l_env_file_ref(r):
    svc = r.choice(["labbridge", "reminders", "paybridge", "dicom-router"])
    return f"{svc}:\n  env_file:\n    - /opt/{svc}/{r.choice(_CODES).lower()}.env   # mode 0600, owned by root\n  mem_limit: {r.randint(128, 1024)}m\n  restart: always"


_DPAPI_HDR = "01000000" + "d08c9ddf" + "0115d111" + "8c7a00c0" + "4fc297eb"


@_L
def l_dpapi(r):
    return f"$enc = '{_DPAPI_HDR}01000000{_hex(r, 280)}'\n$sec = $enc | ConvertTo-SecureString   # DPAPI, only decryptable by svc account on {r.choice(_HOSTS)}"


@_L
def l_k8s_ref(r):
    return f'env:\n  - name: PETDESK_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: petdesk-{r.choice(_CODES).lower()}\n        key: api-key\n  - name: REPLICAS\n    value: "{r.randint(1, 5)}"'


@_L
def l_env_example(r):
    return f"# .env.example (copy to .env) rev {r.randint(1, 99)}\nSTRIPE_SECRET_KEY=\nTWILIO_AUTH_TOKEN=changeme\nDB_PASSWORD=<db-password>\nCLINIC_CODE={r.choice(_CODES)}"


@_L
def l_reset_note(r):
    c = _ctx(r)
    return f"{c['p1']} locked out of ezyVet at {c['clinic']}; reset via admin console, temporary password sent by SMS to her mobile, must change at next login. Ticket #{c['ticket']}."


@_L
def l_aws_doc(r):
    return (
        f"From the AWS docs example (not ours), step {r.randint(1, 20)}:\n"
        f"aws_secret_access_key = {'wJalrXUtnFEMI' + '/K7MDENG' + '/bPxRfiCY' + 'EXAMPLE' + 'KEY'}"
    )


@_L
def l_basic_doc(r):
    return f"RFC 7617 example (n={r.randint(1, 999)}): Authorization: Basic {base64.b64encode(b'Aladdin:open sesame').decode()} -- our DICOMweb uses the same scheme with its own account."


@_L
def l_csv_b64(r):
    rows = "\n".join(
        f"{r.choice(_PETS)},{r.choice(['vaccine', 'dental', 'desex'])},{r.randint(50, 900)}" for _ in range(4)
    )
    return f'attachment "reminders.csv" (base64): {base64.b64encode(rows.encode()).decode()}'


@_L
def l_hl7(r):
    return (
        f"MSH|^~\\&|IDEXX|VETLAB|EZYVET|{r.choice(_CODES)}|2026{r.randint(1, 11):02d}{r.randint(10, 28)}1034||ORU^R01|{_s(r, 20, UP)}|P|2.3\n"
        f"PID|1||{r.randint(100000, 999999)}||{r.choice(_PETS)}^Canine\nOBX|1|NM|HCT||{r.randint(30, 55)}|%|37-55|N"
    )


@_L
def l_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_sha(r)}\nsize {r.randint(10**4, 10**8)}"


@_L
def l_pip_hash(r):
    return f"{r.choice(['requests', 'pydicom', 'pynetdicom', 'twilio'])}=={r.randint(1, 3)}.{r.randint(0, 32)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_sha(r)}"


@_L
def l_tf_state(r):
    return f'{{"version": 4, "terraform_version": "1.{r.randint(5, 9)}.{r.randint(0, 5)}", "serial": {r.randint(1, 400)}, "lineage": "{_uuid(r)}", "outputs": {{}}}}'


@_L
def l_acme(r):
    t = _s(r, 43, B64U)
    return f"http-01 challenge for vetgroup.com.au: served /.well-known/acme-challenge/{t} with body {t}.{_s(r, 43, B64U)} (public by design)"


@_L
def l_dkim(r):
    return f'selector1._domainkey TXT "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{_b64(r, 120)}"'


@_L
def l_spf_dmarc(r):
    return f'vetgroup.com.au TXT "v=spf1 include:spf.protection.outlook.com include:sendgrid.net ~all"\n_dmarc TXT "v=DMARC1; p={r.choice(["none", "quarantine", "reject"])}; rua=mailto:dmarc{r.randint(1, 99)}@vetgroup.com.au"'


@_L
def l_ms_verify(r):
    return f"M365 domain verification TXT: MS=ms{r.randint(10**7, 10**8)}; google-site-verification={_s(r, 43, B64U)}"


@_L
def l_cert_serial(r):
    return f"Cert serial {':'.join(_hex(r, 2) for _ in range(16))}, issuer R{r.randint(10, 14)}, CN=*.vetgroup.local, not after 2027-0{r.randint(1, 9)}-0{r.randint(1, 9)}"


@_L
def l_1password_ref(r):
    return f'Get the Meraki API key with: op read "op://Clinic IT/{r.choice(["Meraki API", "Synology", "SQL sa", "UniFi"])}/credential"  (vault access: contractor group) #{r.randint(1, 99)}'


@_L
def l_bitwarden_id(r):
    return f"Bitwarden item {_uuid(r)} ('{r.choice(_CODES)} NAS admin'), collection {_uuid(r)} - ask Priya for access."


@_L
def l_zoom_meeting(r):
    return f"Telehealth consult for {r.choice(_PETS)}: Zoom meeting ID {r.randint(800, 999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)}, passcode sent in the client's invite e-mail."


@_L
def l_vetology_case(r):
    return f"Vetology AI read case {r.randint(10**6, 10**7)} (study {_hex(r, 24)}), radiologist review requested, turnaround {r.randint(1, 24)}h."


@_L
def l_jwt_header(r):
    hdr = _jwt_part('{"alg":"RS256","kid":"' + _hex(r, 8) + '"}')
    return f"Debug: portal token header {hdr} -> alg RS256, kid rotated; payload and signature not logged."


@_L
def l_seeds(r):
    return f"no-show model config: seed={r.randint(1, 99999)}, lr={r.choice(['3e-4', '1e-3', '5e-5'])}, batch={r.choice([32, 64, 128])}, features_hash={_hex(r, 16)}"


@_L
def l_css(r):
    return f".vg-brand {{ color: #{_hex(r, 6)}; background: #{_hex(r, 6)}; }}  /* theme {r.randint(1, 99)} */"


@_L
def l_kb(r):
    return f"Patched {r.choice(_HOSTS)} with KB50{r.randint(10000, 99999)}; MSI ProductCode {{{_uuid(r).upper()}}} for LabBridge {r.randint(1, 3)}.{r.randint(0, 20)}"


@_L
def l_sendgrid_template(r):
    return f"Reminder e-mail uses SendGrid dynamic template d-{_hex(r, 32)} (vaccine due) and unsubscribe group {r.randint(10000, 99999)}."


@_L
def l_mailchimp_list(r):
    return f"Newsletter audience id {_hex(r, 10)}, Mailchimp datacenter us{r.randint(2, 21)}, segment 'cats-over-7' ({r.randint(100, 4000)} contacts)"


@_L
def l_analyser_serial(r):
    return f"Zoetis Vetscan HM5 serial {_s(r, 2, UP)}{r.randint(100000, 999999)} and IDEXX Catalyst One SN {r.randint(10**7, 10**8)} at {r.choice(_CLINICS)}; both on VLAN {r.randint(10, 60)}"


@_L
def l_twilio_webhook_cfg(r):
    return f"Twilio inbound SMS webhook: https://reminders.vetgroup.com.au/twilio/inbound?clinic={r.choice(_CODES)}&v={r.randint(1, 9)} (validated with X-Twilio-Signature, auth token from env)"


@_L
def l_encrypted_cfg(r):
    return (
        f'<add key="DbPassword" value="ENC:{_b64(r, 48)}" />  <!-- encrypted with machine key on {r.choice(_HOSTS)} -->'
    )


@_L
def l_ntp_uuid_list(r):
    return "Provet Cloud webhook deliveries:\n" + "\n".join(
        f"  {_uuid(r)}  {r.choice(['200', '200', '500'])}  {r.randint(40, 900)}ms" for _ in range(3)
    )


@_L
def l_printer(r):
    return f"Zebra ZD421 label printer at {r.choice(_CLINICS)}: IP 10.{r.randint(10, 60)}.{r.randint(0, 9)}.{r.randint(2, 250)}, MAC {':'.join(_hex(r, 2) for _ in range(6))}, web admin password reset to the vendor default after factory reset - change it."


@_L
def l_drug_log(r):
    return f"Controlled-drug register {r.choice(_CODES)}: methadone 10mg/ml balance {r.randint(5, 80)} ml, entry {r.randint(1000, 9999)} witnessed by {r.choice(_PEOPLE)}; audit hash {_sha(r, 16)}"


@_L
def l_camera_onvif(r):
    return f"IP camera {r.choice(['kennels', 'carpark', 'pharmacy', 'reception'])} at 10.{r.randint(10, 60)}.2{r.randint(0, 9)}.{r.randint(2, 250)}: ONVIF port 80, RTSP rtsp://10.{r.randint(10, 60)}.22.{r.randint(2, 250)}:554/Streaming/Channels/101 (credentials in NVR)"


@_L
def l_ps_getcred(r):
    return f"$cred = Get-Credential -UserName 'VETGRP\\adm-contractor' -Message 'NAS {r.randint(1, 99)}'\nNew-PSDrive -Name N -PSProvider FileSystem -Root \\\\{r.choice(_HOSTS)}\\share -Credential $cred"


@_L
def l_sqlcmd_trusted(r):
    return f"sqlcmd -S {r.choice(_HOSTS)} -E -Q \"BACKUP DATABASE VetBI TO DISK='D:\\\\bak\\\\VetBI_{r.randint(1, 31)}.bak' WITH CHECKSUM\"\nProcessed {r.randint(1000, 90000)} pages for database 'VetBI'."


@_L
def l_json_secret_name(r):
    return f'{{"secretName": "{r.choice(["stripe-live", "sql-sa", "wifi-psk"])}", "version": "{_hex(r, 32)}", "enabled": true, "expires": "2027-0{r.randint(1, 9)}-01"}}'


@_L
def l_random_b64_blob(r):
    return f"ezyVet attachment thumbnail (JPEG, base64, truncated): /9j/4AAQSkZJRgABAQ{_b64(r, 90)}"


@_L
def l_hash_of_export(r):
    return f"Claims export claims_{_ctx(r)['date']}.csv: {r.randint(100, 5000)} rows, SHA-1 {hashlib.sha1(_rb(r, 8)).hexdigest()}, uploaded to insurer portal."


@_L
def l_windows_product(r):
    return f"Hyper-V VM {r.choice(_HOSTS)} BIOS GUID {_uuid(r).upper()}, VMID {_uuid(r).upper()}, generation 2"


@_L
def l_pwned_check(r):
    return f"HIBP k-anonymity check: sent prefix {_s(r, 5, '0123456789ABCDEF')}, {r.randint(300, 900)} suffixes returned, no match for the new NAS password."


@_L
def l_secret_rotation(r):
    return f"Rotated the Entra client secret for LabBridge on {_ctx(r)['date']}; new secret id {_uuid(r)} expires in {r.choice([6, 12, 24])} months; value updated in Key Vault only."


@_L
def l_salted_token_fp(r):
    return f"GitHub token audit: fine-grained token 'wp-deploy' last used {_ctx(r)['date']}, hashed token fingerprint SHA256:{_b64(r, 32).rstrip('=')}"


@_L
def l_license_placeholder(r):
    return f"ANTECH_API_TOKEN=${{ANTECH_API_TOKEN:?set in /etc/labbridge/secrets}}\nANTECH_BASE=https://api.antechdiagnostics.com/v1  # build {r.randint(1, 999)}"


# --------------------------------------------------------------------------- entry point
def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set = set()
    positives = _positives(r, seen)
    lookalikes: list = []
    for g in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > LOOK_PER_GEN * 40:
                raise RuntimeError(f"look-alike generator {g.__name__} is not diverse enough")
            t = g(r)
            if t in seen:
                continue
            seen.add(t)
            lookalikes.append(t)
            got += 1
    return positives, lookalikes
