"""Labelled test set AP for a detector of credentials in agent "memories".

Theme
-----
Memories kept by an AI agent working for the IT contractor of a group of dental practices and the
community pharmacy sharing their building: Open Dental / Dentrix, imaging SQL databases, intraoral
scanner clouds, patient reminders (Weave), online booking, clearinghouses (Availity), fax-to-email
(SRFax, eFax), HL7 / Mirth, Datto and Veeam backups, Windows servers and workstations, printers,
VPNs, pharmacy systems, e-prescribing, wholesaler portals, card terminals (Square, Clover, SumUp),
Microsoft 365, Google Business reviews, SMS gateways, CCTV and door alarms.
About half of the texts are prose (notes, lessons, runbooks, TODOs, handovers, tickets, e-mails,
chat; mostly English, some Polish, Korean, Mexican Spanish, Dutch, Serbian and Persian), a quarter
configuration (.env, JSON, YAML, INI, .udl, ODBC DSN, PowerShell, Mirth-style settings, Python) and
a quarter tool output (PowerShell / CLI sessions, curl -v, SQL clients, service logs, CI logs).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text``
  (no quotes, stripped) and each text holds exactly one secret. 30 positives per kind.
* ``lookalikes``: texts with no credential at all; each generator in ``_LOOK`` contributes
  ``LOOK_PER_GEN`` distinct texts, so ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic for a given seed; no duplicate text anywhere in the output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs: the
  password only. PEM / OpenSSH / OpenVPN static keys: the whole armoured block, BEGIN to END line.
  UUID-shaped vendor tokens are secrets only where the text names them as token/key/secret.
* Public-by-design values (publishable keys, site keys, Sentry DSNs, OAuth client ids, Firebase web
  apiKeys, search-only keys, public certificates / public keys), vendor documentation examples,
  encrypted blobs (Ansible vault, sops, DPAPI) and password hashes are look-alikes.
  Bare AWS access key ids are left out entirely.
* Every token-shaped value is assembled at run time from split prefixes and random bodies.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid

LOOK_PER_GEN = 12
PER_KIND = 30

ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
LOWER = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLS = ALNUM + "-_"
DIG = string.digits


def rs(r: random.Random, n: int, alpha: str = ALNUM) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def ruuid(r: random.Random) -> str:
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def wrap(s: str, n: int = 64) -> list[str]:
    return [s[i : i + n] for i in range(0, len(s), n)]


# ---------------------------------------------------------------- context pools
PRACTICES = [
    "Bright Smile Dental",
    "Riverside Family Dentistry",
    "Oakwood Dental Group",
    "Harbor View Orthodontics",
    "Cedar Park Dental",
    "Maple Street Dental",
    "Northgate Dental Studio",
]
PHARMACY = [
    "Parkside Community Pharmacy",
    "the pharmacy downstairs",
    "Parkside Pharmacy",
]
PEOPLE = [
    "Anna",
    "Marek",
    "Ji-woo",
    "Lupita",
    "Sanne",
    "Milan",
    "Dariush",
    "Priya",
    "Tom",
    "Kasia",
    "Joost",
    "Jelena",
    "Neda",
    "Carlos",
    "Dr. Patel",
    "Beth (office manager)",
]
HOSTS = [
    "DENT-SRV01",
    "OD-DB01",
    "IMG-SQL02",
    "PHARM-SRV",
    "RX-WS03",
    "FRONTDESK-02",
    "OP3-WS",
    "BACKUP-NAS",
    "MIRTH01",
    "DC01",
    "CEDAR-SRV",
    "HV-HOST2",
]
WORDS = [
    "tulip",
    "rover",
    "molar",
    "enamel",
    "harbor",
    "cedar",
    "falcon",
    "maple",
    "copper",
    "lantern",
    "orbit",
    "velvet",
    "quartz",
    "meadow",
    "pepper",
    "walnut",
    "canyon",
    "ember",
    "violet",
    "summit",
    "sparrow",
    "biscuit",
    "pumpkin",
    "kestrel",
    "marble",
    "floss",
    "crown",
    "bridge",
    "zebra",
    "mango",
]
SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Smile",
    "Dental",
    "Parkside",
    "Welcome",
    "Apteka",
    "Zub",
]


def c_date(r: random.Random) -> str:
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def c_time(r: random.Random) -> str:
    return f"{r.randint(7, 19):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"


def c_ip(r: random.Random) -> str:
    return f"10.{r.choice([10, 20, 30, 40])}.{r.randint(0, 9)}.{r.randint(2, 250)}"


# ---------------------------------------------------------------- passwords
PW_SYM = "!*-_.~^"


def pw_human(r: random.Random) -> str:
    k = r.randrange(7)
    w = r.choice(WORDS)
    if k == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice('!*.')}"
    if k == 1:
        return f"{w}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    if k == 2:
        return rs(r, r.randint(14, 20), ALNUM + PW_SYM)
    if k == 3:
        sep = r.choice(".-_")
        return sep.join(r.sample(WORDS, 4)) + str(r.randint(1, 9))
    if k == 4:
        leet = w.replace("o", "0").replace("e", "3").replace("a", "4").capitalize()
        return f"{leet}{r.choice(PW_SYM)}{r.randint(100, 9999)}"
    if k == 5:
        return f"{r.choice(PRACTICES).split()[0]}{r.choice(PW_SYM)}{r.randint(1, 99):02d}{rs(r, 3, string.ascii_uppercase)}"
    return rs(r, 4, string.ascii_uppercase) + rs(r, 4, DIG) + rs(r, 4, string.ascii_lowercase) + r.choice(PW_SYM)


def pw_gen(r: random.Random) -> str:
    return rs(r, r.randint(18, 28), ALNUM + "!*-_.")


def pw_pin(r: random.Random) -> str:
    return rs(r, r.choice([4, 4, 5, 6]), DIG)


def pw_wifi(r: random.Random) -> str:
    k = r.randrange(3)
    if k == 0:
        return f"{r.choice(WORDS).capitalize()}{r.choice(WORDS).capitalize()}{r.randint(100, 999)}"
    if k == 1:
        return "-".join(r.sample(WORDS, 3)) + f"-{r.randint(10, 99)}"
    return rs(r, 20, ALNUM)


def snmp_comm(r: random.Random) -> str:
    return f"{r.choice(['dnt', 'psd', 'ph', 'oak'])}{r.choice(['-', '_', ''])}{rs(r, 6, LOWER)}{r.choice(['-ro', 'Ro', '!', '#9'])}"


# ---------------------------------------------------------------- token makers
def t_ghp(r):
    return "gh" + "p_" + rs(r, 36)


def t_gh_fine(r):
    return "github" + "_pat_" + rs(r, 22, UPPER) + "_" + rs(r, 59)


def t_glpat(r):
    return "gl" + "pat-" + rs(r, 20, URLS)


def t_slack_bot(r):
    return "xo" + "xb-" + rs(r, 12, DIG) + "-" + rs(r, 13, DIG) + "-" + rs(r, 24)


def t_slack_hook(r):
    tok = rs(r, 24)
    url = "https://hooks." + "slack.com/services/T" + rs(r, 8, UPPER) + "/B" + rs(r, 10, UPPER) + "/" + tok
    return tok, {"show": url}


def t_discord_hook(r):
    tok = rs(r, 68, URLS)
    url = "https://discord.com/api/" + "webhooks/" + str(r.randint(10**17, 10**19 - 1)) + "/" + tok
    return tok, {"show": url}


def t_stripe_sk(r):
    if r.random() < 0.5:
        return "sk_" + "live_" + rs(r, 24)
    return "sk_" + "live_51" + rs(r, 12) + rs(r, 86)


def t_stripe_rk(r):
    return "rk_" + "live_51" + rs(r, 12) + rs(r, 86)


def t_stripe_whsec(r):
    return "whs" + "ec_" + rs(r, 32)


def t_square(r):
    return "EA" + "AA" + rs(r, 60, URLS)


def t_square_secret(r):
    return "sq0" + "csp-" + rs(r, 43, URLS)


def t_sumup(r):
    return "sup_" + "sk_" + rs(r, 32)


def t_hex32(r):
    return rs(r, 32, HEX)


def t_hex40(r):
    return rs(r, 40, HEX)


def t_sendgrid(r):
    return "S" + "G." + rs(r, 22, URLS) + "." + rs(r, 43, URLS)


def t_mailgun(r):
    if r.random() < 0.5:
        return "ke" + "y-" + rs(r, 32, HEX)
    return rs(r, 32, HEX) + "-" + rs(r, 8, HEX) + "-" + rs(r, 8, HEX)


def t_openai(r):
    return "sk-" + "proj-" + rs(r, 74, URLS) + "T3Blb" + "kFJ" + rs(r, 74, URLS)


def t_anthropic(r):
    return "sk-" + "ant-" + "api03-" + rs(r, 93, URLS) + "AA"


def t_google_key(r):
    return "AI" + "za" + rs(r, 35, URLS)


def t_gocspx(r):
    return "GOC" + "SPX-" + rs(r, 28, URLS)


def t_azure_secret(r):
    return rs(r, 3) + "8Q" + "~" + rs(r, 34, ALNUM + "_~.-")


def t_aws_secret(r):
    return rs(r, 40, B64)


def t_azure_storage(r):
    return b64(r, 64)


def t_telegram(r):
    return str(r.randint(10**8, 10**10 - 1)) + ":" + "AA" + rs(r, 33, URLS)


def t_sentry_user(r):
    return "sntr" + "yu_" + rs(r, 64, HEX)


def t_npm(r):
    return "np" + "m_" + rs(r, 36)


def t_pypi(r):
    return "py" + "pi-" + "AgEIcHlw" + "aS5vcmc" + rs(r, 160, URLS)


def t_docker(r):
    return "dckr" + "_pat_" + rs(r, 27, URLS)


def t_cloudflare(r):
    return rs(r, 40, URLS)


def t_tailscale(r):
    return "tskey" + "-auth-" + rs(r, 11) + "CNTRL-" + rs(r, 33)


def t_hubspot(r):
    return "pat-" + r.choice(["na1", "eu1"]) + "-" + ruuid(r)


def t_mailchimp(r):
    return rs(r, 32, HEX) + "-us" + str(r.randint(2, 21))


def t_jwt(r):
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = {
        "sub": f"loc_{rs(r, 10, LOWER)}",
        "scope": r.choice(["messaging reminders", "api:full", "location:read location:write"]),
        "iat": 1767225600 + r.randint(0, 10**7),
        "exp": 1798761600 + r.randint(0, 10**7),
    }
    pay = b64u(json.dumps(body, separators=(",", ":")).encode())
    return head + "." + pay + "." + rs(r, 43, URLS)


def t_od_key(r):
    return rs(r, 16)


def t_alnum40(r):
    return rs(r, 40)


def t_alnum48(r):
    return rs(r, 48)


def t_alnum24(r):
    return rs(r, 24)


def t_vonage(r):
    return rs(r, 16)


def t_uuid_upper(r):
    return ruuid(r).upper()


def t_uuid(r):
    return ruuid(r)


def t_datto(r):
    return rs(r, 32, UPPER)


def t_wg(r):
    k = bytearray(r.getrandbits(8) for _ in range(32))
    k[0] &= 248
    k[31] = (k[31] & 127) | 64
    return base64.b64encode(bytes(k)).decode()


def t_psk(r):
    return rs(r, r.choice([24, 32, 40]), ALNUM + "!*-_.")


def t_bitlocker(r):
    return "-".join(f"{11 * r.randint(0, 65535):06d}" for _ in range(8))


def t_basic(r):
    user = r.choice(["rxsync", "ordering", "lab_upload", "faxbot", "mirth"])
    return base64.b64encode(f"{user}:{pw_human(r)}".encode()).decode()


def t_app_pw(r):
    return " ".join(rs(r, 4, string.ascii_lowercase) for _ in range(4))


def t_ms_app_pw(r):
    return rs(r, 16, string.ascii_lowercase)


def pem(r, title: str, body: str, n: int = 64) -> str:
    return "\n".join(["-----BEGIN " + title + "-----", *wrap(body, n), "-----END " + title + "-----"])


def t_rsa(r):
    body = "MIIE" + "pAIBAAKCAQEA" + b64(r, 1176)[:1572]
    return pem(r, "RSA " + "PRIVATE KEY", body)


def t_openssh(r):
    raw = (
        b"openssh-key-v1\x00"
        + b"\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
        + b"\x00\x00\x003\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 "
        + bytes(r.getrandbits(8) for _ in range(32))
        + bytes(r.getrandbits(8) for _ in range(200))
    )
    return pem(r, "OPENSSH " + "PRIVATE KEY", base64.b64encode(raw).decode(), 70)


def t_ovpn(r):
    lines = [rs(r, 32, HEX) for _ in range(16)]
    return "\n".join(
        [
            "-----BEGIN OpenVPN " + "Static key V1-----",
            *lines,
            "-----END OpenVPN " + "Static key V1-----",
        ]
    )


def t_gcp(r):
    body = "MIIE" + "vQIBADANBgkqhkiG9w0BAQEFAASC" + b64(r, 1200)[:1592]
    block = "-----BEGIN " + "PRIVATE KEY-----\\n" + "\\n".join(wrap(body)) + "\\n-----END " + "PRIVATE KEY-----"
    proj = r.choice(["parkside-reviews", "dental-gbp-sync", "oakwood-reviews-api"]) + f"-{r.randint(100000, 999999)}"
    sa = r.choice(["reviews-bot", "gbp-sync", "review-reply"])
    doc = (
        "{\n"
        '  "type": "service_account",\n'
        f'  "project_id": "{proj}",\n'
        f'  "private_key": "{block}\\n",\n'
        f'  "client_email": "{sa}@{proj}.iam.gserviceaccount.com",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token"\n'
        "}"
    )
    return block, {"show": doc}


# ---------------------------------------------------------------- generic templates (token style)
TOK_T = [
    lambda r, c: f"{c['label']} for {c['practice']}: {c['show']} (set up {c['date']}, {c['who']})",
    lambda r, c: (
        f"Lesson learned: the {c['label']} on {c['host']} silently stopped working after the "
        f"Windows update; we had pasted an old one. The current one is {c['show']} - update the "
        "service config AND the password manager entry together."
    ),
    lambda r, c: f"TODO({c['who']}): rotate the {c['label']} before {c['date']}. Current: {c['show']}",
    lambda r, c: (
        f"Handover {c['date']} - {c['practice']}\n- backups green, Veeam job ok\n"
        f"- {c['label']} re-issued, new value {c['show']}\n- printer in op 2 still jams, ignore"
    ),
    lambda r, c: (
        f"Ticket #{c['tid']} [{c['practice']}] integration down\nStatus: resolved\n"
        f"Fix: replaced {c['label']} with {c['show']} in {c['env']} and restarted the service on {c['host']}."
    ),
    lambda r, c: (
        f"From: {c['who']}\nTo: it@contractor.example\nSubject: {c['label']}\n\n"
        f"Hi, as requested here is the {c['label']} for {c['practice']}:\n{c['show']}\n\nThanks, {c['who']}"
    ),
    lambda r, c: (
        f"[{c['time']}] {c['who']}: what's the {c['label']} again?\n"
        f"[{c['time']}] {c['who2']}: {c['show']}\n[{c['time']}] {c['who']}: thx"
    ),
    lambda r, c: f"Notatka: {c['label']} dla {c['practice']}: {c['show']}. Nie wysyłać mailem, tylko przez sejf.",
    lambda r, c: f"메모: {c['practice']} {c['label']} = {c['show']} (만료일 {c['date']}, 담당 {c['who']})",
    lambda r, c: (
        f"Oye {c['who']}, te paso la {c['label']} de {c['practice']}: {c['show']} "
        "- porfa no la mandes por WhatsApp, ¿va?"
    ),
    lambda r, c: f"Let op: de {c['label']} voor {c['practice']} is nu {c['show']} (vervangen op {c['date']}).",
    lambda r, c: f"Napomena: {c['label']} za {c['practice']} je {c['show']} - menjati svakih 90 dana.",
    lambda r, c: f"یادداشت: {c['label']} برای {c['practice']}: {c['show']} (تاریخ {c['date']})",
    lambda r, c: f"# {c['practice']} integration\nSITE_ID={c['tid']}\nLOG_LEVEL=info\n{c['env']}={c['show']}\n",
    lambda r, c: json.dumps(
        {
            "practice": c["practice"],
            "service": c["svc"],
            "apiKey" if r.random() < 0.5 else "token": c["show"],
        },
        indent=2,
        ensure_ascii=False,
    ),
    lambda r, c: f"{c['svc_id']}:\n  enabled: true\n  host: {c['host'].lower()}\n  {c['env'].lower()}: {c['show']}\n",
    lambda r, c: f"[{c['svc_id']}]\nEnabled=1\nServer={c['host']}\n{c['env']}={c['show']}\n",
    lambda r, c: f'$env:{c["env"]} = "{c["show"]}"\n& "C:\\Scripts\\sync-{c["svc_id"]}.ps1" -Verbose',
    lambda r, c: f'# settings.py\nDEBUG = False\n{c["env"]} = "{c["show"]}"\nPRACTICE = "{c["practice"]}"\n',
    lambda r, c: (
        f"{c['date']} {c['time']},{r.randint(100, 999)} DEBUG {c['svc_id']}.client init "
        f"practice={c['tid']} key={c['show']} timeout=30"
    ),
    lambda r, c: (
        f'Run #{c["tid"]} deploy-{c["svc_id"]}\n+ echo "{c["env"]}={c["show"]}" >> .env\n'
        f"+ docker compose up -d\nContainer {c['svc_id']}-1 Started"
    ),
    lambda r, c: (
        f"Runbook: re-link {c['svc']} at {c['practice']}\n1. RDP to {c['host']}\n"
        f"2. Open the config and paste the {c['label']}: {c['show']}\n3. Restart the service, check the log."
    ),
    lambda r, c: (
        f"Decision ({c['date']}): keep one {c['label']} per location instead of sharing. "
        f"{c['practice']} now uses {c['show']}."
    ),
]

TOK_BEARER = [
    lambda r, c: (
        f"$ curl -v https://api.{c['svc_host']}.example/v1/ping -H 'Authorization: Bearer {c['show']}'\n"
        f"> GET /v1/ping HTTP/2\n> Host: api.{c['svc_host']}.example\n> Authorization: Bearer {c['show']}\n"
        f"< HTTP/2 200\n< x-request-id: {ruuid(r)}"
    ),
    lambda r, c: (
        f"PS C:\\> $h = @{{ Authorization = 'Bearer {c['show']}' }}\n"
        f"PS C:\\> Invoke-RestMethod https://api.{c['svc_host']}.example/v1/locations -Headers $h | ft id,name\n\n"
        f"id    name\n--    ----\n{r.randint(100, 999)}   {c['practice']}"
    ),
    lambda r, c: (
        "Traceback (most recent call last):\n"
        f'  File "C:\\sync\\{c["svc_id"]}_sync.py", line {r.randint(20, 300)}, in push\n'
        f"    resp = client.post(url, headers={{'Authorization': 'Bearer {c['show']}'}})\n"
        f"requests.exceptions.ConnectTimeout: HTTPSConnectionPool(host='api.{c['svc_host']}.example', port=443)"
    ),
]
TOK_TOOL = [
    lambda r, c: (
        f"{c['date']}T{c['time']}Z [{c['svc_id']}-sync] loaded config from C:\\ProgramData\\{c['svc_id']}\\app.json "
        f"{{'practice': '{c['practice']}', '{c['env'].lower()}': '{c['show']}', 'poll_s': {r.randint(30, 600)}}}"
    ),
    lambda r, c: (
        f"PS C:\\> [Environment]::GetEnvironmentVariable('{c['env']}', 'Machine')\n{c['show']}\n"
        f"PS C:\\> Restart-Service {c['svc_id']}-agent"
    ),
]

# ---------------------------------------------------------------- generic templates (password style)
PW_T = [
    lambda r, c: f"{c['label']} ({c['practice']}): {c['user']} / {c['v']}",
    lambda r, c: (
        f"Lesson: after re-imaging {c['host']} the {c['label']} was reset by the vendor tech. "
        f"New one: {c['v']} (user {c['user']}). Write it in the vault the same day."
    ),
    lambda r, c: f"TODO({c['who']}): change the {c['label']} on {c['host']}, still {c['v']} since the install.",
    lambda r, c: (
        f"Handover {c['date']}\n* {c['practice']}: {c['svc']} ok\n"
        f"* {c['label']}: login {c['user']}, password {c['v']}\n* call the lab about the scanner"
    ),
    lambda r, c: (
        f"Ticket #{c['tid']} - {c['svc']} login failing at {c['practice']}\n"
        f"Resolution: password was changed by front desk. Reset it to {c['v']} for {c['user']}."
    ),
    lambda r, c: (
        f"Subject: {c['svc']} access\n\nHi {c['who']},\nusername: {c['user']}\npassword: {c['v']}\n"
        f"Please change it after first login.\n-- {c['who2']}"
    ),
    lambda r, c: f"[{c['time']}] {c['who']}: pw for {c['svc']} on {c['host']}?\n[{c['time']}] {c['who2']}: {c['v']}",
    lambda r, c: f"Hasło do {c['svc']} ({c['practice']}): {c['v']} - login {c['user']}.",
    lambda r, c: f"{c['practice']} {c['svc']} 계정: {c['user']} / 비밀번호 {c['v']}",
    lambda r, c: (
        f"La contraseña de {c['svc']} en {c['practice']} es {c['v']} (usuario {c['user']}), no la cambies sin avisar."
    ),
    lambda r, c: f"Wachtwoord {c['svc']} ({c['host']}): {c['v']} - gebruiker {c['user']}.",
    lambda r, c: f"Lozinka za {c['svc']} na {c['host']}: {c['v']} (korisnik {c['user']}).",
    lambda r, c: f"رمز عبور {c['svc']} در {c['practice']}: {c['v']} (کاربر {c['user']})",
    lambda r, c: f"{c['env']}_USER={c['user']}\n{c['env']}_PASSWORD={c['v']}\n{c['env']}_HOST={c['host'].lower()}\n",
    lambda r, c: json.dumps(
        {
            "host": c["host"],
            "username": c["user"],
            "password": c["v"],
            "port": c["port"],
        },
        indent=2,
    ),
    lambda r, c: f"{c['svc_id']}:\n  host: {c['host']}\n  user: {c['user']}\n  password: {c['v']}\n",
    lambda r, c: f"[{c['svc_id']}]\nHost={c['host']}\nUser={c['user']}\nPassword={c['v']}\nRetry=3\n",
    lambda r, c: (
        f'$pw = ConvertTo-SecureString "{c["v"]}" -AsPlainText -Force\n'
        f"$cred = New-Object System.Management.Automation.PSCredential ('{c['user']}', $pw)\n"
        f"Enter-PSSession -ComputerName {c['host']} -Credential $cred"
    ),
    lambda r, c: (
        f"PS C:\\> cmdkey /generic:{c['host']} /user:{c['user']} /pass:{c['v']}\n\n"
        "CMDKEY: Credential added successfully."
    ),
    lambda r, c: (
        f"$ curl -v -u {c['user']}:{c['v']} https://{c['host'].lower()}.local/api/status\n"
        f"*   Trying {c['ip']}:443...\n> GET /api/status HTTP/1.1\n< HTTP/1.1 200 OK"
    ),
    lambda r, c: (
        f"{c['date']} {c['time']} WARN {c['svc_id']} connect retry 3/5 "
        f"(user={c['user']} password={c['v']} host={c['ip']})"
    ),
    lambda r, c: (
        f"Job #{c['tid']} nightly-{c['svc_id']}\n+ sshpass -p '{c['v']}' ssh {c['user']}@{c['ip']} 'systemctl status'\n"
        "active (running)"
    ),
    lambda r, c: (
        f'# settings.py\n{c["env"]} = {{\n    "HOST": "{c["ip"]}",\n    "USER": "{c["user"]}",\n'
        f'    "PASSWORD": "{c["v"]}",\n}}\n'
    ),
    lambda r, c: (
        f"Runbook ({c['svc']}):\n1. Log in at https://{c['host'].lower()}.local as {c['user']}\n"
        f"2. Password: {c['v']}\n3. Check the queue and the last sync time."
    ),
]

PW_T += [
    lambda r, c: (
        f"PS C:\\> $cred = Get-Credential {c['user']}   # typed: {c['v']}\n"
        f"PS C:\\> New-PSDrive -Name S -PSProvider FileSystem -Root \\\\{c['host']}\\scans -Credential $cred\n"
        "Name  Used (GB)  Free (GB) Provider      Root\n----  ---------  --------- --------      ----\nS         41.2     182.9 FileSystem    scans"
    ),
    lambda r, c: (
        f"{c['date']} {c['time']} [{c['svc_id']}] DEBUG auth payload "
        f'{{"username": "{c["user"]}", "password": "{c["v"]}", "remember": true}}\n'
        f"{c['date']} {c['time']} [{c['svc_id']}] INFO login ok, session {r.randint(10**5, 10**6)}"
    ),
]

# connection-string style templates (password only is the secret)
CONN_T = [
    lambda r, c: (
        f"DRIVER={{ODBC Driver 17 for SQL Server}};SERVER={c['host']}\\{c['inst']};DATABASE={c['db']};"
        f"UID={c['user']};PWD={c['v']};Encrypt=no"
    ),
    lambda r, c: (
        "[oledb]\n; Everything after this line is an OLE DB initstring\n"
        f"Provider=SQLOLEDB.1;Password={c['v']};Persist Security Info=True;User ID={c['user']};"
        f"Initial Catalog={c['db']};Data Source={c['host']}\\{c['inst']}"
    ),
    lambda r, c: (
        f"[ODBC]\nDSN={c['db']}\nDriver=SQL Server\nServer={c['host']}\\{c['inst']}\n"
        f"UID={c['user']}\nPWD={c['v']}\nDatabase={c['db']}\n"
    ),
    lambda r, c: (
        f'PS C:\\> sqlcmd -S {c["host"]}\\{c["inst"]} -U {c["user"]} -P {c["v"]} -Q "SELECT @@VERSION"\n'
        "Microsoft SQL Server 2019 (RTM-CU22) - 15.0.4322.2 (X64)\n(1 rows affected)"
    ),
    lambda r, c: (
        f'<add name="{c["db"]}" connectionString="Data Source={c["host"]};Initial Catalog={c["db"]};'
        f'User Id={c["user"]};Password={c["v"]};" providerName="System.Data.SqlClient" />'
    ),
    lambda r, c: (
        f"{c['date']} {c['time']} ERROR {c['svc_id']} could not open connection "
        f"'Server={c['host']};Database={c['db']};User Id={c['user']};Password={c['v']};' : timeout"
    ),
]
MYSQL_T = [
    lambda r, c: f"DATABASE_URL=mysql://{c['user']}:{c['v']}@{c['host'].lower()}:3306/{c['db']}\n",
    lambda r, c: (
        f"$ mysql -h {c['ip']} -u {c['user']} -p{c['v']} {c['db']} -e 'SELECT COUNT(*) FROM patient;'\n"
        f"+----------+\n| COUNT(*) |\n+----------+\n|    {r.randint(1000, 9999)} |\n+----------+"
    ),
    lambda r, c: f"[client]\nuser={c['user']}\npassword={c['v']}\nhost={c['host']}\n",
    lambda r, c: (
        f"<ConnectionSettings>\n  <DatabaseConnection>\n    <ComputerName>{c['host']}</ComputerName>\n"
        f"    <Database>{c['db']}</Database>\n    <User>{c['user']}</User>\n"
        f"    <Password>{c['v']}</Password>\n  </DatabaseConnection>\n</ConnectionSettings>"
    ),
]


# ---------------------------------------------------------------- kind-specific templates
def _tpl(*fs):
    return list(fs)


HOOK_T = _tpl(
    lambda r, c: f"Alerts for failed Veeam jobs go to {c['show']} (channel #it-{c['svc_id']})",
    lambda r, c: (
        f'$hook = "{c["show"]}"\nInvoke-RestMethod -Uri $hook -Method Post -Body $json -ContentType "application/json"'
    ),
    lambda r, c: f"notify:\n  on_failure: true\n  webhook_url: {c['show']}\n",
    lambda r, c: f"{c['date']} {c['time']} INFO notifier POST {c['show']} -> 204",
    lambda r, c: (
        f"$ curl -v -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"Veeam OK\"}}' {c['show']}\n"
        "> POST /... HTTP/2\n< HTTP/2 200\nok"
    ),
    lambda r, c: f"Webhook do alertów z Datto ({c['practice']}): {c['show']}",
    lambda r, c: f"Ticket #{c['tid']}: nobody saw the failed backup, the old hook was deleted. New one: {c['show']}",
)

PEM_T = _tpl(
    lambda r, c: f"Key for {c['svc']} on {c['host']} (saved {c['date']}):\n{c['show']}\n",
    lambda r, c: f"$ cat ~/.ssh/{c['svc_id']}_key\n{c['show']}\n$ chmod 600 ~/.ssh/{c['svc_id']}_key",
    lambda r, c: f"Handover: {c['svc']} uses this key, do not regenerate without telling {c['who']}.\n\n{c['show']}",
    lambda r, c: (
        f"{c['svc_id']}:\n  host: {c['ip']}\n  private_key: |\n"
        + "\n".join("    " + ln for ln in c["show"].split("\n"))
    ),
    lambda r, c: (
        f"Ticket #{c['tid']}: {c['svc']} tunnel broken. Re-deployed key below to {c['host']}.\n```\n{c['show']}\n```"
    ),
    lambda r, c: f"Klucz prywatny do {c['svc']} ({c['practice']}):\n{c['show']}",
    lambda r, c: f"PS C:\\> Get-Content C:\\ProgramData\\{c['svc_id']}\\key.pem\n{c['show']}",
)

OVPN_T = _tpl(
    lambda r, c: f"client\ndev tun\nremote {c['ip']} 1194\nkey-direction 1\n<tls-auth>\n{c['show']}\n</tls-auth>",
    lambda r, c: f"ta.key for the {c['practice']} site-to-site (from {c['host']}):\n{c['show']}",
    lambda r, c: f"$ sudo cat /etc/openvpn/server/ta.key\n{c['show']}",
    lambda r, c: f"Handover {c['date']}: VPN tls-crypt key, keep in sync on both ends.\n{c['show']}",
)

GCP_T = _tpl(
    lambda r, c: f"Service account JSON for the Google Business reviews sync ({c['practice']}):\n{c['show']}",
    lambda r, c: f"$ cat C:\\Reviews\\sa.json\n{c['show']}",
    lambda r, c: f"Ticket #{c['tid']}: review replies stopped, re-created the key:\n{c['show']}",
    lambda r, c: f"{c['date']} {c['time']} DEBUG loaded credentials {c['show']}",
)

BASIC_T = _tpl(
    lambda r, c: (
        f"> POST /orders/v2/submit HTTP/1.1\n> Host: {c['svc_host']}.example\n> Authorization: Basic {c['v']}\n> Content-Type: application/json"
    ),
    lambda r, c: f"headers:\n  Authorization: Basic {c['v']}\n  Accept: application/json\n",
    lambda r, c: f'$headers = @{{ Authorization = "Basic {c["v"]}" }}\nInvoke-RestMethod -Uri $url -Headers $headers',
    lambda r, c: (
        f"The {c['svc']} endpoint wants 'Authorization: Basic {c['v']}' (user:pass base64), lesson: no trailing newline when encoding."
    ),
)

WIFI_T = _tpl(
    lambda r, c: f"Wi-Fi {c['ssid']} (staff, not guest): {c['v']}",
    lambda r, c: f'network={{\n    ssid="{c["ssid"]}"\n    psk="{c["v"]}"\n}}',
    lambda r, c: (
        f'PS C:\\> netsh wlan show profile name="{c["ssid"]}" key=clear\n    Security key           : Present\n    Key Content            : {c["v"]}'
    ),
    lambda r, c: f"WIFI:T:WPA;S:{c['ssid']};P:{c['v']};;  <- QR code printed for the op rooms",
)

ALARM_T = _tpl(
    lambda r, c: f"Door alarm ({c['practice']}, back entrance): disarm code {c['v']}, panel is behind the fridge.",
    lambda r, c: (
        f"Alarm code for the pharmacy roller door: {c['v']} then # . Monitoring company calls {c['who']} if it trips."
    ),
    lambda r, c: f"Kod do alarmu ({c['practice']}): {c['v']}. Po 30 s dzwoni ochrona.",
    lambda r, c: f"Handover {c['date']}: cleaners have their own user on the Bosch panel, master code is {c['v']}.",
    lambda r, c: f"El código de la alarma del consultorio es {c['v']} (entrada trasera).",
    lambda r, c: f"Alarmcode {c['practice']}: {c['v']} - niet aan schoonmakers geven.",
    lambda r, c: f"کد دزدگیر در پشتی: {c['v']}",
    lambda r, c: f"[{c['time']}] {c['who']}: alarm is beeping, code?\n[{c['time']}] {c['who2']}: {c['v']} then OFF",
    lambda r, c: (
        f"Ticket #{c['tid']}: after-hours alarm at {c['practice']}. Installer reset the master code to {c['v']}."
    ),
    lambda r, c: f"TODO({c['who']}): change the alarm master code ({c['v']}) - ex-employee knows it.",
    lambda r, c: f"Šifra alarma za {c['practice']}: {c['v']}",
    lambda r, c: f"{c['practice']} 출입문 경보 해제 코드: {c['v']}",
)

RTSP_T = _tpl(
    lambda r, c: f"rtsp://{c['user']}:{c['v']}@{c['ip']}:554/Streaming/Channels/101",
    lambda r, c: f"VLC > Open Network Stream: rtsp://{c['user']}:{c['v']}@{c['ip']}/h264 (pharmacy till camera)",
    lambda r, c: (
        f"{c['date']} {c['time']} blueiris cam{r.randint(1, 9)} url=rtsp://{c['user']}:{c['v']}@{c['ip']}:554/cam/realmonitor"
    ),
)

WIN_T = _tpl(
    lambda r, c: f"PS C:\\> net user {c['user']} {c['v']}\nThe command completed successfully.",
    lambda r, c: (
        f'PS C:\\> Set-LocalUser -Name {c["user"]} -Password (ConvertTo-SecureString "{c["v"]}" -AsPlainText -Force)'
    ),
    lambda r, c: f"Local admin on {c['host']} (LAPS not rolled out yet): .\\{c['user']} / {c['v']}",
)

SNMP_T = _tpl(
    lambda r, c: f"SNMP v2c community for the printers at {c['practice']}: {c['v']} (changed from public)",
    lambda r, c: (
        f"$ snmpwalk -v2c -c {c['v']} {c['ip']} 1.3.6.1.2.1.43.11.1.1.9\niso.3.6.1.2.1.43.11.1.1.9.1.1 = INTEGER: {r.randint(5, 95)}"
    ),
    lambda r, c: f"snmp:\n  version: 2c\n  community: {c['v']}\n  targets: [{c['ip']}]\n",
    lambda r, c: (
        f"Lesson: PRTG showed all Zebra label printers as down because the community was still the old one. New community: {c['v']}"
    ),
)

MIRTH_T = _tpl(
    lambda r, c: (
        f"<channel>\n  <name>ADT_to_OpenDental_{c['tid']}</name>\n  <sourceConnector>\n"
        f'    <properties class="com.mirth.connect.connectors.tcp.TcpReceiverProperties">\n'
        f"      <listenerConnectorProperties><port>6661</port></listenerConnectorProperties>\n"
        f"    </properties>\n  </sourceConnector>\n  <destinationConnector>\n"
        f"    <url>jdbc:sqlserver://{c['host']}:1433;databaseName={c['db']}</url>\n"
        f"    <username>{c['user']}</username>\n    <password>{c['v']}</password>\n"
        "  </destinationConnector>\n</channel>"
    ),
    lambda r, c: (
        f"mirth.properties\ndatabase = postgres\ndatabase.url = jdbc:postgresql://{c['ip']}:5432/mirthdb\ndatabase.username = {c['user']}\ndatabase.password = {c['v']}\n"
    ),
    lambda r, c: (
        f"$ mccommand -a https://{c['ip']}:8443 -u {c['user']} -p {c['v']}\nConnected to Mirth Connect server @ https://{c['ip']}:8443 (4.4.1)"
    ),
)

VEEAM_T = _tpl(
    lambda r, c: f"Veeam Agent job '{c['host']}-daily' encryption password: {c['v']} (hint in console: 'dental vault')",
    lambda r, c: (
        f'PS C:\\> Add-VBREncryptionKey -Password (ConvertTo-SecureString "{c["v"]}" -AsPlainText -Force) -Description "{c["practice"]} offsite"'
    ),
    lambda r, c: f"Datto SIRIS share: restore of {c['host']} needs the agent encryption passphrase {c['v']}",
)


# ---------------------------------------------------------------- kinds
def K(name, style, gen, labels, envs, svc, users=None, extra=None, only_extra=False):
    return {
        "name": name,
        "style": style,
        "gen": gen,
        "labels": labels,
        "envs": envs,
        "svc": svc,
        "users": users or ["admin"],
        "extra": extra or [],
        "only_extra": only_extra,
    }


KINDS = [
    K(
        "github_pat",
        "tok",
        t_ghp,
        ["GitHub token for the scripts repo", "GitHub PAT"],
        ["GITHUB_TOKEN", "GH_PAT"],
        "GitHub",
    ),
    K(
        "github_fine_grained_pat",
        "tok",
        t_gh_fine,
        ["fine-grained GitHub token", "GitHub deploy PAT"],
        ["GH_TOKEN"],
        "GitHub",
    ),
    K(
        "gitlab_pat",
        "tok",
        t_glpat,
        ["GitLab access token", "GitLab PAT for the runbooks repo"],
        ["GITLAB_TOKEN"],
        "GitLab",
    ),
    K(
        "slack_bot_token",
        "tok",
        t_slack_bot,
        ["Slack bot token", "Slack token for the alerts bot"],
        ["SLACK_BOT_TOKEN"],
        "Slack",
    ),
    K(
        "slack_webhook",
        "tok",
        t_slack_hook,
        ["Slack webhook", "Slack incoming webhook"],
        ["SLACK_WEBHOOK_URL"],
        "Slack",
        extra=HOOK_T,
    ),
    K(
        "discord_webhook",
        "tok",
        t_discord_hook,
        ["Discord webhook", "Discord alerts webhook"],
        ["DISCORD_WEBHOOK"],
        "Discord",
        extra=HOOK_T,
    ),
    K(
        "stripe_secret_key",
        "tok",
        t_stripe_sk,
        ["Stripe secret key", "Stripe live secret key"],
        ["STRIPE_SECRET_KEY"],
        "Stripe",
    ),
    K(
        "stripe_restricted_key",
        "tok",
        t_stripe_rk,
        ["Stripe restricted key", "restricted Stripe key for the booking widget"],
        ["STRIPE_API_KEY"],
        "Stripe",
    ),
    K(
        "stripe_webhook_secret",
        "tok",
        t_stripe_whsec,
        ["Stripe webhook signing secret"],
        ["STRIPE_WEBHOOK_SECRET"],
        "Stripe",
    ),
    K(
        "square_access_token",
        "tok",
        t_square,
        ["Square production access token", "Square access token"],
        ["SQUARE_ACCESS_TOKEN"],
        "Square",
    ),
    K(
        "square_oauth_secret",
        "tok",
        t_square_secret,
        ["Square application secret", "Square OAuth secret"],
        ["SQUARE_APP_SECRET"],
        "Square",
    ),
    K(
        "clover_api_token",
        "tok",
        t_uuid,
        ["Clover API token", "Clover merchant API token"],
        ["CLOVER_API_TOKEN"],
        "Clover",
    ),
    K(
        "sumup_api_key",
        "tok",
        t_sumup,
        ["SumUp secret API key", "SumUp API key"],
        ["SUMUP_API_KEY"],
        "SumUp",
    ),
    K(
        "twilio_auth_token",
        "tok",
        t_hex32,
        ["Twilio auth token", "Twilio auth token for SMS reminders"],
        ["TWILIO_AUTH_TOKEN"],
        "Twilio",
    ),
    K(
        "sendgrid_api_key",
        "tok",
        t_sendgrid,
        ["SendGrid API key", "SendGrid key for recall emails"],
        ["SENDGRID_API_KEY"],
        "SendGrid",
    ),
    K(
        "mailgun_api_key",
        "tok",
        t_mailgun,
        ["Mailgun API key", "Mailgun private key"],
        ["MAILGUN_API_KEY"],
        "Mailgun",
    ),
    K(
        "openai_api_key",
        "tok",
        t_openai,
        ["OpenAI API key", "OpenAI key for the review-reply drafts"],
        ["OPENAI_API_KEY"],
        "OpenAI",
    ),
    K(
        "anthropic_api_key",
        "tok",
        t_anthropic,
        ["Anthropic API key", "Claude API key"],
        ["ANTHROPIC_API_KEY"],
        "Anthropic",
    ),
    K(
        "google_api_key",
        "tok",
        t_google_key,
        [
            "server-side Google Places API key",
            "Google Maps server key for review pulls",
        ],
        ["GOOGLE_PLACES_KEY"],
        "Google Places",
    ),
    K(
        "google_oauth_client_secret",
        "tok",
        t_gocspx,
        ["Google OAuth client secret", "client secret for the Business Profile API"],
        ["GOOGLE_CLIENT_SECRET"],
        "Google Business Profile",
    ),
    K(
        "azure_client_secret",
        "tok",
        t_azure_secret,
        ["Entra app client secret", "M365 app registration secret"],
        ["AZURE_CLIENT_SECRET", "GRAPH_CLIENT_SECRET"],
        "Microsoft Graph",
    ),
    K(
        "aws_secret_access_key",
        "tok",
        t_aws_secret,
        ["Wasabi secret key for the Veeam offsite bucket", "S3 secret access key"],
        ["AWS_SECRET_ACCESS_KEY"],
        "Wasabi",
    ),
    K(
        "azure_storage_account_key",
        "tok",
        t_azure_storage,
        ["Azure storage account key", "storage key for the Veeam archive tier"],
        ["AZURE_STORAGE_KEY"],
        "Azure Blob",
    ),
    K(
        "telegram_bot_token",
        "tok",
        t_telegram,
        ["Telegram bot token", "Telegram alert bot token"],
        ["TELEGRAM_BOT_TOKEN"],
        "Telegram",
    ),
    K(
        "sentry_auth_token",
        "tok",
        t_sentry_user,
        ["Sentry auth token", "Sentry user auth token"],
        ["SENTRY_AUTH_TOKEN"],
        "Sentry",
    ),
    K(
        "npm_token",
        "tok",
        t_npm,
        ["npm token", "npm publish token for the booking widget"],
        ["NPM_TOKEN"],
        "npm",
    ),
    K(
        "pypi_token",
        "tok",
        t_pypi,
        ["PyPI API token", "PyPI upload token"],
        ["TWINE_PASSWORD", "PYPI_TOKEN"],
        "PyPI",
    ),
    K(
        "docker_hub_pat",
        "tok",
        t_docker,
        ["Docker Hub access token", "Docker Hub PAT"],
        ["DOCKERHUB_TOKEN"],
        "Docker Hub",
    ),
    K(
        "cloudflare_api_token",
        "tok",
        t_cloudflare,
        ["Cloudflare API token", "Cloudflare DNS edit token"],
        ["CF_API_TOKEN", "CLOUDFLARE_API_TOKEN"],
        "Cloudflare",
    ),
    K(
        "tailscale_auth_key",
        "tok",
        t_tailscale,
        ["Tailscale auth key", "Tailscale reusable auth key"],
        ["TS_AUTHKEY"],
        "Tailscale",
    ),
    K(
        "datadog_api_key",
        "tok",
        t_hex32,
        ["Datadog API key", "Datadog agent API key"],
        ["DD_API_KEY"],
        "Datadog",
    ),
    K(
        "hubspot_private_app_token",
        "tok",
        t_hubspot,
        ["HubSpot private app token"],
        ["HUBSPOT_TOKEN"],
        "HubSpot",
    ),
    K(
        "mailchimp_api_key",
        "tok",
        t_mailchimp,
        ["Mailchimp API key", "Mailchimp key for the newsletter"],
        ["MAILCHIMP_API_KEY"],
        "Mailchimp",
    ),
    K(
        "weave_api_token",
        "tok",
        t_jwt,
        ["Weave API token", "Weave integration token"],
        ["WEAVE_API_TOKEN"],
        "Weave",
    ),
    K(
        "open_dental_customer_key",
        "tok",
        t_od_key,
        ["Open Dental API customer key", "Open Dental eConnector customer key"],
        ["OD_CUSTOMER_KEY"],
        "Open Dental API",
    ),
    K(
        "dentrix_ascend_client_secret",
        "tok",
        t_alnum40,
        ["Dentrix Ascend API client secret", "Dentrix developer client secret"],
        ["DENTRIX_CLIENT_SECRET"],
        "Dentrix Ascend",
    ),
    K(
        "nexhealth_api_key",
        "tok",
        t_alnum48,
        ["NexHealth API key", "online booking API key (NexHealth)"],
        ["NEXHEALTH_API_KEY"],
        "NexHealth",
    ),
    K(
        "availity_client_secret",
        "tok",
        t_alnum24,
        ["Availity API client secret", "Availity clearinghouse client secret"],
        ["AVAILITY_CLIENT_SECRET"],
        "Availity",
    ),
    K(
        "vonage_api_secret",
        "tok",
        t_vonage,
        ["Vonage API secret", "Vonage SMS API secret"],
        ["VONAGE_API_SECRET"],
        "Vonage SMS",
    ),
    K(
        "clicksend_api_key",
        "tok",
        t_uuid_upper,
        ["ClickSend API key", "ClickSend SMS API key"],
        ["CLICKSEND_API_KEY"],
        "ClickSend",
    ),
    K(
        "datto_rmm_api_secret",
        "tok",
        t_datto,
        ["Datto RMM API secret key", "Datto API secret"],
        ["DATTO_API_SECRET"],
        "Datto RMM",
    ),
    K(
        "wireguard_private_key",
        "tok",
        t_wg,
        ["WireGuard private key", "WireGuard PrivateKey for the pharmacy tunnel"],
        ["WG_PRIVATE_KEY"],
        "WireGuard",
        extra=[
            lambda r, c: (
                f"[Interface]\nAddress = 10.66.0.{r.randint(2, 250)}/32\nPrivateKey = {c['v']}\nDNS = {c['ip']}\n"
            ),
            lambda r, c: f"$ wg genkey | tee privatekey\n{c['v']}",
        ],
    ),
    K(
        "vpn_preshared_key",
        "tok",
        t_psk,
        ["IPsec pre-shared key", "site-to-site VPN PSK"],
        ["VPN_PSK"],
        "site-to-site VPN",
        extra=[
            lambda r, c: f"crypto isakmp key {c['v']} address {c['ip']}",
            lambda r, c: f'conn pharmacy\n  authby=secret\n  right={c["ip"]}\n\n: PSK "{c["v"]}"',
        ],
    ),
    K(
        "bitlocker_recovery_key",
        "tok",
        t_bitlocker,
        ["BitLocker recovery key", "BitLocker recovery password"],
        ["BITLOCKER_KEY"],
        "BitLocker",
        extra=[
            lambda r, c: (
                f"PS C:\\> manage-bde -protectors -get C:\n    Numerical Password:\n      ID: {{{ruuid(r).upper()}}}\n      Password:\n        {c['v']}"
            )
        ],
    ),
    K(
        "http_basic_auth_credentials",
        "none",
        t_basic,
        ["basic auth header"],
        ["AUTH"],
        "wholesaler ordering API",
        extra=BASIC_T,
        only_extra=True,
    ),
    K(
        "gmail_app_password",
        "tok",
        t_app_pw,
        ["Gmail app password", "Google app password for the scanner-to-email"],
        ["SMTP_PASSWORD"],
        "Gmail SMTP",
    ),
    K(
        "microsoft_app_password",
        "tok",
        t_ms_app_pw,
        ["Microsoft app password for the copier", "M365 app password (legacy SMTP)"],
        ["SMTP_PASS"],
        "M365 SMTP",
    ),
    K(
        "rsa_private_key",
        "none",
        t_rsa,
        ["RSA key"],
        ["KEY"],
        "SFTP to the dental lab",
        extra=PEM_T,
        only_extra=True,
    ),
    K(
        "openssh_private_key",
        "none",
        t_openssh,
        ["SSH key"],
        ["KEY"],
        "backup NAS rsync",
        extra=PEM_T,
        only_extra=True,
    ),
    K(
        "openvpn_static_key",
        "none",
        t_ovpn,
        ["ta.key"],
        ["KEY"],
        "OpenVPN",
        extra=OVPN_T,
        only_extra=True,
    ),
    K(
        "gcp_service_account_key",
        "none",
        t_gcp,
        ["SA key"],
        ["KEY"],
        "Google Business reviews",
        extra=GCP_T,
        only_extra=True,
    ),
    # ---- password kinds
    K(
        "windows_local_admin_password",
        "pw",
        pw_human,
        ["local admin password", "workstation admin login"],
        ["WIN_ADMIN"],
        "Windows local admin",
        users=["Administrator", "itadmin", "dentadmin", "localadm"],
        extra=WIN_T,
    ),
    K(
        "sql_server_password",
        "pw",
        pw_gen,
        ["imaging SQL login", "SQL Server sa login"],
        ["IMAGING_DB"],
        "imaging SQL Server",
        users=["sa", "dexis", "romexis_user", "xvweb", "cs_imaging"],
        extra=CONN_T,
    ),
    K(
        "mysql_password",
        "pw",
        pw_human,
        ["Open Dental MySQL login", "MariaDB root login"],
        ["OD_DB"],
        "Open Dental MySQL",
        users=["root", "opendental", "od_readonly", "odreport"],
        extra=MYSQL_T,
    ),
    K(
        "pharmacy_db_password",
        "pw",
        pw_gen,
        ["pharmacy system SQL login", "PioneerRx database login"],
        ["PHARM_DB"],
        "pharmacy management DB",
        users=["pioneer_svc", "rxreport", "sa", "bestrx"],
        extra=CONN_T,
    ),
    K(
        "m365_mailbox_password",
        "pw",
        pw_human,
        ["shared mailbox password", "M365 login"],
        ["M365"],
        "Microsoft 365",
        users=[
            "reception@parksidepharmacy.example",
            "frontdesk@brightsmile.example",
            "rx@parksidepharmacy.example",
        ],
    ),
    K(
        "srfax_access_password",
        "pw",
        pw_human,
        ["SRFax access password", "SRFax API access_pwd"],
        ["SRFAX"],
        "SRFax",
        users=["access_id 1" + "00234", "access_id 1" + "18875"],
        extra=[
            lambda r, c: (
                f"POST https://www.srfax.com/SRF_SecWebSvc.php action=Get_Fax_Inbox access_id={r.randint(100000, 999999)} access_pwd={c['v']}"
            )
        ],
    ),
    K(
        "efax_password",
        "pw",
        pw_human,
        ["eFax portal password", "eFax Corporate login"],
        ["EFAX"],
        "eFax",
        users=["parkside-rx", "oakwood-front"],
    ),
    K(
        "mirth_admin_password",
        "pw",
        pw_gen,
        ["Mirth Connect admin password", "Mirth DB password"],
        ["MIRTH"],
        "Mirth Connect",
        users=["admin", "mirthdb", "hl7svc"],
        extra=MIRTH_T,
    ),
    K(
        "backup_encryption_password",
        "pw",
        pw_gen,
        ["Veeam encryption password", "backup encryption passphrase"],
        ["VEEAM_ENC"],
        "Veeam",
        users=["(n/a)", "veeam"],
        extra=VEEAM_T,
    ),
    K(
        "printer_admin_password",
        "pw",
        pw_human,
        ["printer web admin password", "Zebra label printer admin PIN"],
        ["PRINTER"],
        "printer EWS",
        users=["admin", "Admin", "root"],
    ),
    K(
        "cctv_nvr_password",
        "pw",
        pw_human,
        ["NVR admin password", "CCTV recorder login"],
        ["NVR"],
        "Hikvision NVR",
        users=["admin", "viewer", "cctv"],
        extra=RTSP_T,
    ),
    K(
        "wifi_psk",
        "none",
        pw_wifi,
        ["Wi-Fi"],
        ["WIFI"],
        "Wi-Fi",
        extra=WIFI_T,
        only_extra=True,
    ),
    K(
        "scanner_cloud_password",
        "pw",
        pw_human,
        ["iTero portal password", "3Shape Unite login", "Medit Link account"],
        ["SCANNER"],
        "intraoral scanner cloud",
        users=["scans@oakwooddental.example", "drpatel", "ortho-harborview"],
    ),
    K(
        "wholesaler_portal_password",
        "pw",
        pw_human,
        ["McKesson Connect password", "Cardinal Order Express login"],
        ["WHOLESALER"],
        "wholesaler ordering portal",
        users=["parkside01", "rx-orders", "pharmacist"],
    ),
    K(
        "erx_gateway_password",
        "pw",
        pw_gen,
        ["e-prescribing gateway password", "eRx interface password"],
        ["ERX"],
        "e-prescribing gateway",
        users=["parkside_erx", "rxhub-svc", "erx_interface"],
    ),
    K(
        "ad_service_account_password",
        "pw",
        pw_gen,
        ["AD service account password", "svc account for scans"],
        ["AD_SVC"],
        "Active Directory",
        users=["CORP\\svc_scan", "CORP\\svc_veeam", "svc_opendental"],
    ),
    K(
        "sftp_password",
        "pw",
        pw_human,
        ["lab SFTP password", "SFTP login for lab uploads"],
        ["SFTP"],
        "dental lab SFTP",
        users=["oakwood_upload", "cases", "brightsmile"],
    ),
    K(
        "remote_access_password",
        "pw",
        pw_human,
        ["TeamViewer unattended password", "AnyDesk unattended access password"],
        ["REMOTE"],
        "remote support",
        users=["(unattended)", "it-support"],
    ),
    K(
        "alarm_code",
        "none",
        pw_pin,
        ["alarm code"],
        ["ALARM"],
        "door alarm",
        extra=ALARM_T,
        only_extra=True,
    ),
    K(
        "snmp_community",
        "none",
        snmp_comm,
        ["SNMP community"],
        ["SNMP"],
        "SNMP",
        extra=SNMP_T,
        only_extra=True,
    ),
]


def _ctx(r: random.Random, k: dict) -> dict:
    svc = k["svc"]
    return {
        "label": r.choice(k["labels"]),
        "env": r.choice(k["envs"]),
        "svc": svc,
        "svc_id": "".join(ch for ch in svc.lower().replace(" ", "_") if ch.isalnum() or ch == "_"),
        "svc_host": "".join(ch for ch in svc.lower().replace(" ", "-") if ch.isalnum() or ch == "-"),
        "user": r.choice(k["users"]),
        "host": r.choice(HOSTS),
        "ip": c_ip(r),
        "port": r.choice([443, 1433, 3306, 8443, 22]),
        "practice": r.choice(PRACTICES + PHARMACY),
        "who": r.choice(PEOPLE),
        "who2": r.choice(PEOPLE),
        "date": c_date(r),
        "time": c_time(r),
        "tid": str(r.randint(1000, 99999)),
        "db": r.choice(
            [
                "opendental",
                "PWImage",
                "DEXIS",
                "RomexisDB",
                "PioneerRx",
                "XVWeb",
                "CSImaging",
            ]
        ),
        "inst": r.choice(["SQLEXPRESS", "DEXIS_DATA", "ROMEXIS", "PIONEER", "MSSQLSERVER"]),
        "ssid": r.choice(
            [
                "BrightSmile-Staff",
                "OAKWOOD-OPS",
                "Parkside_RX",
                "HV-Ortho-5G",
                "CedarPark-Clinic",
            ]
        ),
    }


def _positives(r: random.Random, seen: set) -> list[tuple[str, str, str]]:
    out = []
    for k in KINDS:
        pool = list(k["extra"])
        if not k["only_extra"]:
            if k["style"] == "tok":
                pool += TOK_T + TOK_TOOL
                if not k["name"].endswith("_webhook"):
                    pool += TOK_BEARER
            else:
                pool += PW_T
        r.shuffle(pool)
        made = 0
        i = 0
        while made < PER_KIND:
            tpl = pool[i % len(pool)]
            i += 1
            g = k["gen"](r)
            c = _ctx(r, k)
            if isinstance(g, tuple):
                v, more = g
                c.update(more)
            else:
                v = g
                c["show"] = v
            c["v"] = v
            text = tpl(r, c)
            if v not in text or text in seen or v != v.strip():
                continue
            seen.add(text)
            out.append((text, k["name"], v))
            made += 1
    return out


# ---------------------------------------------------------------- look-alikes (no credential inside)
_LOOK: list = []


def look(f):
    _LOOK.append(f)
    return f


def _p(r):
    return r.choice(PRACTICES + PHARMACY)


def _h(r):
    return r.choice(HOSTS)


def _sha256(r):
    return hashlib.sha256(str(r.random()).encode()).hexdigest()


@look
def lk_backup_sha256(r):
    return f"Veeam restore test {c_date(r)}: {_h(r)}-D{r.randint(1, 9)}.vbk SHA256 {_sha256(r)} matches the copy on Wasabi."


@look
def lk_md5_installer(r):
    return f"Downloaded OpenDental{r.randint(20, 24)}.{r.randint(1, 4)}.{r.randint(1, 60)}.msi, md5 {rs(r, 32, HEX)} - same as on the vendor site."


@look
def lk_commit(r):
    return f"Deployed scripts repo at commit {rs(r, 40, HEX)} ({rs(r, 7, HEX)} short) to {_h(r)}."


@look
def lk_request_id(r):
    return f"Availity 277CA rejected, x-request-id: {ruuid(r)}; payer said resubmit with corrected subscriber id."


@look
def lk_data_png(r):
    return f'<img alt="intraoral {r.randint(1, 32)}" src="data:image/png;base64,iVBORw0KGgo{b64(r, 60)}">'


@look
def lk_stripe_pk(r):
    return f'<script>const stripe = Stripe("{"pk_" + "live_51" + rs(r, 12) + rs(r, 86)}");</script>  <!-- publishable key, booking deposit -->'


@look
def lk_square_app_id(r):
    return f"Square Web Payments SDK: applicationId sq0idp-{rs(r, 22, URLS)}, locationId L{rs(r, 12, UPPER)} (both public, in the page)."


@look
def lk_google_client_id(r):
    return f"OAuth client id for the Business Profile app: {r.randint(10**11, 10**12 - 1)}-{rs(r, 32, LOWER)}.apps.googleusercontent.com"


@look
def lk_firebase(r):
    return (
        "const firebaseConfig = {\n"
        f'  apiKey: "{"AI" + "za" + rs(r, 35, URLS)}",\n'
        f'  authDomain: "{r.choice(["smile", "oak", "harbor"])}-booking-{r.randint(100, 999)}.firebaseapp.com",\n'
        f'  projectId: "smile-booking-{r.randint(100, 999)}",\n'
        "};  // web config, public by design"
    )


@look
def lk_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{rs(r, 38, URLS)}"></div> booking form on {_p(r)} site'


@look
def lk_sentry_dsn(r):
    return f"SENTRY_DSN=https://{rs(r, 32, HEX)}@o{r.randint(100000, 999999)}.ingest.sentry.io/{r.randint(1000000, 9999999)}"


@look
def lk_algolia_search(r):
    return f"Product search on the pharmacy site: Algolia app {rs(r, 10, UPPER)}, search-only key {rs(r, 32, HEX)} (safe in the browser)."


@look
def lk_tenant_id(r):
    return f"M365 tenant id: {ruuid(r)}\nApplication (client) id: {ruuid(r)}\nSecret lives in the vault, not here."


@look
def lk_placeholder(r):
    return f"{r.choice(['WEAVE_API_TOKEN', 'SQUARE_ACCESS_TOKEN', 'SRFAX_PASSWORD', 'TWILIO_AUTH_TOKEN'])}=<your-{r.choice(['token', 'key', 'password'])}-here>  # {_p(r)} {r.randint(1, 999)}"


@look
def lk_env_ref(r):
    v = r.choice(["DB_PASSWORD", "OD_CUSTOMER_KEY", "SMTP_PASS", "CLOVER_TOKEN"])
    return f"connection: Server={_h(r)};User Id=svc_{rs(r, 4, LOWER)};Password=${{{v}}};"


@look
def lk_gha_secret(r):
    return f"      - name: Deploy\n        env:\n          {r.choice(['SQUARE', 'WEAVE', 'DATTO'])}_TOKEN: ${{{{ secrets.{r.choice(['SQUARE', 'WEAVE', 'DATTO'])}_TOKEN_{r.randint(1, 99)} }}}}\n        run: ./deploy.sh"


@look
def lk_airflow_var(r):
    return f'pwd = Variable.get("{r.choice(["pioneer", "od", "srfax"])}_password_{r.randint(1, 50)}")\nconn = connect(host="{_h(r)}", password=pwd)'


@look
def lk_dbutils(r):
    return f'key = dbutils.secrets.get(scope="{r.choice(["dental", "pharmacy"])}-{r.randint(1, 40)}", key="availity-client-secret")'


@look
def lk_vault_path(r):
    return f"$ vault kv get -field=password secret/{r.choice(['dental', 'pharmacy'])}/{_h(r).lower()}/sa\n(value piped straight into sqlcmd, never echoed)"


@look
def lk_env_names(r):
    names = r.sample(
        [
            "TWILIO_AUTH_TOKEN",
            "SRFAX_ACCESS_PWD",
            "OD_CUSTOMER_KEY",
            "CLOVER_API_TOKEN",
            "SUMUP_API_KEY",
            "M365_CLIENT_SECRET",
            "VEEAM_ENC_PASSWORD",
        ],
        4,
    )
    return (
        "Required env vars (set on the server, not in git): " + ", ".join(names) + f". Ticket #{r.randint(1000, 99999)}"
    )


@look
def lk_ansible_vault(r):
    lines = wrap(rs(r, 320, HEX), 80)
    return "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join("  " + ln for ln in lines)


@look
def lk_sops(r):
    return f"mysql_password: ENC[AES256_GCM,data:{b64(r, 18)},iv:{b64(r, 32)},tag:{b64(r, 16)},type:str]"


@look
def lk_bcrypt(r):
    return f"| {r.randint(1, 60)} | frontdesk{r.randint(1, 9)} | $2b$12${rs(r, 53, ALNUM + './')} |"


@look
def lk_argon2(r):
    return (
        f"portal_users.password_hash = $argon2id$v=19$m=65536,t=3,p=4${b64(r, 16).rstrip('=')}${b64(r, 32).rstrip('=')}"
    )


@look
def lk_ssh_fp(r):
    return f"The authenticity of host '{c_ip(r)}' can't be established.\nED25519 key fingerprint is SHA256:{b64(r, 32).rstrip('=')}."


@look
def lk_pgp_fp(r):
    return "Vendor signing key fingerprint: " + " ".join(rs(r, 4, "0123456789ABCDEF") for _ in range(10))


@look
def lk_thumbprint(r):
    return f"PS C:\\> Get-ChildItem Cert:\\LocalMachine\\My\n\nThumbprint                                Subject\n----------                                -------\n{rs(r, 40, '0123456789ABCDEF')}  CN={_h(r).lower()}.local"


@look
def lk_public_cert(r):
    return (
        pem(r, "CERTIFICATE", "MIIC" + rs(r, 4, B64) + "CCAa" + b64(r, 540))
        + f"\n(public cert of {_h(r)}, fine to share)"
    )


@look
def lk_ssh_pub(r):
    return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64(r, 32)[:43]} it@{_h(r).lower()}  <- add to authorized_keys on the NAS"


@look
def lk_masked(r):
    return f"SRFax settings: account {r.randint(100000, 999999)}, access password ********, fax {r.randint(200, 999)}-555-{r.randint(1000, 9999)}"


@look
def lk_changeme_doc(r):
    return f"Vendor docs ({r.choice(['NVR', 'Zebra ZD421', 'HP M404', 'Bosch B5512'])}): the default password is printed on the label; set a new one on first login (step {r.randint(2, 9)})."


@look
def lk_exec_count(r):
    return json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 300),
            "id": rs(r, 8, HEX),
            "metadata": {},
            "outputs": [],
            "source": ["df = load_claims()\n"],
        }
    )


@look
def lk_run_id(r):
    return f"mlflow run {rs(r, 32, HEX)} finished (no-show prediction), wandb run {r.choice(['it-ops', 'dental'])}/noshow/runs/{rs(r, 8, LOWER)}"


@look
def lk_model_id(r):
    m = r.choice(
        [
            "sentence-transformers/all-MiniLM-L6-v2",
            "openai/whisper-small",
            "distilbert-base-uncased",
            "BAAI/bge-small-en-v1.5",
        ]
    )
    return f"Using {m} (revision {rs(r, 40, HEX)}) for the voicemail transcription pilot."


@look
def lk_image_digest(r):
    return f"mirth: image nextgenhealthcare/connect@sha256:{_sha256(r)} pulled"


@look
def lk_npm_integrity(r):
    return f'"node_modules/booking-widget": {{"version": "2.{r.randint(0, 9)}.{r.randint(0, 20)}", "integrity": "sha512-{b64(r, 64)}"}}'


@look
def lk_sid(r):
    return f"User SID: S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(1000, 1300)}"


@look
def lk_bitlocker_id(r):
    return f"BitLocker key protector ID {{{ruuid(r).upper()}}} on {_h(r)} - recovery password escrowed to Entra, not stored here."


@look
def lk_npi(r):
    return f"Billing NPI {r.randint(10**9, 2 * 10**9 - 1)}, taxonomy 1223G0001X, TIN on file - for the Availity enrollment."


@look
def lk_hl7(r):
    return f"MSH|^~\\&|OPENDENTAL|{rs(r, 4, string.ascii_uppercase)}|MIRTH|LAB|2026{r.randint(10**9, 9 * 10**9)}||ORM^O01|{rs(r, 20, UPPER)}|P|2.3"


@look
def lk_mirth_channel(r):
    return f"Channel ADT_in id {ruuid(r)} deployed, revision {r.randint(2, 80)}, {r.randint(0, 900)} messages queued."


@look
def lk_datto_serial(r):
    return f"Datto SIRIS serial {rs(r, 12, HEX)}, agent id {rs(r, 32, HEX)}, last screenshot verification ok."


@look
def lk_veeam_job(r):
    return f"PS C:\\> Get-VBRJob | select Name,Id\n{_h(r)}-daily  {ruuid(r)}"


@look
def lk_mac(r):
    return f"Zebra ZD421 at front desk: MAC {':'.join(rs(r, 2, '0123456789ABCDEF') for _ in range(6))}, DHCP reservation {c_ip(r)}"


@look
def lk_twilio_sid(r):
    return f"Twilio account SID AC{rs(r, 32, HEX)}, messaging service MG{rs(r, 32, HEX)} (ids only; auth token is in Keeper)."


@look
def lk_stripe_ids(r):
    return f"Refund for {_p(r)}: pi_{rs(r, 24)} / ch_{rs(r, 24)}, customer cus_{rs(r, 14)}"


@look
def lk_square_payment(r):
    return f"Square payment id {rs(r, 29, URLS)}, receipt #{rs(r, 4, UPPER)}, order {rs(r, 27, ALNUM)}"


@look
def lk_clover_mid(r):
    return f"Clover merchant id {rs(r, 13, UPPER)}, device serial C0{rs(r, 2, UPPER)}{r.randint(10**9, 9 * 10**9)}"


@look
def lk_etag(r):
    return f'< HTTP/1.1 200 OK\n< ETag: "{rs(r, 32, HEX)}"\n< x-amz-request-id: {rs(r, 16, UPPER)}\n< Content-Length: {r.randint(1000, 99999)}'


@look
def lk_subscription(r):
    return (
        f"Azure subscription {ruuid(r)} / resource group rg-{r.choice(['dental', 'pharmacy'])}-backup-{r.randint(1, 9)}"
    )


@look
def lk_place_id(r):
    return f"Google Place ID for {_p(r)}: ChIJ{rs(r, 23, URLS)} (used by the reviews widget)"


@look
def lk_gbp_location(r):
    return f"GET https://mybusiness.googleapis.com/v4/accounts/{r.randint(10**20, 10**21)}/locations/{r.randint(10**18, 10**19)}/reviews -> 200"


@look
def lk_jwt_payload(r):
    return "Decoded token payload (signature removed): " + json.dumps(
        {
            "sub": f"loc_{rs(r, 10, LOWER)}",
            "exp": 1798761600 + r.randint(0, 10**7),
            "scope": "reminders",
        }
    )


@look
def lk_policy(r):
    return f"Password policy for {_p(r)}: min {r.randint(12, 16)} chars, no reuse of last {r.randint(5, 24)}, lockout after {r.randint(3, 10)} tries."


@look
def lk_ups(r):
    return f"Wholesaler tote shipped, tracking 1Z{rs(r, 16, UPPER)}, invoice {r.randint(10**7, 10**8)}"


@look
def lk_rx(r):
    return f"Rx #{r.randint(10**6, 10**7)} NDC {r.randint(10000, 99999)}-{r.randint(100, 999)}-{r.randint(10, 99)} qty {r.randint(10, 90)} - refill queued"


@look
def lk_fax_conf(r):
    return f"SRFax: fax to {r.randint(200, 999)}-555-{r.randint(1000, 9999)} sent, FaxDetailsID {r.randint(10**8, 10**9)}, pages {r.randint(1, 9)}"


@look
def lk_b64_json(r):
    data = base64.b64encode(
        json.dumps(
            {
                "theme": r.choice(["dark", "light"]),
                "practice": _p(r),
                "slots": r.randint(4, 40),
            }
        ).encode()
    ).decode()
    return f'booking widget data-config="{data}"'


@look
def lk_dpapi(r):
    return f"PS C:\\> $s | ConvertFrom-SecureString\n01000000d08c9ddf0115d1118c7a00c04fc297eb01000000{rs(r, 200, HEX)}"


@look
def lk_od_version(r):
    return f"Open Dental {r.randint(22, 24)}.{r.randint(1, 4)}.{r.randint(1, 60)}.0, eConnector build {r.randint(1000, 9999)}, MySQL 5.6.{r.randint(30, 51)}"


@look
def lk_guest_wifi(r):
    return f"Guest Wi-Fi password is on the sign at reception ({_p(r)}); staff network key is in Keeper folder {r.randint(1, 40)}."


@look
def lk_alarm_ref(r):
    return f"Alarm code: in the sealed keyholder envelope in the safe ({_p(r)}), changed {c_date(r)}."


@look
def lk_password_manager_ref(r):
    return f"SQL sa password: see 1Password item 'IMG-SQL {r.randint(1, 99)}' (vault: {r.choice(['Dental', 'Pharmacy'])} Infra)"


@look
def lk_keyvault_ref(r):
    return f"AppSetting SRFAX_PWD = @Microsoft.KeyVault(SecretUri=https://kv-{r.choice(['dental', 'rx'])}-{r.randint(1, 99)}.vault.azure.net/secrets/srfax-pwd/)"


@look
def lk_k8s_ref(r):
    return f"env:\n  - name: WEAVE_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: weave-{r.randint(1, 999)}\n        key: token"


@look
def lk_aws_sm_arn(r):
    return f"Secret ARN arn:aws:secretsmanager:us-east-1:{r.randint(10**11, 10**12 - 1)}:secret:pharmacy/erx-{rs(r, 6)}"


@look
def lk_compose_ref(r):
    return f"services:\n  booking:\n    environment:\n      DB_PASSWORD: ${{DB_PASSWORD:?set it}}\n      PORT: {r.randint(3000, 9000)}"


@look
def lk_get_secret(r):
    return f"PS C:\\> $p = Get-Secret -Name 'veeam-enc-{r.randint(1, 99)}' -Vault LocalStore -AsPlainText  # used inline, never printed"


@look
def lk_cmdkey_list(r):
    return f"PS C:\\> cmdkey /list\n\n    Target: Domain:interactive={_h(r)}\n    Type: Domain Password\n    User: CORP\\svc_{rs(r, 5, LOWER)}"


@look
def lk_net_user(r):
    return f"PS C:\\> net user itadmin\nUser name                    itadmin\nPassword last set            {c_date(r)} {c_time(r)}\nPassword expires             Never"


@look
def lk_memory_addr(r):
    return f"Faulting module ImagingBridge.dll, offset 0x{rs(r, 16, HEX)}, exception 0xc0000005"


@look
def lk_ga_ids(r):
    return f"Tracking on {_p(r)} site: GA4 G-{rs(r, 10, UPPER)}, GTM-{rs(r, 7, UPPER)}, Meta pixel {r.randint(10**14, 10**15)}"


@look
def lk_weave_location(r):
    return f"Weave location id {ruuid(r)} for {_p(r)} (shown in the admin URL)."


@look
def lk_stripe_we(r):
    return f"Stripe webhook endpoint we_{rs(r, 24)} -> https://book.example/stripe (signing secret in env, not here)"


@look
def lk_slack_ids(r):
    return f"Slack: team T{rs(r, 8, UPPER)}, channel C{rs(r, 10, UPPER)}, bot user U{rs(r, 10, UPPER)}"


@look
def lk_discord_ids(r):
    return f"Discord server {r.randint(10**17, 10**18)} channel {r.randint(10**17, 10**18)} is where the alerts land."


@look
def lk_telegram_chat(r):
    return f"TELEGRAM_CHAT_ID=-100{r.randint(10**9, 10**10)}"


@look
def lk_dkim(r):
    return f'selector1._domainkey TXT "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{b64(r, 200)}"'


@look
def lk_spf(r):
    return f"v=spf1 include:spf.protection.outlook.com include:sendgrid.net ip4:{c_ip(r)} -all ; DMARC p=quarantine; rua=mailto:dmarc{r.randint(1, 99)}@example.com"


@look
def lk_pip_hash(r):
    return f"pyodbc==5.{r.randint(0, 2)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_sha256(r)}"


@look
def lk_ci_masked(r):
    return f"Run #{r.randint(100, 9999)}\n+ curl -H 'Authorization: Bearer ***' https://api.weave.example/v1/ping\n{{\"ok\":true}}"


@look
def lk_sql_pwdhash(r):
    return f"name      password_hash\n--------- ----------------------------------\nsa        0x0200{rs(r, 136, '0123456789ABCDEF')}"


@look
def lk_event_4625(r):
    return f"Event 4625 An account failed to log on. Logon ID: 0x{rs(r, 6, HEX).upper()} Account Name: {r.choice(['frontdesk', 'op3', 'admin'])} Failure Reason: Unknown user name or bad password."


@look
def lk_teamviewer_id(r):
    return f"TeamViewer ID {r.randint(100, 999)} {r.randint(100, 999)} {r.randint(100, 999)} for {_h(r)} (password set by the vendor, ask them)."


@look
def lk_anydesk_addr(r):
    return f"AnyDesk address of the pharmacy till: {r.randint(10**8, 10**9)}"


@look
def lk_aws_doc_example(r):
    ex = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
    return f"From the AWS docs (example only, {r.randint(1, 999)}): aws_secret_access_key = {ex}"


@look
def lk_stripe_doc_example(r):
    ex = "sk_" + "test_" + "4eC39HqLy" + "jWDarjtT1zdp7dc"
    return f"Stripe quickstart step {r.randint(1, 99)} uses the docs sample key {ex}; ours is in the env."


@look
def lk_xplaceholder(r):
    return f"TWILIO_AUTH_TOKEN=your_auth_token\nTWILIO_ACCOUNT_SID=AC{'x' * 32}\n# line {r.randint(1, 999)}"


@look
def lk_slack_placeholder(r):
    return f"SLACK_BOT_TOKEN=xoxb-your-token-here  # replace before deploy ({_p(r)}, {r.randint(1, 99)})"


@look
def lk_redacted_bearer(r):
    return f'> Authorization: Bearer [REDACTED]\n< HTTP/2 401\n< www-authenticate: Bearer error="invalid_token" req={rs(r, 12, HEX)}'


@look
def lk_idempotency(r):
    return f"POST /v2/payments Idempotency-Key: {ruuid(r)} amount_money=${r.randint(5, 300)}.00 -> 200"


@look
def lk_widget_embed(r):
    return f'<script src="https://widget.example/booking.js" data-practice-id="{r.randint(1000, 9999)}" data-public-key="pub_{rs(r, 24, LOWER)}"></script>'


@look
def lk_secret_path(r):
    return f"Config lives in C:\\ProgramData\\{r.choice(['Weave', 'SRFax', 'Mirth'])}\\secrets.json (ACL: SYSTEM only), backup copy {r.randint(1, 9)}."


@look
def lk_pg_nopw(r):
    return f"DATABASE_URL=postgresql://mirth@{_h(r).lower()}:5432/mirthdb?sslmode=require  # password via .pgpass ({r.randint(1, 99)})"


@look
def lk_odbc_trusted(r):
    return f"DRIVER={{ODBC Driver 18 for SQL Server}};SERVER={_h(r)}\\SQLEXPRESS;DATABASE=PWImage;Trusted_Connection=yes;Encrypt=no"


@look
def lk_udl_sspi(r):
    return f"[oledb]\n; Everything after this line is an OLE DB initstring\nProvider=SQLOLEDB.1;Integrated Security=SSPI;Persist Security Info=False;Initial Catalog=DEXIS;Data Source={_h(r)}\\DEXIS_DATA"


@look
def lk_rtsp_nocreds(r):
    return f"rtsp://{c_ip(r)}:554/Streaming/Channels/{r.randint(1, 16)}01  (credentials entered in Blue Iris, not in the URL)"


@look
def lk_lfs_pointer(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_sha256(r)}\nsize {r.randint(10**4, 10**8)}"


@look
def lk_dataset_id(r):
    return f"Dataset for the no-show model: hf://datasets/{r.choice(['tabular', 'clinic'])}-bench/appointments-{r.randint(1, 99)} (public), revision {rs(r, 7, HEX)}"


@look
def lk_wg_public(r):
    return f"[Peer]\nPublicKey = {t_wg(r)}\nAllowedIPs = 10.66.0.0/24\nEndpoint = {c_ip(r)}:51820"


@look
def lk_public_key_pem(r):
    return (
        pem(
            r,
            "PUBLIC KEY",
            "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + b64(r, 240),
        )
        + "\n(vendor's public key for verifying webhooks)"
    )


@look
def lk_pgp_sig(r):
    return pem(r, "PGP SIGNATURE", b64(r, 300)) + f"\nsignature on mirth-{r.randint(1, 9)}.tar.gz"


@look
def lk_cert_serial(r):
    return f"Serial Number: {':'.join(rs(r, 2, HEX) for _ in range(16))}\nIssuer: CN=R11, O=Let's Encrypt"


@look
def lk_aadsts(r):
    return f"AADSTS50126: Error validating credentials due to invalid username or password.\nTrace ID: {ruuid(r)}\nCorrelation ID: {ruuid(r)}\nTimestamp: {c_date(r)} {c_time(r)}Z"


@look
def lk_message_id(r):
    return f"Message-ID: <{rs(r, 20, UPPER)}@{rs(r, 8, UPPER)}.namprd{r.randint(10, 20)}.prod.outlook.com>"


@look
def lk_youtube(r):
    return f"Training video for front desk: https://www.youtube.com/watch?v={rs(r, 11, URLS)}"


@look
def lk_zpl(r):
    return f"^XA^FO50,50^BCN,100,Y,N,N^FD{r.randint(10**11, 10**12)}^FS^FO50,170^A0N,30,30^FDRx {r.randint(10**6, 10**7)}^FS^XZ"


@look
def lk_driver_sha1(r):
    return f"Get-FileHash -Algorithm SHA1 .\\iTero_driver.exe\nSHA1  {rs(r, 40, '0123456789ABCDEF')}"


@look
def lk_restore_point(r):
    return f"Datto restore point {r.randint(1700000000, 1800000000)} for {_h(r)} mounted as iSCSI target iqn.2026-{r.randint(1, 12):02d}.datto:{rs(r, 8, LOWER)}"


@look
def lk_kb(r):
    return f"{_h(r)} pending updates: KB50{r.randint(10000, 99999)}, KB50{r.randint(10000, 99999)}; reboot after 19:00."


@look
def lk_hashed_pin(r):
    return f"door_users.pin_sha256 = {_sha256(r)} (panel stores only the hash)"


@look
def lk_hmac_sig_header(r):
    return f"< X-Weave-Signature: t={1767225600 + r.randint(0, 10**7)},v1={_sha256(r)}\n(verified with the signing secret from env)"


@look
def lk_fernet_encrypted(r):
    return f"encrypted_password = gAAAAAB{b64(r, 90).replace('+', '-').replace('/', '_')}  # Fernet, key in KMS"


@look
def lk_changeme_template(r):
    return f"# .env.example ({r.randint(1, 99)})\nMIRTH_DB_PASSWORD=changeme\nOD_CUSTOMER_KEY=REPLACE_ME\nSRFAX_ACCESS_PWD="


@look
def lk_gpg_keyid(r):
    return f"pub   rsa4096/{rs(r, 16, '0123456789ABCDEF')} 2024-{r.randint(1, 12):02d}-01 [SC]\nuid  Parkside Pharmacy IT <it@parkside.example>"


@look
def lk_uuid_order(r):
    return f"Wholesaler order {ruuid(r)} confirmed, {r.randint(1, 40)} lines, delivery tomorrow before 9."


@look
def lk_obfuscated_pw(r):
    return f"Password hint in Veeam: 'the {r.choice(WORDS)} one we used for {_p(r)}' (actual password in the vault)."


@look
def lk_sha1_git_tree(r):
    return f"tree {rs(r, 40, HEX)}\nparent {rs(r, 40, HEX)}\nauthor IT Bot <bot@example.com> {1767225600 + r.randint(0, 10**7)} +0000"


@look
def lk_base64_log(r):
    msg = "MSH|^~\\&|TEST|" + rs(r, 10)
    return f"HL7 payload (base64, no PHI in test feed): {base64.b64encode(msg.encode()).decode()}"


def _lookalikes(r: random.Random, seen: set) -> list[str]:
    out = []
    for f in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 500:
                raise RuntimeError(f"{f.__name__} cannot make {LOOK_PER_GEN} distinct texts")
            t = f(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set = set()
    pos = _positives(r, seen)
    looks = _lookalikes(r, seen)
    return pos, looks
