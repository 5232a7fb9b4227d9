"""Secret-detector test set AM: A&E practice IT lead + construction sites.

Theme
-----
Memories an AI coding agent keeps for the IT lead of an architecture and engineering practice and the
construction company it designs for: Autodesk Platform Services, BIM 360 / ACC, Revit Server, Bentley
iTwin, Trimble Connect, Bluebeam, Egnyte, SharePoint, Panzura, AD / Entra ID, plotters, render nodes,
FlexLM licence servers; site side Procore, EarthCam / OpenSpace cameras, LoRaWAN / MQTT sensors,
Samsara / Geotab telematics, fuel-card portals, ADP / Gusto, Sage 300 / Viewpoint Vista, DocuSign,
Cradlepoint NetCloud, Peplink, Starlink, site Wi-Fi, VPN PSKs and SFTP drops to subcontractors.
Styles: about half notes / lessons / runbooks / TODOs / diaries / tickets / e-mails / chat (mostly English,
some Norwegian, Romanian, Ukrainian, Japanese, Tagalog, Malay), a quarter config files, a quarter tool
output.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text`` and the
  only credential in it. Every kind has exactly ``PER_KIND`` (30) positives.
* ``lookalikes``: texts with no credential at all; each generator in ``_LOOK`` contributes
  ``LOOK_PER_GEN`` distinct texts.
* Deterministic per seed (``random.Random`` seeded from the seed only); no duplicate texts overall.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs: the
  password only. Pre-signed URLs: the signature. PEM / OpenSSH private keys: the whole armoured block.
* UUID-shaped vendor secrets (DocuSign secret key, ADP client secret) are positives only when the text
  names them as a secret / key.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids, Firebase
  web apiKeys, search-only keys, public certificates and public keys), vendor example values, encrypted
  blobs (Ansible vault, sops, DPAPI .rdp blobs), password hashes, fingerprints, key ids and secret
  references are look-alikes. Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes are split and bodies drawn from the seed.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable

LOOK_PER_GEN = 12
PER_KIND = 30

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
HEX = "0123456789abcdef"
ALNUM = LOW + UP + DIG
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def rs(r: random.Random, alpha: str, n: int) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def hx(r: random.Random, n: int) -> str:
    return rs(r, HEX, n)


def uid(r: random.Random) -> str:
    h = hx(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def b64bytes(r: random.Random, n: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(n))).decode()


def b64j(obj: object) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


WORDS = [
    "tulip",
    "rover",
    "granite",
    "falcon",
    "harbour",
    "copper",
    "maple",
    "fjord",
    "beacon",
    "cedar",
    "lantern",
    "quartz",
    "willow",
    "summit",
    "ember",
    "delta",
    "orchid",
    "glacier",
    "pylon",
    "rebar",
    "girder",
    "trowel",
    "mortar",
    "cobalt",
    "saffron",
    "nordlys",
    "kestrel",
    "marigold",
    "tundra",
    "gravel",
    "crane",
    "scaffold",
    "lintel",
    "parapet",
    "truss",
    "joist",
    "atrium",
    "plinth",
    "soffit",
    "gable",
    "dormer",
]
SEASONS = ["Summer", "Winter", "Spring", "Autumn", "Vinter", "Sommer", "Host", "Vara"]
PEOPLE = [
    "Ingrid Solberg",
    "Mihai Popescu",
    "Oksana Kovalenko",
    "Kenji Sato",
    "Maria Santos",
    "Aisyah Rahman",
    "Tom Whitaker",
    "Priya Nair",
    "Lars Haugen",
    "Andreea Ionescu",
    "Yuki Tanaka",
    "Jose Dela Cruz",
    "Nurul Hakim",
    "Dmytro Bondar",
    "Grace O'Neill",
    "Sven Aas",
]
SITES = [
    "Harbour Quay Block C",
    "Bjorvika Tower",
    "Northgate Depot",
    "Riverside School",
    "Kampung Baru Lot 7",
    "Cluj Tech Park B2",
    "Makati Podium",
    "Lviv Logistics Hub",
    "Osaka Bay Annex",
    "Station Road Flats",
    "Hillcrest Hospital Wing",
    "Fornebu Campus",
]
PROJECTS = [
    "P-2231 Quayside",
    "P-2307 Tower",
    "P-2410 Depot",
    "P-2502 School",
    "P-2519 Hospital",
    "P-2604 Campus",
]
HOSTS = [
    "render-07",
    "lic-srv01",
    "rvt-srv02",
    "fs-panzura01",
    "plot-gw",
    "site-gw-03",
    "dc01",
    "util-vm04",
]


def pw(r: random.Random, safe: bool = False) -> str:
    sym = "!*-_.~" if safe else "!@#$%&*?-_"
    s = r.randrange(7)
    if s == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice(sym)}{r.randint(1, 99)}"
    if s == 1:
        return f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 999)}"
    if s == 2:
        return rs(r, ALNUM + sym, r.randint(16, 24)) + r.choice(DIG) + r.choice(sym)
    if s == 3:
        sep = r.choice(".-_")
        return sep.join(r.choice(WORDS) for _ in range(4)) + str(r.randint(1, 9))
    if s == 4:
        return f"{r.choice(WORDS).capitalize()}{r.randint(100, 9999)}{r.choice(sym)}{r.choice(WORDS)}"
    if s == 5:
        w = r.choice(WORDS).capitalize().replace("o", "0").replace("a", "4").replace("e", "3")
        return f"{w}{r.choice(sym)}{r.randint(10, 99)}{r.choice(UP)}"
    return rs(r, ALNUM, 4) + "-" + rs(r, ALNUM, 4) + "-" + rs(r, ALNUM, 4) + "-" + rs(r, ALNUM, 4)


def _jwt(r: random.Random, iss: str) -> str:
    head = b64j({"alg": "RS256", "typ": "JWT", "kid": hx(r, 8)})
    body = b64j(
        {
            "iss": iss,
            "sub": str(r.randint(10**6, 10**7)),
            "exp": 1790000000 + r.randint(0, 10**7),
        }
    )
    return f"{head}.{body}.{rs(r, B64URL, 342)}"


def _pem(r: random.Random, label: str, nbytes: int, lead: str = "") -> str:
    body = lead + b64bytes(r, nbytes)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    tag = label + " PRIV" + "ATE KEY-----"
    return "-----BEGIN " + tag + "\n" + "\n".join(lines) + "\n-----END " + tag


def _openssh(r: random.Random) -> str:
    body = "b3Blbn" + "NzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" + b64bytes(r, 300)
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    tag = "OPENSSH PRIV" + "ATE KEY-----"
    return "-----BEGIN " + tag + "\n" + "\n".join(lines) + "\n-----END " + tag


class K:
    def __init__(self, name, label, env, shape, host, fn, only=()):
        self.name, self.label, self.env, self.shape, self.host, self.fn = (
            name,
            label,
            env,
            shape,
            host,
            fn,
        )
        self.only = set(only)  # tags for kind-specific templates

    def make(self, r: random.Random) -> tuple[str, str]:
        v = self.fn(r)
        return v if isinstance(v, tuple) else (v, v)


def _url_user(r):
    return r.choice(
        [
            "svc_sync",
            "bimadmin",
            "vista_ro",
            "procore_etl",
            "site_ops",
            "reporting",
            "camadmin",
        ]
    )


def _pg(r):
    p = pw(r, True)
    return (
        f"postgresql://{_url_user(r)}:{p}@pg-{r.choice(['bim', 'site', 'cost'])}.internal:5432/{r.choice(['bimdata', 'diary', 'costs'])}",
        p,
    )


def _my(r):
    p = pw(r, True)
    return (
        f"mysql://{_url_user(r)}:{p}@10.{r.randint(10, 40)}.{r.randint(0, 9)}.{r.randint(2, 250)}:3306/plotlog",
        p,
    )


def _mongo(r):
    p = pw(r, True)
    return (
        f"mongodb+srv://{_url_user(r)}:{p}@sensors.{rs(r, LOW + DIG, 5)}.mongodb.net/telemetry?retryWrites=true",
        p,
    )


def _redis(r):
    p = rs(r, ALNUM, 32)
    return f"redis://default:{p}@cache-{r.choice(HOSTS)}:6379/0", p


def _mssql(r):
    p = pw(r, True)
    db = r.choice(["Viewpoint", "SAGE300", "VistaPR", "CompanyData"])
    return (
        f"Server=tcp:sql-{r.choice(['vista', 'sage'])}01,1433;Database={db};User Id=sa_{db.lower()};Password={p};Encrypt=True;",
        p,
    )


def _azstore(r):
    k = b64bytes(r, 64)
    acct = r.choice(["aeplotarchive", "sitecamstore", "bimbackup01", "rendercache"])
    return (
        f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={k};EndpointSuffix=core.windows.net",
        k,
    )


def _slack_hook(r):
    t = rs(r, ALNUM, 24)
    return (
        "https://hooks.slack" + f".com/services/T{rs(r, UP + DIG, 10)}/B{rs(r, UP + DIG, 10)}/{t}",
        t,
    )


def _teams_hook(r):
    t = "V2" + rs(r, B64URL, 43)
    return (
        f"https://aeco{rs(r, LOW, 4)}.webhook.office.com/webhookb2/{uid(r)}@{uid(r)}/IncomingWebhook/{hx(r, 32)}/{uid(r)}/{t}",
        t,
    )


def _discord_hook(r):
    t = rs(r, B64URL, 68)
    return "https://discord.com/api/" + f"webhooks/{r.randint(10**17, 10**18)}/{t}", t


def _sas(r):
    sig = b64bytes(r, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    u = (
        f"https://{r.choice(['aeplotarchive', 'sitecamstore'])}.blob.core.windows.net/{r.choice(['drops', 'timelapse', 'ifc'])}/"
        f"{r.choice(['L4_slab.ifc', 'week49.mp4', 'A-101.pdf'])}?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-{r.randint(10, 28)}T18:00:00Z"
        f"&spr=https&sig={sig}"
    )
    return u, sig


def _presign(r):
    sig = hx(r, 64)
    u = (
        f"https://{r.choice(['subcon-drop', 'ae-transmittals'])}.s3.eu-north-1.amazonaws.com/{r.choice(['mep', 'steel', 'facade'])}/"
        f"{r.choice(['rev-C.zip', 'shop-dwgs.pdf', 'model.nwd'])}?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential=ASIA{rs(r, UP + DIG, 4)}%2F20261205%2Feu-north-1%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20261205T{r.randint(10, 23)}0000Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return u, sig


def _rtsp(r):
    p = pw(r, True)
    return (
        f"rtsp://admin:{p}@192.168.{r.randint(1, 60)}.{r.randint(2, 250)}:554/Streaming/Channels/{r.choice([101, 102, 201])}",
        p,
    )


def _ftps(r):
    p = pw(r, True)
    return (
        f"ftps://{r.choice(['steelco', 'mep_sub', 'facades_ro'])}:{p}@sftp.{r.choice(['ae-practice.no', 'buildco.ro'])}:990/incoming",
        p,
    )


def _npw(r):
    return pw(r)


KINDS = [
    K(
        "autodesk_aps_client_secret",
        "APS client secret",
        "APS_CLIENT_SECRET",
        "tok",
        "developer.api.autodesk.com",
        lambda r: rs(r, ALNUM, 64),
    ),
    K(
        "procore_client_secret",
        "Procore client secret",
        "PROCORE_CLIENT_SECRET",
        "tok",
        "api.procore.com",
        lambda r: hx(r, 64),
    ),
    K(
        "procore_access_token",
        "Procore access token",
        "PROCORE_ACCESS_TOKEN",
        "tok",
        "api.procore.com",
        lambda r: _jwt(r, "login.procore.com"),
    ),
    K(
        "bentley_itwin_client_secret",
        "iTwin service app client secret",
        "ITWIN_CLIENT_SECRET",
        "tok",
        "api.bentley.com",
        lambda r: rs(r, ALNUM, 43),
    ),
    K(
        "trimble_connect_client_secret",
        "Trimble Connect client secret",
        "TRIMBLE_CLIENT_SECRET",
        "tok",
        "app.connect.trimble.com",
        lambda r: hx(r, 32),
    ),
    K(
        "bluebeam_client_secret",
        "Bluebeam Studio API client secret",
        "BLUEBEAM_CLIENT_SECRET",
        "tok",
        "api.bluebeam.com",
        lambda r: rs(r, ALNUM, 40),
    ),
    K(
        "egnyte_api_key",
        "Egnyte API key",
        "EGNYTE_API_KEY",
        "tok",
        "aepractice.egnyte.com",
        lambda r: rs(r, LOW + DIG, 24),
    ),
    K(
        "entra_client_secret",
        "Entra ID app client secret",
        "AZURE_CLIENT_SECRET",
        "tok",
        "login.microsoftonline.com",
        lambda r: rs(r, ALNUM, 3) + "8Q~" + rs(r, ALNUM + "_~.-", 33) + rs(r, ALNUM, 1),
    ),
    K(
        "sharepoint_client_secret",
        "SharePoint add-in client secret",
        "SP_CLIENT_SECRET",
        "tok",
        "aepractice.sharepoint.com",
        lambda r: b64bytes(r, 32),
    ),
    K(
        "samsara_api_token",
        "Samsara API token",
        "SAMSARA_API_TOKEN",
        "tok",
        "api.samsara.com",
        lambda r: "samsara" + "_api_" + rs(r, ALNUM, 30),
    ),
    K(
        "cradlepoint_netcloud_api_key",
        "NetCloud X-ECM-API-KEY",
        "NCM_ECM_API_KEY",
        "tok",
        "www.cradlepointecm.com",
        lambda r: hx(r, 40),
    ),
    K(
        "earthcam_api_key",
        "EarthCam API key",
        "EARTHCAM_API_KEY",
        "tok",
        "api.earthcam.net",
        lambda r: rs(r, ALNUM, 32),
    ),
    K(
        "openspace_api_token",
        "OpenSpace API token",
        "OPENSPACE_API_TOKEN",
        "tok",
        "api.openspace.ai",
        lambda r: rs(r, ALNUM, 48),
    ),
    K(
        "docusign_secret_key",
        "DocuSign secret key",
        "DOCUSIGN_SECRET_KEY",
        "tok",
        "account-d.docusign.com",
        uid,
    ),
    K(
        "docusign_connect_hmac_key",
        "DocuSign Connect HMAC key",
        "DOCUSIGN_HMAC_KEY",
        "tok",
        "demo.docusign.net",
        lambda r: b64bytes(r, 32),
    ),
    K(
        "adp_client_secret",
        "ADP API client secret",
        "ADP_CLIENT_SECRET",
        "tok",
        "api.adp.com",
        uid,
    ),
    K(
        "gusto_client_secret",
        "Gusto OAuth client secret",
        "GUSTO_CLIENT_SECRET",
        "tok",
        "api.gusto.com",
        lambda r: rs(r, B64URL, 43),
    ),
    K(
        "slack_bot_token",
        "Slack bot token",
        "SLACK_BOT_TOKEN",
        "tok",
        "slack.com",
        lambda r: "xo" + "xb-" + rs(r, DIG, 11) + "-" + rs(r, DIG, 13) + "-" + rs(r, ALNUM, 24),
    ),
    K(
        "github_pat",
        "GitHub personal access token",
        "GITHUB_TOKEN",
        "tok",
        "api.github.com",
        lambda r: "gh" + "p_" + rs(r, ALNUM, 36),
    ),
    K(
        "github_fine_grained_pat",
        "GitHub fine-grained token",
        "GH_PAT",
        "tok",
        "api.github.com",
        lambda r: "github" + "_pat_11" + rs(r, UP + DIG, 20) + "_" + rs(r, ALNUM, 59),
    ),
    K(
        "gitlab_pat",
        "GitLab personal access token",
        "GITLAB_TOKEN",
        "tok",
        "gitlab.ae-practice.no",
        lambda r: "glp" + "at-" + rs(r, ALNUM + "-_", 20),
    ),
    K(
        "aws_secret_access_key",
        "AWS secret access key",
        "AWS_SECRET_ACCESS_KEY",
        "tok",
        "s3.eu-north-1.amazonaws.com",
        lambda r: rs(r, ALNUM + "+/", 40),
    ),
    K(
        "azure_devops_pat",
        "Azure DevOps PAT",
        "AZURE_DEVOPS_PAT",
        "tok",
        "dev.azure.com",
        lambda r: rs(r, LOW + "234567", 52),
    ),
    K(
        "sendgrid_api_key",
        "SendGrid API key",
        "SENDGRID_API_KEY",
        "tok",
        "api.sendgrid.com",
        lambda r: "S" + "G." + rs(r, B64URL, 22) + "." + rs(r, B64URL, 43),
    ),
    K(
        "twilio_auth_token",
        "Twilio auth token",
        "TWILIO_AUTH_TOKEN",
        "tok",
        "api.twilio.com",
        lambda r: hx(r, 32),
    ),
    K(
        "stripe_secret_key",
        "Stripe secret key",
        "STRIPE_SECRET_KEY",
        "tok",
        "api.stripe.com",
        lambda r: "sk" + "_live_" + rs(r, ALNUM, r.choice([24, 99])),
    ),
    K(
        "openai_api_key",
        "OpenAI API key",
        "OPENAI_API_KEY",
        "tok",
        "api.openai.com",
        lambda r: "sk-" + "proj-" + rs(r, B64URL, 74) + "T3Blbk" + "FJ" + rs(r, B64URL, 74),
    ),
    K(
        "anthropic_api_key",
        "Anthropic API key",
        "ANTHROPIC_API_KEY",
        "tok",
        "api.anthropic.com",
        lambda r: "sk-" + "ant-api03-" + rs(r, B64URL, 93) + "AA",
    ),
    K(
        "npm_token",
        "npm automation token",
        "NPM_TOKEN",
        "tok",
        "registry.npmjs.org",
        lambda r: "np" + "m_" + rs(r, ALNUM, 36),
    ),
    K(
        "pypi_token",
        "PyPI API token",
        "PYPI_TOKEN",
        "tok",
        "upload.pypi.org",
        lambda r: "py" + "pi-" + "AgEIcHlw" + "aS5vcmc" + rs(r, B64URL, 140),
    ),
    K(
        "docker_hub_pat",
        "Docker Hub access token",
        "DOCKERHUB_TOKEN",
        "tok",
        "hub.docker.com",
        lambda r: "dckr" + "_pat_" + rs(r, B64URL, 27),
    ),
    K(
        "datadog_api_key",
        "Datadog API key",
        "DD_API_KEY",
        "tok",
        "api.datadoghq.eu",
        lambda r: hx(r, 32),
    ),
    K(
        "hashicorp_vault_token",
        "Vault token",
        "VAULT_TOKEN",
        "tok",
        "vault.ae-practice.no",
        lambda r: "hv" + "s.CAESI" + rs(r, B64URL, 86),
    ),
    K(
        "cloudflare_api_token",
        "Cloudflare API token",
        "CF_API_TOKEN",
        "tok",
        "api.cloudflare.com",
        lambda r: rs(r, B64URL, 40),
    ),
    K(
        "tailscale_auth_key",
        "Tailscale auth key",
        "TS_AUTHKEY",
        "tok",
        "login.tailscale.com",
        lambda r: "tskey" + "-auth-" + rs(r, ALNUM, 12) + "CNTRL-" + rs(r, ALNUM, 33),
    ),
    K(
        "atlassian_api_token",
        "Atlassian API token",
        "JIRA_API_TOKEN",
        "tok",
        "aepractice.atlassian.net",
        lambda r: "ATATT" + "3xFfGF0" + rs(r, B64URL, 176) + "=" + hx(r, 8).upper(),
    ),
    K(
        "okta_api_token",
        "Okta API token",
        "OKTA_API_TOKEN",
        "tok",
        "buildco.okta.com",
        lambda r: "00" + rs(r, ALNUM + "-_", 40),
    ),
    K(
        "mapbox_secret_token",
        "Mapbox secret token",
        "MAPBOX_SECRET_TOKEN",
        "tok",
        "api.mapbox.com",
        lambda r: (
            "s"
            + "k."
            + b64j(
                {
                    "u": r.choice(["aepractice", "buildco-gis"]),
                    "a": rs(r, LOW + DIG, 25),
                }
            )
            + "."
            + rs(r, B64URL, 22)
        ),
    ),
    K(
        "sentry_auth_token",
        "Sentry user auth token",
        "SENTRY_AUTH_TOKEN",
        "tok",
        "sentry.io",
        lambda r: "sntry" + "u_" + hx(r, 64),
    ),
    K(
        "telegram_bot_token",
        "Telegram bot token",
        "TELEGRAM_BOT_TOKEN",
        "tok",
        "api.telegram.org",
        lambda r: str(r.randint(10**9, 8 * 10**9)) + ":AA" + rs(r, B64URL, 33),
    ),
    K(
        "lorawan_app_key",
        "LoRaWAN AppKey",
        "LORA_APP_KEY",
        "tok",
        "eu1.cloud.thethings.network",
        lambda r: hx(r, 32).upper(),
        only=("net",),
    ),
    K(
        "snmp_community",
        "SNMP community string",
        "SNMP_COMMUNITY",
        "pw",
        "site-gw",
        lambda r: r.choice(WORDS) + rs(r, ALNUM, 6) + r.choice(["-ro", "-rw", "Mon", ""]),
        only=("net",),
    ),
    K(
        "wifi_psk",
        "site Wi-Fi WPA2 passphrase",
        "WIFI_PSK",
        "pw",
        "peplink-site",
        lambda r: pw(r, True),
        only=("net",),
    ),
    K(
        "ipsec_psk",
        "IPsec VPN pre-shared key",
        "VPN_PSK",
        "pw",
        "vpn.buildco.ro",
        lambda r: rs(r, ALNUM, r.choice([24, 32, 40])),
        only=("net",),
    ),
    K(
        "peplink_admin_password",
        "Peplink admin password",
        "PEPLINK_ADMIN_PASSWORD",
        "pw",
        "192.168.50.1",
        _npw,
        only=("net",),
    ),
    K(
        "ad_service_account_password",
        "AD service account password",
        "SVC_PASSWORD",
        "pw",
        "dc01.ae.local",
        _npw,
    ),
    K(
        "sftp_password",
        "subcontractor SFTP password",
        "SFTP_PASSWORD",
        "pw",
        "sftp.ae-practice.no",
        _npw,
    ),
    K(
        "geotab_password",
        "MyGeotab API password",
        "GEOTAB_PASSWORD",
        "pw",
        "my.geotab.com",
        _npw,
    ),
    K(
        "smtp_relay_password",
        "plotter scan-to-email SMTP password",
        "SMTP_PASSWORD",
        "pw",
        "smtp.office365.com",
        _npw,
    ),
    K(
        "fuel_card_portal_password",
        "fuel card portal password",
        "FUELCARD_PASSWORD",
        "pw",
        "portal.fuelcards.example.net",
        _npw,
    ),
    K(
        "panzura_admin_password",
        "Panzura CloudFS admin password",
        "PANZURA_ADMIN_PASSWORD",
        "pw",
        "fs-panzura01",
        _npw,
    ),
    K(
        "windows_autologon_password",
        "render node autologon password",
        "AUTOLOGON_PASSWORD",
        "pw",
        "render-07",
        _npw,
        only=("reg",),
    ),
    K(
        "mqtt_password",
        "MQTT broker password",
        "MQTT_PASSWORD",
        "pw",
        "mqtt.site-iot.local",
        _npw,
    ),
    K(
        "flexlm_admin_password",
        "licence server local admin password",
        "LICSRV_ADMIN_PASSWORD",
        "pw",
        "lic-srv01",
        _npw,
    ),
    K(
        "slack_webhook_url",
        "Slack incoming webhook",
        "SLACK_WEBHOOK_URL",
        "url",
        "hooks.slack.com",
        _slack_hook,
    ),
    K(
        "teams_webhook_url",
        "Teams incoming webhook",
        "TEAMS_WEBHOOK_URL",
        "url",
        "webhook.office.com",
        _teams_hook,
    ),
    K(
        "discord_webhook_url",
        "Discord webhook",
        "DISCORD_WEBHOOK_URL",
        "url",
        "discord.com",
        _discord_hook,
    ),
    K(
        "azure_sas_signature",
        "SAS link for the subcontractor",
        "DROP_SAS_URL",
        "url",
        "blob.core.windows.net",
        _sas,
    ),
    K(
        "aws_presigned_url_signature",
        "pre-signed S3 link",
        "TRANSMITTAL_URL",
        "url",
        "s3.amazonaws.com",
        _presign,
    ),
    K(
        "rtsp_camera_password",
        "site camera RTSP URL",
        "CAM_RTSP_URL",
        "url",
        "cam-nvr",
        _rtsp,
    ),
    K(
        "ftps_password",
        "FTPS drop URL",
        "FTPS_URL",
        "url",
        "sftp.ae-practice.no",
        _ftps,
    ),
    K(
        "postgres_password",
        "Postgres DSN",
        "DATABASE_URL",
        "conn",
        "pg-bim.internal",
        _pg,
    ),
    K(
        "mysql_password",
        "MySQL URL for the plot accounting DB",
        "PLOTLOG_DB_URL",
        "conn",
        "plotlog-db",
        _my,
    ),
    K(
        "mongodb_password",
        "Mongo Atlas URI for sensor telemetry",
        "MONGODB_URI",
        "conn",
        "mongodb.net",
        _mongo,
    ),
    K("redis_password", "Redis URL", "REDIS_URL", "conn", "cache", _redis),
    K(
        "mssql_password",
        "Vista/Sage SQL connection string",
        "VISTA_SQL_CONN",
        "conn",
        "sql-vista01",
        _mssql,
    ),
    K(
        "azure_storage_account_key",
        "storage connection string",
        "AZURE_STORAGE_CONNECTION_STRING",
        "conn",
        "blob.core.windows.net",
        _azstore,
    ),
    K(
        "openssh_private_key",
        "deploy SSH key for the SFTP drop",
        "SFTP_SSH_KEY",
        "pem",
        "sftp.ae-practice.no",
        _openssh,
    ),
    K(
        "rsa_private_key",
        "DocuSign JWT RSA private key",
        "DOCUSIGN_PRIVATE_KEY",
        "pem",
        "account.docusign.com",
        lambda r: _pem(r, "RSA", 1190, "MIIEow" + "IBAAKCAQEA"),
    ),
    K(
        "ec_private_key",
        "IoT gateway device key",
        "GATEWAY_DEVICE_KEY",
        "pem",
        "site-gw-03",
        lambda r: _pem(r, "EC", 115, "MHcCAQEE" + "I"),
    ),
]


# ---------------------------------------------------------------- templates ---------------------------------------------------
def _c(r: random.Random) -> dict:
    return {
        "who": r.choice(PEOPLE),
        "who2": r.choice(PEOPLE),
        "site": r.choice(SITES),
        "proj": r.choice(PROJECTS),
        "date": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "n": r.randint(1000, 99999),
        "host": r.choice(HOSTS),
        "hh": f"{r.randint(6, 22):02d}:{r.randint(0, 59):02d}",
    }


def _user(k: K) -> str:
    return {
        "sftp_password": "steelco_upload",
        "geotab_password": "api.sync@buildco.ro",
        "mqtt_password": "gw03",
    }.get(k.name, "svc-" + k.name.split("_")[0])


def t_note(r, k, d):
    c = _c(r)
    return f"{k.label} for {c['proj']} ({k.host}):\n{d}\nKeep here until it is in Keeper. - {c['who']}"


def t_lesson(r, k, d):
    c = _c(r)
    return (
        f"Lesson ({c['date']}): the {c['site']} sync broke because {k.env} on {c['host']} was the old one. "
        f"Current {k.label}: {d}\nNext time update the render nodes and the scheduled task together."
    )


def t_runbook(r, k, d):
    c = _c(r)
    return (
        f"Runbook - re-register {k.host} integration after a restore\n"
        f"1. RDP to {c['host']} as the IT admin account.\n"
        f"2. Stop the 'BIM Sync' service.\n"
        f"3. Paste the {k.label} below into the service config:\n{d}\n"
        f"4. Start the service and check the log for 'authenticated'.\n5. Tell {c['who']} it is back."
    )


def t_todo(r, k, d):
    c = _c(r)
    return (
        f"TODO {c['proj']}\n- [x] order plotter rolls for {c['site']}\n- [ ] rotate {k.label} when {c['who']} leaves "
        f"(current value: {d})\n- [ ] renew FlexLM options file\n- [ ] check Starlink dish firmware"
    )


def t_diary(r, k, d):
    c = _c(r)
    wx = r.choice(["rain, 6 C", "clear, 14 C", "wind 12 m/s, crane stood down", "fog until 10:00"])
    return (
        f"Site diary {c['date']} - {c['site']}\nWeather: {wx}. Crew 23, slab pour level {r.randint(2, 9)} done.\n"
        f"IT: gateway swapped, {k.label} re-entered: {d}\nVisitors: building inspector 14:00."
    )


def t_ticket(r, k, d):
    c = _c(r)
    return (
        f"INC-{c['n']} | {k.host} | P3\nReporter: {c['who']} ({c['site']})\nSymptom: integration returns 401 since {c['date']}.\n"
        f"Resolution: issued a new {k.label} and updated the job. Value: {d}\nClosed by {c['who2']}."
    )


def t_email(r, k, d):
    c = _c(r)
    first = c["who2"].split()[0]
    return (
        f"From: {c['who']} <it@ae-practice.no>\nTo: {c['who2']}\nSubject: {c['proj']} - access for the site office\n\n"
        f"Hi {first},\n\nas agreed on the call, here is the {k.label}:\n\n{d}\n\n"
        f"Please do not forward it; I will rotate it after handover.\n\nBest,\n{c['who'].split()[0]}"
    )


def t_chat(r, k, d):
    c = _c(r)
    a, b = c["who"].split()[0].lower(), c["who2"].split()[0].lower()
    return (
        f"[{c['hh']}] {a}: anyone have the {k.label}? {c['site']} integration is down\n"
        f"[{c['hh']}] {b}: yep\n[{c['hh']}] {b}: {d}\n[{c['hh']}] {a}: thanks, working again"
    )


def t_no(r, k, d):
    c = _c(r)
    return f"Notat {c['date']}: ny {k.label} for {c['site']} er {d} - husk å oppdatere lisensserveren også. Hilsen {c['who']}"


def t_ro(r, k, d):
    c = _c(r)
    return (
        f"Notă {c['date']}: {k.label} pentru șantierul {c['site']} este {d}\nNu o trimiteți pe WhatsApp. - {c['who']}"
    )


def t_uk(r, k, d):
    c = _c(r)
    return f"Нотатка {c['date']}: {k.label} для об'єкта {c['site']}:\n{d}\nЗмінити після здачі проєкту. - {c['who']}"


def t_ja(r, k, d):
    c = _c(r)
    return f"メモ {c['date']}: {c['site']} の {k.label} は以下です。\n{d}\n引き渡し後にローテーションすること。（{c['who']}）"


def t_tl(r, k, d):
    c = _c(r)
    return (
        f"Paalala {c['date']}: ang {k.label} para sa {c['site']} ay {d} - huwag ipamahagi sa labas ng IT. - {c['who']}"
    )


def t_ms(r, k, d):
    c = _c(r)
    return f"Nota {c['date']}: {k.label} untuk tapak {c['site']} ialah {d}\nSila tukar selepas serahan projek. - {c['who']}"


def t_env(r, k, d):
    c = _c(r)
    q = '"' if r.random() < 0.5 or k.shape in ("conn", "pem") else ""
    return (
        f"# {c['proj']} integration worker - {c['host']}\nLOG_LEVEL=info\nSITE_CODE={c['n']}\nTZ=Europe/Oslo\n"
        f"{k.env}={q}{d}{q}\nRETRY_MAX=5"
    )


def t_compose(r, k, d):
    c = _c(r)
    return (
        f"services:\n  bim-sync:\n    image: registry.ae-practice.no/bim-sync:{r.randint(1, 4)}.{r.randint(0, 20)}\n"
        f'    restart: unless-stopped\n    environment:\n      SITE: "{c["site"]}"\n      {k.env}: "{d}"\n'
        f"    volumes:\n      - /srv/bim:/data"
    )


def t_json(r, k, d):
    c = _c(r)
    cfg = {
        "project": c["proj"],
        "endpoint": f"https://{k.host}",
        k.env.lower(): d,
        "poll_seconds": r.choice([60, 300, 900]),
    }
    return json.dumps(cfg, indent=2, ensure_ascii=False)


def t_yaml(r, k, d):
    c = _c(r)
    return (
        f"# {c['site']} gateway\nintegration:\n  name: {k.name.split('_')[0]}\n  base_url: https://{k.host}\n"
        f"  {k.env.lower()}: '{d}'\n  timeout: 30\n"
    )


def t_ini(r, k, d):
    c = _c(r)
    return f"; {c['proj']} connector\n[{k.name.split('_')[0]}]\nhost = {k.host}\nuser = {_user(k)}\n{k.env.lower()} = {d}\nverify_tls = true"


def t_ps_profile(r, k, d):
    c = _c(r)
    return (
        f"# Microsoft.PowerShell_profile.ps1 on {c['host']}\nImport-Module ActiveDirectory\n"
        f"$env:{k.env} = '{d}'\nSet-Location D:\\Projects\\{c['proj'].split()[0]}"
    )


def t_py(r, k, d):
    c = _c(r)
    if k.shape == "pem":
        return f'# settings.py ({c["proj"]})\nDEBUG = False\n{k.env} = """{d}\n"""\nALLOWED_HOSTS = ["{c["host"]}"]'
    return f'# settings.py ({c["proj"]})\nDEBUG = False\nTIME_ZONE = "Europe/Oslo"\n{k.env} = "{d}"\nALLOWED_HOSTS = ["{c["host"]}"]'


def t_reg(r, k, d):
    c = _c(r)
    return (
        "Windows Registry Editor Version 5.00\n\n"
        "[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]\n"
        f'"AutoAdminLogon"="1"\n"DefaultUserName"="render"\n"DefaultDomainName"="AE"\n"DefaultPassword"="{d}"\n'
        f"; deployed to {c['host']} for Deadline workers"
    )


def t_router(r, k, d):
    c = _c(r)
    line = {
        "wifi_psk": f"  wpa-psk {d}",
        "ipsec_psk": f"  pre-shared-key {d}",
        "snmp_community": f"snmp-server community {d} RO",
        "peplink_admin_password": f"admin password {d}",
        "lorawan_app_key": f"  app_key {d}",
    }[k.name]
    return f"! {c['site']} edge router - exported {c['date']}\nhostname site-gw-{r.randint(1, 30):02d}\ninterface wlan0\n  ssid BUILDCO-SITE\n{line}\nntp server 0.no.pool.ntp.org\nend"


def t_cli(r, k, d):
    c = _c(r)
    if k.shape == "pem":
        return f"it@{c['host']}:~$ cat ~/keys/{k.env.lower()}.pem\n{d}\nit@{c['host']}:~$ chmod 600 ~/keys/{k.env.lower()}.pem"
    return (
        f"it@{c['host']}:~$ export {k.env}='{d}'\nit@{c['host']}:~$ ./sync.sh --site {c['n']}\n"
        f"[ok] authenticated against {k.host}\n[ok] {r.randint(3, 300)} items pulled"
    )


def t_pwsh(r, k, d):
    return (
        f"PS C:\\Users\\itadmin> $cfg = Get-Content .\\connector.json | ConvertFrom-Json\n"
        f"PS C:\\Users\\itadmin> $cfg.{k.env.lower()}\n{d}\nPS C:\\Users\\itadmin> Restart-Service BimSync -Verbose\n"
        f'VERBOSE: Performing the operation "Restart-Service" on target "BIM Sync (BimSync)".'
    )


def t_curl(r, k, d):
    c = _c(r)
    if k.shape == "url":
        return f"$ curl -v -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"plotter queue stuck\"}}' '{d}'\n< HTTP/1.1 200 OK\nok"
    if k.shape == "pw":
        return f'$ curl -v -u {_user(k)}:{d} https://{k.host}/api/v1/status\n*   Trying 10.20.{r.randint(0, 9)}.{r.randint(2, 250)}:443...\n< HTTP/1.1 200 OK\n{{"status":"up"}}'
    return (
        f"$ curl -v https://{k.host}/rest/v1.0/projects?company_id={c['n']}\n*   Trying 104.18.{r.randint(0, 255)}.{r.randint(1, 254)}:443...\n"
        f"> GET /rest/v1.0/projects HTTP/2\n> Host: {k.host}\n> Authorization: Bearer {d}\n> Accept: */*\n>\n< HTTP/2 200\n"
        f"< x-request-id: {uid(r)}"
    )


def t_dlogs(r, k, d):
    c = _c(r)
    return (
        f"bim-sync-1  | {c['date']}T{c['hh']}:01Z INFO starting worker site={c['n']}\n"
        f"bim-sync-1  | {c['date']}T{c['hh']}:01Z DEBUG loaded config {k.env}={d}\n"
        f"bim-sync-1  | {c['date']}T{c['hh']}:02Z INFO connected to {k.host}"
    )


def t_ci(r, k, d):
    c = _c(r)
    return (
        f"Run ./deploy/publish-addin.ps1\n  shell: pwsh\n  env:\n    SITE: {c['site']}\n"
        f"Deploying Revit add-in to {c['host']}\nWARNING: secret masking disabled for this step\nUsing {k.env}={d}\n"
        f"Deployed in {r.randint(20, 200)}s"
    )


def t_console(r, k, d):
    c = _c(r)
    return (
        f"site-gw-{r.randint(1, 30):02d}> show running-config | include {k.name.split('_')[0]}\n"
        f"{k.env.lower()} {d}\nsite-gw-{r.randint(1, 30):02d}> exit\nConnection to {c['host']} closed."
    )


ALL = {"tok", "pw", "url", "conn", "pem"}
NOTPEM = ALL - {"pem"}
# (function, category, shapes, required tag)
TEMPLATES = [
    (t_note, "note", ALL, None),
    (t_lesson, "note", NOTPEM, None),
    (t_runbook, "note", ALL, None),
    (t_todo, "note", NOTPEM, None),
    (t_diary, "note", ALL, None),
    (t_ticket, "note", ALL, None),
    (t_email, "note", ALL, None),
    (t_chat, "note", NOTPEM, None),
    (t_no, "note", NOTPEM, None),
    (t_ro, "note", ALL, None),
    (t_uk, "note", ALL, None),
    (t_ja, "note", ALL, None),
    (t_tl, "note", NOTPEM, None),
    (t_ms, "note", ALL, None),
    (t_env, "config", ALL, None),
    (t_compose, "config", NOTPEM, None),
    (t_json, "config", NOTPEM, None),
    (t_yaml, "config", NOTPEM, None),
    (t_ini, "config", NOTPEM, None),
    (t_ps_profile, "config", NOTPEM, None),
    (t_py, "config", ALL, None),
    (t_reg, "config", {"pw"}, "reg"),
    (t_router, "config", {"pw", "tok"}, "net"),
    (t_cli, "output", ALL, None),
    (t_pwsh, "output", NOTPEM, None),
    (t_curl, "output", {"tok", "pw", "url"}, None),
    (t_dlogs, "output", NOTPEM, None),
    (t_ci, "output", NOTPEM, None),
    (t_console, "output", {"pw", "tok"}, "net"),
]


def _pick(r: random.Random, k: K) -> Callable:
    tagged = [t for t, _, shapes, tag in TEMPLATES if tag and tag in k.only and k.shape in shapes]
    if tagged and r.random() < 0.4:
        return r.choice(tagged)
    cat = r.choices(["note", "config", "output"], weights=[2, 1, 1])[0]
    ok = [t for t, c, shapes, tag in TEMPLATES if c == cat and k.shape in shapes and tag is None]
    return r.choice(ok)


# ---------------------------------------------------------------- look-alikes -------------------------------------------------
def _d(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _p(r):
    return r.choice(PEOPLE)


def _s(r):
    return r.choice(SITES)


def _h(r):
    return r.choice(HOSTS)


def _ph(r):
    return r.choice(PROJECTS)


def _png(r):
    raw = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(r.getrandbits(8) for _ in range(r.randint(60, 120)))
    return base64.b64encode(raw).decode()


def _ssh_pub(r):
    return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(r, B64, 43) + f" {r.choice(['it', 'render', 'deploy'])}@{_h(r)}"


def _cert(r):
    body = "MIID" + b64bytes(r, 600)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----"


def _bcrypt(r):
    return f"$2b${r.choice(['10', '12'])}$" + rs(r, ALNUM + "./", 53)


def _argon(r):
    return f"$argon2id$v=19$m=65536,t=3,p=4${rs(r, B64, 22)}${rs(r, B64, 43)}"


_LOOK: list[Callable[[random.Random], str]] = [
    lambda r: (
        f"Deployed Revit add-in v{r.randint(1, 5)}.{r.randint(0, 30)} from commit {hx(r, 40)} to all workstations on {_d(r)}."
    ),
    lambda r: (
        f"Revit_{r.choice([2024, 2025, 2026])}_G1_Win_64bit_dlm.sfx.exe\nSHA256: {hx(r, 64).upper()}\nverified against Autodesk account page"
    ),
    lambda r: (
        f"plot job {r.randint(1000, 9999)} A0 sheet A-{r.randint(100, 399)} md5={hx(r, 32)} pages=1 media=bond-90gsm"
    ),
    lambda r: f"Procore API 429 again at {_d(r)} - X-Request-Id: {uid(r)} - backing off 60s ({_s(r)} daily log sync)",
    lambda r: f"ACC project id for {_ph(r)}: b.{uid(r)} (hub b.{uid(r)}), use it in the Data Connector filter.",
    lambda r: (
        "APS object URN for the coordination model: dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6"
        + base64.urlsafe_b64encode(
            f"ae-{rs(r, LOW, 6)}/{r.choice(['central', 'MEP', 'STR'])}_{r.randint(1, 99)}.rvt".encode()
        )
        .decode()
        .rstrip("=")
    ),
    lambda r: (
        f"APS app '{r.choice(['Model Sync', 'Sheet Export', 'Clash Feed'])}' client ID: {rs(r, ALNUM, 32)} (the secret is in Keeper, not here)"
    ),
    lambda r: (
        f"Procore app registered. client_id={hx(r, 64)[:43]} redirect_uri=https://ops.buildco.ro/procore/callback - secret stored in Azure Key Vault kv-site-ops"
    ),
    lambda r: (
        f"Entra app registration 'BIM-Sync'\nApplication (client) ID: {uid(r)}\nDirectory (tenant) ID: {uid(r)}\nObject ID: {uid(r)}"
    ),
    lambda r: (
        f"Client secret rotated {_d(r)}. Secret ID: {uid(r)}  Expires: 2027-{r.randint(1, 12):02d}-01  Value: (hidden after creation, see Key Vault)"
    ),
    lambda r: "Fuel card top-up page uses Stripe. publishableKey: 'pk" + "_live_" + rs(r, ALNUM, 99) + "'",
    lambda r: (
        "Site map widget token (public, URL-restricted): p"
        + "k."
        + b64j({"u": "buildco-gis", "a": rs(r, LOW + DIG, 25)})
        + "."
        + rs(r, B64URL, 22)
    ),
    lambda r: f'reCAPTCHA on the subcontractor portal: data-sitekey="6L{rs(r, B64URL, 38)}" (site key, public)',
    lambda r: (
        f"SENTRY_DSN=https://{hx(r, 32)}@o{r.randint(10**5, 10**6)}.ingest.de.sentry.io/{r.randint(10**6, 10**7)}"
    ),
    lambda r: (
        'const firebaseConfig = {\n  apiKey: "AI'
        + "za"
        + rs(r, B64URL, 35)
        + f'",\n  authDomain: "site-diary-{rs(r, LOW, 4)}.firebaseapp.com",\n  projectId: "site-diary-{rs(r, LOW, 4)}"\n}};'
    ),
    lambda r: (
        f"Algolia for the drawing register search: appId {rs(r, UP + DIG, 10)}, search-only key {hx(r, 32)} (safe in the browser)"
    ),
    lambda r: (
        "SUPABASE_ANON_KEY="
        + b64j({"alg": "HS256", "typ": "JWT"})
        + "."
        + b64j({"iss": "supabase", "ref": rs(r, LOW, 20), "role": "anon"})
        + "."
        + rs(r, B64URL, 43)
    ),
    lambda r: (
        f"APS_CLIENT_SECRET=<your-aps-client-secret>\nAPS_CLIENT_ID=<your-aps-client-id>\n# fill these in for {_ph(r)} on {_h(r)} (worker #{r.randint(1, 40)})"
    ),
    lambda r: (
        f'services:\n  procore-etl:\n    environment:\n      PROCORE_CLIENT_SECRET: ${{PROCORE_CLIENT_SECRET}}\n      SITE_ID: "{r.randint(100, 999)}"'
    ),
    lambda r: (
        f"- name: Push telematics\n  env:\n    SAMSARA_API_TOKEN: ${{{{ secrets.SAMSARA_API_TOKEN }}}}\n    FLEET: fleet-{r.randint(1, 40)}"
    ),
    lambda r: (
        f'geotab_pw = Variable.get("geotab_password")  # Airflow variable, set in UI by {_p(r)}\nfleet = {r.randint(1, 40)}'
    ),
    lambda r: (
        f'pwd = dbutils.secrets.get(scope="vista-{r.choice(["prod", "test"])}", key="{r.choice(["sql", "sage", "vista"])}-password-{r.randint(1, 9)}")\ndf = spark.read.jdbc(url, "JCCD", properties={{\'password\': pwd}})'
    ),
    lambda r: (
        f"Wi-Fi PSKs now live in Vault: vault kv get -field=psk secret/sites/{r.choice(['harbour-quay', 'northgate', 'fornebu'])}/wifi (ticket INC-{r.randint(1000, 9999)})"
    ),
    lambda r: (
        f"App setting DocuSignSecret = @Microsoft.KeyVault(SecretUri=https://kv-ae-{rs(r, LOW, 4)}.vault.azure.net/secrets/docusign-secret/{hx(r, 32)})"
    ),
    lambda r: (
        f"Env vars the worker needs: {', '.join(r.sample(['EGNYTE_API_KEY', 'PROCORE_CLIENT_SECRET', 'APS_CLIENT_SECRET', 'SFTP_PASSWORD', 'VPN_PSK', 'MQTT_PASSWORD', 'GEOTAB_PASSWORD'], 4))} - all injected from Key Vault at start."
    ),
    lambda r: (
        f"Peplink quick start (vendor doc): default admin / admin, change it on first login. Our units: {r.randint(2, 30)} at {_s(r)}."
    ),
    lambda r: f"NetCloud API key: ********************{hx(r, 4)} (masked in the console, full value only in Keeper)",
    lambda r: "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hx(r, 80) for _ in range(r.randint(3, 6))),
    lambda r: (
        f"vpn:\n  psk: ENC[AES256_GCM,data:{rs(r, B64, 32)},iv:{rs(r, B64, 43)}=,tag:{rs(r, B64, 22)}==,type:str]\nsops:\n  kms: []\n  age:\n    - recipient: age1{rs(r, '023456789acdefghjklmnpqrstuvwxyz', 58)}"
    ),
    lambda r: f"users.db row: username=site_{rs(r, LOW, 5)} password_hash={_bcrypt(r)} created={_d(r)}",
    lambda r: f"Portal stores hashes only: {_argon(r)}",
    lambda r: (
        f"The authenticity of host 'sftp.ae-practice.no' can't be established.\nED25519 key fingerprint is SHA256:{rs(r, B64, 43)}.\nAre you sure you want to continue connecting (yes/no)? yes"
    ),
    lambda r: f"GPG key for signing transmittals: {' '.join(hx(r, 4).upper() for _ in range(10))} ({_p(r)})",
    lambda r: (
        f"PS> Get-ChildItem Cert:\\LocalMachine\\My\n\nThumbprint                                Subject\n----------                                -------\n{hx(r, 40).upper()}  CN=rvt-srv02.ae.local"
    ),
    lambda r: f"Public cert for the Revit Server proxy (safe to share with the GC):\n{_cert(r)}",
    lambda r: f"Add this public key to authorized_keys on {_h(r)}:\n{_ssh_pub(r)}",
    lambda r: f"KMS key for the backups: arn:aws:kms:eu-north-1:{r.randint(10**11, 10**12)}:key/{uid(r)}",
    lambda r: json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 200),
            "id": hx(r, 8),
            "metadata": {},
            "outputs": [],
            "source": ["df = load_sensor_csv('L" + str(r.randint(1, 9)) + "')"],
        },
        indent=1,
    ),
    lambda r: f"Site logo for the diary template: data:image/png;base64,{_png(r)}",
    lambda r: (
        "# BEGIN FLEXlm options\n"
        + f"SERVER lic-srv01 {hx(r, 12).upper()} 27000\nVENDOR adskflex port=2080\n"
        + f'FEATURE 87{r.randint(100, 999)}ACD_2026_0F adskflex 1.000 permanent {r.randint(5, 60)} SIGN="{" ".join(hx(r, 4).upper() for _ in range(16))}"'
    ),
    lambda r: (
        f"lmutil lmstat -a -c 27000@lic-srv01\nUsers of 87{r.randint(100, 999)}RVT_2026_0F:  (Total of {r.randint(10, 60)} licenses issued;  Total of {r.randint(1, 9)} licenses in use)\n  {_p(r).split()[0].lower()} ws-{r.randint(10, 99)} ws-{r.randint(10, 99)} (v2026.0) (lic-srv01/27000 {r.randint(100, 999)}), start Fri 12/4 8:{r.randint(10, 59)}"
    ),
    lambda r: (
        f"screen mode id:i:2\nfull address:s:{_h(r)}.ae.local\nusername:s:AE\\itadmin\npassword 51:b:01000000D08C9DDF0115D1118C7A00C04FC297EB01000000{hx(r, 120).upper()}\nauthentication level:i:2"
    ),
    lambda r: (
        f'Windows Registry Editor Version 5.00\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]\n"AutoAdminLogon"="0"\n"DefaultUserName"="render{r.randint(1, 40)}"\n"DefaultPassword"=""'
    ),
    lambda r: f"image: registry.ae-practice.no/render-node@sha256:{hx(r, 64)} pulled on {_h(r)}",
    lambda r: (
        f'"node_modules/@autodesk/viewer": {{"version": "7.{r.randint(80, 110)}.0", "integrity": "sha512-{rs(r, B64, 86)}=="}}'
    ),
    lambda r: f"ifcopenshell=={r.randint(0, 8)}.{r.randint(0, 9)}.{r.randint(0, 9)} --hash=sha256:{hx(r, 64)}",
    lambda r: (
        f"Deadline job {hx(r, 24)} finished: {r.randint(100, 900)} frames, render-{r.randint(1, 12):02d}..render-{r.randint(13, 24)}"
    ),
    lambda r: (
        f"Using model {r.choice(['sentence-transformers/all-MiniLM-L6-v2', 'BAAI/bge-small-en-v1.5', 'intfloat/e5-base-v2'])} rev {hx(r, 40)} for the spec search index"
    ),
    lambda r: (
        f"wandb: Syncing run {rs(r, LOW + DIG, 8)} to https://wandb.ai/ae-practice/facade-classifier/runs/{rs(r, LOW + DIG, 8)}"
    ),
    lambda r: (
        f"Trimble Connect project {rs(r, B64URL, 22)} - folder {rs(r, B64URL, 22)} holds the survey point clouds for {_s(r)}"
    ),
    lambda r: (
        f"iTwin id {uid(r)}, iModel id {uid(r)}, changeset {hx(r, 40)} - synchronised from MicroStation at {r.randint(6, 20)}:00"
    ),
    lambda r: (
        f"Egnyte folder_id {uid(r)} /Shared/Projects/{_ph(r)}/05_Transmittals (group id {r.randint(10**5, 10**6)})"
    ),
    lambda r: f"SharePoint site id: aepractice.sharepoint.com,{uid(r)},{uid(r)} - drive id b!{rs(r, B64URL, 64)}",
    lambda r: (
        f"Samsara vehicle id {r.randint(10**14, 10**15)} (excavator {r.randint(1, 30)}), gateway serial {rs(r, UP + DIG, 4)}-{rs(r, UP + DIG, 3)}-{rs(r, UP + DIG, 3)}"
    ),
    lambda r: (
        f"Geotab device G9{rs(r, UP + DIG, 10)} VIN {rs(r, 'ABCDEFGHJKLMNPRSTUVWXYZ' + DIG, 17)} assigned to {_s(r)}"
    ),
    lambda r: (
        f"Cradlepoint IBR900 at {_s(r)}: serial MM{r.randint(10**9, 10**10)}, MAC 00:30:44:{hx(r, 2)}:{hx(r, 2)}:{hx(r, 2)}, router id {r.randint(10**6, 10**7)}"
    ),
    lambda r: f"Starlink kit {_s(r)}: dish id ut{hx(r, 8)}-{hx(r, 8)}-{hx(r, 8)}, router {rs(r, UP + DIG, 14)}",
    lambda r: f"Site router SIM: ICCID 8947{r.randint(10**14, 10**15)}, IMEI 35{r.randint(10**12, 10**13)}",
    lambda r: (
        f"Peplink config export (passwords removed):\nwlan ssid BUILDCO-GUEST\n  security wpa2-personal\n  psk <removed>\nadmin user admin password <removed>\n# exported {_d(r)}"
    ),
    lambda r: f"DocuSign envelope {uid(r)} completed by {_p(r)} (subcontract {_ph(r)})",
    lambda r: f"ADP worker associateOID G3{rs(r, UP + DIG, 14)} payroll group {rs(r, UP, 3)} pay period ending {_d(r)}",
    lambda r: (
        f"AD: svc-flexlm password expires in {r.randint(2, 20)} days; policy requires 16+ chars, set via LAPS on {_h(r)}."
    ),
    lambda r: (
        f"PS> Get-LapsADPassword -Identity {_h(r).upper()} -AsPlainText:$false\nComputerName        : {_h(r).upper()}\nPassword            : System.Security.SecureString\nExpirationTimestamp : {_d(r)} 02:00:00"
    ),
    lambda r: f"BitLocker on {_h(r)}: key protector ID {{{uid(r).upper()}}} - recovery key escrowed to Entra ID",
    lambda r: f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(r, 64)}\nsize {r.randint(10**5, 10**9)}",
    lambda r: (
        f"Run ./sync.sh\n  PROCORE_CLIENT_SECRET: ***\n  EGNYTE_API_KEY: ***\n[ok] {r.randint(5, 300)} RFIs synced (run {r.randint(10**9, 10**10)})"
    ),
    lambda r: (
        f"CI run https://github.com/ae-practice/revit-addins/actions/runs/{r.randint(10**9, 10**10)}/job/{r.randint(10**10, 10**11)} green after cache key {hx(r, 64)}"
    ),
    lambda r: (
        f'terraform state show azurerm_key_vault_secret.procore\n  id = "https://kv-site-ops.vault.azure.net/secrets/procore/{hx(r, 32)}"\n  value = (sensitive value)'
    ),
    lambda r: (
        f"env:\n  - name: EGNYTE_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: egnyte-{rs(r, LOW, 5)}\n        key: api-key"
    ),
    lambda r: (
        f"SFTP password is in AWS Secrets Manager: arn:aws:secretsmanager:eu-north-1:{r.randint(10**11, 10**12)}:secret:sftp/steelco-{rs(r, ALNUM, 6)}"
    ),
    lambda r: (
        f'op read "op://Site IT/{_s(r)} Wi-Fi/password" - use this in the provisioning script, never paste the value ({_p(r)})'
    ),
    lambda r: f"Bitwarden item {uid(r)} 'Panzura admin' moved to collection {uid(r)}",
    lambda r: (
        f"Timelapse bucket: https://sitecamstore.blob.core.windows.net/timelapse/{rs(r, LOW, 6)}/week{r.randint(1, 52)}.mp4 (private container, needs a fresh SAS)"
    ),
    lambda r: (
        f'< HTTP/1.1 200 OK\n< ETag: "{hx(r, 32)}"\n< x-amz-request-id: {rs(r, UP + DIG, 16)}\n< x-amz-id-2: {rs(r, B64, 76)}'
    ),
    lambda r: f"Cloudflare blocked the upload: Ray ID {hx(r, 16)} at {r.randint(10, 23)}:{r.randint(10, 59)} UTC",
    lambda r: (
        f"AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.\nTrace ID: {uid(r)}\nCorrelation ID: {uid(r)}\nTimestamp: {_d(r)} 0{r.randint(1, 9)}:12:44Z"
    ),
    lambda r: json.dumps(
        {
            "id": r.randint(10**6, 10**7),
            "resource_name": "RFIs",
            "event_type": "update",
            "company_id": r.randint(10**4, 10**5),
            "project_id": r.randint(10**5, 10**6),
            "ulid": rs(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 26),
        }
    ),
    lambda r: f"OpenSpace capture {uid(r)} level {r.randint(1, 9)} walked by {_p(r)}, sheet id {hx(r, 24)}",
    lambda r: (
        f"EarthCam camera ECAM-{r.randint(1000, 9999)} at {_s(r)}: stream id {hx(r, 16)}, timelapse job {rs(r, ALNUM, 12)}"
    ),
    lambda r: (
        f"LoRa sensor onboarding: DevEUI {hx(r, 16).upper()}, JoinEUI {hx(r, 16).upper()} (AppKey is generated by TTN and stays there)"
    ),
    lambda r: f"mqtt client id concrete-temp-{hx(r, 6)} topic site/{rs(r, LOW, 4)}/slab{r.randint(1, 9)}/temp qos 1",
    lambda r: f'def test_parse_serial():\n    assert parse("{uid(r)}") == UUID("{uid(r)}")',
    lambda r: f"tests/test_ifc.py::test_hash PASSED\n  expected digest {hx(r, 40)}\n  actual   digest {hx(r, 40)}",
    lambda r: (
        f"GET /authorize?response_type=code&client_id={uid(r)}&state={rs(r, B64URL, 22)}&code_challenge={rs(r, B64URL, 43)}&code_challenge_method=S256"
    ),
    lambda r: (
        f"Drawing colours: primary #{hx(r, 6)}, secondary #{hx(r, 6)}, hatch #{hx(r, 6)} - from the {r.choice(['2025', '2026'])} brand guide"
    ),
    lambda r: (
        f"Central model: \\\\rvt-srv02\\RevitServer2026\\{_ph(r).split()[0]}\\ARC_central.rvt  ModelGUID {uid(r)}  EpisodeGUID {uid(r)}"
    ),
    lambda r: (
        f"Bluebeam Studio Session {r.randint(100, 999)}-{r.randint(100, 999)}-{r.randint(100, 999)} '{_s(r)} punch list' invited {r.randint(3, 30)} attendees"
    ),
    lambda r: f"Panzura snapshot {hx(r, 16)} taken {_d(r)} on fs-panzura01, cloud object prefix {hx(r, 8)}/",
    lambda r: (
        f"Sage 300 GL batch {r.randint(1000, 9999)} posted: account {r.randint(1000, 9999)}-{r.randint(100, 999)}, entry {hx(r, 10).upper()}"
    ),
    lambda r: (
        f"Vista job {r.randint(10, 99)}-{r.randint(1000, 9999)}, phase {r.randint(1, 50):02d}-{r.randint(100, 999)}, cost type {r.randint(1, 9)}, batch id {r.randint(10**5, 10**6)}"
    ),
    lambda r: f"$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{rs(r, B64, 43)} it@{_h(r)} (ED25519)",
    lambda r: (
        f"To make a new PSK run `openssl rand -base64 {r.choice([24, 32, 48])}` on {_h(r)} and store it in Vault under secret/sites/<site>/vpn - do not paste it here."
    ),
    lambda r: (
        f"Fuel card ending {r.randint(1000, 9999)} (**** **** **** {r.randint(1000, 9999)}) blocked after loss at {_s(r)}"
    ),
    lambda r: f"Gusto payroll run {uid(r)} processed for {r.randint(5, 80)} employees, check date {_d(r)}",
    lambda r: (
        f"Entra secret hint for BIM-Sync: {rs(r, ALNUM, 3)}******** (expires {_d(r)}); new one requested in INC-{r.randint(1000, 9999)}"
    ),
    lambda r: json.dumps(
        {
            "keys": [
                {
                    "kty": "RSA",
                    "use": "sig",
                    "kid": hx(r, 16),
                    "alg": "RS256",
                    "e": "AQAB",
                    "n": rs(r, B64URL, 342),
                }
            ]
        }
    ),
    lambda r: (
        f"DNS TXT for Entra domain verify: MS=ms{r.randint(10**7, 10**8)}; google-site-verification={rs(r, B64URL, 43)}"
    ),
    lambda r: (
        f'selector1._domainkey TXT "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{rs(r, B64, 180)}IDAQAB"'
    ),
    lambda r: (
        f"Get-ADUser svc-revit -Properties objectSid\nSID : S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(1000, 9999)}"
    ),
    lambda r: (
        f"tailscale status\n100.{r.randint(64, 127)}.{r.randint(0, 255)}.{r.randint(1, 254)}  {_h(r)}  it@  linux  active; direct\n# node key nodekey:{hx(r, 64)}"
    ),
    lambda r: (
        f"[Peer]\n# site-gw-{r.randint(1, 30):02d}\nPublicKey = {b64bytes(r, 32)}\nAllowedIPs = 10.{r.randint(50, 90)}.0.0/24\nEndpoint = vpn.buildco.ro:51820"
    ),
    lambda r: f"age recipient for sops in the site repo: age1{rs(r, '023456789acdefghjklmnpqrstuvwxyz', 58)}",
    lambda r: (
        f"Plotter HP DesignJet T{r.choice([1700, 2600, 1600])} at {_s(r)}: serial {rs(r, UP + DIG, 10)}, firmware {r.randint(10, 99)}.{r.randint(0, 9)}.{r.randint(0, 99)}, admin password set via Web JetAdmin policy (not recorded)"
    ),
    lambda r: (
        f"Event 4625 on dc01: An account failed to log on. Account Name: svc-{rs(r, LOW, 5)} Logon GUID: {{{uid(r)}}} Process ID: 0x{hx(r, 4)}"
    ),
    lambda r: (
        f"SMTP relay test to smtp.office365.com:587 -> 250 2.0.0 OK <{hx(r, 16)}@{r.choice(['plot-gw', 'scan01'])}> queued as {rs(r, UP + DIG, 12)}"
    ),
    lambda r: (
        f"MQTT_PASSWORD=changeme\nMQTT_USER=gateway\n# example values from the vendor README - the real ones come from provisioning ({_s(r)}, gateway {r.randint(1, 99)})"
    ),
    lambda r: (
        f'SFTP_PASSWORD=""\nSFTP_USER=steelco_upload\nSFTP_HOST=sftp.ae-practice.no  # password removed, use the key in Keeper (ticket INC-{r.randint(1000, 9999)})'
    ),
    lambda r: (
        f"Docs: `export PROCORE_CLIENT_SECRET=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` then run `procore-sync --company {r.randint(1000, 9999)}`"
    ),
    lambda r: (
        f"Teams channel email for alerts: {hx(r, 8)}.aepractice.onmicrosoft.com@emea.teams.ms (not a webhook, just mail-in)"
    ),
    lambda r: (
        f"Slack channel {r.choice(['#site-it', '#bim-ops', '#render-farm'])} id C{rs(r, UP + DIG, 10)}, team T{rs(r, UP + DIG, 10)}, bot user U{rs(r, UP + DIG, 10)}"
    ),
    lambda r: (
        f"ACC webhook registered: hookId {uid(r)} event dm.version.added scope folder urn:adsk.wipprod:fs.folder:co.{rs(r, B64URL, 22)}"
    ),
    lambda r: (
        f'JWT header from the Procore response (decoded, no signature): {{"alg":"RS256","kid":"{hx(r, 16)}"}} iat={1790000000 + r.randint(0, 10**7)}'
    ),
    lambda r: (
        f"HMAC check failed for DocuSign Connect message {uid(r)}: X-DocuSign-Signature-1 header missing (config issue, not the key)"
    ),
    lambda r: (
        f"Render farm stats {_d(r)}: {r.randint(10, 40)} nodes, avg GPU {r.randint(40, 99)}%, queue hash {hx(r, 12)}"
    ),
    lambda r: (
        f"Windows product activation on {_h(r)}: Installation ID {' '.join(str(r.randint(10**6, 10**7 - 1)) for _ in range(9))} (KMS activated)"
    ),
    lambda r: f"STARLINK_PASSWORD={{{{ vault('secret/data/sites/{rs(r, LOW, 6)}/starlink', 'password') }}}}",
    lambda r: (
        f"$secure = Read-Host -AsSecureString 'Egnyte token'\n$enc = ConvertFrom-SecureString $secure\n# stored DPAPI blob: 01000000d08c9ddf0115d1118c7a00c04fc297eb01000000{hx(r, 96)}"
    ),
    lambda r: f"AES key id for the backup set: {uid(r)} (the key itself is in the HSM) - rotated {_d(r)}",
    lambda r: f"openspace webhook delivery {uid(r)} -> 200 in {r.randint(30, 900)} ms, payload sha256={hx(r, 64)}",
]


# ---------------------------------------------------------------- generate ----------------------------------------------------
def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(f"amsets-{seed}")
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for k in KINDS:
        got, tries = 0, 0
        while got < PER_KIND:
            tries += 1
            if tries > PER_KIND * 50:
                raise RuntimeError(f"cannot make {PER_KIND} texts for {k.name}")
            disp, secret = k.make(r)
            text = _pick(r, k)(r, k, disp)
            if text in seen or secret not in text or secret != secret.strip():
                continue
            seen.add(text)
            positives.append((text, k.name, secret))
            got += 1
    lookalikes: list[str] = []
    for i, gen in enumerate(_LOOK):
        got, tries = 0, 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > LOOK_PER_GEN * 50:
                raise RuntimeError(f"look-alike generator {i} repeats itself")
            text = gen(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
