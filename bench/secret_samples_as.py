"""Secret-detector test set AS: a municipal water utility's OT and IT team.

Theme
-----
Short "memories" an AI coding agent keeps for the operations-technology (SCADA HMIs, Siemens S7 and
Allen-Bradley PLCs, Ignition gateway and its databases, OSIsoft PI, Modbus/DNP3 gateways, radio
telemetry, VPN jump hosts, integrator remote access, OPC UA, alarm callout) and IT (GIS, Cityworks,
AMI head-end, billing, Twilio SMS, Microsoft 365 / Entra ID, Veeam, Rubrik, badges, CCTV, Windows
servers, switches, FortiGate, Palo Alto, SNMP) team of a water utility.  Styles: notes, lessons,
runbooks, TODOs, shift logs, tickets, emails, chat (English plus some Spanish, Canadian French,
Hindi, Tamil, Indonesian, Dutch), config files (.env, JSON, YAML, INI, Ignition/PI exports,
PowerShell, FortiGate/PAN-OS CLI, Python settings) and tool output (CLI/SSH/PowerShell sessions,
consoles, curl -v, service logs, CI logs).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text`` and
  each text holds exactly one secret.  Every kind has exactly 30 positives.
* ``lookalikes``: texts with no credential at all; ``len(_LOOK) * LOOK_PER_GEN`` of them, each
  generator in ``_LOOK`` contributing ``LOOK_PER_GEN`` distinct texts.
* Deterministic per seed (``random.Random(seed)``), no duplicate texts across the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs: the
  password only.  Pre-signed URLs: the signature.  PEM / OpenSSH private keys: the whole armoured
  block.  UUID-shaped vendor tokens are secrets only when the text names them as token/key/secret.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids,
  Firebase web apiKeys, search-only keys, public certificates), vendor documentation examples,
  encrypted blobs (Ansible vault, sops ENC[...], FortiGate ENC) and password hashes are look-alikes.
* Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes are assembled at run time and bodies
  are random from the seed.
"""

from __future__ import annotations

import base64
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

_LOW = string.ascii_lowercase
_UP = string.ascii_uppercase
_DIG = string.digits
_ALNUM = _LOW + _UP + _DIG
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"
_PWSYM = "!@%^*-_=+.?~"


def _s(r: random.Random, n: int, alpha: str = _ALNUM) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def _hex(r: random.Random, n: int) -> str:
    return _s(r, n, _HEX)


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def _j(*parts: str) -> str:
    return "".join(parts)


_WORDS = [
    "Reservoir",
    "Clarifier",
    "Hydrant",
    "Pumphouse",
    "Aquifer",
    "Sluice",
    "Tulip",
    "Rover",
    "Maple",
    "Harbor",
    "Kestrel",
    "Granite",
    "Otter",
    "Cascade",
    "Willow",
    "Falcon",
    "Copper",
    "Lagoon",
    "Meadow",
    "Thunder",
    "Basalt",
    "Heron",
    "Pelican",
    "Cedar",
    "Juniper",
    "Marlin",
]
_SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Fall",
    "January",
    "October",
    "Monsoon",
]


def _pw(r: random.Random) -> str:
    style = r.randrange(5)
    if style == 0:
        return f"{r.choice(_SEASONS)}{r.choice(['2024', '2025', '2026', '24', '25', '26'])}{r.choice('!#@$*')}"
    if style == 1:
        w1, w2 = r.sample(_WORDS, 2)
        return f"{w1.lower()}-{w2}-{r.randint(10, 99)}"
    if style == 2:
        core = _s(r, r.randint(14, 22), _ALNUM + _PWSYM)
        return core[:3] + r.choice(_DIG) + core[3:] + r.choice(_PWSYM)
    if style == 3:
        ws = r.sample(_WORDS, 4)
        return r.choice("-.").join(w.lower() for w in ws[:3]) + str(r.randint(1, 9)) + ws[3]
    leet = r.choice(["Wat3rW0rks", "Pump$tation", "H2o-Plant", "Cl0rine", "Sc4daR0ck", "L1ftSt4"])
    return f"{leet}{r.randint(1, 999)}{r.choice('!#%')}"


# ---------------------------------------------------------------- context pools
_HOSTS_OT = [
    "HMI-WTP-01",
    "hmi-ws2.scada.local",
    "ign-gw01.ot.cityh2o.lan",
    "PI-HIST01",
    "S7-1500-HighLift",
    "CompactLogix-LS07",
    "mgate-mb3180-ls12",
    "dnp3-gw-reservoir3",
    "rtu-hilltop-tank",
    "jump01.ot",
    "opcua-kep01",
    "WIN911-SRV",
    "clearwell-plc2",
    "ControlLogix-Filters",
    "SEL-3530-ws4",
]
_HOSTS_IT = [
    "gis-portal01",
    "cityworks-app02",
    "ami-headend.cityh2o.org",
    "billing-db01",
    "veeam-br01",
    "rubrik-cdm.corp",
    "onguard-srv",
    "nvr-eastyard",
    "fs02.corp.cityh2o.org",
    "core-sw01",
    "fw-edge01",
    "pa-3220-dc",
    "vcenter01.corp",
    "idrac-esx03",
    "mqtt.ot.cityh2o.lan",
]
_USERS = [
    "operator",
    "svc_ignition",
    "piadmin",
    "scada_eng",
    "jmartinez",
    "a.nguyen",
    "integrator",
    "svc_backup",
    "admin",
    "rkumar",
    "svc_cw",
    "hmi_user",
    "maintenance",
    "tvandijk",
    "sputri",
]
_PEOPLE = [
    "Maria",
    "Dev",
    "Priya",
    "Karthik",
    "Joost",
    "Ayu",
    "Sophie",
    "Luis",
    "Ravi",
    "Tom",
    "Nadia",
]
_DATES = [
    "2026-03-14",
    "2026-05-02",
    "2026-07-19",
    "2026-08-30",
    "2026-10-05",
    "2026-11-21",
]


class _K:
    def __init__(self, kind, label, env, key, gen, hosts, specials=(), generic=True):
        self.kind = kind
        self.label = label
        self.env = env
        self.key = key
        self.gen = gen
        self.hosts = hosts
        self.specials = list(specials)
        self.generic = generic


def _ctx(r: random.Random, k: _K) -> dict:
    return {
        "host": r.choice(k.hosts),
        "user": r.choice(_USERS),
        "who": r.choice(_PEOPLE),
        "who2": r.choice(_PEOPLE),
        "date": r.choice(_DATES),
        "time": f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}",
        "inc": f"INC{r.randint(100000, 999999)}",
        "wo": f"WO-{r.randint(20000, 89999)}",
    }


# ---------------------------------------------------------------- generic templates
# Each takes (r, shown, k, c) and returns text that contains ``shown`` verbatim.
def _g_note(r, v, k, c):
    return f"{k.label} for {c['host']}: {v}"


def _g_lesson(r, v, k, c):
    return (
        f"Lesson learned ({c['date']}): after the firmware/patch window the {k.label} on {c['host']} "
        f"was reset by the vendor. Current value is {v} -- update the binder and the shared vault."
    )


def _g_runbook(r, v, k, c):
    return (
        f"Runbook: restore comms to {c['host']}\n1. Connect over the OT VPN\n2. Authenticate as "
        f"{c['user']}\n3. {k.label}: {v}\n4. Confirm tags are Good quality in the HMI"
    )


def _g_todo(r, v, k, c):
    return f"TODO: rotate the {k.label} ({v}) before the integrator's contract ends; {c['who']} owns it."


def _g_shift(r, v, k, c):
    return (
        f"{c['date']} {c['time']} night shift log -- {c['who']}: called IT, {k.label} on {c['host']} "
        f"changed to {v}. Alarms cleared, lift stations normal."
    )


def _g_ticket(r, v, k, c):
    return (
        f"{c['inc']} | P3 | {c['host']} | Summary: access failure after rotation\n"
        f"Resolution: re-entered {k.label} `{v}` in the service config, restarted service."
    )


def _g_email(r, v, k, c):
    return (
        f"From: {c['who'].lower()}@cityh2o.org\nTo: ot-team@cityh2o.org\nSubject: {c['host']} access\n\n"
        f"Hi all,\nThe {k.label} is now {v}\nPlease don't forward this outside the team.\n-- {c['who']}"
    )


def _g_chat(r, v, k, c):
    return (
        f"[{c['time']}] {c['who2'].lower()}: anyone have the {k.label} for {c['host']}?\n"
        f"[{c['time']}] {c['who'].lower()}: {v}\n[{c['time']}] {c['who2'].lower()}: thx, in"
    )


def _g_es(r, v, k, c):
    return (
        f"Nota de turno: el integrador pidió acceso a {c['host']}. La credencial ({k.label}) es {v} "
        f"-- cambiarla cuando termine la puesta en marcha."
    )


def _g_fr(r, v, k, c):
    return (
        f"Mémo : pour {c['host']}, le {k.label} est {v}. À changer après la visite de l'intégrateur, "
        f"svp aviser {c['who']}."
    )


def _g_hi(r, v, k, c):
    return f"नोट: {c['host']} के लिए {k.label} यह है: {v} — इसे किसी के साथ शेयर मत करना।"


def _g_ta(r, v, k, c):
    return f"குறிப்பு: {c['host']} க்கான {k.label}: {v} — மாற்றிய பின் {c['who']} இடம் சொல்லவும்."


def _g_id(r, v, k, c):
    return f"Catatan: {k.label} untuk {c['host']} adalah {v}. Jangan dibagikan ke vendor tanpa izin."


def _g_nl(r, v, k, c):
    return f"Notitie: het {k.label} voor {c['host']} is {v} (gewijzigd op {c['date']} door {c['who']})."


def _g_env(r, v, k, c):
    return f"# {c['host']}\nLOG_LEVEL=info\n{k.env}={v}\nTIMEOUT_S=30\n"


def _g_json(r, v, k, c):
    return f'{{\n  "host": "{c["host"]}",\n  "username": "{c["user"]}",\n  "{k.key}": "{v}",\n  "verify_tls": false\n}}'


def _g_yaml(r, v, k, c):
    return f'{k.key.split("_")[0]}:\n  host: {c["host"]}\n  user: {c["user"]}\n  {k.key}: "{v}"\n  retries: 3\n'


def _g_ini(r, v, k, c):
    return f"[{c['host']}]\nuser = {c['user']}\n{k.key} = {v}\nport = {r.choice([443, 502, 20000, 8088, 1433])}\n"


def _g_ps(r, v, k, c):
    return f'PS C:\\Scripts> $env:{k.env} = "{v}"\nPS C:\\Scripts> .\\Sync-{c["host"].split(".")[0]}.ps1 -Verbose\nVERBOSE: connected'


def _g_py(r, v, k, c):
    return f'# settings.py\nDEBUG = False\n{k.env} = "{v}"\nALLOWED_HOSTS = ["{c["host"]}"]\n'


def _g_cli(r, v, k, c):
    return (
        f"{c['user']}@jump01:~$ export {k.env}='{v}'\n{c['user']}@jump01:~$ ./poll_{k.key}.sh "
        f"{c['host']}\nok: 14 points read"
    )


def _g_log(r, v, k, c):
    return (
        f"{c['date']}T{c['time']}:07Z DEBUG config.loader loaded {k.key}={v} for {c['host']}\n"
        f"{c['date']}T{c['time']}:08Z INFO  connection established"
    )


def _g_ci(r, v, k, c):
    return f"##[group]Run ./deploy.sh\n+ {k.env}={v} ./deploy.sh --target {c['host']}\ndeploy: ok\n##[endgroup]"


def _g_ssh(r, v, k, c):
    return (
        f"$ ssh {c['user']}@{c['host']}\n{c['user']}@{c['host']}'s password:\nLast login: {c['date']}\n"
        f"[{c['user']}@{c['host']} ~]$ grep {k.key} /etc/ot/app.conf\n{k.key}={v}"
    )


_GENERIC = [
    _g_note,
    _g_lesson,
    _g_runbook,
    _g_todo,
    _g_shift,
    _g_ticket,
    _g_email,
    _g_chat,
    _g_es,
    _g_fr,
    _g_hi,
    _g_ta,
    _g_id,
    _g_nl,
    _g_env,
    _g_json,
    _g_yaml,
    _g_ini,
    _g_ps,
    _g_py,
    _g_cli,
    _g_log,
    _g_ci,
    _g_ssh,
]


# ---------------------------------------------------------------- special template helpers
def _sp_curl(host: str, path: str, header: str):
    def f(r, s, c):
        return (
            f"$ curl -v https://{host}{path}\n*   Trying 10.20.{r.randint(1, 254)}.{r.randint(1, 254)}:443...\n"
            f"* Connected to {host}\n> GET {path} HTTP/1.1\n> Host: {host}\n> {header.format(s=s)}\n"
            f"> Accept: */*\n>\n< HTTP/1.1 {r.choice([200, 200, 401, 403])}"
        )

    return f


def _sp_pw_login(r, s, c):
    return (
        f"login as: {c['user']}\n{c['user']}@{c['host']}'s password: {s}\n"
        f"(typed in clear by mistake into the chat window -- rotate!)"
    )


def _sp_net_user(r, s, c):
    return f"PS C:\\> net user {c['user']} {s} /add\nThe command completed successfully.\n"


def _sp_securestring(r, s, c):
    return (
        f'$pw = ConvertTo-SecureString "{s}" -AsPlainText -Force\n'
        f'$cred = New-Object System.Management.Automation.PSCredential("{c["user"]}", $pw)\n'
        f"Invoke-Command -ComputerName {c['host']} -Credential $cred -ScriptBlock {{ Get-Service }}"
    )


def _sp_table(r, s, c):
    return (
        f"| Asset | IP | User | Password |\n|---|---|---|---|\n| {c['host']} | 10.50.{r.randint(1, 99)}."
        f"{r.randint(2, 250)} | {c['user']} | {s} |"
    )


def _sp_bearer_log(r, s, c):
    return (
        f"{c['date']} {c['time']}:11,532 DEBUG urllib3.connectionpool: headers="
        f"{{'Authorization': 'Bearer {s}', 'Accept': 'application/json'}}"
    )


_PW_SPECIALS = [_sp_pw_login, _sp_securestring, _sp_table]


def _pwgen(r):
    s = _pw(r)
    return s, s


def _tok(fn):
    def g(r):
        s = fn(r)
        return s, s

    return g


# ---------------------------------------------------------------- value generators
def _urlpw(r):
    p = _pw(r)
    for ch in "#%/@?":
        p = p.replace(ch, r.choice("!*-_."))
    return p


def _v_pg(r):
    p = _urlpw(r)
    return (
        p,
        f"postgresql://{r.choice(['ignition', 'svc_ignition', 'hist_ro'])}:{p}@{r.choice(['pgsql01', 'db-ot01.ot.local'])}:5432/{r.choice(['scada', 'alarm_journal', 'tag_history'])}",
    )


def _v_mssql(r):
    p = _pw(r)
    return p, (
        f"Server={r.choice(['SQLOT01', 'sql-hist02.ot.local'])},1433;Database={r.choice(['ScadaHistory', 'Ignition', 'LIMS'])};"
        f"User Id={r.choice(['sa_ign', 'svc_hist', 'lims_app'])};Password={p};TrustServerCertificate=True"
    )


def _v_oracle(r):
    p = _pw(r).replace("@", "#").replace("/", "_")
    return (
        p,
        f"{r.choice(['cis_app', 'billing_ro', 'ccb_batch'])}/{p}@billing-db01:1521/CCBPROD",
    )


def _v_pi(r):
    p = _urlpw(r)
    return (
        p,
        f"https://{r.choice(['piadmin', 'pi_reader', 'svc_piweb'])}:{p}@pi-hist01.ot.local/piwebapi/dataservers",
    )


def _v_rtsp(r):
    p = _urlpw(r)
    return (
        p,
        f"rtsp://{r.choice(['viewer', 'admin', 'nvr_ro'])}:{p}@10.60.{r.randint(1, 40)}.{r.randint(2, 250)}:554/Streaming/Channels/{r.choice([101, 102, 201])}",
    )


def _v_mqtt(r):
    p = _urlpw(r)
    return (
        p,
        f"mqtts://{r.choice(['sparkplug_edge', 'ign_mqtt', 'telemetry'])}:{p}@mqtt.ot.cityh2o.lan:8883",
    )


def _v_slack_hook(r):
    t = _s(r, 24)
    return (
        t,
        f"https://hooks.slack.com/services/T{_s(r, 10, _UP + _DIG)}/B{_s(r, 10, _UP + _DIG)}/{t}",
    )


def _v_discord_hook(r):
    t = _s(r, 68, _URLSAFE)
    return t, f"https://discord.com/api/webhooks/{r.randint(10**17, 10**19)}/{t}"


def _v_sas(r):
    sig = _s(r, 43, _ALNUM) + "%3D"
    url = (
        f"https://cityh2obackup.blob.core.windows.net/scada-exports/hist_{r.randint(1, 52):02d}.csv?"
        f"sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-{r.randint(10, 28)}T00:00:00Z&st=2026-12-01T00:00:00Z"
        f"&spr=https&sig={sig}"
    )
    return sig, url


def _v_s3pre(r):
    sig = _hex(r, 64)
    kid = _j("AS", "IA", _s(r, 16, _UP + _DIG))
    url = (
        f"https://cityh2o-gis-exports.s3.us-west-2.amazonaws.com/parcels_{r.randint(1, 999)}.zip?"
        f"X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={kid}%2F20261205%2Fus-west-2%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20261205T{r.randint(10, 23)}0000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host"
        f"&X-Amz-Signature={sig}"
    )
    return sig, url


def _pem(r, label: str, nbytes: int) -> str:
    der = bytes([0x30, 0x82, (nbytes >> 8) & 0xFF, nbytes & 0xFF])
    body = base64.b64encode(der + bytes(r.getrandbits(8) for _ in range(nbytes))).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----"])


def _v_rsa(r):
    s = _pem(r, _j("RSA PRIV", "ATE KEY"), r.choice([600, 900, 1190]))
    return s, s


def _v_pk8(r):
    s = _pem(r, _j("PRIV", "ATE KEY"), r.choice([630, 1210]))
    return s, s


def _v_openssh(r):
    raw = _j("openssh-", "key-v1").encode() + b"\x00" + bytes(r.getrandbits(8) for _ in range(r.choice([380, 400])))
    body = base64.b64encode(raw).decode()
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    lab = _j("OPENSSH PRIV", "ATE KEY")
    s = "\n".join([f"-----BEGIN {lab}-----", *lines, f"-----END {lab}-----"])
    return s, s


def _v_twilio_auth(r):
    return _hex(r, 32)


def _v_sendgrid(r):
    return _j("S", "G.", _s(r, 22, _URLSAFE), ".", _s(r, 43, _URLSAFE))


def _v_azure_secret(r):
    return _j(_s(r, 3), r.choice(_DIG), "Q", "~", _s(r, 34, _ALNUM + "_.~-"))


def _v_panos(r):
    return _j("LUF", "RPT", _s(r, 74, _B64), "==")


def _v_gh(r):
    return _j("gh", "p_", _s(r, 36))


def _v_gl(r):
    return _j("gl", "pat-", _s(r, 20, _URLSAFE))


def _v_aws_secret(r):
    return _s(r, 40, _B64)


def _v_az_storage(r):
    return _s(r, 86, _B64) + "=="


def _v_grafana(r):
    return _j("gl", "sa_", _s(r, 32), "_", _hex(r, 8))


def _v_atlassian(r):
    return _j("ATA", "TT3xFfGF0", _s(r, 170, _URLSAFE), "=", _s(r, 8, _HEX.upper()))


def _v_okta(r):
    return _j("00", _s(r, 40, _URLSAFE))


def _v_openai(r):
    return _j("sk", "-proj-", _s(r, 74, _URLSAFE), "T3Blb", "kFJ", _s(r, 74, _URLSAFE))


def _v_slack_bot(r):
    return _j(
        "xo",
        "xb-",
        str(r.randint(10**11, 10**12 - 1)),
        "-",
        str(r.randint(10**12, 10**13 - 1)),
        "-",
        _s(r, 24),
    )


def _v_npm(r):
    return _j("np", "m_", _s(r, 36))


def _v_mailgun(r):
    return _j("ke", "y-", _hex(r, 32))


def _v_arcgis(r):
    return _j("AA", "PK", _s(r, 96, _URLSAFE))


def _v_django(r):
    body = _s(r, 50, _LOW + _DIG + "!@%^*(-_=+)")
    return r.choice(["", _j("django-", "insecure-")]) + body


def _v_uuid_upper(r):
    return _uuid(r).upper()


def _v_snmp(r):
    return f"{r.choice(['wtr', 'ot', 'cityh2o', 'scada'])}-{r.choice(['ro', 'rw', 'mon'])}-{r.choice(_WORDS)}{r.randint(10, 99)}"


def _v_psk(r):
    ws = r.sample(_WORDS, 3)
    return f"{ws[0]} {ws[1].lower()} {ws[2].lower()} {r.randint(100, 999)}" if r.random() < 0.4 else _pw(r)


# ---------------------------------------------------------------- kinds
def _pem_specials(name):
    return [
        lambda r, s, c: f"Saved the {name} here so the new gateway can be rebuilt:\n{s}\n(move to the vault!)",
        lambda r, s, c: (
            f"{c['user']}@jump01:~$ cat ~/.ssh/{r.choice(['id_ed25519', 'id_rsa', 'integrator_key'])}\n{s}\n{c['user']}@jump01:~$ "
        ),
        lambda r, s, c: (
            f"Ticket {c['inc']}: integrator attached their {name} to the email thread, pasting for the record\n\n{s}\n\nTODO revoke"
        ),
        lambda r, s, c: (
            f'resource "local_file" "key" {{\n  filename = "{c["host"]}.key"\n  content  = <<EOT\n{s}\nEOT\n}}'
        ),
        lambda r, s, c: f"PS C:\\certs> Get-Content .\\{c['host']}.key\n{s}\nPS C:\\certs>",
        lambda r, s, c: f"Nota: llave privada ({name}) del servidor {c['host']}:\n{s}",
    ]


def _kinds() -> list[_K]:
    ot, it = _HOSTS_OT, _HOSTS_IT
    P = _pwgen
    ks = [
        _K(
            "scada_hmi_password",
            "SCADA HMI operator password",
            "HMI_PASSWORD",
            "hmi_password",
            P,
            ot,
            _PW_SPECIALS,
        ),
        _K(
            "siemens_s7_plc_password",
            "S7-1500 PLC protection password (TIA Portal)",
            "S7_PLC_PASSWORD",
            "plc_password",
            P,
            ot,
            [
                lambda r, s, c: (
                    f"TIA Portal > Device config > Protection & Security > Full access (incl. fail-safe): password set to {s} on {c['host']}"
                )
            ],
        ),
        _K(
            "allen_bradley_plc_password",
            "FactoryTalk Security password for Studio 5000 on the ControlLogix",
            "FTSEC_PASSWORD",
            "ftsec_password",
            P,
            ot,
            [
                lambda r, s, c: (
                    f"Studio 5000 source protection / FactoryTalk login for {c['host']}: user {c['user']} pw {s}"
                )
            ],
        ),
        _K(
            "ignition_gateway_password",
            "Ignition gateway admin password",
            "IGNITION_ADMIN_PASSWORD",
            "gateway_password",
            P,
            ot,
            [
                lambda r, s, c: f"Ignition Gateway http://{c['host']}:8088/web/config -> logged in as admin / {s}",
                *_PW_SPECIALS,
            ],
        ),
        _K(
            "postgres_password",
            "Ignition DB connection",
            "DATABASE_URL",
            "connect_url",
            _v_pg,
            ot,
            [
                lambda r, s, c: (
                    f"Ignition > Config > Databases > Connections > scada_pg\n  Connect URL: jdbc:postgresql://pgsql01:5432/scada\n  Username: ignition\n  Password: {s}"
                )
            ],
        ),
        _K(
            "mssql_password",
            "historian SQL connection string",
            "HIST_SQL_CONN",
            "connection_string",
            _v_mssql,
            ot,
        ),
        _K(
            "oracle_password",
            "CIS billing Oracle connect string",
            "CCB_DB_CONNECT",
            "db_connect",
            _v_oracle,
            it,
            [
                lambda r, s, c: (
                    f"$ sqlplus {r.choice(['cis_app', 'ccb_batch'])}/{s}@CCBPROD\nSQL*Plus: Release 19.0.0.0.0 - Production\nConnected to: Oracle Database 19c"
                )
            ],
        ),
        _K(
            "pi_web_api_password",
            "PI Web API URL",
            "PIWEBAPI_URL",
            "piwebapi_url",
            _v_pi,
            ot,
            [
                lambda r, s, c: (
                    f"; PI Connector for OPC UA - exported {c['date']}\n[DataSource]\nName=KEP01\n"
                    f"Endpoint=opc.tcp://opcua-kep01:49320\n[PIServer]\nHost=PI-HIST01\nUser=piadmin\nPassword={s}\n"
                )
            ],
        ),
        _K(
            "modbus_gateway_password",
            "MGate Modbus gateway web console password",
            "MGATE_PASSWORD",
            "mgate_password",
            P,
            ot,
            _PW_SPECIALS,
        ),
        _K(
            "dnp3_gateway_password",
            "DNP3 gateway (SEL RTAC) admin password",
            "RTAC_PASSWORD",
            "rtac_password",
            P,
            ot,
            [lambda r, s, c: f"AcSELerator RTAC: connect to {c['host']} -> Username: {c['user']} / Password: {s}"],
        ),
        _K(
            "radio_telemetry_password",
            "licensed radio (MDS Orbit) admin password",
            "ORBIT_RADIO_PASSWORD",
            "radio_password",
            P,
            ot,
            [
                lambda r, s, c: (
                    f"> ssh admin@{c['host']}\nadmin@{c['host']}'s password: {s}\n% MDS Orbit MCR - Firmware 10.1.4"
                )
            ],
        ),
        _K(
            "vpn_jump_host_password",
            "OT VPN jump host password",
            "JUMP_PASSWORD",
            "jump_password",
            P,
            ot,
            _PW_SPECIALS,
        ),
        _K(
            "integrator_remote_access_password",
            "integrator remote-access (Secomea) password",
            "SECOMEA_PASSWORD",
            "remote_access_password",
            P,
            ot,
        ),
        _K(
            "opcua_user_password",
            "OPC UA user password (KEPServerEX)",
            "OPCUA_PASSWORD",
            "opcua_password",
            P,
            ot,
            [
                lambda r, s, c: (
                    f"opc.tcp://{c['host']}:49320  SecurityPolicy=Basic256Sha256  UserIdentity: UserName {c['user']} / {s}"
                )
            ],
        ),
        _K(
            "opcua_private_key",
            "OPC UA application instance private key",
            "OPCUA_KEY",
            "opcua_key",
            _v_pk8,
            ot,
            _pem_specials("OPC UA client private key"),
            generic=False,
        ),
        _K(
            "rsa_private_key",
            "RSA private key",
            "TLS_KEY",
            "tls_key",
            _v_rsa,
            it,
            _pem_specials("RSA key for the historian web cert"),
            generic=False,
        ),
        _K(
            "openssh_private_key",
            "OpenSSH private key",
            "SSH_KEY",
            "ssh_key",
            _v_openssh,
            ot,
            _pem_specials("integrator SSH key"),
            generic=False,
        ),
        _K(
            "alarm_callout_password",
            "WIN-911 alarm callout account password",
            "WIN911_PASSWORD",
            "callout_password",
            P,
            ot,
        ),
        _K(
            "pagerduty_routing_key",
            "PagerDuty Events v2 routing key",
            "PAGERDUTY_ROUTING_KEY",
            "routing_key",
            _tok(lambda r: _hex(r, 32)),
            it,
            [
                lambda r, s, c: (
                    f'$ curl -s -X POST https://events.pagerduty.com/v2/enqueue -H "Content-Type: application/json" -d \'{{"routing_key":"{s}","event_action":"trigger","payload":{{"summary":"Clearwell low level","severity":"critical","source":"{c["host"]}"}}}}\''
                )
            ],
        ),
        _K(
            "arcgis_api_key",
            "ArcGIS Location Platform API key",
            "ARCGIS_API_KEY",
            "arcgis_api_key",
            _tok(_v_arcgis),
            it,
            [
                lambda r, s, c: (
                    f"https://geocode-api.arcgis.com/arcgis/rest/services/World/GeocodeServer/findAddressCandidates?address=100+Main+St&f=json&token={s}"
                )
            ],
        ),
        _K(
            "arcgis_portal_password",
            "ArcGIS Enterprise portal admin password",
            "PORTAL_ADMIN_PASSWORD",
            "portal_password",
            P,
            it,
            _PW_SPECIALS,
        ),
        _K(
            "cityworks_password",
            "Cityworks service account password",
            "CITYWORKS_PASSWORD",
            "cityworks_password",
            P,
            it,
            [
                lambda r, s, c: (
                    f'POST https://{c["host"]}/cityworks/Services/General/Authentication/Authenticate?data={{"LoginName":"svc_cw","Password":"{s}"}}'
                )
            ],
        ),
        _K(
            "ami_headend_api_key",
            "AMI head-end API key",
            "AMI_API_KEY",
            "ami_api_key",
            _tok(lambda r: _s(r, 48)),
            it,
            [
                _sp_curl(
                    "ami-headend.cityh2o.org",
                    "/api/v2/meters/reads?since=-1h",
                    "X-API-Key: {s}",
                )
            ],
        ),
        _K(
            "billing_portal_password",
            "customer billing admin password",
            "BILLING_ADMIN_PASSWORD",
            "billing_password",
            P,
            it,
        ),
        _K(
            "twilio_auth_token",
            "Twilio auth token",
            "TWILIO_AUTH_TOKEN",
            "auth_token",
            _tok(_v_twilio_auth),
            it,
            [
                lambda r, s, c: (
                    f'from twilio.rest import Client\nclient = Client("{_j("A", "C", _hex(r, 32))}", "{s}")\nclient.messages.create(to="+15551230000", from_="+15559870000", body="Boil water notice")'
                )
            ],
        ),
        _K(
            "twilio_api_key_secret",
            "Twilio API key secret",
            "TWILIO_API_SECRET",
            "api_secret",
            _tok(lambda r: _s(r, 32)),
            it,
        ),
        _K(
            "sendgrid_api_key",
            "SendGrid API key",
            "SENDGRID_API_KEY",
            "sendgrid_api_key",
            _tok(_v_sendgrid),
            it,
            [_sp_curl("api.sendgrid.com", "/v3/mail/send", "Authorization: Bearer {s}")],
        ),
        _K(
            "azure_client_secret",
            "Entra ID app client secret",
            "AZURE_CLIENT_SECRET",
            "client_secret",
            _tok(_v_azure_secret),
            it,
            [
                lambda r, s, c: (
                    f"Connect-MgGraph -TenantId {_uuid(r)} -ClientSecretCredential (New-Object PSCredential('{_uuid(r)}', (ConvertTo-SecureString '{s}' -AsPlainText -Force)))"
                )
            ],
        ),
        _K(
            "m365_service_account_password",
            "M365 scan-to-email service account password",
            "M365_SMTP_PASSWORD",
            "smtp_password",
            P,
            it,
            _PW_SPECIALS,
        ),
        _K(
            "veeam_password",
            "Veeam B&R service account password",
            "VEEAM_PASSWORD",
            "veeam_password",
            P,
            it,
            [
                lambda r, s, c: (
                    f'PS C:\\> Connect-VBRServer -Server {c["host"]} -User "CORP\\svc_backup" -Password "{s}"'
                )
            ],
        ),
        _K(
            "rubrik_service_account_secret",
            "Rubrik service account secret",
            "RUBRIK_CLIENT_SECRET",
            "client_secret",
            _tok(lambda r: _s(r, 64, _URLSAFE)),
            it,
        ),
        _K(
            "badge_system_password",
            "Lenel OnGuard system admin password",
            "ONGUARD_PASSWORD",
            "onguard_password",
            P,
            it,
            _PW_SPECIALS,
        ),
        _K(
            "cctv_nvr_password",
            "NVR camera stream URL",
            "CAMERA_URL",
            "stream_url",
            _v_rtsp,
            it,
        ),
        _K(
            "windows_local_admin_password",
            "local Administrator password",
            "LOCAL_ADMIN_PASSWORD",
            "admin_password",
            P,
            it + ot,
            [_sp_net_user, _sp_securestring],
        ),
        _K(
            "switch_enable_password",
            "Cisco switch enable password",
            "SW_ENABLE",
            "enable_password",
            P,
            it,
            [
                lambda r, s, c: f"{c['host']}>enable\nPassword: {s}\n{c['host']}#show vlan brief",
                lambda r, s, c: f"{c['host']}(config)# username netadmin privilege 15 password 0 {s}",
            ],
        ),
        _K(
            "fortigate_api_token",
            "FortiGate REST API token",
            "FORTIGATE_TOKEN",
            "api_token",
            _tok(lambda r: _s(r, 30, _LOW + _UP + _DIG)),
            it,
            [
                _sp_curl(
                    "fw-edge01.corp.cityh2o.org",
                    "/api/v2/cmdb/firewall/address",
                    "Authorization: Bearer {s}",
                )
            ],
        ),
        _K(
            "fortigate_admin_password",
            "FortiGate admin password",
            "FGT_ADMIN_PASSWORD",
            "admin_password",
            P,
            it,
            [
                lambda r, s, c: (
                    f'fw-edge01 # config system admin\nfw-edge01 (admin) # edit "ot-ro"\nfw-edge01 (ot-ro) # set password {s}\nfw-edge01 (ot-ro) # end'
                )
            ],
        ),
        _K(
            "panos_api_key",
            "PAN-OS XML API key",
            "PANOS_API_KEY",
            "api_key",
            _tok(_v_panos),
            it,
            [
                _sp_curl(
                    "pa-3220-dc.corp",
                    "/api/?type=op&cmd=<show><system><info></info></system></show>",
                    "X-PAN-KEY: {s}",
                )
            ],
        ),
        _K(
            "panos_admin_password",
            "Palo Alto admin password",
            "PAN_ADMIN_PASSWORD",
            "pan_password",
            P,
            it,
            [
                lambda r, s, c: (
                    f"admin@pa-3220# set mgt-config users ot-audit password\nEnter password   : {s}\nConfirm password : ********\nadmin@pa-3220# commit"
                )
            ],
        ),
        _K(
            "snmp_community_string",
            "SNMP v2c community string",
            "SNMP_COMMUNITY",
            "snmp_community",
            _tok(_v_snmp),
            it + ot,
            [
                lambda r, s, c: (
                    f"$ snmpwalk -v2c -c {s} {c['host']} 1.3.6.1.2.1.1\nSNMPv2-MIB::sysDescr.0 = STRING: Cisco IOS Software"
                ),
                lambda r, s, c: f"{c['host']}(config)# snmp-server community {s} RO 10",
            ],
        ),
        _K(
            "snmpv3_auth_passphrase",
            "SNMPv3 auth passphrase",
            "SNMPV3_AUTH",
            "auth_passphrase",
            P,
            it,
            [
                lambda r, s, c: (
                    f"$ snmpget -v3 -l authPriv -u nms -a SHA -A '{s}' -x AES -X \"$SNMP_PRIV\" {c['host']} sysUpTime.0"
                )
            ],
        ),
        _K(
            "slack_webhook_token",
            "Slack webhook for #ot-alarms",
            "SLACK_WEBHOOK_URL",
            "webhook_url",
            _v_slack_hook,
            it,
        ),
        _K(
            "discord_webhook_token",
            "Discord webhook (ops lab server)",
            "DISCORD_WEBHOOK",
            "webhook",
            _v_discord_hook,
            it,
        ),
        _K(
            "github_pat",
            "GitHub personal access token",
            "GITHUB_TOKEN",
            "token",
            _tok(_v_gh),
            it,
            [
                lambda r, s, c: (
                    f"$ git clone https://{s}@github.com/cityh2o/ignition-projects.git\nCloning into 'ignition-projects'..."
                )
            ],
        ),
        _K(
            "gitlab_pat",
            "GitLab personal access token",
            "GITLAB_TOKEN",
            "private_token",
            _tok(_v_gl),
            it,
            [_sp_curl("gitlab.cityh2o.org", "/api/v4/projects", "PRIVATE-TOKEN: {s}")],
        ),
        _K(
            "aws_secret_access_key",
            "AWS secret access key for the GIS export bucket",
            "AWS_SECRET_ACCESS_KEY",
            "aws_secret_access_key",
            _tok(_v_aws_secret),
            it,
        ),
        _K(
            "azure_storage_account_key",
            "Azure storage account key",
            "AZURE_STORAGE_KEY",
            "account_key",
            _tok(_v_az_storage),
            it,
            [
                lambda r, s, c: (
                    f"DefaultEndpointsProtocol=https;AccountName=cityh2obackup;AccountKey={s};EndpointSuffix=core.windows.net"
                )
            ],
        ),
        _K(
            "azure_sas_signature",
            "SAS URL for the historian export",
            "EXPORT_SAS_URL",
            "sas_url",
            _v_sas,
            it,
        ),
        _K(
            "aws_presigned_signature",
            "presigned S3 link",
            "PARCELS_URL",
            "download_url",
            _v_s3pre,
            it,
        ),
        _K(
            "datadog_api_key",
            "Datadog API key",
            "DD_API_KEY",
            "api_key",
            _tok(lambda r: _hex(r, 32)),
            it,
            [_sp_curl("api.datadoghq.com", "/api/v1/validate", "DD-API-KEY: {s}")],
        ),
        _K(
            "grafana_service_account_token",
            "Grafana service account token",
            "GRAFANA_TOKEN",
            "token",
            _tok(_v_grafana),
            it,
            [
                _sp_curl(
                    "grafana.ot.cityh2o.lan",
                    "/api/dashboards/uid/lift-stations",
                    "Authorization: Bearer {s}",
                )
            ],
        ),
        _K(
            "atlassian_api_token",
            "Jira API token",
            "JIRA_API_TOKEN",
            "api_token",
            _tok(_v_atlassian),
            it,
        ),
        _K(
            "okta_api_token",
            "Okta API token",
            "OKTA_API_TOKEN",
            "api_token",
            _tok(_v_okta),
            it,
            [
                _sp_curl(
                    "cityh2o.okta.com",
                    "/api/v1/users?limit=5",
                    "Authorization: SSWS {s}",
                )
            ],
        ),
        _K(
            "splunk_hec_token",
            "Splunk HEC token",
            "SPLUNK_HEC_TOKEN",
            "hec_token",
            _tok(_v_uuid_upper),
            it,
            [
                lambda r, s, c: (
                    f'$ curl -k https://splunk-hec.corp:8088/services/collector -H "Authorization: Splunk {s}" -d \'{{"event":"pump 3 trip"}}\''
                )
            ],
        ),
        _K(
            "duo_secret_key",
            "Duo Auth API secret key",
            "DUO_SKEY",
            "skey",
            _tok(lambda r: _s(r, 40)),
            it,
        ),
        _K(
            "mailgun_api_key",
            "Mailgun API key",
            "MAILGUN_API_KEY",
            "api_key",
            _tok(_v_mailgun),
            it,
        ),
        _K(
            "smtp_relay_password",
            "SMTP relay password",
            "SMTP_PASSWORD",
            "smtp_password",
            P,
            it,
        ),
        _K(
            "ldap_bind_password",
            "LDAP bind password (svc_gis)",
            "LDAP_BIND_PASSWORD",
            "bind_password",
            P,
            it,
            [
                lambda r, s, c: (
                    f"$ ldapsearch -x -H ldaps://dc01.corp.cityh2o.org -D 'CN=svc_gis,OU=Service,DC=corp' -w '{s}' -b 'DC=corp' '(sAMAccountName={c['user']})'"
                )
            ],
        ),
        _K(
            "radius_shared_secret",
            "RADIUS shared secret",
            "RADIUS_SECRET",
            "radius_secret",
            _tok(_pw),
            it,
            [lambda r, s, c: f"{c['host']}(config)# radius server NPS01\n{c['host']}(config-radius-server)# key {s}"],
        ),
        _K(
            "wifi_psk",
            "plant Wi-Fi WPA2 passphrase",
            "WIFI_PSK",
            "psk",
            _tok(_v_psk),
            it + ot,
        ),
        _K(
            "bmc_password",
            "iDRAC/iLO root password",
            "IDRAC_PASSWORD",
            "bmc_password",
            P,
            it,
            [lambda r, s, c: f"$ racadm -r {c['host']} -u root -p '{s}' getsysinfo\nSystem Model = PowerEdge R750"],
        ),
        _K(
            "vcenter_password",
            "vCenter SSO password",
            "VCENTER_PASSWORD",
            "vc_password",
            P,
            it,
            [
                lambda r, s, c: (
                    f"PS> Connect-VIServer -Server vcenter01.corp -User administrator@vsphere.local -Password '{s}'"
                )
            ],
        ),
        _K(
            "mqtt_broker_password",
            "Sparkplug MQTT broker URL",
            "MQTT_URL",
            "broker_url",
            _v_mqtt,
            ot,
        ),
        _K(
            "openai_api_key",
            "OpenAI API key",
            "OPENAI_API_KEY",
            "openai_api_key",
            _tok(_v_openai),
            it,
        ),
        _K(
            "slack_bot_token",
            "Slack bot token",
            "SLACK_BOT_TOKEN",
            "bot_token",
            _tok(_v_slack_bot),
            it,
        ),
        _K(
            "npm_token",
            "npm automation token",
            "NPM_TOKEN",
            "npm_token",
            _tok(_v_npm),
            it,
            [lambda r, s, c: f"# .npmrc\n//registry.npmjs.org/:_authToken={s}\n"],
        ),
        _K(
            "django_secret_key",
            "Django SECRET_KEY for the work-order portal",
            "SECRET_KEY",
            "secret_key",
            _tok(_v_django),
            it,
        ),
        _K(
            "cctv_vms_password",
            "Milestone XProtect admin password",
            "XPROTECT_PASSWORD",
            "vms_password",
            P,
            it,
        ),
    ]
    return ks


# ---------------------------------------------------------------- look-alikes
def _b64bytes(r, n):
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(n))).decode()


def _h(r):
    return r.choice(_HOSTS_OT + _HOSTS_IT)


def _d(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _cert(r):
    return _pem(r, "CERTIFICATE", r.choice([700, 820, 930]))


def _anon_jwt(r):
    payload = (
        '{"iss":"supabase","ref":"'
        + _s(r, 20, _LOW)
        + '","role":"anon","iat":'
        + str(r.randint(1600000000, 1800000000))
        + "}"
    )
    pl = base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")
    return _j("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", pl, ".", _s(r, 43, _URLSAFE))


def _sshpub(r):
    return _j(
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI",
        _s(r, 43, _B64),
        f" {r.choice(_USERS)}@{_h(r)}",
    )


_LOOK = [
    # hashes, checksums, ids
    lambda r: f"Deployed ignition-projects@{_hex(r, 40)} to {_h(r)}; rollback point is {_hex(r, 7)}.",
    lambda r: (
        f"sha256sum S7-1500_FW_V{r.randint(2, 3)}.{r.randint(0, 9)}.{r.randint(0, 9)}.upd\n{_hex(r, 64)}  S7-1500_FW.upd\nmatches Siemens SIOS page."
    ),
    lambda r: f"Veeam job 'SCADA-VMs' finished. Backup file md5={_hex(r, 32)} size={r.randint(10, 900)} GB",
    lambda r: f"{_d(r)}T03:{r.randint(10, 59)}:00Z ERROR ami.sync request_id={_uuid(r)} status=504 upstream timeout",
    lambda r: (
        f"AADSTS700016: Application not found in the directory.\nTrace ID: {_uuid(r)}\nCorrelation ID: {_uuid(r)}\nTimestamp: {_d(r)} 14:02:11Z"
    ),
    lambda r: (
        f'{{"tenantId": "{_uuid(r)}", "clientId": "{_uuid(r)}", "authority": "https://login.microsoftonline.com/organizations", "redirectUri": "https://gis-portal01/oauth/callback"}}'
    ),
    lambda r: f'<img alt="lift station trend" src="data:image/png;base64,iVBORw0KGgo{_b64bytes(r, 90)}">',
    lambda r: (
        f"Leak-detection notebook uses model {r.choice(['facebook', 'google', 'amazon', 'ibm-granite'])}/{r.choice(['chronos-t5-small', 'timesfm-1.0-200m', 'granite-timeseries-ttm-r2'])} revision {_hex(r, 40)}"
    ),
    lambda r: (
        f"MLflow run {_hex(r, 32)} (experiment {r.randint(1, 40)}) logged mae={r.random():.4f} for demand forecast"
    ),
    lambda r: (
        f"wandb: Syncing run glorious-{r.choice(_WORDS).lower()}-{r.randint(1, 300)}\nwandb: View run at https://wandb.ai/cityh2o/nrw-leaks/runs/{_s(r, 8, _LOW + _DIG)}"
    ),
    lambda r: (
        f"Twilio account SID for the alert line: {_j('A', 'C', _hex(r, 32))} (not secret; the auth token lives in Key Vault)"
    ),
    lambda r: (
        f"API key SID {_j('S', 'K', _hex(r, 32))} belongs to 'scada-sms'. Secret is in the vault item twilio/scada-sms."
    ),
    lambda r: f"TWILIO_AUTH_TOKEN=<your-twilio-auth-token>\nTWILIO_FROM=+1555{r.randint(1000000, 9999999)}",
    lambda r: (
        f"DATABASE_URL=postgresql://ignition:${{PG_PASSWORD}}@pgsql0{r.randint(1, 9)}:5432/{r.choice(['scada', 'alarms', 'tags', 'audit'])}?pool={r.randint(2, 40)}\n# PG_PASSWORD injected by systemd credential {r.choice(['pgpass', 'ign_db'])}"
    ),
    lambda r: (
        f"      - name: Push alarm config\n        env:\n          FORTIGATE_TOKEN: ${{{{ secrets.{r.choice(['FGT_TOKEN', 'FORTIGATE_API', 'FW_TOKEN'])} }}}}\n        run: ./push.sh {_h(r)}"
    ),
    lambda r: (
        f'pw = Variable.get("{r.choice(["cityworks_pw", "pi_reader_password", "ami_api_key"])}")\n# Airflow DAG ami_daily_reads run {r.randint(100, 999)}'
    ),
    lambda r: (
        f'key = dbutils.secrets.get(scope="{r.choice(["ot", "gis", "billing"])}", key="{r.choice(["storage-key", "pi-password", "sas"])}")  # cell {r.randint(1, 200)}'
    ),
    lambda r: (
        f"$ vault kv get -field=password secret/ot/{r.choice(['ignition', 'pi', 'rtac', 'mgate'])}/{_h(r)}\n(output not pasted, see vault audit {r.randint(1000, 9999)})"
    ),
    lambda r: (
        "Env vars the collector needs: "
        + ", ".join(
            r.sample(
                [
                    "PI_USER",
                    "PI_PASSWORD",
                    "AMI_API_KEY",
                    "TWILIO_AUTH_TOKEN",
                    "SMTP_PASSWORD",
                    "AZURE_CLIENT_SECRET",
                    "GRAFANA_TOKEN",
                    "DD_API_KEY",
                ],
                5,
            )
        )
    ),
    lambda r: (
        "ansible_become_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n"
        + "\n".join("  " + _hex(r, 80) for _ in range(r.randint(3, 5)))
    ),
    lambda r: (
        f"pi_password: ENC[AES256_GCM,data:{_b64bytes(r, 15)},iv:{_b64bytes(r, 32)},tag:{_b64bytes(r, 16)},type:str]"
    ),
    lambda r: f"user {r.choice(_USERS)} hash: $2b$12${_s(r, 53, _ALNUM + './')}",
    lambda r: f"$argon2id$v=19$m=65536,t=3,p=4${_b64bytes(r, 16).rstrip('=')}${_b64bytes(r, 32).rstrip('=')}",
    lambda r: (
        f"The host key for {_h(r)} is ED25519 SHA256:{_b64bytes(r, 32).rstrip('=')} -- verify with the integrator before accepting."
    ),
    lambda r: (
        f'gpg: Signature made {_d(r)} using RSA key {_hex(r, 40).upper()}\ngpg: Good signature from "Inductive Automation Releases"'
    ),
    lambda r: (
        f"PS Cert:\\LocalMachine\\My> dir\nThumbprint                                Subject\n----------                                -------\n{_hex(r, 40).upper()}  CN={_h(r)}"
    ),
    lambda r: f"OPC UA server certificate (public, trust on the client):\n{_cert(r)}",
    lambda r: f"Add this public key to authorized_keys on {_h(r)}:\n{_sshpub(r)}",
    lambda r: (
        f'{{"cell_type": "code", "execution_count": {r.randint(1, 300)}, "id": "{_hex(r, 8)}", "metadata": {{}}, "outputs": [], "source": ["df = pi.read(\'FIT-{r.randint(100, 999)}\')"]}}'
    ),
    lambda r: (
        f"SENTRY_DSN=https://{_hex(r, 32)}@o{r.randint(100000, 999999)}.ingest.sentry.io/{r.randint(1000000, 9999999)}"
    ),
    lambda r: (
        f'const firebaseConfig = {{ apiKey: "{_j("AI", "za", _s(r, 35, _URLSAFE))}", authDomain: "cityh2o-outage-map.firebaseapp.com", projectId: "cityh2o-outage-map" }};'
    ),
    lambda r: f'algoliasearch("{_s(r, 10, _UP + _DIG)}", "{_hex(r, 32)}") // search-only key for the public outage FAQ',
    lambda r: (
        f'<div class="g-recaptcha" data-sitekey="{_j("6L", _s(r, 38, _URLSAFE))}"></div> <!-- payment portal site key -->'
    ),
    lambda r: f"SUPABASE_ANON_KEY (public, row-level security on): {_anon_jwt(r)}",
    lambda r: f"GOOGLE_OAUTH_CLIENT_ID={r.randint(10**11, 10**12)}-{_s(r, 32, _LOW + _DIG)}.apps.googleusercontent.com",
    lambda r: (
        f"{_d(r)} 02:{r.randint(10, 59)}:01 INFO auth user={r.choice(_USERS)} password=******** result=success src=10.50.{r.randint(1, 99)}.{r.randint(2, 250)}"
    ),
    lambda r: (
        f"Vendor quick-start for {r.choice(['MGate MB3180', 'Orbit MCR', 'AXIS P3265', 'Secomea SiteManager'])} says default login admin/changeme -- we set our own at commissioning {_d(r)} (stored in Keeper)."
    ),
    lambda r: (
        f"AWS docs example value (do not use): secret {_j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCY', 'EXAMPLEKEY')}; ours come from the instance role. ticket {r.randint(1000, 9999)}"
    ),
    lambda r: f"{_h(r)}(config)# enable secret 9 $9${_s(r, 14, _ALNUM + './')}${_s(r, 43, _ALNUM + './')}",
    lambda r: (
        f'config system admin\n    edit "admin"\n        set password ENC SH2{_s(r, 60, _ALNUM + "+/=")}\n    next\nend'
    ),
    lambda r: f'<entry name="ot-audit"><phash>$5${_s(r, 8, _LOW)}${_s(r, 43, _ALNUM + "./")}</phash></entry>',
    lambda r: f"snmp-server engineID local 80000009{_hex(r, 18).upper()}\nsnmp-server group OTRO v3 priv",
    lambda r: (
        "Inventory:\n"
        + "\n".join(
            f"{_h(r)}  MAC {':'.join(_hex(r, 2) for _ in range(6))}  S/N {_s(r, 10, _UP + _DIG)}" for _ in range(3)
        )
    ),
    lambda r: (
        "Modbus map LS-"
        + str(r.randint(1, 40))
        + ":\n"
        + "\n".join(
            f"4{r.randint(0, 9999):04d}  0x{_hex(r, 4).upper()}  {r.choice(['WetWellLevel', 'Pump1Run', 'FlowTotal', 'ChlorineResid'])}"
            for _ in range(4)
        )
    ),
    lambda r: (
        f"DNP3 outstation {r.randint(1, 65519)} master {r.randint(1, 10)}; link frame 0564{_hex(r, 12).upper()} CRC {_hex(r, 4).upper()}"
    ),
    lambda r: (
        f"ApplicationUri urn:{_h(r)}:Kepware.KEPServerEX.V6, cert thumbprint {_hex(r, 40).upper()} moved to trusted/"
    ),
    lambda r: (
        f"PI tags renamed: {r.choice(['WTP', 'LS07', 'RES3'])}.FIT-{r.randint(100, 999)}.PV, {r.choice(['WTP', 'LS07'])}.LIT-{r.randint(100, 999)}.PV (PointID {r.randint(10000, 99999)})"
    ),
    lambda r: "AMI meters with no reads: " + ", ".join(str(r.randint(10**8, 10**9)) for _ in range(6)),
    lambda r: (
        f"Local admin SID on {_h(r)}: S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**8, 10**9)}-500"
    ),
    lambda r: (
        f"BitLocker key protector ID {{{_uuid(r).upper()}}} for {_h(r)} -- recovery password is escrowed in Entra, not here."
    ),
    lambda r: f"az account set --subscription {_uuid(r)}  # cityh2o-ot-prod",
    lambda r: f"image: ghcr.io/cityh2o/pi-collector@sha256:{_hex(r, 64)}",
    lambda r: f'"integrity": "sha512-{_b64bytes(r, 64)}"',
    lambda r: f"pymodbus=={r.randint(2, 3)}.{r.randint(0, 9)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_hex(r, 64)}",
    lambda r: (
        f"Error acquiring the state lock\nLock Info:\n  ID:        {_uuid(r)}\n  Path:      cityh2o-tfstate/ot/terraform.tfstate\n  Who:       {r.choice(_USERS)}@jump01"
    ),
    lambda r: (
        f"env:\n  - name: PI_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {r.choice(['pi-reader', 'ignition-db', 'ami'])}-{_s(r, 5, _LOW + _DIG)}\n        key: password"
    ),
    lambda r: (
        f"Password policy for OT accounts: min {r.choice([14, 15, 16])} chars, no reuse of last {r.randint(5, 24)}, rotate every {r.choice([90, 180, 365])} days, no vendor defaults."
    ),
    lambda r: (
        f"Rotated the {r.choice(['RTAC', 'MGate', 'WIN-911', 'Veeam'])} password on {_d(r)}; new one is in 1Password item '{r.choice(['OT - RTAC', 'OT - Gateways', 'Backup svc'])}' (no copy here)."
    ),
    lambda r: (
        f"PI_PASSWORD=op://OT-{r.choice(['Prod', 'Lab'])}/{r.choice(['pi-reader', 'ignition-db'])}-{r.randint(1, 99)}/password"
    ),
    lambda r: (
        f"@Microsoft.KeyVault(SecretUri=https://kv-cityh2o-ot.vault.azure.net/secrets/{r.choice(['twilio-token', 'ami-key', 'pi-pw'])}/{_hex(r, 32)})"
    ),
    lambda r: f"arn:aws:secretsmanager:us-west-2:{r.randint(10**11, 10**12 - 1)}:secret:gis/export-{_s(r, 6)}",
    lambda r: (
        f"CI failed: https://github.com/cityh2o/ignition-projects/actions/runs/{r.randint(10**9, 10**10)}/job/{r.randint(10**10, 10**11)}"
    ),
    lambda r: (
        f"withCredentials([usernamePassword(credentialsId: '{r.choice(['pi-reader', 'fgt-api', 'cw-svc'])}', usernameVariable: 'U', passwordVariable: 'P')]) {{ sh './sync.sh' }}  // build #{r.randint(10, 999)}"
    ),
    lambda r: f"Ignition tag [default]LS{r.randint(1, 40):02d}/Security/Password_Fail_Count = {r.randint(0, 9)} (Good)",
    lambda r: "Modbus TCP frame: " + " ".join(_hex(r, 2).upper() for _ in range(r.randint(12, 20))),
    lambda r: f"crc32 of recipe file: {_hex(r, 8)}; adler32 {_hex(r, 8)}",
    lambda r: f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(r, 64)}\nsize {r.randint(10**4, 10**8)}",
    lambda r: f'< ETag: "{_hex(r, 32)}"\n< x-amz-request-id: {_s(r, 16, _UP + _DIG)}\n< x-amz-id-2: {_b64bytes(r, 48)}',
    lambda r: f"{_d(r)} INFO connect {r.choice(['pi-reader', 'cw-svc'])} password=<redacted> ok",
    lambda r: (
        f"data:\n  config.json: {base64.b64encode(('{' + chr(34) + 'scanRate' + chr(34) + ': ' + str(r.randint(100, 5000)) + ', ' + chr(34) + 'site' + chr(34) + ': ' + chr(34) + _h(r) + chr(34) + '}').encode()).decode()}"
    ),
    lambda r: (
        f"MAPBOX_PUBLIC_TOKEN={_j('p', 'k.', 'eyJ1IjoiY2l0eWgyby', _s(r, 20, _URLSAFE), '.', _s(r, 22, _URLSAFE))}  # public style token for the outage map"
    ),
    lambda r: f'<div class="h-captcha" data-sitekey="{_uuid(r)}"></div>',
    lambda r: f"STRIPE_PUBLISHABLE_KEY={_j('pk', '_live_', _s(r, 99))}",
    lambda r: f"DD_RUM_CLIENT_TOKEN={_j('pu', 'b', _hex(r, 32))}  # browser RUM, public by design",
    lambda r: (
        f"Okta OIDC app for Cityworks: client_id {_j('0o', 'a', _s(r, 17))}, issuer https://cityh2o.okta.com/oauth2/default"
    ),
    lambda r: (
        f"https://login.microsoftonline.com/{_uuid(r)}/oauth2/v2.0/authorize?client_id={_uuid(r)}&response_type=code&scope=openid"
    ),
    lambda r: f"Entra group 'OT-Engineers' object id {_uuid(r)}; add {r.choice(_USERS)} via PIM",
    lambda r: f"GPO 'SCADA Lockdown' {{{_uuid(r).upper()}}} linked to OU=HMI,OU=OT",
    lambda r: f"Get-VBRJob -Name 'Historian' | Select Id  -> {_uuid(r)}",
    lambda r: f"Rubrik SLA domain 'Gold-OT' id {_uuid(r)}; snapshot {_uuid(r)} expired",
    lambda r: "Cityworks work orders closed today: " + ", ".join(str(r.randint(100000, 999999)) for _ in range(5)),
    lambda r: (
        f"OT VLAN plan: 10.50.{r.randint(0, 250)}.0/24 HMIs, 10.51.{r.randint(0, 250)}.0/24 PLCs, gateway .1, DHCP off"
    ),
    lambda r: (
        f"Hydrant H-{r.randint(1000, 9999)} at {r.uniform(45, 49):.6f}, {-r.uniform(120, 123):.6f} -- flushing due {_d(r)}"
    ),
    lambda r: f"ArcGIS item {_hex(r, 32)} (Water Mains, public view) shared to the open-data hub",
    lambda r: (
        f"https://gis-portal01/server/rest/services/Hosted/Service_Lines_{_hex(r, 8)}/FeatureServer/0/query?where=1%3D1&f=geojson"
    ),
    lambda r: f"GET /piwebapi/streams/F1DP{_s(r, 40, _URLSAFE)}/value  -> 200",
    lambda r: f"Ignition system name {_h(r)}, gateway UUID {_uuid(r)}, redundancy role Backup",
    lambda r: (
        f"Subscribe nodes ns=2;s=Channel{r.randint(1, 9)}.LS{r.randint(1, 40)}.WetWellLevel and ns=3;i={r.randint(1000, 99999)}"
    ),
    lambda r: (
        f"branch feature/rotate-{r.choice(['secrets', 'passwords', 'tokens'])}-{r.randint(1, 99)} merged at {_hex(r, 7)}"
    ),
    lambda r: (
        "Validation regex for new passwords: ^(?=.*[A-Z])(?=.*\\d)(?=.*[^\\w]).{"
        + str(r.randint(12, 16))
        + ",}$  (policy rev "
        + _d(r)
        + ")"
    ),
    lambda r: (
        f"Context window is {r.choice([32, 128, 200])}k tokens; batch {r.randint(2, 64)} summaries of the SCADA alarm log per call."
    ),
    lambda r: f"root:$6${_s(r, 16, _ALNUM + './')}${_s(r, 86, _ALNUM + './')}:19{r.randint(300, 999)}:0:99999:7:::",
    lambda r: (
        f"postgresql://ignition:***@pgsql01:5432/{r.choice(['scada', 'alarm_journal'])} (password masked in UI) pool={r.randint(5, 40)}"
    ),
    lambda r: (
        f"Server=SQLOT0{r.randint(1, 4)};Database=ScadaHistory_{r.randint(2019, 2026)};Connect Timeout={r.randint(5, 60)};Integrated Security=SSPI;TrustServerCertificate=True"
    ),
    lambda r: (
        f"SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXXXXXXXX/YYYYYYYYY/{'Z' * 24}  # placeholder, real one in {r.choice(['Key Vault', 'GitHub secrets', 'Vault'])} since {_d(r)}"
    ),
    lambda r: f"{_h(r)} ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABB{_s(r, 87, _B64)}=",
    lambda r: (
        f"-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEE{_b64bytes(r, 40)}\n{_b64bytes(r, 48)}\n={_s(r, 4, _B64)}\n-----END PGP SIGNATURE-----"
    ),
    lambda r: (
        f"Export lands at https://cityh2obackup.blob.core.windows.net/scada-exports/hist_{r.randint(1, 99)}.csv (needs a SAS; ask IT)"
    ),
    lambda r: (
        f"s3://cityh2o-gis-exports/parcels_{r.randint(1, 999)}.zip  ({r.randint(1, 500)} MB, versionId {_s(r, 32, _URLSAFE)})"
    ),
    lambda r: (
        f"Spares: 6ES7 {r.randint(500, 520)}-{r.randint(1, 9)}{_s(r, 2, _UP)}{r.randint(0, 9)}{r.randint(0, 9)}-0AB0 x{r.randint(1, 4)}, 1756-L{r.randint(71, 85)}E x{r.randint(1, 3)}"
    ),
    lambda r: (
        f"ignition-{r.randint(8, 8)}.{r.randint(1, 3)}.{r.randint(0, 45)}-b{r.randint(2024000000, 2026120000)} build {_hex(r, 12)}"
    ),
    lambda r: f'scada_up{{site="{_h(r)}",instance_hash="{_hex(r, 16)}"}} 1',
    lambda r: (
        f"Set-Content .env 'PI_PASSWORD=' ; Write-Host 'fill PI_PASSWORD from the vault before running' # {_d(r)}"
    ),
    lambda r: (
        f'password = os.environ["{r.choice(["PI_PASSWORD", "CW_PASSWORD", "RTAC_PASSWORD"])}"]  # never hardcode (lesson from {_d(r)})'
    ),
    lambda r: (
        f"$pw = Get-Secret -Name '{r.choice(['veeam-svc', 'vc-admin', 'idrac-root'])}' -Vault OTVault  # {_h(r)}, task {r.randint(100, 999)}"
    ),
    lambda r: (
        f"{_d(r)} shift note: badge {r.randint(10000, 99999)} for {r.choice(_PEOPLE)} reissued; card facility code {r.randint(1, 255)}"
    ),
    lambda r: (
        f"NVR camera {r.randint(1, 64)} stream: rtsp://10.60.{r.randint(1, 40)}.{r.randint(2, 250)}:554/Streaming/Channels/101 (uses the credential from the VMS, not in URL)"
    ),
    lambda r: f"TOTP seed for the jump host lives in the hardware tokens; serials {_s(r, 10, _DIG)}, {_s(r, 10, _DIG)}",
    lambda r: (
        f"Let's Encrypt order https://acme-v02.api.letsencrypt.org/acme/order/{r.randint(10**8, 10**9)}/{r.randint(10**10, 10**11)} finalized"
    ),
    lambda r: f"idempotency-key: {_uuid(r)}\nx-request-id: {_hex(r, 32)}\nstatus: 201 Created",
    lambda r: (
        f"PagerDuty incident {_s(r, 7, _UP + _DIG)} acknowledged by {r.choice(_PEOPLE)}; service id {_s(r, 7, _UP + _DIG)}"
    ),
    lambda r: f"Duo integration key {_j('D', 'I', _s(r, 18, _UP + _DIG))} for the VPN (identifier only; skey in vault)",
    lambda r: (
        f"WPA2 passphrase for PLANT-OT rotated {_d(r)}; printed copy is in the control room safe (not written here)."
    ),
    lambda r: (
        f"SNMP: community string moved to SNMPv3; see vault path secret/net/snmp/{_h(r)} for auth/priv ({_d(r)})."
    ),
    lambda r: (
        f"AccountName=cityh2obackup;AccountKey=<storage-key>;EndpointSuffix=core.windows.net  # template from README rev {r.randint(1, 99)}"
    ),
    lambda r: (
        f"Secomea device id {_s(r, 4, _UP + _DIG)}-{_s(r, 4, _UP + _DIG)}-{_s(r, 4, _UP + _DIG)} registered to site {_h(r)}"
    ),
    lambda r: (
        f'JWT header decoded: {{"alg":"RS256","kid":"{_s(r, 43, _URLSAFE)}","typ":"JWT"}} -- kid matches Entra JWKS'
    ),
    lambda r: f"Checksum of exported Ignition gateway backup (.gwbk): SHA1 {_hex(r, 40)}",
    lambda r: f"Git LFS lock id {r.randint(100, 99999)} on tags/{_h(r)}.json by {r.choice(_USERS)}",
]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for k in _kinds():
        n = 0
        tries = 0
        while n < PER_KIND:
            tries += 1
            if tries > 5000:
                raise RuntimeError(f"cannot make {PER_KIND} unique texts for {k.kind}")
            secret, shown = k.gen(r)
            c = _ctx(r, k)
            pool = (_GENERIC if k.generic else []) + k.specials
            tpl = r.choice(pool)
            text = tpl(r, secret, c) if tpl in k.specials else tpl(r, shown, k, c)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            positives.append((text, k.kind, secret))
            n += 1
    lookalikes: list[str] = []
    for fn in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 2000:
                raise RuntimeError(f"look-alike generator {_LOOK.index(fn)} cannot make distinct texts")
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
