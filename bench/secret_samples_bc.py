"""Labelled test set BC for a secret detector: research computing centre memories.

Theme
-----
Short texts ("memories") that an AI coding agent keeps while working for a university's research
computing centre: the HPC cluster (Slurm, Munge, LDAP, Kerberos, FreeIPA), storage (Ceph RGW, iRODS,
Globus, NFS, Lustre), science platforms (JupyterHub, Open OnDemand, RStudio Server, GitLab and runners,
Harbor, Apptainer), licence servers, monitoring (Grafana, Prometheus, Alertmanager, Zabbix), Vault,
identity (Shibboleth, Keycloak, eduroam RADIUS), research data services (ORCID, Zenodo, Figshare,
DataCite, OSF), cloud bursting (AWS, Azure, GCP) and BMCs (iDRAC, iLO, IPMI).  About half of the texts
are notes, lessons, runbooks, TODOs, tickets, emails and chat (mostly English; some German, Chinese,
Hindi, Swedish, Hebrew), a quarter config files and a quarter tool output.

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring of ``text``; each
  text holds exactly one secret; every kind has exactly ``PER_KIND`` (30) positives.
* ``lookalikes``: texts with no credential at all.  Produced by the generator functions in ``_LOOK``,
  each called until it yields ``LOOK_PER_GEN`` distinct texts, so
  ``len(lookalikes) == len(_LOOK) * LOOK_PER_GEN``.
* Deterministic per seed (one ``random.Random`` seeded from ``seed`` only); no duplicate texts across
  the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and basic-auth URLs: the
  password only.  Pre-signed URLs: the signature.  PEM / OpenSSH private keys: the whole armoured block
  from BEGIN line to END line (for a JSON-escaped key, the escaped block from BEGIN to END).
* UUID-shaped vendor secrets (ORCID client secret, PagerDuty/Opsgenie keys, RStudio cookie key) are
  positives only because the text names them as a secret/key/token.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs, OAuth client ids,
  Firebase web apiKeys, search-only keys, public certificates and public keys), vendor documentation
  example values, encrypted blobs (Ansible vault, sops) and password hashes are look-alikes.
* Bare AWS access key ids are left out entirely.
* No token-shaped literal appears in this source: every token is assembled at run time from prefix
  pieces and random bodies drawn from the seeded generator.
"""

from __future__ import annotations

import base64
import random
import string

LOOK_PER_GEN = 12
PER_KIND = 30

_ALNUM = string.ascii_letters + string.digits
_LOWER_ALNUM = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"
_B64URL = _ALNUM + "-_"
_PW_SYMBOLS = "!#%&*+-.:=?@^_~"


# ---------------------------------------------------------------------------------------------
# small random helpers
# ---------------------------------------------------------------------------------------------
def _s(r: random.Random, alphabet: str, n: int) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def _hex(r: random.Random, n: int) -> str:
    return _s(r, _HEX, n)


def _an(r: random.Random, n: int) -> str:
    return _s(r, _ALNUM, n)


def _b64(r: random.Random, nbytes: int) -> str:
    return base64.b64encode(r.randbytes(nbytes)).decode()


def _b64url(r: random.Random, nbytes: int) -> str:
    return base64.urlsafe_b64encode(r.randbytes(nbytes)).decode().rstrip("=")


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _jwt(r: random.Random, claims: str) -> str:
    head = base64.urlsafe_b64encode(b'{"alg":"RS256","typ":"JWT","kid":"' + _an(r, 10).encode() + b'"}')
    body = base64.urlsafe_b64encode(claims.encode())
    return ".".join([head.decode().rstrip("="), body.decode().rstrip("="), _b64url(r, 256)])


_WORDS = [
    "tulip",
    "rover",
    "falcon",
    "granite",
    "maple",
    "cobalt",
    "harbor",
    "lantern",
    "meadow",
    "quartz",
    "otter",
    "saffron",
    "willow",
    "beacon",
    "cedar",
    "ember",
    "glacier",
    "juniper",
    "kestrel",
    "lynx",
    "nimbus",
    "orchid",
    "pebble",
    "raven",
    "sierra",
    "thistle",
    "velvet",
    "walrus",
    "zephyr",
    "puffin",
    "birch",
    "aurora",
    "comet",
    "delta",
    "fjord",
    "heron",
    "iris",
    "koala",
    "lotus",
    "mango",
]
_SEASONS = [
    "Summer",
    "Winter",
    "Spring",
    "Autumn",
    "Herbst",
    "Sommar",
    "Monday",
    "Welcome",
    "Rechenzentrum",
]


def _pw(r: random.Random) -> str:
    style = r.randrange(6)
    if style == 0:
        return f"{r.choice(_SEASONS)}{r.randint(2019, 2027)}{r.choice('!#@?.')}"
    if style == 1:
        a, b = r.sample(_WORDS, 2)
        return f"{a}-{b.capitalize()}-{r.randint(10, 99)}"
    if style == 2:
        return "-".join(r.sample(_WORDS, 4))
    if style == 3:
        return r.choice(_ALNUM) + _s(r, _ALNUM + _PW_SYMBOLS, r.randint(13, 21))
    if style == 4:
        w = r.choice(_WORDS)
        return f"{w.capitalize()}{r.choice(_PW_SYMBOLS)}{r.randint(100, 9999)}{_an(r, 3)}"
    return _an(r, r.randint(16, 24))


def _pem(r: random.Random, label: str, nbytes: int, width: int = 64) -> list[str]:
    body = _b64(r, nbytes)
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    begin = "-----" + "BEGIN " + label + " KEY-----"
    end = "-----" + "END " + label + " KEY-----"
    return [begin, *lines, end]


def _openssh(r: random.Random) -> str:
    raw = b"openssh-key-v1\x00" + r.randbytes(r.choice([380, 390, 1800]))
    body = base64.b64encode(raw).decode()
    lines = [body[i : i + 70] for i in range(0, len(body), 70)]
    return "\n".join(
        [
            "-----" + "BEGIN OPENSSH " + "PRIVATE KEY-----",
            *lines,
            "-----" + "END OPENSSH " + "PRIVATE KEY-----",
        ]
    )


# ---------------------------------------------------------------------------------------------
# context vocabulary
# ---------------------------------------------------------------------------------------------
_UNIS = [
    "rc.northfield.ac.uk",
    "hpc.uni-nordstadt.de",
    "rcc.lakeside.edu",
    "hpc.kungsholm-univ.se",
    "scc.tel-harim.ac.il",
    "hpc.pune-iis.ac.in",
    "hpc.xinan-u.edu.cn",
    "arc.riverbend.edu",
]
_NODES = [
    "login01",
    "login02",
    "slurmctld",
    "mgmt01",
    "ood",
    "jhub",
    "gitlab",
    "harbor",
    "ceph-rgw01",
    "irods-ies",
    "globus-dtn1",
    "vault01",
    "grafana",
    "zbx",
    "kc",
    "idp",
    "lic01",
    "radius1",
    "bmc-r12u07",
    "ipa01",
    "rstudio",
    "storage02",
]
_PEOPLE = [
    "anna",
    "jonas",
    "wei",
    "priya",
    "sven",
    "noa",
    "liam",
    "fatima",
    "mateo",
    "ingrid",
    "rahul",
    "yael",
    "chen",
    "olivia",
    "tobias",
    "aarav",
    "elin",
    "dana",
]
_USERS = [
    "root",
    "admin",
    "svc_slurm",
    "hpcadmin",
    "ansible",
    "rcops",
    "jhub",
    "ldapbind",
    "gitlab-runner",
]
_GROUPS = [
    "login_nodes",
    "compute",
    "storage",
    "ood",
    "monitoring",
    "all",
    "jupyterhub",
    "vault",
]


def _ctx(r: random.Random) -> dict[str, str]:
    dom = r.choice(_UNIS)
    node = r.choice(_NODES)
    p1, p2 = r.sample(_PEOPLE, 2)
    return {
        "host": f"{node}.{dom}",
        "hs": node,
        "dom": dom,
        "user": r.choice(_USERS),
        "person": p1,
        "person2": p2,
        "date": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
        "time": f"{r.randint(7, 19):02d}:{r.randint(0, 59):02d}",
        "time2": f"{r.randint(7, 19):02d}:{r.randint(0, 59):02d}",
        "ts": f"2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:"
        f"{r.randint(0, 59):02d}Z",
        "num": str(r.randint(10000, 99999)),
        "pid": str(r.randint(800, 65000)),
        "group": r.choice(_GROUPS),
        "ns": r.choice(["rc-platform", "jupyterhub", "monitoring", "harbor", "default", "ood"]),
    }


# ---------------------------------------------------------------------------------------------
# generic templates: {label} {var} {key} {value} {svc} + context fields
# ---------------------------------------------------------------------------------------------
_NOTE_T = [
    "Note: {label} for {host} is {value} (rotate after the maintenance window on {date}).",
    (
        "Lesson learned {date}: the {svc} outage was a stale {var}. Current value is {value} - update it in "
        "both places next time."
    ),
    "TODO: move the {label} into Vault, it is still hardcoded in the playbook: {value}",
    "Ticket RITM{num} ({person}): gave the {label} to the new sysadmin. {label}: {value} - expires {date}.",
    (
        "From: {person}@{dom}\nTo: {person2}@{dom}\nSubject: {svc} access\n\nHi {person2},\n\nhere is the {label} "
        "you asked for:\n\n    {value}\n\nPlease don't forward this mail.\n{person}"
    ),
    "[{time}] {person}: what's the {label} on {hs} again?\n[{time2}] {person2}: {value}\n[{time2}] {person}: thx",
    (
        "Runbook - restore {svc}\n1. ssh {user}@{host}\n2. export {var}='{value}'\n3. systemctl restart {svc}\n"
        "4. check the logs"
    ),
    "Decision ({date}): keep one {label} for all {group} hosts until the FreeIPA migration. Value: {value}",
    "Remember: {svc} on {hs} needs {var} set, otherwise it fails silently. {var}={value}",
    "Handover notes for {person2}: {svc} lives on {host}; {label} -> {value}; ask {person} for the rest.",
    "Notiz: Das {label} fuer {host} lautet {value}. Bitte nach dem Wartungsfenster am {date} aendern.",
    "Merke: {var} auf {hs} war falsch gesetzt. Richtiger Wert: {value}",
    "备注：{host} 的 {label} 是 {value}，{date} 维护之后需要轮换。",
    "经验：{svc} 启动失败是因为 {var} 过期，新的值 {value} 已经写进配置。",
    "नोट: {host} के लिए {label} है {value} — इसे किसी के साथ साझा न करें।",
    "Anteckning: {label} för {host} är {value}. Byt efter servicefönstret {date}.",
    "הערה: ה-{label} של {host} הוא {value} - להחליף אחרי חלון התחזוקה.",
    "- [ ] rotate {label} ({value}) on {hs} before the audit on {date}",
]

_CONF_T = [
    "# {svc} settings for {hs}\nTZ=Europe/Stockholm\n{var}={value}\nLOG_LEVEL=info\n",
    '{{\n  "service": "{svc}",\n  "host": "{host}",\n  "{key}": "{value}"\n}}',
    '{svc}:\n  host: {host}\n  port: 443\n  {key}: "{value}"\n',
    "[{svc}]\nhost = {host}\nverify_tls = true\n{key} = {value}\n",
    '[{svc}]\nurl = "https://{host}"\n{key} = "{value}"\ntimeout = 30\n',
    '---\n# group_vars/{group}.yml\n{svc}_host: {host}\n{svc}_{key}: "{value}"\n',
    "# ~/.bash_profile on {hs}\nexport PATH=$HOME/bin:$PATH\nexport {var}='{value}'\n",
    (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc}\n  namespace: {ns}\ntype: Opaque\nstringData:\n  "
        '{key}: "{value}"\n'
    ),
    "[Service]\nUser={user}\nEnvironment={var}={value}\nExecStart=/usr/local/bin/{svc}\n",
    "services:\n  {svc}:\n    image: harbor.{dom}/rc/{svc}:latest\n    environment:\n      - {var}={value}\n      - TZ=UTC\n",
    "# host_vars/{hs}.yml\nansible_host: {host}\n{key}: '{value}'\nbackup_enabled: true\n",
    '# .env.production ({svc})\n# managed by {person}, do not commit\nAPP_HOST={host}\n{var}="{value}"\n',
]

_OUT_T = [
    "$ ssh {user}@{host}\n[{user}@{hs} ~]$ echo ${var}\n{value}\n[{user}@{hs} ~]$ ",
    "{ts} {hs} {svc}[{pid}]: DEBUG loaded config {key}={value}\n{ts} {hs} {svc}[{pid}]: INFO listening on :8443",
    (
        'Running with gitlab-runner 17.2.1 on {hs}\n$ echo "using {var}=${var}"\nusing {var}={value}\n'
        "$ ./deploy.sh\nJob succeeded"
    ),
    (
        "rcops=> SELECT name, value FROM service_settings WHERE name = '{key}';\n name | value\n------+-------\n"
        " {key} | {value}\n(1 row)\n"
    ),
    ">>> import os\n>>> os.environ['{var}']\n'{value}'\n>>> ",
    '$ docker inspect {svc} --format "{{{{json .Config.Env}}}}"\n["{var}={value}","PATH=/usr/local/sbin:/usr/bin"]',
    "$ kubectl -n {ns} get secret {svc} -o jsonpath='{{.data.{key}}}' | base64 -d\n{value}",
    "$ vault kv get -field={key} secret/rc/{svc}\n{value}",
]

_BEARER_T = [
    (
        "$ curl -v https://{host}/api/v1/status -H 'Authorization: Bearer {value}'\n> GET /api/v1/status HTTP/1.1\n"
        "> Host: {host}\n> Authorization: Bearer {value}\n< HTTP/1.1 200 OK"
    ),
    "{ts} proxy[{pid}]: upstream request GET https://{host}/api headers={{'Authorization': 'Bearer {value}'}}",
    'import requests\nresp = requests.get("https://{host}/api", headers={{"Authorization": "Bearer {value}"}})',
]

_PEM_T = [
    "Note: deploy key for {host} (used by the {svc} sync job):\n{value}",
    "$ cat ~/.ssh/{key}\n{value}\n[{user}@{hs} ~]$ ",
    "From: {person}@{dom}\nSubject: key for {hs}\n\nAttached inline as requested:\n\n{value}\n\nDelete after import.",
    "[{time}] {person}: pasting the {label} here, careful\n{value}\n[{time2}] {person2}: got it",
    "备注：{hs} 上的 {label} 备份如下：\n{value}",
    "Notiz ({date}): {label} fuer {hs}, bis zum Vault-Umzug hier abgelegt:\n{value}",
    "$ vault kv get -field={key} secret/rc/{svc}\n{value}",
    'Running with gitlab-runner 17.2.1 on {hs}\n$ echo "$SSH_PRIVATE_KEY"\n{value}\n$ ssh-add -',
]


# ---------------------------------------------------------------------------------------------
# kinds
# ---------------------------------------------------------------------------------------------
def _k(kind, gen, label, var, key, svc, extra=(), bearer=False, only=False, pem=False):
    return {
        "kind": kind,
        "gen": gen,
        "label": label,
        "var": var,
        "key": key,
        "svc": svc,
        "extra": list(extra),
        "bearer": bearer,
        "only": only,
        "pem": pem,
    }


def _webhook_slack(r):
    tok = _an(r, 24)
    return tok, "https://hooks.slack.com/services/T" + _s(r, string.ascii_uppercase + string.digits, 10) + "/B" + _s(
        r, string.ascii_uppercase + string.digits, 10
    ) + "/" + tok


def _webhook_discord(r):
    tok = _b64url(r, 51)
    return tok, f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18)}/{tok}"


def _conn(scheme, port, dbs):
    def g(r):
        pw = _pw(r)
        user = r.choice(
            [
                "slurm",
                "jhub",
                "grafana",
                "zabbix",
                "keycloak",
                "irods",
                "ood_app",
                "rc_ro",
            ]
        )
        host = r.choice(_NODES) + "." + r.choice(_UNIS)
        return pw, f"{scheme}://{user}:{pw}@{host}:{port}/{r.choice(dbs)}"

    return g


def _basic_url(r):
    pw = _pw(r)
    host = r.choice(["nexus", "artifacts", "mirror", "conda", "apptainer-lib"]) + "." + r.choice(_UNIS)
    return (
        pw,
        f"https://{r.choice(_PEOPLE)}:{pw}@{host}/repository/{r.choice(['pypi', 'cran', 'sif', 'raw'])}/",
    )


def _presigned(r):
    sig = _hex(r, 64)
    host = "s3." + r.choice(_UNIS)
    url = (
        f"https://{host}/{r.choice(['climate-runs', 'cryoem-raw', 'genomics-share', 'lab-backups'])}/"
        f"{_hex(r, 8)}.tar.zst?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=rgwuser%2F20261201%2Fdefault"
        f"%2Fs3%2Faws4_request&X-Amz-Date=20261201T101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host"
        f"&X-Amz-Signature={sig}"
    )
    return sig, url


def _azure_conn(r):
    key = _b64(r, 64)
    acct = r.choice(["rcburst", "hpcarchive", "labdata", "uniresearch"]) + str(r.randint(1, 99))
    return (
        key,
        f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net",
    )


def _gcp_json(r):
    lines = [ln for ln in _pem(r, "PRIVATE", 1190)]
    secret = "\\n".join(lines)
    return secret, secret


def _rsa_pem(r):
    s = "\n".join(
        _pem(
            r,
            *r.choice([("RSA PRIVATE", 1190), ("PRIVATE", 1218), ("EC PRIVATE", 121)]),
        )
    )
    return s, s


def _ssh(r):
    s = _openssh(r)
    return s, s


_GCP_T = [
    (
        '{{\n  "type": "service_account",\n  "project_id": "rc-burst-{num}",\n  "private_key_id": "{kid}",\n'
        '  "private_key": "{value}\\n",\n  "client_email": "slurm-burst@rc-burst-{num}.iam.gserviceaccount.com"\n}}'
    ),
    (
        '$ cat /etc/slurm/gcp-sa.json\n{{"type": "service_account", "project_id": "hpc-burst-{num}", '
        '"private_key_id": "{kid}", "private_key": "{value}\\n", "client_id": "1{num}{num}"}}'
    ),
    (
        'Note: GCP burst SA key (keep out of git!):\n{{"type":"service_account","private_key":"{value}\\n",'
        '"client_email":"burst@uni-rc-{num}.iam.gserviceaccount.com"}}'
    ),
]


def _kinds() -> list[dict]:
    def tok(n):
        return lambda r: _an(r, n)

    def hx(n):
        return lambda r: _hex(r, n)

    pw = _pw
    return [
        _k(
            "munge_key",
            lambda r: _b64(r, r.choice([96, 128])),
            "munge key (base64)",
            "MUNGE_KEY_B64",
            "munge_key_b64",
            "munge",
            [
                '# roles/munge/defaults/main.yml\nmunge_key_b64: "{value}"\n# decoded into /etc/munge/munge.key',
                "$ base64 -w0 /etc/munge/munge.key\n{value}",
            ],
        ),
        _k(
            "ldap_bind_password",
            pw,
            "LDAP bind password",
            "LDAP_BIND_PW",
            "bind_password",
            "sssd",
            [
                (
                    "[domain/{dom}]\nid_provider = ldap\nldap_default_bind_dn = uid=svc-sssd,cn=sysaccounts,dc=rc\n"
                    "ldap_default_authtok = {value}\n"
                ),
                "$ ldapsearch -x -H ldaps://{host} -D 'cn=Directory Manager' -w '{value}' -b dc=rc uid={person}",
            ],
        ),
        _k(
            "kerberos_principal_password",
            pw,
            "kerberos password for host/{hs}",
            "KRB5_PASSWORD",
            "krb5_password",
            "kadmin",
            ["$ kadmin -p admin/admin -w '{value}' -q 'ktadd -k /etc/krb5.keytab host/{host}'"],
        ),
        _k(
            "kerberos_keytab_b64",
            lambda r: "BQI" + _b64(r, r.choice([150, 210, 330])),
            "keytab (base64)",
            "KRB5_KEYTAB_B64",
            "keytab_b64",
            "krb5",
            ["# CI variable for the nightly sync job\nKRB5_KEYTAB_B64={value}"],
        ),
        _k(
            "freeipa_admin_password",
            pw,
            "FreeIPA admin password",
            "IPA_ADMIN_PASSWORD",
            "ipa_admin_password",
            "ipa",
            [
                "$ ipa-server-install -U -r RC.EXAMPLE -p '{value}' -a '{value}'".replace("-p '{value}' ", ""),
                "$ echo '{value}' | kinit admin\n$ ipa user-find {person}",
            ],
        ),
        _k(
            "ceph_rgw_secret_key",
            tok(40),
            "RGW secret key",
            "AWS_SECRET_ACCESS_KEY",
            "secret_key",
            "radosgw",
            [
                (
                    '$ radosgw-admin user info --uid={person}\n{{\n    "keys": [\n        {{\n            "user": "{person}",'
                    '\n            "secret_key": "{value}"\n        }}\n    ]\n}}'
                ),
                "[rgw]\ntype = s3\nprovider = Ceph\nendpoint = https://{host}\nsecret_access_key = {value}\n",
            ],
        ),
        _k(
            "irods_password",
            pw,
            "iRODS password",
            "IRODS_PASSWORD",
            "irods_password",
            "irods",
            ["$ iinit\nEnter your current iRODS password: {value}\n$ ils /rcZone/home/{person}"],
        ),
        _k(
            "globus_client_secret",
            lambda r: _b64(r, 33),
            "Globus confidential client secret",
            "GLOBUS_CLIENT_SECRET",
            "client_secret",
            "globus",
            [
                "$ globus-connect-server endpoint setup 'RC DTN' --client-id {uuid} --secret '{value}' --owner {person}@{dom}"
            ],
        ),
        _k(
            "jupyterhub_cookie_secret",
            hx(64),
            "JupyterHub cookie secret",
            "JPY_COOKIE_SECRET",
            "cookie_secret",
            "jupyterhub",
            ["# jupyterhub_config.py\nc.JupyterHub.cookie_secret = bytes.fromhex('{value}')\n"],
        ),
        _k(
            "jupyterhub_api_token",
            hx(32),
            "JupyterHub API token",
            "JUPYTERHUB_API_TOKEN",
            "api_token",
            "jupyterhub",
            ["# jupyterhub_config.py\nc.JupyterHub.services = [{{'name': 'idle-culler', 'api_token': '{value}'}}]"],
            bearer=True,
        ),
        _k(
            "configproxy_auth_token",
            hx(64),
            "proxy auth token",
            "CONFIGPROXY_AUTH_TOKEN",
            "proxy_auth_token",
            "chp",
        ),
        _k(
            "open_ondemand_oidc_client_secret",
            tok(32),
            "OnDemand OIDC client secret",
            "OOD_OIDC_CLIENT_SECRET",
            "oidc_client_secret",
            "ondemand",
            [
                "# /etc/ood/config/ood_portal.yml\noidc_uri: /oidc\noidc_client_id: ondemand\noidc_client_secret: {value}"
            ],
        ),
        _k(
            "rstudio_secure_cookie_key",
            _uuid,
            "RStudio secure-cookie-key",
            "RSTUDIO_COOKIE_KEY",
            "secure_cookie_key",
            "rserver",
            ["$ sudo cat /etc/rstudio/secure-cookie-key\n{value}"],
        ),
        _k(
            "gitlab_personal_access_token",
            lambda r: "gl" + "pat-" + _s(r, _B64URL, 20),
            "GitLab PAT",
            "GITLAB_TOKEN",
            "private_token",
            "gitlab",
            bearer=True,
        ),
        _k(
            "gitlab_runner_auth_token",
            lambda r: "gl" + "rt-" + _s(r, _B64URL, 20),
            "runner authentication token",
            "RUNNER_TOKEN",
            "token",
            "gitlab-runner",
            [
                (
                    '[[runners]]\n  name = "{hs}-apptainer"\n  url = "https://gitlab.{dom}"\n  token = "{value}"\n'
                    '  executor = "shell"'
                )
            ],
        ),
        _k(
            "gitlab_runner_registration_token",
            lambda r: "GR1348" + "941" + _s(r, _B64URL, 20),
            "runner registration token",
            "REGISTRATION_TOKEN",
            "registration_token",
            "gitlab-runner",
            [
                (
                    "$ gitlab-runner register --non-interactive --url https://gitlab.{dom} --registration-token {value} "
                    "--executor shell"
                )
            ],
        ),
        _k(
            "gitlab_deploy_token",
            lambda r: "gl" + "dt-" + _s(r, _B64URL, 20),
            "GitLab deploy token",
            "CI_DEPLOY_PASSWORD",
            "deploy_token",
            "gitlab",
        ),
        _k(
            "harbor_robot_secret",
            tok(32),
            "Harbor robot secret (robot$rc+ci)",
            "HARBOR_ROBOT_SECRET",
            "robot_secret",
            "harbor",
            [
                "$ echo '{value}' | apptainer registry login -u 'robot$rc+ci' --password-stdin oras://harbor.{dom}",
                "$ docker login harbor.{dom} -u 'robot$rc+ci' -p '{value}'",
            ],
        ),
        _k(
            "apptainer_library_token",
            lambda r: _jwt(
                r,
                '{"aud":"library","exp":' + str(r.randint(1.8e9, 1.9e9)) + ',"sub":"' + _hex(r, 24) + '"}',
            ),
            "Sylabs library access token",
            "SYLABS_TOKEN",
            "access_token",
            "apptainer",
            ["$ apptainer remote login --tokenfile <(echo '{value}') SylabsCloud"],
            bearer=True,
        ),
        _k(
            "matlab_file_installation_key",
            lambda r: "-".join(_s(r, string.digits, 5) for _ in range(r.choice([4, 5, 6]))),
            "MATLAB file installation key",
            "MATLAB_FIK",
            "fileInstallationKey",
            "matlab",
            [
                (
                    "# installer_input.txt\ndestinationFolder=/opt/matlab/R2026b\nfileInstallationKey={value}\n"
                    "agreeToLicense=yes\nlicensePath=/opt/matlab/network.lic"
                )
            ],
        ),
        _k(
            "ansys_portal_password",
            pw,
            "ANSYS customer portal password",
            "ANSYS_PORTAL_PW",
            "portal_password",
            "ansys",
        ),
        _k(
            "flexlm_admin_password",
            pw,
            "lmadmin web console password",
            "LMADMIN_PASSWORD",
            "admin_password",
            "lmadmin",
        ),
        _k(
            "grafana_service_account_token",
            lambda r: "gl" + "sa_" + _an(r, 32) + "_" + _hex(r, 8),
            "Grafana service account token",
            "GRAFANA_TOKEN",
            "token",
            "grafana",
            bearer=True,
        ),
        _k(
            "grafana_admin_password",
            pw,
            "Grafana admin password",
            "GF_SECURITY_ADMIN_PASSWORD",
            "admin_password",
            "grafana",
            ["[security]\nadmin_user = admin\nadmin_password = {value}\n"],
        ),
        _k(
            "prometheus_remote_write_password",
            pw,
            "remote_write basic auth password",
            "PROM_RW_PASSWORD",
            "password",
            "prometheus",
            [
                (
                    "remote_write:\n  - url: https://mimir.{dom}/api/v1/push\n    basic_auth:\n      username: {hs}\n"
                    "      password: {value}\n"
                )
            ],
        ),
        _k(
            "slack_webhook",
            _webhook_slack,
            "Alertmanager Slack webhook",
            "SLACK_WEBHOOK_URL",
            "api_url",
            "alertmanager",
            ["receivers:\n- name: rc-oncall\n  slack_configs:\n  - api_url: {value}\n    channel: '#rc-alerts'\n"],
        ),
        _k(
            "discord_webhook",
            _webhook_discord,
            "Discord webhook",
            "DISCORD_WEBHOOK",
            "webhook_url",
            "alerts",
        ),
        _k(
            "zabbix_api_token",
            hx(64),
            "Zabbix API token",
            "ZABBIX_API_TOKEN",
            "api_token",
            "zabbix",
            [
                (
                    '$ curl -s https://{host}/api_jsonrpc.php -H \'Content-Type: application/json-rpc\' -d \'{{"jsonrpc":"2.0",'
                    '"method":"host.get","params":{{}},"auth":"{value}","id":1}}\''
                )
            ],
            bearer=True,
        ),
        _k(
            "vault_token",
            lambda r: "hv" + "s." + _s(r, _B64URL, r.choice([24, 91])),
            "Vault token",
            "VAULT_TOKEN",
            "token",
            "vault",
            ["$ vault login {value}\nSuccess! You are now authenticated."],
            bearer=True,
        ),
        _k(
            "vault_unseal_key",
            lambda r: _b64(r, 33),
            "Vault unseal key",
            "VAULT_UNSEAL_KEY_1",
            "unseal_key",
            "vault",
            [
                (
                    "$ vault operator unseal {value}\nKey                Value\n---                -----\nSealed"
                    "             true\nUnseal Progress    1/3"
                )
            ],
        ),
        _k(
            "shibboleth_sealer_password",
            pw,
            "IdP sealer keystore password",
            "IDP_SEALER_PASSWORD",
            "sealer_password",
            "shibboleth",
            [
                (
                    "# /opt/shibboleth-idp/credentials/secrets.properties\nidp.sealer.storePassword = {value}\n"
                    "idp.sealer.keyPassword = %{{idp.sealer.storePassword}}"
                )
            ],
        ),
        _k(
            "keycloak_client_secret",
            tok(32),
            "Keycloak client secret",
            "KC_CLIENT_SECRET",
            "client_secret",
            "keycloak",
            [
                (
                    "$ curl -s -d grant_type=client_credentials -d client_id=rc-portal -d client_secret={value} "
                    "https://{host}/realms/rc/protocol/openid-connect/token"
                )
            ],
        ),
        _k(
            "keycloak_admin_password",
            pw,
            "Keycloak admin password",
            "KEYCLOAK_ADMIN_PASSWORD",
            "admin_password",
            "keycloak",
        ),
        _k(
            "keycloak_access_token",
            lambda r: _jwt(
                r,
                '{"iss":"https://kc/realms/rc","sub":"' + _uuid(r) + '","typ":"Bearer","azp":"rc-cli"}',
            ),
            "Keycloak access token",
            "KC_ACCESS_TOKEN",
            "access_token",
            "keycloak",
            bearer=True,
        ),
        _k(
            "radius_shared_secret",
            lambda r: _s(r, _ALNUM + "!-_", r.randint(16, 32)),
            "eduroam RADIUS shared secret",
            "RADIUS_SECRET",
            "secret",
            "freeradius",
            ["client eduroam-flr1 {{\n    ipv4addr = 192.0.2.{num3}\n    secret = {value}\n    shortname = flr1\n}}"],
        ),
        _k(
            "orcid_client_secret",
            _uuid,
            "ORCID client secret",
            "ORCID_CLIENT_SECRET",
            "client_secret",
            "orcid",
        ),
        _k(
            "zenodo_access_token",
            tok(60),
            "Zenodo access token",
            "ZENODO_TOKEN",
            "access_token",
            "zenodo",
            ["$ curl -s 'https://zenodo.org/api/deposit/depositions?access_token={value}'"],
            bearer=True,
        ),
        _k(
            "figshare_token",
            hx(128),
            "Figshare personal token",
            "FIGSHARE_TOKEN",
            "token",
            "figshare",
            ["$ curl -H 'Authorization: token {value}' https://api.figshare.com/v2/account/articles"],
        ),
        _k(
            "datacite_repository_password",
            pw,
            "DataCite repository password",
            "DATACITE_PASSWORD",
            "repository_password",
            "datacite",
        ),
        _k(
            "osf_personal_access_token",
            tok(70),
            "OSF personal access token",
            "OSF_TOKEN",
            "token",
            "osf",
            bearer=True,
        ),
        _k(
            "aws_secret_access_key",
            lambda r: _s(r, _ALNUM + "+/", 40),
            "AWS secret access key",
            "AWS_SECRET_ACCESS_KEY",
            "aws_secret_access_key",
            "aws",
            ["[burst]\nregion = eu-north-1\naws_secret_access_key = {value}\n"],
        ),
        _k(
            "azure_client_secret",
            lambda r: _an(r, 3) + str(r.randint(0, 9)) + "Q" + "~" + _s(r, _ALNUM + "_~.-", 34),
            "Azure app client secret",
            "AZURE_CLIENT_SECRET",
            "client_secret",
            "azure",
        ),
        _k(
            "azure_storage_account_key",
            _azure_conn,
            "Azure storage connection string",
            "AZURE_STORAGE_CONNECTION_STRING",
            "connection_string",
            "azcopy",
        ),
        _k(
            "gcp_service_account_key",
            _gcp_json,
            "GCP service account key",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "private_key",
            "gcloud",
            _GCP_T,
            only=True,
        ),
        _k(
            "openssh_private_key",
            _ssh,
            "SSH private key",
            "SSH_PRIVATE_KEY",
            "id_ed25519",
            "rsync",
            pem=True,
        ),
        _k(
            "pem_private_key",
            _rsa_pem,
            "TLS private key",
            "TLS_KEY",
            "tls.key",
            "nginx",
            pem=True,
        ),
        _k(
            "idrac_password",
            pw,
            "iDRAC root password",
            "IDRAC_PASSWORD",
            "idrac_password",
            "idrac",
            ["$ racadm -r {host} -u root -p '{value}' serveraction powercycle\nServer power operation successful"],
        ),
        _k(
            "ilo_password",
            pw,
            "iLO Administrator password",
            "ILO_PASSWORD",
            "ilo_password",
            "ilo",
            ["$ ilorest login {host} -u Administrator -p '{value}'\nDiscovering data...Done"],
        ),
        _k(
            "ipmi_password",
            pw,
            "IPMI password",
            "IPMI_PASSWORD",
            "ipmi_password",
            "ipmi",
            [
                "$ ipmitool -I lanplus -H {host} -U ADMIN -P '{value}' chassis power status\nChassis Power is on",
                (
                    "$ ipmitool -I lanplus -H {host} -U ADMIN -P {value} sol activate\n[SOL Session operational.  Use ~? "
                    "for help]"
                ),
            ],
        ),
        _k(
            "slurmdbd_storage_password",
            pw,
            "slurmdbd StoragePass",
            "SLURMDBD_STORAGE_PASS",
            "StoragePass",
            "slurmdbd",
            [
                (
                    "# /etc/slurm/slurmdbd.conf\nDbdHost={hs}\nStorageType=accounting_storage/mysql\n"
                    "StorageUser=slurm\nStoragePass={value}\nStorageLoc=slurm_acct_db"
                )
            ],
        ),
        _k(
            "mysql_password",
            pw,
            "MySQL root password",
            "MYSQL_ROOT_PASSWORD",
            "root_password",
            "mariadb",
            ["$ mysql -u root -p'{value}' -e 'show databases;'\n+--------------------+\n| slurm_acct_db      |"],
        ),
        _k(
            "postgres_password",
            _conn("postgresql", 5432, ["jupyterhub", "keycloak", "grafana", "zabbix"]),
            "database URL",
            "DATABASE_URL",
            "db_url",
            "jupyterhub",
            ["# jupyterhub_config.py\nc.JupyterHub.db_url = '{value}'"],
        ),
        _k(
            "mongodb_password",
            _conn("mongodb", 27017, ["ood_usage", "portal", "metrics"]),
            "Mongo URI",
            "MONGO_URI",
            "mongo_uri",
            "portal",
        ),
        _k(
            "amqp_password",
            _conn("amqp", 5672, ["rc", "celery", "jobs"]),
            "broker URL",
            "CELERY_BROKER_URL",
            "broker_url",
            "celery",
        ),
        _k(
            "redis_password",
            pw,
            "Redis password",
            "REDIS_PASSWORD",
            "requirepass",
            "redis",
            [
                "# /etc/redis/redis.conf\nbind 127.0.0.1\nrequirepass {value}\n",
                "$ redis-cli -a '{value}' ping\nPONG",
            ],
        ),
        _k(
            "smtp_password",
            pw,
            "SMTP relay password",
            "SMTP_PASSWORD",
            "smtp_password",
            "postfix",
            ["# /etc/postfix/sasl_passwd\n[smtp.{dom}]:587 rc-noreply@{dom}:{value}"],
        ),
        _k(
            "basic_auth_url_password",
            _basic_url,
            "mirror URL",
            "PIP_INDEX_URL",
            "index_url",
            "pip",
            ["# /etc/pip.conf\n[global]\nindex-url = {value}simple\n"],
        ),
        _k(
            "s3_presigned_url_signature",
            _presigned,
            "pre-signed download link",
            "SHARE_URL",
            "download_url",
            "rgw",
            ["Sent {person2} the link for the cryo-EM dataset (valid 7 days):\n{value}"],
        ),
        _k(
            "github_personal_access_token",
            lambda r: "gh" + "p_" + _an(r, 36),
            "GitHub token",
            "GITHUB_TOKEN",
            "github_token",
            "gh",
            bearer=True,
        ),
        _k(
            "github_fine_grained_pat",
            lambda r: "github" + "_pat_" + _an(r, 22) + "_" + _an(r, 59),
            "fine-grained GitHub PAT",
            "GH_TOKEN",
            "gh_token",
            "gh",
            bearer=True,
        ),
        _k(
            "slack_bot_token",
            lambda r: (
                "xo" + "xb-" + str(r.randint(10**10, 10**12)) + "-" + str(r.randint(10**11, 10**13)) + "-" + _an(r, 24)
            ),
            "Slack bot token",
            "SLACK_BOT_TOKEN",
            "bot_token",
            "slackbot",
            bearer=True,
        ),
        _k(
            "telegram_bot_token",
            lambda r: str(r.randint(10**8, 10**10)) + ":" + "AA" + _s(r, _B64URL, 33),
            "Telegram bot token",
            "TELEGRAM_BOT_TOKEN",
            "bot_token",
            "alert-bot",
            ["$ curl -s https://api.telegram.org/bot{value}/getMe"],
        ),
        _k(
            "pagerduty_routing_key",
            hx(32),
            "PagerDuty integration key",
            "PD_ROUTING_KEY",
            "routing_key",
            "alertmanager",
            ["receivers:\n- name: pager\n  pagerduty_configs:\n  - routing_key: {value}\n"],
        ),
        _k(
            "opsgenie_api_key",
            _uuid,
            "Opsgenie API key",
            "OPSGENIE_API_KEY",
            "api_key",
            "alertmanager",
            ["global:\n  opsgenie_api_key: {value}\n  opsgenie_api_url: https://api.eu.opsgenie.com/"],
        ),
        _k(
            "pypi_api_token",
            lambda r: "py" + "pi-" + "AgEIcHlwaS5vcmc" + _s(r, _B64URL, r.choice([70, 120, 160])),
            "PyPI API token",
            "TWINE_PASSWORD",
            "password",
            "twine",
            ["# ~/.pypirc\n[pypi]\nusername = __token__\npassword = {value}\n"],
        ),
        _k(
            "docker_hub_pat",
            lambda r: "dckr" + "_pat_" + _s(r, _B64URL, 27),
            "Docker Hub access token",
            "DOCKERHUB_TOKEN",
            "dockerhub_token",
            "docker",
        ),
        _k(
            "huggingface_token",
            lambda r: "h" + "f_" + _s(r, string.ascii_letters, 34),
            "Hugging Face token",
            "HF_TOKEN",
            "hf_token",
            "hf",
            bearer=True,
        ),
        _k(
            "wandb_api_key",
            hx(40),
            "W&B API key",
            "WANDB_API_KEY",
            "api_key",
            "wandb",
            ["# ~/.netrc\nmachine api.wandb.ai\n  login user\n  password {value}\n"],
        ),
        _k(
            "openai_api_key",
            lambda r: "sk" + "-proj-" + _s(r, _B64URL, 74) + "T3Blbk" + "FJ" + _s(r, _B64URL, 74),
            "OpenAI API key",
            "OPENAI_API_KEY",
            "openai_api_key",
            "chatbot",
            bearer=True,
        ),
        _k(
            "anthropic_api_key",
            lambda r: "sk" + "-ant-api03-" + _s(r, _B64URL, 93) + "AA",
            "Anthropic API key",
            "ANTHROPIC_API_KEY",
            "anthropic_api_key",
            "chatbot",
        ),
        _k(
            "sendgrid_api_key",
            lambda r: "S" + "G." + _s(r, _B64URL, 22) + "." + _s(r, _B64URL, 43),
            "SendGrid API key",
            "SENDGRID_API_KEY",
            "sendgrid_api_key",
            "portal",
            bearer=True,
        ),
        _k(
            "npm_access_token",
            lambda r: "np" + "m_" + _an(r, 36),
            "npm token",
            "NPM_TOKEN",
            "npm_token",
            "npm",
            ["# ~/.npmrc\n//registry.npmjs.org/:_authToken={value}\n"],
        ),
        _k(
            "django_secret_key",
            lambda r: _s(r, string.ascii_lowercase + string.digits + "!@#%^&*(-_=+)", 50),
            "Django SECRET_KEY",
            "DJANGO_SECRET_KEY",
            "secret_key",
            "coldfront",
            ["# coldfront local_settings.py\nSECRET_KEY = '{value}'\nALLOWED_HOSTS = ['{host}']"],
        ),
        _k(
            "flask_secret_key",
            hx(48),
            "Flask SECRET_KEY",
            "FLASK_SECRET_KEY",
            "secret_key",
            "portal",
        ),
        _k(
            "openstack_app_credential_secret",
            lambda r: _b64url(r, 64),
            "application credential secret",
            "OS_APPLICATION_CREDENTIAL_SECRET",
            "application_credential_secret",
            "openstack",
            [
                (
                    "clouds:\n  rc-cloud:\n    auth_type: v3applicationcredential\n    auth:\n      auth_url: https://{host}:5000\n"
                    "      application_credential_id: {kid}\n      application_credential_secret: {value}\n"
                )
            ],
        ),
        _k(
            "stripe_secret_key",
            lambda r: "sk" + "_live_" + _an(r, r.choice([24, 99])),
            "Stripe secret key",
            "STRIPE_SECRET_KEY",
            "stripe_secret_key",
            "conference-reg",
            bearer=True,
        ),
    ]


def _render(r: random.Random, spec: dict, seen: set[str]) -> tuple[str, str]:
    out = spec["gen"](r)
    secret, value = (out, out) if isinstance(out, str) else out
    c = _ctx(r)
    c.update(
        label=spec["label"],
        var=spec["var"],
        key=spec["key"],
        svc=spec["svc"],
        value=value,
        uuid=_uuid(r),
        kid=_hex(r, 40),
        num3=str(r.randint(2, 250)),
    )
    c["label"] = c["label"].format_map(c)
    if spec["only"]:
        pool = spec["extra"]
    elif spec["pem"]:
        pool = _PEM_T
    else:
        # extras are weighted so kind-specific forms show up often
        pool = _NOTE_T + _CONF_T + _OUT_T + spec["extra"] * 3
        if spec["bearer"]:
            pool = pool + _BEARER_T
    text = r.choice(pool).format_map(c)
    return text, secret


# ---------------------------------------------------------------------------------------------
# look-alikes: each function takes a Random and returns one text with no credential in it
# ---------------------------------------------------------------------------------------------
def _h(r):
    return r.choice(_NODES) + "." + r.choice(_UNIS)


def _p(r):
    return r.choice(_PEOPLE)


def la_commit(r):
    return f"Fixed the slurm.conf drift in commit {_hex(r, 40)} ({_p(r)}), deployed to {_h(r)}."


def la_short_sha(r):
    return (
        f"Pipeline #{r.randint(1000, 99999)} for {_hex(r, 8)} passed on main; tag v{r.randint(1, 9)}.{r.randint(0, 20)}"
    )


def la_sif_sha256(r):
    return (
        f"$ sha256sum /apps/containers/pytorch-{r.randint(20, 26)}.{r.randint(1, 12)}.sif\n{_hex(r, 64)}  pytorch.sif"
    )


def la_md5_dataset(r):
    lines = [f"{_hex(r, 32)}  run{r.randint(1, 999):03d}.h5" for _ in range(3)]
    return "MD5 checksums for the climate dataset upload:\n" + "\n".join(lines)


def la_image_digest(r):
    return f"harbor.{r.choice(_UNIS)}/rc/jupyter-base@sha256:{_hex(r, 64)}"


def la_slurm_jobids(r):
    return (
        f"Job {r.randint(10**6, 10**7)} failed with OOM on node c{r.randint(1, 400):04d}; resubmitted as "
        f"{r.randint(10**6, 10**7)}_[{r.randint(1, 9)}-{r.randint(10, 500)}]."
    )


def la_amz_request_id(r):
    return (
        f"< HTTP/1.1 403 Forbidden\n< x-amz-request-id: tx{_hex(r, 21)}-{_hex(r, 10)}-default\n< "
        f"x-amz-id-2: {_hex(r, 16)}-default-default"
    )


def la_png_datauri(r):
    return f'<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{_b64(r, 120)}" alt="gpu usage plot">'


def la_hf_model_id(r):
    mid = r.choice(
        [
            "meta-llama/Llama-3.1-8B",
            "allenai/OLMo-2-1124-7B",
            "bigscience/bloom-560m",
            "facebook/esm2_t33_650M_UR50D",
            "mistralai/Mistral-7B-v0.3",
            "google/gemma-2-9b",
        ]
    )
    return f"Downloaded {mid} to /scratch/hf_cache (revision {_hex(r, 40)})."


def la_wandb_run(r):
    return (
        f"W&B run https://wandb.ai/{_p(r)}-lab/cryoem/runs/{_s(r, _LOWER_ALNUM, 8)} finished, val_loss={r.random():.4f}"
    )


def la_stripe_pk(r):
    return f"STRIPE_PUBLISHABLE_KEY={'pk' + '_live_' + _an(r, 24)}  # publishable, safe for the frontend"


def la_globus_client_id(r):
    return f"Globus app client id (public): {_uuid(r)} - secret is in Vault under secret/rc/globus."


def la_keycloak_client_id(r):
    return (
        f"oidc_client_id: {r.choice(['ondemand', 'rc-portal', 'jupyterhub', 'grafana'])}-{_s(r, _LOWER_ALNUM, 6)}"
        f'\noidc_client_secret: "{{{{ vault_oidc_client_secret }}}}"'
    )


def la_google_client_id(r):
    return f"GOOGLE_OAUTH_CLIENT_ID={r.randint(10**11, 10**12)}-{_s(r, _LOWER_ALNUM, 32)}.apps.googleusercontent.com"


def la_firebase_web(r):
    return (
        'const firebaseConfig = {\n  apiKey: "'
        + "AI"
        + "za"
        + _s(r, _B64URL, 35)
        + f'",\n  authDomain: "rc-status-{r.randint(1, 999)}.firebaseapp.com",\n  projectId: "rc-status"\n}};'
    )


def la_sentry_dsn(r):
    return f"SENTRY_DSN=https://{_hex(r, 32)}@o{r.randint(10**5, 10**6)}.ingest.sentry.io/{r.randint(10**6, 10**7)}"


def la_supabase_anon(r):
    tok = _jwt(
        r,
        '{"iss":"supabase","ref":"' + _s(r, string.ascii_lowercase, 20) + '","role":"anon"}',
    )
    return f"NEXT_PUBLIC_SUPABASE_ANON_KEY={tok}\n# anon key is public by design, RLS protects the tables"


def la_recaptcha_site(r):
    return f"RECAPTCHA_SITE_KEY=6L{_s(r, _B64URL, 38)}  # site key, shown in the page source anyway"


def la_algolia_search(r):
    return f"docs search: appId {_s(r, string.ascii_uppercase + string.digits, 10)}, search-only api key {_hex(r, 32)}"


def la_placeholder(r):
    return (
        f"export {r.choice(['VAULT_TOKEN', 'ZENODO_TOKEN', 'GITLAB_TOKEN', 'HF_TOKEN'])}=<your-"
        f"{r.choice(['token', 'key', 'api-key'])}-here>  # step {r.randint(1, 9)} of the {_p(r)} onboarding"
    )


def la_env_ref(r):
    v = r.choice(
        [
            "LDAP_BIND_PW",
            "IPMI_PASSWORD",
            "GRAFANA_TOKEN",
            "IRODS_PASSWORD",
            "SLURMDBD_PASS",
        ]
    )
    return f"ExecStart=/usr/local/bin/sync --user {_p(r)} --password ${{{v}}} --host {_h(r)}"


def la_gha_secret(r):
    return (
        f'      - name: push to harbor\n        run: echo "${{{{ secrets.HARBOR_ROBOT_{r.choice(["SECRET", "TOKEN"])} }}}}"'
        f" | docker login harbor.{r.choice(_UNIS)} -u 'robot$rc+ci' --password-stdin  # job {r.randint(1, 999)}"
    )


def la_airflow_var(r):
    return (
        f'token = Variable.get("{r.choice(["zenodo", "figshare", "osf", "datacite"])}_token_{r.randint(1, 99)}")'
        f"\nclient = Client(token=token)"
    )


def la_dbutils(r):
    return (
        f'pw = dbutils.secrets.get(scope="rc-{r.choice(["burst", "lake", "ml"])}", key="jdbc-password-'
        f'{r.randint(1, 50)}")'
    )


def la_vault_path(r):
    return (
        f"The {r.choice(['LDAP bind', 'iDRAC', 'Munge', 'RGW admin'])} credential lives in Vault: "
        f"secret/rc/{r.choice(_NODES)}/{r.choice(['bind', 'bmc', 'admin'])} (version {r.randint(1, 40)})."
    )


def la_ansible_vault(r):
    body = _hex(r, 320)
    lines = [body[i : i + 80] for i in range(0, len(body), 80)]
    return "ldap_bind_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + "\n  ".join(lines)


def la_sops(r):
    return f"grafana_admin_password: ENC[AES256_GCM,data:{_b64(r, 18)},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"


def la_bcrypt(r):
    alpha = _ALNUM + "./"
    return f"# /etc/prometheus/web.yml\nbasic_auth_users:\n  {_p(r)}: $2y$10${_s(r, alpha, 53)}"


def la_argon2(r):
    return (
        f"user {_p(r)} password_hash=$argon2id$v=19$m=65536,t=3,p=4${_b64(r, 16).rstrip('=')}${_b64(r, 32).rstrip('=')}"
    )


def la_shadow(r):
    alpha = _ALNUM + "./"
    return f"{_p(r)}:$6${_s(r, alpha, 16)}${_s(r, alpha, 86)}:{r.randint(19000, 20500)}:0:99999:7:::"


def la_ssh_pubkey(r):
    return f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_b64(r, 32)[:43]} {_p(r)}@laptop  # added to authorized_keys"


def la_ssh_fingerprint(r):
    return (
        f"The authenticity of host '{_h(r)}' can't be established.\nED25519 key fingerprint is SHA256:"
        f"{_b64(r, 32).rstrip('=')}."
    )


def la_gpg_fpr(r):
    f = _hex(r, 40).upper()
    return f"Release signing key fingerprint: {' '.join(f[i : i + 4] for i in range(0, 40, 4))}"


def la_public_cert(r):
    body = _b64(r, 700)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return (
        f"IdP signing certificate for {_h(r)}:\n-----BEGIN CERTIFICATE-----\n"
        + "\n".join(lines)
        + "\n-----END CERTIFICATE-----"
    )


def la_munge_md5(r):
    return f"munge.key checksums match on all nodes: {_hex(r, 32)} (pdsh -w c[001-{r.randint(100, 400)}])"


def la_klist_keytab(r):
    return (
        f"$ klist -kt /etc/krb5.keytab\nKeytab name: FILE:/etc/krb5.keytab\nKVNO Timestamp         Principal\n"
        f"---- ----------------- ---------------------------------\n   {r.randint(1, 9)} 2026-{r.randint(1, 12):02d}-01 "
        f"host/{_h(r)}@RC.EXAMPLE"
    )


def la_nb_exec_count(r):
    return (
        f'{{"cell_type": "code", "execution_count": {r.randint(1, 300)}, "id": "{_hex(r, 8)}", '
        f'"metadata": {{}}, "outputs": []}}'
    )


def la_masked(r):
    return (
        f"{r.choice(['LDAP_BIND_PW', 'VAULT_TOKEN', 'IPMI_PASSWORD'])}={'*' * r.randint(6, 16)}  "
        f"(masked in job {r.randint(1000, 99999)} log)"
    )


def la_changeme_doc(r):
    return (
        f"Docs: set admin_password to something other than 'changeme' before exposing {_h(r)}; "
        f"the installer refuses the default since v{r.randint(2, 9)}.{r.randint(0, 9)}."
    )


def la_aws_doc_example(r):
    ex = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCY" + "EXAMPLEKEY"
    return f"AWS docs example (not real): aws_secret_access_key = {ex}  # see page {r.randint(1, 400)}"


def la_vault_accessor(r):
    return (
        f"$ vault token lookup -accessor {_s(r, _ALNUM, 24)}\nKey           Value\ndisplay_name  ldap-{_p(r)}\n"
        f"ttl           {r.randint(1, 720)}h"
    )


def la_vault_lease(r):
    return f"lease_id database/creds/slurmdbd-ro/{_an(r, 24)} renewed, ttl {r.randint(1, 72)}h"


def la_secret_key_ref(r):
    return (
        f"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {r.choice(_NODES)}-db\n"
        f"        key: password-{r.randint(1, 9)}"
    )


def la_grafana_uid(r):
    return f"Dashboard 'Slurm partitions' uid={_s(r, _B64URL, 14)} panel {r.randint(1, 40)} moved to folder RC."


def la_alert_fingerprint(r):
    return f"Alert NodeDown fingerprint={_hex(r, 16)} startsAt=2026-{r.randint(1, 12):02d}-0{r.randint(1, 9)}T00:00Z"


def la_zabbix_item(r):
    return (
        f"Zabbix item key vfs.fs.size[/lustre/scratch,pfree] on hostid {r.randint(10000, 99999)}, itemid "
        f"{r.randint(10**5, 10**6)}"
    )


def la_sbatch(r):
    return (
        f"#!/bin/bash\n#SBATCH --job-name=md-{_s(r, _LOWER_ALNUM, 5)}\n#SBATCH --account=p{r.randint(2020, 2026)}"
        f"{r.randint(100, 999)}\n#SBATCH --gres=gpu:a100:{r.randint(1, 8)}\nsrun gmx mdrun -deffnm run"
    )


def la_lmstat(r):
    return (
        f"$ lmutil lmstat -a -c 27000@lic01\nUsers of MATLAB:  (Total of {r.randint(50, 500)} licenses issued;  "
        f"Total of {r.randint(1, 49)} licenses in use)"
    )


def la_matlab_license_no(r):
    return f"MATLAB campus license number {r.randint(10**7, 10**8)}, server lic01 port 27000 (hostid {_hex(r, 12)})"


def la_idrac_inventory(r):
    return (
        f"rack R{r.randint(1, 20)} U{r.randint(1, 42)}: service tag {_s(r, string.ascii_uppercase + string.digits, 7)},"
        f" iDRAC MAC {':'.join(_hex(r, 2) for _ in range(6))}"
    )


def la_ipmi_lan_print(r):
    return (
        f"$ ipmitool lan print 1\nIP Address              : 10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"
        f"\nMAC Address             : {':'.join(_hex(r, 2) for _ in range(6))}\nAuth Type Enable        : "
        f"Callback : MD5\n"
    )


def la_ipmi_user_list(r):
    return (
        f"$ ipmitool user list 1\nID  Name       Callin  Link Auth  IPMI Msg   Channel Priv Limit\n"
        f"{r.randint(2, 9)}   {_p(r)}      true    false      true       ADMINISTRATOR"
    )


def la_ceph_fsid(r):
    return (
        f"  cluster:\n    id:     {_uuid(r)}\n    health: HEALTH_WARN\n  services:\n    mon: 3 daemons\n"
        f"    osd: {r.randint(50, 900)} osds: up"
    )


def la_rgw_redacted(r):
    return (
        f'"keys": [{{"user": "{_p(r)}", "access_key": "<redacted>", "secret_key": "<redacted>"}}]  # ticket '
        f"{r.randint(1000, 9999)}"
    )


def la_globus_collection(r):
    return f"Globus collection 'RC Lustre scratch' id {_uuid(r)}, endpoint id {_uuid(r)}"


def la_orcid_id(r):
    return (
        f"Author ORCID iD 0000-000{r.randint(1, 3)}-{r.randint(1000, 9999)}-{r.randint(100, 999)}X linked to "
        f"{_p(r)}@{r.choice(_UNIS)}"
    )


def la_doi(r):
    return f"Dataset deposited: https://doi.org/10.5281/zenodo.{r.randint(10**6, 10**8)} (record {r.randint(10**6, 10**7)})"


def la_datacite_symbol(r):
    return (
        f"DataCite repository id {r.choice(['UNI', 'RC', 'LIB'])}.{_s(r, string.ascii_uppercase, 5)}, "
        f"prefix 10.{r.randint(10000, 99999)}"
    )


def la_osf_guid(r):
    return f"OSF project https://osf.io/{_s(r, _LOWER_ALNUM, 5)}/ (preregistration {_s(r, _LOWER_ALNUM, 5)})"


def la_figshare_article(r):
    return f"figshare article id {r.randint(10**7, 10**8)} version {r.randint(1, 5)} published by {_p(r)}"


def la_azure_ids(r):
    return f"AZURE_TENANT_ID={_uuid(r)}\nAZURE_SUBSCRIPTION_ID={_uuid(r)}\nAZURE_CLIENT_ID={_uuid(r)}"


def la_gcp_sa_email(r):
    return (
        f"service account slurm-burst@rc-burst-{r.randint(100, 999)}.iam.gserviceaccount.com, private_key_id "
        f"{_hex(r, 40)} (key itself in Secret Manager)"
    )


def la_jwk_public(r):
    return f'{{"kty":"RSA","kid":"{_an(r, 43)}","use":"sig","alg":"RS256","n":"{_b64url(r, 256)}","e":"AQAB"}}'


def la_klist_ccache(r):
    return (
        f"$ klist\nTicket cache: KCM:{r.randint(1000, 99999)}\nDefault principal: {_p(r)}@RC.EXAMPLE\n\n"
        f"Valid starting     Expires            Service principal\n12/0{r.randint(1, 9)}/26 08:00:00  "
        f"12/0{r.randint(1, 9)}/26 18:00:00  krbtgt/RC.EXAMPLE@RC.EXAMPLE"
    )


def la_ldapsearch_prompt(r):
    return (
        f"$ ldapsearch -x -H ldaps://{_h(r)} -D uid={_p(r)},cn=users,dc=rc -W -b dc=rc '(memberOf=cn=hpc)'\n"
        "Enter LDAP Password:"
    )


def la_ipa_user_show(r):
    return (
        f"$ ipa user-show {(u := _p(r))}\n  User login: {u}\n  UID: {r.randint(10**5, 10**6)}\n  Password: True\n"
        f"  Kerberos keys available: True"
    )


def la_radtest(r):
    return (
        f'$ radtest {_p(r)}@{r.choice(_UNIS)} "$EDUROAM_TEST_PW" {_h(r)} 0 "$RADIUS_SECRET"\n'
        f"Received Access-Accept Id {r.randint(1, 255)}"
    )


def la_saml_entity(r):
    return (
        f"SP entityID https://{_h(r)}/shibboleth, metadata cert SHA1 fingerprint "
        f"{':'.join(_hex(r, 2).upper() for _ in range(20))}"
    )


def la_jhub_secret_file(r):
    return (
        f"c.JupyterHub.cookie_secret_file = '/srv/jupyterhub/jupyterhub_cookie_secret'\nc.JupyterHub.port = "
        f"{r.randint(8000, 9000)}"
    )


def la_jhub_env_ref(r):
    return (
        f"c.ConfigurableHTTPProxy.auth_token = os.environ['CONFIGPROXY_AUTH_TOKEN']  # set by systemd unit "
        f"jupyterhub-{r.randint(1, 99)}"
    )


def la_ood_session(r):
    return f"{_h(r)} ood: session {_uuid(r)} for {_p(r)} started on c{r.randint(1, 400):04d} (Jupyter, 4h)"


def la_rstudio_log(r):
    return f"rserver[{r.randint(1000, 9999)}]: session {_hex(r, 8)} for user {_p(r)} exited with status 0"


def la_gitlab_masked(r):
    return f"$ echo $RUNNER_TOKEN\n[MASKED]\n$ gitlab-runner verify\nVerifying runner... is valid  runner={_an(r, 8)}"


def la_harbor_robot_name(r):
    return (
        f"Created robot account robot${r.choice(['rc', 'ml', 'bio'])}+ci-{r.randint(1, 99)} with push "
        "permission; secret shown once and stored in Vault."
    )


def la_apptainer_verify(r):
    return (
        f"$ apptainer verify lolcow.sif\nVerifying image: lolcow.sif\n[LOCAL]   Signing entity: {_p(r)}\n"
        f"[LOCAL]   Fingerprint: {_hex(r, 40).upper()}\nObjects verified:"
    )


def la_vault_status(r):
    return (
        f"$ vault status\nKey                Value\nSeal Type          shamir\nSealed             false\n"
        f"Total Shares       5\nThreshold          3\nVersion            1.{r.randint(12, 19)}.{r.randint(0, 9)}\n"
        f"Cluster ID         {_uuid(r)}"
    )


def la_vault_audit_hmac(r):
    return (
        f'{{"type":"response","auth":{{"client_token":"hmac-sha256:{_hex(r, 64)}","accessor":"hmac-sha256:'
        f'{_hex(r, 64)}"}}}}'
    )


def la_tf_lock(r):
    return f"Error acquiring the state lock\nLock Info:\n  ID:        {_uuid(r)}\n  Path:      rc-tfstate/burst.tfstate"


def la_s3_etag(r):
    return (
        f"$ s3cmd ls s3://cryoem-raw/ --list-md5\n2026-11-0{r.randint(1, 9)} 10:0{r.randint(0, 9)}  "
        f"{r.randint(10**6, 10**9)}  {_hex(r, 32)}  s3://cryoem-raw/grid{r.randint(1, 99)}.tiff"
    )


def la_rclone_env_auth(r):
    return (
        f"[rgw]\ntype = s3\nprovider = Ceph\nenv_auth = true\nendpoint = https://s3.{r.choice(_UNIS)}\n"
        f"# chunk_size = {r.randint(5, 64)}M"
    )


def la_seed(r):
    return (
        f"Reproducibility: seed={r.randint(0, 2**31)}, torch {r.randint(1, 2)}.{r.randint(0, 9)}, "
        f"cudnn deterministic, run id {_hex(r, 12)}"
    )


def la_pip_hash(r):
    return f"numpy==2.{r.randint(0, 3)}.{r.randint(0, 9)} \\\n    --hash=sha256:{_hex(r, 64)}"


def la_npm_integrity(r):
    return f'"node_modules/ws": {{"version": "8.{r.randint(0, 18)}.0", "integrity": "sha512-{_b64(r, 64)}"}}'


def la_docker_image_id(r):
    return (
        f"REPOSITORY          TAG       IMAGE ID       SIZE\nrc/slurm-exporter   v{r.randint(1, 9)}        "
        f"{_hex(r, 12)}   {r.randint(20, 900)}MB"
    )


def la_lustre_fid(r):
    return f"$ lfs path2fid /lustre/scratch/{_p(r)}/out.nc\n[0x{_hex(r, 9)}:0x{_hex(r, 2)}:0x0]"


def la_nfs_exports(r):
    return f"/export/home 10.{r.randint(0, 255)}.0.0/16(rw,sync,no_subtree_check,sec=krb5p,fsid={r.randint(1, 99)})"


def la_prom_token_file(r):
    return (
        f"- job_name: slurm\n  bearer_token_file: /etc/prometheus/secrets/slurm-{r.randint(1, 9)}.token\n"
        f"  static_configs:\n    - targets: ['{_h(r)}:8080']"
    )


def la_sa_token_path(r):
    return f"token read from /var/run/secrets/kubernetes.io/serviceaccount/token in pod jhub-{_s(r, _LOWER_ALNUM, 5)}"


def la_pgp_public(r):
    body = _b64(r, 400)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + "\n".join(lines) + "\n-----END PGP PUBLIC KEY BLOCK-----"


def la_b64_config(r):
    raw = f"partition: gpu\nmax_time: {r.randint(1, 72)}h\nqos: normal\n".encode()
    return f"configmap data slurm-defaults.yaml: {base64.b64encode(raw).decode()}"


def la_core_dump(r):
    return "\n".join(
        f"#{i}  0x{_hex(r, 16)} in {r.choice(['MPI_Allreduce', 'ucp_worker_progress', 'main'])} ()" for i in range(4)
    )


def la_aws_arn(r):
    return (
        f"role_arn = arn:aws:iam::{r.randint(10**11, 10**12)}:role/rc-burst-{_s(r, _LOWER_ALNUM, 4)}\n"
        "credential_source = Ec2InstanceMetadata"
    )


def la_required_env(r):
    names = r.sample(
        [
            "VAULT_TOKEN",
            "LDAP_BIND_PW",
            "IPMI_PASSWORD",
            "ZENODO_TOKEN",
            "GLOBUS_CLIENT_SECRET",
            "HARBOR_ROBOT_SECRET",
            "AWS_SECRET_ACCESS_KEY",
            "GRAFANA_TOKEN",
        ],
        4,
    )
    return "Required env for the sync script: " + ", ".join(names) + " (see README)."


def la_redacted_dsn(r):
    return f"DATABASE_URL=postgresql://jhub:****@{_h(r)}:5432/jupyterhub?sslmode=require  # redacted copy"


def la_dsn_no_pw(r):
    return f"StorageHost={_h(r)}\nStoragePort=3306\nStorageUser=slurm\nStorageLoc=slurm_acct_db_{r.randint(1, 9)}"


def la_lfs_pointer(r):
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{_hex(r, 64)}\nsize {r.randint(10**5, 10**9)}"


def la_machine_id(r):
    return f"ansible_machine_id: {_hex(r, 32)}\nansible_hostname: {r.choice(_NODES)}"


def la_cert_thumbprint(r):
    return f"ACME account thumbprint {_b64url(r, 32)} registered for {_h(r)}"


def la_keycloak_realm_pubkey(r):
    return (
        f'{{"realm":"rc","public_key":"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{_b64(r, 200)}",'
        f'"token-service":"https://{_h(r)}/realms/rc/protocol/openid-connect"}}'
    )


def la_remunge(r):
    return (
        f"$ remunge\n{time_str(r)} Spawning 1 thread for encoding\n{time_str(r)} Processing credentials "
        f"for 1 second\n{time_str(r)} Processed {r.randint(5000, 40000)} credentials in 1.000s"
    )


def time_str(r):
    return f"2026-12-0{r.randint(1, 6)} {r.randint(10, 23)}:{r.randint(10, 59)}:{r.randint(10, 59)}"


def la_orcid_app_id(r):
    return f"ORCID member API client id APP-{_s(r, string.ascii_uppercase + string.digits, 16)} (client id is public)"


def la_azure_app_id(r):
    return f"Registered app 'rc-burst' application (client) ID {_uuid(r)}; certificate credential, no secret."


def la_uuid_request(r):
    return (
        f"{time_str(r)} keycloak: type=LOGIN_ERROR, realmId={_uuid(r)}, clientId=ondemand, "
        f"error=invalid_user_credentials, requestId={_uuid(r)}"
    )


def la_github_secret_ref(r):
    return (
        f"env:\n  ZENODO_TOKEN: ${{{{ secrets.ZENODO_TOKEN }}}}\n  RUN_ID: ${{{{ github.run_id }}}}-{r.randint(1, 999)}"
    )


def la_ansible_lookup(r):
    return (
        f"ipmi_password: \"{{{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/bmc/"
        f"{r.choice(_NODES)}:password') }}}}\""
    )


def la_password_prompt(r):
    return f"$ sudo -u {(u := _p(r))} kinit\nPassword for {u}@RC.EXAMPLE: \n$ klist -s && echo ok\nok  # ticket {r.randint(1, 99)}"


def la_gitlab_ci_var_ref(r):
    return (
        f"deploy:\n  script:\n    - docker login -u $CI_REGISTRY_USER -p $CI_REGISTRY_PASSWORD $CI_REGISTRY\n"
        f"    - docker push $CI_REGISTRY_IMAGE:{_hex(r, 8)}"
    )


def la_hex_color(r):
    return "Grafana theme overrides: " + ", ".join(f"#{_hex(r, 6)}" for _ in range(5))


def la_hpc_quota(r):
    return (
        f"$ lfs quota -u {(u := _p(r))} /lustre\nDisk quotas for usr {u} (uid {r.randint(10**5, 10**6)}):\n"
        f"     /lustre  {r.randint(10**6, 10**9)}  0  0  -  {r.randint(10**3, 10**6)}"
    )


def la_password_policy(r):
    return (
        f"FreeIPA pwpolicy: min length {r.randint(10, 16)}, min classes 3, history {r.randint(3, 24)}, "
        f"lockout after {r.randint(3, 10)} failures. Passwords are never stored in the wiki."
    )


def la_otp_uri_doc(r):
    return (
        f"2FA enrolment doc: scan the QR code in the portal; the otpauth:// URI is shown only once "
        f"(step {r.randint(1, 9)}, ticket {r.randint(1000, 9999)})."
    )


def la_sif_signature_keyid(r):
    return (
        f"$ apptainer key list\n0) User: RC build bot\n   Creation time: 2026-0{r.randint(1, 9)}-01\n"
        f"   Fingerprint: {_hex(r, 40).upper()}\n   Length (in bits): 4096"
    )


def la_pub_ssh_rsa(r):
    return f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{_b64(r, 380)} gitlab-runner@{r.choice(_NODES)}"


def la_sops_file_meta(r):
    return (
        f"sops:\n  kms: []\n  age:\n    - recipient: age1{_s(r, '023456789acdefghjklmnpqrstuvwxyz', 58)}\n"
        f'  lastmodified: "2026-1{r.randint(0, 2)}-01T00:00:00Z"\n  mac: ENC[AES256_GCM,data:{_b64(r, 48)},iv:'
        f"{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"
    )


def la_jwt_doc_example(r):
    return (
        f"The Keycloak token endpoint returns JSON with access_token, expires_in={r.randint(60, 3600)} and "
        "refresh_token; never paste the tokens into tickets."
    )


def la_conda_build_hash(r):
    return f"  - pytorch=2.{r.randint(0, 6)}.0=cuda12{r.randint(0, 6)}_py311h{_hex(r, 7)}_{r.randint(0, 300)}"


def la_notebook_output_b64(r):
    return (
        f'{{"output_type": "display_data", "execution_count": {r.randint(1, 99)}, "data": {{"image/png": '
        f'"{_b64(r, 150)}"}}}}'
    )


_LOOK = [v for k, v in sorted(globals().items()) if k.startswith("la_") and callable(v)]


# ---------------------------------------------------------------------------------------------
# entry point
# ---------------------------------------------------------------------------------------------
def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    r = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for spec in _kinds():
        got = 0
        tries = 0
        while got < PER_KIND:
            tries += 1
            if tries > PER_KIND * 50:
                raise RuntimeError(f"cannot make {PER_KIND} distinct texts for {spec['kind']}")
            text, secret = _render(r, spec, seen)
            if text in seen or secret not in text:
                continue
            seen.add(text)
            positives.append((text, spec["kind"], secret))
            got += 1
    lookalikes: list[str] = []
    for fn in _LOOK:
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > LOOK_PER_GEN * 50:
                raise RuntimeError(f"cannot make {LOOK_PER_GEN} distinct texts with {fn.__name__}")
            text = fn(r)
            if text in seen:
                continue
            seen.add(text)
            lookalikes.append(text)
            got += 1
    return positives, lookalikes
