"""Labelled test set U for a secret detector: data / ML team plus a small web & mobile agency.

Theme
    Short "memories" an AI coding agent keeps for a data and machine-learning team (Jupyter cells and
    outputs, Airflow connections and DAGs, dbt profiles, Spark/Databricks, Snowflake / BigQuery /
    Redshift / ClickHouse, MLflow, Weights & Biases, Hugging Face, Kaggle, Label Studio, vector
    databases, object storage, Slack alerts) and for a small agency doing client web and mobile work
    (WordPress, Shopify, Stripe / PayPal / Adyen, transactional mail, headless CMSs, Vercel / Netlify,
    Android signing, fastlane / App Store Connect, Firebase, SMS, analytics).  Styles are mixed: notes,
    lessons, TODOs and chat excerpts (English, Dutch, Polish, Italian, Turkish, Hindi in Latin script,
    Chinese), config and code (YAML, TOML, INI, .env, JSON, Python, R, SQL, PHP, Kotlin/Gradle, Swift,
    Terraform, notebook JSON) and tool output (CLI sessions, stack traces, CI logs, HTTP dumps).

Contract
    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
      positives:  list of (text, kind, secret); secret is an exact substring of text, stripped, without
                  surrounding quotes; exactly one secret per text; 30 positives per kind.
      lookalikes: texts with no credential at all; len == len(_LOOK) * LOOK_PER_GEN, each generator in
                  _LOOK contributes 12 distinct texts.
    Deterministic for a seed (a single random.Random(seed)); no duplicate text in the whole output.

Labelling conventions
    * Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs: the
      password only.  Pre-signed / signed URLs: the signature value (as it appears, URL-encoded).
    * PEM / OpenSSH private keys: the whole armoured block, BEGIN line to END line.  Inside a service
      account JSON file the block appears with JSON "\\n" escapes and is labelled exactly as it appears.
    * UUID-shaped vendor tokens are secrets only when the text names them as a token / key / secret.
    * Public-by-design values are look-alikes: publishable keys, anon keys, site keys, Sentry DSNs,
      OAuth client ids, Firebase web apiKeys, search-only keys, public certificates, project tokens.
      Vendor documentation example values, encrypted blobs (Ansible vault, sops ENC[...], PGP, age,
      sealed secrets) and password hashes (bcrypt, argon2, pbkdf2, sha512-crypt) are look-alikes.
    * Bare AWS access key ids are left out entirely (neither positive nor look-alike).
    * Every token-shaped value is assembled at run time from pieces and random bodies; no real-looking
      token literal is present in this source file.

Contents
    90 kinds x 30 positives (databases and warehouses via passwords and connection strings, ML platform
    tokens, cloud storage keys and signed URLs, chat webhooks and bot tokens, dev-platform tokens,
    payments, mail, CMS, SMS, app secrets, Android / iOS signing material, PEM / OpenSSH private keys,
    GCP service-account JSON).  Surrounding text comes from ~45 generic templates (notes in seven
    languages, chat, e-mail, standups, postmortems, config files in many formats, CLI sessions, CI logs,
    stack traces, HTTP dumps) plus kind-specific templates.  143 look-alike generators.

Left out on purpose (ambiguous)
    Google "AIza" keys other than Firebase web config (same shape, secrecy depends on restrictions);
    Microsoft Teams webhook URLs (no single final secret token); "Authorization: Basic" headers (the
    secret is a base64 of user:password); random Stripe test-mode secret keys; Jupyter kernel
    connection-file HMAC keys; session cookies and CSRF tokens; Contentful delivery / preview tokens and
    Segment write keys (semi-public); AWS access key ids anywhere, including X-Amz-Credential in
    pre-signed URLs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid

LOOK_PER_GEN = 12
PER_KIND = 30

LO = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
HEX = "0123456789abcdef"
ALNUM = LO + UP + DIG
LETTERS = LO + UP
B64URL = ALNUM + "-_"
B64 = ALNUM + "+/"
UPNUM = UP + DIG
LONUM = LO + DIG


def s(r, alpha, n):
    return "".join(r.choice(alpha) for _ in range(n))


def hx(r, n):
    return s(r, HEX, n)


def uid(r):
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def b64u(raw):
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def rbytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


CLIENTS = [
    "bakkerij-devries",
    "modehuis-amstel",
    "trattoria-bellini",
    "kawiarnia-krakow",
    "istanbul-kebap",
    "dhaba-express",
    "lotus-tea",
    "fietsplan",
    "ortofrutta",
    "ceramika-zofia",
    "nordlicht-yoga",
    "sahil-otel",
    "greenleaf-dental",
    "vino-veritas",
    "kapsalon-noor",
]
PROJECTS = [
    "churn-model",
    "demand-forecast",
    "recsys-v2",
    "lead-scoring",
    "shop-redesign",
    "loyalty-app",
    "etl-nightly",
    "ab-dashboard",
    "invoice-ocr",
    "review-sentiment",
    "price-elasticity",
    "booking-app",
]
PEOPLE = [
    "anna",
    "bram",
    "kasia",
    "luca",
    "emre",
    "priya",
    "wei",
    "joost",
    "marta",
    "giulia",
    "arjun",
    "mei",
    "sven",
    "ozge",
    "tomasz",
]
ENVS = ["dev", "staging", "prod", "qa", "preview"]
REGIONS = [
    "eu-west-1",
    "eu-central-1",
    "us-east-1",
    "europe-west4",
    "westeurope",
    "ap-south-1",
]
WORDS = [
    "tulip",
    "rover",
    "harbor",
    "maple",
    "falcon",
    "pepper",
    "orbit",
    "canal",
    "lantern",
    "mosaic",
    "velvet",
    "granite",
    "pixel",
    "saffron",
    "gondola",
    "pierogi",
    "simit",
    "bicycle",
    "dune",
    "kettle",
    "meadow",
    "quartz",
    "ripple",
    "tundra",
    "walnut",
    "zephyr",
    "biscotti",
    "monsoon",
    "lychee",
    "windmill",
]
SEASONS = [
    "Summer",
    "Winter",
    "Autumn",
    "Spring",
    "Welkom",
    "Haslo",
    "Estate",
    "Bahar",
    "Monsoon",
]


def date(r):
    return f"2026-{r.randint(1, 11):02d}-{r.randint(1, 28):02d}"


def ts(r):
    return f"{date(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"


def hm(r):
    return f"{r.randint(8, 19):02d}:{r.randint(0, 59):02d}"


def password(r, url_safe=False):
    sym = "-_.~!*" if url_safe else "!#$^&*-_.+=~?@"
    st = r.randrange(6)
    if st == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice(sym)}"
    if st == 1:
        w1, w2 = r.sample(WORDS, 2)
        return f"{w1}-{w2.capitalize()}-{r.randint(10, 99)}"
    if st == 2:
        return s(r, ALNUM, r.randint(8, 14)) + r.choice(sym) + s(r, ALNUM, r.randint(4, 9))
    if st == 3:
        sep = r.choice(["-", ".", "_"]) if url_safe else r.choice(["-", ".", " ", "_"])
        return sep.join(r.sample(WORDS, r.randint(4, 5)))
    if st == 4:
        leet = {"a": "4", "e": "3", "i": "1", "o": "0"}
        w = r.choice(WORDS)
        w = "".join(leet.get(ch, ch) if r.random() < 0.6 else ch for ch in w)
        return w.capitalize() + r.choice(sym) + s(r, UPNUM, r.randint(3, 5))
    return s(r, ALNUM, r.randint(20, 32))


def _wrap(body, n):
    return "\n".join(body[i : i + n] for i in range(0, len(body), n))


DASH5 = "-" * 5


def armour(label, body, width=64):
    return f"{DASH5}BEGIN {label}{DASH5}\n{_wrap(body, width)}\n{DASH5}END {label}{DASH5}"


PK = "PRIVATE" + " KEY"


def rsa_pem(r):
    head = b"0\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00"
    body = base64.b64encode(head + rbytes(r, 1180)).decode()
    return armour("RSA " + PK, body)


def pkcs8_pem(r):
    head = b"0\x82\x04\xbd\x02\x01\x000\r\x06\t*\x86H\x86\xf7\r\x01\x01\x01\x05\x00\x04\x82\x04\xa7"
    body = base64.b64encode(head + rbytes(r, 1190)).decode()
    return armour(PK, body)


def ec_p8_pem(r):
    head = (
        b"0\x81\x93\x02\x01\x000\x13\x06\x07*\x86H\xce=\x02\x01\x06\x08*\x86H\xce=\x03\x01\x07\x04y0w\x02\x01\x01\x04 "
    )
    body = base64.b64encode(head + rbytes(r, 150 - len(head))).decode()
    return armour(PK, body)


def openssh_pem(r):
    head = (
        b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
        b"\x00\x00\x003\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 "
    )
    body = base64.b64encode(head + rbytes(r, 300 - len(head))).decode()
    return armour("OPENSSH " + PK, body, 70)


def jwt(r, payload, sig_len=43):
    h = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{h}.{p}.{s(r, B64URL, sig_len)}"


# ---------------------------------------------------------------------------------------------------
# Generic surrounding templates: t(r, c) -> text.  c holds var, key, label, p (payload), client, ...
# ---------------------------------------------------------------------------------------------------

CMDS = [
    ("python train.py --epochs 3", "epoch 1/3 loss=0.412 val_auc=0.871"),
    (
        "dbt run --select staging",
        "Completed successfully. Done. PASS=14 WARN=0 ERROR=0 SKIP=0 TOTAL=14",
    ),
    (
        "airflow dags test etl_nightly 2026-11-02",
        "Marking task as SUCCESS. dag_id=etl_nightly",
    ),
    ("npm run build", "Compiled successfully in 14.2s"),
    ("./gradlew assembleRelease", "BUILD SUCCESSFUL in 1m 12s"),
    ("bundle exec fastlane beta", "fastlane.tools finished successfully"),
    ("python -m pytest -q", "42 passed, 1 skipped in 8.31s"),
    ("wp plugin update --all", "Success: Updated 3 of 3 plugins."),
]


def g_env(r, c):
    return (
        f"# {c['proj']} .env ({c['env']})\nAPP_ENV={c['env']}\n{c['var']}={c['p']}\n"
        f"LOG_LEVEL={r.choice(['info', 'debug', 'warning'])}\nTZ=Europe/Amsterdam"
    )


def g_export(r, c):
    cmd, out = r.choice(CMDS)
    return f"$ export {c['var']}='{c['p']}'\n$ {cmd}\n{out}"


def g_yaml(r, c):
    return (
        f'{c["section"]}:\n  {c["key"]}: "{c["p"]}"\n  region: {r.choice(REGIONS)}\n'
        f"  timeout_seconds: {r.choice([10, 30, 60, 120])}"
    )


def g_json(r, c):
    d = {
        "project": c["proj"],
        "environment": c["env"],
        c["key"]: c["p"],
        "retries": r.randint(1, 5),
    }
    return json.dumps(d, indent=2)


def g_py(r, c):
    return (
        f'import os\n\nos.environ.setdefault("{c["var"]}", "{c["p"]}")\n'
        f'# TODO {c["person"]}: read from the secret store instead\nrun_pipeline(env="{c["env"]}")'
    )


def g_ipy(r, c):
    n = r.randint(2, 60)
    return (
        f'In [{n}]: {c["key"]} = "{c["p"]}"\n\nIn [{n + 1}]: resp = session.get(url, timeout=10)\n\n'
        f"In [{n + 2}]: resp.status_code\nOut[{n + 2}]: 200"
    )


def g_nb(r, c):
    cell = {
        "cell_type": "code",
        "execution_count": r.randint(1, 80),
        "metadata": {"tags": ["setup"]},
        "outputs": [],
        "source": [
            "import os\n",
            f'os.environ["{c["var"]}"] = "{c["p"]}"\n',
            "print('configured')",
        ],
    }
    return json.dumps(cell, indent=1)


def g_toml(r, c):
    return f'[{c["section"]}]\n{c["key"]} = "{c["p"]}"\nenvironment = "{c["env"]}"\nmax_retries = {r.randint(2, 6)}'


def g_ini(r, c):
    return f"; {c['client']} settings\n[{c['section']}]\n{c['key']} = {c['p']}\nverbose = false"


def g_note(r, c):
    return r.choice(
        [
            f"Lesson ({date(r)}): the {c['label']} for {c['client']} {c['env']} is {c['p']} - rotate it after the demo.",
            f"Note to self: {c['label']} ({c['proj']}) = {c['p']}",
            f"Remember: when {c['proj']} fails with 401, re-set {c['var']} to {c['p']} and restart the worker.",
        ]
    )


def g_todo(r, c):
    return (
        f"TODO(@{c['person']}): move the {c['label']} out of the repo before handoff to {c['client']}.\n"
        f"Current value: {c['p']}"
    )


def g_chat(r, c):
    h, m = r.randint(8, 18), r.randint(0, 50)
    return (
        f"[{h:02d}:{m:02d}] {c['person']}: anyone have the {c['label']} for {c['proj']}?\n"
        f"[{h:02d}:{m + 2:02d}] {c['person2']}: {c['p']}\n[{h:02d}:{m + 3:02d}] {c['person']}: thx, works"
    )


def g_nl(r, c):
    return f"Notitie: de {c['label']} voor project {c['proj']} is {c['p']} - niet delen met de klant ({c['client']})."


def g_pl(r, c):
    return f"Notatka: {c['label']} do srodowiska {c['env']}: {c['p']} (zmienic po wdrozeniu, pyta {c['person']})"


def g_it(r, c):
    return f"Promemoria: la chiave {c['label']} per {c['client']} e' {c['p']}, da ruotare a fine sprint."


def g_tr(r, c):
    return f"Not: {c['client']} icin {c['label']}: {c['p']} - sprint sonunda degistir, {c['person']} biliyor."


def g_hi(r, c):
    return f"Yaad rakhna: {c['client']} ka {c['label']} hai {c['p']}, ise kisi ke saath share mat karna."


def g_zh(r, c):
    return f"备忘：{c['client']} 的 {c['label']} 是 {c['p']}，上线后记得轮换。"


def g_ci(r, c):
    run = r.randint(1000, 99999)
    d, h, m = date(r), r.randint(0, 22), r.randint(0, 55)
    return (
        f"[{d}T{h:02d}:{m:02d}:01Z] ##[group]Run ./scripts/deploy.sh {c['env']} (run {run})\n"
        f"[{d}T{h:02d}:{m:02d}:02Z] + printenv | grep {c['var'][:6]}\n"
        f"[{d}T{h:02d}:{m:02d}:02Z] {c['var']}={c['p']}\n[{d}T{h:02d}:{m + 1:02d}:14Z] ##[endgroup]"
    )


def g_trace(r, c):
    return (
        "Traceback (most recent call last):\n"
        f'  File "/opt/{c["proj"]}/settings.py", line {r.randint(10, 300)}, in load\n'
        f"    validate(cfg)\nValueError: unexpected value for {c['var']}: '{c['p']}' (env={c['env']})"
    )


def g_tf(r, c):
    return (
        f'variable "{c["key"]}" {{\n  type      = string\n  sensitive = true\n  default   = "{c["p"]}"\n}}\n\n'
        f"# {c['client']} / {c['env']}"
    )


def g_gradle(r, c):
    return (
        f'android {{\n    defaultConfig {{\n        buildConfigField("String", "{c["var"]}", "\\"{c["p"]}\\"")\n'
        f"        versionCode {r.randint(10, 400)}\n    }}\n}}"
    )


def g_swift(r, c):
    name = "".join(w.capitalize() for w in c["key"].split("_"))
    return f'enum Secrets {{\n    static let {name[0].lower() + name[1:]} = "{c["p"]}"\n}}\n// {c["client"]} iOS app'


def g_r(r, c):
    return f'Sys.setenv({c["var"]} = "{c["p"]}")\nlibrary(DBI)\n# {c["proj"]} analysis, {date(r)}'


def g_sql(r, c):
    return (
        f"-- seed config for {c['proj']}\nINSERT INTO app_settings (name, value, updated_at)\n"
        f"VALUES ('{c['key']}', '{c['p']}', '{date(r)}');"
    )


def g_php(r, c):
    return f"<?php\n// {c['client']} site config\ndefine( '{c['var']}', '{c['p']}' );\ndefine( 'WP_DEBUG', false );"


def g_docker(r, c):
    return (
        f"$ docker run -d --name {c['proj']} -e APP_ENV={c['env']} -e {c['var']}={c['p']} "
        f"registry.example.internal/{c['proj']}:{r.randint(1, 9)}.{r.randint(0, 20)}\n{hx(r, 64)}"
    )


def g_kubectl(r, c):
    return (
        f"$ kubectl -n {c['proj']} create secret generic {c['key'].replace('_', '-')} "
        f"--from-literal={c['key']}={c['p']}\nsecret/{c['key'].replace('_', '-')} created"
    )


def g_gha(r, c):
    return (
        f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {c['var']}: {c['p']}\n"
        f"    steps:\n      - uses: actions/checkout@v4\n      - run: make deploy ENV={c['env']}"
    )


def g_decision(r, c):
    return (
        f"Decision {date(r)}: {c['client']} wants one shared {c['label']} for all environments.\n"
        f"Agreed value for now: {c['p']} ({c['person']} will put it in 1Password)."
    )


def g_kotlin(r, c):
    return f'object Config {{\n    const val {c["var"]} = "{c["p"]}"\n    const val ENV = "{c["env"]}"\n}}'


def g_standup(r, c):
    return (
        f"Standup {date(r)} ({c['person']}): {c['proj']} deploy to {c['env']} blocked until the new {c['label']} "
        f"is set. {c['person2']} sent it over: {c['p']}"
    )


def g_handoff(r, c):
    return (
        f"Handoff notes for {c['client']}\n- repo: agency/{c['client']}\n- env: {c['env']}\n"
        f"- {c['label']}: {c['p']}\n- contact: {c['person']}@{c['client']}.nl"
    )


def g_incident(r, c):
    return (
        f"Postmortem {c['proj']} ({date(r)}): nightly job failed because {c['var']} had expired. "
        f"Replaced it with {c['p']}; action item for {c['person']}: alert before expiry."
    )


def g_slack_thread(r, c):
    return (
        f"#{c['proj']}-dev\n{c['person']} {hm(r)}\n  can you DM me the {c['label']}? the wiki page is empty\n"
        f"{c['person2']} {hm(r)}\n  `{c['p']}` (delete this msg after copying pls)"
    )


def g_memory_json(r, c):
    d = {
        "type": "lesson",
        "created": ts(r),
        "tags": [c["client"], c["proj"], c["env"]],
        "text": f"{c['label']} for {c['env']} is {c['p']}; the old one was revoked.",
    }
    return json.dumps(d, ensure_ascii=False)


def g_email(r, c):
    return (
        f"From: {c['person']}@{c['client']}.nl\nSubject: Re: toegang / access {c['proj']}\n\n"
        f"Hi team,\n\nas requested, the {c['label']}: {c['p']}\n\nGroeten,\n{c['person'].capitalize()}"
    )


def g_es(r, c):
    return (
        f"Nota rapida ({c['client']}): el {c['label']} de {c['env']} es {c['p']} - cambiarlo despues del lanzamiento."
    )


def g_de(r, c):
    return f"Merke: {c['label']} fuer {c['client']} ({c['env']}) = {c['p']}, nach dem Go-live rotieren. /{c['person']}"


def g_node_err(r, c):
    return (
        f"Error: Request failed with status code 401\n    at createError (node_modules/axios/lib/core/createError.js:16:15)\n"
        f"  config: {{ headers: {{ '{c['header']}': '{c['p']}' }}, url: 'https://{c['host']}/v1/items' }}"
    )


def g_pytest(r, c):
    return (
        f"____________________ test_{c['key']}_loaded ____________________\n"
        f"    assert settings.{c['key']} == expected\nE   AssertionError: assert '{c['p']}' == '<unset>'\n"
        f"FAILED tests/test_settings.py::test_{c['key']}_loaded - AssertionError"
    )


def g_todo_zh(r, c):
    return f"待办：把 {c['proj']} 的 {c['var']}（{c['p']}）移到密钥管理里，{c['person']} 负责。"


def g_hi2(r, c):
    return (
        f"{c['person']} bola ki {c['env']} ke liye naya {c['label']} yeh hai: {c['p']} - kal tak vault mein daal dena."
    )


GENERIC = [
    g_env,
    g_export,
    g_yaml,
    g_json,
    g_py,
    g_ipy,
    g_nb,
    g_toml,
    g_ini,
    g_note,
    g_todo,
    g_chat,
    g_nl,
    g_pl,
    g_it,
    g_tr,
    g_hi,
    g_zh,
    g_ci,
    g_trace,
    g_tf,
    g_gradle,
    g_swift,
    g_r,
    g_sql,
    g_php,
    g_docker,
    g_kubectl,
    g_gha,
    g_decision,
    g_kotlin,
    g_standup,
    g_handoff,
    g_incident,
    g_slack_thread,
    g_memory_json,
    g_email,
    g_es,
    g_de,
    g_pytest,
    g_todo_zh,
    g_hi2,
]


def g_http(r, c):
    return (
        f"POST /v1/{r.choice(['events', 'runs', 'messages', 'deploy', 'upload'])} HTTP/1.1\n"
        f"Host: {c.get('host', 'api.example.com')}\nUser-Agent: python-requests/2.32.3\n"
        f"Authorization: Bearer {c['p']}\nContent-Type: application/json\nX-Request-Id: {uid(r)}"
    )


def g_curl(r, c):
    return (
        f'$ curl -s -H "Authorization: Bearer {c["p"]}" https://{c.get("host", "api.example.com")}/v1/me\n'
        f'{{"ok": true, "request_id": "{uid(r)}"}}'
    )


def g_header(r, c):
    hdr = c.get("header", "X-Api-Key")
    return (
        f"GET /api/{r.choice(['v1', 'v2'])}/status HTTP/1.1\nHost: {c.get('host', 'api.example.com')}\n"
        f"{hdr}: {c['p']}\nAccept: */*"
    )


BEARER = [g_http, g_curl]


# PEM templates (payload is a multi-line armoured block)
def p_note(r, c):
    return f"{c['label']} for {c['client']} (from {c['file']}), keep out of git:\n{c['p']}"


def p_cat(r, c):
    return f"$ cat ~/{c['file']}\n{c['p']}\n$ chmod 600 ~/{c['file']}"


def p_py(r, c):
    return f'# {c["proj"]} notebook, cell {r.randint(1, 40)}\n{c["var"]} = """{c["p"]}"""\n'


def p_tf(r, c):
    return f'resource "local_sensitive_file" "{c["key"]}" {{\n  filename = "{c["file"]}"\n  content  = <<EOT\n{c["p"]}\nEOT\n}}'


def p_md(r, c):
    return f"### {c['client']} {c['env']}\nPasted the {c['label']} here so {c['person']} can test:\n```\n{c['p']}\n```"


def p_env(r, c):
    return f'# .env.{c["env"]}\n{c["var"]}="{c["p"]}"\nAPP_ENV={c["env"]}'


def p_zh(r, c):
    return f"备忘：{c['client']} 的 {c['label']}（{c['file']}）：\n{c['p']}\n用完删掉。"


def p_nl(r, c):
    return f"Notitie {date(r)}: {c['label']} van {c['client']} staat hieronder, later naar de vault:\n{c['p']}"


def p_ci(r, c):
    return (
        f"[{ts(r)}] + cat $KEY_FILE  # debugging {c['proj']}\n{c['p']}\n[{ts(r)}] Error: deploy failed with exit code 1"
    )


def p_chat(r, c):
    return (
        f"[{hm(r)}] {c['person']}: sending the {c['label']} for {c['client']} here, grab it and I'll delete\n{c['p']}"
    )


def p_it(r, c):
    return f"Promemoria {date(r)}: chiave privata ({c['label']}, {c['file']}) per {c['client']}:\n{c['p']}\nNon committare!"


def p_echo(r, c):
    return f'$ echo "$DEPLOY_KEY" > ~/{c["file"]}\n$ head -c 2000 ~/{c["file"]}\n{c["p"]}\n$ ssh-add ~/{c["file"]}'


def p_yaml_gha(r, c):
    return f"# secret value pasted into the CI settings by {c['person']} on {date(r)}:\n{c['p']}"


PEM_T = [
    p_note,
    p_cat,
    p_py,
    p_tf,
    p_md,
    p_env,
    p_zh,
    p_nl,
    p_ci,
    p_chat,
    p_it,
    p_echo,
    p_yaml_gha,
]


# ---------------------------------------------------------------------------------------------------
# Kinds
# ---------------------------------------------------------------------------------------------------

KINDS = []


def K(kind, vars_, label, gen, spec=(), generic=True, bearer=False, **extra):
    KINDS.append(
        {
            "kind": kind,
            "vars": vars_,
            "label": label,
            "gen": gen,
            "spec": list(spec),
            "generic": generic,
            "bearer": bearer,
            "extra": extra,
        }
    )


def acct(r):
    return f"{s(r, LO, 2)}{r.randint(10000, 99999)}.{r.choice(['eu-central-1', 'west-europe.azure', 'us-east-1'])}"


# --- data warehouse / databases -------------------------------------------------------------------


def t_dbt_snow(r, c):
    return (
        f"{c['proj'].replace('-', '_')}:\n  target: {c['env']}\n  outputs:\n    {c['env']}:\n      type: snowflake\n"
        f'      account: {acct(r)}\n      user: {r.choice(PEOPLE).upper()}_DBT\n      password: "{c["p"]}"\n'
        f"      role: TRANSFORMER\n      warehouse: WH_XS\n      database: ANALYTICS\n      schema: dbt_{c['person']}\n      threads: 4"
    )


def t_snow_conn(r, c):
    return (
        f"In [{r.randint(1, 30)}]: import snowflake.connector\n   ...: conn = snowflake.connector.connect(\n"
        f"   ...:     user='{c['person'].upper()}', password='{c['p']}', account='{acct(r)}',\n"
        f"   ...:     warehouse='WH_XS', database='RAW')\n\nIn [{r.randint(31, 60)}]: conn.cursor().execute('select current_version()').fetchone()\n"
        f"Out[{r.randint(61, 90)}]: ('8.{r.randint(10, 45)}.1',)"
    )


def t_snowsql(r, c):
    return f"# ~/.snowsql/config\n[connections.{c['env']}]\naccountname = {acct(r)}\nusername = {c['person']}\npassword = {c['p']}\n"


K(
    "snowflake_password",
    ["SNOWFLAKE_PASSWORD", "SNOWSQL_PWD", "DBT_SNOWFLAKE_PASSWORD"],
    "Snowflake password",
    lambda r: password(r),
    [t_dbt_snow, t_snow_conn, t_snowsql],
    section="snowflake",
)


def redshift_gen(r):
    pw = password(r, True)
    host = f"{r.choice(PROJECTS)}.{s(r, LONUM, 12)}.{r.choice(REGIONS[:3])}.redshift.amazonaws.com"
    if r.random() < 0.5:
        return (
            pw,
            f"jdbc:redshift://{host}:5439/dev?user=etl_user&password={pw}&ssl=true",
        )
    return pw, f"redshift+psycopg2://etl_user:{pw}@{host}:5439/dev"


def t_dbt_red(r, c):
    return (
        f"# profiles.yml\nwarehouse:\n  outputs:\n    {c['env']}:\n      type: redshift\n      host: analytics.{s(r, LONUM, 12)}.eu-west-1.redshift.amazonaws.com\n"
        f"      port: 5439\n      user: dbt_{c['person']}\n      password: {c['secret']}\n      dbname: dev\n      schema: analytics"
    )


K(
    "redshift_password",
    ["REDSHIFT_URL", "REDSHIFT_JDBC_URL"],
    "Redshift connection",
    redshift_gen,
    [t_dbt_red],
    section="redshift",
)


def pg_gen(r):
    pw = password(r, True)
    host = r.choice(
        [
            "db.internal",
            "10.0.3.12",
            f"{r.choice(PROJECTS)}-pg.{s(r, LONUM, 8)}.eu-west-1.rds.amazonaws.com",
        ]
    )
    return (
        pw,
        f"postgresql://{r.choice(['app', 'airflow', 'metabase', 'analytics'])}:{pw}@{host}:5432/{r.choice(['warehouse', 'app', 'airflow'])}",
    )


def t_psql_err(r, c):
    return (
        f"sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server failed\n"
        f"(Background on this error at: https://sqlalche.me/e/20/e3q8)\nengine url was {c['p']}"
    )


K(
    "postgres_password",
    ["DATABASE_URL", "SQLALCHEMY_DATABASE_URI", "METABASE_DB_URI"],
    "Postgres connection string",
    pg_gen,
    [t_psql_err],
    section="database",
)


AF_CONNS = [
    ("warehouse_db", "postgres", "warehouse.internal", 5432, "dwh"),
    ("dwh", "postgres", "10.20.0.7", 5432, "analytics"),
    ("shop_mysql", "mysql", "mysql.shop.internal", 3306, "shop"),
    ("crm_replica", "mysql", "crm-replica.internal", 3306, "crm"),
    ("sftp_client", "sftp", "ftp.client-drop.nl", 22, ""),
    ("ch_events", "clickhouse", "clickhouse.internal", 9000, "events"),
]


def airflow_conn_gen(r):
    pw = password(r, True)
    cid, scheme, host, port, db = r.choice(AF_CONNS)
    user = r.choice(["etl", "airflow", "loader"])
    return pw, (cid, f"{scheme}://{user}:{pw}@{host}:{port}/{db}")


def t_af_env(r, c):
    cid, uri = c["p"]
    return f"AIRFLOW_CONN_{cid.upper()}='{uri}'\nAIRFLOW__CORE__LOAD_EXAMPLES=False"


def t_af_cli(r, c):
    cid, uri = c["p"]
    return f"$ airflow connections add {cid} --conn-uri '{uri}'\nSuccessfully added `conn_id`={cid} : {uri.split('@')[0].split(':')[0]}://:******@..."


def t_af_note(r, c):
    cid, uri = c["p"]
    return (
        f"Airflow lesson: conn `{cid}` broke after the migration; recreated it with URI {uri} and the DAG went green."
    )


def t_af_json(r, c):
    cid, uri = c["p"]
    return f"# secrets backend value for airflow/connections/{cid}\n{json.dumps({'conn_uri': uri})}"


def t_af_py(r, c):
    cid, uri = c["p"]
    return f"from airflow.models import Connection\n\nconn = Connection.get_connection_from_secrets('{cid}')  # was: Connection(uri='{uri}')"


def t_af_pl(r, c):
    cid, uri = c["p"]
    return f"Notatka Airflow: polaczenie {cid} = {uri} (po migracji na MWAA trzeba dodac ponownie)"


def t_af_compose(r, c):
    cid, uri = c["p"]
    return f"x-airflow-common:\n  environment:\n    AIRFLOW_CONN_{cid.upper()}: '{uri}'\n    AIRFLOW__CORE__EXECUTOR: CeleryExecutor"


def t_af_zh(r, c):
    cid, uri = c["p"]
    return f"备忘：Airflow 连接 {cid} 的 URI 是 {uri}，迁移后要重新添加。"


def t_af_trace(r, c):
    cid, uri = c["p"]
    return (
        f"[{ts(r)}] ERROR - Failed to execute job {r.randint(100, 9999)} for task load_{cid}\n"
        f"sqlalchemy.exc.OperationalError: could not connect using {uri}"
    )


K(
    "airflow_connection_password",
    [],
    "Airflow connection",
    airflow_conn_gen,
    [
        t_af_env,
        t_af_cli,
        t_af_note,
        t_af_json,
        t_af_py,
        t_af_pl,
        t_af_compose,
        t_af_zh,
        t_af_trace,
    ],
    generic=False,
)


def ch_gen(r):
    pw = password(r, True)
    return (
        pw,
        f"clickhouse://default:{pw}@{s(r, LONUM, 10)}.{r.choice(REGIONS[:3])}.aws.clickhouse.cloud:8443/default?secure=true",
    )


def t_ch_cli(r, c):
    return (
        f"$ clickhouse client --host {s(r, LONUM, 10)}.eu-west-1.aws.clickhouse.cloud --secure --password '{c['secret']}'\n"
        f"ClickHouse client version 24.{r.randint(1, 12)}.1.\nConnected to ClickHouse server version 24.{r.randint(1, 12)}.2."
    )


def t_ch_py(r, c):
    return (
        "import clickhouse_connect\n\nclient = clickhouse_connect.get_client(\n"
        f"    host='{s(r, LONUM, 10)}.eu-central-1.aws.clickhouse.cloud', port=8443,\n"
        f"    username='default', password='{c['secret']}')\nprint(client.query('SELECT 1').result_rows)"
    )


K(
    "clickhouse_password",
    ["CLICKHOUSE_URL", "CH_DSN"],
    "ClickHouse connection",
    ch_gen,
    [t_ch_cli, t_ch_py],
    section="clickhouse",
)


def mongo_gen(r):
    pw = password(r, True)
    return (
        pw,
        f"mongodb+srv://{r.choice(['app', 'scraper', 'admin'])}:{pw}@cluster0.{s(r, LONUM, 5)}.mongodb.net/{r.choice(['reviews', 'shop', 'events'])}?retryWrites=true&w=majority",
    )


K(
    "mongodb_password",
    ["MONGODB_URI", "MONGO_URL"],
    "MongoDB Atlas URI",
    mongo_gen,
    section="mongo",
)


def redis_gen(r):
    pw = password(r, True)
    return (
        pw,
        f"rediss://default:{pw}@{r.choice(['redis-1', 'cache', 'queue'])}.{s(r, LONUM, 6)}.cache.amazonaws.com:6379/0",
    )


K(
    "redis_password",
    ["REDIS_URL", "CELERY_BROKER_URL"],
    "Redis URL",
    redis_gen,
    section="cache",
)


def amqp_gen(r):
    pw = password(r, True)
    return (
        pw,
        f"amqps://{r.choice(['worker', 'etl'])}:{pw}@{s(r, LO, 8)}.rmq.cloudamqp.com/{s(r, LO, 8)}",
    )


K(
    "rabbitmq_password",
    ["AMQP_URL", "BROKER_URL"],
    "RabbitMQ broker URL",
    amqp_gen,
    section="broker",
)


def t_wpconf(r, c):
    return (
        f"/** {c['client']} - wp-config.php */\ndefine( 'DB_NAME', 'wp_{c['client'].split('-')[0]}' );\n"
        f"define( 'DB_USER', 'wp_user' );\ndefine( 'DB_PASSWORD', '{c['p']}' );\ndefine( 'DB_HOST', 'localhost' );\n"
        f"$table_prefix = 'wp_';"
    )


def t_wpcli(r, c):
    return f"$ wp config set DB_PASSWORD '{c['p']}' --path=/var/www/{c['client']}\nSuccess: Updated the constant 'DB_PASSWORD' in the 'wp-config.php' file with the value '{c['p']}'."


K(
    "wordpress_db_password",
    ["WORDPRESS_DB_PASSWORD", "DB_PASSWORD"],
    "WordPress database password",
    lambda r: password(r),
    [t_wpconf, t_wpconf, t_wpcli],
    section="wordpress",
)


def wp_salt(r):
    return s(r, ALNUM + "!#$%&()*+,-./:;<=>?@[]^_{|}~", 64)


def t_wpsalt(r, c):
    name = r.choice(
        [
            "AUTH_KEY",
            "SECURE_AUTH_KEY",
            "LOGGED_IN_KEY",
            "NONCE_KEY",
            "AUTH_SALT",
            "NONCE_SALT",
        ]
    )
    return f"// {c['client']} wp-config.php (salts from api.wordpress.org)\ndefine( '{name}', '{c['p']}' );\ndefine( 'WP_CACHE', true );"


K(
    "wordpress_auth_key",
    ["WORDPRESS_AUTH_KEY", "WORDPRESS_NONCE_SALT"],
    "WordPress auth salt",
    wp_salt,
    [t_wpsalt, t_wpsalt, t_wpsalt],
    section="wordpress",
)


def t_wpadmin(r, c):
    return (
        f"$ wp user create {c['person']} {c['person']}@{c['client']}.nl --role=administrator\n"
        f"Success: Created user {r.randint(2, 40)}.\nPassword: {c['p']}"
    )


K(
    "wordpress_admin_password",
    ["WP_ADMIN_PASSWORD"],
    "WordPress admin password",
    lambda r: password(r),
    [t_wpadmin, t_wpadmin],
)


def t_es(r, c):
    return (
        f"$ curl -u elastic:{c['p']} https://{s(r, LONUM, 8)}.es.{r.choice(REGIONS[:2])}.aws.elastic-cloud.com:9243/_cat/indices\n"
        f"green open reviews-{date(r)} {s(r, B64URL, 22)} 1 1 {r.randint(1000, 99999)} 0 12mb 6mb"
    )


K(
    "elasticsearch_password",
    ["ELASTIC_PASSWORD", "ES_PASSWORD"],
    "Elasticsearch password",
    lambda r: password(r, True),
    [t_es, t_es],
    section="elasticsearch",
)


def t_sftp(r, c):
    return (
        f"Client {c['client']} hosting: sftp://{c['client'].split('-')[0]}@ftp.{c['client']}.nl:22\n"
        f"wachtwoord / password: {c['p']}\n(shared hosting, no SSH keys possible)"
    )


def t_lftp(r, c):
    return f"$ lftp -u deploy,{c['p']} sftp://files.{c['client']}.com\nlftp deploy@files.{c['client']}.com:~> mirror -R dist/ public_html/"


K(
    "sftp_password",
    ["SFTP_PASSWORD", "FTP_PASS"],
    "SFTP password",
    lambda r: password(r, True),
    [t_sftp, t_sftp, t_lftp],
    section="deploy",
)


def t_smtp(r, c):
    return (
        f"# Django settings ({c['client']})\nEMAIL_HOST = 'smtp.{r.choice(['postmarkapp.com', 'sendgrid.net', 'eu.mailgun.org', 'mailjet.com'])}'\n"
        f"EMAIL_PORT = 587\nEMAIL_HOST_USER = 'apikey'\nEMAIL_HOST_PASSWORD = '{c['p']}'\nEMAIL_USE_TLS = True"
    )


K(
    "smtp_password",
    ["SMTP_PASSWORD", "EMAIL_HOST_PASSWORD", "MAIL_PASSWORD"],
    "SMTP password",
    lambda r: password(r),
    [t_smtp, t_smtp],
    section="mail",
)


def basic_url_gen(r):
    pw = password(r, True)
    u = r.choice(
        [
            f"https://{r.choice(PEOPLE)}:{pw}@pypi.{r.choice(CLIENTS)}.dev/simple/",
            f"https://ci:{pw}@nexus.agency.internal/repository/npm-private/",
            f"https://deploy:{pw}@staging.{r.choice(CLIENTS)}.nl/wp-admin/",
            f"https://mlflow:{pw}@mlflow.{r.choice(PROJECTS)}.internal/",
        ]
    )
    return pw, u


def t_pipidx(r, c):
    return f"$ pip install --extra-index-url {c['p']} {r.choice(['featurekit', 'dwh-utils', 'agency-sdk'])}==0.{r.randint(1, 9)}.0\nLooking in indexes: https://pypi.org/simple, ..."


K(
    "basic_auth_url_password",
    ["PIP_EXTRA_INDEX_URL", "STAGING_URL", "REGISTRY_URL"],
    "basic-auth URL",
    basic_url_gen,
    [t_pipidx],
    section="index",
)


# --- ML platforms -----------------------------------------------------------------------------------


def t_mlflow(r, c):
    return (
        f"import mlflow, os\nos.environ['MLFLOW_TRACKING_USERNAME'] = '{c['person']}'\n"
        f"os.environ['MLFLOW_TRACKING_PASSWORD'] = '{c['p']}'\nmlflow.set_tracking_uri('https://mlflow.{c['proj']}.internal')\n"
        f"mlflow.set_experiment('{c['proj']}')"
    )


K(
    "mlflow_tracking_password",
    ["MLFLOW_TRACKING_PASSWORD"],
    "MLflow tracking password",
    lambda r: password(r),
    [t_mlflow, t_mlflow],
    section="mlflow",
)


def t_wandb(r, c):
    return (
        f"$ wandb login {c['p']}\nwandb: Appending key for api.wandb.ai to your netrc file: /home/{c['person']}/.netrc\n"
        f"wandb: Currently logged in as: {c['person']} ({c['proj']}). Use `wandb login --relogin` to force relogin"
    )


def t_netrc(r, c):
    return f"# ~/.netrc\nmachine api.wandb.ai\n  login user\n  password {c['p']}\n"


K(
    "wandb_api_key",
    ["WANDB_API_KEY"],
    "W&B API key",
    lambda r: hx(r, 40),
    [t_wandb, t_netrc],
    section="wandb",
)


def hf_tok(r):
    return "h" + "f_" + s(r, LETTERS, 34)


def t_hf(r, c):
    return (
        f'from huggingface_hub import login\nlogin(token="{c["p"]}")\n'
        f'model = AutoModel.from_pretrained("{c["client"]}/{c["proj"]}-bert")'
    )


def t_hfcli(r, c):
    return f"$ huggingface-cli login --token {c['p']} --add-to-git-credential\nToken is valid (permission: write).\nLogin successful"


K(
    "huggingface_token",
    ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"],
    "Hugging Face token",
    hf_tok,
    [t_hf, t_hfcli],
    bearer=True,
    host="huggingface.co",
    section="huggingface",
)


def t_kaggle(r, c):
    return f'$ cat ~/.kaggle/kaggle.json\n{{"username":"{c["person"]}{r.randint(1, 99)}","key":"{c["p"]}"}}'


def t_kaggle2(r, c):
    return (
        f'!mkdir -p ~/.kaggle\n!echo \'{{"username":"{c["person"]}","key":"{c["p"]}"}}\' > ~/.kaggle/kaggle.json\n'
        f"!kaggle competitions download -c {r.choice(['store-sales', 'titanic', 'house-prices'])}"
    )


K(
    "kaggle_api_key",
    ["KAGGLE_KEY"],
    "Kaggle API key",
    lambda r: hx(r, 32),
    [t_kaggle, t_kaggle2],
    section="kaggle",
)


def t_ls(r, c):
    return (
        f"from label_studio_sdk import Client\nls = Client(url='https://labels.{c['client']}.io', api_key='{c['p']}')\n"
        f"project = ls.get_project({r.randint(1, 80)})"
    )


def t_ls_http(r, c):
    return f"GET /api/projects/{r.randint(1, 80)}/tasks HTTP/1.1\nHost: labels.{c['client']}.io\nAuthorization: Token {c['p']}"


K(
    "label_studio_api_token",
    ["LABEL_STUDIO_API_KEY", "LS_TOKEN"],
    "Label Studio access token",
    lambda r: hx(r, 40),
    [t_ls, t_ls_http],
    section="label_studio",
)


def dbx_tok(r):
    return "dap" + "i" + hx(r, 32) + r.choice(["", "", "-2", "-3"])


def t_dbcfg(r, c):
    return f"# ~/.databrickscfg\n[DEFAULT]\nhost = https://adb-{r.randint(10**15, 10**16 - 1)}.{r.randint(1, 19)}.azuredatabricks.net\ntoken = {c['p']}\n"


K(
    "databricks_token",
    ["DATABRICKS_TOKEN"],
    "Databricks PAT",
    dbx_tok,
    [t_dbcfg, t_dbcfg],
    bearer=True,
    host="adb-1234.azuredatabricks.net",
    section="databricks",
)


def pcsk(r):
    return "pcsk" + "_" + s(r, ALNUM, 5) + "_" + s(r, ALNUM, 63)


def t_pine(r, c):
    return f'from pinecone import Pinecone\npc = Pinecone(api_key="{c["p"]}")\nindex = pc.Index("{c["proj"]}-emb")'


K(
    "pinecone_api_key",
    ["PINECONE_API_KEY"],
    "Pinecone API key",
    pcsk,
    [t_pine, t_pine],
    header="Api-Key",
    host="recsys-emb-3f9c1a2.svc.aped-4627-b74a.pinecone.io",
    section="pinecone",
)


def oai(r):
    return "sk-" + "proj-" + s(r, B64URL, 74) + "T3Blbk" + "FJ" + s(r, B64URL, 74)


def t_oai(r, c):
    return f'from openai import OpenAI\nclient = OpenAI(api_key="{c["p"]}")\nresp = client.embeddings.create(model="text-embedding-3-small", input=docs)'


K(
    "openai_api_key",
    ["OPENAI_API_KEY"],
    "OpenAI API key",
    oai,
    [t_oai],
    bearer=True,
    host="api.openai.com",
    section="openai",
)


def ant(r):
    return "sk-" + "ant-" + "api03-" + s(r, B64URL, 93) + "AA"


K(
    "anthropic_api_key",
    ["ANTHROPIC_API_KEY"],
    "Anthropic API key",
    ant,
    header="x-api-key",
    host="api.anthropic.com",
    section="anthropic",
)


def groq(r):
    return "gs" + "k_" + s(r, ALNUM, 52)


K(
    "groq_api_key",
    ["GROQ_API_KEY"],
    "Groq API key",
    groq,
    bearer=True,
    host="api.groq.com",
    section="llm",
)


def lsv2(r):
    return "lsv2" + "_" + r.choice(["pt", "sk"]) + "_" + hx(r, 32) + "_" + hx(r, 10)


K(
    "langsmith_api_key",
    ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"],
    "LangSmith API key",
    lsv2,
    header="x-api-key",
    section="langsmith",
)


def r8(r):
    return "r8" + "_" + s(r, ALNUM, 37)


K(
    "replicate_api_token",
    ["REPLICATE_API_TOKEN"],
    "Replicate API token",
    r8,
    bearer=True,
    host="api.replicate.com",
    section="replicate",
)


K(
    "azure_openai_api_key",
    ["AZURE_OPENAI_API_KEY"],
    "Azure OpenAI key",
    lambda r: hx(r, 32),
    header="api-key",
    host="oai-agency.openai.azure.com",
    section="azure_openai",
)


# --- cloud / object storage -------------------------------------------------------------------------


def aws_secret(r):
    return s(r, ALNUM + "+/", 40)


def t_awscred(r, c):
    return f"# ~/.aws/credentials\n[{c['proj']}]\naws_secret_access_key = {c['p']}\nregion = {r.choice(REGIONS[:3])}"


def t_spark_s3(r, c):
    return (
        f'spark.conf.set("fs.s3a.secret.key", "{c["p"]}")\n'
        f'df = spark.read.parquet("s3a://{c["proj"]}-lake/events/dt={date(r)}/")'
    )


K(
    "aws_secret_access_key",
    ["AWS_SECRET_ACCESS_KEY"],
    "AWS secret access key",
    aws_secret,
    [t_awscred, t_spark_s3],
    section="aws",
)


def t_minio(r, c):
    return (
        f"$ mc alias set {c['proj']} https://minio.{c['client']}.internal ml-bot {c['p']}\n"
        f"Added `{c['proj']}` successfully."
    )


K(
    "minio_secret_key",
    ["MINIO_SECRET_KEY", "MINIO_ROOT_PASSWORD"],
    "MinIO secret key",
    lambda r: s(r, ALNUM, 40),
    [t_minio, t_minio],
    section="minio",
)


def az_conn(r):
    key = s(r, B64, 86) + "=="
    return (
        key,
        f"DefaultEndpointsProtocol=https;AccountName={s(r, LONUM, 12)};AccountKey={key};EndpointSuffix=core.windows.net",
    )


K(
    "azure_storage_account_key",
    ["AZURE_STORAGE_CONNECTION_STRING"],
    "Azure storage connection string",
    az_conn,
    section="azure",
)


def s3_presigned(r):
    sig = hx(r, 64)
    u = (
        f"https://{r.choice(PROJECTS)}-exports.s3.{r.choice(REGIONS[:3])}.amazonaws.com/reports/{date(r)}/{s(r, LO, 6)}.csv"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date={date(r).replace('-', '')}T{r.randint(10, 23)}0000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return sig, u


def t_presign_out(r, c):
    return f"In [{r.randint(2, 40)}]: s3.generate_presigned_url('get_object', Params=p, ExpiresIn=3600)\nOut[{r.randint(41, 80)}]: '{c['p']}'"


def t_presign_chat(r, c):
    return f"[{hm(r)}] {c['person']}: here's the export for {c['client']}, link valid 1h:\n{c['p']}"


def t_presign_curl(r, c):
    return f"$ curl -sS -o export.csv '{c['p']}'\n$ wc -l export.csv\n{r.randint(100, 99999)} export.csv"


def t_presign_md(r, c):
    return f"Weekly report for {c['client']} ({date(r)}): [download]({c['p']}) - link expires soon."


def t_presign_log(r, c):
    return f"{ts(r)} INFO  export.share url={c['p']} ttl=3600 user={c['person']}"


PRESIGN_T = [
    t_presign_out,
    t_presign_chat,
    t_presign_curl,
    t_presign_md,
    t_presign_log,
    g_note,
    g_nl,
    g_zh,
    g_it,
    g_tr,
    g_pl,
    g_hi,
    g_todo,
]


K(
    "s3_presigned_url_signature",
    [],
    "pre-signed URL",
    s3_presigned,
    PRESIGN_T,
    generic=False,
)


def gcs_signed(r):
    sig = hx(r, 512)
    u = (
        f"https://storage.googleapis.com/{r.choice(PROJECTS)}-models/{s(r, LO, 8)}.pkl?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        f"&X-Goog-Credential=signer%40{r.choice(PROJECTS)}.iam.gserviceaccount.com%2F{date(r).replace('-', '')}%2Fauto%2Fstorage%2Fgoog4_request"
        f"&X-Goog-Date={date(r).replace('-', '')}T101500Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return sig, u


K(
    "gcs_signed_url_signature",
    [],
    "signed URL",
    gcs_signed,
    PRESIGN_T,
    generic=False,
)


def az_sas(r):
    raw = base64.b64encode(rbytes(r, 32)).decode()
    sig = raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    d = date(r)
    u = (
        f"https://{s(r, LONUM, 12)}.blob.core.windows.net/{r.choice(['exports', 'datasets', 'media'])}/{s(r, LO, 7)}.parquet"
        f"?sv=2022-11-02&ss=b&srt=o&sp=r&se={d}T18:00:00Z&st={d}T09:00:00Z&spr=https&sig={sig}"
    )
    return sig, u


K(
    "azure_sas_signature",
    [],
    "SAS URL",
    az_sas,
    PRESIGN_T,
    generic=False,
)


def sa_json(r):
    pem = pkcs8_pem(r)
    esc = json.dumps(pem)[1:-1]
    proj = f"{r.choice(PROJECTS)}-{r.randint(100000, 999999)}"
    d = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": hx(r, 40),
        "private_key": pem + "\n",
        "client_email": f"{r.choice(['bq-loader', 'firebase-adminsdk-' + s(r, LONUM, 5), 'airflow'])}@{proj}.iam.gserviceaccount.com",
        "client_id": str(r.randint(10**20, 10**21 - 1)),
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    return esc, json.dumps(d, indent=2)


def t_sa_cat(r, c):
    return f"$ cat {r.choice(['bq-sa.json', 'firebase-adminsdk.json', 'keyfile.json'])}\n{c['p']}"


def t_sa_note(r, c):
    return f"Service account for {c['client']} (BigQuery + Firebase Admin), pasted from the console:\n{c['p']}"


def t_sa_zh(r, c):
    return f"备忘：{c['proj']} 的 GCP 服务账号密钥：\n{c['p']}"


def t_sa_tf(r, c):
    return f'provider "google" {{\n  project     = "{c["proj"]}"\n  credentials = <<EOF\n{c["p"]}\nEOF\n}}'


def t_sa_py(r, c):
    return f'# cell {r.randint(1, 30)}: write the key so bigquery.Client() picks it up\nSA_JSON = r"""{c["p"]}"""\nopen(\'/tmp/sa.json\', \'w\').write(SA_JSON)'


def t_sa_nl(r, c):
    return f"Notitie: serviceaccount voor {c['client']} (Firebase Admin push), staat ook in Drive:\n{c['p']}"


def t_sa_chat(r, c):
    return f"[{hm(r)}] {c['person']}: here's the keyfile for the BigQuery loader, {c['person2']}\n{c['p']}"


K(
    "gcp_service_account_private_key",
    [],
    "service account",
    sa_json,
    [t_sa_cat, t_sa_note, t_sa_zh, t_sa_tf, t_sa_py, t_sa_nl, t_sa_chat],
    generic=False,
)


def fernet(r):
    return base64.urlsafe_b64encode(rbytes(r, 32)).decode()


def t_afcfg(r, c):
    return f"# airflow.cfg\n[core]\nexecutor = CeleryExecutor\nfernet_key = {c['p']}\nload_examples = False"


K(
    "airflow_fernet_key",
    ["AIRFLOW__CORE__FERNET_KEY"],
    "Airflow fernet key",
    fernet,
    [t_afcfg, t_afcfg],
    section="core",
)


def t_flask(r, c):
    return f"# superset_config.py\nSECRET_KEY = '{c['p']}'\nSQLALCHEMY_DATABASE_URI = os.environ['SUPERSET_DB_URI']"


def t_af_web(r, c):
    return f"[webserver]\nbase_url = https://airflow.{c['proj']}.internal\nsecret_key = {c['p']}\n"


K(
    "flask_secret_key",
    ["SUPERSET_SECRET_KEY", "AIRFLOW__WEBSERVER__SECRET_KEY", "FLASK_SECRET_KEY"],
    "Flask secret key",
    lambda r: r.choice([hx(r, 64), base64.b64encode(rbytes(r, 42)).decode()]),
    [t_flask, t_af_web],
    section="webserver",
)


def t_jup(r, c):
    port = r.choice([8888, 8889, 8890])
    return (
        f"[I {date(r)} {hm(r)}:11.204 ServerApp] Jupyter Server 2.{r.randint(7, 14)}.0 is running at:\n"
        f"[I {date(r)} {hm(r)}:11.204 ServerApp] http://127.0.0.1:{port}/lab?token={c['p']}\n"
        "[I ServerApp] Use Control-C to stop this server and shut down all kernels."
    )


def t_jup2(r, c):
    return f"Tunnel to the GPU box: ssh -L 8888:localhost:8888 gpu01 then open http://localhost:8888/?token={c['p']}"


K(
    "jupyter_server_token",
    ["JUPYTER_TOKEN"],
    "Jupyter token",
    lambda r: hx(r, 48),
    [t_jup, t_jup, t_jup2],
    section="jupyter",
)


# --- alerting / chat ---------------------------------------------------------------------------------


def slack_hook(r):
    tok = s(r, ALNUM, 24)
    return (
        tok,
        f"https://hooks.slack.com/services/T{s(r, UPNUM, 10)}/B{s(r, UPNUM, 10)}/{tok}",
    )


def t_slack_dag(r, c):
    return (
        f'def notify_failure(context):\n    requests.post(\n        "{c["p"]}",\n'
        f'        json={{"text": f"DAG {{context[\'dag\'].dag_id}} failed"}}, timeout=10)'
    )


def t_slack_curl(r, c):
    return f"$ curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"{c['proj']} retrain done\"}}' {c['p']}\nok"


K(
    "slack_webhook_url",
    ["SLACK_WEBHOOK_URL"],
    "Slack webhook",
    slack_hook,
    [t_slack_dag, t_slack_curl],
    section="alerts",
)


def xoxb(r):
    return "xo" + "xb-" + s(r, DIG, 12) + "-" + s(r, DIG, 13) + "-" + s(r, ALNUM, 24)


K(
    "slack_bot_token",
    ["SLACK_BOT_TOKEN"],
    "Slack bot token",
    xoxb,
    bearer=True,
    host="slack.com",
    section="slack",
)


def discord_hook(r):
    tok = s(r, B64URL, 68)
    return (
        tok,
        f"https://discord.com/api/webhooks/{r.randint(10**17, 10**19 - 1)}/{tok}",
    )


K(
    "discord_webhook_url",
    ["DISCORD_WEBHOOK"],
    "Discord webhook",
    discord_hook,
    [t_slack_curl],
    section="alerts",
)


def tg(r):
    return f"{r.randint(10**9, 8 * 10**9)}:AA{s(r, B64URL, 33)}"


def t_tg(r, c):
    return f'$ curl https://api.telegram.org/bot{c["p"]}/getMe\n{{"ok":true,"result":{{"is_bot":true,"username":"{c["proj"].replace("-", "_")}_alerts_bot"}}}}'


K(
    "telegram_bot_token",
    ["TELEGRAM_BOT_TOKEN"],
    "Telegram bot token",
    tg,
    [t_tg, t_tg],
    section="telegram",
)


# --- dev platforms -----------------------------------------------------------------------------------


def ghp(r):
    return "gh" + "p_" + s(r, ALNUM, 36)


K(
    "github_pat",
    ["GITHUB_TOKEN", "GH_TOKEN"],
    "GitHub token",
    ghp,
    bearer=True,
    host="api.github.com",
    section="github",
)


def ghfg(r):
    return "github" + "_pat_" + s(r, UPNUM, 22) + "_" + s(r, ALNUM, 59)


K(
    "github_fine_grained_pat",
    ["GH_PAT", "GITHUB_PAT"],
    "GitHub fine-grained PAT",
    ghfg,
    bearer=True,
    host="api.github.com",
    section="github",
)


def glpat(r):
    return "gl" + "pat-" + s(r, B64URL, 20)


K(
    "gitlab_pat",
    ["GITLAB_TOKEN"],
    "GitLab token",
    glpat,
    header="PRIVATE-TOKEN",
    host="gitlab.com",
    section="gitlab",
)


def npm_tok(r):
    return "np" + "m_" + s(r, ALNUM, 36)


def t_npmrc(r, c):
    return f"# .npmrc\n@{c['client'].split('-')[0]}:registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={c['p']}"


K("npm_token", ["NPM_TOKEN"], "npm token", npm_tok, [t_npmrc, t_npmrc], section="npm")


def pypi_tok(r):
    return "pypi-" + "AgEIcHlwaS5vcmc" + s(r, B64URL, 150)


def t_pypirc(r, c):
    return f"# ~/.pypirc\n[pypi]\nusername = __token__\npassword = {c['p']}\n"


K(
    "pypi_token",
    ["TWINE_PASSWORD", "PYPI_TOKEN"],
    "PyPI token",
    pypi_tok,
    [t_pypirc, t_pypirc],
    section="pypi",
)


def dckr(r):
    return "dckr" + "_pat_" + s(r, B64URL, 27)


def t_dlogin(r, c):
    return f"$ echo {c['p']} | docker login -u {c['person']}agency --password-stdin\nLogin Succeeded"


K(
    "docker_hub_pat",
    ["DOCKERHUB_TOKEN"],
    "Docker Hub token",
    dckr,
    [t_dlogin, t_dlogin],
    section="docker",
)


def sntry(r):
    return "sntry" + "u_" + hx(r, 64)


K(
    "sentry_auth_token",
    ["SENTRY_AUTH_TOKEN"],
    "Sentry auth token",
    sntry,
    bearer=True,
    host="sentry.io",
    section="sentry",
)


K(
    "cloudflare_api_token",
    ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
    "Cloudflare API token",
    lambda r: s(r, B64URL, 40),
    bearer=True,
    host="api.cloudflare.com",
    section="cloudflare",
)


K(
    "datadog_api_key",
    ["DD_API_KEY", "DATADOG_API_KEY"],
    "Datadog API key",
    lambda r: hx(r, 32),
    header="DD-API-KEY",
    host="api.datadoghq.eu",
    section="datadog",
)


def pnu(r):
    return "pn" + "u_" + s(r, ALNUM, 36)


K(
    "prefect_api_key",
    ["PREFECT_API_KEY"],
    "Prefect API key",
    pnu,
    bearer=True,
    host="api.prefect.cloud",
    section="prefect",
)


def vercel(r):
    return s(r, ALNUM, 24)


def t_vercel(r, c):
    return f"$ vercel deploy --prod --token {c['p']}\nVercel CLI 3{r.randint(2, 9)}.{r.randint(0, 9)}.0\nProduction: https://{c['client']}.vercel.app [{r.randint(8, 60)}s]"


K(
    "vercel_token",
    ["VERCEL_TOKEN"],
    "Vercel token",
    vercel,
    [t_vercel, t_vercel],
    bearer=True,
    host="api.vercel.com",
    section="vercel",
)


def nfp(r):
    return "nf" + "p_" + s(r, ALNUM, 36)


def t_netlify(r, c):
    return f"$ netlify deploy --prod --auth {c['p']} --dir dist\nDeploy is live!\nWebsite URL: https://{c['client']}.netlify.app"


K(
    "netlify_auth_token",
    ["NETLIFY_AUTH_TOKEN"],
    "Netlify token",
    nfp,
    [t_netlify, t_netlify],
    bearer=True,
    host="api.netlify.com",
    section="netlify",
)


# --- agency: commerce / payments ----------------------------------------------------------------------


def shpat(r):
    return "shp" + "at_" + hx(r, 32)


def t_shop(r, c):
    return (
        f"POST /admin/api/2024-10/graphql.json HTTP/1.1\nHost: {c['client']}.myshopify.com\n"
        f"X-Shopify-Access-Token: {c['p']}\nContent-Type: application/json"
    )


K(
    "shopify_access_token",
    ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"],
    "Shopify admin token",
    shpat,
    [t_shop, t_shop],
    section="shopify",
)


def shpss(r):
    return "shp" + "ss_" + hx(r, 32)


K(
    "shopify_shared_secret",
    ["SHOPIFY_API_SECRET"],
    "Shopify app secret",
    shpss,
    section="shopify",
)


def stripe_sk(r):
    return "sk" + "_live_" + r.choice(["51" + s(r, ALNUM, 97), s(r, ALNUM, 24)])


def t_stripe(r, c):
    return (
        f"$ stripe customers list --limit 3 --api-key {c['p']}\n"
        f'{{\n  "object": "list",\n  "data": [{{"id": "cus_{s(r, ALNUM, 14)}"}}]\n}}'
    )


K(
    "stripe_secret_key",
    ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
    "Stripe secret key",
    stripe_sk,
    [t_stripe],
    bearer=True,
    host="api.stripe.com",
    section="stripe",
)


def stripe_rk(r):
    return "rk" + "_live_" + "51" + s(r, ALNUM, 97)


K(
    "stripe_restricted_key",
    ["STRIPE_RESTRICTED_KEY"],
    "Stripe restricted key",
    stripe_rk,
    bearer=True,
    host="api.stripe.com",
    section="stripe",
)


def whsec(r):
    return "wh" + "sec_" + s(r, ALNUM, 32)


def t_whsec(r, c):
    return (
        f"$ stripe listen --forward-to localhost:8000/webhooks/stripe\n> Ready! You are using Stripe API Version [2024-06-20]. "
        f"Your webhook signing secret is {c['p']} (^C to quit)"
    )


K(
    "stripe_webhook_secret",
    ["STRIPE_WEBHOOK_SECRET"],
    "Stripe webhook signing secret",
    whsec,
    [t_whsec, t_whsec],
    section="stripe",
)


def t_paypal(r, c):
    return (
        f'$ curl -v https://api-m.paypal.com/v1/oauth2/token -u "A{s(r, B64URL, 79)}:{c["p"]}" -d grant_type=client_credentials\n'
        "< HTTP/2 200"
    )


K(
    "paypal_client_secret",
    ["PAYPAL_CLIENT_SECRET", "PAYPAL_SECRET"],
    "PayPal client secret",
    lambda r: "E" + s(r, B64URL, 79),
    [t_paypal],
    section="paypal",
)


def adyen(r):
    return "AQE" + s(r, B64, 97) + "==-" + s(r, B64, 43) + "=-" + s(r, ALNUM, 16)


K(
    "adyen_api_key",
    ["ADYEN_API_KEY"],
    "Adyen API key",
    adyen,
    header="X-API-Key",
    host="checkout-test.adyen.com",
    section="adyen",
)


# --- agency: mail / CMS / SMS / analytics -------------------------------------------------------------


def sg(r):
    return "S" + "G." + s(r, B64URL, 22) + "." + s(r, B64URL, 43)


K(
    "sendgrid_api_key",
    ["SENDGRID_API_KEY"],
    "SendGrid API key",
    sg,
    bearer=True,
    host="api.sendgrid.com",
    section="sendgrid",
)


def mg(r):
    return r.choice(["key-" + hx(r, 32), hx(r, 32) + "-" + hx(r, 8) + "-" + hx(r, 8)])


def t_mg(r, c):
    return (
        f"$ curl -s --user 'api:{c['p']}' https://api.eu.mailgun.net/v3/mg.{c['client']}.com/messages \\\n"
        f"    -F from='noreply@{c['client']}.com' -F to=test@{c['client']}.com -F subject=Hello\n"
        f'{{"id": "<{date(r).replace("-", "")}.{r.randint(10**5, 10**6)}@mg.{c["client"]}.com>", "message": "Queued. Thank you."}}'
    )


K(
    "mailgun_api_key",
    ["MAILGUN_API_KEY"],
    "Mailgun API key",
    mg,
    [t_mg, t_mg],
    section="mailgun",
)


def t_pm(r, c):
    return (
        f"POST /email HTTP/1.1\nHost: api.postmarkapp.com\nAccept: application/json\n"
        f'X-Postmark-Server-Token: {c["p"]}\n\n{{"From": "shop@{c["client"]}.nl", "To": "klant@example.org"}}'
    )


K(
    "postmark_server_token",
    ["POSTMARK_SERVER_TOKEN", "POSTMARK_API_TOKEN"],
    "Postmark server token",
    uid,
    [t_pm, t_pm],
    section="postmark",
)


def mc(r):
    return hx(r, 32) + "-us" + str(r.randint(1, 21))


K(
    "mailchimp_api_key",
    ["MAILCHIMP_API_KEY"],
    "Mailchimp API key",
    mc,
    section="mailchimp",
)


def brevo(r):
    return "xkey" + "sib-" + hx(r, 64) + "-" + s(r, ALNUM, 16)


K(
    "brevo_api_key",
    ["BREVO_API_KEY", "SENDINBLUE_API_KEY"],
    "Brevo API key",
    brevo,
    header="api-key",
    host="api.brevo.com",
    section="brevo",
)


def resend(r):
    return "r" + "e_" + s(r, ALNUM, 8) + "_" + s(r, ALNUM, 24)


K(
    "resend_api_key",
    ["RESEND_API_KEY"],
    "Resend API key",
    resend,
    bearer=True,
    host="api.resend.com",
    section="resend",
)


def cfpat(r):
    return "CFP" + "AT-" + s(r, B64URL, 43)


def t_cf(r, c):
    return (
        f"$ contentful login --management-token {c['p']}\nGreat! Your CMA token is now stored in ~/.contentfulrc.json"
    )


K(
    "contentful_management_token",
    ["CONTENTFUL_MANAGEMENT_TOKEN", "CMA_TOKEN"],
    "Contentful management token",
    cfpat,
    [t_cf],
    bearer=True,
    host="api.contentful.com",
    section="contentful",
)


def sanity(r):
    return "sk" + s(r, ALNUM, 180)


def t_sanity(r, c):
    return (
        "import {createClient} from '@sanity/client'\nexport const client = createClient({\n"
        f"  projectId: '{s(r, LONUM, 8)}', dataset: 'production', apiVersion: '2024-05-01',\n  token: '{c['p']}',\n  useCdn: false,\n}})"
    )


K(
    "sanity_api_token",
    ["SANITY_API_TOKEN", "SANITY_WRITE_TOKEN"],
    "Sanity write token",
    sanity,
    [t_sanity],
    bearer=True,
    host="api.sanity.io",
    section="sanity",
)


K(
    "strapi_api_token",
    ["STRAPI_API_TOKEN"],
    "Strapi API token",
    lambda r: hx(r, 256),
    bearer=True,
    host="cms.agency.dev",
    section="strapi",
)


def gocspx(r):
    return "GOC" + "SPX-" + s(r, B64URL, 28)


def t_gsecret(r, c):
    d = {
        "web": {
            "client_id": f"{r.randint(10**11, 10**12)}-{s(r, LONUM, 32)}.apps.googleusercontent.com",
            "project_id": c["proj"],
            "client_secret": c["p"],
            "redirect_uris": [f"https://{c['client']}.nl/auth/callback"],
        }
    }
    return f"$ cat client_secret.json\n{json.dumps(d)}"


K(
    "google_oauth_client_secret",
    ["GOOGLE_CLIENT_SECRET"],
    "Google OAuth client secret",
    gocspx,
    [t_gsecret, t_gsecret],
    section="google_oauth",
)


def t_algolia(r, c):
    return (
        f"const client = algoliasearch('{s(r, UPNUM, 10)}', '{c['p']}'); // ADMIN key, only for the indexing script\n"
        f"await client.saveObjects({{ indexName: '{c['client']}_products', objects }});"
    )


K(
    "algolia_admin_api_key",
    ["ALGOLIA_ADMIN_API_KEY"],
    "Algolia admin key",
    lambda r: hx(r, 32),
    [t_algolia, t_algolia],
    header="X-Algolia-API-Key",
    host="latency-dsn.algolia.net",
    section="algolia",
)


def supa_sr(r):
    ref = s(r, LO, 20)
    return jwt(
        r,
        {
            "iss": "supabase",
            "ref": ref,
            "role": "service_role",
            "iat": 17 * 10**8 + r.randint(0, 10**8),
            "exp": 2 * 10**9 + r.randint(0, 10**8),
        },
    )


K(
    "supabase_service_role_key",
    ["SUPABASE_SERVICE_ROLE_KEY"],
    "Supabase service_role key",
    supa_sr,
    bearer=True,
    host="xyzcompany.supabase.co",
    section="supabase",
)


def hubspot(r):
    return "pat-" + r.choice(["na1", "eu1"]) + "-" + uid(r)


K(
    "hubspot_private_app_token",
    ["HUBSPOT_ACCESS_TOKEN"],
    "HubSpot private app token",
    hubspot,
    bearer=True,
    host="api.hubapi.com",
    section="hubspot",
)


def airtable(r):
    return "pat" + s(r, ALNUM, 14) + "." + hx(r, 64)


K(
    "airtable_pat",
    ["AIRTABLE_TOKEN"],
    "Airtable token",
    airtable,
    bearer=True,
    host="api.airtable.com",
    section="airtable",
)


def notion(r):
    return r.choice(
        [
            "secret" + "_" + s(r, ALNUM, 43),
            "nt" + "n_" + s(r, DIG, 11) + s(r, ALNUM, 35),
        ]
    )


K(
    "notion_integration_token",
    ["NOTION_TOKEN", "NOTION_API_KEY"],
    "Notion integration secret",
    notion,
    bearer=True,
    host="api.notion.com",
    section="notion",
)


def mapbox_sk(r):
    body = b64u(
        json.dumps(
            {"u": r.choice(CLIENTS).replace("-", ""), "a": s(r, LONUM, 25)},
            separators=(",", ":"),
        ).encode()
    )
    return "sk." + body + "." + s(r, B64URL, 22)


K(
    "mapbox_secret_token",
    ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"],
    "Mapbox secret token",
    mapbox_sk,
    section="mapbox",
)


def cloudinary(r):
    sec = s(r, B64URL, 27)
    return (
        sec,
        f"cloudinary://{r.randint(10**14, 10**15 - 1)}:{sec}@{r.choice(CLIENTS)}",
    )


K(
    "cloudinary_api_secret",
    ["CLOUDINARY_URL"],
    "Cloudinary URL",
    cloudinary,
    section="cloudinary",
)


def t_twilio(r, c):
    return (
        "from twilio.rest import Client\n"
        f'client = Client("AC{hx(r, 32)}", "{c["p"]}")\n'
        f'client.messages.create(to="+31{r.randint(600000000, 699999999)}", from_="+3197010{r.randint(100000, 999999)}", body="Uw afspraak is bevestigd")'
    )


K(
    "twilio_auth_token",
    ["TWILIO_AUTH_TOKEN"],
    "Twilio auth token",
    lambda r: hx(r, 32),
    [t_twilio, t_twilio],
    section="twilio",
)


def t_vonage(r, c):
    return f"$ vonage auth set --api-key={s(r, LONUM, 8)} --api-secret={c['p']}\nAPI Key: set\nAPI Secret: set"


K(
    "vonage_api_secret",
    ["VONAGE_API_SECRET", "NEXMO_API_SECRET"],
    "Vonage API secret",
    lambda r: s(r, ALNUM, 16),
    [t_vonage],
    section="sms",
)


def fcm(r):
    return "AAAA" + s(r, B64URL, 7) + ":" + "APA91b" + s(r, B64URL, 134)


def t_fcm(r, c):
    return (
        "POST /fcm/send HTTP/1.1\nHost: fcm.googleapis.com\nContent-Type: application/json\n"
        f'Authorization: key={c["p"]}\n\n{{"to": "/topics/promo", "notification": {{"title": "Sale"}}}}'
    )


K(
    "fcm_server_key",
    ["FCM_SERVER_KEY"],
    "FCM server key",
    fcm,
    [t_fcm, t_fcm],
    section="firebase",
)


def looker(r):
    return s(r, ALNUM, 24)


def t_looker(r, c):
    return f"# looker.ini\n[Looker]\nbase_url=https://{c['client']}.cloud.looker.com\nclient_id={s(r, ALNUM, 20)}\nclient_secret={c['p']}\nverify_ssl=True"


K(
    "looker_client_secret",
    ["LOOKERSDK_CLIENT_SECRET"],
    "Looker client secret",
    looker,
    [t_looker, t_looker],
    section="looker",
)


# --- app secrets / mobile ---------------------------------------------------------------------------------


K(
    "jwt_signing_secret",
    ["JWT_SECRET", "JWT_SIGNING_KEY"],
    "JWT secret",
    lambda r: r.choice([s(r, ALNUM, 48), hx(r, 64), base64.b64encode(rbytes(r, 48)).decode()]),
    section="auth",
)


def django_key(r):
    return r.choice(["", "django-insecure-"]) + s(r, LO + DIG + "!@#$^&*(-_=+)", 50)


def t_django(r, c):
    return f'# {c["proj"]}/settings/{c["env"]}.py\nSECRET_KEY = "{c["p"]}"\nDEBUG = False\nALLOWED_HOSTS = ["{c["client"]}.nl"]'


K(
    "django_secret_key",
    ["DJANGO_SECRET_KEY"],
    "Django secret key",
    django_key,
    [t_django, t_django],
    section="django",
)


def t_gprops(r, c):
    return (
        f"# ~/.gradle/gradle.properties ({c['client']} app)\nRELEASE_STORE_FILE=../keystores/{c['client']}.jks\n"
        f"RELEASE_STORE_PASSWORD={c['p']}\nRELEASE_KEY_ALIAS=upload\norg.gradle.jvmargs=-Xmx4g"
    )


def t_signing(r, c):
    return (
        'signingConfigs {\n    create("release") {\n        storeFile = file("upload-keystore.jks")\n'
        f'        storePassword = "{c["p"]}"\n        keyAlias = "upload"\n        keyPassword = System.getenv("KEY_PASSWORD")\n    }}\n}}'
    )


def t_keytool(r, c):
    return (
        f"$ keytool -list -v -keystore {c['client']}.jks -storepass {c['p']}\nKeystore type: PKCS12\n"
        f"Your keystore contains 1 entry\nAlias name: upload"
    )


K(
    "android_keystore_password",
    ["KEYSTORE_PASSWORD", "ANDROID_STORE_PASSWORD"],
    "Android keystore password",
    lambda r: password(r),
    [t_gprops, t_signing, t_keytool],
    section="android",
)


def t_match(r, c):
    return (
        f"# fastlane/.env.{c['env']}\nMATCH_GIT_URL=git@github.com:agency/certificates.git\nMATCH_PASSWORD={c['p']}\n"
        f"FASTLANE_TEAM_ID={s(r, UPNUM, 10)}"
    )


K(
    "fastlane_match_password",
    ["MATCH_PASSWORD"],
    "fastlane match passphrase",
    lambda r: password(r),
    [t_match, t_match],
    section="fastlane",
)


def app_pw(r):
    return "-".join(s(r, LO, 4) for _ in range(4))


def t_apppw(r, c):
    return (
        f"$ FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD={c['p']} fastlane pilot upload --ipa {c['client']}.ipa\n"
        "[13:02:11]: Ready to upload new build to TestFlight (App: 16" + str(r.randint(10**8, 10**9)) + ")..."
    )


K(
    "apple_app_specific_password",
    ["FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD"],
    "Apple app-specific password",
    app_pw,
    [t_apppw, t_apppw],
    section="apple",
)


# --- private keys -------------------------------------------------------------------------------------------

K(
    "app_store_connect_p8_key",
    ["ASC_KEY_CONTENT", "APP_STORE_CONNECT_KEY"],
    "App Store Connect API key (.p8)",
    ec_p8_pem,
    PEM_T,
    generic=False,
    file="AUTHKEY",
)
K(
    "rsa_private_key",
    ["SNOWFLAKE_PRIVATE_KEY", "JWT_PRIVATE_KEY", "DEPLOY_KEY"],
    "RSA private key",
    rsa_pem,
    PEM_T,
    generic=False,
    file="rsa_key.pem",
)
K(
    "openssh_private_key",
    ["DEPLOY_SSH_KEY", "SSH_PRIVATE_KEY"],
    "SSH deploy key",
    openssh_pem,
    PEM_T,
    generic=False,
    file=".ssh/id_ed25519",
)


# ---------------------------------------------------------------------------------------------------
# Assembly of positives
# ---------------------------------------------------------------------------------------------------


def _ctx(r, spec):
    ex = spec["extra"]
    var = r.choice(spec["vars"]) if spec["vars"] else "SECRET_VALUE"
    p1, p2 = r.sample(PEOPLE, 2)
    f = ex.get("file", "key.pem")
    if f == "AUTHKEY":
        f = f"AuthKey_{s(r, UPNUM, 10)}.p8"
    return {
        "var": var,
        "key": var.lower(),
        "label": spec["label"],
        "client": r.choice(CLIENTS),
        "proj": r.choice(PROJECTS),
        "person": p1,
        "person2": p2,
        "env": r.choice(ENVS),
        "section": ex.get("section", "default"),
        "host": ex.get("host", "api.example.com"),
        "header": ex.get("header", "X-Api-Key"),
        "file": f,
    }


def _templates(spec):
    ts_ = list(spec["spec"])
    rest = []
    if spec["generic"]:
        rest += GENERIC
    if spec["bearer"]:
        rest += BEARER
    if "header" in spec["extra"]:
        rest.append(g_header)
    if spec["bearer"] or "header" in spec["extra"]:
        rest.append(g_node_err)
    return ts_, rest


URL_UNFIT = {g_node_err, g_swift, g_gradle}


def _positives(r, seen):
    out = []
    for spec in KINDS:
        first, rest = _templates(spec)
        rest = rest[:]
        r.shuffle(rest)
        seq = first + rest
        if len(seq) < PER_KIND:
            seq = seq + first + rest
        n = i = tries = 0
        while n < PER_KIND:
            tries += 1
            if tries > 20 * PER_KIND:
                raise RuntimeError("cannot fill kind " + spec["kind"])
            t = seq[i % len(seq)]
            i += 1
            res = spec["gen"](r)
            secret, payload = res if isinstance(res, tuple) else (res, res)
            c = _ctx(r, spec)
            c["p"] = payload
            c["secret"] = secret
            if t in URL_UNFIT and secret != payload:
                continue
            text = t(r, c)
            if secret not in text or secret != secret.strip():
                raise RuntimeError(f"secret missing in {spec['kind']} / {t.__name__}")
            if text in seen:
                continue
            seen.add(text)
            out.append((text, spec["kind"], secret))
            n += 1
    return out


# ---------------------------------------------------------------------------------------------------
# Look-alikes: texts with no credential at all
# ---------------------------------------------------------------------------------------------------

_LOOK = []


def look(fn):
    _LOOK.append(fn)
    return fn


def _c(r):
    return r.choice(CLIENTS)


def _p(r):
    return r.choice(PROJECTS)


def _who(r):
    return r.choice(PEOPLE)


def b64(r, n):
    return base64.b64encode(rbytes(r, n)).decode()


# --- ML / data ids, hashes and outputs ---------------------------------------------------------------


@look
def l_commit(r):
    sha = hx(r, 40)
    return f"Fixed the target leakage in {_p(r)} in {sha[:7]} (full sha {sha}); cherry-pick onto release/{r.randint(1, 9)}.x"


@look
def l_model_sha(r):
    return f"Uploaded model.safetensors for {_p(r)}\nsha256: {hx(r, 64)}\nsize: {r.randint(10**8, 10**10)} bytes"


@look
def l_dvc(r):
    return f"outs:\n- md5: {hx(r, 32)}.dir\n  size: {r.randint(10**6, 10**9)}\n  nfiles: {r.randint(2, 900)}\n  path: data/{_p(r)}/raw"


@look
def l_request_id(r):
    return f"{ts(r)} INFO  api.request method=POST path=/v1/predict status=200 request_id={uid(r)} latency_ms={r.randint(5, 900)}"


@look
def l_mlflow_run(r):
    rid = hx(r, 32)
    return f"MLflow run {rid} finished (experiment_id={r.randint(1, 999)})\nartifact_uri: s3://{_p(r)}-mlflow/{r.randint(1, 40)}/{rid}/artifacts"


@look
def l_wandb_run(r):
    return f"Best sweep run: https://wandb.ai/{_c(r)}/{_p(r)}/runs/{s(r, LONUM, 8)} (sweep {s(r, LONUM, 8)}, val_f1=0.{r.randint(600, 990)})"


@look
def l_hf_revision(r):
    return f'tok = AutoTokenizer.from_pretrained("{_c(r)}/{_p(r)}-bert", revision="{hx(r, 40)}")  # pin the revision!'


@look
def l_kaggle_dl(r):
    ds = f"{_who(r)}{r.randint(1, 99)}/{r.choice(['retail-sales', 'hotel-reviews', 'bike-rentals'])}-{r.randint(2019, 2026)}"
    return f"$ kaggle datasets download -d {ds}\nDownloading {ds.split('/')[1]}.zip to /content\n100%|██████████| {r.randint(1, 900)}M/{r.randint(1, 900)}M"


@look
def l_nb_hashed(r):
    rows = "\n".join(f"{i}  {hx(r, 40)}  {r.randint(1, 90)}  {r.random():.3f}" for i in range(4))
    cell = {
        "cell_type": "code",
        "execution_count": r.randint(1, 99),
        "outputs": [
            {
                "output_type": "execute_result",
                "execution_count": r.randint(1, 99),
                "data": {"text/plain": ["   user_sha1  orders  churn_p\n" + rows]},
            }
        ],
        "source": ["df.head(4)"],
    }
    return json.dumps(cell, indent=1)


@look
def l_nb_png(r):
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rbytes(r, 180)).decode()
    cell = {
        "cell_type": "code",
        "execution_count": r.randint(1, 99),
        "outputs": [
            {
                "output_type": "display_data",
                "data": {
                    "image/png": png,
                    "text/plain": ["<Figure size 640x480 with 1 Axes>"],
                },
            }
        ],
        "source": ["sns.histplot(df['basket_value'])"],
    }
    return json.dumps(cell, indent=1)


@look
def l_data_uri(r):
    return f"Logo for the {_c(r)} newsletter (inline): ![logo](data:image/png;base64,iVBORw0KGgo{b64(r, 120)})"


@look
def l_embedding(r):
    vals = ", ".join(f"{r.uniform(-1, 1):.4f}" for _ in range(8))
    return f"In [{r.randint(2, 50)}]: emb[:8]\nOut[{r.randint(2, 50)}]: array([{vals}], dtype=float32)"


@look
def l_spark_app(r):
    app = f"application_{r.randint(10**12, 2 * 10**12)}_{r.randint(1, 9999):04d}"
    return f"Submitted {app}; tracking URL: http://emr-master:20888/proxy/{app}/ (stage {r.randint(1, 40)} of {r.randint(41, 80)})"


@look
def l_databricks_ids(r):
    return (
        f"Cluster {r.randint(1000, 1231):04d}-{r.randint(100000, 235959)}-{s(r, LO, 4)}{r.randint(100, 999)} restarted; "
        f"job run https://adb-{r.randint(10**15, 10**16 - 1)}.{r.randint(1, 19)}.azuredatabricks.net/?o={r.randint(10**15, 10**16 - 1)}#job/{r.randint(10**5, 10**15)}/run/{r.randint(10**5, 10**9)}"
    )


@look
def l_airflow_runid(r):
    return f"dag_id=etl_nightly run_id=scheduled__{date(r)}T00:00:00+00:00 task_id=load_{_p(r).replace('-', '_')} try_number={r.randint(1, 3)} map_index=-1"


@look
def l_airflow_varget(r):
    return (
        f'webhook = Variable.get("{r.choice(["slack_webhook", "alerts_webhook", "teams_hook"])}")\n'
        f'conn = BaseHook.get_connection("{r.choice(["warehouse_db", "shop_mysql", "dwh"])}")\n'
        f"engine = create_engine(conn.get_uri())  # password comes from the secrets backend ({_p(r)})"
    )


@look
def l_dbutils(r):
    return f'pw = dbutils.secrets.get(scope="{_c(r)}", key="{r.choice(["snowflake-password", "jdbc-pass", "sa-key"])}")\nprint(pw)  # prints [REDACTED] in notebooks, cell {r.randint(1, 60)}'


@look
def l_dbt_envvar(r):
    return (
        f"{_p(r).replace('-', '_')}:\n  outputs:\n    {r.choice(ENVS)}:\n      type: snowflake\n      account: {acct(r)}\n"
        "      user: \"{{ env_var('DBT_USER') }}\"\n      password: \"{{ env_var('DBT_PASSWORD') }}\"\n      warehouse: WH_XS"
    )


@look
def l_snow_keypair(r):
    return (
        f"snowflake:\n  account: {acct(r)}\n  user: SVC_{_p(r).upper().replace('-', '_')}\n"
        f"  private_key_path: /run/secrets/rsa_key_{r.randint(1, 9)}.p8\n  private_key_passphrase: \"{{{{ env_var('SNOWFLAKE_KEY_PASSPHRASE') }}}}\""
    )


@look
def l_snow_sso(r):
    return f'connections.toml:\n[default]\naccount = "{acct(r)}"\nuser = "{_who(r)}@agency.nl"\nauthenticator = "externalbrowser"\nrole = "ANALYST_{r.randint(1, 9)}"'


@look
def l_bq_job(r):
    return f"BigQuery job {_p(r)}-{r.randint(100000, 999999)}:EU.bquxjob_{hx(r, 8)}_{hx(r, 11)} processed {r.randint(1, 900)}.{r.randint(0, 9)} GB"


@look
def l_redshift_iam(r):
    return f"jdbc:redshift:iam://{_p(r)}.{s(r, LONUM, 12)}.eu-west-1.redshift.amazonaws.com:5439/dev?DbUser=analyst&AutoCreate=true  (IAM auth, no password)"


@look
def l_ch_query(r):
    return f"<Error> executeQuery: Code: 241. DB::Exception: Memory limit exceeded (query_id: {uid(r)}) (from 10.0.{r.randint(0, 9)}.{r.randint(2, 250)}:5{r.randint(1000, 9999)})"


@look
def l_conn_masked(r):
    return f"[{ts(r)}] INFO - Using connection ID 'warehouse_db' for task execution.\n[{ts(r)}] INFO - uri=postgresql://etl:***@warehouse.internal:5432/dwh"


@look
def l_pinecone_host(r):
    return f"index host: https://{_p(r)}-emb-{hx(r, 7)}.svc.aped-{r.randint(1000, 9999)}-{hx(r, 4)}.pinecone.io (dim 1536, metric cosine)"


@look
def l_qdrant_points(r):
    return "upserted points: " + ", ".join(uid(r) for _ in range(3)) + f" into collection {_p(r)}_docs"


@look
def l_s3_etag(r):
    return f'$ aws s3api head-object --bucket {_p(r)}-lake --key raw/{date(r)}.parquet\n{{\n  "ETag": "\\"{hx(r, 32)}\\"",\n  "VersionId": "{s(r, B64URL, 32)}",\n  "ContentLength": {r.randint(1000, 10**9)}\n}}'


@look
def l_presigned_redacted(r):
    return (
        f"Shared link (expired): https://{_p(r)}-exports.s3.eu-west-1.amazonaws.com/reports/{s(r, LO, 6)}.csv?"
        "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=<redacted>"
    )


@look
def l_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(r, 64)}\nsize {r.randint(10**5, 10**9)}"


@look
def l_label_ids(r):
    d = {
        "action": "ANNOTATION_CREATED",
        "project": {"id": r.randint(1, 90)},
        "task": {"id": r.randint(10**3, 10**6)},
        "annotation": {
            "id": r.randint(10**3, 10**6),
            "lead_time": round(r.uniform(2, 90), 2),
        },
    }
    return "Label Studio webhook payload:\n" + json.dumps(d)


@look
def l_mlflow_uri(r):
    return f"MLFLOW_TRACKING_URI=databricks\nMLFLOW_EXPERIMENT_ID={r.randint(10**14, 10**16)}\nMLFLOW_REGISTRY_URI=databricks-uc"


@look
def l_wandb_login_out(r):
    return f"$ wandb login\nwandb: W&B API key is configured. Use `wandb login --relogin` to force relogin\nwandb: Currently logged in as: {_who(r)}{r.randint(1, 99)} ({_c(r)})"


@look
def l_hf_whoami(r):
    return f"$ huggingface-cli whoami\n{_who(r)}-{r.randint(1, 99)}\norgs:  {_c(r)},{_p(r)}\nToken has been saved to /home/{_who(r)}/.cache/huggingface/token"


@look
def l_kaggle_perm(r):
    return f"Warning: Your Kaggle API key is readable by other users on this system! To fix this, you can run 'chmod 600 /home/{_who(r)}{r.randint(1, 99)}/.kaggle/kaggle.json'"


@look
def l_ckpt(r):
    return f"saved checkpoints/{_p(r)}/epoch={r.randint(0, 30):02d}-step={r.randint(100, 99999)}-val_loss={r.random():.4f}-{hx(r, 8)}.ckpt"


@look
def l_seed_cfg(r):
    return f"seed: {r.randint(0, 10**6)}\nrun_name: {r.choice(WORDS)}-{r.choice(WORDS)}-{r.randint(1, 300)}\nlearning_rate: {r.choice(['3e-4', '1e-3', '5e-5'])}\nbatch_size: {r.choice([16, 32, 64])}"


@look
def l_env_names(r):
    names = r.sample(
        [
            "WANDB_API_KEY",
            "HF_TOKEN",
            "SNOWFLAKE_PASSWORD",
            "KAGGLE_KEY",
            "OPENAI_API_KEY",
            "DATABRICKS_TOKEN",
            "STRIPE_SECRET_KEY",
            "SENDGRID_API_KEY",
        ],
        4,
    )
    return (
        f"Setup for {_p(r)}: export "
        + ", ".join(names)
        + " before running make train (ask "
        + _who(r)
        + " for access)."
    )


@look
def l_getpass(r):
    return f'import getpass\npw = getpass.getpass("{r.choice(["Snowflake", "Redshift", "ClickHouse"])} password for {_who(r)}: ")\nconn = connect(user="{_who(r)}", password=pw)'


@look
def l_getenv(r):
    return f'conn = psycopg2.connect(host="{r.choice(["db.internal", "10.0.0.5"])}", dbname="{_p(r).replace("-", "_")}", user="etl", password=os.environ["PGPASSWORD"])'


@look
def l_r_keyring(r):
    return f'con <- DBI::dbConnect(odbc::odbc(), "Snowflake", uid = "{_who(r).upper()}",\n  pwd = keyring::key_get("snowflake", "{_who(r)}"))\n# {_p(r)} report'


@look
def l_spark_secret_ref(r):
    return f"spark.hadoop.fs.azure.account.key.{s(r, LONUM, 12)}.dfs.core.windows.net {{{{secrets/{_c(r)}/storage-key}}}}\nspark.sql.shuffle.partitions {r.choice([64, 200, 400])}"


@look
def l_wandb_artifact(r):
    return f"artifact {_p(r)}-dataset:v{r.randint(0, 40)} digest {hx(r, 32)} ({r.randint(1, 900)} files)"


@look
def l_bq_table(r):
    return f"SELECT user_id_hash, SUM(revenue) FROM `{_p(r)}-{r.randint(100000, 999999)}.analytics.events_{date(r).replace('-', '')}` WHERE user_id_hash = '{hx(r, 64)}' GROUP BY 1"


@look
def l_hashed_emails(r):
    return "Meta CAPI payload (hashed PII):\n" + json.dumps(
        {
            "data": [
                {
                    "event_name": "Purchase",
                    "user_data": {
                        "em": [hashlib.sha256(f"{_who(r)}{r.randint(1, 10**6)}@example.org".encode()).hexdigest()]
                    },
                }
            ]
        }
    )


# --- public-by-design values --------------------------------------------------------------------------


@look
def l_stripe_pk(r):
    return f"<script>const stripe = Stripe('{'pk' + '_live_' + '51' + s(r, ALNUM, 97)}');</script>\n<!-- {_c(r)} checkout page -->"


@look
def l_stripe_ids(r):
    return f"{ts(r)} webhook evt_{s(r, ALNUM, 24)} payment_intent.succeeded pi_{s(r, ALNUM, 24)} customer cus_{s(r, ALNUM, 14)} amount={r.randint(100, 99999)}"


@look
def l_stripe_sig(r):
    return f"POST /webhooks/stripe HTTP/1.1\nHost: {_c(r)}.nl\nStripe-Signature: t={r.randint(17 * 10**8, 18 * 10**8)},v1={hx(r, 64)}\nContent-Type: application/json"


@look
def l_shopify_hmac(r):
    return f"POST /webhooks/orders-create HTTP/1.1\nX-Shopify-Topic: orders/create\nX-Shopify-Hmac-Sha256: {b64(r, 32)}\nX-Shopify-Shop-Domain: {_c(r)}.myshopify.com\nX-Shopify-Webhook-Id: {uid(r)}"


@look
def l_shopify_clientid(r):
    return f'# shopify.app.toml\nclient_id = "{hx(r, 32)}"\nname = "{_c(r)}-sync"\napplication_url = "https://{_c(r)}-sync.fly.dev"\nembedded = true'


@look
def l_paypal_clientid(r):
    return f'<script src="https://www.paypal.com/sdk/js?client-id=A{s(r, B64URL, 79)}&currency=EUR"></script>'


@look
def l_adyen_client_key(r):
    return f"const checkout = await AdyenCheckout({{ environment: 'live', clientKey: '{'live_' + s(r, UPNUM, 32)}', locale: 'nl-NL' }});"


@look
def l_adyen_psp(r):
    return f"Adyen notification: eventCode=AUTHORISATION success=true pspReference={s(r, UPNUM, 16)} merchantReference={_c(r)}-{r.randint(1000, 99999)}"


@look
def l_supabase_anon(r):
    key = jwt(
        r,
        {
            "iss": "supabase",
            "ref": s(r, LO, 20),
            "role": "anon",
            "iat": 17 * 10**8 + r.randint(0, 10**8),
            "exp": 2 * 10**9,
        },
    )
    return f"// public client, anon key is safe to ship\nexport const supabase = createClient('https://{s(r, LO, 20)}.supabase.co', '{key}')"


@look
def l_firebase_web(r):
    num = r.randint(10**11, 10**12 - 1)
    cfg = {
        "apiKey": "AI" + "za" + s(r, B64URL, 35),
        "authDomain": f"{_c(r)}.firebaseapp.com",
        "projectId": _c(r),
        "messagingSenderId": str(num),
        "appId": f"1:{num}:web:{hx(r, 22)}",
    }
    return "const firebaseConfig = " + json.dumps(cfg, indent=2) + ";"


@look
def l_sentry_dsn(r):
    return f"Sentry.init({{ dsn: 'https://{hx(r, 32)}@o{r.randint(10**5, 10**7)}.ingest.de.sentry.io/{r.randint(10**6, 10**7)}', tracesSampleRate: 0.1 }});"


@look
def l_google_clientid(r):
    return f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{s(r, LONUM, 32)}.apps.googleusercontent.com\nGOOGLE_REDIRECT_URI=https://{_c(r)}.nl/auth/google/callback"


@look
def l_algolia_search(r):
    return f"// search-only key, fine in the browser\nconst searchClient = algoliasearch('{s(r, UPNUM, 10)}', '{hx(r, 32)}');"


@look
def l_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{s(r, B64URL, 38)}"></div>\n<!-- {_c(r)} contact form -->'


@look
def l_mapbox_pk(r):
    body = b64u(json.dumps({"u": _c(r).replace("-", ""), "a": s(r, LONUM, 25)}, separators=(",", ":")).encode())
    return f"mapboxgl.accessToken = '{'pk.' + body + '.' + s(r, B64URL, 22)}'; // public token, URL-restricted"


@look
def l_mixpanel_token(r):
    return f"mixpanel.init('{hx(r, 32)}', {{track_pageview: true, persistence: 'localStorage'}}); // project token (public)"


@look
def l_ga_ids(r):
    return f"Analytics for {_c(r)}: GA4 G-{s(r, UPNUM, 10)}, GTM-{s(r, UPNUM, 7)}, Meta pixel {r.randint(10**14, 10**16)}, Hotjar {r.randint(10**6, 10**7)}"


@look
def l_contentful_space(r):
    return f"CONTENTFUL_SPACE_ID={s(r, LONUM, 12)}\nCONTENTFUL_ENVIRONMENT={r.choice(['master', 'staging', 'release-' + str(r.randint(1, 30))])}\nCONTENTFUL_LOCALE=nl-NL"


@look
def l_sanity_project(r):
    return f"// sanity.config.ts\nexport default defineConfig({{ projectId: '{s(r, LONUM, 8)}', dataset: '{r.choice(['production', 'staging'])}', title: '{_c(r)}' }})"


@look
def l_vercel_ids(r):
    return f'$ cat .vercel/project.json\n{{"projectId":"prj_{s(r, ALNUM, 28)}","orgId":"team_{s(r, ALNUM, 24)}"}}'


@look
def l_netlify_site(r):
    return f"netlify link --id {uid(r)}\nLinked to {_c(r)} (site id above, not a secret)"


@look
def l_google_services(r):
    num = r.randint(10**11, 10**12 - 1)
    d = {
        "project_info": {"project_number": str(num), "project_id": _c(r)},
        "client": [
            {
                "client_info": {
                    "mobilesdk_app_id": f"1:{num}:android:{hx(r, 16)}",
                    "android_client_info": {"package_name": f"nl.{_c(r).replace('-', '')}.app"},
                }
            }
        ],
    }
    return "google-services.json (trimmed):\n" + json.dumps(d, indent=1)


@look
def l_twilio_sid(r):
    return f"Twilio account SID AC{hx(r, 32)} (auth token lives in 1Password), messaging service MG{hx(r, 32)}"


@look
def l_twilio_log(r):
    return "\n".join(f"{ts(r)} SM{hx(r, 32)} delivered +3161{r.randint(1000000, 9999999)}" for _ in range(3))


@look
def l_mail_ids(r):
    return (
        f"X-Message-Id: {s(r, B64URL, 22)}\nPostmark MessageID: {uid(r)}\n"
        f"Mailgun id: <{date(r).replace('-', '')}{r.randint(10**5, 10**6)}.{hx(r, 16)}@mg.{_c(r)}.com>"
    )


@look
def l_mailchimp_list(r):
    return (
        f"Mailchimp audience id {hx(r, 10)}, campaign {hx(r, 10)} sent to {r.randint(100, 9000)} contacts for {_c(r)}"
    )


@look
def l_onesignal_app(r):
    return f'OneSignal.init({{ appId: "{uid(r)}" }}); // {_c(r)} web push, app id is public'


@look
def l_expo_project(r):
    return json.dumps(
        {
            "expo": {
                "name": _c(r),
                "slug": _c(r),
                "extra": {"eas": {"projectId": uid(r)}},
                "ios": {"bundleIdentifier": f"nl.agency.{s(r, LO, 6)}"},
            }
        },
        indent=2,
    )


# --- references to where a secret lives -----------------------------------------------------------------


@look
def l_gha_secrets(r):
    v = r.choice(
        [
            "STRIPE_SECRET_KEY",
            "WANDB_API_KEY",
            "SNOWFLAKE_PASSWORD",
            "VERCEL_TOKEN",
            "MATCH_PASSWORD",
        ]
    )
    return f"    env:\n      {v}: ${{{{ secrets.{v} }}}}\n      RUN_ID: ${{{{ github.run_id }}}}\n    steps:\n      - uses: actions/checkout@{hx(r, 40)} # v4.{r.randint(0, 2)}.{r.randint(0, 9)}"


@look
def l_placeholder_angle(r):
    v = r.choice(
        [
            "<your-api-key>",
            "<YOUR_TOKEN_HERE>",
            "<paste-wandb-key>",
            "YOUR_SECRET_KEY",
            "<password>",
        ]
    )
    return f"README for {_p(r)}:\n  1. cp .env.example .env\n  2. set {r.choice(['OPENAI_API_KEY', 'HF_TOKEN', 'SENDGRID_API_KEY'])}={v}\n  3. make dev  (port {r.randint(3000, 9000)})"


@look
def l_placeholder_env(r):
    v = r.choice(["STRIPE_SECRET_KEY", "DB_PASSWORD", "CLICKHOUSE_PASSWORD", "SLACK_WEBHOOK_URL"])
    return f"# docker-compose.yml ({_c(r)})\nservices:\n  app:\n    environment:\n      - {v}=${{{v}}}\n      - PORT={r.randint(3000, 9000)}"


@look
def l_changeme(r):
    return f"Docs ({_p(r)}): the local docker image ships with user `admin` and password `changeme`; the entrypoint refuses to start in {r.choice(['prod', 'staging'])} until you override ADMIN_PASSWORD."


@look
def l_masked(r):
    return f"[{ts(r)}] Run ./deploy.sh\n[{ts(r)}] SNOWFLAKE_PASSWORD=***\n[{ts(r)}] STRIPE_SECRET_KEY=***\n[{ts(r)}] deploy {_c(r)} ok in {r.randint(10, 300)}s"


@look
def l_redacted_prefix(r):
    pre = r.choice(["gh" + "p_", "sk" + "_live_", "xo" + "xb-", "h" + "f_", "S" + "G."])
    return f"Rotated the leaked token {pre}{'*' * r.randint(20, 32)}{s(r, ALNUM, 4)} on {date(r)}; new one is in the vault."


@look
def l_openai_masked(r):
    return (
        '{"error": {"message": "Incorrect API key provided: sk-proj-'
        + "*" * r.randint(20, 40)
        + s(r, ALNUM, 4)
        + '. You can find your API key at https://platform.openai.com/account/api-keys.", "type": "invalid_request_error", "code": "invalid_api_key"}}'
        + f"\nrequest_id={uid(r)}"
    )


@look
def l_vault_kv(r):
    return (
        f"$ vault kv metadata get secret/clients/{_c(r)}/stripe\n==== Metadata ====\ncreated_time    {ts(r)}\n"
        f"current_version {r.randint(1, 12)}\nmax_versions    0"
    )


@look
def l_aws_sm_arn(r):
    return f'secret_arn = "arn:aws:secretsmanager:{r.choice(REGIONS[:3])}:{r.randint(10**11, 10**12 - 1)}:secret:{_p(r)}/snowflake-{s(r, ALNUM, 6)}"'


@look
def l_gcp_sm(r):
    return f"gcloud secrets versions access latest --secret={_p(r)}-db-password --project={_c(r)}-prod  # run this, don't paste the output here"


@look
def l_azure_kv(r):
    return f'"DB_PASSWORD": "@Microsoft.KeyVault(SecretUri=https://kv-{_c(r)}.vault.azure.net/secrets/db-password/{hx(r, 32)})"'


@look
def l_k8s_ref(r):
    return f'        env:\n          - name: WANDB_API_KEY\n            valueFrom:\n              secretKeyRef:\n                name: {_p(r)}-secrets\n                key: wandb-api-key\n          - name: REPLICAS\n            value: "{r.randint(1, 9)}"'


@look
def l_op_ref(r):
    return f"STRIPE_SECRET_KEY=op://{_c(r)}/stripe-{r.choice(ENVS)}/credential\nDB_PASSWORD=op://{_c(r)}/postgres/password\n$ op run --env-file=.env.tpl -- npm start"


@look
def l_tf_sensitive(r):
    return f'resource "random_password" "{_p(r).replace("-", "_")}" {{\n  length  = {r.randint(16, 40)}\n  special = true\n}}\n\nOutputs:\n\ndb_password = <sensitive>'


@look
def l_vercel_env_ls(r):
    return f"$ vercel env ls\n name                 value      environments        created\n STRIPE_SECRET_KEY    Encrypted  Production          {r.randint(2, 40)}d ago\n DATABASE_URL         Encrypted  Production,Preview  {r.randint(41, 90)}d ago"


@look
def l_gh_secret_list(r):
    return f"$ gh secret list -R agency/{_c(r)}\nMATCH_PASSWORD          {date(r)}\nASC_KEY_CONTENT         {date(r)}\nKEYSTORE_PASSWORD       {date(r)}"


@look
def l_conn_template(r):
    return (
        "bash_command='PGPASSWORD={{ conn.warehouse_db.password }} psql -h {{ conn.warehouse_db.host }} -c \"vacuum "
        + _p(r).replace("-", "_")
        + f"\"'  # task {r.randint(1, 99)}"
    )


@look
def l_log_filtered(r):
    return f'Started POST "/users/sign_in" for 10.0.{r.randint(0, 9)}.{r.randint(2, 250)}\n  Parameters: {{"user"=>{{"email"=>"{_who(r)}@{_c(r)}.nl", "password"=>"[FILTERED]"}}}}'


@look
def l_empty_pw(r):
    return f'# local only, trust auth\ndatabase:\n  host: localhost\n  user: postgres\n  password: ""\n  port: {r.choice([5432, 5433, 54322])}\n  name: {_p(r).replace("-", "_")}_dev'


@look
def l_wp_placeholder(r):
    name = r.choice(["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_SALT"])
    return f"// wp-config-sample.php copied for {_c(r)}\ndefine( '{name}', 'put your unique phrase here' );\ndefine( 'WP_DEBUG_LOG', {r.choice(['true', 'false'])} );"


@look
def l_wp_getenv(r):
    return f"define( 'DB_PASSWORD', getenv( 'WORDPRESS_DB_PASSWORD' ) );\ndefine( 'DB_HOST', '{_c(r)}-db:{r.choice([3306, 3307])}' );"


@look
def l_android_env_sign(r):
    return f'signingConfigs {{\n    release {{\n        storeFile file("../keystores/{_c(r)}.jks")\n        storePassword System.getenv("KEYSTORE_PASSWORD")\n        keyAlias "upload"\n        keyPassword System.getenv("KEY_PASSWORD")\n    }}\n}} // v{r.randint(1, 99)}'


@look
def l_asc_keyid(r):
    d = {
        "key_id": s(r, UPNUM, 10),
        "issuer_id": uid(r),
        "key_filepath": f"./fastlane/AuthKey_{s(r, UPNUM, 10)}.p8",
        "in_house": False,
    }
    return "fastlane/api_key.json (content read from CI secret at runtime):\n" + json.dumps(d, indent=2)


@look
def l_fastlane_appfile(r):
    return f'app_identifier("nl.{_c(r).replace("-", "")}.app")\napple_id("dev+{_who(r)}@agency.nl")\nitc_team_id("{r.randint(10**8, 10**9)}")\nteam_id("{s(r, UPNUM, 10)}")'


@look
def l_ios_ids(r):
    return (
        f"Provisioning profile {uid(r).upper()} for nl.agency.{s(r, LO, 6)} (team {s(r, UPNUM, 10)}), expires {date(r)}"
    )


@look
def l_sa_keyid(r):
    return (
        f"$ gcloud iam service-accounts keys list --iam-account=bq-loader@{_p(r)}-{r.randint(10**5, 10**6)}.iam.gserviceaccount.com\n"
        f"KEY_ID                                    CREATED_AT            EXPIRES_AT\n{hx(r, 40)}  {ts(r)}  9999-12-31T23:59:59Z"
    )


# --- encrypted values, hashes, public keys --------------------------------------------------------------


@look
def l_bcrypt(r):
    return (
        f"INSERT INTO users (email, password_hash) VALUES ('{_who(r)}@{_c(r)}.nl', '$2b$12${s(r, ALNUM + './', 53)}');"
    )


@look
def l_argon2(r):
    return f"{_who(r)}:$argon2id$v=19$m=65536,t=3,p=4${b64(r, 16).rstrip('=')}${b64(r, 32).rstrip('=')}"


@look
def l_pbkdf2(r):
    return f">>> User.objects.get(username='{_who(r)}').password\n'pbkdf2_sha256$870000${s(r, ALNUM, 22)}${b64(r, 32)}'"


@look
def l_sha512crypt(r):
    return f"{_who(r)}:$6${s(r, ALNUM + './', 16)}${s(r, ALNUM + './', 86)}:{r.randint(19000, 20500)}:0:99999:7:::"


@look
def l_wp_hash(r):
    h = r.choice(["$P$B" + s(r, ALNUM + "./", 30), "$wp$2y$10$" + s(r, ALNUM + "./", 53)])
    return f"mysql> SELECT user_login, user_pass FROM wp_users LIMIT 1;\n| {_who(r)} | {h} |"


@look
def l_ansible_vault(r):
    body = "\n".join("          " + hx(r, 80) for _ in range(r.randint(3, 6)))
    return f"stripe_secret_key: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n{body}"


@look
def l_sops(r):
    return f"snowflake:\n    password: ENC[AES256_GCM,data:{b64(r, 18)},iv:{b64(r, 32)},tag:{b64(r, 16)},type:str]\nsops:\n    version: 3.{r.randint(7, 9)}.{r.randint(0, 3)}"


@look
def l_pgp_msg(r):
    return f"Encrypted handoff for {_c(r)}:\n" + armour("PGP MESSAGE", "hQIMA" + b64(r, 300))


@look
def l_age(r):
    return f"$ cat secrets.env.age\n{DASH5}BEGIN AGE ENCRYPTED FILE{DASH5}\n{_wrap('YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOSB' + b64(r, 150), 64)}\n{DASH5}END AGE ENCRYPTED FILE{DASH5}"


@look
def l_sealed(r):
    return f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {_p(r)}\nspec:\n  encryptedData:\n    STRIPE_SECRET_KEY: AgB{b64(r, 180)}"


@look
def l_ssh_pub(r):
    return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{s(r, B64, 43)} {_who(r)}@{_c(r)}-laptop  # add to authorized_keys on the build box"


@look
def l_ssh_fp(r):
    return f"$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{b64(r, 32).rstrip('=')} {_who(r)}@agency (ED25519)"


@look
def l_cert(r):
    return f"APNs / TLS public cert for {_c(r)}:\n" + armour("CERTIFICATE", "MIIF" + b64(r, 900))


@look
def l_pubkey(r):
    return f"JWT verification key (public) for {_p(r)}:\n" + armour(
        "PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + b64(r, 210)
    )


@look
def l_keytool_fp(r):
    def col(n):
        return ":".join(s(r, "0123456789ABCDEF", 2) for _ in range(n))

    return f"Add these to Firebase for {_c(r)}:\n\t SHA1: {col(20)}\n\t SHA256: {col(32)}"


@look
def l_gpg_fp(r):
    f = s(r, "0123456789ABCDEF", 40)
    return f"pub   ed25519 {date(r)} [SC]\n      {f}\nuid           [ultimate] {_who(r).capitalize()} <{_who(r)}@agency.nl>"


@look
def l_known_hosts(r):
    return (
        f"github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{s(r, B64, 43)}\n# added on {date(r)} for the {_c(r)} deploy"
    )


# --- build, package and web noise --------------------------------------------------------------------


@look
def l_cookie_ga(r):
    return f"GET / HTTP/1.1\nHost: www.{_c(r)}.nl\nCookie: _ga=GA1.1.{r.randint(10**8, 10**9)}.{r.randint(17 * 10**8, 18 * 10**8)}; _fbp=fb.1.{r.randint(10**12, 2 * 10**12)}.{r.randint(10**8, 10**9)}"


@look
def l_etag(r):
    return f'HTTP/1.1 304 Not Modified\nETag: W/"{hx(r, 40)}"\nCache-Control: public, max-age={r.choice([60, 300, 3600])}\nX-Vercel-Id: fra1::{s(r, LONUM, 5)}-{r.randint(10**12, 2 * 10**12)}-{hx(r, 12)}'


@look
def l_traceparent(r):
    return f"traceparent: 00-{hx(r, 32)}-{hx(r, 16)}-01\ntracestate: rojo={hx(r, 16)}\nX-Request-Id: {uid(r)}"


@look
def l_sri(r):
    return f'<script src="https://cdn.{_c(r)}.nl/app.{hx(r, 8)}.js" integrity="sha384-{b64(r, 48)}" crossorigin="anonymous"></script>'


@look
def l_npm_lock(r):
    return f'"node_modules/{r.choice(["lodash", "zod", "axios", "dayjs"])}": {{\n  "version": "{r.randint(1, 5)}.{r.randint(0, 20)}.{r.randint(0, 9)}",\n  "resolved": "https://registry.npmjs.org/x/-/x.tgz",\n  "integrity": "sha512-{b64(r, 64)}"\n}}'


@look
def l_pip_hash(r):
    return f"{r.choice(['numpy', 'pandas', 'scikit-learn', 'dbt-core'])}=={r.randint(1, 2)}.{r.randint(0, 9)}.{r.randint(0, 9)} \\\n    --hash=sha256:{hx(r, 64)} \\\n    --hash=sha256:{hx(r, 64)}"


@look
def l_docker_digest(r):
    img = f"ghcr.io/agency/{_p(r)}:{r.choice(['latest', 'main', 'v' + str(r.randint(1, 9))])}"
    return f"$ docker pull {img}\nDigest: sha256:{hx(r, 64)}\nStatus: Downloaded newer image for {img}"


@look
def l_cache_key(r):
    return f"[{ts(r)}] Cache restored from key: pip-Linux-{hx(r, 64)}\n[{ts(r)}] Cache Size: ~{r.randint(10, 900)} MB"


@look
def l_sourcemap(r):
    return "\n".join(
        f"dist/assets/{n}-{s(r, B64URL, 8)}.js   {r.randint(1, 400)}.{r.randint(10, 99)} kB"
        for n in ["index", "vendor", "checkout"]
    )


@look
def l_poetry_hash(r):
    return f'[metadata]\nlock-version = "2.0"\npython-versions = ">=3.{r.randint(9, 12)}"\ncontent-hash = "{hx(r, 64)}"'


@look
def l_base64_cfg(r):
    raw = json.dumps(
        {
            "theme": r.choice(["dark", "light"]),
            "locale": r.choice(["nl", "pl", "it", "tr"]),
            "client": _c(r),
            "v": r.randint(1, 99),
        }
    ).encode()
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ui-config\nbinaryData:\n  settings.json: {base64.b64encode(raw).decode()}"


@look
def l_uuid_tenant(r):
    return f"AZURE_TENANT_ID={uid(r)}\nAZURE_SUBSCRIPTION_ID={uid(r)}\nAZURE_CLIENT_ID={uid(r)}  # federated credential, no secret needed"


@look
def l_slack_ids(r):
    return f"Alert posted to #{_p(r)}-alerts (channel C{s(r, UPNUM, 10)}, ts {r.randint(17 * 10**8, 18 * 10**8)}.{r.randint(100000, 999999)}), thread by U{s(r, UPNUM, 10)}"


@look
def l_gh_run(r):
    return f"https://github.com/agency/{_c(r)}/actions/runs/{r.randint(10**9, 2 * 10**10)}/job/{r.randint(10**10, 5 * 10**10)} failed at step 'Build' (artifact id {r.randint(10**8, 10**10)})"


@look
def l_tfstate(r):
    return json.dumps(
        {
            "version": 4,
            "terraform_version": f"1.{r.randint(5, 9)}.{r.randint(0, 5)}",
            "serial": r.randint(1, 900),
            "lineage": uid(r),
            "outputs": {},
        },
        indent=2,
    )


@look
def l_pw_policy(r):
    return f"Lesson: {_c(r)} IT requires passwords of {r.randint(12, 20)}+ chars with a symbol; generate them with `openssl rand -base64 24` and store them in Bitwarden, never in memory notes."


@look
def l_note_nl(r):
    return f"Notitie {date(r)}: het {r.choice(['Stripe', 'Snowflake', 'Mailgun', 'Shopify'])}-wachtwoord van {_c(r)} staat in 1Password (kluis '{_c(r)}'), NIET in deze notities zetten."


@look
def l_note_pl(r):
    return f"Notatka: klucz API do {r.choice(['W&B', 'Hugging Face', 'Kaggle', 'Pinecone'])} jest w Vault pod secret/{_p(r)}/{r.choice(ENVS)}; pyta {_who(r)}, nie wklejac tutaj."


@look
def l_note_it(r):
    return f"Promemoria: la password del keystore Android di {_c(r)} e' nel vault del cliente; la scadenza del certificato e' {date(r)}."


@look
def l_note_tr(r):
    return f"Not: {_c(r)} icin Adyen anahtari {date(r)} tarihinde yenilendi, yeni deger GitHub secrets icinde (ADYEN_API_KEY). {_who(r)} biliyor."


@look
def l_note_hi(r):
    return f"Yaad rakhna: {_p(r)} ka Snowflake password ab env var SNOWFLAKE_PASSWORD se aata hai, notebook mein hardcode mat karna ({_who(r)}, {date(r)})."


@look
def l_note_zh(r):
    return f"备忘：{_c(r)} 的 {r.choice(['Firebase', 'App Store Connect', 'SendGrid', 'Vercel'])} 密钥已于 {date(r)} 轮换，新值保存在 1Password，不要写进笔记。"


@look
def l_chat_rotation(r):
    return (
        f"[{hm(r)}] {_who(r)}: rotated the {r.choice(['Slack webhook', 'Databricks token', 'Stripe key', 'HF token'])} for {_p(r)}\n"
        f"[{hm(r)}] {_who(r)}: nice, where is it?\n[{hm(r)}] {_who(r)}: same place as always, {r.choice(['Vault', '1Password', 'Doppler', 'GitHub secrets'])}"
    )


# --- vendor documentation example values ------------------------------------------------------------


@look
def l_aws_doc_example(r):
    ex = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
    return f"From the AWS docs (example only, {r.choice(['boto3 guide', 'CLI config page', 'IAM tutorial'])}, {_p(r)} wiki rev {r.randint(1, 999)}):\naws_secret_access_key = {ex}"


@look
def l_jwt_io(r):
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(
        json.dumps(
            {"sub": "1234567890", "name": "John Doe", "iat": 1516239022},
            separators=(",", ":"),
        ).encode()
    )
    t = head + "." + body + "." + "SflKxwRJSMeKKF2QT4fw" + "pMeJf36POk6yJV_adQssw5c"
    return f"Unit test fixture #{r.randint(1, 500)} for {_p(r)}: the jwt.io sample token {t} must decode to name 'John Doe'."


@look
def l_slack_doc_hook(r):
    u = "https://hooks.slack.com/services/" + "T00000000/B00000000/" + "X" * 24
    return f"# .env.example ({_c(r)}, line {r.randint(1, 60)})\nSLACK_WEBHOOK_URL={u}"


@look
def l_stripe_doc(r):
    k = "sk" + "_test_" + "4eC39HqLyj" + "WDarjtT1zdp7dc"
    return f'Stripe docs snippet ({_p(r)} onboarding page {r.randint(1, 99)}): stripe.api_key = "{k}"  # the public sample key from stripe.com/docs'


@look
def l_example_conn(r):
    return f'Example from the SQLAlchemy docs, section {r.randint(1, 40)}: engine = create_engine("postgresql+psycopg2://scott:tiger@localhost/{_p(r).replace("-", "_")}")'


# ---------------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------------


def _lookalikes(r, seen):
    out = []
    for gen in _LOOK:
        got = tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 50 * LOOK_PER_GEN:
                raise RuntimeError("look-alike generator stuck: " + gen.__name__)
            text = gen(r)
            if text in seen:
                continue
            seen.add(text)
            out.append(text)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives = _positives(r, seen)
    lookalikes = _lookalikes(r, seen)
    return positives, lookalikes
