"""Secret-detector test set S.

Theme
-----
The long-term memory of AI agents working in regulated and
infrastructure-heavy settings (healthcare, fintech and banking, insurance,
public sector, telecom, embedded/IoT and OT), and the agents' own tool traffic.
Roughly 40 % of the positives are agent tool-call transcripts and structured
records as agents store them: MCP-style JSON tool calls and tool results
(``{"tool": ..., "arguments": ...}``, JSON-RPC ``tools/call``,
``{"content": [...]}``), JSONL chat transcripts, memory records, JSON strings
with escaped newlines and quotes, markdown tables, unified diff hunks, code
review comments quoting lines, commit messages and PR descriptions.  Roughly
30 % are notes, handovers, tickets, chat messages, runbooks and incident
write-ups in English, German, French, Spanish, Italian, Dutch, Swedish,
Polish, Portuguese (BR), Japanese and Arabic (script and romanised).  Roughly
30 % are configuration and infrastructure files: dotenv, shell, Spring
application.yml/properties, Helm values, Kubernetes and Kustomize, Terraform
tfvars and state excerpts, CloudFormation, Bicep parameters, Nomad, Consul,
systemd units, .NET appsettings and user-secrets JSON, Rails credentials
(decrypted view), wp-config.php, Ansible inventories, Chef, Puppet/Hiera,
docker-compose, Jenkinsfile, GitHub Actions, OpenVPN, WireGuard, strongSwan,
Cisco IOS, Junos, FortiOS, MikroTik, hostapd, FreeRADIUS, PKCS#11 and more.

Positives
---------
Vendor tokens built from each vendor's publicly documented prefix, length and
alphabet (cloud, forges, CI, package registries, payments and banking APIs,
messaging, e-mail, AI/LLM APIs, monitoring, identity providers,
databases-as-a-service, CDN/DNS, SaaS), passwords (human-chosen, generated,
passphrases; device and network secrets such as clear-text enable secrets,
read-write SNMP communities, SNMPv3 auth passphrases, RADIUS and TACACS+ keys,
Wi-Fi PSKs, IPsec pre-shared keys, routing-protocol keys), private keys
(PKCS#1/PKCS#8/EC PEM, OpenSSH, PuTTY, PGP, OpenVPN static keys, WireGuard
and age keys), keystore passwords and HSM PINs, passwords inside connection
strings and URLs, JWT access tokens, OAuth refresh tokens, signed-URL
signatures, webhook signing secrets, session cookies, TOTP seeds, recovery
codes, framework secrets (Django, Rails, Laravel, WordPress) and API secrets
named as such.

Lookalikes
----------
Texts with no credential at all: placeholders, secret-manager and vault
references, masked values, env var names and ``${VAR}`` references, hex
digests and password hashes (bcrypt, argon2, sha512-crypt, Cisco type 5/8/9,
SSHA, SCRAM verifiers, PBKDF2), commit SHAs, UUIDs, request and trace ids,
FHIR/HL7 ids, OIDs, telecom identifiers, IBANs and BICs from public examples,
certificate and SSH fingerprints, public keys and certificates, vendor
documentation example values (AWS EXAMPLE keys, the jwt.io sample token,
Azurite's published development key, the Stripe docs test key),
public-by-design client values, encrypted blobs (SOPS, ansible-vault,
sealed-secrets, PGP and age messages, Jasypt, hiera-eyaml, KMS, Vault
transit, Chef encrypted data bags, Rails credentials.yml.enc), base64 of
public data, minified code and source maps, integrity hashes, versions,
prose about credentials and policy, auth error messages, configs without
secrets and code that reads secrets from env, files or vaults.

Contract
--------
``generate(seed) -> (positives, lookalikes)``.  ``positives`` is a list of
``(text, kind, secret)`` where ``secret`` is the single sensitive value in
``text``, an exact substring of it, with no surrounding whitespace;
``kind`` is a snake_case name.  ``lookalikes`` is a list of texts holding no
credential.  There are ``PER_KIND`` positives for every kind and
``LOOK_PER_GEN`` lookalikes from every generator in ``_LOOK``.  No text
appears twice.  Output is deterministic per seed and differs between seeds.

Labelling choices
-----------------
* Slack and Discord webhook URLs: the final path token only.
* Connection strings, basic-auth URLs, .pgpass/.netrc lines: the password
  part only.  Docker ``config.json``: the base64 ``auth`` value.  Kubernetes
  Secret ``data``: the base64 value of the password field.
* AWS pre-signed URLs (``X-Amz-Signature``), GCS V4 signed URLs
  (``X-Goog-Signature``) and Azure SAS URLs (``sig``): the signature only; an
  access key id, SAS parameters or account name alone are identifiers.  When
  an AWS key id sits next to a secret access key, only the secret key is
  labelled.
* Private keys: the whole armoured block (BEGIN to END line) or the whole
  PuTTY file; inside JSON the JSON-escaped form as it appears in the text
  (``\\n`` escapes, doubly escaped when a JSON document is itself a JSON
  string); inside YAML block scalars the block including its indentation.
* Laravel ``APP_KEY``: the base64 key material after ``base64:``.
* UUID-shaped tokens (Heroku API keys, Postmark server tokens, Splunk HEC
  tokens, Consul ACL secret ids) are positives only where the text names
  them as such; UUIDs used as ids are lookalikes.
* Public by design, hence lookalikes: Supabase anon keys, Stripe and Mapbox
  publishable keys, reCAPTCHA site keys, VAPID public keys, Sentry DSNs,
  OAuth client ids, LaunchDarkly client-side ids, Firebase web API keys in a
  firebaseConfig, Algolia search-only keys, analytics measurement ids.
  Positives: Supabase service_role keys, Mapbox ``sk.`` tokens, Algolia admin
  keys, server-side Google API keys.
* Encrypted values and password hashes are lookalikes; Cisco type 7 and
  Junos ``$9$`` (reversible obfuscation) are left out entirely, as are
  encrypted private keys, read-only ``public`` SNMP communities and test
  fixtures with dummy passwords.
* Vendor-documented example values are lookalikes.
* Each positive text contains exactly one secret; identifiers, public keys,
  certificates and placeholders may appear next to it.

Everything is drawn from ``random.Random(seed)``.  Vendor prefixes, key
bodies and PEM armour lines are assembled at run time from short pieces, so
the source holds no token-shaped literal.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid

PER_KIND = 30
LOOK_PER_GEN = 13

_UP = string.ascii_uppercase
_LO = string.ascii_lowercase
_DG = string.digits
_AN = _UP + _LO + _DG
_HX = "0123456789abcdef"
_B64 = _AN + "+/"
_U64 = _AN + "-_"
_B32 = _UP + "234567"
_BECH = "qpzry9x8gf2tvdw0" + "s3jn54khce6mua7l"
_PWSYM = "!*-_.~^+"
_URLSYM = "-_.~"
_D5 = "-" * 5


def _s(r, alpha, n):
    return "".join(r.choices(alpha, k=n))


def _hex(r, n):
    return "".join(r.choices(_HX, k=n))


def _num(r, n):
    return str(r.randint(1, 9)) + _s(r, _DG, n - 1)


def _uuid(r):
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def _b64(data):
    return base64.b64encode(data).decode()


def _b64u(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _esc(s):
    return json.dumps(s, ensure_ascii=False)[1:-1]


def _js(r, obj):
    return json.dumps(obj, ensure_ascii=False, indent=r.choice([None, 2]))


def _wrap_lines(body, width):
    return [body[i : i + width] for i in range(0, len(body), width)]


def _armor(label, body, width=64, headers=""):
    lines = [_D5 + "BEGIN " + label + _D5]
    if headers:
        lines.append(headers)
    lines += _wrap_lines(body, width)
    lines.append(_D5 + "END " + label + _D5)
    return "\n".join(lines)


def _hx(*parts):
    return bytes.fromhex("".join(parts))


def _sstr(b):
    return len(b).to_bytes(4, "big") + b


# ==========================================================================
# shared pools
# ==========================================================================

_PEOPLE = [
    "Anna Keller",
    "Jonas Brandt",
    "Chloé Martin",
    "Mateo García",
    "Luca Bianchi",
    "Sanne de Vries",
    "Erik Lindqvist",
    "Kasia Nowak",
    "Thiago Souza",
    "Yuki Tanaka",
    "Omar Haddad",
    "Fatima Al-Sayed",
    "Priya Raman",
    "Sean Murphy",
    "Inês Costa",
    "Pieter Janssen",
    "Marta Kowalska",
    "Kenji Sato",
    "Layla Mansour",
    "Aisha Bello",
]
_TEAMS = [
    "payments-ops",
    "claims-platform",
    "clinical-integration",
    "core-banking",
    "noc",
    "iot-fleet",
    "identity",
    "data-platform",
    "sre",
    "citizen-services",
    "ot-security",
    "billing",
    "treasury-it",
    "radiology-it",
]
_DOMAINS = [
    "healthcare",
    "fintech",
    "banking",
    "insurance",
    "public sector",
    "telecom",
    "embedded/IoT",
]
_ENVS = ["prod", "staging", "dr", "uat", "preprod", "int"]
_APPS = [
    "claims-intake",
    "fhir-gateway",
    "ledger-sync",
    "kyc-worker",
    "billing-api",
    "hl7-bridge",
    "meter-ingest",
    "citizen-portal",
    "payments-hub",
    "pacs-router",
    "sim-provisioner",
    "scada-edge",
    "policy-admin",
    "fraud-scoring",
    "lab-results",
    "card-issuing",
]
_REGIONS = [
    "eu-central-1",
    "eu-west-1",
    "us-east-1",
    "eu-north-1",
    "ap-northeast-1",
    "me-central-1",
    "sa-east-1",
]
_ORGS = [
    "acme-health",
    "northbank",
    "civitas",
    "telcoria",
    "insurex",
    "medilink",
    "fjordpay",
    "plantnet",
]
_TLDS = ["internal", "example.net", "corp.example", "lan", "example.org"]
_USERS = [
    "svc_app",
    "app_rw",
    "etl_loader",
    "claims_svc",
    "fhir_api",
    "ledger",
    "reporting",
    "integration",
    "batch01",
    "mid_user",
]
_WORDS = [
    "harbor",
    "lantern",
    "granite",
    "copper",
    "meadow",
    "falcon",
    "orchid",
    "glacier",
    "saffron",
    "tundra",
    "willow",
    "ember",
    "quartz",
    "marble",
    "cobalt",
    "juniper",
    "nebula",
    "walrus",
    "pepper",
    "violet",
    "anchor",
    "bramble",
    "cedar",
    "fjord",
    "gravel",
    "hazel",
    "indigo",
    "jasper",
    "kestrel",
    "lagoon",
    "maple",
    "nutmeg",
    "otter",
    "pylon",
    "raven",
    "sierra",
    "thistle",
    "velvet",
    "wombat",
    "yarrow",
    "zephyr",
    "biscuit",
    "canyon",
    "dahlia",
    "ferret",
    "heron",
    "sonnenblume",
    "mariposa",
    "girasole",
    "zeemeeuw",
    "pingwin",
    "abacaxi",
    "sakura",
    "qamar",
]
_FILLERS = [
    ("LOG_LEVEL", ["info", "warn", "debug"]),
    ("HTTP_PORT", ["8080", "8443", "9000", "3000"]),
    ("AWS_REGION", _REGIONS),
    ("TZ", ["Europe/Berlin", "Europe/Paris", "UTC", "Asia/Tokyo", "Asia/Dubai"]),
    ("FEATURE_AUDIT_LOG", ["true", "false"]),
    ("RETRY_MAX", ["3", "5", "8"]),
    ("REQUEST_TIMEOUT_MS", ["3000", "15000", "30000"]),
    ("FHIR_BASE_URL", ["https://fhir.acme-health.example.org/r4"]),
    ("SFTP_REMOTE_DIR", ["/inbound/claims", "/outbound/sepa", "/drop/hl7"]),
    ("OTEL_SERVICE_NAME", _APPS),
    ("DB_HOST", ["db01.prod.internal", "pg-primary.lan", "10.20.4.11"]),
    ("CACHE_TTL_SECONDS", ["60", "300", "900"]),
]


def _host(r, pre=None):
    pre = pre or r.choice(["db", "api", "sftp", "ldap", "mq", "edge", "fhir", "hl7", "core", "batch"])
    return f"{pre}{r.randint(1, 40):02d}.{r.choice(_ENVS)}.{r.choice(_ORGS)}.{r.choice(_TLDS)}"


def _ip(r):
    return r.choice(
        [
            f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
            f"172.{r.randint(16, 31)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
            f"192.168.{r.randint(0, 255)}.{r.randint(1, 254)}",
        ]
    )


def _pubip(r):
    return r.choice(["192.0.2.", "198.51.100.", "203.0.113."]) + str(r.randint(1, 254))


def _date(r):
    return f"{r.randint(2023, 2025)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _ts(r):
    return f"{_date(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"


def _ticket(r):
    n = r.randint(100, 99999)
    return r.choice(
        [
            f"INC{r.randint(100000, 9999999):07d}",
            f"CHG{r.randint(100000, 9999999):07d}",
            f"OPS-{n}",
            f"SEC-{n}",
            f"PLAT-{n}",
            f"RITM{r.randint(100000, 9999999):07d}",
            f"NOC-{n}",
        ]
    )


def _app(r):
    return r.choice(_APPS)


def _email(r):
    who = r.choice(_PEOPLE).split()[-1].lower().replace("é", "e").replace("ê", "e")
    return f"{who}@{r.choice(_ORGS)}.example"


# ==========================================================================
# secret value generators
# ==========================================================================


def _pw_gen(r, lo=14, hi=26, sym=_PWSYM):
    n = r.randint(lo, hi)
    while True:
        s = r.choice(_AN) + _s(r, _AN + sym, n - 2) + r.choice(_AN)
        if any(c.isdigit() for c in s) and any(c.isupper() for c in s) and any(c.islower() for c in s):
            return s


def _pw_human(r, syms="!*.-_+^~"):
    w1, w2, w3 = r.sample(_WORDS, 3)
    sym = r.choice(syms)
    p = r.randrange(5)
    if p == 0:
        return f"{w1.capitalize()}{sym}{w2.capitalize()}{r.randint(10, 99)}"
    if p == 1:
        return f"{w1.capitalize()}{r.randint(1990, 2026)}{sym}{w2}"
    if p == 2:
        return f"{w1}{sym}{r.randint(10, 99)}{sym}{w2.capitalize()}"
    if p == 3:
        return f"{w1.capitalize()}{w2.capitalize()}{r.randint(100, 9999)}"
    return f"{w1.capitalize()}{sym}{w2}{sym}{w3}{r.randint(1, 9)}"


def _pw_phrase(r, sep=None):
    sep = sep or r.choice("-._")
    return sep.join(r.sample(_WORDS, r.randint(4, 5))) + sep + str(r.randint(10, 99))


def _pw(r):
    x = r.random()
    if x < 0.5:
        return _pw_gen(r)
    if x < 0.8:
        return _pw_human(r)
    return _pw_phrase(r)


def _pw_url(r):
    x = r.random()
    if x < 0.6:
        return _pw_gen(r, sym=_URLSYM)
    if x < 0.85:
        return _pw_human(r, syms="-_.~")
    return _pw_phrase(r, sep=r.choice("-._"))


def _pw_dev(r):
    x = r.random()
    if x < 0.6:
        return _pw_gen(r, 12, 24, sym="!*-_.+")
    return _pw_human(r, syms="!*-_.+")


def _jwt(r, payload, alg=None, kid=True):
    alg = alg or r.choice(["RS256", "HS256", "ES256", "PS256"])
    head = {"alg": alg, "typ": "JWT"}
    if kid and alg != "HS256":
        head["kid"] = _s(r, _U64, r.choice([22, 27, 43]))
    siglen = {"RS256": 256, "PS256": 256, "HS256": 32, "ES256": 64}[alg]
    h = _b64u(json.dumps(head, separators=(",", ":")).encode())
    p = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{h}.{p}.{_b64u(r.randbytes(siglen))}"


def _claims(r):
    iat = r.randint(1700000000, 1760000000)
    iss = r.choice(
        [
            f"https://login.{r.choice(_ORGS)}.example/realms/{r.choice(_ENVS)}",
            f"https://{r.choice(_ORGS)}.okta.example/oauth2/default",
            "https://sts.windows.net/" + _uuid(r) + "/",
            f"https://auth.{r.choice(_ORGS)}.example/",
        ]
    )
    return {
        "iss": iss,
        "sub": r.choice([_uuid(r), f"svc-{_app(r)}", _s(r, _AN, 20)]),
        "aud": r.choice(["api://" + _app(r), _app(r), "account"]),
        "iat": iat,
        "exp": iat + r.choice([300, 900, 3600, 28800]),
        "scope": r.choice(
            [
                "patient/*.read launch/patient",
                "payments:write accounts:read",
                "claims.read claims.write",
                "openid profile email",
                "system/Observation.read",
            ]
        ),
    }


# ==========================================================================
# key material
# ==========================================================================


def _rsa_pkcs8(r):
    head = _hx("308204bd020100300d0609", "2a864886f70d010101050004", "8204a7308204a30201000282", "010100")
    return _b64(head + r.randbytes(1217 - len(head)))


def _rsa_pkcs1(r):
    head = _hx("308204a4020100", "0282010100")
    return _b64(head + r.randbytes(1192 - len(head)))


def _ec_sec1(r):
    der = (
        _hx("30770201010420") + r.randbytes(32) + _hx("a00a06082a8648ce3d030107", "a144034200", "04") + r.randbytes(64)
    )
    return _b64(der)


def _ed_pkcs8(r):
    return _b64(_hx("302e020100300506", "032b657004220420") + r.randbytes(32))


def _pem_private(r):
    k = r.randrange(4)
    if k == 0:
        return _armor("PRIVATE KEY", _rsa_pkcs8(r))
    if k == 1:
        return _armor("RSA PRIVATE KEY", _rsa_pkcs1(r))
    if k == 2:
        return _armor("EC PRIVATE KEY", _ec_sec1(r))
    return _armor("PRIVATE KEY", _ed_pkcs8(r))


def _ssh_pub_blob(r, typ):
    if typ == "ssh-ed25519":
        return _sstr(b"ssh-ed25519") + _sstr(r.randbytes(32))
    if typ == "ssh-rsa":
        return _sstr(b"ssh-rsa") + _sstr(b"\x01\x00\x01") + _sstr(b"\x00" + r.randbytes(384))
    return _sstr(b"ecdsa-sha2-nistp256") + _sstr(b"nistp256") + _sstr(b"\x04" + r.randbytes(64))


def _ssh_pub_line(r, typ=None, comment=None):
    typ = typ or r.choice(["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256"])
    line = f"{typ} {_b64(_ssh_pub_blob(r, typ))}"
    if comment:
        line += " " + comment
    return line


def _openssh_private(r):
    typ = r.choice(["ssh-ed25519", "ssh-ed25519", "ssh-rsa"])
    pub = _ssh_pub_blob(r, typ)
    chk = r.randbytes(4)
    comment = f"{r.choice(_USERS)}@{r.choice(_APPS)}".encode()
    if typ == "ssh-ed25519":
        secret = _sstr(b"ssh-ed25519") + pub[-36:] + _sstr(r.randbytes(64))
    else:
        secret = _sstr(b"ssh-rsa") + r.randbytes(1180)
    priv = chk + chk + secret + _sstr(comment)
    priv += bytes(range(1, 1 + (8 - len(priv) % 8) % 8))
    blob = (
        b"openssh-key-v1\x00"
        + _sstr(b"none")
        + _sstr(b"none")
        + _sstr(b"")
        + (1).to_bytes(4, "big")
        + _sstr(pub)
        + _sstr(priv)
    )
    return _armor("OPENSSH PRIVATE KEY", _b64(blob), 70)


def _putty_private(r):
    v = r.choice([2, 3])
    typ = r.choice(["ssh-ed25519", "ssh-rsa"])
    pub = _wrap_lines(_b64(_ssh_pub_blob(r, typ)), 64)
    privlen = 36 if typ == "ssh-ed25519" else 660
    priv = _wrap_lines(_b64(r.randbytes(privlen)), 64)
    out = [f"PuTTY-User-Key-File-{v}: {typ}", "Encryption: none"]
    out.append(f"Comment: {r.choice(['rsa-key', 'eddsa-key'])}-{_date(r).replace('-', '')}")
    out.append(f"Public-Lines: {len(pub)}")
    out += pub
    out.append(f"Private-Lines: {len(priv)}")
    out += priv
    out.append(f"Private-MAC: {_hex(r, 64 if v == 3 else 40)}")
    return "\n".join(out)


def _pgp_block(r, label, lead, size):
    body = _b64(lead + r.randbytes(size))
    lines = [_D5 + "BEGIN PGP " + label + _D5, ""]
    lines += _wrap_lines(body, 64)
    lines.append("=" + _b64(r.randbytes(3)))
    lines.append(_D5 + "END PGP " + label + _D5)
    return "\n".join(lines)


def _pgp_private(r):
    if r.random() < 0.5:
        return _pgp_block(r, "PRIVATE KEY BLOCK", b"\x95\x03\x98\x04", r.randint(1700, 2400))
    return _pgp_block(r, "PRIVATE KEY BLOCK", b"\x94\x58\x04", r.randint(380, 520))


def _ovpn_static(r):
    lines = [_D5 + "BEGIN OpenVPN Static key V1" + _D5]
    lines += [_hex(r, 32) for _ in range(16)]
    lines.append(_D5 + "END OpenVPN Static key V1" + _D5)
    return "\n".join(lines)


def _wg_key(r):
    return _b64(r.randbytes(32))


def _cert_pem(r):
    n = r.randint(700, 1400)
    der = b"\x30\x82" + (n + 4).to_bytes(2, "big") + b"\x30\x82" + n.to_bytes(2, "big")
    return _armor("CERTIFICATE", _b64(der + r.randbytes(n)))


def _pub_pem(r):
    head = _hx("30820122300d0609", "2a864886f70d0101010500", "0382010f00", "3082010a0282010100")
    return _armor("PUBLIC KEY", _b64(head + r.randbytes(256) + _hx("0203010001")))


# ==========================================================================
# config renderers
# ==========================================================================


def _nm(var):
    parts = var.lower().split("_")
    return {
        "up": var,
        "low": var.lower(),
        "dot": ".".join(parts),
        "kebab": "-".join(parts),
        "camel": parts[0] + "".join(p.title() for p in parts[1:]),
        "pascal": "".join(p.title() for p in parts),
    }


def _pairs(r, var, val, comps):
    pairs = [*list(comps), (var, val)]
    for _ in range(r.randint(1, 3)):
        fv, fvals = r.choice(_FILLERS)
        if all(fv != p[0] for p in pairs):
            pairs.insert(r.randint(0, len(pairs)), (fv, r.choice(fvals)))
    return pairs


def _kv(r, var, val, comps=()):
    pairs = _pairs(r, var, val, comps)
    app = _app(r)
    env = r.choice(_ENVS)
    mod = app.replace("-", "_")
    f = r.randrange(31)
    if f == 0:
        body = "\n".join(f"{k}={v}" for k, v in pairs)
        head = r.choice(["", f"# {app} ({env})\n", f"# generated {_date(r)}\n"])
        return head + body, r.choice([".env", f"deploy/{env}.env", f"services/{app}/.env.{env}"])
    if f == 1:
        body = "\n".join(f"export {k}='{v}'" for k, v in pairs)
        return (
            "#!/usr/bin/env bash\nset -euo pipefail\n" + body + f"\nexec /opt/{app}/bin/start",
            f"scripts/{env}-env.sh",
        )
    if f == 2:
        body = "".join(f'  {_nm(k)["low"]}: "{v}"\n' for k, v in pairs)
        return f"{mod}:\n{body}", f"config/{env}.yaml"
    if f == 3:
        body = "".join(f'    {_nm(k)["kebab"]}: "{v}"\n' for k, v in pairs)
        return (
            f"spring:\n  application:\n    name: {app}\n  profiles:\n    active: {env}\n"
            f"integration:\n  {mod.split('_')[0]}:\n{body}",
            f"src/main/resources/application-{env}.yml",
        )
    if f == 4:
        body = "".join(f'    - name: {k}\n      value: "{v}"\n' for k, v in pairs)
        return (
            f"image:\n  repository: registry.{r.choice(_ORGS)}.example/{app}\n"
            f'  tag: "{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}"\nreplicaCount: {r.randint(1, 4)}\nenv:\n{body}',
            f"charts/{app}/values-{env}.yaml",
        )
    if f == 5:
        body = "".join(f'  {k}: "{v}"\n' for k, v in pairs)
        return (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {app}-env\n  namespace: {env}\n"
            f"type: Opaque\nstringData:\n{body}",
            f"k8s/{env}/{app}-secret.yaml",
        )
    if f == 6:
        body = "".join(f'            - name: {k}\n              value: "{v}"\n' for k, v in pairs)
        return (
            f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {app}\nspec:\n  template:\n"
            f"    spec:\n      containers:\n        - name: {app}\n          env:\n{body}",
            f"k8s/{env}/deployment.yaml",
        )
    if f == 7:
        body = "\n".join(f'{_nm(k)["low"]} = "{v}"' for k, v in pairs)
        return body, f"envs/{env}/terraform.tfvars"
    if f == 8:
        attrs = {_nm(k)["low"]: v for k, v in pairs}
        attrs["id"] = f"{app}-{env}"
        st = {
            "version": 4,
            "terraform_version": f"1.{r.randint(4, 9)}.{r.randint(0, 5)}",
            "serial": r.randint(3, 400),
            "resources": [
                {
                    "mode": "managed",
                    "type": r.choice(["kubernetes_secret", "aws_ssm_parameter", "helm_release", "azurerm_app_service"]),
                    "name": mod,
                    "instances": [{"schema_version": 0, "attributes": attrs, "sensitive_attributes": []}],
                }
            ],
        }
        return json.dumps(st, indent=2), r.choice(["terraform.tfstate", f"state/{env}.tfstate"])
    if f == 9:
        body = "".join(f"  {_nm(k)['pascal']}:\n    Type: String\n    Default: '{v}'\n" for k, v in pairs)
        return (
            f"AWSTemplateFormatVersion: '2010-09-09'\nDescription: {app} {env}\nParameters:\n{body}",
            f"cfn/{app}.yaml",
        )
    if f == 10:
        body = "\n".join(f"param {_nm(k)['camel']} = '{v}'" for k, v in pairs)
        return "using './main.bicep'\n\n" + body, f"infra/{env}.bicepparam"
    if f == 11:
        body = "".join(f'        {k} = "{v}"\n' for k, v in pairs)
        return (
            f'job "{app}" {{\n  datacenters = ["{r.choice(["dc1", "fra1", "ams2"])}"]\n'
            f'  group "{app}" {{\n    task "{app}" {{\n      driver = "docker"\n'
            f"      env {{\n{body}      }}\n    }}\n  }}\n}}",
            f"nomad/{app}.nomad.hcl",
        )
    if f == 12:
        body = "\n".join(f"consul kv put config/{app}/{_nm(k)['low']} '{v}'" for k, v in pairs)
        return body, "scripts/seed-consul.sh"
    if f == 13:
        body = "".join(f'Environment="{k}={v}"\n' for k, v in pairs)
        return (
            f"[Unit]\nDescription={app}\nAfter=network-online.target\n\n[Service]\nUser={mod}\n"
            f"{body}ExecStart=/opt/{app}/bin/{app}\nRestart=on-failure\n",
            f"/etc/systemd/system/{app}.service",
        )
    if f == 14:
        body = "\n".join(f"{mod}.{_nm(k)['dot']}={v}" for k, v in pairs)
        return body, f"src/main/resources/application-{env}.properties"
    if f == 15:
        obj = {
            "Logging": {"LogLevel": {"Default": r.choice(["Information", "Warning"])}},
            "Integrations": {_nm(k)["pascal"]: v for k, v in pairs},
            "AllowedHosts": "*",
        }
        return json.dumps(obj, indent=2), f"appsettings.{env.title()}.json"
    if f == 16:
        obj = {f"Integrations:{_nm(k)['pascal']}": v for k, v in pairs}
        return json.dumps(obj, indent=2), f"~/.microsoft/usersecrets/{_uuid(r)}/secrets.json"
    if f == 17:
        body = "".join(f'        {_nm(k)["low"]}: "{v}"\n' for k, v in pairs)
        return (
            f"all:\n  children:\n    {mod}:\n      hosts:\n        {_host(r)}:\n"
            f"        {_host(r)}:\n      vars:\n{body}",
            f"inventory/{env}/hosts.yml",
        )
    if f == 18:
        body = "\n".join(f"default['{mod}']['{_nm(k)['low']}'] = '{v}'" for k, v in pairs)
        return body, f"cookbooks/{mod}/attributes/default.rb"
    if f == 19:
        body = "\n".join(f"profile::{mod}::{_nm(k)['low']}: '{v}'" for k, v in pairs)
        return "---\n" + body, f"data/{env}.yaml"
    if f == 20:
        body = "".join(f'      {k}: "{v}"\n' for k, v in pairs)
        return (
            f"services:\n  {app}:\n    image: {app}:{r.randint(1, 9)}.{r.randint(0, 20)}\n"
            f"    restart: unless-stopped\n    environment:\n{body}",
            "docker-compose.yml",
        )
    if f == 21:
        body = "\n".join(f'{_nm(k)["low"]} = "{v}"' for k, v in pairs)
        return f"[{mod}]\n{body}", "config.toml"
    if f == 22:
        body = "\n".join(f"{_nm(k)['low']} = {v}" for k, v in pairs)
        return f"[{mod}]\n{body}", f"/etc/{app}/{app}.ini"
    if f == 23:
        body = "".join(f"    '{_nm(k)['low']}' => '{v}',\n" for k, v in pairs)
        return "<?php\n\nreturn [\n" + body + "];", f"config/{mod}.php"
    if f == 24:
        body = "".join(f'    <add key="{_nm(k)["pascal"]}" value="{v}" />\n' for k, v in pairs)
        return (
            f'<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <appSettings>\n{body}'
            "  </appSettings>\n</configuration>",
            "Web.config",
        )
    if f == 25:
        body = "".join(f"      - {k}={v}\n" for k, v in pairs)
        return (
            f"apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: {env}\n"
            f"resources:\n  - ../../base\nsecretGenerator:\n  - name: {app}-env\n    literals:\n{body}",
            f"overlays/{env}/kustomization.yaml",
        )
    if f == 26:
        body = "".join(f'  {_nm(k)["low"]}: "{v}"\n' for k, v in pairs)
        return (
            f"$ bin/rails credentials:show --environment {env}\n{mod}:\n{body}",
            f"config/credentials/{env}.yml",
        )
    if f == 27:
        body = "".join(f"  {k}: {v}\n" for k, v in pairs)
        return (
            f"name: deploy-{env}\non:\n  push:\n    branches: [main]\nenv:\n{body}"
            f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n",
            f".github/workflows/deploy-{env}.yml",
        )
    if f == 28:
        body = "\n".join(f'ENV {k}="{v}"' for k, v in pairs)
        return (
            f"FROM eclipse-temurin:21-jre\nWORKDIR /app\n{body}\nCOPY target/{app}.jar /app/\n"
            f'ENTRYPOINT ["java", "-jar", "/app/{app}.jar"]',
            "Dockerfile",
        )
    if f == 29:
        body = "\n".join(f'{k} = "{v}"' for k, v in pairs)
        return f"# settings for {app}\n{body}", f"{mod}/settings_{env}.py"
    body = "\n".join(f"        {k} = '{v}'" for k, v in pairs)
    return (
        f"pipeline {{\n    agent any\n    environment {{\n{body}\n    }}\n"
        f"    stages {{\n        stage('Deploy') {{\n            steps {{ sh './deploy.sh {env}' }}\n"
        "        }\n    }\n}",
        "Jenkinsfile",
    )


def _it(secret, system, noun, snippet, path, inline=None, var="SECRET", pw=False, http=None):
    if inline is None and "\n" not in secret:
        inline = secret
    value = secret
    if inline and (
        "://" in inline or inline.startswith(("DefaultEndpoints", "Server=", "DATABASE=", "jdbc:", "pkcs11:"))
    ):
        value = inline
    return {
        "value": value,
        "secret": secret,
        "system": system,
        "noun": noun,
        "snippet": snippet,
        "path": path,
        "inline": inline,
        "var": var,
        "pw": pw,
        "http": http,
    }


# ==========================================================================
# vendor tokens (kv style)
# ==========================================================================


def _gh(p):
    return lambda r: "gh" + p + "_" + _s(r, _AN, 36)


def _companion_uuid(r):
    return _uuid(r)


def _x_npmrc(r, val, var):
    return (
        f"registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={val}\n"
        f"@{r.choice(_ORGS)}:registry=https://npm.pkg.{r.choice(_ORGS)}.example/\n",
        ".npmrc",
    )


def _x_pypirc(r, val, var):
    return f"[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = {val}\n", "~/.pypirc"


def _x_docker_login(r, val, var):
    return (
        f"docker login -u {r.choice(['ci-bot', 'release', 'deployer'])} -p {val} docker.io\n"
        f"docker push {r.choice(_ORGS)}/{_app(r)}:{r.randint(1, 9)}.{r.randint(0, 9)}",
        "ci/push.sh",
    )


def _x_gem(r, val, var):
    return f"---\n:rubygems_api_key: {val}\n", "~/.gem/credentials"


def _x_nuget(r, val, var):
    return (
        f"dotnet nuget push bin/Release/{_app(r)}.{r.randint(1, 5)}.{r.randint(0, 9)}.0.nupkg "
        f"--api-key {val} --source https://api.nuget.org/v3/index.json",
        "build/publish.ps1",
    )


def _x_tfrc(r, val, var):
    return json.dumps(
        {"credentials": {"app.terraform.io": {"token": val}}}, indent=2
    ), "~/.terraform.d/credentials.tfrc.json"


def _x_newrelic(r, val, var):
    return (
        f"common: &default_settings\n  license_key: '{val}'\n  app_name: {_app(r)}\n"
        "  distributed_tracing:\n    enabled: true\n",
        "newrelic.yml",
    )


def _x_gitlab_runner(r, val, var):
    return (
        f'concurrent = 4\n\n[[runners]]\n  name = "{_app(r)}-runner"\n'
        f'  url = "https://gitlab.{r.choice(_ORGS)}.example/"\n  token = "{val}"\n  executor = "docker"\n'
        '  [runners.docker]\n    image = "alpine:3.20"\n',
        "/etc/gitlab-runner/config.toml",
    )


def _x_telegram(r, val, var):
    return (
        f'curl -s "https://api.telegram.org/bot{val}/sendMessage" '
        f"-d chat_id=-100{_num(r, 10)} -d text='{_app(r)} deploy finished'",
        "ci/notify.sh",
    )


def _x_consul(r, val, var):
    return (
        f'datacenter = "{r.choice(["dc1", "fra1"])}"\ndata_dir = "/opt/consul"\n'
        f'acl {{\n  enabled = true\n  default_policy = "deny"\n  tokens {{\n    agent = "{val}"\n  }}\n}}\n',
        "/etc/consul.d/acl.hcl",
    )


def _x_mapbox_netrc(r, val, var):
    return f"machine api.mapbox.com\n  login mapbox\n  password {val}\n", "~/.netrc"


def _x_gradle(r, val, var):
    return f"org.gradle.jvmargs=-Xmx2g\nandroid.useAndroidX=true\n{var}={val}\n", "gradle.properties"


def _x_azuread(r, val, var):
    obj = {
        "AzureAd": {
            "Instance": "https://login.microsoftonline.com/",
            "TenantId": _uuid(r),
            "ClientId": _uuid(r),
            "ClientSecret": val,
            "CallbackPath": "/signin-oidc",
        }
    }
    return json.dumps(obj, indent=2), "appsettings.Production.json"


def _x_google_client(r, val, var):
    cid = f"{_num(r, 12)}-{_s(r, _LO + _DG, 32)}.apps.googleusercontent.com"
    obj = {
        "web": {
            "client_id": cid,
            "project_id": f"{_app(r)}-{r.randint(100, 999)}",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": "https://oauth2.googleapis.com/token",
            "client_secret": val,
            "redirect_uris": [f"https://{_app(r)}.example.org/oauth2/callback"],
        }
    }
    return json.dumps(obj, indent=2), "client_secret.json"


def _x_http_dump(r, val, var):
    return (
        f"GET /fhir/r4/Patient?identifier={_num(r, 8)} HTTP/1.1\nHost: {_host(r, 'fhir')}\n"
        f"Accept: application/fhir+json\nAuthorization: Bearer {val}\nX-Request-ID: {_uuid(r)}\n",
        "captures/request.http",
    )


def _x_token_resp(r, val, var):
    obj = {"access_token": val, "token_type": "Bearer", "expires_in": r.choice([300, 3600, 7200])}
    return json.dumps(obj, indent=2), "tmp/token-response.json"


def _x_refresh_cache(r, val, var):
    obj = {
        "token_type": "Bearer",
        "scope": r.choice(["offline_access accounts", "openid offline_access", "Files.Read offline_access"]),
        "refresh_token": val,
        "expires_at": _ts(r),
    }
    return json.dumps(obj, indent=2), f"~/.cache/{_app(r)}/token.json"


def _x_postman(r, val, var):
    obj = {
        "id": _uuid(r),
        "name": f"{_app(r)} {r.choice(_ENVS)}",
        "values": [
            {"key": "baseUrl", "value": f"https://{_host(r, 'api')}", "enabled": True},
            {"key": _nm(var)["camel"], "value": val, "enabled": True},
        ],
    }
    return json.dumps(obj, indent=2), "postman/environment.json"


def _tk(kind, gen, vars_, system, noun, http=None, comps=(), extra=()):
    return {
        "kind": kind,
        "gen": gen,
        "vars": vars_,
        "system": system,
        "noun": noun,
        "http": http,
        "comps": comps,
        "extra": extra,
    }


def _sfx(r):
    return _s(r, _AN, 14)


_TOKENS = [
    _tk(
        "github_pat",
        _gh("p"),
        ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"],
        "GitHub",
        "personal access token",
        ("https://api.github.com/user/repos", "Authorization", "token {}"),
    ),
    _tk(
        "github_fine_grained_pat",
        lambda r: "github_" + "pat_" + _s(r, _AN, 22) + "_" + _s(r, _AN, 59),
        ["GITHUB_TOKEN", "GH_PAT_RELEASES"],
        "GitHub",
        "fine-grained token",
        ("https://api.github.com/repos/nb/ledger/releases", "Authorization", "Bearer {}"),
    ),
    _tk(
        "github_oauth_token",
        _gh("o"),
        ["GITHUB_OAUTH_TOKEN", "GH_OAUTH_TOKEN"],
        "GitHub OAuth app",
        "OAuth token",
        ("https://api.github.com/user", "Authorization", "Bearer {}"),
    ),
    _tk(
        "github_app_token",
        _gh("s"),
        ["GITHUB_INSTALL_TOKEN", "GH_APP_TOKEN"],
        "GitHub App",
        "installation token",
        ("https://api.github.com/installation/repositories", "Authorization", "token {}"),
    ),
    _tk(
        "gitlab_pat",
        lambda r: "gl" + "pat-" + _s(r, _AN + "_-", 20),
        ["GITLAB_TOKEN", "GL_TOKEN", "CI_API_TOKEN"],
        "GitLab",
        "personal access token",
        ("https://gitlab.civitas.example/api/v4/projects", "PRIVATE-TOKEN", "{}"),
    ),
    _tk(
        "gitlab_runner_token",
        lambda r: "gl" + "rt-" + _s(r, _AN + "_-", 20),
        ["RUNNER_TOKEN", "CI_RUNNER_TOKEN"],
        "GitLab runner",
        "runner authentication token",
        extra=(_x_gitlab_runner,),
    ),
    _tk(
        "bitbucket_app_password",
        lambda r: "AT" + "BB" + _s(r, _AN, 32),
        ["BITBUCKET_APP_PASSWORD", "BB_APP_PASSWORD"],
        "Bitbucket",
        "app password",
        comps=(("BITBUCKET_USER", "ci-bot"),),
    ),
    _tk(
        "atlassian_api_token",
        lambda r: "ATATT3" + _s(r, _U64, 180) + "=" + _s(r, "0123456789ABCDEF", 8),
        ["JIRA_API_TOKEN", "CONFLUENCE_API_TOKEN", "ATLASSIAN_TOKEN"],
        "Jira/Confluence Cloud",
        "API token",
        comps=(("JIRA_USER", "automation@insurex.example"),),
    ),
    _tk(
        "circleci_token",
        lambda r: "CCI" + "PAT_" + _s(r, _AN, 22) + "_" + _hex(r, 40),
        ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"],
        "CircleCI",
        "personal API token",
        ("https://circleci.com/api/v2/me", "Circle-Token", "{}"),
    ),
    _tk(
        "jenkins_api_token",
        lambda r: "11" + _hex(r, 32),
        ["JENKINS_API_TOKEN", "JENKINS_TOKEN"],
        "Jenkins",
        "API token",
        comps=(("JENKINS_USER", "release-bot"), ("JENKINS_URL", "https://ci.northbank.example/")),
    ),
    _tk(
        "buildkite_token",
        lambda r: "bk" + "ua_" + _hex(r, 40),
        ["BUILDKITE_API_TOKEN"],
        "Buildkite",
        "API token",
        ("https://api.buildkite.com/v2/organizations", "Authorization", "Bearer {}"),
    ),
    _tk(
        "np" + "m_token",
        lambda r: "np" + "m_" + _s(r, _AN, 36),
        ["NPM_TOKEN", "NODE_AUTH_TOKEN"],
        "npm",
        "automation token",
        extra=(_x_npmrc,),
    ),
    _tk(
        "pypi_token",
        lambda r: "pypi-" + "AgEIcHlwaS5vcmc" + _s(r, _U64, r.randint(120, 170)),
        ["PYPI_API_TOKEN", "TWINE_PASSWORD"],
        "PyPI",
        "upload token",
        extra=(_x_pypirc,),
    ),
    _tk(
        "docker_hub_pat",
        lambda r: "dckr" + "_pat_" + _s(r, _U64, 27),
        ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"],
        "Docker Hub",
        "access token",
        extra=(_x_docker_login,),
    ),
    _tk(
        "rubygems_api_key",
        lambda r: "rubygems_" + _hex(r, 48),
        ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"],
        "RubyGems",
        "API key",
        extra=(_x_gem,),
    ),
    _tk(
        "nuget_api_key",
        lambda r: "oy2" + _s(r, _LO + _DG, 43),
        ["NUGET_API_KEY"],
        "NuGet",
        "API key",
        extra=(_x_nuget,),
    ),
    _tk(
        "terraform_cloud_token",
        lambda r: _s(r, _AN, 14) + ".atlas" + "v1." + _s(r, _AN, 67),
        ["TFE_TOKEN", "TF_TOKEN_app_terraform_io"],
        "Terraform Cloud",
        "team token",
        extra=(_x_tfrc,),
    ),
    _tk(
        "vault_token",
        lambda r: "hv" + "s." + _s(r, _U64, r.randint(90, 100)),
        ["VAULT_TOKEN"],
        "HashiCorp Vault",
        "token",
        ("https://vault.northbank.example:8200/v1/secret/data/ledger", "X-Vault-Token", "{}"),
        comps=(("VAULT_ADDR", "https://vault.northbank.example:8200"),),
    ),
    _tk(
        "jfrog_api_key",
        lambda r: "AKC" + "p" + _s(r, _AN, 69),
        ["ARTIFACTORY_API_KEY", "JFROG_API_KEY"],
        "JFrog Artifactory",
        "API key",
        ("https://medilink.jfrog.io/artifactory/api/repositories", "X-JFrog-Art-Api", "{}"),
    ),
    _tk(
        "digitalocean_token",
        lambda r: "dop" + "_v1_" + _hex(r, 64),
        ["DIGITALOCEAN_TOKEN", "DO_TOKEN"],
        "DigitalOcean",
        "API token",
        ("https://api.digitalocean.com/v2/droplets", "Authorization", "Bearer {}"),
    ),
    _tk("ibm_cloud_api_key", lambda r: _s(r, _U64, 44), ["IBMCLOUD_API_KEY", "IC_API_KEY"], "IBM Cloud", "API key"),
    _tk(
        "google_api_key",
        lambda r: "AI" + "za" + "Sy" + _s(r, _U64, 33),
        ["GEMINI_API_KEY", "GOOGLE_MAPS_SERVER_KEY", "GOOGLE_API_KEY"],
        "Google Cloud (server side)",
        "API key",
        ("https://generativelanguage.googleapis.com/v1beta/models", "x-goog-api-key", "{}"),
    ),
    _tk(
        "aws_session_token",
        lambda r: r.choice(["FwoGZXIvYXdzE", "IQoJb3JpZ2luX2Vj"]) + _s(r, _B64, r.randint(280, 360)),
        ["AWS_SESSION_TOKEN"],
        "AWS STS",
        "session token",
    ),
    _tk(
        "azure_ad_client_secret",
        lambda r: _s(r, _AN, 3) + "8Q~" + _s(r, _AN + "_.~-", 33) + r.choice(_AN),
        ["AZURE_CLIENT_SECRET", "AAD_CLIENT_SECRET"],
        "Entra ID app registration",
        "client secret",
        comps=(("AZURE_TENANT_ID", "__uuid"), ("AZURE_CLIENT_ID", "__uuid")),
        extra=(_x_azuread,),
    ),
    _tk(
        "stripe_secret_key",
        lambda r: "sk" + "_live_" + _s(r, _AN, r.choice([24, 99])),
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
        "Stripe",
        "secret key",
        ("https://api.stripe.com/v1/payment_intents", "Authorization", "Bearer {}"),
    ),
    _tk(
        "stripe_restricted_key",
        lambda r: "rk" + "_live_" + _s(r, _AN, r.choice([24, 99])),
        ["STRIPE_RESTRICTED_KEY"],
        "Stripe",
        "restricted key",
        ("https://api.stripe.com/v1/refunds", "Authorization", "Bearer {}"),
    ),
    _tk(
        "stripe_webhook_secret",
        lambda r: "wh" + "sec_" + _s(r, _AN, 32),
        ["STRIPE_WEBHOOK_SECRET", "STRIPE_SIGNING_SECRET"],
        "Stripe",
        "webhook signing secret",
    ),
    _tk(
        "square_access_token",
        lambda r: "EAAA" + _s(r, _U64, 60),
        ["SQUARE_ACCESS_TOKEN"],
        "Square",
        "access token",
        ("https://connect.squareup.com/v2/payments", "Authorization", "Bearer {}"),
    ),
    _tk(
        "braintree_access_token",
        lambda r: "access_token$production$" + _s(r, _LO + _DG, 16) + "$" + _hex(r, 32),
        ["BRAINTREE_ACCESS_TOKEN"],
        "Braintree",
        "access token",
    ),
    _tk(
        "paypal_client_secret",
        lambda r: "E" + _s(r, _U64, 79),
        ["PAYPAL_CLIENT_SECRET"],
        "PayPal",
        "client secret",
    ),
    _tk(
        "plaid_secret",
        lambda r: _hex(r, 30),
        ["PLAID_SECRET"],
        "Plaid",
        "secret",
        comps=(("PLAID_CLIENT_ID", "__hex24"), ("PLAID_ENV", "production")),
    ),
    _tk(
        "shopify_access_token",
        lambda r: "shp" + "at_" + _hex(r, 32),
        ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"],
        "Shopify",
        "Admin API access token",
        ("https://fjordpay-store.myshopify.com/admin/api/2024-07/orders.json", "X-Shopify-Access-Token", "{}"),
    ),
    _tk(
        "shopify_shared_secret",
        lambda r: "shp" + "ss_" + _hex(r, 32),
        ["SHOPIFY_API_SECRET", "SHOPIFY_SHARED_SECRET"],
        "Shopify",
        "app shared secret",
    ),
    _tk(
        "razorpay_key_secret",
        lambda r: _s(r, _AN, 24),
        ["RAZORPAY_KEY_SECRET"],
        "Razorpay",
        "key secret",
        comps=(("RAZORPAY_KEY_ID", "__rzp"),),
    ),
    _tk(
        "gocardless_access_token",
        lambda r: "live_" + _s(r, _U64, 40),
        ["GOCARDLESS_ACCESS_TOKEN"],
        "GoCardless",
        "access token",
        ("https://api.gocardless.com/mandates", "Authorization", "Bearer {}"),
    ),
    _tk(
        "slack_bot_token",
        lambda r: "xo" + "xb-" + _num(r, 12) + "-" + _num(r, 13) + "-" + _s(r, _AN, 24),
        ["SLACK_BOT_TOKEN"],
        "Slack",
        "bot token",
        ("https://slack.com/api/chat.postMessage", "Authorization", "Bearer {}"),
    ),
    _tk(
        "slack_user_token",
        lambda r: "xo" + "xp-" + _num(r, 12) + "-" + _num(r, 12) + "-" + _num(r, 13) + "-" + _hex(r, 32),
        ["SLACK_USER_TOKEN"],
        "Slack",
        "user token",
        ("https://slack.com/api/conversations.history", "Authorization", "Bearer {}"),
    ),
    _tk(
        "discord_bot_token",
        lambda r: r.choice("MN") + _s(r, _AN, 23) + "." + _s(r, _U64, 6) + "." + _s(r, _U64, 38),
        ["DISCORD_BOT_TOKEN", "DISCORD_TOKEN"],
        "Discord",
        "bot token",
        ("https://discord.com/api/v10/users/@me", "Authorization", "Bot {}"),
    ),
    _tk(
        "telegram_bot_token",
        lambda r: _num(r, 10) + ":AA" + _s(r, _U64, 33),
        ["TELEGRAM_BOT_TOKEN", "TG_BOT_TOKEN"],
        "Telegram",
        "bot token",
        extra=(_x_telegram,),
    ),
    _tk(
        "twilio_auth_token",
        lambda r: _hex(r, 32),
        ["TWILIO_AUTH_TOKEN"],
        "Twilio",
        "auth token",
        comps=(("TWILIO_ACCOUNT_SID", "__twsid"),),
    ),
    _tk(
        "sendgrid_api_key",
        lambda r: "S" + "G." + _s(r, _U64, 22) + "." + _s(r, _U64, 43),
        ["SENDGRID_API_KEY"],
        "SendGrid",
        "API key",
        ("https://api.sendgrid.com/v3/mail/send", "Authorization", "Bearer {}"),
    ),
    _tk(
        "mailgun_api_key",
        lambda r: "key-" + _hex(r, 32),
        ["MAILGUN_API_KEY"],
        "Mailgun",
        "API key",
        comps=(("MAILGUN_DOMAIN", "mg.insurex.example"),),
    ),
    _tk(
        "postmark_server_token",
        _uuid,
        ["POSTMARK_SERVER_TOKEN", "POSTMARK_API_TOKEN"],
        "Postmark",
        "server token",
        ("https://api.postmarkapp.com/email", "X-Postmark-Server-Token", "{}"),
    ),
    _tk(
        "mailchimp_api_key",
        lambda r: _hex(r, 32) + "-us" + str(r.randint(1, 21)),
        ["MAILCHIMP_API_KEY"],
        "Mailchimp",
        "API key",
    ),
    _tk(
        "brevo_api_key",
        lambda r: "xkeysib-" + _hex(r, 64) + "-" + _s(r, _AN, 16),
        ["BREVO_API_KEY", "SENDINBLUE_API_KEY"],
        "Brevo",
        "API key",
        ("https://api.brevo.com/v3/smtp/email", "api-key", "{}"),
    ),
    _tk(
        "openai_api_key",
        lambda r: "s" + "k-proj-" + _s(r, _U64, 74) + "T3Blbk" + "FJ" + _s(r, _U64, 74),
        ["OPENAI_API_KEY"],
        "OpenAI",
        "API key",
        ("https://api.openai.com/v1/chat/completions", "Authorization", "Bearer {}"),
    ),
    _tk(
        "anthropic_api_key",
        lambda r: "s" + "k-ant-api03-" + _s(r, _U64, 93) + "AA",
        ["ANTHROPIC_API_KEY"],
        "Anthropic",
        "API key",
        ("https://api.anthropic.com/v1/messages", "x-api-key", "{}"),
    ),
    _tk(
        "huggingface_token",
        lambda r: "h" + "f_" + _s(r, _UP + _LO, 34),
        ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"],
        "Hugging Face",
        "access token",
        ("https://huggingface.co/api/whoami-v2", "Authorization", "Bearer {}"),
    ),
    _tk(
        "groq_api_key",
        lambda r: "gsk" + "_" + _s(r, _AN, 52),
        ["GROQ_API_KEY"],
        "Groq",
        "API key",
        ("https://api.groq.com/openai/v1/chat/completions", "Authorization", "Bearer {}"),
    ),
    _tk(
        "replicate_api_token",
        lambda r: "r8" + "_" + _s(r, _AN, 37),
        ["REPLICATE_API_TOKEN"],
        "Replicate",
        "API token",
        ("https://api.replicate.com/v1/predictions", "Authorization", "Bearer {}"),
    ),
    _tk(
        "perplexity_api_key",
        lambda r: "pplx" + "-" + _s(r, _AN, 48),
        ["PERPLEXITY_API_KEY", "PPLX_API_KEY"],
        "Perplexity",
        "API key",
        ("https://api.perplexity.ai/chat/completions", "Authorization", "Bearer {}"),
    ),
    _tk(
        "openrouter_api_key",
        lambda r: "s" + "k-or-v1-" + _hex(r, 64),
        ["OPENROUTER_API_KEY"],
        "OpenRouter",
        "API key",
        ("https://openrouter.ai/api/v1/chat/completions", "Authorization", "Bearer {}"),
    ),
    _tk(
        "datadog_api_key",
        lambda r: _hex(r, 32),
        ["DD_API_KEY", "DATADOG_API_KEY"],
        "Datadog",
        "API key",
        ("https://api.datadoghq.eu/api/v1/validate", "DD-API-KEY", "{}"),
        comps=(("DD_SITE", "datadoghq.eu"),),
    ),
    _tk(
        "new_relic_license_key",
        lambda r: _hex(r, 36) + "NRAL",
        ["NEW_RELIC_LICENSE_KEY"],
        "New Relic",
        "license key",
        extra=(_x_newrelic,),
    ),
    _tk(
        "new_relic_user_key",
        lambda r: "NRAK-" + _s(r, _UP + _DG, 27),
        ["NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY"],
        "New Relic",
        "user API key",
        ("https://api.eu.newrelic.com/graphql", "API-Key", "{}"),
    ),
    _tk(
        "sentry_auth_token",
        lambda r: "sntry" + "u_" + _hex(r, 64),
        ["SENTRY_AUTH_TOKEN"],
        "Sentry",
        "auth token",
        ("https://sentry.io/api/0/projects/", "Authorization", "Bearer {}"),
    ),
    _tk(
        "grafana_service_account_token",
        lambda r: "glsa" + "_" + _s(r, _AN, 32) + "_" + _hex(r, 8),
        ["GRAFANA_TOKEN", "GRAFANA_SA_TOKEN"],
        "Grafana",
        "service account token",
        ("https://grafana.telcoria.example/api/dashboards/db", "Authorization", "Bearer {}"),
    ),
    _tk(
        "dynatrace_token",
        lambda r: "dt0c01." + _s(r, _UP + _DG, 24) + "." + _s(r, _UP + _DG, 64),
        ["DT_API_TOKEN", "DYNATRACE_API_TOKEN"],
        "Dynatrace",
        "API token",
        ("https://abc12345.live.dynatrace.com/api/v2/metrics/ingest", "Authorization", "Api-Token {}"),
    ),
    _tk(
        "splunk_hec_token",
        _uuid,
        ["SPLUNK_HEC_TOKEN"],
        "Splunk HEC",
        "HEC token",
        ("https://splunk.northbank.example:8088/services/collector/event", "Authorization", "Splunk {}"),
    ),
    _tk(
        "okta_api_token",
        lambda r: "00" + _s(r, _U64, 40),
        ["OKTA_API_TOKEN", "OKTA_TOKEN"],
        "Okta",
        "API token",
        ("https://insurex.okta.example/api/v1/users?limit=200", "Authorization", "SSWS {}"),
    ),
    _tk(
        "auth0_client_secret",
        lambda r: _s(r, _U64, 64),
        ["AUTH0_CLIENT_SECRET"],
        "Auth0",
        "client secret",
        comps=(("AUTH0_DOMAIN", "medilink.eu.auth0.example"), ("AUTH0_CLIENT_ID", "__an32")),
    ),
    _tk(
        "google_oauth_client_secret",
        lambda r: "GOC" + "SPX-" + _s(r, _U64, 28),
        ["GOOGLE_CLIENT_SECRET"],
        "Google OAuth",
        "client secret",
        comps=(("GOOGLE_CLIENT_ID", "__gcid"),),
        extra=(_x_google_client,),
    ),
    _tk(
        "keycloak_client_secret",
        lambda r: _s(r, _AN, 32),
        ["KEYCLOAK_CLIENT_SECRET", "KC_CLIENT_SECRET", "OIDC_CLIENT_SECRET"],
        "Keycloak",
        "client secret",
        comps=(("KEYCLOAK_REALM", "hospital"), ("KEYCLOAK_CLIENT_ID", "ehr-backend")),
    ),
    _tk(
        "smart_fhir_client_secret",
        lambda r: _s(r, _U64, 48),
        ["FHIR_CLIENT_SECRET", "SMART_CLIENT_SECRET"],
        "SMART on FHIR backend service",
        "client secret",
        comps=(
            ("FHIR_CLIENT_ID", "lab-results-backend"),
            ("FHIR_TOKEN_URL", "https://ehr.acme-health.example/oauth2/token"),
        ),
    ),
    _tk(
        "planetscale_token",
        lambda r: "pscale" + "_tkn_" + _s(r, _U64, 43),
        ["PLANETSCALE_SERVICE_TOKEN"],
        "PlanetScale",
        "service token",
        comps=(("PLANETSCALE_SERVICE_TOKEN_ID", "__lo12"),),
    ),
    _tk(
        "databricks_token",
        lambda r: "dapi" + _hex(r, 32),
        ["DATABRICKS_TOKEN"],
        "Databricks",
        "personal access token",
        ("https://adb-4821.7.azuredatabricks.net/api/2.0/clusters/list", "Authorization", "Bearer {}"),
        comps=(("DATABRICKS_HOST", "https://adb-4821.7.azuredatabricks.net"),),
    ),
    _tk(
        "cloudflare_api_token",
        lambda r: _s(r, _U64, 40),
        ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
        "Cloudflare",
        "API token",
        ("https://api.cloudflare.com/client/v4/zones", "Authorization", "Bearer {}"),
    ),
    _tk(
        "cloudflare_global_api_key",
        lambda r: _hex(r, 37),
        ["CLOUDFLARE_API_KEY", "CF_API_KEY"],
        "Cloudflare",
        "global API key",
        ("https://api.cloudflare.com/client/v4/zones", "X-Auth-Key", "{}"),
        comps=(("CLOUDFLARE_EMAIL", "dns-admin@civitas.example"),),
    ),
    _tk(
        "fastly_api_token",
        lambda r: _s(r, _U64, 32),
        ["FASTLY_API_TOKEN", "FASTLY_API_KEY"],
        "Fastly",
        "API token",
        ("https://api.fastly.com/service", "Fastly-Key", "{}"),
    ),
    _tk(
        "netlify_token",
        lambda r: "nfp" + "_" + _s(r, _AN, 36),
        ["NETLIFY_AUTH_TOKEN"],
        "Netlify",
        "personal access token",
        ("https://api.netlify.com/api/v1/sites", "Authorization", "Bearer {}"),
    ),
    _tk(
        "mapbox_secret_token",
        lambda r: (
            "sk."
            + _b64u(json.dumps({"u": r.choice(_ORGS), "a": _s(r, _LO + _DG, 25)}, separators=(",", ":")).encode())
            + "."
            + _s(r, _U64, 22)
        ),
        ["MAPBOX_DOWNLOADS_TOKEN", "MAPBOX_SECRET_TOKEN"],
        "Mapbox",
        "secret token",
        extra=(_x_mapbox_netrc, _x_gradle),
    ),
    _tk(
        "algolia_admin_key",
        lambda r: _hex(r, 32),
        ["ALGOLIA_ADMIN_API_KEY", "ALGOLIA_WRITE_KEY"],
        "Algolia",
        "admin API key",
        ("https://ABCD1234EF.algolia.net/1/indexes", "X-Algolia-API-Key", "{}"),
        comps=(("ALGOLIA_APP_ID", "__algid"),),
    ),
    _tk(
        "heroku_api_key",
        lambda r: _uuid(r) if r.random() < 0.6 else "HRKU-AA" + _s(r, _U64, 58),
        ["HEROKU_API_KEY"],
        "Heroku",
        "API key",
        ("https://api.heroku.com/apps", "Authorization", "Bearer {}"),
    ),
    _tk(
        "linear_api_key",
        lambda r: "lin" + "_api_" + _s(r, _AN, 40),
        ["LINEAR_API_KEY"],
        "Linear",
        "API key",
        ("https://api.linear.app/graphql", "Authorization", "{}"),
    ),
    _tk(
        "notion_token",
        lambda r: "ntn" + "_" + _num(r, 11) + _s(r, _AN, 35),
        ["NOTION_TOKEN", "NOTION_API_KEY"],
        "Notion",
        "integration token",
        ("https://api.notion.com/v1/search", "Authorization", "Bearer {}"),
    ),
    _tk(
        "salesforce_access_token",
        lambda r: "00D" + _s(r, _AN, 12) + "!AQ" + _s(r, _AN + "._", 92) + r.choice(_AN),
        ["SF_ACCESS_TOKEN", "SALESFORCE_SESSION_ID"],
        "Salesforce",
        "access token",
        ("https://northbank.my.salesforce.com/services/data/v60.0/sobjects/Account", "Authorization", "Bearer {}"),
        comps=(("SF_INSTANCE_URL", "https://northbank.my.salesforce.com"),),
    ),
    _tk(
        "consul_acl_token",
        _uuid,
        ["CONSUL_HTTP_TOKEN", "CONSUL_ACL_TOKEN"],
        "Consul",
        "ACL token (SecretID)",
        ("http://consul.service.internal:8500/v1/kv/config?recurse", "X-Consul-Token", "{}"),
        extra=(_x_consul,),
    ),
    _tk(
        "supabase_service_role_key",
        lambda r: _jwt(
            r,
            {
                "iss": "supabase",
                "ref": _s(r, _LO, 20),
                "role": "service" + "_role",
                "iat": 1700000000 + r.randint(0, 60000000),
                "exp": 2000000000 + r.randint(0, 90000000),
            },
            "HS256",
        ),
        ["SUPABASE_SERVICE_ROLE_KEY"],
        "Supabase",
        "service_role key",
        comps=(("SUPABASE_URL", "__supaurl"),),
    ),
    _tk(
        "jwt_access_token",
        lambda r: _jwt(r, _claims(r)),
        ["ACCESS_TOKEN", "API_BEARER_TOKEN", "FHIR_ACCESS_TOKEN"],
        "OAuth2 / OIDC",
        "access token (JWT)",
        ("https://api.northbank.example/open-banking/v3.1/aisp/accounts", "Authorization", "Bearer {}"),
        extra=(_x_http_dump, _x_token_resp, _x_postman),
    ),
    _tk(
        "oauth_refresh_token",
        lambda r: r.choice(["1//0" + _s(r, _U64, 99), "0.A" + _s(r, _U64 + ".", 300) + "A", _s(r, _AN, 64)]),
        ["REFRESH_TOKEN", "OAUTH_REFRESH_TOKEN"],
        "OAuth2",
        "refresh token",
        extra=(_x_refresh_cache,),
    ),
    _tk(
        "webhook_signing_secret",
        lambda r: r.choice([_hex(r, 40), _hex(r, 32), _s(r, _AN, 40)]),
        ["GITHUB_WEBHOOK_SECRET", "SLACK_SIGNING_SECRET", "JIRA_WEBHOOK_SECRET", "WEBHOOK_HMAC_SECRET"],
        "webhook receiver",
        "signing secret",
    ),
    _tk(
        "api_secret",
        lambda r: _s(r, _AN, r.choice([32, 40, 48])),
        ["PARTNER_API_SECRET", "API_SECRET", "CLEARINGHOUSE_API_SECRET", "PSP_API_SECRET"],
        "partner API",
        "API secret",
        comps=(("PARTNER_API_KEY_ID", "__lo12"),),
    ),
    _tk(
        "jwt_signing_secret",
        lambda r: r.choice([_s(r, _AN, 64), _b64(r.randbytes(48))]),
        ["JWT_SECRET", "JWT_SIGNING_KEY", "TOKEN_HMAC_SECRET"],
        "token service",
        "JWT signing secret",
    ),
    _tk(
        "encryption_key",
        lambda r: r.choice([_hex(r, 64), _b64(r.randbytes(32))]),
        ["FIELD_ENCRYPTION_KEY", "PHI_ENCRYPTION_KEY", "DATA_ENCRYPTION_KEY"],
        "field-level encryption",
        "AES-256 key",
    ),
]


def _comp_value(r, v):
    if not v.startswith("__"):
        return v
    if v == "__uuid":
        return _uuid(r)
    if v == "__hex24":
        return _hex(r, 24)
    if v == "__rzp":
        return "rzp_live_" + _s(r, _AN, 14)
    if v == "__twsid":
        return "AC" + _hex(r, 32)
    if v == "__an32":
        return _s(r, _AN, 32)
    if v == "__gcid":
        return f"{_num(r, 12)}-{_s(r, _LO + _DG, 32)}.apps.googleusercontent.com"
    if v == "__lo12":
        return _s(r, _LO + _DG, 12)
    if v == "__algid":
        return _s(r, _UP + _DG, 10)
    if v == "__paypalid":
        return "A" + _s(r, _U64, 79)
    if v == "__supaurl":
        return f"https://{_s(r, _LO, 20)}.supabase.co"
    raise ValueError(v)


def _mk_token(spec):
    def mk(r):
        val = spec["gen"](r)
        var = r.choice(spec["vars"])
        comps = [(k, _comp_value(r, v)) for k, v in spec["comps"]]
        if spec["extra"] and r.random() < 0.45:
            snip, path = r.choice(spec["extra"])(r, val, var)
        else:
            snip, path = _kv(r, var, val, comps)
        return _it(val, spec["system"], spec["noun"], snip, path, var=var, http=spec["http"])

    return mk


# ==========================================================================
# custom kinds
# ==========================================================================


def _c_aws_secret(r):
    kid = "AK" + "IA" + _s(r, _UP + "234567", 16)
    sec = _s(r, _AN + "+/", 39) + r.choice(_AN)
    prof = r.choice(["default", "prod-billing", "claims-etl", "ci-deployer", "fhir-export"])
    reg = r.choice(_REGIONS)
    f = r.randrange(5)
    if f == 0:
        snip = f"[{prof}]\naws_access_key_id = {kid}\naws_secret_access_key = {sec}\nregion = {reg}"
        path = "~/.aws/credentials"
    elif f == 1:
        snip = f"export AWS_ACCESS_KEY_ID={kid}\nexport AWS_SECRET_ACCESS_KEY={sec}\nexport AWS_DEFAULT_REGION={reg}"
        path = f"scripts/{r.choice(_ENVS)}-aws.sh"
    elif f == 2:
        snip = f'provider "aws" {{\n  region     = "{reg}"\n  access_key = "{kid}"\n  secret_key = "{sec}"\n}}'
        path = "infra/providers.tf"
    elif f == 3:
        snip = (
            'import boto3\n\ns3 = boto3.client(\n    "s3",\n'
            f'    region_name="{reg}",\n    aws_access_key_id="{kid}",\n'
            f'    aws_secret_access_key="{sec}",\n)\n'
        )
        path = f"etl/{r.choice(['upload', 'export', 'archive'])}.py"
    else:
        snip, path = _kv(r, "AWS_SECRET_ACCESS_KEY", sec, [("AWS_ACCESS_KEY_ID", kid)])
    return _it(
        sec, "AWS IAM user", "secret access key", snip, path, inline=f"{kid} / {sec}", var="AWS_SECRET_ACCESS_KEY"
    )


def _c_azure_storage(r):
    acct = (
        r.choice(["claims", "pacs", "ledger", "archive", "hl7", "telemetry"])
        + r.choice(["store", "archive", "blob"])
        + str(r.randint(10, 99))
    )
    key = _b64(r.randbytes(64))
    conn = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net"
    f = r.randrange(4)
    if f == 0:
        snip = json.dumps({"ConnectionStrings": {"BlobStorage": conn}, "Storage": {"Container": "inbound"}}, indent=2)
        path, inline = "appsettings.json", conn
    elif f == 1:
        snip, path = _kv(r, "AZURE_STORAGE_CONNECTION_STRING", conn)
        inline = conn
    elif f == 2:
        snip = (
            f"az storage blob upload --account-name {acct} --account-key {key} "
            f"--container-name exports --name {_date(r)}.csv --file ./out.csv"
        )
        path, inline = "scripts/export.sh", key
    else:
        snip = f'storage_account_name = "{acct}"\nstorage_account_key  = "{key}"\ncontainer_name       = "tfstate"'
        path, inline = "backend.hcl", key
    return _it(key, f"Azure Storage ({acct})", "account key", snip, path, inline=inline, var="AZURE_STORAGE_KEY")


def _c_azure_sas(r):
    acct = r.choice(["claimsexport", "pacsarchive", "ledgerdrop", "hl7archive"]) + str(r.randint(10, 99))
    sig = _b64(r.randbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    d = _date(r)
    parts = ["sv=2022-11-02", "ss=b", "srt=co", "sp=rl", f"se={d}T18:00:00Z", f"st={d}T06:00:00Z", "spr=https"]
    parts.insert(r.randint(3, len(parts)), f"sig={sig}")
    url = f"https://{acct}.blob.core.windows.net/{r.choice(['exports', 'dicom', 'sepa'])}/{_date(r)}.zip?" + "&".join(
        parts
    )
    f = r.randrange(3)
    if f == 0:
        snip, path = f'azcopy copy "{url}" ./downloads/ --recursive', "scripts/pull.sh"
    elif f == 1:
        snip, path = _kv(r, "EXPORT_SAS_URL", url)
    else:
        snip, path = (
            json.dumps({"source": {"type": "AzureBlob", "sasUri": url}, "schedule": "0 2 * * *"}, indent=2),
            "pipelines/ingest.json",
        )
    return _it(sig, "Azure Blob SAS", "SAS URL", snip, path, inline=url, var="EXPORT_SAS_URL")


def _c_aws_presigned(r):
    kid = "AK" + "IA" + _s(r, _UP + "234567", 16)
    reg = r.choice(_REGIONS)
    d8 = _date(r).replace("-", "")
    sig = _hex(r, 64)
    bucket = r.choice(["claims-exports", "dicom-share", "sepa-outbound", "lab-pdfs"]) + "-" + r.choice(_ENVS)
    url = (
        f"https://{bucket}.s3.{reg}.amazonaws.com/{_date(r)}/{_s(r, _LO + _DG, 10)}.pdf"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={kid}%2F{d8}%2F{reg}%2Fs3%2Faws4_request"
        f"&X-Amz-Date={d8}T{r.randint(10, 23)}{r.randint(10, 59)}00Z&X-Amz-Expires={r.choice([300, 3600, 604800])}"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    f = r.randrange(3)
    if f == 0:
        snip, path = f'curl -sSfo report.pdf "{url}"', "scripts/fetch.sh"
    elif f == 1:
        snip, path = json.dumps({"download_url": url, "expires_in": 3600}, indent=2), "tmp/presign.json"
    else:
        snip, path = _kv(r, "REPORT_DOWNLOAD_URL", url)
    return _it(sig, "S3 pre-signed URL", "pre-signed URL", snip, path, inline=url, var="REPORT_DOWNLOAD_URL")


def _c_gcs_signed(r):
    sig = _hex(r, 512)
    proj = f"{_app(r)}-{r.randint(100, 999)}"
    d8 = _date(r).replace("-", "")
    url = (
        f"https://storage.googleapis.com/{proj}-exports/{_s(r, _LO + _DG, 12)}.csv"
        f"?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=exporter%40{proj}.iam.gserviceaccount.com"
        f"%2F{d8}%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date={d8}T120000Z&X-Goog-Expires=900"
        f"&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    if r.random() < 0.5:
        snip, path = f'gsutil cp "{url}" .', "scripts/pull.sh"
    else:
        snip, path = json.dumps({"signed_url": url, "method": "GET"}, indent=2), "tmp/signed.json"
    return _it(sig, "GCS V4 signed URL", "signed URL", snip, path, inline=url, var="SIGNED_URL")


def _yaml_block(secret, indent):
    return secret.replace("\n", "\n" + " " * indent)


def _c_gcp_sa(r):
    pem = _armor("PRIVATE KEY", _rsa_pkcs8(r)) + "\n"
    proj = f"{_app(r)}-{r.randint(100, 999)}"
    sa = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": _hex(r, 40),
        "private_key": pem,
        "client_email": f"{r.choice(['exporter', 'ci-deploy', 'fhir-sync'])}@{proj}.iam.gserviceaccount.com",
        "client_id": _num(r, 21),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    secret = _esc(pem.rstrip("\n"))
    f = r.randrange(3)
    if f == 0:
        snip, path = json.dumps(sa, indent=2), f"{proj}-sa.json"
    elif f == 1:
        snip, path = "GOOGLE_CREDENTIALS_JSON='" + json.dumps(sa) + "'", ".env"
    else:
        body = _yaml_block(json.dumps(sa, indent=2), 4)
        snip = (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: gcp-sa\ntype: Opaque\n"
            f"stringData:\n  key.json: |\n    {body}\n"
        )
        path = "k8s/gcp-sa-secret.yaml"
    return _it(secret, "GCP service account", "service account key", snip, path, inline=None, var="GOOGLE_CREDENTIALS")


def _c_slack_webhook(r):
    tok = _s(r, _AN, 24)
    url = f"https://hooks.slack.com/services/T{_s(r, _UP + _DG, r.randint(8, 10))}/B{_s(r, _UP + _DG, r.randint(8, 10))}/{tok}"
    f = r.randrange(4)
    if f == 0:
        snip = (
            "receivers:\n  - name: oncall-slack\n    slack_configs:\n"
            f"      - api_url: '{url}'\n        channel: '#{r.choice(['noc', 'payments-alerts', 'ehr-oncall'])}'\n"
            "        send_resolved: true\n"
        )
        path = "alertmanager/alertmanager.yml"
    elif f == 1:
        snip, path = _kv(r, "SLACK_WEBHOOK_URL", url)
    elif f == 2:
        snip = f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"{_app(r)} deployed\"}}' {url}"
        path = "ci/notify.sh"
    else:
        snip = json.dumps({"notifiers": [{"type": "slack", "url": url, "username": "deploy-bot"}]}, indent=2)
        path = "config/notify.json"
    return _it(tok, "Slack incoming webhook", "webhook URL", snip, path, inline=url, var="SLACK_WEBHOOK_URL")


def _c_discord_webhook(r):
    tok = _s(r, _U64, 68)
    url = f"https://discord.com/api/webhooks/{_num(r, 19)}/{tok}"
    if r.random() < 0.5:
        snip, path = _kv(r, "DISCORD_WEBHOOK_URL", url)
    else:
        snip = f"curl -H 'Content-Type: application/json' -d '{{\"content\":\"backup finished\"}}' '{url}'"
        path = "scripts/notify.sh"
    return _it(tok, "Discord webhook", "webhook URL", snip, path, inline=url, var="DISCORD_WEBHOOK_URL")


def _c_pg(r):
    pw = _pw_url(r)
    user = r.choice(_USERS)
    host = _host(r, "pg")
    db = r.choice(["claims", "ledger", "ehr", "kyc", "billing", "telemetry"])
    uri = f"{r.choice(['postgresql', 'postgres'])}://{user}:{pw}@{host}:5432/{db}" + r.choice(
        ["", "?sslmode=require", "?sslmode=verify-full"]
    )
    f = r.randrange(4)
    if f == 0:
        snip, path = _kv(r, r.choice(["DATABASE_URL", "PG_DSN", "AIRFLOW_CONN_POSTGRES"]), uri)
    elif f == 1:
        snip = f'from sqlalchemy import create_engine\n\nengine = create_engine("{uri}", pool_size=10)\n'
        path = "app/db.py"
    elif f == 2:
        snip, path = f"psql '{uri}' -c 'select count(*) from {db}.events'", "runbook.sh"
    else:
        snip = f'externalDatabase:\n  enabled: true\n  url: "{uri}"\n'
        path = "charts/app/values-prod.yaml"
    return _it(pw, f"PostgreSQL {db}", "connection string", snip, path, inline=uri, var="DATABASE_URL", pw=True)


def _c_mongo(r):
    pw = _pw_url(r)
    user = r.choice(_USERS)
    uri = f"mongodb+srv://{user}:{pw}@cluster{r.randint(0, 9)}.{_s(r, _LO + _DG, 5)}.mongodb.net/{r.choice(['claims', 'devices', 'events'])}?retryWrites=true&w=majority"
    if r.random() < 0.6:
        snip, path = _kv(r, r.choice(["MONGODB_URI", "MONGO_URL"]), uri)
    else:
        snip = f'const {{ MongoClient }} = require("mongodb");\nconst client = new MongoClient("{uri}");\n'
        path = "src/db.js"
    return _it(pw, "MongoDB Atlas", "connection string", snip, path, inline=uri, var="MONGODB_URI", pw=True)


def _c_mysql(r):
    pw = _pw_url(r)
    user = r.choice(_USERS)
    host = _host(r, "mysql")
    db = r.choice(["wp", "crm", "billing", "portal"])
    if r.random() < 0.5:
        uri = f"jdbc:mysql://{host}:3306/{db}?user={user}&password={pw}&useSSL=true"
        var = "JDBC_URL"
    else:
        uri = f"mysql://{user}:{pw}@{host}:3306/{db}"
        var = "MYSQL_URL"
    snip, path = _kv(r, var, uri)
    return _it(pw, f"MySQL {db}", "connection string", snip, path, inline=uri, var=var, pw=True)


def _c_redis(r):
    pw = _pw_url(r)
    host = _host(r, "redis")
    f = r.randrange(4)
    if f == 0:
        uri = f"rediss://default:{pw}@{host}:6380/0"
        snip, path = _kv(r, "REDIS_URL", uri)
        inline = uri
    elif f == 1:
        uri = f"redis://:{pw}@{host}:6379/{r.randint(0, 5)}"
        snip, path = _kv(r, "CACHE_URL", uri)
        inline = uri
    elif f == 2:
        snip = f"bind 0.0.0.0\nport 6379\nrequirepass {pw}\nmaxmemory {r.choice([2, 4, 8])}gb\nappendonly yes\n"
        path, inline = "/etc/redis/redis.conf", f"requirepass {pw}"
    else:
        snip = f'spring:\n  data:\n    redis:\n      host: {host}\n      port: 6379\n      password: "{pw}"\n'
        path, inline = "application.yml", pw
    return _it(pw, "Redis", "password", snip, path, inline=inline, var="REDIS_PASSWORD", pw=True)


def _c_mssql(r):
    pw = _pw_gen(r, sym="!*-_.~^+")
    srv = r.choice([f"tcp:{_app(r)}-{r.choice(_ENVS)}.database.windows.net,1433", _host(r, "sql") + ",1433"])
    cs = f"Server={srv};Initial Catalog={r.choice(['Claims', 'Ledger', 'Portal'])};User ID={r.choice(_USERS)};Password={pw};Encrypt=True;TrustServerCertificate=False;"
    f = r.randrange(3)
    if f == 0:
        snip, path = (
            json.dumps({"ConnectionStrings": {"DefaultConnection": cs}}, indent=2),
            "appsettings.Production.json",
        )
    elif f == 1:
        snip = f'<connectionStrings>\n  <add name="Main" connectionString="{cs}" providerName="System.Data.SqlClient" />\n</connectionStrings>'
        path = "Web.config"
    else:
        snip, path = _kv(r, "SQL_CONNECTION_STRING", cs)
    return _it(pw, "SQL Server", "connection string", snip, path, inline=cs, var="SQL_CONNECTION_STRING", pw=True)


def _c_oracle(r):
    pw = _pw_gen(r, sym="_")
    user = r.choice(["CLAIMS_APP", "GL_BATCH", "HR_READ", "FIN_ETL"])
    host = _host(r, "ora")
    svc = r.choice(["ORCLPDB1", "FINPRD", "EHRPRD", "CORE"])
    f = r.randrange(3)
    if f == 0:
        inline = f"jdbc:oracle:thin:{user}/{pw}@//{host}:1521/{svc}"
        snip, path = _kv(r, "ORACLE_JDBC_URL", inline)
    elif f == 1:
        inline = f"sqlplus {user}/{pw}@//{host}:1521/{svc}"
        snip, path = inline + " @nightly_recon.sql", "jobs/recon.sh"
    else:
        inline = pw
        snip = f'import oracledb\n\nconn = oracledb.connect(user="{user}", password="{pw}", dsn="{host}:1521/{svc}")\n'
        path = "etl/extract.py"
    return _it(pw, f"Oracle {svc}", "password", snip, path, inline=inline, var="ORACLE_PASSWORD", pw=True)


def _c_db2(r):
    pw = _pw_gen(r, sym="_")
    user = r.choice(["db2inst1", "claimsu", "batchusr"])
    host = _host(r, "db2")
    if r.random() < 0.5:
        inline = (
            f"DATABASE={r.choice(['CLMPRD', 'LEDGER'])};HOSTNAME={host};PORT=50000;PROTOCOL=TCPIP;UID={user};PWD={pw};"
        )
        snip, path = _kv(r, "DB2_DSN", inline)
    else:
        inline = f"jdbc:db2://{host}:50000/CLMPRD:user={user};password={pw};sslConnection=true;"
        snip = f"spring.datasource.url={inline}\nspring.datasource.driver-class-name=com.ibm.db2.jcc.DB2Driver\n"
        path = "application.properties"
    return _it(pw, "Db2", "password", snip, path, inline=inline, var="DB2_PASSWORD", pw=True)


def _c_basic_url(r):
    pw = _pw_url(r)
    user = r.choice(["deploy", "ci-bot", "mirror", "svc-proxy", "reader"])
    f = r.randrange(5)
    if f == 0:
        url = f"https://{user}:{pw}@nexus.{r.choice(_ORGS)}.example/repo/maven-releases/"
        var = "MAVEN_REPO_URL"
    elif f == 1:
        url = f"http://{user}:{pw}@proxy.{r.choice(_ORGS)}.example:3128"
        var = "HTTPS_PROXY"
    elif f == 2:
        url = f"https://{user}:{pw}@git.{r.choice(_ORGS)}.example/platform/{_app(r)}.git"
        var = "GIT_REMOTE"
    elif f == 3:
        url = f"https://{user}:{pw}@pypi.{r.choice(_ORGS)}.example/simple/"
        var = "PIP_INDEX_URL"
    else:
        url = f"https://{user}:{pw}@{_host(r, 'fhir')}/r4/metadata"
        var = "FHIR_URL"
    if r.random() < 0.6:
        snip, path = _kv(r, var, url)
    else:
        snip, path = f"git remote set-url origin {url}" if f == 2 else f"curl -sf '{url}'", "scripts/setup.sh"
    return _it(pw, "HTTP basic auth", "URL with credentials", snip, path, inline=url, var=var, pw=True)


# ---- network and device secrets ----


def _cisco_wrap(r, lines_in):
    hn = f"{r.choice(['rtr', 'sw', 'fw', 'core', 'edge'])}-{r.choice(['fra', 'ams', 'sto', 'waw', 'mad', 'tyo'])}{r.randint(1, 9)}"
    pre = [f"hostname {hn}", "!", "service timestamps log datetime msec", "no ip domain-lookup", "!"]
    post = [
        "!",
        f"interface GigabitEthernet0/{r.randint(0, 3)}",
        f" description uplink-{r.choice(['isp', 'core', 'dc'])}",
        f" ip address {_ip(r)} 255.255.255.0",
        "!",
        "line vty 0 4",
        " transport input ssh",
        "!",
        "end",
    ]
    if r.random() < 0.5:
        return "\n".join(pre + lines_in + post)
    return "\n".join(pre + post[:-1] + lines_in + ["end"])


def _c_cisco_enable(r):
    pw = _pw_dev(r)
    line = r.choice([f"enable secret 0 {pw}", f"enable password {pw}", f"enable password 0 {pw}"])
    snip = _cisco_wrap(r, [line, "!", "aaa new-model"])
    return _it(
        pw,
        "Cisco IOS enable",
        "enable secret (clear text)",
        snip,
        "configs/running-config.txt",
        inline=line,
        var="enable",
        pw=True,
    )


def _c_net_admin(r):
    pw = _pw_dev(r)
    user = r.choice(["netops", "noc", "admin", "oob"])
    f = r.randrange(5)
    if f == 0:
        line = f"username {user} privilege 15 password 0 {pw}"
        snip = _cisco_wrap(r, [line])
    elif f == 1:
        line = f"/user add name={user} group=full password={pw}"
        snip = f"/system identity set name=mt-{r.randint(1, 30)}\n{line}\n/ip service disable telnet,ftp"
    elif f == 2:
        line = f"set password {pw}"
        snip = f'config system admin\n    edit "{user}"\n        set accprofile "super_admin"\n        {line}\n    next\nend'
    elif f == 3:
        line = f"password simple {pw}"
        snip = f"local-user {user} class manage\n {line}\n service-type ssh\n authorization-attribute user-role network-admin"
    else:
        line = f"set system login user {user} authentication plaintext-password {pw}"
        snip = f"configure\n{line}\nset system login user {user} level admin\ncommit\nsave"
    return _it(
        pw,
        "network device admin account",
        "password",
        snip,
        "configs/device.cfg",
        inline=line,
        var="admin password",
        pw=True,
    )


def _community(r):
    return f"{r.choice(['noc', 'ops', 'mgmt', 'netops', 'tlc', 'scada', 'rwc'])}{r.choice('-_')}{_s(r, _AN, r.randint(10, 16))}"


def _c_snmp_rw(r):
    c = _community(r)
    f = r.randrange(4)
    if f == 0:
        line = f"snmp-server community {c} RW SNMP-MGMT"
        snip = _cisco_wrap(r, [f"ip access-list standard SNMP-MGMT\n permit {_ip(r)}", line])
    elif f == 1:
        line = f"rwcommunity {c} {_ip(r)}/32"
        snip = f"sysLocation {r.choice(['DC-Frankfurt', 'Substation 7', 'POP Malmo'])}\nsysContact noc@telcoria.example\n{line}\n"
    elif f == 2:
        line = f"set snmp community {c} authorization read-write"
        snip = f"{line}\nset snmp community {c} clients {_ip(r)}/32"
    else:
        line = f"snmp-agent community write {c}"
        snip = f"snmp-agent\n{line}\nsnmp-agent sys-info version v2c"
    return _it(c, "SNMP v2c", "read-write community", snip, "configs/snmp.cfg", inline=line, var="community", pw=True)


def _c_snmpv3(r):
    p = _pw_dev(r)
    user = r.choice(["poller", "nms", "zabbix", "librenms"])
    f = r.randrange(3)
    if f == 0:
        line = f"snmp-server user {user} NMS-RO v3 auth sha {p}"
        snip = _cisco_wrap(r, ["snmp-server group NMS-RO v3 auth", line])
    elif f == 1:
        line = f'createUser {user} SHA "{p}"'
        snip = f"{line}\nrouser {user} auth\nagentAddress udp:161\n"
    else:
        line = f"set snmp v3 usm local-engine user {user} authentication-sha authentication-password {p}"
        snip = line + f"\nset snmp v3 vacm security-to-group security-model usm security-name {user} group nms"
    return _it(p, "SNMPv3", "auth passphrase", snip, "configs/snmpv3.cfg", inline=line, var="authPassphrase", pw=True)


def _c_radius(r):
    s = _pw_gen(r, 16, 32, sym="!*-_.+")
    f = r.randrange(4)
    if f == 0:
        line = f'secret = "{s}"'
        snip = f"client {r.choice(['wlc01', 'vpn-gw', 'nas-fra'])} {{\n    ipaddr = {_ip(r)}\n    {line}\n    shortname = nas{r.randint(1, 20)}\n    nas_type = other\n}}"
        path = "/etc/freeradius/3.0/clients.conf"
    elif f == 1:
        line = f" key {s}"
        snip = _cisco_wrap(
            r, [f"radius server ISE-{r.randint(1, 2)}", f" address ipv4 {_ip(r)} auth-port 1812 acct-port 1813", line]
        )
        path = "configs/switch.cfg"
    elif f == 2:
        line = f"auth_server_shared_secret={s}"
        snip = f"interface=wlan0\nieee8021x=1\nauth_server_addr={_ip(r)}\nauth_server_port=1812\n{line}\n"
        path = "/etc/hostapd/hostapd.conf"
    else:
        line = f"secret = {s}"
        snip = f"eap-radius {{\n    servers {{\n        nps {{\n            address = {_ip(r)}\n            {line}\n        }}\n    }}\n}}"
        path = "/etc/strongswan.d/charon/eap-radius.conf"
    return _it(s, "RADIUS", "shared secret", snip, path, inline=line.strip(), var="radius secret", pw=True)


def _c_tacacs(r):
    s = _pw_gen(r, 14, 28, sym="!*-_.+")
    f = r.randrange(3)
    if f == 0:
        line = f" key {s}"
        snip = _cisco_wrap(r, [f"tacacs server TAC{r.randint(1, 3)}", f" address ipv4 {_ip(r)}", line])
    elif f == 1:
        line = f'key = "{s}"'
        snip = (
            f"{line}\naccounting file = /var/log/tac_plus.acct\ngroup = netadmin {{\n    default service = permit\n}}"
        )
    else:
        line = f"set system tacplus-server {_ip(r)} secret {s}"
        snip = line + "\nset system authentication-order [ tacplus password ]"
    return _it(s, "TACACS+", "shared key", snip, "configs/aaa.cfg", inline=line.strip(), var="tacacs key", pw=True)


def _c_wifi(r):
    psk = r.choice([_pw_phrase(r), _pw_gen(r, 12, 24, sym="!*-_.+"), _pw_human(r)])
    ssid = r.choice(["WARD-4-STAFF", "Plant-OT", "BranchOps", "IoT-Sensors", "Clinic-Guest-Staff", "POS-Net"])
    f = r.randrange(5)
    if f == 0:
        line = f"wpa_passphrase={psk}"
        snip = f"interface=wlan0\nssid={ssid}\nhw_mode=g\nchannel=6\nwpa=2\n{line}\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\n"
        path = "/etc/hostapd/hostapd.conf"
    elif f == 1:
        line = f'psk="{psk}"'
        snip = (
            f'ctrl_interface=/run/wpa_supplicant\nnetwork={{\n    ssid="{ssid}"\n    {line}\n    key_mgmt=WPA-PSK\n}}\n'
        )
        path = "/etc/wpa_supplicant/wlan0.conf"
    elif f == 2:
        line = f"psk={psk}"
        snip = (
            f"[connection]\nid={ssid}\ntype=wifi\n\n[wifi]\nssid={ssid}\n\n[wifi-security]\nkey-mgmt=wpa-psk\n{line}\n"
        )
        path = "/etc/NetworkManager/" + f"system-connections/{ssid}.nmconnection"
    elif f == 3:
        line = f'#define WIFI_PASSWORD "{psk}"'
        snip = f'#pragma once\n#define WIFI_SSID "{ssid}"\n{line}\n#define MQTT_HOST "{_ip(r)}"\n'
        path = "firmware/include/secrets.h"
    else:
        line = f'password: "{psk}"'
        snip = f'network:\n  version: 2\n  wifis:\n    wlan0:\n      dhcp4: true\n      access-points:\n        "{ssid}":\n          {line}\n'
        path = "/etc/netplan/50-wifi.yaml"
    return _it(psk, f"Wi-Fi {ssid}", "WPA2 PSK", snip, path, inline=line, var="wifi psk", pw=True)


def _c_ipsec(r):
    psk = _pw_gen(r, 20, 40, sym="._")
    peer = _pubip(r)
    f = r.randrange(5)
    if f == 0:
        line = f'{_pubip(r)} {peer} : PSK "{psk}"'
        snip, path = f"# ipsec.secrets\n{line}\n", "/etc/ipsec.secrets"
    elif f == 1:
        line = f'secret = "{psk}"'
        snip = f"secrets {{\n    ike-{r.choice(['bank', 'clearing', 'branch'])} {{\n        id = {peer}\n        {line}\n    }}\n}}"
        path = "/etc/swanctl/swanctl.conf"
    elif f == 2:
        line = f"crypto isakmp key {psk} address {peer}"
        snip, path = (
            _cisco_wrap(r, ["crypto isakmp policy 10", " encr aes 256", " authentication pre-share", line]),
            "configs/vpn.cfg",
        )
    elif f == 3:
        line = f'set security ike policy IKE-POL pre-shared-key ascii-text "{psk}"'
        snip, path = line + "\nset security ike gateway GW-PARTNER ike-policy IKE-POL\n", "configs/srx.set"
    else:
        line = f"set psksecret {psk}"
        snip = f'config vpn ipsec phase1-interface\n    edit "to-{r.choice(["clearing", "hq", "dc2"])}"\n        set remote-gw {peer}\n        {line}\n    next\nend'
        path = "configs/fortigate.conf"
    return _it(psk, "IPsec site-to-site VPN", "pre-shared key", snip, path, inline=line, var="psk", pw=True)


def _c_routing(r):
    k = _pw_gen(r, 10, 20, sym="-_.")
    nb = _ip(r)
    f = r.randrange(4)
    if f == 0:
        line = f" neighbor {nb} password 0 {k}"
        snip = _cisco_wrap(
            r, [f"router bgp {r.randint(64512, 65534)}", f" neighbor {nb} remote-as {r.randint(64512, 65534)}", line]
        )
    elif f == 1:
        line = f" ip ospf message-digest-key 1 md5 {k}"
        snip = _cisco_wrap(r, [f"interface Vlan{r.randint(10, 400)}", " ip ospf authentication message-digest", line])
    elif f == 2:
        line = f'set protocols bgp group TRANSIT neighbor {nb} authentication-key "{k}"'
        snip = line + f"\nset protocols bgp group TRANSIT neighbor {nb} peer-as {r.randint(1000, 65000)}"
    else:
        line = f" neighbor {nb} password {k}"
        snip = f"router bgp {r.randint(64512, 65534)}\n neighbor {nb} remote-as external\n{line}\n"
    return _it(
        k,
        "routing protocol",
        "authentication key",
        snip,
        "configs/routing.cfg",
        inline=line.strip(),
        var="bgp password",
        pw=True,
    )


def _c_wireguard(r):
    priv = _wg_key(r)
    pub = _wg_key(r)
    if r.random() < 0.75:
        snip = (
            f"[Interface]\nPrivateKey = {priv}\nAddress = 10.{r.randint(0, 99)}.0.{r.randint(2, 250)}/24\n"
            f"ListenPort = 51820\n\n[Peer]\nPublicKey = {pub}\nAllowedIPs = 10.{r.randint(100, 200)}.0.0/16\n"
            f"Endpoint = {_pubip(r)}:51820\nPersistentKeepalive = 25\n"
        )
        path, line = "/etc/wireguard/wg0.conf", f"PrivateKey = {priv}"
    else:
        line = f'/interface wireguard add listen-port=13231 name=wg-hq private-key="{priv}"'
        snip = line + f'\n/interface wireguard peers add interface=wg-hq public-key="{pub}" allowed-address=10.0.0.0/8'
        path = "configs/mikrotik.rsc"
    return _it(priv, "WireGuard", "private key", snip, path, inline=line, var="PrivateKey")


def _c_ovpn_static(r):
    key = _ovpn_static(r)
    if r.random() < 0.5:
        snip = "#\n# 2048 bit OpenVPN static key\n#\n" + key + "\n"
        path = "/etc/openvpn/server/ta.key"
    else:
        tag = r.choice(["tls-crypt", "tls-auth"])
        snip = (
            f"client\ndev tun\nproto udp\nremote vpn.{r.choice(_ORGS)}.example 1194\nca ca.crt\ncert client.crt\n"
            f"key client.key\nremote-cert-tls server\ncipher AES-256-GCM\n<{tag}>\n{key}\n</{tag}>\n"
        )
        path = f"clients/{r.choice(_USERS)}.ovpn"
    return _it(key, "OpenVPN", "static key", snip, path, inline=None, var="tls-crypt")


# ---- private keys ----


def _c_tls_key(r):
    pem = _pem_private(r)
    host = _host(r, r.choice(["api", "fhir", "portal", "mllp"]))
    f = r.randrange(5)
    if f == 0:
        return _it(pem, "TLS", "private key", pem + "\n", f"/etc/ssl/private/{host}.key", var="tls.key")
    if f == 1:
        sec = _yaml_block(pem, 4)
        snip = (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {host.split('.')[0]}-tls\ntype: kubernetes.io/tls\n"
            f"stringData:\n  tls.crt: |\n    {_yaml_block(_cert_pem(r), 4)}\n  tls.key: |\n    {sec}\n"
        )
        return _it(sec, "TLS", "private key", snip, "k8s/tls-secret.yaml", var="tls.key")
    if f == 2:
        obj = {
            "request_id": _uuid(r),
            "data": {
                "certificate": _cert_pem(r),
                "private_key": pem,
                "private_key_type": "rsa",
                "serial_number": ":".join(_hex(r, 2) for _ in range(16)),
            },
        }
        return _it(pem, "Vault PKI", "private key", json.dumps(obj, indent=2), "tmp/pki-issue.json", var="private_key")
    if f == 3:
        sec = _yaml_block(pem, 2)
        snip = f"nginx_server_name: {host}\nnginx_ssl_key: |\n  {sec}\nnginx_ssl_protocols: TLSv1.2 TLSv1.3\n"
        return _it(sec, "TLS", "private key", snip, f"host_vars/{host}.yml", var="nginx_ssl_key")
    snip = _cert_pem(r) + "\n" + pem + "\n"
    return _it(pem, "HAProxy TLS bundle", "private key", snip, f"/etc/haproxy/certs/{host}.pem", var="pem")


def _c_openssh(r):
    key = _openssh_private(r)
    f = r.randrange(3)
    if f == 0:
        return _it(
            key,
            "SSH",
            "private key",
            key + "\n",
            f"~/.ssh/id_{r.choice(['ed25519', 'deploy', 'sftp_bank'])}",
            var="id_ed25519",
        )
    if f == 1:
        sec = _yaml_block(key, 4)
        snip = f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: git-sync-ssh\ntype: Opaque\nstringData:\n  ssh: |\n    {sec}\n"
        return _it(sec, "SSH deploy key", "private key", snip, "k8s/git-sync.yaml", var="ssh")
    snip = f"Host sftp-bank\n  HostName {_host(r, 'sftp')}\n  User {r.choice(_USERS)}\n\n# key used above\n{key}\n"
    return _it(key, "SSH", "private key", snip, "notes/ssh.md", var="id_ed25519")


def _c_putty(r):
    key = _putty_private(r)
    return _it(
        key,
        "PuTTY",
        "private key",
        key + "\n",
        f"C:\\Users\\ops\\keys\\{r.choice(['mainframe', 'sftp', 'jump'])}.ppk",
        var="ppk",
    )


def _c_pgp(r):
    key = _pgp_private(r)
    snip = key + "\n"
    if r.random() < 0.4:
        snip = f"# signing key for SEPA batch files (exported {_date(r)})\n" + snip
    return _it(
        key,
        "PGP",
        "private key",
        snip,
        f"keys/{r.choice(['sepa-signing', 'edi-partner', 'release'])}.asc",
        var="pgp key",
    )


def _c_age(r):
    k = "AGE-SECRET-KEY-1" + _s(r, _BECH.upper(), 58)
    pub = "age1" + _s(r, _BECH, 58)
    if r.random() < 0.6:
        snip = f"# created: {_ts(r)}\n# public key: {pub}\n{k}\n"
        path = "~/.config/sops/age/keys.txt"
    else:
        snip, path = _kv(r, "SOPS_AGE_KEY", k)
    return _it(k, "age (SOPS)", "identity key", snip, path, var="SOPS_AGE_KEY")


# ---- application passwords ----


def _c_db_password(r):
    pw = _pw(r)
    user = r.choice(_USERS)
    host = _host(r, "db")
    f = r.randrange(10)
    if f == 0:
        snip = (
            f"spring:\n  datasource:\n    url: jdbc:postgresql://{host}:5432/claims\n"
            f'    username: {user}\n    password: "{pw}"\n  jpa:\n    open-in-view: false\n'
        )
        return _it(
            pw,
            "Spring datasource",
            "database password",
            snip,
            "src/main/resources/" + "application-prod.yml",
            var="spring.datasource.password",
            pw=True,
        )
    if f == 1:
        snip = (
            f"define( 'DB_NAME', 'wp_{r.choice(['portal', 'intranet', 'news'])}' );\n"
            f"define( 'DB_USER', '{user}' );\ndefine( 'DB_PASSWORD', '{pw}' );\ndefine( 'DB_HOST', '{host}' );\n"
            "define( 'DB_CHARSET', 'utf8mb4' );"
        )
        return _it(pw, "WordPress", "database password", "<?php\n" + snip, "wp-config.php", var="DB_PASSWORD", pw=True)
    if f == 2:
        snip = (
            "production:\n  adapter: postgresql\n  encoding: unicode\n"
            f'  host: {host}\n  database: ledger_production\n  username: {user}\n  password: "{pw}"\n  pool: 10\n'
        )
        return _it(pw, "Rails database.yml", "database password", snip, "config/database.yml", var="password", pw=True)
    if f == 3:
        snip = (
            'DATABASES = {\n    "default": {\n        "ENGINE": "django.db.backends.postgresql",\n'
            f'        "NAME": "kyc",\n        "USER": "{user}",\n        "PASSWORD": "{pw}",\n'
            f'        "HOST": "{host}",\n        "PORT": "5432",\n    }}\n}}\n'
        )
        return _it(pw, "Django", "database password", snip, "kyc/settings/prod.py", var="PASSWORD", pw=True)
    if f == 4:
        snip = (
            f'resource "aws_db_instance" "{r.choice(["claims", "ledger", "ehr"])}" {{\n  engine         = "postgres"\n'
            f'  instance_class = "db.r6g.large"\n  username       = "{user}"\n  password       = "{pw}"\n'
            "  storage_encrypted = true\n}"
        )
        return _it(pw, "Terraform RDS", "master password", snip, "infra/rds.tf", var="password", pw=True)
    if f == 5:
        snip = (
            f'auth:\n  username: {user}\n  password: "{pw}"\n  database: {r.choice(["ehr", "claims", "events"])}\n'
            "primary:\n  persistence:\n    size: 50Gi\n"
        )
        return _it(
            pw,
            "Helm postgresql chart",
            "database password",
            snip,
            "charts/postgresql/values-prod.yaml",
            var="auth.password",
            pw=True,
        )
    if f == 6:
        snip = f'<property name="hibernate.connection.username">{user}</property>\n<property name="hibernate.connection.password">{pw}</property>'
        return _it(
            pw,
            "Hibernate",
            "database password",
            snip,
            "src/main/resources/hibernate.cfg.xml",
            var="hibernate.connection.password",
            pw=True,
        )
    if f == 7:
        snip = (
            f"- name: create reporting user\n  community.mysql.mysql_user:\n    name: {user}\n"
            f"    password: \"{pw}\"\n    priv: 'reporting.*:SELECT'\n    state: present\n"
        )
        return _it(
            pw, "Ansible mysql_user", "database password", snip, "roles/mysql/tasks/users.yml", var="password", pw=True
        )
    if f == 8:
        snip = f"class {{ 'profile::postgres':\n  db_user     => '{user}',\n  db_password => '{pw}',\n}}"
        return _it(pw, "Puppet profile", "database password", snip, "manifests/site.pp", var="db_password", pw=True)
    var = r.choice(["DB_PASSWORD", "POSTGRES_PASSWORD", "MYSQL_PASSWORD", "DATABASE_PASSWORD", "ORACLE_PWD"])
    snip, path = _kv(r, var, pw, [("DB_USER", user)])
    return _it(pw, "database", "database password", snip, path, var=var, pw=True)


def _c_ldap(r):
    pw = _pw(r)
    dn = f"cn={r.choice(['svc-ldap', 'binduser', 'gitlab-bind', 'sssd'])},ou=service,dc={r.choice(_ORGS).replace('-', '')},dc=example"
    f = r.randrange(5)
    if f == 0:
        line = f"ldap_default_authtok = {pw}"
        snip = f"[domain/corp]\nid_provider = ldap\nldap_uri = ldaps://{_host(r, 'ldap')}\nldap_default_bind_dn = {dn}\n{line}\n"
        path = "/etc/sssd/sssd.conf"
    elif f == 1:
        line = f"bindpw {pw}"
        snip = f"uri ldaps://{_host(r, 'ldap')}\nbase dc=corp,dc=example\nbinddn {dn}\n{line}\n"
        path = "/etc/nslcd.conf"
    elif f == 2:
        line = f'password: "{pw}"'
        snip = f'spring:\n  ldap:\n    urls: ldaps://{_host(r, "ldap")}:636\n    username: "{dn}"\n    {line}\n'
        path = "application.yml"
    elif f == 3:
        line = f"'password' => '{pw}',"
        snip = f"gitlab_rails['ldap_servers'] = {{\n  'main' => {{\n    'host' => '{_host(r, 'ldap')}',\n    'bind_dn' => '{dn}',\n    {line}\n  }}\n}}"
        path = "/etc/gitlab/gitlab.rb"
    else:
        line = f"ldapsearch -H ldaps://{_host(r, 'ldap')} -D \"{dn}\" -w '{pw}' -b dc=corp,dc=example '(uid=jdoe)'"
        snip, path = line, "history.txt"
    return _it(pw, "LDAP / Active Directory", "bind password", snip, path, inline=line, var="bind password", pw=True)


def _c_ad_svc(r):
    pw = _pw(r)
    acct = r.choice(["svc_sql", "svc_backup", "svc_sccm", "svc_iis_claims", "svc_pacs"])
    f = r.randrange(4)
    if f == 0:
        line = f"$pw = ConvertTo-SecureString '{pw}' -AsPlainText -Force"
        snip = f"{line}\n$cred = New-Object System.Management.Automation.PSCredential('CORP\\{acct}', $pw)\nInvoke-Command -ComputerName {_host(r, 'app')} -Credential $cred -ScriptBlock {{ Get-Service }}"
        path = "scripts/deploy.ps1"
    elif f == 1:
        line = f"net use \\\\{_host(r, 'fs')}\\exports /user:CORP\\{acct} {pw}"
        snip, path = line, "scripts/map-share.cmd"
    elif f == 2:
        line = f'SQLSVCPASSWORD="{pw}"'
        snip = f'[OPTIONS]\nACTION="Install"\nFEATURES=SQLENGINE\nSQLSVCACCOUNT="CORP\\{acct}"\n{line}\n'
        path = "ConfigurationFile.ini"
    else:
        line = f"ktpass /princ HTTP/{_host(r, 'web')}@CORP.EXAMPLE /mapuser CORP\\{acct} /pass {pw} /out http.keytab"
        snip, path = line, "docs/kerberos.md"
    return _it(pw, "Active Directory service account", "password", snip, path, inline=line, var=acct, pw=True)


def _c_smtp(r):
    pw = _pw(r)
    user = f"{r.choice(['relay', 'noreply', 'alerts'])}@{r.choice(_ORGS)}.example"
    f = r.randrange(4)
    if f == 0:
        line = f"[smtp.{r.choice(_ORGS)}.example]:587 {user}:{pw}"
        snip, path = line + "\n", "/etc/postfix/sasl_passwd"
    elif f == 1:
        line = f'password: "{pw}"'
        snip = f"spring:\n  mail:\n    host: smtp.office365.com\n    port: 587\n    username: {user}\n    {line}\n"
        path = "application.yml"
    elif f == 2:
        line = f'EMAIL_HOST_PASSWORD = "{pw}"'
        snip = f'EMAIL_HOST = "smtp.{r.choice(_ORGS)}.example"\nEMAIL_PORT = 587\nEMAIL_HOST_USER = "{user}"\n{line}\n'
        path = "settings.py"
    else:
        line = f"password {pw}"
        snip = f"account default\nhost smtp.{r.choice(_ORGS)}.example\nport 587\ntls on\nuser {user}\n{line}\n"
        path = "/etc/msmtprc"
    return _it(pw, "SMTP relay", "password", snip, path, inline=line, var="SMTP_PASSWORD", pw=True)


def _c_sftp(r):
    pw = _pw_url(r)
    user = r.choice(["acme_drop", "nb_sepa", "claims_in", "lab_export", "edi_partner"])
    host = _host(r, "sftp")
    f = r.randrange(5)
    if f == 0:
        line = f"sshpass -p '{pw}' sftp -oBatchMode=no {user}@{host}"
        snip, path = line + " <<< 'put out/*.xml /inbound/'", "jobs/upload.sh"
    elif f == 1:
        line = f'transport.connect(username="{user}", password="{pw}")'
        snip = f'import paramiko\n\ntransport = paramiko.Transport(("{host}", 22))\n{line}\nsftp = paramiko.SFTPClient.from_transport(transport)\n'
        path = "etl/sftp_push.py"
    elif f == 2:
        line = f'open sftp://{user}:{pw}@{host}/ -hostkey="ssh-ed25519 255 {_b64(r.randbytes(32)).rstrip("=")}"'
        snip, path = line + "\nput C:\\exports\\*.csv /inbound/\nexit", "winscp/upload.txt"
    elif f == 3:
        line = pw
        obj = {"conn_id": f"sftp_{user}", "conn_type": "sftp", "host": host, "login": user, "password": pw, "port": 22}
        snip, path = json.dumps(obj, indent=2), "airflow/connections.json"
    else:
        line = f"lftp -u {user},{pw} sftp://{host}"
        snip, path = line + " -e 'mirror -R out/ /drop/; bye'", "cron/drop.sh"
    return _it(pw, f"SFTP drop ({user})", "password", snip, path, inline=line, var="SFTP_PASSWORD", pw=True)


def _c_servicenow(r):
    pw = _pw(r)
    inst = f"{r.choice(_ORGS)}.service-now.com"
    f = r.randrange(3)
    if f == 0:
        line = f'<parameter name="mid.instance.password" value="{pw}"/>'
        snip = f'<parameters>\n  <parameter name="url" value="https://{inst}/"/>\n  <parameter name="mid.instance.username" value="mid_user"/>\n  {line}\n</parameters>'
        path = "agent/config.xml"
    elif f == 1:
        snip, path = _kv(r, "SN_PASSWORD", pw, [("SN_INSTANCE", inst), ("SN_USER", "int_rest")])
        line = pw
    else:
        line = f"password='{pw}'"
        snip = f"import pysnow\n\nc = pysnow.Client(instance='{inst.split('.')[0]}', user='int_rest', {line})\n"
        path = "sync/snow.py"
    return _it(pw, "ServiceNow integration user", "password", snip, path, inline=line, var="SN_PASSWORD", pw=True)


def _c_sap(r):
    pw = _pw_gen(r, 12, 20, sym="!_")
    f = r.randrange(3)
    if f == 0:
        line = f"PASSWD={pw}"
        snip = f"DEST=PRD_RFC\nASHOST={_host(r, 'sap')}\nSYSNR=00\nCLIENT={r.choice(['100', '200', '300'])}\nUSER=RFC_BATCH\n{line}\nLANG=EN\n"
        path = "sapnwrfc.ini"
    elif f == 1:
        line = f"passwd='{pw}'"
        snip = f"from pyrfc import Connection\n\nconn = Connection(ashost='{_host(r, 'sap')}', sysnr='00', client='100', user='RFC_BATCH', {line})\n"
        path = "interfaces/sap_pull.py"
    else:
        line = f"jco.client.passwd={pw}"
        snip = f"jco.client.ashost={_host(r, 'sap')}\njco.client.sysnr=00\njco.client.client=100\njco.client.user=RFC_BATCH\n{line}\n"
        path = "PRD_RFC.jcoDestination"
    return _it(pw, "SAP RFC user", "password", snip, path, inline=line, var="PASSWD", pw=True)


def _c_snowflake(r):
    pw = _pw(r)
    acct = f"{_s(r, _LO, 7)}-{_s(r, _LO + _DG, 7)}"
    f = r.randrange(3)
    if f == 0:
        line = f'password = "{pw}"'
        snip = f'[default]\naccount = "{acct}"\nuser = "ETL_SVC"\n{line}\nwarehouse = "LOAD_WH"\nrole = "LOADER"\n'
        path = "~/.snowflake/connections.toml"
    elif f == 1:
        line = f'password: "{pw}"'
        snip = f"claims:\n  target: prod\n  outputs:\n    prod:\n      type: snowflake\n      account: {acct}\n      user: DBT_SVC\n      {line}\n      warehouse: TRANSFORM_WH\n"
        path = "~/.dbt/profiles.yml"
    else:
        line = f'password="{pw}"'
        snip = f'import snowflake.connector\n\nconn = snowflake.connector.connect(account="{acct}", user="ETL_SVC", {line})\n'
        path = "etl/load.py"
    return _it(pw, "Snowflake", "password", snip, path, inline=line, var="SNOWFLAKE_PASSWORD", pw=True)


def _c_mainframe(r):
    pw = _pw_phrase(r, sep=r.choice("._"))
    user = r.choice(["IBMUSER", "CLMBAT1", "TSOOPS", "DB2ADM"])
    f = r.randrange(3)
    if f == 0:
        obj = {
            "profiles": {
                "zosmf": {
                    "type": "zosmf",
                    "properties": {
                        "host": _host(r, "mvs"),
                        "port": 443,
                        "user": user,
                        "password": pw,
                        "rejectUnauthorized": True,
                    },
                }
            },
            "defaults": {"zosmf": "zosmf"},
        }
        snip, path, line = json.dumps(obj, indent=2), "zowe.config.json", pw
    elif f == 1:
        line = f"user {user} {pw}"
        snip = f"ftp -n {_host(r, 'mvs')} <<EOF\n{line}\nquote site filetype=jes\nput CLAIMS.JCL\nquit\nEOF"
        path = "jobs/submit.sh"
    else:
        line = f"RACF passphrase for {user}: {pw}"
        snip, path = line + "\n(3270 session via TN3270 on port 992)", "notes/mainframe.md"
    return _it(pw, "z/OS RACF", "passphrase", snip, path, inline=line, var="RACF passphrase", pw=True)


def _c_keystore(r):
    pw = _pw(r)
    f = r.randrange(5)
    if f == 0:
        line = f'key-store-password: "{pw}"'
        snip = f"server:\n  port: 8443\n  ssl:\n    key-store: classpath:keystore.p12\n    key-store-type: PKCS12\n    {line}\n"
        path = "application.yml"
    elif f == 1:
        line = f"-Djavax.net.ssl.keyStorePassword={pw}"
        snip = f'JAVA_OPTS="-Xmx2g -Djavax.net.ssl.keyStore=/opt/app/keystore.jks {line}"'
        path = "/etc/default/claims-api"
    elif f == 2:
        line = f"ssl.keystore.password={pw}"
        snip = f"security.protocol=SSL\nssl.keystore.location=/etc/kafka/client.keystore.jks\n{line}\nssl.truststore.location=/etc/kafka/truststore.jks\n"
        path = "client.properties"
    elif f == 3:
        line = f'keystorePass="{pw}"'
        snip = f'<Connector port="8443" protocol="HTTP/1.1" SSLEnabled="true"\n           keystoreFile="conf/hl7.jks" {line} />'
        path = "conf/server.xml"
    else:
        line = f"keytool -importkeystore -srckeystore old.jks -destkeystore new.p12 -deststoretype PKCS12 -deststorepass {pw}"
        snip, path = line, "docs/renew-cert.md"
    return _it(pw, "Java keystore", "keystore password", snip, path, inline=line, var="keyStorePassword", pw=True)


def _c_hsm(r):
    pin = r.choice([_s(r, _DG, r.randint(8, 12)), _pw_gen(r, 10, 16, sym="-_")])
    f = r.randrange(4)
    if f == 0:
        line = f"pkcs11:token={r.choice(['HSM-PROD', 'SIGN01', 'LunaPartition1'])};object={r.choice(['sepa-sign', 'tls-key', 'doc-sign'])}?pin-value={pin}"
        snip, path = _kv(r, "PKCS11_KEY_URI", line)
    elif f == 1:
        line = f"pkcs11-tool --module /usr/lib/softhsm/libsofthsm2.so --login --pin {pin} --list-objects"
        snip, path = line, "runbooks/hsm.sh"
    elif f == 2:
        line = f"PIN = {pin}"
        snip = (
            "[pkcs11_section]\nengine_id = pkcs11\nMODULE_PATH = /opt/safenet/"
            + f"lunaclient/lib/libCryptoki2_64.so\n{line}\ninit = 0\n"
        )
        path = "/etc/ssl/openssl-hsm.cnf"
    else:
        line = f"loginHSM CU crypto_user {pin}"
        snip, path = (
            f"/opt/cloudhsm/bin/key_mgmt_util\nCommand: {line}\nCommand: findKey -l sepa-sign",
            "notes/cloudhsm.txt",
        )
    return _it(pin, "HSM / PKCS#11", "user PIN", snip, path, inline=line, var="pin", pw=True)


def _c_mqtt(r):
    pw = _pw_gen(r, 12, 24, sym="-_.")
    f = r.randrange(4)
    if f == 0:
        line = f"remote_password {pw}"
        snip = f"connection cloud-bridge\naddress {_host(r, 'mqtt')}:8883\nremote_username gw-{r.randint(100, 999)}\n{line}\ntopic telemetry/# out 1\n"
        path = "/etc/mosquitto/conf.d/bridge.conf"
    elif f == 1:
        line = f'client.username_pw_set("meter-{r.randint(1000, 9999)}", "{pw}")'
        snip = f'import paho.mqtt.client as mqtt\n\nclient = mqtt.Client()\n{line}\nclient.connect("{_host(r, "mqtt")}", 8883)\n'
        path = "edge/publisher.py"
    elif f == 2:
        line = f'password = "{pw}"'
        snip = f'[[inputs.mqtt_consumer]]\n  servers = ["ssl://{_host(r, "mqtt")}:8883"]\n  topics = ["plant/+/sensors"]\n  username = "telegraf"\n  {line}\n'
        path = "/etc/telegraf/telegraf.conf"
    else:
        line = f'#define MQTT_PASS "{pw}"'
        snip = f'#define MQTT_HOST "{_host(r, "mqtt")}"\n#define MQTT_USER "sensor-{r.randint(1, 500)}"\n{line}\n'
        path = "firmware/src/config.h"
    return _it(pw, "MQTT broker", "password", snip, path, inline=line, var="MQTT_PASSWORD", pw=True)


def _c_plc(r):
    pw = _pw_dev(r)
    f = r.randrange(3)
    if f == 0:
        line = f'password: "{pw}"'
        snip = (
            f"opcua:\n  endpoint: opc.tcp://{_ip(r)}:4840\n  security_policy: Basic256Sha256\n"
            f"  security_mode: SignAndEncrypt\n  username: edge-collector\n  {line}\n"
        )
        path = "edge/opcua.yaml"
    elif f == 1:
        line = f"admin_password={pw}"
        snip = f"[gateway]\nmodel=modbus-tcp\nlisten={_ip(r)}:502\nweb_ui=https://{_ip(r)}\nadmin_user=admin\n{line}\n"
        path = "gateway.ini"
    else:
        line = f"SCADA-Gateway Halle {r.randint(1, 9)}: Admin-Passwort {pw}"
        snip, path = line + " (nur vor Ort verwenden)", "notes/ot.md"
    return _it(pw, "PLC/SCADA gateway", "admin password", snip, path, inline=line, var="gateway password", pw=True)


def _c_ansible_become(r):
    pw = _pw(r)
    host = _host(r, "app")
    f = r.randrange(3)
    if f == 0:
        line = f"ansible_become_pass={pw}"
        snip = f"[app]\n{host} ansible_host={_ip(r)} ansible_user=deploy {line}\n"
        path = "inventory/prod.ini"
    elif f == 1:
        line = f'ansible_become_password: "{pw}"'
        snip = f"ansible_host: {_ip(r)}\nansible_user: deploy\n{line}\n"
        path = f"host_vars/{host}.yml"
    else:
        line = f"ansible-playbook -i inventory/prod site.yml -e ansible_become_password={pw}"
        snip, path = line, "history.txt"
    return _it(pw, "Ansible become (sudo)", "password", snip, path, inline=line, var="ansible_become_password", pw=True)


# ---- framework secrets ----


def _c_django(r):
    k = _s(r, _LO + _DG + "!@#%^&*(-_=+)", 50)
    k = r.choice(_LO) + k[1:-1] + r.choice(_LO + _DG)
    if r.random() < 0.5:
        snip = f"DEBUG = False\nALLOWED_HOSTS = [\"{_host(r, 'portal')}\"]\nSECRET_KEY = '{k}'\n"
        path = "portal/settings/production.py"
    else:
        snip, path = _kv(r, "DJANGO_SECRET_KEY", k)
    return _it(k, "Django", "SECRET_KEY", snip, path, var="SECRET_KEY")


def _c_rails(r):
    k = _hex(r, 128)
    if r.random() < 0.5:
        snip = f"$ bin/rails credentials:show\nsecret_key_base: {k}\nactive_record_encryption:\n  key_derivation_salt: see-vault\n"
        path = "config/credentials.yml"
    else:
        snip, path = _kv(r, "SECRET_KEY_BASE", k)
    return _it(k, "Rails", "secret_key_base", snip, path, var="SECRET_KEY_BASE")


_WP_ALPHA = _AN + "!@#$%^&*()-_[]{}<>~+=,.;:/?"


def _c_wordpress(r):
    k = r.choice(_AN) + _s(r, _WP_ALPHA, 62) + r.choice(_AN)
    name = r.choice(["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY", "AUTH_SALT"])
    others = [n for n in ["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY"] if n != name][:2]
    lines = [f"define( '{name}', '{k}' );"] + [f"define( '{o}', getenv( 'WP_{o}' ) );" for o in others]
    r.shuffle(lines)
    snip = "<?php\n/* Authentication unique keys and salts. */\n" + "\n".join(lines) + "\n$table_prefix = 'wp_';\n"
    return _it(k, "WordPress", f"{name} salt", snip, "wp-config.php", var=name)


def _c_laravel(r):
    k = _b64(r.randbytes(32))
    snip = f"APP_NAME={r.choice(['Portal', 'Claims', 'Citizen'])}\nAPP_ENV=production\nAPP_KEY=base64:{k}\nAPP_DEBUG=false\nAPP_URL=https://{_host(r, 'portal')}\n"
    return _it(k, "Laravel", "APP_KEY", snip, ".env", inline=f"APP_KEY=base64:{k}", var="APP_KEY")


def _c_k8s_data(r):
    pw = _pw(r)
    b = _b64(pw.encode())
    user = r.choice(_USERS)
    snip = (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {_app(r)}-db\n  namespace: {r.choice(_ENVS)}\n"
        f"type: Opaque\ndata:\n  username: {_b64(user.encode())}\n  password: {b}\n"
    )
    return _it(
        b, "Kubernetes Secret", "base64 password", snip, "k8s/db-secret.yaml", inline=f"password: {b}", var="password"
    )


def _c_docker_auth(r):
    pw = _pw(r)
    user = r.choice(["ci-bot", "robot$deployer", "svc-pull", "release"])
    a = _b64(f"{user}:{pw}".encode())
    reg = r.choice(["harbor.northbank.example", "registry.medilink.example", "index.docker.io/v1/", "ghcr.io"])
    snip = json.dumps({"auths": {reg: {"auth": a}}, "credsStore": ""}, indent=r.choice([2, 8]))
    return _it(a, "container registry", "registry auth", snip, "~/.docker/config.json", var="auth")


def _c_pgpass(r):
    pw = _pw_gen(r, sym="-_.!*")
    line = f"{_host(r, 'pg')}:5432:{r.choice(['claims', 'ledger', '*'])}:{r.choice(_USERS)}:{pw}"
    snip = "# hostname:port:database:username:password\n" + line + "\n"
    return _it(pw, ".pgpass", "password", snip, "~/.pgpass", inline=line, var="pgpass", pw=True)


def _c_netrc(r):
    pw = _pw_gen(r, sym="-_.!*")
    host = r.choice([_host(r, "git"), f"nexus.{r.choice(_ORGS)}.example", f"ftp.{r.choice(_ORGS)}.example"])
    user = r.choice(["ci-bot", "mirror", "reader"])
    if r.random() < 0.5:
        line = f"machine {host} login {user} password {pw}"
        snip = line + "\n"
    else:
        line = f"password {pw}"
        snip = f"machine {host}\n  login {user}\n  {line}\n"
    return _it(pw, ".netrc", "password", snip, "~/.netrc", inline=line, var="netrc", pw=True)


# ---- tokens tied to humans ----


def _c_totp(r):
    seed = _s(r, _B32, r.choice([16, 32]))
    issuer = r.choice(["NorthBank-VPN", "EHR-Admin", "AWS-root", "ServiceNow", "Okta"])
    acct = r.choice(["breakglass", "ops-shared", "root", "admin"])
    f = r.randrange(3)
    if f == 0:
        uri = f"otpauth://totp/{issuer}:{acct}?secret={seed}&issuer={issuer}&algorithm=SHA1&digits=6&period=30"
        snip, path, inline = uri, "notes/2fa.txt", uri
    elif f == 1:
        obj = {"type": "totp", "issuer": issuer, "account": acct, "secret": seed, "digits": 6, "period": 30}
        snip, path, inline = json.dumps(obj, indent=2), "export/2fa.json", seed
    else:
        inline = seed
        snip, path = f"TOTP seed for {issuer} ({acct}): {seed}", "notes/breakglass.md"
    return _it(seed, f"{issuer} MFA", "TOTP seed", snip, path, inline=inline, var="totp secret")


def _c_recovery(r):
    code = r.choice(
        [
            f"{_hex(r, 5)}-{_hex(r, 5)}",
            "-".join(_s(r, _UP + _DG, 4) for _ in range(4)),
            f"{_s(r, _LO + _DG, 4)}-{_s(r, _LO + _DG, 4)}-{_s(r, _LO + _DG, 4)}",
        ]
    )
    svc = r.choice(["GitHub org owner", "Okta super admin", "AWS root", "Azure global admin", "Google Workspace admin"])
    f = r.randrange(3)
    if f == 0:
        snip = f"{svc} — unused recovery code (1 of 10): {code}"
        path = "notes/breakglass.md"
    elif f == 1:
        snip = json.dumps({"account": svc, "recovery_code": code, "used": False}, indent=2)
        path = "vault-export/recovery.json"
    else:
        snip = f"Recovery code: {code}\nKeep offline; use only if the hardware key is lost."
        path = "envelope.txt"
    return _it(code, svc, "recovery code", snip, path, var="recovery code")


def _c_cookie(r):
    f = r.randrange(6)
    if f == 0:
        name, val = "sessionid", _s(r, _LO + _DG, 32)
    elif f == 1:
        name, val = "JSESSIONID", _s(r, "0123456789ABCDEF", 32)
    elif f == 2:
        name, val = "connect.sid", "s%3A" + _s(r, _U64, 32) + "." + _s(r, _AN, 43)
    elif f == 3:
        name, val = (
            f"_{r.choice(['portal', 'claims', 'ledger'])}_session",
            _b64(r.randbytes(90)).replace("=", "%3D") + "--" + _hex(r, 40),
        )
    elif f == 4:
        name, val = "PHPSESSID", _s(r, _LO + _DG, 26)
    else:
        name, val = ".AspNetCore.Cookies", "CfDJ8" + _s(r, _U64, r.randint(250, 400))
    host = _host(r, r.choice(["portal", "admin", "snow", "ehr"]))
    g = r.randrange(3)
    if g == 0:
        snip = f"curl -s -b '{name}={val}' https://{host}/api/v1/admin/users"
        path = "scratch/replay.sh"
    elif g == 1:
        snip = f"GET /admin/dashboard HTTP/1.1\nHost: {host}\nCookie: {name}={val}\nUser-Agent: Mozilla/5.0\n"
        path = "captures/admin.http"
    else:
        obj = {
            "request": {
                "method": "GET",
                "url": f"https://{host}/admin",
                "cookies": [{"name": name, "value": val, "httpOnly": True}],
            }
        }
        snip, path = json.dumps(obj, indent=2), "captures/session.har"
    return _it(val, f"web session ({host})", "session cookie", snip, path, inline=f"{name}={val}", var=name)


_CUSTOM = {
    "aws_secret_access_key": _c_aws_secret,
    "azure_storage_account_key": _c_azure_storage,
    "azure_sas_signature": _c_azure_sas,
    "aws_presigned_url_signature": _c_aws_presigned,
    "gcs_signed_url_signature": _c_gcs_signed,
    "gcp_service_account_key": _c_gcp_sa,
    "slack_webhook_token": _c_slack_webhook,
    "discord_webhook_token": _c_discord_webhook,
    "postgres_uri_password": _c_pg,
    "mongodb_uri_password": _c_mongo,
    "mysql_password": _c_mysql,
    "redis_password": _c_redis,
    "mssql_connection_password": _c_mssql,
    "oracle_password": _c_oracle,
    "db2_password": _c_db2,
    "basic_auth_url_password": _c_basic_url,
    "cisco_enable_password": _c_cisco_enable,
    "network_device_password": _c_net_admin,
    "snmp_rw_community": _c_snmp_rw,
    "snmpv3_auth_passphrase": _c_snmpv3,
    "radius_shared_secret": _c_radius,
    "tacacs_key": _c_tacacs,
    "wifi_psk": _c_wifi,
    "ipsec_psk": _c_ipsec,
    "routing_protocol_key": _c_routing,
    "wireguard_private_key": _c_wireguard,
    "openvpn_static_key": _c_ovpn_static,
    "tls_private_key": _c_tls_key,
    "openssh_private_key": _c_openssh,
    "putty_private_key": _c_putty,
    "pgp_private_key": _c_pgp,
    "age_secret_key": _c_age,
    "db_password": _c_db_password,
    "ldap_bind_password": _c_ldap,
    "ad_service_account_password": _c_ad_svc,
    "smtp_password": _c_smtp,
    "sftp_password": _c_sftp,
    "servicenow_password": _c_servicenow,
    "sap_rfc_password": _c_sap,
    "snowflake_password": _c_snowflake,
    "mainframe_password": _c_mainframe,
    "keystore_password": _c_keystore,
    "hsm_pin": _c_hsm,
    "mqtt_password": _c_mqtt,
    "plc_gateway_password": _c_plc,
    "ansible_become_password": _c_ansible_become,
    "django_secret_key": _c_django,
    "rails_secret_key_base": _c_rails,
    "wordpress_auth_key": _c_wordpress,
    "laravel_app_key": _c_laravel,
    "k8s_secret_data": _c_k8s_data,
    "docker_config_auth": _c_docker_auth,
    "pgpass_password": _c_pgpass,
    "netrc_password": _c_netrc,
    "totp_seed": _c_totp,
    "recovery_code": _c_recovery,
    "session_cookie": _c_cookie,
}

_KINDS = {t["kind"]: _mk_token(t) for t in _TOKENS}
_KINDS.update(_CUSTOM)


# ==========================================================================
# wrappers: agent tool traffic
# ==========================================================================


def _secret_line(it):
    sec = it["secret"]
    if "\n" in sec:
        return None
    for line in it["snippet"].split("\n"):
        if sec in line:
            return line
    return None


def _placeholder(r, it):
    v = it["var"].replace(" ", "_").replace(".", "_").upper()
    return r.choice([f"${{{v}}}", "{{ vault_" + v.lower() + " }}", "REPLACE_ME", "<set-in-vault>", "changeme"])


def _w_write(r, it):
    tool = r.choice(["write_file", "fs.write_file", "filesystem__write_file", "create_file", "str_replace_editor"])
    if tool == "str_replace_editor":
        args = {"command": "create", "path": it["path"], "file_text": it["snippet"]}
    else:
        args = {"path": it["path"], "content": it["snippet"]}
    if r.random() < 0.5:
        obj = {"tool": tool, "arguments": args}
    else:
        obj = {
            "jsonrpc": "2.0",
            "id": r.randint(1, 999),
            "method": "tools/call",
            "params": {"name": tool, "arguments": args},
        }
    return _js(r, obj)


def _w_result(r, it):
    p = it["path"]
    cmd = r.choice(
        [f"cat {p}", f"sed -n 1,120p {p}", f"ssh {_host(r)} sudo cat {p}", f"kubectl exec deploy/{_app(r)} -- cat {p}"]
    )
    txt = f"$ {cmd}\n{it['snippet']}"
    k = r.randrange(3)
    if k == 0:
        obj = {"content": [{"type": "text", "text": txt}], "isError": False}
    elif k == 1:
        obj = {"type": "tool_result", "tool_use_id": "toolu_" + _s(r, _AN, 20), "content": txt}
    else:
        obj = {"jsonrpc": "2.0", "id": r.randint(1, 999), "result": {"content": [{"type": "text", "text": txt}]}}
    return _js(r, obj)


def _w_call(r, it):
    if it["http"] and r.random() < 0.7:
        url, hdr, fmt = it["http"]
        val = fmt.format(it["secret"])
        if r.random() < 0.5:
            obj = {
                "tool": r.choice(["http_request", "fetch", "http.get", "web.request"]),
                "arguments": {
                    "method": r.choice(["GET", "POST"]),
                    "url": url,
                    "headers": {hdr: val, "Accept": "application/json"},
                },
            }
            return _js(r, obj)
        cmd = f"curl -sS -H '{hdr}: {val}' '{url}' | jq ."
        return _js(
            r, {"tool": r.choice(["bash", "shell.exec", "run_command"]), "arguments": {"command": cmd, "timeout": 60}}
        )
    inl = it["value"]
    if "\n" in inl or "'" in inl:
        return None
    v = it["var"].replace(" ", "_").replace(".", "_").replace("-", "_").upper()
    cmd = f"{v}='{inl}' ./bin/{r.choice(['smoke-test', 'migrate', 'sync', 'healthcheck'])}.sh --env {r.choice(_ENVS)}"
    return _js(r, {"tool": r.choice(["bash", "shell.exec", "terminal"]), "arguments": {"command": cmd}})


_ASKS = [
    "Why is the {app} deploy failing in {env}? Check the config.",
    "Can you look at {path} and tell me what's wrong?",
    "Summarise the settings the {app} service uses.",
    "Bitte prüf mal die Konfiguration von {app}.",
    "Peux-tu vérifier {path} avant la mise en prod ?",
    "{app} のデプロイが失敗しています。設定を確認してください。",
]
_SUMS = [
    "The file looks syntactically fine; the failure is a DNS timeout, not the config.",
    "I found a hard-coded credential in this file. I recommend moving it to the secret store and rotating it.",
    "Config parsed. The service points at the {env} endpoints.",
    "Note: this file contains a live credential; I will not repeat it in the summary.",
]


def _w_transcript(r, it):
    app, env = _app(r), r.choice(_ENVS)
    cid = "call_" + _s(r, _AN, 12)
    msgs = [
        {"role": "user", "content": r.choice(_ASKS).format(app=app, env=env, path=it["path"])},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": cid,
                    "type": "function",
                    "function": {"name": "read_file", "arguments": json.dumps({"path": it["path"]})},
                }
            ],
        },
        {"role": "tool", "tool_call_id": cid, "content": it["snippet"]},
        {"role": "assistant", "content": r.choice(_SUMS).format(env=env)},
    ]
    return "\n".join(json.dumps(m, ensure_ascii=False) for m in msgs)


def _w_table(r, it):
    inl = it["value"] if r.random() < 0.7 else it["inline"]
    if inl is None or "\n" in inl or "|" in inl:
        return None
    rows = []
    for _ in range(r.randint(1, 4)):
        v = r.choice(["SMTP_PASSWORD", "DB_PASSWORD", "API_TOKEN", "SFTP_KEY", "HSM_PIN", "LDAP_BIND_PW"])
        rows.append(
            f"| {r.choice(['SMTP relay', 'Claims DB', 'FHIR API', 'SEPA SFTP', 'HSM', 'LDAP'])} | {r.choice(_ENVS)} | `{v}` | "
            f"{r.choice(['in Vault', '`${' + v + '}`', '_rotated_', 'see 1Password', '(pending)'])} | {r.choice(_PEOPLE)} |"
        )
    mine = f"| {it['system']} | {r.choice(_ENVS)} | `{it['var']}` | `{inl}` | {r.choice(_PEOPLE)} |"
    rows.insert(r.randint(0, len(rows)), mine)
    head = r.choice(
        ["### Integration inventory", "## Credentials handover", "### Access matrix", "#### Settings migrated"]
    )
    return (
        f"{head} ({r.choice(_TEAMS)})\n\n| System | Env | Key | Value | Owner |\n|---|---|---|---|---|\n"
        + "\n".join(rows)
    )


def _w_diff(r, it):
    line = _secret_line(it)
    if line is None:
        return None
    lines = it["snippet"].split("\n")
    i = lines.index(line)
    old = line.replace(it["secret"], _placeholder(r, it))
    a, b = max(0, i - r.randint(1, 3)), min(len(lines), i + r.randint(2, 4))
    body = []
    for j in range(a, b):
        if j == i:
            body += [f"-{old}", f"+{line}"] if r.random() < 0.6 else [f"-{line}", f"+{old}"]
        else:
            body.append(" " + lines[j])
    n = b - a
    p = it["path"].lstrip("/~")
    head = f"diff --git a/{p} b/{p}\nindex {_hex(r, 7)}..{_hex(r, 7)} 100644\n--- a/{p}\n+++ b/{p}\n"
    return head + f"@@ -{a + 1},{n} +{a + 1},{n} @@\n" + "\n".join(body)


_REVIEW = [
    "This is a live credential committed in plain text. Please move it to Vault and rotate it.",
    "Blocking: secrets must come from the secret store, not the repo (policy SEC-07).",
    "Can we reference the env var here instead? Leaving the value in the diff means it is in git history now.",
    "nit: and also this value should not be here at all — please rotate after merge.",
    "Bitte nicht im Klartext einchecken, das muss in den Tresor.",
    "Merci de retirer cette valeur et de passer par le coffre-fort.",
]


def _w_review(r, it):
    who = r.choice(_PEOPLE)
    line = _secret_line(it)
    head = f"**{who}** commented on `{it['path']}` line {r.randint(3, 140)}:\n\n"
    if line is not None:
        quoted = f"> {line}\n\n" if r.random() < 0.5 else f"```\n{line}\n```\n\n"
        tail = r.choice(_REVIEW)
        if r.random() < 0.5:
            tail += f"\n\n```suggestion\n{line.replace(it['secret'], _placeholder(r, it))}\n```"
        return head + quoted + tail
    return head + f"```\n{it['snippet']}\n```\n\n" + r.choice(_REVIEW)


def _w_commit(r, it):
    inl = it["inline"]
    scope = r.choice(["deploy", "infra", "config", _app(r), "ci", "network"])
    subj = r.choice(
        [
            f"chore({scope}): wire {it['system']} credentials for {r.choice(_ENVS)}",
            f"fix({scope}): unblock {r.choice(_ENVS)} deploy",
            f"feat({scope}): add {it['system']} integration",
            f"hotfix: restore {it['system']} access after rotation",
        ]
    )
    who = r.choice(_PEOPLE)
    if inl is not None:
        body = r.choice(
            [
                f"Temporarily hardcode {it['var']}={it['value']} until {_ticket(r)} lands.",
                f"The {it['noun']} was rotated by {who}; new value: {inl}",
                f"{inl} is the {it['noun']} for the {r.choice(_ENVS)} tenant (from {who}).",
            ]
        )
        if r.random() < 0.5:
            sha = _hex(r, 40)
            return f"commit {sha}\nAuthor: {who} <{_email(r)}>\nDate:   {_date(r)}\n\n    {subj}\n\n    {body}\n\n    Refs: {_ticket(r)}"
    else:
        body = f"Add the {it['noun']} used by the {it['system']} job:\n\n{it['snippet']}"
    return f"{subj}\n\n{body}\n\nRefs: {_ticket(r)}\nSigned-off-by: {who} <{_email(r)}>"


def _w_pr(r, it):
    lang = it["path"].rsplit(".", 1)[-1] if "." in it["path"][-6:] else ""
    return (
        f"## Summary\n{r.choice(['Adds', 'Updates', 'Fixes'])} the {it['system']} settings for `{_app(r)}` ({r.choice(_DOMAINS)}).\n\n"
        f"## Changes\n- `{it['path']}`\n- {r.choice(['bump chart version', 'add readiness probe', 'tighten timeouts'])}\n\n"
        f"## Config\n```{lang}\n{it['snippet']}\n```\n\n## Testing\n- [x] {r.choice(_ENVS)} smoke test\n- [ ] rollback rehearsal\n\nCloses {_ticket(r)}"
    )


def _prose_en(r, it):
    val = it["inline"] if it["inline"] is not None else "\n" + it["secret"] + "\n"
    t = r.choice(
        [
            "Remember: the {system} {noun} for {env} is {val}. Ask {who} before rotating.",
            "{who} shared the {noun} for {system} ({team}): {val}",
            "Decision {date}: keep {var} = {value} until the vault migration ({ticket}) is done.",
            "Found in {path}: {val} ({system} {noun}). Flagged to security.",
            "Stored for later use by the {team} agent — {system} {noun}: {val}",
        ]
    )
    return t.format(
        system=it["system"],
        noun=it["noun"],
        env=r.choice(_ENVS),
        val=val,
        who=r.choice(_PEOPLE),
        team=r.choice(_TEAMS),
        date=_date(r),
        var=it["var"],
        ticket=_ticket(r),
        path=it["path"],
        value=it["value"] if "\n" not in it["value"] else val,
    )


def _w_memory(r, it):
    obj = {
        "id": _uuid(r),
        "type": r.choice(["fact", "episodic", "procedural", "decision"]),
        "created_at": _ts(r),
        "agent": f"{r.choice(_TEAMS)}-assistant",
        "text": _prose_en(r, it),
        "tags": r.sample(["credentials", "handover", "infra", r.choice(_DOMAINS), "todo-rotate", "config"], 3),
        "source": {"tool": r.choice(["read_file", "shell", "slack.search", "jira.get_issue"]), "ref": it["path"]},
    }
    return _js(r, obj)


# ==========================================================================
# wrappers: notes in several languages
# ==========================================================================

_PWN = {
    "en": "password",
    "de": "Passwort",
    "fr": "mot de passe",
    "es": "contraseña",
    "it": "password",
    "nl": "wachtwoord",
    "sv": "lösenord",
    "pl": "hasło",
    "pt": "senha",
    "ja": "パスワード",
    "ar": "كلمة المرور",
    "ar_rom": "kalimat al-murur",
}

_NOTES = {
    "en": [
        "Handover {date} ({team}): {system} {noun} for {env} is {val} — rotate after the change freeze. Ping {who} if it stops working.",
        "{val} is the current {system} {noun} ({env}); {who} set it during {ticket}. Move it into the vault before go-live.",
        "Shift notes {date}\n- {host}: patched, rebooted\n- {system}: {noun} = {val}\n- open: {ticket}",
        "Incident {ticket} ({date}) — {system} outage\nTimeline:\n  09:12 alerts fired on {host}\n  09:30 {who} found the {noun} had expired and set a new one: {val}\n  09:41 traffic recovered\nAction items: move {var} into the secret store.",
        "{ticket} · {system} access for {team}\nComment by {who}: integration created. {noun}: {val}\nPlease close once verified.",
        "[{domain}] {who}: hey, {system} {env} {noun} is {val} (don't share outside the team)",
    ],
    "de": [
        "Übergabe {date} ({team}): {noun} für {system} ({env}): {val}. Bitte nach dem Change-Freeze rotieren, Rückfragen an {who}.",
        "Störung {ticket} am {date}: {system} war nicht erreichbar. {who} hat neu gesetzt → {noun}: {val}. Eintrag im Tresor folgt.",
        "{ticket}: Zugang {system} für {team} eingerichtet.\n{noun}: {val}\nBitte nach Test schließen.",
        "{who}: {val} ist das neue {noun} für {system}, gilt ab heute ({env}).",
    ],
    "fr": [
        "Passation du {date} ({team}) : {noun} {system} ({env}) = {val}. À faire tourner après le gel des changements ; contact : {who}.",
        "Incident {ticket} du {date} : {system} indisponible. {who} a régénéré le secret ({noun}) : {val} — à déplacer dans le coffre.",
        "{ticket} – accès {system} pour {team}.\n{noun} : {val}\nMerci de clôturer après vérification.",
        "{who} : le {noun} de {system} en {env}, c'est {val}",
    ],
    "es": [
        "Traspaso {date} ({team}): {noun} de {system} ({env}): {val}. Rotar después del congelamiento; dudas a {who}.",
        "Incidente {ticket} ({date}): {system} caído. {who} generó un nuevo secreto ({noun}): {val}",
        "{ticket} · acceso a {system} para {team}\n{noun}: {val}",
        "{who}: {val} es la {noun} de {system} en {env}, no la compartas.",
    ],
    "it": [
        "Passaggio di consegne {date} ({team}): {noun} {system} ({env}) → {val}. Da ruotare dopo il freeze; referente {who}.",
        "Incidente {ticket} del {date}: {system} non raggiungibile. {who} ha impostato un nuovo segreto ({noun}): {val}",
        "{ticket} – accesso {system} per {team}\n{noun}: {val}",
        "{who}: la {noun} di {system} ({env}) è {val}",
    ],
    "nl": [
        "Overdracht {date} ({team}): {noun} voor {system} ({env}) is {val}. Na de change freeze roteren, vragen naar {who}.",
        "Storing {ticket} op {date}: {system} onbereikbaar. {who} heeft een nieuw geheim ingesteld ({noun}): {val}",
        "{ticket} – toegang {system} voor {team}\n{noun}: {val}",
        "{who}: {val} is het {noun} voor {system} ({env}).",
    ],
    "sv": [
        "Överlämning {date} ({team}): {noun} för {system} ({env}) är {val}. Rotera efter frysperioden, frågor till {who}.",
        "Incident {ticket} {date}: {system} låg nere. {who} satte en ny hemlighet ({noun}): {val}",
        "{ticket} – åtkomst till {system} för {team}\n{noun}: {val}",
        "{who}: {noun} till {system} i {env} är {val}",
    ],
    "pl": [
        "Przekazanie zmiany {date} ({team}): {noun} do {system} ({env}): {val}. Zmienić po zamrożeniu zmian, pytania do {who}.",
        "Incydent {ticket} z {date}: {system} niedostępny. {who} ustawił nowy sekret ({noun}): {val}",
        "{ticket} – dostęp do {system} dla {team}\n{noun}: {val}",
        "{who}: {noun} do {system} ({env}) to {val}",
    ],
    "pt": [
        "Passagem de turno {date} ({team}): {noun} do {system} ({env}) é {val}. Trocar depois do freeze; dúvidas com {who}.",
        "Incidente {ticket} em {date}: {system} fora do ar. {who} gerou um novo segredo ({noun}): {val}",
        "{ticket} – acesso ao {system} para {team}\n{noun}: {val}",
        "{who}: a {noun} do {system} em {env} é {val}, não compartilhe.",
    ],
    "ja": [
        "引き継ぎ {date}（{team}）：{system}（{env}）の{noun}は {val} です。変更凍結明けにローテーションしてください。担当：{who}",
        "障害 {ticket}（{date}）：{system} が停止。{who} が新しい{noun}を設定しました： {val}",
        "{ticket}：{team} 向けに {system} のアクセスを作成。{noun}： {val}",
        "{who}：{system} の{noun}は {val} です（{env}）",
    ],
    "ar": [
        "تسليم المناوبة {date} ({team}): {noun} الخاصة بـ {system} ({env}) هي {val} — يرجى تغييرها بعد فترة التجميد. للاستفسار: {who}",
        "حادثة {ticket} بتاريخ {date}: توقف {system}. قام {who} بتعيين قيمة جديدة ({noun}): {val}",
        "{ticket}: تم إنشاء وصول {system} لفريق {team}. {noun}: {val}",
    ],
    "ar_rom": [
        "Taslim al-munawaba {date} ({team}): {noun} li-{system} ({env}) hiya {val}. Yurja taghyiruha ba'd fatrat al-tajmid, lil-istifsar: {who}.",
        "Haditha {ticket} ({date}): {system} mutawaqqif. {who} wada'a qima jadida ({noun}): {val}",
    ],
}


def _w_note(r, it):
    lang = r.choice(list(_NOTES))
    if lang != "en" and r.random() < 0.3:
        lang = "en"
    tpl = r.choice(_NOTES[lang])
    noun = _PWN[lang] if it["pw"] and it["value"] == it["secret"] else it["noun"]
    if it["inline"] is not None and r.random() < 0.75:
        val = r.choice([it["inline"], it["value"]])
    else:
        val = f"\n\n```\n{it['snippet']}\n```\n"
    return tpl.format(
        date=_date(r),
        team=r.choice(_TEAMS),
        system=it["system"],
        noun=noun,
        env=r.choice(_ENVS),
        val=val,
        who=r.choice(_PEOPLE),
        ticket=_ticket(r),
        host=_host(r),
        var=it["var"],
        domain=r.choice(_DOMAINS),
    )


def _w_runbook(r, it):
    dom = r.choice(_DOMAINS)
    steps = [
        f"1. Connect to the jump host `{_host(r, 'jump')}`.",
        f"2. Apply the config below to `{it['path']}`:",
        f"\n```\n{it['snippet']}\n```\n",
        f"3. Restart `{_app(r)}` and watch the logs for {r.randint(5, 15)} minutes.",
    ]
    return f"# Runbook: {it['system']} ({dom})\n\nOwner: {r.choice(_TEAMS)} · last reviewed {_date(r)}\n\n" + "\n".join(
        steps
    )


def _w_file(r, it):
    s, p = it["snippet"], it["path"]
    k = r.randrange(5)
    if k == 0:
        return s
    if k == 1:
        return f"# {p}\n{s}"
    if k == 2:
        return f"==> {p} <==\n{s}"
    if k == 3:
        return f"cat > {p} <<'EOF'\n{s}\nEOF"
    return f"--- {p} ({r.choice(_ENVS)}, {_date(r)}) ---\n{s}"


_AGENT_W = [_w_write, _w_result, _w_call, _w_transcript, _w_table, _w_diff, _w_review, _w_commit, _w_pr, _w_memory]
_NOTE_W = [_w_note, _w_note, _w_note, _w_runbook]
_CONF_W = [_w_file]


def _wrap(r, it):
    for _ in range(30):
        x = r.random()
        fam = _AGENT_W if x < 0.4 else (_NOTE_W if x < 0.7 else _CONF_W)
        t = r.choice(fam)(r, it)
        if t is not None:
            return t
    return _w_file(r, it)


def _label(text, secret):
    once = _esc(secret)
    for cand in (secret, once, _esc(once)):
        if cand in text:
            return cand
    return None


# ==========================================================================
# lookalikes
# ==========================================================================


def _lw(r, body, path=None):
    path = path or r.choice(
        ["notes/scratch.md", "config/app.yaml", ".env.example", "README.md", "docs/ops.md", "tmp/out.txt"]
    )
    k = r.randrange(9)
    if k == 0:
        return body
    if k == 1:
        return f"# {path}\n{body}"
    if k == 2:
        return _js(r, {"content": [{"type": "text", "text": f"$ cat {path}\n{body}"}], "isError": False})
    if k == 3:
        return _js(r, {"tool": r.choice(["write_file", "fs.write_file"]), "arguments": {"path": path, "content": body}})
    if k == 4:
        return f"Notes {_date(r)} ({r.choice(_TEAMS)}):\n\n```\n{body}\n```\n"
    if k == 5:
        lines = body.split("\n")
        p = path.lstrip("/~")
        return f"--- a/{p}\n+++ b/{p}\n@@ -0,0 +1,{len(lines)} @@\n" + "\n".join("+" + x for x in lines)
    if k == 6:
        return _js(
            r,
            {
                "id": _uuid(r),
                "type": "fact",
                "created_at": _ts(r),
                "text": body,
                "tags": ["config", r.choice(_DOMAINS)],
            },
        )
    if k == 7:
        return f"## {r.choice(['Context', 'Details', 'Observed'])} ({_ticket(r)})\n\n```\n{body}\n```"
    return _js(r, {"role": "tool", "name": r.choice(["shell", "read_file"]), "content": body})


def _var(r):
    return r.choice(
        [
            "DB_PASSWORD",
            "STRIPE_SECRET_KEY",
            "GITHUB_TOKEN",
            "SFTP_PASSWORD",
            "LDAP_BIND_PASSWORD",
            "OPENAI_API_KEY",
            "SLACK_BOT_TOKEN",
            "HSM_PIN",
            "RADIUS_SECRET",
            "KEYSTORE_PASSWORD",
            "AZURE_CLIENT_SECRET",
            "SMTP_PASSWORD",
            "SN_PASSWORD",
            "FHIR_CLIENT_SECRET",
        ]
    )


# ---- placeholders ----


def _l_env_placeholders(r):
    vs = r.sample(
        ["DB_PASSWORD", "API_KEY", "SFTP_PASSWORD", "JWT_SECRET", "SMTP_PASSWORD", "HSM_PIN", "VAULT_TOKEN"], 4
    )
    ph = ["<your-api-key>", "", "changeme", "<fill-me-in>", "YOUR_VALUE_HERE", "xxxxxxxx", "TODO"]
    body = "\n".join(f"{v}={r.choice(ph)}" for v in vs)
    return _lw(
        r, f"# copy to .env and fill in ({_app(r)})\n{body}\nLOG_LEVEL={r.choice(['info', 'debug'])}", ".env.example"
    )


def _l_yaml_changeme(r):
    return _lw(
        r,
        f"spring:\n  datasource:\n    url: jdbc:postgresql://{_host(r, 'db')}:5432/{r.choice(['claims', 'ledger'])}\n"
        f"    username: {r.choice(_USERS)}\n    password: changeme  # overridden from Vault at runtime\n",
        "application-local.yml",
    )


def _l_json_your_key(r):
    obj = {
        "provider": r.choice(["openai", "anthropic", "stripe", "sendgrid"]),
        "api_key": r.choice(["YOUR_API_KEY_HERE", "<API_KEY>", "s" + "k-...", "REPLACE_WITH_KEY"]),
        "timeout": r.randint(5, 60),
    }
    return _lw(r, json.dumps(obj, indent=2), "config.sample.json")


def _l_prefix_xs(r):
    pre = r.choice(
        ["gh" + "p_", "s" + "k-", "sk" + "_live_", "xo" + "xb-", "np" + "m_", "gl" + "pat-", "h" + "f_", "S" + "G."]
    )
    n = r.randint(20, 40)
    ch = r.choice(["X", "x", "*", "0"])
    return _lw(r, f"# example only\n{_var(r)}={pre}{ch * n}  # replace with your own value (line {r.randint(2, 90)})")


def _l_tfvars_replace(r):
    return _lw(
        r,
        f'db_username = "{r.choice(_USERS)}"\ndb_password = "REPLACE_ME"\ninstance_class = "db.r6g.{r.choice(["large", "xlarge"])}"\nregion = "{r.choice(_REGIONS)}"',
        "terraform.tfvars.example",
    )


def _l_connstr_placeholder(r):
    return _lw(
        r,
        f'"ConnectionStrings": {{ "Default": "Server={_host(r, "sql")};Database={r.choice(["Claims", "Ledger"])};User Id={r.choice(_USERS)};Password=<password>;" }}',
        "appsettings.Development.json",
    )


def _l_url_user_password(r):
    scheme = r.choice(["postgres", "mysql", "mongodb", "amqp", "redis"])
    return _lw(
        r,
        f"# local docker only, see README\nDATABASE_URL={scheme}://user:password@localhost:{r.randint(3000, 9999)}/{r.choice(['mydb', 'app', 'test'])}",
    )


def _l_jinja_vault_ref(r):
    v = _var(r).lower()
    return _lw(
        r,
        f'{v}: "{{{{ vault_{v} }}}}"\n{r.choice(["app_port", "workers"])}: {r.randint(2, 9000)}',
        f"group_vars/{r.choice(_ENVS)}/vars.yml",
    )


def _l_helm_values_ref(r):
    return _lw(
        r,
        f"        - name: {_var(r)}\n          value: {{{{ .Values.{r.choice(['db', 'smtp', 'sftp'])}.password | quote }}}}\n"
        f'        - name: REPLICAS\n          value: "{r.randint(1, 6)}"',
        "templates/deployment.yaml",
    )


def _l_spring_env_ref(r):
    v = _var(r)
    return _lw(
        r,
        f"app:\n  {v.lower().replace('_', '-')}: ${{{v}}}\n  timeout: {r.randint(1, 60)}s\n  retries: {r.randint(1, 5)}",
        "application.yml",
    )


def _l_wp_unique_phrase(r):
    names = r.sample(
        ["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY", "AUTH_SALT", "NONCE_SALT"], r.randint(2, 5)
    )
    body = "\n".join(f"define( '{n}', 'put your unique phrase here' );" for n in names)
    return _lw(r, f"<?php\n{body}\n$table_prefix = 'wp{r.randint(1, 99)}_';", "wp-config-sample.php")


def _l_curl_env_token(r):
    return _lw(
        r,
        f'curl -sS -H "Authorization: Bearer ${r.choice(["TOKEN", "API_TOKEN", "GITHUB_TOKEN", "ACCESS_TOKEN"])}" '
        f"https://{_host(r, 'api')}/v{r.randint(1, 3)}/{r.choice(['claims', 'accounts', 'Patient'])}?limit={r.randint(1, 500)}",
        "docs/api.md",
    )


def _l_cisco_template(r):
    return _lw(
        r,
        f"hostname {{{{ hostname }}}}\nenable secret 0 <ENABLE_SECRET>\nusername <USER> privilege 15 secret 0 <PASSWORD>\n"
        f"snmp-server community <COMMUNITY> RO {r.randint(10, 99)}\nntp server {_ip(r)}",
        "templates/ios-base.j2",
    )


def _l_gha_secrets_ref(r):
    v = _var(r)
    return _lw(
        r,
        f"      - name: deploy\n        env:\n          {v}: ${{{{ secrets.{v} }}}}\n        run: ./deploy.sh {r.choice(_ENVS)}",
        ".github/workflows/deploy.yml",
    )


def _l_wifi_template(r):
    return _lw(
        r,
        f"ssid={r.choice(['Clinic-Staff', 'Plant-OT', 'Branch'])}-{r.randint(1, 99)}\nwpa=2\nwpa_passphrase=<set-per-site-from-vault>\nwpa_key_mgmt=WPA-PSK",
        "hostapd.conf.tpl",
    )


# ---- secret-manager references ----


def _l_aws_sm_arn(r):
    arn = f"arn:aws:secretsmanager:{r.choice(_REGIONS)}:{_num(r, 12)}:secret:{r.choice(_ENVS)}/{_app(r)}/db-{_s(r, _AN, 6)}"
    return _lw(r, f"DB_SECRET_ARN={arn}\n# the task role reads the value at startup")


def _l_cfn_dynamic_ref(r):
    return _lw(
        r,
        f"      MasterUserPassword: '{{{{resolve:secretsmanager:{r.choice(_ENVS)}/{_app(r)}/rds:SecretString:password}}}}'\n"
        f"      MasterUsername: {r.choice(_USERS)}",
        "cfn/rds.yaml",
    )


def _l_keyvault_ref(r):
    kv = f"kv-{r.choice(_ORGS)}-{r.choice(_ENVS)}"
    return _lw(
        r,
        json.dumps(
            {
                "name": _var(r),
                "value": f"@Microsoft.KeyVault(SecretUri=https://{kv}.vault.azure.net/secrets/{_app(r)}-secret/)",
                "slotSetting": False,
            },
            indent=2,
        ),
    )


def _l_gcp_sm_path(r):
    return _lw(
        r,
        f"DB_PASSWORD_SECRET=projects/{_num(r, 12)}/secrets/{_app(r)}-db-password/versions/{r.choice(['latest', str(r.randint(1, 40))])}",
    )


def _l_vault_cli(r):
    return _lw(
        r,
        f"$ vault kv get -field=password secret/{r.choice(_ENVS)}/{_app(r)}/db\n(value piped straight into the container, never echoed)",
    )


def _l_k8s_secretkeyref(r):
    return _lw(
        r,
        f"          env:\n            - name: {_var(r)}\n              valueFrom:\n                secretKeyRef:\n"
        f"                  name: {_app(r)}-{r.choice(['db', 'api', 'smtp'])}\n                  key: {r.choice(['password', 'token', 'secret'])}",
        "k8s/deployment.yaml",
    )


def _l_external_secret(r):
    return _lw(
        r,
        f"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {_app(r)}\nspec:\n"
        f"  refreshInterval: {r.randint(1, 24)}h\n  secretStoreRef:\n    name: vault-backend\n    kind: ClusterSecretStore\n"
        f"  data:\n    - secretKey: password\n      remoteRef:\n        key: {r.choice(_ENVS)}/{_app(r)}\n        property: password",
        "k8s/external-secret.yaml",
    )


def _l_op_ref(r):
    return _lw(
        r,
        f"{_var(r)}=op://{r.choice(['Prod', 'Infra', 'Payments'])}/{_app(r)}/{r.choice(['password', 'credential', 'token'])}\n# run with: op run --env-file=.env.tpl -- ./start.sh",
    )


def _l_systemd_loadcred(r):
    app = _app(r)
    return _lw(
        r,
        f"[Service]\nDynamicUser=yes\nLoadCredential=db-password:/etc/credstore/{app}.db-password\n"
        f"Environment=DB_PASSWORD_FILE=%d/db-password\nExecStart=/usr/bin/{app} --port {r.randint(1000, 9999)}",
        f"/etc/systemd/system/{app}.service",
    )


def _l_ansible_lookup(r):
    return _lw(
        r,
        f"db_password: \"{{{{ lookup('community.hashi_vault.hashi_vault', 'secret=kv/data/{_app(r)}:password') }}}}\"\n"
        f"db_port: {r.randint(3000, 6000)}",
        "group_vars/all/vault_refs.yml",
    )


def _l_tf_data_sm(r):
    ds = "aws_secretsmanager" + "_secret_version"
    return _lw(
        r,
        f'data "{ds}" "db" {{\n  secret_id = "{r.choice(_ENVS)}/{_app(r)}/db"\n}}\n\n'
        f'locals {{\n  db_password = jsondecode(data.{ds}.db.secret_string)["password"]\n}}',
        "infra/secrets.tf",
    )


def _l_bicep_getsecret(r):
    return _lw(
        r,
        f"resource kv 'Microsoft.KeyVault/vaults@2023-07-01' existing = {{\n  name: 'kv-{_app(r)}-{r.randint(1, 99)}'\n}}\n"
        f"module sql './sql.bicep' = {{\n  name: 'sql'\n  params: {{\n    adminPassword: kv.getSecret('sql-admin-password')\n  }}\n}}",
        "infra/main.bicep",
    )


def _l_nomad_template_secret(r):
    return _lw(
        r,
        f'      template {{\n        data = <<EOH\n{{{{ with secret "kv/data/{_app(r)}" }}}}DB_PASSWORD={{{{ .Data.data.password }}}}{{{{ end }}}}\nEOH\n'
        f'        destination = "secrets/{r.choice(["env", "app.env", "db.env"])}"\n        env = true\n        change_mode = "{r.choice(["restart", "signal", "noop"])}"\n      }}',
        "nomad/job.hcl",
    )


def _l_chef_databag_ref(r):
    return _lw(
        r,
        f"creds = data_bag_item('{r.choice(['secrets', 'credentials'])}', '{_app(r)}', Chef::EncryptedDataBagItem.load_secret('/etc/chef/"
        + "encrypted_data_bag_secret'))\npassword creds['password']\nport "
        + str(r.randint(1000, 9999)),
        "recipes/default.rb",
    )


def _l_puppet_sensitive(r):
    return _lw(
        r,
        f"class {{ 'profile::{_app(r).replace('-', '_')}':\n  db_password => Sensitive(lookup('{_app(r).replace('-', '_')}::db_password')),\n  port        => {r.randint(1000, 9999)},\n}}",
        "manifests/role.pp",
    )


def _l_spring_cloud_vault(r):
    return _lw(
        r,
        f"spring:\n  cloud:\n    vault:\n      uri: https://vault.{r.choice(_ORGS)}.example:8200\n      authentication: KUBERNETES\n"
        f"      kubernetes:\n        role: {_app(r)}\n      kv:\n        backend: secret\n        default-context: {_app(r)}",
        "bootstrap.yml",
    )


# ---- masked ----


def _l_mask_stars(r):
    return _lw(r, f"{_var(r).lower()}: {'*' * r.randint(4, 16)}\nhost: {_host(r)}\nport: {r.randint(1000, 9999)}")


def _l_mask_redacted_result(r):
    a, b = r.sample(["DB_PASSWORD", "SFTP_PASSWORD", "HSM_PIN", "VAULT_TOKEN", "SMTP_PASSWORD", "API_TOKEN"], 2)
    txt = f"$ env | grep -iE 'pass|token|pin'\n{a}=<redacted>\n{b}=[REDACTED]"
    return _js(
        r, {"content": [{"type": "text", "text": txt}], "isError": False, "meta": {"redactions": r.randint(1, 9)}}
    )


def _l_mask_partial(r):
    pre = r.choice(["sk" + "_live_", "gh" + "p_", "xo" + "xb-", "AK" + "IA", "gl" + "pat-", "dop" + "_v1_"])
    tail = _s(r, _AN, 4)
    return _lw(
        r,
        f"Rotated key {pre}{'*' * r.randint(12, 24)}{tail} on {_date(r)} (owner {r.choice(_PEOPLE)}); old key revoked.",
    )


def _l_mask_bearer_log(r):
    return _lw(
        r,
        f"{_ts(r)} INFO  http.client POST https://{_host(r, 'api')}/v1/{r.choice(['payments', 'claims', 'Observation'])} "
        f'headers={{"Authorization": "Bearer [REDACTED]", "X-Request-ID": "{_uuid(r)}"}} status={r.choice([200, 201, 202])}',
    )


def _l_mask_bullets(r):
    return _lw(
        r,
        f"{_ticket(r)} · {r.choice(_PEOPLE)} commented:\nService account created. Password: •••••••• (stored in the team vault, ask {r.choice(_TEAMS)})",
    )


def _l_mask_connstr(r):
    return _lw(
        r,
        f"Server={_host(r, 'sql')};Database={r.choice(['Claims', 'Ledger', 'EHR'])};User Id={r.choice(_USERS)};Password=***;Encrypt=True;",
    )


def _l_mask_cisco_removed(r):
    return _lw(
        r,
        f"{r.choice(['rtr', 'sw'])}-{r.randint(1, 99)}#show running-config | include secret|community\nenable secret 5 <removed>\n"
        f"username netops privilege 15 secret 9 <removed>\nsnmp-server community <removed> RO {r.randint(10, 99)}",
    )


def _l_mask_table(r):
    rows = "\n".join(
        f"| {r.choice(['SEPA SFTP', 'HL7 feed', 'Claims DB', 'HSM'])} | `{_var(r)}` | `[hidden]` | {r.choice(_PEOPLE)} |"
        for _ in range(r.randint(2, 4))
    )
    return f"| System | Key | Value | Owner |\n|---|---|---|---|\n{rows}"


# ---- env var names and code reading secrets ----


def _l_env_table_readme(r):
    rows = "\n".join(
        f"| `{v}` | {r.choice(['yes', 'no'])} | {r.choice(['read from Vault', 'injected by CI', 'set by Helm', 'optional'])} |"
        for v in r.sample(
            [
                "DB_PASSWORD",
                "STRIPE_SECRET_KEY",
                "SMTP_PASSWORD",
                "FHIR_CLIENT_SECRET",
                "HSM_PIN",
                "SFTP_PASSWORD",
                "JWT_SECRET",
            ],
            4,
        )
    )
    return f"## Configuration ({_app(r)})\n\n| Variable | Required | Notes |\n|---|---|---|\n{rows}"


def _l_py_environ(r):
    v = _var(r)
    return _lw(
        r,
        f'import os\n\n{v.lower()} = os.environ["{v}"]\ntimeout = int(os.getenv("TIMEOUT", "{r.randint(5, 60)}"))\n',
        f"{_app(r).replace('-', '_')}/config.py",
    )


def _l_node_env(r):
    v = _var(r)
    return _lw(
        r,
        f"const {{ {v} }} = process.env;\nif (!{v}) throw new Error('{v} is not set');\nmodule.exports = {{ port: {r.randint(3000, 9000)} }};",
        "src/config.js",
    )


def _l_go_getenv(r):
    v = _var(r)
    return _lw(
        r,
        f'secret := os.Getenv("{v}")\nif secret == "" {{\n\tlog.Fatal("missing {v}")\n}}\nclient := newClient(secret, {r.randint(1, 30)}*time.Second)',
        "cmd/main.go",
    )


def _l_java_value(r):
    v = _var(r)
    return _lw(
        r,
        f'@Value("${{{v.lower().replace("_", ".")}}}")\nprivate String secret;\n\n@Value("${{app.timeout:{r.randint(1, 60)}s}}")\nprivate Duration timeout;',
        "src/main/java/Config.java",
    )


def _l_dotnet_config(r):
    return _lw(
        r,
        f'builder.Configuration.AddAzureKeyVault(new Uri("https://kv-{_app(r)}.vault.azure.net/"), new DefaultAzureCredential());\n'
        f'var conn = builder.Configuration.GetConnectionString("{r.choice(["Claims", "Ledger", "Default"])}");\n'
        f"builder.Services.AddHealthChecks(); // port {r.randint(1000, 9999)}",
        "Program.cs",
    )


def _l_bash_required_var(r):
    v = _var(r)
    return _lw(
        r,
        f'#!/usr/bin/env bash\nset -euo pipefail\n: "${{{v}:?{v} must be set}}"\nexec ./bin/{_app(r)} --workers {r.randint(1, 16)}',
        "entrypoint.sh",
    )


def _l_rust_env(r):
    v = _var(r)
    return _lw(
        r,
        f'let secret = std::env::var("{v}").expect("{v} not set");\nlet pool = PoolOptions::new().max_connections({r.randint(2, 64)});',
        "src/main.rs",
    )


def _l_docker_secret_file(r):
    return _lw(
        r,
        f"services:\n  {_app(r)}:\n    secrets:\n      - db_password\n    environment:\n      DB_PASSWORD_FILE: /run/secrets/db_password\nsecrets:\n  db_password:\n    external: true\n# replicas: {r.randint(1, 5)}",
        "docker-compose.yml",
    )


def _l_tf_sensitive_var(r):
    return _lw(
        r,
        f'variable "{_var(r).lower()}" {{\n  type      = string\n  sensitive = true\n  description = "Injected by the pipeline ({_ticket(r)})"\n}}',
        "variables.tf",
    )


def _l_ansible_nolog(r):
    return _lw(
        r,
        f'- name: configure {_app(r)} credentials\n  ansible.builtin.template:\n    src: app.env.j2\n    dest: /etc/{_app(r)}/app.env\n    mode: "0600"\n  no_log: true',
        "roles/app/tasks/main.yml",
    )


def _l_compose_env_file(r):
    return _lw(
        r,
        f"services:\n  {_app(r)}:\n    image: {_app(r)}:{r.randint(1, 9)}.{r.randint(0, 30)}\n    env_file:\n      - ./secrets/{r.choice(_ENVS)}.env  # not committed, see .gitignore",
        "docker-compose.yml",
    )


def _l_pkcs11_no_pin(r):
    return _lw(
        r,
        f"name = {r.choice(['LunaHSM', 'SoftHSM', 'nCipher'])}\nlibrary = /usr/lib/{r.choice(['libCryptoki2_64.so', 'softhsm/libsofthsm2.so'])}\n"
        f"slot = {r.randint(0, 9)}\n# PIN is read from PKCS11_PIN_FILE at startup, never stored here ({_ticket(r)})",
        "pkcs11.cfg",
    )


# ---- hashes ----


def _bcrypt(r):
    return "$2b$" + str(r.choice([10, 12, 14])) + "$" + _s(r, _AN + "./", 53)


def _l_sha256sum(r):
    body = "\n".join(
        f"{_hex(r, 64)}  {n}"
        for n in r.sample(
            [f"{_app(r)}-{r.randint(1, 9)}.tar.gz", "SHA256SUMS.sig", "firmware.bin", "chart.tgz", "installer.msi"], 3
        )
    )
    return _lw(r, body, "SHA256SUMS")


def _l_git_log(r):
    body = "\n".join(
        f"{_hex(r, 40)} {r.choice(['fix', 'chore', 'feat'])}: {r.choice(['bump deps', 'rotate via vault', 'add probe', 'tidy config'])}"
        for _ in range(r.randint(3, 6))
    )
    return _lw(r, "$ git log --format='%H %s' -n 5\n" + body)


def _l_docker_digest(r):
    return _lw(
        r, f"image: registry.{r.choice(_ORGS)}.example/{_app(r)}@sha256:{_hex(r, 64)}\nimagePullPolicy: IfNotPresent"
    )


def _l_bcrypt_users(r):
    rows = "\n".join(f"{r.randint(1, 900)}|{r.choice(_USERS)}|{_bcrypt(r)}|{_date(r)}" for _ in range(3))
    return _lw(r, "id|username|password_hash|created\n" + rows)


def _l_argon2(r):
    h = f"$argon2id$v=19$m={r.choice([19456, 65536])},t={r.randint(2, 4)},p=1${_b64(r.randbytes(16)).rstrip('=')}${_b64(r.randbytes(32)).rstrip('=')}"
    return _lw(r, json.dumps({"user": r.choice(_USERS), "password_hash": h, "mfa": True}, indent=2))


def _l_shadow(r):
    h = f"$6${_s(r, _AN + './', 16)}${_s(r, _AN + './', 86)}"
    return _lw(r, f"{r.choice(_USERS)}:{h}:{r.randint(19000, 20000)}:0:99999:7:::", "/etc/shadow (excerpt)")


def _type89(r, t):
    return f"${t}${_s(r, _AN + './', 14)}${_s(r, _AN + './', 43)}"


def _l_cisco_type8(r):
    return _lw(
        r, f"username {r.choice(['netops', 'noc', 'admin'])} privilege 15 secret 8 {_type89(r, 8)}\n!", "running-config"
    )


def _l_cisco_type9(r):
    return _lw(
        r,
        f"hostname sw-{r.randint(1, 99)}\nenable secret 9 {_type89(r, 9)}\nservice password-encryption",
        "running-config",
    )


def _l_junos_sha512(r):
    h = f"$6${_s(r, _AN + './', 8)}${_s(r, _AN + './', 86)}"
    return _lw(
        r,
        f'system {{\n    login {{\n        user noc {{\n            class super-user;\n            authentication {{\n                encrypted-password "{h}";\n            }}\n        }}\n    }}\n}}',
        "juniper.conf",
    )


def _l_haproxy_userlist(r):
    h = f"$6${_s(r, _AN + './', 16)}${_s(r, _AN + './', 86)}"
    return _lw(
        r,
        f"userlist stats_users\n    user {r.choice(['ops', 'noc'])} password {h}\n\nlisten stats\n    bind :{r.randint(8000, 9000)}\n    acl auth_ok http_auth(stats_users)",
        "haproxy.cfg",
    )


def _l_htpasswd(r):
    return _lw(r, f"{r.choice(_USERS)}:$apr1${_s(r, _AN, 8)}${_s(r, _AN + './', 22)}", ".htpasswd")


def _l_django_pbkdf2(r):
    h = f"pbkdf2_sha256${r.choice([600000, 720000, 870000])}${_s(r, _AN, 22)}${_b64(r.randbytes(32))}"
    return _lw(r, f"{r.randint(1, 500)},{r.choice(_USERS)},{h},{_date(r)}")


def _l_md5_manifest(r):
    return _lw(
        r,
        "\n".join(
            f"MD5 ({n}) = {_hex(r, 32)}" for n in r.sample(["claims.xml", "batch.csv", "report.pdf", "dicom.zip"], 3)
        ),
    )


def _l_sri(r):
    return _lw(
        r,
        f'<script src="https://cdn.{r.choice(_ORGS)}.example/app.{_hex(r, 8)}.js" integrity="sha384-{_b64(r.randbytes(48))}" crossorigin="anonymous"></script>',
        "index.html",
    )


def _l_package_lock(r):
    pkg = r.choice(["lodash", "express", "axios", "react-dom", "zod"])
    obj = {
        f"node_modules/{pkg}": {
            "version": f"{r.randint(1, 18)}.{r.randint(0, 30)}.{r.randint(0, 9)}",
            "resolved": f"https://registry.npmjs.org/{pkg}/-/{pkg}-1.0.0.tgz",
            "integrity": "sha512-" + _b64(r.randbytes(64)),
        }
    }
    return _lw(r, json.dumps(obj, indent=2), "package-lock.json")


def _l_gosum(r):
    m = r.choice(["golang.org/x/crypto", "github.com/hashicorp/vault/api", "go.uber.org/zap"])
    v = f"v{r.randint(0, 1)}.{r.randint(1, 40)}.{r.randint(0, 9)}"
    return _lw(r, f"{m} {v} h1:{_b64(r.randbytes(32))}\n{m} {v}/go.mod h1:{_b64(r.randbytes(32))}", "go.sum")


def _l_tf_lock(r):
    return _lw(
        r,
        f'provider "registry.terraform.io/hashicorp/{r.choice(["aws", "azurerm", "google"])}" {{\n  version = "{r.randint(3, 5)}.{r.randint(0, 80)}.0"\n'
        f'  hashes = [\n    "h1:{_b64(r.randbytes(32))}",\n    "zh:{_hex(r, 64)}",\n  ]\n}}',
        ".terraform.lock.hcl",
    )


def _l_pg_scram(r):
    h = f"SCRAM-SHA-256$4096:{_b64(r.randbytes(16))}${_b64(r.randbytes(32))}:{_b64(r.randbytes(32))}"
    return _lw(r, f" rolname | rolpassword\n---------+------------\n {r.choice(_USERS)} | {h}")


def _l_ldap_ssha(r):
    return _lw(
        r,
        f"dn: uid={r.choice(_USERS)},ou=people,dc=corp,dc=example\nobjectClass: inetOrgPerson\nuserPassword: {{SSHA}}{_b64(r.randbytes(24))}",
        "export.ldif",
    )


def _l_cisco_type5(r):
    return _lw(
        r,
        f"enable secret 5 $1${_s(r, _AN, 4)}${_s(r, _AN + './', 22)}\nline con 0\n logging synchronous",
        "running-config",
    )


def _l_git_ls_tree(r):
    return _lw(
        r,
        "\n".join(
            f"100644 blob {_hex(r, 40)}\t{p}"
            for p in r.sample(["README.md", "values.yaml", "main.tf", "Chart.yaml", ".sops.yaml"], 3)
        ),
    )


# ---- identifiers ----


def _l_request_ids(r):
    return _lw(
        r,
        "\n".join(
            f"{_ts(r)} {r.choice(['INFO', 'WARN'])} request_id={_uuid(r)} route=/{r.choice(['claims', 'payments', 'fhir/Patient'])} status={r.choice([200, 404, 503])}"
            for _ in range(3)
        ),
    )


def _l_traceparent(r):
    return _lw(
        r, f"traceparent: 00-{_hex(r, 32)}-{_hex(r, 16)}-01\ntracestate: {r.choice(['congo', 'rojo'])}={_hex(r, 16)}"
    )


def _l_fhir_bundle(r):
    obj = {
        "resourceType": "Bundle",
        "type": "searchset",
        "total": r.randint(1, 40),
        "entry": [
            {
                "fullUrl": f"https://fhir.{r.choice(_ORGS)}.example/r4/Patient/{_uuid(r)}",
                "resource": {"resourceType": "Patient", "id": _uuid(r), "meta": {"versionId": str(r.randint(1, 9))}},
            }
        ],
    }
    return _lw(r, json.dumps(obj, indent=2))


def _l_hl7_msh(r):
    return _lw(
        r,
        f"MSH|^~\\&|LAB|{r.choice(['STMARY', 'UNIKLINIK', 'CHU'])}|EHR|HOSP|{_date(r).replace('-', '')}1200||ORU^R01|{_num(r, 10)}|P|2.5.1\r"
        f"PID|1||{_num(r, 8)}^^^MRN||DOE^JANE||19800101|F",
    )


def _l_aws_arns(r):
    acct = _num(r, 12)
    return _lw(
        r,
        f"RoleArn: arn:aws:iam::{acct}:role/{_app(r)}-task\nKmsKeyId: arn:aws:kms:{r.choice(_REGIONS)}:{acct}:key/{_uuid(r)}",
    )


def _l_azure_ids(r):
    return _lw(
        r,
        f"param tenantId = '{_uuid(r)}'\nparam subscriptionId = '{_uuid(r)}'\nparam principalObjectId = '{_uuid(r)}'",
        "main.bicepparam",
    )


def _l_servicenow_sysid(r):
    return _lw(
        r,
        json.dumps(
            {
                "result": {
                    "sys_id": _hex(r, 32),
                    "number": _ticket(r),
                    "state": "2",
                    "assignment_group": {"value": _hex(r, 32)},
                }
            },
            indent=2,
        ),
    )


def _l_salesforce_ids(r):
    return _lw(r, f"AccountId: 001{_s(r, _AN, 15)}\nOpportunityId: 006{_s(r, _AN, 15)}\nOwnerId: 005{_s(r, _AN, 15)}")


def _l_stripe_object_ids(r):
    return _lw(
        r,
        f"customer=cus_{_s(r, _AN, 14)} payment_intent=pi_{_s(r, _AN, 24)} charge=ch_{_s(r, _AN, 24)} amount={r.randint(100, 99999)}",
    )


def _l_slack_ids(r):
    return _lw(
        r,
        json.dumps(
            {
                "team": "T" + _s(r, _UP + _DG, 10),
                "channel": "C" + _s(r, _UP + _DG, 10),
                "user": "U" + _s(r, _UP + _DG, 10),
                "ts": f"{r.randint(1700000000, 1760000000)}.{_num(r, 6)}",
            }
        ),
    )


def _l_github_run_ids(r):
    return _lw(r, f"run_id={_num(r, 10)} run_attempt={r.randint(1, 3)} check_suite_id={_num(r, 11)} sha={_hex(r, 40)}")


def _l_k8s_uids(r):
    return _lw(
        r,
        f'metadata:\n  name: {_app(r)}-{_s(r, _LO + _DG, 10)}-{_s(r, _LO + _DG, 5)}\n  uid: {_uuid(r)}\n  resourceVersion: "{_num(r, 8)}"',
    )


def _l_twilio_sid_only(r):
    return _lw(
        r, f"Twilio account SID (not secret, used for routing): AC{_hex(r, 32)}\nMessaging service: MG{_hex(r, 32)}"
    )


def _l_aws_key_id_only(r):
    kid = "AK" + "IA" + _s(r, _UP + "234567", 16)
    obj = {
        "AccessKeyMetadata": [
            {
                "UserName": r.choice(_USERS),
                "AccessKeyId": kid,
                "Status": r.choice(["Active", "Inactive"]),
                "CreateDate": _ts(r),
            }
        ]
    }
    return _lw(r, "$ aws iam list-access-keys\n" + json.dumps(obj, indent=4))


def _l_oauth_client_ids(r):
    return _lw(
        r,
        f"AZURE_TENANT_ID={_uuid(r)}\nAZURE_CLIENT_ID={_uuid(r)}\n# client secret comes from workload identity, none stored",
    )


def _l_google_client_id(r):
    return _lw(
        r,
        f'<meta name="google-signin-client_id" content="{_num(r, 12)}-{_s(r, _LO + _DG, 32)}.apps.googleusercontent.com">',
        "index.html",
    )


_IBANS = [
    "GB82 WEST 1234 5698 7654 32",
    "DE89 3704 0044 0532 0130 00",
    "FR14 2004 1010 0505 0001 3M02 606",
    "NL91 ABNA 0417 1643 00",
    "ES91 2100 0418 4502 0005 1332",
    "IT60 X054 2811 1010 0000 0123 456",
    "SE45 5000 0000 0583 9825 7466",
    "PL61 1090 1014 0000 0712 1981 2874",
    "BE68 5390 0754 7034",
]
_BICS = ["DEUTDEFF", "BNPAFRPP", "ABNANL2A", "COBADEFFXXX", "NWBKGB2L", "INGBNL2A", "UNCRITMM", "ESSESESS"]


def _l_iban(r):
    return _lw(
        r,
        f"Test beneficiary (public example IBAN): {r.choice(_IBANS)}\nReference: {_ticket(r)} amount EUR {r.randint(1, 9999)}.{r.randint(10, 99)}",
    )


def _l_bic(r):
    return _lw(
        r,
        f"Routing table: {r.choice(_BICS)} -> {r.choice(_BICS)} via {r.choice(['SWIFT FIN', 'SEPA CT', 'TARGET2'])} (cut-off {r.randint(10, 17)}:00 CET)",
    )


def _l_healthcare_codes(r):
    return _lw(
        r,
        f"OID 2.16.840.1.113883.{r.randint(1, 19)}.{r.randint(1, 999)}\nLOINC {r.randint(1000, 99999)}-{r.randint(0, 9)}\nICD-10 {r.choice('ABCEIJKM')}{r.randint(10, 99)}.{r.randint(0, 9)}",
    )


def _l_snmp_walk(r):
    return _lw(
        r,
        "\n".join(
            f"IF-MIB::ifHCInOctets.{i} = Counter64: {r.randint(10**6, 10**12)}" for i in range(1, r.randint(3, 6))
        ),
    )


def _l_telecom_ids(r):
    return _lw(
        r,
        f"ICCID: 8944{_num(r, 15)}\nIMSI: 262{r.randint(1, 9):02d}{_num(r, 10)}\nIMEI: {_num(r, 15)}\nAPN: iot.{r.choice(_ORGS)}.example",
    )


def _l_lorawan(r):
    return _lw(
        r,
        json.dumps(
            {
                "devEUI": _hex(r, 16),
                "joinEUI": _hex(r, 16),
                "deviceProfile": r.choice(["meter-v2", "valve-a"]),
                "fPort": r.randint(1, 200),
            },
            indent=2,
        ),
    )


def _l_mac_serials(r):
    mac = ":".join(_hex(r, 2) for _ in range(6))
    return _lw(
        r,
        f"device: {r.choice(['PLC-S7', 'RTU-7', 'edge-gw'])}\nmac: {mac}\nserial: {_s(r, _UP + _DG, 12)}\nfirmware: {r.randint(1, 5)}.{r.randint(0, 20)}.{r.randint(0, 99)}",
    )


def _l_cert_serials(r):
    return _lw(
        r,
        f"Serial Number:\n    {':'.join(_hex(r, 2) for _ in range(16))}\nNot After : {_date(r)} 23:59:59 GMT\nSubject: CN={_host(r)}",
    )


def _l_jira_ids(r):
    return _lw(
        r,
        f"See {_ticket(r)} and Confluence page {_num(r, 9)} (space {r.choice(['OPS', 'SEC', 'CLIN'])}), attachment id {_num(r, 8)}",
    )


# ---- fingerprints and public keys ----


def _l_x509_fp(r):
    return _lw(r, f"SHA256 Fingerprint={':'.join(_hex(r, 2).upper() for _ in range(32))}\nsubject=CN = {_host(r)}")


def _l_ssh_fp(r):
    return _lw(
        r,
        f"{r.choice([256, 3072])} SHA256:{_b64(r.randbytes(32)).rstrip('=')} {r.choice(_USERS)}@{_app(r)} ({r.choice(['ED25519', 'RSA'])})",
    )


def _l_known_hosts(r):
    return _lw(r, f"{_host(r, 'sftp')},{_pubip(r)} {_ssh_pub_line(r)}", "~/.ssh/known_hosts")


def _l_authorized_keys(r):
    return _lw(
        r,
        "\n".join(_ssh_pub_line(r, comment=f"{r.choice(_USERS)}@{_app(r)}") for _ in range(r.randint(1, 3))),
        "~/.ssh/authorized_keys",
    )


def _l_public_key_pem(r):
    return _lw(r, _pub_pem(r), "keys/partner-public.pem")


def _l_cert_helm(r):
    return _lw(r, "ca:\n  crt: |\n    " + _cert_pem(r).replace("\n", "\n    "), "values.yaml")


def _l_pgp_public(r):
    return _lw(r, _pgp_block(r, "PUBLIC KEY BLOCK", b"\x99\x01\x8d\x04", r.randint(600, 1100)), "keys/partner.asc")


def _l_wg_peer(r):
    return _lw(
        r,
        f"[Peer]\n# {r.choice(['branch', 'clinic', 'substation'])}-{r.randint(1, 99)}\nPublicKey = {_wg_key(r)}\nAllowedIPs = 10.{r.randint(0, 255)}.0.0/24\nEndpoint = {_pubip(r)}:51820",
    )


def _l_jwks(r):
    obj = {
        "keys": [
            {
                "kty": "RSA",
                "use": "sig",
                "kid": _s(r, _U64, 22),
                "alg": "RS256",
                "n": _b64u(r.randbytes(256)),
                "e": "AQAB",
            }
        ]
    }
    return _lw(r, json.dumps(obj, indent=2), ".well-known/jwks.json")


def _l_age_recipient(r):
    return _lw(
        r,
        f"creation_rules:\n  - path_regex: {r.choice(['secrets', 'env'])}/.*\\.yaml$\n    age: age1{_s(r, _BECH, 58)}",
        ".sops.yaml",
    )


def _l_dkim(r):
    pk = _b64(_hx("30820122300d0609", "2a864886f70d0101010500", "0382010f00") + r.randbytes(270))
    return _lw(
        r,
        f'{r.choice(["s1", "selector1", "mail"])}._domainkey.{r.choice(_ORGS)}.example. IN TXT "v=DKIM1; k=rsa; p={pk}"',
    )


def _l_sshfp_tlsa(r):
    return _lw(
        r, f"{_host(r, 'sftp')}. IN SSHFP 4 2 {_hex(r, 64)}\n_443._tcp.{_host(r, 'api')}. IN TLSA 3 1 1 {_hex(r, 64)}"
    )


def _l_pins(r):
    return _lw(
        r,
        json.dumps(
            {
                "domain": _host(r, "api"),
                "pins": [f"sha256/{_b64(r.randbytes(32))}", f"sha256/{_b64(r.randbytes(32))}"],
                "expires": _date(r),
            },
            indent=2,
        ),
    )


def _l_minisign(r):
    return _lw(
        r, f"untrusted comment: minisign public key {_hex(r, 16).upper()}\nRW{_b64(r.randbytes(40))}", "release.pub"
    )


# ---- vendor documentation examples ----


def _l_aws_example(r):
    kid = "AK" + "IA" + "IOSFODNN7" + "EXAMPLE"
    sec = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKEY"
    return _lw(
        r,
        f"$ aws configure --profile {r.choice(['docs', 'sandbox', 'example'])}{r.randint(1, 99)}\nAWS Access Key ID [None]: {kid}\n"
        f"AWS Secret Access Key [None]: {sec}\nDefault region name [None]: {r.choice(_REGIONS)}\n(values from the AWS documentation)",
    )


def _jwtio():
    h = _b64u(b'{"alg":"HS256","typ":"JWT"}')
    p = _b64u(b'{"sub":"1234567890","name":"John Doe","iat":1516239022}')
    return f"{h}.{p}." + "SflKxwRJSMeKKF2QT4fw" + "pMeJf36POk6yJV_adQssw5c"


def _l_jwtio(r):
    return _lw(
        r,
        f"Unit test {r.randint(1, 999)} decodes the jwt.io sample token:\n{_jwtio()}\nexpected sub=1234567890 ({_ticket(r)})",
    )


def _azurite():
    return "Eby8vdM02xNOcqFlqUwJPLlmEtlCDX" + "J1OUzFT50uSRZ6IFsuFq2UVErCz4I6t" + "q/K1SZFPTOtr/KBHBeksoGMGw=="


def _l_azurite(r):
    return _lw(
        r,
        f"# local emulator (Azurite) — published development credentials\nAZURITE_PORT={r.randint(10000, 10010)}\n"
        f"ConnectionString=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={_azurite()};"
        f"BlobEndpoint=http://127.0.0.1:{r.randint(10000, 10010)}/devstoreaccount1;",
    )


def _l_stripe_docs(r):
    k = "sk" + "_test_" + "4eC39HqLyjWDarjtT1zdp7dc"
    return _lw(
        r,
        f"# from the Stripe API reference examples\ncurl https://api.stripe.com/v1/charges -u {k}: -d amount={r.randint(100, 9999)} -d currency={r.choice(['eur', 'usd', 'sek'])}",
    )


# ---- public by design ----


def _l_supabase_anon(r):
    ref = _s(r, _LO, 20)
    k = _jwt(
        r,
        {
            "iss": "supabase",
            "ref": ref,
            "role": "anon",
            "iat": 1700000000 + r.randint(0, 60000000),
            "exp": 2000000000 + r.randint(0, 90000000),
        },
        "HS256",
    )
    return _lw(
        r, f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={k}", ".env.local"
    )


def _l_stripe_pk(r):
    return _lw(
        r,
        "const stripe = Stripe('pk"
        + f"_live_{_s(r, _AN, r.choice([24, 99]))}');\nconst elements = stripe.elements({{ locale: '{r.choice(['de', 'fr', 'sv'])}' }});",
        "public/checkout.js",
    )


def _l_mapbox_pk(r):
    t = (
        "pk."
        + _b64u(json.dumps({"u": r.choice(_ORGS), "a": _s(r, _LO + _DG, 25)}, separators=(",", ":")).encode())
        + "."
        + _s(r, _U64, 22)
    )
    return _lw(
        r,
        f"mapboxgl.accessToken = '{t}';\nconst map = new mapboxgl.Map({{ container: 'map', zoom: {r.randint(3, 14)} }});",
        "public/map.js",
    )


def _l_recaptcha(r):
    return _lw(
        r,
        f'<div class="g-recaptcha" data-sitekey="6L{_s(r, _U64, 38)}" data-action="{r.choice(["login", "signup", "claim"])}"></div>',
        "templates/login.html",
    )


def _l_vapid(r):
    key = _b64u(b"\x04" + r.randbytes(64))
    return _lw(
        r,
        f"const applicationServerKey = urlBase64ToUint8Array('{key}');\n// VAPID public key, safe to ship to browsers",
        "public/push.js",
    )


def _l_sentry_dsn(r):
    return _lw(
        r,
        f"Sentry.init({{\n  dsn: 'https://{_hex(r, 32)}@o{_num(r, 6)}.ingest.sentry.io/{_num(r, 7)}',\n  tracesSampleRate: 0.{r.randint(1, 9)},\n}});",
        "src/sentry.js",
    )


def _l_launchdarkly(r):
    return _lw(
        r,
        f"const client = LDClient.initialize('{_hex(r, 24)}', {{ kind: 'user', key: '{_uuid(r)}' }}); // client-side ID",
        "src/flags.js",
    )


def _l_firebase(r):
    proj = f"{_app(r)}-{r.randint(100, 999)}"
    return _lw(
        r,
        'const firebaseConfig = {\n  apiKey: "AI'
        + "za"
        + f'Sy{_s(r, _U64, 33)}",\n  authDomain: "{proj}.firebaseapp.com",\n'
        f'  projectId: "{proj}",\n  storageBucket: "{proj}.appspot.com",\n  messagingSenderId: "{_num(r, 12)}",\n'
        f'  appId: "1:{_num(r, 12)}:web:{_hex(r, 22)}"\n}};',
        "src/firebase.js",
    )


def _l_algolia_search(r):
    return _lw(
        r,
        f"// search-only API key, public by design\nconst client = algoliasearch('{_s(r, _UP + _DG, 10)}', '{_hex(r, 32)}');\nconst index = client.initIndex('{r.choice(['docs', 'providers', 'clinics'])}');",
        "src/search.js",
    )


def _l_analytics_ids(r):
    return _lw(
        r,
        f'<script async src="https://www.googletagmanager.com/gtag/js?id=G-{_s(r, _UP + _DG, 10)}"></script>\n<!-- GTM-{_s(r, _UP + _DG, 7)} -->',
        "index.html",
    )


# ---- encrypted blobs ----


def _sops_enc(r, n):
    return (
        f"ENC[AES256_GCM,data:{_b64(r.randbytes(n))},iv:{_b64(r.randbytes(32))},tag:{_b64(r.randbytes(16))},type:str]"
    )


def _l_sops(r):
    age = _armor("AGE ENCRYPTED FILE", _b64(r.randbytes(180)))
    return _lw(
        r,
        f"db:\n    password: {_sops_enc(r, r.randint(12, 30))}\nsops:\n    age:\n        - recipient: age1{_s(r, _BECH, 58)}\n"
        f'          enc: |\n            {age.replace(chr(10), chr(10) + "            ")}\n    lastmodified: "{_ts(r)}"\n'
        f"    mac: {_sops_enc(r, 32)}\n    version: 3.{r.randint(7, 9)}.{r.randint(0, 3)}",
        f"secrets/{r.choice(_ENVS)}.enc.yaml",
    )


def _l_ansible_vault(r):
    lines = "\n".join("          " + _hex(r, 80) for _ in range(r.randint(4, 6)))
    return _lw(
        r, f"{_var(r).lower()}: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{lines}", "group_vars/prod/vault.yml"
    )


def _l_sealed(r):
    return _lw(
        r,
        f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {_app(r)}\nspec:\n  encryptedData:\n"
        f"    password: AgB{_b64(r.randbytes(r.randint(500, 560)))}",
        "k8s/sealed.yaml",
    )


def _l_pgp_message(r):
    return _lw(r, _pgp_block(r, "MESSAGE", b"\x85\x02\x0c\x03", r.randint(400, 900)), "outbound/sepa-batch.xml.asc")


def _l_jasypt(r):
    return _lw(
        r,
        f"spring.datasource.password=ENC({_b64(r.randbytes(r.choice([32, 48, 64])))})\njasypt.encryptor.algorithm=PBEWITHHMACSHA512ANDAES_256",
        "application.properties",
    )


def _l_rails_enc(r):
    return _lw(
        r,
        f"{_b64(r.randbytes(r.randint(200, 400)))}--{_b64(r.randbytes(12))}--{_b64(r.randbytes(16))}",
        "config/credentials/production.yml.enc",
    )


def _l_kms_blob(r):
    obj = {
        "CiphertextBlob": "AQICAH" + _b64(r.randbytes(180)),
        "KeyId": f"arn:aws:kms:{r.choice(_REGIONS)}:{_num(r, 12)}:key/{_uuid(r)}",
        "EncryptionAlgorithm": "SYMMETRIC_DEFAULT",
    }
    return _lw(r, "$ aws kms encrypt ...\n" + json.dumps(obj, indent=4))


def _l_chef_encrypted(r):
    obj = {
        "id": _app(r),
        "password": {
            "encrypted_data": _b64(r.randbytes(48)),
            "iv": _b64(r.randbytes(12)),
            "auth_tag": _b64(r.randbytes(16)),
            "version": 3,
            "cipher": "aes-256-gcm",
        },
    }
    return _lw(r, json.dumps(obj, indent=2), "data_bags/secrets/app.json")


def _l_eyaml(r):
    blob = _b64(_hx("3082", "01bd06092a864886f70d010703a082") + r.randbytes(r.randint(300, 420)))
    return _lw(r, f"profile::db::password: >\n    ENC[PKCS7,{blob}]", "data/common.eyaml")


def _l_vault_transit(r):
    return _lw(
        r,
        json.dumps(
            {
                "data": {
                    "ciphertext": f"vault:v{r.randint(1, 4)}:{_b64(r.randbytes(r.randint(40, 90)))}",
                    "key_version": r.randint(1, 4),
                }
            },
            indent=2,
        ),
    )


def _l_age_message(r):
    return _lw(
        r,
        _armor("AGE ENCRYPTED FILE", _b64(b"age-encryption.org/v1\n-> X25519 " + r.randbytes(r.randint(150, 300)))),
        "backup/keys.age",
    )


# ---- base64, minified code, versions ----


def _l_configmap_b64(r):
    cfg = json.dumps(
        {
            "service": _app(r),
            "region": r.choice(_REGIONS),
            "replicas": r.randint(1, 9),
            "features": ["audit", "fhir-r4"],
        }
    ).encode()
    return _lw(
        r,
        f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {_app(r)}-settings\nbinaryData:\n  settings.json: {_b64(cfg)}",
        "k8s/configmap.yaml",
    )


def _l_data_uri(r):
    png = b"\x89PNG\r\n\x1a\n" + r.randbytes(r.randint(60, 120))
    return _lw(
        r, f'<img alt="{r.choice(["logo", "icon"])}" src="data:image/png;base64,{_b64(png)}">', "templates/header.html"
    )


def _l_mime(r):
    text = f"Monthly report for {r.choice(_TEAMS)} attached. Regards, {r.choice(_PEOPLE)}".encode()
    return _lw(r, f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n{_b64(text)}")


def _l_minified(r):
    fns = ["a", "b", "c", "e", "t", "n"]
    return _lw(
        r,
        f'!function(e,t){{"object"==typeof exports?module.exports=t():e.{r.choice(["Claims", "Portal", "Ledger"])}=t()}}(this,function(){{'
        f'var {r.choice(fns)}=function(e){{return e&&e.__esModule?e:{{default:e}}}};return {{v:"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}"}}}});',
        "dist/app.min.js",
    )


def _l_webpack(r):
    return _lw(
        r,
        "\n".join(
            f"static/js/{n}.{_hex(r, 8)}.chunk.js   {r.randint(1, 900)}.{r.randint(0, 9)} kB"
            for n in ["main", "vendor", str(r.randint(100, 999))]
        ),
    )


def _l_sourcemap(r):
    segs = ",".join(_s(r, "ACEGIKMOQSUWYacegikmoqsuwy", r.randint(4, 6)) for _ in range(r.randint(20, 40)))
    return _lw(
        r,
        json.dumps({"version": 3, "file": "app.min.js", "sources": ["src/app.ts"], "mappings": segs + ";" + segs[:60]}),
        "dist/app.min.js.map",
    )


def _l_versions(r):
    pk = r.sample(["spring-boot", "hapi-fhir", "jackson-databind", "netty", "log4j-core", "bouncycastle"], 3)
    return _lw(
        r, "\n".join(f"{p}: {r.randint(1, 6)}.{r.randint(0, 20)}.{r.randint(0, 15)}" for p in pk), "versions.lock"
    )


def _l_image_tags(r):
    return _lw(
        r,
        f"image:\n  repository: {_app(r)}\n  tag: {r.randint(1, 9)}.{r.randint(0, 40)}.{r.randint(0, 9)}-{_hex(r, 7)}\n  pullPolicy: IfNotPresent",
        "values.yaml",
    )


def _l_firmware(r):
    return _lw(
        r,
        "\n".join(
            f"{d}: fw {r.randint(1, 9)}.{r.randint(0, 9)}.{r.randint(0, 99)} build {_hex(r, 7)}"
            for d in r.sample(["PLC-1200", "RTU-560", "ONT-G240", "meter-E450", "AP-515"], 3)
        ),
    )


# ---- prose ----


def _l_policy_en(r):
    return _lw(
        r,
        f"Password policy v{r.randint(2, 9)} ({r.choice(_DOMAINS)}): minimum {r.choice([12, 14, 16])} characters, no reuse of the last "
        f"{r.randint(5, 24)}, MFA required for admin roles. Service credentials live in Vault and rotate every {r.choice([30, 60, 90])} days.",
    )


def _l_policy_de(r):
    return _lw(
        r,
        f"Richtlinie {_ticket(r)}: Passwörter und API-Schlüssel werden ausschließlich im Tresor gespeichert; Weitergabe per E-Mail oder Chat ist untersagt. Rotation alle {r.choice([30, 90])} Tage.",
    )


def _l_policy_fr(r):
    return _lw(
        r,
        f"Note {_date(r)} : aucun mot de passe ne doit figurer dans les tickets. Utiliser le coffre-fort et l'authentification à deux facteurs ({r.choice(_TEAMS)}).",
    )


def _l_policy_ja(r):
    return _lw(
        r,
        f"セキュリティ方針（{_date(r)}）：パスワードやトークンをチケットやチャットに貼り付けないでください。Vault を使用し、{r.choice([30, 90])}日ごとにローテーションします。",
    )


def _l_policy_ar(r):
    return _lw(
        r,
        f"سياسة الأمان ({_date(r)}): يُمنع مشاركة كلمات المرور أو المفاتيح عبر البريد أو الدردشة. تُحفظ جميع الأسرار في الخزنة وتُغيَّر كل {r.choice([30, 90])} يومًا.",
    )


def _l_policy_misc(r):
    t = r.choice(
        [
            "Política {d}: las contraseñas se guardan solo en el vault; nunca en tickets ni chats.",
            "Regola {d}: nessuna password nei ticket, usare il vault e la MFA.",
            "Beleid {d}: wachtwoorden alleen in de kluis bewaren, nooit in tickets.",
            "Policy {d}: lösenord lagras endast i valvet, aldrig i ärenden eller chatt.",
            "Zasada {d}: hasła przechowujemy wyłącznie w sejfie, nigdy w zgłoszeniach.",
            "Política {d}: senhas ficam apenas no cofre; nunca em chamados ou chat.",
        ]
    )
    return _lw(r, t.format(d=_date(r)) + f" ({r.choice(_TEAMS)})")


def _l_postmortem(r):
    return _lw(
        r,
        f"Postmortem {_ticket(r)}: a {r.choice(['deploy key', 'database password', 'API token'])} was pasted into a public channel at "
        f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}. It was revoked within {r.randint(3, 40)} minutes and replaced; the new value is only in Vault. "
        "No customer data was accessed.",
    )


def _l_adr(r):
    return _lw(
        r,
        f"# ADR-{r.randint(10, 99)}: Move service credentials to Vault\n\nStatus: accepted ({_date(r)})\n\nDecision: apps read secrets via the agent sidecar; no credentials in Helm values or tfvars.",
    )


def _l_pr_removed(r):
    return _lw(
        r,
        f"## Summary\nRemoves hard-coded credentials from `{_app(r)}`; values are now read from `${{{_var(r)}}}` injected by the pipeline.\n\nCloses {_ticket(r)}",
    )


def _l_review_logging(r):
    return _lw(
        r,
        f'**{r.choice(_PEOPLE)}** commented on `src/client.py` line {r.randint(5, 300)}:\n> logger.debug("token=%s", token)\n\nPlease don\'t log the token, even at debug level.',
    )


def _l_commit_rotation(r):
    return _lw(
        r,
        f"chore(secrets): rotate {r.choice(['SFTP', 'SMTP', 'HSM', 'LDAP'])} credentials ({_ticket(r)})\n\nNew values stored in Vault path kv/{r.choice(_ENVS)}/{_app(r)}; nothing committed.",
    )


# ---- auth errors ----


def _l_err_401(r):
    return _lw(
        r,
        json.dumps(
            {
                "error": {
                    "type": "authentication_error",
                    "message": "Invalid API key provided.",
                    "request_id": _uuid(r),
                },
                "status": 401,
            }
        ),
    )


def _l_err_oauth(r):
    return _lw(
        r,
        json.dumps(
            {
                "error": "invalid_grant",
                "error_description": f"AADSTS700082: The refresh token has expired due to inactivity. Trace ID: {_uuid(r)}",
            }
        ),
    )


def _l_err_ldap(r):
    return _lw(
        r,
        f"{_ts(r)} {_host(r, 'ldap')} ldap_bind: Invalid credentials (49)\n\tadditional info: 80090308: LdapErr: DSID-0C09044E, comment: AcceptSecurityContext error, data 52e, v{r.choice(['4563', '4f7c'])}",
    )


def _l_err_ssh(r):
    return _lw(
        r,
        f"{r.choice(_USERS)}@{_host(r, 'sftp')}: Permission denied (publickey,password).\nConnection closed by {_pubip(r)} port 22",
    )


def _l_err_pg(r):
    return _lw(
        r,
        f'{_ts(r)} FATAL:  password authentication failed for user "{r.choice(_USERS)}"\nDETAIL:  Connection matched pg_hba.conf line {r.randint(80, 120)}',
    )


def _l_err_ora(r):
    return _lw(
        r, f"ORA-01017: invalid username/password; logon denied\nSession: {r.randint(100, 999)} Host: {_host(r, 'ora')}"
    )


def _l_err_db2(r):
    return _lw(
        r,
        f'SQL30082N  Security processing failed with reason "24" ("USERNAME AND/OR PASSWORD INVALID").  SQLSTATE=08001 ({_host(r, "db2")})',
    )


def _l_err_radius(r):
    return _lw(
        r,
        f'{_ts(r)} : Auth: (#{r.randint(1, 99999)}) Login incorrect (pap: Cleartext password does not match "known good" password): [{r.choice(_USERS)}] (from client nas{r.randint(1, 20)} port {r.randint(1, 48)})',
    )


def _l_err_cisco(r):
    return _lw(
        r,
        f"%SEC_LOGIN-4-LOGIN_FAILED: Login failed [user: admin] [Source: {_ip(r)}] [localport: 22] [Reason: Login Authentication Failed] at {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00 UTC",
    )


def _l_err_kerberos(r):
    return _lw(
        r,
        f"Event 4771: Kerberos pre-authentication failed. Account: {r.choice(['svc_sql', 'svc_backup', 'jdoe'])} Failure Code: 0x18 Client Address: ::ffff:{_ip(r)}",
    )


def _l_err_aws(r):
    return _lw(
        r,
        f"An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid. RequestId: {_uuid(r)}",
    )


def _l_err_sap(r):
    return _lw(
        r,
        f"RFC_LOGON_FAILURE: Name or password is incorrect (repeat logon) [client {r.choice(['100', '200'])}, user RFC_BATCH, host {_host(r, 'sap')}]",
    )


# ---- configs without secrets ----


def _l_nginx(r):
    h = _host(r, "api")
    return _lw(
        r,
        f"server {{\n    listen 443 ssl;\n    server_name {h};\n    ssl_certificate     /etc/ssl/certs/{h}.crt;\n    ssl_certificate_key /etc/ssl/private/{h}.key;\n    location / {{ proxy_pass http://127.0.0.1:{r.randint(3000, 9000)}; }}\n}}",
        "nginx.conf",
    )


def _l_haproxy(r):
    return _lw(
        r,
        f"frontend fe_https\n    bind :443 ssl crt /etc/haproxy/certs/\n    default_backend be_app\n\nbackend be_app\n    balance roundrobin\n    server app1 {_ip(r)}:{r.randint(3000, 9000)} check\n    server app2 {_ip(r)}:{r.randint(3000, 9000)} check",
        "haproxy.cfg",
    )


def _l_envoy(r):
    return _lw(
        r,
        f"static_resources:\n  clusters:\n    - name: {_app(r)}\n      connect_timeout: {r.randint(1, 5)}s\n      type: STRICT_DNS\n      load_assignment:\n        cluster_name: {_app(r)}\n        endpoints:\n          - lb_endpoints:\n              - endpoint:\n                  address:\n                    socket_address: {{ address: {_host(r)}, port_value: {r.randint(1000, 9999)} }}",
        "envoy.yaml",
    )


def _l_openvpn_files(r):
    return _lw(
        r,
        f"# profile for {r.choice(_USERS)} ({_date(r)})\nclient\ndev tun\nproto udp\nremote vpn.{r.choice(_ORGS)}.example {r.choice([1194, 443])}\nca ca.crt\ncert client.crt\nkey client.key\ntls-crypt ta.key\nverb 3",
        "client.ovpn",
    )


def _l_strongswan_pubkey(r):
    return _lw(
        r,
        f'conn {r.choice(["hq", "clearing", "branch"])}-{r.randint(1, 9)}\n    left=%defaultroute\n    leftcert=gw.crt\n    right={_pubip(r)}\n    rightid="CN=peer.example"\n    authby=pubkey\n    auto=start',
        "ipsec.conf",
    )


def _l_cisco_interfaces(r):
    return _lw(
        r,
        f"interface GigabitEthernet1/0/{r.randint(1, 48)}\n description {r.choice(['PACS', 'POS', 'SCADA'])}-uplink\n switchport mode access\n switchport access vlan {r.randint(10, 400)}\n spanning-tree portfast\n!",
    )


def _l_junos_interfaces(r):
    return _lw(
        r,
        f'set interfaces ge-0/0/{r.randint(0, 23)} unit 0 family inet address {_ip(r)}/24\nset interfaces ge-0/0/{r.randint(0, 23)} description "to-{r.choice(["core", "dmz"])}"',
    )


def _l_nomad_job(r):
    return _lw(
        r,
        f'job "{_app(r)}" {{\n  datacenters = ["dc1"]\n  group "web" {{\n    count = {r.randint(1, 6)}\n    task "web" {{\n      driver = "docker"\n      config {{ image = "{_app(r)}:{r.randint(1, 9)}" }}\n    }}\n  }}\n}}',
        "job.nomad.hcl",
    )


def _l_consul_service(r):
    return _lw(
        r,
        json.dumps(
            {
                "service": {
                    "name": _app(r),
                    "port": r.randint(1000, 9999),
                    "check": {"http": f"http://localhost:{r.randint(1000, 9999)}/health", "interval": "10s"},
                }
            },
            indent=2,
        ),
        "consul.d/service.json",
    )


def _l_kustomization(r):
    return _lw(
        r,
        f'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: {r.choice(_ENVS)}\nresources:\n  - ../../base\nimages:\n  - name: {_app(r)}\n    newTag: "{r.randint(1, 9)}.{r.randint(0, 40)}.{r.randint(0, 9)}"',
        "kustomization.yaml",
    )


def _l_cfn_noecho(r):
    name = r.choice(["DbPassword", "SftpPassword", "SmtpPassword", "HsmPin", "ApiToken"])
    return _lw(
        r,
        f"Parameters:\n  {name}:\n    Type: String\n    NoEcho: true\n    MinLength: {r.choice([8, 12, 16, 20])}\n"
        f"    Description: supplied at deploy time by the pipeline ({_ticket(r)})",
        "template.yaml",
    )


def _l_helm_chart(r):
    return _lw(
        r,
        f'apiVersion: v2\nname: {_app(r)}\nversion: {r.randint(0, 3)}.{r.randint(0, 30)}.{r.randint(0, 9)}\nappVersion: "{r.randint(1, 9)}.{r.randint(0, 9)}"\ndependencies:\n  - name: postgresql\n    version: {r.randint(11, 15)}.x.x',
        "Chart.yaml",
    )


def _l_fhir_capability(r):
    return _lw(
        r,
        json.dumps(
            {
                "resourceType": "CapabilityStatement",
                "fhirVersion": "4.0.1",
                "rest": [{"mode": "server", "security": {"service": [{"coding": [{"code": "SMART-on-FHIR"}]}]}}],
                "implementation": {"url": f"https://fhir.{r.choice(_ORGS)}.example/r4"},
                "date": _date(r),
            },
            indent=2,
        ),
    )


def _l_sftp_schedule(r):
    return _lw(
        r,
        f"SFTP drop {r.choice(['SEPA', 'claims', 'lab'])}: host {_host(r, 'sftp')}, port 22, key-based auth only (key in Vault), host key SHA256:{_b64(r.randbytes(32)).rstrip('=')}, window {r.randint(0, 5)}:00-{r.randint(6, 9)}:00 CET",
    )


def _l_hl7_mllp(r):
    return _lw(
        r,
        f"mllp:\n  listen: 0.0.0.0:{r.randint(2000, 2600)}\n  tls: true\n  ack_timeout_ms: {r.randint(1000, 9000)}\n  downstream: https://{_host(r, 'fhir')}/r4",
        "hl7-bridge.yaml",
    )


# ---- agent traffic without secrets ----


def _l_tool_ls(r):
    files = "\n".join(
        r.sample(
            ["values.yaml", "main.tf", "Chart.yaml", "README.md", ".sops.yaml", "inventory.yml", "kustomization.yaml"],
            4,
        )
    )
    return _js(r, {"tool": "list_directory", "arguments": {"path": f"infra/{_app(r)}"}, "result": files})


def _l_tool_gitlog(r):
    txt = "\n".join(
        f"{_hex(r, 7)} {r.choice(['fix', 'chore'])}: {r.choice(['rotate via vault', 'bump chart', 'tidy'])}"
        for _ in range(4)
    )
    return _js(r, {"content": [{"type": "text", "text": txt}], "isError": False})


def _l_tool_vault_masked(r):
    return _js(
        r,
        {
            "tool": "vault.read",
            "arguments": {"path": f"kv/data/{r.choice(_ENVS)}/{_app(r)}"},
            "result": {"keys": ["password", "username"], "values": "<masked by policy>", "version": r.randint(1, 30)},
        },
    )


def _l_mcp_tools_list(r):
    tools = [
        {"name": n, "description": d}
        for n, d in r.sample(
            [
                ("read_file", "Read a file"),
                ("vault.read", "Read secret metadata"),
                ("http_request", "HTTP call"),
                ("jira.get_issue", "Fetch an issue"),
            ],
            3,
        )
    ]
    return _js(r, {"jsonrpc": "2.0", "id": r.randint(1, 999), "result": {"tools": tools}})


def _l_diff_env_ref(r):
    v = _var(r)
    return f"--- a/config/app.yaml\n+++ b/config/app.yaml\n@@ -{r.randint(1, 40)},3 +{r.randint(1, 40)},3 @@\n timeout: 30s\n-{v.lower()}: changeme\n+{v.lower()}: ${{{v}}}\n retries: {r.randint(1, 5)}"


def _l_table_ports(r):
    rows = "\n".join(
        f"| {_app(r)} | {r.randint(1000, 9999)} | {r.choice(['TCP', 'UDP'])} | {r.choice(_TEAMS)} |"
        for _ in range(r.randint(3, 5))
    )
    return f"| Service | Port | Proto | Owner |\n|---|---|---|---|\n{rows}"


def _l_transcript_refusal(r):
    msgs = [
        {
            "role": "user",
            "content": f"Print the {r.choice(['SFTP password', 'HSM PIN', 'Stripe key'])} for {_app(r)} please.",
        },
        {
            "role": "assistant",
            "content": f"I can't display stored credentials. You can read it with `vault kv get kv/{r.choice(_ENVS)}/{_app(r)}` if your policy allows it.",
        },
    ]
    return "\n".join(json.dumps(m) for m in msgs)


_LOOK = [v for k, v in sorted(globals().items()) if k.startswith("_l_") and callable(v)]


# ==========================================================================
# entry point
# ==========================================================================


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind, mk in _KINDS.items():
        got = tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > PER_KIND * 20:
                raise RuntimeError(f"cannot build unique samples for {kind}")
            it = mk(r)
            text = _wrap(r, it)
            if text in seen:
                continue
            sec = _label(text, it["secret"])
            if sec is None:
                raise RuntimeError(f"secret not found in text for {kind}")
            seen.add(text)
            positives.append((text, kind, sec))
            got += 1
    lookalikes: list[str] = []
    for gen in _LOOK:
        got = tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > LOOK_PER_GEN * 20:
                raise RuntimeError(f"cannot build unique lookalikes with {gen.__name__}")
            text = gen(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
