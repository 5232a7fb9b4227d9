"""Labelled test set X for a secret detector: university research lab and its IT support.

Theme
    Memories an AI coding agent keeps for a university research lab: HPC clusters (Slurm, LDAP,
    Kerberos, SSH keys, jump hosts), JupyterHub / RStudio, instrument vendor portals, REDCap,
    ORCID, Zenodo, figshare, Dataverse, OSF, Overleaf, Canvas / Moodle, Zoom, Google Workspace and
    Microsoft 365 app registrations, eduroam and lab Wi-Fi, VPNs, research data on S3 / Globus /
    iRODS / Nextcloud, experiment databases, cloud credits, and scripts in Python, R, MATLAB, Julia
    and bash. Styles: notes, lessons, minutes, TODOs, tickets, chat (some German, French, Chinese,
    Korean, Portuguese, Turkish), config and code, and tool output.

Contract
    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
      positives:  list of (text, kind, secret); secret is an exact substring of text; one secret
                  per text; every kind has exactly 30 positives.
      lookalikes: texts with no credential at all; each generator in _LOOK contributes exactly
                  LOOK_PER_GEN distinct texts.
    Deterministic for a seed (random.Random seeded from the seed only); no duplicate texts.

Labelling conventions
    * Webhook URLs: the final path token is the secret.
    * Connection strings and basic-auth URLs: the password only.
    * Pre-signed URLs: the signature only.
    * PEM / OpenSSH private keys: the whole armoured block, BEGIN line to END line.
    * UUID-shaped vendor tokens are secrets only when the text names them as token/key/secret.
    * Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client
      ids, Firebase web apiKeys, search-only keys, public certificates), vendor documentation
      example values, encrypted blobs (Ansible vault, sops ENC[...]) and password hashes are
      look-alikes. Bare AWS access key ids are left out entirely.
    * Token-shaped values are assembled at run time from pieces and seeded random bodies; the
      source holds no token-shaped literal.

Content
    78 kinds x 30 positives (vendor tokens, LMS / research-repository tokens, cloud keys,
    webhooks, connection-string and basic-auth passwords, pre-signed URL signatures, PEM /
    OpenSSH / OpenVPN keys, WireGuard keys, human passwords for LDAP, Kerberos, HPC, VPN,
    eduroam, Wi-Fi, databases, SMTP, vendor portals). 26 shared templates (notes, lessons,
    minutes, TODOs, tickets, chat in six languages, .env, YAML, JSON, TOML, INI, Slurm, R,
    MATLAB, Julia, Python, notebook JSON, Dockerfile, Apptainer, terminal) plus kind-specific
    ones (HTTP dumps, stack traces, ldapsearch, kinit, openconnect, wpa_supplicant, my.cnf, ...).
    Left out as ambiguous: Google "AIza" API keys (same shape as public Firebase web keys),
    rclone-obscured passwords, file-share link tokens, Zoom meeting passcodes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
ALNUM = LOW + UP + DIG
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def rs(r, alpha, n):
    return "".join(r.choice(alpha) for _ in range(n))


def b64pad(r, nbytes):
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()


def uuid4(r):
    h = rs(r, HEX, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# ---------------------------------------------------------------- context vocabulary
PEOPLE = [
    "Priya",
    "Jonas",
    "Mei",
    "Tobias",
    "Ana",
    "Kerem",
    "Chloé",
    "Seo-yeon",
    "Lukas",
    "Ifeoma",
    "Rafael",
    "Hannah",
    "Wei",
    "Elif",
    "Mateus",
    "Noor",
    "Dmitri",
    "Sofia",
    "Minjun",
    "Claire",
]
USERS = [
    "pkumar",
    "jschmidt",
    "mchen",
    "tweber",
    "asilva",
    "kyilmaz",
    "cdubois",
    "sypark",
    "lhoffmann",
    "iokafor",
    "rcosta",
    "hbrandt",
    "wzhang",
    "eaydin",
    "msouza",
    "nrahman",
    "dvolkov",
    "sromano",
]
PROJECTS = [
    "neuroimaging-2026",
    "coral-genomics",
    "battery-aging",
    "climate-downscale",
    "protein-md",
    "eeg-sleep",
    "soil-microbiome",
    "lidar-forest",
    "cryoem-pipeline",
    "speech-corpus",
    "ms-proteomics",
    "fluid-sim",
    "ecology-survey",
    "quantum-dots",
    "hydro-model",
]
DOMAINS = [
    "uni-example.edu",
    "lab.example.ac.uk",
    "inst.example.de",
    "rescomp.example.org",
    "phys.example.edu",
    "bio.example-univ.fr",
]
HOSTS = [
    "login1",
    "login2",
    "hpc-gw",
    "jhub",
    "rstudio",
    "gpu07",
    "dtn01",
    "db-lab",
    "files",
    "redcap",
    "nc",
    "irods",
    "vpn",
    "ldap1",
    "kdc",
]
DATES = [
    "2026-03-14",
    "2026-04-02",
    "2026-05-19",
    "2026-06-30",
    "2026-08-11",
    "2026-09-03",
    "2026-10-21",
    "2026-11-08",
    "2026-11-27",
    "2026-12-01",
]
WORDS = [
    "tulip",
    "rover",
    "falcon",
    "maple",
    "cobalt",
    "harbor",
    "pepper",
    "quartz",
    "willow",
    "ember",
    "glacier",
    "lantern",
    "meadow",
    "orbit",
    "pixel",
    "saffron",
    "tundra",
    "velvet",
    "walnut",
    "zephyr",
    "otter",
    "canyon",
    "mosaic",
    "nebula",
    "papaya",
    "ridge",
    "sparrow",
]
SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Herbst",
    "Sommer",
    "Printemps",
    "Hiver",
]
NAMES = [
    "Bella",
    "Max",
    "Luna",
    "Oscar",
    "Nala",
    "Teddy",
    "Milo",
    "Coco",
    "Rocky",
    "Pumuckl",
]


def host(r):
    return f"{r.choice(HOSTS)}.{r.choice(DOMAINS)}"


def ctx(r):
    return {
        "who": r.choice(PEOPLE),
        "user": r.choice(USERS),
        "proj": r.choice(PROJECTS),
        "host": host(r),
        "date": r.choice(DATES),
        "job": str(r.randint(1000000, 9999999)),
        "n": r.randint(2, 64),
    }


# ---------------------------------------------------------------- passwords
def pw_human(r):
    k = r.randrange(6)
    if k == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice('!?.#*')}"
    if k == 1:
        return f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    if k == 2:
        return f"{r.choice(NAMES)}{r.randint(1, 9999)}{r.choice(['!', '!!', '?', '*', '.'])}"
    if k == 3:
        w = r.choice(WORDS).capitalize().replace("o", "0").replace("e", "3").replace("a", "@")
        return f"{w}{r.randint(10, 999)}{r.choice('!*+')}"
    if k == 4:
        return f"{r.choice(PROJECTS).split('-')[0].capitalize()}_{r.choice(WORDS)}{r.randint(1, 99)}"
    return f"{r.choice(NAMES).lower()}.{r.choice(WORDS)}.{r.randint(1960, 2010)}"


def pw_generated(r):
    while True:
        p = rs(r, ALNUM + "!*-_+=.^%", r.randint(14, 24))
        if any(c.isdigit() for c in p) and any(c.isupper() for c in p) and p[0].isalnum():
            return p


def pw_phrase(r):
    sep = r.choice(["-", "_", ".", " "])
    ws = [r.choice(WORDS) for _ in range(r.randint(3, 5))]
    if sep == " ":
        sep = "-"
    return sep.join(ws) + str(r.randint(1, 99))


def password(r):
    return r.choice([pw_human, pw_human, pw_generated, pw_phrase])(r)


def pw_urlsafe(r):
    while True:
        p = password(r)
        if all(c not in p for c in "@:/?#%^ "):
            return p


# ---------------------------------------------------------------- secret generators
def g_prefix(*parts, alpha=ALNUM, n=36):
    pre = "".join(parts)
    return lambda r: pre + rs(r, alpha, n)


def g_github_fine(r):
    return "github" + "_pat_" + "11" + rs(r, UP + DIG, 20) + "_" + rs(r, ALNUM, 59)


def g_slack(kind_letter):
    def f(r):
        return (
            "xox"
            + kind_letter
            + "-"
            + str(r.randint(10**10, 10**12))
            + "-"
            + str(r.randint(10**10, 10**12))
            + "-"
            + rs(r, ALNUM, 24)
        )

    return f


def g_slack_user(r):
    return (
        "xox"
        + "p-"
        + str(r.randint(10**10, 10**12))
        + "-"
        + str(r.randint(10**10, 10**12))
        + "-"
        + str(r.randint(10**10, 10**12))
        + "-"
        + rs(r, HEX, 32)
    )


def g_aws_secret(r):
    return rs(r, B64, 40)


def g_azure_secret(r):
    a = ALNUM + "_~.-"
    return rs(r, a, 3) + r.choice(DIG) + "Q" + "~" + rs(r, a, 34)


def g_canvas(r):
    return str(r.choice([1, 7, 10, 15, 21])) + str(r.randint(100, 9999)) + "~" + rs(r, ALNUM, 64)


def g_openai(r):
    return "sk-" + "proj-" + rs(r, B64URL, 74) + "T3Blbk" + "FJ" + rs(r, B64URL, 74)


def g_anthropic(r):
    return "sk-" + "ant-" + "api03-" + rs(r, B64URL, 93) + "AA"


def g_pypi(r):
    return "pypi-" + "AgEIcHlwaS5vcmc" + rs(r, B64URL, 150)


def g_sendgrid(r):
    return "SG" + "." + rs(r, B64URL, 22) + "." + rs(r, B64URL, 43)


def g_telegram(r):
    return str(r.randint(10**8, 10**10)) + ":" + "AA" + rs(r, B64URL, 33)


def g_influx(r):
    return rs(r, B64URL, 86) + "=="


def g_wg(r):
    raw = bytearray(r.getrandbits(8) for _ in range(32))
    raw[0] &= 248
    raw[31] = (raw[31] & 127) | 64
    return base64.b64encode(bytes(raw)).decode()


def g_django(r):
    return (
        "django-insecure-" + rs(r, LOW + DIG + "!@%^&*(-_=+)", 50)
        if r.random() < 0.3
        else rs(r, LOW + DIG + "!@%^&*(-_=+)", 50)
    )


def g_nextcloud(r):
    return "-".join(rs(r, ALNUM, 5) for _ in range(5))


def g_gapp(r):
    return " ".join(rs(r, LOW, 4) for _ in range(4))


def g_age(r):
    return "AGE-" + "SECRET-KEY-1" + rs(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)


def g_tailscale(r):
    return "tskey-" + "auth-" + rs(r, ALNUM, 12) + "CNTRL-" + rs(r, ALNUM, 33)


def g_vault(r):
    return "hvs" + "." + "CAESI" + rs(r, B64URL, 86)


def g_grafana(r):
    return "glsa" + "_" + rs(r, ALNUM, 32) + "_" + rs(r, HEX, 8)


def g_do(r):
    return "dop" + "_v1_" + rs(r, HEX, 64)


def g_databricks(r):
    return "dapi" + rs(r, HEX, 32) + (r.choice(["", "-2", "-3"]))


def g_globus(r):
    return b64pad(r, 32)


def g_jwt_secret(r):
    return r.choice([rs(r, HEX, 64), b64pad(r, 48), rs(r, ALNUM, 48)])


def g_stripe(r):
    return "sk" + "_live_" + "51" + rs(r, ALNUM, 97)


def g_hf(r):
    return "hf" + "_" + rs(r, LOW + UP, 34)


def g_uuid(r):
    return uuid4(r)


def g_hex(n, upper=False):
    return lambda r: rs(r, "0123456789ABCDEF" if upper else HEX, n)


def g_alnum(n):
    return lambda r: rs(r, ALNUM, n)


# ---------------------------------------------------------------- PEM helpers
def _armor(label, body, width=64):
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    dash = "-" * 5
    return "\n".join([f"{dash}BEGIN {label}{dash}", *lines, f"{dash}END {label}{dash}"])


PRIV = "PRIVATE" + " KEY"


def _rb(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def _sshstr(b):
    return len(b).to_bytes(4, "big") + b


def g_openssh(r):
    pub = _rb(r, 32)
    pubblob = _sshstr(b"ssh-ed25519") + _sshstr(pub)
    check = _rb(r, 4)
    comment = f"{r.choice(USERS)}@{r.choice(['laptop', 'ws12', 'mbp', 'hpc'])}".encode()
    priv = check + check + _sshstr(b"ssh-ed25519") + _sshstr(pub) + _sshstr(_rb(r, 32) + pub) + _sshstr(comment)
    priv += bytes(range(1, 1 + (-len(priv)) % 8))
    raw = (
        b"openssh-key-v1\x00"
        + _sshstr(b"none")
        + _sshstr(b"none")
        + _sshstr(b"")
        + (1).to_bytes(4, "big")
        + _sshstr(pubblob)
        + _sshstr(priv)
    )
    return _armor("OPENSSH " + PRIV, base64.b64encode(raw).decode(), 70)


def g_rsa(r):
    raw = bytes.fromhex("308204a40201000282010100") + _rb(r, 1180)
    return _armor("RSA " + PRIV, base64.b64encode(raw).decode())


def g_ec(r):
    raw = (
        bytes.fromhex("30770201010420")
        + _rb(r, 32)
        + bytes.fromhex("a00a06082a8648ce3d030107a144034200")
        + b"\x04"
        + _rb(r, 64)
    )
    return _armor("EC " + PRIV, base64.b64encode(raw).decode())


def g_pkcs8(r):
    raw = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100") + _rb(r, 1180)
    return _armor(PRIV, base64.b64encode(raw).decode())


def g_ovpn(r):
    dash = "-" * 5
    lines = [rs(r, HEX, 32) for _ in range(16)]
    lab = "OpenVPN Static" + " key V1"
    return "\n".join([f"{dash}BEGIN {lab}{dash}", *lines, f"{dash}END {lab}{dash}"])


# ---------------------------------------------------------------- generic templates
def _nb(src_lines, count):
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": "code",
                    "execution_count": count,
                    "metadata": {},
                    "outputs": [],
                    "source": src_lines,
                }
            ],
            "metadata": {"kernelspec": {"name": "python3"}},
            "nbformat": 4,
        },
        indent=1,
    )


COMMON = [
    lambda c, k, s: (
        f"Note ({c['date']}): {k['label']} for {c['proj']} is {s} - {c['who']} set it up, rotate when the grant ends."
    ),
    lambda c, k, s: (
        f"Lesson learned: the batch job failed until I exported {k['env']}={s} in ~/.bashrc "
        f"on {c['host']}. Do not forget after the next module purge."
    ),
    lambda c, k, s: (
        f"Lab meeting minutes {c['date']}\n- {c['who']}: storage quota raised to {c['n']} TB\n"
        f"- {k['label']} rotated, new value: {s}\n- next meeting: journal club"
    ),
    lambda c, k, s: (
        f'TODO: move {k["env"]} out of the repo!\ncurrently hardcoded: {k["key"]} = "{s}"\nowner: {c["user"]}'
    ),
    lambda c, k, s: (
        f"[Ticket #{c['job'][:5]}] User {c['user']} cannot reach {c['host']}.\n"
        f"Resolution: re-issued {k['label']} ({s}) and asked them to update their config."
    ),
    lambda c, k, s: (
        f"{c['who']} 10:{c['n'] % 60:02d}: can you send me the {k['label']}?\n"
        f"me: sure, it's {s}\n{c['who']}: thx, works now"
    ),
    lambda c, k, s: f"# .env for {c['proj']}\nPROJECT={c['proj']}\n{k['env']}={s}\nLOG_LEVEL=info\n",
    lambda c, k, s: f'{c["proj"]}:\n  host: {c["host"]}\n  user: {c["user"]}\n  {k["key"]}: "{s}"\n  retries: 3\n',
    lambda c, k, s: json.dumps(
        {
            "project": c["proj"],
            "endpoint": f"https://{c['host']}",
            k["key"]: s,
            "timeout": c["n"],
        },
        indent=2,
    ),
    lambda c, k, s: f'[{c["proj"]}]\nhost = "{c["host"]}"\n{k["key"]} = "{s}"\nthreads = {c["n"]}\n',
    lambda c, k, s: f"[default]\nserver = {c['host']}\n{k['key']} = {s}\nverify_ssl = true\n",
    lambda c, k, s: (
        f"#!/bin/bash\n#SBATCH --job-name={c['proj']}\n#SBATCH --time=04:00:00\n"
        f"#SBATCH --gres=gpu:1\nmodule load python/3.11\nexport {k['env']}='{s}'\n"
        f"srun python run.py --out /scratch/{c['user']}"
    ),
    lambda c, k, s: (
        f'library(httr)\nSys.setenv({k["env"]} = "{s}")\n'
        f'res <- GET("https://{c["host"]}/api", add_headers(Accept = "application/json"))'
    ),
    lambda c, k, s: (
        f"% load_data.m\nsetenv('{k['env']}', '{s}');\n"
        f"opts = weboptions('Timeout', {c['n']});\ndata = webread('https://{c['host']}/export', opts);"
    ),
    lambda c, k, s: f'# Julia\nENV["{k["env"]}"] = "{s}"\nusing HTTP\nr = HTTP.get("https://{c["host"]}/v1/status")',
    lambda c, k, s: f'import os\n\nos.environ["{k["env"]}"] = "{s}"  # FIXME\nclient = connect("{c["host"]}")',
    lambda c, k, s: _nb(["import os\n", f'{k["key"].upper()} = "{s}"\n', "run_export()"], c["n"]),
    lambda c, k, s: f'FROM python:3.11-slim\nWORKDIR /app\nENV {k["env"]}={s}\nCOPY . .\nCMD ["python", "main.py"]',
    lambda c, k, s: (
        f"Bootstrap: docker\nFrom: rocker/r-ver:4.4\n\n%environment\n"
        f"    export {k['env']}={s}\n\n%runscript\n    Rscript /opt/{c['proj']}/run.R"
    ),
    lambda c, k, s: (
        f"{c['user']}@{c['host'].split('.')[0]}:~$ export {k['env']}={s}\n"
        f"{c['user']}@{c['host'].split('.')[0]}:~$ python sync.py\nsync: {c['n']} files uploaded"
    ),
    lambda c, k, s: f"Notiz: {k['label']} für {c['proj']}: {s} (nicht ins Wiki kopieren!)",
    lambda c, k, s: f"Note pour l'équipe : le {k['key']} de {c['proj']} est {s}, à renouveler en janvier.",
    lambda c, k, s: f"备忘：{c['proj']} 的 {k['label']} 是 {s}，不要提交到 Git。",
    lambda c, k, s: f"메모: {c['proj']} {k['label']} = {s} (다음 학기 전에 교체)",
    lambda c, k, s: f"Anotação: o {k['key']} do {c['proj']} é {s} — pedir ao {c['who']} para trocar.",
    lambda c, k, s: f"Not: {c['proj']} için {k['label']}: {s} (dönem sonunda yenilenecek)",
]

TOKEN_EXTRA = [
    lambda c, k, s: (
        f'$ curl -s -H "Authorization: Bearer {s}" https://{c["host"]}/api/v1/me\n{{"user": "{c["user"]}", "ok": true}}'
    ),
    lambda c, k, s: (
        f"POST /api/v2/upload HTTP/1.1\nHost: {c['host']}\nAuthorization: Bearer {s}\n"
        f"Content-Type: application/json\nContent-Length: {c['n'] * 17}\n"
    ),
    lambda c, k, s: (
        f'Traceback (most recent call last):\n  File "sync.py", line {c["n"]}, in <module>\n'
        f'    client = Client(token="{s}")\n  File "client.py", line 88, in __init__\n'
        f'    raise AuthError("401 Unauthorized")\nAuthError: 401 Unauthorized'
    ),
    lambda c, k, s: (
        f"{c['date']}T03:{c['n'] % 60:02d}:11Z DEBUG request headers={{'Authorization': "
        f"'Bearer {s}', 'User-Agent': 'python-requests/2.32'}}"
    ),
]

PASS_EXTRA = [
    lambda c, k, s: f"$ sshpass -p '{s}' ssh {c['user']}@{c['host']}\nLast login: Mon from 10.20.{c['n']}.4",
    lambda c, k, s: (
        f'help-desk chat: user typed their password into the chat by accident: "{s}" - '
        f"told {c['user']} to change it immediately."
    ),
    lambda c, k, s: (
        f'Traceback (most recent call last):\n  File "fetch.py", line {c["n"]}, in main\n'
        f'    login(user="{c["user"]}", password="{s}")\nConnectionRefusedError: [Errno 111]'
    ),
    lambda c, k, s: (
        f'{c["date"]} 08:{c["n"] % 60:02d}:02 DEBUG auth payload: {{"username": "{c["user"]}", "password": "{s}"}}'
    ),
]


P_SOFT = PASS_EXTRA[1:]


def _x(*fns):
    return list(fns)


LDAP_X = _x(
    lambda c, k, s: (
        f'$ ldapsearch -x -H ldaps://{c["host"]} -D "cn=svc-{c["proj"]},ou=services,dc=lab,dc=example" '
        f"-w '{s}' -b \"ou=people,dc=lab,dc=example\" uid={c['user']}"
    ),
    lambda c, k, s: (
        f"# sssd.conf\n[domain/LAB]\nid_provider = ldap\nldap_uri = ldaps://{c['host']}\n"
        f"ldap_default_bind_dn = cn=sssd,ou=services,dc=lab,dc=example\nldap_default_authtok = {s}\n"
    ),
)
KRB_X = _x(
    lambda c, k, s: (
        f"$ echo '{s}' | kinit {c['user']}@LAB.EXAMPLE.EDU\n$ klist\nDefault principal: {c['user']}@LAB.EXAMPLE.EDU"
    ),
    lambda c, k, s: (
        f"Lesson: cron jobs lose the ticket; {c['who']} 'fixed' it with "
        f"`kinit {c['user']} <<< '{s}'` - replace with a keytab!"
    ),
)
VPN_X = _x(
    lambda c, k, s: (
        f"$ echo '{s}' | sudo openconnect --user={c['user']} --passwd-on-stdin vpn.{c['host'].split('.', 1)[1]}"
        f"\nConnected as 10.8.{c['n']}.12"
    ),
    lambda c, k, s: f"auth-user-pass creds.txt\n$ cat creds.txt\n{c['user']}\n{s}",
)
WIFI_X = _x(
    lambda c, k, s: (
        f'network={{\n    ssid="eduroam"\n    key_mgmt=WPA-EAP\n    eap=PEAP\n'
        f'    identity="{c["user"]}@{c["host"].split(".", 1)[1]}"\n    password="{s}"\n    phase2="auth=MSCHAPV2"\n}}'
    ),
    lambda c, k, s: (
        f"$ nmcli dev wifi connect LAB-{c['proj'].split('-')[0].upper()} password '{s}'\n"
        f"Device 'wlan0' successfully activated"
    ),
)
MYSQL_X = _x(
    lambda c, k, s: (
        f"$ mysql -h {c['host']} -u {c['user']} -p'{s}' {c['proj'].split('-')[0]}\n"
        f"mysql: [Warning] Using a password on the command line interface can be insecure."
    ),
    lambda c, k, s: f"[client]\nuser={c['user']}\npassword={s}\nhost={c['host']}\n",
)
NEO_X = _x(
    lambda c, k, s: f"$ cypher-shell -a neo4j://{c['host']}:7687 -u neo4j -p '{s}'\nConnected to Neo4j 5.20",
    lambda c, k, s: f'driver = GraphDatabase.driver("neo4j://{c["host"]}:7687", auth=("neo4j", "{s}"))',
)
IRODS_X = _x(
    lambda c, k, s: f"$ echo '{s}' | iinit\nEnter your current iRODS password:\n$ ils /labZone/home/{c['user']}",
)
SMTP_X = _x(
    lambda c, k, s: (
        f"# ~/.msmtprc\naccount lab\nhost smtp.{c['host'].split('.', 1)[1]}\nport 587\nuser {c['user']}\npassword {s}\n"
    ),
    lambda c, k, s: (
        f'server = smtplib.SMTP("smtp.{c["host"].split(".", 1)[1]}", 587)\nserver.login("{c["user"]}", "{s}")'
    ),
)
HPC_X = PASS_EXTRA + _x(
    lambda c, k, s: (
        f"Host {c['host'].split('.')[0]}\n  HostName {c['host']}\n  User {c['user']}\n"
        f"  ProxyJump gw.{c['host'].split('.', 1)[1]}\n# password for the jump host: {s}"
    ),
)


def _wg_pub(s):
    return g_wg(random.Random(s))


WG_X = _x(
    lambda c, k, s: (
        f"[Interface]\nPrivateKey = {s}\nAddress = 10.{c['n']}.0.{len(s) + c['n']}/32\n"
        f"DNS = 10.0.0.53\n\n[Peer]\nPublicKey = {_wg_pub(s)}\nEndpoint = {c['host']}:51820\nAllowedIPs = 10.0.0.0/8\n"
    ),
    lambda c, k, s: f"$ wg genkey | tee privatekey\n{s}\n$ wg pubkey < privatekey\n{_wg_pub(s)}",
    lambda c, k, s: f"{c['who']}: use PrivateKey = {s} in wg0.conf, the server already has your public key",
)


def _jlog(c, s):
    return (
        f"[I {c['date']} 09:1{c['n'] % 10}:03.112 ServerApp] Jupyter Server 2.14.1 is running at:\n"
        f"[I ServerApp] http://gpu{c['n']:02d}:8888/lab?token={s}\n"
        f"[I ServerApp]     http://127.0.0.1:8888/lab?token={s}"
    )


JUP_X = _x(
    lambda c, k, s: _jlog(c, s),
    lambda c, k, s: (
        f"Lesson: tunnel with ssh -L 8888:gpu07:8888 {c['user']}@{c['host']} then open http://localhost:8888/?token={s}"
    ),
    lambda c, k, s: f"{c['who']}: my notebook url is http://127.0.0.1:{8800 + c['n']}/lab?token={s}",
    lambda c, k, s: f"c.ServerApp.token = '{s}'\nc.ServerApp.ip = '0.0.0.0'\nc.ServerApp.port = 8888",
)


def K(kind, gen, label, env, key, extra=None):
    return {
        "kind": kind,
        "gen": gen,
        "label": label,
        "env": env,
        "key": key,
        "extra": extra,
    }


T = TOKEN_EXTRA

KINDS = [
    K(
        "github_pat",
        g_prefix("gh", "p_"),
        "GitHub token",
        "GITHUB_TOKEN",
        "github_token",
        T,
    ),
    K(
        "github_fine_grained_pat",
        g_github_fine,
        "GitHub Classroom fine-grained token",
        "GH_CLASSROOM_TOKEN",
        "gh_token",
        T,
    ),
    K(
        "github_oauth_token",
        g_prefix("gh", "o_"),
        "GitHub OAuth token",
        "GH_OAUTH_TOKEN",
        "oauth_token",
        T,
    ),
    K(
        "gitlab_pat",
        g_prefix("gl", "pat-", alpha=B64URL, n=20),
        "GitLab access token",
        "GITLAB_TOKEN",
        "private_token",
        T,
    ),
    K(
        "gitlab_runner_token",
        g_prefix("gl", "rt-", alpha=B64URL, n=20),
        "GitLab runner token",
        "RUNNER_TOKEN",
        "runner_token",
        T,
    ),
    K(
        "aws_secret_access_key",
        g_aws_secret,
        "AWS secret access key (grant credits)",
        "AWS_SECRET_ACCESS_KEY",
        "aws_secret_access_key",
    ),
    K(
        "azure_client_secret",
        g_azure_secret,
        "Microsoft 365 app registration client secret",
        "AZURE_CLIENT_SECRET",
        "client_secret",
    ),
    K(
        "google_oauth_client_secret",
        g_prefix("GOC", "SPX-", alpha=B64URL, n=28),
        "Google Workspace OAuth client secret",
        "GOOGLE_CLIENT_SECRET",
        "client_secret",
    ),
    K(
        "slack_bot_token",
        g_slack("b"),
        "Slack bot token",
        "SLACK_BOT_TOKEN",
        "slack_token",
        T,
    ),
    K(
        "slack_user_token",
        g_slack_user,
        "Slack user token",
        "SLACK_USER_TOKEN",
        "slack_user_token",
        T,
    ),
    K(
        "zoom_client_secret",
        g_alnum(32),
        "Zoom Server-to-Server OAuth client secret",
        "ZOOM_CLIENT_SECRET",
        "zoom_client_secret",
    ),
    K(
        "canvas_api_token",
        g_canvas,
        "Canvas LMS API token",
        "CANVAS_API_TOKEN",
        "canvas_token",
        T,
    ),
    K(
        "moodle_webservice_token",
        g_hex(32),
        "Moodle web service token",
        "MOODLE_TOKEN",
        "wstoken",
    ),
    K(
        "redcap_api_token",
        g_hex(32, upper=True),
        "REDCap API token",
        "REDCAP_API_TOKEN",
        "redcap_token",
    ),
    K(
        "orcid_client_secret",
        g_uuid,
        "ORCID member API client secret",
        "ORCID_CLIENT_SECRET",
        "orcid_client_secret",
    ),
    K(
        "zenodo_access_token",
        g_alnum(60),
        "Zenodo personal access token",
        "ZENODO_TOKEN",
        "zenodo_token",
        T,
    ),
    K(
        "figshare_token",
        g_hex(128),
        "figshare personal token",
        "FIGSHARE_TOKEN",
        "figshare_token",
    ),
    K(
        "dataverse_api_token",
        g_uuid,
        "Dataverse API token",
        "DATAVERSE_API_TOKEN",
        "dataverse_api_token",
    ),
    K(
        "osf_personal_token",
        g_alnum(70),
        "OSF personal access token",
        "OSF_TOKEN",
        "osf_token",
        T,
    ),
    K(
        "overleaf_git_token",
        g_prefix("ol", "p_", n=36),
        "Overleaf git authentication token",
        "OVERLEAF_TOKEN",
        "overleaf_token",
    ),
    K(
        "jupyterhub_api_token",
        g_hex(32),
        "JupyterHub API token",
        "JUPYTERHUB_API_TOKEN",
        "api_token",
        T,
    ),
    K(
        "qualtrics_api_token",
        g_alnum(40),
        "Qualtrics API token",
        "QUALTRICS_API_TOKEN",
        "qualtrics_token",
    ),
    K("kaggle_api_key", g_hex(32), "Kaggle API key", "KAGGLE_KEY", "kaggle_key"),
    K(
        "openai_api_key",
        g_openai,
        "OpenAI API key",
        "OPENAI_API_KEY",
        "openai_api_key",
        T,
    ),
    K(
        "anthropic_api_key",
        g_anthropic,
        "Anthropic API key",
        "ANTHROPIC_API_KEY",
        "anthropic_api_key",
    ),
    K("huggingface_token", g_hf, "Hugging Face token", "HF_TOKEN", "hf_token", T),
    K(
        "wandb_api_key",
        g_hex(40),
        "Weights & Biases API key",
        "WANDB_API_KEY",
        "wandb_api_key",
    ),
    K(
        "stripe_secret_key",
        g_stripe,
        "Stripe secret key (conference registration)",
        "STRIPE_SECRET_KEY",
        "stripe_secret_key",
    ),
    K(
        "sendgrid_api_key",
        g_sendgrid,
        "SendGrid API key",
        "SENDGRID_API_KEY",
        "sendgrid_api_key",
        T,
    ),
    K(
        "twilio_auth_token",
        g_hex(32),
        "Twilio auth token (SMS study reminders)",
        "TWILIO_AUTH_TOKEN",
        "twilio_auth_token",
    ),
    K(
        "npm_token",
        g_prefix("np", "m_", n=36),
        "npm automation token",
        "NPM_TOKEN",
        "npm_token",
    ),
    K("pypi_token", g_pypi, "PyPI API token", "PYPI_API_TOKEN", "pypi_password"),
    K(
        "docker_hub_pat",
        g_prefix("dck", "r_pat_", alpha=B64URL, n=27),
        "Docker Hub access token",
        "DOCKERHUB_TOKEN",
        "docker_token",
    ),
    K(
        "telegram_bot_token",
        g_telegram,
        "Telegram bot token (instrument alerts)",
        "TELEGRAM_BOT_TOKEN",
        "bot_token",
    ),
    K(
        "influxdb_token",
        g_influx,
        "InfluxDB token",
        "INFLUXDB_TOKEN",
        "influx_token",
        T,
    ),
    K(
        "globus_client_secret",
        g_globus,
        "Globus confidential client secret",
        "GLOBUS_CLIENT_SECRET",
        "globus_client_secret",
    ),
    K(
        "nextcloud_app_password",
        g_nextcloud,
        "Nextcloud app password",
        "NEXTCLOUD_APP_PASSWORD",
        "app_password",
    ),
    K(
        "google_app_password",
        g_gapp,
        "Google Workspace app password",
        "GMAIL_APP_PASSWORD",
        "smtp_password",
    ),
    K(
        "age_secret_key",
        g_age,
        "age secret key for encrypted backups",
        "SOPS_AGE_KEY",
        "age_key",
    ),
    K("tailscale_auth_key", g_tailscale, "Tailscale auth key", "TS_AUTHKEY", "authkey"),
    K("vault_token", g_vault, "HashiCorp Vault token", "VAULT_TOKEN", "vault_token", T),
    K(
        "grafana_service_account_token",
        g_grafana,
        "Grafana service account token",
        "GRAFANA_TOKEN",
        "grafana_token",
        T,
    ),
    K(
        "digitalocean_token",
        g_do,
        "DigitalOcean token",
        "DIGITALOCEAN_TOKEN",
        "do_token",
        T,
    ),
    K(
        "databricks_token",
        g_databricks,
        "Databricks personal access token",
        "DATABRICKS_TOKEN",
        "databricks_token",
        T,
    ),
    K(
        "jwt_signing_secret",
        g_jwt_secret,
        "JWT signing secret for the survey app",
        "JWT_SECRET",
        "jwt_secret",
    ),
    K(
        "django_secret_key",
        g_django,
        "Django SECRET_KEY of the lab portal",
        "DJANGO_SECRET_KEY",
        "secret_key",
    ),
    K(
        "wireguard_private_key",
        g_wg,
        "WireGuard private key",
        "WG_PRIVATE_KEY",
        "private_key",
        WG_X,
    ),
    K(
        "jupyter_server_token",
        g_hex(48),
        "Jupyter server token",
        "JUPYTER_TOKEN",
        "token",
        JUP_X,
    ),
    K(
        "ldap_bind_password",
        password,
        "LDAP bind password",
        "LDAP_BIND_PW",
        "bind_password",
        P_SOFT + LDAP_X,
    ),
    K(
        "kerberos_password",
        password,
        "Kerberos password",
        "KRB_PASSWORD",
        "krb_password",
        P_SOFT + KRB_X,
    ),
    K(
        "hpc_account_password",
        password,
        "HPC cluster password",
        "HPC_PASSWORD",
        "password",
        HPC_X,
    ),
    K(
        "vpn_password",
        password,
        "AnyConnect VPN password",
        "VPN_PASSWORD",
        "vpn_password",
        P_SOFT + VPN_X,
    ),
    K(
        "eduroam_password",
        password,
        "eduroam password",
        "EDUROAM_PASSWORD",
        "eap_password",
        WIFI_X[:1] + P_SOFT[:1],
    ),
    K(
        "wifi_psk",
        password,
        "lab Wi-Fi WPA2 passphrase",
        "LAB_WIFI_PSK",
        "psk",
        WIFI_X[1:] + P_SOFT[:1],
    ),
    K(
        "mysql_password",
        password,
        "MySQL password",
        "MYSQL_PASSWORD",
        "mysql_password",
        P_SOFT + MYSQL_X,
    ),
    K(
        "neo4j_password",
        password,
        "Neo4j password",
        "NEO4J_PASSWORD",
        "neo4j_password",
        P_SOFT + NEO_X,
    ),
    K(
        "irods_password",
        password,
        "iRODS password",
        "IRODS_PASSWORD",
        "irods_password",
        P_SOFT + IRODS_X,
    ),
    K(
        "smtp_password",
        password,
        "department SMTP relay password",
        "SMTP_PASSWORD",
        "smtp_password",
        P_SOFT + SMTP_X,
    ),
    K(
        "instrument_portal_password",
        password,
        "instrument vendor portal password",
        "VENDOR_PORTAL_PASSWORD",
        "portal_password",
        P_SOFT,
    ),
    K(
        "rstudio_server_password",
        password,
        "RStudio Server password",
        "RSTUDIO_PASSWORD",
        "rstudio_password",
        P_SOFT,
    ),
]


# ---------------------------------------------------------------- special templates
def t_slack_hook(r, c):
    tok = rs(r, ALNUM, 24)
    url = "https://hooks." + "slack.com/services/T" + rs(r, UP + DIG, 10) + "/B" + rs(r, UP + DIG, 10) + "/" + tok
    return tok, url


def t_discord_hook(r, c):
    tok = rs(r, B64URL, 68)
    return tok, "https://discord.com/api/webhooks/" + str(r.randint(10**17, 10**18)) + "/" + tok


def t_teams_hook(r, c):
    tok = rs(r, HEX, 32)
    url = (
        f"https://{r.choice(['uniexample', 'labgroup', 'rescomp'])}.webhook.office.com/webhookb2/"
        f"{uuid4(r)}@{uuid4(r)}/IncomingWebhook/{tok}"
    )
    return tok, url


HOOK_T = [
    lambda c, url, name: f"Slurm job notifications go to #{c['proj']} via {url}",
    lambda c, url, name: f"alertmanager.yml:\nreceivers:\n- name: lab-{name}\n  webhook_configs:\n  - url: '{url}'\n",
    lambda c, url, name: (
        f'import requests\nWEBHOOK = "{url}"\nrequests.post(WEBHOOK, json={{"text": "job {c["job"]} finished"}})'
    ),
    lambda c, url, name: f"$ curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"done\"}}' {url}\nok",
    lambda c, url, name: (
        f'#SBATCH --mail-type=END\n# notify {name}\ncurl -s -d \'{{"content":"job '
        f"$SLURM_JOB_ID done\"}}' -H 'Content-Type: application/json' \"{url}\""
    ),
    lambda c, url, name: f"Hinweis: {name}-Webhook für das Messgerät: {url}",
    lambda c, url, name: f"TODO {c['who']}: rotate the {name} webhook, it leaked in the lab wiki: {url}",
    lambda c, url, name: f'{{"notifications": {{"{name}_webhook": "{url}", "on_failure": true}}}}',
]


def conn_pg(r, c, pw):
    return f"postgresql://{c['user']}:{pw}@{host(r)}:5432/{c['proj'].replace('-', '_')}"


def conn_mongo(r, c, pw):
    return (
        f"mongodb+srv://{c['user']}:{pw}@cluster{r.randint(0, 9)}.{rs(r, LOW + DIG, 5)}.mongodb.net/"
        f"{c['proj'].split('-')[0]}?retryWrites=true"
    )


def conn_redis(r, c, pw):
    return f"redis://default:{pw}@{host(r)}:6379/{r.randint(0, 5)}"


def conn_mysql(r, c, pw):
    return f"mysql+pymysql://{c['user']}:{pw}@{host(r)}:3306/{c['proj'].split('-')[0]}"


def conn_amqp(r, c, pw):
    return f"amqp://{c['user']}:{pw}@{host(r)}:5672/%2F"


def conn_basic(r, c, pw):
    return r.choice(
        [
            f"https://{c['user']}:{pw}@gitlab.{r.choice(DOMAINS)}/{c['proj']}/analysis.git",
            f"https://{c['user']}:{pw}@pypi.{r.choice(DOMAINS)}/simple/",
            f"https://{c['user']}:{pw}@{host(r)}/remote.php/dav/files/{c['user']}/",
            f"https://{c['user']}:{pw}@cran-mirror.{r.choice(DOMAINS)}/",
        ]
    )


CONN_T = [
    lambda c, u: f"DATABASE_URL={u}",
    lambda c, u: f'from sqlalchemy import create_engine\nengine = create_engine("{u}")',
    lambda c, u: f"Note: {c['proj']} results DB -> {u} (ask {c['who']} before schema changes)",
    lambda c, u: f"{c['date']} 14:02:{c['n'] % 60:02d} ERROR worker: could not connect to {u}: timeout",
    lambda c, u: f'db:\n  url: "{u}"\n  pool_size: {c["n"]}\n',
    lambda c, u: f'con <- dbConnect(RPostgres::Postgres(), dsn = "{u}")',
    lambda c, u: f"Ticket: {c['user']} pasted their connection string in the public channel: {u}",
    lambda c, u: f"$ python migrate.py --db '{u}'\nApplied {c['n']} migrations.",
    lambda c, u: f"备忘：实验数据库连接串 {u}",
    lambda c, u: f"export CONN='{u}'",
]

BASIC_T = [
    lambda c, u: f"$ git clone {u}\nCloning into 'analysis'...",
    lambda c, u: f"[global]\nindex-url = {u}\n",
    lambda c, u: f"Lesson: rclone/davfs kept failing; mounting with {u} works (temporary!)",
    lambda c, u: f'options(repos = c(LAB = "{u}"))',
    lambda c, u: f"pip install --extra-index-url {u} labtools==1.4",
    lambda c, u: f"Nota: URL com senha para o mirror: {u}",
    lambda c, u: f"{c['date']} WARN fetch {u} returned 403",
    lambda c, u: f"RUN pip install --index-url {u} -r requirements.txt",
]


def s_presigned_aws(r, c):
    sig = rs(r, HEX, 64)
    url = (
        f"https://{c['proj']}-data.s3.{r.choice(['eu-central-1', 'us-east-1', 'us-west-2'])}.amazonaws.com/"
        f"raw/run_{c['job']}.tar.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="
        + "AKIA"
        + rs(r, UP + DIG, 16)
        + f"%2F20261201%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261201T0930"
        f"00Z&X-Amz-Expires={r.choice([3600, 86400, 604800])}&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return sig, url


def s_sas(r, c):
    sig = base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode()
    sig_enc = sig.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    url = (
        f"https://{c['proj'].replace('-', '')[:20]}store.blob.core.windows.net/raw/{c['job']}.h5?"
        f"sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-12-31T23:59:59Z&st=2026-12-01T00:00:00Z&spr=https"
        f"&sig={sig_enc}"
    )
    return sig_enc, url


def s_gcs(r, c):
    sig = rs(r, HEX, 512)
    url = (
        f"https://storage.googleapis.com/{c['proj']}-bucket/exports/{c['job']}.parquet?X-Goog-Algorithm="
        f"GOOG4-RSA-SHA256&X-Goog-Credential=sa-export%40{c['proj']}.iam.gserviceaccount.com%2F20261201"
        f"%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261201T101500Z&X-Goog-Expires=3600"
        f"&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return sig, url


PRESIGN_T = [
    lambda c, u: f"Download link for the collaborators (expires soon): {u}",
    lambda c, u: f'$ wget -O data.tar.gz "{u}"\nHTTP request sent, awaiting response... 200 OK',
    lambda c, u: f"shared in chat by {c['who']}: {u}",
    lambda c, u: f"{c['date']} INFO generated share url={u}",
    lambda c, u: f"Hinweis für die Kooperation: Daten liegen hier {u}",
    lambda c, u: f'df = pd.read_parquet("{u}")',
]


def s_az_conn(r, c):
    key = b64pad(r, 64)
    acct = c["proj"].replace("-", "")[:18] + "sa"
    return key, (f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net")


AZCONN_T = [
    lambda c, u: f'AZURE_STORAGE_CONNECTION_STRING="{u}"',
    lambda c, u: f"Note: instrument uploads use {u}",
    lambda c, u: f'{{"Values": {{"AzureWebJobsStorage": "{u}", "FUNCTIONS_WORKER_RUNTIME": "python"}}}}',
    lambda c, u: (
        f'from azure.storage.blob import BlobServiceClient\nsvc = BlobServiceClient.from_connection_string("{u}")'
    ),
    lambda c, u: f"$ az storage blob list -c raw --connection-string '{u}' -o table",
]

PEM_T = [
    lambda c, b: f"Key for the jump host {c['host']} (user {c['user']}), paste into ~/.ssh/:\n\n{b}\n",
    lambda c, b: (
        f"{c['user']}@{c['host'].split('.')[0]}:~$ cat ~/.ssh/id_lab\n{b}\n{c['user']}@{c['host'].split('.')[0]}:~$"
    ),
    lambda c, b: (
        f"Ticket #{c['job'][:5]}: user attached their key to the ticket (!!)\n```\n{b}\n```\n"
        f"Action: revoke and regenerate."
    ),
    lambda c, b: f"cat > /etc/{c['proj']}/deploy.key <<'EOF'\n{b}\nEOF\nchmod 600 /etc/{c['proj']}/deploy.key",
    lambda c, b: f"Notiz: Deploy-Key für {c['proj']}\n{b}",
    lambda c, b: f"{c['who']}: here's the key for the Globus endpoint VM\n{b}\nme: thanks, deleting this msg",
]

OVPN_T = [
    lambda c, b: f"client\ndev tun\nproto udp\nremote {c['host']} 1194\nkey-direction 1\n<tls-auth>\n{b}\n</tls-auth>",
    lambda c, b: f"$ cat /etc/openvpn/ta.key\n#\n# 2048 bit OpenVPN static key\n#\n{b}",
    lambda c, b: f"Lab VPN static key (do not share outside IT):\n{b}",
]


# ---------------------------------------------------------------- positive production
def _special_kinds():
    out = []

    def hook(kind, fn, name):
        def make(r, c, i):
            tok, url = fn(r, c)
            return HOOK_T[i % len(HOOK_T)](c, url, name), tok

        out.append((kind, make))

    hook("slack_webhook_url", t_slack_hook, "slack")
    hook("discord_webhook_url", t_discord_hook, "discord")
    hook("teams_webhook_url", t_teams_hook, "teams")

    def conn(kind, fn, tpls):
        def make(r, c, i):
            pw = pw_urlsafe(r)
            return tpls[i % len(tpls)](c, fn(r, c, pw)), pw

        out.append((kind, make))

    conn("postgres_connection_password", conn_pg, CONN_T)
    conn("mongodb_connection_password", conn_mongo, CONN_T)
    conn("redis_connection_password", conn_redis, CONN_T)
    conn("mysql_connection_password", conn_mysql, CONN_T)
    conn("amqp_connection_password", conn_amqp, CONN_T)
    conn("basic_auth_url_password", conn_basic, BASIC_T)

    def signed(kind, fn, tpls):
        def make(r, c, i):
            sig, url = fn(r, c)
            return tpls[i % len(tpls)](c, url), sig

        out.append((kind, make))

    signed("aws_presigned_url_signature", s_presigned_aws, PRESIGN_T)
    signed("azure_sas_signature", s_sas, PRESIGN_T)
    signed("gcs_signed_url_signature", s_gcs, PRESIGN_T)
    signed("azure_storage_account_key", s_az_conn, AZCONN_T)

    def pem(kind, fn, tpls):
        def make(r, c, i):
            b = fn(r)
            return tpls[i % len(tpls)](c, b), b

        out.append((kind, make))

    pem("openssh_private_key", g_openssh, PEM_T)
    pem("rsa_private_key", g_rsa, PEM_T)
    pem("ec_private_key", g_ec, PEM_T)
    pem("pkcs8_private_key", g_pkcs8, PEM_T)
    pem("openvpn_static_key", g_ovpn, OVPN_T)

    return out


def _generic_maker(k):
    extra = k["extra"] or []
    off = sum(map(ord, k["kind"]))

    def make(r, c, i):
        s = k["gen"](r)
        if extra and i % 3 == 0:
            tpl = extra[(i // 3) % len(extra)]
        else:
            tpl = COMMON[(i + off) % len(COMMON)]
        return tpl(c, k, s), s

    return make


def _positives(r, seen):
    makers = [(k["kind"], _generic_maker(k)) for k in KINDS] + _special_kinds()
    out = []
    for kind, make in makers:
        got = 0
        i = 0
        while got < PER_KIND:
            c = ctx(r)
            text, secret = make(r, c, i)
            i += 1
            secret = secret.strip()
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            got += 1
    return out


# ---------------------------------------------------------------- look-alikes
def _sha(r, n=64):
    return rs(r, HEX, n)


def _png_b64(r):
    head = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(r.getrandbits(8) for _ in range(60)))
    return head.decode()


def _jwt_anon(r, ref):
    def enc(d):
        return base64.urlsafe_b64encode(json.dumps(d, separators=(",", ":")).encode()).decode().rstrip("=")

    h = enc({"alg": "HS256", "typ": "JWT"})
    p = enc(
        {
            "iss": "supabase",
            "ref": ref,
            "role": "anon",
            "iat": 1735689600,
            "exp": 2051222400,
        }
    )
    return f"{h}.{p}.{rs(r, B64URL, 43)}"


def _bcrypt(r):
    return "$2b$" + str(r.choice([10, 12, 14])) + "$" + rs(r, ALNUM + "./", 53)


def _argon(r):
    return f"$argon2id$v=19$m=65536,t={r.randint(2, 4)},p={r.randint(1, 4)}${rs(r, B64, 22)}${rs(r, B64, 43)}"


def _sha512crypt(r):
    return "$6$" + rs(r, ALNUM + "./", 16) + "$" + rs(r, ALNUM + "./", 86)


def _vault_blob(r):
    lines = [rs(r, "0123456789", 1) + rs(r, HEX, 79) for _ in range(r.randint(4, 7))]
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(lines)


def _sops(r):
    return f"ENC[AES256_GCM,data:{rs(r, B64, r.randint(16, 40))}=,iv:{b64pad(r, 32)},tag:{b64pad(r, 16)},type:str]"


def _ssh_pub(r):
    return "ssh-ed25519 " + "AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(r, B64, 43) + f" {r.choice(USERS)}@laptop"


def _fp(r):
    return "SHA256:" + rs(r, B64, 43)


def _cert(r):
    raw = bytes.fromhex("308203") + bytes([r.randint(0x40, 0xFF)]) + bytes.fromhex("308202") + _rb(r, 560)
    return _armor("CERTIFICATE", base64.b64encode(raw).decode())


def _doi(r):
    return f"10.5281/zenodo.{r.randint(1000000, 15000000)}"


def _orcid(r):
    return f"0000-000{r.randint(1, 3)}-{r.randint(1000, 9999)}-{r.randint(100, 999)}{r.choice(DIG + 'X')}"


_LOOK = [
    # hashes, checksums, digests
    lambda r: f"sha256sum raw/run_{r.randint(1, 999)}.h5\n{_sha(r)}  raw/run_{r.randint(1, 999)}.h5",
    lambda r: f"Zenodo record {_doi(r)}: file checksum md5:{_sha(r, 32)} (matches local copy)",
    lambda r: (
        f"commit {_sha(r, 40)}\nAuthor: {r.choice(PEOPLE)} <{r.choice(USERS)}@{r.choice(DOMAINS)}>\n\n"
        f"    fix slurm array indexing"
    ),
    lambda r: f"pinned the analysis code to {_sha(r, 40)[: r.choice([7, 8, 12])]} for the paper revision",
    lambda r: f"pip install git+https://github.com/{r.choice(USERS)}/labtools@{_sha(r, 40)}",
    lambda r: f"labtools=={r.randint(0, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_sha(r)}",
    lambda r: f"image: ghcr.io/{r.choice(USERS)}/{r.choice(PROJECTS)}@sha256:{_sha(r)}",
    lambda r: f"version https://git-lfs.github.com/spec/v1\noid sha256:{_sha(r)}\nsize {r.randint(10**5, 10**9)}",
    lambda r: f'"integrity": "sha512-{b64pad(r, 64)}"',
    lambda r: f"Apptainer image {r.choice(PROJECTS)}.sif verified, sha256 {_sha(r)}",
    lambda r: f'checksum = "{_sha(r)}"\nname = "{r.choice(WORDS)}-rs"\nversion = "0.{r.randint(1, 30)}.0"',
    lambda r: f'S3 upload complete: ETag "{_sha(r, 32)}-{r.randint(2, 90)}" for s3://{r.choice(PROJECTS)}-raw/',
    lambda r: f"MLflow run_id={_sha(r, 32)} experiment_id={r.randint(1, 400)} status=FINISHED",
    lambda r: f"dataset fingerprint (xxhash64): {_sha(r, 16)}; rows={r.randint(1000, 99999)}",
    # uuids / ids
    lambda r: (
        f"HTTP/1.1 500 Internal Server Error\nx-request-id: {uuid4(r)}\nx-amzn-trace-id: Root=1-"
        f"{_sha(r, 8)}-{_sha(r, 24)}"
    ),
    lambda r: f"traceparent: 00-{_sha(r, 32)}-{_sha(r, 16)}-01",
    lambda r: f"Globus transfer task {uuid4(r)} SUCCEEDED ({r.randint(2, 900)} files) to collection {uuid4(r)}",
    lambda r: (
        f"Azure app registration: tenant id {uuid4(r)}, application (client) id {uuid4(r)} - "
        f"secret stored in Key Vault only"
    ),
    lambda r: f"GPU {r.randint(0, 7)}: NVIDIA A100-SXM4-80GB (UUID: GPU-{uuid4(r)})",
    lambda r: f"Jupyter kernel {uuid4(r)} restarted (execution_count reset to {r.randint(1, 9)})",
    lambda r: (
        f"REDCap project {r.randint(100, 9999)}, record_id {r.randint(1, 999)}, event "
        f"baseline_arm_{r.randint(1, 3)}, survey hash {rs(r, UP + DIG, 10)}"
    ),
    lambda r: f"Canvas course {r.randint(10000, 99999)}, assignment {r.randint(100000, 999999)}, submission {uuid4(r)}",
    lambda r: (
        f"Zoom meeting ID {r.randint(100, 999)} {r.randint(1000, 9999)} {r.randint(1000, 9999)} - "
        f"lab meeting, link in the calendar invite"
    ),
    lambda r: f"ORCID iD for {r.choice(PEOPLE)}: https://orcid.org/{_orcid(r)}",
    lambda r: (
        f"arXiv:{r.randint(2301, 2612)}.{r.randint(10000, 29999)}v{r.randint(1, 4)} submitted; "
        f"Overleaf project {_sha(r, 24)}"
    ),
    lambda r: (
        f"wandb: Syncing run {rs(r, LOW, 1)}{rs(r, LOW + DIG, 7)} -> https://wandb.ai/"
        f"{r.choice(USERS)}/{r.choice(PROJECTS)}/runs/{rs(r, LOW + DIG, 8)}"
    ),
    lambda r: f"sbatch: Submitted batch job {r.randint(10**6, 10**7)}\nsqueue -j {r.randint(10**6, 10**7)}",
    lambda r: (
        f"model: {r.choice(['meta-llama/Llama-3.1-8B-Instruct', 'bert-base-uncased', 'facebook/esm2_t33_650M_UR50D', 'openai/whisper-large-v3'])}\n"
        f"revision: {_sha(r, 40)}"
    ),
    lambda r: f"dataset: {r.choice(USERS)}/{r.choice(PROJECTS)}-v{r.randint(1, 9)} (doi:{_doi(r)})",
    lambda r: f"Dataverse persistentId doi:10.7910/DVN/{rs(r, UP + DIG, 6)} version {r.randint(1, 5)}.0",
    lambda r: f"OSF project https://osf.io/{rs(r, LOW + DIG, 5)}/ preregistration registered",
    lambda r: f"figshare article {r.randint(10**7, 3 * 10**7)} DOI 10.6084/m9.figshare.{r.randint(10**7, 3 * 10**7)}",
    lambda r: (
        f"Kerberos: klist\nTicket cache: FILE:/tmp/krb5cc_{r.randint(1000, 60000)}\nDefault principal: "
        f"{r.choice(USERS)}@{r.choice(DOMAINS).upper()}"
    ),
    lambda r: (
        f"eduroam profile: identity={r.choice(USERS)}@{r.choice(DOMAINS)}, anonymous_identity="
        f"anonymous@{r.choice(DOMAINS)}, ca_cert=/etc/ssl/certs/eduroam-ca.pem, password prompt at connect"
    ),
    # public-by-design
    lambda r: f"STRIPE_PUBLISHABLE_KEY={'pk' + '_live_' + '51' + rs(r, ALNUM, 97)}",
    lambda r: (
        f"const supabase = createClient('https://{rs(r, LOW, 20)}.supabase.co', "
        f"'{_jwt_anon(r, rs(r, LOW, 20))}')  // anon key, public"
    ),
    lambda r: f"GOOGLE_OAUTH_CLIENT_ID={r.randint(10**11, 10**12)}-{rs(r, LOW + DIG, 32)}.apps.googleusercontent.com",
    lambda r: (
        'const firebaseConfig = {\n  apiKey: "'
        + "AIza"
        + "Sy"
        + rs(r, B64URL, 33)
        + '",\n  authDomain: "'
        + r.choice(PROJECTS)
        + '.firebaseapp.com",\n  projectId: "'
        + r.choice(PROJECTS)
        + '"\n};'
    ),
    lambda r: f'<div class="g-recaptcha" data-sitekey="{"6L" + rs(r, B64URL, 38)}"></div>',
    lambda r: f"SENTRY_DSN=https://{_sha(r, 32)}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/{r.randint(10**6, 10**7)}",
    lambda r: f"ALGOLIA_APP_ID={rs(r, UP + DIG, 10)}\nALGOLIA_SEARCH_ONLY_KEY={_sha(r, 32)}  # safe for the docs site",
    lambda r: f"Public cert of the REDCap server (for pinning):\n{_cert(r)}",
    lambda r: f"authorized_keys on {host(r)}:\n{_ssh_pub(r)}",
    lambda r: f"[Peer]\nPublicKey = {g_wg(r)}\nEndpoint = {host(r)}:51820\nAllowedIPs = 10.{r.randint(0, 255)}.0.0/16",
    lambda r: (
        f"The ECDSA host key for '{host(r)}' has changed. Fingerprint: {_fp(r)}. Verified with IT, updated known_hosts."
    ),
    lambda r: f"ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 {_fp(r)} {r.choice(USERS)}@laptop (ED25519)",
    lambda r: f"GPG key for signing releases: {' '.join(rs(r, '0123456789ABCDEF', 4) for _ in range(10))}",
    lambda r: f"NEXT_PUBLIC_POSTHOG_KEY={'phc' + '_' + rs(r, ALNUM, 43)}",
    lambda r: (
        f"mapboxgl.accessToken = '{'pk' + '.eyJ1Ijoi' + rs(r, B64URL, 40) + '.' + rs(r, B64URL, 22)}'; "
        f"// public style token"
    ),
    lambda r: f"gtag('config', 'G-{rs(r, UP + DIG, 10)}');",
    lambda r: f"ORCID public API: client_id APP-{rs(r, UP + DIG, 16)} (the secret is in Vault, not here)",
    lambda r: f"Globus native app client id {uuid4(r)} (public client, no secret needed)",
    # placeholders & docs
    lambda r: (
        f"export {r.choice(['CANVAS_API_TOKEN', 'REDCAP_API_TOKEN', 'ZENODO_TOKEN'])}=<your-key>  "
        f"# replace before running {r.choice(PROJECTS)}"
    ),
    lambda r: (
        f"{r.choice(['api_token', 'password', 'client_secret'])}: ${{{r.choice(['SECRET', 'DB_PASS', 'API_KEY', 'TOKEN'])}}}"
        f"\nhost: {host(r)}"
    ),
    lambda r: (
        f"Default password is 'changeme' in the vendor docs for the {r.choice(['spectrometer', 'plate reader', 'confocal', 'sequencer'])}"
        f" - our unit {r.randint(1, 99)} was reset to a unique one by IT."
    ),
    lambda r: (
        f"{r.choice(USERS)}: password=******** (masked) login ok from 10.{r.randint(0, 255)}.{r.randint(0, 255)}.7"
    ),
    lambda r: f'token: "{"gh" + "p_" + "X" * 36}"  # example from README, ticket {r.randint(100, 9999)}',
    lambda r: f"OPENAI_API_KEY=sk-...  # put yours here ({r.choice(PEOPLE)})",
    lambda r: (
        f"AWS docs example: aws_secret_access_key = {'wJalrXUtnFEMI' + '/K7MDENG/' + 'bPxRfiCY' + 'EXAMPLE' + 'KEY'} "
        f"(do not use) - step {r.randint(1, 40)}"
    ),
    lambda r: (
        f"Anleitung: Passwort niemals im Klartext speichern, stattdessen `pass insert lab/{r.choice(HOSTS)}` "
        f"verwenden (Schritt {r.randint(1, 20)})."
    ),
    lambda r: (
        f"password policy for {r.choice(DOMAINS)}: min {r.randint(12, 16)} chars, no reuse of the last "
        f"{r.randint(3, 10)}, rotate every {r.choice([90, 180, 365])} days"
    ),
    lambda r: (
        f"{r.choice(['API_KEY', 'TOKEN', 'SECRET'])}=xxxxxxxxxxxxxxxxxxxxxxxx  # fill in (ticket {r.randint(100, 9999)})"
    ),
    lambda r: (
        f"Authorization: Bearer <{r.choice(['token', 'ACCESS_TOKEN', 'your-canvas-token'])}>\nGET /api/v1/courses/{r.randint(1000, 99999)}"
    ),
    lambda r: (
        f"{r.randint(2026, 2026)}-12-0{r.randint(1, 5)} INFO login user={r.choice(USERS)} token=[REDACTED] status=200"
    ),
    lambda r: f"REDCAP_API_TOKEN=YOUR_REDCAP_TOKEN_HERE\nREDCAP_URL=https://{host(r)}/api/",
    lambda r: f"注意：API 密钥请放在 ~/.config/{r.choice(PROJECTS)}/token 中，不要写在代码里。",
    lambda r: (
        f"비밀번호는 {r.choice(['1Password', 'KeePassXC', 'Bitwarden'])} 공유 금고에 있습니다 ({r.choice(PROJECTS)})."
    ),
    lambda r: (
        f"Not: şifreyi Slack'e yazmayın, {r.choice(['Vault', 'KeePass', '1Password'])} kullanın. "
        f"(proje {r.choice(PROJECTS)})"
    ),
    # references to where secrets live
    lambda r: (
        f"env:\n  ZENODO_TOKEN: ${{{{ secrets.{r.choice(['ZENODO_TOKEN', 'ZENODO_SANDBOX', 'DEPOSIT_TOKEN'])} }}}}\n"
        f"  RUN_ID: {r.randint(1, 9999)}"
    ),
    lambda r: (
        f'token = Variable.get("{r.choice(["redcap_token", "canvas_token", "osf_token"])}")\n'
        f'conn = BaseHook.get_connection("{r.choice(PROJECTS)}_db")'
    ),
    lambda r: f'pw = dbutils.secrets.get(scope="{r.choice(PROJECTS)}", key="{r.choice(["pg-password", "api-key"])}")',
    lambda r: (
        f"vault kv get -field=password secret/lab/{r.choice(PROJECTS)}/{r.choice(['postgres', 'influx', 'neo4j'])}"
    ),
    lambda r: (
        f'password = os.environ["{r.choice(["PGPASSWORD", "NEO4J_PASSWORD", "IRODS_PASSWORD"])}"]  '
        f"# set by the Slurm prolog on {host(r)}"
    ),
    lambda r: f"valueFrom:\n  secretKeyRef:\n    name: {r.choice(PROJECTS)}-db\n    key: password",
    lambda r: (
        f'token <- Sys.getenv("{r.choice(["REDCAP_API_TOKEN", "QUALTRICS_API_KEY", "OSF_PAT"])}")\n'
        f'stopifnot(nzchar(token))\ndf <- read_csv("{r.choice(PROJECTS)}/wave{r.randint(1, 9)}.csv")'
    ),
    lambda r: (
        f"key = getenv('{r.choice(['ZENODO_TOKEN', 'FIGSHARE_TOKEN'])}'); % MATLAB, set in startup.m\n"
        f"files = dir('{r.choice(PROJECTS)}/*.mat'); % {r.randint(2, 400)} files"
    ),
    lambda r: f"aws secretsmanager get-secret-value --secret-id {r.choice(PROJECTS)}/rds --query SecretString",
    lambda r: (
        f"gcloud secrets versions access latest --secret={r.choice(PROJECTS)}-api-key "
        f"--project={r.choice(PROJECTS)}-{r.randint(100, 999)}"
    ),
    lambda r: f"az keyvault secret show --vault-name kv-{r.choice(PROJECTS)} --name client-secret --query value",
    lambda r: f'password_command = "pass show lab/{r.choice(HOSTS)}"\nuser = "{r.choice(USERS)}"',
    lambda r: (
        f"irods_authentication_scheme: native, password stored in ~/.irods/.irodsA after iinit "
        f"(zone {r.choice(['labZone', 'tempZone', 'researchZone'])}, host {host(r)})"
    ),
    lambda r: f"netrc: machine {host(r)} login {r.choice(USERS)} -> password read from keyring",
    # encrypted / hashed
    lambda r: f"db_password: !vault |\n{_vault_blob(r)}",
    lambda r: (
        f"neo4j_password: {_sops(r)}\nsops:\n  age:\n  - recipient: age1{rs(r, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}"
    ),
    lambda r: f"{r.choice(USERS)}:{_bcrypt(r)}",
    lambda r: f"INSERT INTO users (email, pw_hash) VALUES ('{r.choice(USERS)}@{r.choice(DOMAINS)}', '{_argon(r)}');",
    lambda r: f"{r.choice(USERS)}:{_sha512crypt(r)}:19{r.randint(100, 999)}:0:99999:7:::",
    lambda r: f"{r.choice(USERS)}:$apr1${rs(r, ALNUM, 8)}${rs(r, ALNUM + './', 22)}",
    lambda r: (
        f"JupyterHub: c.Authenticator.admin_users = {{'{r.choice(USERS)}'}}\n"
        f"c.PasswordAuthenticator hash: sha1:{_sha(r, 12)}:{_sha(r, 40)}"
    ),
    lambda r: (
        f'encrypted_key: "AQICAHh{rs(r, B64, 50)}{b64pad(r, 96)}"  # KMS ciphertext, decrypt with aws kms decrypt'
    ),
    lambda r: (
        f"{{SSHA}}{b64pad(r, 24)} -> that is the userPassword hash in LDAP for uid={r.choice(USERS)}, not the password"
    ),
    # base64 data / notebook junk
    lambda r: f'<img src="data:image/png;base64,{_png_b64(r)}" alt="loss curve">',
    lambda r: json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 200),
            "metadata": {},
            "outputs": [{"output_type": "display_data", "data": {"image/png": _png_b64(r)}}],
            "source": ["plt.plot(losses)"],
        },
        indent=1,
    ),
    lambda r: json.dumps(
        {
            "metadata": {
                "kernelspec": {"display_name": "Python 3", "name": "python3"},
                "widgets": {"state": {_sha(r, 32): {"model_name": "IntProgressModel"}}},
            },
            "nbformat": 4,
            "nbformat_minor": r.randint(2, 5),
        }
    ),
    lambda r: f"random seed {r.randint(0, 2**31)} used for the train/test split, numpy state hash {_sha(r, 16)}",
    lambda r: (
        f"$ base64 config.json\n"
        f"{base64.b64encode(json.dumps({'epochs': r.randint(1, 99), 'lr': 0.001}).encode()).decode()}"
    ),
    lambda r: (
        f"MAC {':'.join(rs(r, HEX, 2) for _ in range(6))} registered for the {r.choice(['plate reader', 'microscope PC', 'sequencer'])} on lab Wi-Fi"
    ),
    lambda r: (
        f"conda env hash {hashlib.md5(str(r.random()).encode()).hexdigest()} for environment.yml ({r.choice(PROJECTS)})"
    ),
    lambda r: f"Let's Encrypt cert renewed for {host(r)}, serial {':'.join(rs(r, HEX.upper(), 2) for _ in range(16))}",
    lambda r: (
        f"AnyConnect: connected to vpn.{r.choice(DOMAINS)}, group STAFF-SPLIT, session {r.randint(10**6, 10**7)}, "
        f"assigned 10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(2, 250)}"
    ),
    lambda r: (
        f"sacct -j {r.randint(10**6, 10**7)} --format=JobID,State,Elapsed\n{r.randint(10**6, 10**7)}"
        f"  COMPLETED  0{r.randint(0, 9)}:{r.randint(10, 59)}:00"
    ),
    lambda r: f"InfluxDB org id {_sha(r, 16)}, bucket id {_sha(r, 16)} (token lives in the Grafana datasource)",
    lambda r: (
        f"AWS account {r.randint(10**11, 10**12 - 1)}, role arn:aws:iam::{r.randint(10**11, 10**12 - 1)}:role/"
        f"{r.choice(PROJECTS)}-batch"
    ),
    lambda r: (
        f"$ ssh-add ~/.ssh/id_ed25519\nIdentity added: /home/{r.choice(USERS)}/.ssh/id_ed25519 "
        f"({r.choice(USERS)}@{r.choice(['laptop', 'ws-' + str(r.randint(1, 99)), 'mbp'])})"
    ),
    lambda r: (
        f"$ docker login registry.{r.choice(DOMAINS)}\nUsername: {r.choice(USERS)}\nPassword:\n"
        f"Login Succeeded (credential helper: secretservice)"
    ),
    lambda r: (
        f"git config --global credential.helper 'cache --timeout={r.choice([3600, 7200, 28800])}' "
        f"# so {r.choice(PEOPLE)} stops pasting tokens into the remote URL"
    ),
    lambda r: (
        f"Neo4j: first login with neo4j/neo4j forces a password change (docs, step {r.randint(1, 30)}); "
        f"new one is in the lab vault under {r.choice(PROJECTS)}"
    ),
    lambda r: (
        f"Azure portal > Certificates & secrets: Description '{r.choice(PROJECTS)}-ci', Expires 2027-0{r.randint(1, 9)}-01, "
        f"Secret ID {uuid4(r)} (value was copied to Key Vault, not here)"
    ),
    lambda r: (
        f'"type": "service_account",\n"project_id": "{r.choice(PROJECTS)}",\n"private_key_id": "{_sha(r, 40)}",\n'
        f'"client_email": "etl@{r.choice(PROJECTS)}.iam.gserviceaccount.com"  (key itself removed from the note)'
    ),
    lambda r: (
        f"spec:\n  encryptedData:\n    password: AgB{rs(r, B64, 120)}{b64pad(r, 60)}\n"
        f"  template:\n    metadata:\n      name: {r.choice(PROJECTS)}-db"
    ),
    lambda r: f"KMS key id {uuid4(r)} in eu-central-1 encrypts the {r.choice(PROJECTS)} bucket (SSE-KMS)",
    lambda r: (
        f"Canvas developer key: client_id {r.choice(['10000000000', '17000000000'])}{r.randint(100, 999)} "
        f"(LTI 1.3, public), redirect https://lti.{r.choice(DOMAINS)}/launch"
    ),
    lambda r: (
        f"$ scontrol show job {r.randint(10**6, 10**7)}\n   JobState=RUNNING Reason=None\n   "
        f"WorkDir=/scratch/{r.choice(USERS)}/{r.choice(PROJECTS)}\n   StdOut=/scratch/slurm-%j.out"
    ),
]


def _lookalikes(r, seen):
    out = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 500:
                raise RuntimeError("look-alike generator cannot produce enough distinct texts")
            t = gen(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    pos = _positives(r, seen)
    look = _lookalikes(r, seen)
    return pos, look
