"""Labelled test set AT for a secret detector: freight forwarding / 3PL / warehouses.

Theme
-----
Memories an AI coding agent keeps for a freight-forwarding and third-party-logistics company:
carrier and visibility APIs (FedEx, UPS, DHL Express, Maersk, project44, FourKites), telematics
(Samsara, Geotab), WMS (Manhattan, SAP EWM, home-grown) and its database, EDI/AS2 partners,
customs portals, Zebra printers and scanners, NetSuite/Celigo, yard cameras, dock sensors,
Kafka/RabbitMQ, CI/CD and Azure.  Styles: notes, lessons, runbooks, handovers, tickets, emails,
chat (English, German, Polish, Portuguese, Turkish, Arabic), config files and tool output.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text``
  and the only credential in it.  Every kind has exactly 30 positives.
* ``lookalikes``: texts with no credential at all; ``len(_LOOK) * LOOK_PER_GEN`` of them.
* Deterministic per seed (``random.Random`` only), no duplicate texts in the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs:
  the password only.  Pre-signed URLs (Azure SAS): the ``sig`` value.  PEM / OpenSSH private
  keys: the whole armoured block, BEGIN line to END line.  UUID-shaped vendor tokens are secrets
  only when the text names them as a token/key/secret.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids,
  Firebase web apiKeys, search-only keys, public certificates), vendor documentation example
  values, encrypted blobs and password hashes are look-alikes.  Bare AWS access key ids are left
  out entirely.
* No token-shaped literal appears in this source: prefixes are assembled from pieces at run time
  and bodies are random from the seed.
"""

from __future__ import annotations

import base64
import json
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
HX = "0123456789abcdef"
B64 = AN + "+/"
B64U = AN + "-_"


def rs(r: random.Random, n: int, alpha: str = AN) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def hx(r: random.Random, n: int) -> str:
    return rs(r, n, HX)


def uid(r: random.Random) -> str:
    h = hx(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def b64b(r: random.Random, n: int) -> str:
    """Standard base64 of n random bytes (valid padding, like real keys)."""
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(n))).decode()


def b64u_json(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


SITES = [
    "HAM-01",
    "BRE-02",
    "WAW-03",
    "POZ-04",
    "GRU-05",
    "VCP-06",
    "IST-07",
    "DXB-08",
    "RTM-09",
    "ANR-10",
    "LEJ-11",
    "ORD-12",
    "ATL-13",
    "MEM-14",
    "KTW-15",
    "GEB-16",
]
PEOPLE = [
    "Jana",
    "Marek",
    "Lukas",
    "Ayşe",
    "Mehmet",
    "João",
    "Fernanda",
    "Piotr",
    "Agnieszka",
    "Omar",
    "Layla",
    "Tobias",
    "Sven",
    "Priya",
    "Carlos",
    "Nadia",
    "Kemal",
    "Zofia",
]
USERS = [
    "svc_wms",
    "edi_bridge",
    "tms_sync",
    "as2user",
    "hamdock",
    "wmsadmin",
    "celigo_int",
    "yardcam",
]
WORDS = [
    "tulip",
    "Rover",
    "pallet",
    "Harbor",
    "crane",
    "Falcon",
    "amber",
    "Gdansk",
    "forklift",
    "Bosphorus",
    "cargo",
    "Lagoa",
    "Anchor",
    "maple",
    "Tiger",
    "ocean",
    "Cobalt",
    "Delta",
]


def date(r: random.Random) -> str:
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def tm(r: random.Random) -> str:
    return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}"


def host(r: random.Random) -> str:
    return r.choice(
        [
            f"wms-db-{r.randint(1, 9)}.internal.fwd-logistics.net",
            f"edi{r.randint(1, 5)}.partners.fwd-logistics.com",
            f"10.{r.randint(10, 60)}.{r.randint(0, 255)}.{r.randint(2, 250)}",
            f"sql-wms-{r.choice(['prod', 'test', 'dev'])}.database.windows.net",
            f"mq{r.randint(1, 4)}.{r.choice(['ham', 'waw', 'gru', 'ist'])}.fwd-logistics.net",
        ]
    )


def pw(r: random.Random, safe: bool = True) -> str:
    sym = "!-_." if safe else "!#$%&*-_.?"
    k = r.randint(0, 4)
    if k == 0:
        return (
            r.choice(["Summer", "Winter", "Hamburg", "Lager", "Palette", "Warsaw", "Cargo"])
            + str(r.randint(2019, 2027))
            + r.choice("!.#" if not safe else "!.")
        )
    if k == 1:
        return f"{r.choice(WORDS).lower()}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    if k == 2:
        return rs(r, r.randint(14, 22), AN + sym)
    if k == 3:
        return "-".join(r.choice(WORDS).lower() for _ in range(4))
    return r.choice(WORDS).capitalize() + r.choice(sym) + str(r.randint(100, 9999)) + r.choice(WORDS)


# ---------------------------------------------------------------- secret value makers
# each returns (shown, secret): shown is what goes into the text


def _same(f):
    def g(r):
        v = f(r)
        return v, v

    return g


def _pem(label: str, openssh: bool = False):
    def g(r):
        n = r.randint(12, 25)
        body = [rs(r, 64, B64) for _ in range(n)] + [rs(r, r.randint(8, 60), B64) + r.choice(["", "=", "=="])]
        if openssh:
            body[0] = "b3BlbnNzaC1rZXktdjEAAAAA" + body[0][24:]
        v = "-----BEGIN " + label + "-----\n" + "\n".join(body) + "\n-----END " + label + "-----"
        return v, v

    return g


def _sas(r):
    raw = b64b(r, 32)
    sig = raw.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    acct = r.choice(["stwmsprod", "stedidrop", "stlabels", "styardcam"]) + str(r.randint(1, 99))
    url = (
        f"https://{acct}.blob.core.windows.net/{r.choice(['edi-inbound', 'labels', 'pod-images'])}/"
        f"{r.choice(['ASN', 'POD', 'INV'])}_{r.randint(100000, 999999)}.{r.choice(['edi', 'pdf', 'jpg'])}"
        f"?sv=2022-11-02&ss=b&srt=o&sp=r&se={date(r)}T18:00:00Z&st={date(r)}T06:00:00Z&spr=https&sig={sig}"
    )
    return url, sig


def _slack_hook(r):
    t = rs(r, 24)
    return (
        f"https://hooks.slack.com/services/T{rs(r, 10, UP + DG)}/B{rs(r, 10, UP + DG)}/{t}",
        t,
    )


def _discord_hook(r):
    t = rs(r, 68, B64U)
    return f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18)}/{t}", t


def _conn(fmt: str):
    def g(r):
        p = pw(r)
        return fmt.format(u=r.choice(USERS), p=p, h=host(r), n=r.randint(1, 9)), p

    return g


def _storage(r):
    k = b64b(r, 64)
    return (
        (
            f"DefaultEndpointsProtocol=https;AccountName=stwms{r.randint(100, 999)};AccountKey={k};"
            "EndpointSuffix=core.windows.net"
        ),
        k,
    )


def _sb(r):
    k = b64b(r, 32)
    return (
        (
            f"Endpoint=sb://sb-{r.choice(['tms', 'wms', 'edi'])}-{r.randint(1, 99)}.servicebus.windows.net/;"
            f"SharedAccessKeyName={r.choice(['RootManageSharedAccessKey', 'send-only', 'listen-wms'])};SharedAccessKey={k}"
        ),
        k,
    )


def _cosmos(r):
    k = b64b(r, 64)
    return (
        f"AccountEndpoint=https://cosmos-track-{r.randint(1, 99)}.documents.azure.com:443/;AccountKey={k};",
        k,
    )


def _kafka(r):
    p = pw(r)
    return (
        'org.apache.kafka.common.security.plain.PlainLoginModule required username="'
        + r.choice(USERS)
        + '" password="'
        + p
        + '";',
        p,
    )


def _basic(r):
    v = base64.b64encode(f"{r.choice(USERS)}:{pw(r)}".encode()).decode()
    return v, v


def _jwt(r):
    h = b64u_json({"alg": r.choice(["RS256", "HS256"]), "typ": "JWT"})
    p = b64u_json(
        {
            "sub": r.choice(USERS),
            "aud": r.choice(["wms-api", "tms", "yard"]),
            "iat": 1790000000 + r.randint(0, 9999999),
            "exp": 1800000000 + r.randint(0, 9999999),
        }
    )
    v = f"{h}.{p}.{rs(r, r.choice([43, 342]), B64U)}"
    return v, v


K_TOK, K_PW, K_URL, K_PEM = "tok", "pw", "url", "pem"

# (kind, family, maker, ENV_VAR, human label, service)
KINDS = [
    (
        "github_pat",
        K_TOK,
        _same(lambda r: "gh" + "p_" + rs(r, 36)),
        "GH_TOKEN",
        "GitHub PAT",
        "github",
    ),
    (
        "github_fine_grained_pat",
        K_TOK,
        _same(lambda r: "github" + "_pat_11" + rs(r, 20, UP + DG) + "_" + rs(r, 59)),
        "GITHUB_TOKEN",
        "fine-grained GitHub token",
        "github",
    ),
    (
        "gitlab_pat",
        K_TOK,
        _same(lambda r: "gl" + "pat-" + rs(r, 20, B64U)),
        "GITLAB_TOKEN",
        "GitLab token",
        "gitlab",
    ),
    (
        "azure_devops_pat",
        K_TOK,
        _same(lambda r: rs(r, 52, LO + DG)),
        "AZDO_PAT",
        "Azure DevOps PAT",
        "azure-devops",
    ),
    (
        "azure_client_secret",
        K_TOK,
        _same(lambda r: rs(r, 3) + r.choice(DG) + "Q~" + rs(r, 34, AN + "_~.-")),
        "AZURE_CLIENT_SECRET",
        "Azure app registration client secret",
        "entra",
    ),
    (
        "azure_storage_account_key",
        K_URL,
        _storage,
        "AZURE_STORAGE_CONNECTION_STRING",
        "storage connection",
        "blob",
    ),
    (
        "azure_sas_signature",
        K_URL,
        _sas,
        "POD_IMAGE_URL",
        "SAS link for the POD images",
        "blob",
    ),
    (
        "azure_servicebus_key",
        K_URL,
        _sb,
        "SERVICEBUS_CONNECTION",
        "Service Bus connection",
        "servicebus",
    ),
    (
        "cosmosdb_key",
        K_URL,
        _cosmos,
        "COSMOS_CONNECTION",
        "Cosmos DB tracking store",
        "cosmos",
    ),
    (
        "azure_openai_api_key",
        K_TOK,
        _same(lambda r: hx(r, 32)),
        "AZURE_OPENAI_API_KEY",
        "Azure OpenAI key",
        "aoai",
    ),
    (
        "slack_webhook",
        K_URL,
        _slack_hook,
        "SLACK_WEBHOOK_URL",
        "Slack webhook for #dock-alerts",
        "slack",
    ),
    (
        "discord_webhook",
        K_URL,
        _discord_hook,
        "DISCORD_WEBHOOK",
        "Discord webhook for the drivers",
        "discord",
    ),
    (
        "slack_bot_token",
        K_TOK,
        _same(lambda r: "xo" + "xb-" + rs(r, 12, DG) + "-" + rs(r, 13, DG) + "-" + rs(r, 24)),
        "SLACK_BOT_TOKEN",
        "Slack bot token",
        "slack",
    ),
    (
        "stripe_secret_key",
        K_TOK,
        _same(lambda r: "sk" + "_live_51" + rs(r, 97)),
        "STRIPE_SECRET_KEY",
        "Stripe secret key (billing portal)",
        "stripe",
    ),
    (
        "sendgrid_api_key",
        K_TOK,
        _same(lambda r: "S" + "G." + rs(r, 22, B64U) + "." + rs(r, 43, B64U)),
        "SENDGRID_API_KEY",
        "SendGrid key for POD mails",
        "sendgrid",
    ),
    (
        "twilio_auth_token",
        K_TOK,
        _same(lambda r: hx(r, 32)),
        "TWILIO_AUTH_TOKEN",
        "Twilio auth token",
        "twilio",
    ),
    (
        "openai_api_key",
        K_TOK,
        _same(lambda r: "sk-" + "proj-" + rs(r, 64, B64U) + "T3Blbk" + "FJ" + rs(r, 64, B64U)),
        "OPENAI_API_KEY",
        "OpenAI key",
        "openai",
    ),
    (
        "anthropic_api_key",
        K_TOK,
        _same(lambda r: "sk-" + "ant-" + "api03-" + rs(r, 93, B64U) + "AA"),
        "ANTHROPIC_API_KEY",
        "Anthropic key",
        "anthropic",
    ),
    (
        "aws_secret_access_key",
        K_TOK,
        _same(lambda r: rs(r, 40, AN + "/+")),
        "AWS_SECRET_ACCESS_KEY",
        "AWS secret access key (S3 archive)",
        "aws",
    ),
    (
        "datadog_api_key",
        K_TOK,
        _same(lambda r: hx(r, 32)),
        "DD_API_KEY",
        "Datadog API key",
        "datadog",
    ),
    (
        "new_relic_license_key",
        K_TOK,
        _same(lambda r: hx(r, 36) + "NR" + "AL"),
        "NEW_RELIC_LICENSE_KEY",
        "New Relic license key",
        "newrelic",
    ),
    (
        "new_relic_user_key",
        K_TOK,
        _same(lambda r: "NR" + "AK-" + rs(r, 27, UP + DG)),
        "NEW_RELIC_API_KEY",
        "New Relic user key",
        "newrelic",
    ),
    (
        "sentry_auth_token",
        K_TOK,
        _same(lambda r: "sntry" + "u_" + hx(r, 64)),
        "SENTRY_AUTH_TOKEN",
        "Sentry auth token",
        "sentry",
    ),
    (
        "vault_token",
        K_TOK,
        _same(lambda r: "hv" + "s." + rs(r, 91, B64U)),
        "VAULT_TOKEN",
        "Vault token",
        "vault",
    ),
    (
        "terraform_cloud_token",
        K_TOK,
        _same(lambda r: rs(r, 14) + ".atlas" + "v1." + rs(r, 67)),
        "TFE_TOKEN",
        "Terraform Cloud token",
        "terraform",
    ),
    (
        "grafana_service_account_token",
        K_TOK,
        _same(lambda r: "gl" + "sa_" + rs(r, 32) + "_" + hx(r, 8)),
        "GRAFANA_TOKEN",
        "Grafana service account token",
        "grafana",
    ),
    (
        "atlassian_api_token",
        K_TOK,
        _same(lambda r: "ATATT" + "3xFfGF0" + rs(r, 180, B64U) + "=" + hx(r, 8).upper()),
        "JIRA_API_TOKEN",
        "Jira API token",
        "jira",
    ),
    (
        "npm_token",
        K_TOK,
        _same(lambda r: "np" + "m_" + rs(r, 36)),
        "NPM_TOKEN",
        "npm token",
        "npm",
    ),
    (
        "docker_hub_pat",
        K_TOK,
        _same(lambda r: "dckr" + "_pat_" + rs(r, 27, B64U)),
        "DOCKERHUB_TOKEN",
        "Docker Hub token",
        "dockerhub",
    ),
    (
        "pypi_token",
        K_TOK,
        _same(lambda r: "pypi-" + "AgEIcHlwaS5vcmc" + rs(r, 70, B64U)),
        "PYPI_TOKEN",
        "PyPI upload token",
        "pypi",
    ),
    (
        "samsara_api_token",
        K_TOK,
        _same(lambda r: "samsara" + "_api_" + rs(r, 30)),
        "SAMSARA_API_TOKEN",
        "Samsara API token",
        "samsara",
    ),
    (
        "fedex_client_secret",
        K_TOK,
        _same(lambda r: hx(r, 32)),
        "FEDEX_CLIENT_SECRET",
        "FedEx client secret",
        "fedex",
    ),
    (
        "ups_client_secret",
        K_TOK,
        _same(lambda r: rs(r, 64)),
        "UPS_CLIENT_SECRET",
        "UPS OAuth client secret",
        "ups",
    ),
    (
        "dhl_api_secret",
        K_TOK,
        _same(lambda r: rs(r, 16)),
        "DHL_API_SECRET",
        "DHL Express API secret",
        "dhl",
    ),
    (
        "maersk_consumer_secret",
        K_TOK,
        _same(lambda r: rs(r, 32)),
        "MAERSK_CONSUMER_SECRET",
        "Maersk consumer secret",
        "maersk",
    ),
    (
        "project44_client_secret",
        K_TOK,
        _same(lambda r: rs(r, 40, AN + "-_")),
        "P44_CLIENT_SECRET",
        "project44 client secret",
        "project44",
    ),
    (
        "fourkites_api_key",
        K_TOK,
        _same(lambda r: rs(r, 32)),
        "FOURKITES_API_KEY",
        "FourKites API key",
        "fourkites",
    ),
    (
        "netsuite_token_secret",
        K_TOK,
        _same(lambda r: hx(r, 64)),
        "NS_TOKEN_SECRET",
        "NetSuite TBA token secret",
        "netsuite",
    ),
    (
        "netsuite_consumer_secret",
        K_TOK,
        _same(lambda r: hx(r, 64)),
        "NS_CONSUMER_SECRET",
        "NetSuite consumer secret",
        "netsuite",
    ),
    (
        "celigo_api_token",
        K_TOK,
        _same(lambda r: hx(r, 32)),
        "CELIGO_API_TOKEN",
        "Celigo API token",
        "celigo",
    ),
    (
        "mailgun_api_key",
        K_TOK,
        _same(lambda r: "key-" + hx(r, 32)),
        "MAILGUN_API_KEY",
        "Mailgun key",
        "mailgun",
    ),
    (
        "postmark_server_token",
        K_TOK,
        _same(uid),
        "POSTMARK_SERVER_TOKEN",
        "Postmark server token",
        "postmark",
    ),
    (
        "pagerduty_routing_key",
        K_TOK,
        _same(lambda r: hx(r, 32)),
        "PD_ROUTING_KEY",
        "PagerDuty integration key",
        "pagerduty",
    ),
    (
        "jwt_bearer_token",
        K_TOK,
        _jwt,
        "WMS_API_BEARER",
        "WMS API bearer token",
        "wms-api",
    ),
    (
        "django_secret_key",
        K_TOK,
        _same(lambda r: rs(r, 50, LO + DG + "!@#%^&*(-_=+)")),
        "DJANGO_SECRET_KEY",
        "Django SECRET_KEY of the home-grown WMS",
        "wms",
    ),
    (
        "flask_secret_key",
        K_TOK,
        _same(lambda r: hx(r, 64)),
        "FLASK_SECRET_KEY",
        "yard portal session key",
        "yard",
    ),
    (
        "google_oauth_client_secret",
        K_TOK,
        _same(lambda r: "GOCSPX" + "-" + rs(r, 28, B64U)),
        "GOOGLE_CLIENT_SECRET",
        "Google OAuth client secret",
        "google",
    ),
    (
        "http_basic_auth",
        K_TOK,
        _basic,
        "AS2_BASIC_AUTH",
        "Basic auth header for the AS2 endpoint",
        "as2",
    ),
    (
        "sftp_password",
        K_PW,
        _same(pw),
        "SFTP_PASSWORD",
        "SFTP drop box password",
        "sftp",
    ),
    (
        "van_mailbox_password",
        K_PW,
        _same(pw),
        "VAN_PASSWORD",
        "VAN mailbox password",
        "van",
    ),
    (
        "customs_portal_password",
        K_PW,
        _same(pw),
        "ATLAS_PASSWORD",
        "customs broker portal password",
        "customs",
    ),
    (
        "wifi_psk",
        K_PW,
        _same(lambda r: pw(r, False)),
        "WIFI_PSK",
        "warehouse Wi-Fi PSK (scanners)",
        "wifi",
    ),
    (
        "zebra_printer_password",
        K_PW,
        _same(pw),
        "ZEBRA_ADMIN_PW",
        "Zebra printer web admin password",
        "zebra",
    ),
    (
        "mdm_enrollment_password",
        K_PW,
        _same(pw),
        "MDM_ENROLL_PW",
        "StageNow/MDM enrolment password",
        "mdm",
    ),
    (
        "geotab_password",
        K_PW,
        _same(pw),
        "GEOTAB_PASSWORD",
        "Geotab MyAdmin password",
        "geotab",
    ),
    (
        "sap_password",
        K_PW,
        _same(pw),
        "SAP_EWM_PASSWORD",
        "SAP EWM RFC user password",
        "sap",
    ),
    (
        "ldap_bind_password",
        K_PW,
        _same(pw),
        "LDAP_BIND_PASSWORD",
        "LDAP bind password",
        "ldap",
    ),
    ("smtp_password", K_PW, _same(pw), "SMTP_PASSWORD", "SMTP relay password", "smtp"),
    (
        "pfx_password",
        K_PW,
        _same(lambda r: pw(r, False)),
        "AS2_PFX_PASSWORD",
        "AS2 .pfx password",
        "as2",
    ),
    (
        "windows_admin_password",
        K_PW,
        _same(pw),
        "LABEL_SRV_ADMIN_PW",
        "label server local admin password",
        "win",
    ),
    (
        "kafka_sasl_password",
        K_URL,
        _kafka,
        "KAFKA_JAAS_CONFIG",
        "Kafka SASL config",
        "kafka",
    ),
    (
        "postgres_password",
        K_URL,
        _conn("postgresql://{u}:{p}@{h}:5432/wms"),
        "DATABASE_URL",
        "WMS database URL",
        "postgres",
    ),
    (
        "sqlserver_password",
        K_URL,
        _conn("Server=tcp:{h},1433;Initial Catalog=WMS;User ID={u};Password={p};Encrypt=True;"),
        "WMS_SQL_CONNECTION",
        "Manhattan SQL connection",
        "mssql",
    ),
    (
        "mysql_password",
        K_URL,
        _conn("mysql://{u}:{p}@{h}:3306/yard"),
        "YARD_DB_URL",
        "yard DB URL",
        "mysql",
    ),
    (
        "redis_password",
        K_URL,
        _conn("rediss://default:{p}@{h}:6380/{n}"),
        "REDIS_URL",
        "Redis URL",
        "redis",
    ),
    (
        "rabbitmq_password",
        K_URL,
        _conn("amqps://{u}:{p}@{h}:5671/wms"),
        "AMQP_URL",
        "RabbitMQ URL",
        "rabbitmq",
    ),
    (
        "mongodb_password",
        K_URL,
        _conn("mongodb+srv://{u}:{p}@cluster{n}.fwdlog.mongodb.net/tracking"),
        "MONGO_URI",
        "tracking MongoDB URI",
        "mongodb",
    ),
    (
        "rtsp_camera_password",
        K_URL,
        _conn("rtsp://admin:{p}@{h}:554/Streaming/Channels/10{n}"),
        "YARD_CAM_URL",
        "yard camera stream",
        "camera",
    ),
    (
        "mqtt_password",
        K_URL,
        _conn("mqtts://{u}:{p}@{h}:8883"),
        "DOCK_MQTT_URL",
        "dock sensor MQTT broker",
        "mqtt",
    ),
    (
        "basic_auth_url_password",
        K_URL,
        _conn("https://{u}:{p}@{h}/as2/receive"),
        "AS2_URL",
        "AS2 receive URL",
        "as2",
    ),
    ("rsa_private_key", K_PEM, _pem("RSA PRIVATE KEY"), "", "AS2 signing key", "as2"),
    (
        "pkcs8_private_key",
        K_PEM,
        _pem("PRIVATE KEY"),
        "",
        "customs portal client-cert key",
        "customs",
    ),
    (
        "openssh_private_key",
        K_PEM,
        _pem("OPENSSH PRIVATE KEY", True),
        "",
        "SFTP deploy key",
        "sftp",
    ),
]

# ---------------------------------------------------------------- templates
# placeholders: {v} value shown, {var} env var, {key} snake key, {Key} Pascal key, {label}, {svc},
# {site}, {who}, {who2}, {date}, {time}, {time2}, {host}, {user}, {tk}, {ver}

T_ANY = [
    "Note ({date}): {label} for {site} is {v} — rotate after peak season.",
    "# {svc} integration for {site}\nTZ=Europe/Berlin\nLOG_LEVEL=info\n{var}={v}\nRETRY_MAX=5\n",
    "{svc}:\n  site: {site}\n  timeout_s: 30\n  {key}: {v}\n",
    '{"integration": "{svc}", "site": "{site}", "{key}": "{v}", "retries": 3}',
    "[{svc}]\nsite = {site}\n{key} = {v}\npoll_interval = 300\n",
    '$env:{var} = "{v}"\n.\\Sync-Carriers.ps1 -Site {site} -Verbose',
    (
        'resource "azurerm_key_vault_secret" "{key}" {\n  name         = "{keydash}"\n  value        = "{v}"\n'
        "  key_vault_id = azurerm_key_vault.wms.id\n}"
    ),
    (
        '{\n  "Logging": { "LogLevel": { "Default": "Information" } },\n  "{Svc}": {\n    "Site": "{site}",\n'
        '    "{Key}": "{v}"\n  }\n}'
    ),
    '# settings/prod.py\nDEBUG = False\n{VAR} = "{v}"  # {label}\n',
    (
        "Shift handover {site} {date} (night -> day): scanners ok, dock door 7 sensor offline again. "
        "{label}: {v} — {who} calls the carrier at 08:00."
    ),
    (
        "TICKET {tk}: {svc} sync failing with 401 since {time}. Re-issued the {label}, new value {v}. "
        "Please update Key Vault and restart the bridge."
    ),
    "Subject: {label} ({site})\n\nHi {who},\n\nas requested, the {label} is:\n{v}\n\nRegards,\nIT Ops",
    "[{time}] {who}: does anyone have the {label} for {site}?\n[{time2}] {who2}: {v}\n[{time2}] {who}: thx",
    "Lesson learned: never paste the {label} ({v}) into the Teams channel, the search bot indexed it.",
    "TODO: move {var}={v} out of docker-compose.yml into Key Vault before go-live at {site}.",
    "Notiz {date}: Zugangsdaten für {svc} ({site}) – {label}: {v}. Bitte nicht weitergeben.",
    "Uwaga ({site}): {label} to {v} — zmienić po audycie, pytać {who}.",
    "Anotação {date}: o {label} do armazém {site} é {v}; trocar depois da migração.",
    "Not: {site} deposu için {label}: {v} (pazartesi değiştirilecek, {who}).",
    "ملاحظة: {label} الخاص بمستودع {site} هو {v} — {who}",
    "$ az keyvault secret show --vault-name kv-wms-{sitel} --name {keydash} --query value -o tsv\n{v}\n$ ",
    "{date}T{time}:14.221Z WARN [{svc}-connector] auth retry site={site} {key}={v} attempt=2",
    "Run ./deploy.sh {site}\n  env:\n    {var}: {v}\n    SITE: {site}\n+ echo 'deploying wms-bridge {ver}'",
    "docker run -d --name {svc}-bridge -e {var}={v} -e SITE={site} acrwms.azurecr.io/bridge:{ver}",
    (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc}-creds\n  namespace: wms-{sitel}\ntype: Opaque\n"
        "stringData:\n  {key}: {v}\n"
    ),
    "Runbook: if the {svc} job hangs, kill it, re-export {var}={v} and run `wmsctl resync --site {site}`.",
]

T_TOK = [
    (
        "> POST /api/v1/shipments/track HTTP/1.1\n> Host: {svc}-gw.fwd-logistics.net\n"
        "> Authorization: Bearer {v}\n> Content-Type: application/json\n>\n< HTTP/1.1 200 OK"
    ),
    (
        "wms=# SELECT name, value FROM integration_settings WHERE name = '{key}';\n    name    | value\n"
        "------------+-------\n {key} | {v}\n(1 row)"
    ),
    "curl -s -H 'X-Api-Key: {v}' https://{svc}-gw.fwd-logistics.net/v2/loads?site={site}",
]

T_PW = [
    "Login for {label} ({site}): user {user} / pass {v}",
    "{site} Zugang {svc}: Benutzer {user}, Passwort {v}",
    "Hasło do {svc} ({site}): login {user}, hasło {v}",
    "Acesso {svc} {site}: usuário {user} senha {v}",
    "wms=# ALTER ROLE {user} WITH PASSWORD '{v}';\nALTER ROLE",
]

T_PEM = [
    "$ cat ~/.keys/{svc}_{sitel}.key\n{v}\n$ ",
    "Note ({date}): {label} for {site}, pasted here until Key Vault import works:\n{v}\n",
    'resource "azurerm_key_vault_secret" "{svc}_key" {\n  name  = "{svc}-key"\n  value = <<EOT\n{v}\nEOT\n}',
    "Subject: {label}\n\nHi {who},\nhere is the {label} for {site}:\n\n{v}\n\nDelete this mail afterwards.",
    "[{time}] {who}: the partner needs the key again\n[{time2}] {who2}: ```\n{v}\n```",
]


def _fill(t: str, d: dict) -> str:
    for k, v in d.items():
        t = t.replace("{" + k + "}", v)
    return t


def _positives(r: random.Random, seen: set) -> list:
    out = []
    for kind, fam, maker, var, label, svc in KINDS:
        pool = T_PEM if fam == K_PEM else T_ANY + (T_TOK if fam == K_TOK else T_PW if fam == K_PW else [])
        n = 0
        while n < PER_KIND:
            shown, secret = maker(r)
            key = (var or svc).lower()
            site = r.choice(SITES)
            d = {
                "v": shown,
                "var": var or svc.upper() + "_KEY",
                "VAR": var or svc.upper() + "_KEY",
                "key": key,
                "keydash": key.replace("_", "-"),
                "Key": "".join(p.capitalize() for p in key.split("_")),
                "Svc": svc.capitalize(),
                "svc": svc,
                "label": label,
                "site": site,
                "sitel": site.lower(),
                "who": r.choice(PEOPLE),
                "who2": r.choice(PEOPLE),
                "date": date(r),
                "time": tm(r),
                "time2": tm(r),
                "host": host(r),
                "user": r.choice(USERS),
                "tk": f"{r.choice(['WMS', 'OPS', 'EDI', 'INT'])}-{r.randint(100, 9999)}",
                "ver": f"{r.randint(1, 4)}.{r.randint(0, 30)}.{r.randint(0, 9)}",
            }
            text = _fill(r.choice(pool), d)
            if secret not in text or text in seen:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            n += 1
    return out


# ---------------------------------------------------------------- look-alikes (no credential inside)


def _s(r):
    return r.choice(SITES)


def _p(r):
    return r.choice(PEOPLE)


def _b64img(r, n):
    return "iVBORw0KGgoAAAANSUhEUgAA" + rs(r, n, B64)


def _cert(r):
    body = "\n".join(["MIID" + rs(r, 60, B64)] + [rs(r, 64, B64) for _ in range(r.randint(6, 12))])
    return "-----BEGIN " + "CERTIFICATE-----\n" + body + "\n-----END " + "CERTIFICATE-----"


def _pub(r):
    body = "\n".join(
        ["MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + rs(r, 20, B64)] + [rs(r, 64, B64) for _ in range(5)]
    )
    return "-----BEGIN " + "PUBLIC KEY-----\n" + body + "\nIDAQAB\n-----END " + "PUBLIC KEY-----"


def _fp(r, n=20):
    return ":".join(hx(r, 2).upper() for _ in range(n))


def _sha256sum(r, n):
    return f"$ sha256sum ASN_856_{n}.edi\n{hx(r, 64)}  ASN_856_{n}.edi"


def _vin(r):
    return rs(r, 17, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789")


_LOOK = [
    lambda r: f"Deployed wms-bridge commit {hx(r, 40)} to {_s(r)} on {date(r)}; rollback target {hx(r, 7)}.",
    lambda r: _sha256sum(r, r.randint(10000, 99999)),
    lambda r: f"md5 of the ZPL label template shipping_4x6.zpl changed: {hx(r, 32)} -> {hx(r, 32)}",
    lambda r: f"{date(r)}T{tm(r)}:01Z INFO request_id={uid(r)} shipment=SHP{r.randint(10**6, 10**7)} status=DELIVERED",
    lambda r: f"UPS tracking for PO {r.randint(40000, 99999)}: 1Z{rs(r, 6, UP + DG)}{rs(r, 10, DG)} (3 parcels)",
    lambda r: (
        f"Container MSKU{r.randint(1000000, 9999999)} on B/L MAEU{r.randint(10**8, 10**9)} rolled to next vessel, ETA {date(r)}."
    ),
    lambda r: (
        f"AS2 {_s(r)} received Message-ID <{uid(r)}@as2.partner-{r.randint(1, 40)}.com> "
        f"MIC: {b64b(r, 32)}, sha-256 -> MDN processed"
    ),
    lambda r: f"Partner cert SHA1 fingerprint {_fp(r)} (expires {date(r)}), updated in the AS2 profile.",
    lambda r: f"Public cert of the AS2 partner (safe to share):\n{_cert(r)}",
    lambda r: (
        f"authorized_keys on sftp-{_s(r).lower()}: ssh-"
        + "ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
        + rs(r, 43, B64)
        + f" {_p(r).lower()}@laptop"
    ),
    lambda r: (
        f"The authenticity of host 'sftp.partner{r.randint(1, 50)}.com' can't be established.\n"
        f"ED25519 key fingerprint is SHA256:{rs(r, 43, B64)}."
    ),
    lambda r: "Billing portal checkout uses publishable key pk_" + "live_51" + rs(r, 97) + " (frontend only).",
    lambda r: (
        'const firebaseConfig = {\n  apiKey: "AI'
        + "za"
        + rs(r, 35, B64U)
        + f'",\n  authDomain: "driver-app-{r.randint(1, 99)}.firebaseapp.com",\n  projectId: "driver-app"\n}};'
    ),
    lambda r: (
        f"SENTRY_DSN=https://{hx(r, 32)}@o{r.randint(100000, 999999)}.ingest.sentry.io/{r.randint(1000000, 9999999)}"
    ),
    lambda r: (
        f"Entra app 'wms-bridge-{_s(r).lower()}': client_id {uid(r)}, tenant_id {uid(r)} (secret lives in Key Vault)."
    ),
    lambda r: f"GOOGLE_CLIENT_ID={r.randint(10**11, 10**12)}-{rs(r, 32, LO + DG)}.apps.googleusercontent.com",
    lambda r: (
        "SUPABASE_ANON_KEY="
        + b64u_json({"alg": "HS256", "typ": "JWT"})
        + "."
        + b64u_json(
            {
                "iss": "supabase",
                "ref": rs(r, 20, LO),
                "role": "anon",
                "iat": 1790000000 + r.randint(0, 10**6),
            }
        )
        + "."
        + rs(r, 43, B64U)
        + "  # anon key is public by design"
    ),
    lambda r: f'<div class="g-recaptcha" data-sitekey="6L{rs(r, 38, B64U)}"></div> <!-- driver signup, site key -->',
    lambda r: f"Algolia search-only API key for the public tracking page: {hx(r, 32)} (app id {rs(r, 10, UP + DG)})",
    lambda r: (
        "MAPBOX_PUBLIC_TOKEN=pk."
        + b64u_json({"u": f"fwdlog{r.randint(1, 99)}", "a": rs(r, 10, LO)})
        + "."
        + rs(r, 22, B64U)
    ),
    lambda r: (
        f"FEDEX_CLIENT_SECRET=<your-client-secret>\nFEDEX_ACCOUNT={r.randint(10**8, 10**9)}\n# fill in from the FedEx dev portal ({_s(r)})"
    ),
    lambda r: f"samsara:\n  token: ${{SAMSARA_API_TOKEN}}\n  org_id: {r.randint(10000, 99999)}\n  site: {_s(r)}",
    lambda r: (
        f"      - name: Push ASN\n        env:\n          NS_TOKEN_SECRET: ${{{{ secrets.NS_TOKEN_SECRET_{_s(r).replace('-', '_')} }}}}\n        run: python push_asn.py --batch {r.randint(1, 500)}"
    ),
    lambda r: (
        f'ups_secret = Variable.get("ups_client_secret_{_s(r).lower()}")  # Airflow DAG carrier_rates, rev {r.randint(1, 90)}'
    ),
    lambda r: (
        f'pw = dbutils.secrets.get(scope="wms-{_s(r).lower()}", key="db-password")\ndf = spark.read.jdbc(url, "dbo.Inventory_{r.randint(1, 99)}", properties={{"password": pw}})'
    ),
    lambda r: (
        f"$ vault kv get -field=password secret/logistics/edi/as2/{_s(r).lower()}\n(run this yourself, do not paste the output) — {_p(r)}"
    ),
    lambda r: (
        f'"Value": "@Microsoft.KeyVault(SecretUri=https://kv-wms-{r.randint(1, 99)}.vault.azure.net/secrets/SftpPassword/{hx(r, 32)})"'
    ),
    lambda r: "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hx(r, 80) for _ in range(r.randint(3, 6))),
    lambda r: f"sftp_password: ENC[AES256_GCM,data:{rs(r, 24, B64)}=,iv:{b64b(r, 32)},tag:{b64b(r, 16)},type:str]",
    lambda r: f"portal_users seed ({_s(r)}): {_p(r).lower()} -> $2b$12${rs(r, 53, AN + './')}",
    lambda r: (
        f"argon2 hash stored for scanner PIN reset: $argon2id$v=19$m=65536,t=3,p=4${rs(r, 22, B64)}${rs(r, 43, B64)}"
    ),
    lambda r: f"[{_s(r)}] sftp connect user=edi_{r.randint(1, 99)} password=******** host={host(r)} ok",
    lambda r: (
        f"Zebra ZT411 at {_s(r)}: vendor docs list the factory default (1234); we changed it on {date(r)} (entry in Bitwarden)."
    ),
    lambda r: (
        f'{{\n "cell_type": "code",\n "execution_count": {r.randint(1, 400)},\n "id": "{hx(r, 8)}",\n "metadata": {{}},\n "outputs": []\n}}'
    ),
    lambda r: f"Pulled acrwms.azurecr.io/wms-bridge@sha256:{hx(r, 64)} on {_s(r)}",
    lambda r: (
        f'"node_modules/zpl-image": {{ "version": "{r.randint(1, 9)}.{r.randint(0, 20)}.0", "integrity": "sha512-{rs(r, 86, B64)}==" }}'
    ),
    lambda r: (
        f"$ kafka-cluster cluster-id --bootstrap-server kafka{r.randint(1, 9)}:9092\nCluster ID: {rs(r, 22, B64U)}"
    ),
    lambda r: f"/subscriptions/{uid(r)}/resourceGroups/rg-wms-{_s(r).lower()}/providers/Microsoft.Web/sites/wms-bridge",
    lambda r: (
        "Local dev only (Azurite well-known key from Microsoft docs): AccountKey="
        + "Eby8vdM02xNOcq"
        + "FlqUwJPLlmEtlCDXJ1OU"
        + "zFT50uSRZ6IFsuFq2U"
        + "VErCz4I6tq/K1SZF"
        + "PTOtr/KBHBeksoGMGw=="
        + f" — emulator at 127.0.0.1:{r.randint(10000, 10002)} ({_p(r)})"
    ),
    lambda r: (
        "AWS docs example: aws_secret_access_key = "
        + "wJalrXUtnFEMI"
        + "/K7MDENG/"
        + "bPxRfiCY"
        + "EXAMPLEKEY"
        + f"  (placeholder from the docs, copied into README draft {r.randint(1, 99)})"
    ),
    lambda r: (
        f"Transport request DEVK9{r.randint(10000, 99999)} released to QAS for EWM wave template {r.randint(100, 999)}."
    ),
    lambda r: (
        f"ISA*00*          *00*          *ZZ*{rs(r, 8, UP)}       *ZZ*FWDLOG{r.randint(10, 99)}       *{r.randint(260101, 261231)}*{tm(r).replace(':', '')}*U*00401*{r.randint(10**8, 10**9)}*0*P*>~"
    ),
    lambda r: f"SSCC for pallet at dock {r.randint(1, 40)}: (00){r.randint(10**17, 10**18)} printed on {_s(r)}",
    lambda r: (
        f"^XA\n^FO50,50^GFA,{r.randint(1000, 9999)},{r.randint(1000, 9999)},{r.randint(10, 99)},:Z64:{rs(r, 60, B64)}:{hx(r, 4)}\n^XZ"
    ),
    lambda r: f'<img alt="pod signature" src="data:image/png;base64,{_b64img(r, 120)}=">',
    lambda r: f'wifi:\n  ssid: WMS-SCAN-{_s(r)}\n  psk: "{{{{ vault_wifi_psk_{r.randint(1, 9)} }}}}"\n  band: 5GHz',
    lambda r: (
        f'"android.app.extra.PROVISIONING_DEVICE_ADMIN_SIGNATURE_CHECKSUM": "{rs(r, 43, B64U)}", "android.app.extra.PROVISIONING_WIFI_SSID": "WMS-SCAN-{_s(r)}"'
    ),
    lambda r: (
        f"Samsara gateway serial G{rs(r, 3, UP + DG)}-{rs(r, 3, UP + DG)}-{rs(r, 3, UP + DG)} installed in truck VIN {_vin(r)}"
    ),
    lambda r: (
        f"Embedding model for SKU matching: sentence-transformers/all-MiniLM-L6-v2, dataset fwdlog/sku-desc-{r.randint(1, 99)}, run {rs(r, 8, LO + DG)}"
    ),
    lambda r: f"MLflow run_id={hx(r, 32)} experiment=eta-predictor-{_s(r).lower()} rmse={r.random():.4f}",
    lambda r: (
        f"CI: https://github.com/fwdlog/wms-bridge/actions/runs/{r.randint(10**9, 10**10)}/job/{r.randint(10**10, 10**11)} failed on lint"
    ),
    lambda r: f'dd.trace_id={r.randint(10**18, 10**19)} dd.span_id={r.randint(10**18, 10**19)} msg="label printed"',
    lambda r: f"AS2 encryption cert (public) for partner {rs(r, 6, UP)}:\n{_pub(r)}",
    lambda r: (
        f'{{"sftp": {{"host": "{host(r)}", "user": "edi_{r.randint(1, 99)}", "password": ""}}, "site": "{_s(r)}"}}'
    ),
    lambda r: (
        f"Required env vars for {_s(r)}: FEDEX_CLIENT_ID, FEDEX_CLIENT_SECRET, UPS_CLIENT_SECRET, DHL_API_SECRET, SAMSARA_API_TOKEN (rev {r.randint(1, 99)})."
    ),
    lambda r: (
        f"$ kubectl get secret -n wms-{_s(r).lower()}\nNAME            TYPE     DATA   AGE\ncarrier-creds   Opaque   {r.randint(2, 9)}      {r.randint(1, 300)}d\nsftp-creds      Opaque   2      {r.randint(1, 300)}d"
    ),
    lambda r: (
        f'$ az keyvault secret list --vault-name kv-wms-{r.randint(1, 99)} --query "[].id" -o tsv\nhttps://kv-wms.vault.azure.net/secrets/FedexClientSecret\nhttps://kv-wms.vault.azure.net/secrets/SftpPassword'
    ),
    lambda r: (
        f"> GET /track/v1/{r.randint(10**11, 10**12)} HTTP/1.1\n> Host: apis.fedex.example\n> Authorization: Bearer [REDACTED]\n< HTTP/1.1 200 OK"
    ),
    lambda r: f"{date(r)} {tm(r)} INFO geotab login ok user=fleet_{r.randint(1, 99)} token=*** session_expires=3600",
    lambda r: (
        f'{{"keys":[{{"kty":"RSA","kid":"{rs(r, 43, B64U)}","use":"sig","alg":"RS256","e":"AQAB","n":"{rs(r, 120, B64U)}"}}]}}'
    ),
    lambda r: f"gpg: signature from key {hx(r, 16).upper()} (EDI Partner {rs(r, 5, UP)}) — good signature on {date(r)}",
    lambda r: f"alias/wms-backups -> arn:aws:kms:eu-central-1:{r.randint(10**11, 10**12)}:key/{uid(r)}",
    lambda r: (
        f'"CertificateThumbprint": "{hx(r, 40).upper()}",\n"StoreLocation": "LocalMachine"  // AS2 signing cert for {_s(r)}'
    ),
    lambda r: (
        f"NetSuite account {r.randint(1000000, 9999999)}_SB{r.randint(1, 3)}, script customscript_fwd_asn_{r.randint(1, 99)}, deploy customdeploy{r.randint(1, 9)}"
    ),
    lambda r: f"Celigo flow {hx(r, 24)} (export {hx(r, 24)}) paused by {_p(r)} on {date(r)}",
    lambda r: f'mongo> db.shipments.find({{_id: ObjectId("{hx(r, 24)}")}}).count()\n{r.randint(0, 1)}',
    lambda r: f"project44 shipment id {uid(r)} / FourKites load {r.randint(10**6, 10**7)} both show stale ETA",
    lambda r: (
        "ServiceBus message body (base64): "
        + base64.b64encode(
            json.dumps({"shipmentId": f"SHP{r.randint(10**6, 10**7)}", "event": "ARRIVED"}).encode()
        ).decode()
    ),
    lambda r: (
        f'variable "sftp_password" {{\n  type      = string\n  sensitive = true\n  description = "SFTP password for {_s(r)} drop box {r.randint(1, 60)}"\n}}'
    ),
    lambda r: f"Container uses managed identity, AZURE_CLIENT_ID={uid(r)}, no secret needed ({_s(r)}).",
    lambda r: (
        f"Password for the DHL MyGTS portal was reset by {_p(r)} on {date(r)}; new one is in Bitwarden entry 'DHL MyGTS {_s(r)}'."
    ),
    lambda r: (
        f"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: wms-db-{_s(r).lower()}\n        key: password-v{r.randint(1, 30)}"
    ),
    lambda r: (
        f"environment:\n  - RABBITMQ_DEFAULT_PASS=${{RABBITMQ_PASS:?set it}}\n  - RABBITMQ_DEFAULT_USER=wms_{r.randint(1, 99)}"
    ),
    lambda r: f"yard-vision=={r.randint(1, 3)}.{r.randint(0, 9)}.{r.randint(0, 9)} --hash=sha256:{hx(r, 64)}",
    lambda r: f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(r, 64)}\nsize {r.randint(10**4, 10**8)}",
    lambda r: (
        f"Scanner TC52 {_s(r)}: serial {r.randint(10**13, 10**14)}, MAC {_fp(r, 6)}, IMEI {r.randint(10**14, 10**15)}"
    ),
    lambda r: (
        f"rtsp://10.{r.randint(10, 60)}.{r.randint(0, 255)}.{r.randint(2, 250)}:554/Streaming/Channels/{r.randint(101, 899)}  (camera creds come from the NVR, not here)"
    ),
    lambda r: f"DATABASE_URL=postgresql://wms_ro@{host(r)}:5432/wms  # password via PGPASSFILE",
    lambda r: f"jdbc:sqlserver://{host(r)}:1433;databaseName=WMS;user=svc_wms;password=${{DB_PASSWORD}};encrypt=true",
    lambda r: (
        f"Server=tcp:{host(r)},1433;Initial Catalog=WMS_{r.randint(1, 9)};Authentication=Active Directory Default;Encrypt=True;"
    ),
    lambda r: (
        f"https://stwms{r.randint(100, 999)}.blob.core.windows.net/labels/L{r.randint(10**5, 10**6)}.pdf?sv=2022-11-02&sp=r&sig=REDACTED"
    ),
    lambda r: f"traceparent: 00-{hx(r, 32)}-{hx(r, 16)}-01",
    lambda r: f'< ETag: "0x8DC{hx(r, 12).upper()}"\n< Content-MD5: {b64b(r, 16)}\n< x-ms-request-id: {uid(r)}',
    lambda r: f"Slack alert channel C0{rs(r, 9, UP + DG)}, bot user U0{rs(r, 9, UP + DG)}, posted by {_p(r)}",
    lambda r: (
        f"Docs example: https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX — replace with the #dock-{r.randint(1, 40)} hook"
    ),
    lambda r: "Old token gh" + "p_" + "*" * 32 + rs(r, 4) + f" revoked on {date(r)} by {_p(r)}",
    lambda r: f"DD_CLIENT_TOKEN=pub{hx(r, 32)}  # RUM browser token, public ({_s(r)})",
    lambda r: f"LaunchDarkly client-side ID for the yard app: {hx(r, 24)} (safe in the bundle)",
    lambda r: (
        f'<Partner name="{rs(r, 6, UP)}">\n  <AS2-From>FWDLOG{r.randint(1, 99)}</AS2-From>\n  <X509Certificate>MIID{rs(r, 120, B64)}</X509Certificate>\n</Partner>'
    ),
    lambda r: (
        f"<Partner><AS2-To>{rs(r, 8, UP)}</AS2-To><SigningCertAlias>fwd-sign-{r.randint(2024, 2027)}</SigningCertAlias><PrivateKeyRef>kv://as2/sign</PrivateKeyRef></Partner>"
    ),
    lambda r: f"sentry event {hx(r, 32)} grouped under issue WMS-{r.randint(100, 9999)}",
    lambda r: (
        f'provider "azurerm" {{\n  features {{}}\n  subscription_id = "{uid(r)}"\n  tenant_id       = "{uid(r)}"\n}}'
    ),
    lambda r: f'password = "${{var.db_password}}"  # {_s(r)} module wms_db v{r.randint(1, 9)}',
    lambda r: f"/etc/nginx/.htpasswd: edi_partner{r.randint(1, 99)}:$apr1${rs(r, 8, AN + './')}${rs(r, 22, AN + './')}",
    lambda r: f"scanadmin:$6${rs(r, 16, AN + './')}${rs(r, 86, AN + './')}:{r.randint(19000, 20500)}:0:99999:7:::",
    lambda r: f"auth_user {r.randint(1, 500)}: pbkdf2_sha256$720000${rs(r, 22)}${b64b(r, 32)}",
    lambda r: (
        f'$enc = "01000000d08c9ddf0115d1118c7a00c04fc297eb01000000{hx(r, 200)}"  # DPAPI SecureString, only decrypts on LBL-SRV-{r.randint(1, 9)}'
    ),
    lambda r: f"<password>{{AQAAABAAAAAQ{rs(r, 60, B64)}=}}</password>  <!-- Jenkins-encrypted, node {_s(r)} -->",
    lambda r: (
        f'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="wms_{r.randint(1, 99)}" password="${{file:/opt/secrets/kafka.properties:password}}";'
    ),
    lambda r: f"$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{rs(r, 43, B64)} {_p(r).lower()}@wms-dev (ED25519)",
    lambda r: (
        f"$ openssl x509 -in partner{r.randint(1, 99)}.crt -noout -fingerprint -sha256\nsha256 Fingerprint={_fp(r, 32)}"
    ),
    lambda r: f"EORI DE{r.randint(10**14, 10**15)} / MRN 26DE{rs(r, 14, UP + DG)} released at {_s(r)}",
    lambda r: (
        f"HS code {r.randint(1000, 9999)}.{r.randint(10, 99)}.{r.randint(10, 99)} for SKU {rs(r, 8, UP + DG)}, duty {r.randint(0, 12)}%"
    ),
    lambda r: f"Geotab device serial G9{rs(r, 10, UP + DG)} assigned to trailer TR-{r.randint(100, 999)} at {_s(r)}",
    lambda r: (
        f"Wi-Fi password for the guest network is printed on the sign at reception ({_s(r)}); for scanners ask {_p(r)}."
    ),
    lambda r: (
        f"API_KEY=your_api_key_here\nAPI_SECRET=xxxxxxxxxxxxxxxx\n# copy .env.example to .env ({_s(r)}, step {r.randint(1, 9)})"
    ),
    lambda r: (
        f"ℹ️ Rotated the Samsara token on {date(r)}; old one revoked, new one only in Key Vault secret samsara-api-token (version {hx(r, 32)})."
    ),
    lambda r: f"Zebra StageNow profile {rs(r, 6, UP)}_{r.randint(1, 99)}.xml checksum CRC32 {hx(r, 8).upper()}",
    lambda r: f"Dock sensor {hx(r, 16).upper()} (DevEUI) joined LoRaWAN gateway at {_s(r)}, RSSI -{r.randint(60, 120)}",
    lambda r: (
        f"Kafka offsets group=wms-consumer topic=shipment-events partition={r.randint(0, 11)} current={r.randint(10**5, 10**7)} lag={r.randint(0, 999)}"
    ),
    lambda r: (
        f"RabbitMQ queue edi.inbound.{r.randint(1, 9)} consumer tag amq.ctag-{rs(r, 22, B64U)} ack'ed {r.randint(1, 9999)} msgs"
    ),
    lambda r: f"Manhattan WMOS wave {r.randint(10**5, 10**6)} released; task group {rs(r, 4, UP)} hash {hx(r, 16)}",
    lambda r: (
        f"Hinweis: Das Passwort für das Zollportal liegt im Tresor (KeePass-Eintrag 'ATLAS {_s(r)}'), nicht hier. – {_p(r)}"
    ),
    lambda r: f"Hasło do skanerów jest w menedżerze haseł, wpis 'WMS Wi-Fi {_s(r)}' — nie wklejać do czatu ({_p(r)}).",
    lambda r: f"A senha do SFTP está no cofre (segredo sftp-{_s(r).lower()}), peça ao {_p(r)}.",
    lambda r: (
        f"AS2 log: {date(r)} {tm(r)} signed with SHA256withRSA, cert serial 0x{hx(r, 32)}, encrypted AES256-CBC, MDN signed ok"
    ),
    lambda r: (
        f"WPA3-SAE key for WMS-SCAN-{_s(r)} rotated {date(r)}; new key distributed via MDM profile v{r.randint(1, 40)}"
    ),
    lambda r: (
        f"docker compose logs wms-bridge | grep auth\nwms-bridge-1  | {date(r)} auth: using token from /run/secrets/carrier_token (len={r.randint(32, 64)})"
    ),
]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set = set()
    positives = _positives(r, seen)
    lookalikes = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            t = gen(r)
            tries += 1
            if tries > 2000:
                raise RuntimeError("look-alike generator cannot make enough distinct texts")
            if t in seen:
                continue
            seen.add(t)
            lookalikes.append(t)
            got += 1
    return positives, lookalikes
