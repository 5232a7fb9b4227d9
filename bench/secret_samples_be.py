"""Labelled test set BE for a credential detector: memories of an MSSP SOC team.

Theme
-----
Short texts that an AI coding agent keeps as "memories" while working for a managed security
service provider's SOC: SIEM and log pipelines (Splunk HEC, Elastic/OpenSearch, Graylog, Wazuh,
Sumo Logic), EDR/XDR consoles (CrowdStrike Falcon, SentinelOne, Microsoft Defender app
registrations), SOAR and case management (TheHive, Cortex, Shuffle, Tines), threat intel (MISP,
VirusTotal, Shodan, GreyNoise, AbuseIPDB, URLScan, OTX), sandboxes, honeypots, VPN and jump hosts,
PagerDuty/Opsgenie, Jira/ServiceNow, customer cloud tenants (AWS, Azure, GCP), Git/CI secrets and the
analysts' password manager.  Styles: about half notes/lessons/runbooks/TODOs/timelines/tickets/
emails/chat (mostly English, some French, Japanese, Dutch, Arabic, Romanian), a quarter config
(.env, JSON, YAML, INI, TOML, Splunk .conf, Logstash, shell profiles), a quarter tool output
(CLI sessions, curl -v, service logs, SIEM results, CI logs, DB consoles).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; each text holds exactly one secret, ``secret`` is an
  exact substring of ``text`` (no surrounding quotes); 30 positives per kind.
* ``lookalikes``: texts holding no credential; each generator in ``_LOOK`` contributes
  ``LOOK_PER_GEN`` distinct texts.
* Deterministic per seed (``random.Random`` seeded from the seed only); no duplicate texts.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings / basic-auth URLs: the
  password only.  Pre-signed URLs: the signature.  PEM / OpenSSH private keys: the whole armoured
  block, BEGIN line to END line.  UUID-shaped vendor tokens are secrets only when named as a
  token/key/secret.
* Public-by-design values (publishable/site/search-only keys, Sentry DSNs, OAuth client ids,
  Firebase web apiKeys, public certificates), vendor documentation example values, encrypted blobs
  and password hashes are look-alikes.  Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: prefixes and bodies are assembled at run time.
"""

from __future__ import annotations

import base64
import hashlib
import random
import re
import string

LOOK_PER_GEN = 12
PER_KIND = 30

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
HEX = "0123456789abcdef"
ALNUM = LOW + UP + DIG
LALNUM = LOW + DIG
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def _r(rng, alphabet, n):
    return "".join(rng.choice(alphabet) for _ in range(n))


def _uuid(rng):
    h = _r(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def _b64(rng, nbytes):
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(nbytes))).decode()


CUSTOMERS = [
    "Vandermeer Logistics",
    "Acme Dental",
    "Hôtel Lumière",
    "Nordwind Energie",
    "Kato Seimitsu",
    "Brightwater Council",
    "Petrova Pharma",
    "Al Noor Trading",
    "Cluj Fintech",
    "Oakridge Schools",
    "Bluefin Insurance",
    "Meridian Health",
    "Tanaka Foods",
    "Zuidkust Havens",
    "Atlas Freight",
]
ANALYSTS = [
    "maya",
    "jdupont",
    "k.sato",
    "ruben",
    "amira",
    "ioana",
    "tom.b",
    "lena",
    "omar",
    "dev",
]
HOSTS = [
    "siem01.soc.internal",
    "jump-eu1.mssp.net",
    "wazuh-mgr.corp.local",
    "hec.splunk.soc.lan",
    "es-hot-03.logs.internal",
    "misp.intel.soc",
    "hive.case.soc",
    "cortex.case.soc",
    "vpn.mssp.net",
    "graylog.soc.lan",
    "tpot-hp2.dmz",
    "bastion.prod.mssp.net",
    "opensearch.siem.local",
]
WORDS = [
    "tulip",
    "rover",
    "falcon",
    "granite",
    "harbor",
    "maple",
    "quartz",
    "ember",
    "otter",
    "comet",
    "willow",
    "saffron",
    "badger",
    "cobalt",
    "lantern",
    "meadow",
    "pixel",
    "thunder",
    "velvet",
    "zephyr",
]


def _ip(rng):
    return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


def _date(rng):
    return f"2026-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"


def _time(rng):
    return f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}"


def _password(rng, url_safe=False):
    sym = "!*-_.~" if url_safe else "!%*-_.+=?^~"
    style = rng.randrange(5)
    if style == 0:
        season = rng.choice(["Summer", "Winter", "Spring", "Autumn", "Welkom", "Soleil", "Bucuresti"])
        return f"{season}{rng.randrange(2019, 2028)}{rng.choice('!*.')}"
    if style == 1:
        w = rng.sample(WORDS, 2)
        return f"{w[0]}-{w[1].capitalize()}-{rng.randrange(10, 99)}"
    if style == 2:
        return "-".join(rng.sample(WORDS, 4))
    if style == 3:
        return _r(rng, ALNUM, rng.randrange(14, 22)) + rng.choice(sym) + _r(rng, ALNUM, 3)
    w = rng.choice(WORDS)
    return f"{w.capitalize()}{rng.choice(sym)}{rng.randrange(100, 9999)}{rng.choice(sym)}{_r(rng, UP, 2)}"


def _pem(rng, label):
    lines = [_b64(rng, 48) for _ in range(rng.randrange(8, 14))]
    lines.append(_b64(rng, rng.randrange(10, 40)))
    head = "-----BEGIN " + label + " PRIVATE" + " KEY-----"
    tail = "-----END " + label + " PRIVATE" + " KEY-----"
    return "\n".join([head, *lines, tail])


def _openssh(rng):
    body = "b3BlbnNzaC1rZXktdjEAAAAA" + _b64(rng, 30)
    lines = [body[:70]] + [_b64(rng, 52)[:70] for _ in range(rng.randrange(4, 7))]
    head = "-----BEGIN OPENSSH" + " PRIVATE KEY-----"
    tail = "-----END OPENSSH" + " PRIVATE KEY-----"
    return "\n".join([head, *lines, tail])


# --------------------------------------------------------------------------------------------
# Kinds: name -> (secret maker, env var, service label, mode)
# mode "tok": header/bearer-able token; "pw": password; "url": (value, secret) maker; "pem"
# --------------------------------------------------------------------------------------------


def _tok(f, env, svc):
    return (f, env, svc, "tok")


def _pw(env, svc):
    return (lambda rng: _password(rng), env, svc, "pw")


def _url(f, env, svc):
    return (f, env, svc, "url")


def _pg(rng):
    p = _password(rng, True)
    return (
        f"postgresql://soar_app:{p}@{rng.choice(['pg-soar', 'db-case', 'pg01'])}.soc.internal:5432/shuffle",
        p,
    )


def _mysql(rng):
    p = _password(rng, True)
    return f"mysql://misp:{p}@mysql-intel.soc.lan:3306/misp", p


def _mongo(rng):
    p = _password(rng, True)
    return (
        f"mongodb+srv://cortex_ro:{p}@intel-cluster.{_r(rng, LALNUM, 5)}.mongodb.net/cortex",
        p,
    )


def _redis(rng):
    p = _r(rng, ALNUM, 32)
    return f"redis://default:{p}@redis-queue.soc.internal:6379/2", p


def _basic(rng):
    p = _password(rng, True)
    u = rng.choice(ANALYSTS).replace(".", "")
    return (
        f"https://{u}:{p}@{rng.choice(['jump-eu1.mssp.net', 'sandbox.soc.lan', 'nexus.soc.lan'])}/",
        p,
    )


def _slack_hook(rng):
    s = _r(rng, ALNUM, 24)
    return (
        f"https://hooks.slack.com/services/T{_r(rng, UP + DIG, 8)}/B{_r(rng, UP + DIG, 10)}/{s}",
        s,
    )


def _discord_hook(rng):
    s = _r(rng, B64URL, 68)
    return f"https://discord.com/api/webhooks/{rng.randrange(10**17, 10**18)}/{s}", s


def _tines_hook(rng):
    s = _r(rng, HEX, 32)
    return (
        f"https://{rng.choice(WORDS)}-{_r(rng, LALNUM, 4)}.tines.com/webhook/{_r(rng, HEX, 32)}/{s}",
        s,
    )


def _s3_presigned(rng):
    sig = _r(rng, HEX, 64)
    u = (
        f"https://ir-evidence-{_r(rng, LALNUM, 6)}.s3.eu-west-1.amazonaws.com/case-{rng.randrange(1000, 9999)}/memdump.raw"
        f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261{rng.randrange(0, 2)}0{rng.randrange(1, 9)}T101500Z"
        f"&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature={sig}"
    )
    return u, sig


def _azure_sas(rng):
    sig = (
        base64.b64encode(bytes(rng.randrange(256) for _ in range(32)))
        .decode()
        .replace("+", "%2B")
        .replace("/", "%2F")
        .replace("=", "%3D")
    )
    u = (
        f"https://socevidence{_r(rng, LALNUM, 4)}.blob.core.windows.net/triage/pcap-{rng.randrange(100, 999)}.zip"
        f"?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-{rng.randrange(10, 28)}T18:00:00Z&spr=https&sig={sig}"
    )
    return u, sig


def _splunk_hec(rng):
    return _uuid(rng).upper() if rng.random() < 0.5 else _uuid(rng)


def _elastic_key(rng):
    raw = _r(rng, B64URL, 20) + ":" + _r(rng, B64URL, 22)
    return base64.b64encode(raw.encode()).decode()


def _azure_secret(rng):
    return _r(rng, ALNUM, 3) + "8Q~" + _r(rng, ALNUM + "~._-", 34)


def _jira(rng):
    return "ATA" + "TT3xFfGF0" + _r(rng, B64URL, 170) + "=" + _r(rng, HEX.upper(), 8)


def _gh(rng):
    return "gh" + "p_" + _r(rng, ALNUM, 36)


def _ghfg(rng):
    return "github" + "_pat_" + "11" + _r(rng, UP + DIG, 20) + "_" + _r(rng, ALNUM, 59)


def _glpat(rng):
    return "gl" + "pat-" + _r(rng, B64URL, 20)


def _glrt(rng):
    return "gl" + "rt-" + _r(rng, B64URL, 20)


def _slackbot(rng):
    return (
        "xo"
        + "xb-"
        + str(rng.randrange(10**11, 10**12))
        + "-"
        + str(rng.randrange(10**12, 10**13))
        + "-"
        + _r(rng, ALNUM, 24)
    )


def _vault(rng):
    return "hv" + "s." + _r(rng, B64URL, 90)


def _npm(rng):
    return "np" + "m_" + _r(rng, ALNUM, 36)


def _pypi(rng):
    return "py" + "pi-" + "AgEIcHlwaS5vcmc" + _r(rng, B64URL, 150)


def _docker(rng):
    return "dckr" + "_pat_" + _r(rng, B64URL, 27)


def _op(rng):
    return "op" + "s_" + "eyJ" + _r(rng, B64URL, 300)


def _sentry(rng):
    return "sntry" + "u_" + _r(rng, HEX, 64)


def _tg(rng):
    return f"{rng.randrange(10**9, 8 * 10**9)}:AA{_r(rng, B64URL, 33)}"


def _okta(rng):
    return "00" + _r(rng, B64URL, 40)


def _wg(rng):
    return _b64(rng, 32)


def _azstorage(rng):
    return _b64(rng, 64)


def _gapi(rng):
    return "AI" + "za" + _r(rng, B64URL, 35)


def _s1(rng):
    return "eyJ" + "rIjoi" + _r(rng, B64URL, 140)


def _pd(rng):
    return _r(rng, ALNUM + "_-+", 20)


def _aws_secret(rng):
    return _r(rng, B64, 40)


def _tines(rng):
    return _r(rng, HEX, 32) if rng.random() < 0.5 else _r(rng, ALNUM, 40)


KINDS = {
    "splunk_hec_token": _tok(_splunk_hec, "SPLUNK_HEC_TOKEN", "Splunk HEC"),
    "splunk_admin_password": _pw("SPLUNK_PASSWORD", "Splunk admin"),
    "elastic_api_key": _tok(_elastic_key, "ELASTIC_API_KEY", "Elastic"),
    "elastic_password": _pw("ELASTIC_PASSWORD", "Elasticsearch elastic user"),
    "opensearch_password": _pw("OPENSEARCH_PASSWORD", "OpenSearch admin"),
    "graylog_api_token": _tok(lambda r: _r(r, LALNUM, 52), "GRAYLOG_API_TOKEN", "Graylog"),
    "wazuh_api_password": _pw("WAZUH_API_PASSWORD", "Wazuh API"),
    "sumologic_access_key": _tok(lambda r: _r(r, ALNUM, 64), "SUMO_ACCESS_KEY", "Sumo Logic"),
    "crowdstrike_client_secret": _tok(lambda r: _r(r, ALNUM, 40), "FALCON_CLIENT_SECRET", "CrowdStrike Falcon"),
    "sentinelone_api_token": _tok(_s1, "S1_API_TOKEN", "SentinelOne"),
    "azure_client_secret": _tok(_azure_secret, "AZURE_CLIENT_SECRET", "Defender app registration"),
    "thehive_api_key": _tok(lambda r: _r(r, B64URL, 32), "THEHIVE_API_KEY", "TheHive"),
    "cortex_api_key": _tok(lambda r: _r(r, B64, 32), "CORTEX_API_KEY", "Cortex"),
    "shuffle_api_key": _tok(_uuid, "SHUFFLE_API_KEY", "Shuffle"),
    "tines_api_key": _tok(_tines, "TINES_API_KEY", "Tines"),
    "misp_auth_key": _tok(lambda r: _r(r, ALNUM, 40), "MISP_KEY", "MISP"),
    "virustotal_api_key": _tok(lambda r: _r(r, HEX, 64), "VT_API_KEY", "VirusTotal"),
    "shodan_api_key": _tok(lambda r: _r(r, ALNUM, 32), "SHODAN_API_KEY", "Shodan"),
    "greynoise_api_key": _tok(lambda r: _r(r, ALNUM, 64), "GREYNOISE_API_KEY", "GreyNoise"),
    "abuseipdb_api_key": _tok(lambda r: _r(r, HEX, 80), "ABUSEIPDB_API_KEY", "AbuseIPDB"),
    "urlscan_api_key": _tok(_uuid, "URLSCAN_API_KEY", "urlscan.io"),
    "otx_api_key": _tok(lambda r: _r(r, HEX, 64), "OTX_API_KEY", "AlienVault OTX"),
    "hybrid_analysis_api_key": _tok(lambda r: _r(r, LALNUM, 64), "HA_API_KEY", "Hybrid Analysis sandbox"),
    "joe_sandbox_api_key": _tok(lambda r: _r(r, HEX, 64), "JBX_API_KEY", "Joe Sandbox"),
    "pagerduty_api_key": _tok(_pd, "PAGERDUTY_TOKEN", "PagerDuty REST"),
    "pagerduty_routing_key": _tok(lambda r: _r(r, HEX, 32), "PD_ROUTING_KEY", "PagerDuty Events v2"),
    "opsgenie_api_key": _tok(_uuid, "OPSGENIE_API_KEY", "Opsgenie"),
    "jira_api_token": _tok(_jira, "JIRA_API_TOKEN", "Jira Cloud"),
    "servicenow_password": _pw("SNOW_PASSWORD", "ServiceNow integration user"),
    "aws_secret_access_key": _tok(_aws_secret, "AWS_SECRET_ACCESS_KEY", "customer AWS tenant"),
    "azure_storage_account_key": _tok(_azstorage, "AZURE_STORAGE_KEY", "Azure evidence storage"),
    "google_api_key": _tok(_gapi, "SAFE_BROWSING_API_KEY", "Google Safe Browsing"),
    "github_pat": _tok(_gh, "GITHUB_TOKEN", "GitHub detections repo"),
    "github_fine_grained_pat": _tok(_ghfg, "GH_PAT", "GitHub sigma-rules repo"),
    "gitlab_pat": _tok(_glpat, "GITLAB_TOKEN", "GitLab"),
    "gitlab_runner_token": _tok(_glrt, "RUNNER_TOKEN", "GitLab runner"),
    "slack_bot_token": _tok(_slackbot, "SLACK_BOT_TOKEN", "Slack SOC bot"),
    "telegram_bot_token": _tok(_tg, "TELEGRAM_BOT_TOKEN", "Telegram alert bot"),
    "vault_token": _tok(_vault, "VAULT_TOKEN", "HashiCorp Vault"),
    "npm_token": _tok(_npm, "NPM_TOKEN", "npm registry"),
    "pypi_token": _tok(_pypi, "PYPI_TOKEN", "PyPI"),
    "dockerhub_pat": _tok(_docker, "DOCKERHUB_TOKEN", "Docker Hub"),
    "onepassword_service_account_token": _tok(_op, "OP_SERVICE_ACCOUNT_TOKEN", "1Password"),
    "bitwarden_client_secret": _tok(lambda r: _r(r, ALNUM, 30), "BW_CLIENTSECRET", "Bitwarden CLI"),
    "sentry_auth_token": _tok(_sentry, "SENTRY_AUTH_TOKEN", "Sentry"),
    "datadog_api_key": _tok(lambda r: _r(r, HEX, 32), "DD_API_KEY", "Datadog"),
    "okta_api_token": _tok(_okta, "OKTA_API_TOKEN", "Okta"),
    "cloudflare_api_token": _tok(lambda r: _r(r, B64URL, 40), "CLOUDFLARE_API_TOKEN", "Cloudflare"),
    "wireguard_private_key": _tok(_wg, "WG_PRIVATE_KEY", "WireGuard VPN"),
    "ipsec_psk": _pw("IPSEC_PSK", "site-to-site VPN"),
    "jumphost_password": _pw("JUMP_PASSWORD", "jump host"),
    "ldap_bind_password": _pw("LDAP_BIND_PASSWORD", "LDAP bind account"),
    "kafka_sasl_password": _pw("KAFKA_SASL_PASSWORD", "Kafka log bus"),
    "smtp_password": _pw("SMTP_PASSWORD", "SMTP relay"),
    "honeypot_admin_password": _pw("TPOT_WEB_PASSWORD", "T-Pot honeypot"),
    "password_manager_master_password": _pw("VAULT_MASTER", "analysts' password manager"),
    "postgres_password": _url(_pg, "DATABASE_URL", "Shuffle Postgres"),
    "mysql_password": _url(_mysql, "MISP_DB_URL", "MISP MySQL"),
    "mongodb_password": _url(_mongo, "MONGO_URI", "Cortex MongoDB"),
    "redis_password": _url(_redis, "REDIS_URL", "SOAR queue Redis"),
    "basic_auth_url_password": _url(_basic, "MIRROR_URL", "internal mirror"),
    "slack_webhook_secret": _url(_slack_hook, "SLACK_WEBHOOK_URL", "Slack #soc-alerts"),
    "discord_webhook_secret": _url(_discord_hook, "DISCORD_WEBHOOK", "Discord honeypot feed"),
    "tines_webhook_secret": _url(_tines_hook, "TINES_WEBHOOK_URL", "Tines phishing intake webhook"),
    "aws_presigned_url_signature": _url(_s3_presigned, "EVIDENCE_URL", "S3 evidence bucket"),
    "azure_sas_signature": _url(_azure_sas, "PCAP_SAS_URL", "Azure blob SAS"),
    "rsa_private_key": ((lambda r: _pem(r, "RSA")), "", "RSA key", "pem"),
    "openssh_private_key": (_openssh, "", "jump host SSH key", "pem"),
    "ec_private_key": ((lambda r: _pem(r, "EC")), "", "EC key", "pem"),
}


# --------------------------------------------------------------------------------------------
# Templates.  Each takes (rng, c) where c has: v (printed value), svc, env, cust, host, who, ip,
# date, time.  GEN works with any value; TOK only with bearer-like tokens; PW for passwords.
# --------------------------------------------------------------------------------------------

GEN = [
    lambda r, c: (
        f"Note ({c['date']}): {c['svc']} for {c['cust']} now uses {c['v']} - rotated after offboarding {c['who']}."
    ),
    lambda r, c: (
        f"Lesson learned: the {c['svc']} integration broke because {c['env']} was stale. Current value {c['v']} works, verified {c['date']}."
    ),
    lambda r, c: (
        f"TODO: move {c['env']}={c['v']} out of the runbook and into the password manager (ticket SOC-{r.randrange(100, 9999)})."
    ),
    lambda r, c: (
        f"Runbook step 3 - onboard {c['cust']}:\n1. ssh {c['host']}\n2. export {c['env']}='{c['v']}'\n3. run ./onboard.sh --tenant {r.randrange(100, 999)}"
    ),
    lambda r, c: (
        f"{c['date']} {c['time']} UTC  triage started\n{c['date']} {c['time']} UTC  {c['who']} pasted {c['svc']} creds in bridge: {c['v']}\n{c['date']} {c['time']} UTC  containment done"
    ),
    lambda r, c: (
        f"[SOC-{r.randrange(1000, 99999)}] {c['svc']} connector failing for {c['cust']}\nReporter: {c['who']}\nConfig in use: {c['env']}={c['v']}\nPriority: P{r.randrange(1, 4)}"
    ),
    lambda r, c: (
        f"From: {c['who']}@mssp.net\nTo: soc-l2@mssp.net\nSubject: {c['svc']} access for {c['cust']}\n\nHi team, the new value is {c['v']}\nPlease don't forward.\n-- {c['who']}"
    ),
    lambda r, c: (
        f"<{c['who']}> anyone have the {c['svc']} creds for {c['cust']}?\n<{r.choice(ANALYSTS)}> {c['v']}\n<{c['who']}> thx"
    ),
    lambda r, c: f"Note FR : pour {c['cust']}, la clé {c['svc']} est {c['v']} (mise à jour le {c['date']}).",
    lambda r, c: f"メモ: {c['cust']} の {c['svc']} 認証情報は {c['v']} です。{c['date']} に更新済み。",
    lambda r, c: (
        f"Notitie: {c['svc']} voor {c['cust']} - waarde {c['v']} staat nu in {c['env']}, niet delen buiten het SOC."
    ),
    lambda r, c: f"ملاحظة: بيانات {c['svc']} الخاصة بالعميل {c['cust']} هي {c['v']} - تم التحديث {c['date']}",
    lambda r, c: f"Notă: pentru {c['cust']}, {c['env']} pentru {c['svc']} este {c['v']} (schimbat pe {c['date']}).",
    lambda r, c: (
        f"# .env for {c['cust']} collector\nTENANT_ID={r.randrange(1000, 9999)}\nLOG_LEVEL=info\n{c['env']}={c['v']}\n"
    ),
    lambda r, c: (
        '{\n  "tenant": "'
        + c["cust"]
        + '",\n  "service": "'
        + c["svc"]
        + '",\n  "'
        + c["env"].lower()
        + '": "'
        + c["v"]
        + '",\n  "verify_tls": true\n}'
    ),
    lambda r, c: (
        f'integrations:\n  - name: {c["svc"].lower().replace(" ", "-")}\n    customer: "{c["cust"]}"\n    {c["env"].lower()}: "{c["v"]}"\n    enabled: true'
    ),
    lambda r, c: (
        f"[{c['svc'].lower().replace(' ', '_')}]\nhost = {c['host']}\n{c['env'].lower()} = {c['v']}\ntimeout = {r.randrange(5, 60)}"
    ),
    lambda r, c: (
        f'[connectors.{c["env"].lower()}]\ncustomer = "{c["cust"]}"\nsecret = "{c["v"]}"\nretries = {r.randrange(1, 6)}'
    ),
    lambda r, c: (
        f"# ~/.zshrc ({c['who']})\nexport PATH=$HOME/bin:$PATH\nexport {c['env']}=\"{c['v']}\"\nalias soc='cd ~/soc-tools'"
    ),
    lambda r, c: (
        f"$ soc-cli config set {c['env'].lower()} {c['v']}\nSaved {c['env'].lower()} for profile '{c['cust'].split()[0].lower()}'\n$ soc-cli test\nOK ({r.randrange(40, 900)} ms)"
    ),
    lambda r, c: (
        f"{c['date']}T{c['time']}Z WARN connector[{r.randrange(100, 999)}] retrying with {c['env']}={c['v']} host={c['host']}"
    ),
    lambda r, c: (
        f'Run #{r.randrange(100, 9999)} deploy-collectors\n+ echo "configuring {c["svc"]}"\n+ ./configure --{c["env"].lower().replace("_", "-")} {c["v"]}\nconfigure: done in {r.randrange(1, 30)}s'
    ),
    lambda r, c: (
        f"index=soc_audit sourcetype=config_change user={c['who']}\n_time={c['date']} {c['time']}  field={c['env']}  new_value={c['v']}  host={c['host']}"
    ),
    lambda r, c: (
        f"soc_db=> SELECT name, value FROM connector_settings WHERE name='{c['env']}';\n   name   |  value\n----------+---------\n {c['env']} | {c['v']}\n(1 row)"
    ),
    lambda r, c: (
        f'input {{\n  http {{ port => {r.randrange(8000, 9999)} }}\n}}\noutput {{\n  http {{\n    url => "https://{c["host"]}/ingest"\n    headers => {{ "X-Api-Key" => "{c["v"]}" }}\n  }}\n}}'
    ),
]

TOK = [
    lambda r, c: (
        f"$ curl -v -H 'Authorization: Bearer {c['v']}' https://{c['host']}/api/v1/health\n> GET /api/v1/health HTTP/1.1\n> Host: {c['host']}\n< HTTP/1.1 200 OK"
    ),
    lambda r, c: (
        f"[http_input://{c['cust'].split()[0].lower()}]\ndisabled = 0\nindex = cust_{r.randrange(10, 99)}\ntoken = {c['v']}\n"
    ),
    lambda r, c: (
        f"requests.get(url, headers={{'X-Api-Key': '{c['v']}'}}, timeout={r.randrange(5, 30)})  # {c['svc']} lookup for {c['cust']}"
    ),
]

PW = [
    lambda r, c: f"{c['svc']} login for {c['cust']}: user {c['who']} / password {c['v']}",
    lambda r, c: (
        f"mysql> CREATE USER '{c['who'].replace('.', '')}'@'%' IDENTIFIED BY '{c['v']}';\nQuery OK, 0 rows affected (0.01 sec)"
    ),
    lambda r, c: f"password manager entry '{c['svc']} - {c['cust']}' -> username: svc_soc, password: {c['v']}",
]

PEMT = [
    lambda r, c: (
        f"$ cat ~/.ssh/id_{c['cust'].split()[0].lower()}\n{c['v']}\n$ chmod 600 ~/.ssh/id_{c['cust'].split()[0].lower()}"
    ),
    lambda r, c: f"Note: {c['svc']} for {c['cust']} jump access (added {c['date']}):\n{c['v']}",
    lambda r, c: (
        f"tls:\n  cert: /etc/soc/{c['cust'].split()[0].lower()}.crt\n  key: |\n"
        + "\n".join("    " + ln for ln in c["v"].splitlines())
    ),
    lambda r, c: f'CI log job #{r.randrange(1000, 99999)}\n+ echo "$DEPLOY_KEY"\n{c["v"]}\n+ ssh-add -',
    lambda r, c: (
        f"Ticket SOC-{r.randrange(100, 9999)}: {c['who']} attached the {c['svc']} below by mistake, rotate it!\n\n{c['v']}\n\nThanks"
    ),
]


def _ctx(rng, kind, value):
    _, env, svc, _ = KINDS[kind]
    return {
        "v": value,
        "svc": svc,
        "env": env or "KEY",
        "cust": rng.choice(CUSTOMERS),
        "host": rng.choice(HOSTS),
        "who": rng.choice(ANALYSTS),
        "ip": _ip(rng),
        "date": _date(rng),
        "time": _time(rng),
    }


def _positives(rng, seen):
    out = []
    for kind, (maker, _env, _svc, mode) in KINDS.items():
        if mode == "pem":
            pool = PEMT
        elif mode == "tok":
            pool = GEN + TOK
        elif mode == "pw":
            pool = GEN + PW
        else:
            pool = GEN
        got = 0
        i = rng.randrange(len(pool))
        while got < PER_KIND:
            if mode == "url":
                value, secret = maker(rng)
            else:
                value = secret = maker(rng)
            tpl = pool[i % len(pool)]
            i += 1
            text = tpl(rng, _ctx(rng, kind, value))
            if text in seen or secret not in text:
                continue
            seen.add(text)
            out.append((text, kind, secret))
            got += 1
    return out


# --------------------------------------------------------------------------------------------
# Look-alikes: template strings with placeholders; each becomes its own generator.
# --------------------------------------------------------------------------------------------


def _fill(rng, key):
    if key == "HEX32":
        return _r(rng, HEX, 32)
    if key == "HEX40":
        return _r(rng, HEX, 40)
    if key == "HEX64":
        return _r(rng, HEX, 64)
    if key == "HEX7":
        return _r(rng, HEX, 7)
    if key == "UUID":
        return _uuid(rng)
    if key == "CUST":
        return rng.choice(CUSTOMERS)
    if key == "HOST":
        return rng.choice(HOSTS)
    if key == "WHO":
        return rng.choice(ANALYSTS)
    if key == "IP":
        return _ip(rng)
    if key == "DATE":
        return _date(rng)
    if key == "TIME":
        return _time(rng)
    if key == "N":
        return str(rng.randrange(1, 99999))
    if key == "B64IMG":
        return "iVBORw0KGgoAAAANSUhEUgAA" + _b64(rng, 60)
    if key == "B64K32":
        return _b64(rng, 32)
    if key == "B64":
        return _b64(rng, 48)
    if key == "BCRYPT":
        return "$2b$12$" + _r(rng, ALNUM + "./", 53)
    if key == "ARGON":
        return "$argon2id$v=19$m=65536,t=3,p=4$" + _b64(rng, 16).rstrip("=") + "$" + _b64(rng, 32).rstrip("=")
    if key == "SHA512CRYPT":
        return "$6$" + _r(rng, ALNUM, 16) + "$" + _r(rng, ALNUM + "./", 86)
    if key == "NTLM":
        return _r(rng, HEX.upper(), 32)
    if key == "FP":
        return "SHA256:" + _b64(rng, 32).rstrip("=")
    if key == "MD5FP":
        return ":".join(_r(rng, HEX, 2) for _ in range(16))
    if key == "VAULTENC":
        return "\n".join(_r(rng, HEX, 80) for _ in range(4))
    if key == "SOPS":
        return "ENC[AES256_GCM,data:" + _b64(rng, 24) + ",iv:" + _b64(rng, 32) + ",tag:" + _b64(rng, 16) + ",type:str]"
    if key == "FIREBASE":
        return "AI" + "za" + _r(rng, B64URL, 35)
    if key == "SITEKEY":
        return "6L" + _r(rng, B64URL, 38)
    if key == "SENTRYDSN":
        return (
            f"https://{_r(rng, HEX, 32)}@o{rng.randrange(10**5, 10**6)}.ingest.sentry.io/{rng.randrange(10**6, 10**7)}"
        )
    if key == "GCLIENT":
        return f"{rng.randrange(10**11, 10**12)}-{_r(rng, LALNUM, 32)}.apps.googleusercontent.com"
    if key == "ALGOLIA":
        return _r(rng, HEX, 32)
    if key == "AWSDOC":
        return "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
    if key == "JWTDOC":
        return (
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
            + "."
            + "eyJzdWIiOiIxMjM0NTY3ODkwIn0"
            + "."
            + "dozjgNryP4J3jVmNHl0w5N"
            + "_XgL0n3I9PlFUP0THsR8U"
        )
    if key == "SIGMA":
        return _uuid(rng)
    if key == "SHA1":
        return _r(rng, HEX, 40)
    if key == "ARN":
        return f"arn:aws:secretsmanager:eu-west-1:{rng.randrange(10**11, 10**12)}:secret:soc/{rng.choice(WORDS)}-{_r(rng, ALNUM, 6)}"
    if key == "KVREF":
        return f"@Microsoft.KeyVault(SecretUri=https://kv-soc-{_r(rng, LALNUM, 4)}.vault.azure.net/secrets/{rng.choice(WORDS)}-key/)"
    if key == "MODEL":
        return (
            rng.choice(
                [
                    "sentence-transformers/all-MiniLM-L6-v2",
                    "microsoft/codebert-base",
                    "distilbert-base-uncased",
                    "BAAI/bge-small-en-v1.5",
                ]
            )
            + f"@{_r(rng, HEX, 40)}"
        )
    if key == "NS":
        return str(rng.randrange(1, 99))
    if key in ("WORD", "WS"):
        return rng.choice(WORDS)
    if key == "SPL":
        return f"{rng.randrange(1700000000, 1800000000)}.{rng.randrange(100, 99999)}"
    if key == "CERT":
        lines = [_b64(rng, 48) for _ in range(rng.randrange(6, 10))]
        return "\n".join(["-----BEGIN CERTIFICATE-----", *lines, "-----END CERTIFICATE-----"])
    if key == "PUBSSH":
        return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _r(rng, B64, 43)
    if key == "PGPPUB":
        lines = [_b64(rng, 48) for _ in range(6)]
        return "\n".join(
            [
                "-----BEGIN PGP PUBLIC KEY BLOCK-----",
                "",
                *lines,
                "-----END PGP PUBLIC KEY BLOCK-----",
            ]
        )
    if key == "STARS":
        return "*" * rng.randrange(6, 20)
    if key == "MASK":
        return _r(rng, ALNUM, 4) + "*" * rng.randrange(12, 30) + _r(rng, ALNUM, 4)
    if key == "ENVVAR":
        return rng.choice([k[1] for k in KINDS.values() if k[1]])
    if key == "TLP":
        return rng.choice(["TLP:CLEAR", "TLP:GREEN", "TLP:AMBER", "TLP:AMBER+STRICT"])
    if key == "DOMAIN":
        return (
            rng.choice(WORDS)
            + rng.choice(["-login", "-secure", "-update", "-cdn"])
            + rng.choice([".xyz", ".top", ".ru", ".info"])
        )
    if key == "HEX16":
        return _r(rng, HEX, 16)
    if key == "KEYID":
        return _r(rng, HEX.upper(), 16)
    raise KeyError(key)


LOOK_TEMPLATES = [
    # hashes / IOCs
    "IOC from case #{N}: sha256 {HEX64} (dropper.exe), first seen {DATE}, {TLP}",
    "VT report for md5 {HEX32}: 41/72 engines flagged it as Trojan.Agent, analyst {WHO}",
    "Added sha1 {SHA1} to the Falcon custom IOC list for {CUST} (action: prevent)",
    "| sha256 | {HEX64} |\n| file | invoice_{N}.docm |\n| verdict | malicious |",
    "MISP event {N}: attribute type=sha256 value={HEX64} to_ids=True",
    "yara hit rule=APT_Loader_{N} file_sha256={HEX64} host={HOST}",
    "Evidence chain of custody: memdump.raw sha256={HEX64} md5={HEX32} collected by {WHO} {DATE}",
    "$ sha256sum wazuh-agent-4.8.{NS}.deb\n{HEX64}  wazuh-agent-4.8.{NS}.deb",
    "Blocklisted domain {DOMAIN} (resolves {IP}), OTX pulse id {HEX16}{HEX16}",
    "imphash {HEX32} shared by 3 samples in case {N}; ssdeep not conclusive",
    # commit ids / CI
    "Deployed sigma rules at commit {SHA1} to {HOST}",
    "git log --oneline\n{HEX7} tune noisy rule for {CUST}\n{HEX7} add wazuh decoder",
    "CI run #{N} passed on {HEX40} (branch detections/main) in {N}s",
    "Reverted {SHA1} because the Splunk savedsearch spammed PagerDuty for {CUST}",
    "Pinned action: uses: actions/checkout@{SHA1}",
    "Docker image ghcr.io/mssp/collector@sha256:{HEX64} promoted to prod",
    # UUIDs / request ids
    "Splunk search job sid={SPL} returned 0 results for {CUST}",
    "Falcon detection id ldt:{HEX32}:{N} closed as false positive by {WHO}",
    "Azure tenant id {UUID} for {CUST}; subscription {UUID}",
    "Sigma rule id: {SIGMA}\ntitle: Suspicious PowerShell Download\nstatus: test",
    "TheHive case _id ~{N} alert sourceRef {UUID}",
    "x-request-id: {UUID}\nHTTP/1.1 429 Too Many Requests (VirusTotal quota)",
    "Opsgenie alert id {UUID} acknowledged by {WHO} at {TIME}",
    "PagerDuty incident {HEX16} resolved; dedup_key host-{HOST}",
    "SentinelOne agent uuid {HEX32} on {HOST} isolated",
    "Wazuh agent 0{N} registered with group {WORD}; manager {HOST}",
    "Correlation id {UUID} seen in both Graylog and Elastic for {CUST}",
    "Shuffle workflow id {UUID} execution {UUID} finished SUCCESS",
    "Tines story {N} action id {N} emitted event guid {UUID}",
    "Jira issue SOC-{N} linked to ServiceNow INC00{N} (sys_id {HEX32})",
    # base64 data
    "Screenshot of phishing page attached: data:image/png;base64,{B64IMG}",
    "Decoded PowerShell -enc payload (benign admin script): {B64}",
    "Elastic doc _source.message.b64 = {B64} (truncated pcap payload)",
    "email header X-MS-Exchange-Organization-AuthAs: Anonymous\nX-MS-Exchange-CrossTenant-Id: {UUID}",
    # model / run ids
    "Phishing classifier uses {MODEL}; MLflow run id {HEX32}",
    "wandb run {WORD}-{WORD}-{N} (id {HEX16}) finished, F1=0.9{N}",
    "Notebook cell [{N}]: execution_count {N}, output hash {HEX32}",
    "Dataset version ds-{HEX16} for alert triage model published",
    # public by design
    'firebaseConfig = {{ apiKey: "{FIREBASE}", authDomain: "soc-portal-{WS}.firebaseapp.com", projectId: "soc-portal-{WS}" }}',
    "Customer portal login page uses reCAPTCHA site key {SITEKEY} (public, in HTML)",
    "SENTRY_DSN={SENTRYDSN}",
    "Google OAuth client id for SOC portal SSO: {GCLIENT}",
    "Algolia search-only key for the KB search box: {ALGOLIA} (public, read only)",
    "FALCON_CLIENT_ID={HEX32}  # client id only, secret is in 1Password",
    "Defender app registration: client_id={UUID} tenant_id={UUID} (secret in Key Vault)",
    "Public cert for HEC TLS:\n{CERT}",
    "Added analyst public key to bastion: {PUBSSH} {WHO}@laptop",
    "PGP key for reporting phishing to {CUST}:\n{PGPPUB}",
    "GPG key id {KEYID} used to sign the detections release",
    "Host key fingerprint for {HOST}: {FP}",
    "Old style fingerprint {MD5FP} (RSA) for {HOST}",
    "TLS cert thumbprint SHA1 {SHA1} for {HOST}, expires {DATE}",
    # placeholders
    'Splunk HEC setup: curl -H "Authorization: Splunk <your-hec-token>" https://{HOST}:8088/services/collector',
    "{ENVVAR}=changeme  # replace before deploying to {CUST}",
    "export {ENVVAR}=${{{ENVVAR}}}  # injected by CI",
    "MISP_KEY=<insert-misp-auth-key-here>\nMISP_URL=https://{HOST}",
    'api_key: "YOUR_API_KEY"  # VirusTotal, see docs (tenant {N})',
    "password: {STARS}  (masked in UI for {CUST})",
    "Falcon secret shown as {MASK} in the console; full value in vault",
    "token = xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  # template, ticket SOC-{N}",
    "Runbook: set OPENSEARCH_PASSWORD to the value from the password manager entry '{CUST} / OpenSearch'",
    "Example from AWS docs: aws_secret_access_key = {AWSDOC} (sample only, used in training {N})",
    "JWT example from jwt.io docs for the training deck #{N}: {JWTDOC}",
    "DB_PASSWORD=\nDB_USER=soc_ro  # left blank intentionally for {CUST}",
    "Default creds for the lab image are documented as admin/admin; disabled on {HOST} since {DATE}",
    "If the API returns 401, regenerate the key in Settings > API and update {ENVVAR} (ticket {N})",
    # references to where a secret lives
    "      env:\n        {ENVVAR}: ${{{{ secrets.{ENVVAR} }}}}\n      run: ./deploy.sh {N}",
    'vt_key = Variable.get("vt_api_key_{WORD}")  # Airflow DAG enrich_{N}',
    'key = dbutils.secrets.get(scope="soc-{WORD}", key="shodan-api-key")  # cell {N}',
    "vault kv get -field=token secret/soc/{WORD}/splunk_hec  # run on {HOST}",
    "Secret stored at {ARN}",
    "App setting VT_API_KEY = {KVREF}",
    "password_file: /run/secrets/{WORD}_db_password  # docker secret, tenant {N}",
    'Retrieve with: op read "op://SOC-{WORD}/Graylog API/credential" (tenant {N})',
    "kubectl get secret {WORD}-hec -n siem -o yaml  # don't paste output here! case {N}",
    "Credentials for {CUST} Wazuh live in Bitwarden collection 'SOC / {WORD}', not in notes.",
    "valueFrom:\n  secretKeyRef:\n    name: falcon-{WORD}\n    key: client-secret  # ns {N}",
    "{{{{ lookup('hashi_vault', 'secret=soc/data/{WORD}:password') }}}}  # play {N}",
    "Sumo access key was rotated {DATE}; new one is in vault path kv/soc/sumo/{WORD}",
    # encrypted / hashes
    "wazuh_api_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n{VAULTENC}",
    "splunk_admin_password: {SOPS}",
    "htpasswd entry for kibana proxy: {WHO}:{BCRYPT}",
    "TheHive user {WHO} password hash: {ARGON}",
    "/etc/shadow line recovered from honeypot: root:{SHA512CRYPT}:19{N}:0:99999:7:::",
    "NTLM hash observed in mimikatz output on {HOST}: {NTLM} (account already reset)",
    "Hashcat cracked 0 of 12 NTLM hashes from case {N}, e.g. {NTLM}",
    "Splunk passwd file: :admin:{SHA512CRYPT}::Administrator:admin:changeme@example.com:::{N}",
    "Encrypted password in Graylog config (AES, needs password_secret): {B64}",
    "Kerberoast ticket hash (truncated) $krb5tgs$23$*svc_sql${CUST}*${HEX32}${HEX64}",
    # misc technical look-alikes
    "Logstash pipeline id {WORD}-{N} fingerprint filter output: {HEX64}",
    "Elastic index pattern logs-{WORD}-{DATE}, doc _id {B64}",
    "Splunk savedsearch cron 0 */{N} * * *, dispatch ttl 86400, sid scheduler__{WHO}__{HEX16}",
    "AbuseIPDB report for {IP}: confidence 100, category 18,22 (case {N})",
    "Shodan host {IP}: ports 22,443; ssl serial {HEX32}",
    "GreyNoise says {IP} is a benign scanner (tag {WORD}), checked {DATE}",
    "urlscan result uuid {UUID} for hxxps://{DOMAIN}/login",
    "Honeypot T-Pot {HOST} saw {N} SSH sessions from {IP}; top client version SSH-2.0-Go, hassh {HEX32}",
    "Suricata alert sid:2{N} rev:3 flow_id {N}{N} community_id 1:{B64K32}",
    "OpenVPN tls-crypt key rotated; new key fingerprint {SHA1}",
    "WireGuard peer PublicKey for {CUST}: {B64K32} (public half only)",
    "Cortex analyzer VirusTotal_GetReport_3_1 job {HEX16}{HEX16} status Success",
    "Jira webhook id {N} subscribed to jql=project=SOC; last delivery {UUID}",
    "AWS CloudTrail eventID {UUID} requestID {UUID} for AssumeRole by {WHO}",
    "GCP service account soc-ingest-{N}@cust-{WORD}.iam.gserviceaccount.com key id {HEX40}",
    "Azure Key Vault secret version {HEX32} created {DATE} (value not shown)",
    "session cookie name __Host-soc_session, max-age {N}, SameSite=Strict",
    "Nonce for CSP on portal: nonce-{B64} (per-request, regenerated)",
    "HMAC header X-Hub-Signature-256: sha256={HEX64} on delivery {UUID}",
    'ETag: "{HEX32}" for detections bundle v{N}',
    "Sysmon event 1: Hashes=SHA256={HEX64},IMPHASH={NTLM}",
    "Velociraptor client id C.{HEX16} collected artifact Windows.KapeFiles.Targets",
    'YARA rule meta: hash = "{HEX64}" author = "{WHO}"',
]


_STICKY = {"CUST", "WS", "ENVVAR", "NS", "WHO", "HOST"}


def _make_look(tpl):
    def gen(rng):
        memo = {}

        def sub(m):
            k = m.group(1)
            if k in _STICKY:
                if k not in memo:
                    memo[k] = _fill(rng, k)
                return memo[k]
            return _fill(rng, k)

        text = re.sub(r"\{([A-Z0-9]+)\}", sub, tpl)
        return text.replace("{{", "{").replace("}}", "}")

    return gen


_LOOK = [_make_look(t) for t in LOOK_TEMPLATES]


def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    rng = random.Random(hashlib.sha256(f"besets-{seed}".encode()).hexdigest())
    seen: set[str] = set()
    positives = _positives(rng, seen)
    lookalikes: list[str] = []
    for gen in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 5000:
                raise RuntimeError("look-alike generator cannot produce distinct texts")
            text = gen(rng)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
