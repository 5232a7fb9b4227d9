"""Labelled test set BA for a memory secret detector: an independent video-game studio.

Theme
-----
Texts that an AI coding agent might save as "memories" while working for a small game studio:
engines and build (Unity Cloud Build, Unreal Horde, Jenkins, TeamCity, Incredibuild), version
control (Perforce Helix tickets and passwords, Plastic SCM, GitHub, GitLab, git LFS), stores and
platforms (Steamworks, Epic Online Services, itch.io, GOG Galaxy, App Store Connect, Google Play,
Xbox / PlayStation partner portals, Meta Quest), online services (PlayFab, Photon, Nakama, AWS
GameLift, Firebase), community (Discord, Twitch, YouTube, Reddit, Slack), crash and analytics
(Sentry, Backtrace, GameAnalytics), localisation (Crowdin, Lokalise) and the office NAS, Wi-Fi and
door system.  Styles: about half notes / lessons / runbooks / TODOs / postmortems / tickets /
emails / chat (mostly English, some Finnish, Korean, Brazilian Portuguese, Russian, Thai), a
quarter configuration files (.env, JSON, YAML, INI, Unreal .ini, Unity assets, shell profiles,
CI files) and a quarter tool output (p4 / git sessions, build logs, curl -v, service logs, SQL
consoles).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text``
  (no surrounding quotes) and each text holds exactly one secret.  Every kind has exactly
  ``PER_KIND`` (30) positives.
* ``lookalikes``: texts with no credential at all; each generator in ``_LOOK`` contributes exactly
  ``LOOK_PER_GEN`` distinct texts.
* Deterministic per seed (``random.Random`` seeded only from ``seed``); no duplicate texts.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings / basic-auth URLs: the
  password only.  Pre-signed URLs: the signature value.  PEM / OpenSSH private keys: the whole
  armoured block from the BEGIN line to the END line (inside JSON: the escaped one-line block).
* Public-by-design values are look-alikes: publishable keys, anon keys, site keys, Sentry DSNs,
  OAuth client ids, Firebase web apiKeys, public certificates / public keys, app ids.
* Vendor documentation example values, encrypted blobs (Ansible vault, sops, Jenkins secrets) and
  password hashes are look-alikes.  Bare AWS access key ids are left out entirely.
* A YouTube Data API key in a server-side config is a positive (``youtube_api_key``) while a
  Firebase web ``apiKey`` (same ``AIza`` shape) is a look-alike: the context decides.
* No token-shaped literal appears in this source: prefixes are split and bodies are random.
"""

from __future__ import annotations

import base64
import json
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

_HEX = "0123456789abcdef"
_HEXU = "0123456789ABCDEF"
_DIG = string.digits
_LOW = string.ascii_lowercase
_UP = string.ascii_uppercase
_ALNUM = string.ascii_letters + string.digits
_LOWALNUM = _LOW + _DIG
_UPALNUM = _UP + _DIG
_B64 = _ALNUM + "+/"
_B64URL = _ALNUM + "-_"

_PEOPLE = [
    "Aino",
    "Mikko",
    "Jae-won",
    "Seo-yeon",
    "Lucas",
    "Beatriz",
    "Dmitri",
    "Olga",
    "Somchai",
    "Niran",
    "Priya",
    "Tom",
    "Hanna",
    "Eero",
    "Camila",
    "Rafael",
    "Kaisa",
    "Minji",
]
_PROJECTS = [
    "Moonfall",
    "Tiny Tavern",
    "Grimlight",
    "Kettlebound",
    "Saltmarsh",
    "Neon Harbor",
    "Frostpeak",
    "Puddle Jumpers",
]
_HOSTS = [
    "build01.studio.lan",
    "horde.studio.lan",
    "p4.studio.lan",
    "nas01.studio.lan",
    "tc.studio.lan",
    "jenkins.studio.lan",
    "ci-mac-mini-2.studio.lan",
    "agent-win-07.studio.lan",
]
_BRANCHES = [
    "main",
    "release/1.4",
    "dev",
    "feature/netcode",
    "hotfix/steam-deck",
    "//depot/Moonfall/Main",
]
_WORDS = [
    "tulip",
    "Rover",
    "orbit",
    "pixel",
    "sauna",
    "kettle",
    "marble",
    "Falcon",
    "lantern",
    "moose",
    "cobalt",
    "ember",
    "glacier",
    "otter",
    "velvet",
    "quartz",
    "harbor",
    "maple",
    "nebula",
    "pepper",
    "raven",
    "sprocket",
    "thistle",
    "walrus",
    "zephyr",
    "biscuit",
    "cactus",
    "dynamo",
    "fjord",
    "gecko",
    "juniper",
    "koala",
    "lilac",
    "mango",
    "nimbus",
    "puffin",
    "rhubarb",
    "salmon",
    "tundra",
    "pelikaani",
    "mokki",
    "kimchi",
    "saudade",
]
_SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Kesa",
    "Talvi",
    "Syksy",
    "Inverno",
    "Verao",
]


def _s(r: random.Random, alpha: str, n: int) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def _b64e(b: bytes) -> str:
    return base64.b64encode(b).decode()


def _b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def _uuid(r: random.Random) -> str:
    h = _s(r, _HEX, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _pw(r: random.Random, url_safe: bool = False) -> str:
    sym = "-_.~!" if url_safe else "!@%&*-_.+?"
    style = r.randrange(6)
    if style == 0:
        return r.choice(_SEASONS) + str(r.randint(2019, 2027)) + r.choice(sym)
    if style == 1:
        a, b = r.sample(_WORDS, 2)
        return f"{a}-{b.capitalize()}-{r.randint(10, 99)}"
    if style == 2:
        return _s(r, _ALNUM, r.randint(6, 10)) + r.choice(sym) + _s(r, _ALNUM + sym, r.randint(6, 10)) + r.choice(_DIG)
    if style == 3:
        return ".".join(r.sample(_WORDS, 4)) + str(r.randint(1, 9))
    if style == 4:
        return r.choice(_PEOPLE).replace("-", "") + r.choice(sym) + str(r.randint(1960, 2024))
    return r.choice(_WORDS).capitalize() + r.choice(sym) + r.choice(_WORDS) + str(r.randint(100, 9999))


def _jwt(r: random.Random, payload: dict) -> str:
    head = _b64u(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64u(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{_s(r, _B64URL, 43)}"


def _pem_lines(body: str, width: int = 64) -> str:
    return "\n".join(body[i : i + width] for i in range(0, len(body), width))


_DASH = "-----"
_PK = "PRIV" + "ATE KEY"


def _pem(r: random.Random, label: str, head: str, n: int, width: int = 64) -> str:
    body = head + _s(r, _B64, n - len(head))
    body = body[: len(body) - 2] + "=="
    return f"{_DASH}BEGIN {label}{_DASH}\n{_pem_lines(body, width)}\n{_DASH}END {label}{_DASH}"


# ----------------------------------------------------------------------------------------------
# secret value makers: return secret, or (secret, fragment that contains the secret)


def _v_p4ticket(r):
    return _s(r, _HEXU, 32)


def _v_ghp(r):
    return "gh" + "p_" + _s(r, _ALNUM, 36)


def _v_ghfg(r):
    return "github" + "_pat_" + _s(r, _UPALNUM, 22) + "_" + _s(r, _ALNUM, 59)


def _v_ghs(r):
    return "gh" + "s_" + _s(r, _ALNUM, 36)


def _v_glpat(r):
    return "glp" + "at-" + _s(r, _B64URL, 20)


def _v_lfs_url(r):
    pw = _pw(r, url_safe=True)
    user = r.choice(["buildbot", "lfs-ci", "aino.k", "mikko", "jenkins"])
    url = f"https://{user}:{pw}@lfs.{r.choice(['studio.dev', 'kettlebound.games', 'grimlight.fi'])}/{r.choice(['moonfall', 'tavern', 'art'])}.git/info/lfs"
    return pw, url


def _v_hex32(r):
    return _s(r, _HEX, 32)


def _v_unity_sa(r):
    return _s(r, _ALNUM, 32)


def _v_jenkins(r):
    return "11" + _s(r, _HEX, 32)


def _v_teamcity(r):
    return "ey" + "J0eXAiOiAiVENWMiJ9." + _s(r, _B64URL, 43) + "." + _s(r, _B64URL, 48)


def _v_horde(r):
    return _jwt(
        r,
        {
            "sub": r.choice(["ci-agent", "build-bot", "horde-agent"]) + str(r.randint(1, 40)),
            "iss": "https://horde.studio.lan",
            "exp": r.randint(1790000000, 1830000000),
            "http://epicgames.com/ue/horde/role": r.choice(["agent", "admin"]),
        },
    )


def _v_hexu32(r):
    return _s(r, _HEXU, 32)


def _v_steam_shared(r):
    return _b64e(bytes(r.randrange(256) for _ in range(20)))


def _v_eos(r):
    return _s(r, _ALNUM + "+/", 43)


def _v_alnum40(r):
    return _s(r, _ALNUM, 40)


def _v_hex64(r):
    return _s(r, _HEX, 64)


def _v_p8(r):
    return _pem(r, _PK, "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg", 200)


def _v_asp(r):
    return "-".join(_s(r, _LOW, 4) for _ in range(4))


def _v_gsa(r):
    block = _pem(r, _PK, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 1624)
    return block.replace("\n", "\\n")


def _v_azure(r):
    return _s(r, _ALNUM, 3) + "8Q~" + _s(r, _ALNUM + "~._-", 34)


def _v_playfab(r):
    return _s(r, _UPALNUM, 52)


def _v_aws_secret(r):
    return _s(r, _ALNUM + "/+", 40)


def _v_fcm(r):
    return "AAAA" + _s(r, _B64URL, 7) + ":" + "APA" + "91b" + _s(r, _B64URL, 134)


def _v_refresh(r):
    return "1//0" + r.choice("cegh") + _s(r, _B64URL, 98)


def _v_discord_bot(r):
    uid = str(r.randint(10**17, 10**19 - 1)).encode()
    return _b64e(uid).rstrip("=") + "." + _s(r, _B64URL, 6) + "." + _s(r, _B64URL, 38)


def _v_discord_hook(r):
    tok = _s(r, _B64URL, 68)
    host = r.choice(["discord.com", "discordapp.com"])
    return tok, f"https://{host}/api/webhooks/{r.randint(10**17, 10**19 - 1)}/{tok}"


def _v_b64url32(r):
    return _s(r, _B64URL, 32)


def _v_twitch(r):
    return _s(r, _LOWALNUM, 30)


def _v_twitch_ext(r):
    return _b64e(bytes(r.randrange(256) for _ in range(32)))


def _v_aiza(r):
    return "AI" + "za" + "Sy" + _s(r, _B64URL, 33)


def _v_gocspx(r):
    return "GOC" + "SPX-" + _s(r, _B64URL, 28)


def _v_reddit(r):
    return _s(r, _B64URL, 30)


def _v_sentry(r):
    payload = {
        "iat": r.randint(1700000000, 1790000000) + r.random(),
        "url": "https://sentry.io",
        "region_url": r.choice(["https://us.sentry.io", "https://de.sentry.io"]),
        "org": r.choice(["kettlebound", "grimlight-games", "tiny-tavern"]),
    }
    return (
        "sntr" + "ys_" + _b64e(json.dumps(payload, separators=(",", ":")).encode()).rstrip("=") + "_" + _s(r, _B64, 43)
    )


def _v_hex40(r):
    return _s(r, _HEX, 40)


def _v_hex80(r):
    return _s(r, _HEX, 80)


def _v_pw(r):
    return _pw(r)


def _v_slack(r):
    return "xo" + "xb-" + _s(r, _DIG, 12) + "-" + _s(r, _DIG, 13) + "-" + _s(r, _ALNUM, 24)


def _v_pg(r):
    pw = _pw(r, url_safe=True)
    return (
        pw,
        f"postgres://nakama:{pw}@{r.choice(['db01.studio.lan', 'nakama-db.internal', '10.0.4.12'])}:5432/nakama?sslmode=require",
    )


def _v_redis(r):
    pw = _pw(r, url_safe=True)
    return (
        pw,
        f"redis://:{pw}@{r.choice(['cache01.studio.lan', 'redis.internal', '10.0.4.20'])}:6379/{r.randint(0, 3)}",
    )


def _v_mongo(r):
    pw = _pw(r, url_safe=True)
    user = r.choice(["leaderboard", "telemetry", "admin", "liveops"])
    return (
        pw,
        f"mongodb+srv://{user}:{pw}@cluster0.{_s(r, _LOWALNUM, 5)}.mongodb.net/{r.choice(['scores', 'events'])}?retryWrites=true&w=majority",
    )


def _v_openssh(r):
    return _pem(
        r,
        "OPENSSH " + _PK,
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACD",
        396,
        70,
    )


def _v_rsa(r):
    return _pem(r, "RSA " + _PK, "MIIEpAIBAAKCAQEA", 1588)


def _v_npm(r):
    return "np" + "m_" + _s(r, _ALNUM, 36)


def _v_docker(r):
    return "dckr" + "_pat_" + _s(r, _B64URL, 27)


def _v_stripe(r):
    return "sk" + "_live_" + "51" + _s(r, _ALNUM, 97)


def _v_sendgrid(r):
    return "SG" + "." + _s(r, _B64URL, 22) + "." + _s(r, _B64URL, 43)


def _v_openai(r):
    return "sk-" + "proj-" + _s(r, _B64URL, 74) + "T3Blbk" + "FJ" + _s(r, _B64URL, 74)


def _v_gcs_url(r):
    sig = _s(r, _HEX, 512)
    obj = r.choice(
        [
            "builds/moonfall-1.4.2-win64.zip",
            "dlc/pack03.pak",
            "crash/minidump.dmp",
            "trailers/teaser_v3.mp4",
        ]
    )
    url = (
        f"https://storage.googleapis.com/{r.choice(['kb-builds', 'grimlight-cdn', 'tavern-release'])}/{obj}"
        f"?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=uploader%40kb-prod.iam.gserviceaccount.com"
        f"%2F2026{r.randint(10, 12)}{r.randint(10, 28)}%2Fauto%2Fstorage%2Fgoog4_request"
        f"&X-Goog-Date=2026{r.randint(10, 12)}{r.randint(10, 28)}T{r.randint(10, 23)}0000Z&X-Goog-Expires=3600"
        f"&X-Goog-SignedHeaders=host&X-Goog-Signature={sig}"
    )
    return sig, url


def _v_sas_url(r):
    sig = _s(r, _ALNUM, 40) + r.choice(["%2B", "%2F", "A"]) + _s(r, _ALNUM, 2) + "%3D"
    url = (
        f"https://{r.choice(['kbassets', 'grimlightbuilds', 'tavernsaves'])}.blob.core.windows.net/"
        f"{r.choice(['builds', 'symbols', 'replays'])}/{r.choice(['win64', 'xsx', 'ps5'])}/{_s(r, _HEX, 8)}.zip"
        f"?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-{r.randint(10, 28)}T{r.randint(10, 23)}:00:00Z"
        f"&st=2026-12-0{r.randint(1, 9)}T08:00:00Z&spr=https&sig={sig}"
    )
    return sig, url


def _v_vault(r):
    return "hv" + "s." + _s(r, _B64URL, 91)


def _v_ib(r):
    return _pw(r)


def _v_nakama_http(r):
    return _s(r, _ALNUM, 32)


# ----------------------------------------------------------------------------------------------
# kinds


class _Kind:
    def __init__(self, name, label, var, make, svc, api=None, header=None, shape="line", extra=()):
        self.name = name
        self.label = label
        self.var = var
        self.key = var.lower()
        self.make = make
        self.svc = svc
        self.api = api or "gateway.studio.lan"
        self.header = header
        self.shape = shape
        self.extra = list(extra)


# kind-specific templates -----------------------------------------------------------------------

_X_P4PW = [
    "$ cat {host_home}/.p4config\nP4PORT=ssl:p4.studio.lan:1666\nP4USER={user}\nP4CLIENT={user}_ws\nP4PASSWD={frag}\n",
    "$ p4 set P4PASSWD={frag}\n$ p4 login -s\nUser {user} ticket expires in 12 hours 0 minutes.\n",
    "Build agent setup: `echo {frag} | p4 -u {user} login` runs in the pre-sync step on {host}.",
]
_X_P4T = [
    "$ cat ~/.p4tickets\nssl:p4.studio.lan:1666=perforce-admin:{frag}\n",
    "$ p4 -u {user} login -p\nEnter password:\n{frag}\n",
    "Horde agent p4 ticket for {user}: {frag} (host-unlocked, valid 12h). Set as P4PASSWD on {host}.",
    "$ p4 -P {frag} -u {user} changes -m 3 //depot/{projcode}/...\nChange {cl} on 2026/11/28 by {user}@ws 'Fix lightmap UVs'\n",
]
_X_PLASTIC = [
    "$ cm configure --language=en --workingmode=UPWorkingMode --server=plastic.studio.lan:8087 --username={user} --password={frag}\nConfiguration completed.\n",
    "<ServerConfigData>\n  <WorkingMode>UPWorkingMode</WorkingMode>\n  <UserName>{user}</UserName>\n  <Password>{frag}</Password>\n</ServerConfigData>\n",
]
_X_STEAMKEY = [
    '$ curl \'https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/?key={frag}&steamids=7656119{steamid}\'\n{{"response":{{"players":[]}}}}\n',
    "GET /ISteamNews/GetNewsForApp/v2/?appid={appid}&count=3&key={frag} HTTP/1.1 200 312ms",
]
_X_STEAMPUB = [
    "$ curl 'https://partner.steam-api.com/ISteamUser/CheckAppOwnership/v2/?key={frag}&appid={appid}&steamid=7656119{steamid}'\n",
    "steamworks partner note: publisher Web API key (group 'Kettlebound Publishing') = {frag}, used by the entitlement server only.",
]
_X_STEAMPW = [
    "$ steamcmd +login {user} {frag} +run_app_build ../scripts/app_build_{appid}.vdf +quit\nLogging in user '{user}' to Steam Public...OK\n",
    "ContentBuilder/run_build.bat:\nbuilder\\steamcmd.exe +login {user} {frag} +run_app_build ..\\scripts\\app_{appid}.vdf +quit\n",
]
_X_STEAMSHARED = [
    '{{"shared_secret":"{frag}","serial_number":"{cl}{cl}","account_name":"{user}","token_gid":"{hex8}","fully_enrolled":true}}',
    "steamguard maFile for the build account: shared_secret = {frag} (used by CI to generate 2FA codes)",
]
_X_EOS = [
    "Engine\\Binaries\\Win64\\BuildPatchTool.exe -OrganizationId=o-{low8} -ProductId={hex32} -ArtifactId={hex32b} -ClientId=xyza{alnum28} -ClientSecret={frag} -mode=UploadBinary -BuildRoot=Saved\\StagedBuilds\\Windows\n",
    '[/Script/OnlineSubsystemEOS.EOSSettings]\n+Artifacts=(ArtifactName="{projcode}",ClientId="xyza{alnum28}",ClientSecret="{frag}",ProductId="{hex32}",SandboxId="{hex32b}",DeploymentId="{hex32c}")\n',
]
_X_ITCH = [
    "$ BUTLER_API_KEY={frag} butler push build/html5 kettlebound/{slug}:html5 --userversion 1.4.{cl3}\n",
    "$ cat ~/.config/itch/butler_creds\n{frag}\n",
]
_X_HOOK = [
    "$ curl -H 'Content-Type: application/json' -d '{{\"content\":\"Build {build} is green\"}}' {frag}\n",
    "discord_notify:\n  url: {frag}\n  username: BuildBot\n",
    "Added the #builds webhook to TeamCity: {frag} (posts on every failed nightly).",
]
_X_DISCORD_BOT = [
    'bot.py:\nimport discord\nclient = discord.Client(intents=discord.Intents.default())\nclient.run("{frag}")\n',
    "{iso} [discord.gateway] Shard ID None has connected. Token used: {frag}",
]
_X_WIFI = [
    'network={{\n    ssid="{ssid}"\n    psk="{frag}"\n    key_mgmt=WPA-PSK\n}}\n',
    "Office Wi-Fi QR for the playtest room: WIFI:S:{ssid};T:WPA;P:{frag};;",
    "Wi-Fi {ssid} (5 GHz, VLAN 30): password {frag} - changes every quarter, ask {who}.",
]
_X_KEYSTORE = [
    "android {{\n  signingConfigs {{\n    release {{\n      storeFile file('release.keystore')\n      storePassword '{frag}'\n      keyAlias 'upload'\n    }}\n  }}\n}}\n",
    "$ jarsigner -keystore upload.keystore -storepass {frag} app-release.aab upload\njar signed.\n",
]
_X_ASP = [
    "$ xcrun altool --upload-app -f build/{slug}.ipa -t ios -u {user}@studio.example -p {frag}\nNo errors uploading 'build/{slug}.ipa'.\n",
    "$ xcrun notarytool submit {slug}.zip --apple-id {user}@studio.example --team-id {team} --password {frag} --wait\n",
]
_X_PG = [
    'nakama config.yml:\ndatabase:\n  address:\n    - "{frag}"\n  conn_max_lifetime_ms: 3600000\n',
    "$ psql '{frag}'\npsql (16.2)\nnakama=> \\dt\n",
]
_X_LFS = [
    "$ cat ~/.git-credentials\n{frag}\n",
    "$ git lfs env\ngit-lfs/3.5.1 (GitHub; windows amd64; go 1.21.7)\nEndpoint={frag} (auth=basic)\nLocalWorkingDir=C:\\work\\{slug}\n",
]
_X_SIGNED = [
    "{iso} INFO patcher: downloading {frag}",
    "Shared the build with the publisher QA team: {frag} (expires in 1 hour)",
]
_X_SENTRY = [
    "$ sentry-cli --auth-token {frag} debug-files upload --org kettlebound --project {slug} Builds/Win64/\n> Found 14 debug information files\n",
    "[defaults]\nurl=https://sentry.io/\norg=kettlebound\nproject={slug}\n\n[auth]\ntoken={frag}\n",
]
_X_CROWDIN = [
    'crowdin.yml:\nproject_id: "{cl3}812"\napi_token: "{frag}"\nbase_path: "."\nfiles:\n  - source: /Content/Localization/Game/en/*.po\n    translation: /Content/Localization/Game/%two_letters_code%/%original_file_name%\n',
]
_X_LOKALISE = [
    "$ lokalise2 --token {frag} --project-id {cl3}5f8ab1c3d1f8e6.{cl} file download --format json --unzip-to ./Assets/Localization\n",
]
_X_UNITY = [
    "- uses: game-ci/unity-builder@v4\n  env:\n    UNITY_EMAIL: ci@studio.example\n    UNITY_PASSWORD: {frag}\n  with:\n    targetPlatform: StandaloneWindows64\n",
    "$ unity-editor -batchmode -quit -username ci@studio.example -password '{frag}' -serial-returns-license\n",
]
_X_AWS = [
    "$ cat ~/.aws/credentials\n[gamelift-deploy]\naws_secret_access_key = {frag}\nregion = eu-central-1\n",
    "$ aws gamelift upload-build --name {slug}-server --build-version 1.4.{cl3} --build-root ./Server --operating-system AMAZON_LINUX_2023\n# AWS_SECRET_ACCESS_KEY={frag} was set in this shell\n",
]
_X_NPM = ["$ cat .npmrc\n//registry.npmjs.org/:_authToken={frag}\n"]
_X_DOCKER = ["$ echo {frag} | docker login -u kettleboundci --password-stdin\nLogin Succeeded\n"]
_X_VAULT = [
    "$ vault login {frag}\nSuccess! You are now authenticated.\n",
    "$ VAULT_ADDR=https://vault.studio.lan VAULT_TOKEN={frag} vault kv get secret/ci/steam\n",
]
_X_NAS = [
    '$ smbclient //nas01.studio.lan/art -U admin%{frag}\nTry "help" to get a list of possible commands.\nsmb: \\> ls\n',
    "Synology DSM ({ip}:5001) admin / {frag} - Hyper Backup to B2 runs at 02:00.",
]
_X_DOOR = [
    "Door controller web UI http://{ip}/ login admin, password {frag}. Unlock schedule 08:00-18:00 weekdays.",
]
_X_TWITCH = [
    '$ curl -X POST \'https://id.twitch.tv/oauth2/token?client_id={low30}&client_secret={frag}&grant_type=client_credentials\'\n{{"access_token":"...","expires_in":5011271}}\n',
]
_X_REDDIT = [
    "praw.ini:\n[devlogbot]\nclient_id={b64url22}\nclient_secret={frag}\nuser_agent=devlogbot/0.3 by u/{user}\n",
]
_X_GH = [
    "$ git clone https://{user}:{frag}@github.com/kettlebound/{slug}.git\nCloning into '{slug}'...\n",
    "$ gh auth status\ngithub.com\n  Logged in to github.com account {user} (GH_TOKEN)\n  Token: {frag}\n",
]
_X_JENKINS = [
    "$ curl -X POST -u {user}:{frag} https://jenkins.studio.lan/job/{slug}-nightly/buildWithParameters?PLATFORM=Win64\n",
]
_X_UCB = [
    "$ curl -X POST -H 'Content-Type: application/json' -H 'Authorization: Basic {frag}' https://build-api.cloud.unity3d.com/api/v1/orgs/kettlebound/projects/{slug}/buildtargets/_all/builds\n",
]
_X_FCM = [
    "$ curl -X POST https://fcm.googleapis.com/fcm/send -H 'Authorization: key={frag}' -H 'Content-Type: application/json' -d '{{\"to\":\"/topics/events\"}}'\n",
]
_X_GSA_EXTRA: list[str] = []


def _K(*a, **kw):
    return _Kind(*a, **kw)


_KINDS = [
    _K(
        "perforce_password",
        "Perforce password",
        "P4PASSWD",
        _v_pw,
        "Perforce Helix",
        extra=_X_P4PW,
    ),
    _K(
        "perforce_ticket",
        "Perforce ticket",
        "P4TICKET",
        _v_p4ticket,
        "Perforce Helix",
        extra=_X_P4T,
    ),
    _K(
        "plastic_scm_password",
        "Plastic SCM password",
        "PLASTIC_PASSWORD",
        _v_pw,
        "Plastic SCM",
        extra=_X_PLASTIC,
    ),
    _K(
        "github_pat",
        "GitHub personal access token",
        "GITHUB_TOKEN",
        _v_ghp,
        "GitHub",
        "api.github.com",
        "Authorization: token {}",
        extra=_X_GH,
    ),
    _K(
        "github_fine_grained_pat",
        "GitHub fine-grained token",
        "GH_TOKEN",
        _v_ghfg,
        "GitHub",
        "api.github.com",
        "Authorization: Bearer {}",
        extra=_X_GH,
    ),
    _K(
        "github_app_installation_token",
        "GitHub App installation token",
        "GITHUB_APP_TOKEN",
        _v_ghs,
        "GitHub",
        "api.github.com",
        "Authorization: Bearer {}",
    ),
    _K(
        "gitlab_pat",
        "GitLab access token",
        "GITLAB_TOKEN",
        _v_glpat,
        "GitLab",
        "gitlab.com",
        "PRIVATE-TOKEN: {}",
    ),
    _K(
        "git_lfs_basic_auth_password",
        "git LFS endpoint (with credentials)",
        "LFS_URL",
        _v_lfs_url,
        "git LFS",
        extra=_X_LFS,
    ),
    _K(
        "unity_cloud_build_api_key",
        "Unity Cloud Build API key",
        "UCB_API_KEY",
        _v_hex32,
        "Unity Cloud Build",
        "build-api.cloud.unity3d.com",
        "Authorization: Basic {}",
        extra=_X_UCB,
    ),
    _K(
        "unity_service_account_secret",
        "Unity service account secret key",
        "UNITY_SERVICE_ACCOUNT_SECRET",
        _v_unity_sa,
        "Unity Gaming Services",
    ),
    _K(
        "unity_account_password",
        "Unity license account password",
        "UNITY_PASSWORD",
        _v_pw,
        "Unity licensing",
        extra=_X_UNITY,
    ),
    _K(
        "jenkins_api_token",
        "Jenkins API token",
        "JENKINS_API_TOKEN",
        _v_jenkins,
        "Jenkins",
        extra=_X_JENKINS,
    ),
    _K(
        "teamcity_access_token",
        "TeamCity access token",
        "TEAMCITY_TOKEN",
        _v_teamcity,
        "TeamCity",
        "tc.studio.lan",
        "Authorization: Bearer {}",
    ),
    _K(
        "unreal_horde_token",
        "Horde bearer token",
        "UE_HORDE_TOKEN",
        _v_horde,
        "Unreal Horde",
        "horde.studio.lan",
        "Authorization: Bearer {}",
    ),
    _K(
        "incredibuild_coordinator_password",
        "Incredibuild coordinator admin password",
        "IB_COORD_PASSWORD",
        _v_ib,
        "Incredibuild",
    ),
    _K(
        "steam_web_api_key",
        "Steam Web API key",
        "STEAM_WEB_API_KEY",
        _v_hexu32,
        "Steamworks",
        extra=_X_STEAMKEY,
    ),
    _K(
        "steam_publisher_key",
        "Steamworks publisher Web API key",
        "STEAM_PUBLISHER_KEY",
        _v_hexu32,
        "Steamworks",
        extra=_X_STEAMPUB,
    ),
    _K(
        "steam_build_account_password",
        "steamcmd build account password",
        "STEAM_BUILD_PASSWORD",
        _v_pw,
        "SteamPipe",
        extra=_X_STEAMPW,
    ),
    _K(
        "steam_guard_shared_secret",
        "Steam Guard shared secret",
        "STEAM_SHARED_SECRET",
        _v_steam_shared,
        "Steam Guard",
        extra=_X_STEAMSHARED,
    ),
    _K(
        "eos_client_secret",
        "Epic Online Services client secret",
        "EOS_CLIENT_SECRET",
        _v_eos,
        "Epic Online Services",
        extra=_X_EOS,
    ),
    _K(
        "itchio_api_key",
        "itch.io API key",
        "BUTLER_API_KEY",
        _v_alnum40,
        "itch.io butler",
        "itch.io",
        "Authorization: Bearer {}",
        extra=_X_ITCH,
    ),
    _K(
        "gog_client_secret",
        "GOG Galaxy client secret",
        "GOG_CLIENT_SECRET",
        _v_hex64,
        "GOG Galaxy",
    ),
    _K(
        "apple_p8_private_key",
        "App Store Connect API key (.p8)",
        "ASC_KEY_P8",
        _v_p8,
        "App Store Connect",
        shape="pem",
    ),
    _K(
        "apple_app_specific_password",
        "Apple app-specific password",
        "APPLE_APP_SPECIFIC_PASSWORD",
        _v_asp,
        "App Store Connect",
        extra=_X_ASP,
    ),
    _K(
        "gcp_service_account_key",
        "Google Play service account key",
        "GOOGLE_PLAY_JSON_KEY",
        _v_gsa,
        "Google Play Console",
        shape="gsa",
    ),
    _K(
        "azure_ad_client_secret",
        "Partner Center (Azure AD) client secret",
        "AZURE_CLIENT_SECRET",
        _v_azure,
        "Xbox Partner Center",
    ),
    _K(
        "playstation_partner_password",
        "PlayStation Partners portal password",
        "PS_PARTNER_PASSWORD",
        _v_pw,
        "PlayStation Partners",
    ),
    _K(
        "playfab_secret_key",
        "PlayFab title secret key",
        "PLAYFAB_SECRET_KEY",
        _v_playfab,
        "PlayFab",
        "A1B2C.playfabapi.com",
        "X-SecretKey: {}",
    ),
    _K(
        "nakama_console_password",
        "Nakama console password",
        "NAKAMA_CONSOLE_PASSWORD",
        _v_pw,
        "Nakama",
    ),
    _K(
        "nakama_runtime_http_key",
        "Nakama runtime http_key",
        "NAKAMA_RUNTIME_HTTP_KEY",
        _v_nakama_http,
        "Nakama",
    ),
    _K(
        "aws_secret_access_key",
        "AWS secret access key (GameLift deploy)",
        "AWS_SECRET_ACCESS_KEY",
        _v_aws_secret,
        "AWS GameLift",
        extra=_X_AWS,
    ),
    _K(
        "fcm_server_key",
        "Firebase Cloud Messaging server key",
        "FCM_SERVER_KEY",
        _v_fcm,
        "Firebase",
        "fcm.googleapis.com",
        "Authorization: key={}",
        extra=_X_FCM,
    ),
    _K(
        "google_oauth_refresh_token",
        "Firebase CI token",
        "FIREBASE_TOKEN",
        _v_refresh,
        "Firebase CLI",
    ),
    _K(
        "discord_bot_token",
        "Discord bot token",
        "DISCORD_BOT_TOKEN",
        _v_discord_bot,
        "Discord",
        "discord.com",
        "Authorization: Bot {}",
        extra=_X_DISCORD_BOT,
    ),
    _K(
        "discord_webhook_token",
        "Discord webhook",
        "DISCORD_WEBHOOK_URL",
        _v_discord_hook,
        "Discord",
        extra=_X_HOOK,
    ),
    _K(
        "discord_client_secret",
        "Discord OAuth2 client secret",
        "DISCORD_CLIENT_SECRET",
        _v_b64url32,
        "Discord",
    ),
    _K(
        "twitch_client_secret",
        "Twitch client secret",
        "TWITCH_CLIENT_SECRET",
        _v_twitch,
        "Twitch",
        extra=_X_TWITCH,
    ),
    _K(
        "twitch_extension_secret",
        "Twitch extension secret",
        "TWITCH_EXT_SECRET",
        _v_twitch_ext,
        "Twitch Extensions",
    ),
    _K(
        "twitch_chat_oauth_token",
        "Twitch chat bot access token",
        "TWITCH_ACCESS_TOKEN",
        _v_twitch,
        "Twitch",
        "api.twitch.tv",
        "Authorization: Bearer {}",
    ),
    _K(
        "youtube_api_key",
        "YouTube Data API key",
        "YOUTUBE_API_KEY",
        _v_aiza,
        "YouTube Data API",
        "youtube.googleapis.com",
        "X-Goog-Api-Key: {}",
    ),
    _K(
        "google_oauth_client_secret",
        "YouTube OAuth client secret",
        "YOUTUBE_CLIENT_SECRET",
        _v_gocspx,
        "YouTube uploads",
    ),
    _K(
        "reddit_client_secret",
        "Reddit app secret",
        "REDDIT_CLIENT_SECRET",
        _v_reddit,
        "Reddit",
        extra=_X_REDDIT,
    ),
    _K(
        "sentry_auth_token",
        "Sentry auth token",
        "SENTRY_AUTH_TOKEN",
        _v_sentry,
        "Sentry",
        "sentry.io",
        "Authorization: Bearer {}",
        extra=_X_SENTRY,
    ),
    _K(
        "backtrace_api_token",
        "Backtrace symbol upload token",
        "BACKTRACE_SYMBOL_TOKEN",
        _v_hex64,
        "Backtrace",
    ),
    _K(
        "gameanalytics_secret_key",
        "GameAnalytics secret key",
        "GA_SECRET_KEY",
        _v_hex40,
        "GameAnalytics",
    ),
    _K(
        "crowdin_personal_token",
        "Crowdin personal access token",
        "CROWDIN_PERSONAL_TOKEN",
        _v_hex80,
        "Crowdin",
        "api.crowdin.com",
        "Authorization: Bearer {}",
        extra=_X_CROWDIN,
    ),
    _K(
        "lokalise_api_token",
        "Lokalise API token",
        "LOKALISE_API_TOKEN",
        _v_hex40,
        "Lokalise",
        "api.lokalise.com",
        "X-Api-Token: {}",
        extra=_X_LOKALISE,
    ),
    _K(
        "nas_admin_password",
        "NAS admin password",
        "NAS_ADMIN_PASSWORD",
        _v_pw,
        "Synology NAS",
        extra=_X_NAS,
    ),
    _K(
        "wifi_passphrase",
        "office Wi-Fi password",
        "WIFI_PSK",
        _v_pw,
        "office Wi-Fi",
        extra=_X_WIFI,
    ),
    _K(
        "door_system_password",
        "door access system admin password",
        "DOOR_ADMIN_PASSWORD",
        _v_pw,
        "door access system",
        extra=_X_DOOR,
    ),
    _K(
        "slack_bot_token",
        "Slack bot token",
        "SLACK_BOT_TOKEN",
        _v_slack,
        "Slack",
        "slack.com",
        "Authorization: Bearer {}",
    ),
    _K(
        "postgres_password",
        "Nakama database URL",
        "DATABASE_URL",
        _v_pg,
        "Nakama / CockroachDB",
        extra=_X_PG,
    ),
    _K("redis_password", "Redis URL", "REDIS_URL", _v_redis, "matchmaking cache"),
    _K(
        "mongodb_password",
        "MongoDB connection string",
        "MONGODB_URI",
        _v_mongo,
        "leaderboard service",
    ),
    _K(
        "openssh_private_key",
        "build agent SSH key",
        "SSH_PRIVATE_KEY",
        _v_openssh,
        "build agents",
        shape="pem",
    ),
    _K(
        "rsa_private_key",
        "dedicated server TLS private key",
        "SERVER_TLS_KEY",
        _v_rsa,
        "dedicated servers",
        shape="pem",
    ),
    _K(
        "jwt_signing_secret",
        "backend JWT signing secret",
        "JWT_SECRET",
        _v_hex64,
        "account backend",
    ),
    _K(
        "npm_token",
        "npm token",
        "NPM_TOKEN",
        _v_npm,
        "npm",
        "registry.npmjs.org",
        "Authorization: Bearer {}",
        extra=_X_NPM,
    ),
    _K(
        "docker_hub_pat",
        "Docker Hub access token",
        "DOCKERHUB_TOKEN",
        _v_docker,
        "Docker Hub",
        extra=_X_DOCKER,
    ),
    _K(
        "stripe_secret_key",
        "Stripe secret key (merch store)",
        "STRIPE_SECRET_KEY",
        _v_stripe,
        "Stripe",
        "api.stripe.com",
        "Authorization: Bearer {}",
    ),
    _K(
        "sendgrid_api_key",
        "SendGrid API key",
        "SENDGRID_API_KEY",
        _v_sendgrid,
        "SendGrid",
        "api.sendgrid.com",
        "Authorization: Bearer {}",
    ),
    _K(
        "openai_api_key",
        "OpenAI API key (loc QA bot)",
        "OPENAI_API_KEY",
        _v_openai,
        "OpenAI",
        "api.openai.com",
        "Authorization: Bearer {}",
    ),
    _K(
        "gcs_signed_url_signature",
        "signed build download URL",
        "BUILD_DOWNLOAD_URL",
        _v_gcs_url,
        "Google Cloud Storage",
        extra=_X_SIGNED,
    ),
    _K(
        "azure_sas_signature",
        "Azure blob SAS URL",
        "SYMBOLS_SAS_URL",
        _v_sas_url,
        "Azure Blob Storage",
        extra=_X_SIGNED,
    ),
    _K(
        "vault_token",
        "Vault token",
        "VAULT_TOKEN",
        _v_vault,
        "HashiCorp Vault",
        "vault.studio.lan",
        "X-Vault-Token: {}",
        extra=_X_VAULT,
    ),
    _K(
        "cloudflare_api_token",
        "Cloudflare API token",
        "CLOUDFLARE_API_TOKEN",
        _v_alnum40,
        "Cloudflare (press kit site)",
        "api.cloudflare.com",
        "Authorization: Bearer {}",
    ),
    _K(
        "android_keystore_password",
        "Android upload keystore password",
        "KEYSTORE_PASSWORD",
        _v_pw,
        "Google Play signing",
        extra=_X_KEYSTORE,
    ),
    _K(
        "meta_quest_app_secret",
        "Meta Quest app secret",
        "META_APP_SECRET",
        _v_hex32,
        "Meta Quest store",
    ),
    _K(
        "photon_custom_auth_secret",
        "Photon custom auth shared secret",
        "PHOTON_AUTH_SECRET",
        _v_hex64,
        "Photon",
    ),
]

# generic templates -----------------------------------------------------------------------------

_GEN = [
    "# {proj} local overrides ({who}, {date})\n{var}={frag}\nLOG_LEVEL=info\n",
    "# ~/.zshrc on {host}\nexport PATH=\"$HOME/bin:$PATH\"\nexport {var}='{frag}'\n",
    '{{\n  "service": "{svc}",\n  "{key}": "{frag}",\n  "region": "eu-north-1"\n}}\n',
    '{slugsvc}:\n  enabled: true\n  {key}: "{frag}"\n  timeout_s: 30\n',
    "[{slugsvc}]\nendpoint = https://{api}\n{key} = {frag}\n",
    "; Config/DefaultGame.ini\n[/Script/{projcode}.{svccode}Settings]\nbEnabled=True\n{camel}={frag}\n",
    "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n  m_Name: {svccode}Config\n  {lcamel}: {frag}\n",
    "name: nightly\non:\n  schedule:\n    - cron: '0 2 * * *'\njobs:\n  build:\n    runs-on: self-hosted\n    env:\n      {var}: \"{frag}\"\n    steps:\n      - run: ./ci/build.sh\n",
    "pipeline {{\n  agent {{ label 'win64' }}\n  environment {{\n    {var} = '{frag}'\n  }}\n  stages {{\n    stage('Build') {{ steps {{ bat 'RunUAT.bat BuildCookRun -project={projcode}.uproject' }} }}\n  }}\n}}\n",
    "services:\n  {slugsvc}:\n    image: studio/{slugsvc}:1.{cl3}\n    environment:\n      - {var}={frag}\n",
    "Note ({date}): {label} for {proj} is {frag} - keep it out of the wiki.",
    "Lesson learned: {who} pasted the {label} ({frag}) into a public Discord channel. Rotate right away and use the vault next time.",
    "Runbook: {svc} outage\n1. SSH to {host}\n2. export {var}={frag}\n3. Re-run the deploy job and watch the logs\n",
    "TODO({who}): move the {label} out of ci/upload.sh - it is hardcoded there as {frag}",
    "Postmortem {date}: {svc} credential exposed\nImpact: the {label} `{frag}` was visible in a public build log for 3 hours.\nAction items: rotate it, add log masking in {ci}.\n",
    "[{ticket}] {svc} integration broken on {branch}\nReporter: {who}\nRepro: set {var}={frag} and run the upload step.\nExpected: 200, got 403.\n",
    "From: {whomail}\nTo: build-team@studio.example\nSubject: new {svc} credentials\n\nHi all,\n\nthe new {label} is {frag}\nPlease update your local setup.\n\nCheers,\n{who}\n",
    "[{time}] {who}: does anyone have the {label}?\n[{time2}] {who2}: {frag}\n[{time2}] {who}: thanks!",
    "Muistiinpano ({date}): {proj}-projektin {label}: {frag} - ei Discordiin eikä wikiin.",
    "메모: {proj} 빌드 서버용 {label} = {frag} (외부 공유 금지, {who}에게 문의)",
    "Anotação: a credencial do {svc} ({label}) é {frag} - não commitar no repositório do {proj}.",
    "Заметка: {label} для {proj}: {frag}. Не коммитить, спросить у {who} перед ротацией.",
    "บันทึก: {label} ของ {proj} คือ {frag} ห้ามแชร์ในช่องสาธารณะ",
    "Decision: {proj} build agents read {var} from the machine environment. Current value {frag} was set by {who} on {date}.",
    "[{time}] Build #{build} started by {who} on {host}\n[{time}] Loading ci/env.properties\n[{time}] DEBUG {var}={frag}\n[{time}] Cooking content for Win64...\n",
    '{iso} INFO  {slugsvc} starting, config={{"{key}": "{frag}", "retries": 3, "env": "prod"}}',
    "$ env | grep {grep}\n{var}={frag}\n",
    "{slugsvc}=> SELECT name, value FROM settings WHERE name = '{key}';\n       name       |  value\n------------------+---------\n {key} | {frag}\n(1 row)\n",
    'Traceback (most recent call last):\n  File "tools/publish.py", line {cl3}, in <module>\n    client = {svccode}Client({key}="{frag}")\n  File "tools/clients.py", line 41, in __init__\n    raise TimeoutError("{api} did not answer")\nTimeoutError: {api} did not answer\n',
    "Remember: {svc} -> {label} {frag} (ask {who} before rotating)",
]

_HDR = [
    "$ curl -v https://{api}/v1/status -H '{hdr}'\n*   Trying 203.0.113.{ipo}:443...\n* Connected to {api} (203.0.113.{ipo}) port 443\n> GET /v1/status HTTP/2\n> Host: {api}\n> {hdr}\n> User-Agent: curl/8.5.0\n>\n< HTTP/2 401\n",
    "{iso} DEBUG urllib3.connectionpool send: POST https://{api}/v2/upload headers={{'{hname}': '{hval}', 'Content-Type': 'application/json'}}",
    "$ http GET https://{api}/v1/me '{hdr}'\nHTTP/1.1 200 OK\n",
]

_PEM_T = [
    "Saved the {label} for {proj} here so CI can restore it:\n{frag}\n",
    "$ cat ~/.ssh/{fname}\n{frag}\n$ chmod 600 ~/.ssh/{fname}\n",
    "{var}: |\n  {frag_ind}\n",
    '{var}="{frag}"\n',
    "[{time}] {who}: here is the {label}, don't lose it\n{frag}\n[{time2}] {who2}: got it",
    "Runbook: rotate {label}\n1. Generate new key\n2. Replace the current one:\n{frag}\n3. Restart {svc} workers\n",
    "Ticket {ticket}: {svc} upload fails with 401.\nAttached key file content:\n{frag}\n",
    "Muistiinpano: {label} ({proj}) alla, älä lisää Perforceen:\n{frag}\n",
]

_GSA_T = [
    '{{\n  "type": "service_account",\n  "project_id": "{gproj}",\n  "private_key_id": "{hex40}",\n  "private_key": "{frag}\\n",\n  "client_email": "play-publisher@{gproj}.iam.gserviceaccount.com",\n  "client_id": "1{dig20}",\n  "token_uri": "https://oauth2.googleapis.com/token"\n}}\n',
    'fastlane/Appfile: json_key_data_raw = \'{{"type":"service_account","project_id":"{gproj}","private_key":"{frag}\\n","client_email":"fastlane@{gproj}.iam.gserviceaccount.com"}}\'',
    '{iso} ERROR upload_aab: invalid_grant for credentials {{"client_email": "ci@{gproj}.iam.gserviceaccount.com", "private_key": "{frag}\\n"}}',
    'GOOGLE_PLAY_JSON_KEY=\'{{"type": "service_account", "private_key_id": "{hex40}", "private_key": "{frag}\\n", "client_email": "uploader@{gproj}.iam.gserviceaccount.com"}}\'',
    'Note: Play Console service account for {proj} - private key below (from the JSON), used by the release lane:\n"private_key": "{frag}\\n"',
]


def _ctx(r: random.Random, k: _Kind | None = None) -> dict:
    who, who2 = r.sample(_PEOPLE, 2)
    proj = r.choice(_PROJECTS)
    h, m = r.randint(8, 22), r.randint(0, 58)
    c = {
        "who": who,
        "who2": who2,
        "whomail": who.lower().replace("-", "") + "@studio.example",
        "user": r.choice(
            [
                "builder",
                "ci-bot",
                "aino.k",
                "mikko.l",
                "jw.park",
                "lucas.s",
                "dmitri",
                "somchai",
                "release",
            ]
        ),
        "proj": proj,
        "projcode": proj.replace(" ", ""),
        "slug": proj.lower().replace(" ", "-"),
        "host": r.choice(_HOSTS),
        "host_home": r.choice(["~", "/home/builder", "C:/Users/builder"]),
        "date": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "time": f"{h:02d}:{m:02d}",
        "time2": f"{h:02d}:{m + 1:02d}",
        "iso": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{h:02d}:{m:02d}:{r.randint(0, 59):02d}Z",
        "ticket": f"{r.choice(['OPS', 'BUILD', 'NET', 'LIVE'])}-{r.randint(100, 2999)}",
        "branch": r.choice(_BRANCHES),
        "build": r.randint(1000, 9999),
        "cl": r.randint(100000, 999999),
        "cl3": r.randint(100, 999),
        "ci": r.choice(["Jenkins", "TeamCity", "Horde", "GitHub Actions", "Unity Cloud Build"]),
        "appid": r.randint(1000000, 3200000),
        "steamid": _s(r, _DIG, 10),
        "hex8": _s(r, _HEX, 8),
        "hex32": _s(r, _HEX, 32),
        "hex32b": _s(r, _HEX, 32),
        "hex32c": _s(r, _HEX, 32),
        "hex40": _s(r, _HEX, 40),
        "low8": _s(r, _LOW, 8),
        "low30": _s(r, _LOWALNUM, 30),
        "alnum28": _s(r, _ALNUM, 28),
        "b64url22": _s(r, _B64URL, 22),
        "dig20": _s(r, _DIG, 20),
        "team": _s(r, _UPALNUM, 10),
        "ip": f"192.168.{r.randint(0, 20)}.{r.randint(2, 250)}",
        "ipo": r.randint(1, 250),
        "ssid": r.choice(
            [
                "Kettlebound-Office",
                "STUDIO-5G",
                "Grimlight",
                "playtest-lab",
                "TavernNet",
            ]
        ),
        "gproj": r.choice(["kb-prod", "grimlight-play", "tavern-android", "moonfall-release"])
        + "-"
        + str(r.randint(100000, 999999)),
        "fname": r.choice(
            [
                "id_ed25519_build",
                "buildagent_key",
                "server_tls.key",
                "AuthKey.p8",
                "deploy_key",
            ]
        ),
    }
    if k is not None:
        words = k.key.split("_")
        c.update(
            var=k.var,
            key=k.key,
            label=k.label,
            svc=k.svc,
            api=k.api,
            slugsvc=k.svc.split(" ")[0].lower().replace(".", ""),
            svccode="".join(ch for ch in k.svc.split(" ")[0].title() if ch.isalnum()),
            camel="".join(w.capitalize() for w in words),
            lcamel=words[0] + "".join(w.capitalize() for w in words[1:]),
            grep=k.var.split("_")[0],
        )
    return c


def _positives(r: random.Random, seen: set) -> list:
    out = []
    for k in _KINDS:
        if k.shape == "pem":
            pool = list(_PEM_T)
        elif k.shape == "gsa":
            pool = list(_GSA_T)
        else:
            pool = list(_GEN) + (list(_HDR) if k.header else []) + k.extra * 2
        r.shuffle(pool)
        i = 0
        tries = 0
        while sum(1 for p in out if p[1] == k.name) < PER_KIND:
            tries += 1
            if tries > 2000:
                raise RuntimeError(f"cannot fill kind {k.name}")
            tmpl = pool[i % len(pool)]
            i += 1
            v = k.make(r)
            secret, frag = v if isinstance(v, tuple) else (v, v)
            c = _ctx(r, k)
            c["frag"] = frag
            c["frag_ind"] = frag.replace("\n", "\n  ")
            if k.header:
                hdr = k.header.format(frag)
                c["hdr"] = hdr
                c["hname"], c["hval"] = hdr.split(": ", 1)
            text = tmpl.format(**c)
            if secret not in text or text in seen:
                continue
            seen.add(text)
            out.append((text, k.name, secret))
    return out


# ----------------------------------------------------------------------------------------------
# look-alikes: no credential in any of these texts


def _c(r):
    return _ctx(r)


def _l_git_log(r):
    c = _c(r)
    lines = [
        f"commit {_s(r, _HEX, 40)}\nAuthor: {c['who']} <{c['whomail']}>\nDate:   {c['date']}\n\n    Fix {r.choice(['lightmap seams', 'EOS login retry', 'Steam Deck input', 'LOD popping'])}\n"
    ]
    return "$ git log -2\n" + "".join(lines) + f"commit {_s(r, _HEX, 40)}\nMerge: {_s(r, _HEX, 7)} {_s(r, _HEX, 7)}\n"


def _l_p4_fstat(r):
    c = _c(r)
    return (
        f"$ p4 fstat -Ol //depot/{c['projcode']}/Content/Maps/{r.choice(['Harbor', 'Tavern', 'Cave'])}_{r.randint(1, 99)}.umap\n"
        f"... depotFile //depot/{c['projcode']}/Content/Maps/level.umap\n... headChange {c['cl']}\n"
        f"... fileSize {r.randint(10**6, 10**8)}\n... digest {_s(r, _HEXU, 32)}\n"
    )


def _l_lfs_pointer(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_s(r, _HEX, 64)}\nsize {r.randint(10**4, 10**9)}\n"


def _l_unity_meta(r):
    return (
        f"fileFormatVersion: 2\nguid: {_s(r, _HEX, 32)}\nTextureImporter:\n  internalIDToNameTable: []\n"
        f"  serializedVersion: {r.randint(10, 13)}\n  mipmaps:\n    mipMapMode: 0\n"
    )


def _l_horde_job(r):
    return f"Horde job {_s(r, _HEX, 24)} step {_s(r, _HEX, 4)} finished: Success (agent {r.choice(_HOSTS)}, {r.randint(3, 90)} min)"


def _l_steam_manifest(r):
    c = _c(r)
    return (
        f"Successfully finished AppID {c['appid']} build (BuildID {r.randint(10**7, 10**8)}).\n"
        f"Depot {c['appid'] + 1} manifest {r.randint(10**18, 9 * 10**18)} uploaded, {r.randint(100, 900)} MB.\n"
    )


def _l_sha256sum(r):
    c = _c(r)
    return f"$ sha256sum {c['slug']}-1.{c['cl3']}-win64.zip\n{_s(r, _HEX, 64)}  {c['slug']}-1.{c['cl3']}-win64.zip\n"


def _l_request_id(r):
    return (
        f"{_c(r)['iso']} WARN gamelift: CreateGameSession throttled, RequestId={_uuid(r)} retry in {r.randint(1, 9)}s"
    )


def _l_playfab_ids(r):
    return f"PlayFab login ok: TitleId={_s(r, _HEXU, 5)} PlayFabId={_s(r, _HEXU, 16)} SessionTicketExpires=2026-12-{r.randint(10, 28)}"


def _l_photon_settings(r):
    return (
        f"PhotonServerSettings.asset\n  AppSettings:\n    AppIdRealtime: {_uuid(r)}\n    AppIdChat: {_uuid(r)}\n"
        f"    AppVersion: 1.{r.randint(0, 9)}\n    FixedRegion: {r.choice(['eu', 'us', 'asia', 'kr'])}\n"
    )


def _l_eos_ids(r):
    return (
        f"EOS product settings (public, ship in the client):\nProductId={_s(r, _HEX, 32)}\nSandboxId={_s(r, _HEX, 32)}\n"
        f"DeploymentId={_s(r, _HEX, 32)}\nClientId=xyza{_s(r, _ALNUM, 28)}\nClientSecret is injected by CI from EOS_CLIENT_SECRET\n"
    )


def _l_firebase_web(r):
    p = r.choice(["moonfall-web", "tavern-companion", "grimlight-site"])
    return (
        "const firebaseConfig = {\n"
        f'  apiKey: "{"AI" + "za" + "Sy" + _s(r, _B64URL, 33)}",\n'
        f'  authDomain: "{p}.firebaseapp.com",\n  projectId: "{p}",\n'
        f'  appId: "1:{_s(r, _DIG, 12)}:web:{_s(r, _HEX, 22)}"\n}};\n'
    )


def _l_sentry_dsn(r):
    return f"SENTRY_DSN=https://{_s(r, _HEX, 32)}@o{r.randint(10**5, 10**7)}.ingest.{r.choice(['', 'de.'])}sentry.io/{r.randint(10**6, 10**7)}"


def _l_stripe_pk(r):
    return f"store/.env.public\nNEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={'pk' + '_live_' + '51' + _s(r, _ALNUM, 97)}\n"


def _l_ga_gamekey(r):
    return f'GameAnalytics.Initialize(gameKey: "{_s(r, _HEX, 32)}", secretKey: GetSecretFromBuildSettings()); // game key is public'


def _l_discord_pubkey(r):
    return (
        f"Discord app {r.randint(10**17, 10**19 - 1)} interactions endpoint verified.\nPUBLIC KEY: {_s(r, _HEX, 64)}\n"
    )


def _l_twitch_client_id(r):
    return f"Twitch extension manifest: client_id={_s(r, _LOWALNUM, 30)} version=0.0.{r.randint(1, 40)} (client id is public)"


def _l_google_client_id(r):
    return f"YouTube uploader OAuth client id: {_s(r, _DIG, 12)}-{_s(r, _LOWALNUM, 32)}.apps.googleusercontent.com (secret lives in 1Password)"


def _l_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{_s(r, _B64URL, 38)}"></div> <!-- press kit contact form -->'


def _l_algolia(r):
    return f"docs search: algolia appId={_s(r, _UPALNUM, 10)} searchOnlyApiKey={_s(r, _HEX, 32)} index=moonfall_wiki"


def _l_supabase_anon(r):
    ref = _s(r, _LOW, 20)
    tok = _jwt(
        r,
        {
            "iss": "supabase",
            "ref": ref,
            "role": "anon",
            "iat": 1700000000,
            "exp": 2015000000,
        },
    )
    return f"SUPABASE_URL=https://{ref}.supabase.co\nSUPABASE_ANON_KEY={tok}\n"


def _l_placeholder_env(r):
    k = r.choice(_KINDS)
    return f"# .env.example - copy to .env\n{k.var}=<your-{k.key.replace('_', '-')}>\nLOG_LEVEL=debug\nREGION=eu-{r.randint(1, 3)}\n"


def _l_shell_ref(r):
    k = r.choice(_KINDS)
    return f'ci/upload.sh line {r.randint(10, 200)}: curl -H "Authorization: Bearer ${{{k.var}}}" https://{k.api}/v1/upload  # {k.label} comes from the agent env'


def _l_gha_secret(r):
    k = r.choice(_KINDS)
    return f"      - name: Upload\n        env:\n          {k.var}: ${{{{ secrets.{k.var} }}}}\n        run: ./ci/upload.sh --build {r.randint(100, 9999)}\n"


def _l_jenkins_creds(r):
    k = r.choice(_KINDS)
    return (
        f"withCredentials([string(credentialsId: '{k.key.replace('_', '-')}-{r.randint(1, 9)}', variable: '{k.var}')]) {{\n"
        f"  bat 'ci\\\\publish.bat %{k.var}%'\n}}\n"
    )


def _l_teamcity_ref(r):
    return f'<param name="env.STEAM_BUILD_PASSWORD" value="credentialsJSON:{_uuid(r)}" spec="password display=\'hidden\'" />'


def _l_vault_path(r):
    return f"$ vault kv get -field={r.choice(['password', 'token', 'api_key'])} secret/studio/{r.choice(['steam', 'eos', 'discord', 'nas'])}/{r.choice(['prod', 'ci', 'office'])}\n(value not shown; ask {_c(r)['who']} for the vault policy)"


def _l_aws_sm_arn(r):
    return f"GameLift fleet reads the Nakama key from arn:aws:secretsmanager:eu-central-1:{_s(r, _DIG, 12)}:secret:prod/nakama/http-key-{_s(r, _ALNUM, 6)}"


def _l_keyvault(r):
    return f"Partner Center client secret moved to https://kb-{_s(r, _LOW, 6)}.vault.azure.net/secrets/partner-center-client/{_s(r, _HEX, 32)}"


def _l_ansible_vault(r):
    hexs = _s(r, _HEX, 64 * 5)
    return (
        "nas_admin_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  "
        + "\n  ".join(hexs[i : i + 64] for i in range(0, len(hexs), 64))
        + "\n"
    )


def _l_sops(r):
    return (
        f"discord_bot_token: ENC[AES256_GCM,data:{_s(r, _B64, 96)}=,iv:{_s(r, _B64, 43)}=,tag:{_s(r, _B64, 22)}==,type:str]\n"
        f'sops:\n  lastmodified: "{_c(r)["iso"]}"\n  version: 3.8.1\n'
    )


def _l_bcrypt(r):
    return f"nakama=> SELECT username, password FROM users LIMIT 1;\n username | password\n----------+---------\n player{r.randint(1, 9999)} | $2a$10${_s(r, _ALNUM + './', 53)}\n"


def _l_argon2(r):
    return f'accounts.json: {{"user": "{_c(r)["user"]}", "hash": "$argon2id$v=19$m=65536,t=3,p=4${_s(r, _B64, 22)}${_s(r, _B64, 43)}"}}'


def _l_pbkdf2(r):
    return f"admin panel user row: pbkdf2_sha256$600000${_s(r, _ALNUM, 22)}${_s(r, _B64, 43)}="


def _l_shadow(r):
    return f"/etc/shadow on the door controller (hashes only):\nadmin:$6${_s(r, _ALNUM + './', 16)}${_s(r, _ALNUM + './', 86)}:19{r.randint(100, 999)}:0:99999:7:::\n"


def _l_ssh_pub(r):
    return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_s(r, _B64, 43)} {_c(r)['user']}@{r.choice(_HOSTS)}"


def _l_ssh_fp(r):
    return f"The authenticity of host '{r.choice(_HOSTS)}' can't be established.\nED25519 key fingerprint is SHA256:{_s(r, _B64, 43)}.\n"


def _l_gpg_fp(r):
    fp = _s(r, _HEXU, 40)
    return f"pub   ed25519 2025-0{r.randint(1, 9)}-11 [SC]\n      {fp}\nuid           [ultimate] Release Signing <release@studio.example>\n"


def _l_cert(r):
    return "Steam Deck dev kit CA (public certificate):\n" + _pem(r, "CERTIFICATE", "MIIDdzCCAl+gAwIBAgIU", 1200) + "\n"


def _l_pubkey(r):
    return (
        "Nakama JWT verification public key:\n"
        + _pem(r, "PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 392)
        + "\n"
    )


def _l_asc_ids(r):
    return f"App Store Connect API: Key ID {_s(r, _UPALNUM, 10)}, Issuer ID {_uuid(r)} (the .p8 itself is in the keychain, not here)"


def _l_keytool(r):
    fp = ":".join(_s(r, _HEXU, 2) for _ in range(20))
    return f"$ keytool -list -v -keystore upload.keystore\nAlias name: upload\nCertificate fingerprints:\n\t SHA1: {fp}\nSignature algorithm name: SHA256withRSA\n"


def _l_png(r):
    return f'<img alt="build badge" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAB{_s(r, _B64, 120)}=" />'


def _l_unity_project(r):
    return (
        f"ProjectSettings.asset\n  productGUID: {_s(r, _HEX, 32)}\n  cloudProjectId: {_uuid(r)}\n"
        f"  projectName: {r.choice(_PROJECTS)}\n  organizationId: kettlebound\n  bundleVersion: 1.{r.randint(0, 9)}.{r.randint(0, 99)}\n"
    )


def _l_unreal_ini_placeholder(r):
    return (
        "[OnlineSubsystemSteam]\nbEnabled=true\n"
        f"SteamDevAppId={r.randint(480, 3200000)}\nSteamAppId={r.randint(480, 3200000)}\n; WebApiKey=INSERT_KEY_HERE (never commit)\n"
    )


def _l_sentry_event(r):
    return f"Sentry issue {r.choice(['MOONFALL', 'TAVERN'])}-{r.randint(10, 999)}: event_id {_s(r, _HEX, 32)} EXCEPTION_ACCESS_VIOLATION in UWorld::Tick"


def _l_backtrace_fp(r):
    return f"Backtrace: new crash group fingerprint {_s(r, _HEX, 64)} ({r.randint(2, 300)} instances, first seen build 1.4.{r.randint(1, 99)})"


def _l_docker_digest(r):
    return f"$ docker pull heroiclabs/nakama:3.{r.randint(15, 24)}.0\nDigest: sha256:{_s(r, _HEX, 64)}\nStatus: Downloaded newer image\n"


def _l_npm_integrity(r):
    return f'"node_modules/discord.js": {{\n  "version": "14.{r.randint(10, 16)}.{r.randint(0, 9)}",\n  "integrity": "sha512-{_s(r, _B64, 86)}=="\n}}'


def _l_p4_login_s(r):
    return (
        f"$ p4 login -s\nUser {_c(r)['user']} ticket expires in {r.randint(1, 11)} hours {r.randint(0, 59)} minutes.\n"
    )


def _l_p4_trust(r):
    fp = ":".join(_s(r, _HEXU, 2) for _ in range(20))
    return f"$ p4 trust -y\nThe fingerprint of the server of your P4PORT setting\n'ssl:p4.studio.lan:1666' (10.0.0.{r.randint(2, 250)}:1666)\nis not known.\nThat fingerprint is {fp}\nAdded trust for P4PORT 'ssl:p4.studio.lan:1666'\n"


def _l_tls_fp(r):
    return f"nas01 DSM certificate SHA-256 fingerprint: {':'.join(_s(r, _HEXU, 2) for _ in range(32))}"


def _l_hub_sig(r):
    return f"{_c(r)['iso']} webhook received: X-GitHub-Delivery={_uuid(r)} X-Hub-Signature-256=sha256={_s(r, _HEX, 64)} event=push"


def _l_shader_cache(r):
    return f"LogShaderCompilers: DDC key SHADERMAP_{_s(r, _HEXU, 40)}_{r.randint(1, 9)} miss, compiling {r.randint(10, 900)} shaders"


def _l_gamelift_fleet(r):
    return f"aws gamelift describe-fleet-attributes --fleet-ids fleet-{_uuid(r)}\nStatus: ACTIVE  BuildId: build-{_uuid(r)}"


def _l_firebase_app_id(r):
    return f"google-services.json: mobilesdk_app_id 1:{_s(r, _DIG, 12)}:android:{_s(r, _HEX, 16)}, project_number {_s(r, _DIG, 12)}"


def _l_gsa_no_key(r):
    g = _c(r)["gproj"]
    return (
        f'{{\n  "type": "service_account",\n  "project_id": "{g}",\n  "private_key_id": "{_s(r, _HEX, 40)}",\n'
        f'  "private_key": "<redacted - see 1Password: Play Console uploader>",\n'
        f'  "client_email": "play-publisher@{g}.iam.gserviceaccount.com"\n}}'
    )


def _l_xbox_ids(r):
    return f"MicrosoftGame.config: <TitleId>{_s(r, _HEXU, 8)}</TitleId> <StoreId>9N{_s(r, _UPALNUM, 10)}</StoreId> SCID {_uuid(r)}"


def _l_ps_ids(r):
    return f"PS5 param: TitleId PPSA{r.randint(10000, 99999)}_00, NP Communication ID NPWR{r.randint(10000, 99999)}_00, ContentId EP{r.randint(1000, 9999)}-PPSA{r.randint(10000, 99999)}_00-{_s(r, _UPALNUM, 16)}"


def _l_eos_empty_secret(r):
    return f'"EOS": {{ "ProductId": "{_s(r, _HEX, 32)}", "ClientSecret": "", "_comment": "filled at build time from the vault" }}'


def _l_env_names(r):
    ks = r.sample(_KINDS, 4)
    return (
        "Required environment for ci/release.sh: "
        + ", ".join(k.var for k in ks)
        + f". Values live in {r.choice(['Vault', '1Password', 'TeamCity secure params'])}."
    )


def _l_k8s_ref(r):
    k = r.choice(_KINDS)
    return f"        env:\n          - name: {k.var}\n            valueFrom:\n              secretKeyRef:\n                name: {k.key.replace('_', '-')}\n                key: value{r.randint(1, 9)}\n"


def _l_dbutils(r):
    return f'steam_key = dbutils.secrets.get(scope="{r.choice(["analytics", "liveops"])}", key="steam-web-api-key")  # cell {r.randint(2, 60)}'


def _l_airflow(r):
    return f'ga_secret = Variable.get("gameanalytics_secret_{r.randint(1, 99)}")  # DAG daily_retention_export'


def _l_op_ref(r):
    return f"NAS_ADMIN_PASSWORD=op://Studio/{r.choice(['Synology', 'NAS', 'DSM'])}-{r.randint(1, 99)}/password\nWIFI_PSK=op://Office/Wi-Fi {r.choice(['5G', 'main', 'lab'])}/password"


def _l_policy(r):
    return f"Office IT policy v{r.randint(1, 9)}.{r.randint(0, 20)} ({_c(r)['date']}): Wi-Fi and NAS passwords must be 14+ characters; 'changeme', 'password1' and the studio name are rejected by the checker."


def _l_aws_doc(r):
    ex = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
    return f"From the AWS docs example (not ours, #{r.randint(1, 999)}): aws_secret_access_key = {ex}"


def _l_jwt_io(r):
    ex = (
        "ey"
        + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        + "ey"
        + "JzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
        + "SflKxwRJSMeKKF2QT4fwpMeJf36"
        + "POk6yJV_adQssw5c"
    )
    return f"Horde auth test #{r.randint(1, 9999)}: jwt.io sample token {ex} is rejected with 401 as expected."


def _l_jenkins_encrypted(r):
    return f"<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n  <id>p4-builder-{r.randint(1, 99)}</id>\n  <username>builder</username>\n  <password>{{AQAAABAAAAAQ{_s(r, _B64, 42)}=}}</password>\n</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n"


def _l_masked_log(r):
    k = r.choice(_KINDS)
    return f"[{_c(r)['time']}] Build #{r.randint(1000, 9999)}: {k.var}=******** (masked)\n[{_c(r)['time']}] Uploading depot..."


def _l_redacted_token(r):
    return f"{r.choice(['gh' + 'p_', 'xo' + 'xb-', 'glp' + 'at-', 'np' + 'm_'])}{'*' * r.randint(20, 36)} revoked on {_c(r)['date']} after the leak drill"


def _l_conn_no_pw(r):
    return f"DATABASE_URL=postgres://nakama@{r.choice(['db01.studio.lan', 'localhost'])}:{r.choice([5432, 26257])}/nakama_{_s(r, _LOW, 4)}?sslmode=disable  # local dev, trust auth"


def _l_conn_envpw(r):
    return f"mongodb+srv://leaderboard:${{MONGO_PASSWORD}}@cluster0.{_s(r, _LOWALNUM, 5)}.mongodb.net/scores"


def _l_discord_doc(r):
    return f"Discord webhook format (docs): https://discord.com/api/webhooks/{{webhook.id}}/{{webhook.token}} - store it as DISCORD_WEBHOOK_URL, item {r.randint(1, 999)}"


def _l_lfs_lock(r):
    return f"$ git lfs locks\nContent/Characters/{r.choice(['Hero', 'Innkeeper', 'Boss'])}.uasset\t{_c(r)['user']}\tID:{r.randint(100, 99999)}"


def _l_p4_changes(r):
    c = _c(r)
    return f"$ p4 changes -m 2 //depot/{c['projcode']}/...\nChange {c['cl']} on {c['date']} by {c['user']}@ws 'Bump version'\nChange {c['cl'] - 3} on {c['date']} by {c['user']}@ws 'Fix UVs'\n"


def _l_random_seed(r):
    return f"Procgen repro: dungeon seed 0x{_s(r, _HEXU, 16)}, layout hash {_s(r, _HEX, 40)}, floor {r.randint(1, 30)}"


def _l_addressables(r):
    return f"catalog_2026.12.{r.randint(1, 28)}.hash: {_s(r, _HEX, 32)}\nAssetBundle defaultlocalgroup_assets_all_{_s(r, _HEX, 32)}.bundle CRC {r.randint(10**8, 4 * 10**9)}"


def _l_hex_colors(r):
    return "UI palette: " + ", ".join("#" + _s(r, _HEXU, 6) for _ in range(6))


def _l_base64_json(r):
    payload = {
        "buildNumber": r.randint(1, 999),
        "buildStatus": r.choice(["success", "failure"]),
        "platform": "standalonewindows64",
    }
    return f"UCB webhook body (base64 in the log): {_b64e(json.dumps(payload).encode())}"


def _l_loc_keys(r):
    return f"Crowdin string id {r.randint(10**5, 10**7)} key=UI_MAINMENU_{r.choice(['START', 'QUIT', 'OPTIONS'])} hash={_s(r, _HEX, 32)} project {r.randint(100000, 999999)}"


def _l_lokalise_project(r):
    return f"Lokalise project id {_s(r, _DIG, 9)}{_s(r, _HEX, 14)}.{_s(r, _DIG, 8)} (branch main) - token is in the CI vault"


def _l_itch_ids(r):
    return f"butler status kettlebound/{r.choice(['moonfall', 'tavern'])}:windows\n| CHANNEL | UPLOAD | BUILD | VERSION |\n| windows | #{r.randint(10**6, 10**7)} | #{r.randint(10**5, 10**6)} | 1.{r.randint(0, 9)}.{r.randint(0, 99)} |"


def _l_plastic_cs(r):
    return (
        f'$ cm log cs:{r.randint(1000, 9999)} --csformat="{{changesetid}} {{guid}}"\n{r.randint(1000, 9999)} {_uuid(r)}'
    )


def _l_discord_ids(r):
    return f"Discord: guild {r.randint(10**17, 10**19 - 1)}, #builds channel {r.randint(10**17, 10**19 - 1)}, role @playtesters {r.randint(10**17, 10**19 - 1)}"


def _l_youtube_ids(r):
    return f"Trailer uploaded: https://www.youtube.com/watch?v={_s(r, _B64URL, 11)} channel UC{_s(r, _B64URL, 22)}"


def _l_reddit_ids(r):
    return f"r/{r.choice(['Moonfall', 'indiegaming', 'gamedev'])} devlog post t3_{_s(r, _LOWALNUM, 7)} user-agent: devlogbot/0.{r.randint(1, 9)} by u/kettlebound"


def _l_twitch_eventsub(r):
    return f"EventSub subscription {_uuid(r)} type=stream.online broadcaster_user_id={r.randint(10**7, 10**9)} status=enabled"


def _l_nakama_user(r):
    return f"{_c(r)['iso']} info nakama: user {_uuid(r)} joined match {_uuid(r)}.nakama1 (party size {r.randint(1, 4)})"


def _l_release_name(r):
    return f"sentry-cli releases new moonfall@1.{r.randint(0, 9)}.{r.randint(0, 99)}+{_s(r, _HEX, 12)} && sentry-cli releases set-commits --auto"


def _l_ga_event(r):
    return f"GA event {_uuid(r)}: design:level_complete:{r.choice(['harbor', 'cave'])}_{r.randint(1, 20)} value {r.randint(1, 999)} session {_uuid(r)}"


def _l_card_masked(r):
    return f"Steam payout account: card **** **** **** {r.randint(1000, 9999)}, bank ref {r.randint(10**7, 10**8)}"


def _l_xxd(r):
    lines = []
    for i in range(3):
        hx = " ".join(_s(r, _HEX, 4) for _ in range(8))
        lines.append(f"{i * 16:08x}: {hx}  ................")
    return "$ xxd -l 48 save_slot1.sav\n" + "\n".join(lines) + "\n"


def _l_csproj_guid(r):
    return f"<ProjectGuid>{{{_uuid(r).upper()}}}</ProjectGuid>\n<RootNamespace>Kettlebound.Tools</RootNamespace>"


def _l_unity_pkg_lock(r):
    return f'"com.unity.addressables": {{\n  "version": "1.{r.randint(19, 22)}.{r.randint(0, 19)}",\n  "hash": "{_s(r, _HEX, 40)}"\n}}'


def _l_door_audit(r):
    return f"Door log {_c(r)['date']} {_c(r)['time']}: badge #{r.randint(1000, 9999)} ({r.choice(_PEOPLE)}) granted at FRONT-DOOR, controller serial {_s(r, _UPALNUM, 12)}"


def _l_wifi_guest(r):
    return f"Guest Wi-Fi QR for the playtest weekend #{r.randint(1, 99)}: WIFI:S:Kettlebound-Guest;T:nopass;; (open network, captive portal)"


def _l_wifi_ask(r):
    return f"Visitors on {_c(r)['date']}: office Wi-Fi password is on the card at reception, not in chat. Door code: ask {r.choice(_PEOPLE)}."


def _l_nas_smart(r):
    return f"nas01 Storage Manager: Drive {r.randint(1, 8)} serial {_s(r, _UPALNUM, 8)}, Hyper Backup task id {r.randint(1, 30)}, last run OK {_c(r)['date']}"


def _l_unreal_projectid(r):
    return f"[/Script/EngineSettings.GeneralProjectSettings]\nProjectID={_s(r, _HEXU, 32)}\nProjectName={r.choice(_PROJECTS)}\nProjectVersion=1.{r.randint(0, 9)}.{r.randint(0, 99)}\n"


def _l_bpt_env(r):
    return f"BuildPatchTool.exe -mode=UploadBinary -OrganizationId=o-{_s(r, _LOW, 8)} -ProductId={_s(r, _HEX, 32)} -ClientId=xyza{_s(r, _ALNUM, 28)} -ClientSecretEnvVar=BPT_CLIENT_SECRET"


def _l_keychain_ref(r):
    return f'$ xcrun notarytool submit build{r.randint(1, 999)}.zip --keychain-profile "AC_PASSWORD" --wait\n# altool equivalent: -p @keychain:AC_PASSWORD'


def _l_notebook(r):
    n = r.randint(1, 90)
    return json.dumps(
        {
            "cell_type": "code",
            "execution_count": n,
            "id": _s(r, _HEX, 8),
            "metadata": {},
            "outputs": [],
            "source": ["retention = df.groupby('cohort').mean()"],
        }
    )


def _l_hf_model(r):
    return f"Loc QA uses {r.choice(['Helsinki-NLP/opus-mt-en-fi', 'facebook/nllb-200-distilled-600M', 'Helsinki-NLP/opus-mt-en-ko'])} at revision {_s(r, _HEX, 40)}"


def _l_wandb_run(r):
    return f"Balancing sim run id {_s(r, _LOWALNUM, 8)} (project kb-balance/{r.choice(['economy', 'ai-bots'])}), step {r.randint(100, 99999)}"


def _l_ms_ids(r):
    return f"Partner Center app: Tenant ID {_uuid(r)}, Client (application) ID {_uuid(r)}, seller id {r.randint(10**7, 10**8)}"


def _l_steam_doc(r):
    return f"Steam docs example: https://api.steampowered.com/ISteamUserStats/GetSchemaForGame/v2/?key=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX&appid={r.randint(480, 3200000)}"


def _l_md5_sdk(r):
    return f"Downloaded steamworks_sdk_16{r.randint(0, 2)}.zip, md5 {_s(r, _HEX, 32)} matches the partner site."


def _l_pak_crc(r):
    return "UnrealPak -List:\n" + "\n".join(
        f'LogPakFile: Display: "{r.choice(["Maps", "Audio", "UI"])}/{_s(r, _LOW, 6)}.uasset" offset: {r.randint(0, 10**9)}, size: {r.randint(10**3, 10**7)} bytes, sha1: {_s(r, _HEXU, 40)}'
        for _ in range(2)
    )


def _l_incredibuild_ids(r):
    return (
        f"IncrediBuild: build {{{_uuid(r).upper()}}} finished, {r.randint(4, 64)} helpers, agent id {_s(r, _HEXU, 16)}"
    )


def _l_teamcity_build(r):
    return f"TeamCity ##teamcity[buildNumber '1.4.{r.randint(100, 999)}'] vcs root revision {_s(r, _HEX, 40)} buildTypeId=Moonfall_Win64_{r.randint(1, 9)}"


def _l_changeme_doc(r):
    return f"README (nakama local): the default console login admin / password is documented upstream; change it before exposing port 7351. Section {r.randint(1, 40)}."


def _l_playfab_title(r):
    return f"[/Script/PlayFab.PlayFabRuntimeSettings]\nTitleId={_s(r, _HEXU, 5)}\n; DeveloperSecretKey intentionally empty in client builds #{r.randint(1, 999)}\nDeveloperSecretKey=\n"


def _l_azure_sas_nosig(r):
    return f"https://kbassets.blob.core.windows.net/builds/win64/{_s(r, _HEX, 8)}.zip (public container, no SAS needed)"


def _l_gcs_public(r):
    return f"https://storage.googleapis.com/kb-presskit/{r.choice(['logo', 'screens', 'trailer'])}_{_s(r, _HEX, 10)}.zip - public press kit bucket"


def _l_hmac_request(r):
    return f"PlayFab CloudScript log: request {_s(r, _HEXU, 16)} checksum crc32={_s(r, _HEX, 8)} payload_sha1={_s(r, _HEX, 40)}"


def _l_totp_doc(r):
    return f"Steam Guard note #{r.randint(1, 999)}: the build account uses mobile authenticator on the studio phone; codes are 5 chars and rotate every 30 s. Do not store the maFile here."


def _l_uuid_list(r):
    return "Playtest cohort ids:\n" + "\n".join(f"- {_uuid(r)}" for _ in range(3))


def _l_wallet_pub(r):
    return f"Nakama server key for the client build (public, ships in the game): socket.server_key=defaultkey-{r.choice(['dev', 'local'])}{r.randint(1, 99)}"


def _l_ssm_param(r):
    return f"aws ssm get-parameter --name /gamelift/{r.choice(['prod', 'staging'])}/nakama_http_key --with-decryption --query Parameter.Version -> {r.randint(1, 40)}"


def _l_k8s_sealed(r):
    return f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nspec:\n  encryptedData:\n    JWT_SECRET: AgB{_s(r, _B64, 120)}==\n"


def _l_git_stash(r):
    return f"$ git stash list\nstash@{{0}}: WIP on main: {_s(r, _HEX, 7)} tweak steam input\nstash@{{1}}: On dev: {_s(r, _HEX, 7)} loc fixes"


def _l_dsn_backtrace(r):
    return f"Backtrace submission URL is public (ships in crash handler): https://submit.backtrace.io/kettlebound/{r.choice(['moonfall', 'tavern'])}/minidump?build={r.randint(100, 999)}"


def _l_asc_jwt_header(r):
    return (
        json.dumps({"alg": "ES256", "kid": _s(r, _UPALNUM, 10), "typ": "JWT"})
        + f"  <- header for ASC requests, issuer {_uuid(r)}"
    )


def _l_version_strings(r):
    return f"Moonfall {r.randint(1, 2)}.{r.randint(0, 9)}.{r.randint(0, 99)}-{_s(r, _HEX, 8)} (CL {r.randint(10**5, 10**6)}, UE 5.{r.randint(3, 5)}.{r.randint(0, 4)}-{r.randint(10**7, 4 * 10**7)}+++UE5+Release-5.4)"


def _l_fi_note(r):
    k = r.choice(_KINDS)
    return f"Muistiinpano {_c(r)['date']}: {k.label} on Vaultissa polussa secret/studio/{k.key}, ei tähän. Kysy {r.choice(_PEOPLE)}lta."


def _l_ko_note(r):
    k = r.choice(_KINDS)
    return (
        f"메모: {k.label}는 1Password 'Studio' 금고에 있음. 환경 변수 {k.var} 로 주입됨 (빌드 #{r.randint(100, 9999)})."
    )


def _l_pt_note(r):
    return f"Anotação: commit {_s(r, _HEX, 40)} removeu a chave antiga do Steam; a nova fica só no cofre do TeamCity. Build {r.randint(100, 9999)}."


def _l_ru_note(r):
    return f"Заметка: request_id {_uuid(r)} — падение GameLift в {_c(r)['time']}, ключи не менялись, пароль в хранилище ${{NAS_ADMIN_PASSWORD}}."


def _l_th_note(r):
    return f"บันทึก: รหัส Wi-Fi ออฟฟิศอยู่ที่การ์ดหน้าเคาน์เตอร์ ห้องเพลย์เทสต์ {r.randint(1, 9)} ชั้น {r.randint(1, 5)} build hash {_s(r, _HEX, 12)}"


_LOOK = [v for n, v in sorted(globals().items()) if n.startswith("_l_")]


def _lookalikes(r: random.Random, seen: set) -> list:
    out = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 500:
                raise RuntimeError(f"look-alike generator {gen.__name__} cannot make {LOOK_PER_GEN} distinct texts")
            t = gen(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set = set()
    positives = _positives(r, seen)
    lookalikes = _lookalikes(r, seen)
    return positives, lookalikes
