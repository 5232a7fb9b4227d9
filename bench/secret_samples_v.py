"""Labelled test texts for a secret detector -- set V.

Theme
-----
Memories an AI coding agent keeps for an open-source maintainer who also runs a small game
studio and a few IoT devices: release automation and package registries (crates.io, RubyGems,
NuGet, Maven Central / Sonatype, CocoaPods trunk, Packagist, PyPI, npm, Docker Hub, GitHub
Packages), code signing (Windows .pfx passwords, Apple notarization, GPG, Sigstore / cosign),
CI (GitHub Actions, GitLab CI, Buildkite, Drone, Woodpecker, Jenkins), game backends and stores
(Steam, Epic Online Services, PlayFab, Unity, itch.io butler, Discord, Twitch, YouTube), CDN and
DNS (Bunny, Fastly, Cloudflare, Route 53), chat ops (Matrix, Zulip, Telegram) and IoT (MQTT
brokers, AWS IoT, Azure IoT Hub, Particle, Home Assistant, Tuya, Wi-Fi / device admin passwords,
Tailscale). Styles: about half short notes, lessons, TODOs, issue comments and chat excerpts
(mostly English, some Russian, Ukrainian, Vietnamese, Indonesian, Swedish and Arabic), a quarter
config and code, a quarter tool output (CLI sessions, CI logs, stack traces, HTTP dumps, MQTT).

Size per seed: 79 credential kinds x 30 positives = 2370 positives; 163 look-alike generators
x 12 = 1956 look-alikes.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is the single sensitive value, an
  exact substring of ``text`` (no surrounding quotes). Every text holds exactly one secret.
  Every kind has exactly ``PER_KIND`` (30) positives.
* ``lookalikes``: texts with no credential at all that look like they might hold one. Each
  generator in ``_LOOK`` is called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic: all randomness comes from ``random.Random`` seeded from ``seed`` only. No text
  occurs twice in the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs: the
  password only. Signed URLs / SAS tokens: the signature. PEM / OpenSSH / PGP private keys: the
  whole armoured block, BEGIN line to END line. UUID-shaped vendor tokens are secrets only when
  the text names them as a token / key / secret.
* Public-by-design values are look-alikes: publishable keys, anon keys, site keys, Sentry DSNs,
  OAuth client ids, Firebase web apiKeys, search-only keys, public certificates and public keys.
  Vendor documentation example values, encrypted blobs (Ansible vault, sops ``ENC[...]``) and
  password hashes (bcrypt, argon2, mosquitto PBKDF2) are look-alikes. Bare AWS access key ids
  are left out entirely (neither positive nor look-alike).
* No token-shaped literal appears in this source: prefixes are glued from pieces at run time and
  every body is random from the seed.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from urllib.parse import quote

LOOK_PER_GEN = 12
PER_KIND = 30

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
ALNUM = LOW + UP + DIG
LALNUM = LOW + DIG
UALNUM = UP + DIG
HEX = "0123456789abcdef"
UHEX = HEX.upper()
B64 = ALNUM + "+/"
B64U = ALNUM + "-_"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
DASH5 = "-" * 5


def rs(r: random.Random, n: int, alpha: str = ALNUM) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def rbytes(r: random.Random, n: int) -> bytes:
    return bytes(r.randrange(256) for _ in range(n))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def uuid4(r: random.Random) -> str:
    h = rs(r, 32, HEX)
    v = r.choice("89ab")
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{v}{h[17:20]}-{h[20:32]}"


# ---------------------------------------------------------------------------------------------
# context vocabularies
# ---------------------------------------------------------------------------------------------
WORDS = [
    "tulip",
    "rover",
    "maple",
    "falcon",
    "cobalt",
    "pixel",
    "ember",
    "lantern",
    "harbor",
    "willow",
    "quartz",
    "sparrow",
    "meadow",
    "comet",
    "velvet",
    "otter",
    "canyon",
    "glacier",
    "saffron",
    "timber",
    "orbit",
    "pepper",
    "marble",
    "thistle",
    "nova",
    "birch",
    "coral",
    "delta",
    "fjord",
    "hazel",
    "indigo",
    "juniper",
    "kestrel",
    "lemon",
    "mango",
    "nectar",
    "olive",
    "pebble",
    "quill",
    "raven",
    "sable",
    "topaz",
    "umber",
    "violet",
    "walnut",
    "yarrow",
    "zephyr",
    "badger",
    "cactus",
    "dingo",
    "aurora",
    "bramble",
    "cinder",
]
SEASONS = ["Summer", "Winter", "Autumn", "Spring", "Vinter", "Osen", "Monsun"]
USERS = [
    "alice",
    "bob",
    "mkovalenko",
    "thanh.nguyen",
    "rizky",
    "lindqvist",
    "omar.h",
    "svetlana",
    "devbot",
    "release-bot",
    "ci-runner",
    "dasha",
    "erik.s",
    "ngoc",
    "budi",
    "yusuf",
]
HOSTS = [
    "mqtt.home.lan",
    "broker.emqx-cloud.io",
    "db.pixelforge.dev",
    "ci.pixelforge.dev",
    "build01.internal",
    "pi4-garage.local",
    "nas.home.arpa",
    "hivemq-eu.s2.eu.hivemq.cloud",
    "game-api.pixelforge.dev",
    "staging.lanternfall.gg",
    "ha.home.arpa",
    "drone.pixelforge.dev",
    "woodpecker.lab",
    "jenkins.lab.lan",
]
PROJECTS = [
    "lanternfall",
    "tiny-ecs",
    "serde-lite",
    "mqtt-bridge",
    "godot-steam-kit",
    "pixelforge",
    "glowworm",
    "rustyrope",
    "hexmap",
    "orbit-sync",
    "sparrow-cli",
    "birchwood",
]
DEVICES = [
    "garage-door",
    "greenhouse-esp32",
    "boiler-relay",
    "porch-cam",
    "weather-station",
    "pi-hole",
    "aquarium-pump",
    "3d-printer",
    "doorbell",
]
ORGS = ["pixelforge", "lanternfall-studio", "kestrel-games", "orbit-labs", "meadow-oss"]


def _ver(r):
    return f"{r.randint(0, 4)}.{r.randint(0, 19)}.{r.randint(0, 12)}"


def _date(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _ts(r):
    return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"


def _ip(r):
    return r.choice(
        [
            f"192.168.{r.randint(0, 3)}.{r.randint(2, 250)}",
            f"10.0.{r.randint(0, 9)}.{r.randint(2, 250)}",
            f"100.{r.randint(64, 127)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
        ]
    )


def _mac(r):
    return ":".join(rs(r, 2, "0123456789ABCDEF") for _ in range(6))


_FIELDS = {
    "HEX": lambda r, n: rs(r, n or 40, HEX),
    "UHEX": lambda r, n: rs(r, n or 32, UHEX),
    "AN": lambda r, n: rs(r, n or 20, ALNUM),
    "LAN": lambda r, n: rs(r, n or 20, LALNUM),
    "UAN": lambda r, n: rs(r, n or 10, UALNUM),
    "BSF": lambda r, n: rs(r, n or 43, B64),
    "BSU": lambda r, n: rs(r, n or 43, B64U),
    "DIG": lambda r, n: rs(r, n or 6, DIG),
    "UUID": lambda r, n: uuid4(r),
    "USER": lambda r, n: r.choice(USERS),
    "HOST": lambda r, n: r.choice(HOSTS),
    "VER": lambda r, n: _ver(r),
    "PROJ": lambda r, n: r.choice(PROJECTS),
    "DATE": lambda r, n: _date(r),
    "TS": lambda r, n: _ts(r),
    "IP": lambda r, n: _ip(r),
    "MAC": lambda r, n: _mac(r),
    "WORD": lambda r, n: r.choice(WORDS),
    "N": lambda r, n: str(r.randint(2, n or 999)),
    "PORT": lambda r, n: str(r.choice([1883, 8883, 8080, 5432, 6379, 443, 8443, 9000])),
    "ORG": lambda r, n: r.choice(ORGS),
    "DEV": lambda r, n: r.choice(DEVICES),
    "ISSUE": lambda r, n: str(r.randint(12, 2400)),
    "BECH": lambda r, n: rs(r, n or 58, BECH32.lower()),
    "BCR": lambda r, n: rs(r, n or 53, "./" + ALNUM),
    "BB": lambda r, n: b64(rbytes(r, n or 32)),
}
_FIELDS["USRB"] = lambda r, n: r.choice(USERS)
# markers that keep one value within a single text (same project, device, user ...)
_CONSISTENT = {"PROJ", "ORG", "DEV", "HOST", "WORD", "VER", "DATE", "USER"}
_MARK = re.compile(r"@([A-Z]+)(\d*)@")


def fill(r: random.Random, tpl: str, **fixed: str) -> str:
    """Replace @NAME@ / @NAMEnn@ markers; names in ``fixed`` are replaced last, verbatim."""

    cache: dict[tuple[str, str], str] = {}
    n_ts = tpl.count("@TS@")
    times = sorted(_ts(r) for _ in range(n_ts))

    def sub(m):
        name, num = m.group(1), m.group(2)
        if name in fixed or name not in _FIELDS:
            return m.group(0)
        if name == "TS" and times:
            return times.pop(0)
        if name in _CONSISTENT:
            if (name, num) not in cache:
                cache[(name, num)] = _FIELDS[name](r, int(num) if num else 0)
            return cache[(name, num)]
        return _FIELDS[name](r, int(num) if num else 0)

    out = _MARK.sub(sub, tpl)
    # fixed values last so that random content can never be re-interpreted as markers
    for name in sorted(fixed, key=len, reverse=True):
        out = out.replace("@" + name + "@", fixed[name])
    return out


# ---------------------------------------------------------------------------------------------
# secret value generators
# ---------------------------------------------------------------------------------------------
def pw_human(r):
    w1, w2 = r.choice(WORDS), r.choice(WORDS)
    y = r.choice(["2024", "2025", "2026", "99", "88", "42", "07", "13"])
    s = r.choice("!?*.%")
    pats = [
        lambda: f"{r.choice(SEASONS)}{y}{s}",
        lambda: f"{w1}-{w2.capitalize()}-{r.randint(10, 99)}",
        lambda: f"{w1.capitalize()}{r.randint(100, 9999)}{s}",
        lambda: f"{w1.capitalize()}{s}{w2}{r.randint(1, 99)}",
        lambda: f"{w1}{w2.upper()}{r.randint(1, 9)}{s}",
        lambda: f"{r.choice(USERS).split('.')[0].capitalize()}{y}{w1}{s}",
    ]
    return r.choice(pats)()


def pw_generated(r):
    n = r.randint(14, 28)
    while True:
        p = rs(r, n, ALNUM + "!%*-_.~+")
        if p[0] in ALNUM and p[-1] in ALNUM + "!%*":
            return p


def pw_phrase(r):
    sep = r.choice(["-", ".", "_"])
    return sep.join(r.choice(WORDS) for _ in range(r.randint(4, 5))) + str(r.randint(1, 99))


def pw_any(r):
    return r.choice([pw_human, pw_human, pw_generated, pw_phrase])(r)


def pw_url(r):
    """Password that survives unescaped in a URL userinfo."""
    return r.choice([lambda: rs(r, r.randint(16, 30), ALNUM), lambda: pw_human_url(r)])()


def pw_human_url(r):
    p = pw_human(r)
    for ch in "#%&?!*":
        p = p.replace(ch, "_")
    return p


def _pem(label: str, der: bytes, headers: str = "") -> str:
    body = b64(der)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"{DASH5}BEGIN {label}{DASH5}\n" + headers + "\n".join(lines) + f"\n{DASH5}END {label}{DASH5}"


PRIV = " PRIVATE" + " KEY"


def v_rsa_key(r):
    der = bytes.fromhex("308204a40201000282010100") + rbytes(r, r.randint(1180, 1190))
    return _pem("RSA" + PRIV, der)


def v_p8_key(r):
    der = (
        bytes.fromhex("308193020100301306072a8648ce3d020106082a8648ce3d030107047930770201010420")
        + rbytes(r, 32)
        + bytes.fromhex("a00a06082a8648ce3d030107a14403420004")
        + rbytes(r, 64)
    )
    return _pem(PRIV.strip(), der)


def v_openssh_key(r):
    der = (
        b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00"
        b"\x01\x00\x00\x003\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 "
        + rbytes(r, 32)
        + b"\x00\x00\x00\x98"
        + rbytes(r, 8)
        + b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 "
        + rbytes(r, 32)
        + b"\x00\x00\x00@"
        + rbytes(r, 64)
        + b"\x00\x00\x00\x10"
        + rs(r, 8, LOW).encode()
        + b"@"
        + rs(r, 7, LOW).encode()
        + b"\x01\x02\x03\x04\x05"
    )
    body = b64(der)
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    label = "OPENSSH" + PRIV
    return f"{DASH5}BEGIN {label}{DASH5}\n" + "\n".join(lines) + f"\n{DASH5}END {label}{DASH5}"


def v_pgp_key(r):
    der = bytes.fromhex("9507c6") + rbytes(r, r.randint(1300, 1340))
    body = b64(der)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    crc = b64(rbytes(r, 3))
    label = "PGP" + PRIV + " BLOCK"
    return f"{DASH5}BEGIN {label}{DASH5}\n\n" + "\n".join(lines) + f"\n={crc}\n{DASH5}END {label}{DASH5}"


def v_jwt(r, payload: dict) -> str:
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{rs(r, 43, B64U)}"


def v_ha_token(r):
    iat = r.randint(1_700_000_000, 1_790_000_000)
    return v_jwt(r, {"iss": rs(r, 32, HEX), "iat": iat, "exp": iat + 315_360_000})


def v_discord_bot(r):
    uid = str(r.randint(10**17, 13 * 10**17))
    return f"{b64u(uid.encode())}.{rs(r, 6, B64U)}.{rs(r, 38, B64U)}"


def v_matrix(r):
    user = r.choice(["maint", "releasebot", "alice", "hookshot", "ci"])
    return "sy" + "t_" + b64u(user.encode()) + "_" + rs(r, 20, LOW + UP) + "_" + rs(r, 6, ALNUM)


def v_telegram(r):
    return f"{r.randint(10**8, 8 * 10**9)}:AA{rs(r, 33, B64U)}"


def v_pypi(r):
    return "py" + "pi-" + "AgEIcHlwaS5vcmc" + rs(r, r.randint(150, 170), B64U)


def v_fine_grained(r):
    return "github" + "_pat_" + rs(r, 22, UALNUM) + "_" + rs(r, 59, ALNUM)


def v_tailscale(r, kind):
    return "tskey" + f"-{kind}-" + rs(r, r.randint(10, 13), ALNUM) + "CNTRL-" + rs(r, 33, ALNUM)


def v_azure_key(r):
    return b64(rbytes(r, 32))


def v_azure_sig(r):
    return quote(b64(rbytes(r, 32)), safe="")


def v_docker_auth(r):
    return b64(f"{r.choice(USERS).replace('.', '')}:{pw_generated(r)}".encode())


def v_unity_serial(r):
    return "E" + r.choice("34") + "-" + "-".join(rs(r, 4, UALNUM) for _ in range(5))


def v_apple_asp(r):
    return "-".join(rs(r, 4, LOW) for _ in range(4))


def v_bunny(r):
    return uuid4(r) + uuid4(r)[8:]


def v_stripe(r):
    return "sk" + "_live_" + rs(r, r.choice([24, 99]), ALNUM)


def v_vault(r):
    return "hv" + "s.CAESI" + rs(r, r.randint(85, 92), B64U)


def v_age(r):
    return "AGE-" + "SECRET-KEY-1" + rs(r, 58, BECH32)


def v_google_refresh(r):
    return "1//0" + r.choice("3gdeh") + rs(r, r.randint(95, 100), B64U)


# ---------------------------------------------------------------------------------------------
# generic surrounding templates.  @V@ value, @S@ service, @E@ env var, @K@ config key,
# @P@ PascalCase key, @L@ label, @SLUG@ service slug, @H@ API host
# ---------------------------------------------------------------------------------------------
T_NOTE = [
    "Note to self: the @S@ @L@ for @PROJ@ releases is @V@ (created @DATE@, expires in 90 days).",
    ("Lesson: the nightly job broke because @E@ still had the old value. Updated it to @V@ and re-ran, green now."),
    "TODO: move the @S@ @L@ into the password manager and stop keeping it here -> @V@",
    (
        "Issue #@ISSUE@, comment by @USER@:\n> still getting 401 from @S@ on the release job\n"
        "My bad, I pasted an old one in the runner settings. Use @V@ instead."
    ),
    (
        "[@TS@] @USER@: anyone have the @S@ @L@ handy?\n[@TS@] @USRB@: @V@\n"
        "[@TS@] @USER@: thanks, deleting this message in a minute"
    ),
    ("Decision (@DATE@): @PROJ@ gets its own @S@ @L@ instead of my personal account. Value: @V@"),
    (
        "- [ ] rotate @S@ @L@ after the @VER@ release\n- [x] update @E@ in CI (now @V@)\n"
        "- [ ] write changelog for @PROJ@"
    ),
    "remember: @S@ -> @K@ = @V@ (do NOT paste it in Discord again)",
    "Заметка: @L@ для @S@ (проект @PROJ@): @V@ — не коммитить в репозиторий!",
    "Нагадування: @S@ @L@ = @V@, змінити після релізу @VER@.",
    "Ghi chú: @L@ của @S@ là @V@, nhớ đổi sau khi phát hành bản @VER@.",
    "Catatan: @L@ @S@ untuk build malam @PROJ@ adalah @V@, jangan dibagikan.",
    "Anteckning: @S@ @L@ är @V@ – byt ut den efter release @VER@.",
    "ملاحظة: @L@ الخاص بـ @S@ هو @V@ — لا تشاركه مع أحد.",
    ("Handover for @USER@ while I'm travelling: the build box needs @E@=@V@ for @S@; everything else is in the wiki."),
    (
        "Postmortem @DATE@: release of @PROJ@ @VER@ failed, root cause was a typo in @E@. "
        "Correct value is @V@ and it is now set at org level."
    ),
    ("User prefers: keep the @S@ @L@ in this note until the vault migration is done. Current one: @V@"),
]
T_CONF = [
    "# @S@\n@E@=@V@\nLOG_LEVEL=info\n",
    '@SLUG@:\n  @K@: "@V@"\n  timeout: @N60@\n  retries: 3',
    '[@SLUG@]\n@K@ = "@V@"\nenabled = true',
    "[@SLUG@]\n@K@ = @V@\nverbose = false",
    '{\n  "@K@": "@V@",\n  "project": "@PROJ@",\n  "debug": false\n}',
    'variable "@K@" {\n  type      = string\n  default   = "@V@"\n}',
    'const @E@: &str = "@V@";\n\nfn main() {\n    println!("starting @PROJ@");\n}',
    'public static class Secrets\n{\n    public const string @P@ = "@V@";\n}',
    'os.Setenv("@E@", "@V@") // TODO: remove before pushing',
    'local @K@ = "@V@"  -- @S@',
    'extends Node\n\nconst @E@ := "@V@"\n\nfunc _ready():\n\tprint("@PROJ@ ready")',
    'export @E@="@V@"\n@PROJ@ deploy --env prod',
    "@E@ ?= @V@\n\nrelease:\n\t./scripts/release.sh $(@E@)",
    "FROM debian:bookworm-slim\nENV @E@=@V@\nCOPY target/release/@PROJ@ /usr/local/bin/",
    '[Service]\nEnvironment="@E@=@V@"\nExecStart=/usr/local/bin/@PROJ@\nRestart=on-failure',
    (
        "jobs:\n  release:\n    runs-on: ubuntu-latest\n    env:\n      @E@: @V@\n    steps:\n"
        "      - uses: actions/checkout@v4"
    ),
    'variables:\n  @E@: "@V@"\nrelease:\n  stage: deploy\n  script: ./release.sh',
    ('steps:\n  - label: ":rocket: release"\n    command: ./release.sh\n    env:\n      @E@: "@V@"'),
]
T_OUT = [
    "$ export @E@=@V@\n$ ./release.sh @VER@\n==> publishing @PROJ@ @VER@\n==> done in @N90@s",
    ("[@TS@] Run ./scripts/publish.sh\n[@TS@] + @E@=@V@ ./scripts/publish.sh\n[@TS@] publish ok (@N900@ms)"),
    (
        'Traceback (most recent call last):\n  File "release.py", line @N300@, in <module>\n'
        '    client.login(@K@="@V@")\n  File "/usr/lib/python3/site-packages/@SLUG@/client.py", '
        'line 88, in login\n    raise AuthError("401 Unauthorized")\nAuthError: 401 Unauthorized'
    ),
    ('{"level":"debug","ts":"@DATE@T@TS@Z","msg":"loaded config","@K@":"@V@","service":"@SLUG@"}'),
    "$ printenv @E@\n@V@\n$ ./deploy.sh\nusing @S@ credentials from environment",
    (
        "thread 'main' panicked at src/main.rs:@N200@:14:\ncalled `Result::unwrap()` on an `Err` "
        'value: Unauthorized { @K@: "@V@" }\nnote: run with `RUST_BACKTRACE=1`'
    ),
]
T_TOK = [
    (
        "GET /v1/me HTTP/1.1\nHost: @H@\nAuthorization: Bearer @V@\nUser-Agent: @PROJ@/@VER@\n\n"
        "HTTP/1.1 200 OK\nContent-Type: application/json"
    ),
    '$ curl -sS -H "Authorization: Bearer @V@" https://@H@/ | jq .\n{\n  "ok": true\n}',
]
T_PW = [
    "login for @S@: user @USER@ / pass @V@",
    "Password for @S@ (account @USER@): @V@",
    "Пароль для @S@ (пользователь @USER@): @V@",
]
T_BLK = [
    "@S@ @L@ (keep offline!):\n\n@V@\n",
    ("Lesson: @PROJ@ CI needs the @L@ as a multi-line secret. Pasting it here for the migration:\n@V@"),
    "Ключ для @S@:\n@V@\nне терять",
    "$ cat ~/.secrets/@SLUG@.key\n@V@\n$ ",
    '@E@="@V@"',
    "[@TS@] @USER@: here's the @L@\n@V@\n[@TS@] @USRB@: got it, thanks",
    "Kunci @S@ (jangan dibagikan):\n@V@",
]


class Kind:
    def __init__(self, name, cat, gen, S, E, L, sp=(), H=None):
        self.name, self.cat, self.gen = name, cat, gen
        self.S, self.E, self.L, self.sp, self.H = S, E, L, list(sp), H


def _h(n, alpha):
    return lambda r: rs(r, n, alpha)


def _p(prefix_parts, n, alpha):
    pre = "".join(prefix_parts)
    return lambda r: pre + rs(r, n, alpha)


KINDS = [
    Kind(
        "npm_legacy_token",
        "tok",
        uuid4,
        ["npm", "old npm CI"],
        ["NPM_TOKEN", "NPM_AUTH_TOKEN"],
        "legacy auth token",
        [
            "# ~/.npmrc on the old build VM\n//registry.npmjs.org/:_authToken=@V@",
            'npm config set "//registry.npmjs.org/:_authToken" "@V@"',
        ],
    ),
    Kind(
        "gitlab_deploy_token",
        "tok",
        _p(("gl", "dt-"), 20, B64U),
        ["GitLab", "GitLab registry"],
        ["CI_DEPLOY_PASSWORD", "GITLAB_DEPLOY_TOKEN"],
        "deploy token",
        [
            ("$ docker login registry.gitlab.com -u gitlab+deploy-token-@DIG6@ -p @V@\nLogin Succeeded"),
            "git clone https://gitlab+deploy-token-@DIG6@:@V@@gitlab.com/@ORG@/@PROJ@.git",
        ],
    ),
    Kind(
        "github_app_installation_token",
        "tok",
        _p(("gh", "s_"), 36, ALNUM),
        ["GitHub App (release bot)"],
        ["GITHUB_APP_TOKEN", "GH_APP_TOKEN"],
        "installation token",
        [
            "git clone https://x-access-token:@V@@github.com/@ORG@/@PROJ@.git",
            (
                '{"token":"@V@","expires_at":"@DATE@T@TS@Z","permissions":{"contents":"write"},'
                '"repository_selection":"selected"}'
            ),
        ],
        H="api.github.com",
    ),
    Kind(
        "twitch_stream_key",
        "tok",
        lambda r: "live_" + rs(r, 9, DIG) + "_" + rs(r, 30, ALNUM),
        ["Twitch", "Twitch devlog channel"],
        ["TWITCH_STREAM_KEY"],
        "stream key",
        [
            (
                '{"settings": {"bwtest": false, "key": "@V@", "server": "auto", "service": '
                '"Twitch"}, "type": "rtmp_common"}'
            ),
            "$ ffmpeg -re -i devlog-@DATE@.mkv -c:v libx264 -f flv rtmp://live.twitch.tv/app/@V@",
        ],
    ),
    Kind(
        "youtube_stream_key",
        "tok",
        lambda r: "-".join(rs(r, 4, LALNUM) for _ in range(5)),
        ["YouTube Live"],
        ["YOUTUBE_STREAM_KEY", "YT_STREAM_KEY"],
        "stream key",
        [
            "$ ffmpeg -re -i trailer.mp4 -c copy -f flv rtmp://a.rtmp.youtube.com/live2/@V@",
            ("OBS > Settings > Stream: service YouTube - RTMPS, stream key @V@ (the persistent one, not per-event)"),
        ],
    ),
    Kind(
        "cloudflare_tunnel_token",
        "tok",
        lambda r: b64(
            json.dumps(
                {"a": rs(r, 32, HEX), "t": uuid4(r), "s": b64(rbytes(r, 32))},
                separators=(",", ":"),
            ).encode()
        ),
        ["Cloudflare (Home Assistant tunnel)", "cloudflared"],
        ["TUNNEL_TOKEN", "CLOUDFLARE_TUNNEL_TOKEN"],
        "tunnel token",
        [
            "$ sudo cloudflared service install @V@\n@DATE@T@TS@Z INF Using Systemd",
            (
                "services:\n  cloudflared:\n    image: cloudflare/cloudflared:latest\n"
                "    command: tunnel --no-autoupdate run --token @V@"
            ),
        ],
    ),
    Kind(
        "ntfy_access_token",
        "tok",
        _p(("t", "k_"), 29, LALNUM),
        ["ntfy"],
        ["NTFY_TOKEN"],
        "access token",
        [
            ('$ curl -H "Authorization: Bearer @V@" -d "garage door open" https://ntfy.sh/@WORD@-alerts'),
            (
                "notify:\n  - platform: rest\n    name: ntfy\n    resource: https://ntfy.sh/@WORD@\n"
                '    headers:\n      Authorization: "Bearer @V@"'
            ),
        ],
        H="ntfy.sh",
    ),
    Kind(
        "azure_ad_client_secret",
        "tok",
        lambda r: rs(r, 3, ALNUM) + "8Q~" + rs(r, 33, ALNUM + "_.~-") + rs(r, 1, ALNUM),
        ["Azure Trusted Signing app", "Azure Key Vault signing SP"],
        ["AZURE_CLIENT_SECRET"],
        "client secret",
        [
            "$ az login --service-principal -u @UUID@ -p @V@ --tenant @UUID@",
            (
                "> AzureSignTool sign -kvu https://@WORD@-kv.vault.azure.net -kvi @UUID@ -kvs @V@ "
                "-kvt @UUID@ -kvc codesign -tr http://timestamp.digicert.com @PROJ@.exe"
            ),
        ],
    ),
    Kind(
        "crates_io_token",
        "tok",
        _p(("ci", "o"), 32, ALNUM),
        ["crates.io"],
        ["CARGO_REGISTRY_TOKEN"],
        "API token",
        [
            '# ~/.cargo/credentials.toml\n[registry]\ntoken = "@V@"',
            "$ cargo login @V@\n       Login token for `crates-io` saved",
            (
                "$ cargo publish --token @V@\n    Updating crates.io index\n   Packaging @PROJ@ "
                "v@VER@\n   Uploading @PROJ@ v@VER@"
            ),
        ],
    ),
    Kind(
        "rubygems_api_key",
        "tok",
        _p(("ruby", "gems_"), 48, HEX),
        ["RubyGems"],
        ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"],
        "API key",
        [
            "---\n:rubygems_api_key: @V@\n",
            (
                "$ GEM_HOST_API_KEY=@V@ gem push @PROJ@-@VER@.gem\nPushing gem to "
                "https://rubygems.org...\nSuccessfully registered gem: @PROJ@ (@VER@)"
            ),
        ],
    ),
    Kind(
        "nuget_api_key",
        "tok",
        _p(("oy", "2"), 43, LALNUM),
        ["NuGet"],
        ["NUGET_API_KEY", "NUGET_KEY"],
        "API key",
        [
            (
                "$ dotnet nuget push bin/Release/@PROJ@.@VER@.nupkg --api-key @V@ --source "
                "https://api.nuget.org/v3/index.json\nPushing @PROJ@.@VER@.nupkg to "
                "'https://www.nuget.org/api/v2/package'...\nYour package was pushed."
            ),
            (
                "> nuget setapikey @V@ -Source https://api.nuget.org/v3/index.json\n"
                "The API Key '...' was saved for 'https://www.nuget.org'"
            ),
        ],
    ),
    Kind(
        "sonatype_user_token",
        "tok",
        _h(44, ALNUM + "+/"),
        ["Sonatype Central", "Maven Central"],
        ["OSSRH_PASSWORD", "SONATYPE_TOKEN_PASSWORD", "MAVEN_CENTRAL_PASSWORD"],
        "user token password",
        [
            ("<server>\n  <id>central</id>\n  <username>@AN8@</username>\n  <password>@V@</password>\n</server>"),
            "mavenCentralUsername=@AN8@\nmavenCentralPassword=@V@\nsigning.keyId=@UHEX8@",
        ],
    ),
    Kind(
        "cocoapods_trunk_token",
        "tok",
        _h(32, HEX),
        ["CocoaPods trunk"],
        ["COCOAPODS_TRUNK_TOKEN"],
        "session token",
        [
            ("# ~/.netrc\nmachine trunk.cocoapods.org\n  login @USER@@pixelforge.dev\n  password @V@"),
            (
                "$ COCOAPODS_TRUNK_TOKEN=@V@ pod trunk push @PROJ@.podspec\nUpdating spec repo "
                "`trunk`\nValidating podspec"
            ),
        ],
    ),
    Kind(
        "packagist_api_token",
        "tok",
        lambda r: "packagist_" + r.choice(["uut_", "ort_", "out_"]) + rs(r, 68, LALNUM),
        ["Packagist", "Private Packagist"],
        ["PACKAGIST_TOKEN", "COMPOSER_AUTH_TOKEN"],
        "API token",
        [
            (
                "$ curl -XPOST -H'content-type:application/json' 'https://packagist.org/api/"
                'update-package?username=@USER@&apiToken=@V@\' -d\'{"repository":{"url":'
                '"https://github.com/@ORG@/@PROJ@"}}\''
            ),
            (
                '{\n  "http-basic": {\n    "repo.packagist.com": {\n      "username": "token",\n'
                '      "password": "@V@"\n    }\n  }\n}'
            ),
        ],
    ),
    Kind(
        "pypi_api_token",
        "tok",
        v_pypi,
        ["PyPI"],
        ["TWINE_PASSWORD", "PYPI_API_TOKEN", "UV_PUBLISH_TOKEN"],
        "API token",
        [
            "# ~/.pypirc\n[pypi]\n  username = __token__\n  password = @V@",
            (
                "$ uv publish --token @V@\nPublishing 2 files https://upload.pypi.org/legacy/\n"
                "Uploading @PROJ@-@VER@-py3-none-any.whl"
            ),
        ],
    ),
    Kind(
        "npm_access_token",
        "tok",
        _p(("np", "m_"), 36, ALNUM),
        ["npm"],
        ["NPM_TOKEN", "NODE_AUTH_TOKEN"],
        "automation token",
        [
            "# .npmrc\n//registry.npmjs.org/:_authToken=@V@\nalways-auth=true",
            (
                "$ NODE_AUTH_TOKEN=@V@ npm publish --access public\nnpm notice Publishing to "
                "https://registry.npmjs.org/ with tag latest\n+ @PROJ@@@VER@"
            ),
        ],
        H="registry.npmjs.org",
    ),
    Kind(
        "dockerhub_pat",
        "tok",
        _p(("dckr", "_pat_"), 27, B64U),
        ["Docker Hub"],
        ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"],
        "access token",
        [
            "$ echo @V@ | docker login -u @USER@ --password-stdin\nLogin Succeeded",
            (
                "$ docker login -u @ORG@ -p @V@\nWARNING! Using --password via the CLI is insecure."
                " Use --password-stdin.\nLogin Succeeded"
            ),
        ],
    ),
    Kind(
        "github_pat",
        "tok",
        _p(("gh", "p_"), 36, ALNUM),
        ["GitHub", "GitHub Packages"],
        ["GH_TOKEN", "GITHUB_TOKEN", "CR_PAT"],
        "personal access token",
        [
            (
                "# .npmrc for GitHub Packages\n@@ORG@:registry=https://npm.pkg.github.com\n"
                "//npm.pkg.github.com/:_authToken=@V@"
            ),
            "$ echo @V@ | docker login ghcr.io -u @USER@ --password-stdin\nLogin Succeeded",
            "git remote set-url origin https://@USER@:@V@@github.com/@ORG@/@PROJ@.git",
        ],
        H="api.github.com",
    ),
    Kind(
        "github_fine_grained_pat",
        "tok",
        v_fine_grained,
        ["GitHub"],
        ["GH_TOKEN", "RELEASE_PLEASE_TOKEN", "HOMEBREW_TAP_TOKEN"],
        "fine-grained token",
        [
            "$ gh auth login --with-token <<< @V@\n✓ Logged in to github.com account @USER@",
            ("- uses: peter-evans/create-pull-request@v6\n  with:\n    token: @V@\n    branch: bump-@PROJ@"),
        ],
        H="api.github.com",
    ),
    Kind(
        "windows_signing_cert_password",
        "pw",
        pw_any,
        ["code signing .pfx", "Authenticode cert", "Sectigo EV cert"],
        ["PFX_PASSWORD", "SIGNING_CERT_PASSWORD", "WINDOWS_CERT_PASSWORD"],
        "password",
        [
            (
                "> signtool sign /f @PROJ@.pfx /p @V@ /fd SHA256 /tr http://timestamp.digicert.com"
                " /td SHA256 build\\@PROJ@.exe\nDone Adding Additional Store\n"
                "Successfully signed: build\\@PROJ@.exe"
            ),
            (
                "$ openssl pkcs12 -in codesign.p12 -nodes -passin pass:@V@ | openssl x509 -noout "
                "-subject\nsubject=CN = @ORG@"
            ),
            (
                'PS> $pwd = ConvertTo-SecureString -String "@V@" -Force -AsPlainText\n'
                "PS> Import-PfxCertificate -FilePath .\\codesign.pfx -CertStoreLocation "
                "Cert:\\CurrentUser\\My -Password $pwd"
            ),
        ],
    ),
    Kind(
        "apple_app_specific_password",
        "pw",
        v_apple_asp,
        ["Apple ID (notarization)", "notarytool"],
        ["APPLE_APP_SPECIFIC_PASSWORD", "AC_PASSWORD", "NOTARIZE_PASSWORD"],
        "app-specific password",
        [
            (
                "$ xcrun notarytool submit @PROJ@.dmg --apple-id dev@@ORG@.com --team-id @UAN10@ "
                "--password @V@ --wait\nConditionally accepted. Submission ID: @UUID@\n"
                "  status: Accepted"
            ),
            (
                "$ xcrun altool --notarize-app -f @PROJ@.zip --primary-bundle-id com.pixelforge."
                "@WORD@ -u dev@@ORG@.com -p @V@"
            ),
        ],
    ),
    Kind(
        "app_store_connect_private_key",
        "blk",
        v_p8_key,
        ["App Store Connect API"],
        ["APP_STORE_CONNECT_API_KEY", "ASC_KEY_P8"],
        "API private key (.p8)",
        [
            "$ cat AuthKey_@UAN10@.p8\n@V@",
            "fastlane api key for notarization, key_id @UAN10@, issuer @UUID@:\n@V@",
        ],
    ),
    Kind(
        "gpg_passphrase",
        "pw",
        pw_phrase,
        ["GPG release signing key", "Maven GPG key"],
        ["GPG_PASSPHRASE", "SIGNING_PASSWORD", "MAVEN_GPG_PASSPHRASE"],
        "passphrase",
        [
            (
                '$ echo "@V@" | gpg --batch --pinentry-mode loopback --passphrase-fd 0 '
                "--detach-sign -a @PROJ@-@VER@.tar.gz"
            ),
            ("signing.keyId=@UHEX8@\nsigning.password=@V@\nsigning.secretKeyRingFile=/home/@USER@/.gnupg/secring.gpg"),
        ],
    ),
    Kind(
        "gpg_private_key",
        "blk",
        v_pgp_key,
        ["GPG release signing"],
        ["GPG_PRIVATE_KEY", "SIGNING_KEY"],
        "private key",
        ["$ gpg --armor --export-secret-keys @UHEX16@\n@V@"],
    ),
    Kind(
        "cosign_password",
        "pw",
        pw_any,
        ["cosign", "Sigstore"],
        ["COSIGN_PASSWORD"],
        "key password",
        [
            (
                "$ COSIGN_PASSWORD=@V@ cosign sign --key cosign.key ghcr.io/@ORG@/@PROJ@:@VER@\n"
                "Pushing signature to: ghcr.io/@ORG@/@PROJ@"
            ),
        ],
    ),
    Kind(
        "gitlab_pat",
        "tok",
        _p(("glp", "at-"), 20, B64U),
        ["GitLab"],
        ["GITLAB_TOKEN", "GL_TOKEN"],
        "personal access token",
        [
            ('$ curl --header "PRIVATE-TOKEN: @V@" "https://gitlab.com/api/v4/projects/@N99999@/releases"'),
        ],
        H="gitlab.com",
    ),
    Kind(
        "gitlab_runner_token",
        "tok",
        _p(("gl", "rt-"), 20, B64U),
        ["GitLab", "self-hosted GitLab"],
        ["RUNNER_TOKEN", "CI_SERVER_TOKEN"],
        "runner authentication token",
        [
            (
                "$ gitlab-runner register --non-interactive --url https://gitlab.com --token @V@ "
                "--executor docker --docker-image alpine:3.20\nRunner registered successfully."
            ),
            (
                '# /etc/gitlab-runner/config.toml\n[[runners]]\n  name = "@HOST@"\n'
                '  url = "https://gitlab.com"\n  token = "@V@"\n  executor = "docker"'
            ),
        ],
    ),
    Kind(
        "gitlab_trigger_token",
        "tok",
        _p(("glp", "tt-"), 40, HEX),
        ["GitLab pipeline", "GitLab"],
        ["TRIGGER_TOKEN", "GITLAB_TRIGGER_TOKEN"],
        "trigger token",
        [
            (
                "$ curl -X POST --fail -F token=@V@ -F ref=main "
                "https://gitlab.com/api/v4/projects/@N99999@/trigger/pipeline"
            ),
        ],
    ),
    Kind(
        "buildkite_api_token",
        "tok",
        _p(("bk", "ua_"), 40, HEX),
        ["Buildkite"],
        ["BUILDKITE_API_TOKEN"],
        "API access token",
        ["$ bk configure --org @ORG@ --token @V@\nConfiguration saved"],
        H="api.buildkite.com",
    ),
    Kind(
        "drone_access_token",
        "tok",
        _h(32, ALNUM),
        ["Drone CI"],
        ["DRONE_TOKEN"],
        "personal token",
        [
            (
                "$ export DRONE_SERVER=https://drone.pixelforge.dev\n$ export DRONE_TOKEN=@V@\n"
                "$ drone build ls @ORG@/@PROJ@"
            ),
        ],
        H="drone.pixelforge.dev",
    ),
    Kind(
        "woodpecker_agent_secret",
        "tok",
        _h(64, HEX),
        ["Woodpecker CI"],
        ["WOODPECKER_AGENT_SECRET"],
        "agent secret",
        [
            (
                "services:\n  woodpecker-agent:\n    image: woodpeckerci/woodpecker-agent:v2\n"
                "    environment:\n      - WOODPECKER_SERVER=woodpecker-server:9000\n"
                "      - WOODPECKER_AGENT_SECRET=@V@"
            ),
        ],
    ),
    Kind(
        "jenkins_api_token",
        "tok",
        _p(("1", "1"), 32, HEX),
        ["Jenkins"],
        ["JENKINS_API_TOKEN", "JENKINS_TOKEN"],
        "API token",
        [
            ("$ curl -X POST -u @USER@:@V@ 'https://jenkins.lab.lan/job/@PROJ@/buildWithParameters?VERSION=@VER@'"),
            ("$ java -jar jenkins-cli.jar -s https://jenkins.lab.lan/ -auth @USER@:@V@ build @PROJ@-release"),
        ],
    ),
    Kind(
        "steam_web_api_key",
        "tok",
        _h(32, UHEX),
        ["Steam Web API", "Steamworks publisher"],
        ["STEAM_API_KEY", "STEAM_WEB_API_KEY", "STEAM_PUBLISHER_KEY"],
        "key",
        [
            (
                "GET https://partner.steam-api.com/ISteamUser/CheckAppOwnership/v2/?key=@V@"
                "&steamid=7656119@DIG10@&appid=@DIG7@"
            ),
            ('$ curl "https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/?key=@V@&steamids=7656119@DIG10@"'),
        ],
    ),
    Kind(
        "steam_build_account_password",
        "pw",
        pw_any,
        ["steamcmd build account"],
        ["STEAM_BUILD_PASSWORD", "STEAM_PASSWORD"],
        "password",
        [
            (
                "$ steamcmd +login @USER@_builder @V@ +run_app_build ../scripts/app_build_@DIG7@"
                ".vdf +quit\nLogging in user '@USER@_builder' to Steam Public...OK"
            ),
        ],
    ),
    Kind(
        "epic_eos_client_secret",
        "tok",
        _h(43, B64U),
        ["Epic Online Services"],
        ["EOS_CLIENT_SECRET"],
        "client secret",
        [
            (
                'var options = new Options {\n    ProductId = "@HEX32@",\n'
                '    SandboxId = "@HEX32@",\n    DeploymentId = "@HEX32@",\n'
                '    ClientCredentials = new ClientCredentials { ClientId = "xyza7891@AN24@", '
                'ClientSecret = "@V@" }\n};'
            ),
            (
                "$ curl -u xyza7891@AN24@:@V@ -d grant_type=client_credentials -d deployment_id="
                "@HEX32@ https://api.epicgames.dev/auth/v1/oauth/token"
            ),
        ],
    ),
    Kind(
        "playfab_secret_key",
        "tok",
        _h(52, UALNUM),
        ["PlayFab"],
        ["PLAYFAB_DEV_SECRET_KEY", "PLAYFAB_SECRET"],
        "developer secret key",
        [
            (
                "POST https://@UHEX5@.playfabapi.com/Server/GetUserData HTTP/1.1\n"
                "Content-Type: application/json\nX-SecretKey: @V@\n\n"
                '{"PlayFabId":"@UHEX16@"}'
            ),
            (
                'PlayFabSettings.staticSettings.TitleId = "@UHEX5@";\n'
                'PlayFabSettings.staticSettings.DeveloperSecretKey = "@V@";'
            ),
        ],
    ),
    Kind(
        "unity_cloud_api_key",
        "tok",
        _h(32, HEX),
        ["Unity Cloud Build", "Unity Services"],
        ["UNITY_API_KEY", "UCB_API_KEY"],
        "API key",
        [
            ('$ curl -H "Authorization: Basic @V@" https://build-api.cloud.unity3d.com/api/v1/orgs/@ORG@/projects'),
        ],
    ),
    Kind(
        "unity_license_serial",
        "tok",
        v_unity_serial,
        ["Unity Pro license"],
        ["UNITY_SERIAL"],
        "serial",
        [
            (
                "$ /opt/unity/Editor/Unity -batchmode -quit -serial @V@ -username ci@@ORG@.com "
                '-password "$UNITY_PASSWORD"'
            ),
        ],
    ),
    Kind(
        "itch_butler_api_key",
        "tok",
        _h(40, ALNUM),
        ["itch.io butler"],
        ["BUTLER_API_KEY"],
        "API key",
        [
            (
                "$ BUTLER_API_KEY=@V@ butler push build/linux @USER@/@PROJ@:linux-beta "
                "--userversion @VER@\n> For channel `linux-beta`: last build is @N99999@\n"
                "√ Patch uploaded"
            ),
        ],
    ),
    Kind(
        "discord_bot_token",
        "tok",
        v_discord_bot,
        ["Discord", "Discord community"],
        ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"],
        "bot token",
        [
            'client.run("@V@")',
            (
                "POST /api/v10/channels/@DIG19@/messages HTTP/1.1\nHost: discord.com\n"
                "Authorization: Bot @V@\nContent-Type: application/json"
            ),
        ],
    ),
    Kind(
        "discord_webhook_token",
        "spec",
        _h(68, B64U),
        ["Discord"],
        ["DISCORD_WEBHOOK_URL"],
        "webhook",
        [
            "Discord webhook for #releases: https://discord.com/api/webhooks/@DIG19@/@V@",
            "DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/@DIG19@/@V@",
            (
                '$ curl -H "Content-Type: application/json" -d \'{"content":"@PROJ@ @VER@ is out!"}'
                "' https://discordapp.com/api/webhooks/@DIG18@/@V@"
            ),
            (
                '- name: Notify Discord\n  run: curl -X POST -d "content=build ok" '
                "https://discord.com/api/webhooks/@DIG19@/@V@"
            ),
            "Вебхук Discord для канала #билды: https://discord.com/api/webhooks/@DIG19@/@V@",
            "Webhook Discord của server cộng đồng: https://discord.com/api/webhooks/@DIG19@/@V@",
            'const WEBHOOK := "https://discord.com/api/webhooks/@DIG19@/@V@"',
            (
                "[@TS@] ERROR webhook POST https://discord.com/api/webhooks/@DIG19@/@V@ -> 429 "
                "Too Many Requests (retry_after=@N9@s)"
            ),
            (
                "Lesson: Discord silently drops embeds over 6000 chars. Devlog hook is "
                "https://discord.com/api/webhooks/@DIG19@/@V@"
            ),
        ],
    ),
    Kind(
        "discord_client_secret",
        "tok",
        _h(32, B64U),
        ["Discord OAuth2 app"],
        ["DISCORD_CLIENT_SECRET"],
        "client secret",
        [],
    ),
    Kind(
        "twitch_client_secret",
        "tok",
        _h(30, LALNUM),
        ["Twitch app"],
        ["TWITCH_CLIENT_SECRET"],
        "client secret",
        [
            (
                '$ curl -X POST "https://id.twitch.tv/oauth2/token?client_id=@LAN30@&client_secret='
                '@V@&grant_type=client_credentials"'
            ),
        ],
    ),
    Kind(
        "twitch_access_token",
        "tok",
        _h(30, LALNUM),
        ["Twitch chat bot"],
        ["TWITCH_OAUTH_TOKEN", "TWITCH_ACCESS_TOKEN"],
        "user access token",
        [
            '{"access_token":"@V@","expires_in":@DIG5@,"token_type":"bearer"}',
            "PASS oauth:@V@\nNICK @USER@bot\nJOIN #@USER@",
        ],
        H="api.twitch.tv",
    ),
    Kind(
        "youtube_api_key",
        "tok",
        _p(("AI", "za"), 35, B64U),
        ["YouTube Data API"],
        ["YOUTUBE_API_KEY", "YT_API_KEY"],
        "API key",
        [
            ("GET https://www.googleapis.com/youtube/v3/search?part=snippet&channelId=UC@BSU22@&maxResults=5&key=@V@"),
        ],
    ),
    Kind(
        "google_oauth_client_secret",
        "tok",
        _p(("GOC", "SPX-"), 28, B64U),
        ["Google OAuth (YouTube uploads)"],
        ["GOOGLE_CLIENT_SECRET", "YOUTUBE_CLIENT_SECRET"],
        "client secret",
        [
            (
                '{"installed":{"client_id":"@DIG12@-@LAN32@.apps.googleusercontent.com",'
                '"project_id":"@PROJ@-uploader","client_secret":"@V@",'
                '"redirect_uris":["http://localhost"]}}'
            ),
        ],
    ),
    Kind(
        "google_oauth_refresh_token",
        "tok",
        v_google_refresh,
        ["YouTube upload bot"],
        ["YOUTUBE_REFRESH_TOKEN", "GOOGLE_REFRESH_TOKEN"],
        "refresh token",
        [
            (
                "$ curl -d client_id=@DIG12@-@LAN32@.apps.googleusercontent.com -d client_secret="
                "$GOOGLE_CLIENT_SECRET -d refresh_token=@V@ -d grant_type=refresh_token "
                "https://oauth2.googleapis.com/token"
            ),
        ],
    ),
    Kind(
        "bunny_api_key",
        "tok",
        v_bunny,
        ["Bunny.net", "bunny.net storage zone"],
        ["BUNNY_API_KEY", "BUNNY_STORAGE_PASSWORD"],
        "AccessKey",
        [
            (
                '$ curl -X PUT --data-binary @build.zip -H "AccessKey: @V@" '
                "https://storage.bunnycdn.com/@PROJ@-builds/@VER@/build.zip"
            ),
            ('$ curl -X POST -H "AccessKey: @V@" https://api.bunny.net/pullzone/@N999999@/purgeCache'),
        ],
    ),
    Kind(
        "fastly_api_token",
        "tok",
        _h(32, B64U),
        ["Fastly"],
        ["FASTLY_API_TOKEN", "FASTLY_API_KEY"],
        "API token",
        [
            ('$ curl -X POST -H "Fastly-Key: @V@" https://api.fastly.com/service/@AN22@/purge_all'),
        ],
    ),
    Kind(
        "cloudflare_api_token",
        "tok",
        _h(40, B64U),
        ["Cloudflare"],
        ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
        "API token",
        [
            'provider "cloudflare" {\n  api_token = "@V@"\n}',
            "# /etc/letsencrypt/cloudflare.ini\ndns_cloudflare_api_token = @V@",
        ],
        H="api.cloudflare.com",
    ),
    Kind(
        "cloudflare_global_api_key",
        "tok",
        _h(37, HEX),
        ["Cloudflare"],
        ["CLOUDFLARE_API_KEY", "CF_API_KEY"],
        "Global API Key",
        [
            (
                '$ curl -H "X-Auth-Email: @USER@@@ORG@.dev" -H "X-Auth-Key: @V@" '
                "https://api.cloudflare.com/client/v4/zones"
            ),
        ],
    ),
    Kind(
        "aws_secret_access_key",
        "tok",
        _h(40, B64),
        ["AWS (Route 53 DNS user)", "AWS IoT provisioning user"],
        ["AWS_SECRET_ACCESS_KEY"],
        "secret access key",
        [
            "[route53-dns]\naws_secret_access_key = @V@\nregion = us-east-1",
            "AWS_SECRET_ACCESS_KEY=@V@ certbot certonly --dns-route53 -d @PROJ@.gg",
        ],
    ),
    Kind(
        "matrix_access_token",
        "tok",
        v_matrix,
        ["Matrix"],
        ["MATRIX_ACCESS_TOKEN"],
        "access token",
        [
            (
                '$ curl -X PUT -H "Authorization: Bearer @V@" -d \'{"msgtype":"m.text","body":'
                '"@PROJ@ @VER@ released"}\' "https://matrix.org/_matrix/client/v3/rooms/'
                '!@AN18@:matrix.org/send/m.room.message/@N99999@"'
            ),
        ],
        H="matrix.org",
    ),
    Kind(
        "zulip_api_key",
        "tok",
        _h(32, ALNUM),
        ["Zulip"],
        ["ZULIP_API_KEY"],
        "API key",
        [
            ("# ~/.zuliprc\n[api]\nemail=release-bot@@ORG@.zulipchat.com\nkey=@V@\nsite=https://@ORG@.zulipchat.com"),
            (
                "$ curl -X POST https://@ORG@.zulipchat.com/api/v1/messages -u "
                "release-bot@@ORG@.zulipchat.com:@V@ --data-urlencode type=stream"
            ),
        ],
    ),
    Kind(
        "telegram_bot_token",
        "tok",
        v_telegram,
        ["Telegram", "Telegram garage-alerts"],
        ["TELEGRAM_BOT_TOKEN", "TG_TOKEN"],
        "bot token",
        [
            ('$ curl "https://api.telegram.org/bot@V@/sendMessage?chat_id=-100@DIG10@&text=garage%20door%20open"'),
            'bot = telebot.TeleBot("@V@")',
        ],
    ),
    Kind(
        "mqtt_password",
        "pw",
        pw_url,
        ["Mosquitto", "EMQX", "HiveMQ Cloud"],
        ["MQTT_PASSWORD", "MQTT_PASS"],
        "password",
        [
            "$ mosquitto_pub -h @HOST@ -p 8883 -u @DEV@ -P @V@ -t home/@DEV@/state -m ON",
            ("# Home Assistant secrets.yaml\nmqtt_user: @DEV@\nmqtt_password: @V@\nlatitude: 59.3@DIG3@"),
            "broker url: mqtts://@DEV@:@V@@hivemq-eu.s2.eu.hivemq.cloud:8883",
            'mqtt:\n  broker: @HOST@\n  username: @DEV@\n  password: "@V@"',
            ('opts := mqtt.NewClientOptions().AddBroker("tcp://@HOST@:1883").SetUsername("@DEV@").SetPassword("@V@")'),
            (
                "$ mosquitto_sub -v -h @HOST@ -u @DEV@ -P '@V@' -t 'home/#'\nhome/@DEV@/temp "
                "21.@N9@\nhome/@DEV@/state ON"
            ),
        ],
    ),
    Kind(
        "emqx_api_secret",
        "tok",
        _h(48, ALNUM),
        ["EMQX"],
        ["EMQX_API_SECRET"],
        "API secret",
        ["$ curl -u @HEX16@:@V@ http://@HOST@:18083/api/v5/clients"],
    ),
    Kind(
        "rsa_private_key",
        "blk",
        v_rsa_key,
        ["AWS IoT thing", "device"],
        ["DEVICE_PRIVATE_KEY"],
        "device private key",
        [
            "$ cat certs/@DEV@-private.pem.key\n@V@",
            "Downloaded from AWS IoT console for @DEV@ (certificate id @HEX64@):\n@V@",
        ],
    ),
    Kind(
        "azure_iot_shared_access_key",
        "tok",
        v_azure_key,
        ["Azure IoT Hub"],
        ["IOTHUB_SHARED_ACCESS_KEY", "AZURE_IOT_DEVICE_KEY"],
        "SharedAccessKey",
        [
            "HostName=@WORD@-hub.azure-devices.net;DeviceId=@DEV@;SharedAccessKey=@V@",
            (
                'export IOTHUB_DEVICE_CONNECTION_STRING="HostName=@WORD@-hub.azure-devices.net;'
                'DeviceId=@DEV@;SharedAccessKey=@V@"'
            ),
            (
                '"connectionString": "HostName=@WORD@-iot.azure-devices.net;SharedAccessKeyName='
                'iothubowner;SharedAccessKey=@V@"'
            ),
        ],
    ),
    Kind(
        "azure_iot_sas_signature",
        "spec",
        v_azure_sig,
        ["Azure IoT Hub"],
        ["IOTHUB_SAS"],
        "SAS token",
        [
            ("SharedAccessSignature sr=@WORD@-hub.azure-devices.net%2Fdevices%2F@DEV@&sig=@V@&se=17@DIG8@"),
            (
                "POST /devices/@DEV@/messages/events?api-version=2021-04-12 HTTP/1.1\n"
                "Host: @WORD@-hub.azure-devices.net\nAuthorization: SharedAccessSignature "
                "sr=@WORD@-hub.azure-devices.net%2Fdevices%2F@DEV@&sig=@V@&se=17@DIG8@"
            ),
            (
                '$ mosquitto_pub -h @WORD@-hub.azure-devices.net -p 8883 -i @DEV@ -u "@WORD@-hub.'
                'azure-devices.net/@DEV@/?api-version=2021-04-12" -P "SharedAccessSignature '
                'sr=@WORD@-hub.azure-devices.net%2Fdevices%2F@DEV@&sig=@V@&se=17@DIG8@" '
                "-t devices/@DEV@/messages/events/ -m '{\"t\":21}'"
            ),
            (
                "SAS token for @DEV@ (valid 1 year): SharedAccessSignature sr=@WORD@-hub.azure-"
                "devices.net%2Fdevices%2F@DEV@&sig=@V@&se=17@DIG8@"
            ),
            (
                "Token SAS untuk @DEV@: SharedAccessSignature sr=@WORD@-hub.azure-devices.net%2F"
                "devices%2F@DEV@&sig=@V@&se=17@DIG8@&skn=device"
            ),
            (
                '#define IOT_SAS "SharedAccessSignature sr=@WORD@-hub.azure-devices.net%2Fdevices'
                '%2F@DEV@&sig=@V@&se=17@DIG8@"'
            ),
        ],
    ),
    Kind(
        "particle_access_token",
        "tok",
        _h(40, HEX),
        ["Particle"],
        ["PARTICLE_ACCESS_TOKEN", "PARTICLE_TOKEN"],
        "access token",
        [
            ("$ curl https://api.particle.io/v1/devices/@HEX24@/relay -d arg=on -d access_token=@V@"),
        ],
        H="api.particle.io",
    ),
    Kind(
        "home_assistant_token",
        "tok",
        v_ha_token,
        ["Home Assistant"],
        ["HASS_TOKEN", "HA_TOKEN"],
        "long-lived access token",
        [
            (
                "rest_command:\n  garage_toggle:\n    url: http://ha.home.arpa:8123/api/services/"
                'cover/toggle\n    headers:\n      authorization: "Bearer @V@"'
            ),
            "# secrets.yaml\nha_api_token: @V@\nlatitude: 59.3@DIG3@",
        ],
        H="ha.home.arpa:8123",
    ),
    Kind(
        "tuya_access_secret",
        "tok",
        _h(32, LALNUM),
        ["Tuya IoT Platform"],
        ["TUYA_ACCESS_SECRET", "TUYA_API_SECRET"],
        "Access Secret",
        [
            (
                "tinytuya wizard\n  Existing API Key found in tinytuya.json, keep it? Y\n  Enter API Secret from "
                "tuya.com: @V@\n  Enter Region: eu"
            ),
        ],
    ),
    Kind(
        "wifi_password",
        "pw",
        lambda r: r.choice([pw_human, pw_phrase])(r),
        ["Wi-Fi (IoT VLAN)", "garage Wi-Fi"],
        ["WIFI_PASSWORD", "WIFI_PSK"],
        "password",
        [
            'network={\n    ssid="@WORD@-net"\n    psk="@V@"\n    key_mgmt=WPA-PSK\n}',
            '# secrets.yaml\nwifi_ssid: "@WORD@-IoT"\nwifi_password: "@V@"',
            ("$ nmcli dev wifi connect @WORD@-5G password @V@\nDevice 'wlan0' successfully activated"),
            "Пароль от Wi-Fi в гараже (сеть @WORD@-IoT): @V@",
            "كلمة مرور الواي فاي للشبكة @WORD@-IoT هي @V@",
        ],
    ),
    Kind(
        "device_admin_password",
        "pw",
        pw_url,
        ["router admin page", "porch camera", "NAS web UI", "OctoPrint"],
        ["ADMIN_PASSWORD", "CAM_PASSWORD"],
        "admin password",
        [
            "rtsp://admin:@V@@@IP@:554/Streaming/Channels/101",
            '# secrets.yaml\nporch_cam_user: admin\nporch_cam_password: "@V@"',
            "camera:\n  - platform: generic\n    stream_source: rtsp://admin:@V@@@IP@:554/stream1",
        ],
    ),
    Kind(
        "tailscale_auth_key",
        "tok",
        lambda r: v_tailscale(r, "auth"),
        ["Tailscale"],
        ["TS_AUTHKEY", "TAILSCALE_AUTHKEY"],
        "auth key",
        ["$ sudo tailscale up --authkey=@V@ --advertise-tags=tag:iot --ssh"],
    ),
    Kind(
        "tailscale_api_key",
        "tok",
        lambda r: v_tailscale(r, "api"),
        ["Tailscale"],
        ["TAILSCALE_API_KEY"],
        "API access token",
        ['$ curl -u "@V@:" https://api.tailscale.com/api/v2/tailnet/-/devices'],
        H="api.tailscale.com",
    ),
    Kind(
        "postgres_password",
        "pw",
        pw_url,
        ["game backend Postgres", "leaderboard DB"],
        ["POSTGRES_PASSWORD", "PGPASSWORD"],
        "password",
        [
            "DATABASE_URL=postgres://@WORD@:@V@@db.pixelforge.dev:5432/@WORD@",
            "postgresql://leaderboard:@V@@@IP@:5432/scores?sslmode=require",
            "# ~/.pgpass\ndb.pixelforge.dev:5432:scores:leaderboard:@V@",
        ],
    ),
    Kind(
        "redis_password",
        "pw",
        pw_url,
        ["Redis (matchmaking)"],
        ["REDIS_PASSWORD"],
        "password",
        [
            "REDIS_URL=redis://default:@V@@@HOST@:6379/0",
            "# redis.conf\nbind 0.0.0.0\nrequirepass @V@",
            (
                "$ redis-cli -h @HOST@ -a @V@ ping\nWarning: Using a password with '-a' option on "
                "the command line interface may not be safe.\nPONG"
            ),
        ],
    ),
    Kind(
        "openssh_private_key",
        "blk",
        v_openssh_key,
        ["deploy key", "build box SSH key"],
        ["DEPLOY_KEY", "SSH_PRIVATE_KEY"],
        "private key",
        ["$ cat ~/.ssh/id_ed25519_deploy\n@V@"],
    ),
    Kind(
        "jwt_signing_secret",
        "tok",
        _h(64, HEX),
        ["game API JWT signing", "session tokens"],
        ["JWT_SECRET", "SESSION_SIGNING_KEY"],
        "signing secret",
        [],
    ),
    Kind(
        "stripe_secret_key",
        "tok",
        v_stripe,
        ["Stripe (studio merch shop)"],
        ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"],
        "secret key",
        ["$ curl https://api.stripe.com/v1/charges -u @V@: -d amount=1999 -d currency=eur"],
        H="api.stripe.com",
    ),
    Kind(
        "vault_token",
        "tok",
        v_vault,
        ["Vault"],
        ["VAULT_TOKEN"],
        "token",
        [
            ("$ VAULT_ADDR=https://vault.lab.lan:8200 VAULT_TOKEN=@V@ vault kv get secret/@PROJ@/release"),
        ],
        H="vault.lab.lan:8200",
    ),
    Kind(
        "age_secret_key",
        "tok",
        v_age,
        ["sops", "age (sops)"],
        ["SOPS_AGE_KEY"],
        "age secret key",
        ["# created: @DATE@T@TS@Z\n# public key: age1@BECH58@\n@V@"],
    ),
    Kind(
        "docker_config_auth",
        "spec",
        v_docker_auth,
        ["Docker registry"],
        ["DOCKER_AUTH"],
        "auth",
        [
            ('{\n  "auths": {\n    "https://index.docker.io/v1/": {\n      "auth": "@V@"\n    }\n  }\n}'),
            '{"auths":{"ghcr.io":{"auth":"@V@"}}}',
            (
                '$ cat ~/.docker/config.json\n{\n\t"auths": {\n\t\t"registry.gitlab.com": {\n'
                '\t\t\t"auth": "@V@"\n\t\t}\n\t}\n}'
            ),
            'DOCKER_AUTH_CONFIG=\'{"auths":{"registry.pixelforge.dev":{"auth":"@V@"}}}\'',
            (
                "Note: CI pulls from the private registry with this config.json -> "
                '{"auths": {"registry.pixelforge.dev": {"auth": "@V@"}}}'
            ),
            (
                "Lesson: the GitLab runner needs DOCKER_AUTH_CONFIG; the auth field for "
                "registry.pixelforge.dev is @V@ (base64 of user:pass)."
            ),
            "[@TS@] debug: docker config loaded, auths[ghcr.io].auth=@V@",
            "Ghi chú: chuỗi auth Docker cho ghcr.io là @V@, đừng commit.",
            (
                '$ kubectl get secret regcred -o jsonpath="{.data.\\.dockerconfigjson}" | base64 -d\n'
                '{"auths":{"ghcr.io":{"username":"@USER@","auth":"@V@"}}}'
            ),
        ],
    ),
    Kind(
        "sentry_auth_token",
        "tok",
        _p(("sntr", "yu_"), 64, HEX),
        ["Sentry (sentry-cli)"],
        ["SENTRY_AUTH_TOKEN"],
        "auth token",
        ["# .sentryclirc\n[auth]\ntoken=@V@\n\n[defaults]\norg=@ORG@\nproject=@PROJ@"],
        H="sentry.io",
    ),
    Kind(
        "codecov_token",
        "tok",
        uuid4,
        ["Codecov"],
        ["CODECOV_TOKEN"],
        "upload token",
        [
            "- uses: codecov/codecov-action@v4\n  with:\n    token: @V@\n    files: ./lcov.info",
            "$ ./codecov -t @V@ -f coverage.xml\n[info] Uploading...",
        ],
    ),
    Kind(
        "gitea_access_token",
        "tok",
        _h(40, HEX),
        ["Gitea", "Forgejo (Woodpecker forge)"],
        ["GITEA_TOKEN", "FORGEJO_TOKEN"],
        "access token",
        [
            ('$ curl -H "Authorization: token @V@" https://git.lab.lan/api/v1/repos/@ORG@/@PROJ@/releases'),
        ],
    ),
    Kind(
        "android_keystore_password",
        "pw",
        pw_any,
        ["Android upload keystore"],
        ["KEYSTORE_PASSWORD", "ANDROID_KEYSTORE_PASSWORD"],
        "store password",
        [
            "storePassword=@V@\nkeyAlias=upload\nstoreFile=../upload-keystore.jks",
            (
                "$ keytool -list -keystore upload-keystore.jks -storepass @V@\n"
                "Keystore type: PKCS12\nYour keystore contains 1 entry"
            ),
        ],
    ),
]


# ---------------------------------------------------------------------------------------------
# look-alikes: texts without any credential
# ---------------------------------------------------------------------------------------------
L_TPL = [
    # commits, hashes, checksums
    "Fixed in @HEX40@ (backport of #@ISSUE@). Cherry-pick onto release/@VER@ if needed.",
    (
        "$ git log --oneline -3\n@HEX7@ bump @PROJ@ to @VER@\n@HEX7@ ci: cache cargo registry\n"
        "@HEX7@ fix(mqtt): reconnect backoff"
    ),
    (
        "$ sha256sum dist/*\n@HEX64@  dist/@PROJ@-@VER@-x86_64-linux.tar.gz\n"
        "@HEX64@  dist/@PROJ@-@VER@-aarch64-darwin.tar.gz"
    ),
    (
        '"node_modules/@WORD@-utils": {\n  "version": "@VER@",\n  "resolved": "https://registry.'
        'npmjs.org/@WORD@-utils/-/@WORD@-utils-@VER@.tgz",\n  "integrity": "sha512-@BB64@"\n}'
    ),
    (
        '[[package]]\nname = "@WORD@"\nversion = "@VER@"\nsource = "registry+https://github.com/'
        'rust-lang/crates.io-index"\nchecksum = "@HEX64@"'
    ),
    (
        "$ docker pull ghcr.io/@ORG@/@PROJ@:@VER@\n@VER@: Pulling from @ORG@/@PROJ@\n"
        "Digest: sha256:@HEX64@\nStatus: Downloaded newer image for ghcr.io/@ORG@/@PROJ@:@VER@"
    ),
    "version https://git-lfs.github.com/spec/v1\noid sha256:@HEX64@\nsize @DIG8@",
    (
        "github.com/eclipse/paho.mqtt.golang v1.4.@N9@ h1:@BB32@\n"
        "github.com/eclipse/paho.mqtt.golang v1.4.@N9@/go.mod h1:@BB32@"
    ),
    (
        '"@WORD@@^@VER@":\n  version "@VER@"\n  resolved "https://registry.yarnpkg.com/@WORD@/-/'
        '@WORD@-@VER@.tgz#@HEX40@"\n  integrity sha512-@BB64@'
    ),
    (
        '"Newtonsoft.Json": {\n  "type": "Direct",\n  "requested": "[13.0.@N9@, )",\n'
        '  "resolved": "13.0.@N9@",\n  "contentHash": "@BB64@"\n}'
    ),
    "$ cat @PROJ@-@VER@.jar.sha1\n@HEX40@\n$ cat @PROJ@-@VER@.jar.md5\n@HEX32@",
    (
        "Artifact @PROJ@-dist (id @DIG10@) digest sha256:@HEX64@ from run "
        "https://github.com/@ORG@/@PROJ@/actions/runs/@DIG11@"
    ),
    (
        "npm notice @PROJ@@@VER@\nnpm notice shasum: @HEX40@\nnpm notice integrity: sha512-@BSF20@"
        "[...]@BSF10@==\nnpm notice total files: @N99@"
    ),
    ('{"version":"@VER@","url":"https://ota.pixelforge.dev/@DEV@/@VER@.bin","sha256":"@HEX64@","sig":"@BB64@"}'),
    "X-Hub-Signature-256: sha256=@HEX64@\nX-GitHub-Delivery: @UUID@\nX-GitHub-Event: release",
    (
        "Twitch-Eventsub-Message-Id: @UUID@\nTwitch-Eventsub-Message-Signature: sha256=@HEX64@\n"
        "Twitch-Eventsub-Message-Type: notification"
    ),
    "payload hex: @HEX48@ crc32=0x@HEX8@ (frame @N999@ from @DEV@)",
    # ids
    ("[@TS@] WARN  upstream timeout request_id=@UUID@ path=/v1/leaderboard/@N999@ took=@N9000@ms"),
    'HTTP/2 403\ncf-ray: @HEX16@-ARN\nx-request-id: @UUID@\netag: W/"@HEX32@"',
    'GET /builds/latest.json HTTP/1.1\nIf-None-Match: "@HEX32@"\n\nHTTP/1.1 304 Not Modified',
    "Crash report: Sentry event @HEX32@ in release @PROJ@@@VER@, minidump @UUID@.dmp",
    (
        "System.InvalidOperationException: Session @UUID@ already closed\n   at Lanternfall.Net."
        "Lobby.Leave() in Lobby.cs:line @N300@\n   at Lanternfall.UI.Menu.OnQuit()"
    ),
    (
        "   0: 0x@HEX12@ - std::panicking::begin_panic\n   1: 0x@HEX12@ - @WORD@::net::mqtt::"
        "connect\n   2: 0x@HEX12@ - @WORD@::main"
    ),
    "Build failed: https://buildkite.com/@ORG@/@PROJ@/builds/@N9999@#@UUID@",
    (
        '{"cell_type": "code", "execution_count": @N99@, "id": "@HEX8@", "metadata": {}, '
        '"outputs": [], "source": ["df.describe()"]}'
    ),
    (
        "Tried @ORG@/@WORD@-7b-instruct for NPC dialogue; run id @LAN8@ in wandb project "
        "@PROJ@-npc, checkpoint step @DIG5@."
    ),
    ("fileFormatVersion: 2\nguid: @HEX32@\nMonoImporter:\n  externalObjects: {}\n  serializedVersion: 2"),
    (
        "<PropertyGroup>\n  <ProjectGuid>{@UUID@}</ProjectGuid>\n  <RootNamespace>Lanternfall"
        "</RootNamespace>\n</PropertyGroup>"
    ),
    (
        '[gd_scene load_steps=4 format=3 uid="uid://@LAN13@"]\n\n[ext_resource type="Script" '
        'uid="uid://@LAN13@" path="res://player.gd" id="1_@LAN5@"]'
    ),
    "Workshop items to whitelist for the @WORD@ event: @DIG10@, @DIG10@, @DIG10@",
    (
        'app_build_@DIG7@.vdf:\n"AppBuild"\n{\n  "AppID" "@DIG7@"\n  "Desc" "@PROJ@ @VER@"\n'
        '  "Depots"\n  {\n    "@DIG7@" "depot_build_@DIG7@.vdf"\n  }\n}'
    ),
    "Banned cheater 7656119@DIG10@ (reported by 7656119@DIG10@) from leaderboard @N99@.",
    ("EOS: ProductId @HEX32@, SandboxId @HEX32@, DeploymentId @HEX32@ (ids only; the client secret is in 1Password)."),
    'PlayFabSettings.staticSettings.TitleId = "@UHEX5@"; // title id is public',
    "guild_id: @DIG19@\nchannel_id: @DIG19@\nrole_id: @DIG18@",
    "Trailer: https://www.youtube.com/watch?v=@BSU11@ (channel UC@BSU22@)",
    (
        "$ butler status @USER@/@PROJ@:windows\n| CHANNEL | UPLOAD   | BUILD    | VERSION |\n"
        "| windows | #@DIG7@ | √ #@DIG6@ | @VER@ |"
    ),
    "Room !@AN18@:matrix.org, event $@BSU43@ redacted by @@USER@:matrix.org",
    "TELEGRAM_CHAT_ID=-100@DIG10@ # group for garage alerts; bot token is in HA secrets",
    'Particle Photon 2 "@DEV@" device id @HEX24@, firmware @VER@, last heard @DATE@',
    "DHCP leases:\n@MAC@  @IP@  @DEV@\n@MAC@  @IP@  @WORD@-sensor",
    'home/@DEV@/@HEX12@/state {"rssi":-@N90@,"uptime":@DIG6@,"fw":"@VER@"}',
    (
        '$ aws iot list-certificates\n{"certificates":[{"certificateArn":"arn:aws:iot:'
        'eu-west-1:@DIG12@:cert/@HEX64@","certificateId":"@HEX64@","status":"ACTIVE"}]}'
    ),
    "Tuya devices: @DEV@ id=bf@LAN20@ ip=@IP@ ver=3.3 (online)",
    "@DEV@.tail@HEX4@.ts.net (100.@N127@.@N250@.@N250@) has been offline since @DATE@",
    "Submission ID: @UUID@\n  status: Accepted\nteam id @UAN10@, bundle com.pixelforge.@WORD@",
    ("App Store Connect API: key id @UAN10@, issuer id @UUID@ (the .p8 itself lives in the CI secret store)"),
    (
        "DEVELOPMENT_TEAM = @UAN10@;\nPRODUCT_BUNDLE_IDENTIFIER = com.pixelforge.@WORD@;\n"
        'CODE_SIGN_IDENTITY = "Developer ID Application";'
    ),
    ("CLOUDFLARE_ZONE_ID=@HEX32@\nCLOUDFLARE_ACCOUNT_ID=@HEX32@\n# token comes from the secret store"),
    (
        "$ fastly service-version activate --service-id @AN22@ --version @N40@\n"
        "SUCCESS: Activated service @AN22@ version @N40@"
    ),
    ("$ aws route53 list-resource-record-sets --hosted-zone-id Z@UAN13@ --query \"ResourceRecordSets[?Type == 'A']\""),
    "Bunny pull zone @N999999@ (@PROJ@-cdn.b-cdn.net) purged at @TS@, @N99@ files",
    # keys / fingerprints / public values
    (
        "$ gpg --list-keys --keyid-format long\npub   ed25519/@UHEX16@ @DATE@ [SC]\n"
        "      @UHEX40@\nuid                 [ultimate] @USER@ <@USER@@@ORG@.dev>\n"
        "sub   cv25519/@UHEX16@ @DATE@ [E]"
    ),
    (
        "signing.keyId=@UHEX8@\nsigning.password=${System.env.SIGNING_PASSWORD}\n"
        "# the secret keyring lives in the CI secret store"
    ),
    ("Add this deploy key to the repo (read-only):\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI@BSF43@ deploy@@PROJ@"),
    (
        "The authenticity of host '@HOST@ (@IP@)' can't be established.\nED25519 key fingerprint "
        "is SHA256:@BSF43@.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?"
    ),
    ("DISCORD_APPLICATION_ID=@DIG19@\nDISCORD_PUBLIC_KEY=@HEX64@  # verifies interaction signatures, public"),
    '$ tailscale status --json | jq .Self.PublicKey\n"nodekey:@HEX64@"',
    "[Peer]\nPublicKey = @BB32@\nAllowedIPs = 10.8.0.@N250@/32\nEndpoint = @HOST@:51820",
    (
        "> signtool sign /sha1 @UHEX40@ /fd SHA256 /tr http://timestamp.sectigo.com /td SHA256 "
        "@PROJ@.exe\nSuccessfully signed: @PROJ@.exe"
    ),
    (
        "PS> Get-AuthenticodeSignature .\\@PROJ@.exe | fl\nSignerCertificate : [Subject]\n"
        "  CN=@ORG@\n\n  [Thumbprint]\n  @UHEX40@\nStatus            : Valid"
    ),
    ("dotnet nuget trust author @ORG@ --certificate-fingerprint @UHEX64@ --hash-algorithm SHA256"),
    "creation_rules:\n  - path_regex: secrets/.*\\.yaml$\n    age: age1@BECH58@",
    "GOOGLE_CLIENT_ID=@DIG12@-@LAN32@.apps.googleusercontent.com  # public, fine to commit",
    "TWITCH_CLIENT_ID=@LAN30@\nTWITCH_CLIENT_SECRET=${TWITCH_CLIENT_SECRET:?missing}",
    ('Sentry.init({ dsn: "https://@HEX32@@o@DIG6@.ingest.sentry.io/@DIG7@", release: "@PROJ@@@VER@" });'),
    ('docsearch({ appId: "@UAN10@", apiKey: "@HEX32@", indexName: "@PROJ@" }); // search-only key, public'),
    '<div class="cf-turnstile" data-sitekey="0x4AAAAAAA@BSU14@"></div>',
    "RECAPTCHA_SITE_KEY=6L@BSU38@  # public site key used on the signup form",
    # references to where secrets live
    (
        "      - run: cargo publish -p @PROJ@ # @VER@\n        env:\n          CARGO_REGISTRY_TOKEN: "
        "${{ secrets.CARGO_REGISTRY_TOKEN }}"
    ),
    (
        'release:\n  script:\n    - echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > .npmrc'
        "\n    - npm publish --tag @WORD@  # @DATE@"
    ),
    "$ vault kv get -field=api_key secret/games/@PROJ@/steam  # checked @DATE@ @TS@",
    'export CARGO_REGISTRY_TOKEN="$(pass show registries/crates-io)"  # in ~/.config/@PROJ@/env since @DATE@',
    "mqtt_user: @DEV@\nmqtt_password: \"{{ lookup('env', 'MQTT_PASSWORD') }}\"\nmqtt_port: @PORT@",
    (
        "env:\n  - name: STEAM_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: "
        "@PROJ@-secrets-@N99@\n        key: steam-api-key"
    ),
    "FROM node:@N22@-alpine\nRUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci && npm run build:@WORD@",
    (
        '# @PROJ@ dns, @DATE@\nvariable "cloudflare_api_token" {\n  type      = string\n  sensitive = true\n}\n\n'
        'provider "cloudflare" {\n  api_token = var.cloudflare_api_token\n}'
    ),
    'steam_key = Variable.get("steam_web_api_key")  # dag @PROJ@_stats_@N99@',
    'token = dbutils.secrets.get(scope="@PROJ@", key="playfab-secret-@N9@")',
    ("TS_AUTHKEY=op://Homelab/tailscale/authkey\n$ op run --env-file=.env -- ./provision.sh @DEV@ @IP@"),
    "secret arn: arn:aws:secretsmanager:eu-north-1:@DIG12@:secret:@PROJ@/mqtt-@AN6@",
    ("@Microsoft.KeyVault(SecretUri=https://@WORD@-kv.vault.azure.net/secrets/IotHubKey/@HEX32@)"),
    "$ gcloud secrets versions access @N9@ --secret=@PROJ@-discord-token --project=@PROJ@-prod",
    (
        "# @DEV@.yaml (esphome @VER@)\nwifi:\n  ssid: !secret wifi_ssid\n  password: !secret wifi_password\nota:\n"
        "  password: !secret ota_password"
    ),
    "publish:\n\tCARGO_REGISTRY_TOKEN=$$(cat ~/.secrets/crates-io) cargo publish -p @PROJ@ --no-verify  # @VER@",
    (
        "[Service]\nLoadCredential=mqtt-password:/etc/credstore/mqtt-password\nExecStart=/usr/bin/"
        "@PROJ@ --broker @HOST@ --password-file ${CREDENTIALS_DIRECTORY}/mqtt-password"
    ),
    'xcrun notarytool submit @PROJ@.dmg --keychain-profile "notary-@ORG@" --wait',
    ('security find-generic-password -s "@PROJ@-signing-@N9@" -a ci -w  # prints the pfx password at runtime'),
    ('curl -H "Authorization: Bearer $HASS_TOKEN" http://ha.home.arpa:8123/api/states/sensor.@WORD@_temp'),
    ('curl -u "$JENKINS_USER:$JENKINS_API_TOKEN" -X POST https://jenkins.lab.lan/job/@PROJ@/build?delay=@N60@sec'),
    "cat ~/.config/dockerhub.token | docker login -u @ORG@ --password-stdin\nLogin Succeeded\n$ docker push @ORG@/@PROJ@:@VER@",
    "REDIS_URL=redis://default:${REDIS_PASSWORD}@@HOST@:6379/@N9@",
    ("STEAM_API_KEY=\nPLAYFAB_SECRET=\nDISCORD_TOKEN=\n# fill these in locally (@PROJ@), never commit (@VER@)"),
    (
        "# PyPI trusted publishing for @PROJ@, no token needed since @DATE@\npermissions:\n  id-token: write\nsteps:\n"
        "  - uses: pypa/gh-action-pypi-publish@release/v1"
    ),
    # placeholders and masked values
    "TELEGRAM_BOT_TOKEN=<your-bot-token>\nTELEGRAM_CHAT_ID=-100@DIG10@",
    ("Default admin password for the @DEV@ image (fw @VER@) is `changeme`; the first-boot wizard forces a new one."),
    "| `MQTT_PASSWORD` | `changeme` | Password for the broker user on @HOST@:@PORT@ (change it!) |",
    ("[@TS@] Run cargo publish --token ***\n[@TS@]     Updating crates.io index\n[@TS@]    Uploading @PROJ@ v@VER@"),
    ("POST /api/v1/upload HTTP/1.1\nHost: @HOST@\nAuthorization: Bearer ********\nContent-Length: @DIG5@"),
    ("DATABASE_URL=postgres://leaderboard:****@db.pixelforge.dev:5432/scores  # from @DATE@ log, masked"),
    ("HostName=@WORD@-hub.azure-devices.net;DeviceId=@DEV@;SharedAccessKey=<primary key from portal>"),
    (
        "Set DISCORD_WEBHOOK_URL to https://discord.com/api/webhooks/<id>/<token> (Server "
        "Settings > Integrations > Webhooks) for the @PROJ@ bot, channel @DIG19@."
    ),
    ("The crates.io token ending in ...@AN4@ expires on @DATE@; generate a new one with the publish-update scope."),
    ("Password rules for the studio SSO (@DATE@): min @N20@ chars, no reuse of the last 5, rotate every 90 days."),
    (
        "$ openssl pkcs12 -export -out codesign-@N99@.pfx -inkey key.pem -in cert.pem\n"
        "Enter Export Password:\nVerifying - Enter Export Password:"
    ),
    # tool output without secrets
    (
        "   Packaging @PROJ@ v@VER@\n   Verifying @PROJ@ v@VER@\n   Uploading @PROJ@ v@VER@\n"
        "   Published @PROJ@ v@VER@ at registry `crates-io`"
    ),
    (
        "twine upload dist/@PROJ@-@VER@* (password comes from keyring: keyring set "
        "https://upload.pypi.org/legacy/ __token__)"
    ),
    ('$ mosquitto_sub -h @HOST@ -t "home/#" -v --cafile ca.crt\nhome/@DEV@/temp 2@N9@.@N9@\nhome/@DEV@/humidity @N90@'),
    (
        "$ cosign verify --certificate-identity-regexp '^https://github.com/@ORG@/' "
        "ghcr.io/@ORG@/@PROJ@@sha256:@HEX64@\nVerification for ghcr.io/@ORG@/@PROJ@ --\n"
        "  - The cosign claims were validated\n  - The signatures were verified against the "
        "specified public key\ntlog entry logIndex: @DIG9@"
    ),
    '{"encrypted_value":"@BB80@","key_id":"@DIG19@"}  <- what gh secret set sends (sealed box)',
    # code and data that merely look random
    (
        "local function hash(s)\n  local h = 0x@HEX8@\n  for i = 1, #s do h = (h ~ s:byte(i)) * "
        "0x01000193 end\n  return h\nend"
    ),
    'palette = ["#@HEX6@", "#@HEX6@", "#@HEX6@", "#@HEX6@"]',
    (
        "const WORLD_SEED := 0x@HEX16@\nvar rng := RandomNumberGenerator.new()\n\nfunc _ready():\n"
        "\trng.seed = WORLD_SEED"
    ),
    # more references / ids (CI, streaming, Azure, tunnels)
    (
        "$ cloudflared tunnel list\nID                                   NAME        CREATED\n"
        "@UUID@ @DEV@-tunnel @DATE@T@TS@Z\n@UUID@ @WORD@-lab @DATE@T@TS@Z"
    ),
    (
        "App registration for signing: Application (client) ID @UUID@, Directory (tenant) ID "
        "@UUID@, Object ID @UUID@. Secret is in Key Vault @WORD@-kv."
    ),
    (
        "$ npm token list\n┌────────┬─────────┬────────────┬──────────┐\n│ id     │ token   │ "
        "created    │ readonly │\n├────────┼─────────┼────────────┼──────────┤\n│ @HEX6@ │ "
        "@HEX6@… │ @DATE@ │ no       │\n└────────┴─────────┴────────────┴──────────┘"
    ),
    (
        'withCredentials([string(credentialsId: "steam-api-key-@N9@", variable: "STEAM_KEY")]) '
        '{\n  sh "./upload_stats.sh @PROJ@"\n}'
    ),
    (
        "steps:\n  publish:\n    image: woodpeckerci/plugin-docker-buildx\n    settings:\n"
        "      repo: @ORG@/@PROJ@\n      password:\n        from_secret: docker_password\n"
        "      username: @USER@"
    ),
    (
        "steps:\n  - label: publish\n    command: |\n      export NPM_TOKEN=$$(buildkite-agent "
        "secret get NPM_TOKEN)\n      npm publish   # @PROJ@ @VER@"
    ),
    (
        "  # module.dns.cloudflare_record.@WORD@ will be updated in-place\n  ~ resource "
        '"cloudflare_record" "@WORD@" {\n      ~ api_token = (sensitive value)\n        '
        'zone_id   = "@HEX32@"\n    }'
    ),
    (
        "OBS profile @WORD@: server rtmp://live.twitch.tv/app, stream key stored in the OBS "
        "profile only (not in notes). Bitrate @N9000@ kbps."
    ),
    ("ffmpeg -re -i devlog.mkv -c copy -f flv rtmp://a.rtmp.youtube.com/live2/$YT_STREAM_KEY  # @DATE@"),
    (
        "[@TS@] GITHUB_TOKEN Permissions\n[@TS@]   Contents: write\n[@TS@]   Metadata: read\n"
        "[@TS@] Secret source: Actions\n[@TS@] Prepare workflow directory (run @DIG10@)"
    ),
    (
        "Deploy token username for the @PROJ@ registry is gitlab+deploy-token-@DIG6@; the token "
        "value is in the group CI/CD variables."
    ),
    (
        '$ curl -s https://ntfy.sh/@WORD@-alerts/json?poll=1 | jq -c .\n{"id":"@AN12@",'
        '"time":17@DIG8@,"event":"message","topic":"@WORD@-alerts","message":"door open"}'
    ),
    # other languages
    (
        "Токен для crates.io лежит в 1Password, хранилище «Release», запись crates-io-@N99@ (@DATE@). Сюда "
        "не копировать."
    ),
    ("Ключ Steam Web API тепер у GitHub Secrets як STEAM_API_KEY (@PROJ@), локально через direnv, з @DATE@."),
    ("Mật khẩu Wi-Fi của @DEV@ đã chuyển vào secrets.yaml (!secret wifi_password), không ghi ở đây nữa (@DATE@)."),
    "Token bot Telegram disimpan di Vault: secret/iot/telegram-@N99@ (field: token, @DATE@).",
    'Nyckeln för Bunny ligger i Bitwarden under "CDN / @PROJ@"; rotera efter @DATE@.',
    "مفتاح PlayFab السري محفوظ في متغير البيئة PLAYFAB_SECRET لمشروع @PROJ@ ولا يُكتب هنا (@DATE@).",
]


def _tpl_gen(tpl):
    return lambda r: fill(r, tpl)


def lk_ansible_vault(r):
    lines = [rs(r, 80, "0123456789") if i % 3 else rs(r, 80, HEX) for i in range(r.randint(5, 8))]
    return (
        f"{r.choice(['mqtt_password', 'steam_api_key', 'db_password'])}: !vault |\n"
        "          $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join("          " + ln for ln in lines)
    )


def lk_sops(r):
    return fill(
        r,
        "mqtt_password: ENC[AES256_GCM,data:@BB12@,iv:@BB32@,tag:@BB16@,type:str]\n"
        "sops:\n    age:\n        - recipient: age1@BECH58@\n    lastmodified: "
        '"@DATE@T@TS@Z"\n    mac: ENC[AES256_GCM,data:@BB32@,iv:@BB32@,tag:@BB16@,type:str]',
    )


def lk_bcrypt(r):
    return fill(
        r,
        'users:\n  - name: @USER@\n    password_hash: "$2b$1@N4@$@BCR53@"\n    roles: [admin]',
    )


def lk_argon2(r):
    return fill(
        r,
        "scores=# select id, email, password_hash from players limit 1;\n @N999@ | "
        "@USER@@example.org | $argon2id$v=19$m=65536,t=3,p=4$@BB16@$@BB32@",
    )


def lk_mosq_passwd(r):
    return fill(
        r,
        "$ cat /etc/mosquitto/passwd\n@DEV@:$7$101$@BB12@$@BB64@\n@WORD@-sensor:$7$101$@BB12@$@BB64@",
    )


def lk_png(r):
    data = b64(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rbytes(r, r.randint(60, 140)))
    return f'"icon": "data:image/png;base64,{data}"'


def lk_settings_b64(r):
    cfg = {
        "theme": r.choice(["dark", "light"]),
        "volume": r.randint(0, 100) / 100,
        "lang": r.choice(["en", "ru", "uk", "vi", "id", "sv", "ar"]),
        "fov": r.randint(60, 110),
    }
    return f"Player settings blob from save slot {r.randint(1, 5)}: {b64(json.dumps(cfg).encode())}"


def lk_cert(r):
    der = bytes.fromhex("308203") + rbytes(r, r.randint(700, 760))
    return f"AWS IoT device certificate for {r.choice(DEVICES)} (public part):\n" + _pem("CERTIFICATE", der)


def lk_pubkey(r):
    der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + rbytes(r, 64)
    return "$ cat cosign.pub\n" + _pem("PUBLIC KEY", der)


def lk_pgp_pub(r):
    body = b64(bytes.fromhex("9833") + rbytes(r, r.randint(400, 460)))
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    lab = "PGP PUBLIC KEY BLOCK"
    return (
        f"Release signing key for {r.choice(PROJECTS)} (import it to verify tarballs):\n"
        f"{DASH5}BEGIN {lab}{DASH5}\n\n" + "\n".join(lines) + f"\n={b64(rbytes(r, 3))}\n{DASH5}END {lab}{DASH5}"
    )


def lk_gpgsig(r):
    body = b64(rbytes(r, 110))
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    lab = "PGP SIGNATURE"
    return (
        f"commit {rs(r, 40, HEX)}\ntree {rs(r, 40, HEX)}\nauthor {r.choice(USERS)} "
        f"<{r.choice(USERS)}@pixelforge.dev> 17{rs(r, 8, DIG)} +0100\n"
        f"gpgsig {DASH5}BEGIN {lab}{DASH5}\n \n "
        + "\n ".join(lines)
        + f"\n ={b64(rbytes(r, 3))}\n {DASH5}END {lab}{DASH5}\n\n    release {_ver(r)}"
    )


def lk_supabase_anon(r):
    iat = r.randint(1_700_000_000, 1_790_000_000)
    ref = rs(r, 20, LOW)
    jwt = v_jwt(
        r,
        {"iss": "supabase", "ref": ref, "role": "anon", "iat": iat, "exp": iat + 10**9},
    )
    return f"SUPABASE_URL=https://{ref}.supabase.co\nSUPABASE_ANON_KEY={jwt}  # anon key, public (RLS on)"


def lk_aws_doc(r):
    ex = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCY" + "EXAMPLE" + "KEY"
    return fill(
        r,
        "From the AWS CLI docs (@WORD@ section), the sample credentials file uses "
        f"aws_secret_access_key = {ex}; replace with the Route 53 user's key from the vault "
        "(@PROJ@).",
    )


def lk_placeholder_x(r):
    ph = r.choice(
        [
            ("gh" + "p_", 36),
            ("np" + "m_", 36),
            ("glp" + "at-", 20),
            ("dckr" + "_pat_", 27),
        ]
    )
    return fill(
        r,
        f"# example from README of @PROJ@\nTOKEN={ph[0]}{'x' * ph[1]}\n# replace with your own",
    )


def lk_stripe_pk(r):
    return fill(
        r,
        'const stripe = Stripe("p' + 'k_live_@AN24@@AN75@"); // publishable key, safe in the @PROJ@ merch page',
    )


def lk_firebase(r):
    return fill(
        r,
        'const firebaseConfig = {\n  apiKey: "AI' + 'za@BSU35@",\n  authDomain: '
        '"@PROJ@-app.firebaseapp.com",\n  projectId: "@PROJ@-app",\n  appId: '
        '"1:@DIG12@:web:@HEX22@"\n};',
    )


# look-alikes that mirror the positive templates but carry no value (hard negatives)
KIND_LK_TPL = [
    (
        "Note to self: the @S@ @L@ for @PROJ@ releases now lives in the org secrets as @E@ "
        "(created @DATE@, expires in 90 days)."
    ),
    (
        "Lesson: the nightly job broke because @E@ was unset after the runner migration. Re-added "
        "it as an org secret; the value is not stored in notes."
    ),
    ("TODO: rotate the @S@ @L@ after the @VER@ release (current one created @DATE@, kept in 1Password)."),
    (
        "[@TS@] @USER@: anyone have the @S@ @L@ handy?\n[@TS@] @USRB@: it's in the vault under "
        "@SLUG@/@K@, please don't paste it here\n[@TS@] @USER@: ok, found it"
    ),
    (
        "Decision (@DATE@): @PROJ@ gets its own @S@ @L@ instead of my personal account. Stored as "
        "@E@ in CI, never in the repo."
    ),
    (
        "- [ ] rotate @S@ @L@\n- [x] read @E@ from ${{ secrets.@E@ }} in release.yml\n"
        "- [ ] write changelog for @PROJ@ @VER@"
    ),
    "Заметка: @L@ для @S@ перенесён в Vault (secret/@SLUG@/@K@), в заметках больше не храним.",
    "# @S@\n@E@=${@E@:?set it in CI}\nLOG_LEVEL=info",
    "# @S@ (@PROJ@)\n@E@=<paste your @L@ here>\n",
    '{\n  "@K@": null,\n  "project": "@PROJ@",\n  "debug": false\n}',
    (
        'Traceback (most recent call last):\n  File "release.py", line @N300@, in <module>\n'
        '    token = os.environ["@E@"]\n  File "<frozen os>", line 679, in __getitem__\n'
        "KeyError: '@E@'"
    ),
    "$ printenv @E@\n$ echo $?\n1\n$ # @E@ not exported in this shell, @S@ upload skipped",
    ("[@TS@] Run ./scripts/publish.sh\n[@TS@] + @E@=*** ./scripts/publish.sh\n[@TS@] publish ok (@N900@ms)"),
    "Ghi chú: @L@ của @S@ đã được đổi ngày @DATE@, giá trị mới nằm trong GitHub Secrets (@E@).",
    "Anteckning: @S@ @L@ ligger nu i Bitwarden (@SLUG@), inte här. Bytt @DATE@.",
    'const @E@: &str = env!("@E@"); // injected at build time, not committed',
]


def _kind_lk(tpl):
    pool = [k for k in KINDS if k.cat in ("tok", "pw")]

    def gen(r):
        k = r.choice(pool)
        E = r.choice(k.E)
        fixed = {
            "S": r.choice(k.S),
            "E": E,
            "K": E.lower(),
            "L": k.L,
            "SLUG": _slug(k.S[0].split("(")[0]) or "svc",
        }
        return fill(r, tpl, **fixed)

    return gen


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")


_LOOK = (
    [_tpl_gen(t) for t in L_TPL]
    + [_kind_lk(t) for t in KIND_LK_TPL]
    + [
        lk_ansible_vault,
        lk_sops,
        lk_bcrypt,
        lk_argon2,
        lk_mosq_passwd,
        lk_png,
        lk_settings_b64,
        lk_cert,
        lk_pubkey,
        lk_pgp_pub,
        lk_gpgsig,
        lk_supabase_anon,
        lk_aws_doc,
        lk_placeholder_x,
        lk_stripe_pk,
        lk_firebase,
    ]
)


# ---------------------------------------------------------------------------------------------
# generation
# ---------------------------------------------------------------------------------------------
def _positive(r: random.Random, k: Kind) -> tuple[str, str]:
    v = k.gen(r)
    S = r.choice(k.S)
    E = r.choice(k.E)
    K = E.lower()
    P = "".join(w.capitalize() for w in K.split("_"))
    slug = _slug(S.split("(")[0]) or "svc"
    if k.cat == "spec":
        tpl = r.choice(k.sp)
    elif k.cat == "blk":
        tpl = r.choice(k.sp) if k.sp and r.random() < 0.4 else r.choice(T_BLK)
    else:
        x = r.random()
        if k.sp and x < 0.28:
            tpl = r.choice(k.sp)
        elif x < 0.8:
            tpl = r.choice(T_NOTE + (T_PW if k.cat == "pw" else []))
        elif x < 0.91:
            tpl = r.choice(T_CONF)
        else:
            tpl = r.choice(T_OUT + (T_TOK if k.H else []))
    fixed = {
        "S": S,
        "E": E,
        "K": K,
        "P": P,
        "L": k.L,
        "SLUG": slug,
        "H": k.H or "api.local",
    }
    text = fill(r, tpl, **fixed)
    return text.replace("@V@", v), v


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(f"secret-samples-v:{seed}")
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for k in KINDS:
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > PER_KIND * 50:
                raise RuntimeError(f"cannot fill kind {k.name}")
            text, v = _positive(r, k)
            if text in seen:
                continue
            seen.add(text)
            positives.append((text, k.name, v))
            got += 1
    lookalikes: list[str] = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > LOOK_PER_GEN * 200:
                raise RuntimeError(f"look-alike generator {gen!r} is not varied enough")
            text = gen(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
