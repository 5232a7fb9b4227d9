"""Blind benchmark samples for the memory-store secret scanner (set "H").

``generate(seed)`` returns ``(positives, lookalikes)``:

* ``positives`` -- ``(text, kind, secret)`` triples.  ``secret`` is the
  sensitive value itself (never the variable name), an exact substring of
  ``text`` and at least 8 characters long.  Every text carries exactly one
  credential; identifiers that sit next to it (AWS access key IDs, account
  SIDs, user names, client IDs) are not counted as the secret.
* ``lookalikes`` -- texts that contain no credential at all, about half of
  them deliberately close to credential vocabulary.

Only the standard library is used and every random choice comes from
``random.Random(seed)``.  No token-shaped literal appears in this source:
vendor prefixes, key bodies and PEM armour lines are assembled at run time.

Edge-case decisions
-------------------
* License / activation keys for paid software count as credentials: they are
  bearer values that grant an entitlement and get revoked when they leak.
* Reversibly obfuscated passwords (Cisco type 7, VNC DES-obfuscated hex)
  count as credentials; one-way hashes (bcrypt, sha512-crypt, argon2,
  {SSHA}) do not.
* Signed URLs (S3 presigned, GCS signed, CloudFront, Azure SAS): the signature
  parameter is the secret.  Webhook payload signatures (X-Hub-Signature) and
  HMAC test vectors from RFCs are not secrets.
* Base64 of ``user:password`` (HTTP Basic, docker ``auth``), base64 values in
  a Kubernetes Secret ``data`` map and base64 keytabs count; the secret is
  the encoded string exactly as it appears.
* Webhook URLs whose path is the credential (Slack, Discord, Teams, Google
  Chat, Mattermost): the whole URL is the secret.
* Private keys: the whole armoured block is the secret, in the form it has in
  the text (JSON-escaped inside a service-account file, indented inside YAML).
  For PuTTY files the Private-Lines payload is the secret.
* Publishable / client-side identifiers (Stripe ``pk_`` keys, OAuth client
  IDs, Firebase project IDs, analytics client IDs) are not credentials.
  Google API keys pasted from mobile configs (google-services.json,
  GoogleService-Info.plist, manifests) *are* credentials.
* Encrypted blobs (SOPS, ansible-vault, age, SealedSecrets), secret-manager
  references, masked or redacted values, placeholders, empty values and
  vendor-documented example keys (AWS ``...EXAMPLE`` keys, the jwt.io sample
  token) are not credentials.
* Door / alarm codes and PINs only appear in forms of 8+ characters, because
  every secret here is at least 8 characters.
"""

from __future__ import annotations

import base64
import json
import random
import string
import struct
import uuid

__all__ = ["LOOKALIKE_TARGET", "PER_KIND", "generate"]

PER_KIND = 30
LOOKALIKE_TARGET = 800

_LOWER = string.ascii_lowercase
_UPPER = string.ascii_uppercase
_DIGITS = string.digits
_ALNUM = _LOWER + _UPPER + _DIGITS
_LOWNUM = _LOWER + _DIGITS
_UPNUM = _UPPER + _DIGITS
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_B64URL = _ALNUM + "-_"

_SYM = "!#%*-_.+=?"
_SYM_URL = "!*-_.~"
_SYM_SAFE = "-_.!"
_SYM_CSV = "!#%*-_.+=?@$"

_FIRST = (
    "anna",
    "ben",
    "carlos",
    "dmitri",
    "elena",
    "farah",
    "gustavo",
    "hiro",
    "ines",
    "jonas",
    "kasia",
    "liam",
    "mei",
    "nadia",
    "omar",
    "priya",
    "quentin",
    "rosa",
    "sven",
    "tomasz",
    "ugo",
    "valeria",
    "wei",
    "ximena",
    "yusuf",
    "zoe",
    "aiko",
    "bjorn",
    "chiara",
    "deepak",
    "emeka",
    "fatima",
    "greta",
    "hamid",
    "ivana",
    "jakub",
    "kofi",
    "lucia",
    "mateo",
    "noor",
)
_LAST = (
    "kowalski",
    "nguyen",
    "schmidt",
    "garcia",
    "okafor",
    "tanaka",
    "rossi",
    "dubois",
    "silva",
    "jensen",
    "novak",
    "haddad",
    "murphy",
    "ivanova",
    "kim",
    "patel",
    "lindqvist",
    "moreau",
    "fischer",
    "costa",
    "yamamoto",
    "oconnor",
    "mendes",
    "berg",
    "horvat",
    "chen",
    "abara",
    "weber",
)
_COMPANIES = (
    "acme",
    "northwind",
    "globex",
    "initech",
    "contoso",
    "fabrikam",
    "tailspin",
    "hooli",
    "vandelay",
    "umbrella",
    "wonka",
    "cyberdyne",
    "soylent",
    "oscorp",
    "piedpiper",
    "zenith",
    "bluebird",
    "kestrel",
    "lumen",
    "orchid",
    "halcyon",
    "brightwave",
    "ironbark",
    "nordlys",
)
_TLDS = ("internal", "corp", "lan", "example.com", "example.net", "intra", "local")
_ROLES = (
    "db",
    "pg",
    "mysql",
    "redis",
    "kafka",
    "mq",
    "ldap",
    "app",
    "web",
    "api",
    "etl",
    "ci",
    "build",
    "mon",
    "nas",
    "files",
    "edge",
    "jump",
    "bastion",
    "wiki",
    "git",
    "report",
)
_ENVS = ("prod", "staging", "dev", "qa", "uat", "preprod", "sandbox", "lab")
_PURPOSES = (
    "reporting",
    "backup",
    "etl",
    "deploy",
    "monitoring",
    "billing",
    "analytics",
    "sync",
    "ci",
    "airflow",
    "grafana",
    "jenkins",
    "batch",
    "audit",
    "export",
    "import",
)
_WORDS = (
    "falcon",
    "maple",
    "orbit",
    "copper",
    "tundra",
    "violet",
    "harbor",
    "pepper",
    "glacier",
    "saffron",
    "cobalt",
    "juniper",
    "meadow",
    "pixel",
    "quartz",
    "rocket",
    "sierra",
    "thunder",
    "walnut",
    "zephyr",
    "lantern",
    "marble",
    "nimbus",
    "otter",
    "pumpkin",
    "raven",
    "summit",
    "tango",
    "umber",
    "velvet",
    "kiwi",
    "mango",
    "ember",
    "drift",
    "lotus",
    "badger",
    "cactus",
    "dynamo",
    "fjord",
    "gecko",
    "hazel",
    "indigo",
    "jasper",
    "koala",
    "lemur",
    "mosaic",
    "nectar",
    "opal",
    "prism",
    "quill",
)
_SEASONS = ("Spring", "Summer", "Autumn", "Winter", "Fall", "Herbst", "Invierno")
_MONTHS = (
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
    "November",
    "December",
)
_REGIONS = (
    "us-east-1",
    "us-east-2",
    "us-west-2",
    "eu-west-1",
    "eu-central-1",
    "eu-north-1",
    "ap-southeast-2",
    "ap-northeast-1",
    "sa-east-1",
    "ca-central-1",
)
_CITIES = (
    "Lisbon",
    "Hamburg",
    "Lyon",
    "Krakow",
    "Osaka",
    "Austin",
    "Porto",
    "Utrecht",
    "Valencia",
    "Gdansk",
    "Leeds",
    "Turin",
    "Brno",
    "Nantes",
)
_DBNAMES = (
    "orders",
    "billing",
    "analytics",
    "inventory",
    "crm",
    "warehouse",
    "app",
    "reporting",
    "events",
    "users",
    "ledger",
    "catalog",
)
_REPOS = (
    "infra",
    "platform",
    "website",
    "api",
    "mobile-app",
    "data-pipelines",
    "terraform-modules",
    "helm-charts",
    "docs",
    "billing-service",
    "ml-models",
)


# ------------------------------------------------------------------ helpers


def _r(rng, alphabet, n):
    return "".join(rng.choice(alphabet) for _ in range(n))


def _rb(rng, n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def _b64(data):
    return base64.b64encode(data).decode("ascii")


def _b64u(data):
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _uuid(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _hex(rng, n):
    return _r(rng, _HEX, n)


def _digits(rng, n):
    return str(rng.randrange(1, 10)) + _r(rng, _DIGITS, n - 1)


def _name(rng):
    return rng.choice(_FIRST).capitalize()


def _full(rng):
    return _name(rng) + " " + rng.choice(_LAST).capitalize()


def _company(rng):
    return rng.choice(_COMPANIES)


def _domain(rng):
    return _company(rng) + "." + rng.choice(_TLDS)


def _fqdn(rng, role=None):
    role = role or rng.choice(_ROLES)
    k = rng.randrange(3)
    if k == 0:
        return f"{role}-{rng.randrange(1, 20):02d}.{rng.choice(_ENVS)}.{_domain(rng)}"
    if k == 1:
        return f"{role}{rng.randrange(1, 9)}.{_domain(rng)}"
    return f"{role}-{rng.choice(_ENVS)}-{rng.randrange(1, 5)}.{_domain(rng)}"


def _ip(rng):
    k = rng.randrange(3)
    if k == 0:
        return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    if k == 1:
        return f"192.168.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    return f"172.{rng.randrange(16, 32)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


def _host(rng, role=None):
    if rng.random() < 0.3:
        return _ip(rng)
    return _fqdn(rng, role)


def _user(rng):
    f = rng.choice(_FIRST)
    s = rng.choice(_LAST)
    p = rng.choice(_PURPOSES)
    return rng.choice((f + s[0], f"{f}.{s}", f"svc_{p}", f[0] + s, f, f"{p}-bot", f"{p}_user"))


def _date(rng):
    return f"{rng.randrange(2021, 2026)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"


def _ticket(rng):
    proj = rng.choice(("OPS", "INFRA", "SEC", "PLAT", "DATA", "IT", "NET", "DEV"))
    return f"{proj}-{rng.randrange(100, 9999)}"


def _bucket(rng):
    kind = rng.choice(("backups", "assets", "logs", "exports", "artifacts", "uploads"))
    return f"{_company(rng)}-{rng.choice(_ENVS)}-{kind}"


def _pw(rng, symbols=_SYM, minlen=8):
    """A password the way people actually pick them."""
    style = rng.randrange(8)
    sym = rng.choice(symbols) if symbols else ""
    common = [c for c in "!#.?_-@$" if c in symbols]
    nice = rng.choice(common) if common else sym
    if style == 0:
        pw = rng.choice(_WORDS).capitalize() + sym + str(rng.randrange(10, 9999))
    elif style == 1:
        pw = _r(rng, _ALNUM + symbols, rng.randint(12, 22))
        cut = rng.randrange(len(pw))
        pw = pw[:cut] + rng.choice(_DIGITS) + pw[cut:]
    elif style == 2:
        seps = [c for c in "-_." if c in symbols]
        words = [rng.choice(_WORDS) for _ in range(rng.randint(3, 4))]
        if seps:
            pw = rng.choice(seps).join(words) + str(rng.randrange(10, 99))
        else:
            pw = "".join(w.capitalize() for w in words) + str(rng.randrange(10, 99))
    elif style == 3:
        leet = {"a": "4", "e": "3", "o": "0", "i": "1"}
        if "$" in symbols:
            leet["s"] = "$"
        word = rng.choice(_WORDS) + rng.choice(_WORDS)
        word = "".join(leet.get(c, c) if rng.random() < 0.7 else c for c in word)
        pw = word[0].upper() + word[1:] + sym + str(rng.randrange(10, 99))
    elif style == 4:
        pw = rng.choice(_SEASONS) + str(rng.randrange(2019, 2026)) + rng.choice((nice, nice, ""))
    elif style == 5:
        pw = _r(rng, _ALNUM, rng.randint(16, 32))
    elif style == 6:
        pw = _name(rng) + str(rng.randrange(1960, 2020)) + nice + rng.choice(_WORDS)[:3]
    else:
        pw = _r(rng, _LOWER, 4) + sym + _r(rng, _UPPER + _DIGITS, 5) + _r(rng, _LOWER, 3)
    while len(pw) < minlen:
        pw += rng.choice(_DIGITS)
    return pw


def _dash():
    return "-" * 5


def _armor(label, data, width=64):
    body = _b64(data)
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    d = _dash()
    return f"{d}BEGIN {label}{d}\n" + "\n".join(lines) + f"\n{d}END {label}{d}"


def _ssh_str(data):
    return struct.pack(">I", len(data)) + data


def _ed25519_pub_blob(rng):
    return _ssh_str(b"ssh-ed25519") + _ssh_str(_rb(rng, 32))


def _priv_key(rng):
    k = rng.randrange(5)
    if k == 0:
        der = bytes.fromhex("308204a40201000282010100") + _rb(rng, 1192 - 12)
        return _armor("RSA " + "PRIVATE KEY", der)
    if k == 1:
        head = "308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100"
        der = bytes.fromhex(head) + _rb(rng, 1218 - 38)
        return _armor("PRIVATE " + "KEY", der)
    if k == 2:
        der = (
            bytes.fromhex("30770201010420")
            + _rb(rng, 32)
            + bytes.fromhex("a00a06082a8648ce3d030107a14403420004")
            + _rb(rng, 64)
        )
        return _armor("EC " + "PRIVATE KEY", der)
    pub = _rb(rng, 32)
    comment = f"{rng.choice(_FIRST)}@{rng.choice(_ROLES)}{rng.randrange(1, 9)}".encode()
    pubblob = _ssh_str(b"ssh-ed25519") + _ssh_str(pub)
    chk = _rb(rng, 4)
    priv = chk + chk + _ssh_str(b"ssh-ed25519") + _ssh_str(pub) + _ssh_str(_rb(rng, 32) + pub) + _ssh_str(comment)
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    der = (
        b"openssh-key-v1\x00"
        + _ssh_str(b"none")
        + _ssh_str(b"none")
        + _ssh_str(b"")
        + struct.pack(">I", 1)
        + _ssh_str(pubblob)
        + _ssh_str(priv)
    )
    return _armor("OPENSSH " + "PRIVATE KEY", der, 70)


def _jwt(rng, alg="HS256", payload=None, kid=False):
    header = {"alg": alg, "typ": "JWT"}
    if kid:
        header["kid"] = _b64u(_rb(rng, 16))
    now = rng.randrange(1690000000, 1740000000)
    if payload is None:
        payload = {
            "sub": str(rng.randrange(1000, 999999)),
            "name": _full(rng),
            "role": rng.choice(("admin", "user", "service", "editor", "support")),
            "iat": now,
            "exp": now + rng.choice((900, 3600, 86400, 604800)),
        }
    siglen = 32 if alg.startswith("HS") else 256
    head = _b64u(json.dumps(header, separators=(",", ":")).encode())
    body = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{_b64u(_rb(rng, siglen))}"


def _keytab(rng, principal, realm):
    def counted(text):
        raw = text.encode()
        return struct.pack(">H", len(raw)) + raw

    comps = principal.split("/")
    stamp = rng.randrange(1600000000, 1735000000)
    kvno = rng.randrange(1, 6)
    out = b"\x05\x02"
    for enctype, klen in ((18, 32), (17, 16), (23, 16))[: rng.randint(1, 3)]:
        entry = struct.pack(">H", len(comps)) + counted(realm)
        entry += b"".join(counted(c) for c in comps)
        entry += struct.pack(">IIBHH", 1, stamp, kvno, enctype, klen) + _rb(rng, klen)
        entry += struct.pack(">I", kvno)
        out += struct.pack(">i", len(entry)) + entry
    return _b64(out)


_CISCO7 = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"


def _cisco7(rng, plain):
    start = rng.randrange(16)
    out = f"{start:02d}"
    for i, ch in enumerate(plain):
        out += f"{ord(ch) ^ ord(_CISCO7[(start + i) % len(_CISCO7)]):02X}"
    return out


# ----------------------------------------------------------------- wrappers

_POS_INTROS = (
    "Config from {host}, saving it here so I stop digging for it:",
    "Snippet from the {env} box ({date}).",
    "Copied from {name}'s handover notes:",
    "Konfiguration von {host}:",
    "Config récupérée sur {host} :",
    "Configuración de {host}:",
    "{host} の設定メモ:",
    "Konfiguracja z {host}:",
    "Working setup as of {date}:",
    "This is what finally worked on {host}:",
    "Memory: {env} setup for {ticket}",
    "Pasted from the runbook ({date})",
    "Quick note for future me re {ticket}:",
    "Context: migrating {host} to the new cluster.",
    "Werkende config van {host}:",
)
_PROSE_INTROS = (
    "Note to self:",
    "From Slack, {date}:",
    "Memory ({env}):",
    "{name} wrote:",
    "Notiz:",
    "Remarque :",
    "Nota:",
    "メモ:",
    "Re {ticket}:",
    "Forwarded by {name}:",
)
_POS_TRAILERS = (
    "TODO: move this into the vault.",
    "Rotate after the {month} migration.",
    "Ask {name} before changing anything here.",
    "Worked on first try.",
    "Do not commit this file.",
    "(temporary, expires end of sprint)",
    "Vorläufig – bitte nicht weitergeben.",
    "À changer après la mise en prod.",
    "Hay que rotarla cuando terminemos.",
    "後でローテーションすること。",
    "Verified on {date} by {name}.",
    "See {ticket}.",
    "Not sure if this is also in the team vault, check with {name}.",
    "",
)
_NEU_INTROS = (
    "Notes from {date}:",
    "Saved for later ({ticket}).",
    "From {name}'s handover doc:",
    "Notizen vom {date}:",
    "Notes du {date} :",
    "Notas del {date}:",
    "{date} のメモ:",
    "Context for {ticket}:",
    "Memory: {env} cleanup",
    "Pasted from the runbook ({date})",
    "Quick note for future me:",
    "Aantekening van {name}:",
)
_NEU_TRAILERS = (
    "Worked on first try.",
    "Verified on {date} by {name}.",
    "See {ticket}.",
    "Follow-up in {ticket}.",
    "Nichts weiter zu tun.",
    "Rien d'autre à signaler.",
    "Nada más por ahora.",
    "以上。",
    "",
)
_COMMITS = (
    "wip: local config",
    "chore: update {env} settings",
    "fix: point {env} at {host}",
    "ops: snapshot of {host} config",
    "docs: add setup notes for {ticket}",
)
_HEADINGS = (
    "Setup",
    "Config",
    "Einrichtung",
    "Notes",
    "Konfiguracja",
    "設定",
    "Réglages",
    "How-to",
)


def _fmt(rng, tmpl):
    return tmpl.format(
        host=_host(rng),
        env=rng.choice(_ENVS),
        date=_date(rng),
        name=_name(rng),
        month=rng.choice(_MONTHS),
        ticket=_ticket(rng),
    )


def _wrap(rng, body, lang, positive):
    prose = lang in (None, "prose")
    if prose:
        intros = _PROSE_INTROS if positive else _NEU_INTROS
    else:
        intros = _POS_INTROS if positive else _NEU_INTROS
    trailers = _POS_TRAILERS if positive else _NEU_TRAILERS
    single = "\n" not in body
    modes = ["plain", "plain", "plain", "intro", "trailer", "both"]
    if not prose:
        modes += ["fence", "fence", "heading", "commit"]
    if single:
        modes += ["chat", "bullet"]
    mode = rng.choice(modes)
    intro = _fmt(rng, rng.choice(intros))
    trailer = _fmt(rng, rng.choice(trailers))
    if mode == "plain":
        return body
    if mode == "intro":
        sep = " " if single and rng.random() < 0.5 else "\n"
        return intro + sep + body
    if mode == "trailer":
        sep = rng.choice(("\n\n", "\n", " ")) if single and prose else rng.choice(("\n\n", "\n"))
        return (body + sep + trailer).rstrip()
    if mode == "both":
        return (intro + "\n" + body + "\n" + trailer).rstrip()
    if mode == "fence":
        out = intro + "\n\n```" + (lang or "") + "\n" + body + "\n```"
        if rng.random() < 0.5 and trailer:
            out += "\n" + trailer
        return out
    if mode == "heading":
        return "## " + rng.choice(_HEADINGS) + "\n\n" + body
    if mode == "commit":
        return _fmt(rng, rng.choice(_COMMITS)) + "\n\n" + body
    if mode == "chat":
        who = _name(rng)
        hhmm = f"{rng.randrange(7, 21):02d}:{rng.randrange(60):02d}"
        pattern = rng.choice(("[{t}] {n}: {b}", "{n} ({t}): {b}", "<{n}> {b}", "{n}: {b}"))
        return pattern.format(t=hhmm, n=who, b=body)
    return rng.choice(("- ", "* ", "• ")) + body


# -------------------------------------------------------------------- kinds
# Every kind function returns (body, secret, lang); lang "prose" marks text
# that must not be put into a code fence.


def _k_aws(rng):
    akid = "AK" + "IA" + _r(rng, _UPPER + "234567", 16)
    sec = _r(rng, _ALNUM + "/+", 40)
    prof = rng.choice(("default", "prod", "ci", "backup", "terraform", _company(rng)))
    region = rng.choice(_REGIONS)
    bucket = _bucket(rng)
    iam = rng.choice(
        (
            "ci-deployer",
            "backup-writer",
            "terraform",
            "s3-sync",
            "athena-reader",
            "ses-sender",
        )
    )
    remote = bucket.split("-")[0] + "-s3"
    opts = [
        (
            f"[{prof}]\naws_access_key_id = {akid}\naws_secret_access_key = {sec}\nregion = {region}",
            "ini",
        ),
        (
            (
                f"export AWS_ACCESS_KEY_ID={akid}\nexport AWS_SECRET_ACCESS_KEY={sec}\n"
                f"export AWS_DEFAULT_REGION={region}\naws s3 ls s3://{bucket}/"
            ),
            "bash",
        ),
        (
            (
                f's3 = boto3.client(\n    "s3",\n    region_name="{region}",\n    aws_access_key_id="{akid}",\n'
                f'    aws_secret_access_key="{sec}",\n)\ns3.upload_file("report.csv", "{bucket}", "daily/report.csv")'
            ),
            "python",
        ),
        (
            f'provider "aws" {{\n  region     = "{region}"\n  access_key = "{akid}"\n  secret_key = "{sec}"\n}}',
            "hcl",
        ),
        (
            (
                f"docker run --rm -e AWS_ACCESS_KEY_ID={akid} -e AWS_SECRET_ACCESS_KEY='{sec}' "
                f"amazon/aws-cli s3 ls s3://{bucket}"
            ),
            "bash",
        ),
        (
            (
                f"$ aws configure --profile {prof}\nAWS Access Key ID [None]: {akid}\n"
                f"AWS Secret Access Key [None]: {sec}\nDefault region name [None]: {region}\n"
                "Default output format [None]: json"
            ),
            "text",
        ),
        (
            json.dumps(
                {
                    "AWS": {
                        "Region": region,
                        "AccessKey": akid,
                        "SecretKey": sec,
                        "BucketName": bucket,
                    }
                },
                indent=2,
            ),
            "json",
        ),
        (
            (
                f"[{remote}]\ntype = s3\nprovider = AWS\naccess_key_id = {akid}\nsecret_access_key = {sec}\n"
                f"region = {region}\nacl = private"
            ),
            "ini",
        ),
        (
            f"IAM user {iam}: key id {akid}, secret {sec} (created {_date(rng)}, only has access to {bucket})",
            "prose",
        ),
        (f"Access key ID,Secret access key\n{akid},{sec}", "csv"),
        (
            (
                f"[default]\naccess_key = {akid}\nsecret_key = {sec}\nhost_base = s3.amazonaws.com\n"
                f"bucket_location = {region}\nuse_https = True"
            ),
            "ini",
        ),
        (
            f"{sec}\n^ secret key for {iam} (id {akid}, {region}). Used by the nightly sync only.",
            "prose",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, sec, lang


def _gh_token(rng):
    k = rng.randrange(6)
    if k == 0:
        return "github" + "_pat_" + _r(rng, _ALNUM, 22) + "_" + _r(rng, _ALNUM, 59)
    if k == 1:
        return "gh" + "o_" + _r(rng, _ALNUM, 36)
    if k == 2:
        return "gh" + "s_" + _r(rng, _ALNUM, 36)
    return "gh" + "p_" + _r(rng, _ALNUM, 36)


def _k_git(rng):
    org = _company(rng)
    repo = rng.choice(_REPOS)
    user = _user(rng)
    gh = _gh_token(rng)
    glp = "gl" + "pat-" + _r(rng, _B64URL, 20)
    glrt = "gl" + "rt-" + _r(rng, _B64URL, 20)
    gldt = "gl" + "dt-" + _r(rng, _B64URL, 20)
    ado = _r(rng, _LOWER + "234567", 52)
    atbb = "AT" + "BB" + _r(rng, _ALNUM, 24) + _r(rng, _UPNUM, 8)
    gitea = _hex(rng, 40)
    gl_host = "gitlab." + _domain(rng)
    opts = [
        (
            f"git remote set-url origin https://x-access-token:{gh}@github.com/{org}/{repo}.git",
            gh,
            "bash",
        ),
        (
            f"@{org}:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken={gh}",
            gh,
            "ini",
        ),
        (
            f"export GITHUB_TOKEN={gh}\ngh pr list --repo {org}/{repo} --state open",
            gh,
            "bash",
        ),
        (
            (
                f'curl -s -H "Authorization: token {gh}" '
                f'"https://api.github.com/repos/{org}/{repo}/actions/runs?per_page=5" | jq ".workflow_runs[].status"'
            ),
            gh,
            "bash",
        ),
        (
            f'curl --header "PRIVATE-TOKEN: {glp}" "https://{gl_host}/api/v4/projects?membership=true&per_page=100"',
            glp,
            "bash",
        ),
        (
            (
                f'[[runners]]\n  name = "{repo}-runner-{rng.randrange(1, 9)}"\n  url = "https://{gl_host}/"\n'
                f'  token = "{glrt}"\n  executor = "docker"\n  [runners.docker]\n    image = "alpine:3.19"'
            ),
            glrt,
            "toml",
        ),
        (f"https://{user}:{gh}@github.com", gh, "text"),
        (
            f"module.exports = {{\n  platform: 'github',\n  token: '{gh}',\n  repositories: ['{org}/{repo}'],\n}};",
            gh,
            "js",
        ),
        (
            f"git clone https://build:{ado}@dev.azure.com/{org}/{repo}/_git/{repo}",
            ado,
            "bash",
        ),
        (
            f"curl -u {user}:{atbb} https://api.bitbucket.org/2.0/repositories/{org}/{repo}/pullrequests",
            atbb,
            "bash",
        ),
        (
            (
                f'git config --global url."https://{gh}@github.com/{org}/".insteadOf "https://github.com/{org}/"\n'
                f"export GOPRIVATE=github.com/{org}/*"
            ),
            gh,
            "bash",
        ),
        (
            f"logins:\n- name: {org}\n  url: https://git.{_domain(rng)}\n  token: {gitea}\n  default: true\n  user: {user}",
            gitea,
            "yaml",
        ),
        (
            f"git push https://gitlab+deploy-token-{rng.randrange(10, 999)}:{gldt}@{gl_host}/{org}/{repo}.git HEAD:main",
            gldt,
            "bash",
        ),
        (f'provider "github" {{\n  owner = "{org}"\n  token = "{gh}"\n}}', gh, "hcl"),
        (f"PAT for the release bot (expires {_date(rng)}): {gh}", gh, "prose"),
        (
            f"gitlab token for the renovate job is {glp} - it has api scope, handle with care",
            glp,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_chat(rng):
    xb = "xo" + "xb-" + _digits(rng, rng.randint(11, 13)) + "-" + _digits(rng, 13) + "-" + _r(rng, _ALNUM, 24)
    xp = "xo" + "xp-" + _digits(rng, 11) + "-" + _digits(rng, 11) + "-" + _digits(rng, 13) + "-" + _hex(rng, 32)
    xa = "xa" + "pp-1-A" + _r(rng, _UPNUM, 10) + "-" + _digits(rng, 13) + "-" + _hex(rng, 64)
    tg = _digits(rng, rng.choice((9, 10))) + ":AA" + _r(rng, _B64URL, 33)
    dc = _b64u(_digits(rng, 18).encode()) + "." + _r(rng, _B64URL, 6) + "." + _r(rng, _B64URL, 38)
    mm = _r(rng, _LOWNUM, 26)
    chan = "#" + rng.choice(("deploys", "alerts", "ops", "release", "oncall", "builds", "standup"))
    chat_id = "-100" + _digits(rng, 10)
    bot = rng.choice(("deploy", "alert", "standup", "build", "kiosk", "oncall")) + "-bot"
    tg_user = f"{_company(rng)}_{rng.choice(_WORDS)}_bot"
    cid = "C" + _r(rng, _UPNUM, 10)
    opts = [
        (f"SLACK_BOT_TOKEN={xb}\nSLACK_CHANNEL={chan}\nLOG_LEVEL=info", xb, "ini"),
        (
            (
                f'from slack_sdk import WebClient\n\nclient = WebClient(token="{xb}")\n'
                f'client.chat_postMessage(channel="{chan}", text="Deploy finished")'
            ),
            xb,
            "python",
        ),
        (
            f'curl -s -H "Authorization: Bearer {xp}" "https://slack.com/api/conversations.history?channel={cid}&limit=20"',
            xp,
            "bash",
        ),
        (
            f'slack:\n  appToken: {xa}\n  socketMode: true\n  channel: "{chan}"',
            xa,
            "yaml",
        ),
        (
            f'curl -s "https://api.telegram.org/bot{tg}/sendMessage" -d chat_id={chat_id} -d text="backup finished"',
            tg,
            "bash",
        ),
        (
            (
                f"services:\n  {bot}:\n    image: ghcr.io/{_company(rng)}/{bot}:latest\n    environment:\n"
                f'      TELEGRAM_BOT_TOKEN: "{tg}"\n      TELEGRAM_CHAT_ID: "{chat_id}"'
            ),
            tg,
            "yaml",
        ),
        (
            (
                f"Done! Congratulations on your new bot. You will find it at t.me/{tg_user}. "
                "You can now add a description, about section and profile picture for your bot.\n\n"
                f"Use this token to access the HTTP API:\n{tg}\n"
                "Keep your token secure and store it safely, it can be used by anyone to control your bot."
            ),
            tg,
            "prose",
        ),
        (
            (
                "intents = discord.Intents.default()\nintents.message_content = True\n"
                f'client = discord.Client(intents=intents)\n\n# ...\n\nclient.run("{dc}")'
            ),
            dc,
            "python",
        ),
        (f"DISCORD_TOKEN={dc}\nGUILD_ID={_digits(rng, 18)}\nPREFIX=!", dc, "ini"),
        (
            (
                f"mmctl auth login https://chat.{_domain(rng)} --name {_company(rng)} "
                f"--username {_user(rng)} --access-token {mm}"
            ),
            mm,
            "bash",
        ),
        (
            (
                f"[Service]\nUser=hubot\nEnvironment=HUBOT_SLACK_TOKEN={xb}\n"
                "ExecStart=/opt/hubot/bin/hubot --adapter slack\nRestart=always"
            ),
            xb,
            "ini",
        ),
        (
            f"the slack user token for the export script is {xp} (it's mine, so please don't share it)",
            xp,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_webhook(rng):
    k = rng.randrange(5)
    if k == 0:
        url = (
            "https://hooks."
            + "slack.com/services/T"
            + _r(rng, _UPNUM, rng.randint(8, 10))
            + "/B"
            + _r(rng, _UPNUM, rng.randint(8, 10))
            + "/"
            + _r(rng, _ALNUM, 24)
        )
        am = f"slack_configs:\n  - api_url: {url}\n    channel: '#alerts'\n    send_resolved: true"
        gtype = "slack"
    elif k == 1:
        url = "https://discord.com/api/web" + "hooks/" + _digits(rng, 19) + "/" + _r(rng, _B64URL, 68)
        am = f"discord_configs:\n  - webhook_url: {url}"
        gtype = "discord"
    elif k == 2:
        url = (
            f"https://{_company(rng)}.webhook.office.com/webhookb2/{_uuid(rng)}@{_uuid(rng)}"
            f"/IncomingWebhook/{_hex(rng, 32)}/{_uuid(rng)}"
        )
        am = f"msteams_configs:\n  - webhook_url: {url}"
        gtype = "teams"
    elif k == 3:
        url = (
            "https://chat.googleapis.com/v1/spaces/AAAA"
            + _r(rng, _ALNUM, 7)
            + "/messages?key="
            + "AI"
            + "za"
            + _r(rng, _B64URL, 35)
            + "&token="
            + _r(rng, _B64URL, 43)
            + "%3D"
        )
        am = f"webhook_configs:\n  - url: '{url}'"
        gtype = "googlechat"
    else:
        url = f"https://chat.{_domain(rng)}/hooks/{_r(rng, _LOWNUM, 26)}"
        am = f"webhook_configs:\n  - url: {url}"
        gtype = "webhook"
    msg = rng.choice(
        (
            "deploy finished",
            "backup failed on db02",
            "nightly build is green",
            "disk > 90% on nas01",
        )
    )
    team = rng.choice(("platform", "data", "sre", "payments", "mobile"))
    indented_am = "\n".join("  " + line for line in am.splitlines())
    opts = [
        (
            f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"{msg}\"}}' {url}",
            "bash",
        ),
        (f"receivers:\n- name: {team}-oncall\n{indented_am}", "yaml"),
        (
            f'requests.post(\n    "{url}",\n    json={{"text": "{msg}"}},\n    timeout=10,\n)',
            "python",
        ),
        (
            f"env:\n  NOTIFY_WEBHOOK: {url}\nsteps:\n  - run: ./scripts/notify.sh",
            "yaml",
        ),
        (f"webhook for the #{team}-alerts channel: {url}", "prose"),
        (f'ALERT_WEBHOOK="{url}"', "bash"),
        (
            (
                f"apiVersion: 1\ncontactPoints:\n  - orgId: 1\n    name: {team}\n    receivers:\n"
                f"      - uid: {team}-{rng.randrange(1, 9)}\n        type: {gtype}\n        settings:\n"
                f"          url: {url}"
            ),
            "yaml",
        ),
        (
            f"{url}\n\nthat's the incoming webhook for {team}, anyone with it can post to the channel",
            "prose",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, url, lang


def _k_payment(rng):
    sk = "sk" + "_live_" + _r(rng, _ALNUM, rng.choice((24, 99)))
    rk = "rk" + "_live_" + _r(rng, _ALNUM, rng.choice((24, 99)))
    wh = "wh" + "sec_" + _r(rng, _ALNUM, 32)
    adyen = "AQ" + "E" + _r(rng, _ALNUM, 45) + "=-" + _r(rng, _B64, 44) + "=-" + _r(rng, _ALNUM + "<>()", 16)
    sq = "EA" + "AA" + _r(rng, _B64URL, 60)
    bt = "access_token" + "$production$" + _r(rng, _LOWNUM, 16) + "$" + _hex(rng, 32)
    pp_id = "A" + _r(rng, _B64URL, 79)
    pp_sec = "E" + _r(rng, _B64URL, 79)
    rz_id = "rzp" + "_live_" + _r(rng, _ALNUM, 14)
    rz_sec = _r(rng, _ALNUM, 24)
    mollie = "live" + "_" + _r(rng, _ALNUM, 30)
    sumup = "sup" + "_sk_" + _r(rng, _ALNUM, 32)
    term = _digits(rng, 8)
    merchant = _company(rng).capitalize() + rng.choice(("ECOM", "POS", "Online"))
    city = rng.choice(_CITIES)
    opts = [
        (
            f"STRIPE_SECRET_KEY={sk}\nSTRIPE_CURRENCY=eur\nCHECKOUT_SUCCESS_URL=https://shop.{_domain(rng)}/thanks",
            sk,
            "ini",
        ),
        (
            f'import stripe\n\nstripe.api_key = "{sk}"\ncustomer = stripe.Customer.retrieve("cus_{_r(rng, _ALNUM, 14)}")',
            sk,
            "python",
        ),
        (
            f"const stripe = require('stripe')('{rk}');\nconst refunds = await stripe.refunds.list({{ limit: 10 }});",
            rk,
            "js",
        ),
        (f"STRIPE_WEBHOOK_SECRET={wh}", wh, "ini"),
        (f"curl https://api.stripe.com/v1/balance -u {sk}:", sk, "bash"),
        (
            f"ADYEN_API_KEY={adyen}\nADYEN_MERCHANT_ACCOUNT={merchant}\nADYEN_ENVIRONMENT=LIVE",
            adyen,
            "ini",
        ),
        (
            f'client = Client(\n    access_token="{sq}",\n    environment="production",\n)\nresult = client.locations.list_locations()',
            sq,
            "python",
        ),
        (f'gateway = braintree.BraintreeGateway(access_token="{bt}")', bt, "python"),
        (
            f"PAYPAL_MODE=live\nPAYPAL_CLIENT_ID={pp_id}\nPAYPAL_CLIENT_SECRET={pp_sec}",
            pp_sec,
            "ini",
        ),
        (f'client = razorpay.Client(auth=("{rz_id}", "{rz_sec}"))', rz_sec, "python"),
        (
            f'$mollie = new \\Mollie\\Api\\MollieApiClient();\n$mollie->setApiKey("{mollie}");',
            mollie,
            "php",
        ),
        (
            f'curl -H "Authorization: Bearer {sumup}" https://api.sumup.com/v0.1/me/transactions/history?limit=20',
            sumup,
            "bash",
        ),
        (
            (
                f"Supervisor password for the card terminal at the {city} store (Verifone V400m): {term}. "
                "Needed for refunds above 200 EUR and for the end-of-day reset."
            ),
            term,
            "prose",
        ),
        (
            f"{term} is the merchant menu password on the {city} till, {_name(rng)} asked me to keep it somewhere",
            term,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_google(rng):
    key = "AI" + "za" + _r(rng, _B64URL, 35)
    fcm = "AA" + "AA" + _r(rng, _B64URL, 7) + ":APA91b" + _r(rng, _B64URL, 134)
    comp = _company(rng)
    app = rng.choice(("shop", "rider", "wallet", "field", "fitness", "tickets"))
    pkg = f"com.{comp}.{app}"
    proj_num = _digits(rng, 12)
    proj_id = f"{comp}-{app}-{rng.randrange(1000, 99999)}"
    services = {
        "project_info": {
            "project_number": proj_num,
            "project_id": proj_id,
            "storage_bucket": f"{proj_id}.appspot.com",
        },
        "client": [
            {
                "client_info": {
                    "mobilesdk_app_id": f"1:{proj_num}:android:{_hex(rng, 16)}",
                    "android_client_info": {"package_name": pkg},
                },
                "api_key": [{"current_key": key}],
            }
        ],
        "configuration_version": "1",
    }
    addr = rng.choice(
        (
            "Rua+Augusta+10,Lisboa",
            "Reeperbahn+1,Hamburg",
            "1600+Amphitheatre+Pkwy",
            "Plac+Zamkowy+4,Warszawa",
        )
    )
    opts = [
        (json.dumps(services, indent=2), key, "json"),
        (
            (
                f"<key>API_KEY</key>\n<string>{key}</string>\n<key>GCM_SENDER_ID</key>\n<string>{proj_num}</string>\n"
                f"<key>BUNDLE_ID</key>\n<string>{pkg}</string>\n<key>PROJECT_ID</key>\n<string>{proj_id}</string>"
            ),
            key,
            "xml",
        ),
        (
            (f'<meta-data\n    android:name="com.google.android.geo.API_KEY"\n    android:value="{key}" />'),
            key,
            "xml",
        ),
        (
            f'<script async src="https://maps.googleapis.com/maps/api/js?key={key}&callback=initMap"></script>',
            key,
            "html",
        ),
        (
            f"MAPS_API_KEY={key}\nsdk.dir=/Users/{rng.choice(_FIRST)}/Library/Android/sdk",
            key,
            "properties",
        ),
        (
            f'curl "https://maps.googleapis.com/maps/api/geocode/json?address={addr}&key={key}"',
            key,
            "bash",
        ),
        (
            (
                f'curl -X POST https://fcm.googleapis.com/fcm/send -H "Authorization: key={fcm}" '
                '-H "Content-Type: application/json" -d \'{"to": "/topics/news", "notification": {"title": "Hi"}}\''
            ),
            fcm,
            "bash",
        ),
        (
            (
                "static const FirebaseOptions android = FirebaseOptions(\n"
                f"  apiKey: '{key}',\n  appId: '1:{proj_num}:android:{_hex(rng, 16)}',\n"
                f"  messagingSenderId: '{proj_num}',\n  projectId: '{proj_id}',\n);"
            ),
            key,
            "dart",
        ),
        (f'youtube = build("youtube", "v3", developerKey="{key}")', key, "python"),
        (
            f"server key for FCM (legacy API, still used by the old backend): {fcm}",
            fcm,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_ai(rng):
    oai = "sk-" + "proj-" + _r(rng, _B64URL, 74) + _b64(b"OpenAI") + _r(rng, _B64URL, 74)
    oai_old = "sk-" + _r(rng, _ALNUM, 20) + _b64(b"OpenAI") + _r(rng, _ALNUM, 20)
    ant = "sk-" + "ant-" + "api03-" + _r(rng, _B64URL, 93) + "AA"
    hf = "h" + "f_" + _r(rng, _UPPER + _LOWER, 34)
    rep = "r8" + "_" + _r(rng, _ALNUM, 37)
    groq = "gs" + "k_" + _r(rng, _ALNUM, 52)
    mistral = _r(rng, _ALNUM, 32)
    pplx = "pplx" + "-" + _r(rng, _ALNUM, 48)
    model = rng.choice(("gpt-4o-mini", "gpt-4.1", "o3-mini"))
    cmodel = rng.choice(
        (
            "claude-3-5-sonnet-latest",
            "claude-3-haiku-20240307",
            "claude-sonnet-4-20250514",
        )
    )
    opts = [
        (f"OPENAI_API_KEY={oai}\nOPENAI_MODEL={model}", oai, "ini"),
        (
            f'from openai import OpenAI\n\nclient = OpenAI(api_key="{oai_old}")',
            oai_old,
            "python",
        ),
        (
            (
                f'curl https://api.anthropic.com/v1/messages \\\n  -H "x-api-key: {ant}" \\\n'
                '  -H "anthropic-version: 2023-06-01" \\\n  -H "content-type: application/json" \\\n'
                f'  -d \'{{"model": "{cmodel}", "max_tokens": 256, "messages": [{{"role": "user", "content": "ping"}}]}}\''
            ),
            ant,
            "bash",
        ),
        (f"export ANTHROPIC_API_KEY={ant}", ant, "bash"),
        (f"huggingface-cli login --token {hf}", hf, "bash"),
        (f"HF_TOKEN={hf}\nTRANSFORMERS_CACHE=/data/hf-cache", hf, "ini"),
        (f"REPLICATE_API_TOKEN={rep}", rep, "ini"),
        (f'client = Groq(api_key="{groq}")', groq, "python"),
        (
            json.dumps(
                {
                    "models": [
                        {
                            "title": "Mistral",
                            "provider": "mistral",
                            "model": "codestral-latest",
                            "apiKey": mistral,
                        }
                    ]
                },
                indent=2,
            ),
            mistral,
            "json",
        ),
        (
            f'llm = ChatOpenAI(model="{model}", temperature=0, openai_api_key="{oai}")',
            oai,
            "python",
        ),
        (f"model: {model}\nopenai-api-key: {oai}\nauto-commits: false", oai, "yaml"),
        (
            f'const pplx = new OpenAI({{ apiKey: "{pplx}", baseURL: "https://api.perplexity.ai" }});',
            pplx,
            "js",
        ),
        (
            f"the team anthropic key is {ant}, billing goes to the R&D cost centre",
            ant,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_pkg(rng):
    npm = "np" + "m_" + _r(rng, _ALNUM, 36)
    pypi = "py" + "pi-" + "AgEI" + "cHlwaS5vcmc" + _r(rng, _B64URL, rng.randint(120, 160))
    nuget = "oy" + "2" + _r(rng, _LOWNUM, 43)
    gem = "ruby" + "gems_" + _hex(rng, 48)
    cargo = "ci" + "o" + _r(rng, _ALNUM, 32)
    jfrog = "AK" + "Cp" + _r(rng, _ALNUM, 69)
    maven_pw = _pw(rng, "!#%*-_.+=?")
    comp = _company(rng)
    pkg = rng.choice(("ui-kit", "eslint-config", "core-utils", "design-tokens", "sdk"))
    opts = [
        (
            f"//registry.npmjs.org/:_authToken={npm}\n@{comp}:registry=https://registry.npmjs.org/",
            npm,
            "ini",
        ),
        (
            f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {pypi}",
            pypi,
            "ini",
        ),
        (f"twine upload -u __token__ -p {pypi} dist/*", pypi, "bash"),
        (
            (
                f"dotnet nuget push bin/Release/{comp.capitalize()}.Core.1.4.2.nupkg --api-key {nuget} "
                "--source https://api.nuget.org/v3/index.json"
            ),
            nuget,
            "bash",
        ),
        (f"---\n:rubygems_api_key: {gem}", gem, "yaml"),
        (f'[registry]\ntoken = "{cargo}"', cargo, "toml"),
        (f"poetry config pypi-token.pypi {pypi}", pypi, "bash"),
        (
            f'npmRegistryServer: "https://registry.npmjs.org"\nnpmAuthToken: "{npm}"',
            npm,
            "yaml",
        ),
        (
            (
                f"<settings>\n  <servers>\n    <server>\n      <id>{comp}-releases</id>\n      <username>deployer</username>\n"
                f"      <password>{maven_pw}</password>\n    </server>\n  </servers>\n</settings>"
            ),
            maven_pw,
            "xml",
        ),
        (
            (
                f"artifactory_user=ci-publisher\nartifactory_password={jfrog}\n"
                f"artifactory_contextUrl=https://{comp}.jfrog.io/artifactory"
            ),
            jfrog,
            "properties",
        ),
        (
            f"npm publish token for @{comp}/{pkg} (automation type, bypasses 2FA): {npm}",
            npm,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_email(rng):
    sg = "S" + "G." + _r(rng, _B64URL, 22) + "." + _r(rng, _B64URL, 43)
    mg = "key" + "-" + _hex(rng, 32)
    pm = _uuid(rng)
    tw_sid = "AC" + _hex(rng, 32)
    tw_tok = _hex(rng, 32)
    mc = _hex(rng, 32) + "-us" + str(rng.randrange(1, 21))
    ses_user = "AK" + "IA" + _r(rng, _UPPER + "234567", 16)
    ses_pw = "B" + _r(rng, _ALNUM + "/+", 43)
    brevo = "xkey" + "sib-" + _hex(rng, 64) + "-" + _r(rng, _ALNUM, 16)
    resend = "r" + "e_" + _r(rng, _ALNUM, 8) + "_" + _r(rng, _ALNUM, 24)
    dom = _domain(rng)
    region = rng.choice(("eu-west-1", "us-east-1", "eu-central-1"))
    to = f"{rng.choice(_FIRST)}@{dom}"
    opts = [
        (f"SENDGRID_API_KEY={sg}\nMAIL_FROM=noreply@{dom}", sg, "ini"),
        (f"sg = SendGridAPIClient('{sg}')\nresponse = sg.send(message)", sg, "python"),
        (
            (
                f"curl -s --user 'api:{mg}' https://api.mailgun.net/v3/mg.{dom}/messages "
                f"-F from='Ops <ops@{dom}>' -F to={to} -F subject='test' -F text='hello'"
            ),
            mg,
            "bash",
        ),
        (
            (
                f'curl "https://api.postmarkapp.com/email" -X POST -H "Accept: application/json" '
                f'-H "X-Postmark-Server-Token: {pm}" -d @mail.json'
            ),
            pm,
            "bash",
        ),
        (
            (
                f'account_sid = "{tw_sid}"\nauth_token = "{tw_tok}"\nclient = Client(account_sid, auth_token)\n'
                f'client.messages.create(to="+4915{_digits(rng, 9)}", from_="+1555{_digits(rng, 7)}", body="Your code is ready")'
            ),
            tw_tok,
            "python",
        ),
        (f"MAILCHIMP_API_KEY={mc}\nMAILCHIMP_LIST_ID={_hex(rng, 10)}", mc, "ini"),
        (
            f"[email-smtp.{region}.amazonaws.com]:587 {ses_user}:{ses_pw}",
            ses_pw,
            "text",
        ),
        (f"BREVO_API_KEY={brevo}", brevo, "ini"),
        (
            (
                f"const resend = new Resend('{resend}');\nawait resend.emails.send({{ from: 'bot@{dom}', to: '{to}', "
                "subject: 'Weekly report', html: body });"
            ),
            resend,
            "js",
        ),
        (
            f"twilio creds for the SMS fallback: SID {tw_sid}, auth token {tw_tok}",
            tw_tok,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_private_key(rng):
    pem = _priv_key(rng)
    host = _fqdn(rng)
    repo = rng.choice(_REPOS)
    fname = rng.choice(("id_ed25519", "id_rsa", "deploy_key", f"{repo}_deploy", "ci.pem", "server.key"))
    opts = [
        (f"$ cat ~/.ssh/{fname}\n{pem}", pem, "text"),
        (f"deploy key for {host} (read-only on {repo}):\n\n{pem}", pem, "text"),
        (
            f'connection {{\n  type        = "ssh"\n  user        = "ubuntu"\n  host        = self.public_ip\n  private_key = <<EOT\n{pem}\nEOT\n}}',
            pem,
            "hcl",
        ),
        (
            f'SSH_PRIVATE_KEY="{pem}"\nSSH_KNOWN_HOSTS_FILE=/etc/ssh/ssh_known_hosts',
            pem,
            "bash",
        ),
        (
            f"{pem}\n\n^ key for {host}, the passphrase was removed so the cron job can use it",
            pem,
            "text",
        ),
    ]
    if pem.startswith(_dash() + "BEGIN PRIVATE "):
        comp = _company(rng)
        proj = f"{comp}-{rng.choice(('prod', 'data', 'ml', 'infra'))}-{rng.randrange(100, 999)}"
        sa = {
            "type": "service_account",
            "project_id": proj,
            "private_key_id": _hex(rng, 40),
            "private_key": pem + "\n",
            "client_email": f"{rng.choice(_PURPOSES)}@{proj}.iam.gserviceaccount.com",
            "client_id": _digits(rng, 21),
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": "https://oauth2.googleapis.com/token",
        }
        text = json.dumps(sa, indent=2)
        opts.append((text, json.dumps(pem)[1:-1], "json"))
        opts.append((text, json.dumps(pem)[1:-1], "json"))
    indented = pem.replace("\n", "\n    ")
    opts.append(
        (
            (
                f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {repo}-tls\ntype: kubernetes.io/tls\nstringData:\n"
                f"  tls.key: |\n    {indented}"
            ),
            indented,
            "yaml",
        )
    )
    # PuTTY private key file
    pub_b64 = _b64(_ed25519_pub_blob(rng))
    priv_b64 = _b64(_ssh_str(_rb(rng, 32)))
    ppk = (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n"
        f"Comment: ed25519-key-{_date(rng).replace('-', '')}\nPublic-Lines: 2\n{pub_b64[:64]}\n{pub_b64[64:]}\n"
        f"Private-Lines: 1\n{priv_b64}\nPrivate-MAC: {_hex(rng, 64)}"
    )
    opts.append((ppk, priv_b64, "text"))
    return rng.choice(opts)


def _k_jwt(rng):
    alg = rng.choice(("HS256", "RS256", "HS256", "ES256"))
    tok = _jwt(rng, alg=alg, kid=alg != "HS256")
    api = f"api.{_domain(rng)}"
    path = rng.choice(
        (
            "/v1/orders?status=open",
            "/v2/users/me",
            "/internal/reports/daily",
            "/graphql",
            "/admin/jobs",
        )
    )
    ref = _r(rng, _LOWER, 20)
    sb_payload = {
        "iss": "supabase",
        "ref": ref,
        "role": "service_role",
        "iat": 1700000000 + rng.randrange(10**7),
        "exp": 2000000000 + rng.randrange(10**7),
    }
    sb = _jwt(rng, "HS256", sb_payload)
    opts = [
        (f'curl -s -H "Authorization: Bearer {tok}" https://{api}{path}', tok, "bash"),
        (
            f"GET {path} HTTP/1.1\nHost: {api}\nAuthorization: Bearer {tok}\nAccept: application/json",
            tok,
            "http",
        ),
        (
            json.dumps(
                {
                    "name": f"{_company(rng)}-{rng.choice(_ENVS)}",
                    "values": [
                        {"key": "baseUrl", "value": f"https://{api}", "enabled": True},
                        {"key": "accessToken", "value": tok, "enabled": True},
                    ],
                },
                indent=2,
            ),
            tok,
            "json",
        ),
        (
            f'TOKEN = "{tok}"\nresp = requests.get(f"https://{api}{path}", headers={{"Authorization": f"Bearer {{TOKEN}}"}})',
            tok,
            "python",
        ),
        (
            f"SUPABASE_URL=https://{ref}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={sb}",
            sb,
            "ini",
        ),
        (f"Cookie: session={tok}; theme=dark; lang=en", tok, "http"),
        (f"websocat 'wss://{api}/ws?access_token={tok}'", tok, "bash"),
        (
            f"access_token copied from devtools (valid for a week, admin role): {tok}",
            tok,
            "prose",
        ),
        (f"localStorage.setItem('auth.token', '{tok}');", tok, "js"),
    ]
    return rng.choice(opts)


def _k_db_uri(rng):
    pw = _pw(rng, _SYM_URL)
    user = _user(rng).replace(".", "_")
    db = rng.choice(_DBNAMES)
    host = _host(rng, rng.choice(("db", "pg", "mysql", "mongo", "redis")))
    cluster = f"cluster{rng.randrange(0, 4)}.{_r(rng, _LOWNUM, 5)}.mongodb.net"
    opts = [
        (
            f"DATABASE_URL=postgresql://{user}:{pw}@{host}:5432/{db}?sslmode=require",
            "ini",
        ),
        (
            f'engine = create_engine("postgresql+psycopg2://{user}:{pw}@{host}/{db}", pool_pre_ping=True)',
            "python",
        ),
        (f"mysql://{user}:{pw}@{host}:3306/{db}", "text"),
        (
            f"MONGO_URI=mongodb+srv://{user}:{pw}@{cluster}/{db}?retryWrites=true&w=majority",
            "ini",
        ),
        (f"REDIS_URL=redis://default:{pw}@{host}:6379/0", "ini"),
        (f"rediss://:{pw}@{host}:6380/2", "text"),
        (
            (
                f'"ConnectionStrings": {{\n  "Default": "Server=tcp:{host},1433;Initial Catalog={db};User ID={user};'
                f'Password={pw};Encrypt=True;TrustServerCertificate=False;"\n}}'
            ),
            "json",
        ),
        (
            f"spring.datasource.url=jdbc:postgresql://{host}:5432/{db}?user={user}&password={pw}&ssl=true",
            "properties",
        ),
        (
            f"jdbc:sqlserver://{host}:1433;databaseName={db};user={user};password={pw};encrypt=true",
            "text",
        ),
        (
            f'datasource db {{\n  provider = "postgresql"\n  url      = "postgresql://{user}:{pw}@{host}:5432/{db}"\n}}',
            "prisma",
        ),
        (
            f"production:\n  adapter: postgresql\n  url: postgres://{user}:{pw}@{host}/{db}\n  pool: 10",
            "yaml",
        ),
        (
            (
                f"cockroach sql --url 'postgresql://{user}:{pw}@{_company(rng)}-free-{rng.randrange(1000, 9999)}"
                ".gcp-us-central1.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full'"
            ),
            "bash",
        ),
        (f"psql \"postgres://{user}:{pw}@{host}:5432/{db}\" -c '\\dt'", "bash"),
        (
            f"conn string for the {db} replica: postgresql://{user}:{pw}@{host}:5433/{db}",
            "prose",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_db_config(rng):
    pw = _pw(rng, _SYM_SAFE)
    user = _user(rng).replace(".", "_")
    host = _host(rng, rng.choice(("db", "pg", "mysql", "redis", "ch", "cass")))
    db = rng.choice(_DBNAMES)
    opts = [
        (
            f'[client]\nuser={user}\npassword="{pw}"\nhost={host}\nport=3306\ndefault-character-set=utf8mb4',
            "ini",
        ),
        (f"{host}:5432:{db}:{user}:{pw}", "text"),
        (
            f"bind 0.0.0.0\nport 6379\nrequirepass {pw}\nmaxmemory 2gb\nmaxmemory-policy allkeys-lru",
            "conf",
        ),
        (f'"{user}" "{pw}"\n', "text"),
        (
            (
                f"<clickhouse>\n  <users>\n    <{user}>\n      <password>{pw}</password>\n      <networks><ip>::/0</ip></networks>\n"
                f"      <profile>default</profile>\n    </{user}>\n  </users>\n</clickhouse>"
            ),
            "xml",
        ),
        (
            f"[authentication]\nusername = {user}\npassword = {pw}\n\n[connection]\nhostname = {host}\nport = 9042",
            "ini",
        ),
        (
            f"mongosh \"mongodb://{host}:27017/{db}\" --username {user} --password '{pw}' --authenticationDatabase admin",
            "bash",
        ),
        (
            (
                'DATABASES = {\n    "default": {\n        "ENGINE": "django.db.backends.postgresql",\n'
                f'        "NAME": "{db}",\n        "USER": "{user}",\n        "PASSWORD": "{pw}",\n'
                f'        "HOST": "{host}",\n        "PORT": 5432,\n    }}\n}}'
            ),
            "python",
        ),
        (
            f"production:\n  adapter: mysql2\n  database: {db}_production\n  username: {user}\n  password: {pw}\n  host: {host}",
            "yaml",
        ),
        (
            f"spring.datasource.username={user}\nspring.datasource.password={pw}\nspring.jpa.hibernate.ddl-auto=validate",
            "properties",
        ),
        (
            f"define( 'DB_NAME', '{db}' );\ndefine( 'DB_USER', '{user}' );\ndefine( 'DB_PASSWORD', '{pw}' );\ndefine( 'DB_HOST', '{host}' );",
            "php",
        ),
        (
            f"environment:\n  - discovery.type=single-node\n  - ELASTIC_PASSWORD={pw}\n  - xpack.security.enabled=true",
            "yaml",
        ),
        (f"NEO4J_AUTH=neo4j/{pw}", "ini"),
        (f"mysql -h {host} -u {user} -p{pw} {db} < dump.sql", "bash"),
        (
            f"PGPASSWORD='{pw}' psql -h {host} -U {user} -d {db} -c 'select count(*) from events'",
            "bash",
        ),
        (
            f"influx setup --username {user} --password {pw} --org {_company(rng)} --bucket metrics --retention 30d --force",
            "bash",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_ldap(rng):
    pw = _pw(rng, _SYM_SAFE)
    comp = _company(rng)
    dc = f"dc={comp},dc=" + rng.choice(("com", "local", "corp", "de", "io"))
    svc = rng.choice(("svc_ldap", "ldapbind", "binduser", "svc-gitlab", "svc_jenkins", "readonly"))
    bind = f"cn={svc},ou=ServiceAccounts,{dc}"
    ldap_host = f"ldap{rng.randrange(1, 4)}.{comp}." + rng.choice(("corp", "internal", "lan"))
    opts = [
        (
            f'ldapsearch -x -H ldaps://{ldap_host} -D "{bind}" -w \'{pw}\' -b "ou=People,{dc}" "(uid={rng.choice(_FIRST)})" mail',
            "bash",
        ),
        (
            (
                f"[domain/{comp}]\nid_provider = ldap\nldap_uri = ldaps://{ldap_host}\nldap_search_base = {dc}\n"
                f"ldap_default_bind_dn = {bind}\nldap_default_authtok_type = password\nldap_default_authtok = {pw}"
            ),
            "ini",
        ),
        (
            f"uri ldaps://{ldap_host}/\nbase {dc}\nbinddn {bind}\nbindpw {pw}\nssl on",
            "conf",
        ),
        (
            (
                f"spring.ldap.urls=ldaps://{ldap_host}:636\nspring.ldap.base={dc}\nspring.ldap.username={bind}\n"
                f"spring.ldap.password={pw}"
            ),
            "properties",
        ),
        (
            (
                "gitlab_rails['ldap_servers'] = {\n  'main' => {\n    'label' => 'LDAP',\n"
                f"    'host' => '{ldap_host}',\n    'port' => 636,\n    'bind_dn' => '{bind}',\n"
                f"    'password' => '{pw}',\n    'base' => '{dc}'\n  }}\n}}"
            ),
            "ruby",
        ),
        (
            (
                f'[[servers]]\nhost = "{ldap_host}"\nport = 636\nuse_ssl = true\nbind_dn = "{bind}"\n'
                f'bind_password = "{pw}"\nsearch_filter = "(sAMAccountName=%s)"\nsearch_base_dns = ["{dc}"]'
            ),
            "toml",
        ),
        (
            f'conn = Connection(server, user="{bind}", password="{pw}", auto_bind=True)',
            "python",
        ),
        (
            (
                f"securityRealm:\n  ldap:\n    configurations:\n      - server: ldaps://{ldap_host}\n        rootDN: {dc}\n"
                f'        managerDN: {bind}\n        managerPasswordSecret: "{pw}"'
            ),
            "yaml",
        ),
        (
            f'AuthLDAPURL "ldaps://{ldap_host}/ou=People,{dc}?uid"\nAuthLDAPBindDN "{bind}"\nAuthLDAPBindPassword "{pw}"',
            "apache",
        ),
        (
            f"sudo -u www-data php occ ldap:set-config s01 ldapAgentPassword '{pw}'",
            "bash",
        ),
        (
            f"the LDAP bind account is {bind}, password {pw}. It's read-only but can see every user.",
            "prose",
        ),
        (f"$ cat /etc/ldap.secret\n{pw}", "text"),
        (f'rootdn "cn=admin,{dc}"\nrootpw {pw}', "conf"),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _community(rng):
    k = rng.randrange(4)
    if k == 0:
        return rng.choice(("n0c", "mon", "netops", "snmp", "ro", "obs")) + "-" + _r(rng, _LOWNUM, rng.randint(6, 10))
    if k == 1:
        return _company(rng) + rng.choice(("RO", "_ro", "Mon", "Snmp")) + str(rng.randrange(100, 9999))
    if k == 2:
        return _r(rng, _ALNUM, rng.randint(12, 20))
    return rng.choice(_WORDS).capitalize() + rng.choice(_WORDS) + str(rng.randrange(10, 99))


def _k_snmp(rng):
    c = _community(rng)
    host = _host(rng, rng.choice(("core-sw", "edge", "fw", "ups", "pdu")))
    net = f"10.{rng.randrange(256)}.0.0/16"
    acl = rng.randrange(10, 99)
    opts = [
        (
            f"snmp-server community {c} RO {acl}\nsnmp-server location {rng.choice(_CITIES)} DC1\nsnmp-server contact noc@{_domain(rng)}",
            "cisco",
        ),
        (
            f"rocommunity {c} {net}\nsysLocation {rng.choice(_CITIES)}\nsysContact noc@{_domain(rng)}",
            "conf",
        ),
        (f"snmpwalk -v2c -c {c} {host} 1.3.6.1.2.1.1", "bash"),
        (
            f"set snmp community {c} authorization read-only\nset snmp community {c} clients {net}",
            "junos",
        ),
        (
            f"/snmp community add name={c} addresses={net} read-access=yes write-access=no\n/snmp set enabled=yes",
            "routeros",
        ),
        (
            f"$config['snmp']['community'][] = \"{c}\";\n$config['snmp']['version'] = 'v2c';",
            "php",
        ),
        (f"auths:\n  public_v2:\n    community: {c}\n    version: 2", "yaml"),
        (f'createUser monitor SHA "{c}"\nrouser monitor authNoPriv', "conf"),
        (
            f"snmpwalk -v3 -u monitor -l authNoPriv -a SHA -A '{c}' {host} ifDescr",
            "bash",
        ),
        (
            f'[[inputs.snmp]]\n  agents = ["udp://{host}:161"]\n  version = 2\n  community = "{c}"',
            "toml",
        ),
        (f'snmp-server community "{c}" operator unrestricted', "text"),
        (f"check_snmp -H {host} -C {c} -o ifOperStatus.2 -r 1", "bash"),
        (
            f"RW community on the old core switch is {c} - we really need to move to v3",
            "prose",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, c, lang


def _k_radius(rng):
    s = _pw(rng, _SYM_SAFE, minlen=10)
    ip = _ip(rng)
    name = rng.choice(("wlc01", "vpn-gw", "ap-floor2", "fw-edge", "switch-stack", "nas-unifi"))
    opts = [
        (
            f"client {name} {{\n    ipaddr = {ip}\n    secret = {s}\n    shortname = {name}\n    nas_type = other\n}}",
            "conf",
        ),
        (
            f"radius server ISE-{rng.randrange(1, 3)}\n address ipv4 {ip} auth-port 1812 acct-port 1813\n key 0 {s}",
            "cisco",
        ),
        (f"radius-server host {ip} auth-port 1812 acct-port 1813 key {s}", "cisco"),
        (
            f"auth_server_addr={ip}\nauth_server_port=1812\nauth_server_shared_secret={s}",
            "conf",
        ),
        (
            f'set system radius-server {ip} secret "{s}"\nset system radius-server {ip} source-address 10.0.0.1',
            "junos",
        ),
        (
            f"/radius add address={ip} secret={s} service=ppp,login timeout=3s",
            "routeros",
        ),
        (
            f"UniFi RADIUS profile 'corp-wifi' -> server {ip}:1812, shared secret {s}",
            "prose",
        ),
        (
            f'aaa authentication-server radius "ISE"\n   host {ip}\n   key {s}\n   nas-identifier {name}',
            "text",
        ),
        (
            f"eap-radius {{\n  servers {{\n    primary {{\n      address = {ip}\n      secret = {s}\n    }}\n  }}\n}}",
            "conf",
        ),
        (
            f"NAS-Identifier=openvpn\nsharedsecret={s}\nauthport=1812\nacctport=1813\nname={ip}",
            "ini",
        ),
        (
            f"{s}\n^ shared secret between the WLC and FreeRADIUS ({ip}). Has to match on both sides.",
            "prose",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, s, lang


def _k_netdev(rng):
    pw = _pw(rng, _SYM_SAFE)
    user = rng.choice(("admin", "netops", "noc", "backup", "oxidized", "rancid"))
    host = rng.choice(("core-sw1", "edge-rtr01", "fw-dc2", "dist-sw-03", "mt-branch"))
    peer = f"203.0.113.{rng.randrange(1, 255)}"
    t7 = _cisco7(rng, pw[:16])
    wg = _b64(_rb(rng, 32))
    wg_pub = _b64(_rb(rng, 32))
    opts = [
        (
            f"hostname {host}\n!\nusername {user} privilege 15 secret 0 {pw}\n!\nline vty 0 4\n login local\n transport input ssh",
            pw,
            "cisco",
        ),
        (f"enable password {pw}", pw, "cisco"),
        (f"username {user} privilege 15 password 7 {t7}", t7, "cisco"),
        (f"line vty 0 4\n password 7 {t7}\n login\n transport input ssh", t7, "cisco"),
        (f"crypto isakmp key {pw} address {peer}", pw, "cisco"),
        (
            f'set protocols bgp group transit neighbor {peer} authentication-key "{pw}"',
            pw,
            "junos",
        ),
        (
            f'set security ike policy ike-pol-{rng.randrange(1, 9)} pre-shared-key ascii-text "{pw}"',
            pw,
            "junos",
        ),
        (
            f'/user add name={user} password={pw} group=full comment="{_name(rng)}"',
            pw,
            "routeros",
        ),
        (
            f"/ppp secret add name={rng.choice(_FIRST)} password={pw} service=l2tp profile=vpn",
            pw,
            "routeros",
        ),
        (
            f'config system admin\n    edit "{user}"\n        set accprofile "super_admin"\n        set password {pw}\n    next\nend',
            pw,
            "text",
        ),
        (
            f"set system login user {user} authentication plaintext-password {pw}\ncommit ; save",
            pw,
            "text",
        ),
        (
            f"[Interface]\nAddress = 10.8.0.{rng.randrange(2, 250)}/24\nPrivateKey = {wg}\nListenPort = 51820\n\n[Peer]\nPublicKey = {wg_pub}\nAllowedIPs = 10.8.0.0/24\nEndpoint = {peer}:51820",
            wg,
            "ini",
        ),
        (f'%any {peer} : PSK "{pw}"', pw, "conf"),
        (
            f"console on {host}: {user} / {pw} (local fallback account if TACACS is down)",
            pw,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_wifi(rng):
    psk = _pw(rng, "!#%*-_.+=?", minlen=10)
    ssid = rng.choice(
        (
            f"{_company(rng).capitalize()}-Corp",
            f"{_company(rng).upper()}_GUEST",
            "Lab-5G",
            "Warehouse-IoT",
            f"{_company(rng)}-staff",
            "FRITZ!Box 7590 KL",
        )
    )
    opts = [
        (
            f'network={{\n    ssid="{ssid}"\n    psk="{psk}"\n    key_mgmt=WPA-PSK\n}}',
            "conf",
        ),
        (
            f"interface=wlan0\nssid={ssid}\nwpa=2\nwpa_key_mgmt=WPA-PSK\nwpa_passphrase={psk}\nrsn_pairwise=CCMP",
            "conf",
        ),
        (f'nmcli dev wifi connect "{ssid}" password "{psk}"', "bash"),
        (f"WIFI:S:{ssid};T:WPA;P:{psk};;", "text"),
        (
            f'network:\n  version: 2\n  wifis:\n    wlan0:\n      dhcp4: true\n      access-points:\n        "{ssid}":\n          password: "{psk}"',
            "yaml",
        ),
        (
            f"    Key Content            : {psk}\n    Cost                   : Unrestricted",
            "text",
        ),
        (f'$ security find-generic-password -wa "{ssid}"\n{psk}', "text"),
        (
            f"config wifi-iface 'default_radio0'\n\toption device 'radio0'\n\toption mode 'ap'\n\toption ssid '{ssid}'\n\toption encryption 'psk2'\n\toption key '{psk}'",
            "conf",
        ),
        (
            f'wifi:\n  ssid: "{ssid}"\n  password: "{psk}"\n\nota:\n  platform: esphome',
            "yaml",
        ),
        (f'const char* ssid = "{ssid}";\nconst char* password = "{psk}";', "cpp"),
        (
            f"Guest Wi-Fi '{ssid}' password is {psk} (changes every month, {_name(rng)} updates the sign at reception)",
            "prose",
        ),
        (
            f"/interface wireless security-profiles set [ find default=yes ] mode=dynamic-keys authentication-types=wpa2-psk wpa2-pre-shared-key={psk}",
            "routeros",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, psk, lang


def _k_device(rng):
    pw = _pw(rng, _SYM_SAFE)
    ip = _ip(rng)
    ilo = _r(rng, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 8)
    pve = _uuid(rng)
    truenas = "1-" + _r(rng, _ALNUM, 64)
    opts = [
        (f"DSM admin on nas01 ({ip}:5001): admin / {pw}", pw, "prose"),
        (
            f"ipmitool -I lanplus -H {ip} -U ADMIN -P '{pw}' chassis power status",
            pw,
            "bash",
        ),
        (f"racadm -r {ip} -u root -p '{pw}' getsysinfo", pw, "bash"),
        (f"ffplay rtsp://admin:{pw}@{ip}:554/Streaming/Channels/101", pw, "bash"),
        (
            (
                f"Printer 3rd floor ({rng.choice(('HP M479fdw', 'Brother MFC-L8900', 'Kyocera M5526', 'Ricoh IM C3000'))}) "
                f"- scan to folder uses \\\\files01\\scans with user scanner / {pw}"
            ),
            pw,
            "prose",
        ),
        (
            f"router_password: {pw}\nnas_password: !secret nas_pw\nlatitude: 52.37",
            pw,
            "yaml",
        ),
        (f"Authorization: PVEAPIToken=root@pam!terraform={pve}", pve, "http"),
        (
            f'curl -s -H "Authorization: Bearer {truenas}" https://{ip}/api/v2.0/pool',
            truenas,
            "bash",
        ),
        (
            f"iLO on {rng.choice(('esx01', 'esx02', 'db-bare', 'hv03'))}: Administrator / {ilo} (from the pull-out tag)",
            ilo,
            "prose",
        ),
        (
            f"APC UPS web UI {ip} -> apc / {pw}. Changed from default on {_date(rng)}.",
            pw,
            "prose",
        ),
        (
            f"QNAP {ip}: user admin, pw {pw} - only reachable from the mgmt VLAN",
            pw,
            "prose",
        ),
        (f"UniFi OS console local admin: {_user(rng)} {pw}", pw, "prose"),
    ]
    return rng.choice(opts)


def _k_rcon(rng):
    pw = _pw(rng, _SYM_SAFE)
    ip = _ip(rng)
    opts = [
        (
            f'hostname "{_company(rng).capitalize()} LAN Party"\nrcon_password "{pw}"\nsv_cheats 0\nmp_autoteambalance 1',
            "cfg",
        ),
        (
            f"enable-rcon=true\nrcon.port=25575\nrcon.password={pw}\nmotd=Welcome\nmax-players=20",
            "properties",
        ),
        (
            f'mcrcon -H {ip} -P 25575 -p "{pw}" "whitelist add {rng.choice(_FIRST)}"',
            "bash",
        ),
        (
            f"[ServerSettings]\nServerAdminPassword={pw}\nDifficultyOffset=1.0\nServerPVE=True",
            "ini",
        ),
        (
            f'./RustDedicated -batchmode +server.port 28015 +rcon.port 28016 +rcon.password "{pw}" +rcon.web 1',
            "bash",
        ),
        (
            f"./bin/x64/factorio --start-server saves/world.zip --rcon-port 27015 --rcon-password {pw}",
            "bash",
        ),
        (
            (
                "[/Script/Pal.PalGameWorldSettings]\nOptionSettings=(Difficulty=None,ServerPlayerMaxNum=16,"
                f'ServerName="{_name(rng)}s world",AdminPassword="{pw}",PublicPort=8211)'
            ),
            "ini",
        ),
        (
            f'environment:\n  EULA: "TRUE"\n  TYPE: PAPER\n  RCON_PASSWORD: "{pw}"\n  MEMORY: 4G',
            "yaml",
        ),
        (
            f'./valheim_server.x86_64 -name "{_name(rng)}Heim" -port 2456 -world "Dedicated" -password "{pw}" -public 0',
            "bash",
        ),
        (f'<property name="TelnetPassword" value="{pw}" />', "xml"),
        (
            f"rcon for the minecraft box is {pw}, port 25575 - don't give it to the kids",
            "prose",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_media(rng):
    plex = _r(rng, _B64URL, 20)
    jf = _hex(rng, 32)
    arr = _hex(rng, 32)
    ip = _ip(rng)
    opts = [
        (
            f'curl "http://{ip}:32400/library/sections?X-Plex-Token={plex}"',
            plex,
            "bash",
        ),
        (
            (
                f'<Preferences MachineIdentifier="{_uuid(rng)}" ProcessedMachineIdentifier="{_hex(rng, 40)}" '
                f'PlexOnlineToken="{plex}" PlexOnlineUsername="{rng.choice(_FIRST)}" AcceptedEULA="1"/>'
            ),
            plex,
            "xml",
        ),
        (
            f'plex = PlexServer("http://{ip}:32400", "{plex}")\nfor m in plex.library.section("Movies").recentlyAdded():',
            plex,
            "python",
        ),
        (
            f'curl -H "X-Emby-Token: {jf}" http://{ip}:8096/Items?Recursive=true&IncludeItemTypes=Movie',
            jf,
            "bash",
        ),
        (
            f"<Config>\n  <Port>7878</Port>\n  <UrlBase></UrlBase>\n  <ApiKey>{arr}</ApiKey>\n  <AuthenticationMethod>Forms</AuthenticationMethod>\n</Config>",
            arr,
            "xml",
        ),
        (f"curl http://{ip}:8989/api/v3/series?apikey={arr}", arr, "bash"),
        (f"plex token (from view XML, url bar): {plex}", plex, "prose"),
        (
            f"sensor:\n  - platform: sonarr\n    api_key: {arr}\n    host: {ip}",
            arr,
            "yaml",
        ),
        (
            f"[PMS]\npms_url = http://{ip}:32400\npms_token = {plex}\npms_ssl = 0",
            plex,
            "ini",
        ),
    ]
    return rng.choice(opts)


def _k_mail(rng):
    pw = _pw(rng, _SYM_SAFE)
    app = " ".join(_r(rng, _LOWER, 4) for _ in range(4))
    dom = _domain(rng)
    addr = f"{rng.choice(_FIRST)}@{dom}"
    gaddr = f"{rng.choice(_FIRST)}.{rng.choice(_LAST)}@gmail.com"
    smtp = rng.choice((f"smtp.{dom}", "smtp.office365.com", "smtp.fastmail.com", f"mail.{dom}"))
    imap = rng.choice((f"imap.{dom}", "outlook.office365.com", "imap.fastmail.com", f"mail.{dom}"))
    opts = [
        (
            f"account default\nhost {smtp}\nport 587\nauth on\ntls on\nuser {addr}\npassword {pw}\nfrom {addr}",
            pw,
            "conf",
        ),
        (
            f'set imap_user = "{addr}"\nset imap_pass = "{pw}"\nset folder = "imaps://{imap}/"\nset spoolfile = "+INBOX"',
            pw,
            "conf",
        ),
        (
            f"poll {imap} with proto IMAP\n  user '{addr}' there with password '{pw}' is '{rng.choice(_FIRST)}' here\n  options ssl keep",
            pw,
            "conf",
        ),
        (
            f"[Repository remote]\ntype = IMAP\nremotehost = {imap}\nremoteuser = {addr}\nremotepass = {pw}\nssl = yes",
            pw,
            "ini",
        ),
        (
            f"IMAPAccount work\nHost {imap}\nUser {addr}\nPass {pw}\nSSLType IMAPS",
            pw,
            "conf",
        ),
        (f"app password for the CI mailer ({gaddr}): {app}", app, "prose"),
        (
            f'EMAIL_HOST = "smtp.gmail.com"\nEMAIL_PORT = 587\nEMAIL_HOST_USER = "{gaddr}"\nEMAIL_HOST_PASSWORD = "{app}"\nEMAIL_USE_TLS = True',
            app,
            "python",
        ),
        (
            f"git config --global sendemail.smtpServer {smtp}\ngit config --global sendemail.smtpUser {addr}\ngit config --global sendemail.smtpPass '{pw}'",
            pw,
            "bash",
        ),
        (f"[{smtp}]:587 {addr}:{pw}", pw, "text"),
        (
            (
                f"const transporter = nodemailer.createTransport({{\n  host: '{smtp}',\n  port: 587,\n"
                f"  auth: {{ user: '{addr}', pass: '{pw}' }},\n}});"
            ),
            pw,
            "js",
        ),
        (
            f"$mail->Host = '{smtp}';\n$mail->SMTPAuth = true;\n$mail->Username = '{addr}';\n$mail->Password = '{pw}';",
            pw,
            "php",
        ),
        (
            f"swaks --to {gaddr} --server {smtp}:587 --tls --auth-user {addr} --auth-password '{pw}'",
            pw,
            "bash",
        ),
    ]
    return rng.choice(opts)


def _site(rng):
    return rng.choice(
        (
            ("GitLab", "https://gitlab.com/users/sign_in"),
            ("Figma", "https://www.figma.com/login"),
            ("Atlassian", "https://id.atlassian.com/login"),
            ("Hetzner", "https://accounts.hetzner.com/login"),
            ("OVH", "https://www.ovh.com/auth/"),
            ("Netflix", "https://www.netflix.com/login"),
            ("Grafana", f"https://grafana.{_domain(rng)}/login"),
            ("Router", "http://192.168.1.1/"),
            ("Jenkins", f"https://jenkins.{_domain(rng)}/login"),
            ("Namecheap", "https://www.namecheap.com/myaccount/login/"),
            ("DigitalOcean", "https://cloud.digitalocean.com/login"),
            ("Zoom", "https://zoom.us/signin"),
        )
    )


def _k_browser(rng):
    pw = _pw(rng, _SYM_CSV)
    title, url = _site(rng)
    user = rng.choice(
        (
            f"{rng.choice(_FIRST)}@{_domain(rng)}",
            _user(rng),
            f"{rng.choice(_FIRST)}.{rng.choice(_LAST)}@gmail.com",
        )
    )
    host = url.split("/")[2]
    guid = "{" + _uuid(rng) + "}"
    ts = str(rng.randrange(1600000000000, 1730000000000))
    opts = [
        (f"name,url,username,password,note\n{host},{url},{user},{pw},", "csv"),
        (f"name,url,username,password\n{host},{url},{user},{pw}", "csv"),
        (
            (
                '"url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"\n'
                f'"{url.rstrip("/")}","{user}","{pw}",,"{url.split("/")[0]}//{host}","{guid}","{ts}","{ts}","{ts}"'
            ),
            "csv",
        ),
        (
            f"Title,URL,Username,Password,Notes,OTPAuth\n{title} ({user}),{url},{user},{pw},,",
            "csv",
        ),
        (
            f"| Site | Login | Password |\n|---|---|---|\n| {title} | {user} | {pw} |",
            "markdown",
        ),
        (f"name\turl\tusername\tpassword\n{host}\t{url}\t{user}\t{pw}", "tsv"),
        (
            f"from the Chrome export (Passwords.csv), the only line we need:\n{host},{url},{user},{pw},",
            "text",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_pwmgr(rng):
    pw = _pw(rng, "!#%*-_.+=?@")
    title, url = _site(rng)
    user = rng.choice((f"{rng.choice(_FIRST)}@{_domain(rng)}", _user(rng)))
    bw = {
        "encrypted": False,
        "items": [
            {
                "id": _uuid(rng),
                "type": 1,
                "name": title,
                "favorite": False,
                "login": {
                    "uris": [{"match": None, "uri": url}],
                    "username": user,
                    "password": pw,
                    "totp": None,
                },
                "revisionDate": f"{_date(rng)}T10:{rng.randrange(10, 59)}:00.000Z",
            }
        ],
    }
    grp = rng.choice(("Infra", "Shared", "Root", "Customers", "Network"))
    opts = [
        (
            (
                f"<Entry>\n\t<UUID>{_b64(_rb(rng, 16))}</UUID>\n\t<String>\n\t\t<Key>Title</Key>\n\t\t<Value>{title}</Value>\n\t</String>\n"
                f"\t<String>\n\t\t<Key>UserName</Key>\n\t\t<Value>{user}</Value>\n\t</String>\n"
                f'\t<String>\n\t\t<Key>Password</Key>\n\t\t<Value ProtectInMemory="True">{pw}</Value>\n\t</String>\n'
                f"\t<String>\n\t\t<Key>URL</Key>\n\t\t<Value>{url}</Value>\n\t</String>\n</Entry>"
            ),
            "xml",
        ),
        (json.dumps(bw, indent=2), "json"),
        (
            f'"Title","Website","Username","Password","OTPAuth","Favorite","Archived","Tags","Notes"\n"{title}","{url}","{user}","{pw}","","false","false","{grp}",""',
            "csv",
        ),
        (
            f"url,username,password,totp,extra,name,grouping,fav\n{url},{user},{pw},,,{title},{grp},0",
            "csv",
        ),
        (
            f'"Group","Title","Username","Password","URL","Notes"\n"{grp}","{title}","{user}","{pw}","{url}",""',
            "csv",
        ),
        (
            f"username,username2,username3,title,password,note,url,category,otpSecret\n{user},,,{title},{pw},,{url},{grp},",
            "csv",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_http_auth(rng):
    pw = _pw(rng, _SYM_URL)
    user = rng.choice(("admin", "api", "metrics", "deploy", _user(rng)))
    basic = _b64(f"{user}:{pw}".encode())
    host = _fqdn(rng, rng.choice(("api", "metrics", "registry", "jenkins", "es", "cam")))
    ip = _ip(rng)
    opts = [
        (
            f'curl -H "Authorization: Basic {basic}" https://{host}/api/v1/status',
            basic,
            "bash",
        ),
        (
            f"GET /metrics HTTP/1.1\nHost: {host}\nAuthorization: Basic {basic}\nUser-Agent: Prometheus/2.51.0",
            basic,
            "http",
        ),
        (
            f'location /upstream/ {{\n    proxy_pass https://{host}/;\n    proxy_set_header Authorization "Basic {basic}";\n}}',
            basic,
            "nginx",
        ),
        (f"curl -u {user}:{pw} https://{host}/api/health", pw, "bash"),
        (
            f"curl --digest -u admin:{pw} http://{ip}/ISAPI/System/deviceInfo",
            pw,
            "bash",
        ),
        (f"machine {host}\n  login {user}\n  password {pw}", pw, "netrc"),
        (
            f"wget --user={user} --password='{pw}' https://{host}/exports/latest.tar.gz",
            pw,
            "bash",
        ),
        (
            f'r = requests.get("https://{host}/api/items", auth=("{user}", "{pw}"), timeout=30)',
            pw,
            "python",
        ),
        (f"http -a {user}:{pw} GET https://{host}/api/jobs", pw, "bash"),
        (
            f'resp = requests.get(url, auth=HTTPDigestAuth("admin", "{pw}"))',
            pw,
            "python",
        ),
        (
            f"scrape_configs:\n  - job_name: node\n    basic_auth:\n      username: {user}\n      password: {pw}\n    static_configs:\n      - targets: ['{host}:9100']",
            pw,
            "yaml",
        ),
        (f'req.SetBasicAuth("{user}", "{pw}")', pw, "go"),
    ]
    return rng.choice(opts)


def _k_url_creds(rng):
    pw = _pw(rng, _SYM_URL)
    user = _user(rng).replace("@", "")
    dom = _domain(rng)
    org = _company(rng)
    opts = [
        (
            f"git clone https://{user}:{pw}@git.{dom}/{org}/{rng.choice(_REPOS)}.git",
            "bash",
        ),
        (
            f"export https_proxy=http://{user}:{pw}@proxy.{dom}:3128\nexport no_proxy=localhost,127.0.0.1,.{dom}",
            "bash",
        ),
        (
            f"[global]\nindex-url = https://{user}:{pw}@nexus.{dom}/repository/pypi-all/simple\ntrusted-host = nexus.{dom}",
            "ini",
        ),
        (
            f"lftp ftp://{user}:{pw}@ftp.{dom}/outgoing/ -e 'mirror --reverse ./export . ; quit'",
            "bash",
        ),
        (f"davs://{user}:{pw}@cloud.{dom}/remote.php/dav/files/{user}/", "text"),
        (
            f'maven {{\n    url "https://{user}:{pw}@nexus.{dom}/repository/maven-releases/"\n}}',
            "groovy",
        ),
        (
            f'output.elasticsearch:\n  hosts: ["https://elastic:{pw}@es01.{dom}:9200"]',
            "yaml",
        ),
        (
            f'[Service]\nEnvironment="HTTPS_PROXY=http://{user}:{pw}@proxy.{dom}:8080"',
            "ini",
        ),
        (
            f"Cloning repository https://builder:{pw}@git.{dom}/{org}/{rng.choice(_REPOS)}.git\n > git init /var/lib/jenkins/workspace/build # timeout=10",
            "text",
        ),
        (
            f"npm config set registry https://{user}:{pw}@nexus.{dom}/repository/npm-group/",
            "bash",
        ),
        (
            f"bookmark for the old router: http://admin:{pw}@192.168.{rng.randrange(256)}.1/",
            "prose",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_kerberos(rng):
    comp = _company(rng)
    realm = f"{comp.upper()}.{rng.choice(('CORP', 'LOCAL', 'INTERNAL', 'LAN'))}"
    svc = rng.choice(("HTTP", "hdfs", "hive", "kafka", "postgres", "nfs", "host"))
    host = f"{rng.choice(_ROLES)}{rng.randrange(1, 9)}.{comp}.{rng.choice(('corp', 'internal', 'lan'))}"
    principal = f"{svc}/{host}"
    kt = _keytab(rng, principal, realm)
    pw = _pw(rng, _SYM_SAFE)
    user = "svc_" + rng.choice(_PURPOSES)
    fname = f"{svc.lower()}.keytab"
    opts = [
        (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc.lower()}-keytab\ntype: Opaque\ndata:\n  {fname}: {kt}",
            kt,
            "yaml",
        ),
        (
            f"echo '{kt}' | base64 -d > /etc/security/keytabs/{fname}\nkinit -kt /etc/security/keytabs/{fname} {principal}@{realm}",
            kt,
            "bash",
        ),
        (f"KEYTAB_B64={kt}", kt, "ini"),
        (
            f"keytab for {principal}@{realm} (base64, generated with ktpass on {_date(rng)}):\n{kt}",
            kt,
            "text",
        ),
        (
            f'kerberos_keytab_b64: "{kt}"\nkerberos_principal: "{principal}@{realm}"',
            kt,
            "yaml",
        ),
        (f'KEYTAB = base64.b64decode(\n    "{kt}"\n)', kt, "python"),
        (f"echo '{pw}' | kinit {user}@{realm}\nklist", pw, "bash"),
        (
            f"kerberos principal {user}@{realm}, password {pw} (the keytab expired, use kinit by hand)",
            pw,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_signed_url(rng):
    bucket = _bucket(rng)
    region = rng.choice(_REGIONS)
    obj = rng.choice(
        (
            "exports/2024/customers.csv",
            "backups/db-full.sql.gz",
            "reports/q3.pdf",
            "uploads/invoice-8812.pdf",
            "builds/app-release.apk",
        )
    )
    akid = "AK" + "IA" + _r(rng, _UPPER + "234567", 16)
    d = _date(rng).replace("-", "")
    k = rng.randrange(4)
    if k == 0:
        sig = _hex(rng, 64)
        url = (
            f"https://{bucket}.s3.{region}.amazonaws.com/{obj}?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            f"&X-Amz-Credential={akid}%2F{d}%2F{region}%2Fs3%2Faws4_request&X-Amz-Date={d}T{rng.randrange(10, 23)}0000Z"
            f"&X-Amz-Expires={rng.choice((3600, 86400, 604800))}&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
        )
    elif k == 1:
        sig = _hex(rng, 512)
        proj = f"{_company(rng)}-{rng.choice(_ENVS)}"
        url = (
            f"https://storage.googleapis.com/{bucket}/{obj}?X-Goog-Algorithm=GOOG4-RSA-SHA256"
            f"&X-Goog-Credential=signer%40{proj}.iam.gserviceaccount.com%2F{d}%2Fauto%2Fstorage%2Fgoog4_request"
            f"&X-Goog-Date={d}T{rng.randrange(10, 23)}0000Z&X-Goog-Expires=604800&X-Goog-SignedHeaders=host"
            f"&X-Goog-Signature={sig}"
        )
    elif k == 2:
        sig = _r(rng, _ALNUM + "-~", 342) + "__"
        url = (
            f"https://d{_r(rng, _LOWNUM, 13)}.cloudfront.net/{obj}?Expires={rng.randrange(1700000000, 1760000000)}"
            f"&Signature={sig}&Key-Pair-Id=K{_r(rng, _UPNUM, 13)}"
        )
    else:
        start = _date(rng)
        expiry = f"{int(start[:4]) + 1}{start[4:]}"
        raw = _b64(_rb(rng, 32))
        sig = raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
        acct = _company(rng) + rng.choice(("stor", "data", "backup")) + str(rng.randrange(10, 99))
        url = (
            f"https://{acct}.blob.core.windows.net/{rng.choice(('exports', 'backups', 'media'))}/{obj}"
            f"?sv=2022-11-02&ss=b&srt=o&sp=r&se={expiry}T23:59:59Z&st={start}T00:00:00Z"
            f"&spr=https&sig={sig}"
        )
    vendor = rng.choice(("the auditors", "the agency", "our accountant", "the vendor", _name(rng)))
    opts = [
        (f"curl -o out.bin '{url}'", "bash"),
        (f"link for {vendor} (valid 7 days): {url}", "prose"),
        (f'wget -O {obj.split("/")[-1]} "{url}"', "bash"),
        (f"INFO presign: generated download url={url}", "text"),
        (f"{url}\n\nsent this to {vendor}, expires next week", "prose"),
        (f">>> print(url)\n{url}", "python"),
    ]
    body, lang = rng.choice(opts)
    return body, sig, lang


def _k_azure(rng):
    acct = _company(rng) + rng.choice(("stor", "data", "logs", "func")) + str(rng.randrange(10, 99))
    key = _b64(_rb(rng, 64))
    cs = _r(rng, _ALNUM, 3) + rng.choice(_DIGITS) + "Q~" + _r(rng, _ALNUM + "_.~-", 34)
    sb = _b64(_rb(rng, 32))
    fkey = _r(rng, _B64URL, 54) + "=="
    tenant = _uuid(rng)
    app = _uuid(rng)
    conn = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"
    opts = [
        (f'AZURE_STORAGE_CONNECTION_STRING="{conn}"', key, "bash"),
        (
            f"az storage blob upload --account-name {acct} --account-key {key} -c backups -f db.bak -n db-{_date(rng)}.bak",
            key,
            "bash",
        ),
        (
            f"AZURE_TENANT_ID={tenant}\nAZURE_CLIENT_ID={app}\nAZURE_CLIENT_SECRET={cs}",
            cs,
            "ini",
        ),
        (
            f"az login --service-principal -u {app} -p '{cs}' --tenant {tenant}",
            cs,
            "bash",
        ),
        (
            f'provider "azurerm" {{\n  features {{}}\n  tenant_id     = "{tenant}"\n  client_id     = "{app}"\n  client_secret = "{cs}"\n}}',
            cs,
            "hcl",
        ),
        (
            f"AccountEndpoint=https://{acct}.documents.azure.com:443/;AccountKey={key};",
            key,
            "text",
        ),
        (
            f"Endpoint=sb://{acct}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={sb}",
            sb,
            "text",
        ),
        (
            f"curl 'https://{acct}.azurewebsites.net/api/ProcessOrder?code={fkey}' -d @order.json",
            fkey,
            "bash",
        ),
        (
            json.dumps(
                {
                    "IsEncrypted": False,
                    "Values": {
                        "AzureWebJobsStorage": conn,
                        "FUNCTIONS_WORKER_RUNTIME": "python",
                    },
                },
                indent=2,
            ),
            key,
            "json",
        ),
        (
            f"client secret for the {rng.choice(_PURPOSES)} app registration: {cs} (expires in 6 months)",
            cs,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_ssh_auto(rng):
    pw = _pw(rng, _SYM_SAFE)
    user = rng.choice(("deploy", "ubuntu", "admin", "pi", "ansible", "root", _user(rng)))
    host = _host(rng)
    h2 = _host(rng)
    opts = [
        (
            f"[web]\nweb01 ansible_host={host} ansible_user={user} ansible_ssh_pass={pw}\nweb02 ansible_host={h2} ansible_user={user}",
            "ini",
        ),
        (
            f'ansible_user: {user}\nansible_become: true\nansible_become_pass: "{pw}"',
            "yaml",
        ),
        (
            f'#!/usr/bin/expect -f\nspawn ssh {user}@{host}\nexpect "assword:"\nsend "{pw}\\r"\nexpect "$ "\nsend "sudo systemctl restart app\\r"\ninteract',
            "tcl",
        ),
        (
            f"sshpass -p '{pw}' ssh -o StrictHostKeyChecking=no {user}@{host} 'df -h /'",
            "bash",
        ),
        (
            f'client = paramiko.SSHClient()\nclient.set_missing_host_key_policy(paramiko.AutoAddPolicy())\nclient.connect("{host}", username="{user}", password="{pw}")',
            "python",
        ),
        (
            f'child = pexpect.spawn("ssh {user}@{host}")\nchild.expect("password:")\nchild.sendline("{pw}")',
            "python",
        ),
        (
            f'c = Connection("{user}@{host}", connect_kwargs={{"password": "{pw}"}})\nc.run("uptime")',
            "python",
        ),
        (f'plink -ssh {user}@{host} -pw {pw} "tail -n 50 /var/log/syslog"', "bat"),
        (
            f'sshpass -p "{pw}" rsync -avz -e ssh ./dist/ {user}@{host}:/var/www/html/',
            "bash",
        ),
        (f'ansible all -i inventory.ini -m ping -e "ansible_ssh_pass={pw}"', "bash"),
        (
            f'session.setPassword("{pw}");\nsession.setConfig("StrictHostKeyChecking", "no");\nsession.connect(30000);',
            "java",
        ),
        (
            f'config := &ssh.ClientConfig{{\n\tUser: "{user}",\n\tAuth: []ssh.AuthMethod{{ssh.Password("{pw}")}},\n\tHostKeyCallback: ssh.InsecureIgnoreHostKey(),\n}}',
            "go",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_windows(rng):
    pw = _pw(rng, "!#%*-_.+=?")
    dom = rng.choice(("CORP", "AD", _company(rng).upper()))
    user = rng.choice(
        (
            "svc_deploy",
            "Administrator",
            "ansible",
            "backup_op",
            _user(rng).replace(".", ""),
        )
    )
    host = f"{rng.choice(('WIN', 'SRV', 'RDS', 'SQL', 'FS'))}-{rng.randrange(1, 40):02d}"
    opts = [
        (
            f"[windows:vars]\nansible_user={user}@{dom}.LOCAL\nansible_password={pw}\nansible_connection=winrm\nansible_winrm_transport=ntlm",
            "ini",
        ),
        (
            f"$pw = ConvertTo-SecureString '{pw}' -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential('{dom}\\{user}', $pw)\nInvoke-Command -ComputerName {host} -Credential $cred -ScriptBlock {{ Get-Service W3SVC }}",
            "powershell",
        ),
        (f"cmdkey /generic:TERMSRV/{host} /user:{dom}\\{user} /pass:{pw}", "bat"),
        (
            f"net use Z: \\\\{host}\\share /user:{dom}\\{user} {pw} /persistent:no",
            "bat",
        ),
        (f'psexec \\\\{host} -u {dom}\\{user} -p {pw} cmd /c "ipconfig /all"', "bat"),
        (
            f"xfreerdp /v:{host}.{dom.lower()}.local /u:{user} /d:{dom} /p:'{pw}' /cert:ignore /dynamic-resolution",
            "bash",
        ),
        (f"evil-winrm -i {_ip(rng)} -u {user} -p '{pw}'", "bash"),
        (
            f"s = winrm.Session('{host}', auth=('{dom}\\\\{user}', '{pw}'), transport='ntlm')\nr = s.run_ps('Get-Date')",
            "python",
        ),
        (
            f"<AdministratorPassword>\n    <Value>{pw}</Value>\n    <PlainText>true</PlainText>\n</AdministratorPassword>",
            "xml",
        ),
        (f"rdesktop -u {user} -d {dom} -p '{pw}' {host}", "bash"),
        (f"local admin on {host} (LAPS not rolled out there yet): {pw}", "prose"),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_vnc(rng):
    pw = rng.choice(
        (
            _r(rng, _ALNUM, 8),
            _r(rng, _ALNUM, 7) + rng.choice("!#.*"),
            rng.choice(_WORDS)[:4].capitalize() + _r(rng, _DIGITS, 4),
        )
    )
    ob = _hex(rng, 16)
    ob_bytes = ",".join(_hex(rng, 2) for _ in range(8))
    host = _host(rng)
    opts = [
        (f"x11vnc -display :0 -forever -shared -rfbport 5900 -passwd {pw}", pw, "bash"),
        (f"open vnc://:{pw}@{host}:5901", pw, "bash"),
        (
            f'[HKEY_LOCAL_MACHINE\\SOFTWARE\\RealVNC\\vncserver]\n"Password"="{ob}"\n"Authentication"="VncAuth"',
            ob,
            "reg",
        ),
        (
            f"[ultravnc]\npasswd={ob}\n[admin]\nUseRegistry=0\nMSLogonRequired=0",
            ob,
            "ini",
        ),
        (
            f'[HKEY_LOCAL_MACHINE\\SOFTWARE\\TightVNC\\Server]\n"Password"=hex:{ob_bytes}\n"RfbPort"=dword:0000170c',
            ob_bytes,
            "reg",
        ),
        (
            f"[connection]\nhost={host}\nport=5900\npassword={ob}\n[options]\nviewonly=0",
            ob,
            "ini",
        ),
        (
            f"docker run -d -p 4444:4444 -p 7900:7900 -e SE_VNC_PASSWORD={pw} selenium/standalone-chrome",
            pw,
            "bash",
        ),
        (f"https://{_fqdn(rng)}/vnc.html?autoconnect=true&password={pw}", pw, "text"),
        (f"VNC on the lab mac mini ({host}) is {pw}, screen sharing only", pw, "prose"),
        (
            f"echo '{pw}' | vncpasswd -f > ~/.vnc/passwd && chmod 600 ~/.vnc/passwd",
            pw,
            "bash",
        ),
    ]
    return rng.choice(opts)


def _k_jupyter(rng):
    tok = _hex(rng, 48)
    hub = _hex(rng, 32)
    port = rng.choice((8888, 8889, 8890, 9999))
    host = rng.choice(("127.0.0.1", "localhost", _ip(rng), f"gpu{rng.randrange(1, 9)}.{_domain(rng)}"))
    home = f"/home/{rng.choice(_FIRST)}"
    opts = [
        (f"http://{host}:{port}/lab?token={tok}", tok, "text"),
        (
            f"$ jupyter server list\nCurrently running servers:\nhttp://{host}:{port}/?token={tok} :: {home}/notebooks",
            tok,
            "text",
        ),
        (
            f"c.ServerApp.ip = '0.0.0.0'\nc.ServerApp.port = {port}\nc.ServerApp.token = '{tok}'\nc.ServerApp.open_browser = False",
            tok,
            "python",
        ),
        (f"c.NotebookApp.token = '{tok}'", tok, "python"),
        (
            f"docker run -p {port}:8888 -e JUPYTER_TOKEN={tok} -v $PWD:/home/jovyan/work quay.io/jupyter/scipy-notebook",
            tok,
            "bash",
        ),
        (
            (
                "    To access the server, open this file in a browser:\n        file:///home/jovyan/.local/share/jupyter/runtime/jpserver-7-open.html\n"
                f"    Or copy and paste one of these URLs:\n        http://{host}:{port}/lab?token={tok}\n        http://127.0.0.1:{port}/lab?token={tok}"
            ),
            tok,
            "text",
        ),
        (
            f'c.JupyterHub.services = [\n    {{"name": "idle-culler", "api_token": "{hub}"}},\n]',
            hub,
            "python",
        ),
        (f"notebook on the gpu box: http://{host}:{port}/?token={tok}", tok, "prose"),
    ]
    return rng.choice(opts)


def _k_pipeline(rng):
    pw = _pw(rng, _SYM_URL)
    fernet = _b64u(_rb(rng, 32)) + "="
    dapi = "da" + "pi" + _hex(rng, 32)
    user = _user(rng).replace(".", "_")
    host = _host(rng, rng.choice(("pg", "db", "dwh")))
    db = rng.choice(_DBNAMES)
    acct = f"{_r(rng, _LOWER, 2)}{rng.randrange(10000, 99999)}.{rng.choice(('eu-central-1', 'us-east-1', 'west-europe.azure'))}"
    conn_id = rng.choice(
        (
            "postgres_dwh",
            "mysql_legacy",
            "snowflake_default",
            "sftp_partner",
            "http_crm",
        )
    )
    proj = rng.choice(("analytics", "jaffle_shop", "marts", "finance_dbt"))
    opts = [
        (
            f"AIRFLOW_CONN_{conn_id.upper()}='postgresql://{user}:{pw}@{host}:5432/{db}'",
            pw,
            "bash",
        ),
        (
            (
                f"airflow connections add '{conn_id}' --conn-type 'snowflake' --conn-login '{user}' "
                f'--conn-password \'{pw}\' --conn-extra \'{{"account": "{acct}", "warehouse": "TRANSFORMING"}}\''
            ),
            pw,
            "bash",
        ),
        (
            f"[core]\ndags_folder = /opt/airflow/dags\nexecutor = CeleryExecutor\nfernet_key = {fernet}\nload_examples = False",
            fernet,
            "ini",
        ),
        (f"AIRFLOW__CORE__FERNET_KEY={fernet}", fernet, "ini"),
        (
            json.dumps(
                {
                    conn_id: {
                        "conn_type": "http",
                        "host": f"api.{_domain(rng)}",
                        "login": user,
                        "password": pw,
                        "extra": {"timeout": 30},
                    }
                },
                indent=2,
            ),
            pw,
            "json",
        ),
        (
            (
                f"{proj}:\n  target: prod\n  outputs:\n    prod:\n      type: postgres\n      host: {host}\n      user: {user}\n"
                f'      password: "{pw}"\n      port: 5432\n      dbname: {db}\n      schema: dbt_prod\n      threads: 8'
            ),
            pw,
            "yaml",
        ),
        (
            (
                f"{proj}:\n  target: dev\n  outputs:\n    dev:\n      type: snowflake\n      account: {acct}\n      user: {user}\n"
                f"      password: {pw}\n      role: TRANSFORMER\n      warehouse: TRANSFORMING\n      database: ANALYTICS\n      schema: DBT_{user.upper()}"
            ),
            pw,
            "yaml",
        ),
        (
            (
                f"{proj}:\n  outputs:\n    prod:\n      type: databricks\n      host: adb-{_digits(rng, 16)}.{rng.randrange(1, 20)}.azuredatabricks.net\n"
                f"      http_path: /sql/1.0/warehouses/{_hex(rng, 16)}\n      token: {dapi}\n      schema: analytics"
            ),
            dapi,
            "yaml",
        ),
        (
            f"TAP_POSTGRES_PASSWORD={pw}\nTAP_POSTGRES_HOST={host}\nTARGET_SNOWFLAKE_ACCOUNT={acct}",
            pw,
            "ini",
        ),
        (
            f"DATABRICKS_HOST=https://adb-{_digits(rng, 16)}.{rng.randrange(1, 20)}.azuredatabricks.net\nDATABRICKS_TOKEN={dapi}",
            dapi,
            "ini",
        ),
    ]
    return rng.choice(opts)


def _k_hadoop(rng):
    s3 = _r(rng, _ALNUM + "/+", 40)
    akid = "AK" + "IA" + _r(rng, _UPPER + "234567", 16)
    az = _b64(_rb(rng, 64))
    pw = _pw(rng, _SYM_SAFE)
    acct = _company(rng) + "lake" + str(rng.randrange(10, 99))
    host = _host(rng, rng.choice(("metastore", "pg", "mysql")))
    opts = [
        (
            (
                f"<property>\n  <name>fs.s3a.access.key</name>\n  <value>{akid}</value>\n</property>\n"
                f"<property>\n  <name>fs.s3a.secret.key</name>\n  <value>{s3}</value>\n</property>"
            ),
            s3,
            "xml",
        ),
        (
            (
                f"spark-submit --master yarn --conf spark.hadoop.fs.s3a.access.key={akid} "
                f"--conf spark.hadoop.fs.s3a.secret.key={s3} jobs/daily_agg.py"
            ),
            s3,
            "bash",
        ),
        (
            f"spark.authenticate true\nspark.authenticate.secret {pw}\nspark.network.crypto.enabled true",
            pw,
            "conf",
        ),
        (
            f"<property>\n  <name>fs.azure.account.key.{acct}.dfs.core.windows.net</name>\n  <value>{az}</value>\n</property>",
            az,
            "xml",
        ),
        (
            (
                f"<property>\n  <name>javax.jdo.option.ConnectionURL</name>\n  <value>jdbc:mysql://{host}:3306/metastore</value>\n</property>\n"
                f"<property>\n  <name>javax.jdo.option.ConnectionPassword</name>\n  <value>{pw}</value>\n</property>"
            ),
            pw,
            "xml",
        ),
        (
            f"<property>\n  <name>ssl.server.keystore.password</name>\n  <value>{pw}</value>\n</property>",
            pw,
            "xml",
        ),
        (
            f'spark.conf.set(\n    "fs.azure.account.key.{acct}.dfs.core.windows.net",\n    "{az}",\n)',
            az,
            "python",
        ),
        (
            f"hadoop credential create fs.s3a.secret.key -value '{s3}' -provider jceks://hdfs/user/etl/s3.jceks",
            s3,
            "bash",
        ),
        (
            f"connector.name=postgresql\nconnection-url=jdbc:postgresql://{host}:5432/{rng.choice(_DBNAMES)}\nconnection-user=trino\nconnection-password={pw}",
            pw,
            "properties",
        ),
        (
            f"s3.access-key: {akid}\ns3.secret-key: {s3}\nstate.checkpoints.dir: s3://{_bucket(rng)}/checkpoints",
            s3,
            "yaml",
        ),
    ]
    return rng.choice(opts)


def _k_broker(rng):
    pw = _pw(rng, _SYM_SAFE)
    user = rng.choice(
        (
            "app",
            "producer",
            "consumer",
            "svc_orders",
            "celery",
            _user(rng).replace(".", "_"),
        )
    )
    host = _host(rng, rng.choice(("kafka", "mq", "rabbit", "nats", "mqtt")))
    ck = _r(rng, _UPNUM, 16)
    csec = _r(rng, _ALNUM + "+/", 64)
    vhost = rng.choice(("/", "orders", "prod", "billing"))
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="{u}" password="{p}";'
    opts = [
        (
            f"security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config={jaas.format(u=user, p=pw)}",
            pw,
            "properties",
        ),
        (
            f"kcat -b {host}:9093 -X security.protocol=SASL_SSL -X sasl.mechanisms=SCRAM-SHA-512 -X sasl.username={user} -X sasl.password={pw} -t orders -C -o -10",
            pw,
            "bash",
        ),
        (
            (
                f"bootstrap.servers=pkc-{_r(rng, _LOWNUM, 5)}.{rng.choice(_REGIONS)}.aws.confluent.cloud:9092\nsecurity.protocol=SASL_SSL\n"
                f"sasl.mechanism=PLAIN\nsasl.jaas.config={jaas.format(u=ck, p=csec)}"
            ),
            csec,
            "properties",
        ),
        (
            f"CELERY_BROKER_URL=amqp://{user}:{pw}@{host}:5672/{vhost.strip('/')}",
            pw,
            "ini",
        ),
        (
            f'rabbitmqctl add_user {user} \'{pw}\'\nrabbitmqctl set_permissions -p {vhost} {user} ".*" ".*" ".*"',
            pw,
            "bash",
        ),
        (
            f"default_user = admin\ndefault_pass = {pw}\nlisteners.tcp.default = 5672\nmanagement.tcp.port = 15672",
            pw,
            "ini",
        ),
        (f"nats sub 'orders.>' --server nats://{user}:{pw}@{host}:4222", pw, "bash"),
        (f"admin={pw},admin\nuser=user,user", pw, "properties"),
        (
            f"mosquitto_pub -h {host} -p 8883 --capath /etc/ssl/certs -u {user} -P '{pw}' -t 'sensors/door' -m open",
            pw,
            "bash",
        ),
        (
            f"spring:\n  rabbitmq:\n    host: {host}\n    port: 5672\n    username: {user}\n    password: {pw}\n    virtual-host: {vhost}",
            pw,
            "yaml",
        ),
        (
            f"confluent cloud API key {ck} / secret {csec} (cluster lkc-{_r(rng, _LOWNUM, 5)})",
            csec,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_enterprise(rng):
    pw = _pw(rng, _SYM_SAFE)
    sid = rng.choice(("PRD", "QAS", "DEV", "S4P", "BWP"))
    ashost = f"sap{sid.lower()}{rng.randrange(1, 4)}.{_domain(rng)}"
    rfc_user = rng.choice(("RFC_USER", "RFC_BATCH", "SAPCPIC_IF", "S_INTEG"))
    sf_dom = f"{_company(rng)}.my.salesforce.com"
    refresh = "5Aep" + "861" + _r(rng, _ALNUM + "._", 80)
    sf_tok = _r(rng, _ALNUM, 25)
    sf_secret = _r(rng, "0123456789ABCDEF", 64)
    sf_cid = "3MVG" + "9" + _r(rng, _ALNUM + "._", 80)
    sf_access = "00" + "D" + _r(rng, _ALNUM, 12) + "!AQ" + _r(rng, _ALNUM + "._", 90)
    sn = f"{_company(rng)}{rng.choice(('', 'dev', 'test'))}.service-now.com"
    sn_key = _r(rng, _ALNUM, 32)
    opts = [
        (f"hdbuserstore SET BACKUPKEY {ashost}:30015 SYSTEM {pw}", pw, "bash"),
        (
            f"DEST={sid}\nASHOST={ashost}\nSYSNR=00\nCLIENT={rng.choice(('100', '200', '400'))}\nUSER={rfc_user}\nPASSWD={pw}\nLANG=EN",
            pw,
            "ini",
        ),
        (
            f"jco.client.ashost={ashost}\njco.client.sysnr=00\njco.client.client=100\njco.client.user={rfc_user}\njco.client.passwd={pw}\njco.client.lang=en",
            pw,
            "properties",
        ),
        (
            f"conn = Connection(ashost='{ashost}', sysnr='00', client='100', user='{rfc_user}', passwd='{pw}')",
            pw,
            "python",
        ),
        (
            f"hdbsql -n {ashost}:30015 -u SYSTEM -p '{pw}' \"SELECT * FROM M_DATABASE\"",
            pw,
            "bash",
        ),
        (
            f"echo 'force://PlatformCLI::{refresh}@{sf_dom}' > auth.txt\nsf org login sfdx-url --sfdx-url-file auth.txt --alias prod",
            refresh,
            "bash",
        ),
        (
            f'sf = Salesforce(\n    username="integration@{sf_dom.split(".")[0]}.com",\n    password=os.environ["SF_PASSWORD"],\n    security_token="{sf_tok}",\n)',
            sf_tok,
            "python",
        ),
        (f"SF_CLIENT_ID={sf_cid}\nSF_CLIENT_SECRET={sf_secret}", sf_secret, "ini"),
        (
            f'curl https://{sf_dom}/services/data/v59.0/sobjects/Account -H "Authorization: Bearer {sf_access}"',
            sf_access,
            "bash",
        ),
        (
            f"curl \"https://{sn}/api/now/table/incident?sysparm_limit=5\" --user 'integration.user':'{pw}' -H 'Accept: application/json'",
            pw,
            "bash",
        ),
        (
            f"client = pysnow.Client(instance='{sn.split('.')[0]}', user='svc_cmdb', password='{pw}')",
            pw,
            "python",
        ),
        (
            f'<parameter name="mid.instance.username" value="mid.server"/>\n<parameter name="mid.instance.password" value="{pw}"/>',
            pw,
            "xml",
        ),
        (
            f'curl -H "x-sn-apikey: {sn_key}" https://{sn}/api/now/table/cmdb_ci_server?sysparm_limit=1',
            sn_key,
            "bash",
        ),
        (
            f"salesforce security token got reset again, new one is {sf_tok}",
            sf_tok,
            "prose",
        ),
    ]
    return rng.choice(opts)


def _k_oracle(rng):
    pw = _pw(rng, "!#%*-_.+=?")
    pw_plain = _pw(rng, "_#")
    host = _host(rng, rng.choice(("ora", "db", "exa")))
    svc = rng.choice(("ORCLPDB1", "PRODDB", "FINPRD", "HRPDB", "XEPDB1"))
    user = rng.choice(("app_user", "hr", "scott", "etl_owner", "report_ro"))
    opts = [
        (
            f"orapki wallet create -wallet /u01/app/oracle/wallet -pwd '{pw}' -auto_login",
            pw,
            "bash",
        ),
        (
            f"mkstore -wrl /u01/app/oracle/wallet -createCredential {svc} {user} '{pw}'",
            pw,
            "bash",
        ),
        (f"sqlplus system/{pw_plain}@//{host}:1521/{svc}", pw_plain, "bash"),
        (
            f"expdp system/{pw_plain}@{svc} schemas=HR directory=DATA_PUMP_DIR dumpfile=hr_{_date(rng)}.dmp logfile=hr.log",
            pw_plain,
            "bash",
        ),
        (f"jdbc:oracle:thin:{user}/{pw_plain}@{host}:1521/{svc}", pw_plain, "text"),
        (
            f'conn = oracledb.connect(user="{user}", password="{pw}", dsn="{host}:1521/{svc}")',
            pw,
            "python",
        ),
        (f"wallet password for the {svc} ewallet.p12: {pw}", pw, "prose"),
        (f'ALTER USER {user} IDENTIFIED BY "{pw}" ACCOUNT UNLOCK;', pw, "sql"),
        (f"username=weblogic\npassword={pw}", pw, "properties"),
        (
            f"rman target sys/{pw_plain}@{svc} catalog rman/{pw_plain}@RCAT",
            pw_plain,
            "bash",
        ),
    ]
    return rng.choice(opts)


def _k_license(rng):
    win = "-".join(_r(rng, "BCDFGHJKMPQRTVWXY2346789", 5) for _ in range(5))
    vmw = "-".join(_r(rng, _UPNUM, 5) for _ in range(5))
    maxmind = _r(rng, _ALNUM, 6) + "_" + _r(rng, _ALNUM, 29) + "_mmk"
    nr = _hex(rng, 36) + "NRAL"
    sk = _hex(rng, 8) + ":" + _hex(rng, 8)
    fa = _uuid(rng).upper()
    unity = "E3-" + "-".join(_r(rng, _UPNUM, 4) for _ in range(5))
    intel = _r(rng, _UPNUM, 15)
    d = _dash()
    lic_lines = "\n".join(
        _r(rng, "0123456789ABCDEF", 8) + " " + " ".join(_r(rng, "0123456789ABCDEF", 8) for _ in range(3))
        for _ in range(8)
    )
    sublime = (
        f"{d} BEGIN LICENSE {d}\n{_full(rng)}\nSingle User License\nEA7E-{_digits(rng, 7)}\n"
        f"{lic_lines}\n{d}- END LICENSE {d}-"
    )
    opts = [
        (f"slmgr /ipk {win}\nslmgr /ato", win, "bat"),
        (
            f"AccountID {rng.randrange(100000, 999999)}\nLicenseKey {maxmind}\nEditionIDs GeoLite2-ASN GeoLite2-City GeoLite2-Country",
            maxmind,
            "conf",
        ),
        (
            f"common: &default_settings\n  license_key: {nr}\n  app_name: {_company(rng)}-api\n  distributed_tracing:\n    enabled: true",
            nr,
            "yaml",
        ),
        (f"bundle config --local gems.contribsys.com {sk}", sk, "bash"),
        (
            f"@fortawesome:registry=https://npm.fontawesome.com/\n//npm.fontawesome.com/:_authToken={fa}",
            fa,
            "ini",
        ),
        (
            f'unity-editor -batchmode -quit -serial {unity} -username ci@{_domain(rng)} -password "$UNITY_PASSWORD"',
            unity,
            "bash",
        ),
        (
            f'{{\n  "intelephense.licenceKey": "{intel}",\n  "editor.formatOnSave": true\n}}',
            intel,
            "json",
        ),
        (f"vim-cmd vimsvc/license --set {vmw}", vmw, "bash"),
        (f"Windows 11 Pro key for the reception PC: {win}", win, "prose"),
        (sublime, sublime, "text"),
        (
            f"ESET activation key for the office laptops: {'-'.join(_r(rng, _UPNUM, 4) for _ in range(5))}",
            None,
            "prose",
        ),
    ]
    body, secret, lang = rng.choice(opts)
    if secret is None:
        secret = body.split(": ", 1)[1]
    return body, secret, lang


def _k_prose(rng):
    pw = _pw(rng, "!#%*-_.+=?")
    user = _user(rng)
    name = _name(rng)
    door = f"{_digits(rng, 4)}-{_r(rng, _DIGITS, 4)}"
    bitlocker = "-".join(_r(rng, _DIGITS, 6) for _ in range(8))
    recovery = f"{_r(rng, _LOWNUM, 5)}-{_r(rng, _LOWNUM, 5)}"
    opts = [
        (
            f"the pin for the server room door is {door}, the old one stopped working on Monday",
            door,
        ),
        (f"my login is {user} and the pass is {pw}", pw),
        (
            f"FYI the shared mailbox password is now {pw}, {name} changed it this morning.",
            pw,
        ),
        (
            f"Das Passwort für den Jenkins-Admin lautet {pw} – bitte nicht weitergeben.",
            pw,
        ),
        (
            f"Le mot de passe root du serveur de recette est {pw}, on le change après la démo.",
            pw,
        ),
        (f"La contraseña del router de la oficina es {pw} (usuario admin).", pw),
        (f"A senha do banco de homologação é {pw} e o usuário é {user}.", pw),
        (f"Het wachtwoord voor de NAS is {pw}, niet delen buiten het team.", pw),
        (f"Hasło do panelu administracyjnego to {pw}.", pw),
        (f"管理画面のパスワードは {pw} です。ユーザー名は {user}。", pw),
        (f"管理员账号 {user}，密码是 {pw}", pw),
        (f"Пароль от сервера сборки: {pw}", pw),
        (f"alarm code for the office (disarm within 30s): {door}", door),
        (f"{name} set the BIOS password on the lab machines to {pw}", pw),
        (f"if the VPN asks, use {user} / {pw}", pw),
        (
            f"Restic repo password is {pw} - without it the offsite backups are useless, so don't lose it.",
            pw,
        ),
        (f"passphrase for the release signing GPG key: {pw}", pw),
        (
            f"BitLocker recovery key for LAPTOP-{rng.randrange(10, 99)}: {bitlocker}",
            bitlocker,
        ),
        (
            f"one of the unused recovery codes for the shared GitHub admin account: {recovery}",
            recovery,
        ),
        (f"LUKS passphrase on the external backup disk is '{pw}'.", pw),
        (
            f"{pw} <- that's the new root password for the db boxes, {name} rotated them yesterday",
            pw,
        ),
        (
            f"Reminder: the Wi-Fi router admin is still admin/{pw}, change it when you're on site.",
            pw,
        ),
        (f"Zugangsdaten fürs Lieferantenportal: Benutzer {user}, Kennwort {pw}", pw),
    ]
    body, secret = rng.choice(opts)
    return body, secret, "prose"


def _k_qa(rng):
    pw = _pw(rng, "!#%*-_.+=?@")
    user = _user(rng)
    a = _name(rng)
    b = _name(rng)
    host = _fqdn(rng)
    svc = rng.choice(
        (
            "staging Grafana",
            "the test VM",
            "the kiosk laptop",
            "Jenkins",
            "the old wiki",
            "pgAdmin on staging",
            "the demo tenant",
        )
    )
    n = rng.randrange(300, 2000)
    opts = [
        (f"Q: What's the admin password for {svc}?\nA: {pw}", "prose"),
        (
            f"**How do I log into {svc}?**\n\nUser `{user}`, password:\n\n`{pw}`",
            "markdown",
        ),
        (f"{a}: what's the pw for {svc}?\n{b}: sec\n{b}: {pw}\n{a}: thx!", "prose"),
        (f"Password:\n{pw}\n\n(for {svc}, user {user})", "prose"),
        (
            f"login as: {pw}\n{pw}@{host}'s password:\nAccess denied\nlogin as: {user}",
            "text",
        ),
        (
            f"  {n}  sudo -i\n  {n + 1}  {pw}\n  {n + 2}  sudo systemctl restart nginx\n  {n + 3}  history",
            "bash",
        ),
        (
            f"Hi {a},\n\nas promised, the password in a separate mail:\n\n{pw}\n\nBest,\n{b}",
            "prose",
        ),
        (
            f"> what did you set the root pw to on {host}?\n{pw} - same as the old box",
            "prose",
        ),
        (
            f"mysql -h {host} \\\n  -u {user} \\\n  -p'{pw}' \\\n  --default-character-set=utf8mb4",
            "bash",
        ),
        (f"User: {user}\nPass:\n    {pw}\nURL: https://{host}/", "text"),
        (f"Frage: Wie lautet das Passwort für {svc}?\nAntwort: {pw}", "prose"),
        (
            f"- username → {user}\n- password → {pw}\n- 2FA: none (yes, I know)",
            "markdown",
        ),
    ]
    body, lang = rng.choice(opts)
    return body, pw, lang


def _k_registry(rng):
    pw = _pw(rng, "!#%*-_.+=?")
    user = _user(rng)
    reg = rng.choice(
        (
            f"registry.{_domain(rng)}",
            f"harbor.{_domain(rng)}",
            f"{_company(rng)}.azurecr.io",
            f"nexus.{_domain(rng)}:8443",
        )
    )
    auth = _b64(f"{user}:{pw}".encode())
    dckr = "dckr" + "_pat_" + _r(rng, _B64URL, 27)
    robot_sec = _r(rng, _ALNUM, 32)
    quay = _r(rng, _UPNUM, 64)
    ecr_payload = _b64(
        json.dumps(
            {
                "payload": _b64(_rb(rng, 120)),
                "datakey": _b64(_rb(rng, 90)),
                "version": "2",
                "type": "DATA_KEY",
                "expiration": rng.randrange(1700000000, 1760000000),
            }
        ).encode()
    )
    cfg = json.dumps({"auths": {reg: {"auth": auth}}}, indent=2)
    dcj = _b64(json.dumps({"auths": {reg: {"username": user, "password": pw, "auth": auth}}}).encode())
    ecr_host = f"{_digits(rng, 12)}.dkr.ecr.{rng.choice(_REGIONS)}.amazonaws.com"
    opts = [
        (cfg, auth, "json"),
        (f"docker login {reg} -u {user} -p '{pw}'", pw, "bash"),
        (f"echo '{dckr}' | docker login -u {user} --password-stdin", dckr, "bash"),
        (
            f"kubectl create secret docker-registry regcred --docker-server={reg} --docker-username={user} --docker-password='{pw}' -n apps",
            pw,
            "bash",
        ),
        (
            f"skopeo copy docker://{reg}/app:1.2.3 docker://{reg}/app:stable --dest-creds {user}:{pw}",
            pw,
            "bash",
        ),
        (f"docker login {reg} -u 'robot$ci+push' -p {robot_sec}", robot_sec, "bash"),
        (f"helm registry login {reg} --username {user} --password {pw}", pw, "bash"),
        (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {dcj}",
            dcj,
            "yaml",
        ),
        (f"docker login -u AWS -p {ecr_payload} {ecr_host}", ecr_payload, "bash"),
        (
            f'docker login -u="{_company(rng)}+deployer" -p="{quay}" quay.io',
            quay,
            "bash",
        ),
        (f"podman login --username {user} --password {pw} {reg}", pw, "bash"),
    ]
    return rng.choice(opts)


def _k_k8s(rng):
    pw = _pw(rng, "!#%*-_.+=?")
    b = _b64(pw.encode())
    app = rng.choice(("postgres", "grafana", "api", "keycloak", "minio", "redis"))
    ns = rng.choice(("default", "apps", "monitoring", "data", "prod"))
    sa_tok = _jwt(
        rng,
        "RS256",
        {
            "iss": "kubernetes/serviceaccount",
            "kubernetes.io/serviceaccount/namespace": ns,
            "kubernetes.io/serviceaccount/service-account.name": rng.choice(("ci-deployer", "argocd", "admin-user")),
            "sub": f"system:serviceaccount:{ns}:ci-deployer",
        },
        kid=True,
    )
    boot = _r(rng, _LOWNUM, 6) + "." + _r(rng, _LOWNUM, 16)
    k3s = "K1" + "0" + _hex(rng, 64) + "::server:" + _hex(rng, 32)
    ip = _ip(rng)
    opts = [
        (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {app}-credentials\n  namespace: {ns}\ntype: Opaque\ndata:\n  username: {_b64(app.encode())}\n  password: {b}",
            b,
            "yaml",
        ),
        (
            f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {app}-auth\nstringData:\n  ADMIN_PASSWORD: "{pw}"',
            pw,
            "yaml",
        ),
        (f"users:\n- name: ci-deployer\n  user:\n    token: {sa_tok}", sa_tok, "yaml"),
        (
            f"kubectl create secret generic {app}-admin --from-literal=username=admin --from-literal=password='{pw}' -n {ns}",
            pw,
            "bash",
        ),
        (
            f"kubeadm join {ip}:6443 --token {boot} --discovery-token-ca-cert-hash sha256:{_hex(rng, 64)}",
            boot,
            "bash",
        ),
        (
            f"curl -sfL https://get.k3s.io | K3S_URL=https://{ip}:6443 K3S_TOKEN={k3s} sh -",
            k3s,
            "bash",
        ),
        (
            f"helm upgrade --install {app} bitnami/{app} -n {ns} --set auth.password='{pw}'",
            pw,
            "bash",
        ),
        (
            f"$ kubectl get secret {app}-credentials -o jsonpath='{{.data.password}}'\n{b}",
            b,
            "text",
        ),
    ]
    return rng.choice(opts)


def _k_iac(rng):
    pw = _pw(rng, "!#%*-_.+=?")
    tok = _r(rng, _ALNUM, rng.choice((32, 40, 48)))
    app = rng.choice(("orders", "billing", "web", "reporting", "search"))
    opts = [
        (
            (
                f'resource "aws_db_instance" "{app}" {{\n  identifier        = "{app}-db"\n  engine            = "postgres"\n'
                f'  instance_class    = "db.t3.medium"\n  username          = "{app}_admin"\n  password          = "{pw}"\n  allocated_storage = 50\n}}'
            ),
            pw,
            "hcl",
        ),
        (
            f'region      = "{rng.choice(_REGIONS)}"\ndb_password = "{pw}"\ninstance_count = 2',
            pw,
            "hcl",
        ),
        (
            f'FROM node:20-alpine\nWORKDIR /app\nENV NODE_ENV=production\nENV API_TOKEN={tok}\nCOPY . .\nRUN npm ci\nCMD ["node", "server.js"]',
            tok,
            "dockerfile",
        ),
        (
            f'[Service]\nUser={app}\nEnvironment=APP_ENV=production\nEnvironment="APP_API_KEY={tok}"\nExecStart=/usr/local/bin/{app}',
            tok,
            "ini",
        ),
        (
            f"*/15 * * * * curl -fsS -H 'X-Api-Key: {tok}' https://status.{_domain(rng)}/api/push/{app} >/dev/null",
            tok,
            "crontab",
        ),
        (
            f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      DEPLOY_TOKEN: {tok}\n    steps:\n      - uses: actions/checkout@v4",
            tok,
            "yaml",
        ),
        (
            f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: {app}\n      POSTGRES_PASSWORD: {pw}\n    volumes:\n      - pgdata:/var/lib/postgresql/data",
            pw,
            "yaml",
        ),
        (
            f"  DBInstance:\n    Type: AWS::RDS::DBInstance\n    Properties:\n      Engine: mysql\n      MasterUsername: admin\n      MasterUserPassword: {pw}",
            pw,
            "yaml",
        ),
        (f"pulumi config set dbPassword {pw}", pw, "bash"),
        (f'config.ssh.username = "vagrant"\nconfig.ssh.password = "{pw}"', pw, "ruby"),
        (
            f'"communicator": "ssh",\n"ssh_username": "packer",\n"ssh_password": "{pw}",',
            pw,
            "json",
        ),
        (
            f'task "{app}" {{\n  driver = "docker"\n  env {{\n    API_KEY = "{tok}"\n  }}\n}}',
            tok,
            "hcl",
        ),
        (
            f"- name: Create app user\n  community.mysql.mysql_user:\n    name: {app}\n    password: \"{pw}\"\n    priv: '{app}.*:ALL'",
            pw,
            "yaml",
        ),
    ]
    return rng.choice(opts)


def _k_appsecret(rng):
    dj = _r(rng, _LOWER + _DIGITS + "!@#%^&*(-_=+)", 50)
    rails = _hex(rng, 128)
    flask = _hex(rng, 64)
    lara = "base64:" + _b64(_rb(rng, 32))
    nxt = _b64(_rb(rng, 32))
    phx = _r(rng, _B64, 64)
    jwt_s = _r(rng, _ALNUM, rng.choice((32, 48, 64)))
    sym = _hex(rng, 32)
    opts = [
        (
            f"SECRET_KEY = '{dj}'\nDEBUG = False\nALLOWED_HOSTS = ['.{_domain(rng)}']",
            dj,
            "python",
        ),
        (f"production:\n  secret_key_base: {rails}", rails, "yaml"),
        (
            f'app = Flask(__name__)\napp.config["SECRET_KEY"] = "{flask}"',
            flask,
            "python",
        ),
        (
            f"APP_NAME=Laravel\nAPP_ENV=production\nAPP_KEY={lara}\nAPP_DEBUG=false",
            lara,
            "ini",
        ),
        (f"NEXTAUTH_URL=https://app.{_domain(rng)}\nNEXTAUTH_SECRET={nxt}", nxt, "ini"),
        (
            f"app.use(session({{\n  secret: '{jwt_s}',\n  resave: false,\n  saveUninitialized: false,\n}}));",
            jwt_s,
            "js",
        ),
        (
            f'config :my_app, MyAppWeb.Endpoint,\n  secret_key_base: "{phx}"',
            phx,
            "elixir",
        ),
        (f"JWT_SECRET={jwt_s}\nJWT_EXPIRES_IN=1h", jwt_s, "ini"),
        (f"APP_ENV=prod\nAPP_SECRET={sym}", sym, "ini"),
        (f"[security]\nadmin_user = admin\nsecret_key = {jwt_s}", jwt_s, "ini"),
        (
            f"SECRET_KEY = '{flask}'\nSQLALCHEMY_DATABASE_URI = 'postgresql://superset@/superset'",
            flask,
            "python",
        ),
        (f"WEBHOOK_SECRET={jwt_s}", jwt_s, "ini"),
        (f"jwt.secret={nxt}\njwt.expiration=3600", nxt, "properties"),
    ]
    return rng.choice(opts)


_KINDS = (
    ("aws_secret_access_key", _k_aws),
    ("git_hosting_token", _k_git),
    ("chat_platform_token", _k_chat),
    ("webhook_url", _k_webhook),
    ("payment_credential", _k_payment),
    ("google_api_key", _k_google),
    ("ai_api_key", _k_ai),
    ("package_registry_token", _k_pkg),
    ("email_service_key", _k_email),
    ("private_key", _k_private_key),
    ("jwt_bearer_token", _k_jwt),
    ("db_uri_password", _k_db_uri),
    ("db_config_password", _k_db_config),
    ("ldap_bind_password", _k_ldap),
    ("snmp_community", _k_snmp),
    ("radius_shared_secret", _k_radius),
    ("network_device_password", _k_netdev),
    ("wifi_psk", _k_wifi),
    ("device_admin_password", _k_device),
    ("game_server_rcon", _k_rcon),
    ("media_server_token", _k_media),
    ("mail_client_password", _k_mail),
    ("browser_password_export", _k_browser),
    ("password_manager_export", _k_pwmgr),
    ("http_auth_credential", _k_http_auth),
    ("url_embedded_credential", _k_url_creds),
    ("kerberos_credential", _k_kerberos),
    ("signed_url_signature", _k_signed_url),
    ("azure_credential", _k_azure),
    ("ssh_password_automation", _k_ssh_auto),
    ("windows_remote_password", _k_windows),
    ("vnc_password", _k_vnc),
    ("jupyter_token", _k_jupyter),
    ("data_pipeline_secret", _k_pipeline),
    ("hadoop_spark_secret", _k_hadoop),
    ("message_broker_password", _k_broker),
    ("enterprise_app_credential", _k_enterprise),
    ("oracle_credential", _k_oracle),
    ("license_key", _k_license),
    ("prose_credential", _k_prose),
    ("qa_split_password", _k_qa),
    ("container_registry_auth", _k_registry),
    ("kubernetes_secret", _k_k8s),
    ("iac_hardcoded_secret", _k_iac),
    ("app_secret_key", _k_appsecret),
)


# --------------------------------------------------------------- lookalikes
# Every lookalike function returns (body, lang).  None of them may contain a
# working credential.


_APPS = (
    "orders",
    "billing",
    "api",
    "worker",
    "scheduler",
    "search",
    "notifier",
    "ledger",
    "importer",
    "gateway",
    "thumbnailer",
    "reports",
)


def _l_decision(rng):
    tech = rng.choice(
        (
            "Postgres 16",
            "Redis Streams",
            "Temporal",
            "SQS",
            "Kafka",
            "SQLite",
            "htmx",
            "gRPC",
            "OpenTelemetry",
            "Litestream",
        )
    )
    alt = rng.choice(
        (
            "MongoDB",
            "RabbitMQ",
            "Celery",
            "a cron job",
            "GraphQL",
            "Elasticsearch",
            "our own retry loop",
        )
    )
    area = rng.choice(
        (
            "the job queue",
            "audit logging",
            "session storage",
            "the search index",
            "metrics export",
            "the importer",
        )
    )
    d = _date(rng)
    opts = [
        f"Decision ({d}): use {tech} for {area} instead of {alt}. Reason: fewer moving parts, and the team already knows it.",
        f"ADR-{rng.randrange(10, 99)}: {area} -> {tech}. Rejected {alt} because of operational cost. Revisit in Q{rng.randrange(1, 5)}.",
        f"Entscheidung vom {d}: Für {area} nehmen wir {tech}, nicht {alt}.",
        f"Décision : on garde {tech} pour {area}, {alt} était trop lourd à opérer.",
        f"Decisión: {tech} para {area}. {alt} quedó descartado por costes.",
        f"決定: {area} には {tech} を使う（{alt} は見送り）。",
    ]
    return rng.choice(opts), "prose"


def _l_lesson(rng):
    opts = [
        f"Lesson: `docker compose down -v` also deletes named volumes. Lost the local {rng.choice(_DBNAMES)} db twice.",
        "Lesson learned: pytest caches fixtures per session, so mutating a session fixture leaks into other tests.",
        f"TIL: `git worktree add ../{rng.choice(_REPOS)}-hotfix origin/main` is much nicer than stashing.",
        f"Remember: the {rng.choice(_ENVS)} load balancer drops idle connections after {rng.choice((60, 300, 350))}s, set keepalive lower.",
        "Gotcha: `set -e` does not trigger inside `if` conditions or `&&` chains.",
        f"Note: timestamps in the {rng.choice(_DBNAMES)} export are UTC, the dashboard shows local time.",
        "Lehre: Bei Alembic immer `--autogenerate` Ergebnisse lesen, Enums werden nicht erkannt.",
        f"Leçon : ne jamais lancer `terraform apply` sans `-target` sur le workspace {rng.choice(_ENVS)}.",
    ]
    return rng.choice(opts), "prose"


def _l_shell_history(rng):
    n = rng.randrange(100, 3000)
    cmds = [
        "git status",
        "git pull --rebase",
        "ls -la",
        "docker ps -a",
        "kubectl get pods -n " + rng.choice(_ENVS),
        "make test",
        "cd ~/src/" + rng.choice(_REPOS),
        "htop",
        "df -h",
        "journalctl -u nginx -n 100",
        "terraform plan -out plan.tfplan",
        "npm run build",
        "python -m pytest -x",
        "tail -f /var/log/syslog",
        "ssh " + _fqdn(rng),
        "git log --oneline -20",
        "du -sh * | sort -h",
        "systemctl status postgresql",
        "curl -I https://" + _domain(rng),
        "vim ~/.bashrc",
    ]
    rng.shuffle(cmds)
    lines = [f"  {n + i}  {c}" for i, c in enumerate(cmds[: rng.randint(4, 9)])]
    return "\n".join(lines), "bash"


def _l_py_traceback(rng):
    key = rng.choice(("api_key", "token", "password", "secret", "access_token", "client_secret"))
    mod = rng.choice(("settings", "config", "auth", "client"))
    line = rng.randrange(20, 400)
    body = (
        "Traceback (most recent call last):\n"
        f'  File "/app/{mod}.py", line {line}, in load\n'
        f'    value = cfg["{key}"]\n'
        f"KeyError: '{key}'"
    )
    if rng.random() < 0.5:
        body += f"\n\nFix: the {key.upper()} env var was not set in the {rng.choice(_ENVS)} deployment."
    return body, "python"


def _l_java_trace(rng):
    cls = rng.choice(
        (
            "KeyStoreLoader",
            "TokenValidator",
            "PasswordEncoderConfig",
            "SecretRotationJob",
        )
    )
    exc = rng.choice(
        (
            "java.security.UnrecoverableKeyException: Cannot recover key",
            "java.lang.IllegalStateException: Keystore was tampered with, or password was incorrect",
            "io.jsonwebtoken.ExpiredJwtException: JWT expired at 2024-03-01T10:00:00Z",
            "org.springframework.security.authentication.BadCredentialsException: Bad credentials",
        )
    )
    body = (
        f"{exc}\n\tat com.{_company(rng)}.security.{cls}.load({cls}.java:{rng.randrange(30, 300)})\n"
        f"\tat com.{_company(rng)}.Application.main(Application.java:{rng.randrange(10, 60)})"
    )
    return body, "text"


def _l_nginx(rng):
    dom = _domain(rng)
    body = (
        f"server {{\n    listen 443 ssl http2;\n    server_name {dom};\n"
        f"    ssl_certificate     /etc/letsencrypt/live/{dom}/fullchain.pem;\n"
        f"    ssl_certificate_key /etc/letsencrypt/live/{dom}/privkey.pem;\n"
        f"    location / {{\n        proxy_pass http://127.0.0.1:{rng.choice((3000, 8000, 8080))};\n"
        "        proxy_set_header Host $host;\n    }\n}"
    )
    return body, "nginx"


def _l_crontab(rng):
    lines = [
        f"{rng.randrange(60)} {rng.randrange(24)} * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1",
        f"*/{rng.choice((5, 10, 15))} * * * * /opt/scripts/rotate_tokens.py --dry-run",
        "0 3 * * 0 certbot renew --quiet",
        f"30 {rng.randrange(24)} * * 1-5 cd /srv/{rng.choice(_REPOS)} && make report",
    ]
    rng.shuffle(lines)
    return "\n".join(lines[: rng.randint(2, 4)]), "crontab"


def _l_systemd(rng):
    app = rng.choice(_APPS)
    env = rng.choice(_ENVS)
    extra = rng.choice(
        (
            f"LoadCredential=db_password:/etc/credstore/{app}.db_password\n",
            f"SetCredentialEncrypted=api-token: (encrypted blob stored in /etc/credstore.encrypted/{app})\n",
            "",
        )
    )
    body = (
        f"[Unit]\nDescription={app} ({env})\nAfter=network-online.target\n\n[Service]\nUser={app}\n"
        f"EnvironmentFile=/etc/{app}/secrets.env\n{extra}"
        f"ExecStart=/usr/local/bin/{app} --config /etc/{app}/config.toml --port {rng.choice((8080, 8000, 9000, 3000))}\n"
        f"Restart=on-failure\nRestartSec={rng.randrange(2, 30)}\n\n[Install]\nWantedBy=multi-user.target"
    )
    return body, "ini"


def _l_dockerfile(rng):
    base = rng.choice(
        (
            "python:3.12-slim",
            "node:20-alpine",
            "golang:1.22",
            "eclipse-temurin:21-jre",
            "ruby:3.3",
            "node:22-bookworm",
        )
    )
    app = rng.choice(_APPS)
    secret_id = rng.choice(("npmrc", "pip_conf", "gh_token", "netrc", "bundle_config"))
    body = (
        f"# syntax=docker/dockerfile:1\nFROM {base}\nWORKDIR /srv/{app}\nCOPY . .\n"
        f"RUN --mount=type=secret,id={secret_id} ./scripts/install-deps.sh\n"
        f"ARG GIT_SHA\nENV APP_VERSION=${{GIT_SHA}}\nEXPOSE {rng.choice((8080, 8000, 3000, 5000))}\n"
        'CMD ["./start.sh"]\n\n'
        f"# build: docker build --secret id={secret_id},src=$HOME/.{secret_id} -t {app}:dev ."
    )
    return body, "dockerfile"


def _l_k8s_deploy(rng):
    app = rng.choice(("orders", "billing", "api", "grafana"))
    body = (
        f"      containers:\n        - name: {app}\n          image: ghcr.io/{_company(rng)}/{app}:{rng.randrange(1, 4)}.{rng.randrange(20)}.{rng.randrange(10)}\n"
        "          env:\n            - name: DB_PASSWORD\n              valueFrom:\n                secretKeyRef:\n"
        f"                  name: {app}-db\n                  key: password\n            - name: API_TOKEN\n"
        f"              valueFrom:\n                secretKeyRef:\n                  name: {app}-api\n                  key: token"
    )
    return body, "yaml"


def _l_gha(rng):
    job = rng.choice(("publish", "deploy", "release", "nightly", "e2e"))
    env_name = rng.choice(
        (
            "NPM_TOKEN",
            "PYPI_API_TOKEN",
            "DOCKERHUB_TOKEN",
            "SLACK_WEBHOOK_URL",
            "SENTRY_AUTH_TOKEN",
        )
    )
    env2 = rng.choice(("AWS_SECRET_ACCESS_KEY", "GCP_SA_KEY", "AZURE_CREDENTIALS", "KUBECONFIG_B64"))
    body = (
        f"jobs:\n  {job}:\n    runs-on: ubuntu-{rng.choice(('latest', '22.04', '24.04'))}\n    environment: {rng.choice(_ENVS)}\n"
        "    steps:\n      - uses: actions/checkout@v4\n"
        f"      - run: ./scripts/{job}.sh\n        env:\n          {env_name}: ${{{{ secrets.{env_name} }}}}\n"
        f"          {env2}: ${{{{ secrets.{env2} }}}}"
    )
    return body, "yaml"


def _l_csv_sales(rng):
    rows = ["date,region,product,units,revenue_eur"]
    for _ in range(rng.randint(3, 6)):
        rows.append(
            f"{_date(rng)},{rng.choice(_CITIES)},{rng.choice(('Basic', 'Pro', 'Team', 'Enterprise'))},{rng.randrange(1, 400)},{rng.randrange(100, 90000)}.{rng.randrange(100):02d}"
        )
    return "\n".join(rows), "csv"


def _l_md_table(rng):
    rows = ["| Benchmark | Before | After | Δ |", "|---|---|---|---|"]
    for name in rng.sample(
        ("parse_json", "tokenize", "hash_keys", "encode_b64", "insert_1k", "query_p95"),
        3,
    ):
        a = rng.randrange(50, 900)
        b = rng.randrange(30, a + 1)
        rows.append(f"| {name} | {a} ms | {b} ms | -{round(100 * (a - b) / a)}% |")
    return "\n".join(rows), "markdown"


def _l_commits(rng):
    opts = [
        "fix(auth): don't log the password field in debug output",
        "chore: rotate leaked token (old one revoked, new one only in vault)",
        "feat: add token bucket rate limiter for /api/search",
        "refactor: rename secret_key setting to signing_key_path",
        "test: make password reset tests pass on CI",
        "docs: explain how to set DB_PASSWORD locally",
        "fix: KeyError when config has no 'api_key' entry",
        "build: pin cryptography to 42.0.5",
        "feat(ui): show/hide toggle on the password input",
        "ci: read NPM_TOKEN from repository secrets instead of .npmrc",
    ]
    picks = rng.sample(opts, rng.randint(1, 3))
    return "\n".join(f"{_hex(rng, 7)} {p}" for p in picks), "text"


def _l_meeting(rng):
    a, b = _name(rng), _name(rng)
    opts = [
        f"Standup {_date(rng)}\n- {a}: finished the login page redesign\n- {b}: blocked on the SSO metadata from IT\n- next: password reset flow",
        f"Retro: the key takeaway is that we need smaller PRs. {a} will try stacked diffs.",
        f"Réunion du {_date(rng)} : {a} s'occupe de la rotation des clés, {b} du runbook.",
        f"Besprechung: {a} prüft, ob wir die Tokens kürzer gültig machen können (aktuell 24h).",
        f"1:1 with {a}: wants to own the secrets-management migration next quarter.",
    ]
    return rng.choice(opts), "prose"


def _l_sql(rng):
    t = rng.choice(("users", "accounts", "members", "customers", "admins"))
    n = rng.randrange(1000, 99999)
    opts = [
        f"SELECT id, email, password_hash, last_login_at FROM {t} WHERE last_login_at < now() - interval '{rng.randrange(1, 3)} year';",
        f"ALTER TABLE api_keys ADD COLUMN revoked_at timestamptz;\nCREATE INDEX ON api_keys (key_prefix);  -- {_ticket(rng)}",
        f"UPDATE sessions SET expires_at = now() WHERE user_id = {n};",
        f"SELECT model, sum(prompt_tokens) AS tokens_in, sum(completion_tokens) AS tokens_out FROM llm_usage WHERE day >= '{_date(rng)}' GROUP BY 1;",
        "CREATE TABLE secrets_audit (id bigserial PRIMARY KEY, secret_name text NOT NULL, rotated_by text, rotated_at timestamptz);",
        f"DELETE FROM password_reset_tokens WHERE created_at < now() - interval '{rng.choice((1, 2, 24))} hours';",
        f"SELECT count(*) FROM {t} WHERE mfa_enabled = false;  -- {n} rows on {rng.choice(_ENVS)}",
    ]
    return rng.choice(opts), "sql"


def _l_code(rng):
    fn = rng.choice(("tokenize", "lex", "split_tokens", "scan"))
    var = rng.choice(("value", "secret", "apiKey", "token", "raw"))
    keep = rng.choice((2, 4, 6))
    opts = [
        (
            (
                f"func {fn}(input string) []Token {{\n\tvar tokens []Token\n\tfor _, f := range strings.Fields(input) {{\n"
                "\t\ttokens = append(tokens, Token{Kind: classify(f), Text: f})\n\t}\n\treturn tokens\n}"
            ),
            "go",
        ),
        (
            (
                "fn verify(password: &str, hash: &str) -> bool {\n    let parsed = PasswordHash::new(hash).unwrap();\n"
                "    Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()\n}"
            ),
            "rust",
        ),
        (
            (
                f"export function mask({var}: string): string {{\n  if ({var}.length <= {keep}) return '****';\n"
                f"  return '*'.repeat({var}.length - {keep}) + {var}.slice(-{keep});\n}}"
            ),
            "ts",
        ),
        (
            (
                f'def get_secret(name: str, version: str = "{rng.choice(("latest", "1", "2"))}") -> str:\n    resp = client.access_secret_version(\n'
                '        name=f"projects/{PROJECT}/secrets/{name}/versions/{version}"\n    )\n    return resp.payload.data.decode()'
            ),
            "python",
        ),
        (
            f"val {var} = intent.getStringExtra(EXTRA_TOKEN) ?: return\nviewModel.verifyEmail({var})",
            "kotlin",
        ),
        (
            f"public boolean matches(CharSequence raw, String encoded) {{\n    return encoder.matches(raw, encoded); // {rng.choice(('bcrypt', 'argon2', 'pbkdf2'))}\n}}",
            "java",
        ),
        (
            f'password = getpass.getpass("{rng.choice(("Vault", "LDAP", "Database"))} password: ")',
            "python",
        ),
    ]
    return rng.choice(opts)


def _l_log_ids(rng):
    lines = []
    for _ in range(rng.randint(2, 4)):
        lines.append(
            f"{_date(rng)}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}Z INFO request_id={_uuid(rng)} "
            f"trace_id={_hex(rng, 32)} span_id={_hex(rng, 16)} status={rng.choice((200, 201, 204, 404))} "
            f"latency_ms={rng.randrange(2, 900)}"
        )
    return "\n".join(lines), "text"


def _l_release_shas(rng):
    v = f"v{rng.randrange(1, 5)}.{rng.randrange(30)}.{rng.randrange(10)}"
    lines = [f"## {v} ({_date(rng)})"]
    for msg in rng.sample(
        (
            "fix token refresh race",
            "add key rotation docs",
            "bump deps",
            "faster secret lookup",
            "drop py3.8",
        ),
        3,
    ):
        lines.append(f"- {msg} ({_hex(rng, 40)})")
    return "\n".join(lines), "markdown"


def _l_uuid_log(rng):
    return (
        f"Created job {_uuid(rng)} for tenant {_uuid(rng)}; correlation-id {_uuid(rng)}; "
        f"attempt {rng.randrange(1, 4)}/3"
    ), "text"


def _l_image_digest(rng):
    img = rng.choice(
        (
            "postgres",
            "redis",
            "nginx",
            "grafana/grafana",
            "ghcr.io/" + _company(rng) + "/api",
        )
    )
    tag = rng.choice(("16.2", "7.2-alpine", "1.25", "10.4.1", "2024.05.1"))
    opts = [
        f"image: {img}:{tag}@sha256:{_hex(rng, 64)}",
        f"Digest: sha256:{_hex(rng, 64)}\nStatus: Downloaded newer image for {img}:{tag}",
        f"pinned {img} to sha256:{_hex(rng, 64)} so renovate stops bumping it",
    ]
    return rng.choice(opts), "text"


def _l_npm_integrity(rng):
    pkg = rng.choice(("jsonwebtoken", "bcryptjs", "keytar", "passport", "dotenv", "secret-handshake"))
    ver = f"{rng.randrange(1, 10)}.{rng.randrange(20)}.{rng.randrange(10)}"
    body = (
        f'"node_modules/{pkg}": {{\n  "version": "{ver}",\n  "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg}-{ver}.tgz",\n'
        f'  "integrity": "sha512-{_b64(_rb(rng, 64))}"\n}}'
    )
    return body, "json"


def _l_checksums(rng):
    f = rng.choice(
        (
            "vault_1.16.2_linux_amd64.zip",
            "terraform_1.8.3_linux_amd64.zip",
            "keepassxc-2.7.7.dmg",
            "restic_0.16.4_linux_amd64.bz2",
        )
    )
    opts = [
        f"{_hex(rng, 64)}  {f}",
        f"SHA256 ({f}) = {_hex(rng, 64)}",
        f"$ sha256sum {f}\n{_hex(rng, 64)}  {f}\nchecksum matches the one on the release page",
        f"md5: {_hex(rng, 32)}\nsha1: {_hex(rng, 40)}\nfile: {f}",
    ]
    return rng.choice(opts), "text"


def _l_gpg_fpr(rng):
    fpr = " ".join(_r(rng, "0123456789ABCDEF", 4) for _ in range(10))
    who = _full(rng)
    opts = [
        f"pub   ed25519 {_date(rng)} [SC]\n      {fpr.replace(' ', '')}\nuid           [ultimate] {who} <{who.split()[0].lower()}@{_domain(rng)}>",
        f"Release signing key fingerprint: {fpr}\nVerify with: gpg --verify SHA256SUMS.sig SHA256SUMS",
        f"git config --global user.signingkey {_r(rng, '0123456789ABCDEF', 16)}",
    ]
    return rng.choice(opts), "text"


def _l_ssh_pubkey(rng):
    who = f"{rng.choice(_FIRST)}@{rng.choice(('laptop', 'mbp', 'workstation', 'ci'))}"
    ed = "ssh-ed25519 " + _b64(_ed25519_pub_blob(rng)) + " " + who
    rsa_blob = _ssh_str(b"ssh-rsa") + _ssh_str(b"\x01\x00\x01") + _ssh_str(b"\x00" + _rb(rng, 256))
    rsa = "ssh-rsa " + _b64(rsa_blob) + " " + who
    host = _fqdn(rng)
    opts = [
        (f"public key to add to authorized_keys on {host}:\n{ed}", "text"),
        (f"{host} {ed.rsplit(' ', 1)[0]}", "text"),
        (
            f'- name: add deploy key\n  ansible.posix.authorized_key:\n    user: deploy\n    key: "{rsa}"',
            "yaml",
        ),
        (f"$ cat ~/.ssh/id_ed25519.pub\n{ed}", "text"),
    ]
    return rng.choice(opts)


def _l_pem_public(rng):
    d = _dash()
    k = rng.randrange(3)
    if k == 0:
        der = (
            bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100")
            + _rb(rng, 256)
            + bytes.fromhex("0203010001")
        )
        label = "PUBLIC KEY"
        intro = "Public key for verifying webhook signatures (safe to share):"
    elif k == 1:
        der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + _rb(rng, 64)
        label = "PUBLIC KEY"
        intro = "JWT verification key (public half only):"
    else:
        der = bytes.fromhex("308203") + _rb(rng, 700)
        label = "CERTIFICATE"
        intro = f"CA cert for {_domain(rng)} (public, goes into the trust store):"
    body = _b64(der)
    pem = (
        f"{d}BEGIN {label}{d}\n" + "\n".join(body[i : i + 64] for i in range(0, len(body), 64)) + f"\n{d}END {label}{d}"
    )
    return intro + "\n" + pem, "text"


def _l_redacted(rng):
    four = _r(rng, _ALNUM, 4)
    opts = [
        "DB_PASSWORD=********",
        f"api_key: sk-...{four} (redacted)",
        "Authorization: Bearer <redacted>",
        "token=[FILTERED]&user_id=" + str(rng.randrange(1000, 99999)),
        f"password: '***'\nhost: {_fqdn(rng)}",
        "STRIPE_SECRET_KEY=" + "sk" + "_live_" + "•" * 12 + four,
        '{"password": "[REDACTED]", "username": "' + _user(rng) + '"}',
        f'Parameters: {{"user"=>{{"email"=>"{rng.choice(_FIRST)}@{_domain(rng)}", "password"=>"[FILTERED]"}}}}',
        "secret: ${REDACTED}",
        "x-api-key: ********************************" + four,
    ]
    return rng.choice(opts), "text"


def _l_env_names(rng):
    v = rng.choice(
        (
            "STRIPE_SECRET_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "OPENAI_API_KEY",
            "JWT_SECRET",
            "DB_PASSWORD",
            "SMTP_PASSWORD",
            "GITHUB_TOKEN",
        )
    )
    w = rng.choice(
        (
            "REDIS_PASSWORD",
            "SENTRY_AUTH_TOKEN",
            "SLACK_BOT_TOKEN",
            "API_SECRET",
            "LDAP_BIND_PASSWORD",
        )
    )
    opts = [
        f"Set {v} and {w} in your shell before running `make dev`.",
        f"The app reads {v} and {w} from the environment; none of them are needed for unit tests.",
        f"env | grep -c SECRET  # should print {rng.randrange(2, 7)} on the build agents",
        f"Missing required env var: {v}",
        f"export VAULT_ADDR=https://vault.{_domain(rng)}:8200\nexport VAULT_TOKEN=$(vault print token)",
        f"Rename {w} -> SIGNING_SECRET in all helm charts (ticket {_ticket(rng)}).",
        f"`{v}` is injected by the CSI driver at /mnt/secrets/{v.lower()}, don't put it in values.yaml",
    ]
    return rng.choice(opts), "prose"


def _l_placeholders(rng):
    app = rng.choice(_APPS)
    opts = [
        (
            f"{app.upper()}_API_KEY=<your-api-key>\n{app.upper()}_BASE_URL=https://api.example.com",
            "ini",
        ),
        (
            f"password: {{{{ vault_{app}_db_password }}}}\nuser: {{{{ {app}_db_user }}}}",
            "yaml",
        ),
        (
            f'curl -H "Authorization: Bearer ${{{app.upper()}_TOKEN}}" https://{app}.example.com/v1/status',
            "bash",
        ),
        ("OPENAI_API_KEY=<your-api-key>\nOPENAI_MODEL=gpt-4o-mini", "ini"),
        ('stripe.api_key = "YOUR_SECRET_KEY_HERE"', "python"),
        ("password: {{ vault_db_password }}\nuser: {{ db_user }}", "yaml"),
        ('"token": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"', "json"),
        ("DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME", "ini"),
        ("docker login -u <username> -p <password> registry.example.com", "bash"),
        ('aws_secret_access_key = "REPLACE_ME"', "ini"),
        (
            "curl -H 'Authorization: Bearer $TOKEN' https://api.example.com/v1/me",
            "bash",
        ),
        ("SECRET_KEY=%(SECRET_KEY)s", "ini"),
        ("api_key: ${API_KEY:?must be set}", "yaml"),
        ("export GITHUB_TOKEN=" + "gh" + "p_" + "X" * 36, "bash"),
        ('password = os.environ["DB_PASSWORD"]', "python"),
    ]
    return rng.choice(opts)


def _l_secret_refs(rng):
    region = rng.choice(_REGIONS)
    acct = _digits(rng, 12)
    app = rng.choice(("orders", "billing", "api", "etl"))
    opts = [
        (
            f"arn:aws:secretsmanager:{region}:{acct}:secret:prod/{app}/db-{_r(rng, _ALNUM, 6)}",
            "text",
        ),
        (
            f"vault kv get -field=password secret/{app}/{rng.choice(_ENVS)}/postgres",
            "bash",
        ),
        (f"DB_PASSWORD=op://Engineering/{app}-postgres/password", "ini"),
        (
            f"projects/{_company(rng)}-prod/secrets/{app}-api-key/versions/{rng.randrange(1, 9)}",
            "text",
        ),
        (f"password: !vault |\n  ref: kv/data/{app}#password", "yaml"),
        (
            f"@Microsoft.KeyVault(SecretUri=https://{_company(rng)}-kv.vault.azure.net/secrets/{app}-db-password/)",
            "text",
        ),
        (f"{{{{resolve:secretsmanager:{app}/rds:SecretString:password}}}}", "yaml"),
        (
            f"ssm get-parameter --name /{app}/{rng.choice(_ENVS)}/api_token --with-decryption --query Parameter.Value",
            "bash",
        ),
    ]
    return rng.choice(opts)


def _l_encrypted(rng):
    d = _dash()
    k = rng.randrange(5)
    if k == 0:
        data = _b64(_rb(rng, rng.randint(12, 30)))
        body = (
            f"db_password: ENC[AES256_GCM,data:{data},iv:{_b64(_rb(rng, 32))},tag:{_b64(_rb(rng, 16))},type:str]\n"
            f"sops:\n    kms:\n        - arn: arn:aws:kms:{rng.choice(_REGIONS)}:{_digits(rng, 12)}:key/{_uuid(rng)}\n"
            f'    lastmodified: "{_date(rng)}T10:00:00Z"\n    version: 3.8.1'
        )
        return body, "yaml"
    if k == 1:
        lines = [_hex(rng, 80) for _ in range(rng.randint(4, 7))]
        return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(lines), "text"
    if k == 2:
        blob = "Ag" + rng.choice("ABC") + _b64(_rb(rng, 300))
        return (
            (
                f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {rng.choice(('api', 'db', 'smtp'))}-creds\n"
                f"spec:\n  encryptedData:\n    password: {blob}"
            ),
            "yaml",
        )
    if k == 3:
        body = _b64(_rb(rng, 200))
        lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
        return (
            f"{d}BEGIN AGE ENCRYPTED FILE{d}\n{lines}\n{d}END AGE ENCRYPTED FILE{d}",
            "text",
        )
    blob = "AQICAHh" + _b64(_rb(rng, 150))
    return (
        f"# decrypted at startup with kms:Decrypt\nencrypted_db_password: {blob}",
        "yaml",
    )


_BCRYPT = "./" + _UPPER + _LOWER + _DIGITS


def _l_hash_discussion(rng):
    bc = f"$2b${rng.choice(('10', '12', '14'))}$" + _r(rng, _BCRYPT, 53)
    ar = (
        f"$argon2id$v=19$m={rng.choice((19456, 65536))},t={rng.choice((2, 3))},p=1$"
        + _b64(_rb(rng, 16)).rstrip("=")
        + "$"
        + _b64(_rb(rng, 32)).rstrip("=")
    )
    sh = "$6$" + _r(rng, _BCRYPT, 16) + "$" + _r(rng, _BCRYPT, 86)
    dj = f"pbkdf2_sha256${rng.choice((600000, 870000))}$" + _r(rng, _ALNUM, 22) + "$" + _b64(_rb(rng, 32))
    opts = [
        f"We store passwords as bcrypt with cost 12. A stored value looks like `{bc}` - the cost factor is the number after $2b$.",
        f"Migrating to argon2id. Format in the DB after the change:\n{ar}\nOld sha1 rows get rehashed on next login.",
        f"Why is /etc/shadow using `$6$`? That's sha512-crypt, e.g. `{sh}`; yescrypt (`$y$`) is the newer default.",
        f"Django's default hasher output: {dj}\n(algorithm$iterations$salt$hash)",
        f"Benchmark: bcrypt cost 12 takes ~250ms here. Sample hash for the docs: {bc}",
    ]
    return rng.choice(opts), "prose"


def _l_hashed_configs(rng):
    user = rng.choice(("admin", "metrics", "alice", "mqtt"))
    apr = "$apr1$" + _r(rng, _BCRYPT, 8) + "$" + _r(rng, _BCRYPT, 22)
    ssha = "{SSHA}" + _b64(_rb(rng, 24))
    opts = [
        (f"# .htpasswd (hashes only)\n{user}:{apr}", "text"),
        (f"rootpw {ssha}", "conf"),
        (
            f"c.ServerApp.password = 'argon2:$argon2id$v=19$m=10240,t=10,p=8${_b64(_rb(rng, 16)).rstrip('=')}${_b64(_rb(rng, 32)).rstrip('=')}'",
            "python",
        ),
        (f"enable secret 9 $9${_r(rng, _BCRYPT, 14)}${_r(rng, _BCRYPT, 43)}", "cisco"),
    ]
    return rng.choice(opts)


def _l_b64_json(rng):
    cursor = _b64(
        json.dumps(
            {
                "page": rng.randrange(2, 50),
                "size": rng.choice((25, 50, 100)),
                "sort": "created_at",
            }
        ).encode()
    )
    state = _b64u(json.dumps({"return_to": "/dashboard", "tab": rng.choice(("billing", "team", "usage"))}).encode())
    opts = [
        f'{{"items": [...], "next_page_token": "{cursor}"}}',
        f"GET /api/orders?cursor={cursor}",
        f"the `state` param is just base64 JSON ({state}), it only carries the return_to path",
        f"echo '{cursor}' | base64 -d  # -> pagination cursor, nothing sensitive",
    ]
    return rng.choice(opts), "text"


def _l_tests_pass(rng):
    p = rng.randrange(50, 900)
    opts = [
        f"===== {p} passed, {rng.randrange(0, 5)} skipped in {rng.randrange(2, 90)}.{rng.randrange(10, 99)}s =====",
        f"All {p} tests pass locally but CI fails on the password reset spec; flaky timeout?",
        f"Tests: {p} passed, {p} total\nSnapshots: 0 total\nTime: {rng.randrange(2, 60)}.{rng.randrange(100, 999)} s",
        f"ok  \tgithub.com/{_company(rng)}/auth/token\t0.{rng.randrange(100, 999)}s",
        f"Pass rate last 7 days: {rng.randrange(90, 100)}.{rng.randrange(10)}%",
        f"second pass of the review on {_ticket(rng)} done, only nits left",
        f"test_login_with_wrong_password PASSED [{rng.randrange(1, 99)}%]",
    ]
    return rng.choice(opts), "text"


def _l_dict_key(rng):
    pref = rng.choice(("secret_", "token_", "password_", "key_"))
    n = rng.randrange(2, 40)
    opts = [
        (
            f"for key, value in settings.items():\n    if key.startswith('{pref}'):\n        print(key, '=', '***')",
            "python",
        ),
        (
            f"Press the Windows key + L to lock the screen before leaving (audit finding #{n}).",
            "prose",
        ),
        (
            f"Hotkey: Ctrl+Shift+{rng.choice('KLPTX')} in VS Code, remapped on my machine.",
            "prose",
        ),
        (
            "The map key is the tenant id, the value is the list of feature flags.",
            "prose",
        ),
        (
            f'cache.set(key=f"user:{{user_id}}:profile", value=data, ttl={rng.choice((60, 300, 3600))})',
            "python",
        ),
        (
            f"Object.keys(payload).filter(k => k !== '{rng.choice(('password', 'token', 'secret'))}')",
            "js",
        ),
        (
            f"Die Taste F{rng.randrange(1, 13)} ist auf dem Laptop von {_name(rng)} kaputt.",
            "prose",
        ),
        (
            f"key ring in the drawer has the keys for rooms {rng.randrange(1, 4)}.{n} and {rng.randrange(1, 4)}.{n + 2}",
            "prose",
        ),
        (
            f"KeyError: '{rng.choice(('secret_key', 'api_token', 'password'))}' when the yaml section is missing",
            "text",
        ),
    ]
    return rng.choice(opts)


def _l_tokens(rng):
    n = rng.randrange(200, 9000)
    opts = [
        f"SyntaxError: Unexpected token '}}' in JSON at position {rng.randrange(10, 500)}",
        f"usage: prompt_tokens={n}, completion_tokens={rng.randrange(10, 800)}, total_tokens={n + rng.randrange(10, 800)}",
        f"set max_tokens=4096 and context window to 128k tokens; the summary prompt is ~{n} tokens",
        "lexer emits an INDENT token before every nested block",
        f"Token count per doc: mean {rng.randrange(300, 900)}, p95 {rng.randrange(1000, 4000)}",
        "parse error: expected token IDENT, got NUMBER at 3:17",
    ]
    return rng.choice(opts), "text"


def _l_feature_flags(rng):
    pct = rng.choice((5, 10, 25, 50, 100))
    opts = [
        (
            f"features:\n  new_password_reset_flow: {rng.choice(('true', 'false'))}\n  show_api_keys_page: false\n  token_rotation_v2: rollout-{pct}%",
            "yaml",
        ),
        (
            f'{{"flag": "secret_scanning_enabled", "enabled": true, "rollout": {pct}}}',
            "json",
        ),
        (
            f"FEATURE_PASSKEY_LOGIN={rng.randrange(2)}\nFEATURE_LEGACY_PASSWORD_LOGIN={rng.randrange(2)}",
            "ini",
        ),
        (f"flipped enable_sso_only for tenant {rng.randrange(100, 9999)}", "text"),
        (
            f"unleash: toggle `api-key-v2-format` is at {pct}% in {rng.choice(_ENVS)}",
            "text",
        ),
    ]
    return rng.choice(opts)


def _l_analytics(rng):
    opts = [
        f"_ga=GA1.1.{_digits(rng, 10)}.{rng.randrange(1600000000, 1730000000)}; _ga_{_r(rng, _UPNUM, 10)}=GS1.1.{rng.randrange(1600000000, 1730000000)}.3.1.{rng.randrange(1600000000, 1730000000)}.0.0.0",
        f"event_name=page_view, ga_session_id={rng.randrange(1600000000, 1730000000)}, user_pseudo_id={_digits(rng, 10)}.{rng.randrange(1600000000, 1730000000)}",
        f'{{"event": "signup_completed", "distinct_id": "{_uuid(rng)}", "properties": {{"plan": "free"}}}}',
        f"anonymousId: {_uuid(rng)} (segment, public analytics export)",
        f"_pk_id.1.{_hex(rng, 4)}={_hex(rng, 16)}.{rng.randrange(1600000000, 1730000000)}.",
    ]
    return rng.choice(opts), "text"


def _l_nonce_docs(rng):
    nonce = _b64(_rb(rng, 16))
    opts = [
        f"Content-Security-Policy: script-src 'nonce-{nonce}' 'strict-dynamic'; object-src 'none'",
        f'Example from the docs: <script nonce="{nonce}">...</script> - the nonce must be regenerated on every response.',
        f"CSP hash for the inline snippet: 'sha256-{_b64(_rb(rng, 32))}'",
        f"OIDC: the nonce ({_b64u(_rb(rng, 16))}) in the ID token must match the one we stored in the session.",
    ]
    return rng.choice(opts), "text"


def _l_versions(rng):
    pk = rng.choice(
        (
            "jsonwebtoken",
            "keyring",
            "passport",
            "python-jose",
            "secretstorage",
            "keycloak",
            "tokenizers",
            "password-validator",
            "bcrypt",
        )
    )
    v = f"{rng.randrange(0, 30)}.{rng.randrange(20)}.{rng.randrange(10)}"
    opts = [
        f"{pk}=={v}",
        f'"{pk}": "^{v}"',
        f"bumped {pk} from {rng.randrange(0, 9)}.{rng.randrange(9)}.0 to {v} (CVE fix)",
        f"{pk} {v} requires Python >= 3.9",
    ]
    return rng.choice(opts), "text"


def _l_password_policy(rng):
    n = rng.choice((10, 12, 14, 16))
    d = rng.choice((30, 60, 90, 180))
    opts = [
        f"Password policy: at least {n} characters, no composition rules, check against HIBP, lockout after {rng.choice((5, 10))} attempts.",
        f"Passwörter müssen mindestens {n} Zeichen lang sein und werden nicht mehr alle {d} Tage erzwungen geändert.",
        f"TOTP codes are 6 digits and valid for 30 seconds; we accept {rng.choice(('one step', 'two steps'))} of clock drift.",
        f"Service account passwords are rotated every {d} days by the vault lease, nobody should know them.",
        f"NIST 800-63B says no periodic rotation; min length {n} for admins.",
        f"La politique de mots de passe impose {n} caractères minimum depuis le {_date(rng)}.",
    ]
    return rng.choice(opts), "prose"


def _l_pinning(rng):
    opts = [
        (
            f"pin the dependency: requests=={rng.randrange(2, 3)}.{rng.randrange(28, 33)}.{rng.randrange(5)} until the proxy bug is fixed",
            "text",
        ),
        (
            f"LED is on GPIO pin {rng.randrange(2, 27)}, button on pin {rng.randrange(2, 27)}",
            "text",
        ),
        (
            f'Public-Key-Pins: pin-sha256="{_b64(_rb(rng, 32))}"; max-age=5184000',
            "http",
        ),
        (f'<pin digest="SHA-256">{_b64(_rb(rng, 32))}</pin>', "xml"),
        ("Pinned the message in #ops so people stop asking.", "prose"),
    ]
    return rng.choice(opts)


def _l_public_ids(rng):
    pk = "pk" + "_live_" + _r(rng, _ALNUM, rng.choice((24, 99)))
    cid = f"{_digits(rng, 12)}-{_r(rng, _LOWNUM, 32)}.apps.googleusercontent.com"
    opts = [
        (
            f"const stripe = Stripe('{pk}'); // publishable key, fine to ship in the bundle",
            "js",
        ),
        (f"GOOGLE_OAUTH_CLIENT_ID={cid}", "ini"),
        (
            f'projectId: "{_company(rng)}-app-{rng.randrange(1000, 9999)}",\nmessagingSenderId: "{_digits(rng, 12)}",\nmeasurementId: "G-{_r(rng, _UPNUM, 10)}"',
            "js",
        ),
        (f"AWS account id {_digits(rng, 12)}, tenant id {_uuid(rng)}", "text"),
        (
            f"GitHub App client ID: Iv1.{_hex(rng, 16)} (public), app id {rng.randrange(100000, 999999)}",
            "text",
        ),
        (f"Slack channel C{_r(rng, _UPNUM, 10)} / user U{_r(rng, _UPNUM, 10)}", "text"),
        (
            f"Apple Team ID {_r(rng, _UPNUM, 10)}, bundle com.{_company(rng)}.app",
            "text",
        ),
    ]
    return rng.choice(opts)


def _l_doc_examples(rng):
    akid = "AK" + "IA" + "IOSFODNN7" + "EXAMPLE"
    sec = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKEY"
    akid2 = "AK" + "IA" + "I44QH8DHB" + "EXAMPLE"
    jwt_io = (
        _b64u(b'{"alg":"HS256","typ":"JWT"}')
        + "."
        + _b64u(b'{"sub":"1234567890","name":"John Doe","iat":1516239022}')
        + "."
        + "SflKxwRJSMeKKF2QT4fw"
        + "pMeJf36POk6yJV_adQssw5c"
    )
    prof = rng.choice(("default", "localstack", "moto", "test"))
    opts = [
        (
            f"From the AWS docs (example values, not real):\n[{prof}]\naws_access_key_id = {akid}\naws_secret_access_key = {sec}",
            "ini",
        ),
        (
            f"The AWS CLI docs use {akid2} as the placeholder access key ID ({_ticket(rng)}).",
            "prose",
        ),
        (f"jwt.io's sample token, handy for testing the decoder UI:\n{jwt_io}", "text"),
        (
            f"def test_decode_{rng.choice(('sample', 'example', 'docs'))}():\n    # the jwt.io example token\n    claims = decode_unverified('{jwt_io}')\n    assert claims['sub'] == '1234567890'",
            "python",
        ),
        (
            f"os.environ['AWS_SECRET_ACCESS_KEY'] = '{sec}'  # AWS documentation example key, used with moto in {prof} tests",
            "python",
        ),
        (
            f"localstack: AWS_ACCESS_KEY_ID={akid} AWS_SECRET_ACCESS_KEY={sec} aws --endpoint-url=http://localhost:4566 s3 ls",
            "bash",
        ),
    ]
    return rng.choice(opts)


def _l_css(rng):
    body = (
        f"@keyframes fade-in {{ from {{ opacity: 0; }} to {{ opacity: 1; }} }}\n.token-badge {{\n  color: #{_hex(rng, 6)};\n"
        f"  background: #{_hex(rng, 6)};\n  animation: fade-in {rng.randrange(100, 600)}ms ease-out;\n}}"
    )
    return body, "css"


def _l_tf_vars(rng):
    v = rng.choice(("db_password", "api_token", "admin_password", "smtp_password"))
    body = (
        f'variable "{v}" {{\n  type      = string\n  sensitive = true\n}}\n\n'
        f'resource "aws_db_instance" "{rng.choice(_APPS)}" {{\n  username = "app"\n  password = var.{v}\n'
        f'  instance_class = "db.{rng.choice(("t3", "t4g", "r6g"))}.{rng.choice(("medium", "large"))}"\n}}'
    )
    return body, "hcl"


def _l_helm_existing(rng):
    app = rng.choice(("postgresql", "redis", "keycloak", "minio", "mongodb", "rabbitmq"))
    rel = rng.choice(_APPS)
    body = (
        f"{app}:\n  auth:\n    existingSecret: {rel}-{app}-credentials\n    secretKeys:\n"
        f"      adminPasswordKey: admin-password\n      userPasswordKey: password\n  persistence:\n    size: {rng.choice((8, 20, 50))}Gi"
    )
    return body, "yaml"


def _l_env_example(rng):
    keys = [
        "DATABASE_URL=",
        "STRIPE_SECRET_KEY=",
        "SENTRY_DSN=",
        "JWT_SECRET=",
        "SMTP_PASSWORD=",
        "OPENAI_API_KEY=",
        "GITHUB_TOKEN=",
    ]
    rng.shuffle(keys)
    body = (
        "# .env.example - copy to .env and fill in\nAPP_ENV=development\n"
        f"REDIS_URL=redis://localhost:6379/{rng.randrange(4)}\n"
        + "\n".join(keys[: rng.randint(3, 6)])
        + f"\nLOG_LEVEL={rng.choice(('debug', 'info', 'warn'))}"
    )
    return body, "ini"


def _l_java_props(rng):
    body = (
        "server.ssl.key-store=classpath:keystore.p12\nserver.ssl.key-store-password=${KEYSTORE_PASSWORD}\n"
        f"spring.datasource.password=${{DB_PASSWORD}}\nspring.datasource.url=jdbc:postgresql://{_fqdn(rng, 'pg')}:5432/{rng.choice(_DBNAMES)}"
    )
    return body, "properties"


def _l_net_redacted(rng):
    body = (
        f"hostname {rng.choice(('core-sw1', 'edge-rtr01', 'dist-sw-02'))}\nenable secret <removed>\n"
        "username admin privilege 15 secret <removed>\nsnmp-server community <REDACTED> RO 10\n"
        f"tacacs server TAC1\n address ipv4 {_ip(rng)}\n key <removed>"
    )
    return body, "cisco"


def _l_api_docs(rng):
    hdr = rng.choice(("X-API-Key", "X-Auth-Token", "Api-Key"))
    ttl = rng.choice((900, 3600, 86400))
    opts = [
        (
            (
                "components:\n  securitySchemes:\n    bearerAuth:\n      type: http\n      scheme: bearer\n      bearerFormat: JWT\n"
                f"    apiKeyHeader:\n      type: apiKey\n      in: header\n      name: {hdr}"
            ),
            "yaml",
        ),
        (
            (
                f'POST /api/v{rng.randrange(1, 4)}/login\nBody: {{"username": string, "password": string}}\n'
                f'Returns: {{"access_token": string, "expires_in": {ttl}, "token_type": "Bearer"}}'
            ),
            "text",
        ),
        (
            f"To authenticate, send your API key in the `{hdr}` header. Keys can be created under Settings → API and expire after {ttl // 3600 or 1}h.",
            "prose",
        ),
    ]
    return rng.choice(opts)


def _l_json_schema(rng):
    body = json.dumps(
        {
            "title": rng.choice(("LoginRequest", "CreateUser", "ServiceAccount", "SmtpSettings")),
            "type": "object",
            "required": ["username", "password"],
            "properties": {
                "username": {"type": "string", "maxLength": rng.choice((32, 64, 128))},
                "password": {
                    "type": "string",
                    "minLength": rng.choice((8, 12, 14)),
                    "writeOnly": True,
                },
                "api_key": {
                    "type": "string",
                    "pattern": "^[A-Za-z0-9]{" + str(rng.choice((32, 40, 64))) + "}$",
                },
            },
        },
        indent=2,
    )
    return body, "json"


def _l_tokenizer(rng):
    words = rng.sample(
        (
            "the",
            "secret",
            "key",
            "to",
            "good",
            "tokens",
            "is",
            "pass",
            "word",
            "piece",
            "token",
        ),
        5,
    )
    ids = [rng.randrange(100, 50000) for _ in words]
    return (
        f">>> tok.tokenize({' '.join(words)!r})\n{words}\n>>> tok.convert_tokens_to_ids(_)\n{ids}",
        "python",
    )


def _l_crypto_addresses(rng):
    eth = "0x" + _r(rng, "0123456789abcdefABCDEF", 40)
    btc = "bc1q" + _r(rng, "023456789acdefghjklmnpqrstuvwxyz", 38)
    opts = [
        f"Donations: ETH {eth}",
        f"payout address (public): {btc}",
        f"contract deployed at {eth}, verified on etherscan",
    ]
    return rng.choice(opts), "text"


def _l_spdx(rng):
    yr = rng.randrange(2018, 2026)
    opts = [
        (
            f"// SPDX-License-Identifier: {rng.choice(('Apache-2.0', 'MIT', 'BSD-3-Clause', 'MPL-2.0'))}\n// Copyright {yr} {_company(rng).capitalize()}",
            "text",
        ),
        (
            f'license = "{rng.choice(("MIT", "Apache-2.0", "GPL-3.0-only"))}"\nreadme = "README.md"',
            "toml",
        ),
        (
            "License key field in the installer is optional for the community edition.",
            "prose",
        ),
        (
            f"The licence server lives at license{rng.randrange(1, 4):02d}, port 27000 (FlexLM).",
            "prose",
        ),
        (
            f"We have {rng.randrange(5, 80)} seats on the team plan, renewal on {_date(rng)}.",
            "prose",
        ),
    ]
    return rng.choice(opts)


def _l_lfs_pointer(rng):
    return (
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(rng, 64)}\nsize {rng.randrange(10000, 90000000)}",
        "text",
    )


def _l_configmap(rng):
    body = (
        f'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: auth-config\ndata:\n  token_ttl_seconds: "{rng.choice((900, 3600))}"\n'
        f'  refresh_token_ttl_days: "{rng.choice((7, 30))}"\n  password_min_length: "12"\n  key_rotation_days: "90"\n'
        f"  issuer: https://auth.{_domain(rng)}"
    )
    return body, "yaml"


def _l_token_logs(rng):
    opts = [
        f"{_date(rng)} INFO oauth: token refreshed for client {rng.choice(_PURPOSES)}-svc, expires_in=3600, token_type=Bearer",
        f"WARN auth: token expired {rng.randrange(2, 59)}m ago, forcing re-login (user_id={rng.randrange(1000, 99999)})",
        "DEBUG keyring: secret not found for service 'gh:github.com', falling back to prompt",
        f"INFO vault: lease renewed, ttl={rng.choice(('768h', '24h', '1h'))}, renewable=true",
        "ERROR login failed: invalid password for user id " + str(rng.randrange(1000, 99999)) + " (attempt 3/5)",
    ]
    return rng.choice(opts), "text"


def _l_chat_reset(rng):
    a = _name(rng)
    opts = [
        f"{a}: I reset my password, SSO works again",
        f"{a}: did anyone change the staging db password? my tunnel broke\n{_name(rng)}: yes, it's in vault now, pull it from there",
        f"{a}: the token expired, I generated a new one and put it in the CI secrets",
        f"{a}: can someone send me the wifi password?\n{_name(rng)}: it's on the whiteboard in the kitchen",
    ]
    return rng.choice(opts), "prose"


def _l_room_keys(rng):
    rows = ["Room\tKey\tHolder\tReturned"]
    for _ in range(rng.randint(3, 5)):
        rows.append(
            f"{rng.randrange(1, 4)}.{rng.randrange(10, 40)}\tK-{rng.randrange(100, 999)}\t{_full(rng)}\t{rng.choice(('yes', 'no', _date(rng)))}"
        )
    return "\n".join(rows), "tsv"


def _l_music_key(rng):
    opts = [
        f"the song is in the key of {rng.choice(('C# minor', 'E flat major', 'A minor', 'G major', 'D major', 'F minor'))}, capo on {rng.randrange(1, 5)}",
        f"transpose down {rng.choice(('a whole step', 'a half step', 'a minor third'))}, the original key is too high for {_name(rng)}",
        f"key signature has {rng.randrange(1, 7)} {rng.choice(('sharps', 'flats'))}",
    ]
    return rng.choice(opts), "prose"


def _l_scanner_rules(rng):
    opts = [
        (
            "[[rules]]\nid = \"stripe-secret\"\nregex = '''(sk|rk)"
            + "_live_"
            + "[0-9a-zA-Z]{24,99}'''\n"
            + 'keywords = ["sk'
            + '_live", "rk'
            + '_live"]',
            "toml",
        ),
        (
            f"allowlist:\n  paths:\n    - tests/fixtures/.*\n    - {rng.choice(('docs', 'examples', 'testdata'))}/.*\n  regexes:\n    - EXAMPLE(KEY)?$",
            "yaml",
        ),
        (
            "AWS_KEY_RE = re.compile(r'(?<![A-Z0-9])(" + "AK" + "IA|" + "AS" + "IA)[A-Z2-7]{16}(?![A-Z0-9])')",
            "python",
        ),
        (
            f"trufflehog git file://. --since-commit HEAD~{rng.randrange(5, 50)} --only-verified --fail",
            "bash",
        ),
        (
            f"gitleaks detect --source . --report-path gitleaks-{_date(rng)}.json --redact",
            "bash",
        ),
    ]
    return rng.choice(opts)


def _l_webhook_sig(rng):
    opts = [
        f"X-GitHub-Delivery: {_uuid(rng)}\nX-GitHub-Event: push\nX-Hub-Signature-256: sha256={_hex(rng, 64)}",
        f"Stripe-Signature: t={rng.randrange(1700000000, 1730000000)},v1={_hex(rng, 64)}",
        f"computed HMAC {_hex(rng, 64)} != header {_hex(rng, 64)} -> 401, clock skew?",
    ]
    return rng.choice(opts), "http"


def _l_data_uri(rng):
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _rb(rng, 60)
    return (
        f'<img alt="key icon" src="data:image/png;base64,{_b64(png)}" width="16">',
        "html",
    )


def _l_asset_hashes(rng):
    lines = [
        f"dist/assets/{n}-{_hex(rng, 8)}.{ext}  {rng.randrange(1, 900)}.{rng.randrange(10, 99)} kB"
        for n, ext in (("index", "js"), ("vendor", "js"), ("index", "css"))
    ]
    return "\n".join(lines), "text"


def _l_issue_keys(rng):
    t = rng.choice(("order_lines", "invoice_items", "memberships", "role_grants"))
    opts = [
        f"Issue key {_ticket(rng)} is linked to {_ticket(rng)}; the epic key is {_ticket(rng)}.",
        f"CREATE TABLE {t} (\n  parent_id bigint REFERENCES parents(id),\n  line_no int,\n  PRIMARY KEY (parent_id, line_no)\n);",
        f"Redis key naming: `session:{{user_id}}`, `ratelimit:{{ip}}:{{minute}}` (TTL {rng.choice((60, 120, 900))}s)",
        f"foreign key constraint fk_{t}_parent failed on insert ({rng.randrange(1, 500)} rows)",
    ]
    return rng.choice(opts), "text"


def _l_crypto_params(rng):
    opts = [
        f"AES-256-GCM with a 96-bit nonce; key comes from KMS, never stored on disk ({_ticket(rng)}).",
        f"Generate with `ssh-keygen -t ed25519 -a 100 -C {rng.choice(_FIRST)}@laptop` (don't set an empty passphrase).",
        f"RSA {rng.choice((3072, 4096))} keys for the CA, ECDSA P-256 for leaf certs; key rotation every {rng.choice((30, 90, 365))} days.",
        f"openssl genpkey -algorithm ed25519 -out {rng.choice(_APPS)}-signing.key && chmod 600 {rng.choice(_APPS)}-signing.key",
        f"age-keygen -o ~/.config/sops/age/keys.txt  # {_name(rng)} does this once per laptop",
    ]
    return rng.choice(opts), "prose"


def _l_rotation_runbook(rng):
    svc = rng.choice(
        (
            "Stripe",
            "GitHub App",
            "Postgres",
            "SendGrid",
            "Datadog",
            "Twilio",
            "Slack bot",
            "LDAP bind",
        )
    )
    mins = rng.choice((5, 10, 15, 30))
    body = (
        f"Runbook: rotate the {svc} credential ({_ticket(rng)})\n1. Create the new key in the {svc} console.\n"
        "2. `vault kv put secret/app/" + svc.lower().replace(" ", "-") + " value=@new.txt` (never paste it in chat).\n"
        f"3. Roll the deployment, watch error rate for {mins} min.\n4. Revoke the old key and note the date here."
    )
    return body, "markdown"


def _l_k8s_events(rng):
    pod = f"{rng.choice(('api', 'worker', 'web'))}-{_r(rng, _LOWNUM, 10)}-{_r(rng, _LOWNUM, 5)}"
    body = (
        "NAME                         READY   STATUS             RESTARTS   AGE\n"
        f"{pod}   0/1     CreateContainerConfigError   0   {rng.randrange(1, 59)}m\n\n"
        f'Warning  Failed  kubelet  Error: secret "{rng.choice(("db-credentials", "api-token"))}" not found'
    )
    return body, "text"


def _l_hmac_vectors(rng):
    opts = [
        'RFC 4231 test case 1:\nKey  = 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b\nData = 4869205468657265 ("Hi There")',
        'RFC 4231 test case 2: Key = 4a656665 ("Jefe"), Data = "what do ya want for nothing?"',
        f'known-answer test: sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad (run {rng.randrange(1, 99)})',
        f"unit test {rng.choice(('test_hmac_kat', 'test_sign_vectors', 'test_rfc4231'))} uses the RFC 4231 vectors verbatim; they are public.",
    ]
    return rng.choice(opts), "text"


def _l_vault_list(rng):
    app = rng.choice(("orders", "billing", "api"))
    body = f"$ vault kv list secret/{app}\nKeys\n----\ndb\nsmtp\nstripe\nsentry\n\n$ vault kv metadata get secret/{app}/db | grep current_version\ncurrent_version    {rng.randrange(2, 20)}"
    return body, "text"


def _l_password_input(rng):
    fid = rng.choice(("pw", "password", "current-password", "login-pass"))
    opts = [
        (
            (
                f'<label for="{fid}">Password</label>\n<input id="{fid}" type="password" name="password" '
                f'autocomplete="current-password" minlength="{rng.choice((8, 10, 12))}" required>'
            ),
            "html",
        ),
        (
            f'<TextField label="Password" type="password" helperText="At least {rng.choice((8, 12))} characters" />',
            "jsx",
        ),
        (
            f'<input type="password" name="new-password" autocomplete="new-password" aria-describedby="{fid}-hint">',
            "html",
        ),
    ]
    return rng.choice(opts)


def _l_stackoverflow(rng):
    opts = [
        "Why does `git push` ask for my password even though I set up an SSH key? -> the remote was still https, switched with `git remote set-url origin git@github.com:...`",
        f"How to pass a secret to docker build without baking it into a layer? Use BuildKit `--secret id={rng.choice(('npmrc', 'token', 'creds'))},src=...`.",
        f'psql: FATAL: password authentication failed for user "{rng.choice(("postgres", "app", "etl"))}" -> pg_hba.conf had md5, server expects scram-sha-256',
        f"ssh: Permission denied (publickey,password) on {_fqdn(rng)} -> wrong user in ~/.ssh/config",
        "npm ERR! code E401 Unable to authenticate -> my .npmrc pointed at the old registry, token itself was fine",
    ]
    return rng.choice(opts), "prose"


def _l_uuid_files(rng):
    return "\n".join(
        f"uploads/{_uuid(rng)}.{rng.choice(('jpg', 'pdf', 'png'))}" for _ in range(rng.randint(2, 4))
    ), "text"


def _l_otp_demo(rng):
    opts = [
        "otpauth URIs look like otpauth://totp/Issuer:user?secret=...&issuer=Issuer - we never log them.",
        f"The 2FA prompt shows 'Enter the 6-digit code from your authenticator app' ({rng.choice(('iOS', 'Android', 'web'))}).",
        "Recovery codes are shown once after enabling 2FA; store them in the password manager.",
        f"{_name(rng)} lost their phone; reset 2FA via the admin panel after video-call identity check.",
    ]
    return rng.choice(opts), "prose"


def _l_k8s_secret_empty(rng):
    body = (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {rng.choice(_APPS)}-{rng.choice(('api', 'db', 'smtp'))}-credentials\n"
        f'  annotations:\n    avp.kubernetes.io/path: "secret/data/{rng.choice(_ENVS)}/app"\ntype: Opaque\nstringData:\n'
        "  password: <password>\n  token: <token>"
    )
    return body, "yaml"


def _l_rate_limits(rng):
    opts = [
        f"token bucket: capacity {rng.choice((20, 50, 100, 500))}, refill {rng.choice((5, 10, 20))}/s per API key",
        f"Rate limit headers: X-RateLimit-Limit: {rng.choice((60, 600, 5000))}, X-RateLimit-Remaining: {rng.randrange(60)}, X-RateLimit-Reset: {rng.randrange(1700000000, 1730000000)}",
        f"429 Too Many Requests from the {rng.choice(('GitHub', 'Stripe', 'OpenAI'))} API - back off {rng.choice((2, 5, 30))}s",
    ]
    return rng.choice(opts), "text"


def _l_git_config(rng):
    body = (
        f"[user]\n\tname = {_full(rng)}\n\temail = {rng.choice(_FIRST)}@{_domain(rng)}\n[credential]\n\thelper = osxkeychain\n"
        "[commit]\n\tgpgsign = true"
    )
    return body, "ini"


def _l_ssh_config(rng):
    body = (
        f"Host {rng.choice(('bastion', 'jump', 'prod-db'))}\n  HostName {_fqdn(rng)}\n  User {rng.choice(('ubuntu', 'deploy', 'ec2-user'))}\n"
        "  IdentityFile ~/.ssh/id_ed25519\n  IdentitiesOnly yes\n  ForwardAgent no"
    )
    return body, "conf"


def _l_kerberos_conf(rng):
    comp = _company(rng).upper()
    body = (
        f"[libdefaults]\n  default_realm = {comp}.CORP\n  dns_lookup_kdc = true\n\n[realms]\n  {comp}.CORP = {{\n"
        f"    kdc = kdc1.{comp.lower()}.corp\n    admin_server = kdc1.{comp.lower()}.corp\n  }}"
    )
    return body, "ini"


def _l_snmp_oids(rng):
    body = (
        f"SNMPv2-MIB::sysDescr.0 = STRING: Cisco IOS Software, C2960X\nSNMPv2-MIB::sysUpTime.0 = Timeticks: ({rng.randrange(10**6, 10**9)})\n"
        "IF-MIB::ifOperStatus.1 = INTEGER: up(1)"
    )
    return body, "text"


def _l_wifi_public(rng):
    opts = [
        "Guest Wi-Fi is open (captive portal), no password; staff network uses 802.1X with your AD login.",
        f"SSID {_company(rng).capitalize()}-Guest, WPA3, password rotates weekly and is printed at reception.",
        f"The {rng.choice(_CITIES)} office Wi-Fi moved to certificate auth (EAP-TLS), no shared password any more.",
    ]
    return rng.choice(opts), "prose"


def _l_passwordless(rng):
    opts = [
        f"We removed passwords for the admin UI entirely; login is via WebAuthn passkeys only (since {_date(rng)}).",
        f"the pass for the conference (the paper one) is at the front desk, ask {_name(rng)}",
        f"Boarding pass saved to wallet, gate closes {rng.choice((15, 20, 30))} min before departure.",
        f"{rng.choice(('Brenner', 'Gotthard', 'Stelvio'))} pass closed due to snow, take the tunnel.",
        "Lint pass added to CI; it runs before the type-check pass.",
    ]
    return rng.choice(opts), "prose"


_LOOKALIKES = (
    _l_decision,
    _l_lesson,
    _l_shell_history,
    _l_py_traceback,
    _l_java_trace,
    _l_nginx,
    _l_crontab,
    _l_systemd,
    _l_dockerfile,
    _l_k8s_deploy,
    _l_gha,
    _l_csv_sales,
    _l_md_table,
    _l_commits,
    _l_meeting,
    _l_sql,
    _l_code,
    _l_log_ids,
    _l_release_shas,
    _l_uuid_log,
    _l_image_digest,
    _l_npm_integrity,
    _l_checksums,
    _l_gpg_fpr,
    _l_ssh_pubkey,
    _l_pem_public,
    _l_redacted,
    _l_env_names,
    _l_placeholders,
    _l_secret_refs,
    _l_encrypted,
    _l_hash_discussion,
    _l_hashed_configs,
    _l_b64_json,
    _l_tests_pass,
    _l_dict_key,
    _l_tokens,
    _l_feature_flags,
    _l_analytics,
    _l_nonce_docs,
    _l_versions,
    _l_password_policy,
    _l_pinning,
    _l_public_ids,
    _l_doc_examples,
    _l_css,
    _l_tf_vars,
    _l_helm_existing,
    _l_env_example,
    _l_java_props,
    _l_net_redacted,
    _l_api_docs,
    _l_json_schema,
    _l_tokenizer,
    _l_crypto_addresses,
    _l_spdx,
    _l_lfs_pointer,
    _l_configmap,
    _l_token_logs,
    _l_chat_reset,
    _l_room_keys,
    _l_music_key,
    _l_scanner_rules,
    _l_webhook_sig,
    _l_data_uri,
    _l_asset_hashes,
    _l_issue_keys,
    _l_crypto_params,
    _l_rotation_runbook,
    _l_k8s_events,
    _l_hmac_vectors,
    _l_vault_list,
    _l_password_input,
    _l_stackoverflow,
    _l_uuid_files,
    _l_otp_demo,
    _l_k8s_secret_empty,
    _l_rate_limits,
    _l_git_config,
    _l_ssh_config,
    _l_kerberos_conf,
    _l_snmp_oids,
    _l_wifi_public,
    _l_passwordless,
)


# ------------------------------------------------------------------- public


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Return ``(positives, lookalikes)`` for ``seed`` (deterministic)."""
    rng = random.Random(seed)
    seen: set[str] = set()
    bodies: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind, fn in _KINDS:
        made = 0
        tries = 0
        while made < PER_KIND and tries < PER_KIND * 30:
            tries += 1
            body, secret, lang = fn(rng)
            text = _wrap(rng, body, lang, positive=True)
            if len(secret) < 8 or secret not in text or text in seen or body in bodies:
                continue
            seen.add(text)
            bodies.add(body)
            positives.append((text, kind, secret))
            made += 1
    lookalikes: list[str] = []
    tries = 0
    i = 0
    while len(lookalikes) < LOOKALIKE_TARGET and tries < LOOKALIKE_TARGET * 30:
        tries += 1
        fn = _LOOKALIKES[i % len(_LOOKALIKES)]
        i += 1
        body, lang = fn(rng)
        if body in bodies:
            continue
        text = _wrap(rng, body, lang, positive=False)
        if text in seen:
            continue
        seen.add(text)
        bodies.add(body)
        lookalikes.append(text)
    return positives, lookalikes
