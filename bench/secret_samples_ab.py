"""Labelled test set "AB" for a secret detector over agent memories.

Theme
-----
Memories that an AI coding agent keeps for a mobile app studio and for the security consultant
it hires for penetration tests: App Store Connect / fastlane / Android signing / Firebase /
push, attribution and payment SDKs / mobile CI (Bitrise, Codemagic, EAS, App Center), and the
pentest side (engagement notes, hashes from impacket / Responder / mimikatz, hashcat and john
output, Burp requests, nmap / nuclei / sqlmap output, decompiled APK findings, report drafts).
Styles: short notes, lessons, runbooks, TODOs, tickets, client e-mails and chat (mostly English,
some French, German, Hindi, Thai, Ukrainian, Romanian and Swahili), config files (.env, plist,
gradle.properties, keystore.properties, google-services.json, Fastfile, Matchfile, eas.json,
YAML, XML, CI YAML) and tool output.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text``
  (no surrounding quotes) and each text holds exactly one secret. Every kind has 30 positives.
* ``lookalikes``: texts with no credential at all. ``_LOOK`` is a list of generator functions,
  each called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (``random.Random`` seeded from ``seed`` only); no duplicate texts in
  the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs: the
  password only (Azure connection strings: the AccountKey). Pre-signed URLs: the signature (GCS V4 signed URLs here, so no AWS key ids appear).
* PEM / OpenSSH private keys: the whole armoured block, BEGIN line to END line. When the key
  sits inside JSON (service-account files) the block is labelled in its JSON-escaped form
  (``\\n`` sequences), exactly as it appears in the text.
* An NT hash (secretsdump / mimikatz msv) is labelled as a secret, because it authenticates
  by itself (pass-the-hash). Crack-only material (NetNTLMv2 responses, Kerberos TGS / AS-REP
  hashes, DCC2, bcrypt, argon2, sha512crypt, pbkdf2 ...) is treated as password hashes, i.e.
  look-alikes. When hashcat/john output shows ``hash:plaintext`` the plaintext is the secret.
* ``Authorization: Basic`` headers: the base64 blob is the secret.
* Public-by-design values are look-alikes: publishable keys, anon keys, site keys, Sentry DSNs,
  OAuth client ids, Firebase web apiKeys / google-services.json keys, search-only keys, public
  certificates, SSH public keys, RevenueCat public SDK keys, Branch ``key_live`` keys, Mapbox
  ``pk.`` tokens, AdMob ids, Apple key ids / issuer ids / team ids.
* Vendor documentation example values, encrypted blobs (Ansible vault, sops ``ENC[...]``,
  Codemagic ``Encrypted(...)``) and redacted values are look-alikes.
* Left out entirely: bare AWS access key ids, vendor default credentials (admin/admin), Bugsnag
  notifier keys and CodePush deployment keys (shipped inside apps), Google Maps keys restricted
  to an app, FCM device registration tokens.

No token-shaped literal appears in this source: every such value is assembled at run time from
pieces and random bodies.
"""

from __future__ import annotations

import base64
import json
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
HEXL = "0123456789abcdef"
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
B64U = ALNUM + "-_"
LOWDIG = LOW + DIG
UPDIG = UP + DIG


def rs(r: random.Random, n: int, alpha: str = ALNUM) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def hx(r: random.Random, n: int) -> str:
    return rs(r, n, HEXL)


def rbytes(r: random.Random, n: int) -> bytes:
    return bytes(r.getrandbits(8) for _ in range(n))


def uid(r: random.Random, upper: bool = False) -> str:
    h = hx(r, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    s = "-".join([h[:8], h[8:12], h[12:16], h[16:20], h[20:]])
    return s.upper() if upper else s


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(r: random.Random, payload: dict, alg: str = "HS256") -> str:
    head = b64u(json.dumps({"alg": alg, "typ": "J" + "WT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = b64u(rbytes(r, 256 if alg.startswith("RS") else 32))
    return head + "." + body + "." + sig


def wrap(s: str, width: int) -> list[str]:
    return [s[i : i + width] for i in range(0, len(s), width)]


def armour(label: str, der: bytes, width: int = 64) -> list[str]:
    body = base64.b64encode(der).decode()
    return [
        "-----BEGIN " + label + "-----",
        *wrap(body, width),
        "-----END " + label + "-----",
    ]


PK = "PRIV" + "ATE KEY"


def ec_p8_lines(r: random.Random) -> list[str]:
    der = (
        bytes.fromhex("308193020100301306072a8648ce3d020106082a8648ce3d030107047930770201010420")
        + rbytes(r, 32)
        + bytes.fromhex("a00a06082a8648ce3d030107a14403420004")
        + rbytes(r, 64)
    )
    return armour(PK, der)


def pkcs8_rsa_lines(r: random.Random) -> list[str]:
    der = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100")
    return armour(PK, der + rbytes(r, 1180))


def rsa_lines(r: random.Random) -> list[str]:
    der = bytes.fromhex("308204a40201000282010100") + rbytes(r, r.choice([1180, 1182, 1188]))
    return armour("RSA " + PK, der)


def openssh_lines(r: random.Random) -> list[str]:
    der = b"openssh-key-v1\x00" + bytes.fromhex("000000046e6f6e65000000046e6f6e65") + rbytes(r, 370)
    return armour("OPENSSH " + PK, der, 70)


# ---------------------------------------------------------------- vocabulary
APPS = [
    "Fitly",
    "PocketChef",
    "TramTrack",
    "Moodloop",
    "BeanCounter",
    "SparrowPay",
    "KiddoReads",
    "HarborHealth",
    "Pawsome",
    "RideShareLite",
    "Tandem Notes",
    "Glowup Studio",
    "Jollof Express",
    "Mtaa Market",
    "Sawasdee Eats",
    "Kyiv Transit",
    "Brasov Bikes",
    "Chai Club",
]
CLIENTS = [
    "Northwind Mobile",
    "Acme Fintech",
    "Lumen Health",
    "Orbit Logistics",
    "Kestrel Bank",
    "Mango Retail",
    "Helios Insurance",
    "Savanna Telecom",
    "Bluefin Travel",
    "Carpathia Media",
]
PEOPLE = [
    "Priya",
    "Tomasz",
    "Amara",
    "Lukas",
    "Chloé",
    "Somchai",
    "Oksana",
    "Ioana",
    "Baraka",
    "Marcus",
    "Yuki",
    "Dev",
    "Fatima",
    "Jonas",
    "Nadia",
    "Arjun",
    "Wanjiru",
    "Elena",
]
WORDS = [
    "tulip",
    "rover",
    "mango",
    "falcon",
    "harbor",
    "pixel",
    "cobalt",
    "ember",
    "willow",
    "quartz",
    "sunset",
    "maple",
    "orbit",
    "cactus",
    "nimbus",
    "velvet",
    "copper",
    "lantern",
    "meadow",
    "tiger",
    "banjo",
    "walrus",
    "saffron",
    "glacier",
    "pepper",
    "zebra",
    "violet",
    "anchor",
]
DOMAINS = [
    "corp.local",
    "ACME.LOCAL",
    "kestrel.int",
    "lumen.lan",
    "HELIOS.CORP",
    "orbit.ad",
]
TICKETS = ["MOB", "SEC", "OPS", "PENT", "REL", "IOS", "AND", "INFRA"]


def app(r):
    return r.choice(APPS)


def slug(s: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in s.lower()).strip("-")


def date(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def ts(r):
    return f"{date(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"


def hhmm(r):
    return f"{r.randint(7, 22):02d}:{r.randint(0, 59):02d}"


def ticket(r):
    return f"{r.choice(TICKETS)}-{r.randint(100, 4999)}"


def ip(r):
    return f"10.{r.randint(0, 40)}.{r.randint(0, 254)}.{r.randint(2, 254)}"


def person(r):
    return r.choice(PEOPLE)


def dom(r):
    return r.choice(DOMAINS)


def user(r):
    return r.choice(
        [
            "jdoe",
            "a.smith",
            "svc_backup",
            "m.kowalski",
            "ci-bot",
            "release",
            "p.sharma",
            "o.bondar",
            "i.popescu",
            "b.otieno",
            "admin.tn",
            "svc_sql",
            "helpdesk",
        ]
    )


# ---------------------------------------------------------------- passwords
def human_pw(r: random.Random, urlsafe: bool = False) -> str:
    while True:
        c = r.randrange(6)
        if c == 0:
            pw = r.choice(WORDS).capitalize() + str(r.randint(2019, 2027)) + r.choice("!#$*?")
        elif c == 1:
            pw = f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
        elif c == 2:
            pw = rs(r, r.randint(16, 24), ALNUM + "!#%^*_-=+")
        elif c == 3:
            pw = r.choice(".-_").join(r.choice(WORDS) for _ in range(4))
        elif c == 4:
            w = r.choice(WORDS).capitalize().replace("a", "@").replace("o", "0").replace("e", "3")
            pw = w + str(r.randint(1, 999)) + r.choice("!$&")
        else:
            pw = (
                r.choice(["Summer", "Winter", "Spring", "Autumn", "Welcome", "Company"])
                + str(r.randint(2020, 2027))
                + r.choice(["!", "!!", "#", "@1", "."])
            )
        if urlsafe and any(ch in pw for ch in "@:/#?%&$!*+=^ "):
            continue
        if len(pw) >= 8:
            return pw


def urlpw(r):
    return human_pw(r, urlsafe=True)


# ---------------------------------------------------------------- generic templates
# each template: (tags, fn(r, kind, secret) -> text); tags: "any", "bearer", "single"


def _env(k):
    return k["env"]


def _camel(k):
    parts = k["env"].lower().split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


GENERIC = [
    lambda r, k, s: json.dumps(
        {
            "build": {
                "production": {
                    "env": {_env(k): s, "APP_VARIANT": "production"},
                    "channel": "production",
                }
            }
        },
        indent=2,
    ),
    lambda r, k, s: (
        f"# local.properties (not in git?)\nsdk.dir=/Users/{person(r).lower()}/Library/Android/sdk\n{_camel(k)}={s}"
    ),
    lambda r, k, s: (
        f'# Fastfile\nENV["{_env(k)}"] ||= "{s}"\n\nlane :beta do\n  build_app(scheme: "{app(r).replace(" ", "")}")\nend'
    ),
    lambda r, k, s: f"# bitrise.yml\napp:\n  envs:\n  - {_env(k)}: {s}\n    opts:\n      is_expand: false",
    lambda r, k, s: f"{k['label']} for {app(r)}: {s}",
    lambda r, k, s: (
        f"Lesson learned ({date(r)}): never paste the {k['label']} into the team channel again. "
        f"Current value {s} is now only in 1Password, vault '{r.choice(CLIENTS)}'."
    ),
    lambda r, k, s: f"- [ ] rotate {k['label']} ({s}) before the {date(r)} release of {app(r)}",
    lambda r, k, s: f"# {app(r)} .env.production\nAPP_ENV=production\n{_env(k)}={s}\nLOG_LEVEL=info",
    lambda r, k, s: f"{slug(app(r))}:\n  environment: production\n  {_env(k).lower()}: {s}\n  region: eu-west-1",
    lambda r, k, s: json.dumps({"app": app(r), "env": "prod", _camel(k): s}, indent=2),
    lambda r, k, s: f"export {_env(k)}='{s}'   # from {person(r)}, {date(r)}",
    lambda r, k, s: (
        f"{ticket(r)}: {k['label']} visible in build log\nValue: {s}\nAction: revoke, move to CI "
        f"secrets, re-run pipeline"
    ),
    lambda r, k, s: (
        f"[{hhmm(r)}] {person(r)}: here is the {k['label']} for staging {s}\n"
        f"[{hhmm(r)}] {person(r)}: thanks, adding it to Bitrise secrets now"
    ),
    lambda r, k, s: (
        f"Hi {person(r)},\n\nAs requested, the {k['label']} for {app(r)} is:\n\n{s}\n\n"
        f"Please delete this e-mail once stored.\n\nBest,\n{person(r)} | {r.choice(CLIENTS)}"
    ),
    lambda r, k, s: (
        f"[{ts(r)}] Setting env {_env(k)}={s}\n[{ts(r)}] $ bundle exec fastlane {r.choice(['beta', 'release', 'ci'])}"
    ),
    lambda r, k, s: f"Note : la clé {k['label']} du client {r.choice(CLIENTS)} est {s} — ne pas la commiter.",
    lambda r, k, s: f"Notiz: {k['label']} für {app(r)} lautet {s}. Bitte nach dem Release rotieren.",
    lambda r, k, s: f"याद रखें: {app(r)} का {k['label']} {s} है, इसे repo में commit न करें।",
    lambda r, k, s: f"บันทึก: {k['label']} ของแอป {app(r)} คือ {s} ห้ามแชร์ในกลุ่ม LINE",
    lambda r, k, s: f"Нотатка: {k['label']} для {app(r)}: {s}. Не комітити в репозиторій!",
    lambda r, k, s: f"Notă: {k['label']} pentru {app(r)} este {s}. Nu-l pune în git.",
    lambda r, k, s: f"Kumbuka: {k['label']} ya {app(r)} ni {s}. Usiiweke kwenye git.",
    lambda r, k, s: (
        f"Runbook – hotfix release {app(r)}\n1. unlock login keychain\n2. {_env(k)}={s}\n"
        f"3. bundle exec fastlane release\n4. watch Crashlytics for 1h"
    ),
    lambda r, k, s: (
        f"Finding F-{r.randint(1, 40):02d} ({r.choice(CLIENTS)}): hardcoded {k['label']} in decompiled "
        f"APK (jadx, {r.choice(['res/values/strings.xml', 'BuildConfig.java', 'assets/config.json'])}): {s}"
    ),
    lambda r, k, s: f'object Secrets {{\n    const val {_env(k)} = "{s}"\n}}',
    lambda r, k, s: f'<string name="{_env(k).lower()}">{s}</string>',
    lambda r, k, s: f"jobs:\n  build:\n    runs-on: macos-14\n    env:\n      {_env(k)}: {s}  # TODO move to secrets",
    lambda r, k, s: f"docker run --rm -e {_env(k)}={s} {slug(app(r))}/api:{r.randint(1, 9)}.{r.randint(0, 30)}",
    lambda r, k, s: f"# gradle.properties\norg.gradle.jvmargs=-Xmx4g\n{_camel(k)}={s}",
    lambda r, k, s: f"<key>{_env(k)}</key>\n<string>{s}</string>",
    lambda r, k, s: (
        f"Decision {date(r)}: {k['label']} stays in EAS/Bitrise secrets only. "
        f"Value still active until next rotation: {s}"
    ),
]
BEARER = [
    lambda r, k, s: f"curl -s -H 'Authorization: Bearer {s}' https://api.{slug(app(r))}.io/v1/me",
    lambda r, k, s: (
        f"GET /api/v2/{r.choice(['projects', 'apps', 'builds'])} HTTP/1.1\nHost: api.{slug(app(r))}.com\n"
        f"Authorization: Bearer {s}\nUser-Agent: okhttp/4.12.0"
    ),
    lambda r, k, s: f"D/OkHttp ( {r.randint(2000, 30000)}): Authorization: Bearer {s}",
]


# ---------------------------------------------------------------- secret generators
def g_app_pw(r):
    return "-".join(rs(r, 4, LOW) for _ in range(4))


def g_stripe(prefix):
    def g(r):
        return prefix + (rs(r, 24) if r.random() < 0.4 else "51" + rs(r, 97))

    return g


def g_github(r):
    if r.random() < 0.7:
        return "gh" + "p_" + rs(r, 36)
    return "github" + "_pat_" + rs(r, 22, UPDIG) + "_" + rs(r, 59)


def g_git_pw(r):
    c = r.randrange(4)
    if c == 0:
        return g_github(r) if r.random() < 0.5 else "gh" + "p_" + rs(r, 36)
    if c == 1:
        return "gl" + "pat-" + rs(r, 20, B64U)
    if c == 2:
        return "AT" + "BB" + rs(r, 28) + hx(r, 8).upper()
    return urlpw(r)


def g_mapbox(r):
    payload = b64u(json.dumps({"u": slug(app(r)), "a": rs(r, 25, LOWDIG)}, separators=(",", ":")).encode())
    return "s" + "k." + payload + "." + rs(r, 22, B64U)


def g_supabase_service(r):
    return jwt(
        r,
        {
            "iss": "supabase",
            "ref": rs(r, 20, LOW),
            "role": "service_" + "role",
            "iat": r.randint(1_600_000_000, 1_750_000_000),
            "exp": r.randint(1_900_000_000, 2_100_000_000),
        },
    )


def g_appsflyer(r):
    return jwt(
        r,
        {
            "nbf": r.randint(1_600_000_000, 1_750_000_000),
            "api_v2": True,
            "account_id": uid(r),
            "user_id": uid(r),
        },
        "RS256",
    )


def g_access_jwt(r):
    return jwt(
        r,
        {
            "sub": str(r.randint(10000, 9999999)),
            "email": f"{person(r).lower()}@{slug(r.choice(CLIENTS))}.com",
            "scope": r.choice(["openid profile", "read:orders write:orders", "user"]),
            "iat": r.randint(1_760_000_000, 1_790_000_000),
            "exp": r.randint(1_790_000_000, 1_800_000_000),
        },
        r.choice(["RS256", "HS256"]),
    )


def g_onesignal(r):
    if r.random() < 0.5:
        return "os" + "_v2_app_" + rs(r, 113, LOW + "234567")
    return rs(r, 48)


def g_fcm(r):
    return "AA" + "AA" + rs(r, 7, B64U) + ":APA91" + "b" + rs(r, 134, B64U)


def g_paypal(r):
    return r.choice("EA") + rs(r, 79, B64U)


def g_openai(r):
    return "sk-" + "proj-" + rs(r, 74, B64U) + "T3Blbk" + "FJ" + rs(r, 74, B64U)


def g_mailgun(r):
    return "key-" + hx(r, 32) if r.random() < 0.5 else hx(r, 32) + "-" + hx(r, 8) + "-" + hx(r, 8)


def g_basic_header(r):
    return base64.b64encode(f"{user(r)}:{human_pw(r)}".encode()).decode()


def g_match_basic(r):
    return base64.b64encode(f"{r.choice(['ci-bot', 'studio-release', 'match'])}:{g_github(r)}".encode()).decode()


def g_slack_bot(r):
    return "xo" + "xb-" + str(r.randint(10**10, 10**11)) + "-" + str(r.randint(10**12, 10**13)) + "-" + rs(r, 24)


def g_telegram(r):
    return str(r.randint(10**9, 8 * 10**9)) + ":AA" + rs(r, 33, B64U)


def g_firebase_cli(r):
    return "1//" + "0" + r.choice("ge") + rs(r, 98, B64U)


def g_ya29(r):
    return "ya" + "29." + "a0A" + rs(r, 160, B64U)


def g_cookie(r):
    c = r.randrange(3)
    if c == 0:
        return hx(r, 32).upper()
    if c == 1:
        return "s%3A" + rs(r, 32, B64U) + "." + rs(r, 43, B64)
    return b64u(rbytes(r, 48))


GSA = "gsa"


def _gsa_block(r):
    return "\\n".join(pkcs8_rsa_lines(r)) + "\\n"


KINDS: list[dict] = []


def kind(name, gen, label, env, bearer=False, generic=True, specific=()):
    KINDS.append(
        {
            "name": name,
            "gen": gen,
            "label": label,
            "env": env,
            "bearer": bearer,
            "generic": generic,
            "specific": list(specific),
        }
    )


# ---- Apple / fastlane
def _asc_specific():
    def p8file(r, s):
        kid = rs(r, 10, UPDIG)
        return f"$ cat ~/keys/AuthKey_{kid}.p8\n{s}"

    def note(r, s):
        return (
            f"App Store Connect API key for {app(r)} CI (Key ID {rs(r, 10, UPDIG)}, issuer "
            f"{uid(r)}), role App Manager:\n{s}\nDo not re-download, Apple only lets you once."
        )

    def fast(r, s):
        return (
            f'# Fastfile\napp_store_connect_api_key(\n  key_id: "{rs(r, 10, UPDIG)}",\n  '
            f'issuer_id: "{uid(r)}",\n  key_content: <<~P8\n{s}\n  P8\n)'
        )

    def email(r, s):
        return (
            f"Bonjour {person(r)},\n\nVoici la clé API App Store Connect (fichier .p8) :\n\n{s}\n\n"
            f"Key ID : {rs(r, 10, UPDIG)}\nCordialement"
        )

    return [p8file, note, fast, email]


kind(
    "app_store_connect_api_key",
    lambda r: "\n".join(ec_p8_lines(r)),
    "App Store Connect .p8 key",
    "ASC_KEY",
    generic=False,
    specific=_asc_specific(),
)
kind(
    "apple_app_specific_password",
    g_app_pw,
    "Apple app-specific password",
    "FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD",
    specific=[
        lambda r, s: f"xcrun altool --upload-app -f build/{slug(app(r))}.ipa -u release@{slug(app(r))}.app -p {s}",
        lambda r, s: (
            f"xcrun notarytool store-credentials ci --apple-id dev@studio.io --team-id {rs(r, 10, UPDIG)} --password {s}"
        ),
    ],
)
kind(
    "apple_id_password",
    human_pw,
    "Apple ID password (release account)",
    "FASTLANE_PASSWORD",
    specific=[lambda r, s: f"Apple ID release@{slug(app(r))}.app / {s} (2FA on {person(r)}'s iPhone)"],
)
kind(
    "fastlane_match_password",
    lambda r: human_pw(r),
    "fastlane match passphrase",
    "MATCH_PASSWORD",
    specific=[
        lambda r, s: (
            f'# Matchfile\ngit_url("git@github.com:studio/certificates.git")\ntype("appstore")\n# passphrase: {s}'
        ),
        lambda r, s: (
            f"[!] Passphrase for Match storage: {s}\n[{hhmm(r)}:01]: 🔓  Successfully decrypted certificates repo"
        ),
    ],
)
kind(
    "match_git_basic_authorization",
    g_match_basic,
    "match git basic authorization",
    "MATCH_GIT_BASIC_AUTHORIZATION",
)


def _git_url_spec():
    return [
        lambda r, s: (
            f'# Matchfile\ngit_url("https://ci-bot:{s}@github.com/{slug(r.choice(CLIENTS))}/certificates.git")\nstorage_mode("git")'
        ),
        lambda r, s: (
            f"$ git clone https://x-access-token:{s}@github.com/studio/{slug(app(r))}-certs.git\nCloning into '{slug(app(r))}-certs'..."
        ),
        lambda r, s: f"MATCH_GIT_URL=https://release:{s}@gitlab.com/studio/ios-certs.git",
        lambda r, s: f'[url "https://{user(r)}:{s}@bitbucket.org/"]\n\tinsteadOf = https://bitbucket.org/',
        lambda r, s: f"remote: origin https://{user(r)}:{s}@git.{slug(r.choice(CLIENTS))}.com/mobile/app.git (fetch)",
    ]


kind("git_https_url_password", g_git_pw, "", "", generic=False, specific=_git_url_spec())

# ---- Android signing
kind(
    "android_keystore_password",
    human_pw,
    "Android upload keystore password",
    "KEYSTORE_PASSWORD",
    specific=[
        lambda r, s: f"# keystore.properties\nstoreFile=../keys/upload.jks\nstorePassword={s}\nkeyAlias=upload",
        lambda r, s: (
            f'signingConfigs {{\n    release {{\n        storeFile file("release.keystore")\n        storePassword "{s}"\n        keyAlias "{slug(app(r))}"\n    }}\n}}'
        ),
        lambda r, s: f"keytool -list -v -keystore upload-keystore.jks -storepass {s}",
    ],
)
kind(
    "android_key_password",
    human_pw,
    "Android release key password",
    "KEY_PASSWORD",
    specific=[
        lambda r, s: f"# keystore.properties\nkeyAlias=release\nkeyPassword={s}\nstoreFile=release.jks",
        lambda r, s: (
            f"./gradlew bundleRelease -Pandroid.injected.signing.key.alias=upload -Pandroid.injected.signing.key.password={s}"
        ),
    ],
)


def _gsa_spec():
    def play(r, s):
        pid = f"{slug(app(r))}-{r.randint(100000, 999999)}"
        return (
            '{\n  "type": "service_account",\n  "project_id": "'
            + pid
            + '",\n  "private_key_id": "'
            + hx(r, 40)
            + '",\n  "private_key": "'
            + s
            + '",\n  "client_email": "play-publisher@'
            + pid
            + '.iam.gserviceaccount.com"\n}'
        )

    def fb(r, s):
        pid = f"{slug(app(r))}-prod"
        return (
            f"firebase-adminsdk-{rs(r, 5, LOWDIG)}.json (found in public S3 bucket {slug(r.choice(CLIENTS))}-backups):\n"
            '  "private_key": "' + s + '",\n  "client_email": "firebase-adminsdk@' + pid + '.iam.gserviceaccount.com"'
        )

    def ci(r, s):
        return f'[{ts(r)}] GOOGLE_PLAY_JSON_KEY_DATA={{"type":"service_account","private_key":"{s}"}}'

    return [play, fb, ci]


kind(
    "google_service_account_private_key",
    _gsa_block,
    "",
    "",
    generic=False,
    specific=_gsa_spec(),
)

# ---- Firebase / push / attribution
kind(
    "fcm_legacy_server_key",
    g_fcm,
    "FCM legacy server key",
    "FCM_SERVER_KEY",
    specific=[
        lambda r, s: (
            f"curl -X POST https://fcm.googleapis.com/fcm/send -H \"Authorization: key={s}\" -H 'Content-Type: application/json' -d @push.json"
        ),
    ],
)
kind(
    "onesignal_rest_api_key",
    g_onesignal,
    "OneSignal REST API key",
    "ONESIGNAL_REST_API_KEY",
    specific=[
        lambda r, s: (
            f"curl https://onesignal.com/api/v1/notifications -H 'Authorization: Key {s}' -d '{{\"app_id\":\"{uid(r)}\"}}'"
        ),
    ],
)
kind(
    "revenuecat_secret_api_key",
    lambda r: "s" + "k_" + rs(r, 32),
    "RevenueCat secret API key",
    "REVENUECAT_SECRET_KEY",
    bearer=True,
)
kind(
    "adjust_api_token",
    lambda r: rs(r, 20),
    "Adjust API token",
    "ADJUST_API_TOKEN",
    bearer=True,
)
kind(
    "appsflyer_api_token",
    g_appsflyer,
    "AppsFlyer API V2 token",
    "APPSFLYER_API_TOKEN",
    bearer=True,
)
kind(
    "branch_key_secret",
    lambda r: "secret" + "_live_" + rs(r, 32),
    "Branch secret key",
    "BRANCH_SECRET",
)
kind(
    "sentry_auth_token",
    lambda r: ("sntry" + "u_" + hx(r, 64)) if r.random() < 0.6 else hx(r, 64),
    "Sentry auth token",
    "SENTRY_AUTH_TOKEN",
    bearer=True,
    specific=[
        lambda r, s: (
            f"# sentry.properties\ndefaults.org={slug(r.choice(CLIENTS))}\ndefaults.project={slug(app(r))}-ios\nauth.token={s}"
        ),
    ],
)
kind(
    "expo_access_token",
    lambda r: rs(r, 40, B64U),
    "Expo robot access token",
    "EXPO_TOKEN",
    bearer=True,
    specific=[
        lambda r, s: f"EXPO_TOKEN={s} eas build --platform all --non-interactive --profile production",
    ],
)
kind(
    "appcenter_api_token",
    lambda r: hx(r, 40),
    "App Center API token",
    "APPCENTER_API_TOKEN",
    specific=[
        lambda r, s: f"appcenter codepush release-react -a studio/{slug(app(r))}-ios -d Production --token {s}",
        lambda r, s: f"curl -H 'X-API-Token: {s}' https://api.appcenter.ms/v0.1/apps/studio/{slug(app(r))}/releases",
    ],
)
kind(
    "bitrise_access_token",
    lambda r: rs(r, 86, B64U),
    "Bitrise personal access token",
    "BITRISE_TOKEN",
    bearer=True,
)
kind(
    "codemagic_api_token",
    lambda r: rs(r, 43, B64U),
    "Codemagic API token",
    "CM_API_TOKEN",
    specific=[
        lambda r, s: f"curl -H 'x-auth-token: {s}' https://api.codemagic.io/builds -d '{{\"appId\":\"{hx(r, 24)}\"}}'",
    ],
)
kind(
    "mapbox_secret_token",
    g_mapbox,
    "Mapbox secret downloads token",
    "MAPBOX_DOWNLOADS_TOKEN",
    specific=[
        lambda r, s: f"# ~/.netrc\nmachine api.mapbox.com\n  login mapbox\n  password {s}",
        lambda r, s: f"# gradle.properties\nMAPBOX_DOWNLOADS_TOKEN={s}",
    ],
)
kind(
    "google_api_key_server",
    lambda r: "AI" + "za" + rs(r, 35, B64U),
    "unrestricted Google Places server key",
    "GOOGLE_PLACES_SERVER_KEY",
    specific=[
        lambda r, s: (
            f"Key has NO application restriction: curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Nairobi&key={s}' -> 200 OK, billed to client"
        ),
    ],
)

# ---- payments / auth / backend
kind(
    "stripe_secret_key",
    g_stripe("s" + "k_live_"),
    "Stripe live secret key",
    "STRIPE_SECRET_KEY",
    bearer=True,
    specific=[
        lambda r, s: f"curl https://api.stripe.com/v1/charges -u {s}: -d amount={r.randint(100, 9999)} -d currency=eur",
    ],
)
kind(
    "stripe_restricted_key",
    g_stripe("r" + "k_live_"),
    "Stripe restricted key",
    "STRIPE_RESTRICTED_KEY",
    bearer=True,
)
kind(
    "stripe_webhook_secret",
    lambda r: "wh" + "sec_" + rs(r, 32),
    "Stripe webhook signing secret",
    "STRIPE_WEBHOOK_SECRET",
)
kind(
    "braintree_private_key",
    lambda r: hx(r, 32),
    "Braintree private key",
    "BRAINTREE_PRIVATE_KEY",
    specific=[
        lambda r, s: (
            f'gateway = braintree.BraintreeGateway(braintree.Configuration(\n    braintree.Environment.Production,\n    merchant_id="{rs(r, 16, LOWDIG)}",\n    public_key="{rs(r, 16, LOWDIG)}",\n    private_key="{s}"))'
        ),
    ],
)
kind(
    "braintree_access_token",
    lambda r: "access_token$production$" + rs(r, 16, LOWDIG) + "$" + hx(r, 32),
    "Braintree access token",
    "BRAINTREE_ACCESS_TOKEN",
)
kind(
    "paypal_client_secret",
    g_paypal,
    "PayPal live client secret",
    "PAYPAL_CLIENT_SECRET",
)
kind(
    "auth0_client_secret",
    lambda r: rs(r, 64, B64U),
    "Auth0 client secret",
    "AUTH0_CLIENT_SECRET",
    specific=[
        lambda r, s: (
            f"curl --request POST --url https://{slug(r.choice(CLIENTS))}.eu.auth0.com/oauth/token --data 'grant_type=client_credentials&client_id={rs(r, 32)}&client_secret={s}'"
        ),
    ],
)
kind(
    "supabase_service_role_key",
    g_supabase_service,
    "Supabase service_role key",
    "SUPABASE_SERVICE_ROLE_KEY",
    bearer=True,
)
kind(
    "aws_secret_access_key",
    lambda r: rs(r, 40, B64),
    "AWS secret access key (Amplify deploy user)",
    "AWS_SECRET_ACCESS_KEY",
    specific=[lambda r, s: f"[amplify-deploy]\nregion = eu-central-1\naws_secret_access_key = {s}"],
)
kind(
    "cognito_app_client_secret",
    lambda r: rs(r, 52, LOWDIG),
    "Cognito app client secret",
    "COGNITO_CLIENT_SECRET",
)
kind(
    "github_token",
    g_github,
    "GitHub token for the certificates repo",
    "GITHUB_TOKEN",
    bearer=True,
)
kind(
    "gitlab_token",
    lambda r: "gl" + "pat-" + rs(r, 20, B64U),
    "GitLab personal access token",
    "GITLAB_TOKEN",
    specific=[
        lambda r, s: (
            f"curl --header 'PRIVATE-TOKEN: {s}' https://gitlab.com/api/v4/projects/{r.randint(1000, 99999999)}/pipelines"
        ),
    ],
)


def _slack_hook(r, s):
    return "https://hooks." + "slack.com/services/T" + rs(r, 8, UPDIG) + "/B" + rs(r, 10, UPDIG) + "/" + s


def _discord_hook(r, s):
    return "https://discord.com/api/" + "webhooks/" + str(r.randint(10**17, 10**18)) + "/" + s


kind(
    "slack_webhook_url",
    lambda r: rs(r, 24),
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: f'# Fastfile\nslack(message: "New TestFlight build", slack_url: "{_slack_hook(r, s)}")',
        lambda r, s: f"SLACK_URL={_slack_hook(r, s)}",
        lambda r, s: f"Bitrise step 'Send a Slack message': webhook_url = {_slack_hook(r, s)}",
        lambda r, s: (
            f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"build ok\"}}' {_slack_hook(r, s)}"
        ),
        lambda r, s: f"Notă: webhook-ul Slack pentru #releases: {_slack_hook(r, s)}",
    ],
)
kind(
    "discord_webhook_url",
    lambda r: rs(r, 68, B64U),
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: f"DISCORD_WEBHOOK={_discord_hook(r, s)}",
        lambda r, s: (
            f"codemagic.yaml publishing:\n  scripts:\n    - curl -H 'Content-Type: application/json' -d '{{\"content\":\"build\"}}' {_discord_hook(r, s)}"
        ),
        lambda r, s: f"Beta testers channel hook (Kumbuka): {_discord_hook(r, s)}",
    ],
)
kind(
    "slack_bot_token",
    g_slack_bot,
    "Slack bot token (release bot)",
    "SLACK_BOT_TOKEN",
    bearer=True,
)
kind(
    "telegram_bot_token",
    g_telegram,
    "Telegram bot token for build alerts",
    "TELEGRAM_BOT_TOKEN",
    specific=[
        lambda r, s: (
            f"curl -s https://api.telegram.org/bot{s}/sendMessage -d chat_id=-{r.randint(10**12, 10**13)} -d text='IPA uploaded'"
        ),
    ],
)
kind(
    "npm_token",
    lambda r: "np" + "m_" + rs(r, 36),
    "npm automation token",
    "NPM_TOKEN",
    specific=[
        lambda r, s: f"# .npmrc\n@studio:registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={s}",
    ],
)
kind(
    "docker_hub_token",
    lambda r: "dckr" + "_pat_" + rs(r, 27, B64U),
    "Docker Hub access token",
    "DOCKERHUB_TOKEN",
    specific=[
        lambda r, s: f"echo {s} | docker login -u studioci --password-stdin",
    ],
)
kind(
    "google_oauth_client_secret",
    lambda r: "GOC" + "SPX-" + rs(r, 28, B64U),
    "Google OAuth client secret",
    "GOOGLE_CLIENT_SECRET",
)
kind(
    "firebase_cli_token",
    g_firebase_cli,
    "Firebase CLI CI token",
    "FIREBASE_TOKEN",
    specific=[
        lambda r, s: (
            f"firebase appdistribution:distribute app-release.apk --app 1:{r.randint(10**11, 10**12)}:android:{hx(r, 16)} --token {s}"
        ),
    ],
)
kind(
    "google_oauth_access_token",
    g_ya29,
    "Google OAuth access token",
    "GOOGLE_ACCESS_TOKEN",
    bearer=True,
)
kind(
    "twilio_auth_token",
    lambda r: hx(r, 32),
    "Twilio auth token (OTP SMS)",
    "TWILIO_AUTH_TOKEN",
)
kind(
    "sendgrid_api_key",
    lambda r: "S" + "G." + rs(r, 22, B64U) + "." + rs(r, 43, B64U),
    "SendGrid API key",
    "SENDGRID_API_KEY",
    bearer=True,
)
kind(
    "openai_api_key",
    g_openai,
    "OpenAI API key found in the app bundle",
    "OPENAI_API_KEY",
    bearer=True,
)
kind(
    "algolia_admin_api_key",
    lambda r: hx(r, 32),
    "Algolia Admin API key",
    "ALGOLIA_ADMIN_KEY",
    specific=[
        lambda r, s: (
            f"curl -H 'X-Algolia-API-Key: {s}' -H 'X-Algolia-Application-Id: {rs(r, 10, UPDIG)}' https://{rs(r, 10, UPDIG)}.algolia.net/1/keys"
        ),
    ],
)
kind(
    "mailgun_api_key",
    g_mailgun,
    "Mailgun API key",
    "MAILGUN_API_KEY",
    specific=[
        lambda r, s: f"curl -s --user 'api:{s}' https://api.eu.mailgun.net/v3/mg.{slug(app(r))}.com/messages",
    ],
)


def _azure_cs(r, s):
    return (
        f"DefaultEndpointsProtocol=https;AccountName={slug(app(r)).replace('-', '')}media;AccountKey={s};"
        "EndpointSuffix=core.windows.net"
    )


kind(
    "azure_storage_account_key",
    lambda r: rs(r, 86, B64) + "==",
    "Azure storage account key",
    "AZURE_STORAGE_KEY",
    specific=[
        lambda r, s: f"AZURE_STORAGE_CONNECTION_STRING={_azure_cs(r, s)}",
        lambda r, s: f'Found in APK assets/appsettings.json: "{_azure_cs(r, s)}"',
        lambda r, s: f'<add key="StorageConnection" value="{_azure_cs(r, s)}" />',
    ],
)


def _presigned(r, s):
    b = f"{slug(r.choice(CLIENTS))}-{r.choice(['uploads', 'exports', 'kyc-docs', 'backups'])}"
    sa = f"{r.choice(['uploader', 'signer', 'backend'])}%40{slug(app(r))}-prod.iam.gserviceaccount.com"
    return (
        f"https://storage.googleapis.com/{b}/{uid(r)}.pdf?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        f"&X-Goog-Credential={sa}%2F20261203%2Fauto%2Fstorage%2Fgoog4_request"
        f"&X-Goog-Date=20261203T{r.randint(100000, 235959)}Z&X-Goog-Expires=604800&X-Goog-SignedHeaders=host"
        f"&X-Goog-Signature={s}"
    )


kind(
    "presigned_url_signature",
    lambda r: hx(r, 512),
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: (
            f"IDOR: /api/documents/{r.randint(100, 9999)} returns another user's file link:\n{_presigned(r, s)}"
        ),
        lambda r, s: f"D/Upload ( {r.randint(1000, 9999)}): PUT {_presigned(r, s)}",
        lambda r, s: f"Shared by support in ticket {ticket(r)}: {_presigned(r, s)}",
    ],
)

# ---- pentest captures
kind(
    "jwt_access_token",
    g_access_jwt,
    "captured JWT access token",
    "ACCESS_TOKEN",
    bearer=True,
    specific=[
        lambda r, s: (
            f"Burp > Proxy > HTTP history #{r.randint(10, 900)}\nPOST /v1/orders HTTP/2\nHost: api.{slug(r.choice(CLIENTS))}.com\nAuthorization: Bearer {s}\nContent-Type: application/json"
        ),
        lambda r, s: (
            f'JWT from the app\'s SharedPreferences (auth_prefs.xml): <string name="access_token">{s}</string>'
        ),
    ],
)


def _cookie_name(s):
    return "JSESSIONID" if len(s) == 32 else ("connect.sid" if s.startswith("s%3A") else "session")


kind(
    "session_cookie",
    g_cookie,
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: (
            f"GET /admin/users HTTP/1.1\nHost: portal.{slug(r.choice(CLIENTS))}.com\nCookie: {_cookie_name(s)}={s}; lang=en\nUser-Agent: Mozilla/5.0"
        ),
        lambda r, s: (
            f"< HTTP/1.1 302 Found\n< Set-Cookie: {_cookie_name(s)}={s}; Path=/; HttpOnly\n< Location: /dashboard"
        ),
        lambda r, s: (
            f"Session fixation confirmed: admin session still valid after logout, cookie {_cookie_name(s)}={s}"
        ),
        lambda r, s: f"ZAP > Alerts > Cookie without SameSite: Set-Cookie: {_cookie_name(s)}={s}",
    ],
)
kind(
    "postgres_password",
    urlpw,
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: (
            f"DATABASE_URL=postgresql://postgres.{rs(r, 20, LOW)}:{s}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres"
        ),
        lambda r, s: f'psql "postgres://{user(r)}:{s}@{ip(r)}:5432/{slug(app(r))}"',
        lambda r, s: (
            f"Found in .git/config history of backend repo: postgres://app:{s}@db.{slug(r.choice(CLIENTS))}.internal/prod"
        ),
    ],
)
kind(
    "mongodb_password",
    urlpw,
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: (
            f"MONGO_URI=mongodb+srv://{slug(app(r))}:{s}@cluster0.{rs(r, 5, LOWDIG)}.mongodb.net/prod?retryWrites=true"
        ),
        lambda r, s: f"strings libapp.so | grep mongo\nmongodb://admin:{s}@{ip(r)}:27017/admin",
    ],
)
kind(
    "redis_password",
    urlpw,
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: (
            f"REDIS_URL=redis://default:{s}@redis-{r.randint(10000, 19999)}.c1.eu-west-1-2.ec2.cloud.redislabs.com:{r.randint(10000, 19999)}"
        ),
        lambda r, s: f"# redis.conf\nbind 0.0.0.0\nrequirepass {s}",
        lambda r, s: f"redis-cli -h {ip(r)} -a '{s}' CONFIG GET dir",
    ],
)
kind(
    "mssql_password",
    urlpw,
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: f"Server=tcp:{ip(r)},1433;Database=Loyalty;User Id=sa;Password={s};TrustServerCertificate=True;",
        lambda r, s: f"sqlmap -d 'mssql://sa:{s}@{ip(r)}:1433/master' --os-shell",
        lambda r, s: f"impacket-mssqlclient sa:'{s}'@{ip(r)} -windows-auth",
    ],
)
kind(
    "http_basic_auth_header",
    g_basic_header,
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: f"GET /manager/html HTTP/1.1\nHost: {ip(r)}:8080\nAuthorization: Basic {s}",
        lambda r, s: (
            f"> GET /actuator/env HTTP/1.1\n> Host: staging.{slug(r.choice(CLIENTS))}.com\n> Authorization: Basic {s}\n> User-Agent: curl/8.5.0"
        ),
        lambda r, s: f'decompiled ApiClient.kt: addHeader("Authorization", "Basic {s}")',
    ],
)
kind(
    "openssh_private_key",
    lambda r: "\n".join(openssh_lines(r)),
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: f"Deploy key for the match certificates repo (read/write!):\n{s}",
        lambda r, s: f"$ cat /home/{user(r)}/.ssh/id_ed25519\n{s}",
        lambda r, s: f"Found on jump host {ip(r)} (world-readable):\n{s}",
    ],
)
kind(
    "rsa_private_key",
    lambda r: "\n".join(rsa_lines(r)),
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: f"apktool d {slug(app(r))}.apk -> assets/certs/client.key:\n{s}",
        lambda r, s: f"Clé privée trouvée dans le bucket S3 public :\n{s}",
        lambda r, s: f"{ticket(r)}: mTLS key committed to repo\n{s}",
    ],
)


def _sd_line(r, s):
    return f"{user(r)}:{r.randint(500, 5000)}:aad3b435b51404ee" + f"aad3b435b51404ee:{s}:::"


kind(
    "ntlm_hash",
    lambda r: hx(r, 32),
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: (
            f"$ impacket-secretsdump {dom(r)}/{user(r)}@{ip(r)}\n[*] Dumping local SAM hashes (uid:rid:lmhash:nthash)\n{_sd_line(r, s)}"
        ),
        lambda r, s: (
            f"mimikatz # sekurlsa::logonpasswords\n\t msv :\n\t [00000003] Primary\n\t * Username : {user(r)}\n\t * Domain   : {dom(r).split('.')[0].upper()}\n\t * NTLM     : {s}"
        ),
        lambda r, s: f"PtH works: nxc smb {ip(r)}/24 -u Administrator -H {s} --local-auth  -> Pwn3d! on 4 hosts",
        lambda r, s: f"Engagement note {date(r)}: local admin NT hash reused across kiosks: {s}",
    ],
)


def _hc_hash(r):
    c = r.randrange(3)
    if c == 0:
        h = f"$krb5asrep$23${user(r)}@{dom(r).upper()}:{hx(r, 32)}${hx(r, 220)}"
        return "hashcat -m 18200 asrep.txt rockyou.txt --show", h
    if c == 1:
        h = f"{user(r).upper()}::{dom(r).split('.')[0].upper()}:{hx(r, 16)}:{hx(r, 32)}:{hx(r, 120)}"
        return "hashcat -m 5600 responder.txt rockyou.txt --show", h
    h = "$2" + "b$10$" + rs(r, 53, ALNUM + "./")
    return "hashcat -m 3200 users_dump.txt top10k.txt --show", h


def _hc_show(r, s):
    cmd, h = _hc_hash(r)
    return f"$ {cmd}\n{h}:{s}"


kind(
    "cracked_password",
    human_pw,
    "",
    "",
    generic=False,
    specific=[
        _hc_show,
        lambda r, s: (
            f"$ john --show ntlm.txt\n{user(r)}:{s}:{r.randint(500, 5000)}:::\n\n1 password hash cracked, {r.randint(1, 40)} left"
        ),
        lambda r, s: f"Cracked in {r.randint(2, 59)} min with best64 rule: {user(r)} -> {s}",
        lambda r, s: (
            f"Session..........: hashcat\nStatus...........: Cracked\nHash.Mode........: 13100 (Kerberos 5, etype 23, TGS-REP)\n\n$krb5tgs$23$*{user(r)}${dom(r).upper()}$HTTP/web{r.randint(1, 9)}*${hx(r, 32)}${hx(r, 300)}:{s}"
        ),
    ],
)
kind(
    "mimikatz_cleartext_password",
    human_pw,
    "",
    "",
    generic=False,
    specific=[
        lambda r, s: (
            f"mimikatz # sekurlsa::wdigest\n\t wdigest :\n\t * Username : {user(r)}\n\t * Domain   : {dom(r).split('.')[0].upper()}\n\t * Password : {s}"
        ),
        lambda r, s: f"\t kerberos :\n\t * Username : {user(r)}\n\t * Domain   : {dom(r).upper()}\n\t * Password : {s}",
        lambda r, s: f"lsadump::secrets -> _SC_{r.choice(['MSSQLSERVER', 'BackupSvc', 'Jenkins'])}\ncur/text: {s}",
    ],
)
kind(
    "domain_user_password",
    human_pw,
    "domain account password",
    "AD_PASSWORD",
    specific=[
        lambda r, s: f"Creds for the internal test (given by client): {dom(r).split('.')[0].upper()}\\{user(r)} / {s}",
        lambda r, s: f"nxc smb {ip(r)} -u {user(r)} -p '{s}' --shares",
        lambda r, s: f"Found in SYSVOL Groups.xml cpassword decrypted (gpp-decrypt): {s}",
    ],
)
kind(
    "wifi_psk",
    human_pw,
    "WPA2 PSK of the client's guest Wi-Fi",
    "WIFI_PSK",
    specific=[
        lambda r, s: f"aircrack-ng capture-01.cap -w wordlist.txt\n      KEY FOUND! [ {s} ]",
        lambda r, s: f"Office Wi-Fi {slug(r.choice(CLIENTS))}-staff, password {s} (on the whiteboard in reception)",
    ],
)
kind(
    "ssh_password",
    human_pw,
    "SSH password of the build Mac",
    "SSH_PASSWORD",
    specific=[
        lambda r, s: f"[22][ssh] host: {ip(r)}   login: {user(r)}   password: {s}",
        lambda r, s: f"sshpass -p '{s}' ssh {user(r)}@{ip(r)} 'xcodebuild -version'",
    ],
)
kind(
    "jwt_signing_secret",
    lambda r: rs(r, r.choice([32, 48, 64]), ALNUM) if r.random() < 0.6 else human_pw(r) + rs(r, 12),
    "JWT HS256 signing secret",
    "JWT_SECRET",
    specific=[
        lambda r, s: (
            f'jwt_tool.py "$(cat captured_{r.randint(1, 99)}.jwt)" -C -d jwt.secrets.list\n[+] {s} is the CORRECT key!'
        ),
    ],
)
kind(
    "firebase_database_secret",
    lambda r: rs(r, 40),
    "Firebase Realtime Database legacy secret",
    "FIREBASE_DB_SECRET",
    specific=[lambda r, s: f"curl 'https://{slug(app(r))}-default-rtdb.firebaseio.com/users.json?auth={s}'"],
)
kind(
    "internal_api_key",
    lambda r: rs(r, 32, HEXL if r.random() < 0.5 else ALNUM),
    "backend X-API-Key",
    "BACKEND_API_KEY",
    specific=[
        lambda r, s: (
            f"POST /internal/refunds HTTP/1.1\nHost: api.{slug(r.choice(CLIENTS))}.com\nX-API-Key: {s}\nContent-Length: 48"
        ),
        lambda r, s: f'nuclei finding [exposed-api-key] https://cdn.{slug(app(r))}.com/main.{hx(r, 8)}.js apiKey:"{s}"',
    ],
)


# ================================================================ look-alikes
def _firebase_web_key(r):
    return "AI" + "za" + rs(r, 35, B64U)


def _pub_jwt_anon(r):
    return jwt(
        r,
        {
            "iss": "supabase",
            "ref": rs(r, 20, LOW),
            "role": "anon",
            "iat": r.randint(1_600_000_000, 1_750_000_000),
            "exp": r.randint(1_900_000_000, 2_100_000_000),
        },
    )


def _bcrypt(r):
    return "$2" + r.choice("aby") + "$" + str(r.choice([10, 12, 14])) + "$" + rs(r, 53, ALNUM + "./")


def _sha1_fp(r):
    return ":".join(hx(r, 2).upper() for _ in range(20))


def _sha256_fp(r):
    return ":".join(hx(r, 2).upper() for _ in range(32))


def _pub_cert(r):
    der = bytes.fromhex("308203") + rbytes(r, 600)
    return "\n".join(armour("CERTIFICATE", der))


def _ph(r):
    return r.choice(
        [
            "<your-key>",
            "YOUR_API_KEY",
            "${SECRET}",
            "changeme",
            "xxxxxxxxxxxx",
            "<REDACTED>",
            "********",
            "REPLACE_ME",
            "<paste token here>",
            "TODO",
            "${{ env.TOKEN }}",
            "%API_KEY%",
        ]
    )


L = []


def look(fn):
    L.append(fn)
    return fn


look(
    lambda r: (
        f"Shipped {app(r)} {r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)} from commit {hx(r, 40)} (tag v{r.randint(1, 9)}.{r.randint(0, 20)})"
    )
)
look(lambda r: f"SHA-256 of {slug(app(r))}-release.apk: {hx(r, 64)}  (matches the Play Console upload)")
look(lambda r: f"md5sum build/{slug(app(r))}.ipa\n{hx(r, 32)}  build/{slug(app(r))}.ipa")
look(lambda r: f"E/ApiClient: 502 from gateway, x-request-id={uid(r)} trace={hx(r, 32)} ({date(r)})")
look(
    lambda r: (
        f"App Store Connect API key: Key ID {rs(r, 10, UPDIG)}, Issuer ID {uid(r)} — the .p8 itself is in 1Password, item 'ASC CI key'."
    )
)
look(
    lambda r: (
        f"Apple Team ID for {app(r)} is {rs(r, 10, UPDIG)}; bundle id com.{slug(r.choice(CLIENTS)).replace('-', '')}.{slug(app(r)).replace('-', '')}"
    )
)
look(
    lambda r: (
        f"App Store app id: {r.randint(10**9, 7 * 10**9)} ({app(r)}), SKU {slug(app(r)).upper()}-{r.randint(1, 99)}"
    )
)


@look
def _lk_firebase_web(r):
    pid = f"{slug(app(r))}-{rs(r, 5, LOWDIG)}"
    return (
        "// firebaseConfig (public, safe to ship in the web bundle)\nconst firebaseConfig = {\n"
        f'  apiKey: "{_firebase_web_key(r)}",\n  authDomain: "{pid}.firebaseapp.com",\n'
        f'  projectId: "{pid}",\n  messagingSenderId: "{r.randint(10**11, 10**12)}",\n'
        f'  appId: "1:{r.randint(10**11, 10**12)}:web:{hx(r, 22)}"\n}};'
    )


@look
def _lk_gservices(r):
    pid = f"{slug(app(r))}-prod"
    return json.dumps(
        {
            "project_info": {
                "project_number": str(r.randint(10**11, 10**12)),
                "project_id": pid,
            },
            "client": [
                {
                    "client_info": {"mobilesdk_app_id": f"1:{r.randint(10**11, 10**12)}:android:{hx(r, 16)}"},
                    "api_key": [{"current_key": _firebase_web_key(r)}],
                }
            ],
        },
        indent=2,
    )


look(
    lambda r: (
        f"GoogleService-Info.plist: GCM_SENDER_ID {r.randint(10**11, 10**12)}, GOOGLE_APP_ID 1:{r.randint(10**11, 10**12)}:ios:{hx(r, 16)}"
    )
)
look(
    lambda r: (
        f'Purchases.configure(withAPIKey: "{r.choice(["app" + "l_", "go" + "og_", "amz" + "n_"])}{rs(r, 27)}")  // RevenueCat public SDK key'
    )
)
look(lambda r: '<meta-data android:name="io.branch.sdk.BranchKey" android:value="key' + "_live_" + rs(r, 32) + '" />')
look(lambda r: "STRIPE_PUBLISHABLE_KEY=p" + "k_live_" + "51" + rs(r, 97) + "  # publishable, fine in the app")
look(
    lambda r: (
        "MapboxAccessToken (Info.plist, public scope): p"
        + "k."
        + b64u(json.dumps({"u": slug(app(r)), "a": rs(r, 25, LOWDIG)}, separators=(",", ":")).encode())
        + "."
        + rs(r, 22, B64U)
    )
)
look(
    lambda r: (
        f"SENTRY_DSN=https://{hx(r, 32)}@o{r.randint(10000, 999999)}.ingest.sentry.io/{r.randint(1000000, 9999999)}"
    )
)
look(lambda r: f'OneSignal.initialize("{uid(r)}")  // app id, not the REST key')
look(lambda r: f"Adjust app token {rs(r, 12, LOWDIG)} (environment: production) — public, in the SDK init.")
look(lambda r: f"AppsFlyer app id id{r.randint(10**8, 2 * 10**9)}, one-link template {rs(r, 4, UP)}")
look(
    lambda r: (
        f"PAYPAL_CLIENT_ID={r.choice('AE')}{rs(r, 79, B64U)}\nPAYPAL_CLIENT_SECRET={{{{ secrets.PAYPAL_CLIENT_SECRET }}}}"
    )
)
look(
    lambda r: (
        f"Auth0: domain {slug(r.choice(CLIENTS))}.eu.auth0.com, clientId {rs(r, 32)}, audience https://api.{slug(app(r))}.com"
    )
)


@look
def _lk_supa_anon(r):
    return (
        f"SUPABASE_URL=https://{rs(r, 20, LOW)}.supabase.co\nSUPABASE_ANON_KEY={_pub_jwt_anon(r)}\n"
        "# anon key is public; RLS protects the tables"
    )


look(
    lambda r: (
        "supabase publishable key sb_" + "publishable_" + rs(r, 22, B64U) + "_" + rs(r, 8, B64U) + " goes in the app"
    )
)
look(
    lambda r: (
        f"Amplify config: userPoolId eu-west-1_{rs(r, 9)}, userPoolWebClientId {rs(r, 26, LOWDIG)} (no client secret, public client)"
    )
)
look(lambda r: f"Cognito identity pool: eu-central-1:{uid(r)}")
look(
    lambda r: (
        f"ALGOLIA_SEARCH_ONLY_KEY={hx(r, 32)}  # search-only, ok for the client\nALGOLIA_APP_ID={rs(r, 10, UPDIG)}"
    )
)
look(lambda r: f"reCAPTCHA site key: 6L{rs(r, 38, B64U)}")
look(lambda r: f"GIDClientID = {r.randint(10**11, 10**12)}-{rs(r, 32, LOWDIG)}.apps.googleusercontent.com")
look(
    lambda r: (
        f"# .env.example\n{r.choice(['STRIPE_SECRET_KEY', 'EXPO_TOKEN', 'MATCH_PASSWORD', 'SENTRY_AUTH_TOKEN', 'FCM_SERVER_KEY', 'ONESIGNAL_REST_API_KEY'])}={_ph(r)}\nAPP_ENV={r.choice(['dev', 'staging'])}\nPORT={r.randint(3000, 9000)}"
    )
)
look(
    lambda r: (
        f"      - name: Upload to TestFlight\n        env:\n          {r.choice(['MATCH_PASSWORD', 'ASC_KEY', 'FASTLANE_PASSWORD', 'SLACK_URL'])}: ${{{{ secrets.{r.choice(['MATCH_PASSWORD', 'ASC_KEY_CONTENT', 'FASTLANE_PASSWORD', 'SLACK_URL'])} }}}}\n        run: bundle exec fastlane {r.choice(['beta', 'release'])}"
    )
)
look(
    lambda r: (
        f"Bitrise: keystore password comes from $BITRISEIO_ANDROID_KEYSTORE_PASSWORD, key from $BITRISEIO_ANDROID_KEYSTORE_URL (step v{r.randint(1, 3)}.{r.randint(0, 20)})"
    )
)
look(
    lambda r: f"codemagic.yaml\n  environment:\n    vars:\n      CM_KEYSTORE_PASSWORD: Encrypted({b64u(rbytes(r, 60))})"
)
look(
    lambda r: (
        f"vault kv get -field=store_password secret/mobile/{slug(app(r))}/android  # path only, ask {person(r)} for access"
    )
)
look(
    lambda r: (
        f'api_key = Variable.get("{r.choice(["onesignal_rest_key", "revenuecat_secret", "stripe_sk"])}")\nsecret = dbutils.secrets.get(scope="{slug(app(r))}", key="{r.choice(["sendgrid", "twilio", "fcm"])}")'
    )
)
look(
    lambda r: (
        f"Set {r.choice(['MATCH_PASSWORD', 'FASTLANE_SESSION', 'SUPABASE_SERVICE_ROLE_KEY', 'EXPO_TOKEN'])} in the CI secret store (Settings → Secrets → Actions). Never echo it; fastlane masks values longer than {r.randint(4, 9)} chars. ({person(r)}, {date(r)})"
    )
)


@look
def _lk_ansible(r):
    body = "\n".join(wrap(hx(r, 320), 80))
    return f"# group_vars/prod/vault.yml ({app(r)})\n$ANSIBLE_VAULT;1.1;AES256\n{body}"


look(
    lambda r: (
        f"stripe_secret_key: ENC[AES256_GCM,data:{rs(r, 40, B64)},iv:{rs(r, 43, B64)}=,tag:{rs(r, 22, B64)}==,type:str]"
    )
)
look(lambda r: f"admin user seeded with password_digest {_bcrypt(r)}")
look(
    lambda r: (
        f"$argon2id$v=19$m=65536,t=3,p=4${rs(r, 22, B64.replace('+', '').replace('/', ''))}${rs(r, 43, B64.replace('+', '').replace('/', ''))}  <- from users table dump, uncrackable with our budget"
    )
)
look(
    lambda r: (
        f"/etc/shadow on kiosk {ip(r)}:\nroot:$6${rs(r, 16, ALNUM + './')}${rs(r, 86, ALNUM + './')}:{r.randint(19000, 20500)}:0:99999:7:::"
    )
)
look(lambda r: f"Django admin hash pbkdf2_sha256$870000${rs(r, 22)}${rs(r, 43, B64)}=  (hashcat -m 10000, not cracked)")
look(lambda r: f"SSH host key fingerprint for build-mac-{r.randint(1, 9)}: SHA256:{rs(r, 43, B64)}")


@look
def _lk_keytool(r):
    return (
        f"$ keytool -list -v -keystore upload.jks -storepass:env KS_PASS\nAlias name: upload\n"
        f"Owner: CN={app(r)}, O={r.choice(CLIENTS)}\nCertificate fingerprints:\n\t SHA1: {_sha1_fp(r)}\n\t SHA256: {_sha256_fp(r)}"
    )


look(lambda r: f"Play App Signing certificate (public):\n{_pub_cert(r)}")
look(
    lambda r: (
        f"authorized_keys for build user:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(r, 43, B64)} {person(r).lower()}@macbook"
    )
)
look(lambda r: f'<img src="data:image/png;base64,iVBORw0KGgo{rs(r, 120, B64)}==" alt="{app(r)} logo"/>')
look(
    lambda r: (
        f'<component group="com.squareup.okhttp3" name="okhttp" version="4.{r.randint(9, 12)}.0">\n   <artifact name="okhttp-4.12.0.jar">\n      <sha256 value="{hx(r, 64)}" origin="Generated by Gradle"/>\n   </artifact>\n</component>'
    )
)
look(
    lambda r: (
        f"  {r.choice(['Firebase', 'Alamofire', 'SDWebImage', 'Sentry', 'RevenueCat', 'OneSignalXCFramework'])}: {hx(r, 40)}\n\nPODFILE CHECKSUM: {hx(r, 40)}\n\nCOCOAPODS: 1.{r.randint(12, 16)}.{r.randint(0, 3)}"
    )
)
look(
    lambda r: (
        f'"node_modules/{r.choice(["expo", "react-native", "@sentry/react-native", "axios"])}": {{\n  "version": "{r.randint(0, 60)}.{r.randint(0, 20)}.{r.randint(0, 9)}",\n  "integrity": "sha512-{rs(r, 86, B64)}=="\n}}'
    )
)
look(
    lambda r: (
        f"\t\t{hx(r, 24).upper()} /* {app(r).replace(' ', '')}App.swift in Sources */ = {{isa = PBXBuildFile; fileRef = {hx(r, 24).upper()}; }};"
    )
)
look(
    lambda r: (
        f"Provisioning profile 'match AppStore com.studio.{slug(app(r)).replace('-', '')}' UUID {uid(r, upper=True)} expires {date(r)}"
    )
)
look(
    lambda r: (
        f"Bitrise build #{r.randint(100, 9999)} slug {hx(r, 16)} finished in {r.randint(4, 40)}m — artifact {slug(app(r))}.aab"
    )
)
look(
    lambda r: (
        f"[INF] [{r.choice(['tech-detect', 'ssl-dns-names', 'http-missing-security-headers', 'apache-detect'])}:{r.choice(['nginx', 'x-frame-options', 'strict-transport-security'])}] [http] [info] https://{slug(r.choice(CLIENTS))}.com/{r.choice(['', 'login', 'api'])}"
    )
)


@look
def _lk_nmap(r):
    return (
        f"Nmap scan report for {ip(r)}\nPORT   STATE SERVICE VERSION\n22/tcp open  ssh     OpenSSH 9.{r.randint(0, 7)} (protocol 2.0)\n"
        f"| ssh-hostkey:\n|   256 {_sha1_fp(r)[:47].lower()} (ECDSA)\n|_  256 {_sha1_fp(r)[:47].lower()} (ED25519)\n"
        f"443/tcp open  https   nginx 1.{r.randint(18, 27)}.{r.randint(0, 3)}"
    )


look(
    lambda r: (
        f"Session..........: hashcat\nStatus...........: Exhausted\nHash.Mode........: {r.choice(['5600 (NetNTLMv2)', '13100 (Kerberos 5, etype 23, TGS-REP)', '1000 (NTLM)'])}\nRecovered........: 0/{r.randint(1, 50)} (0.00%) Digests\nSpeed.#1.........: {r.randint(100, 9000)}.{r.randint(0, 9)} MH/s"
    )
)
look(
    lambda r: (
        f"Report draft {r.choice(CLIENTS)} §{r.randint(2, 9)}.{r.randint(1, 9)}: credentials for {user(r)} were recovered (value: ********) and have since been rotated by the client."
    )
)
look(
    lambda r: (
        f"Stripe key in the APK was sk_live_****{rs(r, 4)} (redacted in report, full value shared via Signal only)"
    )
)
look(
    lambda r: (
        f"POST /api/{r.choice(['login', 'refresh', 'orders', 'profile'])} HTTP/1.1\nHost: {slug(app(r))}.com\nX-Request-Id: {uid(r)}\nCookie: session=<redacted>\nAuthorization: Bearer <redacted>\nContent-Type: application/json"
    )
)


@look
def _lk_jwt_doc(r):
    h = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    p = b64u(
        json.dumps(
            {"sub": "1234567890", "name": "John Doe", "iat": 1516239022},
            separators=(",", ":"),
        ).encode()
    )
    return (
        f"jwt.io example used in the {r.choice(['training', 'workshop', 'wiki', 'README'])} for {r.choice(CLIENTS)} ({date(r)}): "
        f"{h}.{p}.SflKxwRJSMeKKF2QT4fw" + "pMeJf36POk6yJV_adQssw5c"
    )


look(
    lambda r: (
        f"AWS docs example pair used in the Amplify tutorial slide {r.randint(1, 60)}: secret wJalrXUtnFEMI/K7MDENG/"
        + "bPxRfiCYEXAMPLEKEY — not real."
    )
)
look(
    lambda r: (
        "Stripe docs test key s"
        + "k_"
        + "test_"
        + "4eC39Hq"
        + "LyjWDarjtT1zdp7dc"
        + f" appears in {app(r)} sample code (copied from docs, slide {r.randint(1, 40)})"
    )
)
look(
    lambda r: (
        f"$ klist\nTicket cache: FILE:/tmp/krb5cc_{r.randint(1000, 9999)}\nDefault principal: {user(r)}@{dom(r).upper()}\n\nValid starting     Expires            Service principal\n{date(r)} 09:{r.randint(10, 59)}  {date(r)} 19:{r.randint(10, 59)}  krbtgt/{dom(r).upper()}@{dom(r).upper()}"
    )
)
look(
    lambda r: (
        "Disabled accounts show the empty-password NT hash 31d6cfe0d16ae931"
        + f"b73c59d7e0c089c0 ({r.randint(2, 40)} accounts in {dom(r)}) — nothing to crack."
    )
)
look(lambda r: f"I/AppInit: android_id={hx(r, 16)} install_id={uid(r)} build={r.randint(100, 999)}")
look(lambda r: f"Test device IDFA {uid(r, upper=True)} added to AppsFlyer test devices; GAID {uid(r)}")
look(
    lambda r: (
        f"Sentry issue {slug(app(r)).upper()}-{rs(r, 3, UPDIG)} event {hx(r, 32)}: NullPointerException in CheckoutFragment"
    )
)
look(lambda r: f"Build scan: https://scans.gradle.com/s/{rs(r, 13, LOWDIG)} (configuration cache miss)")
look(lambda r: f"Public TestFlight link for beta testers: https://testflight.apple.com/join/{rs(r, 8)}")
look(lambda r: f"DerivedData/{app(r).replace(' ', '')}-{rs(r, 28, LOW)}/Build/Products/Release-iphoneos")
look(lambda r: f"{r.choice(['ghcr.io', 'docker.io'])}/studio/{slug(app(r))}-api@sha256:{hx(r, 64)}")
look(
    lambda r: json.dumps(
        {
            "expo": {
                "name": app(r),
                "slug": slug(app(r)),
                "extra": {"eas": {"projectId": uid(r)}},
                "owner": "studio",
            }
        },
        indent=2,
    )
)
look(
    lambda r: f"eas update --branch production -> update group {uid(r)}, runtime {r.randint(1, 9)}.{r.randint(0, 9)}.0"
)
look(
    lambda r: f"CodePush release v{r.randint(1, 90)} packageHash {hx(r, 64)} (mandatory: {r.choice(['true', 'false'])})"
)
look(
    lambda r: (
        f'# Matchfile\ngit_url("git@github.com:{slug(r.choice(CLIENTS))}/certificates.git")\nstorage_mode("git")\ntype("{r.choice(["appstore", "development", "adhoc"])}")\nusername("release@{slug(app(r))}.app")'
    )
)
look(
    lambda r: (
        f'storePassword=System.getenv("{r.choice(["KEYSTORE_PASSWORD", "ANDROID_STORE_PW", "CM_KEYSTORE_PASSWORD"])}")\nkeyPassword=System.getenv("KEY_PASSWORD")\nstoreFile={r.choice(["upload.jks", "release.keystore"])}\n# {app(r)}, updated {date(r)}'
    )
)
look(
    lambda r: (
        f"# gradle.properties\norg.gradle.jvmargs=-Xmx{r.randint(2, 8)}g\nandroid.useAndroidX=true\nandroid.enableR8.fullMode={r.choice(['true', 'false'])}\nVERSION_CODE={r.randint(100, 9999)}"
    )
)
look(
    lambda r: (
        f"<key>GADApplicationIdentifier</key>\n<string>ca-app-pub-{r.randint(10**15, 10**16)}~{r.randint(10**9, 10**10)}</string>"
    )
)
look(lambda r: f"AdMob banner unit ca-app-pub-{r.randint(10**15, 10**16)}/{r.randint(10**9, 10**10)} for {app(r)}")
look(
    lambda r: (
        f"<key>FacebookAppID</key>\n<string>{r.randint(10**14, 10**16)}</string>\n<key>FacebookDisplayName</key>\n<string>{app(r)}</string>"
    )
)
look(
    lambda r: (
        f'<meta-data android:name="com.google.android.geo.API_KEY" android:value="${{{r.choice(["MAPS_API_KEY", "mapsApiKey", "GOOGLE_MAPS_KEY"])}}}" />  <!-- from local.properties via secrets-gradle-plugin, {app(r)} {ticket(r)} -->'
    )
)
look(
    lambda r: (
        f"sqlmap identified the following injection point(s) with a total of {r.randint(40, 900)} HTTP(s) requests:\nParameter: id (GET)\n    Type: boolean-based blind\nback-end DBMS: {r.choice(['PostgreSQL', 'MySQL >= 5.0', 'Microsoft SQL Server 2019'])}\navailable databases [{r.randint(2, 9)}]"
    )
)
look(
    lambda r: (
        f"ZAP alert {r.randint(10000, 90000)}: {r.choice(['Cookie No HttpOnly Flag', 'CSP Header Not Set', 'Server Leaks Version'])} (CWE-{r.randint(16, 1021)}), risk {r.choice(['Low', 'Medium'])}, {r.randint(1, 40)} instances"
    )
)
look(
    lambda r: (
        f"F-{r.randint(1, 30):02d} CVSS:3.1/AV:N/AC:{r.choice('LH')}/PR:{r.choice('NLH')}/UI:N/S:U/C:H/I:{r.choice('LH')}/A:N ({r.choice(['7.5', '6.5', '8.1', '5.3'])})"
    )
)
look(lambda r: f"Blind SSRF confirmed via Collaborator: {rs(r, 30, LOWDIG)}.oastify.com got a DNS lookup from {ip(r)}")
look(
    lambda r: (
        f"Design tokens update: token colorPrimary #{hx(r, 6)}, token radiusCard {r.randint(2, 24)}px, token spacingXl {r.randint(20, 48)}px"
    )
)
look(
    lambda r: (
        f'Signing certificate "Apple Distribution: {r.choice(CLIENTS)} ({rs(r, 10, UPDIG)})" SHA-1 {hx(r, 40).upper()}'
    )
)
look(lambda r: f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(r, 64)}\nsize {r.randint(10**5, 10**9)}")
look(
    lambda r: json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 300),
            "id": hx(r, 8),
            "metadata": {},
            "outputs": [],
            "source": ["df.head()"],
        }
    )
)
look(lambda r: f"wandb run {rs(r, 8, LOWDIG)} (churn-model-{r.choice(['a', 'b'])}); mlflow run_id {hx(r, 32)}")
look(
    lambda r: (
        f"Using model {r.choice(['google/gemma-2-2b-it', 'sentence-transformers/all-MiniLM-L6-v2', 'openai/whisper-small'])}@{hx(r, 40)} for app review triage"
    )
)
look(
    lambda r: (
        f"{app(r)} {r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}+build.{r.randint(1000, 99999)}.{hx(r, 7)}"
    )
)
look(
    lambda r: (
        f"Test device: MAC {':'.join(hx(r, 2) for _ in range(6))}, IPv6 fe80::{hx(r, 4)}:{hx(r, 4)}:{hx(r, 4)}:{hx(r, 4)}"
    )
)
look(
    lambda r: (
        f"Password policy for {r.choice(CLIENTS)}: min {r.randint(10, 16)} chars, no reuse of last {r.randint(3, 24)}; banned list includes 'Password1', 'Welcome123', 'changeme'."
    )
)
look(
    lambda r: (
        f'security find-generic-password -s "{r.choice(["match", "fastlane", "altool", "AC_PASSWORD"])}" -a {user(r)} -w  # reads it from keychain at build time'
    )
)
look(
    lambda r: (
        f'MATCH_PASSWORD="op://{r.choice(["Mobile", "CI", "Release"])}/{slug(app(r))}-match/password" op run -- fastlane beta'
    )
)
look(
    lambda r: (
        f"arn:aws:secretsmanager:eu-west-1:{r.randint(10**11, 10**12)}:secret:{slug(app(r))}/prod/stripe-{rs(r, 6)}"
    )
)
look(lambda r: f"KMS key arn:aws:kms:eu-central-1:{r.randint(10**11, 10**12)}:key/{uid(r)} encrypts the match bucket")
look(
    lambda r: (
        f"hashcat modes to remember: -m {r.choice([5600, 13100, 18200, 1000])} / -m {r.choice([2100, 3200, 22000])}; rules: best64, OneRuleToRuleThemAll; wordlist rockyou ({r.randint(10, 99)} min run)"
    )
)
look(lambda r: f"$ john --show hashes.txt\n0 password hashes cracked, {r.randint(1, 200)} left")
look(
    lambda r: (
        f"mimikatz # sekurlsa::wdigest\n\t * Username : {user(r)}\n\t * Domain   : {dom(r).split('.')[0].upper()}\n\t * Password : (null)"
    )
)
look(
    lambda r: (
        f'aws s3 ls s3://{slug(r.choice(CLIENTS))}-{r.choice(["assets", "public", "cdn"])} --no-sign-request\n{date(r)} 10:{r.randint(10, 59)}:{r.randint(10, 59)}    {r.randint(1000, 999999)} logo.png\nETag "{hx(r, 32)}"'
    )
)
look(
    lambda r: (
        f'< HTTP/2 200\n< etag: W/"{hx(r, 16)}"\n< x-request-id: {uid(r)}\n< cf-ray: {hx(r, 16)}-{r.choice(["FRA", "NBO", "BKK", "OTP", "KBP"])}\n* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384'
    )
)
look(
    lambda r: (
        f"Presigned URL sample (signature stripped): https://{slug(app(r))}-uploads.s3.amazonaws.com/{uid(r)}.jpg?X-Amz-Expires=900&X-Amz-Signature=<redacted>"
    )
)
look(
    lambda r: (
        f"Info.plist excerpt (base64 of build settings, no secrets): {base64.b64encode(json.dumps({'CFBundleVersion': str(r.randint(1, 999)), 'MinimumOSVersion': '15.0', 'app': app(r)}).encode()).decode()}"
    )
)
look(
    lambda r: (
        f"device_uuid {uid(r)} registered to {person(r)}'s test iPhone ({r.choice(['iPhone 15', 'iPhone 13 mini', 'iPhone SE'])})"
    )
)
look(
    lambda r: (
        f"$NETNTLMv2 captured by Responder, queued for cracking (not a credential until cracked):\n{user(r).upper()}::{dom(r).split('.')[0].upper()}:{hx(r, 16)}:{hx(r, 32)}:{hx(r, 160)}"
    )
)
look(
    lambda r: (
        f"GetUserSPNs output saved to tgs.txt: $krb5tgs$23$*{user(r)}${dom(r).upper()}$MSSQLSvc/db{r.randint(1, 9)}.{dom(r)}:1433*${hx(r, 32)}${hx(r, 400)}"
    )
)
look(lambda r: f"GetNPUsers: $krb5asrep$23${user(r)}@{dom(r).upper()}:{hx(r, 32)}${hx(r, 220)}  (roast later)")
look(lambda r: f"cached creds (mscash2): $DCC2$10240#{user(r)}#{hx(r, 32)} — -m 2100, too slow to crack in scope")
look(lambda r: f"htpasswd for staging: {user(r)}:$apr1${rs(r, 8, ALNUM + './')}${rs(r, 22, ALNUM + './')}")
look(
    lambda r: (
        f"Fastlane lane 'beta' done in {r.randint(3, 30)}m{r.randint(0, 59)}s. Build {r.randint(100, 9999)} uploaded, processing id {uid(r)}"
    )
)
look(
    lambda r: (
        f"./gradlew :app:bundleRelease\n> Task :app:signReleaseBundle\nBUILD SUCCESSFUL in {r.randint(1, 9)}m {r.randint(0, 59)}s\n{r.randint(100, 999)} actionable tasks: {r.randint(10, 99)} executed"
    )
)
look(
    lambda r: (
        f"** ARCHIVE SUCCEEDED ** [{r.randint(60, 900)}.{r.randint(100, 999)} sec]\nCODE_SIGN_IDENTITY=Apple Distribution\nDEVELOPMENT_TEAM={rs(r, 10, UPDIG)}\nPROVISIONING_PROFILE_SPECIFIER=match AppStore com.studio.{slug(app(r)).replace('-', '')}"
    )
)
look(
    lambda r: (
        f"TOTP enrolment QR was shown on screen in the report screenshot; blurred in draft v{r.randint(2, 9)} (figure {r.randint(1, 40)}). Recovery codes: ******** (not stored here)"
    )
)
look(
    lambda r: (
        f"Firebase App Check debug provider enabled on {r.choice(['emulator', 'CI'])}; debug token lives in {r.choice(['Keychain', 'GitHub secret APP_CHECK_DEBUG_TOKEN', '1Password'])}, ticket {ticket(r)}"
    )
)
look(
    lambda r: (
        f"FCM topic '{r.choice(['promo', 'news', 'alerts'])}-{rs(r, 6, LOWDIG)}' has {r.randint(100, 99999)} subscribers; message id projects/{slug(app(r))}/messages/{r.randint(10**15, 10**16)}"
    )
)
look(
    lambda r: (
        f"Google Play service account: play-publisher@{slug(app(r))}-{r.randint(100000, 999999)}.iam.gserviceaccount.com (client id {r.randint(10**20, 10**21)}), key file in Bitrise generic file storage"
    )
)
look(
    lambda r: (
        f"private_key_id {hx(r, 40)} was disabled in IAM on {date(r)} after the leak; new key created via Workload Identity Federation, no JSON key anymore"
    )
)
look(
    lambda r: (
        f"Nonce for the Sign in with Apple request: {hx(r, 64)} (sha256 of the raw nonce, sent to Apple) — single use"
    )
)
look(lambda r: f"Entropy check: uuid {uid(r)} looked like a token in the scanner but it is the RevenueCat app_user_id.")
look(
    lambda r: (
        f"Kiitos! Tiketi {ticket(r)}: tumebadilisha funguo zote za {app(r)}; thamani mpya ziko kwenye vault, hazijawekwa hapa."
    )
)
look(
    lambda r: (
        f"Примітка: ключ для {app(r)} тепер у секретах CI ({r.choice(['MATCH_PASSWORD', 'EXPO_TOKEN', 'SENTRY_AUTH_TOKEN'])}), у нотатках не зберігаємо. Хеш коміту {hx(r, 12)}"
    )
)
look(
    lambda r: (
        f"Remarque : le mot de passe du keystore n'est PAS dans ce document ; voir coffre {r.choice(CLIENTS)}/{slug(app(r))}. Empreinte SHA-1 : {_sha1_fp(r)}"
    )
)
look(lambda r: f"बिल्ड {r.randint(100, 9999)} सफल: commit {hx(r, 10)}, checksum {hx(r, 64)} — कोई secret नहीं बदला गया।")
look(
    lambda r: (
        f"สรุปผลทดสอบ {r.choice(CLIENTS)}: พบช่องโหว่ {r.randint(1, 20)} รายการ รหัสผ่านทั้งหมดถูกปิดบังเป็น ******** ในรายงานฉบับที่ {r.randint(1, 9)}"
    )
)
look(
    lambda r: (
        f"Prüfsumme der IPA: {hx(r, 64)}; Release-Tag v{r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 20)}, Build-ID {uid(r)}"
    )
)
look(
    lambda r: (
        "Notă: cheia publică Stripe p"
        + "k_live_"
        + rs(r, 24)
        + " e ok în aplicație; cheia secretă rămâne doar pe server."
    )
)
look(
    lambda r: (
        f"xcodebuild -exportArchive -archivePath build/{slug(app(r))}.xcarchive -exportOptionsPlist ExportOptions.plist -authenticationKeyID {rs(r, 10, UPDIG)} -authenticationKeyIssuerID {uid(r)} -authenticationKeyPath $ASC_KEY_PATH"
    )
)
look(
    lambda r: (
        f"adb logcat | grep Purchase\nD/BillingClient: purchaseToken order GPA.{r.randint(3300, 3399)}-{r.randint(1000, 9999)}-{r.randint(1000, 9999)}-{r.randint(10000, 99999)} state=PURCHASED sku={slug(app(r))}_premium"
    )
)
look(
    lambda r: (
        f"Braintree public_key {rs(r, 16, LOWDIG)} / merchant_id {rs(r, 16, LOWDIG)} (private key kept in server env only)"
    )
)
look(
    lambda r: (
        f"Kerberos etype 23 tickets: {r.randint(2, 40)} SPNs found, hashes saved to loot/{date(r)}/tgs.txt (sha256 {hx(r, 64)})"
    )
)
look(
    lambda r: (
        f"The scanner flagged `{r.choice(['SECRET_KEY', 'API_TOKEN', 'PASSWORD'])}=${{{r.choice(['SECRET_KEY', 'API_TOKEN', 'PASSWORD'])}}}` in docker-compose.yml line {r.randint(3, 200)}: false positive, it's interpolation."
    )
)
look(lambda r: "Branch test key key" + "_test_" + rs(r, 32) + " used only in debug builds (public by design)")

_LOOK = L


# ================================================================ generation
def _positive(r: random.Random, k: dict) -> tuple[str, str]:
    s = k["gen"](r)
    pool = []
    if k["generic"]:
        pool = [("g", t) for t in GENERIC]
        if k["bearer"]:
            pool += [("g", t) for t in BEARER]
    if k["specific"] and (not pool or r.random() < 0.45):
        t = r.choice(k["specific"])
        return t(r, s), s
    _, t = r.choice(pool)
    return t(r, k, s), s


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for k in KINDS:
        n = 0
        while n < PER_KIND:
            text, s = _positive(r, k)
            if text in seen or s not in text:
                continue
            seen.add(text)
            positives.append((text, k["name"], s))
            n += 1
    lookalikes: list[str] = []
    for fn in _LOOK:
        n = 0
        tries = 0
        while n < LOOK_PER_GEN:
            tries += 1
            if tries > 5000:
                raise RuntimeError(f"look-alike generator {fn} cannot yield {LOOK_PER_GEN} texts")
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            n += 1
    return positives, lookalikes
