"""Secret-detector test set R.

Theme: what an AI coding agent's long-term memory really holds, weighted as
real use is.  Over a month, agents of several tools (Claude Code, Cursor,
Codex, Aider, Copilot chat) working for a polyglot company store their notes.
About half of the texts are short notes and lessons in plain prose
(decisions, preferences, project facts, errors and their fixes, todos,
handover notes), mostly English with some German, Spanish, Portuguese,
French, Italian, Polish, Dutch, Japanese, Korean, Chinese, romanised Hindi
and Turkish; about a quarter are config and code snippets (.env, YAML, JSON,
TOML, INI, Python, TypeScript, Go, Rust, Java, Kotlin, C#, PHP, Ruby, shell,
Dockerfile, Compose, Helm values, Kubernetes, Terraform, Ansible, GitHub
Actions, GitLab CI, nginx, systemd); about a quarter are pasted tool output
(curl -v, HTTP dumps, env dumps, docker inspect, kubectl, stack traces, CI
logs, psql/mysql sessions, git config, cloud CLI output).

Positives cover vendor tokens with documented formats (cloud providers, code
forges, CI services, package and container registries, payments, messaging,
e-mail APIs, AI/LLM APIs, observability, auth providers, databases as a
service, CDN/DNS, feature flags, analytics server keys), passwords (human,
generated, passphrases), private keys (PEM, OpenSSH, PuTTY, PGP: the whole
block is the secret), credentials inside connection strings and URLs, JWTs,
signed-URL signatures, webhook signing secrets, session cookies, TOTP seeds,
recovery codes and unformatted random keys that the text names as such.

Lookalikes contain no credential: placeholders, secret-manager references,
masked values, env var names without values, hashes and password hashes,
commit SHAs, UUIDs and other ids, public keys and certificates, keys that are
public by vendor design, vendor-documented example values, encrypted blobs,
base64 of public data, generated code, lockfile hashes, versions, prose about
credentials, auth error messages and code that reads secrets at run time.

Contract: ``generate(seed) -> (positives, lookalikes)``.  ``positives`` is a
list of ``(text, kind, secret)`` where ``secret`` is an exact, stripped
substring of ``text``; ``lookalikes`` is a list of texts.  There are
``N_PER_KIND`` samples per kind, and ``len(_LOOK) * LOOK_PER_GEN``
lookalikes (``LOOK_PER_GEN`` from each generator in ``_LOOK``).  Texts are
unique, and no positive secret of 8+ characters occurs in any lookalike.

Labelling choices for borderline items:
- Slack and Discord webhook URLs: only the final path token is labelled.
- Connection strings and basic-auth URLs: only the password part.
- AWS and GCS pre-signed URLs: the signature; Azure SAS URLs: the sig value.
  Access key ids alone are identifiers, not credentials.
- UUID-shaped vendor tokens (Heroku API key, Postmark server token,
  LaunchDarkly SDK key) are positives only where the text names them.
- Public by design, hence lookalikes: Supabase anon keys, Stripe, Clerk and
  Mapbox publishable keys, reCAPTCHA site keys, VAPID public keys, Sentry
  DSNs, OAuth client ids, LaunchDarkly client-side ids, Firebase web API keys
  in a firebaseConfig, Algolia search-only keys.  Positives: Supabase
  service_role keys, Mapbox sk. tokens, Algolia admin keys.
- Encrypted values (SOPS, ansible-vault, sealed secrets, PGP/age messages,
  KMS ciphertext) and password hashes are lookalikes.
- Vendor-documented examples (AWS EXAMPLE keys, the jwt.io sample token,
  Stripe's docs test key, Slack's docs webhook, Azurite's dev key) are
  lookalikes.
- GCP service-account JSON: the JSON-escaped private_key value is labelled.
- Laravel APP_KEY: the base64 body after ``base64:`` is labelled.
- Docker config ``auth`` and HTTP Basic headers: the base64 blob.

Everything is built from ``random.Random(seed)``; vendor prefixes, key bodies
and PEM armour are assembled at run time from pieces, so the source holds no
token-shaped literal.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from types import SimpleNamespace

N_PER_KIND = 30
LOOK_PER_GEN = 13

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DI = string.digits
AN = UP + LO + DI
LD = LO + DI
UD = UP + DI
B64A = AN + "+/"
B64U = AN + "-_"
B32 = UP + "234567"
BECH = "qpzry9x8gf2tvdw0" + "s3jn54khce6mua7l"
CRYPT = "./" + AN
ARM = "-" * 5
_AXIOS = "node_modules/axios/" + "lib/core/settle.js"
_CF_VERIFY = "/client/v4/" + "user/tokens/verify"
_SMV = "aws_secretsmanager" + "_secret_version"
_AWS_CREDS_ACTION = "aws-actions/" + "configure-aws-credentials"

# vendor prefixes, assembled at run time
P_AK = "AK" + "IA"
P_ASIA = "AS" + "IA"
P_AZ = "AI" + "za"
P_GHP = "gh" + "p_"
P_GHO = "gh" + "o_"
P_GHS = "gh" + "s_"
P_GHU = "gh" + "u_"
P_GHPAT = "github" + "_pat_"
P_GLPAT = "gl" + "pat-"
P_NPM = "np" + "m_"
P_PYPI = "py" + "pi-"
P_DCKR = "dc" + "kr_" + "pat_"
P_SK = "s" + "k-"
P_SKL = "s" + "k_" + "live_"
P_SKT = "s" + "k_" + "test_"
P_RKL = "r" + "k_" + "live_"
P_PKL = "p" + "k_" + "live_"
P_WHS = "wh" + "sec_"
P_XOXB = "xo" + "xb-"
P_XOXP = "xo" + "xp-"
P_XAPP = "xa" + "pp-"
P_SG = "S" + "G."
P_HF = "h" + "f_"
P_GOC = "GOC" + "SPX-"
P_EJ = "ey" + "J"


def rs(r, n, a=AN):
    return "".join(r.choices(a, k=n))


def hx(r, n):
    return r.randbytes((n + 1) // 2).hex()[:n]


def dg(r, n):
    return str(r.randint(1, 9)) + rs(r, n - 1, DI)


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def bj(o):
    return b64u(json.dumps(o, separators=(",", ":")).encode())


def uid(r):
    h = r.randbytes(16).hex()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def wrap(s, n=64):
    return "\n".join(s[i : i + n] for i in range(0, len(s), n))


def pem(label, body, n=64):
    return f"{ARM}BEGIN {label}{ARM}\n{wrap(body, n)}\n{ARM}END {label}{ARM}"


def ch(r, *a):
    return r.choice(a)


def jwt(r, payload, alg="HS256", kid=None):
    h = {"alg": alg, "typ": "JWT"}
    if kid:
        h["kid"] = kid
    sig = b64u(r.randbytes(32 if alg.startswith("HS") else 256))
    return f"{bj(h)}.{bj(payload)}.{sig}"


def ts(r):
    return r.randint(1704067200, 1735603200)


def iso(r):
    return (
        f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T"
        f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"
    )


def ip(r):
    return f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(2, 254)}"


def pubip(r):
    return f"{r.choice([34, 35, 52, 54, 18, 13, 20, 104])}.{r.randint(1, 254)}.{r.randint(1, 254)}.{r.randint(1, 254)}"


# ==== key material


def _der_rsa(r):
    n = r.choice([1190, 1192, 1217, 1766, 2346])
    return bytes.fromhex("308204a4" + "020100" + "0282010100") + r.randbytes(n)


def _der_pkcs8(r):
    if r.random() < 0.35:
        return bytes.fromhex("302e0201" + "00300506032b6570" + "04220420") + r.randbytes(32)
    head = "308204be" + "020100300d06092a" + "864886f70d010101" + "0500" + "048204a8"
    return bytes.fromhex(head) + r.randbytes(r.choice([1190, 1194, 1210]))


def _der_ec(r):
    a = bytes.fromhex("30770201" + "010420") + r.randbytes(32)
    b = bytes.fromhex("a00a0608" + "2a8648ce3d030107" + "a144034200" + "04")
    return a + b + r.randbytes(64)


def rsa_pem(r):
    return pem("RSA PRIVATE KEY", b64(_der_rsa(r)))


def pkcs8_pem(r):
    return pem("PRIVATE KEY", b64(_der_pkcs8(r)))


def ec_pem(r):
    return pem("EC PRIVATE KEY", b64(_der_ec(r)))


def _sshstr(b):
    return len(b).to_bytes(4, "big") + b


def ssh_pub_blob(r, typ="ssh-ed25519"):
    if typ == "ssh-ed25519":
        return _sshstr(typ.encode()) + _sshstr(r.randbytes(32))
    if typ == "ssh-rsa":
        return _sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(b"\x00" + r.randbytes(256))
    return _sshstr(b"ecdsa-sha2-nistp256") + _sshstr(b"nistp256") + _sshstr(b"\x04" + r.randbytes(64))


def openssh_pem(r):
    typ = ch(r, "ssh-ed25519", "ssh-ed25519", "ssh-rsa")
    body = (
        b"openssh-key-v1\x00"
        + _sshstr(b"none")
        + _sshstr(b"none")
        + _sshstr(b"")
        + b"\x00\x00\x00\x01"
        + _sshstr(ssh_pub_blob(r, typ))
        + r.randbytes(160 if typ == "ssh-ed25519" else 1200)
    )
    return pem("OPENSSH PRIVATE KEY", b64(body), 70)


def pgp_priv(r):
    body = b"\x95\x07\x46\x04" + r.randbytes(r.randint(900, 1700))
    crc = b64(r.randbytes(3))
    return f"{ARM}BEGIN PGP PRIVATE KEY BLOCK{ARM}\n\n{wrap(b64(body))}\n={crc}\n{ARM}END PGP PRIVATE KEY BLOCK{ARM}"


def putty_key(r, comment):
    if r.random() < 0.6:
        pub = b64(ssh_pub_blob(r, "ssh-ed25519"))
        priv = b64(_sshstr(r.randbytes(32)))
        return (
            f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: {comment}\n"
            f"Public-Lines: {len(wrap(pub).splitlines())}\n{wrap(pub)}\n"
            f"Private-Lines: {len(wrap(priv).splitlines())}\n{wrap(priv)}\n"
            f"Private-MAC: {hx(r, 64)}"
        )
    pub = b64(ssh_pub_blob(r, "ssh-rsa"))
    priv = b64(r.randbytes(r.choice([660, 662, 664])))
    return (
        f"PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: {comment}\n"
        f"Public-Lines: {len(wrap(pub).splitlines())}\n{wrap(pub)}\n"
        f"Private-Lines: {len(wrap(priv).splitlines())}\n{wrap(priv)}\n"
        f"Private-MAC: {hx(r, 40)}"
    )


def cert_pem(r):
    return pem("CERTIFICATE", b64(bytes.fromhex("308203") + r.randbytes(r.choice([700, 850, 1000]))))


def pub_pem(r):
    head = "30820122" + "300d06092a864886" + "f70d010101" + "0500" + "0382010f00" + "3082010a02820101" + "00"
    return pem("PUBLIC KEY", b64(bytes.fromhex(head) + r.randbytes(256) + bytes.fromhex("0203010001")))


# ==== fillers

_SVCS = [
    "billing-api",
    "checkout",
    "atlas",
    "orion",
    "ledger",
    "hermes",
    "payroll-svc",
    "webshop",
    "mobile-bff",
    "data-pipeline",
    "search-indexer",
    "notifications",
    "crm-sync",
    "reporting",
    "auth-gateway",
    "inventory",
    "kiosk",
    "warehouse-etl",
    "pricing",
    "onboarding",
    "docs-site",
    "partner-portal",
    "fulfilment",
    "quotes",
]
_STAGES = ["prod", "production", "staging", "stage", "dev", "qa", "sandbox", "preprod", "uat", "demo"]
_PEOPLE = [
    "Anna",
    "Jonas",
    "María",
    "Lucas",
    "Chloé",
    "Giulia",
    "Kasia",
    "Daan",
    "Yuki",
    "Min-jun",
    "Wei",
    "Priya",
    "Emre",
    "Tom",
    "Sofia",
    "Rahul",
    "Lena",
    "Pedro",
    "Marek",
    "Inês",
    "Hiroshi",
    "Ji-woo",
    "Arjun",
    "Elif",
    "Noah",
    "Camille",
]
_TOOLS = ["Claude Code", "Cursor", "Codex", "Aider", "Copilot chat"]
_REGIONS = ["eu-west-1", "us-east-1", "eu-central-1", "ap-northeast-1", "us-west-2", "sa-east-1", "ap-south-1"]
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
    "November",
    "December",
]
_RUNTIMES = ["Python 3.12", "Node 20", "Go 1.22", "Java 21", ".NET 8", "Ruby 3.3", "PHP 8.3", "Rust 1.79", "Kotlin 2.0"]
_PLATS = ["ECS", "Cloud Run", "AKS", "EKS", "Fly.io", "Render", "Heroku", "a plain VM", "Nomad", "GKE", "Lambda"]
_USERS = [
    "app",
    "svc_app",
    "deploy",
    "admin",
    "reporting_ro",
    "etl",
    "backup",
    "postgres",
    "ci-bot",
    "grafana",
    "metabase",
    "api_user",
]
_ORGS = [
    "acme",
    "northwind",
    "globex",
    "initech",
    "umbrella-labs",
    "hooli",
    "contoso",
    "fabrikam",
    "tyrell",
    "wayne-ent",
]
_DBS = ["app", "shop", "billing", "analytics", "core", "crm", "orders", "payments", "warehouse", "users"]


def _x(r):
    s1, s2 = r.sample(_STAGES, 2)
    v1, v2 = r.sample(_SVCS, 2)
    return SimpleNamespace(
        svc=v1,
        svc2=v2,
        st=s1,
        st2=s2,
        p=r.choice(_PEOPLE),
        tool=r.choice(_TOOLS),
        reg=r.choice(_REGIONS),
        date=f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        day=r.randint(1, 28),
        n=r.randint(2, 90),
        rt=r.choice(_RUNTIMES),
        plat=r.choice(_PLATS),
        mon=r.choice(_MONTHS),
        user=r.choice(_USERS),
        org=r.choice(_ORGS),
        db=r.choice(_DBS),
        box=f"{v1}-{r.randint(1, 9)}.{s1}.internal",
        ver=f"{r.randint(1, 4)}.{r.randint(0, 20)}.{r.randint(0, 9)}",
    )


def _snake(e):
    return e.lower()


def _camel(e):
    p = e.lower().split("_")
    return p[0] + "".join(w.title() for w in p[1:])


_BARE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_./+=:@-]*")
_URLSAFE = re.compile(r"[A-Za-z0-9._~-]+")


def _q(r, v, p=0.5):
    if _BARE.fullmatch(v) and r.random() < p:
        return v
    return '"' + v + '"'


def _sq(v):
    return "'" + v + "'"


# ==== prose templates

_EN = [
    "fyi the {st} {d} is {v}",
    "{d} for {svc} ({st}): {v}",
    "Remember: {svc} authenticates with the {d} `{v}`. It only lives here and in {p}'s password manager, move it to Vault soon.",
    "{v} <- {d} ({st}), {p} asked me to keep it handy",
    'Decision ({date}): keep one {d} for {st} and {st2} until the split. Current value is "{v}".',
    "Fixed the 401 from {svc}: the {d} in CI had a trailing newline. Correct value: {v}",
    "| service | env | {d} |\n|---|---|---|\n| {svc} | {st} | {v} |\n| {svc2} | {st2} | (see vault) |",
    "Handover for {p}:\n- deploys go through the {svc} pipeline on {plat}\n- {d}: {v}\n- on-call rota is pinned in #ops",
    "TODO: rotate the {d} ({v}) after the {mon} audit.",
    "User preference: when testing {svc} locally, use the {d} directly ({v}) instead of the mock server. Never echo it in PR descriptions.",
    'Error fixed: `{svc}` kept failing with "invalid credentials" because {e} was unset in the shell. Setting {e}={v} in .env.local fixed it.',
    "the {d} \u2192 {v}",
    "{p} pasted the {d} in chat: '{v}' (valid until the rotation on the {day}th).",
    "Project fact: {svc} calls the vendor with {d} {v}; the sandbox uses a different one.",
    "Lesson learned: never bake the {d} into the Docker image. It was {v} and ended up in a layer; we had to rebuild everything.",
    "Context for the next session\n\nWe moved {svc} to {plat}. Build is green, {n} tests skipped.\n\nCredentials: {d} = {v}\n\nOpen question: should we enable autoscaling?",
    "Q: which {d} does the {st} worker use?\nA: {v}",
    "When running the smoke tests against {st}, pass {v} as the {d}; otherwise the suite silently skips the integration cases.",
    "note to self: {e} is {v} (copied from the {st} vault by {p})",
    "{svc}/{st}: {d} updated on {date} -> {v}",
    "Facts about {svc}:\n* runtime: {rt}\n* region: {reg}\n* {d}: {v}\n* owner: {p}",
    "{p}: can you retry with {v}?\nassistant ({tool}): ok, using that as the {d} for {svc}. The call now returns 200.",
    "Preference: read the {d} from this note instead of asking {p} again. Value: {v}",
    "Spent an hour on this. Root cause was an expired {d}; the new one is {v}",
    '"{d}": "{v}" (from the {svc} onboarding doc, page {n})',
    "[{tool}] Saved for later: {d} `{v}`, needed by `make deploy-{st}`.",
    "Onboarding checklist for {svc}\n1. clone the repo\n2. run `make bootstrap`\n3. set the {d} to {v}\n4. run the tests",
    "Heads up: the {d} that {p} gave me ({v}) only works from the office VPN.",
    "Incident {date}: {svc} was down {n} minutes because the {d} was revoked. Replaced it with {v}; monitoring is green again.",
    "{st} {d} = {v}  # do not share outside the team",
    "Key facts\n- {svc} deploys from main\n- {d} is {v}\n- migrations run automatically on boot",
    "{v} is the {d} for {st}. {p} said it is fine to keep it in memory until the vault migration.",
]
_EN_PW = [
    "login for the {svc} admin panel: {user} / {v}",
    "{st} creds: user `{user}`, password `{v}`",
    "the {d} is {v} (the nightly cron depends on it, don't change it without telling {p})",
    "ssh {user}@{box}, password is {v}",
    "{p} reset the {d}; new one: {v}",
]
_PROSE = {
    "en": _EN,
    "de": [
        "Notiz: der {d} für {st} ist {v} \u2013 bitte nicht ins Repo committen.",
        "Übergabe an {p}: {svc} nutzt als {d} {v}. Rotation ist für {mon} geplant.",
        "Fehler behoben: {svc} lieferte 401, weil der {d} abgelaufen war. Neuer Wert: {v}",
        "Merke: {e}={v} in der .env.local setzen, sonst schlagen die Integrationstests fehl.",
    ],
    "es": [
        "Nota: la {d} de {st} es {v}; no la subas al repo.",
        "Para {p}: usa {v} como {d} en {svc} hasta que migremos a Vault.",
        "Error resuelto: {svc} devolvía 403 porque faltaba {e}. Valor correcto: {v}",
    ],
    "pt": [
        "Lembrete: o {d} do {svc} em {st} é {v}.",
        "Corrigido o erro 403: faltava o {d} ({v}). Não commitar.",
        "Passagem de turno para {p}: {e}={v} (ambiente {st})",
    ],
    "fr": [
        "Note : le {d} de {st} est {v} (ne pas le mettre dans git).",
        "Passation pour {p} : {svc} utilise le {d} suivant \u2192 {v}",
        "Erreur corrigée : le {d} avait expiré, le nouveau est « {v} ».",
    ],
    "it": [
        "Promemoria: il {d} di {st} è {v}.",
        "Per {p}: {svc} usa {v} come {d}, non committarlo.",
    ],
    "pl": [
        "Notatka: {d} dla {st} to {v} \u2013 nie wrzucać do repo.",
        "Przekazanie dla {p}: {svc}, {d}: {v}",
    ],
    "nl": [
        "Let op: de {d} voor {st} is {v}.",
        "Overdracht voor {p}: {svc} gebruikt {d} {v}, niet committen.",
    ],
    "ja": [
        "メモ: {st}の{d}は {v} です。リポジトリにはコミットしないこと。",
        "{p}さんへの引き継ぎ: {svc} の {d} \u2192 {v}",
    ],
    "ko": [
        "메모: {st} {d}는 {v} 입니다. 커밋하지 마세요.",
        "{p}님께 인수인계: {svc}의 {d}: {v}",
    ],
    "zh": [
        "备忘：{st} 环境的 {d} 是 {v}，不要提交到仓库。",
        "交接给 {p}：{svc} 使用的 {d} 为 {v}",
    ],
    "hi": [
        "yaad rakhna: {st} ka {d} {v} hai, repo mein commit mat karna.",
        "{p} ke liye handover: {svc} ka {d} hai {v}",
    ],
    "tr": [
        "Not: {st} ortamının {d} değeri {v}, repoya commit etme.",
        "{p} için devir notu: {svc} {d} \u2192 {v}",
    ],
}
_LANGS = list(_PROSE)
_LANG_W = [58] + [42 / (len(_LANGS) - 1)] * (len(_LANGS) - 1)

_PRE_P = [
    "",
    "",
    "",
    "",
    "Note: ",
    "[memory] ",
    "- ",
    "## Handover\n\n",
    "Lesson: ",
    "(saved by {tool}) ",
    "memory/{date}.md\n",
    "> ",
    "* [{svc}] ",
    "{date} \u00b7 {tool}\n",
    "### {svc}\n",
]
_SUF_P = [
    "",
    "",
    "",
    "",
    "\n\n#{svc} #{st}",
    " (tags: creds, {st})",
    "\n\u2014 {p}",
    "\n\nsource: chat with {p}, {date}",
]
_PRE_C = [
    "",
    "",
    "",
    "",
    "{svc} config snippet:\n",
    "Pasted from the {st} box:\n",
    "What I found in the repo ({date}):\n\n",
    "Relevant part of the file, for reference:\n",
    "[{tool}] captured output:\n",
    "From {p}'s handover:\n\n",
]
_SUF_C = [
    "",
    "",
    "",
    "",
    "\n\n^ this is what {svc} runs with on {st}.",
    "\n(copied {date})",
    "\n\nTODO: move this into the secret store.",
]


def _frame(r, c, t, fam):
    f = vars(c)
    if fam == "prose":
        return r.choice(_PRE_P).format(**f) + t + r.choice(_SUF_P).format(**f)
    if r.random() < 0.2:
        t = "```\n" + t + "\n```"
    return r.choice(_PRE_C).format(**f) + t + r.choice(_SUF_C).format(**f)


# ==== config templates

_ENV_FILL = [
    "NODE_ENV=production",
    "PORT=8080",
    "LOG_LEVEL=info",
    "TZ=UTC",
    "FEATURE_NEW_CHECKOUT=true",
    "REDIS_HOST=redis",
    "DB_HOST=db.internal",
    "WORKERS=4",
    "HTTP_TIMEOUT=30",
    "APP_ENV=staging",
    "RUST_LOG=info",
    "PYTHONUNBUFFERED=1",
    "OTEL_SERVICE_NAME=api",
    "CACHE_TTL=300",
    "DEBUG=false",
]


def _c_env(r, c):
    ls = r.sample(_ENV_FILL, r.randint(2, 5))
    ls.insert(r.randint(0, len(ls)), f"{c.e}={_q(r, c.v, 0.6)}")
    return ("# .env\n" if r.random() < 0.3 else "") + "\n".join(ls)


def _c_yaml(r, c):
    k = ch(r, _snake(c.e), _camel(c.e), "api_key", "token", "secret") if c.m == "tok" else _snake(c.e)
    return (
        f"{c.vk}:\n  enabled: true\n  endpoint: https://{c.host}\n  {k}: {_q(r, c.v)}\n"
        f"  timeout_seconds: {r.randint(5, 60)}"
    )


def _c_json(r, c):
    k = ch(r, _camel(c.e), c.e, _snake(c.e))
    o = {"Logging": {"LogLevel": {"Default": "Information"}}, c.vk.title(): {"BaseUrl": f"https://{c.host}", k: c.v}}
    if r.random() < 0.5:
        o = {"name": c.svc, "env": c.st, k: c.v, "retries": r.randint(1, 5)}
    return json.dumps(o, indent=ch(r, 2, 4), ensure_ascii=False)


def _c_toml(r, c):
    return f'[{c.vk}]\nbase_url = "https://{c.host}"\n{_snake(c.e)} = "{c.v}"\nmax_retries = {r.randint(1, 6)}'


def _c_ini(r, c):
    return f"[{c.vk}]\nhost = {c.host}\n{_snake(c.e)} = {c.v}\nverify_ssl = true"


def _c_py(r, c):
    if r.random() < 0.5:
        return f'# settings/{c.st}.py\nDEBUG = False\nALLOWED_HOSTS = ["{c.svc}.example.com"]\n{c.e} = "{c.v}"\n'
    return f'client = {c.vk.title().replace("-", "")}Client(\n    {_snake(c.e)}="{c.v}",\n    timeout={r.randint(5, 30)},\n)'


def _c_ts(r, c):
    return (
        f"export const config = {{\n  baseUrl: 'https://{c.host}',\n  {_camel(c.e)}: '{c.v}',\n"
        f"  retries: {r.randint(1, 5)},\n}};"
    )


def _c_go(r, c):
    if r.random() < 0.5:
        return f'package config\n\nconst {_camel(c.e)} = "{c.v}"'
    return f'cfg := Config{{\n\tEndpoint: "https://{c.host}",\n\t{_camel(c.e).title()}: "{c.v}",\n}}'


def _c_rust(r, c):
    return f'const {c.e}: &str = "{c.v}";\n\nfn endpoint() -> &\'static str {{ "https://{c.host}" }}'


def _c_java(r, c):
    if r.random() < 0.5:
        return (
            f"# application.properties\n{c.vk}.base-url=https://{c.host}\n{c.vk}.{_snake(c.e).replace('_', '-')}={c.v}"
        )
    return f'public final class {c.vk.title().replace("-", "")}Config {{\n    private static final String {c.e} = "{c.v}";\n}}'


def _c_kotlin(r, c):
    return f'object Secrets {{\n    const val {c.e} = "{c.v}"\n}}'


def _c_cs(r, c):
    return f'var client = new {c.vk.title().replace("-", "")}Client(new ClientOptions\n{{\n    Endpoint = "https://{c.host}",\n    {_camel(c.e).title()} = "{c.v}",\n}});'


def _c_php(r, c):
    return f"<?php\n\nreturn [\n    'endpoint' => 'https://{c.host}',\n    '{_snake(c.e)}' => '{c.v}',\n];"


def _c_ruby(r, c):
    return f'{c.vk.title().replace("-", "")}.configure do |config|\n  config.{_snake(c.e)} = "{c.v}"\nend'


def _c_sh(r, c):
    return f"#!/usr/bin/env bash\nset -euo pipefail\nexport {c.e}='{c.v}'\n./bin/{c.svc} --env {c.st}"


def _c_docker(r, c):
    return f'FROM python:3.12-slim\nWORKDIR /app\nCOPY . .\nENV {c.e}={_q(r, c.v, 0.7)}\nCMD ["python", "-m", "app"]'


def _c_compose(r, c):
    return (
        f"services:\n  {c.svc}:\n    image: ghcr.io/{c.org}/{c.svc}:{c.ver}\n    environment:\n"
        f'      {c.e}: "{c.v}"\n      LOG_LEVEL: info\n    ports:\n      - "8080:8080"'
    )


def _c_helm(r, c):
    return (
        f'# values-{c.st}.yaml\nreplicaCount: {r.randint(1, 6)}\nimage:\n  tag: "{c.ver}"\n'
        f'config:\n  {_camel(c.e)}: "{c.v}"'
    )


def _c_k8s(r, c):
    return (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c.svc}-env\n  namespace: {c.st}\n"
        f'type: Opaque\nstringData:\n  {c.e}: "{c.v}"'
    )


def _c_tf(r, c):
    if r.random() < 0.5:
        return f'variable "{_snake(c.e)}" {{\n  type    = string\n  default = "{c.v}"\n}}'
    return f'provider "{c.vk}" {{\n  {_snake(c.e)} = "{c.v}"\n}}'


def _c_ansible(r, c):
    return f'# group_vars/{c.st}.yml\n{c.svc.replace("-", "_")}_port: 8080\n{_snake(c.e)}: "{c.v}"'


def _c_gha(r, c):
    return (
        f'jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {c.e}: "{c.v}"\n'
        f"    steps:\n      - uses: actions/checkout@v4\n      - run: make deploy-{c.st}"
    )


def _c_gitlab(r, c):
    return f'variables:\n  {c.e}: "{c.v}"\n\ndeploy:\n  stage: deploy\n  script:\n    - ./deploy.sh {c.st}'


def _c_nginx(r, c):
    if c.hdr:
        return (
            f"location /upstream/ {{\n    proxy_pass https://{c.host}/;\n"
            f'    proxy_set_header {c.hdr[0]} "{c.hdr[1]}{c.v}";\n}}'
        )
    return f'location ~ \\.php$ {{\n    fastcgi_pass php:9000;\n    fastcgi_param {c.e} "{c.v}";\n}}'


def _c_systemd(r, c):
    return (
        f'[Unit]\nDescription={c.svc}\n\n[Service]\nEnvironment="{c.e}={c.v}"\n'
        f"ExecStart=/opt/{c.svc}/bin/{c.svc}\nRestart=always"
    )


_CFG = [
    _c_env,
    _c_env,
    _c_yaml,
    _c_json,
    _c_toml,
    _c_ini,
    _c_py,
    _c_ts,
    _c_go,
    _c_rust,
    _c_java,
    _c_kotlin,
    _c_cs,
    _c_php,
    _c_ruby,
    _c_sh,
    _c_docker,
    _c_compose,
    _c_helm,
    _c_k8s,
    _c_tf,
    _c_ansible,
    _c_gha,
    _c_gitlab,
    _c_nginx,
    _c_systemd,
]

# ==== tool output templates

_ENV_DUMP = [
    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME=/root",
    "LANG=C.UTF-8",
    "SHLVL=1",
    "TERM=xterm",
    "PYTHON_VERSION=3.12.4",
    "NODE_VERSION=20.14.0",
    "PWD=/app",
    "LOG_LEVEL=info",
    "KUBERNETES_SERVICE_HOST=10.96.0.1",
    "KUBERNETES_SERVICE_PORT=443",
    "TZ=UTC",
    "APP_PORT=8080",
]


def _t_printenv(r, c):
    return f"$ printenv | grep -i {c.e.split('_')[0].lower()}\n{c.e}={c.v}"


def _t_env(r, c):
    ls = [*r.sample(_ENV_DUMP, r.randint(4, 8)), f"{c.e}={c.v}", f"HOSTNAME={c.svc}-{hx(r, 10)}-{rs(r, 5, LD)}"]
    r.shuffle(ls)
    return ch(
        r, "$ env\n", "$ kubectl exec deploy/" + c.svc + " -- env\n", "root@" + hx(r, 12) + ":/app# env\n"
    ) + "\n".join(ls)


def _t_docker(r, c):
    env = [*r.sample(_ENV_DUMP[:6], 3), f"{c.e}={c.v}"]
    r.shuffle(env)
    body = json.dumps({"Hostname": hx(r, 12), "Image": f"{c.svc}:{c.ver}", "Env": env}, indent=4)
    return f"$ docker inspect {c.svc} --format '{{{{json .Config}}}}' | jq\n{body}"


def _t_kdesc(r, c):
    return (
        f"Name:         {c.svc}-{hx(r, 9)}-{rs(r, 5, LD)}\nNamespace:    {c.st}\nNode:         ip-{ip(r).replace('.', '-')}\n"
        f"Status:       Running\nContainers:\n  app:\n    Image:          ghcr.io/{c.org}/{c.svc}:{c.ver}\n"
        f"    Environment:\n      LOG_LEVEL:  info\n      {c.e}:  {c.v}\n    Mounts:\n"
        f"      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-{rs(r, 5, LD)} (ro)"
    )


def _t_kyaml(r, c):
    return (
        f"$ kubectl get deploy {c.svc} -n {c.st} -o yaml\n...\n    spec:\n      containers:\n      - env:\n"
        f"        - name: LOG_LEVEL\n          value: info\n        - name: {c.e}\n          value: {_q(r, c.v)}\n"
        f"        image: ghcr.io/{c.org}/{c.svc}:{c.ver}"
    )


def _t_gha(r, c):
    return (
        f"Run ./scripts/deploy.sh {c.st}\n  ./scripts/deploy.sh {c.st}\n  shell: /usr/bin/bash -e {{0}}\n"
        f"  env:\n    {c.e}: {c.v}\n    DEPLOY_ENV: {c.st}\nDeploying {c.svc} {c.ver}..."
    )


def _t_gitlab(r, c):
    return (
        f'Running with gitlab-runner 16.{r.randint(0, 11)}.0\n$ echo "debug: {c.e}=${c.e}"\n'
        f"debug: {c.e}={c.v}\n$ ./deploy.sh\nJob succeeded"
    )


def _t_pytb(r, c):
    return (
        f'Traceback (most recent call last):\n  File "/app/{c.svc.replace("-", "_")}/client.py", line {r.randint(20, 300)}, in connect\n'
        f"    resp.raise_for_status()\nrequests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://{c.host}{c.path}\n\n"
        f"Locals at frame:\n  settings = {{'{_snake(c.e)}': '{c.v}', 'timeout': {r.randint(5, 30)}, 'env': '{c.st}'}}"
    )


def _t_actuator(r, c):
    return "$ curl -s localhost:8081/actuator/env | jq '.propertySources[1].properties'\n" + json.dumps(
        {c.e: {"value": c.v, "origin": "System Environment Property"}, "SERVER_PORT": {"value": "8080"}}, indent=2
    )


def _t_heroku(r, c):
    return f"$ heroku config -a {c.svc}-{c.st}\n=== {c.svc}-{c.st} Config Vars\nLOG_LEVEL: info\n{c.e}: {c.v}\nWEB_CONCURRENCY: {r.randint(2, 8)}"


def _t_lambda(r, c):
    body = json.dumps(
        {
            "FunctionName": f"{c.svc}-{c.st}",
            "Runtime": "python3.12",
            "Environment": {"Variables": {"STAGE": c.st, c.e: c.v}},
        },
        indent=4,
    )
    return f"$ aws lambda get-function-configuration --function-name {c.svc}-{c.st}\n{body}"


def _t_gcloud(r, c):
    return (
        f"$ gcloud run services describe {c.svc} --region {ch(r, 'europe-west1', 'us-central1')} --format yaml\n"
        f"spec:\n  template:\n    spec:\n      containers:\n      - env:\n        - name: {c.e}\n"
        f"          value: {_q(r, c.v)}\n        image: europe-docker.pkg.dev/{c.org}/{c.svc}:{c.ver}"
    )


def _t_az(r, c):
    body = json.dumps(
        [
            {"name": "WEBSITES_PORT", "slotSetting": False, "value": "8080"},
            {"name": c.e, "slotSetting": False, "value": c.v},
        ],
        indent=2,
    )
    return f"$ az webapp config appsettings list -g rg-{c.svc} -n {c.svc}-{c.st}\n{body}"


def _t_setx(r, c):
    return (
        f"+ cd /srv/{c.svc}\n+ export {c.e}={c.v}\n+ ./bin/migrate --env {c.st}\nmigrations: {r.randint(0, 9)} applied"
    )


def _t_systemctl(r, c):
    return f"$ systemctl show {c.svc} -p Environment\nEnvironment=LANG=C.UTF-8 {c.e}={c.v} PORT=8080"


def _t_node(r, c):
    return f"$ node\nWelcome to Node.js v20.14.0.\n> process.env.{c.e}\n'{c.v}'\n> .exit"


def _t_jupyter(r, c):
    return f"In [{r.randint(1, 40)}]: os.environ[\"{c.e}\"]\nOut[{r.randint(1, 40)}]: '{c.v}'"


def _t_tfout(r, c):
    return f"$ terraform output -raw {_snake(c.e)}\n{c.v}"


def _t_compose_cfg(r, c):
    return (
        f"$ docker compose config\nname: {c.svc}\nservices:\n  app:\n    environment:\n"
        f'      {c.e}: {_q(r, c.v)}\n      PORT: "8080"\n    image: {c.svc}:{c.ver}'
    )


_TOOL = [
    _t_printenv,
    _t_env,
    _t_docker,
    _t_kdesc,
    _t_kyaml,
    _t_gha,
    _t_gitlab,
    _t_pytb,
    _t_actuator,
    _t_heroku,
    _t_lambda,
    _t_gcloud,
    _t_az,
    _t_setx,
    _t_systemctl,
    _t_node,
    _t_jupyter,
    _t_tfout,
    _t_compose_cfg,
]


def _h(c):
    return f"{c.hdr[0]}: {c.hdr[1]}{c.v}"


def _t_curlv(r, c):
    ipa = pubip(r)
    return (
        f'$ curl -v https://{c.host}{c.path} -H "{c.hdr[0]}: {c.hdr[1]}$TOKEN"\n*   Trying {ipa}:443...\n'
        f"* Connected to {c.host} ({ipa}) port 443\n* SSL connection using TLSv1.3 / TLS_AES_128_GCM_SHA256\n"
        f"> GET {c.path} HTTP/2\n> Host: {c.host}\n> User-Agent: curl/8.{r.randint(0, 9)}.0\n> Accept: */*\n"
        f"> {_h(c)}\n>\n< HTTP/2 {ch(r, 200, 401, 403, 429)}\n< content-type: application/json\n"
        f"< x-request-id: {uid(r)}\n<"
    )


def _t_http(r, c):
    return (
        f"{ch(r, 'POST', 'GET', 'PUT')} {c.path} HTTP/1.1\nHost: {c.host}\n{_h(c)}\nContent-Type: application/json\n"
        f'User-Agent: {c.svc}/{c.ver}\n\n{{"dry_run": {ch(r, "true", "false")}}}'
    )


def _t_har(r, c):
    return json.dumps(
        {
            "request": {
                "method": "GET",
                "url": f"https://{c.host}{c.path}",
                "headers": [
                    {"name": "accept", "value": "application/json"},
                    {"name": c.hdr[0], "value": c.hdr[1] + c.v},
                ],
            }
        },
        indent=2,
    )


def _t_reqdebug(r, c):
    return (
        f"DEBUG:urllib3.connectionpool:Starting new HTTPS connection (1): {c.host}:443\n"
        f"send: b'GET {c.path} HTTP/1.1\\r\\nHost: {c.host}\\r\\n{_h(c)}\\r\\nAccept: */*\\r\\n\\r\\n'\n"
        f"reply: 'HTTP/1.1 {ch(r, 200, 401, 500)} '"
    )


def _t_axios(r, c):
    return (
        f"AxiosError: Request failed with status code {ch(r, 401, 403, 500, 502)}\n    at settle ({_AXIOS}:19:12)\n"
        f"  config: {{\n    url: 'https://{c.host}{c.path}',\n    headers: {{\n      Accept: 'application/json',\n"
        f"      '{c.hdr[0]}': '{c.hdr[1]}{c.v}'\n    }}\n  }}"
    )


def _t_httpie(r, c):
    return (
        f"$ http -v {c.host}{c.path} '{c.hdr[0]}:{c.hdr[1]}'$TOKEN\nGET {c.path} HTTP/1.1\nAccept: */*\n"
        f"{_h(c)}\nHost: {c.host}\nUser-Agent: HTTPie/3.2.2\n\nHTTP/1.1 200 OK"
    )


_HDR = [_t_curlv, _t_http, _t_har, _t_reqdebug, _t_axios, _t_httpie]


def _t_qlog(r, c):
    return (
        f"{ip(r)} - - [{r.randint(1, 28):02d}/Mar/2024:{r.randint(0, 23):02d}:{r.randint(10, 59)}:07 +0000] "
        f'"GET {c.path}?api_key={c.v}&page={r.randint(1, 9)} HTTP/1.1" 200 {r.randint(200, 9000)} "-" "python-requests/2.32.3"'
    )


def _t_qcurl(r, c):
    return f"$ curl -s 'https://{c.host}{c.path}?key={c.v}' | jq '.status'\n\"ok\""


_QRY = [_t_qlog, _t_qcurl]

# ==== PEM templates

_PEM_INTRO = [
    "Deploy key for {svc} (read-only on the repo):",
    "Der SSH-Key für den Build-Server:",
    "La clave privada del bastión de {st}:",
    "Chave privada do servidor de CI:",
    "Clé privée du bastion {st} :",
    "踏み台サーバーの秘密鍵:",
    "배포용 개인 키 ({svc}):",
    "堡垒机私钥：",
    "Klucz prywatny do serwera CI:",
    "{st} bastion ki private key:",
    "Sunucu özel anahtarı ({svc}):",
    "De private key voor de deploy-user:",
    "Chiave privata del runner:",
    "{p} sent me the {d} for {svc} so I can ssh into {box}:",
    "Keeping the {d} here until the vault migration is done:",
    "[memory] {d} used by the {svc} release job",
]
_PEM_OUTRO = [
    "",
    "",
    "The public half is already in authorized_keys.",
    "Do not print this in PRs.",
    "(rotated on {date})",
]


def _pm_prose(r, c):
    f = vars(c)
    return r.choice(_PEM_INTRO).format(**f) + "\n\n" + c.v + "\n\n" + r.choice(_PEM_OUTRO).format(**f)


def _pm_heredoc(r, c):
    return f"mkdir -p ~/.ssh\ncat > ~/.ssh/{c.fname} <<'EOF'\n{c.v}\nEOF\nchmod 600 ~/.ssh/{c.fname}"


def _pm_py(r, c):
    return f'{c.e} = """{c.v}\n"""\n\nsigner = load_key({c.e}.encode())'


def _pm_tf(r, c):
    return f'resource "local_sensitive_file" "{c.fname.replace(".", "_")}" {{\n  filename = "keys/{c.fname}"\n  content  = <<-EOT\n{c.v}\nEOT\n}}'


def _pm_env(r, c):
    return f'# .env\n{c.e}="{c.v}"\nLOG_LEVEL=debug'


def _pm_go(r, c):
    return f"var {_camel(c.e)} = []byte(`{c.v}`)"


def _pm_ts(r, c):
    return f"const {_camel(c.e)} = `{c.v}`;\n\nexport default {_camel(c.e)};"


def _pm_cat(r, c):
    return f"$ cat ~/.ssh/{c.fname}\n{c.v}\n$ ls -l ~/.ssh/{c.fname}\n-rw------- 1 {c.user} {c.user} {len(c.v) + 1} Mar  {r.randint(1, 28)} 10:{r.randint(10, 59)} /home/{c.user}/.ssh/{c.fname}"


def _pm_kexec(r, c):
    return f"$ kubectl exec -n {c.st} deploy/{c.svc} -- cat /etc/{c.svc}/{c.fname}\n{c.v}"


def _pm_vault(r, c):
    return f"$ vault kv get -field=private_key secret/{c.svc}/{c.st}\n{c.v}"


_PEM_T = {
    "prose": [_pm_prose],
    "cfg": [_pm_heredoc, _pm_py, _pm_tf, _pm_env, _pm_go, _pm_ts],
    "tool": [_pm_cat, _pm_kexec, _pm_vault],
}


# ==== kinds


def _k(v, d, e, m="tok", s=None, hdr=None, host="api.example.com", path="/v1/me", vk=None, sp=(), fname="id_deploy"):
    return {
        "v": v,
        "s": s or v,
        "d": d,
        "e": e,
        "m": m,
        "hdr": hdr,
        "host": host,
        "path": path,
        "vk": vk or e.split("_")[0].lower(),
        "sp": list(sp),
        "fname": fname,
    }


_BEARER = ("Authorization", "Bearer ")


def k_aws_secret(r, x):
    kid = P_AK + rs(r, 16, B32)
    v = rs(r, 40, AN + "/+")
    prof = ch(r, "default", "prod", "backup", x.st, "ci")
    sp = [
        f"[{prof}]\naws_access_key_id = {kid}\naws_secret_access_key = {v}\nregion = {x.reg}",
        f"$ aws configure --profile {prof}\nAWS Access Key ID [None]: {kid}\nAWS Secret Access Key [None]: {v}\n"
        f"Default region name [None]: {x.reg}\nDefault output format [None]: json",
        f'session = boto3.Session(\n    aws_access_key_id="{kid}",\n    aws_secret_access_key="{v}",\n    region_name="{x.reg}",\n)',
        f"IAM user {x.user} for the backup job: key id {kid}, secret {v}. Scoped to the {x.svc}-backups bucket only.",
        f"export AWS_ACCESS_KEY_ID={kid}\nexport AWS_SECRET_ACCESS_KEY={v}\nexport AWS_DEFAULT_REGION={x.reg}",
    ]
    d = ch(r, "AWS secret access key", "AWS secret key", "secret access key of the deploy IAM user")
    return _k(v, d, "AWS_SECRET_ACCESS_KEY", vk="aws", host="sts.amazonaws.com", sp=sp)


def k_aws_session(r, x):
    v = "IQoJb3JpZ2luX2Vj" + rs(r, 1, "EFGHIJ") + rs(r, r.randint(360, 720), B64A)
    kid = P_ASIA + rs(r, 16, B32)
    sp = [
        f"[{x.st}-sso]\naws_access_key_id = {kid}\naws_session_token = {v}\nregion = {x.reg}",
        f"export AWS_SESSION_TOKEN={v}\nexport AWS_REGION={x.reg}",
    ]
    return _k(
        v,
        ch(r, "AWS session token", "temporary AWS session token", "STS session token"),
        "AWS_SESSION_TOKEN",
        vk="aws",
        sp=sp,
    )


def k_gcp_sa(r, x):
    proj = f"{x.svc}-{rs(r, 6, LD)}"
    key = pkcs8_pem(r)
    s = key.replace("\n", "\\n")
    sa = ch(r, "deployer", "ci-runner", "bq-export", "terraform", x.svc)
    o = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": hx(r, 40),
        "private_key": key + "\n",
        "client_email": f"{sa}@{proj}.iam.gserviceaccount.com",
        "client_id": dg(r, 21),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
        "universe_domain": "googleapis.com",
    }
    j = json.dumps(o, indent=2)
    fn = f"{proj}-{hx(r, 12)}.json"
    sp = [
        f"$ cat ~/Downloads/{fn}\n{j}",
        f"GCP service account key for {proj} ({sa}, roles/editor):\n\n{j}",
        f"GOOGLE_CREDENTIALS='{json.dumps(o)}'",
        f"{x.p} uploaded {fn} to the shared drive; contents for reference:\n{j}",
    ]
    return _k(key, "GCP service account key", "GOOGLE_CREDENTIALS", m="sp", s=s, sp=sp)


def k_google_client_secret(r, x):
    v = P_GOC + rs(r, 28, B64U)
    cid = f"{dg(r, 12)}-{rs(r, 32, LD)}.apps.googleusercontent.com"
    cs = json.dumps(
        {
            "web": {
                "client_id": cid,
                "project_id": f"{x.svc}-{rs(r, 6, LD)}",
                "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                "token_uri": "https://oauth2.googleapis.com/token",
                "client_secret": v,
                "redirect_uris": [f"https://{x.svc}.example.com/auth/callback"],
            }
        },
        indent=2,
    )
    sp = [cs, f"GOOGLE_CLIENT_ID={cid}\nGOOGLE_CLIENT_SECRET={v}\nNEXTAUTH_URL=https://{x.svc}.example.com"]
    return _k(
        v, ch(r, "Google OAuth client secret", "Google client secret"), "GOOGLE_CLIENT_SECRET", vk="google", sp=sp
    )


def k_google_api(r, x):
    v = P_AZ + rs(r, 35, B64U)
    sp = [
        f"$ curl -s 'https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent?key={v}' \\\n"
        f"    -H 'Content-Type: application/json' -d @prompt.json",
        f'genai.configure(api_key="{v}")\nmodel = genai.GenerativeModel("gemini-1.5-pro")',
    ]
    d = ch(
        r, "Gemini API key", "Google Maps server key", "server-side Google API key", "YouTube Data API key (backend)"
    )
    e = ch(r, "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_MAPS_SERVER_KEY")
    return _k(
        v,
        d,
        e,
        hdr=("x-goog-api-key", ""),
        host="generativelanguage.googleapis.com",
        path="/v1beta/models",
        vk="google",
        sp=sp,
    )


def k_google_refresh(r, x):
    v = "1//0" + rs(r, 1, "34569cdeg") + rs(r, r.randint(96, 100), B64U)
    cid = f"{dg(r, 12)}-{rs(r, 32, LD)}.apps.googleusercontent.com"
    sp = [
        json.dumps(
            {
                "refresh_token": v,
                "client_id": cid,
                "token_uri": "https://oauth2.googleapis.com/token",
                "scopes": ["https://www.googleapis.com/auth/drive.readonly"],
            },
            indent=2,
        )
    ]
    return _k(
        v,
        ch(r, "Google OAuth refresh token", "refresh token for the Drive export"),
        "GOOGLE_REFRESH_TOKEN",
        vk="google",
        sp=sp,
    )


def k_azure_storage(r, x):
    v = b64(r.randbytes(64))
    acct = f"st{x.svc.replace('-', '')[:10]}{rs(r, 4, LD)}"
    cs = f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={v};EndpointSuffix=core.windows.net"
    sp = [
        f'AZURE_STORAGE_CONNECTION_STRING="{cs}"',
        f"$ az storage account keys list -g rg-{x.svc} -n {acct} --query '[0]'\n"
        + json.dumps({"creationTime": iso(r), "keyName": "key1", "permissions": "FULL", "value": v}, indent=2),
        f"Storage connection string for {acct}: {cs}",
        json.dumps({"ConnectionStrings": {"Blob": cs}}, indent=2),
    ]
    return _k(
        v, ch(r, "Azure storage account key", "storage account access key"), "AZURE_STORAGE_KEY", vk="azure", sp=sp
    )


def k_azure_client_secret(r, x):
    v = rs(r, 3, AN) + rs(r, 1, DI) + "Q~" + rs(r, 33, AN + "_.~-") + rs(r, 1, AN)
    app, ten = uid(r), uid(r)
    sp = [
        f"$ az ad sp create-for-rbac --name {x.svc}-{x.st}\n"
        + json.dumps({"appId": app, "displayName": f"{x.svc}-{x.st}", "password": v, "tenant": ten}, indent=2),
        f"AZURE_TENANT_ID={ten}\nAZURE_CLIENT_ID={app}\nAZURE_CLIENT_SECRET={v}",
    ]
    return _k(
        v,
        ch(r, "Azure client secret", "Entra app client secret", "service principal secret"),
        "AZURE_CLIENT_SECRET",
        vk="azure",
        sp=sp,
    )


def k_azure_sas(r, x):
    sig = b64(r.randbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = f"st{x.svc.replace('-', '')[:10]}{rs(r, 4, LD)}"
    url = (
        f"https://{acct}.blob.core.windows.net/{ch(r, 'exports', 'backups', 'uploads')}/{x.db}-{x.date}.csv?"
        f"sv=2022-11-02&ss=b&srt=sco&sp={ch(r, 'r', 'rl', 'rwdlac')}&se=2025-0{r.randint(1, 9)}-01T00:00:00Z"
        f"&st={x.date}T00:00:00Z&spr=https&sig={sig}"
    )
    sp = [
        f'$ azcopy copy ./dump.sql "{url}"\nINFO: Scanning...\nJob {uid(r)} has started',
        f"SAS link for the export bucket (valid 30 days): {url}",
    ]
    return _k(
        url, ch(r, "Azure SAS URL", "SAS link", "blob SAS URL"), "AZURE_BLOB_SAS_URL", m="url", s=sig, vk="azure", sp=sp
    )


def k_azure_devops(r, x):
    v = rs(r, 52, LO + "234567")
    sp = [
        f"git clone https://{x.user}:{v}@dev.azure.com/{x.org}/{x.svc}/_git/{x.svc}",
        f"export AZURE_DEVOPS_EXT_PAT={v}\naz devops configure --defaults organization=https://dev.azure.com/{x.org}",
    ]
    return _k(v, ch(r, "Azure DevOps PAT", "ADO personal access token"), "AZURE_DEVOPS_PAT", vk="azure", sp=sp)


def k_aws_presigned(r, x):
    sig = hx(r, 64)
    kid = P_AK + rs(r, 16, B32)
    url = (
        f"https://{x.svc}-{ch(r, 'exports', 'assets', 'reports')}.s3.{x.reg}.amazonaws.com/{x.db}/{x.date}.parquet?"
        f"X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={kid}%2F{x.date.replace('-', '')}%2F{x.reg}%2Fs3%2Faws4_request"
        f"&X-Amz-Date={x.date.replace('-', '')}T{r.randint(10, 23)}0000Z&X-Amz-Expires={ch(r, 3600, 604800, 900)}"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    sp = [
        f"$ aws s3 presign s3://{x.svc}-exports/{x.db}/{x.date}.parquet --expires-in 604800\n{url}",
        f"Download link for the client: {url}",
    ]
    return _k(url, ch(r, "pre-signed S3 URL", "presigned download link"), "EXPORT_URL", m="url", s=sig, vk="aws", sp=sp)


def k_gcs_signed(r, x):
    sig = hx(r, 512)
    proj = f"{x.svc}-{rs(r, 5, LD)}"
    url = (
        f"https://storage.googleapis.com/{proj}-exports/{x.db}.csv?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        f"&X-Goog-Credential=signer%40{proj}.iam.gserviceaccount.com%2F{x.date.replace('-', '')}%2Fauto%2Fstorage%2Fgoog4_request"
        f"&X-Goog-Date={x.date.replace('-', '')}T101500Z&X-Goog-Expires={ch(r, 900, 3600, 86400)}&X-Goog-SignedHeaders=host"
        f"&X-Goog-Signature={sig}"
    )
    sp = [f"$ gsutil signurl -d 1h key.json gs://{proj}-exports/{x.db}.csv\nURL:\t{url}"]
    return _k(url, ch(r, "GCS signed URL", "signed download URL"), "SIGNED_URL", m="url", s=sig, vk="gcs", sp=sp)


def k_digitalocean(r, x):
    v = "do" + "p_v1_" + hx(r, 64)
    sp = [f"$ doctl auth init --access-token {v}\nValidating token... OK"]
    return _k(
        v,
        ch(r, "DigitalOcean token", "DO API token"),
        "DIGITALOCEAN_TOKEN",
        hdr=_BEARER,
        host="api.digitalocean.com",
        path="/v2/account",
        sp=sp,
    )


def k_cloudflare(r, x):
    v = rs(r, 40, B64U)
    sp = [
        f'$ curl -s https://api.cloudflare.com{_CF_VERIFY} -H "Authorization: Bearer {v}"\n'
        + json.dumps({"result": {"id": hx(r, 32), "status": "active"}, "success": True, "errors": [], "messages": []})
    ]
    return _k(
        v,
        ch(r, "Cloudflare API token", "Cloudflare DNS token"),
        "CLOUDFLARE_API_TOKEN",
        hdr=_BEARER,
        host="api.cloudflare.com",
        path="/client/v4/zones",
        sp=sp,
    )


def k_heroku(r, x):
    v = uid(r)
    sp = [
        f"$ cat ~/.netrc\nmachine api.heroku.com\n  login {x.user}@{x.org}.com\n  password {v}\nmachine git.heroku.com\n  login {x.user}@{x.org}.com",
        f"$ heroku auth:token\n \u203a   Warning: token will expire {x.date}\n{v}",
    ]
    return _k(
        v,
        ch(r, "Heroku API key", "Heroku API token"),
        "HEROKU_API_KEY",
        hdr=_BEARER,
        host="api.heroku.com",
        path="/apps",
        sp=sp,
    )


def k_vercel(r, x):
    v = rs(r, 24)
    sp = [f"- run: npx vercel deploy --prod --token {v}", f"vercel pull --yes --environment=production --token={v}"]
    return _k(
        v,
        ch(r, "Vercel token", "Vercel access token"),
        "VERCEL_TOKEN",
        hdr=_BEARER,
        host="api.vercel.com",
        path="/v9/projects",
        sp=sp,
    )


def k_netlify(r, x):
    v = "nf" + "p_" + rs(r, 36)
    sp = [f"netlify deploy --prod --dir dist --auth {v}"]
    return _k(
        v,
        ch(r, "Netlify access token", "Netlify PAT"),
        "NETLIFY_AUTH_TOKEN",
        hdr=_BEARER,
        host="api.netlify.com",
        path="/api/v1/sites",
        sp=sp,
    )


def k_tfc(r, x):
    v = rs(r, 14) + ".atlas" + "v1." + rs(r, 67)
    sp = [
        json.dumps({"credentials": {"app.terraform.io": {"token": v}}}, indent=2),
        f'credentials "app.terraform.io" {{\n  token = "{v}"\n}}',
    ]
    return _k(
        v,
        ch(r, "Terraform Cloud token", "HCP Terraform API token"),
        ch(r, "TFE_TOKEN", "TF_TOKEN_app_terraform_io"),
        hdr=_BEARER,
        host="app.terraform.io",
        path="/api/v2/organizations",
        vk="tfe",
        sp=sp,
    )


def k_vault(r, x):
    v = "hv" + "s.CAESI" + rs(r, r.randint(84, 90), B64U)
    sp = [
        f"$ vault login -method=oidc\nSuccess! You are now authenticated.\n\nKey                  Value\n---                  -----\n"
        f'token                {v}\ntoken_duration       768h\ntoken_renewable      true\ntoken_policies       ["default" "{x.svc}"]',
        f"export VAULT_ADDR=https://vault.{x.org}.internal:8200\nexport VAULT_TOKEN={v}",
    ]
    return _k(
        v,
        ch(r, "Vault token", "HashiCorp Vault token"),
        "VAULT_TOKEN",
        hdr=("X-Vault-Token", ""),
        host=f"vault.{x.org}.internal:8200",
        path="/v1/sys/health",
        sp=sp,
    )


def k_doppler(r, x):
    v = "dp.st." + x.st + "." + rs(r, 40)
    sp = [f"doppler run --token {v} -- npm start", f"DOPPLER_TOKEN={v} doppler secrets download --no-file --format env"]
    return _k(
        v,
        ch(r, "Doppler service token", "Doppler token"),
        "DOPPLER_TOKEN",
        hdr=_BEARER,
        host="api.doppler.com",
        path="/v3/configs",
        sp=sp,
    )


def k_pulumi(r, x):
    v = "pu" + "l-" + hx(r, 40)
    return _k(
        v,
        ch(r, "Pulumi access token", "Pulumi token"),
        "PULUMI_ACCESS_TOKEN",
        hdr=("Authorization", "token "),
        host="api.pulumi.com",
        path="/api/user",
    )


def k_tailscale(r, x):
    v = "tskey-" + "auth-k" + rs(r, 11) + "CNTRL-" + rs(r, 33)
    sp = [f"tailscale up --authkey={v} --hostname={x.svc}-{x.st} --advertise-tags=tag:server"]
    return _k(v, ch(r, "Tailscale auth key", "tailnet auth key"), "TS_AUTHKEY", vk="tailscale", sp=sp)


def k_ghp(r, x):
    v = P_GHP + rs(r, 36)
    sp = [
        f"$ git remote set-url origin https://{x.user}:{v}@github.com/{x.org}/{x.svc}.git",
        f"$ cat ~/.git-credentials\nhttps://{x.user}:{v}@github.com",
        f"$ echo {v} | gh auth login --with-token\n$ gh auth status\ngithub.com\n  \u2713 Logged in to github.com account {x.user}",
        f"//npm.pkg.github.com/:_authToken={v}\n@{x.org}:registry=https://npm.pkg.github.com",
    ]
    return _k(
        v,
        ch(r, "GitHub personal access token", "GitHub PAT", "classic GitHub token"),
        ch(r, "GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"),
        hdr=("Authorization", ch(r, "Bearer ", "token ")),
        host="api.github.com",
        path="/user",
        vk="github",
        sp=sp,
    )


def k_gh_fine(r, x):
    v = P_GHPAT + rs(r, 22) + "_" + rs(r, 59)
    sp = [f"git clone https://oauth2:{v}@github.com/{x.org}/{x.svc}.git"]
    return _k(
        v,
        ch(r, "fine-grained GitHub token", "GitHub fine-grained PAT"),
        ch(r, "GITHUB_TOKEN", "GH_PAT"),
        hdr=_BEARER,
        host="api.github.com",
        path="/repos",
        vk="github",
        sp=sp,
    )


def k_gho(r, x):
    v = P_GHO + rs(r, 36)
    sp = [
        f"$ cat ~/.config/gh/hosts.yml\ngithub.com:\n    user: {x.user}\n    oauth_token: {v}\n    git_protocol: https"
    ]
    return _k(
        v,
        ch(r, "GitHub OAuth token", "gh CLI OAuth token"),
        "GH_TOKEN",
        hdr=_BEARER,
        host="api.github.com",
        path="/user",
        vk="github",
        sp=sp,
    )


def k_ghs(r, x):
    v = P_GHS + rs(r, 36)
    sp = [f"git push https://x-access-token:{v}@github.com/{x.org}/{x.svc}.git HEAD:main"]
    return _k(
        v,
        ch(r, "GitHub App installation token", "GitHub app token"),
        "GITHUB_APP_TOKEN",
        hdr=("Authorization", "token "),
        host="api.github.com",
        path="/installation/repositories",
        vk="github",
        sp=sp,
    )


def k_gh_client_secret(r, x):
    v = hx(r, 40)
    cid = ch(r, "Iv1." + hx(r, 16), "Ov23li" + rs(r, 14))
    sp = [
        f"GITHUB_CLIENT_ID={cid}\nGITHUB_CLIENT_SECRET={v}",
        f'GitHubProvider({{\n  clientId: "{cid}",\n  clientSecret: "{v}",\n}})',
    ]
    return _k(
        v,
        ch(r, "GitHub OAuth app client secret", "GitHub client secret"),
        "GITHUB_CLIENT_SECRET",
        vk="github",
        host="github.com",
        sp=sp,
    )


def k_glpat(r, x):
    v = P_GLPAT + rs(r, 20, B64U)
    sp = [
        f"git clone https://oauth2:{v}@gitlab.com/{x.org}/{x.svc}.git",
        f"[global]\ndefault = {x.org}\n\n[{x.org}]\nurl = https://gitlab.{x.org}.com\nprivate_token = {v}\napi_version = 4",
    ]
    return _k(
        v,
        ch(r, "GitLab personal access token", "GitLab PAT"),
        "GITLAB_TOKEN",
        hdr=("PRIVATE-TOKEN", ""),
        host="gitlab.com",
        path="/api/v4/user",
        vk="gitlab",
        sp=sp,
    )


def k_glrt(r, x):
    v = "gl" + "rt-" + rs(r, 20, B64U)
    sp = [
        f'[[runners]]\n  name = "{x.svc}-runner"\n  url = "https://gitlab.com"\n  token = "{v}"\n  executor = "docker"',
        f"gitlab-runner register --non-interactive --url https://gitlab.com --token {v} --executor docker",
    ]
    return _k(v, ch(r, "GitLab runner token", "runner authentication token"), "RUNNER_TOKEN", vk="gitlab", sp=sp)


def k_glptt(r, x):
    v = "gl" + "ptt-" + hx(r, 40)
    sp = [
        f"curl -X POST --fail -F token={v} -F ref=main https://gitlab.com/api/v4/projects/{r.randint(1000, 99999)}/trigger/pipeline"
    ]
    return _k(v, ch(r, "GitLab pipeline trigger token", "trigger token"), "TRIGGER_TOKEN", vk="gitlab", sp=sp)


def k_gldt(r, x):
    v = "gl" + "dt-" + rs(r, 20, B64U)
    sp = [f"docker login registry.gitlab.com -u gitlab+deploy-token-{r.randint(100, 9999)} -p {v}"]
    return _k(v, ch(r, "GitLab deploy token", "registry deploy token"), "CI_DEPLOY_PASSWORD", vk="gitlab", sp=sp)


def k_bitbucket(r, x):
    v = "AT" + "BB" + rs(r, 24) + hx(r, 8).upper()
    sp = [f"git clone https://{x.user}:{v}@bitbucket.org/{x.org}/{x.svc}.git"]
    return _k(
        v, ch(r, "Bitbucket app password", "Bitbucket API token"), "BITBUCKET_APP_PASSWORD", vk="bitbucket", sp=sp
    )


def k_npm(r, x):
    v = P_NPM + rs(r, 36)
    sp = [
        f"//registry.npmjs.org/:_authToken={v}",
        f"$ cat ~/.npmrc\n//registry.npmjs.org/:_authToken={v}\nsave-exact=true",
    ]
    return _k(v, ch(r, "npm token", "npm automation token", "npm publish token"), "NODE_AUTH_TOKEN", vk="npm", sp=sp)


def k_pypi(r, x):
    v = P_PYPI + "AgEIcHlwaS5vcmc" + rs(r, r.randint(140, 180), B64U)
    sp = [
        f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {v}",
        f"twine upload -u __token__ -p {v} dist/*",
        f"uv publish --token {v}",
    ]
    return _k(
        v,
        ch(r, "PyPI API token", "PyPI upload token"),
        ch(r, "TWINE_PASSWORD", "UV_PUBLISH_TOKEN", "PYPI_TOKEN"),
        vk="pypi",
        sp=sp,
    )


def k_rubygems(r, x):
    v = "ruby" + "gems_" + hx(r, 48)
    sp = [f"$ cat ~/.gem/credentials\n---\n:rubygems_api_key: {v}"]
    return _k(v, ch(r, "RubyGems API key", "rubygems push key"), "GEM_HOST_API_KEY", vk="rubygems", sp=sp)


def k_nuget(r, x):
    v = "oy2" + rs(r, 43, LD)
    sp = [f"dotnet nuget push bin/Release/*.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json"]
    return _k(
        v,
        ch(r, "NuGet API key", "nuget.org push key"),
        "NUGET_API_KEY",
        hdr=("X-NuGet-ApiKey", ""),
        host="www.nuget.org",
        path="/api/v2/package",
        vk="nuget",
        sp=sp,
    )


def k_dockerhub(r, x):
    v = P_DCKR + rs(r, 27, B64U)
    sp = [
        f"$ docker login -u {x.user} -p {v}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded",
        f'echo "{v}" | docker login -u {x.org}bot --password-stdin',
    ]
    return _k(v, ch(r, "Docker Hub access token", "Docker Hub PAT"), "DOCKERHUB_TOKEN", vk="docker", sp=sp)


def k_docker_auth(r, x):
    reg = ch(
        r,
        "ghcr.io",
        "registry.gitlab.com",
        "https://index.docker.io/v1/",
        f"{dg(r, 12)}.dkr.ecr.{x.reg}.amazonaws.com",
        f"registry.{x.org}.com",
    )
    v = b64(f"{x.user}:{rs(r, r.randint(20, 36), AN)}".encode())
    cfg = json.dumps({"auths": {reg: {"auth": v}}}, indent=ch(r, 1, 2, 4))
    sp = [
        f"$ cat ~/.docker/config.json\n{cfg}",
        cfg,
        f"dockerconfigjson for the {x.st} pull secret:\n{cfg}",
        f'registry auth from the CI box: "{reg}" -> auth {v}',
    ]
    return _k(v, "docker registry auth", "DOCKER_AUTH_CONFIG", m="sp", sp=sp)


def k_artifactory(r, x):
    v = "AK" + "Cp" + rs(r, 1, "58") + rs(r, 68)
    sp = [
        f'curl -H "X-JFrog-Art-Api: {v}" -T build.zip https://{x.org}.jfrog.io/artifactory/libs-release/{x.svc}/build.zip'
    ]
    return _k(
        v,
        ch(r, "Artifactory API key", "JFrog API key"),
        "ARTIFACTORY_API_KEY",
        hdr=("X-JFrog-Art-Api", ""),
        host=f"{x.org}.jfrog.io",
        path="/artifactory/api/repositories",
        vk="artifactory",
        sp=sp,
    )


def k_sonar(r, x):
    v = "sq" + "u_" + hx(r, 40)
    sp = [
        f"mvn verify sonar:sonar -Dsonar.host.url=https://sonarcloud.io -Dsonar.token={v}",
        f"sonar.projectKey={x.org}_{x.svc}\nsonar.token={v}",
    ]
    return _k(
        v,
        ch(r, "SonarQube token", "SonarCloud token"),
        "SONAR_TOKEN",
        hdr=_BEARER,
        host="sonarcloud.io",
        path="/api/projects/search",
        vk="sonar",
        sp=sp,
    )


def k_buildkite(r, x):
    v = "bk" + "ua_" + hx(r, 40)
    return _k(
        v,
        ch(r, "Buildkite API token", "Buildkite token"),
        "BUILDKITE_API_TOKEN",
        hdr=_BEARER,
        host="api.buildkite.com",
        path="/v2/organizations",
    )


def k_circleci(r, x):
    v = "CCI" + "PAT_" + rs(r, 22) + "_" + hx(r, 40)
    return _k(
        v,
        ch(r, "CircleCI personal token", "CircleCI API token"),
        "CIRCLECI_TOKEN",
        hdr=("Circle-Token", ""),
        host="circleci.com",
        path="/api/v2/me",
    )


def k_postman(r, x):
    v = "PM" + "AK-" + hx(r, 24) + "-" + hx(r, 34)
    return _k(
        v,
        ch(r, "Postman API key", "Postman key"),
        "POSTMAN_API_KEY",
        hdr=("X-Api-Key", ""),
        host="api.getpostman.com",
        path="/collections",
    )


def k_stripe(r, x):
    v = P_SKL + rs(r, ch(r, 24, 99))
    sp = [
        f'$ curl https://api.stripe.com/v1/charges?limit=3 -u {v}:\n{{\n  "object": "list",\n  "data": []\n}}',
        f'import stripe\nstripe.api_key = "{v}"\nstripe.PaymentIntent.create(amount=2000, currency="eur")',
    ]
    return _k(
        v,
        ch(r, "Stripe secret key", "Stripe live key", "live Stripe API key"),
        "STRIPE_SECRET_KEY",
        hdr=_BEARER,
        host="api.stripe.com",
        path="/v1/balance",
        vk="stripe",
        sp=sp,
    )


def k_stripe_rk(r, x):
    v = P_RKL + rs(r, ch(r, 24, 99))
    return _k(
        v,
        ch(r, "Stripe restricted key", "restricted Stripe key (read-only charges)"),
        "STRIPE_RESTRICTED_KEY",
        hdr=_BEARER,
        host="api.stripe.com",
        path="/v1/charges",
        vk="stripe",
    )


def k_stripe_wh(r, x):
    v = P_WHS + rs(r, 32)
    sp = [
        f"$ stripe listen --forward-to localhost:{r.randint(3000, 9000)}/webhooks/stripe\n> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is {v} (^C to quit)"
    ]
    return _k(
        v, ch(r, "Stripe webhook signing secret", "Stripe endpoint secret"), "STRIPE_WEBHOOK_SECRET", vk="stripe", sp=sp
    )


def k_braintree(r, x):
    v = "access_token$" + "production$" + rs(r, 16, LD) + "$" + hx(r, 32)
    return _k(
        v, ch(r, "Braintree access token", "PayPal/Braintree access token"), "BRAINTREE_ACCESS_TOKEN", vk="braintree"
    )


def k_square(r, x):
    v = "EA" + "AA" + rs(r, 60, B64U)
    return _k(
        v,
        ch(r, "Square access token", "Square production token"),
        "SQUARE_ACCESS_TOKEN",
        hdr=_BEARER,
        host="connect.squareup.com",
        path="/v2/locations",
        vk="square",
    )


def k_shpat(r, x):
    v = "sh" + "pat_" + hx(r, 32)
    sp = [f'curl -H "X-Shopify-Access-Token: {v}" https://{x.org}.myshopify.com/admin/api/2024-07/orders.json']
    return _k(
        v,
        ch(r, "Shopify Admin API access token", "Shopify access token"),
        "SHOPIFY_ACCESS_TOKEN",
        hdr=("X-Shopify-Access-Token", ""),
        host=f"{x.org}.myshopify.com",
        path="/admin/api/2024-07/shop.json",
        vk="shopify",
        sp=sp,
    )


def k_shpss(r, x):
    v = "sh" + "pss_" + hx(r, 32)
    return _k(v, ch(r, "Shopify shared secret", "Shopify app secret"), "SHOPIFY_API_SECRET", vk="shopify")


def k_paypal(r, x):
    v = "E" + rs(r, 79, B64U)
    cid = "A" + rs(r, 79, B64U)
    sp = [f"PAYPAL_CLIENT_ID={cid}\nPAYPAL_CLIENT_SECRET={v}\nPAYPAL_MODE=live"]
    return _k(v, ch(r, "PayPal client secret", "PayPal REST secret"), "PAYPAL_CLIENT_SECRET", vk="paypal", sp=sp)


def k_slack_bot(r, x):
    v = P_XOXB + dg(r, r.randint(10, 13)) + "-" + dg(r, 13) + "-" + rs(r, 24)
    sp = [
        f'from slack_sdk import WebClient\nclient = WebClient(token="{v}")\nclient.chat_postMessage(channel="#deploys", text="done")'
    ]
    return _k(
        v,
        ch(r, "Slack bot token", "Slack bot OAuth token"),
        "SLACK_BOT_TOKEN",
        hdr=_BEARER,
        host="slack.com",
        path="/api/auth.test",
        vk="slack",
        sp=sp,
    )


def k_slack_user(r, x):
    v = P_XOXP + dg(r, 11) + "-" + dg(r, 11) + "-" + dg(r, 13) + "-" + hx(r, 32)
    return _k(
        v,
        ch(r, "Slack user token", "Slack user OAuth token"),
        "SLACK_USER_TOKEN",
        hdr=_BEARER,
        host="slack.com",
        path="/api/users.profile.get",
        vk="slack",
    )


def k_slack_hook(r, x):
    s = rs(r, 24)
    url = f"https://hooks.slack.com/services/T{rs(r, r.randint(8, 10), UD)}/B{rs(r, r.randint(8, 10), UD)}/{s}"
    sp = [
        f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy of {x.svc} done\"}}' {url}",
        f"alertmanager:\n  receivers:\n  - name: slack\n    slack_configs:\n    - api_url: {url}\n      channel: '#alerts-{x.st}'",
    ]
    return _k(
        url, ch(r, "Slack webhook URL", "Slack incoming webhook"), "SLACK_WEBHOOK_URL", m="url", s=s, vk="slack", sp=sp
    )


def k_slack_app(r, x):
    v = P_XAPP + "1-A" + rs(r, 10, UD) + "-" + dg(r, 13) + "-" + hx(r, 64)
    return _k(v, ch(r, "Slack app-level token", "Socket Mode app token"), "SLACK_APP_TOKEN", vk="slack")


def k_discord_bot(r, x):
    v = b64(dg(r, 19).encode()).rstrip("=") + "." + rs(r, 6, B64U) + "." + rs(r, 38, B64U)
    sp = [f'client.run("{v}")', f"const client = new Client({{ intents: [] }});\nclient.login('{v}');"]
    return _k(
        v,
        ch(r, "Discord bot token", "Discord token"),
        "DISCORD_TOKEN",
        hdr=("Authorization", "Bot "),
        host="discord.com",
        path="/api/v10/users/@me",
        vk="discord",
        sp=sp,
    )


def k_discord_hook(r, x):
    s = rs(r, 68, B64U)
    url = f"https://discord.com/api/webhooks/{dg(r, 19)}/{s}"
    sp = [f'curl -H "Content-Type: application/json" -d \'{{"content": "build {x.ver} ok"}}\' {url}']
    return _k(
        url, ch(r, "Discord webhook URL", "Discord webhook"), "DISCORD_WEBHOOK_URL", m="url", s=s, vk="discord", sp=sp
    )


def k_telegram(r, x):
    v = f"{r.randint(100000000, 7999999999)}:AA{rs(r, 33, B64U)}"
    sp = [f'curl -s "https://api.telegram.org/bot{v}/sendMessage?chat_id=-100{dg(r, 10)}&text=deploy%20ok"']
    return _k(v, ch(r, "Telegram bot token", "BotFather token"), "TELEGRAM_BOT_TOKEN", vk="telegram", sp=sp)


def k_twilio(r, x):
    v = hx(r, 32)
    sid = "AC" + hx(r, 32)
    sp = [
        f'client = Client("{sid}", "{v}")',
        f'curl -X POST https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json -u {sid}:{v} --data-urlencode "Body=hi"',
        f"TWILIO_ACCOUNT_SID={sid}\nTWILIO_AUTH_TOKEN={v}",
    ]
    return _k(
        v, ch(r, "Twilio auth token", "Twilio auth token for the SMS account"), "TWILIO_AUTH_TOKEN", vk="twilio", sp=sp
    )


def k_sendgrid(r, x):
    v = P_SG + rs(r, 22, B64U) + "." + rs(r, 43, B64U)
    return _k(
        v,
        ch(r, "SendGrid API key", "SendGrid key"),
        "SENDGRID_API_KEY",
        hdr=_BEARER,
        host="api.sendgrid.com",
        path="/v3/mail/send",
        vk="sendgrid",
    )


def k_mailgun(r, x):
    v = "key-" + hx(r, 32)
    sp = [
        f"curl -s --user 'api:{v}' https://api.eu.mailgun.net/v3/mg.{x.org}.com/messages -F from=noreply@{x.org}.com -F to=test@{x.org}.com"
    ]
    return _k(v, ch(r, "Mailgun API key", "Mailgun private key"), "MAILGUN_API_KEY", vk="mailgun", sp=sp)


def k_mailchimp(r, x):
    v = hx(r, 32) + "-us" + str(r.randint(1, 21))
    return _k(v, ch(r, "Mailchimp API key", "Mailchimp key"), "MAILCHIMP_API_KEY", vk="mailchimp")


def k_postmark(r, x):
    v = uid(r)
    return _k(
        v,
        ch(r, "Postmark server token", "Postmark server API token"),
        "POSTMARK_SERVER_TOKEN",
        hdr=("X-Postmark-Server-Token", ""),
        host="api.postmarkapp.com",
        path="/email",
        vk="postmark",
    )


def k_resend(r, x):
    v = "re_" + rs(r, 8) + "_" + rs(r, 24)
    return _k(
        v,
        ch(r, "Resend API key", "Resend key"),
        "RESEND_API_KEY",
        hdr=_BEARER,
        host="api.resend.com",
        path="/emails",
        vk="resend",
    )


def k_brevo(r, x):
    v = "xkey" + "sib-" + hx(r, 64) + "-" + rs(r, 16)
    return _k(
        v,
        ch(r, "Brevo API key", "Sendinblue API key"),
        "BREVO_API_KEY",
        hdr=("api-key", ""),
        host="api.brevo.com",
        path="/v3/account",
        vk="brevo",
    )


def k_gmail_app(r, x):
    g = [rs(r, 4, LO) for _ in range(4)]
    v = ch(r, " ".join(g), "".join(g))
    mail = f"{ch(r, 'noreply', 'alerts', 'reports', x.user)}@{x.org}.com"
    sp = [
        f'EMAIL_HOST=smtp.gmail.com\nEMAIL_PORT=587\nEMAIL_HOST_USER={mail}\nEMAIL_HOST_PASSWORD="{v}"',
        f"spring.mail.host=smtp.gmail.com\nspring.mail.username={mail}\nspring.mail.password={v}",
    ]
    return _k(v, f"Gmail app password for {mail}", "SMTP_PASSWORD", m="pw", vk="smtp", sp=sp)


def k_fcm(r, x):
    v = "AA" + "AA" + rs(r, 7, B64U) + ":APA91b" + rs(r, 134, B64U)
    return _k(
        v,
        ch(r, "FCM server key", "Firebase Cloud Messaging legacy server key"),
        "FCM_SERVER_KEY",
        hdr=("Authorization", "key="),
        host="fcm.googleapis.com",
        path="/fcm/send",
        vk="fcm",
    )


def k_openai(r, x):
    mid = "T3Blbk" + "FJ"
    t = r.random()
    if t < 0.5:
        v = P_SK + "proj-" + rs(r, 74, B64U) + mid + rs(r, 74, B64U)
    elif t < 0.7:
        v = P_SK + "svcacct-" + rs(r, 74, B64U) + mid + rs(r, 74, B64U)
    else:
        v = P_SK + rs(r, 20) + mid + rs(r, 20)
    sp = [f'from openai import OpenAI\nclient = OpenAI(api_key="{v}")', f"$ OPENAI_API_KEY={v} aider --model gpt-4o"]
    return _k(
        v,
        ch(r, "OpenAI API key", "OpenAI key", "OpenAI project key"),
        "OPENAI_API_KEY",
        hdr=_BEARER,
        host="api.openai.com",
        path="/v1/models",
        vk="openai",
        sp=sp,
    )


def k_anthropic(r, x):
    v = P_SK + "ant-api03-" + rs(r, 93, B64U) + "AA"
    sp = [
        f'client = anthropic.Anthropic(api_key="{v}")',
        f"export ANTHROPIC_API_KEY={v}\nclaude --model claude-3-5-sonnet-latest",
    ]
    return _k(
        v,
        ch(r, "Anthropic API key", "Claude API key"),
        "ANTHROPIC_API_KEY",
        hdr=("x-api-key", ""),
        host="api.anthropic.com",
        path="/v1/messages",
        vk="anthropic",
        sp=sp,
    )


def k_hf(r, x):
    v = P_HF + rs(r, 34, UP + LO)
    sp = [f"$ huggingface-cli login --token {v}\nToken is valid (permission: {ch(r, 'read', 'write', 'fineGrained')})."]
    return _k(
        v,
        ch(r, "Hugging Face token", "HF access token"),
        "HUGGING_FACE_HUB_TOKEN",
        hdr=_BEARER,
        host="huggingface.co",
        path="/api/whoami-v2",
        vk="hf",
        sp=sp,
    )


def k_groq(r, x):
    v = "gs" + "k_" + rs(r, 52)
    return _k(
        v,
        ch(r, "Groq API key", "Groq key"),
        "GROQ_API_KEY",
        hdr=_BEARER,
        host="api.groq.com",
        path="/openai/v1/models",
        vk="groq",
    )


def k_replicate(r, x):
    v = "r8" + "_" + rs(r, 37)
    return _k(
        v,
        ch(r, "Replicate API token", "Replicate token"),
        "REPLICATE_API_TOKEN",
        hdr=_BEARER,
        host="api.replicate.com",
        path="/v1/predictions",
        vk="replicate",
    )


def k_pplx(r, x):
    v = "pp" + "lx-" + rs(r, 48)
    return _k(
        v,
        ch(r, "Perplexity API key", "pplx key"),
        "PERPLEXITY_API_KEY",
        hdr=_BEARER,
        host="api.perplexity.ai",
        path="/chat/completions",
        vk="perplexity",
    )


def k_langsmith(r, x):
    v = "lsv2_" + ch(r, "pt", "sk") + "_" + hx(r, 32) + "_" + hx(r, 10)
    return _k(
        v,
        ch(r, "LangSmith API key", "LangChain API key"),
        ch(r, "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"),
        hdr=("x-api-key", ""),
        host="api.smith.langchain.com",
        path="/api/v1/sessions",
        vk="langsmith",
    )


def k_pinecone(r, x):
    v = "pc" + "sk_" + rs(r, 5) + "_" + rs(r, 63)
    return _k(
        v,
        ch(r, "Pinecone API key", "Pinecone key"),
        "PINECONE_API_KEY",
        hdr=("Api-Key", ""),
        host="api.pinecone.io",
        path="/indexes",
        vk="pinecone",
    )


def k_mistral(r, x):
    v = rs(r, 32)
    return _k(
        v,
        ch(r, "Mistral API key", "Mistral La Plateforme key"),
        "MISTRAL_API_KEY",
        hdr=_BEARER,
        host="api.mistral.ai",
        path="/v1/models",
        vk="mistral",
    )


def k_dd_api(r, x):
    v = hx(r, 32)
    sp = [f"docker run -d --name dd-agent -e DD_API_KEY={v} -e DD_SITE=datadoghq.eu gcr.io/datadoghq/agent:7"]
    return _k(
        v,
        ch(r, "Datadog API key", "DD API key"),
        "DD_API_KEY",
        hdr=("DD-API-KEY", ""),
        host="api.datadoghq.eu",
        path="/api/v1/validate",
        vk="datadog",
        sp=sp,
    )


def k_dd_app(r, x):
    v = hx(r, 40)
    return _k(
        v,
        ch(r, "Datadog application key", "DD app key"),
        "DD_APP_KEY",
        hdr=("DD-APPLICATION-KEY", ""),
        host="api.datadoghq.com",
        path="/api/v1/dashboard",
        vk="datadog",
    )


def k_nr_license(r, x):
    v = hx(r, 36) + "NRAL"
    sp = [
        f"common: &default_settings\n  license_key: '{v}'\n  app_name: {x.svc} ({x.st})",
        f"[newrelic]\nlicense_key = {v}\napp_name = {x.svc}",
    ]
    return _k(v, ch(r, "New Relic license key", "New Relic ingest key"), "NEW_RELIC_LICENSE_KEY", vk="newrelic", sp=sp)


def k_nr_user(r, x):
    v = "NR" + "AK-" + rs(r, 27, UD)
    return _k(
        v,
        ch(r, "New Relic user API key", "NerdGraph key"),
        "NEW_RELIC_API_KEY",
        hdr=("Api-Key", ""),
        host="api.newrelic.com",
        path="/graphql",
        vk="newrelic",
    )


def k_sentry_tok(r, x):
    v = "sntry" + "u_" + hx(r, 64)
    sp = [f"$ cat ~/.sentryclirc\n[auth]\ntoken={v}\n\n[defaults]\norg={x.org}"]
    return _k(
        v,
        ch(r, "Sentry auth token", "sentry-cli token"),
        "SENTRY_AUTH_TOKEN",
        hdr=_BEARER,
        host="sentry.io",
        path="/api/0/projects/",
        vk="sentry",
        sp=sp,
    )


def k_grafana(r, x):
    v = "gl" + "sa_" + rs(r, 32) + "_" + hx(r, 8)
    return _k(
        v,
        ch(r, "Grafana service account token", "Grafana SA token"),
        "GRAFANA_TOKEN",
        hdr=_BEARER,
        host=f"grafana.{x.org}.com",
        path="/api/dashboards/home",
        vk="grafana",
    )


def k_okta(r, x):
    v = "00" + rs(r, 40, B64U)
    return _k(
        v,
        ch(r, "Okta API token", "Okta admin token"),
        "OKTA_API_TOKEN",
        hdr=("Authorization", "SSWS "),
        host=f"{x.org}.okta.com",
        path="/api/v1/users?limit=1",
        vk="okta",
    )


def k_auth0(r, x):
    v = rs(r, 64, B64U)
    cid = rs(r, 32)
    sp = [f"AUTH0_DOMAIN={x.org}.eu.auth0.com\nAUTH0_CLIENT_ID={cid}\nAUTH0_CLIENT_SECRET={v}"]
    return _k(v, ch(r, "Auth0 client secret", "Auth0 M2M client secret"), "AUTH0_CLIENT_SECRET", vk="auth0", sp=sp)


def k_supa_service(r, x):
    ref = rs(r, 20, LO)
    t = ts(r)
    v = jwt(r, {"iss": "supabase", "ref": ref, "role": "service_role", "iat": t, "exp": t + 315360000})
    sp = [f"const supabase = createClient(\n  'https://{ref}.supabase.co',\n  '{v}' // service role, server only\n)"]
    return _k(
        v,
        ch(r, "Supabase service_role key", "Supabase service role key"),
        "SUPABASE_SERVICE_ROLE_KEY",
        hdr=_BEARER,
        host=f"{ref}.supabase.co",
        path="/rest/v1/",
        vk="supabase",
        sp=sp,
    )


def k_supa_pat(r, x):
    v = "sb" + "p_" + hx(r, 40)
    return _k(
        v,
        ch(r, "Supabase access token", "Supabase personal token"),
        "SUPABASE_ACCESS_TOKEN",
        hdr=_BEARER,
        host="api.supabase.com",
        path="/v1/projects",
        vk="supabase",
    )


_PWW = [
    "Sommer",
    "Winter",
    "Herbst",
    "Verano",
    "Invierno",
    "Primavera",
    "Soleil",
    "Printemps",
    "Estate",
    "Lato",
    "Zima",
    "Zomer",
    "Sakura",
    "Haneul",
    "Dragon",
    "Monkey",
    "Sunshine",
    "Barcelona",
    "Milano",
    "Warszawa",
    "Istanbul",
    "Mumbai",
    "Lisboa",
    "Amsterdam",
    "Tokyo",
    "Seoul",
    "Kaffee",
    "Cerveza",
    "Futebol",
    "Chocolat",
    "Pierogi",
    "Kaas",
    "Ramen",
    "Kimchi",
    "Chai",
    "Simit",
    "Bella",
    "Gatito",
    "Mausi",
    "Schatz",
    "Tesoro",
]


def _human_pw(r):
    while True:
        p = _human_pw1(r)
        if len(p) >= 8:
            return p


def _human_pw1(r):
    w, w2 = r.sample(_PWW, 2)
    y = ch(r, str(r.randint(1970, 2025)), str(r.randint(10, 99)), str(r.randint(100, 9999)))
    s = rs(r, 1, "!#$%&*?@")
    return ch(r, f"{w}{y}{s}", f"{w.lower()}_{w2}{y}", f"{w}{s}{y}{w2.lower()}", f"{w}.{w2}{y}", f"{s}{w}{y}")


def _gen_pw(r, a=AN + "!@#%^&*-_+=?~"):
    n = r.randint(14, 30)
    return rs(r, 1, AN) + rs(r, n, a) + rs(r, 1, AN)


def _url_pw(r):
    t = r.random()
    if t < 0.4:
        return _gen_pw(r, AN + "-_.~")
    if t < 0.7:
        return rs(r, r.randint(16, 32), AN)
    while True:
        p = re.sub(r"[#%&?@$*!]", "", _human_pw(r))
        if len(p) >= 8:
            return p


def _dbhost(r, x, kind):
    return ch(
        r,
        f"{x.svc}-db.{x.st}.internal",
        f"{x.db}-{x.st}.{rs(r, 12, LD)}.{x.reg}.rds.amazonaws.com",
        f"{x.db}.{x.org}.internal",
        f"ep-{rs(r, 6, LO)}-{rs(r, 6, LO)}-{rs(r, 6, LD)}.{x.reg}.aws.neon.tech"
        if kind == "pg"
        else f"10.0.{r.randint(0, 9)}.{r.randint(2, 250)}",
    )


def k_pg(r, x):
    pw = _url_pw(r)
    host = _dbhost(r, x, "pg")
    url = f"{ch(r, 'postgresql', 'postgres')}://{x.user}:{pw}@{host}:5432/{x.db}{ch(r, '', '?sslmode=require')}"
    sp = [
        f'$ psql "{url}"\npsql (16.{r.randint(1, 4)})\nSSL connection (protocol: TLSv1.3, cipher: TLS_AES_256_GCM_SHA384, compression: off)\nType "help" for help.\n\n{x.db}=>',
        f"$ cat ~/.pgpass\n{host}:5432:{x.db}:{x.user}:{pw}",
        f"$ PGPASSWORD='{pw}' pg_dump -h {host} -U {x.user} {x.db} > {x.db}.sql",
    ]
    return _k(
        url,
        ch(r, "Postgres connection string", "Postgres URL", "database URL"),
        ch(r, "DATABASE_URL", "POSTGRES_URL", "PG_DSN"),
        m="url",
        s=pw,
        vk="postgres",
        sp=sp,
    )


def k_mysql(r, x):
    pw = _url_pw(r)
    host = _dbhost(r, x, "my")
    url = f"mysql://{x.user}:{pw}@{host}:3306/{x.db}"
    sp = [
        f"$ mysql -h {host} -u {x.user} -p{pw} {x.db}\nmysql: [Warning] Using a password on the command line interface can be insecure.\nWelcome to the MySQL monitor.",
        f"$ cat ~/.my.cnf\n[client]\nhost={host}\nuser={x.user}\npassword={pw}",
    ]
    return _k(
        url,
        ch(r, "MySQL connection URL", "MySQL DSN"),
        ch(r, "DATABASE_URL", "MYSQL_URL"),
        m="url",
        s=pw,
        vk="mysql",
        sp=sp,
    )


def k_mongo(r, x):
    pw = _url_pw(r)
    url = f"mongodb+srv://{x.user}:{pw}@cluster0.{rs(r, 5, LD)}.mongodb.net/{x.db}?retryWrites=true&w=majority"
    sp = [f'$ mongosh "{url}"\nCurrent Mongosh Log ID: {hx(r, 24)}\nUsing MongoDB: 7.0.{r.randint(1, 12)}']
    return _k(
        url,
        ch(r, "MongoDB Atlas connection string", "Mongo URI"),
        ch(r, "MONGODB_URI", "MONGO_URL"),
        m="url",
        s=pw,
        vk="mongodb",
        sp=sp,
    )


def k_redis(r, x):
    pw = _url_pw(r)
    host = ch(
        r,
        f"redis-{r.randint(10000, 19999)}.c{r.randint(1, 300)}.{x.reg}-1.ec2.cloud.redislabs.com",
        f"{x.svc}-cache.{x.st}.internal",
        f"{rs(r, 8, LO)}.upstash.io",
    )
    url = ch(r, f"rediss://default:{pw}@{host}:6379", f"redis://:{pw}@{host}:6379/0")
    sp = [
        f"$ redis-cli -h {host} -p 6379 -a '{pw}' ping\nWarning: Using a password with '-a' or '-u' option on the command line interface may not be safe.\nPONG"
    ]
    return _k(url, ch(r, "Redis URL", "Redis connection string"), "REDIS_URL", m="url", s=pw, vk="redis", sp=sp)


def k_amqp(r, x):
    pw = _url_pw(r)
    v = rs(r, 8, LO)
    url = f"amqps://{v}:{pw}@{ch(r, 'rattlesnake', 'kangaroo', 'possum', 'whale')}.rmq.cloudamqp.com/{v}"
    return _k(
        url,
        ch(r, "AMQP URL", "RabbitMQ connection URL"),
        ch(r, "AMQP_URL", "RABBITMQ_URL", "CLOUDAMQP_URL"),
        m="url",
        s=pw,
        vk="amqp",
    )


def k_mssql(r, x):
    pw = _url_pw(r)
    srv = f"sql-{x.svc}-{x.st}"
    v = (
        f"Server=tcp:{srv}.database.windows.net,1433;Initial Catalog={x.db};Persist Security Info=False;"
        f"User ID={x.user};Password={pw};MultipleActiveResultSets=False;Encrypt=True;TrustServerCertificate=False;Connection Timeout=30;"
    )
    sp = [json.dumps({"ConnectionStrings": {"DefaultConnection": v}}, indent=2)]
    return _k(
        v,
        ch(r, "SQL Server connection string", "Azure SQL connection string"),
        "ConnectionStrings__Default",
        m="url",
        s=pw,
        vk="mssql",
        sp=sp,
    )


def k_jdbc(r, x):
    pw = _url_pw(r)
    host = _dbhost(r, x, "pg")
    if r.random() < 0.5:
        v = f"jdbc:postgresql://{host}:5432/{x.db}?user={x.user}&password={pw}&sslmode=require"
    else:
        v = f"jdbc:mysql://{host}:3306/{x.db}?user={x.user}&password={pw}&useSSL=true"
    sp = [
        f"spring.datasource.url=jdbc:postgresql://{host}:5432/{x.db}\nspring.datasource.username={x.user}\nspring.datasource.password={pw}"
    ]
    return _k(
        v,
        ch(r, "JDBC URL", "JDBC connection string"),
        ch(r, "SPRING_DATASOURCE_URL", "JDBC_URL"),
        m="url",
        s=pw,
        vk="jdbc",
        sp=sp,
    )


def k_pscale(r, x):
    v = "pscale" + "_pw_" + rs(r, 43, B64U)
    u = rs(r, 12, LD)
    sp = [f"DATABASE_URL='mysql://{u}:{v}@aws.connect.psdb.cloud/{x.db}?sslaccept=strict'"]
    return _k(
        v, ch(r, "PlanetScale password", "PlanetScale branch password"), "PLANETSCALE_PASSWORD", vk="planetscale", sp=sp
    )


def k_databricks(r, x):
    v = "da" + "pi" + hx(r, 32) + ch(r, "", "-2", "-3")
    sp = [
        f"$ cat ~/.databrickscfg\n[DEFAULT]\nhost = https://adb-{dg(r, 16)}.{r.randint(1, 19)}.azuredatabricks.net\ntoken = {v}"
    ]
    return _k(
        v,
        ch(r, "Databricks token", "Databricks PAT"),
        "DATABRICKS_TOKEN",
        hdr=_BEARER,
        host="adb.azuredatabricks.net",
        path="/api/2.0/clusters/list",
        vk="databricks",
        sp=sp,
    )


def k_atlassian(r, x):
    v = "ATATT3" + "xFfGF0" + rs(r, 180, B64U) + "=" + hx(r, 8).upper()
    sp = [
        f"curl -u {x.user}@{x.org}.com:{v} -H 'Accept: application/json' https://{x.org}.atlassian.net/rest/api/3/myself"
    ]
    return _k(
        v,
        ch(r, "Jira API token", "Atlassian API token", "Confluence API token"),
        ch(r, "JIRA_API_TOKEN", "ATLASSIAN_API_TOKEN"),
        vk="jira",
        sp=sp,
    )


def k_linear(r, x):
    v = "lin" + "_api_" + rs(r, 40)
    return _k(
        v,
        ch(r, "Linear API key", "Linear personal key"),
        "LINEAR_API_KEY",
        hdr=("Authorization", ""),
        host="api.linear.app",
        path="/graphql",
        vk="linear",
    )


def k_notion(r, x):
    v = ch(r, "nt" + "n_" + dg(r, 11) + rs(r, 35), "sec" + "ret_" + rs(r, 43))
    return _k(
        v,
        ch(r, "Notion integration token", "Notion internal integration secret"),
        "NOTION_TOKEN",
        hdr=_BEARER,
        host="api.notion.com",
        path="/v1/users/me",
        vk="notion",
    )


def k_figma(r, x):
    v = "fi" + "gd_" + rs(r, 40, B64U)
    return _k(
        v,
        ch(r, "Figma personal access token", "Figma token"),
        "FIGMA_TOKEN",
        hdr=("X-Figma-Token", ""),
        host="api.figma.com",
        path="/v1/me",
        vk="figma",
    )


def k_asana(r, x):
    v = "2/" + dg(r, 16) + "/" + dg(r, 16) + ":" + hx(r, 32)
    return _k(
        v,
        ch(r, "Asana personal access token", "Asana PAT"),
        "ASANA_TOKEN",
        hdr=_BEARER,
        host="app.asana.com",
        path="/api/1.0/users/me",
        vk="asana",
    )


def k_airtable(r, x):
    v = "pat" + rs(r, 14) + "." + hx(r, 64)
    return _k(
        v,
        ch(r, "Airtable personal access token", "Airtable PAT"),
        "AIRTABLE_TOKEN",
        hdr=_BEARER,
        host="api.airtable.com",
        path="/v0/meta/whoami",
        vk="airtable",
    )


def k_dropbox(r, x):
    v = "sl." + rs(r, 1, "ABCu") + rs(r, 136, B64U)
    return _k(
        v,
        ch(r, "Dropbox access token", "Dropbox token"),
        "DROPBOX_ACCESS_TOKEN",
        hdr=_BEARER,
        host="api.dropboxapi.com",
        path="/2/users/get_current_account",
        vk="dropbox",
    )


def k_mapbox_sk(r, x):
    v = "s" + "k." + bj({"u": x.user.replace("_", ""), "a": "cl" + rs(r, 23, LD)}) + "." + rs(r, 22, B64U)
    sp = [
        f"$ cat ~/.netrc\nmachine api.mapbox.com\n  login mapbox\n  password {v}",
        f"# gradle.properties\nMAPBOX_DOWNLOADS_TOKEN={v}",
    ]
    return _k(
        v,
        ch(r, "Mapbox secret token", "Mapbox downloads token"),
        ch(r, "MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"),
        vk="mapbox",
        sp=sp,
    )


def k_algolia_admin(r, x):
    v = hx(r, 32)
    app = rs(r, 10, UD)
    sp = [
        f"// indexing job, server side only\nconst client = algoliasearch('{app}', '{v}'); // admin API key\nawait client.initIndex('{x.db}').saveObjects(rows);"
    ]
    return _k(
        v,
        ch(r, "Algolia admin API key", "Algolia admin key"),
        "ALGOLIA_ADMIN_API_KEY",
        hdr=("X-Algolia-API-Key", ""),
        host=f"{app.lower()}.algolia.net",
        path="/1/indexes",
        vk="algolia",
        sp=sp,
    )


def k_ld_sdk(r, x):
    v = "sdk-" + uid(r)
    return _k(
        v,
        ch(r, "LaunchDarkly server-side SDK key", "LaunchDarkly SDK key"),
        "LAUNCHDARKLY_SDK_KEY",
        hdr=("Authorization", ""),
        host="sdk.launchdarkly.com",
        path="/sdk/latest-all",
        vk="launchdarkly",
    )


def k_posthog(r, x):
    v = "ph" + "x_" + rs(r, 43)
    return _k(
        v,
        ch(r, "PostHog personal API key", "PostHog personal key"),
        "POSTHOG_PERSONAL_API_KEY",
        hdr=_BEARER,
        host="eu.posthog.com",
        path="/api/projects/",
        vk="posthog",
    )


def k_ngrok(r, x):
    v = rs(r, 1, "12") + rs(r, 26) + "_" + rs(r, 21)
    sp = [
        f"$ ngrok config add-authtoken {v}\nAuthtoken saved to configuration file: /home/{x.user}/.config/ngrok/ngrok.yml",
        f'version: "2"\nauthtoken: {v}\ntunnels:\n  web:\n    proto: http\n    addr: 3000',
    ]
    return _k(v, ch(r, "ngrok authtoken", "ngrok auth token"), "NGROK_AUTHTOKEN", vk="ngrok", sp=sp)


def k_cloudinary(r, x):
    s = rs(r, 27, B64U)
    url = f"cloudinary://{dg(r, 15)}:{s}@{x.org}{rs(r, 3, LD)}"
    return _k(
        url, ch(r, "Cloudinary URL", "Cloudinary credentials URL"), "CLOUDINARY_URL", m="url", s=s, vk="cloudinary"
    )


def k_op_sa(r, x):
    o = {
        "signInAddress": f"{x.org}.1password.com",
        "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": b64u(r.randbytes(16))},
        "email": f"{rs(r, 13, LD)}@1passwordserviceaccounts.com",
        "srpX": hx(r, 64),
        "muk": {
            "alg": "A256GCM",
            "ext": True,
            "k": b64u(r.randbytes(32)),
            "key_ops": ["encrypt", "decrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": "A3-" + "-".join(rs(r, 6, UD) for _ in range(6)),
        "deviceUuid": rs(r, 26, LD),
    }
    v = "op" + "s_" + bj(o)
    return _k(
        v, ch(r, "1Password service account token", "op service account token"), "OP_SERVICE_ACCOUNT_TOKEN", vk="op"
    )


def k_age(r, x):
    v = "AGE-SECRET-KEY-1" + rs(r, 58, BECH.upper())
    sp = [
        f"# created: {iso(r)}\n# public key: age1{rs(r, 58, BECH)}\n{v}",
        f"export SOPS_AGE_KEY={v}\nsops -d secrets/{x.st}.enc.yaml",
    ]
    return _k(v, ch(r, "age secret key", "SOPS age key"), "SOPS_AGE_KEY", vk="age", sp=sp)


def k_wireguard(r, x):
    v = b64(r.randbytes(32))
    sp = [
        f"[Interface]\nPrivateKey = {v}\nAddress = 10.{r.randint(0, 99)}.0.{r.randint(2, 250)}/32\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = {b64(r.randbytes(32))}\n"
        f"Endpoint = {pubip(r)}:51820\nAllowedIPs = 10.0.0.0/8"
    ]
    return _k(v, ch(r, "WireGuard private key", "wg0 private key"), "WG_PRIVATE_KEY", vk="wireguard", sp=sp)


def k_eth(r, x):
    v = "0x" + hx(r, 64)
    sp = [f'networks: {{\n  sepolia: {{\n    url: process.env.SEPOLIA_RPC_URL,\n    accounts: ["{v}"],\n  }},\n}}']
    return _k(
        v,
        ch(r, "deployer wallet private key", "wallet private key", "Ethereum private key"),
        ch(r, "PRIVATE_KEY", "DEPLOYER_PRIVATE_KEY"),
        vk="wallet",
        sp=sp,
    )


def k_jwt(r, x):
    t = ts(r)
    pl = ch(
        r,
        {
            "sub": uid(r),
            "email": f"{x.user}@{x.org}.com",
            "role": ch(r, "admin", "user", "support"),
            "iat": t,
            "exp": t + 3600,
        },
        {
            "iss": f"https://auth.{x.org}.com/",
            "sub": f"auth0|{hx(r, 24)}",
            "aud": f"https://api.{x.org}.com",
            "iat": t,
            "exp": t + 86400,
            "scope": "openid profile read:orders",
        },
        {
            "aud": "authenticated",
            "exp": t + 3600,
            "sub": uid(r),
            "email": f"{x.p.lower()}@{x.org}.com",
            "role": "authenticated",
            "session_id": uid(r),
        },
        {
            "iss": "kubernetes/serviceaccount",
            "kubernetes.io/serviceaccount/namespace": x.st,
            "sub": f"system:serviceaccount:{x.st}:{x.svc}",
        },
    )
    v = jwt(r, pl, ch(r, "HS256", "RS256"), ch(r, None, hx(r, 16)))
    d = ch(r, "session JWT", "access token (JWT)", "bearer token for the admin user", "service account token")
    return _k(
        v,
        d,
        ch(r, "ACCESS_TOKEN", "AUTH_TOKEN", "API_BEARER_TOKEN"),
        hdr=_BEARER,
        host=f"api.{x.org}.com",
        path="/v1/orders",
        vk="auth",
    )


def k_cookie(r, x):
    t = r.random()
    if t < 0.25:
        name, v = "sessionid", rs(r, 32, LD)
    elif t < 0.45:
        name, v = "connect.sid", "s%3A" + rs(r, 32, B64U) + "." + rs(r, 43, AN) + "%2B" + rs(r, 8, AN)
    elif t < 0.6:
        name, v = f"_{x.svc.replace('-', '_')}_session", rs(r, 180, B64U) + "--" + hx(r, 40)
    elif t < 0.75:
        name = "laravel_session"
        v = b64(
            json.dumps(
                {"iv": b64(r.randbytes(16)), "value": b64(r.randbytes(48)), "mac": hx(r, 64), "tag": ""}
            ).encode()
        ).replace("=", "%3D")
    elif t < 0.88:
        name, v = "PHPSESSID", rs(r, 26, LD)
    else:
        name, v = "JSESSIONID", hx(r, 32).upper()
    host = f"{ch(r, 'admin', 'app', 'backoffice')}.{x.org}.com"
    sp = [
        f"$ curl -s https://{host}/api/export -b '{name}={v}' -o export.csv",
        f"GET /admin/users HTTP/1.1\nHost: {host}\nCookie: theme=dark; lang=en; {name}={v}\nAccept: text/html",
        f"HTTP/1.1 302 Found\nLocation: /dashboard\nSet-Cookie: {name}={v}; Path=/; HttpOnly; Secure; SameSite=Lax",
        f"Logged in to {host} as {x.user}; session cookie {name}={v} (expires in 14 days). Use it for the scraping task instead of logging in again.",
        json.dumps(
            {"cookies": [{"name": name, "value": v, "domain": host, "path": "/", "httpOnly": True, "secure": True}]},
            indent=2,
        ),
        f"{x.p}: here's my admin session so you can reproduce: {name}={v}",
    ]
    return _k(v, "session cookie", "SESSION_COOKIE", m="sp", vk="session", sp=sp)


def k_totp(r, x):
    v = rs(r, ch(r, 16, 32), B32)
    iss = ch(r, "AWS", "GitHub", x.org.title(), "Okta", "Grafana")
    sp = [
        f"otpauth://totp/{iss}:{x.user}%40{x.org}.com?secret={v}&issuer={iss}&algorithm=SHA1&digits=6&period=30",
        f"$ oathtool --totp -b {v}\n{r.randint(100000, 999999)}",
        f"TOTP seed for the shared {iss} admin account: {v} (add it to your authenticator)",
    ]
    return _k(
        v,
        ch(r, "TOTP seed", "MFA secret", "2FA seed"),
        ch(r, "TOTP_SECRET", "MFA_SEED", "OTP_SECRET"),
        vk="totp",
        sp=sp,
    )


def k_recovery(r, x):
    t = r.random()
    if t < 0.4:
        v = hx(r, 5) + "-" + hx(r, 5)
    elif t < 0.7:
        v = "-".join(rs(r, 4, LD) for _ in range(ch(r, 3, 4)))
    else:
        v = rs(r, 4, DI) + " " + rs(r, 4, DI)
    iss = ch(r, "GitHub", "Google Workspace", "npm", "AWS root", "1Password", "Bitwarden", "Atlassian")
    sp = [
        f"{iss} recovery code for the bot account: {v} ({r.randint(3, 15)} left, the rest are in the safe)",
        f"Used a {iss} backup code to get back in. Next unused one: {v}",
        f"{x.p} lost their phone; gave them the {iss} recovery code {v}. Remind them to regenerate codes.",
    ]
    return _k(v, f"{iss} 2FA recovery code", "MFA_RECOVERY_CODE", vk="mfa", sp=sp)


def k_db_pw(r, x):
    v = ch(r, _gen_pw(r), _human_pw(r), rs(r, r.randint(12, 24), AN))
    d = ch(
        r,
        f"password for the {x.user} user on {x.st} Postgres",
        f"{x.st} DB password",
        f"MySQL root password ({x.st})",
        "database password",
    )
    e = ch(
        r,
        "DB_PASSWORD",
        "POSTGRES_PASSWORD",
        "MYSQL_ROOT_PASSWORD",
        "PGPASSWORD",
        "SPRING_DATASOURCE_PASSWORD",
        "DATABASE_PASSWORD",
    )
    sp = [
        f'services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: {x.user}\n      POSTGRES_PASSWORD: "{v}"\n      POSTGRES_DB: {x.db}',
        f"$ PGPASSWORD='{v}' psql -h {x.box} -U {x.user} -d {x.db} -c 'select 1'\n ?column?\n----------\n        1\n(1 row)",
    ]
    return _k(v, d, e, m="pw", vk="db", sp=sp)


def k_user_pw(r, x):
    v = _human_pw(r)
    d = ch(
        r,
        f"{x.p}'s password for the {x.svc} admin UI",
        "Jira login password",
        "shared root password on the NAS",
        "VPN password",
        f"password of the {x.user} account",
        "router admin password",
    )
    e = ch(r, "ADMIN_PASSWORD", "LOGIN_PASSWORD", "NAS_PASSWORD", "VPN_PASSWORD", "USER_PASSWORD")
    return _k(v, d, e, m="pw", vk="login")


def k_gen_pw(r, x):
    v = _gen_pw(r)
    d = ch(
        r,
        f"generated password for the {x.svc} service account",
        "Keycloak admin password",
        "Grafana admin password",
        "RabbitMQ password",
        "Elasticsearch elastic password",
        "LDAP bind password",
        "MinIO root password",
        "SMTP relay password",
    )
    e = ch(
        r,
        "GRAFANA_ADMIN_PASSWORD",
        "KEYCLOAK_ADMIN_PASSWORD",
        "RABBITMQ_DEFAULT_PASS",
        "ELASTIC_PASSWORD",
        "LDAP_BIND_PASSWORD",
        "MINIO_ROOT_PASSWORD",
        "SMTP_PASSWORD",
        "REDIS_PASSWORD",
    )
    return _k(v, d, e, m="pw", vk="svc")


_WORDS = [
    "correct",
    "horse",
    "battery",
    "staple",
    "purple",
    "monkey",
    "dishwasher",
    "orbit",
    "lantern",
    "granite",
    "velvet",
    "harbor",
    "cactus",
    "meadow",
    "copper",
    "thunder",
    "pickle",
    "glacier",
    "saffron",
    "tundra",
    "walnut",
    "quartz",
    "bamboo",
    "falcon",
    "nebula",
    "pepper",
    "raven",
    "sierra",
    "tango",
    "umbrella",
    "violet",
    "willow",
    "zephyr",
    "apfel",
    "brot",
    "wolke",
    "sonne",
    "perro",
    "gato",
    "luna",
    "fiesta",
    "chuva",
    "praia",
    "fromage",
    "nuage",
    "gelato",
    "piazza",
    "okno",
    "kwiat",
    "fiets",
    "molen",
    "sakura",
    "yama",
    "kaze",
    "baram",
    "chai",
    "dost",
    "deniz",
]


def k_passphrase(r, x):
    ws = r.sample(_WORDS, r.randint(4, 6))
    if r.random() < 0.4:
        ws[r.randrange(len(ws))] += str(r.randint(1, 99))
    v = ch(r, "-", " ", ".", "_").join(ws)
    d = ch(
        r,
        "SSH key passphrase",
        "keystore passphrase",
        "GPG passphrase",
        "Bitwarden master password",
        "backup encryption passphrase",
        "restic repository password",
    )
    e = ch(r, "KEYSTORE_PASSWORD", "GPG_PASSPHRASE", "RESTIC_PASSWORD", "BORG_PASSPHRASE", "SIGNING_KEY_PASSPHRASE")
    return _k(v, d, e, m="pw", vk="backup")


def k_api_secret(r, x):
    v = ch(r, rs(r, r.randint(32, 64)), hx(r, 64), rs(r, 40, B64U))
    partner = ch(r, "Klarna", "Adyen", "DHL", "Salesforce", "HubSpot", "Zendesk", "SAP", "partner", "payment gateway")
    d = ch(r, f"{partner} API secret", f"client secret for the {partner} integration", f"{partner} app secret")
    e = ch(r, "API_SECRET", "CLIENT_SECRET", "APP_SECRET", "PARTNER_API_SECRET", "INTEGRATION_SECRET")
    return _k(v, d, e, vk="partner")


def k_jwt_secret(r, x):
    v = ch(r, b64(r.randbytes(ch(r, 32, 48, 64))), rs(r, 48), hx(r, 64))
    d = ch(r, "JWT signing secret", "NextAuth secret", "session signing key", "HS256 signing key")
    e = ch(r, "JWT_SECRET", "JWT_SIGNING_KEY", "NEXTAUTH_SECRET", "AUTH_SECRET", "SESSION_SECRET")
    return _k(v, d, e, vk="auth")


def k_enc_key(r, x):
    v = ch(r, hx(r, 64), b64(r.randbytes(32)))
    d = ch(r, "AES-256 data encryption key", "field encryption key", "master encryption key", "backup encryption key")
    e = ch(r, "ENCRYPTION_KEY", "DATA_ENCRYPTION_KEY", "FIELD_ENCRYPTION_KEY", "AES_KEY", "MASTER_KEY")
    return _k(v, d, e, vk="crypto")


def k_django(r, x):
    v = rs(r, 50, LD + "!@#%^&*(-_=+)")
    sp = [f"# {x.svc}/settings/production.py\nSECRET_KEY = '{v}'\nDEBUG = False"]
    return _k(
        v, ch(r, "Django SECRET_KEY", "Django secret key"), ch(r, "DJANGO_SECRET_KEY", "SECRET_KEY"), vk="django", sp=sp
    )


def k_rails(r, x):
    v = hx(r, 128)
    sp = [f"production:\n  secret_key_base: {v}"]
    return _k(v, ch(r, "Rails secret_key_base", "secret key base"), "SECRET_KEY_BASE", vk="rails", sp=sp)


def k_laravel(r, x):
    s = b64(r.randbytes(32))
    v = "base64:" + s
    sp = [f"$ php artisan key:generate --show\n{v}", f"APP_NAME={x.svc}\nAPP_ENV={x.st}\nAPP_KEY={v}\nAPP_DEBUG=false"]
    return _k(v, ch(r, "Laravel APP_KEY", "Laravel app key"), "APP_KEY", s=s, vk="laravel", sp=sp)


def k_webhook(r, x):
    v = ch(r, rs(r, r.randint(24, 48)), hx(r, 40), b64(r.randbytes(24)))
    src = ch(r, "GitHub", "GitLab", "Linear", "Shopify", "Jira", "Calendly", "Typeform", "Zoom")
    e = ch(r, f"{src.upper()}_WEBHOOK_SECRET", "WEBHOOK_SECRET", "WEBHOOK_SIGNING_SECRET")
    return _k(v, f"{src} webhook secret", e, vk="webhook")


def _pem_kind(gen, d, fname, e):
    def f(r, x):
        v = gen(r)
        return _k(v, ch(r, *d), e, m="pem", fname=ch(r, *fname), vk="ssh")

    return f


def k_putty(r, x):
    v = putty_key(
        r,
        ch(
            r,
            f"{x.user}@{x.box}",
            f"rsa-key-{x.date.replace('-', '')}",
            f"eddsa-key-{x.date.replace('-', '')}",
            f"{x.svc} deploy",
        ),
    )
    return _k(
        v,
        ch(r, "PuTTY private key", "PPK key"),
        "PPK_KEY",
        m="pem",
        fname=ch(r, f"{x.svc}.ppk", "bastion.ppk", "deploy.ppk"),
        vk="ssh",
    )


def k_kubecfg(r, x):
    v = b64((rsa_pem(r) + "\n").encode())
    ca = b64((cert_pem(r) + "\n").encode())
    crt = b64((cert_pem(r) + "\n").encode())
    cl = f"{x.st}-{ch(r, 'eks', 'aks', 'k3s', 'gke')}"
    kc = (
        f"apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority-data: {ca}\n    server: https://{pubip(r)}:6443\n"
        f"  name: {cl}\ncontexts:\n- context:\n    cluster: {cl}\n    user: {x.user}\n  name: {cl}\ncurrent-context: {cl}\n"
        f"users:\n- name: {x.user}\n  user:\n    client-certificate-data: {crt}\n    client-key-data: {v}"
    )
    sp = [f"$ cat ~/.kube/config\n{kc}", f"kubeconfig for {cl} (admin):\n{kc}", kc]
    return _k(v, "kubeconfig client key", "KUBECONFIG_DATA", m="sp", vk="k8s", sp=sp)


def k_basic_hdr(r, x):
    v = b64(f"{x.user}:{_url_pw(r)}".encode())
    host = ch(r, f"jenkins.{x.org}.internal", f"es.{x.st}.{x.org}.com:9200", f"nexus.{x.org}.com", f"api.{x.svc}.io")
    sp = [
        f"GET /api/json HTTP/1.1\nHost: {host}\nAuthorization: Basic {v}\nAccept: application/json",
        f'proxy_set_header Authorization "Basic {v}";',
        f'$ curl -H \'Authorization: Basic {v}\' https://{host}/_cluster/health\n{{"status":"green"}}',
    ]
    return _k(
        v,
        ch(r, "basic auth header", "Basic auth credentials (base64)"),
        "UPSTREAM_BASIC_AUTH",
        hdr=("Authorization", "Basic "),
        host=host,
        path="/api/json",
        vk="http",
        sp=sp,
    )


def k_basic_url(r, x):
    pw = _url_pw(r)
    url = ch(
        r,
        f"https://{x.user}:{pw}@pypi.{x.org}.com/simple/",
        f"https://elastic:{pw}@es.{x.st}.{x.org}.com:9200",
        f"https://{x.user}:{pw}@nexus.{x.org}.com/repository/npm-private/",
        f"https://{x.user}:{pw}@jenkins.{x.org}.internal/job/{x.svc}/build",
        f"ftp://{x.user}:{pw}@ftp.{x.org}.com/outbox/",
    )
    sp = [f"[global]\nindex-url = {url}" if "pypi" in url else f"$ curl -s '{url}'"]
    return _k(
        url,
        ch(r, "authenticated URL", "URL with credentials", "basic-auth URL"),
        ch(r, "PIP_INDEX_URL", "REGISTRY_URL", "UPSTREAM_URL"),
        m="url",
        s=pw,
        vk="http",
        sp=sp,
    )


def k_meta(r, x):
    v = "EA" + "A" + rs(r, 1, "BGI") + rs(r, r.randint(160, 200))
    d = ch(r, "Facebook page access token", "Meta Graph API token", "WhatsApp Cloud API token")
    return _k(
        v,
        d,
        ch(r, "FB_PAGE_ACCESS_TOKEN", "WHATSAPP_TOKEN", "META_ACCESS_TOKEN"),
        hdr=_BEARER,
        host="graph.facebook.com",
        path="/v19.0/me",
        vk="meta",
    )


_KINDS = [
    ("aws_secret_access_key", k_aws_secret),
    ("aws_session_token", k_aws_session),
    ("gcp_service_account_key", k_gcp_sa),
    ("google_oauth_client_secret", k_google_client_secret),
    ("google_api_key", k_google_api),
    ("google_oauth_refresh_token", k_google_refresh),
    ("azure_storage_account_key", k_azure_storage),
    ("azure_client_secret", k_azure_client_secret),
    ("azure_sas_signature", k_azure_sas),
    ("azure_devops_pat", k_azure_devops),
    ("aws_presigned_url_signature", k_aws_presigned),
    ("gcs_signed_url_signature", k_gcs_signed),
    ("digitalocean_token", k_digitalocean),
    ("cloudflare_api_token", k_cloudflare),
    ("heroku_api_key", k_heroku),
    ("vercel_token", k_vercel),
    ("netlify_token", k_netlify),
    ("terraform_cloud_token", k_tfc),
    ("vault_token", k_vault),
    ("doppler_token", k_doppler),
    ("pulumi_access_token", k_pulumi),
    ("tailscale_auth_key", k_tailscale),
    ("github_pat", k_ghp),
    ("github_fine_grained_pat", k_gh_fine),
    ("github_oauth_token", k_gho),
    ("github_app_token", k_ghs),
    ("github_oauth_client_secret", k_gh_client_secret),
    ("gitlab_pat", k_glpat),
    ("gitlab_runner_token", k_glrt),
    ("gitlab_trigger_token", k_glptt),
    ("gitlab_deploy_token", k_gldt),
    ("bitbucket_app_password", k_bitbucket),
    ("np" + "m_token", k_npm),
    ("pypi_token", k_pypi),
    ("rubygems_api_key", k_rubygems),
    ("nuget_api_key", k_nuget),
    ("dockerhub_pat", k_dockerhub),
    ("docker_config_auth", k_docker_auth),
    ("artifactory_api_key", k_artifactory),
    ("sonarqube_token", k_sonar),
    ("buildkite_token", k_buildkite),
    ("circleci_token", k_circleci),
    ("postman_api_key", k_postman),
    ("stripe_secret_key", k_stripe),
    ("stripe_restricted_key", k_stripe_rk),
    ("stripe_webhook_secret", k_stripe_wh),
    ("braintree_access_token", k_braintree),
    ("square_access_token", k_square),
    ("shopify_access_token", k_shpat),
    ("shopify_shared_secret", k_shpss),
    ("paypal_client_secret", k_paypal),
    ("slack_bot_token", k_slack_bot),
    ("slack_user_token", k_slack_user),
    ("slack_webhook_url", k_slack_hook),
    ("slack_app_token", k_slack_app),
    ("discord_bot_token", k_discord_bot),
    ("discord_webhook_url", k_discord_hook),
    ("telegram_bot_token", k_telegram),
    ("twilio_auth_token", k_twilio),
    ("sendgrid_api_key", k_sendgrid),
    ("mailgun_api_key", k_mailgun),
    ("mailchimp_api_key", k_mailchimp),
    ("postmark_server_token", k_postmark),
    ("resend_api_key", k_resend),
    ("brevo_api_key", k_brevo),
    ("gmail_app_password", k_gmail_app),
    ("fcm_server_key", k_fcm),
    ("openai_api_key", k_openai),
    ("anthropic_api_key", k_anthropic),
    ("huggingface_token", k_hf),
    ("groq_api_key", k_groq),
    ("replicate_api_token", k_replicate),
    ("perplexity_api_key", k_pplx),
    ("langsmith_api_key", k_langsmith),
    ("pinecone_api_key", k_pinecone),
    ("mistral_api_key", k_mistral),
    ("datadog_api_key", k_dd_api),
    ("datadog_app_key", k_dd_app),
    ("new_relic_license_key", k_nr_license),
    ("new_relic_user_api_key", k_nr_user),
    ("sentry_auth_token", k_sentry_tok),
    ("grafana_service_account_token", k_grafana),
    ("okta_api_token", k_okta),
    ("auth0_client_secret", k_auth0),
    ("supabase_service_role_key", k_supa_service),
    ("supabase_access_token", k_supa_pat),
    ("postgres_password", k_pg),
    ("mysql_password", k_mysql),
    ("mongodb_password", k_mongo),
    ("redis_password", k_redis),
    ("amqp_password", k_amqp),
    ("mssql_password", k_mssql),
    ("jdbc_password", k_jdbc),
    ("planetscale_password", k_pscale),
    ("databricks_token", k_databricks),
    ("atlassian_api_token", k_atlassian),
    ("linear_api_key", k_linear),
    ("notion_token", k_notion),
    ("figma_token", k_figma),
    ("asana_pat", k_asana),
    ("airtable_pat", k_airtable),
    ("dropbox_access_token", k_dropbox),
    ("mapbox_secret_token", k_mapbox_sk),
    ("algolia_admin_key", k_algolia_admin),
    ("launchdarkly_sdk_key", k_ld_sdk),
    ("posthog_personal_api_key", k_posthog),
    ("ngrok_authtoken", k_ngrok),
    ("cloudinary_api_secret", k_cloudinary),
    ("op_service_account_token", k_op_sa),
    ("age_secret_key", k_age),
    ("wireguard_private_key", k_wireguard),
    ("eth_private_key", k_eth),
    ("jwt_token", k_jwt),
    ("session_cookie", k_cookie),
    ("totp_seed", k_totp),
    ("recovery_code", k_recovery),
    ("db_password", k_db_pw),
    ("user_password", k_user_pw),
    ("generated_password", k_gen_pw),
    ("passphrase", k_passphrase),
    ("api_secret", k_api_secret),
    ("jwt_signing_secret", k_jwt_secret),
    ("encryption_key", k_enc_key),
    ("django_secret_key", k_django),
    ("rails_secret_key_base", k_rails),
    ("laravel_app_key", k_laravel),
    ("webhook_secret", k_webhook),
    (
        "openssh_private_key",
        _pem_kind(
            openssh_pem,
            ("OpenSSH private key", "SSH deploy key", "ed25519 private key"),
            ("id_ed25519", "id_deploy", "deploy_key", "id_rsa"),
            "SSH_PRIVATE_KEY",
        ),
    ),
    (
        "rsa_private_key",
        _pem_kind(
            rsa_pem,
            ("RSA private key", "TLS private key", "signing key (RSA)"),
            ("server.key", "tls.key", "id_rsa", "jwt-private.pem"),
            "RSA_PRIVATE_KEY",
        ),
    ),
    (
        "ec_private_key",
        _pem_kind(
            ec_pem,
            ("EC private key", "ECDSA signing key", "APNs-style EC key"),
            ("ec.key", "signing-key.pem", "es256.pem"),
            "EC_PRIVATE_KEY",
        ),
    ),
    (
        "pkcs8_private_key",
        _pem_kind(
            pkcs8_pem,
            ("PKCS#8 private key", "private key", "service signing key"),
            ("private.pem", "key.pem", "AuthKey.p8"),
            "PRIVATE_KEY",
        ),
    ),
    ("putty_private_key", k_putty),
    (
        "pgp_private_key",
        _pem_kind(
            pgp_priv,
            ("PGP private key", "GPG secret key for release signing", "signing subkey (armored)"),
            ("release-signing.asc", "private.asc", "secret-key.asc"),
            "GPG_PRIVATE_KEY",
        ),
    ),
    ("kubeconfig_client_key", k_kubecfg),
    ("basic_auth_header", k_basic_hdr),
    ("basic_auth_url_password", k_basic_url),
    ("meta_access_token", k_meta),
]


# ==== lookalikes

_ENVN = [
    "STRIPE_SECRET_KEY",
    "OPENAI_API_KEY",
    "GITHUB_TOKEN",
    "DATABASE_URL",
    "DB_PASSWORD",
    "SENDGRID_API_KEY",
    "SLACK_BOT_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "ANTHROPIC_API_KEY",
    "JWT_SECRET",
    "REDIS_PASSWORD",
    "DD_API_KEY",
    "TWILIO_AUTH_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "SENTRY_AUTH_TOKEN",
    "NODE_AUTH_TOKEN",
    "MAILGUN_API_KEY",
    "AZURE_CLIENT_SECRET",
    "GOOGLE_CLIENT_SECRET",
    "SUPABASE_SERVICE_ROLE_KEY",
    "VAULT_TOKEN",
    "GITLAB_TOKEN",
]


def _en(r):
    return r.choice(_ENVN)


def _sha(r):
    return hx(r, 64)


def _bcrypt(r):
    return f"$2{ch(r, 'a', 'b', 'y')}${ch(r, 10, 11, 12, 13)}${rs(r, 53, CRYPT)}"


def _argon(r):
    return f"$argon2id$v=19$m={ch(r, 65536, 19456, 47104)},t={ch(r, 2, 3)},p={ch(r, 1, 4)}${b64(r.randbytes(16)).rstrip('=')}${b64(r.randbytes(32)).rstrip('=')}"


def _l_ph_angle(r):
    x = _x(r)
    es = r.sample(_ENVN, r.randint(2, 4))
    ls = [f"{e}=<your-{e.lower().replace('_', '-')}>" for e in es]
    return f"# .env.example for {x.svc}\n" + "\n".join(ls) + f"\nPORT={r.randint(3000, 9000)}"


def _l_ph_changeme(r):
    x = _x(r)
    ph = ch(r, "changeme", "CHANGEME", "change-me", "change_me_in_prod", "please-change")
    return f"# {x.svc} defaults, overridden per env\ndatabase:\n  host: localhost\n  user: {x.user}\n  password: {ph}\n  pool: {r.randint(2, 20)}"


def _l_ph_dollar(r):
    e = _en(r)
    x = _x(r)
    return ch(
        r,
        f"{_snake(e)}: ${{{e}}}\nregion: {x.reg}",
        f'"{_camel(e)}": "${{env:{e}}}",\n"timeout": {r.randint(5, 60)}',
        f"{x.svc}.{_snake(e)}=${{{e}:}}\n{x.svc}.enabled=true",
        f"environment:\n  - {e}=${{{e}:?{e} must be set}}\n  - PORT={r.randint(3000, 9000)}",
    )


def _l_ph_xxx(r):
    x = _x(r)
    v = ch(
        r,
        P_GHP + "x" * 36,
        P_SKL + "x" * 24,
        P_XOXB + "xxxxxxxxxxx-xxxxxxxxxxxxx-" + "x" * 24,
        P_AK + "X" * 16,
        P_SK + "proj-" + "x" * 20,
        P_GLPAT + "x" * 20,
        "key-" + "0" * 32,
        P_NPM + "X" * 36,
    )
    return ch(
        r,
        f"Example (replace before use):\n  export TOKEN={v}",
        f"# docs/{x.svc}.md\nSet `TOKEN` to something like `{v}`.",
        f'token: "{v}"  # placeholder, real one in vault',
    )


def _l_ph_stars(r):
    x = _x(r)
    m = "*" * r.randint(6, 16)
    return ch(
        r,
        f"{_en(r)}={m}\nLOG_LEVEL=info",
        f'password: "{m}"  # shown masked in the UI export',
        f"[{x.svc}] connecting as {x.user} with password {m}",
    )


def _l_ph_prose(r):
    x = _x(r)
    e = _en(r)
    return ch(
        r,
        f"To run {x.svc} locally put your own token in .env as {e}=<token>; never commit the file.",
        f"Setup note: ask {x.p} for access, then create a personal token and export it as {e}. The app reads it at startup.",
        f"Reminder for next session: the {x.st} tests need {e} set, otherwise they are skipped. Value comes from the team vault.",
    )


def _l_ph_curl_ref(r):
    x = _x(r)
    e = _en(r)
    return ch(
        r,
        f'curl -s -H "Authorization: Bearer ${e}" https://api.{x.org}.com/v1/{x.db} | jq length',
        f'curl -u "$API_USER:${e}" https://{x.svc}.{x.org}.com/health',
        f'http GET api.{x.org}.com/v2/{x.db} "Authorization:Bearer ${{{e}}}"',
    )


def _l_ph_yourkey(r):
    x = _x(r)
    ph = ch(r, "YOUR_API_KEY", "YOUR_API_KEY_HERE", "your-api-key", "INSERT_KEY_HERE", "<API_KEY>", "REPLACE_ME")
    return ch(
        r,
        f'client = {x.svc.title().replace("-", "")}Client(api_key="{ph}")',
        f"const apiKey = '{ph}'; // {x.p}: fill in locally",
        f"$client = new Client(['api_key' => '{ph}', 'region' => '{x.reg}']);",
    )


def _l_ph_fake(r):
    x = _x(r)
    f = ch(r, "fake-token", "dummy-secret", "not-a-real-key", "test-token-123", "fake_password", "unit-test-secret")
    return f'def test_{x.svc.replace("-", "_")}_rejects_bad_token(client):\n    resp = client.get("/v1/{x.db}", headers={{"Authorization": "Bearer {f}"}})\n    assert resp.status_code == {ch(r, 401, 403)}'


def _l_ph_redacted(r):
    x = _x(r)
    red = ch(r, "[REDACTED]", "<redacted>", "[FILTERED]", "***", "[MASKED]")
    return f"{iso(r)} INFO  outgoing request method=GET url=https://api.{x.org}.com/v1/{x.db} headers={{'Authorization': 'Bearer {red}', 'X-Request-Id': '{uid(r)}'}}"


def _l_ph_jinja(r):
    x = _x(r)
    return f"- name: configure {x.svc}\n  template:\n    src: app.env.j2\n    dest: /etc/{x.svc}/app.env\n  vars:\n    db_password: \"{{{{ vault_{x.svc.replace('-', '_')}_db_password }}}}\"\n    api_key: \"{{{{ lookup('env', '{_en(r)}') }}}}\""


def _l_ph_helm(r):
    x = _x(r)
    return f"        env:\n        - name: {_en(r)}\n          value: {{{{ .Values.{x.svc.replace('-', '')}.apiKey | quote }}}}\n        - name: STAGE\n          value: {x.st}"


def _l_ph_postman(r):
    x = _x(r)
    return json.dumps(
        {
            "id": uid(r),
            "name": f"{x.svc}-{x.st}",
            "values": [
                {"key": "baseUrl", "value": f"https://{x.svc}.{x.org}.com", "enabled": True},
                {"key": "apiKey", "value": "{{apiKey}}", "enabled": True},
                {"key": "token", "value": "", "type": "secret", "enabled": True},
            ],
        },
        indent=2,
    )


def _l_ph_empty(r):
    x = _x(r)
    es = r.sample(_ENVN, r.randint(3, 6))
    return f"# required for {x.svc} ({x.st})\n" + "\n".join(f"{e}=" for e in es)


def _l_ph_prompt(r):
    x = _x(r)
    return ch(
        r,
        f"$ psql -h {x.box} -U {x.user} {x.db}\nPassword for user {x.user}: \npsql: error: connection to server failed: fe_sendauth: no password supplied",
        f"$ sudo systemctl restart {x.svc}\n[sudo] password for {x.user}: \nSorry, try again.",
        f"$ mysql -u {x.user} -p {x.db}\nEnter password: \nERROR 1045 (28000): Access denied for user '{x.user}'@'{ip(r)}' (using password: YES)",
    )


def _l_ph_docker_passthru(r):
    x = _x(r)
    es = r.sample(_ENVN, 3)
    return "docker run --rm -p 8080:8080 " + " ".join(f"-e {e}" for e in es) + f" ghcr.io/{x.org}/{x.svc}:{x.ver}"


def _l_ph_url(r):
    x = _x(r)
    return ch(
        r,
        f"DATABASE_URL=postgresql://USER:PASSWORD@HOST:5432/{x.db.upper()}",
        f"MONGODB_URI=mongodb+srv://<username>:<password>@cluster0.{rs(r, 5, LD)}.mongodb.net/?retryWrites=true&w=majority",
        f"REDIS_URL=redis://:<password>@{x.svc}-cache:6379/0",
        f"amqp_url: amqps://${{RABBIT_USER}}:${{RABBIT_PASS}}@mq.{x.org}.internal/{x.svc}",
    )


def _l_ph_multilang(r):
    x = _x(r)
    e = _en(r)
    return ch(
        r,
        f"Trag deinen eigenen API-Key in die .env ein (Variable {e}); der Wert steht im Team-Vault unter {x.svc}.",
        f"Pon tu token en {e} dentro de .env.local; pídeselo a {x.p} si no tienes acceso.",
        f"Coloque o token em {e} no arquivo .env — nunca faça commit dele.",
        f"Mets ta clé dans {e} (fichier .env), la vraie valeur est dans le coffre {x.st}.",
        f"{e} を .env に設定してください。値は {x.p} さんに聞くこと。",
        f"{e} 는 .env 에 넣고, 값은 {x.st} 볼트에서 가져오세요.",
        f"请在 .env 中设置 {e}，实际值在 {x.st} 的密钥库里。",
    )


def _l_vault_cli(r):
    x = _x(r)
    return f"export VAULT_ADDR=https://vault.{x.org}.internal:8200\nvault login -method=oidc role={x.svc}\nvault kv get -field=password secret/{x.svc}/{x.st}/db"


def _l_aws_sm_arn(r):
    x = _x(r)
    return ch(
        r,
        f"DB secret: arn:aws:secretsmanager:{x.reg}:{dg(r, 12)}:secret:{x.st}/{x.svc}/db-{rs(r, 6)}",
        f'"secrets": [{{"name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:{x.reg}:{dg(r, 12)}:secret:{x.svc}-{rs(r, 6)}:password::"}}]',
        f"$ aws secretsmanager get-secret-value --secret-id {x.st}/{x.svc}/api --query SecretString --output text",
    )


def _l_gha_secrets(r):
    x = _x(r)
    e = _en(r)
    return f"      - name: Deploy {x.svc}\n        env:\n          {e}: ${{{{ secrets.{e} }}}}\n          STAGE: {x.st}\n        run: ./scripts/deploy.sh"


def _l_keyvault(r):
    x = _x(r)
    return ch(
        r,
        f'"{_en(r)}": "@Microsoft.KeyVault(SecretUri=https://kv-{x.svc}-{x.st}.vault.azure.net/secrets/{x.db}-password/)"',
        f"{_en(r)}=@Microsoft.KeyVault(VaultName=kv-{x.svc};SecretName=api-key-{x.st})",
        f"az keyvault secret show --vault-name kv-{x.svc}-{x.st} --name {x.db}-conn --query id",
    )


def _l_gcp_sm(r):
    x = _x(r)
    n = dg(r, 12)
    return ch(
        r,
        f"secret: projects/{n}/secrets/{x.svc}-{x.st}-db/versions/latest",
        f"gcloud run deploy {x.svc} --set-secrets=DB_PASSWORD={x.svc}-db:latest,{_en(r)}={x.svc}-api:{r.randint(1, 9)}",
        f'name = "projects/{x.org}-{x.st}/secrets/{x.svc}-token/versions/{r.randint(1, 20)}"',
    )


def _l_k8s_ref(r):
    x = _x(r)
    e = _en(r)
    return f"        env:\n        - name: {e}\n          valueFrom:\n            secretKeyRef:\n              name: {x.svc}-secrets\n              key: {_snake(e).replace('_', '-')}\n        - name: STAGE\n          value: {x.st}"


def _l_op_ref(r):
    x = _x(r)
    return ch(
        r,
        f"{_en(r)}=op://{x.st.title()}/{x.svc}/credential\nDB_PASSWORD=op://{x.st.title()}/{x.svc}-db/password",
        f"op run --env-file=.env.tpl -- ./bin/{x.svc}",
        f'op read "op://Engineering/{x.svc} {x.st}/api key"',
    )


def _l_doppler(r):
    x = _x(r)
    return f"doppler setup -p {x.svc} -c {x.st}\ndoppler run -- {ch(r, 'npm start', 'python -m app', 'go run ./cmd/' + x.svc)}"


def _l_cfn_resolve(r):
    x = _x(r)
    return ch(
        r,
        f"      MasterUserPassword: '{{{{resolve:secretsmanager:{x.st}/{x.svc}/db:SecretString:password}}}}'",
        f"      ApiKey: '{{{{resolve:ssm-secure:/{x.st}/{x.svc}/api-key:{r.randint(1, 9)}}}}}'",
        f"$ aws ssm get-parameter --name /{x.st}/{x.svc}/db/password --with-decryption --query Parameter.Version\n{r.randint(1, 30)}",
    )


def _l_tf_data(r):
    x = _x(r)
    return f'data "{_SMV}" "{x.db}" {{\n  secret_id = "{x.st}/{x.svc}/db"\n}}\n\nlocals {{\n  db_creds = jsondecode(data.{_SMV}.{x.db}.secret_string)\n}}'


def _l_ansible_lookup(r):
    x = _x(r)
    return f"{x.svc.replace('-', '_')}_db_password: \"{{{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/{x.svc}/{x.st}:password') }}}}\""


def _l_external_secret(r):
    x = _x(r)
    return (
        f"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {x.svc}\nspec:\n  refreshInterval: 1h\n"
        f"  secretStoreRef:\n    name: vault-{x.st}\n    kind: ClusterSecretStore\n  data:\n  - secretKey: {_en(r)}\n    remoteRef:\n      key: {x.svc}/{x.st}\n      property: api_key"
    )


def _l_gitlab_ref(r):
    x = _x(r)
    return f'deploy:\n  script:\n    - echo "$CI_REGISTRY_PASSWORD" | docker login -u "$CI_REGISTRY_USER" --password-stdin $CI_REGISTRY\n    - curl --header "JOB-TOKEN: $CI_JOB_TOKEN" "$CI_API_V4_URL/projects/{r.randint(100, 9999)}/packages"\n  environment: {x.st}'


def _l_spring_ref(r):
    x = _x(r)
    return f"spring.datasource.url=jdbc:postgresql://{x.box}:5432/{x.db}\nspring.datasource.username=${{DB_USER}}\nspring.datasource.password=${{DB_PASSWORD}}\n{x.svc}.api-key=${{{_en(r)}}}"


def _l_masked_last4(r):
    x = _x(r)
    v = ch(
        r,
        P_SKL + "\u2022" * 8 + rs(r, 4),
        P_GHP + "****" + rs(r, 4),
        P_SK + "...." + rs(r, 4),
        P_XOXB + "\u2026" + rs(r, 4),
        P_AK + "\u2022" * 12 + rs(r, 4, UD),
    )
    return ch(
        r,
        f"Key in use for {x.svc}: {v} (full value only in the vault)",
        f"| {x.svc} | {x.st} | {v} | rotated {x.date} |",
        f"Dashboard shows the active key as {v}; created by {x.p} on {x.date}.",
    )


def _l_ci_masked(r):
    x = _x(r)
    return f"Run ./deploy.sh {x.st}\n  env:\n    {_en(r)}: ***\n    DB_PASSWORD: ***\n+ curl -sf -H 'Authorization: Bearer ***' https://api.{x.org}.com/deploy\nDeployed {x.svc} {x.ver}"


def _l_kdesc_secret(r):
    x = _x(r)
    ks = r.sample(["password", "username", "api-key", "token", "tls.key", "tls.crt", "ca.crt", "url"], r.randint(2, 4))
    return (
        f"$ kubectl describe secret {x.svc}-creds -n {x.st}\nName:         {x.svc}-creds\nNamespace:    {x.st}\nType:  Opaque\n\nData\n====\n"
        + "\n".join(f"{k}:  {r.randint(8, 1800)} bytes" for k in ks)
    )


def _l_docker_redacted(r):
    x = _x(r)
    env = [f"{_en(r)}=<redacted>", "LOG_LEVEL=info", f"SERVICE={x.svc}", "DB_PASSWORD=<redacted>"]
    return f"$ docker inspect {x.svc} | redact\n" + json.dumps({"Id": hx(r, 64), "Config": {"Env": env}}, indent=2)


def _l_vercel_ls(r):
    x = _x(r)
    es = r.sample(_ENVN, 3)
    return (
        f"$ vercel env ls\n> Environment Variables found for {x.org}/{x.svc}\n name{' ' * 24}value{' ' * 15}environments\n"
        + "\n".join(f" {e:<28}Encrypted          Production, Preview   {r.randint(2, 40)}d ago" for e in es)
    )


def _l_gh_secret_list(r):
    x = _x(r)
    es = r.sample(_ENVN, 4)
    return f"$ gh secret list -R {x.org}/{x.svc}\n" + "\n".join(f"{e}\tUpdated {x.date}" for e in es)


def _l_aws_cfg_list(r):
    x = _x(r)
    return (
        f"$ aws configure list --profile {x.st}\n      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n"
        f"   profile                {x.st:>10}           manual    --profile\naccess_key     ****************{rs(r, 4, UD)} shared-credentials-file\n"
        f"secret_key     ****************{rs(r, 4)} shared-credentials-file\n    region                {x.reg}      config-file    ~/.aws/config"
    )


def _l_masked_prose(r):
    x = _x(r)
    return f"{x.p} rotated the {x.svc} API key on {x.date}; new key ends in \u2026{rs(r, 4)}. Old one revoked, CI updated via the secrets UI."


def _l_sha256sum(r):
    fs = r.sample(
        [
            "app.tar.gz",
            "checksums.txt",
            "cli-linux-amd64",
            "cli-darwin-arm64",
            "install.sh",
            "model.bin",
            "dump.sql.gz",
        ],
        3,
    )
    return "$ sha256sum " + " ".join(fs) + "\n" + "\n".join(f"{_sha(r)}  {f}" for f in fs)


def _l_md5(r):
    x = _x(r)
    return f"MD5 ({x.db}-{x.date}.csv) = {hx(r, 32)}\nMD5 ({x.db}-{x.date}.parquet) = {hx(r, 32)}"


def _l_sha1_tree(r):
    fs = r.sample(
        ["README.md", "src/main.rs", "package.json", "go.mod", "Dockerfile", "app/models.py", "tsconfig.json"], 3
    )
    return "$ git ls-tree HEAD\n" + "\n".join(f"100644 blob {hx(r, 40)}\t{f}" for f in fs)


def _l_bcrypt(r):
    x = _x(r)
    return ch(
        r,
        f"INSERT INTO users (email, password_hash) VALUES ('{x.user}@{x.org}.com', '{_bcrypt(r)}');",
        f"- model: accounts.user\n  fields:\n    email: {x.p.lower()}@{x.org}.com\n    password: {_bcrypt(r)}",
        f" id | email | password_hash\n----+-------+--------------\n {r.randint(1, 999)} | {x.user}@{x.org}.com | {_bcrypt(r)}",
    )


def _l_argon(r):
    x = _x(r)
    return f'users.{x.user}.hash = "{_argon(r)}"\n# argon2id hashes only, plaintext never stored'


def _l_shadow(r):
    x = _x(r)
    return f"{x.user}:$6${rs(r, 16, CRYPT)}${rs(r, 86, CRYPT)}:{r.randint(19000, 20000)}:0:99999:7:::"


def _l_htpasswd(r):
    x = _x(r)
    return ch(
        r,
        f"# /etc/nginx/.htpasswd\n{x.user}:$apr1${rs(r, 8, CRYPT)}${rs(r, 22, CRYPT)}",
        f"{x.user}:{_bcrypt(r)}\n{x.p.lower()}:{_bcrypt(r)}",
    )


def _l_django_hash(r):
    x = _x(r)
    return f'"password": "pbkdf2_sha256${ch(r, 600000, 720000, 870000)}${rs(r, 22)}${b64(r.randbytes(32))}",\n"username": "{x.user}"'


def _l_digest(r):
    x = _x(r)
    return ch(
        r,
        f"image: ghcr.io/{x.org}/{x.svc}@sha256:{_sha(r)}",
        f"$ docker pull {x.svc}:{x.ver}\nDigest: sha256:{_sha(r)}\nStatus: Downloaded newer image for {x.svc}:{x.ver}",
    )


def _l_git_log(r):
    msgs = [
        "fix flaky test",
        "bump deps",
        "add retry to webhook handler",
        "refactor config loader",
        "docs: update README",
        "feat: export csv",
        "chore: lint",
    ]
    return "$ git log --format='%H %s' -3\n" + "\n".join(f"{hx(r, 40)} {m}" for m in r.sample(msgs, 3))


def _l_commit_prose(r):
    x = _x(r)
    return f"Reverted {hx(r, 40)} on main because it broke {x.svc} on {x.st}; the fix landed in {hx(r, 7)} (PR #{r.randint(100, 9999)})."


def _l_pkglock(r):
    pk = ch(r, "lodash", "react", "express", "zod", "axios", "vite", "typescript", "date-fns")
    return f'    "node_modules/{pk}": {{\n      "version": "{r.randint(1, 18)}.{r.randint(0, 20)}.{r.randint(0, 9)}",\n      "resolved": "https://registry.npmjs.org/{pk}/-/{pk}-1.0.0.tgz",\n      "integrity": "sha512-{b64(r.randbytes(64))}"\n    }}'


def _l_yarnlock(r):
    pk = ch(r, "chalk", "debug", "ms", "semver", "uuid", "yargs", "glob")
    v = f"{r.randint(1, 9)}.{r.randint(0, 9)}.{r.randint(0, 9)}"
    return f'{pk}@^{v}:\n  version "{v}"\n  resolved "https://registry.yarnpkg.com/{pk}/-/{pk}-{v}.tgz#{hx(r, 40)}"\n  integrity sha512-{b64(r.randbytes(64))}'


def _l_gosum(r):
    m = ch(r, "github.com/spf13/cobra", "golang.org/x/sync", "github.com/stretchr/testify", "go.uber.org/zap")
    v = f"v{r.randint(0, 1)}.{r.randint(1, 20)}.{r.randint(0, 9)}"
    return f"{m} {v} h1:{b64(r.randbytes(32))}\n{m} {v}/go.mod h1:{b64(r.randbytes(32))}"


def _l_cargolock(r):
    p = ch(r, "serde", "tokio", "anyhow", "clap", "reqwest", "rand")
    return f'[[package]]\nname = "{p}"\nversion = "{r.randint(0, 2)}.{r.randint(0, 40)}.{r.randint(0, 9)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{_sha(r)}"'


def _l_piphash(r):
    p = ch(r, "requests", "urllib3", "certifi", "pydantic", "numpy", "fastapi")
    return f"{p}=={r.randint(1, 3)}.{r.randint(0, 30)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_sha(r)} \\\n    --hash=sha256:{_sha(r)}"


_NIXA = "0123456789abcdfg" + "hijklmnpqrsvwxyz"


def _l_nix(r):
    p = ch(r, "python3-3.12.4", "nodejs-20.14.0", "openssl-3.0.14", "glibc-2.39-52", "postgresql-16.3")
    return f"/nix/store/{rs(r, 32, _NIXA)}-{p}\n/nix/store/{rs(r, 32, _NIXA)}-{p}-dev"


def _l_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_sha(r)}\nsize {r.randint(1000, 900000000)}"


def _l_tflock(r):
    p = ch(r, "hashicorp/aws", "hashicorp/google", "hashicorp/azurerm", "cloudflare/cloudflare")
    return f'provider "registry.terraform.io/{p}" {{\n  version = "{r.randint(3, 5)}.{r.randint(0, 60)}.0"\n  hashes = [\n    "h1:{b64(r.randbytes(32))}",\n    "zh:{_sha(r)}",\n  ]\n}}'


def _l_sri(r):
    lib = ch(r, "bootstrap", "htmx.org", "alpinejs", "chart.js")
    return f'<script src="https://cdn.jsdelivr.net/npm/{lib}@{r.randint(1, 5)}.{r.randint(0, 9)}.{r.randint(0, 9)}/dist/{lib}.min.js" integrity="sha384-{b64(r.randbytes(48))}" crossorigin="anonymous"></script>'


def _l_etag(r):
    return f'< HTTP/2 200\n< etag: "{hx(r, 32)}"\n< last-modified: Tue, {r.randint(1, 28)} May 2024 10:00:00 GMT\n< cache-control: max-age={ch(r, 60, 300, 3600)}'


def _l_uuid_log(r):
    x = _x(r)
    return f"{iso(r)} INFO order created order_id={uid(r)} customer_id={uid(r)} total={r.randint(5, 900)}.{r.randint(0, 99):02d} EUR service={x.svc}"


def _l_req_ids(r):
    return f"< HTTP/2 {ch(r, 200, 404, 500)}\n< x-request-id: {uid(r)}\n< cf-ray: {hx(r, 16)}-FRA\n< x-amzn-trace-id: Root=1-{hx(r, 8)}-{hx(r, 24)}"


def _l_trace(r):
    x = _x(r)
    return f"traceparent: 00-{hx(r, 32)}-{hx(r, 16)}-01\n{iso(r)} span={hx(r, 16)} trace={hx(r, 32)} service={x.svc} duration_ms={r.randint(1, 900)}"


def _l_aws_reqid(r):
    return f"START RequestId: {uid(r)} Version: $LATEST\nEND RequestId: {uid(r)}\nREPORT Duration: {r.randint(1, 900)}.{r.randint(10, 99)} ms\tBilled Duration: {r.randint(1, 900)} ms"


def _l_stripe_ids(r):
    x = _x(r)
    return f"Refund for {x.p}: charge ch_{rs(r, 24)} on payment_intent pi_{rs(r, 24)}, customer cus_{rs(r, 14)}, event evt_{rs(r, 24)}"


def _l_k8s_uid(r):
    x = _x(r)
    return f'metadata:\n  name: {x.svc}\n  namespace: {x.st}\n  uid: {uid(r)}\n  resourceVersion: "{r.randint(100000, 99999999)}"\n  generation: {r.randint(1, 40)}'


def _l_docker_ps(r):
    x = _x(r)
    return "$ docker ps\nCONTAINER ID   IMAGE        STATUS\n" + "\n".join(
        f"{hx(r, 12)}   {s}:{x.ver}   Up {r.randint(1, 50)} hours" for s in r.sample(_SVCS, 3)
    )


def _l_sentry_event(r):
    x = _x(r)
    return f"Sentry issue {x.svc.upper()}-{r.randint(10, 999)}: TypeError in checkout; event id {hx(r, 32)}, release {x.ver}, {r.randint(2, 400)} users affected."


def _l_objectid(r):
    return json.dumps(
        {"_id": {"$oid": hx(r, 24)}, "user": {"$oid": hx(r, 24)}, "status": ch(r, "paid", "open", "void")}, indent=2
    )


def _l_slack_ids(r):
    return f"posted to channel C{rs(r, 10, UD)} as user U{rs(r, 10, UD)} (team T{rs(r, 9, UD)}), ts={r.randint(1700000000, 1730000000)}.{rs(r, 6, DI)}"


def _l_gha_run(r):
    x = _x(r)
    return f"https://github.com/{x.org}/{x.svc}/actions/runs/{dg(r, 10)}/job/{dg(r, 11)}\nnode_id: {ch(r, 'WFR_', 'CR_', 'PR_')}kwDO{rs(r, 20, B64U)}"


def _l_tickets(r):
    x = _x(r)
    return f"Related: {x.svc.upper()[:4]}-{r.randint(10, 9999)}, ENG-{r.randint(10, 9999)}, PR #{r.randint(10, 9999)}; Linear issue id {uid(r)}."


def _l_idempotency(r):
    return f'POST /v1/payments HTTP/1.1\nIdempotency-Key: {uid(r)}\nContent-Type: application/json\n\n{{"amount": {r.randint(100, 99999)}, "currency": "eur"}}'


def _l_az_account(r):
    x = _x(r)
    return "$ az account show\n" + json.dumps(
        {
            "environmentName": "AzureCloud",
            "id": uid(r),
            "isDefault": True,
            "name": f"{x.org}-{x.st}",
            "state": "Enabled",
            "tenantId": uid(r),
            "user": {"name": f"{x.user}@{x.org}.com", "type": "user"},
        },
        indent=2,
    )


def _l_pem_pub(r):
    x = _x(r)
    return f"JWT verification key for {x.svc} (public):\n{pub_pem(r)}"


def _l_pem_cert(r):
    x = _x(r)
    return ch(
        r,
        f"$ openssl s_client -connect {x.svc}.{x.org}.com:443 -showcerts </dev/null 2>/dev/null | sed -n '/BEGIN/,/END/p'\n{cert_pem(r)}",
        f"ca.crt for the {x.st} cluster:\n{cert_pem(r)}",
    )


def _l_ssh_pub(r):
    x = _x(r)
    typ = ch(r, "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256")
    return f"$ cat ~/.ssh/authorized_keys\n{typ} {b64(ssh_pub_blob(r, typ))} {x.user}@{x.box}"


def _l_known_hosts(r):
    x = _x(r)
    return f"{x.box},{ip(r)} ssh-ed25519 {b64(ssh_pub_blob(r))}\ngithub.com ecdsa-sha2-nistp256 {b64(ssh_pub_blob(r, 'ecdsa'))}"


def _l_gpg_pub(r):
    x = _x(r)
    body = wrap(b64(b"\x99\x01\x8d\x04" + r.randbytes(r.randint(300, 600))))
    return f"Release signing key ({x.p}):\n{ARM}BEGIN PGP PUBLIC KEY BLOCK{ARM}\n\n{body}\n={b64(r.randbytes(3))}\n{ARM}END PGP PUBLIC KEY BLOCK{ARM}"


def _l_jwks(r):
    return json.dumps(
        {
            "keys": [
                {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": hx(r, 16), "n": b64u(r.randbytes(256)), "e": "AQAB"}
            ]
        },
        indent=2,
    )


def _l_wg_peer(r):
    x = _x(r)
    return f"[Peer]\n# {x.p}'s laptop\nPublicKey = {b64(r.randbytes(32))}\nAllowedIPs = 10.8.0.{r.randint(2, 250)}/32\nPersistentKeepalive = 25"


def _l_age_pub(r):
    x = _x(r)
    return f"creation_rules:\n  - path_regex: secrets/{x.st}/.*\\.yaml$\n    age: age1{rs(r, 58, BECH)}"


def _l_stripe_pk(r):
    return ch(r, f"const stripe = Stripe('{P_PKL}{rs(r, 99)}');", f"VITE_STRIPE_PUBLISHABLE_KEY={P_PKL}{rs(r, 24)}")


def _l_mapbox_pk(r):
    x = _x(r)
    return f"mapboxgl.accessToken = 'pk.{bj({'u': x.user.replace('_', ''), 'a': 'cl' + rs(r, 23, LD)})}.{rs(r, 22, B64U)}'; // public token, URL-restricted"


def _l_supa_anon(r):
    ref = rs(r, 20, LO)
    t = ts(r)
    k = jwt(r, {"iss": "supabase", "ref": ref, "role": "anon", "iat": t, "exp": t + 315360000})
    return ch(
        r,
        f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={k}",
        f"const supabase = createClient('https://{ref}.supabase.co', '{k}') // anon key, safe in the browser",
    )


def _l_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{rs(r, 1, "cdefe")}{rs(r, 37, B64U)}"></div>'


def _l_vapid(r):
    k = b64u(bytes([4]) + r.randbytes(64))
    return f"const applicationServerKey = urlBase64ToUint8Array('{k}'); // VAPID public key"


def _l_sentry_dsn(r):
    x = _x(r)
    return f"SENTRY_DSN=https://{hx(r, 32)}@o{dg(r, 6)}.ingest.{ch(r, 'us.', 'de.', '')}sentry.io/{dg(r, 7)}\nSENTRY_ENVIRONMENT={x.st}"


def _l_google_cid(r):
    return f"GOOGLE_CLIENT_ID={dg(r, 12)}-{rs(r, 32, LD)}.apps.googleusercontent.com"


def _l_github_cid(r):
    x = _x(r)
    return f'GitHub App "{x.svc}-bot": app id {r.randint(100000, 999999)}, client id {ch(r, "Iv1." + hx(r, 16), "Iv23li" + rs(r, 14))}, installation {dg(r, 8)}'


def _l_ld_client(r):
    return f"const client = LDClient.initialize('{hx(r, 24)}', context); // client-side ID"


def _l_firebase(r):
    x = _x(r)
    proj = f"{x.svc}-{rs(r, 5, LD)}"
    return (
        f'const firebaseConfig = {{\n  apiKey: "{P_AZ}{rs(r, 35, B64U)}",\n  authDomain: "{proj}.firebaseapp.com",\n  projectId: "{proj}",\n'
        f'  storageBucket: "{proj}.appspot.com",\n  messagingSenderId: "{dg(r, 12)}",\n  appId: "1:{dg(r, 12)}:web:{hx(r, 22)}"\n}};'
    )


def _l_algolia_search(r):
    return f"const searchClient = algoliasearch('{rs(r, 10, UD)}', '{hx(r, 32)}'); // search-only API key"


def _l_clerk_pk(r):
    x = _x(r)
    k = P_PKL + b64(f"clerk.{x.svc}.{x.org}.com$".encode()).rstrip("=")
    return ch(
        r,
        f"# {x.svc} ({x.st})\nVITE_CLERK_PUBLISHABLE_KEY={k}",
        f'<ClerkProvider publishableKey="{k}">  {{/* {x.st} */}}',
    )


def _l_cert_fp(r):
    x = _x(r)
    fp = ":".join(hx(r, 2).upper() for _ in range(32))
    return f"$ openssl x509 -noout -fingerprint -sha256 -in {x.svc}.crt\nsha256 Fingerprint={fp}"


def _l_ssh_fp(r):
    x = _x(r)
    return f"The authenticity of host '{x.box} ({ip(r)})' can't be established.\nED25519 key fingerprint is SHA256:{b64(r.randbytes(32)).rstrip('=')}.\nAre you sure you want to continue connecting (yes/no)?"


def _l_aws_example(r):
    x = _x(r)
    kid = P_AK + "IOSFODNN7" + "EXAMPLE"
    sec = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
    return ch(
        r,
        f"[{x.st}]\naws_access_key_id = {kid}\naws_secret_access_key = {sec}\nregion = {x.reg}",
        f"AWS docs example values, used in the {x.svc} README:\nAWS_ACCESS_KEY_ID={kid}\nAWS_SECRET_ACCESS_KEY={sec}",
    )


def _jwtio():
    h = bj({"alg": "HS256", "typ": "JWT"})
    p = bj({"sub": "1234567890", "name": "John Doe", "iat": 1516239022})
    return f"{h}.{p}." + "SflKxwRJSMeKKF2QT4fw" + "pMeJf36POk6yJV_adQssw5c"


def _l_jwtio(r):
    x = _x(r)
    return ch(
        r,
        f'Test fixture for the {x.svc} JWT parser (jwt.io sample token, case {x.n}):\nSAMPLE = "{_jwtio()}"',
        f'def test_decode_{x.db}_{x.n}():\n    tok = "{_jwtio()}"  # jwt.io example\n    assert decode(tok, verify=False)["name"] == "John Doe"',
    )


def _l_stripe_doc(r):
    x = _x(r)
    k = P_SKT + "4eC39HqLyjWDarjtT1zdp7dc"
    return f'# Stripe\'s public docs test key, only for the {x.svc} docs snippet ({x.date})\nstripe.api_key = "{k}"  # from stripe.com/docs examples'


def _l_slack_doc(r):
    x = _x(r)
    return (
        f"# {x.svc}: example from the Slack docs, {x.p} will replace it in {x.st}\nSLACK_WEBHOOK_URL=https://hooks.slack.com/services/"
        + "T00000000/B00000000/"
        + "X" * 24
    )


def _l_azurite(r):
    x = _x(r)
    k = "Eby8vdM02xNOcqFlqUwJP" + "LlmEtlCDXJ1OU" + "zFT50uSRZ6IFsuFq2UVErCz4I6tq/" + "K1SZFPTOtr/KBHBeksoGMGw=="
    return f"# Azurite local emulator (well-known dev account) for {x.svc} tests, {x.date}\nAzureWebJobsStorage=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={k};BlobEndpoint=http://127.0.0.1:{ch(r, 10000, 10010)}/devstoreaccount1;"


def _l_sops(r):
    def enc(n):
        return (
            f"ENC[AES256_GCM,data:{b64(r.randbytes(n))},iv:{b64(r.randbytes(32))},tag:{b64(r.randbytes(16))},type:str]"
        )

    return (
        f"db_password: {enc(18)}\napi_key: {enc(30)}\nsops:\n    age:\n        - recipient: age1{rs(r, 58, BECH)}\n"
        f'    lastmodified: "{iso(r)}"\n    mac: {enc(32)}\n    version: 3.8.1'
    )


def _l_ansible_vault(r):
    x = _x(r)
    body = "\n".join(hx(r, 80) for _ in range(r.randint(3, 7)))
    return f"{x.svc.replace('-', '_')}_api_key: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(
        "          " + ln for ln in body.splitlines()
    )


def _l_sealed(r):
    x = _x(r)
    return (
        f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {x.svc}\n  namespace: {x.st}\nspec:\n  encryptedData:\n"
        f"    {_en(r)}: AgB{b64(r.randbytes(r.randint(400, 520)))}"
    )


def _l_pgp_msg(r):
    body = wrap(b64(bytes([0x85, 2, 12, 3]) + r.randbytes(r.randint(300, 700))))
    return f"{ARM}BEGIN PGP MESSAGE{ARM}\n\n{body}\n={b64(r.randbytes(3))}\n{ARM}END PGP MESSAGE{ARM}"


def _l_age_armor(r):
    return f"{ARM}BEGIN AGE ENCRYPTED FILE{ARM}\n{wrap(b64(b'age-encryption.org/v1' + bytes([10]) + r.randbytes(r.randint(200, 500))))}\n{ARM}END AGE ENCRYPTED FILE{ARM}"


def _l_rails_enc(r):
    return f"$ cat config/credentials/production.yml.enc\n{b64(r.randbytes(r.randint(200, 400)))}--{b64(r.randbytes(12))}--{b64(r.randbytes(16))}"


def _l_jenkins_enc(r):
    x = _x(r)
    return f"<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n  <id>{x.svc}-deploy</id>\n  <username>{x.user}</username>\n  <password>{{AQAAABAAAAAQ{b64(r.randbytes(48))}}}</password>\n</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>"


def _l_kms(r):
    return "$ aws kms encrypt --key-id alias/app --plaintext fileb://message.txt\n" + json.dumps(
        {
            "CiphertextBlob": "AQICAHh" + b64(r.randbytes(180)),
            "KeyId": f"arn:aws:kms:eu-west-1:{dg(r, 12)}:key/{uid(r)}",
            "EncryptionAlgorithm": "SYMMETRIC_DEFAULT",
        },
        indent=2,
    )


def _l_png(r):
    return f'<img alt="logo" src="data:image/png;base64,{b64(bytes.fromhex("89504e470d0a1a0a") + r.randbytes(r.randint(120, 300)))}">'


def _l_b64_json(r):
    x = _x(r)
    o = {
        "theme": ch(r, "dark", "light"),
        "locale": ch(r, "de-DE", "en-GB", "pt-BR", "ja-JP"),
        "features": r.sample(["beta", "export", "sso", "audit"], 2),
        "build": x.ver,
    }
    return f"$ echo {b64(json.dumps(o).encode())} | base64 -d\n{json.dumps(o)}"


def _l_font(r):
    return f"@font-face {{\n  font-family: 'Inter';\n  src: url(data:font/woff2;base64,{b64(b'wOF2' + r.randbytes(r.randint(150, 300)))}) format('woff2');\n}}"


def _l_gh_contents(r):
    x = _x(r)
    txt = f"# {x.svc}\n\nService for {x.db}. Run `make dev` to start.\n".encode()
    return json.dumps(
        {
            "name": "README.md",
            "path": "README.md",
            "sha": hx(r, 40),
            "size": len(txt),
            "encoding": "base64",
            "content": b64(txt),
        },
        indent=2,
    )


def _l_kubecfg_exec(r):
    x = _x(r)
    return (
        f"apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: {b64((cert_pem(r) + chr(10)).encode())}\n    server: https://{hx(r, 32).upper()}.gr7.{x.reg}.eks.amazonaws.com\n"
        f"  name: {x.st}\nusers:\n- name: {x.st}\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [eks, get-token, --cluster-name, {x.st}]"
    )


def _l_minified(r):
    a, b, c = rs(r, 1, LO), rs(r, 1, LO), rs(r, 2, LO)
    return f'!function(){{"use strict";var {a}=function({b}){{return {b}.map(function({c}){{return {c}*{r.randint(2, 9)}}})}},{c}="{hx(r, 8)}";window.__v={c};var e={a}([{r.randint(1, 9)},{r.randint(1, 9)}]);console.log(e)}}();'


def _l_sourcemap(r):
    return json.dumps(
        {
            "version": 3,
            "file": f"main.{hx(r, 8)}.js",
            "sources": ["../src/index.ts"],
            "names": ["a", "b"],
            "mappings": ";".join(rs(r, r.randint(4, 12), "ABCDEFGIKMOQSUWYacegikmoqsuwy+/,") for _ in range(6)),
        }
    )


def _l_chunks(r):
    return "dist/assets/" + "\ndist/assets/".join(
        f"{n}-{rs(r, 8, B64U)}.{e}  {r.randint(1, 400)}.{r.randint(1, 99)} kB"
        for n, e in [("index", "js"), ("vendor", "js"), ("index", "css")]
    )


def _l_gobytes(r):
    return "var fileDescriptor_" + hx(r, 8) + " = []byte{\n\t" + ", ".join(f"0x{hx(r, 2)}" for _ in range(24)) + ",\n}"


def _l_css(r):
    return (
        ":root {\n"
        + "\n".join(
            f"  --{n}: #{hx(r, 6)};" for n in r.sample(["primary", "accent", "bg", "fg", "muted", "danger", "ok"], 4)
        )
        + "\n}"
    )


def _l_semver(r):
    x = _x(r)
    return f"## {x.svc} {x.ver} ({x.date})\n- bump {ch(r, 'react', 'django', 'spring-boot', 'tokio')} to {r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}\n- fix {ch(r, 'timezone', 'pagination', 'retry')} bug (#{r.randint(100, 999)})"


def _l_tags(r):
    x = _x(r)
    return f"$ crane ls ghcr.io/{x.org}/{x.svc}\n" + "\n".join(f"{x.ver}-{hx(r, 7)}" for _ in range(3)) + "\nlatest"


def _l_buildinfo(r):
    x = _x(r)
    return json.dumps(
        {"service": x.svc, "version": x.ver, "commit": hx(r, 40), "built": iso(r), "go": "go1.22.5"}, indent=2
    )


def _l_netdump(r):
    mac = ":".join(hx(r, 2) for _ in range(6))
    return f"2: eth0: <BROADCAST,MULTICAST,UP> mtu 1500\n    link/ether {mac} brd ff:ff:ff:ff:ff:ff\n    inet {ip(r)}/24 scope global eth0\n    inet6 fe80::{hx(r, 4)}:{hx(r, 4)}:{hx(r, 4)}:{hx(r, 4)}/64 scope link"


def _l_android(r):
    x = _x(r)
    return f'android {{\n    defaultConfig {{\n        applicationId "com.{x.org.replace("-", "")}.{x.svc.replace("-", "")}"\n        versionCode {r.randint(100, 9999)}\n        versionName "{x.ver}"\n    }}\n}}'


def _l_rotation(r):
    x = _x(r)
    return ch(
        r,
        f"Policy: rotate the {x.svc} API tokens every {ch(r, 30, 60, 90)} days; {x.p} owns the calendar reminder.",
        f"Decision ({x.date}): all service tokens for {x.st} expire after {r.randint(7, 90)} days and are rotated by the pipeline.",
        f"Note: after rotating the Stripe key remember to restart {x.svc}, it caches the key for {r.randint(5, 60)} minutes.",
    )


def _l_pw_policy(r):
    x = _x(r)
    return f"The password policy for {x.svc} requires at least {r.randint(10, 16)} characters, one digit and one symbol; lockout after {r.randint(3, 10)} failed attempts."


def _l_prose_eu(r):
    x = _x(r)
    return ch(
        r,
        f"Notiz: Der API-Schlüssel für {x.svc} liegt im Vault unter kv/{x.st}/{x.svc}; bitte nie in Tickets kopieren.",
        f"Nota: la contraseña de la base de datos de {x.st} se rota cada {r.randint(30, 90)} días, la gestiona {x.p}.",
        f"Lembrete: o token do {x.svc} expira em {r.randint(7, 60)} dias; renovar pelo portal, não pelo Slack.",
        f"Note : le mot de passe admin de {x.svc} est dans le coffre {x.st}, demander à {x.p}.",
        f"Promemoria: la chiave API di {x.svc} va ruotata ogni {r.randint(30, 90)} giorni.",
    )


def _l_prose_mid(r):
    x = _x(r)
    return ch(
        r,
        f"Notatka: hasło do bazy {x.st} jest w Vault, ścieżka kv/{x.svc}/db. Nie wklejać do czatu.",
        f"Let op: het wachtwoord voor {x.svc} staat in de kluis; {x.p} beheert de rotatie.",
        f"Not: {x.svc} API anahtarı vault'ta duruyor, {r.randint(30, 90)} günde bir yenileniyor.",
        f"Note: {x.svc} ka token vault mein hai, har {r.randint(30, 90)} din rotate karna hai. {x.p} se poochna.",
    )


def _l_prose_cjk(r):
    x = _x(r)
    return ch(
        r,
        f"メモ: {x.svc} の APIキーは Vault の kv/{x.st}/{x.svc} にある。チャットに貼らないこと。",
        f"메모: {x.svc} 비밀번호는 볼트에 있고 {r.randint(30, 90)}일마다 교체합니다.",
        f"备忘：{x.svc} 的密钥保存在 Vault（kv/{x.st}/{x.svc}），每 {r.randint(30, 90)} 天轮换一次。",
    )


def _l_lesson_leaks(r):
    x = _x(r)
    return f"Lesson: a token ended up in the {x.svc} git history on {x.date}. We rotated it, added gitleaks to pre-commit and a CI job that fails on findings."


def _l_handover_novalue(r):
    x = _x(r)
    return f"Handover for {x.p}:\n- {x.svc} Stripe key lives in Vault at kv/payments/{x.st}/stripe\n- DB creds come from the {x.svc}-db secret\n- never paste tokens into memory notes"


def _l_oidc(r):
    x = _x(r)
    return f"Decision: {x.svc} CI no longer uses static cloud keys; it assumes arn:aws:iam::{dg(r, 12)}:role/{x.svc}-deploy via GitHub OIDC."


def _l_todo_secrets(r):
    x = _x(r)
    return f"TODO ({x.svc}):\n- [ ] move DB_PASSWORD from .env to the secret store\n- [ ] revoke {x.p}'s old PAT\n- [x] enable secret scanning on {x.org}/{x.svc}\n- [ ] document the rotation runbook by {x.date}"


def _l_postmortem(r):
    x = _x(r)
    return f"Postmortem {x.date}: an expired {ch(r, 'Slack', 'SendGrid', 'Twilio', 'OpenAI')} key caused {r.randint(5, 200)} minutes of missing notifications in {x.svc}. Action items: expiry alerts, second key for overlap."


def _l_preference(r):
    x = _x(r)
    return ch(
        r,
        f"User preference: use pnpm, not npm, in {x.svc}; tabs in Go files, 4 spaces elsewhere.",
        f"Project fact: {x.svc} runs on {x.plat} in {x.reg}; deploys happen from main via {ch(r, 'Argo CD', 'GitHub Actions', 'GitLab CI')}.",
        f"{x.p} prefers small PRs (<{r.randint(200, 500)} lines) and wants a test for every bug fix.",
    )


def _l_errfix(r):
    x = _x(r)
    return ch(
        r,
        f"Fixed: {x.svc} crashed with `ECONNRESET` on {x.st}; cause was the LB idle timeout ({r.randint(30, 120)}s). Set keepAliveTimeout higher.",
        f"Error `ModuleNotFoundError: No module named '{x.db}_utils'` happened because the venv was stale; `uv sync` fixed it.",
        f"Build broke on {x.date}: Node {r.randint(18, 22)} dropped a flag. Pinned .nvmrc and the pipeline is green.",
    )


def _l_401(r):
    x = _x(r)
    return ch(
        r,
        f"< HTTP/2 401\n< x-request-id: {uid(r)}\n"
        + json.dumps(
            {
                "error": {
                    "message": "Incorrect API key provided. You can find your API key in your dashboard.",
                    "type": "invalid_request_error",
                    "code": "invalid_api_key",
                }
            }
        ),
        f"$ gh api /repos/{x.org}/{x.svc}\n"
        + json.dumps(
            {"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest", "status": "401"}
        ),
        f"{iso(r)} WARN {x.svc}: upstream returned 401 Unauthorized (token expired?) request_id={uid(r)}",
    )


def _l_pg_fail(r):
    x = _x(r)
    return f'psycopg2.OperationalError: connection to server at "{x.box}" ({ip(r)}), port 5432 failed: FATAL:  password authentication failed for user "{x.user}"'


def _l_ssh_denied(r):
    x = _x(r)
    return f"$ ssh {x.user}@{x.box}\n{x.user}@{x.box}: Permission denied (publickey).\n$ ssh-add -l\nThe agent has no identities."


def _l_aws_err(r):
    return ch(
        r,
        f"An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid.\nRequestId: {uid(r)}",
        f"An error occurred (SignatureDoesNotMatch) when calling the PutObject operation: The request signature we calculated does not match the signature you provided. Check your key and signing method. RequestId: {hx(r, 16).upper()}",
        f"An error occurred (ExpiredToken) when calling the ListBuckets operation: The provided token has expired. (request {uid(r)})",
    )


def _l_git_auth(r):
    x = _x(r)
    return f"$ git push origin main\nremote: Invalid username or token. Password authentication is not supported for Git operations.\nfatal: Authentication failed for 'https://github.com/{x.org}/{x.svc}.git/'"


def _l_docker_unauth(r):
    x = _x(r)
    return f'$ docker pull ghcr.io/{x.org}/{x.svc}:{x.ver}\nError response from daemon: Head "https://ghcr.io/v2/{x.org}/{x.svc}/manifests/{x.ver}": unauthorized: authentication required'


def _l_py_env(r):
    e = _en(r)
    return ch(
        r,
        f'import os\n\n{_snake(e)} = os.environ["{e}"]\nif not {_snake(e)}:\n    raise RuntimeError("{e} is not set")',
        f'settings = Settings(_env_file=".env")\nclient = make_client(settings.{_snake(e)}.get_secret_value())  # {r.randint(1, 99)}',
    )


def _l_ts_env(r):
    e = _en(r)
    return f"const {_camel(e)} = process.env.{e};\nif (!{_camel(e)}) throw new Error('{e} missing'); // line {r.randint(1, 400)}"


def _l_go_env(r):
    e = _en(r)
    return f'{_camel(e)} := os.Getenv("{e}")\nif {_camel(e)} == "" {{\n\tlog.Fatalf("{e} not set (%d)", {r.randint(1, 99)})\n}}'


def _l_rust_env(r):
    e = _en(r)
    return f'let {_snake(e)} = std::env::var("{e}").context("{e} must be set")?; // {hx(r, 6)}'


def _l_java_env(r):
    e = _en(r)
    return ch(
        r,
        f'String {_camel(e)} = System.getenv("{e}"); // {r.randint(1, 999)}',
        f'@Value("${{{_snake(e).replace("_", ".")}}}")\nprivate String {_camel(e)}{r.randint(1, 99)};',
    )


def _l_cs_env(r):
    x = _x(r)
    return f'var apiKey = builder.Configuration["{x.svc.title().replace("-", "")}:ApiKey"]\n    ?? throw new InvalidOperationException("missing key {r.randint(1, 99)}");'


def _l_php_ruby_env(r):
    e = _en(r)
    return ch(
        r,
        f"$key = getenv('{e}') ?: throw new RuntimeException('{e} missing'); // {r.randint(1, 99)}",
        f'api_key = ENV.fetch("{e}") # {hx(r, 6)}',
        f"'key' => env('{e}'), // {r.randint(1, 99)}",
    )


def _l_kotlin_env(r):
    e = _en(r)
    return f'val {_camel(e)} = System.getenv("{e}") ?: error("{e} not set") // {r.randint(1, 999)}'


def _l_sh_read(r):
    x = _x(r)
    return ch(
        r,
        f"read -rsp 'Password for {x.user}: ' PGPASSWORD && export PGPASSWORD\npsql -h {x.box} -U {x.user} {x.db}",
        f'TOKEN=$(cat /run/secrets/{x.svc}_token)\ncurl -sf -H "Authorization: Bearer $TOKEN" https://{x.svc}.{x.org}.com/health',
    )


def _l_dockerfile_secret(r):
    x = _x(r)
    return f"# syntax=docker/dockerfile:1\nFROM node:20-alpine\nRUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci\nARG {_en(r)}\nCOPY . /srv/{x.svc}"


def _l_compose_secrets(r):
    x = _x(r)
    return f"services:\n  {x.svc}:\n    image: {x.svc}:{x.ver}\n    env_file: .env.{x.st}\n    secrets:\n      - db_password\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt"


def _l_tf_sensitive(r):
    e = _en(r)
    return f'variable "{_snake(e)}" {{\n  type      = string\n  sensitive = true\n  description = "set via TF_VAR_{_snake(e)} ({r.randint(1, 99)})"\n}}'


def _l_systemd_cred(r):
    x = _x(r)
    return f"[Service]\nEnvironmentFile=/etc/{x.svc}/{x.st}.env\nLoadCredential=db-password:/etc/credstore/{x.svc}-db\nExecStart=/usr/bin/{x.svc} --port {r.randint(3000, 9000)}"


def _l_nginx_auth(r):
    x = _x(r)
    return f'location /admin/ {{\n    auth_basic "{x.svc} admin";\n    auth_basic_user_file /etc/nginx/.htpasswd;\n    proxy_pass http://127.0.0.1:{r.randint(3000, 9000)};\n}}'


def _l_gha_oidc(r):
    x = _x(r)
    return f"permissions:\n  id-token: write\n  contents: read\nsteps:\n  - uses: {_AWS_CREDS_ACTION}@v4\n    with:\n      role-to-assume: arn:aws:iam::{dg(r, 12)}:role/{x.svc}-gha\n      aws-region: {x.reg}"


def _l_sts(r):
    x = _x(r)
    return "$ aws sts get-caller-identity\n" + json.dumps(
        {"UserId": "AIDA" + rs(r, 17, B32), "Account": dg(r, 12), "Arn": f"arn:aws:iam::{dg(r, 12)}:user/{x.user}"},
        indent=4,
    )


def _l_gcloud_list(r):
    x = _x(r)
    return f"$ gcloud config list\n[core]\naccount = {x.user}@{x.org}.com\ndisable_usage_reporting = True\nproject = {x.svc}-{rs(r, 6, LD)}\n\nYour active configuration is: [{x.st}]"


def _l_kget_pods(r):
    x = _x(r)
    return (
        f"$ kubectl get pods -n {x.st}\nNAME                          READY   STATUS    RESTARTS   AGE\n"
        + "\n".join(
            f"{s}-{hx(r, 9)}-{rs(r, 5, LD)}   1/1     Running   {r.randint(0, 5)}          {r.randint(1, 40)}d"
            for s in r.sample(_SVCS, 3)
        )
    )


def _l_git_remote(r):
    x = _x(r)
    return f"$ git remote -v\norigin\tgit@github.com:{x.org}/{x.svc}.git (fetch)\norigin\tgit@github.com:{x.org}/{x.svc}.git (push)\n$ git config user.email\n{x.user}@{x.org}.com"


def _l_docker_clean(r):
    x = _x(r)
    return f"$ docker inspect {x.svc} --format '{{{{json .Config.Env}}}}'\n" + json.dumps(
        ["PATH=/usr/local/bin:/usr/bin:/bin", f"APP_VERSION={x.ver}", f"STAGE={x.st}", "PORT=8080"]
    )


def _l_curl_public(r):
    x = _x(r)
    return f"$ curl -sI https://{x.svc}.{x.org}.com/healthz\nHTTP/2 200\ncontent-type: application/json\nx-request-id: {uid(r)}\nstrict-transport-security: max-age=63072000"


def _l_psql_nopw(r):
    x = _x(r)
    return f'{x.db}=> \\conninfo\nYou are connected to database "{x.db}" as user "{x.user}" on host "{x.box}" at port "5432".\nSSL connection (protocol: TLSv1.3)'


_LOOK = [
    _l_ph_angle,
    _l_ph_changeme,
    _l_ph_dollar,
    _l_ph_xxx,
    _l_ph_stars,
    _l_ph_prose,
    _l_ph_curl_ref,
    _l_ph_yourkey,
    _l_ph_fake,
    _l_ph_redacted,
    _l_ph_jinja,
    _l_ph_helm,
    _l_ph_postman,
    _l_ph_empty,
    _l_ph_prompt,
    _l_ph_docker_passthru,
    _l_ph_url,
    _l_ph_multilang,
    _l_vault_cli,
    _l_aws_sm_arn,
    _l_gha_secrets,
    _l_keyvault,
    _l_gcp_sm,
    _l_k8s_ref,
    _l_op_ref,
    _l_doppler,
    _l_cfn_resolve,
    _l_tf_data,
    _l_ansible_lookup,
    _l_external_secret,
    _l_gitlab_ref,
    _l_spring_ref,
    _l_masked_last4,
    _l_ci_masked,
    _l_kdesc_secret,
    _l_docker_redacted,
    _l_vercel_ls,
    _l_gh_secret_list,
    _l_aws_cfg_list,
    _l_masked_prose,
    _l_sha256sum,
    _l_md5,
    _l_sha1_tree,
    _l_bcrypt,
    _l_argon,
    _l_shadow,
    _l_htpasswd,
    _l_django_hash,
    _l_digest,
    _l_git_log,
    _l_commit_prose,
    _l_pkglock,
    _l_yarnlock,
    _l_gosum,
    _l_cargolock,
    _l_piphash,
    _l_nix,
    _l_lfs,
    _l_tflock,
    _l_sri,
    _l_etag,
    _l_uuid_log,
    _l_req_ids,
    _l_trace,
    _l_aws_reqid,
    _l_stripe_ids,
    _l_k8s_uid,
    _l_docker_ps,
    _l_sentry_event,
    _l_objectid,
    _l_slack_ids,
    _l_gha_run,
    _l_tickets,
    _l_idempotency,
    _l_az_account,
    _l_pem_pub,
    _l_pem_cert,
    _l_ssh_pub,
    _l_known_hosts,
    _l_gpg_pub,
    _l_jwks,
    _l_wg_peer,
    _l_age_pub,
    _l_stripe_pk,
    _l_mapbox_pk,
    _l_supa_anon,
    _l_recaptcha,
    _l_vapid,
    _l_sentry_dsn,
    _l_google_cid,
    _l_github_cid,
    _l_ld_client,
    _l_firebase,
    _l_algolia_search,
    _l_clerk_pk,
    _l_cert_fp,
    _l_ssh_fp,
    _l_aws_example,
    _l_jwtio,
    _l_stripe_doc,
    _l_slack_doc,
    _l_azurite,
    _l_sops,
    _l_ansible_vault,
    _l_sealed,
    _l_pgp_msg,
    _l_age_armor,
    _l_rails_enc,
    _l_jenkins_enc,
    _l_kms,
    _l_png,
    _l_b64_json,
    _l_font,
    _l_gh_contents,
    _l_kubecfg_exec,
    _l_minified,
    _l_sourcemap,
    _l_chunks,
    _l_gobytes,
    _l_css,
    _l_semver,
    _l_tags,
    _l_buildinfo,
    _l_netdump,
    _l_android,
    _l_rotation,
    _l_pw_policy,
    _l_prose_eu,
    _l_prose_mid,
    _l_prose_cjk,
    _l_lesson_leaks,
    _l_handover_novalue,
    _l_oidc,
    _l_todo_secrets,
    _l_postmortem,
    _l_preference,
    _l_errfix,
    _l_401,
    _l_pg_fail,
    _l_ssh_denied,
    _l_aws_err,
    _l_git_auth,
    _l_docker_unauth,
    _l_py_env,
    _l_ts_env,
    _l_go_env,
    _l_rust_env,
    _l_java_env,
    _l_cs_env,
    _l_php_ruby_env,
    _l_kotlin_env,
    _l_sh_read,
    _l_dockerfile_secret,
    _l_compose_secrets,
    _l_tf_sensitive,
    _l_systemd_cred,
    _l_nginx_auth,
    _l_gha_oidc,
    _l_sts,
    _l_gcloud_list,
    _l_kget_pods,
    _l_git_remote,
    _l_docker_clean,
    _l_curl_public,
    _l_psql_nopw,
]


# ==== assembly

_UUIDISH = re.compile(r"[0-9a-f-]+")


def _place(r, c):
    if c.m == "sp" or (c.sp and r.random() < 0.35):
        t = r.choice(c.sp)
        prose_like = "\n" not in t and not t.startswith(("$", "//", "#"))
        return _frame(r, c, t, "prose" if prose_like and r.random() < 0.7 else "cfg")
    fam = r.choices(("prose", "cfg", "tool"), (2, 1, 1))[0]
    if c.m == "pem":
        t = r.choice(_PEM_T[fam])(r, c)
        return _frame(r, c, t, "cfg") if fam != "prose" and r.random() < 0.5 else t
    if fam == "prose":
        lang = r.choices(_LANGS, _LANG_W)[0]
        pool = _PROSE[lang] + (_EN_PW if c.m == "pw" and lang == "en" else [])
        return _frame(r, c, r.choice(pool).format(**vars(c)), "prose")
    if fam == "cfg":
        return _frame(r, c, r.choice(_CFG)(r, c), "cfg")
    pool = list(_TOOL)
    if c.hdr:
        pool += _HDR * 3
    if c.m == "tok" and _URLSAFE.fullmatch(c.v) and not _UUIDISH.fullmatch(c.v):
        pool += _QRY
    return _frame(r, c, r.choice(pool)(r, c), "cfg")


def _positive(r, fn):
    x = _x(r)
    c = SimpleNamespace(**{**vars(x), **fn(r, x)})
    if c.host == "api.example.com":
        c.host = x.box if c.m in ("pw", "url") else f"api.{c.vk}.com"
    return _place(r, c), c.s


def _lframe(r, t):
    if r.random() >= 0.35:
        return t
    f = vars(_x(r))
    if "\n" in t:
        return r.choice(_PRE_C).format(**f) + t + r.choice(_SUF_C[:6]).format(**f)
    return r.choice(_PRE_P).format(**f) + t + r.choice(_SUF_P).format(**f)


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind, fn in _KINDS:
        n = tries = 0
        while n < N_PER_KIND:
            tries += 1
            if tries > 5000:
                raise RuntimeError(f"{kind} cannot produce {N_PER_KIND} samples")
            text, secret = _positive(r, fn)
            if text in seen or secret not in text or secret != secret.strip():
                continue
            seen.add(text)
            positives.append((text, kind, secret))
            n += 1
    secrets = {s for _, _, s in positives if len(s) >= 8}
    short = sorted({s for s in secrets if len(s) < 40}, key=len)
    longs = [s for s in secrets if len(s) >= 40]

    def clean(t):
        if any(s in t for s in short):
            return False
        return not any(s in t for s in longs) if len(t) >= 40 else True

    lookalikes: list[str] = []
    for gen in _LOOK:
        n = tries = 0
        while n < LOOK_PER_GEN:
            tries += 1
            if tries > 5000:
                raise RuntimeError(f"{gen.__name__} cannot produce {LOOK_PER_GEN} unique texts")
            t = _lframe(r, gen(r))
            if t in seen or not clean(t):
                continue
            seen.add(t)
            lookalikes.append(t)
            n += 1
    return positives, lookalikes
