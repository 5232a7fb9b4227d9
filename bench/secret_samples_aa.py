"""Labelled test set AA for a secret detector working on agent "memories".

Theme
-----
Memories that a coding agent keeps for a hardware / embedded startup (PlatformIO, Arduino Cloud,
Particle, Balena, Golioth, Memfault, AWS IoT, Azure IoT Hub, MQTT brokers, LoRaWAN, nRF Cloud, OTA
signing, JTAG/TPM, Wi-Fi and Bluetooth keys, CI, Artifactory, Conan, Yocto mirrors, EDA licences,
parts APIs, Shopify/Tindie/Stripe shop, Zendesk/Freshdesk) and for the accountant-run family office
that funds it (Plaid, Tink, TrueLayer, GoCardless, Wise, Revolut Business, IBKR, Alpaca, exchanges,
wallets, QuickBooks, Xero, DocuSign, Dropbox, Box, 1Password, Bitwarden, Microsoft 365, Google
Workspace, bank SFTP, PGP). Styles: about half notes / lessons / runbooks / TODOs / e-mails / chat
(mostly English, some German, Italian, Swedish, Mandarin, Hindi, Russian, Indonesian), a quarter
configuration (platformio.ini, C headers, sdkconfig, .env, YAML, JSON, INI, systemd, Jenkinsfile,
Makefile, PowerShell) and a quarter tool output (serial logs, CLI sessions, HTTP dumps, CI logs).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text``
  (no surrounding quotes or whitespace) and each text holds exactly one secret. Every kind has
  ``PER_KIND`` (30) positives.
* ``lookalikes``: texts without any credential. ``_LOOK`` is a list of generator functions
  ``f(rng) -> str``; each is called until it has produced ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic for a seed (only ``random.Random`` seeded from ``seed``); no text appears twice in
  the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs: only
  the password. Pre-signed URLs: the signature. PEM / OpenSSH / PGP private keys: the whole armoured
  block from BEGIN line to END line.
* UUID-shaped vendor tokens are secrets only when the text names them as token / key / secret.
* Public-by-design values are look-alikes: publishable keys, site keys, Sentry DSNs, OAuth client
  ids, Firebase web apiKeys, search-only keys, public certificates and public keys, addresses.
  Vendor documentation example values, encrypted blobs (Ansible vault, sops ENC[...], PGP messages)
  and password hashes (bcrypt, argon2, sha512-crypt, mosquitto PBKDF2) are look-alikes.
* Bare AWS access key ids are left out entirely.
* Every token-shaped value is assembled at run time from pieces and random bodies, so the source
  file holds no real-looking token.
"""

from __future__ import annotations

import base64
import json
import random
import string
from types import SimpleNamespace
from urllib.parse import quote

LOOK_PER_GEN = 12
PER_KIND = 30

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIG = string.digits
ALNUM = string.ascii_letters + string.digits
LALNUM = LOWER + DIG
UALNUM = UPPER + DIG
HEX = "0123456789abcdef"
UHEX = HEX.upper()
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = UPPER + "234567"

DASH5 = "-" * 5


def _s(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def _uuid(r: random.Random) -> str:
    h = _s(r, HEX, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _b64bytes(r: random.Random, n: int, url: bool = False) -> str:
    raw = bytes(r.randrange(256) for _ in range(n))
    if url:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return base64.b64encode(raw).decode()


def _b64json(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


_WORDS_TXT = (
    "tulip rover falcon copper maple harbor nickel orchid pepper quartz saffron timber velvet willow "
    "amber basil cobalt dune ember fjord glacier hazel indigo juniper kestrel lagoon meadow nutmeg "
    "otter pixel raven sparrow thistle umber walnut yarrow zephyr birch cedar delta"
)
_WORDS = _WORDS_TXT.split()
_CAPS = [
    "Summer",
    "Winter",
    "Autumn",
    "Spring",
    "Falcon",
    "Harbor",
    "Bavaria",
    "Stockholm",
    "Milano",
    "Jakarta",
    "Solder",
    "Gerber",
    "Ledger",
    "Fjord",
    "Espresso",
    "Orchid",
]

_BIP39_TXT = (
    "abandon ability able about above absent absorb abstract absurd abuse access accident account "
    "accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict "
    "address adjust admit adult advance advice aerobic affair afford afraid again age agent agree ahead "
    "aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha already "
    "also alter always amateur amazing among amount amused analyst anchor ancient anger angle angry "
    "animal ankle announce annual another answer antenna antique anxiety any apart apology appear "
    "apple approve april arch arctic area arena argue arm armed armor army around arrange arrest "
    "arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete "
    "atom attack attend attitude attract auction audit august aunt author auto autumn average avocado "
    "avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony "
    "ball bamboo banana banner bar barely bargain barrel base basic basket battle beach bean beauty "
    "because become beef before begin behave behind believe below belt bench benefit best betray "
    "better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket "
    "blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus "
    "book boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave bread "
    "breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown brush "
    "bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus business "
    "busy butter buyer buzz cabbage cabin cable cactus"
)
_BIP39 = _BIP39_TXT.split()


def _password(r: random.Random, url_safe: bool = False) -> str:
    sym = "-._~" if url_safe else "!#*+-.=?@^_~"
    style = r.randrange(5)
    if style == 0:
        return r.choice(_CAPS) + str(r.randrange(2019, 2028)) + r.choice(sym)
    if style == 1:
        return f"{r.choice(_WORDS)}-{r.choice(_WORDS).capitalize()}-{r.randrange(10, 99)}"
    if style == 2:
        core = _s(r, ALNUM, r.randrange(14, 22))
        i = r.randrange(2, len(core) - 2)
        return core[:i] + r.choice(sym) + core[i:]
    if style == 3:
        sep = r.choice(["-", ".", "_"])
        return sep.join(r.choice(_WORDS) for _ in range(4)) + str(r.randrange(1, 9))
    return r.choice(_CAPS).lower() + r.choice(sym) + str(r.randrange(100, 9999)) + r.choice(_WORDS).upper()[:3]


def _pem(r: random.Random, label: str, prefix: str, nlines: int) -> str:
    body = prefix + _b64bytes(r, nlines * 48)
    body = body[: nlines * 64 - r.randrange(0, 40)]
    pad = (-len(body)) % 4
    body += "=" * pad
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([DASH5 + "BEGIN " + label + DASH5, *lines, DASH5 + "END " + label + DASH5])


PRIV = "PRI" + "VATE KEY"


# ----------------------------------------------------------------------------------------------
# value generators: each returns (display, secret); secret is a substring of display
# ----------------------------------------------------------------------------------------------


def _same(fn):
    def g(r):
        v = fn(r)
        return v, v

    return g


def v_github(r):
    if r.random() < 0.6:
        return "gh" + "p_" + _s(r, ALNUM, 36)
    return "github" + "_pat_" + "11" + _s(r, UALNUM, 20) + "_" + _s(r, ALNUM, 59)


def v_stripe(r):
    pre = r.choice(["sk", "sk", "rk"]) + "_li" + "ve_"
    return pre + (_s(r, ALNUM, 24) if r.random() < 0.4 else "51" + _s(r, ALNUM, 97))


def v_slack_hook(r):
    tok = _s(r, ALNUM, 24)
    return (
        f"https://hooks.slack.com/services/T{_s(r, UALNUM, 10)}/B{_s(r, UALNUM, 10)}/{tok}",
        tok,
    )


def v_discord_hook(r):
    tok = _s(r, B64URL, 68)
    return f"https://discord.com/api/webhooks/{r.randrange(10**17, 10**19)}/{tok}", tok


def v_telegram(r):
    return f"{r.randrange(10**8, 10**10)}:AA{_s(r, B64URL, 33)}"


def v_azure_ad(r):
    return _s(r, ALNUM, 3) + r.choice(DIG) + "Q~" + _s(r, ALNUM + "_.~-", 34)


def v_azure_conn(r):
    key = _b64bytes(r, 32)
    hub = r.choice(["hx-fleet", "sensorhub-prod", "ioth-weu-01", "gw-bench"])
    name = r.choice(["iothubowner", "service", "registryReadWrite", "device"])
    if name == "device":
        return (
            f"HostName={hub}.azure-devices.net;DeviceId=node-{r.randrange(100, 999)};SharedAccessKey={key}",
            key,
        )
    return (
        f"HostName={hub}.azure-devices.net;SharedAccessKeyName={name};SharedAccessKey={key}",
        key,
    )


def v_azure_sas(r):
    sig = quote(_b64bytes(r, 32), safe="")
    dev = f"node-{r.randrange(100, 999)}"
    se = r.randrange(1790000000, 1830000000)
    return (
        f"SharedAccessSignature sr=sensorhub-prod.azure-devices.net%2Fdevices%2F{dev}&sig={sig}&se={se}",
        sig,
    )


def v_mqtt_url(r):
    pw = _password(r, url_safe=True)
    host = f"{_s(r, HEX, 32)}.s1.eu.hivemq.cloud"
    return f"mqtts://fleet-{r.randrange(10, 99)}:{pw}@{host}:8883", pw


def v_yocto(r):
    pw = _password(r, url_safe=True)
    host = r.choice(["mirror.hw.internal", "sstate.buildfarm.lan", "yocto-dl.example-hw.de"])
    return f"https://ci-bot:{pw}@{host}/downloads/", pw


def v_pg(r):
    pw = _password(r, url_safe=True)
    return (
        f"postgresql://erp_app:{pw}@db-{r.randrange(1, 9)}.office.lan:5432/ledger",
        pw,
    )


def v_ttn(r):
    return "NNSXS." + _s(r, B32, 39) + "." + _s(r, B32, 52)


def v_chirp(r):
    head = _b64json({"alg": "HS256", "typ": "JWT"})
    pay = _b64json({"aud": "chirpstack", "iss": "chirpstack", "sub": _uuid(r), "typ": "key"})
    return head + "." + pay + "." + _b64bytes(r, 32, url=True)


def v_jenkins(r):
    return "11" + _s(r, HEX, 32)


def v_artifactory(r):
    return "AKC" + "p8" + _s(r, ALNUM, 68)


def v_shopify(r):
    return r.choice(["shp" + "at_", "shp" + "ca_", "shp" + "pa_"]) + _s(r, HEX, 32)


def v_whsec(r):
    return "wh" + "sec_" + _s(r, ALNUM, 32)


def v_gocardless(r):
    return "li" + "ve_" + _s(r, B64URL, 40)


def v_revolut(r):
    return "oa_" + "prod_" + _s(r, B64URL, 43)


def v_intuit_refresh(r):
    return "AB" + "11" + str(r.randrange(10**8, 10**9)) + _s(r, ALNUM, 37)


def v_dropbox(r):
    return "sl" + "." + _s(r, B64URL, 138)


def v_op(r):
    pay = _b64json(
        {
            "signInAddress": "familyoffice.1password.eu",
            "userAuth": {
                "method": "SRPg-4096",
                "alg": "PBES2g-HS256",
                "iterations": 650000,
                "salt": _s(r, B64URL, 22),
            },
            "email": _s(r, LOWER, 12) + "@1passwordserviceaccounts.eu",
            "srpX": _s(r, HEX, 64),
            "muk": {
                "alg": "A256GCM",
                "ext": True,
                "k": _s(r, B64URL, 43),
                "key_ops": ["encrypt", "decrypt"],
                "kty": "oct",
                "kid": "mp",
            },
            "secretKey": "A3-" + _s(r, UALNUM, 6) + "-" + _s(r, UALNUM, 26),
            "deviceUuid": _s(r, LALNUM, 26),
        }
    )
    return "ops" + "_" + pay


def v_bws(r):
    return "0." + _uuid(r) + "." + _s(r, ALNUM, 30) + ":" + _s(r, ALNUM, 22) + "=="


def v_gocspx(r):
    return "GOC" + "SPX-" + _s(r, B64URL, 28)


def v_sendgrid(r):
    return "SG" + "." + _s(r, B64URL, 22) + "." + _s(r, B64URL, 43)


def v_memfault(r):
    return "oat" + "_" + _s(r, ALNUM, 40)


def v_wif(r):
    if r.random() < 0.7:
        return r.choice("KL") + _s(r, B58, 51)
    return "5" + r.choice("HJK") + _s(r, B58, 49)


def v_seed(r):
    return " ".join(r.choice(_BIP39) for _ in range(r.choice([12, 12, 24])))


def v_gapp(r):
    return " ".join(_s(r, LOWER, 4) for _ in range(4))


def v_rsa(r):
    return _pem(r, "RSA " + PRIV, "MIIEpAIBAAKCAQEA", 25)


def v_ec(r):
    return _pem(r, "EC " + PRIV, "MHcCAQEEI", 3)


def v_pkcs8(r):
    return _pem(r, PRIV, "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC", 26)


def v_openssh(r):
    return _pem(
        r,
        "OPENSSH " + PRIV,
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
        7,
    )


def v_pgp(r):
    label = "PGP " + "PRIVATE KEY BLOCK"
    body = "lQVYBG" + _b64bytes(r, 600)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    crc = "=" + _s(r, B64, 4)
    return "\n".join(
        [
            DASH5 + "BEGIN " + label + DASH5,
            "",
            *lines,
            crc,
            DASH5 + "END " + label + DASH5,
        ]
    )


# ----------------------------------------------------------------------------------------------
# templates
# ----------------------------------------------------------------------------------------------

_PEOPLE = [
    "ana",
    "lars",
    "priya",
    "matteo",
    "jonas",
    "mei",
    "dmitri",
    "sari",
    "karin",
    "ravi",
    "elke",
    "tomas",
]
_DATES = [
    "2026-03-14",
    "2026-05-02",
    "2026-06-19",
    "2026-08-30",
    "2026-09-11",
    "2026-10-05",
    "2026-11-21",
]


def _slug(c):
    return c.svc.lower().replace(" ", "_").replace("-", "_").replace(".", "")


# text templates: (category, function(c) -> str). c: svc, label, var, key, val (display), r
T_NOTE = [
    lambda c: f"Note: the {c.svc} {c.label} for the prod fleet is {c.val} - rotate after the trade show.",
    lambda c: (
        f"Lesson learned: the nightly job broke because the {c.svc} {c.label} had been revoked. "
        f"New one is {c.val}. Set a reminder 30 days before it expires."
    ),
    lambda c: (
        f"Runbook: reconnect {c.svc}\n1. ssh build-0{c.r.randrange(1, 9)}\n2. export {c.var}={c.val}\n"
        f"3. make deploy ENV=prod\n4. check the dashboard for green devices"
    ),
    lambda c: f"TODO({c.r.choice(_PEOPLE)}): move {c.var} out of the wiki page into Vault. Current value: {c.val}",
    lambda c: (
        f"From: Margit Huber <margit@hubertrust.office>\nTo: dev@{c.r.choice(['voltwerk.io', 'nordlys.dev'])}\n"
        f"Subject: {c.svc} access\n\nHi,\nhere is the {c.label} you asked for: {c.val}\n"
        f"Please do not forward this mail.\nBest, Margit"
    ),
    lambda c: (
        f"[09:{c.r.randrange(10, 59)}] {c.r.choice(_PEOPLE)}: what's the {c.svc} {c.label} again?\n"
        f"[09:{c.r.randrange(10, 59)}] {c.r.choice(_PEOPLE)}: {c.val}\n[09:59] lars: thx, works"
    ),
    lambda c: (
        f"Decision {c.r.choice(_DATES)}: we keep one shared {c.svc} {c.label} for CI and the bench rigs "
        f"({c.val}) until the SSO migration lands."
    ),
    lambda c: (
        f"Remember: when flashing batch {c.r.choice('ABCDEFGH')} the script prompts for the {c.svc} {c.label}; paste {c.val}"
    ),
    lambda c: (
        f"- [ ] rotate {c.svc} {c.label} (current {c.val}) before the audit\n- [ ] update the fixtures\n"
        f"- [x] order more USB-C cables"
    ),
    lambda c: (
        f"Handover for the accountant: {c.svc} login uses the {c.label} {c.val}. "
        f"Store it in the office safe binder, not on the shared drive."
    ),
    lambda c: f"Notiz: Der {c.svc} {c.label} für die Produktion lautet {c.val}. Bitte nicht ins Wiki kopieren.",
    lambda c: f"Promemoria: la chiave {c.svc} ({c.label}) è {c.val}, scade a fine trimestre.",
    lambda c: f"Kom ihåg: {c.svc}-nyckeln ({c.label}) är {c.val} – byt den efter mässan.",
    lambda c: f"备忘：{c.svc} 的 {c.label} 是 {c.val}，不要提交到仓库。",
    lambda c: f"नोट: {c.svc} का {c.label} यह है: {c.val} — इसे रिपॉज़िटरी में मत डालना।",
    lambda c: f"Заметка: {c.label} для {c.svc} — {c.val}. Не коммитить в репозиторий.",
    lambda c: f"Catatan: {c.label} {c.svc} untuk produksi adalah {c.val}, jangan dibagikan ke vendor.",
]

T_CONF = [
    lambda c: f"# {c.svc}\n{c.var}={c.val}\nLOG_LEVEL=info\n",
    lambda c: f"{_slug(c)}:\n  enabled: true\n  {c.key}: {c.val}\n  timeout_s: 30\n",
    lambda c: json.dumps(
        {_slug(c): {c.key: c.val, "region": c.r.choice(["eu", "us", "ap"])}},
        indent=2,
        ensure_ascii=False,
    ),
    lambda c: f"[{_slug(c)}]\n{c.key} = {c.val}\nretries = {c.r.randrange(2, 6)}\n",
    lambda c: f'#pragma once\n// {c.svc} - do not commit\n#define {c.var} "{c.val}"\n',
    lambda c: (
        f"[env:{c.r.choice(['esp32dev', 'nrf52840_dk', 'pico'])}]\nplatform = espressif32\nframework = arduino\n"
        f'build_flags =\n    -D{c.var}=\\"{c.val}\\"\n'
    ),
    lambda c: f'CONFIG_APP_{c.var}="{c.val}"\nCONFIG_APP_RETRY_MS=500\n',
    lambda c: (
        f"[Service]\nEnvironment={c.var}={c.val}\nExecStart=/usr/local/bin/fleet-agent --config /etc/fleet.toml\n"
    ),
    lambda c: f"pipeline {{\n  agent any\n  environment {{\n    {c.var} = '{c.val}'\n  }}\n}}\n",
    lambda c: f"{c.var} ?= {c.val}\n\ndeploy:\n\t./scripts/deploy.sh --env prod\n",
    lambda c: f'$env:{c.var} = "{c.val}"\n.\\Sync-Ledger.ps1 -Verbose\n',
]

T_TOOL = [
    lambda c: (
        f"[    2.{c.r.randrange(100, 999)}] I (2113) cfg: loaded {c.key}={c.val}\n"
        f"[    2.2{c.r.randrange(10, 99)}] I (2120) wifi: connecting to AP"
    ),
    lambda c: f"$ export {c.var}={c.val}\n$ ./bin/fleetctl whoami\nlogged in as ops@{_slug(c)}",
    lambda c: (
        f"2026-11-{c.r.randrange(10, 30)}T10:02:11.{c.r.randrange(100, 999)}Z + echo {c.var}={c.val}\n"
        f"2026-11-30T10:02:12.{c.r.randrange(100, 999)}Z ##[debug]step finished, exit 0"
    ),
    lambda c: f'$ docker inspect fleet-agent | jq ".[0].Config.Env"\n[\n  "{c.var}={c.val}",\n  "TZ=Europe/Berlin"\n]',
    lambda c: f"uart:~$ cfg set {c.key} {c.val}\nOK ({c.r.randrange(10, 99)} bytes written to NVS)\nuart:~$ cfg save",
    lambda c: (
        f'Traceback (most recent call last):\n  File "sync.py", line {c.r.randrange(20, 400)}, in main\n'
        f"    client = Client({c.key}='{c.val}')\nTimeoutError: connect timed out"
    ),
    lambda c: f"$ env | grep {c.var.split('_')[0]}\n{c.var}={c.val}\n",
    lambda c: f"DEBUG settings loaded: {{'{c.key}': '{c.val}', 'timeout': {c.r.randrange(5, 60)}}}",
]

T_BEARER = [
    lambda c: (
        f"> GET /v1/devices?limit={c.r.randrange(10, 200)} HTTP/1.1\n> Host: api.{_slug(c)}.example\n"
        f"> Authorization: Bearer {c.val}\n>\n< HTTP/1.1 200 OK"
    ),
    lambda c: f"curl -s -H 'Authorization: Bearer {c.val}' https://api.{_slug(c)}.example/v1/status | jq .",
]

T_BLOCK = [
    lambda c: f"{c.svc} {c.label} (saved from the old laptop):\n{c.val}\n",
    lambda c: f"$ cat {c.key}.pem\n{c.val}\n$ chmod 600 {c.key}.pem",
    lambda c: f"cat > /etc/{_slug(c)}/{c.key}.pem <<'EOF'\n{c.val}\nEOF",
    lambda c: (
        f"Hi Lars,\nattached inline is the {c.svc} {c.label} so you can finish the setup:\n\n"
        f"{c.val}\n\nDelete this mail afterwards.\nMargit"
    ),
    lambda c: f"TODO: move this {c.label} into the HSM, it is only on the build box for now\n{c.val}",
    lambda c: f"Schlüssel für {c.svc} ({c.label}):\n{c.val}\nNicht weitergeben.",
    lambda c: f"{c.svc} 的 {c.label}：\n{c.val}",
    lambda c: json.dumps({"name": c.key, "type": "pem", "value": c.val}, indent=1),
]


def _blocksec(c, text):
    # JSON escapes newlines, the secret becomes the escaped form
    return c.val.replace("\n", "\\n") if '"value"' in text else c.val


# ----------------------------------------------------------------------------------------------
# kinds
# ----------------------------------------------------------------------------------------------


def K(kind, svc, label, var, gen, flags="", extra=()):
    return SimpleNamespace(
        kind=kind,
        svc=svc,
        label=label,
        var=var,
        gen=gen,
        flags=flags,
        extra=list(extra),
    )


_KINDS = [
    K(
        "platformio_auth_token",
        "PlatformIO",
        "auth token",
        "PLATFORMIO_AUTH_TOKEN",
        _same(lambda r: _s(r, B64URL, 43)),
        "b",
        [lambda c: f"pio account token\nPersonal Authentication Token: {c.val}"],
    ),
    K(
        "arduino_cloud_client_secret",
        "Arduino Cloud",
        "client secret",
        "ARDUINO_CLIENT_SECRET",
        _same(lambda r: _s(r, ALNUM, 64)),
        "",
        [lambda c: f"arduino-cloud-cli credentials init --client-id 4qOZ{_s(c.r, UALNUM, 28)} --client-secret {c.val}"],
    ),
    K(
        "particle_access_token",
        "Particle",
        "access token",
        "PARTICLE_ACCESS_TOKEN",
        _same(lambda r: _s(r, HEX, 40)),
        "b",
        [lambda c: f"curl https://api.particle.io/v1/devices -d access_token={c.val}"],
    ),
    K(
        "balena_api_key",
        "balena",
        "API key",
        "BALENA_API_KEY",
        _same(lambda r: _s(r, ALNUM, 32)),
        "b",
        [lambda c: f"$ balena login --token {c.val}\nSuccessfully logged in as: gh_voltwerk"],
    ),
    K(
        "golioth_api_key",
        "Golioth",
        "API key",
        "GOLIOTH_API_KEY",
        _same(lambda r: _s(r, ALNUM, 32)),
        "h",
    ),
    K(
        "golioth_device_psk",
        "Golioth",
        "device PSK",
        "GOLIOTH_PSK",
        _same(_password),
        "",
        [lambda c: f'uart:~$ settings set golioth/psk "{c.val}"\nuart:~$ kernel reboot cold'],
    ),
    K(
        "memfault_org_token",
        "Memfault",
        "organization auth token",
        "MEMFAULT_ORG_TOKEN",
        _same(v_memfault),
        "",
        [
            lambda c: (
                f"memfault --org-token {c.val} --org voltwerk --project fw upload-mcu-symbols build/zephyr/zephyr.elf"
            )
        ],
    ),
    K(
        "aws_iot_private_key",
        "AWS IoT",
        "device private key",
        "AWS_IOT_KEY",
        _same(v_rsa),
        "p",
    ),
    K(
        "aws_secret_access_key",
        "AWS",
        "secret access key",
        "AWS_SECRET_ACCESS_KEY",
        _same(lambda r: _s(r, B64, 40)),
        "",
        [lambda c: f"[default]\nregion = eu-central-1\naws_secret_access_key = {c.val}\n"],
    ),
    K(
        "azure_iot_connection_string",
        "Azure IoT Hub",
        "connection string",
        "IOTHUB_CONNECTION_STRING",
        v_azure_conn,
        "",
    ),
    K(
        "azure_iot_sas_signature",
        "Azure IoT Hub",
        "SAS token",
        "IOTHUB_SAS_TOKEN",
        v_azure_sas,
        "",
        [
            lambda c: (
                f"mosquitto_pub -h sensorhub-prod.azure-devices.net -p 8883 -P '{c.val}' -t devices/x/messages/events/"
            )
        ],
    ),
    K(
        "azure_dps_symmetric_key",
        "Azure DPS",
        "enrollment group primary key",
        "DPS_GROUP_KEY",
        _same(lambda r: _b64bytes(r, 64)),
        "",
    ),
    K(
        "hivemq_connection_password",
        "HiveMQ Cloud",
        "broker URL",
        "MQTT_URL",
        v_mqtt_url,
        "",
    ),
    K(
        "emqx_api_secret",
        "EMQX",
        "API secret",
        "EMQX_API_SECRET",
        _same(lambda r: _s(r, ALNUM, 40)),
        "",
        [lambda c: f"curl -u {_s(c.r, HEX, 16)}:{c.val} http://emqx.lan:18083/api/v5/clients"],
    ),
    K(
        "mqtt_password",
        "Mosquitto",
        "MQTT password",
        "MQTT_PASSWORD",
        _same(_password),
        "",
        [
            lambda c: (
                f"mosquitto_sub -h broker.lab -p 1883 -u sensor{c.r.randrange(1, 40)} -P '{c.val}' -t 'fleet/#' -v"
            ),
            lambda c: f"mosquitto_passwd -b /etc/mosquitto/passwd gateway {c.val}",
        ],
    ),
    K(
        "lorawan_app_key",
        "LoRaWAN",
        "AppKey",
        "LORA_APP_KEY",
        _same(lambda r: _s(r, UHEX, 32)),
        "",
        [
            lambda c: f'#define LORAWAN_DEV_EUI "70B3D57ED00{_s(c.r, UHEX, 5)}"\n#define LORAWAN_APP_KEY "{c.val}"\n',
            lambda c: json.dumps(
                {
                    "deviceKeys": {
                        "nwkKey": c.val,
                        "devEui": "70B3D57ED0" + _s(c.r, UHEX, 6),
                    }
                }
            ),
        ],
    ),
    K(
        "ttn_api_key",
        "The Things Network",
        "API key",
        "TTN_API_KEY",
        _same(v_ttn),
        "b",
        [lambda c: f"$ ttn-lw-cli login --api-key {c.val}\nINFO Logged in"],
    ),
    K(
        "chirpstack_api_token",
        "ChirpStack",
        "API token",
        "CHIRPSTACK_API_TOKEN",
        _same(v_chirp),
        "b",
    ),
    K(
        "nrf_cloud_api_key",
        "nRF Cloud",
        "API key",
        "NRF_CLOUD_API_KEY",
        _same(lambda r: _s(r, HEX, 40)),
        "b",
    ),
    K(
        "ota_signing_key",
        "MCUboot",
        "OTA signing key",
        "OTA_SIGNING_KEY",
        _same(v_ec),
        "p",
    ),
    K(
        "wifi_psk",
        "Wi-Fi",
        "WPA2 passphrase",
        "WIFI_PASSWORD",
        _same(_password),
        "",
        [
            lambda c: f'network={{\n    ssid="Lab-2.4G"\n    psk="{c.val}"\n    key_mgmt=WPA-PSK\n}}',
            lambda c: f'const char* ssid = "Voltwerk-Bench";\nconst char* password = "{c.val}";',
        ],
    ),
    K(
        "bluetooth_link_key",
        "BlueZ",
        "link key",
        "BT_LINK_KEY",
        _same(lambda r: _s(r, UHEX, 32)),
        "",
        [
            lambda c: f"[LinkKey]\nKey={c.val}\nType=4\nPINLength=0\n",
            lambda c: f"[LongTermKey]\nKey={c.val}\nAuthenticated=1\nEncSize=16\nEDiv=0\nRand=0\n",
        ],
    ),
    K(
        "debug_unlock_key",
        "JTAG",
        "debug unlock key",
        "DEBUG_AUTH_KEY",
        _same(lambda r: _s(r, HEX, 32)),
        "",
        [lambda c: f"openocd -f board/stm32u5.cfg -c 'stm32u5x unlock_key 0x{c.val}'"],
    ),
    K(
        "tpm_owner_password",
        "TPM",
        "owner hierarchy password",
        "TPM_OWNER_AUTH",
        _same(_password),
        "",
        [lambda c: f"$ tpm2_changeauth -c owner {c.val}\n$ tpm2_getcap properties-variable | grep ownerAuthSet"],
    ),
    K(
        "github_pat",
        "GitHub",
        "personal access token",
        "GH_TOKEN",
        _same(v_github),
        "b",
        [lambda c: f"git clone https://x-access-token:{c.val}@github.com/voltwerk/firmware.git"],
    ),
    K(
        "jenkins_api_token",
        "Jenkins",
        "API token",
        "JENKINS_TOKEN",
        _same(v_jenkins),
        "",
        [lambda c: f"curl -X POST -u ci-bot:{c.val} https://jenkins.lan/job/fw-release/build"],
    ),
    K(
        "artifactory_api_key",
        "Artifactory",
        "API key",
        "ARTIFACTORY_API_KEY",
        _same(v_artifactory),
        "h",
        [lambda c: f"curl -H 'X-JFrog-Art-Api: {c.val}' -T fw.bin https://art.lan/artifactory/fw-local/"],
    ),
    K(
        "conan_remote_password",
        "Conan",
        "remote password",
        "CONAN_PASSWORD",
        _same(_password),
        "",
        [lambda c: f"$ conan remote login artifactory ci-bot -p {c.val}\nChanged user of remote 'artifactory'"],
    ),
    K(
        "yocto_mirror_password",
        "Yocto",
        "mirror URL",
        "YOCTO_MIRROR",
        v_yocto,
        "",
        [lambda c: f'PREMIRRORS:prepend = "git://.*/.* {c.val} \\n"\nBB_NO_NETWORK = "0"'],
    ),
    K(
        "altium_account_password",
        "Altium",
        "licence account password",
        "ALTIUM_PASSWORD",
        _same(_password),
        "",
    ),
    K(
        "nexar_client_secret",
        "Nexar/Octopart",
        "client secret",
        "NEXAR_CLIENT_SECRET",
        _same(lambda r: _s(r, B64URL, 48)),
        "",
    ),
    K(
        "digikey_client_secret",
        "Digi-Key",
        "client secret",
        "DIGIKEY_CLIENT_SECRET",
        _same(lambda r: _s(r, ALNUM, 16)),
        "",
    ),
    K(
        "mouser_api_key",
        "Mouser",
        "search API key",
        "MOUSER_API_KEY",
        _same(_uuid),
        "",
        [lambda c: f"POST https://api.mouser.com/api/v1/search/partnumber?apiKey={c.val}"],
    ),
    K(
        "shopify_admin_token",
        "Shopify",
        "Admin API access token",
        "SHOPIFY_ADMIN_TOKEN",
        _same(v_shopify),
        "",
        [
            lambda c: (
                f"curl -H 'X-Shopify-Access-Token: {c.val}' https://voltwerk-store.myshopify.com/admin/api/2024-10/orders.json"
            )
        ],
    ),
    K(
        "tindie_api_key",
        "Tindie",
        "API key",
        "TINDIE_API_KEY",
        _same(lambda r: _s(r, HEX, 40)),
        "",
        [lambda c: f"GET https://www.tindie.com/api/v1/order/?format=json&username=voltwerk&api_key={c.val}"],
    ),
    K(
        "stripe_secret_key",
        "Stripe",
        "secret key",
        "STRIPE_SECRET_KEY",
        _same(v_stripe),
        "b",
    ),
    K(
        "stripe_webhook_secret",
        "Stripe",
        "webhook signing secret",
        "STRIPE_WEBHOOK_SECRET",
        _same(v_whsec),
        "",
        [
            lambda c: (
                f"$ stripe listen --forward-to localhost:4242/webhook\nReady! Your webhook signing secret is {c.val} (^C to quit)"
            )
        ],
    ),
    K(
        "zendesk_api_token",
        "Zendesk",
        "API token",
        "ZENDESK_API_TOKEN",
        _same(lambda r: _s(r, ALNUM, 40)),
        "",
        [lambda c: f"curl https://voltwerk.zendesk.com/api/v2/tickets.json -u support@voltwerk.io/token:{c.val}"],
    ),
    K(
        "freshdesk_api_key",
        "Freshdesk",
        "API key",
        "FRESHDESK_API_KEY",
        _same(lambda r: _s(r, ALNUM, 20)),
        "",
        [lambda c: f"curl -u {c.val}:X https://hubertrust.freshdesk.com/api/v2/tickets"],
    ),
    K(
        "slack_webhook_url",
        "Slack",
        "webhook URL",
        "SLACK_WEBHOOK_URL",
        v_slack_hook,
        "",
    ),
    K(
        "discord_webhook_url",
        "Discord",
        "webhook URL",
        "DISCORD_WEBHOOK",
        v_discord_hook,
        "",
    ),
    K(
        "telegram_bot_token",
        "Telegram",
        "bot token",
        "TELEGRAM_BOT_TOKEN",
        _same(v_telegram),
        "",
        [
            lambda c: (
                f"curl https://api.telegram.org/bot{c.val}/sendMessage -d chat_id=-100{c.r.randrange(10**9, 10**10)} -d text=fw-ok"
            )
        ],
    ),
    K(
        "sendgrid_api_key",
        "SendGrid",
        "API key",
        "SENDGRID_API_KEY",
        _same(v_sendgrid),
        "b",
    ),
    K(
        "plaid_secret",
        "Plaid",
        "secret",
        "PLAID_SECRET",
        _same(lambda r: _s(r, HEX, 30)),
        "",
        [lambda c: json.dumps({"client_id": _s(c.r, HEX, 24), "secret": c.val, "access_token": None})],
    ),
    K(
        "tink_client_secret",
        "Tink",
        "client secret",
        "TINK_CLIENT_SECRET",
        _same(lambda r: _s(r, HEX, 32)),
        "",
    ),
    K(
        "truelayer_client_secret",
        "TrueLayer",
        "client secret",
        "TRUELAYER_CLIENT_SECRET",
        _same(_uuid),
        "",
    ),
    K(
        "gocardless_access_token",
        "GoCardless",
        "access token",
        "GOCARDLESS_ACCESS_TOKEN",
        _same(v_gocardless),
        "b",
    ),
    K("wise_api_token", "Wise", "API token", "WISE_API_TOKEN", _same(_uuid), "b"),
    K(
        "revolut_refresh_token",
        "Revolut Business",
        "refresh token",
        "REVOLUT_REFRESH_TOKEN",
        _same(v_revolut),
        "",
    ),
    K(
        "ibkr_password",
        "Interactive Brokers",
        "IB Gateway password",
        "IB_PASSWORD",
        _same(_password),
        "",
        [
            lambda c: (
                f"# IBC config.ini\nIbLoginId=hubertrust{c.r.randrange(10, 99)}\nIbPassword={c.val}\nTradingMode=live\n"
            )
        ],
    ),
    K(
        "alpaca_secret_key",
        "Alpaca",
        "API secret key",
        "APCA_API_SECRET_KEY",
        _same(lambda r: _s(r, ALNUM, 40)),
        "",
        [lambda c: f"curl -H 'APCA-API-SECRET-KEY: {c.val}' https://api.alpaca.markets/v2/account"],
    ),
    K(
        "coinbase_api_secret",
        "Coinbase",
        "API secret",
        "COINBASE_API_SECRET",
        _same(lambda r: _b64bytes(r, 64)),
        "",
    ),
    K(
        "kraken_private_key",
        "Kraken",
        "private key (API secret)",
        "KRAKEN_API_SECRET",
        _same(lambda r: _b64bytes(r, 64)),
        "",
    ),
    K(
        "binance_secret_key",
        "Binance",
        "secret key",
        "BINANCE_SECRET_KEY",
        _same(lambda r: _s(r, ALNUM, 64)),
        "",
    ),
    K(
        "crypto_seed_phrase",
        "Ledger",
        "recovery phrase",
        "WALLET_MNEMONIC",
        _same(v_seed),
        "",
        [lambda c: f"Cold wallet backup (steel plate copy is in the safe deposit box):\n{c.val}"],
    ),
    K(
        "ethereum_private_key",
        "MetaMask",
        "account private key",
        "ETH_PRIVATE_KEY",
        _same(lambda r: _s(r, HEX, 64)),
        "",
        [lambda c: f"cast send 0x{_s(c.r, HEX, 40)} --value 0.1ether --private-key {c.val} --rpc-url $RPC"],
    ),
    K(
        "bitcoin_wif_private_key",
        "Bitcoin",
        "WIF private key",
        "BTC_WIF",
        _same(v_wif),
        "",
        [lambda c: f'$ bitcoin-cli importprivkey {c.val} "treasury-cold" false'],
    ),
    K(
        "quickbooks_client_secret",
        "QuickBooks",
        "client secret",
        "QBO_CLIENT_SECRET",
        _same(lambda r: _s(r, ALNUM, 40)),
        "",
    ),
    K(
        "intuit_refresh_token",
        "QuickBooks",
        "OAuth refresh token",
        "QBO_REFRESH_TOKEN",
        _same(v_intuit_refresh),
        "",
    ),
    K(
        "xero_client_secret",
        "Xero",
        "client secret",
        "XERO_CLIENT_SECRET",
        _same(lambda r: _s(r, B64URL, 48)),
        "",
    ),
    K(
        "docusign_secret_key",
        "DocuSign",
        "secret key",
        "DOCUSIGN_SECRET_KEY",
        _same(_uuid),
        "",
    ),
    K(
        "dropbox_access_token",
        "Dropbox",
        "access token",
        "DROPBOX_TOKEN",
        _same(v_dropbox),
        "b",
    ),
    K(
        "box_client_secret",
        "Box",
        "client secret",
        "BOX_CLIENT_SECRET",
        _same(lambda r: _s(r, ALNUM, 32)),
        "",
    ),
    K(
        "onepassword_service_account_token",
        "1Password",
        "service account token",
        "OP_SERVICE_ACCOUNT_TOKEN",
        _same(v_op),
        "",
    ),
    K(
        "bitwarden_access_token",
        "Bitwarden Secrets Manager",
        "access token",
        "BWS_ACCESS_TOKEN",
        _same(v_bws),
        "",
    ),
    K(
        "azure_ad_client_secret",
        "Microsoft 365",
        "app client secret",
        "AZURE_CLIENT_SECRET",
        _same(v_azure_ad),
        "",
    ),
    K(
        "m365_app_password",
        "Microsoft 365",
        "app password",
        "M365_APP_PASSWORD",
        _same(lambda r: _s(r, LOWER, 16)),
        "",
    ),
    K(
        "google_oauth_client_secret",
        "Google Workspace",
        "OAuth client secret",
        "GOOGLE_CLIENT_SECRET",
        _same(v_gocspx),
        "",
    ),
    K(
        "google_app_password",
        "Gmail",
        "app password",
        "GMAIL_APP_PASSWORD",
        _same(v_gapp),
        "",
    ),
    K(
        "sftp_password",
        "bank SFTP",
        "password",
        "BANK_SFTP_PASSWORD",
        _same(_password),
        "",
        [
            lambda c: (
                f"lftp -u hubertrust_ft,{c.val} sftp://sftp.{c.r.choice(['raiffeisen', 'ubs', 'seb', 'unicredit'])}-h2h.example:22"
            )
        ],
    ),
    K(
        "sftp_private_key",
        "bank SFTP",
        "SSH private key",
        "BANK_SFTP_KEY",
        _same(v_openssh),
        "p",
    ),
    K("pgp_private_key", "statements PGP", "secret key", "PGP_KEY", _same(v_pgp), "p"),
    K(
        "pgp_passphrase",
        "statements PGP",
        "key passphrase",
        "PGP_PASSPHRASE",
        _same(_password),
        "",
        [lambda c: f"gpg --batch --pinentry-mode loopback --passphrase '{c.val}' -d statement_2026-11.csv.gpg"],
    ),
    K(
        "postgres_connection_password",
        "ledger Postgres",
        "DSN",
        "DATABASE_URL",
        v_pg,
        "",
    ),
    K(
        "google_service_account_key",
        "Google Workspace",
        "service account key",
        "GSA_KEY",
        _same(v_pkcs8),
        "p",
    ),
]


def _make_positive(spec, r):
    display, secret = spec.gen(r)
    key = spec.var.lower()
    c = SimpleNamespace(svc=spec.svc, label=spec.label, var=spec.var, key=key, val=display, r=r)
    if "p" in spec.flags:
        pool = T_BLOCK + spec.extra
        t = r.choice(pool)
        text = t(c)
        return text, _blocksec(c, text) if secret == display else secret
    tool = T_TOOL + spec.extra * 2
    if "b" in spec.flags:
        tool = tool + T_BEARER
    if "h" in spec.flags:
        tool = [*tool, lambda c: f"> POST /v1/jobs HTTP/1.1\n> X-API-Key: {c.val}\n> Content-Type: application/json"]
    x = r.random()
    pool = T_NOTE if x < 0.5 else (T_CONF if x < 0.75 else tool)
    return r.choice(pool)(c), secret


# ----------------------------------------------------------------------------------------------
# look-alikes
# ----------------------------------------------------------------------------------------------

_LOOK = []


def _lk(fn):
    _LOOK.append(fn)
    return fn


def _dev(r):
    return f"{r.choice(['bench', 'node', 'gw', 'sensor', 'tracker'])}-{r.randrange(100, 9999)}"


@_lk
def lk_commit(r):
    return f"Fixed the brown-out reset loop in {_s(r, HEX, 7)} (full sha {_s(r, HEX, 40)}), cherry-picked onto release/{r.randrange(1, 5)}.{r.randrange(0, 9)}."


@_lk
def lk_sha256sum(r):
    return f"$ sha256sum build/firmware-{r.randrange(1, 4)}.{r.randrange(0, 20)}.{r.randrange(0, 9)}.bin\n{_s(r, HEX, 64)}  build/firmware.bin"


@_lk
def lk_md5(r):
    return f"Gerber zip md5 {_s(r, HEX, 32)} matches what JLCPCB received for order {r.randrange(10**6, 10**7)}."


@_lk
def lk_request_id(r):
    return (
        f"< HTTP/1.1 429 Too Many Requests\n< x-request-id: {_uuid(r)}\n< retry-after: {r.randrange(1, 60)}\n"
        f"Note: Plaid rate limit hit again during the nightly sync."
    )


@_lk
def lk_esptool(r):
    mac = ":".join(_s(r, HEX, 2) for _ in range(6))
    return (
        f"esptool.py v4.7.0\nChip is ESP32-S3 (revision v0.{r.randrange(0, 3)})\nMAC: {mac}\n"
        f"Flash will be erased from 0x00010000 to 0x{_s(r, HEX, 8)}...\nHash of data verified.\nDigest: {_s(r, HEX, 64)}"
    )


@_lk
def lk_iot_cert_id(r):
    return (
        f"AWS IoT certificateId {_s(r, HEX, 64)} attached to thing {_dev(r)} (policy FleetPolicy-v{r.randrange(1, 9)})."
    )


@_lk
def lk_public_cert(r):
    return "Device certificate (public, fine to paste):\n" + _pem(r, "CERTIFICATE", "MIIDWTCCAkGgAwIBAgIU", 18)


@_lk
def lk_public_key(r):
    return "OTA verification key compiled into the bootloader:\n" + _pem(
        r, "PUBLIC KEY", "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE", 2
    )


@_lk
def lk_ssh_pub(r):
    return f"Added to the bank SFTP authorized keys: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_s(r, B64, 43)} {r.choice(_PEOPLE)}@office"


@_lk
def lk_pgp_public(r):
    body = "mQINBG" + _b64bytes(r, 300)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    lab = "PGP PUBLIC KEY BLOCK"
    return "The bank's public key for statements:\n" + "\n".join(
        [DASH5 + "BEGIN " + lab + DASH5, "", *lines, DASH5 + "END " + lab + DASH5]
    )


@_lk
def lk_pgp_fpr(r):
    f = " ".join(_s(r, UHEX, 4) for _ in range(10))
    return f"$ gpg --fingerprint statements@bank\npub   rsa4096 2024-0{r.randrange(1, 9)}-11 [SC]\n      {f}\nuid   Bank Statements"


@_lk
def lk_ssh_fpr(r):
    return f"Host key for sftp.bank changed? New fingerprint SHA256:{_s(r, B64, 43)} - confirmed by phone with their ops desk."


@_lk
def lk_stripe_pk(r):
    return f"Storefront checkout uses the publishable key {'pk' + '_live_' + _s(r, ALNUM, 24 if r.random() < 0.5 else 99)} (safe in the JS bundle)."


@_lk
def lk_plaid_client_id(r):
    return f"PLAID_CLIENT_ID={_s(r, HEX, 24)}\nPLAID_ENV=production\nPLAID_SECRET=${{PLAID_SECRET}}"


@_lk
def lk_gha_secret_ref(r):
    n = r.choice(
        [
            "STRIPE_SECRET_KEY",
            "PARTICLE_TOKEN",
            "ARTIFACTORY_API_KEY",
            "TTN_API_KEY",
            "BALENA_TOKEN",
        ]
    )
    return f"      - name: Deploy\n        env:\n          {n}: ${{{{ secrets.{n} }}}}\n        run: ./deploy.sh --fleet {_dev(r)}"


@_lk
def lk_jenkins_creds(r):
    cid = r.choice(["artifactory-token", "conan-ci", "particle-cloud", "sftp-bank"])
    return f"withCredentials([string(credentialsId: '{cid}', variable: 'TOKEN')]) {{\n  sh './publish.sh --build {r.randrange(100, 9999)}'\n}}"


@_lk
def lk_vault_path(r):
    return f"$ vault kv get -field=api_key secret/{r.choice(['family-office', 'fleet', 'shop'])}/{r.choice(['kraken', 'plaid', 'memfault', 'shopify'])}-{r.randrange(1, 99)}"


@_lk
def lk_op_ref(r):
    return f"API_SECRET=op://Family Office/{r.choice(['Kraken', 'Binance', 'Coinbase', 'Wise'])} {r.randrange(1, 50)}/credential\n# resolved by `op run --env-file .env -- python sync.py`"


@_lk
def lk_bw_get(r):
    return f"export BW_SESSION=$(bw unlock --raw)\nbw get password {_uuid(r)} | ./upload-statement.sh  # item id, not the password"


@_lk
def lk_env_ref(r):
    v = r.choice(
        [
            "KRAKEN_API_SECRET",
            "QBO_CLIENT_SECRET",
            "XERO_CLIENT_SECRET",
            "WIFI_PASSWORD",
            "MQTT_PASSWORD",
        ]
    )
    return f'secret = os.environ["{v}"]  # set in /etc/default/ledger-sync (line {r.randrange(1, 90)})'


@_lk
def lk_placeholder(r):
    p = r.choice(
        [
            "<your-api-key>",
            "YOUR_API_KEY_HERE",
            "<paste token>",
            "xxxxxxxxxxxxxxxx",
            "REPLACE_ME",
            "<secret>",
        ]
    )
    svc = r.choice(["Particle", "Golioth", "Tindie", "Freshdesk", "Zendesk", "Mouser", "Octopart"])
    return f"README snippet for {svc} #{r.randrange(1, 999)}:\n  export {svc.upper()}_API_KEY={p}"


@_lk
def lk_changeme(r):
    return f"Default Jenkins/Artifactory admin password in the docker-compose is `changeme` (ticket OPS-{r.randrange(100, 999)}: force change on first login)."


@_lk
def lk_masked(r):
    return f"{r.choice(['STRIPE_SECRET_KEY', 'BINANCE_SECRET_KEY', 'GH_TOKEN', 'ZENDESK_API_TOKEN'])}=****{_s(r, ALNUM, 4)} (masked in job #{r.randrange(1000, 99999)})"


@_lk
def lk_sops(r):
    return (
        f"kraken:\n    api_secret: ENC[AES256_GCM,data:{_b64bytes(r, 60)},iv:{_b64bytes(r, 32)},tag:{_b64bytes(r, 16)},type:str]\n"
        f'sops:\n    lastmodified: "2026-11-{r.randrange(10, 30)}T08:00:00Z"'
    )


@_lk
def lk_ansible_vault(r):
    lines = [_s(r, HEX, 80) for _ in range(r.randrange(4, 7))]
    return "wifi_psk: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n          " + "\n          ".join(lines)


@_lk
def lk_bcrypt(r):
    return f"admin_password_hash: $2b$12${_s(r, ALNUM + './', 53)}  # bcrypt, Jenkins local user {r.choice(_PEOPLE)}"


@_lk
def lk_argon2(r):
    return f"$argon2id$v=19$m=65536,t=3,p=4${_s(r, B64, 22)}${_s(r, B64, 43)}  <- stored hash for the shop admin, verify only"


@_lk
def lk_mosquitto_passwd(r):
    return (
        "\n".join(f"{u}:$7$101${_s(r, B64, 16)}${_s(r, B64, 86)}==" for u in r.sample(_PEOPLE, 2))
        + "\n# /etc/mosquitto/passwd (PBKDF2 hashes)"
    )


@_lk
def lk_shadow(r):
    return f"root:$6${_s(r, ALNUM, 16)}${_s(r, ALNUM + './', 86)}:{r.randrange(19000, 20500)}:0:99999:7:::"


@_lk
def lk_png(r):
    return f"Board photo for the Tindie listing: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{_b64bytes(r, 90)}"


@_lk
def lk_intel_hex(r):
    rows = [f":10{r.randrange(0, 65535):04X}00{_s(r, UHEX, 32)}{_s(r, UHEX, 2)}" for _ in range(4)]
    return "bootloader.hex (first lines):\n" + "\n".join(rows) + "\n:00000001FF"


@_lk
def lk_dev_eui(r):
    return f"Registered in TTN: DevEUI 70B3D57ED0{_s(r, UHEX, 6)}, JoinEUI 0000000000000000, DevAddr 260B{_s(r, UHEX, 4)} (all public identifiers)."


@_lk
def lk_ble_uuid(r):
    return f"GATT service {_uuid(r)} exposes battery + telemetry; device addr {':'.join(_s(r, UHEX, 2) for _ in range(6))} (random static)."


@_lk
def lk_azure_x509(r):
    return f"HostName=sensorhub-prod.azure-devices.net;DeviceId={_dev(r)};x509=true\n# cert auth, no shared key on the device"


@_lk
def lk_sentry_dsn(r):
    return f"SENTRY_DSN=https://{_s(r, HEX, 32)}@o{r.randrange(10**5, 10**7)}.ingest.sentry.io/{r.randrange(10**6, 10**7)}  # public DSN"


@_lk
def lk_firebase(r):
    cfg = {
        "apiKey": "AI" + "za" + _s(r, B64URL, 35),
        "authDomain": "voltwerk-app.firebaseapp.com",
        "projectId": "voltwerk-app",
        "appId": f"1:{r.randrange(10**11, 10**12)}:web:{_s(r, HEX, 22)}",
    }
    return "Firebase web config for the companion app (public):\n" + json.dumps(cfg, indent=2)


@_lk
def lk_recaptcha(r):
    return f"Shop contact form reCAPTCHA site key: 6L{_s(r, B64URL, 38)} (the secret part is in Vault)."


@_lk
def lk_algolia(r):
    return f"docs search: appId {_s(r, UALNUM, 10)}, search-only API key {_s(r, HEX, 32)} (public, read-only)."


@_lk
def lk_google_client_id(r):
    return f"GOOGLE_CLIENT_ID={r.randrange(10**11, 10**12)}-{_s(r, LALNUM, 32)}.apps.googleusercontent.com"


@_lk
def lk_eth_address(r):
    return f"Treasury receiving address 0x{_s(r, HEX, 40)} - send test tx of 0.001 ETH first."


@_lk
def lk_eth_tx(r):
    return f"Transfer to the custody wallet confirmed: tx 0x{_s(r, HEX, 64)} in block {r.randrange(18_000_000, 22_000_000)}."


@_lk
def lk_btc_txid(r):
    return f'bitcoin-cli gettransaction {_s(r, HEX, 64)}\n  "confirmations": {r.randrange(1, 500)},'


@_lk
def lk_btc_address(r):
    return f"Deposit address for the Kraken funding: bc1q{_s(r, '023456789acdefghjklmnpqrstuvwxyz', 38)}"


@_lk
def lk_xpub(r):
    return f"Watch-only wallet imported with xpub6{_s(r, B58, 106)} (public, balances only)."


@_lk
def lk_docker_digest(r):
    return f"image: ghcr.io/voltwerk/fleet-agent@sha256:{_s(r, HEX, 64)}  # pinned {r.choice(_DATES)}"


@_lk
def lk_integrity(r):
    return f'"node_modules/mqtt": {{"version": "5.{r.randrange(0, 12)}.{r.randrange(0, 9)}", "integrity": "sha512-{_b64bytes(r, 64)}"}}'


@_lk
def lk_kconfig_ref(r):
    return f'CONFIG_ESP_WIFI_SSID="Voltwerk-Lab-{r.randrange(1, 99)}"\nCONFIG_ESP_WIFI_PASSWORD=""\n# password injected at provisioning via BLE, never in sdkconfig'


@_lk
def lk_pio_sysenv(r):
    return f'[env:node{r.randrange(1, 99)}]\nbuild_flags =\n    -DWIFI_PASS=\\"${{sysenv.WIFI_PASS}}\\"\n    -DMQTT_HOST=\\"broker.lab\\"'


@_lk
def lk_secrets_example(r):
    return f'// secrets.h.example - copy to secrets.h\n#define SECRET_SSID "your-ssid"\n#define SECRET_PASS "your-wifi-password"\n#define BOARD_REV {r.randrange(1, 200)}'


@_lk
def lk_idf_build(r):
    return (
        f'$ idf.py build\nProject build complete. App "fleet" version: v{r.randrange(1, 4)}.{r.randrange(0, 30)}\n'
        f"App ELF file SHA256: {_s(r, HEX, 64)}\nbuild/fleet.bin binary size 0x{_s(r, HEX, 5)} bytes"
    )


@_lk
def lk_mcuboot(r):
    return (
        f"*** Booting MCUboot v2.1.0 ***\nI: Image index: 0, Swap type: none\nI: Bootloader chainload address offset: 0x{_s(r, HEX, 5)}\n"
        f"I: image hash {_s(r, HEX, 64)} OK"
    )


@_lk
def lk_memfault_ids(r):
    return f"Memfault issue #{r.randrange(1000, 99999)} trace {_uuid(r)}, coredump from {_dev(r)} with build id {_s(r, HEX, 40)}."


@_lk
def lk_golioth_id(r):
    return f"Golioth device id {_s(r, HEX, 24)} in project voltwerk-{r.randrange(1, 9)}; identity {_dev(r)}@voltwerk"


@_lk
def lk_particle_id(r):
    return f"$ particle list\n{_dev(r)} [{_s(r, HEX, 24)}] (Boron) is online"


@_lk
def lk_balena_uuid(r):
    return f"balena ssh {_s(r, HEX, 32)}  # device uuid of the demo unit at the booth"


@_lk
def lk_nrf_device(r):
    return f"nRF Cloud device nrf-35{_s(r, DIG, 13)} onboarded, FOTA job {_uuid(r)} status SUCCEEDED"


@_lk
def lk_tpm_pcr(r):
    return "$ tpm2_pcrread sha256:0,1,7\n  sha256:\n" + "\n".join(f"    {i} : 0x{_s(r, UHEX, 64)}" for i in (0, 1, 7))


@_lk
def lk_ipynb(r):
    return json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randrange(1, 300),
            "id": _s(r, HEX, 8),
            "metadata": {},
            "outputs": [{"output_type": "stream", "text": [f"run {_s(r, LALNUM, 8)} done\n"]}],
            "source": ["df = load_ledger('2026-Q3')\n"],
        },
        indent=1,
    )


@_lk
def lk_gha_run(r):
    return f"CI run https://github.com/voltwerk/firmware/actions/runs/{r.randrange(10**9, 10**10)} failed at step 'hil-test' (job {r.randrange(10**10, 10**11)})."


@_lk
def lk_ci_masked(r):
    return f"Run ./publish.sh\n  env:\n    ARTIFACTORY_API_KEY: ***\n    CONAN_PASSWORD: ***\nUploading fw-{_s(r, HEX, 8)}.bin ... 100%"


@_lk
def lk_flexlm(r):
    return f"SERVER eda-lic01 {_s(r, HEX, 12)} 27000\nVENDOR altiumd PORT={r.randrange(27001, 27100)}\nUSE_SERVER\n# licence server host id is the NIC MAC"


@_lk
def lk_digikey_pn(r):
    return f"BOM line {r.randrange(1, 80)}: Digi-Key {r.randrange(100, 999)}-{r.randrange(1000, 9999)}-1-ND, Mouser {r.randrange(100, 999)}-{_s(r, UALNUM, 10)}, qty {r.randrange(1, 500)}"


@_lk
def lk_shopify_gid(r):
    return f"Refund issued for order #{r.randrange(1000, 9999)} (gid://shopify/Order/{r.randrange(10**12, 10**13)}), line item gid://shopify/LineItem/{r.randrange(10**12, 10**13)}"


@_lk
def lk_stripe_ids(r):
    return f"Dispute on ch_{_s(r, ALNUM, 24)} for customer cus_{_s(r, ALNUM, 14)}; payment intent pi_{_s(r, ALNUM, 24)}, event evt_{_s(r, ALNUM, 24)}."


@_lk
def lk_stripe_sig(r):
    return (
        f"POST /webhook\nStripe-Signature: t={r.randrange(1700000000, 1800000000)},v1={_s(r, HEX, 64)}\n"
        f'Content-Type: application/json\n\n{{"type": "invoice.paid"}}'
    )


@_lk
def lk_shopify_hmac(r):
    return f"X-Shopify-Topic: orders/create\nX-Shopify-Hmac-Sha256: {_b64bytes(r, 32)}\nX-Shopify-Shop-Domain: voltwerk-store.myshopify.com"


@_lk
def lk_gh_sig(r):
    return f"X-GitHub-Delivery: {_uuid(r)}\nX-Hub-Signature-256: sha256={_s(r, HEX, 64)}\nX-GitHub-Event: push"


@_lk
def lk_plaid_ids(r):
    return f"Plaid item_id {_s(r, ALNUM, 37)} / account_id {_s(r, ALNUM, 37)} went into ITEM_LOGIN_REQUIRED; ask Margit to relink."


@_lk
def lk_wise_ids(r):
    return f"Wise transfer {r.randrange(10**8, 10**9)} from profile {r.randrange(10**6, 10**8)}, idempotency uuid {_uuid(r)}"


@_lk
def lk_ibkr_ids(r):
    return f"IBKR account U{r.randrange(10**6, 10**7)}; Flex query id {r.randrange(100000, 999999)} (token lives in 1Password)."


@_lk
def lk_kraken_txid(r):
    return f"Kraken order {_s(r, UALNUM, 6)}-{_s(r, UALNUM, 5)}-{_s(r, UALNUM, 6)} filled, refid {_s(r, UALNUM, 6)}-{_s(r, UALNUM, 5)}-{_s(r, UALNUM, 6)}"


@_lk
def lk_binance_order(r):
    return f'{{"symbol": "BTCEUR", "orderId": {r.randrange(10**9, 10**10)}, "clientOrderId": "{_s(r, ALNUM, 22)}", "status": "FILLED"}}'


@_lk
def lk_qbo_realm(r):
    return f"QuickBooks realmId {r.randrange(10**17, 10**19)}; intuit_tid {_uuid(r)} in the error response (code 3200)."


@_lk
def lk_xero_tenant(r):
    return f"Xero tenantId {_uuid(r)} (Huber Family Office GmbH); connection id {_uuid(r)}"


@_lk
def lk_docusign_ids(r):
    return f"DocuSign integration key (client id) {_uuid(r)}, envelope {_uuid(r)} sent for signature."


@_lk
def lk_dropbox_id(r):
    return f"Dropbox file id:{_s(r, B64URL, 22)} rev {_s(r, HEX, 9)} moved to /Family Office/Statements/2026"


@_lk
def lk_box_ids(r):
    return f"Box folder {r.randrange(10**10, 10**12)} shared with the auditor; file {r.randrange(10**11, 10**13)} version {r.randrange(1, 9)}."


@_lk
def lk_op_item(r):
    return f"$ op item get {_s(r, LALNUM, 26)} --vault {_s(r, LALNUM, 26)} --fields label=username\nmargit.huber"


@_lk
def lk_m365_ids(r):
    return f"App registration 'ledger-sync': Application (client) ID {_uuid(r)}, Directory (tenant) ID {_uuid(r)}"


@_lk
def lk_gws_customer(r):
    return f"Google Workspace customer ID C0{_s(r, LALNUM, 7)}, domain hubertrust.office, {r.randrange(3, 40)} seats."


@_lk
def lk_known_hosts(r):
    return f"sftp.bank-h2h.example,{r.randrange(10, 250)}.{r.randrange(0, 255)}.{r.randrange(0, 255)}.{r.randrange(1, 254)} ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{_s(r, B64, 120)}"


@_lk
def lk_gpg_keyid(r):
    return f"$ gpg --list-secret-keys --keyid-format long\nsec   rsa4096/{_s(r, UHEX, 16)} 2025-01-0{r.randrange(1, 9)} [SC]\nuid  [ultimate] Huber Office Statements"


@_lk
def lk_pgp_message(r):
    body = "hQIMA" + _b64bytes(r, 240)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    lab = "PGP MESSAGE"
    return "Encrypted statement from the bank:\n" + "\n".join(
        [DASH5 + "BEGIN " + lab + DASH5, "", *lines, DASH5 + "END " + lab + DASH5]
    )


@_lk
def lk_srcrev(r):
    return f'SRCREV = "{_s(r, HEX, 40)}"\nSRC_URI[sha256sum] = "{_s(r, HEX, 64)}"\nPV = "1.{r.randrange(0, 9)}+git${{SRCPV}}"'


@_lk
def lk_conan_rev(r):
    return f"fmt/10.2.1#{_s(r, HEX, 32)}:{_s(r, HEX, 40)} - Download (artifactory)"


@_lk
def lk_artifactory_checksum(r):
    return f"< X-Checksum-Sha1: {_s(r, HEX, 40)}\n< X-Checksum-Sha256: {_s(r, HEX, 64)}\n< X-Artifactory-Id: {_s(r, HEX, 40)}"


@_lk
def lk_jenkins_initial(r):
    return f"First login: the unlock password is in /var/lib/jenkins/secrets/initialAdminPassword on jenkins-{r.randrange(1, 99)} (read it with sudo, do not paste it here)."


@_lk
def lk_nmcli(r):
    rows = [
        f"{':'.join(_s(r, UHEX, 2) for _ in range(6))}  {n}  Infra  {r.choice([1, 6, 11, 36])}  {r.randrange(30, 99)}  WPA2"
        for n in r.sample(["Voltwerk-Lab", "Voltwerk-Guest", "FRITZ!Box 7590", "Booth-Demo"], 2)
    ]
    return "$ nmcli dev wifi list\nBSSID              SSID  MODE  CHAN  SIGNAL  SECURITY\n" + "\n".join(rows)


@_lk
def lk_bluetoothctl(r):
    return f"[bluetooth]# pair {':'.join(_s(r, UHEX, 2) for _ in range(6))}\nAttempting to pair\n[CHG] Device Paired: yes\n[CHG] UUIDs: {_uuid(r)}"


@_lk
def lk_mqtt_sub(r):
    return (
        f"$ mosquitto_sub -t 'fleet/+/telemetry' -v\nfleet/{_dev(r)}/telemetry "
        f'{{"fw":"{_s(r, HEX, 7)}","nonce":"{_s(r, HEX, 16)}","t":{r.randrange(10, 40)}.{r.randrange(0, 9)}}}'
    )


@_lk
def lk_lora_uplink(r):
    return json.dumps(
        {
            "end_device_ids": {"dev_eui": "70B3D57ED0" + _s(r, UHEX, 6)},
            "uplink_message": {
                "f_port": r.randrange(1, 20),
                "frm_payload": _b64bytes(r, 12),
                "mic": _s(r, UHEX, 8),
            },
        }
    )


@_lk
def lk_gateway_eui(r):
    return f"ChirpStack gateway {_s(r, HEX, 16)} last seen {r.randrange(1, 59)}s ago, region EU868, tenant {_uuid(r)}"


@_lk
def lk_udev(r):
    return f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="0483", ATTRS{{serial}}=="{_s(r, UHEX, 24)}", SYMLINK+="stlink-{r.randrange(1, 9)}"'


@_lk
def lk_systemd_envfile(r):
    return f"[Service]\nEnvironmentFile=/etc/ledger-sync/env\nExecStart=/opt/ledger/bin/sync --interval {r.randrange(5, 120)}m\nUser=ledger"


@_lk
def lk_ps_secure(r):
    return f"$cred = Get-Credential -UserName 'hubertrust\\svc-sftp{r.randrange(1, 99)}'\n$pw = Read-Host -AsSecureString 'SFTP password'\nGet-Secret -Name BankSftp -Vault OfficeVault"


@_lk
def lk_make_op(r):
    return (
        f"ZENDESK_TOKEN := $(shell op read op://Support/Zendesk/token)\nsync-{r.randrange(1, 99)}:\n\tpython zd_sync.py"
    )


@_lk
def lk_k8s_ref(r):
    return f"env:\n  - name: STRIPE_SECRET_KEY\n    valueFrom:\n      secretKeyRef:\n        name: shop-secrets-{r.randrange(1, 99)}\n        key: stripe-secret-key"


@_lk
def lk_airflow(r):
    return f'plaid_secret = Variable.get("plaid_secret")\nxero = dbutils.secrets.get(scope="office-{r.randrange(1, 99)}", key="xero-client-secret")'


@_lk
def lk_terraform(r):
    return f'resource "aws_iot_policy" "fleet_{r.randrange(1, 99)}" {{\n  name   = "fleet"\n  policy = data.aws_iam_policy_document.fleet.json\n}}\nvariable "stripe_secret_key" {{ sensitive = true }}'


@_lk
def lk_version(r):
    return f"Shipped build {r.randrange(1, 4)}.{r.randrange(0, 30)}.{r.randrange(0, 9)}+g{_s(r, HEX, 9)} to {r.randrange(10, 900)} devices via Balena; rollout id {_s(r, LALNUM, 20)}"


@_lk
def lk_aes_test_vector(r):
    k = "2B7E1516" + "28AED2A6" + "ABF71588" + "09CF4F3C"
    return f"Spec test vector (LoRaWAN 1.0.{r.randrange(2, 4)} annex, AES-128 FIPS-197): key {k} - only for unit test #{r.randrange(1, 99)}."


@_lk
def lk_doc_example_aws(r):
    return f"From the AWS docs (example value, not ours): aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY{'EXAMPLE' + 'KEY'}  (page {r.randrange(1, 400)})"


@_lk
def lk_doc_example_stripe(r):
    k = "sk" + "_test_" + "4eC39HqLyjWDarjtT1zdp7dc"
    return f"Stripe docs sample request #{r.randrange(1, 999)} uses the public docs test key {k}; ours is in Vault."


@_lk
def lk_bip39_test(r):
    words = "abandon " * 11 + "about"
    return f"BIP39 test vector {r.randrange(1, 400)} (never fund it): {words}"


@_lk
def lk_seed_placeholder(r):
    n = r.choice([12, 24])
    return (
        f"Recovery sheet template ({n} words): "
        + " ".join(f"word{i}" for i in range(1, n + 1))
        + f" - filled copy in safe {r.randrange(1, 99)}"
    )


@_lk
def lk_password_policy(r):
    return f"Policy: bank SFTP passwords must be at least {r.randrange(12, 20)} characters, rotate every {r.choice([60, 90, 180])} days (rule {r.randrange(1, 50)}), stored in Bitwarden only."


@_lk
def lk_redacted(r):
    return f'{{"username": "margit", "password": "[REDACTED]", "mfa": true, "attempt": {r.randrange(1, 9)}, "ts": {r.randrange(1700000000, 1800000000)}}}'


@_lk
def lk_schema(r):
    return json.dumps(
        {
            "type": "object",
            "properties": {
                "password": {"type": "string", "minLength": r.randrange(8, 20)},
                "port": {"default": r.randrange(1024, 65535)},
                "api_key": {"type": "string", "format": "password"},
            },
            "required": ["api_key"],
        }
    )


@_lk
def lk_b64_config(r):
    raw = json.dumps(
        {
            "interval": r.randrange(5, 600),
            "led": r.choice(["on", "off"]),
            "region": "EU868",
        }
    )
    return f"configmap blob: {base64.b64encode(raw.encode()).decode()} (just the sampling settings)"


@_lk
def lk_thumbprint(r):
    return f"Azure IoT device {_dev(r)} X.509 primary thumbprint {_s(r, UHEX, 40)}, secondary {_s(r, UHEX, 40)}"


@_lk
def lk_aws_endpoint(r):
    return f"AWS_IOT_ENDPOINT={_s(r, LALNUM, 14)}-ats.iot.{r.choice(['eu-central-1', 'us-east-1', 'eu-north-1'])}.amazonaws.com"


@_lk
def lk_dps_scope(r):
    return f"DPS ID scope 0ne00{_s(r, UHEX, 6)}, registration id {_dev(r)}, attestation: X.509 (no keys here)"


@_lk
def lk_arduino_thing(r):
    return f"Arduino Cloud thing {_uuid(r)} / device id {_uuid(r)} — sketch {r.choice(['greenhouse', 'meter', 'lab-temp'])}_{r.randrange(1, 99)}"


@_lk
def lk_solana_sig(r):
    return f"Solana tx signature {_s(r, B58, 88)} confirmed (slot {r.randrange(2 * 10**8, 3 * 10**8)})"


@_lk
def lk_contract_bytecode(r):
    return f"Multisig factory deploy data 0x60806040523480156100105760{_s(r, HEX, 120)}"


@_lk
def lk_git_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_s(r, HEX, 64)}\nsize {r.randrange(10**5, 10**8)}"


@_lk
def lk_gerber_uuid(r):
    return f"KiCad project uuid {_uuid(r)}; footprint tstamp {_s(r, HEX, 8)}; DRC report rev {r.randrange(1, 30)}"


@_lk
def lk_iban(r):
    return f"Outgoing SEPA to DE{r.randrange(10, 99)}{_s(r, DIG, 18)} (BIC COBADEFFXXX) for invoice {r.randrange(1000, 9999)}"


@_lk
def lk_totp_note(r):
    return f"MFA for the Revolut Business admin moved to the YubiKey (serial {r.randrange(10**7, 10**8)}); backup codes in the office safe."


@_lk
def lk_jwt_doc(r):
    return f"ChirpStack API keys are JWTs (header.payload.signature); create one under Tenant > API keys, label it ci-{r.randrange(1, 99)}."


@_lk
def lk_hivemq_host(r):
    return f"MQTT_HOST={_s(r, HEX, 32)}.s1.eu.hivemq.cloud\nMQTT_PORT=8883\nMQTT_USER=fleet-{r.randrange(10, 99)}\nMQTT_PASSWORD=${{MQTT_PASSWORD}}"


@_lk
def lk_conn_placeholder(r):
    return f"DATABASE_URL=postgresql://erp_app:${{DB_PASSWORD}}@db-{r.randrange(1, 99)}.office.lan:{r.choice([5432, 5433, 6432])}/ledger"


@_lk
def lk_slack_channel(r):
    return f"Alerts go to Slack channel C0{_s(r, UALNUM, 9)} (team T0{_s(r, UALNUM, 8)}); the webhook lives in Vault at kv/ops/slack."


@_lk
def lk_pio_lib(r):
    return f"lib_deps =\n    knolleary/PubSubClient@^2.8\n    https://github.com/voltwerk/ota-lib.git#{_s(r, HEX, 40)}"


@_lk
def lk_jira_ticket(r):
    return f"OPS-{r.randrange(100, 9999)}: rotate the Kraken API secret (done {r.choice(_DATES)}, new one only in 1Password, old key id revoked)."


@_lk
def lk_coinbase_key_name(r):
    return f"Coinbase CDP key name organizations/{_uuid(r)}/apiKeys/{_uuid(r)} (the private key stays in the HSM)."


@_lk
def lk_nonce(r):
    return f"Kraken API call failed: EAPI:Invalid nonce (sent {r.randrange(10**15, 10**16)}); fix clock skew on ledger-{r.randrange(1, 9)}."


@_lk
def lk_crc(r):
    return f"[boot] fw crc32=0x{_s(r, UHEX, 8)} len={r.randrange(10**5, 10**6)} slot={r.randrange(0, 2)} -> valid"


@_lk
def lk_uuid_named_id(r):
    return f"Zendesk ticket {r.randrange(1000, 99999)} linked to Freshdesk contact {r.randrange(10**9, 10**11)}; correlation {_uuid(r)}"


@_lk
def lk_ttn_key_id(r):
    return f"TTN API key id {_s(r, B32, 39)} (rights: RIGHT_APPLICATION_TRAFFIC_READ) created for the dashboard; the key itself was shown once and is stored in Bitwarden."


@_lk
def lk_alpaca_paper(r):
    return (
        f"Alpaca paper trading endpoint https://paper-api.alpaca.markets/v2/orders returned 403 for request {_uuid(r)}"
    )


@_lk
def lk_ed25519_pubhex(r):
    return f"imgtool getpub -k keys/ota.pem --lang c  ->  ed25519 public key {_s(r, HEX, 64)} (published in the security advisory)"


@_lk
def lk_psk_identity(r):
    return f"Golioth PSK-ID {_dev(r)}@voltwerk-{r.randrange(1, 9)} set via shell; PSK itself provisioned from the factory HSM."


@_lk
def lk_salt_iv(r):
    return f"crypto.yaml: kdf=scrypt, N={2 ** r.randrange(14, 18)}, r=8, p=1; ciphertext file vault.bin (mac {_s(r, HEX, 32)})"


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for spec in _KINDS:
        r = random.Random(f"aa:{seed}:{spec.kind}")
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > 5000:
                raise RuntimeError(f"cannot fill kind {spec.kind}")
            text, secret = _make_positive(spec, r)
            if text in seen:
                continue
            seen.add(text)
            positives.append((text, spec.kind, secret))
            got += 1
    lookalikes: list[str] = []
    for fn in _LOOK:
        r = random.Random(f"aa:{seed}:look:{fn.__name__}")
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 2000:
                raise RuntimeError(f"look-alike {fn.__name__} does not vary")
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
