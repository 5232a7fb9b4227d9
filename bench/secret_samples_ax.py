"""Secret-detector test set AX: memories of a regional credit union's IT and digital-banking team.

Theme
    Notes, lessons, runbooks, TODOs, handovers, tickets, e-mails and chat (mostly English, some Spanish,
    Tagalog, Polish, Korean, Portuguese), config (.env, JSON, YAML, INI, PowerShell, Python settings,
    Terraform, Splunk, Jenkins) and tool output (CLI, PowerShell, sftp, gpg, curl -v, service/CI logs,
    database consoles) that an AI coding agent could save as "memories" while working for a small credit
    union team: core banking (Symitar / Jack Henry SFTP), Alkami and Q2, FIS, Alloy, Socure, ACH/Fedwire
    GPG, Plaid, MX, loan origination, DocuSign, Salesforce FSC, AD / Entra ID, CyberArk, KnowBe4, Splunk,
    Palo Alto, branch Wi-Fi, Veeam, and the web team's WordPress, CI and AWS.

Contract
    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
    positives: list of (text, kind, secret); secret is an exact substring of text, one secret per text,
    30 texts per kind. lookalikes: texts with no credential; len == len(_LOOK) * LOOK_PER_GEN.
    Deterministic per seed (random.Random only); no duplicate texts across the whole output.

Labelling conventions
    * Webhook URLs: the final path token is the secret. Connection strings and basic-auth URLs: the
      password only. Pre-signed URLs: the signature. PEM / OpenSSH / PGP private keys: the whole armoured
      block, BEGIN line to END line. UUID-shaped vendor tokens are secrets only when named token/key/secret.
    * Public-by-design values (publishable keys, site keys, Sentry DSNs, OAuth client ids, Firebase web
      apiKeys, search-only keys, public certificates / public keys), vendor documentation example values,
      encrypted blobs (Ansible vault, sops ENC[...], DPAPI, Jenkins {AQAAAB...}) and password hashes are
      look-alikes. Bare AWS access key ids are left out entirely. Raw HSM / zone master key components are
      out of scope.
    * No token-shaped literal appears in this source: prefixes and bodies are assembled at run time.
"""

from __future__ import annotations

import base64
import json
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

LO = string.ascii_lowercase
UP = string.ascii_uppercase
DG = string.digits
AN = LO + UP + DG
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = AN + "+/"
B64U = AN + "-_"


def rs(r: random.Random, alph: str, n: int) -> str:
    return "".join(r.choice(alph) for _ in range(n))


def uid(r: random.Random) -> str:
    h = rs(r, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


# ---------------------------------------------------------------- passwords

WORDS = [
    "tulip",
    "rover",
    "maple",
    "harbor",
    "copper",
    "falcon",
    "orchid",
    "granite",
    "willow",
    "cobalt",
    "lantern",
    "summit",
    "pepper",
    "meadow",
    "ember",
    "glacier",
    "walrus",
    "juniper",
    "saffron",
    "quartz",
    "biscuit",
    "canyon",
    "marlin",
    "velvet",
    "thunder",
    "pelican",
    "nutmeg",
    "prairie",
    "tornado",
    "violet",
    "anchor",
    "beacon",
]
SEAS = ["Summer", "Winter", "Spring", "Autumn", "Fall", "Verano", "Lato", "Tag-init"]
SYM = "!#%*-_.+=?$"


def pw_human(r: random.Random) -> str:
    c = r.randrange(4)
    if c == 0:
        return (
            f"{r.choice(SEAS)}{r.randint(2019, 2027)}{r.choice('!#$*?')}{r.randint(0, 99) if r.random() < 0.4 else ''}"
        )
    if c == 1:
        return f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    if c == 2:
        w = r.choice(WORDS).capitalize()
        return f"{w}{r.choice(SYM)}{r.randint(100, 9999)}{r.choice(WORDS)}"
    return "CU" + r.choice(["branch", "core", "vault", "teller"]) + f"#{r.randint(1000, 9999)}{r.choice(UP)}"


def pw_gen(r: random.Random) -> str:
    n = r.randint(16, 28)
    while True:
        s = rs(r, AN + "!#%*-_.+=?", n)
        if any(ch in DG for ch in s) and any(ch in "!#%*-_.+=?" for ch in s):
            return s


def pw_phrase(r: random.Random) -> str:
    sep = r.choice(["-", ".", "_", " "])
    ws = [r.choice(WORDS) for _ in range(r.randint(4, 5))]
    if sep == " ":
        ws[0] = ws[0].capitalize()
    return sep.join(ws) + (str(r.randint(1, 99)) if r.random() < 0.5 else "")


def pw_any(r: random.Random) -> str:
    return r.choice([pw_human, pw_gen, pw_phrase, pw_gen])(r)


def pw_nospace(r: random.Random) -> str:
    while True:
        p = pw_any(r)
        if " " not in p:
            return p


# ---------------------------------------------------------------- token generators


def pem_body(r: random.Random, lines: int) -> str:
    out = [rs(r, B64, 64) for _ in range(lines)]
    out.append(rs(r, B64, r.randint(8, 60)) + r.choice(["", "=", "=="]))
    return "\n".join(out)


def pem_key(r: random.Random, label: str, lines: int) -> str:
    dash = "-" * 5
    head = f"{dash}BEGIN {label}PRIVATE" + f" KEY{dash}"
    tail = f"{dash}END {label}PRIVATE" + f" KEY{dash}"
    return f"{head}\n{pem_body(r, lines)}\n{tail}"


def g_rsa(r):
    return pem_key(r, r.choice(["RSA ", ""]), r.randint(8, 14))


def g_ec(r):
    return pem_key(r, "EC ", 3)


def g_openssh(r):
    dash = "-" * 5
    magic = base64.b64encode(
        b"openssh-key-v1\x00\x00\x00\x00\x04none" + bytes(r.randrange(256) for _ in range(40))
    ).decode()
    body = magic + rs(r, B64, 64 * r.randint(4, 7) - len(magic) % 64)
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    return (
        f"{dash}BEGIN OPENSSH PRIVATE"
        + f" KEY{dash}\n"
        + "\n".join(lines)
        + f"\n{dash}END OPENSSH PRIVATE"
        + f" KEY{dash}"
    )


def g_pgp(r):
    dash = "-" * 5
    body = "lQ" + rs(r, B64, 62) + "\n" + pem_body(r, r.randint(10, 16))
    return (
        f"{dash}BEGIN PGP PRIVATE"
        + f" KEY BLOCK{dash}\n\n"
        + body
        + "\n="
        + rs(r, B64, 4)
        + f"\n{dash}END PGP PRIVATE"
        + f" KEY BLOCK{dash}"
    )


def g_jwt(r, iss="https://training.knowbe4.com"):
    head = b64u(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64u(
        json.dumps(
            {
                "sub": r.randint(10000, 99999),
                "iss": iss,
                "iat": 1700000000 + r.randrange(9 * 10**7),
            }
        ).encode()
    )
    return f"{head}.{body}.{rs(r, B64U, 43)}"


def g_entra(r):
    return rs(r, AN, 3) + "8Q" + "~" + rs(r, AN + "~_.-", 34)


def g_sf_refresh(r):
    return "5Ae" + "p861" + rs(r, AN + "._", 83)


def g_aws_secret(r):
    return rs(r, B64, 40)


def g_azure_key(r):
    return rs(r, B64, 86) + "=="


def g_wp_app(r):
    return " ".join(rs(r, AN, 4) for _ in range(6))


def g_wp_salt(r):
    return rs(r, AN + "!#$%&()*+,-.:;<=>?@[]^_`|~", 64)


def g_tfc(r):
    return rs(r, AN, 14) + ".atlas" + "v1." + rs(r, AN, 67)


def g_hvs(r):
    return "hv" + "s." + rs(r, AN + "_-", 92)


def g_pypi(r):
    return "pypi" + "-" + base64.b64encode(b"\x02\x01\x08pypi.org").decode().rstrip("=") + rs(r, B64U, 120)


def g_anthropic(r):
    return "sk-" + "ant-" + "api03-" + rs(r, B64U, 93) + "AA"


def g_openai(r):
    return "sk-" + "proj-" + rs(r, B64U, 74) + "T3" + "Blbk" + "FJ" + rs(r, B64U, 74)


def g_pan(r):
    return "LUF" + "RPT" + rs(r, B64, r.randint(60, 90)) + "=="


def g_jenkins(r):
    return "11" + rs(r, HEX, 32)


def g_sfsecret(r):
    return rs(r, HEXU, 64)


def g_sg(r):
    return "S" + "G." + rs(r, B64U, 22) + "." + rs(r, B64U, 43)


def g_mailgun(r):
    return "ke" + "y-" + rs(r, HEX, 32)


def g_okta(r):
    return "00" + rs(r, AN + "-_", 40)


def g_wifi(r):
    return r.choice([pw_phrase, pw_human, lambda q: rs(q, AN, 20)])(r)


def g_snmp(r):
    return r.choice(["cu", "br", "mon"]) + rs(r, AN, r.randint(10, 16))


# (kind, label, env var, style, generator, snippet(r, secret) or None)
# style: tok | pw | url | block


def sn_pg(r, s):
    return f"postgresql://{r.choice(['los_app', 'lending', 'meridian_svc'])}:{s}@los-db{r.randint(1, 3)}.cu.internal:5432/{r.choice(['los', 'lending_prod'])}"


def sn_mysql(r, s):
    return f"mysql://wp_{rs(r, LO, 4)}:{s}@web-db.{r.choice(['cu.internal', 'rds.amazonaws.com'])}:3306/wordpress"


def sn_mssql(r, s):
    return f"Server=tcp:sql{r.randint(1, 9)}.cu.local,1433;Database={r.choice(['Lending', 'LOS_Prod', 'Collections'])};User Id=svc_los;Password={s};Encrypt=True;"


def sn_redis(r, s):
    return f"redis://:{s}@redis-{r.randint(1, 4)}.web.cu.internal:6379/0"


def sn_basic(r, s):
    return f"https://{r.choice(['svc_batch', 'jhapi', 'rptuser'])}:{s}@{r.choice(['reports', 'nexus', 'artifacts'])}.cu-{rs(r, LO, 3)}.org/{rs(r, LO, 5)}"


def sn_azure(r, s):
    return f"DefaultEndpointsProtocol=https;AccountName=cu{rs(r, LO + DG, 8)};AccountKey={s};EndpointSuffix=core.windows.net"


def sn_slack(r, s):
    return "https://hooks.slack" + f".com/services/T{rs(r, UP + DG, 10)}/B{rs(r, UP + DG, 10)}/{s}"


def sn_teams(r, s):
    return f"https://cuorg.webhook.office.com/webhookb2/{uid(r)}@{uid(r)}/IncomingWebhook/{rs(r, HEX, 32)}/{uid(r)}/{s}"


def sn_presign(r, s):
    return (
        f"https://cu-statements-{rs(r, LO, 4)}.s3.us-east-1.amazonaws.com/estmt/{r.randint(10**6, 10**7)}.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Date=2026{r.randint(10, 12)}{r.randint(10, 28)}T{r.randint(10, 23)}0000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature={s}"
    )


def sn_sas(r, s):
    return f"https://cubackup{rs(r, LO, 4)}.blob.core.windows.net/veeam?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2027-01-31T00:00:00Z&spr=https&sig={s}"


def sas_sig(r):
    return rs(r, AN, 40) + "%2B" + rs(r, AN, 5) + "%3D"


KINDS = [
    (
        "symitar_sftp_password",
        "Symitar SFTP password",
        "SYMITAR_SFTP_PASSWORD",
        "pw",
        pw_any,
        None,
    ),
    (
        "jack_henry_api_client_secret",
        "Jack Henry jXchange client secret",
        "JH_CLIENT_SECRET",
        "tok",
        lambda r: rs(r, AN, 40),
        None,
    ),
    (
        "alkami_client_secret",
        "Alkami client secret",
        "ALKAMI_CLIENT_SECRET",
        "tok",
        lambda r: rs(r, B64U, 48),
        None,
    ),
    (
        "q2_client_secret",
        "Q2 API client secret",
        "Q2_CLIENT_SECRET",
        "tok",
        lambda r: rs(r, AN, 32),
        None,
    ),
    (
        "fis_api_key",
        "FIS Code Connect API key",
        "FIS_API_KEY",
        "tok",
        lambda r: rs(r, AN, 32),
        None,
    ),
    (
        "alloy_api_secret",
        "Alloy workflow secret",
        "ALLOY_WORKFLOW_SECRET",
        "tok",
        lambda r: rs(r, AN, 32),
        None,
    ),
    ("socure_api_key", "Socure SDK key", "SOCURE_API_KEY", "tok", uid, None),
    (
        "ach_gpg_passphrase",
        "ACH signing key passphrase",
        "ACH_GPG_PASSPHRASE",
        "pw",
        pw_phrase,
        None,
    ),
    ("pgp_private_key", "Fedwire PGP private key", "FED_PGP_KEY", "block", g_pgp, None),
    (
        "plaid_secret",
        "Plaid production secret",
        "PLAID_SECRET",
        "tok",
        lambda r: rs(r, HEX, 30),
        None,
    ),
    (
        "mx_api_key",
        "MX Platform API key",
        "MX_API_KEY",
        "tok",
        lambda r: rs(r, HEX, 40),
        None,
    ),
    (
        "los_mssql_password",
        "LOS DB connection string",
        "LOS_DB_CONNECTION",
        "url",
        pw_nospace,
        sn_mssql,
    ),
    (
        "rsa_private_key",
        "DocuSign JWT private key",
        "DOCUSIGN_PRIVATE_KEY",
        "block",
        g_rsa,
        None,
    ),
    (
        "docusign_secret_key",
        "DocuSign secret key",
        "DOCUSIGN_SECRET_KEY",
        "tok",
        uid,
        None,
    ),
    (
        "salesforce_consumer_secret",
        "Salesforce connected app consumer secret",
        "SF_CONSUMER_SECRET",
        "tok",
        g_sfsecret,
        None,
    ),
    (
        "salesforce_refresh_token",
        "Salesforce FSC refresh token",
        "SF_REFRESH_TOKEN",
        "tok",
        g_sf_refresh,
        None,
    ),
    (
        "ad_service_account_password",
        "svc_symxchange AD password",
        "AD_SVC_PASSWORD",
        "pw",
        pw_any,
        None,
    ),
    (
        "entra_client_secret",
        "Entra ID app client secret",
        "AZURE_CLIENT_SECRET",
        "tok",
        g_entra,
        None,
    ),
    (
        "cyberark_password",
        "CyberArk API user password",
        "CYBERARK_PASSWORD",
        "pw",
        pw_any,
        None,
    ),
    (
        "knowbe4_api_token",
        "KnowBe4 reporting API token",
        "KNOWBE4_API_TOKEN",
        "tok",
        g_jwt,
        None,
    ),
    (
        "splunk_hec_token",
        "Splunk HEC token",
        "SPLUNK_HEC_TOKEN",
        "tok",
        lambda r: uid(r).upper(),
        None,
    ),
    ("palo_alto_api_key", "Palo Alto XML API key", "PANOS_API_KEY", "tok", g_pan, None),
    ("wifi_psk", "branch Wi-Fi WPA2 key", "BRANCH_WIFI_PSK", "pw", g_wifi, None),
    (
        "radius_shared_secret",
        "RADIUS shared secret",
        "RADIUS_SECRET",
        "pw",
        lambda r: rs(r, AN + "!#%*", 24),
        None,
    ),
    (
        "veeam_password",
        "Veeam B&R service password",
        "VEEAM_PASSWORD",
        "pw",
        pw_any,
        None,
    ),
    (
        "wordpress_db_password",
        "WordPress DB password",
        "WORDPRESS_DB_PASSWORD",
        "pw",
        pw_nospace,
        None,
    ),
    (
        "wordpress_auth_key",
        "WordPress AUTH_KEY salt",
        "WP_AUTH_KEY",
        "tok",
        g_wp_salt,
        None,
    ),
    (
        "wordpress_application_password",
        "WordPress application password",
        "WP_APP_PASSWORD",
        "pw",
        g_wp_app,
        None,
    ),
    (
        "aws_secret_access_key",
        "AWS secret access key",
        "AWS_SECRET_ACCESS_KEY",
        "tok",
        g_aws_secret,
        None,
    ),
    (
        "github_pat",
        "GitHub personal access token",
        "GITHUB_TOKEN",
        "tok",
        lambda r: "gh" + "p_" + rs(r, AN, 36),
        None,
    ),
    (
        "github_fine_grained_pat",
        "GitHub fine-grained token",
        "GH_TOKEN",
        "tok",
        lambda r: "github" + "_pat_" + rs(r, AN, 22) + "_" + rs(r, AN, 59),
        None,
    ),
    (
        "gitlab_pat",
        "GitLab token",
        "GITLAB_TOKEN",
        "tok",
        lambda r: "glp" + "at-" + rs(r, AN + "-_", 20),
        None,
    ),
    (
        "jenkins_api_token",
        "Jenkins API token",
        "JENKINS_API_TOKEN",
        "tok",
        g_jenkins,
        None,
    ),
    (
        "slack_webhook",
        "Slack webhook for #core-alerts",
        "SLACK_WEBHOOK_URL",
        "url",
        lambda r: rs(r, AN, 24),
        sn_slack,
    ),
    (
        "teams_webhook",
        "Teams webhook for the fraud channel",
        "TEAMS_WEBHOOK_URL",
        "url",
        lambda r: rs(r, AN + "-_", 43),
        sn_teams,
    ),
    (
        "slack_bot_token",
        "Slack bot token",
        "SLACK_BOT_TOKEN",
        "tok",
        lambda r: "xox" + "b-" + f"{r.randint(10**10, 10**12)}-{r.randint(10**12, 10**13)}-" + rs(r, AN, 24),
        None,
    ),
    (
        "twilio_auth_token",
        "Twilio auth token (SMS OTP)",
        "TWILIO_AUTH_TOKEN",
        "tok",
        lambda r: rs(r, HEX, 32),
        None,
    ),
    ("sendgrid_api_key", "SendGrid API key", "SENDGRID_API_KEY", "tok", g_sg, None),
    (
        "postgres_password",
        "LOS Postgres URL",
        "LOS_DATABASE_URL",
        "url",
        pw_nospace,
        sn_pg,
    ),
    (
        "mysql_password",
        "WordPress MySQL URL",
        "WP_DATABASE_URL",
        "url",
        lambda r: rs(r, AN + "-_.", 20),
        sn_mysql,
    ),
    (
        "redis_password",
        "Redis URL",
        "REDIS_URL",
        "url",
        lambda r: rs(r, AN, 32),
        sn_redis,
    ),
    (
        "basic_auth_url_password",
        "report server URL",
        "REPORTS_URL",
        "url",
        pw_nospace,
        sn_basic,
    ),
    ("smtp_password", "SMTP relay password", "SMTP_PASSWORD", "pw", pw_any, None),
    (
        "ldap_bind_password",
        "LDAP bind password",
        "LDAP_BIND_PASSWORD",
        "pw",
        pw_any,
        None,
    ),
    (
        "openssh_private_key",
        "SFTP deploy key",
        "SFTP_PRIVATE_KEY",
        "block",
        g_openssh,
        None,
    ),
    ("ec_private_key", "Apple Pay EC private key", "APPLEPAY_KEY", "block", g_ec, None),
    (
        "npm_token",
        "npm token",
        "NPM_TOKEN",
        "tok",
        lambda r: "np" + "m_" + rs(r, AN, 36),
        None,
    ),
    (
        "docker_hub_pat",
        "Docker Hub access token",
        "DOCKERHUB_TOKEN",
        "tok",
        lambda r: "dckr" + "_pat_" + rs(r, AN + "-_", 27),
        None,
    ),
    (
        "datadog_api_key",
        "Datadog API key",
        "DD_API_KEY",
        "tok",
        lambda r: rs(r, HEX, 32),
        None,
    ),
    ("okta_api_token", "Okta API token", "OKTA_API_TOKEN", "tok", g_okta, None),
    (
        "jwt_signing_secret",
        "JWT signing secret",
        "JWT_SECRET",
        "tok",
        lambda r: rs(r, B64U, 48),
        None,
    ),
    (
        "django_secret_key",
        "Django SECRET_KEY",
        "DJANGO_SECRET_KEY",
        "tok",
        lambda r: (
            "django-" + "insecure-" + rs(r, LO + DG + "!@#$%^&*(-_=+)", 50)
            if r.random() < 0.3
            else rs(r, LO + DG + "!@#$%^&*(-_=+)", 50)
        ),
        None,
    ),
    (
        "azure_storage_account_key",
        "Veeam offsite storage connection string",
        "AZURE_STORAGE_CONNECTION_STRING",
        "url",
        g_azure_key,
        sn_azure,
    ),
    (
        "aws_presigned_url_signature",
        "pre-signed eStatement link",
        "ESTMT_URL",
        "url",
        lambda r: rs(r, HEX, 64),
        sn_presign,
    ),
    ("azure_sas_signature", "Veeam SAS URL", "VEEAM_SAS_URL", "url", sas_sig, sn_sas),
    (
        "terraform_cloud_token",
        "Terraform Cloud token",
        "TF_TOKEN_app_terraform_io",
        "tok",
        g_tfc,
        None,
    ),
    ("vault_token", "Vault token", "VAULT_TOKEN", "tok", g_hvs, None),
    (
        "snmp_community",
        "Palo Alto SNMP community",
        "SNMP_COMMUNITY",
        "pw",
        g_snmp,
        None,
    ),
    ("openai_api_key", "OpenAI API key", "OPENAI_API_KEY", "tok", g_openai, None),
    (
        "anthropic_api_key",
        "Anthropic API key",
        "ANTHROPIC_API_KEY",
        "tok",
        g_anthropic,
        None,
    ),
    (
        "bitbucket_app_password",
        "Bitbucket app password",
        "BITBUCKET_APP_PASSWORD",
        "tok",
        lambda r: "AT" + "BB" + rs(r, AN, 32),
        None,
    ),
    ("pypi_token", "PyPI upload token", "PYPI_TOKEN", "tok", g_pypi, None),
    ("mailgun_api_key", "Mailgun API key", "MAILGUN_API_KEY", "tok", g_mailgun, None),
    (
        "cloudflare_api_token",
        "Cloudflare API token",
        "CLOUDFLARE_API_TOKEN",
        "tok",
        lambda r: rs(r, AN + "-_", 40),
        None,
    ),
    (
        "local_admin_password",
        "LAPS-exempt local admin password",
        "BRANCH_ADMIN_PW",
        "pw",
        pw_human,
        None,
    ),
    ("sql_sa_password", "SQL sa password", "MSSQL_SA_PASSWORD", "pw", pw_gen, None),
]

# ---------------------------------------------------------------- templates
# fields: {L} label, {E} env var, {S} snippet, {H} host, {U} user, {D} date, {T} ticket, {P} person

NOTE_T = [
    "Note {D}: {L} for prod is {S} (rotated after the {T} incident). Don't paste it in the Teams chat again.",
    "Lesson learned: the nightly job failed because {E} still had the old value. New one: {S}",
    "TODO ({P}): move {L} into CyberArk. Current value {S} lives in a sticky note in the server room, seriously.",
    "Handover to {P}:\n- host {H}\n- user {U}\n- {L}: {S}\n- escalation: core vendor hotline",
    "Ticket {T}: user reports failure on {H}. Fixed by resetting {L} to {S}. Closing.",
    "From: {P}@cu-example.org\nSubject: creds for the migration\n\nHi team, the {L} is {S} - please do not forward this mail.",
    "[{D} 09:{M}] {P}: can someone send me the {L}?\n[{D} 09:{M2}] {U}: {S}\n[{D} 09:{M2}] {P}: thx",
    "Runbook - restart after patch Tuesday\n1. RDP to {H}\n2. Log in as {U}\n3. {L} is {S}\n4. Start the services in order",
    "decision: keep {E} in the Jenkins folder creds for now; value is {S}. Revisit in Q1.",
    "Nota {D}: la {L} del entorno de producción es {S}. No compartir con el proveedor.",
    "Paalala: ang {L} para sa {H} ay {S} - huwag i-share sa labas ng IT.",
    "Notatka: {L} na serwerze {H} to {S}. Zmienić po audycie NCUA.",
    "메모: {H} 의 {L} 는 {S} 입니다. 외부 공유 금지.",
    "Anotação {D}: a {L} do {H} é {S} (trocar depois da auditoria).",
    "remember: when the vendor asks, {L} = {S}",
    "incident {T} postmortem: {L} ({S}) was found in a public gist; rotated same day.",
]
CONF_T = [
    "# .env.production\nNODE_ENV=production\n{E}={S}\nLOG_LEVEL=info",
    '{{\n  "environment": "prod",\n  "host": "{H}",\n  "{e}": "{S}"\n}}',
    'prod:\n  host: {H}\n  user: {U}\n  {e}: "{S}"\n  timeout: 30',
    "[{sec}]\nhost = {H}\nusername = {U}\n{e} = {S}",
    '$env:{E} = "{S}"\n$env:CU_HOST = "{H}"\n& .\\Sync-CoreFiles.ps1 -Verbose',
    '# settings/prod.py\nDEBUG = False\nALLOWED_HOSTS = ["{H}"]\n{E} = "{S}"',
    'variable "{e}" {{\n  type    = string\n  default = "{S}"\n}}',
    "export {E}='{S}'",
]
OUT_T = [
    "$ env | grep -i {e2}\n{E}={S}\n$ ./run_export.sh --dry-run\nok",
    "PS C:\\ops> Get-ChildItem Env:{E}\n\nName                           Value\n----                           -----\n{E}  {S}",
    "{D}T03:{M}:11Z INFO  loader  config loaded from /etc/cu/app.env ({E}={S})",
    "[Pipeline] sh\n+ ./scripts/sync.sh\ndebug: {E}={S}\n[Pipeline] }}",
    "mysql> SELECT name, value FROM app_settings WHERE name='{e}';\n+------+-------+\n| {e} | {S} |\n+------+-------+\n1 row in set (0.00 sec)",
    "2026-11-{DD} 02:{M}:07,118 DEBUG [worker-{n}] {H} starting with settings {{'{e}': '{S}'}}",
]
TOK_T = [
    "$ curl -v https://api.{H}/v1/health -H 'Authorization: Bearer {S}'\n> GET /v1/health HTTP/1.1\n> Host: api.{H}\n< HTTP/1.1 200 OK",
    "requests.post(url, headers={{'X-Api-Key': '{S}'}}, json=payload)  # {L}, works from {H}",
    "> POST /api/v2/evaluations HTTP/1.1\n> Host: {H}\n> Authorization: Bearer {S}\n> Content-Type: application/json\n< HTTP/1.1 201 Created",
]
PW_T = [
    "$ sftp {U}@{H}\n{U}@{H}'s password: \nConnected to {H}.\nsftp> # (pw was {S})",
    "PS> $cred = New-Object PSCredential('CU\\{U}', (ConvertTo-SecureString '{S}' -AsPlainText -Force))\nPS> Invoke-Command -ComputerName {H} -Credential $cred {{ Restart-Service SymXchange }}",
    "$ mysql -h {H} -u {U} -p'{S}' -e 'show databases'",
    "net use \\\\{H}\\ach$ /user:CU\\{U} {S}",
]
URL_T = [
    "$ curl -sS -X POST -H 'Content-type: application/json' --data '{{\"text\":\"batch done\"}}' '{S}'\nok",
    "{E}={S}",
    'conn = connect("{S}")  # {L} from {P}',
]
BLOCK_T = [
    "Saved the {L} here so we stop losing it ({T}):\n\n{S}\n",
    "$ cat /etc/cu/keys/{f}\n{S}\n$ chmod 600 /etc/cu/keys/{f}",
    "Handover ({P}): the {L} below is the only copy outside the HSM room safe.\n{S}",
    "Ticket {T} - vendor needed the key re-sent. Attached:\n{S}\n-- {P}",
    "Nota: clave de {L} (no subir al repo)\n{S}",
]
KIND_T = {
    "symitar_sftp_password": [
        "$ sftp -oPort=22 {U}@symitar-{n}.cu.local\nPassword: {S}\nsftp> cd /SYM/SYM000/LETTERSPECS\nsftp> get ACH.IN",
        "Symitar PowerOn file pickup: sftp user {U}, password {S}, dir /SYM/SYM000/BATCH",
    ],
    "ach_gpg_passphrase": [
        "$ gpg --batch --pinentry-mode loopback --passphrase '{S}' -o ach_{n}.txt -d ach_{n}.txt.gpg\ngpg: encrypted with rsa4096 key, ID {kid}, created 2024-03-02\n      \"CU ACH Ops <achops@cu-example.org>\"",
        "ACH origination: Fed file is signed with the ops key; passphrase {S} (ask {P} before changing).",
    ],
    "splunk_hec_token": [
        '$ curl -k https://{H}:8088/services/collector/event -H \'Authorization: Splunk {S}\' -d \'{{"event":"atm heartbeat"}}\'\n{{"text":"Success","code":0}}',
        "[http://atm_logs]\ndisabled = 0\nindex = atm\ntoken = {S}",
    ],
    "palo_alto_api_key": [
        "$ curl -k 'https://{H}/api/?type=op&cmd=<show><system><info/></system></show>&key={S}'",
    ],
    "plaid_secret": [
        '{{"client_id": "{cid}", "secret": "{S}", "access_token": "<item token>"}}',
    ],
    "wifi_psk": [
        "Branch {n} guest Wi-Fi: SSID CU-Members, WPA2 key {S} (changes quarterly)",
        'config system wireless\n  set ssid "CU-Staff-{n}"\n  set passphrase "{S}"\nend',
    ],
    "jenkins_api_token": [
        "$ curl -u {U}:{S} https://jenkins.cu.internal/job/wp-deploy/build\n< HTTP/1.1 201 Created",
    ],
    "aws_secret_access_key": [
        "[default]\naws_access_key_id = <see vault>\naws_secret_access_key = {S}\nregion = us-east-1",
    ],
    "wordpress_db_password": [
        "define( 'DB_NAME', 'cu_wp' );\ndefine( 'DB_USER', '{U}' );\ndefine( 'DB_PASSWORD', '{S}' );\ndefine( 'DB_HOST', '{H}' );",
    ],
    "wordpress_auth_key": ["define( 'AUTH_KEY',         '{S}' );"],
    "entra_client_secret": [
        "PS> Connect-MgGraph -TenantId {cid} -ClientSecretCredential (New-Object PSCredential('{cid2}', (ConvertTo-SecureString '{S}' -AsPlainText -Force)))",
    ],
}

HOSTS = [
    "symxc01.cu.local",
    "alkami-gw.cu.internal",
    "los-app02",
    "sftp.cu-example.org",
    "dc01.cu.local",
    "pa-3220-hq",
    "veeam-br01",
    "splunk-hf01",
    "q2-bridge",
    "jenkins.cu.internal",
]
USERS = [
    "svc_symxchange",
    "achops",
    "svc_veeam",
    "wpadmin",
    "jhsftp",
    "svc_splunk",
    "ccortez",
    "mdelacruz",
    "jkowalski",
    "svc_los",
]
PEOPLE = [
    "Maria",
    "Jun",
    "Kasia",
    "Minji",
    "Rafael",
    "Dana",
    "Tom",
    "Alejandro",
    "Liza",
    "Piotr",
]
SECTIONS = ["core", "sftp", "vendor", "prod", "credentials", "auth"]


def _fields(r: random.Random, k) -> dict:
    kind, label, env = k[0], k[1], k[2]
    return {
        "L": label,
        "E": env,
        "e": env.lower(),
        "e2": env.split("_")[0].lower(),
        "H": r.choice(HOSTS),
        "U": r.choice(USERS),
        "P": r.choice(PEOPLE),
        "D": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "DD": f"{r.randint(1, 28):02d}",
        "M": f"{r.randint(0, 59):02d}",
        "M2": f"{r.randint(0, 59):02d}",
        "T": f"{r.choice(['INC', 'CHG', 'SR', 'IT'])}-{r.randint(1000, 99999)}",
        "n": str(r.randint(1, 40)),
        "sec": r.choice(SECTIONS),
        "f": kind.replace("_", "-") + r.choice([".pem", ".key", ".asc"]),
        "kid": rs(r, HEXU, 16),
        "cid": uid(r) if kind != "plaid_secret" else rs(r, HEX, 24),
        "cid2": uid(r),
    }


def _positive(r: random.Random, k) -> tuple[str, str]:
    kind, _label, _env, style, gen, snip = k
    secret = gen(r)
    s = snip(r, secret) if snip else secret
    f = _fields(r, k)
    f["S"] = s
    if style == "block":
        t = r.choice(BLOCK_T + KIND_T.get(kind, []))
        return t.format(**f), secret
    extra = {"tok": TOK_T, "pw": PW_T, "url": URL_T}[style]
    x = r.random()
    if x < 0.2 and kind in KIND_T:
        t = r.choice(KIND_T[kind])
    elif x < 0.55:
        t = r.choice(NOTE_T)
    elif x < 0.75:
        t = r.choice(CONF_T)
    elif x < 0.9:
        t = r.choice(OUT_T)
    else:
        t = r.choice(extra)
    return t.format(**f), secret


# ---------------------------------------------------------------- look-alikes


def _c(r, *opts):
    return r.choice(opts)


def lk_commit(r):
    return f"Deployed wp-theme at commit {rs(r, HEX, 40)} to prod ({_c(r, 'ok', 'rolled back', 'pending smoke test')})."


def lk_sha256sum(r):
    return f"$ sha256sum ACH_{r.randint(10**5, 10**6)}.txt\n{rs(r, HEX, 64)}  ACH_{r.randint(10**5, 10**6)}.txt"


def lk_md5(r):
    return f"Veeam ISO md5 {rs(r, HEX, 32)} matches vendor page, build 12.{r.randint(0, 3)}.{r.randint(0, 9)}.{r.randint(100, 999)}"


def lk_reqid(r):
    return f"{r.randint(10, 23)}:{r.randint(10, 59)}:02 WARN alkami-gw upstream 504 request_id={uid(r)} trace={rs(r, HEX, 32)}"


def lk_png(r):
    return f'<img alt="logo" src="data:image/png;base64,iVBORw0KGgo{rs(r, B64, 120)}=">'


def lk_hf(r):
    return f"Using {_c(r, 'sentence-transformers/all-MiniLM-L6-v2', 'BAAI/bge-small-en-v1.5', 'intfloat/e5-base-v2')} revision {rs(r, HEX, 40)} for the member FAQ search."


def lk_wandb(r):
    return f"fraud-model run {rs(r, LO + DG, 8)} finished, AUC 0.9{r.randint(10, 99)}; see project cu-fraud/{rs(r, LO + DG, 8)}"


def lk_plaid_cid(r):
    return (
        f"PLAID_CLIENT_ID={rs(r, HEX, 24)}\nPLAID_SECRET=${{PLAID_SECRET}}\nPLAID_ENV={_c(r, 'production', 'sandbox')}"
    )


def lk_env_example(r):
    v = _c(
        r,
        "<your-secret>",
        "<alloy-workflow-secret>",
        "changeme",
        "xxxxxxxx",
        "REPLACE_ME",
        "",
    )
    return f"# .env.example - copy to .env\nALLOY_WORKFLOW_TOKEN={rs(r, LO, 4)}-token-name\nALLOY_WORKFLOW_SECRET={v}\nALLOY_BASE_URL=https://sandbox.alloy.co/v1/{rs(r, LO, 5)}"


def lk_dollar(r):
    return f"q2:\n  client_id: {rs(r, LO, 6)}-client\n  client_secret: ${{Q2_CLIENT_SECRET}}\n  token_url: https://q2-bridge.cu.internal/oauth/{rs(r, LO, 4)}"


def lk_gha(r):
    return f"      - name: Deploy\n        env:\n          AWS_SECRET_ACCESS_KEY: ${{{{ secrets.AWS_SECRET_ACCESS_KEY }}}}\n          WP_HOST: {rs(r, LO, 6)}.cu-example.org\n        run: ./deploy.sh {r.randint(1, 999)}"


def lk_airflow(r):
    return f'sftp_pw = Variable.get("symitar_sftp_password")  # task {rs(r, LO, 6)}_{r.randint(1, 99)}'


def lk_dbutils(r):
    return f'mx_key = dbutils.secrets.get(scope="{_c(r, "cu-prod", "aggregation", "kv-cu")}", key="mx-api-key-{r.randint(1, 99)}")'


def lk_vault_path(r):
    return f"$ vault kv get -field=password secret/cu/{_c(r, 'symitar', 'veeam', 'fis', 'cyberark')}/{rs(r, LO, 5)}\n(ran from the jump box, value piped straight into the job)"


def lk_ansible_vault(r):
    lines = "\n".join(rs(r, HEX, 80) for _ in range(r.randint(3, 6)))
    return "ldap_bind_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(
        "  " + ln for ln in lines.splitlines()
    )


def lk_sops(r):
    return f"cyberark_password: ENC[AES256_GCM,data:{rs(r, B64, 24)}=,iv:{rs(r, B64, 43)}=,tag:{rs(r, B64, 22)}==,type:str]"


def lk_bcrypt(r):
    return f"wp_users row {r.randint(1, 500)}: user_pass = $2y$10${rs(r, AN + './', 53)}"


def lk_argon2(r):
    return f"member_portal.users.password_hash = $argon2id$v=19$m=65536,t=3,p=4${rs(r, B64, 22)}${rs(r, B64, 43)}"


def lk_ssh_fp(r):
    return f"The authenticity of host 'sftp.jackhenry.example ({r.randint(10, 200)}.{r.randint(0, 255)}.1.{r.randint(1, 254)})' can't be established.\nED25519 key fingerprint is SHA256:{rs(r, B64, 43)}."


def lk_gpg_list(r):
    return f"$ gpg --list-keys achops\npub   rsa4096 2024-0{r.randint(1, 9)}-1{r.randint(0, 9)} [SC]\n      {rs(r, HEXU, 40)}\nuid           [ultimate] CU ACH Ops <achops@cu-example.org>\nsub   rsa4096 2024-03-02 [E]"


def lk_nb(r):
    return json.dumps(
        {
            "cell_type": "code",
            "execution_count": r.randint(1, 300),
            "id": rs(r, HEX, 8),
            "metadata": {},
            "outputs": [],
            "source": ["df = load_ach_returns()"],
        }
    )


def lk_masked(r):
    return f"Symitar SFTP password: {'*' * r.randint(6, 14)} (stored in CyberArk safe CU-Core-{r.randint(1, 9)})"


def lk_changeme(r):
    return f"Vendor doc p.{r.randint(4, 90)}: default admin password is 'changeme' - you MUST set a new one on first login."


def lk_sentry(r):
    return f"SENTRY_DSN=https://{rs(r, HEX, 32)}@o{r.randint(10**5, 10**7)}.ingest.sentry.io/{r.randint(10**6, 10**7)}"


def lk_firebase(r):
    return f'const firebaseConfig = {{ apiKey: "{"AI" + "za" + rs(r, B64U, 35)}", authDomain: "cu-mobile-{rs(r, LO, 4)}.firebaseapp.com", projectId: "cu-mobile" }};'


def lk_entra_ids(r):
    return f"Entra app 'Symitar SSO': Application (client) ID {uid(r)}, Directory (tenant) ID {uid(r)}. Secret lives in Key Vault."


def lk_kv_ref(r):
    return f"LOS_DB_PASSWORD=@Microsoft.KeyVault(SecretUri=https://kv-cu-{rs(r, LO, 4)}.vault.azure.net/secrets/los-db-password/{rs(r, HEX, 32)})"


def lk_sm_arn(r):
    return f"arn:aws:secretsmanager:us-east-1:{r.randint(10**11, 10**12)}:secret:prod/wp/db-{rs(r, AN, 6)}"


def lk_pgp_pub(r):
    dash = "-" * 5
    return f"Fed's public key for Fedwire files:\n{dash}BEGIN PGP PUBLIC KEY BLOCK{dash}\n\nmQIN{rs(r, B64, 60)}\n{pem_body(r, 5)}\n={rs(r, B64, 4)}\n{dash}END PGP PUBLIC KEY BLOCK{dash}"


def lk_cert(r):
    dash = "-" * 5
    return f"Alkami gateway cert (public):\n{dash}BEGIN CERTIFICATE{dash}\nMIID{rs(r, B64, 60)}\n{pem_body(r, 6)}\n{dash}END CERTIFICATE{dash}"


def lk_digest(r):
    return f"image: ghcr.io/cu-web/wordpress@sha256:{rs(r, HEX, 64)}"


def lk_integrity(r):
    return (
        f'"node_modules/lodash": {{ "version": "4.17.{r.randint(10, 21)}", "integrity": "sha512-{rs(r, B64, 86)}==" }}'
    )


def lk_routing(r):
    return f"ACH batch header: company id {r.randint(10**9, 10**10)}, ODFI routing {r.randint(10**8, 10**9)}, effective date 26{r.randint(10, 12)}{r.randint(10, 28)}"


def lk_card_mask(r):
    return f"Dispute {r.randint(10**5, 10**6)}: card 4{r.randint(100, 999)}********{r.randint(1000, 9999)} at ATM {rs(r, UP + DG, 8)}"


def lk_txn(r):
    return f"FIS auth log: txn_id={rs(r, UP + DG, 20)} stan={r.randint(10**5, 10**6)} rrn={r.randint(10**11, 10**12)} resp=00"


def lk_sf_ids(r):
    return f"FSC Financial Account {_c(r, 'a0B', '001', '006')}{rs(r, AN, 15)} linked to org 00D{rs(r, AN, 15)}"


def lk_docusign_env(r):
    return f"DocuSign envelope {uid(r)} completed for loan {r.randint(10**6, 10**7)}; account id {uid(r)}"


def lk_splunk_sid(r):
    return f"Splunk search job sid=scheduler__admin__search__RMD5{rs(r, HEX, 16)}_at_{r.randint(10**9, 2 * 10**9)}_{r.randint(1, 999)} finished"


def lk_pa_serial(r):
    return f"PA-3220 serial 0{r.randint(10**10, 10**11)}, commit job {r.randint(100, 9999)} succeeded, content version 8{r.randint(100, 999)}-{r.randint(1000, 9999)}"


def lk_veeam_session(r):
    return (
        f"Veeam job 'Core-Nightly' session {uid(r)} Success, processed {r.randint(100, 999)} GB, restore point {uid(r)}"
    )


def lk_knowbe4(r):
    return f"KnowBe4 PST campaign {r.randint(10**5, 10**6)}: phish-prone {r.randint(2, 30)}.{r.randint(0, 9)}%, template id {r.randint(1000, 99999)}"


def lk_cyberark_acct(r):
    return f"PS> Get-PASAccount -search svc_veeam\nAccountID  : {r.randint(10, 99)}_{r.randint(1, 99)}\nSafeName   : CU-Infra\nPlatformID : WinDomain\nsecretType : password\nUserName   : svc_veeam"


def lk_wifi_ssid(r):
    return f"Branch {r.randint(1, 40)} Wi-Fi: SSID CU-Staff (WPA2-Enterprise, 802.1X via NPS), BSSID {':'.join(rs(r, HEX, 2) for _ in range(6))}. PSK not used."


def lk_tf_state(r):
    return json.dumps(
        {
            "version": 4,
            "terraform_version": "1.9.5",
            "serial": r.randint(1, 900),
            "lineage": uid(r),
            "outputs": {},
        }
    )


def lk_tf_sensitive(r):
    return f'variable "splunk_hec_token" {{\n  type      = string\n  sensitive = true\n  # set via TF_VAR_splunk_hec_token in workspace {rs(r, LO, 6)}\n}}'


def lk_jenkins_cred(r):
    return f"withCredentials([string(credentialsId: 'wp-deploy-{r.randint(1, 99)}', variable: 'WP_APP_PASSWORD')]) {{\n  sh 'curl -u deploy:$WP_APP_PASSWORD ...'\n}}"


def lk_jenkins_mask(r):
    return f"[Pipeline] withCredentials\nMasking supported pattern matches of $JENKINS_API_TOKEN\n[Pipeline] sh\n+ curl -u ci:**** https://jenkins.cu.internal/job/{rs(r, LO, 6)}/build\nFinished: SUCCESS"


def lk_kms(r):
    return f"KMS key for statements bucket: arn:aws:kms:us-east-1:{r.randint(10**11, 10**12)}:key/{uid(r)}"


def lk_etag(r):
    return f'$ aws s3api head-object --bucket cu-estatements --key {r.randint(10**6, 10**7)}.pdf\n{{ "ETag": "\\"{rs(r, HEX, 32)}\\"", "ContentLength": {r.randint(10**4, 10**6)} }}'


def lk_cloudfront(r):
    return f"Invalidated CloudFront distribution E{rs(r, UP + DG, 13)} (invalidation I{rs(r, UP + DG, 13)}) after theme deploy"


def lk_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{rs(r, B64U, 38)}"></div>  <!-- site key, public -->'


def lk_algolia(r):
    return f"Branch locator search: ALGOLIA_APP_ID={rs(r, UP + DG, 10)} ALGOLIA_SEARCH_ONLY_KEY={rs(r, HEX, 32)} (search-only, safe for the browser)"


def lk_plaid_item(r):
    return f"Plaid webhook: ITEM_LOGIN_REQUIRED item_id={rs(r, AN, 37)} request_id={rs(r, AN, 15)}"


def lk_mx_guid(r):
    return f"MX member MBR-{uid(r)} for user USR-{uid(r)} aggregated ok"


def lk_alloy_entity(r):
    return f"Alloy evaluation for application {r.randint(10**5, 10**6)}: entity P-{rs(r, AN, 20)}, outcome {_c(r, 'Approved', 'Manual Review', 'Denied')}"


def lk_socure_ref(r):
    return f"Socure ID+ referenceId {uid(r)} sigma score 0.{r.randint(10, 99)}, decision {_c(r, 'accept', 'refer')}"


def lk_sid(r):
    return f"PS> Get-ADUser svc_los | select SID, ObjectGUID\nS-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(1000, 9999)}  {uid(r)}"


def lk_pw_policy(r):
    return f"AD fine-grained policy 'Tellers': min length {r.randint(12, 16)}, history {r.randint(12, 24)}, lockout after {r.randint(3, 10)} attempts, max age {r.randint(60, 365)} days."


def lk_laps(r):
    return f"ms-Mcs-AdmPwdExpirationTime for BR{r.randint(1, 40):02d}-TELLER{r.randint(1, 9)}: {r.randint(10**17, 2 * 10**17)} (password itself in LAPS, not here)"


def lk_bitlocker(r):
    return f"BitLocker recovery key ID {{{uid(r).upper()}}} escrowed to Entra for laptop CU-LT-{r.randint(100, 999)}"


def lk_thumb(r):
    return f"Cert thumbprint {rs(r, HEXU, 40)} bound to https on alkami-gw; expires 2027-0{r.randint(1, 9)}-15"


def lk_oidc(r):
    return f"Authority: https://login.microsoftonline.com/{uid(r)}/v2.0/.well-known/openid-configuration"


def lk_ssh_pub(r):
    return f"Added to authorized_keys on sftp: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(r, B64, 43)} achops@{_c(r, 'jump01', 'ops-laptop', 'symxc01')}"


def lk_age_pub(r):
    return f"sops recipients: age1{rs(r, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}"


def lk_b64_json(r):
    return (
        "x-cu-context: "
        + base64.b64encode(
            json.dumps(
                {
                    "branch": r.randint(1, 40),
                    "channel": "teller",
                    "locale": r.choice(["en-US", "es-US", "tl-PH", "pl-PL", "ko-KR", "pt-BR"]),
                    "ts": r.randint(10**9, 2 * 10**9),
                }
            ).encode()
        ).decode()
    )


def lk_hexdump(r):
    return "\n".join(f"{i * 16:08x}  " + " ".join(rs(r, HEX, 2) for _ in range(16)) for i in range(r.randint(2, 4)))


def lk_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(r, HEX, 64)}\nsize {r.randint(10**4, 10**8)}"


def lk_pip_hash(r):
    return f"requests==2.32.{r.randint(0, 3)} \\\n    --hash=sha256:{rs(r, HEX, 64)}"


def lk_gosum(r):
    return f"github.com/pkg/sftp v1.13.{r.randint(1, 7)} h1:{rs(r, B64, 43)}="


def lk_k8s_ref(r):
    return f"env:\n  - name: SPLUNK_HEC_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: splunk-hec-{rs(r, LO, 4)}\n        key: token"


def lk_sftp_prompt(r):
    return f"$ sftp jhsftp@sftp{r.randint(1, 9)}.jackhenry.example\njhsftp@sftp.jackhenry.example's password:\nConnected to sftp.jackhenry.example.\nsftp> ls\nACH_{r.randint(10**5, 10**6)}.gpg"


def lk_gpg_out(r):
    return f'gpg: encrypted with 4096-bit RSA key, ID {rs(r, HEXU, 16)}, created 2025-0{r.randint(1, 9)}-01\ngpg: Good signature from "Federal Reserve Bank <fedach@example.org>"'


def lk_curl_redacted(r):
    return f"> GET /v1/users HTTP/1.1\n> Host: api.q2.example\n> Authorization: Bearer [REDACTED]\n< HTTP/1.1 200 OK\n< x-request-id: {uid(r)}"


def lk_log_redacted(r):
    return f"{r.randint(10, 23)}:{r.randint(10, 59)} INFO token refresh ok (token=<redacted>, expires_in={r.randint(300, 3600)})"


def lk_hec_url(r):
    return f'curl -k https://splunk-hf0{r.randint(1, 9)}.cu.local:{r.choice([8088, 443, 8089])}/{rs(r, LO, 3)}/services/collector -H "Authorization: Splunk $SPLUNK_HEC_TOKEN" -d @event.json'


def lk_plaid_pub(r):
    return f"legacy PLAID_PUBLIC_KEY={rs(r, HEX, 30)} (public key used by old Link, not secret; removed in v{r.randint(2, 9)})"


def lk_ga(r):
    return f"GA4 measurement id G-{rs(r, UP + DG, 10)} on the public site"


def lk_q2_ids(r):
    return f"Q2 institution id {r.randint(1000, 99999)}, Alkami tenant code cu{rs(r, LO, 4)}, FI id {r.randint(10**5, 10**6)}"


def lk_ps_readhost(r):
    return f"PS> $pw = Read-Host -AsSecureString 'Veeam svc password'\nPS> Set-VBRCredentials -Credential $cred -Password $pw  # host veeam-br0{r.randint(1, 9)}, job {rs(r, LO, 5)}"


def lk_dpapi(r):
    return f"PS> $enc = ConvertFrom-SecureString $pw\nPS> $enc\n01000000d08c9ddf0115d1118c7a00c04fc297eb01000000{rs(r, HEX, 120)}"


def lk_jenkins_enc(r):
    return f"<password>{{AQAAABAAAAAQ{rs(r, B64, 44)}=}}</password>"


def lk_aws_doc(r):
    return (
        f"From the AWS docs example ({_c(r, 'IAM guide', 'CLI config page', 'SDK README')}): aws_secret_access_key = "
        + "wJalrXUtnFEMI/K7MDENG/bPxRfiCY"
        + "EXAMPLEKEY"
        + f"  (see p.{r.randint(2, 300)})"
    )


def lk_oidc_role(r):
    return f"      - uses: aws-actions/configure-aws-credentials@v4\n        with:\n          role-to-assume: arn:aws:iam::{r.randint(10**11, 10**12)}:role/gha-wp-deploy\n          aws-region: us-east-1"


def lk_random_pw(r):
    return f'resource "random_password" "wp_db" {{\n  length  = {r.randint(20, 40)}\n  special = {r.choice(["true", "false"])}\n  keepers = {{ rotation = "{rs(r, HEX, 8)}" }}\n}}'


def lk_py_env(r):
    return f'PLAID_SECRET = os.environ["PLAID_SECRET"]\nMX_API_KEY = os.getenv("MX_API_KEY")\nTIMEOUT = {r.randint(5, 600)}'


def lk_ci_masked(r):
    return f"Run ./scripts/deploy.sh\n  env:\n    GITHUB_TOKEN: ***\n    WP_APP_PASSWORD: ***\nDeploying build {r.randint(100, 9999)}..."


def lk_imad(r):
    return f"Fedwire IMAD 2026{r.randint(1000, 1231)}QMGFT0{r.randint(10, 99)}{r.randint(100000, 999999)} OMAD 2026{r.randint(1000, 1231)}B1Q8021R{r.randint(100000, 999999)}"


def lk_entry_hash(r):
    return f"ACH file control: entry/addenda count {r.randint(10, 9999)}, entry hash {r.randint(10**9, 10**10)}, total debit {r.randint(10**5, 10**9)}"


def lk_mac(r):
    return f"DHCP lease: {':'.join(rs(r, HEX, 2) for _ in range(6))} -> 10.{r.randint(1, 40)}.20.{r.randint(2, 250)} (teller printer)"


def lk_ipv6(r):
    return "branch uplink " + ":".join(rs(r, HEX, 4) for _ in range(8))


def lk_css(r):
    return f".cu-btn {{ color: #{rs(r, HEX, 6)}; background: #{rs(r, HEX, 6)}; border-color: #{rs(r, HEX, 6)}; }}"


def lk_version(r):
    return f"Symitar Episys release 2026.0{r.randint(1, 4)}, SymXchange 2026.{r.randint(1, 9)}.{r.randint(0, 99)}, build {rs(r, HEX, 7)}"


def lk_sql_hash(r):
    return f"los=> SELECT username, password_hash FROM users LIMIT 1;\n username | password_hash\n----------+-----\n lo{r.randint(1, 99)} | $2b$12${rs(r, AN + './', 53)}\n(1 row)"


def lk_pbkdf2(r):
    return f"django auth_user.password = pbkdf2_sha256$870000${rs(r, AN, 22)}${rs(r, B64, 43)}="


def lk_ntds_policy(r):
    return f"KnowBe4 password-audit: {r.randint(0, 40)} accounts with weak passwords, {r.randint(0, 10)} shared, report id {uid(r)}"


def lk_oauth_cid(r):
    return f"Salesforce connected app consumer key (public client id): 3MVG9{rs(r, AN + '._', 80)}"


def lk_docusign_ik(r):
    return f"DocuSign app: user id (GUID) {uid(r)}, base path https://na{r.randint(1, 4)}.docusign.net/restapi"


def lk_cyberark_ref(r):
    return f"$pw = (Get-CCPPassword -AppID LOSApp -Safe CU-Apps -Object svc_los-{r.randint(1, 99)}).Content  # {rs(r, LO, 4)}  # fetched at runtime from CCP"


def lk_splunk_conf(r):
    return f"[http://atm_logs]\ndisabled = 0\nindex = atm\nsourcetype = atm:json\n# token = $SPLUNK_HEC_TOKEN (set by deployment server ds{r.randint(1, 99)}, app {rs(r, LO, 5)})"


def lk_pan_hash(r):
    return f"set mgt-config users admin phash $5${rs(r, AN, 8)}${rs(r, AN + './', 43)}"


def lk_wp_salt_doc(r):
    return f"wp-config.php: define( 'AUTH_KEY', 'put your unique phrase here' ); // generate at api.wordpress.org/secret-key/1.1/salt ({r.randint(1, 99)})"


def lk_stars_env(r):
    return f"SOCURE_API_KEY=************{rs(r, HEX, 4)} (last 4 only, from the portal)"


def lk_tmpl_jinja(r):
    return f'smtp_password: "{{{{ vault_smtp_password }}}}"\nsmtp_host: relay{r.randint(1, 99)}.cu.local\nsmtp_port: {r.choice([25, 587, 465])}'


def lk_helm(r):
    return f"fraud-api:\n  existingSecret: fraud-api-{rs(r, LO, 4)}\n  secretKeys:\n    alloySecret: alloy-secret\n    socureKey: socure-key"


def lk_run_id(r):
    return f"GitHub Actions run {r.randint(10**9, 10**10)} attempt {r.randint(1, 3)} job {r.randint(10**10, 10**11)} passed"


def lk_ticket_noval(r):
    return f"Ticket IT-{r.randint(1000, 9999)}: rotated the Entra client secret for 'LOS-Graph'; new value put in Key Vault kv-cu-prod, old one expires in {r.randint(1, 30)} days."


def lk_spanish(r):
    return f"Nota: la contraseña del SFTP de Symitar ya está en CyberArk (safe CU-Core-{r.randint(1, 99)}); pedir acceso a {_c(r, 'Maria', 'Rafael')}."


def lk_tagalog(r):
    return (
        f"Paalala: nasa Vault na ang Plaid secret (path secret/cu/plaid/{rs(r, LO, 4)}), huwag na itong i-paste dito."
    )


def lk_polish(r):
    return f"Notatka: hasło do Veeam jest w sejfie CyberArk, ID konta {r.randint(10, 99)}_{r.randint(1, 9)}. Nie wklejać w czat."


def lk_korean(r):
    return f"메모: Splunk HEC 토큰은 Vault 경로 secret/cu/splunk/{rs(r, LO, 4)} 에 있음. 여기에 붙여넣지 말 것."


def lk_portuguese(r):
    return f"Anotação: a chave da API do MX fica no Secrets Manager (prod/mx/api-{r.randint(1, 99)}); não copiar para o chat."


def lk_nonce(r):
    return f"ISO 8583 trace: MTI 0200 PAN 4{r.randint(100, 999)}XXXXXXXX{r.randint(1000, 9999)} proc 011000 amount {r.randint(100, 99999):012d}"


def lk_uuid_job(r):
    return f"Symitar batch job {uid(r)} queue {r.randint(0, 9)} exited 0 (PowerOn ACH.POST)"


def lk_ssh_known(r):
    return f"sftp.fis.example ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY{rs(r, B64, 100)}="


def lk_base64_pdf(r):
    return f'{{"document": {{"name": "loan_{r.randint(1000, 9999)}.pdf", "documentBase64": "JVBERi0xLjcK{rs(r, B64, 80)}"}}}}'


def lk_crc(r):
    return (
        f"Transfer complete: {r.randint(10**3, 10**7)} bytes, CRC32 {rs(r, HEXU, 8)}, ACK {r.randint(100000, 999999)}"
    )


def lk_placeholder_angle(r):
    return f'curl -H "Authorization: Bearer <{_c(r, "KNOWBE4_TOKEN", "your-api-token", "token")}>" https://us.api.knowbe4.com/v1/users?page={r.randint(1, 99)}'


def lk_yaml_null(r):
    return f"okta:\n  org_url: https://cu-{rs(r, LO, 5)}.okta.com\n  api_token: null  # injected by CI"


def lk_stripe_pk(r):
    return f"Donation widget publishable key: {'pk' + '_live_' + rs(r, AN, 24)}"


_LOOK = [v for k, v in sorted(globals().items()) if k.startswith("lk_") and callable(v)]


# ---------------------------------------------------------------- main


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(f"ax-{seed}")
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for k in KINDS:
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > 5000:
                raise RuntimeError(k[0])
            text, secret = _positive(r, k)
            if secret not in text or text in seen:
                continue
            seen.add(text)
            positives.append((text, k[0], secret))
            got += 1
    lookalikes: list[str] = []
    for fn in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 2000:
                raise RuntimeError(fn.__name__)
            t = fn(r)
            if t in seen:
                continue
            seen.add(t)
            lookalikes.append(t)
            got += 1
    return positives, lookalikes
