"""Secret-detector test set AH: a city government's digital-services team and its hosting contractor.

Theme
    Memories an AI coding agent keeps while working for a small city digital-services team and the
    contractor that hosts its sites: notification APIs (GOV.UK Notify), Login.gov / ID.me OIDC,
    Socrata open data, ArcGIS, 311 (QAlert), Granicus, Accela, Tyler, ServiceNow, Salesforce Gov Cloud,
    DocuSign, Twilio, SendGrid, Okta, Entra ID, Azure Government, AWS GovCloud, Drupal, WordPress,
    Akamai, Cloudflare, Datadog, New Relic, PagerDuty, Statuspage, GitHub Enterprise, Jenkins, SonarQube,
    Nexus, Vault, Terraform Cloud, Postgres, SQL Server, Oracle, SFTP with state agencies, parking and
    permit payments (Paymentus, Stripe, Authorize.Net, Elavon), parking and transit APIs.
    Styles: notes, lessons, runbooks, TODOs, incident reviews, tickets, emails, chat (mostly English,
    plus Welsh, Canadian French, Spanish, Irish, Maori, Filipino, Vietnamese), config files and tool output.

Contract
    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
    positives: list of (text, kind, secret); secret is an exact substring of text, one secret per text,
    30 positives per kind. lookalikes: texts with no credential at all, LOOK_PER_GEN distinct texts from
    each generator in _LOOK. Deterministic per seed; no duplicate texts in the whole output.

Labelling conventions
    * Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs: the
      password only. Pre-signed / SAS URLs: the signature. PEM / OpenSSH private keys: the whole
      armoured block from BEGIN line to END line.
    * UUID-shaped vendor tokens are secrets only when the text names them as a token/key/secret.
    * Public-by-design values (publishable keys, site keys, Sentry DSNs, OAuth client ids, Firebase web
      apiKeys, search-only keys, public certificates, RUM client tokens), vendor documentation example
      values, encrypted blobs (Ansible vault, sops, Jenkins {AQAA..}) and password hashes are look-alikes.
    * Bare AWS access key ids are left out entirely.
    * No token-shaped literal appears in this source: prefixes are joined from pieces at run time and
      bodies are random from the seed.
"""

from __future__ import annotations

import base64
import random
from urllib.parse import quote

LOOK_PER_GEN = 12
PER_KIND = 30

LO = "abcdefghijklmnopqrstuvwxyz"
UP = LO.upper()
DG = "0123456789"
HEX = "0123456789abcdef"
B62 = UP + LO + DG
B64 = B62 + "+/"
URLA = B62 + "-_"
UPD = UP + DG


def rs(r: random.Random, alpha: str, n: int) -> str:
    return "".join(r.choice(alpha) for _ in range(n))


def rb64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(bytes(r.getrandbits(8) for _ in range(nbytes))).decode()


def uuid4(r: random.Random) -> str:
    h = rs(r, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


WORDS = [
    "tulip",
    "rover",
    "harbor",
    "maple",
    "civic",
    "river",
    "lantern",
    "granite",
    "pelican",
    "meadow",
    "copper",
    "kestrel",
    "orchard",
    "beacon",
    "thistle",
    "walnut",
    "saffron",
    "glacier",
    "bramble",
    "cobalt",
    "ferry",
    "quarry",
    "willow",
    "bison",
    "parkway",
    "juniper",
    "ember",
    "falcon",
]
PEOPLE = [
    "Priya",
    "Dafydd",
    "Marisol",
    "Aoife",
    "Tane",
    "Jomar",
    "Linh",
    "Chantal",
    "Devon",
    "Grace",
    "Kwame",
    "Rhiannon",
    "Tomás",
    "Mere",
    "Bao",
    "Sam",
]
TEAMS = [
    "digital services",
    "311 team",
    "permits squad",
    "hosting contractor",
    "web team",
    "parking ops",
]


def pw(r: random.Random, urlsafe: bool = False) -> str:
    c = r.randrange(6)
    punct = "!#*-_." if urlsafe else "!#$@*%&?"
    if c == 0:
        return f"{r.choice(['Summer', 'Winter', 'Autumn', 'Spring'])}{r.randint(2019, 2027)}{r.choice(punct)}"
    if c == 1:
        return f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    if c == 2:
        return rs(r, B62 + ("-_." if urlsafe else "!@#%^*-_"), r.randint(16, 28))
    if c == 3:
        return "-".join(r.choice(WORDS) for _ in range(4)) + str(r.randint(1, 9))
    if c == 4:
        return f"{r.choice(WORDS).capitalize()}{r.choice(WORDS).capitalize()}{r.randint(10, 999)}{r.choice(punct)}"
    return f"CityHall{r.choice(['Ops', 'Web', 'Data', 'Pay'])}{r.randint(100, 9999)}{r.choice(punct)}"


def date(r: random.Random) -> str:
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def host(r: random.Random) -> str:
    return (
        f"{r.choice(['db', 'sql', 'ora', 'app', 'web', 'cache', 'sftp'])}{r.randint(1, 9)}."
        f"{r.choice(['city.internal', 'hosting-contractor.net', 'gov.local', 'cityops.lan'])}"
    )


def person(r: random.Random) -> str:
    return r.choice(PEOPLE)


def ticket(r: random.Random) -> str:
    return f"{r.choice(['DS', 'OPS', 'HOST', 'INC', 'CHG', 'WEB'])}-{r.randint(100, 9999)}"


# ---------------------------------------------------------------- kind generators (secret, shown)
BEGIN = "-----" + "BEGIN"
END = "-----" + "END"


def pem_block(r: random.Random, label: str, raw: bytes) -> str:
    body = base64.b64encode(raw).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return f"{BEGIN} {label}-----\n" + "\n".join(lines) + f"\n{END} {label}-----"


def g_pem_rsa(r):
    raw = bytes([0x30, 0x82, 0x04, 0xA4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00])
    raw += bytes(r.getrandbits(8) for _ in range(r.randint(300, 420)))
    return pem_block(r, "RSA " + "PRIVATE KEY", raw)


def g_pem_pkcs8(r):
    raw = bytes(
        [
            0x30,
            0x82,
            0x04,
            0xBE,
            0x02,
            0x01,
            0x00,
            0x30,
            0x0D,
            0x06,
            0x09,
            0x2A,
            0x86,
            0x48,
        ]
    )
    raw += bytes(r.getrandbits(8) for _ in range(r.randint(300, 420)))
    return pem_block(r, "PRIVATE" + " KEY", raw)


def g_openssh(r):
    raw = b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01"
    raw += bytes(r.getrandbits(8) for _ in range(r.randint(280, 360)))
    return pem_block(r, "OPENSSH " + "PRIVATE KEY", raw)


def g_notify(r):
    name = r.choice(
        [
            "cityhall_live",
            "permits_prod",
            "parking-live",
            "council_tax_live",
            "bins_live",
        ]
    )
    return f"{name}-{uuid4(r)}-{uuid4(r)}"


def g_pg(r):
    p = pw(r, urlsafe=True)
    u = r.choice(["app_rw", "permits", "311_svc", "drupal", "etl"])
    shown = r.choice(
        [
            p,
            f"postgresql://{u}:{p}@{host(r)}:5432/{r.choice(['permits', 'requests', 'opendata'])}",
            f"host={host(r)} port=5432 dbname=cms user={u} password={p} sslmode=require",
            f"{host(r)}:5432:*:{u}:{p}",
        ]
    )
    return p, shown


def g_mssql(r):
    p = pw(r, urlsafe=True)
    shown = r.choice(
        [
            p,
            f"Server=tcp:{host(r)},1433;Database=Accela;User ID=svc_accela;Password={p};Encrypt=True;",
            f"Data Source={host(r)};Initial Catalog=Parking;User Id=sa;Password={p};TrustServerCertificate=True",
        ]
    )
    return p, shown


def g_ora(r):
    p = pw(r, urlsafe=True)
    shown = r.choice(
        [
            p,
            f"tyler_ro/{p}@//{host(r)}:1521/MUNIS",
            f"jdbc:oracle:thin:finance/{p}@{host(r)}:1521:ERP",
        ]
    )
    return p, shown


def g_redis(r):
    p = rs(r, B62, r.randint(24, 40))
    return p, r.choice([p, f"redis://default:{p}@{host(r)}:6379/0", f"rediss://:{p}@{host(r)}:6380"])


def g_basic(svc_host):
    def f(r):
        p = pw(r, urlsafe=True)
        user = r.choice(["svc_integration", "ci-bot", "deploy", "etl_user"])
        return p, r.choice([p, p, f"https://{user}:{p}@{svc_host}/"])

    return f


def g_sas(r):
    sig = quote(rb64(r, 32), safe="")
    acct = r.choice(["citydocsgov", "permitsblob", "opendataexports"])
    url = (
        f"https://{acct}.blob.core.usgovcloudapi.net/{r.choice(['exports', 'permits', 'gis'])}/"
        f"{r.choice(['roads', 'parcels', 'citations'])}_{date(r)}.csv?sv=2022-11-02&ss=b&srt=o&sp=r"
        f"&se=2026-12-{r.randint(10, 31)}T00:00:00Z&spr=https&sig={sig}"
    )
    return sig, url


def g_azstore(r):
    k = rb64(r, 64)
    return k, (
        f"DefaultEndpointsProtocol=https;AccountName=cityfiles{r.randint(1, 99)};AccountKey={k};"
        "EndpointSuffix=core.usgovcloudapi.net"
    )


def g_slackhook(r):
    t = rs(r, B62, 24)
    return t, f"https://hooks.slack.com/services/T{rs(r, UPD, 9)}/B{rs(r, UPD, 11)}/{t}"


def g_discordhook(r):
    t = rs(r, URLA, 68)
    return t, f"https://discord.com/api/webhooks/{r.randint(10**17, 10**19 - 1)}/{t}"


def pre(parts, alpha, n):
    def f(r):
        return "".join(parts) + rs(r, alpha, n)

    return f


def g_wp_app(r):
    return " ".join(rs(r, B62, 4) for _ in range(6))


def g_wp_salt(r):
    return rs(r, B62 + "!@#%^&*()-_=+[]<>;:,.?|~", 64)


def g_django(r):
    return rs(r, LO + DG + "!@#%^&*(-_=+)", 50)


def g_entra(r):
    return rs(r, B62, 3) + "8Q" + "~" + rs(r, B62 + "_~.-", 31)


def g_tfc(r):
    return rs(r, B62, 14) + ".atlas" + "v1." + rs(r, B62, 67)


def g_sendgrid(r):
    return "S" + "G." + rs(r, URLA, 22) + "." + rs(r, URLA, 43)


def g_fgpat(r):
    return "github" + "_pat_" + rs(r, UPD, 22) + "_" + rs(r, B62, 59)


def g_slackbot(r):
    return "xo" + "xb-" + str(r.randint(10**10, 10**12)) + "-" + str(r.randint(10**12, 10**13)) + "-" + rs(r, B62, 24)


def g_jwtsecret(r):
    return r.choice([rs(r, HEX, 64), rb64(r, 48), "-".join(r.choice(WORDS) for _ in range(6))])


# kind, label, var, service, gen, mode
KINDS = [
    (
        "govuk_notify_api_key",
        "live API key",
        "NOTIFY_API_KEY",
        "GOV.UK Notify",
        g_notify,
        "tok",
    ),
    (
        "login_gov_private_key",
        "private_key_jwt signing key",
        "LOGIN_GOV_PRIVATE_KEY",
        "Login.gov",
        g_pem_pkcs8,
        "pem",
    ),
    (
        "idme_client_secret",
        "OIDC client secret",
        "IDME_CLIENT_SECRET",
        "ID.me",
        pre([], HEX, 32),
        "tok",
    ),
    (
        "socrata_api_key_secret",
        "API key secret",
        "SOCRATA_KEY_SECRET",
        "Socrata open data portal",
        pre([], B62, 50),
        "tok",
    ),
    (
        "arcgis_api_key",
        "API key",
        "ARCGIS_API_KEY",
        "ArcGIS Online",
        pre(["AA", "PK"], URLA, 96),
        "tok",
    ),
    (
        "esri_client_secret",
        "OAuth client secret",
        "ESRI_CLIENT_SECRET",
        "ArcGIS Enterprise",
        pre([], HEX, 32),
        "tok",
    ),
    (
        "qalert_api_key",
        "API key",
        "QALERT_API_KEY",
        "QAlert 311",
        pre([], HEX, 32),
        "tok",
    ),
    (
        "granicus_api_token",
        "API token",
        "GRANICUS_TOKEN",
        "Granicus govDelivery",
        pre([], B62, 32),
        "tok",
    ),
    (
        "accela_app_secret",
        "app secret",
        "ACCELA_APP_SECRET",
        "Accela Civic Platform",
        pre([], HEX, 32),
        "tok",
    ),
    (
        "tyler_client_secret",
        "client secret",
        "TYLER_CLIENT_SECRET",
        "Tyler Munis API",
        pre([], B62, 48),
        "tok",
    ),
    (
        "servicenow_password",
        "integration user password",
        "SN_PASSWORD",
        "ServiceNow",
        g_basic("city.servicenowservices.com"),
        "pw",
    ),
    (
        "salesforce_refresh_token",
        "refresh token",
        "SF_REFRESH_TOKEN",
        "Salesforce Government Cloud",
        pre(["5Ae", "p861"], B62 + "._", 80),
        "tok",
    ),
    (
        "docusign_secret_key",
        "integration secret key",
        "DOCUSIGN_SECRET_KEY",
        "DocuSign",
        uuid4,
        "tok",
    ),
    (
        "twilio_auth_token",
        "auth token",
        "TWILIO_AUTH_TOKEN",
        "Twilio",
        pre([], HEX, 32),
        "tok",
    ),
    (
        "twilio_api_key_secret",
        "API key secret",
        "TWILIO_API_SECRET",
        "Twilio",
        pre([], B62, 32),
        "tok",
    ),
    ("sendgrid_api_key", "API key", "SENDGRID_API_KEY", "SendGrid", g_sendgrid, "tok"),
    (
        "okta_api_token",
        "API token",
        "OKTA_API_TOKEN",
        "Okta",
        pre(["0", "0"], URLA, 40),
        "tok",
    ),
    (
        "okta_client_secret",
        "client secret",
        "OKTA_CLIENT_SECRET",
        "Okta",
        pre([], URLA, 64),
        "tok",
    ),
    (
        "entra_client_secret",
        "app registration client secret",
        "AZURE_CLIENT_SECRET",
        "Entra ID (Azure Government)",
        g_entra,
        "tok",
    ),
    (
        "azure_storage_account_key",
        "storage account key",
        "AZURE_STORAGE_CONNECTION_STRING",
        "Azure Government storage",
        g_azstore,
        "url",
    ),
    (
        "azure_sas_signature",
        "SAS URL",
        "EXPORT_SAS_URL",
        "Azure Government blob",
        g_sas,
        "url",
    ),
    (
        "aws_secret_access_key",
        "secret access key",
        "AWS_SECRET_ACCESS_KEY",
        "AWS GovCloud",
        pre([], B62 + "/+", 40),
        "tok",
    ),
    (
        "drupal_hash_salt",
        "hash_salt",
        "DRUPAL_HASH_SALT",
        "Drupal city site",
        pre([], URLA, 55),
        "tok",
    ),
    (
        "drupal_db_password",
        "database password",
        "DRUPAL_DB_PASSWORD",
        "Drupal city site",
        lambda r: pw(r),
        "pw",
    ),
    (
        "wordpress_auth_key",
        "AUTH_KEY salt",
        "WP_AUTH_KEY",
        "WordPress library site",
        g_wp_salt,
        "tok",
    ),
    (
        "wordpress_application_password",
        "application password",
        "WP_APP_PASSWORD",
        "WordPress news site",
        g_wp_app,
        "pw",
    ),
    (
        "akamai_client_secret",
        "EdgeGrid client_secret",
        "AKAMAI_CLIENT_SECRET",
        "Akamai",
        lambda r: rb64(r, 32),
        "tok",
    ),
    (
        "cloudflare_api_token",
        "API token",
        "CLOUDFLARE_API_TOKEN",
        "Cloudflare",
        pre([], URLA, 40),
        "tok",
    ),
    (
        "cloudflare_global_api_key",
        "Global API Key",
        "CF_API_KEY",
        "Cloudflare",
        pre([], HEX, 37),
        "tok",
    ),
    (
        "datadog_api_key",
        "API key",
        "DD_API_KEY",
        "Datadog (US1-FED)",
        pre([], HEX, 32),
        "tok",
    ),
    (
        "datadog_app_key",
        "application key",
        "DD_APP_KEY",
        "Datadog (US1-FED)",
        pre([], HEX, 40),
        "tok",
    ),
    (
        "newrelic_license_key",
        "ingest license key",
        "NEW_RELIC_LICENSE_KEY",
        "New Relic",
        lambda r: rs(r, HEX, 36) + "NR" + "AL",
        "tok",
    ),
    (
        "newrelic_user_api_key",
        "user API key",
        "NEW_RELIC_API_KEY",
        "New Relic",
        pre(["NR", "AK-"], UPD, 27),
        "tok",
    ),
    (
        "pagerduty_api_token",
        "REST API token",
        "PAGERDUTY_TOKEN",
        "PagerDuty",
        lambda r: "u+" + rs(r, URLA, 18),
        "tok",
    ),
    (
        "pagerduty_routing_key",
        "Events v2 integration key",
        "PD_ROUTING_KEY",
        "PagerDuty",
        pre(["R0"], B62, 30),
        "tok",
    ),
    (
        "statuspage_api_key",
        "API key",
        "STATUSPAGE_API_KEY",
        "Atlassian Statuspage",
        uuid4,
        "tok",
    ),
    (
        "github_pat",
        "personal access token",
        "GHE_TOKEN",
        "GitHub Enterprise",
        pre(["gh", "p_"], B62, 36),
        "tok",
    ),
    (
        "github_fine_grained_pat",
        "fine-grained token",
        "GITHUB_TOKEN_DEPLOY",
        "GitHub",
        g_fgpat,
        "tok",
    ),
    (
        "jenkins_api_token",
        "API token",
        "JENKINS_API_TOKEN",
        "Jenkins",
        pre(["1", "1"], HEX, 32),
        "tok",
    ),
    (
        "sonarqube_token",
        "user token",
        "SONAR_TOKEN",
        "SonarQube",
        pre(["sq", "u_"], HEX, 40),
        "tok",
    ),
    (
        "nexus_password",
        "deploy user password",
        "NEXUS_PASSWORD",
        "Nexus Repository",
        g_basic("nexus.hosting-contractor.net"),
        "pw",
    ),
    (
        "vault_token",
        "token",
        "VAULT_TOKEN",
        "HashiCorp Vault",
        pre(["hv", "s.CAESI"], URLA, 86),
        "tok",
    ),
    (
        "vault_unseal_key",
        "unseal key",
        "VAULT_UNSEAL_KEY_1",
        "HashiCorp Vault",
        lambda r: rb64(r, 32),
        "tok",
    ),
    (
        "terraform_cloud_token",
        "team API token",
        "TFE_TOKEN",
        "Terraform Cloud",
        g_tfc,
        "tok",
    ),
    ("postgres_password", "password", "PGPASSWORD", "Postgres", g_pg, "url"),
    ("sqlserver_password", "password", "MSSQL_PASSWORD", "SQL Server", g_mssql, "url"),
    (
        "oracle_password",
        "password",
        "ORACLE_PASSWORD",
        "Oracle (Tyler Munis)",
        g_ora,
        "url",
    ),
    (
        "redis_password",
        "password",
        "REDIS_PASSWORD",
        "Redis session cache",
        g_redis,
        "url",
    ),
    (
        "ldap_bind_password",
        "bind password",
        "LDAP_BIND_PASSWORD",
        "city Active Directory",
        lambda r: pw(r),
        "pw",
    ),
    (
        "sftp_password",
        "SFTP password",
        "STATE_SFTP_PASSWORD",
        "state DMV SFTP exchange",
        lambda r: pw(r),
        "pw",
    ),
    (
        "openssh_private_key",
        "SSH deploy key",
        "DEPLOY_SSH_KEY",
        "state revenue SFTP",
        g_openssh,
        "pem",
    ),
    (
        "rsa_private_key",
        "RSA private key",
        "SAML_SP_KEY",
        "DocuSign JWT / SAML SP",
        g_pem_rsa,
        "pem",
    ),
    (
        "paymentus_api_key",
        "API key",
        "PAYMENTUS_API_KEY",
        "Paymentus",
        pre([], B62, 40),
        "tok",
    ),
    (
        "stripe_secret_key",
        "live secret key",
        "STRIPE_SECRET_KEY",
        "Stripe (permit payments)",
        pre(["sk", "_live_"], B62, 99),
        "tok",
    ),
    (
        "stripe_restricted_key",
        "restricted key",
        "STRIPE_RK",
        "Stripe (parking tickets)",
        pre(["rk", "_live_"], B62, 99),
        "tok",
    ),
    (
        "stripe_webhook_secret",
        "webhook signing secret",
        "STRIPE_WEBHOOK_SECRET",
        "Stripe",
        pre(["wh", "sec_"], B62, 32),
        "tok",
    ),
    (
        "authorizenet_transaction_key",
        "transaction key",
        "AUTHNET_TRANSACTION_KEY",
        "Authorize.Net",
        pre([], B62, 16),
        "tok",
    ),
    (
        "elavon_ssl_pin",
        "Converge ssl_pin",
        "ELAVON_SSL_PIN",
        "Elavon Converge",
        pre([], UPD, 64),
        "tok",
    ),
    (
        "parkmobile_api_secret",
        "API secret",
        "PARKMOBILE_API_SECRET",
        "ParkMobile meters",
        pre([], B62, 40),
        "tok",
    ),
    (
        "swiftly_api_key",
        "API key",
        "SWIFTLY_API_KEY",
        "Swiftly transit feed",
        pre([], HEX, 32),
        "tok",
    ),
    (
        "slack_webhook",
        "incoming webhook",
        "SLACK_WEBHOOK_URL",
        "Slack #city-alerts",
        g_slackhook,
        "url",
    ),
    (
        "discord_webhook",
        "webhook",
        "DISCORD_WEBHOOK_URL",
        "Discord civic-tech server",
        g_discordhook,
        "url",
    ),
    ("slack_bot_token", "bot token", "SLACK_BOT_TOKEN", "Slack", g_slackbot, "tok"),
    (
        "azure_devops_pat",
        "personal access token",
        "AZDO_PAT",
        "Azure DevOps Server",
        pre([], "abcdefghijklmnopqrstuvwxyz234567", 52),
        "tok",
    ),
    (
        "npm_token",
        "automation token",
        "NPM_TOKEN",
        "npm registry",
        pre(["np", "m_"], B62, 36),
        "tok",
    ),
    (
        "sentry_auth_token",
        "user auth token",
        "SENTRY_AUTH_TOKEN",
        "Sentry",
        pre(["sntr", "yu_"], HEX, 64),
        "tok",
    ),
    (
        "ses_smtp_password",
        "SMTP password",
        "SMTP_PASSWORD",
        "Amazon SES GovCloud",
        lambda r: "B" + rb64(r, 32)[:43],
        "tok",
    ),
    (
        "django_secret_key",
        "SECRET_KEY",
        "DJANGO_SECRET_KEY",
        "Django 311 portal",
        g_django,
        "tok",
    ),
    (
        "jwt_signing_secret",
        "JWT signing secret",
        "JWT_SECRET",
        "permits API",
        g_jwtsecret,
        "tok",
    ),
]


# ---------------------------------------------------------------- positive templates
def _k(k):
    return {"label": k[1], "var": k[2], "svc": k[3]}


def t_note(r, k, s):
    return f"Note {date(r)}: {k['svc']} {k['label']} for the {r.choice(TEAMS)} is {s} (rotate after the go-live)."


def t_lesson(r, k, s):
    return (
        f"Lesson learned: the {k['svc']} sync failed because {k['var']} still had the old value. "
        f"Current {k['label']}: {s}\nAlways restart the worker after changing it."
    )


def t_runbook(r, k, s):
    return (
        f"Runbook - {k['svc']} outage\n1. Check status page.\n2. Re-export {k['var']}:\n   {s}\n"
        f"3. Page {person(r)} if still failing after {r.randint(5, 30)} min."
    )


def t_todo(r, k, s):
    return f"TODO({person(r)}): move {k['svc']} {k['label']} out of the repo into Vault -> {s}"


def t_incident(r, k, s):
    return (
        f"Incident review {ticket(r)} ({date(r)}): {k['svc']} {k['label']} was pasted in the public 311 "
        f"channel: {s}\nAction: revoke and reissue; add pre-commit scanning."
    )


def t_ticket(r, k, s):
    return (
        f"[{ticket(r)}] Configure {k['svc']} for the {r.choice(['permits', 'parking', 'bins', 'library'])} app\n"
        f"Assignee: {person(r)}\nDetails: {k['label']} = {s}"
    )


def t_email(r, k, s):
    return (
        f"From: {person(r).lower()}@hosting-contractor.net\nTo: digital@city.gov\nSubject: {k['svc']} credentials\n\n"
        f"Hi team,\nhere is the {k['label']} you asked for:\n{s}\nPlease store it safely.\nThanks"
    )


def t_chat(r, k, s):
    return (
        f"[{r.randint(8, 18)}:{r.randint(0, 59):02d}] {person(r)}: anyone have the {k['svc']} {k['label']}?\n"
        f"[{r.randint(8, 18)}:{r.randint(0, 59):02d}] {person(r)}: {s}"
    )


def t_welsh(r, k, s):
    return f"Nodyn: {k['label']} {k['svc']} ar gyfer gwefan y cyngor: {s} - peidiwch a'i rannu."


def t_french(r, k, s):
    return f"Note : le secret {k['label']} de {k['svc']} pour la Ville est {s}. À faire : le déplacer dans le coffre."


def t_spanish(r, k, s):
    return f"Nota: la clave {k['label']} de {k['svc']} para el portal municipal es {s}. No compartir."


def t_irish(r, k, s):
    return f"Nóta: seo an eochair rúnda ({k['label']}) do {k['svc']}: {s}"


def t_maori(r, k, s):
    return f"Kia mōhio: ko te kī muna ({k['label']}) mō {k['svc']}: {s}. Kaua e tohatoha."


def t_filipino(r, k, s):
    return f"Paalala: ang {k['label']} ng {k['svc']} ay {s}. Huwag ibahagi sa labas ng team."


def t_viet(r, k, s):
    return f"Ghi chú: khóa bí mật {k['label']} của {k['svc']} là {s}. Không chia sẻ."


def t_env(r, k, s):
    return f"# {k['svc']}\nAPP_ENV=production\n{k['var']}={s}\nLOG_LEVEL={r.choice(['info', 'warn'])}"


def t_yaml(r, k, s):
    return (
        f"{r.choice(['integrations', 'services', 'vendors'])}:\n  {k['svc'].split()[0].lower()}:\n"
        f"    enabled: true\n    {k['var'].lower()}: {s}\n    timeout: {r.randint(5, 60)}"
    )


def t_json(r, k, s):
    return f'{{\n  "service": "{k["svc"]}",\n  "{k["var"].lower()}": "{s}",\n  "retries": {r.randint(1, 5)}\n}}'


def t_hcl(r, k, s):
    return f'provider "{k["svc"].split()[0].lower()}" {{\n  region = "us-gov-west-1"\n  {k["var"].lower()} = "{s}"\n}}'


def t_jenkins(r, k, s):
    return (
        f"pipeline {{\n  agent any\n  environment {{\n    {k['var']} = '{s}'\n  }}\n"
        f"  stages {{ stage('deploy') {{ steps {{ sh './deploy.sh {r.choice(['stage', 'prod'])}' }} }} }}\n}}"
    )


def t_php(r, k, s):
    return f"<?php\n// {k['svc']}\n$settings['{k['var'].lower()}'] = '{s}';\n$settings['file_private_path'] = '/var/private';"


def t_webconfig(r, k, s):
    return f'<configuration>\n  <appSettings>\n    <add key="{k["var"]}" value="{s}" />\n  </appSettings>\n</configuration>'


def t_appsettings(r, k, s):
    return (
        f'{{\n  "Logging": {{ "LogLevel": {{ "Default": "Information" }} }},\n'
        f'  "{k["svc"].split()[0]}": {{ "{k["var"]}": "{s}" }}\n}}'
    )


def t_ansible(r, k, s):
    return f'# group_vars/{r.choice(["web", "db", "all"])}.yml\n{k["var"].lower()}: "{s}"\nhttp_port: {r.choice([80, 8080])}'


def t_k8s(r, k, s):
    return (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {k['var'].lower().replace('_', '-')}\n"
        f"  namespace: {r.choice(['permits', 'opendata', 'web'])}\ntype: Opaque\nstringData:\n  {k['var']}: {s}"
    )


def t_compose(r, k, s):
    return (
        f"services:\n  {r.choice(['api', 'worker', 'cms'])}:\n    image: city/{r.choice(['permits', 'web'])}:"
        f"{r.randint(1, 9)}.{r.randint(0, 20)}\n    environment:\n      - {k['var']}={s}"
    )


def t_cli(r, k, s):
    return (
        f"$ export {k['var']}='{s}'\n$ ./bin/sync --target {k['svc'].split()[0].lower()}\n"
        f"synced {r.randint(10, 900)} records in {r.randint(1, 9)}.{r.randint(0, 9)}s"
    )


def t_vault(r, k, s):
    return (
        f"$ vault kv get secret/city/{k['var'].lower()}\n====== Data ======\nKey      Value\n---      -----\n"
        f"value    {s}"
    )


def t_tfout(r, k, s):
    return f"$ terraform output -raw {k['var'].lower()}\n{s}"


def t_http(r, k, s):
    return (
        f"> POST /v1/{r.choice(['messages', 'records', 'events'])} HTTP/1.1\n> Host: api.example-vendor.com\n"
        f"> Authorization: Bearer {s}\n> Content-Type: application/json\n< HTTP/1.1 {r.choice([200, 401, 403])}"
    )


def t_ci(r, k, s):
    return (
        f"[{date(r)}T0{r.randint(0, 9)}:{r.randint(10, 59)}:00Z] Step 4/9 : configure {k['svc']}\n"
        f"+ echo {k['var']}={s} > .env\nBuild #{r.randint(100, 9999)} finished"
    )


def t_container(r, k, s):
    return (
        f"{date(r)} 0{r.randint(0, 9)}:{r.randint(10, 59)}:0{r.randint(0, 9)} DEBUG config loaded "
        f"{k['var'].lower()}={s} pid={r.randint(100, 9999)}"
    )


def t_sql(r, k, s):
    return (
        f"cityops=> SELECT name, value FROM app_settings WHERE name = '{k['var'].lower()}';\n"
        f"      name       |   value\n-----------------+------------\n {k['var'].lower()} | {s}\n(1 row)"
    )


def t_ps(r, k, s):
    return f"PS C:\\ops> $env:{k['var']} = '{s}'\nPS C:\\ops> .\\Invoke-{k['svc'].split()[0]}Sync.ps1 -Verbose"


ALL_T = [
    t_note,
    t_lesson,
    t_runbook,
    t_todo,
    t_incident,
    t_ticket,
    t_email,
    t_chat,
    t_welsh,
    t_french,
    t_spanish,
    t_irish,
    t_maori,
    t_filipino,
    t_viet,
    t_env,
    t_yaml,
    t_json,
    t_hcl,
    t_jenkins,
    t_php,
    t_webconfig,
    t_appsettings,
    t_ansible,
    t_k8s,
    t_compose,
    t_cli,
    t_vault,
    t_tfout,
    t_http,
    t_ci,
    t_container,
    t_sql,
    t_ps,
]
URL_T = [t for t in ALL_T if t is not t_http]


def t_k8s_pem(r, k, s):
    ind = "\n".join("    " + ln for ln in s.split("\n"))
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {k['var'].lower()}\nstringData:\n  key.pem: |\n{ind}"


PEM_T = [
    t_note,
    t_lesson,
    t_runbook,
    t_incident,
    t_email,
    t_chat,
    t_vault,
    t_tfout,
    t_welsh,
    t_french,
    t_k8s_pem,
]


def _positives(r: random.Random, seen: set) -> list:
    out = []
    for kind in KINDS:
        k = _k(kind)
        gen, mode = kind[4], kind[5]
        tpls = {"tok": ALL_T, "pw": URL_T, "url": URL_T, "pem": PEM_T}[mode]
        n = 0
        while n < PER_KIND:
            v = gen(r)
            secret, shown = v if isinstance(v, tuple) else (v, v)
            text = r.choice(tpls)(r, k, shown)
            if mode == "pem" and r.random() < 0.15:
                text = f"# {k['svc']}\n{shown}"
            if secret not in text or text in seen:
                continue
            seen.add(text)
            out.append((text, kind[0], secret))
            n += 1
    return out


# ---------------------------------------------------------------- look-alikes
_LOOK = []


def L(fn):
    _LOOK.append(fn)
    return fn


def _frame(r, body):
    return r.choice(
        [
            "Note: {b}",
            "{b}",
            "FYI for the {t}: {b}",
            "[{d}] {b}",
            "Lesson: {b}",
        ]
    ).format(b=body, t=r.choice(TEAMS), d=date(r))


@L
def lk_commit(r):
    return _frame(
        r,
        f"deployed city-web at commit {rs(r, HEX, 40)} to {r.choice(['stage', 'prod'])}",
    )


@L
def lk_short_commit(r):
    return f"$ git log --oneline -3\n{rs(r, HEX, 7)} fix permit fee rounding\n{rs(r, HEX, 7)} bump drupal core\n{rs(r, HEX, 7)} add 311 categories"


@L
def lk_sha256(r):
    return f"{rs(r, HEX, 64)}  city-permits-{r.randint(1, 5)}.{r.randint(0, 30)}.tar.gz"


@L
def lk_md5(r):
    return _frame(r, f"MD5 of the nightly parcels export: {rs(r, HEX, 32)}")


@L
def lk_sha1_nexus(r):
    return f"Downloaded gov/city/permits-core/{r.randint(1, 4)}.{r.randint(0, 9)}/permits-core.jar.sha1 -> {rs(r, HEX, 40)}"


@L
def lk_request_uuid(r):
    return f"{date(r)} INFO request_id={uuid4(r)} path=/api/311/requests status=200 dur={r.randint(3, 900)}ms"


@L
def lk_image_digest(r):
    return f"image: ghcr.io/city/permits-api@sha256:{rs(r, HEX, 64)}"


@L
def lk_data_uri(r):
    return f'<img alt="city seal" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{rb64(r, 60)}">'


@L
def lk_hf_model(r):
    return _frame(
        r,
        f"311 triage classifier uses {r.choice(['distilbert-base-uncased', 'roberta-base', 'bert-base-multilingual-cased'])} fine-tuned as city-ds/311-triage-v{r.randint(1, 40)}",
    )


@L
def lk_run_id(r):
    return f"training run {rs(r, LO + DG, 8)} finished, mlflow run_id={rs(r, HEX, 32)}"


@L
def lk_stripe_pk(r):
    return f"STRIPE_PUBLISHABLE_KEY={'pk' + '_live_'}{rs(r, B62, 99)}  # publishable, ships to the browser"


@L
def lk_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="{"6L" + rs(r, URLA, 38)}"></div>'


@L
def lk_hcaptcha(r):
    return f"hcaptcha site key (public): {uuid4(r)}"


@L
def lk_sentry_dsn(r):
    return f"SENTRY_DSN=https://{rs(r, HEX, 32)}@o{r.randint(10000, 999999)}.ingest.sentry.io/{r.randint(1000000, 9999999)}"


@L
def lk_logingov_clientid(r):
    return f"LOGIN_GOV_CLIENT_ID=urn:gov:gsa:openidconnect.profiles:sp:sso:city_{r.choice(WORDS)}:{r.choice(['permits', 'parking', 'benefits'])}{r.randint(1, 99)}"


@L
def lk_entra_ids(r):
    return f"Entra app registration: Application (client) ID {uuid4(r)}, Directory (tenant) ID {uuid4(r)}. Secret lives in Key Vault."


@L
def lk_okta_clientid(r):
    return f"okta:\n  issuer: https://city.okta-gov.com/oauth2/default\n  client_id: 0oa{rs(r, B62, 17)}"


@L
def lk_firebase(r):
    return f'const firebaseConfig = {{ apiKey: "{"AI" + "za" + rs(r, URLA, 35)}", authDomain: "city-alerts-{r.randint(1, 99)}.firebaseapp.com", projectId: "city-alerts" }};'


@L
def lk_algolia(r):
    return f"ALGOLIA_APP_ID={rs(r, UPD, 10)}\nALGOLIA_SEARCH_ONLY_KEY={rs(r, HEX, 32)}  # search-only, public"


@L
def lk_placeholder_angle(r):
    return f"{r.choice(['NOTIFY_API_KEY', 'TWILIO_AUTH_TOKEN', 'SENDGRID_API_KEY', 'DD_API_KEY'])}=<your-{r.choice(['key', 'token', 'secret'])}-here>  # line {r.randint(1, 300)}"


@L
def lk_dollar_ref(r):
    v = r.choice(
        [
            "DB_PASSWORD",
            "STRIPE_SECRET_KEY",
            "VAULT_TOKEN",
            "OKTA_API_TOKEN",
            "SONAR_TOKEN",
        ]
    )
    return f"environment:\n  - {v}=${{{v}}}\n  - PORT={r.randint(3000, 9000)}"


@L
def lk_gha_secret(r):
    v = r.choice(["CF_API_TOKEN", "NPM_TOKEN", "AZURE_CLIENT_SECRET", "TFE_TOKEN"])
    return f"      - name: deploy\n        env:\n          {v}: ${{{{ secrets.{v} }}}}\n        run: ./deploy.sh {r.randint(1, 99)}"


@L
def lk_airflow_var(r):
    return f'api_key = Variable.get("{r.choice(["socrata", "arcgis", "qalert"])}_api_key_{r.randint(1, 50)}")'


@L
def lk_dbutils(r):
    return f'pw = dbutils.secrets.get(scope="city-{r.choice(WORDS)}", key="sqlserver-password")'


@L
def lk_vault_path(r):
    return f"The Accela secret is at vault path secret/data/city/{r.choice(WORDS)}/accela (policy city-{r.randint(1, 99)}-read). Use `vault kv get` to read it."


@L
def lk_env_names(r):
    names = r.sample(
        [
            "PGPASSWORD",
            "STRIPE_SECRET_KEY",
            "TWILIO_AUTH_TOKEN",
            "DD_API_KEY",
            "VAULT_TOKEN",
            "SFTP_PASSWORD",
            "OKTA_API_TOKEN",
            "AZURE_CLIENT_SECRET",
        ],
        4,
    )
    return "Required env vars: " + ", ".join(names) + f". See wiki page {r.randint(10, 999)}."


@L
def lk_ansible_vault(r):
    lines = "\n".join(rs(r, HEX, 80) for _ in range(r.randint(3, 6)))
    return "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join("  " + x for x in lines.split("\n"))


@L
def lk_sops(r):
    return f"stripe_key: ENC[AES256_GCM,data:{rb64(r, 30)},iv:{rb64(r, 32)},tag:{rb64(r, 16)},type:str]"


@L
def lk_bcrypt(r):
    return f"admin | $2b$12${rs(r, B62 + './', 53)}"


@L
def lk_argon2(r):
    return f"password_hash = '$argon2id$v=19$m=65536,t=3,p=4${rb64(r, 16).rstrip('=')}${rb64(r, 32).rstrip('=')}'"


@L
def lk_sha512crypt(r):
    return f"deploy:$6${rs(r, B62, 16)}${rs(r, B62 + './', 86)}:19{r.randint(100, 999)}:0:99999:7:::"


@L
def lk_ssh_fp(r):
    return f"ED25519 key fingerprint is SHA256:{rb64(r, 32).rstrip('=')}.\nAre you sure you want to continue connecting (yes/no)?"


@L
def lk_ssh_pub(r):
    return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rb64(r, 32).rstrip('=')} {person(r).lower()}@city-laptop"


@L
def lk_pgp_fp(r):
    fp = rs(r, HEX.upper(), 40)
    return f"Encrypt files for the state agency with PGP key {' '.join(fp[i : i + 4] for i in range(0, 40, 4))}"


@L
def lk_cert(r):
    return f"{BEGIN} CERTIFICATE-----\nMIID{rb64(r, 45)}\n{rb64(r, 48)}\n{END} CERTIFICATE-----\n(public cert for the SAML metadata)"


@L
def lk_kms_arn(r):
    return f"KMS key: arn:aws-us-gov:kms:us-gov-west-1:{r.randint(10**11, 10**12 - 1)}:key/{uuid4(r)}"


@L
def lk_keyvault_ref(r):
    return f'"DbPassword": "@Microsoft.KeyVault(SecretUri=https://city-kv-{r.randint(1, 99)}.vault.usgovcloudapi.net/secrets/db-password/)"'


@L
def lk_secret_key_ref(r):
    return f"env:\n  - name: PGPASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: permits-db-{r.randint(1, 99)}\n        key: password"


@L
def lk_tf_sensitive(r):
    return f'$ terraform output\ndb_host = "{host(r)}"\ndb_password = <sensitive>\nsftp_key = <sensitive>\nbucket = "city-exports-{r.randint(1, 999)}"'


@L
def lk_vault_meta(r):
    return f"$ vault kv metadata get secret/city/stripe\ncreated_time  {date(r)}T10:00:00Z\ncurrent_version  {r.randint(1, 40)}\nmax_versions  0"


@L
def lk_ci_masked(r):
    return f"+ curl -H 'Authorization: Bearer ***' https://api.example.org/v{r.randint(1, 3)}/deploy\nBuild #{r.randint(10, 9999)} ok"


@L
def lk_changeme(r):
    return f"Default admin password for the test Nexus image is `{r.choice(['changeme', 'admin123', 'password'])}`; the installer forces a change on first login (doc v{r.randint(1, 20)})."


@L
def lk_notebook(r):
    return f'{{"cell_type": "code", "execution_count": {r.randint(1, 300)}, "id": "{rs(r, HEX, 8)}", "source": ["df = load_311()"]}}'


@L
def lk_twilio_sid(r):
    return f"Twilio Account SID {'A' + 'C'}{rs(r, HEX, 32)} (identifier only; auth token is in Vault)"


@L
def lk_twilio_msg(r):
    return f"SMS delivered: sid={'S' + 'M'}{rs(r, HEX, 32)} status=delivered to=+1555{r.randint(1000000, 9999999)}"


@L
def lk_stripe_ids(r):
    return f"refund issued for parking ticket: charge=ch_{rs(r, B62, 24)} customer=cus_{rs(r, B62, 14)}"


@L
def lk_dd_trace(r):
    return f"dd.trace_id={r.randint(10**18, 10**19)} dd.span_id={r.randint(10**18, 10**19)} service=permits-api"


@L
def lk_nr_guid(r):
    return f"New Relic entity guid: {base64.b64encode(f'{r.randint(1000000, 9999999)}|APM|APPLICATION|{r.randint(10**8, 10**9)}'.encode()).decode()}"


@L
def lk_pd_incident(r):
    return f"PagerDuty incident P{rs(r, UPD, 6)} on service P{rs(r, UPD, 6)} resolved by {person(r)}"


@L
def lk_sysid(r):
    return f"ServiceNow INC{r.randint(1000000, 9999999)} sys_id={rs(r, HEX, 32)}"


@L
def lk_sf_id(r):
    return f"Salesforce case 500{rs(r, B62, 15)} linked to contact 003{rs(r, B62, 15)}"


@L
def lk_docusign_env(r):
    return f"DocuSign envelope {uuid4(r)} completed; signed permit PDF attached."


@L
def lk_notify_template(r):
    return f"GOV.UK Notify template_id={uuid4(r)} (bin collection reminder, version {r.randint(1, 30)})"


@L
def lk_socrata_4x4(r):
    return f"https://data.city.gov/resource/{rs(r, LO + DG, 4)}-{rs(r, LO + DG, 4)}.json?$limit={r.randint(100, 50000)}"


@L
def lk_arcgis_item(r):
    return f"ArcGIS item id {rs(r, HEX, 32)} (street closures feature layer), org id {rs(r, B62, 16)}"


@L
def lk_cf_zone(r):
    return f'cloudflare zone_id = "{rs(r, HEX, 32)}"\naccount_id = "{rs(r, HEX, 32)}"'


@L
def lk_cf_ray(r):
    return f"Error 1020 Access denied. Cloudflare Ray ID: {rs(r, HEX, 16)} - {r.choice(['ORD', 'IAD', 'DFW'])}"


@L
def lk_akamai_ref(r):
    return f"Access Denied. Reference #18.{rs(r, HEX, 8)}.{r.randint(10**9, 2 * 10**9)}.{rs(r, HEX, 8)}"


@L
def lk_tf_lineage(r):
    return f'{{"version": 4, "terraform_version": "1.{r.randint(3, 9)}.{r.randint(0, 5)}", "serial": {r.randint(1, 900)}, "lineage": "{uuid4(r)}"}}'


@L
def lk_sonar_task(r):
    return f"INFO: More about the report processing at https://sonar.city.gov/api/ce/task?id={rs(r, URLA, 20)}"


@L
def lk_npm_integrity(r):
    return f'"integrity": "sha512-{rb64(r, 64)}"'


@L
def lk_pip_hash(r):
    return f"requests==2.{r.randint(20, 32)}.0 \\\n    --hash=sha256:{rs(r, HEX, 64)}"


@L
def lk_gosum(r):
    return f"github.com/city/permits v0.{r.randint(1, 9)}.{r.randint(0, 9)} h1:{rb64(r, 32)}"


@L
def lk_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(r, HEX, 64)}\nsize {r.randint(1000, 10**8)}"


@L
def lk_pg_nopw(r):
    return f"DATABASE_URL=postgresql://{r.choice(['app', 'etl'])}@{host(r)}:5432/permits?sslmode=require  # password via PGPASSFILE"


@L
def lk_conn_masked(r):
    return f"Server=tcp:{host(r)},1433;Database=Parking;User ID=svc_parking;Password=********;Encrypt=True;"


@L
def lk_jdbc_env(r):
    return (
        f"spring.datasource.url=jdbc:oracle:thin:@{host(r)}:1521/MUNIS\nspring.datasource.password=${{ORACLE_PASSWORD}}"
    )


@L
def lk_etag(r):
    return f'< HTTP/1.1 200 OK\n< ETag: "{rs(r, HEX, 32)}"\n< x-amz-request-id: {rs(r, UPD, 16)}\n< x-amz-id-2: {rb64(r, 48)}'


@L
def lk_ms_request(r):
    return f"x-ms-request-id: {uuid4(r)}\nx-ms-correlation-request-id: {uuid4(r)}\nStatus: 404 ResourceNotFound"


@L
def lk_aadsts(r):
    return f"AADSTS700016: Application not found. Trace ID: {uuid4(r)} Correlation ID: {uuid4(r)} Timestamp: {date(r)} 10:{r.randint(10, 59)}:00Z"


@L
def lk_stripe_sig(r):
    return f"Stripe-Signature: t={r.randint(1700000000, 1800000000)},v1={rs(r, HEX, 64)}"


@L
def lk_twilio_sig(r):
    return f"X-Twilio-Signature: {rb64(r, 20)} (validated OK for /sms/inbound)"


@L
def lk_oidc_state(r):
    return f"GET /auth/callback?state={rs(r, HEX, 32)}&nonce={rs(r, URLA, 22)} 302 (login.gov redirect)"


@L
def lk_pkce_challenge(r):
    return f"code_challenge={rb64(r, 32).rstrip('=').replace('+', '-').replace('/', '_')}&code_challenge_method=S256"


@L
def lk_configmap_b64(r):
    svg = f'<svg width="{r.randint(10, 500)}" xmlns="http://www.w3.org/2000/svg"><title>City</title></svg>'
    return f"binaryData:\n  logo.svg: {base64.b64encode(svg.encode()).decode()}"


@L
def lk_webpack(r):
    return f'<script src="/themes/city/dist/main.{rs(r, HEX, 20)}.js"></script>'


@L
def lk_citation(r):
    return f"Parking citation PC{r.randint(10**8, 10**9)} paid, permit RPP-{r.randint(1000, 99999)}, receipt {rs(r, UPD, 12)}"


@L
def lk_authnet_trans(r):
    return f'{{"transactionResponse": {{"responseCode": "1", "authCode": "{rs(r, UPD, 6)}", "transId": "{r.randint(10**10, 10**11)}"}}}}'


@L
def lk_authnet_clientkey(r):
    return f"Accept.js publicClientKey (public): {rs(r, B62, 80)}"


@L
def lk_saml_fp(r):
    fp = rs(r, HEX.upper(), 40)
    return f"IdP signing cert SHA1 fingerprint: {':'.join(fp[i : i + 2] for i in range(0, 40, 2))}"


@L
def lk_cert_serial(r):
    return f"Serial Number: {':'.join(rs(r, HEX, 2) for _ in range(16))}\nIssuer: C=US, O=Let's Encrypt, CN=R{r.randint(3, 11)}"


@L
def lk_site_verify(r):
    return f'TXT city.gov "google-site-verification={rs(r, URLA, 43)}"'


@L
def lk_dkim(r):
    return f's{r.randint(1, 9)}._domainkey.city.gov TXT "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{rb64(r, 60)}"'


@L
def lk_jwks(r):
    n = base64.urlsafe_b64encode(bytes(r.getrandbits(8) for _ in range(128))).decode().rstrip("=")
    return f'{{"keys": [{{"kty": "RSA", "kid": "{rs(r, URLA, 20)}", "use": "sig", "e": "AQAB", "n": "{n}"}}]}}'


@L
def lk_empty_pw(r):
    v = r.choice(["", "null", "~", '""'])
    return f"database:\n  host: {host(r)}\n  user: readonly\n  password: {v}"


@L
def lk_redacted(r):
    return f"{date(r)} WARN auth failed for token={r.choice(['[REDACTED]', '[FILTERED]', '<redacted>', '***'])} client={r.randint(1, 900)}"


@L
def lk_aws_doc_example(r):
    ex = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
    return f"From the AWS docs example (not real): aws_secret_access_key = {ex} -- step {r.randint(1, 99)}"


@L
def lk_stripe_doc_example(r):
    ex = "sk" + "_test_" + "4eC39HqLyjWDarjtT1zdp7dc"
    return f"Stripe's docs use {ex} as the sample key in curl examples (see guide section {r.randint(1, 90)})."


@L
def lk_gh_token_ref(r):
    return f"        run: gh release create v{r.randint(1, 9)}.{r.randint(0, 9)} --notes auto\n        env:\n          GH_TOKEN: ${{{{ github.token }}}}"


@L
def lk_sa_token_path(r):
    return f"token is read at runtime from /var/run/secrets/kubernetes.io/serviceaccount/token (pod permits-{rs(r, LO + DG, 5)})"


@L
def lk_docker_secret(r):
    return f"POSTGRES_PASSWORD_FILE=/run/secrets/{r.choice(['db_password', 'pg_pw', 'permits_db'])}\n# compose secret, file mounted at runtime {r.randint(1, 99)}"


@L
def lk_ps_getsecret(r):
    return f"PS> $pw = Get-AzKeyVaultSecret -VaultName city-kv-{r.randint(1, 99)} -Name SqlPassword -AsPlainText"


@L
def lk_user_secrets(r):
    key = r.choice(["Tyler:ClientSecret", "Okta:ApiToken", "Accela:AppSecret", "Twilio:AuthToken"])
    return f'dotnet user-secrets set "{key}" "<client-secret>" --project src/Permits{r.randint(1, 99)}'


@L
def lk_jobid(r):
    return f"Sidekiq job {rs(r, HEX, 24)} (PermitReminderJob) done in {r.randint(1, 900)}ms"


@L
def lk_objectid(r):
    return f'{{"_id": {{"$oid": "{rs(r, HEX, 24)}"}}, "category": "pothole", "ward": {r.randint(1, 15)}}}'


@L
def lk_ulid(r):
    return f"event_id=01{rs(r, '0123456789ABCDEFGHJKMNPQRSTVWXYZ', 24)} type=meter.payment"


@L
def lk_snowflake_id(r):
    return f"message id {r.randint(10**17, 10**19)} in #city-alerts was pinned"


@L
def lk_azure_resource(r):
    return f"/subscriptions/{uuid4(r)}/resourceGroups/rg-city-web/providers/Microsoft.Web/sites/city-permits-{r.randint(1, 99)}"


@L
def lk_aws_arn(r):
    return f"role_arn = arn:aws-us-gov:iam::{r.randint(10**11, 10**12 - 1)}:role/city-deploy-{r.choice(WORDS)}"


@L
def lk_ssh_known_hosts(r):
    return f"sftp.state-dmv.gov ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{rb64(r, 64)}"


@L
def lk_jenkins_encrypted(r):
    return (
        f"<password>{{AQAAABAAAAAQ{rb64(r, 48)}}}</password>\n<!-- encrypted by Jenkins, item {r.randint(1, 999)} -->"
    )


@L
def lk_wp_hash(r):
    return f"wp_users: admin_{r.randint(1, 99)} | $P$B{rs(r, B62 + './', 30)}"


@L
def lk_drupal_hash(r):
    return f"users_field_data.pass = $S$E{rs(r, B62 + './', 52)}"


@L
def lk_mysql_hash(r):
    return f"mysql> SELECT user, authentication_string FROM mysql.user;\n| wp_{r.randint(1, 99)} | *{rs(r, HEX.upper(), 40)} |"


@L
def lk_scram(r):
    return f"rolpassword: SCRAM-SHA-256$4096:{rb64(r, 16)}${rb64(r, 32)}:{rb64(r, 32)}"


@L
def lk_htpasswd(r):
    return f"staging:$apr1${rs(r, B62, 8)}${rs(r, B62 + './', 22)}"


@L
def lk_django_hash(r):
    return f"pbkdf2_sha256$870000${rs(r, B62, 22)}${rb64(r, 32)}"


@L
def lk_tf_var_block(r):
    return f'variable "stripe_secret_key_{r.randint(1, 99)}" {{\n  type      = string\n  sensitive = true\n}}'


@L
def lk_helm_existing(r):
    return f"postgresql:\n  auth:\n    existingSecret: permits-pg-{r.randint(1, 99)}\n    secretKeys:\n      adminPasswordKey: postgres-password"


@L
def lk_dd_client_token(r):
    return f"datadogRum.init({{ clientToken: '{'pu' + 'b'}{rs(r, HEX, 32)}', applicationId: '{uuid4(r)}', site: 'ddog-gov.com' }})"


@L
def lk_mapbox_pk(r):
    head = (
        base64.urlsafe_b64encode(f'{{"u":"citygis{r.randint(1, 99)}","a":"{rs(r, LO + DG, 10)}"}}'.encode())
        .decode()
        .rstrip("=")
    )
    return f"mapboxgl.accessToken = '{'pk' + '.'}{head}.{rs(r, URLA, 22)}'; // public token, URL-restricted"


@L
def lk_esri_client_id(r):
    return f"ArcGIS OAuth app client_id (public, used in the browser): {rs(r, B62, 16)}"


@L
def lk_paypal_client_id(r):
    return f'<script src="https://www.paypal.com/sdk/js?client-id=A{rs(r, URLA, 79)}&currency=USD"></script>'


@L
def lk_supabase_anon(r):
    hdr = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    pl = (
        base64.urlsafe_b64encode(f'{{"iss":"supabase","ref":"{rs(r, LO, 20)}","role":"anon"}}'.encode())
        .decode()
        .rstrip("=")
    )
    return f"SUPABASE_ANON_KEY={hdr}.{pl}.{rs(r, URLA, 43)}  # anon key, public by design"


@L
def lk_statuspage_ids(r):
    return f"Statuspage page_id={rs(r, LO + DG, 12)} component_id={rs(r, LO + DG, 12)} set to degraded_performance"


@L
def lk_pd_service(r):
    return f"PD escalation policy P{rs(r, UPD, 6)}, schedule P{rs(r, UPD, 6)} (on-call: {person(r)})"


@L
def lk_tenant_discovery(r):
    return f"https://login.microsoftonline.us/{uuid4(r)}/v2.0/.well-known/openid-configuration"


@L
def lk_vault_policy(r):
    return f'path "secret/data/city/{r.choice(WORDS)}/*" {{\n  capabilities = ["read", "list"]\n}}'


@L
def lk_encrypted_env(r):
    return f"PAYMENTUS_API_KEY=encrypted:{rb64(r, 48)}  # decrypted by dotenvx with the keys file"


@L
def lk_kubeseal(r):
    return f"encryptedData:\n  STRIPE_SECRET_KEY: Ag{rb64(r, 96)}"


@L
def lk_go_build_id(r):
    return f"go tool buildid permits-api\n{rs(r, URLA, 20)}/{rs(r, URLA, 20)}/{rs(r, URLA, 20)}/{rs(r, URLA, 20)}"


@L
def lk_checksum_table(r):
    return "\n".join(
        f"{rs(r, HEX, 64)}  {n}"
        for n in r.sample(
            [
                "vault_1.15_linux.zip",
                "terraform_1.9_linux.zip",
                "nomad.zip",
                "consul.zip",
            ],
            2,
        )
    )


@L
def lk_gtfs(r):
    return f"GTFS-rt vehicle {r.randint(1000, 9999)} trip_id={r.randint(10**6, 10**7)}_{rs(r, UPD, 4)} feed version {rs(r, HEX, 12)}"


@L
def lk_meter_id(r):
    return f"meter {rs(r, UPD, 3)}-{r.randint(1000, 9999)} heartbeat serial={rs(r, UPD + '-', 14)} battery={r.randint(10, 100)}%"


@L
def lk_elavon_txn(r):
    return (
        f"ssl_txn_id={rs(r, UPD, 6)}-{uuid4(r).upper()} ssl_result_message=APPROVAL ssl_amount={r.randint(5, 300)}.00"
    )


@L
def lk_paymentus_confirm(r):
    return f"Paymentus confirmation #{r.randint(10**9, 10**10)} for account {r.randint(10**6, 10**7)} (permit renewal)"


@L
def lk_pw_policy(r):
    return f"Password policy reminder ({ticket(r)}): at least {r.randint(12, 16)} chars, e.g. a passphrase like 'correct horse battery staple'. Never reuse the example."


@L
def lk_key_id(r):
    return f"Login.gov cert kid={rs(r, HEX, 40)}; private key stays in Vault at transit/keys/logingov-{r.randint(1, 9)}"


@L
def lk_sha_in_ci(r):
    return f"Run actions/checkout@{rs(r, HEX, 40)}\n  with:\n    ref: {rs(r, HEX, 40)}"


@L
def lk_base64_json(r):
    ctx = '{"ward": ' + str(r.randint(1, 15)) + ', "source": "311"}'
    return f"X-Amz-Meta-Context: {base64.b64encode(ctx.encode()).decode()}"


@L
def lk_uuid_named_id(r):
    return f"Granicus subscriber list id {uuid4(r)} (topic: {r.choice(['snow-emergency', 'council-agendas', 'road-closures'])})"


@L
def lk_ghe_app_id(r):
    return f"GitHub App id {r.randint(10000, 999999)}, installation id {r.randint(10**7, 10**8)}, client id Iv1.{rs(r, HEX, 16)}"


def _lookalikes(r: random.Random, seen: set) -> list:
    out = []
    for fn in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 500:
                raise RuntimeError(f"{fn.__name__} cannot make {LOOK_PER_GEN} distinct texts")
            t = fn(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(f"secret-samples-ah:{seed}")
    seen: set = set()
    positives = _positives(r, seen)
    lookalikes = _lookalikes(r, seen)
    return positives, lookalikes
