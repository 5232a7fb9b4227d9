"""Labelled test set AG for a secret detector working on agent "memories".

Theme
-----
Memories an AI coding agent keeps for an engineer who automates a farm cooperative,
the veterinary clinic next door and the small rural internet provider they share:
farm / IoT (John Deere Operations Center, Climate FieldView, Trimble, LoRaWAN keys,
ChirpStack, The Things Stack, MQTT, InfluxDB, Grafana, Node-RED, Home Assistant,
weather APIs, ESPHome / Arduino Wi-Fi, cellular modems, SIM PIN / PUK), the vet clinic
(ezyVet, Vetspire, Covetrus, IDEXX, lab SFTP, PetDesk, Twilio / MessageBird SMS,
Square, Stripe, Google Workspace, QuickBooks) and the ISP (UISP, MikroTik RouterOS,
FreeRADIUS, Splynx, Sonar, PPPoE, SNMP, BGP, TACACS+, cnMaestro, LibreNMS, Oxidized,
NetBox, Proxmox, pfSense, WireGuard, IPsec).  Styles: notes, lessons, runbooks, TODOs,
tickets, e-mails and chat (English plus Spanish, Portuguese, Swahili, Ukrainian,
Hungarian, Punjabi, Dutch), config files (RouterOS exports, clients.conf, YAML, JSON,
INI, .env, Node-RED, ESPHome, secrets.yaml, Arduino, docker-compose, systemd) and tool
output (RouterOS terminal, SSH, serial consoles, CLI sessions, container logs, HTTP).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``kind`` is a snake_case credential
  kind, ``secret`` is the single sensitive value, an exact substring of ``text``
  (stripped, without surrounding quotes).  Every text holds exactly one secret.
  Every kind has exactly 30 positives.
* ``lookalikes``: texts with no credential at all.  Each function in ``_LOOK`` is
  called until it produced ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic: all randomness comes from ``random.Random(seed)``; no text appears
  twice in the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth
  URLs: the password only.  Pre-signed URLs: the signature.  PEM / OpenSSH private
  keys: the whole armoured block, BEGIN line to END line (inside JSON the block is
  kept in its escaped ``\\n`` form).  UUID-shaped vendor tokens (UISP, Proxmox) are
  secrets only because the text names them as token / secret.
* Public-by-design values are look-alikes: publishable keys, site keys, Sentry DSNs,
  OAuth client ids, Firebase web apiKeys, account SIDs, public keys and certificates.
  Vendor documentation example values, encrypted blobs (Ansible vault, sops ENC[...],
  sealed secrets) and password hashes (bcrypt, argon2, sha512-crypt, mosquitto $7$)
  are look-alikes.  Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: vendor prefixes are assembled from
  pieces at run time and bodies are random from the seed.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string

LOOK_PER_GEN = 12
PER_KIND = 30

_LOW = string.ascii_lowercase
_UP = string.ascii_uppercase
_DIG = string.digits
_ALNUM = _LOW + _UP + _DIG
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_B64U = _ALNUM + "-_"
_B32 = _UP + "234567"


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64(rng: random.Random, nbytes: int, urlsafe: bool = False) -> str:
    raw = bytes(rng.getrandbits(8) for _ in range(nbytes))
    if urlsafe:
        return base64.urlsafe_b64encode(raw).decode()
    return base64.b64encode(raw).decode()


def _uuid(rng: random.Random) -> str:
    h = _r(rng, _HEX, 32)
    h = h[:12] + "4" + h[13:16] + rng.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _b64url_json(obj: dict) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _jwt(rng: random.Random, payload: dict) -> str:
    head = _b64url_json({"alg": "HS256", "typ": "JWT"})
    return head + "." + _b64url_json(payload) + "." + _r(rng, _B64U, 43)


# ---------------------------------------------------------------------------
# word lists
# ---------------------------------------------------------------------------

_WORDS = [
    "tulip",
    "rover",
    "barley",
    "tractor",
    "heifer",
    "silo",
    "clover",
    "harrow",
    "combine",
    "meadow",
    "paddock",
    "orchard",
    "gander",
    "poodle",
    "beagle",
    "tabby",
    "falcon",
    "willow",
    "maple",
    "cedar",
    "ranger",
    "copper",
    "thunder",
    "pepper",
    "mango",
    "kestrel",
    "otter",
    "badger",
    "walnut",
    "hazel",
    "juniper",
    "bramble",
    "sorghum",
    "alfalfa",
    "plover",
]
_SEASONS = ["Summer", "Winter", "Spring", "Autumn", "Harvest", "Calving"]
_SYMS = "!@#%*?-_+="
_WHO = [
    "maria",
    "joao",
    "wanjiru",
    "oksana",
    "bence",
    "harpreet",
    "daan",
    "tom",
    "priya",
    "kofi",
    "lucia",
    "pieter",
    "gurpreet",
    "mykola",
    "eszter",
    "amani",
]
_SITES = [
    "north barn",
    "dairy shed",
    "grain dryer",
    "pump house",
    "vet clinic front desk",
    "clinic surgery room",
    "tower 3 (Hill Rd)",
    "tower 7 (water tank)",
    "the NOC rack",
    "packing shed",
    "greenhouse 2",
    "co-op office",
    "feedlot gate",
    "hay barn",
]
_HOSTS = [
    "noc.valleynet.coop",
    "gw01.valleynet.coop",
    "mqtt.farmcoop.local",
    "influx.farmcoop.local",
    "grafana.farmcoop.local",
    "ha.farmcoop.local",
    "nodered.farmcoop.local",
    "chirpstack.farmcoop.local",
    "uisp.valleynet.coop",
    "netbox.valleynet.coop",
    "librenms.valleynet.coop",
    "pve1.valleynet.coop",
    "fw.ruralvet.clinic",
    "files.ruralvet.clinic",
    "radius1.valleynet.coop",
    "splynx.valleynet.coop",
]
_SVCS = [
    "nodered",
    "chirpstack",
    "influxdb",
    "grafana",
    "telegraf",
    "mqtt-bridge",
    "sms-reminders",
    "uisp-sync",
    "netbox",
    "oxidized",
    "labsync",
    "billing-export",
]
_LESSONS = [
    "the gateway drops the join if the clock drifts",
    "RouterOS export hides secrets unless you add show-sensitive",
    "ESP32 brown-outs when the relay and Wi-Fi start together",
    "the lab SFTP only allows one session at a time",
    "Twilio rejects messages to landlines silently",
    "QuickBooks refresh tokens rotate on every use",
    "the modem loses APN settings after a firmware update",
    "Grafana alerts need the datasource UID, not the name",
    "FreeRADIUS needs a restart, a HUP does not reload clients.conf",
    "the Deere token expires after 12 hours",
]
_CMDS = [
    "./sync_fields.sh",
    "python3 push_readings.py",
    "systemctl restart labsync",
    "docker compose up -d",
    "ansible-playbook towers.yml",
    "node-red-restart",
    "python3 sms_reminders.py --dry-run",
    "./backup_routers.sh",
]


def _password(rng: random.Random) -> str:
    m = rng.randrange(6)
    w1, w2, w3 = rng.sample(_WORDS, 3)
    if m == 0:
        return f"{rng.choice(_SEASONS)}{rng.randint(2019, 2026)}{rng.choice('!#*?')}"
    if m == 1:
        return f"{w1}-{w2.capitalize()}-{rng.randint(10, 99)}"
    if m == 2:
        return f"{w1.capitalize()}{w2.capitalize()}{rng.randint(1, 999)}{rng.choice(_SYMS)}"
    if m == 3:
        return f"{w1}.{w2}.{w3}.{rng.randint(1, 99)}"
    if m == 4:
        return _r(rng, _ALNUM + "!#%*-_+=", rng.randint(14, 22))
    return f"{w1.capitalize()}{rng.choice('@#!')}{rng.randint(1000, 9999)}{w2}"


# ---------------------------------------------------------------------------
# template filler: {S} shown value, {L} label, {V} env var, {v} lower var, plus
# random helpers: {hex:N} {HEX:N} {dig:N} {aln:N} {b64:N} {uuid} {int:a-b} {pick:a|b}
# Unknown {names} are left untouched (so ${VAR} stays literal).
# ---------------------------------------------------------------------------

_CACHED = {"W", "W2", "T", "H", "SVC", "IP", "U", "TW", "D", "TS"}
_TOK = re.compile(r"\{([A-Za-z0-9_]+)(?::([^{}]*))?\}")


def _fill(tpl: str, rng: random.Random, ctx: dict) -> str:
    cache: dict[str, str] = {}

    def rep(m: re.Match) -> str:
        name, arg = m.group(1), m.group(2)
        if arg is None and name in ctx:
            return ctx[name]
        if arg is None and name in _CACHED:
            if name not in cache:
                val = one(name)
                while name == "W2" and val == cache.get("W"):
                    val = one(name)
                cache[name] = val
            return cache[name]
        return one(name, arg, m.group(0))

    def one(name: str, arg: str | None = None, raw: str = "") -> str:
        if name == "hex":
            return _r(rng, _HEX, int(arg))
        if name == "HEX":
            return _r(rng, _HEX.upper(), int(arg))
        if name == "dig":
            return rng.choice("123456789") + _r(rng, _DIG, int(arg) - 1)
        if name == "aln":
            return _r(rng, _ALNUM, int(arg))
        if name == "low":
            return _r(rng, _LOW + _DIG, int(arg))
        if name == "b64":
            return _r(rng, _B64, int(arg))
        if name == "b64u":
            return _r(rng, _B64U, int(arg))
        if name == "int":
            a, b = arg.split("-")
            return str(rng.randint(int(a), int(b)))
        if name == "pick":
            return rng.choice(arg.split("|"))
        if arg is None:
            if name == "uuid":
                return _uuid(rng)
            if name == "W":
                return rng.choice(_WHO)
            if name == "W2":
                return rng.choice(_WHO)
            if name == "T":
                return rng.choice(_SITES)
            if name == "H":
                return rng.choice(_HOSTS)
            if name == "SVC":
                return rng.choice(_SVCS)
            if name == "D":
                return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            if name == "TS":
                return (
                    f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T"
                    f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
                    f"{rng.randint(0, 59):02d}Z"
                )
            if name == "IP":
                return f"10.{rng.randint(0, 40)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}"
            if name == "N":
                return str(rng.randint(2, 9999))
            if name == "U":
                return rng.choice(_WHO) + rng.choice(["", ".farm", "_isp", str(rng.randint(1, 99))])
            if name == "LESSON":
                return rng.choice(_LESSONS)
            if name == "CMD":
                return rng.choice(_CMDS)
            if name == "PW":
                return _password(rng)
            if name == "TW":
                return str(rng.randint(1, 40))
        return raw

    return _TOK.sub(rep, tpl)


# ---------------------------------------------------------------------------
# value generators: rng -> (secret, shown)  (shown contains secret)
# ---------------------------------------------------------------------------


def _same(fn):
    def g(rng):
        s = fn(rng)
        return s, s

    return g


def _pw(rng):
    s = _password(rng)
    return s, s


def _pem(label: str, der_head: bytes, nbytes: int, width: int = 64):
    def g(rng):
        raw = der_head + bytes(rng.getrandbits(8) for _ in range(nbytes))
        body = base64.b64encode(raw).decode()
        lines = [body[i : i + width] for i in range(0, len(body), width)]
        block = "-----BEGIN " + label + " KEY-----\n" + "\n".join(lines) + "\n-----END " + label + " KEY-----"
        return block, block

    return g


_PRIV = "PRIV" + "ATE"


def _openssh(rng):
    head = b"openssh-key-v1\x00" + b"\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00"
    head += b"\x00\x00\x00\x01\x00\x00\x00\x33\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"
    raw = head + bytes(rng.getrandbits(8) for _ in range(rng.choice([180, 190, 200])))
    body = base64.b64encode(raw).decode()
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    block = (
        "-----BEGIN OPENSSH " + _PRIV + " KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH " + _PRIV + " KEY-----"
    )
    return block, block


# DER prefix: SEQUENCE, version 0, rsaEncryption OID, OCTET STRING, RSAPrivateKey head
_RSA_OID = "06092a864886f70d010101"
_PKCS8_HEAD = bytes.fromhex(
    "308204bd020100" + "300d" + _RSA_OID + "0500" + "048204a7" + "308204a3" + "0201000282010100"
)
_PKCS1_HEAD = bytes.fromhex("308204a40201000282010100")
_pkcs8 = _pem(_PRIV, _PKCS8_HEAD, 760)
_pkcs1 = _pem("RSA " + _PRIV, _PKCS1_HEAD, 760)


def _gcp_key(rng):
    block, _ = _pkcs8(rng)
    esc = block.replace("\n", "\\n")
    proj = rng.choice(["farmcoop-sheets", "ruralvet-workspace", "valleynet-ops"]) + "-" + str(rng.randint(100, 999))
    shown = (
        '{\n  "type": "service_account",\n  "project_id": "' + proj + '",\n'
        '  "private_key_id": "' + _r(rng, _HEX, 40) + '",\n'
        '  "private_key": "' + esc + '\\n",\n'
        '  "client_email": "sync@' + proj + '.iam.gserviceaccount.com"\n}'
    )
    return esc, shown


def _wg_priv(rng):
    b = bytearray(rng.getrandbits(8) for _ in range(32))
    b[0] &= 248
    b[31] = (b[31] & 127) | 64
    s = base64.b64encode(bytes(b)).decode()
    return s, s


def _slack(rng):
    tok = _r(rng, _ALNUM, 24)
    url = (
        "https://hooks." + "slack.com/services/T" + _r(rng, _UP + _DIG, 10) + "/B" + _r(rng, _UP + _DIG, 10) + "/" + tok
    )
    return tok, url


def _discord(rng):
    tok = _r(rng, _B64U, 68)
    url = "https://discord.com/api/" + "webhooks/" + str(rng.randint(10**17, 10**19 - 1)) + "/" + tok
    return tok, url


def _db_url(rng):
    pw = _password(rng).replace("@", "").replace("#", "").replace("?", "")
    scheme, user, db, port = rng.choice(
        [
            ("postgresql", "netbox", "netbox", 5432),
            ("mysql", "splynx", "splynx", 3306),
            ("postgresql", "librenms", "librenms", 5432),
            ("mysql", "radius", "radius", 3306),
            ("postgresql", "chirpstack", "chirpstack", 5432),
        ]
    )
    host = f"10.{rng.randint(0, 40)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}"
    return pw, f"{scheme}://{user}:{pw}@{host}:{port}/{db}"


def _mqtt_pw(rng):
    pw = _password(rng).replace("@", "").replace("#", "").replace("?", "")
    return pw, pw


def _basic_url(rng):
    pw, _ = _mqtt_pw(rng)
    host = rng.choice(
        [
            "192.168.88.1",
            "192.168.100.1",
            "10.10.0.1",
            "192.168.1.1",
            "starlink-router.local",
            "modem.lan",
        ]
    )
    user = rng.choice(["admin", "root", "ubnt", "support"])
    return pw, f"http://{user}:{pw}@{host}/"


def _grafana_legacy(rng):
    obj = {
        "k": _r(rng, _ALNUM, 32),
        "n": rng.choice(["telegraf", "ha-push", "noc-kiosk"]),
        "id": rng.randint(1, 9),
    }
    s = base64.b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode()
    return s, s


_GEN = {
    "john_deere_client_secret": _same(lambda r: _r(r, _B64U, 40)),
    "climate_fieldview_client_secret": _same(lambda r: _r(r, _ALNUM, 36)),
    "trimble_client_secret": _same(lambda r: _r(r, _HEX, 32)),
    "lorawan_app_key": _same(lambda r: _r(r, _HEX.upper(), 32)),
    "lorawan_nwk_s_key": _same(lambda r: _r(r, _HEX.upper(), 32)),
    "chirpstack_api_key": _same(
        lambda r: _jwt(r, {"aud": "chirpstack", "iss": "chirpstack", "sub": _uuid(r), "typ": "key"})
    ),
    "ttn_api_key": _same(lambda r: "NNS" + "XS." + _r(r, _B32, 39) + "." + _r(r, _B32, 52)),
    "influxdb_token": _same(lambda r: _b64(r, 64, urlsafe=True)),
    "grafana_service_account_token": _same(lambda r: "gl" + "sa_" + _r(r, _ALNUM, 32) + "_" + _r(r, _HEX, 8)),
    "grafana_api_key": _grafana_legacy,
    "home_assistant_token": _same(
        lambda r: _jwt(
            r,
            {
                "iss": _r(r, _HEX, 32),
                "iat": 1760000000 + r.randint(0, 9**7),
                "exp": 2075000000,
            },
        )
    ),
    "openweathermap_api_key": _same(lambda r: _r(r, _HEX, 32)),
    "tomorrow_io_api_key": _same(lambda r: _r(r, _ALNUM, 32)),
    "esphome_api_encryption_key": _same(lambda r: _b64(r, 32)),
    "ezyvet_client_secret": _same(lambda r: _r(r, _ALNUM, 40)),
    "vetspire_api_key": _same(lambda r: _r(r, _ALNUM, 40)),
    "covetrus_api_key": _same(lambda r: _r(r, _HEX, 32)),
    "petdesk_api_key": _same(lambda r: _r(r, _ALNUM, 32)),
    "twilio_auth_token": _same(lambda r: _r(r, _HEX, 32)),
    "twilio_api_key_secret": _same(lambda r: _r(r, _ALNUM, 32)),
    "messagebird_access_key": _same(lambda r: _r(r, _ALNUM, 25)),
    "square_access_token": _same(lambda r: "EA" + "AA" + r.choice("lE") + _r(r, _B64U, 59)),
    "stripe_secret_key": _same(lambda r: "sk" + "_live_" + r.choice(["", "51"]) + _r(r, _ALNUM, r.choice([24, 97]))),
    "stripe_restricted_key": _same(lambda r: "rk" + "_live_" + "51" + _r(r, _ALNUM, 97)),
    "stripe_webhook_secret": _same(lambda r: "wh" + "sec_" + _r(r, _ALNUM, 32)),
    "google_oauth_client_secret": _same(lambda r: "GOC" + "SPX-" + _r(r, _B64U, 28)),
    "google_app_password": _same(lambda r: " ".join(_r(r, _LOW, 4) for _ in range(4))),
    "quickbooks_client_secret": _same(lambda r: _r(r, _ALNUM, 40)),
    "quickbooks_refresh_token": _same(lambda r: "AB" + "11" + _r(r, _DIG, 13) + _r(r, _ALNUM, 33)),
    "uisp_api_token": _same(_uuid),
    "splynx_api_secret": _same(lambda r: _r(r, _HEX, 32)),
    "sonar_api_token": _same(
        lambda r: _jwt(
            r,
            {
                "aud": "1",
                "jti": _r(r, _HEX, 80),
                "iat": 1760000000,
                "sub": str(r.randint(1, 99)),
            },
        )
    ),
    "cnmaestro_client_secret": _same(lambda r: _r(r, _ALNUM, 30)),
    "librenms_api_token": _same(lambda r: _r(r, _HEX, 32)),
    "netbox_api_token": _same(lambda r: _r(r, _HEX, 40)),
    "proxmox_api_token_secret": _same(_uuid),
    "wireguard_private_key": _wg_priv,
    "wireguard_preshared_key": _same(lambda r: _b64(r, 32)),
    "slack_webhook_token": _slack,
    "discord_webhook_token": _discord,
    "telegram_bot_token": _same(lambda r: str(r.randint(10**8, 8 * 10**9)) + ":AA" + _r(r, _B64U, 33)),
    "github_pat": _same(lambda r: "gh" + "p_" + _r(r, _ALNUM, 36)),
    "gitlab_pat": _same(lambda r: "gl" + "pat-" + _r(r, _B64U, 20)),
    "sendgrid_api_key": _same(lambda r: "S" + "G." + _r(r, _B64U, 22) + "." + _r(r, _B64U, 43)),
    "pushover_app_token": _same(lambda r: "a" + _r(r, _ALNUM, 29)),
    "ntfy_access_token": _same(lambda r: "t" + "k_" + _r(r, _LOW + _DIG, 29)),
    "cloudflare_api_token": _same(lambda r: _r(r, _B64U, 40)),
    "tailscale_auth_key": _same(lambda r: "tskey" + "-auth-" + "k" + _r(r, _ALNUM, 10) + "CNTRL-" + _r(r, _ALNUM, 33)),
    "backblaze_b2_application_key": _same(lambda r: "K00" + r.choice("2345") + _r(r, _ALNUM + "/+", 27)),
    "openssh_private_key": _openssh,
    "gcp_service_account_private_key": _gcp_key,
    "rsa_private_key": _pkcs1,
    "mqtt_password": _mqtt_pw,
    "node_red_credential_secret": _pw,
    "wifi_password": _pw,
    "esphome_ota_password": _same(lambda r: _r(r, _HEX, 32) if r.random() < 0.4 else _password(r)),
    "sim_pin": _same(lambda r: str(r.randint(1000, 9999))),
    "sim_puk": _same(lambda r: str(r.randint(10**7, 10**8 - 1))),
    "idexx_vetconnect_password": _pw,
    "lab_sftp_password": _pw,
    "mikrotik_user_password": _pw,
    "routeros_radius_secret": _same(lambda r: _r(r, _ALNUM, r.randint(16, 24)) if r.random() < 0.5 else _password(r)),
    "freeradius_client_secret": _same(lambda r: _r(r, _ALNUM, r.randint(16, 24)) if r.random() < 0.5 else _password(r)),
    "pppoe_password": _same(lambda r: _r(r, _LOW + _DIG, 10) if r.random() < 0.5 else _password(r)),
    "snmp_community": _same(
        lambda r: r.choice(_WORDS) + r.choice(["Ro", "RW", "-noc-", "_mon"]) + str(r.randint(10, 999))
    ),
    "bgp_md5_password": _pw,
    "tacacs_key": _same(lambda r: _r(r, _ALNUM, 20) if r.random() < 0.5 else _password(r)),
    "oxidized_device_password": _pw,
    "pfsense_admin_password": _pw,
    "ipsec_psk": _same(lambda r: _r(r, _ALNUM, r.choice([32, 40, 48])) if r.random() < 0.6 else _password(r)),
    "smtp_password": _pw,
    "database_url_password": _db_url,
    "modem_admin_password": _basic_url,
    "grafana_admin_password": _pw,
}

# ---------------------------------------------------------------------------
# generic templates: (classes allowed, template)
#   classes: t token, p password, b armoured block, u url-ish shown value
# ---------------------------------------------------------------------------

_ALL = "tpbu"
_GENERIC = [
    ("tpu", "{L} for {T}: {S}"),
    ("tpu", "TODO({W}): rotate the {L} before {D}; current value is {S}"),
    (
        "tpu",
        "Lesson learned: {LESSON}. Also: the {L} is {S} (keep it here until the vault is set up).",
    ),
    ("tpu", "{V}={S}"),
    ("tpu", "# .env for {SVC}\nTZ=Africa/Nairobi\nLOG_LEVEL=info\n{V}={S}\n"),
    (
        _ALL,
        "From: {W}@valleynet.coop\nTo: ops@farmcoop.local\nSubject: {L}\n\nHi,\nas discussed, the {L} for {T} is below.\n\n{S}\n\nCheers,\n{W}",
    ),
    (
        "tpu",
        "[09:1{int:0-9}] {W}: does anyone have the {L}?\n[09:2{int:0-9}] {W2}: {S}\n[09:3{int:0-9}] {W}: thanks!",
    ),
    (
        _ALL,
        "Ticket #{int:1000-9999} - {T}\nStatus: open\nNotes: {L} updated, new value:\n{S}\nVerify after reboot.",
    ),
    ("tpu", "Runbook step {int:2-9}: export {V}='{S}' and then run {CMD}."),
    ("tpu", '{v}: "{S}"\nsite: {T}\nenabled: true'),
    ("tpu", '{\n  "site": "{T}",\n  "{v}": "{S}",\n  "retries": {int:1-5}\n}'),
    ("tpu", "[{SVC}]\nhost = {H}\n{v} = {S}\ntimeout = {int:5-60}"),
    (
        "tpu",
        "services:\n  {SVC}:\n    image: ghcr.io/farmcoop/{SVC}:{int:1-9}.{int:0-9}\n    environment:\n      - {V}={S}\n    restart: unless-stopped",
    ),
    (
        "tpu",
        '[Unit]\nDescription={SVC} sync\n\n[Service]\nEnvironment="{V}={S}"\nExecStart=/usr/local/bin/{SVC}\nRestart=always',
    ),
    ("tpu", "{TS} {SVC}-1  | DEBUG config loaded: {V}={S}"),
    (
        "tpu",
        "engineer@{H}:~$ export {V}={S}\nengineer@{H}:~$ {CMD}\nok, {int:2-300} records synced",
    ),
    (_ALL, "Nota ({D}): la {L} de {T} es:\n{S}\nNo compartir por WhatsApp."),
    ("tpu", "Lembrete: {L} do {T} = {S} (trocar depois da visita do técnico)"),
    ("tpu", "Kumbuka: {L} ya {T} ni {S} - usiishiriki na mtu yeyote."),
    (_ALL, "Нотатка: {L} для {T}:\n{S}\nНе пересилати в чат."),
    ("tpu", "Megjegyzés: a(z) {T} {L} értéke: {S} — ne küldd el e-mailben."),
    ("tpu", "ਨੋਟ: {T} ਲਈ {L} ਹੈ {S} (ਕਿਸੇ ਨਾਲ ਸਾਂਝਾ ਨਾ ਕਰੋ)"),
    ("tpu", "Notitie: {L} voor {T} is {S}, niet delen buiten het team."),
    (
        "tpu",
        "Decision {D}: {L} moves to Vaultwarden next sprint. Until then {V}={S} lives in /etc/{SVC}/env.",
    ),
    (_ALL, "memory: {W} asked me to remember the {L} ({T}).\nvalue:\n{S}"),
]
_BEARER = [
    "GET /api/v1/status HTTP/1.1\nHost: {H}\nAuthorization: Bearer {S}\nAccept: application/json\n\nHTTP/1.1 200 OK",
    '$ curl -s -H "Authorization: Bearer {S}" https://{H}/api/health\n{"status":"ok"}',
]

# kind -> (class, label, env var, specific templates)
_KINDS = {
    "john_deere_client_secret": (
        "t",
        "John Deere Operations Center client secret",
        "DEERE_CLIENT_SECRET",
        [
            "deere:\n  client_id: 0oa{aln:17}5d7\n  client_secret: {S}\n  org_id: {dig:6}\n  scopes: [ag1, eq1, files, offline_access]",
            "$ python3 deere_sync.py --client-secret {S} --org {dig:6}\nINFO fetched {int:3-90} field boundaries",
            "Note: Deere app 'coop-fields' secret {S} (Developer portal > My Applications). Redirect URI is https://{H}/callback.",
        ],
    ),
    "climate_fieldview_client_secret": (
        "t",
        "Climate FieldView client secret",
        "FIELDVIEW_CLIENT_SECRET",
        [
            "fieldview:\n  client_id: farmcoop-{low:6}\n  client_secret: {S}\n  api_key_header: x-api-key",
            "TODO: FieldView partner app approved. client secret {S}, ask {W} to store it in Bitwarden.",
        ],
    ),
    "trimble_client_secret": (
        "t",
        "Trimble Agriculture client secret",
        "TRIMBLE_CLIENT_SECRET",
        [
            "[trimble]\nclient_id = {uuid}\nclient_secret = {S}\ntoken_url = https://id.trimble.com/oauth/token",
            "Trimble Ag Software integration: secret={S} (expires {D}).",
        ],
    ),
    "lorawan_app_key": (
        "t",
        "LoRaWAN AppKey",
        "LORA_APP_KEY",
        [
            '// soil probe {int:1-40}\nstatic const u1_t PROGMEM DEVEUI[8] = {0x{HEX:2}, 0x{HEX:2}, 0x{HEX:2}, 0x{HEX:2}, 0x{HEX:2}, 0x{HEX:2}, 0x{HEX:2}, 0x{HEX:2}};\n#define LORAWAN_APPKEY "{S}"',
            "Device {pick:soil-probe|trough-level|gate-sensor|silo-temp}-{int:1-60}: DevEUI 70B3D57ED{HEX:7}, JoinEUI 0000000000000000, AppKey {S}",
            "AT+APPKEY={S}\r\nOK\r\nAT+JOIN\r\n+JOIN: Network joined",
        ],
    ),
    "lorawan_nwk_s_key": (
        "t",
        "LoRaWAN NwkSKey (ABP)",
        "LORA_NWKSKEY",
        [
            "ABP fallback for {pick:weather station|rain gauge|tank sensor}: DevAddr 26{HEX:6}, NwkSKey {S}",
            "AT+NWKSKEY={S}\r\nOK\r\nAT+MODE=ABP\r\nOK",
        ],
    ),
    "chirpstack_api_key": (
        "t",
        "ChirpStack API key",
        "CHIRPSTACK_API_TOKEN",
        [
            "chirpstack:\n  server: {H}:8080\n  api_token: {S}\n  tenant_id: {uuid}",
            "grpcurl -H 'authorization: Bearer {S}' {H}:8080 api.DeviceService/List",
        ],
    ),
    "ttn_api_key": (
        "t",
        "The Things Stack API key",
        "TTS_API_KEY",
        [
            "$ ttn-lw-cli login --api-key {S}\nINFO Logged in",
            "TTS webhook -> Node-RED uses key {S} (rights: RIGHT_APPLICATION_TRAFFIC_READ).",
        ],
    ),
    "influxdb_token": (
        "t",
        "InfluxDB token",
        "INFLUX_TOKEN",
        [
            '[[outputs.influxdb_v2]]\n  urls = ["http://{H}:8086"]\n  token = "{S}"\n  organization = "farmcoop"\n  bucket = "sensors"',
            "$ influx bucket list --token {S} --org farmcoop",
        ],
    ),
    "grafana_service_account_token": (
        "t",
        "Grafana service account token",
        "GRAFANA_TOKEN",
        [
            'curl -H "Authorization: Bearer {S}" https://{H}/api/dashboards/uid/{low:9}',
            "grafana-backup: token {S} (service account 'backup', role Viewer)",
        ],
    ),
    "grafana_api_key": (
        "t",
        "Grafana API key (legacy)",
        "GRAFANA_API_KEY",
        [
            "Old Grafana 8 key still used by the kiosk: {S}",
            "grafana:\n  url: https://{H}\n  api_key: {S}",
        ],
    ),
    "home_assistant_token": (
        "t",
        "Home Assistant long-lived access token",
        "HASS_TOKEN",
        [
            "homeassistant:\n  url: http://{H}:8123\n  token: {S}",
            'rest_command:\n  barn_fan:\n    url: http://{H}:8123/api/services/switch/toggle\n    headers:\n      authorization: "Bearer {S}"',
        ],
    ),
    "openweathermap_api_key": (
        "t",
        "OpenWeatherMap API key",
        "OWM_API_KEY",
        [
            "GET https://api.openweathermap.org/data/3.0/onecall?lat=-1.{dig:4}&lon=36.{dig:4}&appid={S}",
            "weather:\n  - platform: openweathermap\n    api_key: {S}",
        ],
    ),
    "tomorrow_io_api_key": (
        "t",
        "Tomorrow.io API key",
        "TOMORROW_API_KEY",
        [
            "curl 'https://api.tomorrow.io/v4/weather/forecast?location=-1.{dig:3},36.{dig:3}&apikey={S}'",
            "frost alert flow: tomorrow.io key {S}, polling every 30 min",
        ],
    ),
    "esphome_api_encryption_key": (
        "t",
        "ESPHome API encryption key",
        "ESPHOME_API_KEY",
        [
            'esphome:\n  name: {pick:barn-fan|trough-pump|gate-relay|silo-temp}\n\napi:\n  encryption:\n    key: "{S}"\n\nota:\n  - platform: esphome',
            'api_encryption_key: "{S}"',
        ],
    ),
    "ezyvet_client_secret": (
        "t",
        "ezyVet API client secret",
        "EZYVET_CLIENT_SECRET",
        [
            "POST https://api.ezyvet.com/v1/oauth/access_token\npartner_id=p{dig:5}&client_id={dig:6}&client_secret={S}&grant_type=client_credentials",
            "ezyvet:\n  partner_id: p{dig:5}\n  client_secret: {S}",
        ],
    ),
    "vetspire_api_key": (
        "t",
        "Vetspire API key",
        "VETSPIRE_API_KEY",
        [
            "POST https://api.vetspire.com/graphql\nauthorization: {S}\ncontent-type: application/json",
        ],
    ),
    "covetrus_api_key": (
        "t",
        "Covetrus Pulse API key",
        "COVETRUS_API_KEY",
        [
            "covetrus:\n  practice_id: {dig:5}\n  api_key: {S}",
        ],
    ),
    "petdesk_api_key": (
        "t",
        "PetDesk integration key",
        "PETDESK_API_KEY",
        [
            "PetDesk reminders export uses X-Api-Key: {S}",
        ],
    ),
    "twilio_auth_token": (
        "t",
        "Twilio auth token",
        "TWILIO_AUTH_TOKEN",
        [
            "TWILIO_ACCOUNT_SID=AC{hex:32}\nTWILIO_AUTH_TOKEN={S}\nTWILIO_FROM=+2547{dig:8}",
            'client = Client("AC{hex:32}", "{S}")  # appointment reminders',
        ],
    ),
    "twilio_api_key_secret": (
        "t",
        "Twilio API key secret",
        "TWILIO_API_SECRET",
        [
            "twilio:\n  api_key_sid: SK{hex:32}\n  api_key_secret: {S}",
        ],
    ),
    "messagebird_access_key": (
        "t",
        "MessageBird live access key",
        "MESSAGEBIRD_ACCESS_KEY",
        [
            "curl -X POST https://rest.messagebird.com/messages -H 'Authorization: AccessKey {S}' -d recipients=3161{dig:7}",
        ],
    ),
    "square_access_token": (
        "t",
        "Square access token",
        "SQUARE_ACCESS_TOKEN",
        [
            "square:\n  environment: production\n  location_id: L{aln:12}\n  access_token: {S}",
        ],
    ),
    "stripe_secret_key": (
        "t",
        "Stripe secret key",
        "STRIPE_SECRET_KEY",
        [
            'stripe.api_key = "{S}"  # clinic terminal payouts',
            "$ stripe terminal readers list --api-key {S}",
        ],
    ),
    "stripe_restricted_key": (
        "t",
        "Stripe restricted key",
        "STRIPE_RESTRICTED_KEY",
        [
            "Reporting script only needs read access: restricted key {S}",
        ],
    ),
    "stripe_webhook_secret": (
        "t",
        "Stripe webhook signing secret",
        "STRIPE_WEBHOOK_SECRET",
        [
            "$ stripe listen --forward-to localhost:8000/webhook\n> Ready! Your webhook signing secret is {S} (^C to quit)",
        ],
    ),
    "google_oauth_client_secret": (
        "t",
        "Google OAuth client secret",
        "GOOGLE_CLIENT_SECRET",
        [
            '{"installed":{"client_id":"{dig:12}-{low:32}.apps.googleusercontent.com","project_id":"ruralvet-cal","client_secret":"{S}","redirect_uris":["http://localhost"]}}',
        ],
    ),
    "google_app_password": (
        "p",
        "Google Workspace app password",
        "GMAIL_APP_PASSWORD",
        [
            "Scanner-to-email at the clinic: smtp.gmail.com:587, user frontdesk@ruralvet.clinic, app password {S}",
        ],
    ),
    "quickbooks_client_secret": (
        "t",
        "QuickBooks Online client secret",
        "QBO_CLIENT_SECRET",
        [
            "quickbooks:\n  client_id: AB{aln:48}\n  client_secret: {S}\n  environment: production\n  realm_id: {dig:16}",
        ],
    ),
    "quickbooks_refresh_token": (
        "t",
        "QuickBooks refresh token",
        "QBO_REFRESH_TOKEN",
        [
            '{"token_type":"bearer","x_refresh_token_expires_in":8726400,"refresh_token":"{S}","expires_in":3600}',
        ],
    ),
    "uisp_api_token": (
        "t",
        "UISP API token",
        "UISP_TOKEN",
        [
            "curl -H 'x-auth-token: {S}' https://{H}/nms/api/v2.1/devices",
            "uisp:\n  url: https://{H}/nms/api/v2.1\n  x_auth_token: {S}",
        ],
    ),
    "splynx_api_secret": (
        "t",
        "Splynx API secret",
        "SPLYNX_API_SECRET",
        [
            "splynx:\n  url: https://{H}\n  api_secret: {S}\n  timeout: {int:5-30}",
        ],
    ),
    "sonar_api_token": (
        "t",
        "Sonar personal access token",
        "SONAR_TOKEN",
        [
            "POST https://valleynet.sonar.software/api/graphql\nAuthorization: Bearer {S}",
        ],
    ),
    "cnmaestro_client_secret": (
        "t",
        "cnMaestro API client secret",
        "CNMAESTRO_CLIENT_SECRET",
        [
            "curl -d 'grant_type=client_credentials&client_id={aln:16}&client_secret={S}' https://cnmaestro.valleynet.coop/api/v2/access/token",
        ],
    ),
    "librenms_api_token": (
        "t",
        "LibreNMS API token",
        "LIBRENMS_TOKEN",
        [
            "curl -H 'X-Auth-Token: {S}' https://{H}/api/v0/devices?type=down",
        ],
    ),
    "netbox_api_token": (
        "t",
        "NetBox API token",
        "NETBOX_TOKEN",
        [
            "nb = pynetbox.api('https://{H}', token='{S}')",
            'curl -H "Authorization: Token {S}" https://{H}/api/dcim/devices/?site=tower-{int:1-12}',
        ],
    ),
    "proxmox_api_token_secret": (
        "t",
        "Proxmox API token secret",
        "PVE_TOKEN_SECRET",
        [
            "Authorization: PVEAPIToken=root@pam!{pick:backup|terraform|monitor}={S}",
            "proxmox:\n  host: {H}\n  token_id: terraform@pve!tf\n  token_secret: {S}",
        ],
    ),
    "wireguard_private_key": (
        "t",
        "WireGuard private key",
        "WG_PRIVATE_KEY",
        [
            "[Interface]\nAddress = 10.99.{int:0-9}.{int:1-250}/24\nPrivateKey = {S}\nListenPort = 51820\n\n[Peer]\nPublicKey = {b64:43}=\nAllowedIPs = 10.99.0.0/16",
            '/interface wireguard add listen-port=13231 name=wg-noc private-key="{S}"',
        ],
    ),
    "wireguard_preshared_key": (
        "t",
        "WireGuard preshared key",
        "WG_PSK",
        [
            "[Peer]\n# vet clinic\nPublicKey = {b64:43}=\nPresharedKey = {S}\nAllowedIPs = 10.99.{int:0-9}.{int:2-250}/32",
        ],
    ),
    "slack_webhook_token": (
        "u",
        "Slack webhook URL",
        "SLACK_WEBHOOK_URL",
        [
            "alertmanager receiver 'noc':\n  slack_configs:\n    - api_url: {S}\n      channel: '#towers'",
        ],
    ),
    "discord_webhook_token": (
        "u",
        "Discord webhook",
        "DISCORD_WEBHOOK",
        [
            "Node-RED http request node -> {S} (posts frost warnings to #farm)",
        ],
    ),
    "telegram_bot_token": (
        "t",
        "Telegram bot token",
        "TELEGRAM_BOT_TOKEN",
        [
            "curl https://api.telegram.org/bot{S}/sendMessage -d chat_id=-100{dig:10} -d text='tower 3 down'",
        ],
    ),
    "github_pat": (
        "t",
        "GitHub personal access token",
        "GITHUB_TOKEN",
        [
            "oxidized output git push uses https://oxidized:{S}@github.com/valleynet/router-configs.git",
            "git config: github token {S} (scope repo, expires {D})",
        ],
    ),
    "gitlab_pat": (
        "t",
        "GitLab access token",
        "GITLAB_TOKEN",
        [
            "PRIVATE-TOKEN: {S}\nGET https://gitlab.valleynet.coop/api/v4/projects",
        ],
    ),
    "sendgrid_api_key": (
        "t",
        "SendGrid API key",
        "SENDGRID_API_KEY",
        [
            "invoices are mailed via SendGrid, key {S}",
        ],
    ),
    "pushover_app_token": (
        "t",
        "Pushover application token",
        "PUSHOVER_TOKEN",
        [
            "curl -s -F 'token={S}' -F 'user=$PUSHOVER_USER' -F 'message=Milk tank above 6C' https://api.pushover.net/1/messages.json",
        ],
    ),
    "ntfy_access_token": (
        "t",
        "ntfy access token",
        "NTFY_TOKEN",
        [
            "curl -H 'Authorization: Bearer {S}' -d 'Gate left open' https://ntfy.farmcoop.local/barn",
        ],
    ),
    "cloudflare_api_token": (
        "t",
        "Cloudflare API token",
        "CF_API_TOKEN",
        [
            "dns_cloudflare_api_token = {S}",
            "ddclient.conf:\nprotocol=cloudflare\nzone=valleynet.coop\nlogin=token\npassword={S}",
        ],
    ),
    "tailscale_auth_key": (
        "t",
        "Tailscale auth key",
        "TS_AUTHKEY",
        [
            "$ sudo tailscale up --authkey={S} --advertise-routes=192.168.50.0/24",
        ],
    ),
    "backblaze_b2_application_key": (
        "t",
        "Backblaze B2 application key",
        "B2_APPLICATION_KEY",
        [
            "PBS offsite: B2_ACCOUNT_ID=00{hex:10}0000000{int:1-9}\nB2_APPLICATION_KEY={S}",
        ],
    ),
    "openssh_private_key": (
        "b",
        "Oxidized SSH private key",
        "SSH_KEY",
        [
            "$ cat ~/.ssh/id_ed25519_oxidized\n{S}",
            "Serial console backup of the NOC jump host key:\n\n{S}\n",
        ],
    ),
    "gcp_service_account_private_key": (
        "b",
        "Google service account key",
        "GOOGLE_SA_KEY",
        [
            "Calendar sync service account JSON (clinic appointments):\n{SHOWN}",
            "$ cat /etc/labsync/sa.json\n{SHOWN}",
        ],
    ),
    "rsa_private_key": (
        "b",
        "FreeRADIUS EAP server private key",
        "EAP_KEY",
        [
            "# /etc/freeradius/3.0/certs/server.key\n{S}",
            "pfSense cert manager export (OpenVPN server key):\n{S}",
        ],
    ),
    "mqtt_password": (
        "p",
        "MQTT broker password",
        "MQTT_PASSWORD",
        [
            'mqtt:\n  broker: {H}\n  port: 1883\n  username: {pick:esp32|nodered|telegraf|ha}\n  password: "{S}"',
            "$ mosquitto_pub -h {H} -u nodered -P '{S}' -t farm/barn/fan -m on",
            "mqtt://telegraf:{S}@{H}:1883",
        ],
    ),
    "node_red_credential_secret": (
        "p",
        "Node-RED credentialSecret",
        "NODE_RED_CREDENTIAL_SECRET",
        [
            "// settings.js\nmodule.exports = {\n    uiPort: 1880,\n    credentialSecret: \"{S}\",\n    flowFile: 'flows.json',\n}",
        ],
    ),
    "wifi_password": (
        "p",
        "Wi-Fi password",
        "WIFI_PASSWORD",
        [
            'wifi_ssid: "{pick:FarmCoop-IoT|Barn-2G|STARLINK|RuralVet-Staff}"\nwifi_password: "{S}"',
            '#include <WiFi.h>\nconst char* ssid = "Barn-2G";\nconst char* password = "{S}";\n\nvoid setup() {\n  WiFi.begin(ssid, password);\n}',
            'network={\n    ssid="FarmCoop-IoT"\n    psk="{S}"\n    key_mgmt=WPA-PSK\n}',
            'wifi:\n  ssid: {pick:FarmCoop-IoT|Barn-2G|STARLINK}\n  password: "{S}"\n  ap:\n    ssid: "Fallback Hotspot"',
            "Starlink router Wi-Fi (clinic): SSID STARLINK-{int:10-99}, password {S}",
        ],
    ),
    "esphome_ota_password": (
        "p",
        "ESPHome OTA password",
        "ESPHOME_OTA_PASSWORD",
        [
            'ota:\n  - platform: esphome\n    password: "{S}"',
            'ota_password: "{S}"',
        ],
    ),
    "sim_pin": (
        "p",
        "SIM PIN",
        "SIM_PIN",
        [
            'AT+CPIN?\r\n+CPIN: SIM PIN\r\nAT+CPIN="{S}"\r\nOK',
            'modem:\n  apn: internet.safaricom\n  sim_pin: "{S}"',
            "Tower {int:1-12} LTE backup router: SIM PIN is {S}, PUK in the safe.",
        ],
    ),
    "sim_puk": (
        "p",
        "SIM PUK",
        "SIM_PUK",
        [
            'AT+CPIN?\r\n+CPIN: SIM PUK\r\nAT+CPIN="{S}","{int:1000-9999}"\r\nOK',
            "SIM in the milk-tank alarm got locked. PUK code {S} (from the carrier portal).",
        ],
    ),
    "idexx_vetconnect_password": (
        "p",
        "IDEXX VetConnect PLUS password",
        "IDEXX_PASSWORD",
        [
            "IDEXX VetConnect PLUS login: user ruralvet{int:1-9}, password {S}",
        ],
    ),
    "lab_sftp_password": (
        "p",
        "lab results SFTP password",
        "LAB_SFTP_PASSWORD",
        [
            "$ sshpass -p '{S}' sftp -oPort=22 ruralvet@results.labdirect.example\nConnected to results.labdirect.example.\nsftp> ls",
            'labsync:\n  sftp_host: {H}\n  sftp_user: ruralvet\n  sftp_password: "{S}"',
        ],
    ),
    "mikrotik_user_password": (
        "p",
        "MikroTik admin password",
        "ROUTEROS_PASSWORD",
        [
            '/user add name={U} group=full password="{S}"',
            '[admin@tower{TW}] > /user set admin password="{S}"\n[admin@tower{TW}] >',
            'routeros:\n  host: {IP}\n  username: api\n  password: "{S}"',
        ],
    ),
    "routeros_radius_secret": (
        "p",
        "RADIUS shared secret",
        "RADIUS_SECRET",
        [
            '/radius\nadd address={IP} secret="{S}" service=ppp,login timeout=3s',
            "[admin@gw01] > /radius add address={IP} service=ppp secret={S}\n[admin@gw01] > /ppp aaa set use-radius=yes",
        ],
    ),
    "freeradius_client_secret": (
        "p",
        "FreeRADIUS client secret",
        "RADIUS_CLIENT_SECRET",
        [
            "client tower{TW} {\n    ipaddr = {IP}\n    secret = {S}\n    shortname = tower{TW}\n    nas_type = other\n}",
            '# clients.conf\nclient cnmaestro {\n\tipaddr = {IP}\n\tsecret = "{S}"\n}',
        ],
    ),
    "pppoe_password": (
        "p",
        "PPPoE password",
        "PPPOE_PASSWORD",
        [
            "/ppp secret add name={U} password={S} profile=pppoe-{pick:10M|25M|50M} service=pppoe",
            "/interface pppoe-client add interface=ether1 name=pppoe-out1 user={U}@valleynet password={S} add-default-route=yes",
            "Customer {U} (farm {int:1-80}): PPPoE user {U}@valleynet / {S}",
        ],
    ),
    "snmp_community": (
        "p",
        "SNMP community",
        "SNMP_COMMUNITY",
        [
            "/snmp community add name={S} addresses=10.0.0.0/8 read-access=yes",
            "$ snmpwalk -v2c -c {S} {IP} 1.3.6.1.2.1.1\nSNMPv2-MIB::sysName.0 = STRING: tower{TW}",
            "librenms: add device tower{TW}.valleynet.coop community {S} v2c",
        ],
    ),
    "bgp_md5_password": (
        "p",
        "BGP session password",
        "BGP_PASSWORD",
        [
            "router bgp 6{int:4512-4999}\n neighbor {IP} remote-as 3{int:1000-9999}\n neighbor {IP} password {S}",
            '/routing bgp connection add name=upstream remote.address={IP} tcp-md5-key="{S}"',
        ],
    ),
    "tacacs_key": (
        "p",
        "TACACS+ key",
        "TACACS_KEY",
        [
            "tacacs-server host {IP} key {S}",
            '# tac_plus.conf\nkey = "{S}"\ngroup = netops { default service = permit }',
        ],
    ),
    "oxidized_device_password": (
        "p",
        "Oxidized device password",
        "OXIDIZED_PASSWORD",
        [
            "# oxidized config\nusername: oxidized\npassword: {S}\nmodel: routeros",
            "router.db:\ntower{TW}.valleynet.coop:routeros:oxidized:{S}",
        ],
    ),
    "pfsense_admin_password": (
        "p",
        "pfSense admin password",
        "PFSENSE_PASSWORD",
        [
            "clinic pfSense ({IP}) webGUI login admin / {S}",
        ],
    ),
    "ipsec_psk": (
        "p",
        "IPsec pre-shared key",
        "IPSEC_PSK",
        [
            '# /etc/ipsec.secrets\n{IP} %any : PSK "{S}"',
            '/ip ipsec identity add peer=clinic auth-method=pre-shared-key secret="{S}"',
        ],
    ),
    "smtp_password": (
        "p",
        "SMTP password",
        "SMTP_PASSWORD",
        [
            "[smtp]\nhost = smtp.{pick:mailgun.org|office365.com|zoho.com}\nport = 587\nuser = alerts@valleynet.coop\npassword = {S}",
        ],
    ),
    "database_url_password": (
        "u",
        "database URL",
        "DATABASE_URL",
        [
            "DATABASE_URL={SHOWN}",
            "{TS} {SVC}-1 | connecting to {SHOWN}",
        ],
    ),
    "modem_admin_password": (
        "u",
        "router admin URL",
        "MODEM_URL",
        [
            "Quick access to the {pick:LTE modem|Starlink router|clinic router|tower ONU}: {SHOWN}",
        ],
    ),
    "grafana_admin_password": (
        "p",
        "Grafana admin password",
        "GF_SECURITY_ADMIN_PASSWORD",
        [
            'services:\n  grafana:\n    image: grafana/grafana:11.{int:0-4}.0\n    environment:\n      GF_SECURITY_ADMIN_PASSWORD: "{S}"',
        ],
    ),
}


_CLINIC = {
    "ezyvet_client_secret",
    "vetspire_api_key",
    "covetrus_api_key",
    "petdesk_api_key",
    "twilio_auth_token",
    "twilio_api_key_secret",
    "messagebird_access_key",
    "square_access_token",
    "stripe_secret_key",
    "stripe_restricted_key",
    "stripe_webhook_secret",
    "google_oauth_client_secret",
    "google_app_password",
    "quickbooks_client_secret",
    "quickbooks_refresh_token",
    "sendgrid_api_key",
    "gcp_service_account_private_key",
    "idexx_vetconnect_password",
    "lab_sftp_password",
    "pfsense_admin_password",
    "smtp_password",
}
_ISP = {
    "uisp_api_token",
    "splynx_api_secret",
    "sonar_api_token",
    "cnmaestro_client_secret",
    "librenms_api_token",
    "netbox_api_token",
    "proxmox_api_token_secret",
    "wireguard_private_key",
    "wireguard_preshared_key",
    "slack_webhook_token",
    "github_pat",
    "gitlab_pat",
    "cloudflare_api_token",
    "tailscale_auth_key",
    "backblaze_b2_application_key",
    "openssh_private_key",
    "rsa_private_key",
    "mikrotik_user_password",
    "routeros_radius_secret",
    "freeradius_client_secret",
    "pppoe_password",
    "snmp_community",
    "bgp_md5_password",
    "tacacs_key",
    "oxidized_device_password",
    "ipsec_psk",
    "database_url_password",
    "modem_admin_password",
}
_DOMAIN_SITES = {
    "farm": [
        "north barn",
        "dairy shed",
        "grain dryer",
        "pump house",
        "packing shed",
        "greenhouse 2",
        "co-op office",
        "feedlot gate",
        "hay barn",
        "milk tank room",
        "east paddock",
    ],
    "clinic": [
        "vet clinic front desk",
        "clinic surgery room",
        "clinic lab corner",
        "reception PC",
        "large-animal truck",
        "clinic office",
        "pharmacy cabinet PC",
    ],
    "isp": [
        "tower 3 (Hill Rd)",
        "tower 7 (water tank)",
        "the NOC rack",
        "core router gw01",
        "tower 12 (church)",
        "the co-op POP",
        "backhaul PtP north",
    ],
}
_DOMAIN_HOSTS = {
    "farm": [h for h in _HOSTS if "farmcoop" in h],
    "clinic": [h for h in _HOSTS if "ruralvet" in h] + ["pms.ruralvet.clinic", "pos.ruralvet.clinic"],
    "isp": [h for h in _HOSTS if "valleynet" in h],
}


def _make_positive(rng: random.Random, kind: str) -> tuple[str, str]:
    cls, label, var, specific = _KINDS[kind]
    secret, shown = _GEN[kind](rng)
    dom = "clinic" if kind in _CLINIC else "isp" if kind in _ISP else "farm"
    ctx = {
        "S": shown,
        "SHOWN": shown,
        "L": label,
        "V": var,
        "v": var.lower(),
        "T": rng.choice(_DOMAIN_SITES[dom]),
        "H": rng.choice(_DOMAIN_HOSTS[dom]),
    }
    pool = [t for c, t in _GENERIC if cls in c]
    if cls == "t" and kind not in (
        "lorawan_app_key",
        "lorawan_nwk_s_key",
        "esphome_api_encryption_key",
    ):
        pool = pool + _BEARER
    if specific and rng.random() < min(0.5, 0.18 * len(specific)):
        tpl = rng.choice(specific)
    else:
        tpl = rng.choice(pool)
    return _fill(tpl, rng, ctx), secret


# ---------------------------------------------------------------------------
# look-alikes: each generator returns one text with no credential in it
# ---------------------------------------------------------------------------


def _tmpl(*tpls: str):
    def gen(rng: random.Random) -> str:
        return _fill(rng.choice(tpls), rng, {})

    return gen


def _b64_png(rng: random.Random) -> str:
    raw = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(rng.getrandbits(8) for _ in range(60))
    return "![gate camera](data:image/png;base64," + base64.b64encode(raw).decode() + ")"


def _ansible_vault(rng: random.Random) -> str:
    lines = [_r(rng, _HEX, 80) for _ in range(rng.randint(4, 7))]
    return "radius_secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + "\n  ".join(lines)


def _sops(rng: random.Random) -> str:
    key = rng.choice(["influx_token", "wifi_password", "radius_secret", "twilio_auth_token"])
    return (
        f"{key}: ENC[AES256_GCM,data:{_r(rng, _B64, rng.randint(20, 60))}=,iv:{_r(rng, _B64, 43)}=,"
        f"tag:{_r(rng, _B64, 22)}==,type:str]\nsops:\n    age:\n        - recipient: age1{_r(rng, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}"
    )


def _bcrypt(rng: random.Random) -> str:
    h = "$2" + rng.choice("aby") + "$" + str(rng.choice([10, 12, 14])) + "$" + _r(rng, _ALNUM + "./", 53)
    return rng.choice(
        [
            f'// Node-RED settings.js\nadminAuth: {{\n  type: "credentials",\n  users: [{{ username: "admin", password: "{h}", permissions: "*" }}]\n}}',
            f"pfSense config.xml: <user><name>admin</name><bcrypt-hash>{h}</bcrypt-hash></user>",
            f"htpasswd entry for grafana proxy: {rng.choice(_WHO)}:{h}",
        ]
    )


def _mosq_hash(rng: random.Random) -> str:
    return f"# /etc/mosquitto/passwd\n{rng.choice(['esp32', 'nodered', 'telegraf'])}:$7$101${_r(rng, _B64, 16)}${_r(rng, _B64, 86)}=="


def _argon(rng: random.Random) -> str:
    return f"vaultwarden ADMIN_TOKEN is stored hashed: $argon2id$v=19$m=65540,t=3,p=4${_r(rng, _B64, 43)}${_r(rng, _B64, 43)}"


def _shadow(rng: random.Random) -> str:
    return f"root:$6${_r(rng, _ALNUM, 16)}${_r(rng, _ALNUM + './', 86)}:{rng.randint(19000, 20400)}:0:99999:7:::"


def _cert(rng: random.Random) -> str:
    raw = bytes.fromhex("308203") + bytes(rng.getrandbits(8) for _ in range(300))
    body = base64.b64encode(raw).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"Public cert for the UISP server (safe to share):\n-----BEGIN CERTIFICATE-----\n{lines}\n-----END CERTIFICATE-----"


def _ssh_pub(rng: random.Random) -> str:
    raw = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes(rng.getrandbits(8) for _ in range(32))
    return f"authorized_keys on tower routers:\nssh-ed25519 {base64.b64encode(raw).decode()} {rng.choice(_WHO)}@laptop"


def _wg_pub(rng: random.Random) -> str:
    return (
        f"[Peer]\n# {rng.choice(_SITES)}\nPublicKey = {_b64(rng, 32)}\nAllowedIPs = 10.99.{rng.randint(0, 9)}.{rng.randint(2, 250)}/32\n"
        f"Endpoint = {rng.choice(_HOSTS)}:51820\nPersistentKeepalive = 25"
    )


def _jwt_header_only(rng: random.Random) -> str:
    return f"JWT header decodes to {json.dumps({'alg': 'HS256', 'typ': 'JWT'})}; payload had iss={_r(rng, _HEX, 8)}… (token itself not stored)"


def _uplink(rng: random.Random) -> str:
    return json.dumps(
        {
            "deduplicationId": _uuid(rng),
            "deviceInfo": {
                "devEui": _r(rng, _HEX, 16),
                "applicationName": "soil-probes",
            },
            "devAddr": _r(rng, _HEX, 8),
            "fCnt": rng.randint(1, 9000),
            "fPort": rng.randint(1, 20),
            "data": _b64(rng, rng.randint(6, 20)),
        }
    )


def _nodered_flow(rng: random.Random) -> str:
    nid = _r(rng, _HEX, 16)
    return json.dumps(
        [
            {
                "id": nid,
                "type": "mqtt in",
                "z": _r(rng, _HEX, 16),
                "topic": f"farm/{rng.choice(_WORDS)}/#",
                "broker": _r(rng, _HEX, 16),
            },
            {
                "id": _r(rng, _HEX, 16),
                "type": "mqtt-broker",
                "broker": rng.choice(_HOSTS),
                "credentials": {},
            },
        ]
    )


_LOOK = [
    _tmpl(
        "Deployed ESPHome firmware from commit {hex:40} to {pick:barn-fan|trough-pump|gate-relay} ({D}).",
        "git log -1 --format=%H\n{hex:40}",
    ),
    _tmpl("changelog: fix join retries ({hex:7}), bump lmic ({hex:7}), tidy logs ({hex:7})"),
    _tmpl("$ sha256sum routeros-7.{int:10-19}-arm64.npk\n{hex:64}  routeros-7.{int:10-19}-arm64.npk"),
    _tmpl("md5 of proxmox-ve_8.{int:0-3}-1.iso: {hex:32} (matches download page)"),
    _tmpl("{TS} {SVC}-1 | INFO request_id={uuid} status=200 duration_ms={int:3-900}"),
    _tmpl("Soil probe {int:1-60}: DevEUI {HEX:16}, JoinEUI {HEX:16} (the AppKey is in ChirpStack, not here)"),
    _tmpl("Gateway EUI {HEX:16} registered on {pick:TTN|ChirpStack} at {T}."),
    _tmpl("ABP device {int:1-40} DevAddr {HEX:8}, FCnt reset on {D}"),
    _tmpl(
        "/interface print\n 0 R ether1  ether  1500  {HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}\n 1 R wlan1  wlan   1500  {HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}"
    ),
    _tmpl("Stripe publishable key for the clinic checkout page: " + "pk" + "_live_{aln:24}"),
    _tmpl("Square application id (public): " + "sq0" + "idp-{b64u:22}"),
    _tmpl("Google OAuth client id {dig:12}-{low:32}.apps.googleusercontent.com (client secret in vault)"),
    _tmpl(
        'const firebaseConfig = {\n  apiKey: "'
        + "AI"
        + 'za{b64u:35}",\n  authDomain: "farmcoop-app.firebaseapp.com",\n  projectId: "farmcoop-app"\n};'
    ),
    _tmpl("SENTRY_DSN=https://{hex:32}@o{dig:6}.ingest.sentry.io/{dig:7}"),
    _tmpl("reCAPTCHA site key on the booking page: 6L{b64u:38}"),
    _tmpl("Twilio Account SID AC{hex:32} (auth token lives in Bitwarden)"),
    _tmpl("Twilio API key SID SK{hex:32} created {D}; secret shown once and stored in vault."),
    _tmpl(
        "{pick:TTS_API_KEY|INFLUX_TOKEN|UISP_TOKEN|NETBOX_TOKEN|SPLYNX_API_SECRET}=<your-{pick:ttn-api-key|token|api-key|secret}> # {SVC} {int:1-99}",
        "twilio_auth_token: <YOUR_AUTH_TOKEN>  # replace before deploy to {SVC}-{int:1-99}",
        "{pick:INFLUX_TOKEN|HASS_TOKEN|GRAFANA_TOKEN}=<paste-token-here>  # step {int:1-40}",
        "DEERE_CLIENT_SECRET=your-client-secret-here\nDEERE_ORG_ID={dig:6}",
    ),
    _tmpl(
        "services:\n  telegraf:\n    environment:\n      - INFLUX_TOKEN=${INFLUX_TOKEN}\n      - MQTT_PASSWORD=${MQTT_PASSWORD}\n    # {SVC} {int:1-99}"
    ),
    _tmpl(
        "- name: Deploy {SVC}\n  env:\n    DEERE_CLIENT_SECRET: ${{ secrets.DEERE_CLIENT_SECRET }}\n    RUN: {int:1-999}"
    ),
    _tmpl(
        "wifi:\n  ssid: !secret wifi_ssid\n  password: !secret wifi_password\napi:\n  encryption:\n    key: !secret api_key_{pick:barn|pump|gate}{int:1-99}"
    ),
    _tmpl("Node-RED flow uses env var ${MQTT_PASS} for broker {H} (node {hex:8}.{hex:6})"),
    _tmpl(
        "$ vault kv get -field=secret secret/isp/{pick:radius|snmp|bgp|tacacs}/tower{int:1-40}\n(value not copied here, {W})"
    ),
    _ansible_vault,
    _sops,
    _bcrypt,
    _mosq_hash,
    _argon,
    _shadow,
    _tmpl("/radius\nadd address={IP} service=ppp,login timeout=3s\n# secret hidden: export without show-sensitive"),
    _tmpl("/ppp secret print\n # NAME  SERVICE  PASSWORD  PROFILE\n {int:0-99} {U}  pppoe  ********  pppoe-25M"),
    _tmpl("Host key fingerprint for {H}: SHA256:{b64:43}"),
    _ssh_pub,
    _wg_pub,
    _tmpl("GPG key fingerprint {HEX:4} {HEX:4} {HEX:4} {HEX:4} {HEX:4}  {HEX:4} {HEX:4} {HEX:4} {HEX:4} {HEX:4} ({W})"),
    _cert,
    _b64_png,
    _tmpl("image: grafana/grafana@sha256:{hex:64}"),
    _tmpl("paho-mqtt==2.{int:0-2}.{int:0-9} \\\n    --hash=sha256:{hex:64}"),
    _tmpl('"integrity": "sha512-{b64:86}=="'),
    _tmpl(
        '{\n "cell_type": "code",\n "execution_count": {int:1-400},\n "id": "{hex:8}",\n "metadata": {},\n "outputs": []\n}'
    ),
    _tmpl(
        "Yield model: huggingface.co/{pick:farmcoop|agri-lab|ruralvet}/{pick:maize|wheat|sorghum}-yield-{pick:base|small|v2}-{int:1-9}"
    ),
    _tmpl("wandb run farmcoop/yield/runs/{low:8} finished, val_loss=0.{int:100-999}"),
    _tmpl("mlflow run_id={hex:32} experiment_id={int:1-40}"),
    _tmpl("Grafana dashboard uid {b64u:9}, panel {int:1-40}, datasource uid {b64u:14}"),
    _tmpl("InfluxDB org ID {hex:16}, bucket ID {hex:16} (sensors)"),
    _tmpl("ChirpStack application id {uuid} (soil-probes), tenant id {uuid}"),
    _tmpl(
        "Proxmox token id root@pam!{pick:backup|terraform|monitor} created; secret kept in Bitwarden item #{int:10-999}"
    ),
    _tmpl("NetBox: https://{H}/dcim/devices/{int:1-900}/ (tower{TW} CCR2004)"),
    _tmpl(
        "env:\n  - name: NETBOX_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: netbox-{low:5}\n        key: api-token"
    ),
    _tmpl('deere_secret = Variable.get("deere_client_secret_{pick:prod|dev}")  # task {int:1-99}'),
    _tmpl('token = dbutils.secrets.get(scope="farmcoop", key="fieldview_{pick:secret|token}")  # cell {int:1-80}'),
    _tmpl('auth = os.environ["TWILIO_AUTH_TOKEN"]  # never hardcode ({W}, {D})'),
    _tmpl("From the vendor docs: default login admin / changeme — change on first boot (page {int:2-90})."),
    _tmpl(
        "Docs example: curl -u ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX:your_auth_token https://api.twilio.com/2010-04-01/Accounts.json # p{int:1-99}"
    ),
    _tmpl("SIM ICCID 8925{dig:15}, IMSI 6390{dig:11} installed in tower {TW} LTE router"),
    _tmpl("Modem IMEI {dig:15}, firmware EG25GGBR07A08M2G_{int:10-30}.{int:100-999}"),
    _tmpl("Starlink dish id ut{hex:8}-{hex:8}-{hex:8}, uptime {int:1-90}d"),
    _tmpl("MikroTik serial HF{HEX:9}, software id {HEX:4}-{HEX:4}, RouterOS 7.{int:10-19}"),
    _tmpl(
        "$ snmpwalk -v3 -l authPriv -u librenms -A $SNMP_AUTH -X $SNMP_PRIV {IP} sysUpTime\nDISMAN-EVENT-MIB::sysUpTimeInstance = Timeticks: ({dig:9})"
    ),
    _tmpl(
        "router bgp 6{int:4512-4999}\n neighbor {IP} remote-as 3{int:1000-9999}\n neighbor {IP} description upstream-{int:1-4}"
    ),
    _tmpl(
        'Acct-Session-Id = "{HEX:8}"\nAcct-Status-Type = Start\nFramed-IP-Address = {IP}\nUser-Name = "{U}@valleynet"'
    ),
    _tmpl("{TS} pppoe-out1: connected, session-id=0x{HEX:4}, ac-name=BRAS-{int:1-4}"),
    _tmpl("ipsec: established SA in spi=0x{hex:8} out spi=0x{hex:8} peer={IP}"),
    _tmpl(
        "rst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)\nMAC: {hex:2}:{hex:2}:{hex:2}:{hex:2}:{hex:2}:{hex:2}\nApp SHA256: {hex:64}"
    ),
    _tmpl(
        '#include "secrets.h"  // WIFI_PASSWORD defined there, not committed\nWiFi.begin(WIFI_SSID, WIFI_PASSWORD); // {SVC} v{int:1-9}.{int:0-20}'
    ),
    _tmpl("Patient {pick:Bella|Max|Daisy|Rex|Kibo} microchip {dig:15}, ezyVet animal id {int:10000-99999}"),
    _tmpl("IDEXX accession {dig:10} for {pick:CBC|Chem 17|SDMA|T4}, result uploaded {D}"),
    _tmpl("Stripe PaymentIntent pi_{aln:24}, charge ch_{aln:24}, customer cus_{aln:14}"),
    _tmpl("Square payment {b64u:28}, location L{aln:12}, terminal device {HEX:12}"),
    _tmpl("QuickBooks realmId {dig:16}, intuit_tid {hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}"),
    _tmpl("SMS reminder sent, Twilio message SID SM{hex:32}, status delivered"),
    _tmpl("Vaccine schedule sheet: https://docs.google.com/spreadsheets/d/{b64u:44}/edit"),
    _tmpl("Calendar event id {low:26} moved to {D}"),
    _tmpl("gtag('config', 'G-{HEX:10}');  // clinic website analytics"),
    _tmpl("Cloudflare zone id {hex:32}, account id {hex:32} for valleynet.coop"),
    _tmpl("tailscale status: node key nodekey:{hex:64} (public), {IP}"),
    _tmpl("version https://git-lfs.github.com/spec/v1\noid sha256:{hex:64}\nsize {int:1000-9999999}"),
    _tmpl("motd_b64: {b64:40}=  # base64 of the login banner text"),
    _tmpl(
        "00000000  {hex:2} {hex:2} {hex:2} {hex:2} {hex:2} {hex:2} {hex:2} {hex:2}  {hex:2} {hex:2} {hex:2} {hex:2} {hex:2} {hex:2} {hex:2} {hex:2}  |..........|"
    ),
    _uplink,
    _tmpl("subscribed to application/{uuid}/device/{hex:16}/event/up"),
    _nodered_flow,
    _tmpl(
        "Oxidized diff:\n- /user add name=admin group=full\n+ /user add name=noc group=read\n# passwords are stripped by oxidized ({hex:7})"
    ),
    _tmpl("enable secret 5 $1${aln:4}${aln:22}  (MD5 hash from old Cisco, {D})"),
    _tmpl('SECRET_KEY = os.environ.get("NETBOX_SECRET_KEY")  # configuration.py line {int:10-200}'),
    _tmpl("API docs: Authorization: Bearer <token> (see https://{H}/docs#auth, section {int:1-9})"),
    _tmpl('curl -H "x-auth-token: $UISP_TOKEN" https://{H}/nms/api/v2.1/devices?siteId={uuid}'),
    _tmpl("sealedsecret radius-{low:5}:\n  encryptedData:\n    secret: Ag{b64:120}=="),
    _tmpl("age public key for sops: age1{low:58}"),
    _tmpl("ACME account: https://acme-v02.api.letsencrypt.org/acme/acct/{dig:10}, thumbprint {b64u:43}"),
    _tmpl(
        "Proxmox cert fingerprint {HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}:{HEX:2}..."
    ),
    _tmpl("UISP device id {uuid} (tower{TW} AP) went offline at {TS}"),
    _tmpl("Weather station {pick:IKIAMB|INAKUR|IELDOR}{int:1-99} lat -0.{dig:4} lon 36.{dig:4}"),
    _tmpl("sensors,site=barn{int:1-9},probe={hex:6} temp={int:10-40}.{int:0-9},hum={int:20-99} 17{dig:17}"),
    _tmpl("diff --git a/esphome/barn.yaml b/esphome/barn.yaml\nindex {hex:7}..{hex:7} 100644"),
    _tmpl("node-red v4.{int:0-1}.{int:0-9}+g{hex:7}, chirpstack v4.{int:0-9}.{int:0-9} build {hex:12}"),
    _tmpl("job id {aln:26} queued (ULID) for {SVC}"),
    _tmpl(
        "chat: {W}: what's the clinic Wi-Fi password?\n{W2}: it's on the sticker behind reception, not writing it here [REDACTED]"
    ),
    _tmpl("op://Farm/{pick:Deere|FieldView|Twilio|Stripe}/credential  <- reference used by op run ({int:1-99})"),
    _tmpl("arn:aws:secretsmanager:eu-west-1:{dig:12}:secret:valleynet/radius-{aln:6}"),
    _tmpl("https://ruralvet-kv.vault.azure.net/secrets/stripe-secret/{hex:32}"),
    _tmpl("Trimble receiver serial {dig:10}, firmware 6.{int:10-30}, RTK base id {int:1000-9999}"),
    _tmpl(
        "Deere org id {dig:6}, machine {pick:8R 410|S780|6155M} id {dig:7}, endpoint https://partnerapi.deere.com/platform/organizations"
    ),
    _tmpl(
        "ISO checksums:\n{hex:64}  debian-12.{int:1-9}.0-amd64-netinst.iso\n{hex:64}  ubuntu-24.04.{int:1-3}-live-server-amd64.iso"
    ),
    _tmpl("crc32 of firmware block {int:0-63}: 0x{hex:8}"),
    _tmpl(
        '"thresholds": {"steps": [{"color": "#{hex:6}", "value": null}, {"color": "#{hex:6}", "value": {int:10-90}}]}'
    ),
    _jwt_header_only,
    _tmpl(
        "password: ********  # masked by `{SVC} config show` ({D})",
        "secret = <redacted>  # tower{TW} clients.conf copy",
    ),
    _tmpl("Reminder: rotate the RADIUS secret on tower{TW} before {D} (new value goes to Vaultwarden only)."),
    _tmpl(
        "Lesson: never paste the {pick:Twilio auth token|Stripe secret key|Square token|SendGrid key} into tickets; use the reference {pick:twilio|stripe|square|sendgrid}/{pick:prod|staging}/{int:1-99} instead ({W})."
    ),
    _tmpl(
        "Wi-Fi QR code for guests is printed at reception; SSID RuralVet-Guest-{int:1-99}, password via captive portal voucher ({pick:ask reception|see the UniFi portal|printed daily})."
    ),
    _tmpl(
        'AT+CPIN?\r\n+CPIN: READY\r\nAT+CSQ\r\n+CSQ: {int:5-31},99\r\nAT+COPS?\r\n+COPS: 0,0,"{pick:Safaricom|Airtel|Vodafone NL|Vivo|Kyivstar|Telekom HU|Jio}",{int:2-7}\r\nOK'
    ),
    _tmpl("PPPoE user {U}@valleynet moved to profile pppoe-{pick:10M|25M|50M} on {D}; password unchanged"),
    _tmpl('HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Bearer realm="{H}"\nX-Request-Id: {uuid}'),
    _tmpl("Set-Cookie: grafana_session_expiry={dig:10}; Path=/; Max-Age=2592000  ({hex:6})"),
    _tmpl('etag: W/"{hex:32}"\ncontent-length: {int:100-9999}'),
    _tmpl("LoRaWAN frequency plan EU_863_870, RX2 869.525 MHz, DR{int:0-5}, gateway {HEX:16}"),
    _tmpl("SNMP OID 1.3.6.1.4.1.14988.1.1.{int:1-20}.{int:1-9}.0 = {int:0-999}"),
    _tmpl('snmp_community: "{{ vault_snmp_community }}"  # host_vars/tower{int:1-60}.yml ({pick:v2c|v3})'),
    _tmpl("ipsec_psk = lookup('community.hashi_vault.hashi_vault', 'secret=kv/data/ipsec/clinic:psk')  # {hex:6}"),
]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    rng = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind in _KINDS:
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > 5000:
                raise RuntimeError(f"cannot make {PER_KIND} distinct texts for {kind}")
            text, secret = _make_positive(rng, kind)
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
            if tries > 5000:
                raise RuntimeError(f"look-alike generator {_LOOK.index(gen)} is not varied enough")
            text = gen(rng)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
