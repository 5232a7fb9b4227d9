"""Secret-detector test set T.

Theme: memories an AI agent keeps for a small product company across a
quarter -- session summaries, lessons learned, preferences, TODOs, bug
reports with pasted logs, config snippets (.env, YAML, JSON, TOML,
Dockerfile, GitHub Actions, Kubernetes, Terraform, Python, TypeScript, Go,
SQL), shell sessions, HTTP requests, chat excerpts and diffs, mostly English
with some Spanish, German, French, Portuguese, Japanese and Korean.

Contract: ``generate(seed) -> (positives, lookalikes)``. ``positives`` is a
list of ``(text, kind, secret)`` where ``secret`` is the single sensitive
value, an exact stripped substring of ``text``. ``lookalikes`` contain no
credential; ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``. Deterministic
per seed (``random.Random(seed)``), no duplicate texts.

Labelling: webhook URLs -> final path token; connection strings and
basic-auth URLs -> password only; pre-signed URLs -> the signature; PEM /
OpenSSH private keys -> the whole armoured block; UUID-shaped vendor tokens
only when named as such. Public-by-design values (publishable keys, anon
keys, site keys, DSNs, client ids, Firebase web keys, search-only keys),
vendor documentation examples, encrypted blobs and password hashes are
lookalikes. Bare access key ids are left out. All token-shaped values are
assembled at run time from pieces with random bodies.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
import string

LOOK_PER_GEN = 12
PER_KIND = 30

_LO = string.ascii_lowercase
_UP = string.ascii_uppercase
_DG = string.digits
_AN = _LO + _UP + _DG
_HX = _DG + "abcdef"
_B64 = _AN + "+/"
_URL = _AN + "-_"
_B32 = _UP + "234567"
_D = "-" * 5


def _s(r: random.Random, n: int, a: str = _AN) -> str:
    return "".join(r.choice(a) for _ in range(n))


def _b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def _jwt(r: random.Random, payload: dict, sig: str | None = None) -> str:
    h = _b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    p = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{h}.{p}.{sig if sig is not None else _b64u(r.randbytes(32))}"


def _pem(r: random.Random, label: str, head: bytes, n: int, width: int = 64) -> str:
    body = base64.b64encode(head + r.randbytes(n)).decode()
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return f"{_D}BEGIN {label}{_D}\n" + "\n".join(lines) + f"\n{_D}END {label}{_D}"


_WHO = [
    "Ana",
    "Ben",
    "Chloe",
    "Dmitri",
    "Elif",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jun",
    "Kofi",
    "Lena",
    "Mateo",
    "Nadia",
    "Omar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sven",
    "Tomo",
    "Yuki",
    "Zoe",
]
_SVC = [
    "billing",
    "api",
    "worker",
    "webhooks",
    "auth",
    "search",
    "notifier",
    "exporter",
    "scheduler",
    "gateway",
    "ledger",
    "reports",
]
_HOSTS = ["db.internal", "pg-prod.acme.io", "mysql.staging.local", "mongo0.cluster.dev", "cache.acme.io", "mq.internal"]
_WORDS = [
    "maple",
    "river",
    "stone",
    "cloud",
    "orbit",
    "lemon",
    "tiger",
    "piano",
    "copper",
    "violet",
    "falcon",
    "meadow",
    "harbor",
    "quartz",
    "ember",
    "willow",
    "canyon",
    "bramble",
    "tundra",
    "saffron",
    "glacier",
    "pepper",
    "walnut",
    "comet",
]
_ENVS = ["staging", "prod", "dev", "preview", "qa"]


def _ctx(r: random.Random) -> dict[str, str]:
    m = r.randint(1, 3)
    return {
        "WHO": r.choice(_WHO),
        "WHO2": r.choice(_WHO),
        "DAY": f"2026-0{m}-{r.randint(1, 28):02d}",
        "SVC": r.choice(_SVC),
        "HOST": r.choice(_HOSTS),
        "N": str(r.randint(2, 9999)),
        "TKT": f"{r.choice(['OPS', 'ENG', 'BUG', 'PLAT'])}-{r.randint(10, 999)}",
        "SHA": _s(r, 7, _HX),
        "ENV": r.choice(_ENVS),
        "PORT": str(r.choice([3000, 5432, 8080, 8443, 9000, 6379])),
        "RID": f"req_{_s(r, 12, _LO + _DG)}",
    }


def _fill(r: random.Random, tpl: str, extra: dict[str, str]) -> str:
    d = _ctx(r)
    d.update(extra)
    return re.sub(r"§(\w+)§", lambda m: d[m.group(1)], tpl)


# --- templates
_TOK = [
    "§V§=§X§\n",
    "# .env.§ENV§ (copied from §WHO§'s laptop)\nNODE_ENV=production\n§V§=§X§\nPORT=§PORT§\n",
    "§v§: §X§\nregion: eu-west-1\n",
    'config:\n  service: §SVC§\n  §v§: "§X§"\n  timeout: 30\n',
    '{\n  "service": "§SVC§",\n  "§v§": "§X§",\n  "retries": 3\n}',
    '[§SVC§]\n§v§ = "§X§"\nenabled = true\n',
    'FROM python:3.11-slim\nENV §V§=§X§\nCMD ["python", "-m", "§SVC§"]\n',
    "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      §V§: §X§\n    steps:\n      - run: make deploy\n",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: §SVC§-creds\nstringData:\n  §V§: §X§\n",
    'resource "kubernetes_secret" "§SVC§" {\n  data = {\n    §v§ = "§X§"\n  }\n}\n',
    '§V§ = "§X§"  # TODO(§WHO§): move to secret manager\nclient = Client(§v§=§V§)\n',
    'const §v§ = "§X§"; // temp for §TKT§\nexport default { §v§ };\n',
    'package main\n\nconst §v§ = "§X§"\n',
    "$ export §V§=§X§\n$ ./bin/§SVC§ --check\nok: connected (§N§ms)\n",
    'curl -s https://api.example.com/v1/§SVC§ \\\n  -H "Authorization: Bearer §X§"\n',
    "$ http POST api.example.com/§SVC§ Authorization:'Bearer §X§'\nHTTP/1.1 200 OK\n",
    'await fetch("/api/§SVC§", { headers: { Authorization: `Bearer §X§` } });\n',
    "[§DAY§ 10:§N§] §WHO§: here's the §V§ for §ENV§: §X§\n[§DAY§] §WHO2§: thx, got it",
    "Session summary §DAY§: Today we wired up §SVC§ with §WHO§. Used §V§=§X§ for §ENV§. Next: rotate before launch.",
    "Bug §TKT§ (§SVC§ 500s). Log pasted by §WHO§:\nINFO boot ok\nDEBUG loaded §V§=§X§\nERROR upstream timeout after §N§ms",
    "diff --git a/.env b/.env\nindex §SHA§..a1b2c3d 100644\n--- a/.env\n+++ b/.env\n@@ -1,2 +1,3 @@\n PORT=§PORT§\n+§V§=§X§\n",
    "PR review (§WHO§): line 14 commits `§V§ = §X§` -- please drop it and use the secret store.",
    "Nota §DAY§: hoy rotamos la clave de §SVC§. La nueva §V§ es §X§ (guardar en el vault).",
    "Notiz (§WHO§): §V§ für §ENV§ ist §X§ -- bitte nicht committen.",
    "Rappel : le jeton §V§ de §SVC§ = §X§, il expire vendredi.",
    "Lembrete: a chave §V§ do §SVC§ é §X§ (ambiente §ENV§).",
    "メモ §DAY§: §SVC§ の §V§ は §X§ です（§ENV§用）。",
    "참고 §DAY§: §SVC§ §V§ 값은 §X§ 입니다.",
    "Lesson learned: §WHO§ pasted §V§ (§X§) into the ticket §TKT§; we rotated it after.",
    "User preference: §WHO§ wants the §SVC§ §v§ kept handy -> §X§",
]
_PW = [
    "§V§=§X§\n",
    "database:\n  host: §HOST§\n  user: app\n  password: '§X§'\n",
    '{"user": "admin", "password": "§X§", "host": "§HOST§"}',
    "$ mysql -h §HOST§ -u root -p'§X§'\nWelcome to the MySQL monitor.",
    "[§DAY§] §WHO§: admin login for the §SVC§ dashboard is §WHO2§ / §X§",
    "Session summary §DAY§: reset §WHO§'s §ENV§ password to §X§; they'll change it on next login.",
    "TODO: rotate the §SVC§ admin password (currently §X§) before the audit.",
    "ALTER USER app_§SVC§ WITH PASSWORD '§X§';",
    "Contraseña del panel de §SVC§: §X§ (usuario: admin)",
    "Passwort für den §ENV§-Router: §X§",
    "Mot de passe du compte §SVC§ : §X§",
    "Senha do banco §ENV§: §X§",
    "§SVC§ 管理画面のパスワード: §X§",
    "§SVC§ 관리자 비밀번호: §X§",
    "ansible_become_password: §X§\nansible_user: deploy\n",
    'db_password = "§X§"  # §WHO§ set this on §DAY§\n',
]
_URLT = [
    "§V§=§X§\n",
    'engine = create_engine("§X§")\n',
    "$ psql '§X§' -c 'select 1'\n ?column?\n----------\n        1\n",
    "env:\n  - name: §V§\n    value: §X§\n",
    "[§DAY§] §WHO§: use §X§ for the §ENV§ replica",
    "Bug §TKT§: connection refused\nusing §V§=§X§\ntraceback: OperationalError after §N§ms",
    'const url = "§X§";\nawait connect(url);\n',
    "Hoy configuramos §SVC§ con §X§",
    "Heute §SVC§ umgestellt auf §X§",
    "§SVC§ の接続先: §X§",
    "+§V§=§X§\n",
    '§v§ = "§X§"\n',
]
_PEMT = [
    "$ cat ~/.ssh/§v§\n§X§\n$ chmod 600 ~/.ssh/§v§",
    '§V§="§X§"\n',
    "Bug §TKT§: §WHO§ pasted the deploy key into the ticket:\n```\n§X§\n```",
    'resource "tls_cert" "§SVC§" {\n  private_key = <<EOF\n§X§\nEOF\n}\n',
    'KEY = """§X§"""\n',
    "[§DAY§] §WHO§: here's the §ENV§ key, don't share\n§X§",
    "Session summary §DAY§: generated a new signing key for §SVC§:\n§X§\nStored copy in 1Password later.",
    "Clave privada de §SVC§ (§ENV§):\n§X§",
    "§SVC§ の秘密鍵:\n§X§",
    "+§X§\n",
]
_TYPES = {"tok": _TOK, "pw": _PW, "url": _URLT, "pem": _PEMT}


# --- kinds
def _t(prefix: str, n: int, a: str = _AN, suffix: str = ""):
    return lambda r: prefix + _s(r, n, a) + suffix


def _human_pw(r: random.Random) -> str:
    w = r.choice(_WORDS).capitalize()
    return w + r.choice(_WHO) + str(r.randint(1, 9999)) + r.choice("!@#$%?")


def _gen_pw(r: random.Random) -> str:
    a = _AN + "!@#%^&*-_=+?."
    while True:
        p = _s(r, r.randint(16, 24), a)
        if p[0].isalnum() and p[-1].isalnum() and any(c in "!@#%^&*-_=+?." for c in p):
            return p


def _phrase(r: random.Random) -> str:
    return r.choice(["-", " ", "."]).join(r.sample(_WORDS, r.randint(4, 6)))


def _url_pw(scheme: str, user: str, tail: str):
    def f(r: random.Random):
        pw = _s(r, r.randint(16, 28), _AN)
        return f"{scheme}://{user}:{pw}@{tail}", pw

    return f


def _slack_hook(r):
    tok = _s(r, 24)
    return f"https://hooks.slack.com/services/T{_s(r, 9, _UP + _DG)}/B{_s(r, 10, _UP + _DG)}/{tok}", tok


def _discord_hook(r):
    tok = _s(r, 68, _URL)
    return f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18 - 1)}/{tok}", tok


def _presigned(r):
    sig = _s(r, 64, _HX)
    kid = "AK" + "IA" + _s(r, 16, _UP + "234567")
    u = (
        f"https://acme-exports.s3.eu-west-1.amazonaws.com/reports/q1-{r.randint(1, 999)}.csv"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={kid}%2F20260112%2Feu-west-1%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20260112T101500Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return u, sig


def _totp_url(r):
    sec = _s(r, 32, _B32)
    return f"otpauth://totp/Acme:{r.choice(_WHO).lower()}?secret={sec}&issuer=Acme", sec


def _jwt_sess(r):
    return _jwt(r, {"sub": str(r.randint(1000, 99999)), "sid": _s(r, 16), "exp": 1767225600 + r.randint(0, 10**6)})


def _supa_service(r):
    return _jwt(r, {"iss": "supabase", "ref": _s(r, 20, _LO), "role": "service_role", "iat": 1700000000})


def _discord_bot(r):
    head = _b64u(str(r.randint(10**17, 10**18 - 1)).encode())
    return f"{head}.{_s(r, 6, _URL)}.{_s(r, 38, _URL)}"


def _rec_code(r):
    return f"{_s(r, 5, _LO + _DG)}-{_s(r, 5, _LO + _DG)}"


_RSA_HEAD = bytes([0x30, 0x82, 0x04, 0xA4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00])


def _K(kind, typ, names, fn, pair=False):
    return (kind, typ, names, fn, pair)


_KINDS = [
    _K("aws_secret_access_key", "tok", ["AWS_SECRET_ACCESS_KEY", "aws_secret_access_key"], _t("", 40, _B64)),
    _K("github_pat", "tok", ["GITHUB_TOKEN", "GH_TOKEN"], _t("gh" + "p_", 36)),
    _K("github_fine_grained_pat", "tok", ["GITHUB_PAT"], lambda r: "github_" + "pat_" + _s(r, 22) + "_" + _s(r, 59)),
    _K("github_oauth_token", "tok", ["GH_OAUTH_TOKEN"], _t("gh" + "o_", 36)),
    _K("github_app_token", "tok", ["GH_APP_INSTALL_TOKEN"], _t("gh" + "s_", 36)),
    _K("gitlab_pat", "tok", ["GITLAB_TOKEN", "CI_PUSH_TOKEN"], _t("gl" + "pat-", 20, _URL)),
    _K("gitlab_runner_token", "tok", ["RUNNER_TOKEN"], _t("gl" + "rt-", 20, _URL)),
    _K(
        "slack_bot_token",
        "tok",
        ["SLACK_BOT_TOKEN"],
        lambda r: "xo" + "xb-" + _s(r, 12, _DG) + "-" + _s(r, 13, _DG) + "-" + _s(r, 24),
    ),
    _K(
        "slack_user_token",
        "tok",
        ["SLACK_USER_TOKEN"],
        lambda r: "xo" + "xp-" + "-".join(_s(r, 12, _DG) for _ in range(3)) + "-" + _s(r, 32, _HX),
    ),
    _K("slack_webhook", "url", ["SLACK_WEBHOOK_URL"], _slack_hook, True),
    _K("discord_webhook", "url", ["DISCORD_WEBHOOK"], _discord_hook, True),
    _K("discord_bot_token", "tok", ["DISCORD_BOT_TOKEN"], _discord_bot),
    _K(
        "telegram_bot_token",
        "tok",
        ["TELEGRAM_BOT_TOKEN"],
        lambda r: f"{r.randint(10**8, 10**10)}:AA{_s(r, 33, _URL)}",
    ),
    _K("stripe_secret_key", "tok", ["STRIPE_SECRET_KEY"], _t("sk" + "_live_", 99)),
    _K("stripe_restricted_key", "tok", ["STRIPE_RESTRICTED_KEY"], _t("rk" + "_live_", 99)),
    _K("stripe_webhook_secret", "tok", ["STRIPE_WEBHOOK_SECRET"], _t("wh" + "sec_", 32)),
    _K("openai_api_key", "tok", ["OPENAI_API_KEY"], _t("s" + "k-proj-", 120, _URL)),
    _K("anthropic_api_key", "tok", ["ANTHROPIC_API_KEY"], _t("s" + "k-ant-api03-", 93, _URL, "AA")),
    _K("huggingface_token", "tok", ["HF_TOKEN"], _t("h" + "f_", 34, _LO + _UP)),
    _K(
        "sendgrid_api_key",
        "tok",
        ["SENDGRID_API_KEY"],
        lambda r: "S" + "G." + _s(r, 22, _URL) + "." + _s(r, 43, _URL),
    ),
    _K("mailgun_api_key", "tok", ["MAILGUN_API_KEY"], _t("key-", 32, _HX)),
    _K("twilio_auth_token", "tok", ["TWILIO_AUTH_TOKEN"], _t("", 32, _HX)),
    _K("npmjs_token", "tok", ["NPM_TOKEN"], _t("n" + "pm_", 36)),
    _K("pypi_token", "tok", ["PYPI_API_TOKEN"], _t("pypi-AgEIcHlwaS5vcmc", 70, _URL)),
    _K("dockerhub_pat", "tok", ["DOCKERHUB_TOKEN"], _t("dckr" + "_pat_", 27, _URL)),
    _K("google_api_key", "tok", ["GEMINI_API_KEY", "GOOGLE_MAPS_SERVER_KEY"], _t("AI" + "za", 35, _URL)),
    _K("google_oauth_client_secret", "tok", ["GOOGLE_CLIENT_SECRET"], _t("GOC" + "SPX-", 28, _URL)),
    _K("azure_storage_key", "tok", ["AZURE_STORAGE_KEY"], lambda r: base64.b64encode(r.randbytes(64)).decode()),
    _K("datadog_api_key", "tok", ["DD_API_KEY"], _t("", 32, _HX)),
    _K("sentry_auth_token", "tok", ["SENTRY_AUTH_TOKEN"], _t("sntr" + "yu_", 64, _HX)),
    _K("new_relic_user_key", "tok", ["NEW_RELIC_API_KEY"], _t("NR" + "AK-", 27, _UP + _DG)),
    _K("postgres_password", "url", ["DATABASE_URL"], _url_pw("postgres", "app", "pg-prod.acme.io:5432/app"), True),
    _K("mysql_password", "url", ["MYSQL_URL"], _url_pw("mysql", "root", "mysql.staging.local:3306/shop"), True),
    _K("mongodb_password", "url", ["MONGO_URI"], _url_pw("mongodb+srv", "svc", "cluster0.ab12c.mongodb.net/app"), True),
    _K("redis_password", "url", ["REDIS_URL"], _url_pw("rediss", "default", "eu1-cache.upstash.io:6379"), True),
    _K("amqp_password", "url", ["AMQP_URL"], _url_pw("amqps", "worker", "mq.internal:5671/jobs"), True),
    _K("basic_auth_url_password", "url", ["REGISTRY_URL"], _url_pw("https", "deploy", "registry.acme.io/v2/"), True),
    _K("jwt_session_token", "tok", ["SESSION_JWT", "access_token"], _jwt_sess),
    _K("oauth_refresh_token", "tok", ["GOOGLE_REFRESH_TOKEN", "refresh_token"], _t("1//0", 60, _URL)),
    _K("session_cookie", "tok", ["SESSION_COOKIE"], _t("s%3A", 48, _URL)),
    _K("totp_seed", "tok", ["TOTP_SECRET", "MFA_SEED"], _t("", 32, _B32)),
    _K("totp_uri_secret", "url", ["OTPAUTH_URI"], _totp_url, True),
    _K("recovery_code", "tok", ["RECOVERY_CODE"], _rec_code),
    _K("human_password", "pw", ["ADMIN_PASSWORD"], _human_pw),
    _K("generated_password", "pw", ["DB_PASSWORD"], _gen_pw),
    _K("passphrase", "pw", ["VAULT_PASSPHRASE"], _phrase),
    _K("rsa_private_key", "pem", ["id_rsa"], lambda r: _pem(r, "RSA PRIVATE KEY", _RSA_HEAD, 1180)),
    _K(
        "openssh_private_key",
        "pem",
        ["id_ed25519"],
        lambda r: _pem(r, "OPENSSH PRIVATE KEY", b"openssh-key-v1\x00", 380, 70),
    ),
    _K("ec_private_key", "pem", ["ec_key"], lambda r: _pem(r, "EC PRIVATE KEY", b"\x30\x77\x02\x01\x01\x04\x20", 112)),
    _K("pkcs8_private_key", "pem", ["signing_key"], lambda r: _pem(r, "PRIVATE KEY", b"\x30\x82\x04\xbe", 1200)),
    _K("django_secret_key", "tok", ["DJANGO_SECRET_KEY"], _t("", 50, _LO + _DG + "!@#%^&*(-_=+)")),
    _K("generic_api_key", "tok", ["API_KEY", "PARTNER_API_KEY"], _t("", 40, _AN)),
    _K("shopify_access_token", "tok", ["SHOPIFY_ADMIN_TOKEN"], _t("shp" + "at_", 32, _HX)),
    _K(
        "atlassian_api_token",
        "tok",
        ["JIRA_API_TOKEN"],
        lambda r: "ATA" + "TT3xFfGF0" + _s(r, 170, _URL) + "=" + _s(r, 8, _HX.upper()),
    ),
    _K("linear_api_key", "tok", ["LINEAR_API_KEY"], _t("lin" + "_api_", 40)),
    _K("notion_token", "tok", ["NOTION_TOKEN"], _t("secret" + "_", 43)),
    _K("doppler_token", "tok", ["DOPPLER_TOKEN"], _t("dp" + ".pt.", 43)),
    _K("digitalocean_token", "tok", ["DIGITALOCEAN_TOKEN"], _t("dop" + "_v1_", 64, _HX)),
    _K("cloudflare_api_token", "tok", ["CLOUDFLARE_API_TOKEN"], _t("", 40, _URL)),
    _K("supabase_service_role_key", "tok", ["SUPABASE_SERVICE_ROLE_KEY"], _supa_service),
    _K("planetscale_password", "tok", ["PLANETSCALE_PASSWORD"], _t("pscale" + "_pw_", 43, _URL)),
    _K(
        "terraform_cloud_token",
        "tok",
        ["TFE_TOKEN"],
        lambda r: _s(r, 14) + ".atlas" + "v1." + _s(r, 67),
    ),
    _K("vault_token", "tok", ["VAULT_TOKEN"], _t("hv" + "s.", 90, _URL)),
    _K("grafana_sa_token", "tok", ["GRAFANA_TOKEN"], lambda r: "gl" + "sa_" + _s(r, 32) + "_" + _s(r, 8, _HX)),
    _K("aws_presigned_signature", "url", ["EXPORT_URL"], _presigned, True),
    _K(
        "age_secret_key",
        "tok",
        ["SOPS_AGE_KEY"],
        _t("AGE-SECRET" + "-KEY-1", 58, "QPZRY9X8GF2TVDW0" + "S3JN54KHCE6MUA7L"),
    ),
    _K("databricks_token", "tok", ["DATABRICKS_TOKEN"], _t("da" + "pi", 32, _HX)),
    _K("figma_pat", "tok", ["FIGMA_TOKEN"], _t("fi" + "gd_", 40, _URL)),
    _K("github_webhook_secret", "tok", ["GITHUB_WEBHOOK_SECRET"], _t("", 40, _HX)),
]


def _positives(r: random.Random, seen: set[str]) -> list[tuple[str, str, str]]:
    out = []
    for kind, typ, names, fn, pair in _KINDS:
        tpls = _TYPES[typ]
        k = 0
        order = list(range(len(tpls)))
        r.shuffle(order)
        while k < PER_KIND:
            res = fn(r)
            val, sec = res if pair else (res, res)
            name = r.choice(names)
            tpl = tpls[order[k % len(order)]]
            text = _fill(r, tpl, {"V": name, "v": name.lower(), "X": val})
            if text in seen or sec.strip() != sec or sec not in text:
                continue
            seen.add(text)
            out.append((text, kind, sec))
            k += 1
    return out


# --- lookalikes
def _bcrypt(r):
    return "$2b$12$" + _s(r, 53, _AN + "./")


def _argon(r):
    return f"$argon2id$v=19$m=65536,t=3,p=4${_b64u(r.randbytes(16))}${_b64u(r.randbytes(32))}"


def _sshpub(r):
    return "ssh-ed25519 " + base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32)).decode()


def _cert(r):
    return _pem(r, "CERTIFICATE", b"\x30\x82\x03\x1a", 560)


def _pubpem(r):
    return _pem(r, "PUBLIC KEY", b"\x30\x82\x01\x22", 280)


def _pgp(r):
    return _pem(r, "PGP MESSAGE", b"\x85\x02\x0c", 300)


def _sops(r):
    return f"ENC[AES256_GCM,data:{base64.b64encode(r.randbytes(24)).decode()},iv:{base64.b64encode(r.randbytes(32)).decode()},tag:{base64.b64encode(r.randbytes(16)).decode()},type:str]"


def _vault(r):
    body = r.randbytes(160).hex()
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(body[i : i + 80] for i in range(0, len(body), 80))


def _jwtio(r):
    p = {"sub": "1234567890", "name": "John Doe", "iat": 1516239022}
    return _jwt(r, p, "SflKxwRJSMeKKF2QT4fw" + "pMeJf36POk6yJV_adQssw5c")


def _aws_ex_id(r):
    return "AK" + "IA" + "IOSFODNN7EXAMPLE"


def _aws_ex_sec(r):
    return "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"


def _uuid(r):
    h = r.randbytes(16).hex()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _supa_anon(r):
    return _jwt(r, {"iss": "supabase", "ref": _s(r, 20, _LO), "role": "anon", "iat": 1700000000})


def _mapbox(r):
    return (
        "pk." + _b64u(json.dumps({"u": r.choice(_WHO).lower(), "a": _s(r, 12, _LO)}).encode()) + "." + _s(r, 22, _URL)
    )


_LF = {
    "H40": lambda r: r.randbytes(20).hex(),
    "H64": lambda r: r.randbytes(32).hex(),
    "H32": lambda r: r.randbytes(16).hex(),
    "UUID": _uuid,
    "BCRYPT": _bcrypt,
    "ARGON": _argon,
    "SSHPUB": _sshpub,
    "CERT": _cert,
    "PUBPEM": _pubpem,
    "PGP": _pgp,
    "SOPS": _sops,
    "AVAULT": _vault,
    "JWTIO": _jwtio,
    "AWSEXID": _aws_ex_id,
    "AWSEXSEC": _aws_ex_sec,
    "B64PUB": lambda r: base64.b64encode(
        f'{{"theme":"dark","locale":"{r.choice(["en", "es", "de", "ja"])}","v":{r.randint(1, 99)}}}'.encode()
    ).decode(),
    "PKLIVE": lambda r: "pk" + "_live_" + _s(r, 99),
    "SUPAANON": _supa_anon,
    "MAPBOX": _mapbox,
    "RECAP": lambda r: "6L" + _s(r, 38, _URL),
    "VAPID": lambda r: _b64u(b"\x04" + r.randbytes(64)),
    "DSN": lambda r: (
        f"https://{r.randbytes(16).hex()}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/{r.randint(10**6, 10**7)}"
    ),
    "GCLIENT": lambda r: f"{r.randint(10**11, 10**12)}-{_s(r, 32, _LO + _DG)}.apps.googleusercontent.com",
    "LDCLIENT": lambda r: r.randbytes(12).hex(),
    "FIREKEY": lambda r: "AI" + "za" + _s(r, 35, _URL),
    "ALGOLIA": lambda r: r.randbytes(16).hex(),
    "FPR": lambda r: "SHA256:" + base64.b64encode(r.randbytes(32)).decode().rstrip("="),
    "SRI": lambda r: "sha384-" + base64.b64encode(r.randbytes(48)).decode(),
    "MASKSK": lambda r: "s" + "k_live_" + "*" * 20 + _s(r, 4),
    "VER": lambda r: f"{r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 30)}",
    "DIGEST": lambda r: "sha256:" + hashlib.sha256(r.randbytes(8)).hexdigest(),
}

_LT = [
    "API_KEY=your_api_key_here  # §WHO§ (§DAY§): fill locally, never commit",
    "STRIPE_SECRET_KEY=<paste-from-dashboard>\nPORT=§PORT§\n# added §DAY§",
    'openai_key: "<your-openai-key>"  # placeholder in docs, ticket §TKT§',
    "DATABASE_URL=postgres://USER:PASSWORD@localhost:5432/app_§N§",
    "password: changeme  # default in the §SVC§ helm chart v§VER§, overridden in prod",
    "GITHUB_TOKEN=${GITHUB_TOKEN}\nSVC=§SVC§-§N§",
    "env:\n  SLACK_BOT_TOKEN: ${{ secrets.SLACK_BOT_TOKEN }}\n  RUN_ID: §N§",
    'token: {{ vault "secret/data/§SVC§" "token" }}  # §DAY§',
    "DB_PASSWORD=op://Engineering/§SVC§-db-§N§/password",
    "arn:aws:secretsmanager:eu-west-1:§N§:secret:§SVC§/prod/api-key-AbCdEf",
    "projects/acme-§N§/secrets/§SVC§-token/versions/latest",
    "valueFrom:\n  secretKeyRef:\n    name: §SVC§-creds\n    key: api-token  # §DAY§",
    "The Stripe key on the dashboard shows as §MASKSK§ -- §WHO§ confirmed it's the live one.",
    "SENDGRID_API_KEY=****************************§N§ (masked in logs)",
    "Token: ************************ (redacted by CI, run §N§)",
    "Required env vars (§DAY§): OPENAI_API_KEY, STRIPE_SECRET_KEY, DATABASE_URL, §SVC§_TOKEN",
    "commit §H40§\nAuthor: §WHO§ <dev@acme.io>\n\n    fix(§SVC§): retry on 502",
    "Deployed §SVC§ at §H40§ to §ENV§ (§DAY§).",
    "$ sha256sum release-§VER§.tar.gz\n§H64§  release-§VER§.tar.gz",
    "md5 of the export: §H32§ (matches upstream)",
    "users.password_hash for §WHO§: §BCRYPT§",
    "We store passwords as argon2id, e.g. §ARGON§ -- never plaintext.",
    'request_id=§UUID§ status=401 msg="invalid api key"',
    "trace §UUID§ took §N§ms in §SVC§",
    "Added §WHO§'s deploy key to the server: §SSHPUB§ §WHO§@laptop",
    "§SSHPUB§ ci@acme",
    "TLS cert for §SVC§.acme.io (public):\n§CERT§",
    "JWT verification public key:\n§PUBPEM§",
    "Host key fingerprint for §HOST§: §FPR§",
    "AWS docs example: aws_access_key_id = §AWSEXID§, aws_secret_access_key = §AWSEXSEC§ (from the §SVC§ tutorial, §DAY§)",
    "The docs use §AWSEXSEC§ as a sample secret; our tests do too (§TKT§).",
    "Example token from jwt.io: §JWTIO§ -- used in the §SVC§ unit test fixtures (§TKT§).",
    "secrets.enc.yaml:\napi_token: §SOPS§\nsops:\n  version: 3.8.1",
    "group_vars/§ENV§/vault.yml:\n§AVAULT§",
    "Encrypted note from §WHO§:\n§PGP§",
    "localStorage prefs blob: §B64PUB§",
    "STRIPE_PUBLISHABLE_KEY=§PKLIVE§  # public, fine in frontend",
    "NEXT_PUBLIC_SUPABASE_ANON_KEY=§SUPAANON§",
    "mapboxgl.accessToken = '§MAPBOX§'; // public token, URL-restricted",
    '<div class="g-recaptcha" data-sitekey="§RECAP§"></div>',
    "VAPID public key (for push subscribe): §VAPID§",
    "SENTRY_DSN=§DSN§",
    "GOOGLE_CLIENT_ID=§GCLIENT§",
    "LaunchDarkly client-side id: §LDCLIENT§ (safe in the bundle)",
    'const firebaseConfig = {\n  apiKey: "§FIREKEY§",\n  authDomain: "acme-§N§.firebaseapp.com",\n  projectId: "acme-§N§"\n};',
    "ALGOLIA_SEARCH_ONLY_KEY=§ALGOLIA§  # search-only, public",
    '<script src="https://cdn.acme.io/app.§SHA§.js" integrity="§SRI§" crossorigin="anonymous"></script>',
    "image: ghcr.io/acme/§SVC§@§DIGEST§",
    "Upgraded §SVC§ to v§VER§ on §DAY§; lockfile updated.",
    "Lesson learned (§DAY§): never paste tokens into Slack; rotate immediately if it happens. -- §WHO§",
    "Preference (§DAY§): §WHO§ wants secrets referenced via the secret manager, not .env files.",
    "TODO(§WHO§): rotate the §SVC§ API key after the §ENV§ migration (§TKT§).",
    'HTTP/1.1 401 Unauthorized\n{"error":"invalid_token","request_id":"§RID§"}',
    "ERROR §SVC§: AuthenticationError: Incorrect API key provided. Check OPENAI_API_KEY. (§RID§)",
    "403 Forbidden: token lacks scope repo:write (§SVC§ deploy §N§)",
    'api_key = os.environ["§SVC§_API_KEY"]  # §TKT§\nclient = Client(api_key=api_key)',
    "const token = process.env.§SVC§_TOKEN ?? ''; // set in Vercel (§TKT§)",
    'token := os.Getenv("§SVC§_TOKEN") // §TKT§\nif token == "" { log.Fatal("missing token") }',
    "with open('/run/secrets/§SVC§_key') as f:  # §TKT§\n    key = f.read().strip()",
    "SELECT id, email FROM users WHERE api_key_hash = '§H64§';",
    "!function(e){var t={};function n(r){if(t[r])return t[r].exports}}([]);//# §SHA§",
    "$ git log --oneline -3\n§SHA§ fix token refresh\n§SHA§ bump deps\n§SHA§ docs",
    "Hoy revisamos cómo guardamos las claves de §SVC§: todo pasa por el gestor de secretos. (§WHO§)",
    "Heute gelernt: API-Schlüssel gehören nie ins Repo. §WHO§ hat §TKT§ angelegt.",
    "Aujourd'hui : on a migré les secrets de §SVC§ vers Vault le §DAY§. Aucun jeton dans le code.",
    "Hoje: configuramos a rotação automática das chaves do §SVC§ (§DAY§).",
    "今日は §SVC§ のトークンをシークレットマネージャーに移行しました（§DAY§）。",
    "오늘 §SVC§ 토큰을 시크릿 매니저로 옮겼습니다 (§DAY§).",
    "[§DAY§] §WHO§: did anyone rotate the §SVC§ key?\n[§DAY§] §WHO2§: yep, new one is in 1Password",
    "PR comment (§WHO§, §TKT§): please read the webhook secret from env instead of hardcoding. Suggested: `os.environ['WEBHOOK_SECRET']`",
    "-STRIPE_KEY=hardcoded\n+STRIPE_KEY=${STRIPE_KEY}\n# §SHA§",
    'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com/§SVC§/§N§',
    'http GET api.example.com/§SVC§ Authorization:"Bearer ${TOKEN}"  # §N§',
    "X-Request-Id: §UUID§\nX-RateLimit-Remaining: §N§",
    'ETag: "§H32§"\nCache-Control: max-age=§N§',
    "Set-Cookie: theme=dark; Path=/; Max-Age=§N§",
    "Cookie: _ga=GA1.2.§N§.1706000000; locale=en",
    "webhook delivery §UUID§ signature header present: X-Hub-Signature-256: sha256=§H64§",
    "otpauth example from RFC docs uses secret JBSWY3DPEHPK3PXP (§SVC§ test, §N§)",
    "Recovery codes were regenerated for §WHO§ and stored offline; none recorded here. (§DAY§)",
    "password policy: min 12 chars, 1 symbol; §N§ users must reset by §DAY§",
    "Docker build: sha256:§H64§ (layer §N§)",
    "terraform state lock id §UUID§ held by §WHO§",
    'resource "aws_secretsmanager_secret" "§SVC§_§N§" {\n  name = "§SVC§/§ENV§/api-key"\n}',
    "kubectl create secret generic §SVC§-creds --from-env-file=.env.§ENV§  # §SHA§ values not in history",
    "$ gh secret set §SVC§_TOKEN < token-§N§.txt\n✓ Set secret §SVC§_TOKEN for acme/§SVC§",
    "npm notice package: @acme/§SVC§@§VER§\nnpm notice shasum: §H40§",
    "pip install acme-§SVC§==§VER§ --hash=sha256:§H64§",
    "Go sum: github.com/acme/§SVC§ v§VER§ h1:§FPR§=",
    "UUID §UUID§ is the tenant id for §WHO§'s workspace, not a key.",
    "OAuth app registered: client_id=§GCLIENT§, secret kept in vault (§TKT§).",
    "Bug §TKT§: login fails with 'invalid_grant' for §WHO§; refresh token expired, user must re-auth.",
    "The vendor docs show `Authorization: Bearer YOUR_TOKEN`; replace YOUR_TOKEN at runtime (§SVC§, §TKT§).",
    'api_token = "<REDACTED>"  # scrubbed by §WHO§ on §DAY§',
    "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ  # template, §N§",
    "postgres://app:${DB_PASSWORD}@§HOST§:5432/app  # §SHA§",
    "mysql://root:****@§HOST§/shop (masked, §N§)",
    "Build §N§: ccache hit ratio 93%, artifact digest §DIGEST§",
    "Session summary §DAY§: Today we paired on §SVC§ pagination; no creds touched. Next: load tests. -- §WHO§",
    "i18n key: auth.errors.invalid_api_key -> 'La clave API no es válida' (§N§)",
    "Grafana alert §UUID§: 5xx rate above 2% on §SVC§",
    "public key (base64url) for webhook verification: §VAPID§",
    "Lesson: bcrypt cost 12 takes ~250ms; sample hash §BCRYPT§",
    "ssh-keygen -lf id_ed25519.pub\n256 §FPR§ §WHO§@acme (ED25519)",
]


def _mk_look(tpl: str):
    def gen(r: random.Random) -> str:
        extra = {k: f(r) for k, f in _LF.items() if f"§{k}§" in tpl}
        return _fill(r, tpl, extra)

    return gen


_LOOK = [_mk_look(t) for t in _LT]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed * 7919 + 101)
    seen: set[str] = set()
    pos = _positives(r, seen)
    looks: list[str] = []
    for g in _LOOK:
        k = 0
        while k < LOOK_PER_GEN:
            t = g(r)
            if t in seen:
                continue
            seen.add(t)
            looks.append(t)
            k += 1
    return pos, looks
