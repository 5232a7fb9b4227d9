"""Set AJ: labelled test texts for a secret detector (biotech lab informatics + CRO).

Theme
-----
Memories an AI coding agent keeps for a biotech start-up's lab-informatics team and
the contract research organisation (CRO) it outsources to: Benchling, DNAnexus,
Illumina BaseSpace, Terra, Seven Bridges, Seqera Platform (Nextflow Tower), NCBI
E-utilities, Galaxy, LabKey, Quartzy, Dotmatics, AWS HealthOmics / S3, Azure Blob,
Snowflake, Postgres, Windows instrument PCs, SMB shares, MinKNOW, Synology, SFTP /
Aspera / Globus deliveries, and on the CRO side Veeva Vault, Medidata Rave, REDCap,
Smartsheet, DocuSign, Box, Microsoft 365 / Entra ID, SSO, VPN and ticketing.
Styles: about half prose (notes, lessons, runbooks, TODOs, lab notebook entries,
tickets, e-mails, chat; mostly English plus Danish, Dutch, Hebrew, Hindi, Brazilian
Portuguese and Polish), a quarter config (Nextflow, Snakemake, .env, compose,
Kubernetes, JSON, YAML, INI, .Renviron, Python settings, CWL/WDL inputs) and a
quarter tool output (dx, bs, aws, az, tw, psql, sftp, container logs, HTTP dumps,
CI logs, Jupyter output).

Contract
--------
``generate(seed) -> (positives, lookalikes)``

* ``positives``: list of ``(text, kind, secret)``; ``secret`` is an exact substring
  of ``text`` and the only credential in it.  Every kind has exactly 30 positives.
* ``lookalikes``: texts without any credential, ``LOOK_PER_GEN`` distinct texts from
  each generator in ``_LOOK``.
* Deterministic per seed (``random.Random`` seeded from the seed only); no text
  appears twice in the whole output.

Labelling conventions
---------------------
* Webhook URLs: the final path token is the secret.  Connection strings and
  basic-auth URLs: the password only.  Pre-signed URLs (S3, Azure SAS): the
  signature.  PEM / OpenSSH private keys: the whole armoured block, BEGIN line to
  END line (including any indentation of inner lines as it appears in the text).
* UUID-shaped vendor tokens are secrets only when the text names them as a
  token / key / secret.
* Public-by-design values (publishable keys, anon keys, site keys, Sentry DSNs,
  OAuth client ids, Firebase web apiKeys, search-only keys, public certificates and
  public keys), vendor documentation example values, encrypted blobs and password
  hashes are look-alikes.  Bare AWS access key ids are left out entirely.
  An AWS access key id appears only next to its secret access key or inside the
  X-Amz-Credential of a pre-signed URL (it is never the labelled secret there).
* Kubernetes Secrets use ``stringData`` (plain values); base64 ``data`` values and
  Google OAuth access tokens inside JWT-like blobs are not used as carriers.
* Left out as ambiguous: bare AWS key ids, Google API keys (AIza..., public for
  Firebase web config but secret for server use; only the Firebase case appears, as
  a look-alike), Box shared-link tokens, Veeva session ids, NTLM hashes.
* No token-shaped literal appears in this source: prefixes and bodies are
  assembled at run time from pieces and seeded random bodies.
"""

from __future__ import annotations

import base64
import random
import re
import string
import uuid

LOOK_PER_GEN = 12

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LO + DIG
LOALNUM = LO + DIG
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = ALNUM + "+/"
URLS = ALNUM + "-_"
B32L = LO + "234567"
BECH = "023456789ACDEFGHJKLMNPQRSTUVWXYZ"


def _r(rng: random.Random, alph: str, n: int) -> str:
    return "".join(rng.choice(alph) for _ in range(n))


def _mixed(rng: random.Random, alph: str, n: int) -> str:
    """Random string that contains at least one digit and one letter."""
    while True:
        s = _r(rng, alph, n)
        if any(c.isdigit() for c in s) and any(c.isalpha() for c in s):
            return s


def _bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


def _b64(rng: random.Random, n: int) -> str:
    return base64.b64encode(_bytes(rng, n)).decode()


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


# ---------------------------------------------------------------- fillers
_FIRST = [
    "Mette",
    "Jeroen",
    "Noa",
    "Priya",
    "João",
    "Kasia",
    "Lars",
    "Sanne",
    "Yael",
    "Arjun",
    "Camila",
    "Piotr",
    "Freja",
    "Daan",
    "Avi",
    "Ananya",
    "Rafael",
    "Zofia",
    "Tom",
    "Hannah",
    "Omar",
    "Lucía",
    "Søren",
    "Maartje",
    "Ravi",
    "Beatriz",
    "Tomasz",
]
_LAST = [
    "Hansen",
    "de Vries",
    "Levi",
    "Sharma",
    "Silva",
    "Nowak",
    "Jensen",
    "Bakker",
    "Cohen",
    "Iyer",
    "Oliveira",
    "Kowalski",
    "Nielsen",
    "Visser",
    "Mizrahi",
    "Rao",
]
_CRO = [
    "Nordvik Clinical",
    "Helixa CRO",
    "Castellan Research",
    "BioPharmaLink",
    "Meridian Trials",
    "Oakridge CRO",
    "Vireo Clinical",
    "Lindqvist Research",
]
_PROVIDERS = [
    "Novogene",
    "GeneWiz",
    "Macrogen",
    "BGI Genomics",
    "Eurofins",
    "Psomagen",
    "the Copenhagen core facility",
    "the Radboud sequencing core",
    "SciLifeLab NGI",
]
_HOSTS = [
    "lims-db01",
    "eln-gw",
    "seq-nas02",
    "hpc-login1",
    "pipeline-runner",
    "qpcr-pc03",
    "minion-pc2",
    "flow-cyto-01",
    "synology-ds920",
    "bioinfo-ws7",
    "etl-worker",
    "sftp-drop",
    "nextflow-head",
    "analysis-vm4",
    "plate-reader-pc",
    "edc-bridge",
]
_DOMAINS = ["lab.internal", "corp.local", "biotx.io", "nordlys-bio.com", "aurora-tx.eu"]
_PIPES = [
    "nf-core/rnaseq",
    "nf-core/sarek",
    "nf-core/atacseq",
    "nf-core/ampliseq",
    "variant-calling",
    "scRNA QC",
    "plasmid-assembly",
    "nanopore-basecall",
    "crispr-screen",
    "proteomics-ingest",
    "ELN sync",
    "EDC export",
]
_TENANTS = ["nordlys", "auroratx", "helixbio", "fjordgen", "kestrel-bio", "tulipgen"]
_DBUSERS = [
    "lims_app",
    "etl",
    "svc_ingest",
    "analyst_ro",
    "benchling_sync",
    "dbt",
    "postgres",
]
_DBS = ["lims", "eln", "seqruns", "assays", "warehouse", "samples", "edc_mirror"]
_WORDS = [
    "tulip",
    "rover",
    "fjord",
    "maple",
    "otter",
    "cobalt",
    "helix",
    "plasmid",
    "falcon",
    "ember",
    "harbor",
    "lotus",
    "granite",
    "nebula",
    "pepper",
    "saffron",
    "willow",
    "quartz",
    "amber",
    "basil",
    "cedar",
    "delta",
    "kiwi",
    "zebra",
    "orbit",
]
_SEASON = ["Summer", "Winter", "Spring", "Autumn", "Lente", "Vinter", "Verao", "Zima"]


def _date(rng):
    return f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _time(rng):
    return f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}"


def _person(rng):
    return rng.choice(_FIRST)


def _fullname(rng):
    return f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"


def _run(rng):
    inst = rng.choice(["A0", "VH0", "M0", "NB5", "LH0"]) + str(rng.randint(1000, 9999))
    return (
        f"26{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}_{inst}_"
        f"{rng.randint(1, 999):04d}_{rng.choice('AB')}H{_r(rng, UP + DIG, 7)}"
    )


_FILL = {
    "person": _person,
    "person2": _person,
    "fullname": _fullname,
    "date": _date,
    "date2": _date,
    "time": _time,
    "cro": lambda r: r.choice(_CRO),
    "provider": lambda r: r.choice(_PROVIDERS),
    "host": lambda r: r.choice(_HOSTS) + r.choice(["", "." + r.choice(_DOMAINS)]),
    "domain": lambda r: r.choice(_DOMAINS),
    "ip": lambda r: f"10.{r.randint(0, 60)}.{r.randint(0, 255)}.{r.randint(2, 250)}",
    "ticket": lambda r: f"{r.choice(['LAB', 'INF', 'IT', 'CRO', 'BIOINF'])}-{r.randint(100, 4999)}",
    "batch": lambda r: f"B{r.randint(2026000, 2026999)}",
    "sample": lambda r: f"{r.choice(['S', 'PT', 'CL', 'ORG'])}{r.randint(1000, 99999)}",
    "run": _run,
    "pipeline": lambda r: r.choice(_PIPES),
    "tenant": lambda r: r.choice(_TENANTS),
    "dbuser": lambda r: r.choice(_DBUSERS),
    "db": lambda r: r.choice(_DBS),
    "n": lambda r: str(r.randint(2, 97)),
    "port": lambda r: str(r.choice([5432, 5433, 6432])),
    "bucket": lambda r: (
        f"{r.choice(_TENANTS)}-{r.choice(['raw-fastq', 'results', 'omics-ref', 'cro-drop', 'archive'])}"
    ),
    "study": lambda r: f"{r.choice(['NRD', 'AUR', 'HLX', 'KST'])}-{r.randint(100, 999)}",
    "site": lambda r: f"{r.randint(1, 40):03d}",
    "well": lambda r: f"{r.choice('ABCDEFGH')}{r.randint(1, 12)}",
    "user": lambda r: (
        r.choice(_FIRST).lower().replace("ø", "o").replace("ã", "a").replace("í", "i").replace("ú", "u")
        + r.choice(["", ".", "_"])
        + r.choice(_LAST).lower().replace(" ", "")
    ),
    "keyfile": lambda r: r.choice(
        [
            "id_ed25519_delivery",
            "novogene_sftp",
            "cro_drop_key",
            "id_rsa_aspera",
            "seqcore",
        ]
    ),
    "wf": lambda r: r.choice(["RNAseqQC", "GermlineSNV", "Amplicon16S", "ScAtlas", "MethylSeq"]),
    "org": lambda r: r.choice(_TENANTS),
    "hex7": lambda r: _r(r, HEXL, 7),
    "uuid": _uuid,
    "plate": lambda r: f"P{r.randint(1, 400):04d}",
    "acct": lambda r: (
        f"{_r(r, LO, 2)}{r.randint(10000, 99999)}.{r.choice(['eu-central-1', 'west-europe.azure', 'us-east-1'])}"
    ),
}

_PH = re.compile("\u00ab(\\w+)\u00bb")


def _fill(rng: random.Random, tmpl: str, ctx: dict) -> str:
    def rep(m):
        k = m.group(1)
        if k in ctx:
            return ctx[k]
        return _FILL[k](rng)

    return _PH.sub(rep, tmpl)


# ---------------------------------------------------------------- secret values
def _pw_human(rng):
    w = rng.choice(_WORDS)
    pat = rng.randrange(6)
    if pat == 0:
        return f"{rng.choice(_SEASON)}{rng.randint(2019, 2027)}{rng.choice('!?.$')}"
    if pat == 1:
        return f"{w}-{rng.choice(_WORDS).capitalize()}-{rng.randint(10, 99)}"
    if pat == 2:
        return f"{w.capitalize()}{rng.randint(100, 9999)}{rng.choice('!@$%&*')}"
    if pat == 3:
        return "-".join(rng.choice(_WORDS) for _ in range(4)) + str(rng.randint(1, 9))
    if pat == 4:
        return f"{rng.choice(_TENANTS).capitalize()}_{w}{rng.randint(1, 99)}!"
    return f"{w[0].upper()}{w[1:]}{rng.choice('.-_')}{rng.choice(_WORDS)}{rng.randint(2, 9)}{rng.choice('!?')}"


def _pw_gen(rng, n=None, sym="!@$%&*-_+=?"):
    n = n or rng.randint(14, 24)
    while True:
        s = _r(rng, ALNUM + sym, n)
        if any(c in sym for c in s) and any(c.isdigit() for c in s) and any(c.isupper() for c in s):
            return s


def _pw(rng):
    return _pw_human(rng) if rng.random() < 0.55 else _pw_gen(rng)


def _pw_url(rng):
    """Password safe inside a URL userinfo."""
    if rng.random() < 0.5:
        return f"{rng.choice(_WORDS).capitalize()}{rng.randint(10, 9999)}{rng.choice('-_.~!')}{rng.choice(_WORDS)}"
    return _pw_gen(rng, sym="-_.~!")


def _tower_token(rng):
    raw = '{"tid": ' + str(rng.randint(1000, 99999)) + "}." + _r(rng, HEXL, 40)
    return base64.b64encode(raw.encode()).decode().rstrip("=")


def _pem(rng, label, head, nbytes, width=64, indent="", joiner="\n"):
    body = base64.b64encode(head + _bytes(rng, nbytes)).decode()
    lines = [body[i : i + width] for i in range(0, len(body), width)]
    b, e = "-----BEGIN ", "-----END "
    tail = " PRIVATE" + " KEY-----"
    out = [b + label + tail, *lines, e + label + tail]
    return (joiner + indent).join(out)


def _openssh(rng, indent=""):
    return _pem(
        rng,
        "OPENSSH",
        b"openssh-key-v1\x00\x00\x00\x00\x04none",
        rng.randint(360, 420),
        70,
        indent,
    )


def _rsa(rng, indent=""):
    return _pem(
        rng,
        "RSA",
        b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00",
        rng.randint(1150, 1180),
        64,
        indent,
    )


_PKCS8_HEAD = (
    b"\x30\x82\x04\xbe\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x04\x82\x04\xa8"
)


def _pkcs8(rng, indent="", joiner="\n"):
    b = "-----BEGIN " + "PRIVATE" + " KEY-----"
    e = "-----END " + "PRIVATE" + " KEY-----"
    body = base64.b64encode(_PKCS8_HEAD + _bytes(rng, rng.randint(1190, 1200))).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return (joiner + indent).join([b, *lines, e])


def _atl(rng):
    return "ATATT" + "3xFfGF0" + _r(rng, URLS, 171) + "=" + _r(rng, HEXU, 8)


def _entra(rng):
    return _r(rng, ALNUM, 3) + rng.choice(DIG) + "Q" + "~" + _r(rng, ALNUM + "_.~-", 34)


def _slack_bot(rng):
    return (
        "xo"
        + "xb-"
        + str(rng.randint(10**10, 10**13))
        + "-"
        + str(rng.randint(10**10, 10**13))
        + "-"
        + _mixed(rng, ALNUM, 24)
    )


def _azure_sig(rng):
    return _b64(rng, 32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


# ---------------------------------------------------------------- kinds
# Each kind: kind, label, env names, value generator, carrier, ctype, service, spec
# templates (strings with «S» / «V» or callables rng -> (text, secret)), generic flag.
# ctype: "token" (bearer-able), "pw" (password), "url" (carrier is a URL / DSN).


def _k(
    kind,
    label,
    envs,
    gen,
    svc,
    spec=(),
    carrier="\u00abS\u00bb",
    ctype="token",
    generic=True,
):
    return {
        "kind": kind,
        "label": label,
        "envs": envs,
        "gen": gen,
        "svc": svc,
        "spec": list(spec),
        "carrier": carrier,
        "ctype": ctype,
        "generic": generic,
    }


def _pem_templates(keyfn, what):
    def t1(rng):
        k = keyfn(rng)
        return _fill(rng, what + " (user «user»), saved as ~/.ssh/«keyfile» on «host»:\n", {}) + k + "\n", k

    def t2(rng):
        k = keyfn(rng)
        return _fill(rng, "$ cat ~/.ssh/«keyfile»\n", {}) + k + _fill(
            rng,
            "\n$ chmod 600 ~/.ssh/«keyfile»\n$ sftp -i ~/.ssh/«keyfile» «user»@sftp.«domain»\nConnected to sftp.«domain».\nsftp> ls\n«run»\n",
            {},
        ), k

    def t3(rng):
        k = keyfn(rng, "    ")
        head = _fill(
            rng,
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: «keyfile»\n  namespace: pipelines\ntype: kubernetes.io/ssh-auth\nstringData:\n  ssh-privatekey: |\n    ",
            {},
        )
        return head + k + "\n", k

    def t4(rng):
        k = keyfn(rng)
        return _fill(
            rng,
            "Ticket «ticket»: «provider» delivery for «run» failing with 'Permission denied (publickey)'.\n«person» pasted the key we registered with them, re-deploying to «host»:\n\n",
            {},
        ) + k + _fill(rng, "\n\nResolved «date» — key was missing a trailing newline.", {}), k

    def t5(rng):
        k = keyfn(rng, "          ")
        head = _fill(
            rng,
            "# docker-compose.yml (delivery poller)\nservices:\n  poller:\n    image: ghcr.io/«org»/delivery-poller:«n».1\n    configs:\n      - source: sftp_key\nconfigs:\n  sftp_key:\n    content: |\n          ",
            {},
        )
        return head + k + "\n", k

    def t6(rng):
        k = keyfn(rng)
        return _fill(
            rng,
            "Notat «date» (Mette): nøglen til «provider» SFTP ligger nu her indtil vi får Vault op:\n",
            {},
        ) + k, k

    def t7(rng):
        k = keyfn(rng)
        return _fill(
            rng,
            "[«time»] «person»: which key did we give «cro» for the drop box?\n[«time»] «person2»: this one, don't tell security\n```\n",
            {},
        ) + k + "\n```", k

    return [t1, t2, t3, t4, t5, t6, t7]


def _gcp_sa(rng):
    k = _pkcs8(rng, joiner="\\n")
    proj = f"{rng.choice(_TENANTS)}-terra-{rng.randint(100, 999)}"
    txt = (
        "{\n"
        '  "type": "service_account",\n'
        f'  "project_id": "{proj}",\n'
        f'  "private_key_id": "{_r(rng, HEXL, 40)}",\n'
        f'  "private_key": "{k}\\n",\n'
        f'  "client_email": "terra-runner@{proj}.iam.gserviceaccount.com",\n'
        f'  "client_id": "{rng.randint(10**20, 10**21)}",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token"\n'
        "}"
    )
    return txt, k


def _gcp_sa_note(rng):
    txt, k = _gcp_sa(rng)
    return _fill(
        rng,
        "Saved the Terra workspace service account JSON from «person» (/secrets/sa.json on «host»):\n",
        {},
    ) + txt, k


def _gcp_sa_cat(rng):
    txt, k = _gcp_sa(rng)
    return (
        "$ cat ~/.config/gcloud/terra-sa.json\n"
        + txt
        + "\n$ gcloud auth activate-service-account --key-file ~/.config/gcloud/terra-sa.json",
        k,
    )


def _gcp_sa_pem(rng):
    k = _pkcs8(rng)
    return _fill(
        rng,
        "Lesson («date»): Cromwell on «host» needs the SA key as a PEM file, not JSON. Extracted it:\n",
        {},
    ) + k + "\n", k


KINDS = [
    _k(
        "benchling_api_key",
        "Benchling API key",
        ["BENCHLING_API_KEY", "BENCHLING_KEY"],
        lambda r: "s" + "k_" + _mixed(r, ALNUM, 30),
        "Benchling",
        [
            '$ curl -s -u "«S»:" "https://«tenant».benchling.com/api/v2/dna-sequences?pageSize=5" | jq .dnaSequences[0].id\n"seq_'
            + "«hex7»"
            + '"',
            'from benchling_sdk.auth.api_key_auth import ApiKeyAuth\nbenchling = Benchling(url="https://«tenant».benchling.com", auth_method=ApiKeyAuth("«S»"))',
        ],
    ),
    _k(
        "dnanexus_api_token",
        "DNAnexus API token",
        ["DX_API_TOKEN", "DNANEXUS_TOKEN"],
        lambda r: _mixed(r, ALNUM, 32),
        "DNAnexus",
        [
            "$ dx login --token «S» --noprojects\nYou are now logged in as user-«user».\n$ dx select project-«hex7»",
            'export DX_SECURITY_CONTEXT=\'{"auth_token_type": "Bearer", "auth_token": "«S»"}\'\ndx run app-bwa_mem_fastq_read_mapper -y',
        ],
    ),
    _k(
        "basespace_access_token",
        "BaseSpace access token",
        ["BASESPACE_ACCESS_TOKEN", "BS_ACCESS_TOKEN"],
        lambda r: _r(r, HEXL, 32),
        "Illumina BaseSpace",
        [
            "# ~/.basespace/default.cfg\napiServer   = https://api.basespace.illumina.com\naccessToken = «S»",
            "$ curl -s -H 'x-access-token: «S»' https://api.euc1.sh.basespace.illumina.com/v2/users/current | jq .Email\n\"«user»@«domain»\"",
        ],
    ),
    _k(
        "terra_google_access_token",
        "Terra/gcloud access token",
        ["TERRA_TOKEN", "GCLOUD_ACCESS_TOKEN"],
        lambda r: "ya" + "29." + _r(r, URLS, r.randint(150, 200)),
        "Terra",
        [
            '$ curl -s -H "Authorization: Bearer «S»" https://api.firecloud.org/api/workspaces/«tenant»-lab/«wf»/submissions | head\n[]'
        ],
    ),
    _k(
        "sevenbridges_auth_token",
        "Seven Bridges auth token",
        ["SB_AUTH_TOKEN", "SBG_AUTH_TOKEN"],
        lambda r: _r(r, HEXL, 32),
        "Seven Bridges",
        [
            "# ~/.sevenbridges/credentials\n[default]\napi_endpoint = https://eu-api.sbgenomics.com/v2\nauth_token = «S»",
            "> GET /v2/projects/«tenant»/«wf»/tasks HTTP/1.1\n> Host: api.sbgenomics.com\n> X-SBG-Auth-Token: «S»\n< HTTP/1.1 200 OK",
        ],
    ),
    _k(
        "seqera_access_token",
        "Seqera Platform (Tower) access token",
        ["TOWER_ACCESS_TOKEN"],
        _tower_token,
        "Seqera Platform",
        [
            "tower {\n  enabled     = true\n  accessToken = '«S»'\n  workspaceId = '«n»81726354'\n}",
            "$ tw -t «S» runs list -w «tenant»/production\n  ID             | Status    | Project name      \n ----------------+-----------+------------------\n  4Bi5xBK6E2Nbhj | SUCCEEDED | nf-core/rnaseq",
        ],
    ),
    _k(
        "ncbi_api_key",
        "NCBI E-utilities API key",
        ["NCBI_API_KEY", "ENTREZ_API_KEY"],
        lambda r: _mixed(r, HEXL, 36),
        "NCBI E-utilities",
        [
            "$ curl 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi?db=sra&term=«sample»&retmode=json&api_key=«S»'",
            'from Bio import Entrez\nEntrez.email = "«user»@«domain»"\nEntrez.api_key = "«S»"',
        ],
    ),
    _k(
        "galaxy_api_key",
        "Galaxy API key",
        ["GALAXY_API_KEY", "BIOBLEND_GALAXY_API_KEY"],
        lambda r: _r(r, HEXL, 32),
        "Galaxy",
        [
            'gi = GalaxyInstance(url="https://usegalaxy.eu", key="«S»")\nhist = gi.histories.create_history(name="«run»")',
            "$ planemo run «wf».ga job.yml --galaxy_url https://galaxy.«domain» --galaxy_user_key «S»",
        ],
    ),
    _k(
        "labkey_api_key",
        "LabKey API key",
        ["LABKEY_API_KEY"],
        lambda r: "api" + "key|" + _r(r, HEXL, 32),
        "LabKey",
        [
            "# ~/.netrc\nmachine labkey.«domain»\nlogin apikey\npassword «S»",
            'library(Rlabkey)\nlabkey.setDefaults(apiKey = "«S»", baseUrl = "https://labkey.«domain»/")',
        ],
    ),
    _k(
        "quartzy_access_token",
        "Quartzy access token",
        ["QUARTZY_ACCESS_TOKEN"],
        lambda r: _mixed(r, ALNUM, 40),
        "Quartzy",
        ["$ curl -s https://api.quartzy.com/order-requests -H 'Access-Token: «S»' | jq length\n«n»"],
    ),
    _k(
        "dotmatics_password",
        "Dotmatics service account password",
        ["DOTMATICS_PASSWORD"],
        _pw,
        "Dotmatics",
        ctype="pw",
        spec=["Dotmatics Browser: svc_dm_loader / «S» (data source «db», used by the assay upload job on «host»)"],
    ),
    _k(
        "aws_secret_access_key",
        "AWS secret access key",
        ["AWS_SECRET_ACCESS_KEY"],
        lambda r: _mixed(r, ALNUM + "+/", 40),
        "AWS HealthOmics",
        [
            "[omics-pipeline]\naws_access_key_id = «AKID»\naws_secret_access_key = «S»\nregion = eu-west-1",
            "$ aws configure --profile healthomics\nAWS Access Key ID [None]: «AKID»\nAWS Secret Access Key [None]: «S»\nDefault region name [None]: eu-central-1\nDefault output format [None]: json",
        ],
    ),
    _k(
        "aws_s3_presigned_signature",
        "S3 pre-signed URL",
        ["RESULTS_URL"],
        lambda r: _r(r, HEXL, 64),
        "AWS S3",
        ctype="url",
        carrier="https://«bucket».s3.eu-west-1.amazonaws.com/runs/«run»/multiqc_report.html?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=«AKID»%2F20261104%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20261104T101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=«S»",
    ),
    _k(
        "azure_sas_signature",
        "Azure Blob SAS URL",
        ["AZURE_SAS_URL", "CRO_UPLOAD_URL"],
        _azure_sig,
        "Azure Blob Storage",
        ctype="url",
        carrier="https://«tenant»crodrop.blob.core.windows.net/deliveries/«study»?sv=2022-11-02&ss=b&srt=co&sp=rwl&se=2026-12-31T23:00:00Z&st=2026-11-01T08:00:00Z&spr=https&sig=«S»",
    ),
    _k(
        "azure_storage_account_key",
        "Azure storage account key",
        ["AZURE_STORAGE_KEY"],
        lambda r: _b64(r, 64),
        "Azure Blob Storage",
        [
            "DefaultEndpointsProtocol=https;AccountName=«tenant»omics;AccountKey=«S»;EndpointSuffix=core.windows.net",
            '$ az storage account keys list -g rg-lab -n «tenant»omics -o json\n[\n  {\n    "creationTime": "«date»T08:12:44+00:00",\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "«S»"\n  }\n]',
        ],
    ),
    _k(
        "snowflake_password",
        "Snowflake password",
        ["SNOWFLAKE_PASSWORD", "SF_PASSWORD"],
        _pw,
        "Snowflake",
        ctype="pw",
        spec=[
            "snowflake:\n  account: «acct»\n  user: LIMS_LOADER\n  password: «S»\n  warehouse: LAB_WH\n  database: ASSAYS",
            'conn = snowflake.connector.connect(account="«acct»", user="DBT_SVC", password="«S»", role="TRANSFORMER")',
        ],
    ),
    _k(
        "postgres_password",
        "Postgres password",
        ["DATABASE_URL", "LIMS_DB_URL"],
        _pw_url,
        "Postgres",
        ctype="url",
        spec=[
            "$ PGPASSWORD='«S»' psql -h «host» -U «dbuser» -d «db»\npsql (16.4)\nType \"help\" for help.\n\n«db»=> \\dt",
            "# ~/.pgpass\n«host»:«port»:«db»:«dbuser»:«S»",
        ],
        carrier="postgresql://«dbuser»:«S»@«host»:«port»/«db»",
    ),
    _k(
        "windows_local_admin_password",
        "local Administrator password",
        ["INSTRUMENT_PC_ADMIN_PW"],
        _pw,
        "instrument PC",
        ctype="pw",
        spec=[
            "C:\\> net user Administrator «S»\nThe command completed successfully.",
            "QuantStudio PC «host»: local admin is .\\labadmin / «S» (LAPS not rolled out to instrument VLAN yet)",
        ],
    ),
    _k(
        "smb_share_password",
        "SMB share password",
        ["SMB_PASSWORD"],
        _pw,
        "SMB share",
        ctype="pw",
        spec=[
            "C:\\> net use Z: \\\\seq-nas02\\runs /user:LAB\\svc_seqcopy «S» /persistent:yes\nThe command completed successfully.",
            "$ sudo mount -t cifs //seq-nas02/runs /mnt/runs -o username=svc_seqcopy,password=«S»,domain=LAB,vers=3.0",
        ],
    ),
    _k(
        "minknow_developer_token",
        "MinKNOW developer API token",
        ["MINKNOW_AUTH_TOKEN"],
        _uuid,
        "MinKNOW",
        ['from minknow_api.manager import Manager\nmanager = Manager(host="«host»", developer_api_token="«S»")'],
    ),
    _k(
        "synology_password",
        "Synology DSM admin password",
        ["SYNOLOGY_PASSWORD"],
        _pw,
        "Synology NAS",
        ctype="pw",
        spec=["Synology DS920+ (https://«ip»:5001): admin account labnas / «S» — Hyper Backup to C2 runs nightly"],
    ),
    _k(
        "sftp_password",
        "SFTP delivery password",
        ["SFTP_PASSWORD"],
        _pw,
        "sequencing provider SFTP",
        ctype="pw",
        spec=[
            "«provider» delivery for «run»: sftp «user»@sftp.«domain» password «S» (valid 14 days)",
            "$ lftp -u X202SC«n»,«S» sftp://sftp.«domain»\nlftp X202SC@sftp.«domain»:~> mirror «run»",
        ],
    ),
    _k(
        "aspera_password",
        "Aspera transfer password",
        ["ASPERA_SCP_PASS"],
        _pw,
        "Aspera",
        ctype="pw",
        spec=[
            "$ export ASPERA_SCP_PASS='«S»'\n$ ascp -QT -l 300m -P 33001 «user»@aspera.«domain»:/«run» /data/incoming/\n«run»/Sample_«sample»_R1.fastq.gz 100% 4211MB  287Mb/s"
        ],
    ),
    _k(
        "globus_client_secret",
        "Globus client secret",
        ["GLOBUS_CLIENT_SECRET"],
        lambda r: _b64(r, 32),
        "Globus",
        [
            'client = globus_sdk.ConfidentialAppAuthClient("«uuid»", "«S»")\ntc = globus_sdk.TransferClient(authorizer=...)'
        ],
    ),
    _k(
        "openssh_private_key",
        "SFTP private key",
        [],
        _openssh,
        "SFTP",
        spec=_pem_templates(_openssh, "«provider» SFTP delivery key"),
        generic=False,
    ),
    _k(
        "rsa_private_key",
        "Aspera/DocuSign RSA key",
        [],
        _rsa,
        "Aspera",
        spec=_pem_templates(_rsa, "RSA key for the Aspera / DocuSign JWT integration"),
        generic=False,
    ),
    _k(
        "gcp_service_account_key",
        "GCP service account key",
        [],
        _pkcs8,
        "Terra",
        spec=[_gcp_sa_note, _gcp_sa_cat, _gcp_sa_pem],
        generic=False,
    ),
    _k(
        "veeva_vault_password",
        "Veeva Vault integration password",
        ["VAULT_PASSWORD", "VEEVA_PASSWORD"],
        _pw,
        "Veeva Vault",
        ctype="pw",
        spec=[
            '$ curl -X POST https://«tenant»-clinical.veevavault.com/api/v24.1/auth -d \'username=integration@«tenant».com&password=«S»\'\n{"responseStatus":"SUCCESS","sessionId":"..."}'
        ],
    ),
    _k(
        "medidata_rave_password",
        "Medidata Rave web services password",
        ["RAVE_PASSWORD"],
        _pw,
        "Medidata Rave",
        ctype="pw",
        spec=["RWS user for study «study»: rws_«tenant» / «S» (https://«tenant».mdsol.com/RaveWebServices)"],
    ),
    _k(
        "redcap_api_token",
        "REDCap API token",
        ["REDCAP_API_TOKEN", "EDC_TOKEN"],
        lambda r: _mixed(r, HEXU, 32),
        "REDCap",
        [
            "$ curl -s -X POST https://edc.«domain»/redcap/api/ -d token=«S» -d content=record -d format=json | jq length\n«n»",
            'rcon = redcap.Project("https://edc.«domain»/redcap/api/", "«S»")',
        ],
    ),
    _k(
        "smartsheet_api_token",
        "Smartsheet API token",
        ["SMARTSHEET_ACCESS_TOKEN"],
        lambda r: _mixed(r, ALNUM, 37),
        "Smartsheet",
        ["smart = smartsheet.Smartsheet('«S»')\nsheet = smart.Sheets.get_sheet(«n»44017291)"],
    ),
    _k(
        "docusign_secret_key",
        "DocuSign secret key",
        ["DOCUSIGN_SECRET_KEY"],
        _uuid,
        "DocuSign",
        ["DocuSign app «tenant»-cta: integration key «uuid» (public), secret key «S» — only for the auth-code grant"],
    ),
    _k(
        "box_client_secret",
        "Box client secret",
        ["BOX_CLIENT_SECRET"],
        lambda r: _mixed(r, ALNUM, 32),
        "Box",
        [
            '{\n  "boxAppSettings": {\n    "clientID": "«CID»",\n    "clientSecret": "«S»"\n  },\n  "enterpriseID": "«n»4417"\n}'
        ],
    ),
    _k(
        "entra_client_secret",
        "Entra ID app client secret",
        ["AZURE_CLIENT_SECRET", "MSAL_CLIENT_SECRET"],
        _entra,
        "Microsoft Entra ID",
        [
            '$ az ad app credential reset --id «uuid» --display-name cro-sync\n{\n  "appId": "«uuid»",\n  "password": "«S»",\n  "tenant": "«uuid»"\n}'
        ],
    ),
    _k(
        "vpn_preshared_key",
        "VPN pre-shared key",
        ["VPN_PSK"],
        lambda r: _pw_gen(r, r.randint(24, 40)),
        "CRO site-to-site VPN",
        ctype="pw",
        spec=[
            'conn cro-s2s\n  left=%defaultroute\n  right=«ip»\n  authby=secret\n# /etc/ipsec.secrets\n%any «ip» : PSK "«S»"'
        ],
    ),
    _k(
        "jira_api_token",
        "Jira API token",
        ["JIRA_API_TOKEN", "ATLASSIAN_TOKEN"],
        _atl,
        "Jira",
        ["$ curl -u «user»@«domain»:«S» https://«tenant».atlassian.net/rest/api/3/issue/«ticket»"],
    ),
    _k(
        "zendesk_api_token",
        "Zendesk API token",
        ["ZENDESK_API_TOKEN"],
        lambda r: _mixed(r, ALNUM, 40),
        "Zendesk",
        ["$ curl https://«tenant».zendesk.com/api/v2/tickets.json -u «user»@«domain»/token:«S»"],
    ),
    _k(
        "slack_webhook_url",
        "Slack webhook",
        ["SLACK_WEBHOOK_URL"],
        lambda r: _mixed(r, ALNUM, 24),
        "Slack",
        ctype="url",
        carrier="https://hooks.slack.com/services/T«T9»/B«B9»/«S»",
    ),
    _k("slack_bot_token", "Slack bot token", ["SLACK_BOT_TOKEN"], _slack_bot, "Slack"),
    _k(
        "github_pat",
        "GitHub personal access token",
        ["GITHUB_TOKEN", "GH_TOKEN"],
        lambda r: "gh" + "p_" + _mixed(r, ALNUM, 36),
        "GitHub",
        ["$ git clone https://«user»:«S»@github.com/«org»/lims-scripts.git"],
    ),
    _k(
        "github_fine_grained_pat",
        "GitHub fine-grained token",
        ["GH_PAT", "NXF_GITHUB_TOKEN"],
        lambda r: "github" + "_pat_" + _mixed(r, ALNUM, 22) + "_" + _mixed(r, ALNUM, 59),
        "GitHub",
        ["// ~/.nextflow/scm\nproviders {\n  github {\n    user = '«user»'\n    password = '«S»'\n  }\n}"],
    ),
    _k(
        "gitlab_pat",
        "GitLab token",
        ["GITLAB_TOKEN", "CI_JOB_PAT"],
        lambda r: "gl" + "pat-" + _mixed(r, URLS, 20),
        "GitLab",
    ),
    _k(
        "dockerhub_pat",
        "Docker Hub access token",
        ["DOCKERHUB_TOKEN"],
        lambda r: "dckr" + "_pat_" + _mixed(r, URLS, 27),
        "Docker Hub",
        ["$ echo «S» | docker login -u «org»bot --password-stdin\nLogin Succeeded"],
    ),
    _k(
        "huggingface_token",
        "Hugging Face token",
        ["HF_TOKEN"],
        lambda r: "h" + "f_" + _r(r, UP + LO, 34),
        "Hugging Face",
    ),
    _k(
        "openai_api_key",
        "OpenAI API key",
        ["OPENAI_API_KEY"],
        lambda r: "sk-" + "proj-" + _r(r, URLS, 64) + "T3Blbk" + "FJ" + _r(r, URLS, 64),
        "OpenAI",
    ),
    _k(
        "anthropic_api_key",
        "Anthropic API key",
        ["ANTHROPIC_API_KEY"],
        lambda r: "sk-" + "ant-api03-" + _r(r, URLS, 93) + "AA",
        "Anthropic",
    ),
    _k(
        "sendgrid_api_key",
        "SendGrid API key",
        ["SENDGRID_API_KEY"],
        lambda r: "S" + "G." + _r(r, URLS, 22) + "." + _r(r, URLS, 43),
        "SendGrid",
    ),
    _k(
        "twilio_auth_token",
        "Twilio auth token",
        ["TWILIO_AUTH_TOKEN"],
        lambda r: _r(r, HEXL, 32),
        "Twilio (sample-ready SMS)",
    ),
    _k(
        "sentry_auth_token",
        "Sentry auth token",
        ["SENTRY_AUTH_TOKEN"],
        lambda r: "sntry" + "u_" + _r(r, HEXL, 64),
        "Sentry",
    ),
    _k(
        "npm_token",
        "npm token",
        ["NPM_TOKEN"],
        lambda r: "np" + "m_" + _mixed(r, ALNUM, 36),
        "npm",
        ["# .npmrc\n//registry.npmjs.org/:_authToken=«S»\n@«org»:registry=https://registry.npmjs.org/"],
    ),
    _k(
        "pypi_token",
        "PyPI API token",
        ["TWINE_PASSWORD", "PYPI_TOKEN"],
        lambda r: "pypi-" + "AgEIcHlwaS5vcmc" + _r(r, URLS, r.randint(120, 160)),
        "PyPI",
        ["# ~/.pypirc\n[pypi]\nusername = __token__\npassword = «S»"],
    ),
    _k(
        "mysql_password",
        "MySQL password",
        ["LIMS_MYSQL_URL"],
        _pw_url,
        "MySQL (legacy LIMS)",
        ctype="url",
        spec=[
            "$ mysql -h «host» -u lims -p'«S»' lims_prod -e 'select count(*) from samples'\n+----------+\n| count(*) |\n+----------+\n|    «n»812 |\n+----------+"
        ],
        carrier="mysql+pymysql://lims:«S»@«host»:3306/lims_prod",
    ),
    _k(
        "mongodb_password",
        "MongoDB password",
        ["MONGO_URI"],
        _pw_url,
        "MongoDB",
        ctype="url",
        carrier="mongodb+srv://«dbuser»:«S»@cluster0.«hex7».mongodb.net/platereader?retryWrites=true&w=majority",
    ),
    _k(
        "redis_password",
        "Redis password",
        ["REDIS_URL", "CELERY_BROKER_URL"],
        _pw_url,
        "Redis",
        ctype="url",
        spec=[
            "$ redis-cli -h «host» -a '«S»' ping\nWarning: Using a password with '-a' or '-u' option on the command line interface may not be safe.\nPONG"
        ],
        carrier="redis://:«S»@«host»:6379/0",
    ),
    _k(
        "rabbitmq_password",
        "RabbitMQ password",
        ["AMQP_URL"],
        _pw_url,
        "RabbitMQ",
        ctype="url",
        carrier="amqp://instrument_events:«S»@«host»:5672/lab",
    ),
    _k(
        "basic_auth_url_password",
        "basic-auth URL",
        ["NEXUS_URL", "PIP_INDEX_URL"],
        _pw_url,
        "Nexus repository",
        ctype="url",
        carrier="https://deploy:«S»@nexus.«domain»/repository/pypi-internal/simple",
    ),
    _k(
        "django_secret_key",
        "Django SECRET_KEY",
        ["DJANGO_SECRET_KEY"],
        lambda r: _mixed(r, LO + DIG + "!@$%^&*(-_=+)", 50),
        "sample-tracking Django app",
        ctype="pw",
        spec=['# labtrack/settings/prod.py\nDEBUG = False\nSECRET_KEY = "«S»"\nALLOWED_HOSTS = ["labtrack.«domain»"]'],
    ),
    _k(
        "grafana_service_account_token",
        "Grafana service account token",
        ["GRAFANA_TOKEN"],
        lambda r: "gl" + "sa_" + _mixed(r, ALNUM, 32) + "_" + _r(r, HEXL, 8),
        "Grafana",
    ),
    _k(
        "datadog_api_key",
        "Datadog API key",
        ["DD_API_KEY"],
        lambda r: _r(r, HEXL, 32),
        "Datadog",
    ),
    _k(
        "keycloak_client_secret",
        "Keycloak client secret",
        ["OIDC_CLIENT_SECRET", "KEYCLOAK_CLIENT_SECRET"],
        lambda r: _mixed(r, ALNUM, 32),
        "Keycloak SSO",
        [
            "OIDC for LabKey via Keycloak (realm lab): client_id=labkey, client_secret=«S», redirect https://labkey.«domain»/labkey/openid"
        ],
    ),
    _k(
        "ldap_bind_password",
        "LDAP bind password",
        ["LDAP_BIND_PASSWORD"],
        _pw,
        "Active Directory",
        ctype="pw",
        spec=[
            "$ ldapsearch -H ldaps://dc01.«domain» -D 'CN=svc_ldap,OU=Service,DC=lab,DC=internal' -w '«S»' -b 'DC=lab,DC=internal' '(sAMAccountName=«user»)'"
        ],
    ),
    _k(
        "wireguard_private_key",
        "WireGuard private key",
        ["WG_PRIVATE_KEY"],
        lambda r: _b64(r, 32),
        "WireGuard",
        [
            "[Interface]\nPrivateKey = «S»\nAddress = 10.88.0.«n»/32\n\n[Peer]\nEndpoint = vpn.«domain»:51820\nAllowedIPs = 10.0.0.0/8"
        ],
    ),
    _k(
        "m365_app_password",
        "Microsoft 365 app password",
        ["SMTP_PASSWORD"],
        lambda r: _r(r, LO, 16),
        "Microsoft 365 SMTP",
        ctype="pw",
        spec=["Instrument alert mail: smtp.office365.com:587, user qpcr-alerts@«domain», app password «S»"],
    ),
    _k(
        "azure_devops_pat",
        "Azure DevOps PAT",
        ["AZURE_DEVOPS_EXT_PAT", "ADO_PAT"],
        lambda r: _mixed(r, B32L, 52),
        "Azure DevOps",
    ),
    _k(
        "databricks_token",
        "Databricks token",
        ["DATABRICKS_TOKEN"],
        lambda r: "dap" + "i" + _r(r, HEXL, 32),
        "Databricks",
    ),
    _k(
        "terraform_cloud_token",
        "Terraform Cloud token",
        ["TF_TOKEN_app_terraform_io"],
        lambda r: _mixed(r, ALNUM, 14) + ".atlas" + "v1." + _mixed(r, ALNUM, 67),
        "Terraform Cloud",
    ),
    _k(
        "age_secret_key",
        "age secret key",
        ["SOPS_AGE_KEY"],
        lambda r: "AGE-SECRET" + "-KEY-1" + _r(r, BECH, 58),
        "sops/age",
        ["# created: «date»T10:21:07+01:00\n# public key: age1«AGEPUB»\n«S»"],
    ),
    _k(
        "hashicorp_vault_token",
        "Vault token",
        ["VAULT_TOKEN"],
        lambda r: "hv" + "s." + _mixed(r, URLS, 91),
        "HashiCorp Vault",
    ),
    _k(
        "acr_admin_password",
        "ACR admin password",
        ["ACR_PASSWORD"],
        lambda r: _mixed(r, ALNUM + "+/", 52),
        "Azure Container Registry",
        ctype="pw",
        spec=[
            "$ docker login «tenant»lab.azurecr.io -u «tenant»lab -p «S»\nWARNING! Using --password via the CLI is insecure.\nLogin Succeeded"
        ],
    ),
    _k(
        "jupyter_server_token",
        "Jupyter server token",
        ["JUPYTER_TOKEN"],
        lambda r: _r(r, HEXL, 48),
        "JupyterLab on the HPC",
        [
            "[I «date» «time»:12.331 ServerApp] Jupyter Server 2.14.2 is running at:\n[I «date» «time»:12.331 ServerApp] http://«host»:8888/lab?token=«S»\n[I «date» «time»:12.331 ServerApp]     http://127.0.0.1:8888/lab"
        ],
    ),
    _k(
        "stripe_secret_key",
        "Stripe secret key",
        ["STRIPE_SECRET_KEY"],
        lambda r: "sk_" + "live_" + _mixed(r, ALNUM, r.choice([24, 99])),
        "Stripe (reagent web shop)",
    ),
]


# ---------------------------------------------------------------- generic templates
_PROSE = [
    "Note «date»: «label» for «where» is «V» — rotate after the «cro» audit.",
    "Lesson learned: the «pipeline» run failed with 401 because «ENV» was stale. New value from «person»: «V»",
    "TODO(«person»): move the «label» out of this note and into Key Vault. Current value: «V»",
    "Runbook — «svc» outage\n1. ssh «host»\n2. export «ENV»=«V»\n3. rerun the «pipeline» step with -resume\n4. post in #lab-informatics",
    "«ticket» [«svc»] access broken for CRO users\nReporter: «fullname»\nStatus: In progress\n\nWorkaround until IT reissues: use the shared «label» `«V»`.",
    "From: «user»@«domain»\nTo: lab-informatics@«domain»\nSubject: «svc» credentials for «cro»\n\nHi all,\nas agreed, the «label» is «V»\nPlease don't forward this.\n\nBest,\n«fullname»",
    "[«time»] «person»: does anyone have the «label»? «pipeline» is stuck\n[«time»] «person2»: «V»\n[«time»] «person»: thanks!",
    "ELN «date» — batch «batch», plate «plate»\nUploaded results from «where» (used «label» «V»). QC passed, «n» wells flagged.",
    "Decision «date»: «cro» gets read-only «where» access for study «study». Shared «label»: «V» (expires «date2»).",
    "Remember for next time: «where» wants the «label» in «ENV», not in the config file. Working value: «V»",
    "Handover notes from «fullname»:\n- «svc» owner: «person2»\n- «label»: «V»\n- backups on «host»",
    "Husk: «label» til «where» er «V» — må ikke deles med CRO'en.",
    "Let op: de «label» voor «where» is «V», graag niet in Slack plakken.",
    "תזכורת: ה-«label» של «where» הוא «V» — להחליף אחרי הביקורת של «cro».",
    "नोट («date»): «where» का «label» «V» है, इसे CRO के साथ साझा न करें।",
    "Lembrete: a «label» do «where» é «V» — trocar depois da auditoria da «cro».",
    "Uwaga: «label» do «where» to «V» — nie wklejać na kanał zespołu.",
]
_CONFIG = [
    "# «svc»\n«ENV»=«V»\nLOG_LEVEL=info",
    "«slug»:\n  endpoint: https://«slug».«domain»\n  «snake»: «V»\n  timeout: 30",
    '{\n  "service": "«svc»",\n  "«camel»": "«V»",\n  "retries": 3\n}',
    "[«slug»]\nhost = «host»\n«snake» = «V»",
    "services:\n  worker:\n    image: ghcr.io/«org»/lims-sync:1.«n»\n    environment:\n      - «ENV»=«V»\n      - TZ=Europe/Copenhagen",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: «slug»-creds\n  namespace: lab\ntype: Opaque\nstringData:\n  «ENV»: «V»",
    "# ~/.Renviron on rstudio-«n»\n«ENV»=«V»\nR_LIBS_USER=~/R/library",
    '# settings.py\n«ENV» = "«V»"  # TODO: read from env',
    "// nextflow.config\nprofiles {\n  prod {\n    env {\n      «ENV» = '«V»'\n    }\n  }\n}",
    "# profiles/slurm/config.yaml\nexecutor: slurm\njobs: «n»\nconfig:\n  - «snake»=«V»",
    '{\n  "«wf».sample_sheet": "s3://«bucket»/«run»/SampleSheet.csv",\n  "«wf».«snake»": "«V»"\n}',
    "# job.cwl.yml\n«snake»: «V»\nreads:\n  class: File\n  path: /data/«run»/«sample»_R1.fastq.gz",
]
_TOOL = [
    "$ export «ENV»=«V»\n$ python sync_«slug».py --since «date»\nsynced «n» records",
    "«date»T«time»:03Z INFO  [«slug»] starting with config {'«snake»': '«V»', 'timeout': 30}",
    "##[group]Run ./scripts/deploy.sh\n  ./scripts/deploy.sh\n  env:\n    «ENV»: «V»\n##[endgroup]\nDeploying to «host»...",
    "In [«n1»]: os.environ[\"«ENV»\"]\nOut[«n1»]: '«V»'",
    "$ printenv | grep -i «ENV»\n«ENV»=«V»",
    "$ kubectl -n lab get secret «slug»-creds -o jsonpath='{.data.«ENV»}' | base64 -d\n«V»",
]
_TOKEN_ONLY = [
    "> GET /api/v1/status HTTP/1.1\n> Host: «slug».«domain»\n> Authorization: Bearer «V»\n>\n< HTTP/1.1 200 OK",
    '$ curl -s -H "Authorization: Bearer «V»" https://«slug».«domain»/api/health\n{"status":"ok"}',
]


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")[:24].strip("-")


def _ctx(rng, k):
    env = rng.choice(k["envs"]) if k["envs"] else "SECRET"
    snake = env.lower()
    parts = snake.split("_")
    camel = parts[0] + "".join(p.capitalize() for p in parts[1:])
    akid = "AK" + "IA" + _r(rng, UP + "234567", 16)
    wheres = [
        "the «pipeline» pipeline",
        "the «cro» integration",
        "study «study»",
        "«host»",
        "the instrument VLAN",
        "the CRO data room",
    ]
    if k["svc"].split()[0].lower() not in k["label"].lower():
        wheres.append(k["svc"])
    return {
        "n1": str(rng.randint(2, 97)),
        "where": _fill(rng, rng.choice(wheres), {}),
        "label": k["label"],
        "svc": k["svc"],
        "ENV": env,
        "snake": snake,
        "camel": camel,
        "slug": _slug(k["svc"]),
        "AKID": akid,
        "T9": _r(rng, UP + DIG, rng.choice([8, 10])),
        "B9": _r(rng, UP + DIG, rng.choice([9, 11])),
        "CID": _r(rng, LOALNUM, 32),
        "AGEPUB": _r(rng, BECH.lower(), 58),
    }


def _positive(rng, k):
    spec = k["spec"]
    use_spec = spec and (not k["generic"] or rng.random() < 0.35)
    if use_spec:
        t = rng.choice(spec)
        if callable(t):
            return t(rng)
        ctx = _ctx(rng, k)
        s = k["gen"](rng)
        ctx["S"] = s
        ctx["V"] = s
        return _fill(rng, t, ctx), s
    roll = rng.random()
    pool = _PROSE if roll < 0.5 else (_CONFIG if roll < 0.75 else _TOOL)
    if k["ctype"] == "token" and rng.random() < 0.25:
        pool = _TOKEN_ONLY
    t = rng.choice(pool)
    ctx = _ctx(rng, k)
    s = k["gen"](rng)
    ctx["S"] = s
    ctx["V"] = _fill(rng, k["carrier"], ctx)
    return _fill(rng, t, ctx), s


# ---------------------------------------------------------------- look-alikes
def _bcrypt(r):
    return "$2b$" + r.choice(["10", "12"]) + "$" + _r(r, ALNUM + "./", 53)


def _argon(r):
    return "$argon2id$v=19$m=65536,t=3,p=4$" + _b64(r, 16).rstrip("=") + "$" + _b64(r, 32).rstrip("=")


def _scram(r):
    return "SCRAM-SHA-256$4096:" + _b64(r, 16) + "$" + _b64(r, 32) + ":" + _b64(r, 32)


def _vault_blob(r):
    body = _r(r, HEXL, 80 * r.randint(3, 5))
    lines = [body[i : i + 80] for i in range(0, len(body), 80)]
    return "$ANSIBLE_" + "VAULT;1.1;AES256\n" + "\n".join(lines)


def _sops(r):
    return f"ENC[AES256_GCM,data:{_b64(r, r.randint(12, 30))},iv:{_b64(r, 32)},tag:{_b64(r, 16)},type:str]"


def _cert(r):
    body = base64.b64encode(b"\x30\x82\x03\x5a\x30\x82\x02\x42\xa0\x03\x02\x01\x02" + _bytes(r, 820)).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----"


def _pubkey_pem(r):
    body = base64.b64encode(
        b"\x30\x82\x01\x22\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x03\x82\x01\x0f\x00"
        + _bytes(r, 270)
    ).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN PUBLIC KEY-----\n" + "\n".join(lines) + "\n-----END PUBLIC KEY-----"


def _dna(r, n):
    return _r(r, "ACGT", n)


def _protein(r, n):
    return "M" + _r(r, "ACDEFGHIKLMNPQRSTVWY", n - 1)


def _qual(r, n):
    return _r(r, "FF:,F:FFFF#F:FF,FFFFFFFF", n)


def _jwt_anon(r):
    h = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    p = (
        base64.urlsafe_b64encode(
            ('{"iss":"supabase","ref":"' + _r(r, LO, 20) + '","role":"anon","iat":17' + _r(r, DIG, 8) + "}").encode()
        )
        .decode()
        .rstrip("=")
    )
    return h + "." + p + "." + _r(r, URLS, 43)


_LF = {
    "sha1": lambda r: _r(r, HEXL, 40),
    "sha256": lambda r: _r(r, HEXL, 64),
    "md5": lambda r: _r(r, HEXL, 32),
    "hex16": lambda r: _r(r, HEXL, 16),
    "hex12": lambda r: _r(r, HEXL, 12),
    "b64_16": lambda r: _b64(r, 16),
    "b64_32": lambda r: _b64(r, 32),
    "b64img": lambda r: "iVBORw0KGgoAAAANSUhEUgAA" + _b64(r, r.randint(60, 120)),
    "bcrypt": _bcrypt,
    "argon": _argon,
    "scram": _scram,
    "vaultblob": _vault_blob,
    "sops": _sops,
    "cert": _cert,
    "pubpem": _pubkey_pem,
    "dna20": lambda r: _dna(r, 20),
    "dna8": lambda r: _dna(r, 8),
    "dna10": lambda r: _dna(r, 10),
    "dna150": lambda r: _dna(r, 150),
    "qual150": lambda r: _qual(r, 150),
    "protein": lambda r: _protein(r, r.randint(60, 120)),
    "jwtanon": _jwt_anon,
    "sshpub": lambda r: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _b64(r, 32)[:43],
    "sshfp": lambda r: "SHA256:" + _b64(r, 32).rstrip("="),
    "wgpub": lambda r: _b64(r, 32),
    "agepub": lambda r: "age1" + _r(r, BECH.lower(), 58),
    "pgpfp": lambda r: " ".join(_r(r, HEXU, 4) for _ in range(10)),
    "pk": lambda r: "pk_" + "live_" + _mixed(r, ALNUM, 99),
    "firebase": lambda r: "AI" + "za" + _r(r, URLS, 35),
    "gclient": lambda r: f"{r.randint(10**11, 10**12)}-{_r(r, LOALNUM, 32)}.apps.googleusercontent.com",
    "sitekey": lambda r: "6L" + _r(r, URLS, 38),
    "mapbox": lambda r: "p" + "k.eyJ1Ijoi" + _r(r, URLS, 40) + "." + _r(r, URLS, 22),
    "dxfile": lambda r: "file-" + _r(r, "0123456789BFGJKPQVXYZ", 24),
    "dxproj": lambda r: "project-" + _r(r, "0123456789BFGJKPQVXYZ", 24),
    "dxjob": lambda r: "job-" + _r(r, "0123456789BFGJKPQVXYZ", 24),
    "bseq": lambda r: "seq_" + _r(r, ALNUM, 8),
    "bent": lambda r: r.choice(["bfi_", "etr_", "plt_", "box_", "con_"]) + _r(r, ALNUM, 8),
    "twid": lambda r: _r(r, ALNUM, 14),
    "galid": lambda r: _r(r, HEXL, 16),
    "ulid": lambda r: "01" + _r(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24),
    "sfqid": lambda r: (
        f"01b{_r(r, HEXL, 5)}-0{r.randint(100, 999)}-{_r(r, HEXL, 4)}-0000-{r.randint(1000, 9999)}{_r(r, HEXL, 8)}"
    ),
    "amzreq": lambda r: _r(r, UP + DIG, 16),
    "amzid2": lambda r: _b64(r, 56),
    "etag": lambda r: _r(r, HEXL, 32) + r.choice(["", "-" + str(r.randint(2, 90))]),
    "contmd5": lambda r: _b64(r, 16),
    "crc32c": lambda r: _b64(r, 4),
    "nxwork": lambda r: _r(r, HEXL, 2) + "/" + _r(r, HEXL, 30),
    "nxname": lambda r: (
        r.choice(["silly", "elated", "nostalgic", "goofy", "pensive", "furious"])
        + "_"
        + r.choice(["darwin", "franklin", "mendel", "curie", "watson", "mcclintock"])
    ),
    "docker64": lambda r: _r(r, HEXL, 64),
    "kvver": lambda r: _r(r, HEXL, 32),
    "srr": lambda r: f"{r.choice(['SRR', 'ERR', 'DRR'])}{r.randint(1000000, 29999999)}",
    "ens": lambda r: f"ENSG{r.randint(0, 99999999999):011d}",
    "doi": lambda r: f"10.{r.randint(1000, 9999)}/{_r(r, LO + DIG, 8)}",
    "npmint": lambda r: "sha512-" + _b64(r, 64),
    "gosum": lambda r: "h1:" + _b64(r, 32),
    "slackch": lambda r: "C0" + _r(r, UP + DIG, 9),
    "sid": lambda r: (
        f"S-1-5-21-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(10**9, 4 * 10**9)}-{r.randint(1000, 9999)}"
    ),
    "kmsblob": lambda r: "AQICAHh" + _b64(r, 150),
    "sealed": lambda r: "AgB" + _b64(r, 300),
    "snake2": lambda r: r.choice(["benchling", "dnanexus", "redcap", "smartsheet", "quartzy", "labkey"]),
    "ph": lambda r: r.choice(
        [
            "<your-api-key>",
            "<TOKEN>",
            "changeme",
            "REPLACE_ME",
            "xxxxxxxxxxxxxxxx",
            "********",
            "${SECRET}",
            "<redacted>",
            "YOUR_KEY_HERE",
            "[FILTERED]",
            "TODO",
        ]
    ),
    "envname": lambda r: r.choice(
        [
            "BENCHLING_API_KEY",
            "DX_API_TOKEN",
            "TOWER_ACCESS_TOKEN",
            "NCBI_API_KEY",
            "SNOWFLAKE_PASSWORD",
            "REDCAP_API_TOKEN",
            "AZURE_CLIENT_SECRET",
            "GALAXY_API_KEY",
        ]
    ),
    "secname": lambda r: r.choice(
        [
            "benchling-api-key",
            "dnanexus-token",
            "snowflake-pw",
            "redcap-token",
            "tower-token",
            "sftp-novogene",
            "entra-cro-sync",
            "basespace-token",
        ]
    ),
    "lane": lambda r: str(r.randint(1, 4)),
    "pct": lambda r: f"{r.randint(80, 99)}.{r.randint(0, 99):02d}",
    "num": lambda r: str(r.randint(10**8, 10**10)),
}


def _lfill(rng, tmpl):
    def rep(m):
        k = m.group(1)
        if k in _LF:
            return _LF[k](rng)
        return _FILL[k](rng)

    return _PH.sub(rep, tmpl)


_LOOK_T = [
    [
        "git log -1 --format=%H on the «pipeline» repo: «sha1» (tagged v3.«n».0 by «person»)",
        "Pinned «pipeline» to revision «sha1» in the Seqera launchpad.",
    ],
    [
        "$ sha256sum «sample»_R1.fastq.gz\n«sha256»  «sample»_R1.fastq.gz",
        "«sha256»  «run»/«sample»_R2.fastq.gz",
    ],
    [
        "md5 from «provider» manifest: «md5»  «sample»_S1_L00«lane»_R1_001.fastq.gz",
        "$ md5sum -c checksums.md5\n«sample»_R1.fastq.gz: OK  («md5»)",
    ],
    [
        "Request id «uuid» failed with 502 on «svcname», retried OK.".replace("«svcname»", "Benchling"),
        "x-ms-request-id: «uuid»\nx-ms-version: 2022-11-02\nDate: Tue, 04 Nov 2026 10:12:44 GMT",
    ],
    [
        "Nextflow session «uuid» resumed; run name «nxname». Work dir work/«nxwork»",
        "[«nxwork»] process > NFCORE_RNASEQ:STAR_ALIGN («sample») [100%] 1 of 1 ✔",
    ],
    [
        "Seqera workflow id «twid» (run «nxname») finished in 3h «n»m; workspace id «num».",
        "tw runs view -i «twid» -w «tenant»/production",
    ],
    [
        "DNAnexus output: «dxfile» in «dxproj» (job «dxjob»)",
        "$ dx describe «dxfile»\nID                  «dxfile»\nClass               file\nProject             «dxproj»\nState               closed",
    ],
    [
        "Benchling sequence «bseq» linked to entry «bent» for plate «plate».",
        "Registry import created «bseq», «bseq» and «bseq» in folder lib_«hex12»",
    ],
    [
        "Galaxy history id «galid», dataset id «galid» (encoded ids, safe to share)",
        "https://usegalaxy.eu/datasets/«galid»/display?preview=True",
    ],
    [
        '<img src="data:image/png;base64,«b64img»" alt="gel «plate»"/>',
        "Out[«n»]: {'image/png': '«b64img»'}",
    ],
    ["Ops DB user «user» password hash: «bcrypt»", "htpasswd entry → «user»:«bcrypt»"],
    [
        "LabKey user table dump: «user», «argon»",
        'password_hash = "«argon»"  # argon2id, never log plaintext',
    ],
    ["pg_authid rolpassword for «dbuser»: «scram»"],
    [
        "group_vars/instrument_pcs/vault.yml:\n«vaultblob»",
        "admin_password: !vault |\n  «vaultblob»",
    ],
    [
        "snowflake_password: «sops»\nsops:\n    kms: []\n    age:\n        - recipient: «agepub»",
        "REDCAP_API_TOKEN: «sops»",
    ],
    [
        "CRO portal TLS cert (public):\n«cert»",
        "Pinned the «cro» SFTP server certificate:\n«cert»",
    ],
    ["DocuSign JWT public key uploaded:\n«pubpem»"],
    [
        "Primer F: «dna20»\nPrimer R: «dna20»\nTm 60 °C, product «n»0 bp",
        "gRNA spacer «dna20» (target exon «n»)",
    ],
    [
        "[Data]\nSample_ID,index,index2\n«sample»,«dna10»,«dna10»\n«sample»,«dna10»,«dna10»",
        "i7 index «dna8», i5 «dna8» — lane «lane»",
    ],
    ["@«run»:1:1101:«n»:«n» 1:N:0:«dna8»\n«dna150»\n+\n«qual150»"],
    [">sp|P«n»|construct_«plate» expressed in HEK293\n«protein»"],
    [
        "Supabase anon key (public, RLS protects data): «jwtanon»",
        "NEXT_PUBLIC_SUPABASE_ANON_KEY=«jwtanon»",
    ],
    [
        "authorized_keys on «host»:\n«sshpub» «user»@laptop",
        "Send «provider» our PUBLIC key only: «sshpub» delivery@«org»",
    ],
    [
        "Host key fingerprint for sftp.«domain» is «sshfp» (ED25519) — verify before accepting.",
        "ssh-keygen -lf ~/.ssh/«keyfile».pub\n256 «sshfp» «user»@«host» (ED25519)",
    ],
    ["[Peer]\nPublicKey = «wgpub»\nEndpoint = vpn.«domain»:51820\nAllowedIPs = 10.«n».0.0/16"],
    [
        "sops recipients: «agepub», «agepub»",
        "age public key for the CI runner: «agepub»",
    ],
    ["GPG key fingerprint for signing releases: «pgpfp»"],
    [
        "Stripe publishable key for the reagent shop checkout: «pk»",
        "STRIPE_PUBLISHABLE_KEY=«pk»",
    ],
    [
        'const firebaseConfig = {\n  apiKey: "«firebase»",\n  authDomain: "sample-tracker-«n».firebaseapp.com",\n  projectId: "sample-tracker-«n»"\n};'
    ],
    ["Google OAuth client id for Terra login: «gclient»", "GOOGLE_CLIENT_ID=«gclient»"],
    ["reCAPTCHA site key on the sample-submission form: «sitekey»"],
    ["Mapbox public token for the site map (URL-restricted): «mapbox»"],
    [
        "Sentry DSN for labtrack: https://«md5»@o«n»1234.ingest.de.sentry.io/«num»",
        "SENTRY_DSN=https://«md5»@o«n»88.ingest.sentry.io/«n»",
    ],
    ["Algolia search-only key (public, front-end): «md5», app id «amzreq»"],
    [
        "Entra app «tenant»-cro-sync: Application (client) ID «uuid», Directory (tenant) ID «uuid»",
        "AZURE_TENANT_ID=«uuid»\nAZURE_CLIENT_ID=«uuid»\nAZURE_SUBSCRIPTION_ID=«uuid»",
    ],
    [
        "DocuSign integration key (client id, not secret): «uuid»",
        "DocuSign envelope «uuid» completed by site «site».",
    ],
    [
        "Store the key as ${{ secrets.«envname» }} and reference it in the workflow.",
        "env:\n  «envname»: ${{ secrets.«envname» }}",
    ],
    [
        'token = Variable.get("«secname»")  # Airflow variable for «pipeline», value lives in the metastore',
        'password = dbutils.secrets.get(scope="lab", key="«secname»")\ndf = spark.read.jdbc(url, "«db».samples_«n»", properties={"user": "«dbuser»", "password": password})',
    ],
    [
        "vault kv get -field=value secret/data/lims/prod/«secname»",
        "Secret lives at secret/lab/«tenant»/«secname» (Vault KV v2), owner «person»",
    ],
    [
        "arn:aws:secretsmanager:eu-west-1:«num»:secret:«secname»-«hex7»".replace("«hex7»", "AbC1x2"),
        "aws secretsmanager get-secret-value --secret-id «secname» --query SecretString",
    ],
    ["@Microsoft.KeyVault(SecretUri=https://kv-«tenant»-lab.vault.azure.net/secrets/«secname»/«kvver»)"],
    ["env:\n  - name: «envname»\n    valueFrom:\n      secretKeyRef:\n        name: «secname»\n        key: value"],
    [
        'op read "op://Lab Informatics/«secname»/credential"',
        "1Password item «secname» in vault 'CRO' (ask «person»)",
    ],
    [
        "Set «envname» in your shell before running «pipeline»; see the wiki page 'Credentials' for where to get it.",
        "Error: «envname» is not set on «host». Export it or add it to ~/.Renviron.",
    ],
    ["«envname»=«ph»", "# .env.example\n«envname»=«ph»\nLOG_LEVEL=info"],
    [
        "password: «ph»  # set in the «cro» portal, do not commit",
        '«snake2»:\n  api_key: "«ph»"\n  base_url: https://«host»/api/v«n»',
    ],
    [
        "Authorization: Bearer ********\n< HTTP/1.1 401 Unauthorized",
        "2026-11-0«lane»T«time»:01Z DEBUG request headers={'Authorization': '[REDACTED]', 'x-request-id': '«uuid»'}",
    ],
    [
        "Snowflake query id «sfqid» took «n» s on LAB_WH",
        "Query «sfqid» failed: SQL compilation error",
    ],
    ["x-amz-request-id: «amzreq»\nx-amz-id-2: «amzid2»", 'S3 PUT ok, ETag "«etag»"'],
    [
        "Content-MD5: «contmd5»\nx-ms-content-crc64: «b64_16»",
        "gsutil hash: Hash (crc32c): «crc32c»  Hash (md5): «contmd5»",
    ],
    [
        "FROM ghcr.io/«org»/nf-tools@sha256:«docker64»",
        "container 'quay.io/biocontainers/samtools@sha256:«docker64»'",
    ],
    ["$ docker ps\nCONTAINER ID   IMAGE             STATUS\n«hex12»   lims-sync:1.«n»   Up 3 hours"],
    ["pkg: «sample»-tools==1.«n».0 --hash=sha256:«sha256»", '"integrity": "«npmint»"'],
    ["github.com/«org»/seqkit v0.«n».1 «gosum»"],
    ["Reads in «srr» and «srr», annotation for «ens», see doi:«doi»"],
    [
        "Posted to Slack channel «slackch» (team lab-informatics).",
        "slack channel id «slackch», thread ts 17«num».«n»",
    ],
    ["Local admin SID on «host»: «sid»"],
    ["CiphertextBlob (KMS-encrypted, safe to store): «kmsblob»"],
    ["kind: SealedSecret\nspec:\n  encryptedData:\n    password: «sealed»"],
    [
        "«person»: the AWS docs example secret wJalrXUtnFEMI/K7MDENG/bPxRfi"
        + "CYEXAMPLEKEY is in step «n» of the «pipeline» README — replace with your own.",
        "Example from the Benchling docs copied into «ticket»: sk_" + "XXXXXXXXXXXXXXXXXXXXXXXX (not a real key)",
    ],
    [
        "Password policy for instrument PCs: min 14 chars, no reuse of last 10, rotated by LAPS every 30 days.",
        "Rotated the «label2» on «date»; new value is in Key Vault, not here.".replace(
            "«label2»", "Snowflake password"
        ),
    ],
    [
        "Illumina run folder «run», cluster PF «pct»%, Q30 «pct»%",
        "BaseSpace run id «num», project id «num», biosample «sample»",
    ],
    [
        "Jupyter: In [«n»]: df.shape\nOut[«n»]: («num», «n»)",
        "Execution count «n», kernel id «uuid», session «uuid»",
    ],
    ["Cromwell workflow id «uuid» submitted to Terra, submission «uuid»"],
    ["Seven Bridges task id «uuid» — status COMPLETED, app «org»/rnaseq/star/«n»"],
    ["Medidata Rave study OID «study»(PROD), site «site», subject «study»-«site»-«n»"],
    ["Veeva Vault doc VV-QDOC-«num» v«n».0 approved by «fullname»"],
    ["REDCap record «n» in project «num», event baseline_arm_1, form demographics complete"],
    ["Smartsheet sheet id «num», row id «num» updated by the CRO sync"],
    ["Box folder id «num», file id «num» uploaded by «cro»"],
    ["Jira «ticket» links to commit «hex7» and PR #«n»"],
    ["ULID of the upload: «ulid»", "event_id=«ulid» source=minknow device=MN«num»"],
    ["terraform lock: h1:«b64_32»\n  zh:«sha256»"],
    ["Terraform state serial «n», lineage «uuid»"],
    ["Salt for sample pseudonymisation is stored in HSM slot «n»; pseudonym for «sample» → «hex16»"],
    ["HMAC of subject id (pseudonym, not a key): «sha256»"],
    [
        "MinKNOW flow cell FAY«n»123, position «dna8», run id «sha1»",
        "MinKNOW protocol_run_id «uuid» on «host»",
    ],
    ["Synology Hyper Backup task id «n»; target C2 bucket «bucket», encryption enabled (key on the offline USB)"],
    [
        "Globus endpoint id «uuid» (collection «tenant»-seq-drop)",
        "globus transfer «uuid»:/«run» «uuid»:/incoming/«run»",
    ],
    ["Aspera node id «uuid», transfer session «uuid»"],
    ["KMS key id «uuid» (alias/healthomics-«tenant») used for the sequence store"],
    ["JWKS kid «hex16» for the Keycloak realm lab (public key, rotates monthly)"],
    ["Docusign: account id «uuid», base uri https://eu.docusign.net"],
    ["AWS HealthOmics run «num», workflow «num», output s3://«bucket»/omics/«num»/"],
    ["Azure subscription «uuid», resource group rg-lab-«tenant», storage account «tenant»omics"],
    ["git diff --stat\nindex «hex7»..«hex7» 100644\n nextflow.config | 4 ++--"],
    ["CI run https://github.com/«org»/pipelines/actions/runs/«num» passed (commit «sha1»)"],
    ["SBOM: sha1 «sha1», sha256 «sha256» for «sample»-tools-1.«n».tar.gz"],
    ["Well «well» OD600 0.«n», plate barcode «plate»-«dna8»"],
    ["UMI «dna10» collapsed «n» reads; cell barcode «dna20»"],
    ["CIGAR 76M2I«n»M, MD:Z:«n»A0T«n», NM:i:3"],
    [
        "$ tw credentials list\n  ID                     | Provider | Name            \n ------------------------+----------+---------------\n  «twid»         | aws      | omics-«tenant»"
    ],
    ["$ dx whoami\nuser-«user»\n$ dx env\nAuth token used         ****\nAPI server protocol     https"],
    ["$ bs whoami\nName: «fullname»\nId: «num»\nEmail: «user»@«domain»"],
    ['$ az account show --query \'{tenant:tenantId, sub:id}\'\n{\n  "sub": "«uuid»",\n  "tenant": "«uuid»"\n}'],
    [
        '$ aws sts get-caller-identity\n{\n    "UserId": "AROA«amzreq»:«user»",\n    "Account": "«num»",\n    "Arn": "arn:aws:sts::«num»:assumed-role/omics-runner/«user»"\n}'
    ],
    [
        'psql: error: connection to server at "«host»" («ip»), port 5432 failed: FATAL:  password authentication failed for user "«dbuser»"'
    ],
    ["sftp> ls -l\n-rw-r--r--  1 X202SC«n» users «num» «date» «sample»_R1.fastq.gz"],
    [
        "postgresql://«dbuser»@«host»:5432/«db» (password via ~/.pgpass)",
        "DATABASE_URL=postgresql://«dbuser»:${PGPASSWORD}@«host»:5432/«db»",
    ],
    [
        "Slack webhook for «pipeline» alerts is stored in secret SLACK_WEBHOOK_URL (owner «person»); format https://hooks.slack.com/services/T…/B…/… (do not paste)"
    ],
    [
        "ETL checkpoint token (pagination cursor, not auth): «b64_32»",
        "next_page_token: «b64_16»",
    ],
    ["Benchling webhook signature header webhook-id: msg_«ulid», webhook-timestamp: 17«num»"],
    ["LAPS status for «host»: password last set «date», expires «date2» (read via LAPS UI)"],
    ["Windows Hello PIN reset for «user» on «host» — no password stored here"],
    ["VPN: IKEv2 to «ip», certificate auth (CN=«host»), PSK not used anymore"],
    ["Quartzy order «num» for «n»x Q5 polymerase, PO «ticket»"],
    ["Dotmatics compound «tenant»-«num», batch «batch», registration id «hex12»"],
    ["NCBI BioProject PRJNA«num», BioSample SAMN«num»"],
    ["Token expired at «date»T«time»:00Z; refreshed via the OAuth device flow (nothing stored)."],
]


def _mk_look(tmpls):
    def gen(rng):
        return _lfill(rng, rng.choice(tmpls))

    return gen


_LOOK = [_mk_look(t) for t in _LOOK_T]


# ---------------------------------------------------------------- main
def generate(seed: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    rng = random.Random(seed)
    seen: set[str] = set()
    positives: list[tuple[str, str, str]] = []
    for k in KINDS:
        got = 0
        tries = 0
        while got < 30:
            tries += 1
            if tries > 3000:
                raise RuntimeError(f"cannot make 30 texts for {k['kind']}")
            text, secret = _positive(rng, k)
            if text in seen:
                continue
            assert secret in text, k["kind"]
            seen.add(text)
            positives.append((text, k["kind"], secret))
            got += 1
    lookalikes: list[str] = []
    for i, gen in enumerate(_LOOK):
        got = 0
        tries = 0
        while got < LOOK_PER_GEN:
            tries += 1
            if tries > 3000:
                raise RuntimeError(f"look-alike generator {i} stalls")
            t = gen(rng)
            if t in seen:
                continue
            seen.add(t)
            lookalikes.append(t)
            got += 1
    return positives, lookalikes
