"""Secret-detector test set AE: a game-server community and a small internet radio / podcast network.

Theme
-----
Memories an AI coding agent keeps for a volunteer who runs Minecraft (Paper, Velocity, BungeeCord,
LuckPerms, CoreProtect, Pterodactyl), Valheim / ARK / Rust / CS2 servers, Discord bots and webhooks,
Steam keys and GSLTs, donations (Tebex, Patreon, Ko-fi, Stripe), Twitch / OBS / YouTube / Restream
streaming, hosting (Cloudflare, Hetzner, OVH, Linode, Bunny, Wasabi/S3, B2) and a radio/podcast side
(Icecast, Shoutcast, AzuraCast, Liquidsoap, Libsyn, Buzzsprout, Transistor, Spotify, Apple Podcasts,
Mastodon, Bluesky, Mailchimp, Ghost, Mailgun, SFTP uploads). Styles: about half short notes, lessons,
runbooks, TODOs, Discord-style chat, forum posts and e-mails (mostly English; some Polish, Russian,
Ukrainian, Dutch, Finnish, Norwegian and Turkish), a quarter config files (server.properties,
velocity.toml, config.yml, paper-global.yml, .env, docker-compose, icecast.xml, liquidsoap, JSON, INI,
systemd) and a quarter tool output (consoles, RCON sessions, bot logs, CLI sessions, container logs,
HTTP dumps).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is the single sensitive value in ``text``
  and an exact substring of it (no surrounding quotes). 30 positives per kind.
* ``lookalikes``: texts with no credential at all; every function in ``_LOOK`` is called until it
  gives ``LOOK_PER_GEN`` distinct texts, so ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (``random.Random`` seeded from the seed only); no duplicate texts at all.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings / basic-auth URLs: the password
  only. PEM / OpenSSH private keys: the whole armoured block, BEGIN line to END line.
* UUID-shaped vendor tokens are secrets only when the text names them as a token/key/secret/password
  (Ko-fi verification token, Bunny storage password).
* Public-by-design values are look-alikes: publishable keys, site keys, Sentry DSNs, OAuth client ids,
  Firebase web apiKeys, Discord application public keys, WireGuard/SSH public keys, Ghost Content API
  keys, VAPID public keys, certificates. Vendor documentation defaults ("hackme", "foobared"),
  placeholders, masked values, references to where a secret lives, encrypted blobs (Ansible vault,
  sops, sealed secrets) and password hashes are look-alikes too.
* Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes are split and bodies are random per seed.
"""

from __future__ import annotations

import base64
import random
import re
import string
import uuid

LOOK_PER_GEN = 12
PER_KIND = 30

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
LODG = LO + DG
HX = "0123456789abcdef"
HXU = "0123456789ABCDEF"
B64 = AN + "+/"
B64U = AN + "-_"


def _rs(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def _uuid(r: random.Random) -> str:
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()


def _wrap(s: str, w: int) -> str:
    return "\n".join(s[i : i + w] for i in range(0, len(s), w))


_WORDS = [
    "tulip",
    "rover",
    "creeper",
    "falcon",
    "nether",
    "obsidian",
    "pixel",
    "jukebox",
    "amber",
    "harbor",
    "static",
    "vinyl",
    "echo",
    "kestrel",
    "maple",
    "comet",
    "lantern",
    "biscuit",
    "tundra",
    "orbit",
    "marble",
    "sprocket",
    "willow",
    "ember",
    "quasar",
    "pretzel",
    "nimbus",
    "dynamo",
    "fjord",
    "kajak",
    "zorza",
    "sauna",
    "polaris",
    "badger",
    "tiger",
    "walrus",
    "glacier",
    "redstone",
    "beacon",
    "anvil",
    "pickaxe",
    "reverb",
    "tuner",
    "antenna",
]


def _pw(r: random.Random, safe: bool = False) -> str:
    k = r.randrange(5)
    sym = "!*-_." if safe else "!*%-_=+^.?"
    if k == 0:
        w = r.choice(_WORDS).capitalize()
        return w + str(r.choice([r.randint(10, 99), r.randint(2015, 2027)])) + r.choice(["!", "*", "!!", ""])
    if k == 1:
        words = r.sample(_WORDS, r.randint(3, 4))
        i = r.randrange(len(words))
        words[i] = words[i].capitalize()
        return r.choice("-._").join(words) + (str(r.randint(1, 99)) if r.random() < 0.6 else "")
    if k == 2:
        base = _rs(r, AN, r.randint(16, 26))
        pos = r.randrange(4, len(base) - 2)
        return base[:pos] + r.choice(sym) + base[pos + 1 :]
    if k == 3:
        a, b = r.choice(_WORDS).capitalize(), r.choice(_WORDS).capitalize()
        return a + r.choice("!*-_.") + b + str(r.randint(1, 999))
    return _rs(r, AN, r.randint(4, 6)) + r.choice(sym) + _rs(r, AN, r.randint(6, 10)) + str(r.randint(0, 9))


# ---------------------------------------------------------------- secret body generators
def _discord_bot(r):
    uid = str(r.randint(10**17, 13 * 10**17))
    head = base64.b64encode(uid.encode()).decode().rstrip("=")
    return head + "." + _rs(r, B64U, 6) + "." + _rs(r, B64U, 38)


def _pem_rsa(r):
    if r.random() < 0.5:
        t, raw = "RSA PRIVATE", b"\x30\x82\x04\xa3\x02\x01\x00\x02\x82\x01\x01\x00"
    else:
        t = "PRIVATE"
        raw = b"\x30\x82\x04\xbd\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00"
    body = base64.b64encode(raw + bytes(r.getrandbits(8) for _ in range(1180))).decode()
    return "-----BEGIN " + t + " KEY-----\n" + _wrap(body, 64) + "\n-----END " + t + " KEY-----"


def _openssh(r):
    raw = (
        b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
        b"\x00\x00\x00\x33\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20"
    )
    body = base64.b64encode(raw + bytes(r.getrandbits(8) for _ in range(r.choice([297, 300, 303])))).decode()
    t = "OPENSSH PRIVATE"
    return "-----BEGIN " + t + " KEY-----\n" + _wrap(body, 70) + "\n-----END " + t + " KEY-----"


def _cf_tunnel(r):
    js = f'{{"a":"{_rs(r, HX, 32)}","t":"{_uuid(r)}","s":"{_b64(r, 32)}"}}'
    return base64.b64encode(js.encode()).decode().rstrip("=")


def _jwt(r, payload):
    def enc(s):
        return base64.urlsafe_b64encode(s.encode()).decode().rstrip("=")

    return enc('{"typ":"JWT","alg":"HS256"}') + "." + enc(payload) + "." + _rs(r, B64U, 43)


def _streamlabs(r):
    return _jwt(
        r,
        f'{{"token":"{_rs(r, HXU, 20)}","read_only":true,"prevent_master":true,"youtube_id":"UC{_rs(r, B64U, 22)}"}}',
    )


def _mailgun(r):
    if r.random() < 0.4:
        return "key" + "-" + _rs(r, HX, 32)
    return _rs(r, HX, 32) + "-" + _rs(r, HX, 8) + "-" + _rs(r, HX, 8)


def _github(r):
    if r.random() < 0.6:
        return "gh" + "p_" + _rs(r, AN, 36)
    return "github" + "_pat_" + "11" + _rs(r, UP + DG, 20) + "_" + _rs(r, AN, 59)


def _stripe(r):
    return r.choice(["sk", "rk"]) + "_live_" + _rs(r, AN, r.choice([24, 99]))


def _telegram(r):
    return str(r.randint(10**8, 7 * 10**9)) + ":" + "AA" + _rs(r, B64U, 33)


def _b2(r):
    return "K00" + r.choice("2345") + _rs(r, AN + "+/", 27)


def _bunny_storage(r):
    return _uuid(r) + "-" + _rs(r, HX, 4) + "-" + _rs(r, HX, 4)


def _bunny_api(r):
    return _uuid(r) + _uuid(r)


# ---------------------------------------------------------------- fillers
_GAME_PLACES = [
    "the survival server",
    "Creative SMP",
    "the Velocity proxy",
    "the Skyblock backend",
    "the lobby",
    "the modded pack server",
    "the Valheim world",
    "the CS2 retake server",
    "the Rust monthly-wipe box",
    "the ARK cluster",
    "node-fsn1",
    "the event server",
]
_RADIO_PLACES = [
    "Radio Nocna Zmiana",
    "the podcast feed",
    "the night-show stream",
    "Kanal 8 FM",
    "the AzuraCast box",
    "the Friday DJ set",
    "Tuesday Tech Talk (podcast)",
    "the relay",
    "Radio Pohjoistuuli",
    "the backup encoder",
]
_INFRA_PLACES = [
    "the Hetzner box",
    "the OVH dedi",
    "the Linode VPS",
    "the status page",
    "the CDN",
    "backups",
    "the community site",
    "the Grafana stack",
    "the mail relay",
]
_NAMES = [
    "Kasia",
    "Dmytro",
    "Sanne",
    "Aino",
    "Eirik",
    "Elif",
    "Marek",
    "Olga",
    "Jonas",
    "Tomek",
    "Pieter",
    "Mehmet",
    "Lena",
    "Sam",
    "Ville",
    "Ingrid",
    "Alex",
    "Oksana",
    "Bram",
    "Zeynep",
]
_NICKS = [
    "blockwizard",
    "dj_static",
    "kestrel77",
    "modbot_fan",
    "Nightowl",
    "xXcreeperXx",
    "pingu",
    "tuner_fi",
    "ravenmod",
    "lagspike",
    "mehmetcan",
    "vinylkat",
    "oksi",
    "brammetje",
]
_SVCS = {
    "game": [
        "velocity",
        "paper-survival",
        "discord-bot",
        "ptero-wings",
        "rcon-bridge",
        "valheim",
        "rust-ds",
        "cs2",
        "ark-island",
    ],
    "radio": [
        "azuracast",
        "icecast",
        "liquidsoap",
        "nowplaying-bot",
        "podcast-uploader",
        "castopod",
        "ghost",
    ],
    "infra": [
        "grafana",
        "backup-job",
        "cf-ddns",
        "status-bot",
        "mailer",
        "mariadb",
        "redis",
    ],
}


def _fields(r: random.Random, grp: str) -> dict:
    places = {"game": _GAME_PLACES, "radio": _RADIO_PLACES, "infra": _INFRA_PLACES}[grp]
    n1, n2 = r.sample(_NAMES, 2)
    k1, k2 = r.sample(_NICKS, 2)
    d = r.randint(1, 28)
    mo = r.randint(1, 12)
    hh, mm, ss = r.randint(0, 23), r.randint(0, 59), r.randint(0, 59)
    return {
        "place": r.choice(places),
        "name": n1,
        "name2": n2,
        "nick": k1,
        "nick2": k2,
        "date": f"2026-{mo:02d}-{d:02d}",
        "time": f"{hh:02d}:{mm:02d}",
        "ts": f"2026-{mo:02d}-{d:02d}T{hh:02d}:{mm:02d}:{ss:02d}.{r.randint(0, 999):03d}Z",
        "clock": f"{hh:02d}:{mm:02d}:{ss:02d}",
        "svc": r.choice(_SVCS[grp]),
        "host": r.choice(["mc", "play", "radio", "stream", "panel", "db", "node1", "cast", "pod"])
        + "."
        + r.choice(
            [
                "blocktopia.net",
                "nocnazmiana.pl",
                "kanal8.fm",
                "pohjoistuuli.fi",
                "craftnook.gg",
                "lagspike.eu",
                "ourradio.nl",
            ]
        ),
        "ip": f"{r.choice([95, 116, 135, 49, 51, 172])}.{r.randint(1, 254)}.{r.randint(1, 254)}.{r.randint(2, 254)}",
        "user": r.choice(
            [
                "minecraft",
                "radio",
                "pterodactyl",
                "azura",
                "luckperms",
                "coreprotect",
                "podcast",
                "mastodon",
                "grafana",
                "steam",
                "admin",
                "dj",
            ]
        ),
        "port": str(r.choice([25565, 25575, 8000, 8080, 3306, 5432, 6379, 2022, 27015, 28016, 2456])),
        "n": str(r.randint(2, 40)),
        "pid": str(r.randint(900, 65000)),
        "ver": f"{r.randint(1, 3)}.{r.randint(0, 21)}.{r.randint(0, 9)}",
    }


# generic templates: roughly half prose, a quarter config, a quarter tool output
_GEN_PROSE = [
    "Note: {label} for {place} is {s} - rotate it after the {date} event.",
    "Lesson learned: never paste the {label} in #general again. Current one (changed {date}): {s}",
    "TODO {date}: move the {label} ({s}) into Vaultwarden and delete this note.",
    "[{time}] {nick}: here's the {label} for {place}: {s}\n[{time}] {nick2}: got it, deleting your msg",
    (
        "Subject: {label} for {place}\n\nHi {name},\n\nas promised, the {label} is:\n\n    {s}\n\n"
        "Please don't forward this.\n\nCheers,\n{name2}"
    ),
    (
        "Re: {place} setup help\n\n> {nick} wrote: what do I put in {var}?\n\nI use {var}={s} and restart "
        "{svc}, works fine since {ver}."
    ),
    (
        "## Runbook: restart {svc}\n1. ssh {user}@{host}\n2. export {var}='{s}'\n3. systemctl restart "
        "{svc}\n4. check logs with journalctl -u {svc} -f"
    ),
    "Decision ({date}): {name} keeps the {label} for {place}. Value for handover: {s}",
    "Notatka: {label} do {place}: {s} (nie udostępniać na Discordzie!)",
    "Заметка: {label} для {place} — {s}. Никому не давать, менял {date}.",
    "Нотатка: {label} для {place}: {s} — змінити після вайпу.",
    "Let op: het {label} voor {place} is {s}, niet delen in de chat.",
    "Muistiinpano: {label} ({place}): {s} - vaihdetaan {date} jälkeen.",
    "Husk: {label} for {place} er {s}. Ikke del den med nye moderatorer.",
    "Not: {place} için {label}: {s} — kimseyle paylaşma.",
    "{name}, quick one before I log off: {label} = {s}. {svc} needs it after the reboot.",
]
_GEN_CFG = [
    "# {place}\n# updated {date} by {name}\n{var}={s}\nLOG_LEVEL=info\n",
    '{section}:\n  enabled: true\n  {key}: "{s}"\n  timeout: 30\n',
    '{{\n  "{section}": {{\n    "{key}": "{s}",\n    "retries": {n}\n  }}\n}}',
    "[{section}]\n{key} = {s}\nverbose = false\n",
    (
        "services:\n  {svc}:\n    image: ghcr.io/example/{svc}:{ver}\n    restart: unless-stopped\n"
        "    environment:\n      - {var}={s}\n      - TZ=Europe/Warsaw\n"
    ),
    (
        '[Unit]\nDescription={svc}\n\n[Service]\nUser={user}\nEnvironment="{var}={s}"\n'
        "ExecStart=/opt/{svc}/run.sh\nRestart=on-failure\n"
    ),
    '[{section}]\n{key} = "{s}"\nport = {port}\n',
]
_GEN_OUT = [
    "$ export {var}={s}\n$ ./{svc} --check-config\n[ok] config valid ({n} entries)",
    "{svc}-1  | {ts} DEBUG loaded settings: {key}={s} port={port}",
    "{ts} [WARN] {svc}: auth failed using {label} '{s}' (attempt {n}/5)",
    "$ printenv | grep -i {grepk}\n{var}={s}",
    "{user}@{host}:~$ cat /etc/{svc}/secret.env\n{var}={s}\n{user}@{host}:~$",
    "[{clock} INFO]: [{svc}] Using {label} {s} for {place}",
]
_GEN_HTTP = [
    "> GET {path} HTTP/1.1\n> Host: {api}\n> {hdr}\n> Accept: application/json\n>\n< HTTP/1.1 200 OK",
    '$ curl -s -H "{hdr}" https://{api}{path} | jq .\n{{\n  "ok": true\n}}',
    "{ts} httpx DEBUG request: GET https://{api}{path} headers={{'{hdrk}': '{hdrv}'}}",
]


class K:
    def __init__(
        self,
        kind,
        gen,
        label,
        var,
        key,
        grp,
        own=(),
        hdr=None,
        api=None,
        path="/",
        section="auth",
        own_ratio=0.4,
        generic=True,
    ):
        self.kind, self.gen, self.label, self.var, self.key = kind, gen, label, var, key
        self.grp, self.own, self.hdr, self.api, self.path = (
            grp,
            list(own),
            hdr,
            api,
            path,
        )
        self.section, self.own_ratio, self.generic = section, own_ratio, generic


def _pwg(safe=False):
    return lambda r: _pw(r, safe)


def _fix(alphabet, n, prefix=""):
    return lambda r: prefix + _rs(r, alphabet, n)


_P = "p" + "t"
KINDS = [
    # ---------------------------------------------------------------- game side
    K(
        "minecraft_rcon_password",
        _pwg(),
        "RCON password",
        "RCON_PASSWORD",
        "rcon.password",
        "game",
        [
            (
                "#Minecraft server properties\nenable-rcon=true\nrcon.port={port}\nrcon.password={s}\n"
                "motd=\\u00a76Blocktopia \\u00a77| survival\nmax-players=60\n"
            ),
            "$ mcrcon -H {host} -P 25575 -p '{s}' \"list\"\nThere are {n} of a max of 60 players online",
            (
                "[{clock}] [RCON Listener #1/INFO]: Thread RCON Listener started\n[{clock}] [Server thread/INFO]: "
                "rcon.password set to {s} (from server.properties)"
            ),
            "rcon:\n  host: {host}\n  port: 25575\n  password: '{s}'\n",
        ],
        section="rcon",
    ),
    K(
        "velocity_forwarding_secret",
        _fix(AN, 12),
        "Velocity forwarding secret",
        "VELOCITY_SECRET",
        "secret",
        "game",
        [
            "proxies:\n  velocity:\n    enabled: true\n    online-mode: true\n    secret: '{s}'\n",
            (
                "# paper-global.yml on every backend\nproxies:\n  bungee-cord:\n    online-mode: true\n"
                "  velocity:\n    enabled: true\n    secret: {s}\n"
            ),
            "$ cat /srv/velocity/forwarding.secret\n{s}\n$ grep forwarding-secret-file velocity.toml",
            (
                "Lesson: backend kicked everyone with 'Unable to verify player details' because paper-global.yml "
                "had the old secret. Correct forwarding secret is {s}."
            ),
        ],
        section="velocity",
    ),
    K(
        "bungeeguard_token",
        _fix(AN, 64),
        "BungeeGuard token",
        "BUNGEEGUARD_TOKEN",
        "allowed-tokens",
        "game",
        [
            "# BungeeGuard config.yml (backend)\nallowed-tokens:\n- {s}\n",
            "# plugins/BungeeGuard/token.yml\ntoken: {s}\n",
        ],
        section="bungeeguard",
    ),
    K(
        "pterodactyl_client_api_key",
        _fix(AN, 43, _P + "lc_"),
        "Pterodactyl client API key",
        "PTERO_CLIENT_KEY",
        "api_key",
        "game",
        [
            (
                "$ curl -s https://{host}/api/client/servers/{short}/resources -H 'Authorization: Bearer {s}' "
                "-H 'Accept: application/json'"
            ),
        ],
        hdr="Authorization: Bearer {s}",
        api="panel.blocktopia.net",
        path="/api/client",
        section="panel",
    ),
    K(
        "pterodactyl_application_api_key",
        _fix(AN, 43, _P + "la_"),
        "Pterodactyl application API key",
        "PTERO_APP_KEY",
        "application_key",
        "game",
        [
            "# ptero-sync.yml\npanel:\n  url: https://{host}\n  application_key: {s}\n  node_id: {n}\n",
        ],
        hdr="Authorization: Bearer {s}",
        api="panel.blocktopia.net",
        path="/api/application/users",
        section="panel",
    ),
    K(
        "pterodactyl_wings_token",
        _fix(AN, 64),
        "Wings node token",
        "WINGS_TOKEN",
        "token",
        "game",
        [
            (
                "debug: false\nuuid: {uuid}\ntoken_id: {tokid}\ntoken: {s}\napi:\n  host: 0.0.0.0\n  port: 8080\n"
                "system:\n  data: /var/lib/pterodactyl/volumes\n"
            ),
            ("$ cat /etc/pterodactyl/config.yml | head -4\ndebug: false\nuuid: {uuid}\ntoken_id: {tokid}\ntoken: {s}"),
        ],
        section="wings",
    ),
    K(
        "discord_bot_token",
        _discord_bot,
        "Discord bot token",
        "DISCORD_TOKEN",
        "token",
        "game",
        [
            'import discord\nclient = discord.Client(intents=discord.Intents.default())\n...\nclient.run("{s}")',
            "[{clock}] [bot] logging in with token {s}\n[{clock}] [bot] Shard ID None has connected to Gateway",
        ],
        hdr="Authorization: Bot {s}",
        api="discord.com",
        path="/api/v10/users/@me",
        section="discord",
    ),
    K(
        "discord_webhook_token",
        _fix(B64U, 68),
        "Discord webhook token",
        "DISCORD_WEBHOOK_TOKEN",
        "webhook_token",
        "game",
        [
            "DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/{snow}/{s}",
            '# DiscordSRV / CoreProtect alerts\nwebhook-url: "https://discord.com/api/webhooks/{snow}/{s}"\n',
            (
                "$ curl -H 'Content-Type: application/json' -d '{{\"content\":\"Server restarting in 5 min\"}}' "
                "https://discordapp.com/api/webhooks/{snow}/{s}"
            ),
            "Note: #server-status webhook is https://discord.com/api/webhooks/{snow}/{s} (made by {name} {date})",
            (
                "{ts} ERROR notifier: POST https://discord.com/api/webhooks/{snow}/{s}?wait=true -> 429 Too Many "
                "Requests"
            ),
            "Webhook do kanału #ogłoszenia: https://discord.com/api/webhooks/{snow}/{s}",
        ],
        own_ratio=0.85,
        section="alerts",
    ),
    K(
        "discord_client_secret",
        _fix(B64U, 32),
        "Discord OAuth2 client secret",
        "DISCORD_CLIENT_SECRET",
        "client_secret",
        "game",
        [
            "DISCORD_CLIENT_ID={snow}\nDISCORD_CLIENT_SECRET={s}\nDISCORD_REDIRECT=https://{host}/auth/callback",
        ],
        section="oauth",
    ),
    K(
        "steam_web_api_key",
        _fix(HXU, 32),
        "Steam Web API key",
        "STEAM_API_KEY",
        "steam_api_key",
        "game",
        [
            "$ curl 'https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/?key={s}&steamids=7656119{sid}'",
            "{ts} GET https://api.steampowered.com/ISteamUser/GetPlayerBans/v1/?key={s}&steamids=7656119{sid} 200",
        ],
        section="steam",
    ),
    K(
        "steam_gslt",
        _fix(HXU, 32),
        "Steam game server login token (GSLT)",
        "SRCDS_TOKEN",
        "sv_setsteamaccount",
        "game",
        [
            "./cs2 -dedicated +map de_inferno +game_type 0 +game_mode 1 +sv_setsteamaccount {s} -port 27015",
            '// server.cfg\nhostname "Retakes | EU"\nsv_setsteamaccount "{s}"\nsv_lan 0\n',
            "# Rust startup\n./RustDedicated -batchmode +server.identity main +server.gslt {s}",
            "GSLT (app 730) for the retake server: {s} - memo 'retakes-eu', expires if unused 30 days",
        ],
        section="steam",
    ),
    K(
        "valheim_server_password",
        _pwg(),
        "Valheim server password",
        "SERVER_PASS",
        "password",
        "game",
        [
            ('./valheim_server.x86_64 -name "Pohjola" -port 2456 -world "Dedicated" -password "{s}" -public 0'),
            "SERVER_NAME=Pohjola\nWORLD_NAME=Dedicated\nSERVER_PASS={s}\nSERVER_PUBLIC=false",
        ],
        section="valheim",
    ),
    K(
        "ark_admin_password",
        _pwg(),
        "ARK ServerAdminPassword",
        "ARK_ADMIN_PASSWORD",
        "ServerAdminPassword",
        "game",
        [
            (
                "[ServerSettings]\nServerPassword=\nServerAdminPassword={s}\nDifficultyOffset=1.0\nRCONEnabled=True\n"
                "RCONPort=27020"
            ),
            "> enablecheats {s}\nCheats enabled.\n> admincheat fly",
        ],
        section="ServerSettings",
    ),
    K(
        "rust_rcon_password",
        _pwg(),
        "Rust RCON password",
        "RUST_RCON_PASSWORD",
        "rcon.password",
        "game",
        [
            './RustDedicated -batchmode +server.port 28015 +rcon.port 28016 +rcon.web 1 +rcon.password "{s}"',
            "RustAdmin: connect ws://{ip}:28016/{s} -> connected, {n} players",
        ],
        section="rcon",
    ),
    K(
        "cs2_rcon_password",
        _pwg(),
        "CS2 rcon_password",
        "CS2_RCON_PASSWORD",
        "rcon_password",
        "game",
        [
            '// cfg/server.cfg\nhostname "Blocktopia Retakes"\nrcon_password "{s}"\nsv_cheats 0\n',
            "] rcon_address {ip}:27015\n] rcon_password {s}\n] rcon status\nhostname: Blocktopia Retakes",
        ],
        section="srcds",
    ),
    K(
        "luckperms_db_password",
        _pwg(),
        "LuckPerms MySQL password",
        "LP_MYSQL_PASSWORD",
        "password",
        "game",
        [
            (
                "storage-method: MySQL\ndata:\n  address: {ip}:3306\n  database: luckperms\n  username: luckperms\n"
                "  password: '{s}'\n  pool-settings:\n    maximum-pool-size: 10\n"
            ),
        ],
        section="data",
    ),
    K(
        "coreprotect_mysql_password",
        _pwg(),
        "CoreProtect MySQL password",
        "CP_MYSQL_PASSWORD",
        "mysql-password",
        "game",
        [
            (
                "# CoreProtect config.yml\nuse-mysql: true\ntable-prefix: co_\nmysql-host: {ip}\nmysql-port: 3306\n"
                "mysql-database: coreprotect\nmysql-username: coreprotect\nmysql-password: {s}\n"
            ),
        ],
        section="coreprotect",
    ),
    K(
        "mysql_password",
        _pwg(True),
        "MySQL password",
        "DB_PASSWORD",
        "password",
        "infra",
        [
            "jdbc:mysql://{user}:{s}@{ip}:3306/{user}?useSSL=false",
            "DATABASE_URL=mysql://{user}:{s}@127.0.0.1:3306/panel",
            "$ mysql -h {ip} -u {user} -p'{s}' -e 'SHOW DATABASES;'\n+--------------------+\n| Database |",
            "database:\n  url: mariadb://{user}:{s}@db:3306/plan\n",
            (
                "[{clock} ERROR]: [Plan] Access denied for user '{user}'@'{ip}' (using password: YES) - "
                "url=jdbc:mariadb://{user}:{s}@{host}:3306/plan"
            ),
        ],
        own_ratio=0.6,
        section="database",
    ),
    K(
        "mariadb_root_password",
        _pwg(),
        "MariaDB root password",
        "MARIADB_ROOT_PASSWORD",
        "root_password",
        "infra",
        [
            (
                'services:\n  db:\n    image: mariadb:10.11\n    environment:\n      MARIADB_ROOT_PASSWORD: "{s}"\n'
                "      MARIADB_DATABASE: panel\n"
            ),
            "db-1  | {ts} 0 [Note] Root password set via MYSQL_ROOT_PASSWORD={s}",
        ],
        section="mariadb",
    ),
    K(
        "redis_password",
        _pwg(True),
        "Redis password",
        "REDIS_PASSWORD",
        "password",
        "infra",
        [
            "REDIS_URL=redis://:{s}@{ip}:6379/0",
            "# /etc/redis/redis.conf\nbind 127.0.0.1 {ip}\nrequirepass {s}\nmaxmemory 512mb\n",
            "$ redis-cli -h {ip} -a '{s}' PING\nWarning: Using a password with '-a' may not be safe.\nPONG",
            'redis:\n  host: {ip}\n  port: 6379\n  password: "{s}"\n  database: 2\n',
        ],
        own_ratio=0.6,
        section="redis",
    ),
    K(
        "tebex_secret_key",
        _fix(HX, 40),
        "Tebex secret key",
        "TEBEX_SECRET",
        "secret",
        "game",
        [
            "> tebex secret {s}\n[Tebex] Connected to webstore Blocktopia Store.",
            "$ curl -H 'X-Tebex-Secret: {s}' https://plugin.tebex.io/information",
        ],
        hdr="X-Tebex-Secret: {s}",
        api="plugin.tebex.io",
        path="/queue",
        section="tebex",
    ),
    K(
        "patreon_creator_access_token",
        _fix(B64U, 43),
        "Patreon creator access token",
        "PATREON_ACCESS_TOKEN",
        "creator_access_token",
        "game",
        [],
        hdr="Authorization: Bearer {s}",
        api="www.patreon.com",
        path="/api/oauth2/v2/campaigns",
        section="patreon",
    ),
    K(
        "kofi_verification_token",
        _uuid,
        "Ko-fi verification token",
        "KOFI_VERIFICATION_TOKEN",
        "verification_token",
        "game",
        [
            "Ko-fi webhook: check data.verification_token == '{s}' before granting the supporter rank.",
            "{ts} kofi-hook INFO payload ok, verification_token={s} type=Donation",
        ],
        section="kofi",
    ),
    K(
        "stripe_secret_key",
        _stripe,
        "Stripe secret key",
        "STRIPE_SECRET_KEY",
        "secret_key",
        "game",
        [
            "$ stripe --api-key {s} charges list --limit 3",
        ],
        hdr="Authorization: Bearer {s}",
        api="api.stripe.com",
        path="/v1/charges",
        section="stripe",
    ),
    K(
        "twitch_access_token",
        _fix(LODG, 30),
        "Twitch user access token",
        "TWITCH_ACCESS_TOKEN",
        "access_token",
        "game",
        [
            "$ curl -H 'Authorization: Bearer {s}' -H 'Client-Id: {lc30}' https://api.twitch.tv/helix/users",
        ],
        hdr="Authorization: Bearer {s}",
        api="api.twitch.tv",
        path="/helix/streams",
        section="twitch",
    ),
    K(
        "twitch_client_secret",
        _fix(LODG, 30),
        "Twitch client secret",
        "TWITCH_CLIENT_SECRET",
        "client_secret",
        "game",
        [
            (
                "$ curl -X POST 'https://id.twitch.tv/oauth2/token?client_id={lc30}&client_secret={s}"
                "&grant_type=client_credentials'"
            ),
        ],
        section="twitch",
    ),
    K(
        "twitch_stream_key",
        lambda r: "live_" + str(r.randint(10**8, 10**9 - 1)) + "_" + _rs(r, AN, 30),
        "Twitch stream key",
        "TWITCH_KEY",
        "stream_key",
        "game",
        [
            "rtmp://waw.contribute.live-video.net/app/{s}",
            "ffmpeg -re -i event.mp4 -c copy -f flv rtmp://live.twitch.tv/app/{s}",
        ],
        section="stream",
    ),
    K(
        "obs_websocket_password",
        _fix(AN, 16),
        "OBS websocket password",
        "OBS_WS_PASSWORD",
        "ServerPassword",
        "game",
        [
            "[OBSWebSocket]\nServerEnabled=true\nServerPort=4455\nAuthRequired=true\nServerPassword={s}\n",
            "obs-cli --host localhost --port 4455 --password {s} scene switch 'BRB'",
        ],
        section="OBSWebSocket",
    ),
    K(
        "modrinth_pat",
        _fix(AN, 60, "mr" + "p_"),
        "Modrinth personal access token",
        "MODRINTH_TOKEN",
        "token",
        "game",
        [],
        hdr="Authorization: {s}",
        api="api.modrinth.com",
        path="/v2/project",
        section="modrinth",
    ),
    K(
        "github_pat",
        _github,
        "GitHub token",
        "GITHUB_TOKEN",
        "token",
        "game",
        [
            "$ git clone https://x-access-token:{s}@github.com/blocktopia/plugins.git",
        ],
        hdr="Authorization: token {s}",
        api="api.github.com",
        path="/repos/blocktopia/plugins",
        section="github",
    ),
    K(
        "hcaptcha_secret_key",
        _fix(HX, 40, "0x"),
        "hCaptcha secret",
        "HCAPTCHA_SECRET",
        "secret",
        "infra",
        [],
        section="captcha",
    ),
    K(
        "turnstile_secret_key",
        _fix(B64U, 22, "0x4AAAAAAA" + "A"),
        "Turnstile secret key",
        "TURNSTILE_SECRET_KEY",
        "secret_key",
        "infra",
        [],
        section="turnstile",
    ),
    K(
        "telegram_bot_token",
        _telegram,
        "Telegram bot token",
        "TELEGRAM_BOT_TOKEN",
        "bot_token",
        "radio",
        [
            '$ curl https://api.telegram.org/bot{s}/getMe\n{{"ok":true,"result":{{"is_bot":true}}}}',
        ],
        section="telegram",
    ),
    # ---------------------------------------------------------------- hosting / infra
    K(
        "cloudflare_api_token",
        _fix(B64U, 40),
        "Cloudflare API token",
        "CF_API_TOKEN",
        "api_token",
        "infra",
        [
            "dns_cloudflare_api_token = {s}",
        ],
        hdr="Authorization: Bearer {s}",
        api="api.cloudflare.com",
        path="/client/v4/user/tokens/verify",
        section="cloudflare",
    ),
    K(
        "cloudflare_global_api_key",
        _fix(HX, 37),
        "Cloudflare Global API Key",
        "CF_API_KEY",
        "api_key",
        "infra",
        [
            "dns_cloudflare_email = {name}@kanal8.fm\ndns_cloudflare_api_key = {s}\n",
        ],
        hdr="X-Auth-Key: {s}",
        api="api.cloudflare.com",
        path="/client/v4/zones",
        section="cloudflare",
    ),
    K(
        "cloudflare_tunnel_token",
        _cf_tunnel,
        "Cloudflare tunnel token",
        "TUNNEL_TOKEN",
        "token",
        "infra",
        [
            (
                "$ sudo cloudflared service install {s}\n{ts} INF Using Systemd\n{ts} INF Linux service for "
                "cloudflared installed successfully"
            ),
            (
                "services:\n  tunnel:\n    image: cloudflare/cloudflared:latest\n    command: tunnel --no-autoupdate run "
                "--token {s}\n"
            ),
        ],
        section="tunnel",
    ),
    K(
        "hetzner_cloud_token",
        _fix(AN, 64),
        "Hetzner Cloud API token",
        "HCLOUD_TOKEN",
        "token",
        "infra",
        [
            '[[contexts]]\nname = "blocktopia"\ntoken = "{s}"\n',
        ],
        hdr="Authorization: Bearer {s}",
        api="api.hetzner.cloud",
        path="/v1/servers",
        section="hcloud",
    ),
    K(
        "linode_api_token",
        _fix(HX, 64),
        "Linode personal access token",
        "LINODE_TOKEN",
        "token",
        "infra",
        [
            "[DEFAULT]\ndefault-user = {user}\n\n[{user}]\ntoken = {s}\nregion = eu-central\n",
        ],
        hdr="Authorization: Bearer {s}",
        api="api.linode.com",
        path="/v4/linode/instances",
        section="linode",
    ),
    K(
        "ovh_application_secret",
        _fix(AN, 32),
        "OVH application secret",
        "OVH_APPLICATION_SECRET",
        "application_secret",
        "infra",
        [
            "[default]\nendpoint=ovh-eu\n\n[ovh-eu]\napplication_secret={s}\n",
        ],
        section="ovh-eu",
    ),
    K(
        "grafana_service_account_token",
        lambda r: "gl" + "sa_" + _rs(r, AN, 32) + "_" + _rs(r, HX, 8),
        "Grafana service account token",
        "GRAFANA_TOKEN",
        "token",
        "infra",
        [],
        hdr="Authorization: Bearer {s}",
        api="grafana.kanal8.fm",
        path="/api/dashboards/uid/radio",
        section="grafana",
    ),
    K(
        "grafana_admin_password",
        _pwg(),
        "Grafana admin password",
        "GF_SECURITY_ADMIN_PASSWORD",
        "admin_password",
        "infra",
        [
            "[security]\nadmin_user = admin\nadmin_password = {s}\n",
            "$ grafana-cli admin reset-admin-password '{s}'\nAdmin password changed successfully ✔",
        ],
        section="security",
    ),
    K(
        "s3_secret_access_key",
        _fix(AN + "+/", 40),
        "S3 secret access key",
        "AWS_SECRET_ACCESS_KEY",
        "aws_secret_access_key",
        "radio",
        [
            "[wasabi]\naws_secret_access_key = {s}\nregion = eu-central-2\n",
            (
                "$ rclone config show wasabi\n[wasabi]\ntype = s3\nprovider = Wasabi\nsecret_access_key = {s}\n"
                "endpoint = s3.eu-central-2.wasabisys.com"
            ),
            (
                "backup:\n  s3:\n    endpoint: https://s3.eu-central-1.wasabisys.com\n    bucket: podcast-masters\n"
                "    secret_key: {s}\n"
            ),
        ],
        section="s3",
    ),
    K(
        "b2_application_key",
        _b2,
        "Backblaze B2 application key",
        "B2_APPLICATION_KEY",
        "application_key",
        "radio",
        [],
        section="b2",
    ),
    K(
        "bunny_storage_password",
        _bunny_storage,
        "Bunny storage zone password",
        "BUNNY_STORAGE_PASSWORD",
        "storage_password",
        "radio",
        [
            (
                "$ curl -X PUT -H 'AccessKey: {s}' --data-binary @ep{n}.mp3 "
                "https://storage.bunnycdn.com/kanal8-podcast/episodes/ep{n}.mp3"
            ),
            "FTP upload: storage.bunnycdn.com, user kanal8-podcast, password {s}",
        ],
        section="bunny",
    ),
    K(
        "bunny_api_key",
        _bunny_api,
        "Bunny.net account API key",
        "BUNNY_API_KEY",
        "api_key",
        "radio",
        [],
        hdr="AccessKey: {s}",
        api="api.bunny.net",
        path="/pullzone",
        section="bunny",
    ),
    K(
        "sftp_password",
        _pwg(True),
        "SFTP password",
        "SFTP_PASSWORD",
        "password",
        "radio",
        [
            "Upload target: sftp://{user}:{s}@{host}:22/var/azuracast/stations/main/media",
            "$ lftp sftp://{user}:{s}@{host} -e 'mirror -R ./episodes /uploads; bye'",
            (
                "<Server><Host>{host}</Host><Port>22</Port><Protocol>1</Protocol><User>{user}</User>"
                "<Pass>{s}</Pass></Server>"
            ),
        ],
        own_ratio=0.6,
        section="sftp",
    ),
    K(
        "ssh_private_key",
        _openssh,
        "deploy key",
        "DEPLOY_KEY",
        "private_key",
        "infra",
        [
            "Deploy key for the plugin sync job (~/.ssh/id_ed25519 on {host}):\n{s}\n",
            "$ cat ~/.ssh/id_ed25519\n{s}\n$ chmod 600 ~/.ssh/id_ed25519",
            "[{time}] {nick}: ok here is the key for the backup box, DM only pls\n```\n{s}\n```",
            (
                "Runbook ({date}): if the rsync job to {host} fails, re-create ~/.ssh/id_ed25519 with\n\n{s}\n\n"
                "then ssh-add and re-run backup.sh"
            ),
        ],
        own_ratio=1.0,
        generic=False,
    ),
    K(
        "rsa_private_key",
        _pem_rsa,
        "TLS private key",
        "TLS_KEY",
        "key",
        "radio",
        [
            "Icecast TLS bundle, key part (goes before the cert in /etc/icecast2/bundle.pem):\n{s}",
            "$ sudo cat /etc/ssl/private/{host}.key\n{s}",
            "Lesson: Liquidsoap refused the key until it was PKCS#1. Working key for {host}:\n\n{s}\n",
        ],
        own_ratio=1.0,
        generic=False,
    ),
    # ---------------------------------------------------------------- radio / podcast side
    K(
        "icecast_source_password",
        _pwg(),
        "Icecast source password",
        "ICECAST_SOURCE_PASSWORD",
        "source-password",
        "radio",
        [
            (
                "<icecast>\n  <authentication>\n    <source-password>{s}</source-password>\n"
                "    <admin-user>admin</admin-user>\n  </authentication>\n</icecast>"
            ),
            (
                "Mixxx Live Broadcasting: Type Icecast 2, Host {host}, Port 8000, Mount /live, Login source, "
                "Password {s}"
            ),
            (
                "$ ffmpeg -re -i show.mp3 -c:a libmp3lame -b:a 128k -content_type audio/mpeg "
                "icecast://source:{s}@{host}:8000/live"
            ),
        ],
        section="authentication",
    ),
    K(
        "icecast_admin_password",
        _pwg(),
        "Icecast admin password",
        "ICECAST_ADMIN_PASSWORD",
        "admin-password",
        "radio",
        [
            (
                "<authentication>\n    <admin-user>admin</admin-user>\n    <admin-password>{s}</admin-password>\n"
                "</authentication>"
            ),
            "$ curl -u admin:{s} 'http://{host}:8000/admin/listclients?mount=/live'",
        ],
        section="authentication",
    ),
    K(
        "shoutcast_password",
        _pwg(),
        "Shoutcast password",
        "SC_PASSWORD",
        "password",
        "radio",
        [
            "; sc_serv.conf\nportbase=8000\nadminpassword={s}\nstreamid_1=1\nstreampath_1=/stream\n",
            "; sc_trans\nserverip={ip}\nserverport=8000\npassword={s}\nstreamid=1\n",
        ],
        section="sc_serv",
    ),
    K(
        "liquidsoap_harbor_password",
        _pwg(),
        "Liquidsoap harbor password",
        "HARBOR_PASSWORD",
        "password",
        "radio",
        [
            (
                'live = input.harbor("live", port=8005, password="{s}")\nradio = fallback(track_sensitive=false, '
                "[live, playlist])"
            ),
            (
                'output.icecast(%mp3(bitrate=128), host="localhost", port=8000,\n  password="{s}", mount="/radio", '
                "radio)"
            ),
        ],
        section="harbor",
    ),
    K(
        "azuracast_api_key",
        lambda r: _rs(r, HX, 16) + ":" + _rs(r, HX, 32),
        "AzuraCast API key",
        "AZURACAST_API_KEY",
        "api_key",
        "radio",
        [
            "$ curl -H 'X-API-Key: {s}' https://{host}/api/station/1/queue",
        ],
        hdr="X-API-Key: {s}",
        api="radio.kanal8.fm",
        path="/api/station/1/files",
        section="azuracast",
    ),
    K(
        "libsyn_password",
        _pwg(),
        "Libsyn password",
        "LIBSYN_PASSWORD",
        "password",
        "radio",
        [
            "Libsyn FTP: ftp-upload.libsyn.com, login {name}@kanal8.fm, password {s}",
        ],
        section="libsyn",
    ),
    K(
        "buzzsprout_api_token",
        _fix(HX, 32),
        "Buzzsprout API token",
        "BUZZSPROUT_TOKEN",
        "api_token",
        "radio",
        [],
        hdr="Authorization: Token token={s}",
        api="www.buzzsprout.com",
        path="/api/1234/episodes.json",
        section="buzzsprout",
    ),
    K(
        "transistor_api_key",
        _fix(AN, 22),
        "Transistor API key",
        "TRANSISTOR_API_KEY",
        "api_key",
        "radio",
        [],
        hdr="x-api-key: {s}",
        api="api.transistor.fm",
        path="/v1/episodes",
        section="transistor",
    ),
    K(
        "spotify_client_secret",
        _fix(HX, 32),
        "Spotify client secret",
        "SPOTIFY_CLIENT_SECRET",
        "client_secret",
        "radio",
        [
            "SPOTIFY_CLIENT_ID={hx32}\nSPOTIFY_CLIENT_SECRET={s}\n",
        ],
        section="spotify",
    ),
    K(
        "apple_app_specific_password",
        lambda r: "-".join(_rs(r, LO, 4) for _ in range(4)),
        "Apple app-specific password",
        "APPLE_APP_PASSWORD",
        "app_password",
        "radio",
        [
            "Podcasts Connect upload bot uses {name}'s Apple ID with app-specific password {s}",
        ],
        section="apple",
    ),
    K(
        "youtube_stream_key",
        lambda r: "-".join(_rs(r, LODG, 4) for _ in range(5)),
        "YouTube stream key",
        "YT_STREAM_KEY",
        "stream_key",
        "radio",
        [
            "rtmp://a.rtmp.youtube.com/live2/{s}",
            (
                "$ ffmpeg -re -i http://localhost:8000/radio -loop 1 -i cover.png -c:v libx264 -f flv "
                "rtmp://a.rtmp.youtube.com/live2/{s}"
            ),
        ],
        section="youtube",
    ),
    K(
        "restream_stream_key",
        lambda r: "re_" + str(r.randint(10**6, 10**7 - 1)) + "_" + _rs(r, HX, 20),
        "Restream stream key",
        "RESTREAM_KEY",
        "stream_key",
        "radio",
        [
            "OBS > Stream: Service Restream.io, Server Autodetect, Stream Key {s}",
            "rtmp://live.restream.io/live/{s}",
        ],
        section="restream",
    ),
    K(
        "streamlabs_socket_token",
        _streamlabs,
        "Streamlabs socket API token",
        "STREAMLABS_SOCKET_TOKEN",
        "socket_token",
        "game",
        [
            "const socket = io(`https://sockets.streamlabs.com?token={s}`, {{transports: ['websocket']}});",
        ],
        section="streamlabs",
    ),
    K(
        "mastodon_access_token",
        _fix(B64U, 43),
        "Mastodon access token",
        "MASTODON_ACCESS_TOKEN",
        "access_token",
        "radio",
        [
            "$ toot post --using kanal8@mastodon.social 'Now live!' # token {s}",
        ],
        hdr="Authorization: Bearer {s}",
        api="mastodon.social",
        path="/api/v1/statuses",
        section="mastodon",
    ),
    K(
        "bluesky_app_password",
        lambda r: "-".join(_rs(r, LODG, 4) for _ in range(4)),
        "Bluesky app password",
        "BSKY_APP_PASSWORD",
        "app_password",
        "radio",
        [
            "agent.login({{ identifier: 'kanal8.bsky.social', password: '{s}' }})",
            (
                "$ curl -X POST https://bsky.social/xrpc/com.atproto.server.createSession -d "
                '\'{{"identifier":"kanal8.bsky.social","password":"{s}"}}\''
            ),
        ],
        section="bluesky",
    ),
    K(
        "mailchimp_api_key",
        lambda r: _rs(r, HX, 32) + "-us" + str(r.randint(1, 21)),
        "Mailchimp API key",
        "MAILCHIMP_API_KEY",
        "api_key",
        "radio",
        [
            "$ curl -u anystring:{s} https://us6.api.mailchimp.com/3.0/lists",
        ],
        section="mailchimp",
    ),
    K(
        "mailgun_api_key",
        _mailgun,
        "Mailgun API key",
        "MAILGUN_API_KEY",
        "api_key",
        "radio",
        [
            "$ curl -s --user 'api:{s}' https://api.eu.mailgun.net/v3/mg.kanal8.fm/messages -F to={name}@kanal8.fm",
        ],
        section="mailgun",
    ),
    K(
        "ghost_admin_api_key",
        lambda r: _rs(r, HX, 24) + ":" + _rs(r, HX, 64),
        "Ghost Admin API key",
        "GHOST_ADMIN_API_KEY",
        "admin_api_key",
        "radio",
        [
            "const api = new GhostAdminAPI({{ url: 'https://{host}', key: '{s}', version: 'v5.0' }});",
        ],
        section="ghost",
    ),
    K(
        "smtp_password",
        _pwg(),
        "SMTP password",
        "SMTP_PASSWORD",
        "pass",
        "radio",
        [
            (
                '"mail": {{\n  "transport": "SMTP",\n  "options": {{\n    "host": "smtp.eu.mailgun.org",\n'
                '    "auth": {{ "user": "postmaster@mg.kanal8.fm", "pass": "{s}" }}\n  }}\n}}'
            ),
        ],
        section="smtp",
    ),
    K(
        "postgres_password",
        _pwg(True),
        "Postgres password",
        "DB_PASS",
        "password",
        "radio",
        [
            "DATABASE_URL=postgresql://mastodon:{s}@db:5432/mastodon_production",
            "$ psql 'postgres://castopod:{s}@{ip}:5432/castopod' -c '\\dt'",
        ],
        section="database",
    ),
    K(
        "castopod_db_password",
        _pwg(),
        "Castopod database password",
        "CP_DATABASE_PASSWORD",
        "database.default.password",
        "radio",
        [
            (
                "# castopod .env\nCP_BASEURL=https://{host}\ndatabase.default.hostname=mariadb\n"
                "database.default.username=castopod\ndatabase.default.password={s}\n"
            ),
        ],
        section="castopod",
    ),
]


_KIND_SVC = {
    "minecraft_rcon_password": ["paper-survival", "rcon-bridge", "mc-creative"],
    "velocity_forwarding_secret": ["velocity", "paper-survival", "paper-lobby"],
    "bungeeguard_token": ["bungeecord", "paper-lobby"],
    "pterodactyl_wings_token": ["wings", "ptero-wings"],
    "discord_bot_token": ["discord-bot", "modbot", "nowplaying-bot"],
    "valheim_server_password": ["valheim"],
    "ark_admin_password": ["ark-island", "ark-ragnarok"],
    "rust_rcon_password": ["rust-ds", "rustadmin-bridge"],
    "cs2_rcon_password": ["cs2", "cs2-retakes"],
    "steam_gslt": ["cs2", "rust-ds", "srcds"],
    "luckperms_db_password": ["paper-survival", "velocity"],
    "coreprotect_mysql_password": ["paper-survival", "paper-creative"],
    "obs_websocket_password": ["obs-bridge", "stream-deck-bot"],
    "twitch_stream_key": ["obs", "restreamer"],
    "youtube_stream_key": ["ffmpeg-restream", "restreamer"],
    "icecast_source_password": ["icecast", "liquidsoap", "butt"],
    "icecast_admin_password": ["icecast", "status-bot"],
    "liquidsoap_harbor_password": ["liquidsoap", "azuracast"],
    "shoutcast_password": ["sc_serv", "sc_trans"],
    "grafana_admin_password": ["grafana"],
    "mastodon_access_token": ["crosspost-bot", "mastodon-poster"],
    "bluesky_app_password": ["crosspost-bot", "bsky-poster"],
    "castopod_db_password": ["castopod"],
    "postgres_password": ["mastodon-web", "castopod", "postgres"],
}


def _positive(r: random.Random, k: K) -> tuple[str, str]:
    f = _fields(r, k.grp)
    if k.kind in _KIND_SVC:
        f["svc"] = r.choice(_KIND_SVC[k.kind])
    s = k.gen(r)
    f.update(
        s=s,
        label=k.label,
        var=k.var,
        key=k.key,
        section=k.section,
        grepk=k.var.split("_")[0],
        snow=str(r.randint(10**17, 13 * 10**17)),
        sid=str(r.randint(10**9, 10**10 - 1)),
        uuid=_uuid(r),
        tokid=_rs(r, AN, 16),
        short=_rs(r, HX, 8),
        lc30=_rs(r, LODG, 30),
        hx32=_rs(r, HX, 32),
    )
    pool = []
    if k.generic:
        if r.random() < 0.62:
            pool = _GEN_PROSE
        elif r.random() < 0.5:
            pool = _GEN_CFG
        else:
            pool = _GEN_OUT + (_GEN_HTTP if k.hdr else [])
    if k.own and (r.random() < k.own_ratio or not pool):
        pool = k.own
    if k.hdr:
        hv = k.hdr.replace("{s}", s)
        f["hdr"] = hv
        f["hdrk"], f["hdrv"] = hv.split(": ", 1)
        f["api"], f["path"] = k.api, k.path
    tpl = r.choice(pool)
    text = re.sub(r"\{(\w+)\}", lambda m: f.get(m.group(1), m.group(0)), tpl)
    text = text.replace("{{", "{").replace("}}", "}")
    if s not in text:
        raise AssertionError(k.kind)
    return text, s


# ---------------------------------------------------------------- look-alikes
def _hx(r, n):
    return _rs(r, HX, n)


def _ts(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"


def _nm(r):
    return r.choice(_NAMES)


def _nk(r):
    return r.choice(_NICKS)


def _ansible(r):
    return "$ANSIBLE_VAULT;1.1;AES256\n" + _wrap(_hx(r, 80 * r.randint(3, 5)), 80)


_REFS = [
    "RCON_PASSWORD",
    "DISCORD_TOKEN",
    "PTERO_APP_KEY",
    "ICECAST_SOURCE_PASSWORD",
    "STEAM_API_KEY",
    "HCLOUD_TOKEN",
    "MAILCHIMP_API_KEY",
    "AZURACAST_API_KEY",
    "YT_STREAM_KEY",
    "CF_API_TOKEN",
    "BSKY_APP_PASSWORD",
    "HARBOR_PASSWORD",
    "TEBEX_SECRET",
    "GRAFANA_TOKEN",
    "WINGS_TOKEN",
]


def _ref(r):
    return r.choice(_REFS)


def _gha_env(r):
    v = _ref(r)
    return f"      - name: deploy plugins\n        env:\n          {v}: ${{{{ secrets.{v} }}}}\n        run: ./deploy.sh {r.randint(1, 99)}"


_LOOK = [
    # hashes / checksums / ids
    lambda r: f"Updated Paper to build {r.randint(100, 500)}. sha256 of paper-1.21.{r.randint(1, 9)}.jar: {_hx(r, 64)}",
    lambda r: f"{_hx(r, 32)}  ep{r.randint(1, 300):03d}-final.mp3\n{_hx(r, 32)}  ep{r.randint(1, 300):03d}-raw.wav",
    lambda r: f"Fixed by commit {_hx(r, 40)} in blocktopia/plugins (merged by {_nk(r)}).",
    lambda r: (
        "$ git log --oneline -4\n"
        + "\n".join(
            f"{_hx(r, 7)} {m}"
            for m in r.sample(
                [
                    "fix tab list",
                    "bump luckperms",
                    "add /vote",
                    "liquidsoap crossfade",
                    "rss: itunes tags",
                    "wings: raise mem",
                    "discord: embed colour",
                    "coreprotect purge cron",
                ],
                4,
            )
        )
    ),
    lambda r: f'[\n  {{"uuid": "{_uuid(r)}", "name": "{_nk(r)}"}},\n  {{"uuid": "{_uuid(r)}", "name": "{_nk(r)}"}}\n]',
    lambda r: f"{_ts(r)} 502 from origin, cf-ray: {_hx(r, 16)}-{r.choice(['AMS', 'WAW', 'HEL', 'FRA', 'OSL', 'IST'])}",
    lambda r: f"server-icon: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABA{_b64(r, 90)}",
    lambda r: f"Skin texture for {_nk(r)}: http://textures.minecraft.net/texture/{_hx(r, 64)}",
    lambda r: (
        f"[{r.randint(0, 23):02d}:{r.randint(10, 59)}] {_nk(r)}: channel id is {r.randint(10**17, 13 * 10**17)}, "
        f"role id {r.randint(10**17, 13 * 10**17)}"
    ),
    lambda r: (
        f"Discord app '{r.choice(['RadioBot', 'BlockBot', 'WipeBot'])}': Application ID {r.randint(10**17, 13 * 10**17)}, "
        f"Public Key {_hx(r, 64)} (used to verify interactions, safe to share)"
    ),
    lambda r: (
        f"Invite link: https://discord.com/oauth2/authorize?client_id={r.randint(10**17, 13 * 10**17)}"
        f"&permissions={r.choice([8, 274877975552, 2147600384])}&scope=bot%20applications.commands"
    ),
    lambda r: (
        f"Banned {_nk(r)} (SteamID64 7656119{r.randint(10**9, 10**10 - 1)}) for aimbot, demo tick {r.randint(1000, 99999)}"
    ),
    lambda r: (
        f"Workshop collection id {r.randint(10**9, 3 * 10**9)} - map ids: "
        + ", ".join(str(r.randint(10**8, 3 * 10**9)) for _ in range(3))
    ),
    lambda r: f"TWITCH_CLIENT_ID={_rs(r, LODG, 30)}  # public, fine to commit; secret lives in Vaultwarden",
    lambda r: f"spotify:\n  client_id: {_hx(r, 32)}\n  client_secret: ${{SPOTIFY_CLIENT_SECRET}}\n",
    lambda r: f"Store checkout uses Stripe publishable key {'pk' + '_live_' + _rs(r, AN, 24)} in the frontend.",
    lambda r: f'<div class="h-captcha" data-sitekey="{_uuid(r)}"></div>',
    lambda r: f'<div class="g-recaptcha" data-sitekey="6L{_rs(r, B64U, 38)}"></div>',
    lambda r: f"SENTRY_DSN=https://{_hx(r, 32)}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/{r.randint(10**6, 10**7)}",
    lambda r: (
        'const firebaseConfig = {{\n  apiKey: "{}",\n  authDomain: "blocktopia-{}.firebaseapp.com",\n  projectId: "blocktopia-{}"\n}};'.format(
            "AI" + "za" + _rs(r, B64U, 35), _rs(r, LODG, 5), _rs(r, LODG, 5)
        )
    ),
    lambda r: f"Ghost Content API key (public, used by the website widget): {_hx(r, 26)}",
    lambda r: f'<div class="cf-turnstile" data-sitekey="0x4AAAAAAA{_rs(r, B64U, 12)}"></div>',
    # placeholders / docs
    lambda r: (
        f"# {_nm(r)}: fill in before first start ({_ts(r)[:10]})\nrcon.password=<your-rcon-password>\nrcon.port={r.choice([25575, 25576, 25577])}\nenable-rcon=true"
    ),
    lambda r: (
        f"environment:\n  - MYSQL_PASSWORD=${{MYSQL_PASSWORD}}\n  - MYSQL_USER={r.choice(['panel', 'lp', 'plan'])}\n  - TZ=UTC\n  - MAX_CONN={r.randint(10, 500)}"
    ),
    _gha_env,
    lambda r: (
        f"$ vault kv get -field=password secret/{r.choice(['radio', 'game', 'infra'])}/{r.choice(['icecast', 'rcon', 'mariadb', 'sftp'])}  # {_nm(r)}, {_ts(r)[:10]}"
    ),
    lambda r: (
        f"Icecast ships with source password 'hackme' and admin 'hackme' - change both before {r.choice(['going live', 'the launch', 'Friday'])} (ticket #{r.randint(10, 999)})."
    ),
    lambda r: f"rcon.password=********\nrcon.port=25575\n# masked by panel export on {_ts(r)}",
    lambda r: f"{_ts(r)} INFO config loaded: token=[REDACTED] guilds={r.randint(1, 9)} shards=1",
    lambda r: "icecast_admin_password: !vault |\n  " + _ansible(r).replace("\n", "\n  "),
    lambda r: f"discord_token: ENC[AES256_GCM,data:{_b64(r, 54)},iv:{_b64(r, 24)},tag:{_b64(r, 12)},type:str]",
    lambda r: (
        f"mysql> SELECT email, password FROM users LIMIT 1;\n| {_nm(r).lower()}@kanal8.fm | $2y$10${_rs(r, AN + './', 53)} |"
    ),
    lambda r: f"$argon2id$v=19$m=65536,t=3,p=4${_rs(r, B64.replace('+', ''), 22)}${_rs(r, B64.replace('+', ''), 43)}",
    lambda r: (
        f"The authenticity of host '{r.choice(['node1', 'radio', 'db'])}.kanal8.fm' can't be established.\nED25519 key fingerprint is SHA256:{_rs(r, AN + '+/', 43)}."
    ),
    lambda r: (
        f"Add to authorized_keys on the wings node:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_rs(r, AN + '+/', 43)} {_nm(r).lower()}@laptop"
    ),
    lambda r: f"Release signed with PGP key {' '.join(_rs(r, HXU, 4) for _ in range(10))}",
    lambda r: (
        f"-----BEGIN CERTIFICATE-----\n{_wrap('MIIF' + _b64(r, 600), 64)}\n-----END CERTIFICATE-----\n(public chain for {r.choice(['radio', 'mc', 'panel'])}.kanal8.fm)"
    ),
    lambda r: (
        f"Let's Encrypt cert renewed, serial {':'.join(_rs(r, HXU, 2) for _ in range(18))}, expires in {r.randint(60, 90)} days"
    ),
    lambda r: f"image: ghcr.io/azuracast/azuracast@sha256:{_hx(r, 64)}",
    lambda r: (
        f"$ docker ps\nCONTAINER ID   IMAGE                  STATUS\n{_hx(r, 12)}   itzg/minecraft-server  Up {r.randint(2, 40)} hours\n{_hx(r, 12)}   mariadb:10.11          Up {r.randint(2, 40)} hours"
    ),
    lambda r: f'"integrity": "sha512-{_b64(r, 64)}"',
    lambda r: (
        f"Transcripts: model openai/whisper-{r.choice(['large-v3', 'medium', 'small', 'base'])}, run id {_rs(r, LODG, 8)}, {r.randint(2, 90)} episodes"
    ),
    lambda r: (
        f"Training set for the mod-chat classifier: dataset {r.choice(['blocktopia', 'kanal8'])}/chat-{_rs(r, LODG, 6)}, revision {_hx(r, 40)}"
    ),
    lambda r: f'{{"cell_type": "code", "execution_count": {r.randint(1, 300)}, "id": "{_hx(r, 8)}", "outputs": []}}',
    lambda r: f"Pterodactyl server {_hx(r, 8)} (uuid {_uuid(r)}) moved to node {r.randint(1, 6)}",
    lambda r: f"{_ts(r)} [INFO] Loaded forwarding secret from forwarding.secret ({r.randint(1, 4)} backends)",
    lambda r: (
        f'[player-info-forwarding]\nplayer-info-forwarding-mode = "modern"\nforwarding-secret-file = "forwarding.secret"\n# {r.randint(2, 99)} servers'
    ),
    lambda r: f'live = input.harbor("live", port={r.randint(8001, 8099)}, password=environment.get("HARBOR_PASSWORD"))',
    lambda r: f'client.run(os.environ["{_ref(r)}"])  # line {r.randint(10, 400)}',
    lambda r: (
        f'steam_key = Variable.get("{r.choice(["steam_api_key", "gslt_cs2", "tebex_secret"])}")\nlimit = {r.randint(10, 500)}'
    ),
    lambda r: (
        f's3_secret = dbutils.secrets.get(scope="{r.choice(["radio", "podcast"])}", key="wasabi-secret-{r.randint(1, 9)}")\nbucket = "podcast-{r.randint(2019, 2026)}"'
    ),
    lambda r: (
        f"env:\n  - name: {_ref(r)}\n    valueFrom:\n      secretKeyRef:\n        name: {r.choice(['radio', 'bot', 'panel'])}-secrets\n        key: {r.choice(['token', 'password', 'api-key'])}"
    ),
    lambda r: (
        f"arn:aws:secretsmanager:eu-central-1:{r.randint(10**11, 10**12 - 1)}:secret:radio/icecast-{_rs(r, AN, 6)}"
    ),
    lambda r: (
        f"op read 'op://{r.choice(['Radio', 'Game', 'Infra'])}/{r.choice(['Icecast', 'RCON', 'Hetzner', 'Tebex'])}/password'  # {_nm(r)} has access"
    ),
    lambda r: f"level-seed={r.randint(-9 * 10**18, 9 * 10**18)}\nlevel-name=world\ngamemode=survival",
    lambda r: (
        f"enable-rcon=false\nrcon.password=\nrcon.port=25575\nserver-port={r.choice([25565, 25566, 25567])}\nview-distance={r.randint(6, 16)}\nmax-players={r.randint(20, 200)}"
    ),
    lambda r: f"New episode up: https://www.youtube.com/watch?v={_rs(r, B64U, 11)} (channel UC{_rs(r, B64U, 22)})",
    lambda r: f"<podcast:guid>{_uuid(r)}</podcast:guid>\n<itunes:episode>{r.randint(1, 300)}</itunes:episode>",
    lambda r: f"Apple Podcasts: https://podcasts.apple.com/pl/podcast/kanal-8/id{r.randint(10**9, 2 * 10**9)}",
    lambda r: f"Spotify show: spotify:show:{_rs(r, AN, 22)} / episode spotify:episode:{_rs(r, AN, 22)}",
    lambda r: f"Boosted https://mastodon.social/@kanal8/{r.randint(10**17, 2 * 10**17)}",
    lambda r: (
        f"Bluesky: did:plc:{_rs(r, 'abcdefghijklmnopqrstuvwxyz234567', 24)} - post at://did:plc:{_rs(r, 'abcdefghijklmnopqrstuvwxyz234567', 24)}/app.bsky.feed.post/{_rs(r, LODG, 13)}"
    ),
    lambda r: f"Mailchimp audience id {_hx(r, 10)}, {r.randint(100, 9000)} subscribers, campaign {_hx(r, 10)}",
    lambda r: f"cloudflare:\n  zone_id: {_hx(r, 32)}\n  account_id: {_hx(r, 32)}\n  api_token: ${{CF_API_TOKEN}}",
    lambda r: (
        f"Hetzner server #{r.randint(10**7, 9 * 10**7)} ({r.choice(['cx22', 'cpx31', 'ccx23'])}) IPv6 2a01:4f8:{_hx(r, 4)}:{_hx(r, 4)}::1"
    ),
    lambda r: (
        f"OVH order {r.randint(10**8, 10**9)} paid, service id ns{r.randint(1000, 9999)}.ip-{r.randint(1, 254)}-{r.randint(1, 254)}-{r.randint(1, 254)}.eu"
    ),
    lambda r: f"Grafana dashboard uid {_rs(r, AN, 9)}, datasource uid {_rs(r, AN, 14)}, panel id {r.randint(1, 40)}",
    lambda r: (
        f"GRAFANA_TOKEN=gl{'sa'}_<token-from-ui>   # service account '{r.choice(['radio-stats', 'mc-metrics'])}', see {_nm(r)}'s note from {_ts(r)[:10]}"
    ),
    lambda r: (
        f"# requirepass foobared\nbind 127.0.0.1\nport {r.choice([6379, 6380, 6381])}\nprotected-mode yes\nmaxmemory {r.randint(64, 2048)}mb"
    ),
    lambda r: (
        f"CREATE USER '{r.choice(['luckperms', 'plan', 'coreprotect'])}'@'%' IDENTIFIED BY '<password>';\nGRANT ALL ON db{r.randint(1, 99)}.* TO '{_nk(r)}'@'%';"
    ),
    lambda r: (
        f"motd (base64 in panel export): {base64.b64encode(('Blocktopia ' + _nk(r) + ' event #' + str(r.randint(1, 999))).encode()).decode()}"
    ),
    lambda r: (
        "packet dump:\n" + "\n".join(f"{i * 16:04x}  " + " ".join(_hx(r, 2) for _ in range(16)) for i in range(3))
    ),
    lambda r: f"ipfs://bafybei{_rs(r, 'abcdefghijklmnopqrstuvwxyz234567', 52)} (archive of ep{r.randint(1, 200)})",
    lambda r: f"magnet:?xt=urn:btih:{_hx(r, 40)}&dn=kanal8-archive-{r.randint(2019, 2026)}.tar",
    lambda r: f"Tebex payment tbx-{_rs(r, HX, 12)}-{_hx(r, 6)} for package {r.randint(10**6, 9 * 10**6)} ({_nk(r)})",
    lambda r: f"PayPal txn {_rs(r, UP + DG, 17)} - {r.randint(3, 50)} EUR from {_nm(r)}",
    lambda r: f'{{"kofi_transaction_id": "{_uuid(r)}", "type": "Donation", "amount": "{r.randint(1, 30)}.00"}}',
    lambda r: (
        f'$ curl -s https://radio.kanal8.fm/api/nowplaying/{r.randint(1, 4)} | jq .now_playing.song.id\n"{_hx(r, 32)}"'
    ),
    lambda r: (
        f'<icestats><listeners>{r.randint(0, 400)}</listeners><source mount="/live"><listener_peak>{r.randint(10, 900)}</listener_peak></source></icestats>'
    ),
    lambda r: (
        f"{_ts(r)} [lang:3] Connecting mount radio for source@localhost... (attempt {r.randint(1, 9)})\n{_ts(r)} [radio:3] Connection setup was successful."
    ),
    lambda r: (
        f'ptero_wings_token: "{{{{ vault_wings_token_node{r.randint(1, 9)} }}}}"\nptero_wings_port: {r.randint(8000, 8999)}'
    ),
    lambda r: (
        f"[Peer]\nPublicKey = {_b64(r, 32)}\nAllowedIPs = 10.8.0.{r.randint(2, 254)}/32\nEndpoint = {r.randint(1, 223)}.{r.randint(1, 254)}.{r.randint(1, 254)}.{r.randint(1, 254)}:51820"
    ),
    lambda r: f"VAPID_PUBLIC_KEY={'B' + _rs(r, B64U, 86)}",
    lambda r: f"age recipient for the radio secrets repo: age1{_rs(r, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
    lambda r: f'{{"keys":[{{"kty":"OKP","crv":"Ed25519","kid":"{_hx(r, 16)}","x":"{_rs(r, B64U, 43)}"}}]}}',
    lambda r: (
        f"Stream key format: xxxx-xxxx-xxxx-xxxx-xxxx (get yours in YouTube Studio > Go live). Step {r.randint(1, 9)} of {r.randint(10, 30)}."
    ),
    lambda r: (
        f"{_ts(r)} OBS: starting stream to rtmp://waw.contribute.live-video.net/app/live_{r.randint(10**8, 10**9 - 1)}_**************** "
    ),
    lambda r: (
        f"Bluesky app password looks like xxxx-xxxx-xxxx-xxxx - create one named '{r.choice(['crosspost', 'radiobot', 'podbot'])}-{r.randint(1, 999)}'"
    ),
    lambda r: (
        f"{_ts(r)} bot INFO request_id={_uuid(r)} guild={r.randint(10**17, 13 * 10**17)} cmd=/{r.choice(['play', 'skip', 'rank', 'whitelist'])}"
    ),
    lambda r: '{{"files":[{{"path":"mods/{}.jar","hashes":{{"sha1":"{}","sha512":"{}"}}}}]}}'.format(
        r.choice(["lithium", "sodium", "ferritecore"]), _hx(r, 40), _hx(r, 128)
    ),
    lambda r: f"CurseForge project {r.randint(10**5, 10**6)}, file id {r.randint(10**6, 6 * 10**6)}",
    lambda r: f"world uuid {_uuid(r)}; region r.{r.randint(-30, 30)}.{r.randint(-30, 30)}.mca corrupted",
    lambda r: (
        f"/co lookup u:{_nk(r)} t:{r.randint(1, 48)}h a:block\n----- CoreProtect Lookup Results -----\n{r.randint(1, 60)}m ago - {_nk(r)} broke diamond_ore"
    ),
    lambda r: (
        f"/lp group {r.choice(['vip', 'mod', 'dj', 'builder'])} permission set {r.choice(['essentials.fly', 'coreprotect.lookup', 'worldedit.*'])} true server={r.choice(['survival', 'lobby', 'creative'])} expiry={r.randint(1, 90)}d"
    ),
    lambda r: f"DISCORD_TOKEN=encrypted:{_b64(r, 90)}",
    lambda r: f"spec:\n  encryptedData:\n    token: Ag{_b64(r, 180)}",
    lambda r: (
        f"Password policy for panel accounts: min {r.randint(10, 16)} chars, no reuse of last {r.randint(3, 10)}; use the generator."
    ),
    lambda r: f"assets: app.{_hx(r, 8)}.js, vendor.{_hx(r, 8)}.js, style.{_hx(r, 8)}.css",
    lambda r: f'< HTTP/1.1 200 OK\n< ETag: "{_hx(r, 32)}"\n< Content-Length: {r.randint(1000, 9**7)}',
    lambda r: (
        f"<Error><Code>NoSuchKey</Code><RequestId>{_rs(r, UP + DG, 16)}</RequestId><HostId>{_b64(r, 57)}</HostId></Error>"
    ),
    lambda r: (
        f"https://podcast-masters.s3.eu-central-2.wasabisys.com/ep{r.randint(1, 300)}.wav?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=<redacted>"
    ),
    lambda r: (
        f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n{_wrap('mDMEZ' + _b64(r, 120), 64)}\n-----END PGP PUBLIC KEY BLOCK-----"
    ),
    lambda r: f"untrusted comment: minisign public key {_hx(r, 16).upper()}\nRWQ{_b64(r, 40)[:53]}",
    lambda r: (
        f"Steam: +sv_setsteamaccount YOUR_GSLT_HERE  (create at steamcommunity.com/dev/managegameservers, app {r.choice([730, 252490, 346110])}, server #{r.randint(1, 99)})"
    ),
    lambda r: (
        f"[{_ts(r)}] Pterodactyl: API key '{r.choice(['sync', 'backup', 'bot'])}' created by {_nm(r)} (identifier {_rs(r, AN, 16)}), last used never"
    ),
    lambda r: (
        f"Rotated the Tebex secret on {_ts(r)[:10]}; new one is in Vaultwarden under 'Tebex / {r.choice(['store', 'plugin'])}'."
    ),
    lambda r: (
        f"Нагадування: пароль RCON лежить у Vaultwarden (папка '{r.choice(['Ігри', 'Сервери'])}'), не в чаті. #{r.randint(1, 99)}"
    ),
    lambda r: (
        f"Przypomnienie: hasło do Icecasta jest w menedżerze haseł, wpis '{r.choice(['Icecast', 'Radio', 'Stream'])}-{r.randint(1, 99)}'."
    ),
    lambda r: (
        f"Zabbix: disk usage on {r.choice(['node1', 'radio', 'db'])} {r.randint(70, 99)}%, trigger id {r.randint(10**4, 10**6)}, event {_hx(r, 16)}"
    ),
    lambda r: (
        f"Session cookie name is mc_session; value format is opaque ({r.randint(32, 64)} bytes). See docs section {r.randint(1, 9)}.{r.randint(1, 9)}."
    ),
    lambda r: f"Wachtwoord voor de Icecast-bron staat in Bitwarden, niet hier (ticket #{r.randint(10, 999)}).",
    lambda r: f"Salasana vaihdettu {_ts(r)[:10]}; uusi löytyy Vaultwardenista kohdasta 'Valheim-{r.randint(1, 9)}'.",
    lambda r: (
        f"Sunucu şifresi ({r.choice(['rust', 'cs2', 'ark'])}) kasada; lütfen Discord'a yazmayın. #{r.randint(1, 999)}"
    ),
    lambda r: f"Пароль от RCON смотри в Vaultwarden, запись 'rcon-{r.randint(1, 99)}'. В заметки не копировать.",
    lambda r: (
        f"Passordet til Grafana ligger i 1Password-hvelvet '{r.choice(['Radio', 'Drift'])}', oppføring {r.randint(1, 99)}."
    ),
    lambda r: (
        f"Secret scanning caught a leaked bot token in PR #{r.randint(10, 400)}; token was revoked by {_nm(r)} and rotated, new one only in the secrets store."
    ),
    lambda r: (
        f'jwt header decoded: {{"alg":"{r.choice(["HS256", "RS256", "EdDSA"])}","typ":"JWT","kid":"{_hx(r, 12)}"}}'
    ),
    lambda r: (
        f"OAuth client for the Patreon sync: client_id={_rs(r, B64U, 64)}, redirect https://{r.choice(['mc', 'store'])}.blocktopia.net/patreon/callback"
    ),
]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(f"secret-samples-ae:{seed}")
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for k in KINDS:
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > 5000:
                raise RuntimeError("cannot fill kind " + k.kind)
            text, secret = _positive(r, k)
            if text in seen:
                continue
            seen.add(text)
            positives.append((text, k.kind, secret))
            got += 1
    lookalikes: list[str] = []
    for fn in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 2000:
                raise RuntimeError("look-alike generator stuck")
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
