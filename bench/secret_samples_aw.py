"""Labelled test set AW for a secret detector: a public school district's IT department.

Theme: memories an AI coding agent keeps for a school district IT team -- SIS/LMS (PowerSchool,
Infinite Campus, Canvas, Clever, ClassLink, Google Classroom), Google Workspace for Education and
Microsoft 365 (service accounts, app registrations, Azure AD Connect), Chromebook/iPad management
(Google Admin, Jamf School), web filtering (Securly, GoGuardian), door controllers, Verkada,
PaperCut, Aruba/Meraki Wi-Fi (PSKs, RADIUS), SNMP, mass notification (SchoolMessenger, Twilio),
bus GPS, cafeteria POS and the dev team's scripts and CI.  Styles: about half notes / lessons /
runbooks / tickets / emails / chat (English plus Spanish, Vietnamese, Somali, Ukrainian, Haitian
Creole, Mandarin), a quarter config (.env, JSON, YAML, INI, PowerShell, Python, GAM, Terraform),
a quarter tool output (CLI, PowerShell, curl -v, service logs, CI logs, database consoles).

Contract::

    LOOK_PER_GEN = 12
    generate(seed) -> (positives, lookalikes)
    positives:  list of (text, kind, secret); secret is an exact substring of text, one per text
    lookalikes: len(_LOOK) * LOOK_PER_GEN texts holding no credential at all

Output is deterministic per seed (random.Random(seed) only) and no text repeats.

Labelling conventions:
- Webhook URLs: the final path token is the secret.  Connection strings / basic-auth URLs: the
  password only.  Pre-signed URLs: the signature.  PEM / OpenSSH private keys: the whole armoured
  block, BEGIN line to END line, exactly as it appears (inside a YAML block scalar the continuation
  lines keep their indentation).  UUID-shaped vendor tokens are secrets only when named as a
  token / key / secret.
- Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids,
  Firebase web apiKeys, search-only keys, public certificates), vendor documentation examples,
  encrypted blobs (Ansible vault, sops ENC[...], DPAPI, PGP messages) and password hashes are
  look-alikes.  Bare AWS access key ids are left out entirely (S3 pre-signed URLs therefore carry no
  X-Amz-Credential parameter).  The only value in a positive text is its one secret; other ids
  around it (hosts, user names, school ids) are not credentials.
- Every token-shaped value is assembled at run time from pieces and random bodies; no real-looking
  token literal appears in this source file.
"""

from __future__ import annotations

import base64
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

AL = string.ascii_letters + string.digits
LOW = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
B64 = AL + "+/"
URLB64 = AL + "-_"


def _rs(r, n, alpha=AL):
    return "".join(r.choice(alpha) for _ in range(n))


def _uuid(r, upper=False):
    h = _rs(r, 32, HEX)
    u = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"
    return u.upper() if upper else u


def _date(r):
    return f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _ts(r):
    return f"{_date(r)}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"


def _ip(r):
    return f"10.{r.randint(0, 60)}.{r.randint(0, 254)}.{r.randint(2, 250)}"


SCHOOLS = [
    "Lincoln Elementary",
    "Roosevelt MS",
    "Eastview High",
    "Maple Grove ES",
    "Cedar Ridge HS",
    "Riverside Academy",
    "Hillcrest ES",
    "Washington MS",
    "Oak Park ES",
    "Northside HS",
]
PEOPLE = [
    "Dana",
    "Marcus",
    "Linh",
    "Abdi",
    "Olena",
    "Jean-Marc",
    "Wei",
    "Priya",
    "Tom",
    "Rosa",
]
WORDS = [
    "tulip",
    "rover",
    "maple",
    "falcon",
    "cobalt",
    "harbor",
    "pencil",
    "bison",
    "lantern",
    "quartz",
    "meadow",
    "otter",
    "cactus",
    "violet",
    "summit",
    "walnut",
    "comet",
    "pickle",
    "saddle",
    "ember",
]
SEASONS = ["Spring", "Summer", "Autumn", "Winter", "Fall"]
MASCOTS = [
    "Eagles",
    "Tigers",
    "Panthers",
    "Bulldogs",
    "Wildcats",
    "Falcons",
    "Mustangs",
]


def _pw(r, urlsafe=False):
    sym = "-_.!~" if urlsafe else "!@#*-_.+?"
    k = r.randint(0, 5)
    if k == 0:
        return f"{r.choice(SEASONS)}{r.randint(2019, 2027)}{r.choice(sym)}"
    if k == 1:
        return f"{r.choice(WORDS)}-{r.choice(WORDS).capitalize()}-{r.randint(10, 99)}"
    if k == 2:
        return f"{r.choice(MASCOTS)}{r.choice(sym)}{r.randint(100, 9999)}"
    if k == 3:
        return _rs(r, r.randint(14, 22), AL + sym)
    if k == 4:
        return "-".join(r.choice(WORDS) for _ in range(4)) + str(r.randint(1, 9))
    return f"{r.choice(PEOPLE).replace('-', '')}{r.choice(sym)}{r.choice(WORDS).capitalize()}{r.randint(1, 99)}"


# ---------------------------------------------------------------- value makers: (display, secret)


def _same(f):
    def g(r):
        v = f(r)
        return v, v

    return g


def _pem(r, label, lines=12, start="MII"):
    body = [start + _rs(r, 64 - len(start), B64)] + [_rs(r, 64, B64) for _ in range(lines - 2)]
    body.append(_rs(r, r.randint(20, 60), B64) + "=")
    beg = "-----" + "BEGIN " + label + "-----"
    end = "-----" + "END " + label + "-----"
    return "\n".join([beg, *body, end])


def _v_rsa(r):
    v = _pem(r, "RSA " + "PRIVATE KEY")
    return v, v


def _v_pk8(r):
    v = _pem(r, "PRIVATE " + "KEY", lines=r.randint(6, 14), start="MII")
    return v, v


def _v_ec(r):
    v = _pem(r, "EC " + "PRIVATE KEY", lines=4, start="MHcCAQEE")
    return v, v


def _v_openssh(r):
    v = _pem(
        r,
        "OPENSSH " + "PRIVATE KEY",
        lines=r.randint(6, 9),
        start="b3BlbnNz" + "aC1rZXktdjEAAAAA",
    )
    return v, v


def _v_pg(r):
    pw = _pw(r, True)
    host = r.choice(["sis-db01", "pos-pg.internal", "busgps-db", "helpdesk-db", "pg.district.local"])
    db = r.choice(["sis_sync", "cafeteria", "busgps", "helpdesk", "roster"])
    user = r.choice(["svc_sync", "pos_app", "gps_ingest", "helpdesk", "roster_ro"])
    return f"postgresql://{user}:{pw}@{host}:5432/{db}", pw


def _v_mysql(r):
    pw = _pw(r, True)
    host = r.choice(["web-mysql01", "wp-db.district.local", "papercut-db", "lib-mysql"])
    return (
        f"mysql://{r.choice(['wp_admin', 'papercut', 'library', 'destiny'])}:{pw}@{host}:3306/{r.choice(['wordpress', 'papercut', 'opac'])}",
        pw,
    )


def _v_mssql(r):
    pw = _pw(r)
    return (
        (
            f"Server={r.choice(['ICSQL01', 'CAFE-SQL', 'SQL-FIN02', 'IC-DB.district.local'])};"
            f"Database={r.choice(['campus_prod', 'NutriKids', 'FinanceDB', 'TransFinder'])};"
            f"User Id={r.choice(['sa', 'ic_report', 'pos_sync', 'svc_etl'])};Password={pw};TrustServerCertificate=True"
        ),
        pw,
    )


def _v_redis(r):
    pw = _rs(r, r.randint(20, 32), AL)
    return (
        f"redis://:{pw}@{r.choice(['redis-cache', 'queue01', 'sso-redis'])}:6379/{r.randint(0, 3)}",
        pw,
    )


def _v_mongo(r):
    pw = _pw(r, True)
    return (
        f"mongodb+srv://{r.choice(['kiosk', 'visitor_app', 'busapp'])}:{pw}@{r.choice(['cluster0', 'visitors'])}.{_rs(r, 5, LOW)}.mongodb.net/?retryWrites=true",
        pw,
    )


def _v_basic(r):
    pw = _pw(r, True)
    host = r.choice(
        [
            "papercut.district.k12.us:9191",
            "raptor-sync.district.local",
            "nvr01.district.local",
            "fog.district.local",
        ]
    )
    return (
        f"https://{r.choice(['admin', 'svc_print', 'sync', 'itadmin'])}:{pw}@{host}/{r.choice(['api', 'rpc/api/xmlrpc', 'export', ''])}",
        pw,
    )


def _v_slack_hook(r):
    tok = _rs(r, 24)
    return (
        "https://hooks."
        + f"slack.com/services/T{_rs(r, 10, string.ascii_uppercase + string.digits)}/B{_rs(r, 10, string.ascii_uppercase + string.digits)}/{tok}",
        tok,
    )


def _v_discord_hook(r):
    tok = _rs(r, 68, URLB64)
    return (
        "https://discord.com/api/web" + f"hooks/{r.randint(10**17, 10**18)}/{tok}",
        tok,
    )


def _v_s3_presign(r):
    sig = _rs(r, 64, HEX)
    return (
        (
            f"https://district-exports.s3.us-west-2.amazonaws.com/{r.choice(['rosters', 'transcripts', 'badges'])}/"
            f"{_date(r)}.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261104T101500Z&X-Amz-Expires=3600"
            f"&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
        ),
        sig,
    )


def _v_azure_sas(r):
    sig = _rs(r, 43, AL) + "%3D"
    return (
        (
            f"https://k12{_rs(r, 6, LOW)}.blob.core.windows.net/{r.choice(['backups', 'photos', 'exports'])}/"
            f"{r.choice(['students.csv', 'staff.zip', 'yearbook.tar'])}?sv=2022-11-02&ss=b&srt=o&sp=r"
            f"&se=2026-12-31T00:00:00Z&spr=https&sig={sig}"
        ),
        sig,
    )


def _v_az_storage(r):
    key = _rs(r, 86, B64) + "=="
    return (
        f"DefaultEndpointsProtocol=https;AccountName=k12{_rs(r, 6, LOW)};AccountKey={key};EndpointSuffix=core.windows.net",
        key,
    )


def _tok(f):
    return _same(f)


KINDS = [
    # kind, services, env vars, label, maker, type
    (
        "canvas_api_token",
        ["Canvas", "Canvas LMS"],
        ["CANVAS_API_TOKEN", "CANVAS_TOKEN"],
        "access token",
        _tok(lambda r: f"{r.choice(['1', '7', '10', '3'])}{r.randint(100, 9999)}~{_rs(r, 64)}"),
        "tok",
    ),
    (
        "canvas_developer_key_secret",
        ["Canvas developer key", "Canvas LTI key"],
        ["CANVAS_CLIENT_SECRET", "LTI_CLIENT_SECRET"],
        "client secret",
        _tok(lambda r: _rs(r, 64)),
        "tok",
    ),
    (
        "powerschool_client_secret",
        ["PowerSchool plugin", "PowerSchool API"],
        ["PS_CLIENT_SECRET", "POWERSCHOOL_CLIENT_SECRET"],
        "client secret",
        _tok(lambda r: _uuid(r)),
        "tok",
    ),
    (
        "powerschool_oracle_password",
        ["PowerSchool Oracle (PSNAVIGATOR)", "PowerSchool DB"],
        ["PS_DB_PASSWORD", "PSNAVIGATOR_PW"],
        "DB password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "infinite_campus_oneroster_secret",
        ["Infinite Campus OneRoster", "Campus OneRoster"],
        ["IC_ONEROSTER_SECRET", "CAMPUS_CLIENT_SECRET"],
        "client secret",
        _tok(lambda r: _rs(r, 32, AL)),
        "tok",
    ),
    (
        "infinite_campus_sql_password",
        ["Infinite Campus SQL", "Campus reporting DB"],
        ["CAMPUS_SQL_CONN", "IC_DB_CONNECTION"],
        "connection string",
        _v_mssql,
        "url",
    ),
    (
        "clever_district_token",
        ["Clever", "Clever Secure Sync"],
        ["CLEVER_DISTRICT_TOKEN", "CLEVER_TOKEN"],
        "district app token",
        _tok(lambda r: _rs(r, 40, HEX)),
        "tok",
    ),
    (
        "clever_client_secret",
        ["Clever SSO app", "Clever Instant Login"],
        ["CLEVER_CLIENT_SECRET"],
        "client secret",
        _tok(lambda r: _rs(r, 40, HEX)),
        "tok",
    ),
    (
        "classlink_oneroster_secret",
        ["ClassLink Roster Server", "ClassLink OneRoster"],
        ["CLASSLINK_SECRET", "CL_ONEROSTER_SECRET"],
        "client secret",
        _tok(lambda r: _rs(r, 24, HEX)),
        "tok",
    ),
    (
        "google_service_account_private_key",
        [
            "Google Workspace service account",
            "GAM service account",
            "Classroom sync SA",
        ],
        ["GOOGLE_SA_KEY", "GAM_SVC_KEY"],
        "private key",
        _v_pk8,
        "pem",
    ),
    (
        "google_oauth_client_secret",
        ["GAM project", "Google OAuth app", "Classroom roster tool"],
        ["GOOGLE_CLIENT_SECRET", "GAM_CLIENT_SECRET"],
        "client secret",
        _tok(lambda r: "GOC" + "SPX-" + _rs(r, 28, URLB64)),
        "tok",
    ),
    (
        "google_refresh_token",
        ["GAM oauth2.txt", "Google Classroom sync", "Drive archive script"],
        ["GOOGLE_REFRESH_TOKEN", "GAM_REFRESH_TOKEN"],
        "refresh token",
        _tok(lambda r: "1//" + "0" + _rs(r, 1, AL) + _rs(r, 101, URLB64)),
        "tok",
    ),
    (
        "google_oauth_access_token",
        ["Google Admin SDK", "Classroom API"],
        ["GOOGLE_ACCESS_TOKEN"],
        "access token",
        _tok(lambda r: "ya" + "29." + _rs(r, r.randint(150, 200), URLB64)),
        "tok",
    ),
    (
        "google_api_server_key",
        ["Google Maps server key (bus routes)", "YouTube Data API server key"],
        ["GOOGLE_MAPS_SERVER_KEY", "YT_SERVER_API_KEY"],
        "server API key",
        _tok(lambda r: "AI" + "za" + "Sy" + _rs(r, 33, URLB64)),
        "tok",
    ),
    (
        "google_app_password",
        ["Gmail SMTP relay (copier scan-to-email)", "Google app password for alerts"],
        ["SMTP_APP_PASSWORD", "GMAIL_APP_PW"],
        "app password",
        _same(lambda r: " ".join(_rs(r, 4, string.ascii_lowercase) for _ in range(4))),
        "pw",
    ),
    (
        "azure_ad_client_secret",
        ["Entra app registration", "Azure AD app (Intune sync)", "M365 Graph app"],
        ["AZURE_CLIENT_SECRET", "GRAPH_CLIENT_SECRET"],
        "client secret",
        _tok(lambda r: _rs(r, 3, AL) + "8Q~" + _rs(r, 34, AL + "_~.-")),
        "tok",
    ),
    (
        "aad_connect_sync_password",
        ["Azure AD Connect", "Entra Connect sync account"],
        ["AADC_SYNC_PASSWORD", "MSOL_SYNC_PW"],
        "sync account password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "m365_admin_password",
        ["M365 global admin", "Exchange Online break-glass account"],
        ["M365_ADMIN_PASSWORD", "BREAKGLASS_PW"],
        "password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "ad_service_account_password",
        ["AD service account svc_papercut", "AD svc_ldapbind", "svc_scan account"],
        ["LDAP_BIND_PASSWORD", "AD_SVC_PASSWORD"],
        "bind password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "laps_admin_password",
        ["Windows LAPS", "local admin (LAPS)"],
        ["LAPS_PASSWORD"],
        "local admin password",
        _same(lambda r: _rs(r, 20, AL + "!#%&*+-")),
        "pw",
    ),
    (
        "bitlocker_recovery_key",
        ["BitLocker", "BitLocker on teacher laptop"],
        ["BITLOCKER_RECOVERY"],
        "recovery password",
        _same(lambda r: "-".join(f"{r.randint(0, 720896) // 11 * 11:06d}" for _ in range(8))),
        "pw",
    ),
    (
        "chrome_enrollment_token",
        ["Chrome Enterprise enrollment", "Google Admin Chromebook enrolment"],
        ["CHROME_ENROLLMENT_TOKEN", "CBCM_ENROLLMENT_TOKEN"],
        "enrollment token",
        _tok(lambda r: _uuid(r)),
        "tok",
    ),
    (
        "jamf_school_api_key",
        ["Jamf School", "Jamf School API"],
        ["JAMF_SCHOOL_API_KEY", "JAMF_SCHOOL_TOKEN"],
        "API key",
        _tok(lambda r: _rs(r, 32, string.ascii_uppercase + string.digits)),
        "tok",
    ),
    (
        "jamf_pro_client_secret",
        ["Jamf Pro API client", "Jamf Pro"],
        ["JAMF_CLIENT_SECRET"],
        "client secret",
        _tok(lambda r: _rs(r, 64, AL + "-_")),
        "tok",
    ),
    (
        "apple_school_manager_p8_key",
        ["Apple School Manager API", "APNs auth key"],
        ["ASM_PRIVATE_KEY", "APNS_KEY_P8"],
        "private key",
        _v_ec,
        "pem",
    ),
    (
        "securly_api_key",
        ["Securly", "Securly Filter"],
        ["SECURLY_API_KEY"],
        "API key",
        _tok(lambda r: _rs(r, 40, AL)),
        "tok",
    ),
    (
        "goguardian_api_token",
        ["GoGuardian", "GoGuardian Admin"],
        ["GOGUARDIAN_TOKEN", "GG_API_TOKEN"],
        "API token",
        _tok(lambda r: _rs(r, 48, URLB64)),
        "tok",
    ),
    (
        "verkada_api_key",
        ["Verkada Command", "Verkada cameras"],
        ["VERKADA_API_KEY"],
        "API key",
        _tok(lambda r: "vkd_" + "api_" + _rs(r, 32, HEX)),
        "tok",
    ),
    (
        "door_controller_password",
        [
            "door controller (Brivo panel)",
            "access control panel",
            "Raptor visitor kiosk",
        ],
        ["DOOR_PANEL_PASSWORD", "KIOSK_ADMIN_PW"],
        "admin password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "raptor_api_key",
        ["Raptor visitor management", "Raptor Technologies"],
        ["RAPTOR_API_KEY"],
        "API key",
        _tok(lambda r: _uuid(r).replace("-", "") + _rs(r, 8, HEX)),
        "tok",
    ),
    (
        "papercut_auth_token",
        ["PaperCut MF web services", "PaperCut NG"],
        ["PAPERCUT_AUTH_TOKEN", "PC_WEBSERVICES_TOKEN"],
        "auth.webservices.auth-token",
        _tok(lambda r: _rs(r, 32, AL)),
        "tok",
    ),
    (
        "basic_auth_url_password",
        ["PaperCut export", "NVR export", "FOG server"],
        ["EXPORT_URL", "PRINT_API_URL"],
        "URL with creds",
        _v_basic,
        "url",
    ),
    (
        "wifi_psk",
        [
            "Aruba SSID DISTRICT-STAFF",
            "Meraki SSID Staff-Secure",
            "IoT SSID (HVAC + projectors)",
        ],
        ["STAFF_WIFI_PSK", "IOT_PSK"],
        "WPA2 PSK",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "meraki_api_key",
        ["Meraki Dashboard", "Meraki"],
        ["MERAKI_DASHBOARD_API_KEY", "MERAKI_API_KEY"],
        "API key",
        _tok(lambda r: _rs(r, 40, HEX)),
        "tok",
    ),
    (
        "radius_shared_secret",
        ["ClearPass RADIUS", "NPS RADIUS client", "Aruba controller RADIUS"],
        ["RADIUS_SECRET"],
        "shared secret",
        _same(lambda r: _rs(r, r.randint(16, 28), AL + "!#-_")),
        "pw",
    ),
    (
        "snmp_community",
        ["SNMPv2c on core switches", "SNMP for LibreNMS"],
        ["SNMP_COMMUNITY"],
        "community string",
        _same(
            lambda r: f"{r.choice(['d1str1ct', 'k12', 'netmon', 'sw'])}{r.choice(['-ro', '_RO', 'Mon'])}{_rs(r, 6, AL)}"
        ),
        "pw",
    ),
    (
        "snmpv3_auth_password",
        ["SNMPv3 user librenms", "SNMPv3 on Aruba CX"],
        ["SNMPV3_AUTH_PASS", "SNMP_AUTHPASS"],
        "auth password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "switch_admin_password",
        ["Aruba CX switch admin", "core switch", "Cisco 9300 stack"],
        ["SWITCH_PASSWORD"],
        "admin password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "twilio_auth_token",
        ["Twilio", "Twilio (attendance SMS)"],
        ["TWILIO_AUTH_TOKEN"],
        "auth token",
        _tok(lambda r: _rs(r, 32, HEX)),
        "tok",
    ),
    (
        "twilio_api_key_secret",
        ["Twilio API key", "Twilio (snow day calls)"],
        ["TWILIO_API_SECRET"],
        "API key secret",
        _tok(lambda r: _rs(r, 32, AL)),
        "tok",
    ),
    (
        "schoolmessenger_password",
        ["SchoolMessenger", "SchoolMessenger API user"],
        ["SM_API_PASSWORD", "SCHOOLMESSENGER_PW"],
        "password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "sendgrid_api_key",
        ["SendGrid", "SendGrid (newsletter)"],
        ["SENDGRID_API_KEY"],
        "API key",
        _tok(lambda r: "S" + "G." + _rs(r, 22, URLB64) + "." + _rs(r, 43, URLB64)),
        "tok",
    ),
    (
        "slack_webhook_url",
        ["Slack #it-alerts", "Slack #helpdesk"],
        ["SLACK_WEBHOOK_URL"],
        "webhook URL",
        _v_slack_hook,
        "url",
    ),
    (
        "discord_webhook_url",
        ["Discord esports club", "Discord robotics server"],
        ["DISCORD_WEBHOOK"],
        "webhook URL",
        _v_discord_hook,
        "url",
    ),
    (
        "samsara_api_token",
        ["Samsara bus GPS", "bus GPS (Samsara)"],
        ["SAMSARA_API_TOKEN"],
        "API token",
        _tok(lambda r: "samsara" + "_api_" + _rs(r, 30, AL)),
        "tok",
    ),
    (
        "postgres_url_password",
        ["bus GPS ingest DB", "routing DB", "helpdesk DB"],
        ["DATABASE_URL", "GPS_DB_URL"],
        "database URL",
        _v_pg,
        "url",
    ),
    (
        "square_access_token",
        ["Square (cafeteria POS)", "Square for concessions"],
        ["SQUARE_ACCESS_TOKEN"],
        "access token",
        _tok(lambda r: "EA" + "AA" + _rs(r, 60, URLB64)),
        "tok",
    ),
    (
        "stripe_secret_key",
        ["Stripe (lunch account top-ups)", "Stripe (field trip payments)"],
        ["STRIPE_SECRET_KEY"],
        "secret key",
        _tok(lambda r: "sk" + "_live_" + _rs(r, r.choice([24, 99]))),
        "tok",
    ),
    (
        "stripe_restricted_key",
        ["Stripe reporting", "Stripe refund bot"],
        ["STRIPE_RESTRICTED_KEY"],
        "restricted key",
        _tok(lambda r: "rk" + "_live_" + _rs(r, 99)),
        "tok",
    ),
    (
        "cafeteria_pos_db_password",
        ["cafeteria POS SQL", "finance SQL", "TransFinder SQL"],
        ["POS_SQL_CONN", "ConnectionStrings__Default"],
        "connection string",
        _v_mssql,
        "url",
    ),
    (
        "mysql_password",
        ["district WordPress", "PaperCut DB", "library catalog"],
        ["DB_URL", "WP_DATABASE_URL"],
        "database URL",
        _v_mysql,
        "url",
    ),
    (
        "redis_password",
        ["Redis cache", "SSO session store"],
        ["REDIS_URL"],
        "Redis URL",
        _v_redis,
        "url",
    ),
    (
        "mongodb_password",
        ["visitor kiosk app", "bus app backend"],
        ["MONGO_URI"],
        "Mongo URI",
        _v_mongo,
        "url",
    ),
    (
        "github_pat",
        ["GitHub (district-it org)", "GitHub CI"],
        ["GITHUB_TOKEN", "GH_PAT"],
        "personal access token",
        _tok(lambda r: "gh" + "p_" + _rs(r, 36)),
        "tok",
    ),
    (
        "github_fine_grained_pat",
        ["GitHub fine-grained token", "GitHub deploy bot"],
        ["GH_FG_TOKEN"],
        "fine-grained PAT",
        _tok(lambda r: "github_" + "pat_" + _rs(r, 22, AL + "_") + "_" + _rs(r, 59, AL + "_")),
        "tok",
    ),
    (
        "gitlab_pat",
        ["GitLab (self-hosted)", "GitLab runner"],
        ["GITLAB_TOKEN"],
        "personal access token",
        _tok(lambda r: "glp" + "at-" + _rs(r, 20, URLB64)),
        "tok",
    ),
    (
        "azure_devops_pat",
        ["Azure DevOps", "ADO pipelines"],
        ["AZDO_PAT", "SYSTEM_ACCESSTOKEN_OVERRIDE"],
        "PAT",
        _tok(lambda r: _rs(r, 52, string.ascii_lowercase + "234567")),
        "tok",
    ),
    (
        "npm_token",
        ["npm registry", "npm publish for the parent portal"],
        ["NPM_TOKEN"],
        "automation token",
        _tok(lambda r: "np" + "m_" + _rs(r, 36)),
        "tok",
    ),
    (
        "pypi_token",
        ["PyPI", "PyPI (oneroster-tools)"],
        ["PYPI_TOKEN", "TWINE_PASSWORD"],
        "API token",
        _tok(lambda r: "py" + "pi-" + "AgEIcHlwaS5vcmc" + _rs(r, 140, URLB64)),
        "tok",
    ),
    (
        "docker_hub_pat",
        ["Docker Hub", "Docker Hub (k12it)"],
        ["DOCKERHUB_TOKEN"],
        "access token",
        _tok(lambda r: "dck" + "r_pat_" + _rs(r, 27, URLB64)),
        "tok",
    ),
    (
        "aws_secret_access_key",
        ["AWS (backup bucket)", "AWS S3 exports"],
        ["AWS_SECRET_ACCESS_KEY"],
        "secret access key",
        _tok(lambda r: _rs(r, 40, B64)),
        "tok",
    ),
    (
        "aws_presigned_url_signature",
        ["S3 roster export", "S3 transcript link"],
        ["EXPORT_LINK"],
        "pre-signed URL",
        _v_s3_presign,
        "url",
    ),
    (
        "azure_sas_signature",
        ["Azure blob backup", "Azure photo export"],
        ["BLOB_SAS_URL"],
        "SAS URL",
        _v_azure_sas,
        "url",
    ),
    (
        "azure_storage_account_key",
        ["Azure storage (Veeam offsite)", "Azure storage (yearbook)"],
        ["AZURE_STORAGE_CONNECTION_STRING"],
        "connection string",
        _v_az_storage,
        "url",
    ),
    (
        "hashicorp_vault_token",
        ["HashiCorp Vault", "Vault (ops)"],
        ["VAULT_TOKEN"],
        "token",
        _tok(lambda r: "hv" + "s." + "CAESI" + _rs(r, 86, URLB64)),
        "tok",
    ),
    (
        "terraform_cloud_token",
        ["Terraform Cloud", "HCP Terraform"],
        ["TF_TOKEN_app_terraform_io", "TFE_TOKEN"],
        "API token",
        _tok(lambda r: _rs(r, 14) + ".atlas" + "v1." + _rs(r, 67)),
        "tok",
    ),
    (
        "openai_api_key",
        ["OpenAI (lesson-plan helper)", "OpenAI (helpdesk triage bot)"],
        ["OPENAI_API_KEY"],
        "API key",
        _tok(lambda r: "sk-" + "proj-" + _rs(r, 74, URLB64) + "T3Blbk" + "FJ" + _rs(r, 74, URLB64)),
        "tok",
    ),
    (
        "anthropic_api_key",
        ["Anthropic (ticket summariser)", "Claude API"],
        ["ANTHROPIC_API_KEY"],
        "API key",
        _tok(lambda r: "sk-" + "ant-api03-" + _rs(r, 93, URLB64) + "AA"),
        "tok",
    ),
    (
        "huggingface_token",
        ["Hugging Face", "HF hub (reading-level model)"],
        ["HF_TOKEN"],
        "access token",
        _tok(lambda r: "h" + "f_" + _rs(r, 34, string.ascii_letters)),
        "tok",
    ),
    (
        "datadog_api_key",
        ["Datadog", "Datadog agent"],
        ["DD_API_KEY"],
        "API key",
        _tok(lambda r: _rs(r, 32, HEX)),
        "tok",
    ),
    (
        "sentry_auth_token",
        ["Sentry (release uploads)", "sentry-cli"],
        ["SENTRY_AUTH_TOKEN"],
        "auth token",
        _tok(lambda r: "sntr" + "yu_" + _rs(r, 64, HEX)),
        "tok",
    ),
    (
        "mailgun_api_key",
        ["Mailgun", "Mailgun (report cards)"],
        ["MAILGUN_API_KEY"],
        "API key",
        _tok(lambda r: "key" + "-" + _rs(r, 32, HEX)),
        "tok",
    ),
    (
        "cloudflare_api_token",
        ["Cloudflare", "Cloudflare DNS"],
        ["CF_API_TOKEN", "CLOUDFLARE_API_TOKEN"],
        "API token",
        _tok(lambda r: _rs(r, 40, URLB64)),
        "tok",
    ),
    (
        "zoom_client_secret",
        ["Zoom Server-to-Server app", "Zoom board meeting app"],
        ["ZOOM_CLIENT_SECRET"],
        "client secret",
        _tok(lambda r: _rs(r, 32, AL)),
        "tok",
    ),
    (
        "jwt_signing_secret",
        ["parent portal", "kiosk API", "bus app API"],
        ["JWT_SECRET", "JWT_SIGNING_KEY"],
        "signing secret",
        _tok(lambda r: _rs(r, r.choice([32, 48, 64]), AL + "-_")),
        "tok",
    ),
    (
        "django_secret_key",
        ["Django helpdesk", "Django asset tracker"],
        ["DJANGO_SECRET_KEY", "SECRET_KEY"],
        "SECRET_KEY",
        _tok(
            lambda r: (
                "django-insecure-" * r.randint(0, 1)
                + _rs(r, 50, string.ascii_lowercase + string.digits + "!@#%^&*(-_=+)")
            )
        ),
        "tok",
    ),
    (
        "ansible_vault_password",
        ["Ansible vault", "ansible .vault_pass"],
        ["ANSIBLE_VAULT_PASSWORD"],
        "vault password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "vcenter_password",
        ["vCenter administrator@vsphere.local", "ESXi root"],
        ["VSPHERE_PASSWORD", "GOVC_PASSWORD"],
        "password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "veeam_encryption_password",
        ["Veeam backup job encryption", "Veeam offsite job"],
        ["VEEAM_ENC_PASSWORD"],
        "encryption password",
        _same(lambda r: _pw(r)),
        "pw",
    ),
    (
        "openssh_private_key",
        ["deploy key for ansible", "ssh key for switch backups", "CI deploy key"],
        ["SSH_PRIVATE_KEY", "DEPLOY_KEY"],
        "private key",
        _v_openssh,
        "pem",
    ),
    (
        "rsa_private_key",
        [
            "SAML signing key (ClassLink SSO)",
            "TLS key for portal.district.k12.us",
            "ADFS token signing",
        ],
        ["SAML_SP_KEY", "TLS_KEY"],
        "private key",
        _v_rsa,
        "pem",
    ),
]


# ---------------------------------------------------------------- templates for positives
# each template: fn(r, svc, var, label, disp) -> text ; tags say which value types it fits

TPL = []


def _t(*types):
    def deco(f):
        TPL.append((f, set(types)))
        return f

    return deco


G = ("tok", "pw", "url")


@_t(*G)
def _t_note(r, svc, var, label, disp):
    return f"{svc} {label}: {disp} (rotated {_date(r)} by {r.choice(PEOPLE)})"


@_t(*G)
def _t_lesson(r, svc, var, label, disp):
    return (
        f"Lesson: the {r.choice(['nightly', '5am', 'hourly'])} {svc} sync died because the {label} had been "
        f"regenerated during summer rollover. Current value is {disp} -- next time update the scheduled task too."
    )


@_t(*G)
def _t_runbook(r, svc, var, label, disp):
    return (
        f"Runbook: re-link {svc} after rollover\n1. Log into the admin console as itadmin\n"
        f"2. Paste the {label} `{disp}` into Settings > Integrations\n3. Run a test sync for {r.choice(SCHOOLS)}\n"
        "4. Check the error report the next morning"
    )


@_t(*G)
def _t_todo(r, svc, var, label, disp):
    return f"TODO({r.choice(PEOPLE)}): move {var}={disp} out of the shared drive doc into Bitwarden before the {r.choice(['audit', 'board meeting', 'E-rate review'])}"


@_t(*G)
def _t_handover(r, svc, var, label, disp):
    return (
        f"Handover for {r.choice(PEOPLE)} (I'm out {_date(r)}):\n- {r.choice(SCHOOLS)} cart refresh is done\n"
        f"- {svc}: {label} is {disp}\n- ticket #{r.randint(10000, 99999)} still waiting on the vendor"
    )


@_t(*G)
def _t_ticket(r, svc, var, label, disp):
    return (
        f"Ticket #{r.randint(10000, 99999)} [{r.choice(SCHOOLS)}] {svc} not syncing\nTech notes: vendor support asked "
        f"for the {label}, sent {disp} over the phone. Resolved after re-auth."
    )


@_t(*G)
def _t_email(r, svc, var, label, disp):
    return (
        f"From: {r.choice(PEOPLE).lower()}@district.k12.us\nSubject: {svc} credentials for the new tech\n\n"
        f"Hi,\nHere's the {label} you asked for: {disp}\nPlease don't forward this.\n\nThanks"
    )


@_t(*G)
def _t_chat(r, svc, var, label, disp):
    a, b = r.sample(PEOPLE, 2)
    return f"[{r.randint(7, 16)}:{r.randint(10, 59)}] {a}: what's the {svc} {label} again?\n[{r.randint(7, 16)}:{r.randint(10, 59)}] {b}: {disp}"


@_t(*G)
def _t_es(r, svc, var, label, disp):
    return f"Nota para el equipo de {r.choice(SCHOOLS)}: la credencial de {svc} ({label}) es {disp}. No la compartan con los maestros."


@_t(*G)
def _t_vi(r, svc, var, label, disp):
    return f"Ghi chú: {label} của {svc} đã được đổi ngày {_date(r)}. Giá trị mới: {disp}"


@_t(*G)
def _t_so(r, svc, var, label, disp):
    return f"Xusuusin: {svc} {label} cusub waa {disp} - ha la wadaagin ardayda."


@_t(*G)
def _t_uk(r, svc, var, label, disp):
    return f"Нотатка: {label} для {svc} — {disp}. Оновлено {_date(r)}, не пересилати поштою."


@_t(*G)
def _t_ht(r, svc, var, label, disp):
    return f"Nòt pou ekip IT a: nouvo {label} pou {svc} se {disp}. Pa bay pèsonn li."


@_t(*G)
def _t_zh(r, svc, var, label, disp):
    return f"备忘：{svc} 的 {label} 已更新为 {disp}，请勿发到家长群。"


@_t(*G)
def _t_decision(r, svc, var, label, disp):
    return (
        f"Decision {_date(r)}: keep {svc} on the legacy integration until June. Interim {label}: {disp}. "
        "Revisit once the state reporting window closes."
    )


@_t(*G)
def _t_env(r, svc, var, label, disp):
    return f"# {svc}\n{var}={disp}\nSYNC_SCHEDULE=0 5 * * *\nLOG_LEVEL={r.choice(['info', 'debug', 'warn'])}"


@_t(*G)
def _t_json(r, svc, var, label, disp):
    return (
        "{\n"
        f'  "integration": "{svc}",\n  "school_year": "{r.randint(2025, 2027)}-{r.randint(26, 28)}",\n'
        f'  "{var.lower()}": "{disp}",\n  "dry_run": {r.choice(["true", "false"])}\n}}'
    )


@_t(*G)
def _t_yaml(r, svc, var, label, disp):
    return f'# {svc}\nsync:\n  enabled: true\n  batch_size: {r.choice([100, 250, 500])}\n  {var.lower()}: "{disp}"\n'


@_t(*G)
def _t_ini(r, svc, var, label, disp):
    return f"[{svc.split()[0].lower()}]\nhost = {_ip(r)}\n{var.lower()} = {disp}\ntimeout = {r.randint(10, 90)}"


@_t(*G)
def _t_ps(r, svc, var, label, disp):
    return (
        f"# {svc} nightly job\n$ErrorActionPreference = 'Stop'\n${var.replace('_', '')} = '{disp}'\n"
        f"Start-Transcript -Path C:\\Scripts\\logs\\{r.randint(1, 999)}.log"
    )


@_t(*G)
def _t_py(r, svc, var, label, disp):
    return f'# settings_local.py -- {svc}\nDEBUG = False\n{var} = "{disp}"\nALLOWED_SCHOOLS = {r.sample(range(100, 140), 3)}'


@_t(*G)
def _t_tf(r, svc, var, label, disp):
    return (
        f'# terraform.tfvars ({svc})\nregion = "us-west-2"\n{var.lower()} = "{disp}"\ncampus_count = {r.randint(8, 40)}'
    )


@_t(*G)
def _t_gamcfg(r, svc, var, label, disp):
    return f"[{r.choice(['district', 'staff', 'students'])}]\ndomain = {r.choice(['district.k12.us', 'students.district.k12.us'])}\n# {svc}\n{var.lower()} = {disp}\nnum_threads = {r.choice([5, 10, 20])}"


@_t(*G)
def _t_cli_export(r, svc, var, label, disp):
    return f"itadmin@jump01:~$ export {var}='{disp}'\nitadmin@jump01:~$ ./sync.sh --school {r.randint(100, 140)}\n[ok] {r.randint(10, 4000)} records pushed"


@_t(*G)
def _t_ps_session(r, svc, var, label, disp):
    return (
        f'PS C:\\Scripts> $env:{var} = "{disp}"\nPS C:\\Scripts> .\\Invoke-{svc.split()[0].replace("(", "")}Sync.ps1 -Verbose\n'
        f"VERBOSE: processed {r.randint(10, 900)} users"
    )


@_t(*G)
def _t_log(r, svc, var, label, disp):
    return (
        f"{_ts(r)} INFO  loading config for {svc}\n{_ts(r)} DEBUG {var.lower()}={disp}\n"
        f"{_ts(r)} WARN  retrying request ({r.randint(1, 5)}/5)"
    )


@_t(*G)
def _t_ci(r, svc, var, label, disp):
    return (
        f"Run ./deploy.sh\n+ set -x\n+ export {var}={disp}\n+ python sync.py --env prod\n"
        f"Job #{r.randint(1000, 99999)} finished in {r.randint(10, 300)}s"
    )


@_t(*G)
def _t_db(r, svc, var, label, disp):
    return (
        "helpdesk=> SELECT name, value FROM integration_settings WHERE name LIKE '%secret%';\n"
        f"     name      |  value\n---------------+---------\n {var.lower()} | {disp}\n({r.randint(1, 1)} row)"
    )


@_t(*G)
def _t_docker(r, svc, var, label, disp):
    return f'$ docker inspect {svc.split()[0].lower()}-sync --format "{{{{.Config.Env}}}}"\n[TZ=America/Chicago {var}={disp} PORT={r.randint(3000, 9000)}]'


@_t("tok")
def _t_curl(r, svc, var, label, disp):
    return (
        f"$ curl -v https://api.{r.choice(['vendor', 'sync', 'partner'])}.example.com/v{r.randint(1, 3)}/status \\\n"
        f'    -H "Authorization: Bearer {disp}"\n> GET /v1/status HTTP/2\n> Authorization: Bearer {disp}\n'
        f"< HTTP/2 {r.choice([200, 401, 403])}"
    )


@_t("tok")
def _t_k8s(r, svc, var, label, disp):
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc.split()[0].lower()}-creds\nstringData:\n  {var.lower()}: {disp}\n"


@_t("pw")
def _t_sshpass(r, svc, var, label, disp):
    return (
        f"# backup for {svc}\nsshpass -p '{disp}' ssh admin@{_ip(r)} 'show running-config' > sw-{r.randint(1, 60)}.cfg"
    )


@_t("pw")
def _t_netuser(r, svc, var, label, disp):
    return f"PS C:\\> $pw = ConvertTo-SecureString '{disp}' -AsPlainText -Force\nPS C:\\> Set-ADAccountPassword -Identity svc_{r.choice(WORDS)} -NewPassword $pw -Reset"


@_t("url")
def _t_connerr(r, svc, var, label, disp):
    return f"{_ts(r)} ERROR {svc}: connection failed using {disp} (timeout after {r.randint(5, 60)}s)"


# PEM-only templates (multi-line)


def _indent(s, n):
    return "\n".join(" " * n + ln for ln in s.splitlines())


@_t("pem")
def _p_note(r, svc, var, label, disp):
    return f"{svc} {label} (regenerated {_date(r)}), paste into the sync server:\n{disp}\n"


@_t("pem")
def _p_yaml(r, svc, var, label, disp):
    block = _indent(disp, 2)
    text = f"# {svc}\n{var.lower()}: |\n{block}\nrotate_after_days: {r.choice([90, 180, 365])}"
    return text, block.strip()  # secret: BEGIN line to END line as it appears


@_t("pem")
def _p_cat(r, svc, var, label, disp):
    return f"itadmin@jump01:~$ cat ~/.keys/{r.choice(WORDS)}_{r.randint(1, 99)}.pem\n{disp}\nitadmin@jump01:~$"


@_t("pem")
def _p_tf(r, svc, var, label, disp):
    return f'resource "local_sensitive_file" "{r.choice(WORDS)}" {{\n  filename = "{var.lower()}.pem"\n  content  = <<-EOT\n{disp}\nEOT\n}}'


@_t("pem")
def _p_py(r, svc, var, label, disp):
    return f'# {svc}\n{var} = """{disp}"""\nTIMEOUT = {r.randint(5, 60)}'


@_t("pem")
def _p_chat(r, svc, var, label, disp):
    a, b = r.sample(PEOPLE, 2)
    return f"{a}: can you send me the {svc} {label}?\n{b}: here, delete after use\n{disp}"


@_t("pem")
def _p_es(r, svc, var, label, disp):
    return f"Llave privada de {svc} para {r.choice(SCHOOLS)}:\n{disp}\nGuardar en el servidor, no en el correo."


@_t("pem")
def _p_ticket(r, svc, var, label, disp):
    return f"Ticket #{r.randint(10000, 99999)}: {svc} cert renewal\nAttached {label} below:\n{disp}\nStatus: closed"


@_t("pem")
def _p_ci(r, svc, var, label, disp):
    return f'Run echo "${var}" > key.pem\n+ cat key.pem\n{disp}\n+ chmod 600 key.pem'


def _positives(r, seen):
    out = []
    for kind, svcs, vars_, label, maker, typ in KINDS:
        tpls = [f for f, ts in TPL if typ in ts]
        order = tpls[:]
        r.shuffle(order)
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > 2000:
                raise RuntimeError(kind)
            f = order[(got + tries) % len(order)]
            disp, secret = maker(r)
            text = f(r, r.choice(svcs), r.choice(vars_), label, disp)
            if isinstance(text, tuple):  # template re-indented the value
                text, secret = text
            if secret not in text:
                raise AssertionError((kind, f.__name__))
            if text in seen:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            got += 1
    return out


# ---------------------------------------------------------------- look-alikes

_LOOK = []


def _look(f):
    _LOOK.append(f)
    return f


def _sha(r, n=64):
    return _rs(r, n, HEX)


@_look
def _l_commit(r):
    return f"Deployed roster-sync {_sha(r, 40)} to prod on {_date(r)}; rollback target is {_sha(r, 7)}."


@_look
def _l_sha256_img(r):
    return f"ChromeOS recovery image for {r.choice(['Lenovo 100e', 'Dell 3110', 'HP G5'])}: sha256 {_sha(r)} -- verified before imaging {r.choice(SCHOOLS)} carts."


@_look
def _l_md5(r):
    return f"PaperCut MF {r.randint(20, 23)}.{r.randint(0, 9)} installer md5: {_sha(r, 32)}"


@_look
def _l_reqid(r):
    return f"{_ts(r)} WARN Canvas API 429 x-request-id={_uuid(r)} retry in {r.randint(1, 30)}s"


@_look
def _l_dataimg(r):
    return (
        f'<img alt="{r.choice(MASCOTS)} logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{_rs(r, 120, B64)}=">'
    )


@_look
def _l_bcrypt(r):
    return f"pos=# SELECT username, pin_hash FROM cashiers LIMIT 1;\n username | pin_hash\n {r.choice(WORDS)} | $2b$12${_rs(r, 53, AL + './')}"


@_look
def _l_argon(r):
    return f"parent_portal.users.password = $argon2id$v=19$m=65536,t=3,p=4${_rs(r, 22, B64)}${_rs(r, 43, B64)}"


@_look
def _l_ansible_vault(r):
    lines = "\n".join(_sha(r, 80) for _ in range(r.randint(3, 5)))
    return f"radius_secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n{_indent(lines, 2)}"


@_look
def _l_sops(r):
    return f"meraki_api_key: ENC[AES256_GCM,data:{_rs(r, 56, B64)}=,iv:{_rs(r, 43, B64)}=,tag:{_rs(r, 22, B64)}==,type:str]"


@_look
def _l_placeholder(r):
    return f"CANVAS_API_TOKEN=<your-canvas-token>\nCANVAS_BASE_URL=https://{r.choice(WORDS)}.instructure.com\n# fill in from Account > Settings"


@_look
def _l_envref(r):
    return f"clever:\n  district_token: ${{CLEVER_DISTRICT_TOKEN}}\n  district_id: {_sha(r, 24)}"


@_look
def _l_gha(r):
    return f"- name: Push rosters\n  env:\n    CLASSLINK_SECRET: ${{{{ secrets.CLASSLINK_SECRET }}}}\n  run: python push.py --term {r.randint(1, 4)} --school {r.randint(100, 140)}"


@_look
def _l_kv_ref(r):
    return f"TWILIO_AUTH_TOKEN=@Microsoft.KeyVault(SecretUri=https://kv-{r.choice(WORDS)}.vault.azure.net/secrets/twilio-auth/{_sha(r, 32)})"


@_look
def _l_vault_cli(r):
    return f"itadmin@jump01:~$ vault kv get -field=password secret/network/{r.choice(['aruba', 'meraki', 'radius'])}-{r.randint(1, 40)}\n(copied to clipboard)"


@_look
def _l_airflow(r):
    return f'ps_secret = Variable.get("powerschool_client_secret")  # dag run {r.randint(100, 9999)}'


@_look
def _l_dbutils(r):
    return (
        f'token = dbutils.secrets.get(scope="{r.choice(["sis", "lms", "ops"])}", key="canvas-token-{r.randint(1, 99)}")'
    )


@_look
def _l_masked(r):
    return f"Run ./deploy.sh\n+ export MERAKI_API_KEY=***\n+ export TWILIO_AUTH_TOKEN=***\nJob #{r.randint(1000, 99999)} ok"


@_look
def _l_changeme(r):
    return f"Vendor guide p.{r.randint(3, 80)}: the door panel ships with admin / changeme; the installer must set a new one at handoff (done for {r.choice(SCHOOLS)})."


@_look
def _l_stripe_pk(r):
    return f"STRIPE_PUBLISHABLE_KEY={'pk' + '_live_' + _rs(r, 99)}  # safe for the lunch-payments frontend"


@_look
def _l_google_client_id(r):
    return f"GAM client id: {r.randint(10**11, 10**12)}-{_rs(r, 32, LOW)}.apps.googleusercontent.com (scopes approved in Admin console)"


@_look
def _l_firebase(r):
    return (
        "const firebaseConfig = {\n"
        f'  apiKey: "{"AI" + "za" + "Sy" + _rs(r, 33, URLB64)}",\n  authDomain: "bus-tracker-{r.randint(100, 999)}.firebaseapp.com",\n'
        f'  projectId: "bus-tracker-{r.randint(100, 999)}",\n  appId: "1:{r.randint(10**11, 10**12)}:web:{_sha(r, 22)}"\n}};'
    )


@_look
def _l_recaptcha(r):
    return f'<div class="g-recaptcha" data-sitekey="6L{_rs(r, 38, URLB64)}"></div> <!-- enrollment form -->'


@_look
def _l_sentry_dsn(r):
    return f"SENTRY_DSN=https://{_sha(r, 32)}@o{r.randint(10**5, 10**6)}.ingest.us.sentry.io/{r.randint(10**6, 10**7)}"


@_look
def _l_algolia(r):
    return f"ALGOLIA_APP_ID={_rs(r, 10, string.ascii_uppercase + string.digits)}\nALGOLIA_SEARCH_ONLY_KEY={_sha(r, 32)}  # public, used by the course catalog page"


@_look
def _l_supabase_anon(r):
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    pay = (
        base64.urlsafe_b64encode(f'{{"iss":"supabase","ref":"{_rs(r, 20, LOW)}","role":"anon"}}'.encode())
        .decode()
        .rstrip("=")
    )
    return f"SUPABASE_ANON_KEY={head}.{pay}.{_rs(r, 43, URLB64)}  # anon key, RLS enforced"


@_look
def _l_cert(r):
    body = "\n".join(["MIID" + _rs(r, 60, B64)] + [_rs(r, 64, B64) for _ in range(r.randint(4, 8))])
    return f"portal.district.k12.us public cert:\n-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----"


@_look
def _l_sshpub(r):
    return f"ansible authorized_keys: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_rs(r, 43, B64)} {r.choice(PEOPLE).lower()}@it-laptop"


@_look
def _l_hostfp(r):
    return f"The authenticity of host 'sw-core-{r.randint(1, 9)} ({_ip(r)})' can't be established.\nED25519 key fingerprint is SHA256:{_rs(r, 43, B64)}."


@_look
def _l_gpgfp(r):
    return f"Signed the release with key {' '.join(_rs(r, 4, UHEX) for _ in range(10))}"


@_look
def _l_thumbprint(r):
    return f"PS C:\\> Get-ChildItem Cert:\\LocalMachine\\My\n\nThumbprint                                Subject\n----------                                -------\n{_rs(r, 40, UHEX)}  CN=radius.district.k12.us"


@_look
def _l_tenant(r):
    return f"Entra app 'Intune Sync': tenant id {_uuid(r)}, application (client) id {_uuid(r)}, object id {_uuid(r)}"


@_look
def _l_meraki_ids(r):
    return f"Meraki org {r.randint(10**5, 10**6)} network L_{r.randint(10**17, 10**18)} (Eastview HS), AP serial Q2{_rs(r, 2, string.ascii_uppercase)}-{_rs(r, 4, string.ascii_uppercase + string.digits)}-{_rs(r, 4, string.ascii_uppercase + string.digits)}"


@_look
def _l_arn(r):
    return (
        f"Backup bucket policy principal arn:aws:iam::{r.randint(10**11, 10**12)}:role/veeam-offsite-{r.choice(WORDS)}"
    )


@_look
def _l_digest(r):
    return f"image: ghcr.io/district-it/roster-sync@sha256:{_sha(r)}"


@_look
def _l_integrity(r):
    return f'"node_modules/axios": {{ "version": "1.{r.randint(0, 9)}.{r.randint(0, 9)}", "integrity": "sha512-{_rs(r, 86, B64)}==" }}'


@_look
def _l_nbcount(r):
    return f'{{"cell_type": "code", "execution_count": {r.randint(1, 300)}, "id": "{_sha(r, 8)}", "source": ["df = pd.read_csv(\\"attendance.csv\\")"]}}'


@_look
def _l_wandb(r):
    return f"wandb: Synced reading-level-{r.choice(WORDS)}: https://wandb.ai/district-ds/early-warning/runs/{_rs(r, 8, LOW)}"


@_look
def _l_mlflow(r):
    return f"MLflow run_id={_sha(r, 32)} experiment_id={r.randint(1, 40)} metric auc={r.random():.3f}"


@_look
def _l_hfmodel(r):
    return f"Using model {r.choice(['distilbert-base-uncased', 'sentence-transformers/all-MiniLM-L6-v2', 'facebook/bart-large-cnn'])} revision {_sha(r, 40)} for ticket triage"


@_look
def _l_serials(r):
    return "Chromebooks returned to depot: " + ", ".join(
        _rs(r, 8, string.ascii_uppercase + string.digits) for _ in range(r.randint(3, 6))
    )


@_look
def _l_macs(r):
    return "Badge printers (allow in ClearPass MAC auth): " + ", ".join(
        ":".join(_rs(r, 2, HEX) for _ in range(6)) for _ in range(3)
    )


@_look
def _l_twilio_sid(r):
    return f"Twilio account SID {'A' + 'C' + _sha(r, 32)}, messaging service {'M' + 'G' + _sha(r, 32)} (ids only; auth token lives in Key Vault)"


@_look
def _l_winsid(r):
    return f"Orphaned SID in share ACL: S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**8, 10**9)}-{r.randint(1000, 90000)}"


@_look
def _l_bitlocker_id(r):
    return f"BitLocker key ID for asset {r.randint(10000, 99999)}: {{{_uuid(r, True)}}} -- recovery password is in Entra, look it up there."


@_look
def _l_cisco_hash(r):
    return f"enable secret 9 $9${_rs(r, 14, AL + './')}${_rs(r, 43, AL + './')}\nusername netadmin privilege 15 secret 5 $1${_rs(r, 4, AL)}${_rs(r, 22, AL + './')}"


@_look
def _l_ldap_ssha(r):
    return f"dn: uid={r.choice(WORDS)},ou=kiosk,dc=district,dc=local\nuserPassword: {{SSHA}}{_rs(r, 32, B64)}"


@_look
def _l_pbkdf2(r):
    return f"auth_user.password = pbkdf2_sha256$870000${_rs(r, 22, AL)}${_rs(r, 43, B64)}="


@_look
def _l_shadow(r):
    return f"root:$6${_rs(r, 16, AL + './')}${_rs(r, 86, AL + './')}:{r.randint(19000, 20500)}:0:99999:7:::"


@_look
def _l_jwks_kid(r):
    return f'ClassLink JWKS: {{"kty":"RSA","kid":"{_sha(r, 40)}","use":"sig","alg":"RS256","e":"AQAB"}}'


@_look
def _l_sa_keyid(r):
    return f"GAM service account gam-project-{_rs(r, 5, LOW)}@gam-project-{_rs(r, 5, LOW)}.iam.gserviceaccount.com, private_key_id {_sha(r, 40)} (key file itself is on the GAM box only)"


@_look
def _l_tfstate(r):
    return f'{{"version": 4, "terraform_version": "1.{r.randint(5, 9)}.{r.randint(0, 5)}", "serial": {r.randint(1, 400)}, "lineage": "{_uuid(r)}"}}'


@_look
def _l_secretkeyref(r):
    return f"env:\n  - name: SAMSARA_API_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: busgps-{r.choice(WORDS)}\n        key: token"


@_look
def _l_b64config(r):
    data = f"district={r.choice(WORDS)};schools={r.randint(5, 40)};term={r.randint(1, 4)}".encode()
    return f"binaryData:\n  settings.conf: {base64.b64encode(data).decode()}"


@_look
def _l_dpapi(r):
    return f"PS C:\\> Get-Content .\\svc.cred\n01000000d08c9ddf0115d1118c7a00c04fc297eb01000000{_sha(r, 160)}"


@_look
def _l_extid(r):
    return f"Force-install GoGuardian extension {_rs(r, 32, 'abcdefghijklmnop')} and Securly {_rs(r, 32, 'abcdefghijklmnop')} via Google Admin > Apps & extensions."


@_look
def _l_udid(r):
    return f"Jamf School device UDID 0000{r.randint(8000, 8199)}-{_rs(r, 16, UHEX)} (iPad cart {r.randint(1, 30)})"


@_look
def _l_imei(r):
    return f"LTE hotspot IMEI {r.randint(10**14, 10**15)} assigned to bus {r.randint(1, 90)}"


@_look
def _l_lfs(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_sha(r)}\nsize {r.randint(10**4, 10**8)}"


@_look
def _l_hubsig(r):
    return f"{_ts(r)} INFO webhook received X-Hub-Signature-256: sha256={_sha(r)} delivery={_uuid(r)} verified=ok"


@_look
def _l_etag(r):
    return f'< HTTP/2 200\n< etag: "{_sha(r, 32)}"\n< x-amz-version-id: {_rs(r, 32, URLB64)}\n< content-length: {r.randint(100, 99999)}'


@_look
def _l_msgsid(r):
    return f"{_ts(r)} INFO snow-day blast: {r.randint(100, 9000)} SMS queued, first sid {'S' + 'M' + _sha(r, 32)} status=queued"


@_look
def _l_last4(r):
    return f"Stripe dashboard shows secret key {'sk' + '_live_'}...{_rs(r, 4)} created {_date(r)}; rolled and the old one revoked."


@_look
def _l_pgp_msg(r):
    body = "\n".join(_rs(r, 64, B64) for _ in range(r.randint(3, 6)))
    return f"Encrypted handover for the auditor:\n-----BEGIN PGP MESSAGE-----\n\nhQIMA{_rs(r, 59, B64)}\n{body}\n={_rs(r, 4, B64)}\n-----END PGP MESSAGE-----"


@_look
def _l_tf_sensitive(r):
    return f'Outputs:\n\nazure_client_id = "{_uuid(r)}"\nazure_client_secret = <sensitive>\nresource_group = "rg-k12-{r.choice(WORDS)}"'


@_look
def _l_gam_redacted(r):
    return f"$ gam oauth info\nClient ID: {r.randint(10**11, 10**12)}-{_rs(r, 32, LOW)}.apps.googleusercontent.com\nSecret: (redacted)\nScopes ({r.randint(30, 60)})"


@_look
def _l_ulid(r):
    return f"Helpdesk event {_rs(r, 26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')} created for {r.choice(SCHOOLS)} projector outage"


@_look
def _l_drive_id(r):
    return f"Bell schedule doc: https://docs.google.com/document/d/1{_rs(r, 43, URLB64)}/edit"


@_look
def _l_youtube(r):
    return f"Board meeting stream: https://www.youtube.com/watch?v={_rs(r, 11, URLB64)} (captions fixed)"


@_look
def _l_empty_env(r):
    return f"# .env.example\nSECURLY_API_KEY=\nGOGUARDIAN_TOKEN=\nSYNC_HOUR={r.randint(0, 23)}"


@_look
def _l_your_key(r):
    return f"curl -H 'X-Cisco-Meraki-API-Key: YOUR_API_KEY_HERE' https://api.meraki.com/api/v1/organizations/{r.randint(10**5, 10**6)}/networks"


@_look
def _l_op_ref(r):
    return f"RADIUS_SECRET=op://IT-Network/{r.choice(['ClearPass', 'NPS', 'Aruba'])}-{r.randint(1, 30)}/shared-secret"


@_look
def _l_ado_build(r):
    return f"Azure DevOps build {r.randint(10**4, 10**6)} (pipeline {r.randint(1, 90)}, commit {_sha(r, 40)}) succeeded"


@_look
def _l_gha_run(r):
    return f"https://github.com/district-it/oneroster-tools/actions/runs/{r.randint(10**9, 10**10)}/job/{r.randint(10**10, 10**11)}"


@_look
def _l_canvas_ids(r):
    return f"Canvas course {r.randint(1000, 99999)} sis_course_id={r.randint(2025, 2027)}-{r.choice(['ALG1', 'BIO', 'ENG9', 'APUSH'])}-{r.randint(1, 9)}, developer key id {r.randint(10**13, 10**14)}"


@_look
def _l_kms(r):
    return f"Backups encrypted with KMS key alias/veeam-offsite, key id {_uuid(r)} (rotation enabled)"


@_look
def _l_pwd_policy(r):
    return f"Staff password policy from {_date(r)}: min {r.choice([12, 14, 16])} chars, no reuse of last {r.randint(5, 24)}, MFA required for SIS admins."


@_look
def _l_psk_rotated(r):
    return f"Rotated the {r.choice(['Staff-Secure', 'DISTRICT-STAFF', 'IoT'])} PSK on {_date(r)}; new value is in the Bitwarden item 'Wi-Fi / {r.choice(SCHOOLS)}'."


@_look
def _l_hex_color(r):
    return f"Brand colors for the parent app: primary #{_rs(r, 6, HEX)}, accent #{_rs(r, 6, HEX)}, build {_sha(r, 12)}"


@_look
def _l_uuid_student(r):
    return f"OneRoster sourcedId for user {r.randint(100000, 999999)}: {_uuid(r)} (matches Clever id {_sha(r, 24)})"


@_look
def _l_clever_ids(r):
    return f"Clever district id {_sha(r, 24)}, school ids {_sha(r, 24)} and {_sha(r, 24)}"


@_look
def _l_azure_pipeline_mask(r):
    return f"##[debug]Setting secret variable SchoolMessengerPassword\n##[command]sm-cli login --user api_user --password ***\nlogin ok ({r.randint(10, 900)} ms)"


@_look
def _l_docs_example_aws(r):
    return f"From the AWS docs (example only): aws_secret_access_key = {'wJalrXUtnFEMI/' + 'K7MDENG/' + 'bPxRfiCY' + 'EXAMPLEKEY'} -- our real one is in SSM /ops/backup/{r.choice(WORDS)}"


@_look
def _l_jwt_doc(r):
    return f"jwt.io debugger sample token uses secret 'your-256-bit-secret' -- do not copy; portal uses RS256 with key id {_sha(r, 16)}"


@_look
def _l_pubkey_pem(r):
    body = "\n".join(
        ["MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + _rs(r, 20, B64)] + [_rs(r, 64, B64) for _ in range(5)]
    )
    return f"SAML IdP public key from ClassLink metadata:\n-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----"


@_look
def _l_vi_ref(r):
    return f"Ghi chú: mật khẩu Wi-Fi mới của {r.choice(SCHOOLS)} được lưu trong Bitwarden, mục 'Staff-Secure-{r.randint(1, 60)}'. Không ghi ra giấy."


@_look
def _l_es_ref(r):
    return f"Nota: el token de Canvas se guarda en Azure Key Vault (kv-{r.choice(WORDS)}), secreto 'canvas-token'. Build {r.randint(100, 999)}."


@_look
def _l_zh_ref(r):
    return f"备忘：Twilio 的 auth token 已移到 Key Vault，脚本里用 $env:TWILIO_AUTH_TOKEN 读取。工单 #{r.randint(10000, 99999)}"


@_look
def _l_uk_ref(r):
    return (
        f"Нотатка: RADIUS secret зберігається у Vault за шляхом secret/network/radius-{r.randint(1, 40)}, не в конфігу."
    )


@_look
def _l_so_ref(r):
    return f"Xusuusin: furaha Meraki API waxaa lagu kaydiyay Bitwarden, qaybta 'Network'. Tikidh #{r.randint(10000, 99999)}"


@_look
def _l_ht_ref(r):
    return f"Nòt: modpas SchoolMessenger la nan Key Vault, sekrè 'sm-api-password'. Chanje l {_date(r)}."


@_look
def _l_crc(r):
    return f"firmware ArubaOS-CX {r.randint(10, 10)}.{r.randint(10, 14)}.{r.randint(1000, 1200)} crc32 {_rs(r, 8, HEX)} sha1 {_sha(r, 40)}"


@_look
def _l_session_cookie_name(r):
    return f"Set cookie name to PS_SESSIONID_{r.choice(['PROD', 'TEST'])} and SameSite=Lax for PowerSchool SSO (ticket #{r.randint(10000, 99999)})."


@_look
def _l_nonce_csp(r):
    return f"Content-Security-Policy: script-src 'self' 'nonce-{_rs(r, 22, B64)}==' https://www.gstatic.com; report-uri /csp/{r.randint(1, 99)}"


@_look
def _l_base64_pdf(r):
    return f'{{"filename": "report_card_{r.randint(1000, 9999)}.pdf", "content": "JVBERi0xLjcKJeLjz9MK{_rs(r, 100, B64)}"}}'


@_look
def _l_git_log(r):
    return "\n".join(
        f"{_sha(r, 7)} {r.choice(['fix roster dedupe', 'bump deps', 'add Somali strings', 'handle 429'])}"
        for _ in range(4)
    )


@_look
def _l_ssm_param(r):
    return f'aws ssm get-parameter --name "/k12/prod/{r.choice(["canvas", "clever", "papercut"])}/token" --with-decryption --query Parameter.Version\n{r.randint(1, 30)}'


@_look
def _l_pwd_reset(r):
    return f"Ticket #{r.randint(10000, 99999)}: {r.choice(PEOPLE)} locked out of PowerSchool. Reset via self-service portal, temp password sent by SMS to the number on file."


@_look
def _l_redacted_conn(r):
    return f"{_ts(r)} INFO connected to postgresql://gps_ingest:********@busgps-db:5432/busgps in {r.randint(5, 200)}ms"


@_look
def _l_env_names(r):
    return f"Required env vars for roster-sync v{r.randint(1, 5)}.{r.randint(0, 20)}: CANVAS_API_TOKEN, CLEVER_DISTRICT_TOKEN, PS_CLIENT_SECRET, SLACK_WEBHOOK_URL"


@_look
def _l_ps_getsecret(r):
    return f"$token = Get-Secret -Name 'Jamf{r.choice(['School', 'Pro'])}ApiKey' -Vault DistrictVault -AsPlainText\n$uri = 'https://api.zuludesk.com/devices?page={r.randint(1, 60)}'\nInvoke-RestMethod -Uri $uri -Headers @{{ Authorization = \"Bearer $token\" }}"


@_look
def _l_py_env(r):
    return (
        f'import os\nMERAKI_KEY = os.environ["MERAKI_DASHBOARD_API_KEY"]\nNETWORK_ID = "L_{r.randint(10**17, 10**18)}"'
    )


@_look
def _l_az_sas_nosig(r):
    return f"SAS policy for container exports: sp=r, se={_date(r)}, spr=https, signed identifier '{r.choice(WORDS)}-readonly' (generate the signature per request)"


@_look
def _l_asset_tags(r):
    return "iPad asset tags scanned: " + " ".join(f"K12-{r.randint(10000, 99999)}" for _ in range(r.randint(4, 8)))


@_look
def _l_otp_policy(r):
    return f"Enabled TOTP for {r.randint(10, 300)} admins; recovery codes are printed and stored in the safe at district office."


@_look
def _l_hash_list(r):
    return "Malicious extension hashes blocked by GoGuardian:\n" + "\n".join(_sha(r) for _ in range(3))


@_look
def _l_mongo_objid(r):
    return f'visitor_app> db.visits.findOne()\n{{ _id: ObjectId("{_sha(r, 24)}"), badge: "{r.randint(1000, 9999)}", school: "{r.choice(SCHOOLS)}" }}'


@_look
def _l_apple_team(r):
    return f"APNs: team id {_rs(r, 10, string.ascii_uppercase + string.digits)}, key id {_rs(r, 10, string.ascii_uppercase + string.digits)}, bundle com.district.busapp (the .p8 is in Key Vault)"


@_look
def _l_gam_output(r):
    return f"$ gam info user {r.choice(WORDS)}@district.k12.us\nUser: {r.choice(WORDS)}@district.k12.us\nGoogle Unique ID: {r.randint(10**20, 10**21)}\nCustomer ID: C0{_rs(r, 7, LOW)}\nIs Admin: False"


@_look
def _l_mssql_noauth(r):
    return f"Server=ICSQL0{r.randint(1, 4)};Database=campus_{r.choice(['prod', 'test', 'train'])};Integrated Security=SSPI;Connect Timeout={r.randint(15, 120)}"


@_look
def _l_webhook_path(r):
    return f"Webhook receiver listens on https://hooks.district.k12.us/inbound/{r.choice(['clever', 'canvas', 'verkada'])}/events (HMAC verified, build {_sha(r, 10)})"


@_look
def _l_snmp_public(r):
    return f"LibreNMS discovery found {r.randint(2, 40)} devices still answering the default 'public' community -- disabled on all of them {_date(r)}."


@_look
def _l_encrypted_pw_config(r):
    return f'<add key="DbPassword" value="ENC({_rs(r, 44, B64)})" /> <!-- jasypt, key in KMS -->'


def _lookalikes(r, seen):
    out = []
    for g in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 500:
                raise RuntimeError(g.__name__)
            t = g(r)
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            got += 1
    return out


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    pos = _positives(r, seen)
    look = _lookalikes(r, seen)
    return pos, look
