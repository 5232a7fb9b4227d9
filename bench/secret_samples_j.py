"""Secret-scanner samples, set J: notes an AI coding agent writes into its memory.

``generate(seed)`` returns ``(positives, lookalikes)``:

* positives: ``(text, kind, secret)`` triples; ``secret`` is the sensitive value
  itself and an exact substring of ``text``.
* lookalikes: texts that look credential-adjacent but contain no credential.

Every vendor prefix, key body and PEM armour line is assembled at run time from
pieces and random characters, so this file itself holds no token-shaped literal.
Only ``random.Random(seed)`` is used; the same seed gives the same output.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = LOWER + UPPER + DIGITS
LETTERS = LOWER + UPPER
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
DASH5 = "-" * 5
PER_KIND = 30
N_LOOKALIKES = 800

# --------------------------------------------------------------------------
# small random helpers
# --------------------------------------------------------------------------


def _s(r, n, alpha=ALNUM):
    return "".join(r.choice(alpha) for _ in range(n))


def _tok(r, n, alpha=ALNUM):
    """Random string that mixes letters and digits (looks like a real key)."""
    need_digit = any(c.isdigit() for c in alpha)
    while True:
        v = _s(r, n, alpha)
        if any(c.isalpha() for c in v) and (not need_digit or n < 6 or any(c.isdigit() for c in v)):
            return v


def _digits(r, n):
    return str(r.randint(1, 9)) + _s(r, n - 1, DIGITS)


def _hex(r, n):
    return _s(r, n, HEX)


def _bytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def _b64(r, nbytes):
    return base64.b64encode(_bytes(r, nbytes)).decode()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _uuid(r):
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def _pick(r, seq):
    return r.choice(seq)


PROJECTS = [
    "billing-api",
    "atlas-web",
    "ledger",
    "pantry",
    "orca-worker",
    "harbor",
    "quill",
    "nimbus-cli",
    "kestrel",
    "fieldnotes",
    "tidepool",
    "lumen-app",
    "switchyard",
    "copperline",
    "parcel-svc",
    "mosaic",
    "wayfinder",
    "inkwell",
]
ORGS = ["acme-labs", "tidewater", "northwind-dev", "brightloop", "kitehq", "oakridge-io", "plumline"]
USERS = [
    "dana",
    "mkoh",
    "priya",
    "tobias",
    "lea",
    "sam",
    "yuki",
    "rafael",
    "ines",
    "olu",
    "chen",
    "marta",
    "jonas",
    "aisha",
]
ENVS = ["staging", "prod", "dev", "preview", "qa", "sandbox"]
REGIONS = ["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2", "ca-central-1"]
TLDS = ["io", "dev", "net", "app", "co", "cloud"]
WORDS = [
    "harbor",
    "tulip",
    "copper",
    "falcon",
    "maple",
    "orbit",
    "velvet",
    "cinder",
    "lantern",
    "meadow",
    "quartz",
    "saffron",
    "thistle",
    "walrus",
    "zephyr",
    "bramble",
    "cobalt",
    "juniper",
    "marble",
    "pepper",
    "raven",
    "sparrow",
    "timber",
    "willow",
    "ember",
    "glacier",
    "hazel",
    "indigo",
    "kettle",
    "lobster",
    "nectar",
    "otter",
    "pickle",
    "rocket",
    "sable",
    "tundra",
    "umber",
    "violet",
    "wombat",
    "yonder",
    "anchor",
    "biscuit",
    "canyon",
    "dolphin",
    "fjord",
    "garnet",
    "hollow",
    "iris",
    "jasper",
    "kiwi",
]
FILES = [
    "src/config.py",
    "app/settings.py",
    "lib/client.ts",
    "cmd/server/main.go",
    "config/app.yaml",
    "scripts/deploy.sh",
    "src/index.js",
    "internal/store/db.go",
]


def _proj(r):
    return r.choice(PROJECTS)


def _org(r):
    return r.choice(ORGS)


def _user(r):
    return r.choice(USERS)


def _env(r):
    return r.choice(ENVS)


def _region(r):
    return r.choice(REGIONS)


def _domain(r):
    return r.choice(PROJECTS).replace("-", "") + "." + r.choice(TLDS)


def _date(r):
    return f"20{r.randint(23, 25):02d}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _time(r):
    return f"{r.randint(7, 22):02d}:{r.randint(0, 59):02d}"


def _ts(r):
    return f"{_date(r)}T{_time(r)}:{r.randint(0, 59):02d}Z"


def _lower(name):
    return name.lower()


def _camel(name):
    parts = name.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def _kebab(name):
    return name.lower().replace("_", "-")


def _envq(v):
    return '"' + v + '"' if (" " in v or "#" in v) else v


def _dbhost(r):
    kind = r.randrange(4)
    p = _proj(r)
    if kind == 0:
        return f"{p}-{_env(r)}.c{_s(r, 10, LOWER + DIGITS)}.{_region(r)}.rds.amazonaws.com"
    if kind == 1:
        return "pg-{}.internal".format(r.choice(["main", "primary", "replica-1", "analytics"]))
    if kind == 2:
        return f"db.{_env(r)}.{_domain(r)}"
    return f"10.{r.randint(0, 40)}.{r.randint(0, 255)}.{r.randint(2, 250)}"


# --------------------------------------------------------------------------
# credential value makers: each returns (carrier, secret)
# --------------------------------------------------------------------------

SYMS = "!#%&*+-.=?@^_~"
URLSAFE_SYMS = "-._~!*"


def _password(r, urlsafe=False):
    sy = URLSAFE_SYMS if urlsafe else SYMS
    style = r.randrange(6)
    if style == 0:
        v = r.choice(WORDS).title() + r.choice(WORDS).title() + _digits(r, r.randint(2, 4)) + r.choice(sy)
    elif style == 1:
        v = r.choice(WORDS) + r.choice("-._") + r.choice(WORDS).title() + r.choice("-._") + _digits(r, 2) + r.choice(sy)
    elif style == 2:
        v = _tok(r, r.randint(4, 6)) + r.choice(sy) + _tok(r, r.randint(5, 8)) + r.choice(sy) + _tok(r, r.randint(3, 6))
    elif style == 3:
        leet = {"a": "4", "e": "3", "o": "0", "i": "1", "s": "5"}
        w = "".join(leet.get(c, c) for c in r.choice(WORDS)).title()
        v = w + r.choice(sy) + r.choice(WORDS).title() + _digits(r, 2) + r.choice(sy)
    elif style == 4:
        v = _tok(r, r.randint(18, 26))
    else:
        v = r.choice(WORDS).title() + _digits(r, 4) + r.choice(WORDS) + r.choice(sy) + r.choice(sy)
    return v


def _passphrase(r):
    n = r.randint(4, 6)
    sep = r.choice([" ", "-", " ", ".", "_"])
    words = r.sample(WORDS, n)
    if r.random() < 0.4:
        words[r.randrange(n)] += str(r.randint(1, 99))
    return sep.join(words)


def _jwt(r, payload, alg="RS256", kid=True):
    header = {"alg": alg, "typ": "JWT"}
    if kid:
        header["kid"] = _tok(r, 27, B64URL)
    h = _b64u(json.dumps(header, separators=(",", ":")).encode())
    p = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = _tok(r, 43 if alg.startswith("HS") else 342, B64URL)
    return h + "." + p + "." + sig


def _now(r):
    return r.randint(1700000000, 1760000000)


def _pem_label(r):
    return r.choice(["RSA", "EC", "OPENSSH", ""])


def _pem(r, algo=None, escaped=False):
    algo = algo if algo is not None else _pem_label(r)
    label = ("PRI" + "VATE KEY") if algo == "" else (algo + " PRI" + "VATE KEY")
    if algo == "RSA":
        raw = bytes.fromhex("308204a40201000282010100") + _bytes(r, r.choice([1180, 1182, 1186]))
    elif algo == "EC":
        raw = bytes.fromhex("30770201010420") + _bytes(r, 114)
    elif algo == "OPENSSH":
        raw = b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none" + _bytes(r, r.choice([370, 380]))
    else:
        raw = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7") + _bytes(r, 1188)
    body = base64.b64encode(raw).decode()
    width = 70 if algo == "OPENSSH" else 64
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    begin = DASH5 + "BEGIN " + label + DASH5
    end = DASH5 + "END " + label + DASH5
    sep = "\\n" if escaped else "\n"
    return sep.join([begin, *lines, end])


def _mk(fn):
    def inner(r):
        v = fn(r)
        return v, v

    return inner


def _gh_classic(r):
    return "gh" + "p_" + _tok(r, 36)


def _gh_fine(r):
    return "github" + "_pat_" + "11" + _tok(r, 20, UPPER + DIGITS) + "_" + _tok(r, 59)


def _gh_app(r):
    return "gh" + r.choice(["s", "o", "u", "s", "r"]) + "_" + _tok(r, 36)


def _gitlab(r):
    return "gl" + "pat-" + _tok(r, 20, ALNUM + "-_")


def _akid(r):
    return r.choice(["AK", "AK", "AS"]) + "IA" + _tok(r, 16, UPPER + "234567")


def _aws_secret(r):
    return _tok(r, 40, ALNUM + "+/")


def _aws_session(r):
    return "IQoJb3Jp" + "Z2luX2Vj" + _tok(r, r.choice([276, 300, 352, 392]), B64) + r.choice(["", "=", "=="])


def _ya29(r):
    return "ya" + "29." + "a0" + _tok(r, r.randint(150, 210), B64URL)


def _aiza(r):
    return "AI" + "za" + "Sy" + _tok(r, 33, B64URL)


def _azure_key(r):
    return _b64(r, 64)


def _slack_tok(r):
    kind = r.choice(["b", "b", "p", "a"])
    if kind == "b":
        return "xo" + "xb-" + _digits(r, 12) + "-" + _digits(r, 13) + "-" + _tok(r, 24)
    if kind == "p":
        return "xo" + "xp-" + _digits(r, 12) + "-" + _digits(r, 12) + "-" + _digits(r, 13) + "-" + _hex(r, 32)
    return "xa" + "pp-1-A" + _tok(r, 10, UPPER + DIGITS) + "-" + _digits(r, 13) + "-" + _hex(r, 64)


def _slack_hook(r):
    return (
        "https://hooks."
        + "slack.com/services/T"
        + _tok(r, 8, UPPER + DIGITS)
        + "/B"
        + _tok(r, 10, UPPER + DIGITS)
        + "/"
        + _tok(r, 24)
    )


def _stripe_sk(r):
    pre = r.choice(["sk", "sk", "rk"]) + "_" + "live" + "_"
    return pre + (_tok(r, 24) if r.random() < 0.3 else "51" + _tok(r, 97))


def _whsec(r):
    return "wh" + "sec_" + _tok(r, 32)


def _openai(r):
    if r.random() < 0.7:
        return "sk-" + "proj-" + _tok(r, 156, B64URL)
    return "sk-" + _tok(r, 20) + "T3Bl" + "bkFJ" + _tok(r, 20)


def _anthropic(r):
    return "sk-" + "ant-" + "api03-" + _tok(r, 93, B64URL) + "AA"


def _hf(r):
    return "h" + "f_" + _tok(r, 34, LETTERS)


def _npm(r):
    return "np" + "m_" + _tok(r, 36)


def _pypi(r):
    return "py" + "pi-" + "AgEIcHlw" + "aS5vcmc" + _tok(r, r.choice([140, 160, 170]), B64URL)


def _fly(r):
    if r.random() < 0.7:
        return "Fly" + "V1 " + "fm2_" + _tok(r, r.choice([180, 220, 260]), B64) + "," + "fm2_" + _tok(r, 80, B64)
    return "fo" + "1_" + _tok(r, 43, B64URL)


def _twilio(r):
    return _hex(r, 32)


def _sendgrid(r):
    return "S" + "G." + _tok(r, 22, B64URL) + "." + _tok(r, 43, B64URL)


def _generic_key(r):
    return _tok(r, r.choice([32, 32, 40, 48]))


def _hex_secret(r):
    return _hex(r, r.choice([32, 40, 64, 64]))


def _client_secret(r):
    k = r.randrange(4)
    if k == 0:
        return "GOC" + "SPX-" + _tok(r, 28, B64URL)
    if k == 1:
        return _tok(r, 3) + r.choice(DIGITS) + "Q~" + _tok(r, 34, ALNUM + "~._-")
    if k == 2:
        return _hex(r, 40)
    return _tok(r, 64, B64URL)


def _refresh(r):
    k = r.randrange(3)
    if k == 0:
        return "1//0" + _tok(r, 2) + _tok(r, 98, B64URL)
    if k == 1:
        return _tok(r, 64, B64URL)
    return "v1." + _tok(r, 120, B64URL)


def _reset_tok(r):
    return _tok(r, r.choice([32, 43, 48, 64]), r.choice([B64URL, HEX, ALNUM]))


def _vault(r):
    if r.random() < 0.75:
        return "hv" + "s." + _tok(r, 24)
    return "hv" + "s." + "CAESI" + _tok(r, 86, B64URL)


def _tfc(r):
    return _tok(r, 14) + "." + "atlas" + "v1" + "." + _tok(r, 67)


def _do(r):
    return "do" + "p_v1_" + _hex(r, 64)


def _telegram(r):
    return _digits(r, r.choice([9, 10])) + ":" + "AA" + _tok(r, 33, B64URL)


def _discord(r):
    uid = _digits(r, 18)
    return _b64u(uid.encode()) + "." + _tok(r, 6, B64URL) + "." + _tok(r, 38, B64URL)


def _shopify(r):
    return "sh" + r.choice(["pat", "pat", "pca", "pss"]) + "_" + _hex(r, 32)


def _kube_token(r):
    k = r.randrange(3)
    if k == 0:
        now = _now(r)
        ns = r.choice(["default", "ci", "monitoring", "kube-system", "argocd"])
        sa = r.choice(["deployer", "ci-bot", "dashboard-admin", "gitlab-runner", "prometheus"])
        payload = {
            "aud": ["https://kubernetes.default.svc.cluster.local"],
            "exp": now + 3600,
            "iat": now,
            "iss": "https://kubernetes.default.svc.cluster.local",
            "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": _uuid(r)}},
            "sub": "system:serviceaccount:" + ns + ":" + sa,
        }
        return _jwt(r, payload)
    if k == 1:
        return _s(r, 6, LOWER + DIGITS) + "." + _tok(r, 16, LOWER + DIGITS)
    return _tok(r, 32)


def _az_jwt(r):
    now = _now(r)
    tenant = _uuid(r)
    k = r.randrange(3)
    if k == 0:
        payload = {
            "aud": "https://management.azure.com/",
            "iss": "https://sts.windows.net/" + tenant + "/",
            "iat": now,
            "nbf": now,
            "exp": now + 4200,
            "oid": _uuid(r),
            "tid": tenant,
            "upn": _user(r) + "@" + _domain(r),
            "scp": "user_impersonation",
        }
    elif k == 1:
        payload = {
            "sub": _digits(r, 8),
            "email": _user(r) + "@" + _domain(r),
            "role": "admin",
            "iat": now,
            "exp": now + 86400,
        }
    else:
        payload = {
            "iss": "https://" + _domain(r) + "/",
            "sub": "auth0|" + _hex(r, 24),
            "aud": ["https://api." + _domain(r)],
            "iat": now,
            "exp": now + 7200,
            "scope": "openid profile email offline_access",
        }
    return _jwt(r, payload, alg=r.choice(["RS256", "RS256", "HS256"]), kid=k != 1)


# carriers with an embedded secret


def _mk_db(r):
    pw = _password(r, urlsafe=True)
    user = r.choice(["app", "postgres", "svc_" + _proj(r).replace("-", "_"), "admin", "root", "ledger_rw"])
    db = _proj(r).replace("-", "_")
    k = r.randrange(6)
    host = _dbhost(r)
    if k == 0:
        c = f"postgres://{user}:{pw}@{host}:5432/{db}"
    elif k == 1:
        c = f"postgresql://{user}:{pw}@{host}/{db}?sslmode=require"
    elif k == 2:
        c = f"mysql://{user}:{pw}@{host}:3306/{db}"
    elif k == 3:
        c = f"mongodb+srv://{user}:{pw}@cluster0.{_s(r, 5, LOWER + DIGITS)}.mongodb.net/{db}?retryWrites=true&w=majority"
    elif k == 4:
        c = f"rediss://default:{pw}@{host}:6380/0"
    else:
        c = "amqps://{}:{}@{}:5671/{}".format(user, pw, host, r.choice(["%2F", "jobs", "events"]))
    return c, pw


def _mk_basic_url(r):
    pw = _password(r, urlsafe=True) if r.random() < 0.5 else _tok(r, r.choice([24, 32, 40]))
    user = r.choice([_user(r), "deploy", "ci", "build-bot", "svc-" + _proj(r)])
    k = r.randrange(5)
    d = _domain(r)
    if k == 0:
        c = f"https://{user}:{pw}@git.{d}/{_org(r)}/{_proj(r)}.git"
    elif k == 1:
        c = f"https://{user}:{pw}@pypi.{d}/simple/"
    elif k == 2:
        c = f"http://{user}:{pw}@proxy.{d}:3128"
    elif k == 3:
        c = f"https://{user}:{pw}@artifactory.{d}/artifactory/api/npm/npm-virtual/"
    else:
        c = f"https://{user}:{pw}@registry.{d}/v2/"
    return c, pw


def _mk_docker_auth(r):
    user = r.choice([_user(r), "ci-bot", "_json_key", "deploy", "AWS", "robot$" + _proj(r)])
    pw = _password(r) if r.random() < 0.5 else _tok(r, 36)
    v = base64.b64encode((user + ":" + pw).encode()).decode()
    return v, v


def _mk_reset(r):
    t = _reset_tok(r)
    d = _domain(r)
    k = r.randrange(5)
    if k == 0:
        c = f"https://app.{d}/reset-password?token={t}"
    elif k == 1:
        c = f"https://{d}/invite/accept?code={t}&email={_user(r)}%40{d}"
    elif k == 2:
        c = f"https://auth.{d}/magic-link/verify/{t}"
    elif k == 3:
        c = f"https://{d}/account/verify-email?uid={r.randint(100, 99999)}&token={t}"
    else:
        c = f"https://app.{d}/join/{t}"
    return c, t


def _names_db(c):
    scheme = c.split(":", 1)[0]
    return {
        "postgres": ["DATABASE_URL", "POSTGRES_URL", "DB_DSN"],
        "postgresql": ["DATABASE_URL", "POSTGRES_URL", "SQLALCHEMY_DATABASE_URI"],
        "mysql": ["DATABASE_URL", "MYSQL_URL"],
        "mongodb+srv": ["MONGO_URI", "MONGODB_URL"],
        "rediss": ["REDIS_URL", "CACHE_URL"],
        "amqps": ["CELERY_BROKER_URL", "AMQP_URL", "RABBITMQ_URL"],
    }.get(scheme, ["DATABASE_URL"])


def _names_url(c):
    if "@git." in c:
        return ["GIT_REMOTE_URL", "REPO_URL"]
    if "@pypi." in c:
        return ["PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "UV_INDEX_URL"]
    if "@proxy." in c:
        return ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy"]
    if "@artifactory." in c:
        return ["NPM_REGISTRY_URL", "ARTIFACTORY_NPM_URL"]
    return ["REGISTRY_URL", "DOCKER_REGISTRY_URL"]


def _mk_pem(r):
    v = _pem(r)
    return v, v


# --------------------------------------------------------------------------
# generic renderers (r, name, value, header) -> text
# --------------------------------------------------------------------------


def g_summary_en(r, n, v, h):
    p, u = _proj(r), _user(r)
    return r.choice(
        [
            f"Configured the deploy for {p}: set {n} to {v} in the GitHub repo secrets and re-ran the workflow. Build is green.",
            f"Session summary: fixed the failing integration tests in {p}. Root cause was an expired {n}; replaced it with {v} in .env.local (not committed).",
            f"Done. Added {n}={v} to the {_env(r)} environment on Render and redeployed {p}. Health check passes now.",
            f"Note to self: the working {n} for {p} {_env(r)} is {v} (the one on the wiki page was revoked).",
            f"Decision: keep {n} in CI variables instead of the repo. Current value, set today by {u}: {v}",
            f"What I did:\n- bumped node to 20\n- set {n}={_envq(v)}\n- reran `make e2e` -> 48 passed",
        ]
    )


def g_summary_intl(r, n, v, h):
    p = _proj(r)
    return r.choice(
        [
            f"Zusammenfassung: {n} für {p} auf {v} gesetzt. Danach lief das Deployment durch.",
            f"J'ai mis à jour {n} dans le .env de {p} : {v} (l'ancienne valeur avait expiré).",
            f"Configuré {n} en el entorno de {_env(r)} de {p}: {v}. Pendiente: rotarla el lunes.",
            f"Atualizei a variável {n} no servidor de {p} para {v} e reiniciei o serviço.",
            f"{p} の {_env(r)} 環境で {n} を「{v}」に設定しました。デプロイは成功しました。",
            f"已将 {p} 的 {n} 更新为 {v} 并重新部署了服务。",
            f"Обновил {n} для {p}: {v} — старое значение отозвано.",
            f"Ho impostato {n}={_envq(v)} nelle variabili d'ambiente di {p}.",
            f"{n} voor {p} staat nu op {v}; de oude waarde is ingetrokken.",
            f"Ustawiłem {n} w projekcie {p} na {v}, wdrożenie przeszło.",
            f"{p} 서비스의 {n} 값을 {v} 로 교체했습니다.",
        ]
    )


def g_tool_shell(r, n, v, h):
    p, o = _proj(r), _org(r)
    cmd = r.choice(
        [
            f"export {n}='{v}' && ./scripts/deploy.sh {_env(r)}",
            f"{n}='{v}' npm run e2e -- --project={p}",
            f"gh secret set {n} --body '{v}' --repo {o}/{p}",
            f"fly secrets set {n}='{v}' -a {p}",
            f"heroku config:set {n}='{v}' -a {p}-{_env(r)}",
            f"kubectl -n {_env(r)} create secret generic {p}-env --from-literal={_lower(n)}='{v}'",
            f"railway variables --set '{n}={v}'",
            f"docker run --rm -e {n}='{v}' ghcr.io/{o}/{p}:latest migrate",
        ]
    )
    call = {"tool": "run_shell", "arguments": {"command": cmd, "cwd": "/home/" + _user(r) + "/src/" + p}}
    res = {
        "exit_code": 0,
        "stdout": r.choice(
            [
                "ok",
                "Secret set.",
                "secret/" + p + "-env created",
                "Release v" + str(r.randint(10, 300)) + " created",
                "",
            ]
        ),
        "stderr": "",
    }
    return r.choice(
        [
            json.dumps(call) + "\n" + json.dumps(res),
            "tool_call: " + json.dumps(call, indent=2) + "\nresult: " + json.dumps(res),
            "> run_shell(" + json.dumps(cmd) + ")\n< exit 0",
        ]
    )


def g_tool_write(r, n, v, h):
    path = r.choice([".env", ".env.local", "config/.env." + _env(r), "deploy/" + _env(r) + ".env"])
    content = f"# generated by agent\nNODE_ENV={_env(r)}\n{n}={_envq(v)}\nLOG_LEVEL=info\n"
    call = {"name": "write_file", "input": {"path": path, "content": content}}
    return r.choice(
        [
            json.dumps(call),
            "Tool call -> "
            + json.dumps(call, indent=1)
            + '\nTool result -> {"ok": true, "bytes": '
            + str(len(content))
            + "}",
        ]
    )


def g_tool_read(r, n, v, h):
    path = r.choice(["config/settings.toml", "settings.yaml", "appsettings.Development.json", ".env"])
    if path.endswith(".toml"):
        body = f'[service]\nname = "{_proj(r)}"\nport = {r.randint(3000, 9000)}\n\n[auth]\n{_lower(n)} = "{v}"\n'
    elif path.endswith(".yaml"):
        body = f'service: {_proj(r)}\nauth:\n  {_lower(n)}: "{v}"\n  timeout_s: 30\n'
    elif path.endswith(".json"):
        body = json.dumps({"Logging": {"LogLevel": {"Default": "Information"}}, "Auth": {n: v}}, indent=2)
    else:
        body = f"PORT=8080\n{n}={_envq(v)}\n"
    res = {"tool": "read_file", "path": path, "result": body}
    return r.choice(
        [
            json.dumps(res),
            f'read_file("{path}") returned:\n{body}',
        ]
    )


def g_tool_http(r, n, v, h):
    hname, hval = h.split(": ", 1)
    hval = hval.format(v)
    url = "https://api.{}/v{}/{}".format(
        _domain(r), r.randint(1, 3), r.choice(["users/me", "projects", "deployments", "health", "orders?limit=5"])
    )
    call = {
        "tool": "http_request",
        "arguments": {
            "method": r.choice(["GET", "POST"]),
            "url": url,
            "headers": {hname: hval, "Accept": "application/json"},
        },
    }
    status = r.choice([200, 200, 201, 401, 403])
    return json.dumps(call) + f"\n=> status {status} ({r.randint(40, 900)} ms)"


def g_diff_add(r, n, v, h):
    f = r.choice([".env.production", "config/" + _env(r) + ".env", "docker/.env", "deploy/values.env"])
    i = r.randint(2, 40)
    return f"diff --git a/{f} b/{f}\n--- a/{f}\n+++ b/{f}\n@@ -{i},6 +{i},7 @@\n LOG_LEVEL=info\n PORT=8080\n+{n}={_envq(v)}\n SENTRY_ENVIRONMENT={_env(r)}"


def g_diff_remove(r, n, v, h):
    f = r.choice(FILES)
    lang = f.rsplit(".", 1)[-1]
    if lang == "py":
        old, new = f'{n} = "{v}"', f'{n} = os.environ["{n}"]'
    elif lang in ("ts", "js"):
        old, new = f"const {_camel(n)} = '{v}';", f"const {_camel(n)} = process.env.{n};"
    elif lang == "go":
        old, new = f'\t{_camel(n)} := "{v}"', f'\t{_camel(n)} := os.Getenv("{n}")'
    elif lang == "sh":
        old, new = f"export {n}='{v}'", f'export {n}="${{{n}:?missing}}"'
    else:
        old, new = f'  {_lower(n)}: "{v}"', f"  {_lower(n)}: ${{{n}}}"
    return f"Patch I applied to {f}:\n@@ -{r.randint(5, 80)} +{r.randint(5, 80)} @@\n-{old}\n+{new}"


def g_review(r, n, v, h):
    f = r.choice(FILES)
    line = r.choice([f'{n} = "{v}"', f"{_camel(n)}: '{v}'", f"{n}={v}"])
    return r.choice(
        [
            f"Review comment on {f} line {r.randint(3, 200)}:\n> {line}\nThis is a live credential. Please move it to the secret store before merging.",
            f"PR #{r.randint(100, 4000)} review (agent): blocking — `{line}` hardcodes the value. Suggest reading from env instead.",
            f"nit/blocker in {f}:\n```\n{line}\n```\nwe should not ship this in the image",
        ]
    )


def g_traceback(r, n, v, h):
    p = _proj(r)
    if not h or r.random() < 0.5:
        return (
            f'Traceback (most recent call last):\n  File "/srv/{p}/app/clients.py", line {r.randint(10, 300)}, in get_client\n'
            f'    return Client({_lower(n)}="{v}", timeout=10)\n  File "/srv/{p}/.venv/lib/python3.12/site-packages/sdk/client.py", line 88, in __init__\n'
            "    self._auth()\nsdk.errors.AuthenticationError: 401 Unauthorized"
        )
    hname, hval = h.split(": ", 1)
    return (
        "Error: Request failed with status code 403\n    at settle (/app/node_modules/axios/lib/core/settle.js:19:12)\n"
        f"  config: {{ url: 'https://api.{_domain(r)}/v2/sync', headers: {{ '{hname}': '{hval.format(v)}' }} }}"
    )


def g_notebook(r, n, v, h):
    return r.choice(
        [
            f'In [3]: import os\n   ...: os.environ["{n}"] = "{v}"\n\nIn [4]: client = make_client()\nOut[4]: <Client env={_env(r)}>',
            f'# %% cell 2\n{_lower(n)} = "{v}"\nresp = fetch_all({_lower(n)}={_lower(n)})\nprint(len(resp))\n# output: {r.randint(5, 900)}',
            f'{{"cell_type": "code", "source": ["%env {n}={v}"], "outputs": [{{"name": "stdout", "text": ["env: {n}={v}"]}}]}}',
        ]
    )


def g_yaml(r, n, v, h):
    return r.choice(
        [
            f'env:\n  NODE_ENV: production\n  {n}: "{v}"\n  REGION: {_region(r)}',
            f"{_proj(r)}:\n  image: ghcr.io/{_org(r)}/{_proj(r)}:{r.randint(1, 99)}\n  config:\n    {_camel(n)}: {v}\n    retries: 3",
            f"# values-{_env(r)}.yaml\nsecrets:\n  {_camel(n)}: '{v}'",
        ]
    )


def g_json(r, n, v, h):
    d = {"service": _proj(r), "env": _env(r), "credentials": {_camel(n): v}, "timeoutMs": 5000}
    return r.choice([json.dumps(d, indent=2), "config.json:\n" + json.dumps(d)])


def g_toml(r, n, v, h):
    return '[{}]\nendpoint = "https://api.{}"\n{} = "{}"\nretries = {}'.format(
        r.choice(["api", "provider", "integrations." + _proj(r).replace("-", "_")]),
        _domain(r),
        _lower(n),
        v,
        r.randint(1, 5),
    )


def g_hcl(r, n, v, h):
    return r.choice(
        [
            f'variable "{_lower(n)}" {{\n  type    = string\n  default = "{v}"\n}}',
            f'resource "github_actions_secret" "{_lower(n)}" {{\n  repository      = "{_proj(r)}"\n  secret_name     = "{n}"\n  plaintext_value = "{v}"\n}}',
            f'locals {{\n  {_lower(n)} = "{v}"\n}}',
        ]
    )


def g_ini(r, n, v, h):
    return "[{}]\nhost = {}\n{} = {}\n".format(r.choice(["default", "production", _proj(r)]), _domain(r), _lower(n), v)


def g_dockerfile(r, n, v, h):
    return 'FROM python:3.12-slim\nWORKDIR /app\nCOPY . .\nENV {}="{}"\nRUN pip install -r requirements.txt\nCMD ["python", "-m", "{}"]'.format(
        n, v, _proj(r).replace("-", "_")
    )


def g_compose(r, n, v, h):
    p = _proj(r)
    return f'services:\n  {p}:\n    build: .\n    environment:\n      - {n}={v}\n      - PORT=8000\n    ports:\n      - "8000:8000"'


def g_gha(r, n, v, h):
    return (
        "name: deploy\non:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n"
        f"    env:\n      {n}: {v}\n    steps:\n      - uses: actions/checkout@v4\n      - run: ./deploy.sh"
    )


def g_gitlab(r, n, v, h):
    return f'variables:\n  {n}: "{v}"\n  DOCKER_DRIVER: overlay2\n\ndeploy:\n  stage: deploy\n  script:\n    - ./ci/deploy.sh {_env(r)}'


def g_history(r, n, v, h):
    i = r.randint(100, 1900)
    return f"  {i}  cd ~/src/{_proj(r)}\n  {i + 1}  export {n}='{v}'\n  {i + 2}  make deploy ENV={_env(r)}\n  {i + 3}  history | tail"


def g_chat(r, n, v, h):
    u = _user(r)
    return r.choice(
        [
            f"[{_time(r)}] {u}: new {n} for {_env(r)} is {v}\n[{_time(r)}] agent: thanks, updated the .env and restarted the worker",
            f"#{_proj(r)}-ops\n{u}: can someone paste the {n}?\n{_user(r)}: {v}\n{u}: 🙏",
            f"Slack thread summary: {u} shared the {n} value ({v}) so I could finish the migration.",
        ]
    )


def g_email(r, n, v, h):
    u = _user(r)
    return f"From: {u}@{_domain(r)}\nTo: dev-team@{_domain(r)}\nSubject: {_proj(r)} credentials\n\nHi all,\n\nthe {n} for the {_env(r)} environment is:\n\n    {v}\n\nPlease don't forward.\n{u.title()}"


def g_table(r, n, v, h):
    return f"| Variable | Value | Notes |\n|---|---|---|\n| REGION | {_region(r)} | |\n| {n} | `{v}` | rotated {_date(r)} |\n| LOG_LEVEL | info | |"


def g_runbook(r, n, v, h):
    if h:
        hname, hval = h.split(": ", 1)
        return f"Runbook: smoke test after deploy\n1. `kubectl rollout status deploy/{_proj(r)}`\n2. `curl -sf -H '{hname}: {hval.format(v)}' https://api.{_domain(r)}/healthz`\n3. check Grafana"
    return f"Runbook step 4: `export {n}='{v}'` then run `./bin/migrate --env {_env(r)}`"


def g_code_py(r, n, v, h):
    return r.choice(
        [
            f'import requests\n\n{n} = "{v}"\n\ndef fetch(path):\n    return requests.get(BASE + path, auth=("api", {n}))',
            f'settings = Settings(\n    {_lower(n)}="{v}",\n    debug=False,\n)',
            f"client = Client(\n    {_lower(n)}='{v}',\n    region='{_region(r)}',\n)",
        ]
    )


def g_code_js(r, n, v, h):
    return r.choice(
        [
            f"const {_camel(n)} = '{v}';\nexport const client = createClient({{ {_camel(n)} }});",
            f'module.exports = {{\n  {_camel(n)}: "{v}",\n  region: "{_region(r)}",\n}};',
        ]
    )


def g_code_go(r, n, v, h):
    return f'func init() {{\n\tos.Setenv("{n}", "{v}") // TODO remove before release\n}}'


def g_ide(r, n, v, h):
    d = {
        "editor.formatOnSave": True,
        "rest-client.environmentVariables": {
            "$shared": {_camel(n): v},
            _env(r): {"baseUrl": "https://api." + _domain(r)},
        },
    }
    return ".vscode/settings.json:\n" + json.dumps(d, indent=2)


def g_browser(r, n, v, h):
    d = {
        "theme": "dark",
        "locale": r.choice(["en-US", "de-DE", "fr-FR", "ja-JP"]),
        _camel(n): v,
        "sidebarCollapsed": False,
    }
    return f"localStorage dump for https://app.{_domain(r)}:\n" + "\n".join(
        f"{k} = {json.dumps(x)}" for k, x in d.items()
    )


def g_mobile(r, n, v, h):
    if r.random() < 0.5:
        return f"<!-- ios/{_proj(r)}/Info.plist -->\n<key>{_camel(n)[0].upper() + _camel(n)[1:]}</key>\n<string>{v}</string>\n<key>CFBundleShortVersionString</key>\n<string>{r.randint(1, 5)}.{r.randint(0, 20)}</string>"
    return f"# android/gradle.properties\norg.gradle.jvmargs=-Xmx2g\n{_lower(n)}={v}\nandroid.useAndroidX=true"


def g_log(r, n, v, h):
    if h:
        hname, hval = h.split(": ", 1)
        return f"{_ts(r)} DEBUG http.client request headers={{'User-Agent': 'python-httpx/0.27', '{hname}': '{hval.format(v)}'}}"
    return f"{_ts(r)} INFO  config loaded: {{'{_lower(n)}': '{v}', 'env': '{_env(r)}'}}"


def g_commit(r, n, v, h):
    u = _user(r)
    return f"commit {_hex(r, 40)}\nAuthor: {u.title()} <{u}@{_domain(r)}>\n\n    chore: set {n} for {_env(r)} demo\n\n    {n}={_envq(v)} (temporary, rotate after the demo)"


def g_k8s_secret(r, n, v, h):
    return f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {_proj(r)}-env\n  namespace: {_env(r)}\ntype: Opaque\nstringData:\n  {n}: "{v}"'


def g_lesson(r, n, v, h):
    return r.choice(
        [
            f"Lesson learned: the sandbox ignores {n} unless it is exported before `npm start`. Working value: {v}",
            f"Gotcha: {n} must not have a trailing newline. Value that works: {v}",
            f"Remember for next time -> {n} = {v}  (expires end of quarter)",
        ]
    )


def g_tfstate(r, n, v, h):
    d = {
        "mode": "managed",
        "type": "kubernetes_secret",
        "name": _lower(n),
        "instances": [{"schema_version": 0, "attributes": {"data": {_lower(n): v}, "id": _env(r) + "/" + _proj(r)}}],
    }
    return "terraform.tfstate excerpt:\n" + json.dumps(d, indent=2)


def g_helm(r, n, v, h):
    return (
        '# helm upgrade --install {0} ./chart -f values.yaml\n{0}:\n  replicaCount: 2\n  env:\n    {1}: "{2}"'.format(
            _proj(r), n, v
        )
    )


def g_dotenv_cat(r, n, v, h):
    return f"$ cat .env\nAPP_NAME={_proj(r)}\n{n}={_envq(v)}\nDEBUG=false"


GENERIC = [
    g_summary_en,
    g_summary_intl,
    g_tool_shell,
    g_tool_write,
    g_tool_read,
    g_tool_http,
    g_diff_add,
    g_diff_remove,
    g_review,
    g_traceback,
    g_notebook,
    g_yaml,
    g_json,
    g_toml,
    g_hcl,
    g_ini,
    g_dockerfile,
    g_compose,
    g_gha,
    g_gitlab,
    g_history,
    g_chat,
    g_email,
    g_table,
    g_runbook,
    g_code_py,
    g_code_js,
    g_code_go,
    g_ide,
    g_browser,
    g_mobile,
    g_log,
    g_commit,
    g_k8s_secret,
    g_lesson,
    g_tfstate,
    g_helm,
    g_dotenv_cat,
]
NEEDS_HEADER = {g_tool_http}


# --------------------------------------------------------------------------
# kind-specific templates: (r, carrier, secret, name) -> text
# --------------------------------------------------------------------------


def _acct(r):
    return _digits(r, 12)


T_GH_CLASSIC = [
    lambda r, c, s, n: (
        "$ git remote -v\norigin\thttps://{}:{}@github.com/{}/{}.git (fetch)\norigin\thttps://{}:{}@github.com/{}/{}.git (push)".format(
            *([_user(r), c, _org(r), _proj(r)] * 2)
        )
    ),
    lambda r, c, s, n: f"//npm.pkg.github.com/:_authToken={c}\n@{_org(r)}:registry=https://npm.pkg.github.com",
    lambda r, c, s, n: f"echo {c} | docker login ghcr.io -u {_user(r)} --password-stdin\nLogin Succeeded",
    lambda r, c, s, n: (
        f'curl -s -H "Authorization: token {c}" https://api.github.com/repos/{_org(r)}/{_proj(r)}/releases/latest | jq .tag_name'
    ),
    lambda r, c, s, n: (
        f"Created a classic PAT (scopes: repo, workflow) for the release bot and stored it as RELEASE_TOKEN: {c}"
    ),
    lambda r, c, s, n: f"- uses: actions/checkout@v4\n  with:\n    token: {c}\n    submodules: recursive",
    lambda r, c, s, n: f'from github import Github\ng = Github("{c}")\nrepo = g.get_repo("{_org(r)}/{_proj(r)}")',
    lambda r, c, s, n: f'[url "https://{c}:x-oauth-basic@github.com/"]\n\tinsteadOf = https://github.com/',
]

T_GH_FINE = [
    lambda r, c, s, n: (
        f"Generated a fine-grained PAT (repo: {_org(r)}/{_proj(r)}, contents: read/write, expires in 30 days):\n{c}"
    ),
    lambda r, c, s, n: f"gh auth login --with-token <<< '{c}'",
    lambda r, c, s, n: f"renovate.json5 hostRules:\n  {{ matchHost: 'github.com', token: '{c}' }}",
    lambda r, c, s, n: f"GITHUB_TOKEN={c} goreleaser release --clean",
    lambda r, c, s, n: json.dumps(
        {
            "mcpServers": {
                "github": {
                    "command": "github-mcp-server",
                    "args": ["stdio"],
                    "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": c},
                }
            }
        },
        indent=2,
    ),
    lambda r, c, s, n: f"[credential]\n  helper = store\n# ~/.git-credentials\nhttps://{_user(r)}:{c}@github.com",
]

T_GH_APP = [
    lambda r, c, s, n: f"Action log: git fetch https://x-access-token:{c}@github.com/{_org(r)}/{_proj(r)}.git",
    lambda r, c, s, n: (
        f"# ~/.config/gh/hosts.yml\ngithub.com:\n    user: {_user(r)}\n    oauth_token: {c}\n    git_protocol: https"
    ),
    lambda r, c, s, n: (
        f"POST /app/installations/{r.randint(10000000, 59999999)}/access_tokens -> 201\n"
        + json.dumps({"token": c, "expires_at": _ts(r), "permissions": {"contents": "write", "pull_requests": "write"}})
    ),
    lambda r, c, s, n: f"installation token for the bot (valid 1h): {c}",
    lambda r, c, s, n: f'octokit = new Octokit({{ auth: "{c}" }});',
]

T_GITLAB = [
    lambda r, c, s, n: f"git clone https://oauth2:{c}@gitlab.com/{_org(r)}/{_proj(r)}.git",
    lambda r, c, s, n: (
        f'curl --header "PRIVATE-TOKEN: {c}" "https://gitlab.com/api/v4/projects/{r.randint(1000000, 59999999)}/pipelines?status=failed"'
    ),
    lambda r, c, s, n: f"glab auth login --hostname gitlab.com --token {c}",
    lambda r, c, s, n: (
        f"# ~/.python-gitlab.cfg\n[gitlab]\nurl = https://gitlab.com\nprivate_token = {c}\napi_version = 4"
    ),
    lambda r, c, s, n: f"Created project access token 'ci-release' (scopes api, write_repository): {c}",
    lambda r, c, s, n: (
        f'terraform {{\n  backend "http" {{\n    username = "{_user(r)}"\n    password = "{c}"\n  }}\n}}'
    ),
]

T_AKID = [
    lambda r, c, s, n: (
        f"[profile {_proj(r)}]\naws_access_key_id = {c}\naws_secret_access_key = (redacted by agent)\nregion = {_region(r)}"
    ),
    lambda r, c, s, n: (
        f"GuardDuty finding: access key {c} used from an unusual ASN ({r.randint(1000, 60000)}). Disabled the key, ticket SEC-{r.randint(100, 999)}."
    ),
    lambda r, c, s, n: (
        f'provider "aws" {{\n  region     = "{_region(r)}"\n  access_key = "{c}"\n  secret_key = var.aws_secret_key\n}}'
    ),
    lambda r, c, s, n: (
        f"An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid. (key {c})"
    ),
    lambda r, c, s, n: (
        f's3 = boto3.client("s3", aws_access_key_id="{c}",\n                  aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"])'
    ),
    lambda r, c, s, n: json.dumps(
        {
            "eventName": "ListBuckets",
            "userIdentity": {"type": "IAMUser", "accessKeyId": c, "userName": "ci-" + _proj(r)},
            "sourceIPAddress": f"{r.randint(3, 200)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
        }
    ),
]

T_AWS_SECRET = [
    lambda r, c, s, n: f"[default]\naws_access_key_id = {_akid(r)}\naws_secret_access_key = {c}",
    lambda r, c, s, n: (
        f"$ aws iam create-access-key --user-name ci-{_proj(r)}\n"
        + json.dumps(
            {
                "AccessKey": {
                    "UserName": "ci-" + _proj(r),
                    "AccessKeyId": _akid(r),
                    "Status": "Active",
                    "SecretAccessKey": c,
                    "CreateDate": _ts(r),
                }
            },
            indent=4,
        )
    ),
    lambda r, c, s, n: (
        f"[s3-backup]\ntype = s3\nprovider = AWS\naccess_key_id = {_akid(r)}\nsecret_access_key = {c}\nregion = {_region(r)}"
    ),
    lambda r, c, s, n: f"docker run -e AWS_ACCESS_KEY_ID={_akid(r)} -e AWS_SECRET_ACCESS_KEY={c} amazon/aws-cli s3 ls",
    lambda r, c, s, n: json.dumps(
        {
            "type": "aws_iam_access_key",
            "name": "ci",
            "instances": [{"attributes": {"id": _akid(r), "secret": c, "status": "Active", "user": "ci-" + _proj(r)}}],
        },
        indent=2,
    ),
    lambda r, c, s, n: f"Le secret IAM du bot de CI est {c} (clé {_akid(r)}). À faire tourner après la démo.",
]

T_AWS_SESSION = [
    lambda r, c, s, n: (
        f"$ aws sts assume-role --role-arn arn:aws:iam::{_acct(r)}:role/deploy --role-session-name agent\n"
        + json.dumps(
            {
                "Credentials": {
                    "AccessKeyId": "AS" + "IA" + _tok(r, 16, UPPER + "234567"),
                    "SecretAccessKey": _aws_secret(r),
                    "SessionToken": c,
                    "Expiration": _ts(r),
                }
            },
            indent=4,
        )
    ),
    lambda r, c, s, n: f"export AWS_SESSION_TOKEN='{c}'",
    lambda r, c, s, n: f"[sso-dev]\naws_session_token = {c}\nregion = {_region(r)}",
    lambda r, c, s, n: (
        f"$ curl -s http://169.254.169.254/latest/meta-data/iam/security-credentials/{_proj(r)}-role\n"
        + json.dumps({"Code": "Success", "Type": "AWS-HMAC", "Token": c, "Expiration": _ts(r)})
    ),
    lambda r, c, s, n: (
        f"aws configure export-credentials --format env output (session token part):\nexport AWS_SESSION_TOKEN={c}"
    ),
]

T_YA29 = [
    lambda r, c, s, n: f"$ gcloud auth print-access-token\n{c}",
    lambda r, c, s, n: (
        f'curl -H "Authorization: Bearer {c}" https://storage.googleapis.com/storage/v1/b?project={_proj(r)}'
    ),
    lambda r, c, s, n: json.dumps(
        {
            "access_token": c,
            "expires_in": 3599,
            "scope": "https://www.googleapis.com/auth/cloud-platform",
            "token_type": "Bearer",
        }
    ),
    lambda r, c, s, n: f"In [7]: creds.refresh(Request()); creds.token\nOut[7]: '{c}'",
    lambda r, c, s, n: f'metadata server returned {{"access_token":"{c}","expires_in":3421,"token_type":"Bearer"}}',
]

T_AIZA = [
    lambda r, c, s, n: (
        f'const firebaseConfig = {{\n  apiKey: "{c}",\n  authDomain: "{_proj(r)}.firebaseapp.com",\n  projectId: "{_proj(r)}",\n}};'
    ),
    lambda r, c, s, n: (
        f"<key>API_KEY</key>\n<string>{c}</string>\n<key>GCM_SENDER_ID</key>\n<string>{_digits(r, 12)}</string>"
    ),
    lambda r, c, s, n: (
        f"curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Alexanderplatz+Berlin&key={c}'"
    ),
    lambda r, c, s, n: f'"api_key": [\n  {{\n    "current_key": "{c}"\n  }}\n]',
    lambda r, c, s, n: (
        f"YouTube Data API: GET https://www.googleapis.com/youtube/v3/search?part=snippet&q=rust&key={c}"
    ),
]

T_AZURE = [
    lambda r, c, s, n: (
        "DefaultEndpointsProtocol=https;AccountName={};AccountKey={};EndpointSuffix=core.windows.net".format(
            _proj(r).replace("-", "") + "st", c
        )
    ),
    lambda r, c, s, n: json.dumps(
        {
            "IsEncrypted": False,
            "Values": {
                "AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName="
                + _proj(r).replace("-", "")
                + ";AccountKey="
                + c
                + ";EndpointSuffix=core.windows.net",
                "FUNCTIONS_WORKER_RUNTIME": "python",
            },
        },
        indent=2,
    ),
    lambda r, c, s, n: (
        "$ az storage account keys list -g rg-{} -n {}\n".format(_env(r), _proj(r).replace("-", ""))
        + json.dumps([{"keyName": "key1", "permissions": "FULL", "value": c}], indent=2)
    ),
    lambda r, c, s, n: "export AZURE_STORAGE_ACCOUNT={}\nexport AZURE_STORAGE_KEY='{}'".format(
        _proj(r).replace("-", ""), c
    ),
    lambda r, c, s, n: (
        '"primary_access_key": "{}",\n"primary_blob_endpoint": "https://{}.blob.core.windows.net/"'.format(
            c, _proj(r).replace("-", "")
        )
    ),
]

T_JWT = [
    lambda r, c, s, n: (
        "$ az account get-access-token\n"
        + json.dumps(
            {
                "accessToken": c,
                "expiresOn": _date(r) + " 11:42:07.000000",
                "subscription": _uuid(r),
                "tenant": _uuid(r),
                "tokenType": "Bearer",
            },
            indent=2,
        )
    ),
    lambda r, c, s, n: f"localStorage['auth.accessToken'] = \"{c}\"",
    lambda r, c, s, n: f"curl -H 'Authorization: Bearer {c}' https://api.{_domain(r)}/v1/me",
    lambda r, c, s, n: f'HAR entry: request.headers[3] = {{"name": "authorization", "value": "Bearer {c}"}}',
    lambda r, c, s, n: f"Set-Cookie: access_token={c}; Path=/; HttpOnly; Secure; SameSite=Lax",
    lambda r, c, s, n: f'Postman environment \'{_env(r)}\': {{"key": "jwt", "value": "{c}", "enabled": true}}',
]

T_KUBE = [
    lambda r, c, s, n: (
        "apiVersion: v1\nkind: Config\nclusters:\n- name: {0}\n  cluster:\n    server: https://{1}:6443\nusers:\n- name: {0}-admin\n  user:\n    token: {2}".format(
            _proj(r), _dbhost(r), c
        )
    ),
    lambda r, c, s, n: (
        f"$ kubectl -n ci create token deployer --duration=24h\n{c}"
        if c.startswith("eyJ")
        else f"$ kubectl -n ci get secret deployer-token -o jsonpath='{{.data.token}}' | base64 -d\n{c}"
    ),
    lambda r, c, s, n: (
        f"kubeadm join {_dbhost(r)}:6443 --token {c} --discovery-token-ca-cert-hash sha256:{_hex(r, 64)}"
        if len(c) == 23
        else f"kubectl config set-credentials ci-{_env(r)} --token={c}"
    ),
    lambda r, c, s, n: f"kubectl --server https://{_dbhost(r)}:6443 --token={c} get pods -A",
    lambda r, c, s, n: f"Dashboard login token (read from secret dashboard-admin): {c}",
    lambda r, c, s, n: f'users:\n- name: ci\n  user:\n    token: "{c}"',
]

T_SLACK = [
    lambda r, c, s, n: (
        f'from slack_sdk import WebClient\nclient = WebClient(token="{c}")\nclient.chat_postMessage(channel="#deploys", text="done")'
    ),
    lambda r, c, s, n: json.dumps(
        {
            "ok": True,
            "access_token": c,
            "token_type": "bot",
            "scope": "chat:write,channels:read",
            "bot_user_id": "U" + _tok(r, 10, UPPER + DIGITS),
            "team": {"name": _org(r), "id": "T" + _tok(r, 8, UPPER + DIGITS)},
        }
    ),
    lambda r, c, s, n: (
        f"curl -X POST https://slack.com/api/chat.postMessage -H 'Authorization: Bearer {c}' -d channel=C{_tok(r, 8, UPPER + DIGITS)} -d text=hi"
    ),
    lambda r, c, s, n: f"SLACK_BOT_TOKEN={c}\nSLACK_SIGNING_SECRET is in 1Password",
]

T_SLACK_HOOK = [
    lambda r, c, s, n: (
        f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy of {_proj(r)} finished\"}}' {c}"
    ),
    lambda r, c, s, n: f"receivers:\n- name: oncall\n  slack_configs:\n  - api_url: {c}\n    channel: '#alerts'",
    lambda r, c, s, n: f'requests.post("{c}", json={{"text": msg}}, timeout=5)',
    lambda r, c, s, n: f"Grafana contact point 'slack-{_env(r)}': URL {c}",
    lambda r, c, s, n: f'- name: notify\n  run: curl -sf -d \'{{"text":"build ok"}}\' {c}',
]

T_STRIPE = [
    lambda r, c, s, n: f"curl https://api.stripe.com/v1/customers -u {c}: -d email={_user(r)}@{_domain(r)}",
    lambda r, c, s, n: f'Stripe.api_key = "{c}"',
    lambda r, c, s, n: f"const stripe = require('stripe')('{c}');",
    lambda r, c, s, n: f"stripe.api_key = '{c}'  # live key, only for the refund script",
    lambda r, c, s, n: f"stripe customers list --limit 3 --api-key {c}",
]

T_WHSEC = [
    lambda r, c, s, n: (
        f"$ stripe listen --forward-to localhost:4242/webhook\n> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is {c} (^C to quit)"
    ),
    lambda r, c, s, n: f'event = stripe.Webhook.construct_event(payload, sig_header, "{c}")',
    lambda r, c, s, n: f"Webhook endpoint we_{_tok(r, 24)} created; signing secret: {c}",
    lambda r, c, s, n: f'const endpointSecret = "{c}";',
]

T_OPENAI = [
    lambda r, c, s, n: f'from openai import OpenAI\nclient = OpenAI(api_key="{c}")',
    lambda r, c, s, n: f'curl https://api.openai.com/v1/models -H "Authorization: Bearer {c}"',
    lambda r, c, s, n: f"In [1]: %env OPENAI_API_KEY={c}\nenv: OPENAI_API_KEY={c}",
    lambda r, c, s, n: f'llm = ChatOpenAI(model="gpt-4o-mini", temperature=0, openai_api_key="{c}")',
    lambda r, c, s, n: json.dumps({"openai.apiKey": c, "openai.model": "gpt-4o"}, indent=2),
]

T_ANTHROPIC = [
    lambda r, c, s, n: json.dumps(
        {"env": {"ANTHROPIC_API_KEY": c}, "permissions": {"allow": ["Bash(npm test)"]}}, indent=2
    ),
    lambda r, c, s, n: (
        f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {c}" -H "anthropic-version: 2023-06-01" -d @req.json'
    ),
    lambda r, c, s, n: f'client = anthropic.Anthropic(api_key="{c}")',
    lambda r, c, s, n: f"Der API-Schlüssel für den Eval-Runner lautet {c} (Workspace: evals).",
]

T_HF = [
    lambda r, c, s, n: f"$ huggingface-cli login --token {c}\nToken is valid (permission: write).",
    lambda r, c, s, n: f"git clone https://{_user(r)}:{c}@huggingface.co/{_org(r)}/{_proj(r)}-lora",
    lambda r, c, s, n: f'from huggingface_hub import login\nlogin(token="{c}")',
    lambda r, c, s, n: f"$ cat ~/.cache/huggingface/token\n{c}",
    lambda r, c, s, n: f'model = AutoModel.from_pretrained("{_org(r)}/{_proj(r)}", token="{c}")',
]

T_NPM = [
    lambda r, c, s, n: f"//registry.npmjs.org/:_authToken={c}",
    lambda r, c, s, n: (
        f"$ npm token create --read-only\n+----------+------------------------------------------+\n| token    | {c} |\n| readonly | true |"
    ),
    lambda r, c, s, n: f'npmRegistryServer: "https://registry.npmjs.org"\nnpmAuthToken: "{c}"',
    lambda r, c, s, n: f"- run: npm publish --access public\n  env:\n    NODE_AUTH_TOKEN: {c}",
]

T_PYPI = [
    lambda r, c, s, n: f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {c}",
    lambda r, c, s, n: f"twine upload -u __token__ -p {c} dist/*",
    lambda r, c, s, n: f"poetry config pypi-token.pypi {c}",
    lambda r, c, s, n: f"uv publish --token {c}",
]

T_FLY = [
    lambda r, c, s, n: f"$ fly tokens create deploy -a {_proj(r)} -x 720h\n{c}",
    lambda r, c, s, n: (
        f"Configured the deploy: set FLY_API_TOKEN to {c} in the GitHub secrets for {_org(r)}/{_proj(r)}"
    ),
    lambda r, c, s, n: f"$ flyctl auth token\n{c}",
    lambda r, c, s, n: f'FLY_API_TOKEN="{c}" flyctl deploy --remote-only',
]

T_TWILIO = [
    lambda r, c, s, n: f'from twilio.rest import Client\nclient = Client("AC{_hex(r, 32)}", "{c}")',
    lambda r, c, s, n: (
        "curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC{0}/Messages.json -u AC{0}:{1} --data-urlencode 'Body=test'".format(
            _hex(r, 32), c
        )
    ),
    lambda r, c, s, n: f"TWILIO_ACCOUNT_SID=AC{_hex(r, 32)}\nTWILIO_AUTH_TOKEN={c}",
    lambda r, c, s, n: (
        f"Twilio console -> Account Info: auth token {c} (primary). Copied it into the SMS worker config."
    ),
]

T_SENDGRID = [
    lambda r, c, s, n: f'EMAIL_HOST = "smtp.sendgrid.net"\nEMAIL_HOST_USER = "apikey"\nEMAIL_HOST_PASSWORD = "{c}"',
    lambda r, c, s, n: f"sgMail.setApiKey('{c}');",
    lambda r, c, s, n: (
        f"curl --request POST --url https://api.sendgrid.com/v3/mail/send --header 'Authorization: Bearer {c}' --header 'Content-Type: application/json'"
    ),
    lambda r, c, s, n: (
        f"relayhost = [smtp.sendgrid.net]:587\n# /etc/postfix/sasl_passwd\n[smtp.sendgrid.net]:587 apikey:{c}"
    ),
]

T_DB = [
    lambda r, c, s, n: "sqlalchemy.exc.ArgumentError: Could not parse SQLAlchemy URL from string '{}'".format(
        c.replace("://", ":/")
    ),
    lambda r, c, s, n: f"[alembic]\nscript_location = migrations\nsqlalchemy.url = {c}",
    lambda r, c, s, n: f"$ psql \"{c}\" -c 'select count(*) from users'\n count\n-------\n  {r.randint(10, 90000)}",
    lambda r, c, s, n: f'datasource db {{\n  provider = "postgresql"\n  url      = "{c}"\n}}',
    lambda r, c, s, n: (
        "spring.datasource.url=jdbc:postgresql://{}:5432/{}\nspring.datasource.username=app\nspring.datasource.password={}".format(
            _dbhost(r), _proj(r).replace("-", "_"), s
        )
    ),
    lambda r, c, s, n: (
        "production:\n  adapter: postgresql\n  host: {}\n  username: rails\n  password: {}\n  database: {}_production".format(
            _dbhost(r), s, _proj(r).replace("-", "_")
        )
    ),
    lambda r, c, s, n: (
        f"DATABASES = {{\n    'default': {{\n        'ENGINE': 'django.db.backends.postgresql',\n        'HOST': '{_dbhost(r)}',\n        'USER': 'app',\n        'PASSWORD': '{s}',\n    }}\n}}"
    ),
    lambda r, c, s, n: f"redis-cli -h {_dbhost(r)} -p 6379 -a '{s}' --no-auth-warning ping\nPONG",
    lambda r, c, s, n: "jdbc:mysql://{}:3306/{}?user=app&password={}&useSSL=true".format(
        _dbhost(r), _proj(r).replace("-", "_"), s
    ),
]

T_BASIC_URL = [
    lambda r, c, s, n: f"$ git remote -v\norigin\t{c} (fetch)\norigin\t{c} (push)",
    lambda r, c, s, n: f"[global]\nindex-url = {c}",
    lambda r, c, s, n: f"export HTTPS_PROXY={c}\nexport NO_PROXY=localhost,.internal",
    lambda r, c, s, n: (
        f"Cloning into '{_proj(r)}'...\nfatal: unable to access '{c}': The requested URL returned error: 403"
    ),
    lambda r, c, s, n: f"curl -u {_user(r)}:{s} https://nexus.{_domain(r)}/service/rest/v1/repositories",
    lambda r, c, s, n: (
        f"<server>\n  <id>internal-releases</id>\n  <username>deploy</username>\n  <password>{s}</password>\n</server>"
    ),
    lambda r, c, s, n: f"machine git.{_domain(r)} login {_user(r)} password {s}",
]


def _pem_tpl_raw(r, c, s, n):
    return r.choice(
        [
            "$ cat ~/.ssh/id_{}\n{}".format(r.choice(["ed25519", "rsa", "deploy"]), c),
            f"Generated a deploy key for {_proj(r)} and added the public half to the repo. Private key:\n{c}",
            "diff --git a/certs/server.key b/certs/server.key\nnew file mode 100644\n--- /dev/null\n+++ b/certs/server.key\n"
            + "\n".join("+" + ln for ln in c.split("\n")),
            f"apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\nmetadata:\n  name: {_proj(r)}-tls\nstringData:\n  tls.key: |\n"
            + "\n".join("    " + ln for ln in c.split("\n")),
            "deploy_ssh_key: |\n" + "\n".join("  " + ln for ln in c.split("\n")),
            'SIGNING_KEY="' + c + '"',
            "In [5]: print(open('key.pem').read())\n" + c,
            "Hier der private Schlüssel für den SFTP-Import (Benutzer import-bot):\n\n"
            + c
            + "\n\nBitte nach dem Test löschen.",
            "tool_result(read_file {}):\n".format(
                r.choice(["~/.ssh/id_deploy", "certs/server.key", "secrets/signing.pem", "./key.pem"])
            )
            + c,
            "```\n" + c + f"\n```\nThat is the key Jenkins uses for the {_proj(r)} mirror.",
        ]
    )


def _pem_tpl_escaped(r, c, s, n):
    proj = _proj(r) + "-" + str(r.randint(100000, 999999))
    sa = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": _hex(r, 40),
        "private_key": "@@KEY@@",
        "client_email": "deployer@" + proj + ".iam.gserviceaccount.com",
        "client_id": _digits(r, 21),
    }
    body = json.dumps(sa, indent=2).replace("@@KEY@@", c)
    return r.choice(
        [
            body,
            "Wrote the service account file for CI:\n" + body,
            json.dumps({"tool": "read_file", "path": "secrets/gcp.json"}) + "\n" + body,
            '"tls_private_key.deploy": {\n  "private_key_pem": "' + c + '",\n  "algorithm": "RSA"\n}',
        ]
    )


def _mk_pem_escaped(r):
    v = _pem(r, algo=r.choice(["", "", "RSA"]), escaped=True)
    return v, v


T_DOCKER = [
    lambda r, c, s, n: json.dumps(
        {
            "auths": {
                r.choice(["ghcr.io", "registry.gitlab.com", "https://index.docker.io/v1/", "harbor." + _domain(r)]): {
                    "auth": c
                }
            }
        },
        indent=2,
    ),
    lambda r, c, s, n: f'DOCKER_AUTH_CONFIG: \'{{"auths":{{"registry.{_domain(r)}":{{"auth":"{c}"}}}}}}\'',
    lambda r, c, s, n: f'curl -H "Authorization: Basic {c}" https://registry.{_domain(r)}/v2/_catalog',
    lambda r, c, s, n: (
        f'$ cat ~/.docker/config.json\n{{\n\t"auths": {{\n\t\t"{_acct(r)}.dkr.ecr.{_region(r)}.amazonaws.com": {{\n\t\t\t"auth": "{c}"\n\t\t}}\n\t}}\n}}'
    ),
    lambda r, c, s, n: "${XDG_RUNTIME_DIR}/containers/auth.json:\n" + json.dumps({"auths": {"quay.io": {"auth": c}}}),
    lambda r, c, s, n: (
        f'imagePullSecret decoded (.dockerconfigjson): {{"auths":{{"ghcr.io":{{"username":"{_user(r)}","auth":"{c}"}}}}}}'
    ),
]

PW_NAMES = [
    "DB_PASSWORD",
    "ADMIN_PASSWORD",
    "SMTP_PASSWORD",
    "POSTGRES_PASSWORD",
    "MYSQL_ROOT_PASSWORD",
    "REDIS_PASSWORD",
    "GRAFANA_ADMIN_PASSWORD",
    "KEYCLOAK_ADMIN_PASSWORD",
    "RABBITMQ_DEFAULT_PASS",
    "LDAP_BIND_PASSWORD",
    "SFTP_PASSWORD",
    "JENKINS_PASSWORD",
]

T_PASSWORD = [
    lambda r, c, s, n: "CREATE USER {} WITH PASSWORD '{}';\nGRANT CONNECT ON DATABASE {} TO {};".format(
        _proj(r).replace("-", "_"), c, _proj(r).replace("-", "_"), _proj(r).replace("-", "_")
    ),
    lambda r, c, s, n: (
        f"python manage.py shell -c \"from django.contrib.auth import get_user_model; get_user_model().objects.create_superuser('admin', 'admin@{_domain(r)}', '{c}')\""
    ),
    lambda r, c, s, n: f"mysql -h {_dbhost(r)} -u root -p'{c}' -e 'SHOW DATABASES;'",
    lambda r, c, s, n: f'ansible_user: deploy\nansible_become_password: "{c}"',
    lambda r, c, s, n: f"define( 'DB_PASSWORD', '{c}' );",
    lambda r, c, s, n: f"{_dbhost(r)}:5432:*:app:{c}",
    lambda r, c, s, n: f"sshpass -p '{c}' ssh -o StrictHostKeyChecking=no admin@{_dbhost(r)}",
    lambda r, c, s, n: f"# seeds.rb\nUser.create!(email: 'qa@{_domain(r)}', password: '{c}', role: :admin)",
    lambda r, c, s, n: f"Office Wi-Fi ({_org(r)}-guest is separate): SSID {_org(r)}-corp, password {c}",
    lambda r, c, s, n: "[{}]\ndefault_user = admin\ndefault_pass = {}".format(r.choice(["rabbitmq", "broker"]), c),
    lambda r, c, s, n: f'grafana:\n  adminUser: admin\n  adminPassword: "{c}"',
    lambda r, c, s, n: f"net user svc_backup {c} /add /y",
    lambda r, c, s, n: f'- model: accounts.testuser\n  fields:\n    username: {_user(r)}\n    raw_password: "{c}"',
    lambda r, c, s, n: f"Passwort für das Staging-Admin-Konto: {c} (Benutzer admin)",
    lambda r, c, s, n: f"Contraseña del panel de administración de {_proj(r)}: {c}",
    lambda r, c, s, n: f"管理画面のログイン: admin / {c}",
]

PP_NAMES = [
    "GPG_PASSPHRASE",
    "RESTIC_PASSWORD",
    "BORG_PASSPHRASE",
    "KEYSTORE_PASSWORD",
    "SSH_KEY_PASSPHRASE",
    "ANSIBLE_VAULT_PASSWORD",
    "SIGNING_KEY_PASSPHRASE",
    "BACKUP_ENCRYPTION_PASSPHRASE",
]

T_PASSPHRASE = [
    lambda r, c, s, n: f"gpg --batch --pinentry-mode loopback --passphrase '{c}' --decrypt backup.tar.gpg > backup.tar",
    lambda r, c, s, n: (
        f'signingConfigs {{\n    release {{\n        storeFile file("release.jks")\n        storePassword "{c}"\n        keyAlias "upload"\n        keyPassword "{c}"\n    }}\n}}'
    ),
    lambda r, c, s, n: f"ssh-keygen -t ed25519 -C 'deploy@{_proj(r)}' -N '{c}' -f ./deploy_key",
    lambda r, c, s, n: f"$ cat ~/.ansible/vault_pass.txt\n{c}",
    lambda r, c, s, n: f'The restic repo password for the NAS backup is "{c}" (also in the red envelope).',
    lambda r, c, s, n: f"export BORG_PASSPHRASE='{c}'\nborg create ::'{{hostname}}-{{now}}' ~/data",
    lambda r, c, s, n: f"Die Passphrase für den Release-Signierschlüssel ist: {c}",
    lambda r, c, s, n: f"storePassword={c}\nkeyAlias=upload",
]

T_GENERIC_KEY = [
    lambda r, c, s, n: f"curl -H 'X-API-Key: {c}' 'https://api.{_domain(r)}/v2/search?q=invoice'",
    lambda r, c, s, n: f"The partner portal issued us an API key for the sandbox: {c}",
    lambda r, c, s, n: json.dumps(
        {
            "id": "key_" + _tok(r, 12),
            "name": "agent-" + _env(r),
            "key": c,
            "created_at": _ts(r),
            "note": "This key will only be shown once.",
        }
    ),
    lambda r, c, s, n: f'POST /v1/api-keys -> 201 Created\n{{"api_key": "{c}", "scopes": ["read", "write"]}}',
    lambda r, c, s, n: f"GET https://api.{_domain(r)}/v1/forecast?lat=52.52&lon=13.40&appid={c}",
]

T_HEX = [
    lambda r, c, s, n: (
        f"$ python -c 'import secrets; print(secrets.token_hex(32))'\n{c}\n-> pasted as {n} in the prod env"
    ),
    lambda r, c, s, n: f"app.config['SECRET_KEY'] = '{c}'",
    lambda r, c, s, n: f"$ openssl rand -hex 32\n{c}\nused it for the webhook signing secret",
    lambda r, c, s, n: f"datadog:\n  apiKey: {c}\n  site: datadoghq.eu",
    lambda r, c, s, n: f"jwt.sign(payload, '{c}', {{ expiresIn: '1h' }})",
    lambda r, c, s, n: f"ENCRYPTION_KEY={c}  # AES-256, do not lose or old rows become unreadable",
]

T_CLIENT_SECRET = [
    lambda r, c, s, n: json.dumps(
        {
            "installed": {
                "client_id": _digits(r, 12) + "-" + _s(r, 32, LOWER + DIGITS) + ".apps.googleusercontent.com",
                "project_id": _proj(r),
                "client_secret": c,
                "redirect_uris": ["http://localhost"],
            }
        }
    ),
    lambda r, c, s, n: (
        f"$ az ad app credential reset --id {_uuid(r)}\n"
        + json.dumps({"appId": _uuid(r), "password": c, "tenant": _uuid(r)}, indent=2)
    ),
    lambda r, c, s, n: (
        f"GOOGLE_CLIENT_ID={_digits(r, 12)}-{_s(r, 32, LOWER + DIGITS)}.apps.googleusercontent.com\nGOOGLE_CLIENT_SECRET={c}"
    ),
    lambda r, c, s, n: f"GitHub OAuth app '{_proj(r)}' -> client secret regenerated: {c}",
    lambda r, c, s, n: (
        f"curl -X POST https://{_domain(r)}/oauth/token -d grant_type=client_credentials -d client_id={_tok(r, 32)} -d client_secret={c}"
    ),
    lambda r, c, s, n: f"spring.security.oauth2.client.registration.keycloak.client-secret={c}",
]

T_REFRESH = [
    lambda r, c, s, n: json.dumps(
        {
            "client_id": _digits(r, 12) + "-" + _s(r, 32, LOWER + DIGITS) + ".apps.googleusercontent.com",
            "refresh_token": c,
            "type": "authorized_user",
        },
        indent=2,
    ),
    lambda r, c, s, n: (
        f'token = {{"access_token":"[expired]","token_type":"Bearer","refresh_token":"{c}","expiry":"{_ts(r)}"}}'
    ),
    lambda r, c, s, n: (
        f"curl -d grant_type=refresh_token -d refresh_token={c} -d client_id={_digits(r, 12)} https://oauth2.googleapis.com/token"
    ),
    lambda r, c, s, n: f"Saved the long-lived refresh token for the calendar sync worker: {c}",
    lambda r, c, s, n: f'localStorage: refreshToken = "{c}"',
]

T_RESET = [
    lambda r, c, s, n: (
        f"Subject: Reset your password\n\nHi {_user(r).title()},\n\nClick the link below to choose a new password. It expires in 30 minutes.\n\n{c}\n\nIf you didn't request this, ignore this email."
    ),
    lambda r, c, s, n: f"You've been invited to join {_org(r)} on {_proj(r)}. Accept here: {c}",
    lambda r, c, s, n: json.dumps({"status": "sent", "debug_link": c}),
    lambda r, c, s, n: (
        f"Testing the reset flow locally: mailhog shows the link {c} -- works, lands on /account/new-password"
    ),
    lambda r, c, s, n: f"Magic sign-in link for {_user(r)}@{_domain(r)} (valid 15 min): {c}",
    lambda r, c, s, n: f"{_ts(r)} INFO mailer sent template=password_reset to={_user(r)}@{_domain(r)} url={c}",
    lambda r, c, s, n: (
        f"Bonjour,\n\nPour réinitialiser votre mot de passe, cliquez ici : {c}\n\nCe lien expire dans 1 heure."
    ),
]

T_VAULT = [
    lambda r, c, s, n: (
        f'$ vault login -method=userpass username={_user(r)}\nSuccess! You are now authenticated.\n\nKey                  Value\n---                  -----\ntoken                {c}\ntoken_duration       768h\ntoken_policies       ["default" "dev"]'
    ),
    lambda r, c, s, n: f"$ cat ~/.vault-token\n{c}",
    lambda r, c, s, n: f'provider "vault" {{\n  address = "https://vault.{_domain(r)}:8200"\n  token   = "{c}"\n}}',
    lambda r, c, s, n: f"VAULT_ADDR=https://vault.{_domain(r)} VAULT_TOKEN={c} vault kv get secret/{_proj(r)}",
    lambda r, c, s, n: f"vault token create -policy=ci -ttl=72h\n...\ntoken  {c}",
]

T_TFC = [
    lambda r, c, s, n: json.dumps({"credentials": {"app.terraform.io": {"token": c}}}, indent=2),
    lambda r, c, s, n: f"export TF_TOKEN_app_terraform_io={c}",
    lambda r, c, s, n: f"- uses: hashicorp/setup-terraform@v3\n  with:\n    cli_config_credentials_token: {c}",
    lambda r, c, s, n: f'credentials "app.terraform.io" {{\n  token = "{c}"\n}}',
]

T_DO = [
    lambda r, c, s, n: f"doctl auth init --access-token {c}",
    lambda r, c, s, n: f"# ~/.config/doctl/config.yaml\naccess-token: {c}\ncontext: default",
    lambda r, c, s, n: f'provider "digitalocean" {{\n  token = "{c}"\n}}',
    lambda r, c, s, n: f'curl -X GET -H "Authorization: Bearer {c}" "https://api.digitalocean.com/v2/droplets"',
]

T_TELEGRAM = [
    lambda r, c, s, n: (
        "curl -s \"https://api.telegram.org/bot{}/sendMessage\" -d chat_id={} -d text='deploy ok'".format(
            c, "-100" + _digits(r, 10)
        )
    ),
    lambda r, c, s, n: (
        f"BotFather: Done! Congratulations on your new bot. Use this token to access the HTTP API:\n{c}\nKeep your token secure."
    ),
    lambda r, c, s, n: f'application = Application.builder().token("{c}").build()',
    lambda r, c, s, n: f"Telegram-Bot für Alerts angelegt, Token: {c}",
]

T_DISCORD = [
    lambda r, c, s, n: f'bot.run("{c}")',
    lambda r, c, s, n: f"client.login('{c}');",
    lambda r, c, s, n: f'curl -H "Authorization: Bot {c}" https://discord.com/api/v10/users/@me',
    lambda r, c, s, n: f"Reset the bot token in the developer portal, new one: {c}",
]

T_SHOPIFY = [
    lambda r, c, s, n: (
        f'curl -H "X-Shopify-Access-Token: {c}" https://{_proj(r)}.myshopify.com/admin/api/2024-04/products.json'
    ),
    lambda r, c, s, n: f"SHOPIFY_STORE={_proj(r)}.myshopify.com\nSHOPIFY_ACCESS_TOKEN={c}",
    lambda r, c, s, n: f"Custom app '{_proj(r)}-sync' installed; Admin API access token (shown once): {c}",
    lambda r, c, s, n: f"const shopify = new Shopify({{ shopName: '{_proj(r)}', accessToken: '{c}' }});",
]

# kind -> (maker, names, header template or None, specific templates, use generic renderers)
KINDS = [
    (
        "github_pat_classic",
        _mk(_gh_classic),
        ["GITHUB_TOKEN", "GH_TOKEN", "GH_PAT", "RELEASE_TOKEN"],
        "Authorization: token {}",
        T_GH_CLASSIC,
        True,
    ),
    (
        "github_fine_grained_pat",
        _mk(_gh_fine),
        ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "RENOVATE_TOKEN"],
        "Authorization: Bearer {}",
        T_GH_FINE,
        True,
    ),
    (
        "github_app_token",
        _mk(_gh_app),
        ["GITHUB_TOKEN", "GH_APP_TOKEN", "INSTALLATION_TOKEN"],
        "Authorization: token {}",
        T_GH_APP,
        True,
    ),
    (
        "gitlab_pat",
        _mk(_gitlab),
        ["GITLAB_TOKEN", "GL_TOKEN", "CI_PUSH_TOKEN", "DANGER_GITLAB_API_TOKEN"],
        "PRIVATE-TOKEN: {}",
        T_GITLAB,
        True,
    ),
    ("aws_access_key_id", _mk(_akid), ["AWS_ACCESS_KEY_ID", "S3_ACCESS_KEY", "AWS_ACCESS_KEY"], None, T_AKID, True),
    (
        "aws_secret_access_key",
        _mk(_aws_secret),
        ["AWS_SECRET_ACCESS_KEY", "S3_SECRET_KEY", "AWS_SECRET_KEY"],
        None,
        T_AWS_SECRET,
        True,
    ),
    ("aws_session_token", _mk(_aws_session), ["AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"], None, T_AWS_SESSION, True),
    (
        "gcp_access_token",
        _mk(_ya29),
        ["GOOGLE_OAUTH_ACCESS_TOKEN", "GCP_ACCESS_TOKEN", "CLOUDSDK_AUTH_ACCESS_TOKEN"],
        "Authorization: Bearer {}",
        T_YA29,
        True,
    ),
    (
        "google_api_key",
        _mk(_aiza),
        ["GOOGLE_API_KEY", "MAPS_API_KEY", "FIREBASE_API_KEY", "GEMINI_API_KEY"],
        "x-goog-api-key: {}",
        T_AIZA,
        True,
    ),
    (
        "azure_storage_key",
        _mk(_azure_key),
        ["AZURE_STORAGE_KEY", "STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_ACCESS_KEY"],
        None,
        T_AZURE,
        True,
    ),
    (
        "jwt",
        _mk(_az_jwt),
        ["ACCESS_TOKEN", "AUTH_TOKEN", "API_JWT", "BEARER_TOKEN"],
        "Authorization: Bearer {}",
        T_JWT,
        True,
    ),
    (
        "kubernetes_token",
        _mk(_kube_token),
        ["K8S_TOKEN", "KUBE_TOKEN", "CLUSTER_TOKEN"],
        "Authorization: Bearer {}",
        T_KUBE,
        True,
    ),
    (
        "slack_token",
        _mk(_slack_tok),
        ["SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_USER_TOKEN", "SLACK_APP_TOKEN"],
        "Authorization: Bearer {}",
        T_SLACK,
        True,
    ),
    (
        "slack_webhook_url",
        _mk(_slack_hook),
        ["SLACK_WEBHOOK_URL", "SLACK_WEBHOOK", "ALERT_WEBHOOK_URL"],
        None,
        T_SLACK_HOOK,
        True,
    ),
    (
        "stripe_secret_key",
        _mk(_stripe_sk),
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_KEY"],
        "Authorization: Bearer {}",
        T_STRIPE,
        True,
    ),
    (
        "stripe_webhook_secret",
        _mk(_whsec),
        ["STRIPE_WEBHOOK_SECRET", "STRIPE_SIGNING_SECRET", "WEBHOOK_SIGNING_SECRET"],
        None,
        T_WHSEC,
        True,
    ),
    (
        "openai_api_key",
        _mk(_openai),
        ["OPENAI_API_KEY", "OPENAI_KEY", "LLM_API_KEY"],
        "Authorization: Bearer {}",
        T_OPENAI,
        True,
    ),
    ("anthropic_api_key", _mk(_anthropic), ["ANTHROPIC_API_KEY", "CLAUDE_API_KEY"], "x-api-key: {}", T_ANTHROPIC, True),
    (
        "huggingface_token",
        _mk(_hf),
        ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACEHUB_API_TOKEN"],
        "Authorization: Bearer {}",
        T_HF,
        True,
    ),
    (
        "npm_token",
        _mk(_npm),
        ["NPM_TOKEN", "NODE_AUTH_TOKEN", "NPM_AUTH_TOKEN"],
        "Authorization: Bearer {}",
        T_NPM,
        True,
    ),
    (
        "pypi_token",
        _mk(_pypi),
        ["PYPI_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN", "POETRY_PYPI_TOKEN_PYPI"],
        None,
        T_PYPI,
        True,
    ),
    ("fly_api_token", _mk(_fly), ["FLY_API_TOKEN", "FLY_ACCESS_TOKEN"], "Authorization: {}", T_FLY, True),
    ("twilio_auth_token", _mk(_twilio), ["TWILIO_AUTH_TOKEN", "TWILIO_TOKEN"], None, T_TWILIO, True),
    (
        "sendgrid_api_key",
        _mk(_sendgrid),
        ["SENDGRID_API_KEY", "SG_API_KEY", "EMAIL_API_KEY"],
        "Authorization: Bearer {}",
        T_SENDGRID,
        True,
    ),
    ("db_connection_password", _mk_db, _names_db, None, T_DB, True),
    ("url_basic_auth_password", _mk_basic_url, _names_url, None, T_BASIC_URL, True),
    ("private_key_pem", _mk_pem, [], None, [_pem_tpl_raw], False),
    ("private_key_pem_json_escaped", _mk_pem_escaped, [], None, [_pem_tpl_escaped], False),
    (
        "docker_registry_auth",
        _mk_docker_auth,
        ["REGISTRY_AUTH", "DOCKER_AUTH", "REGISTRY_BASIC_AUTH"],
        "Authorization: Basic {}",
        T_DOCKER,
        True,
    ),
    ("password", lambda r: (lambda p: (p, p))(_password(r)), PW_NAMES, None, T_PASSWORD, True),
    ("passphrase", lambda r: (lambda p: (p, p))(_passphrase(r)), PP_NAMES, None, T_PASSPHRASE, True),
    (
        "generic_api_key",
        _mk(_generic_key),
        ["API_KEY", "PARTNER_API_KEY", "SEARCH_API_KEY", "INTERNAL_API_KEY", "WEATHER_API_KEY", "X_API_KEY"],
        "X-Api-Key: {}",
        T_GENERIC_KEY,
        True,
    ),
    (
        "hex_secret",
        _mk(_hex_secret),
        ["SECRET_KEY", "SESSION_SECRET", "JWT_SECRET", "WEBHOOK_SECRET", "ENCRYPTION_KEY", "DD_API_KEY", "APP_SECRET"],
        None,
        T_HEX,
        True,
    ),
    (
        "oauth_client_secret",
        _mk(_client_secret),
        ["CLIENT_SECRET", "OAUTH_CLIENT_SECRET", "AZURE_CLIENT_SECRET", "GOOGLE_CLIENT_SECRET", "AUTH0_CLIENT_SECRET"],
        None,
        T_CLIENT_SECRET,
        True,
    ),
    (
        "oauth_refresh_token",
        _mk(_refresh),
        ["REFRESH_TOKEN", "GOOGLE_REFRESH_TOKEN", "OAUTH_REFRESH_TOKEN"],
        None,
        T_REFRESH,
        True,
    ),
    ("reset_or_invite_link_token", _mk_reset, ["RESET_LINK", "INVITE_URL", "MAGIC_LINK"], None, T_RESET, False),
    ("vault_token", _mk(_vault), ["VAULT_TOKEN"], "X-Vault-Token: {}", T_VAULT, True),
    (
        "terraform_cloud_token",
        _mk(_tfc),
        ["TFE_TOKEN", "TF_API_TOKEN", "TF_TOKEN_app_terraform_io"],
        "Authorization: Bearer {}",
        T_TFC,
        True,
    ),
    (
        "digitalocean_token",
        _mk(_do),
        ["DIGITALOCEAN_TOKEN", "DO_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN"],
        "Authorization: Bearer {}",
        T_DO,
        True,
    ),
    ("telegram_bot_token", _mk(_telegram), ["TELEGRAM_BOT_TOKEN", "TG_TOKEN", "BOT_TOKEN"], None, T_TELEGRAM, True),
    (
        "discord_bot_token",
        _mk(_discord),
        ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"],
        "Authorization: Bot {}",
        T_DISCORD,
        True,
    ),
    (
        "shopify_access_token",
        _mk(_shopify),
        ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"],
        "X-Shopify-Access-Token: {}",
        T_SHOPIFY,
        True,
    ),
]


def _reset_extra(r, c, s, n):
    """More placements for invite/reset links (this kind has no env-var form)."""
    d = _domain(r)
    return r.choice(
        [
            f"[{_time(r)}] {_user(r)}: here's your invite, the link only works once: {c}",
            f'read_file("tmp/mail/{_hex(r, 12)}.eml") ->\n...\nContent-Type: text/plain\n\nVerify your address: {c}\n',
            f"E2E run log: cy.visit('{c}')  ✔ password updated",
            f"Redefina sua senha pelo link: {c} (válido por 24 horas).",
            f"招待メールのリンク（1回のみ有効）: {c}\n有効期限は30分です。",
            f"API response from POST https://api.{d}/v1/invitations:\n"
            + json.dumps(
                {"id": _uuid(r), "email": _user(r) + "@" + d, "accept_url": c, "expires_in": 604800}, indent=2
            ),
            f"Support ticket #{r.randint(1000, 99999)}: user cannot log in; generated a one-time login link for them: {c}",
        ]
    )


def _positives(r):
    out = []
    for kind, maker, names, header, specific, use_generic in KINDS:
        gens = [g for g in GENERIC if (g not in NEEDS_HEADER or header)]
        r.shuffle(gens)
        spec = list(specific)
        if kind == "reset_or_invite_link_token":
            spec = spec + [_reset_extra] * 5
        r.shuffle(spec)
        n_spec = PER_KIND if not use_generic else min(PER_KIND, max(10, len(spec) + 4))
        seen = set()
        i = tries = 0
        while i < PER_KIND and tries < PER_KIND * 20:
            tries += 1
            c, s = maker(r)
            cand = names(c) if callable(names) else names
            if i < n_spec:
                tpl = spec[i % len(spec)]
                text = tpl(r, c, s, r.choice(cand) if cand else "")
            else:
                g = gens[(i - n_spec) % len(gens)]
                text = g(r, r.choice(cand), c, header)
            if s not in text or text in seen:
                continue
            seen.add(text)
            out.append((text, kind, s))
            i += 1
    return out


# --------------------------------------------------------------------------
# lookalikes: no credential anywhere in the text
# --------------------------------------------------------------------------

SECRET_VARS = [
    "FLY_API_TOKEN",
    "STRIPE_SECRET_KEY",
    "OPENAI_API_KEY",
    "DATABASE_URL",
    "GITHUB_TOKEN",
    "SLACK_WEBHOOK_URL",
    "ANTHROPIC_API_KEY",
    "AWS_SECRET_ACCESS_KEY",
    "NPM_TOKEN",
    "SENTRY_AUTH_TOKEN",
    "DB_PASSWORD",
    "JWT_SECRET",
    "HF_TOKEN",
    "TWILIO_AUTH_TOKEN",
    "VAULT_TOKEN",
    "DIGITALOCEAN_TOKEN",
]


def _sv(r):
    return r.choice(SECRET_VARS)


def _gha_ref(name):
    return "${{ secrets." + name + " }}"


def la_summary_no_value(r):
    n, p = _sv(r), _proj(r)
    return r.choice(
        [
            f"Configured the deploy: added {n} as a repository secret with `gh secret set {n}` (value pasted by {_user(r)} from the dashboard, not stored here).",
            f"Session summary for {p}: the CI failure was a missing {n}. I asked {_user(r)} to add it in Settings -> Secrets -> Actions; re-run is green.",
            f"Set up {n} in Doppler (project {p}, config prd). The app reads it at boot; nothing was written to disk.",
            f"Rotated {n} after the incident. New value lives only in AWS Secrets Manager under {p}/{_env(r)}/{_lower(n)}.",
            f"Did NOT commit {n}; added `.env` to .gitignore and documented the variable in README under 'Configuration'.",
        ]
    )


def la_tool_env_ref(r):
    n = _sv(r)
    cmd = r.choice(
        [
            f'curl -sf -H "Authorization: Bearer ${n}" https://api.{_domain(r)}/v1/health',
            f'fly deploy -a {_proj(r)} --access-token "$FLY_API_TOKEN"',
            f'test -n "${n}" && echo set || echo missing',
            f"printenv | grep -c {n}",
            f"docker run --rm -e {n} ghcr.io/{_org(r)}/{_proj(r)}:latest",
        ]
    )
    res = r.choice(["set", "1", "ok", '{"status":"ok"}', "missing"])
    return (
        json.dumps({"tool": "run_shell", "arguments": {"command": cmd}})
        + "\n"
        + json.dumps({"exit_code": 0, "stdout": res})
    )


def la_tool_secret_manager(r):
    p, e = _proj(r), _env(r)
    cmd = r.choice(
        [
            f"aws secretsmanager get-secret-value --secret-id {p}/{e}/db --query SecretString --output text > /dev/null",
            f"gcloud secrets versions access latest --secret={p}-api-key | wc -c",
            f"op read 'op://Engineering/{p}/credential' | wc -c",
            f"vault kv get -field=password secret/{p}/{e} >/dev/null && echo ok",
        ]
    )
    return "tool_call run_shell: {}\nresult: exit 0 ({})".format(
        cmd, r.choice(["output suppressed", "41", "ok", "64", "value not echoed"])
    )


def la_diff_to_vault(r):
    n = _sv(r)
    old_new = r.choice(
        [
            (f"  password: ${{{n}}}", f'  password: {{{{ vault "secret/data/{_proj(r)}" "password" }}}}'),
            ("{}={}".format(n, "<paste here>"), f"{n}=op://{_org(r)}/{_proj(r)}/credential"),
            (f'api_key = os.environ["{n}"]', f'api_key = secrets_client.get("{_proj(r)}/{_lower(n)}")'),
            (f"      {n}: ${{{{ secrets.{n} }}}}", f"      {n}: ${{{{ steps.vault.outputs.{_lower(n)} }}}}"),
        ]
    )
    return f"diff --git a/deploy/config.yaml b/deploy/config.yaml\n@@ -{r.randint(2, 90)},3 +{r.randint(2, 90)},3 @@\n-{old_new[0]}\n+{old_new[1]}"


def la_masked_cli(r):
    return f"$ aws configure list\n      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n   profile                {_proj(r):<12}      manual    --profile\naccess_key     ****************{_s(r, 4, UPPER + DIGITS)}   shared-credentials-file\nsecret_key     ****************{_s(r, 4, ALNUM)}   shared-credentials-file\n    region                {_region(r)}      config-file    ~/.aws/config"


def la_masked_gh_status(r):
    return "$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account {} (keyring)\n  - Active account: true\n  - Git operations protocol: https\n  - Token: {}{}\n  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'".format(
        _user(r), "gh" + r.choice(["o", "p"]) + "_", "*" * 36
    )


def la_masked_errors(r):
    tail = _s(r, 4, ALNUM)
    return r.choice(
        [
            "openai.AuthenticationError: Error code: 401 - Incorrect API key provided: sk-proj-"
            + "*" * 20
            + tail
            + ". You can find your API key at https://platform.openai.com/account/api-keys.",
            "Stripe::AuthenticationError: Invalid API Key provided: sk_" + "live_" + "*" * 20 + tail,
            "Using token " + "x" + "oxb-" + "*" * 10 + " for workspace " + _org(r),
            "AWS_SECRET_ACCESS_KEY=" + "*" * 40 + " (masked by the CI runner)",
            "env: DATABASE_URL=postgres://app:" + "*" * 8 + "@" + _dbhost(r) + ":5432/" + _proj(r).replace("-", "_"),
        ]
    )


def la_redacted_token_response(r):
    return r.choice(
        [
            json.dumps(
                {"access_token": "[REDACTED]", "token_type": "Bearer", "expires_in": 3600, "scope": "read write"}
            ),
            json.dumps({"ok": True, "access_token": "<redacted>", "team": {"id": "T" + _s(r, 8, UPPER + DIGITS)}}),
            "OAuth token exchange succeeded (access_token: ***, refresh_token: ***, expires_in: 3599). Stored via keyring.",
        ]
    )


def la_git_sha_words(r):
    u = _user(r)
    return "commit {}\nAuthor: {} <{}@{}>\nDate:   {}\n\n    {}".format(
        _hex(r, 40),
        u.title(),
        u,
        _domain(r),
        _date(r),
        r.choice(
            [
                "fix: token refresh race on cold start",
                "feat: rotate API keys via scheduled job",
                "chore: remove hardcoded secret from tests",
                "refactor: password reset flow uses signed links",
                "docs: explain where the deploy key lives",
            ]
        ),
    )


def la_sha256sum(r):
    f = r.choice(
        [
            "secrets-cli_2.4.1_linux_amd64.tar.gz",
            "vault_1.17.2_linux_arm64.zip",
            "token-bucket-0.3.0.tgz",
            "keycloak-25.0.1.zip",
        ]
    )
    return r.choice(
        [
            f"$ sha256sum {f}\n{_hex(r, 64)}  {f}",
            f"Verified checksum of {f}: sha256 {_hex(r, 64)} (matches SHA256SUMS)",
            "{}  {}\n{}  {}".format(_hex(r, 64), f, _hex(r, 64), f.replace("amd64", "arm64")),
        ]
    )


def la_npm_integrity(r):
    pkg = r.choice(["jsonwebtoken", "passport-jwt", "keytar", "dotenv", "secure-password", "oauth4webapi"])
    ver = f"{r.randint(1, 9)}.{r.randint(0, 9)}.{r.randint(0, 20)}"
    return (
        f'"node_modules/{pkg}": {{\n  "version": "{ver}",\n  "resolved": "https://registry.npmjs.org/{pkg}/-/{pkg}-{ver}.tgz",\n'
        f'  "integrity": "sha512-{_b64(r, 64)}"\n}}'
    )


def la_go_sum(r):
    mod = r.choice(
        [
            "github.com/golang-jwt/jwt/v5",
            "golang.org/x/oauth2",
            "github.com/hashicorp/vault/api",
            "github.com/aws/aws-sdk-go-v2/credentials",
        ]
    )
    major = mod.rsplit("/v", 1)[1] if mod.endswith("/v5") else "0"
    v = f"v{major}.{r.randint(1, 30)}.{r.randint(0, 9)}"
    return f"{mod} {v} h1:{_b64(r, 32)}\n{mod} {v}/go.mod h1:{_b64(r, 32)}"


def la_pip_hashes(r):
    pkg = r.choice(["cryptography", "pyjwt", "keyring", "passlib", "authlib"])
    return f"{pkg}=={r.randint(1, 44)}.{r.randint(0, 9)}.{r.randint(0, 5)} \\\n    --hash=sha256:{_hex(r, 64)} \\\n    --hash=sha256:{_hex(r, 64)}"


def la_docker_digest(r):
    return r.choice(
        [
            f"image: ghcr.io/{_org(r)}/{_proj(r)}@sha256:{_hex(r, 64)}",
            f"Pushed {_proj(r)}:{r.randint(1, 300)} digest: sha256:{_hex(r, 64)} size: {r.randint(1000, 9999)}",
            f"FROM node:20-alpine@sha256:{_hex(r, 64)}",
        ]
    )


def la_uuid_ids(r):
    return r.choice(
        [
            f"request_id={_uuid(r)} trace_id={_hex(r, 32)} span_id={_hex(r, 16)} status=200",
            f"Idempotency-Key: {_uuid(r)}\nX-Request-Id: {_uuid(r)}",
            f"Created workspace {_uuid(r)} (owner {_user(r)}), api key will be issued by the admin.",
        ]
    )


def la_build_ids(r):
    return r.choice(
        [
            f"CI run https://github.com/{_org(r)}/{_proj(r)}/actions/runs/{_digits(r, 10)}/job/{_digits(r, 11)} failed at step 'Configure secrets'",
            f"CodeBuild build {_proj(r)}-build:{_uuid(r)} SUCCEEDED in 4m12s",
            f"Build #{r.randint(100, 9999)} ({_hex(r, 7)}), artifact id {_digits(r, 10)}",
        ]
    )


def _ssh_pub(r):
    raw = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + _bytes(r, 32)
    return "ssh-ed25519 " + base64.b64encode(raw).decode()


def la_ssh_pubkey(r):
    return r.choice(
        [
            f"Added this deploy key (read-only) to {_org(r)}/{_proj(r)}:\n{_ssh_pub(r)} deploy@{_proj(r)}",
            f"# ~/.ssh/authorized_keys\n{_ssh_pub(r)} {_user(r)}@laptop\n{_ssh_pub(r)} ci@runner",
            f"Public key to paste into GitHub -> Settings -> SSH keys: {_ssh_pub(r)} {_user(r)}",
        ]
    )


def _armor(label, body, width=64):
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    return "\n".join([DASH5 + "BEGIN " + label + DASH5, *lines, DASH5 + "END " + label + DASH5])


def la_pem_public(r):
    body = base64.b64encode(bytes.fromhex("30820122300d06092a864886f70d01010105000382010f00") + _bytes(r, 270)).decode()
    return r.choice(
        [
            "JWT verification key (public, safe to share):\n" + _armor("PUBLIC KEY", body),
            "Saved the webhook provider's public key to config/webhook_pub.pem:\n" + _armor("PUBLIC KEY", body),
        ]
    )


def la_certificate(r):
    body = base64.b64encode(bytes.fromhex("308203") + _bytes(r, r.choice([700, 760, 820]))).decode()
    return r.choice(
        [
            "Corporate root CA (add to the trust store in the Dockerfile):\n" + _armor("CERTIFICATE", body),
            f"$ openssl s_client -connect api.{_domain(r)}:443 -showcerts </dev/null 2>/dev/null | sed -n '/BEGIN/,/END/p'\n"
            + _armor("CERTIFICATE", body),
        ]
    )


def la_placeholders(r):
    return r.choice(
        [
            "# .env.example\nOPENAI_API_KEY=your-api-key-here\nDATABASE_URL=postgres://USER:PASSWORD@localhost:5432/DBNAME\nSTRIPE_SECRET_KEY=<your-stripe-secret-key>",
            "GITHUB_TOKEN=<token>\nSLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ",
            f'api_key: "${{API_KEY}}"  # set in {_env(r)} environment',
            "Replace `YOUR_TOKEN_HERE` in config.toml with the token from the dashboard.",
            'export ANTHROPIC_API_KEY="sk-ant-..."  # from console, do not commit',
            'password: "********"\nusername: "<admin user>"',
            "AWS_ACCESS_KEY_ID=AKIA" + "X" * 16 + "\nAWS_SECRET_ACCESS_KEY=" + "x" * 40,
        ]
    )


def la_aws_doc_example(r):
    kid = "AK" + "IAIOSFODNN7" + "EXAMPLE"
    sec = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKEY"
    return r.choice(
        [
            f"The AWS docs use {kid} / {sec} as the example key pair; our test fixture copies those, they are not real.",
            f"# from the boto3 docs\n[default]\naws_access_key_id = {kid}\naws_secret_access_key = {sec}",
            f"moto tests: credentials are set to the documented example id {kid}.",
        ]
    )


def la_nonce_salt_docs(r):
    return r.choice(
        [
            f"Docs note: each record uses a fresh 96-bit nonce for AES-GCM, e.g. nonce={_hex(r, 24)} (hex). The key itself comes from KMS.",
            f"Password hashing: argon2id, m=65536, t=3, p=4, 16-byte random salt (example salt {_hex(r, 32)}). Never store plaintext.",
            f"CSP header uses a per-request nonce like 'nonce-{_b64(r, 16)}'; generated in middleware.",
            f"PKCE: code_challenge={_b64u(_bytes(r, 32))} code_challenge_method=S256 state={_hex(r, 16)}",
        ]
    )


def la_feature_flags(r):
    return r.choice(
        [
            "feature_flags:\n  enable_token_refresh_v2: true\n  use_api_key_rotation: false\n  password_less_login: {}".format(
                r.choice(["true", "false"])
            ),
            f"Flipped FF_SECRET_SCANNING_PUSH_PROTECTION on for {_proj(r)} ({r.choice([5, 10, 25, 50])}% rollout).",
            f"LaunchDarkly flag `auth.new-session-key-format` -> serving variation B to {_env(r)}",
        ]
    )


def la_llm_tokens(r):
    pt, ct = r.randint(200, 60000), r.randint(20, 4000)
    return r.choice(
        [
            json.dumps(
                {
                    "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
                    "model": "gpt-4o-mini",
                }
            ),
            f"Context budget: {pt} tokens used of 200k; summarised older turns to free ~{ct} tokens.",
            f"Set max_tokens={r.choice([512, 1024, 4096])} and temperature=0.2 for the summariser; input_tokens averaged {pt}.",
        ]
    )


def la_tokenizer(r):
    ids = ", ".join(str(r.randint(10, 100000)) for _ in range(r.randint(6, 12)))
    return r.choice(
        [
            f'>>> enc = tiktoken.get_encoding("cl100k_base")\n>>> enc.encode("secret key rotation")\n[{ids}]',
            f"tokenizer output: ['▁The', '▁api', '_', 'key', '▁is', '▁missing'] -> ids [{ids}]",
            f"BPE merges: ('t', 'oken') -> 'token'; vocab size 50257; pad token id {r.randint(0, 50256)}",
        ]
    )


def la_map_key(r):
    k = r.choice(["user_id", "api_key", "token", "password", "secret_name"])
    return r.choice(
        [
            f"Traceback (most recent call last):\n  File \"app.py\", line {r.randint(10, 300)}, in handler\n    uid = payload['{k}']\nKeyError: '{k}'",
            "for key, value in headers.items():\n    if key.lower() in ('authorization', 'cookie'):\n        value = '[filtered]'",
            "Redis key layout: session:{{user_id}}:meta, ratelimit:{{api_key_id}}:{{minute}}",
            "dict has no key 'token' when the provider returns an error; handle with .get()",
        ]
    )


def la_test_pass(r):
    p = r.randint(50, 900)
    return r.choice(
        [
            f"===== {p} passed, {r.randint(0, 9)} skipped in {r.uniform(3, 90):.2f}s =====",
            f"PASS src/auth/token.test.ts\nPASS src/auth/password.test.ts\nTests: {p} passed, {p} total",
            "All checks pass: test_password_reset, test_api_key_scopes, test_token_expiry.",
            "class DummyVault:\n    def rotate(self):\n        pass",
        ]
    )


def la_password_policy(r):
    return r.choice(
        [
            "Password policy: minimum 12 characters, no reuse of the last 5 passwords, lockout after 10 failed attempts.",
            "Decision: drop the password complexity rules, use zxcvbn score >= 3 and check against HaveIBeenPwned k-anonymity API.",
            "Passwort-Richtlinie: mindestens 14 Zeichen, Passkeys werden bevorzugt.",
        ]
    )


def la_env_table(r):
    rows = "\n".join(
        "| {} | {} | {} |".format(
            n,
            r.choice(["GitHub Actions secret", f"Vault kv/{_proj(r)}", "Doppler prd", "SSM Parameter Store"]),
            r.choice(["yes", "no"]),
        )
        for n in r.sample(SECRET_VARS, 4)
    )
    return "| Variable | Stored in | Rotated quarterly |\n|---|---|---|\n" + rows


def la_secret_refs(r):
    return r.choice(
        [
            f"arn:aws:secretsmanager:{_region(r)}:{_acct(r)}:secret:{_proj(r)}/{_env(r)}/db-{_s(r, 6, ALNUM)}",
            f"projects/{_proj(r)}/secrets/{_proj(r)}-api-key/versions/{r.randint(1, 12)}",
            f"op://Engineering/{_proj(r)} {_env(r)}/password",
            f"https://kv-{_proj(r)}.vault.azure.net/secrets/{_proj(r)}-conn/{_hex(r, 32)}",
            f"ssm:/{_proj(r)}/{_env(r)}/STRIPE_SECRET_KEY (SecureString, KMS alias/app)",
        ]
    )


def la_secretkeyref(r):
    n = _sv(r)
    return f"env:\n  - name: {n}\n    valueFrom:\n      secretKeyRef:\n        name: {_proj(r)}-secrets\n        key: {_kebab(n)}"


def la_gha_ref(r):
    n = _sv(r)
    return f"    steps:\n      - uses: actions/checkout@v4\n      - run: ./deploy.sh\n        env:\n          {n}: {_gha_ref(n)}\n          ENVIRONMENT: {_env(r)}"


def la_gitlab_ref(r):
    return f'deploy:\n  script:\n    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"\n    - helm upgrade {_proj(r)} ./chart --set image.tag=$CI_COMMIT_SHORT_SHA'


def la_tf_sensitive(r):
    return r.choice(
        [
            'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
            f'$ terraform output\ndb_endpoint = "{_dbhost(r)}"\ndb_password = <sensitive>\napi_token = <sensitive>',
            "  # aws_db_instance.main will be updated in-place\n  ~ password = (sensitive value)\n    tags     = {}",
        ]
    )


def la_kubectl_secret(r):
    return f"$ kubectl -n {_env(r)} get secrets\nNAME                  TYPE                             DATA   AGE\n{_proj(r)}-env               Opaque                           {r.randint(2, 9)}      {r.randint(1, 300)}d\n{_proj(r)}-tls               kubernetes.io/tls                2      {r.randint(1, 300)}d"


def la_data_uri(r):
    raw = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _bytes(r, 60)
    return f'<img alt="key icon" src="data:image/png;base64,{base64.b64encode(raw).decode()}">'


def la_stripe_ids(r):
    return f"{_ts(r)} webhook received: type=payment_intent.succeeded id=evt_{_tok(r, 24)} customer=cus_{_tok(r, 14)} payment_intent=pi_{_tok(r, 24)} price=price_{_tok(r, 24)}"


def la_sts_identity(r):
    acct = _acct(r)
    return "$ aws sts get-caller-identity\n" + json.dumps(
        {
            "UserId": "AR" + "OA" + _s(r, 17, UPPER + DIGITS) + ":" + _user(r),
            "Account": acct,
            "Arn": "arn:aws:sts::" + acct + ":assumed-role/Developer/" + _user(r),
        },
        indent=4,
    )


def la_commit_rotate(r):
    return r.choice(
        [
            "chore(security): rotate leaked Slack webhook\n\nOld webhook revoked in Slack admin; the new one is read from SSM at runtime.",
            "fix: stop logging Authorization headers (redact in httpx event hook)",
            "revert: remove test credentials from fixtures, generate them in conftest instead",
            f"security: purge .env from history with git filter-repo; all affected keys were rotated on {_date(r)}",
        ]
    )


def la_log_token_events(r):
    return r.choice(
        [
            f"{_ts(r)} INFO auth: token refreshed user_id={r.randint(100, 99999)} expires_in=3600 token_id={_uuid(r)}",
            "{} WARN api key {} for org {} is 80 days old, rotation recommended".format(
                _ts(r), "key_" + _hex(r, 8), _org(r)
            ),
            f"{_ts(r)} INFO password changed for user {r.randint(100, 99999)} (session count revoked: {r.randint(0, 6)})",
        ]
    )


def la_http_headers(r):
    return f'HTTP/2 200\ncontent-type: application/json\netag: W/"{_hex(r, 32)}"\nx-request-id: {_uuid(r)}\ntraceparent: 00-{_hex(r, 32)}-{_hex(r, 16)}-01\ncache-control: no-store'


def la_reset_email_no_token(r):
    return r.choice(
        [
            f"Subject: Your password was changed\n\nHi {_user(r).title()},\n\nThe password for your account was changed on {_date(r)}. If this wasn't you, contact support.",
            "Reset email template renders `{{ reset_url }}`; the URL is built from a signed token at send time, expiring after 30 min.",
            "Invitation email copy updated: 'You've been invited to join {{ org_name }}. The link expires in 7 days.'",
        ]
    )


def la_code_env(r):
    n = _sv(r)
    return r.choice(
        [
            f'api_key = os.environ["{n}"]\nif not api_key:\n    raise RuntimeError("{n} is not set")',
            f"const token = process.env.{n};\nif (!token) throw new Error('missing {n}');",
            f'token := os.Getenv("{n}")',
            f'let key = std::env::var("{n}").expect("{n} must be set");',
        ]
    )


def la_dockerfile_secret_mount(r):
    base, sid, cmd = r.choice(
        [
            ("node:20-bookworm", "npmrc", "--mount=type=secret,id=npmrc,target=/root/.npmrc npm ci"),
            (
                "python:3.12-slim",
                "pip_conf",
                "--mount=type=secret,id=pip_conf,target=/etc/pip.conf pip install -r requirements.txt",
            ),
            ("golang:1.22", "netrc", "--mount=type=secret,id=netrc,target=/root/.netrc go mod download"),
        ]
    )
    return (
        "# syntax=docker/dockerfile:1.7\nFROM {}\nWORKDIR /src/{}\nRUN {}\nARG BUILD_SHA={}\nENV APP_ENV={}\n"
        "# build: docker build --secret id={},src=$HOME/.{} ."
    ).format(base, _proj(r), cmd, _hex(r, 7), _env(r), sid, sid.replace("_", "."))


def la_compose_env(r):
    return (
        f"services:\n  db:\n    image: postgres:{r.choice([14, 15, 16, 17])}\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/pg_password\n    secrets: [pg_password]\n"
        f"  {_proj(r)}:\n    env_file: .env\n    environment:\n      - DATABASE_URL\n      - {_sv(r)}=${{{_sv(r)}:?set it in .env}}\nsecrets:\n  pg_password:\n    file: ./secrets/pg_password.txt"
    )


def la_helm_existing(r):
    return f"postgresql:\n  auth:\n    existingSecret: {_proj(r)}-pg-credentials\n    secretKeys:\n      adminPasswordKey: postgres-password\n      userPasswordKey: password"


def la_kubeconfig_exec(r):
    return f'users:\n- name: {_proj(r)}\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: ["eks", "get-token", "--cluster-name", "{_proj(r)}", "--region", "{_region(r)}"]'


def la_gcloud_list(r):
    return f"$ gcloud auth list\n   Credentialed Accounts\nACTIVE  ACCOUNT\n*       {_user(r)}@{_domain(r)}\n        deployer@{_proj(r)}-{r.randint(100000, 999999)}.iam.gserviceaccount.com"


def la_az_show(r):
    return "$ az account show\n" + json.dumps(
        {
            "environmentName": "AzureCloud",
            "id": _uuid(r),
            "isDefault": True,
            "name": _proj(r),
            "tenantId": _uuid(r),
            "user": {"name": _user(r) + "@" + _domain(r), "type": "user"},
        },
        indent=2,
    )


def la_notebook_getpass(r):
    return f'In [1]: from getpass import getpass\n   ...: os.environ["{_sv(r)}"] = getpass("API key: ")\nAPI key: ········\n\nIn [2]: client = make_client()'


def la_history_safe(r):
    i = r.randint(100, 1900)
    return f"  {i}  read -rs DB_PASSWORD && export DB_PASSWORD\n  {i + 1}  export GITHUB_TOKEN=$(op read op://dev/github/token)\n  {i + 2}  vault kv get -field=token secret/{_proj(r)}\n  {i + 3}  unset DB_PASSWORD"


def la_ide_settings(r):
    return ".vscode/settings.json:\n" + json.dumps(
        {
            "editor.tabSize": r.choice([2, 4]),
            "editor.fontSize": r.randint(11, 16),
            "files.exclude": {"**/.env": True},
            "python.envFile": "${workspaceFolder}/.env",
            "github.copilot.enable": {"*": True, "plaintext": False},
        },
        indent=2,
    )


def la_browser_storage(r):
    d = {
        "theme": "dark",
        "ajs_anonymous_id": _uuid(r),
        "lastProject": _proj(r),
        "onboardingDone": True,
        "tokenExpiryWarningDismissed": True,
    }
    return f"localStorage for https://app.{_domain(r)}:\n" + "\n".join(f"{k} = {json.dumps(x)}" for k, x in d.items())


def la_mobile_config(r):
    return "<key>CFBundleIdentifier</key>\n<string>io.{}.app</string>\n<key>API_BASE_URL</key>\n<string>https://api.{}/v2</string>\n<key>CFBundleVersion</key>\n<string>{}</string>".format(
        _proj(r).replace("-", ""), _domain(r), r.randint(100, 9999)
    )


def la_seed_no_pw(r):
    return '# seeds.py\nfor email in ["qa1@{0}", "qa2@{0}"]:\n    User.objects.create_user(email=email, password=os.environ["SEED_USER_PASSWORD"])'.format(
        _domain(r)
    )


def la_missing_env(r):
    n = _sv(r)
    return r.choice(
        [
            f"Error: Missing required environment variable {n}. Copy .env.example to .env and fill it in.",
            f"pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings\n{_lower(n)}\n  Field required [type=missing]",
            f"KeyError: '{n}'\n(hint: the worker pod does not mount the {_proj(r)}-env secret)",
        ]
    )


def la_auth_errors(r):
    return r.choice(
        [
            'HTTP 401 {"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}',
            "google.auth.exceptions.RefreshError: ('invalid_grant: Token has been expired or revoked.', {'error': 'invalid_grant'})",
            f"Error: 403 Forbidden - PUT https://registry.npmjs.org/{_proj(r)} - You do not have permission to publish.",
            f'psql: error: connection to server at "{_dbhost(r)}" failed: FATAL:  password authentication failed for user "app"',
        ]
    )


def la_sri(r):
    return '<script src="https://cdn.jsdelivr.net/npm/{}@{}.{}.{}/dist/index.min.js" integrity="sha384-{}" crossorigin="anonymous"></script>'.format(
        r.choice(["htmx.org", "alpinejs", "chart.js"]), r.randint(1, 4), r.randint(0, 9), r.randint(0, 9), _b64(r, 48)
    )


def la_lfs_pointer(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(r, 64)}\nsize {r.randint(10000, 90000000)}"


def la_push_protection(r):
    return (
        "remote: error: GH013: Repository rule violations found for refs/heads/main.\nremote: - GITHUB PUSH PROTECTION\nremote:   —— {} ——\nremote:     locations:\nremote:       - commit: {}\nremote:         path: {}:{}\n"
        "remote:     (?) To push, remove secret from commit(s) or follow this URL to allow the secret.\nremote:     https://github.com/{}/{}/security/secret-scanning/unblock-secret/{}"
    ).format(
        r.choice(["GitHub Personal Access Token", "Stripe API Key", "Slack Incoming Webhook URL"]),
        _hex(r, 40),
        r.choice([".env", "config/settings.py"]),
        r.randint(2, 60),
        _org(r),
        _proj(r),
        _tok(r, 27),
    )


def la_secret_regexes(r):
    return r.choice(
        [
            "Custom gitleaks rule:\n[[rules]]\nid = \"internal-api-key\"\nregex = '''"
            + "ik"
            + "_live_[0-9a-zA-Z]{32}'''",
            "pattern for GitHub PATs: `"
            + "gh"
            + "p_[A-Za-z0-9]{36}` and fine-grained `"
            + "github"
            + "_pat_[A-Za-z0-9_]{82}`",
            "Slack tokens match `" + "xox" + "[baprs]-[0-9A-Za-z-]{10,72}`",
        ]
    )


def la_jwks(r):
    n = _b64u(_bytes(r, 256))
    return f"GET https://{_domain(r)}/.well-known/jwks.json\n" + json.dumps(
        {"keys": [{"kty": "RSA", "kid": _tok(r, 22, B64URL), "use": "sig", "alg": "RS256", "n": n, "e": "AQAB"}]}
    )


def la_fingerprints(r):
    return r.choice(
        [
            "The authenticity of host 'git.{} ({}.{}.{}.{})' can't be established.\nED25519 key fingerprint is SHA256:{}.".format(
                _domain(r),
                r.randint(3, 200),
                r.randint(0, 255),
                r.randint(0, 255),
                r.randint(1, 254),
                _b64(r, 32).rstrip("="),
            ),
            'gpg: key {}: public key "{} <{}@{}>" imported\nPrimary key fingerprint: {}'.format(
                _hex(r, 16).upper(),
                _user(r).title(),
                _user(r),
                _domain(r),
                " ".join(_hex(r, 4).upper() for _ in range(10)),
            ),
            f"github.com {_ssh_pub(r)}",
        ]
    )


def la_pagination(r):
    return r.choice(
        [
            json.dumps({"items": [{"id": _uuid(r)}], "nextPageToken": _b64u(_bytes(r, 30))}),
            "Listing repos: page_token={} (cursor from the previous response)".format(
                _b64u(json.dumps({"after": r.randint(1000, 99999)}).encode())
            ),
            json.dumps({"data": [], "pagination": {"cursor": _b64u(_bytes(r, 18)), "has_more": False}}),
        ]
    )


def la_cache_keys(r):
    return r.choice(
        [
            f"Cache restored from key: node-modules-Linux-{_hex(r, 64)}",
            "- uses: actions/cache@v4\n  with:\n    path: ~/.cache/pip\n    key: ${{ runner.os }}-pip-${{ hashFiles('**/requirements.txt') }}",
            f"Idempotency key {_uuid(r)} reused -> returned cached response",
        ]
    )


def la_sql_keys(r):
    return r.choice(
        [
            "CREATE TABLE api_keys (\n  id uuid PRIMARY KEY,\n  org_id uuid REFERENCES orgs(id),\n  key_hash bytea NOT NULL,\n  last4 char(4),\n  created_at timestamptz\n);",
            "ALTER TABLE sessions ADD CONSTRAINT sessions_user_fk FOREIGN KEY (user_id) REFERENCES users(id);",
            "Primary key on (tenant_id, token_id); index on expires_at for the cleanup job.",
        ]
    )


def la_keybindings(r):
    return json.dumps(
        [
            {"key": r.choice(["ctrl+shift+p", "cmd+k cmd+s", "alt+enter"]), "command": "workbench.action.showCommands"},
            {"key": "ctrl+`", "command": "terminal.toggle"},
        ],
        indent=2,
    )


def la_i18n(r):
    loc, strings = r.choice(
        [
            ("en", ["Reset your password", "Your session expired", "Create API key", "Passwords do not match"]),
            (
                "de",
                [
                    "Passwort zurücksetzen",
                    "Ihre Sitzung ist abgelaufen",
                    "API-Schlüssel erstellen",
                    "Passwörter stimmen nicht überein",
                ],
            ),
            (
                "fr",
                [
                    "Réinitialiser le mot de passe",
                    "Votre session a expiré",
                    "Créer une clé API",
                    "Les mots de passe ne correspondent pas",
                ],
            ),
            (
                "ja",
                [
                    "パスワードをリセット",
                    "セッションの有効期限が切れました",
                    "APIキーを作成",
                    "パスワードが一致しません",
                ],
            ),
        ]
    )
    keys = ["auth.password.reset.title", "auth.token.expired", "settings.apiKeys.create", "auth.password.mismatch"]
    pick = r.sample(range(4), r.randint(2, 4))
    return f"locales/{loc}.json:\n" + json.dumps(
        {keys[i]: strings[i] for i in sorted(pick)}, ensure_ascii=False, indent=2
    )


def la_s3_keys(r):
    return f"$ aws s3api list-objects-v2 --bucket {_proj(r)}-backups --max-items 2\n" + json.dumps(
        {
            "Contents": [
                {"Key": f"db/{_date(r)}/dump.sql.gz", "ETag": '"' + _hex(r, 32) + '"', "Size": r.randint(1000, 9999999)}
            ]
        },
        indent=2,
    )


def la_kms_ids(r):
    return f"KMS key for envelope encryption: arn:aws:kms:{_region(r)}:{_acct(r)}:key/{_uuid(r)} (alias/{_proj(r)}-data). KeyId rotates yearly."


def la_azure_ids(r):
    return f"AZURE_CLIENT_ID={_uuid(r)}\nAZURE_TENANT_ID={_uuid(r)}\nAZURE_SUBSCRIPTION_ID={_uuid(r)}\n# auth via workload identity federation, no client secret"


def la_google_client_id(r):
    return f'Google Sign-In button: data-client_id="{_digits(r, 12)}-{_s(r, 32, LOWER + DIGITS)}.apps.googleusercontent.com" (public, safe in frontend)'


def la_rfc_vectors(r):
    return r.choice(
        [
            "RFC 4231 test case 1: Key = 0x"
            + "0b" * 20
            + ', Data = "Hi There", HMAC-SHA-256 = b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
            'RFC 4231 test case 2: Key = "Jefe", Data = "what do ya want for nothing?" -> 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
        ]
    )


def la_truncated_docs(r):
    return r.choice(
        [
            "Set `Authorization: Bearer <token>` on every request; tokens start with the vendor prefix and are shown once.",
            "Usage: mycli login --token TOKEN [--profile NAME]",
            f'curl -u "$USER:$PASSWORD" https://nexus.{_domain(r)}/service/rest/v1/status',
            "The key looks like `sk-...` followed by ~48 characters; never paste it into chat.",
        ]
    )


def la_lexer_tokens(r):
    return r.choice(
        [
            "SyntaxError: Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON",
            f"ParseError at line {r.randint(2, 400)}: unexpected token RBRACE, expected IDENT",
            "lexer emits tokens: IDENT(password) ASSIGN STRING EOL",
        ]
    )


def la_pass_words(r):
    return r.choice(
        [
            "Added a bypass for the rate limiter in local dev; passport-jwt strategy unchanged.",
            "Two-pass encoding for the video pipeline cut size by 18%.",
            f"Compass bearing util moved to geo/; all {r.randint(20, 300)} unit tests pass.",
            "Boarding pass PDF generator now uses WeasyPrint.",
        ]
    )


def la_key_words(r):
    return r.choice(
        [
            "Generated RSA keys must be 3072 bits or more; ed25519 preferred for SSH.",
            "The jingle is in the key of D minor, 96 bpm.",
            "Composite key (org_id, slug) must be unique.",
            "Keyboard shortcut: press the Esc key twice to clear the prompt.",
        ]
    )


def la_multilang(r):
    n = _sv(r)
    return r.choice(
        [
            f"Hinweis: {n} wurde rotiert; der neue Wert liegt im Vault unter secret/{_proj(r)}.",
            f"Note : la clé {n} est désormais lue depuis le gestionnaire de secrets, plus rien dans le dépôt.",
            f"{n} はシークレットマネージャーに移動しました。値はここに書きません。",
            f"Nota: el token {n} se inyecta en el pipeline; no lo pegues en el chat.",
            f"已把 {n} 移到 Vault。仓库里只保留变量名。",
        ]
    )


def la_decision_no_value(r):
    return r.choice(
        [
            "Decision: store the Stripe key in Doppler (project billing, config prd). Never echo it in logs; the agent should reference it as $STRIPE_SECRET_KEY only.",
            "Lesson: when a tool output shows a credential, redact it before saving to memory. Keep only the variable name and where it lives.",
            f"ADR-{r.randint(1, 120):03d}: use OIDC federation from GitHub Actions to AWS; no long-lived access keys in CI.",
        ]
    )


def la_sealed(r):
    return r.choice(
        [
            f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {_proj(r)}-env\nspec:\n  encryptedData:\n    DB_PASSWORD: Ag{_b64(r, 240)}",
            f"db_password: ENC[AES256_GCM,data:{_b64(r, 18)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]",
            "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(_hex(r, 80) for _ in range(4)),
        ]
    )


def la_twilio_ids(r):
    return f"Twilio setup: Account SID AC{_hex(r, 32)}, Messaging Service MG{_hex(r, 32)}, sender +1{_digits(r, 10)}. Auth token stays in Doppler."


def la_ci_pipeline_ids(r):
    return f"GitLab pipeline #{r.randint(10000, 9999999)} for {_proj(r)} (sha {_hex(r, 8)}) passed; job token scoped to this project, expires with the job."


def la_k8s_placeholders(r):
    return f"secretGenerator:\n- name: {_proj(r)}-env\n  envs:\n  - secrets.env   # not committed, see README\ngeneratorOptions:\n  disableNameSuffixHash: true"


def la_oauth_authorize(r):
    return f"Redirecting to https://accounts.google.com/o/oauth2/v2/auth?client_id={_digits(r, 12)}-{_s(r, 32, LOWER + DIGITS)}.apps.googleusercontent.com&redirect_uri=http%3A%2F%2Flocalhost%3A8085&response_type=code&scope=openid%20email&state={_hex(r, 20)}"


def la_version_hashes(r):
    return f"Release {r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 9)} built from {_hex(r, 40)} on {_date(r)}; SBOM digest sha256:{_hex(r, 64)}"


def la_hex_colors_misc(r):
    return r.choice(
        [
            f"--color-primary: #{_hex(r, 6)}; --color-accent: #{_hex(r, 6)};",
            "MAC address {}; serial {}".format(":".join(_hex(r, 2) for _ in range(6)), _s(r, 12, UPPER + DIGITS)),
        ]
    )


LOOKALIKE_GENERATORS = [
    la_summary_no_value,
    la_tool_env_ref,
    la_tool_secret_manager,
    la_diff_to_vault,
    la_masked_cli,
    la_masked_gh_status,
    la_masked_errors,
    la_redacted_token_response,
    la_git_sha_words,
    la_sha256sum,
    la_npm_integrity,
    la_go_sum,
    la_pip_hashes,
    la_docker_digest,
    la_uuid_ids,
    la_build_ids,
    la_ssh_pubkey,
    la_pem_public,
    la_certificate,
    la_placeholders,
    la_aws_doc_example,
    la_nonce_salt_docs,
    la_feature_flags,
    la_llm_tokens,
    la_tokenizer,
    la_map_key,
    la_test_pass,
    la_password_policy,
    la_env_table,
    la_secret_refs,
    la_secretkeyref,
    la_gha_ref,
    la_gitlab_ref,
    la_tf_sensitive,
    la_kubectl_secret,
    la_data_uri,
    la_stripe_ids,
    la_sts_identity,
    la_commit_rotate,
    la_log_token_events,
    la_http_headers,
    la_reset_email_no_token,
    la_code_env,
    la_dockerfile_secret_mount,
    la_compose_env,
    la_helm_existing,
    la_kubeconfig_exec,
    la_gcloud_list,
    la_az_show,
    la_notebook_getpass,
    la_history_safe,
    la_ide_settings,
    la_browser_storage,
    la_mobile_config,
    la_seed_no_pw,
    la_missing_env,
    la_auth_errors,
    la_sri,
    la_lfs_pointer,
    la_push_protection,
    la_secret_regexes,
    la_jwks,
    la_fingerprints,
    la_pagination,
    la_cache_keys,
    la_sql_keys,
    la_keybindings,
    la_i18n,
    la_s3_keys,
    la_kms_ids,
    la_azure_ids,
    la_google_client_id,
    la_rfc_vectors,
    la_truncated_docs,
    la_lexer_tokens,
    la_pass_words,
    la_key_words,
    la_multilang,
    la_decision_no_value,
    la_sealed,
    la_twilio_ids,
    la_ci_pipeline_ids,
    la_k8s_placeholders,
    la_oauth_authorize,
    la_version_hashes,
    la_hex_colors_misc,
]


def _lookalikes(r):
    gens = list(LOOKALIKE_GENERATORS)
    out, seen = [], set()
    i = tries = 0
    while len(out) < N_LOOKALIKES and tries < N_LOOKALIKES * 30:
        g = gens[i % len(gens)]
        i += 1
        tries += 1
        text = g(r)
        if text in seen:
            continue
        seen.add(text)
        out.append(text)
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    positives = _positives(r)
    lookalikes = _lookalikes(r)
    return positives, lookalikes


def _digest(seed):
    """Stable fingerprint of the output, for quick determinism checks."""
    pos, neg = generate(seed)
    h = hashlib.sha256()
    for t, k, s in pos:
        h.update((t + "\x00" + k + "\x00" + s + "\x01").encode())
    for t in neg:
        h.update((t + "\x02").encode())
    return h.hexdigest()


if __name__ == "__main__":
    p, n = generate(0)
    print(len(p), "positives,", len(n), "lookalikes, digest", _digest(0)[:16])
