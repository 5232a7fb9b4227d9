"""Secret-detector test set N.

Theme: the everyday texture of a software team's memory, written by many different people --
incident timelines and postmortems, on-call handovers, Slack/Teams/Discord threads (quotes, code
fences, emoji, @mentions, "(edited)"), code review comments quoting a diff, runbooks and wiki pages
(Markdown tables, admonitions), Jira/Linear/GitHub tickets with pasted logs, support macros and
internal notes, forwarded e-mails with headers, release notes, meeting notes, onboarding
checklists, README/CONTRIBUTING snippets, config pasted with line numbers or diff markers, JSON and
logfmt log lines, stack traces, SQL migrations and seed scripts, Dockerfiles, systemd units, cron
lines, Makefiles, PowerShell/batch, Ansible vars, nginx/HAProxy auth, SSH/OpenVPN/IPsec/WireGuard
configs, exported cookies, password-manager CSV exports, Postman/Insomnia collections and OpenAPI
examples.

Positives cover cloud keys (AWS, GCP, Azure, Alibaba, Tencent, Oracle, IBM, Hetzner, Linode, Vultr,
OVH, Scaleway, Cloudflare, DigitalOcean), forge/CI/registry tokens, many SaaS API keys, database,
queue and SMTP passwords, pre-shared keys, TOTP seeds, recovery codes, private keys (PEM, OpenSSH,
PuTTY), session cookies, refresh tokens, webhook signing secrets and passwords of many shapes.

Look-alikes are texts of the same places and styles with no credential: placeholders, secret
manager and vault references, env var names without values, masked/truncated values, password
HASHES (bcrypt, argon2, scrypt, sha-crypt, apr1, SCRAM, mysql_native -- a hash is not the
password), encrypted blobs (sops, ansible-vault, PGP), digests and checksums, ids of every kind,
public keys/certificates/fingerprints, publishable keys and client ids, vendor documentation
examples marked as such, code reading secrets from env/files, prose, error messages and redaction
notes, and random-looking non-secrets (CSS hashes, cache busters, short links, pod names, ...).

``generate(seed)`` returns ``(positives, lookalikes)``:

* ``positives`` is a list of ``(text, kind, secret)``; ``secret`` is the one sensitive value in
  ``text`` and an exact substring of it.
* ``lookalikes`` is a list of texts that contain no credential.

Everything is built with ``random.Random(seed)``; every vendor prefix, key body and PEM armour line
is assembled at run time from pieces, so the source holds no token-shaped literal.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
import struct
import sys
import time
from collections.abc import Callable

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
LOWNUM = LOWER + DIGITS
UPNUM = UPPER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UPPER + "234567"
CRYPT64 = "./" + DIGITS + UPPER + LOWER
K8S_ALPHA = "bcdfghjklmnpqrstvwxz2456789"
PW_SYMS = "!@%^&*-_=+?.~"
DASH = "-" * 5
PK = "PRIV" + "ATE KEY"

N_POS = 30  # positives per kind
N_LOOK = 12  # look-alikes per generator


# ----------------------------------------------------------------------------------------------
# small random helpers
# ----------------------------------------------------------------------------------------------


def _rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choices(alphabet, k=n))


def _hex(r: random.Random, n: int) -> str:
    return _rs(r, HEX, n)


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    v = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{v[:8]}-{v[8:12]}-{v[12:16]}-{v[16:20]}-{v[20:]}"


def _rbytes(r: random.Random, n: int) -> bytes:
    return bytes(r.getrandbits(8) for _ in range(n))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _wrap64(body: str, width: int = 64) -> str:
    return "\n".join(body[i : i + width] for i in range(0, len(body), width))


def _armour(label: str, body: str, width: int = 64) -> str:
    return f"{DASH}BEGIN {label}{DASH}\n{_wrap64(body, width)}\n{DASH}END {label}{DASH}"


def _sshstr(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def _jwt(r: random.Random, payload: dict, alg: str = "HS256") -> str:
    head = _b64u(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = _rs(r, B64URL, 43 if alg.startswith("HS") else 342)
    return f"{head}.{body}.{sig}"


FIRST = [
    "dana", "li", "omar", "priya", "jonas", "mei", "sven", "aisha", "tomas", "kenji", "rosa", "femi",
    "noor", "lukas", "ines", "raj", "zoe", "mateo", "hana", "felix", "amara", "yusuf", "greta", "ivan",
    "chloe", "diego", "sara", "ben", "nadia", "arjun", "olga", "kwame", "lea", "marco", "tara", "hugo",
]  # fmt: skip
LAST = [
    "kim", "okafor", "schmidt", "patel", "nguyen", "garcia", "rossi", "haddad", "novak", "tanaka",
    "silva", "berg", "cohen", "mensah", "dubois", "kowalski", "larsen", "ortiz", "ahmed", "fischer",
]  # fmt: skip
SVCS = [
    "billing-api", "ingest-worker", "search-svc", "auth-gateway", "notif-service", "ledger",
    "media-resizer", "checkout", "reporting", "scheduler", "webhooks-relay", "user-profile",
    "etl-nightly", "graphql-edge", "payments-bridge", "inventory", "crm-sync", "feature-store",
]  # fmt: skip
ENVS = ["prod", "staging", "dev", "qa", "perf", "sandbox", "preprod", "eu-prod", "us-prod"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "ap-northeast-1", "sa-east-1"]
ORGS = [
    "acme", "northwind", "globex", "initech", "umbrella-labs", "hooli", "vandelay", "soylent", "tyrell",
    "wayne-ent", "pied-piper", "dunder", "monarch", "oscorp", "contoso", "fabrikam", "brightloop",
]  # fmt: skip
TLDS = ["io", "dev", "com", "co", "net", "app", "cloud"]
TEAMS = ["platform", "payments", "data", "growth", "sre", "mobile", "search", "identity", "infra"]
WORDS = [
    "falcon", "harbor", "maple", "orbit", "pepper", "quartz", "river", "saddle", "tundra", "velvet",
    "walnut", "yonder", "zephyr", "anchor", "bramble", "cactus", "dolphin", "ember", "fjord", "glacier",
    "hazel", "igloo", "jasper", "kettle", "lantern", "meadow", "nectar", "oyster", "pickle", "quiver",
    "raven", "sprout", "thistle", "umber", "violet", "willow", "yarrow", "copper", "marble", "tiger",
    "summer", "winter", "autumn", "spring", "monkey", "dragon", "sunshine", "shadow", "bailey", "soccer",
    "coffee", "pirate", "rocket", "banana", "cookie", "puzzle", "castle", "garden", "silver", "thunder",
    "correct", "horse", "battery", "staple", "purple", "elephant", "cobalt", "biscuit", "lemon", "canyon",
]  # fmt: skip
COLORS = ["red", "blue", "green", "amber", "teal", "grey", "black", "white"]


def _first(r: random.Random) -> str:
    return r.choice(FIRST)


def _person(r: random.Random) -> str:
    return f"{r.choice(FIRST).title()} {r.choice(LAST).title()}"


def _handle(r: random.Random) -> str:
    f, la = r.choice(FIRST), r.choice(LAST)
    return r.choice([f, f"{f}.{la}", f"{f}{la[0]}", f"{f[0]}{la}", f"{f}-{la}"])


def _domain(r: random.Random) -> str:
    return f"{r.choice(ORGS)}.{r.choice(TLDS)}"


def _email(r: random.Random) -> str:
    return f"{_handle(r).replace('-', '.')}@{_domain(r)}"


def _date(r: random.Random) -> str:
    return f"{r.choice([2023, 2024, 2025])}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _time(r: random.Random) -> str:
    return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}"


def _ip(r: random.Random) -> str:
    return r.choice(
        [
            f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
            f"172.{r.randint(16, 31)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
            f"192.168.{r.randint(0, 255)}.{r.randint(1, 254)}",
        ]
    )


def _ticket(r: random.Random) -> str:
    return f"{r.choice(['OPS', 'INC', 'SRE', 'PAY', 'PLAT', 'DATA', 'SEC', 'SUP', 'ENG'])}-{r.randint(12, 9999)}"


def _host(r: random.Random) -> str:
    svc, env = r.choice(SVCS), r.choice(ENVS)
    return r.choice(
        [
            f"{svc}-{env}-{r.randint(1, 12):02d}.internal",
            f"{env}-db-{r.randint(1, 4)}.{_domain(r)}",
            f"{svc}.{env}.svc.cluster.local",
            f"ip-{r.randint(10, 172)}-{r.randint(0, 255)}-{r.randint(0, 255)}-{r.randint(1, 254)}.ec2.internal",
            f"{env}-{r.choice(['pg', 'mysql', 'redis', 'rabbit', 'kafka'])}-{r.randint(1, 3)}.{_domain(r)}",
        ]
    )


def _semver(r: random.Random) -> str:
    return f"{r.randint(0, 9)}.{r.randint(0, 40)}.{r.randint(0, 30)}"


def _fill(r: random.Random, tpl: str, **kw: str) -> str:
    """Replace ``{{KEY}}`` markers (upper-case keys only) with random filler or ``kw`` values."""
    vals = {
        "USER": _handle(r).replace(".", "_").replace("-", "_"),
        "H": _handle(r),
        "H2": _handle(r),
        "PERSON": _person(r),
        "NAME": _first(r).title(),
        "HOST": _host(r),
        "DB": r.choice(["app", "billing", "core", "analytics", "orders", "users", "ledger", "cms"]),
        "ENV": r.choice(ENVS),
        "SVC": r.choice(SVCS),
        "TEAM": r.choice(TEAMS),
        "REGION": r.choice(REGIONS),
        "PORT": str(r.choice([5432, 3306, 6379, 5672, 9092, 27017, 8080, 8443, 1433, 1521])),
        "DATE": _date(r),
        "TIME": _time(r),
        "TICKET": _ticket(r),
        "ORG": r.choice(ORGS),
        "DOMAIN": _domain(r),
        "EMAIL": _email(r),
        "N": str(r.randint(2, 48)),
        "IP": _ip(r),
        "VER": _semver(r),
        "UUID": _uuid(r),
        "WORD": r.choice(WORDS),
    }
    vals.update(kw)

    def rep(m: re.Match[str]) -> str:
        return vals.get(m.group(1), m.group(0))

    return re.sub(r"\{\{([A-Z][A-Z0-9_]*)\}\}", rep, tpl)


def _pick(r: random.Random, templates: list[str], **kw: str) -> str:
    return _fill(r, r.choice(templates), **kw)


# ----------------------------------------------------------------------------------------------
# password shapes (no quotes, backslashes, spaces, '#', '$' or '|', so they survive every context)
# ----------------------------------------------------------------------------------------------

LEET = {"a": "@", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}


def _pw_human(r: random.Random) -> str:
    w = r.choice(WORDS)
    return r.choice(
        [
            f"{w.title()}{r.randint(1970, 2025)}{r.choice('!.?*')}",
            f"{w.title()}{r.choice(WORDS)}{r.randint(1, 99)}",
            f"{w}{r.randint(100, 9999)}",
            f"{w.title()}@{r.randint(10, 999)}",
            f"{r.choice(FIRST).title()}{r.choice(['!', '@', '_'])}{r.randint(1960, 2020)}",
        ]
    )


def _pw_leet(r: random.Random) -> str:
    w = r.choice(WORDS) + r.choice(WORDS).title()
    out = "".join(LEET[c] if c in LEET and r.random() < 0.6 else c for c in w)
    return out[0].upper() + out[1:] + r.choice(["!", "", "?", "!!", "%1"]) + str(r.randint(0, 99))


def _pw_generated(r: random.Random, n: int | None = None, syms: str = PW_SYMS) -> str:
    n = n or r.randint(14, 28)
    while True:
        pw = "".join(r.choices(ALNUM + syms, k=n))
        if any(c in syms for c in pw) and any(c.isdigit() for c in pw) and any(c.isupper() for c in pw):
            return pw


def _pw_urlsafe(r: random.Random) -> str:
    human = "".join(c for c in _pw_human(r) if c in ALNUM + "-_.~")
    return r.choice([_rs(r, ALNUM, r.randint(16, 32)), _pw_generated(r, syms="-_.~"), human])


def _passphrase(r: random.Random, seps: str = "- ._") -> str:
    words = r.sample(WORDS, r.randint(4, 6))
    sep = r.choice(seps)
    if r.random() < 0.3:
        words[r.randrange(len(words))] += str(r.randint(0, 9))
    if r.random() < 0.3:
        words = [w.title() for w in words]
    return sep.join(words)


def _password(r: random.Random) -> str:
    pick = r.randrange(5)
    if pick == 4:
        return _passphrase(r, "-._")
    return (_pw_human, _pw_leet, _pw_generated, _pw_generated)[pick](r)


# ----------------------------------------------------------------------------------------------
# carriers: the places a snippet ends up in a team's memory (shared by positives and look-alikes)
# ----------------------------------------------------------------------------------------------

LEADS = [
    "fyi",
    "pasting this here so it ends up in memory",
    "current value on the box:",
    "from the {{SVC}} repo",
    "this is what I found on {{HOST}}",
    "for the record",
    "as discussed in standup",
    "repro below",
    "here's what we have in {{ENV}}",
    "context for whoever picks this up next",
    "copying from the old wiki page",
    "cc @{{H}}",
    "raw paste, sorry for the formatting",
    "see below",
    "snippet:",
    "this is what the {{ENV}} deploy used",
    "ok found it",
    "from {{TICKET}}",
    "saving this for later",
    "@{{H}} is this the one you meant?",
    "what I ended up with after the migration",
    "left over from the {{DATE}} incident",
]
EMOJI = ["", "", " :eyes:", " :white_check_mark:", " 🙏", " :fire:", " 👀", " :thumbsup:", " 🚀", " :sweat_smile:"]
COMMENTS = [
    "nit: can we move this out of the repo?",
    "LGTM once CI is green",
    "why is this changing in the same PR?",
    "+1, ship it",
    "can you add a comment explaining this?",
    "this will conflict with #{{N}}",
    "did you test this against {{ENV}}?",
    "please split this into two commits",
]
PROBLEMS = [
    "5xx spike",
    "elevated latency",
    "queue backlog",
    "failed deploy",
    "disk full",
    "cert expiry",
    "login errors",
]


def _lead(r: random.Random) -> str:
    return _fill(r, r.choice(LEADS))


def _fence(r: random.Random, core: str) -> str:
    lang = r.choice(["", "", "bash", "yaml", "json", "ini", "text", "sql", "console"])
    return f"```{lang}\n{core}\n```"


def _c_slack(r: random.Random, core: str) -> str:
    who, t = _handle(r), _time(r)
    tail = r.choice(EMOJI) + r.choice(["", "", " (edited)"])
    if "\n" in core or "`" in core or r.random() < 0.5:
        body = f"{_lead(r)}\n{_fence(r, core)}"
    else:
        body = f"{_lead(r)} `{core}`"
    return r.choice([f"[{t}] @{who}: {body}{tail}", f"{who}  {t}\n{body}{tail}", f"@{who} {body}{tail}"])


def _c_slack_thread(r: random.Random, core: str) -> str:
    q = _fill(
        r,
        r.choice(
            [
                "anyone know what {{SVC}} uses in {{ENV}}?",
                "where does {{SVC}} get its config from?",
                "is {{HOST}} still the right box?",
                "who owns {{SVC}} these days?",
            ]
        ),
    )
    return (f"> @{_handle(r)}: {q}\n@{_handle(r)} {_lead(r)}\n{core}\n"
            f"{r.choice(['', ':thread: ', '↳ '])}{r.randint(1, 9)} replies · last reply {_time(r)}")  # fmt: skip


def _c_teams(r: random.Random, core: str) -> str:
    h = r.randint(1, 12)
    return (f"{_person(r)}  {h}:{r.randint(0, 59):02d} {r.choice(['AM', 'PM'])}\n{_lead(r)}\n{core}\n"
            f"{r.choice(['', '👍 ' + str(r.randint(1, 5)), '❤️ 1', 'Seen by ' + str(r.randint(2, 9))])}")  # fmt: skip


def _c_discord(r: random.Random, core: str) -> str:
    return f"**{_handle(r)}** — {r.choice(['Today', 'Yesterday'])} at {r.randint(1, 12)}:{r.randint(0, 59):02d} PM\n{_fence(r, core)}"


def _c_incident(r: random.Random, core: str) -> str:
    svc = r.choice(SVCS)
    ts = sorted(_time(r) for _ in range(4))
    rows = [
        f"| {ts[0]} | PagerDuty alert `{svc} {r.choice(PROBLEMS)}` |",
        f"| {ts[1]} | @{_handle(r)} acked, starts investigating |",
        f"| {ts[3]} | rollback of v{_semver(r)} started |",
    ]
    head = f"## INC-{r.randint(100, 9999)} — {svc} {r.choice(PROBLEMS)}\n**Severity:** SEV{r.randint(1, 3)} · **IC:** @{_handle(r)}\n\n| Time (UTC) | Event |\n|---|---|\n"
    if "\n" not in core and "|" not in core and r.random() < 0.5:
        rows.insert(2, f"| {ts[2]} | {core} |")
        return head + "\n".join(rows)
    return head + "\n".join(rows) + f"\n\nNotes:\n{_fence(r, core)}"


def _c_postmortem(r: random.Random, core: str) -> str:
    svc = r.choice(SVCS)
    return (f"# Postmortem: {svc} {r.choice(PROBLEMS)} ({_date(r)})\n\n## Summary\n{svc} returned errors for "
            f"{r.randint(4, 90)} minutes.\n\n## Contributing factors\n{_lead(r)}\n\n{_fence(r, core)}\n\n"
            f"## Action items\n- [ ] {_ticket(r)} add alerting\n- [ ] {_ticket(r)} update runbook")  # fmt: skip


def _c_handover(r: random.Random, core: str) -> str:
    d = r.choice(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
    return (f"On-call handover {d} → next (@{_handle(r)} → @{_handle(r)})\n• {r.choice(SVCS)} queue depth back to normal\n"
            f"• {_lead(r)}\n{core}\n• nothing else pending, {r.choice(['quiet night', 'two pages', 'one false alarm'])}")  # fmt: skip


def _c_review(r: random.Random, core: str) -> str:
    path = r.choice(["config/settings.py", ".env.example", "deploy/values.yaml", "docker-compose.yml",
                     "scripts/backup.sh", "ansible/group_vars/all.yml", "src/config.ts", "Makefile"])  # fmt: skip
    lines = "\n".join("+" + ln for ln in core.split("\n"))
    n = r.randint(3, 200)
    return (f"**{_handle(r)}** commented on `{path}` line {n}:\n```diff\n@@ -{n},3 +{n},{r.randint(3, 9)} @@\n"
            f" # {r.choice(SVCS)} settings\n{lines}\n```\n> {_fill(r, r.choice(COMMENTS))}")  # fmt: skip


def _c_jira(r: random.Random, core: str) -> str:
    return (f"{_ticket(r)}: {r.choice(SVCS)} {r.choice(PROBLEMS)} in {r.choice(ENVS)}\nType: Bug   Priority: "
            f"{r.choice(['P1', 'P2', 'P3', 'Major', 'Minor'])}   Reporter: {_person(r)}\n\nDescription:\n{_lead(r)}\n"
            f"{{noformat}}\n{core}\n{{noformat}}\n\nComments:\n{_person(r)}: {r.choice(['looking', 'dup of', 'fixed in'])} "
            f"{_ticket(r)}")  # fmt: skip


def _c_gh_issue(r: random.Random, core: str) -> str:
    return (f"### Describe the bug\n{r.choice(SVCS)} {r.choice(PROBLEMS)} after upgrading to v{_semver(r)}\n\n"
            f"### Logs / config\n<details><summary>output</summary>\n\n{_fence(r, core)}\n</details>\n\n"
            f"### Environment\n- version: {_semver(r)}\n- os: {r.choice(['ubuntu 22.04', 'macOS 14.4', 'debian 12', 'alpine 3.19'])}")  # fmt: skip


def _c_linear(r: random.Random, core: str) -> str:
    return (f"ENG-{r.randint(10, 4000)} · {r.choice(SVCS)}: {r.choice(PROBLEMS)}\nStatus: "
            f"{r.choice(['Todo', 'In Progress', 'In Review'])} · Assignee: @{_handle(r)}\n\n{core}")  # fmt: skip


def _c_email(r: random.Random, core: str) -> str:
    return (f"---------- Forwarded message ---------\nFrom: {_person(r)} <{_email(r)}>\nDate: "
            f"{r.choice(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])}, {_date(r)} at {_time(r)}\nSubject: "
            f"{r.choice(['Re: ', 'Fwd: ', ''])}{r.choice(SVCS)} {r.choice(['access', 'setup', 'migration', 'handover'])}\n"
            f"To: {_email(r)}\n\nHi {_first(r).title()},\n\n{_lead(r)}\n\n{core}\n\nThanks,\n{_first(r).title()}")  # fmt: skip


def _c_runbook(r: random.Random, core: str) -> str:
    svc = r.choice(SVCS)
    return (f"# Runbook: {svc}\n\n> [!NOTE]\n> Owned by #{r.choice(TEAMS)}; page {r.choice(TEAMS)}-oncall.\n\n## Steps\n"
            f"1. Drain traffic from {_host(r)}\n2. Apply the config below\n\n{_fence(r, core)}\n\n!!! warning\n"
            f"    Do not restart more than one node at a time.")  # fmt: skip


def _c_wiki_table(r: random.Random, core: str) -> str:
    if "\n" in core or "|" in core:
        return _c_runbook(r, core)
    return (f"## {r.choice(SVCS)} — {r.choice(ENVS)}\n\n| Item | Value | Owner |\n|---|---|---|\n| host | `{_host(r)}` | "
            f"@{_handle(r)} |\n| config | `{core}` | @{_handle(r)} |\n| since | {_date(r)} | |")  # fmt: skip


def _c_meeting(r: random.Random, core: str) -> str:
    return (f"Meeting notes — {r.choice(TEAMS)} sync {_date(r)}\nAttendees: @{_handle(r)}, @{_handle(r)}, @{_handle(r)}\n\n"
            f"Discussed:\n- {r.choice(SVCS)} migration status\n- {_lead(r)}:\n{core}\n\nAction items:\n- [ ] @{_handle(r)} "
            f"follow up on {_ticket(r)}")  # fmt: skip


def _c_onboarding(r: random.Random, core: str) -> str:
    return (f"## Onboarding checklist ({_first(r).title()})\n- [x] laptop + SSO\n- [x] join #{r.choice(TEAMS)}-eng\n"
            f"- [ ] local setup for {r.choice(SVCS)}\n\n{_fence(r, core)}\n\n- [ ] shadow on-call for a week")  # fmt: skip


def _c_agent_note(r: random.Random, core: str) -> str:
    head = _fill(r, r.choice([
        "Lesson learned ({{DATE}}): {{SVC}} config differs between envs.",
        "Decision: keep {{SVC}} on the old config until {{TICKET}} lands.",
        "Note to self: check {{HOST}} before touching {{SVC}}.",
        "Snippet saved from the {{TEAM}} channel.",
        "Observation: {{SVC}} in {{ENV}} is configured like this.",
        "Context for {{TICKET}}:",
    ]))  # fmt: skip
    return f"{head}\n{core}"


def _c_support(r: random.Random, core: str) -> str:
    return (f"Ticket #{r.randint(10000, 999999)} — internal note ({_person(r)}):\nCustomer on {r.choice(['Pro', 'Team', 'Enterprise'])} "
            f"plan, {r.choice(SVCS)} issue.\n{_lead(r)}\n\n{core}\n\n(not visible to customer)")  # fmt: skip


def _c_line_numbers(r: random.Random, core: str) -> str:
    start = r.randint(1, 180)
    style = r.randrange(3)
    out = []
    for i, ln in enumerate(core.split("\n")):
        n = start + i
        out.append([f"{n:>4} | {ln}", f"{n}\t{ln}", f"L{n}: {ln}"][style])
    return "\n".join(out)


def _c_release(r: random.Random, core: str) -> str:
    if "\n" in core:
        return _c_gh_issue(r, core)
    return (f"## v{_semver(r)} — {_date(r)}\n### Fixed\n- {r.choice(SVCS)} {r.choice(PROBLEMS)} ({_ticket(r)})\n"
            f"### Internal\n- {core}")  # fmt: skip


def _c_readme(r: random.Random, core: str) -> str:
    return (f"## Local setup\n\n1. Copy `.env.example` to `.env`\n2. Run `make dev`\n3. {r.choice(['Your', 'The'])} "
            f"config should look like:\n\n{_fence(r, core)}\n\nSee CONTRIBUTING.md for details.")  # fmt: skip


def _c_commit(r: random.Random, core: str) -> str:
    return (f"commit {_hex(r, 40)}\nAuthor: {_person(r)} <{_email(r)}>\nDate:   {_date(r)} {_time(r)}\n\n    "
            f"{r.choice(['fix', 'chore', 'feat'])}: {r.choice(SVCS)} config\n\n{core}")  # fmt: skip


CARRIERS: list[Callable[[random.Random, str], str]] = [
    _c_slack, _c_slack, _c_slack_thread, _c_teams, _c_discord, _c_incident, _c_postmortem, _c_handover,
    _c_review, _c_jira, _c_gh_issue, _c_linear, _c_email, _c_runbook, _c_wiki_table, _c_meeting,
    _c_onboarding, _c_agent_note, _c_agent_note, _c_support, _c_line_numbers, _c_release, _c_readme, _c_commit,
]  # fmt: skip


def _wrap(r: random.Random, core: str, must: str | None = None) -> str:
    """Embed ``core`` in a random carrier (or keep it bare); ``must`` has to survive verbatim."""
    must = must if must is not None else core
    if r.random() < 0.22:
        return core
    for _ in range(4):
        text = r.choice(CARRIERS)(r, core)
        if must in text:
            return text
    return _c_agent_note(r, core)


# ----------------------------------------------------------------------------------------------
# vendor prefixes, assembled from pieces
# ----------------------------------------------------------------------------------------------

P_AKIA = "AK" + "IA"
P_AIZA = "AI" + "za"
P_GHP = "gh" + "p_"
P_GHO = "gh" + "o_"
P_GHS = "gh" + "s_"
P_GHFG = "git" + "hub_" + "pat_"
P_GLPAT = "gl" + "pat-"
P_GLRT = "gl" + "rt-"
P_NPM = "np" + "m_"
P_PYPI = "py" + "pi-" + "AgEIcHlw" + "aS5vcmc"
P_DCKR = "dc" + "kr_" + "pat_"
P_ATBB = "AT" + "BB"
P_ATATT = "AT" + "ATT" + "3xFfGF0"
P_AKCP = "AK" + "Cp"
P_ATLAS = ".atlas" + "v1."
P_HVS = "hv" + "s."
P_SK_LIVE = "sk" + "_li" + "ve_"
P_RK_LIVE = "rk" + "_li" + "ve_"
P_PK_LIVE = "pk" + "_li" + "ve_"
P_WHSEC = "wh" + "sec_"
P_SG = "S" + "G."
P_KEYDASH = "ke" + "y-"
P_XOXB = "xo" + "xb-"
P_XOXP = "xo" + "xp-"
P_XAPP = "xa" + "pp-"
HOOKS_SLACK = "https://hooks." + "slack.com/services/"
HOOKS_DISCORD = "https://discord.com/api/" + "webhooks/"
P_SHPAT = "sh" + "pat_"
P_SHPSS = "sh" + "pss_"
P_SGP = "sg" + "p_"
P_PCSK = "pc" + "sk_"
P_PPLX = "pp" + "lx-"
P_SKPROJ = "sk" + "-proj-"
P_SKANT = "sk" + "-ant-" + "api03-"
P_HF = "h" + "f_"
P_SNTRYS = "sn" + "trys_"
P_SNTRYU = "sn" + "tryu_"
P_NRAK = "NR" + "AK-"
P_GLSA = "gl" + "sa_"
P_LIN = "lin" + "_api_"
P_NTN = "nt" + "n_"
P_NOTION_OLD = "sec" + "ret_"
P_DOP = "do" + "p_v1_"
P_EAAA = "EA" + "AA"
P_LTAI = "LT" + "AI"
P_AKID = "AK" + "ID"
P_SCW = "S" + "CW"
P_OTP = "otp" + "auth://totp/"
P_SSH_ED = "ssh-" + "ed25519"
P_SSH_RSA = "ssh-" + "rsa"

POSITIVES: dict[str, Callable[[random.Random], tuple[str, str]]] = {}


def _pos(
    kind: str,
) -> Callable[[Callable[[random.Random], tuple[str, str]]], Callable[[random.Random], tuple[str, str]]]:
    def deco(fn: Callable[[random.Random], tuple[str, str]]) -> Callable[[random.Random], tuple[str, str]]:
        POSITIVES[kind] = fn
        return fn

    return deco


def _std(r: random.Random, s: str, templates: list[str], **kw: str) -> tuple[str, str]:
    return _pick(r, templates, S=s, **kw), s


# ---------------------------------------------------------------------------------------- cloud


@_pos("aws_secret_access_key")
def _p_aws(r: random.Random) -> tuple[str, str]:
    kid = P_AKIA + _rs(r, B32, 16)
    s = _rs(r, ALNUM + "+/", 40)
    return _std(r, s, [
        "[{{ENV}}]\naws_access_key_id = {{KID}}\naws_secret_access_key = {{S}}\nregion = {{REGION}}",
        "export AWS_ACCESS_KEY_ID={{KID}}\nexport AWS_SECRET_ACCESS_KEY={{S}}\nexport AWS_DEFAULT_REGION={{REGION}}",
        "AWS_SECRET_ACCESS_KEY: {{S}}   # ci user {{USER}}-deploy",
        "aws configure set aws_secret_access_key {{S}} --profile {{ENV}}",
        '{\n    "AccessKey": {\n        "UserName": "{{USER}}-ci",\n        "AccessKeyId": "{{KID}}",\n        "Status": "Active",\n        "SecretAccessKey": "{{S}}",\n        "CreateDate": "{{DATE}}T{{TIME}}:00+00:00"\n    }\n}',
        'provider "aws" {\n  region     = "{{REGION}}"\n  access_key = "{{KID}}"\n  secret_key = "{{S}}"\n}',
        "the {{SVC}} uploader runs as {{KID}}, secret is {{S}} (rotate after the migration)",
        "ENV AWS_SECRET_ACCESS_KEY={{S}}",
        "Environment=AWS_SECRET_ACCESS_KEY={{S}}",
    ], KID=kid)  # fmt: skip


@_pos("gcp_api_key")
def _p_gcp_api(r: random.Random) -> tuple[str, str]:
    s = P_AIZA + _rs(r, B64URL, 35)
    return _std(r, s, [
        "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={{S}}'",
        "GOOGLE_API_KEY={{S}}",
        "translate client in {{SVC}} uses key={{S}} (restricted to the NAT IPs)",
        "youtube data api key for the ingest job: {{S}}",
        'gemini:\n  api_key: "{{S}}"\n  model: gemini-1.5-pro',
        '{"level":"debug","msg":"calling places api","url":"https://places.googleapis.com/v1/places:searchText?key={{S}}"}',
    ])  # fmt: skip


def _pem_body(r: random.Random, kind: str) -> str:
    if kind == "rsa1":
        return "MIIEow" + "IBAAKCAQEA" + _rs(r, B64, 1576)
    if kind == "pkcs8":
        return "MIIEvQ" + "IBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ" + _rs(r, B64, 1574) + "="
    return "MHcCAQEE" + "I" + _rs(r, B64, 111) + "=="


@_pos("gcp_service_account_key")
def _p_gcp_sa(r: random.Random) -> tuple[str, str]:
    pem = _armour(PK, _pem_body(r, "pkcs8")) + "\n"
    s = pem.replace("\n", "\\n")
    proj = f"{r.choice(ORGS)}-{r.choice(ENVS)}-{r.randint(100, 999)}"
    doc = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": _hex(r, 40),
        "private_key": "@@PK@@",
        "client_email": f"{r.choice(SVCS)}@{proj}.iam.gserviceaccount.com",
        "client_id": str(r.randint(10**20, 10**21 - 1)),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    text = json.dumps(doc, indent=r.choice([2, 4])).replace("@@PK@@", s)
    if r.random() < 0.4:
        text = f"cat {r.choice(['sa.json', 'key.json', 'credentials.json'])}\n{text}"
    return text, s


@_pos("azure_storage_key")
def _p_az_storage(r: random.Random) -> tuple[str, str]:
    s = _rs(r, B64, 86) + "=="
    acct = f"{r.choice(ORGS).replace('-', '')}{r.choice(ENVS).replace('-', '')}{r.randint(1, 99)}"
    return _std(r, s, [
        "DefaultEndpointsProtocol=https;AccountName={{ACCT}};AccountKey={{S}};EndpointSuffix=core.windows.net",
        "az storage blob upload -c backups -f dump.sql.gz -n {{DATE}}.sql.gz --account-name {{ACCT}} --account-key {{S}}",
        "AZURE_STORAGE_ACCOUNT={{ACCT}}\nAZURE_STORAGE_KEY={{S}}",
        '"ConnectionStrings": {\n  "Blob": "DefaultEndpointsProtocol=https;AccountName={{ACCT}};AccountKey={{S}}"\n}',
        "key1 for {{ACCT}}: {{S}}",
    ], ACCT=acct)  # fmt: skip


@_pos("azure_client_secret")
def _p_az_cs(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 3) + "8Q~" + _rs(r, ALNUM + "_~.-", 34)
    return _std(r, s, [
        "AZURE_TENANT_ID={{UUID}}\nAZURE_CLIENT_ID={{CID}}\nAZURE_CLIENT_SECRET={{S}}",
        "az login --service-principal -u {{CID}} -p '{{S}}' --tenant {{UUID}}",
        '"AzureAd": {\n  "Instance": "https://login.microsoftonline.com/",\n  "ClientId": "{{CID}}",\n  "ClientSecret": "{{S}}"\n}',
        "new client secret for the {{SVC}} app registration (expires in 6 months): {{S}}",
        "spring.cloud.azure.active-directory.credential.client-secret={{S}}",
    ], CID=_uuid(r))  # fmt: skip


@_pos("azure_sas_signature")
def _p_az_sas(r: random.Random) -> tuple[str, str]:
    raw = _rs(r, B64, 43) + "="
    s = raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = f"{r.choice(ORGS).replace('-', '')}{r.randint(1, 99)}"
    return _std(r, s, [
        "https://{{ACCT}}.blob.core.windows.net/exports/{{DATE}}.csv?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-01-01T00:00:00Z&st={{DATE}}T00:00:00Z&spr=https&sig={{S}}",
        "azcopy copy ./dist 'https://{{ACCT}}.blob.core.windows.net/$web?sv=2023-01-03&sr=c&sp=racwdl&se=2025-12-31&sig={{S}}' --recursive",
        "SAS for the vendor upload container: ?sv=2022-11-02&sr=c&sig={{S}}&se=2025-09-30T23:59:59Z&sp=cw",
    ], ACCT=acct)  # fmt: skip


@_pos("alibaba_access_key_secret")
def _p_ali(r: random.Random) -> tuple[str, str]:
    kid = P_LTAI + "5t" + _rs(r, ALNUM, 18)
    s = _rs(r, ALNUM, 30)
    return _std(r, s, [
        "ALIBABA_CLOUD_ACCESS_KEY_ID={{KID}}\nALIBABA_CLOUD_ACCESS_KEY_SECRET={{S}}",
        "aliyun configure set --profile {{ENV}} --mode AK --region cn-hangzhou --access-key-id {{KID}} --access-key-secret {{S}}",
        "oss:\n  endpoint: oss-cn-shanghai.aliyuncs.com\n  accessKeyId: {{KID}}\n  accessKeySecret: {{S}}",
        "RAM user {{USER}}-oss: AK {{KID}} / SK {{S}}",
    ], KID=kid)  # fmt: skip


@_pos("tencent_secret_key")
def _p_tencent(r: random.Random) -> tuple[str, str]:
    kid = P_AKID + _rs(r, ALNUM, 32)
    s = _rs(r, ALNUM, 32)
    return _std(r, s, [
        "TENCENTCLOUD_SECRET_ID={{KID}}\nTENCENTCLOUD_SECRET_KEY={{S}}",
        'cred = credential.Credential("{{KID}}", "{{S}}")',
        "tccli configure set secretId {{KID}} secretKey {{S}} region ap-guangzhou",
        "cos:\n  secret_id: {{KID}}\n  secret_key: {{S}}\n  bucket: {{WORD}}-125{{N}}",
    ], KID=kid)  # fmt: skip


@_pos("oracle_auth_token")
def _p_oci(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM + "()[]<>;:.+-_", 20)
    return _std(r, s, [
        "docker login {{REGION}}.ocir.io -u '{{ORG}}/oracleidentitycloudservice/{{EMAIL}}' -p '{{S}}'",
        "OCI auth token for OCIR push ({{USER}}): {{S}}",
        "OCIR_PASSWORD={{S}}",
        "generated a new auth token in the console, old one deleted. new: {{S}}",
    ])  # fmt: skip


@_pos("ibm_cloud_api_key")
def _p_ibm(r: random.Random) -> tuple[str, str]:
    s = _rs(r, B64URL, 44)
    return _std(r, s, [
        "ibmcloud login --apikey {{S}} -r us-south -g default",
        "IBMCLOUD_API_KEY={{S}}",
        '{\n  "name": "{{SVC}}-ci",\n  "description": "",\n  "createdAt": "{{DATE}}T{{TIME}}+0000",\n  "apikey": "{{S}}"\n}',
        "ic_api_key = \"{{S}}\"",
    ])  # fmt: skip


@_pos("hetzner_api_token")
def _p_hetzner(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 64)
    return _std(r, s, [
        "HCLOUD_TOKEN={{S}}",
        'variable "hcloud_token" {\n  default = "{{S}}"\n}',
        "hcloud context create {{ENV}}  # pasted token {{S}}",
        "curl -H \"Authorization: Bearer {{S}}\" https://api.hetzner.cloud/v1/servers",
    ])  # fmt: skip


@_pos("linode_token")
def _p_linode(r: random.Random) -> tuple[str, str]:
    s = _hex(r, 64)
    return _std(r, s, [
        "LINODE_TOKEN={{S}}",
        "linode-cli configure --token  # used {{S}}",
        'curl -H "Authorization: Bearer {{S}}" https://api.linode.com/v4/linode/instances',
        "linode:\n  token: {{S}}\n  region: eu-central",
    ])  # fmt: skip


@_pos("vultr_api_key")
def _p_vultr(r: random.Random) -> tuple[str, str]:
    s = _rs(r, UPNUM, 36)
    return _std(r, s, [
        "VULTR_API_KEY={{S}}",
        'curl "https://api.vultr.com/v2/instances" -H "Authorization: Bearer {{S}}"',
        "vultr-cli config: api-key: {{S}}",
    ])  # fmt: skip


@_pos("ovh_application_secret")
def _p_ovh(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 32)
    ak = _rs(r, ALNUM, 16)
    return _std(r, s, [
        "[default]\nendpoint=ovh-eu\n\n[ovh-eu]\napplication_key={{AK}}\napplication_secret={{S}}\nconsumer_key=<see vault>",
        "OVH_ENDPOINT=ovh-eu\nOVH_APPLICATION_KEY={{AK}}\nOVH_APPLICATION_SECRET={{S}}",
        "ovh app for dns-01 challenges: AK {{AK}}, AS {{S}} (CK lives in 1Password)",
    ], AK=ak)  # fmt: skip


@_pos("scaleway_secret_key")
def _p_scw(r: random.Random) -> tuple[str, str]:
    s = _uuid(r)
    ak = P_SCW + _rs(r, UPNUM, 17)
    return _std(r, s, [
        "SCW_ACCESS_KEY={{AK}}\nSCW_SECRET_KEY={{S}}\nSCW_DEFAULT_ORGANIZATION_ID={{UUID}}",
        "profiles:\n  {{ENV}}:\n    access_key: {{AK}}\n    secret_key: {{S}}\n    default_region: fr-par",
        "s3 (scaleway) creds for the backups bucket: {{AK}} / {{S}}",
    ], AK=ak)  # fmt: skip


@_pos("cloudflare_api_token")
def _p_cf(r: random.Random) -> tuple[str, str]:
    s = _rs(r, B64URL, 40)
    return _std(r, s, [
        "CLOUDFLARE_API_TOKEN={{S}}",
        'curl "https://api.cloudflare.com/client/v4/user/tokens/verify" -H "Authorization: Bearer {{S}}"',
        "dns_cloudflare_api_token = {{S}}",
        "wrangler secret list  # with CF token {{S}}",
        "cloudflare token (Zone.DNS edit, {{DOMAIN}} only): {{S}}",
    ])  # fmt: skip


@_pos("cloudflare_global_api_key")
def _p_cf_global(r: random.Random) -> tuple[str, str]:
    s = _hex(r, 37)
    return _std(r, s, [
        'curl -X GET "https://api.cloudflare.com/client/v4/zones" -H "X-Auth-Email: {{EMAIL}}" -H "X-Auth-Key: {{S}}"',
        "CF_API_EMAIL={{EMAIL}}\nCF_API_KEY={{S}}",
        "dns_cloudflare_email = {{EMAIL}}\ndns_cloudflare_api_key = {{S}}",
    ])  # fmt: skip


@_pos("digitalocean_token")
def _p_do(r: random.Random) -> tuple[str, str]:
    s = P_DOP + _hex(r, 64)
    return _std(r, s, [
        "DIGITALOCEAN_ACCESS_TOKEN={{S}}",
        "doctl auth init --access-token {{S}}",
        'curl -X GET -H "Authorization: Bearer {{S}}" "https://api.digitalocean.com/v2/droplets"',
        "spaces + droplets token for {{TEAM}}: {{S}}",
    ])  # fmt: skip


# ------------------------------------------------------------------------------- forge / CI / registry


@_pos("github_token")
def _p_gh(r: random.Random) -> tuple[str, str]:
    s = r.choice([
        P_GHP + _rs(r, ALNUM, 36),
        P_GHP + _rs(r, ALNUM, 36),
        P_GHO + _rs(r, ALNUM, 36),
        P_GHS + _rs(r, ALNUM, 36),
        P_GHFG + "11" + _rs(r, UPNUM, 20) + "_" + _rs(r, ALNUM, 59),
    ])  # fmt: skip
    return _std(r, s, [
        "git remote set-url origin https://{{USER}}:{{S}}@github.com/{{ORG}}/{{SVC}}.git",
        "GITHUB_TOKEN={{S}}",
        "export GH_TOKEN={{S}}\ngh pr list --repo {{ORG}}/{{SVC}}",
        "//npm.pkg.github.com/:_authToken={{S}}",
        "echo {{S}} | docker login ghcr.io -u {{USER}} --password-stdin",
        "the bot token that opens the renovate PRs is {{S}}",
        'curl -H "Authorization: token {{S}}" https://api.github.com/repos/{{ORG}}/{{SVC}}/actions/runs',
    ])  # fmt: skip


@_pos("gitlab_token")
def _p_gl(r: random.Random) -> tuple[str, str]:
    s = r.choice([P_GLPAT + _rs(r, B64URL, 20), P_GLPAT + _rs(r, B64URL, 20), P_GLRT + _rs(r, B64URL, 20)])
    return _std(r, s, [
        'curl --header "PRIVATE-TOKEN: {{S}}" "https://gitlab.{{DOMAIN}}/api/v4/projects"',
        "GITLAB_TOKEN={{S}}",
        "gitlab-runner register --url https://gitlab.com/ --token {{S}}",
        "[[runners]]\n  name = \"{{HOST}}\"\n  url = \"https://gitlab.com/\"\n  token = \"{{S}}\"\n  executor = \"docker\"",
        "git clone https://oauth2:{{S}}@gitlab.com/{{ORG}}/{{SVC}}.git",
    ])  # fmt: skip


@_pos("npm_token")
def _p_npm(r: random.Random) -> tuple[str, str]:
    s = P_NPM + _rs(r, ALNUM, 36)
    return _std(r, s, [
        "//registry.npmjs.org/:_authToken={{S}}",
        "NPM_TOKEN={{S}}",
        "@{{ORG}}:registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={{S}}\nalways-auth=true",
        "publish token for the design-system package (automation type): {{S}}",
    ])  # fmt: skip


@_pos("pypi_token")
def _p_pypi(r: random.Random) -> tuple[str, str]:
    s = P_PYPI + "CJ" + _rs(r, B64URL, r.randint(150, 170))
    return _std(r, s, [
        "[pypi]\n  username = __token__\n  password = {{S}}",
        "twine upload -u __token__ -p {{S}} dist/*",
        "TWINE_PASSWORD={{S}}",
        "UV_PUBLISH_TOKEN={{S}}",
    ])  # fmt: skip


@_pos("docker_hub_token")
def _p_docker(r: random.Random) -> tuple[str, str]:
    s = P_DCKR + _rs(r, B64URL, 27)
    return _std(r, s, [
        "docker login -u {{USER}} -p {{S}}",
        "DOCKERHUB_TOKEN={{S}}",
        "echo '{{S}}' | docker login --username {{ORG}}bot --password-stdin",
        "- name: Login\n  uses: docker/login-action@v3\n  with:\n    username: {{ORG}}ci\n    password: {{S}}",
    ])  # fmt: skip


@_pos("docker_config_auth")
def _p_docker_cfg(r: random.Random) -> tuple[str, str]:
    user = _handle(r).replace(".", "")
    pw = r.choice([P_DCKR + _rs(r, B64URL, 27), _pw_generated(r), _rs(r, ALNUM, 32)])
    s = _b64(f"{user}:{pw}".encode())
    reg = r.choice(
        ["https://index.docker.io/v1/", "ghcr.io", f"registry.{_domain(r)}", "quay.io", "harbor." + _domain(r)]
    )
    cfg = {"auths": {reg: {"auth": s}}}
    if r.random() < 0.5:
        cfg["credsStore"] = ""
    text = json.dumps(cfg, indent=r.choice([1, 2, 4, None]))
    if r.random() < 0.4:
        text = f"cat ~/.docker/config.json\n{text}"
    if r.random() < 0.3:
        text = f"kubectl create secret docker-registry regcred --from-file=.dockerconfigjson=config.json\n# config.json:\n{text}"
    return text, s


@_pos("circleci_token")
def _p_circle(r: random.Random) -> tuple[str, str]:
    s = r.choice([_hex(r, 40), "CCI" + "PAT_" + _rs(r, ALNUM, 22) + "_" + _hex(r, 40)])
    return _std(r, s, [
        "CIRCLE_TOKEN={{S}}",
        'curl -H "Circle-Token: {{S}}" https://circleci.com/api/v2/me',
        "circleci setup --token {{S}} --host https://circleci.com",
    ])  # fmt: skip


@_pos("bitbucket_app_password")
def _p_bb(r: random.Random) -> tuple[str, str]:
    s = P_ATBB + _rs(r, ALNUM, 24) + _rs(r, UPNUM.replace("O", ""), 8)
    return _std(r, s, [
        "git clone https://{{USER}}:{{S}}@bitbucket.org/{{ORG}}/{{SVC}}.git",
        "BITBUCKET_APP_PASSWORD={{S}}",
        "bitbucket app password for the release bot (repo:write): {{S}}",
        'curl -u {{USER}}:{{S}} https://api.bitbucket.org/2.0/repositories/{{ORG}}',
    ])  # fmt: skip


@_pos("atlassian_api_token")
def _p_atl(r: random.Random) -> tuple[str, str]:
    s = P_ATATT + _rs(r, B64URL, 170) + "=" + _rs(r, UPNUM, 8)
    return _std(r, s, [
        "curl -u {{EMAIL}}:{{S}} -H 'Accept: application/json' https://{{ORG}}.atlassian.net/rest/api/3/myself",
        "JIRA_API_TOKEN={{S}}",
        "confluence:\n  url: https://{{ORG}}.atlassian.net/wiki\n  user: {{EMAIL}}\n  token: {{S}}",
    ])  # fmt: skip


@_pos("jfrog_token")
def _p_jfrog(r: random.Random) -> tuple[str, str]:
    s = r.choice([P_AKCP + _rs(r, ALNUM, 69), "cmVmdGtu" + "OjAxOjE3" + _rs(r, ALNUM, 56)])
    return _std(r, s, [
        "ARTIFACTORY_API_KEY={{S}}",
        'curl -H "X-JFrog-Art-Api: {{S}}" https://{{ORG}}.jfrog.io/artifactory/api/repositories',
        "<server>\n  <id>central</id>\n  <username>{{USER}}</username>\n  <password>{{S}}</password>\n</server>",
        "jf c add {{ORG}} --url https://{{ORG}}.jfrog.io --access-token {{S}}",
    ])  # fmt: skip


@_pos("terraform_cloud_token")
def _p_tfc(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 14) + P_ATLAS + _rs(r, ALNUM, 67)
    return _std(r, s, [
        '{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "{{S}}"\n    }\n  }\n}',
        "TF_TOKEN_app_terraform_io={{S}}",
        'credentials "app.terraform.io" {\n  token = "{{S}}"\n}',
    ])  # fmt: skip


@_pos("vault_token")
def _p_vault(r: random.Random) -> tuple[str, str]:
    s = r.choice([P_HVS + _rs(r, ALNUM, 24), P_HVS + "CAESI" + _rs(r, B64URL, 86)])
    return _std(r, s, [
        "export VAULT_ADDR=https://vault.{{DOMAIN}}:8200\nexport VAULT_TOKEN={{S}}",
        "vault login {{S}}",
        'curl -H "X-Vault-Token: {{S}}" https://vault.{{DOMAIN}}/v1/secret/data/{{SVC}}',
        "Key                  Value\n---                  -----\ntoken                {{S}}\ntoken_accessor       {{AC}}\ntoken_duration       768h\ntoken_renewable      true",
    ], AC=_rs(r, ALNUM, 24))  # fmt: skip


# ------------------------------------------------------------------------------------------- SaaS


@_pos("stripe_secret_key")
def _p_stripe(r: random.Random) -> tuple[str, str]:
    s = r.choice([P_SK_LIVE, P_SK_LIVE, P_RK_LIVE]) + _rs(r, ALNUM, r.choice([24, 99]))
    return _std(r, s, [
        "STRIPE_SECRET_KEY={{S}}",
        'stripe.api_key = "{{S}}"',
        "curl https://api.stripe.com/v1/charges -u {{S}}: -d limit=3",
        "const stripe = require('stripe')('{{S}}');",
        "stripe listen --api-key {{S}} --forward-to localhost:{{PORT}}/webhooks",
        "restricted key for the finance export (read-only charges): {{S}}",
    ])  # fmt: skip


@_pos("stripe_webhook_secret")
def _p_whsec(r: random.Random) -> tuple[str, str]:
    s = P_WHSEC + _rs(r, ALNUM, 32)
    return _std(r, s, [
        "STRIPE_WEBHOOK_SECRET={{S}}",
        "> Ready! Your webhook signing secret is {{S}} (^C to quit)",
        'endpoint_secret = "{{S}}"\nevent = stripe.Webhook.construct_event(payload, sig_header, endpoint_secret)',
        "signing secret for the {{ENV}} endpoint /hooks/stripe: {{S}}",
    ])  # fmt: skip


@_pos("twilio_auth_token")
def _p_twilio(r: random.Random) -> tuple[str, str]:
    sid = "AC" + _hex(r, 32)
    s = _hex(r, 32)
    return _std(r, s, [
        "TWILIO_ACCOUNT_SID={{SID}}\nTWILIO_AUTH_TOKEN={{S}}",
        "curl -X POST https://api.twilio.com/2010-04-01/Accounts/{{SID}}/Messages.json -u {{SID}}:{{S}} --data-urlencode 'To=+15005550006'",
        "client = Client('{{SID}}', '{{S}}')",
        "twilio auth token (primary, rotated {{DATE}}): {{S}}",
    ], SID=sid)  # fmt: skip


@_pos("sendgrid_api_key")
def _p_sendgrid(r: random.Random) -> tuple[str, str]:
    s = P_SG + _rs(r, B64URL, 22) + "." + _rs(r, B64URL, 43)
    return _std(r, s, [
        "SENDGRID_API_KEY={{S}}",
        'curl --request POST --url https://api.sendgrid.com/v3/mail/send --header "Authorization: Bearer {{S}}"',
        "spring.sendgrid.api-key={{S}}",
        "smtp relay: smtp.sendgrid.net:587 user apikey pass {{S}}",
    ])  # fmt: skip


@_pos("mailgun_api_key")
def _p_mailgun(r: random.Random) -> tuple[str, str]:
    s = r.choice([P_KEYDASH + _hex(r, 32), _hex(r, 32) + "-" + _hex(r, 8) + "-" + _hex(r, 8)])
    return _std(r, s, [
        "curl -s --user 'api:{{S}}' https://api.mailgun.net/v3/mg.{{DOMAIN}}/messages -F from=noreply@{{DOMAIN}}",
        "MAILGUN_API_KEY={{S}}",
        "mailgun:\n  domain: mg.{{DOMAIN}}\n  secret: {{S}}\n  endpoint: api.eu.mailgun.net",
    ])  # fmt: skip


@_pos("slack_token")
def _p_slack(r: random.Random) -> tuple[str, str]:
    s = r.choice([
        P_XOXB + str(r.randint(10**10, 10**13)) + "-" + str(r.randint(10**10, 10**13)) + "-" + _rs(r, ALNUM, 24),
        P_XOXP + str(r.randint(10**10, 10**13)) + "-" + str(r.randint(10**10, 10**13)) + "-" + str(r.randint(10**10, 10**13)) + "-" + _hex(r, 32),
        P_XAPP + "1-A" + _rs(r, UPNUM, 10) + "-" + str(r.randint(10**12, 10**13)) + "-" + _hex(r, 64),
    ])  # fmt: skip
    return _std(r, s, [
        "SLACK_BOT_TOKEN={{S}}",
        'curl -H "Authorization: Bearer {{S}}" https://slack.com/api/auth.test',
        "slack:\n  token: {{S}}\n  channel: '#{{TEAM}}-alerts'",
        "app = App(token=\"{{S}}\")",
        "reinstalled the deploy bot, new token {{S}}",
    ])  # fmt: skip


@_pos("slack_webhook_url")
def _p_slack_hook(r: random.Random) -> tuple[str, str]:
    s = (
        HOOKS_SLACK
        + "T"
        + _rs(r, UPNUM, r.choice([8, 10]))
        + "/B"
        + _rs(r, UPNUM, r.choice([8, 10]))
        + "/"
        + _rs(r, ALNUM, 24)
    )
    return _std(r, s, [
        "SLACK_WEBHOOK_URL={{S}}",
        "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy done\"}' {{S}}",
        "alertmanager:\n  receivers:\n  - name: {{TEAM}}\n    slack_configs:\n    - api_url: {{S}}\n      channel: '#{{TEAM}}-alerts'",
        "incoming webhook for #{{TEAM}}-deploys: {{S}}",
    ])  # fmt: skip


@_pos("discord_webhook_url")
def _p_discord_hook(r: random.Random) -> tuple[str, str]:
    s = HOOKS_DISCORD + str(r.randint(10**17, 10**19 - 1)) + "/" + _rs(r, B64URL, 68)
    return _std(r, s, [
        "DISCORD_WEBHOOK={{S}}",
        "curl -H 'Content-Type: application/json' -d '{\"content\": \"build failed\"}' {{S}}",
        "status bot posts to {{S}}",
    ])  # fmt: skip


@_pos("discord_bot_token")
def _p_discord_bot(r: random.Random) -> tuple[str, str]:
    uid = str(r.randint(10**17, 10**19 - 1))
    s = _b64u(uid.encode()) + "." + _rs(r, B64URL, 6) + "." + _rs(r, B64URL, 38)
    return _std(r, s, [
        "DISCORD_TOKEN={{S}}",
        "client.run('{{S}}')",
        "bot token for the {{TEAM}} helper bot (reset it if this leaks): {{S}}",
    ])  # fmt: skip


@_pos("telegram_bot_token")
def _p_tg(r: random.Random) -> tuple[str, str]:
    s = str(r.randint(10**8, 10**10 - 1)) + ":AA" + _rs(r, B64URL, 33)
    return _std(r, s, [
        "TELEGRAM_BOT_TOKEN={{S}}",
        "curl https://api.telegram.org/bot{{S}}/getUpdates",
        "BotFather gave us {{S}} for the on-call bot",
        "telegram_configs:\n- bot_token: {{S}}\n  chat_id: -100{{N}}{{N}}",
    ])  # fmt: skip


@_pos("shopify_token")
def _p_shopify(r: random.Random) -> tuple[str, str]:
    s = r.choice([P_SHPAT, P_SHPAT, P_SHPSS]) + _hex(r, 32)
    return _std(r, s, [
        "SHOPIFY_ACCESS_TOKEN={{S}}",
        'curl -H "X-Shopify-Access-Token: {{S}}" https://{{ORG}}.myshopify.com/admin/api/2024-04/orders.json',
        "custom app admin token for {{ORG}}.myshopify.com: {{S}}",
    ])  # fmt: skip


@_pos("okta_api_token")
def _p_okta(r: random.Random) -> tuple[str, str]:
    s = "00" + _rs(r, B64URL, 40)
    return _std(r, s, [
        'curl -H "Authorization: SSWS {{S}}" https://{{ORG}}.okta.com/api/v1/users?limit=25',
        "OKTA_API_TOKEN={{S}}",
        "okta:\n  client:\n    orgUrl: https://{{ORG}}.okta.com\n    token: {{S}}",
    ])  # fmt: skip


@_pos("auth0_client_secret")
def _p_auth0(r: random.Random) -> tuple[str, str]:
    s = _rs(r, B64URL, 64)
    return _std(r, s, [
        "AUTH0_DOMAIN={{ORG}}.eu.auth0.com\nAUTH0_CLIENT_ID={{CID}}\nAUTH0_CLIENT_SECRET={{S}}",
        'curl --request POST --url https://{{ORG}}.us.auth0.com/oauth/token --data \'{"client_id":"{{CID}}","client_secret":"{{S}}","audience":"https://api.{{DOMAIN}}","grant_type":"client_credentials"}\'',
        "auth0 m2m app '{{SVC}}': id {{CID}} secret {{S}}",
    ], CID=_rs(r, ALNUM, 32))  # fmt: skip


@_pos("pagerduty_api_key")
def _p_pd(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM + "+_-", 20)
    while not s[0].isalnum():
        s = _rs(r, ALNUM, 1) + s[1:]
    return _std(r, s, [
        'curl -H "Authorization: Token token={{S}}" -H "Accept: application/vnd.pagerduty+json;version=2" https://api.pagerduty.com/incidents',
        "PAGERDUTY_TOKEN={{S}}",
        "pd api key (read-only, for the weekly report script): {{S}}",
    ])  # fmt: skip


@_pos("opsgenie_api_key")
def _p_og(r: random.Random) -> tuple[str, str]:
    s = _uuid(r)
    return _std(r, s, [
        'curl -X POST https://api.opsgenie.com/v2/alerts -H "Authorization: GenieKey {{S}}" -H "Content-Type: application/json"',
        "OPSGENIE_API_KEY={{S}}",
        "opsgenie_configs:\n- api_key: {{S}}\n  responders:\n  - name: {{TEAM}}\n    type: team",
    ])  # fmt: skip


@_pos("segment_api_token")
def _p_segment(r: random.Random) -> tuple[str, str]:
    s = P_SGP + _rs(r, ALNUM, 64)
    return _std(r, s, [
        "SEGMENT_PUBLIC_API_TOKEN={{S}}",
        'curl -H "Authorization: Bearer {{S}}" https://api.segmentapis.com/sources',
        "workspace token for the tracking-plan sync: {{S}}",
    ])  # fmt: skip


@_pos("mixpanel_api_secret")
def _p_mixpanel(r: random.Random) -> tuple[str, str]:
    s = _hex(r, 32)
    return _std(r, s, [
        "MIXPANEL_API_SECRET={{S}}",
        "curl https://data.mixpanel.com/api/2.0/export -u {{S}}: -d from_date={{DATE}} -d to_date={{DATE}}",
        "mixpanel project secret (for the export cron, NOT the project token): {{S}}",
    ])  # fmt: skip


@_pos("amplitude_secret_key")
def _p_amp(r: random.Random) -> tuple[str, str]:
    s = _hex(r, 32)
    return _std(r, s, [
        "AMPLITUDE_API_KEY={{AK}}\nAMPLITUDE_SECRET_KEY={{S}}",
        "curl -u {{AK}}:{{S}} 'https://amplitude.com/api/2/export?start=20240101T00&end=20240102T00' -o export.zip",
        "amplitude export creds: api key {{AK}}, secret key {{S}}",
    ], AK=_hex(r, 32))  # fmt: skip


@_pos("algolia_admin_key")
def _p_algolia(r: random.Random) -> tuple[str, str]:
    s = _hex(r, 32)
    return _std(r, s, [
        "ALGOLIA_APP_ID={{APP}}\nALGOLIA_ADMIN_API_KEY={{S}}",
        "client = SearchClient.create('{{APP}}', '{{S}}')  # admin key, reindex job only",
        "curl -X DELETE -H 'X-Algolia-API-Key: {{S}}' -H 'X-Algolia-Application-Id: {{APP}}' https://{{APP}}.algolia.net/1/indexes/products_tmp",
    ], APP=_rs(r, UPNUM, 10))  # fmt: skip


@_pos("elastic_api_key")
def _p_elastic(r: random.Random) -> tuple[str, str]:
    kid, key = _rs(r, B64URL, 20), _rs(r, B64URL, 22)
    s = r.choice([_b64(f"{kid}:{key}".encode()), "es" + "su_" + _b64(_rbytes(r, 60))])
    return _std(r, s, [
        'curl -H "Authorization: ApiKey {{S}}" https://{{ORG}}.es.{{REGION}}.aws.found.io:9243/_cat/indices',
        "ELASTIC_API_KEY={{S}}",
        "output.elasticsearch:\n  hosts: [\"https://es.{{DOMAIN}}:9200\"]\n  api_key: \"{{S}}\"",
    ])  # fmt: skip


@_pos("mongodb_uri_password")
def _p_mongo(r: random.Random) -> tuple[str, str]:
    s = _pw_urlsafe(r)
    return _std(r, s, [
        "MONGODB_URI=mongodb+srv://{{USER}}:{{S}}@cluster0.{{CL}}.mongodb.net/{{DB}}?retryWrites=true&w=majority",
        'mongosh "mongodb+srv://{{CL}}.mongodb.net/{{DB}}" --username {{USER}} --password {{S}}',
        "spring.data.mongodb.uri=mongodb://{{USER}}:{{S}}@{{HOST}}:27017/{{DB}}?authSource=admin",
        "atlas db user {{USER}} / {{S}} (readWrite on {{DB}})",
    ], CL=_rs(r, LOWNUM, 5))  # fmt: skip


@_pos("redis_password")
def _p_redis(r: random.Random) -> tuple[str, str]:
    s = r.choice([_rs(r, ALNUM, 32), _pw_urlsafe(r)])
    return _std(r, s, [
        "REDIS_URL=redis://default:{{S}}@redis-{{N}}{{N}}.c{{N}}.{{REGION}}-1.ec2.redns.redis-cloud.com:1{{N}}{{N}}",
        "requirepass {{S}}",
        "redis-cli -h {{HOST}} -p 6379 -a {{S}} --no-auth-warning info replication",
        "spring.data.redis.password={{S}}",
        "CACHE_URL=rediss://:{{S}}@{{HOST}}:6380/0",
    ])  # fmt: skip


@_pos("pinecone_api_key")
def _p_pinecone(r: random.Random) -> tuple[str, str]:
    s = P_PCSK + _rs(r, ALNUM, 5) + "_" + _rs(r, ALNUM, 63)
    return _std(r, s, [
        "PINECONE_API_KEY={{S}}",
        'pc = Pinecone(api_key="{{S}}")',
        "pinecone key for the rag-index project: {{S}}",
    ])  # fmt: skip


@_pos("cohere_api_key")
def _p_cohere(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 40)
    return _std(r, s, [
        "CO_API_KEY={{S}}",
        "co = cohere.ClientV2(api_key=\"{{S}}\")",
        'curl https://api.cohere.com/v2/rerank -H "Authorization: Bearer {{S}}" -H "Content-Type: application/json"',
    ])  # fmt: skip


@_pos("mistral_api_key")
def _p_mistral(r: random.Random) -> tuple[str, str]:
    s = _rs(r, ALNUM, 32)
    return _std(r, s, [
        "MISTRAL_API_KEY={{S}}",
        'curl https://api.mistral.ai/v1/chat/completions -H "Authorization: Bearer {{S}}"',
        "client = Mistral(api_key=\"{{S}}\")",
    ])  # fmt: skip


@_pos("perplexity_api_key")
def _p_pplx(r: random.Random) -> tuple[str, str]:
    s = P_PPLX + _rs(r, ALNUM, 48)
    return _std(r, s, [
        "PERPLEXITY_API_KEY={{S}}",
        'curl https://api.perplexity.ai/chat/completions -H "Authorization: Bearer {{S}}"',
        "pplx key for the research agent: {{S}}",
    ])  # fmt: skip


@_pos("openai_api_key")
def _p_openai(r: random.Random) -> tuple[str, str]:
    s = r.choice([
        P_SKPROJ + _rs(r, B64URL, 74) + "T3Blbk" + "FJ" + _rs(r, B64URL, 74),
        "sk" + "-" + _rs(r, ALNUM, 20) + "T3Blbk" + "FJ" + _rs(r, ALNUM, 20),
        "sk" + "-svcacct-" + _rs(r, B64URL, 74) + "T3Blbk" + "FJ" + _rs(r, B64URL, 74),
    ])  # fmt: skip
    return _std(r, s, [
        "OPENAI_API_KEY={{S}}",
        'client = OpenAI(api_key="{{S}}")',
        'curl https://api.openai.com/v1/models -H "Authorization: Bearer {{S}}"',
        "llm:\n  provider: openai\n  api_key: {{S}}\n  model: gpt-4o-mini",
    ])  # fmt: skip


@_pos("anthropic_api_key")
def _p_anthropic(r: random.Random) -> tuple[str, str]:
    s = P_SKANT + _rs(r, B64URL, 93) + "AA"
    return _std(r, s, [
        "ANTHROPIC_API_KEY={{S}}",
        'client = anthropic.Anthropic(api_key="{{S}}")',
        'curl https://api.anthropic.com/v1/messages -H "x-api-key: {{S}}" -H "anthropic-version: 2023-06-01"',
    ])  # fmt: skip


@_pos("huggingface_token")
def _p_hf(r: random.Random) -> tuple[str, str]:
    s = P_HF + _rs(r, ALNUM, 34)
    return _std(r, s, [
        "HF_TOKEN={{S}}",
        "huggingface-cli login --token {{S}}",
        "git clone https://{{USER}}:{{S}}@huggingface.co/{{ORG}}/{{WORD}}-ft",
    ])  # fmt: skip


@_pos("datadog_key")
def _p_dd(r: random.Random) -> tuple[str, str]:
    s = r.choice([_hex(r, 32), _hex(r, 40)])
    var = "DD_API_KEY" if len(s) == 32 else "DD_APP_KEY"
    return _std(r, s, [
        "{{VAR}}={{S}}",
        "datadog:\n  site: datadoghq.eu\n  {{VARL}}: {{S}}",
        'curl -X GET "https://api.datadoghq.com/api/v1/validate" -H "DD-API-KEY: {{S}}"' if len(s) == 32 else
        'curl "https://api.datadoghq.com/api/v1/monitor" -H "DD-APPLICATION-KEY: {{S}}" -H "DD-API-KEY: ${DD_API_KEY}"',
        "helm upgrade datadog datadog/datadog --set datadog.{{VARC}}={{S}}",
    ], VAR=var, VARL=var.lower().replace("dd_", ""), VARC="apiKey" if len(s) == 32 else "appKey")  # fmt: skip


@_pos("sentry_auth_token")
def _p_sentry(r: random.Random) -> tuple[str, str]:
    org = r.choice(ORGS)
    payload = {
        "iat": r.randint(1_690_000_000, 1_740_000_000),
        "url": "https://sentry.io",
        "region_url": "https://us.sentry.io",
        "org": org,
    }
    s = r.choice([P_SNTRYS + _b64(json.dumps(payload, separators=(",", ":")).encode()).rstrip("=") + "_" + _rs(r, B64, 43),
                  P_SNTRYU + _hex(r, 64)])  # fmt: skip
    return _std(r, s, [
        "SENTRY_AUTH_TOKEN={{S}}",
        "sentry-cli --auth-token {{S}} releases new {{VER}}",
        "[auth]\ntoken={{S}}",
    ])  # fmt: skip


@_pos("newrelic_api_key")
def _p_nr(r: random.Random) -> tuple[str, str]:
    s = P_NRAK + _rs(r, UPNUM, 27)
    return _std(r, s, [
        "NEW_RELIC_API_KEY={{S}}",
        'curl https://api.newrelic.com/graphql -H "API-Key: {{S}}" -H "Content-Type: application/json"',
        "newrelic user key for terraform: {{S}}",
    ])  # fmt: skip


@_pos("grafana_token")
def _p_grafana(r: random.Random) -> tuple[str, str]:
    s = P_GLSA + _rs(r, ALNUM, 32) + "_" + _hex(r, 8)
    return _std(r, s, [
        "GRAFANA_SERVICE_ACCOUNT_TOKEN={{S}}",
        'curl -H "Authorization: Bearer {{S}}" https://grafana.{{DOMAIN}}/api/dashboards/uid/{{UID}}',
        "grafana:\n  url: https://grafana.{{DOMAIN}}\n  auth: {{S}}",
    ], UID=_rs(r, ALNUM, 9))  # fmt: skip


@_pos("linear_api_key")
def _p_linear(r: random.Random) -> tuple[str, str]:
    s = P_LIN + _rs(r, ALNUM, 40)
    return _std(r, s, [
        "LINEAR_API_KEY={{S}}",
        "curl -X POST https://api.linear.app/graphql -H 'Authorization: {{S}}' -d '{\"query\":\"{ viewer { id } }\"}'",
        "personal linear key for the triage script: {{S}}",
    ])  # fmt: skip


@_pos("notion_token")
def _p_notion(r: random.Random) -> tuple[str, str]:
    s = r.choice([P_NTN + _rs(r, DIGITS, 12) + _rs(r, ALNUM, 34), P_NOTION_OLD + _rs(r, ALNUM, 43)])
    return _std(r, s, [
        "NOTION_TOKEN={{S}}",
        'curl https://api.notion.com/v1/databases/{{HEXID}}/query -H "Authorization: Bearer {{S}}" -H "Notion-Version: 2022-06-28"',
        "internal integration '{{SVC}} sync' secret: {{S}}",
    ], HEXID=_hex(r, 32))  # fmt: skip


@_pos("postmark_server_token")
def _p_postmark(r: random.Random) -> tuple[str, str]:
    s = _uuid(r)
    return _std(r, s, [
        'curl "https://api.postmarkapp.com/email" -H "X-Postmark-Server-Token: {{S}}" -H "Content-Type: application/json"',
        "POSTMARK_SERVER_TOKEN={{S}}",
        "postmark smtp: smtp.postmarkapp.com:587, username and password are both {{S}}",
    ])  # fmt: skip


@_pos("supabase_service_role_key")
def _p_supabase(r: random.Random) -> tuple[str, str]:
    ref = _rs(r, LOWER, 20)
    iat = r.randint(1_690_000_000, 1_740_000_000)
    s = _jwt(r, {"iss": "supabase", "ref": ref, "role": "service_role", "iat": iat, "exp": iat + 315_360_000})
    return _std(r, s, [
        "SUPABASE_URL=https://{{REF}}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={{S}}",
        "const supabase = createClient('https://{{REF}}.supabase.co', '{{S}}')  // server only!",
        "service_role key (bypasses RLS): {{S}}",
    ], REF=ref)  # fmt: skip


@_pos("square_access_token")
def _p_square(r: random.Random) -> tuple[str, str]:
    s = P_EAAA + _rs(r, B64URL, 60)
    return _std(r, s, [
        "SQUARE_ACCESS_TOKEN={{S}}",
        "curl https://connect.squareup.com/v2/locations -H 'Square-Version: 2024-05-15' -H 'Authorization: Bearer {{S}}'",
        "production access token for the POS integration: {{S}}",
    ])  # fmt: skip


@_pos("mailchimp_api_key")
def _p_mc(r: random.Random) -> tuple[str, str]:
    s = _hex(r, 32) + "-us" + str(r.randint(1, 21))
    return _std(r, s, [
        "MAILCHIMP_API_KEY={{S}}",
        "curl -u anystring:{{S}} https://{{DC}}.api.mailchimp.com/3.0/lists",
        "mailchimp key for the newsletter sync: {{S}}",
    ], DC=s.rsplit("-", 1)[1])  # fmt: skip


# ------------------------------------------------------------------------- generic secrets and keys


@_pos("app_secret_key")
def _p_appsecret(r: random.Random) -> tuple[str, str]:
    flavour = r.randrange(4)
    if flavour == 0:
        s = _rs(r, LOWNUM + "!@%^&*(-_=+)", 50)
        tpls = [
            "SECRET_KEY = '{{S}}'",
            "DJANGO_SECRET_KEY={{S}}",
            '# settings/prod.py\nDEBUG = False\nSECRET_KEY = "{{S}}"',
        ]
    elif flavour == 1:
        s = _hex(r, 128)
        tpls = ["SECRET_KEY_BASE={{S}}", "production:\n  secret_key_base: {{S}}"]
    elif flavour == 2:
        s = r.choice([_hex(r, 64), _b64(_rbytes(r, 48)), _rs(r, ALNUM, 48)])
        tpls = [
            "JWT_SECRET={{S}}",
            "jwt:\n  signing_key: {{S}}\n  ttl: 15m",
            "app.jwt.secret={{S}}",
            "SESSION_SECRET={{S}}",
        ]
    else:
        s = "base64:" + _b64(_rbytes(r, 32))
        tpls = ["APP_KEY={{S}}", "php artisan key:generate --show\n{{S}}"]
    return _std(r, s, tpls)


@_pos("session_cookie")
def _p_cookie(r: random.Random) -> tuple[str, str]:
    dom = _domain(r)
    flavour = r.randrange(5)
    if flavour == 0:
        name, s = "sessionid", _rs(r, LOWNUM, 32)
    elif flavour == 1:
        name, s = (
            "connect.sid",
            "s%3A" + _rs(r, B64URL, 32) + "." + _rs(r, B64, 43).replace("+", "%2B").replace("/", "%2F"),
        )
    elif flavour == 2:
        name, s = (
            f"_{r.choice(SVCS).replace('-', '_')}_session",
            _b64(_rbytes(r, r.randint(90, 180))).replace("=", "%3D") + "--" + _hex(r, 40),
        )
    elif flavour == 3:
        name, s = "PHPSESSID", _rs(r, LOWNUM, 26)
    else:
        name, s = ".AspNetCore.Cookies", "CfDJ8" + _rs(r, B64URL, r.randint(180, 300))
    exp = str(r.randint(1_730_000_000, 1_790_000_000))
    return _std(r, s, [
        "# Netscape HTTP Cookie File\n.{{DOM}}\tTRUE\t/\tTRUE\t{{EXP}}\t{{NAME}}\t{{S}}",
        "curl 'https://admin.{{DOM}}/api/users' -H 'Cookie: {{NAME}}={{S}}; theme=dark'",
        "Set-Cookie: {{NAME}}={{S}}; Path=/; HttpOnly; Secure; SameSite=Lax",
        '[{"domain": ".{{DOM}}", "name": "{{NAME}}", "value": "{{S}}", "path": "/", "httpOnly": true, "secure": true}]',
        "logged in as the support admin, session cookie is {{NAME}}={{S}} if you need to repro",
    ], DOM=dom, EXP=exp, NAME=name)  # fmt: skip


@_pos("oauth_refresh_token")
def _p_refresh(r: random.Random) -> tuple[str, str]:
    s = r.choice([
        "1//0" + r.choice("geh") + _rs(r, B64URL, 99),
        "0.A" + _rs(r, B64URL, r.randint(300, 420)),
        _rs(r, ALNUM, 64),
        "v1." + _rs(r, B64URL, 140),
    ])  # fmt: skip
    return _std(r, s, [
        '{\n  "access_token": "<expired>",\n  "expires_in": 3599,\n  "refresh_token": "{{S}}",\n  "scope": "openid email offline_access",\n  "token_type": "Bearer"\n}',
        "GOOGLE_REFRESH_TOKEN={{S}}",
        "curl -X POST https://oauth2.googleapis.com/token -d client_id={{CID}}.apps.googleusercontent.com -d grant_type=refresh_token -d refresh_token={{S}}",
        "refresh_token for the shared mailbox sync: {{S}}",
    ], CID=str(r.randint(10**11, 10**12)) + "-" + _rs(r, LOWNUM, 32))  # fmt: skip


@_pos("webhook_signing_secret")
def _p_hooksecret(r: random.Random) -> tuple[str, str]:
    if r.random() < 0.25:
        s = P_WHSEC + _b64(_rbytes(r, 24))
        return _std(r, s, ["SVIX_SECRET={{S}}", "svix endpoint signing secret for /hooks/{{SVC}}: {{S}}"])
    s = r.choice([_hex(r, 40), _hex(r, 64), _rs(r, ALNUM, 32)])
    return _std(r, s, [
        "GITHUB_WEBHOOK_SECRET={{S}}",
        "webhook secret for the {{SVC}} receiver (HMAC-SHA256): {{S}}",
        'resource "github_repository_webhook" "ci" {\n  configuration {\n    url    = "https://ci.{{DOMAIN}}/hook"\n    secret = "{{S}}"\n  }\n}',
        "X_HUB_SECRET={{S}}  # must match the value in the GitHub app settings",
        "gitlab webhook secret token for {{ORG}}/{{SVC}}: {{S}}",
    ])  # fmt: skip


@_pos("basic_auth_header")
def _p_basic(r: random.Random) -> tuple[str, str]:
    user = r.choice([_handle(r), "admin", "api", "svc-" + r.choice(SVCS)])
    s = _b64(f"{user}:{_pw_urlsafe(r)}".encode())
    return _std(r, s, [
        "curl -H 'Authorization: Basic {{S}}' https://{{HOST}}/metrics",
        "GET /api/v2/export HTTP/1.1\nHost: {{DOMAIN}}\nAuthorization: Basic {{S}}\nAccept: */*",
        '{"ts":"{{DATE}}T{{TIME}}:11Z","level":"debug","req_headers":{"authorization":"Basic {{S}}","user-agent":"curl/8.4.0"}}',
        "proxy_set_header Authorization \"Basic {{S}}\";",
    ])  # fmt: skip


@_pos("url_credentials")
def _p_urlcred(r: random.Random) -> tuple[str, str]:
    s = _pw_urlsafe(r)
    return _std(r, s, [
        "http_proxy=http://{{USER}}:{{S}}@proxy.{{DOMAIN}}:3128",
        "pip install --index-url https://{{USER}}:{{S}}@pypi.{{DOMAIN}}/simple/ {{SVC}}",
        "git clone https://{{USER}}:{{S}}@git.{{DOMAIN}}/{{TEAM}}/{{SVC}}.git",
        "ftp://{{USER}}:{{S}}@files.{{DOMAIN}}/outbound/",
        "sftp target: sftp://{{USER}}:{{S}}@sftp.{{DOMAIN}}:22/upload",
        "[global]\nindex-url = https://{{USER}}:{{S}}@nexus.{{DOMAIN}}/repository/pypi/simple",
    ])  # fmt: skip


@_pos("database_password")
def _p_dbpw(r: random.Random) -> tuple[str, str]:
    s = _pw_urlsafe(r) if r.random() < 0.5 else _password(r).replace(" ", "-")
    url_ok = all(c in ALNUM + "-_.~" for c in s)
    tpls = [
        "{{HOST}}:5432:{{DB}}:{{USER}}:{{S}}",
        "spring.datasource.url=jdbc:postgresql://{{HOST}}:5432/{{DB}}\nspring.datasource.username={{USER}}\nspring.datasource.password={{S}}",
        "PGPASSWORD='{{S}}' psql -h {{HOST}} -U {{USER}} {{DB}}",
        "mysql -h {{HOST}} -u {{USER}} -p'{{S}}' {{DB}}",
        "Server={{HOST}};Database={{DB}};User Id={{USER}};Password={{S}};TrustServerCertificate=True",
        "default:\n  adapter: postgresql\n  host: {{HOST}}\n  username: {{USER}}\n  password: {{S}}",
    ]
    if url_ok:
        tpls += ["DATABASE_URL=postgres://{{USER}}:{{S}}@{{HOST}}:5432/{{DB}}?sslmode=require",
                 '{"level":"error","msg":"connect failed","dsn":"postgresql://{{USER}}:{{S}}@{{HOST}}/{{DB}}"}']  # fmt: skip
    return _std(r, s, tpls)


@_pos("sql_user_password")
def _p_sqluser(r: random.Random) -> tuple[str, str]:
    s = _password(r).replace(" ", "")
    return _std(r, s, [
        "-- migrations/0042_reporting_user.sql\nCREATE USER {{USER}}_ro WITH PASSWORD '{{S}}';\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO {{USER}}_ro;",
        "ALTER ROLE {{USER}} WITH LOGIN PASSWORD '{{S}}' VALID UNTIL '2026-01-01';",
        "CREATE USER '{{USER}}'@'%' IDENTIFIED BY '{{S}}';\nGRANT ALL PRIVILEGES ON {{DB}}.* TO '{{USER}}'@'%';",
        "ALTER USER '{{USER}}'@'localhost' IDENTIFIED BY '{{S}}';",
        "CREATE LOGIN {{USER}} WITH PASSWORD = '{{S}}', CHECK_POLICY = OFF;",
        'ALTER USER {{USER}} IDENTIFIED BY "{{S}}" ACCOUNT UNLOCK;',
        "INSERT INTO admin_users (email, password) VALUES ('{{EMAIL}}', '{{S}}');  -- seed, plain text, fix before launch",
    ])  # fmt: skip


@_pos("smtp_password")
def _p_smtp(r: random.Random) -> tuple[str, str]:
    s = r.choice([_password(r).replace(" ", ""), "B" + _rs(r, ALNUM + "+/", 43), _rs(r, LOWER, 16)])
    return _std(r, s, [
        "SMTP_HOST=smtp.{{DOMAIN}}\nSMTP_USER=noreply@{{DOMAIN}}\nSMTP_PASSWORD={{S}}",
        "spring.mail.host=email-smtp.{{REGION}}.amazonaws.com\nspring.mail.username={{AK}}\nspring.mail.password={{S}}",
        "[smtp.{{DOMAIN}}]:587 alerts@{{DOMAIN}}:{{S}}",
        "account default\nhost smtp.gmail.com\nport 587\nuser {{EMAIL}}\npassword {{S}}",
        "EMAIL_HOST_PASSWORD = '{{S}}'",
        "gmail app password for the alerts mailbox: {{S}}",
    ], AK=P_AKIA + _rs(r, B32, 16))  # fmt: skip


@_pos("queue_password")
def _p_queue(r: random.Random) -> tuple[str, str]:
    s = _pw_urlsafe(r)
    return _std(r, s, [
        "AMQP_URL=amqp://{{USER}}:{{S}}@{{HOST}}:5672/{{ENV}}",
        "rabbitmqctl add_user {{USER}} '{{S}}'\nrabbitmqctl set_permissions -p / {{USER}} '.*' '.*' '.*'",
        'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="{{USER}}" password="{{S}}";',
        "spring.rabbitmq.username={{USER}}\nspring.rabbitmq.password={{S}}",
        "nats-server --user {{USER}} --pass {{S}}",
        "CELERY_BROKER_URL=redis://:{{S}}@{{HOST}}:6379/1",
    ])  # fmt: skip


@_pos("basic_auth_password")
def _p_htplain(r: random.Random) -> tuple[str, str]:
    s = _password(r).replace(" ", "")
    return _std(r, s, [
        "htpasswd -bc /etc/nginx/.htpasswd {{USER}} '{{S}}'",
        "userlist admins\n  user {{USER}} insecure-password {{S}}",
        "grafana admin login: admin / {{S}}",
        "basic auth on the staging site is {{USER}}:{{S}}",
        "GF_SECURITY_ADMIN_PASSWORD={{S}}",
        "traefik dashboard creds -> user {{USER}} pass {{S}}",
        "stats auth admin:{{S}}",
    ])  # fmt: skip


@_pos("wifi_psk")
def _p_wifi(r: random.Random) -> tuple[str, str]:
    s = r.choice([_pw_human(r), _passphrase(r, "-_."), _pw_generated(r, r.randint(12, 20)), _rs(r, LOWNUM, 12)])
    ssid = r.choice(["Office-Guest", f"{r.choice(ORGS).title()}-Corp", "Lab-5G", "Warehouse-IoT", "Conf-Room-B"])
    return _std(r, s, [
        "WIFI:T:WPA;S:{{SSID}};P:{{S}};;",
        'network={\n    ssid="{{SSID}}"\n    psk="{{S}}"\n    key_mgmt=WPA-PSK\n}',
        "guest wifi this week: {{SSID}} / {{S}}",
        "nmcli dev wifi connect {{SSID}} password '{{S}}'",
        "wpa_passphrase={{S}}\nssid={{SSID}}\nwpa=2",
    ], SSID=ssid)  # fmt: skip


@_pos("vpn_psk")
def _p_psk(r: random.Random) -> tuple[str, str]:
    s = r.choice([_rs(r, ALNUM, 32), _b64(_rbytes(r, 32)), _pw_generated(r, 24), "0s" + _b64(_rbytes(r, 24))])
    return _std(r, s, [
        '{{IP}} 203.0.113.{{N}} : PSK "{{S}}"',
        "conn {{REGION}}-tunnel\n  authby=secret\n  left=%defaultroute\n  right=198.51.100.{{N}}\n# /etc/ipsec.secrets\n: PSK \"{{S}}\"",
        "set vpn ipsec site-to-site peer 198.51.100.{{N}} authentication pre-shared-secret '{{S}}'",
        "pre-shared key for the {{REGION}} tunnel (AWS side matches): {{S}}",
        "crypto isakmp key {{S}} address 198.51.100.{{N}}",
    ])  # fmt: skip


@_pos("openvpn_static_key")
def _p_ovpn(r: random.Random) -> tuple[str, str]:
    body = "\n".join(_hex(r, 32) for _ in range(16))
    label = "OpenVPN Static key V1"
    s = f"{DASH}BEGIN {label}{DASH}\n{body}\n{DASH}END {label}{DASH}"
    text = r.choice([
        f"#\n# 2048 bit OpenVPN static key\n#\n{s}",
        f"client\ndev tun\nproto udp\nremote vpn.{_domain(r)} 1194\nkey-direction 1\n<tls-auth>\n{s}\n</tls-auth>",
        f"cat /etc/openvpn/server/ta.key\n{s}",
    ])  # fmt: skip
    return text, s


@_pos("wireguard_private_key")
def _p_wg(r: random.Random) -> tuple[str, str]:
    s = _b64(_rbytes(r, 32))
    pub = _b64(_rbytes(r, 32))
    return _std(r, s, [
        "[Interface]\nPrivateKey = {{S}}\nAddress = 10.{{N}}.0.2/32\nDNS = 10.{{N}}.0.1\n\n[Peer]\nPublicKey = {{PUB}}\nEndpoint = vpn.{{DOMAIN}}:51820\nAllowedIPs = 10.0.0.0/8",
        "wg set wg0 private-key <(echo {{S}})",
        "wireguard:\n  interface:\n    private_key: {{S}}\n    listen_port: 51820\n  peers:\n    - public_key: {{PUB}}",
    ], PUB=pub)  # fmt: skip


@_pos("totp_secret")
def _p_totp(r: random.Random) -> tuple[str, str]:
    s = _rs(r, B32, r.choice([16, 32, 32, 52]))
    issuer = r.choice(["AWS", "GitHub", "Cloudflare", "Okta", r.choice(ORGS).title(), "Grafana", "Stripe"])
    return _std(r, s, [
        P_OTP + "{{ISS}}:{{EMAIL}}?secret={{S}}&issuer={{ISS}}&algorithm=SHA1&digits=6&period=30",
        "MFA seed for the shared {{ISS}} root account: {{S}}",
        "oathtool --totp -b {{S}}",
        "2FA setup key (can't scan QR): {{S}}",
        "totp:\n  issuer: {{ISS}}\n  secret: {{S}}",
    ], ISS=issuer)  # fmt: skip


@_pos("recovery_code")
def _p_recovery(r: random.Random) -> tuple[str, str]:
    fl = r.randrange(4)
    if fl == 0:
        s = _hex(r, 5) + "-" + _hex(r, 5)
        tpls = ["spare GitHub recovery code for the shared {{ORG}}-admin account: {{S}} (the rest are in the safe)",
                "break-glass: if the yubikey is lost, sign in to github.com/{{ORG}} with recovery code {{S}}"]  # fmt: skip
    elif fl == 1:
        s = "-".join(_rs(r, "BCDFGHJKMPQRTVWXY2346789", 5) for _ in range(5))
        tpls = ["Microsoft account recovery code for {{EMAIL}}: {{S}}",
                "new recovery code after the MFA reset (store offline!): {{S}}"]  # fmt: skip
    elif fl == 2:
        s = f"{r.randint(1000, 9999)} {r.randint(1000, 9999)}"
        tpls = ["backup code for @{{H}}'s google account, they're locked out: {{S}}",
                "Google Workspace backup verification code for {{EMAIL}}: {{S}} (unused)"]  # fmt: skip
    else:
        s = "A3-" + _rs(r, UPNUM, 6) + "-" + "-".join(_rs(r, UPNUM, 5) for _ in range(5))
        tpls = ["emergency kit for the team 1Password account -> secret key {{S}}",
                "1Password Secret Key for {{EMAIL}}: {{S}}"]  # fmt: skip
    return _std(r, s, tpls)


@_pos("private_key_pem")
def _p_pem(r: random.Random) -> tuple[str, str]:
    fl = r.randrange(3)
    label = ["RSA " + PK, PK, "EC " + PK][fl]
    s = _armour(label, _pem_body(r, ["rsa1", "pkcs8", "ec"][fl]))
    text = r.choice([
        f"cat /etc/ssl/private/{r.choice(SVCS)}.key\n{s}",
        f"tls:\n  key: |\n{s}",
        f"here's the key that goes with the cert in {_ticket(r)}:\n\n{s}",
        s,
        f"{s}\n{DASH}BEGIN CERTIFICATE{DASH}\n(cert trimmed)\n{DASH}END CERTIFICATE{DASH}",
    ])  # fmt: skip
    return text, s


def _openssh_key(r: random.Random, comment: str) -> str:
    pub = _rbytes(r, 32)
    pubblob = _sshstr(P_SSH_ED.encode()) + _sshstr(pub)
    check = _rbytes(r, 4)
    priv = (
        check
        + check
        + _sshstr(P_SSH_ED.encode())
        + _sshstr(pub)
        + _sshstr(_rbytes(r, 32) + pub)
        + _sshstr(comment.encode())
    )
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = (b"openssh-key-v1\x00" + _sshstr(b"none") + _sshstr(b"none") + _sshstr(b"") + struct.pack(">I", 1)
            + _sshstr(pubblob) + _sshstr(priv))  # fmt: skip
    return _armour("OPENSSH " + PK, _b64(blob), 70)


@_pos("openssh_private_key")
def _p_openssh(r: random.Random) -> tuple[str, str]:
    s = _openssh_key(r, f"{_handle(r)}@{r.choice(['laptop', 'bastion', 'ci', 'deploy'])}")
    text = r.choice([
        f"$ cat ~/.ssh/id_ed25519\n{s}",
        f"deploy key for {r.choice(ORGS)}/{r.choice(SVCS)} (read-only):\n{s}",
        s,
        f"SSH_PRIVATE_KEY: |\n{s}",
    ])  # fmt: skip
    return text, s


@_pos("putty_private_key")
def _p_ppk(r: random.Random) -> tuple[str, str]:
    pub = _b64(_sshstr(P_SSH_ED.encode()) + _sshstr(_rbytes(r, 32)))
    s = _b64(_sshstr(_rbytes(r, 32)))
    comment = f"{_handle(r)}@{r.choice(['win-laptop', 'jump01', 'build-agent'])}"
    text = (f"PuTTY-User-Key-File-3: {P_SSH_ED}\nEncryption: none\nComment: {comment}\nPublic-Lines: 2\n"
            f"{_wrap64(pub)}\nPrivate-Lines: 1\n{s}\nPrivate-MAC: {_hex(r, 64)}")  # fmt: skip
    if r.random() < 0.4:
        text = f"contents of {r.choice(['deploy.ppk', 'jumpbox.ppk', 'sftp-vendor.ppk'])}:\n{text}"
    return text, s


@_pos("k8s_token")
def _p_k8s(r: random.Random) -> tuple[str, str]:
    ns, sa = r.choice(["default", "ci", "monitoring", "kube-system", r.choice(TEAMS)]), r.choice(SVCS)
    iat = r.randint(1_690_000_000, 1_740_000_000)
    payload = {
        "aud": ["https://kubernetes.default.svc.cluster.local"], "exp": iat + 31_536_000, "iat": iat,
        "iss": "https://kubernetes.default.svc.cluster.local",
        "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": _uuid(r)}},
        "sub": f"system:serviceaccount:{ns}:{sa}",
    }  # fmt: skip
    s = _jwt(r, payload, "RS256")
    return _std(r, s, [
        "users:\n- name: {{SA}}\n  user:\n    token: {{S}}",
        "kubectl --server https://k8s.{{DOMAIN}}:6443 --token {{S}} get pods -n {{NS}}",
        "$ kubectl create token {{SA}} -n {{NS}} --duration=8760h\n{{S}}",
        'curl -k -H "Authorization: Bearer {{S}}" https://{{IP}}:6443/api/v1/namespaces/{{NS}}/pods',
    ], SA=sa, NS=ns)  # fmt: skip


@_pos("password_export_row")
def _p_pwcsv(r: random.Random) -> tuple[str, str]:
    s = _password(r).replace(",", "")
    site = r.choice(["GitHub", "AWS Console", "Grafana", "Jenkins", "NAS", "Router admin", "Vendor portal", "Okta"])
    url = f"https://{r.choice(['admin', 'portal', 'console', 'login'])}.{_domain(r)}/"
    return _std(r, s, [
        "name,url,username,password,note\n{{SITE}},{{URL}},{{EMAIL}},{{S}},",
        "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n{{TEAM}},,login,{{SITE}},,,0,{{URL}},{{USER}},{{S}},",
        "Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes\n\"{{SITE}}\",\"{{URL}}\",\"{{USER}}\",\"{{S}}\",,false,false,{{TEAM}},",
        "url,username,password,httpRealm,formActionOrigin,guid,timeCreated\n\"{{URL}}\",\"{{EMAIL}}\",\"{{S}}\",,\"{{URL}}\",\"{{{UUID}}}\",1700000000000",
    ], SITE=site, URL=url)  # fmt: skip


@_pos("api_bearer_token")
def _p_postman(r: random.Random) -> tuple[str, str]:
    s = r.choice(
        [_rs(r, ALNUM, 40), _hex(r, 48), "sk_" + _rs(r, ALNUM, 32), _rs(r, B64URL, 43), "api_" + _rs(r, LOWNUM, 36)]
    )
    return _std(r, s, [
        '{\n  "info": {"name": "{{SVC}} API", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},\n  "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{S}}", "type": "string"}]}\n}',
        '{"_type": "environment", "name": "{{ENV}}", "data": {"base_url": "https://api.{{DOMAIN}}", "api_key": "{{S}}"}}',
        "components:\n  securitySchemes:\n    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: X-API-Key\n# try it: curl -H 'X-API-Key: {{S}}' https://api.{{DOMAIN}}/v1/ping",
        '{"key": "x-api-key", "value": "{{S}}", "enabled": true}',
        "GET https://api.{{DOMAIN}}/v2/orders?page=2\nAuthorization: Bearer {{S}}\nX-Request-Id: {{UUID}}",
        "partner api key ({{ORG}}, prod): {{S}}",
    ])  # fmt: skip


@_pos("password_chat")
def _p_pwchat(r: random.Random) -> tuple[str, str]:
    s = _password(r).replace(" ", "-")
    return _std(r, s, [
        "the NAS login is admin / {{S}}",
        "new root pw for {{HOST}} is {{S}} — please don't paste it anywhere else lol",
        "creds for the {{ENV}} db: {{USER}} / {{S}}",
        "@{{H}} pw is {{S}}, I changed it this morning",
        "the vendor portal password got reset to {{S}}",
        "jenkins admin -> {{S}} (until we hook up SSO)",
        "if the bastion asks, sudo password for {{USER}} is {{S}}",
        "ok logged in with {{S}}, thanks!",
        "Password: {{S}}",
        "router admin password (office): {{S}}",
    ])  # fmt: skip


@_pos("password_script")
def _p_pwscript(r: random.Random) -> tuple[str, str]:
    s = _password(r).replace(" ", "")
    return _std(r, s, [
        "0 3 * * * mysqldump -u backup -p{{S}} --all-databases | gzip > /backup/db-$(date +\\%F).sql.gz",
        "sshpass -p '{{S}}' ssh {{USER}}@{{HOST}} 'sudo systemctl restart {{SVC}}'",
        "$pw = ConvertTo-SecureString '{{S}}' -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential('{{ORG}}\\{{USER}}', $pw)",
        "net user svc_backup {{S}} /add /y",
        "@echo off\nnet use Z: \\\\fs01\\shared /user:{{ORG}}\\{{USER}} {{S}}",
        "deploy:\n\tcurl -u {{USER}}:{{S}} -T build.zip https://nexus.{{DOMAIN}}/repository/raw/",
        "echo '{{S}}' | sudo -S systemctl restart nginx",
        "expect \"password:\"\nsend \"{{S}}\\r\"",
        "Invoke-Sqlcmd -ServerInstance {{HOST}} -Username {{USER}} -Password '{{S}}' -Query 'SELECT 1'",
    ])  # fmt: skip


@_pos("password_config")
def _p_pwconf(r: random.Random) -> tuple[str, str]:
    s = _password(r).replace(" ", "")
    return _std(r, s, [
        "ENV POSTGRES_PASSWORD={{S}}",
        "ARG ADMIN_PASSWORD={{S}}",
        "[Service]\nEnvironment=DB_PASSWORD={{S}}\nExecStart=/usr/local/bin/{{SVC}}",
        "ansible_become_password: {{S}}",
        "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: {{S}}",
        "ldap:\n  bind_dn: cn={{USER}},ou=svc,dc={{ORG}},dc=com\n  bind_password: {{S}}",
        "[client]\nuser={{USER}}\npassword={{S}}",
        "<add key=\"SmtpPassword\" value=\"{{S}}\" />",
        "keystore.password={{S}}",
        "- name: create app user\n  ansible.builtin.user:\n    name: {{USER}}\n    password: \"{{ '{{S}}' | password_hash('sha512') }}\"",
    ])  # fmt: skip


@_pos("passphrase")
def _p_passphrase(r: random.Random) -> tuple[str, str]:
    s = _passphrase(r)
    return _std(r, s, [
        "passphrase for the release signing key: {{S}}",
        "the gpg key passphrase is \"{{S}}\"",
        "vault unseal is fine, but the ansible-vault password is {{S}}",
        "key passphrase (deploy_ed25519): {{S}}",
        "new shared-drive passphrase: {{S}}",
        "BORG_PASSPHRASE='{{S}}'",
        "restic repo password → {{S}}",
    ])  # fmt: skip


# ----------------------------------------------------------------------------------------------
# look-alikes: same places and styles, no credential
# ----------------------------------------------------------------------------------------------

LOOKALIKES: dict[str, Callable[[random.Random], str]] = {}


def _look(name: str) -> Callable[[Callable[[random.Random], str]], Callable[[random.Random], str]]:
    def deco(fn: Callable[[random.Random], str]) -> Callable[[random.Random], str]:
        LOOKALIKES[name] = fn
        return fn

    return deco


SECRET_VARS = [
    "STRIPE_SECRET_KEY", "AWS_SECRET_ACCESS_KEY", "DATABASE_URL", "DB_PASSWORD", "SENDGRID_API_KEY",
    "GITHUB_TOKEN", "NPM_TOKEN", "SLACK_BOT_TOKEN", "OPENAI_API_KEY", "TWILIO_AUTH_TOKEN", "REDIS_PASSWORD",
    "SMTP_PASSWORD", "JWT_SECRET", "AUTH0_CLIENT_SECRET", "DD_API_KEY", "SENTRY_AUTH_TOKEN", "VAULT_TOKEN",
    "CLOUDFLARE_API_TOKEN", "HCLOUD_TOKEN", "ALGOLIA_ADMIN_API_KEY", "PINECONE_API_KEY", "MAILGUN_API_KEY",
]  # fmt: skip


def _var(r: random.Random) -> str:
    return r.choice(SECRET_VARS)


# ---------------------------------------------------------------------- placeholders and references


@_look("placeholder_angle")
def _l_ph_angle(r: random.Random) -> str:
    v = _var(r)
    return r.choice([
        f"{v}=<your-{v.lower().replace('_', '-')}>",
        f"{v}=<REPLACE_ME>",
        f"export {v}=<paste from 1Password>",
        f"{v.lower()}: <set-in-vault>",
        f'"{v}": "<insert {v.split("_")[0].title()} key here>"',
    ])  # fmt: skip


@_look("placeholder_x")
def _l_ph_x(r: random.Random) -> str:
    return r.choice([
        "aws_secret_access_key = " + "x" * 40,
        P_SK_LIVE + "x" * 24,
        P_GHP + "X" * 36,
        "TWILIO_AUTH_TOKEN=" + "0" * 32,
        "api_key: " + "*" * r.randint(8, 40),
        "password: " + "•" * r.randint(8, 14),
        P_XOXB + "xxxxxxxxxxxx-xxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx",
        "DATABASE_URL=postgres://user:xxxxxxxx@localhost:5432/app",
        P_GLPAT + "x" * 20,
        "Authorization: Bearer " + "X" * r.randint(20, 40),
    ])  # fmt: skip


@_look("placeholder_words")
def _l_ph_words(r: random.Random) -> str:
    v = _var(r)
    return _fill(r, r.choice([
        "{{V}}=your_api_key_here",
        "{{V}}=REPLACE_WITH_REAL_VALUE",
        "{{V}}=TODO",
        "{{V}}=changeme-before-deploying   # placeholder, the real one is in vault",
        "{{V}}=dummy-value-for-tests",
        "{{V}}=fake_{{WORD}}_for_unit_tests",
        "{{V}}=not-a-real-key",
        "password: example-password  # docs only",
        "{{V}}=" + "sk" + "_test_PLACEHOLDER",
    ]), V=v)  # fmt: skip


@_look("placeholder_template_vars")
def _l_ph_tpl(r: random.Random) -> str:
    v = _var(r)
    return _fill(r, r.choice([
        "DATABASE_URL=postgres://{{USER}}:${DB_PASSWORD}@{{HOST}}:5432/{{DB}}",
        "password: %(db_password)s",
        "api_key = {{ env('{{V}}') }}",
        "token: ${env:{{V}}}",
        "SMTP_PASSWORD=$SMTP_PASSWORD",
        "auth: Bearer {{apiKey}}",
        "redis://:${REDIS_PASSWORD}@{{HOST}}:6379/0",
        "- \"--password=$(cat /run/secrets/db_password)\"",
        "PGPASSWORD=\"$PGPASSWORD\" psql -h {{HOST}} -U {{USER}} {{DB}}",
    ]), V=v)  # fmt: skip


@_look("github_actions_secret_ref")
def _l_gha(r: random.Random) -> str:
    v = _var(r)
    return _fill(r, r.choice([
        "- name: Publish\n  run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
        "env:\n  {{V}}: ${{ secrets.{{V}} }}\n  AWS_REGION: {{REGION}}",
        "- uses: docker/login-action@v3\n  with:\n    username: ${{ vars.DOCKERHUB_USER }}\n    password: ${{ secrets.DOCKERHUB_TOKEN }}",
        "- uses: aws-actions/configure-aws-credentials@v4\n  with:\n    role-to-assume: arn:aws:iam::{{ACCT}}:role/gha-deploy\n    aws-region: {{REGION}}",
    ]), V=v, ACCT=str(r.randint(10**11, 10**12 - 1)))  # fmt: skip


@_look("ansible_vault_ref")
def _l_ansible_ref(r: random.Random) -> str:
    return _fill(r, r.choice([
        'ansible_become_password: "{{ vault_become_pass }}"',
        "db_password: \"{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/{{SVC}}:password') }}\"",
        "smtp_password: \"{{ lookup('env', 'SMTP_PASSWORD') }}\"",
        "api_token: \"{{ vault_api_token | mandatory }}\"",
    ]))  # fmt: skip


@_look("vault_cli_ref")
def _l_vault_cli(r: random.Random) -> str:
    return _fill(r, r.choice([
        "vault kv get -field=password secret/{{ENV}}/{{SVC}}/db",
        "export DB_PASSWORD=$(vault kv get -field=password secret/{{ENV}}/{{SVC}})",
        "vault read -format=json database/creds/{{SVC}}-readonly | jq -r .data.password",
        "path \"secret/data/{{SVC}}/*\" {\n  capabilities = [\"read\"]\n}",
        "vault write auth/approle/role/{{SVC}} token_ttl=1h token_max_ttl=4h",
    ]))  # fmt: skip


@_look("aws_secretsmanager_ref")
def _l_asm(r: random.Random) -> str:
    acct, sfx = str(r.randint(10**11, 10**12 - 1)), _rs(r, ALNUM, 6)
    return _fill(r, r.choice([
        "aws secretsmanager get-secret-value --secret-id {{ENV}}/{{SVC}}/db --query SecretString --output text",
        "secret_arn = arn:aws:secretsmanager:{{REGION}}:{{ACCT}}:secret:{{ENV}}/{{SVC}}/api-{{SFX}}",
        '"secrets": [{"name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:{{REGION}}:{{ACCT}}:secret:{{SVC}}-db-{{SFX}}:password::"}]',
        "aws ssm get-parameter --name /{{ENV}}/{{SVC}}/stripe_key --with-decryption",
    ]), ACCT=acct, SFX=sfx)  # fmt: skip


@_look("gcp_secret_ref")
def _l_gsm(r: random.Random) -> str:
    return _fill(r, r.choice([
        "projects/{{NUM}}/secrets/{{SVC}}-api-key/versions/latest",
        "gcloud secrets versions access latest --secret={{SVC}}-db-password --project={{ORG}}-{{ENV}}",
        "env:\n- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: {{SVC}}-db\n      key: password",
        "sm://{{ORG}}-{{ENV}}/{{SVC}}-token",
    ]), NUM=str(r.randint(10**11, 10**12 - 1)))  # fmt: skip


@_look("azure_keyvault_ref")
def _l_akv(r: random.Random) -> str:
    return _fill(r, r.choice([
        "@Microsoft.KeyVault(SecretUri=https://kv-{{ORG}}-{{ENV}}.vault.azure.net/secrets/{{SVC}}-db/{{HX}})",
        "az keyvault secret show --vault-name kv-{{ORG}}-{{ENV}} --name {{SVC}}-client-secret --query value -o tsv",
        '"ClientSecret": "@Microsoft.KeyVault(VaultName=kv-{{ORG}};SecretName={{SVC}}-secret)"',
    ]), HX=_hex(r, 32))  # fmt: skip


@_look("password_manager_ref")
def _l_op(r: random.Random) -> str:
    return _fill(r, r.choice([
        "STRIPE_SECRET_KEY=op://Engineering/Stripe {{ENV}}/credential",
        "op read \"op://Infra/{{SVC}} db/password\"",
        "op run --env-file=.env.tpl -- npm start",
        "password is in Bitwarden under '{{TEAM}} / {{SVC}} {{ENV}}'",
        "creds in 1Password: vault {{TEAM}}, item '{{HOST}}'",
        "DOPPLER_CONFIG={{ENV}} doppler run -- ./bin/{{SVC}}",
        "bws secret get {{UUID}}",
    ]))  # fmt: skip


@_look("sops_encrypted")
def _l_sops(r: random.Random) -> str:
    def enc(n: int) -> str:
        return (
            f"ENC[AES256_GCM,data:{_b64(_rbytes(r, n))},iv:{_b64(_rbytes(r, 32))},tag:{_b64(_rbytes(r, 16))},type:str]"
        )

    return _fill(r, "db:\n    password: {{E1}}\n    user: {{USER}}\nsops:\n    kms:\n        - arn: arn:aws:kms:{{REGION}}:{{ACCT}}:key/{{UUID}}\n    lastmodified: \"{{DATE}}T{{TIME}}:00Z\"\n    mac: {{E2}}\n    version: 3.8.1",
                 E1=enc(r.randint(12, 30)), E2=enc(32), ACCT=str(r.randint(10**11, 10**12 - 1)))  # fmt: skip


@_look("ansible_vault_blob")
def _l_avault(r: random.Random) -> str:
    body = "\n".join(_hex(r, 80) for _ in range(r.randint(3, 6)))
    return r.choice(
        [
            f"$ANSIBLE_VAULT;1.1;AES256\n{body}",
            f"db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  {body.replace(chr(10), chr(10) + '  ')}",
        ]
    )


@_look("pgp_message")
def _l_pgp(r: random.Random) -> str:
    return _armour("PGP MESSAGE", "hQIMA" + _rs(r, B64, r.randint(300, 700)) + "=\n=" + _rs(r, B64, 4))


@_look("sealed_secret")
def _l_sealed(r: random.Random) -> str:
    return _fill(r, "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {{SVC}}-db\n  namespace: {{ENV}}\nspec:\n  encryptedData:\n    password: AgB{{BLOB}}",
                 BLOB=_rs(r, B64, r.randint(300, 500)))  # fmt: skip


@_look("k8s_secret_ref")
def _l_k8sref(r: random.Random) -> str:
    return _fill(r, r.choice([
        "envFrom:\n- secretRef:\n    name: {{SVC}}-env\n- configMapRef:\n    name: {{SVC}}-config",
        "volumes:\n- name: creds\n  secret:\n    secretName: {{SVC}}-tls\n    defaultMode: 0400",
        "kubectl get secret {{SVC}}-db -n {{ENV}} -o jsonpath='{.data.password}' | base64 -d",
        "kubectl create secret generic {{SVC}}-api --from-env-file=.env.{{ENV}} --dry-run=client -o yaml",
    ]))  # fmt: skip


# ---------------------------------------------------------------------------- code reading secrets


@_look("code_env_python")
def _l_code_py(r: random.Random) -> str:
    v = _var(r)
    return _fill(r, r.choice([
        'import os\n\n{{LV}} = os.environ["{{V}}"]',
        '{{LV}} = os.getenv("{{V}}")\nif not {{LV}}:\n    raise RuntimeError("{{V}} is not set")',
        "class Settings(BaseSettings):\n    {{LV}}: SecretStr\n    model_config = SettingsConfigDict(env_file='.env')",
        "stripe.api_key = settings.STRIPE_SECRET_KEY  # loaded from env, never hardcode",
    ]), V=v, LV=v.lower())  # fmt: skip


@_look("code_env_node")
def _l_code_node(r: random.Random) -> str:
    v = _var(r)
    return _fill(r, r.choice([
        "const token = process.env.{{V}};\nif (!token) throw new Error('missing {{V}}');",
        "const client = new Client({ apiKey: process.env.{{V}} ?? '' });",
        "export default defineConfig({ secret: import.meta.env.VITE_{{WORDU}}_KEY_ID })",
    ]), V=v, WORDU=r.choice(WORDS).upper())  # fmt: skip


@_look("code_env_go_java")
def _l_code_go(r: random.Random) -> str:
    v = _var(r)
    return _fill(r, r.choice([
        'key := os.Getenv("{{V}}")\nif key == "" {\n\tlog.Fatal("{{V}} required")\n}',
        '@Value("${app.{{LV}}}")\nprivate String {{CV}};',
        'let key = std::env::var("{{V}}").expect("{{V}} must be set");',
        '$key = $env:{{V}}\nif (-not $key) { throw "{{V}} missing" }',
    ]), V=v, LV=v.lower().replace("_", "-"), CV=v.title().replace("_", ""))  # fmt: skip


@_look("code_secret_file")
def _l_code_file(r: random.Random) -> str:
    return _fill(r, r.choice([
        "with open('/run/secrets/db_password') as f:\n    password = f.read().strip()",
        "[Service]\nLoadCredential=dbpass:/etc/{{SVC}}/dbpass\nEnvironmentFile=-/etc/default/{{SVC}}",
        "secrets:\n  db_password:\n    file: ./secrets/db_password.txt",
        "RUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci",
        "mysqldump --defaults-extra-file=/etc/mysql/backup.cnf --all-databases",
        "IdentityFile ~/.ssh/id_ed25519\nIdentitiesOnly yes",
    ]))  # fmt: skip


@_look("env_var_names_table")
def _l_env_table(r: random.Random) -> str:
    vs = r.sample(SECRET_VARS, 4)
    rows = "\n".join(f"| `{v}` | yes | {r.choice(['1Password', 'Vault', 'AWS SSM', 'Doppler'])} |" for v in vs)
    return f"| Variable | Required | Where to get it |\n|---|---|---|\n{rows}"


@_look("env_var_empty")
def _l_env_empty(r: random.Random) -> str:
    vs = r.sample(SECRET_VARS, r.randint(2, 5))
    return "\n".join(r.choice([f"{v}=", f"export {v}=", f"{v}=''", f"# {v}="]) for v in vs)


@_look("dockerfile_arg_noval")
def _l_docker_arg(r: random.Random) -> str:
    return _fill(r, r.choice([
        "FROM node:20-alpine\nARG NPM_TOKEN\nRUN --mount=type=secret,id=npm_token NPM_TOKEN=$(cat /run/secrets/npm_token) npm ci",
        "ARG GITHUB_TOKEN\nENV APP_ENV={{ENV}}\nRUN echo \"building {{SVC}}\"",
        "docker build --secret id=npm_token,env=NPM_TOKEN -t {{SVC}}:{{VER}} .",
    ]))  # fmt: skip


@_look("terraform_sensitive_var")
def _l_tfvar(r: random.Random) -> str:
    return _fill(r, r.choice([
        'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
        'resource "random_password" "{{DB}}" {\n  length  = 32\n  special = true\n}',
        'password = random_password.{{DB}}.result',
        'data "aws_secretsmanager_secret_version" "db" {\n  secret_id = "{{ENV}}/{{SVC}}/db"\n}',
    ]))  # fmt: skip


@_look("jenkins_credentials_ref")
def _l_jenkins(r: random.Random) -> str:
    return _fill(r, r.choice([
        "withCredentials([string(credentialsId: '{{SVC}}-api-token', variable: 'TOKEN')]) {\n  sh 'curl -H \"Authorization: Bearer $TOKEN\" https://api.{{DOMAIN}}'\n}",
        "environment {\n  DOCKER = credentials('dockerhub-{{ORG}}')\n}",
        "[Pipeline] withCredentials\nMasking supported pattern matches of $TOKEN\n+ curl -H 'Authorization: Bearer ****' https://api.{{DOMAIN}}/deploy",
    ]))  # fmt: skip


@_look("ci_log_masked")
def _l_ci_masked(r: random.Random) -> str:
    return _fill(r, r.choice([
        "Run echo \"token length: ${#NPM_TOKEN}\"\ntoken length: ***\nRun npm publish --access public\n+ {{ORG}}-ui@{{VER}}",
        "$ docker login -u {{ORG}}ci -p [MASKED] registry.gitlab.com\nLogin Succeeded",
        "Setting up AWS credentials... AWS_ACCESS_KEY_ID=****, AWS_SECRET_ACCESS_KEY=****\nDeploying {{SVC}} to {{ENV}}",
    ]))  # fmt: skip


# ------------------------------------------------------------------------- masked / truncated / notes


@_look("masked_value")
def _l_masked(r: random.Random) -> str:
    return _fill(r, r.choice([
        "STRIPE_SECRET_KEY={{SK}}••••••••••••{{T4}}",
        "key ending in ...{{T4}} was rotated on {{DATE}}",
        "Access key {{AK}}****************{{T4U}} (inactive)",
        "token: {{GHP}}************************************",
        "password: ******** (set)",
        "Authorization: Bearer [REDACTED]",
        "DD_API_KEY=************************{{T4}}  # shown masked in UI",
    ]), SK=P_SK_LIVE, AK=P_AKIA[:2] + "**", T4=_rs(r, ALNUM, 4), T4U=_rs(r, UPNUM, 4), GHP=P_GHP)  # fmt: skip


@_look("truncated_value")
def _l_truncated(r: random.Random) -> str:
    return _fill(r, r.choice([
        "the key starts with {{P}}{{F}}... but I don't have the rest",
        "first 6 chars of the old token were {{F}} — that's the one we revoked",
        "token prefix in the audit log: {{P}}{{F}}… (truncated by Splunk)",
        "fingerprint of the leaked key: {{P}}{{F}}...{{T}}",
    ]), P=r.choice([P_SK_LIVE, P_GHP, P_NPM, P_XOXB, "AK" + "IA"]), F=_rs(r, ALNUM, 4), T=_rs(r, ALNUM, 3))  # fmt: skip


@_look("redaction_note")
def _l_redact(r: random.Random) -> str:
    return _fill(r, r.choice([
        "[token removed by @{{H}}]",
        "(password redacted — ask @{{H}} in DM)",
        "DATABASE_URL=postgres://{{USER}}:[REDACTED]@{{HOST}}:5432/{{DB}}",
        "message deleted: contained a credential. It has been rotated.",
        "> :warning: This message was edited to remove a secret. The key has been revoked.",
        "secret scanning alert #{{N}} closed as revoked",
        "api_key=<redacted> user={{USER}} status=401",
    ]))  # fmt: skip


@_look("prose_security")
def _l_prose(r: random.Random) -> str:
    return _fill(r, r.choice([
        "Reminder: never paste API keys or passwords into Slack. Use 1Password share links that expire.",
        "Policy: rotate service account keys every 90 days; the {{TEAM}} team owns the rotation runbook.",
        "Lesson learned: the {{SVC}} outage was caused by an expired TLS cert, not by a leaked token.",
        "We moved all {{ENV}} secrets to Vault; the .env files in the repo only hold non-secret defaults.",
        "Decision: use short-lived OIDC credentials for CI instead of long-lived AWS access keys.",
        "If you accidentally commit a secret, revoke it first, then purge history. Rotation beats rewriting.",
        "Password requirements: at least 14 characters, no reuse of the last 5, MFA mandatory.",
        "TOTP is enrolled for every admin; the seed lives only in the authenticator app, never in the wiki.",
    ]))  # fmt: skip


@_look("error_message_token")
def _l_errors(r: random.Random) -> str:
    return _fill(r, r.choice([
        '{"error":{"type":"invalid_request_error","message":"Invalid API Key provided: {{SK}}****{{T4}}"}}',
        "401 Unauthorized: The security token included in the request is invalid.",
        "botocore.exceptions.ClientError: An error occurred (SignatureDoesNotMatch) when calling the PutObject operation",
        "Error: token expired at {{DATE}}T{{TIME}}:00Z (exp claim), please re-authenticate",
        "psql: error: connection to server at \"{{HOST}}\" ({{IP}}), port 5432 failed: FATAL:  password authentication failed for user \"{{USER}}\"",
        "remote: Invalid username or password.\nfatal: Authentication failed for 'https://github.com/{{ORG}}/{{SVC}}.git/'",
        "slack_sdk.errors.SlackApiError: The request to the Slack API failed.\nThe server responded with: {'ok': False, 'error': 'invalid_auth'}",
        "ERROR 1045 (28000): Access denied for user '{{USER}}'@'{{IP}}' (using password: YES)",
    ]), SK=P_SK_LIVE, T4=_rs(r, ALNUM, 4))  # fmt: skip


@_look("stack_trace")
def _l_stack(r: random.Random) -> str:
    return _fill(r, r.choice([
        "Traceback (most recent call last):\n  File \"/app/{{SVC}}/auth.py\", line {{N}}, in get_token\n    token = os.environ[\"{{V}}\"]\nKeyError: '{{V}}'",
        "java.lang.IllegalStateException: Missing property 'spring.datasource.password'\n\tat com.{{ORG}}.config.DbConfig.dataSource(DbConfig.java:{{N}})\n\tat org.springframework.beans.factory.support.SimpleInstantiationStrategy.instantiate(SimpleInstantiationStrategy.java:154)",
        "Error: Cannot find module './secrets.json'\nRequire stack:\n- /srv/{{SVC}}/dist/index.js\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1144:15)",
        "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x{{HX}}]\ngoroutine {{N}} [running]:\nmain.loadCredentials(...)",
    ]), V=_var(r), HX=_hex(r, 7))  # fmt: skip


# -------------------------------------------------------------------------------- password hashes


def _bcrypt(r: random.Random) -> str:
    return f"$2{r.choice('aby')}${r.choice(['10', '12', '11', '14'])}${_rs(r, CRYPT64, 53)}"


@_look("bcrypt_hash")
def _l_bcrypt(r: random.Random) -> str:
    return _fill(r, r.choice([
        "{{USER}}:{{B}}",
        "UPDATE users SET password_hash = '{{B}}' WHERE email = '{{EMAIL}}';",
        "INSERT INTO admin_users (email, password_digest) VALUES ('{{EMAIL}}', '{{B}}');",
        "basicAuth:\n  users:\n    - \"{{USER}}:{{B}}\"",
        "# hash of the new admin password (bcrypt, cost 12)\n{{B}}",
    ]), B=_bcrypt(r))  # fmt: skip


@_look("argon2_hash")
def _l_argon(r: random.Random) -> str:
    h = f"$argon2id$v=19$m={r.choice([65536, 19456, 47104])},t={r.randint(2, 4)},p={r.randint(1, 4)}${_b64(_rbytes(r, 16)).rstrip('=')}${_b64(_rbytes(r, 32)).rstrip('=')}"
    return _fill(r, r.choice([
        "password_hash: \"{{H1}}\"",
        "{{USER}}  {{H1}}  last_login={{DATE}}",
        "vaultwarden ADMIN_TOKEN is now stored hashed: ADMIN_TOKEN='{{H1}}'",
        "authelia users_database.yml:\n  {{USER}}:\n    displayname: \"{{PERSON}}\"\n    password: \"{{H1}}\"",
    ]), H1=h)  # fmt: skip


@_look("scrypt_pbkdf2_hash")
def _l_scrypt(r: random.Random) -> str:
    h = r.choice([
        f"$scrypt$ln=16,r=8,p=1${_b64(_rbytes(r, 16)).rstrip('=')}${_b64(_rbytes(r, 32)).rstrip('=')}",
        f"pbkdf2_sha256${r.choice([600000, 720000, 870000])}${_rs(r, ALNUM, 22)}${_b64(_rbytes(r, 32))}",
        f"scrypt:32768:8:1${_rs(r, ALNUM, 16)}${_hex(r, 128)}",
        f"{{PBKDF2-SHA256}}{r.choice([10000, 29000])}${_rs(r, CRYPT64, 22)}${_rs(r, CRYPT64, 43)}",
    ])  # fmt: skip
    return _fill(r, r.choice([
        "password = '{{H1}}'  -- hashed by the app, safe to keep in the fixture",
        "auth_user row for {{USER}}: {{H1}}",
        "userPassword: {{H1}}",
    ]), H1=h)  # fmt: skip


@_look("htpasswd_hash")
def _l_htpasswd(r: random.Random) -> str:
    lines = []
    for _ in range(r.randint(1, 3)):
        u = _handle(r).replace(".", "")
        lines.append(
            r.choice(
                [
                    f"{u}:$apr1${_rs(r, CRYPT64, 8)}${_rs(r, CRYPT64, 22)}",
                    f"{u}:{{SHA}}{_b64(_rbytes(r, 20))}",
                    f"{u}:{_bcrypt(r)}",
                ]
            )
        )
    body = "\n".join(lines)
    return _fill(r, r.choice([
        "$ cat /etc/nginx/.htpasswd\n{{B}}",
        "auth_basic \"staging\";\nauth_basic_user_file /etc/nginx/.htpasswd;\n# contents:\n# {{B1}}",
        "{{B}}",
        "traefik.http.middlewares.auth.basicauth.users={{B1}}",
    ]), B=body, B1=lines[0])  # fmt: skip


@_look("shadow_hash")
def _l_shadow(r: random.Random) -> str:
    u = _handle(r).replace(".", "")
    h = r.choice([f"$6$rounds=656000${_rs(r, CRYPT64, 16)}${_rs(r, CRYPT64, 86)}", f"$6${_rs(r, CRYPT64, 16)}${_rs(r, CRYPT64, 86)}",
                  f"$y$j9T${_rs(r, CRYPT64, 22)}${_rs(r, CRYPT64, 43)}", f"$5${_rs(r, CRYPT64, 16)}${_rs(r, CRYPT64, 43)}"])  # fmt: skip
    return _fill(r, r.choice([
        "{{U}}:{{H1}}:19{{N}}0:0:99999:7:::",
        "users:\n  - name: {{U}}\n    passwd: {{H1}}\n    lock_passwd: false",
        "- ansible.builtin.user:\n    name: {{U}}\n    password: '{{H1}}'",
    ]), U=u, H1=h)  # fmt: skip


@_look("scram_md5_pg_hash")
def _l_scram(r: random.Random) -> str:
    h = r.choice(
        [
            f"SCRAM-SHA-256$4096:{_b64(_rbytes(r, 16))}${_b64(_rbytes(r, 32))}:{_b64(_rbytes(r, 32))}",
            "md5" + _hex(r, 32),
        ]
    )
    return _fill(r, r.choice([
        "ALTER ROLE {{USER}} WITH LOGIN PASSWORD '{{H1}}';",
        "-- pg_dumpall --roles-only\nCREATE ROLE {{USER}};\nALTER ROLE {{USER}} WITH NOSUPERUSER INHERIT LOGIN PASSWORD '{{H1}}';",
        "userlist.txt for pgbouncer:\n\"{{USER}}\" \"{{H1}}\"",
    ]), H1=h)  # fmt: skip


@_look("mysql_native_hash")
def _l_mysqlhash(r: random.Random) -> str:
    h = "*" + _rs(r, "0123456789ABCDEF", 40)
    return _fill(r, r.choice([
        "CREATE USER '{{USER}}'@'%' IDENTIFIED WITH mysql_native_password AS '{{H1}}';",
        "mysql> SELECT user, authentication_string FROM mysql.user;\n| {{USER}} | {{H1}} |",
    ]), H1=h)  # fmt: skip


@_look("api_key_hash_stored")
def _l_keyhash(r: random.Random) -> str:
    return _fill(r, r.choice([
        "api_keys table stores sha256(key) only: key_hash={{HX}} prefix={{P}} owner={{USER}}",
        '{"event":"api_key.created","key_id":"{{KID}}","key_sha256":"{{HX}}","scopes":["read"]}',
        "token fingerprint (sha256): {{HX}}",
    ]), HX=_hex(r, 64), P=_rs(r, LOWNUM, 6), KID="key_" + _rs(r, ALNUM, 16))  # fmt: skip


# ------------------------------------------------------------------------------- digests and ids


@_look("sha256_checksums")
def _l_sha256(r: random.Random) -> str:
    files = r.sample(
        [
            "app-linux-amd64.tar.gz",
            "app-darwin-arm64.tar.gz",
            "app-windows-amd64.zip",
            "SHA256SUMS.sig",
            "app.deb",
            "app.rpm",
        ],
        3,
    )
    body = "\n".join(f"{_hex(r, 64)}  {f}" for f in files)
    return r.choice([f"$ sha256sum -c SHA256SUMS\n{body}", f"Checksums for v{_semver(r)}:\n{body}", body])


@_look("md5_sha1_digest")
def _l_md5(r: random.Random) -> str:
    return _fill(r, r.choice([
        "ETag: \"{{M}}\"",
        "md5sum backup-{{DATE}}.sql.gz\n{{M}}  backup-{{DATE}}.sql.gz",
        "x-amz-checksum-sha1: {{S1}}",
        "Content-MD5: {{B}}",
        "sha1 of the dump matches: {{S1}}",
    ]), M=_hex(r, 32), S1=_hex(r, 40), B=_b64(_rbytes(r, 16)))  # fmt: skip


@_look("commit_sha")
def _l_commit(r: random.Random) -> str:
    a, b = _hex(r, 40), _hex(r, 40)
    return _fill(r, r.choice([
        "reverted in {{A7}} (original change {{B7}})",
        "git bisect points at {{A}}",
        "Merge pull request #{{N}} from {{ORG}}/fix-{{WORD}}\n\ncommit {{A}}\nParent: {{B}}",
        "deployed {{SVC}}@{{A7}} to {{ENV}}",
        "git cherry-pick {{A}}",
        "https://github.com/{{ORG}}/{{SVC}}/commit/{{A}}",
    ]), A=a, B=b, A7=a[:7], B7=b[:r.choice([7, 8, 12])])  # fmt: skip


@_look("uuid_request_ids")
def _l_uuid(r: random.Random) -> str:
    return _fill(r, r.choice([
        '{"ts":"{{DATE}}T{{TIME}}:01.{{N}}Z","level":"warn","request_id":"{{UUID}}","user_id":"{{U2}}","msg":"slow query","ms":{{N}}{{N}}}',
        "X-Request-Id: {{UUID}}",
        "correlation id {{UUID}} shows up in both {{SVC}} and the gateway logs",
        "tenant_id={{UUID}} subscription_id={{U2}}",
        "level=error ts={{DATE}}T{{TIME}}:00Z caller=handler.go:{{N}} req={{UUID}} err=\"context deadline exceeded\"",
    ]), U2=_uuid(r))  # fmt: skip


@_look("trace_ids")
def _l_trace(r: random.Random) -> str:
    return _fill(r, r.choice([
        "traceparent: 00-{{T}}-{{S}}-01",
        "trace_id={{T}} span_id={{S}} service={{SVC}} duration_ms={{N}}",
        "X-Amzn-Trace-Id: Root=1-{{E}}-{{X24}};Parent={{S}};Sampled=1",
        "see Datadog trace {{D}} for the slow span",
    ]), T=_hex(r, 32), S=_hex(r, 16), E=format(r.randint(1_690_000_000, 1_740_000_000), "x"), X24=_hex(r, 24), D=str(r.getrandbits(63)))  # fmt: skip


@_look("ticket_numbers")
def _l_tickets(r: random.Random) -> str:
    return _fill(r, r.choice([
        "Related: {{TICKET}}, {{T2}}, ENG-{{N}}{{N}}, #{{NN}}",
        "Zendesk #{{NN}} → escalated to {{TICKET}}",
        "Fixes {{ORG}}/{{SVC}}#{{NN}}",
        "INC{{NN}}0 (ServiceNow) / CHG00{{NN}}",
    ]), T2=_ticket(r), NN=str(r.randint(1000, 99999)))  # fmt: skip


@_look("order_tracking_numbers")
def _l_orders(r: random.Random) -> str:
    return _fill(r, r.choice([
        "Order #{{O}} shipped via UPS 1Z{{UPS}}",
        "customer says order {{O}} never arrived; FedEx tracking {{FX}}",
        "refund issued for invoice INV-{{Y}}-{{N5}} (order {{O}})",
        "DHL waybill {{DHL}}, PO {{PO}}",
    ]), O=str(r.randint(10**6, 10**9)), UPS=_rs(r, UPNUM, 16), FX=str(r.randint(10**11, 10**12 - 1)), Y=str(r.randint(2023, 2025)),
        N5=f"{r.randint(1, 99999):05d}", DHL=str(r.randint(10**9, 10**10 - 1)), PO="PO-" + _rs(r, UPNUM, 8))  # fmt: skip


@_look("test_card_numbers")
def _l_cards(r: random.Random) -> str:
    card = r.choice(
        [
            "4242 4242 4242 4242",
            "4000 0566 5566 5556",
            "5555 5555 5555 4444",
            "4000 0000 0000 9995",
            "3782 822463 10005",
            "4000 0025 0000 3155",
        ]
    )
    return _fill(r, r.choice([
        "Stripe test card for QA: {{C}}, any future expiry, any CVC",
        "| Scenario | Test card |\n|---|---|\n| success | 4242 4242 4242 4242 |\n| declined | {{C}} |",
        "repro in test mode with {{C}} exp 12/34 cvc 123",
    ]), C=card)  # fmt: skip


@_look("test_iban_bank")
def _l_iban(r: random.Random) -> str:
    return r.choice([
        "Test IBAN from the Stripe docs: DE89370400440532013000 (always succeeds in test mode)",
        "SEPA sandbox: use IBAN GB82WEST12345698765432 (example from the ECBS spec)",
        "Example IBAN for the form validation tests: FR1420041010050500013M02606",
        "routing 110000000 / account 000123456789 are Stripe's test bank numbers",
    ])  # fmt: skip


@_look("ssh_public_key")
def _l_sshpub(r: random.Random) -> str:
    if r.random() < 0.6:
        key = f"{P_SSH_ED} {_b64(_sshstr(P_SSH_ED.encode()) + _sshstr(_rbytes(r, 32)))}"
    else:
        blob = _sshstr(P_SSH_RSA.encode()) + _sshstr(bytes([1, 0, 1])) + _sshstr(bytes([0]) + _rbytes(r, 256))
        key = f"{P_SSH_RSA} {_b64(blob)}"
    key += f" {_handle(r)}@{r.choice(['laptop', 'mbp', 'ci', 'bastion'])}"
    return r.choice([
        f"authorized_keys entry for the new hire:\n{key}",
        f"users:\n  - name: deploy\n    ssh_authorized_keys:\n      - {key}",
        f"$ cat ~/.ssh/id_ed25519.pub\n{key}",
        key,
    ])  # fmt: skip


@_look("pem_certificate")
def _l_cert(r: random.Random) -> str:
    cert = _armour("CERTIFICATE", "MIID" + _rs(r, B64, r.randint(1100, 1500)) + "=")
    return r.choice(
        [
            cert,
            f"ca.crt:\n{cert}",
            f"-----\nsubject=CN = *.{_domain(r)}\nissuer=C = US, O = Let's Encrypt, CN = R11\n{cert}",
        ]
    )


@_look("pem_public_key")
def _l_pubkey(r: random.Random) -> str:
    key = _armour("PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + _rs(r, B64, 348) + "IDAQAB")
    return r.choice([key, f"JWT verification key (public) for {r.choice(SVCS)}:\n{key}", f"jwks fallback:\n{key}"])


@_look("ssh_host_fingerprint")
def _l_fp(r: random.Random) -> str:
    fp = "SHA256:" + _b64(_rbytes(r, 32)).rstrip("=")
    return _fill(r, r.choice([
        "The authenticity of host '{{HOST}} ({{IP}})' can't be established.\nED25519 key fingerprint is {{FP}}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?",
        "GitHub's published fingerprint: {{FP}} (ECDSA)",
        "256 {{FP}} root@{{HOST}} (ED25519)",
        "{{HOST}} ssh-ed25519 host key changed, new fingerprint {{FP}} — expected after rebuild",
    ]), FP=fp)  # fmt: skip


@_look("gpg_age_fingerprint")
def _l_gpg(r: random.Random) -> str:
    return _fill(r, r.choice([
        "pub   ed25519 {{DATE}} [SC]\n      {{F}}\nuid           [ultimate] {{PERSON}} <{{EMAIL}}>",
        "signed releases with key {{F}}",
        "age recipient (public): age1{{AGE}}",
        ".sops.yaml:\ncreation_rules:\n  - path_regex: secrets/{{ENV}}/.*\n    age: age1{{AGE}}",
    ]), F=_rs(r, "0123456789ABCDEF", 40), AGE=_rs(r, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58))  # fmt: skip


@_look("wireguard_public_key")
def _l_wgpub(r: random.Random) -> str:
    return _fill(r, r.choice([
        "[Peer]\n# {{PERSON}}\nPublicKey = {{P}}\nAllowedIPs = 10.{{N}}.0.{{N}}/32",
        "peer: {{P}}\n  endpoint: {{IP}}:51820\n  latest handshake: 1 minute, {{N}} seconds ago",
        "add my laptop's wg pubkey pls: {{P}}",
    ]), P=_b64(_rbytes(r, 32)))  # fmt: skip


@_look("stripe_publishable_key")
def _l_pk(r: random.Random) -> str:
    pk = P_PK_LIVE + _rs(r, ALNUM, 99)
    return _fill(r, r.choice([
        "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={{PK}}",
        "const stripe = Stripe('{{PK}}');",
        "<script>window.STRIPE_PK = \"{{PK}}\"</script>",
    ]), PK=pk)  # fmt: skip


@_look("oauth_client_ids")
def _l_clientid(r: random.Random) -> str:
    return _fill(r, r.choice([
        "GOOGLE_CLIENT_ID={{G}}.apps.googleusercontent.com",
        "AUTH0_CLIENT_ID={{A}}",
        "okta client id: 0oa{{O}}",
        "AZURE_CLIENT_ID={{UUID}}\nAZURE_TENANT_ID={{U2}}",
        "GITHUB_APP_ID={{N}}{{N}}{{N}}\nGITHUB_CLIENT_ID=Iv1.{{HX}}",
    ]), G=str(r.randint(10**11, 10**12)) + "-" + _rs(r, LOWNUM, 32), A=_rs(r, ALNUM, 32), O=_rs(r, ALNUM, 17), U2=_uuid(r), HX=_hex(r, 16))  # fmt: skip


@_look("aws_arns_account_ids")
def _l_arn(r: random.Random) -> str:
    acct = str(r.randint(10**11, 10**12 - 1))
    return _fill(r, r.choice([
        "arn:aws:iam::{{A}}:role/{{SVC}}-task-role",
        "arn:aws:kms:{{REGION}}:{{A}}:key/{{UUID}}",
        "arn:aws:lambda:{{REGION}}:{{A}}:function:{{SVC}}-handler:{{N}}",
        "account {{A}} ({{ENV}}), role OrganizationAccountAccessRole",
        "arn:aws:s3:::{{ORG}}-{{ENV}}-artifacts/*",
        "{{A}}.dkr.ecr.{{REGION}}.amazonaws.com/{{SVC}}:{{VER}}",
    ]), A=acct)  # fmt: skip


@_look("azure_gcp_resource_ids")
def _l_azres(r: random.Random) -> str:
    return _fill(r, r.choice([
        "/subscriptions/{{UUID}}/resourceGroups/rg-{{SVC}}-{{ENV}}/providers/Microsoft.Web/sites/app-{{SVC}}",
        "projects/{{ORG}}-{{ENV}}/locations/europe-west1/services/{{SVC}}",
        "{{SVC}}@{{ORG}}-{{ENV}}.iam.gserviceaccount.com (uniqueId {{NUM}})",
        "ocid1.instance.oc1.eu-frankfurt-1.{{OCID}}",
        "i-{{HX17}} (sg-{{HX8}}, subnet-{{HX8}})",
    ]), NUM=str(r.randint(10**20, 10**21 - 1)), OCID=_rs(r, LOWNUM, 60), HX17=_hex(r, 17), HX8=_hex(r, 8))  # fmt: skip


@_look("twilio_sids")
def _l_twsid(r: random.Random) -> str:
    return _fill(r, r.choice([
        "TWILIO_ACCOUNT_SID=AC{{H1}}\nTWILIO_AUTH_TOKEN=  # set in vault",
        "message SM{{H1}} failed with 30007 (carrier filtering)",
        "messaging service MG{{H1}}, phone number PN{{H2}}",
    ]), H1=_hex(r, 32), H2=_hex(r, 32))  # fmt: skip


@_look("stripe_object_ids")
def _l_stripeobj(r: random.Random) -> str:
    return _fill(r, r.choice([
        "refund for ch_{{A}} on customer cus_{{B}}",
        "webhook evt_{{A}} (payment_intent.succeeded) for pi_{{A}} retried 3 times",
        "subscription sub_{{A}} stuck in incomplete, price price_{{A}}",
        "payout po_{{A}} failed: account_closed",
    ]), A=_rs(r, ALNUM, 24), B=_rs(r, ALNUM, 14))  # fmt: skip


@_look("slack_discord_ids")
def _l_slackids(r: random.Random) -> str:
    return _fill(r, r.choice([
        "channel C{{C}} (#{{TEAM}}-alerts), user U{{U}}, team T{{T}}",
        "https://{{ORG}}.slack.com/archives/C{{C}}/p{{TS}}",
        "discord channel id {{D}} / guild {{D2}}",
        "slack app id A{{C}}, bot user U{{U}}",
    ]), C=_rs(r, UPNUM, 10), U=_rs(r, UPNUM, 10), T=_rs(r, UPNUM, 9), TS=str(r.randint(10**15, 10**16)), D=str(r.randint(10**17, 10**18)), D2=str(r.randint(10**17, 10**18)))  # fmt: skip


@_look("sentry_dsn_public")
def _l_dsn(r: random.Random) -> str:
    dsn = f"https://{_hex(r, 32)}@o{r.randint(10**5, 10**7)}.ingest.{r.choice(['', 'us.', 'de.'])}sentry.io/{r.randint(10**6, 10**16)}"
    return r.choice(
        [
            f"NEXT_PUBLIC_SENTRY_DSN={dsn}",
            f'Sentry.init({{ dsn: "{dsn}", tracesSampleRate: 0.1 }});',
            f"sentry:\n  dsn: {dsn}  # public DSN, safe in the browser bundle",
        ]
    )


@_look("supabase_anon_key")
def _l_anon(r: random.Random) -> str:
    ref = _rs(r, LOWER, 20)
    iat = r.randint(1_690_000_000, 1_740_000_000)
    k = _jwt(r, {"iss": "supabase", "ref": ref, "role": "anon", "iat": iat, "exp": iat + 315_360_000})
    return f"NEXT_PUBLIC_SUPABASE_URL=https://{ref}.supabase.co\nNEXT_PUBLIC_SUPABASE_ANON_KEY={k}"


@_look("analytics_public_keys")
def _l_analytics(r: random.Random) -> str:
    return _fill(r, r.choice([
        "mixpanel.init('{{H}}', {debug: false, track_pageview: true});",
        "amplitude.init('{{H}}', { defaultTracking: true });",
        "<script>!function(){var analytics=window.analytics=[];analytics.load(\"{{W}}\");analytics.page();}();</script>",
        "const search = algoliasearch('{{APP}}', '{{H}}'); // search-only key, safe for the frontend",
        "posthog.init('phc_{{PH}}', { api_host: 'https://eu.i.posthog.com' })",
        "gtag('config', 'G-{{GA}}');",
    ]), H=_hex(r, 32), W=_rs(r, ALNUM, 32), APP=_rs(r, UPNUM, 10), PH=_rs(r, ALNUM, 43), GA=_rs(r, UPNUM, 10))  # fmt: skip


@_look("api_key_metadata")
def _l_keymeta(r: random.Random) -> str:
    return _fill(r, r.choice([
        '{"result":{"id":"{{H}}","status":"active","not_before":"{{DATE}}T00:00:00Z"},"success":true,"errors":[],"messages":[{"code":10000,"message":"This API Token is valid and active"}]}',
        "Access key last used: {{DATE}} in {{REGION}} by s3 (key id ends ...{{T}})",
        "token name: {{SVC}}-ci | scopes: read_repository | expires: {{DATE}} | last used: never",
        "Datadog key \"{{SVC}}-{{ENV}}\" (id {{UUID}}) created by {{EMAIL}}",
    ]), H=_hex(r, 32), T=_rs(r, UPNUM, 4))  # fmt: skip


@_look("webhook_signature_header")
def _l_sig(r: random.Random) -> str:
    return _fill(r, r.choice([
        "X-Hub-Signature-256: sha256={{H64}}\nX-GitHub-Delivery: {{UUID}}\nX-GitHub-Event: push",
        "Stripe-Signature: t={{TS}},v1={{H64}}",
        "webhook verification failed: expected sig {{H64}}, got {{H64B}}",
        "X-Slack-Signature: v0={{H64}}\nX-Slack-Request-Timestamp: {{TS}}",
        "svix-id: msg_{{MID}}\nsvix-timestamp: {{TS}}\nsvix-signature: v1,{{B64S}}",
    ]), H64=_hex(r, 64), H64B=_hex(r, 64), TS=str(r.randint(1_700_000_000, 1_740_000_000)), MID=_rs(r, ALNUM, 27), B64S=_b64(_rbytes(r, 32)))  # fmt: skip


@_look("aws_vendor_doc_example")
def _l_awsdoc(r: random.Random) -> str:
    kid = P_AKIA + "IOSFODNN7" + "EXAMPLE"
    sec = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKEY"
    return r.choice([
        f"From the AWS docs (example values, not real):\naws_access_key_id = {kid}\naws_secret_access_key = {sec}",
        f"The CLI guide uses {kid} / {sec} as the example pair; replace them with your own.",
        f"# example from docs.aws.amazon.com\nexport AWS_ACCESS_KEY_ID={kid}\nexport AWS_SECRET_ACCESS_KEY={sec}",
    ])  # fmt: skip


@_look("vendor_doc_example_other")
def _l_vendordoc(r: random.Random) -> str:
    return r.choice([
        "Twilio docs use ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX and your_auth_token as examples.",
        "GitHub docs example: Authorization: Bearer YOUR-TOKEN",
        f"Slack docs example webhook: {HOOKS_SLACK}T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "Example from the OpenAPI spec: `X-API-Key: abcdef12345` (documentation value, rejected by prod)",
        "Okta docs: Authorization: SSWS ${api_token}",
        "Mailgun quickstart: curl -s --user 'api:YOUR_API_KEY' https://api.mailgun.net/v3/YOUR_DOMAIN_NAME/messages",
    ])  # fmt: skip


# ------------------------------------------------------------------------ random-looking non-secrets


@_look("base64_nonsecret")
def _l_b64(r: random.Random) -> str:
    cfg = {
        "theme": r.choice(COLORS),
        "locale": r.choice(["en-US", "de-DE", "fr-FR"]),
        "beta": r.random() < 0.5,
        "svc": r.choice(SVCS),
    }
    enc = _b64(json.dumps(cfg).encode())
    return _fill(r, r.choice([
        "pubsub message data: {{E}}  (decodes to the feature prefs JSON)",
        "<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{{IMG}}\" alt=\"logo\">",
        "binaryData:\n  favicon.ico: AAABAAEAEBAAAAEAIABoBAAAFgAAACgAAAAQ{{IMG}}",
        "state param = {{E}} (base64 of the redirect info, not signed)",
        "kinesis record Data: {{E}}",
    ]), E=enc, IMG=_rs(r, B64, r.randint(60, 160)))  # fmt: skip


@_look("css_js_asset_hashes")
def _l_assets(r: random.Random) -> str:
    return _fill(r, r.choice([
        '<link rel="stylesheet" href="/static/css/main.{{H8}}.css">\n<script src="/static/js/vendor.{{H8B}}.js" defer></script>',
        "dist/assets/index-{{V8}}.js   {{N}}{{N}}.41 kB │ gzip: {{N}}.12 kB",
        ".css-{{C6}} { color: #{{COL}}; }",
        "chunk {{N}} (main) main.{{H20}}.js (main) {{N}}4 kB [initial] [rendered]",
    ]), H8=_hex(r, 8), H8B=_hex(r, 8), V8=_rs(r, B64URL, 8), C6=_rs(r, LOWNUM, 6), COL=_hex(r, 6), H20=_hex(r, 20))  # fmt: skip


@_look("cache_bust_urls")
def _l_cachebust(r: random.Random) -> str:
    return _fill(r, r.choice([
        "https://cdn.{{DOMAIN}}/app.js?v={{H}}",
        "<script src=\"/assets/app.js?ver={{VER}}&cb={{T}}\"></script>",
        "https://{{DOMAIN}}/og-image.png?t={{TS}}",
        "purged https://cdn.{{DOMAIN}}/build/{{H}}/bundle.js from the CDN",
    ]), H=_hex(r, r.choice([8, 10, 12, 20])), T=_rs(r, LOWNUM, 10), TS=str(r.randint(1_700_000_000_000, 1_740_000_000_000)))  # fmt: skip


@_look("short_links")
def _l_short(r: random.Random) -> str:
    return _fill(r, r.choice([
        "slides: https://bit.ly/{{S7}}",
        "recording: https://youtu.be/{{YT}}",
        "doc: https://docs.google.com/document/d/{{GD}}/edit",
        "https://go.{{DOMAIN}}/{{WORD}}-runbook",
        "figma: https://www.figma.com/file/{{FG}}/{{WORD}}-redesign",
        "loom: https://www.loom.com/share/{{H32}}",
    ]), S7=_rs(r, ALNUM, 7), YT=_rs(r, B64URL, 11), GD="1" + _rs(r, B64URL, 43), FG=_rs(r, ALNUM, 22), H32=_hex(r, 32))  # fmt: skip


@_look("color_codes")
def _l_colors(r: random.Random) -> str:
    cs = [_hex(r, 6) for _ in range(4)]
    return r.choice([
        ":root {\n  --brand: #" + cs[0] + ";\n  --brand-dark: #" + cs[1] + ";\n  --accent: #" + cs[2] + ";\n}",
        f"design tokens: primary #{cs[0].upper()}, surface #{cs[1]}, border rgba(0,0,0,.12)",
        f"theme: {{ colors: {{ primary: '#{cs[0]}', secondary: '#{cs[1]}' }} }}",
    ])  # fmt: skip


@_look("build_ids")
def _l_builds(r: random.Random) -> str:
    return _fill(r, r.choice([
        "CI run https://github.com/{{ORG}}/{{SVC}}/actions/runs/{{RUN}}/job/{{JOB}} failed on lint",
        "Build #{{N}}{{N}} (buildkite) — {{SVC}} — {{UUID}}",
        "codebuild id {{SVC}}-build:{{UUID}}",
        "image tag sha-{{H7}} / build {{BID}}",
        "Vercel deployment dpl_{{V}} ready: https://{{SVC}}-{{V9}}-{{ORG}}.vercel.app",
    ]), RUN=str(r.randint(10**9, 10**10)), JOB=str(r.randint(10**10, 10**11)), H7=_hex(r, 7), BID=_rs(r, LOWNUM, 20), V=_rs(r, ALNUM, 28), V9=_rs(r, LOWNUM, 9))  # fmt: skip


@_look("feature_flag_keys")
def _l_flags(r: random.Random) -> str:
    return _fill(r, r.choice([
        "flag `{{WORD}}-checkout-v{{N}}` is at 25% in {{ENV}}",
        '{"key": "enable-{{WORD}}-{{SVC}}", "on": true, "variations": [true, false], "salt": "{{H}}"}',
        "LaunchDarkly env key: {{ENV}}, flag: release-{{WORD}}-{{N}}, client-side id {{CSID}}",
        "unleash toggle {{SVC}}.{{WORD}}_rollout strategy=gradualRollout stickiness=userId",
    ]), H=_hex(r, 32), CSID=_hex(r, 24))  # fmt: skip


@_look("docker_container_ids")
def _l_docker_ps(r: random.Random) -> str:
    rows = []
    for _ in range(r.randint(2, 4)):
        svc = r.choice(SVCS)
        rows.append(
            f'{_hex(r, 12)}   {r.choice(["ghcr.io/", ""])}{r.choice(ORGS)}/{svc}:{_semver(r)}   "/entrypoint.sh"   {r.randint(2, 59)} minutes ago   Up {r.randint(2, 59)} minutes   {svc}-1'
        )
    return r.choice([
        "$ docker ps\nCONTAINER ID   IMAGE   COMMAND   CREATED   STATUS   NAMES\n" + "\n".join(rows),
        f"docker logs -f {_hex(r, 64)}",
        f"container {_hex(r, 12)} exited with code 137 (OOMKilled)",
    ])  # fmt: skip


def _podname(r: random.Random) -> str:
    return f"{r.choice(SVCS)}-{_rs(r, K8S_ALPHA, r.choice([9, 10]))}-{_rs(r, K8S_ALPHA, 5)}"


@_look("k8s_pod_names")
def _l_pods(r: random.Random) -> str:
    rows = "\n".join(
        f"{_podname(r)}   {r.choice(['1/1', '2/2', '0/1'])}   {r.choice(['Running', 'CrashLoopBackOff', 'Pending'])}   {r.randint(0, 9)}   {r.randint(1, 40)}h"
        for _ in range(r.randint(2, 4))
    )
    return r.choice([
        f"$ kubectl get pods -n {r.choice(ENVS)}\nNAME   READY   STATUS   RESTARTS   AGE\n{rows}",
        f"kubectl logs {_podname(r)} -c app --previous",
        f"pod {_podname(r)} evicted: node ip-10-0-{r.randint(0, 255)}-{r.randint(1, 254)}.ec2.internal had disk pressure",
    ])  # fmt: skip


@_look("image_digests")
def _l_digest(r: random.Random) -> str:
    d = "sha256:" + _hex(r, 64)
    return _fill(r, r.choice([
        "image: ghcr.io/{{ORG}}/{{SVC}}@{{D}}",
        "FROM python:3.12-slim@{{D}}",
        "{{VER}}: digest: {{D}} size: {{N}}{{N}}",
        "cosign verify {{ORG}}/{{SVC}}@{{D}} --certificate-identity-regexp '.*'",
    ]), D=d)  # fmt: skip


@_look("lockfile_integrity")
def _l_integrity(r: random.Random) -> str:
    pkg = r.choice(["lodash", "react-dom", "zod", "axios", "esbuild", "tslib", "semver"])
    return _fill(r, r.choice([
        '"node_modules/{{P}}": {\n  "version": "{{VER}}",\n  "resolved": "https://registry.npmjs.org/{{P}}/-/{{P}}-{{VER}}.tgz",\n  "integrity": "sha512-{{I}}"\n}',
        "github.com/{{ORG}}/{{P}} v{{VER}} h1:{{G}}=\ngithub.com/{{ORG}}/{{P}} v{{VER}}/go.mod h1:{{G2}}=",
        "{{P}}=={{VER}} \\\n    --hash=sha256:{{H}}",
        '[[package]]\nname = "{{P}}"\nversion = "{{VER}}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{{H}}"',
        '<script src="https://cdn.jsdelivr.net/npm/{{P}}@{{VER}}/dist/{{P}}.min.js" integrity="sha384-{{S384}}" crossorigin="anonymous"></script>',
    ]), P=pkg, I=_b64(_rbytes(r, 64)), G=_b64(_rbytes(r, 32))[:43], G2=_b64(_rbytes(r, 32))[:43], H=_hex(r, 64), S384=_b64(_rbytes(r, 48)))  # fmt: skip


@_look("ulid_snowflake_ids")
def _l_ulid(r: random.Random) -> str:
    return _fill(r, r.choice([
        "event 01{{U}} was processed twice",
        "tweet id {{SF}} / discord message {{SF2}}",
        "nanoid for the share link: {{NANO}}",
        "cuid2 {{CUID}} belongs to workspace ws_{{NANO}}",
    ]), U=_rs(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24), SF=str(r.randint(10**18, 2 * 10**18)), SF2=str(r.randint(10**18, 2 * 10**18)),
        NANO=_rs(r, B64URL, 21), CUID=_rs(r, LOWER, 1) + _rs(r, LOWNUM, 23))  # fmt: skip


@_look("git_lfs_pointer")
def _l_lfs(r: random.Random) -> str:
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(r, 64)}\nsize {r.randint(1000, 10**9)}"


@_look("logs_json_logfmt")
def _l_logs(r: random.Random) -> str:
    return _fill(r, r.choice([
        '{"ts":"{{DATE}}T{{TIME}}:22.{{N}}Z","level":"info","svc":"{{SVC}}","msg":"token refreshed","user_id":"usr_{{A}}","expires_in":3600}',
        "ts={{DATE}}T{{TIME}}:00Z level=info msg=\"auth ok\" user={{USER}} method=oidc session_id_hash={{H}} dur=12ms",
        '{"level":"warn","msg":"api key rejected","key_prefix":"{{P}}","reason":"revoked","ip":"{{IP}}"}',
        "{{DATE}} {{TIME}}:07,{{N}} INFO  [{{SVC}}] Loaded 14 secrets from Vault path secret/{{ENV}}/{{SVC}} (values not logged)",
        '{"@timestamp":"{{DATE}}T{{TIME}}:00Z","event.action":"user-login","user.name":"{{USER}}","event.outcome":"success","source.ip":"{{IP}}","mfa":"totp"}',
    ]), A=_rs(r, ALNUM, 12), H=_hex(r, 16), P=_rs(r, LOWER, 3) + "_")  # fmt: skip


@_look("cookies_nonsession")
def _l_cookies(r: random.Random) -> str:
    dom = _domain(r)
    exp = r.randint(1_730_000_000, 1_790_000_000)
    rows = [
        f".{dom}\tTRUE\t/\tFALSE\t{exp}\t_ga\tGA1.2.{r.randint(10**8, 10**10)}.{r.randint(1_700_000_000, 1_730_000_000)}",
        f".{dom}\tTRUE\t/\tFALSE\t{exp}\t_gid\tGA1.2.{r.randint(10**8, 10**10)}.{r.randint(1_700_000_000, 1_730_000_000)}",
        f"{dom}\tFALSE\t/\tFALSE\t{exp}\tcookieconsent_status\tdismiss",
        f"{dom}\tFALSE\t/\tFALSE\t{exp}\ttheme\t{r.choice(['dark', 'light'])}",
        f".{dom}\tTRUE\t/\tFALSE\t{exp}\tajs_anonymous_id\t{_uuid(r)}",
        f"{dom}\tFALSE\t/\tFALSE\t{exp}\tlocale\t{r.choice(['en', 'de', 'fr'])}",
    ]
    return "# Netscape HTTP Cookie File\n" + "\n".join(r.sample(rows, r.randint(2, 4)))


@_look("password_csv_no_secret")
def _l_pwcsv(r: random.Random) -> str:
    rows = "\n".join(
        f"{r.choice(['Okta', 'Google Workspace', 'GitHub', 'Atlassian'])},https://{_domain(r)}/,{_email(r)},,SSO only"
        for _ in range(r.randint(1, 3))
    )
    return r.choice(
        [
            f"name,url,username,password,note\n{rows}",
            "name,url,username,password,note",
            f"export from Chrome had {r.randint(3, 400)} rows; all rotated, file shredded",
        ]
    )


@_look("postman_variables")
def _l_postman(r: random.Random) -> str:
    return _fill(r, r.choice([
        '{"auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{apiToken}}", "type": "string"}]}}',
        '{"_type": "environment", "name": "{{ENV}}", "data": {"base_url": "https://api.{{DOMAIN}}", "api_key": "{{ _.api_key }}"}}',
        '{"key": "x-api-key", "value": "{{api_key}}", "enabled": true, "description": "set in your local environment"}',
        "pm.environment.set(\"token\", pm.response.json().access_token);",
    ]))  # fmt: skip


@_look("openapi_examples")
def _l_openapi(r: random.Random) -> str:
    return _fill(r, r.choice([
        "components:\n  securitySchemes:\n    bearerAuth:\n      type: http\n      scheme: bearer\n      bearerFormat: JWT",
        "parameters:\n  - in: header\n    name: X-API-Key\n    required: true\n    schema:\n      type: string\n    example: YOUR_API_KEY",
        "responses:\n  '200':\n    content:\n      application/json:\n        example:\n          id: ord_{{A}}\n          status: paid\n          request_id: {{UUID}}",
    ]), A=_rs(r, ALNUM, 14))  # fmt: skip


@_look("ssh_config_no_key")
def _l_sshcfg(r: random.Random) -> str:
    return _fill(
        r,
        "Host {{SVC}}-{{ENV}}\n  HostName {{IP}}\n  User {{USER}}\n  Port 22\n  ProxyJump bastion.{{DOMAIN}}\n  IdentityFile ~/.ssh/{{ORG}}_ed25519\n  ForwardAgent no",
    )


@_look("vpn_config_refs")
def _l_vpncfg(r: random.Random) -> str:
    return _fill(r, r.choice([
        "client\ndev tun\nproto udp\nremote vpn.{{DOMAIN}} 1194\nca ca.crt\ncert {{USER}}.crt\nkey {{USER}}.key\ntls-auth ta.key 1\ncipher AES-256-GCM",
        "conn {{REGION}}\n  authby=pubkey\n  leftcert={{HOST}}.pem\n  rightid=@vpn.{{DOMAIN}}\n  ike=aes256-sha2_256-modp2048",
        "[Interface]\nPrivateKey = # generated on the device, never leaves it\nAddress = 10.{{N}}.0.2/32",
        "PSK is stored in the firewall config backup (encrypted); ask #{{TEAM}} to re-key the {{REGION}} tunnel",
    ]))  # fmt: skip


@_look("web_server_auth_config")
def _l_webauth(r: random.Random) -> str:
    return _fill(r, r.choice([
        "location /admin {\n  auth_basic \"Restricted\";\n  auth_basic_user_file /etc/nginx/htpasswd/admin;\n  allow {{IP}};\n  deny all;\n}",
        "<Directory /var/www/{{SVC}}>\n  AuthType Basic\n  AuthName \"staging\"\n  AuthUserFile /etc/apache2/.htpasswd\n  Require valid-user\n</Directory>",
        "userlist ops\n  user {{USER}} password {{B}}",
        "frontend stats\n  bind *:8404\n  stats enable\n  stats uri /stats\n  stats auth admin:${HAPROXY_STATS_PASS}",
    ]), B=f"$6${_rs(r, CRYPT64, 16)}${_rs(r, CRYPT64, 86)}")  # fmt: skip


@_look("systemd_cron_make")
def _l_sysd(r: random.Random) -> str:
    return _fill(r, r.choice([
        "[Unit]\nDescription={{SVC}}\nAfter=network-online.target\n\n[Service]\nEnvironment=RUST_LOG=info\nEnvironment=PORT={{PORT}}\nEnvironmentFile=/etc/{{SVC}}/env\nExecStart=/usr/local/bin/{{SVC}}\nRestart=on-failure",
        "*/5 * * * * /opt/{{SVC}}/bin/healthcheck --url https://{{DOMAIN}}/healthz >> /var/log/{{SVC}}-hc.log 2>&1",
        "deploy:\n\taws ecs update-service --cluster {{ENV}} --service {{SVC}} --force-new-deployment --profile $(AWS_PROFILE)",
        "30 2 * * 0 root /usr/local/bin/rotate-logs.sh --keep {{N}}",
    ]))  # fmt: skip


@_look("powershell_no_secret")
def _l_ps(r: random.Random) -> str:
    return _fill(r, r.choice([
        "$cred = Get-Credential -UserName '{{ORG}}\\{{USER}}' -Message 'Enter your password'",
        "$pw = Read-Host -AsSecureString -Prompt 'Password'\nNew-LocalUser -Name svc_{{DB}} -Password $pw",
        "$secret = Get-Secret -Name {{SVC}}-api -Vault AzKV -AsPlainText:$false",
        "@echo off\nset /p PASS=Enter password: \nnet use Z: \\\\fs01\\shared /user:{{ORG}}\\%USERNAME% %PASS%",
    ]))  # fmt: skip


@_look("sql_no_password")
def _l_sql(r: random.Random) -> str:
    return _fill(r, r.choice([
        "CREATE ROLE {{USER}}_ro NOLOGIN;\nGRANT USAGE ON SCHEMA public TO {{USER}}_ro;\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO {{USER}}_ro;",
        "-- password is set out-of-band by the provisioning job\nCREATE USER {{USER}} WITH LOGIN IN ROLE app_rw;",
        "ALTER TABLE users ADD COLUMN password_hash text NOT NULL DEFAULT '';\nALTER TABLE users DROP COLUMN password;",
        "CREATE USER '{{USER}}'@'%' IDENTIFIED WITH AWSAuthenticationPlugin AS 'RDS';",
        "UPDATE api_tokens SET revoked_at = now() WHERE created_at < '{{DATE}}';  -- {{N}} rows",
        "CREATE USER {{USER}} WITH PASSWORD :'app_password';  -- psql var from -v app_password=...",
    ]))  # fmt: skip


@_look("mfa_recovery_notes")
def _l_mfa(r: random.Random) -> str:
    return _fill(r, r.choice([
        "TOTP enrolled for @{{H}} on the AWS root account; seed only in the hardware key, recovery codes printed and in the safe.",
        "GitHub recovery codes regenerated on {{DATE}} and stored in 1Password (item 'gh-{{ORG}}-admin'); old codes invalid.",
        "otpauth URI was shown once in the setup wizard — we scanned it, did not save it.",
        "MFA reset ticket {{TICKET}}: identity verified via video call, new device enrolled.",
        "Your verification code has expired. Request a new one from the login page.",
    ]))  # fmt: skip


@_look("rotation_release_notes")
def _l_rotation(r: random.Random) -> str:
    return _fill(r, r.choice([
        "## v{{VER}}\n- Rotated the Stripe restricted key used by {{SVC}} (old key revoked)\n- Moved SendGrid key to SSM",
        "Security: all GitHub PATs older than 90 days were revoked on {{DATE}}; use fine-grained tokens from now on.",
        "Changelog: `{{SVC}}` no longer reads DB_PASSWORD from the environment; it uses IAM auth.",
        "Action item done: {{TICKET}} — rotated the leaked Slack webhook and updated Alertmanager.",
    ]))  # fmt: skip


@_look("plain_team_notes")
def _l_plain(r: random.Random) -> str:
    return _fill(r, r.choice([
        "Standup: @{{H}} finishing the {{SVC}} migration, @{{H2}} on-call, {{TICKET}} blocked on legal review.",
        "Retro: alert fatigue on {{SVC}}; we'll raise the p99 threshold to 800ms and add a burn-rate alert.",
        "Handover: {{HOST}} rebooted at {{TIME}} UTC after kernel patch, all pods rescheduled fine.",
        "Decision record: use Postgres logical replication for the {{DB}} split; cutover on {{DATE}}.",
        "Postmortem action: add a canary stage to the {{SVC}} deploy pipeline before {{ENV}}.",
        "Onboarding: request access to #{{TEAM}}-oncall, PagerDuty schedule '{{TEAM}}-primary', and the Grafana folder.",
    ]))  # fmt: skip


@_look("versions_hosts_net")
def _l_net(r: random.Random) -> str:
    mac = ":".join(_hex(r, 2) for _ in range(6))
    return _fill(r, r.choice([
        "{{HOST}} ({{IP}}) mac {{MAC}} kernel 6.{{N}}.0-{{N}}-generic",
        "upgraded {{SVC}} from {{VER}} to {{V2}}; node 20.{{N}}.1, postgres 16.{{N}}",
        "ip -6 addr: fe80::{{H4}}:{{H4B}}:{{H4}}:{{H4B}}/64 scope link",
        "LB listener {{IP}}:{{PORT}} → target group tg-{{SVC}}-{{H8}}",
    ]), MAC=mac, V2=_semver(r), H4=_hex(r, 4), H4B=_hex(r, 4), H8=_hex(r, 8))  # fmt: skip


@_look("dkim_email_headers")
def _l_dkim(r: random.Random) -> str:
    dom = _domain(r)
    return r.choice([
        f"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d={dom}; s=google; h=from:to:subject:date:message-id; bh={_b64(_rbytes(r, 32))}; b={_b64(_rbytes(r, 256))}",
        f"{r.choice(['google', 's1', 'k1', 'mail'])}._domainkey.{dom}. 300 IN TXT \"v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{_rs(r, B64, 300)}IDAQAB\"",
        f"Received: from mail-{_rs(r, LOWER, 2)}1-f{r.randint(40, 99)}.google.com ({_ip(r)})\nMessage-ID: <CA+{_rs(r, B64URL, 40)}@mail.gmail.com>\nARC-Seal: i=1; a=rsa-sha256; t={r.randint(1_700_000_000, 1_740_000_000)}; cv=none; d=google.com; s=arc-20160816; b={_b64(_rbytes(r, 128))}",
        f"_dmarc.{dom}. IN TXT \"v=DMARC1; p=quarantine; rua=mailto:dmarc@{dom}\"\n{dom}. IN TXT \"google-site-verification={_rs(r, B64URL, 43)}\"",
    ])  # fmt: skip


@_look("tls_cert_metadata")
def _l_tlsmeta(r: random.Random) -> str:
    serial = ":".join(_rs(r, "0123456789ABCDEF", 2) for _ in range(16))
    return _fill(r, r.choice([
        "Serial Number: {{SER}}\nSHA-256 Fingerprint: {{FPR}}\nNot After: {{DATE}} 23:59:59 GMT",
        "ja3={{H}} ja4=t13d1516h2_{{H12}}_{{H12B}}",
        "cert for *.{{DOMAIN}} expires {{DATE}}; ARN arn:aws:acm:{{REGION}}:{{ACCT}}:certificate/{{UUID}}",
    ]), SER=serial, FPR=":".join(_rs(r, "0123456789ABCDEF", 2) for _ in range(32)), H=_hex(r, 32), H12=_hex(r, 12), H12B=_hex(r, 12), ACCT=str(r.randint(10**11, 10**12 - 1)))  # fmt: skip


@_look("dashboard_urls")
def _l_dash(r: random.Random) -> str:
    return _fill(r, r.choice([
        "https://grafana.{{DOMAIN}}/d/{{UID}}/{{SVC}}-overview?orgId=1&from=now-6h&to=now",
        "https://app.datadoghq.com/monitors/{{MON}}?view=spans",
        "https://{{ORG}}.pagerduty.com/incidents/Q{{PD}}",
        "https://console.cloud.google.com/logs/query;query=resource.labels.service_name%3D%22{{SVC}}%22;cursorTimestamp={{DATE}}T{{TIME}}:00Z?project={{ORG}}-{{ENV}}",
        "https://{{REGION}}.console.aws.amazon.com/cloudwatch/home?region={{REGION}}#logsV2:log-groups/log-group/$252Fecs$252F{{SVC}}",
    ]), UID=_rs(r, B64URL, 9), MON=str(r.randint(10**7, 10**9)), PD=_rs(r, UPNUM, 13))  # fmt: skip


@_look("helm_compose_no_secret")
def _l_helm(r: random.Random) -> str:
    return _fill(r, r.choice([
        "postgresql:\n  auth:\n    existingSecret: {{SVC}}-pg\n    secretKeys:\n      adminPasswordKey: postgres-password",
        "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/pg_pw\n    secrets: [pg_pw]",
        "redis:\n  auth:\n    enabled: true\n    existingSecret: {{SVC}}-redis\n    existingSecretPasswordKey: redis-password",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{SVC}}-config\ndata:\n  LOG_LEVEL: info\n  FEATURE_{{WORDU}}: \"true\"\n  UPSTREAM_URL: https://api.{{DOMAIN}}",
    ]), WORDU=r.choice(WORDS).upper())  # fmt: skip


@_look("k8s_secret_empty_or_public")
def _l_k8sec(r: random.Random) -> str:
    return _fill(r, r.choice([
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{SVC}}-db\ntype: Opaque\nstringData:\n  username: {{USER}}\n  password: \"\"  # filled by external-secrets",
        "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nspec:\n  secretStoreRef:\n    name: vault\n  data:\n  - secretKey: password\n    remoteRef:\n      key: {{ENV}}/{{SVC}}\n      property: password",
    ]))  # fmt: skip


@_look("jwt_public_discussion")
def _l_jwtdisc(r: random.Random) -> str:
    head = _b64u(json.dumps({"alg": "RS256", "typ": "JWT", "kid": _rs(r, B64URL, 20)}, separators=(",", ":")).encode())
    return _fill(r, r.choice([
        "decoded header of the failing token: {{HD}} → alg RS256, kid doesn't match our JWKS (payload and signature not pasted)",
        "JWKS: {\"keys\":[{\"kty\":\"RSA\",\"kid\":\"{{KID}}\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\"{{NN}}\",\"e\":\"AQAB\"}]}",
        "jwt.io shows exp={{TS}} iss=https://{{ORG}}.auth0.com/ aud={{SVC}} — token itself not kept",
    ]), HD=head, KID=_rs(r, B64URL, 20), NN=_rs(r, B64URL, 342), TS=str(r.randint(1_700_000_000, 1_740_000_000)))  # fmt: skip


@_look("support_macro_plain")
def _l_macro(r: random.Random) -> str:
    return _fill(r, r.choice([
        "Macro: API key reset\nHi there, for security we never send keys by email. Please generate a new key under Settings → API and revoke the old one.",
        "Macro: password reset\nWe've sent a reset link to the address on file. It expires in 30 minutes. Our team will never ask for your password.",
        "Internal note: customer pasted their key in the ticket; I deleted the comment and asked them to rotate. Ticket #{{NN}}.",
    ]), NN=str(r.randint(10000, 999999)))  # fmt: skip


@_look("license_and_public_ids")
def _l_public_ids(r: random.Random) -> str:
    return _fill(r, r.choice([
        "Google Analytics property G-{{GA}}, Tag Manager GTM-{{GTM}}",
        "App Store app id {{APPID}}, bundle id com.{{ORG}}.{{WORD}}",
        "Firebase project {{ORG}}-{{ENV}}, sender id {{SEND}}, app id 1:{{SEND}}:android:{{H16}}",
        "recaptcha site key (public) 6L{{RC}}",
    ]), GA=_rs(r, UPNUM, 10), GTM=_rs(r, UPNUM, 7), APPID=str(r.randint(10**8, 10**10)), SEND=str(r.randint(10**10, 10**12)), H16=_hex(r, 16), RC=_rs(r, B64URL, 38))  # fmt: skip


# ----------------------------------------------------------------------------------------------
# assembly
# ----------------------------------------------------------------------------------------------


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Return ``(positives, lookalikes)`` for ``seed``; see the module docstring."""
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for kind, fn in POSITIVES.items():
        got = 0
        for _ in range(N_POS * 20):
            if got >= N_POS:
                break
            core, secret = fn(r)
            text = _wrap(r, core, secret)
            if secret not in text or text in seen:
                continue
            seen.add(text)
            positives.append((text, kind, secret))
            got += 1
    lookalikes: list[str] = []
    for fn in LOOKALIKES.values():
        got = 0
        for _ in range(N_LOOK * 30):
            if got >= N_LOOK:
                break
            text = _wrap(r, fn(r), "")
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    t0 = time.perf_counter()
    pos, looks = generate(seed)
    dt = time.perf_counter() - t0
    counts: dict[str, int] = {}
    for _, kind, _ in pos:
        counts[kind] = counts.get(kind, 0) + 1
    for kind, n in sorted(counts.items()):
        print(f"{kind:32s} {n}")
    print(f"\n{len(counts)} kinds, {len(pos)} positives, {len(looks)} look-alikes "
          f"from {len(LOOKALIKES)} generators, {dt:.2f}s (seed {seed})")  # fmt: skip
    sr = random.Random(seed + 1)
    print("\n--- sample positives ---")
    for text, kind, secret in sr.sample(pos, 4):
        print(f"[{kind}] secret={secret[:60]!r}\n{text}\n")
    print("--- sample look-alikes ---")
    for text in sr.sample(looks, 4):
        print(f"{text}\n")
